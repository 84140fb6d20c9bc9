// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for text that comes and goes (modules.c):
 *
 *  - a module's records appear when it loads and go when it unloads,
 *    those of its init text already once its init function returned;
 *  - a module loaded while an ops traces every function is traced from
 *    its first call;
 *  - the names of a module's freed init functions stay known to
 *    kallsyms while an ops is registered, and go with the module;
 *  - freeing text, or releasing a module, takes the addresses out of a
 *    trace array's filter and notrace sets without emptying them.
 *
 * The module cases load ftrace_ops_kunit_mod.ko through /bin/sh (see
 * kunit_modload.c) and are skipped when it is not installed.
 * The last case uses records of a fake owner over a buffer: they are
 * DISABLED, so no code update ever patches them.
 *
 * This file is not instrumented: its callback is never traced itself.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/trace.h>

#include "../dispatch.h"
#include "../internal.h"
#include "kunit_modload.h"
#include "../records.h"
#include "../../trace.h"

#define FMK_INIT_ADDR	"fokt_mod_init_addr"
#define FMK_INITS	3

/* The module's init functions, in the order it reports them. */
static const char * const fmk_init_names[FMK_INITS] = {
	"fokt_mod_init", "fokt_mod_init_b", "fokt_mod_init_c",
};

/* The module's live struct module, found through its tracee. */
static struct module *fmk_mod(struct kunit *test, unsigned long *tracee)
{
	struct module *mod;
	void *fn;

	fn = __symbol_get(FTK_MOD_FUNC);
	KUNIT_ASSERT_NOT_NULL(test, fn);
	preempt_disable();
	mod = __module_address((unsigned long)fn);
	preempt_enable();
	__symbol_put(FTK_MOD_FUNC);
	KUNIT_ASSERT_NOT_NULL(test, mod);
	if (tracee)
		*tracee = (unsigned long)fn;
	return mod;
}

/* Where the module's init functions were, as the module recorded it. */
static void fmk_init_addrs(struct kunit *test, unsigned long *addr)
{
	unsigned long (*where)(int i);
	int i;

	where = __symbol_get(FMK_INIT_ADDR);
	KUNIT_ASSERT_NOT_NULL(test, where);
	for (i = 0; i < FMK_INITS; i++)
		addr[i] = where(i);
	__symbol_put(FMK_INIT_ADDR);
	for (i = 0; i < FMK_INITS; i++)
		KUNIT_ASSERT_NE(test, addr[i], 0);
}

/* Records of @mod: how many, and how many lie outside its core text. */
static unsigned long fmk_mod_records(struct module *mod, unsigned long *stray)
{
	struct dyn_ftrace *rec;
	unsigned long n = 0;

	*stray = 0;
	mutex_lock(&ftrace_lock);
	frec_for_each_owned(mod, rec) {
		n++;
		if (!within_module_core(ftrace_rec_ip(rec), mod))
			(*stray)++;
	}
	mutex_unlock(&ftrace_lock);
	return n;
}

/*
 * A module's records appear when it loads (those of its init text
 * gone again once init ran) and disappear when it unloads, with the
 * accounting following.
 */
static void fmk_records_follow_module(struct kunit *test)
{
	unsigned long before, loaded, own, stray, site, fn;
	unsigned long init[FMK_INITS];
	struct module *mod;
	int i;

	if (ftk_mod_loaded())
		KUNIT_ASSERT_EQ(test, ftk_mod_unload(), 0);
	before = frec_count();

	ftk_mod_load(test);
	mod = fmk_mod(test, &fn);
	site = ftrace_location(fn);
	own = fmk_mod_records(mod, &stray);
	loaded = frec_count();

	KUNIT_EXPECT_NE(test, site, 0);
	KUNIT_EXPECT_TRUE(test, within_module_core(site, mod));
	KUNIT_EXPECT_GE(test, own, 1);
	KUNIT_EXPECT_EQ(test, stray, 0);
	KUNIT_EXPECT_EQ(test, loaded, before + own);
	/* The init functions had sites, and their records are gone. */
	KUNIT_EXPECT_EQ(test, mod->num_ftrace_callsites, own + FMK_INITS);
	fmk_init_addrs(test, init);
	for (i = 0; i < FMK_INITS; i++)
		KUNIT_EXPECT_EQ(test, ftrace_location(init[i]), 0);

	KUNIT_ASSERT_EQ(test, ftk_mod_unload(), 0);
	KUNIT_EXPECT_FALSE(test, ftk_mod_loaded());
	KUNIT_EXPECT_EQ(test, frec_count(), before);
	KUNIT_EXPECT_EQ(test, ftrace_location(site), 0);
}

