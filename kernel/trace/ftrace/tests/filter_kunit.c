// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for what the tracefs files of the core stand on
 * (tracefs/tracefs.h):
 *
 *  - fmatch_records() and fmatch_each() (tracefs/filter_words.c): which
 *    records a word of set_ftrace_filter selects, by full name, glob,
 *    '!', line number of available_filter_functions or "mod:" part,
 *    and a callback's error stopping the walk;
 *  - flist_walk_to() and flist_walk_next() (tracefs/listing.c), the walk
 *    over the wanted records that a seq_file resumes read after read;
 *  - frec_resume() (records.c), which that resuming stands on.
 *
 * What a pattern should select is worked out here independently: every
 * record is walked under ftrace_lock, named with flist_name() and
 * tested with string functions of our own, then compared with the set.
 *
 * Like records_kunit.c this file is built with the ftrace
 * instrumentation flags, so ffk_tracee_a(), _b() and _c() have records
 * of their own, and no other function has a name that starts with
 * "ffk_tracee_"; ffk_untraced() is notrace and has none.  Nothing here
 * patches code or registers an ops.
 */
#include <kunit/test.h>
#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sort.h>
#include <linux/string.h>

#include "../hash.h"
#include "../internal.h"
#include "../records.h"
#include "../tracefs/tracefs.h"
#include "../../trace.h"
#include "kunit_modload.h"

static noinline int ffk_tracee_a(int x)
{
	barrier();
	return x * 5 + 3;
}

static noinline int ffk_tracee_b(int x)
{
	barrier();
	return x * 13 - 8;
}

static noinline int ffk_tracee_c(int x)
{
	barrier();
	return x * 19 + 21;
}

static noinline notrace int ffk_untraced(int x)
{
	barrier();
	return x - 17;
}

#define FFK_TRACEES	3

/* Keeps the functions out of line and in the image; tracees first. */
static int (*const ffk_fns[])(int) __used = {
	ffk_tracee_a, ffk_tracee_b, ffk_tracee_c, ffk_untraced,
};

/* Room for the words of this file and for an index in decimal. */
#define FFK_WORD_MAX	64

struct ffk_sites {
	unsigned long	site[FFK_TRACEES];	/* a, b, c */
	unsigned long	walk[FFK_TRACEES];	/* ascending: the walks' order */
};

static int ffk_cmp_ip(const void *x, const void *y)
{
	unsigned long a = *(const unsigned long *)x;
	unsigned long b = *(const unsigned long *)y;

	return a < b ? -1 : a > b;
}

/*
 * The tracees are in one table, the kernel's text, where records are
 * sorted by address: every walk meets them in ascending order.
 */
static void ffk_find_sites(struct kunit *test, struct ffk_sites *s)
{
	unsigned int i;

	for (i = 0; i < FFK_TRACEES; i++) {
		s->site[i] = ftrace_location((unsigned long)ffk_fns[i]);
		KUNIT_ASSERT_NE_MSG(test, s->site[i], 0, "%ps has no record",
				    (void *)ffk_fns[i]);
		s->walk[i] = s->site[i];
	}
	sort(s->walk, FFK_TRACEES, sizeof(s->walk[0]), ffk_cmp_ip, NULL);
}

static unsigned long ffk_ip(struct dyn_ftrace *rec)
{
	return rec ? ftrace_rec_ip(rec) : 0;
}

/* ---- sets ---------------------------------------------------------- */

KUNIT_DEFINE_ACTION_WRAPPER(ffk_free_action, fhash_free, struct ftrace_hash *);

/* An empty set, freed when the case ends, pass or fail. */
static struct ftrace_hash *ffk_set(struct kunit *test)
{
	struct ftrace_hash *set = fhash_alloc(FTRACE_HASH_DEFAULT_BITS);

	KUNIT_ASSERT_NOT_NULL(test, set);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, ffk_free_action, set));
	return set;
}

static struct ftrace_hash *ffk_copy(struct kunit *test,
				    struct ftrace_hash *src)
{
	struct ftrace_hash *set = fhash_dup(src, FHASH_FIT);

	KUNIT_ASSERT_NOT_NULL(test, set);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, ffk_free_action, set));
	return set;
}

/* @set holds exactly the @n addresses of @ips. */
static void ffk_expect_ips(struct kunit *test, struct ftrace_hash *set,
			   const unsigned long *ips, unsigned long n)
{
	unsigned long i;

	KUNIT_EXPECT_EQ(test, set->count, n);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_NOT_NULL_MSG(test, fhash_find(set, ips[i]),
					  "%pS missing", (void *)ips[i]);
}

/* @set holds exactly what @want holds. */
static void ffk_expect_same(struct kunit *test, struct ftrace_hash *set,
			    struct ftrace_hash *want)
{
	struct ftrace_func_entry *entry;

