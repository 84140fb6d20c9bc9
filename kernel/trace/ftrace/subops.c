// SPDX-License-Identifier: GPL-2.0
/*
 * Managers and their subops, and the way a new filter or notrace set
 * reaches an ops.
 *
 * A manager ops (the function graph's) is registered once and stands
 * for many subops, each with its own sets; its callback tells them
 * apart with ftrace_ops_test().  The manager's sets are derived from
 * its subops' and recomputed whenever one comes, goes or changes:
 *
 *  - its filter selects every function some subops selects (an empty
 *    filter, "all functions", wins);
 *  - its notrace set keeps out only what every subops keeps out (an
 *    empty one, "none", wins).
 *
 * So the manager's sites are a superset of each subops', never less.
 * A subops is never on the ops list itself: it is marked ENABLED and
 * SUBOP and points at its manager through ->managed.
 *
 * Everything here runs with ftrace_lock held.
 */
#include <linux/ftrace.h>
#include <linux/list.h>
#include <linux/lockdep.h>

#include "code_update.h"
#include "dispatch.h"
#include "hash.h"
#include "internal.h"
#include "tracefs/tracefs.h"

static struct ftrace_hash *fsub_set(struct ftrace_ops *ops, bool filter)
{
	struct ftrace_ops_hash *h = ops->func_hash;

	return filter ? rcu_dereference_protected(h->filter_hash,
						  lockdep_is_held(&ftrace_lock)) :
			rcu_dereference_protected(h->notrace_hash,
						  lockdep_is_held(&ftrace_lock));
}

static struct ftrace_hash __rcu **fsub_slot(struct ftrace_ops *ops,
					    bool filter)
{
	return filter ? &ops->func_hash->filter_hash :
			&ops->func_hash->notrace_hash;
}

/* A set left NULL by a static initialiser means the empty set. */
static void fsub_fill_empty(struct ftrace_ops *ops)
{
	if (!rcu_access_pointer(ops->func_hash->filter_hash))
		RCU_INIT_POINTER(ops->func_hash->filter_hash, FHASH_EMPTY);
	if (!rcu_access_pointer(ops->func_hash->notrace_hash))
		RCU_INIT_POINTER(ops->func_hash->notrace_hash, FHASH_EMPTY);
}

/* Add to @acc every entry of @set that it lacks; false on -ENOMEM. */
static bool fsub_add_all(struct ftrace_hash *acc, struct ftrace_hash *set)
{
	struct ftrace_func_entry *entry;

	fhash_for_each(set, entry) {
		if (!fhash_find(acc, entry->ip) && !fhash_insert(acc, entry->ip))
			return false;
	}
	return true;
}

/* Drop from @acc every entry that @set lacks. */
static void fsub_keep_common(struct ftrace_hash *acc, struct ftrace_hash *set)
{
	struct ftrace_func_entry *entry, *next;

	fhash_for_each_safe(acc, entry, next) {
		if (!fhash_find(set, entry->ip))
			fhash_erase(acc, entry);
	}
}

/*
 * The manager's filter (@filter) or notrace set, derived from its
 * subops' as the comment at the top says.  A private draft, or
 * FHASH_EMPTY; NULL when out of memory.
 */
static struct ftrace_hash *fsub_derive(struct ftrace_ops *mgr, bool filter)
{
	struct ftrace_hash *acc = NULL, *set;
	unsigned long total = 0;
	struct ftrace_ops *sub;

	list_for_each_entry(sub, &mgr->subop_list, list) {
		set = fsub_set(sub, filter);
		/* Empty wins: all functions traced, or none kept out. */
		if (ftrace_hash_empty(set))
			return FHASH_EMPTY;
		total += set->count;
	}

	list_for_each_entry(sub, &mgr->subop_list, list) {
		set = fsub_set(sub, filter);
		if (!acc) {
			/* A union may need room for all; a common part not. */
			acc = fhash_dup(set, filter ? fhash_bits_for(total) :
						      FHASH_FIT);
			if (!acc)
				return NULL;
		} else if (filter) {
			if (!fsub_add_all(acc, set)) {
				fhash_free(acc);
				return NULL;
			}
		} else {
			fsub_keep_common(acc, set);
		}
	}
	return acc ?: FHASH_EMPTY;
}

/* Do @a and @b hold the same functions? */
static bool fsub_same(struct ftrace_hash *a, struct ftrace_hash *b)
{
	struct ftrace_func_entry *entry;

	if (ftrace_hash_empty(a) || ftrace_hash_empty(b))
		return ftrace_hash_empty(a) == ftrace_hash_empty(b);
	if (a->count != b->count)
		return false;
	fhash_for_each(a, entry) {
		if (!fhash_find(b, entry->ip))
			return false;
	}
	return true;
}

