// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite fgraph_stacks: the lifetime of the function graph's
 * per-task shadow stacks (fgraph/stacks.c).
 *
 *  - while a graph user is registered, every task has a stack: those
 *    that existed, one forked meanwhile, and each online CPU's idle
 *    task;
 *  - once the last user has left, the stack of a task that has
 *    returned from every hooked call is taken back, and the stack of a
 *    task asleep inside a hooked call is kept until it has returned,
 *    the entry paths of the user that left waited for once;
 *  - the counts of fgraph_stacks follow, down to the idle tasks' stacks;
 *  - an idle task left without a stack (its CPU came up while no user
 *    was registered) gets one from the next user;
 *  - an idle task whose CPU went offline inside a hooked call comes
 *    back with an empty stack;
 *  - a first user that cannot have stacks for every task is refused,
 *    and leaves nothing: no user, and the stacks it got taken back;
 *  - a task that calls a hooked function without a stack while a user
 *    is registered (its fork raced the first user's, or had no memory)
 *    misses that call and gets a stack for the next, asking once.
 *
 * The graph user hooks one function, fsk_tracee(), which a kthread of
 * the suite sleeps in.  This file is instrumented, for that function.
 */
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/ftrace.h>
#include <linux/kthread.h>
#include <linux/rcupdate.h>
#include <linux/sched/signal.h>

#include "../fgraph/fgraph.h"

struct fsk_sleeper {
	struct completion entered;	/* it is inside fsk_tracee() */
	struct completion leave;	/* it may return from fsk_tracee() */
	struct completion returned;	/* it has returned from it */
	struct completion stop;		/* it may end */
	struct task_struct *task;
};

static atomic_t fsk_entries, fsk_returns;

/* Sleep inside the one hooked function until told to return. */
static noinline __noclone void fsk_tracee(struct fsk_sleeper *s)
{
	complete(&s->entered);
	wait_for_completion(&s->leave);
}

static int fsk_sleeper_fn(void *data)
{
	struct fsk_sleeper *s = data;

	fsk_tracee(s);
	complete(&s->returned);
	wait_for_completion(&s->stop);
	return 0;
}

static int fsk_entry(struct ftrace_graph_ent *trace, struct fgraph_ops *gops,
		     struct ftrace_regs *fregs)
{
	atomic_inc(&fsk_entries);
	/* As a tracer marks a call in progress: an idle task's is undone. */
	*fgraph_get_task_var(gops) = 1;
	return 1;
}

static void fsk_return(struct ftrace_graph_ret *trace,
		       struct fgraph_ops *gops,
		       struct ftrace_regs *fregs)
{
	atomic_inc(&fsk_returns);
}

static struct fgraph_ops fsk_gops = {
	.entryfunc = fsk_entry,
	.retfunc = fsk_return,
};

static int fsk_register(struct kunit *test)
{
	int ret;

	atomic_set(&fsk_entries, 0);
	atomic_set(&fsk_returns, 0);
	ret = ftrace_set_filter_ip(&fsk_gops.ops, (unsigned long)fsk_tracee,
				   0, 1);
	if (ret)
		return ret;
	return register_ftrace_graph(&fsk_gops);
}

static void fsk_unregister(void)
{
	unregister_ftrace_graph(&fsk_gops);
	ftrace_free_filter(&fsk_gops.ops);
}

/* Tasks in the task list that have no stack. */
static int fsk_tasks_without(void)
{
	struct task_struct *g, *t;
	int nr = 0;

	rcu_read_lock();
	for_each_process_thread(g, t)
		if (!t->ret_stack)
			nr++;
	rcu_read_unlock();
	return nr;
}

static void fsk_start_sleeper(struct kunit *test, struct fsk_sleeper *s)
{
	init_completion(&s->entered);
	init_completion(&s->leave);
	init_completion(&s->returned);
	init_completion(&s->stop);
	s->task = kthread_run(fsk_sleeper_fn, s, "fsk_sleeper");
	KUNIT_ASSERT_FALSE(test, IS_ERR(s->task));
	get_task_struct(s->task);
	wait_for_completion(&s->entered);
}

static void fsk_end_sleeper(struct fsk_sleeper *s)
{
	complete(&s->leave);
	complete(&s->stop);
	kthread_stop(s->task);
	put_task_struct(s->task);
}

/*
 * After a pass: the count has at least @nr_busy stacks besides the idle
 * tasks'.  It may have more: a task that has left the task list keeps
 * its stack until it is freed, and a task whose fork began while a user
 * was registered may be listed only after the pass walked the list.
 * The tasks the cases own are checked one by one instead.
 */
static void fsk_expect_nr(struct kunit *test, int nr_busy)
{
	long nr, idle;

	nr = fgraph_stacks_nr(&idle);
	KUNIT_EXPECT_GE(test, nr, idle + nr_busy);
}

/* Every task has a stack while a user is registered, and a new one too. */
static void fsk_every_task_test(struct kunit *test)
{
	struct fsk_sleeper s;
	long nr, idle;
	int cpu;

	KUNIT_ASSERT_EQ(test, fsk_register(test), 0);
	KUNIT_EXPECT_NOT_NULL(test, current->ret_stack);
	KUNIT_EXPECT_EQ(test, fsk_tasks_without(), 0);
	cpus_read_lock();
	for_each_online_cpu(cpu)
		KUNIT_EXPECT_NOT_NULL(test, idle_task(cpu)->ret_stack);
	cpus_read_unlock();

	fsk_start_sleeper(test, &s);
	KUNIT_EXPECT_NOT_NULL(test, s.task->ret_stack);
	KUNIT_EXPECT_EQ(test, atomic_read(&fsk_entries), 1);
	nr = fgraph_stacks_nr(&idle);
	KUNIT_EXPECT_GE(test, idle, (long)num_online_cpus());
	KUNIT_EXPECT_GT(test, nr, idle);

	fsk_end_sleeper(&s);
	KUNIT_EXPECT_EQ(test, atomic_read(&fsk_returns), 1);
	fsk_unregister();
	fgraph_stacks_reap_sync();
}

/*
 * After the last user: empty stacks go, a stack in use stays until its
 * task has returned, and a task forked meanwhile gets none.
 */
static void fsk_taken_back_test(struct kunit *test)
{
	struct fsk_sleeper s, late;
	unsigned long waits;

	KUNIT_ASSERT_EQ(test, fsk_register(test), 0);
	fsk_start_sleeper(test, &s);
	fsk_unregister();

	fgraph_stacks_reap_sync();
	KUNIT_EXPECT_NULL(test, current->ret_stack);
	KUNIT_EXPECT_NOT_NULL(test, s.task->ret_stack);
	fsk_expect_nr(test, 1);

	fsk_start_sleeper(test, &late);
	KUNIT_EXPECT_NULL(test, late.task->ret_stack);
	fsk_end_sleeper(&late);

	/* Still asleep in the hooked call: still kept. */
	waits = fgraph_stacks_path_waits();
	fgraph_stacks_reap_sync();
	KUNIT_EXPECT_NOT_NULL(test, s.task->ret_stack);

	/* Returned through its real return address, alive: taken back. */
	complete(&s.leave);
	wait_for_completion(&s.returned);
	fgraph_stacks_reap_sync();
	KUNIT_EXPECT_NULL(test, s.task->ret_stack);
	/*
	 * The passes since the first did not wait for the entry paths of
	 * the user that left again: they waited only before freeing what
	 * they took, this stack and maybe one of a task whose fork
	 * straddled the unregistration, taken a pass earlier.
	 */
	KUNIT_EXPECT_LE(test, fgraph_stacks_path_waits() - waits, 2UL);
	fsk_expect_nr(test, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&fsk_returns), 0);
	fsk_end_sleeper(&s);
}

