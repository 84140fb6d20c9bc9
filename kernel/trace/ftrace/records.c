// SPDX-License-Identifier: GPL-2.0
/*
 * The records of patch sites, their tables and the address lookups
 * over them.  See records.h for the layout and the locking.
 */
#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "internal.h"
#include "records.h"
#include "../trace.h"

/*
 * The live tables: the kernel's first (it is added before any module
 * can load), then each module's in load order.  Changed under
 * ftrace_lock, read under it or under RCU.
 */
static LIST_HEAD(frec_tables);

/*
 * What dyn_ftrace_total_info shows; changed under ftrace_lock.  The
 * pages are the bytes the live tables' arrays really take (as their
 * allocator gave them, frec_alloc_recs()), rounded up once.
 */
unsigned long ftrace_update_tot_cnt;	/* records in live tables */
unsigned long ftrace_number_of_pages;	/* pages their arrays take */
unsigned long ftrace_number_of_groups;	/* live tables (allocations) */
static unsigned long frec_bytes;	/* bytes their arrays take */

#define frec_live(t)							\
	list_for_each_entry_rcu(t, &frec_tables, node,			\
				lockdep_is_held(&ftrace_lock))

static void frec_account(const struct frec_table *t, int sign)
{
	lockdep_assert_held(&ftrace_lock);
	ftrace_update_tot_cnt += sign * (long)t->nr;
	frec_bytes += sign * (long)t->bytes;
	ftrace_number_of_pages = DIV_ROUND_UP(frec_bytes, PAGE_SIZE);
	ftrace_number_of_groups += sign;
}

/*
 * Index of the first of the @nr sorted @recs whose site ends after
 * @addr: the only one that can contain @addr and the lowest that can
 * lie beyond it; @nr when there is none.  Sites do not overlap, so
 * their ends ascend with their starts.
 */
static unsigned int frec_index_after(const struct dyn_ftrace *recs,
				     unsigned int nr, unsigned long addr)
{
	unsigned int below = 0, above = nr;

	while (below < above) {
		unsigned int probe = below + (above - below) / 2;

		if (ftrace_rec_ip(&recs[probe]) + MCOUNT_INSN_SIZE > addr)
			above = probe;
		else
			below = probe + 1;
	}
	return below;
}

/* The lowest record of @t whose site overlaps [@start, @end], or NULL. */
static struct dyn_ftrace *frec_table_lookup(struct frec_table *t,
					    unsigned long start,
					    unsigned long end)
{
	struct dyn_ftrace *recs = READ_ONCE(t->recs);
	unsigned int nr = READ_ONCE(t->nr);
	unsigned int i = frec_index_after(recs, nr, start);

	if (i == nr || ftrace_rec_ip(&recs[i]) > end)
		return NULL;
	return &recs[i];
}

/**
 * frec_lookup - the record of the first site that overlaps a range
 * @start: first byte of the range
 * @end: last byte of the range (inclusive)
 *
 * Hold ftrace_lock to use the record beyond its ip; rcu_read_lock()
 * is enough to read its ip.
 *
 * Return: of the records whose MCOUNT_INSN_SIZE bytes at ip share a
 * byte with [@start, @end], the one with the lowest ip; NULL if none.
 */
struct dyn_ftrace *frec_lookup(unsigned long start, unsigned long end)
{
	struct dyn_ftrace *best = NULL, *rec;
	struct frec_table *t;

	if (end < start)
		return NULL;
	frec_live(t) {
		rec = frec_table_lookup(t, start, end);
		if (rec && (!best || ftrace_rec_ip(rec) < ftrace_rec_ip(best)))
			best = rec;
	}
	return best;
}

/**
 * ftrace_location_range - the first patch site inside a range of text
 * @start: first byte of the range
 * @end: last byte of the range (inclusive)
 *
 * Return: the address of the lowest __fentry__ site (the NOP or call
 * the tracer patches) that has at least one byte in [@start, @end], or
 * 0 if the range touches none.
 */
