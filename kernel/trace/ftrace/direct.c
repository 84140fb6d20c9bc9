// SPDX-License-Identifier: GPL-2.0
/*
 * Direct calls: sites that jump straight to a trampoline of someone
 * else's (a BPF trampoline, a sample's) rather than to ftrace_caller.
 *
 * A direct ops names one address for all the functions of its filter.
 * fdir_sites maps each such site to its address: a site with that ops
 * alone on it calls the address itself (ftrace_find_rec_direct(), read
 * by the site-call logic); a site shared with other ops goes through
 * ftrace_regs_caller and the list function, where the ops' callback
 * fdir_redirect() redirects the return into the address.  No two
 * direct ops may share a site.
 *
 * An IPMODIFY ops (livepatch) and a direct ops on one function must
 * agree: the direct ops' owner is asked through its ops_func before the
 * IPMODIFY ops starts, and told when no IPMODIFY ops is left there.
 *
 * Lock order: fdir_mutex, then ftrace_lock.  An ops_func always runs
 * with fdir_mutex held.  For the _PEER commands it runs without
 * ftrace_lock, since the owner may then modify its direct ops
 * (modify_ftrace_direct_nolock()); for ENABLE_SHARE_IPMODIFY_SELF,
 * which the accounting sends, with ftrace_lock too, so it must not.
 */
#include <linux/ftrace.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>

#include "accounting.h"
#include "dispatch.h"
#include "hash.h"
#include "internal.h"
#include "records.h"

/* Protects fdir_sites, direct ops' registration and their addresses. */
static DEFINE_MUTEX(fdir_mutex);

/*
 * Each direct site's address, in ->direct.  Sites are added by
 * publishing a grown copy; a copy without the sites of an ops that
 * goes replaces it when memory allows, else their ->direct is zeroed
 * in place, which readers take as absent.  Readers keep preemption off
 * or hold fdir_mutex; a replaced table is freed after RCU.
 */
static struct ftrace_hash __rcu *fdir_sites = RCU_INITIALIZER(FHASH_EMPTY);

/*
 * A direct ops with other ops on a site is reached through the list
 * function, so it needs the caller that can change the return: the one
 * that saves regs where the arch has it, else the one with args.
 */
#ifdef CONFIG_HAVE_DYNAMIC_FTRACE_WITH_REGS
#define FDIR_FLAGS	(FTRACE_OPS_FL_DIRECT | FTRACE_OPS_FL_SAVE_REGS)
#else
#define FDIR_FLAGS	(FTRACE_OPS_FL_DIRECT | FTRACE_OPS_FL_SAVE_ARGS)
#endif

static struct ftrace_hash *fdir_table(void)
{
	return rcu_dereference_protected(fdir_sites,
					 lockdep_is_held(&fdir_mutex));
}

/* The filter of a direct ops, which its owner may not change. */
static struct ftrace_hash *fdir_filter(struct ftrace_ops *ops)
{
	return rcu_dereference_raw(ops->func_hash->filter_hash);
}

/**
 * ftrace_find_rec_direct - the direct address a site calls, if any
 * @ip: the site
 *
 * Return: the address of the direct ops on @ip, or 0.
 */
unsigned long ftrace_find_rec_direct(unsigned long ip)
{
	struct ftrace_func_entry *entry;

	guard(preempt_notrace)();
	entry = fhash_find(rcu_dereference_sched(fdir_sites), ip);
	return entry ? READ_ONCE(entry->direct) : 0;
}

/*
 * A direct ops' callback, for the sites it shares: return into its
 * address rather than into the traced function.  A modify may change
 * the address between two calls.
 */
static void fdir_redirect(unsigned long ip, unsigned long parent_ip,
			  struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
	unsigned long to = READ_ONCE(ops->direct_call);

	if (to)
		arch_ftrace_set_direct_caller(fregs, to);
}

/* Is @ops a direct ops that register_ftrace_direct() set up? */
static bool fdir_is_direct(struct ftrace_ops *ops)
{
	return (ops->flags & FTRACE_OPS_FL_INITIALIZED) &&
	       (ops->flags & FDIR_FLAGS) == FDIR_FLAGS;
}

