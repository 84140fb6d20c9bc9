// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite fprobe: fprobe's registry and call paths (fprobe.c,
 * fprobe/calls.c) and the frames of exit probes (fgraph/frames.h).
 *
 *  - the table of exit probes: an entry per probe, reused once the probe
 *    is gone with a new id, a table that grows while a probe in it runs;
 *  - an entry probe sees the function's site, its caller and arguments,
 *    called from a task or from an interrupt;
 *    an exit probe its return value, its caller and the storage its
 *    entry handler filled, with no call depth of its own, in a frame
 *    whose unused words are zero; a declined call has no exit;
 *  - probes of both kinds on one function, each leaving alone, each
 *    with its own frame and full storage;
 *  - an entry handler that moves the ip (error injection) is obeyed;
 *  - an exit probe and a graph user on one function both see the
 *    return, and unwinding inside the call shows the real caller;
 *  - every probe hooks with an ops of its own, and the hook of a probe
 *    whose functions all went with their module stops, while the probe
 *    stays registered; so does a hook that loses a function short of
 *    memory;
 *  - nmissed: a handler that calls a probed function (both kinds), a
 *    full stack or a paused graph (the entry handler still runs);
 *  - one exit probe on every function while the kernel runs: nmissed
 *    counts the calls that got no frame, and nothing else;
 *  - a kretprobe and an exit probe on one function, in either order:
 *    stack traces inside the call and of a task sleeping in it show
 *    the real caller;
 *  - disabled probes are neither called nor counted;
 *  - kprobe-shared handlers do not run inside a kprobe;
 *  - unregistering while a task sleeps in a probed call: no exit handler
 *    afterwards, and the probe can be freed at once; a probe left on the
 *    function gets the return, with its own storage; a probe registered
 *    meanwhile in the same entry of the table is not taken for it;
 *  - no memory for a larger table: the registration fails whole;
 *  - probes of both kinds come and go while another task calls their
 *    functions: none is called once unregistered;
 *  - bad input: each a clean error, with nothing left hooked, and the
 *    caller's patterns and arrays left as they were.
 *
 * This file is instrumented: its fpb_tracee*() functions are hooked.
 */
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/fprobe.h>
#include <linux/ftrace.h>
#include <linux/irq_work.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/rethook.h>
#include <linux/sched/task.h>
#include <linux/sched/task_stack.h>
#include <linux/stacktrace.h>
#include <linux/slab.h>

#include "../fgraph/frames.h"
#include "../fprobe/fprobe.h"
#include "../records.h"
#include "kunit_modload.h"

/* The tracees: barrier() keeps the compiler from dropping the calls. */
static noinline __noclone int fpb_tracee(int x)
{
	barrier();
	return x + 1;
}

static noinline __noclone int fpb_tracee2(int x)
{
	barrier();
	return x * 2;
}

static noinline __noclone int fpb_deep(int n)
{
	int depth;

	if (!n)
		return 0;
	depth = fpb_deep(n - 1);
	barrier();
	return depth + 1;
}

struct fpb_probe {
	struct fprobe fp;
	atomic_t entries;
	atomic_t exits;
	int decline;			/* entry handlers return this */
	int (*nested)(int x);		/* the entry handler calls this */
	unsigned long ip, ret_ip;	/* what the last entry saw */
	unsigned long arg0;
	unsigned long recursion;	/* current->trace_recursion at entry */
	int depth;			/* current->curr_ret_depth at entry */
	unsigned long exit_ip, exit_ret_ip, retval;
	u8 fill;			/* the entry fills storage with it */
	bool data_ok;			/* the last exit found its storage */
	bool data_null;			/* the last entry had none */
};

static int fpb_entry(struct fprobe *fp, unsigned long ip, unsigned long ret_ip,
		     struct ftrace_regs *fregs, void *data)
{
	struct fpb_probe *p = container_of(fp, struct fpb_probe, fp);

	atomic_inc(&p->entries);
	p->ip = ip;
	p->ret_ip = ret_ip;
	p->arg0 = ftrace_regs_get_argument(fregs, 0);
	p->recursion = current->trace_recursion;
	p->depth = current->curr_ret_depth;
	p->data_null = !data;
	if (data)
		memset(data, p->fill ?: 0x5a, fp->entry_data_size);
	if (p->nested)
		p->nested(1);
	return p->decline;
}

static void fpb_exit(struct fprobe *fp, unsigned long ip, unsigned long ret_ip,
		     struct ftrace_regs *fregs, void *data)
{
	struct fpb_probe *p = container_of(fp, struct fpb_probe, fp);

	atomic_inc(&p->exits);
	p->exit_ip = ip;
	p->exit_ret_ip = ret_ip;
	p->retval = ftrace_regs_get_return_value(fregs);
	p->data_ok = data &&
		!memchr_inv(data, p->fill ?: 0x5a, fp->entry_data_size);
}

static void fpb_unregister_action(void *data)
{
	unregister_fprobe(data);
}

/* A probe, unregistered and freed at the end of the case. */
static struct fpb_probe *fpb_probe(struct kunit *test, bool entry, bool exit,
				   size_t data)
{
	struct fpb_probe *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	p->fp.entry_handler = entry ? fpb_entry : NULL;
	p->fp.exit_handler = exit ? fpb_exit : NULL;
	p->fp.entry_data_size = data;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							fpb_unregister_action,
							&p->fp), 0);
	return p;
}

static int fpb_register(struct fpb_probe *p, void *func)
{
	unsigned long ip = (unsigned long)func;

	return register_fprobe_ips(&p->fp, &ip, 1);
}

/* Is @func's site hooked by some ops (enabled_functions lists it)? */
static bool fpb_hooked(void *func)
{
	unsigned long ip = ftrace_location((unsigned long)func);
	struct dyn_ftrace *rec;

	guard(rcu)();
	rec = frec_lookup(ip, ip);
	return rec && ftrace_rec_count(rec);
}

/* ---- calls ---- */

static int fpb_irq_arg;

static void fpb_irq_fn(struct irq_work *work)
{
	fpb_tracee(fpb_irq_arg);
}

/*
 * Not on the stack: where an arch has no interrupt for irq_work, the
 * work runs from the next tick, after irq_work_sync() may have returned.
 */
static struct irq_work fpb_irq_work = IRQ_WORK_INIT_HARD(fpb_irq_fn);

/* Call fpb_tracee(@x) in hard interrupt context, and wait for it. */
static void fpb_call_in_irq(int x)
{
	fpb_irq_arg = x;
	irq_work_queue(&fpb_irq_work);
	irq_work_sync(&fpb_irq_work);
}

/* An entry probe: the site, the caller, the arguments; no storage. */
static void fpb_entry_test(struct kunit *test)
{
	struct fpb_probe *p = fpb_probe(test, true, false, 8);
	char name[KSYM_SYMBOL_LEN];
	int count = preempt_count();

	KUNIT_ASSERT_EQ(test, fpb_register(p, fpb_tracee), 0);
	KUNIT_EXPECT_TRUE(test, fprobe_is_registered(&p->fp));
	KUNIT_EXPECT_EQ(test, fpb_tracee(41), 42);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->entries), 1);
	KUNIT_EXPECT_EQ(test, p->ip, ftrace_location((unsigned long)fpb_tracee));
	KUNIT_EXPECT_EQ(test, p->arg0, 41UL);
	KUNIT_EXPECT_TRUE(test, p->data_null);
	sprint_symbol_no_offset(name, p->ret_ip);
	KUNIT_EXPECT_STREQ(test, name, "fpb_entry_test");
	/* The handler ran under the task's bit, which the call gave back. */
	KUNIT_EXPECT_TRUE(test, p->recursion & BIT(FGRAPH_LOCK_TASK_BIT));
	KUNIT_EXPECT_FALSE(test, current->trace_recursion &
				 BIT(FGRAPH_LOCK_TASK_BIT));
	KUNIT_EXPECT_EQ(test, preempt_count(), count);

	/* From an interrupt, which takes the lock the general way. */
	fpb_call_in_irq(6);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->entries), 2);
	KUNIT_EXPECT_EQ(test, p->arg0, 6UL);
	KUNIT_EXPECT_FALSE(test, p->recursion & BIT(FGRAPH_LOCK_TASK_BIT));
	KUNIT_EXPECT_TRUE(test, p->recursion &
				BIT(TRACE_FTRACE_START + TRACE_CTX_IRQ));

	KUNIT_EXPECT_EQ(test, unregister_fprobe(&p->fp), 0);
	KUNIT_EXPECT_FALSE(test, fprobe_is_registered(&p->fp));
	KUNIT_EXPECT_FALSE(test, fpb_hooked(fpb_tracee));
	fpb_tracee(1);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->entries), 2);
}

