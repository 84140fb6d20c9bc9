// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace_hits: the smallest useful ftrace_ops user, for the demo and the
 * tests.  It hooks every function matching the glob in @filter (every
 * function if @filter is empty: the only way without dynamic ftrace),
 * counts the calls and shows the count in
 * /sys/module/ftrace_hits/parameters/hits.  A call that comes with an
 * op other than its own is counted in strays instead.
 */
#include <linux/atomic.h>
#include <linux/ftrace.h>
#include <linux/module.h>
#include <linux/string.h>

static char *filter = "vfs_read";
module_param(filter, charp, 0444);
MODULE_PARM_DESC(filter, "glob of the functions to count (set_ftrace_filter syntax)");

static atomic_long_t hits = ATOMIC_LONG_INIT(0);
static atomic_long_t strays = ATOMIC_LONG_INIT(0);

static int hits_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(kp->arg));
}

static const struct kernel_param_ops hits_ops = { .get = hits_get };
module_param_cb(hits, &hits_ops, &hits, 0444);
MODULE_PARM_DESC(hits, "calls counted so far");
module_param_cb(strays, &hits_ops, &strays, 0444);
MODULE_PARM_DESC(strays, "calls that came with another ftrace_ops");

static struct ftrace_ops hits_fops;

static void hits_func(unsigned long ip, unsigned long parent_ip,
		      struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	atomic_long_inc(op == &hits_fops ? &hits : &strays);
}

static struct ftrace_ops hits_fops = {
	.func = hits_func,
	.flags = FTRACE_OPS_FL_RECURSION,
};

static int __init ftrace_hits_init(void)
{
	int ret;

	if (filter[0]) {
		ret = ftrace_set_filter(&hits_fops, filter, strlen(filter), 1);
		if (ret) {
			pr_err("no function matches '%s' (%d)\n", filter,
			       ret);
			return ret;
		}
	}
	ret = register_ftrace_function(&hits_fops);
	if (ret) {
		ftrace_free_filter(&hits_fops);
		return ret;
	}
	pr_info("counting calls to '%s'\n", filter);
	return 0;
}

static void __exit ftrace_hits_exit(void)
{
	unregister_ftrace_function(&hits_fops);
	ftrace_free_filter(&hits_fops);
	pr_info("%ld calls to '%s'\n", atomic_long_read(&hits), filter);
}

module_init(ftrace_hits_init);
module_exit(ftrace_hits_exit);
MODULE_DESCRIPTION("Count the calls to a set of functions with an ftrace_ops");
MODULE_LICENSE("GPL");
