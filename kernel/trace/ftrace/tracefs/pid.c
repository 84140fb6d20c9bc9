// SPDX-License-Identifier: GPL-2.0
/*
 * Which tasks the function tracer of a trace array follows: the files
 * set_ftrace_pid (only these tasks) and set_ftrace_notrace_pid (never
 * these), and the function-fork option that lets children inherit.
 *
 * The two lists hang off the trace array (function_pids and
 * function_no_pids) and are published with RCU.  The function
 * callbacks do not search them: they read one per-CPU word,
 * ftrace_ignore_pid, which holds the pid of the task running on that
 * CPU or FTRACE_PID_IGNORE.  A sched_switch probe rewrites the word at
 * every context switch while either list exists, and after a list
 * changes every CPU rewrites it for the task it runs at that moment.
 *
 * The ops of the trace array then need the pid wrapper in front of
 * their callbacks (dispatch.c); fops_update_pid_funcs() puts it
 * there or takes it away, and a code update makes the sites follow.
 *
 * Locking: ftrace_lock serialises changes of the lists, and is held
 * while a file is read so that the list read cannot be freed under it.
 */
#include <linux/ftrace.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/smp.h>
#include <linux/threads.h>
#include <linux/tracefs.h>
#include <linux/tracepoint.h>
#include <trace/events/sched.h>

#include "../dispatch.h"
#include "../internal.h"
#include "../../pid_list.h"
#include "../../trace.h"

/* Where the list of @type lives in @tr. */
static struct trace_pid_list __rcu **fpid_slot(struct trace_array *tr,
					       int type)
{
	return type == TRACE_PIDS ? &tr->function_pids : &tr->function_no_pids;
}

static struct trace_pid_list *fpid_locked(struct trace_array *tr, int type)
{
	return rcu_dereference_protected(*fpid_slot(tr, type),
					 lockdep_is_held(&ftrace_lock));
}

/* Set this CPU's word for @task: its pid, or "ignore". */
static void fpid_judge(struct trace_array *tr, struct task_struct *task,
		       struct trace_pid_list *pids,
		       struct trace_pid_list *no_pids)
{
	int word = task->pid;

	if (trace_ignore_this_task(pids, no_pids, task))
		word = FTRACE_PID_IGNORE;
	this_cpu_write(tr->array_buffer.data->ftrace_ignore_pid, word);
}

static void fpid_switch_probe(void *data, bool preempt,
			      struct task_struct *prev,
			      struct task_struct *next,
			      unsigned int prev_state)
{
	struct trace_array *tr = data;

	fpid_judge(tr, next, rcu_dereference_sched(tr->function_pids),
		   rcu_dereference_sched(tr->function_no_pids));
}

/* Runs on every CPU, from fpid_apply() with ftrace_lock held. */
static void fpid_judge_current(void *data)
{
	struct trace_array *tr = data;

	fpid_judge(tr, current,
		   rcu_dereference_protected(tr->function_pids,
					     mutex_is_locked(&ftrace_lock)),
		   rcu_dereference_protected(tr->function_no_pids,
					     mutex_is_locked(&ftrace_lock)));
}

/* A child joins the lists its parent is on; a task that goes, leaves. */
static void fpid_fork_probe(void *data, struct task_struct *parent,
			    struct task_struct *child)
{
	struct trace_array *tr = data;

	trace_filter_add_remove_task(rcu_dereference_sched(tr->function_pids),
				     parent, child);
	trace_filter_add_remove_task(rcu_dereference_sched(tr->function_no_pids),
				     parent, child);
}

static void fpid_free_probe(void *data, struct task_struct *task)
{
	fpid_fork_probe(data, NULL, task);
}

/**
 * ftrace_pid_follow_fork - let children inherit the pid lists, or stop
 * @tr: the trace array
 * @enable: whether its function-fork option is now set
 */
