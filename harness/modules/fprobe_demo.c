// SPDX-License-Identifier: GPL-2.0
/*
 * fprobe_demo: `make run`'s module fprobe.  It puts one fprobe with
 * entry and exit handlers on a function (func=, vfs_read by default):
 * the entry handler stamps the call's entry data with the time, the exit
 * handler reads it back and keeps the count, the longest and the total
 * of the calls' durations, readable under /sys/module/fprobe_demo/.
 */
#include <linux/fprobe.h>
#include <linux/module.h>
#include <linux/sched/clock.h>

static char func[KSYM_NAME_LEN] = "vfs_read";
module_param_string(func, func, sizeof(func), 0444);
MODULE_PARM_DESC(func, "the function to probe");

static unsigned long calls, max_ns, total_ns;
module_param(calls, ulong, 0444);
MODULE_PARM_DESC(calls, "calls that returned");
module_param(max_ns, ulong, 0444);
MODULE_PARM_DESC(max_ns, "the longest of them, in ns");
module_param(total_ns, ulong, 0444);
MODULE_PARM_DESC(total_ns, "their durations added up, in ns");

/* Handlers run in any context with preemption off: notrace, no locks. */
static notrace int demo_entry(struct fprobe *fp, unsigned long ip,
			      unsigned long ret_ip, struct ftrace_regs *fregs,
			      void *data)
{
	*(u64 *)data = local_clock();
	return 0;
}

static notrace void demo_exit(struct fprobe *fp, unsigned long ip,
			      unsigned long ret_ip, struct ftrace_regs *fregs,
			      void *data)
{
	u64 ns = local_clock() - *(u64 *)data;

	/* Racy between CPUs, which a demo can live with. */
	WRITE_ONCE(calls, calls + 1);
	WRITE_ONCE(total_ns, total_ns + ns);
	if (ns > max_ns)
		WRITE_ONCE(max_ns, ns);
}

static struct fprobe demo_probe = {
	.entry_handler	 = demo_entry,
	.exit_handler	 = demo_exit,
	.entry_data_size = sizeof(u64),
};

static int __init demo_init(void)
{
	return register_fprobe(&demo_probe, func, NULL);
}

static void __exit demo_exit_module(void)
{
	unregister_fprobe(&demo_probe);
	pr_info("%s: %lu calls, %lu ns on average, the longest %lu ns, %lu missed\n",
		func, calls, calls ? total_ns / calls : 0, max_ns,
		demo_probe.nmissed);
}

module_init(demo_init);
module_exit(demo_exit_module);
MODULE_DESCRIPTION("An fprobe that times a function's calls, for make run");
MODULE_LICENSE("GPL");
