// SPDX-License-Identifier: GPL-2.0
/*
 * The function graph's users: up to FGRAPH_SLOTS fgraph_ops at once,
 * each in a slot, each hooking the functions of its own ftrace_ops (a
 * subops of graph_ops, whose sets the core derives from theirs).
 *
 * ftrace_lock serialises registering and unregistering.  The entry and
 * return paths (fgraph/calls.c) read the slots without it: a user is
 * published in its slot before any site hooks for it, and unregistering
 * empties the slot, unhooks the user's sites, then waits for every CPU
 * to leave the paths, so that the caller may free the user at once.
 *
 * While one user is registered, every call that reaches the graph is
 * one it selected; with more, each user's sets are tested per call
 * (fgraph_test_filters), and a user that follows a pid filter is tested
 * against it per call in either case.
 */
#include <linux/ftrace.h>
#include <linux/suspend.h>

#include <trace/events/sched.h>

#include "../internal.h"
#include "../../trace.h"
#include "fgraph.h"

struct fgraph_ops *fgraph_slots[FGRAPH_SLOTS];
unsigned long fgraph_slot_epoch[FGRAPH_SLOTS];
unsigned long fgraph_epoch;
unsigned long fgraph_slots_used;
bool fgraph_test_filters;
unsigned long fgraph_pid_slots;
struct fgraph_ops *fgraph_sole;
unsigned long fgraph_sole_slots;
unsigned long fgraph_sole_epoch;
DEFINE_STATIC_CALL(fgraph_sole_entry, ftrace_graph_entry_stub);
DEFINE_STATIC_CALL(fgraph_sole_return, ftrace_stub_graph);
DEFINE_STATIC_CALL_RET0(fgraph_sole_declines, *fgraph_sole->declinefunc);
DEFINE_STATIC_KEY_FALSE(fgraph_sole_may_decline);
static const int fgraph_ask_always = 1;
const int *fgraph_sole_decline_when = &fgraph_ask_always;

/* The number of users registered; the graph caller is live while > 0. */
int ftrace_graph_active;

DEFINE_STATIC_KEY_FALSE(kill_ftrace_graph);

/* Whether a call's time includes the time its task slept. */
static bool fgraph_sleep_time = true;

/*
 * Read by the mcount code of arches that have no graph ops (x86 has
 * one): the entry stub that declines every call, and the return stub
 * (ftrace_stub under another name, given by the linker script).
 */
trace_func_graph_ret_t ftrace_graph_return = ftrace_stub_graph;
trace_func_graph_ent_t ftrace_graph_entry = ftrace_graph_entry_stub;

/*
 * The manager of the users' ops.  Its function is the arch's entry; an
 * arch may give it a caller of its own for the sites only it takes.
 */
static struct ftrace_ops graph_ops = {
	.flags		= FTRACE_OPS_GRAPH_STUB,
#ifdef FTRACE_GRAPH_TRAMP_ADDR
	.trampoline	= FTRACE_GRAPH_TRAMP_ADDR,
#endif
	.func		= ftrace_graph_func,
};

/**
 * ftrace_graph_entry_stub - the entry callback that declines every call
 * @trace: the call
 * @gops: the user
 * @fregs: the call's registers
 *
 * Return: 0.
 */
int ftrace_graph_entry_stub(struct ftrace_graph_ent *trace,
			    struct fgraph_ops *gops, struct ftrace_regs *fregs)
{
	return 0;
}

#ifdef CONFIG_DYNAMIC_FTRACE
/* Arches whose graph caller must be patched in and out override these. */
int __weak ftrace_enable_ftrace_graph_caller(void)
{
	return 0;
}

int __weak ftrace_disable_ftrace_graph_caller(void)
{
	return 0;
}
#endif

/**
 * ftrace_graph_stop - stop the function graph for good
 *
 * For a fatal error in the graph: entries are no longer hooked (a call
 * already hooked still returns through its frame).
 */
void ftrace_graph_stop(void)
{
	static_branch_enable(&kill_ftrace_graph);
}

/**
 * fgraph_pid_allows - does @gops' pid filter let the current task in?
 * @gops: a registered user that follows a trace array (ops.private)
 *
 * For the entry path, preemption off.
 *
 * Return: true if the trace array traces the current task's calls.
 */
bool fgraph_pid_allows(struct fgraph_ops *gops)
{
	struct trace_array *tr = gops->ops.private;
	int pid;

	/* fgraph_pid_slots may lag behind a filter that was just emptied. */
	if (!ftrace_pids_enabled(&gops->ops))
		return true;
	pid = this_cpu_read(tr->array_buffer.data->ftrace_ignore_pid);
	if (pid == FTRACE_PID_IGNORE)
		return false;
	return pid == FTRACE_PID_TRACE || pid == current->pid;
}

/* Does @gops follow a pid filter that holds pids now? */
static bool fgraph_follows_pids(struct fgraph_ops *gops)
{
	return gops->ops.private && ftrace_pids_enabled(&gops->ops);
}

