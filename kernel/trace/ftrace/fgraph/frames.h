/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Frames on the function graph's shadow stacks.
 *
 * A task's stack (fgraph/stacks.c) is an array of words.  Frames grow up
 * from word 0, and the task's curr_ret_stack is the first free word; the
 * top FGRAPH_SLOTS words are one variable per user slot.  A frame, from
 * its first word up:
 *
 *	struct ftrace_ret_stack		FGRAPH_RET_WORDS words
 *	(32-bit: the epoch)		(with them)
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
 *
 * The task's own push, close and pop are inline here: they are most of
 * the entry and return paths.
 */
#ifndef _KERNEL_TRACE_FTRACE_FGRAPH_FRAMES_H
#define _KERNEL_TRACE_FTRACE_FGRAPH_FRAMES_H

#include <linux/bitfield.h>
#include <linux/bug.h>
#include <linux/ftrace.h>
#include <linux/sched.h>

#include "fgraph.h"

/* A 32-bit frame word has no room for the epoch: it has a word below. */
#define FGF_EPOCH_WORDS		(BITS_PER_LONG == 64 ? 0 : 1)
#define FGRAPH_RET_WORDS						\
	(DIV_ROUND_UP(sizeof(struct ftrace_ret_stack), sizeof(unsigned long)) + \
	 FGF_EPOCH_WORDS)

/* Fields of frame and data words.  A zero word (a new stack) has no tag. */
#define FGW_TAG			GENMASK(BITS_PER_LONG - 1, BITS_PER_LONG - 2)
#define FGW_OPEN		1UL
#define FGW_CLOSED		2UL
#define FGW_DATA		3UL
#define FGW_USERS		GENMASK(FGRAPH_SLOTS - 1, 0)
#define FGW_SLOT		GENMASK(3, 0)
#define FGW_WORDS		GENMASK(9, 4)
#define FGW_DIST		GENMASK(25, 16)

/*
 * The users fit FGW_USERS, a reservation FGW_WORDS, and FGW_DIST any
 * distance within the frames (under FGRAPH_VARS words; 32-bit has 1,024
 * words a stack).
 * An epoch is its field in place on 64-bit (2^46 registrations before
 * it wraps), a word of its own on 32-bit (2^32).
 */
static_assert(FGRAPH_SLOTS <= 16);
static_assert(FGRAPH_VARS <= (1 << 10));
static_assert(FGRAPH_MAX_DATA_SIZE / sizeof(long) < (1 << 6));

static inline struct ftrace_ret_stack *fgf_ret(unsigned long *stack, int start)
{
	return (struct ftrace_ret_stack *)&stack[start];
}

#ifdef CONFIG_64BIT
#define FGW_EPOCH		GENMASK(61, 16)
static_assert(FGRAPH_EPOCH_STEP == (FGW_EPOCH & -FGW_EPOCH));

/* What the frame word holds of @epoch. */
static __always_inline unsigned long fgf_epoch_bits(unsigned long epoch)
{
	return epoch;
}

/* Keep @epoch in the pushed frame at @start, beside its frame word. */
static __always_inline void fgf_keep_epoch(unsigned long *stack, int start,
					   unsigned long epoch)
{
}

/* The epoch of the frame at @start whose frame word is @word. */
static __always_inline unsigned long fgf_epoch(unsigned long *stack, int start,
					       unsigned long word)
{
	return word & FGW_EPOCH;
}
#else
static __always_inline unsigned long fgf_epoch_bits(unsigned long epoch)
{
	return 0;
}

static __always_inline void fgf_keep_epoch(unsigned long *stack, int start,
					   unsigned long epoch)
{
	stack[start + FGRAPH_RET_WORDS - 1] = epoch;
}

static __always_inline unsigned long fgf_epoch(unsigned long *stack, int start,
					       unsigned long word)
{
	return stack[start + FGRAPH_RET_WORDS - 1];
}
#endif

static inline unsigned long fgf_tag(unsigned long word)
{
	return FIELD_GET(FGW_TAG, word);
}

/*
 * The first word of the frame below stack position @pos (the task's
 * curr_ret_stack, or the first word of the frame above), or -1.
 */
static __always_inline int fgf_frame_below(unsigned long *stack, int pos)
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

