// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for function probes and the func mapper
 * (tracefs/func_probes.c):
 *
 *  - register_ftrace_function_probe() hooks a probe_ops to the
 *    functions a glob selects, calling its init once per new function
 *    with the caller's data; its func then runs on every call of those
 *    functions, with the function's patch site and the trace array;
 *  - unregister_ftrace_function_probe_func() unhooks some or all of
 *    them, calling free once per function, and once more with ip 0
 *    (the probe's own data) when the last one goes;
 *  - an init that fails undoes the inits made before it and probes
 *    nothing new, and so does running out of memory (the made-up
 *    shortage of start_kunit.c);
 *  - clear_ftrace_function_probes() unhooks every probe of one trace
 *    array, and only of that one;
 *  - the func mapper keeps one data pointer per ip, and hands the data
 *    of each ip left to free_func when it is freed.
 *
 * The probe_ops below keep their per-function state the way the count
 * commands of trace_functions.c do: init makes a mapper the first time
 * and adds the ip with the caller's data, free with an ip removes it,
 * free with ip 0 frees the mapper.  Each callback also checks what it
 * is given and counts what it sees.
 *
 * Each case makes its own trace array instance and sets no tracer on
 * it: a probe's own ftrace_ops is what calls it.  KUnit actions
 * unregister the probes and destroy the instances, also when a case
 * fails.  Probes are only called while kernel.ftrace_enabled is on (as
 * it is at boot); with it off the cases expect no calls and mark
 * themselves skipped.
 *
 * This file is built with the ftrace instrumentation flags, so
 * fpk_tracee_a(), _b() and _c() have records of their own, and no other
 * function has a name that starts with "fpk_tracee_".  The probe's
 * callback is notrace.
 */
#include <kunit/test.h>
#include <kunit/test-bug.h>
#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/ftrace.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace.h>

#include "../internal.h"
#include "start_kunit.h"
#include "../tracefs/tracefs.h"
#include "../../trace.h"

static noinline int fpk_tracee_a(int x)
{
	barrier();
	return x * 7 + 1;
}

static noinline int fpk_tracee_b(int x)
{
	barrier();
	return x * 11 + 2;
}

static noinline int fpk_tracee_c(int x)
{
	barrier();
	return x * 13 + 3;
}

#define FPK_TRACEES	3
#define FPK_A		BIT(0)
#define FPK_B		BIT(1)
#define FPK_C		BIT(2)
#define FPK_ALL		(FPK_A | FPK_B | FPK_C)

static int (*const fpk_fns[FPK_TRACEES])(int) = {
	fpk_tracee_a, fpk_tracee_b, fpk_tracee_c,
};

/* fpk_fns[i](x) == x * fpk_mul[i] + i + 1 */
static const int fpk_mul[FPK_TRACEES] = { 7, 11, 13 };

#define FPK_TR		"fpk_probes"
#define FPK_TR_OTHER	"fpk_probes_other"
#define FPK_GLOB_MAX	32

/* Call tracee @i through a pointer the compiler cannot see through. */
static int fpk_call(unsigned int i, int x)
{
	int (*fn)(int) = fpk_fns[i];

	OPTIMIZER_HIDE_VAR(fn);
	return fn(x);
}

/* ---- a probe_ops that counts what it is given ---------------------- */

struct fpk_probe {
	struct ftrace_probe_ops		ops;
	struct trace_array		*tr;
	unsigned long			site[FPK_TRACEES];
	bool				live;	/* ftrace_enabled: probes run */
	int				cookie;	/* its address: the caller's data */
	struct ftrace_func_mapper	*mapper; /* the probe's data, from init */

	/* Seen by func, which may run anywhere. */
	atomic_t			hits[FPK_TRACEES];
	atomic_t			bad_calls; /* unknown ip, wrong tr or data */

	/* Seen by init and free, which the core runs one at a time. */
	int				fail_at; /* init call that fails; 0: none */
	int				fail_err;
	int				init_calls; /* the failed one too */
	int				inits[FPK_TRACEES];
	unsigned long			last_init_ip; /* of the last good init */
	int				frees[FPK_TRACEES];
	int				data_frees; /* with ip 0 */
	int				frees_before_data; /* at the last of those */
	int				bad_inits, bad_frees;
};

static notrace int fpk_index(struct fpk_probe *p, unsigned long ip)
{
	int i;

	for (i = 0; i < FPK_TRACEES; i++) {
		if (ip == p->site[i])
			return i;
	}
	return -1;
}

static notrace void fpk_func(unsigned long ip, unsigned long parent_ip,
			     struct trace_array *tr,
			     struct ftrace_probe_ops *ops, void *data)
{
	struct fpk_probe *p = container_of(ops, struct fpk_probe, ops);
	struct ftrace_func_mapper *mapper = READ_ONCE(p->mapper);
	int i = fpk_index(p, ip);
	void **slot;

	if (i < 0 || tr != p->tr || !mapper || data != mapper) {
		atomic_inc(&p->bad_calls);
		return;
	}
	/* The function's entry, made by init, holds the caller's data. */
	slot = ftrace_func_mapper_find_ip(mapper, ip);
	if (!slot || *slot != &p->cookie) {
		atomic_inc(&p->bad_calls);
		return;
	}
	atomic_inc(&p->hits[i]);
}

static int fpk_init(struct ftrace_probe_ops *ops, struct trace_array *tr,
		    unsigned long ip, void *init_data, void **data)
{
	struct fpk_probe *p = container_of(ops, struct fpk_probe, ops);
	struct ftrace_func_mapper *mapper = *data;
	int i = fpk_index(p, ip), ret;

	if (++p->init_calls == p->fail_at)
		return p->fail_err;
	if (i < 0 || tr != p->tr || init_data != &p->cookie)
		p->bad_inits++;
	if (mapper != p->mapper) {
		/* Not the data this probe_ops made: leave it alone. */
		p->bad_inits++;
		return -EINVAL;
	}
	if (!mapper) {
		mapper = allocate_ftrace_func_mapper();
		if (!mapper)
			return -ENOMEM;
		WRITE_ONCE(p->mapper, mapper);
		*data = mapper;
	}
	ret = ftrace_func_mapper_add_ip(mapper, ip, init_data);
	if (ret)
		return ret;
	if (i >= 0)
		p->inits[i]++;
	p->last_init_ip = ip;
	return 0;
}

static void fpk_free(struct ftrace_probe_ops *ops, struct trace_array *tr,
		     unsigned long ip, void *data)
{
	struct fpk_probe *p = container_of(ops, struct fpk_probe, ops);
	int i;

	if (tr != p->tr || data != p->mapper) {
		p->bad_frees++;
		return;
	}
	if (!ip) {
		p->data_frees++;
		p->frees_before_data = 0;
		for (i = 0; i < FPK_TRACEES; i++)
			p->frees_before_data += p->frees[i];
		WRITE_ONCE(p->mapper, NULL);
		free_ftrace_func_mapper(data, NULL);
		return;
	}
	i = fpk_index(p, ip);
	if (i < 0 || !data ||
	    ftrace_func_mapper_remove_ip(data, ip) != &p->cookie)
		p->bad_frees++;
	if (i >= 0)
		p->frees[i]++;
}

/* Is a probe of @p's probe_ops hooked to its trace array? */
static bool fpk_hooked(struct fpk_probe *p)
{
	struct ftrace_func_probe *probe;
	bool found = false;

	mutex_lock(&ftrace_lock);
	list_for_each_entry(probe, &p->tr->func_probes, list)
		found |= probe->probe_ops == &p->ops;
	mutex_unlock(&ftrace_lock);
	return found;
}

static void fpk_probe_release(void *data)
{
	struct fpk_probe *p = data;

	unregister_ftrace_function_probe_func(NULL, p->tr, &p->ops);
	if (fpk_hooked(p)) {
		/* Its callbacks may still run: leak it, do not free it. */
		pr_err("ftrace_probes: a probe stays hooked, leaking it\n");
		return;
	}
	/* Left only if the core never called free with ip 0. */
	free_ftrace_func_mapper(p->mapper, NULL);
	kfree(p);
}

/* Do calls reach the probes?  Not with kernel.ftrace_enabled off. */
static bool fpk_live(struct kunit *test)
{
	bool live;

	mutex_lock(&ftrace_lock);
	live = ftrace_enabled;
	mutex_unlock(&ftrace_lock);
	if (!live)
		kunit_mark_skipped(test, "kernel.ftrace_enabled is off: probes are never called");
	return live;
}

/* A probe_ops of @tr, unhooked and freed when the case ends. */
static struct fpk_probe *fpk_probe_new(struct kunit *test,
				       struct trace_array *tr)
{
	struct fpk_probe *p = kzalloc(sizeof(*p), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, p);
	p->ops.func = fpk_func;
	p->ops.init = fpk_init;
	p->ops.free = fpk_free;
	p->tr = tr;
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fpk_probe_release, p));
	for (i = 0; i < FPK_TRACEES; i++) {
		p->site[i] = ftrace_location((unsigned long)fpk_fns[i]);
		KUNIT_ASSERT_NE_MSG(test, p->site[i], 0, "%ps has no record",
				    (void *)fpk_fns[i]);
	}
	p->live = fpk_live(test);
	return p;
}

