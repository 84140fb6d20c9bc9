/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Entry trampolines of the x86-64 function hooks.
 *
 * A patched __fentry__ site calls one of two templates: ftrace_caller
 * (struct ftrace_regs with the argument registers) or ftrace_regs_caller
 * (a complete struct pt_regs, for ops that ask for SAVE_REGS, and the
 * path that enters a direct-call trampoline). Both build their frame in
 * the layout of struct pt_regs, because struct ftrace_regs is a pt_regs
 * on x86 and callers read it through the pt_regs accessors.
 *
 * The code from each template's start to its *_end label is also copied
 * into per-ops trampolines by arch/x86/kernel/ftrace.c, as is the code
 * of three templates that only copies run (a guarded one, two lean
 * ones). A copy must run anywhere, so everything up to *_end is
 * position independent apart from three things the copier knows about:
 * the RIP-relative load at *_op_ptr, the call at the template's call
 * label, and relative branches out of the copied range (relocated to
 * their targets here).
 * The ORC unwinder reads a copy with the template's ORC data, which is
 * why a copy never reorders or inserts instructions before *_end.
 */

#include <linux/export.h>
#include <linux/cfi_types.h>
#include <linux/linkage.h>
#include <asm/asm-offsets.h>
#include <asm/ptrace.h>
#include <asm/ftrace.h>
#include <asm/nospec-branch.h>
#include <asm/unwind_hints.h>
#include <asm/frame.h>

#include "ftrace_hooks.h"

	.code64
	.section .text, "ax"

/*
 * With frame pointers, the site is reached before the traced function
 * has built its frame. Two frames are pushed so that a walk through
 * %rbp shows the traced function and its parent: one for the parent's
 * return address, one for the traced function's.
 */
#ifdef CONFIG_FRAME_POINTER
# define HOOK_FP_FRAMES		(5 * 8)
#else
# define HOOK_FP_FRAMES		0
#endif

/*
 * Where the guarded template reschedules, as preempt_enable_notrace()
 * does in each preemption model.  With PREEMPT_DYNAMIC the model is
 * chosen at boot and the static call is a RET unless it is full.
 * Without PREEMPTION nothing is called.
 */
#ifdef CONFIG_PREEMPT_DYNAMIC
# define HOOK_PREEMPT_SCHEDULE	__SCT__preempt_schedule_notrace
#else
# define HOOK_PREEMPT_SCHEDULE	preempt_schedule_notrace_thunk
#endif

/* Bytes between %rsp and the hooked function's return slot. */
#define HOOK_FRAME		(FRAME_SIZE + HOOK_FP_FRAMES)

/*
 * hook_enter - build the struct pt_regs frame of a hook.
 * @regs: a complete pt_regs.  Its top three words (ss, sp, flags) are
 * pushed first, so that pushfq saves the flags straight into their
 * slot and popfq takes them back from there.
 *
 * On return: %rdi = address of the patched call (first argument),
 * %rsi = the hooked function's return address (second argument), and
 * ip, sp, bp, orig_ax and the argument registers are in the frame.
 * Clobbers nothing that the hooked function relies on: every register
 * it reads is saved before being reused.
 */
.macro hook_enter regs=0
#ifdef CONFIG_FRAME_POINTER
	pushq	%rbp
	pushq	2*8(%rsp)	/* return address into the parent */
	pushq	%rbp
	movq	%rsp, %rbp
	pushq	3*8(%rsp)	/* return address into the function */
	pushq	%rbp
	movq	%rsp, %rbp
#endif
.if \regs
	/* Nothing above changed the flags. */
	pushq	$__KERNEL_DS
	pushq	%rsp
	pushfq
	subq	$FRAME_SIZE - 3*8, %rsp
	/* The sp of the hooked function: its return address is on top. */
	addq	$HOOK_FP_FRAMES + 2*8, RSP(%rsp)
.else
	subq	$FRAME_SIZE, %rsp
.endif
	/* The six argument registers, and %al for variadic callees. */
	movq	%rdi, RDI(%rsp)
	movq	%rsi, RSI(%rsp)
	movq	%rdx, RDX(%rsp)
	movq	%rcx, RCX(%rsp)
	movq	%r8, R8(%rsp)
	movq	%r9, R9(%rsp)
	movq	%rax, RAX(%rsp)
	movq	$0, ORIG_RAX(%rsp)
#ifdef CONFIG_FRAME_POINTER
	movq	HOOK_FRAME-8(%rsp), %rdx	/* %rbp as the site saw it */
	movq	%rdx, RBP(%rsp)
