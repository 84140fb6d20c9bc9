// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite ftrace_accounting: the accounting of patch sites
 * (accounting.c).
 *
 *  - a record counts the enabled ops that select it, as they are
 *    registered, unregistered and change their filters;
 *  - it asks for an ops' own trampoline only while that ops is alone,
 *    and for a chain (chains.c) while several are there;
 *  - it asks for saved regs while some ops that selects it wants them,
 *    and stops once none does, also when that ops merely changed its
 *    filter;
 *  - one IPMODIFY claim per site, an IPMODIFY ops with no filter is
 *    refused, and a refused claim changes no site's claims;
 *  - facct_attach() and facct_detach() report whether some site's
 *    code must change, and undo each other exactly, both for a filter
 *    (looked up entry by entry) and for all functions (one walk).
 *
 * The tracees and helpers are in start_kunit.c.
 */
#include <kunit/test.h>
#include <linux/ftrace.h>
#include <linux/mutex.h>
#include <linux/string.h>

#include "../accounting.h"
#include "../chains.h"
#include "../hash.h"
#include "../internal.h"
#include "../records.h"
#include "start_kunit.h"

static void fak_counts_follow_ops(struct kunit *test)
{
	struct ftrace_ops *p = fak_ops_new(test, 0, BIT(FAK_A));
	struct ftrace_ops *q = fak_ops_new(test, 0, BIT(FAK_A) | BIT(FAK_B));

	KUNIT_ASSERT_EQ(test, register_ftrace_function(p), 0);
	KUNIT_EXPECT_EQ(test, fak_count(FAK_A), 1);
	KUNIT_EXPECT_EQ(test, fak_count(FAK_B), 0);
	KUNIT_EXPECT_EQ(test, fak_has(FAK_A, FTRACE_FL_TRAMP), !!p->trampoline);

	/* Two ops on A: a chain of both where the arch has them. */
	KUNIT_ASSERT_EQ(test, register_ftrace_function(q), 0);
	KUNIT_EXPECT_EQ(test, fak_count(FAK_A), 2);
	KUNIT_EXPECT_EQ(test, fak_count(FAK_B), 1);
	KUNIT_EXPECT_EQ(test, fak_has(FAK_A, FTRACE_FL_TRAMP),
			fchain_enabled());
	KUNIT_EXPECT_EQ(test, fak_has(FAK_B, FTRACE_FL_TRAMP), !!q->trampoline);
	KUNIT_EXPECT_EQ(test, fak_tracee_a(1), 21);

	/* q leaves B but stays on A. */
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(q, fak_ip[FAK_B], 1, 0), 0);
	KUNIT_EXPECT_EQ(test, fak_count(FAK_A), 2);
	KUNIT_EXPECT_EQ(test, fak_count(FAK_B), 0);

	/* Alone again on A, p gets its trampoline back. */
	KUNIT_ASSERT_EQ(test, unregister_ftrace_function(q), 0);
	KUNIT_EXPECT_EQ(test, fak_count(FAK_A), 1);
	KUNIT_EXPECT_EQ(test, fak_has(FAK_A, FTRACE_FL_TRAMP), !!p->trampoline);

	KUNIT_ASSERT_EQ(test, unregister_ftrace_function(p), 0);
	KUNIT_EXPECT_EQ(test, fak_count(FAK_A), 0);
	KUNIT_EXPECT_FALSE(test, fak_has(FAK_A, FTRACE_FL_TRAMP));
}