static void fpk_instance_release(void *data)
{
	struct trace_array *tr = data;

	trace_array_put(tr);
	trace_array_destroy(tr);
}

/* A trace array instance, destroyed when the case ends. */
static struct trace_array *fpk_instance(struct kunit *test, const char *name)
{
	struct trace_array *tr = trace_array_get_by_name(name, NULL);

	KUNIT_ASSERT_NOT_NULL(test, tr);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fpk_instance_release,
						  tr));
	return tr;
}

/* The core parses globs in place: give it copies. */
static int fpk_register(struct fpk_probe *p, const char *glob)
{
	char buf[FPK_GLOB_MAX];

	strscpy(buf, glob);
	return register_ftrace_function_probe(buf, p->tr, &p->ops, &p->cookie);
}

static int fpk_unregister(struct fpk_probe *p, const char *glob)
{
	char buf[FPK_GLOB_MAX];

	if (!glob)
		return unregister_ftrace_function_probe_func(NULL, p->tr,
							     &p->ops);
	strscpy(buf, glob);
	return unregister_ftrace_function_probe_func(buf, p->tr, &p->ops);
}

static void fpk_reset_counts(struct fpk_probe *p)
{
	memset(p->inits, 0, sizeof(p->inits));
	memset(p->frees, 0, sizeof(p->frees));
	p->init_calls = 0;
	p->last_init_ip = 0;
	p->data_frees = 0;
	p->frees_before_data = 0;
}

