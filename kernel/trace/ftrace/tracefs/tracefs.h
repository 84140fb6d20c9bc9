/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracefs side of the core: the files that list records
 * (listing.c) and the filter files (filter_files.c),
 * and what they need from each other and from the code update.
 */
#ifndef _KERNEL_TRACE_FTRACE_TRACEFS_TRACEFS_H
#define _KERNEL_TRACE_FTRACE_TRACEFS_TRACEFS_H

#include <linux/ftrace.h>

#include "../records.h"
#include "../../trace.h"

#ifdef CONFIG_DYNAMIC_FTRACE

struct dentry;
struct seq_file;
struct ftrace_hash;

/*
 * The name of the function whose patch site is @ip, into @name
 * (KSYM_SYMBOL_LEN bytes), and its module into @modname (NULL for the
 * kernel).  Returns false when the site is not at the start of the
 * symbol kallsyms finds, which is what a discarded weak function
 * leaves behind: such a record has no name of its own.
 */
bool flist_name(unsigned long ip, char *name, char **modname);

/* Print @rec's name, and " [module]" for a module's; flist_name()'s result. */
bool flist_print_name(struct seq_file *m, struct dyn_ftrace *rec);

/*
 * What enabled_functions and touched_functions print after @rec's
 * name: its count of ops, its flags, and whom its site calls, or
 * "BAD" for a site ftrace_bug() refused.
 */
void flist_show_state(struct seq_file *m, struct dyn_ftrace *rec);

/*
 * A walk over the records @want accepts, that a seq_file can resume.
 * ftrace_lock is dropped between two reads, so no cursor survives
 * them; the ip of the record last reached does, and finding it again
 * is a binary search where counting from the first record would walk
 * everything before it.  Zero-initialise, set @want (and @arg).
 * Use with ftrace_lock held.
 */
struct flist_walk {
	struct frec_cursor	cur;
	struct dyn_ftrace	*rec;	/* the current record; NULL: none */
	loff_t			pos;	/* index of the last record reached */
	unsigned long		ip;	/* its ip, kept across reads */
	loff_t			nr;	/* past the end: how many there are */
	bool			(*want)(struct dyn_ftrace *rec, void *arg);
	void			*arg;
};

struct dyn_ftrace *flist_walk_to(struct flist_walk *w, loff_t pos);
struct dyn_ftrace *flist_walk_next(struct flist_walk *w);

/* available_filter_functions{,_addrs}, enabled_functions, touched_functions */
void flist_tracefs(struct dentry *parent);

/* The slot of @ops's notrace set if @exclude, else of its filter set. */
static inline struct ftrace_hash __rcu **
fset_slot(struct ftrace_ops *ops, bool exclude)
{
	return exclude ? &ops->func_hash->notrace_hash :
			 &ops->func_hash->filter_hash;
}

/* ---- filter_words.c ---- */

/*
 * Called by fmatch_each() for each record it selects: @drop says
 * whether the word began with '!'.  Non-zero stops the walk.
 */
typedef int (*fmatch_fn)(unsigned long ip, bool drop, void *arg);

/*
 * Call @fn on each record that @func (and @mod, if not NULL) selects:
 * a name pattern, or the line number of available_filter_functions.
 * The strings are parsed in place.  Returns 1 if some record matched,
 * 0 if none did, or what @fn returned.  Takes ftrace_lock.
 */
int fmatch_each(char *func, int len, char *mod, fmatch_fn fn, void *arg);

/*
 * Add the records whose names match @func (and whose module matches
 * @mod, if not NULL) to @set, or take them out of it when @func starts
 * with '!'.  The strings are parsed in place.  Returns 1 if some record
 * matched, 0 if none did, or -ENOMEM (@set may then hold part of the
 * change).  Takes ftrace_lock.
 */
int fmatch_records(struct ftrace_hash *set, char *func, int len, char *mod);

/* The filters that wait for modules: "func:mod:module" in either file. */
static inline struct list_head *modcache_list(struct trace_array *tr,
					      bool exclude)
{
	return exclude ? &tr->mod_notrace : &tr->mod_trace;
}

int modcache_edit_new(struct list_head *edits, struct trace_array *tr,
		      bool exclude, const char *func, const char *module);
void modcache_edits_commit(struct list_head *edits, struct trace_array *tr,
			   bool exclude, struct ftrace_hash *draft);
void modcache_edits_drop(struct list_head *edits);
/* Forget every cached filter of one list; takes ftrace_lock. */
void modcache_list_clear(struct list_head *head);

/* The command registered under @name, or NULL. */
struct ftrace_func_command *fcmd_find(const char *name);

/* filter_api.c: the ftrace_filter= family of boot parameters. */
void __init ftrace_filter_boot(void);

/* subops.c: a new set for any ops, subops or not; ftrace_lock held. */
int ftrace_hash_move_and_update_ops(struct ftrace_ops *ops,
				    struct ftrace_hash __rcu **orig_hash,
				    struct ftrace_hash *hash, int enable);

/* A function probe: one per probe_ops and trace array (func_probes.c). */
struct ftrace_func_probe {
	struct list_head	list;		/* in tr->func_probes */
	struct trace_array	*tr;
	struct ftrace_probe_ops	*probe_ops;
	void			*data;		/* probe_ops' own */
	int			ref;
	struct ftrace_ops	ops;		/* its set: the probed functions */
};

#endif /* CONFIG_DYNAMIC_FTRACE */
#endif /* _KERNEL_TRACE_FTRACE_TRACEFS_TRACEFS_H */
