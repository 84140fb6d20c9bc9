/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The call each patch site holds and the one it should hold, as the
 * code update sees it.  See site_calls.c.
 */
#ifndef _KERNEL_TRACE_FTRACE_SITE_CALLS_H
#define _KERNEL_TRACE_FTRACE_SITE_CALLS_H

#include <linux/ftrace.h>

#ifdef CONFIG_DYNAMIC_FTRACE

struct module;

/* What a record keeps once no ops is left on it. */
#define FCALL_KEPT_FLAGS (FTRACE_FL_DISABLED | FTRACE_FL_TOUCHED |	\
			  FTRACE_FL_MODIFIED | FTRACE_FL_BAD)

/*
 * The ops being unregistered, for the length of the code update that
 * takes it off its sites: off the list, but still called.
 */
extern struct ftrace_ops *fcall_leaving_ops;

int __ftrace_replace_code(struct dyn_ftrace *rec, bool enable);
void fcall_init_nop(struct module *mod, struct dyn_ftrace *rec);

#endif /* CONFIG_DYNAMIC_FTRACE */
#endif /* _KERNEL_TRACE_FTRACE_SITE_CALLS_H */
