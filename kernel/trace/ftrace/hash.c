// SPDX-License-Identifier: GPL-2.0
/*
 * Sets of function addresses (struct ftrace_hash) and the name patterns
 * that select functions, for the ftrace core.  See hash.h for
 * the locking rules.
 */
#include <kunit/static_stub.h>
#include <linux/bug.h>
#include <linux/glob.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "hash.h"

/* size_bits == 0: the empty set still has its one (empty) bucket to scan. */
static const struct hlist_head fhash_empty_bucket[1];

const struct ftrace_hash fhash_empty = {
	.buckets = (struct hlist_head *)fhash_empty_bucket,
};

/**
 * ftrace_lookup_ip - find the entry of an address in a set
 * @hash: the set; NULL or a set with no entries finds nothing
 * @ip: the function address (its __fentry__ site) to look for
 *
 * Callers outside the core (the function graph tracer's filters) hold
 * either the set's owner lock or rcu_read_lock_sched().
 *
 * Return: the entry holding @ip, or NULL if @ip is not in @hash.
 */
struct ftrace_func_entry *ftrace_lookup_ip(struct ftrace_hash *hash, unsigned long ip)
{
	return ftrace_hash_empty(hash) ? NULL : fhash_find(hash, ip);
}

/**
 * fhash_bits_for - bucket bits for a set of a given size
 * @count: how many entries the set will hold
 *
 * Return: the log2 of a bucket count that keeps chains at two entries
 * or fewer on average, capped at FHASH_MAX_BITS.
 */
unsigned int fhash_bits_for(unsigned long count)
{
	/* 2^bits > count / 2, the smallest such power (0 for 0 or 1). */
	return min_t(unsigned int, fls_long(count / 2), FHASH_MAX_BITS);
}

/**
 * fhash_alloc - allocate a set with no entries
 * @bits: log2 of its bucket count, at most FHASH_MAX_BITS
 *
 * Return: the new set, or NULL when out of memory.  Free it with
 * fhash_free() or fhash_free_rcu().
 */
struct ftrace_hash *fhash_alloc(unsigned int bits)
{
	/* KUnit cases make it fail to reach the core's -ENOMEM paths. */
	KUNIT_STATIC_STUB_REDIRECT(fhash_alloc, bits);

	return __fhash_alloc(bits);
}

/* fhash_alloc() itself, which a KUnit stub calls to grant a set. */
struct ftrace_hash *__fhash_alloc(unsigned int bits)
{
	struct ftrace_hash *hash;

	if (WARN_ON_ONCE(bits > FHASH_MAX_BITS))
		bits = FHASH_MAX_BITS;

	hash = kzalloc(sizeof(*hash), GFP_KERNEL);
	if (!hash)
		return NULL;
	hash->buckets = kcalloc(1UL << bits, sizeof(*hash->buckets),
				GFP_KERNEL);
	if (!hash->buckets) {
		kfree(hash);
		return NULL;
	}
	hash->size_bits = bits;
	return hash;
}

/* Add @ip, known not to be in @hash yet (no lookup). */
static struct ftrace_func_entry *fhash_add_new(struct ftrace_hash *hash,
					       unsigned long ip)
{
	struct ftrace_func_entry *entry = kzalloc(sizeof(*entry), GFP_KERNEL);

	if (entry) {
		entry->ip = ip;
		fhash_link(hash, entry);
	}
	return entry;
}

/**
 * fhash_dup - copy a set into a new allocation
 * @src: the set to copy; NULL or FHASH_EMPTY give a copy with no entries
 * @bits: log2 of the copy's bucket count, or FHASH_FIT to size the copy
 *        for @src's number of entries
 *
 * The flags are copied as well: a set that only waits for a module to
 * be loaded (FTRACE_HASH_FL_MOD) keeps waiting in the copy.
 *
 * Return: the copy (never FHASH_EMPTY), or NULL when out of memory.
 */
struct ftrace_hash *fhash_dup(const struct ftrace_hash *src, int bits)
{
	struct ftrace_func_entry *entry;
	struct ftrace_hash *copy;

	if (bits == FHASH_FIT)
		bits = fhash_bits_for(src ? src->count : 0);
	copy = fhash_alloc(bits);
	if (!copy)
		return NULL;
	if (!src)
		return copy;

	copy->flags = src->flags;
	fhash_for_each(src, entry) {
		if (!fhash_add_new(copy, entry->ip)) {
			fhash_free(copy);
			return NULL;
		}
	}
	WARN_ON_ONCE(copy->count != src->count);
	return copy;
}