#else
	movq	%rbp, RBP(%rsp)
#endif
	movq	HOOK_FRAME(%rsp), %rdi
	movq	%rdi, RIP(%rsp)
	movq	HOOK_FRAME+8(%rsp), %rsi
.if !\regs
	leaq	HOOK_FRAME+8(%rsp), %rdx
	movq	%rdx, RSP(%rsp)
.endif
	subq	$MCOUNT_INSN_SIZE, %rdi
.endm

/*
 * hook_restore - reload what hook_enter saved.
 * @bp: restore %rbp from the frame. Only a handler with a full pt_regs
 * may change it there; otherwise the callees kept it, unless
 * hook_enter itself moved it for the frame-pointer frames.
 */
.macro hook_restore bp=1
	movq	R8(%rsp), %r8
	movq	R9(%rsp), %r9
	movq	RCX(%rsp), %rcx
	movq	RDX(%rsp), %rdx
	movq	RSI(%rsp), %rsi
	movq	RDI(%rsp), %rdi
	movq	RAX(%rsp), %rax
#ifndef CONFIG_FRAME_POINTER
	.if \bp
#endif
	movq	RBP(%rsp), %rbp
#ifndef CONFIG_FRAME_POINTER
	.endif
#endif
.endm

/* hook_leave - hook_restore, and drop a frame without full pt_regs. */
.macro hook_leave bp=1
	hook_restore \bp
	addq	$HOOK_FRAME, %rsp
	/*
	 * As at the function's entry, %rbp included: the unwinder must not
	 * look for it in the frame just dropped, where it was only saved.
	 */
	UNWIND_HINT_FUNC
.endm

/*
 * ret_to_stack_top - return to the address on top of the stack, which
 * no call of ours pushed. A call to the next instruction first gives
 * the return stack buffer an entry for this return to consume.
 * @drop: what to do with the call's own return address.
 */
.macro ret_to_stack_top drop:vararg
	ANNOTATE_INTRA_FUNCTION_CALL
	call	.Lret_to_stack_top_\@
	int3
.Lret_to_stack_top_\@:
	\drop
	ALTERNATIVE __stringify(RET), \
		__stringify(ANNOTATE_UNRET_SAFE; ret; int3), X86_FEATURE_CALL_DEPTH
.endm

/*
 * CALL_DEPTH_ACCOUNT_TWO - account for two calls with one instruction:
 * the site's call of the template, which went to no call thunk, and the
 * template's call of its function, past that function's thunk.  Only
 * where nothing between the two calls or returns.  Each call shifts the
 * return depth right by RET_DEPTH_SHIFT, so two calls are one shift of
 * twice that; and a NOP instead of two while the feature is off.
 */
.macro CALL_DEPTH_ACCOUNT_TWO
#ifdef CONFIG_MITIGATION_CALL_DEPTH_TRACKING
	ALTERNATIVE "", __stringify(sarq $(2 * RET_DEPTH_SHIFT), \
		PER_CPU_VAR(pcpu_hot + X86_call_depth); \
		CALL_THUNKS_DEBUG_INC_CALLS CALL_THUNKS_DEBUG_INC_CALLS), \
		X86_FEATURE_CALL_DEPTH
#endif
.endm

/*
 * light_enter - the frame of a template without full pt_regs, and the
 * load of its ops, which a copy points at its own.
 * @op_ptr: the label of that load, for the trampoline builder.
 *
 * On return %rdi, %rsi, %rdx and %rcx hold the four arguments of an
 * ops function.  The site's call is not accounted for yet (call depth
 * tracking): the template does it.
 */
.macro light_enter op_ptr
	hook_enter
	/* cs == 0 tells ftrace_get_regs() that this is not a full pt_regs. */
	movq	$0, CS(%rsp)

