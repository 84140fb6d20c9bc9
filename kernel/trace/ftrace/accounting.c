// SPDX-License-Identifier: GPL-2.0
/*
 * Who wants each patch site.
 *
 * The low bits of a record's flags count the enabled ops that select
 * its site (ftrace_rec_count()).  Next to the count the record keeps
 * what those ops need from the call that will be patched in:
 *
 *   FL_REGS      one of them asked for full pt_regs (SAVE_REGS);
 *   FL_TRAMP     one ops is there alone and has a trampoline of its
 *                own, or several are and may share a chain
 *                (chains.c): the site may call it and skip the list;
 *   FL_CALL_OPS  one ops is there alone and the site may pass it in
 *                directly (arches with DYNAMIC_FTRACE_WITH_CALL_OPS);
 *   FL_DIRECT    the direct-call ops is there;
 *   FL_IPMODIFY  an ops that changes where the function returns to
 *                (livepatch, kprobes that set ip) has claimed the site.
 *                There is one claim per site at most.
 *
 * Only the wishes live here; the code update compares them with the
 * _EN flags of what the site holds and patches the difference.
 *
 * An ops with a filter set selects few sites, and each is found from
 * the set's entries by a binary search of the records, never by a walk
 * of every record of the kernel.  An ops with an
 * empty filter set selects everything and costs one walk.
 *
 * Everything here runs under ftrace_lock.
 */
#include <linux/ftrace.h>
#include <linux/lockdep.h>

#include "accounting.h"
#include "chains.h"
#include "dispatch.h"
#include "hash.h"
#include "records.h"

/*
 * Past this share of all records a filter set is cheaper to match
 * against every record than to look up entry by entry.
 */
#define FACCT_LOOKUP_SHARE	8

static struct ftrace_hash *facct_set(struct ftrace_hash __rcu **slot)
{
	return rcu_dereference_protected(*slot, lockdep_is_held(&ftrace_lock));
}

/* @ops' filter set, or NULL when that is empty and selects everything. */
static struct ftrace_hash *facct_filter_or_all(struct ftrace_ops *ops)
{
	struct ftrace_hash *set = facct_set(&ops->func_hash->filter_hash);

	return ftrace_hash_empty(set) ? NULL : set;
}

/* The record of the site at exactly @ip, or NULL. */
static struct dyn_ftrace *facct_rec_at(unsigned long ip)
{
	struct dyn_ftrace *rec = ip ? frec_lookup(ip, ip) : NULL;

	return rec && ftrace_rec_ip(rec) == ip ? rec : NULL;
}

/*
 * The ops are walked without lockdep's check: ftrace_bug() reports
 * through ftrace_find_tramp_ops_any() from wherever a patch failed,
 * and the list only changes under ftrace_lock, which every writer of
 * a record holds.
 */
/* From @op on, the first ops with its own trampoline that traces @rec. */
static struct ftrace_ops *facct_tramp_from(struct ftrace_ops *op,
					   struct dyn_ftrace *rec)
{
	for (; op != &ftrace_list_end; op = fops_next_raw(op)) {
		if (op->trampoline && fops_hash_has_ip(op->func_hash, ftrace_rec_ip(rec)))
			return op;
	}
	return NULL;
}

/**
 * ftrace_find_tramp_ops_any - an ops with a trampoline that traces a site
 * @rec: the site's record
 *
 * Return: the first registered ops that has a trampoline of its own
 * and whose sets select @rec, or NULL.  Hold ftrace_lock.
 */
struct ftrace_ops *ftrace_find_tramp_ops_any(struct dyn_ftrace *rec)
{
	return facct_tramp_from(rcu_dereference_raw(ftrace_ops_list), rec);
}

/**
 * ftrace_find_tramp_ops_next - the next ops with a trampoline on a site
 * @rec: the site's record
 * @op: an ops ftrace_find_tramp_ops_any() or this function returned
 *
 * Return: the next such ops in the list after @op, or NULL.
 */
struct ftrace_ops *ftrace_find_tramp_ops_next(struct dyn_ftrace *rec,
					      struct ftrace_ops *op)
{
	return facct_tramp_from(fops_next_raw(op), rec);
}

/*
 * The registered ops other than @skip that select @rec, if there is
 * exactly one; NULL if there is none or more than one.
 */
static struct ftrace_ops *facct_sole_ops(struct dyn_ftrace *rec,
					 struct ftrace_ops *skip)
{
	struct ftrace_ops *op, *found = NULL;

	fops_for_each_raw(op) {
		if (op == skip || !fops_hash_has_ip(op->func_hash, ftrace_rec_ip(rec)))
			continue;
		if (found)
			return NULL;
		found = op;
	}
	return found;
}

/**
 * ftrace_find_unique_ops - the one ops that traces a site
 * @rec: the site's record
 *
 * Return: the registered ops whose sets select @rec if no other ops'
 * do, else NULL.  Hold ftrace_lock.
 */
struct ftrace_ops *ftrace_find_unique_ops(struct dyn_ftrace *rec)
{
	return facct_sole_ops(rec, NULL);
}

