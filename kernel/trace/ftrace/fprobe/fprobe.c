// SPDX-License-Identifier: GPL-2.0
/*
 * fprobe's registry: register_fprobe() and the other ways in, the way
 * out, what becomes of probes whose functions' text goes, and the table
 * of exit probes (fprobe.h).
 *
 * Lock order: fprobe_mutex, then ftrace_lock (matching patterns,
 * changing an ops' filter, the stacks of fgraph_frames_get()), then what
 * the code update takes.
 */
#include <kunit/static_stub.h>
#include <linux/err.h>
#include <linux/fprobe.h>
#include <linux/ftrace.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include "../fgraph/frames.h"
#include "fprobe.h"
#include "../hash.h"
#include "../modules.h"
#include "../tracefs/tracefs.h"

/*
 * Protects fprobe_next_id, every fp->id and fp->hook, fprobe_hooks and
 * the writers of fprobe_exits.
 */
static DEFINE_MUTEX(fprobe_mutex);

/* The hooks of the registered probes. */
static LIST_HEAD(fprobe_hooks);

/* Ids are never reused: a frame on a sleeping task's stack may name one. */
static u64 fprobe_next_id = 1;

struct fprobe_exit __rcu *fprobe_exits;
unsigned long fprobe_exits_nr;

static struct fprobe_exit *fprobe_exits_now(void)
{
	return rcu_dereference_protected(fprobe_exits,
					 lockdep_is_held(&fprobe_mutex));
}

/**
 * fprobe_exits_alloc - a zeroed table of exit probes
 * @nr: its entries
 *
 * Return: the table, or NULL.
 */
struct fprobe_exit *fprobe_exits_alloc(unsigned long nr)
{
	KUNIT_STATIC_STUB_REDIRECT(fprobe_exits_alloc, nr);
	return kvcalloc(nr, sizeof(struct fprobe_exit), GFP_KERNEL);
}

/* A free entry of fprobe_exits, after a larger table if it has none. */
static long fprobe_exit_free_entry(void)
{
	struct fprobe_exit *old = fprobe_exits_now(), *new;
	unsigned long i, nr = fprobe_exits_nr;

	for (i = 0; i < nr; i++)
		if (!old[i].id)
			return i;
	nr = max(64UL, 2 * nr);
	if ((nr - 1) * FPROBE_EXIT_WORDS > FIELD_MAX(FGW_ENTRY))
		return -ENOSPC;
	new = fprobe_exits_alloc(nr);
	if (!new)
		return -ENOMEM;
	/* Entries change only under fprobe_mutex: the copy is exact. */
	if (old)
		memcpy(new, old, fprobe_exits_nr * sizeof(*old));
	rcu_assign_pointer(fprobe_exits, new);
	if (old) {
		synchronize_rcu_tasks_rude();
		kvfree(old);
	}
	i = fprobe_exits_nr;
	WRITE_ONCE(fprobe_exits_nr, nr);
	return i;
}

/*
 * Make @hook the hook of @fp, an exit probe: an entry in fprobe_exits,
 * the layout of its frames, and stacks for every task.
 */
static int fprobe_exit_add(struct fprobe *fp, struct fprobe_hook *hook)
{
	struct fprobe_exit *e;
	unsigned int words;
	long index;
	int ret;

	index = fprobe_exit_free_entry();
	if (index < 0)
		return index;
	words = DIV_ROUND_UP(fp->entry_data_size, sizeof(long));
	/* The table's growth bounds it: it cannot be too far. */
	if (WARN_ON_ONCE(!fgraph_fprobe_layout(&hook->frame,
					       index * FPROBE_EXIT_WORDS,
					       words)))
		return -ENOSPC;
	ret = fgraph_frames_get();
	if (ret)
		return ret;
	hook->ops.func = fp->entry_handler ? fprobe_exit_hook_func :
					     fprobe_exit_only_hook_func;
	hook->index = index;
	e = &fprobe_exits_now()[index];
	WRITE_ONCE(e->fp, fp);
	/* Pairs with fprobe_exit_find(): the probe is seen before its id. */
	smp_wmb();
	WRITE_ONCE(e->id, fp->id);
	return 0;
}

