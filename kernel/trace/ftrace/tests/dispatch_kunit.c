// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the registry and dispatch of ftrace_ops
 * (dispatch.c): which addresses a pair of filter sets takes,
 * what ftrace_caller is pointed at as ops come and go, and the lookup
 * of run-time trampolines that the unwinders use.
 *
 * Unlike the rest of kernel/trace this file is built with the ftrace
 * instrumentation flags, so fdk_tracee() has a real __fentry__ site.
 * The cases register ops of their own and expect no other ops to be
 * registered when the suite runs at boot; the caller case is skipped
 * otherwise.
 */
#include <kunit/test.h>
#include <linux/ftrace.h>
#include <linux/mutex.h>

#include "../dispatch.h"
#include "../internal.h"
#include "../../trace.h"
#include "tramp_names.h"

static noinline int fdk_tracee(int x)
{
	barrier();
	return x * 5 + 3;
}

static noinline int fdk_other(int x)
{
	barrier();
	return x * 9 - 4;
}

/* Keeps the tracees out of line and in the image. */
static int (*const fdk_fns[])(int) __used = { fdk_tracee, fdk_other };

static atomic_t fdk_calls;

static notrace void fdk_count(unsigned long ip, unsigned long parent_ip,
			      struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	atomic_inc(&fdk_calls);
}

static struct ftrace_hash *fdk_set(struct kunit *test,
				   const unsigned long *ips, int n)
{
	struct ftrace_hash *hash = fhash_alloc(4);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, hash);
	for (i = 0; i < n; i++)
		KUNIT_ASSERT_NOT_NULL(test, fhash_insert(hash, ips[i]));
	return hash;
}

/* The filter set selects, the notrace set excludes; empty sets neither. */
static void fdk_hash_has_ip(struct kunit *test)
{
	const unsigned long a = 0x1000, b = 0x2000, c = 0x3000;
	const unsigned long ab[] = { a, b };
	struct ftrace_hash *fa = fdk_set(test, &a, 1);
	struct ftrace_hash *fab = fdk_set(test, ab, 2);
	struct ftrace_hash *nb = fdk_set(test, &b, 1);
	struct ftrace_hash *none = fdk_set(test, NULL, 0);
	struct ftrace_ops_hash h;

	RCU_INIT_POINTER(h.filter_hash, FHASH_EMPTY);
	RCU_INIT_POINTER(h.notrace_hash, FHASH_EMPTY);
	KUNIT_EXPECT_TRUE(test, fops_hash_has_ip(&h, a));
	KUNIT_EXPECT_TRUE(test, fops_hash_has_ip(&h, c));

	/* An allocated set with no entries is as empty as FHASH_EMPTY. */
	RCU_INIT_POINTER(h.filter_hash, none);
	RCU_INIT_POINTER(h.notrace_hash, none);
	KUNIT_EXPECT_TRUE(test, fops_hash_has_ip(&h, c));

	RCU_INIT_POINTER(h.filter_hash, fa);
	KUNIT_EXPECT_TRUE(test, fops_hash_has_ip(&h, a));
	KUNIT_EXPECT_FALSE(test, fops_hash_has_ip(&h, b));

	RCU_INIT_POINTER(h.filter_hash, FHASH_EMPTY);
	RCU_INIT_POINTER(h.notrace_hash, nb);
	KUNIT_EXPECT_TRUE(test, fops_hash_has_ip(&h, a));
	KUNIT_EXPECT_FALSE(test, fops_hash_has_ip(&h, b));
	KUNIT_EXPECT_TRUE(test, fops_hash_has_ip(&h, c));

	/* notrace wins over filter. */
	RCU_INIT_POINTER(h.filter_hash, fab);
	KUNIT_EXPECT_TRUE(test, fops_hash_has_ip(&h, a));
	KUNIT_EXPECT_FALSE(test, fops_hash_has_ip(&h, b));
	KUNIT_EXPECT_FALSE(test, fops_hash_has_ip(&h, c));

	fhash_free(fa);
	fhash_free(fab);
	fhash_free(nb);
	fhash_free(none);
}

