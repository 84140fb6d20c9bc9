// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite ftrace_stress: ftrace_ops coming and going, and their
 * filters changing, while every CPU calls the functions they hook.  Built
 * into the stress kernel (`make stress`: KASAN, lockdep, kmemleak), which
 * is what makes most of its checks bite: an ops freed at once after
 * unregister_ftrace_function() and then called is a use-after-free.
 *
 *  - ops churn: kmalloc'ed ops of every flavour (plain, RECURSION,
 *    SAVE_REGS, RCU) registered, called, unregistered and freed at once,
 *    one after another; each sees exactly the calls the test makes of a
 *    function only it calls, and none once it is unregistered;
 *  - filter churn: four running ops (RECURSION, SAVE_REGS, RCU and
 *    IPMODIFY) whose filters and notrace sets keep changing (globs,
 *    addresses, resets): each call the test makes reaches exactly the
 *    ops whose sets select it, a second IPMODIFY ops on the function of
 *    the first is refused, and the first keeps working.  (An empty
 *    filter, which selects every function, is left to make test's
 *    conformance suite: under KASAN every function hooked is minutes.)
 *
 * The callers run fst_tracee*() in a loop on every online CPU.  This file
 * is instrumented, for those functions.
 */
#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/ftrace.h>
#include <linux/kthread.h>
#include <linux/sched/task.h>
#include <linux/slab.h>

/* The tracees: barrier() keeps the calls from being dropped. */
static noinline __noclone int fst_tracee(int x)
{
	barrier();
	return x + 1;
}

static noinline __noclone int fst_tracee2(int x)
{
	barrier();
	return x + 2;
}

/* Called only by the test itself: its counts are exact. */
static noinline __noclone int fst_exact(int x)
{
	barrier();
	return x + 3;
}

/* ---- callers on every CPU ---- */

struct fst_callers {
	struct task_struct *task[NR_CPUS];
	int nr;
};

static int fst_caller_fn(void *data)
{
	while (!kthread_should_stop()) {
		fst_tracee(0);
		fst_tracee2(0);
		/*
		 * Unregistering a heap ops waits for every task to pass a
		 * quiescent state of RCU tasks: a preemption is none.
		 */
		cond_resched_tasks_rcu_qs();
	}
	return 0;
}

static void fst_callers_stop(void *data)
{
	struct fst_callers *c = data;
	int i;

	for (i = 0; i < c->nr; i++) {
		kthread_stop(c->task[i]);
		put_task_struct(c->task[i]);
	}
}

/* A caller bound to each online CPU, until the end of the case. */
static void fst_callers_start(struct kunit *test)
{
	struct fst_callers *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct task_struct *t;
	int cpu;

	KUNIT_ASSERT_NOT_NULL(test, c);
	for_each_online_cpu(cpu) {
		t = kthread_create_on_cpu(fst_caller_fn, NULL, cpu, "fst_caller/%u");
		KUNIT_ASSERT_FALSE(test, IS_ERR(t));
		get_task_struct(t);
		c->task[c->nr++] = t;
		wake_up_process(t);
	}
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, fst_callers_stop, c),
			0);
}

/* ---- ops churn ---- */

#define FST_ROUNDS	120
#define FST_EXACT_CALLS	10

/* Whether each round's ops may still be called; never freed. */
static bool fst_alive[FST_ROUNDS];
static atomic_t fst_late;

struct fst_ops {
	struct ftrace_ops ops;
	int round;
	atomic_t exact;		/* calls of fst_exact() */
	atomic_t others;	/* calls of the tracees */
};

static notrace void fst_churn_func(unsigned long ip, unsigned long parent_ip,
				   struct ftrace_ops *op,
				   struct ftrace_regs *fregs)
{
	struct fst_ops *o = container_of(op, struct fst_ops, ops);

	/* A read of freed memory here is what KASAN reports. */
	if (!READ_ONCE(fst_alive[o->round]))
		atomic_inc(&fst_late);
	if (ip == ftrace_location((unsigned long)fst_exact))
		atomic_inc(&o->exact);
	else
		atomic_inc(&o->others);
}

static const unsigned long fst_flavours[] = {
	0,
	FTRACE_OPS_FL_RECURSION,
	FTRACE_OPS_FL_SAVE_REGS,
	FTRACE_OPS_FL_RCU | FTRACE_OPS_FL_RECURSION,
};

/* One round: an ops of @flags on the tracees, used, then freed at once. */
static void fst_churn_round(struct kunit *test, int round, unsigned long flags)
{
	unsigned long ips[] = {
		(unsigned long)fst_tracee, (unsigned long)fst_tracee2,
		(unsigned long)fst_exact,
	};
	struct fst_ops *o = kzalloc(sizeof(*o), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, o);
	o->round = round;
	o->ops.func = fst_churn_func;
	o->ops.flags = flags;
	WRITE_ONCE(fst_alive[round], true);
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ips(&o->ops, ips, 3, 0, 1), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(&o->ops), 0);
	for (i = 0; i < FST_EXACT_CALLS; i++)
		fst_exact(i);
	KUNIT_EXPECT_EQ(test, unregister_ftrace_function(&o->ops), 0);
	WRITE_ONCE(fst_alive[round], false);
	fst_exact(0);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&o->exact), FST_EXACT_CALLS,
			    "round %d flags %lx", round, flags);
	ftrace_free_filter(&o->ops);
	kfree(o);
}

static void fst_ops_churn_test(struct kunit *test)
{
	int round;

	atomic_set(&fst_late, 0);
	fst_callers_start(test);
	for (round = 0; round < FST_ROUNDS; round++) {
		fst_churn_round(test, round,
				fst_flavours[round % ARRAY_SIZE(fst_flavours)]);
		cond_resched();
	}
	/* Give a late call, if there were one, time to land. */
	msleep(20);
	KUNIT_EXPECT_EQ(test, atomic_read(&fst_late), 0);
}