/*
 * Take @hook's probe out of fprobe_exits, once its ops is off: after the
 * wait no return path holds the probe, and the entry may be reused.
 */
static void fprobe_exit_remove(struct fprobe_hook *hook)
{
	WRITE_ONCE(fprobe_exits_now()[hook->index].id, 0);
	synchronize_rcu_tasks_rude();
	fgraph_frames_put();
}

/* Keep of @ips the patch sites whose text stays; return how many. */
static unsigned int fprobe_live_ips(unsigned long *ips, unsigned int nr)
{
	unsigned int i, live = 0;

	for (i = 0; i < nr; i++)
		if (ftrace_location(ips[i]) == ips[i])
			ips[live++] = ips[i];
	return live;
}

/* Give @fp a hook on @ips. */
static int fprobe_hook_add(struct fprobe *fp, unsigned long *ips,
			   unsigned int nr)
{
	struct fprobe_hook *hook = kzalloc(sizeof(*hook), GFP_KERNEL);
	int ret = 0;

	if (!hook)
		return -ENOMEM;
	hook->ops.func = fprobe_hook_func;
	/* BPF's kprobe_multi programs may override the probed function. */
	hook->ops.flags = FTRACE_OPS_FL_SAVE_ARGS | FTRACE_OPS_FL_OVERRIDE;
	hook->ops.private = fp;
	if (fp->exit_handler)
		ret = fprobe_exit_add(fp, hook);
	if (ret) {
		kfree(hook);
		return ret;
	}
	ret = ftrace_set_filter_ips(&hook->ops, ips, nr, 0, 0);
	if (!ret)
		ret = register_ftrace_function(&hook->ops);
	if (ret) {
		ftrace_free_filter(&hook->ops);
		if (hook->frame.words)
			fprobe_exit_remove(hook);
		kfree(hook);
		return ret;
	}
	hook->hooked = true;
	list_add(&hook->node, &fprobe_hooks);
	fp->hook = hook;
	return 0;
}

/* Take @fp's hook off its functions, and free it. */
static void fprobe_hook_free(struct fprobe *fp)
{
	struct fprobe_hook *hook = fp->hook;

	if (hook->hooked)
		unregister_ftrace_function(&hook->ops);
	ftrace_free_filter(&hook->ops);
	if (hook->frame.words)
		fprobe_exit_remove(hook);
	list_del(&hook->node);
	kfree(hook);
	fp->hook = NULL;
}

#ifdef CONFIG_MODULES
/*
 * Does the text at @ip stay?  A module's init text goes once it is
 * live, and the notifier took its init functions out then.
 */
static bool fprobe_text_stays(unsigned long ip)
{
	struct module *mod;

	guard(preempt)();
	mod = __module_text_address(ip);
	if (!mod)
		return true;
	if (within_module_init(ip, mod))
		return mod->state == MODULE_STATE_COMING;
	return mod->state != MODULE_STATE_GOING;
}
#else
/*
 * All text is the kernel's: once its init text is freed,
 * ftrace_location() finds no site there.
 */
static bool fprobe_text_stays(unsigned long ip)
{
	return true;
}
#endif

/* Is @ip a patch site whose text stays? */
static bool fprobe_site_live(unsigned long ip)
{
	if (!ip || ftrace_location(ip) != ip)
		return false;
	return fprobe_text_stays(ip);
}

/* Register @fp on @ips (sorted, no repeats). */
static int fprobe_add(struct fprobe *fp, unsigned long *ips, unsigned int nr)
{
	unsigned int i;
	int ret;

	guard(mutex)(&fprobe_mutex);
	if (fp->id)
		return -EBUSY;
	for (i = 0; i < nr; i++)
		if (!fprobe_site_live(ips[i]))
			return -ENOENT;
	/*
	 * Even a registration that fails uses its id up: calls may have
	 * left frames naming it.
	 */
	fp->id = fprobe_next_id++;
	fp->nmissed = 0;
	ret = fprobe_hook_add(fp, ips, nr);
	if (ret)
		fp->id = 0;
	return ret;
}

