/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The registry of ftrace_ops and the dispatch of calls to them, as the
 * rest of the core sees it.  See dispatch.c.
 */
#ifndef _KERNEL_TRACE_FTRACE_DISPATCH_H
#define _KERNEL_TRACE_FTRACE_DISPATCH_H

#include <linux/ftrace.h>

#include "hash.h"
#include "internal.h"
#include "../trace.h"

#ifdef CONFIG_FUNCTION_TRACER

#ifndef CONFIG_DYNAMIC_FTRACE
/*
 * What every __fentry__ call reaches.  <linux/ftrace.h> declares it
 * only with dynamic ftrace; without, the arch's __fentry__ reads it.
 */
extern ftrace_func_t ftrace_trace_function;
#endif

/*
 * The ops ftrace_caller is to pass once the next code update has
 * switched ftrace_trace_function; the update publishes it as
 * function_trace_op.
 */
extern struct ftrace_ops *fops_next_trace_op;

/* The list function; vmlinux.lds.h aliases arch_ftrace_ops_list_func. */
void ftrace_ops_list_func(unsigned long ip, unsigned long parent_ip,
			  struct ftrace_ops *op, struct ftrace_regs *fregs);

static inline struct ftrace_ops *fops_first_locked(void)
{
	return rcu_dereference_protected(ftrace_ops_list,
					 lockdep_is_held(&ftrace_lock));
}

static inline struct ftrace_ops *fops_next_locked(struct ftrace_ops *op)
{
	return rcu_dereference_protected(op->next,
					 lockdep_is_held(&ftrace_lock));
}

/* Walk the registered ops, with ftrace_lock held. */
#define fops_for_each_locked(op)					\
	for (struct ftrace_ops *__fop = fops_first_locked();		\
	     ((op) = __fop) != &ftrace_list_end;			\
	     __fop = fops_next_locked(__fop))

/*
 * The same without lockdep's check, for walkers that keep preemption
 * off (heap ops are freed only after every CPU scheduled) or report a
 * failed patch from wherever it happened.
 */
static inline struct ftrace_ops *fops_next_raw(struct ftrace_ops *op)
{
	return rcu_dereference_raw(op->next);
}

#define fops_for_each_raw(op)						\
	for (struct ftrace_ops *__fop = rcu_dereference_raw(ftrace_ops_list); \
	     ((op) = __fop) != &ftrace_list_end;			\
	     __fop = fops_next_raw(__fop))

void fops_update_caller(void);

/* Start or stop an ops with ftrace_lock taken: ftrace_startup()'s. */
int fops_start(struct ftrace_ops *ops);
int fops_stop(struct ftrace_ops *ops);

/*
 * direct.c: an IPMODIFY ops is registered only once the direct
 * ops on its functions agreed to share them, and they are told when it
 * is gone.
 */
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
int fdir_register_ipmodify(struct ftrace_ops *ops);
void fdir_unregistered_ipmodify(struct ftrace_ops *ops);
#else
static inline int fdir_register_ipmodify(struct ftrace_ops *ops)
{
	return fops_start(ops);
}

static inline void fdir_unregistered_ipmodify(struct ftrace_ops *ops) { }
#endif
void fops_publish_trace_op(void);
void fops_update_pid_funcs(void);

void ftrace_ops_assist_func(unsigned long ip, unsigned long parent_ip,
			    struct ftrace_ops *op, struct ftrace_regs *fregs);

/*
 * What a trampoline calls for @ops: its function, or the guard around
 * it for an ops that asked for one (ftrace_ops_get_func()).
 */
static __always_inline ftrace_func_t fops_func(struct ftrace_ops *ops)
{
	if (ops->flags & (FTRACE_OPS_FL_RECURSION | FTRACE_OPS_FL_RCU))
		return ftrace_ops_assist_func;
	return ops->func;
}

#ifdef CONFIG_DYNAMIC_FTRACE
void ftrace_ops_init(struct ftrace_ops *ops);

/*
 * trampolines.c: give @ops a trampoline of its own; free it; or only
 * unname it, to free it after an RCU grace period shared with others.
 */
void ftrace_update_trampoline(struct ftrace_ops *ops);
void ftramp_free(struct ftrace_ops *ops);
void ftramp_unname(struct ftrace_ops *ops);

/* code_update.c: bring every site to what the ops ask. */
void ftrace_startup_all(int command);

/*
 * Does the pair of sets @h select @ip?  An empty filter set selects
 * every function and an empty notrace set excludes none.  Callers
 * hold ftrace_lock or keep preemption off: sets are freed after RCU.
 */
static inline bool fops_hash_has_ip(const struct ftrace_ops_hash *h,
				    unsigned long ip)
{
	struct ftrace_hash *take = rcu_dereference_raw(h->filter_hash);
	struct ftrace_hash *skip = rcu_dereference_raw(h->notrace_hash);

	if (!ftrace_hash_empty(take) && !fhash_find(take, ip))
		return false;
	return ftrace_hash_empty(skip) || !fhash_find(skip, ip);
}
#else
static inline void ftrace_ops_init(struct ftrace_ops *ops) { }
static inline void ftrace_update_trampoline(struct ftrace_ops *ops) { }
static inline void ftrace_startup_all(int command) { }
#endif /* CONFIG_DYNAMIC_FTRACE */

#endif /* CONFIG_FUNCTION_TRACER */
#endif /* _KERNEL_TRACE_FTRACE_DISPATCH_H */
