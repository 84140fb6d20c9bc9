// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite ftrace_code_update: the updates that follow starting,
 * stopping and new sets (code_update.c).
 *
 *  - a new filter patches the sites it gains and NOPs those it loses,
 *    and the old sets lent to the update are taken back;
 *  - a change of global_ops' sets patches for a started ops that
 *    shares them, though global_ops itself is not started;
 *  - a refused start leaves nothing behind: no flag on the ops, no
 *    trampoline, no count of started ops;
 *  - stopping a heap ops frees its trampoline;
 *  - out of memory for a new filter, or for its entries, whether set
 *    through the API or by a write to set_ftrace_filter, the ops keeps
 *    its filter and sites;
 *  - a site ftrace_bug() reports is shut out alone, and ftrace goes on.
 *
 * The tracees and helpers are in start_kunit.c.
 */
#include <kunit/test.h>
#include <linux/ftrace.h>
#include <linux/fs.h>
#include <linux/mutex.h>
#include <linux/string.h>

#include "../code_update.h"
#include "../dispatch.h"
#include "../hash.h"
#include "../internal.h"
#include "../records.h"
#include "../../trace.h"
#include "start_kunit.h"

/*
 * Out of memory for a new filter, whether for the draft or for the
 * set it moves into: the ops keeps its filter and its sites.
 */
static void fak_update_nomem(struct kunit *test)
{
	struct ftrace_ops *p = fak_ops_new(test, 0, BIT(FAK_A));
	int sets;

	KUNIT_ASSERT_EQ(test, register_ftrace_function(p), 0);
	for (sets = 0; sets < 2; sets++) {
		fak_sets_limit(test, sets);
		KUNIT_EXPECT_EQ(test, ftrace_set_filter_ip(p, fak_ip[FAK_B],
							   0, 1), -ENOMEM);
		fak_sets_unlimited(test);
		KUNIT_EXPECT_TRUE(test, fak_has(FAK_A, FTRACE_FL_ENABLED));
		KUNIT_EXPECT_FALSE(test, fak_has(FAK_B, FTRACE_FL_ENABLED));
	}
	fak_call_all();
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_A), 1);
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_B), 0);
	/* With memory, the same request goes through. */
	KUNIT_EXPECT_EQ(test, ftrace_set_filter_ip(p, fak_ip[FAK_B], 0, 1), 0);
	KUNIT_EXPECT_TRUE(test, fak_has(FAK_B, FTRACE_FL_ENABLED));
}

/* ftrace_set_filter() on the tracees' glob. */
static int fak_filter_glob(struct ftrace_ops *ops, int reset)
{
	unsigned char glob[] = "fak_tracee_*";

	return ftrace_set_filter(ops, glob, sizeof(glob) - 1, reset);
}

/*
 * Out of memory for the entries of a new filter, given by pattern or by
 * address, added to the old one or replacing it: the request fails
 * whole, and the ops keeps its filter and its sites.
 */
static void fak_update_entries_nomem(struct kunit *test)
{
	struct ftrace_ops *p = fak_ops_new(test, 0, BIT(FAK_A));
	unsigned long ips[] = { fak_ip[FAK_B], fak_ip[FAK_C] };
	int reset;

	KUNIT_ASSERT_EQ(test, register_ftrace_function(p), 0);
	for (reset = 0; reset < 2; reset++) {
		/* One entry more than the set has room for is refused. */
		fak_entries_limit(test, 1);
		KUNIT_EXPECT_EQ(test, fak_filter_glob(p, reset), -ENOMEM);
		fak_entries_limit(test, 1);
		KUNIT_EXPECT_EQ(test, ftrace_set_filter_ips(p, ips, 2, 0,
							    reset), -ENOMEM);
		fak_entries_unlimited(test);
		KUNIT_EXPECT_TRUE(test, fak_has(FAK_A, FTRACE_FL_ENABLED));
		KUNIT_EXPECT_FALSE(test, fak_has(FAK_B, FTRACE_FL_ENABLED));
		KUNIT_EXPECT_FALSE(test, fak_has(FAK_C, FTRACE_FL_ENABLED));
	}
	fak_call_all();
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_A), 1);
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_B), 0);
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_C), 0);
	/* With memory, the same pattern goes through. */
	KUNIT_EXPECT_EQ(test, fak_filter_glob(p, 1), 0);
	fak_call_all();
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_B), 1);
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_C), 1);
}

