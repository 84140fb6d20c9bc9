// SPDX-License-Identifier: GPL-2.0
/*
 * The function graph's entry and return paths.
 *
 * On entry to a hooked function the arch calls function_graph_enter()
 * (x86: from ftrace_graph_func(), the graph's ftrace_ops callback), which
 * takes the recursion lock of the function hooks.  A frame is pushed and
 * each user that wants the call is offered it; if one takes it, the arch
 * points the return address at return_to_handler, which calls
 * ftrace_return_to_handler() when the function returns: the users that
 * took the call see its return, the frame is popped and its saved
 * return address is where the function goes back to.
 *
 * Both paths hold the recursion lock of the function hooks while they
 * call users (preemption off), so a function a callback calls is not
 * hooked in the same context: neither path recurses.  Unregistering
 * waits for both to be out of any callback (fgraph/users.c).
 */
#include <linux/ftrace.h>
#include <linux/sched.h>

#include "../../trace.h"
#include "frames.h"

/**
 * fgraph_time_call - time the call whose entry callbacks run
 * @trace: the call, as the entry path gave it to the callback
 *
 * For an entry callback whose return callback wants the call's
 * duration: the call's frame takes the time now (once, for whichever
 * user asks first), and the return callbacks get calltime and rettime.
 * A call that no user asked to time returns with both zero, and neither
 * path reads the clock for it.
 */
void fgraph_time_call(struct ftrace_graph_ent *trace)
{
	struct ftrace_ret_stack *frame = fgraph_call_frame(trace);

	if (!frame->calltime)
		frame->calltime = fgraph_clock();
	else
		frame->calltime &= ~FGRAPH_CALLTIME_OWN;
}

/**
 * fgraph_time_call_at - time the call whose entry callbacks run, at @now
 * @trace: the call, as the entry path gave it to the callback
 * @now: trace_clock_local()'s time, read by this entry callback
 *
 * fgraph_time_call() for a callback that has read the clock already,
 * as a ring buffer does for an event's time stamp: the frame keeps the
 * first time a user gives it, and the return reads the same clock.
 */
void fgraph_time_call_at(struct ftrace_graph_ent *trace, u64 now)
{
	struct ftrace_ret_stack *frame = fgraph_call_frame(trace);

	if (!frame->calltime)
		frame->calltime = now;
	else
		frame->calltime &= ~FGRAPH_CALLTIME_OWN;
}

/* Offer the call to each user; return the slots of those that take it. */
static noinline unsigned long
fgraph_offer_each(struct ftrace_graph_ent *trace, unsigned long epoch,
		  struct ftrace_regs *fregs)
{
	unsigned long slots, users = 0;

	for (slots = READ_ONCE(fgraph_slots_used); slots; slots &= slots - 1) {
		struct fgraph_ops *gops = fgraph_slot_user(__ffs(slots), epoch);
		int top = current->curr_ret_stack;

		if (!gops || !fgraph_user_wants(gops, trace->func))
			continue;
		if (gops->entryfunc(trace, gops, fregs))
			users |= slots & -slots;
		else
			current->curr_ret_stack = top;	/* drop its data */
	}
	return users;
}

/* The same, straight to @gops when it is the sole user (else NULL). */
static __always_inline unsigned long
fgraph_offer(struct ftrace_graph_ent *trace, struct fgraph_ops *gops,
	     unsigned long epoch, struct ftrace_regs *fregs)
{
	if (!gops)
		return fgraph_offer_each(trace, epoch, fregs);
	if (fgraph_user_wants(gops, trace->func) &&
	    static_call(fgraph_sole_entry)(trace, gops, fregs))
		return READ_ONCE(fgraph_sole_slots);
	return 0;
}

/* Push a frame for the call, offer it, and keep the frame if it is taken. */
static __always_inline int fgraph_enter(unsigned long ret, unsigned long func,
					unsigned long *retp,
					struct ftrace_regs *fregs)
{
	/* Every field is set below: spare the kernel's zeroing of locals. */
	struct fgraph_entry call __uninitialized;
	unsigned long epoch = READ_ONCE(fgraph_epoch);
	struct fgraph_ops *sole = fgraph_sole_user(epoch);
	unsigned long users;
	int start;

