// SPDX-License-Identifier: GPL-2.0
/*
 * set_ftrace_filter and set_ftrace_notrace, at the top level and in
 * each instance, and stack_trace_filter through ftrace_regex_open():
 * the words users write, the "mod:" cache of filters for modules not
 * loaded yet, and the registry of function commands.
 *
 * An open file edits a draft of one set of its ops; closing the file
 * publishes the draft.  One write(2) is one request: the words it
 * carries reach the draft together or not at all.  The function
 * commands of a request (func:traceon, ...) act outside the draft, so
 * they run last, in order, once every word of the request has been
 * accepted; the first that fails undoes the request's words and
 * fails the write, and only the commands before it stay in force.
 *
 * Locks, outermost first:
 *   ffile->lock        one open file: its parser, draft and undo log
 *   func_hash->regex_lock   publishing one ops' sets
 *   ftrace_lock        the records, the mod caches, the probe lists
 */
#include <linux/kallsyms.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/tracefs.h>

#include "../dispatch.h"
#include "../hash.h"
#include "../internal.h"
#include "tracefs.h"
#include "../../trace.h"

/* The longest word: a symbol, with room for globs and a '!'. */
#define FFILE_WORD_MAX		(KSYM_SYMBOL_LEN + 4)

/* A function command of a request, run when its words are accepted. */
struct ffile_cmd_call {
	struct list_head		list;
	struct ftrace_func_command	*cmd;
	char				*func;
	char				*params;	/* may be NULL */
	char				word[];
};

enum ffile_part {
	FFILE_ALL,	/* the line that says the set is empty */
	FFILE_FUNCS,	/* the functions in the set */
	FFILE_MODS,	/* the cached filters of modules to come */
	FFILE_PROBES,	/* the function probes (set_ftrace_filter) */
	FFILE_END,
};

struct ffile {
	struct mutex		lock;		/* all of the below */
	struct trace_array	*tr;		/* NULL: the stack tracer's */
	struct ftrace_ops	*ops;
	bool			exclude;	/* the notrace set */
	bool			probes;		/* list the probes too */
	bool			writer;
	struct trace_parser	parser;
	struct ftrace_hash	*draft;
	struct ftrace_hash	*touched;	/* by the request: see ffile_edit() */
	struct list_head	mod_edits;
	struct list_head	calls;

	/* where a read is: a part, and a line of it */
	enum ffile_part		part;
	loff_t			part_pos;	/* seq_file pos of its line 0 */
	bool			placed;
	struct flist_walk	walk;
	struct list_head	*mod;
	struct ftrace_func_probe *probe;
	struct fhash_walk	pwalk;
	struct ftrace_func_entry *pentry;
};

/* ---- undoing a request --------------------------------------------- */

/*
 * Bring @ip in or out of the draft.  To undo a request, @f->touched
 * has one entry per ip the request touched, whose ->direct holds the
 * draft's entry for that ip when the request began (0: there was
 * none).  Such an entry is kept, not freed, while the request lasts,
 * so going back never allocates, and an ip taken out and put back any
 * number of times costs one mark: a request's memory is bounded by
 * the number of records.
 */
static int ffile_edit(unsigned long ip, bool drop, void *arg)
{
	struct ffile *f = arg;
	struct ftrace_func_entry *entry = fhash_find(f->draft, ip);
	struct ftrace_func_entry *mark, *first;

	if (!entry == drop)
		return 0;
	if (fatal_signal_pending(current))
		return -EINTR;
	mark = fhash_find(f->touched, ip);
	if (!mark) {
		mark = fhash_insert(f->touched, ip);
		if (!mark)
			return -ENOMEM;
		mark->direct = (unsigned long)entry;
	}
	first = (struct ftrace_func_entry *)mark->direct;
	if (drop) {
		fhash_unlink(f->draft, entry);
		if (entry != first)
			kfree(entry);		/* this request added it */
	} else if (first) {
		fhash_link(f->draft, first);
	} else if (!fhash_insert(f->draft, ip)) {
		return -ENOMEM;
	}
	return 0;
}