static void fpk_reset_hits(struct fpk_probe *p)
{
	unsigned int i;

	for (i = 0; i < FPK_TRACEES; i++)
		atomic_set(&p->hits[i], 0);
}

/* @count (inits or frees): @n for the tracees in @mask, 0 for the others. */
static void fpk_expect_counts(struct kunit *test, const int *count,
			      unsigned int mask, int n, const char *what)
{
	unsigned int i;

	for (i = 0; i < FPK_TRACEES; i++)
		KUNIT_EXPECT_EQ_MSG(test, count[i], mask & BIT(i) ? n : 0,
				    "%s of %ps", what, (void *)fpk_fns[i]);
}

/* Call every tracee once; each still returns what it computes. */
static void fpk_call_tracees(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < FPK_TRACEES; i++)
		KUNIT_EXPECT_EQ_MSG(test, fpk_call(i, 5),
				    5 * fpk_mul[i] + (int)i + 1, "%ps",
				    (void *)fpk_fns[i]);
}

/* Since fpk_reset_hits(), @p's func ran once for each tracee of @mask. */
static void fpk_expect_hits(struct kunit *test, struct fpk_probe *p,
			    unsigned int mask)
{
	unsigned int i;
	int want;

	for (i = 0; i < FPK_TRACEES; i++) {
		want = p->live && (mask & BIT(i)) ? 1 : 0;
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&p->hits[i]), want,
				    "calls of %ps", (void *)fpk_fns[i]);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&p->bad_calls), 0);
}

/* Call every tracee once: exactly those of @mask run @p's func. */
static void fpk_expect_probed(struct kunit *test, struct fpk_probe *p,
			      unsigned int mask)
{
	fpk_reset_hits(p);
	fpk_call_tracees(test);
	fpk_expect_hits(test, p, mask);
}

/* No callback was given anything it did not expect. */
static void fpk_expect_sane(struct kunit *test, struct fpk_probe *p)
{
	KUNIT_EXPECT_EQ(test, p->bad_inits, 0);
	KUNIT_EXPECT_EQ(test, p->bad_frees, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->bad_calls), 0);
}

/* ---- probes --------------------------------------------------------- */

/*
 * A glob hooks the probe to every function it selects, once: init runs
 * once per new function with the caller's data, func on every call
 * with the function's site and the trace array.
 */