void ftrace_pid_follow_fork(struct trace_array *tr, bool enable)
{
	if (enable) {
		register_trace_sched_process_fork(fpid_fork_probe, tr);
		register_trace_sched_process_free(fpid_free_probe, tr);
	} else {
		unregister_trace_sched_process_fork(fpid_fork_probe, tr);
		unregister_trace_sched_process_free(fpid_free_probe, tr);
	}
}

static int fpid_other(int type)
{
	return type ^ (TRACE_PIDS | TRACE_NO_PIDS);
}

/* The trace arrays that have a list, under ftrace_lock. */
static unsigned int fpid_arrays;

/*
 * @tr got its first list (@has) or lost its last: the function graph
 * tracer tests its pid filter only while some trace array has one.
 */
static void fpid_count(bool has)
{
	fpid_arrays += has ? 1 : -1;
	trace_graph_filter_mark(TRACE_GRAPH_FILTER_PIDS, fpid_arrays);
}

/*
 * Publish @new as the list of @type and free the old one.  The
 * sched_switch probe is there exactly while some list is: it comes
 * with the first and goes with the last, and then every CPU's word
 * goes back to "trace".
 */
static void fpid_set(struct trace_array *tr, int type,
		     struct trace_pid_list *new)
{
	struct trace_pid_list *old = fpid_locked(tr, type);
	bool other = fpid_locked(tr, fpid_other(type));
	bool had = old || other, has = new || other;
	int cpu;

	if (!old && !new)
		return;
	rcu_assign_pointer(*fpid_slot(tr, type), new);
	if (!had && has)
		WARN_ON_ONCE(register_trace_sched_switch(fpid_switch_probe, tr));
	if (had && !has)
		unregister_trace_sched_switch(fpid_switch_probe, tr);
	if (had != has)
		fpid_count(has);
	/*
	 * Callbacks and probes read the lists under RCU-sched; once they
	 * are done the old list can go, and no probe is left to write a
	 * word after it is reset.
	 */
	if (old || (had && !has))
		tracepoint_synchronize_unregister();
	if (had && !has)
		for_each_possible_cpu(cpu)
			per_cpu_ptr(tr->array_buffer.data, cpu)->ftrace_ignore_pid =
				FTRACE_PID_TRACE;
	trace_pid_list_free(old);
}

/**
 * ftrace_clear_pids - drop both pid lists of a trace array
 * @tr: the trace array, going away or being reset
 */
void ftrace_clear_pids(struct trace_array *tr)
{
	mutex_lock(&ftrace_lock);
	fpid_set(tr, TRACE_PIDS, NULL);
	fpid_set(tr, TRACE_NO_PIDS, NULL);
	mutex_unlock(&ftrace_lock);
}

/*
 * The lists of @tr changed: judge the tasks running right now, which
 * switched in before the change, then rewire the pid wrappers and
 * update the sites.
 */
static void fpid_apply(struct trace_array *tr)
{
	lockdep_assert_held(&ftrace_lock);
	if (fpid_locked(tr, TRACE_PIDS) || fpid_locked(tr, TRACE_NO_PIDS))
		on_each_cpu(fpid_judge_current, tr, 1);
	fops_update_pid_funcs();
	ftrace_startup_all(0);
}

/* An open file: which trace array and which of its lists. */
struct fpid_file {
	struct trace_array	*tr;
	int			type;
};

/*
 * The one line of a file whose list is unset: "no pid".  Any other
 * position is a pid plus one (trace_pid_start()), and a list holds
 * pids below MAX_PID.
 */
#define FPID_NONE	((void *)(MAX_PID + 1UL))

/* Holds ftrace_lock until fpid_seq_stop(): the list cannot be freed. */
static void *fpid_seq_start(struct seq_file *m, loff_t *pos)
{
	struct fpid_file *f = m->private;
	struct trace_pid_list *pids;

	mutex_lock(&ftrace_lock);
	pids = fpid_locked(f->tr, f->type);
	if (!pids)
		return *pos ? NULL : FPID_NONE;
	return trace_pid_start(pids, pos);
}