/* The request is refused: give each ip it touched its first entry back. */
static void ffile_revert(struct ffile *f)
{
	struct ftrace_func_entry *mark, *now, *first;

	fhash_for_each(f->touched, mark) {
		first = (struct ftrace_func_entry *)mark->direct;
		now = fhash_find(f->draft, mark->ip);
		if (now == first)
			continue;
		/* Put back means relinked: @now is not @first, so one is NULL. */
		if (now)
			fhash_erase(f->draft, now);
		else
			fhash_link(f->draft, first);
	}
	fhash_clear(f->touched);
}

/* The request is accepted: free the first entries it took out. */
static void ffile_keep(struct ffile *f)
{
	struct ftrace_func_entry *mark, *first;

	fhash_for_each(f->touched, mark) {
		first = (struct ftrace_func_entry *)mark->direct;
		if (first && !fhash_find(f->draft, mark->ip))
			kfree(first);
	}
	fhash_clear(f->touched);
}

static int ffile_mod_word(struct ffile *f, char *func, char *module)
{
	char *pattern;
	int ret;

	if (!f->tr)
		return -ENODEV;
	if (!module)
		return -EINVAL;

	/* Matching parses the pattern in place; the cache wants it whole. */
	pattern = kstrdup(func, GFP_KERNEL);
	if (!pattern)
		return -ENOMEM;
	ret = fmatch_each(pattern, strlen(pattern), module, ffile_edit, f);
	kfree(pattern);
	if (ret)
		return ret < 0 ? ret : 0;

	return modcache_edit_new(&f->mod_edits, f->tr, f->exclude, func, module);
}

/* ---- function commands ---------------------------------------------- */

/* Queue "func:cmd[:params]" to run once the request is accepted. */
static int ffile_cmd_queue(struct ffile *f, const char *func, const char *name,
			   const char *params)
{
	struct ftrace_func_command *cmd = fcmd_find(name);
	size_t flen = strlen(func) + 1, plen = params ? strlen(params) + 1 : 0;
	struct ffile_cmd_call *call;

	if (!cmd)
		return -EINVAL;
	call = kmalloc(struct_size(call, word, flen + plen), GFP_KERNEL);
	if (!call)
		return -ENOMEM;
	call->cmd = cmd;
	call->func = memcpy(call->word, func, flen);
	call->params = params ? memcpy(call->word + flen, params, plen) : NULL;
	list_add_tail(&call->list, &f->calls);
	return 0;
}

/* Run the queued commands up to the first that fails (none if !@run). */
static int ffile_cmd_flush(struct ffile *f, bool run)
{
	struct ffile_cmd_call *call, *n;
	int ret = 0;

	list_for_each_entry_safe(call, n, &f->calls, list) {
		if (run && !ret)
			ret = min(call->cmd->func(f->tr, f->draft, call->func,
						  call->cmd->name, call->params,
						  !f->exclude), 0);
		list_del(&call->list);
		kfree(call);
	}
	return ret;
}

/* ---- writing ------------------------------------------------------- */

/* One word of a request: a pattern, "pattern:mod:m" or a command. */
static int ffile_word(struct ffile *f, char *word)
{
	char *rest = word, *func, *cmd;
	int ret;

	func = strsep(&rest, ":");
	if (!rest) {
		ret = fmatch_each(func, strlen(func), NULL, ffile_edit, f);
		return ret ? min(ret, 0) : -EINVAL;
	}
	cmd = strsep(&rest, ":");
	if (!strcmp(cmd, "mod"))
		return ffile_mod_word(f, func, rest);
	return ffile_cmd_queue(f, func, cmd, rest);
}

/* End a request: keep what its words did if @ret is 0, else undo it. */
static int ffile_settle(struct ffile *f, int ret)
{
	if (!ret)
		ret = ffile_cmd_flush(f, true);
	else
		ffile_cmd_flush(f, false);
	if (ret) {
		ffile_revert(f);
		modcache_edits_drop(&f->mod_edits);
		f->parser.fail = false;
		trace_parser_clear(&f->parser);
		return ret;
	}
	ffile_keep(f);
	if (f->tr)
		modcache_edits_commit(&f->mod_edits, f->tr, f->exclude,
				      f->draft);
	return 0;
}

