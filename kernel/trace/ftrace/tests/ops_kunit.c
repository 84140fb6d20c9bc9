// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit conformance suite for the ftrace_ops API (register_ftrace_function()
 * and friends).  It pins the behaviour the API promises its callers,
 * so that any core can be checked against it unchanged.
 *
 * Suites:
 *
 *   ftrace_ops         cases 1-11: registration, callback arguments,
 *                      filters, notrace, the atomic filter switch,
 *                      filter_ip(s), several ops, SAVE_REGS, IPMODIFY,
 *                      RECURSION, PERMANENT and kernel.ftrace_enabled.
 *   ftrace_ops_module  case 12: a module tracee (ftrace_ops_kunit_mod.ko)
 *                      loaded and unloaded while an ops filters on it.
 *
 * How they run:
 *
 *   Both are built-in (CONFIG_FTRACE_OPS_KUNIT_TEST=y) and run at boot
 *   with the other KUnit suites, from kernel_init_freeable().  The module
 *   suite needs a userland to load the module: kunit_modload.c
 *   runs modprobe, insmod or rmmod through /bin/sh once the initramfs is
 *   unpacked.  No /proc, /sys or /dev is needed for that.  If there is no
 *   /bin/sh or the module is not installed, the case is skipped.  The case
 *   can be run again after boot through KUnit's debugfs interface:
 *
 *     echo 1 > /sys/kernel/debug/kunit/ftrace_ops_module/run
 *     cat /sys/kernel/debug/kunit/ftrace_ops_module/results
 *
 *   (A case that was *skipped* keeps that status and is not run again
 *   through debugfs, so install the module in the initramfs.)
 *
 *   kernel.ftrace_enabled is driven the way userspace drives it: the suite
 *   writes to sys/kernel/ftrace_enabled of a kernel-internal procfs mount.
 *   Every ops, worker thread and the sysctl value are restored by KUnit
 *   actions, also when a case fails.
 *
 * The tracees are in ops_kunit_tracee.c (instrumented); this file is
 * built without instrumentation like the rest of kernel/trace, so the
 * callbacks below are never traced themselves.  The exact counts assume
 * nothing else traces the tracees (true at boot): with a second ops on a
 * tracee the core's list function adds its own recursion protection and,
 * for instance, the trylock case sees two callbacks per call, not three.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/ftrace.h>
#include <linux/jiffies.h>
#include <linux/kallsyms.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mount.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace_recursion.h>

#include "kunit_modload.h"
#include "ops_kunit.h"

enum fok_idx {
	FOK_BASIC,
	FOK_ARGS,
	FOK_PFX_ONE,
	FOK_PFX_TWO,
	FOK_ONE_SFXQ,
	FOK_TWO_SFXQ,
	FOK_A_MIDQ,
	FOK_B_MIDQ,
	FOK_SW_A,
	FOK_SW_B,
	FOK_SW_C,
	FOK_IP_A,
	FOK_IP_B,
	FOK_IP_C,
	FOK_MULTI,
	FOK_MULTI_X,
	FOK_MULTI_Y,
	FOK_IPMOD_ORIG,
	FOK_IPMOD_NEW,
	FOK_RECURSE,
	FOK_TRYLOCK,
	FOK_PERM,
	FOK_NR_INT,		/* the ones above are int f(int) */
	FOK_REGS6 = FOK_NR_INT,
	FOK_NR,
};

struct fok_tracee {
	const char *name;
	void *addr;
	int (*fn)(int x);
};

static const struct fok_tracee fok_tracees[FOK_NR] = {
	[FOK_BASIC] = { "fokt_basic", fokt_basic, fokt_basic },
	[FOK_ARGS] = { "fokt_args", fokt_args, fokt_args },
	[FOK_PFX_ONE] = { "fokt_pfx_one", fokt_pfx_one, fokt_pfx_one },
	[FOK_PFX_TWO] = { "fokt_pfx_two", fokt_pfx_two, fokt_pfx_two },
	[FOK_ONE_SFXQ] = { "fokt_one_sfxq", fokt_one_sfxq, fokt_one_sfxq },
	[FOK_TWO_SFXQ] = { "fokt_two_sfxq", fokt_two_sfxq, fokt_two_sfxq },
	[FOK_A_MIDQ] = { "fokt_a_midq_one", fokt_a_midq_one, fokt_a_midq_one },
	[FOK_B_MIDQ] = { "fokt_b_midq_two", fokt_b_midq_two, fokt_b_midq_two },
	[FOK_SW_A] = { "fokt_sw_a", fokt_sw_a, fokt_sw_a },
	[FOK_SW_B] = { "fokt_sw_b", fokt_sw_b, fokt_sw_b },
	[FOK_SW_C] = { "fokt_sw_c", fokt_sw_c, fokt_sw_c },
	[FOK_IP_A] = { "fokt_ip_a", fokt_ip_a, fokt_ip_a },
	[FOK_IP_B] = { "fokt_ip_b", fokt_ip_b, fokt_ip_b },
	[FOK_IP_C] = { "fokt_ip_c", fokt_ip_c, fokt_ip_c },
	[FOK_MULTI] = { "fokt_multi", fokt_multi, fokt_multi },
	[FOK_MULTI_X] = { "fokt_multi_x", fokt_multi_x, fokt_multi_x },
	[FOK_MULTI_Y] = { "fokt_multi_y", fokt_multi_y, fokt_multi_y },
	[FOK_IPMOD_ORIG] = { "fokt_ipmod_orig", fokt_ipmod_orig, fokt_ipmod_orig },
	[FOK_IPMOD_NEW] = { "fokt_ipmod_new", fokt_ipmod_new, fokt_ipmod_new },
	[FOK_RECURSE] = { "fokt_recurse", fokt_recurse, fokt_recurse },
	[FOK_TRYLOCK] = { "fokt_trylock", fokt_trylock, fokt_trylock },
	[FOK_PERM] = { "fokt_perm", fokt_perm, fokt_perm },
	[FOK_REGS6] = { "fokt_regs6", fokt_regs6, NULL },
};

/* ftrace_location() of each tracee, filled in by the suite init. */
static unsigned long fok_ips[FOK_NR];

/* Tracees the "call everything" helper calls (no special side effects). */
#define FOK_PLAIN_MASK	(GENMASK_ULL(FOK_NR_INT - 1, 0) &		\
			 ~(BIT_ULL(FOK_RECURSE) | BIT_ULL(FOK_TRYLOCK)))

#define FOK_BIT(i)	BIT_ULL(FOK_##i)

static int fok_index(unsigned long ip)
{
	int i;

	for (i = 0; i < FOK_NR; i++)
		if (fok_ips[i] == ip)
			return i;
	return -1;
}

/*
 * One ftrace_ops plus what its callback saw.  @hits counts calls from any
 * task, @mine only those made by @task (the test thread), which is what the
 * exact expectations use.
 */
struct fok_probe {
	struct ftrace_ops ops;
	struct task_struct *task;
	atomic_t hits[FOK_NR];
	atomic_t mine[FOK_NR];
	atomic_t other;		/* calls for an ip that is none of ours */
	atomic_t other_mine;	/* the same, made by @task */
	atomic_t late;		/* calls seen while @dead was set */
	bool dead;
	/* case specific */
	unsigned long watch_ip;
	atomic_t watch;
	int depth;
	atomic_t refused;
	unsigned long last_ip;
	unsigned long last_pip;
	struct ftrace_ops *last_op;
	void *last_private;
	bool regs_ok;
	bool fregs_ok;
	unsigned long regs_ip;
	unsigned long fregs_ip;
	long args[6];
	long fargs[6];
};

static notrace void fok_count(struct fok_probe *p, unsigned long ip)
{
	int i = fok_index(ip);

	if (READ_ONCE(p->dead))
		atomic_inc(&p->late);
	if (p->watch_ip && ip == p->watch_ip) {
		atomic_inc(&p->watch);
		return;
	}
	if (i < 0) {
		atomic_inc(&p->other);
		if (current == p->task)
			atomic_inc(&p->other_mine);
		return;
	}
	atomic_inc(&p->hits[i]);
	if (current == p->task)
		atomic_inc(&p->mine[i]);
}

