/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Entry and return code of the x86-32 function hooks.
 *
 * x86-32 has no per-ops trampolines: a patched __fentry__ site calls one
 * of two shared callers, or ftrace_graph_caller for a site that only the
 * function graph hooks.  ftrace_caller hands the ops function no
 * registers (NULL: without DYNAMIC_FTRACE_WITH_ARGS a struct ftrace_regs
 * is a complete pt_regs or nothing); ftrace_regs_caller builds a full
 * struct pt_regs, for ops that ask for SAVE_REGS and for direct calls.
 * Both end at ftrace_graph_call, a NOP while the graph has no users and
 * a jump to ftrace_graph_caller while it has (switched by ftrace.c).
 *
 * The kernel is built with -mregparm=3: a call's first three arguments
 * are in %eax, %edx and %ecx, the rest on the stack.  So a hooked
 * function's arguments are in those registers at its site, and every
 * way out of here gives them back as they came, unless a handler with
 * a pt_regs changed them on purpose.
 */

#include <linux/export.h>
#include <linux/linkage.h>
#include <asm/asm-offsets.h>
#include <asm/ftrace.h>
#include <asm/frame.h>
#include <asm/nops.h>
#include <asm/nospec-branch.h>
#include <asm/segment.h>

	.section .text, "ax"

/*
 * With frame pointers, the site runs before the hooked function has
 * pushed %ebp.  hook_frames pushes two frames, so that a walk through
 * %ebp from a callback finds the hooked function, then its caller: one
 * for the caller's return address, one for the hooked function's.
 */
#ifdef CONFIG_FRAME_POINTER
# define HOOK_FP_FRAMES		(4 * 4)
#else
# define HOOK_FP_FRAMES		0
#endif

.macro hook_frames
#ifdef CONFIG_FRAME_POINTER
	pushl	4(%esp)
	pushl	%ebp
	movl	%esp, %ebp
	pushl	2*4(%esp)
	pushl	%ebp
	movl	%esp, %ebp
#endif
.endm

/* hook_frames_drop - undo hook_frames, and take %ebp back. */
.macro hook_frames_drop
#ifdef CONFIG_FRAME_POINTER
	movl	2*4(%esp), %ebp
	addl	$HOOK_FP_FRAMES, %esp
#endif
.endm

/* The argument registers, in the order regparm fills them. */
.macro args_save
	pushl	%eax
	pushl	%edx
	pushl	%ecx
.endm

.macro args_restore
	popl	%ecx
	popl	%edx
	popl	%eax
.endm

/*
 * regs_restore - take back the registers of a pt_regs on top of the
 * stack from bx up to bp, which a handler may have changed; ax (the next
 * word) is left to the caller, which may need it as a scratch register.
 */
.macro regs_restore
	popl	%ebx
	popl	%ecx
	popl	%edx
	popl	%esi
	popl	%edi
	popl	%ebp
.endm

/*
 * Bytes between %esp and the site's return address (the word above it
 * is the hooked function's own return address): in ftrace_caller, the
 * saved arguments and the fregs argument; in ftrace_regs_caller, the
 * pt_regs.
 */
#define HOOK_LIGHT		(4 * 4 + HOOK_FP_FRAMES)
#define HOOK_REGS		(PTREGS_SIZE + HOOK_FP_FRAMES)

/* The function the callers call while no hook is registered. */
SYM_FUNC_START(ftrace_stub)
	RET
SYM_FUNC_END(ftrace_stub)

/*
 * x86-32 always has DYNAMIC_FTRACE (FORCE_DYNAMIC_FTRACE): every site
 * is a NOP once ftrace_init() has run; before, it comes here.
 */
SYM_FUNC_START(__fentry__)
	RET
SYM_FUNC_END(__fentry__)
EXPORT_SYMBOL(__fentry__)

SYM_FUNC_START(ftrace_caller)
	hook_frames
	args_save
	pushl	$0				/* fregs */
	movl	HOOK_LIGHT(%esp), %eax
	subl	$MCOUNT_INSN_SIZE, %eax		/* the site */
	movl	HOOK_LIGHT+4(%esp), %edx	/* the caller's return */
	movl	function_trace_op, %ecx

SYM_INNER_LABEL(ftrace_call, SYM_L_GLOBAL)
	/* Retargeted to the list function, or to the one ops' function. */
	call	ftrace_stub

	addl	$4, %esp
	args_restore
	hook_frames_drop

.Lhook_return:
#ifdef CONFIG_FUNCTION_GRAPH_TRACER
SYM_INNER_LABEL(ftrace_graph_call, SYM_L_GLOBAL)
	/* Or "jmp ftrace_graph_caller", with the site's return on top. */
	ASM_NOP5
#endif
	RET
SYM_FUNC_END(ftrace_caller)