	/* A sole user that declines every call now is not offered this one. */
	if (static_branch_unlikely(&fgraph_sole_may_decline) && sole &&
	    unlikely(READ_ONCE(*READ_ONCE(fgraph_sole_decline_when))) &&
	    static_call(fgraph_sole_declines)(sole))
		return -EBUSY;
	call.ent.func = func;
	call.frame = fgraph_frame_push(ret, func, retp, epoch, &start);
	if (!call.frame)
		return -EBUSY;
	call.ent.depth = ++current->curr_ret_depth;
	users = fgraph_offer(&call.ent, sole, epoch, fregs);
	if (!users) {
		current->curr_ret_depth--;
		barrier();
		current->curr_ret_stack = start;
		return -EBUSY;
	}
	fgraph_frame_close(start, users, epoch);
	return 0;
}

/* fgraph_try_enter() for a call from another context than a task's. */
static noinline int fgraph_try_enter_other(unsigned long ret,
					   unsigned long func,
					   unsigned long *retp,
					   struct ftrace_regs *fregs)
{
	int bit, err;

	bit = ftrace_test_recursion_trylock(func, ret);
	if (bit < 0)
		return -EBUSY;
	err = fgraph_enter(ret, func, retp, fregs);
	ftrace_test_recursion_unlock(bit);
	return err;
}

/*
 * The entry of a call the graph may take (fgraph_may_take_return()): not
 * hooked while the recursion lock is held (the entry callbacks run under
 * it).  Most calls are a task's, whose lock is one bit.
 */
static __always_inline int fgraph_try_enter(unsigned long ret,
					    unsigned long func,
					    unsigned long *retp,
					    struct ftrace_regs *fregs)
{
	int err;

	if (unlikely(!fgraph_trylock_task()))
		return fgraph_try_enter_other(ret, func, retp, fregs);
	err = fgraph_enter(ret, func, retp, fregs);
	fgraph_unlock_task();
	return err;
}

/**
 * function_graph_enter_regs - offer a call to the graph users
 * @ret: the call's return address
 * @func: the function called
 * @frame_pointer: unused on x86-64
 * @retp: where @ret is stored
 * @fregs: the call's registers, for the entry callbacks; or NULL
 *
 * Called by the arch on entry to a hooked function.  Takes the recursion
 * lock of the function hooks for the entry callbacks; a call that finds
 * it held, or the graph paused for the task, is not hooked.
 *
 * Return: 0 if a user took the call, and the arch must make it return
 * to return_to_handler; -EBUSY otherwise.
 */
int function_graph_enter_regs(unsigned long ret, unsigned long func,
			      unsigned long frame_pointer, unsigned long *retp,
			      struct ftrace_regs *fregs)
{
	if (unlikely(!fgraph_may_take_return()))
		return -EBUSY;
	return fgraph_try_enter(ret, func, retp, fregs);
}

/**
 * function_graph_hook_return - offer a call, and hook its return if taken
 * @func: the function called
 * @retp: where its return address is stored
 * @fregs: the call's registers, for the entry callbacks; or NULL
 *
 * function_graph_enter_regs() for an arch whose return address is a word
 * in memory, which this replaces with return_to_handler itself: the
 * arch's graph callback can end in a tail call to it.
 */
void function_graph_hook_return(unsigned long func, unsigned long *retp,
				struct ftrace_regs *fregs)
{
	if (likely(fgraph_may_take_return()) &&
	    !fgraph_try_enter(*retp, func, retp, fregs))
		*retp = (unsigned long)&return_to_handler;
}

/* Tell each user in @users (slots) that took the call of @trace. */
static noinline void fgraph_return_each(struct ftrace_graph_ret *trace,
					unsigned long users, unsigned long epoch,
					struct ftrace_regs *fregs)
{
	for (; users; users &= users - 1) {
		struct fgraph_ops *gops = fgraph_slot_user(__ffs(users), epoch);

		if (gops)
			gops->retfunc(trace, gops, fregs);
	}
}

/* Tell the users in @users that took the call: straight to the sole one. */
static __always_inline void fgraph_call_returns(struct ftrace_graph_ret *trace,
						unsigned long users, unsigned long epoch,
						struct ftrace_regs *fregs)
{
	struct fgraph_ops *sole = fgraph_sole_user(epoch);

	if (sole && users == READ_ONCE(fgraph_sole_slots))
		static_call(fgraph_sole_return)(trace, sole, fregs);
	else
		fgraph_return_each(trace, users, epoch, fregs);
}

/*
 * A timed call's return time, read under the caller's preemption off;
 * none for a call not timed (calltime 0) or timed by
 * fgraph_time_call_own() alone (FGRAPH_CALLTIME_OWN, the one bit that
 * makes a time negative, which the callbacks are not shown).
 */