	KUNIT_EXPECT_EQ(test, set->count, want->count);
	fhash_for_each(want, entry)
		KUNIT_EXPECT_NOT_NULL_MSG(test, fhash_find(set, entry->ip),
					  "%pS missing", (void *)entry->ip);
}

/* fmatch_records() on copies of @word and @mod: it parses them in place. */
static int ffk_match(struct ftrace_hash *set, const char *word,
		     const char *mod)
{
	char func[FFK_WORD_MAX], module[MODULE_NAME_LEN];

	strscpy(func, word);
	strscpy(module, mod ?: "");
	return fmatch_records(set, func, strlen(func), mod ? module : NULL);
}

/* The same for fmatch_each(). */
static int ffk_each(const char *word, const char *mod, fmatch_fn fn,
		    void *arg)
{
	char func[FFK_WORD_MAX], module[MODULE_NAME_LEN];

	strscpy(func, word);
	strscpy(module, mod ?: "");
	return fmatch_each(func, strlen(func), mod ? module : NULL, fn, arg);
}

/* ---- what a pattern should select, worked out here ------------------ */

enum ffk_how { FFK_PREFIX, FFK_SUFFIX, FFK_INFIX };
enum ffk_owner { FFK_ANYONE, FFK_KERNEL, FFK_MODULES };

#define FFK_SOME	(-1)	/* at least one record */
#define FFK_ANY_NR	(-2)	/* none is right too */

struct ffk_pattern {
	const char	*word;		/* given to fmatch_records() */
	const char	*mod;		/* its "mod:" part; NULL: none */
	enum ffk_how	how;		/* the same test, made here */
	const char	*text;
	enum ffk_owner	owner;
	int		nr;		/* records selected, or FFK_SOME/ANY_NR */
};

static bool ffk_pattern_wants(const struct ffk_pattern *p, const char *name,
			      const char *modname)
{
	size_t n = strlen(name), t = strlen(p->text);

	if ((p->owner == FFK_KERNEL && modname) ||
	    (p->owner == FFK_MODULES && !modname))
		return false;
	switch (p->how) {
	case FFK_PREFIX:
		return !strncmp(name, p->text, t);
	case FFK_SUFFIX:
		return n >= t && !strcmp(name + n - t, p->text);
	case FFK_INFIX:
		return strstr(name, p->text);
	}
	return false;
}

struct ffk_tally {
	unsigned long	want;	/* records the pattern should select */
	unsigned long	have;	/* of those, how many @set holds */
};

/*
 * Records that have a name and are not disabled, the only ones a name
 * pattern can select.  The names are looked up under ftrace_lock; the
 * checks come after it is dropped.
 */
static void ffk_tally(const struct ffk_pattern *p, struct ftrace_hash *set,
		      struct ffk_tally *t)
{
	char name[KSYM_SYMBOL_LEN];
	struct dyn_ftrace *rec;
	char *modname;

	*t = (struct ffk_tally){ };
	mutex_lock(&ftrace_lock);
	frec_for_each(rec) {
		cond_resched();
		if (rec->flags & FTRACE_FL_DISABLED ||
		    !flist_name(ftrace_rec_ip(rec), name, &modname) ||
		    !ffk_pattern_wants(p, name, modname))
			continue;
		t->want++;
		if (fhash_find(set, ftrace_rec_ip(rec)))
			t->have++;
	}
	mutex_unlock(&ftrace_lock);
}

/*
 * "mod:" with an empty module name is every module, "!" is none (the
 * kernel).  At boot, where the built-in suite runs, normally no module
 * is loaded (the suites that load their tracee module unload it
 * again): the rows for every module then only check that nothing is
 * selected, and the kernel's rows carry the test.  With modules loaded
 * (the suite run again from debugfs) the same rows compare the
 * modules' records.
 */
static const struct ffk_pattern ffk_patterns[] = {
	{ "ffk_tracee_*", NULL, FFK_PREFIX, "ffk_tracee_", FFK_ANYONE,
	  FFK_TRACEES },
	{ "*_tracee_c", NULL, FFK_SUFFIX, "_tracee_c", FFK_ANYONE, FFK_SOME },
	{ "*k_tracee_*", NULL, FFK_INFIX, "k_tracee_", FFK_ANYONE, FFK_SOME },
	{ "vfs_*", NULL, FFK_PREFIX, "vfs_", FFK_ANYONE, FFK_SOME },
	{ "*lock*", NULL, FFK_INFIX, "lock", FFK_ANYONE, FFK_SOME },
	{ "ffk_tracee_*", "!", FFK_PREFIX, "ffk_tracee_", FFK_KERNEL,
	  FFK_TRACEES },
	{ "ffk_tracee_*", "", FFK_PREFIX, "ffk_tracee_", FFK_MODULES, 0 },
	{ "*", "!", FFK_PREFIX, "", FFK_KERNEL, FFK_SOME },
	{ "*", "", FFK_PREFIX, "", FFK_MODULES, FFK_ANY_NR },
};