/**
 * fgraph_update_pid_func - follow a change of the pid filters
 *
 * Called with ftrace_lock held when set_ftrace_pid or
 * set_ftrace_notrace_pid of some instance changed: the paths test the
 * pid filter of exactly the users in fgraph_pid_slots.
 */
void fgraph_update_pid_func(void)
{
	unsigned long slots = 0;
	int i;

	lockdep_assert_held(&ftrace_lock);
	for (i = 0; i < FGRAPH_SLOTS; i++)
		if (fgraph_slots[i] && fgraph_follows_pids(fgraph_slots[i]))
			slots |= BIT(i);
	WRITE_ONCE(fgraph_pid_slots, slots);
}

/**
 * fgraph_init_ops - make an fgraph_ops' ftrace_ops follow a trace array's
 * @dst_ops: the fgraph_ops' ops
 * @src_ops: the trace array's ops, whose sets and private data it shares;
 *	or NULL for an ops of its own
 */
void fgraph_init_ops(struct ftrace_ops *dst_ops, struct ftrace_ops *src_ops)
{
	dst_ops->flags = FTRACE_OPS_FL_PID | FTRACE_OPS_GRAPH_STUB;
#ifdef CONFIG_DYNAMIC_FTRACE
	if (!src_ops)
		return;
	/* The trace array's set_ftrace_filter and notrace are its own. */
	dst_ops->private = src_ops->private;
	dst_ops->func_hash = &src_ops->local_hash;
	INIT_LIST_HEAD(&dst_ops->subop_list);
	mutex_init(&dst_ops->local_hash.regex_lock);
	dst_ops->flags |= FTRACE_OPS_FL_INITIALIZED;
#endif
}

/**
 * ftrace_graph_sleep_time_control - count sleep in a call's time or not
 * @enable: true to count it (the default)
 */
void ftrace_graph_sleep_time_control(bool enable)
{
	WRITE_ONCE(fgraph_sleep_time, enable);
}

/* Without sleep-time, a task's sleep is taken out of its calls' times. */
static void fgraph_sched_switch(void *ignore, bool preempt,
				struct task_struct *prev,
				struct task_struct *next,
				unsigned int prev_state)
{
	u64 now;

	if (READ_ONCE(fgraph_sleep_time))
		return;
	now = fgraph_clock();
	prev->ftrace_timestamp = now;
	if (next->ftrace_timestamp)
		fgraph_frames_add_sleep(next, now - next->ftrace_timestamp);
}

/* Hibernation: the tasks' state is not to be trusted; hook nothing. */
static int fgraph_pm_notify(struct notifier_block *nb, unsigned long state,
			    void *unused)
{
	if (state == PM_HIBERNATION_PREPARE)
		pause_graph_tracing();
	else if (state == PM_POST_HIBERNATION)
		unpause_graph_tracing();
	return NOTIFY_DONE;
}

static struct notifier_block fgraph_pm_nb = {
	.notifier_call = fgraph_pm_notify,
};

/* Stacks for every task, and the probes, for the first user. */
static int fgraph_first_user(void)
{
	int ret;

	ret = fgraph_stacks_get();
	if (!ret)
		ret = register_trace_sched_switch(fgraph_sched_switch, NULL);
	if (ret) {
		fgraph_stacks_put();
		return ret;
	}
	register_pm_notifier(&fgraph_pm_nb);
	return 0;
}

static void fgraph_last_user_left(void)
{
	unregister_pm_notifier(&fgraph_pm_nb);
	unregister_trace_sched_switch(fgraph_sched_switch, NULL);
	fgraph_stacks_put();
}

static int fgraph_slot_of(struct fgraph_ops *gops)
{
	int i;

	for (i = 0; i < FGRAPH_SLOTS; i++)
		if (fgraph_slots[i] == gops)
			return i;
	return -1;
}

/*
 * Empty @slot, and wait until no CPU is in an entry or return path that
 * may still call its user.
 */
static void fgraph_vacate(int slot)
{
	if (fgraph_sole == fgraph_slots[slot])
		WRITE_ONCE(fgraph_sole, NULL);
	WRITE_ONCE(fgraph_slots[slot], NULL);
	WRITE_ONCE(fgraph_pid_slots, fgraph_pid_slots & ~BIT(slot));
	clear_bit(slot, &fgraph_slots_used);
	synchronize_rcu_tasks_rude();
}

/* Put @gops in a free slot, with variables and an epoch of its own. */
static int fgraph_take_slot(struct fgraph_ops *gops)
{
	int slot = find_first_zero_bit(&fgraph_slots_used, FGRAPH_SLOTS);

	if (slot >= FGRAPH_SLOTS)
		return -ENOSPC;
	/*
	 * A second user: each is tested from now on, and none is called
	 * straight, before it is seen.  The one user may have had its
	 * filter tested already (fgraph_one_user()).
	 */
	if (fgraph_slots_used && (fgraph_sole || !fgraph_test_filters)) {
		WRITE_ONCE(fgraph_sole, NULL);
		WRITE_ONCE(fgraph_test_filters, true);
		synchronize_rcu_tasks_rude();
	}
	fgraph_stacks_clear_word(FGRAPH_VARS + slot);
	gops->idx = slot;
	WRITE_ONCE(fgraph_epoch, fgraph_epoch + FGRAPH_EPOCH_STEP);
	WRITE_ONCE(fgraph_slot_epoch[slot], fgraph_epoch);
	set_bit(slot, &fgraph_slots_used);
	if (fgraph_follows_pids(gops))
		WRITE_ONCE(fgraph_pid_slots, fgraph_pid_slots | BIT(slot));
	/* Pairs with fgraph_slot_user(): the epoch is seen with the user. */
	smp_store_release(&fgraph_slots[slot], gops);
	return slot;
}

