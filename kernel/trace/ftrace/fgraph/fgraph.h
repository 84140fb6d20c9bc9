/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the parts of the function graph share: the slots of its users
 * (fgraph/users.c), the frames on the tasks' shadow stacks
 * (fgraph/frames.c) and the entry and return paths (fgraph/calls.c).
 */
#ifndef _KERNEL_TRACE_FTRACE_FGRAPH_FGRAPH_H
#define _KERNEL_TRACE_FTRACE_FGRAPH_FGRAPH_H

#include <linux/ftrace.h>
#include <linux/jump_label.h>
#include <linux/sched/clock.h>
#include <linux/static_call.h>
#include <linux/trace_recursion.h>
#include <linux/types.h>

#include "stacks.h"
#include "../internal.h"

/*
 * FGRAPH_SLOTS (linux/ftrace.h) is the most graph users registered at
 * once, one bit each in a frame; FGRAPH_VARS is where their task
 * variables begin, at the top of a stack.
 */
#define FGRAPH_STACK_WORDS	(SHADOW_STACK_SIZE / sizeof(unsigned long))
static_assert(FGRAPH_VARS + FGRAPH_SLOTS == FGRAPH_STACK_WORDS);

/* The most a user may reserve on a frame, in bytes. */
#define FGRAPH_MAX_DATA_SIZE	(32 * sizeof(unsigned long))

/*
 * fgraph/users.c.  ftrace_lock serialises the writers; the entry and
 * return paths read locklessly.  A slot's epoch is the registration
 * that put its user there; a frame keeps the epoch it began in, and
 * only users whose epoch is not newer are called for it, so a user
 * that takes a slot never sees the frames of the user it replaced.
 * Epochs go up in steps of FGRAPH_EPOCH_STEP.  On 64-bit that is the
 * lowest bit of their field in a frame word (fgraph/frames.h), so a
 * frame word holds one as it is; a 32-bit frame keeps its epoch in a
 * word of its own.  An epoch is a word, so the paths never read half
 * of one.
 */
#ifdef CONFIG_64BIT
#define FGRAPH_EPOCH_STEP	BIT(16)
#else
#define FGRAPH_EPOCH_STEP	1UL
#endif
extern struct fgraph_ops *fgraph_slots[FGRAPH_SLOTS];
extern unsigned long fgraph_slot_epoch[FGRAPH_SLOTS];
extern unsigned long fgraph_epoch;
extern unsigned long fgraph_slots_used;
/* Set while more than one user may be reached: each tests its filter. */
extern bool fgraph_test_filters;
/* The slots of the users whose pid filters hold pids: each is tested. */
extern unsigned long fgraph_pid_slots;

/* The user in @slot that may be called for a frame begun at @epoch. */
static __always_inline struct fgraph_ops *
fgraph_slot_user(int slot, unsigned long epoch)
{
	/* Pairs with the release that publishes a user: its epoch first. */
	struct fgraph_ops *gops = smp_load_acquire(&fgraph_slots[slot]);

	if (!gops || READ_ONCE(fgraph_slot_epoch[slot]) > epoch)
		return NULL;
	return gops;
}

/* ftrace_stub under the return callback's type (the linker script). */
void ftrace_stub_graph(struct ftrace_graph_ret *trace, struct fgraph_ops *gops,
		       struct ftrace_regs *fregs);

/*
 * While exactly one user is registered it is also fgraph_sole, and the
 * static calls below lead straight to its callbacks: the paths call it
 * without walking the slots.  fgraph_sole_slots is its slot's bit and
 * fgraph_sole_epoch its slot's epoch.  All are changed only while
 * fgraph_sole is NULL and every path that read it before has ended.
 */
extern struct fgraph_ops *fgraph_sole;
extern unsigned long fgraph_sole_slots;
extern unsigned long fgraph_sole_epoch;
DECLARE_STATIC_CALL(fgraph_sole_entry, ftrace_graph_entry_stub);
DECLARE_STATIC_CALL(fgraph_sole_return, ftrace_stub_graph);
/*
 * The sole user's declinefunc, or a return of false when it has none;
 * asked only while fgraph_sole_may_decline is on (the sole user has one),
 * so that the users without one do not pay for the question.
 */
DECLARE_STATIC_CALL(fgraph_sole_declines, *fgraph_sole->declinefunc);
DECLARE_STATIC_KEY_FALSE(fgraph_sole_may_decline);
/*
 * The sole user's decline_when, or a word that is never zero: its
 * declinefunc is asked only while this word is non-zero.
 */