/* ---- filter churn ---- */

/*
 * A step changes the sets by name nine times; under KASAN each name is
 * a walk of every record and kallsyms, a second or two.
 */
#define FST_FILTER_STEPS	8

enum { FST_RECURSION, FST_SAVE_REGS, FST_RCU, FST_IPMODIFY, FST_OPS };

struct fst_filtered {
	struct ftrace_ops ops;
	atomic_t exact;
};

static notrace void fst_filtered_func(unsigned long ip, unsigned long parent_ip,
				      struct ftrace_ops *op,
				      struct ftrace_regs *fregs)
{
	struct fst_filtered *f = container_of(op, struct fst_filtered, ops);

	if (ip == ftrace_location((unsigned long)fst_exact))
		atomic_inc(&f->exact);
}

static void fst_filtered_unregister(void *data)
{
	struct fst_filtered *f = data;

	unregister_ftrace_function(&f->ops);
	ftrace_free_filter(&f->ops);
}

/* A running ops of @flags, on fst_exact() only. */
static struct fst_filtered *fst_filtered(struct kunit *test, unsigned long flags)
{
	struct fst_filtered *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	f->ops.func = fst_filtered_func;
	f->ops.flags = flags;
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(&f->ops,
						   (unsigned long)fst_exact,
						   0, 1), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(&f->ops), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							fst_filtered_unregister,
							f), 0);
	return f;
}

/* Call fst_exact() once: each ops in @want sees it, the others do not. */
static void fst_expect_calls(struct kunit *test, struct fst_filtered **f,
			     unsigned long want, int step)
{
	int before[FST_OPS], i;

	for (i = 0; i < FST_OPS; i++)
		before[i] = atomic_read(&f[i]->exact);
	fst_exact(step);
	for (i = 0; i < FST_OPS; i++)
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&f[i]->exact) - before[i],
				    !!(want & BIT(i)), "ops %d step %d", i, step);
}

/*
 * The sets of three ops change in every way the API offers while every
 * CPU calls the tracees; an IPMODIFY ops keeps its function throughout.
 */
static void fst_filter_churn_test(struct kunit *test)
{
	static const unsigned long flags[FST_OPS] = {
		[FST_RECURSION] = FTRACE_OPS_FL_RECURSION,
		[FST_SAVE_REGS] = FTRACE_OPS_FL_SAVE_REGS,
		[FST_RCU] = FTRACE_OPS_FL_RCU | FTRACE_OPS_FL_RECURSION,
		[FST_IPMODIFY] = FTRACE_OPS_FL_IPMODIFY,
	};
	unsigned long ip = (unsigned long)fst_exact;
	struct fst_filtered *f[FST_OPS], *second;
	int i, step;

	for (i = 0; i < FST_OPS; i++)
		f[i] = fst_filtered(test, flags[i]);
	second = kunit_kzalloc(test, sizeof(*second), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, second);
	second->ops.func = fst_filtered_func;
	second->ops.flags = FTRACE_OPS_FL_IPMODIFY;
	fst_callers_start(test);

	for (step = 0; step < FST_FILTER_STEPS; step++) {
		for (i = 0; i < FST_IPMODIFY; i++) {
			struct ftrace_ops *ops = &f[i]->ops;

			/* The callers' tracees by glob, fst_exact by address. */
			KUNIT_ASSERT_EQ(test, ftrace_set_filter(ops, "fst_tracee*",
								11, 1), 0);
			KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(ops, ip, 0, 0), 0);
			/* ... and left out by the notrace set. */
			KUNIT_ASSERT_EQ(test, ftrace_set_notrace(ops, "fst_exact",
								 9, 1), 0);
		}
		fst_expect_calls(test, f, BIT(FST_IPMODIFY), step);
		for (i = 0; i < FST_IPMODIFY; i++)
			KUNIT_ASSERT_EQ(test, ftrace_set_notrace(&f[i]->ops, NULL,
								 0, 1), 0);
		fst_expect_calls(test, f, GENMASK(FST_OPS - 1, 0), step);
		/* The second IPMODIFY ops is refused; the first goes on. */
		KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(&second->ops, ip, 0, 1), 0);
		KUNIT_EXPECT_EQ(test, register_ftrace_function(&second->ops), -EBUSY);
		ftrace_free_filter(&second->ops);
		fst_expect_calls(test, f, GENMASK(FST_OPS - 1, 0), step);
		/* The address out again; then one function by name. */
		for (i = 0; i < FST_IPMODIFY; i++)
			KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(&f[i]->ops,
								   ip, 1, 0), 0);
		fst_expect_calls(test, f, BIT(FST_IPMODIFY), step);
		for (i = 0; i < FST_IPMODIFY; i++)
			KUNIT_ASSERT_EQ(test, ftrace_set_filter(&f[i]->ops,
								"fst_tracee", 10,
								1), 0);
		fst_expect_calls(test, f, BIT(FST_IPMODIFY), step);
		KUNIT_EXPECT_EQ(test, atomic_read(&second->exact), 0);
	}
}

static struct kunit_case fst_cases[] = {
	KUNIT_CASE_SLOW(fst_ops_churn_test),
	KUNIT_CASE_SLOW(fst_filter_churn_test),
	{}
};

static struct kunit_suite fst_suite = {
	.name = "ftrace_stress",
	.test_cases = fst_cases,
};

kunit_test_suite(fst_suite);

MODULE_DESCRIPTION("KUnit stress tests for ftrace_ops under KASAN and lockdep");
MODULE_LICENSE("GPL");