static struct ffile *ffile_of(struct file *file)
{
	if (file->f_mode & FMODE_READ)
		return ((struct seq_file *)file->private_data)->private;
	return file->private_data;
}

static ssize_t ffile_write(struct file *file, const char __user *ubuf,
			   size_t cnt, loff_t *ppos)
{
	struct ffile *f = ffile_of(file);
	size_t done = 0;
	ssize_t got;
	int ret = 0;

	if (!cnt)
		return 0;
	if (unlikely(ftrace_is_dead()))
		return -ENODEV;

	guard(mutex)(&f->lock);
	while (done < cnt && !ret) {
		/* A long request must not outlive its writer. */
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		got = trace_get_user(&f->parser, ubuf + done, cnt - done, ppos);
		if (got < 0) {
			ret = got;
			break;
		}
		done += got;
		/* A word cut by the end of the buffer waits for the next write. */
		if (trace_parser_loaded(&f->parser) &&
		    !trace_parser_cont(&f->parser)) {
			ret = ffile_word(f, f->parser.buffer);
			trace_parser_clear(&f->parser);
		}
	}
	ret = ffile_settle(f, ret);
	return ret ? ret : cnt;
}

/**
 * ftrace_filter_write - write words to a filter file
 * @file: a file opened with ftrace_regex_open()
 * @ubuf: the words, separated by white space
 * @cnt: bytes in @ubuf
 * @ppos: the file position
 *
 * The words of one write are applied together or not at all; a word
 * that the end of @ubuf cuts is completed by the next write, or by
 * closing the file.
 *
 * Return: @cnt, or a negative errno: then none of the words applies,
 * and of the function commands only those before the one that failed.
 */
ssize_t ftrace_filter_write(struct file *file, const char __user *ubuf,
			    size_t cnt, loff_t *ppos)
{
	return ffile_write(file, ubuf, cnt, ppos);
}

/**
 * ftrace_notrace_write - write words to a notrace file
 * @file: a file opened with ftrace_regex_open()
 * @ubuf: the words, separated by white space
 * @cnt: bytes in @ubuf
 * @ppos: the file position
 *
 * As ftrace_filter_write(); which set the words edit was chosen when
 * the file was opened.
 *
 * Return: @cnt, or a negative errno and no word applied.
 */
ssize_t ftrace_notrace_write(struct file *file, const char __user *ubuf,
			     size_t cnt, loff_t *ppos)
{
	return ffile_write(file, ubuf, cnt, ppos);
}

/* ---- reading -------------------------------------------------------- */

static bool ffile_has(struct dyn_ftrace *rec, void *arg)
{
	struct ffile *f = arg;

	return fhash_find(f->draft, ftrace_rec_ip(rec));
}

static struct ftrace_hash *ffile_probe_set(struct ftrace_func_probe *probe)
{
	struct ftrace_hash *set;

	set = rcu_dereference_protected(probe->ops.func_hash->filter_hash,
					lockdep_is_held(&ftrace_lock));

	/* A probe being registered may not have its set yet. */
	return ftrace_hash_empty(set) ? NULL : set;
}

/* The first entry of the probes from @probe on; false if none. */
static bool ffile_probe_from(struct ffile *f, struct ftrace_func_probe *probe)
{
	struct list_head *head = &f->tr->func_probes;
	struct ftrace_hash *set;

	for (; &probe->list != head; probe = list_next_entry(probe, list)) {
		set = ffile_probe_set(probe);
		if (!set)
			continue;
		f->probe = probe;
		f->pwalk = (struct fhash_walk){ .set = set };
		f->pentry = fhash_walk_first(&f->pwalk);
		if (f->pentry)
			return true;
	}
	return false;
}

static struct ftrace_func_probe *ffile_first_probe(struct ffile *f)
{
	return list_first_entry(&f->tr->func_probes, struct ftrace_func_probe,
				list);
}

