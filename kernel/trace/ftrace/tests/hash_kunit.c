// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the ftrace core's sets of function addresses and its
 * name patterns (hash.c).  One behaviour per case.  The sets are
 * filled with made-up addresses, 16 bytes apart like real __fentry__
 * sites, so nothing here touches the patched code.
 */
#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/kallsyms.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../hash.h"

/* Made-up function addresses: a text-like base, 16-byte steps. */
#ifdef CONFIG_64BIT
#define FHT_BASE	0xffffffff81000000UL
#else
#define FHT_BASE	0xc1000000UL
#endif
#define FHT_IP(n)	(FHT_BASE + 16UL * (n))

/* Thousands of entries: long chains at the default size. */
#define FHT_MANY	5000

KUNIT_DEFINE_ACTION_WRAPPER(fht_free_action, fhash_free, struct ftrace_hash *);

/* A set freed when the case ends, pass or fail. */
static struct ftrace_hash *fht_alloc(struct kunit *test, unsigned int bits)
{
	struct ftrace_hash *hash = fhash_alloc(bits);

	KUNIT_ASSERT_NOT_NULL(test, hash);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fht_free_action, hash));
	return hash;
}

static struct ftrace_hash *fht_dup(struct kunit *test,
				   struct ftrace_hash *src, int bits)
{
	struct ftrace_hash *hash = fhash_dup(src, bits);

	KUNIT_ASSERT_NOT_NULL(test, hash);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fht_free_action, hash));
	return hash;
}

/* Insert FHT_IP(0) .. FHT_IP(n - 1). */
static void fht_fill(struct kunit *test, struct ftrace_hash *hash, int n)
{
	int i;

	for (i = 0; i < n; i++)
		KUNIT_ASSERT_NOT_NULL(test, fhash_insert(hash, FHT_IP(i)));
}

/* Every FHT_IP(0 .. n - 1) is found, with its own ip. */
static void fht_expect_all(struct kunit *test, struct ftrace_hash *hash,
			   int n)
{
	struct ftrace_func_entry *entry;
	int i;

	for (i = 0; i < n; i++) {
		entry = ftrace_lookup_ip(hash, FHT_IP(i));
		KUNIT_ASSERT_NOT_NULL_MSG(test, entry, "ip #%d", i);
		KUNIT_EXPECT_EQ(test, entry->ip, FHT_IP(i));
	}
}

static void fht_lookup_null_and_empty(struct kunit *test)
{
	struct ftrace_hash *hash = fht_alloc(test, 4);

	KUNIT_EXPECT_NULL(test, ftrace_lookup_ip(NULL, FHT_IP(1)));
	KUNIT_EXPECT_NULL(test, ftrace_lookup_ip(FHASH_EMPTY, FHT_IP(1)));
	KUNIT_EXPECT_NULL(test, ftrace_lookup_ip(hash, FHT_IP(1)));
	KUNIT_EXPECT_NULL(test, fhash_find(FHASH_EMPTY, FHT_IP(1)));
	KUNIT_EXPECT_TRUE(test, ftrace_hash_empty(FHASH_EMPTY));
	KUNIT_EXPECT_TRUE(test, ftrace_hash_empty(hash));
	KUNIT_EXPECT_EQ(test, FHASH_EMPTY->count, 0);
}

static void fht_insert_lookup_erase(struct kunit *test)
{
	struct ftrace_hash *hash = fht_alloc(test, 4);
	struct ftrace_func_entry *entry;

	entry = fhash_insert(hash, FHT_IP(7));
	KUNIT_ASSERT_NOT_NULL(test, entry);
	KUNIT_EXPECT_EQ(test, entry->ip, FHT_IP(7));
	KUNIT_EXPECT_EQ(test, entry->direct, 0);
	KUNIT_EXPECT_PTR_EQ(test, ftrace_lookup_ip(hash, FHT_IP(7)), entry);
	KUNIT_EXPECT_PTR_EQ(test, fhash_find(hash, FHT_IP(7)), entry);
	/* Neighbours one byte and one site away are different functions. */
	KUNIT_EXPECT_NULL(test, ftrace_lookup_ip(hash, FHT_IP(7) + 1));
	KUNIT_EXPECT_NULL(test, ftrace_lookup_ip(hash, FHT_IP(8)));

	fhash_erase(hash, entry);
	KUNIT_EXPECT_NULL(test, ftrace_lookup_ip(hash, FHT_IP(7)));
	KUNIT_EXPECT_TRUE(test, ftrace_hash_empty(hash));
}

