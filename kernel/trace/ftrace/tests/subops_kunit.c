// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite ftrace_subops: managers and their subops
 * (subops.c).
 *
 *  - the manager traces the union of its subops' filters minus what
 *    every subops keeps out, recomputed as subops come, go and change;
 *  - the first subops starts the manager and the last stops it;
 *  - a new filter for an ops that shares its sets with a subops goes
 *    through the subops' manager;
 *  - a manager that cannot start or cannot follow a subops' new filter
 *    leaves both ops as they were, and so does running out of memory;
 *  - ftrace_subops_exact() tells a manager whose sets are its one
 *    subops' from one that keeps more.
 *
 * The tracees and helpers are in start_kunit.c.
 */
#include <kunit/test.h>
#include <linux/ftrace.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/string.h>

#include "../dispatch.h"
#include "../hash.h"
#include "../internal.h"
#include "start_kunit.h"

/* A tracee's name, in a buffer the filter parser may write to. */
static void fak_name(int i, unsigned char *buf, size_t size)
{
	static const char *const names[FAK_TRACEES] = {
		"fak_tracee_a", "fak_tracee_b", "fak_tracee_c",
	};

	strscpy(buf, names[i], size);
}

static int fak_subops_start(struct ftrace_ops *mgr, struct ftrace_ops *sub)
{
	guard(mutex)(&ftrace_lock);
	return ftrace_startup_subops(mgr, sub, 0);
}

static int fak_subops_stop(struct ftrace_ops *mgr, struct ftrace_ops *sub)
{
	guard(mutex)(&ftrace_lock);
	return ftrace_shutdown_subops(mgr, sub, 0);
}

struct fak_subop {
	struct ftrace_ops	*mgr;
	struct ftrace_ops	*sub;
};

static void fak_subop_release(void *arg)
{
	struct fak_subop *s = arg;

	if (s->sub->flags & FTRACE_OPS_FL_ENABLED)
		WARN_ON(fak_subops_stop(s->mgr, s->sub));
}

/*
 * A subops for @mgr that selects the tracees in the mask @sites and
 * keeps out those in @skip.  It is taken from @mgr when the case ends,
 * before either ops is freed.
 */
static struct ftrace_ops *fak_subops_new(struct kunit *test,
					 struct ftrace_ops *mgr,
					 unsigned int sites, unsigned int skip)
{
	struct ftrace_ops *sub = fak_ops_new(test, 0, sites);
	struct fak_subop *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	unsigned char name[32];
	int i;

	KUNIT_ASSERT_NOT_NULL(test, s);
	s->mgr = mgr;
	s->sub = sub;
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fak_subop_release, s));
	for (i = 0; i < FAK_TRACEES; i++) {
		if (!(skip & BIT(i)))
			continue;
		fak_name(i, name, sizeof(name));
		KUNIT_ASSERT_EQ(test, 0, ftrace_set_notrace(sub, name,
							    strlen(name), 0));
	}
	return sub;
}

/* The tracees whose sites are calls now, as a mask. */
static unsigned int fak_live(void)
{
	unsigned int live = 0;
	int i;

	for (i = 0; i < FAK_TRACEES; i++) {
		if (fak_has(i, FTRACE_FL_ENABLED))
			live |= BIT(i);
	}
	return live;
}