static void ffk_pattern_desc(const struct ffk_pattern *p, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s%s%s", p->word,
		 p->mod ? ":mod:" : "", p->mod ?: "");
}

KUNIT_ARRAY_PARAM(ffk_pattern, ffk_patterns, ffk_pattern_desc);

/* A pattern adds every record it should select, and nothing else. */
static void ffk_match_pattern(struct kunit *test)
{
	const struct ffk_pattern *p = test->param_value;
	struct ftrace_hash *set = ffk_set(test);
	struct ffk_tally t;
	int ret;

	ret = ffk_match(set, p->word, p->mod);
	ffk_tally(p, set, &t);
	KUNIT_EXPECT_EQ(test, ret, t.want ? 1 : 0);
	KUNIT_EXPECT_EQ(test, set->count, t.want);
	KUNIT_EXPECT_EQ(test, t.have, t.want);
	if (p->nr >= 0)
		KUNIT_EXPECT_EQ(test, t.want, (unsigned long)p->nr);
	else if (p->nr == FFK_SOME)
		KUNIT_EXPECT_GT(test, t.want, 0);
}

/* ---- fmatch_records() ---------------------------------------------- */

/* A full name is that function and no other: not a prefix of it. */
static void ffk_match_full_name(struct kunit *test)
{
	struct ftrace_hash *set = ffk_set(test);
	struct ffk_sites s;

	ffk_find_sites(test, &s);
	KUNIT_EXPECT_EQ(test, ffk_match(set, "ffk_tracee_b", NULL), 1);
	ffk_expect_ips(test, set, &s.site[1], 1);
	/* Again: still one entry. */
	KUNIT_EXPECT_EQ(test, ffk_match(set, "ffk_tracee_b", NULL), 1);
	ffk_expect_ips(test, set, &s.site[1], 1);
	KUNIT_EXPECT_EQ(test, ffk_match(set, "ffk_tracee_", NULL), 0);
	KUNIT_EXPECT_EQ(test, ffk_match(set, "ffk_tracee_bb", NULL), 0);
	ffk_expect_ips(test, set, &s.site[1], 1);
}

/* Wildcards inside a word make a glob. */
static void ffk_match_glob(struct kunit *test)
{
	struct ftrace_hash *ab = ffk_set(test), *any = ffk_set(test);
	struct ftrace_hash *c = ffk_set(test);
	struct ffk_sites s;

	ffk_find_sites(test, &s);
	KUNIT_EXPECT_EQ(test, ffk_match(ab, "ffk_tracee_[ab]", NULL), 1);
	ffk_expect_ips(test, ab, s.site, 2);
	KUNIT_EXPECT_EQ(test, ffk_match(any, "ffk_tracee_?", NULL), 1);
	ffk_expect_ips(test, any, s.site, FFK_TRACEES);
	KUNIT_EXPECT_EQ(test, ffk_match(c, "ffk_tr*ee_c", NULL), 1);
	ffk_expect_ips(test, c, &s.site[2], 1);
}

/* '!' takes out what the rest of the word selects, and only that. */
static void ffk_match_negate(struct kunit *test)
{
	struct ftrace_hash *set = ffk_set(test), *before;
	unsigned long other = (unsigned long)ffk_untraced;
	unsigned long left[3];
	struct ffk_sites s;

	ffk_find_sites(test, &s);
	KUNIT_ASSERT_EQ(test, ffk_match(set, "ffk_tracee_*", NULL), 1);
	/* An address no word can select: it must stay. */
	KUNIT_ASSERT_NOT_NULL(test, fhash_insert(set, other));

	KUNIT_EXPECT_EQ(test, ffk_match(set, "!ffk_tracee_b", NULL), 1);
	left[0] = s.site[0];
	left[1] = s.site[2];
	left[2] = other;
	ffk_expect_ips(test, set, left, 3);
	KUNIT_EXPECT_NULL(test, fhash_find(set, s.site[1]));

	/* It still selects a record, though there is nothing to remove. */
	before = ffk_copy(test, set);
	KUNIT_EXPECT_EQ(test, ffk_match(set, "!ffk_tracee_b", NULL), 1);
	ffk_expect_same(test, set, before);

	KUNIT_EXPECT_EQ(test, ffk_match(set, "!ffk_tracee_*", NULL), 1);
	ffk_expect_ips(test, set, &other, 1);
}

static const char * const ffk_no_match[][2] = {
	{ "ffk_zz_no_such_function", NULL },
	{ "ffk_untraced", NULL },		/* a symbol without a record */
	{ "ffk_zz_no_such_*", NULL },
	{ "*_ffk_zz_no_such", NULL },
	{ "*ffk_zz_no_such*", NULL },
	{ "ffk_tracee_[xyz]", NULL },
	{ "!ffk_zz_no_such_function", NULL },
	{ "!ffk_tracee_[xyz]", NULL },
	{ "ffk_tracee_a", "ffk_zz_no_such_module" },
	{ "*", "ffk_zz_no_such_module" },
	{ "ffk_tracee_a", "" },			/* not a module's */
	{ "!ffk_tracee_a", "" },
};