/*
 * What an exit probe's last call gave its handlers: @retval, the caller
 * @caller on entry and return alike, the storage its entry filled.
 */
static void fpb_expect_exit(struct kunit *test, struct fpb_probe *p,
			    unsigned long retval, const char *caller)
{
	char name[KSYM_SYMBOL_LEN];

	KUNIT_EXPECT_EQ(test, p->retval, retval);
	KUNIT_EXPECT_EQ(test, p->exit_ip, p->ip);
	KUNIT_EXPECT_EQ(test, p->exit_ret_ip, p->ret_ip);
	KUNIT_EXPECT_TRUE(test, p->data_ok);
	sprint_symbol_no_offset(name, p->exit_ret_ip);
	KUNIT_EXPECT_STREQ(test, name, caller);
}

/* An exit probe: the return value, the caller, the entry's storage. */
static void fpb_exit_test(struct kunit *test)
{
	struct fpb_probe *p = fpb_probe(test, true, true, 16);
	int depth = current->curr_ret_stack;

	KUNIT_ASSERT_EQ(test, fpb_register(p, fpb_tracee2), 0);
	KUNIT_EXPECT_EQ(test, fpb_tracee2(21), 42);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->entries), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->exits), 1);
	fpb_expect_exit(test, p, 42, "fpb_exit_test");
	KUNIT_EXPECT_EQ(test, current->curr_ret_stack, depth);
	/* The probe's frame counts in no call depth. */
	KUNIT_EXPECT_EQ(test, p->depth, current->curr_ret_depth);

	/* Declined: no exit, and not a miss. */
	p->decline = 1;
	fpb_tracee2(1);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->entries), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->exits), 1);
	KUNIT_EXPECT_EQ(test, p->fp.nmissed, 0);

	KUNIT_EXPECT_EQ(test, unregister_fprobe(&p->fp), 0);
	KUNIT_EXPECT_FALSE(test, fpb_hooked(fpb_tracee2));
}

#ifdef CONFIG_X86_64
/* The pt_regs words of the last return frame the exit handler saw. */
static struct pt_regs fpb_ret_regs;

static void fpb_regs_exit(struct fprobe *fp, unsigned long ip,
			  unsigned long ret_ip, struct ftrace_regs *fregs,
			  void *data)
{
	fpb_ret_regs = arch_ftrace_regs(fregs)->regs;
}

/*
 * Leaves its stack dirty: the return frame is built where its locals
 * were, so a word the return trampoline does not write reads the
 * pattern.
 */
static noinline __noclone int fpb_tracee_dirty(int x)
{
	unsigned long locals[48];
	int i;

	for (i = 0; i < ARRAY_SIZE(locals); i++)
		locals[i] = 0x5a5a5a5a5a5a5a5aUL;
	/* Every word must reach the stack: the compiler may not drop one. */
	barrier_data(locals);
	return x + locals[x & 1] - 0x5a5a5a5a5a5a5a5aUL;
}

/*
 * The exit handler's registers are a whole pt_regs frame: the return
 * value and the stack pointer where they belong, and every word that
 * holds nothing at a return zero, not what the function left behind.
 */
static void fpb_return_regs_test(struct kunit *test)
{
	struct fpb_probe *p = fpb_probe(test, false, true, 0);
	struct pt_regs *r = &fpb_ret_regs;

	p->fp.exit_handler = fpb_regs_exit;
	KUNIT_ASSERT_EQ(test, fpb_register(p, fpb_tracee_dirty), 0);
	memset(r, 0xff, sizeof(*r));
	KUNIT_EXPECT_EQ(test, fpb_tracee_dirty(7), 7);
	KUNIT_EXPECT_EQ(test, r->ax, 7UL);
	KUNIT_EXPECT_TRUE(test, object_is_on_stack((void *)r->sp));
	KUNIT_EXPECT_EQ(test, r->cs, 0UL);
	KUNIT_EXPECT_EQ(test, r->ss, 0UL);
	KUNIT_EXPECT_EQ(test, r->flags, 0UL);
	KUNIT_EXPECT_EQ(test, r->orig_ax, 0UL);
	KUNIT_EXPECT_EQ(test, r->di | r->si | r->cx, 0UL);
	KUNIT_EXPECT_EQ(test, r->r8 | r->r9 | r->r10 | r->r11, 0UL);
}
#else
static void fpb_return_regs_test(struct kunit *test)
{
	kunit_skip(test, "the frame's layout is x86-64's");
}
#endif

/* Probes of both kinds on one function; each leaves the other working. */
static void fpb_shared_site_test(struct kunit *test)
{
	struct fpb_probe *a = fpb_probe(test, true, false, 0);
	struct fpb_probe *b = fpb_probe(test, true, true, 8);
	struct fpb_probe *c = fpb_probe(test, false, true, 0);

	KUNIT_ASSERT_EQ(test, fpb_register(a, fpb_tracee), 0);
	KUNIT_ASSERT_EQ(test, fpb_register(b, fpb_tracee), 0);
	KUNIT_ASSERT_EQ(test, register_fprobe(&c->fp, "fpb_tracee*", NULL), 0);
	fpb_tracee(0);
	fpb_tracee2(0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->entries), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->exits), 1);
	KUNIT_EXPECT_TRUE(test, b->data_ok);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->exits), 2);

	KUNIT_EXPECT_EQ(test, unregister_fprobe(&b->fp), 0);
	fpb_tracee(0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->entries), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->entries), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->exits), 3);
	KUNIT_EXPECT_EQ(test, unregister_fprobe(&a->fp), 0);
	KUNIT_EXPECT_TRUE(test, fpb_hooked(fpb_tracee));
	KUNIT_EXPECT_EQ(test, unregister_fprobe(&c->fp), 0);
	KUNIT_EXPECT_FALSE(test, fpb_hooked(fpb_tracee));
	KUNIT_EXPECT_FALSE(test, fpb_hooked(fpb_tracee2));
}

/* What an overriding entry handler runs instead of its tracee. */
static noinline notrace int fpb_instead(int x)
{
	barrier();
	return -x;
}

static int fpb_override_entry(struct fprobe *fp, unsigned long ip,
			      unsigned long ret_ip, struct ftrace_regs *fregs,
			      void *data)
{
	ftrace_regs_set_instruction_pointer(fregs, (unsigned long)fpb_instead);
	return fpb_entry(fp, ip, ret_ip, fregs, data);
}

/*
 * An entry handler may move the ip, as BPF's bpf_override_return()
 * does through kprobe_multi: the call goes where it says, alone on the
 * function or next to an exit probe, which gets what the other code
 * returned.
 */
