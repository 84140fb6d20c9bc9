/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the parts of the function graph share: the slots of its users
 * (fgraph_users.c), the frames on the tasks' shadow stacks
 * (fgraph_frames.c) and the entry and return paths (fgraph_calls.c).
 */
#ifndef _KERNEL_TRACE_FTRACE_FGRAPH_H
#define _KERNEL_TRACE_FTRACE_FGRAPH_H

#include <linux/ftrace.h>
#include <linux/types.h>

#include "fgraph_stacks.h"
#include "internal.h"

/* The most graph users registered at once: one bit each in a frame. */
#define FGRAPH_SLOTS		16

/* A stack in words; the top FGRAPH_SLOTS words are the task variables. */
#define FGRAPH_STACK_WORDS	(SHADOW_STACK_SIZE / sizeof(unsigned long))
#define FGRAPH_VARS		(FGRAPH_STACK_WORDS - FGRAPH_SLOTS)

/* The most a user may reserve on a frame, in bytes. */
#define FGRAPH_MAX_DATA_SIZE	(32 * sizeof(unsigned long))

/*
 * fgraph_users.c.  ftrace_lock serialises the writers; the entry and
 * return paths read locklessly.  A slot's epoch is the registration
 * that put its user there; a frame keeps the epoch it began in, and
 * only users whose epoch is not newer are called for it, so a user
 * that takes a slot never sees the frames of the user it replaced.
 */
extern struct fgraph_ops *fgraph_slots[FGRAPH_SLOTS];
extern u64 fgraph_slot_epoch[FGRAPH_SLOTS];
extern u64 fgraph_epoch;
extern unsigned long fgraph_slots_used;
/* Set while more than one user may be reached: each tests its filter. */
extern bool fgraph_test_filters;

/* The user in @slot that may be called for a frame begun at @epoch. */
static __always_inline struct fgraph_ops *fgraph_slot_user(int slot, u64 epoch)
{
	/* Pairs with the release that publishes a user: its epoch first. */
	struct fgraph_ops *gops = smp_load_acquire(&fgraph_slots[slot]);

	if (!gops || READ_ONCE(fgraph_slot_epoch[slot]) > epoch)
		return NULL;
	return gops;
}

bool fgraph_pid_allows(struct fgraph_ops *gops);

/*
 * Should @gops be offered a call of @func?  Its filter is tested only
 * while several users may be reached (alone, its ops' sets decided
 * which sites call the graph), its pid filter only if it follows a
 * trace array's.  Preemption is off.
 */
static __always_inline bool fgraph_user_wants(struct fgraph_ops *gops,
					      unsigned long func)
{
	if (READ_ONCE(fgraph_test_filters) &&
	    !ftrace_ops_test(&gops->ops, func, NULL))
		return false;
	return !gops->ops.private || fgraph_pid_allows(gops);
}

/*
 * The lowest slot in *@slots, taken out of it; or -1 once none is left.
 * The frames' masks are one word, and this inline walk costs less than
 * find_next_bit() for the few bits set.
 */
static __always_inline int fgraph_next_slot(unsigned long *slots)
{
	int slot;

	if (!*slots)
		return -1;
	slot = __ffs(*slots);
	*slots &= *slots - 1;
	return slot;
}

/* ftrace_stub under the return callback's type (the linker script). */
void ftrace_stub_graph(struct ftrace_graph_ret *trace, struct fgraph_ops *gops,
		       struct ftrace_regs *fregs);

/* fgraph_frames.c: any task's frames, for the sleep-time adjustment. */
void fgraph_frames_add_sleep(struct task_struct *t, u64 delta);

/* fgraph_stacks.c: zero one word of every stack (a slot's variables). */
void fgraph_stacks_clear_word(int word);

#endif /* _KERNEL_TRACE_FTRACE_FGRAPH_H */