static bool fdir_put(struct ftrace_hash *table, unsigned long ip,
		     unsigned long addr)
{
	struct ftrace_func_entry *entry = fhash_insert(table, ip);

	if (entry)
		entry->direct = addr;
	return entry;
}

/*
 * A copy of the table without its zeroed entries, plus the sites of
 * @add (if not NULL) leading to @addr.  NULL when out of memory.
 */
static struct ftrace_hash *fdir_copy(struct ftrace_hash *add,
				     unsigned long addr)
{
	struct ftrace_hash *cur = fdir_table();
	unsigned long count = cur->count + (add ? add->count : 0);
	struct ftrace_func_entry *entry;
	struct ftrace_hash *next;

	next = fhash_alloc(fhash_bits_for(count));
	if (!next)
		return NULL;
	fhash_for_each(cur, entry) {
		if (entry->direct && !fdir_put(next, entry->ip, entry->direct))
			goto nomem;
	}
	if (add) {
		fhash_for_each(add, entry) {
			if (!fdir_put(next, entry->ip, addr))
				goto nomem;
		}
	}
	return next;
nomem:
	fhash_free(next);
	return NULL;
}

static void fdir_publish(struct ftrace_hash *next)
{
	struct ftrace_hash *old = fdir_table();

	rcu_assign_pointer(fdir_sites, next);
	fhash_free_rcu(old);
}

/* Enter the sites of @filter as leading to @addr. */
static int fdir_add_sites(struct ftrace_hash *filter, unsigned long addr)
{
	struct ftrace_func_entry *entry;
	struct ftrace_hash *next;

	fhash_for_each(filter, entry) {
		if (ftrace_find_rec_direct(entry->ip))
			return -EBUSY;
	}
	next = fdir_copy(filter, addr);
	if (!next)
		return -ENOMEM;
	fdir_publish(next);
	return 0;
}

/* Forget the sites of @filter that lead to @addr; cannot fail. */
static void fdir_drop_sites(struct ftrace_hash *filter, unsigned long addr)
{
	struct ftrace_hash *cur = fdir_table();
	struct ftrace_func_entry *entry, *site;
	struct ftrace_hash *next;

	fhash_for_each(filter, entry) {
		site = fhash_find(cur, entry->ip);
		if (site && site->direct == addr)
			WRITE_ONCE(site->direct, 0);
	}
	next = fdir_copy(NULL, 0);
	if (next)
		fdir_publish(next);
}

/* Let @ops be registered again: register_ftrace_direct() wants these. */
static void fdir_reset_ops(struct ftrace_ops *ops)
{
	ops->func = NULL;
	ops->trampoline = 0;
}

/**
 * register_ftrace_direct - make the functions of an ops call an address
 * @ops: an ops, not registered, with a filter set by ftrace_set_filter_ip()
 *	and no callback
 * @addr: the trampoline its functions are to call; it must save and
 *	restore the traced function's arguments itself
 *
 * The ops gets its callback, flags and trampoline from here; its owner
 * must not change them or its filter while it is registered.
 *
 * Return: 0; -EINVAL for an ops that has a callback or trampoline, is
 * not initialised, is registered or has no filter; -EBUSY if another
 * direct ops is on one of its functions; -ENOMEM; or the errors of
 * registering an ops.
 */
int register_ftrace_direct(struct ftrace_ops *ops, unsigned long addr)
{
	struct ftrace_hash *filter;
	int err;

	if (ops->func || ops->trampoline)
		return -EINVAL;
	if (!(ops->flags & FTRACE_OPS_FL_INITIALIZED) ||
	    (ops->flags & FTRACE_OPS_FL_ENABLED))
		return -EINVAL;
	filter = fdir_filter(ops);
	if (ftrace_hash_empty(filter))
		return -EINVAL;

	guard(mutex)(&fdir_mutex);
	err = fdir_add_sites(filter, addr);
	if (err)
		return err;

	ops->func = fdir_redirect;
	ops->flags = FTRACE_OPS_FL_INITIALIZED | FDIR_FLAGS;
	ops->trampoline = FTRACE_REGS_ADDR;
	ops->direct_call = addr;
	err = fops_start(ops);
	if (err) {
		fdir_drop_sites(filter, addr);
		fdir_reset_ops(ops);
	}
	return err;
}
EXPORT_SYMBOL_GPL(register_ftrace_direct);