int fgraph_frame_below(unsigned long *stack, int pos);

/*
 * The first word of the current task's top frame (below stack position
 * @pos) if its frame word is tagged @tag, or -1; *@word is set to the
 * frame word.  Most frames carry no data: their frame word is the top
 * word.  Otherwise the top word is a data word, which says how far down
 * the frame begins.
 */
static __always_inline int fgf_top_frame(unsigned long *stack, int pos,
					 unsigned long tag, unsigned long *word)
{
	int start;

	if (unlikely(!stack || pos <= FGRAPH_RET_WORDS || pos > FGRAPH_VARS))
		return -1;
	*word = stack[pos - 1];
	if (likely(fgf_tag(*word) == tag))
		return pos - 1 - FGRAPH_RET_WORDS;
	if (fgf_tag(*word) != FGW_DATA)
		return -1;
	start = pos - 1 - (int)FIELD_GET(FGW_DIST, *word);
	if (start < 0 || start + FGRAPH_RET_WORDS >= pos - 1)
		return -1;
	*word = stack[start + FGRAPH_RET_WORDS];
	return fgf_tag(*word) == tag ? start : -1;
}

/*
 * Move the current task's stack top to @top, with @word as its top word.
 * The word goes in before the move, for a reader in an interrupt just
 * after it, and again after, since an interrupt before the move may have
 * pushed over it.
 */
static __always_inline void fgf_put_top(unsigned long *stack, int top, unsigned long word)
{
	WRITE_ONCE(stack[top - 1], word);
	barrier();
	WRITE_ONCE(current->curr_ret_stack, top);
	barrier();
	WRITE_ONCE(stack[top - 1], word);
}

/*
 * The data word over @words words that a user in @idx reserved, @dist
 * words above its frame's first word.  The callers keep each value
 * within its field, so none is masked.
 */
static __always_inline unsigned long fgf_data_word(int idx, unsigned int words,
						   int dist)
{
	return FIELD_PREP_CONST(FGW_TAG, FGW_DATA) |
	       (unsigned long)idx << __bf_shf(FGW_SLOT) |
	       (unsigned long)words << __bf_shf(FGW_WORDS) |
	       (unsigned long)dist << __bf_shf(FGW_DIST);
}

/**
 * fgraph_frame_push - begin a frame for a call the entry path may hook
 * @ret: the call's return address
 * @func: the function called
 * @retp: where @ret is stored
 * @epoch: fgraph_epoch when the call came in
 * @start: set to the frame's first word
 *
 * Return: the frame, open for the entry callbacks; or NULL if the task
 * has no stack, or no room on it (counted in trace_overrun).
 */
static __always_inline struct ftrace_ret_stack *
fgraph_frame_push(unsigned long ret, unsigned long func, unsigned long *retp,
		  unsigned long epoch, int *start)
{
	/* Pairs with fgs_give(): a stack is published after its fields. */
	unsigned long *stack = smp_load_acquire(&current->ret_stack);
	struct ftrace_ret_stack *frame;
	int first;

	if (unlikely(!stack)) {
		fgraph_stacks_missing();
		return NULL;
	}
	first = current->curr_ret_stack;
	if (first + FGRAPH_RET_WORDS + 1 > FGRAPH_VARS) {
		atomic_inc(&current->trace_overrun);
		return NULL;
	}
	fgf_put_top(stack, first + FGRAPH_RET_WORDS + 1,
		    FIELD_PREP(FGW_TAG, FGW_OPEN) | fgf_epoch_bits(epoch));
	fgf_keep_epoch(stack, first, epoch);
	frame = fgf_ret(stack, first);
	frame->ret = ret;
	frame->func = func;
	frame->retp = retp;
	/* Zero until a user asks for the call to be timed. */
	frame->calltime = 0;
#ifdef CONFIG_FUNCTION_PROFILER
	frame->subtime = 0;
#endif
	*start = first;
	return frame;
}

/**
 * fgraph_frame_close - end the entry of the frame at @start
 * @start: the first word fgraph_frame_push() gave
 * @users: the slots whose users took the call, not 0
 * @epoch: what fgraph_frame_push() was given
 */