static notrace void fok_count_cb(unsigned long ip, unsigned long parent_ip,
				 struct ftrace_ops *op,
				 struct ftrace_regs *fregs)
{
	fok_count(op->private, ip);
}

static void fok_probe_reset(struct fok_probe *p)
{
	int i;

	for (i = 0; i < FOK_NR; i++) {
		atomic_set(&p->hits[i], 0);
		atomic_set(&p->mine[i], 0);
	}
	atomic_set(&p->other, 0);
	atomic_set(&p->other_mine, 0);
	atomic_set(&p->late, 0);
	atomic_set(&p->watch, 0);
	atomic_set(&p->refused, 0);
}

/* KUnit action: make sure the ops is gone, then free its filters. */
static void fok_probe_release(void *data)
{
	struct fok_probe *p = data;

	if (p->ops.flags & FTRACE_OPS_FL_ENABLED)
		WARN_ON(unregister_ftrace_function(&p->ops));
	ftrace_free_filter(&p->ops);
}

static struct fok_probe *fok_probe_new(struct kunit *test, ftrace_func_t func,
				       unsigned long flags)
{
	struct fok_probe *p;

	p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	p->ops.func = func ? func : fok_count_cb;
	p->ops.flags = flags;
	p->ops.private = p;
	p->task = current;
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fok_probe_release, p));
	return p;
}

static int fok_register(struct fok_probe *p)
{
	WRITE_ONCE(p->dead, false);
	return register_ftrace_function(&p->ops);
}

static int fok_unregister(struct fok_probe *p)
{
	int ret = unregister_ftrace_function(&p->ops);

	/*
	 * Pairs with nothing: any callback that can still observe the store
	 * ran after unregister_ftrace_function() returned, which is the bug
	 * fok_count() counts in @late.
	 */
	smp_store_release(&p->dead, true);
	return ret;
}

/* ftrace_set_filter()/notrace() parse (and modify) a writable buffer. */
static int fok_set(struct fok_probe *p, const char *glob, int reset,
		   bool no_trace)
{
	unsigned char buf[KSYM_NAME_LEN];
	int len = 0;

	if (glob) {
		len = strscpy(buf, glob, sizeof(buf));
		if (len < 0)
			return len;
	}
	if (no_trace)
		return ftrace_set_notrace(&p->ops, glob ? buf : NULL, len,
					  reset);
	return ftrace_set_filter(&p->ops, glob ? buf : NULL, len, reset);
}

static int fok_filter(struct fok_probe *p, const char *glob, int reset)
{
	return fok_set(p, glob, reset, false);
}

static int fok_notrace(struct fok_probe *p, const char *glob, int reset)
{
	return fok_set(p, glob, reset, true);
}

/* Call each tracee in @mask @n times from the current task. */
static void fok_call(u64 mask, int n)
{
	int i, k;

	for (k = 0; k < n; k++)
		for (i = 0; i < FOK_NR_INT; i++)
			if (mask & BIT_ULL(i))
				fok_tracees[i].fn(k);
}

/* Expect exactly @n calls from the test thread on each tracee in @mask. */
static void fok_expect_mine(struct kunit *test, struct fok_probe *p,
			    u64 mask, int n)
{
	int i;

	for (i = 0; i < FOK_NR; i++)
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&p->mine[i]),
				    mask & BIT_ULL(i) ? n : 0,
				    "calls of %s", fok_tracees[i].name);
}

/*
 * Reset, call every plain tracee once, expect exactly @mask to be hit.
 * The short sleep runs plenty of traced kernel functions in this thread:
 * with a filter none of them may reach the callback (@other_mine), with
 * an empty filter they must.
 */
static void fok_expect_traced(struct kunit *test, struct fok_probe *p,
			      u64 mask)
{
	fok_probe_reset(p);
	fok_call(FOK_PLAIN_MASK, 1);
	usleep_range(10, 20);
	fok_expect_mine(test, p, mask, 1);
}

static bool fok_wait_for(atomic_t *v, int min, unsigned int ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);

	while (atomic_read(v) < min) {
		if (time_after(jiffies, end))
			return false;
		usleep_range(500, 1000);
	}
	return true;
}

/* A thread on another CPU that keeps calling the tracees in @mask. */
struct fok_worker {
	struct task_struct *task;
	u64 mask;
	atomic_t loops;
};

static int fok_worker_fn(void *data)
{
	struct fok_worker *w = data;

	while (!kthread_should_stop()) {
		fok_call(w->mask, 32);
		atomic_inc(&w->loops);
		/* Sleep voluntarily so that RCU-tasks grace periods can end. */
		usleep_range(20, 50);
	}
	return 0;
}

static void fok_worker_stop(void *data)
{
	struct fok_worker *w = data;

	kthread_stop(w->task);
}

/*
 * Pin the test thread to the first online CPU and start a worker on the
 * next one.  Skips the case on a single CPU.
 */
static struct fok_worker *fok_worker_start(struct kunit *test, u64 mask)
{
	unsigned int cpu_a, cpu_b;
	struct fok_worker *w;

	cpu_a = cpumask_first(cpu_online_mask);
	cpu_b = cpumask_next(cpu_a, cpu_online_mask);
	if (cpu_b >= nr_cpu_ids)
		kunit_skip(test, "needs two online CPUs");
	KUNIT_ASSERT_EQ(test, 0,
			set_cpus_allowed_ptr(current, cpumask_of(cpu_a)));

	w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w);
	w->mask = mask;
	w->task = kthread_create(fok_worker_fn, w, "fok_worker/%u", cpu_b);
	KUNIT_ASSERT_FALSE(test, IS_ERR(w->task));
	kthread_bind(w->task, cpu_b);
	wake_up_process(w->task);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fok_worker_stop, w));
	KUNIT_ASSERT_TRUE_MSG(test, fok_wait_for(&w->loops, 1, 10000),
			      "worker thread never ran");
	return w;
}

static int fok_suite_init(struct kunit_suite *suite)
{
	int i;

	for (i = 0; i < FOK_NR; i++) {
		fok_ips[i] = ftrace_location((unsigned long)fok_tracees[i].addr);
		if (!fok_ips[i]) {
			pr_err("ftrace_ops_kunit: %s has no ftrace record\n",
			       fok_tracees[i].name);
			return -EINVAL;
		}
	}
	return 0;
}

/* Every tracee is an ftrace location at the start of its own function. */
static void fok_tracees_test(struct kunit *test)
{
	unsigned long size, off;
	int i;

	for (i = 0; i < FOK_NR; i++) {
		unsigned long addr = (unsigned long)fok_tracees[i].addr;
		struct fok_probe *p = fok_probe_new(test, NULL, 0);

		KUNIT_EXPECT_NE(test, fok_ips[i], 0);
		KUNIT_EXPECT_GE(test, fok_ips[i], addr);
		KUNIT_ASSERT_TRUE(test, kallsyms_lookup_size_offset(fok_ips[i],
								    &size,
								    &off));
		KUNIT_EXPECT_EQ_MSG(test, fok_ips[i] - off, addr, "%s",
				    fok_tracees[i].name);
		KUNIT_EXPECT_LT(test, off, 16);
		/* The record is also found from the __fentry__ address. */
		KUNIT_EXPECT_EQ(test, ftrace_location(fok_ips[i]), fok_ips[i]);
		/* And by name, as in available_filter_functions. */
		KUNIT_EXPECT_EQ_MSG(test, fok_filter(p, fok_tracees[i].name, 1),
				    0, "%s", fok_tracees[i].name);
	}
}

/* 1. register/unregister, with a second CPU calling the tracee. */
static void fok_register_unregister(struct kunit *test,
				    struct fok_probe *p, bool strict)
{
	struct fok_worker *w;
	int before, loops;

	KUNIT_ASSERT_EQ(test, fok_filter(p, "fokt_basic", 1), 0);
	w = fok_worker_start(test, FOK_BIT(BASIC));

