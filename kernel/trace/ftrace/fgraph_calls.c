// SPDX-License-Identifier: GPL-2.0
/*
 * The function graph's entry and return paths.
 *
 * On entry to a hooked function the arch calls function_graph_enter()
 * (x86: from ftrace_graph_func(), the graph's ftrace_ops callback, with
 * the recursion lock of the function hooks held).  A frame is pushed and
 * each user that wants the call is offered it; if one takes it, the arch
 * points the return address at return_to_handler, which calls
 * ftrace_return_to_handler() when the function returns: the users that
 * took the call see its return, the frame is popped and its saved
 * return address is where the function goes back to.
 *
 * Both paths hold the recursion lock of the function hooks while they
 * call users (preemption off), so a function a callback calls is not
 * hooked in the same context: neither path recurses.  Unregistering waits for both to be out of
 * any callback (fgraph_users.c).
 */
#include <linux/ftrace.h>
#include <linux/sched.h>
#include <linux/trace_clock.h>
#include <linux/trace_recursion.h>

#include "fgraph_frames.h"

/* Offer the call to each user; return the slots of those that take it. */
static unsigned long fgraph_offer(struct ftrace_graph_ent *trace, u64 epoch,
				  struct ftrace_regs *fregs)
{
	unsigned long slots = READ_ONCE(fgraph_slots_used);
	unsigned long users = 0;
	int i;

	while ((i = fgraph_next_slot(&slots)) >= 0) {
		struct fgraph_ops *gops = fgraph_slot_user(i, epoch);
		int top = current->curr_ret_stack;

		if (!gops || !fgraph_user_wants(gops, trace->func))
			continue;
		if (gops->entryfunc(trace, gops, fregs))
			users |= BIT(i);
		else
			current->curr_ret_stack = top;	/* drop its data */
	}
	return users;
}

/**
 * function_graph_enter_regs - offer a call to the graph users
 * @ret: the call's return address
 * @func: the function called
 * @frame_pointer: unused on x86-64
 * @retp: where @ret is stored
 * @fregs: the call's registers, for the entry callbacks; or NULL
 *
 * Called by the arch on entry to a hooked function, with the recursion
 * lock of the function hooks held.
 *
 * Return: 0 if a user took the call, and the arch must make it return
 * to return_to_handler; -EBUSY otherwise.
 */
int function_graph_enter_regs(unsigned long ret, unsigned long func,
			      unsigned long frame_pointer, unsigned long *retp,
			      struct ftrace_regs *fregs)
{
	struct ftrace_graph_ent trace = { .func = func };
	unsigned long users;
	u64 epoch;
	int start;

	if (unlikely(ftrace_graph_is_dead()))
		return -EBUSY;
	epoch = READ_ONCE(fgraph_epoch);
	start = fgraph_frame_push(ret, func, retp, epoch);
	if (start < 0)
		return -EBUSY;
	trace.depth = ++current->curr_ret_depth;
	users = fgraph_offer(&trace, epoch, fregs);
	if (!users) {
		current->curr_ret_depth--;
		barrier();
		current->curr_ret_stack = start;
		return -EBUSY;
	}
	fgraph_frame_close(start, users);
	return 0;
}

/*
 * Tell the users in @users (slots) that took the call of @trace.  The
 * recursion lock keeps the entry path from hooking what they call.  If
 * it is held already, that is by an interrupted context whose count the
 * CPU has not switched from yet, since no frame is pushed under the lock:
 * call them all the same.
 */
static void fgraph_tell_return(struct ftrace_graph_ret *trace,
			       unsigned long users, u64 epoch,
			       struct ftrace_regs *fregs)
{
	int i, bit;

	bit = ftrace_test_recursion_trylock(trace->func, 0);
	if (bit < 0)
		preempt_disable_notrace();
	while ((i = fgraph_next_slot(&users)) >= 0) {
		struct fgraph_ops *gops = fgraph_slot_user(i, epoch);

		if (gops)
			gops->retfunc(trace, gops, fregs);
	}
	if (bit < 0)
		preempt_enable_notrace();
	else
		ftrace_test_recursion_unlock(bit);
}

/**
 * ftrace_return_to_handler - a hooked function returns
 * @fregs: its return registers, saved by return_to_handler; the return
 *	callbacks find there where it returns to, as the instruction pointer
 *
 * Return: the address the function really returns to.
 */
unsigned long ftrace_return_to_handler(struct ftrace_regs *fregs)
{
	struct ftrace_ret_stack *frame;
	/* Every field is set below: spare the kernel's zeroing of locals. */
	struct ftrace_graph_ret trace __uninitialized;
	unsigned long users, ret;
	int start;
	u64 epoch;

	frame = fgraph_frame_top(&start, &users, &epoch);
	if (unlikely(!frame)) {
		/* Nowhere to go back to: stop the graph, and say why. */
		ftrace_graph_stop();
		WARN(1, "fgraph: return with no frame (stack at %d)\n",
		     current->curr_ret_stack);
		return (unsigned long)panic;
	}
	ret = frame->ret;
	trace.func = frame->func;
	trace.calltime = frame->calltime;
	trace.rettime = trace.calltime ? trace_clock_local() : 0;
	trace.depth = current->curr_ret_depth;
	trace.overrun = atomic_read(&current->trace_overrun);
#ifdef CONFIG_FUNCTION_GRAPH_RETVAL
	trace.retval = ftrace_regs_get_return_value(fregs);
#endif
	ftrace_regs_set_instruction_pointer(fregs, ret);
	fgraph_tell_return(&trace, users, epoch, fregs);

	/*
	 * The return callbacks are done with the frame (and its data).  The
	 * depth goes first: once the stack is seen empty it may be taken.
	 */
	current->curr_ret_depth--;
	barrier();
	current->curr_ret_stack = start;
	return ret;
}