static void fpb_override_test(struct kunit *test)
{
	struct fpb_probe *p = fpb_probe(test, true, false, 0);
	struct fpb_probe *q = fpb_probe(test, false, true, 0);

	p->fp.entry_handler = fpb_override_entry;
	KUNIT_ASSERT_EQ(test, fpb_register(p, fpb_tracee), 0);
	KUNIT_EXPECT_EQ(test, fpb_tracee(5), -5);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->entries), 1);

	KUNIT_ASSERT_EQ(test, fpb_register(q, fpb_tracee), 0);
	KUNIT_EXPECT_EQ(test, fpb_tracee(6), -6);
	KUNIT_EXPECT_EQ(test, atomic_read(&q->exits), 1);
	KUNIT_EXPECT_EQ(test, (int)q->retval, -6);

	KUNIT_EXPECT_EQ(test, unregister_fprobe(&p->fp), 0);
	KUNIT_EXPECT_EQ(test, fpb_tracee(7), 8);
	KUNIT_EXPECT_EQ(test, (int)q->retval, 8);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->entries), 2);
}

/* The site of @func, counted by its ops, or -1 if it has no record. */
static int fpb_site_ops(unsigned long func)
{
	unsigned long ip = ftrace_location(func);
	struct dyn_ftrace *rec;

	guard(rcu)();
	rec = ip ? frec_lookup(ip, ip) : NULL;
	return rec ? ftrace_rec_count(rec) : -1;
}

/* Load the tracee module, again if it was; the address of its function. */
static void *fpb_mod_load(struct kunit *test)
{
	ftk_mod_load(test);
	return ftk_mod_func(test);
}

/*
 * Probes without exit handlers: each its own ops on its functions, and
 * each hook leaves when its functions go with their module, the others'
 * hooks going on.
 */
static void fpb_entry_hooks_test(struct kunit *test)
{
	struct fpb_probe *a = fpb_probe(test, true, false, 0);
	struct fpb_probe *b = fpb_probe(test, true, false, 0);
	unsigned long ips[2], mod_ip;
	int (*mod_fn)(int x);

	mod_fn = fpb_mod_load(test);
	mod_ip = (unsigned long)mod_fn;
	ips[0] = mod_ip;
	ips[1] = (unsigned long)fpb_tracee;
	KUNIT_ASSERT_EQ(test, register_fprobe_ips(&a->fp, ips, 2), 0);
	KUNIT_ASSERT_EQ(test, register_fprobe_ips(&b->fp, ips, 1), 0);
	KUNIT_ASSERT_NOT_NULL(test, a->fp.hook);
	KUNIT_ASSERT_NOT_NULL(test, b->fp.hook);
	KUNIT_EXPECT_EQ(test, fpb_site_ops(mod_ip), 2);
	KUNIT_EXPECT_EQ(test, fpb_site_ops((unsigned long)fpb_tracee), 1);
	mod_fn(1);
	fpb_tracee(1);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->entries), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->entries), 1);

	/* b's only function goes: its hook stops, a's goes on. */
	KUNIT_ASSERT_EQ(test, ftk_mod_unload(), 0);
	KUNIT_EXPECT_TRUE(test, fprobe_is_registered(&b->fp));
	KUNIT_EXPECT_FALSE(test, b->fp.hook->hooked);
	KUNIT_EXPECT_TRUE(test, a->fp.hook->hooked);
	fpb_tracee(1);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->entries), 3);

	/* Loaded again, maybe at the same address: hooked by neither. */
	mod_fn = fpb_mod_load(test);
	KUNIT_EXPECT_EQ(test, fpb_site_ops((unsigned long)mod_fn), 0);
	mod_fn(1);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->entries), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->entries), 1);

	KUNIT_EXPECT_EQ(test, unregister_fprobe(&b->fp), 0);
	KUNIT_EXPECT_NULL(test, b->fp.hook);
	KUNIT_EXPECT_EQ(test, unregister_fprobe(&a->fp), 0);
	KUNIT_EXPECT_FALSE(test, fpb_hooked(fpb_tracee));
}

/*
 * An exit probe loses a module's function when the module is released
 * (ftrace_release_mod(), which every way out of the loader calls, a
 * failed klp_module_coming() too), keeps its other functions, and does
 * not come back to text loaded later at the same place.
 */
static void fpb_exit_module_test(struct kunit *test)
{
	struct fpb_probe *p = fpb_probe(test, true, true, 8);
	int (*mod_fn)(int x) = fpb_mod_load(test);
	unsigned long ips[] = {
		(unsigned long)mod_fn, (unsigned long)fpb_tracee2
	};

	KUNIT_ASSERT_EQ(test, register_fprobe_ips(&p->fp, ips, 2), 0);
	KUNIT_EXPECT_EQ(test, fpb_site_ops(ips[0]), 1);
	mod_fn(1);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->exits), 1);

	KUNIT_ASSERT_EQ(test, ftk_mod_unload(), 0);
	KUNIT_EXPECT_TRUE(test, fprobe_is_registered(&p->fp));
	KUNIT_EXPECT_TRUE(test, p->fp.hook->hooked);
	fpb_tracee2(1);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->exits), 2);

	mod_fn = fpb_mod_load(test);
	KUNIT_EXPECT_EQ(test, fpb_site_ops((unsigned long)mod_fn), 0);
	mod_fn(1);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->entries), 2);

	KUNIT_EXPECT_EQ(test, unregister_fprobe(&p->fp), 0);
	KUNIT_EXPECT_FALSE(test, fpb_hooked(fpb_tracee2));
}

/* fprobe_cut_functions() names fpb_tracee2 gone. */
static bool fpb_gone_tracee2(unsigned long ip, void *arg)
{
	return ip == ftrace_location((unsigned long)fpb_tracee2);
}

/* While active, a change has no room for the addresses it takes out. */
static unsigned long *fpb_no_ips(unsigned int nr)
{
	return NULL;
}

/*
 * A function leaves the hooks of entry probes as its module's would:
 * with memory, a hook drops it and goes on with the others; short of
 * memory, the hook stops altogether (its filter cannot shrink), while a
 * hook the cut does not concern goes on.  Both probes stay registered.
 */
static void fpb_hook_cut_nomem_test(struct kunit *test)
{
	static const char * const syms[] = { "fpb_tracee", "fpb_tracee2" };
	struct fpb_probe *a = fpb_probe(test, true, false, 0);
	struct fpb_probe *b = fpb_probe(test, true, false, 0);
	struct fprobe_cut cut = { .gone = fpb_gone_tracee2 };

	KUNIT_ASSERT_EQ(test, register_fprobe_syms(&a->fp, (const char **)syms,
						   2), 0);
	fprobe_cut_functions(&cut);
	KUNIT_EXPECT_TRUE(test, a->fp.hook->hooked);
	fpb_tracee(0);
	fpb_tracee2(0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->entries), 1);

	KUNIT_ASSERT_EQ(test, register_fprobe_syms(&b->fp, (const char **)syms,
						   2), 0);
	kunit_activate_static_stub(test, fprobe_ips_alloc, fpb_no_ips);
	fprobe_cut_functions(&cut);
	kunit_deactivate_static_stub(test, fprobe_ips_alloc);
	KUNIT_EXPECT_TRUE(test, a->fp.hook->hooked);
	KUNIT_EXPECT_FALSE(test, b->fp.hook->hooked);
	KUNIT_EXPECT_TRUE(test, fprobe_is_registered(&b->fp));
	fpb_tracee(0);
	fpb_tracee2(0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->entries), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->entries), 0);
	KUNIT_EXPECT_EQ(test, fpb_site_ops((unsigned long)fpb_tracee), 1);
	KUNIT_EXPECT_EQ(test, fpb_site_ops((unsigned long)fpb_tracee2), 0);

	KUNIT_EXPECT_EQ(test, unregister_fprobe(&b->fp), 0);
	KUNIT_EXPECT_EQ(test, unregister_fprobe(&a->fp), 0);
	KUNIT_EXPECT_FALSE(test, fpb_hooked(fpb_tracee));
}