/* A word that selects nothing returns 0 and changes nothing. */
static void ffk_match_nothing(struct kunit *test)
{
	struct ftrace_hash *set = ffk_set(test), *before;
	struct ffk_sites s;
	unsigned int i;

	ffk_find_sites(test, &s);
	KUNIT_ASSERT_EQ(test, ffk_match(set, "ffk_tracee_a", NULL), 1);
	before = ffk_copy(test, set);
	for (i = 0; i < ARRAY_SIZE(ffk_no_match); i++) {
		KUNIT_EXPECT_EQ_MSG(test, ffk_match(set, ffk_no_match[i][0],
						    ffk_no_match[i][1]),
				    0, "%s mod %s", ffk_no_match[i][0],
				    ffk_no_match[i][1] ?: "(none)");
		ffk_expect_same(test, set, before);
	}
}

struct ffk_places {
	unsigned long	count;		/* records */
	unsigned long	index;		/* tracee a's position, from 0 */
	unsigned long	first, last;	/* ips of frec_at(0), frec_at(count - 1) */
};

static void ffk_find_places(struct kunit *test, unsigned long site,
			    struct ffk_places *pl)
{
	struct dyn_ftrace *rec;
	unsigned long n = 0;

	*pl = (struct ffk_places){ .index = ULONG_MAX };
	mutex_lock(&ftrace_lock);
	frec_for_each(rec) {
		if (ftrace_rec_ip(rec) == site)
			pl->index = n;
		n++;
	}
	pl->count = frec_count();
	pl->first = ffk_ip(frec_at(0));
	pl->last = n ? ffk_ip(frec_at(n - 1)) : 0;
	mutex_unlock(&ftrace_lock);

	KUNIT_ASSERT_EQ(test, pl->count, n);
	KUNIT_ASSERT_LT(test, pl->index, n);
}

/* A number selects that line of available_filter_functions, from 1. */
static void ffk_match_index(struct kunit *test)
{
	struct ftrace_hash *mine = ffk_set(test), *first = ffk_set(test);
	struct ftrace_hash *last = ffk_set(test), *before;
	char word[FFK_WORD_MAX];
	struct ffk_places pl;
	struct ffk_sites s;

	ffk_find_sites(test, &s);
	ffk_find_places(test, s.site[0], &pl);

	snprintf(word, sizeof(word), "%lu", pl.index + 1);
	KUNIT_EXPECT_EQ(test, ffk_match(mine, word, NULL), 1);
	ffk_expect_ips(test, mine, &s.site[0], 1);
	KUNIT_EXPECT_EQ(test, ffk_match(first, "1", NULL), 1);
	ffk_expect_ips(test, first, &pl.first, 1);
	snprintf(word, sizeof(word), "%lu", pl.count);
	KUNIT_EXPECT_EQ(test, ffk_match(last, word, NULL), 1);
	ffk_expect_ips(test, last, &pl.last, 1);

	/* Neither line 0 nor a line past the last exists. */
	before = ffk_copy(test, mine);
	KUNIT_EXPECT_EQ(test, ffk_match(mine, "0", NULL), 0);
	snprintf(word, sizeof(word), "%lu", pl.count + 1);
	KUNIT_EXPECT_EQ(test, ffk_match(mine, word, NULL), 0);
	snprintf(word, sizeof(word), "%lu", pl.count + 1000);
	KUNIT_EXPECT_EQ(test, ffk_match(mine, word, NULL), 0);
	ffk_expect_same(test, mine, before);

	snprintf(word, sizeof(word), "!%lu", pl.index + 1);
	KUNIT_EXPECT_EQ(test, ffk_match(mine, word, NULL), 1);
	KUNIT_EXPECT_EQ(test, mine->count, 0);
}

/* ---- fmatch_each() ------------------------------------------------- */

struct ffk_calls {
	struct ftrace_hash	*seen;		/* the ip of every call made */
	unsigned long		calls;
	unsigned long		drops;		/* calls told to drop */
	unsigned long		fail_at;	/* this call fails; 0: none */
	int			err;
};

static int ffk_record_call(unsigned long ip, bool drop, void *arg)
{
	struct ffk_calls *c = arg;

	c->calls++;
	c->drops += drop;
	if (!fhash_insert(c->seen, ip))
		return -EIO;	/* not the error any case asks for */
	return c->calls == c->fail_at ? c->err : 0;
}

