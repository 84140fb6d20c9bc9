// SPDX-License-Identifier: GPL-2.0
/*
 * The function graph tracer's own filters: set_graph_function (trace
 * only what runs below these functions) and set_graph_notrace (nothing
 * below these), and their boot parameters ftrace_graph_filter=,
 * ftrace_graph_notrace= and ftrace_graph_max_depth=.
 *
 * Each filter is a set of function addresses published in
 * ftrace_graph_hash or ftrace_graph_notrace_hash; the graph tracer's
 * entry callback reads them with preemption off (trace.h).  A file
 * opened for writing edits a draft, a copy of the published set (or
 * an empty set with O_TRUNC): each word written adds the functions it
 * names, or with a leading '!' removes them, and closing the file
 * publishes the draft.
 *
 * Locking: gfilter_lock orders publishing against reading the published
 * sets; a file's own lock serialises the write() calls that edit its
 * draft, and ftrace_lock is taken inside it while records are matched.
 */
#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/tracefs.h>

#include <asm/setup.h>

#include "graph_filter.h"
#include "../hash.h"
#include "../internal.h"
#include "../records.h"
#include "../../trace.h"

/* Protects the pointers below against concurrent publishing. */
static DEFINE_MUTEX(gfilter_lock);

struct ftrace_hash __rcu *ftrace_graph_hash = RCU_INITIALIZER(FHASH_EMPTY);
struct ftrace_hash __rcu *ftrace_graph_notrace_hash =
	RCU_INITIALIZER(FHASH_EMPTY);

/* Longest word a write can carry: a symbol and room for globs. */
#define FGF_WORD_MAX		(KSYM_SYMBOL_LEN + 4)

/* A new set's buckets; drafts are trimmed to size when published. */
#define FGF_DRAFT_BITS		10

/* The filter set_graph_notrace (@exclude) or set_graph_function edits. */
static struct ftrace_hash __rcu **gfilter_slot(bool exclude)
{
	return exclude ? &ftrace_graph_notrace_hash : &ftrace_graph_hash;
}

static struct ftrace_hash *gfilter_published(bool exclude)
{
	return rcu_dereference_protected(*gfilter_slot(exclude),
					 lockdep_is_held(&gfilter_lock));
}

/*
 * The name of the function whose site @rec is, into @name.  False for
 * a site that kallsyms places far into a symbol: a discarded weak
 * function's, which no name should select.
 */
static bool gfilter_rec_name(struct dyn_ftrace *rec, char *name)
{
	unsigned long off = 0;

	if (!kallsyms_lookup(ftrace_rec_ip(rec), NULL, &off, NULL, name))
		return false;
#ifdef FTRACE_MCOUNT_MAX_OFFSET
	if (off > FTRACE_MCOUNT_MAX_OFFSET)
		return false;
#endif
	return true;
}

/*
 * A word's own entries, while it is being applied, carry this in
 * ->direct: the graph filters have no other use for the field, which
 * is 0 in every entry outside gfilter_apply_word().
 */
#define FGF_WORD_NEW		1UL

/* The word is done: keep the entries it added, or take them out. */
static void gfilter_settle_word(struct ftrace_hash *set, bool keep)
{
	struct ftrace_func_entry *entry, *tmp;

	fhash_for_each_safe(set, entry, tmp) {
		if (entry->direct != FGF_WORD_NEW)
			continue;
		if (keep)
			entry->direct = 0;
		else
			fhash_erase(set, entry);
	}
}

/*
 * Edit @set by one word: add every function it names or, with '!',
 * remove them.  -EINVAL when it names nothing that it could change.
 * Out of memory, the word changes nothing.
 */
static int gfilter_apply_word(struct ftrace_hash *set, char *word)
{
	char name[KSYM_SYMBOL_LEN];
	struct ftrace_func_entry *entry;
	struct ftrace_pattern pat;
	struct dyn_ftrace *rec;
	bool hit = false;
	int ret = 0;

	ftrace_pattern_parse(&pat, word, strlen(word));
	mutex_lock(&ftrace_lock);
	if (ftrace_is_dead()) {
		ret = -ENODEV;
		goto out;
	}
	frec_for_each(rec) {
		cond_resched();
		if ((rec->flags & FTRACE_FL_DISABLED) ||
		    !gfilter_rec_name(rec, name) ||
		    !ftrace_pattern_match(&pat, name))
			continue;
		entry = fhash_find(set, ftrace_rec_ip(rec));
		if (pat.negate) {
			if (entry) {
				fhash_erase(set, entry);
				hit = true;
			}
			continue;
		}
		hit = true;
		if (entry)
			continue;
		entry = fhash_insert(set, ftrace_rec_ip(rec));
		if (!entry) {
			ret = -ENOMEM;
			break;
		}
		entry->direct = FGF_WORD_NEW;
	}
	if (!pat.negate)
		gfilter_settle_word(set, !ret);
out:
	mutex_unlock(&ftrace_lock);
	if (!ret && !hit)
		ret = -EINVAL;
	return ret;
}