static void fpk_register_probes(struct kunit *test)
{
	struct trace_array *tr = fpk_instance(test, FPK_TR);
	struct fpk_probe *p = fpk_probe_new(test, tr);

	/* Nothing selected: refused, and no probe is left behind. */
	KUNIT_EXPECT_EQ(test, fpk_register(p, "fpk_zz_no_such_*"), -EINVAL);
	KUNIT_EXPECT_EQ(test, p->init_calls, 0);
	KUNIT_EXPECT_FALSE(test, fpk_hooked(p));
	fpk_reset_counts(p);

	KUNIT_ASSERT_EQ(test, fpk_register(p, "fpk_tracee_*"), FPK_TRACEES);
	KUNIT_EXPECT_EQ(test, p->init_calls, FPK_TRACEES);
	fpk_expect_counts(test, p->inits, FPK_ALL, 1, "inits");
	KUNIT_EXPECT_TRUE(test, fpk_hooked(p));
	fpk_expect_probed(test, p, FPK_ALL);

	/* Nothing new: refused, no init, and no function probed twice. */
	fpk_reset_counts(p);
	KUNIT_EXPECT_EQ(test, fpk_register(p, "fpk_tracee_*"), -EINVAL);
	KUNIT_EXPECT_EQ(test, fpk_register(p, "fpk_tracee_b"), -EINVAL);
	KUNIT_EXPECT_EQ(test, p->init_calls, 0);
	fpk_expect_probed(test, p, FPK_ALL);

	KUNIT_ASSERT_EQ(test, fpk_unregister(p, "fpk_tracee_a"), 0);
	fpk_expect_probed(test, p, FPK_B | FPK_C);
	KUNIT_EXPECT_EQ(test, fpk_register(p, "fpk_tracee_a"), 1);
	fpk_expect_counts(test, p->inits, FPK_A, 1, "inits");
	fpk_expect_probed(test, p, FPK_ALL);

	/*
	 * The refused registers took no reference: unhooking the three
	 * functions ("*" is all of them) frees the probe.
	 */
	fpk_reset_counts(p);
	KUNIT_EXPECT_EQ(test, fpk_unregister(p, "*"), 0);
	fpk_expect_counts(test, p->frees, FPK_ALL, 1, "frees");
	KUNIT_EXPECT_EQ(test, p->data_frees, 1);
	KUNIT_EXPECT_FALSE(test, fpk_hooked(p));
	fpk_expect_sane(test, p);
}

/*
 * Unhooking frees each function once, and the probe's data once when
 * the last function goes, after the functions' frees.
 */
static void fpk_unregister_frees(struct kunit *test)
{
	struct trace_array *tr = fpk_instance(test, FPK_TR);
	struct fpk_probe *p = fpk_probe_new(test, tr);

	KUNIT_ASSERT_EQ(test, fpk_register(p, "fpk_tracee_*"), FPK_TRACEES);
	fpk_reset_counts(p);

	KUNIT_ASSERT_EQ(test, fpk_unregister(p, "fpk_tracee_b"), 0);
	fpk_expect_counts(test, p->frees, FPK_B, 1, "frees");
	KUNIT_EXPECT_EQ(test, p->data_frees, 0);
	fpk_expect_probed(test, p, FPK_A | FPK_C);
	/* b is unhooked: naming it again finds nothing. */
	KUNIT_EXPECT_EQ(test, fpk_unregister(p, "fpk_tracee_b"), -EINVAL);
	fpk_expect_counts(test, p->frees, FPK_B, 1, "frees");

	KUNIT_ASSERT_EQ(test, fpk_unregister(p, NULL), 0);
	fpk_expect_counts(test, p->frees, FPK_ALL, 1, "frees");
	KUNIT_EXPECT_EQ(test, p->data_frees, 1);
	KUNIT_EXPECT_EQ(test, p->frees_before_data, FPK_TRACEES);
	KUNIT_EXPECT_FALSE(test, fpk_hooked(p));
	fpk_expect_probed(test, p, 0);

	/* The probe is gone. */
	KUNIT_EXPECT_EQ(test, fpk_unregister(p, NULL), -ENODEV);
	KUNIT_EXPECT_EQ(test, fpk_unregister(p, "fpk_tracee_a"), -ENODEV);
	fpk_expect_counts(test, p->frees, FPK_ALL, 1, "frees");
	KUNIT_EXPECT_EQ(test, p->data_frees, 1);
	fpk_expect_sane(test, p);
}