/* Two ops of the kernel image's data: neither is DYNAMIC. */
static struct ftrace_ops fdk_ops_a = {
	.func	= fdk_count,
	.flags	= FTRACE_OPS_FL_RECURSION,
};

static struct ftrace_ops fdk_ops_b = {
	.func	= fdk_count,
};

struct fdk_caller {
	ftrace_func_t	func;
	struct ftrace_ops *op;		/* function_trace_op */
	struct ftrace_ops *next;	/* fops_next_trace_op */
};

static void fdk_caller_now(struct fdk_caller *c)
{
	mutex_lock(&ftrace_lock);
	c->func = ftrace_trace_function;
	c->op = function_trace_op;
	c->next = fops_next_trace_op;
	mutex_unlock(&ftrace_lock);
}

static void fdk_unregister(void *ops)
{
	unregister_ftrace_function(ops);
	ftrace_free_filter(ops);
}

/*
 * ftrace_caller calls nothing with no ops, the function the sole ops'
 * trampoline would call (here the recursion guard) with one, and the
 * list function with two; and every call reaches each ops once.
 */
static void fdk_caller_follows_list(struct kunit *test)
{
	struct fdk_caller none, one, two, back, gone;
	unsigned long ip = (unsigned long)fdk_tracee;
	int calls;

	if (rcu_access_pointer(ftrace_ops_list) != &ftrace_list_end)
		kunit_skip(test, "other ftrace_ops are registered");
	fdk_caller_now(&none);

	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(&fdk_ops_a, ip, 0, 1), 0);
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(&fdk_ops_b, ip, 0, 1), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(&fdk_ops_a), 0);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, fdk_unregister,
							   &fdk_ops_a));
	fdk_caller_now(&one);

	KUNIT_ASSERT_EQ(test, register_ftrace_function(&fdk_ops_b), 0);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, fdk_unregister,
							   &fdk_ops_b));
	fdk_caller_now(&two);
	atomic_set(&fdk_calls, 0);
	fdk_tracee(1);
	fdk_other(1);
	calls = atomic_read(&fdk_calls);

	kunit_release_action(test, fdk_unregister, &fdk_ops_b);
	fdk_caller_now(&back);
	kunit_release_action(test, fdk_unregister, &fdk_ops_a);
	fdk_caller_now(&gone);

	KUNIT_EXPECT_PTR_EQ(test, none.func, (ftrace_func_t)ftrace_stub);
	KUNIT_EXPECT_PTR_EQ(test, one.func, ftrace_ops_get_func(&fdk_ops_a));
	KUNIT_EXPECT_PTR_NE(test, one.func, fdk_ops_a.func);
	KUNIT_EXPECT_PTR_EQ(test, one.op, &fdk_ops_a);
	KUNIT_EXPECT_PTR_EQ(test, one.next, &fdk_ops_a);
	KUNIT_EXPECT_PTR_EQ(test, two.func,
			    (ftrace_func_t)ftrace_ops_list_func);
	/* The list function ignores function_trace_op, left as it was. */
	KUNIT_EXPECT_PTR_EQ(test, two.next, &ftrace_list_end);
	KUNIT_EXPECT_EQ(test, calls, 2);
	KUNIT_EXPECT_PTR_EQ(test, back.func, one.func);
	KUNIT_EXPECT_PTR_EQ(test, back.op, &fdk_ops_a);
	KUNIT_EXPECT_PTR_EQ(test, gone.func, (ftrace_func_t)ftrace_stub);
	KUNIT_EXPECT_PTR_EQ(test, gone.next, &ftrace_list_end);
	KUNIT_EXPECT_FALSE(test, fdk_ops_a.flags & FTRACE_OPS_FL_DYNAMIC);
	/* Without the recursion flag the trampoline calls func itself. */
	KUNIT_EXPECT_PTR_EQ(test, ftrace_ops_get_func(&fdk_ops_b),
			    fdk_ops_b.func);
}

