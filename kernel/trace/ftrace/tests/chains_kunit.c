// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite ftrace_chains: the trampolines of sites that several
 * ops take (chains.c).
 *
 *  - two ops on a site get a chain: the site calls it, it calls each
 *    ops once per call, it is named like any trampoline and found by
 *    the unwinders' lookup;
 *  - sites that the same ops take share one chain;
 *  - an ops joining or leaving a site swaps its chain for the new
 *    set's, or for the one ops' own trampoline, and the chains no site
 *    calls are freed;
 *  - a chain that cannot be built (no memory) or a set too large
 *    leaves the site on the list function, and no call is lost;
 *  - a disabled site that tracing had enabled (a discarded weak
 *    function's) gets a chain as any other;
 *  - one ops that stays on a site sees every call exactly once while
 *    other ops come and go on it, from another CPU.
 *
 * The tracees and helpers are in start_kunit.c.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/ftrace.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/string.h>

#include "../chains.h"
#include "../dispatch.h"
#include "../internal.h"
#include "../records.h"
#include "start_kunit.h"
#include "tramp_names.h"

static int fch_init(struct kunit *test)
{
	if (!fchain_enabled())
		kunit_skip(test, "the arch cannot read a site's call back");
	return fak_init(test);
}

/* Where tracee @i's site calls now, 0 for a NOP. */
static unsigned long fch_target(int i)
{
	struct dyn_ftrace *rec;
	unsigned long target = 0;

	mutex_lock(&ftrace_lock);
	rec = frec_lookup(fak_ip[i], fak_ip[i]);
	if (rec && (rec->flags & FTRACE_FL_ENABLED))
		target = arch_ftrace_site_target(rec);
	mutex_unlock(&ftrace_lock);
	return target;
}

/* The chain tracee @i's site calls, or NULL. */
static struct fchain *fch_chain(int i)
{
	struct ftrace_ops *ops = fchain_ops_at(fch_target(i));

	return ops ? container_of(ops, struct fchain, ops) : NULL;
}

/* The chains not freed yet, once the retired ones are. */
static unsigned int fch_live(void)
{
	unsigned int n;

	fchain_flush();
	mutex_lock(&ftrace_lock);
	n = fchain_count();
	mutex_unlock(&ftrace_lock);
	return n;
}

static void fch_expect_members(struct kunit *test, int i,
			       struct ftrace_ops **set, unsigned int nr)
{
	struct fchain *chain = fch_chain(i);
	unsigned int k;

	KUNIT_ASSERT_NOT_NULL(test, chain);
	KUNIT_ASSERT_EQ(test, chain->nr, nr);
	for (k = 0; k < nr; k++)
		KUNIT_EXPECT_PTR_EQ(test, chain->member[k], set[k]);
}

static void fch_build_and_share(struct kunit *test)
{
	struct ftrace_ops *p = fak_ops_new(test, 0, BIT(FAK_A) | BIT(FAK_B));
	struct ftrace_ops *q = fak_ops_new(test, 0, BIT(FAK_A) | BIT(FAK_B));
	struct ftrace_ops *set[] = { q, p };
	unsigned long tramp;
	char line[256];

	KUNIT_ASSERT_EQ(test, fch_live(), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(p), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(q), 0);
	KUNIT_EXPECT_TRUE(test, fak_has(FAK_A, FTRACE_FL_TRAMP_EN));

	/* The list is walked newest first: q, then p. */
	fch_expect_members(test, FAK_A, set, 2);
	tramp = fch_target(FAK_A);
	KUNIT_EXPECT_EQ(test, fch_target(FAK_B), tramp);
	KUNIT_EXPECT_EQ(test, fch_live(), 1);
	KUNIT_EXPECT_PTR_EQ(test, ftrace_ops_trampoline(tramp),
			    &fch_chain(FAK_A)->ops);
	KUNIT_EXPECT_TRUE(test, is_ftrace_trampoline(tramp + 1));
	KUNIT_EXPECT_TRUE(test, ftrace_kunit_tramp_named(tramp));
	fak_listed(FAK_A, line, sizeof(line));
	KUNIT_EXPECT_NOT_NULL(test, strstr(line, "chain of 2 ops"));

	fak_call_all();
	fak_call_all();
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_A), 4);
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_B), 4);
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_C), 0);

	KUNIT_ASSERT_EQ(test, unregister_ftrace_function(q), 0);
	KUNIT_ASSERT_EQ(test, unregister_ftrace_function(p), 0);
	KUNIT_EXPECT_EQ(test, fch_target(FAK_A), 0);
	KUNIT_EXPECT_EQ(test, fch_live(), 0);
	KUNIT_EXPECT_FALSE(test, is_ftrace_trampoline(tramp + 1));
	KUNIT_EXPECT_FALSE(test, ftrace_kunit_tramp_named(tramp));
}