/* Open a writer on @ops' filter, as tracefs would. */
static void fak_file_open(struct kunit *test, struct ftrace_ops *ops,
			  struct file *file)
{
	file->f_mode = FMODE_WRITE;
	KUNIT_ASSERT_EQ(test, ftrace_regex_open(NULL, ops, FTRACE_ITER_FILTER,
						NULL, file), 0);
}

/*
 * set_ftrace_filter short of entries at each point of a request: the
 * write fails whole, however far it got, and what closing the file
 * publishes is the filter as it was.  Then, on one file, a write that
 * fails leaves the next one to apply alone.
 */
static void fak_update_file_entries_nomem(struct kunit *test)
{
	static const char request[] =
		"!fak_tracee_a fak_tracee_b fak_tracee_c\n";
	struct ftrace_ops *p = fak_ops_new(test, 0, BIT(FAK_A));
	struct file *file = kunit_kzalloc(test, sizeof(*file), GFP_KERNEL);
	unsigned long ubuf = fak_user_page(test);
	ssize_t ret;
	int n;

	KUNIT_ASSERT_NOT_NULL(test, file);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(p), 0);
	/*
	 * Five entries make the request: a mark for each of A, B and C
	 * (what undoes it) and the draft's own for B and C.
	 */
	for (n = 0; n <= 5; n++) {
		fak_file_open(test, p, file);
		fak_entries_limit(test, n);
		ret = fak_write(test, ftrace_filter_write, file, ubuf, request);
		fak_entries_unlimited(test);
		ftrace_regex_release(NULL, file);
		if (n == 5)
			break;
		KUNIT_EXPECT_EQ(test, ret, -ENOMEM);
		KUNIT_EXPECT_TRUE(test, fak_has(FAK_A, FTRACE_FL_ENABLED));
		KUNIT_EXPECT_FALSE(test, fak_has(FAK_B, FTRACE_FL_ENABLED));
		KUNIT_EXPECT_FALSE(test, fak_has(FAK_C, FTRACE_FL_ENABLED));
	}
	KUNIT_EXPECT_EQ(test, ret, sizeof(request) - 1);
	KUNIT_EXPECT_FALSE(test, fak_has(FAK_A, FTRACE_FL_ENABLED));
	KUNIT_EXPECT_TRUE(test, fak_has(FAK_B, FTRACE_FL_ENABLED));
	KUNIT_EXPECT_TRUE(test, fak_has(FAK_C, FTRACE_FL_ENABLED));

	/* B is dropped, then A's mark is refused: B must come back. */
	fak_file_open(test, p, file);
	fak_entries_limit(test, 1);
	ret = fak_write(test, ftrace_filter_write, file, ubuf,
			"!fak_tracee_b fak_tracee_a\n");
	fak_entries_unlimited(test);
	KUNIT_EXPECT_EQ(test, ret, -ENOMEM);
	ret = fak_write(test, ftrace_filter_write, file, ubuf,
			"fak_tracee_a\n");
	KUNIT_EXPECT_EQ(test, ret, 13);
	ftrace_regex_release(NULL, file);
	fak_call_all();
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_A), 1);
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_B), 1);
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_C), 1);
}

static void fak_update_follows_filter(struct kunit *test)
{
	struct ftrace_ops *p = fak_ops_new(test, 0, BIT(FAK_A));

	KUNIT_ASSERT_EQ(test, register_ftrace_function(p), 0);
	fak_call_all();
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_A), 1);
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_B), 0);

	/* From A to B in one update. */
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(p, fak_ip[FAK_B], 0, 1), 0);
	KUNIT_EXPECT_FALSE(test, fak_has(FAK_A, FTRACE_FL_ENABLED));
	KUNIT_EXPECT_TRUE(test, fak_has(FAK_B, FTRACE_FL_ENABLED));
	fak_call_all();
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_A), 1);
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_B), 1);

	/* The old sets were lent to that update only. */
	KUNIT_EXPECT_FALSE(test, p->flags & FTRACE_OPS_FL_MODIFYING);
	KUNIT_EXPECT_NULL(test, rcu_access_pointer(p->old_hash.filter_hash));
	KUNIT_EXPECT_NULL(test, rcu_access_pointer(p->old_hash.notrace_hash));
}

static void fak_global_filter_reset(void *unused)
{
	ftrace_set_global_filter(NULL, 0, 1);
}