static void fak_subops_union(struct kunit *test)
{
	const unsigned long both = FTRACE_OPS_FL_ENABLED | FTRACE_OPS_FL_SUBOP;
	struct ftrace_ops *m = fak_ops_new(test, 0, 0);
	struct ftrace_ops *s1 = fak_subops_new(test, m, BIT(FAK_A), 0);
	struct ftrace_ops *s2 = fak_subops_new(test, m, BIT(FAK_B), 0);

	KUNIT_ASSERT_EQ(test, fak_subops_start(m, s1), 0);
	KUNIT_EXPECT_TRUE(test, m->flags & FTRACE_OPS_FL_ENABLED);
	KUNIT_EXPECT_EQ(test, s1->flags & both, both);
	KUNIT_EXPECT_PTR_EQ(test, s1->managed, m);
	KUNIT_EXPECT_EQ(test, fak_live(), BIT(FAK_A));

	/* The manager traces both subops' functions, as one ops. */
	KUNIT_ASSERT_EQ(test, fak_subops_start(m, s2), 0);
	KUNIT_EXPECT_EQ(test, fak_live(), BIT(FAK_A) | BIT(FAK_B));
	KUNIT_EXPECT_EQ(test, fak_count(FAK_A), 1);
	fak_call_all();
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_A), 1);
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_B), 1);
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_C), 0);

	/* A subops' new filter reaches the sites through the manager. */
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(s2, fak_ip[FAK_C], 0, 1), 0);
	KUNIT_EXPECT_EQ(test, fak_live(), BIT(FAK_A) | BIT(FAK_C));

	KUNIT_ASSERT_EQ(test, fak_subops_stop(m, s1), 0);
	KUNIT_EXPECT_EQ(test, s1->flags & both, 0);
	KUNIT_EXPECT_NULL(test, s1->managed);
	KUNIT_EXPECT_EQ(test, fak_live(), BIT(FAK_C));

	/* The last one out stops the manager and empties its sets. */
	KUNIT_ASSERT_EQ(test, fak_subops_stop(m, s2), 0);
	KUNIT_EXPECT_FALSE(test, m->flags & FTRACE_OPS_FL_ENABLED);
	KUNIT_EXPECT_EQ(test, fak_live(), 0);
	KUNIT_EXPECT_PTR_EQ(test, rcu_access_pointer(m->func_hash->filter_hash),
			    FHASH_EMPTY);
}

static void fak_subops_notrace(struct kunit *test)
{
	const unsigned int all = BIT(FAK_A) | BIT(FAK_B) | BIT(FAK_C);
	struct ftrace_ops *m = fak_ops_new(test, 0, 0);
	struct ftrace_ops *s1 = fak_subops_new(test, m, all,
					       BIT(FAK_A) | BIT(FAK_B));
	struct ftrace_ops *s2 = fak_subops_new(test, m, all,
					       BIT(FAK_B) | BIT(FAK_C));
	struct ftrace_ops *s3 = fak_subops_new(test, m, all, 0);

	KUNIT_ASSERT_EQ(test, fak_subops_start(m, s1), 0);
	KUNIT_EXPECT_EQ(test, fak_live(), BIT(FAK_C));

	/* Kept out only where both subops keep out. */
	KUNIT_ASSERT_EQ(test, fak_subops_start(m, s2), 0);
	KUNIT_EXPECT_EQ(test, fak_live(), BIT(FAK_A) | BIT(FAK_C));

	/*
	 * Without s1, s2 alone decides and C goes out again: the
	 * manager's old notrace set has no say.
	 */
	KUNIT_ASSERT_EQ(test, fak_subops_stop(m, s1), 0);
	KUNIT_EXPECT_EQ(test, fak_live(), BIT(FAK_A));

	/* A subops that keeps nothing out: nothing is kept out. */
	KUNIT_ASSERT_EQ(test, fak_subops_start(m, s3), 0);
	KUNIT_EXPECT_EQ(test, fak_live(), all);
}

static void fak_subops_start_refused(struct kunit *test)
{
	struct ftrace_ops *p = fak_ops_new(test, FTRACE_OPS_FL_IPMODIFY,
					   BIT(FAK_A));
	struct ftrace_ops *m = fak_ops_new(test, FTRACE_OPS_FL_IPMODIFY, 0);
	struct ftrace_ops *s1 = fak_subops_new(test, m, BIT(FAK_A), 0);

	/* The manager would claim A, which p holds. */
	KUNIT_ASSERT_EQ(test, register_ftrace_function(p), 0);
	KUNIT_EXPECT_EQ(test, fak_subops_start(m, s1), -EBUSY);
	KUNIT_EXPECT_FALSE(test, m->flags & FTRACE_OPS_FL_ENABLED);
	KUNIT_EXPECT_FALSE(test, s1->flags & FTRACE_OPS_FL_ENABLED);
	KUNIT_EXPECT_NULL(test, s1->managed);
	KUNIT_EXPECT_TRUE(test, list_empty(&m->subop_list));
	KUNIT_EXPECT_PTR_EQ(test, rcu_access_pointer(m->func_hash->filter_hash),
			    FHASH_EMPTY);
	KUNIT_EXPECT_EQ(test, fak_count(FAK_A), 1);
}