static void fch_swap(struct kunit *test)
{
	struct ftrace_ops *p = fak_ops_new(test, 0, BIT(FAK_A));
	struct ftrace_ops *q = fak_ops_new(test, 0, BIT(FAK_A));
	struct ftrace_ops *r = fak_ops_new(test, FTRACE_OPS_FL_SAVE_REGS,
					   BIT(FAK_A));
	struct ftrace_ops *pq[] = { q, p }, *rqp[] = { r, q, p };
	struct ftrace_ops *rp[] = { r, p };

	KUNIT_ASSERT_EQ(test, register_ftrace_function(p), 0);
	KUNIT_EXPECT_NULL(test, fch_chain(FAK_A));
	if (p->trampoline)
		KUNIT_EXPECT_EQ(test, fch_target(FAK_A), p->trampoline);

	KUNIT_ASSERT_EQ(test, register_ftrace_function(q), 0);
	fch_expect_members(test, FAK_A, pq, 2);
	KUNIT_EXPECT_FALSE(test, fch_chain(FAK_A)->ops.flags &
				 FTRACE_OPS_FL_SAVE_REGS);

	/* One more, that wants regs: a new chain, which saves them. */
	KUNIT_ASSERT_EQ(test, register_ftrace_function(r), 0);
	fch_expect_members(test, FAK_A, rqp, 3);
	KUNIT_EXPECT_TRUE(test, fch_chain(FAK_A)->ops.flags &
				FTRACE_OPS_FL_SAVE_REGS);
	KUNIT_EXPECT_EQ(test, fch_live(), 1);
	fak_call_all();
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_A), 3);

	/* One leaves from the middle. */
	KUNIT_ASSERT_EQ(test, unregister_ftrace_function(q), 0);
	fch_expect_members(test, FAK_A, rp, 2);
	fak_call_all();
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_A), 5);

	/* And one by changing its filter: p is alone again. */
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(r, fak_ip[FAK_A], 1, 0), 0);
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(r, fak_ip[FAK_C], 0, 0), 0);
	KUNIT_EXPECT_NULL(test, fch_chain(FAK_A));
	if (p->trampoline)
		KUNIT_EXPECT_EQ(test, fch_target(FAK_A), p->trampoline);
	fak_call_all();
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_A), 6);
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_C), 1);
	KUNIT_EXPECT_EQ(test, fch_live(), 0);
}

static void fch_refuse_clear(void *unused)
{
	WRITE_ONCE(fchain_refuse, false);
}

static void fch_fallback(struct kunit *test)
{
	struct ftrace_ops *p = fak_ops_new(test, 0, BIT(FAK_A));
	struct ftrace_ops *q = fak_ops_new(test, 0, BIT(FAK_A));
	struct ftrace_ops *r = fak_ops_new(test, 0, BIT(FAK_A));
	struct ftrace_ops *rqp[] = { r, q, p };

	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fch_refuse_clear, NULL));
	WRITE_ONCE(fchain_refuse, true);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(p), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(q), 0);

	/* No chain: the shared caller and its list serve the site. */
	KUNIT_EXPECT_FALSE(test, fak_has(FAK_A, FTRACE_FL_TRAMP));
	KUNIT_EXPECT_FALSE(test, fak_has(FAK_A, FTRACE_FL_TRAMP_EN));
	KUNIT_EXPECT_NE(test, fch_target(FAK_A), 0);
	KUNIT_EXPECT_NULL(test, ftrace_ops_trampoline(fch_target(FAK_A)));
	fak_call_all();
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_A), 2);

	/* With memory back, the next ops to come gets the site a chain. */
	WRITE_ONCE(fchain_refuse, false);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(r), 0);
	fch_expect_members(test, FAK_A, rqp, 3);
	fak_call_all();
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_A), 5);
}

static void fch_too_many(struct kunit *test)
{
	struct ftrace_ops *ops[FCHAIN_MAX + 1];
	int i;

	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		ops[i] = fak_ops_new(test, 0, BIT(FAK_B));
		KUNIT_ASSERT_EQ(test, register_ftrace_function(ops[i]), 0);
	}
	KUNIT_EXPECT_FALSE(test, fak_has(FAK_B, FTRACE_FL_TRAMP_EN));
	KUNIT_EXPECT_NULL(test, fch_chain(FAK_B));
	fak_call_all();
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_B), FCHAIN_MAX + 1);

	/* One fewer fits. */
	KUNIT_ASSERT_EQ(test, unregister_ftrace_function(ops[0]), 0);
	KUNIT_EXPECT_NOT_NULL(test, fch_chain(FAK_B));
	fak_call_all();
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_B), 2 * FCHAIN_MAX + 1);
}

