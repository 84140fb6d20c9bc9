// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite ring_buffer_data: events reserved by their data,
 * ring_buffer_lock_reserve_data(), as the tracers write theirs.
 *
 *  - the data pointer is where a reader finds the event's data, for a
 *    small event (length in the header), a large one (length in the
 *    data's first word) and one behind an absolute time stamp;
 *  - the time stamp given at the reserve is the one a reader gets;
 *  - a reserve nested in another's (ring_buffer_nest_start()) and
 *    events over several pages are read back whole, in order, each with
 *    the stamp its writer was given;
 *  - a buffer that takes nothing gives NULL and leaves nothing locked.
 *
 * Each case writes with preemption off, so that its events are on the
 * CPU it reads.
 */
#include <kunit/test.h>
#include <linux/ring_buffer.h>
#include <linux/slab.h>

#define RBD_BUFFER_SIZE		(64 * 1024)
#define RBD_LARGE		200	/* over the header's largest length */
#define RBD_MANY		1000	/* enough to fill several pages */

struct rbd_item {
	u64	ts;		/* what the reserve gave */
	u32	seq;
	u8	fill[];
};

static struct trace_buffer *rbd_alloc(struct kunit *test)
{
	struct trace_buffer *buffer;

	buffer = ring_buffer_alloc(RBD_BUFFER_SIZE, 0);
	KUNIT_ASSERT_NOT_NULL(test, buffer);
	return buffer;
}

/* Reserve an item of @len bytes, fill it and commit; false if refused. */
static bool rbd_write(struct trace_buffer *buffer, unsigned int len, u32 seq)
{
	struct rbd_item *item;
	u64 ts;

	item = ring_buffer_lock_reserve_data(buffer, len, &ts);
	if (!item)
		return false;
	item->ts = ts;
	item->seq = seq;
	memset(item->fill, seq & 0xff, len - sizeof(*item));
	ring_buffer_unlock_commit(buffer);
	return true;
}

/*
 * Read the next item on @cpu back: its data, length and stamp as
 * written.  Returns false if it is not.
 */
static bool rbd_expect_item(struct kunit *test, struct trace_buffer *buffer,
			    int cpu, unsigned int len, u32 seq)
{
	struct ring_buffer_event *event;
	struct rbd_item *item;
	u64 ts;
	int i;

	event = ring_buffer_consume(buffer, cpu, &ts, NULL);
	KUNIT_ASSERT_NOT_NULL(test, event);
	KUNIT_EXPECT_GE(test, ring_buffer_event_length(event), len);
	item = ring_buffer_event_data(event);
	KUNIT_EXPECT_EQ(test, item->seq, seq);
	KUNIT_EXPECT_EQ(test, item->ts, ts);
	if (item->seq != seq || item->ts != ts)
		return false;
	for (i = 0; i < len - sizeof(*item); i++)
		if (item->fill[i] != (seq & 0xff)) {
			KUNIT_FAIL(test, "item %u: byte %d is %#x", seq, i,
				   item->fill[i]);
			return false;
		}
	return true;
}

/* One item of @len bytes, written and read back. */
static void rbd_one(struct kunit *test, struct trace_buffer *buffer,
		    unsigned int len)
{
	int cpu;

	preempt_disable();
	cpu = smp_processor_id();
	KUNIT_EXPECT_TRUE(test, rbd_write(buffer, len, 7));
	preempt_enable();
	rbd_expect_item(test, buffer, cpu, len, 7);
	KUNIT_EXPECT_NULL(test, ring_buffer_consume(buffer, cpu, NULL, NULL));
}

static void rbd_small_test(struct kunit *test)
{
	struct trace_buffer *buffer = rbd_alloc(test);

	rbd_one(test, buffer, sizeof(struct rbd_item) + 4);
	ring_buffer_free(buffer);
}

static void rbd_large_test(struct kunit *test)
{
	struct trace_buffer *buffer = rbd_alloc(test);

	rbd_one(test, buffer, RBD_LARGE);
	ring_buffer_free(buffer);
}

/* Absolute stamps put a time extend before each event's data. */
static void rbd_abs_test(struct kunit *test)
{
	struct trace_buffer *buffer = rbd_alloc(test);

	ring_buffer_set_time_stamp_abs(buffer, true);
	rbd_one(test, buffer, sizeof(struct rbd_item) + 4);
	rbd_one(test, buffer, RBD_LARGE);
	ring_buffer_free(buffer);
}

/* A reserve inside another's, as an interrupting writer's. */
static void rbd_nested_test(struct kunit *test)
{
	struct trace_buffer *buffer = rbd_alloc(test);
	unsigned int len = sizeof(struct rbd_item) + 8;
	struct rbd_item *outer;
	u64 ts;
	int cpu;

	preempt_disable();
	cpu = smp_processor_id();
	outer = ring_buffer_lock_reserve_data(buffer, len, &ts);
	KUNIT_ASSERT_NOT_NULL(test, outer);
	outer->ts = ts;
	outer->seq = 1;
	memset(outer->fill, 1, len - sizeof(*outer));
	ring_buffer_nest_start(buffer);
	KUNIT_EXPECT_TRUE(test, rbd_write(buffer, len, 2));
	ring_buffer_nest_end(buffer);
	ring_buffer_unlock_commit(buffer);
	preempt_enable();

	rbd_expect_item(test, buffer, cpu, len, 1);
	rbd_expect_item(test, buffer, cpu, len, 2);
	ring_buffer_free(buffer);
}

/* Events over several pages: the commit follows the tail page on. */
static void rbd_pages_test(struct kunit *test)
{
	struct trace_buffer *buffer = rbd_alloc(test);
	unsigned int len = sizeof(struct rbd_item) + 28;
	u32 seq, written = 0;
	int cpu;

	preempt_disable();
	cpu = smp_processor_id();
	for (seq = 0; seq < RBD_MANY; seq++)
		written += rbd_write(buffer, len, seq);
	preempt_enable();
	KUNIT_ASSERT_EQ(test, written, RBD_MANY);
	KUNIT_EXPECT_GT(test, ring_buffer_entries_cpu(buffer, cpu), 0UL);

	for (seq = 0; seq < RBD_MANY; seq++)
		if (!rbd_expect_item(test, buffer, cpu, len, seq))
			break;
	KUNIT_EXPECT_NULL(test, ring_buffer_consume(buffer, cpu, NULL, NULL));
	ring_buffer_free(buffer);
}

/* A buffer whose recording is off takes nothing, and locks nothing. */
static void rbd_refused_test(struct kunit *test)
{
	struct trace_buffer *buffer = rbd_alloc(test);
	int pc = preempt_count();
	u64 ts = 1;

	ring_buffer_record_off(buffer);
	KUNIT_EXPECT_NULL(test, ring_buffer_lock_reserve_data(buffer, 16, &ts));
	KUNIT_EXPECT_EQ(test, ts, 1ULL);
	KUNIT_EXPECT_EQ(test, preempt_count(), pc);
	ring_buffer_record_on(buffer);
	/* Nothing was left locked: the next reserve is taken. */
	rbd_one(test, buffer, sizeof(struct rbd_item) + 4);
	ring_buffer_free(buffer);
}

static struct kunit_case rbd_cases[] = {
	KUNIT_CASE(rbd_small_test),
	KUNIT_CASE(rbd_large_test),
	KUNIT_CASE(rbd_abs_test),
	KUNIT_CASE(rbd_nested_test),
	KUNIT_CASE(rbd_pages_test),
	KUNIT_CASE(rbd_refused_test),
	{}
};

static struct kunit_suite rbd_suite = {
	.name = "ring_buffer_data",
	.test_cases = rbd_cases,
};

kunit_test_suite(rbd_suite);
