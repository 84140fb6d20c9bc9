// SPDX-License-Identifier: GPL-2.0
/*
 * The function graph's shadow stacks: one page per task, where the
 * graph hooks keep the return addresses they replaced and what their
 * users store per call.
 *
 * While a graph user is registered (ftrace_graph_active), or a hook
 * outside the graph that pushes frames of its own (fgraph_frames_get()),
 * every task has a stack: the tasks that exist get one when the first user
 * registers, a task that is forked gets one at fork, and the idle task
 * of a CPU gets one when the CPU comes online, emptied before the CPU
 * starts (an idle task that went offline left frames it never returns
 * to).  A task that slipped through (forked while the first user
 * registered, or short of memory) gets one after its first hooked call.
 * A task's stack is freed with the task.  When the last user has left,
 * the stacks are taken back from the tasks that have returned
 * from every hooked call, and the others are retried until they have;
 * the idle tasks keep theirs, one per CPU, for the next user.  (A task
 * whose fork began before the last user left and ended after a pass had
 * walked the tasks keeps its empty stack until it exits or the next
 * user leaves.)
 *
 * A task reads its own ->ret_stack without a lock, in its entry and
 * return paths.  Giving a stack publishes it with release semantics
 * after the task's stack fields are reset.  Taking one back happens
 * only while no user is registered, when no entry path can start, and
 * only from a task whose stack is empty, which no return path needs;
 * the stack is freed after grace periods that no task or CPU passes
 * inside those paths.  ftrace_lock orders giving with taking back.
 */
#include <kunit/static_stub.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/ftrace.h>
#include <linux/irq_work.h>
#include <linux/rcupdate.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "../internal.h"
#include "../../trace.h"
#include "fgraph.h"

/* The idle tasks' stacks: given once per CPU and never taken back. */
static DEFINE_PER_CPU(unsigned long *, fgs_idle_stack);

/* Stacks allocated and not freed, and how many of them are idle ones. */
static atomic_long_t fgs_nr_stacks;
static atomic_long_t fgs_nr_idle;

/*
 * How long a pass that left stacks in use waits before the next one: it
 * doubles from the first to the last, since a task may keep its stack for
 * long (a kthread asleep in a hooked call), and each pass waits for grace
 * periods that wake every CPU.
 */
#define FGS_RETRY_FIRST		(HZ / 2)
#define FGS_RETRY_LAST		(64 * HZ)
static unsigned long fgs_retry_delay = FGS_RETRY_FIRST;

/*
 * Calls of fgraph_stacks_put() so far (written under ftrace_lock), and
 * the last of them whose entry paths the reaper has waited for (the
 * reaper's own: a work never runs twice at once).
 */
static unsigned long fgs_puts, fgs_puts_waited;

static void fgs_reap_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(fgs_reap_work, fgs_reap_fn);

/* The hooks outside the graph that push frames; under ftrace_lock. */
static int fgs_frame_users;

/* Should every task have a stack? */
static bool fgs_wanted(void)
{
	return READ_ONCE(ftrace_graph_active) || READ_ONCE(fgs_frame_users);
}

/* A stack, counted; KUnit may make it fail (fgraph_stacks_kunit.c). */
unsigned long *fgraph_stack_alloc(void)
{
	unsigned long *stack;

	KUNIT_STATIC_STUB_REDIRECT(fgraph_stack_alloc);
	stack = kzalloc(SHADOW_STACK_SIZE, GFP_KERNEL);

	if (stack)
		atomic_long_inc(&fgs_nr_stacks);
	return stack;
}

static void fgs_free(unsigned long *stack)
{
	if (!stack)
		return;
	atomic_long_dec(&fgs_nr_stacks);
	kfree(stack);
}

/* Give @t the empty @stack; @t's entry path may use it from the store on. */
static void fgs_give(struct task_struct *t, unsigned long *stack)
{
	atomic_set(&t->trace_overrun, 0);
	t->ftrace_timestamp = 0;
	t->curr_ret_stack = 0;
	t->curr_ret_depth = -1;
	/* Pairs with the entry path's acquire: the fields are reset first. */
	smp_store_release(&t->ret_stack, stack);
}

/**
 * ftrace_graph_init_idle_task - give a CPU's idle task its shadow stack
 * @t: the idle task of @cpu
 * @cpu: a CPU being brought up
 *
 * Called when @cpu's idle task is set up.  The idle task keeps the stack
 * it had, or gets the CPU's stack if a graph user is registered.
 */