/* A handler that calls a probed function misses that call. */
static void fpb_recursion_test(struct kunit *test)
{
	static const char * const syms[] = { "fpb_tracee", "fpb_tracee2" };
	struct fpb_probe *e = fpb_probe(test, true, false, 0);
	struct fpb_probe *x = fpb_probe(test, true, true, 0);

	e->nested = fpb_tracee2;
	KUNIT_ASSERT_EQ(test, register_fprobe_syms(&e->fp, (const char **)syms,
						   2), 0);
	/*
	 * The recursion lock lets one nested call through (it may be an
	 * interrupt whose context is not counted yet): the handler runs
	 * for it, and the call it makes in turn is missed.
	 */
	fpb_tracee(0);
	KUNIT_EXPECT_EQ(test, atomic_read(&e->entries), 2);
	KUNIT_EXPECT_EQ(test, e->fp.nmissed, 1);
	KUNIT_EXPECT_EQ(test, unregister_fprobe(&e->fp), 0);

	/* The same for a probe with an exit, whose frame is pushed first. */
	x->nested = fpb_tracee2;
	KUNIT_ASSERT_EQ(test, register_fprobe_syms(&x->fp, (const char **)syms,
						   2), 0);
	fpb_tracee(0);
	KUNIT_EXPECT_EQ(test, atomic_read(&x->entries), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&x->exits), 2);
	KUNIT_EXPECT_EQ(test, x->fp.nmissed, 1);
}

/*
 * Exit probes with the most entry data, several on one function: each
 * keeps its own frame, so none misses a call, and each exit finds its
 * own storage.
 */
static void fpb_full_data_test(struct kunit *test)
{
	struct fpb_probe *p[3];
	int i;

	for (i = 0; i < 3; i++) {
		p[i] = fpb_probe(test, true, true, MAX_FPROBE_DATA_SIZE);
		p[i]->fill = 0x30 + i;
		KUNIT_ASSERT_EQ(test, fpb_register(p[i], fpb_tracee), 0);
	}
	fpb_tracee(0);
	fpb_tracee(0);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, atomic_read(&p[i]->exits), 2);
		KUNIT_EXPECT_EQ(test, p[i]->fp.nmissed, 0);
		/* Each sees its caller, not another probe's trampoline. */
		fpb_expect_exit(test, p[i], 1, "fpb_full_data_test");
	}
}

/*
 * A graph user and an exit probe on one function: two frames for one
 * return address, each with its own trampoline.
 */
struct fpb_graph {
	struct fgraph_ops gops;
	atomic_t entries, returns;
	int depth;		/* the depth the last entry was given */
};

static int fpb_graph_entry(struct ftrace_graph_ent *trace,
			   struct fgraph_ops *gops, struct ftrace_regs *fregs)
{
	struct fpb_graph *g = container_of(gops, struct fpb_graph, gops);

	atomic_inc(&g->entries);
	g->depth = trace->depth;
	return 1;
}

static void fpb_graph_return(struct ftrace_graph_ret *trace,
			     struct fgraph_ops *gops, struct ftrace_regs *fregs)
{
	struct fpb_graph *g = container_of(gops, struct fpb_graph, gops);

	atomic_inc(&g->returns);
}

static void fpb_graph_unregister_action(void *data)
{
	struct fpb_graph *g = data;

	unregister_ftrace_graph(&g->gops);
	ftrace_free_filter(&g->gops.ops);
}

/* A graph user of @func, unregistered at the end of the case. */
static struct fpb_graph *fpb_graph(struct kunit *test, void *func)
{
	struct fpb_graph *g = kunit_kzalloc(test, sizeof(*g), GFP_KERNEL);
	unsigned long ip = (unsigned long)func;

	KUNIT_ASSERT_NOT_NULL(test, g);
	g->gops.entryfunc = fpb_graph_entry;
	g->gops.retfunc = fpb_graph_return;
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ips(&g->gops.ops, &ip, 1,
						    0, 0), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_graph(&g->gops), 0);
	KUNIT_ASSERT_EQ(test,
			kunit_add_action_or_reset(test,
						  fpb_graph_unregister_action,
						  g), 0);
	return g;
}

struct fpb_seen {
	bool trampoline_seen;	/* a return trampoline in the stack trace */
	bool caller_seen;	/* fpb_unwind_test in it */
	bool graph_frame;	/* ftrace_graph_get_ret_stack() found one */
	unsigned long ret;	/* what ftrace_graph_ret_addr() gave */
};

static bool fpb_trampoline(unsigned long addr)
{
	return addr == (unsigned long)return_to_handler ||
	       addr == (unsigned long)fprobe_return_to_handler;
}

/*
 * Unwind from inside the call, and ask ftrace_graph_ret_addr() for the
 * return address of the frame on top (the last hook's, of any kind).
 */
static noinline __noclone void fpb_tracee_unwind(struct fpb_seen *seen)
{
	unsigned long *stack = current->ret_stack;
	int top = fgraph_frame_below(stack, current->curr_ret_stack);
	struct ftrace_ret_stack *frame = top < 0 ? NULL : fgf_ret(stack, top);
	unsigned long entries[16];
	char name[KSYM_NAME_LEN];
	int i, n, idx = 0;

	seen->graph_frame = ftrace_graph_get_ret_stack(current, 0);

	n = stack_trace_save(entries, ARRAY_SIZE(entries), 0);
	for (i = 0; i < n; i++) {
		if (fpb_trampoline(entries[i]))
			seen->trampoline_seen = true;
		sprint_symbol_no_offset(name, entries[i]);
		if (!strcmp(name, "fpb_unwind_test"))
			seen->caller_seen = true;
	}
	/*
	 * What an unwinder finds: the trampoline, known by the frame's
	 * @retp (on arm64 the callsite's frame pointer).
	 */
	if (frame)
		seen->ret = ftrace_graph_ret_addr(current, &idx,
						  (unsigned long)fprobe_return_to_handler,
						  frame->retp);
}

/*
 * Inside a call an exit probe took, alone and with a graph user that
 * took it too, unwinding shows the real caller, and both see the
 * return; the graph's depth counts its own frames only.
 */
static void fpb_unwind_test(struct kunit *test)
{
	struct fpb_probe *p = fpb_probe(test, true, true, 8);
	int depth = current->curr_ret_stack;
	char name[KSYM_SYMBOL_LEN];
	struct fpb_seen seen = { };
	struct fpb_graph *g;

	KUNIT_ASSERT_EQ(test, fpb_register(p, fpb_tracee_unwind), 0);
	fpb_tracee_unwind(&seen);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->exits), 1);
	/* The probe's frame is no graph user's. */
	KUNIT_EXPECT_FALSE(test, seen.graph_frame);
	KUNIT_EXPECT_FALSE(test, seen.trampoline_seen);
	KUNIT_EXPECT_TRUE(test, seen.caller_seen);
	sprint_symbol_no_offset(name, seen.ret);
	KUNIT_EXPECT_STREQ(test, name, "fpb_unwind_test");

	g = fpb_graph(test, fpb_tracee_unwind);
	memset(&seen, 0, sizeof(seen));
	fpb_tracee_unwind(&seen);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->exits), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&g->returns), 1);
	/* The graph took the return first: the probe still sees its caller. */
	sprint_symbol_no_offset(name, p->exit_ret_ip);
	KUNIT_EXPECT_STREQ(test, name, "fpb_unwind_test");
	KUNIT_EXPECT_TRUE(test, seen.graph_frame);
	KUNIT_EXPECT_FALSE(test, seen.trampoline_seen);
	KUNIT_EXPECT_TRUE(test, seen.caller_seen);
	sprint_symbol_no_offset(name, seen.ret);
	KUNIT_EXPECT_STREQ(test, name, "fpb_unwind_test");
	KUNIT_EXPECT_EQ(test, g->depth, current->curr_ret_depth + 1);
	KUNIT_EXPECT_EQ(test, current->curr_ret_stack, depth);
}