/* A user that comes while stacks wait to be taken back gets them all. */
static void fsk_back_again_test(struct kunit *test)
{
	struct fsk_sleeper s;

	KUNIT_ASSERT_EQ(test, fsk_register(test), 0);
	fsk_start_sleeper(test, &s);
	fsk_unregister();
	fgraph_stacks_reap_sync();
	KUNIT_ASSERT_NOT_NULL(test, s.task->ret_stack);

	KUNIT_ASSERT_EQ(test, fsk_register(test), 0);
	KUNIT_EXPECT_EQ(test, fsk_tasks_without(), 0);
	fgraph_stacks_reap_sync();
	KUNIT_EXPECT_NOT_NULL(test, current->ret_stack);
	KUNIT_EXPECT_EQ(test, fsk_tasks_without(), 0);

	fsk_end_sleeper(&s);
	fsk_unregister();
	fgraph_stacks_reap_sync();
	KUNIT_EXPECT_NULL(test, current->ret_stack);
}

/*
 * A CPU whose idle task has no stack, as one that came up while no user
 * was registered: the next user gives it one.
 */
static void fsk_idle_later_test(struct kunit *test)
{
	int cpu, ret = -EBUSY;

	/* Not under cpus_read_lock(): ftrace_lock nests outside it. */
	for_each_online_cpu(cpu) {
		ret = fgraph_stacks_forget_idle(cpu);
		if (!ret)
			break;
	}
	if (ret)
		kunit_skip(test, "every idle task is inside a hooked call");
	KUNIT_EXPECT_NULL(test, idle_task(cpu)->ret_stack);

	KUNIT_ASSERT_EQ(test, fsk_register(test), 0);
	KUNIT_EXPECT_NOT_NULL(test, idle_task(cpu)->ret_stack);
	fsk_unregister();
	fgraph_stacks_reap_sync();
	KUNIT_EXPECT_NOT_NULL(test, idle_task(cpu)->ret_stack);
}

