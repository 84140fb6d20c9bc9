// SPDX-License-Identifier: GPL-2.0
/*
 * The code update: what starts and stops an ops, and brings the patch
 * sites and ftrace_caller to what the started ops ask for.
 *
 * Starting an ops is three steps: it goes on the list
 * (dispatch.c), it is counted on the sites it selects
 * (accounting.c), and one update patches every site whose call
 * must change (site_calls.c) and points ftrace_caller at the
 * function the list now needs.  Stopping is the same in reverse,
 * followed by a wait until no CPU and no task can still be inside the
 * ops, since its owner may free it as soon as we return.
 *
 * While kernel.ftrace_enabled is off the ops still come and go and are
 * counted, but no site is patched: switches.c calls back here
 * to patch them all when it comes back on.
 *
 * Everything here runs with ftrace_lock held.
 */
#include <linux/ftrace.h>
#include <linux/lockdep.h>
#include <linux/rcupdate.h>
#include <linux/stop_machine.h>

#include "accounting.h"
#include "chains.h"
#include "code_update.h"
#include "dispatch.h"
#include "hash.h"
#include "internal.h"
#include "records.h"
#include "site_calls.h"

/* The ops started and not stopped since; sites are calls while > 0. */
static int fupd_started;

/*
 * What the call in ftrace_caller holds, as this file last wrote it.
 * While kernel.ftrace_enabled is off nothing is written, so coming
 * back on finds any change of ftrace_trace_function still to do.
 */
static ftrace_func_t fupd_caller_holds;

void __weak ftrace_arch_code_modify_prepare(void)
{
}

void __weak ftrace_arch_code_modify_post_process(void)
{
}

/* A failed patch leaves text we cannot vouch for: stop ftrace for good. */
static bool fupd_failed(int err)
{
	if (WARN_ON(err)) {
		ftrace_kill();
		return true;
	}
	return false;
}

/* Point the call in ftrace_caller at @func, unless it is there already. */
static int fupd_point_caller(ftrace_func_t func)
{
	int err;

	if (func == fupd_caller_holds)
		return 0;
	err = ftrace_update_ftrace_func(func);
	if (!err)
		fupd_caller_holds = func;
	return err;
}

/**
 * ftrace_modify_all_code - carry out an update command
 * @command: FTRACE_UPDATE_CALLS or FTRACE_DISABLE_CALLS for the sites,
 *	FTRACE_UPDATE_TRACE_FUNC for ftrace_caller's call,
 *	FTRACE_START_FUNC_RET or FTRACE_STOP_FUNC_RET for the graph
 *	caller, FTRACE_MAY_SLEEP if the caller may be rescheduled
 *
 * Called through arch_ftrace_update_code(), with ftrace_lock held and,
 * unless the arch patches safely under int3, inside stop_machine().
 */
void ftrace_modify_all_code(int command)
{
	bool new_func = command & FTRACE_UPDATE_TRACE_FUNC;
	int mod_flags = 0;

	if (command & FTRACE_MAY_SLEEP)
		mod_flags |= FTRACE_MODIFY_MAY_SLEEP_FL;

	/*
	 * A site may reach ftrace_caller before or after its own patch,
	 * with the old op or the new one.  The list function checks every
	 * ops' sets on each call, so during the switch nothing is called
	 * for a function it does not select.
	 */
	if (new_func && fupd_failed(fupd_point_caller(ftrace_ops_list_func)))
		return;

	if (command & (FTRACE_UPDATE_CALLS | FTRACE_DISABLE_CALLS)) {
		/* UPDATE brings sites to the ops' wishes; DISABLE NOPs all. */
		if (command & FTRACE_UPDATE_CALLS)
			mod_flags |= FTRACE_MODIFY_ENABLE_FL;
		ftrace_replace_code(mod_flags);
	}

	/* Sites settled: the final function may now have ftrace_caller. */
	if (new_func && ftrace_trace_function != ftrace_ops_list_func) {
		fops_publish_trace_op();
		if (fupd_failed(fupd_point_caller(ftrace_trace_function)))
			return;
	}

	if (command & FTRACE_START_FUNC_RET)
		fupd_failed(ftrace_enable_ftrace_graph_caller());
	else if (command & FTRACE_STOP_FUNC_RET)
		fupd_failed(ftrace_disable_ftrace_graph_caller());
}

