// SPDX-License-Identifier: GPL-2.0
/*
 * The registry of ftrace_ops and the dispatch of calls to them.
 *
 * Registered ops sit on ftrace_ops_list, newest first, which always
 * ends in ftrace_list_end.  A patched site calls one of two things:
 * the trampoline of the one ops that wants it (which calls that ops'
 * function, through ftrace_ops_get_func()), or the shared
 * ftrace_caller, which calls ftrace_trace_function with
 * function_trace_op.  fops_update_caller() chooses what ftrace_caller
 * calls: nothing while no ops is registered, the function of the only
 * ops, or else the list function, which gives the call to each ops
 * whose filter takes the address.
 *
 * The list is changed under ftrace_lock and read with preemption off
 * (the list function runs with it off, inside its recursion guard):
 * an ops that is not part of the kernel image is freed only after the
 * core has waited for every such reader (ftrace_shutdown()).
 */
#include <linux/ftrace.h>
#include <linux/context_tracking.h>
#include <linux/kmsan.h>
#include <linux/kprobes.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/trace_recursion.h>

#include <asm/sections.h>

#include "chains.h"
#include "dispatch.h"
#include "internal.h"
#include "../trace.h"

/* The end of the list: a stub that stands for "no ops" to the arch. */
struct ftrace_ops ftrace_list_end __read_mostly = {
	.func		= ftrace_stub,
	.flags		= FTRACE_OPS_FL_STUB,
#ifdef CONFIG_DYNAMIC_FTRACE
	.func_hash	= &ftrace_list_end.local_hash,
	.local_hash.regex_lock =
		__MUTEX_INITIALIZER(ftrace_list_end.local_hash.regex_lock),
	.subop_list	= LIST_HEAD_INIT(ftrace_list_end.subop_list),
#endif
};

struct ftrace_ops __rcu *ftrace_ops_list __read_mostly =
	(struct ftrace_ops __rcu *)&ftrace_list_end;

/* What ftrace_caller calls, and the ops it passes along. */
ftrace_func_t ftrace_trace_function __read_mostly = ftrace_stub;
struct ftrace_ops *function_trace_op __read_mostly = &ftrace_list_end;
struct ftrace_ops *fops_next_trace_op;

#ifdef CONFIG_DYNAMIC_FTRACE_WITH_CALL_OPS
static void fops_call_nothing(unsigned long ip, unsigned long pip,
			      struct ftrace_ops *op, struct ftrace_regs *fregs)
{
}

/*
 * Arches that keep an ops pointer in front of each site point it at
 * ftrace_list_ops when no single ops owns the site, and at
 * ftrace_nop_ops when it is disabled (for a CPU that read the pointer
 * just before).
 */
const struct ftrace_ops ftrace_list_ops = {
	.flags	= FTRACE_OPS_FL_STUB,
	.func	= ftrace_ops_list_func,
};

const struct ftrace_ops ftrace_nop_ops = {
	.flags	= FTRACE_OPS_FL_STUB,
	.func	= fops_call_nothing,
};
#endif

#ifdef CONFIG_DYNAMIC_FTRACE
/* Serialises only the first-use set-up of an ops' hashes. */
static DEFINE_MUTEX(fops_init_mutex);

/**
 * ftrace_ops_init - set up the hashes of an ops on its first use
 * @ops: the ops; one defined without INIT_OPS_HASH() starts zeroed
 *
 * Every entry point that takes an ops calls this first, so that an ops
 * can be filtered before it is registered.  Safe to call concurrently
 * and more than once.
 */
void ftrace_ops_init(struct ftrace_ops *ops)
{
	/* Pairs with the smp_store_release() below. */
	if (smp_load_acquire(&ops->flags) & FTRACE_OPS_FL_INITIALIZED)
		return;

	guard(mutex)(&fops_init_mutex);
	if (ops->flags & FTRACE_OPS_FL_INITIALIZED)
		return;
	mutex_init(&ops->local_hash.regex_lock);
	INIT_LIST_HEAD(&ops->subop_list);
	ops->func_hash = &ops->local_hash;
	/* The set-up above is visible to whoever sees the flag. */
	smp_store_release(&ops->flags,
			  ops->flags | FTRACE_OPS_FL_INITIALIZED);
}
#endif

/**
 * ftrace_pids_enabled - does an ops follow a pid filter now?
 * @ops: the ops
 *
 * Return: true if @ops asked to follow its trace instance's
 * set_ftrace_pid and set_ftrace_notrace_pid (FTRACE_OPS_FL_PID) and
 * either of them holds a pid.
 */
