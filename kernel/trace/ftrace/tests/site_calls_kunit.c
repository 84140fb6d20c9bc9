// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the state machine of patch sites
 * (site_calls.c): given a record's count, wishes and _EN
 * flags, ftrace_test_record() and ftrace_update_record() say what
 * must be patched, and the update leaves the _EN flags the wishes
 * give; the ftrace_get_addr_*() pair picks the caller from the
 * wishes and from the _EN flags.
 *
 * The records are made up on the stack: the functions under test read
 * and write only the record they are given.  (The addresses of a
 * trampoline or a direct call would need an ops or a direct function:
 * fsk_addrs() keeps clear of FL_TRAMP and of a lone FL_DIRECT.)
 * ftrace_bug_type is shared, so each row runs under ftrace_lock.
 */
#include <kunit/test.h>
#include <linux/ftrace.h>
#include <linux/mutex.h>

#include "../internal.h"

#define FSK_EN		FTRACE_FL_ENABLED

struct fsk_row {
	const char	*name;
	unsigned long	flags;		/* count, wishes and _EN flags */
	bool		enable;
	int		ret;		/* FTRACE_UPDATE_* */
	enum ftrace_bug_type bug;	/* what ftrace_bug() would say */
	unsigned long	after;		/* flags after the update */
};

static const struct fsk_row fsk_rows[] = {
	{ "untraced", 0, true, FTRACE_UPDATE_IGNORE, FTRACE_BUG_UNKNOWN, 0 },
	{ "first ops", 1, true, FTRACE_UPDATE_MAKE_CALL, FTRACE_BUG_CALL,
	  1 | FSK_EN | FTRACE_FL_TOUCHED },
	{ "up to date", 1 | FSK_EN, true, FTRACE_UPDATE_IGNORE,
	  FTRACE_BUG_UNKNOWN, 1 | FSK_EN },
	{ "regs wanted", 1 | FTRACE_FL_REGS | FSK_EN, true,
	  FTRACE_UPDATE_MODIFY_CALL, FTRACE_BUG_UPDATE,
	  1 | FTRACE_FL_REGS | FSK_EN | FTRACE_FL_REGS_EN | FTRACE_FL_TOUCHED },
	{ "regs no longer wanted", 2 | FSK_EN | FTRACE_FL_REGS_EN, true,
	  FTRACE_UPDATE_MODIFY_CALL, FTRACE_BUG_UPDATE,
	  2 | FSK_EN | FTRACE_FL_TOUCHED },
	{ "last ops gone", FTRACE_FL_REGS | FSK_EN | FTRACE_FL_REGS_EN |
	  FTRACE_FL_TOUCHED, true, FTRACE_UPDATE_MAKE_NOP, FTRACE_BUG_NOP,
	  FTRACE_FL_TOUCHED },
	{ "calls off", 2 | FTRACE_FL_REGS | FSK_EN | FTRACE_FL_REGS_EN, false,
	  FTRACE_UPDATE_MAKE_NOP, FTRACE_BUG_NOP, 2 | FTRACE_FL_REGS },
	{ "calls off, untraced", 3, false, FTRACE_UPDATE_IGNORE,
	  FTRACE_BUG_UNKNOWN, 3 },
	{ "wishes left behind", FTRACE_FL_REGS | FTRACE_FL_TRAMP |
	  FTRACE_FL_CALL_OPS, true, FTRACE_UPDATE_IGNORE, FTRACE_BUG_UNKNOWN,
	  0 },
	{ "direct for one ops", 1 | FTRACE_FL_DIRECT, true,
	  FTRACE_UPDATE_MAKE_CALL, FTRACE_BUG_CALL,
	  1 | FTRACE_FL_DIRECT | FSK_EN | FTRACE_FL_DIRECT_EN |
	  FTRACE_FL_TOUCHED | FTRACE_FL_MODIFIED },
	{ "no direct for two", 2 | FTRACE_FL_DIRECT | FSK_EN |
	  FTRACE_FL_DIRECT_EN, true, FTRACE_UPDATE_MODIFY_CALL,
	  FTRACE_BUG_UPDATE, 2 | FTRACE_FL_DIRECT | FSK_EN |
	  FTRACE_FL_TOUCHED | FTRACE_FL_MODIFIED },
	{ "call-ops for one ops", 1 | FTRACE_FL_CALL_OPS, true,
	  FTRACE_UPDATE_MAKE_CALL, FTRACE_BUG_CALL,
	  1 | FTRACE_FL_CALL_OPS | FSK_EN | FTRACE_FL_CALL_OPS_EN |
	  FTRACE_FL_TOUCHED },
	{ "no call-ops for two", 2 | FTRACE_FL_CALL_OPS | FSK_EN |
	  FTRACE_FL_CALL_OPS_EN, true, FTRACE_UPDATE_MODIFY_CALL,
	  FTRACE_BUG_UPDATE, 2 | FTRACE_FL_CALL_OPS | FSK_EN |
	  FTRACE_FL_TOUCHED },
	{ "own trampoline", 1 | FTRACE_FL_TRAMP | FSK_EN, true,
	  FTRACE_UPDATE_MODIFY_CALL, FTRACE_BUG_UPDATE,
	  1 | FTRACE_FL_TRAMP | FSK_EN | FTRACE_FL_TRAMP_EN |
	  FTRACE_FL_TOUCHED },
	{ "own trampoline lost", 2 | FSK_EN | FTRACE_FL_TRAMP_EN, true,
	  FTRACE_UPDATE_MODIFY_CALL, FTRACE_BUG_UPDATE,
	  2 | FSK_EN | FTRACE_FL_TOUCHED },
	{ "ip modified", 1 | FTRACE_FL_IPMODIFY, true,
	  FTRACE_UPDATE_MAKE_CALL, FTRACE_BUG_CALL,
	  1 | FTRACE_FL_IPMODIFY | FSK_EN | FTRACE_FL_TOUCHED |
	  FTRACE_FL_MODIFIED },
	{ "disabled weak function", 1 | FTRACE_FL_DISABLED, true,
	  FTRACE_UPDATE_IGNORE, FTRACE_BUG_UNKNOWN, 1 | FTRACE_FL_DISABLED },
	{ "disabled but still called", FTRACE_FL_DISABLED | FSK_EN, true,
	  FTRACE_UPDATE_MAKE_NOP, FTRACE_BUG_NOP, FTRACE_FL_DISABLED },
	{ "history kept", FTRACE_FL_TOUCHED | FTRACE_FL_MODIFIED |
	  FTRACE_FL_IPMODIFY | FSK_EN, true, FTRACE_UPDATE_MAKE_NOP,
	  FTRACE_BUG_NOP, FTRACE_FL_TOUCHED | FTRACE_FL_MODIFIED },
};

