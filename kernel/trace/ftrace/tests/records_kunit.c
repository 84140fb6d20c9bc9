// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the records of patch sites (records.c): the
 * address lookups behind ftrace_location() and ftrace_text_reserved(),
 * the name lookups of ftrace_lookup_symbols(), the walks over all
 * records and the accounting that dyn_ftrace_total_info shows,
 * cutting records out of a table that lookups may be reading, and the
 * eight bytes of a record, whose address is 32 bits from _text.  A
 * module's records from load to unload are the ftrace_modules suite's.
 *
 * Unlike the rest of kernel/trace this file is built with the ftrace
 * instrumentation flags, so its functions have real __fentry__ sites
 * to look up; frk_no_site() is notrace and has none.  Nothing here
 * patches code.
 */
#include <kunit/test.h>
#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "../internal.h"
#include "../records.h"
#include "../../trace.h"
#include "kunit_modload.h"

static noinline int frk_site_a(int x)
{
	barrier();
	return x * 3 + 1;
}

static noinline int frk_site_b(int x)
{
	barrier();
	return x * 7 - 2;
}

static noinline notrace int frk_no_site(int x)
{
	barrier();
	return x + 11;
}

static int frk_data[4];

/* Keeps the functions out of line and in the image. */
static int (*const frk_fns[])(int) __used = {
	frk_site_a, frk_site_b, frk_no_site,
};

struct frk_fn {
	unsigned long	start;
	unsigned long	size;
	unsigned long	site;		/* ftrace_location(start) */
};

static void frk_describe(struct kunit *test, int (*fn)(int),
			 struct frk_fn *out)
{
	unsigned long off;

	out->start = (unsigned long)fn;
	KUNIT_ASSERT_TRUE(test, kallsyms_lookup_size_offset(out->start,
							    &out->size, &off));
	KUNIT_ASSERT_EQ(test, off, 0);
	KUNIT_ASSERT_GT(test, out->size, 0);
	out->site = ftrace_location(out->start);
}

/* A function's address leads to its one site, near its start. */
static void frk_location_of_function(struct kunit *test)
{
	struct frk_fn a;

	frk_describe(test, frk_site_a, &a);
	KUNIT_ASSERT_NE(test, a.site, 0);
	KUNIT_EXPECT_GE(test, a.site, a.start);
	KUNIT_EXPECT_LE(test, a.site + MCOUNT_INSN_SIZE, a.start + a.size);
	/*
	 * Prologue before the site: only a few bytes (x86's ENDBR; arm's
	 * frame-pointer prologue, four instructions).
	 */
	KUNIT_EXPECT_LT(test, a.site - a.start, 32);
	KUNIT_EXPECT_EQ(test, ftrace_location(a.site), a.site);
}

/* Every byte of the site stands for it; the byte after it does not. */
static void frk_location_inside_site(struct kunit *test)
{
	struct frk_fn a;
	unsigned long k;

	frk_describe(test, frk_site_a, &a);
	KUNIT_ASSERT_NE(test, a.site, 0);
	for (k = 0; k < MCOUNT_INSN_SIZE; k++)
		KUNIT_EXPECT_EQ_MSG(test, ftrace_location(a.site + k), a.site,
				    "site + %lu", k);
	KUNIT_EXPECT_EQ(test, ftrace_location(a.site + MCOUNT_INSN_SIZE), 0);
	KUNIT_EXPECT_EQ(test, ftrace_location(a.start + a.size - 1), 0);
	/* Between the start and the site: neither sym+0 nor in the site. */
	for (k = 1; a.start + k < a.site; k++)
		KUNIT_EXPECT_EQ_MSG(test, ftrace_location(a.start + k), 0,
				    "start + %lu", k);
}