unsigned long ftrace_location_range(unsigned long start, unsigned long end)
{
	struct dyn_ftrace *rec;
	unsigned long ip;

	rcu_read_lock();
	rec = frec_lookup(start, end);
	ip = rec ? ftrace_rec_ip(rec) : 0;
	rcu_read_unlock();
	return ip;
}

/**
 * ftrace_location - the patch site an address stands for
 * @ip: an address in kernel or module text
 *
 * Return: the site's address if @ip is one of its bytes; the site of
 * the function if @ip is where a function starts (its site may come
 * after an ENDBR or other prologue); otherwise 0.
 */
unsigned long ftrace_location(unsigned long ip)
{
	unsigned long site = ftrace_location_range(ip, ip);
	unsigned long len, off;

	if (site)
		return site;
	if (!kallsyms_lookup_size_offset(ip, &len, &off) || off || !len)
		return 0;
	return ftrace_location_range(ip, ip + len - 1);
}

/**
 * ftrace_text_reserved - does a range of text hold a patch site?
 * @start: first byte of the range
 * @end: last byte of the range (inclusive)
 *
 * Other text patchers (kprobes, static calls) must keep off ftrace's
 * sites.
 *
 * Return: 1 if some site has a byte in [@start, @end], else 0.
 */
int ftrace_text_reserved(const void *start, const void *end)
{
	return ftrace_location_range((unsigned long)start,
				     (unsigned long)end) != 0;
}

/* The next live table after @t (NULL: the first), of @cur's owner if set. */
static struct frec_table *frec_next_table(struct frec_cursor *cur,
					  struct frec_table *t)
{
	struct list_head *pos = t ? t->node.next : frec_tables.next;

	for (; pos != &frec_tables; pos = pos->next) {
		t = list_entry(pos, struct frec_table, node);
		if (t->nr && (!cur->owned || t->mod == cur->mod))
			return t;
	}
	return NULL;
}

/**
 * frec_step - move a walk to the next record
 * @cur: the walk; zero-initialised (with .owned and .mod if wanted)
 *       before the first step
 *
 * Return: the record the walk now stands on, NULL when it is done.
 * Callers hold ftrace_lock, or run where its holder waits for them
 * (the arch's code update under stop_machine()).
 */
struct dyn_ftrace *frec_step(struct frec_cursor *cur)
{
	if (!cur->started) {
		cur->started = true;
		cur->table = frec_next_table(cur, NULL);
		cur->idx = 0;
	} else if (cur->table && ++cur->idx >= cur->table->nr) {
		cur->table = frec_next_table(cur, cur->table);
		cur->idx = 0;
	}
	return cur->table ? &cur->table->recs[cur->idx] : NULL;
}

/**
 * frec_resume - put a walk back on the record of a site
 * @cur: the walk; its owner filter is kept
 * @ip: the site
 *
 * A walk cannot outlive an ftrace_lock hold; this finds its place
 * again in a later one.  Needs ftrace_lock.
 *
 * Return: the record at @ip, now @cur's current one; NULL if no live
 * table of the walk holds @ip (@cur is then left as it was).
 */
struct dyn_ftrace *frec_resume(struct frec_cursor *cur, unsigned long ip)
{
	struct frec_table *t = NULL;
	struct dyn_ftrace *rec;

	while ((t = frec_next_table(cur, t))) {
		rec = frec_table_lookup(t, ip, ip);
		if (rec && ftrace_rec_ip(rec) == ip) {
			cur->table = t;
			cur->idx = rec - t->recs;
			cur->started = true;
			return rec;
		}
	}
	return NULL;
}

/**
 * frec_at - the record at a position of the walk over all records
 * @n: zero-based position, as in available_filter_functions
 *
 * Return: the record, or NULL if there are @n records or fewer.
 */
struct dyn_ftrace *frec_at(unsigned long n)
{
	struct frec_table *t;

	lockdep_assert_held(&ftrace_lock);
	list_for_each_entry(t, &frec_tables, node) {
		if (n < t->nr)
			return &t->recs[n];
		n -= t->nr;
	}
	return NULL;
}