SYM_INNER_LABEL(\op_ptr, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	/* A copy loads its own ops here instead. */
	movq	function_trace_op(%rip), %rdx
	movq	%rsp, %rcx
.endm

/* light_leave - undo light_enter, going where regs->ip now says. */
.macro light_leave
	/* An IPMODIFY handler (livepatch) may have moved regs->ip. */
	movq	RIP(%rsp), %rax
	movq	%rax, HOOK_FRAME(%rsp)
	hook_leave bp=0
.endm

/*
 * regs_enter - the frame of a template with full pt_regs, and the load
 * of its ops, as light_enter.
 */
.macro regs_enter op_ptr
	hook_enter regs=1

SYM_INNER_LABEL(\op_ptr, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	movq	function_trace_op(%rip), %rdx
	/* The rest of pt_regs: callee-saved and scratch registers... */
	movq	%rbx, RBX(%rsp)
	movq	%r10, R10(%rsp)
	movq	%r11, R11(%rsp)
	movq	%r12, R12(%rsp)
	movq	%r13, R13(%rsp)
	movq	%r14, R14(%rsp)
	movq	%r15, R15(%rsp)
	/* ...and the code segment of an exception frame. */
	movq	$__KERNEL_CS, CS(%rsp)
	ENCODE_FRAME_POINTER
	movq	%rsp, %rcx
.endm

/*
 * regs_restore - take back what a handler with full pt_regs may have
 * changed (kprobes, livepatch, error injection), apart from the
 * registers hook_restore reloads and the flags regs_leave pops; %r11
 * is dead at a function's entry.
 */
.macro regs_restore
	movq	RBX(%rsp), %rbx
	movq	R10(%rsp), %r10
	movq	R12(%rsp), %r12
	movq	R13(%rsp), %r13
	movq	R14(%rsp), %r14
	movq	R15(%rsp), %r15
	movq	RIP(%rsp), %rax
	movq	%rax, HOOK_FRAME(%rsp)
.endm

/*
 * regs_leave - drop the frame of regs_enter, popping the flags from
 * their slot.
 * @keep: bytes below the return address to leave on the stack.
 */
.macro regs_leave keep=0
	hook_restore
	addq	$EFLAGS, %rsp
	popfq
	/* lea, not add: the flags stay as popped. */
	leaq	HOOK_FP_FRAMES + 2*8 - \keep(%rsp), %rsp
.endm

/* A function that only returns, with the call-depth bookkeeping. */
.macro hook_stub name, typed=0
.if \typed
SYM_TYPED_FUNC_START(\name)
.else
SYM_FUNC_START(\name)
.endif
	CALL_DEPTH_ACCOUNT
	RET
SYM_FUNC_END(\name)
.endm

/* The function the templates call while no hook is registered. */
hook_stub ftrace_stub, typed=1
#ifdef CONFIG_FUNCTION_GRAPH_TRACER
hook_stub ftrace_stub_graph, typed=1
#endif

#ifdef CONFIG_DYNAMIC_FTRACE

/* Every site is a NOP by the time anything runs; this is only a target. */
hook_stub __fentry__
EXPORT_SYMBOL(__fentry__)

SYM_FUNC_START(ftrace_caller)
	light_enter ftrace_caller_op_ptr
	CALL_DEPTH_ACCOUNT_TWO

SYM_INNER_LABEL(ftrace_call, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	/* Retargeted to the list function, or to the ops' own function. */
	call	ftrace_stub

	light_leave

SYM_INNER_LABEL(ftrace_caller_end, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	/* Copies stop here and get a return made for their address. */
	RET
SYM_FUNC_END(ftrace_caller);
STACK_FRAME_NON_STANDARD_FP(ftrace_caller)

/*
 * The template of trampolines for ops that ask ftrace to guard them
 * (FTRACE_OPS_FL_RECURSION, FTRACE_OPS_FL_RCU): ftrace_caller's frame
 * with the guard of ftrace_ops_assist_func() around the call, so that a
 * copy calls the ops' own function directly. Only copies run it.
 *
 * Preemption stays off across the call. The per-CPU ftrace_ops_guard
 * holds the context a guarded function is running in on this CPU (the
 * FTRACE_GUARD_CTX bits of preempt_count()), or FTRACE_GUARD_IDLE: a
 * call from that same context is dropped, one from an interrupt goes
 * on, and each puts back the value it found, as interrupts nest. The
 * frame's r10 slot, unused in a struct ftrace_regs, keeps that value.
 */
SYM_FUNC_START(ftrace_guard_caller)
	light_enter ftrace_guard_caller_op_ptr
	/* The site called us directly, not through a call thunk. */
	CALL_DEPTH_ACCOUNT
	/* Preemption first: the guard is this CPU's from here on. */
	incl	PER_CPU_VAR(pcpu_hot + FTRACE_PCPU_PREEMPT_COUNT)
	movl	PER_CPU_VAR(pcpu_hot + FTRACE_PCPU_PREEMPT_COUNT), %eax
	andl	$FTRACE_GUARD_CTX, %eax
	movl	PER_CPU_VAR(ftrace_ops_guard), %r10d
	cmpl	%eax, %r10d
	/* Out of the copy, into this template: a 32-bit branch. */
	{disp32} je	.Lguard_busy
	movl	%eax, PER_CPU_VAR(ftrace_ops_guard)
	movq	%r10, R10(%rsp)

SYM_INNER_LABEL(ftrace_guard_rcu, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
#ifdef CONFIG_CONTEXT_TRACKING_IDLE
	/* An RCU ops only where RCU is watching; other copies jump over. */
	testl	$FTRACE_CT_RCU_WATCHING, \
		PER_CPU_VAR(context_tracking + FTRACE_CT_STATE)
	jz	.Lguard_release
#endif

SYM_INNER_LABEL(ftrace_guard_rcu_end, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	CALL_DEPTH_ACCOUNT

SYM_INNER_LABEL(ftrace_guard_call, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	/* Retargeted to the ops' own function. */
	call	ftrace_stub

.Lguard_release:
	movq	R10(%rsp), %rax
	movl	%eax, PER_CPU_VAR(ftrace_ops_guard)
.Lguard_enable:
	decl	PER_CPU_VAR(pcpu_hot + FTRACE_PCPU_PREEMPT_COUNT)
#ifdef CONFIG_PREEMPTION
	/* preempt_enable_notrace(): schedule if that was the last count. */
	jnz	.Lguard_done
	CALL_DEPTH_ACCOUNT
	call	HOOK_PREEMPT_SCHEDULE
#endif
.Lguard_done:
	light_leave

SYM_INNER_LABEL(ftrace_guard_caller_end, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	/* Copies stop here and get a return made for their address. */
	RET

.Lguard_busy:
#ifdef CONFIG_FTRACE_RECORD_RECURSION
	/* %rdi and %rsi still hold the site and the parent. */
	CALL_DEPTH_ACCOUNT
	call	ftrace_ops_guard_busy
#endif
	jmp	.Lguard_enable
SYM_FUNC_END(ftrace_guard_caller)
STACK_FRAME_NON_STANDARD_FP(ftrace_guard_caller)

SYM_FUNC_START(ftrace_regs_caller)
	regs_enter ftrace_regs_caller_op_ptr
	CALL_DEPTH_ACCOUNT_TWO

SYM_INNER_LABEL(ftrace_regs_call, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	/* Retargeted like ftrace_call. */
	call	ftrace_stub

	regs_restore
	/*
	 * A direct-call ops put its trampoline in orig_ax (see
	 * arch_ftrace_set_direct_caller()). The branch is a 32-bit one so
	 * that a copy of this code still reaches .Lregs_direct here.
	 */
	movq	ORIG_RAX(%rsp), %rax
	testq	%rax, %rax
	{disp32} jnz	.Lregs_direct

	regs_leave

SYM_INNER_LABEL(ftrace_regs_caller_end, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	/* Copies stop here and get a return made for their address. */
	RET

.Lregs_direct:
	/*
	 * Enter the direct trampoline as if the site had called it: its
	 * address goes in the word below the return address, and the frame
	 * is dropped down to that word, which the return then consumes.
	 */
	movq	%rax, HOOK_FRAME-8(%rsp)
	regs_leave keep=8
	UNWIND_HINT_FUNC
	ret_to_stack_top leaq 8(%rsp), %rsp
SYM_FUNC_END(ftrace_regs_caller)
STACK_FRAME_NON_STANDARD_FP(ftrace_regs_caller)

/*
 * The lean templates, for trampolines on CPUs that do not track call
 * depth, where the accounting above is a NOP that still costs an
 * instruction.  ftrace_lean_caller is ftrace_caller for an ops that may
 * not move the ip (neither IPMODIFY nor OVERRIDE), so it does not take
 * regs->ip back; ftrace_lean_regs_caller is ftrace_regs_caller for an
 * ops that is not a direct-call one, so it has no orig_ax test.  Only
 * copies run them.
 */
SYM_FUNC_START(ftrace_lean_caller)
	light_enter ftrace_lean_caller_op_ptr

SYM_INNER_LABEL(ftrace_lean_call, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	call	ftrace_stub

	hook_leave bp=0

SYM_INNER_LABEL(ftrace_lean_caller_end, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	RET
SYM_FUNC_END(ftrace_lean_caller)
STACK_FRAME_NON_STANDARD_FP(ftrace_lean_caller)

SYM_FUNC_START(ftrace_lean_regs_caller)
	regs_enter ftrace_lean_regs_caller_op_ptr

SYM_INNER_LABEL(ftrace_lean_regs_call, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	call	ftrace_stub

	regs_restore
	regs_leave

SYM_INNER_LABEL(ftrace_lean_regs_caller_end, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	RET
SYM_FUNC_END(ftrace_lean_regs_caller)
STACK_FRAME_NON_STANDARD_FP(ftrace_lean_regs_caller)

/* A do-nothing direct trampoline, for tests and samples. */
hook_stub ftrace_stub_direct_tramp

#else /* !CONFIG_DYNAMIC_FTRACE */

/* Without patching, every site calls here and we test for a tracer. */
SYM_FUNC_START(__fentry__)
	CALL_DEPTH_ACCOUNT
	cmpq	$ftrace_stub, ftrace_trace_function
	jnz	.Lfentry_hook
	RET

.Lfentry_hook:
	hook_enter
	movq	ftrace_trace_function, %r8
	CALL_NOSPEC r8
	hook_leave
	RET
SYM_FUNC_END(__fentry__)
STACK_FRAME_NON_STANDARD_FP(__fentry__)
EXPORT_SYMBOL(__fentry__)

#endif /* CONFIG_DYNAMIC_FTRACE */

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
/*
 * return_to name, handler, whole - a return trampoline.  A hooked
 * function returns here instead of to its caller.  The return consumed
 * our address, so the stack has no return address on top: push room for
 * one, save the return registers in a struct ftrace_regs, ask the C
 * @handler for the real return address and go there.
 *
 * The frame is a pt_regs without cs (ftrace_get_regs() gives NULL): the
 * return value, the stack and frame pointers hold what they hold at the
 * return, and the ip is the real return address once @handler has set
 * it.  With @whole, for handlers that give the frame to BPF programs,
 * which may read any of it: the callee-saved registers hold theirs too,
 * and every other word is zero, never what the returning function left
 * on the stack.  Without it, the graph users' return callbacks, the
 * other words are not written.
 */
.macro return_to name, handler, whole
SYM_CODE_START(\name)
	UNWIND_HINT_UNDEFINED
	ANNOTATE_NOENDBR
	movq	%rsp, %rdi
	subq	$8, %rsp
	UNWIND_HINT_FUNC
	subq	$FRAME_SIZE, %rsp
	/* The return value (%rax, %rdx), and what fgraph checks it by. */
	movq	%rdi, RSP(%rsp)
	movq	%rbp, RBP(%rsp)
	movq	%rdx, RDX(%rsp)
	movq	%rax, RAX(%rsp)
	.if \whole
	movq	%rbx, RBX(%rsp)
	movq	%r12, R12(%rsp)
	movq	%r13, R13(%rsp)
	movq	%r14, R14(%rsp)
	movq	%r15, R15(%rsp)
	/* %rax is saved, and taken back from the frame on the way out. */
	xorl	%eax, %eax
	movq	%rax, CS(%rsp)
	movq	%rax, SS(%rsp)
	movq	%rax, EFLAGS(%rsp)
	movq	%rax, ORIG_RAX(%rsp)
	movq	%rax, RDI(%rsp)
	movq	%rax, RSI(%rsp)
	movq	%rax, RCX(%rsp)
	movq	%rax, R8(%rsp)
	movq	%rax, R9(%rsp)
	movq	%rax, R10(%rsp)
	movq	%rax, R11(%rsp)
	.else
	movq	$0, CS(%rsp)
	.endif
	movq	%rsp, %rdi
	call	\handler
	/*
	 * The real return address goes where ours was, so that from here
	 * on the frame is a function's at entry, as the hint above says,
	 * with the right address to unwind to.
	 */
	movq	%rax, FRAME_SIZE(%rsp)
	movq	RAX(%rsp), %rax
	movq	RDX(%rsp), %rdx
	addq	$FRAME_SIZE, %rsp

	/*
	 * IBT forbids an indirect jump to a return address (no ENDBR), so
	 * return to it.
	 */
	ret_to_stack_top addq $8, %rsp
SYM_CODE_END(\name)
.endm

/* Calls the graph users took. */
return_to return_to_handler, ftrace_return_to_handler, 0

#ifdef CONFIG_FPROBE
/* Calls an fprobe exit probe took (kernel/trace/ftrace/fprobe/calls.c). */
return_to fprobe_return_to_handler, fprobe_frame_return, 1
#endif
#endif