bool ftrace_pids_enabled(struct ftrace_ops *ops)
{
	struct trace_array *tr = ops->private;

	if (!(ops->flags & FTRACE_OPS_FL_PID) || !tr)
		return false;
	return tr->function_pids || tr->function_no_pids;
}

/*
 * Stands in for the function of an ops that follows a pid filter.
 * The sched_switch probe keeps ftrace_ignore_pid per CPU, so the test
 * here is a single read.
 */
static void ftrace_pid_func(unsigned long ip, unsigned long parent_ip,
			    struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct trace_array *tr = op->private;

	if (tr) {
		int pid = this_cpu_read(tr->array_buffer.data->ftrace_ignore_pid);

		if (pid == FTRACE_PID_IGNORE)
			return;
		if (pid != FTRACE_PID_TRACE && pid != current->pid)
			return;
	}
	op->saved_func(ip, parent_ip, op, fregs);
}

/*
 * Does the pair of sets of @op take @ip?  Called with preemption off.
 * An ops that wants pt_regs is not called from a path that has none:
 * a site can briefly reach it through ftrace_caller while it is being
 * switched to ftrace_regs_caller.
 */
static __always_inline bool fops_takes(struct ftrace_ops *op,
				       unsigned long ip,
				       struct pt_regs *regs)
{
#ifdef CONFIG_DYNAMIC_FTRACE
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_REGS
	if (!regs && (op->flags & FTRACE_OPS_FL_SAVE_REGS))
		return false;
#endif
	return fops_hash_has_ip(op->func_hash, ip);
#else
	return true;
#endif
}

#ifdef CONFIG_DYNAMIC_FTRACE
/**
 * ftrace_ops_test - would an ops be called for an address?
 * @ops: the ops
 * @ip: the address of a patch site
 * @regs: the pt_regs the caller has for the call, or NULL
 *
 * Called with preemption disabled, as the hashes are freed after RCU.
 *
 * Return: 1 if @ops' filter takes @ip and it can be called with what
 * the caller has (an ops that asked for SAVE_REGS needs @regs), else 0.
 */
int ftrace_ops_test(struct ftrace_ops *ops, unsigned long ip, void *regs)
{
	return fops_takes(ops, ip, regs);
}
#endif

/*
 * An RCU ops is only called where RCU is watching.  Preemption is off,
 * so this CPU's state is read straight.
 */
static __always_inline bool fops_rcu_ok(struct ftrace_ops *op)
{
	if (!(op->flags & FTRACE_OPS_FL_RCU))
		return true;
#ifdef CONFIG_CONTEXT_TRACKING_IDLE
	return rcu_is_watching_curr_cpu();
#else
	return rcu_is_watching();
#endif
}

/*
 * The list function: one guard against recursion for the whole walk,
 * which also keeps preemption off while the ops are in use.  That guard
 * lets one nested call through (an interrupt that has not raised the
 * preempt count yet looks like one), so an ops that asked for the guard
 * of its own (RECURSION, RCU) is called through it, as chains do.
 */
static nokprobe_inline void fops_call_list(unsigned long ip,
					   unsigned long parent_ip,
					   struct ftrace_regs *fregs)
{
	struct pt_regs *regs = ftrace_get_regs(fregs);
	struct ftrace_ops *op;
	int bit;

	bit = trace_test_and_set_recursion(ip, parent_ip, TRACE_LIST_START);
	if (bit < 0)
		return;

	fops_for_each_raw(op) {
		if (op->flags & FTRACE_OPS_FL_STUB)
			continue;
		if (!fops_rcu_ok(op) || !fops_takes(op, ip, regs))
			continue;
		if (WARN_ON_ONCE(!op->func)) {
			ftrace_kill();
			break;
		}
		fops_func(op)(ip, parent_ip, op, fregs);
	}
	trace_clear_recursion(bit);
}

/*
 * Arches that cannot pass an ops and regs call the list function with
 * two arguments only; it must then not read the other two.
 */
#if ARCH_SUPPORTS_FTRACE_OPS
void arch_ftrace_ops_list_func(unsigned long ip, unsigned long parent_ip,
			       struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	/* The trampoline filled fregs in assembly, which KMSAN cannot see. */
	kmsan_unpoison_memory(fregs, ftrace_regs_size());
	fops_call_list(ip, parent_ip, fregs);
}
#else
void arch_ftrace_ops_list_func(unsigned long ip, unsigned long parent_ip)
{
	fops_call_list(ip, parent_ip, NULL);
}
#endif
NOKPROBE_SYMBOL(arch_ftrace_ops_list_func);

