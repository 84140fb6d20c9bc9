/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sets of function addresses and the name patterns that fill them.
 *
 * A struct ftrace_hash is a set of ips: an ops' filter and notrace
 * sets, the direct-call table, the function probes' sets.  Writers
 * serialise among themselves (the owner's mutex); the list function
 * reads some sets under RCU-sched while they change, so links and
 * unlinks here are RCU-safe and a set the readers may still hold is
 * freed with fhash_free_rcu().
 *
 * A struct ftrace_pattern is one parsed word of set_ftrace_filter and
 * friends ("sched_*", "!*lock*", "vfs_[rw]*"), matched against symbol
 * names.
 */
#ifndef _KERNEL_TRACE_FTRACE_HASH_H
#define _KERNEL_TRACE_FTRACE_HASH_H

#include <linux/compiler.h>
#include <linux/ftrace.h>
#include <linux/hash.h>
#include <linux/rculist.h>

#include "../trace.h"

/* Past 4096 buckets a bigger table costs more memory than it saves time. */
#define FHASH_MAX_BITS		12

/* The size of a set that is being edited, whose final size is unknown. */
#define FTRACE_HASH_DEFAULT_BITS	10

/* fhash_dup(): size the copy for the source's number of entries. */
#define FHASH_FIT		(-1)

/*
 * The one set with no entries that needs no allocation.  It lives in
 * read-only memory, so it must never be linked into or erased from;
 * fhash_free() and fhash_free_rcu() leave it alone.
 */
extern const struct ftrace_hash fhash_empty;
#define FHASH_EMPTY		((struct ftrace_hash *)&fhash_empty)

#if BITS_PER_LONG == 64
#define FHASH_MULT		GOLDEN_RATIO_64
#else
#define FHASH_MULT		GOLDEN_RATIO_32
#endif

/*
 * Bucket of @ip: the top size_bits bits of a multiplicative hash.  The
 * shift is split in two so that size_bits == 0 gives bucket 0 without
 * a branch (one shift by BITS_PER_LONG would be undefined).
 */
static __always_inline unsigned long
fhash_bucket(const struct ftrace_hash *hash, unsigned long ip)
{
	return (ip * FHASH_MULT) >> 1 >> (BITS_PER_LONG - 1 - hash->size_bits);
}

/*
 * fhash_find - the entry of @ip in @hash, or NULL.  The caller has
 * checked that @hash is not NULL (ftrace_hash_empty() does); this is
 * the list function's fast path, so it is always inlined and never
 * traced.  Readers under RCU-sched may race with fhash_link() and
 * fhash_unlink().
 */
static __always_inline struct ftrace_func_entry *
fhash_find(struct ftrace_hash *hash, unsigned long ip)
{
	struct hlist_head *head = &hash->buckets[fhash_bucket(hash, ip)];
	struct ftrace_func_entry *entry;

	hlist_for_each_entry_rcu_notrace(entry, head, hlist) {
		if (entry->ip == ip)
			return entry;
	}
	return NULL;
}

struct ftrace_hash *fhash_alloc(unsigned int bits);
struct ftrace_hash *__fhash_alloc(unsigned int bits);
struct ftrace_hash *fhash_dup(const struct ftrace_hash *src, int bits);
struct ftrace_hash *fhash_take(struct ftrace_hash *src);
void fhash_free(struct ftrace_hash *hash);

/*
 * A copy of @src at its own size, or FHASH_EMPTY (no allocation) when
 * ftrace_hash_empty() says @src holds nothing worth copying.
 */
static inline struct ftrace_hash *fhash_dup_or_empty(struct ftrace_hash *src)
{
	if (ftrace_hash_empty(src))
		return FHASH_EMPTY;
	return fhash_dup(src, src->size_bits);
}

void fhash_free_rcu(struct ftrace_hash *hash);
unsigned int fhash_bits_for(unsigned long count);

struct ftrace_func_entry *fhash_insert(struct ftrace_hash *hash,
				       unsigned long ip);
struct ftrace_func_entry *__fhash_insert(struct ftrace_hash *hash,
					 unsigned long ip);
void fhash_link(struct ftrace_hash *hash, struct ftrace_func_entry *entry);
void fhash_unlink(struct ftrace_hash *hash, struct ftrace_func_entry *entry);
void fhash_erase(struct ftrace_hash *hash, struct ftrace_func_entry *entry);
void fhash_clear(struct ftrace_hash *hash);

/*
 * Where a walk of a set stands; only the walk functions look inside.
 * The walk remembers the bucket it is in rather than recomputing it
 * from the entry it stands on: the core retires the entry of freed
 * text (module init code, an unloaded module) by setting its ip to 0
 * in place, so an entry's ip need not lead back to its bucket.
 */
struct fhash_walk {
	const struct ftrace_hash	*set;
	unsigned long			bucket;
	bool				started;
};

struct ftrace_func_entry *fhash_walk_first(struct fhash_walk *w);
struct ftrace_func_entry *fhash_walk_next(struct fhash_walk *w,
					  const struct ftrace_func_entry *entry);
struct ftrace_func_entry *fhash_first(const struct ftrace_hash *hash);

/*
 * Advance a walk: *@pos becomes the first entry, then the one after
 * *@pos.  With @next (a safe walk) the entry after *@pos is found
 * before the body runs, so the body may unlink or erase *@pos; the
 * walk then stands on *@next, which is where it goes on from.
 */
static inline bool fhash_walk_step(struct fhash_walk *w,
				   struct ftrace_func_entry **pos,
				   struct ftrace_func_entry **next)
{
	if (!w->started)
		*pos = fhash_walk_first(w);
	else if (next)
		*pos = *next;
	else
		*pos = fhash_walk_next(w, *pos);
	w->started = true;
	if (next)
		*next = *pos ? fhash_walk_next(w, *pos) : NULL;
	return *pos;
}

/*
 * Walk every entry of @hash (NULL and empty sets included) in bucket
 * order.  A single loop, so break and continue behave as usual.  Not
 * for RCU readers: the owner's lock must be held.
 */
#define fhash_for_each(hash, entry)					\
	for (struct fhash_walk __fhw = { .set = (hash) };		\
	     fhash_walk_step(&__fhw, &(entry), NULL);)

/* The same, but the body may unlink or erase @entry (not @tmp). */
#define fhash_for_each_safe(hash, entry, tmp)				\
	for (struct fhash_walk __fhw = { .set = (hash) };		\
	     fhash_walk_step(&__fhw, &(entry), &(tmp));)

/*
 * One parsed pattern.  @text points into the buffer given to
 * ftrace_pattern_parse(), which keeps it alive and may have been
 * modified by the parse (a trailing '*' is cut off).
 */
struct ftrace_pattern {
	char		*text;		/* without the '!' and '*' that set @type */
	unsigned int	len;		/* strlen(@text) */
	enum regex_type	type;		/* MATCH_* of filter_parse_regex() */
	bool		negate;		/* the word started with '!' */
};

void ftrace_pattern_parse(struct ftrace_pattern *pat, char *buf, int len);
bool ftrace_pattern_match(const struct ftrace_pattern *pat, char *sym);

#endif /* _KERNEL_TRACE_FTRACE_HASH_H */