/**
 * fprobe_ips_alloc - room for the addresses a change takes out
 * @nr: how many
 *
 * Return: the array, or NULL.
 */
unsigned long *fprobe_ips_alloc(unsigned int nr)
{
	KUNIT_STATIC_STUB_REDIRECT(fprobe_ips_alloc, nr);
	return kmalloc_array(nr, sizeof(unsigned long), GFP_KERNEL);
}

/*
 * Take the functions @cut names off @hook, and stop it if none is left:
 * an empty filter would hook every function.  Short of memory, it stops
 * too, rather than stay on text that may become another function; the
 * probe stays registered.
 */
static void fprobe_hook_cut(struct fprobe_hook *hook,
			    const struct fprobe_cut *cut)
{
	struct ftrace_func_entry *e;
	struct ftrace_hash *set;
	unsigned long *ips;
	unsigned int nr = 0;

	/* Only fprobe changes a hook's filter, and under fprobe_mutex. */
	set = rcu_dereference_protected(hook->ops.func_hash->filter_hash,
					lockdep_is_held(&fprobe_mutex));
	ips = fprobe_ips_alloc(set->count);
	fhash_for_each(set, e) {
		if (!cut->gone(e->ip, cut->arg))
			continue;
		if (ips)
			ips[nr] = e->ip;
		nr++;
	}
	if (nr && nr < set->count && ips) {
		nr = fprobe_live_ips(ips, nr);
		if (!nr || !ftrace_set_filter_ips(&hook->ops, ips, nr, 1, 0))
			nr = 0;
	}
	if (nr) {
		unregister_ftrace_function(&hook->ops);
		hook->hooked = false;
	}
	kfree(ips);
}

static int fprobe_check(struct fprobe *fp)
{
	if (!fp->entry_handler && !fp->exit_handler)
		return -EINVAL;
	if (fp->entry_data_size > MAX_FPROBE_DATA_SIZE)
		return -E2BIG;
	return fprobe_is_registered(fp) ? -EBUSY : 0;
}

static int fprobe_cmp_ip(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* Sort @ips and drop repeats; return how many are left. */
static unsigned int fprobe_sort_ips(unsigned long *ips, unsigned int nr)
{
	unsigned int i, n = 0;

	sort(ips, nr, sizeof(*ips), fprobe_cmp_ip, NULL);
	for (i = 0; i < nr; i++)
		if (!n || ips[n - 1] != ips[i])
			ips[n++] = ips[i];
	return n;
}

/* Register @fp on @ips, which it may reorder. */
static int fprobe_register(struct fprobe *fp, unsigned long *ips,
			   unsigned int nr)
{
	return fprobe_add(fp, ips, fprobe_sort_ips(ips, nr));
}

/**
 * register_fprobe_ips - probe functions given by address
 * @fp: the probe, not registered
 * @addrs: the functions' addresses, or their patch sites; not changed
 * @num: how many
 *
 * A function given twice is probed once.  The handlers may run before
 * this returns.
 *
 * Return: 0; -EINVAL for a probe with no handler, no @addrs, or an
 * address that is no traceable function; -E2BIG if entry_data_size is
 * over MAX_FPROBE_DATA_SIZE; -EBUSY if @fp is registered; -ENOENT if a
 * function's text is going (a module's, or a live module's init text);
 * -ENOMEM; or the error of hooking the functions.  On error nothing of @fp is registered.
 */
int register_fprobe_ips(struct fprobe *fp, unsigned long *addrs, int num)
{
	unsigned long *ips;
	int i, ret;

	if (!fp || !addrs || num <= 0)
		return -EINVAL;
	ret = fprobe_check(fp);
	if (ret)
		return ret;
	ips = kmalloc_array(num, sizeof(*ips), GFP_KERNEL);
	if (!ips)
		return -ENOMEM;
	for (i = 0; i < num; i++) {
		ips[i] = ftrace_location(addrs[i]);
		if (!ips[i]) {
			kfree(ips);
			return -EINVAL;
		}
	}
	ret = fprobe_register(fp, ips, num);
	kfree(ips);
	return ret;
}
EXPORT_SYMBOL_GPL(register_fprobe_ips);

static int fprobe_cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char * const *)a, *(const char * const *)b);
}

