// SPDX-License-Identifier: GPL-2.0
/*
 * fprobe's call paths.
 *
 * Every probe is called from its hook (fprobe.h).  A probe without exit
 * handler has its entry handler called, and that is all.  A probe with
 * one pushes a frame for the call on the task's shadow stack, with its
 * entry data, and points the call's return at fprobe_return_to_handler
 * before its entry handler runs; when the call returns, that trampoline
 * calls fprobe_frame_return(), which finds the probe by the frame's
 * entry in fprobe_exits and its id, calls its exit handler and pops the
 * frame.  A probe unregistered meanwhile is not found: the frame is
 * popped, and the call returns where it would have.  A call that gets
 * no frame (no room, no stack, or the return may not be taken now) has
 * its entry handler called all the same, and is missed by the exit.
 *
 * Both paths run with preemption off and hold the recursion lock of the
 * function hooks while they call handlers; an unregistered probe's entry
 * in fprobe_exits is cleared before a wait for every CPU to leave them.
 */
#include <linux/fprobe.h>
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/trace_recursion.h>

#include "../fgraph/frames.h"
#include "fprobe.h"

/* Is @fp, as a frame names it, still registered and enabled? */
static __always_inline bool fprobe_on(struct fprobe *fp)
{
	return fp && !(READ_ONCE(fp->flags) & FPROBE_FL_DISABLED);
}

/* Does @fp share its handlers with kprobes (FPROBE_FL_KPROBE_SHARED)? */
static __always_inline bool fprobe_kshared(struct fprobe *fp)
{
	return fp->flags & FPROBE_FL_KPROBE_SHARED;
}

/*
 * A handler shared with kprobes runs as a kprobe would: never inside
 * one.  Return: false if a kprobe runs, and the call is missed.
 */
static bool fprobe_kprobe_begin(struct fprobe *fp)
{
	if (kprobe_running()) {
		fp->nmissed++;
		return false;
	}
	kprobe_busy_begin();
	return true;
}

static noinline int fprobe_call_entry_shared(struct fprobe *fp,
					     unsigned long ip,
					     unsigned long ret_ip,
					     struct ftrace_regs *fregs,
					     void *data)
{
	int ret = 0;

	if (!fprobe_kprobe_begin(fp))
		return 1;
	if (fp->entry_handler)
		ret = fp->entry_handler(fp, ip, ret_ip, fregs, data);
	kprobe_busy_end();
	return ret;
}

/* Return: 0 if the probe takes the call (its exit handler is due). */
static __always_inline int fprobe_call_entry(struct fprobe *fp,
					     unsigned long ip,
					     unsigned long ret_ip,
					     struct ftrace_regs *fregs,
					     void *data)
{
	if (unlikely(fprobe_kshared(fp)))
		return fprobe_call_entry_shared(fp, ip, ret_ip, fregs, data);
	if (!fp->entry_handler)
		return 0;
	return fp->entry_handler(fp, ip, ret_ip, fregs, data);
}

static __always_inline void fprobe_call_exit(struct fprobe *fp,
					     unsigned long ip,
					     unsigned long ret_ip,
					     struct ftrace_regs *fregs,
					     void *data)
{
	if (likely(!fprobe_kshared(fp))) {
		fp->exit_handler(fp, ip, ret_ip, fregs, data);
	} else if (fprobe_kprobe_begin(fp)) {
		fp->exit_handler(fp, ip, ret_ip, fregs, data);
		kprobe_busy_end();
	}
}

/* fprobe_hook_func() for a call it does not take in its common case. */
static noinline void fprobe_hook_general(struct fprobe *fp, unsigned long ip,
					 unsigned long parent_ip,
					 struct ftrace_regs *fregs)
{
	int bit;

	if (READ_ONCE(fp->flags) & FPROBE_FL_DISABLED)
		return;
	bit = fgraph_trylock(ip, parent_ip);
	if (unlikely(bit < 0)) {
		fp->nmissed++;
		return;
	}
	fprobe_call_entry(fp, ip, parent_ip, fregs, NULL);
	fgraph_unlock(bit);
}