/* Does a registered ops other than @skip want full regs at @rec? */
static bool facct_regs_wanted(struct dyn_ftrace *rec, struct ftrace_ops *skip)
{
	struct ftrace_ops *op;

	fops_for_each_raw(op) {
		if (op != skip && (op->flags & FTRACE_OPS_FL_SAVE_REGS) &&
		    fops_hash_has_ip(op->func_hash, ftrace_rec_ip(rec)))
			return true;
	}
	return false;
}

/*
 * Set the wishes that depend on who is left at @rec once @ops came
 * (@added) or went.  The ops that went may still be on the list (its
 * sets are being changed), so it is skipped by name.
 */
static void facct_rewish(struct dyn_ftrace *rec, struct ftrace_ops *ops,
			 bool added)
{
	unsigned long n = ftrace_rec_count(rec);
	struct ftrace_ops *alone = NULL;

	if (n == 1)
		alone = added ? ops : facct_sole_ops(rec, ops);

	if ((alone && alone->trampoline) || (n >= 2 && fchain_enabled()))
		rec->flags |= FTRACE_FL_TRAMP;
	else
		rec->flags &= ~FTRACE_FL_TRAMP;

	if (IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_CALL_OPS) && alone &&
	    ftrace_ops_get_func(alone) == alone->func)
		rec->flags |= FTRACE_FL_CALL_OPS;
	else
		rec->flags &= ~FTRACE_FL_CALL_OPS;

	if (added) {
		if (ops->flags & FTRACE_OPS_FL_SAVE_REGS)
			rec->flags |= FTRACE_FL_REGS;
		if (ops->flags & FTRACE_OPS_FL_DIRECT)
			rec->flags |= FTRACE_FL_DIRECT;
		return;
	}
	/* Only the direct ops sets FL_DIRECT, so it takes it along. */
	if (ops->flags & FTRACE_OPS_FL_DIRECT)
		rec->flags &= ~FTRACE_FL_DIRECT;
	/* With no ops left the code update clears the lot. */
	if (n && (rec->flags & FTRACE_FL_REGS) &&
	    (ops->flags & FTRACE_OPS_FL_SAVE_REGS) &&
	    !facct_regs_wanted(rec, ops))
		rec->flags &= ~FTRACE_FL_REGS;
}

/*
 * Count @ops in or out of @rec.  A count that would leave its range
 * means the books are wrong: tracing is shut down.
 */
static bool facct_count(struct dyn_ftrace *rec, struct ftrace_ops *ops,
			bool add)
{
	unsigned long n = ftrace_rec_count(rec);

	if (WARN_ON_ONCE(add ? n + 1 >= FTRACE_REF_MAX : !n)) {
		ftrace_kill();
		return false;
	}
	if (add)
		rec->flags++;
	else
		rec->flags--;
	facct_rewish(rec, ops, add);
	return true;
}

/*
 * Count @ops in or out of each site it selects.  Returns true if some
 * site's code no longer matches what its ops need.
 */
static bool facct_update(struct ftrace_ops *ops, bool add)
{
	struct ftrace_hash *take;
	struct ftrace_func_entry *entry;
	struct dyn_ftrace *rec;
	bool change = false;

	lockdep_assert_held(&ftrace_lock);
	if (!(ops->flags & FTRACE_OPS_FL_ENABLED))
		return false;

	take = facct_filter_or_all(ops);
	if (take && take->count < frec_count() / FACCT_LOOKUP_SHARE) {
		fhash_for_each(take, entry) {
			rec = facct_rec_at(entry->ip);
			if (!rec || facct_rec_ignored(rec) ||
			    !fops_hash_has_ip(ops->func_hash, ftrace_rec_ip(rec)))
				continue;
			if (!facct_count(rec, ops, add))
				return false;
			change |= ftrace_test_record(rec, true) !=
				  FTRACE_UPDATE_IGNORE;
		}
		return change;
	}

	frec_for_each(rec) {
		if (facct_rec_ignored(rec) ||
		    !fops_hash_has_ip(ops->func_hash, ftrace_rec_ip(rec)))
			continue;
		if (!facct_count(rec, ops, add))
			return false;
		change |= ftrace_test_record(rec, true) != FTRACE_UPDATE_IGNORE;
	}
	return change;
}

bool facct_attach(struct ftrace_ops *ops)
{
	return facct_update(ops, true);
}

bool facct_detach(struct ftrace_ops *ops)
{
	return facct_update(ops, false);
}

/*
 * The ops that use the global ops' sets (the top-level function
 * tracer and its kind) all change with them.
 */
static void facct_update_sharing(struct ftrace_ops *ops, bool add)
{
	struct ftrace_ops *op;

	facct_update(ops, add);
	if (ops->func_hash != &global_ops.local_hash)
		return;
	fops_for_each_raw(op) {
		if (op != ops && op->func_hash == ops->func_hash)
			facct_update(op, add);
	}
}

void facct_attach_sharing(struct ftrace_ops *ops)
{
	facct_update_sharing(ops, true);
}

void facct_detach_sharing(struct ftrace_ops *ops)
{
	facct_update_sharing(ops, false);
}