/* The churn case: a caller on another CPU, and the ops that stays. */
static atomic_t fch_stay_hits;
static atomic_t fch_calls;

static notrace void fch_stay_func(unsigned long ip, unsigned long parent_ip,
				  struct ftrace_ops *op,
				  struct ftrace_regs *fregs)
{
	if (ip == fak_ip[FAK_A])
		atomic_inc(&fch_stay_hits);
}

static int fch_caller(void *unused)
{
	while (!kthread_should_stop()) {
		fak_tracee_a(1);
		atomic_inc(&fch_calls);
		/* Unregistering waits for a quiescent state of RCU tasks. */
		cond_resched_tasks_rcu_qs();
	}
	return 0;
}

static void fch_churn(struct kunit *test)
{
	struct ftrace_ops *stay = fak_ops_new(test, 0, BIT(FAK_A));
	struct ftrace_ops *q = fak_ops_new(test, 0, BIT(FAK_A));
	struct ftrace_ops *r = fak_ops_new(test, FTRACE_OPS_FL_SAVE_REGS,
					   BIT(FAK_A));
	struct task_struct *task;
	int round;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs a second CPU for the caller");
	stay->func = fch_stay_func;
	atomic_set(&fch_stay_hits, 0);
	atomic_set(&fch_calls, 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(stay), 0);

	task = kthread_run(fch_caller, NULL, "fch_caller");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	for (round = 0; round < 40; round++) {
		KUNIT_ASSERT_EQ(test, register_ftrace_function(q), 0);
		if (round & 1)
			KUNIT_ASSERT_EQ(test, register_ftrace_function(r), 0);
		KUNIT_ASSERT_EQ(test, unregister_ftrace_function(q), 0);
		if (round & 1)
			KUNIT_ASSERT_EQ(test, unregister_ftrace_function(r), 0);
	}
	kthread_stop(task);

	KUNIT_EXPECT_GT(test, atomic_read(&fch_calls), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&fch_stay_hits),
			atomic_read(&fch_calls));
	KUNIT_ASSERT_EQ(test, unregister_ftrace_function(stay), 0);
	KUNIT_EXPECT_EQ(test, fch_live(), 0);
}

/* Mark tracee @i's record as a discarded weak function's, or not. */
static void fch_mark_disabled(int i, bool on)
{
	struct dyn_ftrace *rec;

	guard(mutex)(&ftrace_lock);
	rec = frec_lookup(fak_ip[i], fak_ip[i]);
	if (!rec)
		return;
	if (on)
		rec->flags |= FTRACE_FL_DISABLED;
	else
		rec->flags &= ~FTRACE_FL_DISABLED;
}

static void fch_unmark_disabled(void *unused)
{
	fch_mark_disabled(FAK_A, false);
}

/*
 * A site tracing had enabled before the boot found it a discarded weak
 * function's (disabled, still counted): a second ops there gets a chain
 * as on any site, instead of a site no trampoline serves (which kills
 * ftrace), and the ops leave it a NOP.
 */
static void fch_disabled_site(struct kunit *test)
{
	struct ftrace_ops *p = fak_ops_new(test, 0, BIT(FAK_A));
	struct ftrace_ops *q = fak_ops_new(test, 0, BIT(FAK_A));
	struct ftrace_ops *set[] = { q, p };

	KUNIT_ASSERT_EQ(test, register_ftrace_function(p), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							fch_unmark_disabled,
							NULL), 0);
	fch_mark_disabled(FAK_A, true);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(q), 0);
	KUNIT_EXPECT_FALSE(test, ftrace_is_dead());
	fch_expect_members(test, FAK_A, set, 2);

	KUNIT_EXPECT_EQ(test, unregister_ftrace_function(q), 0);
	KUNIT_EXPECT_EQ(test, unregister_ftrace_function(p), 0);
	KUNIT_EXPECT_FALSE(test, ftrace_is_dead());
	KUNIT_EXPECT_EQ(test, fch_target(FAK_A), 0);
	KUNIT_EXPECT_EQ(test, fch_live(), 0);
}

static struct kunit_case ftrace_chains_cases[] = {
	KUNIT_CASE(fch_build_and_share),
	KUNIT_CASE(fch_swap),
	KUNIT_CASE(fch_fallback),
	KUNIT_CASE(fch_too_many),
	KUNIT_CASE(fch_disabled_site),
	KUNIT_CASE_SLOW(fch_churn),
	{}
};

static struct kunit_suite ftrace_chains_suite = {
	.name = "ftrace_chains",
	.suite_init = fak_suite_init,
	.init = fch_init,
	.test_cases = ftrace_chains_cases,
};

kunit_test_suite(ftrace_chains_suite);

MODULE_DESCRIPTION("KUnit tests for the trampolines of shared sites");
MODULE_LICENSE("GPL");