/*
 * Make the one user, if only one is registered, fgraph_sole.  Its static
 * calls may be retargeted: fgraph_sole is NULL, and a wait for the paths
 * followed the last time it changed (fgraph_vacate(), fgraph_take_slot()).
 */
static void fgraph_elect_sole(void)
{
	struct fgraph_ops *gops;

	if (fgraph_sole || hweight_long(fgraph_slots_used) != 1)
		return;
	gops = fgraph_slots[__ffs(fgraph_slots_used)];
	static_call_update(fgraph_sole_entry, gops->entryfunc);
	static_call_update(fgraph_sole_return, gops->retfunc);
	if (gops->declinefunc) {
		WRITE_ONCE(fgraph_sole_decline_when,
			   gops->decline_when ?: &fgraph_ask_always);
		static_call_update(fgraph_sole_declines, gops->declinefunc);
		static_branch_enable(&fgraph_sole_may_decline);
	} else {
		static_branch_disable(&fgraph_sole_may_decline);
		WRITE_ONCE(fgraph_sole_decline_when, &fgraph_ask_always);
		static_call_update(fgraph_sole_declines,
				   (void *)__static_call_return0);
	}
	WRITE_ONCE(fgraph_sole_slots, fgraph_slots_used);
	WRITE_ONCE(fgraph_sole_epoch, fgraph_slot_epoch[gops->idx]);
	/* Pairs with fgraph_sole_user(): the calls lead to it once seen. */
	smp_store_release(&fgraph_sole, gops);
}

/*
 * One user is registered: its filter need not be tested on each call
 * while the graph's ops hooks only its functions, which a change of the
 * sets that failed half-way may not have left (the ops keeps more).  An
 * arch whose graph caller runs for every traced function, the other
 * ops' too (FGRAPH_NO_DIRECT), has it tested always.
 */
static void fgraph_one_user(void)
{
	WRITE_ONCE(fgraph_test_filters,
		   FGRAPH_NO_DIRECT || !ftrace_subops_exact(&graph_ops));
	fgraph_elect_sole();
}

/**
 * register_ftrace_graph - start calling an fgraph_ops' callbacks
 * @gops: the user, with its entryfunc and retfunc set, and its ops'
 *	filter if it wants only some functions
 *
 * Return: 0; -EBUSY if @gops is registered already; -ENOSPC if all
 * FGRAPH_SLOTS slots are taken; or the error of starting its ops, in
 * which case nothing of it is left.
 */
int register_ftrace_graph(struct fgraph_ops *gops)
{
	int slot, ret, command = 0;

	guard(mutex)(&ftrace_lock);
	if (fgraph_slot_of(gops) >= 0)
		return -EBUSY;
	if (find_first_zero_bit(&fgraph_slots_used, FGRAPH_SLOTS) >= FGRAPH_SLOTS)
		return -ENOSPC;
	if (!ftrace_graph_active++) {
		ret = fgraph_first_user();
		if (ret)
			goto out_active;
		command = FTRACE_START_FUNC_RET;
	}
	slot = fgraph_take_slot(gops);
	ret = ftrace_startup_subops(&graph_ops, &gops->ops, command);
	if (!ret) {
		if (ftrace_graph_active == 1)
			fgraph_one_user();
		return 0;
	}
	fgraph_vacate(slot);
	if (ftrace_graph_active == 2)
		fgraph_one_user();
	if (ftrace_graph_active == 1)
		fgraph_last_user_left();
out_active:
	ftrace_graph_active--;
	return ret;
}

/**
 * unregister_ftrace_graph - stop calling an fgraph_ops' callbacks
 * @gops: a user registered with register_ftrace_graph(); anything else
 *	is ignored
 *
 * Once this returns, neither callback of @gops runs again and it may be
 * freed.  Calls it took that are still running return through their
 * real return addresses without calling it.
 */
void unregister_ftrace_graph(struct fgraph_ops *gops)
{
	int slot, command = 0;

	guard(mutex)(&ftrace_lock);
	slot = fgraph_slot_of(gops);
	if (slot < 0)
		return;
	if (ftrace_graph_active == 1)
		command = FTRACE_STOP_FUNC_RET;
	ftrace_shutdown_subops(&graph_ops, &gops->ops, command);
	fgraph_vacate(slot);
	if (--ftrace_graph_active == 1)
		fgraph_one_user();
	if (!ftrace_graph_active)
		fgraph_last_user_left();
}