/* How many records the live tables hold. */
unsigned long frec_count(void)
{
	return READ_ONCE(ftrace_update_tot_cnt);
}

/* The arch's walk (for_ftrace_rec_iter()) is a frec walk in disguise. */
struct ftrace_rec_iter {
	struct frec_cursor	cur;
	struct dyn_ftrace	*rec;
};

/* One arch walk at a time: its users hold ftrace_lock. */
static struct ftrace_rec_iter frec_arch_iter;

/**
 * ftrace_rec_iter_start - begin the arch's walk over all records
 *
 * Return: the walk standing on the first record, or NULL if there are
 * no records.
 */
struct ftrace_rec_iter *ftrace_rec_iter_start(void)
{
	memset(&frec_arch_iter, 0, sizeof(frec_arch_iter));
	return ftrace_rec_iter_next(&frec_arch_iter);
}

/**
 * ftrace_rec_iter_next - move the arch's walk to the next record
 * @iter: the walk
 *
 * Return: @iter, or NULL once every record has been visited.
 */
struct ftrace_rec_iter *ftrace_rec_iter_next(struct ftrace_rec_iter *iter)
{
	iter->rec = frec_step(&iter->cur);
	return iter->rec ? iter : NULL;
}

/**
 * ftrace_rec_iter_record - the record the arch's walk stands on
 * @iter: the walk
 *
 * Return: the record.
 */
struct dyn_ftrace *ftrace_rec_iter_record(struct ftrace_rec_iter *iter)
{
	return iter->rec;
}

