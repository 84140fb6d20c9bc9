// SPDX-License-Identifier: GPL-2.0
/*
 * What the words of the filter files mean: patterns matched against
 * the records' names, the "mod:" cache that keeps the filters of
 * modules not loaded yet until they load, and the registry of the
 * function commands ("func:traceon" and the like).
 *
 * The records, the mod caches and the sets that process_cached_mods()
 * publishes are used under ftrace_lock; the command list has a lock
 * of its own.
 */
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "../hash.h"
#include "../internal.h"
#include "../modules.h"
#include "tracefs.h"
#include "../../trace.h"

/* A change to a mod cache, made when its request is committed. */
struct modcache_edit {
	struct list_head	list;
	struct ftrace_mod_load	*load;	/* to add; NULL: a removal */
	char			*func;	/* removal: "*" removes them all */
	char			*module;
};

/* Protects the list of function commands. */
static DEFINE_MUTEX(fcmd_lock);
static LIST_HEAD(fcmd_list);

/* ---- matching records ------------------------------------------------ */

struct fmatch {
	struct ftrace_pattern	func;
	struct ftrace_pattern	mod;
	bool			by_mod;
};

static bool fmatch_rec(const struct fmatch *fm, struct dyn_ftrace *rec)
{
	char name[KSYM_SYMBOL_LEN];
	char *modname;
	bool mod_hit;

	if (!flist_name(ftrace_rec_ip(rec), name, &modname))
		return false;
	if (fm->by_mod) {
		/* An empty module name stands for every module. */
		mod_hit = modname && (!fm->mod.len ||
				      ftrace_pattern_match(&fm->mod, modname));
		if (mod_hit == fm->mod.negate)
			return false;
		if (!fm->func.len)
			return true;
	}
	return ftrace_pattern_match(&fm->func, name);
}

/* Call @fn on each record @func and @mod select; 1 if any, 0, or error. */
int fmatch_each(char *func, int len, char *mod, fmatch_fn fn, void *arg)
{
	struct fmatch fm = { .func.type = MATCH_FULL };
	struct dyn_ftrace *rec;
	unsigned long index;
	int found = 0, ret;

	ftrace_pattern_parse(&fm.func, func, len);
	if (mod) {
		ftrace_pattern_parse(&fm.mod, mod, strlen(mod));
		fm.by_mod = true;
	}

	guard(mutex)(&ftrace_lock);
	if (unlikely(ftrace_is_dead()))
		return 0;

	/* A number is the line of available_filter_functions, from 1. */
	if (fm.func.type == MATCH_INDEX) {
		if (kstrtoul(fm.func.text, 0, &index) || !index)
			return 0;
		rec = frec_at(index - 1);
		if (!rec)
			return 0;
		ret = fn(ftrace_rec_ip(rec), fm.func.negate, arg);
		return ret ?: 1;
	}

	frec_for_each(rec) {
		cond_resched();
		if (rec->flags & FTRACE_FL_DISABLED || !fmatch_rec(&fm, rec))
			continue;
		ret = fn(ftrace_rec_ip(rec), fm.func.negate, arg);
		if (ret)
			return ret;
		found = 1;
	}
	return found;
}

static int fmatch_set(unsigned long ip, bool drop, void *arg)
{
	struct ftrace_hash *set = arg;
	struct ftrace_func_entry *entry = fhash_find(set, ip);

	if (drop && entry)
		fhash_erase(set, entry);
	else if (!drop && !entry && !fhash_insert(set, ip))
		return -ENOMEM;
	return 0;
}

int fmatch_records(struct ftrace_hash *set, char *func, int len, char *mod)
{
	return fmatch_each(func, len, mod, fmatch_set, set);
}

/* ---- the mod cache -------------------------------------------------- */

static void modcache_load_free(struct ftrace_mod_load *load)
{
	list_del(&load->list);
	kfree(load->func);
	kfree(load->module);
	kfree(load);
}

void modcache_list_clear(struct list_head *head)
{
	struct ftrace_mod_load *load, *n;

	guard(mutex)(&ftrace_lock);
	list_for_each_entry_safe(load, n, head, list)
		modcache_load_free(load);
}

static bool modcache_load_is(struct ftrace_mod_load *load, const char *func,
			     const char *module)
{
	return !strcmp(load->module, module) &&
	       (!strcmp(func, "*") || !strcmp(load->func, func));
}