static void *fpid_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct fpid_file *f = m->private;

	if (v == FPID_NONE) {
		(*pos)++;
		return NULL;
	}
	/* It moves *pos on itself. */
	return trace_pid_next(fpid_locked(f->tr, f->type), v, pos);
}

static void fpid_seq_stop(struct seq_file *m, void *v)
{
	mutex_unlock(&ftrace_lock);
}

static int fpid_seq_show(struct seq_file *m, void *v)
{
	if (v == FPID_NONE) {
		seq_puts(m, "no pid\n");
		return 0;
	}
	return trace_pid_show(m, v);
}

static const struct seq_operations fpid_sops = {
	.start	= fpid_seq_start,
	.next	= fpid_seq_next,
	.stop	= fpid_seq_stop,
	.show	= fpid_seq_show,
};

static int fpid_open(struct inode *inode, struct file *file, int type)
{
	struct trace_array *tr = inode->i_private;
	struct fpid_file *f;
	int ret;

	ret = tracing_check_open_get_tr(tr);
	if (ret)
		return ret;
	f = __seq_open_private(file, &fpid_sops, sizeof(*f));
	if (!f) {
		trace_array_put(tr);
		return -ENOMEM;
	}
	f->tr = tr;
	f->type = type;

	/* "echo > set_ftrace_pid" empties the list before writing. */
	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		mutex_lock(&ftrace_lock);
		fpid_set(tr, type, NULL);
		fpid_apply(tr);
		mutex_unlock(&ftrace_lock);
	}
	return 0;
}

static int fpid_open_pids(struct inode *inode, struct file *file)
{
	return fpid_open(inode, file, TRACE_PIDS);
}

static int fpid_open_no_pids(struct inode *inode, struct file *file)
{
	return fpid_open(inode, file, TRACE_NO_PIDS);
}

static ssize_t fpid_write(struct file *file, const char __user *ubuf,
			  size_t cnt, loff_t *ppos)
{
	struct fpid_file *f = ((struct seq_file *)file->private_data)->private;
	struct trace_array *tr = f->tr;
	struct trace_pid_list *new;
	ssize_t ret;

	if (!cnt)
		return 0;

	mutex_lock(&ftrace_lock);
	/* A new list from the old one and the text, or nothing on error. */
	ret = trace_pid_write(fpid_locked(tr, f->type), &new, ubuf, cnt);
	if (ret < 0)
		goto out;
	fpid_set(tr, f->type, new);
	fpid_apply(tr);
	*ppos += ret;
out:
	mutex_unlock(&ftrace_lock);
	return ret;
}

static int fpid_release(struct inode *inode, struct file *file)
{
	struct trace_array *tr = inode->i_private;

	trace_array_put(tr);
	return seq_release_private(inode, file);
}

static const struct file_operations fpid_pids_fops = {
	.open		= fpid_open_pids,
	.write		= fpid_write,
	.read		= seq_read,
	.llseek		= tracing_lseek,
	.release	= fpid_release,
};

static const struct file_operations fpid_no_pids_fops = {
	.open		= fpid_open_no_pids,
	.write		= fpid_write,
	.read		= seq_read,
	.llseek		= tracing_lseek,
	.release	= fpid_release,
};

/**
 * ftrace_init_tracefs - make the pid files of a trace array
 * @tr: the trace array
 * @d_tracer: its tracefs directory
 */
void ftrace_init_tracefs(struct trace_array *tr, struct dentry *d_tracer)
{
	trace_create_file("set_ftrace_pid", TRACE_MODE_WRITE, d_tracer, tr,
			  &fpid_pids_fops);
	trace_create_file("set_ftrace_notrace_pid", TRACE_MODE_WRITE,
			  d_tracer, tr, &fpid_no_pids_fops);
}