static __always_inline void fgraph_stamp_return(struct ftrace_graph_ret *trace)
{
	u64 calltime = trace->calltime;

	trace->rettime = (s64)calltime > 0 ? fgraph_clock() : 0;
	trace->calltime = calltime & ~FGRAPH_CALLTIME_OWN;
}

/*
 * Tell the users of the returning call, under the caller's preemption off,
 * what fgraph_tell_return() has not: a call from another context than a
 * task's, or one whose lock is held already.  The lock is then held by an
 * interrupted context whose count the CPU has not switched from yet, or
 * by the callback whose call of this function the lock let through (one
 * level of nesting): the call's entry was seen, so call them all the
 * same.
 */
static noinline void fgraph_tell_return_other(struct ftrace_graph_ret *trace,
					      unsigned long users,
					      unsigned long epoch,
					      struct ftrace_regs *fregs)
{
	int bit = ftrace_test_recursion_trylock(trace->func, 0);

	if (bit < 0)
		preempt_disable_notrace();
	fgraph_stamp_return(trace);
	fgraph_call_returns(trace, users, epoch, fregs);
	if (bit < 0)
		preempt_enable_notrace();
	else
		ftrace_test_recursion_unlock(bit);
}

/*
 * The recursion lock keeps the entry path from hooking what the return
 * callbacks call.  Most returns are a task's, whose lock is one bit.
 */
static __always_inline void fgraph_tell_return(struct ftrace_graph_ret *trace,
					       unsigned long users, unsigned long epoch,
					       struct ftrace_regs *fregs)
{
	if (unlikely(!fgraph_trylock_task())) {
		fgraph_tell_return_other(trace, users, epoch, fregs);
		return;
	}
	fgraph_stamp_return(trace);
	fgraph_call_returns(trace, users, epoch, fregs);
	fgraph_unlock_task();
}

/*
 * Pop the frame of the returning call after telling its users; @fregs
 * (NULL where the arch has none) are its return registers.
 */
static __always_inline unsigned long fgraph_return(struct ftrace_regs *fregs)
{
	struct ftrace_ret_stack *frame;
	/* Every field is set below: spare the kernel's zeroing of locals. */
	struct ftrace_graph_ret call __uninitialized;
	struct ftrace_graph_ret *trace = &call;
	unsigned long users, ret, epoch;
	int start;

	start = fgraph_frame_top(&frame, &users, &epoch);
	if (unlikely(start < 0)) {
		/* Nowhere to go back to: stop the graph, and say why. */
		ftrace_graph_stop();
		WARN(1, "fgraph: return with no frame (stack at %d)\n",
		     current->curr_ret_stack);
		return (unsigned long)panic;
	}
	ret = frame->ret;
	trace->func = frame->func;
	/* As the frame keeps it: fgraph_stamp_return() shows it. */
	trace->calltime = frame->calltime;
	trace->depth = current->curr_ret_depth;
	trace->overrun = atomic_read(&current->trace_overrun);
#ifdef CONFIG_FUNCTION_GRAPH_RETVAL
	trace->retval = ftrace_regs_get_return_value(fregs);
#endif
	if (IS_ENABLED(CONFIG_HAVE_FUNCTION_GRAPH_FREGS))
		ftrace_regs_set_instruction_pointer(fregs, ret);
	fgraph_tell_return(trace, users, epoch, fregs);

	/*
	 * The return callbacks are done with the frame (and its data).  The
	 * depth goes first: once the stack is seen empty it may be taken.
	 */
	current->curr_ret_depth--;
	barrier();
	current->curr_ret_stack = start;
	return ret;
}

#ifdef CONFIG_HAVE_FUNCTION_GRAPH_FREGS
/**
 * ftrace_return_to_handler - a hooked function returns
 * @fregs: its return registers, saved by return_to_handler; the return
 *	callbacks find there where it returns to, as the instruction pointer
 *
 * Return: the address the function really returns to.
 */
unsigned long ftrace_return_to_handler(struct ftrace_regs *fregs)
{
	return fgraph_return(fregs);
}
#else
/*
 * The same for an arch whose return_to_handler saves no struct
 * ftrace_regs: the return callbacks get NULL for them.  @frame_pointer
 * is unused: the task's shadow stack alone says which call returns (its
 * top frame).  One kernel-doc comment (above) covers both forms.
 */
unsigned long ftrace_return_to_handler(unsigned long frame_pointer)
{
	return fgraph_return(NULL);
}
#endif
