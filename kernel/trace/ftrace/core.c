// SPDX-License-Identifier: GPL-2.0
/*
 * The roots of the function hooks: ftrace_lock, global_ops, the first
 * NOPs of the sites a block of text brings (the kernel's at boot, a
 * module's when it comes), and the glue the trace arrays use.
 *
 * The rest lives by responsibility: records of sites
 * (records.c), sets and patterns (hash.c), the ops list
 * and its dispatch (dispatch.c), the books kept on each site
 * (accounting.c), the call each site holds
 * (site_calls.c), starting, stopping and patching
 * (code_update.c), subops (subops.c), direct calls
 * (direct.c), modules (modules.c), the tracefs files
 * and the switches (switches.c).
 *
 * Lock order: trace_types_lock, an ops' regex_lock and fdir_mutex are
 * each taken before ftrace_lock; text_mutex, which the arch takes
 * while it patches, after it.
 */
#include <linux/ftrace.h>
#include <linux/init.h>
#include <linux/irqflags.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>

#include "code_update.h"
#include "dispatch.h"
#include "tracefs/graph_filter.h"
#include "hash.h"
#include "internal.h"
#include "modules.h"
#include "tracefs/profile.h"
#include "records.h"
#include "site_calls.h"
#include "tracefs/tracefs.h"
#include "../trace.h"

/*
 * Protects the list of ops, what each record says of its site, the
 * sets of a registered ops and every code update.
 */
DEFINE_MUTEX(ftrace_lock);

#ifdef CONFIG_DYNAMIC_FTRACE

#ifndef CONFIG_FTRACE_MCOUNT_RECORD
# error "dynamic ftrace finds its sites in the __mcount_loc tables"
#endif

/*
 * The top level's ops.  Its sets are set_ftrace_filter and
 * set_ftrace_notrace, which other ops may share
 * (ftrace_ops_set_global_filter()).
 */
struct ftrace_ops global_ops = {
	.func			= ftrace_stub,
	.flags			= FTRACE_OPS_FL_INITIALIZED | FTRACE_OPS_FL_PID,
	.func_hash		= &global_ops.local_hash,
	.local_hash		= {
		.filter_hash	= RCU_INITIALIZER(FHASH_EMPTY),
		.notrace_hash	= RCU_INITIALIZER(FHASH_EMPTY),
		.regex_lock	= __MUTEX_INITIALIZER(global_ops.local_hash.regex_lock),
	},
	.subop_list		= LIST_HEAD_INIT(global_ops.subop_list),
};

/*
 * Give the new records of @mod (NULL: the kernel) their first flags
 * and make their sites NOPs, unless the build left NOPs there already.
 * A module's records start DISABLED: the loader is still to make its
 * text read-only, which a patch racing with it could make fail, so
 * ftrace_module_enable() is what hands them to the ops.
 */
static void fcore_first_nops(struct module *mod)
{
	unsigned long flags = mod ? FTRACE_FL_DISABLED : 0;
	bool patch = ftrace_need_init_nop();
	struct dyn_ftrace *rec;

	frec_for_each_owned(mod, rec) {
		if (unlikely(ftrace_is_dead()))
			return;
		rec->flags = flags;
		/* A site that refuses its NOP is marked BAD, and left. */
		if (patch)
			fcall_init_nop(mod, rec);
	}
}

/**
 * ftrace_process_locs - make the records of a block of sites
 * @mod: the module the sites are in, NULL for the kernel
 * @start: the first of the block's __mcount_loc entries
 * @end: past the last
 *
 * Takes ftrace_lock.
 *
 * Return: 0 or -ENOMEM.
 */
int ftrace_process_locs(struct module *mod, unsigned long *start,
			unsigned long *end)
{
	unsigned long irqs = 0;
	LIST_HEAD(tables);
	int ret;

	if (start == end)
		return 0;
	ret = frec_build(mod, start, end, &tables);
	if (ret)
		return ret;

	scoped_guard(mutex, &ftrace_lock) {
		frec_publish(&tables);
		/*
		 * The kernel's sites can run in an interrupt while they are
		 * rewritten; a module's cannot run before it is loaded, so
		 * it costs no interrupt latency.
		 */
		if (!mod)
			local_irq_save(irqs);
		fcore_first_nops(mod);
		if (!mod)
			local_irq_restore(irqs);
	}

	if (!mod)
		pr_info("ftrace: allocating %lu entries in %lu pages\n",
			frec_count(), ftrace_number_of_pages);
	return 0;
}

