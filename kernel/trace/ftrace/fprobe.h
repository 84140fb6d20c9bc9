/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What fprobe's parts share: the hooks of probes without exit handlers,
 * and the table of the sites of probes with them (fprobe_sites.c), which
 * the registry (fprobe.c) makes and the call paths (fprobe_calls.c) read.
 *
 * A probe without exit handler needs no frame on the shadow stack: its
 * own ftrace_ops (its hook) calls its entry handler, with no lookup, and
 * several such probes on one function are several ops there.
 *
 * A site is one function's patch site with the probes on it, oldest
 * first.  Sites and tables are never changed once published: a change
 * builds a new table (sharing the sites it does not touch), publishes
 * it, waits for every CPU to leave the call paths, and frees what only
 * the old one held.  The paths run with preemption off, also where RCU
 * does not watch, so the wait is synchronize_rcu_tasks_rude().
 */
#ifndef _KERNEL_TRACE_FTRACE_FPROBE_H
#define _KERNEL_TRACE_FTRACE_FPROBE_H

#include <linux/fprobe.h>
#include <linux/ftrace.h>
#include <linux/hash.h>
#include <linux/list.h>
#include <linux/types.h>

/*
 * A probe's hook: @ops (whose private is the probe) hooks its functions
 * while @hooked, which stops when they have all gone with their module.
 * On fprobe_hooks, under fprobe_mutex.
 */
struct fprobe_hook {
	struct ftrace_ops	ops;
	struct list_head	node;
	bool			hooked;
};

/* The block's size: what fgraph_reserve_data() grants at most. */
#define FPROBE_BLOCK_WORDS	32

/*
 * A block header: the probe's id over its storage's size in words.
 * A zero word ends a block that its probes did not fill.
 */
#define FPROBE_HDR_WORDS_BITS	5
#define FPROBE_HDR_WORDS	(BIT(FPROBE_HDR_WORDS_BITS) - 1)

static inline unsigned long fprobe_hdr(u64 id, unsigned int words)
{
	return (unsigned long)id << FPROBE_HDR_WORDS_BITS | words;
}

static inline u64 fprobe_hdr_id(unsigned long hdr)
{
	return hdr >> FPROBE_HDR_WORDS_BITS;
}

static inline unsigned int fprobe_hdr_words(unsigned long hdr)
{
	return hdr & FPROBE_HDR_WORDS;
}

/*
 * One probe on a site: @hdr is the header it leaves in a call's block,
 * made once here so that the paths only copy and compare it.
 */
struct fprobe_at {
	struct fprobe	*fp;
	unsigned long	hdr;
};

/* The probe's fp->id, and its storage in words. */
static inline u64 fprobe_at_id(const struct fprobe_at *at)
{
	return fprobe_hdr_id(at->hdr);
}

static inline unsigned int fprobe_at_words(const struct fprobe_at *at)
{
	return fprobe_hdr_words(at->hdr);
}

/*
 * A probed site.  Its probes keep a header word and their storage in one
 * block per call, at most FPROBE_BLOCK_WORDS: the first @nr_fit of them
 * have room there and take @block words together; the others miss
 * every call.  Any number of probes may share a site; only the ones
 * that fit, each a word at least, are few.
 */
struct fprobe_site {
	unsigned long		ip;
	unsigned int		nr;
	unsigned short		nr_fit;
	unsigned short		block;
	struct fprobe_at	at[] __counted_by(nr);
};

static_assert(FPROBE_BLOCK_WORDS <= U16_MAX);

/* Sites by address: open addressing, never more than half full. */
struct fprobe_table {
	unsigned int		shift;	/* 64 - log2(slots) */
	unsigned int		mask;	/* slots - 1 */
	unsigned int		count;	/* sites */
	struct fprobe_site	*slot[];
};

/* The sites of the probes with exit handlers; NULL while there are none. */
extern struct fprobe_table __rcu *fprobe_sites;

static __always_inline unsigned int
fprobe_hash(struct fprobe_table *t, unsigned long ip)
{
	return (ip * GOLDEN_RATIO_64) >> t->shift;
}

/* The site of @ip in @t, or NULL.  Preemption off. */
static __always_inline struct fprobe_site *
fprobe_site_find(struct fprobe_table *t, unsigned long ip)
{
	struct fprobe_site *s;
	unsigned int i;

	if (!t)
		return NULL;
	for (i = fprobe_hash(t, ip); (s = t->slot[i]); i = (i + 1) & t->mask)
		if (s->ip == ip)
			return s;
	return NULL;
}

/* The current table, for the paths (preemption off). */
static __always_inline struct fprobe_table *fprobe_table(void)
{
	return rcu_dereference_raw(fprobe_sites);
}

/* fprobe_sites.c: new tables from old ones, all under fprobe_mutex. */
struct fprobe_table *fprobe_table_alloc(unsigned int count);
struct fprobe_table *fprobe_table_add(struct fprobe_table *old,
				      struct fprobe *fp,
				      const unsigned long *ips,
				      unsigned int nr);

/* What a change takes out: the probe of @id, and the sites @gone names. */
struct fprobe_cut {
	u64	id;
	bool	(*gone)(unsigned long ip, void *arg);
	void	*arg;
};

bool fprobe_table_cuts(struct fprobe_table *t, const struct fprobe_cut *cut);
struct fprobe_table *fprobe_table_cut(struct fprobe_table *old,
				      const struct fprobe_cut *cut);
void fprobe_table_clear(struct fprobe_table *t, const struct fprobe_cut *cut);
void fprobe_table_free(struct fprobe_table *t, struct fprobe_table *keep);
unsigned int fprobe_table_lost(struct fprobe_table *old,
			       struct fprobe_table *new, unsigned long *ips);

/*
 * fprobe.c: what the module notifier does, its allocator, and the step
 * of a registration that can fail after the table is published.
 */
void fprobe_cut_functions(const struct fprobe_cut *cut);
unsigned long *fprobe_ips_alloc(unsigned int nr);
int fprobe_sites_hook(unsigned long *ips, unsigned int nr, bool first);

/* fprobe_calls.c: a hook's function, and the graph user of the table. */
void fprobe_hook_func(unsigned long ip, unsigned long parent_ip,
		      struct ftrace_ops *op, struct ftrace_regs *fregs);
extern struct fgraph_ops fprobe_graph_ops;
void fprobe_graph_missed(struct fgraph_ops *gops, unsigned long func);

#endif /* _KERNEL_TRACE_FTRACE_FPROBE_H */
