// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite fgraph: the function graph's users, frames and paths
 * (fgraph/users.c, fgraph/frames.c, fgraph/calls.c).
 *
 *  - a hooked call pushes a frame its callbacks see, and returns through
 *    it to its caller, leaving the stack as it was;
 *  - data reserved on entry is found on return, up to 32 words, once per
 *    user and call, and dropped when the user declines the call; it is
 *    found whether the data is on top of the frame or not;
 *  - a call is timed only when a user asks, on the clock or at a time
 *    the user gives, and every user of the call gets that time;
 *  - a stack that is full hooks no more calls and counts them;
 *  - sixteen users at once, -ENOSPC for the seventeenth, -EBUSY for a
 *    user registered twice, an unknown user unregistered is ignored, and
 *    a freed slot serves a later user;
 *  - a user that takes the slot of one that left is not called for the
 *    calls its predecessor took;
 *  - a user alone is called straight, and the right one as users come
 *    and go;
 *  - a registration that fails after its slot is taken leaves nothing;
 *    a user left alone by one that leaves short of memory is called
 *    only for its own functions;
 *  - inside a hooked call the stack trace shows the real caller, and
 *    ftrace_graph_ret_addr() gives the address return_to_handler hides;
 *  - the callbacks get the call's registers: the arguments on entry, the
 *    return value and the real return address on return.
 *
 * This file is instrumented: its fgt_tracee*() functions are hooked.
 */
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/kthread.h>
#include <linux/sched/task.h>
#include <linux/stacktrace.h>
#include <linux/trace_clock.h>

#include "../../trace.h"
#include "../fgraph/fgraph.h"
#include "../fgraph/frames.h"
#include "../hash.h"
#include "../records.h"

struct fgt_user {
	struct fgraph_ops gops;
	atomic_t entries;
	atomic_t returns;
	int reserve;		/* bytes to reserve on entry, 0 for none */
	bool decline;		/* decline every call */
	int decline_when;	/* its gops.decline_when, where a case sets it */
	atomic_t declines_asked;	/* calls of fgt_declines() */
	bool timed;		/* ask for the calls' durations */
	u64 time_at;		/* give the calls this calltime, if not 0 */
	bool own;		/* ... by fgraph_time_call_own() */
	u64 calltime, rettime;	/* what the last return was given */
	void *data;		/* what the last entry reserved */
	bool data_ok;		/* the last return found it intact */
	int alt_calls;		/* calls of fgt_alt_entry() and fgt_alt_return() */
	bool look;		/* the return looks for data it did not reserve */
	void *found;		/* what the last return found */
};

/*
 * The tracees: barrier() keeps the compiler from dropping a call whose
 * result is unused, or from turning fgt_deep()'s recursion into a loop.
 */
static noinline __noclone int fgt_tracee(int x)
{
	barrier();
	return x + 1;
}

static noinline __noclone int fgt_deep(int n)
{
	int depth;

	if (!n)
		return 0;
	depth = fgt_deep(n - 1);
	barrier();
	return depth + 1;
}

static int fgt_entry(struct ftrace_graph_ent *trace, struct fgraph_ops *gops,
		     struct ftrace_regs *fregs)
{
	struct fgt_user *u = container_of(gops, struct fgt_user, gops);
	unsigned long *p;

	atomic_inc(&u->entries);
	if (u->reserve) {
		p = fgraph_reserve_data(gops->idx, u->reserve);
		u->data = p;
		if (!p)
			return 0;
		*p = (unsigned long)u;
	}
	if (u->time_at && u->own)
		fgraph_time_call_own(trace, u->time_at);
	else if (u->time_at)
		fgraph_time_call_at(trace, u->time_at);
	else if (u->timed)
		fgraph_time_call(trace);
	return !u->decline;
}

static void fgt_return(struct ftrace_graph_ret *trace,
		       struct fgraph_ops *gops,
		       struct ftrace_regs *fregs)
{
	struct fgt_user *u = container_of(gops, struct fgt_user, gops);
	unsigned long *p;
	int size;

	atomic_inc(&u->returns);
	u->calltime = trace->calltime;
	u->rettime = trace->rettime;
	if (!u->reserve && !u->look)
		return;
	p = fgraph_retrieve_data(gops->idx, &size);
	u->found = p;
	u->data_ok = p == u->data && p && *p == (unsigned long)u &&
		size >= u->reserve;
}

/* fgt_entry() and fgt_return() under other names, for a second user. */
static int fgt_alt_entry(struct ftrace_graph_ent *trace,
			 struct fgraph_ops *gops, struct ftrace_regs *fregs)
{
	container_of(gops, struct fgt_user, gops)->alt_calls++;
	return fgt_entry(trace, gops, fregs);
}