/*
 * An init that fails on the second new function: its error is
 * returned, the first one's init is undone by a free, and nothing new
 * is probed.  First on a new probe, which then goes with its data,
 * then on one that already probes a function, which keeps it.
 */
static void fpk_init_failure(struct kunit *test)
{
	struct trace_array *tr = fpk_instance(test, FPK_TR);
	struct fpk_probe *p = fpk_probe_new(test, tr);
	int i;

	p->fail_at = 2;
	p->fail_err = -ENOSPC;
	KUNIT_EXPECT_EQ(test, fpk_register(p, "fpk_tracee_*"), -ENOSPC);
	KUNIT_EXPECT_EQ(test, p->init_calls, 2);
	i = fpk_index(p, p->last_init_ip);
	KUNIT_ASSERT_GE(test, i, 0);
	fpk_expect_counts(test, p->inits, BIT(i), 1, "inits");
	fpk_expect_counts(test, p->frees, BIT(i), 1, "frees");
	KUNIT_EXPECT_EQ(test, p->data_frees, 1);
	KUNIT_EXPECT_FALSE(test, fpk_hooked(p));
	fpk_expect_probed(test, p, 0);

	/* A later register works. */
	fpk_reset_counts(p);
	p->fail_at = 0;
	KUNIT_ASSERT_EQ(test, fpk_register(p, "fpk_tracee_a"), 1);
	fpk_expect_probed(test, p, FPK_A);

	/* New functions are b and c; a stays probed, the probe stays. */
	fpk_reset_counts(p);
	p->fail_at = 2;
	KUNIT_EXPECT_EQ(test, fpk_register(p, "fpk_tracee_*"), -ENOSPC);
	KUNIT_EXPECT_EQ(test, p->init_calls, 2);
	i = fpk_index(p, p->last_init_ip);
	KUNIT_ASSERT_GT(test, i, 0);
	fpk_expect_counts(test, p->frees, BIT(i), 1, "frees");
	KUNIT_EXPECT_EQ(test, p->data_frees, 0);
	KUNIT_EXPECT_TRUE(test, fpk_hooked(p));
	fpk_expect_probed(test, p, FPK_A);

	fpk_reset_counts(p);
	p->fail_at = 0;
	KUNIT_EXPECT_EQ(test, fpk_register(p, "fpk_tracee_*"), 2);
	fpk_expect_counts(test, p->inits, FPK_B | FPK_C, 1, "inits");
	fpk_expect_probed(test, p, FPK_ALL);
	fpk_expect_sane(test, p);
}

/*
 * Memory runs out for the probe's set, for its entries or for the move
 * into its ops, at each point in turn: the register fails whole, every
 * init undone and the probe's data freed, and nothing is probed.  With
 * enough memory it goes through.
 */
static void fpk_register_nomem(struct kunit *test)
{
	struct trace_array *tr = fpk_instance(test, FPK_TR);
	struct fpk_probe *p = fpk_probe_new(test, tr);
	int entries, n, ret = 0, i;

	for (entries = 0; entries < 2; entries++) {
		for (n = 0; n < 16; n++) {
			fpk_reset_counts(p);
			if (entries)
				fak_entries_limit(test, n);
			else
				fak_sets_limit(test, n);
			ret = fpk_register(p, "fpk_tracee_*");
			if (entries)
				fak_entries_unlimited(test);
			else
				fak_sets_unlimited(test);
			if (ret != -ENOMEM)
				break;
			for (i = 0; i < FPK_TRACEES; i++)
				KUNIT_EXPECT_EQ_MSG(test, p->frees[i],
						    p->inits[i], "tracee %d",
						    i);
			KUNIT_EXPECT_LE(test, p->data_frees, 1);
			if (p->init_calls)
				KUNIT_EXPECT_EQ(test, p->data_frees, 1);
			KUNIT_EXPECT_FALSE(test, fpk_hooked(p));
			fpk_expect_probed(test, p, 0);
		}
		KUNIT_EXPECT_EQ_MSG(test, ret, FPK_TRACEES,
				    "short of %s at %d", entries ? "entries" :
				    "sets", n);
		/* Registering needs at least one of each. */
		KUNIT_EXPECT_GE(test, n, 1);
		fpk_expect_probed(test, p, FPK_ALL);
		KUNIT_ASSERT_EQ(test, fpk_unregister(p, NULL), 0);
	}
	fpk_expect_sane(test, p);
}