static void fak_regs_follow_wants(struct kunit *test)
{
	struct ftrace_ops *p, *q;

	if (!IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_REGS))
		kunit_skip(test, "the arch saves no pt_regs");
	p = fak_ops_new(test, FTRACE_OPS_FL_SAVE_REGS, BIT(FAK_A) | BIT(FAK_B));
	q = fak_ops_new(test, 0, BIT(FAK_A));

	KUNIT_ASSERT_EQ(test, register_ftrace_function(q), 0);
	KUNIT_EXPECT_FALSE(test, fak_has(FAK_A, FTRACE_FL_REGS));
	KUNIT_ASSERT_EQ(test, register_ftrace_function(p), 0);
	KUNIT_EXPECT_TRUE(test, fak_has(FAK_A, FTRACE_FL_REGS));
	KUNIT_EXPECT_TRUE(test, fak_has(FAK_B, FTRACE_FL_REGS));

	/* p leaves A: q does not want regs, so A stops saving them. */
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(p, fak_ip[FAK_A], 1, 0), 0);
	KUNIT_EXPECT_EQ(test, fak_count(FAK_A), 1);
	KUNIT_EXPECT_FALSE(test, fak_has(FAK_A, FTRACE_FL_REGS));
	KUNIT_EXPECT_TRUE(test, fak_has(FAK_B, FTRACE_FL_REGS));

	/* And comes back. */
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(p, fak_ip[FAK_A], 0, 0), 0);
	KUNIT_EXPECT_EQ(test, fak_count(FAK_A), 2);
	KUNIT_EXPECT_TRUE(test, fak_has(FAK_A, FTRACE_FL_REGS));

	/* Unregistered, p takes the regs along where q stays. */
	KUNIT_ASSERT_EQ(test, unregister_ftrace_function(p), 0);
	KUNIT_EXPECT_EQ(test, fak_count(FAK_A), 1);
	KUNIT_EXPECT_FALSE(test, fak_has(FAK_A, FTRACE_FL_REGS));
	KUNIT_EXPECT_EQ(test, fak_count(FAK_B), 0);
}

static void fak_ipmodify_one_claim(struct kunit *test)
{
	unsigned long both[] = { fak_ip[FAK_C], fak_ip[FAK_A] };
	struct ftrace_ops *p = fak_ops_new(test, FTRACE_OPS_FL_IPMODIFY,
					   BIT(FAK_A));
	struct ftrace_ops *q = fak_ops_new(test, FTRACE_OPS_FL_IPMODIFY,
					   BIT(FAK_B) | BIT(FAK_A));
	struct ftrace_ops *r = fak_ops_new(test, 0, 0);
	unsigned char name[] = "fak_tracee_b";

	KUNIT_ASSERT_EQ(test, register_ftrace_function(p), 0);
	KUNIT_EXPECT_TRUE(test, fak_has(FAK_A, FTRACE_FL_IPMODIFY));

	/* q wants A too: refused, and B is not left claimed. */
	KUNIT_EXPECT_EQ(test, register_ftrace_function(q), -EBUSY);
	KUNIT_EXPECT_FALSE(test, q->flags & FTRACE_OPS_FL_ENABLED);
	KUNIT_EXPECT_FALSE(test, fak_has(FAK_B, FTRACE_FL_IPMODIFY));
	KUNIT_EXPECT_TRUE(test, fak_has(FAK_A, FTRACE_FL_IPMODIFY));
	KUNIT_EXPECT_EQ(test, fak_count(FAK_A), 1);
	KUNIT_EXPECT_EQ(test, fak_count(FAK_B), 0);

	/* On B alone it may. */
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(q, fak_ip[FAK_B], 0, 1), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(q), 0);
	KUNIT_EXPECT_TRUE(test, fak_has(FAK_B, FTRACE_FL_IPMODIFY));

	/* Moving from B to C and A is refused as a whole. */
	KUNIT_EXPECT_EQ(test, ftrace_set_filter_ips(q, both, 2, 0, 1), -EBUSY);
	KUNIT_EXPECT_TRUE(test, fak_has(FAK_B, FTRACE_FL_IPMODIFY));
	KUNIT_EXPECT_FALSE(test, fak_has(FAK_C, FTRACE_FL_IPMODIFY));
	KUNIT_EXPECT_EQ(test, fak_count(FAK_B), 1);
	KUNIT_EXPECT_EQ(test, fak_count(FAK_C), 0);
	KUNIT_EXPECT_EQ(test, fak_count(FAK_A), 1);

	/* Moving from B to C is not, and B's claim goes. */
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(q, fak_ip[FAK_C], 0, 1), 0);
	KUNIT_EXPECT_FALSE(test, fak_has(FAK_B, FTRACE_FL_IPMODIFY));
	KUNIT_EXPECT_TRUE(test, fak_has(FAK_C, FTRACE_FL_IPMODIFY));

	/* An IPMODIFY ops may not have a notrace set; another ops may. */
	KUNIT_EXPECT_EQ(test, ftrace_set_notrace(q, name, strlen(name), 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ftrace_set_notrace(r, name, strlen(name), 1), 0);

	KUNIT_ASSERT_EQ(test, unregister_ftrace_function(p), 0);
	KUNIT_EXPECT_FALSE(test, fak_has(FAK_A, FTRACE_FL_IPMODIFY));
	KUNIT_ASSERT_EQ(test, unregister_ftrace_function(q), 0);
	KUNIT_EXPECT_FALSE(test, fak_has(FAK_C, FTRACE_FL_IPMODIFY));
}