/**
 * fprobe_hook_func - the function of a probe's hook
 * @ip: the patch site of the function called
 * @parent_ip: where it returns to
 * @op: the hook's ftrace_ops, whose private is the probe
 * @fregs: the call's argument registers
 *
 * The probe's entry handler, under the recursion lock the function
 * graph takes the same way: a call that finds it held is missed.  The
 * common case, a probe enabled and not shared with kprobes called from
 * task context, is tested in one word of flags and one of the preempt
 * count.  A hook's probe always has an entry handler (fprobe_check()).
 */
void fprobe_hook_func(unsigned long ip, unsigned long parent_ip,
		      struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct fprobe *fp = op->private;

	/* One plain read: disable_fprobe() writes the flags plainly too. */
	if (unlikely(data_race(fp->flags) &
		     (FPROBE_FL_DISABLED | FPROBE_FL_KPROBE_SHARED)) ||
	    unlikely(!fgraph_trylock_task())) {
		fprobe_hook_general(fp, ip, parent_ip, fregs);
		return;
	}
	fp->entry_handler(fp, ip, parent_ip, fregs, NULL);
	fgraph_unlock_task();
}

/*
 * Where the hooked function's return address is: the word its stack
 * pointer points to, or where the arch's caller keeps a return address
 * that is still in a register (ftrace_regs_return_address_ptr()), and
 * what the arch's unwinder will know the frame by: that word, or what
 * the arch says (ftrace_regs_return_address_key()).
 */
static __always_inline unsigned long *fprobe_retp(struct ftrace_regs *fregs)
{
#ifdef ftrace_regs_return_address_ptr
	return ftrace_regs_return_address_ptr(fregs);
#else
	return (unsigned long *)ftrace_regs_get_stack_pointer(fregs);
#endif
}

static __always_inline unsigned long *fprobe_key(struct ftrace_regs *fregs,
						 unsigned long *retp)
{
#ifdef ftrace_regs_return_address_key
	return ftrace_regs_return_address_key(fregs);
#else
	return retp;
#endif
}

/*
 * Push the call's frame and take its return, the lock held and the
 * return one that may be taken (fgraph_may_take_return()); set *@data
 * to the entry data for the entry handler.  False if the frame has no
 * room: nothing is pushed.
 */
static __always_inline bool fprobe_exit_push(struct fprobe_hook *hook,
					     struct fprobe *fp,
					     unsigned long ip,
					     unsigned long parent_ip,
					     struct ftrace_regs *fregs,
					     void **data)
{
	unsigned long words = hook->frame.words, *retp, *stack;
	long first;

	if (unlikely(!fgraph_fprobe_room(&stack, &first, words)))
		return false;
	retp = fprobe_retp(fregs);
	*data = fgraph_fprobe_push(stack, first, words, ip, parent_ip, retp,
				   fprobe_key(fregs, retp), &hook->frame,
				   &fp->id);
	*retp = (unsigned long)fprobe_return_to_handler;
	return true;
}

/*
 * The entry data of calls whose exit probe got no frame: the entry
 * handler still gets storage of the size it asked for, which no exit
 * handler reads.  One area per context level of a CPU, each used under
 * the recursion lock of its level (a call can nest in its own level only
 * through the lock's transition bit, and then overwrites storage whose
 * call has no exit either).
 */
static DEFINE_PER_CPU(unsigned long [4][MAX_FPROBE_DATA_SIZE_WORD],
		      fprobe_lost_data);

/*
 * An exit probe got no frame for the call, the lock held: its exit
 * handler will not run, and the call counts once as missed, but its
 * entry handler still sees the call.  A task found without a stack
 * asks for one.
 */
static noinline __cold void fprobe_exit_lost(struct fprobe *fp,
					     unsigned long ip,
					     unsigned long parent_ip,
					     struct ftrace_regs *fregs)
{
	void *data = NULL;