/*
 * The other way round: the graph user first, the probe then taking a
 * return address the graph has taken already.
 */
static void fpb_graph_first_test(struct kunit *test)
{
	struct fpb_graph *g = fpb_graph(test, fpb_tracee2);
	struct fpb_probe *p = fpb_probe(test, true, true, 16);
	int depth = current->curr_ret_stack;

	KUNIT_ASSERT_EQ(test, fpb_register(p, fpb_tracee2), 0);
	KUNIT_EXPECT_EQ(test, fpb_tracee2(4), 8);
	KUNIT_EXPECT_EQ(test, atomic_read(&g->returns), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->exits), 1);
	fpb_expect_exit(test, p, 8, "fpb_graph_first_test");
	KUNIT_EXPECT_EQ(test, current->curr_ret_stack, depth);
}

/*
 * Calls that find the shadow stack full miss their exits, each counted
 * once; their entry handlers run all the same, with storage of the size
 * they asked for.  An exit-only probe misses the same calls.
 */
static void fpb_stack_full_test(struct kunit *test)
{
	struct fpb_probe *p = fpb_probe(test, true, true, 16);
	struct fpb_probe *x = fpb_probe(test, false, true, 0);
	int exits;

	KUNIT_ASSERT_EQ(test, fpb_register(p, fpb_deep), 0);
	KUNIT_EXPECT_EQ(test, fpb_deep(200), 200);
	exits = atomic_read(&p->exits);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->entries), 201);
	KUNIT_EXPECT_GT(test, exits, 10);
	KUNIT_EXPECT_LT(test, exits, 201);
	KUNIT_EXPECT_EQ(test, p->fp.nmissed, 201 - exits);
	/* The deepest call, the last entry, had no frame but storage. */
	KUNIT_EXPECT_FALSE(test, p->data_null);
	KUNIT_EXPECT_EQ(test, unregister_fprobe(&p->fp), 0);

	KUNIT_ASSERT_EQ(test, fpb_register(x, fpb_deep), 0);
	KUNIT_EXPECT_EQ(test, fpb_deep(200), 200);
	exits = atomic_read(&x->exits);
	KUNIT_EXPECT_GT(test, exits, 10);
	KUNIT_EXPECT_LT(test, exits, 201);
	KUNIT_EXPECT_EQ(test, x->fp.nmissed, 201 - exits);
}

/*
 * While the task has the graph paused (as suspend does), no return is
 * taken: an exit probe's entry handler runs and its exit is missed,
 * counted; the graph's users do not see the call at all.
 */
static void fpb_paused_test(struct kunit *test)
{
	struct fpb_probe *p = fpb_probe(test, true, true, 8);
	struct fpb_probe *e = fpb_probe(test, true, false, 0);
	struct fpb_graph *g = fpb_graph(test, fpb_tracee2);
	int depth = current->curr_ret_stack;

	KUNIT_ASSERT_EQ(test, fpb_register(p, fpb_tracee2), 0);
	KUNIT_ASSERT_EQ(test, fpb_register(e, fpb_tracee2), 0);
	pause_graph_tracing();
	KUNIT_EXPECT_EQ(test, fpb_tracee2(3), 6);
	unpause_graph_tracing();
	KUNIT_EXPECT_EQ(test, atomic_read(&p->entries), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->exits), 0);
	KUNIT_EXPECT_EQ(test, p->fp.nmissed, 1);
	KUNIT_EXPECT_FALSE(test, p->data_null);
	KUNIT_EXPECT_EQ(test, atomic_read(&e->entries), 1);
	KUNIT_EXPECT_EQ(test, e->fp.nmissed, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&g->returns), 0);
	KUNIT_EXPECT_EQ(test, current->curr_ret_stack, depth);

	KUNIT_EXPECT_EQ(test, fpb_tracee2(3), 6);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->exits), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&g->returns), 1);
	KUNIT_EXPECT_EQ(test, p->fp.nmissed, 1);
}

/* ---- one probe on every function ---- */

struct fpb_all {
	struct fprobe fp;
	atomic_long_t entries, lost, exits;
};

/* Did this call get a frame?  Its storage is on the task's stack if so. */
static notrace bool fpb_all_framed(void *data)
{
	unsigned long stack = (unsigned long)current->ret_stack;

	return stack && (unsigned long)data - stack < SHADOW_STACK_SIZE;
}

/* Called for every function: notrace, and calling nothing traced. */
static notrace int fpb_all_entry(struct fprobe *fp, unsigned long ip,
				 unsigned long ret_ip,
				 struct ftrace_regs *fregs, void *data)
{
	struct fpb_all *a = container_of(fp, struct fpb_all, fp);

	atomic_long_inc(&a->entries);
	if (!fpb_all_framed(data))
		atomic_long_inc(&a->lost);
	return 0;
}

static notrace void fpb_all_exit(struct fprobe *fp, unsigned long ip,
				 unsigned long ret_ip,
				 struct ftrace_regs *fregs, void *data)
{
	struct fpb_all *a = container_of(fp, struct fpb_all, fp);

	atomic_long_inc(&a->exits);
}

/*
 * One exit probe on every function while the kernel runs: handlers that
 * call nothing traced never find the lock held, so nmissed counts only
 * the calls that got no frame, each once, and each of those still had
 * its entry handler.  Every other call that returned had its exit.
 */
static void fpb_all_functions_test(struct kunit *test)
{
	struct fpb_all *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	long entries, lost, exits;
	unsigned long missed;

	KUNIT_ASSERT_NOT_NULL(test, a);
	a->fp.entry_handler = fpb_all_entry;
	a->fp.exit_handler = fpb_all_exit;
	a->fp.entry_data_size = sizeof(long);
	KUNIT_ASSERT_EQ(test, register_fprobe(&a->fp, "*", NULL), 0);
	msleep(100);
	fpb_deep(60);
	msleep(100);
	KUNIT_EXPECT_EQ(test, unregister_fprobe(&a->fp), 0);
	entries = atomic_long_read(&a->entries);
	lost = atomic_long_read(&a->lost);
	exits = atomic_long_read(&a->exits);
	missed = a->fp.nmissed;
	kunit_info(test, "entries %ld exits %ld without a frame %ld nmissed %lu\n",
		   entries, exits, lost, missed);
	KUNIT_EXPECT_GT(test, entries, 10000);
	/*
	 * nmissed is a plain counter: two CPUs may lose an increment
	 * between them, never add one.
	 */
	KUNIT_EXPECT_LE(test, missed, lost);
	KUNIT_EXPECT_GE(test, missed * 100, lost * 99);
	/* Calls still inside a function when it was unregistered: no exit. */
	KUNIT_EXPECT_LE(test, exits + lost, entries);
}

/* Disabled probes are neither called nor counted as missing a call. */
static void fpb_disable_test(struct kunit *test)
{
	struct fpb_probe *e = fpb_probe(test, true, false, 0);
	struct fpb_probe *x = fpb_probe(test, true, true, 0);

	KUNIT_ASSERT_EQ(test, fpb_register(e, fpb_tracee), 0);
	KUNIT_ASSERT_EQ(test, fpb_register(x, fpb_tracee), 0);
	disable_fprobe(&e->fp);
	disable_fprobe(&x->fp);
	fpb_tracee(0);
	KUNIT_EXPECT_EQ(test, atomic_read(&e->entries), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&x->entries), 0);
	KUNIT_EXPECT_EQ(test, e->fp.nmissed + x->fp.nmissed, 0);
	enable_fprobe(&e->fp);
	enable_fprobe(&x->fp);
	fpb_tracee(0);
	KUNIT_EXPECT_EQ(test, atomic_read(&e->entries), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&x->exits), 1);
}