static void fgt_alt_return(struct ftrace_graph_ret *trace,
			   struct fgraph_ops *gops, struct ftrace_regs *fregs)
{
	container_of(gops, struct fgt_user, gops)->alt_calls++;
	fgt_return(trace, gops, fregs);
}

static void fgt_unregister_action(void *data)
{
	struct fgt_user *u = data;

	unregister_ftrace_graph(&u->gops);
	ftrace_free_filter(&u->gops.ops);
}

/* A user hooking @func, unregistered and freed at the end of the case. */
static struct fgt_user *fgt_user(struct kunit *test, void *func)
{
	struct fgt_user *u = kunit_kzalloc(test, sizeof(*u), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, u);
	u->gops.entryfunc = fgt_entry;
	u->gops.retfunc = fgt_return;
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(&u->gops.ops,
						   (unsigned long)func, 0, 1), 0);
	return u;
}

static int fgt_register(struct kunit *test, struct fgt_user *u)
{
	int ret = register_ftrace_graph(&u->gops);

	if (ret)
		return ret;
	/* On failure the action runs at once: unregistered, as the caller sees. */
	return kunit_add_action_or_reset(test, fgt_unregister_action, u);
}

/* A call pushes a frame, and its return leaves the stack as it was. */
static void fgt_push_pop_test(struct kunit *test)
{
	struct fgt_user *u = fgt_user(test, fgt_tracee);
	int depth;

	KUNIT_ASSERT_EQ(test, fgt_register(test, u), 0);
	depth = current->curr_ret_stack;
	KUNIT_EXPECT_EQ(test, fgt_tracee(1), 2);
	KUNIT_EXPECT_EQ(test, current->curr_ret_stack, depth);
	KUNIT_EXPECT_EQ(test, atomic_read(&u->entries), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&u->returns), 1);
	KUNIT_EXPECT_NULL(test, ftrace_graph_get_ret_stack(current, 0));
}

/*
 * Times: a call no user asked to time returns with none; once one user
 * asks (here after reserving data, so the frame is below its top word),
 * every user of the call gets its calltime and rettime.
 */
static void fgt_time_test(struct kunit *test)
{
	struct fgt_user *plain = fgt_user(test, fgt_tracee);
	struct fgt_user *timed = fgt_user(test, fgt_tracee);

	KUNIT_ASSERT_EQ(test, fgt_register(test, plain), 0);
	KUNIT_EXPECT_EQ(test, fgt_tracee(1), 2);
	KUNIT_EXPECT_EQ(test, plain->calltime, 0);
	KUNIT_EXPECT_EQ(test, plain->rettime, 0);

	timed->timed = true;
	timed->reserve = sizeof(long);
	KUNIT_ASSERT_EQ(test, fgt_register(test, timed), 0);
	KUNIT_EXPECT_EQ(test, fgt_tracee(1), 2);
	KUNIT_EXPECT_TRUE(test, timed->data_ok);
	KUNIT_EXPECT_NE(test, timed->calltime, 0);
	KUNIT_EXPECT_GE(test, timed->rettime, timed->calltime);
	KUNIT_EXPECT_EQ(test, plain->calltime, timed->calltime);
	KUNIT_EXPECT_EQ(test, plain->rettime, timed->rettime);
}

/*
 * A time given on entry is the call's calltime, and the return still
 * reads the clock.  With two users the first one called stamps the
 * frame for both: the other's time, given or read, does not replace it.
 * The given time, 1000 ns after boot, is older than any clock read here.
 */
static void fgt_time_at_test(struct kunit *test)
{
	struct fgt_user *given = fgt_user(test, fgt_tracee);
	struct fgt_user *timed = fgt_user(test, fgt_tracee);
	u64 before;

	given->time_at = 1000;
	KUNIT_ASSERT_EQ(test, fgt_register(test, given), 0);
	before = trace_clock_local();
	KUNIT_ASSERT_GT(test, before, 1000);
	KUNIT_EXPECT_EQ(test, fgt_tracee(1), 2);
	KUNIT_EXPECT_EQ(test, given->calltime, 1000);
	KUNIT_EXPECT_GE(test, given->rettime, before);

	timed->timed = true;
	KUNIT_ASSERT_EQ(test, fgt_register(test, timed), 0);
	before = trace_clock_local();
	KUNIT_EXPECT_EQ(test, fgt_tracee(1), 2);
	KUNIT_EXPECT_EQ(test, timed->calltime, given->calltime);
	/* The graph offers a call to its users in the order of their slots. */
	if (given->gops.idx < timed->gops.idx)
		KUNIT_EXPECT_EQ(test, given->calltime, 1000);
	else
		KUNIT_EXPECT_GE(test, given->calltime, before);
	KUNIT_EXPECT_GE(test, timed->rettime, before);
}