/* An ops that counts calls of one function among all it sees. */
struct fmk_probe {
	struct ftrace_ops	ops;
	unsigned long		watch_ip;
	atomic_t		hits;
};

static void fmk_count(unsigned long ip, unsigned long parent_ip,
		      struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct fmk_probe *p = container_of(op, struct fmk_probe, ops);

	if (ip == READ_ONCE(p->watch_ip))
		atomic_inc(&p->hits);
}

static void fmk_probe_release(void *data)
{
	struct fmk_probe *p = data;

	if (p->ops.flags & FTRACE_OPS_FL_ENABLED)
		unregister_ftrace_function(&p->ops);
	ftrace_free_filter(&p->ops);
}

/*
 * How often ftrace's own kallsyms entries list @name of the tracee
 * module at @addr, and (in *@all) how many entries it has there.
 */
static int fmk_listed(const char *name, unsigned long addr, int *all)
{
	char sym[KSYM_NAME_LEN], owner[MODULE_NAME_LEN];
	unsigned long value;
	int exported, n = 0;
	unsigned int i;
	char type;

	*all = 0;
	for (i = 0; !ftrace_mod_get_kallsym(i, &value, &type, sym, owner,
					    &exported); i++) {
		if (strcmp(owner, FTK_MOD))
			continue;
		(*all)++;
		if (value == addr && !strcmp(sym, name) && type == 'T')
			n++;
	}
	return n;
}

/* Does ftrace name @addr as the tracee module's @name, at offset @off? */
static void fmk_expect_named(struct kunit *test, unsigned long addr,
			     const char *name, unsigned long off)
{
	char sym[KSYM_NAME_LEN], *modname = NULL;
	unsigned long size = 0, at = ~0UL;

	KUNIT_ASSERT_GT(test, ftrace_mod_address_lookup(addr, &size, &at,
							&modname, NULL, sym),
			0);
	KUNIT_EXPECT_STREQ(test, sym, name);
	KUNIT_EXPECT_EQ(test, at, off);
	KUNIT_EXPECT_GT(test, size, off);
	KUNIT_EXPECT_STREQ(test, modname, FTK_MOD);
}

/*
 * Loaded while an ops traces everything: the module's sites are calls
 * from the start, and when its init text is freed the init functions'
 * names stay known to kallsyms, until the module goes.
 */
static void fmk_load_while_traced(struct kunit *test)
{
	unsigned long fn, site, flags = 0, init[FMK_INITS];
	char sym[KSYM_NAME_LEN];
	struct fmk_probe *p;
	struct dyn_ftrace *rec;
	int (*tracee)(int x);
	bool alone;
	int i, all;

	/* The counts below hold only for our ops, with calls live. */
	mutex_lock(&ftrace_lock);
	alone = fops_first_locked() == &ftrace_list_end && ftrace_enabled;
	mutex_unlock(&ftrace_lock);
	if (!alone)
		kunit_skip(test, "another ftrace_ops is registered, or ftrace_enabled is off");

	p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	p->ops.func = fmk_count;
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fmk_probe_release, p));
	KUNIT_ASSERT_EQ(test, register_ftrace_function(&p->ops), 0);

	ftk_mod_load(test);
	fmk_mod(test, &fn);
	site = ftrace_location(fn);
	KUNIT_ASSERT_NE(test, site, 0);
	mutex_lock(&ftrace_lock);
	rec = frec_lookup(site, site);
	if (rec)
		flags = rec->flags;
	mutex_unlock(&ftrace_lock);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	KUNIT_EXPECT_EQ(test, flags & FTRACE_REF_MAX, 1);
	KUNIT_EXPECT_TRUE(test, flags & FTRACE_FL_ENABLED);
	KUNIT_EXPECT_FALSE(test, flags & FTRACE_FL_DISABLED);

	WRITE_ONCE(p->watch_ip, site);
	tracee = (void *)fn;
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, tracee(i), i * 13 + 5);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->hits), 3);

	/* The init text is gone; its functions' names are not. */
	fmk_init_addrs(test, init);
	for (i = 0; i < FMK_INITS; i++) {
		KUNIT_EXPECT_EQ(test, ftrace_location(init[i]), 0);
		fmk_expect_named(test, init[i], fmk_init_names[i], 0);
		fmk_expect_named(test, init[i] + 1, fmk_init_names[i], 1);
		KUNIT_EXPECT_EQ(test, fmk_listed(fmk_init_names[i], init[i],
						 &all), 1);
		KUNIT_EXPECT_EQ(test, all, FMK_INITS);
	}
	/* And kallsyms itself asks ftrace. */
	KUNIT_ASSERT_NOT_NULL(test, kallsyms_lookup(init[0], NULL, NULL, NULL,
						    sym));
	KUNIT_EXPECT_STREQ(test, sym, fmk_init_names[0]);

	KUNIT_ASSERT_EQ(test, unregister_ftrace_function(&p->ops), 0);
	KUNIT_ASSERT_EQ(test, ftk_mod_unload(), 0);
	for (i = 0; i < FMK_INITS; i++) {
		KUNIT_EXPECT_EQ(test, ftrace_mod_address_lookup(init[i], NULL,
								NULL, NULL,
								NULL, sym), 0);
		KUNIT_EXPECT_EQ(test, fmk_listed(fmk_init_names[i], init[i],
						 &all), 0);
	}
	KUNIT_EXPECT_EQ(test, all, 0);
}