/* A handler shared with kprobes does not run while a kprobe runs. */
static void fpb_kprobe_shared_test(struct kunit *test)
{
	struct fpb_probe *s = fpb_probe(test, true, true, 0);
	struct fpb_probe *se = fpb_probe(test, true, false, 0);
	struct fpb_probe *o = fpb_probe(test, true, false, 0);

	if (!IS_ENABLED(CONFIG_KPROBES))
		kunit_skip(test, "needs kprobes");
	s->fp.flags = FPROBE_FL_KPROBE_SHARED;
	se->fp.flags = FPROBE_FL_KPROBE_SHARED;
	KUNIT_ASSERT_EQ(test, fpb_register(s, fpb_tracee), 0);
	KUNIT_ASSERT_EQ(test, fpb_register(se, fpb_tracee), 0);
	KUNIT_ASSERT_EQ(test, fpb_register(o, fpb_tracee), 0);
	fpb_tracee(0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->exits), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&se->entries), 1);

	kprobe_busy_begin();
	fpb_tracee(0);
	kprobe_busy_end();
	KUNIT_EXPECT_EQ(test, atomic_read(&s->entries), 1);
	KUNIT_EXPECT_EQ(test, s->fp.nmissed, 1);
	/* An entry probe, called from its own hook, is shared the same. */
	KUNIT_EXPECT_EQ(test, atomic_read(&se->entries), 1);
	KUNIT_EXPECT_EQ(test, se->fp.nmissed, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&o->entries), 2);
}

struct fpb_sleeper {
	struct completion entered, leave;
	struct task_struct *task;
};

static noinline __noclone void fpb_tracee_sleep(struct fpb_sleeper *s)
{
	barrier();
	complete(&s->entered);
	wait_for_completion(&s->leave);
}

static int fpb_sleeper_fn(void *data)
{
	fpb_tracee_sleep(data);
	return 0;
}

/*
 * Unregister and free @p, a probe on fpb_tracee_sleep(), while a task
 * sleeps in a call @p saw enter; then let the call return.
 */
static void fpb_unregister_in_call(struct kunit *test, struct fpb_probe *p)
{
	struct fpb_sleeper s;

	init_completion(&s.entered);
	init_completion(&s.leave);
	s.task = kthread_run(fpb_sleeper_fn, &s, "fpb_sleeper");
	KUNIT_ASSERT_FALSE(test, IS_ERR(s.task));
	get_task_struct(s.task);
	wait_for_completion(&s.entered);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->entries), 1);

	KUNIT_EXPECT_EQ(test, unregister_fprobe(&p->fp), 0);
	kfree(p);
	complete(&s.leave);
	kthread_stop(s.task);
	put_task_struct(s.task);
}

/* A probe on fpb_tracee_sleep() that the case frees itself. */
static struct fpb_probe *fpb_probe_own(struct kunit *test, size_t data)
{
	struct fpb_probe *p = kzalloc(sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	p->fp.entry_handler = fpb_entry;
	p->fp.exit_handler = fpb_exit;
	p->fp.entry_data_size = data;
	return p;
}

/* ---- a kretprobe and an exit probe on one function ---- */

static atomic_t fpb_krp_returns;

static int fpb_krp_handler(struct kretprobe_instance *ri,
			   struct pt_regs *regs)
{
	atomic_inc(&fpb_krp_returns);
	return 0;
}

static bool fpb_rethook_trampoline(unsigned long addr)
{
#ifdef CONFIG_RETHOOK
	return is_rethook_trampoline(addr);
#else
	return false;
#endif
}

/*
 * Does a stack trace of @n @entries show @caller, and no return
 * trampoline of the function graph, fprobe or rethook?
 */
static bool fpb_trace_shows(unsigned long *entries, int n,
			    const char *caller)
{
	char name[KSYM_NAME_LEN];
	bool seen = false;
	int i;

	for (i = 0; i < n; i++) {
		if (fpb_trampoline(entries[i]) ||
		    fpb_rethook_trampoline(entries[i]))
			return false;
		sprint_symbol_no_offset(name, entries[i]);
		seen |= !strcmp(name, caller);
	}
	return seen;
}

struct fpb_krp_seen {
	bool inside;		/* the trace from inside showed the caller */
};

static noinline __noclone void fpb_tracee_krp(struct fpb_krp_seen *seen)
{
	unsigned long entries[16];
	int n = stack_trace_save(entries, ARRAY_SIZE(entries), 0);

	seen->inside = fpb_trace_shows(entries, n, "fpb_krp_call");
}

static noinline __noclone void fpb_krp_call(struct fpb_krp_seen *seen)
{
	fpb_tracee_krp(seen);
	barrier();
}

/*
 * Stack traces of a task sleeping in fpb_tracee_sleep(), whose return
 * both a kretprobe and an exit probe took: the plain one and, where the
 * arch has them, the reliable one livepatch asks for.
 */
static void fpb_krp_expect_sleeper(struct kunit *test, struct fpb_probe *p)
{
	unsigned long entries[16];
	struct fpb_sleeper s;
	int n;

	init_completion(&s.entered);
	init_completion(&s.leave);
	s.task = kthread_run(fpb_sleeper_fn, &s, "fpb_sleeper");
	KUNIT_ASSERT_FALSE(test, IS_ERR(s.task));
	get_task_struct(s.task);
	wait_for_completion(&s.entered);
	/* Asleep, off its CPU: wait_task_inactive() says it is. */
	while (!wait_task_inactive(s.task, TASK_UNINTERRUPTIBLE))
		usleep_range(1000, 2000);
	n = stack_trace_save_tsk(s.task, entries, ARRAY_SIZE(entries), 0);
	KUNIT_EXPECT_TRUE(test, fpb_trace_shows(entries, n, "fpb_sleeper_fn"));
#ifdef CONFIG_HAVE_RELIABLE_STACKTRACE
	n = stack_trace_save_tsk_reliable(s.task, entries, ARRAY_SIZE(entries));
	KUNIT_EXPECT_GT(test, n, 0);
	if (n > 0)
		KUNIT_EXPECT_TRUE(test, fpb_trace_shows(entries, n,
							"fpb_sleeper_fn"));
#endif
	complete(&s.leave);
	kthread_stop(s.task);
	put_task_struct(s.task);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->exits), 1);
}

static void fpb_unregister_kretprobe_action(void *data)
{
	unregister_kretprobe(data);
}

/* A kretprobe on @func, unregistered at the end of the case. */
static void fpb_kretprobe(struct kunit *test, void *func)
{
	struct kretprobe *rp = kunit_kzalloc(test, sizeof(*rp), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, rp);
	rp->kp.addr = func;
	rp->handler = fpb_krp_handler;
	KUNIT_ASSERT_EQ(test, register_kretprobe(rp), 0);
	KUNIT_ASSERT_EQ(test,
			kunit_add_action_or_reset(test,
						  fpb_unregister_kretprobe_action,
						  rp), 0);
}

/*
 * A kretprobe and an exit probe on one function, registered @probe_first
 * or not: whichever takes the return second saves the other's
 * trampoline, and a stack trace, from inside the call or of a task
 * sleeping in it, still shows the real caller and no trampoline.
 */