/* The walk stops at the callback's error and returns it. */
static void ffk_each_stops_on_error(struct kunit *test)
{
	struct ffk_calls c = {
		.seen = ffk_set(test), .fail_at = 2, .err = -ENOMEM,
	};
	struct ffk_sites s;

	ffk_find_sites(test, &s);
	KUNIT_EXPECT_EQ(test, ffk_each("ffk_tracee_*", NULL, ffk_record_call,
				       &c), -ENOMEM);
	KUNIT_EXPECT_EQ(test, c.calls, 2);
	/* The two calls made were for the first two records walked. */
	ffk_expect_ips(test, c.seen, s.walk, 2);
	KUNIT_EXPECT_NULL(test, fhash_find(c.seen, s.walk[2]));
	KUNIT_EXPECT_EQ(test, c.drops, 0);
}

/* Without an error every selected record gets a call, '!' a drop. */
static void ffk_each_calls_every_match(struct kunit *test)
{
	struct ffk_calls add = { .seen = ffk_set(test) };
	struct ffk_calls drop = { .seen = ffk_set(test) };
	struct ffk_sites s;

	ffk_find_sites(test, &s);
	KUNIT_EXPECT_EQ(test, ffk_each("ffk_tracee_*", NULL, ffk_record_call,
				       &add), 1);
	KUNIT_EXPECT_EQ(test, add.calls, FFK_TRACEES);
	KUNIT_EXPECT_EQ(test, add.drops, 0);
	ffk_expect_ips(test, add.seen, s.site, FFK_TRACEES);

	KUNIT_EXPECT_EQ(test, ffk_each("!ffk_tracee_*", NULL, ffk_record_call,
				       &drop), 1);
	KUNIT_EXPECT_EQ(test, drop.calls, FFK_TRACEES);
	KUNIT_EXPECT_EQ(test, drop.drops, FFK_TRACEES);
	ffk_expect_ips(test, drop.seen, s.site, FFK_TRACEES);
}

/* A line number's one call can fail too. */
static void ffk_each_index_error(struct kunit *test)
{
	struct ffk_calls c = {
		.seen = ffk_set(test), .fail_at = 1, .err = -EBUSY,
	};
	char word[FFK_WORD_MAX];
	struct ffk_places pl;
	struct ffk_sites s;

	ffk_find_sites(test, &s);
	ffk_find_places(test, s.site[0], &pl);
	snprintf(word, sizeof(word), "%lu", pl.index + 1);
	KUNIT_EXPECT_EQ(test, ffk_each(word, NULL, ffk_record_call, &c),
			-EBUSY);
	KUNIT_EXPECT_EQ(test, c.calls, 1);
	ffk_expect_ips(test, c.seen, &s.site[0], 1);
}

/* ---- flist_walk_to(), flist_walk_next() ----------------------------- */

/* A walk that wants the tracees, counting the records it looks at. */
struct ffk_want {
	const struct ffk_sites	*sites;
	unsigned long		calls;
};

static bool ffk_want_tracee(struct dyn_ftrace *rec, void *arg)
{
	struct ffk_want *want = arg;
	unsigned int i;

	want->calls++;
	for (i = 0; i < FFK_TRACEES; i++) {
		if (ftrace_rec_ip(rec) == want->sites->site[i])
			return true;
	}
	return false;
}

static void ffk_walk_init(struct flist_walk *w, struct ffk_want *want)
{
	*w = (struct flist_walk){ .want = ffk_want_tracee, .arg = want };
}

/* The fixture of a walk case: the tracees' sites and one walk of them. */
struct ffk_walker {
	struct ffk_sites	s;
	struct ffk_want		want;
	struct flist_walk	w;
};

static void ffk_walker_init(struct kunit *test, struct ffk_walker *k)
{
	ffk_find_sites(test, &k->s);
	k->want = (struct ffk_want){ .sites = &k->s };
	ffk_walk_init(&k->w, &k->want);
}

/*
 * One read: flist_walk_to() in a hold of ftrace_lock of its own, as a
 * seq_file's start does.  The cursor does not outlive the hold; it is
 * reset, only the position and the ip are kept.
 */
static unsigned long ffk_walk_to(struct flist_walk *w, loff_t pos)
{
	unsigned long ip;

	w->cur = (struct frec_cursor){ };
	mutex_lock(&ftrace_lock);
	ip = ffk_ip(flist_walk_to(w, pos));
	mutex_unlock(&ftrace_lock);
	return ip;
}