/*
 * A time given by a user that stamps its returns itself
 * (fgraph_time_call_own()) is the call's calltime, and the return reads
 * no clock for it: rettime 0.  Once another user asks for the call to be
 * timed, whichever of the two is called first, the return reads the
 * clock and both get the same times.
 */
static void fgt_time_own_test(struct kunit *test)
{
	struct fgt_user *own = fgt_user(test, fgt_tracee);
	struct fgt_user *timed = fgt_user(test, fgt_tracee);
	u64 before;

	own->time_at = 1000;
	own->own = true;
	KUNIT_ASSERT_EQ(test, fgt_register(test, own), 0);
	KUNIT_EXPECT_EQ(test, fgt_tracee(1), 2);
	KUNIT_EXPECT_EQ(test, own->calltime, 1000);
	KUNIT_EXPECT_EQ(test, own->rettime, 0);

	timed->timed = true;
	KUNIT_ASSERT_EQ(test, fgt_register(test, timed), 0);
	before = trace_clock_local();
	KUNIT_EXPECT_EQ(test, fgt_tracee(1), 2);
	KUNIT_EXPECT_EQ(test, timed->calltime, own->calltime);
	KUNIT_EXPECT_GE(test, own->rettime, before);
	KUNIT_EXPECT_EQ(test, timed->rettime, own->rettime);
}

/* Data: found on return, 1 to 32 words, once a call, dropped on decline. */
static void fgt_data_test(struct kunit *test)
{
	struct fgt_user *a = fgt_user(test, fgt_tracee);
	struct fgt_user *b = fgt_user(test, fgt_tracee);
	void *dropped;
	int size;

	KUNIT_ASSERT_EQ(test, fgt_register(test, a), 0);
	for (size = 1; size <= FGRAPH_MAX_DATA_SIZE; size += 7) {
		a->reserve = size;
		a->data_ok = false;
		fgt_tracee(0);
		KUNIT_EXPECT_TRUE_MSG(test, a->data_ok, "size %d", size);
	}
	a->reserve = FGRAPH_MAX_DATA_SIZE;
	a->data_ok = false;
	fgt_tracee(0);
	KUNIT_EXPECT_TRUE(test, a->data_ok);
	a->reserve = FGRAPH_MAX_DATA_SIZE + 1;
	fgt_tracee(0);
	KUNIT_EXPECT_NULL(test, a->data);
	atomic_set(&a->returns, 0);

	/* a declines: b's data goes where a's went. */
	KUNIT_ASSERT_EQ(test, fgt_register(test, b), 0);
	a->reserve = 16;
	a->decline = true;
	b->reserve = 16;
	fgt_tracee(0);
	dropped = a->data;
	KUNIT_EXPECT_NOT_NULL(test, dropped);
	KUNIT_EXPECT_TRUE(test, a->gops.idx < b->gops.idx ?
			  b->data == dropped : true);
	KUNIT_EXPECT_TRUE(test, b->data_ok);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->returns), 0);

	/* No data outside an entry callback, nor twice in one. */
	KUNIT_EXPECT_NULL(test, fgraph_reserve_data(a->gops.idx, 8));
	KUNIT_EXPECT_NULL(test, fgraph_retrieve_data(a->gops.idx, NULL));
}

/*
 * A user's data is found on top of the frame, below another user's, and
 * not at all when the user reserved none on this call.
 */
static void fgt_call_data_test(struct kunit *test)
{
	struct fgt_user *a = fgt_user(test, fgt_tracee);
	struct fgt_user *b = fgt_user(test, fgt_tracee);

	a->look = true;
	a->reserve = 3 * sizeof(long);
	KUNIT_ASSERT_EQ(test, fgt_register(test, a), 0);
	fgt_tracee(0);
	KUNIT_EXPECT_TRUE(test, a->data_ok);

	/* b is offered the call after a: its data goes on top of a's. */
	b->reserve = 16;
	KUNIT_ASSERT_EQ(test, fgt_register(test, b), 0);
	KUNIT_ASSERT_LT(test, a->gops.idx, b->gops.idx);
	a->data_ok = false;
	b->data_ok = false;
	fgt_tracee(0);
	KUNIT_EXPECT_TRUE(test, a->data_ok);
	KUNIT_EXPECT_TRUE(test, b->data_ok);

	/* a reserves nothing: b's data on top is not taken for a's. */
	a->reserve = 0;
	a->found = a;
	b->data_ok = false;
	fgt_tracee(0);
	KUNIT_EXPECT_NULL(test, a->found);
	KUNIT_EXPECT_TRUE(test, b->data_ok);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->returns), 3);
}