void ftrace_graph_init_idle_task(struct task_struct *t, int cpu)
{
	unsigned long *stack = per_cpu(fgs_idle_stack, cpu);

	t->curr_ret_stack = 0;
	t->curr_ret_depth = -1;
	/* An idle task has no parent to inherit a stack from. */
	WARN_ON_ONCE(t->ret_stack && t->ret_stack != stack);
	if (!fgs_wanted())
		return;
	if (!stack) {
		stack = fgraph_stack_alloc();
		if (!stack)
			return;
		atomic_long_inc(&fgs_nr_idle);
		per_cpu(fgs_idle_stack, cpu) = stack;
	}
	fgs_give(t, stack);
}

/**
 * ftrace_graph_init_task - give a task that is being forked its stack
 * @t: the new task, not yet visible to others
 *
 * @t was copied from its parent, stack pointer included: it starts with
 * none, and gets its own if a graph user is registered.
 */
void ftrace_graph_init_task(struct task_struct *t)
{
	unsigned long *stack;

	t->ret_stack = NULL;
	t->curr_ret_stack = 0;
	t->curr_ret_depth = -1;
	if (!fgs_wanted())
		return;
	stack = fgraph_stack_alloc();
	if (stack)
		fgs_give(t, stack);
}

/**
 * ftrace_graph_exit_task - free the stack of a task that is being freed
 * @t: the task; it runs no more and no task list holds it
 */
void ftrace_graph_exit_task(struct task_struct *t)
{
	unsigned long *stack = t->ret_stack;

	t->ret_stack = NULL;
	/* An interrupt of @t's last moments must see NULL, not freed memory. */
	barrier();
	fgs_free(stack);
}

/*
 * Before @cpu comes up (on the CPU that brings it up): empty its idle
 * task's stack.  When the CPU went offline its idle task stopped inside
 * calls that never return, arch_cpu_idle_dead() and the
 * cpu_startup_entry() it was brought up in, and it starts again from
 * the top of a fresh kernel stack: their frames would stay for good,
 * more at each offline, until the stack had no room.  The users'
 * variables go too: they describe those calls (a notrace function the
 * task never left, say).  A dead CPU that was slow to halt may still
 * push a frame after this; the next offline clears it.
 */
static int fgs_cpu_prepare(unsigned int cpu)
{
	struct task_struct *idle = idle_task(cpu);
	unsigned long *stack = idle->ret_stack;
	int i;

	idle->curr_ret_depth = -1;
	WRITE_ONCE(idle->curr_ret_stack, 0);
	for (i = 0; stack && i < FGRAPH_SLOTS; i++)
		WRITE_ONCE(stack[FGRAPH_VARS + i], 0);
	return 0;
}

static int fgs_cpu_online(unsigned int cpu)
{
	struct task_struct *idle = idle_task(cpu);

	if (!idle->ret_stack)
		ftrace_graph_init_idle_task(idle, cpu);
	return 0;
}

/*
 * The idle tasks: of the CPUs online now, and of those to come.  Once
 * the hotplug state is set, the online CPUs are still walked: one that
 * came up while no user was registered, or whose stack could not be
 * allocated then, has none yet.
 */
static int fgs_give_idle(void)
{
	static bool fgs_hotplug_set;
	unsigned int cpu;
	int prepare, ret;

	if (fgs_hotplug_set) {
		cpus_read_lock();
		for_each_online_cpu(cpu)
			fgs_cpu_online(cpu);
		cpus_read_unlock();
		return 0;
	}
	prepare = cpuhp_setup_state_nocalls(CPUHP_BP_PREPARE_DYN,
					    "fgraph:prepare", fgs_cpu_prepare,
					    NULL);
	if (prepare < 0)
		return prepare;
	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "fgraph:online",
				fgs_cpu_online, NULL);
	if (ret < 0) {
		cpuhp_remove_state_nocalls(prepare);
		return ret;
	}
	fgs_hotplug_set = true;
	return 0;
}

/*
 * Give a stack to each task that has none, from @pool (@nr stacks);
 * *@used says how many went.  Return true if tasks are left without.
 */
static bool fgs_give_from(unsigned long **pool, int nr, int *used)
{
	struct task_struct *g, *t;
	bool more = false;

	*used = 0;
	rcu_read_lock();
	for_each_process_thread(g, t) {
		if (t->ret_stack)
			continue;
		if (*used == nr) {
			more = true;
			break;
		}
		fgs_give(t, pool[(*used)++]);
	}
	rcu_read_unlock();
	return more;
}

