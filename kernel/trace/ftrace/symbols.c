// SPDX-License-Identifier: GPL-2.0
/*
 * From function names to patch sites: ftrace_lookup_symbols(), with
 * which fprobe and BPF's kprobe_multi attach to functions by name.
 */
#include <linux/bsearch.h>
#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/string.h>

struct fsym_query {
	const char	**names;	/* sorted by strcmp() */
	unsigned long	*addrs;		/* 0 while a name is unresolved */
	size_t		nr;
	size_t		left;		/* names still unresolved */
	size_t		idx;		/* the name a kernel match is for */
};

/*
 * A name given twice stays unresolved: it cannot name two functions,
 * and the caller learns of its mistake from -ESRCH.
 */
static bool fsym_repeated(const struct fsym_query *q, size_t i)
{
	return (i > 0 && !strcmp(q->names[i - 1], q->names[i])) ||
	       (i + 1 < q->nr && !strcmp(q->names[i + 1], q->names[i]));
}

/*
 * One of the kernel's symbols named names[idx].  Several static
 * functions may share a name: the lowest one with a patch site wins,
 * as it would in a walk of kallsyms in address order.
 */
static int fsym_kernel_match(void *data, unsigned long addr)
{
	struct fsym_query *q = data;
	unsigned long *found = &q->addrs[q->idx];

	if (ftrace_location(addr) && (!*found || addr < *found))
		*found = addr;
	return 0;
}

static int fsym_cmp(const void *key, const void *elt)
{
	return strcmp(key, *(const char * const *)elt);
}

/* A module symbol: the first of a name with a patch site wins. */
static int fsym_module_match(void *data, const char *name, unsigned long addr)
{
	struct fsym_query *q = data;
	const char **hit;
	size_t i;

	hit = bsearch(name, q->names, q->nr, sizeof(*q->names), fsym_cmp);
	if (!hit)
		return 0;
	i = hit - q->names;
	if (q->addrs[i] || fsym_repeated(q, i) || !ftrace_location(addr))
		return 0;
	q->addrs[i] = addr;
	/* Non-zero ends the walk: everything is resolved. */
	return --q->left == 0;
}

/**
 * ftrace_lookup_symbols - the addresses of traceable functions, by name
 * @sorted_syms: the names, sorted by strcmp()
 * @cnt: how many names there are
 * @addrs: receives, for each name, the address of a function of that
 *         name that has a patch site, or 0 (at least @cnt entries)
 *
 * The kernel's functions come before those of modules.  Each name is
 * looked up in the kernel's symbol index on its own; the modules are
 * walked once, and only if some name is still unresolved then.
 *
 * Return: 0 if every name was resolved, -ESRCH if some was not
 * (unknown, untraceable or given twice).
 */
int ftrace_lookup_symbols(const char **sorted_syms, size_t cnt,
			  unsigned long *addrs)
{
	struct fsym_query q = {
		.names	= sorted_syms,
		.addrs	= addrs,
		.nr	= cnt,
	};

	memset(addrs, 0, cnt * sizeof(*addrs));
	for (q.idx = 0; q.idx < cnt; q.idx++) {
		if (!fsym_repeated(&q, q.idx))
			kallsyms_on_each_match_symbol(fsym_kernel_match,
						      sorted_syms[q.idx], &q);
		if (!addrs[q.idx])
			q.left++;
	}
	if (q.left)
		module_kallsyms_on_each_symbol(NULL, fsym_module_match, &q);
	return q.left ? -ESRCH : 0;
}