/* With no ops registered no names are kept: nothing can print them. */
static void fmk_load_untraced(struct kunit *test)
{
	unsigned long init[FMK_INITS];
	char sym[KSYM_NAME_LEN];
	bool idle;
	int i, all;

	mutex_lock(&ftrace_lock);
	idle = fops_first_locked() == &ftrace_list_end;
	mutex_unlock(&ftrace_lock);
	if (!idle)
		kunit_skip(test, "an ftrace_ops is registered");

	ftk_mod_load(test);
	fmk_init_addrs(test, init);
	for (i = 0; i < FMK_INITS; i++) {
		KUNIT_EXPECT_EQ(test, ftrace_mod_address_lookup(init[i], NULL,
								NULL, NULL,
								NULL, sym), 0);
		KUNIT_EXPECT_EQ(test, fmk_listed(fmk_init_names[i], init[i],
						 &all), 0);
	}
	KUNIT_EXPECT_EQ(test, all, 0);
}

#define FMK_FAKE_NR	8
#define FMK_FAKE_STEP	16

struct fmk_fake {
	struct module		*owner;
	unsigned long		base;
	struct trace_array	*tr;
};

static void fmk_fake_release(void *data)
{
	struct fmk_fake *f = data;
	struct frec_table *dead;

	mutex_lock(&ftrace_lock);
	dead = frec_remove_owner(f->owner);
	mutex_unlock(&ftrace_lock);
	frec_free_dead(dead);
	if (f->tr) {
		trace_array_put(f->tr);
		trace_array_destroy(f->tr);
	}
}

/*
 * The fake owner's "text": in the kernel image, as a record can only
 * name an address within 2 GiB of _text.  One fake at a time uses it.
 */
static u8 fmk_text[FMK_FAKE_NR * FMK_FAKE_STEP] __aligned(16);

/* Publish DISABLED records of a fake owner over fmk_text. */
static struct fmk_fake *fmk_fake_new(struct kunit *test)
{
	unsigned long locs[FMK_FAKE_NR];
	struct fmk_fake *f;
	struct dyn_ftrace *rec;
	LIST_HEAD(tables);
	int i;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	f->owner = kunit_kzalloc(test, sizeof(*f->owner), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->owner);
	/* A site is where ftrace_call_adjust() puts an entry (arm64: the BL). */
	f->base = ftrace_call_adjust((unsigned long)fmk_text);
	for (i = 0; i < FMK_FAKE_NR; i++)
		locs[i] = (unsigned long)fmk_text + i * FMK_FAKE_STEP;
	KUNIT_ASSERT_EQ(test, frec_build(f->owner, locs, locs + FMK_FAKE_NR,
					 &tables), 0);

	mutex_lock(&ftrace_lock);
	frec_publish(&tables);
	frec_for_each_owned(f->owner, rec)
		rec->flags = FTRACE_FL_DISABLED;
	mutex_unlock(&ftrace_lock);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fmk_fake_release, f));
	return f;
}

static struct ftrace_hash *fmk_filter_set(struct ftrace_ops_hash *h)
{
	return rcu_dereference_protected(h->filter_hash,
					 lockdep_is_held(&h->regex_lock));
}

static struct ftrace_hash *fmk_notrace_set(struct ftrace_ops_hash *h)
{
	return rcu_dereference_protected(h->notrace_hash,
					 lockdep_is_held(&h->regex_lock));
}

static bool fmk_in_filter(struct trace_array *tr, unsigned long ip)
{
	struct ftrace_ops_hash *h = tr->ops->func_hash;
	bool found;

	mutex_lock(&h->regex_lock);
	found = fhash_find(fmk_filter_set(h), ip);
	mutex_unlock(&h->regex_lock);
	return found;
}

static bool fmk_in_notrace(struct trace_array *tr, unsigned long ip)
{
	struct ftrace_ops_hash *h = tr->ops->func_hash;
	struct ftrace_hash *set;
	bool found;

	mutex_lock(&h->regex_lock);
	set = fmk_notrace_set(h);
	found = !ftrace_hash_empty(set) && fhash_find(set, ip);
	mutex_unlock(&h->regex_lock);
	return found;
}