/* Give the started manager the sets its subops now call for. */
static int fsub_resync(struct ftrace_ops *mgr)
{
	struct ftrace_hash *want[2];
	int ret = 0;
	int i;

	want[0] = fsub_derive(mgr, false);
	want[1] = fsub_derive(mgr, true);
	if (!want[0] || !want[1])
		ret = -ENOMEM;
	/* i == 0: the notrace set, i == 1: the filter. */
	for (i = 0; !ret && i < 2; i++) {
		if (!fsub_same(want[i], fsub_set(mgr, i)))
			ret = fupd_move_set(mgr, i, fsub_slot(mgr, i), want[i]);
	}
	fhash_free(want[0]);
	fhash_free(want[1]);
	return ret;
}

/*
 * The first subops: the manager takes copies of its sets and starts.
 * On failure the manager keeps the sets it had.
 */
static int fsub_start_manager(struct ftrace_ops *mgr, int command)
{
	struct ftrace_hash *had[2], *set;
	int ret = 0;
	int i;

	for (i = 0; i < 2; i++) {
		had[i] = fsub_set(mgr, i);
		set = fsub_derive(mgr, i);
		if (!set)
			ret = -ENOMEM;
		RCU_INIT_POINTER(*fsub_slot(mgr, i), set);
	}
	if (!ret)
		ret = ftrace_startup(mgr, command);

	/* Had ftrace_startup() listed the manager, walkers saw its sets. */
	for (i = 0; i < 2; i++) {
		set = fsub_set(mgr, i);
		if (ret)
			rcu_assign_pointer(*fsub_slot(mgr, i), had[i]);
		fhash_free_rcu(ret ? set : had[i]);
	}
	return ret;
}

/* The last subops went: stop the manager and empty its sets. */
static int fsub_stop_manager(struct ftrace_ops *mgr, int command)
{
	int ret = ftrace_shutdown(mgr, command);
	int i;

	if (ret)
		return ret;
	/* A static manager is not waited for: free after RCU. */
	for (i = 0; i < 2; i++) {
		struct ftrace_hash *had = fsub_set(mgr, i);

		rcu_assign_pointer(*fsub_slot(mgr, i), FHASH_EMPTY);
		fhash_free_rcu(had);
	}
	return 0;
}

/*
 * -ENODEV once ftrace is dead; @err if @sub is not in the state
 * (@enabled or not) the caller needs, which is a caller's bug.
 */
static int fsub_check(struct ftrace_ops *sub, bool enabled, int err)
{
	if (unlikely(ftrace_is_dead()))
		return -ENODEV;
	if (WARN_ON_ONCE(!!(sub->flags & FTRACE_OPS_FL_ENABLED) != enabled))
		return err;
	return 0;
}

static void fsub_mark(struct ftrace_ops *sub, struct ftrace_ops *mgr)
{
	if (mgr)
		sub->flags |= FTRACE_OPS_FL_ENABLED | FTRACE_OPS_FL_SUBOP;
	else
		sub->flags &= ~(FTRACE_OPS_FL_ENABLED | FTRACE_OPS_FL_SUBOP);
	sub->managed = mgr;
}

/**
 * ftrace_startup_subops - add a subops to a manager, starting it if need be
 * @ops: the manager
 * @subops: the subops, not enabled
 * @command: update commands for the manager's first start
 *
 * The manager's sets grow to cover @subops' functions.  Hold
 * ftrace_lock.
 *
 * Return: 0; -ENODEV once ftrace is dead, -EBUSY if @subops is already
 * enabled, -ENOMEM, or the errors of starting or updating the manager.
 * On error neither ops has changed.
 */
int ftrace_startup_subops(struct ftrace_ops *ops, struct ftrace_ops *subops,
			  int command)
{
	int ret;

	lockdep_assert_held(&ftrace_lock);
	ret = fsub_check(subops, false, -EBUSY);
	if (ret)
		return ret;
	ftrace_ops_init(ops);
	ftrace_ops_init(subops);
	fsub_fill_empty(ops);
	fsub_fill_empty(subops);

	list_add(&subops->list, &ops->subop_list);
	if (list_is_singular(&ops->subop_list))
		ret = fsub_start_manager(ops, command);
	else
		ret = fsub_resync(ops);
	if (ret) {
		list_del(&subops->list);
		/* A half-done resync is undone by one from the old list. */
		if (!list_empty(&ops->subop_list))
			fsub_resync(ops);
		return ret;
	}
	fsub_mark(subops, ops);
	return 0;
}

/**
 * ftrace_shutdown_subops - take a subops from its manager
 * @ops: the manager
 * @subops: one of its subops
 * @command: update commands for the manager's stop, if @subops is its last
 *
 * The manager's sets shrink to its other subops' functions; with none
 * left it is stopped.  Functions other subops still trace stay traced.
 * Hold ftrace_lock.
 *
 * Unless ftrace is dead or @subops is not enabled, @subops is taken off
 * even when the manager cannot follow, since its owner is about to free
 * it (fgraph does not look at the result).  The manager then keeps
 * sets that still cover its other subops, and more.
 *
 * Return: 0; -ENODEV once ftrace is dead, -EINVAL if @subops is not
 * enabled, -ENOMEM, or the errors of stopping or updating the manager.
 */
