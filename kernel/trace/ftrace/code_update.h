/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The code update (code_update.c), as the rest of the core sees
 * it: starting and stopping ops, and patching after a change.  All of
 * it but fsw_boot_enable() is called with ftrace_lock held.
 */
#ifndef _KERNEL_TRACE_FTRACE_CODE_UPDATE_H
#define _KERNEL_TRACE_FTRACE_CODE_UPDATE_H

#include <linux/ftrace.h>

#ifdef CONFIG_DYNAMIC_FTRACE
bool ftrace_calls_live(void);
void fupd_sets_changed(struct ftrace_ops *ops,
		       const struct ftrace_ops_hash *old);
int fupd_move_set(struct ftrace_ops *ops, bool filter,
		  struct ftrace_hash __rcu **slot, struct ftrace_hash *draft);
void fupd_sysctl_on(void);
void fupd_sysctl_off(void);
#else
static inline void fupd_sysctl_on(void) { }
static inline void fupd_sysctl_off(void) { }
#endif /* CONFIG_DYNAMIC_FTRACE */

/* switches.c: kernel.ftrace_enabled is on once the sites are NOPs. */
void __init fsw_boot_enable(void);

#endif /* _KERNEL_TRACE_FTRACE_CODE_UPDATE_H */
