// SPDX-License-Identifier: GPL-2.0
/*
 * Chains: trampolines for the sites that several ops take.
 *
 * A site one ops takes may call that ops' own trampoline.  A site that
 * several take would have to call the list function, which tests every
 * registered ops' sets on each call.  Yet which ops take a site is
 * known when it is patched: a chain is a trampoline built for one set
 * of ops, whose function calls each of them in list order, with no
 * lookup.  Every site that the same set takes calls the same chain.
 *
 * A chain is a pseudo ftrace_ops the core owns and never registers:
 * the arch builds its trampoline as for any ops (trampolines.c names
 * it in kallsyms and tells perf), and ftrace_ops_trampoline() finds it
 * for the unwinders.  A record asks for a chain with FL_TRAMP and a
 * count of two or more, and holds one with FL_TRAMP_EN and a call to
 * a chain's trampoline, which the arch reads back from the site.
 *
 * Lifetime, all under ftrace_lock:
 *  - before a code update patches sites, fchain_prepare() finds or
 *    builds the chain of every site that asks for one (building the
 *    trampoline takes text_mutex); a site whose chain cannot be
 *    built (no memory, a member that needs the list) stops asking and
 *    the list function serves it;
 *  - after the update, fchain_sweep() retires the chains no site asked
 *    for: they stay findable while a CPU or a preempted task may be on
 *    them, and are freed by a work item once RCU-tasks says none is.
 *    The members need no such care: an ops' own shutdown waits for the
 *    same grace periods before its owner may free it.
 */
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/lockdep.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "accounting.h"
#include "chains.h"
#include "dispatch.h"
#include "records.h"

/* Every chain not yet freed; the dead ones only for the unwinders. */
static LIST_HEAD(fchain_all);
/* Chains retired and not yet handed to the reaper. */
static LIST_HEAD(fchain_dying);

#ifdef CONFIG_FTRACE_ACCOUNTING_KUNIT_TEST
bool fchain_refuse;
#endif

/* What the trampoline of a chain calls: each member, in order. */
static void fchain_call(unsigned long ip, unsigned long parent_ip,
			struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct fchain *chain = container_of(op, struct fchain, ops);
	struct ftrace_ops *m;
	unsigned int i;

	for (i = 0; i < chain->nr; i++) {
		m = chain->member[i];
		fops_func(m)(ip, parent_ip, m, fregs);
	}
}

NOKPROBE_SYMBOL(fchain_call);

/*
 * The enabled ops whose sets take @rec, in list order, into @set.
 * Returns how many, or 0 if they cannot share a chain: one needs the
 * list (a stub or a direct call), there are too many, or they are not
 * the ones the record counts.
 */
static unsigned int fchain_set_of(struct dyn_ftrace *rec,
				  struct ftrace_ops **set)
{
	unsigned long ip = ftrace_rec_ip(rec);
	struct ftrace_ops *op;
	unsigned int nr = 0;

	fops_for_each_raw(op) {
		if (!(op->flags & FTRACE_OPS_FL_ENABLED) ||
		    !fops_hash_has_ip(op->func_hash, ip))
			continue;
		if (nr == FCHAIN_MAX ||
		    (op->flags & (FTRACE_OPS_FL_STUB | FTRACE_OPS_FL_DIRECT)))
			return 0;
		set[nr++] = op;
	}
	return nr == ftrace_rec_count(rec) ? nr : 0;
}

static bool fchain_is(const struct fchain *chain, struct ftrace_ops **set,
		      unsigned int nr)
{
	return !chain->dead && chain->nr == nr &&
	       !memcmp(chain->member, set, nr * sizeof(*set));
}

static struct fchain *fchain_find(struct ftrace_ops **set, unsigned int nr)
{
	struct fchain *chain;

	list_for_each_entry(chain, &fchain_all, node) {
		if (fchain_is(chain, set, nr))
			return chain;
	}
	return NULL;
}

/* The chain @rec asks for, if it has been built; NULL otherwise. */
struct fchain *fchain_new(struct dyn_ftrace *rec)
{
	struct ftrace_ops *set[FCHAIN_MAX];
	unsigned int nr;

	lockdep_assert_held(&ftrace_lock);
	nr = fchain_set_of(rec, set);
	return nr >= 2 ? fchain_find(set, nr) : NULL;
}

static struct fchain *fchain_build(struct ftrace_ops **set, unsigned int nr)
{
	struct fchain *chain;
	unsigned int i;

#ifdef CONFIG_FTRACE_ACCOUNTING_KUNIT_TEST
	if (READ_ONCE(fchain_refuse))
		return NULL;
#endif
	chain = kzalloc(struct_size(chain, member, nr), GFP_KERNEL);
	if (!chain)
		return NULL;
	chain->ops.func = fchain_call;
	chain->ops.flags = FTRACE_OPS_FL_DYNAMIC;
	for (i = 0; i < nr; i++) {
		if (set[i]->flags & FTRACE_OPS_FL_SAVE_REGS)
			chain->ops.flags |= FTRACE_OPS_FL_SAVE_REGS;
		/* The trampoline must take a moved ip back; no claim here. */
		if (set[i]->flags & (FTRACE_OPS_FL_IPMODIFY |
				     FTRACE_OPS_FL_OVERRIDE))
			chain->ops.flags |= FTRACE_OPS_FL_OVERRIDE;
		chain->member[i] = set[i];
	}
	chain->nr = nr;

	ftrace_update_trampoline(&chain->ops);
	if (!chain->ops.trampoline) {
		kfree(chain);
		return NULL;
	}
	list_add_tail_rcu(&chain->node, &fchain_all);
	return chain;
}

