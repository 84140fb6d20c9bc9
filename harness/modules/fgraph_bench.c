// SPDX-License-Identifier: GPL-2.0
/*
 * fgraph_bench: the function graph's rows of `make bench`, for the base
 * and the series alike.  Loaded with users=N it registers N graph users
 * on its own tracee, each with an entry and a return callback; writing
 * a count to /sys/module/fgraph_bench/parameters/run calls the tracee
 * that many times and leaves the nanoseconds it took in last_ns (under
 * QEMU -icount shift=0, instructions).  With users=0 the calls see
 * whatever else hooks the tracee (the function_graph tracer filtered to
 * fgb_tracee).  Reading stacks gives "tasks-with-a-shadow-stack tasks".
 */
#include <linux/ftrace.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sched/signal.h>
#include <linux/string.h>

#define FGB_MAX_USERS 2

static int users;
module_param(users, int, 0444);
MODULE_PARM_DESC(users, "graph users to register on fgb_tracee at load (0-2)");

static unsigned long last_ns;
module_param(last_ns, ulong, 0444);
MODULE_PARM_DESC(last_ns, "nanoseconds the last run took");

static unsigned long returns;
module_param(returns, ulong, 0444);
MODULE_PARM_DESC(returns, "return callbacks seen so far (all users)");

/* The tracee: noinline and with a barrier, so each call is a real call. */
static noinline __noclone int fgb_tracee(int x)
{
	barrier();
	return x + 1;
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
	return 1;
}

#ifdef CONFIG_HAVE_FTRACE_REGS_HAVING_PT_REGS
static void fgb_return(struct ftrace_graph_ret *trace, struct fgraph_ops *gops,
		       struct ftrace_regs *fregs)
#else
static void fgb_return(struct ftrace_graph_ret *trace, struct fgraph_ops *gops)
#endif
{
	/* Racy between CPUs, which is fine: the count is only a sign of life. */
	WRITE_ONCE(returns, READ_ONCE(returns) + 1);
}

static struct fgraph_ops fgb_users[FGB_MAX_USERS] = {
	{ .entryfunc = fgb_entry, .retfunc = fgb_return },
	{ .entryfunc = fgb_entry, .retfunc = fgb_return },
};

static int run_set(const char *val, const struct kernel_param *kp)
{
	unsigned long calls, i;
	u64 start;
	int sum = 0, ret;

	ret = kstrtoul(val, 0, &calls);
	if (ret)
		return ret;
	start = ktime_get_ns();
	for (i = 0; i < calls; i++)
		sum = fgb_tracee(sum);
	last_ns = ktime_get_ns() - start;
	return sum == (int)calls ? 0 : -EIO;
}

static const struct kernel_param_ops run_ops = { .set = run_set };
module_param_cb(run, &run_ops, NULL, 0200);
MODULE_PARM_DESC(run, "write N: call fgb_tracee N times, time in last_ns");

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

static void fgb_unregister(int n)
{
	while (n--) {
		unregister_ftrace_graph(&fgb_users[n]);
		ftrace_free_filter(&fgb_users[n].ops);
	}
}

static int __init fgb_init(void)
{
	/* Writable: the base's ftrace_set_filter() writes into its glob. */
	char glob[] = "fgb_tracee";
	int i, ret;

	if (users < 0 || users > FGB_MAX_USERS)
		return -EINVAL;
	for (i = 0; i < users; i++) {
		ret = ftrace_set_filter(&fgb_users[i].ops, glob, strlen(glob), 1);
		if (!ret)
			ret = register_ftrace_graph(&fgb_users[i]);
		if (ret) {
			ftrace_free_filter(&fgb_users[i].ops);
			fgb_unregister(i);
			return ret;
		}
	}
	return 0;
}

static void __exit fgb_exit(void)
{
	fgb_unregister(users);
}

module_init(fgb_init);
module_exit(fgb_exit);
MODULE_DESCRIPTION("Cost per call of the function graph, for make bench");
MODULE_LICENSE("GPL");
