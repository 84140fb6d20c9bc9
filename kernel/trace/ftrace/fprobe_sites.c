// SPDX-License-Identifier: GPL-2.0
/*
 * fprobe's tables of probed sites: each change is a new table built
 * from the old one, sharing the sites it leaves as they were (see
 * fprobe.h).  The caller holds fprobe_mutex, publishes the result and
 * frees what only the old table held once no CPU can be reading it.
 */
#include <kunit/static_stub.h>
#include <linux/bsearch.h>
#include <linux/err.h>
#include <linux/log2.h>
#include <linux/overflow.h>
#include <linux/slab.h>

#include "fprobe.h"

/**
 * fprobe_table_alloc - an empty table
 * @count: how many sites it must take, at most half full
 *
 * Return: the table, or NULL.
 */
struct fprobe_table *fprobe_table_alloc(unsigned int count)
{
	unsigned long slots = max(16UL, roundup_pow_of_two(2UL * count + 1));
	struct fprobe_table *t;

	KUNIT_STATIC_STUB_REDIRECT(fprobe_table_alloc, count);
	t = kvzalloc(struct_size(t, slot, slots), GFP_KERNEL);
	if (!t)
		return NULL;
	t->shift = 64 - ilog2(slots);
	t->mask = slots - 1;
	return t;
}

/* Put @s in @t, which is not published yet and has room. */
static void ftab_put(struct fprobe_table *t, struct fprobe_site *s)
{
	unsigned int i = fprobe_hash(t, s->ip);

	while (t->slot[i])
		i = (i + 1) & t->mask;
	t->slot[i] = s;
	t->count++;
}

/* Which of @s' probes have room in the block of a call, oldest first. */
static void fsite_fit(struct fprobe_site *s)
{
	unsigned int i, block = 0;

	for (i = 0; i < s->nr; i++) {
		if (block + 1 + fprobe_at_words(&s->at[i]) > FPROBE_BLOCK_WORDS)
			break;
		block += 1 + fprobe_at_words(&s->at[i]);
	}
	s->nr_fit = i;
	s->block = block;
}

/*
 * A copy of @s (NULL: a site of @ip with no probes) without the probes
 * that are gone (fp NULL) or have id @drop, and with @fp after them if
 * it is not NULL.  NULL if no probe is left; ERR_PTR(-ENOMEM).
 */
static struct fprobe_site *fsite_copy(struct fprobe_site *s, unsigned long ip,
				      u64 drop, struct fprobe *fp)
{
	unsigned int i, k = 0, nr = s ? s->nr : 0;
	struct fprobe_site *n;

	n = kmalloc(struct_size(n, at, nr + 1), GFP_KERNEL);
	if (!n)
		return ERR_PTR(-ENOMEM);
	n->ip = ip;
	/* The room first, for __counted_by; then what was filled. */
	n->nr = nr + 1;
	for (i = 0; i < nr; i++)
		if (s->at[i].fp && fprobe_at_id(&s->at[i]) != drop)
			n->at[k++] = s->at[i];
	if (fp) {
		n->at[k].fp = fp;
		n->at[k].hdr = fprobe_hdr(fp->id, fp->exit_handler ?
			DIV_ROUND_UP(fp->entry_data_size, sizeof(long)) : 0);
		k++;
	}
	n->nr = k;
	if (!k) {
		kfree(n);
		return NULL;
	}
	fsite_fit(n);
	return n;
}

static int ftab_cmp_ip(const void *key, const void *elt)
{
	unsigned long a = *(const unsigned long *)key;
	unsigned long b = *(const unsigned long *)elt;

	return a < b ? -1 : a > b;
}

/*
 * What becomes of a site of the old table: itself, a copy, or NULL to
 * drop it; or an error.
 */
typedef struct fprobe_site *(*fsite_map_fn)(struct fprobe_site *s, void *arg);

/* A new table of @old's sites, each through @map, with room for @extra. */
static struct fprobe_table *ftab_map(struct fprobe_table *old,
				     unsigned int extra, fsite_map_fn map,
				     void *arg)
{
	unsigned int i, count = (old ? old->count : 0) + extra;
	struct fprobe_table *t = fprobe_table_alloc(count);
	struct fprobe_site *s;

	if (!t)
		return ERR_PTR(-ENOMEM);
	for (i = 0; old && i <= old->mask; i++) {
		if (!old->slot[i])
			continue;
		s = map(old->slot[i], arg);
		if (IS_ERR(s)) {
			fprobe_table_free(t, old);
			return ERR_CAST(s);
		}
		if (s)
			ftab_put(t, s);
	}
	return t;
}

struct ftab_add {
	struct fprobe		*fp;
	const unsigned long	*ips;	/* sorted, no repeats */
	unsigned int		nr;
};

static struct fprobe_site *ftab_add_map(struct fprobe_site *s, void *arg)
{
	struct ftab_add *a = arg;

	if (!bsearch(&s->ip, a->ips, a->nr, sizeof(*a->ips), ftab_cmp_ip))
		return s;
	return fsite_copy(s, s->ip, 0, a->fp);
}

