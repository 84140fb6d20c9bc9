// SPDX-License-Identifier: GPL-2.0
/*
 * The two switches of the function hooks.
 *
 * kernel.ftrace_enabled is the user's: off, every site is a NOP and
 * ftrace_caller calls nothing, while ops still register and are
 * counted, ready for it to come back on.  It cannot go off while a
 * PERMANENT ops (livepatch) is registered, nor such an ops register
 * while it is off.
 *
 * The kill switch is ours: thrown when text turned out not to be what
 * we expected, it stops everything for good, since no further patch
 * can be trusted.  ftrace_kill() may be called from any context.
 */
#include <linux/ftrace.h>
#include <linux/init.h>
#include <linux/kprobes.h>
#include <linux/mutex.h>
#include <linux/sysctl.h>

#include "code_update.h"
#include "dispatch.h"
#include "internal.h"

/*
 * kernel.ftrace_enabled; written under ftrace_lock, except by the kill
 * and once at boot, before anything can register.
 */
int ftrace_enabled __read_mostly;

/* The value of ftrace_enabled that the sites and ftrace_caller follow. */
static int fsw_applied;

/* Set once by ftrace_kill(), never cleared. */
static int fsw_dead __read_mostly;

/**
 * ftrace_kill - stop the function hooks for good
 *
 * For a patch that went wrong and for panic paths: it takes no lock
 * and patches nothing.  Sites and ftrace_caller keep whatever they
 * hold; only ftrace_trace_function goes back to the stub, and no ops
 * can be registered from now on.
 */
void ftrace_kill(void)
{
	fsw_dead = 1;
	ftrace_enabled = 0;
	ftrace_trace_function = ftrace_stub;
	kprobe_ftrace_kill();
}

/**
 * ftrace_is_dead - has ftrace_kill() been called?
 *
 * Return: 1 once the function hooks are stopped for good, else 0.
 */
int ftrace_is_dead(void)
{
	return fsw_dead;
}

/* Called once the kernel's sites are NOPs and may be patched. */
void __init fsw_boot_enable(void)
{
	ftrace_enabled = 1;
	fsw_applied = 1;
}

#ifndef CONFIG_DYNAMIC_FTRACE
/* Without records there is nothing to prepare. */
static int __init fsw_static_init(void)
{
	fsw_boot_enable();
	return 0;
}
core_initcall(fsw_static_init);
#endif

#ifdef CONFIG_SYSCTL

static bool fsw_permanent_registered(void)
{
	struct ftrace_ops *op;

	fops_for_each_locked(op) {
		if (op->flags & FTRACE_OPS_FL_PERMANENT)
			return true;
	}
	return false;
}

/* Follow a write of 1: the list picks ftrace_caller's function again. */
static void fsw_turn_on(void)
{
	if (fops_first_locked() != &ftrace_list_end)
		fops_update_caller();
	fupd_sysctl_on();
}

/* Follow a write of 0, unless a PERMANENT ops forbids it. */
static int fsw_turn_off(void)
{
	if (fsw_permanent_registered()) {
		ftrace_enabled = 1;
		return -EBUSY;
	}
	ftrace_trace_function = ftrace_stub;
	fupd_sysctl_off();
	return 0;
}

static int fsw_sysctl_handler(const struct ctl_table *table, int write,
			      void *buffer, size_t *lenp, loff_t *ppos)
{
	int ret;

	guard(mutex)(&ftrace_lock);
	if (unlikely(fsw_dead))
		return -ENODEV;

	ret = proc_dointvec(table, write, buffer, lenp, ppos);
	if (ret || !write || !!ftrace_enabled == fsw_applied)
		return ret;

	if (ftrace_enabled)
		fsw_turn_on();
	else
		ret = fsw_turn_off();
	if (!ret)
		fsw_applied = !!ftrace_enabled;
	return ret;
}

static struct ctl_table fsw_sysctls[] = {
	{
		.procname	= "ftrace_enabled",
		.mode		= 0644,
		.proc_handler	= fsw_sysctl_handler,
		.data		= &ftrace_enabled,
		.maxlen		= sizeof(ftrace_enabled),
	},
};

static int __init fsw_sysctl_init(void)
{
	register_sysctl_init("kernel", fsw_sysctls);
	return 0;
}
late_initcall(fsw_sysctl_init);

#endif /* CONFIG_SYSCTL */