/*
 * A CPU that goes offline leaves its idle task inside
 * arch_cpu_idle_dead(), which never returns; the CPU comes back on a
 * fresh stack, and the idle task's shadow stack must be empty again,
 * its user's variable cleared, or each cycle leaves a frame until
 * there is no room.
 */
static void fsk_idle_offline_test(struct kunit *test)
{
	char glob[] = "arch_cpu_idle_dead";
	unsigned int cpu = cpumask_last(cpu_online_mask);
	struct task_struct *idle;
	unsigned long var;
	int depth, i;

	if (!IS_ENABLED(CONFIG_HOTPLUG_CPU) || !cpu)
		kunit_skip(test, "no CPU to take offline");
	atomic_set(&fsk_entries, 0);
	KUNIT_ASSERT_EQ(test, ftrace_set_filter(&fsk_gops.ops, glob,
						strlen(glob), 1), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_graph(&fsk_gops), 0);
	for (i = 0; i < 3 && !remove_cpu(cpu); i++) {
		if (add_cpu(cpu)) {
			KUNIT_FAIL(test, "CPU %u does not come back", cpu);
			break;
		}
		idle = idle_task(cpu);
		KUNIT_EXPECT_NOT_NULL(test, idle->ret_stack);
		if (!idle->ret_stack)
			break;
		depth = READ_ONCE(idle->curr_ret_stack);
		var = READ_ONCE(idle->ret_stack[FGRAPH_VARS + fsk_gops.idx]);
		KUNIT_EXPECT_EQ(test, depth, 0);
		KUNIT_EXPECT_EQ(test, var, 0UL);
	}
	fsk_unregister();
	fgraph_stacks_reap_sync();
	if (!i)
		kunit_skip(test, "CPU %u cannot go offline", cpu);
	/* The hook saw the CPU go: a stale frame was there to find. */
	KUNIT_EXPECT_EQ(test, atomic_read(&fsk_entries), i);
}

/* While active, the first stack is allocated and every later one fails. */
static atomic_t fsk_allocs;

static unsigned long *fsk_alloc_once(void)
{
	struct kunit *test = kunit_get_current_test();
	unsigned long *stack;

	if (atomic_inc_return(&fsk_allocs) > 1)
		return NULL;
	kunit_deactivate_static_stub(test, fgraph_stack_alloc);
	stack = fgraph_stack_alloc();
	kunit_activate_static_stub(test, fgraph_stack_alloc, fsk_alloc_once);
	return stack;
}

/*
 * A first user for whose stacks memory runs out: -ENOMEM, nothing of it
 * registered, the stack it got taken back; the next user registers.
 */
static void fsk_nomem_test(struct kunit *test)
{
	struct fsk_sleeper s;

	atomic_set(&fsk_allocs, 0);
	kunit_activate_static_stub(test, fgraph_stack_alloc, fsk_alloc_once);
	KUNIT_EXPECT_EQ(test, fsk_register(test), -ENOMEM);
	kunit_deactivate_static_stub(test, fgraph_stack_alloc);
	KUNIT_EXPECT_GE(test, atomic_read(&fsk_allocs), 2);
	ftrace_free_filter(&fsk_gops.ops);

	/* Nothing hooked: the sleeper enters unseen. */
	fsk_start_sleeper(test, &s);
	KUNIT_EXPECT_EQ(test, atomic_read(&fsk_entries), 0);
	fsk_end_sleeper(&s);
	fgraph_stacks_reap_sync();
	KUNIT_EXPECT_NULL(test, current->ret_stack);
	fsk_expect_nr(test, 0);

	KUNIT_ASSERT_EQ(test, fsk_register(test), 0);
	KUNIT_EXPECT_EQ(test, fsk_tasks_without(), 0);
	fsk_unregister();
	fgraph_stacks_reap_sync();
}

struct fsk_caller {
	struct fsk_sleeper s;		/* fsk_tracee() returns at once */
	struct completion ready;	/* it is about to wait for a call */
	struct completion call;		/* call fsk_tracee() once more */
	struct completion called;	/* it has returned */
};

#define FSK_CALLS	2

static int fsk_caller_fn(void *data)
{
	struct fsk_caller *c = data;
	int i;

	complete(&c->ready);
	for (i = 0; i < FSK_CALLS; i++) {
		wait_for_completion(&c->call);
		fsk_tracee(&c->s);
		complete(&c->called);
	}
	return 0;
}