static void frk_range_with_sites(struct kunit *test)
{
	struct frk_fn a, b, *lo, *hi;
	unsigned long site;

	frk_describe(test, frk_site_a, &a);
	frk_describe(test, frk_site_b, &b);
	KUNIT_ASSERT_NE(test, a.site, 0);
	KUNIT_ASSERT_NE(test, b.site, 0);
	lo = a.start < b.start ? &a : &b;
	hi = a.start < b.start ? &b : &a;

	KUNIT_EXPECT_EQ(test, ftrace_location_range(a.start,
						    a.start + a.size - 1),
			a.site);
	KUNIT_EXPECT_EQ(test, ftrace_location_range(a.site, a.site), a.site);
	KUNIT_EXPECT_EQ(test, ftrace_location_range(a.site +
						    MCOUNT_INSN_SIZE - 1,
						    a.site + MCOUNT_INSN_SIZE - 1),
			a.site);
	/* A range that ends on the site's first byte touches it. */
	KUNIT_EXPECT_EQ(test, ftrace_location_range(a.start, a.site), a.site);
	/* Over both functions: the lower site. */
	KUNIT_EXPECT_EQ(test, ftrace_location_range(lo->start,
						    hi->start + hi->size - 1),
			lo->site);
	/*
	 * From past the lower site to the end of the higher function: a
	 * later site, the higher function's or one of a function the
	 * compiler put between them.
	 */
	site = ftrace_location_range(lo->site + MCOUNT_INSN_SIZE,
				     hi->start + hi->size - 1);
	KUNIT_EXPECT_GT(test, site, lo->site);
	KUNIT_EXPECT_LE(test, site, hi->site);
	KUNIT_EXPECT_EQ(test, ftrace_text_reserved((void *)a.site,
						   (void *)a.site), 1);
	KUNIT_EXPECT_EQ(test, ftrace_text_reserved((void *)a.start,
						   (void *)(a.start + a.size - 1)),
			1);
}

static void frk_range_without_sites(struct kunit *test)
{
	struct frk_fn a, n;

	frk_describe(test, frk_site_a, &a);
	frk_describe(test, frk_no_site, &n);
	KUNIT_ASSERT_NE(test, a.site, 0);

	/* The rest of a function after its site. */
	KUNIT_EXPECT_EQ(test, ftrace_location_range(a.site + MCOUNT_INSN_SIZE,
						    a.start + a.size - 1), 0);
	/* The bytes before the site, if the function has a prologue. */
	if (a.site > a.start)
		KUNIT_EXPECT_EQ(test, ftrace_location_range(a.start,
							    a.site - 1), 0);
	/* A notrace function. */
	KUNIT_EXPECT_EQ(test, ftrace_location_range(n.start,
						    n.start + n.size - 1), 0);
	KUNIT_EXPECT_EQ(test, ftrace_text_reserved((void *)n.start,
						   (void *)(n.start + n.size - 1)),
			0);
	KUNIT_EXPECT_EQ(test, ftrace_text_reserved((void *)(a.site +
							    MCOUNT_INSN_SIZE),
						   (void *)(a.start + a.size - 1)),
			0);
}

static void frk_lookup_failures(struct kunit *test)
{
	unsigned long data = (unsigned long)frk_data;
	struct frk_fn a;

	frk_describe(test, frk_site_a, &a);
	KUNIT_EXPECT_EQ(test, ftrace_location(0), 0);
	KUNIT_EXPECT_EQ(test, ftrace_location(ULONG_MAX), 0);
	KUNIT_EXPECT_EQ(test, ftrace_location(data), 0);
	KUNIT_EXPECT_EQ(test, ftrace_location_range(data,
						    data + sizeof(frk_data) - 1),
			0);
	KUNIT_EXPECT_EQ(test, ftrace_location((unsigned long)frk_no_site), 0);
	KUNIT_EXPECT_EQ(test, ftrace_location_range(0, 4095), 0);
	KUNIT_EXPECT_EQ(test, ftrace_location_range(ULONG_MAX - 4095,
						    ULONG_MAX), 0);
	/* An empty range (end before start) holds nothing. */
	KUNIT_EXPECT_EQ(test, ftrace_location_range(a.site + 1, a.site), 0);
	KUNIT_EXPECT_NULL(test, frec_lookup(a.site + 1, a.site));
	KUNIT_EXPECT_EQ(test, ftrace_text_reserved((void *)data,
						   (void *)(data + 1)), 0);
}

struct frk_walk {
	unsigned long	walked;		/* frec_for_each() */
	unsigned long	arch;		/* for_ftrace_rec_iter() */
	unsigned long	mine;		/* times frk_site_a()'s site was seen */
	unsigned long	bad;		/* out of order, not found, wrong frec_at() */
	unsigned long	entries, pages, groups;	/* dyn_ftrace_total_info */
	bool		at_end;		/* frec_at() past the last is NULL */
};