static __always_inline void fgraph_frame_close(int start, unsigned long users,
					       unsigned long epoch)
{
	WRITE_ONCE(current->ret_stack[start + FGRAPH_RET_WORDS],
		   FIELD_PREP(FGW_TAG, FGW_CLOSED) | fgf_epoch_bits(epoch) |
		   (users & FGW_USERS));
}

/**
 * fgraph_frame_top - the closed frame on top of the task's stack
 * @frame: set to it
 * @users: the slots whose users took the call
 * @epoch: the epoch the call came in
 *
 * Return: its first word, where the stack is left once it is popped; or
 * -1 if the top of the stack is no closed frame.
 */
static __always_inline int fgraph_frame_top(struct ftrace_ret_stack **frame,
					    unsigned long *users,
					    unsigned long *epoch)
{
	unsigned long *stack = current->ret_stack;
	int pos = current->curr_ret_stack;
	unsigned long word;
	int first;

	first = fgf_top_frame(stack, pos, FGW_CLOSED, &word);
	if (first < 0)
		return -1;
	*frame = fgf_ret(stack, first);
	*users = word & FGW_USERS;
	*epoch = fgf_epoch(stack, first, word);
	return first;
}

#ifdef CONFIG_FPROBE
/*
 * The frame of an fprobe exit probe's call.  The probe's own hook pushes
 * it, not the entry path, and points the call's return at a trampoline
 * of fprobe's, fprobe_return_to_handler, which calls
 * fprobe_frame_return(): no graph user is called for it.  From its first
 * word up:
 *
 *	struct ftrace_ret_stack		FGRAPH_RET_WORDS words
 *	frame word			closed, no users
 *	the probe's id
 *	where its entry data is		NULL if n is 0
 *	where the call returns to	in its caller, for the handlers
 *	the probe's entry data		n words
 *	data word			FGW_FPROBE, the probe's entry, n + 3
 *
 * The caller's address is kept apart from the frame's ret because ret
 * is where the pop goes, which is another hook's trampoline when that
 * hook took the call's return first.
 *
 * To every other reader it is a frame like the graph's (the walkers
 * follow the data word down to the frame word), and it counts in no
 * call depth: calls seen by the graph users look as they would without
 * the probe.  Its calltime and subtime are left as they were: only the
 * return callbacks of the call's own users read them.
 */
#define FGW_FPROBE		BIT(61)
#define FGW_ENTRY		GENMASK(60, 26)

/* The words of the frame of a probe with @n words of entry data. */
#define FGRAPH_FPROBE_WORDS(n)	(FGRAPH_RET_WORDS + 5 + (n))

/* The words of the frame after the struct ftrace_ret_stack. */
#define FGF_FPROBE_ID		(FGRAPH_RET_WORDS + 1)
#define FGF_FPROBE_DATA		(FGRAPH_RET_WORDS + 2)
#define FGF_FPROBE_CALLER	(FGRAPH_RET_WORDS + 3)

static_assert(FGRAPH_FPROBE_WORDS(FGRAPH_MAX_DATA_SIZE / sizeof(long)) <
	      FGRAPH_VARS);

/*
 * How the frames of one probe are laid out, made once when it registers
 * so that a push computes none of it: @words, FGRAPH_FPROBE_WORDS() of
 * its entry data; @fword, the frame word; @dword, the data word on top;
 * @mask, all ones if it keeps entry data, else 0 (its handlers' entry
 * data is then NULL).
 */
struct fgraph_fprobe {
	unsigned long	words;
	unsigned long	fword;
	unsigned long	dword;
	unsigned long	mask;
};

/*
 * Lay out the frames of a probe whose entry in fprobe_exits is @entry
 * words from the table's start, with @n words of entry data.  Return:
 * false if @entry is too far for a data word.
 */
static inline bool fgraph_fprobe_layout(struct fgraph_fprobe *lay,
					unsigned long entry, unsigned int n)
{
	if (entry > FIELD_MAX(FGW_ENTRY))
		return false;
	lay->words = FGRAPH_FPROBE_WORDS(n);
	lay->fword = FIELD_PREP(FGW_TAG, FGW_CLOSED);
	lay->dword = fgf_data_word(0, n + 3, lay->words - 1) | FGW_FPROBE |
		     FIELD_PREP(FGW_ENTRY, entry);
	lay->mask = n ? ~0UL : 0;
	return true;
}