/* Have the caller call fsk_tracee(); the entries the user saw since. */
static int fsk_call(struct fsk_caller *c)
{
	int before = atomic_read(&fsk_entries);

	complete(&c->call);
	wait_for_completion(&c->called);
	return atomic_read(&fsk_entries) - before;
}

/*
 * A second user hooks queue_delayed_work_on(), which the request for a
 * stack calls from an irq_work, maybe on behalf of the task without one,
 * which then misses that call too: one request per pass all the same,
 * not one per irq_work that a miss of it would raise again.
 */
static int fsk_decline(struct ftrace_graph_ent *trace,
		       struct fgraph_ops *gops, struct ftrace_regs *fregs)
{
	return 0;
}

static void fsk_queue_return(struct ftrace_graph_ret *trace,
			     struct fgraph_ops *gops,
			     struct ftrace_regs *fregs)
{
}

static struct fgraph_ops fsk_queue_gops = {
	.entryfunc = fsk_decline,
	.retfunc = fsk_queue_return,
};

static int fsk_register_queue(void)
{
	char glob[] = "queue_delayed_work_on";
	int ret;

	ret = ftrace_set_filter(&fsk_queue_gops.ops, glob, strlen(glob), 1);
	if (ret)
		return ret;
	return register_ftrace_graph(&fsk_queue_gops);
}

/*
 * A task without a stack while a user is registered, as one whose fork
 * read no user yet and was listed after the first user's walk: its
 * first hooked call is missed, and asks for the stack the second uses.
 */
static void fsk_stackless_test(struct kunit *test)
{
	unsigned long requests;
	struct fsk_caller c;
	struct task_struct *t;

	init_completion(&c.s.entered);
	init_completion(&c.s.leave);
	complete_all(&c.s.leave);
	init_completion(&c.ready);
	init_completion(&c.call);
	init_completion(&c.called);
	KUNIT_ASSERT_EQ(test, fsk_register(test), 0);
	t = kthread_run(fsk_caller_fn, &c, "fsk_caller");
	if (IS_ERR(t)) {
		fsk_unregister();
		KUNIT_FAIL(test, "no caller thread: %ld", PTR_ERR(t));
		return;
	}
	get_task_struct(t);
	KUNIT_EXPECT_EQ(test, fsk_register_queue(), 0);

	/*
	 * Off its CPU, asleep for the first call: no interrupt of it may
	 * load the stack while it is taken away.
	 */
	wait_for_completion(&c.ready);
	while (!wait_task_inactive(t, TASK_UNINTERRUPTIBLE))
		schedule_timeout_uninterruptible(1);
	/*
	 * A pass asked for earlier (another task's missed call) would give
	 * the stack back before the call: let it run first.
	 */
	fgraph_stacks_mend_sync();
	KUNIT_EXPECT_EQ(test, fgraph_stacks_forget_task(t), 0);
	KUNIT_EXPECT_NULL(test, t->ret_stack);
	fgraph_stacks_mend_sync();
	requests = fgraph_stacks_mend_requests();
	KUNIT_EXPECT_EQ(test, fsk_call(&c), 0);
	fgraph_stacks_mend_sync();
	KUNIT_EXPECT_EQ(test, fgraph_stacks_mend_requests(), requests + 1);
	unregister_ftrace_graph(&fsk_queue_gops);
	ftrace_free_filter(&fsk_queue_gops.ops);
	KUNIT_EXPECT_NOT_NULL(test, t->ret_stack);
	KUNIT_EXPECT_EQ(test, fsk_tasks_without(), 0);
	/* The caller ends after this call: not listed any more. */
	KUNIT_EXPECT_EQ(test, fsk_call(&c), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&fsk_returns), 1);

	kthread_stop(t);
	put_task_struct(t);
	fsk_unregister();
	fgraph_stacks_reap_sync();
	fsk_expect_nr(test, 0);
}

static struct kunit_case fsk_cases[] = {
	KUNIT_CASE_SLOW(fsk_every_task_test),
	KUNIT_CASE_SLOW(fsk_taken_back_test),
	KUNIT_CASE_SLOW(fsk_back_again_test),
	KUNIT_CASE_SLOW(fsk_idle_later_test),
	KUNIT_CASE_SLOW(fsk_idle_offline_test),
	KUNIT_CASE_SLOW(fsk_nomem_test),
	KUNIT_CASE_SLOW(fsk_stackless_test),
	{}
};

static struct kunit_suite fsk_suite = {
	.name = "fgraph_stacks",
	.test_cases = fsk_cases,
};

kunit_test_suite(fsk_suite);

MODULE_DESCRIPTION("KUnit tests for the function graph's shadow stacks");
MODULE_LICENSE("GPL");