static int fupd_stopped_machine(void *data)
{
	ftrace_modify_all_code(*(int *)data);
	return 0;
}

/**
 * ftrace_run_stop_machine - carry out an update with every CPU stopped
 * @command: as for ftrace_modify_all_code()
 *
 * For arches that cannot patch text other CPUs may be running.
 */
void ftrace_run_stop_machine(int command)
{
	stop_machine(fupd_stopped_machine, &command, NULL);
}

/**
 * arch_ftrace_update_code - carry out an update the arch's way
 * @command: as for ftrace_modify_all_code()
 *
 * The default stops every CPU.  An arch that patches live text safely
 * overrides it and calls ftrace_modify_all_code() directly.
 */
void __weak arch_ftrace_update_code(int command)
{
	ftrace_run_stop_machine(command);
}

/*
 * Run @command with the chains (chains.c) its sites call built before
 * and the ones none calls any more retired after.
 */
static void fupd_run(int command)
{
	bool sites = command & (FTRACE_UPDATE_CALLS | FTRACE_DISABLE_CALLS);

	if (sites)
		fchain_prepare(command & FTRACE_UPDATE_CALLS);
	ftrace_arch_code_modify_prepare();
	arch_ftrace_update_code(command);
	ftrace_arch_code_modify_post_process();
	if (sites)
		fchain_sweep();
}

/*
 * FTRACE_UPDATE_TRACE_FUNC if ftrace_caller does not hold the function
 * the list needs, else 0.
 */
static int fupd_caller_changes(void)
{
	if (ftrace_trace_function == fupd_caller_holds)
		return 0;
	return FTRACE_UPDATE_TRACE_FUNC;
}

/* Run @command and whatever ftrace_caller needs, if sites are live. */
static void fupd_start_calls(int command)
{
	command |= fupd_caller_changes();
	if (command && ftrace_enabled)
		fupd_run(command);
}

/**
 * ftrace_calls_live - are the sites the started ops select calls?
 *
 * Return: true while some ops is started and kernel.ftrace_enabled is
 * on.  Hold ftrace_lock.
 */
bool ftrace_calls_live(void)
{
	lockdep_assert_held(&ftrace_lock);
	return fupd_started && ftrace_enabled;
}

/**
 * ftrace_startup_all - bring every site to what the ops ask for
 * @command: update commands to run besides the sites'
 *
 * For changes that no one ops' sets say, such as a pid filter that
 * switches each ops' function.  Hold ftrace_lock.
 */
void ftrace_startup_all(int command)
{
	lockdep_assert_held(&ftrace_lock);
	fupd_start_calls(command);
}

/* Undo the part of ftrace_startup() that went before a refused claim. */
static void fupd_unstart(struct ftrace_ops *ops)
{
	__unregister_ftrace_function(ops);
	ops->flags &= ~(FTRACE_OPS_FL_ENABLED | FTRACE_OPS_FL_ADDING);
	if (ops->flags & FTRACE_OPS_FL_DYNAMIC)
		ftramp_free(ops);
}

/**
 * ftrace_startup - start an ops: list it, count it, patch its sites
 * @ops: the ops, initialised and not enabled
 * @command: update commands to run with the sites' (for the graph caller)
 *
 * Hold ftrace_lock.
 *
 * Return: 0; -ENODEV once ftrace is dead; -EBUSY if another IPMODIFY
 * ops holds one of its sites; the errors of __register_ftrace_function().
 */