	fp->nmissed++;
	if (fgraph_may_take_return() && !current->ret_stack)
		fgraph_stacks_missing();
	if (!fp->entry_handler)
		return;
	if (fp->entry_data_size)
		data = this_cpu_ptr(fprobe_lost_data[interrupt_context_level()]);
	/* Shared with kprobes: a running kprobe has the call; it is counted. */
	if (!fprobe_kshared(fp)) {
		fp->entry_handler(fp, ip, parent_ip, fregs, data);
	} else if (!kprobe_running()) {
		kprobe_busy_begin();
		fp->entry_handler(fp, ip, parent_ip, fregs, data);
		kprobe_busy_end();
	}
}

/* fprobe_exit_hook_func() for any call: the lock taken the general way. */
static noinline __cold void fprobe_exit_hook_general(struct fprobe_hook *hook,
						     unsigned long ip,
						     unsigned long parent_ip,
						     struct ftrace_regs *fregs)
{
	struct fprobe *fp = hook->ops.private;
	void *data;
	int bit;

	if (READ_ONCE(fp->flags) & FPROBE_FL_DISABLED)
		return;
	bit = fgraph_trylock(ip, parent_ip);
	if (unlikely(bit < 0)) {
		fp->nmissed++;
		return;
	}
	if (!fgraph_may_take_return() ||
	    !fprobe_exit_push(hook, fp, ip, parent_ip, fregs, &data))
		fprobe_exit_lost(fp, ip, parent_ip, fregs);
	else if (fprobe_call_entry(fp, ip, parent_ip, fregs, data))
		fgraph_fprobe_drop(fprobe_retp(fregs));
	fgraph_unlock(bit);
}

/*
 * Push the call's frame, take its return and call the entry handler
 * (if @entry: the probe has one), under the recursion lock: a call that
 * finds it held is missed; one that gets no frame is missed by the exit
 * handler only.  The return goes to the trampoline before the entry
 * handler runs, and back if the handler declines the call.  The common
 * case (a probe enabled and not shared with kprobes, called from task
 * context where the return may be taken) is tested as in
 * fprobe_hook_func().
 */
static __always_inline void fprobe_exit_hook(struct ftrace_ops *op,
					     unsigned long ip,
					     unsigned long parent_ip,
					     struct ftrace_regs *fregs,
					     bool entry)
{
	struct fprobe_hook *hook = container_of(op, struct fprobe_hook, ops);
	struct fprobe *fp = op->private;
	void *data;

	/* One plain read: disable_fprobe() writes the flags plainly too. */
	if (unlikely(data_race(fp->flags) &
		     (FPROBE_FL_DISABLED | FPROBE_FL_KPROBE_SHARED)) ||
	    unlikely(!fgraph_may_take_return()) ||
	    unlikely(!fgraph_trylock_task())) {
		fprobe_exit_hook_general(hook, ip, parent_ip, fregs);
		return;
	}
	if (unlikely(!fprobe_exit_push(hook, fp, ip, parent_ip, fregs, &data)))
		fprobe_exit_lost(fp, ip, parent_ip, fregs);
	else if (entry && fp->entry_handler(fp, ip, parent_ip, fregs, data))
		fgraph_fprobe_drop(fprobe_retp(fregs));
	fgraph_unlock_task();
}

/**
 * fprobe_exit_hook_func - the function of the hook of a probe with
 *	both handlers
 * @ip: the patch site of the function called
 * @parent_ip: where it returns to
 * @op: the hook's ftrace_ops, whose private is the probe
 * @fregs: the call's argument registers
 */
void fprobe_exit_hook_func(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	fprobe_exit_hook(op, ip, parent_ip, fregs, true);
}

/**
 * fprobe_exit_only_hook_func - the function of the hook of a probe with
 *	an exit handler only
 * @ip: the patch site of the function called
 * @parent_ip: where it returns to
 * @op: the hook's ftrace_ops, whose private is the probe
 * @fregs: the call's argument registers
 */
void fprobe_exit_only_hook_func(unsigned long ip, unsigned long parent_ip,
				struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	fprobe_exit_hook(op, ip, parent_ip, fregs, false);
}

/* The exit handler of a probe disabled, or shared with kprobes. */
static noinline __cold void fprobe_frame_exit_general(struct fprobe *fp,
						      unsigned long *f,
						      unsigned long caller,
						      struct ftrace_regs *fregs)
{
	struct ftrace_ret_stack *frame = (struct ftrace_ret_stack *)f;