/* Everything is counted under ftrace_lock, the checks come after. */
static void frk_walk_all(struct frk_walk *w, unsigned long site)
{
	struct frec_table *last = NULL;
	struct frec_cursor cur = { };
	struct ftrace_rec_iter *iter;
	struct dyn_ftrace *rec;
	unsigned long n = 0, prev = 0, ip;

	mutex_lock(&ftrace_lock);
	frec_for_each(rec) {
		w->walked++;
		if (ftrace_rec_ip(rec) == site)
			w->mine++;
	}
	for_ftrace_rec_iter(iter)
		w->arch++;

	/* Ascending within each table; each record is its own location. */
	while ((rec = frec_step(&cur))) {
		ip = ftrace_rec_ip(rec);
		if (cur.table == last && ip <= prev)
			w->bad++;
		if (ftrace_location_range(ip, ip) != ip)
			w->bad++;
		if (frec_at(n++) != rec)
			w->bad++;
		last = cur.table;
		prev = ip;
	}
	w->at_end = !frec_at(n);
	w->entries = ftrace_update_tot_cnt;
	w->pages = ftrace_number_of_pages;
	w->groups = ftrace_number_of_groups;
	mutex_unlock(&ftrace_lock);
}

/*
 * Both walks see each record once, as many as dyn_ftrace_total_info
 * counts, each found again by its own address and its position, and
 * our site among them.
 */
static void frk_walks_match_accounting(struct kunit *test)
{
	unsigned long site = ftrace_location((unsigned long)frk_site_a);
	struct frk_walk w = { };

	KUNIT_ASSERT_NE(test, site, 0);
	frk_walk_all(&w, site);
	KUNIT_EXPECT_GT(test, w.entries, 0);
	KUNIT_EXPECT_EQ(test, w.walked, w.entries);
	KUNIT_EXPECT_EQ(test, w.arch, w.entries);
	KUNIT_EXPECT_EQ(test, w.mine, 1);
	KUNIT_EXPECT_EQ(test, w.bad, 0);
	KUNIT_EXPECT_TRUE(test, w.at_end);
	/* The arrays take at least the pages their records fill. */
	KUNIT_EXPECT_GE(test, w.pages * PAGE_SIZE,
			w.walked * sizeof(struct dyn_ftrace));
	KUNIT_EXPECT_GE(test, w.groups, 1);
}

/* The bytes the allocator gave for @recs, as the allocator says. */
static size_t frk_alloc_bytes(const void *recs)
{
	if (is_vmalloc_addr(recs))
		return find_vm_area(recs)->nr_pages << PAGE_SHIFT;
	return ksize(recs);
}

/*
 * dyn_ftrace_total_info counts the pages the tables' arrays take as
 * their allocator reports them, and no array takes a page more than
 * its records fill: records cost their eight bytes, not the power of
 * two of pages a large kmalloc would round them up to.
 */
static void frk_table_bytes(struct kunit *test)
{
	unsigned long bytes = 0, tables = 0, bad = 0, pages, groups;
	struct frec_table *last = NULL;
	struct frec_cursor cur = { };
	size_t got, need;

	mutex_lock(&ftrace_lock);
	while (frec_step(&cur)) {
		if (cur.table == last)
			continue;
		last = cur.table;
		tables++;
		got = frk_alloc_bytes(last->recs);
		need = last->cap * sizeof(struct dyn_ftrace);
		bytes += got;
		if (got != last->bytes || got < need || got >= need + PAGE_SIZE)
			bad++;
	}
	pages = ftrace_number_of_pages;
	groups = ftrace_number_of_groups;
	mutex_unlock(&ftrace_lock);

	KUNIT_EXPECT_GE(test, tables, 1);
	KUNIT_EXPECT_EQ(test, tables, groups);
	KUNIT_EXPECT_EQ(test, bad, 0);
	KUNIT_EXPECT_EQ(test, pages, DIV_ROUND_UP(bytes, PAGE_SIZE));
}

static const char * const frk_both[] = { "frk_site_a", "frk_site_b" };
static const char * const frk_mixed[] = {
	"frk_no_site", "frk_site_a", "frk_zz_no_such_function",
};

static const char * const frk_twice[] = { "frk_site_b", "frk_site_b" };

/* It only reads the names, though its prototype does not say so. */
static int frk_lookup(const char * const *names, size_t cnt,
		      unsigned long *addrs)
{
	return ftrace_lookup_symbols((const char **)names, cnt, addrs);
}