/* Move to the next line of the current part; false at its end. */
static bool ffile_step(struct ffile *f)
{
	switch (f->part) {
	case FFILE_FUNCS:
		return flist_walk_next(&f->walk);
	case FFILE_MODS:
		f->mod = f->mod->next;
		return f->mod != modcache_list(f->tr, f->exclude);
	case FFILE_PROBES:
		f->pentry = fhash_walk_next(&f->pwalk, f->pentry);
		return f->pentry ||
		       ffile_probe_from(f, list_next_entry(f->probe, list));
	default:
		return false;
	}
}

/* Put the reader on line @idx of @part; else say how many lines it has. */
static bool ffile_place(struct ffile *f, enum ffile_part part, loff_t idx,
			loff_t *lines)
{
	loff_t n = 0;
	bool found;

	f->part = part;
	switch (part) {
	case FFILE_ALL:
		n = ftrace_hash_empty(f->draft);
		found = idx < n;
		break;
	case FFILE_FUNCS:
		found = f->draft->count && flist_walk_to(&f->walk, idx);
		n = f->draft->count ? f->walk.nr : 0;
		break;
	case FFILE_MODS:
	case FFILE_PROBES:
		found = false;
		if (!f->tr || (part == FFILE_PROBES && !f->probes))
			break;
		if (part == FFILE_MODS) {
			f->mod = modcache_list(f->tr, f->exclude);
			found = ffile_step(f);
		} else {
			found = ffile_probe_from(f, ffile_first_probe(f));
		}
		for (; found && n < idx; n++)
			found = ffile_step(f);
		break;
	default:
		return false;
	}
	if (!found)
		*lines = n;
	return found;
}

static void *ffile_start(struct seq_file *m, loff_t *pos)
{
	struct ffile *f = m->private;
	enum ffile_part part = FFILE_ALL;
	loff_t base = 0, lines;

	mutex_lock(&f->lock);
	mutex_lock(&ftrace_lock);
	if (unlikely(ftrace_is_dead()))
		return NULL;

	/* Going on from the part the last read ended in saves a walk. */
	if (f->placed && *pos >= f->part_pos) {
		part = f->part;
		base = f->part_pos;
	}
	for (; part < FFILE_END; part++) {
		if (ffile_place(f, part, *pos - base, &lines)) {
			f->part_pos = base;
			f->placed = true;
			return f;
		}
		base += lines;
	}
	f->placed = false;
	return NULL;
}

static void *ffile_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct ffile *f = m->private;
	enum ffile_part part;
	loff_t lines;

	++*pos;
	if (ffile_step(f))
		return f;
	for (part = f->part + 1; part < FFILE_END; part++) {
		if (ffile_place(f, part, 0, &lines)) {
			f->part_pos = *pos;
			return f;
		}
	}
	f->placed = false;
	return NULL;
}

static void ffile_stop(struct seq_file *m, void *v)
{
	struct ffile *f = m->private;

	mutex_unlock(&ftrace_lock);
	mutex_unlock(&f->lock);
}

static int ffile_show_probe(struct seq_file *m, struct ffile *f)
{
	struct ftrace_probe_ops *probe_ops = f->probe->probe_ops;
	unsigned long ip = f->pentry->ip;
	int ret;

	if (!probe_ops->print) {
		seq_printf(m, "%ps:%ps\n", (void *)ip, (void *)probe_ops->func);
		return 0;
	}
	/*
	 * print() looks @ip up in the probe's func mapper, whose entries
	 * are freed after a grace period when other ips are unhooked.
	 */
	rcu_read_lock();
	ret = probe_ops->print(m, ip, probe_ops, f->probe->data);
	rcu_read_unlock();
	return ret;
}

static int ffile_show(struct seq_file *m, void *v)
{
	struct ffile *f = m->private;
	struct ftrace_mod_load *load;

	switch (f->part) {
	case FFILE_ALL:
		seq_puts(m, f->exclude ? "#### no functions disabled ####\n" :
					 "#### all functions enabled ####\n");
		return 0;
	case FFILE_FUNCS:
		flist_print_name(m, f->walk.rec);
		seq_putc(m, '\n');
		return 0;
	case FFILE_MODS:
		load = list_entry(f->mod, struct ftrace_mod_load, list);
		seq_printf(m, "%s:mod:%s\n", load->func ?: "*", load->module);
		return 0;
	case FFILE_PROBES:
		return ffile_show_probe(m, f);
	default:
		return 0;
	}
}