/* Every probe of one trace array goes, with its data; others stay. */
static void fpk_clear_trace_array(struct kunit *test)
{
	struct trace_array *tr = fpk_instance(test, FPK_TR);
	struct trace_array *other = fpk_instance(test, FPK_TR_OTHER);
	struct fpk_probe *p = fpk_probe_new(test, tr);
	struct fpk_probe *q = fpk_probe_new(test, tr);
	struct fpk_probe *o = fpk_probe_new(test, other);
	bool none;

	KUNIT_ASSERT_EQ(test, fpk_register(p, "fpk_tracee_*"), FPK_TRACEES);
	KUNIT_ASSERT_EQ(test, fpk_register(q, "fpk_tracee_[bc]"), 2);
	KUNIT_ASSERT_EQ(test, fpk_register(o, "fpk_tracee_a"), 1);
	fpk_reset_hits(p);
	fpk_reset_hits(q);
	fpk_reset_hits(o);
	fpk_call_tracees(test);
	fpk_expect_hits(test, p, FPK_ALL);
	fpk_expect_hits(test, q, FPK_B | FPK_C);
	fpk_expect_hits(test, o, FPK_A);
	fpk_reset_counts(p);
	fpk_reset_counts(q);
	fpk_reset_counts(o);

	clear_ftrace_function_probes(tr);
	mutex_lock(&ftrace_lock);
	none = list_empty(&tr->func_probes);
	mutex_unlock(&ftrace_lock);
	KUNIT_EXPECT_TRUE(test, none);
	fpk_expect_counts(test, p->frees, FPK_ALL, 1, "frees");
	KUNIT_EXPECT_EQ(test, p->data_frees, 1);
	fpk_expect_counts(test, q->frees, FPK_B | FPK_C, 1, "frees");
	KUNIT_EXPECT_EQ(test, q->data_frees, 1);
	fpk_expect_counts(test, o->frees, 0, 1, "frees");
	KUNIT_EXPECT_EQ(test, o->data_frees, 0);
	KUNIT_EXPECT_TRUE(test, fpk_hooked(o));

	fpk_reset_hits(p);
	fpk_reset_hits(q);
	fpk_reset_hits(o);
	fpk_call_tracees(test);
	fpk_expect_hits(test, p, 0);
	fpk_expect_hits(test, q, 0);
	fpk_expect_hits(test, o, FPK_A);

	KUNIT_EXPECT_EQ(test, fpk_unregister(p, NULL), -ENODEV);
	KUNIT_EXPECT_EQ(test, fpk_unregister(q, NULL), -ENODEV);
	fpk_expect_sane(test, p);
	fpk_expect_sane(test, q);
	fpk_expect_sane(test, o);
}

/* ---- the func mapper ------------------------------------------------ */

#define FPK_MAP_NR	40

struct fpk_marks {
	struct ftrace_func_mapper	*map;	/* freed at the end if set */
	char				mark[FPK_MAP_NR]; /* data: &mark[i] */
	int				freed[FPK_MAP_NR]; /* free_func(&mark[i]) */
	int				stray;	/* free_func(anything else) */
};

/* Any ips will do: a mapper does not look them up. */
static unsigned long fpk_map_ip(int i)
{
	return 0x100000UL + i * 0x10UL;
}

/* free_func: count which mark it was given, without touching it. */
static int fpk_mapper_free(void *data)
{
	struct kunit *test = kunit_get_current_test();
	struct fpk_marks *m = test ? test->priv : NULL;
	unsigned long at = (unsigned long)data;
	unsigned long first;

	if (!m)
		return 0;
	first = (unsigned long)m->mark;
	if (at >= first && at < first + FPK_MAP_NR)
		m->freed[at - first]++;
	else
		m->stray++;
	return 0;
}

static int fpk_freed_total(struct fpk_marks *m)
{
	int i, n = m->stray;

	for (i = 0; i < FPK_MAP_NR; i++)
		n += m->freed[i];
	return n;
}

static void fpk_mapper_release(void *data)
{
	struct fpk_marks *m = data;

	free_ftrace_func_mapper(m->map, NULL);
}

static void **fpk_find(struct ftrace_func_mapper *map, int i)
{
	return ftrace_func_mapper_find_ip(map, fpk_map_ip(i));
}