/* Names to patch sites, for fprobe and kprobe_multi. */
static void frk_lookup_symbols(struct kunit *test)
{
	unsigned long addrs[3];

	memset(addrs, 0xff, sizeof(addrs));
	KUNIT_EXPECT_EQ(test, frk_lookup(frk_both, 2, addrs), 0);
	KUNIT_EXPECT_EQ(test, addrs[0], (unsigned long)frk_site_a);
	KUNIT_EXPECT_EQ(test, addrs[1], (unsigned long)frk_site_b);
	KUNIT_EXPECT_EQ(test, addrs[2], ULONG_MAX);	/* beyond cnt */

	/* Untraceable and unknown names stay 0; the rest resolve. */
	KUNIT_EXPECT_EQ(test, frk_lookup(frk_mixed, 3, addrs), -ESRCH);
	KUNIT_EXPECT_EQ(test, addrs[0], 0);
	KUNIT_EXPECT_EQ(test, addrs[1], (unsigned long)frk_site_a);
	KUNIT_EXPECT_EQ(test, addrs[2], 0);

	/* A name given twice resolves neither time. */
	KUNIT_EXPECT_EQ(test, frk_lookup(frk_twice, 2, addrs), -ESRCH);
	KUNIT_EXPECT_EQ(test, addrs[0], 0);
	KUNIT_EXPECT_EQ(test, addrs[1], 0);

	KUNIT_EXPECT_EQ(test, frk_lookup(frk_both, 0, addrs), 0);
}

#define FRK_CUT_NR	4
#define FRK_CUT_STEP	16

struct frk_cut {
	unsigned long	grown;		/* records added by the publish */
	unsigned long	cut;		/* records the cut took out */
	unsigned long	retired;	/* calls of the retire callback */
	unsigned long	left;		/* records the owner kept */
	unsigned long	end;		/* total after the owner went */
	bool		whole;		/* all sites found before the cut */
	bool		gap;		/* none found in the cut range after */
	bool		edges;		/* first and last found after */
	struct frec_table *old, *rest;
};

/*
 * A fake module owning the sites of a buffer of ours, listed in @locs
 * as its __mcount_loc would: records built over them are never patched.
 * The buffer is in the kernel image, as a record can only name an
 * address within 2 GiB of _text; one fake at a time uses it.  A site is
 * where ftrace_call_adjust() puts an entry (arm64: past the NOPs before
 * the BL), so @base is the adjusted address of the buffer's start.
 */
static u8 frk_text[FRK_CUT_NR * FRK_CUT_STEP] __aligned(16);

struct frk_fake {
	struct module	*owner;
	unsigned long	base;		/* the buffer, site 0 */
	unsigned long	locs[FRK_CUT_NR];
};

/*
 * With @backwards the sites are listed from the highest down, as a
 * module's unsorted __mcount_loc may be, for frec_build() to sort.
 */
static void frk_fake_init(struct kunit *test, struct frk_fake *f,
			  bool backwards)
{
	unsigned int i, k;

	f->owner = ftk_fake_module(test);
	KUNIT_ASSERT_NOT_NULL(test, f->owner);
	f->base = ftrace_call_adjust((unsigned long)frk_text);
	for (i = 0; i < FRK_CUT_NR; i++) {
		k = backwards ? FRK_CUT_NR - 1 - i : i;
		f->locs[i] = (unsigned long)frk_text + k * FRK_CUT_STEP;
	}
}

static void frk_count_retired(struct dyn_ftrace *rec, void *arg)
{
	(*(unsigned long *)arg)++;
}

/*
 * Publish the fake table, cut its middle, drop it; ftrace_lock held.
 * With @nomem the copy the cut makes fails to allocate.
 */
