// SPDX-License-Identifier: GPL-2.0
/*
 * The filter API of ftrace_ops: ftrace_set_filter(), ftrace_set_notrace()
 * and their global_ops forms by name pattern, ftrace_set_filter_ip(s)()
 * by address, ftrace_free_filter(), and the ftrace_filter= and
 * ftrace_notrace= boot parameters.
 *
 * Each call edits a copy of one set of the ops under the ops'
 * regex_lock and publishes it through the code update, so an ops that
 * is running follows at once and a failed call changes nothing.
 */
#include <linux/cache.h>
#include <linux/init.h>
#include <linux/string.h>

#include <asm/setup.h>

#include "dispatch.h"
#include "tracefs/graph_filter.h"
#include "hash.h"
#include "internal.h"
#include "tracefs/tracefs.h"
#include "../trace.h"

/* Put @ip's site into @set, or take it out; ftrace_lock not needed. */
static int fapi_add_ip(struct ftrace_hash *set, unsigned long ip, bool remove)
{
	struct ftrace_func_entry *entry;

	ip = ftrace_location(ip);
	if (!ip)
		return -EINVAL;
	entry = fhash_find(set, ip);
	if (remove) {
		if (!entry)
			return -ENOENT;
		fhash_erase(set, entry);
	} else if (!entry && !fhash_insert(set, ip)) {
		return -ENOMEM;
	}
	return 0;
}

/* What one call asks of a set: a pattern, or addresses, or neither. */
struct fapi_edit {
	unsigned char	*pattern;	/* NULL: none */
	int		len;
	unsigned long	*ips;		/* NULL: none */
	unsigned int	cnt;
	bool		remove;		/* take @ips out */
	bool		reset;		/* start from an empty set */
	bool		exclude;	/* the notrace set */
};

static int fapi_fill(struct ftrace_hash *set, const struct fapi_edit *e)
{
	unsigned int i;
	int ret;

	if (e->pattern) {
		ret = fmatch_records(set, (char *)e->pattern, e->len, NULL);
		if (ret <= 0)
			return ret ?: -EINVAL;
	}
	for (i = 0; e->ips && i < e->cnt; i++) {
		ret = fapi_add_ip(set, e->ips[i], e->remove);
		if (ret)
			return ret;
	}
	return 0;
}

static int fapi_apply(struct ftrace_ops *ops, const struct fapi_edit *e)
{
	struct ftrace_ops_hash *h = ops->func_hash;
	struct ftrace_hash __rcu **slot = fset_slot(ops, e->exclude);
	struct ftrace_hash *set;
	int ret;

	if (unlikely(ftrace_is_dead()))
		return -ENODEV;

	guard(mutex)(&h->regex_lock);
	set = rcu_dereference_protected(*slot, lockdep_is_held(&h->regex_lock));
	if (e->reset)
		set = fhash_alloc(FTRACE_HASH_DEFAULT_BITS);
	else
		set = fhash_dup(set, FTRACE_HASH_DEFAULT_BITS);
	if (!set)
		return -ENOMEM;
	ret = fapi_fill(set, e);
	if (!ret) {
		guard(mutex)(&ftrace_lock);
		ret = ftrace_hash_move_and_update_ops(ops, slot, set,
						      !e->exclude);
	}
	fhash_free(set);
	return ret;
}

/**
 * ftrace_set_filter_ip - trace one function, by address, or stop
 * @ops: the ops whose filter changes
 * @ip: the function's address, or the address of its patch site
 * @remove: take @ip out of the filter instead
 * @reset: empty the filter first
 *
 * The filter keeps memory that ftrace_free_filter() releases.
 *
 * Return: 0; -EINVAL if @ip has no patch site, -ENOENT if @remove and
 * @ip is not in the filter, -ENOMEM, or the code update's error.
 */
int ftrace_set_filter_ip(struct ftrace_ops *ops, unsigned long ip,
			 int remove, int reset)
{
	return ftrace_set_filter_ips(ops, &ip, 1, remove, reset);
}
EXPORT_SYMBOL_GPL(ftrace_set_filter_ip);

/**
 * ftrace_set_filter_ips - trace functions, by address, or stop
 * @ops: the ops whose filter changes
 * @ips: the functions' addresses (or their patch sites)
 * @cnt: how many
 * @remove: take them out of the filter instead
 * @reset: empty the filter first
 *
 * All of @ips or none: the first that fails leaves the filter as it
 * was.  The filter keeps memory that ftrace_free_filter() releases.
 *
 * Return: as ftrace_set_filter_ip().
 */
int ftrace_set_filter_ips(struct ftrace_ops *ops, unsigned long *ips,
			  unsigned int cnt, int remove, int reset)
{
	struct fapi_edit e = {
		.ips = ips, .cnt = cnt, .remove = remove, .reset = reset,
	};

	ftrace_ops_init(ops);
	return fapi_apply(ops, &e);
}
EXPORT_SYMBOL_GPL(ftrace_set_filter_ips);

/**
 * ftrace_ops_set_global_filter - make an ops share global_ops' sets
 * @ops: an ops not yet initialised (else nothing happens)
 *
 * The ops then follows set_ftrace_filter and set_ftrace_notrace of the
 * top level, as the function tracer does.
 */
void ftrace_ops_set_global_filter(struct ftrace_ops *ops)
{
	if (!(ops->flags & FTRACE_OPS_FL_INITIALIZED)) {
		ftrace_ops_init(ops);
		ops->func_hash = &global_ops.local_hash;
	}
}
EXPORT_SYMBOL_GPL(ftrace_ops_set_global_filter);