/*
 * The guard of RECURSION and RCU ops.  Preemption is off while it is
 * held, so this CPU's word is the running task's; an interrupt finds
 * another context there and goes on, and each call puts back what it
 * found, as interrupts nest.  The guard is not the list function's:
 * a guarded ops may call into a function that the list walks, once.
 */
DEFINE_PER_CPU(u32, ftrace_ops_guard) = FTRACE_GUARD_IDLE;
static_assert(FTRACE_GUARD_CTX == (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_OFFSET));
static_assert(!(FTRACE_GUARD_IDLE & FTRACE_GUARD_CTX));

void ftrace_ops_guard_busy(unsigned long ip, unsigned long parent_ip)
{
	do_ftrace_record_recursion(ip, parent_ip);
}

NOKPROBE_SYMBOL(ftrace_ops_guard_busy);

/*
 * What the shared templates call for an ops that asked for the guard;
 * an arch's trampoline may do the same inline.
 */
void ftrace_ops_assist_func(unsigned long ip, unsigned long parent_ip,
			    struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	u32 ctx, held;

	preempt_disable_notrace();
	ctx = preempt_count() & FTRACE_GUARD_CTX;
	held = __this_cpu_read(ftrace_ops_guard);
	if (unlikely(held == ctx)) {
		ftrace_ops_guard_busy(ip, parent_ip);
	} else {
		__this_cpu_write(ftrace_ops_guard, ctx);
		if (fops_rcu_ok(op))
			op->func(ip, parent_ip, op, fregs);
		__this_cpu_write(ftrace_ops_guard, held);
	}
	preempt_enable_notrace();
}

NOKPROBE_SYMBOL(ftrace_ops_assist_func);

/**
 * ftrace_ops_get_func - the function a trampoline calls for an ops
 * @ops: the ops
 *
 * Return: @ops->func, or a wrapper around it when @ops asked ftrace to
 * guard it against recursion or to call it only where RCU is watching.
 */
ftrace_func_t ftrace_ops_get_func(struct ftrace_ops *ops)
{
	return fops_func(ops);
}

/*
 * What ftrace_caller calls when @ops is the only one registered.  An
 * ops that may be freed (DYNAMIC) or wants RCU checked goes through
 * the list function, which runs it with preemption off; so does every
 * ops on arches that cannot pass one to the callee.
 */
static ftrace_func_t fops_sole_func(struct ftrace_ops *ops)
{
	if (FTRACE_FORCE_LIST_FUNC ||
	    (ops->flags & (FTRACE_OPS_FL_DYNAMIC | FTRACE_OPS_FL_RCU)))
		return ftrace_ops_list_func;
	return ftrace_ops_get_func(ops);
}

static void fops_sync_ipi(void *unused)
{
	/* Pairs with the smp_wmb() in fops_publish_trace_op(). */
	smp_rmb();
}

/**
 * fops_publish_trace_op - make function_trace_op the op last chosen
 *
 * Called by the code update before it points ftrace_caller at a new
 * function, so that the function never meets the op of the old one.
 * Outside stop_machine() (interrupts on), the other CPUs are made to
 * read the new op at once.
 */
void fops_publish_trace_op(void)
{
	function_trace_op = fops_next_trace_op;
	/* The op is out before the caller is switched to its function. */
	smp_wmb();
	if (!irqs_disabled())
		smp_call_function(fops_sync_ipi, NULL, 1);
}

#ifndef CONFIG_DYNAMIC_FTRACE

/*
 * Without code update the switch happens at once, on CPUs that may
 * be inside ftrace_caller.  Go through the list function, which
 * ignores function_trace_op, until every CPU sees the new op.
 */
static void fops_switch_static(void)
{
	ftrace_trace_function = ftrace_ops_list_func;
	synchronize_rcu_tasks_rude();
	fops_publish_trace_op();
}
#endif

/**
 * fops_update_caller - choose what ftrace_caller calls
 *
 * Called with ftrace_lock held after the list changed.  With dynamic
 * ftrace the choice takes effect at the next code update, which
 * switches function_trace_op to fops_next_trace_op and patches the
 * call in ftrace_caller.
 */
