// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suites for starting and stopping ops.
 *
 * ftrace_accounting, the accounting of patch sites (ftrace_accounting.c):
 *
 *  - a record counts the enabled ops that select it, as they are
 *    registered, unregistered and change their filters;
 *  - it asks for an ops' own trampoline only while that ops is alone;
 *  - it asks for saved regs while some ops that selects it wants them,
 *    and stops once none does, also when that ops merely changed its
 *    filter (upstream kept the regs until the ops went away);
 *  - one IPMODIFY claim per site, an IPMODIFY ops with no filter is
 *    refused, and a refused claim changes no site's claims;
 *  - facct_attach() and facct_detach() report whether some site's
 *    code must change, and undo each other exactly, both for a filter
 *    (looked up entry by entry) and for all functions (one walk).
 *
 * ftrace_code_update, the updates that follow (ftrace_code_update.c):
 *
 *  - a new filter patches the sites it gains and NOPs those it loses,
 *    and the old sets lent to the update are taken back;
 *  - a change of global_ops' sets patches for a started ops that
 *    shares them, though global_ops itself is not started;
 *  - a refused start leaves nothing behind: no flag on the ops, no
 *    trampoline, no count of started ops;
 *  - stopping a heap ops frees its trampoline;
 *  - out of memory for a new filter, the ops keeps its filter and sites.
 *
 * ftrace_subops, managers and their subops (ftrace_subops.c):
 *
 *  - the manager traces the union of its subops' filters minus what
 *    every subops keeps out, recomputed as subops come, go and change;
 *  - the first subops starts the manager and the last stops it;
 *  - a new filter for an ops that shares its sets with a subops goes
 *    through the subops' manager;
 *  - a manager that cannot start or cannot follow a subops' new filter
 *    leaves both ops as they were, and so does running out of memory.
 *
 * ftrace_direct, direct calls (ftrace_direct.c), on x86_64 where the
 * suite has trampolines of its own that count their calls:
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
 * Running out of memory is made up: a static stub on fhash_alloc()
 * lets a case grant a number of sets and then refuse.
 *
 * This file is built with the ftrace instrumentation flags, so
 * fak_tracee_a(), _b() and _c() have records of their own; __noipa
 * keeps the compiler from making copies of them (with records of their
 * own) for the constant arguments the cases pass.  The ops'
 * callback is notrace.  Registered ops are unregistered and freed by
 * KUnit actions, also when a case fails.
 */
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/ftrace.h>
#include <linux/mutex.h>
#include <linux/string.h>
#ifdef CONFIG_X86_64
#include <asm/ibt.h>
#include <asm/nospec-branch.h>
#endif

#include "ftrace_accounting.h"
#include "ftrace_code_update.h"
#include "ftrace_dispatch.h"
#include "ftrace_hash.h"
#include "ftrace_internal.h"
#include "ftrace_ops_kunit.h"
#include "ftrace_records.h"

static __noipa int fak_tracee_a(int x)
{
	barrier();
	return x * 17 + 4;
}

static __noipa int fak_tracee_b(int x)
{
	barrier();
	return x * 19 + 5;
}

static __noipa int fak_tracee_c(int x)
{
	barrier();
	return x * 23 + 6;
}

enum { FAK_A, FAK_B, FAK_C, FAK_TRACEES };

static int (*const fak_fns[FAK_TRACEES])(int) = {
	fak_tracee_a, fak_tracee_b, fak_tracee_c,
};

/* The patch sites of the tracees, found by the suite's init. */
static unsigned long fak_ip[FAK_TRACEES];

/* Calls of each tracee that reached fak_func(), since the case began. */
static atomic_t fak_hits[FAK_TRACEES];

static int fak_suite_init(struct kunit_suite *suite)
{
	int i;

	for (i = 0; i < FAK_TRACEES; i++) {
		fak_ip[i] = ftrace_location((unsigned long)fak_fns[i]);
		if (!fak_ip[i])
			return -ENODEV;
	}
	return 0;
}

static unsigned long fak_count(int i);

/*
 * The cases count from zero: an ops of someone else's on the tracees
 * (ftrace=function on the command line) would make them meaningless.
 */
static int fak_init(struct kunit *test)
{
	int i;

	/* Nothing is patched, and nothing called, while it is off. */
	if (!READ_ONCE(ftrace_enabled))
		kunit_skip(test, "kernel.ftrace_enabled is off");
	for (i = 0; i < FAK_TRACEES; i++) {
		if (fak_count(i))
			kunit_skip(test, "another ops traces the tracees");
		atomic_set(&fak_hits[i], 0);
	}
	return 0;
}

static notrace void fak_func(unsigned long ip, unsigned long parent_ip,
			     struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	int i;

	for (i = 0; i < FAK_TRACEES; i++) {
		if (ip == fak_ip[i])
			atomic_inc(&fak_hits[i]);
	}
}

static void fak_ops_release(void *arg)
{
	struct ftrace_ops *ops = arg;

	if (ops->flags & FTRACE_OPS_FL_ENABLED)
		WARN_ON(unregister_ftrace_function(ops));
	ftrace_free_filter(ops);
}

/* A new ops with @flags that selects the tracees in the mask @sites. */
static struct ftrace_ops *fak_ops_new(struct kunit *test, unsigned long flags,
				      unsigned int sites)
{
	struct ftrace_ops *ops = kunit_kzalloc(test, sizeof(*ops), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, ops);
	ops->func = fak_func;
	ops->flags = flags;
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fak_ops_release, ops));
	for (i = 0; i < FAK_TRACEES; i++) {
		if (sites & BIT(i))
			KUNIT_ASSERT_EQ(test, 0,
					ftrace_set_filter_ip(ops, fak_ip[i], 0, 0));
	}
	return ops;
}