static void fht_insert_is_idempotent(struct kunit *test)
{
	struct ftrace_hash *hash = fht_alloc(test, 4);
	struct ftrace_func_entry *first, *again;

	first = fhash_insert(hash, FHT_IP(3));
	KUNIT_ASSERT_NOT_NULL(test, first);
	first->direct = 0x1234;
	again = fhash_insert(hash, FHT_IP(3));
	KUNIT_EXPECT_PTR_EQ(test, again, first);
	/* The existing entry is returned as it is, not reset. */
	KUNIT_EXPECT_EQ(test, again->direct, 0x1234);
	KUNIT_EXPECT_EQ(test, hash->count, 1);
}

static void fht_count_follows_changes(struct kunit *test)
{
	struct ftrace_hash *hash = fht_alloc(test, 2);
	struct ftrace_func_entry *entry;

	fht_fill(test, hash, 10);
	KUNIT_EXPECT_EQ(test, hash->count, 10);
	fht_fill(test, hash, 10);
	KUNIT_EXPECT_EQ(test, hash->count, 10);

	entry = ftrace_lookup_ip(hash, FHT_IP(4));
	KUNIT_ASSERT_NOT_NULL(test, entry);
	fhash_erase(hash, entry);
	KUNIT_EXPECT_EQ(test, hash->count, 9);

	entry = ftrace_lookup_ip(hash, FHT_IP(5));
	KUNIT_ASSERT_NOT_NULL(test, entry);
	fhash_unlink(hash, entry);
	KUNIT_EXPECT_EQ(test, hash->count, 8);
	fhash_link(hash, entry);
	KUNIT_EXPECT_EQ(test, hash->count, 9);
}

static void fht_dup_keeps_all_entries(struct kunit *test)
{
	static const int sizes[] = { 0, 3, 10, FHASH_MAX_BITS, FHASH_FIT };
	struct ftrace_hash *src = fht_alloc(test, 6);
	struct ftrace_hash *copy;
	int i;

	fht_fill(test, src, 300);
	src->flags = FTRACE_HASH_FL_MOD;
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		copy = fht_dup(test, src, sizes[i]);
		KUNIT_EXPECT_PTR_NE(test, copy, src);
		KUNIT_EXPECT_EQ(test, copy->count, 300);
		KUNIT_EXPECT_EQ(test, copy->flags, FTRACE_HASH_FL_MOD);
		fht_expect_all(test, copy, 300);
		KUNIT_EXPECT_NULL(test, ftrace_lookup_ip(copy, FHT_IP(300)));
	}
	/* Sized for its count: 300 entries want 2^8 buckets. */
	copy = fht_dup(test, src, FHASH_FIT);
	KUNIT_EXPECT_EQ(test, copy->size_bits, fhash_bits_for(300));
	/* The copies own their entries: the source is untouched. */
	KUNIT_EXPECT_PTR_NE(test, ftrace_lookup_ip(copy, FHT_IP(0)),
			    ftrace_lookup_ip(src, FHT_IP(0)));
}