static void fpb_krp_unwind(struct kunit *test, bool probe_first)
{
	struct fpb_probe *p = fpb_probe(test, true, true, 0);
	struct fpb_probe *s = fpb_probe(test, true, true, 0);
	struct fpb_krp_seen seen = { };

	if (!IS_ENABLED(CONFIG_KRETPROBES))
		kunit_skip(test, "needs kretprobes");
	atomic_set(&fpb_krp_returns, 0);
	if (probe_first) {
		KUNIT_ASSERT_EQ(test, fpb_register(p, fpb_tracee_krp), 0);
		KUNIT_ASSERT_EQ(test, fpb_register(s, fpb_tracee_sleep), 0);
	}
	fpb_kretprobe(test, fpb_tracee_krp);
	fpb_kretprobe(test, fpb_tracee_sleep);
	if (!probe_first) {
		KUNIT_ASSERT_EQ(test, fpb_register(p, fpb_tracee_krp), 0);
		KUNIT_ASSERT_EQ(test, fpb_register(s, fpb_tracee_sleep), 0);
	}
	fpb_krp_call(&seen);
	KUNIT_EXPECT_TRUE(test, seen.inside);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->exits), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&fpb_krp_returns), 1);
	fpb_krp_expect_sleeper(test, s);
	KUNIT_EXPECT_EQ(test, atomic_read(&fpb_krp_returns), 2);
}

static void fpb_kretprobe_unwind_test(struct kunit *test)
{
	fpb_krp_unwind(test, true);
}

static void fpb_kretprobe_first_unwind_test(struct kunit *test)
{
	fpb_krp_unwind(test, false);
}

/*
 * Unregistered while a call sleeps inside: the exit handler is not
 * called when it returns, and the probe was freed before (KASAN would
 * see the exit path read it).
 */
static void fpb_unregister_sleeping_test(struct kunit *test)
{
	struct fpb_probe *p = fpb_probe_own(test, 8);
	struct fpb_probe *watch = fpb_probe(test, false, true, 0);

	KUNIT_ASSERT_EQ(test, fpb_register(p, fpb_tracee_sleep), 0);
	/* Another exit probe on the function sees the return. */
	KUNIT_ASSERT_EQ(test, fpb_register(watch, fpb_tracee_sleep), 0);
	fpb_unregister_in_call(test, p);
	KUNIT_EXPECT_EQ(test, atomic_read(&watch->exits), 1);
}

/*
 * The later of two probes is unregistered while a call sleeps inside:
 * the function is left with one probe, and the earlier probe's exit
 * handler gets the call's return with its own storage, not the other's.
 */
static void fpb_unregister_later_test(struct kunit *test)
{
	struct fpb_probe *first = fpb_probe(test, true, true, 16);
	struct fpb_probe *p = fpb_probe_own(test, 8);

	first->fill = 0x11;
	p->fill = 0x22;
	KUNIT_ASSERT_EQ(test, fpb_register(first, fpb_tracee_sleep), 0);
	KUNIT_ASSERT_EQ(test, fpb_register(p, fpb_tracee_sleep), 0);
	fpb_unregister_in_call(test, p);
	KUNIT_EXPECT_EQ(test, atomic_read(&first->exits), 1);
	KUNIT_EXPECT_TRUE(test, first->data_ok);
	KUNIT_EXPECT_EQ(test, first->exit_ip, first->ip);
}

/*
 * A probe is unregistered and freed while a call it took sleeps, and
 * the next exit probe takes its entry in the table.  The call's frame
 * names the old probe's id: its return goes to neither, while a probe
 * registered before both sees it.
 */
static void fpb_entry_reuse_test(struct kunit *test)
{
	struct fpb_probe *watch = fpb_probe(test, false, true, 0);
	struct fpb_probe *next = fpb_probe(test, true, true, 8);
	struct fpb_probe *p = fpb_probe_own(test, 8);
	unsigned long index;
	struct fpb_sleeper s;

	init_completion(&s.entered);
	init_completion(&s.leave);
	KUNIT_ASSERT_EQ(test, fpb_register(watch, fpb_tracee_sleep), 0);
	if (fpb_register(p, fpb_tracee_sleep)) {
		kfree(p);
		KUNIT_FAIL(test, "registration failed");
		return;
	}
	index = p->fp.hook->index;
	s.task = kthread_run(fpb_sleeper_fn, &s, "fpb_sleeper");
	if (IS_ERR(s.task)) {
		unregister_fprobe(&p->fp);
		kfree(p);
		KUNIT_FAIL(test, "no sleeper thread");
		return;
	}
	get_task_struct(s.task);
	wait_for_completion(&s.entered);
	KUNIT_EXPECT_EQ(test, unregister_fprobe(&p->fp), 0);
	kfree(p);

	KUNIT_EXPECT_EQ(test, fpb_register(next, fpb_tracee_sleep), 0);
	KUNIT_EXPECT_EQ(test, next->fp.hook->index, index);
	complete(&s.leave);
	kthread_stop(s.task);
	put_task_struct(s.task);
	KUNIT_EXPECT_EQ(test, atomic_read(&watch->exits), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&next->entries), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&next->exits), 0);
}

/* While active, there is no memory for a larger table of exit probes. */
static struct fprobe_exit *fpb_no_exits(unsigned long nr)
{
	return NULL;
}

/*
 * The table of exit probes fills: short of memory, the next exit
 * probe's registration fails whole (entry probes need no entry); with
 * memory again, the table grows while the probes in it run, and the new
 * probe's entry is in the larger part.  The first probe and the last
 * are on fpb_tracee(), the others on fpb_tracee2(), which is not called:
 * a call of a function under so many exit probes would fill the stack.
 */
static void fpb_exits_grow_test(struct kunit *test)
{
	unsigned long nr = READ_ONCE(fprobe_exits_nr), i;
	struct fpb_probe *e = fpb_probe(test, true, false, 0);
	struct fpb_probe *first = NULL, *p = NULL;
	int ret = 0, n = 0;

	kunit_activate_static_stub(test, fprobe_exits_alloc, fpb_no_exits);
	for (i = 0; i <= nr; i++) {
		p = fpb_probe(test, true, true, 8);
		ret = fpb_register(p, first ? fpb_tracee2 : fpb_tracee);
		if (ret)
			break;
		first = first ?: p;
		n++;
	}
	KUNIT_EXPECT_EQ(test, ret, -ENOMEM);
	KUNIT_EXPECT_FALSE(test, fprobe_is_registered(&p->fp));
	KUNIT_EXPECT_EQ(test, fpb_site_ops((unsigned long)fpb_tracee2),
			max(n - 1, 0));
	KUNIT_EXPECT_EQ(test, fpb_register(e, fpb_tracee), 0);
	kunit_deactivate_static_stub(test, fprobe_exits_alloc);

	KUNIT_ASSERT_EQ(test, fpb_register(p, fpb_tracee), 0);
	KUNIT_EXPECT_GE(test, p->fp.hook->index, nr);
	KUNIT_EXPECT_GT(test, READ_ONCE(fprobe_exits_nr), nr);
	fpb_tracee(3);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->exits), 1);
	KUNIT_EXPECT_TRUE(test, p->data_ok);
	if (first)
		KUNIT_EXPECT_EQ(test, atomic_read(&first->exits), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&e->entries), 1);
}

/*
 * Bad input: clean errors, nothing hooked, the input left as it was.
 * The names are in read-only memory: fprobe must not sort them in place.
 */
