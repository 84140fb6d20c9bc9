// SPDX-License-Identifier: GPL-2.0
/*
 * Frames on the function graph's shadow stacks.
 *
 * A task's stack (fgraph_stacks.c) is an array of words.  Frames grow up
 * from word 0, and the task's curr_ret_stack is the first free word; the
 * top FGRAPH_SLOTS words are one variable per user slot.  A frame, from
 * its first word up:
 *
 *	struct ftrace_ret_stack		FGRAPH_RET_WORDS words
 *	frame word			tag, the users called, the epoch
 *	n words reserved by a user
 *	data word			tag, the slot, n, distance to the frame
 *	... what other users reserved, each with its data word
 *
 * The top word of a non-empty stack is a frame word or a data word, and
 * either leads to the first word of its frame: the return path, the
 * unwinders and the sleep-time adjustment walk the frames that way, from
 * the top down.  A frame is open while the entry callbacks run (they may
 * reserve data on it) and closed with the set of users that took the call.
 *
 * Only the task pushes and pops its frames, in process or interrupt
 * context, and an interrupt pops what it pushed before the interrupted
 * code goes on.  So a push first moves curr_ret_stack past the words it
 * is about to write, then writes them: an interrupt in between pushes
 * above.  Other tasks' stacks are only read, and a reader that finds a
 * word that leads nowhere stops.
 */
#include <linux/bitfield.h>
#include <linux/kallsyms.h>
#include <linux/ftrace.h>
#include <linux/sched.h>
#include <linux/trace_clock.h>

#include "fgraph.h"

#define FGRAPH_RET_WORDS	\
	DIV_ROUND_UP(sizeof(struct ftrace_ret_stack), sizeof(unsigned long))

/* Fields of frame and data words.  A zero word (a new stack) has no tag. */
#define FGW_TAG			GENMASK(63, 62)
#define FGW_OPEN		1UL
#define FGW_CLOSED		2UL
#define FGW_DATA		3UL
#define FGW_USERS		GENMASK(FGRAPH_SLOTS - 1, 0)
#define FGW_EPOCH		GENMASK(61, 16)
#define FGW_SLOT		GENMASK(3, 0)
#define FGW_WORDS		GENMASK(9, 4)
#define FGW_DIST		GENMASK(25, 16)

/* The users fit FGW_USERS, the stack FGW_DIST, a reservation FGW_WORDS. */
static_assert(FGRAPH_SLOTS <= 16);
static_assert(FGRAPH_STACK_WORDS < (1 << 10));
static_assert(FGRAPH_MAX_DATA_SIZE / sizeof(long) < (1 << 6));

static inline struct ftrace_ret_stack *fgf_ret(unsigned long *stack, int start)
{
	return (struct ftrace_ret_stack *)&stack[start];
}

static inline unsigned long fgf_tag(unsigned long word)
{
	return FIELD_GET(FGW_TAG, word);
}

/*
 * The first word of the frame below stack position @pos (the task's
 * curr_ret_stack, or the first word of the frame above), or -1.
 */
static int fgf_below(unsigned long *stack, int pos)
{
	unsigned long word, tag;
	int start;

	if (!stack || pos <= FGRAPH_RET_WORDS || pos > FGRAPH_VARS)
		return -1;
	word = READ_ONCE(stack[pos - 1]);
	tag = fgf_tag(word);
	if (tag == FGW_DATA)
		start = pos - 1 - (int)FIELD_GET(FGW_DIST, word);
	else if (tag == FGW_OPEN || tag == FGW_CLOSED)
		start = pos - 1 - FGRAPH_RET_WORDS;
	else
		return -1;
	if (start < 0 || start + FGRAPH_RET_WORDS >= pos)
		return -1;
	tag = fgf_tag(READ_ONCE(stack[start + FGRAPH_RET_WORDS]));
	return tag == FGW_OPEN || tag == FGW_CLOSED ? start : -1;
}

/*
 * Move the current task's stack top to @top, with @word as its top word.
 * The word goes in before the move, for a reader in an interrupt just
 * after it, and again after, since an interrupt before the move may have
 * pushed over it.
 */
static void fgf_put_top(unsigned long *stack, int top, unsigned long word)
{
	WRITE_ONCE(stack[top - 1], word);
	barrier();
	WRITE_ONCE(current->curr_ret_stack, top);
	barrier();
	WRITE_ONCE(stack[top - 1], word);
}