void fops_update_caller(void)
{
	struct ftrace_ops *first = fops_first_locked();
	ftrace_func_t func;

	if (first == &ftrace_list_end) {
		fops_next_trace_op = &ftrace_list_end;
		func = ftrace_stub;
	} else if (fops_next_locked(first) == &ftrace_list_end) {
		fops_next_trace_op = first;
		func = fops_sole_func(first);
	} else {
		/* The list function walks the list and ignores the op. */
		fops_next_trace_op = &ftrace_list_end;
		func = ftrace_ops_list_func;
	}

	if (ftrace_trace_function == func)
		return;
#ifndef CONFIG_DYNAMIC_FTRACE
	if (func != ftrace_ops_list_func)
		fops_switch_static();
#endif
	ftrace_trace_function = func;
}

/*
 * Put @ops at the head of the list.  Its next pointer is set before
 * the head points at it, so a walker that sees it can go on.
 */
static void fops_link(struct ftrace_ops *ops)
{
	rcu_assign_pointer(ops->next, fops_first_locked());
	rcu_assign_pointer(ftrace_ops_list, ops);
}

/* Take @ops off the list; -ENOENT if it is not on it. */
static int fops_unlink(struct ftrace_ops *ops)
{
	struct ftrace_ops __rcu **link = &ftrace_ops_list;
	struct ftrace_ops *op;

	fops_for_each_locked(op) {
		if (op == ops) {
			/* Walkers on @ops still find the rest through it. */
			rcu_assign_pointer(*link, fops_next_locked(op));
			return 0;
		}
		link = &op->next;
	}
	return -ENOENT;
}

/* Why @ops cannot go on the list now, or 0. */
static int fops_refuse(struct ftrace_ops *ops)
{
	unsigned long flags = ops->flags;
	unsigned long regs = flags & (FTRACE_OPS_FL_SAVE_REGS |
				      FTRACE_OPS_FL_SAVE_REGS_IF_SUPPORTED);

	if (flags & FTRACE_OPS_FL_DELETED)
		return -EINVAL;
	if (WARN_ON(flags & FTRACE_OPS_FL_ENABLED))
		return -EBUSY;
	/* SAVE_REGS alone is a demand; with IF_SUPPORTED, a wish. */
	if (!IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_REGS) &&
	    regs == FTRACE_OPS_FL_SAVE_REGS)
		return -EINVAL;
	if ((flags & FTRACE_OPS_FL_PERMANENT) && !ftrace_enabled)
		return -EBUSY;
	return 0;
}

/**
 * __register_ftrace_function - put an ops on the list
 * @ops: the ops, not yet enabled
 *
 * Called with ftrace_lock held, by ftrace_startup().  The caller then
 * updates the code so that the ops' functions reach it.
 *
 * Return: 0; -EINVAL for an ops that was already unregistered for good
 * or wants regs the arch cannot give; -EBUSY if @ops is enabled, or is
 * PERMANENT while kernel.ftrace_enabled is off.
 */
int __register_ftrace_function(struct ftrace_ops *ops)
{
	int ret;

	lockdep_assert_held(&ftrace_lock);

	ret = fops_refuse(ops);
	if (ret)
		return ret;
	/* Without regs support a wish for regs is granted as a demand. */
	if (!IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_REGS) &&
	    (ops->flags & FTRACE_OPS_FL_SAVE_REGS_IF_SUPPORTED))
		ops->flags |= FTRACE_OPS_FL_SAVE_REGS;
	/* Module and heap ops may be freed: call them with care. */
	if (!is_kernel_core_data((unsigned long)ops))
		ops->flags |= FTRACE_OPS_FL_DYNAMIC;

	/* The pid filter is in place before any site can reach @ops. */
	ops->saved_func = ops->func;
	if (ftrace_pids_enabled(ops))
		ops->func = ftrace_pid_func;
	fops_link(ops);

	ftrace_update_trampoline(ops);
	if (ftrace_enabled)
		fops_update_caller();
	return 0;
}

/**
 * __unregister_ftrace_function - take an ops off the list
 * @ops: the ops, still enabled
 *
 * Called with ftrace_lock held, by ftrace_shutdown(), which then
 * updates the code and waits for callers still inside the ops.
 *
 * Return: 0; -EBUSY if @ops is not enabled, -ENOENT if it is not on
 * the list.
 */
int __unregister_ftrace_function(struct ftrace_ops *ops)
{
	int ret;

	lockdep_assert_held(&ftrace_lock);

	if (WARN_ON(!(ops->flags & FTRACE_OPS_FL_ENABLED)))
		return -EBUSY;
	ret = fops_unlink(ops);
	if (ret)
		return ret;
	if (ftrace_enabled)
		fops_update_caller();
	ops->func = ops->saved_func;
	return 0;
}

/**
 * fops_start - start an ops, taking ftrace_lock
 * @ops: the ops
 *
 * Return: as ftrace_startup().
 */
