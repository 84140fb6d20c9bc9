// SPDX-License-Identifier: GPL-2.0
/*
 * Frames on the function graph's shadow stacks: what walks them (the
 * unwinders, the sleep-time adjustment, the per-call data and the
 * task variables).  Their layout is in fgraph/frames.h.
 */
#include <linux/kallsyms.h>
#include <linux/ftrace.h>
#include <linux/sched.h>

#include "../../trace.h"
#include "frames.h"

/* Out of line for the walks that are not on a call's path. */
int fgraph_frame_below(unsigned long *stack, int pos)
{
	return fgf_frame_below(stack, pos);
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
	unsigned long word, top;
	int start, words;

	if (idx < 0 || idx >= FGRAPH_SLOTS || size_bytes <= 0 ||
	    size_bytes > FGRAPH_MAX_DATA_SIZE)
		return NULL;
	start = fgf_top_frame(stack, pos, FGW_OPEN, &word);
	if (start < 0)
		return NULL;
	top = stack[pos - 1];
	if (fgf_tag(top) == FGW_DATA && FIELD_GET(FGW_SLOT, top) == idx)
		return NULL;
	words = DIV_ROUND_UP(size_bytes, sizeof(unsigned long));
	if (pos + words + 1 > FGRAPH_VARS) {
		atomic_inc(&current->trace_overrun);
		return NULL;
	}
	fgf_put_top(stack, pos + words + 1,
		    fgf_data_word(idx, words, pos + words - start));
	return &stack[pos];
}

/*
 * The data of @idx when it is not on top of the returning frame: walk
 * its data words down to its frame word.
 */
static unsigned long *fgraph_retrieve_below(int idx, unsigned int *words)
{
	unsigned long *stack = current->ret_stack;
	int pos = current->curr_ret_stack;
	int start = fgf_frame_below(stack, pos);
	unsigned long word;

	if (start < 0)
		return NULL;
	while (pos - 1 > start + FGRAPH_RET_WORDS) {
		word = stack[pos - 1];
		*words = FIELD_GET(FGW_WORDS, word);
		if (fgf_tag(word) != FGW_DATA)
			return NULL;
		if (FIELD_GET(FGW_SLOT, word) == idx)
			return &stack[pos - 1 - *words];
		pos -= *words + 1;
	}
	return NULL;
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
	unsigned long *stack = current->ret_stack, word;
	int pos = current->curr_ret_stack;
	unsigned int words;
	void *data;

	if (unlikely(!stack || pos <= FGRAPH_RET_WORDS + 1 || pos > FGRAPH_VARS))
		return NULL;
	/*
	 * The last user that reserved on the frame has its data right under
	 * the top word, and needs no walk.  A data word is only ever
	 * written over its data, which lies above the frame word.
	 */
	word = stack[pos - 1];
	words = FIELD_GET(FGW_WORDS, word);
	if (fgf_tag(word) == FGW_DATA && FIELD_GET(FGW_SLOT, word) == idx)
		data = &stack[pos - 1 - words];
	else
		data = fgraph_retrieve_below(idx, &words);
	if (data && size_bytes)
		*size_bytes = words * sizeof(unsigned long);
	return data;
}

/*
 * Is the frame at @start one of fprobe's?  Only those are closed with
 * no users (fgraph/frames.h).
 */
static bool fgf_is_fprobe(unsigned long *stack, int start)
{
	unsigned long word = READ_ONCE(stack[start + FGRAPH_RET_WORDS]);

	return fgf_tag(word) == FGW_CLOSED && !(word & FGW_USERS);
}

/**
 * ftrace_graph_get_ret_stack - a frame of the graph users' hooked calls
 * @task: the task
 * @skip: how many frames down from the latest (0: the latest)
 *
 * fprobe's frames are not counted: they belong to no graph user, and
 * their times are not kept.
 *
 * Return: the frame, or NULL if the task has fewer hooked calls.
 */
struct ftrace_ret_stack *
ftrace_graph_get_ret_stack(struct task_struct *task, int skip)
{
	unsigned long *stack = READ_ONCE(task->ret_stack);
	int start = READ_ONCE(task->curr_ret_stack);

	for (;;) {
		start = fgraph_frame_below(stack, start);
		if (start < 0)
			return NULL;
		if (!fgf_is_fprobe(stack, start) && !skip--)
			return fgf_ret(stack, start);
	}
}

/* Is @ret a return trampoline: return_to_handler, or fprobe's? */
static bool fgf_trampoline(unsigned long ret)
{
	if (IS_ENABLED(CONFIG_FPROBE) &&
	    ret == (unsigned long)fprobe_return_to_handler)
		return true;
	return ret == (unsigned long)
		dereference_kernel_function_descriptor(return_to_handler);
}

/**
 * ftrace_graph_ret_addr - the real return address behind return_to_handler
 * @task: the task whose stack is being unwound
 * @idx: where the search goes on from; 0 at the first call of an unwind
 * @ret: the return address found on the stack
 * @retp: where it was found
 *
 * For unwinders: a return address that is return_to_handler (or fprobe's
 * return trampoline) stands for the one the frame for @retp saved.  A
 * tail call, or several hooks on one function, leave several frames for
 * one @retp, all but the first saving a trampoline.
 *
 * Return: the real address, or @ret if it is not return_to_handler or no
 * frame matches.
 */
unsigned long ftrace_graph_ret_addr(struct task_struct *task, int *idx,
				    unsigned long ret, unsigned long *retp)
{
	unsigned long *stack = READ_ONCE(task->ret_stack);
	struct ftrace_ret_stack *frame;
	int start;

	if (!fgf_trampoline(ret) || !idx)
		return ret;
	/* *idx is one more than the last frame found: 0 means none yet. */
	start = *idx ? *idx - 1 : READ_ONCE(task->curr_ret_stack);
	while ((start = fgraph_frame_below(stack, start)) >= 0) {
		frame = fgf_ret(stack, start);
		if (frame->retp == retp && !fgf_trampoline(frame->ret)) {
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
	struct ftrace_ret_stack *frame;
	int start = t->curr_ret_stack;

	while ((start = fgraph_frame_below(stack, start)) >= 0) {
		frame = fgf_ret(stack, start);
		if (frame->calltime)
			frame->calltime += delta;
	}
}