/* Does @ops' filter hold tracee @i's site and nothing else? */
static bool fak_filter_is(struct ftrace_ops *ops, int i)
{
	struct ftrace_hash *set;

	guard(mutex)(&ftrace_lock);
	set = rcu_dereference_protected(ops->func_hash->filter_hash,
					lockdep_is_held(&ftrace_lock));
	return set->count == 1 && fhash_find(set, fak_ip[i]);
}

static void fak_subops_move_refused(struct kunit *test)
{
	struct ftrace_ops *p = fak_ops_new(test, FTRACE_OPS_FL_IPMODIFY,
					   BIT(FAK_B));
	struct ftrace_ops *m = fak_ops_new(test, FTRACE_OPS_FL_IPMODIFY, 0);
	struct ftrace_ops *s1 = fak_subops_new(test, m, BIT(FAK_A), 0);

	KUNIT_ASSERT_EQ(test, register_ftrace_function(p), 0);
	KUNIT_ASSERT_EQ(test, fak_subops_start(m, s1), 0);

	/* The manager cannot follow s1 to B: s1 keeps A, and so does it. */
	KUNIT_EXPECT_EQ(test, ftrace_set_filter_ip(s1, fak_ip[FAK_B], 0, 1),
			-EBUSY);
	KUNIT_EXPECT_TRUE(test, fak_filter_is(s1, FAK_A));
	KUNIT_EXPECT_TRUE(test, fak_filter_is(m, FAK_A));
	KUNIT_EXPECT_TRUE(test, fak_has(FAK_A, FTRACE_FL_IPMODIFY));
	KUNIT_EXPECT_EQ(test, fak_count(FAK_A), 1);
	KUNIT_EXPECT_EQ(test, fak_count(FAK_B), 1);
}

/*
 * An ops that is not started but shares its sets with a subops, as a
 * trace instance's ops does with its function graph subops: a new
 * filter for it goes through the subops' manager.
 */
static void fak_subops_sharer(struct kunit *test)
{
	struct ftrace_ops *t = fak_ops_new(test, 0, BIT(FAK_A));
	struct ftrace_ops *m = fak_ops_new(test, 0, 0);
	struct ftrace_ops *s = fak_subops_new(test, m, 0, 0);

	ftrace_ops_init(s);
	s->func_hash = &t->local_hash;
	KUNIT_ASSERT_EQ(test, fak_subops_start(m, s), 0);
	KUNIT_EXPECT_EQ(test, fak_live(), BIT(FAK_A));

	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(t, fak_ip[FAK_C], 0, 1), 0);
	KUNIT_EXPECT_EQ(test, fak_live(), BIT(FAK_C));
	KUNIT_EXPECT_TRUE(test, fak_filter_is(m, FAK_C));
	KUNIT_EXPECT_FALSE(test, t->flags & FTRACE_OPS_FL_ENABLED);
}

/*
 * A second subops comes while memory runs out, for the manager's new
 * filter or for the set it moves into: nothing changes.
 */
static void fak_subops_nomem(struct kunit *test)
{
	struct ftrace_ops *m = fak_ops_new(test, 0, 0);
	struct ftrace_ops *s1 = fak_subops_new(test, m, BIT(FAK_A), 0);
	struct ftrace_ops *s2 = fak_subops_new(test, m, BIT(FAK_B), 0);
	int sets;

	KUNIT_ASSERT_EQ(test, fak_subops_start(m, s1), 0);
	for (sets = 0; sets < 2; sets++) {
		fak_sets_limit(test, sets);
		KUNIT_EXPECT_EQ(test, fak_subops_start(m, s2), -ENOMEM);
		fak_sets_unlimited(test);
		KUNIT_EXPECT_FALSE(test, s2->flags & FTRACE_OPS_FL_ENABLED);
		KUNIT_EXPECT_TRUE(test, list_is_singular(&m->subop_list));
		KUNIT_EXPECT_TRUE(test, fak_filter_is(m, FAK_A));
		KUNIT_EXPECT_EQ(test, fak_live(), BIT(FAK_A));
	}
	KUNIT_ASSERT_EQ(test, fak_subops_start(m, s2), 0);
	KUNIT_EXPECT_EQ(test, fak_live(), BIT(FAK_A) | BIT(FAK_B));
}