static void frk_cut_locked(struct module *owner, unsigned long base,
			   struct list_head *tables, struct frk_cut *c,
			   bool nomem)
{
	unsigned long last = base + (FRK_CUT_NR - 1) * FRK_CUT_STEP;
	unsigned long before = ftrace_update_tot_cnt, mid;
	struct dyn_ftrace *rec, *lo, *hi;

	frec_publish(tables);
	c->grown = ftrace_update_tot_cnt - before;
	lo = frec_lookup(base, base);
	hi = frec_lookup(last, last);
	c->whole = lo && ftrace_rec_ip(lo) == base && hi && ftrace_rec_ip(hi) == last;

	/* Sites 1 .. NR-2: from inside site 1 to inside site NR-2. */
	mid = ftrace_update_tot_cnt;
	if (nomem)
		WRITE_ONCE(frec_alloc_fails_for, owner);
	c->old = frec_remove_range(base + FRK_CUT_STEP + 1, last - 1,
				   frk_count_retired, &c->retired);
	WRITE_ONCE(frec_alloc_fails_for, NULL);
	c->cut = mid - ftrace_update_tot_cnt;
	c->gap = !frec_lookup(base + MCOUNT_INSN_SIZE, last - 1);
	lo = frec_lookup(base, base);
	hi = frec_lookup(last, last);
	c->edges = lo && ftrace_rec_ip(lo) == base && hi && ftrace_rec_ip(hi) == last;

	frec_for_each_owned(owner, rec)
		c->left++;
	c->rest = frec_remove_owner(owner);
	c->end = ftrace_update_tot_cnt - before;
}

/*
 * Cutting records out of the middle of a table leaves the rest to the
 * lookups and the old table intact for lookups that were inside it;
 * or, when the copy cannot be allocated (@nomem), moves the rest in
 * place.  The owner is a fake module and the sites lie in a buffer of
 * ours: nothing is patched, and ftrace_lock stays held while they are
 * live so that no walk of the core meets them.
 */
static void frk_cut_run(struct kunit *test, bool nomem)
{
	struct frk_cut c = { };
	struct frk_fake f;
	LIST_HEAD(tables);
	unsigned int i;

	frk_fake_init(test, &f, true);
	KUNIT_ASSERT_EQ(test, frec_build(f.owner, f.locs, f.locs + FRK_CUT_NR,
					 &tables), 0);
	KUNIT_ASSERT_TRUE(test, list_is_singular(&tables));

	mutex_lock(&ftrace_lock);
	frk_cut_locked(f.owner, f.base, &tables, &c, nomem);
	mutex_unlock(&ftrace_lock);

	KUNIT_EXPECT_EQ(test, c.grown, FRK_CUT_NR);
	KUNIT_EXPECT_TRUE(test, c.whole);
	KUNIT_EXPECT_EQ(test, c.cut, FRK_CUT_NR - 2);
	KUNIT_EXPECT_EQ(test, c.retired, FRK_CUT_NR - 2);
	KUNIT_EXPECT_TRUE(test, c.gap);
	KUNIT_EXPECT_TRUE(test, c.edges);
	KUNIT_EXPECT_EQ(test, c.left, 2);
	KUNIT_EXPECT_EQ(test, c.end, 0);

	/* Without memory the table was cut in place: nothing replaced. */
	if (nomem)
		KUNIT_EXPECT_NULL(test, c.old);
	/* The replaced table, as a reader inside it still sees it. */
	else
		KUNIT_EXPECT_NOT_NULL(test, c.old);
	if (c.old) {
		KUNIT_EXPECT_NULL(test, c.old->next_dead);
		KUNIT_EXPECT_EQ(test, c.old->nr, FRK_CUT_NR);
		for (i = 0; i < c.old->nr; i++)
			KUNIT_EXPECT_EQ(test, ftrace_rec_ip(&c.old->recs[i]),
					f.base + i * FRK_CUT_STEP);
	}
	KUNIT_EXPECT_NOT_NULL(test, c.rest);
	if (c.rest) {
		KUNIT_EXPECT_EQ(test, c.rest->nr, 2);
		KUNIT_EXPECT_EQ(test, ftrace_rec_ip(&c.rest->recs[0]), f.base);
	}
	frec_free_dead(c.old);
	frec_free_dead(c.rest);
}

static void frk_cut_middle(struct kunit *test)
{
	frk_cut_run(test, false);
}

static void frk_cut_middle_nomem(struct kunit *test)
{
	frk_cut_run(test, true);
}