	/* Not registered yet: nothing. */
	fok_call(FOK_BIT(BASIC), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->hits[FOK_BASIC]), 0);

	KUNIT_ASSERT_EQ(test, fok_register(p), 0);
	KUNIT_EXPECT_TRUE(test, p->ops.flags & FTRACE_OPS_FL_ENABLED);
	fok_call(FOK_BIT(BASIC), 5);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->mine[FOK_BASIC]), 5);
	/* The worker's calls on the other CPU reach the callback too. */
	KUNIT_EXPECT_TRUE(test, fok_wait_for(&p->hits[FOK_BASIC], 1000, 10000));
	KUNIT_EXPECT_EQ(test, atomic_read(&p->other), 0);

	KUNIT_ASSERT_EQ(test, fok_unregister(p), 0);
	KUNIT_EXPECT_FALSE(test, p->ops.flags & FTRACE_OPS_FL_ENABLED);
	/*
	 * For an ops that may be freed (FTRACE_OPS_FL_DYNAMIC) no callback
	 * may start or still run once unregister_ftrace_function() returned.
	 * For a static one the core does not wait for a caller preempted
	 * inside its trampoline, so only check that the calls stop.
	 */
	if (!strict)
		msleep(100);
	before = atomic_read(&p->hits[FOK_BASIC]);
	loops = atomic_read(&w->loops);
	fok_call(FOK_BIT(BASIC), 5);
	/* Let the worker call the tracee thousands of times more. */
	KUNIT_EXPECT_TRUE(test, fok_wait_for(&w->loops, loops + 100, 20000));
	if (strict)
		KUNIT_EXPECT_EQ(test, atomic_read(&p->late), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->hits[FOK_BASIC]), before);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->mine[FOK_BASIC]), 5);

	/* The same ops can be registered again. */
	fok_probe_reset(p);
	KUNIT_ASSERT_EQ(test, fok_register(p), 0);
	fok_call(FOK_BIT(BASIC), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->mine[FOK_BASIC]), 2);
	KUNIT_ASSERT_EQ(test, fok_unregister(p), 0);
	fok_call(FOK_BIT(BASIC), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->mine[FOK_BASIC]), 2);
}

static void fok_register_test(struct kunit *test)
{
	struct fok_probe *p = fok_probe_new(test, NULL, 0);

	fok_register_unregister(test, p, true);
}

/*
 * An ops in core kernel data (not FTRACE_OPS_FL_DYNAMIC).  ftrace may keep
 * state for such an ops after it is unregistered (x86 keeps its
 * trampoline), so it is never cleared or freed: only its filters are
 * emptied for the next run.
 */
static struct fok_probe fok_static_probe = {
	.ops.func = fok_count_cb,
	.ops.private = &fok_static_probe,
};

static void fok_static_release(void *data)
{
	struct fok_probe *p = data;

	if (p->ops.flags & FTRACE_OPS_FL_ENABLED)
		WARN_ON(unregister_ftrace_function(&p->ops));
	WARN_ON(ftrace_set_filter(&p->ops, NULL, 0, 1));
	WARN_ON(ftrace_set_notrace(&p->ops, NULL, 0, 1));
}

static void fok_register_static_test(struct kunit *test)
{
	struct fok_probe *p = &fok_static_probe;

	fok_probe_reset(p);
	p->task = current;
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fok_static_release, p));
	fok_register_unregister(test, p, false);
}

/*
 * What an ops must ask for to read the arguments or move the ip: nothing
 * where the arch saves them for every ops (DYNAMIC_FTRACE_WITH_ARGS),
 * a full pt_regs elsewhere; an ops that asks for nothing gets NULL.
 */
#ifdef CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS
#define FOK_ARGS_FLAGS	0
#else
#define FOK_ARGS_FLAGS	FTRACE_OPS_FL_SAVE_REGS
#endif

/* 2. Callback arguments. */
static notrace void fok_args_cb(unsigned long ip, unsigned long parent_ip,
				struct ftrace_ops *op,
				struct ftrace_regs *fregs)
{
	struct fok_probe *p = op->private;

	p->last_ip = ip;
	p->last_pip = parent_ip;
	p->last_op = op;
	p->last_private = op->private;
	p->fargs[0] = ftrace_regs_get_argument(fregs, 0);
	fok_count(p, ip);
}

static void fok_args_test(struct kunit *test)
{
	struct fok_probe *p = fok_probe_new(test, fok_args_cb, FOK_ARGS_FLAGS);
	unsigned long here, size, off, csize, coff;
	int ret;

	KUNIT_ASSERT_EQ(test, fok_filter(p, "fokt_args", 1), 0);
	KUNIT_ASSERT_EQ(test, fok_register(p), 0);

	here = _THIS_IP_;
	ret = fokt_args(41);
	KUNIT_EXPECT_EQ(test, ret, 41 * 5 + 18);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->mine[FOK_ARGS]), 1);

	KUNIT_EXPECT_EQ(test, p->last_ip,
			ftrace_location((unsigned long)fokt_args));
	KUNIT_EXPECT_EQ(test, p->last_ip, fok_ips[FOK_ARGS]);
	/* parent_ip is the return address into this function. */
	KUNIT_EXPECT_EQ(test, p->last_pip, READ_ONCE(fokt_args_ret));
	KUNIT_ASSERT_TRUE(test, kallsyms_lookup_size_offset(here, &csize,
							    &coff));
	KUNIT_ASSERT_TRUE(test, kallsyms_lookup_size_offset(p->last_pip,
							    &size, &off));
	KUNIT_EXPECT_EQ(test, p->last_pip - off, here - coff);
	KUNIT_EXPECT_GT(test, off, 0);
	KUNIT_EXPECT_LT(test, off, size);
	KUNIT_EXPECT_PTR_EQ(test, p->last_op, &p->ops);
	KUNIT_EXPECT_PTR_EQ(test, p->last_private, (void *)p);
	KUNIT_EXPECT_EQ(test, p->fargs[0], 41);
}