/* The flags of tracee @i's record. */
static unsigned long fak_flags(int i)
{
	struct dyn_ftrace *rec;
	unsigned long flags;

	mutex_lock(&ftrace_lock);
	rec = frec_lookup(fak_ip[i], fak_ip[i]);
	flags = rec ? rec->flags : ~0UL;
	mutex_unlock(&ftrace_lock);
	return flags;
}

static unsigned long fak_count(int i)
{
	return fak_flags(i) & FTRACE_REF_MAX;
}

static bool fak_has(int i, unsigned long flag)
{
	return fak_flags(i) & flag;
}

static void fak_counts_follow_ops(struct kunit *test)
{
	struct ftrace_ops *p = fak_ops_new(test, 0, BIT(FAK_A));
	struct ftrace_ops *q = fak_ops_new(test, 0, BIT(FAK_A) | BIT(FAK_B));

	KUNIT_ASSERT_EQ(test, register_ftrace_function(p), 0);
	KUNIT_EXPECT_EQ(test, fak_count(FAK_A), 1);
	KUNIT_EXPECT_EQ(test, fak_count(FAK_B), 0);
	KUNIT_EXPECT_EQ(test, fak_has(FAK_A, FTRACE_FL_TRAMP), !!p->trampoline);

	/* Two ops on A: the list function, not p's trampoline. */
	KUNIT_ASSERT_EQ(test, register_ftrace_function(q), 0);
	KUNIT_EXPECT_EQ(test, fak_count(FAK_A), 2);
	KUNIT_EXPECT_EQ(test, fak_count(FAK_B), 1);
	KUNIT_EXPECT_FALSE(test, fak_has(FAK_A, FTRACE_FL_TRAMP));
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
	struct ftrace_ops *p = fak_ops_new(test, FTRACE_OPS_FL_SAVE_REGS,
					   BIT(FAK_A) | BIT(FAK_B));
	struct ftrace_ops *q = fak_ops_new(test, 0, BIT(FAK_A));

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

static void fak_call_all(void)
{
	int i;

	for (i = 0; i < FAK_TRACEES; i++)
		fak_fns[i](i);
}

static int fak_hit(int i)
{
	return atomic_read(&fak_hits[i]);
}

/* How many more sets fhash_alloc() makes in this case. */
static int fak_sets_left;

static struct ftrace_hash *fak_fhash_alloc(unsigned int bits)
{
	struct kunit *test = kunit_get_current_test();
	struct ftrace_hash *set;

	if (fak_sets_left <= 0)
		return NULL;
	fak_sets_left--;
	/* The real one, without coming back here. */
	kunit_deactivate_static_stub(test, fhash_alloc);
	set = fhash_alloc(bits);
	kunit_activate_static_stub(test, fhash_alloc, fak_fhash_alloc);
	return set;
}

/* From now on, until fak_sets_unlimited(), fhash_alloc() makes @n sets. */
static void fak_sets_limit(struct kunit *test, int n)
{
	fak_sets_left = n;
	kunit_activate_static_stub(test, fhash_alloc, fak_fhash_alloc);
}

static void fak_sets_unlimited(struct kunit *test)
{
	kunit_deactivate_static_stub(test, fhash_alloc);
}

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
	 * Without s1, s2 alone decides and C goes out again.  Upstream
	 * intersected with the manager's old notrace set and kept C in.
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

#if defined(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS) && defined(CONFIG_X86_64)
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
"	lock incl	fak_direct_calls(%rip)\n"
	ASM_RET
"	.size		fak_direct_one, .-fak_direct_one\n"
"	.type		fak_direct_two, @function\n"
"	.globl		fak_direct_two\n"
"fak_direct_two:\n"
	ASM_ENDBR
	CALL_DEPTH_ACCOUNT
"	lock incl	fak_direct_calls+4(%rip)\n"
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
#endif /* direct calls on x86_64 */

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

static struct kunit_case ftrace_code_update_cases[] = {
	KUNIT_CASE(fak_update_follows_filter),
	KUNIT_CASE(fak_update_shared_global),
	KUNIT_CASE(fak_update_refused_start),
	KUNIT_CASE(fak_update_frees_trampoline),
	KUNIT_CASE(fak_update_nomem),
	{}
};

static struct kunit_suite ftrace_code_update_suite = {
	.name = "ftrace_code_update",
	.suite_init = fak_suite_init,
	.init = fak_init,
	.test_cases = ftrace_code_update_cases,
};

static struct kunit_case ftrace_subops_cases[] = {
	KUNIT_CASE(fak_subops_union),
	KUNIT_CASE(fak_subops_notrace),
	KUNIT_CASE(fak_subops_start_refused),
	KUNIT_CASE(fak_subops_move_refused),
	KUNIT_CASE(fak_subops_sharer),
	KUNIT_CASE(fak_subops_nomem),
	{}
};

static struct kunit_suite ftrace_subops_suite = {
	.name = "ftrace_subops",
	.suite_init = fak_suite_init,
	.init = fak_init,
	.test_cases = ftrace_subops_cases,
};

kunit_test_suites(&ftrace_accounting_suite, &ftrace_code_update_suite,
		  &ftrace_subops_suite);

MODULE_DESCRIPTION("KUnit tests for starting and stopping ftrace_ops");
MODULE_LICENSE("GPL");