static void fpb_bad_input_test(struct kunit *test)
{
	static const char * const unknown[] = {
		"fpb_tracee2", "fpb_no_such_fn", "fpb_tracee",
	};
	static const char * const twice[] = {
		"fpb_tracee2", "fpb_tracee", "fpb_tracee2",
	};
	struct fpb_probe *p = fpb_probe(test, true, true, 0);
	struct fprobe none = { };
	unsigned long ips[2];
	int base = 0;

	KUNIT_EXPECT_EQ(test, unregister_fprobe(&p->fp), -EINVAL);
	KUNIT_EXPECT_EQ(test, unregister_fprobe(NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, register_fprobe(&none, "fpb_tracee", NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, register_fprobe(&p->fp, NULL, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, register_fprobe(&p->fp, "fpb_no_such_fn*", NULL),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, register_fprobe(&p->fp, "fpb_tracee*",
					      "fpb_tracee*"), -ENOENT);
	KUNIT_EXPECT_EQ(test, register_fprobe_syms(&p->fp, (const char **)twice,
						   0), -EINVAL);
	ips[0] = (unsigned long)&base;
	KUNIT_EXPECT_EQ(test, register_fprobe_ips(&p->fp, ips, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, register_fprobe_ips(&p->fp, NULL, 1), -EINVAL);
	p->fp.entry_data_size = MAX_FPROBE_DATA_SIZE + 1;
	KUNIT_EXPECT_EQ(test, fpb_register(p, fpb_tracee), -E2BIG);
	p->fp.entry_data_size = 0;
	KUNIT_EXPECT_EQ(test, register_fprobe_syms(&p->fp, (const char **)unknown,
						   3), -ENOENT);
	KUNIT_EXPECT_FALSE(test, fprobe_is_registered(&p->fp));
	KUNIT_EXPECT_FALSE(test, fpb_hooked(fpb_tracee));
	KUNIT_EXPECT_FALSE(test, fpb_hooked(fpb_tracee2));

	/* Named twice, unsorted: probed once each. */
	KUNIT_ASSERT_EQ(test, register_fprobe_syms(&p->fp, (const char **)twice,
						   3), 0);
	KUNIT_EXPECT_EQ(test, register_fprobe(&p->fp, "fpb_tracee", NULL), -EBUSY);
	fpb_tracee2(0);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->exits), 1);

	/* Addresses, twice and by site: the caller's array is unchanged. */
	KUNIT_ASSERT_EQ(test, unregister_fprobe(&p->fp), 0);
	ips[0] = (unsigned long)fpb_tracee;
	ips[1] = ftrace_location(ips[0]);
	KUNIT_ASSERT_EQ(test, register_fprobe_ips(&p->fp, ips, 2), 0);
	KUNIT_EXPECT_EQ(test, ips[0], (unsigned long)fpb_tracee);
	fpb_tracee(0);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->entries), 2);
}

struct fpb_churn {
	struct fprobe fp;
	atomic_t calls;
	atomic_t late;		/* calls after unregister_fprobe() returned */
	bool gone;
};

static int fpb_churn_entry(struct fprobe *fp, unsigned long ip,
			   unsigned long ret_ip, struct ftrace_regs *fregs,
			   void *data)
{
	struct fpb_churn *c = container_of(fp, struct fpb_churn, fp);

	atomic_inc(&c->calls);
	if (READ_ONCE(c->gone))
		atomic_inc(&c->late);
	if (data)
		*(unsigned long *)data = ip;
	return 0;
}

static void fpb_churn_exit(struct fprobe *fp, unsigned long ip,
			   unsigned long ret_ip, struct ftrace_regs *fregs,
			   void *data)
{
	struct fpb_churn *c = container_of(fp, struct fpb_churn, fp);

	if (READ_ONCE(c->gone) || (data && *(unsigned long *)data != ip))
		atomic_inc(&c->late);
}

/*
 * Entry probes' hooks are ops that unregistering waits out with
 * RCU-tasks: a kernel thread that loops must report its quiescent
 * states, or that wait never ends.
 */
static int fpb_caller_fn(void *data)
{
	while (!kthread_should_stop()) {
		fpb_tracee(0);
		fpb_tracee2(0);
		cond_resched_tasks_rcu_qs();
	}
	return 0;
}

#define FPB_CHURN_ROUNDS	60

/*
 * Probes of both kinds come and go, two at a time on the same functions,
 * while another task calls them: no handler runs once
 * unregister_fprobe() has returned for its probe, and every exit finds
 * the storage its own entry filled.
 */
static void fpb_churn_test(struct kunit *test)
{
	static const char * const syms[] = { "fpb_tracee", "fpb_tracee2" };
	struct fpb_churn *c = kunit_kcalloc(test, FPB_CHURN_ROUNDS, sizeof(*c),
					    GFP_KERNEL);
	struct task_struct *caller;
	int i, calls = 0, late = 0;

	KUNIT_ASSERT_NOT_NULL(test, c);
	caller = kthread_run(fpb_caller_fn, NULL, "fpb_caller");
	KUNIT_ASSERT_FALSE(test, IS_ERR(caller));
	for (i = 0; i < FPB_CHURN_ROUNDS; i++) {
		c[i].fp.entry_handler = fpb_churn_entry;
		c[i].fp.exit_handler = i % 3 ? fpb_churn_exit : NULL;
		c[i].fp.entry_data_size = (i % 4) * sizeof(long);
		if (register_fprobe_syms(&c[i].fp, (const char **)syms, 2))
			break;
		usleep_range(500, 1000);
		if (i) {
			unregister_fprobe(&c[i - 1].fp);
			WRITE_ONCE(c[i - 1].gone, true);
		}
	}
	if (i)
		unregister_fprobe(&c[i - 1].fp);
	msleep(20);
	kthread_stop(caller);
	KUNIT_EXPECT_EQ(test, i, FPB_CHURN_ROUNDS);
	for (i = 0; i < FPB_CHURN_ROUNDS; i++) {
		calls += atomic_read(&c[i].calls);
		late += atomic_read(&c[i].late);
	}
	KUNIT_EXPECT_GT(test, calls, 0);
	KUNIT_EXPECT_EQ(test, late, 0);
	KUNIT_EXPECT_FALSE(test, fpb_hooked(fpb_tracee));
}

static struct kunit_case fpb_cases[] = {
	KUNIT_CASE(fpb_entry_test),
	KUNIT_CASE(fpb_exit_test),
	KUNIT_CASE(fpb_return_regs_test),
	KUNIT_CASE(fpb_shared_site_test),
	KUNIT_CASE(fpb_override_test),
	KUNIT_CASE(fpb_entry_hooks_test),
	KUNIT_CASE(fpb_exit_module_test),
	KUNIT_CASE(fpb_hook_cut_nomem_test),
	KUNIT_CASE(fpb_recursion_test),
	KUNIT_CASE(fpb_full_data_test),
	KUNIT_CASE(fpb_unwind_test),
	KUNIT_CASE(fpb_graph_first_test),
	KUNIT_CASE(fpb_stack_full_test),
	KUNIT_CASE(fpb_paused_test),
	KUNIT_CASE(fpb_disable_test),
	KUNIT_CASE(fpb_kprobe_shared_test),
	KUNIT_CASE(fpb_kretprobe_unwind_test),
	KUNIT_CASE(fpb_kretprobe_first_unwind_test),
	KUNIT_CASE(fpb_unregister_sleeping_test),
	KUNIT_CASE(fpb_unregister_later_test),
	KUNIT_CASE(fpb_entry_reuse_test),
	KUNIT_CASE_SLOW(fpb_exits_grow_test),
	KUNIT_CASE(fpb_bad_input_test),
	KUNIT_CASE_SLOW(fpb_churn_test),
	KUNIT_CASE_SLOW(fpb_all_functions_test),
	{}
};

static struct kunit_suite fpb_suite = {
	.name = "fprobe",
	.test_cases = fpb_cases,
};

kunit_test_suite(fpb_suite);

MODULE_DESCRIPTION("KUnit tests for fprobe's registry and paths");
MODULE_LICENSE("GPL");