	if (fprobe_on(fp))
		fprobe_call_exit(fp, frame->func, caller, fregs,
				 (void *)f[FGF_FPROBE_DATA]);
}

/*
 * The exit handler of the probe the frame at @f names, if it is still
 * registered and enabled; @caller is the frame's, read once.
 */
static __always_inline void fprobe_frame_exit(unsigned long *f,
					      unsigned long dword,
					      unsigned long caller,
					      struct ftrace_regs *fregs)
{
	struct ftrace_ret_stack *frame = (struct ftrace_ret_stack *)f;
	struct fprobe *fp;

	if (unlikely(!fprobe_exit_find(fgf_fprobe_entry(dword),
				       f[FGF_FPROBE_ID], &fp)))
		return;
	/* As on entry: one plain read of flags written plainly. */
	if (unlikely(data_race(fp->flags) &
		     (FPROBE_FL_DISABLED | FPROBE_FL_KPROBE_SHARED))) {
		fprobe_frame_exit_general(fp, f, caller, fregs);
		return;
	}
	fp->exit_handler(fp, frame->func, caller, fregs,
			 (void *)f[FGF_FPROBE_DATA]);
}

/*
 * Pop the frame at @first, whose handler is done with it and its data.
 * Return: @ret, for the trampoline.
 */
static __always_inline unsigned long fprobe_frame_pop(long first,
						      unsigned long ret)
{
	barrier();
	current->curr_ret_stack = first;
	return ret;
}

/*
 * fprobe_frame_return() when the lock is held already: by an
 * interrupted context whose count the CPU has not switched from yet,
 * or by the handler whose call of this function the lock let through
 * (one level of nesting).  The call's entry was seen: call the exit
 * handler all the same.
 */
static noinline __cold unsigned long
fprobe_frame_return_locked(unsigned long *f, unsigned long dword,
			   struct ftrace_regs *fregs, long first,
			   unsigned long ret)
{
	int bit = fgraph_trylock(((struct ftrace_ret_stack *)f)->func, 0);

	if (bit >= 0) {
		fprobe_frame_exit(f, dword, f[FGF_FPROBE_CALLER], fregs);
		fgraph_unlock(bit);
	} else {
		preempt_disable_notrace();
		fprobe_frame_exit(f, dword, f[FGF_FPROBE_CALLER], fregs);
		preempt_enable_notrace();
	}
	return fprobe_frame_pop(first, ret);
}

/* A return with no probe's frame on top: stop the graph, and say why. */
static noinline __cold unsigned long fprobe_frame_lost(void)
{
	ftrace_graph_stop();
	WARN(1, "fprobe: return with no frame (stack at %d)\n",
	     current->curr_ret_stack);
	return (unsigned long)panic;
}

/**
 * fprobe_frame_return - the return of a call an exit probe took
 * @fregs: the return registers, as fprobe_return_to_handler saved them
 *
 * The probe's exit handler runs under the recursion lock, with the
 * frame's entry data; then the frame is popped.
 *
 * Return: the address the function really returns to.
 */
unsigned long fprobe_frame_return(struct ftrace_regs *fregs)
{
	unsigned long *stack = current->ret_stack, *f, dword, ret, caller;
	/* Only the task sets it: to 0 while it has no stack, or within it. */
	unsigned int pos = current->curr_ret_stack;
	long first;

	if (unlikely(!pos))
		return fprobe_frame_lost();
	dword = stack[pos - 1];
	if (unlikely(!fgf_fprobe_top(dword)))
		return fprobe_frame_lost();
	first = pos - 1 - (long)FIELD_GET(FGW_DIST, dword);
	f = &stack[first];
	ret = f[0];
	caller = f[FGF_FPROBE_CALLER];
	ftrace_regs_set_instruction_pointer(fregs, caller);
	if (unlikely(!fgraph_trylock_task()))
		return fprobe_frame_return_locked(f, dword, fregs, first, ret);
	fprobe_frame_exit(f, dword, caller, fregs);
	fgraph_unlock_task();
	return fprobe_frame_pop(first, ret);
}