/* 3. Filters. */
static void fok_filter_test(struct kunit *test)
{
	struct fok_probe *p = fok_probe_new(test, NULL, 0);

	/* Set before registration. */
	KUNIT_ASSERT_EQ(test, fok_filter(p, "fokt_pfx_one", 1), 0);
	KUNIT_ASSERT_EQ(test, fok_register(p), 0);
	fok_expect_traced(test, p, FOK_BIT(PFX_ONE));

	/* Set after registration: each takes effect at once. */
	KUNIT_EXPECT_EQ(test, fok_filter(p, "fokt_pfx_*", 1), 0);
	fok_expect_traced(test, p, FOK_BIT(PFX_ONE) | FOK_BIT(PFX_TWO));

	KUNIT_EXPECT_EQ(test, fok_filter(p, "*_sfxq", 1), 0);
	fok_expect_traced(test, p, FOK_BIT(ONE_SFXQ) | FOK_BIT(TWO_SFXQ));

	KUNIT_EXPECT_EQ(test, fok_filter(p, "*midq*", 1), 0);
	fok_expect_traced(test, p, FOK_BIT(A_MIDQ) | FOK_BIT(B_MIDQ));

	KUNIT_EXPECT_EQ(test, fok_filter(p, "fokt_*_sfxq", 1), 0);
	fok_expect_traced(test, p, FOK_BIT(ONE_SFXQ) | FOK_BIT(TWO_SFXQ));

	KUNIT_EXPECT_EQ(test, fok_filter(p, "fokt_ip_?", 1), 0);
	fok_expect_traced(test, p, FOK_BIT(IP_A) | FOK_BIT(IP_B) |
			  FOK_BIT(IP_C));

	/* reset=0 adds to the filter. */
	KUNIT_EXPECT_EQ(test, fok_filter(p, "fokt_pfx_one", 1), 0);
	KUNIT_EXPECT_EQ(test, fok_filter(p, "*_sfxq", 0), 0);
	KUNIT_EXPECT_EQ(test, fok_filter(p, "fokt_a_midq_one", 0), 0);
	fok_expect_traced(test, p, FOK_BIT(PFX_ONE) | FOK_BIT(ONE_SFXQ) |
			  FOK_BIT(TWO_SFXQ) | FOK_BIT(A_MIDQ));
	/* Adding a function that is already there changes nothing. */
	KUNIT_EXPECT_EQ(test, fok_filter(p, "fokt_pfx_one", 0), 0);
	fok_expect_traced(test, p, FOK_BIT(PFX_ONE) | FOK_BIT(ONE_SFXQ) |
			  FOK_BIT(TWO_SFXQ) | FOK_BIT(A_MIDQ));
	/* A leading '!' removes the matches. */
	KUNIT_EXPECT_EQ(test, fok_filter(p, "!*_sfxq", 0), 0);
	fok_expect_traced(test, p, FOK_BIT(PFX_ONE) | FOK_BIT(A_MIDQ));

	/* reset=1 replaces. */
	KUNIT_EXPECT_EQ(test, fok_filter(p, "fokt_b_midq_two", 1), 0);
	fok_expect_traced(test, p, FOK_BIT(B_MIDQ));

	/* Unknown names fail with -EINVAL and change nothing. */
	KUNIT_EXPECT_EQ(test, fok_filter(p, "fokt_no_such_function", 1),
			-EINVAL);
	fok_expect_traced(test, p, FOK_BIT(B_MIDQ));
	KUNIT_EXPECT_EQ(test, fok_filter(p, "fokt_no_such_function", 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, fok_filter(p, "fokt_nomatch_*", 1), -EINVAL);
	fok_expect_traced(test, p, FOK_BIT(B_MIDQ));
	KUNIT_EXPECT_EQ(test, atomic_read(&p->other_mine), 0);

	/* After unregistering, nothing is traced whatever the filter. */
	KUNIT_ASSERT_EQ(test, fok_unregister(p), 0);
	fok_expect_traced(test, p, 0);
	KUNIT_EXPECT_EQ(test, fok_filter(p, "fokt_pfx_two", 1), 0);
	fok_expect_traced(test, p, 0);
	/* ... and the filter set meanwhile applies at the next register. */
	KUNIT_ASSERT_EQ(test, fok_register(p), 0);
	fok_expect_traced(test, p, FOK_BIT(PFX_TWO));
}

/* 4. notrace. */
static void fok_notrace_test(struct kunit *test)
{
	struct fok_probe *p = fok_probe_new(test, NULL, 0);
	u64 all = FOK_PLAIN_MASK;

	/* A function in both lists is never called. */
	KUNIT_ASSERT_EQ(test, fok_filter(p, "fokt_pfx_*", 1), 0);
	KUNIT_ASSERT_EQ(test, fok_notrace(p, "fokt_pfx_one", 1), 0);
	KUNIT_ASSERT_EQ(test, fok_register(p), 0);
	fok_expect_traced(test, p, FOK_BIT(PFX_TWO));
	KUNIT_EXPECT_EQ(test, fok_notrace(p, "fokt_pfx_two", 0), 0);
	fok_expect_traced(test, p, 0);
	KUNIT_EXPECT_EQ(test, fok_notrace(p, "fokt_no_such_function", 0),
			-EINVAL);
	fok_expect_traced(test, p, 0);

	/* A notrace glob removes only its matches from a glob filter. */
	KUNIT_EXPECT_EQ(test, fok_filter(p, "fokt_*", 1), 0);
	KUNIT_EXPECT_EQ(test, fok_notrace(p, "*_sfxq", 1), 0);
	fok_expect_traced(test, p, all & ~(FOK_BIT(ONE_SFXQ) |
					   FOK_BIT(TWO_SFXQ)));
	KUNIT_EXPECT_EQ(test, atomic_read(&p->other_mine), 0);

	/* Clearing notrace restores them. */
	KUNIT_EXPECT_EQ(test, fok_notrace(p, NULL, 1), 0);
	fok_expect_traced(test, p, all);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->other_mine), 0);

	/*
	 * notrace alone (empty filter: every function) with a glob: every
	 * function but the matches.
	 */
	KUNIT_EXPECT_EQ(test, fok_notrace(p, "fokt_pfx_*", 1), 0);
	KUNIT_EXPECT_EQ(test, fok_filter(p, NULL, 1), 0);
	fok_expect_traced(test, p, all & ~(FOK_BIT(PFX_ONE) |
					   FOK_BIT(PFX_TWO)));
	KUNIT_EXPECT_GT(test, atomic_read(&p->other_mine), 0);
	KUNIT_EXPECT_EQ(test, fok_notrace(p, NULL, 1), 0);
	fok_expect_traced(test, p, all);
	KUNIT_EXPECT_GT(test, atomic_read(&p->other_mine), 0);
	/* Back to a filter: only its function. */
	KUNIT_EXPECT_EQ(test, fok_filter(p, "fokt_basic", 1), 0);
	fok_expect_traced(test, p, FOK_BIT(BASIC));
	KUNIT_EXPECT_EQ(test, atomic_read(&p->other_mine), 0);
}

/* 5. The atomic filter switch, with another CPU calling C. */
static void fok_switch_test(struct kunit *test)
{
	struct fok_probe *p = fok_probe_new(test, NULL, 0);
	unsigned long ips[1];
	struct fok_worker *w;
	int i, worker_hits;

	KUNIT_ASSERT_EQ(test, fok_filter(p, "fokt_sw_a", 1), 0);
	KUNIT_ASSERT_EQ(test, fok_register(p), 0);
	w = fok_worker_start(test, FOK_BIT(SW_A) | FOK_BIT(SW_B) |
			     FOK_BIT(SW_C));

	for (i = 0; i < 40; i++) {
		bool to_b = !(i & 1);
		int mine_a = atomic_read(&p->mine[FOK_SW_A]);
		int mine_b = atomic_read(&p->mine[FOK_SW_B]);

		if (i & 2) {
			ips[0] = (unsigned long)(to_b ? fokt_sw_b : fokt_sw_a);
			KUNIT_EXPECT_EQ(test,
					ftrace_set_filter_ips(&p->ops, ips, 1,
							      0, 1), 0);
		} else {
			KUNIT_EXPECT_EQ(test,
					fok_filter(p, to_b ? "fokt_sw_b" :
						   "fokt_sw_a", 1), 0);
		}
		fok_call(FOK_BIT(SW_A) | FOK_BIT(SW_B) | FOK_BIT(SW_C), 1);
		KUNIT_EXPECT_EQ(test, atomic_read(&p->mine[FOK_SW_A]),
				mine_a + !to_b);
		KUNIT_EXPECT_EQ(test, atomic_read(&p->mine[FOK_SW_B]),
				mine_b + to_b);
	}
	/* Keep the worker going for a while on the final filter. */
	i = atomic_read(&w->loops);
	KUNIT_EXPECT_TRUE(test, fok_wait_for(&w->loops, i + 20, 20000));
	kunit_release_action(test, fok_worker_stop, w);

	KUNIT_EXPECT_EQ(test, atomic_read(&p->hits[FOK_SW_C]), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->other), 0);
	worker_hits = atomic_read(&p->hits[FOK_SW_A]) +
		      atomic_read(&p->hits[FOK_SW_B]) -
		      atomic_read(&p->mine[FOK_SW_A]) -
		      atomic_read(&p->mine[FOK_SW_B]);
	KUNIT_EXPECT_GT(test, worker_hits, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->mine[FOK_SW_C]), 0);
}