/* Stacks are allocated a batch at a time, outside the RCU walk. */
static int fgs_give_tasks(void)
{
	unsigned long *pool[FTRACE_RETSTACK_ALLOC_SIZE];
	int nr, used, i;
	bool more;

	do {
		for (nr = 0; nr < FTRACE_RETSTACK_ALLOC_SIZE; nr++) {
			pool[nr] = fgraph_stack_alloc();
			if (!pool[nr])
				break;
		}
		more = fgs_give_from(pool, nr, &used);
		for (i = used; i < nr; i++)
			fgs_free(pool[i]);
		if (more && nr < FTRACE_RETSTACK_ALLOC_SIZE)
			return -ENOMEM;
	} while (more);
	return 0;
}

/**
 * fgraph_stacks_clear_word - zero one word of every stack
 * @word: its index
 *
 * Called with ftrace_lock held before a user is published in a slot:
 * its task variables start at 0, in the stacks that are kept between
 * users too (the idle tasks', and those of tasks still in hooked calls).
 */
void fgraph_stacks_clear_word(int word)
{
	struct task_struct *g, *t;
	unsigned long *stack;
	int cpu;

	lockdep_assert_held(&ftrace_lock);
	for_each_possible_cpu(cpu) {
		stack = per_cpu(fgs_idle_stack, cpu);
		if (stack)
			WRITE_ONCE(stack[word], 0);
	}
	rcu_read_lock();
	for_each_process_thread(g, t) {
		stack = READ_ONCE(t->ret_stack);
		if (stack)
			WRITE_ONCE(stack[word], 0);
	}
	rcu_read_unlock();
}

/**
 * fgraph_stacks_get - give every task a shadow stack, for the first user
 *
 * Called with ftrace_lock held when the first graph user registers, and
 * while users are registered by the pass for tasks that slipped through;
 * a task that has a stack keeps it.  If the first user fails, the stacks
 * already given are taken back by fgraph_stacks_put().
 *
 * Return: 0, or a negative errno.
 */
int fgraph_stacks_get(void)
{
	int ret;

	lockdep_assert_held(&ftrace_lock);
	/* A pass that runs now finds a user and stops. */
	cancel_delayed_work(&fgs_reap_work);
	ret = fgs_give_idle();
	if (ret)
		return ret;
	return fgs_give_tasks();
}

/*
 * A task may call a hooked function with no stack while a user is
 * registered: its fork read ftrace_graph_active before the first user
 * set it and listed the task after fgraph_stacks_get() had walked past,
 * or there was no memory for its stack then.  Its entry path asks for a
 * pass that gives one to every task without (fgraph_stacks_missing()),
 * so that it misses its first hooked calls and not all of them.  A pass
 * holds ftrace_lock, as the reaper does, and gives stacks only while a
 * user is registered.
 *
 * One request stands for all until a pass begins (fgs_mend_wanted): the
 * irq_work and the work it queues run hooked code too, maybe for the
 * same task, which must not queue them again.  Passes are at least
 * FGS_MEND_GAP apart, a second after one short of memory, since a task
 * may stay without a stack for good (one that exits unlisted, say).
 */
#define FGS_MEND_GAP	(HZ / 10)
#define FGS_MEND_RETRY	HZ
static unsigned long fgs_mend_wanted;
/* Requests that queued a pass, for KUnit: one at a time (fgs_mend_wanted). */
static unsigned long fgs_mend_requests;
static unsigned long fgs_mend_after;	/* jiffies: no pass before */

static void fgs_mend_fn(struct work_struct *work)
{
	int ret = 0;

	/* Set first: a request made as the flag clears waits the gap. */
	WRITE_ONCE(fgs_mend_after, jiffies + FGS_MEND_GAP);
	/* Full barrier: a task the walk misses asks again, and is heard. */
	xchg(&fgs_mend_wanted, 0);
	mutex_lock(&ftrace_lock);
	if (fgs_wanted())
		ret = fgraph_stacks_get();
	mutex_unlock(&ftrace_lock);
	if (ret)
		WRITE_ONCE(fgs_mend_after, jiffies + FGS_MEND_RETRY);
}

static DECLARE_DELAYED_WORK(fgs_mend_work, fgs_mend_fn);

static void fgs_mend_queue(struct irq_work *work)
{
	long delay = (long)(READ_ONCE(fgs_mend_after) - jiffies);

	queue_delayed_work(system_unbound_wq, &fgs_mend_work, max(delay, 0L));
}

