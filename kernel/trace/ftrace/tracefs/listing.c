// SPDX-License-Identifier: GPL-2.0
/*
 * The tracefs files that list records: available_filter_functions,
 * available_filter_functions_addrs, enabled_functions and
 * touched_functions.  Also what names a record: kallsyms, and the check
 * that keeps the sites of discarded weak functions out of every list.
 *
 * All four files walk the records under ftrace_lock, taken in the
 * seq_file's start and dropped in its stop.
 */
#include <linux/kallsyms.h>
#include <linux/seq_file.h>
#include <linux/security.h>
#include <linux/tracefs.h>
#include <linux/workqueue.h>

#include "../accounting.h"
#include "../chains.h"
#include "../internal.h"
#include "../modules.h"
#include "tracefs.h"
#include "../../trace.h"

/* What a record of a discarded weak function is listed as: tools match it. */
#define FLIST_NO_NAME	"__ftrace_invalid_address__"

bool flist_name(unsigned long ip, char *name, char **modname)
{
	unsigned long offset = 0;
	const char *sym;

	*modname = NULL;
	sym = kallsyms_lookup(ip, NULL, &offset, modname, name);
#ifdef FTRACE_MCOUNT_MAX_OFFSET
	/*
	 * A site that lies further into its symbol than an ENDBR is not
	 * that symbol's: the linker dropped the weak function it was in
	 * and kallsyms finds whatever precedes it.
	 */
	if (!sym || offset > FTRACE_MCOUNT_MAX_OFFSET) {
		snprintf(name, KSYM_SYMBOL_LEN, "%s_%lu", FLIST_NO_NAME, offset);
		return false;
	}
#else
	if (!sym)
		snprintf(name, KSYM_SYMBOL_LEN, "0x%lx", ip);
#endif
	return true;
}

int test_for_valid_rec(struct dyn_ftrace *rec)
{
	char name[KSYM_SYMBOL_LEN];
	char *modname;

	if (flist_name(ftrace_rec_ip(rec), name, &modname))
		return 1;
	rec->flags |= FTRACE_FL_DISABLED;
	return 0;
}

#ifdef FTRACE_MCOUNT_MAX_OFFSET
/*
 * Looking up every record of the kernel takes long enough to be worth
 * taking off the boot's critical path: do it in a worker, and wait for
 * it before init is done (the records are only read after that).
 */
static void __init flist_check_weak_fn(struct work_struct *work)
{
	struct dyn_ftrace *rec;

	guard(mutex)(&ftrace_lock);
	frec_for_each(rec)
		test_for_valid_rec(rec);
}

static __initdata DECLARE_WORK(flist_check_weak, flist_check_weak_fn);

static int __init flist_check_weak_start(void)
{
	queue_work(system_unbound_wq, &flist_check_weak);
	return 0;
}
subsys_initcall(flist_check_weak_start);

static int __init flist_check_weak_wait(void)
{
	flush_work(&flist_check_weak);
	return 0;
}
late_initcall_sync(flist_check_weak_wait);
#endif

static struct dyn_ftrace *flist_step(struct flist_walk *w)
{
	struct dyn_ftrace *rec;

	do {
		rec = frec_step(&w->cur);
	} while (rec && !w->want(rec, w->arg));
	return rec;
}

/**
 * flist_walk_to - put a walk on its @pos-th wanted record
 * @w: the walk
 * @pos: index among the records @w->want accepts, from 0
 *
 * A read that goes on from where the last one stopped finds its record
 * again by ip.  Anything else (a seek back, or that record's module
 * gone meanwhile) counts from the first record.
 *
 * Return: the record, or NULL past the last (@w->nr then says how
 * many records there are).
 */
struct dyn_ftrace *flist_walk_to(struct flist_walk *w, loff_t pos)
{
	struct dyn_ftrace *rec = NULL;
	loff_t at = 0;