/* 6. ftrace_set_filter_ip() and ftrace_set_filter_ips(). */
static void fok_filter_ip_test(struct kunit *test)
{
	struct fok_probe *p = fok_probe_new(test, NULL, 0);
	unsigned long a = (unsigned long)fokt_ip_a;
	unsigned long b = (unsigned long)fokt_ip_b;
	unsigned long c = (unsigned long)fokt_ip_c;
	/*
	 * Inside fokt_ip_a, not its site: a + 1 is in the site where the
	 * function starts with it (no ENDBR, no patchable prologue).
	 */
	unsigned long bad = fok_ips[FOK_IP_A] + MCOUNT_INSN_SIZE;
	unsigned long ips[3];

	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(&p->ops, a, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, fok_register(p), 0);
	fok_expect_traced(test, p, FOK_BIT(IP_A));

	/* Add while registered; the __fentry__ address works as well. */
	KUNIT_EXPECT_EQ(test, ftrace_set_filter_ip(&p->ops, fok_ips[FOK_IP_B],
						   0, 0), 0);
	fok_expect_traced(test, p, FOK_BIT(IP_A) | FOK_BIT(IP_B));
	/* Adding an address twice is fine. */
	KUNIT_EXPECT_EQ(test, ftrace_set_filter_ip(&p->ops, b, 0, 0), 0);
	fok_expect_traced(test, p, FOK_BIT(IP_A) | FOK_BIT(IP_B));

	/* Remove. */
	KUNIT_EXPECT_EQ(test, ftrace_set_filter_ip(&p->ops, a, 1, 0), 0);
	fok_expect_traced(test, p, FOK_BIT(IP_B));
	/* Removing what is not there: -ENOENT, nothing changes. */
	KUNIT_EXPECT_EQ(test, ftrace_set_filter_ip(&p->ops, a, 1, 0),
			-ENOENT);
	fok_expect_traced(test, p, FOK_BIT(IP_B));

	/* Not an ftrace location: -EINVAL, nothing changes. */
	KUNIT_EXPECT_EQ(test, ftrace_set_filter_ip(&p->ops, bad, 0, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test,
			ftrace_set_filter_ip(&p->ops,
					     (unsigned long)fok_index, 0, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test,
			ftrace_set_filter_ip(&p->ops,
					     (unsigned long)&fok_ips[1], 0, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ftrace_set_filter_ip(&p->ops, bad, 1, 0),
			-EINVAL);
	fok_expect_traced(test, p, FOK_BIT(IP_B));

	/* reset=1 replaces. */
	KUNIT_EXPECT_EQ(test, ftrace_set_filter_ip(&p->ops, c, 0, 1), 0);
	fok_expect_traced(test, p, FOK_BIT(IP_C));

	/* Arrays. */
	ips[0] = a;
	ips[1] = b;
	ips[2] = c;
	KUNIT_EXPECT_EQ(test, ftrace_set_filter_ips(&p->ops, ips, 2, 0, 1), 0);
	fok_expect_traced(test, p, FOK_BIT(IP_A) | FOK_BIT(IP_B));
	KUNIT_EXPECT_EQ(test, ftrace_set_filter_ips(&p->ops, ips, 3, 0, 0), 0);
	fok_expect_traced(test, p, FOK_BIT(IP_A) | FOK_BIT(IP_B) |
			  FOK_BIT(IP_C));
	KUNIT_EXPECT_EQ(test, ftrace_set_filter_ips(&p->ops, ips, 2, 1, 0), 0);
	fok_expect_traced(test, p, FOK_BIT(IP_C));
	/* One bad address fails the whole array and changes nothing. */
	ips[0] = a;
	ips[1] = bad;
	KUNIT_EXPECT_EQ(test, ftrace_set_filter_ips(&p->ops, ips, 2, 0, 1),
			-EINVAL);
	fok_expect_traced(test, p, FOK_BIT(IP_C));
	ips[0] = c;
	ips[1] = a;
	KUNIT_EXPECT_EQ(test, ftrace_set_filter_ips(&p->ops, ips, 2, 1, 0),
			-ENOENT);
	fok_expect_traced(test, p, FOK_BIT(IP_C));
	KUNIT_EXPECT_EQ(test, atomic_read(&p->other), 0);
}

/* 7. Several ops. */
static void fok_multi_test(struct kunit *test)
{
	struct fok_probe *s[3], *x, *y;
	struct fok_worker *w;
	int i;

	for (i = 0; i < 3; i++) {
		s[i] = fok_probe_new(test, NULL, i == 1 ? FTRACE_OPS_FL_RECURSION
						    : 0);
		KUNIT_ASSERT_EQ(test, fok_filter(s[i], "fokt_multi", 1), 0);
	}
	x = fok_probe_new(test, NULL, 0);
	/* Saving regs where the arch can (DYNAMIC_FTRACE_WITH_REGS). */
	y = fok_probe_new(test, NULL, FTRACE_OPS_FL_SAVE_REGS |
			  FTRACE_OPS_FL_SAVE_REGS_IF_SUPPORTED);
	KUNIT_ASSERT_EQ(test, fok_filter(x, "fokt_multi_x", 1), 0);
	KUNIT_ASSERT_EQ(test, fok_filter(y, "fokt_multi_y", 1), 0);
	w = fok_worker_start(test, FOK_BIT(MULTI) | FOK_BIT(MULTI_X) |
			     FOK_BIT(MULTI_Y));

	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_EQ(test, fok_register(s[i]), 0);
	KUNIT_ASSERT_EQ(test, fok_register(x), 0);
	KUNIT_ASSERT_EQ(test, fok_register(y), 0);

	fok_call(FOK_BIT(MULTI), 5);
	fok_call(FOK_BIT(MULTI_X), 3);
	fok_call(FOK_BIT(MULTI_Y), 2);
	for (i = 0; i < 3; i++)
		fok_expect_mine(test, s[i], FOK_BIT(MULTI), 5);
	fok_expect_mine(test, x, FOK_BIT(MULTI_X), 3);
	fok_expect_mine(test, y, FOK_BIT(MULTI_Y), 2);

	/* Remove the middle one while the worker calls all three. */
	KUNIT_ASSERT_EQ(test, fok_unregister(s[1]), 0);
	for (i = 0; i < 3; i++)
		atomic_set(&s[i]->mine[FOK_MULTI], 0);
	fok_call(FOK_BIT(MULTI), 4);
	KUNIT_EXPECT_EQ(test, atomic_read(&s[0]->mine[FOK_MULTI]), 4);
	KUNIT_EXPECT_EQ(test, atomic_read(&s[1]->mine[FOK_MULTI]), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s[2]->mine[FOK_MULTI]), 4);

	i = atomic_read(&w->loops);
	KUNIT_EXPECT_TRUE(test, fok_wait_for(&w->loops, i + 10, 20000));
	kunit_release_action(test, fok_worker_stop, w);
	KUNIT_EXPECT_EQ(test, atomic_read(&s[1]->late), 0);

	/* No ops saw another one's tracee, from any CPU. */
	KUNIT_EXPECT_GT(test, atomic_read(&s[0]->hits[FOK_MULTI]),
			atomic_read(&s[0]->mine[FOK_MULTI]));
	KUNIT_EXPECT_GT(test, atomic_read(&s[2]->hits[FOK_MULTI]),
			atomic_read(&s[2]->mine[FOK_MULTI]));
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, atomic_read(&s[i]->hits[FOK_MULTI_X]), 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&s[i]->hits[FOK_MULTI_Y]), 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&s[i]->other), 0);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&x->hits[FOK_MULTI]), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&x->hits[FOK_MULTI_Y]), 0);
	KUNIT_EXPECT_GT(test, atomic_read(&x->hits[FOK_MULTI_X]), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&y->hits[FOK_MULTI]), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&y->hits[FOK_MULTI_X]), 0);
	KUNIT_EXPECT_GT(test, atomic_read(&y->hits[FOK_MULTI_Y]), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&x->other), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&y->other), 0);
}

/* 8. Registers. */
static notrace void fok_regs_cb(unsigned long ip, unsigned long parent_ip,
				struct ftrace_ops *op,
				struct ftrace_regs *fregs)
{
	struct fok_probe *p = op->private;
	struct pt_regs *regs = ftrace_get_regs(fregs);
	int i;

	p->last_ip = ip;
	p->regs_ok = regs;
	p->fregs_ok = fregs;
	if (!fregs) {
		fok_count(p, ip);
		return;
	}
	p->fregs_ip = ftrace_regs_get_instruction_pointer(fregs);
	for (i = 0; i < 6; i++)
		p->fargs[i] = ftrace_regs_get_argument(fregs, i);
	if (regs) {
		p->regs_ip = instruction_pointer(regs);
		for (i = 0; i < 6; i++)
			p->args[i] = regs_get_kernel_argument(regs, i);
	}
	fok_count(p, ip);
}

/* The byte @b in every byte of a long (all eight of them on 64-bit). */
#define FOK_BYTES(b)	((long)(0x0101010101010101ULL * (b)))