static void fht_take_moves_entries(struct kunit *test)
{
	struct ftrace_hash *src = fht_alloc(test, 4);
	struct ftrace_func_entry *entry;
	struct ftrace_hash *set;

	/* Nothing to take: the shared empty set, no allocation. */
	KUNIT_EXPECT_PTR_EQ(test, fhash_take(src), FHASH_EMPTY);
	/* No set at all is an allocation that failed: so is the take. */
	KUNIT_EXPECT_NULL(test, fhash_take(NULL));

	fht_fill(test, src, 300);
	src->flags = FTRACE_HASH_FL_MOD;
	entry = ftrace_lookup_ip(src, FHT_IP(7));
	set = fhash_take(src);
	KUNIT_ASSERT_NOT_NULL(test, set);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fht_free_action, set));

	/* The same entries, in a set sized for them; the source is empty. */
	KUNIT_EXPECT_EQ(test, set->count, 300);
	KUNIT_EXPECT_EQ(test, set->size_bits, fhash_bits_for(300));
	KUNIT_EXPECT_EQ(test, set->flags, FTRACE_HASH_FL_MOD);
	fht_expect_all(test, set, 300);
	KUNIT_EXPECT_PTR_EQ(test, ftrace_lookup_ip(set, FHT_IP(7)), entry);
	KUNIT_EXPECT_EQ(test, src->count, 0);
	KUNIT_EXPECT_NULL(test, ftrace_lookup_ip(src, FHT_IP(7)));
	KUNIT_EXPECT_NULL(test, fhash_first(src));
}

static void fht_dup_of_nothing_is_empty(struct kunit *test)
{
	struct ftrace_hash *copy;

	copy = fht_dup(test, NULL, 5);
	KUNIT_EXPECT_PTR_NE(test, copy, FHASH_EMPTY);
	KUNIT_EXPECT_EQ(test, copy->size_bits, 5);
	KUNIT_EXPECT_TRUE(test, ftrace_hash_empty(copy));

	copy = fht_dup(test, FHASH_EMPTY, FHASH_FIT);
	KUNIT_EXPECT_PTR_NE(test, copy, FHASH_EMPTY);
	KUNIT_EXPECT_TRUE(test, ftrace_hash_empty(copy));
	/* Even an empty copy can be filled. */
	KUNIT_EXPECT_NOT_NULL(test, fhash_insert(copy, FHT_IP(1)));

	KUNIT_EXPECT_PTR_EQ(test, fhash_dup_or_empty(NULL), FHASH_EMPTY);
	KUNIT_EXPECT_PTR_EQ(test, fhash_dup_or_empty(FHASH_EMPTY), FHASH_EMPTY);
}

static void fht_many_entries_found(struct kunit *test)
{
	static const unsigned int sizes[] = { 4, 10, FHASH_MAX_BITS };
	struct ftrace_hash *hash;
	int i, n;

	for (n = 0; n < ARRAY_SIZE(sizes); n++) {
		hash = fht_alloc(test, sizes[n]);
		fht_fill(test, hash, FHT_MANY);
		KUNIT_EXPECT_EQ(test, hash->count, FHT_MANY);
		fht_expect_all(test, hash, FHT_MANY);
		/* Between the sites, before and after them: nothing. */
		for (i = 0; i < FHT_MANY; i++)
			KUNIT_EXPECT_NULL(test,
					  ftrace_lookup_ip(hash, FHT_IP(i) + 8));
		KUNIT_EXPECT_NULL(test, ftrace_lookup_ip(hash, FHT_BASE - 16));
		KUNIT_EXPECT_NULL(test, ftrace_lookup_ip(hash,
							 FHT_IP(FHT_MANY)));
	}
}

static void fht_unlink_link_moves(struct kunit *test)
{
	struct ftrace_hash *from = fht_alloc(test, 3);
	struct ftrace_hash *to = fht_alloc(test, 7);
	struct ftrace_func_entry *entry, *tmp;

	fht_fill(test, from, 50);
	fhash_for_each_safe(from, entry, tmp) {
		fhash_unlink(from, entry);
		fhash_link(to, entry);
	}
	KUNIT_EXPECT_EQ(test, from->count, 0);
	KUNIT_EXPECT_NULL(test, fhash_first(from));
	KUNIT_EXPECT_NULL(test, ftrace_lookup_ip(from, FHT_IP(0)));
	KUNIT_EXPECT_EQ(test, to->count, 50);
	fht_expect_all(test, to, 50);
}

static void fht_clear_removes_all(struct kunit *test)
{
	struct ftrace_hash *hash = fht_alloc(test, 5);
	int i;

	fht_fill(test, hash, 200);
	fhash_clear(hash);
	KUNIT_EXPECT_EQ(test, hash->count, 0);
	KUNIT_EXPECT_EQ(test, hash->size_bits, 5);
	KUNIT_EXPECT_NULL(test, fhash_first(hash));
	for (i = 0; i < 200; i++)
		KUNIT_EXPECT_NULL(test, ftrace_lookup_ip(hash, FHT_IP(i)));
	/* Still usable afterwards. */
	fht_fill(test, hash, 3);
	KUNIT_EXPECT_EQ(test, hash->count, 3);
}

