// SPDX-License-Identifier: GPL-2.0-only
/*
 * direct_count - samples/ftrace/ftrace-direct.c pointed at any function.
 *
 * The ftrace-direct samples hook wake_up_process(), handle_mm_fault()
 * and schedule() only; the livepatch-direct case needs a direct call
 * on the function that samples/livepatch patches.  This is the
 * sample's x86-64 trampoline (saving the two arguments of a
 * seq_file show function instead of one) registered with
 * register_ftrace_direct() on the function named by func=, counting
 * the calls made by tasks named comm= in the read-only parameter hits
 * and all calls in calls.
 *
 * share=1 gives the ops an ops_func that agrees to share its functions
 * with an IPMODIFY ops (a livepatch), as BPF trampolines do: the site
 * then calls the ops list, which jumps to the trampoline with the
 * livepatch's new function as its return address, so the trampoline
 * needs no change.  With share=0 (the samples' way) the ops has no
 * ops_func, and a livepatch on the same function must be refused
 * whichever of the two comes second.
 */
#include <linux/atomic.h>
#include <linux/ftrace.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <asm/ibt.h>
#include <asm/nospec-branch.h>

#include "direct_count.h"

static char *func = "cmdline_proc_show";
module_param(func, charp, 0444);
MODULE_PARM_DESC(func, "the function to hook");
static char *comm = "nread";
module_param(comm, charp, 0444);
MODULE_PARM_DESC(comm, "count in hits the calls of tasks of this name");
static bool share;
module_param(share, bool, 0444);
MODULE_PARM_DESC(share, "agree to share the function with an IPMODIFY ops");

static atomic_t hits = ATOMIC_INIT(0);
static atomic_t calls = ATOMIC_INIT(0);

static int get_atomic(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(kp->arg));
}

static const struct kernel_param_ops atomic_ops = { .get = get_atomic };
module_param_cb(hits, &atomic_ops, &hits, 0444);
module_param_cb(calls, &atomic_ops, &calls, 0444);

void direct_count_func(void)
{
	atomic_inc(&calls);
	if (!strcmp(current->comm, comm))
		atomic_inc(&hits);
}

asm("	.pushsection    .text, \"ax\", @progbits\n"
"	.type		direct_count_tramp, @function\n"
"	.globl		direct_count_tramp\n"
"   direct_count_tramp:"
	ASM_ENDBR
"	pushq %rbp\n"
"	movq %rsp, %rbp\n"
	CALL_DEPTH_ACCOUNT
"	pushq %rdi\n"
"	pushq %rsi\n"
"	call direct_count_func\n"
"	popq %rsi\n"
"	popq %rdi\n"
"	leave\n"
	ASM_RET
"	.size		direct_count_tramp, .-direct_count_tramp\n"
"	.popsection\n"
);

static int direct_count_ops_func(struct ftrace_ops *ops, enum ftrace_ops_cmd cmd)
{
	pr_info("direct_count: asked to %s sharing %s with an IPMODIFY ops\n",
		cmd == FTRACE_OPS_CMD_DISABLE_SHARE_IPMODIFY_PEER ? "stop" : "start",
		func);
	return 0;
}

static struct ftrace_ops direct;

static int __init direct_count_init(void)
{
	int ret;

	if (share)
		direct.ops_func = direct_count_ops_func;
	ret = ftrace_set_filter(&direct, func, strlen(func), 0);
	if (ret)
		return ret;
	ret = register_ftrace_direct(&direct, (unsigned long)direct_count_tramp);
	if (ret)
		ftrace_free_filter(&direct);
	return ret;
}

static void __exit direct_count_exit(void)
{
	unregister_ftrace_direct(&direct, (unsigned long)direct_count_tramp, true);
}

module_init(direct_count_init);
module_exit(direct_count_exit);

MODULE_DESCRIPTION("A counting direct call on any function (after samples/ftrace/ftrace-direct.c)");
MODULE_LICENSE("GPL");