/* Hard: on PREEMPT_RT a lazy one waits for a thread parked on CPU down. */
static struct irq_work fgs_mend_irq_work = IRQ_WORK_INIT_HARD(fgs_mend_queue);

/**
 * fgraph_stacks_missing - a hooked call found its task without a stack
 *
 * From the entry path, in any context, preemption off: the first call
 * since the last pass began queues an irq_work that queues the next
 * pass; the others read a flag.  A CPU on its way offline asks nothing:
 * it may have run its last irq_work, and one queued on it would wait
 * until it came back, holding every later request.
 */
void fgraph_stacks_missing(void)
{
	if (!cpu_online(raw_smp_processor_id()) ||
	    READ_ONCE(fgs_mend_wanted) || xchg(&fgs_mend_wanted, 1))
		return;
	fgs_mend_requests++;
	irq_work_queue(&fgs_mend_irq_work);
}

/**
 * fgraph_stacks_put - take the shadow stacks back, after the last user
 *
 * Called with ftrace_lock held once the last graph user has left (or
 * the first failed to register).  The stacks are taken back in the
 * background, each once its task has returned from every hooked call.
 */
void fgraph_stacks_put(void)
{
	lockdep_assert_held(&ftrace_lock);
	WRITE_ONCE(fgs_puts, fgs_puts + 1);
	WRITE_ONCE(fgs_retry_delay, FGS_RETRY_FIRST);
	mod_delayed_work(system_unbound_wq, &fgs_reap_work, 0);
}

/**
 * fgraph_frames_get - stacks for a hook that pushes frames of its own
 *
 * For a hook outside the graph users that keeps calls' frames on the
 * tasks' stacks (fprobe's exit probes): every task has a stack until the
 * matching fgraph_frames_put(), as while a graph user is registered.
 *
 * Return: 0, or a negative errno.
 */
int fgraph_frames_get(void)
{
	int ret = 0;

	guard(mutex)(&ftrace_lock);
	if (!fgs_wanted())
		ret = fgraph_stacks_get();
	if (ret) {
		fgraph_stacks_put();
		return ret;
	}
	WRITE_ONCE(fgs_frame_users, fgs_frame_users + 1);
	return 0;
}

/* The hook of a fgraph_frames_get() is gone: stacks may be taken back. */
void fgraph_frames_put(void)
{
	guard(mutex)(&ftrace_lock);
	WRITE_ONCE(fgs_frame_users, fgs_frame_users - 1);
	if (!fgs_wanted())
		fgraph_stacks_put();
}

/* At most this many stacks are taken back in one pass. */
#define FGS_REAP_MAX	(PAGE_SIZE / sizeof(unsigned long *))

/*
 * With ftrace_lock held and no user: take back into @list the empty
 * stacks of up to FGS_REAP_MAX tasks; return how many, and count in
 * *@in_use the tasks whose stacks must wait.
 */
static int fgs_take_back(unsigned long **list, int *in_use)
{
	struct task_struct *g, *t;
	int nr = 0;

	*in_use = 0;
	rcu_read_lock();
	for_each_process_thread(g, t) {
		/* Idle tasks, which keep theirs, are not listed. */
		if (!t->ret_stack)
			continue;
		if (READ_ONCE(t->curr_ret_stack) || nr == FGS_REAP_MAX) {
			(*in_use)++;
			continue;
		}
		list[nr++] = t->ret_stack;
		WRITE_ONCE(t->ret_stack, NULL);
	}
	rcu_read_unlock();
	return nr;
}

/* How many times the reaper waited for the paths (for KUnit). */
static unsigned long fgs_path_waits;

/* No task or CPU is still in an entry or return path it began before. */
static void fgs_wait_for_paths(void)
{
	WRITE_ONCE(fgs_path_waits, fgs_path_waits + 1);
	synchronize_rcu_tasks_rude();
	synchronize_rcu_tasks();
}