/**
 * unregister_ftrace_direct - stop the direct calls of an ops
 * @ops: an ops registered by register_ftrace_direct()
 * @addr: the address it was registered with
 * @free_filters: also free the ops' filter, as ftrace_free_filter() does
 *
 * When it returns no site calls @addr and the ops may be registered
 * again.
 *
 * Return: 0; -EINVAL if @ops is not a registered direct ops; or the
 * error of unregistering it.
 */
int unregister_ftrace_direct(struct ftrace_ops *ops, unsigned long addr,
			     bool free_filters)
{
	int err;

	if (!fdir_is_direct(ops) || !(ops->flags & FTRACE_OPS_FL_ENABLED))
		return -EINVAL;

	scoped_guard(mutex, &fdir_mutex) {
		err = fops_stop(ops);
		fdir_drop_sites(fdir_filter(ops), addr);
		fdir_reset_ops(ops);
	}
	if (free_filters)
		ftrace_free_filter(ops);
	return err;
}
EXPORT_SYMBOL_GPL(unregister_ftrace_direct);

/*
 * While it is registered, every site of @ops has two ops and so goes
 * through the list function, where @ops' callback reads ->direct_call
 * afresh on each call.  The ops shares @ops' sets and does nothing.
 */
static struct ftrace_ops fdir_bridge = {
	.func	= ftrace_stub,
	.flags	= FTRACE_OPS_FL_STUB,
};

/* Point @ops and its sites at @addr, while the bridge is up. */
static int fdir_retarget(struct ftrace_ops *ops, unsigned long addr)
{
	struct ftrace_hash *filter = fdir_filter(ops);
	struct ftrace_func_entry *entry, *site;
	int err;

	guard(mutex)(&ftrace_lock);
	/* Starting the bridge asked no IPMODIFY peer on @ops' behalf. */
	err = facct_ipmodify_move(ops, filter, filter, true);
	if (err)
		return err;
	fhash_for_each(filter, entry) {
		site = fhash_find(fdir_table(), entry->ip);
		if (site)
			WRITE_ONCE(site->direct, addr);
	}
	/* The list function may read it at any time. */
	WRITE_ONCE(ops->direct_call, addr);
	return 0;
}

/* Move @ops to @addr without a moment in which its sites call nothing. */
static int fdir_move(struct ftrace_ops *ops, unsigned long addr)
{
	int err;

	lockdep_assert_held(&fdir_mutex);
	ftrace_ops_init(&fdir_bridge);
	fdir_bridge.func_hash = ops->func_hash;
	fdir_bridge.direct_call = addr;
	err = fops_start(&fdir_bridge);
	if (err)
		return err;
	err = fdir_retarget(ops, addr);
	/* Alone again, each site is patched to call its address itself. */
	fops_stop(&fdir_bridge);
	return err;
}

/**
 * modify_ftrace_direct_nolock - move a direct ops to a new address
 * @ops: an ops registered by register_ftrace_direct()
 * @addr: the new address
 *
 * Every call goes to the old address or the new one, none is lost.
 * For an ops_func that already holds the direct-call lock, which is
 * the only caller allowed.
 *
 * Return: 0; -EINVAL if @ops is not a registered direct ops; or the
 * errors of starting an ops on its functions.
 */
int modify_ftrace_direct_nolock(struct ftrace_ops *ops, unsigned long addr)
{
	if (!fdir_is_direct(ops) || !(ops->flags & FTRACE_OPS_FL_ENABLED))
		return -EINVAL;
	return fdir_move(ops, addr);
}
EXPORT_SYMBOL_GPL(modify_ftrace_direct_nolock);

/**
 * modify_ftrace_direct - move a direct ops to a new address
 * @ops: an ops registered by register_ftrace_direct()
 * @addr: the new address
 *
 * Every call goes to the old address or the new one, none is lost.
 *
 * Return: as modify_ftrace_direct_nolock().
 */