static const long fok_regs_args[6] = {
	FOK_BYTES(0x11), -2L, FOK_BYTES(0x33), 0x4444L,
	-FOK_BYTES(0x55), FOK_BYTES(0x66),
};

static long fok_call_regs6(void)
{
	const long *a = fok_regs_args;

	return fokt_regs6(a[0], a[1], a[2], a[3], a[4], a[5]);
}

static void fok_regs_check(struct kunit *test, unsigned long flags,
			   bool want_regs)
{
	struct fok_probe *p = fok_probe_new(test, fok_regs_cb, flags);
	unsigned long size, off;
	int i;

	const long *a = fok_regs_args;
	long want;

	want = a[0] ^ (a[1] << 1) ^ (a[2] << 2) ^ (a[3] << 3) ^
	       (a[4] << 4) ^ (a[5] << 5);
	KUNIT_ASSERT_EQ(test, fok_filter(p, "fokt_regs6", 1), 0);
	KUNIT_ASSERT_EQ(test, fok_register(p), 0);
	KUNIT_EXPECT_EQ(test, fok_call_regs6(), want);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->mine[FOK_REGS6]), 1);
	KUNIT_EXPECT_EQ(test, p->last_ip, fok_ips[FOK_REGS6]);
	KUNIT_EXPECT_EQ(test, p->regs_ok, want_regs);
	KUNIT_EXPECT_EQ(test, p->fregs_ok, want_regs || !FOK_ARGS_FLAGS);
	if (!p->fregs_ok)
		return;
	/* The saved instruction pointer is just past the __fentry__ call. */
	KUNIT_EXPECT_EQ(test, p->fregs_ip, p->last_ip + MCOUNT_INSN_SIZE);
	for (i = 0; i < 6; i++)
		KUNIT_EXPECT_EQ_MSG(test, p->fargs[i], fok_regs_args[i],
				    "argument %d", i);
	if (!want_regs)
		return;
	KUNIT_EXPECT_EQ(test, p->regs_ip, p->last_ip + MCOUNT_INSN_SIZE);
	KUNIT_ASSERT_TRUE(test, kallsyms_lookup_size_offset(p->regs_ip, &size,
							    &off));
	KUNIT_EXPECT_EQ(test, p->regs_ip - off, (unsigned long)fokt_regs6);
	for (i = 0; i < 6; i++)
		KUNIT_EXPECT_EQ_MSG(test, p->args[i], fok_regs_args[i],
				    "pt_regs argument %d", i);
}

/* Where the arch cannot save regs, an ops that must have them is refused. */
static void fok_save_regs_test(struct kunit *test)
{
	struct fok_probe *p;

	if (IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_REGS)) {
		fok_regs_check(test, FTRACE_OPS_FL_SAVE_REGS, true);
		return;
	}
	p = fok_probe_new(test, fok_regs_cb, FTRACE_OPS_FL_SAVE_REGS);
	KUNIT_ASSERT_EQ(test, fok_filter(p, "fokt_regs6", 1), 0);
	KUNIT_EXPECT_EQ(test, fok_register(p), -EINVAL);
	KUNIT_EXPECT_FALSE(test, p->ops.flags & FTRACE_OPS_FL_ENABLED);
}

static void fok_save_regs_if_supported_test(struct kunit *test)
{
	fok_regs_check(test, FTRACE_OPS_FL_SAVE_REGS |
		       FTRACE_OPS_FL_SAVE_REGS_IF_SUPPORTED,
		       IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_REGS));
}

static void fok_no_regs_test(struct kunit *test)
{
	fok_regs_check(test, 0, false);
}

/* 9. IPMODIFY. */
static notrace void fok_ipmod_cb(unsigned long ip, unsigned long parent_ip,
				 struct ftrace_ops *op,
				 struct ftrace_regs *fregs)
{
	struct pt_regs *regs = ftrace_get_regs(fregs);

	fok_count(op->private, ip);
	if (ip != fok_ips[FOK_IPMOD_ORIG])
		return;
	/* Without DYNAMIC_FTRACE_WITH_ARGS it asked for regs (FOK_ARGS_FLAGS). */
	if (regs)
		instruction_pointer_set(regs, (unsigned long)fokt_ipmod_new);
	else
		ftrace_regs_set_instruction_pointer(fregs,
						    (unsigned long)fokt_ipmod_new);
}

static notrace void fok_ipmod_regs_cb(unsigned long ip,
				      unsigned long parent_ip,
				      struct ftrace_ops *op,
				      struct ftrace_regs *fregs)
{
	struct pt_regs *regs = ftrace_get_regs(fregs);

	fok_count(op->private, ip);
	if (regs && ip == fok_ips[FOK_IPMOD_ORIG])
		instruction_pointer_set(regs, (unsigned long)fokt_ipmod_new);
}

static void fok_ipmodify_check(struct kunit *test, ftrace_func_t func,
			       unsigned long flags)
{
	struct fok_probe *p = fok_probe_new(test, func,
					    flags | FTRACE_OPS_FL_IPMODIFY);
	struct fok_probe *q = fok_probe_new(test, fok_ipmod_cb,
					    FTRACE_OPS_FL_IPMODIFY | FOK_ARGS_FLAGS);
	struct fok_probe *r = fok_probe_new(test, NULL, 0);

	KUNIT_EXPECT_EQ(test, fokt_ipmod_orig(5), 6);
	KUNIT_ASSERT_EQ(test, fok_filter(p, "fokt_ipmod_orig", 1), 0);
	KUNIT_ASSERT_EQ(test, fok_register(p), 0);
	KUNIT_EXPECT_EQ(test, fokt_ipmod_orig(5), 507);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->mine[FOK_IPMOD_ORIG]), 1);

	/* A second IPMODIFY ops on the same function is refused. */
	KUNIT_ASSERT_EQ(test, fok_filter(q, "fokt_ipmod_orig", 1), 0);
	KUNIT_EXPECT_EQ(test, fok_register(q), -EBUSY);
	KUNIT_EXPECT_FALSE(test, q->ops.flags & FTRACE_OPS_FL_ENABLED);
	KUNIT_EXPECT_EQ(test, fokt_ipmod_orig(6), 607);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->mine[FOK_IPMOD_ORIG]), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&q->mine[FOK_IPMOD_ORIG]), 0);

	/* ... also when it tries to add it to its filter later. */
	KUNIT_ASSERT_EQ(test, fok_filter(q, "fokt_basic", 1), 0);
	KUNIT_ASSERT_EQ(test, fok_register(q), 0);
	KUNIT_EXPECT_EQ(test, fok_filter(q, "fokt_ipmod_orig", 0), -EBUSY);
	KUNIT_EXPECT_EQ(test, fokt_ipmod_orig(7), 707);
	KUNIT_EXPECT_EQ(test, atomic_read(&q->mine[FOK_IPMOD_ORIG]), 0);
	KUNIT_EXPECT_EQ(test, fokt_basic(1), 1 * 3 + 11);
	KUNIT_EXPECT_EQ(test, atomic_read(&q->mine[FOK_BASIC]), 1);
	KUNIT_ASSERT_EQ(test, fok_unregister(q), 0);

	/* A plain ops on the same function coexists and sees the call. */
	KUNIT_ASSERT_EQ(test, fok_filter(r, "fokt_ipmod_orig", 1), 0);
	KUNIT_ASSERT_EQ(test, fok_register(r), 0);
	KUNIT_EXPECT_EQ(test, fokt_ipmod_orig(8), 807);
	KUNIT_EXPECT_EQ(test, atomic_read(&r->mine[FOK_IPMOD_ORIG]), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&r->mine[FOK_IPMOD_NEW]), 0);
	KUNIT_ASSERT_EQ(test, fok_unregister(r), 0);

	/* Unregistered: the original runs again. */
	KUNIT_ASSERT_EQ(test, fok_unregister(p), 0);
	KUNIT_EXPECT_EQ(test, fokt_ipmod_orig(9), 10);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->mine[FOK_IPMOD_ORIG]), 4);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->other), 0);

	/* Now the second one may take the function. */
	KUNIT_ASSERT_EQ(test, fok_filter(q, "fokt_ipmod_orig", 1), 0);
	KUNIT_ASSERT_EQ(test, fok_register(q), 0);
	KUNIT_EXPECT_EQ(test, fokt_ipmod_orig(3), 307);
	KUNIT_EXPECT_EQ(test, atomic_read(&q->mine[FOK_IPMOD_ORIG]), 1);
}