/* A full stack hooks no more calls, counts them, and all calls return. */
static void fgt_full_stack_test(struct kunit *test)
{
	struct fgt_user *u = fgt_user(test, fgt_deep);
	int overrun, entries;

	KUNIT_ASSERT_EQ(test, fgt_register(test, u), 0);
	/* Read after registering: a stack given to the task resets it. */
	overrun = atomic_read(&current->trace_overrun);
	KUNIT_EXPECT_EQ(test, fgt_deep(200), 200);
	entries = atomic_read(&u->entries);
	KUNIT_EXPECT_GT(test, entries, 10);
	KUNIT_EXPECT_LT(test, entries, 201);
	KUNIT_EXPECT_EQ(test, atomic_read(&u->returns), entries);
	KUNIT_EXPECT_EQ(test, atomic_read(&current->trace_overrun) - overrun,
			201 - entries);
}

/* Sixteen users, no seventeenth; twice and unknown are refused. */
static void fgt_slots_test(struct kunit *test)
{
	struct fgt_user *u[FGRAPH_SLOTS + 1];
	int i, freed;

	for (i = 0; i <= FGRAPH_SLOTS; i++)
		u[i] = fgt_user(test, fgt_tracee);
	for (i = 0; i < FGRAPH_SLOTS; i++)
		KUNIT_ASSERT_EQ(test, fgt_register(test, u[i]), 0);
	KUNIT_EXPECT_EQ(test, register_ftrace_graph(&u[FGRAPH_SLOTS]->gops),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, register_ftrace_graph(&u[0]->gops), -EBUSY);
	/* Never registered: ignored, the others go on. */
	unregister_ftrace_graph(&u[FGRAPH_SLOTS]->gops);

	fgt_tracee(0);
	for (i = 0; i < FGRAPH_SLOTS; i++) {
		KUNIT_EXPECT_EQ(test, atomic_read(&u[i]->entries), 1);
		KUNIT_EXPECT_EQ(test, atomic_read(&u[i]->returns), 1);
	}

	freed = u[5]->gops.idx;
	unregister_ftrace_graph(&u[5]->gops);
	KUNIT_ASSERT_EQ(test, fgt_register(test, u[FGRAPH_SLOTS]), 0);
	KUNIT_EXPECT_EQ(test, u[FGRAPH_SLOTS]->gops.idx, freed);
	fgt_tracee(0);
	KUNIT_EXPECT_EQ(test, atomic_read(&u[5]->entries), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&u[FGRAPH_SLOTS]->returns), 1);
}

/*
 * A user alone is called straight, not through the slots: as users come
 * and go, each call still reaches the callbacks of the user that takes
 * it, and with that user.
 */
static void fgt_sole_test(struct kunit *test)
{
	struct fgt_user *a = fgt_user(test, fgt_tracee);
	struct fgt_user *b = fgt_user(test, fgt_tracee);

	b->gops.entryfunc = fgt_alt_entry;
	b->gops.retfunc = fgt_alt_return;
	KUNIT_ASSERT_EQ(test, fgt_register(test, a), 0);
	KUNIT_ASSERT_EQ(test, fgt_register(test, b), 0);
	fgt_tracee(0);
	unregister_ftrace_graph(&a->gops);
	/*
	 * Left alone with exactly its functions hooked: no filter test,
	 * but where the graph caller runs for every traced function.
	 */
	KUNIT_EXPECT_EQ(test, READ_ONCE(fgraph_test_filters),
			(bool)FGRAPH_NO_DIRECT);
	fgt_tracee(0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->entries), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->returns), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->entries), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->returns), 2);
	KUNIT_EXPECT_EQ(test, b->alt_calls, 4);

	/* Both again, then a alone: its own callbacks, not b's. */
	KUNIT_ASSERT_EQ(test, register_ftrace_graph(&a->gops), 0);
	unregister_ftrace_graph(&b->gops);
	fgt_tracee(0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->entries), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->returns), 2);
	KUNIT_EXPECT_EQ(test, a->alt_calls, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->entries), 2);
	KUNIT_EXPECT_EQ(test, b->alt_calls, 4);
}

static atomic_t fgt_ops_calls;

static void fgt_ops_func(unsigned long ip, unsigned long parent_ip,
			 struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	atomic_inc(&fgt_ops_calls);
}

static void fgt_ops_unregister(void *data)
{
	struct ftrace_ops *ops = data;

	unregister_ftrace_function(ops);
	ftrace_free_filter(ops);
}