/*
 * The trampoline of a registered ops is found by each of its bytes
 * and by none around it, and no more once the ops is gone.
 */
static void fdk_trampoline_lookup(struct kunit *test)
{
	struct ftrace_ops *ops = kunit_kzalloc(test, sizeof(*ops), GFP_KERNEL);
	unsigned long ip = (unsigned long)fdk_tracee;
	unsigned long tramp, size;

	KUNIT_ASSERT_NOT_NULL(test, ops);
	ops->func = fdk_count;
	KUNIT_EXPECT_NULL(test, ftrace_ops_trampoline(0));
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(ops, ip, 0, 1), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(ops), 0);
	tramp = ops->trampoline;
	size = ops->trampoline_size;
	if (!tramp || !size) {
		unregister_ftrace_function(ops);
		ftrace_free_filter(ops);
		kunit_skip(test, "the arch built no trampoline for the ops");
	}
	KUNIT_EXPECT_PTR_EQ(test, ftrace_ops_trampoline(tramp), ops);
	KUNIT_EXPECT_PTR_EQ(test, ftrace_ops_trampoline(tramp + size - 1), ops);
	KUNIT_EXPECT_NULL(test, ftrace_ops_trampoline(tramp + size));
	KUNIT_EXPECT_NULL(test, ftrace_ops_trampoline(tramp - 1));
	KUNIT_EXPECT_TRUE(test, is_ftrace_trampoline(tramp));
	KUNIT_EXPECT_FALSE(test, is_ftrace_trampoline(ip));

	KUNIT_EXPECT_EQ(test, unregister_ftrace_function(ops), 0);
	KUNIT_EXPECT_FALSE(test, is_ftrace_trampoline(tramp));
	ftrace_free_filter(ops);
}

/*
 * The trampoline of a registered ops has a name in /proc/kallsyms
 * while it exists, and the next registration names it again.
 */
static void fdk_trampoline_named(struct kunit *test)
{
	struct ftrace_ops *ops = kunit_kzalloc(test, sizeof(*ops), GFP_KERNEL);
	unsigned long ip = (unsigned long)fdk_tracee;
	unsigned long tramp;
	int round;

	KUNIT_ASSERT_NOT_NULL(test, ops);
	ops->func = fdk_count;
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(ops, ip, 0, 1), 0);
	for (round = 0; round < 2; round++) {
		KUNIT_ASSERT_EQ(test, register_ftrace_function(ops), 0);
		tramp = ops->trampoline;
		if (!tramp || !(ops->flags & FTRACE_OPS_FL_ALLOC_TRAMP)) {
			unregister_ftrace_function(ops);
			ftrace_free_filter(ops);
			kunit_skip(test, "the arch built no trampoline for the ops");
		}
		KUNIT_EXPECT_TRUE_MSG(test, ftrace_kunit_tramp_named(tramp), "round %d", round);
		KUNIT_EXPECT_FALSE(test, ftrace_kunit_tramp_named(ip));
		KUNIT_EXPECT_EQ(test, unregister_ftrace_function(ops), 0);
		KUNIT_EXPECT_FALSE_MSG(test, ftrace_kunit_tramp_named(tramp), "round %d", round);
	}
	ftrace_free_filter(ops);
}

static struct kunit_case fdk_cases[] = {
	KUNIT_CASE(fdk_hash_has_ip),
	KUNIT_CASE(fdk_caller_follows_list),
	KUNIT_CASE(fdk_trampoline_lookup),
	KUNIT_CASE(fdk_trampoline_named),
	{}
};

static struct kunit_suite fdk_suite = {
	.name = "ftrace_dispatch",
	.test_cases = fdk_cases,
};

kunit_test_suite(fdk_suite);