int modify_ftrace_direct(struct ftrace_ops *ops, unsigned long addr)
{
	if (!fdir_is_direct(ops) || !(ops->flags & FTRACE_OPS_FL_ENABLED))
		return -EINVAL;

	guard(mutex)(&fdir_mutex);
	return fdir_move(ops, addr);
}
EXPORT_SYMBOL_GPL(modify_ftrace_direct);

/* The enabled direct ops on @ip, or NULL. */
static struct ftrace_ops *fdir_ops_on(unsigned long ip)
{
	struct ftrace_ops *op;

	guard(mutex)(&ftrace_lock);
	fops_for_each_locked(op) {
		if ((op->flags & FTRACE_OPS_FL_DIRECT) &&
		    (op->flags & FTRACE_OPS_FL_ENABLED) &&
		    fops_hash_has_ip(op->func_hash, ip))
			return op;
	}
	return NULL;
}

/*
 * The direct ops to tell that sharing @ip is over: none while some
 * IPMODIFY ops still holds the site, whose claim needs the sharing
 * (one registered meanwhile, or the one that made ours fail).
 */
static struct ftrace_ops *fdir_peer_done(unsigned long ip)
{
	struct dyn_ftrace *rec;

	scoped_guard(mutex, &ftrace_lock) {
		rec = frec_lookup(ip, ip);
		if (rec && (rec->flags & FTRACE_FL_IPMODIFY))
			return NULL;
	}
	return fdir_ops_on(ip);
}

/*
 * Tell the direct ops on the sites of @ops, those before the entry
 * @stop if it is not NULL, that the sharing is over.  A courtesy:
 * their answer does not matter.
 */
static void fdir_release_peers(struct ftrace_ops *ops,
			       struct ftrace_func_entry *stop)
{
	struct ftrace_func_entry *entry;
	struct ftrace_ops *peer;

	fhash_for_each(fdir_filter(ops), entry) {
		if (entry == stop)
			break;
		peer = fdir_peer_done(entry->ip);
		if (peer && peer->ops_func)
			peer->ops_func(peer,
				       FTRACE_OPS_CMD_DISABLE_SHARE_IPMODIFY_PEER);
	}
}

/*
 * Ask the direct ops on each site of @ops to share it with an IPMODIFY
 * ops.  One without an ops_func cannot be asked and refuses.
 */
static int fdir_ask_peers(struct ftrace_ops *ops)
{
	struct ftrace_func_entry *entry;
	struct ftrace_ops *peer;
	int err;

	fhash_for_each(fdir_filter(ops), entry) {
		peer = fdir_ops_on(entry->ip);
		if (!peer)
			continue;
		err = -EBUSY;
		if (peer->ops_func)
			err = peer->ops_func(peer,
				FTRACE_OPS_CMD_ENABLE_SHARE_IPMODIFY_PEER);
		if (err) {
			fdir_release_peers(ops, entry);
			return err;
		}
	}
	return 0;
}

/**
 * fdir_register_ipmodify - register an IPMODIFY ops next to direct calls
 * @ops: the ops, initialised, with FTRACE_OPS_FL_IPMODIFY
 *
 * The direct ops on its functions are asked to share them first.  If
 * one refuses, or @ops then cannot start, @ops is not registered and
 * those that agreed are told the sharing is off, except where another
 * IPMODIFY ops still holds the function.
 *
 * Return: 0, the refusal, or the errors of registering @ops.
 */
int fdir_register_ipmodify(struct ftrace_ops *ops)
{
	int err;

	guard(mutex)(&fdir_mutex);
	err = fdir_ask_peers(ops);
	if (err)
		return err;
	err = fops_start(ops);
	if (err)
		fdir_release_peers(ops, NULL);
	return err;
}

/**
 * fdir_unregistered_ipmodify - tell direct ops an IPMODIFY ops went
 * @ops: the ops, just unregistered
 */
void fdir_unregistered_ipmodify(struct ftrace_ops *ops)
{
	guard(mutex)(&fdir_mutex);
	fdir_release_peers(ops, NULL);
}
