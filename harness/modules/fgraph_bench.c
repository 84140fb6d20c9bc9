// SPDX-License-Identifier: GPL-2.0
/*
 * fgraph_bench: the function graph's rows of `make bench`, for the base
 * and the series alike.  Loaded with users=N it registers N graph users
 * on its own tracee, each with an entry and a return callback; writing
 * N to users later registers N afresh.  Writing a count to
 * /sys/module/fgraph_bench/parameters/run calls the tracee that many
 * times and leaves the nanoseconds it took in last_ns (under QEMU
 * -icount shift=0, instructions).  With users=0 the calls see whatever
 * else hooks the tracee (the function_graph tracer filtered to
 * fgb_tracee).  Reading stacks gives "tasks-with-a-shadow-stack tasks".
 *
 * Each user counts the entries and returns of the tracee it sees, and a
 * run fails with -EIO unless every registered user saw each call enter
 * and return, and no other function: a user that silently missed calls
 * would otherwise look fast.
 */
#include <linux/ftrace.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/sched/signal.h>
#include <linux/string.h>

#define FGB_MAX_USERS 2

/*
 * Protects users, fgb_live and the registrations.  Writes to users may
 * come through sysfs before fgb_init() has run: they only set the count
 * it registers.
 */
static DEFINE_MUTEX(fgb_lock);
static int users;
static bool fgb_live;

static unsigned long last_ns;
module_param(last_ns, ulong, 0444);
MODULE_PARM_DESC(last_ns, "nanoseconds the last run took");

/*
 * What each user saw in the last run: entries and returns of the tracee,
 * and calls of anything else.  The tracee is called by one task at a
 * time, so plain increments are exact.
 */
static unsigned long fgb_entries[FGB_MAX_USERS], fgb_returns[FGB_MAX_USERS];
static unsigned long fgb_strays;

/* The tracee: noinline and with a barrier, so each call is a real call. */
static noinline __noclone int fgb_tracee(int x)
{
	barrier();
	return x + 1;
}

static struct fgraph_ops fgb_users[FGB_MAX_USERS];

/*
 * The user @gops is, if @func is the tracee: the callbacks get the
 * patch site, which is the function's address or, with IBT, the
 * address after its ENDBR.  -1 counts the call as a stray.
 */
static int fgb_user_of(unsigned long func, struct fgraph_ops *gops)
{
	if (func - (unsigned long)fgb_tracee >= 16) {
		fgb_strays++;
		return -1;
	}
	return gops - fgb_users;
}

/*
 * The callbacks' signature changed with the series (ftrace_regs at both
 * ends); the Kconfig symbol that came with it tells the two apart.
 */
#ifdef CONFIG_HAVE_FTRACE_REGS_HAVING_PT_REGS
static int fgb_entry(struct ftrace_graph_ent *trace, struct fgraph_ops *gops,
		     struct ftrace_regs *fregs)
#else
static int fgb_entry(struct ftrace_graph_ent *trace, struct fgraph_ops *gops)
#endif
{
	int u = fgb_user_of(trace->func, gops);

	if (u >= 0)
		fgb_entries[u]++;
	return 1;
}

#ifdef CONFIG_HAVE_FTRACE_REGS_HAVING_PT_REGS
static void fgb_return(struct ftrace_graph_ret *trace, struct fgraph_ops *gops,
		       struct ftrace_regs *fregs)
#else
static void fgb_return(struct ftrace_graph_ret *trace, struct fgraph_ops *gops)
#endif
{
	int u = fgb_user_of(trace->func, gops);

	if (u >= 0)
		fgb_returns[u]++;
}

static struct fgraph_ops fgb_users[FGB_MAX_USERS] = {
	{ .entryfunc = fgb_entry, .retfunc = fgb_return },
	{ .entryfunc = fgb_entry, .retfunc = fgb_return },
};

/* Did each registered user see @calls calls of the tracee, and only those? */
static bool fgb_counts_right(unsigned long calls)
{
	int u;

	for (u = 0; u < users; u++)
		if (fgb_entries[u] != calls || fgb_returns[u] != calls)
			return false;
	return !fgb_strays;
}