/* A fresh walk: flist_walk_to(0), then flist_walk_next() to the end. */
static void ffk_walk_fresh(struct kunit *test)
{
	unsigned long ip[FFK_TRACEES + 1], at_end_ip;
	loff_t pos[FFK_TRACEES + 1];
	struct ffk_walker k;
	struct flist_walk *w = &k.w;
	struct ffk_sites *s = &k.s;
	unsigned int i;
	bool at_end_rec;

	ffk_walker_init(test, &k);
	mutex_lock(&ftrace_lock);
	ip[0] = ffk_ip(flist_walk_to(w, 0));
	pos[0] = w->pos;
	for (i = 1; i <= FFK_TRACEES; i++) {
		ip[i] = ffk_ip(flist_walk_next(w));
		pos[i] = w->pos;
	}
	at_end_rec = !w->rec;
	at_end_ip = w->ip;
	mutex_unlock(&ftrace_lock);

	for (i = 0; i < FFK_TRACEES; i++) {
		KUNIT_EXPECT_EQ_MSG(test, ip[i], s->walk[i], "record %u", i);
		KUNIT_EXPECT_EQ_MSG(test, pos[i], i, "record %u", i);
	}
	/* Past the last it stays on the last, for the next read to resume. */
	KUNIT_EXPECT_EQ(test, ip[FFK_TRACEES], 0);
	KUNIT_EXPECT_EQ(test, pos[FFK_TRACEES], FFK_TRACEES - 1);
	KUNIT_EXPECT_TRUE(test, at_end_rec);
	KUNIT_EXPECT_EQ(test, at_end_ip, s->walk[FFK_TRACEES - 1]);

	for (i = 0; i < FFK_TRACEES; i++) {
		ffk_walk_init(w, &k.want);
		KUNIT_EXPECT_EQ_MSG(test, ffk_walk_to(w, i), s->walk[i],
				    "record %u", i);
		KUNIT_EXPECT_EQ(test, w->pos, i);
		KUNIT_EXPECT_EQ(test, w->ip, s->walk[i]);
	}
}

/*
 * A read that goes on from where the last one stopped (position @k at
 * or after @j) finds the same record as a fresh walk, and finds it
 * again by its ip: it looks at fewer records than counting from the
 * first would.
 */
static void ffk_walk_resume(struct kunit *test)
{
	struct ffk_walker fresh, on;
	unsigned long ip;
	unsigned int j, k;

	ffk_walker_init(test, &fresh);
	ffk_walker_init(test, &on);
	for (j = 0; j < FFK_TRACEES; j++) {
		for (k = j; k <= FFK_TRACEES; k++) {
			ffk_walk_init(&fresh.w, &fresh.want);
			fresh.want.calls = 0;
			ip = ffk_walk_to(&fresh.w, k);

			ffk_walk_init(&on.w, &on.want);
			KUNIT_ASSERT_EQ(test, ffk_walk_to(&on.w, j),
					on.s.walk[j]);
			on.want.calls = 0;
			KUNIT_EXPECT_EQ_MSG(test, ffk_walk_to(&on.w, k), ip,
					    "from %u to %u", j, k);
			KUNIT_EXPECT_EQ_MSG(test, on.w.pos, fresh.w.pos,
					    "from %u to %u", j, k);
			KUNIT_EXPECT_LT_MSG(test, on.want.calls,
					    fresh.want.calls,
					    "from %u to %u", j, k);
		}
	}
}

/* A read that seeks back counts from the first record again. */
static void ffk_walk_resume_back(struct kunit *test)
{
	struct ffk_walker fresh, on;
	unsigned int j, k;

	ffk_walker_init(test, &fresh);
	ffk_walker_init(test, &on);
	for (j = 1; j < FFK_TRACEES; j++) {
		for (k = 0; k < j; k++) {
			ffk_walk_init(&fresh.w, &fresh.want);
			fresh.want.calls = 0;
			KUNIT_ASSERT_EQ(test, ffk_walk_to(&fresh.w, k),
					fresh.s.walk[k]);

			ffk_walk_init(&on.w, &on.want);
			KUNIT_ASSERT_EQ(test, ffk_walk_to(&on.w, j),
					on.s.walk[j]);
			on.want.calls = 0;
			KUNIT_EXPECT_EQ_MSG(test, ffk_walk_to(&on.w, k),
					    on.s.walk[k],
					    "from %u to %u", j, k);
			KUNIT_EXPECT_EQ(test, on.w.pos, k);
			KUNIT_EXPECT_EQ(test, on.want.calls, fresh.want.calls);
		}
	}
}

/*
 * The record a read stopped on went away (its module was unloaded):
 * the next read counts from the first record.  The ip of a function
 * without a site stands for it.
 */
static void ffk_walk_resume_lost(struct kunit *test)
{
	struct ffk_walker k;
	struct flist_walk *w = &k.w;
	struct ffk_sites *s = &k.s;

	ffk_walker_init(test, &k);
	KUNIT_ASSERT_EQ(test, ffk_walk_to(w, 1), s->walk[1]);
	w->ip = (unsigned long)ffk_untraced;
	KUNIT_EXPECT_EQ(test, ffk_walk_to(w, 2), s->walk[2]);
	KUNIT_EXPECT_EQ(test, w->pos, 2);
	KUNIT_EXPECT_EQ(test, w->ip, s->walk[2]);
}

