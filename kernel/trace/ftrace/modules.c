// SPDX-License-Identifier: GPL-2.0
/*
 * Text that comes and goes: the patch sites of modules over a module's
 * life, init text that is freed, and the names of freed functions.
 *
 * kernel/module drives a module's sites through four steps:
 *
 *  1. ftrace_module_init(), while the module is being laid out: records
 *     are made and every site becomes a NOP.  The records are DISABLED
 *     so that no code update touches them while the loader still
 *     changes the permissions of the module's pages.
 *  2. ftrace_module_enable(), once the text is read-only and before any
 *     of it runs: the records join in, and the sites of functions that
 *     enabled ops select are turned into calls.
 *  3. ftrace_free_mem(), when the module's init text is freed after its
 *     init function returned (and once for the kernel's own init text
 *     after boot): the records of the freed text go.
 *  4. ftrace_release_mod(), when the module goes away or fails to load:
 *     its functions leave the fprobes and the rest of its records go.
 *
 * The addresses whose records go are also taken out of the filter and
 * notrace sets of the trace arrays (set_ftrace_filter, set_ftrace_notrace),
 * so that text loaded later at the same address is not selected by an
 * entry written for the old one.
 *
 * A trace buffer may still hold the addresses of a module's freed init
 * functions.  If any ops was registered when that text went, the names
 * of its functions are kept (struct fmod_names) until the module is
 * released, and kallsyms finds them here (ftrace_mod_address_lookup(),
 * ftrace_mod_get_kallsym()).
 *
 * Locking: records and the list of names change under ftrace_lock;
 * the names are read under RCU, from any context.  The filter sets
 * are changed under trace_types_lock and each set's regex_lock, which
 * come before ftrace_lock: that is done once ftrace_lock is dropped,
 * from the detached tables, which stay intact until they are freed.
 */
#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include "accounting.h"
#include "code_update.h"
#include "dispatch.h"
#include "hash.h"
#include "internal.h"
#include "modules.h"
#include "records.h"
#include "site_calls.h"
#include "../trace.h"

/*
 * Records that went, for the steps after ftrace_lock: every record of
 * the detached tables (@dead) whose address is in [@first, @last].  A
 * table that was cut is detached whole, the records it kept included;
 * the range leaves those out.
 */
struct fmod_gone {
	struct frec_table	*dead;
	unsigned long		first;
	unsigned long		last;
};

static bool fmod_is_gone(const struct fmod_gone *gone,
			 const struct dyn_ftrace *rec)
{
	unsigned long ip = ftrace_rec_ip(rec);

	return ip >= gone->first && ip <= gone->last;
}

/*
 * Make the entries of @hash for @gone match nothing.  They are not
 * removed: a filter set left empty would select every function, and
 * readers walk the set under RCU without a lock.  The dead entries go
 * when the set is next replaced.
 */
static void fmod_forget_in(struct ftrace_hash *hash,
			   const struct fmod_gone *gone)
{
	struct ftrace_func_entry *entry;
	struct frec_table *t;
	struct dyn_ftrace *rec;

	if (ftrace_hash_empty(hash))
		return;
	for (t = gone->dead; t; t = t->next_dead) {
		frec_for_each_in(t, rec) {
			entry = fmod_is_gone(gone, rec) ?
				fhash_find(hash, ftrace_rec_ip(rec)) : NULL;
			if (entry)
				WRITE_ONCE(entry->ip, 0);
		}
	}
}

#define fmod_set(set, h)						\
	rcu_dereference_protected(set, lockdep_is_held(&(h)->regex_lock))

/* Take what went out of the filter sets of every trace array. */
static void fmod_forget(const struct fmod_gone *gone)
{
	struct ftrace_ops_hash *h;
	struct trace_array *tr;

	lockdep_assert_not_held(&ftrace_lock);
	if (!gone->dead)
		return;
	mutex_lock(&trace_types_lock);
	list_for_each_entry(tr, &ftrace_trace_arrays, list) {
		if (!tr->ops || !tr->ops->func_hash)
			continue;
		h = tr->ops->func_hash;
		mutex_lock(&h->regex_lock);
		/* Sets are replaced only with regex_lock held. */
		fmod_forget_in(fmod_set(h->filter_hash, h), gone);
		fmod_forget_in(fmod_set(h->notrace_hash, h), gone);
		mutex_unlock(&h->regex_lock);
	}
	mutex_unlock(&trace_types_lock);
}