static void fak_ipmodify_needs_filter(struct kunit *test)
{
	struct ftrace_ops *p = fak_ops_new(test, FTRACE_OPS_FL_IPMODIFY, 0);

	KUNIT_EXPECT_EQ(test, register_ftrace_function(p), -EINVAL);
	KUNIT_EXPECT_FALSE(test, p->flags & FTRACE_OPS_FL_ENABLED);
	KUNIT_EXPECT_EQ(test, fak_count(FAK_A), 0);
}

/*
 * An ops that is not registered, counted in and out by hand with
 * ftrace_lock held all along: nothing patches in between, and the
 * records must end as they began.
 */
static void fak_attach_check(struct kunit *test, struct ftrace_hash *filter,
			     struct ftrace_hash *skip, int in, int out)
{
	struct ftrace_ops ops = {
		.func	= fak_func,
		.flags	= FTRACE_OPS_FL_ENABLED,
	};
	unsigned long in_before, out_before;
	struct dyn_ftrace *in_rec, *out_rec;
	bool change;

	ops.func_hash = &ops.local_hash;
	RCU_INIT_POINTER(ops.local_hash.filter_hash, filter);
	RCU_INIT_POINTER(ops.local_hash.notrace_hash, skip);

	mutex_lock(&ftrace_lock);
	in_rec = frec_lookup(fak_ip[in], fak_ip[in]);
	out_rec = frec_lookup(fak_ip[out], fak_ip[out]);
	if (!in_rec || !out_rec) {
		mutex_unlock(&ftrace_lock);
		KUNIT_FAIL(test, "no records for the tracees");
		return;
	}
	in_before = in_rec->flags;
	out_before = out_rec->flags;

	change = facct_attach(&ops);
	KUNIT_EXPECT_EQ(test, ftrace_rec_count(in_rec), 1);
	KUNIT_EXPECT_EQ(test, ftrace_rec_count(out_rec), 0);
	/* An untraced site now wants a call. */
	KUNIT_EXPECT_TRUE(test, change);

	change = facct_detach(&ops);
	KUNIT_EXPECT_FALSE(test, change);
	KUNIT_EXPECT_EQ(test, in_rec->flags, in_before);
	KUNIT_EXPECT_EQ(test, out_rec->flags, out_before);
	mutex_unlock(&ftrace_lock);
}

KUNIT_DEFINE_ACTION_WRAPPER(fak_set_free, fhash_free, struct ftrace_hash *);

/* A set that holds tracee @i's site, freed when the case ends. */
static struct ftrace_hash *fak_set(struct kunit *test, int i)
{
	struct ftrace_hash *set = fhash_alloc(2);

	KUNIT_ASSERT_NOT_NULL(test, set);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fak_set_free, set));
	KUNIT_ASSERT_NOT_NULL(test, fhash_insert(set, fak_ip[i]));
	return set;
}

static void fak_attach_filter(struct kunit *test)
{
	fak_attach_check(test, fak_set(test, FAK_B), FHASH_EMPTY, FAK_B, FAK_C);
}

static void fak_attach_all(struct kunit *test)
{
	fak_attach_check(test, FHASH_EMPTY, fak_set(test, FAK_C), FAK_B, FAK_C);
}

static struct kunit_case ftrace_accounting_cases[] = {
	KUNIT_CASE(fak_counts_follow_ops),
	KUNIT_CASE(fak_regs_follow_wants),
	KUNIT_CASE(fak_ipmodify_one_claim),
	KUNIT_CASE(fak_ipmodify_needs_filter),
	KUNIT_CASE(fak_attach_filter),
	KUNIT_CASE(fak_attach_all),
	{}
};

static struct kunit_suite ftrace_accounting_suite = {
	.name = "ftrace_accounting",
	.suite_init = fak_suite_init,
	.init = fak_init,
	.test_cases = ftrace_accounting_cases,
};

kunit_test_suite(ftrace_accounting_suite);

MODULE_DESCRIPTION("KUnit tests for the accounting of ftrace patch sites");
MODULE_LICENSE("GPL");