/*
 * Make {@ip} the notrace set of @tr's ops, which is not enabled.  The
 * fake records have no names to write into set_ftrace_notrace.
 */
static void fmk_notrace_only(struct kunit *test, struct trace_array *tr,
			     unsigned long ip)
{
	struct ftrace_ops_hash *h = tr->ops->func_hash;
	struct ftrace_hash *set = fhash_alloc(2), *old;

	KUNIT_ASSERT_NOT_NULL(test, set);
	if (!fhash_insert(set, ip)) {
		fhash_free(set);
		KUNIT_FAIL_AND_ABORT(test, "no memory for a notrace set");
	}
	mutex_lock(&h->regex_lock);
	old = fmk_notrace_set(h);
	rcu_assign_pointer(h->notrace_hash, set);
	mutex_unlock(&h->regex_lock);
	fhash_free_rcu(old);
}

/*
 * How many addresses the set that @set_of picks (fmk_filter_set or
 * fmk_notrace_set) holds in @tr's ops.  The set is only stable under
 * its regex_lock, so the caller names it rather than passing it.
 */
static unsigned long
fmk_set_count(struct trace_array *tr,
	      struct ftrace_hash *(*set_of)(struct ftrace_ops_hash *h))
{
	struct ftrace_ops_hash *h = tr->ops->func_hash;
	unsigned long n;

	mutex_lock(&h->regex_lock);
	n = set_of(h)->count;
	mutex_unlock(&h->regex_lock);
	return n;
}

/*
 * Freeing text takes its addresses out of a trace array's filter set,
 * and so does releasing the owner; the set never turns empty (which
 * would select every function).
 */
static void fmk_freed_text_leaves_filters(struct kunit *test)
{
	unsigned long before = frec_count(), gone, kept;
	struct fmk_fake *f = fmk_fake_new(test);
	unsigned long ips[2];

	gone = f->base + 2 * FMK_FAKE_STEP;
	kept = f->base + 6 * FMK_FAKE_STEP;
	KUNIT_ASSERT_EQ(test, ftrace_location(gone), gone);
	f->tr = trace_array_get_by_name("fmk_filters", NULL);
	KUNIT_ASSERT_NOT_NULL(test, f->tr);
	KUNIT_ASSERT_NOT_NULL(test, f->tr->ops);
	ips[0] = gone;
	ips[1] = kept;
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ips(f->tr->ops, ips, 2, 0, 0),
			0);
	KUNIT_ASSERT_TRUE(test, fmk_in_filter(f->tr, gone));
	fmk_notrace_only(test, f->tr, gone);
	KUNIT_ASSERT_TRUE(test, fmk_in_notrace(f->tr, gone));

	/* Free records 1..3: "gone" leaves the set, "kept" stays. */
	ftrace_free_mem(NULL, (void *)(f->base + FMK_FAKE_STEP),
			(void *)(f->base + 4 * FMK_FAKE_STEP));
	KUNIT_EXPECT_EQ(test, ftrace_location(gone), 0);
	KUNIT_EXPECT_EQ(test, ftrace_location(kept), kept);
	KUNIT_EXPECT_EQ(test, frec_count(), before + FMK_FAKE_NR - 3);
	KUNIT_EXPECT_FALSE(test, fmk_in_filter(f->tr, gone));
	KUNIT_EXPECT_TRUE(test, fmk_in_filter(f->tr, kept));
	KUNIT_EXPECT_EQ(test, fmk_set_count(f->tr, fmk_filter_set), 2);
	KUNIT_EXPECT_FALSE(test, fmk_in_notrace(f->tr, gone));
	KUNIT_EXPECT_EQ(test, fmk_set_count(f->tr, fmk_notrace_set), 1);

	/* The owner goes: the rest of its addresses leave the set too. */
	ftrace_release_mod(f->owner);
	KUNIT_EXPECT_EQ(test, ftrace_location(kept), 0);
	KUNIT_EXPECT_EQ(test, frec_count(), before);
	KUNIT_EXPECT_FALSE(test, fmk_in_filter(f->tr, kept));
	KUNIT_EXPECT_EQ(test, fmk_set_count(f->tr, fmk_filter_set), 2);
}

static struct kunit_case fmk_cases[] = {
	KUNIT_CASE(fmk_records_follow_module),
	KUNIT_CASE(fmk_load_untraced),
	KUNIT_CASE_SLOW(fmk_load_while_traced),
	KUNIT_CASE(fmk_freed_text_leaves_filters),
	{}
};

static struct kunit_suite fmk_suite = {
	.name = "ftrace_modules",
	.test_cases = fmk_cases,
};

kunit_test_suite(fmk_suite);