/**
 * fprobe_table_add - a table with one more probe
 * @old: the current table, or NULL
 * @fp: the probe, with its id set
 * @ips: its sites, sorted, with no repeats
 * @nr: how many
 *
 * Return: the new table, or ERR_PTR(-ENOMEM); @old is unchanged.
 */
struct fprobe_table *fprobe_table_add(struct fprobe_table *old,
				      struct fprobe *fp,
				      const unsigned long *ips,
				      unsigned int nr)
{
	struct ftab_add a = { .fp = fp, .ips = ips, .nr = nr };
	unsigned int i, extra = 0;
	struct fprobe_table *t;
	struct fprobe_site *s;

	for (i = 0; i < nr; i++)
		extra += !fprobe_site_find(old, ips[i]);
	t = ftab_map(old, extra, ftab_add_map, &a);
	if (IS_ERR(t))
		return t;
	for (i = 0; i < nr; i++) {
		if (fprobe_site_find(old, ips[i]))
			continue;
		s = fsite_copy(NULL, ips[i], 0, fp);
		if (IS_ERR(s)) {
			fprobe_table_free(t, old);
			return ERR_CAST(s);
		}
		ftab_put(t, s);
	}
	return t;
}

/* Does @cut take the probe @at of a site at @ip? */
static bool fcut_takes(const struct fprobe_cut *cut, unsigned long ip,
		       const struct fprobe_at *at)
{
	return (cut->id && fprobe_at_id(at) == cut->id) || (cut->gone && cut->gone(ip, cut->arg));
}

/* Does @cut take some probe of @s, or does @s hold a cleared one? */
static bool fcut_site(const struct fprobe_cut *cut, struct fprobe_site *s)
{
	unsigned int i;

	for (i = 0; i < s->nr; i++)
		if (!s->at[i].fp || fcut_takes(cut, s->ip, &s->at[i]))
			return true;
	return false;
}

static struct fprobe_site *ftab_cut_map(struct fprobe_site *s, void *arg)
{
	const struct fprobe_cut *cut = arg;

	if (!fcut_site(cut, s))
		return s;
	if (cut->gone && cut->gone(s->ip, cut->arg))
		return NULL;
	return fsite_copy(s, s->ip, cut->id, NULL);
}

/**
 * fprobe_table_cuts - would a cut change a table?
 * @t: the table, or NULL
 * @cut: what to take out
 *
 * Return: true if @cut takes a probe out of @t, or @t holds probes
 * cleared in place that a new table would leave out.
 */
bool fprobe_table_cuts(struct fprobe_table *t, const struct fprobe_cut *cut)
{
	unsigned int i;

	for (i = 0; t && i <= t->mask; i++)
		if (t->slot[i] && fcut_site(cut, t->slot[i]))
			return true;
	return false;
}

/**
 * fprobe_table_cut - a table without what a cut takes
 * @old: the current table
 * @cut: what to take out
 *
 * Probes cleared in place (fp NULL) go too.
 *
 * Return: the new table, or ERR_PTR(-ENOMEM); @old is unchanged.
 */
struct fprobe_table *fprobe_table_cut(struct fprobe_table *old,
				      const struct fprobe_cut *cut)
{
	return ftab_map(old, 0, ftab_cut_map, (void *)cut);
}

/**
 * fprobe_table_clear - take a cut's probes out of a published table
 * @t: the current table
 * @cut: what to take out
 *
 * For when there is no memory for a new table: each probe @cut takes
 * is cleared in its site, which the call paths then skip.  The one
 * change made to a published site.
 */
void fprobe_table_clear(struct fprobe_table *t, const struct fprobe_cut *cut)
{
	struct fprobe_site *s;
	unsigned int i, j;

	for (i = 0; i <= t->mask; i++) {
		s = t->slot[i];
		for (j = 0; s && j < s->nr; j++)
			if (fcut_takes(cut, s->ip, &s->at[j]))
				WRITE_ONCE(s->at[j].fp, NULL);
	}
}

/**
 * fprobe_table_free - free a table and the sites only it holds
 * @t: the table, no longer read by anyone; or NULL
 * @keep: a table whose sites stay, or NULL
 */
void fprobe_table_free(struct fprobe_table *t, struct fprobe_table *keep)
{
	unsigned int i;

	for (i = 0; t && i <= t->mask; i++)
		if (t->slot[i] && fprobe_site_find(keep, t->slot[i]->ip) != t->slot[i])
			kfree(t->slot[i]);
	kvfree(t);
}

/**
 * fprobe_table_lost - the sites of one table that another lacks
 * @old: a table, or NULL
 * @new: a table, or NULL
 * @ips: receives their addresses; room for @old's count of sites
 *
 * Return: how many.
 */
unsigned int fprobe_table_lost(struct fprobe_table *old,
			       struct fprobe_table *new, unsigned long *ips)
{
	unsigned int i, n = 0;

	for (i = 0; old && i <= old->mask; i++)
		if (old->slot[i] && !fprobe_site_find(new, old->slot[i]->ip))
			ips[n++] = old->slot[i]->ip;
	return n;
}