SYM_FUNC_START(ftrace_regs_caller)
	hook_frames
	/*
	 * A struct pt_regs, from its last word down.  The flags are saved
	 * before anything here changes them; the sp pushed is fixed below.
	 */
	pushl	$__KERNEL_DS			/* ss */
	pushl	%esp
	pushfl
	pushl	$__KERNEL_CS
	pushl	HOOK_FP_FRAMES+4*4(%esp)	/* ip: the site's return */
	pushl	$0				/* orig_ax: no direct call */
	pushl	%gs
	pushl	%fs
	pushl	%es
	pushl	%ds
	pushl	%eax
	pushl	%ebp
	pushl	%edi
	pushl	%esi
	pushl	%edx
	pushl	%ecx
	pushl	%ebx
	/* The hooked function's sp, with its own return address on top. */
	addl	$HOOK_FP_FRAMES+2*4, PT_OLDESP(%esp)
#ifdef CONFIG_FRAME_POINTER
	/* %ebp as the site had it, saved in the first frame of hook_frames. */
	movl	HOOK_REGS-2*4(%esp), %eax
	movl	%eax, PT_EBP(%esp)
#endif
	ENCODE_FRAME_POINTER

	movl	PT_EIP(%esp), %eax
	subl	$MCOUNT_INSN_SIZE, %eax
	movl	HOOK_REGS+4(%esp), %edx
	movl	function_trace_op, %ecx
	pushl	%esp				/* fregs: the pt_regs */

SYM_INNER_LABEL(ftrace_regs_call, SYM_L_GLOBAL)
	/* Retargeted like ftrace_call. */
	call	ftrace_stub

	addl	$4, %esp
	/* Did a handler move the ip or the sp, or ask for a direct call? */
	movl	PT_EIP(%esp), %eax
	cmpl	%eax, HOOK_REGS(%esp)
	jne	.Lregs_moved
	leal	HOOK_REGS+4(%esp), %eax
	cmpl	%eax, PT_OLDESP(%esp)
	jne	.Lregs_moved
	cmpl	$0, PT_ORIG_EAX(%esp)
	jne	.Lregs_moved

	/* No: take back what a handler may have changed, and go on. */
	regs_restore
	popl	%eax
	leal	PTREGS_SIZE-PT_DS+HOOK_FP_FRAMES(%esp), %esp
	jmp	.Lhook_return

.Lregs_moved:
	/*
	 * Yes: go where the frame says, without the graph (the call it
	 * would hook is not the one that runs).  Under the new sp go the
	 * ip, the direct trampoline if any (returned to first, as if the
	 * site had called it), then %eax, the last register taken back.
	 * A handler only ever moves sp up (to skip the function), so these
	 * words overlap at most the top of the frame, which is read first.
	 */
	movl	PT_OLDESP(%esp), %eax
	movl	PT_EIP(%esp), %ecx
	movl	%ecx, -4(%eax)
	subl	$4, %eax
	movl	PT_ORIG_EAX(%esp), %ecx
	jecxz	1f
	movl	%ecx, -4(%eax)
	subl	$4, %eax
1:	movl	PT_EAX(%esp), %ecx
	movl	%ecx, -4(%eax)
	subl	$4, %eax
	regs_restore
	movl	%eax, %esp
	popl	%eax
	RET
SYM_FUNC_END(ftrace_regs_caller)

/* A do-nothing direct trampoline, for tests and samples. */
SYM_FUNC_START(ftrace_stub_direct_tramp)
	RET
SYM_FUNC_END(ftrace_stub_direct_tramp)


#ifdef CONFIG_FUNCTION_GRAPH_TRACER
/*
 * Jumped to from ftrace_graph_call, or called by a site only the graph
 * hooks: either way with the site's return address on top and the
 * hooked function's own return address above it, which
 * prepare_ftrace_return() may replace by return_to_handler.
 */
SYM_FUNC_START(ftrace_graph_caller)
	args_save
	movl	3*4(%esp), %eax
	subl	$MCOUNT_INSN_SIZE, %eax
	leal	4*4(%esp), %edx
	xorl	%ecx, %ecx			/* no frame pointer to check */
	call	prepare_ftrace_return
	args_restore
	RET
SYM_FUNC_END(ftrace_graph_caller)

/*
 * A hooked function returns here instead of to its caller, its return
 * value in %eax (and %edx).  ftrace_return_to_handler() gets a struct
 * pt_regs (x86-32's ftrace_regs) with the return registers, the
 * callee-saved ones and the stack pointer after the return; every
 * other word is zero, never what the function left on the stack.  It
 * gives back the real return address, which %ecx (dead at a return)
 * takes there.
 */
SYM_CODE_START(return_to_handler)
	pushl	$0				/* ss */
	pushl	%esp
	.rept	8				/* flags, cs, ip, orig_ax, gs..ds */
	pushl	$0
	.endr
	pushl	%eax
	pushl	%ebp
	pushl	%edi
	pushl	%esi
	pushl	%edx
	pushl	$0				/* cx */
	pushl	%ebx
	addl	$4, PT_OLDESP(%esp)

	movl	%esp, %eax
	call	ftrace_return_to_handler
	movl	%eax, %ecx
	movl	PT_EAX(%esp), %eax
	movl	PT_EDX(%esp), %edx
	addl	$PTREGS_SIZE, %esp
	JMP_NOSPEC ecx
SYM_CODE_END(return_to_handler)
#endif /* CONFIG_FUNCTION_GRAPH_TRACER */