/* Publish @draft (consumed) as one of the filters. */
static int gfilter_publish(bool exclude, struct ftrace_hash *draft)
{
	struct ftrace_hash *set = FHASH_EMPTY, *old;

	if (!ftrace_hash_empty(draft)) {
		set = fhash_dup(draft, FHASH_FIT);
		if (!set) {
			fhash_free(draft);
			return -ENOMEM;
		}
	}
	fhash_free(draft);

	mutex_lock(&gfilter_lock);
	old = gfilter_published(exclude);
	rcu_assign_pointer(*gfilter_slot(exclude), set);
	trace_graph_filter_mark(exclude ? TRACE_GRAPH_FILTER_NOTRACE :
					  TRACE_GRAPH_FILTER_FUNCS,
				!ftrace_hash_empty(set));
	mutex_unlock(&gfilter_lock);

	/*
	 * The graph tracer reads the sets with preemption off, also
	 * where RCU is not watching (entry code): only a rude tasks-RCU
	 * grace period waits for every such reader.
	 */
	if (old != FHASH_EMPTY) {
		synchronize_rcu_tasks_rude();
		fhash_free(old);
	}
	return 0;
}

/* An open file; @exclude: set_graph_notrace, not set_graph_function. */
struct gfilter_file {
	bool			exclude;
	/* Readers: where the walk of the published set stands. */
	struct fhash_walk	walk;
	/* Writers: the draft and the word being read, under @lock. */
	struct mutex		lock;
	struct ftrace_hash	*draft;
	struct trace_parser	parser;
};

/* The one line of a file whose set is empty. */
#define FGF_ALL			((void *)1UL)

/* Holds gfilter_lock until gfilter_stop(): the set read cannot be freed. */
static void *gfilter_start(struct seq_file *m, loff_t *pos)
{
	struct gfilter_file *f = m->private;
	struct ftrace_func_entry *entry;
	struct ftrace_hash *set;
	loff_t n;

	mutex_lock(&gfilter_lock);
	set = gfilter_published(f->exclude);
	if (ftrace_hash_empty(set))
		return *pos ? NULL : FGF_ALL;
	f->walk = (struct fhash_walk){ .set = set };
	entry = fhash_walk_first(&f->walk);
	for (n = 0; entry && n < *pos; n++)
		entry = fhash_walk_next(&f->walk, entry);
	return entry;
}

static void *gfilter_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct gfilter_file *f = m->private;

	(*pos)++;
	if (v == FGF_ALL)
		return NULL;
	return fhash_walk_next(&f->walk, v);
}

static void gfilter_stop(struct seq_file *m, void *v)
{
	mutex_unlock(&gfilter_lock);
}

static int gfilter_show(struct seq_file *m, void *v)
{
	struct gfilter_file *f = m->private;
	struct ftrace_func_entry *entry = v;

	if (v == FGF_ALL)
		seq_puts(m, f->exclude ? "#### no functions disabled ####\n" :
					 "#### all functions enabled ####\n");
	else
		seq_printf(m, "%ps\n", (void *)entry->ip);
	return 0;
}

static const struct seq_operations gfilter_sops = {
	.start	= gfilter_start,
	.next	= gfilter_next,
	.stop	= gfilter_stop,
	.show	= gfilter_show,
};

static struct gfilter_file *gfilter_of(struct file *file)
{
	if (file->f_mode & FMODE_READ)
		return ((struct seq_file *)file->private_data)->private;
	return file->private_data;
}

static void gfilter_free(struct gfilter_file *f)
{
	if (f->draft) {
		trace_parser_put(&f->parser);
		fhash_free(f->draft);
	}
	kfree(f);
}

/* The draft a writer starts from. */
static struct ftrace_hash *gfilter_new_draft(bool exclude, bool empty)
{
	struct ftrace_hash *draft;

	if (empty)
		return fhash_alloc(FGF_DRAFT_BITS);
	mutex_lock(&gfilter_lock);
	draft = fhash_dup(gfilter_published(exclude), FGF_DRAFT_BITS);
	mutex_unlock(&gfilter_lock);
	return draft;
}

static int gfilter_open(struct file *file, bool exclude)
{
	struct gfilter_file *f;
	int ret;

	ret = security_locked_down(LOCKDOWN_TRACEFS);
	if (ret)
		return ret;
	if (ftrace_is_dead())
		return -ENODEV;
	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	f->exclude = exclude;
	mutex_init(&f->lock);

	if (file->f_mode & FMODE_WRITE) {
		if (trace_parser_get_init(&f->parser, FGF_WORD_MAX)) {
			kfree(f);
			return -ENOMEM;
		}
		f->draft = gfilter_new_draft(exclude, file->f_flags & O_TRUNC);
		if (!f->draft) {
			trace_parser_put(&f->parser);
			kfree(f);
			return -ENOMEM;
		}
	}
	if (file->f_mode & FMODE_READ) {
		ret = seq_open(file, &gfilter_sops);
		if (ret) {
			gfilter_free(f);
			return ret;
		}
		((struct seq_file *)file->private_data)->private = f;
	} else {
		file->private_data = f;
	}
	return 0;
}