static const struct seq_operations ffile_sops = {
	.start	= ffile_start,
	.next	= ffile_next,
	.stop	= ffile_stop,
	.show	= ffile_show,
};

/* ---- opening and closing ------------------------------------------- */

static void ffile_free(struct ffile *f)
{
	trace_parser_put(&f->parser);
	if (f->draft != FHASH_EMPTY)
		fhash_free(f->draft);
	fhash_free(f->touched);
	if (f->tr)
		trace_array_put(f->tr);
	kfree(f);
}

/* The draft a new file starts from; the caller holds regex_lock. */
static struct ftrace_hash *ffile_first_draft(struct ffile *f,
					     struct file *file)
{
	struct ftrace_ops_hash *h = f->ops->func_hash;
	struct ftrace_hash *set;

	set = rcu_dereference_protected(*fset_slot(f->ops, f->exclude),
					lockdep_is_held(&h->regex_lock));

	if (!f->writer)
		return fhash_dup_or_empty(set);
	if (!(file->f_flags & O_TRUNC))
		return fhash_dup(set, FTRACE_HASH_DEFAULT_BITS);
	if (f->tr)
		modcache_list_clear(modcache_list(f->tr, f->exclude));
	return fhash_alloc(FTRACE_HASH_DEFAULT_BITS);
}

static struct ffile *ffile_new(struct trace_array *tr, struct ftrace_ops *ops,
			       int flag, struct file *file)
{
	struct ffile *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return NULL;
	if (trace_parser_get_init(&f->parser, FFILE_WORD_MAX)) {
		kfree(f);
		return NULL;
	}
	mutex_init(&f->lock);
	INIT_LIST_HEAD(&f->mod_edits);
	INIT_LIST_HEAD(&f->calls);
	f->tr = tr;
	f->ops = ops;
	f->exclude = flag & FTRACE_ITER_NOTRACE;
	f->probes = flag & FTRACE_ITER_DO_PROBES;
	f->writer = file->f_mode & FMODE_WRITE;
	f->walk.want = ffile_has;
	f->walk.arg = f;
	if (f->writer)
		f->touched = fhash_alloc(FTRACE_HASH_DEFAULT_BITS);
	if (!f->writer || f->touched) {
		scoped_guard(mutex, &ops->func_hash->regex_lock)
			f->draft = ffile_first_draft(f, file);
	}
	if (!f->draft) {
		f->tr = NULL;
		ffile_free(f);
		return NULL;
	}
	return f;
}

/**
 * ftrace_regex_open - open a file that edits the sets of an ftrace_ops
 * @tr: the trace array of the file, or NULL: @ops->private
 * @ops: the ops whose sets the file edits, or NULL: @tr->ops (if both
 *	are NULL, global_ops)
 * @flag: FTRACE_ITER_FILTER or FTRACE_ITER_NOTRACE, and
 *	FTRACE_ITER_DO_PROBES to list the function probes when read
 * @inode: the file's inode
 * @file: the file
 *
 * The file is to be written with ftrace_filter_write() or
 * ftrace_notrace_write(), sought with tracing_lseek() and closed with
 * ftrace_regex_release().  A writer edits a copy of the set, emptied
 * if the file is opened with O_TRUNC, that closing publishes.
 *
 * Return: 0, or -ENODEV or -ENOMEM.
 */
int ftrace_regex_open(struct trace_array *tr, struct ftrace_ops *ops,
		      int flag, struct inode *inode, struct file *file)
{
	struct ffile *f;
	int ret;

	if (unlikely(ftrace_is_dead()))
		return -ENODEV;
	if (!tr) {
		ops = ops ?: &global_ops;
		tr = ops->private;
	}
	if (tracing_check_open_get_tr(tr))
		return -ENODEV;
	ops = ops ?: tr->ops;
	if (WARN_ON_ONCE(!ops)) {
		ret = -ENODEV;
		goto put;
	}
	ftrace_ops_init(ops);

	ret = -ENOMEM;
	f = ffile_new(tr, ops, flag, file);
	if (!f)
		goto put;
	if (file->f_mode & FMODE_READ) {
		ret = seq_open(file, &ffile_sops);
		if (ret) {
			ffile_free(f);
			return ret;
		}
		((struct seq_file *)file->private_data)->private = f;
	} else {
		file->private_data = f;
	}
	return 0;
put:
	if (tr)
		trace_array_put(tr);
	return ret;
}

