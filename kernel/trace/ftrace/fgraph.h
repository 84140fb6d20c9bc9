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

bool fgraph_user_wants(struct fgraph_ops *gops, unsigned long func);

/* ftrace_stub under the return callback's type (the linker script). */
void ftrace_stub_graph(struct ftrace_graph_ret *trace, struct fgraph_ops *gops,
		       struct ftrace_regs *fregs);

/* fgraph_frames.c: the calling task's own frames. */
int fgraph_frame_push(unsigned long ret, unsigned long func,
		      unsigned long *retp, u64 epoch);
void fgraph_frame_close(int start, unsigned long users);
struct ftrace_ret_stack *fgraph_frame_top(int *start, unsigned long *users,
					  u64 *epoch);

/* fgraph_frames.c: any task's frames, for the sleep-time adjustment. */
void fgraph_frames_add_sleep(struct task_struct *t, u64 delta);

/* fgraph_stacks.c: zero one word of every stack (a slot's variables). */
void fgraph_stacks_clear_word(int word);

#endif /* _KERNEL_TRACE_FTRACE_FGRAPH_H */
