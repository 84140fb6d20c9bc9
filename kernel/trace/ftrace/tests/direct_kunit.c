// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite ftrace_direct: direct calls (direct.c), with
 * trampolines of its own that count their calls.  x86 only.
 *
 *  - a direct site calls its trampoline alone or, shared, through the
 *    list function; a modify moves it while shared and alone, and the
 *    unregistered ops is handed back as it came;
 *  - bad ops, a second direct ops on a function, and calls on an ops
 *    that is not registered are refused and change nothing;
 *  - an IPMODIFY ops asks the direct ops on its functions first: one
 *    without an ops_func or that says no keeps it out, and those that
 *    said yes are told the sharing is off again, unless another
 *    IPMODIFY ops still holds their function;
 *  - out of memory, registering fails cleanly and unregistering does
 *    not fail.
 *
 * The tracees and helpers are in start_kunit.c.
 */
#include <kunit/test.h>
#include <linux/ftrace.h>
#include <linux/mutex.h>

#include "../dispatch.h"
#include "start_kunit.h"

#if defined(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS) && defined(CONFIG_X86)
#include <asm/ibt.h>
#include <asm/nospec-branch.h>

/* The count of trampoline @n: RIP-relative on x86-64, absolute on x86-32. */
#ifdef CONFIG_X86_64
# define FAK_DIRECT_COUNT(n)	"fak_direct_calls+" #n "(%rip)"
#else
# define FAK_DIRECT_COUNT(n)	"fak_direct_calls+" #n
#endif

/*
 * Two direct trampolines that count their calls and return, leaving
 * the traced function's registers as they found them.
 */
static unsigned int fak_direct_calls[2] __used;

asm("	.pushsection	.text, \"ax\", @progbits\n"
"	.type		fak_direct_one, @function\n"
"	.globl		fak_direct_one\n"
"fak_direct_one:\n"
	ASM_ENDBR
	CALL_DEPTH_ACCOUNT
"	lock incl	" FAK_DIRECT_COUNT(0) "\n"
	ASM_RET
"	.size		fak_direct_one, .-fak_direct_one\n"
"	.type		fak_direct_two, @function\n"
"	.globl		fak_direct_two\n"
"fak_direct_two:\n"
	ASM_ENDBR
	CALL_DEPTH_ACCOUNT
"	lock incl	" FAK_DIRECT_COUNT(4) "\n"
	ASM_RET
"	.size		fak_direct_two, .-fak_direct_two\n"
"	.popsection\n"
);

static void fak_direct_release(void *arg)
{
	struct ftrace_ops *ops = arg;

	if (ops->flags & FTRACE_OPS_FL_ENABLED)
		WARN_ON(unregister_ftrace_direct(ops, ops->direct_call, false));
}

/* An ops on tracee @i for register_ftrace_direct(), undone by KUnit. */
static struct ftrace_ops *fak_direct_new(struct kunit *test, int i)
{
	struct ftrace_ops *ops = kunit_kzalloc(test, sizeof(*ops), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ops);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fak_ops_release, ops));
	KUNIT_ASSERT_EQ(test, 0, ftrace_set_filter_ip(ops, fak_ip[i], 0, 0));
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fak_direct_release, ops));
	return ops;
}

static unsigned int fak_direct_hits(int i)
{
	return READ_ONCE(fak_direct_calls[i]);
}

static void fak_direct_follows(struct kunit *test)
{
	unsigned long one = (unsigned long)fak_direct_one;
	unsigned long two = (unsigned long)fak_direct_two;
	struct ftrace_ops *d = fak_direct_new(test, FAK_C);
	struct ftrace_ops *p = fak_ops_new(test, 0, BIT(FAK_C));
	unsigned int was[2] = { fak_direct_hits(0), fak_direct_hits(1) };

	KUNIT_ASSERT_EQ(test, register_ftrace_direct(d, one), 0);
	KUNIT_EXPECT_EQ(test, ftrace_find_rec_direct(fak_ip[FAK_C]), one);
	KUNIT_EXPECT_TRUE(test, fak_has(FAK_C, FTRACE_FL_DIRECT_EN));
	KUNIT_EXPECT_EQ(test, fak_tracee_c(1), 29);
	KUNIT_EXPECT_EQ(test, fak_direct_hits(0), was[0] + 1);

	/* With another ops on C the list function redirects the return. */
	KUNIT_ASSERT_EQ(test, register_ftrace_function(p), 0);
	KUNIT_EXPECT_EQ(test, fak_tracee_c(2), 52);
	KUNIT_EXPECT_EQ(test, fak_direct_hits(0), was[0] + 2);
	KUNIT_EXPECT_EQ(test, fak_hit(FAK_C), 1);

	/* Moved while shared, then alone again. */
	KUNIT_ASSERT_EQ(test, modify_ftrace_direct(d, two), 0);
	KUNIT_EXPECT_EQ(test, fak_tracee_c(3), 75);
	KUNIT_EXPECT_EQ(test, fak_direct_hits(1), was[1] + 1);
	KUNIT_ASSERT_EQ(test, unregister_ftrace_function(p), 0);
	KUNIT_EXPECT_EQ(test, ftrace_find_rec_direct(fak_ip[FAK_C]), two);
	KUNIT_EXPECT_EQ(test, fak_tracee_c(4), 98);
	KUNIT_EXPECT_EQ(test, fak_direct_hits(1), was[1] + 2);
	KUNIT_EXPECT_EQ(test, fak_direct_hits(0), was[0] + 2);

	KUNIT_ASSERT_EQ(test, unregister_ftrace_direct(d, two, false), 0);
	KUNIT_EXPECT_EQ(test, ftrace_find_rec_direct(fak_ip[FAK_C]), 0UL);
	KUNIT_EXPECT_FALSE(test, fak_has(FAK_C, FTRACE_FL_DIRECT));
	KUNIT_EXPECT_EQ(test, fak_tracee_c(5), 121);
	KUNIT_EXPECT_EQ(test, fak_direct_hits(1), was[1] + 2);
	/* Ready to be registered again. */
	KUNIT_EXPECT_NULL(test, d->func);
	KUNIT_EXPECT_EQ(test, d->trampoline, 0UL);
}