static int frec_cmp_addr(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/*
 * vmlinux's table is sorted at build time (BUILDTIME_MCOUNT_SORT)
 * while a module's is not; checking is cheaper than sorting again.
 * FTRACE_SORT_STARTUP_TEST asks to hear about a build-time sort that
 * went wrong: the table still gets sorted here.
 */
static void frec_sort_locs(struct module *mod, unsigned long *locs,
			   unsigned long n)
{
	unsigned long i;

	for (i = 1; i < n; i++) {
		if (locs[i - 1] > locs[i]) {
			WARN(!mod && IS_ENABLED(CONFIG_FTRACE_SORT_STARTUP_TEST),
			     "ftrace: the kernel's __mcount_loc is not sorted at %lu\n",
			     i);
			sort(locs, n, sizeof(*locs), frec_cmp_addr, NULL);
			return;
		}
	}
}

/*
 * The site an __mcount_loc entry names, or 0 to skip it: linkers pad
 * between the sections of object files with zeroes, and the kernel's
 * entries for discarded weak functions point outside its text.
 */
static unsigned long frec_site(struct module *mod, unsigned long loc)
{
	struct dyn_ftrace probe;

	if (!loc)
		return 0;
	if (!mod && !is_kernel_text(loc) && !is_kernel_inittext(loc))
		return 0;
	loc = ftrace_call_adjust(loc);
	/*
	 * A record holds 32 bits of it (see struct dyn_ftrace).  Not a
	 * WARN: where an arch puts modules further away (powerpc64's are
	 * in vmalloc space), every boot that loads one gets here.
	 */
	if (!ftrace_rec_set_ip(&probe, loc)) {
		pr_warn_once("ftrace: site %pS more than 2 GiB from _text, not traced\n",
			     (void *)loc);
		return 0;
	}
	return loc;
}

static bool frec_in_init(struct module *mod, unsigned long ip)
{
	return mod ? within_module_init(ip, mod) : is_kernel_inittext(ip);
}

#ifdef CONFIG_FTRACE_RECORDS_KUNIT_TEST
/*
 * The KUnit suite points this at a fake owner of its own, to have that
 * owner's tables fail to allocate as if memory had run out.
 */
struct module *frec_alloc_fails_for;
#endif

/*
 * An array of @cap records: a kmalloc'ed block below a page, else
 * vmalloc'ed pages, exactly as many as the records fill (a kmalloc of
 * that size would take the next power of two of pages).  *@bytes is set
 * to what the allocator gave.
 */
static struct dyn_ftrace *frec_alloc_recs(unsigned int cap, size_t *bytes)
{
	size_t size = array_size(cap, sizeof(struct dyn_ftrace));
	struct dyn_ftrace *recs;

	if (size < PAGE_SIZE) {
		*bytes = kmalloc_size_roundup(size);
		return kzalloc(*bytes, GFP_KERNEL);
	}
	recs = vzalloc(size);
	*bytes = recs ? find_vm_area(recs)->nr_pages << PAGE_SHIFT : 0;
	return recs;
}

static struct frec_table *frec_alloc_table(struct module *mod, bool init,
					   unsigned int cap)
{
	struct frec_table *t;

#ifdef CONFIG_FTRACE_RECORDS_KUNIT_TEST
	if (mod && READ_ONCE(frec_alloc_fails_for) == mod)
		return NULL;
#endif
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return NULL;
	t->recs = frec_alloc_recs(cap, &t->bytes);
	if (!t->recs) {
		kfree(t);
		return NULL;
	}
	t->mod = mod;
	t->init = init;
	t->cap = cap;
	return t;
}

static void frec_free_table(struct frec_table *t)
{
	kvfree(t->recs);
	kfree(t);
}

/* Append @ip, which must come after every record already in @t. */
static void frec_append(struct frec_table *t, unsigned long ip)
{
	if (WARN_ON_ONCE(t->nr == t->cap))
		return;
	/* Equal entries would be one site recorded twice. */
	if (t->nr && ftrace_rec_ip(&t->recs[t->nr - 1]) >= ip)
		return;
	ftrace_rec_set_ip(&t->recs[t->nr++], ip);
}

/**
 * frec_build - make the tables for a block of __mcount_loc entries
 * @mod: the module the entries belong to, NULL for the kernel image
 * @start: first entry; the entries are sorted in place
 * @end: one past the last entry
 * @tables: empty list that receives the new tables (at most two: text
 *          and init text), not yet live
 *
 * Needs no lock; it may sleep.  The records' flags are all zero.
 *
 * Return: 0, or -ENOMEM with @tables left empty.
 */
int frec_build(struct module *mod, unsigned long *start, unsigned long *end,
	       struct list_head *tables)
{
	struct frec_table *part[2] = { };	/* [0] text, [1] init text */
	unsigned int want[2] = { };
	unsigned long *loc, ip;
	int i;

	frec_sort_locs(mod, start, end - start);

	for (loc = start; loc < end; loc++) {
		ip = frec_site(mod, *loc);
		if (ip)
			want[frec_in_init(mod, ip)]++;
	}

	for (i = 0; i < 2; i++) {
		if (!want[i])
			continue;
		part[i] = frec_alloc_table(mod, i, want[i]);
		if (!part[i])
			goto nomem;
	}

	for (loc = start; loc < end; loc++) {
		ip = frec_site(mod, *loc);
		if (ip)
			frec_append(part[frec_in_init(mod, ip)], ip);
	}

	for (i = 0; i < 2; i++) {
		if (part[i])
			list_add_tail(&part[i]->node, tables);
	}
	return 0;

nomem:
	for (i = 0; i < 2; i++) {
		if (part[i])
			frec_free_table(part[i]);
	}
	return -ENOMEM;
}

/**
 * frec_publish - make tables from frec_build() live
 * @tables: the list frec_build() filled; it is left empty
 *
 * Called with ftrace_lock held.  Lookups see the new records at once,
 * so the caller initialises their flags before it drops the lock.
 */
void frec_publish(struct list_head *tables)
{
	struct frec_table *t, *tmp;

	lockdep_assert_held(&ftrace_lock);
	list_for_each_entry_safe(t, tmp, tables, node) {
		list_del(&t->node);
		list_add_tail_rcu(&t->node, &frec_tables);
		frec_account(t, 1);
	}
}

/* Take @t out of the live list onto the chain *@dead. */
static void frec_detach(struct frec_table *t, struct frec_table **dead)
{
	list_del_rcu(&t->node);
	frec_account(t, -1);
	t->next_dead = *dead;
	*dead = t;
}

/**
 * frec_remove_owner - take the tables of a module out of the live list
 * @mod: the module going away
 *
 * Called with ftrace_lock held.  Lookups under RCU may still see the
 * tables until frec_free_dead() has waited for them.
 *
 * Return: the detached tables, chained by next_dead (NULL if none).
 */
struct frec_table *frec_remove_owner(struct module *mod)
{
	struct frec_table *t, *tmp, *dead = NULL;

	lockdep_assert_held(&ftrace_lock);
	if (WARN_ON_ONCE(!mod))
		return NULL;
	list_for_each_entry_safe(t, tmp, &frec_tables, node) {
		if (t->mod == mod)
			frec_detach(t, &dead);
	}
	return dead;
}

/*
 * Drop records [@first, @last) of the live table @t, which keeps some.
 * Lookups under RCU may be reading @t, so the survivors go to a new
 * table that replaces it in the list, and @t joins the chain *@dead
 * intact.  Only if that allocation fails are the records moved within
 * @t, where a racing lookup may briefly miss one that stays: better
 * than keeping records of freed text.
 */
static void frec_cut(struct frec_table *t, unsigned int first,
		     unsigned int last, struct frec_table **dead)
{
	unsigned int gap = last - first, keep = t->nr - gap;
	struct frec_table *n = frec_alloc_table(t->mod, t->init, keep);

	if (!n) {
		memmove(&t->recs[first], &t->recs[last],
			(t->nr - last) * sizeof(*t->recs));
		WRITE_ONCE(t->nr, keep);
		ftrace_update_tot_cnt -= gap;
		return;
	}
	memcpy(n->recs, t->recs, first * sizeof(*t->recs));
	memcpy(&n->recs[first], &t->recs[last],
	       (t->nr - last) * sizeof(*t->recs));
	n->nr = keep;
	list_replace_rcu(&t->node, &n->node);
	frec_account(t, -1);
	frec_account(n, 1);
	t->next_dead = *dead;
	*dead = t;
}

/**
 * frec_remove_range - drop the records of text that is being freed
 * @start: first byte of the text
 * @end: last byte of the text (inclusive)
 * @retire: called for each record dropped, before it goes (may be NULL)
 * @arg: passed to @retire
 *
 * Called with ftrace_lock held.  A table left with no records is
 * detached whole, as frec_remove_owner() does; one that keeps some is
 * replaced by a copy of what it keeps.  Records of the affected
 * tables may move: do not hold on to them across the call.
 *
 * Return: the detached and replaced tables, for frec_free_dead()
 * (NULL if none).
 */
struct frec_table *frec_remove_range(unsigned long start, unsigned long end,
				     frec_retire_fn retire, void *arg)
{
	struct frec_table *t, *tmp, *dead = NULL;
	unsigned int first, last, i;

	lockdep_assert_held(&ftrace_lock);
	if (end < start)
		return NULL;
	list_for_each_entry_safe(t, tmp, &frec_tables, node) {
		first = frec_index_after(t->recs, t->nr, start);
		last = first;
		while (last < t->nr && ftrace_rec_ip(&t->recs[last]) <= end)
			last++;
		if (first == last)
			continue;
		for (i = first; retire && i < last; i++)
			retire(&t->recs[i], arg);
		if (last - first == t->nr)
			frec_detach(t, &dead);
		else
			frec_cut(t, first, last, &dead);
	}
	return dead;
}

/**
 * frec_free_dead - free detached tables once no lookup can see them
 * @dead: the chain frec_remove_owner() or frec_remove_range() returned
 *
 * Called without ftrace_lock; it may sleep.
 */
void frec_free_dead(struct frec_table *dead)
{
	struct frec_table *t;

	if (!dead)
		return;
	/* Pairs with rcu_read_lock() in ftrace_location_range(). */
	synchronize_rcu();
	while (dead) {
		t = dead;
		dead = t->next_dead;
		frec_free_table(t);
	}
}