int ftrace_startup(struct ftrace_ops *ops, int command)
{
	int ret;

	lockdep_assert_held(&ftrace_lock);
	if (unlikely(ftrace_is_dead()))
		return -ENODEV;

	ret = __register_ftrace_function(ops);
	if (ret)
		return ret;

	/*
	 * ADDING until the update is done: the ops is on the list but
	 * no site calls its trampoline yet (see fcall_tramp_held()).
	 */
	ops->flags |= FTRACE_OPS_FL_ENABLED | FTRACE_OPS_FL_ADDING;
	ret = facct_ipmodify_claim(ops);
	if (ret < 0) {
		fupd_unstart(ops);
		return ret;
	}

	fupd_started++;
	if (facct_attach(ops))
		command |= FTRACE_UPDATE_CALLS;
	fupd_start_calls(command);

	/*
	 * The update failed and killed ftrace.  Sites may call anything
	 * now; take @ops off the list so at least no walker meets it, and
	 * free nothing a site might still jump to.
	 */
	if (unlikely(ftrace_is_dead())) {
		__unregister_ftrace_function(ops);
		return -ENODEV;
	}
	ops->flags &= ~FTRACE_OPS_FL_ADDING;
	return 0;
}

/*
 * With no ops left, a record must hold nothing but the flags that
 * outlive ops; anything else means the accounting leaked.
 */
static void fupd_check_idle(void)
{
	struct dyn_ftrace *rec;

	if (fops_first_locked() != &ftrace_list_end)
		return;
	frec_for_each(rec) {
		if (!(rec->flags & ~FCALL_KEPT_FLAGS))
			continue;
		pr_warn("ftrace: %pS still has flags %x with no ops\n",
			(void *)ftrace_rec_ip(rec), rec->flags);
		fupd_failed(-EINVAL);
		return;
	}
}

/* Run the update that takes @ops, already off the list, off its sites. */
static void fupd_take_off(struct ftrace_ops *ops, int command)
{
	/*
	 * Until its sites are patched they may still call @ops'
	 * trampoline: the site calls look for it in fcall_leaving_ops,
	 * by the sets it had.
	 */
	ops->flags |= FTRACE_OPS_FL_REMOVING;
	ops->old_hash.filter_hash = ops->func_hash->filter_hash;
	ops->old_hash.notrace_hash = ops->func_hash->notrace_hash;
	fcall_leaving_ops = ops;

	fupd_run(command);

	fcall_leaving_ops = NULL;
	ops->old_hash.filter_hash = NULL;
	ops->old_hash.notrace_hash = NULL;
	ops->flags &= ~FTRACE_OPS_FL_REMOVING;

	fupd_check_idle();
}

/*
 * The owner of a heap or module ops may free it once we return.
 * Callbacks run with preemption off, some where RCU is not watching,
 * so first every CPU must pass through the scheduler (the rude
 * flavour needs no RCU); and with a preemptible kernel a task may be
 * preempted on the trampoline, so then every task must pass a
 * voluntary switch too.  Only then is the trampoline free to go.
 */
static void fupd_wait_then_free(struct ftrace_ops *ops)
{
	synchronize_rcu_tasks_rude();
	synchronize_rcu_tasks();
	ftramp_free(ops);
}

/**
 * ftrace_shutdown - stop an ops: unlist it, uncount it, patch its sites
 * @ops: the ops, enabled
 * @command: update commands to run with the sites' (for the graph caller)
 *
 * When it returns, no CPU and no task is inside @ops or its trampoline.
 * Hold ftrace_lock.
 *
 * Return: 0; -ENODEV once ftrace is dead; the errors of
 * __unregister_ftrace_function().
 */
int ftrace_shutdown(struct ftrace_ops *ops, int command)
{
	int ret;

	lockdep_assert_held(&ftrace_lock);
	if (unlikely(ftrace_is_dead()))
		return -ENODEV;

	ret = __unregister_ftrace_function(ops);
	if (ret)
		return ret;

	/* An imbalance is not worth killing ftrace over. */
	WARN_ON_ONCE(--fupd_started < 0);
	facct_ipmodify_release(ops);
	if (facct_detach(ops))
		command |= FTRACE_UPDATE_CALLS;
	ops->flags &= ~FTRACE_OPS_FL_ENABLED;

	command |= fupd_caller_changes();
	if (command && ftrace_enabled)
		fupd_take_off(ops, command);

	if (ops->flags & FTRACE_OPS_FL_DYNAMIC)
		fupd_wait_then_free(ops);
	return 0;
}

