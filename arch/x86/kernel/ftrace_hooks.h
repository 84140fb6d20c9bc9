/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Labels inside the hook code of ftrace_64.S (its templates, for the
 * trampoline builder in ftrace.c) and ftrace_32.S; the entry points and
 * call sites the core knows are in <linux/ftrace.h>.
 */
#ifndef _X86_KERNEL_FTRACE_HOOKS_H
#define _X86_KERNEL_FTRACE_HOOKS_H

/*
 * Offsets and values the guarded template reads, which asm-offsets does
 * not give; ftrace.c checks each against its C definition.
 */
#define FTRACE_PCPU_PREEMPT_COUNT	8	/* in struct pcpu_hot */
#ifdef CONFIG_CONTEXT_TRACKING_USER
# define FTRACE_CT_STATE		8	/* in struct context_tracking */
#else
# define FTRACE_CT_STATE		0
#endif
#define FTRACE_CT_RCU_WATCHING		4	/* CT_RCU_WATCHING */

#ifndef __ASSEMBLY__

/* x86-32: the NOP at the end of the shared callers, or a jump to the graph. */
void ftrace_graph_call(void);

/* Where the copied part of each template ends. */
void ftrace_caller_end(void);
void ftrace_regs_caller_end(void);
void ftrace_guard_caller_end(void);
void ftrace_lean_caller_end(void);
void ftrace_lean_regs_caller_end(void);

/* The "movq function_trace_op(%rip), %rdx" of each template. */
void ftrace_caller_op_ptr(void);
void ftrace_regs_caller_op_ptr(void);
void ftrace_guard_caller_op_ptr(void);
void ftrace_lean_caller_op_ptr(void);
void ftrace_lean_regs_caller_op_ptr(void);

/* The lean templates: their entries and calls. */
void ftrace_lean_caller(void);
void ftrace_lean_call(void);
void ftrace_lean_regs_caller(void);
void ftrace_lean_regs_call(void);

/* The guarded template: its entry, call, and the RCU check's ends. */
void ftrace_guard_caller(void);
void ftrace_guard_call(void);
void ftrace_guard_rcu(void);
void ftrace_guard_rcu_end(void);

#endif /* !__ASSEMBLY__ */

#endif /* _X86_KERNEL_FTRACE_HOOKS_H */
