// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite ftrace_graph_filter: the words of set_graph_function and
 * set_graph_notrace (tracefs/graph_filter.c).
 *
 *  - a word adds the functions it names, or with '!' takes them out;
 *    one that names nothing it could change is -EINVAL and changes
 *    nothing;
 *  - a word that runs out of memory part way changes nothing either:
 *    the functions it had added go again;
 *  - through the file: words written to a writer's draft, one of them
 *    short of memory, and closing the file publishes the others.
 *
 * This file is included at the end of tracefs/graph_filter.c (with
 * CONFIG_FTRACE_GRAPH_FILTER_KUNIT_TEST) to reach its static helpers.
 * The tracees and the made-up shortage of entries are those of the
 * suites for starting ops (start_kunit.c): fak_tracee_a(), _b()
 * and _c() are the only functions whose names start "fak_tracee_".
 */
#include <kunit/test.h>
#include <linux/fs.h>

#include "start_kunit.h"

/* Which tracees @set holds, one bit each; other entries are ignored. */
static unsigned int fgk_tracees(struct ftrace_hash *set)
{
	unsigned int held = 0;
	int i;

	for (i = 0; i < FAK_TRACEES; i++)
		if (fhash_find(set, fak_ip[i]))
			held |= BIT(i);
	return held;
}

/* gfilter_apply_word() parses in place: give it a copy of @word. */
static int fgk_word(struct kunit *test, struct ftrace_hash *set,
		    const char *word)
{
	char *copy = kunit_kstrdup(test, word, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, copy);
	return gfilter_apply_word(set, copy);
}

KUNIT_DEFINE_ACTION_WRAPPER(fgk_free, fhash_free, struct ftrace_hash *);

static struct ftrace_hash *fgk_draft(struct kunit *test)
{
	struct ftrace_hash *set = fhash_alloc(FGF_DRAFT_BITS);

	KUNIT_ASSERT_NOT_NULL(test, set);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, fgk_free, set),
			0);
	return set;
}

/* No entry is left marked as a word's own once the word is done. */
static void fgk_expect_settled(struct kunit *test, struct ftrace_hash *set)
{
	struct ftrace_func_entry *entry;

	fhash_for_each(set, entry)
		KUNIT_EXPECT_EQ(test, entry->direct, 0);
}