/* The names of @syms (a copy), sorted, without repeats. */
static const char **fprobe_sorted_names(const char **syms, int num, int *nr)
{
	const char **names = kmemdup_array(syms, num, sizeof(*syms), GFP_KERNEL);
	int i, n = 0;

	if (!names)
		return NULL;
	sort(names, num, sizeof(*names), fprobe_cmp_name, NULL);
	for (i = 0; i < num; i++)
		if (!n || strcmp(names[n - 1], names[i]))
			names[n++] = names[i];
	*nr = n;
	return names;
}

/**
 * register_fprobe_syms - probe functions given by name
 * @fp: the probe, not registered
 * @syms: the functions' names; not changed
 * @num: how many
 *
 * A name several static functions share stands for one of them; a
 * name given twice is probed once.
 *
 * Return: as register_fprobe_ips(); -ENOENT also for a name that is no
 * traceable function.
 */
int register_fprobe_syms(struct fprobe *fp, const char **syms, int num)
{
	const char **names;
	unsigned long *ips;
	int i, nr, ret;

	if (!fp || !syms || num <= 0)
		return -EINVAL;
	for (i = 0; i < num; i++)
		if (!syms[i])
			return -EINVAL;
	ret = fprobe_check(fp);
	if (ret)
		return ret;
	names = fprobe_sorted_names(syms, num, &nr);
	ips = kcalloc(num, sizeof(*ips), GFP_KERNEL);
	ret = -ENOMEM;
	if (names && ips) {
		ret = ftrace_lookup_symbols(names, nr, ips);
		if (ret)
			ret = -ENOENT;
	}
	for (i = 0; !ret && i < nr; i++)
		ips[i] = ftrace_location(ips[i]);
	if (!ret)
		ret = fprobe_register(fp, ips, nr);
	kfree(names);
	kfree(ips);
	return ret;
}
EXPORT_SYMBOL_GPL(register_fprobe_syms);

/* The sites a pattern matches, as a set; NULL pattern, empty set. */
static struct ftrace_hash *fprobe_match(const char *pattern)
{
	struct ftrace_hash *set = fhash_alloc(FTRACE_HASH_DEFAULT_BITS);
	char *copy;
	int ret;

	if (!set || !pattern)
		return set ?: ERR_PTR(-ENOMEM);
	copy = kstrdup(pattern, GFP_KERNEL);
	ret = copy ? fmatch_records(set, copy, strlen(copy), NULL) : -ENOMEM;
	kfree(copy);
	if (ret < 0) {
		fhash_free(set);
		return ERR_PTR(ret);
	}
	return set;
}

/* The sites of @filter that @notfilter does not match, in an array. */
static unsigned long *fprobe_filter_ips(const char *filter,
					const char *notfilter,
					unsigned int *nr)
{
	struct ftrace_hash *in, *out;
	struct ftrace_func_entry *e;
	unsigned long *ips = ERR_PTR(-ENOMEM);

	*nr = 0;
	in = fprobe_match(filter);
	if (IS_ERR(in))
		return ERR_CAST(in);
	out = fprobe_match(notfilter);
	if (!IS_ERR(out))
		ips = kmalloc_array(max(1UL, in->count), sizeof(*ips), GFP_KERNEL) ?:
		      ERR_PTR(-ENOMEM);
	if (!IS_ERR(ips)) {
		fhash_for_each(in, e)
			if (!fhash_find(out, e->ip))
				ips[(*nr)++] = e->ip;
	}
	if (!IS_ERR(out))
		fhash_free(out);
	fhash_free(in);
	return ips;
}