static int fpk_add(struct fpk_marks *m, int i, int mark)
{
	return ftrace_func_mapper_add_ip(m->map, fpk_map_ip(i),
					 &m->mark[mark]);
}

static void *fpk_remove(struct ftrace_func_mapper *map, int i)
{
	return ftrace_func_mapper_remove_ip(map, fpk_map_ip(i));
}

/*
 * One entry per ip, whose slot holds the data (or a count kept in its
 * place); free_ftrace_func_mapper() gives free_func the data of each
 * entry left, not the entry.
 */
static void fpk_mapper(struct kunit *test)
{
	struct fpk_marks *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	struct ftrace_func_mapper *map;
	void **slot, **again;
	int i, want, calls;

	KUNIT_ASSERT_NOT_NULL(test, m);
	m->map = allocate_ftrace_func_mapper();
	KUNIT_ASSERT_NOT_NULL(test, m->map);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fpk_mapper_release, m));
	map = m->map;
	test->priv = m;

	KUNIT_EXPECT_NULL(test, fpk_find(map, 0));
	KUNIT_EXPECT_NULL(test, fpk_remove(map, 0));
	for (i = 0; i < FPK_MAP_NR; i++)
		KUNIT_ASSERT_EQ_MSG(test, fpk_add(m, i, i), 0, "ip %d", i);
	/* A second add for an ip is refused and changes nothing. */
	KUNIT_EXPECT_EQ(test, fpk_add(m, 1, 2), -EBUSY);
	for (i = 0; i < FPK_MAP_NR; i++) {
		slot = fpk_find(map, i);
		KUNIT_ASSERT_NOT_NULL_MSG(test, slot, "ip %d", i);
		KUNIT_EXPECT_PTR_EQ_MSG(test, *slot, (void *)&m->mark[i],
					"ip %d", i);
	}

	/* The slot is the data: a count kept in it, as the count probes do. */
	slot = fpk_find(map, 3);
	KUNIT_ASSERT_NOT_NULL(test, slot);
	*(long *)slot = 5;
	again = fpk_find(map, 3);
	KUNIT_ASSERT_PTR_EQ(test, again, slot);
	KUNIT_EXPECT_EQ(test, *(long *)again, 5);
	*slot = &m->mark[3];

	/* Removing gives the data back; the ip is then unknown, and can return. */
	for (i = 1; i < FPK_MAP_NR; i += 2) {
		KUNIT_EXPECT_PTR_EQ_MSG(test, fpk_remove(map, i),
					(void *)&m->mark[i], "ip %d", i);
		KUNIT_EXPECT_NULL_MSG(test, fpk_find(map, i), "ip %d", i);
		KUNIT_EXPECT_NULL_MSG(test, fpk_remove(map, i), "ip %d", i);
	}
	KUNIT_EXPECT_EQ(test, fpk_add(m, 1, 1), 0);

	/* free_func gets what the slot holds: mark 0, moved to ip 4. */
	KUNIT_EXPECT_PTR_EQ(test, fpk_remove(map, 0), (void *)&m->mark[0]);
	slot = fpk_find(map, 4);
	KUNIT_ASSERT_NOT_NULL(test, slot);
	*slot = &m->mark[0];

	m->map = NULL;
	free_ftrace_func_mapper(map, fpk_mapper_free);
	/* Left: ip 1 and the even ips, ip 4 holding mark 0. */
	for (i = 0; i < FPK_MAP_NR; i++) {
		want = i == 1 || (i % 2 == 0 && i != 4);
		KUNIT_EXPECT_EQ_MSG(test, m->freed[i], want, "data %d", i);
	}
	KUNIT_EXPECT_EQ(test, m->stray, 0);

	calls = fpk_freed_total(m);
	free_ftrace_func_mapper(NULL, fpk_mapper_free);
	KUNIT_EXPECT_EQ(test, fpk_freed_total(m), calls);
}

static struct kunit_case fpk_cases[] = {
	KUNIT_CASE(fpk_register_probes),
	KUNIT_CASE(fpk_unregister_frees),
	KUNIT_CASE(fpk_init_failure),
	KUNIT_CASE(fpk_register_nomem),
	KUNIT_CASE(fpk_mapper),
	KUNIT_CASE(fpk_clear_trace_array),
	{}
};

static struct kunit_suite fpk_suite = {
	.name = "ftrace_probes",
	.test_cases = fpk_cases,
};

kunit_test_suite(fpk_suite);