/*
 * A sole user is called for its functions only, not for those another
 * ops hooks (on an arch whose graph caller runs for those too).
 */
static void fgt_sole_filter_test(struct kunit *test)
{
	struct fgt_user *u = fgt_user(test, fgt_tracee);
	struct ftrace_ops *ops = kunit_kzalloc(test, sizeof(*ops), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ops);
	ops->func = fgt_ops_func;
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(ops, (unsigned long)fgt_deep,
						   0, 1), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(ops), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							fgt_ops_unregister,
							ops), 0);
	KUNIT_ASSERT_EQ(test, fgt_register(test, u), 0);
	atomic_set(&fgt_ops_calls, 0);
	KUNIT_EXPECT_EQ(test, fgt_deep(2), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&fgt_ops_calls), 3);
	KUNIT_EXPECT_EQ(test, atomic_read(&u->entries), 0);
	KUNIT_EXPECT_EQ(test, fgt_tracee(1), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&u->entries), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&u->returns), 1);
}

/* fgraph_ops.declinefunc: the user's own word, read on each call. */
static bool fgt_declines(struct fgraph_ops *gops)
{
	struct fgt_user *u = container_of(gops, struct fgt_user, gops);

	atomic_inc(&u->declines_asked);
	return READ_ONCE(u->decline);
}

/*
 * A sole user whose declinefunc says it declines every call is not
 * offered one: its entry callback is not called, no frame is taken and
 * its return callback never runs.  When it says otherwise, or while a
 * second user is registered, calls are offered as before.
 */
static void fgt_decline_test(struct kunit *test)
{
	struct fgt_user *a = fgt_user(test, fgt_tracee);
	struct fgt_user *b = fgt_user(test, fgt_tracee);
	int depth = current->curr_ret_stack;

	a->gops.declinefunc = fgt_declines;
	a->decline = true;
	KUNIT_ASSERT_EQ(test, fgt_register(test, a), 0);
	KUNIT_EXPECT_EQ(test, fgt_tracee(1), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->entries), 0);
	KUNIT_EXPECT_EQ(test, current->curr_ret_stack, depth);

	WRITE_ONCE(a->decline, false);
	fgt_tracee(0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->entries), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->returns), 1);

	/* Not alone: offered again, and the entry callback declines. */
	WRITE_ONCE(a->decline, true);
	KUNIT_ASSERT_EQ(test, fgt_register(test, b), 0);
	fgt_tracee(0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->entries), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->returns), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->entries), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->returns), 1);

	/* Alone again once b leaves: not offered. */
	unregister_ftrace_graph(&b->gops);
	fgt_tracee(0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->entries), 2);
}

/*
 * A sole user's declinefunc is asked only while its decline_when word is
 * non-zero: while it is zero the calls are offered, whatever the
 * declinefunc would have said (here the entry callback then declines
 * them itself).
 */
static void fgt_decline_when_test(struct kunit *test)
{
	struct fgt_user *a = fgt_user(test, fgt_tracee);

	a->gops.declinefunc = fgt_declines;
	a->gops.decline_when = &a->decline_when;
	a->decline = true;
	KUNIT_ASSERT_EQ(test, fgt_register(test, a), 0);
	fgt_tracee(0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->declines_asked), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->entries), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->returns), 0);

	/* Asked, and it declines: not offered. */
	WRITE_ONCE(a->decline_when, 1);
	fgt_tracee(0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->declines_asked), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->entries), 1);

	/* Asked, it may still let the call through. */
	WRITE_ONCE(a->decline, false);
	fgt_tracee(0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->declines_asked), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->entries), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->returns), 1);
}

/* While active, no ftrace_hash can be made: a registration that needs one fails. */
static struct ftrace_hash *fgt_no_hash(unsigned int bits)
{
	return NULL;
}

/*
 * A registration that fails once its slot is taken (here: the manager's
 * sets, which must grow by the second user's function, cannot be made)
 * leaves nothing behind: the error comes back, the user that was alone
 * is still called straight, the failed one never is, and the slot
 * serves the next registration.
 */