/* Does a module of this name exist?  Each has a __this_module. */
static bool modcache_loaded(const char *module)
{
	char sym[MODULE_NAME_LEN + sizeof(":__this_module")];

	if (snprintf(sym, sizeof(sym), "%s:__this_module", module) >=
	    sizeof(sym))
		return false;
	return module_kallsyms_lookup_name(sym) != 0;
}

static void modcache_edit_free(struct modcache_edit *edit)
{
	list_del(&edit->list);
	if (edit->load)
		modcache_load_free(edit->load);
	kfree(edit->func);
	kfree(edit->module);
	kfree(edit);
}

/* "!func:mod:m" with m not loaded: forget cached filters, if any. */
static int modcache_uncache(struct list_head *head, struct modcache_edit *edit,
			    const char *func, const char *module)
{
	struct ftrace_mod_load *load;
	bool any = false;

	scoped_guard(mutex, &ftrace_lock) {
		list_for_each_entry(load, head, list)
			any |= modcache_load_is(load, func, module);
	}
	if (!any)
		return -EINVAL;
	edit->func = kstrdup(func, GFP_KERNEL);
	edit->module = kstrdup(module, GFP_KERNEL);
	return edit->func && edit->module ? 0 : -ENOMEM;
}

/* "func:mod:m" matched nothing: remember it for when m loads. */
static int modcache_cache(bool exclude, struct modcache_edit *edit,
			  const char *func, const char *module)
{
	struct ftrace_mod_load *load;

	if (modcache_loaded(module))
		return -EINVAL;
	load = kzalloc(sizeof(*load), GFP_KERNEL);
	if (!load)
		return -ENOMEM;
	INIT_LIST_HEAD(&load->list);
	load->enable = !exclude;
	edit->load = load;
	load->func = kstrdup(func, GFP_KERNEL);
	load->module = kstrdup(module, GFP_KERNEL);
	return load->func && load->module ? 0 : -ENOMEM;
}

/**
 * modcache_edit_new - plan a change to a mod cache
 * @edits: where the change is queued
 * @tr: the trace array whose cache changes
 * @exclude: its notrace cache, not its filter cache
 * @func: the pattern of "func:mod:module"; with a '!', a removal
 * @module: the module, which matched nothing
 *
 * Checks now what can fail; modcache_edits_commit() then cannot.
 *
 * Return: 0; -EINVAL if @module is loaded (so matching nothing is an
 * error) or, for a removal, if nothing cached matches; or -ENOMEM.
 */
int modcache_edit_new(struct list_head *edits, struct trace_array *tr,
		      bool exclude, const char *func, const char *module)
{
	struct modcache_edit *edit = kzalloc(sizeof(*edit), GFP_KERNEL);

	if (!edit)
		return -ENOMEM;
	list_add_tail(&edit->list, edits);
	if (func[0] == '!')
		return modcache_uncache(modcache_list(tr, exclude), edit, func + 1,
				    module);
	return modcache_cache(exclude, edit, func, module);
}

/* Forget the changes modcache_edit_new() queued. */
void modcache_edits_drop(struct list_head *edits)
{
	struct modcache_edit *edit, *e;

	list_for_each_entry_safe(edit, e, edits, list)
		modcache_edit_free(edit);
}

/*
 * Carry out the changes modcache_edit_new() queued, in order.  A module
 * that came meanwhile may have looked for its filters already: its
 * filter goes straight into @draft instead of the cache.
 */
void modcache_edits_commit(struct list_head *edits, struct trace_array *tr,
			   bool exclude, struct ftrace_hash *draft)
{
	struct list_head *head = modcache_list(tr, exclude);
	struct ftrace_mod_load *load, *n;
	struct modcache_edit *edit, *e;
	LIST_HEAD(late);

	scoped_guard(mutex, &ftrace_lock) {
		list_for_each_entry_safe(edit, e, edits, list) {
			if (edit->load && modcache_loaded(edit->load->module)) {
				list_move_tail(&edit->load->list, &late);
				edit->load = NULL;
			} else if (edit->load) {
				list_add(&edit->load->list, head);
				edit->load = NULL;
			} else {
				list_for_each_entry_safe(load, n, head, list)
					if (modcache_load_is(load, edit->func,
							     edit->module))
						modcache_load_free(load);
			}
			modcache_edit_free(edit);
		}
	}
	list_for_each_entry_safe(load, n, &late, list) {
		/* Short of memory, the filter is lost: nothing is left half. */
		fmatch_records(draft, load->func, strlen(load->func),
			       load->module);
		modcache_load_free(load);
	}
}