static void fsk_row_desc(const struct fsk_row *row, char *desc)
{
	strscpy(desc, row->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(fsk_rows, fsk_rows, fsk_row_desc);

/* A made-up record at an address no site has. */
static struct dyn_ftrace fsk_rec(unsigned long flags)
{
	struct dyn_ftrace rec = { .flags = flags };

	ftrace_rec_set_ip(&rec, (unsigned long)fsk_rows);
	return rec;
}

/* The test only looks; the update looks and takes the new state. */
static void fsk_check(struct kunit *test)
{
	const struct fsk_row *row = test->param_value;
	struct dyn_ftrace rec = fsk_rec(row->flags);
	enum ftrace_bug_type tested_bug, updated_bug;
	int tested, updated, again;
	unsigned long tested_flags;

	mutex_lock(&ftrace_lock);
	tested = ftrace_test_record(&rec, row->enable);
	tested_bug = ftrace_bug_type;
	tested_flags = rec.flags;
	updated = ftrace_update_record(&rec, row->enable);
	updated_bug = ftrace_bug_type;
	again = ftrace_test_record(&rec, row->enable);
	mutex_unlock(&ftrace_lock);

	KUNIT_EXPECT_EQ(test, tested, row->ret);
	KUNIT_EXPECT_EQ(test, tested_bug, row->bug);
	KUNIT_EXPECT_EQ(test, tested_flags, row->flags);

	KUNIT_EXPECT_EQ(test, updated, row->ret);
	KUNIT_EXPECT_EQ(test, updated_bug, row->bug);
	KUNIT_EXPECT_EQ(test, rec.flags, row->after);

	/* Once updated, the site is as it should be. */
	KUNIT_EXPECT_EQ(test, again, FTRACE_UPDATE_IGNORE);
}

static void fsk_addrs(struct kunit *test)
{
	struct dyn_ftrace rec = fsk_rec(1);

	/* Only EXPECTs below: nothing leaves with the lock held. */
	mutex_lock(&ftrace_lock);
	KUNIT_EXPECT_EQ(test, ftrace_get_addr_new(&rec),
			(unsigned long)FTRACE_ADDR);
	KUNIT_EXPECT_EQ(test, ftrace_get_addr_curr(&rec),
			(unsigned long)FTRACE_ADDR);

	/* The new call follows the wish, the current one the _EN flag. */
	rec.flags |= FTRACE_FL_REGS | FSK_EN;
	KUNIT_EXPECT_EQ(test, ftrace_get_addr_new(&rec),
			(unsigned long)FTRACE_REGS_ADDR);
	KUNIT_EXPECT_EQ(test, ftrace_get_addr_curr(&rec),
			(unsigned long)FTRACE_ADDR);

	KUNIT_EXPECT_EQ(test, ftrace_update_record(&rec, true),
			FTRACE_UPDATE_MODIFY_CALL);
	KUNIT_EXPECT_EQ(test, ftrace_get_addr_curr(&rec),
			(unsigned long)FTRACE_REGS_ADDR);

	/* A direct wish with two ops is served by the list: no direct call. */
	rec = fsk_rec(2 | FTRACE_FL_DIRECT | FTRACE_FL_REGS);
	KUNIT_EXPECT_EQ(test, ftrace_get_addr_new(&rec),
			(unsigned long)FTRACE_REGS_ADDR);
	mutex_unlock(&ftrace_lock);
}

static struct kunit_case ftrace_site_calls_cases[] = {
	KUNIT_CASE_PARAM(fsk_check, fsk_rows_gen_params),
	KUNIT_CASE(fsk_addrs),
	{}
};

static struct kunit_suite ftrace_site_calls_suite = {
	.name = "ftrace_site_calls",
	.test_cases = ftrace_site_calls_cases,
};

kunit_test_suites(&ftrace_site_calls_suite);

MODULE_DESCRIPTION("KUnit tests for the state machine of ftrace patch sites");
MODULE_LICENSE("GPL");