static void fok_ipmodify_test(struct kunit *test)
{
	if (FOK_ARGS_FLAGS)
		kunit_skip(test, "only an ops with pt_regs may move the ip here");
	fok_ipmodify_check(test, fok_ipmod_cb, 0);
}

static void fok_ipmodify_regs_test(struct kunit *test)
{
	if (!IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_REGS))
		kunit_skip(test, "the arch saves no pt_regs");
	fok_ipmodify_check(test, fok_ipmod_regs_cb, FTRACE_OPS_FL_SAVE_REGS);
}

/* 10. Recursion. */
static notrace void fok_recurse_cb(unsigned long ip, unsigned long parent_ip,
				   struct ftrace_ops *op,
				   struct ftrace_regs *fregs)
{
	struct fok_probe *p = op->private;

	fok_count(p, ip);
	/* Bounded even if the core let everything through. */
	if (++p->depth < 8)
		fokt_recurse(p->depth);
	p->depth--;
}

static void fok_recursion_test(struct kunit *test)
{
	struct fok_probe *p = fok_probe_new(test, fok_recurse_cb,
					    FTRACE_OPS_FL_RECURSION);

	KUNIT_ASSERT_EQ(test, fok_filter(p, "fokt_recurse", 1), 0);
	KUNIT_ASSERT_EQ(test, fok_register(p), 0);
	fokt_recurse(0);
	fokt_recurse(0);
	fokt_recurse(0);
	/* The guard lets no call from inside the callback through. */
	KUNIT_EXPECT_EQ(test, atomic_read(&p->mine[FOK_RECURSE]), 3);
	KUNIT_EXPECT_EQ(test, p->depth, 0);
}

static notrace void fok_trylock_cb(unsigned long ip, unsigned long parent_ip,
				   struct ftrace_ops *op,
				   struct ftrace_regs *fregs)
{
	struct fok_probe *p = op->private;
	int bit;

	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0) {
		atomic_inc(&p->refused);
		return;
	}
	fok_count(p, ip);
	if (++p->depth < 8)
		fokt_trylock(p->depth);
	p->depth--;
	ftrace_test_recursion_unlock(bit);
}

static void fok_recursion_trylock_test(struct kunit *test)
{
	struct fok_probe *p = fok_probe_new(test, fok_trylock_cb, 0);
	int b1, b2, b3, b4;

	/* Directly: the first nested attempt passes, the second does not. */
	b1 = ftrace_test_recursion_trylock(_THIS_IP_, _RET_IP_);
	b2 = ftrace_test_recursion_trylock(_THIS_IP_, _RET_IP_);
	b3 = ftrace_test_recursion_trylock(_THIS_IP_, _RET_IP_);
	if (b2 >= 0)
		ftrace_test_recursion_unlock(b2);
	if (b1 >= 0)
		ftrace_test_recursion_unlock(b1);
	b4 = ftrace_test_recursion_trylock(_THIS_IP_, _RET_IP_);
	if (b4 >= 0)
		ftrace_test_recursion_unlock(b4);
	KUNIT_EXPECT_GE(test, b1, 0);
	KUNIT_EXPECT_GE(test, b2, 0);
	KUNIT_EXPECT_NE(test, b1, b2);
	KUNIT_EXPECT_LT(test, b3, 0);
	KUNIT_EXPECT_GE(test, b4, 0);

	/* From a callback that calls its own tracee. */
	KUNIT_ASSERT_EQ(test, fok_filter(p, "fokt_trylock", 1), 0);
	KUNIT_ASSERT_EQ(test, fok_register(p), 0);
	fokt_trylock(0);
	fokt_trylock(0);
	fokt_trylock(0);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->mine[FOK_TRYLOCK]), 6);
	/*
	 * The third level is refused by the callback's trylock where the
	 * site calls the ops' function, and before it by the list
	 * function's own guard where the site goes through that function:
	 * an ops with no trampoline of its own, on an arch without call ops.
	 */
	KUNIT_EXPECT_EQ(test, atomic_read(&p->refused),
			p->ops.trampoline ||
			IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_CALL_OPS) ? 3 : 0);
	KUNIT_EXPECT_EQ(test, p->depth, 0);
}

/* 11. PERMANENT and kernel.ftrace_enabled. */
struct fok_sysctl {
	struct vfsmount *mnt;
	struct file *file;
	int saved;
};

static int fok_sysctl_write(struct fok_sysctl *s, int val)
{
	char buf[8];
	loff_t pos = 0;
	ssize_t ret;
	int len;

	len = scnprintf(buf, sizeof(buf), "%d\n", val);
	ret = kernel_write(s->file, buf, len, &pos);
	if (ret < 0)
		return ret;
	return ret == len ? 0 : -EIO;
}

static int fok_sysctl_read(struct fok_sysctl *s, int *val)
{
	char buf[16] = {};
	loff_t pos = 0;
	ssize_t ret;

	ret = kernel_read(s->file, buf, sizeof(buf) - 1, &pos);
	if (ret < 0)
		return ret;
	return kstrtoint(strim(buf), 10, val);
}

static void fok_sysctl_release(void *data)
{
	struct fok_sysctl *s = data;
	int val;

	if (fok_sysctl_read(s, &val) || val != s->saved)
		WARN_ON(fok_sysctl_write(s, s->saved));
	fput(s->file);
	kern_unmount(s->mnt);
}

/* Open sys/kernel/ftrace_enabled on a private procfs mount. */
static struct fok_sysctl *fok_sysctl_open(struct kunit *test)
{
	struct file_system_type *proc;
	struct fok_sysctl *s;

	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	proc = get_fs_type("proc");
	KUNIT_ASSERT_NOT_NULL(test, proc);
	s->mnt = kern_mount(proc);
	put_filesystem(proc);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s->mnt));
	s->file = file_open_root_mnt(s->mnt, "sys/kernel/ftrace_enabled",
				     O_RDWR, 0);
	if (IS_ERR(s->file)) {
		kern_unmount(s->mnt);
		KUNIT_FAIL_AND_ABORT(test, "open ftrace_enabled: %ld",
				     PTR_ERR(s->file));
	}
	if (fok_sysctl_read(s, &s->saved)) {
		fput(s->file);
		kern_unmount(s->mnt);
		KUNIT_FAIL_AND_ABORT(test, "cannot read ftrace_enabled");
	}
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fok_sysctl_release, s));
	return s;
}

static int fok_sysctl_value(struct fok_sysctl *s)
{
	int val = -1;

	fok_sysctl_read(s, &val);
	return val;
}

static void fok_ftrace_enabled_test(struct kunit *test)
{
	struct fok_sysctl *s = fok_sysctl_open(test);
	struct fok_probe *p = fok_probe_new(test, NULL, 0);
	struct fok_probe *q = fok_probe_new(test, NULL, 0);
	int ret;

	KUNIT_ASSERT_EQ(test, fok_sysctl_write(s, 1), 0);
	KUNIT_ASSERT_EQ(test, fok_filter(p, "fokt_perm", 1), 0);
	KUNIT_ASSERT_EQ(test, fok_filter(q, "fokt_perm", 1), 0);
	KUNIT_ASSERT_EQ(test, fok_register(p), 0);
	fok_call(FOK_BIT(PERM), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->mine[FOK_PERM]), 1);

	ret = fok_sysctl_write(s, 0);
	if (ret == -EBUSY)
		kunit_skip(test, "a permanent ftrace_ops is registered elsewhere");
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, fok_sysctl_value(s), 0);
	fok_call(FOK_BIT(PERM), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->mine[FOK_PERM]), 1);
	/* An ordinary ops can be registered at 0 and stays quiet. */
	KUNIT_ASSERT_EQ(test, fok_register(q), 0);
	fok_call(FOK_BIT(PERM), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->mine[FOK_PERM]), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&q->mine[FOK_PERM]), 0);
	/* Writing the same value again changes nothing. */
	KUNIT_EXPECT_EQ(test, fok_sysctl_write(s, 0), 0);

	KUNIT_ASSERT_EQ(test, fok_sysctl_write(s, 1), 0);
	KUNIT_EXPECT_EQ(test, fok_sysctl_value(s), 1);
	fok_call(FOK_BIT(PERM), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->mine[FOK_PERM]), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&q->mine[FOK_PERM]), 1);

	/* Unregistering at 0 works too; the ops is gone at 1. */
	KUNIT_ASSERT_EQ(test, fok_sysctl_write(s, 0), 0);
	KUNIT_ASSERT_EQ(test, fok_unregister(q), 0);
	KUNIT_ASSERT_EQ(test, fok_sysctl_write(s, 1), 0);
	fok_call(FOK_BIT(PERM), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->mine[FOK_PERM]), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&q->mine[FOK_PERM]), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&q->late), 0);
}