static void fak_update_shared_global(struct kunit *test)
{
	unsigned char a[] = "fak_tracee_a", b[] = "fak_tracee_b";
	struct ftrace_hash *set;
	struct ftrace_ops *s;
	bool idle;

	mutex_lock(&ftrace_lock);
	set = rcu_dereference_protected(global_ops.local_hash.filter_hash,
					lockdep_is_held(&ftrace_lock));
	idle = !(global_ops.flags & FTRACE_OPS_FL_ENABLED) &&
	       ftrace_hash_empty(set);
	mutex_unlock(&ftrace_lock);
	if (!idle)
		kunit_skip(test, "the function tracer is in use");

	/* Reset after s is gone, or s would trace every function. */
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fak_global_filter_reset,
						  NULL));
	s = fak_ops_new(test, 0, 0);
	ftrace_ops_set_global_filter(s);

	ftrace_set_global_filter(a, strlen(a), 1);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(s), 0);
	fak_call_all();
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_A), 1);
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_B), 0);

	/* global_ops is not started: the update runs for s. */
	ftrace_set_global_filter(b, strlen(b), 1);
	KUNIT_EXPECT_FALSE(test, fak_has(FAK_A, FTRACE_FL_ENABLED));
	KUNIT_EXPECT_TRUE(test, fak_has(FAK_B, FTRACE_FL_ENABLED));
	fak_call_all();
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_A), 1);
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_B), 1);
	KUNIT_EXPECT_EQ(test, unregister_ftrace_function(s), 0);
}

static bool fak_no_ops(void)
{
	bool none;

	mutex_lock(&ftrace_lock);
	none = fops_first_locked() == &ftrace_list_end;
	mutex_unlock(&ftrace_lock);
	return none;
}

static void fak_update_refused_start(struct kunit *test)
{
	struct ftrace_ops *p = fak_ops_new(test, FTRACE_OPS_FL_IPMODIFY,
					   BIT(FAK_A));
	struct ftrace_ops *q = fak_ops_new(test, FTRACE_OPS_FL_IPMODIFY,
					   BIT(FAK_A));
	bool live;

	/* Another ops would keep the sites live whatever q left. */
	if (!fak_no_ops())
		kunit_skip(test, "other ops are registered");
	KUNIT_ASSERT_EQ(test, register_ftrace_function(p), 0);
	KUNIT_EXPECT_EQ(test, register_ftrace_function(q), -EBUSY);
	KUNIT_EXPECT_FALSE(test, q->flags & (FTRACE_OPS_FL_ENABLED |
					     FTRACE_OPS_FL_ADDING));
	KUNIT_EXPECT_EQ(test, q->trampoline, 0UL);
	fak_call_all();
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_A), 1);

	/* q was not counted as started: with p gone, no site is live. */
	KUNIT_ASSERT_EQ(test, unregister_ftrace_function(p), 0);
	mutex_lock(&ftrace_lock);
	live = ftrace_calls_live();
	mutex_unlock(&ftrace_lock);
	KUNIT_EXPECT_FALSE(test, live);

	/* And it may start now. */
	KUNIT_ASSERT_EQ(test, register_ftrace_function(q), 0);
	fak_call_all();
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_A), 2);
}

static void fak_update_frees_trampoline(struct kunit *test)
{
	struct ftrace_ops *p = fak_ops_new(test, 0, BIT(FAK_A));
	unsigned long tramp;

	KUNIT_ASSERT_EQ(test, register_ftrace_function(p), 0);
	tramp = p->trampoline;
	if (!tramp)
		kunit_skip(test, "the arch gives ops no trampolines");
	KUNIT_EXPECT_TRUE(test, is_ftrace_trampoline(tramp));
	fak_call_all();
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_A), 1);

	KUNIT_ASSERT_EQ(test, unregister_ftrace_function(p), 0);
	KUNIT_EXPECT_EQ(test, p->trampoline, 0UL);
	KUNIT_EXPECT_FALSE(test, is_ftrace_trampoline(tramp));
	fak_call_all();
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_A), 1);
}

/*
 * The pattern is the caller's: a glob in a buffer is left as it was, and
 * one in read-only memory (a string literal) works.
 */