/* Walk @hash, counting each FHT_IP(i) in @seen[i]. */
static void fht_walk(struct kunit *test, struct ftrace_hash *hash,
		     u8 *seen, int n)
{
	struct ftrace_func_entry *entry;
	unsigned long i;

	fhash_for_each(hash, entry) {
		i = (entry->ip - FHT_BASE) / 16;
		KUNIT_ASSERT_LT(test, i, n);
		seen[i]++;
	}
}

static void fht_walk_visits_each_once(struct kunit *test)
{
	static const unsigned int sizes[] = { 2, 6, FHASH_MAX_BITS };
	struct ftrace_hash *hash;
	int i, s;
	u8 *seen;

	seen = kunit_kzalloc(test, FHT_MANY, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, seen);
	for (s = 0; s < ARRAY_SIZE(sizes); s++) {
		hash = fht_alloc(test, sizes[s]);
		fht_fill(test, hash, FHT_MANY);
		memset(seen, 0, FHT_MANY);
		fht_walk(test, hash, seen, FHT_MANY);
		for (i = 0; i < FHT_MANY; i++)
			KUNIT_EXPECT_EQ_MSG(test, seen[i], 1, "ip #%d", i);
	}
	/* NULL and empty sets are walked without a single step. */
	memset(seen, 0, FHT_MANY);
	fht_walk(test, NULL, seen, FHT_MANY);
	fht_walk(test, FHASH_EMPTY, seen, FHT_MANY);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(seen, 0, FHT_MANY));
}

static void fht_walk_break_stops(struct kunit *test)
{
	struct ftrace_hash *hash = fht_alloc(test, 4);
	struct ftrace_func_entry *entry;
	int steps = 0;

	fht_fill(test, hash, 100);
	/* One loop, not one per bucket: break leaves the whole walk. */
	fhash_for_each(hash, entry) {
		if (++steps == 10)
			break;
	}
	KUNIT_EXPECT_EQ(test, steps, 10);
	KUNIT_EXPECT_NOT_NULL(test, entry);
}

static void fht_walk_safe_erases(struct kunit *test)
{
	struct ftrace_hash *hash = fht_alloc(test, 3);
	struct ftrace_func_entry *entry, *tmp;
	int i;

	fht_fill(test, hash, 400);
	/* Drop every odd site while walking. */
	fhash_for_each_safe(hash, entry, tmp) {
		if ((entry->ip - FHT_BASE) / 16 % 2)
			fhash_erase(hash, entry);
	}
	KUNIT_EXPECT_EQ(test, hash->count, 200);
	for (i = 0; i < 400; i++)
		KUNIT_EXPECT_EQ_MSG(test, !!ftrace_lookup_ip(hash, FHT_IP(i)),
				    !(i % 2), "ip #%d", i);
}

/* Sites in the walk-after-retire case, and at most how many it retires. */
#define FHT_RETIRE_N	64
#define FHT_RETIRE_MAX	(2 + FHT_RETIRE_N / 5)

/*
 * The core retires the entry of freed text (a module's init code once
 * it ran, an unloaded module) by setting its ip to 0 where it is:
 * unlinking it could empty a filter, which would then trace every
 * function.  Such an entry stays in the bucket of its old ip, and
 * walks, copies and frees of the set must still visit every entry
 * once and end.  One of the retired entries is made the last of a
 * bucket other than 0, where a walk that recomputes its bucket from
 * the ip would jump back and go round for ever; this case bounds its
 * walk so that such a bug fails it instead of hanging the boot.
 */