/*
 * The pattern is parsed in a copy: the caller's buffer may be a string
 * literal or otherwise read-only, and stays as it was.
 */
static int fapi_set_pattern(struct ftrace_ops *ops, unsigned char *buf,
			    int len, int reset, bool exclude)
{
	struct fapi_edit e = { .len = len, .reset = reset, .exclude = exclude };
	int ret;

	if (buf) {
		if (len < 0)
			return -EINVAL;
		e.pattern = kmemdup_nul(buf, len, GFP_KERNEL);
		if (!e.pattern)
			return -ENOMEM;
	}
	ret = fapi_apply(ops, &e);
	kfree(e.pattern);
	return ret;
}

/**
 * ftrace_set_filter - trace the functions a name pattern selects
 * @ops: the ops whose filter changes
 * @buf: the pattern (a name, a glob, '!' to take functions out), which is
 *	not written to; NULL with @reset to trace every function
 * @len: its length
 * @reset: empty the filter first
 *
 * The filter keeps memory that ftrace_free_filter() releases.
 *
 * Return: 0; -EINVAL if the pattern selects no function, -ENOMEM, or
 * the code update's error.
 */
int ftrace_set_filter(struct ftrace_ops *ops, unsigned char *buf,
		      int len, int reset)
{
	ftrace_ops_init(ops);
	return fapi_set_pattern(ops, buf, len, reset, false);
}
EXPORT_SYMBOL_GPL(ftrace_set_filter);

/**
 * ftrace_set_notrace - keep the functions a name pattern selects untraced
 * @ops: the ops whose notrace set changes
 * @buf: the pattern, as for ftrace_set_filter(); NULL with @reset to
 *	empty the set
 * @len: its length
 * @reset: empty the set first
 *
 * Return: as ftrace_set_filter(); -EINVAL also for an IPMODIFY ops,
 * which cannot have a notrace set.
 */
int ftrace_set_notrace(struct ftrace_ops *ops, unsigned char *buf,
		       int len, int reset)
{
	ftrace_ops_init(ops);
	return fapi_set_pattern(ops, buf, len, reset, true);
}
EXPORT_SYMBOL_GPL(ftrace_set_notrace);

/**
 * ftrace_set_global_filter - ftrace_set_filter() on global_ops
 * @buf: the pattern, or NULL
 * @len: its length
 * @reset: empty the filter first
 */
void ftrace_set_global_filter(unsigned char *buf, int len, int reset)
{
	fapi_set_pattern(&global_ops, buf, len, reset, false);
}
EXPORT_SYMBOL_GPL(ftrace_set_global_filter);

/**
 * ftrace_set_global_notrace - ftrace_set_notrace() on global_ops
 * @buf: the pattern, or NULL
 * @len: its length
 * @reset: empty the set first
 */
void ftrace_set_global_notrace(unsigned char *buf, int len, int reset)
{
	fapi_set_pattern(&global_ops, buf, len, reset, true);
}
EXPORT_SYMBOL_GPL(ftrace_set_global_notrace);

/**
 * ftrace_free_filter - free the sets of an ops that is not running
 * @ops: the ops; it traces every function afterwards
 *
 * Sets an ops shares with global_ops (ftrace_ops_set_global_filter())
 * are not its own to free and are left alone.
 */
void ftrace_free_filter(struct ftrace_ops *ops)
{
	struct ftrace_ops_hash *h;

	ftrace_ops_init(ops);
	h = ops->func_hash;
	if (h != &ops->local_hash)
		return;
	fhash_free(rcu_replace_pointer(h->filter_hash, FHASH_EMPTY, true));
	fhash_free(rcu_replace_pointer(h->notrace_hash, FHASH_EMPTY, true));
}
EXPORT_SYMBOL_GPL(ftrace_free_filter);

/* ---- boot parameters ------------------------------------------------ */

static char fapi_boot_filter[COMMAND_LINE_SIZE] __initdata;
static char fapi_boot_notrace[COMMAND_LINE_SIZE] __initdata;

/* The function tracer's boot selftest skips itself when these are set. */
bool ftrace_filter_param __initdata;

static int __init fapi_boot_filter_param(char *str)
{
	ftrace_filter_param = true;
	strscpy(fapi_boot_filter, str, sizeof(fapi_boot_filter));
	return 1;
}
__setup("ftrace_filter=", fapi_boot_filter_param);

static int __init fapi_boot_notrace_param(char *str)
{
	ftrace_filter_param = true;
	strscpy(fapi_boot_notrace, str, sizeof(fapi_boot_notrace));
	return 1;
}
__setup("ftrace_notrace=", fapi_boot_notrace_param);

/**
 * ftrace_set_early_filter - apply a boot parameter's list to an ops
 * @ops: the ops
 * @buf: comma-separated name patterns, parsed in place
 * @enable: the filter if non-zero, else the notrace set
 *
 * A pattern that selects nothing is skipped; the others still apply.
 */
void __init ftrace_set_early_filter(struct ftrace_ops *ops, char *buf,
				    int enable)
{
	char *word;

	ftrace_ops_init(ops);
	while ((word = strsep(&buf, ",")))
		fapi_set_pattern(ops, word, strlen(word), 0, !enable);
}

/* ftrace_filter=, ftrace_notrace= and the graph tracer's, at boot. */
void __init ftrace_filter_boot(void)
{
	if (fapi_boot_filter[0])
		ftrace_set_early_filter(&global_ops, fapi_boot_filter, 1);
	if (fapi_boot_notrace[0])
		ftrace_set_early_filter(&global_ops, fapi_boot_notrace, 0);
	ftrace_graph_filter_boot();
}