static void fak_direct_refusals(struct kunit *test)
{
	unsigned long one = (unsigned long)fak_direct_one;
	struct ftrace_ops *d = fak_direct_new(test, FAK_C);
	struct ftrace_ops *e = fak_direct_new(test, FAK_C);
	struct ftrace_ops *none = fak_ops_new(test, 0, 0);

	/* No filter, or a callback of its own: not a direct ops. */
	ftrace_ops_init(none);
	none->func = NULL;
	KUNIT_EXPECT_EQ(test, register_ftrace_direct(none, one), -EINVAL);
	e->func = fak_func;
	KUNIT_EXPECT_EQ(test, register_ftrace_direct(e, one), -EINVAL);
	e->func = NULL;

	KUNIT_EXPECT_EQ(test, modify_ftrace_direct(d, one), -EINVAL);
	KUNIT_EXPECT_EQ(test, unregister_ftrace_direct(d, one, false),
			-EINVAL);

	/* One direct ops per function. */
	KUNIT_ASSERT_EQ(test, register_ftrace_direct(d, one), 0);
	KUNIT_EXPECT_EQ(test, register_ftrace_direct(e, one), -EBUSY);
	KUNIT_EXPECT_FALSE(test, e->flags & FTRACE_OPS_FL_ENABLED);
	KUNIT_EXPECT_NULL(test, e->func);
	KUNIT_EXPECT_EQ(test, ftrace_find_rec_direct(fak_ip[FAK_C]), one);
	KUNIT_EXPECT_EQ(test, fak_count(FAK_C), 1);
}

/* What a direct ops' owner answers IPMODIFY ops, and what it is told. */
struct fak_peer {
	int	answer;
	int	on;
	int	off;
};

static int fak_direct_ops_func(struct ftrace_ops *ops, enum ftrace_ops_cmd cmd)
{
	struct fak_peer *peer = ops->private;

	switch (cmd) {
	case FTRACE_OPS_CMD_ENABLE_SHARE_IPMODIFY_PEER:
		peer->on++;
		return peer->answer;
	case FTRACE_OPS_CMD_DISABLE_SHARE_IPMODIFY_PEER:
		peer->off++;
		return 0;
	default:
		return 0;
	}
}

/* Let @ops' owner answer IPMODIFY ops with @answer. */
static struct fak_peer *fak_peer_new(struct kunit *test,
				     struct ftrace_ops *ops, int answer)
{
	struct fak_peer *peer = kunit_kzalloc(test, sizeof(*peer), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, peer);
	peer->answer = answer;
	ops->private = peer;
	ops->ops_func = fak_direct_ops_func;
	return peer;
}

static void fak_direct_ipmodify_peer(struct kunit *test)
{
	unsigned long one = (unsigned long)fak_direct_one;
	struct ftrace_ops *d = fak_direct_new(test, FAK_C);
	struct ftrace_ops *p = fak_ops_new(test, FTRACE_OPS_FL_IPMODIFY,
					   BIT(FAK_C));
	struct ftrace_ops *q = fak_ops_new(test, FTRACE_OPS_FL_IPMODIFY,
					   BIT(FAK_C));
	struct fak_peer *peer;

	KUNIT_ASSERT_EQ(test, register_ftrace_direct(d, one), 0);

	/* A direct ops that cannot be asked refuses. */
	KUNIT_EXPECT_EQ(test, register_ftrace_function(p), -EBUSY);
	KUNIT_EXPECT_FALSE(test, p->flags & FTRACE_OPS_FL_ENABLED);

	/* One that says no is told nothing more. */
	peer = fak_peer_new(test, d, -EAGAIN);
	KUNIT_EXPECT_EQ(test, register_ftrace_function(p), -EAGAIN);
	KUNIT_EXPECT_EQ(test, peer->on, 1);
	KUNIT_EXPECT_EQ(test, peer->off, 0);

	peer->answer = 0;
	KUNIT_ASSERT_EQ(test, register_ftrace_function(p), 0);
	KUNIT_EXPECT_EQ(test, peer->on, 2);

	/* q cannot have C; p still needs d to share it. */
	KUNIT_EXPECT_EQ(test, register_ftrace_function(q), -EBUSY);
	KUNIT_EXPECT_EQ(test, peer->off, 0);

	KUNIT_ASSERT_EQ(test, unregister_ftrace_function(p), 0);
	KUNIT_EXPECT_EQ(test, peer->off, 1);
}