/**
 * fgraph_frame_push - begin a frame for a call the entry path may hook
 * @ret: the call's return address
 * @func: the function called
 * @retp: where @ret is stored
 * @epoch: fgraph_epoch when the call came in
 *
 * Return: the frame's first word, open for the entry callbacks; or
 * -EBUSY if the task has no stack, or no room on it (counted in
 * trace_overrun).
 */
int fgraph_frame_push(unsigned long ret, unsigned long func,
		      unsigned long *retp, u64 epoch)
{
	/* Pairs with fgs_give(): a stack is published after its fields. */
	unsigned long *stack = smp_load_acquire(&current->ret_stack);
	struct ftrace_ret_stack *frame;
	int start;

	if (!stack)
		return -EBUSY;
	start = current->curr_ret_stack;
	if (start + FGRAPH_RET_WORDS + 1 > FGRAPH_VARS) {
		atomic_inc(&current->trace_overrun);
		return -EBUSY;
	}
	fgf_put_top(stack, start + FGRAPH_RET_WORDS + 1,
		    FIELD_PREP(FGW_TAG, FGW_OPEN) | FIELD_PREP(FGW_EPOCH, epoch));
	frame = fgf_ret(stack, start);
	frame->ret = ret;
	frame->func = func;
	frame->retp = retp;
	frame->calltime = trace_clock_local();
#ifdef CONFIG_FUNCTION_PROFILER
	frame->subtime = 0;
#endif
	return start;
}

/**
 * fgraph_frame_close - end the entry of the frame at @start
 * @start: what fgraph_frame_push() returned
 * @users: the slots whose users took the call, not 0
 */
void fgraph_frame_close(int start, unsigned long users)
{
	unsigned long *word = &current->ret_stack[start + FGRAPH_RET_WORDS];

	WRITE_ONCE(*word, (*word & FGW_EPOCH) |
		   FIELD_PREP(FGW_TAG, FGW_CLOSED) | (users & FGW_USERS));
}

/**
 * fgraph_frame_top - the closed frame on top of the task's stack
 * @start: its first word, where the stack is left once it is popped
 * @users: the slots whose users took the call
 * @epoch: the epoch the call came in
 *
 * Return: the frame, or NULL if the top of the stack is no closed frame.
 */
struct ftrace_ret_stack *fgraph_frame_top(int *start, unsigned long *users,
					  u64 *epoch)
{
	unsigned long *stack = current->ret_stack;
	unsigned long word;
	int first = fgf_below(stack, current->curr_ret_stack);

	if (first < 0)
		return NULL;
	word = stack[first + FGRAPH_RET_WORDS];
	if (fgf_tag(word) != FGW_CLOSED)
		return NULL;
	*start = first;
	*users = word & FGW_USERS;
	*epoch = FIELD_GET(FGW_EPOCH, word);
	return fgf_ret(stack, first);
}

/**
 * fgraph_reserve_data - keep data on the frame of the call being entered
 * @idx: the slot of the user reserving (its fgraph_ops' idx)
 * @size_bytes: how much, at most FGRAPH_MAX_DATA_SIZE (32 words)
 *
 * For an entry callback: the data is the user's until the call returns,
 * when its return callback finds it with fgraph_retrieve_data().  It is
 * dropped if the entry callback declines the call.  One reservation per
 * user and call.
 *
 * Return: the data, word aligned; or NULL outside an entry callback, on
 * a second reservation, for a bad size, or when the stack is full.
 */
void *fgraph_reserve_data(int idx, int size_bytes)
{
	unsigned long *stack = current->ret_stack;
	int pos = current->curr_ret_stack;
	int start, words;
	unsigned long top;

	if (idx < 0 || idx >= FGRAPH_SLOTS || size_bytes <= 0 ||
	    size_bytes > FGRAPH_MAX_DATA_SIZE)
		return NULL;
	start = fgf_below(stack, pos);
	if (start < 0 || fgf_tag(stack[start + FGRAPH_RET_WORDS]) != FGW_OPEN)
		return NULL;
	top = stack[pos - 1];
	if (fgf_tag(top) == FGW_DATA && FIELD_GET(FGW_SLOT, top) == idx)
		return NULL;
	words = DIV_ROUND_UP(size_bytes, sizeof(unsigned long));
	if (pos + words + 1 > FGRAPH_VARS) {
		atomic_inc(&current->trace_overrun);
		return NULL;
	}
	fgf_put_top(stack, pos + words + 1, FIELD_PREP(FGW_TAG, FGW_DATA) |
		    FIELD_PREP(FGW_SLOT, idx) | FIELD_PREP(FGW_WORDS, words) |
		    FIELD_PREP(FGW_DIST, pos + words - start));
	return &stack[pos];
}