static void fgt_register_fail_test(struct kunit *test)
{
	struct fgt_user *a = fgt_user(test, fgt_tracee);
	struct fgt_user *b = fgt_user(test, fgt_deep);
	int ret;

	b->gops.entryfunc = fgt_alt_entry;
	b->gops.retfunc = fgt_alt_return;
	KUNIT_ASSERT_EQ(test, fgt_register(test, a), 0);
	kunit_activate_static_stub(test, fhash_alloc, fgt_no_hash);
	ret = register_ftrace_graph(&b->gops);
	kunit_deactivate_static_stub(test, fhash_alloc);
	KUNIT_ASSERT_EQ(test, ret, -ENOMEM);

	fgt_tracee(0);
	fgt_deep(1);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->entries), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->returns), 1);
	KUNIT_EXPECT_EQ(test, b->alt_calls, 0);
	KUNIT_EXPECT_EQ(test, ftrace_graph_active, 1);

	/* The slot it had is free again, and the second user works. */
	KUNIT_ASSERT_EQ(test, fgt_register(test, b), 0);
	fgt_deep(1);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->entries), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->returns), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->entries), 1);
}

/* Does some ops hook @func's site (enabled_functions lists it)? */
static bool fgt_hooked(void *func)
{
	unsigned long ip = ftrace_location((unsigned long)func);
	struct dyn_ftrace *rec;

	guard(rcu)();
	rec = frec_lookup(ip, ip);
	return rec && ftrace_rec_count(rec);
}

/*
 * A user leaves while the graph's sets cannot shrink (no hash can be
 * made): they still hook its function, and the user left alone is not
 * called for it, though no filter was tested while one user was alone.
 */
static void fgt_unregister_nomem_test(struct kunit *test)
{
	struct fgt_user *a = fgt_user(test, fgt_tracee);
	struct fgt_user *b = fgt_user(test, fgt_deep);
	struct fgt_user *c = fgt_user(test, fgt_deep);

	KUNIT_ASSERT_EQ(test, fgt_register(test, a), 0);
	KUNIT_ASSERT_EQ(test, fgt_register(test, b), 0);
	kunit_activate_static_stub(test, fhash_alloc, fgt_no_hash);
	unregister_ftrace_graph(&b->gops);
	kunit_deactivate_static_stub(test, fhash_alloc);
	KUNIT_EXPECT_TRUE(test, fgt_hooked(fgt_deep));

	fgt_deep(1);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->entries), 0);
	fgt_tracee(0);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->entries), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->returns), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->entries), 0);

	/* A second user again: it is called too, not only the one alone. */
	KUNIT_ASSERT_EQ(test, fgt_register(test, c), 0);
	fgt_deep(1);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->entries), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->returns), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->entries), 1);
}

struct fgt_sleeper {
	struct completion entered, leave;
	struct task_struct *task;
};

static noinline __noclone void fgt_tracee_sleep(struct fgt_sleeper *s)
{
	barrier();
	complete(&s->entered);
	wait_for_completion(&s->leave);
}

static int fgt_sleeper_fn(void *data)
{
	fgt_tracee_sleep(data);
	return 0;
}

static void fgt_sleeper_end(void *data)
{
	struct fgt_sleeper *s = data;

	complete(&s->leave);
	kthread_stop(s->task);
	put_task_struct(s->task);
}

/* A task asleep in fgt_tracee_sleep() until the end of the case. */
static struct fgt_sleeper *fgt_sleeper_start(struct kunit *test)
{
	struct fgt_sleeper *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	init_completion(&s->entered);
	init_completion(&s->leave);
	s->task = kthread_run(fgt_sleeper_fn, s, "fgt_sleeper");
	KUNIT_ASSERT_FALSE(test, IS_ERR(s->task));
	get_task_struct(s->task);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, fgt_sleeper_end, s),
			0);
	wait_for_completion(&s->entered);
	return s;
}

/* The next user of a slot is not called for its predecessor's calls. */
static void fgt_slot_reuse_test(struct kunit *test)
{
	struct fgt_user *old = fgt_user(test, fgt_tracee_sleep);
	struct fgt_user *new = fgt_user(test, fgt_tracee_sleep);
	struct fgt_sleeper *s;
	int slot;

	KUNIT_ASSERT_EQ(test, fgt_register(test, old), 0);
	slot = old->gops.idx;
	s = fgt_sleeper_start(test);
	KUNIT_EXPECT_EQ(test, atomic_read(&old->entries), 1);
	unregister_ftrace_graph(&old->gops);

	KUNIT_ASSERT_EQ(test, fgt_register(test, new), 0);
	KUNIT_EXPECT_EQ(test, new->gops.idx, slot);
	/* Back through the frame old's entry took, and gone. */
	kunit_release_action(test, fgt_sleeper_end, s);
	KUNIT_EXPECT_EQ(test, atomic_read(&old->returns), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&new->returns), 0);
}

struct fgt_seen {
	bool handler_seen;	/* return_to_handler in the stack trace */
	bool caller_seen;	/* fgt_unwind_test in it */
	unsigned long ret;	/* what ftrace_graph_ret_addr() gave */
	unsigned long saved;	/* what the frame saved */
};