/**
 * fhash_take - move the entries of a set into a new set of fitting size
 * @src: the set to empty; its readers must be gone (a private draft)
 *
 * Moving the entries, rather than copying them, needs one allocation
 * and so cannot fail half way.  The flags go along.
 *
 * Return: the new set, FHASH_EMPTY when @src has no entries, or NULL
 * when out of memory (@src then keeps its entries) or when @src is
 * NULL (the allocation that should have made it failed).
 */
struct ftrace_hash *fhash_take(struct ftrace_hash *src)
{
	struct ftrace_func_entry *entry, *next;
	struct ftrace_hash *set;

	if (!src)
		return NULL;
	if (ftrace_hash_empty(src))
		return FHASH_EMPTY;
	set = fhash_alloc(fhash_bits_for(src->count));
	if (!set)
		return NULL;
	set->flags = src->flags;
	fhash_for_each_safe(src, entry, next) {
		fhash_unlink(src, entry);
		fhash_link(set, entry);
	}
	return set;
}

/**
 * fhash_free - free a set and its entries now
 * @hash: the set; NULL and FHASH_EMPTY are ignored
 *
 * Only for sets no reader can still see; see fhash_free_rcu().
 */
void fhash_free(struct ftrace_hash *hash)
{
	if (!hash || hash == FHASH_EMPTY)
		return;
	fhash_clear(hash);
	kfree(hash->buckets);
	kfree(hash);
}

static void fhash_free_rcu_cb(struct rcu_head *rcu)
{
	fhash_free(container_of(rcu, struct ftrace_hash, rcu));
}

/**
 * fhash_free_rcu - free a set once current RCU readers are done with it
 * @hash: the set, already unpublished; NULL and FHASH_EMPTY are ignored
 */
void fhash_free_rcu(struct ftrace_hash *hash)
{
	if (!hash || hash == FHASH_EMPTY)
		return;
	call_rcu(&hash->rcu, fhash_free_rcu_cb);
}

/**
 * fhash_link - add an entry to a set
 * @hash: the set (not FHASH_EMPTY)
 * @entry: an entry in no set, whose ip @hash does not hold yet
 *
 * Readers of @hash may run concurrently.  The entry may be larger than
 * struct ftrace_func_entry (the func mapper's maps are): the set only
 * ever frees it with kfree().
 */
void fhash_link(struct ftrace_hash *hash, struct ftrace_func_entry *entry)
{
	hlist_add_head_rcu(&entry->hlist,
			   &hash->buckets[fhash_bucket(hash, entry->ip)]);
	hash->count++;
}

/**
 * fhash_unlink - take an entry out of a set without freeing it
 * @hash: the set holding @entry
 * @entry: the entry
 *
 * A reader already standing on @entry can still step past it, so the
 * entry can be linked into another set, or freed after a grace period.
 */
void fhash_unlink(struct ftrace_hash *hash, struct ftrace_func_entry *entry)
{
	hlist_del_rcu(&entry->hlist);
	hash->count--;
}

/**
 * fhash_erase - take an entry out of a set and free it
 * @hash: the set holding @entry
 * @entry: the entry
 *
 * The entry is freed at once: only for sets no RCU reader walks, or
 * whose readers cannot be on @entry.
 */
void fhash_erase(struct ftrace_hash *hash, struct ftrace_func_entry *entry)
{
	fhash_unlink(hash, entry);
	kfree(entry);
}

/**
 * fhash_insert - make sure a set holds an address
 * @hash: the set (not FHASH_EMPTY)
 * @ip: the address
 *
 * Return: the entry of @ip, the one already there if any, or NULL when
 * out of memory.  A new entry has no direct-call address.
 */
struct ftrace_func_entry *fhash_insert(struct ftrace_hash *hash,
				       unsigned long ip)
{
	/* KUnit cases make it fail to reach the -ENOMEM paths of filters. */
	KUNIT_STATIC_STUB_REDIRECT(fhash_insert, hash, ip);

	return __fhash_insert(hash, ip);
}

/* fhash_insert() itself, which a KUnit stub calls to grant an entry. */
struct ftrace_func_entry *__fhash_insert(struct ftrace_hash *hash,
					 unsigned long ip)
{
	struct ftrace_func_entry *entry = fhash_find(hash, ip);

	return entry ? entry : fhash_add_new(hash, ip);
}

/**
 * fhash_clear - erase every entry of a set
 * @hash: the set; it stays allocated, with no entries
 */