static int run_set(const char *val, const struct kernel_param *kp)
{
	unsigned long calls, i;
	u64 start;
	int sum = 0, ret;

	ret = kstrtoul(val, 0, &calls);
	if (ret)
		return ret;
	guard(mutex)(&fgb_lock);
	memset(fgb_entries, 0, sizeof(fgb_entries));
	memset(fgb_returns, 0, sizeof(fgb_returns));
	fgb_strays = 0;
	start = ktime_get_ns();
	for (i = 0; i < calls; i++)
		sum = fgb_tracee(sum);
	last_ns = ktime_get_ns() - start;
	if (sum != (int)calls || !fgb_counts_right(calls))
		return -EIO;
	return 0;
}

static const struct kernel_param_ops run_ops = { .set = run_set };
module_param_cb(run, &run_ops, NULL, 0200);
MODULE_PARM_DESC(run, "write N: call fgb_tracee N times, time in last_ns");

/* "entries returns" of each registered user in the last run, then strays. */
static int seen_get(char *buf, const struct kernel_param *kp)
{
	int u, len = 0;

	guard(mutex)(&fgb_lock);
	for (u = 0; u < users; u++)
		len += sysfs_emit_at(buf, len, "%lu %lu ",
				     fgb_entries[u], fgb_returns[u]);
	return len + sysfs_emit_at(buf, len, "strays %lu\n", fgb_strays);
}

static const struct kernel_param_ops seen_ops = { .get = seen_get };
module_param_cb(seen, &seen_ops, NULL, 0444);
MODULE_PARM_DESC(seen, "entries and returns each user saw in the last run");

static int stacks_get(char *buf, const struct kernel_param *kp)
{
	struct task_struct *g, *t;
	unsigned long with = 0, all = 0;

	rcu_read_lock();
	for_each_process_thread(g, t) {
		all++;
		with += !!READ_ONCE(t->ret_stack);
	}
	rcu_read_unlock();
	return sysfs_emit(buf, "%lu %lu\n", with, all);
}

static const struct kernel_param_ops stacks_ops = { .get = stacks_get };
module_param_cb(stacks, &stacks_ops, NULL, 0444);
MODULE_PARM_DESC(stacks, "tasks with a shadow stack, and all tasks");

static void fgb_unregister(void)
{
	lockdep_assert_held(&fgb_lock);
	while (users) {
		users--;
		unregister_ftrace_graph(&fgb_users[users]);
		ftrace_free_filter(&fgb_users[users].ops);
	}
}

static int fgb_register_one(struct fgraph_ops *gops)
{
	/* Writable: the base's ftrace_set_filter() writes into its glob. */
	char glob[] = "fgb_tracee";
	int ret;

	ret = ftrace_set_filter(&gops->ops, glob, strlen(glob), 1);
	if (!ret)
		ret = register_ftrace_graph(gops);
	if (ret)
		ftrace_free_filter(&gops->ops);
	return ret;
}

/* Leave exactly @n users registered, or none on failure. */
static int fgb_set_users(int n)
{
	int ret;

	lockdep_assert_held(&fgb_lock);
	fgb_unregister();
	for (; users < n; users++) {
		ret = fgb_register_one(&fgb_users[users]);
		if (ret) {
			fgb_unregister();
			return ret;
		}
	}
	return 0;
}

static int users_set(const char *val, const struct kernel_param *kp)
{
	int n, ret;

	ret = kstrtoint(val, 0, &n);
	if (ret)
		return ret;
	if (n < 0 || n > FGB_MAX_USERS)
		return -EINVAL;
	guard(mutex)(&fgb_lock);
	if (!fgb_live) {
		users = n;
		return 0;
	}
	return fgb_set_users(n);
}

static const struct kernel_param_ops users_ops = {
	.set = users_set,
	.get = param_get_int,
};
module_param_cb(users, &users_ops, &users, 0644);
MODULE_PARM_DESC(users, "graph users registered on fgb_tracee (0-2)");

static int __init fgb_init(void)
{
	int n;

	guard(mutex)(&fgb_lock);
	fgb_live = true;
	n = users;
	users = 0;
	return fgb_set_users(n);
}

static void __exit fgb_exit(void)
{
	guard(mutex)(&fgb_lock);
	fgb_unregister();
}

module_init(fgb_init);
module_exit(fgb_exit);
MODULE_DESCRIPTION("Cost per call of the function graph, for make bench");
MODULE_LICENSE("GPL");