static noinline __noclone void fgt_tracee_unwind(struct fgt_seen *seen)
{
	unsigned long handler = (unsigned long)return_to_handler;
	struct ftrace_ret_stack *frame = ftrace_graph_get_ret_stack(current, 0);
	unsigned long entries[16];
	char name[KSYM_NAME_LEN];
	int i, n, idx = 0;

	n = stack_trace_save(entries, ARRAY_SIZE(entries), 0);
	for (i = 0; i < n; i++) {
		if (entries[i] == handler)
			seen->handler_seen = true;
		sprint_symbol_no_offset(name, entries[i]);
		if (!strcmp(name, "fgt_unwind_test"))
			seen->caller_seen = true;
	}
	if (!frame)
		return;
	seen->saved = frame->ret;
	/*
	 * What an unwinder finds: the handler, known by the frame's @retp
	 * (on arm64 the callsite's frame pointer, not where the address is).
	 */
	seen->ret = ftrace_graph_ret_addr(current, &idx, handler, frame->retp);
}

/* Inside a hooked call, unwinding shows the real caller. */
static void fgt_unwind_test(struct kunit *test)
{
	struct fgt_user *u = fgt_user(test, fgt_tracee_unwind);
	struct fgt_seen seen = {};

	KUNIT_ASSERT_EQ(test, fgt_register(test, u), 0);
	fgt_tracee_unwind(&seen);
	KUNIT_ASSERT_EQ(test, atomic_read(&u->entries), 1);
	KUNIT_EXPECT_FALSE(test, seen.handler_seen);
	KUNIT_EXPECT_TRUE(test, seen.caller_seen);
	KUNIT_EXPECT_NE(test, seen.saved, 0UL);
	KUNIT_EXPECT_EQ(test, seen.ret, seen.saved);
}

struct fgt_churn {
	struct fgraph_ops gops;
	atomic_t calls;
	bool gone;		/* unregister_ftrace_graph() has returned */
	atomic_t late;		/* callbacks that ran after that */
};

static int fgt_churn_entry(struct ftrace_graph_ent *trace,
			   struct fgraph_ops *gops,
			   struct ftrace_regs *fregs)
{
	struct fgt_churn *c = container_of(gops, struct fgt_churn, gops);

	atomic_inc(&c->calls);
	if (READ_ONCE(c->gone))
		atomic_inc(&c->late);
	return 1;
}

static void fgt_churn_return(struct ftrace_graph_ret *trace,
			     struct fgraph_ops *gops,
			     struct ftrace_regs *fregs)
{
	struct fgt_churn *c = container_of(gops, struct fgt_churn, gops);

	if (READ_ONCE(c->gone))
		atomic_inc(&c->late);
}

static int fgt_caller_fn(void *data)
{
	while (!kthread_should_stop()) {
		fgt_tracee(0);
		cond_resched();
	}
	return 0;
}

#define FGT_CHURN_ROUNDS	40

/*
 * Users come and go while another task calls their function: none is
 * called once unregister_ftrace_graph() has returned for it.
 */
static void fgt_churn_test(struct kunit *test)
{
	struct fgt_churn *c = kunit_kcalloc(test, FGT_CHURN_ROUNDS, sizeof(*c),
					    GFP_KERNEL);
	struct task_struct *caller;
	int i, calls = 0, late = 0;

	KUNIT_ASSERT_NOT_NULL(test, c);
	caller = kthread_run(fgt_caller_fn, NULL, "fgt_caller");
	KUNIT_ASSERT_FALSE(test, IS_ERR(caller));
	for (i = 0; i < FGT_CHURN_ROUNDS; i++) {
		c[i].gops.entryfunc = fgt_churn_entry;
		c[i].gops.retfunc = fgt_churn_return;
		if (ftrace_set_filter_ip(&c[i].gops.ops,
					 (unsigned long)fgt_tracee, 0, 1) ||
		    register_ftrace_graph(&c[i].gops))
			break;
		usleep_range(1000, 2000);
		unregister_ftrace_graph(&c[i].gops);
		WRITE_ONCE(c[i].gone, true);
		ftrace_free_filter(&c[i].gops.ops);
	}
	msleep(20);
	kthread_stop(caller);
	KUNIT_EXPECT_EQ(test, i, FGT_CHURN_ROUNDS);
	for (i = 0; i < FGT_CHURN_ROUNDS; i++) {
		calls += atomic_read(&c[i].calls);
		late += atomic_read(&c[i].late);
	}
	KUNIT_EXPECT_GT(test, calls, 0);
	KUNIT_EXPECT_EQ(test, late, 0);
}