void fhash_clear(struct ftrace_hash *hash)
{
	struct ftrace_func_entry *entry, *tmp;

	fhash_for_each_safe(hash, entry, tmp)
		fhash_erase(hash, entry);
	WARN_ON_ONCE(hash->count);
}

/*
 * The first entry in bucket @w->bucket or a later one, or NULL; the
 * walk is left in the bucket of the entry found.
 */
static struct ftrace_func_entry *fhash_scan(struct fhash_walk *w)
{
	unsigned long nr = 1UL << w->set->size_bits;

	for (; w->bucket < nr; w->bucket++) {
		struct hlist_node *first = w->set->buckets[w->bucket].first;

		if (first)
			return hlist_entry(first, struct ftrace_func_entry, hlist);
	}
	return NULL;
}

/**
 * fhash_walk_first - start a walk of a set
 * @w: the walk, with @w->set the set (NULL is taken as empty)
 *
 * Return: the first entry in bucket order, or NULL if there is none.
 */
struct ftrace_func_entry *fhash_walk_first(struct fhash_walk *w)
{
	w->bucket = 0;
	/* Most sets walked are empty or small: skip the bucket scan. */
	if (!w->set || !w->set->count)
		return NULL;
	return fhash_scan(w);
}

/**
 * fhash_walk_next - continue a walk of a set
 * @w: the walk, standing on @entry
 * @entry: the entry fhash_walk_first() or fhash_walk_next() returned
 *         last, still linked in @w->set
 *
 * Only the walk says which bucket @entry is in: @entry->ip may have
 * been rewritten since it was linked (see struct fhash_walk).
 *
 * Return: the entry after @entry in bucket order, or NULL at the end.
 */
struct ftrace_func_entry *fhash_walk_next(struct fhash_walk *w,
					  const struct ftrace_func_entry *entry)
{
	if (entry->hlist.next)
		return hlist_entry(entry->hlist.next, struct ftrace_func_entry,
				   hlist);
	w->bucket++;
	return fhash_scan(w);
}

/**
 * fhash_first - the first entry of a set
 * @hash: the set; NULL is taken as empty
 *
 * Return: the entry a walk of @hash would visit first, or NULL if
 * @hash has none.
 */
struct ftrace_func_entry *fhash_first(const struct ftrace_hash *hash)
{
	struct fhash_walk w = { .set = hash };

	return fhash_walk_first(&w);
}

/**
 * ftrace_pattern_parse - parse one word of a filter file
 * @pat: filled in
 * @buf: the word, writable; @pat->text points into it afterwards
 * @len: its length, without a terminating NUL
 *
 * A leading '!' sets @pat->negate; the '*' at either end picks one of
 * the cheap match types, any other wildcard a glob.  A word of digits
 * is an index into available_filter_functions (MATCH_INDEX), which
 * matches no name: the caller looks the record up by number.
 */
void ftrace_pattern_parse(struct ftrace_pattern *pat, char *buf, int len)
{
	int negate;

	pat->type = filter_parse_regex(buf, len, &pat->text, &negate);
	pat->len = strlen(pat->text);
	pat->negate = negate;
}

/*
 * Architectures whose symbols carry decorations users do not type
 * (a dot before the name on ppc64 ELFv1) strip them here.
 */
__weak char *arch_ftrace_match_adjust(char *str, const char *search)
{
	return str;
}

/* @sym ends with @pat->text (and may equal it). */
static bool ftrace_pattern_tail(const struct ftrace_pattern *pat,
				const char *sym)
{
	size_t n = strlen(sym);

	return n >= pat->len && !memcmp(sym + n - pat->len, pat->text, pat->len);
}

/**
 * ftrace_pattern_match - does a symbol name match a pattern
 * @pat: the pattern, from ftrace_pattern_parse()
 * @sym: the symbol name (writable for arch_ftrace_match_adjust())
 *
 * @pat->negate is not looked at: it tells the caller whether a match
 * adds to a set or removes from it.
 *
 * Return: true if @sym matches.
 */
bool ftrace_pattern_match(const struct ftrace_pattern *pat, char *sym)
{
	sym = arch_ftrace_match_adjust(sym, pat->text);

	switch (pat->type) {
	case MATCH_FULL:
		return !strcmp(sym, pat->text);
	case MATCH_FRONT_ONLY:
		return !strncmp(sym, pat->text, pat->len);
	case MATCH_MIDDLE_ONLY:
		return strstr(sym, pat->text);
	case MATCH_END_ONLY:
		return ftrace_pattern_tail(pat, sym);
	case MATCH_GLOB:
		return glob_match(pat->text, sym);
	default:
		return false;
	}
}