	lockdep_assert_held(&ftrace_lock);
	if (w->ip && pos >= w->pos) {
		rec = frec_resume(&w->cur, w->ip);
		at = w->pos;
		/* No longer wanted: its place goes to the next wanted one. */
		if (rec && !w->want(rec, w->arg))
			rec = flist_step(w);
	}
	if (!rec) {
		w->cur = (struct frec_cursor){ };
		w->ip = 0;
		rec = flist_step(w);
		at = 0;
	}
	/* @pos and @ip always name the same record, or @ip is 0. */
	for (; rec; rec = flist_step(w), at++) {
		w->pos = at;
		w->ip = ftrace_rec_ip(rec);
		if (at == pos)
			break;
	}
	w->rec = rec;
	w->nr = at;
	return rec;
}

/* The wanted record after the current one, NULL past the last. */
struct dyn_ftrace *flist_walk_next(struct flist_walk *w)
{
	struct dyn_ftrace *rec = flist_step(w);

	w->rec = rec;
	if (rec) {
		w->pos++;
		w->ip = ftrace_rec_ip(rec);
	} else {
		w->nr = w->pos + 1;
	}
	return rec;
}

enum flist_kind {
	FLIST_AVAIL,
	FLIST_ADDRS,
	FLIST_ENABLED,
	FLIST_TOUCHED,
};

struct flist_file {
	struct flist_walk	walk;
	enum flist_kind		kind;
};

static bool flist_want(struct dyn_ftrace *rec, void *arg)
{
	struct flist_file *f = arg;

	switch (f->kind) {
	case FLIST_ENABLED:
		return rec->flags & (FTRACE_FL_ENABLED | FTRACE_FL_BAD);
	case FLIST_TOUCHED:
		return rec->flags & FTRACE_FL_TOUCHED;
	default:
		return true;
	}
}

static void *flist_start(struct seq_file *m, loff_t *pos)
{
	struct flist_file *f = m->private;

	mutex_lock(&ftrace_lock);
	if (unlikely(ftrace_is_dead()))
		return NULL;
	return flist_walk_to(&f->walk, *pos);
}

static void *flist_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct flist_file *f = m->private;

	++*pos;
	return flist_walk_next(&f->walk);
}

static void flist_stop(struct seq_file *m, void *v)
{
	mutex_unlock(&ftrace_lock);
}

/* An architecture whose trampolines call a function of theirs names it. */
void * __weak arch_ftrace_trampoline_func(struct ftrace_ops *ops,
					  struct dyn_ftrace *rec)
{
	return NULL;
}

static void flist_show_arch_func(struct seq_file *m, struct ftrace_ops *ops,
				 struct dyn_ftrace *rec)
{
	void *func = arch_ftrace_trampoline_func(ops, rec);

	if (func)
		seq_printf(m, " ->%pS", func);
}

/* Who a site calls: its trampolines, its ops, its direct function. */
static void flist_show_callees(struct seq_file *m, struct dyn_ftrace *rec)
{
	struct ftrace_ops *ops;
	struct fchain *chain;
	unsigned long direct;

	chain = rec->flags & FTRACE_FL_TRAMP_EN ? fchain_held(rec) : NULL;
	if (chain) {
		seq_printf(m, "\ttramp: %pS (chain of %u ops)",
			   (void *)chain->ops.trampoline, chain->nr);
		flist_show_arch_func(m, &chain->ops, rec);
	} else if (rec->flags & FTRACE_FL_TRAMP_EN) {
		ops = ftrace_find_tramp_ops_any(rec);
		if (!ops)
			seq_puts(m, "\ttramp: ERROR!");
		for (; ops; ops = ftrace_find_tramp_ops_next(rec, ops)) {
			seq_printf(m, "\ttramp: %pS (%pS)",
				   (void *)ops->trampoline, (void *)ops->func);
			flist_show_arch_func(m, ops, rec);
		}
	} else {
		flist_show_arch_func(m, NULL, rec);
	}

	if (rec->flags & FTRACE_FL_CALL_OPS_EN) {
		ops = ftrace_find_unique_ops(rec);
		if (ops)
			seq_printf(m, "\tops: %pS (%pS)", ops, ops->func);
		else
			seq_puts(m, "\tops: ERROR!");
	}

	if (rec->flags & FTRACE_FL_DIRECT) {
		direct = ftrace_find_rec_direct(ftrace_rec_ip(rec));
		if (direct)
			seq_printf(m, "\n\tdirect-->%pS", (void *)direct);
	}
}

