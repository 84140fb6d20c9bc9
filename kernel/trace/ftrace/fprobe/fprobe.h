/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What fprobe's parts share: the hooks of the probes, which the registry
 * (fprobe/fprobe.c) makes and the call paths (fprobe/calls.c) run.
 *
 * Every probe has a hook, an ftrace_ops of its own on its functions,
 * whose private is the probe: a call finds its probe with no lookup, and
 * several probes on one function are several ops there.  A probe without
 * exit handler needs nothing more.  One with an exit handler keeps a
 * frame per call on the task's shadow stack (fgraph/frames.h); the frame
 * names the probe by its entry in fprobe_exits and by its id, which no
 * later probe reuses, so that the return finds the probe only while it
 * is registered.
 */
#ifndef _KERNEL_TRACE_FTRACE_FPROBE_FPROBE_H
#define _KERNEL_TRACE_FTRACE_FPROBE_FPROBE_H

#include <linux/fprobe.h>
#include <linux/ftrace.h>
#include <linux/list.h>
#include <linux/types.h>

#include "../fgraph/frames.h"

/*
 * A probe's hook: @ops hooks its functions while @hooked, which stops
 * when they have all gone with their module.  On fprobe_hooks, under
 * fprobe_mutex.  An exit probe's frames are laid out as @frame says
 * (whose words are 0 for a probe without exit handler), and @index is
 * its entry in fprobe_exits; both are set before @ops is registered.
 */
struct fprobe_hook {
	struct ftrace_ops	ops;
	struct list_head	node;
	bool			hooked;
	struct fgraph_fprobe	frame;
	unsigned long		index;
};

/*
 * The exit probes, by index: an entry holds a registered probe and its
 * id, or id 0 when free.  The writer sets @fp before @id, and only
 * clears @id; the return path reads @id, then @fp.
 */
struct fprobe_exit {
	struct fprobe	*fp;
	u64		id;
};

/* A frame gives its probe's entry as its offset in words: two per entry. */
#define FPROBE_EXIT_WORDS	(sizeof(struct fprobe_exit) / sizeof(long))

/*
 * The table only grows, so that the entry in any frame stays within it:
 * a larger one is published with the entries copied, and the old one is
 * freed once no CPU is in a return path (they run with preemption off).
 */
extern struct fprobe_exit __rcu *fprobe_exits;
/* Its entries, under fprobe_mutex. */
extern unsigned long fprobe_exits_nr;

/*
 * Set *@fp to the probe of a frame's @entry (fgf_fprobe_entry()) if it
 * has @id, and say whether it has.  Preemption off.
 */
static __always_inline bool fprobe_exit_find(unsigned long entry, u64 id,
					     struct fprobe **fp)
{
	unsigned long *table = (unsigned long *)rcu_dereference_raw(fprobe_exits);
	struct fprobe_exit *e = (struct fprobe_exit *)&table[entry];

	if (READ_ONCE(e->id) != id)
		return false;
	/* Pairs with the writer's: the probe of an id is set before it. */
	smp_rmb();
	*fp = READ_ONCE(e->fp);
	return true;
}

/* What a change takes out: the functions @gone names. */
struct fprobe_cut {
	bool	(*gone)(unsigned long ip, void *arg);
	void	*arg;
};

/*
 * fprobe.c: what the module notifier does, and the allocators of the
 * addresses a cut takes out and of tables of exit probes.
 */
void fprobe_cut_functions(const struct fprobe_cut *cut);
unsigned long *fprobe_ips_alloc(unsigned int nr);
struct fprobe_exit *fprobe_exits_alloc(unsigned long nr);

/* fprobe/calls.c: the functions of the hooks. */
void fprobe_hook_func(unsigned long ip, unsigned long parent_ip,
		      struct ftrace_ops *op, struct ftrace_regs *fregs);
void fprobe_exit_hook_func(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *op, struct ftrace_regs *fregs);
void fprobe_exit_only_hook_func(unsigned long ip, unsigned long parent_ip,
				struct ftrace_ops *op,
				struct ftrace_regs *fregs);

#endif /* _KERNEL_TRACE_FTRACE_FPROBE_FPROBE_H */