static void fok_permanent_test(struct kunit *test)
{
	struct fok_sysctl *s = fok_sysctl_open(test);
	struct fok_probe *perm = fok_probe_new(test, NULL,
					       FTRACE_OPS_FL_PERMANENT);
	struct fok_probe *p = fok_probe_new(test, NULL, 0);
	int ret;

	KUNIT_ASSERT_EQ(test, fok_sysctl_write(s, 1), 0);
	KUNIT_ASSERT_EQ(test, fok_filter(perm, "fokt_perm", 1), 0);
	KUNIT_ASSERT_EQ(test, fok_filter(p, "fokt_perm", 1), 0);
	KUNIT_ASSERT_EQ(test, fok_register(p), 0);

	/* With ftrace_enabled at 0, a PERMANENT ops cannot register. */
	ret = fok_sysctl_write(s, 0);
	if (ret == -EBUSY)
		kunit_skip(test, "a permanent ftrace_ops is registered elsewhere");
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, fok_register(perm), -EBUSY);
	KUNIT_EXPECT_FALSE(test, perm->ops.flags & FTRACE_OPS_FL_ENABLED);
	KUNIT_ASSERT_EQ(test, fok_sysctl_write(s, 1), 0);
	fok_call(FOK_BIT(PERM), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&perm->mine[FOK_PERM]), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->mine[FOK_PERM]), 1);

	/* While it is registered, ftrace_enabled cannot go to 0. */
	KUNIT_ASSERT_EQ(test, fok_register(perm), 0);
	fok_call(FOK_BIT(PERM), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&perm->mine[FOK_PERM]), 1);
	KUNIT_EXPECT_EQ(test, fok_sysctl_write(s, 0), -EBUSY);
	KUNIT_EXPECT_EQ(test, fok_sysctl_value(s), 1);
	fok_call(FOK_BIT(PERM), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&perm->mine[FOK_PERM]), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->mine[FOK_PERM]), 3);

	/* Gone again: 0 is accepted. */
	KUNIT_ASSERT_EQ(test, fok_unregister(perm), 0);
	KUNIT_EXPECT_EQ(test, fok_sysctl_write(s, 0), 0);
	KUNIT_EXPECT_EQ(test, fok_sysctl_value(s), 0);
	KUNIT_EXPECT_EQ(test, fok_sysctl_write(s, 1), 0);
	fok_call(FOK_BIT(PERM), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&perm->mine[FOK_PERM]), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->mine[FOK_PERM]), 4);
}

static struct kunit_case ftrace_ops_cases[] = {
	KUNIT_CASE_SLOW(fok_tracees_test),
	KUNIT_CASE(fok_register_test),
	KUNIT_CASE(fok_register_static_test),
	KUNIT_CASE(fok_args_test),
	KUNIT_CASE_SLOW(fok_filter_test),
	KUNIT_CASE_SLOW(fok_notrace_test),
	KUNIT_CASE_SLOW(fok_switch_test),
	KUNIT_CASE(fok_filter_ip_test),
	KUNIT_CASE(fok_multi_test),
	KUNIT_CASE(fok_save_regs_test),
	KUNIT_CASE(fok_save_regs_if_supported_test),
	KUNIT_CASE(fok_no_regs_test),
	KUNIT_CASE(fok_ipmodify_test),
	KUNIT_CASE(fok_ipmodify_regs_test),
	KUNIT_CASE(fok_recursion_test),
	KUNIT_CASE(fok_recursion_trylock_test),
	KUNIT_CASE(fok_ftrace_enabled_test),
	KUNIT_CASE(fok_permanent_test),
	{}
};

static struct kunit_suite ftrace_ops_suite = {
	.name = "ftrace_ops",
	.suite_init = fok_suite_init,
	.test_cases = ftrace_ops_cases,
};

/* 12. A module tracee (ftrace_ops_kunit_mod.ko). */

/* Call the module's tracee @n times; returns its ftrace location. */
static unsigned long fok_mod_call(struct kunit *test, int n)
{
	int (*fn)(int x) = ftk_mod_func(test);
	unsigned long ip;
	int i;

	ip = ftrace_location((unsigned long)fn);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, fn(i), i * 13 + 5);
	return ip;
}

static void fok_module_test(struct kunit *test)
{
	struct fok_probe *p = fok_probe_new(test, NULL, 0);
	struct fok_probe *q = fok_probe_new(test, NULL, 0);
	unsigned long ip, ip2;

	ftk_mod_load(test);

	/* Loaded: filter by name, hits. */
	KUNIT_ASSERT_EQ(test, fok_filter(p, FTK_MOD_FUNC, 1), 0);
	KUNIT_ASSERT_EQ(test, fok_register(p), 0);
	ip = fok_mod_call(test, 0);
	KUNIT_ASSERT_NE(test, ip, 0);
	p->watch_ip = ip;
	fok_mod_call(test, 4);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->watch), 4);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->other), 0);

	/* Unloaded while the ops is registered: its record is gone. */
	KUNIT_ASSERT_EQ(test, ftk_mod_unload(), 0);
	KUNIT_EXPECT_FALSE(test, ftk_mod_loaded());
	KUNIT_EXPECT_EQ(test, ftrace_location(ip), 0);
	KUNIT_EXPECT_EQ(test, fok_filter(q, FTK_MOD_FUNC, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, ftrace_set_filter_ip(&q->ops, ip, 0, 0),
			-EINVAL);
	fok_call(FOK_PLAIN_MASK, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->watch), 4);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->other), 0);

	/* Reloaded: hits again once the filter is set again. */
	ftk_mod_load(test);
	KUNIT_ASSERT_EQ(test, fok_filter(p, FTK_MOD_FUNC, 1), 0);
	ip2 = fok_mod_call(test, 0);
	KUNIT_ASSERT_NE(test, ip2, 0);
	atomic_set(&p->watch, 0);
	p->watch_ip = ip2;
	fok_mod_call(test, 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->watch), 3);

	/* A second ops can filter on it too. */
	KUNIT_ASSERT_EQ(test, fok_filter(q, FTK_MOD_FUNC, 1), 0);
	q->watch_ip = ip2;
	KUNIT_ASSERT_EQ(test, fok_register(q), 0);
	fok_mod_call(test, 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->watch), 5);
	KUNIT_EXPECT_EQ(test, atomic_read(&q->watch), 2);
	KUNIT_ASSERT_EQ(test, fok_unregister(q), 0);

	KUNIT_ASSERT_EQ(test, fok_unregister(p), 0);
	KUNIT_EXPECT_EQ(test, ftk_mod_unload(), 0);
	KUNIT_EXPECT_FALSE(test, ftk_mod_loaded());
	KUNIT_EXPECT_EQ(test, atomic_read(&p->late), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->other), 0);
}

static struct kunit_case ftrace_ops_module_cases[] = {
	KUNIT_CASE(fok_module_test),
	{}
};

static struct kunit_suite ftrace_ops_module_suite = {
	.name = "ftrace_ops_module",
	.test_cases = ftrace_ops_module_cases,
};

kunit_test_suites(&ftrace_ops_suite, &ftrace_ops_module_suite);

MODULE_DESCRIPTION("KUnit conformance tests for the ftrace_ops API");
MODULE_LICENSE("GPL");
