/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Labels inside the hook templates of ftrace_64.S, for the trampoline
 * builder in ftrace.c; the templates' entry points and call sites are
 * in <linux/ftrace.h>.
 */
#ifndef _X86_KERNEL_FTRACE_HOOKS_H
#define _X86_KERNEL_FTRACE_HOOKS_H

/* Where the copied part of each template ends. */
void ftrace_caller_end(void);
void ftrace_regs_caller_end(void);

/* The "movq function_trace_op(%rip), %rdx" of each template. */
void ftrace_caller_op_ptr(void);
void ftrace_regs_caller_op_ptr(void);

#endif /* _X86_KERNEL_FTRACE_HOOKS_H */