static bool fak_subops_exact(struct ftrace_ops *mgr)
{
	guard(mutex)(&ftrace_lock);
	return ftrace_subops_exact(mgr);
}

/*
 * A manager hooks exactly its subops' functions while it has one and
 * its sets follow; not with two, nor after a subops left while the
 * sets could not shrink, until a change brings them in line again.
 */
static void fak_subops_exact_test(struct kunit *test)
{
	struct ftrace_ops *m = fak_ops_new(test, 0, 0);
	struct ftrace_ops *s1 = fak_subops_new(test, m, BIT(FAK_A), 0);
	struct ftrace_ops *s2 = fak_subops_new(test, m, BIT(FAK_B), 0);

	KUNIT_ASSERT_EQ(test, fak_subops_start(m, s1), 0);
	KUNIT_EXPECT_TRUE(test, fak_subops_exact(m));
	KUNIT_ASSERT_EQ(test, fak_subops_start(m, s2), 0);
	KUNIT_EXPECT_FALSE(test, fak_subops_exact(m));

	fak_sets_limit(test, 0);
	KUNIT_EXPECT_EQ(test, fak_subops_stop(m, s2), -ENOMEM);
	fak_sets_unlimited(test);
	KUNIT_EXPECT_TRUE(test, list_is_singular(&m->subop_list));
	KUNIT_EXPECT_EQ(test, fak_live(), BIT(FAK_A) | BIT(FAK_B));
	KUNIT_EXPECT_FALSE(test, fak_subops_exact(m));

	KUNIT_ASSERT_EQ(test, fak_subops_start(m, s2), 0);
	KUNIT_ASSERT_EQ(test, fak_subops_stop(m, s2), 0);
	KUNIT_EXPECT_EQ(test, fak_live(), BIT(FAK_A));
	KUNIT_EXPECT_TRUE(test, fak_subops_exact(m));
}

/*
 * A second subops comes while entries run out, at whichever point of
 * deriving and moving the manager's new filter: nothing changes.  With
 * enough entries, the same subops comes in.
 */
static void fak_subops_entries_nomem(struct kunit *test)
{
	struct ftrace_ops *m = fak_ops_new(test, 0, 0);
	struct ftrace_ops *s1 = fak_subops_new(test, m, BIT(FAK_A), 0);
	struct ftrace_ops *s2 = fak_subops_new(test, m,
					       BIT(FAK_B) | BIT(FAK_C), 0);
	int n, ret;

	KUNIT_ASSERT_EQ(test, fak_subops_start(m, s1), 0);
	for (n = 0; n < 32; n++) {
		fak_entries_limit(test, n);
		ret = fak_subops_start(m, s2);
		fak_entries_unlimited(test);
		if (!ret)
			break;
		KUNIT_EXPECT_EQ(test, ret, -ENOMEM);
		KUNIT_EXPECT_FALSE(test, s2->flags & FTRACE_OPS_FL_ENABLED);
		KUNIT_EXPECT_TRUE(test, list_is_singular(&m->subop_list));
		KUNIT_EXPECT_TRUE(test, fak_filter_is(m, FAK_A));
		KUNIT_EXPECT_EQ(test, fak_live(), BIT(FAK_A));
	}
	/* The union copies one subops' filter and adds the other's. */
	KUNIT_EXPECT_GE(test, n, 1);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, fak_live(),
			BIT(FAK_A) | BIT(FAK_B) | BIT(FAK_C));
}

static struct kunit_case ftrace_subops_cases[] = {
	KUNIT_CASE(fak_subops_union),
	KUNIT_CASE(fak_subops_notrace),
	KUNIT_CASE(fak_subops_start_refused),
	KUNIT_CASE(fak_subops_move_refused),
	KUNIT_CASE(fak_subops_sharer),
	KUNIT_CASE(fak_subops_nomem),
	KUNIT_CASE(fak_subops_entries_nomem),
	KUNIT_CASE(fak_subops_exact_test),
	{}
};

static struct kunit_suite ftrace_subops_suite = {
	.name = "ftrace_subops",
	.suite_init = fak_suite_init,
	.init = fak_init,
	.test_cases = ftrace_subops_cases,
};

kunit_test_suite(ftrace_subops_suite);

MODULE_DESCRIPTION("KUnit tests for ftrace subops managers");
MODULE_LICENSE("GPL");