static void fak_update_const_glob(struct kunit *test)
{
	static const char rodata_glob[] = "fak_tracee_a*";
	unsigned char glob[] = "fak_tracee_*";
	struct ftrace_ops *p = fak_ops_new(test, 0, 0);

	KUNIT_ASSERT_EQ(test, ftrace_set_filter(p, glob, sizeof(glob) - 1, 1),
			0);
	KUNIT_EXPECT_STREQ(test, (char *)glob, "fak_tracee_*");
	KUNIT_ASSERT_EQ(test, ftrace_set_notrace(p, (unsigned char *)rodata_glob,
						 sizeof(rodata_glob) - 1, 1), 0);
	KUNIT_EXPECT_STREQ(test, rodata_glob, "fak_tracee_a*");
	KUNIT_ASSERT_EQ(test, register_ftrace_function(p), 0);
	fak_call_all();
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_A), 0);
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_B), 1);
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_C), 1);
	KUNIT_EXPECT_EQ(test, ftrace_set_filter(p, (unsigned char *)"x", -1, 0),
			-EINVAL);
}

/* KUnit action: lift the BAD mark of tracee C, whose NOP is intact. */
static void fak_bad_clear(void *unused)
{
	struct dyn_ftrace *rec;

	mutex_lock(&ftrace_lock);
	rec = frec_lookup(fak_ip[FAK_C], fak_ip[FAK_C]);
	if (rec)
		rec->flags &= ~FTRACE_FL_BAD;
	mutex_unlock(&ftrace_lock);
}

/*
 * A site ftrace_bug() reports is shut out alone: its record turns BAD,
 * later updates leave it, enabled_functions marks it, and an ops that
 * asks for it and for another site gets the other one; nothing is
 * killed.  The site is reported while it holds its NOP, by the core
 * rather than by a corrupted site (ftrace_x86 corrupts one for real),
 * so that the mark can be lifted again.
 */
static void fak_update_bad_site(struct kunit *test)
{
	const unsigned long kept = FTRACE_FL_TOUCHED | FTRACE_FL_MODIFIED;
	struct ftrace_ops *p = fak_ops_new(test, 0, BIT(FAK_A) | BIT(FAK_C));
	struct dyn_ftrace *rec;
	char line[256];

	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fak_bad_clear, NULL));
	mutex_lock(&ftrace_lock);
	rec = frec_lookup(fak_ip[FAK_C], fak_ip[FAK_C]);
	if (rec)
		ftrace_bug(-EFAULT, rec);
	mutex_unlock(&ftrace_lock);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	KUNIT_EXPECT_FALSE(test, ftrace_is_dead());
	KUNIT_EXPECT_EQ(test, fak_flags(FAK_C) & ~kept, FTRACE_FL_BAD);

	KUNIT_ASSERT_EQ(test, register_ftrace_function(p), 0);
	KUNIT_EXPECT_TRUE(test, fak_has(FAK_A, FTRACE_FL_ENABLED));
	KUNIT_EXPECT_EQ(test, fak_flags(FAK_C) & ~kept, FTRACE_FL_BAD);
	fak_call_all();
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_A), 1);
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_C), 0);

	fak_listed(FAK_C, line, sizeof(line));
	KUNIT_EXPECT_NOT_NULL(test, strstr(line, "(0)"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(line, "\tBAD"));
	fak_listed(FAK_A, line, sizeof(line));
	KUNIT_EXPECT_NOT_NULL(test, strstr(line, "(1)"));
	KUNIT_EXPECT_NULL(test, strstr(line, "BAD"));

	KUNIT_EXPECT_EQ(test, unregister_ftrace_function(p), 0);
	KUNIT_EXPECT_FALSE(test, fak_has(FAK_A, FTRACE_FL_ENABLED));
	KUNIT_EXPECT_EQ(test, fak_flags(FAK_C) & ~kept, FTRACE_FL_BAD);
	KUNIT_EXPECT_FALSE(test, ftrace_is_dead());
}

static struct kunit_case ftrace_code_update_cases[] = {
	KUNIT_CASE(fak_update_follows_filter),
	KUNIT_CASE(fak_update_shared_global),
	KUNIT_CASE(fak_update_refused_start),
	KUNIT_CASE(fak_update_frees_trampoline),
	KUNIT_CASE(fak_update_nomem),
	KUNIT_CASE(fak_update_entries_nomem),
	KUNIT_CASE(fak_update_file_entries_nomem),
	KUNIT_CASE(fak_update_const_glob),
	KUNIT_CASE(fak_update_bad_site),
	{}
};

static struct kunit_suite ftrace_code_update_suite = {
	.name = "ftrace_code_update",
	.suite_init = fak_suite_init,
	.init = fak_init,
	.test_cases = ftrace_code_update_cases,
};

kunit_test_suite(ftrace_code_update_suite);

MODULE_DESCRIPTION("KUnit tests for the ftrace code update");
MODULE_LICENSE("GPL");