/* One read that shows every record: to the last, and one step past. */
static void ffk_walk_read_all(struct flist_walk *w)
{
	unsigned int i;

	w->cur = (struct frec_cursor){ };
	mutex_lock(&ftrace_lock);
	flist_walk_to(w, 0);
	for (i = 0; i < FFK_TRACEES; i++)
		flist_walk_next(w);
	mutex_unlock(&ftrace_lock);
}

/* Past the last wanted record: NULL, and @nr is the count. */
static void ffk_walk_past_end(struct kunit *test)
{
	struct ffk_walker k;
	struct flist_walk *w = &k.w;
	struct ffk_sites *s = &k.s;

	ffk_walker_init(test, &k);
	KUNIT_EXPECT_EQ(test, ffk_walk_to(w, FFK_TRACEES), 0);
	KUNIT_EXPECT_EQ(test, w->nr, FFK_TRACEES);
	KUNIT_EXPECT_NULL(test, w->rec);

	ffk_walk_init(w, &k.want);
	KUNIT_EXPECT_EQ(test, ffk_walk_to(w, FFK_TRACEES + 5), 0);
	KUNIT_EXPECT_EQ(test, w->nr, FFK_TRACEES);

	/* Resumed from a record. */
	ffk_walk_init(w, &k.want);
	KUNIT_ASSERT_EQ(test, ffk_walk_to(w, 1), s->walk[1]);
	KUNIT_EXPECT_EQ(test, ffk_walk_to(w, FFK_TRACEES + 2), 0);
	KUNIT_EXPECT_EQ(test, w->nr, FFK_TRACEES);
	KUNIT_EXPECT_NULL(test, w->rec);

	/* The read after one that ran off the end with flist_walk_next(). */
	ffk_walk_init(w, &k.want);
	ffk_walk_read_all(w);
	KUNIT_EXPECT_NULL(test, w->rec);
	KUNIT_EXPECT_EQ(test, ffk_walk_to(w, FFK_TRACEES), 0);
	KUNIT_EXPECT_EQ(test, w->nr, FFK_TRACEES);
}

/*
 * A seq_file calls start at the end of the file on every read there
 * (a reader that reads again after end of file, or tail -f): each of
 * them must find nothing, and a seek back must still work.
 */
static void ffk_walk_past_end_again(struct kunit *test)
{
	struct ffk_walker k;
	struct flist_walk *w = &k.w;
	struct ffk_sites *s = &k.s;
	unsigned int i;

	ffk_walker_init(test, &k);
	ffk_walk_read_all(w);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ_MSG(test, ffk_walk_to(w, FFK_TRACEES), 0,
				    "read %u at the end", i + 2);
		KUNIT_EXPECT_EQ(test, w->nr, FFK_TRACEES);
	}
	KUNIT_EXPECT_EQ(test, ffk_walk_to(w, FFK_TRACEES - 1),
			s->walk[FFK_TRACEES - 1]);
	KUNIT_EXPECT_EQ(test, w->pos, FFK_TRACEES - 1);

	/* From a record straight past the end, twice. */
	ffk_walk_init(w, &k.want);
	KUNIT_ASSERT_EQ(test, ffk_walk_to(w, 0), s->walk[0]);
	for (i = 0; i < 2; i++) {
		KUNIT_EXPECT_EQ_MSG(test, ffk_walk_to(w, FFK_TRACEES), 0,
				    "time %u", i + 1);
		KUNIT_EXPECT_EQ(test, w->nr, FFK_TRACEES);
	}
}

/* ---- frec_resume() ------------------------------------------------- */

struct ffk_resumed {
	struct dyn_ftrace	*rec, *found;	/* resumed; by a plain walk */
	struct dyn_ftrace	*next, *after;	/* stepped to; by the walk */
	unsigned long		rest;		/* records stepped to the end */
	unsigned long		want_rest;	/* records after it, walked */
	unsigned long		ip;		/* the resumed record's */
};

/* frec_resume(@site), then frec_step() to the end; ftrace_lock held. */
static void ffk_resume_locked(unsigned long site, struct ffk_resumed *r)
{
	struct frec_cursor cur = { };
	struct dyn_ftrace *rec;

	frec_for_each(rec) {
		if (r->found && !r->after)
			r->after = rec;
		if (r->found)
			r->want_rest++;
		if (ftrace_rec_ip(rec) == site)
			r->found = rec;
	}
	r->rec = frec_resume(&cur, site);
	r->ip = ffk_ip(r->rec);
	if (!r->rec)
		return;
	r->next = frec_step(&cur);
	for (rec = r->next; rec; rec = frec_step(&cur))
		r->rest++;
}

/*
 * On a record's ip the walk stands on that record, and stepping goes
 * on from there to the last record: one table and the ones after.
 */