extern const int *fgraph_sole_decline_when;

/* fgraph_sole, if it may be called for a frame begun at @epoch. */
static __always_inline struct fgraph_ops *fgraph_sole_user(unsigned long epoch)
{
	/* Pairs with the release that publishes it after its calls. */
	struct fgraph_ops *gops = smp_load_acquire(&fgraph_sole);

	if (!gops || READ_ONCE(fgraph_sole_epoch) > epoch)
		return NULL;
	return gops;
}

bool fgraph_pid_allows(struct fgraph_ops *gops);

/*
 * Should @gops be offered a call of @func?  Its filter is tested only
 * while several users may be reached (alone, its ops' sets decided
 * which sites call the graph), its pid filter only while that holds
 * pids.  Preemption is off.
 */
static __always_inline bool fgraph_user_wants(struct fgraph_ops *gops,
					      unsigned long func)
{
	unsigned long pids = READ_ONCE(fgraph_pid_slots);

	if (READ_ONCE(fgraph_test_filters) &&
	    !ftrace_ops_test(&gops->ops, func, NULL))
		return false;
	return likely(!pids) || !(pids & BIT(gops->idx)) ||
	       fgraph_pid_allows(gops);
}

#ifndef arch_ftrace_return_hookable
#define arch_ftrace_return_hookable()	true
#endif

/*
 * May a hook take the return of the current call?  Not where the arch
 * says the stack cannot hold it yet, not once the graph was stopped for
 * good, and not while the task has the graph paused (suspend and
 * hibernation do, around the code that saves and restores the CPU).
 * The graph's entry path and fprobe's exit hooks ask the same, the arch
 * first: the others read the task.
 */
static __always_inline bool fgraph_may_take_return(void)
{
	return arch_ftrace_return_hookable() && !ftrace_graph_is_dead() &&
	       !atomic_read(&current->tracing_graph_pause);
}

/* The recursion bit of a call from task context, the common case. */
#define FGRAPH_LOCK_TASK_BIT	(TRACE_FTRACE_START + TRACE_CTX_NORMAL)

/*
 * The recursion lock of the function hooks for a call from task
 * context, in one test of the preempt count.  Return: false if the call
 * is from another context, or RCU checks are configured, or the bit is
 * held; the caller then goes the general way.  Released with
 * fgraph_unlock_task().
 */
static __always_inline bool fgraph_trylock_task(void)
{
	/* Only the general way checks that RCU watches, if so configured. */
	if (IS_ENABLED(CONFIG_FTRACE_VALIDATE_RCU_IS_WATCHING) ||
	    !trace_trylock_task_bit(FGRAPH_LOCK_TASK_BIT))
		return false;
	barrier();
	preempt_disable_notrace();
	return true;
}

static __always_inline void fgraph_unlock_task(void)
{
	ftrace_test_recursion_unlock(FGRAPH_LOCK_TASK_BIT);
}

/*
 * The recursion lock of the function hooks, for the graph's entry and
 * return: fgraph_trylock_task() for the common case, any other the
 * general way.  Released with fgraph_unlock().
 */
static __always_inline int fgraph_trylock(unsigned long ip, unsigned long pip)
{
	if (likely(fgraph_trylock_task()))
		return FGRAPH_LOCK_TASK_BIT;
	return ftrace_test_recursion_trylock(ip, pip);
}

/* Release what fgraph_trylock() took: the common bit as a constant. */
static __always_inline void fgraph_unlock(int bit)
{
	if (likely(bit == FGRAPH_LOCK_TASK_BIT))
		fgraph_unlock_task();
	else
		ftrace_test_recursion_unlock(bit);
}

/*
 * trace_clock_local(), the clock of calltime and rettime, for the graph's
 * paths, which read it with preemption off: all that clock and
 * sched_clock() add to sched_clock_noinstr() is a section with
 * preemption off.
 */
static __always_inline u64 fgraph_clock(void)
{
	return sched_clock_noinstr();
}

/* fgraph/frames.c: any task's frames, for the sleep-time adjustment. */
void fgraph_frames_add_sleep(struct task_struct *t, u64 delta);

/* fgraph/stacks.c: zero one word of every stack (a slot's variables). */
void fgraph_stacks_clear_word(int word);

#endif /* _KERNEL_TRACE_FTRACE_FGRAPH_FGRAPH_H */