static void ffile_publish(struct ffile *f)
{
	struct ftrace_ops *ops = f->ops;

	guard(mutex)(&ops->func_hash->regex_lock);
	guard(mutex)(&ftrace_lock);
	/* A filter that waits for a module must not read as "everything". */
	if (!f->exclude && f->tr) {
		if (list_empty(&f->tr->mod_trace))
			f->draft->flags &= ~FTRACE_HASH_FL_MOD;
		else
			f->draft->flags |= FTRACE_HASH_FL_MOD;
	}
	ftrace_hash_move_and_update_ops(ops, fset_slot(ops, f->exclude),
					f->draft, !f->exclude);
}

/**
 * ftrace_regex_release - close a file of ftrace_regex_open()
 * @inode: the file's inode
 * @file: the file
 *
 * Applies a last word that no white space ended, then publishes what
 * a writer made of the set.  Errors cannot be reported at this point:
 * a bad last word is dropped, and a set the code update refuses
 * leaves the old one in force.
 *
 * Return: 0.
 */
int ftrace_regex_release(struct inode *inode, struct file *file)
{
	struct ffile *f = ffile_of(file);

	if (file->f_mode & FMODE_READ)
		seq_release(inode, file);

	scoped_guard(mutex, &f->lock) {
		if (trace_parser_loaded(&f->parser))
			ffile_settle(f, ffile_word(f, f->parser.buffer));
	}
	if (f->writer)
		ffile_publish(f);
	ffile_free(f);
	return 0;
}

static int ffile_open_filter(struct inode *inode, struct file *file)
{
	return ftrace_regex_open(inode->i_private, NULL,
				 FTRACE_ITER_FILTER | FTRACE_ITER_DO_PROBES,
				 inode, file);
}

static int ffile_open_notrace(struct inode *inode, struct file *file)
{
	return ftrace_regex_open(inode->i_private, NULL, FTRACE_ITER_NOTRACE,
				 inode, file);
}

static const struct file_operations ffile_filter_fops = {
	.open		= ffile_open_filter,
	.write		= ftrace_filter_write,
	.read		= seq_read,
	.release	= ftrace_regex_release,
	.llseek		= tracing_lseek,
};

static const struct file_operations ffile_notrace_fops = {
	.open		= ffile_open_notrace,
	.write		= ftrace_notrace_write,
	.read		= seq_read,
	.release	= ftrace_regex_release,
	.llseek		= tracing_lseek,
};

void ftrace_create_filter_files(struct trace_array *tr, struct dentry *parent)
{
	trace_create_file("set_ftrace_filter", TRACE_MODE_WRITE, parent, tr,
			  &ffile_filter_fops);
	trace_create_file("set_ftrace_notrace", TRACE_MODE_WRITE, parent, tr,
			  &ffile_notrace_fops);
}

/*
 * Not the files (they go with their instance's directory) but what
 * they edit: once this returns, @ops is off and its sets are freed,
 * and the instance may free it.
 */
void ftrace_destroy_filter_files(struct ftrace_ops *ops)
{
	struct trace_array *tr = ops->private;

	/* The instance's cached mod: filters go with it, or they leak. */
	if (tr) {
		modcache_list_clear(&tr->mod_trace);
		modcache_list_clear(&tr->mod_notrace);
	}
	guard(mutex)(&ftrace_lock);
	if (ops->flags & FTRACE_OPS_FL_ENABLED)
		ftrace_shutdown(ops, 0);
	/* Never to be started again: the code update may skip it. */
	ops->flags |= FTRACE_OPS_FL_DELETED;
	ftrace_free_filter(ops);
}