/*
 * An IPMODIFY ops on B and C, each with a direct ops; one refuses.
 * The other, if it was asked first and agreed, is told the sharing is
 * off.  Each takes its turn to refuse, so that whatever order the
 * sites are asked in, one round has a yes to take back.
 */
static void fak_direct_refusal_undone(struct kunit *test)
{
	struct ftrace_ops *d[2] = {
		fak_direct_new(test, FAK_B), fak_direct_new(test, FAK_C),
	};
	struct ftrace_ops *p = fak_ops_new(test, FTRACE_OPS_FL_IPMODIFY,
					   BIT(FAK_B) | BIT(FAK_C));
	unsigned long one = (unsigned long)fak_direct_one;
	unsigned long two = (unsigned long)fak_direct_two;
	struct fak_peer *peer[2];
	int yes = 0;
	int no;

	KUNIT_ASSERT_EQ(test, register_ftrace_direct(d[0], one), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_direct(d[1], two), 0);
	for (no = 0; no < 2; no++) {
		peer[no] = fak_peer_new(test, d[no], -EAGAIN);
		peer[!no] = fak_peer_new(test, d[!no], 0);
		KUNIT_EXPECT_EQ(test, register_ftrace_function(p), -EAGAIN);
		KUNIT_EXPECT_FALSE(test, p->flags & FTRACE_OPS_FL_ENABLED);
		KUNIT_EXPECT_EQ(test, peer[no]->on, 1);
		KUNIT_EXPECT_EQ(test, peer[no]->off, 0);
		KUNIT_EXPECT_EQ(test, peer[!no]->off, peer[!no]->on);
		yes += peer[!no]->on;
	}
	KUNIT_EXPECT_EQ(test, yes, 1);
}

/*
 * Out of memory for the table of direct sites: registering fails and
 * leaves the ops as it was; unregistering still succeeds, zeroing its
 * sites in place, and they can be taken again.
 */
static void fak_direct_nomem(struct kunit *test)
{
	unsigned long one = (unsigned long)fak_direct_one;
	struct ftrace_ops *d = fak_direct_new(test, FAK_C);

	fak_sets_limit(test, 0);
	KUNIT_EXPECT_EQ(test, register_ftrace_direct(d, one), -ENOMEM);
	fak_sets_unlimited(test);
	KUNIT_EXPECT_FALSE(test, d->flags & FTRACE_OPS_FL_ENABLED);
	KUNIT_EXPECT_NULL(test, d->func);
	KUNIT_EXPECT_EQ(test, ftrace_find_rec_direct(fak_ip[FAK_C]), 0UL);

	KUNIT_ASSERT_EQ(test, register_ftrace_direct(d, one), 0);
	fak_sets_limit(test, 0);
	KUNIT_EXPECT_EQ(test, unregister_ftrace_direct(d, one, false), 0);
	fak_sets_unlimited(test);
	KUNIT_EXPECT_EQ(test, ftrace_find_rec_direct(fak_ip[FAK_C]), 0UL);
	KUNIT_EXPECT_FALSE(test, fak_has(FAK_C, FTRACE_FL_DIRECT));

	KUNIT_ASSERT_EQ(test, register_ftrace_direct(d, one), 0);
	KUNIT_EXPECT_EQ(test, ftrace_find_rec_direct(fak_ip[FAK_C]), one);
	KUNIT_EXPECT_EQ(test, fak_tracee_c(1), 29);
}

static struct kunit_case ftrace_direct_cases[] = {
	KUNIT_CASE(fak_direct_follows),
	KUNIT_CASE(fak_direct_refusals),
	KUNIT_CASE(fak_direct_ipmodify_peer),
	KUNIT_CASE(fak_direct_refusal_undone),
	KUNIT_CASE(fak_direct_nomem),
	{}
};

static struct kunit_suite ftrace_direct_suite = {
	.name = "ftrace_direct",
	.suite_init = fak_suite_init,
	.init = fak_init,
	.test_cases = ftrace_direct_cases,
};

kunit_test_suite(ftrace_direct_suite);
#endif /* direct calls on x86 */

MODULE_DESCRIPTION("KUnit tests for ftrace direct calls");
MODULE_LICENSE("GPL");