/**
 * register_fprobe - probe the functions whose names match a pattern
 * @fp: the probe, not registered
 * @filter: a glob, as one word of set_ftrace_filter takes it; not
 *	changed
 * @notfilter: a glob of functions to leave out, or NULL
 *
 * Functions of the kernel and of modules alike.  The handlers may run
 * before this returns.
 *
 * Return: as register_fprobe_ips(); -EINVAL also for a NULL @filter,
 * -ENOENT for patterns that leave no function.
 */
int register_fprobe(struct fprobe *fp, const char *filter,
		    const char *notfilter)
{
	unsigned long *ips;
	unsigned int nr;
	int ret;

	if (!fp || !filter)
		return -EINVAL;
	ret = fprobe_check(fp);
	if (ret)
		return ret;
	ips = fprobe_filter_ips(filter, notfilter, &nr);
	if (IS_ERR(ips))
		return PTR_ERR(ips);
	ret = nr ? fprobe_register(fp, ips, nr) : -ENOENT;
	kfree(ips);
	return ret;
}
EXPORT_SYMBOL_GPL(register_fprobe);

/**
 * fprobe_is_registered - is a probe registered?
 * @fp: the probe, or NULL
 *
 * Return: true from a successful registration until it is unregistered.
 */
bool fprobe_is_registered(struct fprobe *fp)
{
	return fp && READ_ONCE(fp->id);
}
EXPORT_SYMBOL_GPL(fprobe_is_registered);

/**
 * unregister_fprobe - take a probe off its functions
 * @fp: a registered probe
 *
 * Once this returns neither handler of @fp runs again, not even the exit
 * handler of a call that entered before, and @fp may be freed.  May
 * sleep.
 *
 * Return: 0, or -EINVAL if @fp is not registered.
 */
int unregister_fprobe(struct fprobe *fp)
{
	if (!fp)
		return -EINVAL;
	guard(mutex)(&fprobe_mutex);
	if (!fp->id)
		return -EINVAL;
	fprobe_hook_free(fp);
	WRITE_ONCE(fp->id, 0);
	return 0;
}
EXPORT_SYMBOL_GPL(unregister_fprobe);

static bool fprobe_in_module(unsigned long ip, void *mod)
{
	return within_module(ip, mod);
}

/**
 * fprobe_cut_functions - take functions out of every probe
 * @cut: its gone() names them
 *
 * Out of each hook; the probes stay registered.  Cannot fail: short
 * of memory, a hook stops altogether.
 */
void fprobe_cut_functions(const struct fprobe_cut *cut)
{
	struct fprobe_hook *hook;

	guard(mutex)(&fprobe_mutex);
	list_for_each_entry(hook, &fprobe_hooks, node)
		if (hook->hooked)
			fprobe_hook_cut(hook, cut);
}

/**
 * fprobe_release_mod - take a module's functions out of every probe
 * @mod: the module, which goes away or failed to load
 *
 * Called by ftrace_release_mod() before the module's records go, on
 * every path that frees a module: the loader sends no GOING notice
 * when klp_module_coming() fails, although ftrace_module_enable() had
 * already let probes be registered on the module's functions.  Their
 * addresses may hold other functions later.
 */
void fprobe_release_mod(struct module *mod)
{
	struct fprobe_cut cut = { .gone = fprobe_in_module, .arg = mod };

	fprobe_cut_functions(&cut);
}

#ifdef CONFIG_MODULES
static bool fprobe_in_module_init(unsigned long ip, void *mod)
{
	return within_module_init(ip, mod);
}

/* A module's init functions leave every probe when it is live. */
static int fprobe_module_notify(struct notifier_block *nb,
				unsigned long state, void *data)
{
	struct fprobe_cut cut = {
		.gone = fprobe_in_module_init,
		.arg = data,
	};

	if (state == MODULE_STATE_LIVE)
		fprobe_cut_functions(&cut);
	return NOTIFY_DONE;
}

static struct notifier_block fprobe_module_nb = {
	.notifier_call	= fprobe_module_notify,
};

static int __init fprobe_init(void)
{
	return register_module_notifier(&fprobe_module_nb);
}
core_initcall(fprobe_init);
#endif /* CONFIG_MODULES */