int fops_start(struct ftrace_ops *ops)
{
	guard(mutex)(&ftrace_lock);
	return ftrace_startup(ops, 0);
}

/**
 * fops_stop - stop an ops, taking ftrace_lock
 * @ops: the ops
 *
 * Return: as ftrace_shutdown().
 */
int fops_stop(struct ftrace_ops *ops)
{
	guard(mutex)(&ftrace_lock);
	return ftrace_shutdown(ops, 0);
}

/**
 * register_ftrace_function - have the functions an ops selects call it
 * @ops: the ops; its callback, and all the callback calls, must be
 *	notrace, or they would call it again
 *
 * When it returns, every function the ops' filter selects (every
 * function, without a filter) and its notrace set does not exclude
 * calls ->func on entry.  An IPMODIFY ops must have a filter, and the
 * owners of direct calls on its functions must agree to share them.
 *
 * Return: 0; -EBUSY if another IPMODIFY ops or a direct ops that does
 * not share holds one of its functions, or if @ops is PERMANENT while
 * kernel.ftrace_enabled is off; -EINVAL for an ops that cannot be
 * registered (see __register_ftrace_function()); -ENODEV once ftrace
 * is dead.
 */
int register_ftrace_function(struct ftrace_ops *ops)
{
	/* The IPMODIFY path reads the sets of an ops never used before. */
	ftrace_ops_init(ops);
	if (ops->flags & FTRACE_OPS_FL_IPMODIFY)
		return fdir_register_ipmodify(ops);
	return fops_start(ops);
}
EXPORT_SYMBOL_GPL(register_ftrace_function);

/**
 * unregister_ftrace_function - stop calling an ops
 * @ops: a registered ops
 *
 * When it returns the functions no longer call @ops.  For an ops outside
 * core kernel data (FTRACE_OPS_FL_DYNAMIC) no CPU and no task is then in
 * its callback or trampoline: its owner may free it.
 *
 * Return: 0; -EBUSY or -ENOENT if @ops is not registered; -ENODEV once
 * ftrace is dead.
 */
int unregister_ftrace_function(struct ftrace_ops *ops)
{
	int ret = fops_stop(ops);

	if (ops->flags & FTRACE_OPS_FL_IPMODIFY)
		fdir_unregistered_ipmodify(ops);
	return ret;
}
EXPORT_SYMBOL_GPL(unregister_ftrace_function);

/**
 * fops_update_pid_funcs - follow a change of the pid filters
 *
 * Called with ftrace_lock held when set_ftrace_pid or
 * set_ftrace_notrace_pid of some instance changed: each ops that
 * follows the filters calls through ftrace_pid_func() exactly while
 * its instance has a pid in them.
 */
void fops_update_pid_funcs(void)
{
	struct ftrace_ops *op;

	fgraph_update_pid_func();
	/* Nothing is traced: registering will look at the pids. */
	if (ftrace_trace_function == ftrace_stub)
		return;

	fops_for_each_locked(op) {
		if (!(op->flags & FTRACE_OPS_FL_PID))
			continue;
		op->func = ftrace_pids_enabled(op) ? ftrace_pid_func :
						     op->saved_func;
		ftrace_update_trampoline(op);
	}
	fops_update_caller();
}

#ifdef CONFIG_DYNAMIC_FTRACE
/**
 * ftrace_ops_trampoline - the ops whose trampoline holds an address
 * @addr: a text address
 *
 * For the unwinders: trampolines built at run time are neither kernel
 * nor module text.  Safe from any context.
 *
 * Return: the ops, or the chain (chains.c), whose trampoline holds
 * @addr; NULL if none does.
 */
struct ftrace_ops *ftrace_ops_trampoline(unsigned long addr)
{
	struct ftrace_ops *op, *found = NULL;

	/* Heap ops are freed only after the CPUs left such sections. */
	preempt_disable_notrace();
	fops_for_each_raw(op) {
		if (op->trampoline && op->trampoline_size &&
		    addr >= op->trampoline &&
		    addr - op->trampoline < op->trampoline_size) {
			found = op;
			break;
		}
	}
	preempt_enable_notrace();
	return found ?: fchain_ops_at(addr);
}

/**
 * is_ftrace_trampoline - is an address in a trampoline built at run time?
 * @addr: a text address
 *
 * Return: true if @addr lies in the trampoline of a registered ops or
 * of a chain.
 */
bool is_ftrace_trampoline(unsigned long addr)
{
	return ftrace_ops_trampoline(addr);
}
#endif /* CONFIG_DYNAMIC_FTRACE */