static void ffk_resume_on_site(struct kunit *test)
{
	struct ffk_resumed mine = { }, last = { };
	unsigned long last_ip;
	struct ffk_sites s;

	ffk_find_sites(test, &s);
	mutex_lock(&ftrace_lock);
	ffk_resume_locked(s.site[0], &mine);
	last_ip = ffk_ip(frec_at(frec_count() - 1));
	ffk_resume_locked(last_ip, &last);
	mutex_unlock(&ftrace_lock);

	KUNIT_ASSERT_NOT_NULL(test, mine.found);
	KUNIT_EXPECT_PTR_EQ(test, mine.rec, mine.found);
	KUNIT_EXPECT_EQ(test, mine.ip, s.site[0]);
	KUNIT_EXPECT_NOT_NULL(test, mine.next);
	KUNIT_EXPECT_PTR_EQ(test, mine.next, mine.after);
	KUNIT_EXPECT_EQ(test, mine.rest, mine.want_rest);

	/* On the last record there is nothing to step to. */
	KUNIT_ASSERT_NE(test, last_ip, 0);
	KUNIT_EXPECT_PTR_EQ(test, last.rec, last.found);
	KUNIT_EXPECT_NULL(test, last.next);
	KUNIT_EXPECT_EQ(test, last.rest, 0);
}

/* An address that is no record's ip: NULL, and the walk is left as it was. */
static void ffk_resume_not_a_site(struct kunit *test)
{
	struct dyn_ftrace *got[4], *first, *second, *next;
	struct frec_cursor cur = { }, was;
	bool kept = true;
	unsigned long bad[4];
	struct ffk_sites s;
	unsigned int i;

	ffk_find_sites(test, &s);
	bad[0] = s.site[0] + 1;			/* inside a site */
	bad[1] = s.site[0] - 1;			/* just before one */
	bad[2] = (unsigned long)ffk_untraced;	/* a function without one */
	bad[3] = 0;

	mutex_lock(&ftrace_lock);
	first = frec_step(&cur);
	second = frec_at(1);
	was = cur;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		got[i] = frec_resume(&cur, bad[i]);
		kept &= cur.table == was.table && cur.idx == was.idx &&
			cur.started == was.started;
	}
	next = frec_step(&cur);
	mutex_unlock(&ftrace_lock);

	KUNIT_ASSERT_NOT_NULL(test, first);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_NULL_MSG(test, got[i], "%pS", (void *)bad[i]);
	KUNIT_EXPECT_TRUE(test, kept);
	KUNIT_EXPECT_PTR_EQ(test, next, second);
}

/* A walk of one owner's tables only resumes on that owner's records. */
static void ffk_resume_owner(struct kunit *test)
{
	struct module *other = ftk_fake_module(test);
	struct frec_cursor kernel = { .owned = true };
	struct frec_cursor theirs = { .owned = true };
	struct dyn_ftrace *in_kernel, *in_theirs;
	unsigned long ip;
	struct ffk_sites s;

	KUNIT_ASSERT_NOT_NULL(test, other);
	ffk_find_sites(test, &s);
	theirs.mod = other;
	mutex_lock(&ftrace_lock);
	in_kernel = frec_resume(&kernel, s.site[0]);
	ip = ffk_ip(in_kernel);
	in_theirs = frec_resume(&theirs, s.site[0]);
	mutex_unlock(&ftrace_lock);

	KUNIT_EXPECT_EQ(test, ip, s.site[0]);
	KUNIT_EXPECT_NULL(test, in_theirs);
	KUNIT_EXPECT_FALSE(test, theirs.started);
}

static struct kunit_case ffk_cases[] = {
	KUNIT_CASE_PARAM(ffk_match_pattern, ffk_pattern_gen_params),
	KUNIT_CASE(ffk_match_full_name),
	KUNIT_CASE(ffk_match_glob),
	KUNIT_CASE(ffk_match_negate),
	KUNIT_CASE(ffk_match_nothing),
	KUNIT_CASE(ffk_match_index),
	KUNIT_CASE(ffk_each_stops_on_error),
	KUNIT_CASE(ffk_each_calls_every_match),
	KUNIT_CASE(ffk_each_index_error),
	KUNIT_CASE(ffk_walk_fresh),
	KUNIT_CASE(ffk_walk_resume),
	KUNIT_CASE(ffk_walk_resume_back),
	KUNIT_CASE(ffk_walk_resume_lost),
	KUNIT_CASE(ffk_walk_past_end),
	KUNIT_CASE(ffk_walk_past_end_again),
	KUNIT_CASE(ffk_resume_on_site),
	KUNIT_CASE(ffk_resume_not_a_site),
	KUNIT_CASE(ffk_resume_owner),
	{}
};

static struct kunit_suite ffk_suite = {
	.name = "ftrace_filter",
	.test_cases = ffk_cases,
};

kunit_test_suite(ffk_suite);
