/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The function graph's per-task shadow stacks (fgraph/stacks.c), as the
 * rest of the function graph sees them.
 */
#ifndef _KERNEL_TRACE_FTRACE_FGRAPH_STACKS_H
#define _KERNEL_TRACE_FTRACE_FGRAPH_STACKS_H

#include <linux/mm.h>

struct task_struct;

/* A task's shadow stack: one page, all zeros when the task gets it. */
#define SHADOW_STACK_SIZE	PAGE_SIZE

/* With ftrace_lock held: the first graph user comes, the last one left. */
int fgraph_stacks_get(void);
void fgraph_stacks_put(void);

/* Takes ftrace_lock: a hook outside the graph that pushes frames. */
int fgraph_frames_get(void);
void fgraph_frames_put(void);

/* The entry path of a task without a stack: have it given one soon. */
void fgraph_stacks_missing(void);

/* fgraph/stacks.c's allocator: a zeroed stack, counted, or NULL. */
unsigned long *fgraph_stack_alloc(void);

/* The stacks allocated now; *@idle: how many of them are idle tasks'. */
long fgraph_stacks_nr(long *idle);

#if IS_ENABLED(CONFIG_FGRAPH_STACKS_KUNIT_TEST)
/* Run a pass of taking stacks back now, and wait until it has ended. */
void fgraph_stacks_reap_sync(void);
/* Take @cpu's idle stack away, as if it came up with no user: 0 or -EBUSY. */
int fgraph_stacks_forget_idle(int cpu);
/* How many grace-period waits the passes of taking back made so far. */
unsigned long fgraph_stacks_path_waits(void);
/* How many passes fgraph_stacks_missing() has asked for so far. */
unsigned long fgraph_stacks_mend_requests(void);
/* Run the pass fgraph_stacks_missing() asked for, if any, to its end. */
void fgraph_stacks_mend_sync(void);
/* Take a task's stack away, as if forked with no user: 0 or -EBUSY. */
int fgraph_stacks_forget_task(struct task_struct *t);
#endif

#endif /* _KERNEL_TRACE_FTRACE_FGRAPH_STACKS_H */