/* The entry field of @dword: two shifts, no 35-bit mask to load. */
static __always_inline unsigned long fgf_fprobe_entry(unsigned long dword)
{
	static_assert(GENMASK(60, 26) == FGW_ENTRY);
	return dword << 3 >> 29;
}

/*
 * Is @word, the top word of a stack, the data word of a probe's frame?
 * The three bits are the word's highest.
 */
static __always_inline bool fgf_fprobe_top(unsigned long word)
{
	static_assert((FGW_TAG | FGW_FPROBE) == GENMASK(63, 61));
	return word >= (FGW_TAG | FGW_FPROBE);
}

/*
 * Is there room for the frame a probe pushes now, of @words words?  Set
 * *@stack to the task's stack and *@first to where the frame would
 * begin.  False also if the task has no stack (*@stack NULL).
 */
static __always_inline bool fgraph_fprobe_room(unsigned long **stack,
					       long *first, unsigned long words)
{
	/*
	 * Pairs with fgs_give(): a stack is published after its fields,
	 * curr_ret_stack among them, so the stack is read first.
	 */
	*stack = smp_load_acquire(&current->ret_stack);
	/* Never negative: as unsigned, it needs no sign extension. */
	*first = (unsigned int)current->curr_ret_stack;
	return likely(*stack) && likely(*first + words <= FGRAPH_VARS);
}

/**
 * fgraph_fprobe_push - push the frame of a call an exit probe takes
 * @stack: the task's stack, as fgraph_fprobe_room() gave it, with room
 * @first: where the frame begins, as fgraph_fprobe_room() gave it
 * @words: what fgraph_fprobe_room() was given, @lay's words
 * @func: the function called
 * @caller: where it returns to, in its caller
 * @retp: where its return address is stored
 * @key: what the arch's unwinder will know the frame by (@retp on
 *	x86-64; see ftrace_graph_ret_addr())
 * @lay: the layout of the probe's frames
 * @id: where the probe's id is
 *
 * Preemption off, the recursion lock of the function hooks held.  The
 * rest of the layout and the id are read where they are stored.
 *
 * Return: the entry data, or NULL if the probe keeps none.
 */
static __always_inline void *
fgraph_fprobe_push(unsigned long *stack, long first, unsigned long words,
		   unsigned long func, unsigned long caller,
		   unsigned long *retp, unsigned long *key,
		   const struct fgraph_fprobe *lay, const u64 *id)
{
	unsigned long *f = &stack[first];
	struct ftrace_ret_stack *frame = (struct ftrace_ret_stack *)f;
	unsigned long dword = lay->dword, data;

	/* fgf_put_top(), from the frame's first word. */
	WRITE_ONCE(f[words - 1], dword);
	barrier();
	WRITE_ONCE(current->curr_ret_stack, first + words);
	barrier();
	WRITE_ONCE(f[words - 1], dword);
	frame->ret = *retp;
	frame->func = func;
	frame->retp = key;
	f[FGRAPH_RET_WORDS] = lay->fword;
	f[FGF_FPROBE_ID] = *id;
	data = (unsigned long)&f[FGF_FPROBE_CALLER + 1] & lay->mask;
	f[FGF_FPROBE_DATA] = data;
	f[FGF_FPROBE_CALLER] = caller;
	return (void *)data;
}

/*
 * Drop the frame on top, that of an exit probe's call whose entry
 * handler declined it: the return address goes back to @retp first,
 * from the frame, then the frame.
 */
static __always_inline void fgraph_fprobe_drop(unsigned long *retp)
{
	unsigned long *stack = current->ret_stack;
	int pos = current->curr_ret_stack;
	int first = pos - 1 - (int)FIELD_GET(FGW_DIST, stack[pos - 1]);
	struct ftrace_ret_stack *frame = fgf_ret(stack, first);

	*retp = frame->ret;
	barrier();
	current->curr_ret_stack = first;
}

#endif /* CONFIG_FPROBE */

/*
 * The arch's return trampoline for fprobe's frames, and what it calls
 * (fprobe/calls.c) with the return registers, for the real return
 * address.
 */
void fprobe_return_to_handler(void);
unsigned long fprobe_frame_return(struct ftrace_regs *fregs);

#endif /* _KERNEL_TRACE_FTRACE_FGRAPH_FRAMES_H */