static void fht_walk_after_ip_retired(struct kunit *test)
{
	static const unsigned int sizes[] = { 1, 4, FHASH_MAX_BITS };
	struct ftrace_func_entry *retired[FHT_RETIRE_MAX];
	unsigned long old_ip[FHT_RETIRE_MAX];
	struct ftrace_func_entry *entry, *tmp;
	struct ftrace_hash *hash, *copy;
	int i, k, n, s, steps;

	for (s = 0; s < ARRAY_SIZE(sizes); s++) {
		hash = fht_alloc(test, sizes[s]);
		fht_fill(test, hash, FHT_RETIRE_N);

		/*
		 * Entries are added at the head of their chain, so the
		 * first site outside bucket 0 ends its bucket's chain.
		 */
		for (k = 0; k < FHT_RETIRE_N; k++)
			if (fhash_bucket(hash, FHT_IP(k)))
				break;
		KUNIT_ASSERT_LT(test, k, FHT_RETIRE_N);

		n = 0;
		for (i = 0; i < FHT_RETIRE_N; i++) {
			if (i != k && i % 5)
				continue;
			entry = ftrace_lookup_ip(hash, FHT_IP(i));
			KUNIT_ASSERT_NOT_NULL(test, entry);
			KUNIT_ASSERT_LT(test, n, FHT_RETIRE_MAX);
			retired[n] = entry;
			old_ip[n++] = entry->ip;
			entry->ip = 0;
		}

		steps = 0;
		fhash_for_each(hash, entry) {
			if (++steps > FHT_RETIRE_N)
				break;
		}
		if (steps != FHT_RETIRE_N) {
			/* Put the ips back so that freeing the set ends. */
			for (i = 0; i < n; i++)
				retired[i]->ip = old_ip[i];
			KUNIT_FAIL(test, "bits %u: walk of %d entries took %d steps",
				   sizes[s], FHT_RETIRE_N, steps);
			return;
		}

		/* A copy keeps every entry, the retired ones at ip 0. */
		copy = fht_dup(test, hash, FHASH_FIT);
		KUNIT_EXPECT_EQ(test, copy->count, FHT_RETIRE_N);
		for (i = 0; i < FHT_RETIRE_N; i++)
			KUNIT_EXPECT_EQ_MSG(test,
					    !!ftrace_lookup_ip(copy, FHT_IP(i)),
					    i != k && i % 5, "ip #%d", i);

		/* Dropping them with a safe walk leaves the others. */
		fhash_for_each_safe(hash, entry, tmp) {
			if (!entry->ip)
				fhash_erase(hash, entry);
		}
		KUNIT_EXPECT_EQ(test, hash->count, FHT_RETIRE_N - n);
	}
}

static void fht_bits_for_bounds(struct kunit *test)
{
	unsigned long count;
	unsigned int bits;

	KUNIT_EXPECT_EQ(test, fhash_bits_for(0), 0);
	KUNIT_EXPECT_EQ(test, fhash_bits_for(1), 0);
	KUNIT_EXPECT_EQ(test, fhash_bits_for(ULONG_MAX), FHASH_MAX_BITS);
	for (count = 0; count < (4UL << FHASH_MAX_BITS); count++) {
		bits = fhash_bits_for(count);
		KUNIT_ASSERT_LE(test, bits, FHASH_MAX_BITS);
		/* Under the cap, chains average two entries or fewer... */
		if (bits < FHASH_MAX_BITS)
			KUNIT_ASSERT_GT_MSG(test, 2UL << bits, count,
					    "count %lu", count);
		/* ...and a table half the size would not do. */
		if (bits)
			KUNIT_ASSERT_LE_MSG(test, 2UL << (bits - 1), count,
					    "count %lu", count);
		/* Never smaller for more entries. */
		if (count)
			KUNIT_ASSERT_GE(test, bits, fhash_bits_for(count - 1));
	}
}

static void fht_free_ignores_null_and_empty(struct kunit *test)
{
	struct ftrace_hash *hash = fhash_alloc(2);

	fhash_free(NULL);
	fhash_free(FHASH_EMPTY);
	fhash_free_rcu(NULL);
	fhash_free_rcu(FHASH_EMPTY);
	KUNIT_EXPECT_EQ(test, FHASH_EMPTY->count, 0);
	KUNIT_EXPECT_NULL(test, fhash_first(FHASH_EMPTY));

	/* A real set freed after a grace period, entries and all. */
	KUNIT_ASSERT_NOT_NULL(test, hash);
	fht_fill(test, hash, 20);
	fhash_free_rcu(hash);
	rcu_barrier();
}