/* Without memory frec_build() makes nothing and counts nothing. */
static void frk_build_nomem(struct kunit *test)
{
	unsigned long recs, pages, groups;
	struct frk_fake f;
	LIST_HEAD(tables);

	frk_fake_init(test, &f, false);

	mutex_lock(&ftrace_lock);
	recs = ftrace_update_tot_cnt;
	pages = ftrace_number_of_pages;
	groups = ftrace_number_of_groups;
	mutex_unlock(&ftrace_lock);

	WRITE_ONCE(frec_alloc_fails_for, f.owner);
	KUNIT_EXPECT_EQ(test, frec_build(f.owner, f.locs, f.locs + FRK_CUT_NR,
					 &tables), -ENOMEM);
	WRITE_ONCE(frec_alloc_fails_for, NULL);
	KUNIT_EXPECT_TRUE(test, list_empty(&tables));

	mutex_lock(&ftrace_lock);
	KUNIT_EXPECT_EQ(test, ftrace_update_tot_cnt, recs);
	KUNIT_EXPECT_EQ(test, ftrace_number_of_pages, pages);
	KUNIT_EXPECT_EQ(test, ftrace_number_of_groups, groups);
	mutex_unlock(&ftrace_lock);
	KUNIT_EXPECT_EQ(test, ftrace_location(f.base), 0);
}

/*
 * A record takes eight bytes (the arch keeps nothing more on x86), and
 * names any address within 32 bits of _text and no other: a site that
 * far off is refused and leaves the record as it was.
 */
static void frk_record_size(struct kunit *test)
{
	unsigned long text = (unsigned long)_text;
	struct dyn_ftrace rec = { .flags = 7 };
	void *far;

	KUNIT_EXPECT_EQ(test, sizeof(struct dyn_ftrace),
			8 + sizeof(struct dyn_arch_ftrace));
	if (IS_ENABLED(CONFIG_X86_64))
		KUNIT_EXPECT_EQ(test, sizeof(struct dyn_ftrace), 8);

	KUNIT_EXPECT_TRUE(test, ftrace_rec_set_ip(&rec, text + S32_MAX));
	KUNIT_EXPECT_EQ(test, ftrace_rec_ip(&rec), text + S32_MAX);
	KUNIT_EXPECT_TRUE(test, ftrace_rec_set_ip(&rec, text + S32_MIN));
	KUNIT_EXPECT_EQ(test, ftrace_rec_ip(&rec), text + S32_MIN);
	KUNIT_EXPECT_TRUE(test, ftrace_rec_set_ip(&rec, (unsigned long)frk_site_a));
	KUNIT_EXPECT_EQ(test, ftrace_rec_ip(&rec), (unsigned long)frk_site_a);

	if (BITS_PER_LONG == 64) {
		KUNIT_EXPECT_FALSE(test,
				   ftrace_rec_set_ip(&rec, text + S32_MAX + 1UL));
		KUNIT_EXPECT_FALSE(test,
				   ftrace_rec_set_ip(&rec, text + S32_MIN - 1UL));
	} else {
		/* Any 32-bit address is an offset from _text, one way round. */
		far = (void *)(text + S32_MAX + 1UL);
		KUNIT_EXPECT_TRUE(test,
				  ftrace_rec_set_ip(&rec, (unsigned long)far));
		KUNIT_EXPECT_EQ(test, ftrace_rec_ip(&rec), (unsigned long)far);
		ftrace_rec_set_ip(&rec, (unsigned long)frk_site_a);
	}
	/* The direct map, where kmalloc() memory lies, is far from text. */
	far = kunit_kmalloc(test, 16, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, far);
	if (IS_ENABLED(CONFIG_X86_64))
		KUNIT_EXPECT_FALSE(test, ftrace_rec_set_ip(&rec, (unsigned long)far));
	KUNIT_EXPECT_EQ(test, ftrace_rec_ip(&rec), (unsigned long)frk_site_a);
	KUNIT_EXPECT_EQ(test, rec.flags, 7U);
}

static struct kunit_case frk_cases[] = {
	KUNIT_CASE(frk_location_of_function),
	KUNIT_CASE(frk_location_inside_site),
	KUNIT_CASE(frk_range_with_sites),
	KUNIT_CASE(frk_range_without_sites),
	KUNIT_CASE(frk_lookup_failures),
	KUNIT_CASE(frk_lookup_symbols),
	KUNIT_CASE(frk_walks_match_accounting),
	KUNIT_CASE(frk_table_bytes),
	KUNIT_CASE(frk_cut_middle),
	KUNIT_CASE(frk_cut_middle_nomem),
	KUNIT_CASE(frk_build_nomem),
	KUNIT_CASE(frk_record_size),
	{}
};

static struct kunit_suite frk_suite = {
	.name = "ftrace_records",
	.test_cases = frk_cases,
};

kunit_test_suite(frk_suite);