/*
 * Does @rec ask for a chain?  A disabled site that tracing had enabled
 * (a discarded weak function's) is still updated, and may ask.
 */
static bool fchain_asked(struct dyn_ftrace *rec)
{
	return (rec->flags & FTRACE_FL_TRAMP) && ftrace_rec_count(rec) >= 2 &&
	       !facct_rec_ignored(rec);
}

/*
 * The chain of @rec, found or built; @last is the one the record
 * before got, which the next usually shares.
 */
static struct fchain *fchain_get(struct dyn_ftrace *rec, struct fchain *last)
{
	struct ftrace_ops *set[FCHAIN_MAX];
	struct fchain *chain;
	unsigned int nr;

	nr = fchain_set_of(rec, set);
	if (nr < 2)
		return NULL;
	if (last && fchain_is(last, set, nr))
		return last;
	chain = fchain_find(set, nr);
	return chain ?: fchain_build(set, nr);
}

/**
 * fchain_prepare - have a chain for every site the update gives one
 * @enable: false if the update turns every call off
 *
 * Called before the sites are patched.  A site whose chain cannot be
 * had stops asking for one: the update gives it the list function.
 */
void fchain_prepare(bool enable)
{
	struct fchain *chain, *last = NULL;
	struct dyn_ftrace *rec;

	lockdep_assert_held(&ftrace_lock);
	list_for_each_entry(chain, &fchain_all, node)
		chain->wanted = false;
	if (!enable || !fchain_enabled())
		return;

	frec_for_each(rec) {
		if (!fchain_asked(rec))
			continue;
		chain = fchain_get(rec, last);
		if (!chain) {
			rec->flags &= ~FTRACE_FL_TRAMP;
			continue;
		}
		chain->wanted = true;
		last = chain;
	}
}

/* Free the chains retired before the grace periods it waits for. */
static void fchain_reap(struct work_struct *work)
{
	struct fchain *chain, *next;
	LIST_HEAD(batch);

	mutex_lock(&ftrace_lock);
	list_splice_init(&fchain_dying, &batch);
	mutex_unlock(&ftrace_lock);
	if (list_empty(&batch))
		return;

	/* As for an ops' own trampoline: CPUs, then preempted tasks. */
	synchronize_rcu_tasks_rude();
	synchronize_rcu_tasks();

	mutex_lock(&ftrace_lock);
	/* Once ftrace is dead a site may call anything: keep them. */
	if (ftrace_is_dead()) {
		mutex_unlock(&ftrace_lock);
		return;
	}
	list_for_each_entry(chain, &batch, reap) {
		list_del_rcu(&chain->node);
		ftramp_unname(&chain->ops);
	}
	mutex_unlock(&ftrace_lock);

	/*
	 * One wait for the readers of fchain_all and of the names, the
	 * lock dropped: updates go on meanwhile.
	 */
	synchronize_rcu();
	list_for_each_entry_safe(chain, next, &batch, reap) {
		arch_ftrace_trampoline_free(&chain->ops);
		kfree(chain);
	}
}

static DECLARE_WORK(fchain_reap_work, fchain_reap);

/**
 * fchain_sweep - retire the chains no site calls after an update
 *
 * Called after the sites were patched as fchain_prepare() saw them.
 */
void fchain_sweep(void)
{
	struct fchain *chain;
	bool retired = false;

	lockdep_assert_held(&ftrace_lock);
	if (ftrace_is_dead())
		return;
	list_for_each_entry(chain, &fchain_all, node) {
		if (chain->wanted || chain->dead)
			continue;
		chain->dead = true;
		list_add_tail(&chain->reap, &fchain_dying);
		retired = true;
	}
	if (retired)
		schedule_work(&fchain_reap_work);
}

static struct fchain *fchain_at(unsigned long addr)
{
	struct fchain *chain;

	list_for_each_entry_rcu(chain, &fchain_all, node, true) {
		if (addr - chain->ops.trampoline < chain->ops.trampoline_size)
			return chain;
	}
	return NULL;
}

/**
 * fchain_held - the chain a site calls now
 * @rec: the site's record, which holds a trampoline (FL_TRAMP_EN)
 *
 * Return: the chain whose trampoline the site's call goes to, or NULL
 * if it goes to an ops' own trampoline.  Hold ftrace_lock.
 */
struct fchain *fchain_held(struct dyn_ftrace *rec)
{
	struct fchain *chain;
	unsigned long target;

	lockdep_assert_held(&ftrace_lock);
	if (list_empty(&fchain_all))
		return NULL;
	target = arch_ftrace_site_target(rec);
	chain = fchain_at(target);
	return chain && chain->ops.trampoline == target ? chain : NULL;
}

/**
 * fchain_ops_at - the chain whose trampoline holds an address
 * @addr: a text address
 *
 * For ftrace_ops_trampoline(), from any context: a chain leaves the
 * list only after an RCU grace period that ends its readers.
 *
 * Return: the chain's ops, or NULL.
 */
struct ftrace_ops *fchain_ops_at(unsigned long addr)
{
	struct fchain *chain;

	preempt_disable_notrace();
	chain = fchain_at(addr);
	preempt_enable_notrace();
	return chain ? &chain->ops : NULL;
}

/* How many chains are built and not yet freed (for the tests). */
unsigned int fchain_count(void)
{
	struct fchain *chain;
	unsigned int n = 0;

	lockdep_assert_held(&ftrace_lock);
	list_for_each_entry(chain, &fchain_all, node)
		n++;
	return n;
}

/* Wait until the chains retired so far are freed (for the tests). */
void fchain_flush(void)
{
	flush_work(&fchain_reap_work);
}