/*
 * Run an update for @ops, enabled, whose sets just changed from @old:
 * sites still calling its trampoline are found by the old sets.
 */
static void fupd_run_modified(struct ftrace_ops *ops,
			      const struct ftrace_ops_hash *old)
{
	ops->flags |= FTRACE_OPS_FL_MODIFYING;
	ops->old_hash.filter_hash = old->filter_hash;
	ops->old_hash.notrace_hash = old->notrace_hash;

	fupd_run(FTRACE_UPDATE_CALLS);

	ops->old_hash.filter_hash = NULL;
	ops->old_hash.notrace_hash = NULL;
	ops->flags &= ~FTRACE_OPS_FL_MODIFYING;
}

/**
 * fupd_sets_changed - patch the sites after an ops' sets changed
 * @ops: the ops whose filter or notrace set was replaced
 * @old: the sets it had before
 *
 * Nothing is patched for an ops that is not started, unless its sets
 * are global_ops' and a started ops shares them.  Hold ftrace_lock.
 */
void fupd_sets_changed(struct ftrace_ops *ops,
		       const struct ftrace_ops_hash *old)
{
	struct ftrace_ops *op;

	lockdep_assert_held(&ftrace_lock);
	if (!ftrace_enabled || unlikely(ftrace_is_dead()))
		return;
	if (ops->flags & FTRACE_OPS_FL_ENABLED) {
		fupd_run_modified(ops, old);
		return;
	}
	if (ops->func_hash != &global_ops.local_hash)
		return;
	/* One update brings every site in line; run it for one sharer. */
	fops_for_each_locked(op) {
		if (op->func_hash == &global_ops.local_hash &&
		    (op->flags & FTRACE_OPS_FL_ENABLED)) {
			fupd_run_modified(op, old);
			return;
		}
	}
}

/**
 * fupd_move_set - give an ops a new filter or notrace set, and patch
 * @ops: the ops, started or not; not a subops
 * @filter: true for the filter, false for the notrace set
 * @slot: where in @ops' sets the new one goes
 * @draft: the new set; its entries are taken, the husk stays the caller's
 *
 * Hold ftrace_lock.
 *
 * Return: 0; -ENOMEM, -EBUSY or -EINVAL from facct_move_set(), in
 * which case @ops keeps its sets.
 */
int fupd_move_set(struct ftrace_ops *ops, bool filter,
		  struct ftrace_hash __rcu **slot, struct ftrace_hash *draft)
{
	struct ftrace_ops_hash old;
	struct ftrace_hash *had;
	int ret;

	lockdep_assert_held(&ftrace_lock);
	had = rcu_dereference_protected(*slot, lockdep_is_held(&ftrace_lock));
	old.filter_hash = ops->func_hash->filter_hash;
	old.notrace_hash = ops->func_hash->notrace_hash;

	ret = facct_move_set(ops, filter, slot, draft);
	if (ret)
		return ret;
	fupd_sets_changed(ops, &old);
	/* Walkers may still be on the old set, and sites until patched. */
	fhash_free_rcu(had);
	return 0;
}

/**
 * fupd_sysctl_on - kernel.ftrace_enabled came back on: patch the sites
 *
 * ftrace_caller also gets any function the list came to need while
 * the sysctl was off.  Hold ftrace_lock.
 */
void fupd_sysctl_on(void)
{
	int command = FTRACE_UPDATE_CALLS;

	lockdep_assert_held(&ftrace_lock);
	if (ftrace_is_dead() || !fupd_started)
		return;
	if (ftrace_graph_active)
		command |= FTRACE_START_FUNC_RET;
	fupd_start_calls(command);
}

/**
 * fupd_sysctl_off - kernel.ftrace_enabled went off: NOP every site
 *
 * The ops stay started and counted.  Hold ftrace_lock.
 */
void fupd_sysctl_off(void)
{
	int command = FTRACE_DISABLE_CALLS;

	lockdep_assert_held(&ftrace_lock);
	if (ftrace_is_dead() || !fupd_started)
		return;
	if (ftrace_graph_active)
		command |= FTRACE_STOP_FUNC_RET;
	fupd_run(command);
}