static int gfilter_open_function(struct inode *inode, struct file *file)
{
	return gfilter_open(file, false);
}

static int gfilter_open_notrace(struct inode *inode, struct file *file)
{
	return gfilter_open(file, true);
}

static ssize_t gfilter_write(struct file *file, const char __user *ubuf,
			     size_t cnt, loff_t *ppos)
{
	struct gfilter_file *f = gfilter_of(file);
	struct trace_parser *parser = &f->parser;
	ssize_t read;
	int ret = 0;

	if (!cnt)
		return 0;

	guard(mutex)(&f->lock);
	read = trace_get_user(parser, ubuf, cnt, ppos);
	if (read < 0)
		return read;
	/* A word cut by the end of the buffer waits for its rest. */
	if (trace_parser_loaded(parser) && !trace_parser_cont(parser)) {
		ret = gfilter_apply_word(f->draft, parser->buffer);
		trace_parser_clear(parser);
	}
	return ret ? ret : read;
}

static int gfilter_release(struct inode *inode, struct file *file)
{
	struct gfilter_file *f = gfilter_of(file);
	int ret = 0, err;

	if (file->f_mode & FMODE_READ)
		seq_release(inode, file);
	if (f->draft) {
		/*
		 * The last word needs no separator after it.  A word that
		 * fails, fails alone: the rest is published.
		 */
		if (trace_parser_loaded(&f->parser))
			ret = gfilter_apply_word(f->draft, f->parser.buffer);
		trace_parser_put(&f->parser);
		err = gfilter_publish(f->exclude, f->draft);
		f->draft = NULL;
		ret = ret ?: err;
	}
	gfilter_free(f);
	return ret;
}

static const struct file_operations gfilter_function_fops = {
	.open		= gfilter_open_function,
	.read		= seq_read,
	.write		= gfilter_write,
	.llseek		= tracing_lseek,
	.release	= gfilter_release,
};

static const struct file_operations gfilter_notrace_fops = {
	.open		= gfilter_open_notrace,
	.read		= seq_read,
	.write		= gfilter_write,
	.llseek		= tracing_lseek,
	.release	= gfilter_release,
};

/**
 * ftrace_graph_filter_tracefs - make set_graph_function and set_graph_notrace
 * @parent: the top tracefs directory
 */
void __init ftrace_graph_filter_tracefs(struct dentry *parent)
{
	trace_create_file("set_graph_function", TRACE_MODE_WRITE, parent,
			  NULL, &gfilter_function_fops);
	trace_create_file("set_graph_notrace", TRACE_MODE_WRITE, parent,
			  NULL, &gfilter_notrace_fops);
}

/* The boot parameters, kept until ftrace_init() can match them. */
static char gfilter_boot_function[COMMAND_LINE_SIZE] __initdata;
static char gfilter_boot_notrace[COMMAND_LINE_SIZE] __initdata;

static int __init gfilter_boot_function_param(char *str)
{
	strscpy(gfilter_boot_function, str);
	return 1;
}
__setup("ftrace_graph_filter=", gfilter_boot_function_param);

static int __init gfilter_boot_notrace_param(char *str)
{
	strscpy(gfilter_boot_notrace, str);
	return 1;
}
__setup("ftrace_graph_notrace=", gfilter_boot_notrace_param);

static int __init gfilter_boot_depth_param(char *str)
{
	if (!str || kstrtouint(str, 0, &fgraph_max_depth))
		return 0;
	trace_graph_filter_mark(TRACE_GRAPH_FILTER_DEPTH, fgraph_max_depth);
	return 1;
}
__setup("ftrace_graph_max_depth=", gfilter_boot_depth_param);

/* A comma-separated list of words from the command line. */
static void __init gfilter_boot_apply(char *list, bool exclude)
{
	struct ftrace_hash *draft;
	char *word;

	if (!list[0])
		return;
	draft = fhash_alloc(FGF_DRAFT_BITS);
	if (!draft) {
		pr_warn("ftrace: no memory for the boot-time graph filter\n");
		return;
	}
	while ((word = strsep(&list, ",")))
		if (gfilter_apply_word(draft, word))
			pr_info("ftrace: graph filter: no function '%s'\n",
				word);
	if (gfilter_publish(exclude, draft))
		pr_warn("ftrace: no memory for the boot-time graph filter\n");
}

/**
 * ftrace_graph_filter_boot - apply ftrace_graph_filter= and _notrace=
 *
 * Called once from ftrace_init(), when the records exist.
 */
void __init ftrace_graph_filter_boot(void)
{
	gfilter_boot_apply(gfilter_boot_function, false);
	gfilter_boot_apply(gfilter_boot_notrace, true);
}

#ifdef CONFIG_FTRACE_GRAPH_FILTER_KUNIT_TEST
#include "../tests/graph_filter_kunit.c"
#endif