#ifdef CONFIG_HAVE_FUNCTION_GRAPH_FREGS
struct fgt_regs_user {
	struct fgraph_ops gops;
	unsigned long arg0;	/* the first argument, at entry */
	unsigned long retval;	/* the return value, at return */
	unsigned long ret_ip;	/* where the call returns to */
	bool partial_ok;	/* ftrace_partial_regs() agreed */
};

static noinline __noclone int fgt_tracee_regs(int x)
{
	barrier();
	return 3 * x;
}

static int fgt_regs_entry(struct ftrace_graph_ent *trace,
			  struct fgraph_ops *gops, struct ftrace_regs *fregs)
{
	struct fgt_regs_user *u = container_of(gops, struct fgt_regs_user, gops);

	if (fregs)
		u->arg0 = ftrace_regs_get_argument(fregs, 0);
	return 1;
}

static void fgt_regs_return(struct ftrace_graph_ret *trace,
			    struct fgraph_ops *gops, struct ftrace_regs *fregs)
{
	struct fgt_regs_user *u = container_of(gops, struct fgt_regs_user, gops);
	struct pt_regs scratch, *regs;

	u->retval = ftrace_regs_get_return_value(fregs);
	u->ret_ip = ftrace_regs_get_instruction_pointer(fregs);
	regs = ftrace_partial_regs(fregs, &scratch);
	u->partial_ok = regs && regs_return_value(regs) == u->retval &&
		instruction_pointer(regs) == u->ret_ip;
}

static void fgt_regs_unregister(void *data)
{
	struct fgt_regs_user *u = data;

	unregister_ftrace_graph(&u->gops);
	ftrace_free_filter(&u->gops.ops);
}

/*
 * The callbacks get the call's registers: its argument on entry (where
 * the arch has DYNAMIC_FTRACE_WITH_ARGS; NULL elsewhere); on return its
 * return value and where it returns to, also as pt_regs.
 */
static void fgt_regs_test(struct kunit *test)
{
	struct fgt_regs_user *u = kunit_kzalloc(test, sizeof(*u), GFP_KERNEL);
	char name[KSYM_NAME_LEN];

	KUNIT_ASSERT_NOT_NULL(test, u);
	u->gops.entryfunc = fgt_regs_entry;
	u->gops.retfunc = fgt_regs_return;
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(&u->gops.ops,
						   (unsigned long)fgt_tracee_regs,
						   0, 1), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_graph(&u->gops), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							fgt_regs_unregister, u),
			0);
	KUNIT_EXPECT_EQ(test, fgt_tracee_regs(14), 42);
	/* Entry callbacks get registers where every hook saves them. */
	KUNIT_EXPECT_EQ(test, u->arg0,
			IS_ENABLED(CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS) ? 14UL : 0UL);
	KUNIT_EXPECT_EQ(test, u->retval, 42UL);
	sprint_symbol_no_offset(name, u->ret_ip);
	KUNIT_EXPECT_STREQ(test, name, "fgt_regs_test");
	KUNIT_EXPECT_TRUE(test, u->partial_ok);
}

#else
static void fgt_regs_test(struct kunit *test)
{
	kunit_skip(test, "the arch's return_to_handler saves no ftrace_regs");
}
#endif

static struct kunit_case fgt_cases[] = {
	KUNIT_CASE(fgt_push_pop_test),
	KUNIT_CASE(fgt_data_test),
	KUNIT_CASE(fgt_call_data_test),
	KUNIT_CASE(fgt_time_test),
	KUNIT_CASE(fgt_time_at_test),
	KUNIT_CASE(fgt_time_own_test),
	KUNIT_CASE(fgt_full_stack_test),
	KUNIT_CASE_SLOW(fgt_slots_test),
	KUNIT_CASE(fgt_sole_test),
	KUNIT_CASE(fgt_sole_filter_test),
	KUNIT_CASE(fgt_decline_test),
	KUNIT_CASE(fgt_decline_when_test),
	KUNIT_CASE(fgt_register_fail_test),
	KUNIT_CASE(fgt_unregister_nomem_test),
	KUNIT_CASE_SLOW(fgt_slot_reuse_test),
	KUNIT_CASE(fgt_unwind_test),
	KUNIT_CASE(fgt_regs_test),
	KUNIT_CASE_SLOW(fgt_churn_test),
	{}
};

static struct kunit_suite fgt_suite = {
	.name = "fgraph",
	.test_cases = fgt_cases,
};

kunit_test_suite(fgt_suite);

MODULE_DESCRIPTION("KUnit tests for the function graph's users and frames");
MODULE_LICENSE("GPL");