/*
 * The record of @entry's site if @without does not hold it too and
 * updates may touch it; NULL otherwise.  A NULL @without holds nothing.
 */
static struct dyn_ftrace *facct_only_in(struct ftrace_func_entry *entry,
					struct ftrace_hash *without)
{
	struct dyn_ftrace *rec;

	if (without && ftrace_lookup_ip(without, entry->ip))
		return NULL;
	rec = facct_rec_at(entry->ip);
	if (!rec || (rec->flags & (FTRACE_FL_DISABLED | FTRACE_FL_BAD)))
		return NULL;
	return rec;
}

/* Has an ops claimed a site that is in @to but not in @from? */
static bool facct_ipmodify_taken(struct ftrace_hash *from,
				 struct ftrace_hash *to)
{
	struct ftrace_func_entry *entry;
	struct dyn_ftrace *rec;

	fhash_for_each(to, entry) {
		rec = facct_only_in(entry, from);
		if (rec && (rec->flags & FTRACE_FL_IPMODIFY))
			return true;
	}
	return false;
}

/* Claim (or give up) the sites that are in @sites but not in @keep. */
static void facct_ipmodify_mark(struct ftrace_hash *sites,
				struct ftrace_hash *keep, bool claim)
{
	struct ftrace_func_entry *entry;
	struct dyn_ftrace *rec;

	fhash_for_each(sites, entry) {
		rec = facct_only_in(entry, keep);
		if (!rec)
			continue;
		if (claim)
			rec->flags |= FTRACE_FL_IPMODIFY;
		else
			rec->flags &= ~FTRACE_FL_IPMODIFY;
	}
}

/*
 * A direct ops makes no claim, but a site another ops has claimed can
 * take it only if the direct ops' owner agrees to share (BPF
 * trampolines then call the claimant's code).  It is asked once.
 */
static int facct_direct_may_share(struct ftrace_ops *ops,
				  struct ftrace_hash *from,
				  struct ftrace_hash *to, bool retarget)
{
	struct ftrace_func_entry *entry;
	struct dyn_ftrace *rec;
	bool agreed = false;
	int ret;

	fhash_for_each(to, entry) {
		rec = facct_only_in(entry, retarget ? NULL : from);
		if (!rec || !(rec->flags & FTRACE_FL_IPMODIFY))
			continue;
		/* A site new to this ops cannot be direct already. */
		if (WARN_ON_ONCE(!retarget && (rec->flags & FTRACE_FL_DIRECT)))
			ftrace_kill();
		if (agreed)
			continue;
		if (!ops->ops_func)
			return -EBUSY;
		ret = ops->ops_func(ops, FTRACE_OPS_CMD_ENABLE_SHARE_IPMODIFY_SELF);
		if (ret)
			return ret;
		agreed = true;
	}
	return 0;
}

int facct_ipmodify_move(struct ftrace_ops *ops, struct ftrace_hash *from,
			struct ftrace_hash *to, bool retarget)
{
	bool ipmodify = ops->flags & FTRACE_OPS_FL_IPMODIFY;
	bool direct = ops->flags & FTRACE_OPS_FL_DIRECT;

	lockdep_assert_held(&ftrace_lock);
	if (!(ops->flags & FTRACE_OPS_FL_ENABLED) || (!ipmodify && !direct))
		return 0;
	if (WARN_ON_ONCE(ipmodify && direct))
		return 0;
	/* Redirecting every function of the kernel is never meant. */
	if (!from || !to)
		return -EINVAL;

	if (direct)
		return facct_direct_may_share(ops, from, to, retarget);

	/* Check everything first, so that a refusal changes nothing. */
	if (facct_ipmodify_taken(from, to))
		return -EBUSY;
	facct_ipmodify_mark(to, from, true);
	facct_ipmodify_mark(from, to, false);
	return 0;
}

int facct_ipmodify_claim(struct ftrace_ops *ops)
{
	return facct_ipmodify_move(ops, FHASH_EMPTY,
				   facct_filter_or_all(ops), false);
}

void facct_ipmodify_release(struct ftrace_ops *ops)
{
	facct_ipmodify_move(ops, facct_filter_or_all(ops), FHASH_EMPTY,
			    false);
}

int facct_move_set(struct ftrace_ops *ops, bool filter,
		   struct ftrace_hash __rcu **slot, struct ftrace_hash *src)
{
	struct ftrace_hash *set;
	int ret;

	/* Its claims follow the filter set alone. */
	if (!filter && (ops->flags & FTRACE_OPS_FL_IPMODIFY))
		return -EINVAL;

	set = fhash_take(src);
	if (!set)
		return -ENOMEM;

	if (filter) {
		ret = facct_ipmodify_move(ops, facct_filter_or_all(ops),
					  ftrace_hash_empty(set) ? NULL : set,
					  false);
		if (ret) {
			fhash_free(set);
			return ret;
		}
	}

	facct_detach_sharing(ops);
	rcu_assign_pointer(*slot, set);
	facct_attach_sharing(ops);
	return 0;
}