int __init __weak ftrace_dyn_arch_init(void)
{
	return 0;
}

/**
 * ftrace_init - make the kernel's records and turn its sites into NOPs
 *
 * Called once, early in start_kernel().  If it fails, ftrace is dead
 * and nothing can be registered.
 */
void __init ftrace_init(void)
{
	unsigned long *first = __start_mcount_loc, *end = __stop_mcount_loc;
	unsigned long irqs;
	int ret;

	local_irq_save(irqs);
	ret = ftrace_dyn_arch_init();
	local_irq_restore(irqs);
	if (ret)
		goto dead;

	if (first == end) {
		pr_info("ftrace: No functions to be traced?\n");
		goto dead;
	}
	if (ftrace_process_locs(NULL, first, end)) {
		pr_warn("ftrace: failed to allocate entries for functions\n");
		goto dead;
	}
	pr_info("ftrace: allocated %ld pages with %ld groups, %zu bytes a record\n",
		ftrace_number_of_pages, ftrace_number_of_groups,
		sizeof(struct dyn_ftrace));

	fsw_boot_enable();
	ftrace_filter_boot();
	return;
dead:
	ftrace_kill();
}

/**
 * ftrace_init_trace_array - set up the function-hook lists of a trace array
 * @tr: the trace array, new
 */
void ftrace_init_trace_array(struct trace_array *tr)
{
	/* Its function probes, then its "mod:" filters waiting for modules. */
	INIT_LIST_HEAD(&tr->func_probes);
	INIT_LIST_HEAD(&tr->mod_notrace);
	INIT_LIST_HEAD(&tr->mod_trace);
}

#else /* !CONFIG_DYNAMIC_FTRACE */

struct ftrace_ops global_ops = {
	.func	= ftrace_stub,
	.flags	= FTRACE_OPS_FL_INITIALIZED | FTRACE_OPS_FL_PID,
};

#endif /* CONFIG_DYNAMIC_FTRACE */

/**
 * ftrace_init_global_array_ops - give the top level trace array global_ops
 * @tr: the top level trace array
 */
__init void ftrace_init_global_array_ops(struct trace_array *tr)
{
	global_ops.private = tr;
	tr->ops = &global_ops;
	ftrace_init_trace_array(tr);
	init_array_fgraph_ops(tr, &global_ops);
}

/**
 * ftrace_init_array_ops - set the callback of a trace array's ops
 * @tr: the trace array
 * @func: the function tracer's callback for it
 */
void ftrace_init_array_ops(struct trace_array *tr, ftrace_func_t func)
{
	/* global_ops is the top level's: someone forgot to reset it. */
	if (tr->flags & TRACE_ARRAY_FL_GLOBAL)
		WARN(tr->ops->func != ftrace_stub,
		     "ftrace ops had %pS for function\n", tr->ops->func);
	tr->ops->func = func;
	tr->ops->private = tr;
}

/**
 * ftrace_reset_array_ops - take the callback of a trace array's ops away
 * @tr: the trace array
 */
void ftrace_reset_array_ops(struct trace_array *tr)
{
	tr->ops->func = ftrace_stub;
}

/**
 * ftrace_init_tracefs_toplevel - create the files only the top level has
 * @tr: the top level trace array
 * @d_tracer: its directory
 *
 * The listings of records, set_ftrace_filter and set_ftrace_notrace,
 * the graph filters and the profiler.
 */
void __init ftrace_init_tracefs_toplevel(struct trace_array *tr,
					 struct dentry *d_tracer)
{
	WARN_ON(!(tr->flags & TRACE_ARRAY_FL_GLOBAL));

#ifdef CONFIG_DYNAMIC_FTRACE
	flist_tracefs(d_tracer);
	ftrace_create_filter_files(NULL, d_tracer);
	ftrace_graph_filter_tracefs(d_tracer);
#endif
	ftrace_profile_tracefs(d_tracer);
}