/* Parse @word (copied: the parse writes to its buffer). */
static struct ftrace_pattern fht_parse(struct kunit *test, const char *word)
{
	struct ftrace_pattern pat;
	char *buf = kunit_kzalloc(test, strlen(word) + 1, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	strscpy(buf, word, strlen(word) + 1);
	ftrace_pattern_parse(&pat, buf, strlen(buf));
	return pat;
}

/* Match @sym (copied: arch_ftrace_match_adjust() may write to it). */
static bool fht_match(struct kunit *test, const struct ftrace_pattern *pat,
		      const char *sym)
{
	char buf[KSYM_NAME_LEN];

	KUNIT_ASSERT_GT(test, strscpy(buf, sym, sizeof(buf)), -1);
	return ftrace_pattern_match(pat, buf);
}

static void fht_pattern_full(struct kunit *test)
{
	struct ftrace_pattern pat = fht_parse(test, "vfs_read");

	KUNIT_EXPECT_EQ(test, pat.type, MATCH_FULL);
	KUNIT_EXPECT_STREQ(test, pat.text, "vfs_read");
	KUNIT_EXPECT_EQ(test, pat.len, 8);
	KUNIT_EXPECT_FALSE(test, pat.negate);
	KUNIT_EXPECT_TRUE(test, fht_match(test, &pat, "vfs_read"));
	KUNIT_EXPECT_FALSE(test, fht_match(test, &pat, "vfs_readv"));
	KUNIT_EXPECT_FALSE(test, fht_match(test, &pat, "vfs_rea"));
	KUNIT_EXPECT_FALSE(test, fht_match(test, &pat, "do_vfs_read"));
}

static void fht_pattern_front(struct kunit *test)
{
	struct ftrace_pattern pat = fht_parse(test, "sched_*");

	KUNIT_EXPECT_EQ(test, pat.type, MATCH_FRONT_ONLY);
	KUNIT_EXPECT_STREQ(test, pat.text, "sched_");
	KUNIT_EXPECT_TRUE(test, fht_match(test, &pat, "sched_fork"));
	KUNIT_EXPECT_TRUE(test, fht_match(test, &pat, "sched_"));
	KUNIT_EXPECT_FALSE(test, fht_match(test, &pat, "sched"));
	KUNIT_EXPECT_FALSE(test, fht_match(test, &pat, "__sched_fork"));
}

static void fht_pattern_end(struct kunit *test)
{
	struct ftrace_pattern pat = fht_parse(test, "*_lock");

	KUNIT_EXPECT_EQ(test, pat.type, MATCH_END_ONLY);
	KUNIT_EXPECT_STREQ(test, pat.text, "_lock");
	KUNIT_EXPECT_TRUE(test, fht_match(test, &pat, "mutex_lock"));
	KUNIT_EXPECT_TRUE(test, fht_match(test, &pat, "_lock"));
	KUNIT_EXPECT_FALSE(test, fht_match(test, &pat, "mutex_lock_nested"));
	KUNIT_EXPECT_FALSE(test, fht_match(test, &pat, "lock"));
}

static void fht_pattern_middle(struct kunit *test)
{
	struct ftrace_pattern pat = fht_parse(test, "*rcu*");

	KUNIT_EXPECT_EQ(test, pat.type, MATCH_MIDDLE_ONLY);
	KUNIT_EXPECT_STREQ(test, pat.text, "rcu");
	KUNIT_EXPECT_TRUE(test, fht_match(test, &pat, "call_rcu_tasks"));
	KUNIT_EXPECT_TRUE(test, fht_match(test, &pat, "rcu"));
	KUNIT_EXPECT_TRUE(test, fht_match(test, &pat, "rcu_barrier"));
	KUNIT_EXPECT_TRUE(test, fht_match(test, &pat, "kfree_rcu"));
	KUNIT_EXPECT_FALSE(test, fht_match(test, &pat, "rc_u"));
}

static void fht_pattern_star_alone_matches_all(struct kunit *test)
{
	struct ftrace_pattern pat = fht_parse(test, "*");

	KUNIT_EXPECT_EQ(test, pat.len, 0);
	KUNIT_EXPECT_TRUE(test, fht_match(test, &pat, "schedule"));
	KUNIT_EXPECT_TRUE(test, fht_match(test, &pat, ""));
}

static void fht_pattern_glob_star(struct kunit *test)
{
	struct ftrace_pattern pat = fht_parse(test, "vfs_*_iter");

	KUNIT_EXPECT_EQ(test, pat.type, MATCH_GLOB);
	KUNIT_EXPECT_TRUE(test, fht_match(test, &pat, "vfs_read_iter"));
	KUNIT_EXPECT_TRUE(test, fht_match(test, &pat, "vfs__iter"));
	KUNIT_EXPECT_FALSE(test, fht_match(test, &pat, "vfs_read_iter2"));
	KUNIT_EXPECT_FALSE(test, fht_match(test, &pat, "vfs_read"));
}

static void fht_pattern_glob_question(struct kunit *test)
{
	struct ftrace_pattern pat = fht_parse(test, "kmalloc_?");

	KUNIT_EXPECT_EQ(test, pat.type, MATCH_GLOB);
	KUNIT_EXPECT_TRUE(test, fht_match(test, &pat, "kmalloc_x"));
	KUNIT_EXPECT_FALSE(test, fht_match(test, &pat, "kmalloc_"));
	KUNIT_EXPECT_FALSE(test, fht_match(test, &pat, "kmalloc_xy"));
}

static void fht_pattern_glob_class(struct kunit *test)
{
	struct ftrace_pattern pat = fht_parse(test, "vfs_[rw]*");

	KUNIT_EXPECT_EQ(test, pat.type, MATCH_GLOB);
	KUNIT_EXPECT_TRUE(test, fht_match(test, &pat, "vfs_read"));
	KUNIT_EXPECT_TRUE(test, fht_match(test, &pat, "vfs_write"));
	KUNIT_EXPECT_FALSE(test, fht_match(test, &pat, "vfs_open"));
	KUNIT_EXPECT_FALSE(test, fht_match(test, &pat, "vfs_"));
}

static void fht_pattern_glob_escape(struct kunit *test)
{
	struct ftrace_pattern pat = fht_parse(test, "a\\*b");

	/* A backslash makes it a glob whose '*' is a plain character. */
	KUNIT_EXPECT_EQ(test, pat.type, MATCH_GLOB);
	KUNIT_EXPECT_TRUE(test, fht_match(test, &pat, "a*b"));
	KUNIT_EXPECT_FALSE(test, fht_match(test, &pat, "axb"));
	KUNIT_EXPECT_FALSE(test, fht_match(test, &pat, "ab"));

	pat = fht_parse(test, "x\\?");
	KUNIT_EXPECT_TRUE(test, fht_match(test, &pat, "x?"));
	KUNIT_EXPECT_FALSE(test, fht_match(test, &pat, "xy"));
}

static void fht_pattern_negation(struct kunit *test)
{
	struct ftrace_pattern pat = fht_parse(test, "!*lock*");

	/* '!' is reported to the caller; the rest matches as usual. */
	KUNIT_EXPECT_TRUE(test, pat.negate);
	KUNIT_EXPECT_EQ(test, pat.type, MATCH_MIDDLE_ONLY);
	KUNIT_EXPECT_STREQ(test, pat.text, "lock");
	KUNIT_EXPECT_TRUE(test, fht_match(test, &pat, "_raw_spin_lock"));
	KUNIT_EXPECT_FALSE(test, fht_match(test, &pat, "schedule"));

	pat = fht_parse(test, "!schedule");
	KUNIT_EXPECT_TRUE(test, pat.negate);
	KUNIT_EXPECT_EQ(test, pat.type, MATCH_FULL);
	KUNIT_EXPECT_TRUE(test, fht_match(test, &pat, "schedule"));
}

static void fht_pattern_empty(struct kunit *test)
{
	struct ftrace_pattern pat = fht_parse(test, "");

	KUNIT_EXPECT_EQ(test, pat.type, MATCH_FULL);
	KUNIT_EXPECT_EQ(test, pat.len, 0);
	KUNIT_EXPECT_FALSE(test, pat.negate);
	KUNIT_EXPECT_FALSE(test, fht_match(test, &pat, "schedule"));
	KUNIT_EXPECT_TRUE(test, fht_match(test, &pat, ""));
}

static void fht_pattern_index_matches_no_name(struct kunit *test)
{
	struct ftrace_pattern pat = fht_parse(test, "42");

	KUNIT_EXPECT_EQ(test, pat.type, MATCH_INDEX);
	KUNIT_EXPECT_STREQ(test, pat.text, "42");
	KUNIT_EXPECT_FALSE(test, fht_match(test, &pat, "42"));
}

/* Patterns longer than KSYM_NAME_LEN never match, and read in bounds. */
static void fht_pattern_longer_than_symbols(struct kunit *test)
{
	static const char * const shapes[] = { "%s", "%s*", "*%s", "*%s*",
					       "%s?" };
	const int n = KSYM_NAME_LEN + 40;
	struct ftrace_pattern pat;
	char *word, *shaped, *longest;
	int i;

	word = kunit_kzalloc(test, n + 1, GFP_KERNEL);
	shaped = kunit_kzalloc(test, n + 3, GFP_KERNEL);
	longest = kunit_kzalloc(test, KSYM_NAME_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, word);
	KUNIT_ASSERT_NOT_NULL(test, shaped);
	KUNIT_ASSERT_NOT_NULL(test, longest);
	memset(word, 'a', n);
	memset(longest, 'a', KSYM_NAME_LEN - 1);

	for (i = 0; i < ARRAY_SIZE(shapes); i++) {
		snprintf(shaped, n + 3, shapes[i], word);
		pat = fht_parse(test, shaped);
		KUNIT_EXPECT_GE(test, pat.len, n);
		KUNIT_EXPECT_FALSE_MSG(test, fht_match(test, &pat, longest),
				       "shape %s", shapes[i]);
		KUNIT_EXPECT_FALSE_MSG(test, fht_match(test, &pat, "a"),
				       "shape %s", shapes[i]);
	}
}

static struct kunit_case fht_cases[] = {
	KUNIT_CASE(fht_lookup_null_and_empty),
	KUNIT_CASE(fht_insert_lookup_erase),
	KUNIT_CASE(fht_insert_is_idempotent),
	KUNIT_CASE(fht_count_follows_changes),
	KUNIT_CASE(fht_dup_keeps_all_entries),
	KUNIT_CASE(fht_dup_of_nothing_is_empty),
	KUNIT_CASE(fht_take_moves_entries),
	KUNIT_CASE(fht_many_entries_found),
	KUNIT_CASE(fht_unlink_link_moves),
	KUNIT_CASE(fht_clear_removes_all),
	KUNIT_CASE(fht_walk_visits_each_once),
	KUNIT_CASE(fht_walk_break_stops),
	KUNIT_CASE(fht_walk_safe_erases),
	KUNIT_CASE(fht_walk_after_ip_retired),
	KUNIT_CASE(fht_bits_for_bounds),
	KUNIT_CASE(fht_free_ignores_null_and_empty),
	KUNIT_CASE(fht_pattern_full),
	KUNIT_CASE(fht_pattern_front),
	KUNIT_CASE(fht_pattern_end),
	KUNIT_CASE(fht_pattern_middle),
	KUNIT_CASE(fht_pattern_star_alone_matches_all),
	KUNIT_CASE(fht_pattern_glob_star),
	KUNIT_CASE(fht_pattern_glob_question),
	KUNIT_CASE(fht_pattern_glob_class),
	KUNIT_CASE(fht_pattern_glob_escape),
	KUNIT_CASE(fht_pattern_negation),
	KUNIT_CASE(fht_pattern_empty),
	KUNIT_CASE(fht_pattern_index_matches_no_name),
	KUNIT_CASE(fht_pattern_longer_than_symbols),
	{}
};

static struct kunit_suite fht_suite = {
	.name = "ftrace_hash",
	.test_cases = fht_cases,
};

kunit_test_suite(fht_suite);
