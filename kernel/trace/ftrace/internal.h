/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the function graph (fgraph_*.c) and the function-hook
 * core share beyond <linux/ftrace.h>: starting and stopping ops and
 * subops, and the few globals both sides touch.  The core's own
 * files have headers of their own (dispatch.h and the rest).
 */
#ifndef _KERNEL_TRACE_FTRACE_INTERNAL_H
#define _KERNEL_TRACE_FTRACE_INTERNAL_H

#include <linux/ftrace.h>

/* dispatch.c: list or unlist an ops, with ftrace_lock held. */
int __register_ftrace_function(struct ftrace_ops *ops);
int __unregister_ftrace_function(struct ftrace_ops *ops);

#ifdef CONFIG_FUNCTION_TRACER

/* core.c: the core's lock, and the top level's ops. */
extern struct mutex ftrace_lock;
extern struct ftrace_ops global_ops;

#ifdef CONFIG_DYNAMIC_FTRACE

/* code_update.c, subops.c; all with ftrace_lock held. */
int ftrace_startup(struct ftrace_ops *ops, int command);
int ftrace_shutdown(struct ftrace_ops *ops, int command);
int ftrace_startup_subops(struct ftrace_ops *ops, struct ftrace_ops *subops,
			  int command);
int ftrace_shutdown_subops(struct ftrace_ops *ops, struct ftrace_ops *subops,
			   int command);
bool ftrace_subops_exact(struct ftrace_ops *ops);
/* dispatch.c: does @ops select @ip? */
int ftrace_ops_test(struct ftrace_ops *ops, unsigned long ip, void *regs);

#else /* !CONFIG_DYNAMIC_FTRACE */

/* Without code to patch, starting an ops is listing it. */
static inline int ftrace_startup(struct ftrace_ops *ops, int command)
{
	int ret = __register_ftrace_function(ops);

	if (!ret)
		ops->flags |= FTRACE_OPS_FL_ENABLED;
	return ret;
}

static inline int ftrace_shutdown(struct ftrace_ops *ops, int command)
{
	int ret = __unregister_ftrace_function(ops);

	if (!ret)
		ops->flags &= ~FTRACE_OPS_FL_ENABLED;
	return ret;
}

/* Every ops sees every function. */
static inline int ftrace_ops_test(struct ftrace_ops *ops, unsigned long ip,
				  void *regs)
{
	return 1;
}

/* Subops need the sets of dynamic ftrace. */
static inline int ftrace_startup_subops(struct ftrace_ops *ops,
					struct ftrace_ops *subops, int command)
{
	return -EINVAL;
}

static inline int ftrace_shutdown_subops(struct ftrace_ops *ops,
					 struct ftrace_ops *subops, int command)
{
	return -EINVAL;
}

static inline bool ftrace_subops_exact(struct ftrace_ops *ops)
{
	return true;
}

#endif /* CONFIG_DYNAMIC_FTRACE */

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
/* fgraph/users.c: the graph users registered; the graph caller is live while > 0. */
extern int ftrace_graph_active;
#else
#define ftrace_graph_active 0
#endif

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
/* fgraph/users.c: follow a change of the pid filters. */
void fgraph_update_pid_func(void);
#else
static inline void fgraph_update_pid_func(void) { }
#endif

#endif /* CONFIG_FUNCTION_TRACER */
#endif /* _KERNEL_TRACE_FTRACE_INTERNAL_H */