static void fgs_reap_fn(struct work_struct *work)
{
	unsigned long **list, delay, puts;
	int nr, in_use;
	bool full;

	list = kmalloc_array(FGS_REAP_MAX, sizeof(*list), GFP_KERNEL);
	if (!list)
		goto retry;
	/*
	 * An entry path that began before the last user left has ended:
	 * waited for once per put, not again by the retries.
	 */
	puts = READ_ONCE(fgs_puts);
	if (puts != fgs_puts_waited) {
		fgs_wait_for_paths();
		fgs_puts_waited = puts;
	}
	mutex_lock(&ftrace_lock);
	/* A user came since, and may have left: its put queued a pass. */
	if (fgs_wanted() || fgs_puts != puts) {
		mutex_unlock(&ftrace_lock);
		kfree(list);
		return;
	}
	nr = fgs_take_back(list, &in_use);
	mutex_unlock(&ftrace_lock);

	full = nr == FGS_REAP_MAX;
	if (nr) {
		/* A return path that popped the last frame has left the stack. */
		fgs_wait_for_paths();
		while (nr)
			fgs_free(list[--nr]);
	}
	kfree(list);
	if (full) {
		/* More to take back now: no reason to wait. */
		queue_delayed_work(system_unbound_wq, &fgs_reap_work, 0);
		return;
	}
	if (!in_use)
		return;
retry:
	delay = READ_ONCE(fgs_retry_delay);
	WRITE_ONCE(fgs_retry_delay, min_t(unsigned long, 2 * delay, FGS_RETRY_LAST));
	queue_delayed_work(system_unbound_wq, &fgs_reap_work, delay);
}

long fgraph_stacks_nr(long *idle)
{
	*idle = atomic_long_read(&fgs_nr_idle);
	return atomic_long_read(&fgs_nr_stacks);
}

#if IS_ENABLED(CONFIG_FGRAPH_STACKS_KUNIT_TEST)
void fgraph_stacks_reap_sync(void)
{
	mod_delayed_work(system_unbound_wq, &fgs_reap_work, 0);
	flush_delayed_work(&fgs_reap_work);
}

unsigned long fgraph_stacks_path_waits(void)
{
	return READ_ONCE(fgs_path_waits);
}

unsigned long fgraph_stacks_mend_requests(void)
{
	return READ_ONCE(fgs_mend_requests);
}

void fgraph_stacks_mend_sync(void)
{
	irq_work_sync(&fgs_mend_irq_work);
	flush_delayed_work(&fgs_mend_work);
}

/*
 * Leave @t, which waits outside hooked calls, as a task forked while no
 * user was registered has it: without a stack.  -EBUSY if it is inside
 * one.
 */
int fgraph_stacks_forget_task(struct task_struct *t)
{
	unsigned long *stack;

	guard(mutex)(&ftrace_lock);
	if (READ_ONCE(t->curr_ret_stack))
		return -EBUSY;
	stack = t->ret_stack;
	WRITE_ONCE(t->ret_stack, NULL);
	/* Readers of other tasks' stacks (unwinders) leave it first. */
	synchronize_rcu_tasks_rude();
	synchronize_rcu();
	fgs_free(stack);
	return 0;
}

/*
 * Leave @cpu's idle task as a CPU that came up while no user was
 * registered has it: without a stack.  -EBUSY while a user is
 * registered, or the idle task is inside a hooked call.
 */
int fgraph_stacks_forget_idle(int cpu)
{
	struct task_struct *idle = idle_task(cpu);
	unsigned long *stack;

	guard(mutex)(&ftrace_lock);
	if (fgs_wanted() || READ_ONCE(idle->curr_ret_stack))
		return -EBUSY;
	stack = per_cpu(fgs_idle_stack, cpu);
	WRITE_ONCE(idle->ret_stack, NULL);
	per_cpu(fgs_idle_stack, cpu) = NULL;
	/* Readers of other tasks' stacks (unwinders) leave it first. */
	synchronize_rcu_tasks_rude();
	synchronize_rcu();
	if (stack) {
		atomic_long_dec(&fgs_nr_idle);
		fgs_free(stack);
	}
	return 0;
}
#endif

static int fgs_info_show(struct seq_file *m, void *unused)
{
	long idle, nr = fgraph_stacks_nr(&idle);

	seq_printf(m, "stacks: %ld\n", nr);
	seq_printf(m, "idle: %ld\n", idle);
	seq_printf(m, "bytes: %ld\n", nr * (long)SHADOW_STACK_SIZE);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(fgs_info);

/* tracefs fgraph_stacks: the memory the shadow stacks take now. */
static __init int fgs_tracefs_init(void)
{
	if (tracing_init_dentry())
		return 0;
	trace_create_file("fgraph_stacks", TRACE_MODE_READ, NULL, NULL,
			  &fgs_info_fops);
	return 0;
}
fs_initcall(fgs_tracefs_init);
