/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who wants each patch site: the per-record count of ops that trace
 * it, the call the ops need there (saved regs, one ops' own
 * trampoline, a direct call), and the claims of ops that change the
 * ip they return to (IPMODIFY).  See accounting.c.
 *
 * All of it runs under ftrace_lock.  What it leaves in a record is
 * the wish; site_calls.c compares it with what the site holds
 * and patches the difference.
 */
#ifndef _KERNEL_TRACE_FTRACE_ACCOUNTING_H
#define _KERNEL_TRACE_FTRACE_ACCOUNTING_H

#include <linux/ftrace.h>

#ifdef CONFIG_DYNAMIC_FTRACE

struct ftrace_hash;

/*
 * Is @rec out of every update?  The sites of discarded weak functions
 * are disabled at boot, but one that tracing had already enabled is
 * still counted until it is turned off.  A bad site is out for good.
 */
static inline bool facct_rec_ignored(const struct dyn_ftrace *rec)
{
	if (rec->flags & FTRACE_FL_BAD)
		return true;
	return (rec->flags & FTRACE_FL_DISABLED) &&
	       !(rec->flags & FTRACE_FL_ENABLED);
}

/*
 * Count @ops on every site it selects, or stop counting it there.
 * Does nothing unless @ops is enabled.  Returns true if some site's
 * code must change for it.
 */
bool facct_attach(struct ftrace_ops *ops);
bool facct_detach(struct ftrace_ops *ops);

/*
 * The same for @ops and, when @ops uses the global ops' sets, for
 * every ops that shares them: around a change of those sets.
 */
void facct_attach_sharing(struct ftrace_ops *ops);
void facct_detach_sharing(struct ftrace_ops *ops);

/*
 * IPMODIFY claims of @ops (or, for a direct ops, the check that it
 * may share sites with one) as its filter set goes from @from to @to.
 * NULL stands for every function, which such an ops may not trace.
 * With @retarget, a direct ops checks all of @to, not just what is
 * new in it.  Returns 0, -EINVAL, -EBUSY or the error of ops_func;
 * on error no claim has changed.
 */
int facct_ipmodify_move(struct ftrace_ops *ops, struct ftrace_hash *from,
			struct ftrace_hash *to, bool retarget);
int facct_ipmodify_claim(struct ftrace_ops *ops);
void facct_ipmodify_release(struct ftrace_ops *ops);

/*
 * Move the entries of @src into the set in @slot, @ops' filter set if
 * @filter, else its notrace set, and count the sites anew.  Does not
 * patch; the caller frees @src and, after a grace period, the old set.
 * Returns 0, -ENOMEM, -EINVAL (a notrace set for an IPMODIFY ops) or
 * an IPMODIFY conflict; on error @ops is unchanged.
 */
int facct_move_set(struct ftrace_ops *ops, bool filter,
		   struct ftrace_hash __rcu **slot, struct ftrace_hash *src);

/* The registered ops with a trampoline of their own that trace @rec. */
struct ftrace_ops *ftrace_find_tramp_ops_any(struct dyn_ftrace *rec);
struct ftrace_ops *ftrace_find_tramp_ops_next(struct dyn_ftrace *rec,
					      struct ftrace_ops *ops);

#endif /* CONFIG_DYNAMIC_FTRACE */
#endif /* _KERNEL_TRACE_FTRACE_ACCOUNTING_H */