#ifdef CONFIG_MODULES

/* One freed function of a module, for kallsyms. */
struct fmod_func {
	unsigned long	addr;
	unsigned long	size;
	const char	*name;
};

/* The freed init functions of one module, sorted by address. */
struct fmod_names {
	struct list_head	node;		/* in fmod_names_list */
	struct rcu_head		rcu;
	struct module		*mod;
	unsigned int		nr;
	struct fmod_func	funcs[] __counted_by(nr);
};

/* Changed under ftrace_lock, read under RCU. */
static LIST_HEAD(fmod_names_list);

static int fmod_func_cmp(const void *a, const void *b)
{
	const struct fmod_func *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void fmod_names_free(struct fmod_names *names)
{
	unsigned int i;

	for (i = 0; i < names->nr; i++)
		kfree(names->funcs[i].name);
	kfree(names);
}

static void fmod_names_free_rcu(struct rcu_head *rcu)
{
	fmod_names_free(container_of(rcu, struct fmod_names, rcu));
}

/* Fill @f with the function at @ip; false if kallsyms or memory fail. */
static bool fmod_name_one(struct fmod_func *f, unsigned long ip)
{
	char sym[KSYM_NAME_LEN];
	unsigned long size, off;

	if (!kallsyms_lookup(ip, &size, &off, NULL, sym))
		return false;
	f->name = kstrdup(sym, GFP_KERNEL);
	if (!f->name)
		return false;
	f->addr = ip - off;
	f->size = size;
	return true;
}

/*
 * Name the functions of @gone, which are in @mod's init text and still
 * known to kallsyms, and publish the names.  Called with ftrace_lock
 * held, in the same hold that took the records out, so that a release
 * of @mod cannot come in between.  Names are a courtesy to whoever
 * prints old trace entries: without memory there are none.
 */
static void fmod_names_add(struct module *mod, const struct fmod_gone *gone)
{
	struct fmod_names *names;
	unsigned int n = 0, i = 0;
	struct frec_table *t;
	struct dyn_ftrace *rec;

	lockdep_assert_held(&ftrace_lock);
	for (t = gone->dead; t; t = t->next_dead)
		frec_for_each_in(t, rec)
			n += fmod_is_gone(gone, rec);
	if (!n)
		return;
	names = kzalloc(struct_size(names, funcs, n), GFP_KERNEL);
	if (!names)
		return;
	names->mod = mod;
	names->nr = n;
	for (t = gone->dead; t; t = t->next_dead) {
		frec_for_each_in(t, rec) {
			if (fmod_is_gone(gone, rec))
				i += fmod_name_one(&names->funcs[i], ftrace_rec_ip(rec));
		}
	}
	names->nr = i;
	if (!i) {
		kfree(names);
		return;
	}
	sort(names->funcs, i, sizeof(names->funcs[0]), fmod_func_cmp, NULL);
	list_add_rcu(&names->node, &fmod_names_list);
}

static struct fmod_names *fmod_names_unlink(struct module *mod)
{
	struct fmod_names *names;

	lockdep_assert_held(&ftrace_lock);
	list_for_each_entry(names, &fmod_names_list, node) {
		if (names->mod == mod) {
			list_del_rcu(&names->node);
			return names;
		}
	}
	return NULL;
}

/* The function of @names that holds @addr, if any. */
static const struct fmod_func *fmod_func_at(const struct fmod_names *names,
					    unsigned long addr)
{
	unsigned int lo = 0, hi = names->nr, mid;
	const struct fmod_func *f;

	/* The last function that starts at or below @addr. */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (names->funcs[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	f = &names->funcs[lo];
	return addr >= f->addr && addr - f->addr < f->size ? f : NULL;
}

/**
 * ftrace_mod_address_lookup - name an address in freed module init text
 * @addr: the address
 * @size: if not NULL, gets the size of the function holding @addr
 * @off: if not NULL, gets the offset of @addr in that function
 * @modname: if not NULL, gets the name of the module
 * @modbuildid: if not NULL, gets the build ID of the module
 * @sym: gets the function's name; KSYM_NAME_LEN bytes
 *
 * kallsyms asks here last, for addresses no module or BPF program
 * claims.  Any context.
 *
 * Return: the length of the name, or 0 when @addr is not known here.
 */
int ftrace_mod_address_lookup(unsigned long addr, unsigned long *size,
			      unsigned long *off, char **modname,
			      const unsigned char **modbuildid, char *sym)
{
	const struct fmod_names *names;
	const struct fmod_func *f;
	int len = 0;

	rcu_read_lock();
	list_for_each_entry_rcu(names, &fmod_names_list, node) {
		f = fmod_func_at(names, addr);
		if (!f)
			continue;
		if (size)
			*size = f->size;
		if (off)
			*off = addr - f->addr;
		if (modname)
			*modname = names->mod->name;
		if (modbuildid)
			*modbuildid = module_buildid(names->mod);
		len = strscpy(sym, f->name, KSYM_NAME_LEN);
		break;
	}
	rcu_read_unlock();
	return len > 0 ? len : 0;
}

/* Symbol @symnum among the kept names, or the index past them. */
static bool fmod_names_kallsym(unsigned int *symnum, unsigned long *value,
			       char *type, char *name, char *module_name,
			       int *exported)
{
	const struct fmod_names *names;
	const struct fmod_func *f;

	list_for_each_entry_rcu(names, &fmod_names_list, node) {
		if (*symnum >= names->nr) {
			*symnum -= names->nr;
			continue;
		}
		f = &names->funcs[*symnum];
		*value = f->addr;
		*type = 'T';
		*exported = 1;
		strscpy(name, f->name, KSYM_NAME_LEN);
		strscpy(module_name, names->mod->name, MODULE_NAME_LEN);
		return true;
	}
	return false;
}

/**
 * ftrace_module_init - make the records of a module being loaded
 * @mod: the module, not yet running and with its text still writable
 *
 * Every site of @mod becomes a NOP and its record stays DISABLED until
 * ftrace_module_enable().
 */
void ftrace_module_init(struct module *mod)
{
	unsigned long *locs = mod->ftrace_callsites;

	if (ftrace_is_dead() || !mod->num_ftrace_callsites)
		return;
	if (ftrace_process_locs(mod, locs, locs + mod->num_ftrace_callsites))
		pr_warn("ftrace: no records for the functions of module %s\n",
			mod->name);
}

/*
 * What @rec would hold had it existed when the enabled ops were
 * started: how many select it, whether one needs regs, whether a
 * single ops with a trampoline of its own has it.
 */
static void fmod_account(struct dyn_ftrace *rec)
{
	struct ftrace_ops *op, *only = NULL;
	unsigned long users = 0;

	rec->flags &= ~(FTRACE_REF_MAX | FTRACE_FL_REGS | FTRACE_FL_TRAMP);
	fops_for_each_locked(op) {
		if (!(op->flags & FTRACE_OPS_FL_ENABLED) ||
		    !fops_hash_has_ip(op->func_hash, ftrace_rec_ip(rec)))
			continue;
		/*
		 * Direct calls and IPMODIFY name their functions by
		 * address, and none of a module not loaded yet.
		 */
		if (WARN_ON_ONCE(op->flags & (FTRACE_OPS_FL_DIRECT |
					      FTRACE_OPS_FL_IPMODIFY)))
			continue;
		users++;
		only = op;
		if (op->flags & FTRACE_OPS_FL_SAVE_REGS)
			rec->flags |= FTRACE_FL_REGS;
	}
	if (users == 1 && only->trampoline)
		rec->flags |= FTRACE_FL_TRAMP;
	rec->flags |= min(users, FTRACE_REF_MAX);
}

/**
 * ftrace_module_enable - let the sites of a loaded module be traced
 * @mod: the module, its text read-only and none of it run yet
 *
 * Its records join the others, and the sites that enabled ops select
 * are made to call, in one batch.  Records of discarded weak functions
 * stay DISABLED.  Then "mod:" filters written for @mod are applied.
 */
void ftrace_module_enable(struct module *mod)
{
	struct dyn_ftrace *rec;
	bool live;
	int err;

	mutex_lock(&ftrace_lock);
	if (ftrace_is_dead())
		goto out;
	/*
	 * The text is read-only by now: site writes go through the
	 * arch's batch, whose hooks take text_mutex.
	 */
	live = ftrace_calls_live();
	if (live)
		ftrace_arch_code_modify_prepare();
	frec_for_each_owned(mod, rec) {
		cond_resched();
		if (!test_for_valid_rec(rec)) {
			rec->flags = FTRACE_FL_DISABLED;
			continue;
		}
		rec->flags &= ~FTRACE_FL_DISABLED;
		/* A site that refused its first NOP stays out. */
		if (facct_rec_ignored(rec))
			continue;
		fmod_account(rec);
		if (!live || !ftrace_rec_count(rec))
			continue;
		/* A site that fails is marked BAD; the others go on. */
		err = __ftrace_replace_code(rec, true);
		if (err)
			ftrace_bug(err, rec);
	}
	if (live)
		ftrace_arch_code_modify_post_process();
out:
	mutex_unlock(&ftrace_lock);
	process_cached_mods(mod->name);
}

/**
 * ftrace_release_mod - forget a module that goes away
 * @mod: the module, unloaded or failed to load; none of its text runs
 *
 * Its functions leave the fprobes, its remaining records go, their
 * addresses leave the trace arrays' filter sets, and the kept names of
 * its init functions are freed.
 */
void ftrace_release_mod(struct module *mod)
{
	struct fmod_gone gone = { .last = ULONG_MAX };
	struct fmod_names *names;

	/* While the records are there: the probes' hooks drop them. */
	fprobe_release_mod(mod);
	mutex_lock(&ftrace_lock);
	/* Even when ftrace is dead: the names point into @mod. */
	names = fmod_names_unlink(mod);
	if (!ftrace_is_dead())
		gone.dead = frec_remove_owner(mod);
	mutex_unlock(&ftrace_lock);

	if (names)
		call_rcu(&names->rcu, fmod_names_free_rcu);
	fmod_forget(&gone);
	frec_free_dead(gone.dead);
}

#else /* !CONFIG_MODULES */

static inline void fmod_names_add(struct module *mod,
				  const struct fmod_gone *gone) { }

static inline bool fmod_names_kallsym(unsigned int *symnum,
				      unsigned long *value, char *type,
				      char *name, char *module_name,
				      int *exported)
{
	return false;
}

#endif /* CONFIG_MODULES */

/**
 * ftrace_mod_get_kallsym - symbol @symnum of what ftrace adds to kallsyms
 * @symnum: index, from 0, over the kept names of freed module init
 *          functions and then the run-time trampolines
 * @value: gets the address
 * @type: gets the symbol type
 * @name: gets the name; KSYM_NAME_LEN bytes
 * @module_name: gets the module; MODULE_NAME_LEN bytes
 * @exported: gets whether the symbol counts as exported
 *
 * This is how /proc/kallsyms lists them.
 *
 * Return: 0, or -ERANGE once @symnum is past the last.
 */
int ftrace_mod_get_kallsym(unsigned int symnum, unsigned long *value,
			   char *type, char *name, char *module_name,
			   int *exported)
{
	int ret = 0;

	rcu_read_lock();
	if (!fmod_names_kallsym(&symnum, value, type, name, module_name,
				exported))
		ret = ftrace_get_trampoline_kallsym(symnum, value, type, name,
						    module_name, exported);
	rcu_read_unlock();
	return ret;
}

/**
 * ftrace_free_mem - forget the sites of text about to be freed
 * @mod: the module whose init text it is, or NULL for the kernel's
 * @start_ptr: first byte of the text
 * @end_ptr: first byte after it
 *
 * The records of the range go.  For a module, if any ops is registered,
 * the names of the functions are kept for kallsyms until the module
 * goes.
 */
void ftrace_free_mem(struct module *mod, void *start_ptr, void *end_ptr)
{
	struct fmod_gone gone = {
		.first	= (unsigned long)start_ptr,
		.last	= (unsigned long)end_ptr - 1,
	};

	if (start_ptr >= end_ptr)
		return;
	mutex_lock(&ftrace_lock);
	gone.dead = frec_remove_range(gone.first, gone.last, NULL, NULL);
	/* Only with an ops on can these addresses be in a trace buffer. */
	if (mod && fops_first_locked() != &ftrace_list_end)
		fmod_names_add(mod, &gone);
	mutex_unlock(&ftrace_lock);

	fmod_forget(&gone);
	frec_free_dead(gone.dead);
}

/**
 * ftrace_free_init_mem - forget the sites of the kernel's init text
 *
 * Called once, when the kernel frees its init text after boot.  Takes
 * the boot snapshot first, if one was asked for.
 */
void __init ftrace_free_init_mem(void)
{
	ftrace_boot_snapshot();
	ftrace_free_mem(NULL, __init_begin, __init_end);
}