bool flist_print_name(struct seq_file *m, struct dyn_ftrace *rec)
{
	char name[KSYM_SYMBOL_LEN];
	char *modname;
	bool named;

	named = flist_name(ftrace_rec_ip(rec), name, &modname);
	seq_puts(m, name);
	if (modname)
		seq_printf(m, " [%s]", modname);
	/* test_for_valid_rec() disables the records that have no name */
	WARN_ON_ONCE(!named && !(rec->flags & FTRACE_FL_DISABLED));
	return named;
}

void flist_show_state(struct seq_file *m, struct dyn_ftrace *rec)
{
	unsigned long flags = rec->flags;

	seq_printf(m, " (%ld)%s%s%s%s%s", ftrace_rec_count(rec),
		   flags & FTRACE_FL_REGS ? " R" : "  ",
		   flags & FTRACE_FL_IPMODIFY ? " I" : "  ",
		   flags & FTRACE_FL_DIRECT ? " D" : "  ",
		   flags & FTRACE_FL_CALL_OPS ? " O" : "  ",
		   flags & FTRACE_FL_MODIFIED ? " M " : "   ");
	/* A bad site calls nothing we know of: say so, and only that. */
	if (flags & FTRACE_FL_BAD)
		seq_puts(m, "\tBAD: site refused, not traced");
	else
		flist_show_callees(m, rec);
}

static int flist_show(struct seq_file *m, void *v)
{
	struct flist_file *f = m->private;
	struct dyn_ftrace *rec = f->walk.rec;

	if (f->kind == FLIST_ADDRS)
		seq_printf(m, "%lx ", ftrace_rec_ip(rec));

	if (flist_print_name(m, rec) &&
	    (f->kind == FLIST_ENABLED || f->kind == FLIST_TOUCHED))
		flist_show_state(m, rec);
	seq_putc(m, '\n');
	return 0;
}

static const struct seq_operations flist_sops = {
	.start	= flist_start,
	.next	= flist_next,
	.stop	= flist_stop,
	.show	= flist_show,
};

static int flist_open(struct file *file, enum flist_kind kind)
{
	struct flist_file *f;

	if (unlikely(ftrace_is_dead()))
		return -ENODEV;

	f = __seq_open_private(file, &flist_sops, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->kind = kind;
	f->walk.want = flist_want;
	f->walk.arg = f;
	return 0;
}

/*
 * The lists of what can be traced hide behind lockdown; the lists of
 * what is traced, or was, do not: an admin must be able to see who
 * hooks the kernel's functions.
 */
static int flist_open_avail(struct inode *inode, struct file *file)
{
	int ret = security_locked_down(LOCKDOWN_TRACEFS);

	return ret ?: flist_open(file, FLIST_AVAIL);
}

static int flist_open_addrs(struct inode *inode, struct file *file)
{
	int ret = security_locked_down(LOCKDOWN_TRACEFS);

	return ret ?: flist_open(file, FLIST_ADDRS);
}

static int flist_open_enabled(struct inode *inode, struct file *file)
{
	return flist_open(file, FLIST_ENABLED);
}

static int flist_open_touched(struct inode *inode, struct file *file)
{
	return flist_open(file, FLIST_TOUCHED);
}

#define FLIST_FOPS(name, opener)					\
static const struct file_operations name = {				\
	.open		= opener,					\
	.read		= seq_read,					\
	.llseek		= seq_lseek,					\
	.release	= seq_release_private,				\
}

FLIST_FOPS(flist_avail_fops, flist_open_avail);
FLIST_FOPS(flist_addrs_fops, flist_open_addrs);
FLIST_FOPS(flist_enabled_fops, flist_open_enabled);
FLIST_FOPS(flist_touched_fops, flist_open_touched);

void __init flist_tracefs(struct dentry *parent)
{
	trace_create_file("available_filter_functions", TRACE_MODE_READ,
			  parent, NULL, &flist_avail_fops);
	trace_create_file("available_filter_functions_addrs", TRACE_MODE_READ,
			  parent, NULL, &flist_addrs_fops);
	trace_create_file("enabled_functions", TRACE_MODE_READ,
			  parent, NULL, &flist_enabled_fops);
	trace_create_file("touched_functions", TRACE_MODE_READ,
			  parent, NULL, &flist_touched_fops);
}