/* ---- function commands ---------------------------------------------- */

/**
 * register_ftrace_command - add a function command to the filter files
 * @cmd: the command; its name is the word after "func:"
 *
 * Writing "func:name[:params]" to set_ftrace_filter (or notrace) calls
 * @cmd->func with the function pattern and the parameters.
 *
 * Return: 0, or -EBUSY if a command of that name exists ("mod" is
 * built in).
 */
__init int register_ftrace_command(struct ftrace_func_command *cmd)
{
	struct ftrace_func_command *p;

	if (!strcmp(cmd->name, "mod"))
		return -EBUSY;
	guard(mutex)(&fcmd_lock);
	list_for_each_entry(p, &fcmd_list, list) {
		if (!strcmp(p->name, cmd->name))
			return -EBUSY;
	}
	list_add(&cmd->list, &fcmd_list);
	return 0;
}

/**
 * unregister_ftrace_command - remove a function command
 * @cmd: a command given to register_ftrace_command()
 *
 * Return: 0, or -ENODEV if no command of that name is registered.
 */
__init int unregister_ftrace_command(struct ftrace_func_command *cmd)
{
	struct ftrace_func_command *p;

	guard(mutex)(&fcmd_lock);
	list_for_each_entry(p, &fcmd_list, list) {
		if (!strcmp(p->name, cmd->name)) {
			list_del_init(&p->list);
			return 0;
		}
	}
	return -ENODEV;
}

struct ftrace_func_command *fcmd_find(const char *name)
{
	struct ftrace_func_command *p;

	guard(mutex)(&fcmd_lock);
	list_for_each_entry(p, &fcmd_list, list) {
		if (!strcmp(p->name, name))
			return p;
	}
	return NULL;
}

/* ---- modules that come after their filters ------------------------ */

#ifdef CONFIG_MODULES
/* Apply @tr's cached filters of @module (one set) and forget them. */
static void modcache_apply(struct trace_array *tr, bool exclude,
			   const char *module)
{
	struct list_head *head = modcache_list(tr, exclude);
	struct ftrace_ops *ops = tr->ops;
	struct ftrace_hash __rcu **slot = fset_slot(ops, exclude);
	struct mutex *regex_lock = &ops->func_hash->regex_lock;
	struct ftrace_mod_load *load, *n;
	struct ftrace_hash *set;
	LIST_HEAD(due);

	guard(mutex)(regex_lock);
	set = rcu_dereference_protected(*slot, lockdep_is_held(regex_lock));
	set = fhash_dup(set, FTRACE_HASH_DEFAULT_BITS);
	if (!set)
		return;		/* still cached: the next load tries again */

	scoped_guard(mutex, &ftrace_lock) {
		list_for_each_entry_safe(load, n, head, list)
			if (!strcmp(load->module, module))
				list_move_tail(&load->list, &due);
	}
	if (list_empty(&due)) {
		fhash_free(set);
		return;
	}
	list_for_each_entry_safe(load, n, &due, list) {
		/* Matching parses the strings in place; they are ours to spoil. */
		fmatch_records(set, load->func, strlen(load->func),
			       load->module);
		modcache_load_free(load);
	}

	scoped_guard(mutex, &ftrace_lock) {
		if (!exclude && list_empty(head))
			set->flags &= ~FTRACE_HASH_FL_MOD;
		ftrace_hash_move_and_update_ops(ops, slot, set, !exclude);
	}
	fhash_free(set);
}

void process_cached_mods(const char *mod_name)
{
	struct trace_array *tr;

	guard(mutex)(&trace_types_lock);
	list_for_each_entry(tr, &ftrace_trace_arrays, list) {
		if (!list_empty(&tr->mod_trace))
			modcache_apply(tr, false, mod_name);
		if (!list_empty(&tr->mod_notrace))
			modcache_apply(tr, true, mod_name);
	}
}
#endif