int ftrace_shutdown_subops(struct ftrace_ops *ops, struct ftrace_ops *subops,
			   int command)
{
	int ret;

	lockdep_assert_held(&ftrace_lock);
	ret = fsub_check(subops, true, -EINVAL);
	if (ret)
		return ret;

	list_del(&subops->list);
	fsub_mark(subops, NULL);
	if (list_empty(&ops->subop_list))
		ret = fsub_stop_manager(ops, command);
	else
		ret = fsub_resync(ops);
	if (ret)
		pr_warn_once("ftrace: manager %ps keeps too many functions: %d\n",
			     ops->func, ret);
	return ret;
}

/**
 * ftrace_subops_exact - does a manager hook exactly its one subops' functions?
 * @ops: the manager
 *
 * After a failed change the manager may keep sets wider than its subops
 * call for (see ftrace_shutdown_subops()); a caller that would skip the
 * sole subops' filter on each call asks this first.  Hold ftrace_lock.
 *
 * Return: true if @ops has one subops and the same sets as it.
 */
bool ftrace_subops_exact(struct ftrace_ops *ops)
{
	struct ftrace_ops *sub;

	lockdep_assert_held(&ftrace_lock);
	if (!list_is_singular(&ops->subop_list))
		return false;
	sub = list_first_entry(&ops->subop_list, struct ftrace_ops, list);
	return fsub_same(fsub_set(ops, false), fsub_set(sub, false)) &&
	       fsub_same(fsub_set(ops, true), fsub_set(sub, true));
}

/*
 * A new set for a subops: install it, then bring its manager's sets in
 * line.  If the manager cannot follow, the subops gets its old set back.
 */
static int fsub_move_set(struct ftrace_ops *sub,
			 struct ftrace_hash __rcu **slot,
			 struct ftrace_hash *draft)
{
	struct ftrace_ops *mgr = sub->managed;
	struct ftrace_hash *had, *set;
	int ret;

	/* A manager cannot be a subops itself. */
	if (WARN_ON_ONCE(!mgr || (mgr->flags & FTRACE_OPS_FL_SUBOP)))
		return -EINVAL;

	set = fhash_take(draft);
	if (!set)
		return -ENOMEM;
	had = rcu_dereference_protected(*slot, lockdep_is_held(&ftrace_lock));
	rcu_assign_pointer(*slot, set);

	ret = fsub_resync(mgr);
	if (ret) {
		rcu_assign_pointer(*slot, had);
		fsub_resync(mgr);
		fhash_free_rcu(set);
	} else {
		fhash_free_rcu(had);
	}
	return ret;
}

/* The enabled subops, of any manager, that uses the sets of @ops. */
static struct ftrace_ops *fsub_sharer(struct ftrace_ops *ops)
{
	struct ftrace_ops *mgr, *sub;

	fops_for_each_locked(mgr) {
		list_for_each_entry(sub, &mgr->subop_list, list) {
			if ((sub->flags & FTRACE_OPS_FL_ENABLED) &&
			    sub->func_hash == ops->func_hash)
				return sub;
		}
	}
	return NULL;
}

/**
 * ftrace_hash_move_and_update_ops - give an ops a new filter or notrace set
 * @ops: the ops
 * @orig_hash: the slot of @ops' sets to fill
 * @hash: a draft of the new set; its entries are taken, the husk is the
 *	caller's to free
 * @enable: nonzero for the filter, zero for the notrace set
 *
 * The sites follow at once.  A subops' change goes through its
 * manager; so does one of an ops that is not started but shares its
 * sets with a subops (as a trace instance's ops does with its
 * function graph subops).  Hold ftrace_lock.
 *
 * Return: 0, -ENOMEM, -EBUSY for an IPMODIFY claim that conflicts,
 * -EINVAL for a notrace set on an IPMODIFY ops.
 */
int ftrace_hash_move_and_update_ops(struct ftrace_ops *ops,
				    struct ftrace_hash __rcu **orig_hash,
				    struct ftrace_hash *hash, int enable)
{
	struct ftrace_ops *sub = ops;

	lockdep_assert_held(&ftrace_lock);
	if (!(ops->flags & (FTRACE_OPS_FL_SUBOP | FTRACE_OPS_FL_ENABLED)))
		sub = fsub_sharer(ops);
	if (sub && (sub->flags & FTRACE_OPS_FL_SUBOP))
		return fsub_move_set(sub, orig_hash, hash);
	return fupd_move_set(ops, enable, orig_hash, hash);
}