/**
 * fgraph_retrieve_data - find the data reserved on the returning call
 * @idx: the slot of the user (its fgraph_ops' idx)
 * @size_bytes: if not NULL, set to the size reserved, in whole words
 *
 * For a return callback: what its entry callback reserved on this call.
 *
 * Return: the data, or NULL if none was reserved.
 */
void *fgraph_retrieve_data(int idx, int *size_bytes)
{
	unsigned long *stack = current->ret_stack;
	int pos = current->curr_ret_stack;
	int start = fgf_below(stack, pos);

	if (start < 0)
		return NULL;
	while (pos - 1 > start + FGRAPH_RET_WORDS) {
		unsigned long word = stack[pos - 1];
		int words = FIELD_GET(FGW_WORDS, word);

		if (fgf_tag(word) != FGW_DATA)
			return NULL;
		if (FIELD_GET(FGW_SLOT, word) == idx) {
			if (size_bytes)
				*size_bytes = words * sizeof(unsigned long);
			return &stack[pos - 1 - words];
		}
		pos -= words + 1;
	}
	return NULL;
}

/**
 * fgraph_get_task_var - a graph user's variable in the current task
 * @gops: the registered user
 *
 * One word per task and user, zero when the user registers; for the
 * user's callbacks, which run in the task.
 *
 * Return: the word.
 */
unsigned long *fgraph_get_task_var(struct fgraph_ops *gops)
{
	return &current->ret_stack[FGRAPH_VARS + gops->idx];
}

/**
 * ftrace_graph_get_ret_stack - a frame of a task's hooked calls
 * @task: the task
 * @skip: how many frames down from the latest (0: the latest)
 *
 * Return: the frame, or NULL if the task has fewer hooked calls.
 */
struct ftrace_ret_stack *
ftrace_graph_get_ret_stack(struct task_struct *task, int skip)
{
	unsigned long *stack = READ_ONCE(task->ret_stack);
	int start = READ_ONCE(task->curr_ret_stack);

	do {
		start = fgf_below(stack, start);
		if (start < 0)
			return NULL;
	} while (skip--);
	return fgf_ret(stack, start);
}

/**
 * ftrace_graph_ret_addr - the real return address behind return_to_handler
 * @task: the task whose stack is being unwound
 * @idx: where the search goes on from; 0 at the first call of an unwind
 * @ret: the return address found on the stack
 * @retp: where it was found
 *
 * For unwinders: a return address that is return_to_handler stands for
 * the one the frame for @retp saved.  A tail call leaves several frames
 * for one @retp, all but the first saving return_to_handler.
 *
 * Return: the real address, or @ret if it is not return_to_handler or no
 * frame matches.
 */
unsigned long ftrace_graph_ret_addr(struct task_struct *task, int *idx,
				    unsigned long ret, unsigned long *retp)
{
	unsigned long handler = (unsigned long)
		dereference_kernel_function_descriptor(return_to_handler);
	unsigned long *stack = READ_ONCE(task->ret_stack);
	struct ftrace_ret_stack *frame;
	int start;

	if (ret != handler || !idx)
		return ret;
	/* *idx is one more than the last frame found: 0 means none yet. */
	start = *idx ? *idx - 1 : READ_ONCE(task->curr_ret_stack);
	while ((start = fgf_below(stack, start)) >= 0) {
		frame = fgf_ret(stack, start);
		if (frame->retp == retp && frame->ret != handler) {
			*idx = start + 1;
			return frame->ret;
		}
	}
	return ret;
}

/**
 * fgraph_frames_add_sleep - take a task's sleep out of its calls' times
 * @t: a task that is not running
 * @delta: how long it slept
 */
void fgraph_frames_add_sleep(struct task_struct *t, u64 delta)
{
	unsigned long *stack = READ_ONCE(t->ret_stack);
	int start = t->curr_ret_stack;

	while ((start = fgf_below(stack, start)) >= 0)
		fgf_ret(stack, start)->calltime += delta;
}