static void fgk_words(struct kunit *test)
{
	struct ftrace_hash *set = fgk_draft(test);

	KUNIT_EXPECT_EQ(test, fgk_word(test, set, "fak_tracee_*"), 0);
	KUNIT_EXPECT_EQ(test, fgk_tracees(set),
			BIT(FAK_A) | BIT(FAK_B) | BIT(FAK_C));
	KUNIT_EXPECT_EQ(test, set->count, FAK_TRACEES);
	KUNIT_EXPECT_EQ(test, fgk_word(test, set, "!fak_tracee_b"), 0);
	KUNIT_EXPECT_EQ(test, fgk_tracees(set), BIT(FAK_A) | BIT(FAK_C));
	/* A second '!' finds nothing left to take out. */
	KUNIT_EXPECT_EQ(test, fgk_word(test, set, "!fak_tracee_b"), -EINVAL);
	/* Adding what is there already is no error, and no new entry. */
	KUNIT_EXPECT_EQ(test, fgk_word(test, set, "fak_tracee_a"), 0);
	KUNIT_EXPECT_EQ(test, set->count, 2);
	KUNIT_EXPECT_EQ(test, fgk_word(test, set, "fak_tracee_nosuch*"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, fgk_tracees(set), BIT(FAK_A) | BIT(FAK_C));
	KUNIT_EXPECT_EQ(test, set->count, 2);
	fgk_expect_settled(test, set);
}

/*
 * Out of entries after none, one or two of the glob's new functions:
 * the set is as it was, the functions it held before included.
 */
static void fgk_word_nomem(struct kunit *test)
{
	struct ftrace_hash *set = fgk_draft(test);
	int n;

	KUNIT_ASSERT_EQ(test, fgk_word(test, set, "fak_tracee_b"), 0);
	for (n = 0; n < FAK_TRACEES - 1; n++) {
		fak_entries_limit(test, n);
		KUNIT_EXPECT_EQ(test, fgk_word(test, set, "fak_tracee_*"),
				-ENOMEM);
		fak_entries_unlimited(test);
		KUNIT_EXPECT_EQ(test, fgk_tracees(set), BIT(FAK_B));
		KUNIT_EXPECT_EQ(test, set->count, 1);
	}
	/* Two new entries are all the word needs. */
	fak_entries_limit(test, FAK_TRACEES - 1);
	KUNIT_EXPECT_EQ(test, fgk_word(test, set, "fak_tracee_*"), 0);
	fak_entries_unlimited(test);
	KUNIT_EXPECT_EQ(test, fgk_tracees(set),
			BIT(FAK_A) | BIT(FAK_B) | BIT(FAK_C));
	fgk_expect_settled(test, set);
}

/* The published set of set_graph_notrace: which tracees it holds. */
static unsigned int fgk_published_notrace(void)
{
	guard(mutex)(&gfilter_lock);
	return fgk_tracees(gfilter_published(true));
}

static bool fgk_notrace_empty(void)
{
	guard(mutex)(&gfilter_lock);
	return gfilter_published(true) == FHASH_EMPTY;
}

/* Does the graph tracer's entry callback test set_graph_notrace? */
static bool fgk_notrace_marked(void)
{
	return test_bit(TRACE_GRAPH_FILTER_NOTRACE, &trace_graph_filters);
}

/* Whatever a case leaves in set_graph_notrace goes when it ends. */
static void fgk_notrace_reset(void *unused)
{
	gfilter_publish(true, FHASH_EMPTY);
}

/*
 * set_graph_notrace, opened with O_TRUNC: of three words written one
 * at a time, the one short of memory fails alone, and closing the file
 * publishes the other two.  Opening and closing it again empties it.
 */
static void fgk_file_nomem(struct kunit *test)
{
	struct file *file = kunit_kzalloc(test, sizeof(*file), GFP_KERNEL);
	unsigned long ubuf = fak_user_page(test);
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, file);
	/* The case ends by emptying it: it must start empty. */
	if (!fgk_notrace_empty())
		kunit_skip(test, "set_graph_notrace is in use");
	ret = kunit_add_action_or_reset(test, fgk_notrace_reset, NULL);
	KUNIT_ASSERT_EQ(test, ret, 0);
	file->f_mode = FMODE_WRITE;
	file->f_flags = O_TRUNC;

	KUNIT_ASSERT_EQ(test, gfilter_open(file, true), 0);
	KUNIT_EXPECT_EQ(test, fak_write(test, gfilter_write, file, ubuf,
					"fak_tracee_a\n"), 13);
	fak_entries_limit(test, 0);
	KUNIT_EXPECT_EQ(test, fak_write(test, gfilter_write, file, ubuf,
					"fak_tracee_b\n"), -ENOMEM);
	fak_entries_unlimited(test);
	KUNIT_EXPECT_EQ(test, fak_write(test, gfilter_write, file, ubuf,
					"fak_tracee_c\n"), 13);
	/* Not published before the file is closed. */
	KUNIT_EXPECT_EQ(test, fgk_published_notrace(), 0);
	KUNIT_EXPECT_FALSE(test, fgk_notrace_marked());
	KUNIT_EXPECT_EQ(test, gfilter_release(NULL, file), 0);
	KUNIT_EXPECT_EQ(test, fgk_published_notrace(),
			BIT(FAK_A) | BIT(FAK_C));
	/* The graph tracer's entry callback now tests the set. */
	KUNIT_EXPECT_TRUE(test, fgk_notrace_marked());

	KUNIT_ASSERT_EQ(test, gfilter_open(file, true), 0);
	KUNIT_EXPECT_EQ(test, gfilter_release(NULL, file), 0);
	KUNIT_EXPECT_TRUE(test, fgk_notrace_empty());
	KUNIT_EXPECT_FALSE(test, fgk_notrace_marked());
}

static struct kunit_case ftrace_graph_filter_cases[] = {
	KUNIT_CASE(fgk_words),
	KUNIT_CASE(fgk_word_nomem),
	KUNIT_CASE(fgk_file_nomem),
	{}
};

static struct kunit_suite ftrace_graph_filter_suite = {
	.name = "ftrace_graph_filter",
	.suite_init = fak_suite_init,
	.test_cases = ftrace_graph_filter_cases,
};

kunit_test_suite(ftrace_graph_filter_suite);
