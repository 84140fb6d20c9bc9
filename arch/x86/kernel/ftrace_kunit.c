// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for two error paths of the x86 function-hook backend,
 * and for the batched text writes its site updates go through.
 *
 * The site check: a site is only written if it holds the bytes its
 * record says it holds. A site that cannot be read is refused with
 * -EFAULT, one that holds something else with -EINVAL; in a batch, a
 * refused site is reported and marked BAD, and the others are written.
 * A corrupted site under a real ops: the ops still gets every other
 * function it asked for, and nothing else stops.
 *
 * The trampoline builder: when a per-ops trampoline cannot be built,
 * the ops gets none, the backend keeps nothing of the attempt, and the
 * core calls the ops from the shared template instead.
 *
 * The templates: which one a trampoline copies for an ops' flags, what
 * the frame it builds holds, and that a handler's change of the flags
 * or of the ip takes effect, through a copy (the ops' own trampoline)
 * and through the shared template (when the trampoline cannot be
 * built).
 *
 * This file is included at the end of ftrace.c (with
 * CONFIG_FTRACE_X86_KUNIT_TEST), so it reaches the backend's static
 * helpers and its two test seams: struct site_batch can walk an array
 * of records, and tramp_alloc_fails_for makes one ops' trampoline
 * allocation fail. Like ftrace.c it is not instrumented; the tracees
 * are, in ftrace_kunit_tracee.c.
 *
 * The site cases rewrite the sites of their own tracees behind the
 * core's back: they make up records saying whatever a case needs, while
 * the core's records of those tracees still say NOP. That is safe
 * because nothing but this suite calls or traces the tracees (a case
 * skips if its sites are not NOPs when it starts), and because a case
 * holds the backend's batch open, and so text_mutex, from the moment it
 * checks the sites until it has put the NOPs back: the core cannot run
 * a batch of its own meanwhile. The core's ftrace_lock is not held, so
 * a module being loaded during a case would find the batch open; the
 * suite runs at boot, before user space, and loads no module itself.
 *
 * A case never aborts (KUNIT_ASSERT) while it holds text_mutex: KUnit
 * would end the test thread with the lock held.
 */

#include <kunit/test.h>
#include <linux/context_tracking.h>
#include <linux/irq_work.h>

#include "ftrace_kunit.h"

enum fxk_idx {
	FXK_SITE,
	FXK_BATCH_A,
	FXK_BATCH_B,
	FXK_BATCH_C,
	FXK_TRAMP,
	FXK_BAD,
	FXK_GOOD,
	FXK_IRQS,
	FXK_NR,
};

static void * const fxk_tracees[FXK_NR] = {
	[FXK_SITE] = fxkt_site,
	[FXK_BATCH_A] = fxkt_batch_a,
	[FXK_BATCH_B] = fxkt_batch_b,
	[FXK_BATCH_C] = fxkt_batch_c,
	[FXK_TRAMP] = fxkt_tramp,
	[FXK_BAD] = fxkt_bad,
	[FXK_GOOD] = fxkt_good,
	[FXK_IRQS] = fxkt_irqs_off,
};

/* The __fentry__ site of each tracee, found by fxk_suite_init(). */
static unsigned long fxk_ips[FXK_NR];

static const u8 *fxk_nop(void)
{
	return x86_nops[MCOUNT_INSN_SIZE];
}

/*
 * The CALL a site at @ip holds when it calls @target, worked out here
 * rather than with the backend's own helper.
 */
static void fxk_call(u8 insn[MCOUNT_INSN_SIZE], unsigned long ip,
		     unsigned long target)
{
	s32 rel;

	/* The CALL lands past an ENDBR64: a direct call needs none. */
	if (IS_ENABLED(CONFIG_X86_KERNEL_IBT) && is_endbr(*(u32 *)target))
		target += ENDBR_INSN_SIZE;
	rel = target - (ip + CALL_INSN_SIZE);

	insn[0] = CALL_INSN_OPCODE;
	memcpy(insn + 1, &rel, sizeof(rel));
}

/* A record of the site at @ip (near text: it must fit a record). */
static struct dyn_ftrace fxk_rec(unsigned long ip, unsigned long flags)
{
	struct dyn_ftrace rec = { .flags = flags };

	WARN_ON(!ftrace_rec_set_ip(&rec, ip));
	return rec;
}

static bool fxk_site_is(unsigned long ip, const u8 *insn)
{
	return !memcmp((void *)ip, insn, MCOUNT_INSN_SIZE);
}

/* Set up a site's state without going through the code under test. */
static void fxk_poke(unsigned long ip, const u8 *insn)
{
	text_poke_bp((void *)ip, insn, MCOUNT_INSN_SIZE, NULL);
}

/*
 * Open the backend's batch, as the core does before it changes sites,
 * for a case that changes the sites of @recs. Returns false, with the
 * batch closed again, if one of them is not a NOP: something else
 * traces that tracee, and the case must leave it alone.
 */
static bool fxk_sites_open(const struct dyn_ftrace *recs, unsigned int nr)
{
	unsigned int i;

	ftrace_arch_code_modify_prepare();
	for (i = 0; i < nr; i++) {
		if (!fxk_site_is(ftrace_rec_ip(&recs[i]), fxk_nop())) {
			ftrace_arch_code_modify_post_process();
			return false;
		}
	}
	return true;
}

/* Put back the NOP of each site of @recs, then close the batch. */
static void fxk_sites_close(const struct dyn_ftrace *recs, unsigned int nr)
{
	unsigned int i;

	text_poke_finish();
	for (i = 0; i < nr; i++) {
		if (!fxk_site_is(ftrace_rec_ip(&recs[i]), fxk_nop()))
			fxk_poke(ftrace_rec_ip(&recs[i]), fxk_nop());
	}
	ftrace_arch_code_modify_post_process();
}

/*
 * A backend call returned @ret for the site at @ip, which held @held:
 * it must have refused with -EINVAL, left @held there (also once the
 * queue is written out) and told the core, for ftrace_bug(), that it
 * expected @want.
 */
static void fxk_expect_refused(struct kunit *test, int ret, unsigned long ip,
			       const u8 *held, const u8 *want)
{
	text_poke_finish();
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	KUNIT_EXPECT_MEMEQ(test, (void *)ip, held, MCOUNT_INSN_SIZE);
	KUNIT_EXPECT_NOT_NULL(test, ftrace_expected);
	if (ftrace_expected)
		KUNIT_EXPECT_MEMEQ(test, ftrace_expected, want,
				   MCOUNT_INSN_SIZE);
}

/* ftrace_make_call() only turns the NOP its record promises into a CALL. */
static void fxk_make_call_test(struct kunit *test)
{
	struct dyn_ftrace rec = fxk_rec(fxk_ips[FXK_SITE], 0);
	u8 call[MCOUNT_INSN_SIZE];
	int ret;

	fxk_call(call, ftrace_rec_ip(&rec), FTRACE_ADDR);
	if (!fxk_sites_open(&rec, 1))
		kunit_skip(test, "fxkt_site is traced by someone else");

	ret = ftrace_make_call(&rec, FTRACE_ADDR);
	text_poke_finish();
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_MEMEQ(test, (void *)ftrace_rec_ip(&rec), call, MCOUNT_INSN_SIZE);

	/*
	 * A CALL where the record says NOP: refused, whether or not it is
	 * the CALL that would have been written.
	 */
	fxk_poke(ftrace_rec_ip(&rec), call);
	ftrace_expected = NULL;
	ret = ftrace_make_call(&rec, FTRACE_REGS_ADDR);
	fxk_expect_refused(test, ret, ftrace_rec_ip(&rec), call, fxk_nop());

	ftrace_expected = NULL;
	ret = ftrace_make_call(&rec, FTRACE_ADDR);
	fxk_expect_refused(test, ret, ftrace_rec_ip(&rec), call, fxk_nop());

	fxk_sites_close(&rec, 1);
}

/* ftrace_make_nop() only removes the CALL its record promises. */
static void fxk_make_nop_test(struct kunit *test)
{
	struct dyn_ftrace rec = fxk_rec(fxk_ips[FXK_SITE], 0);
	u8 call[MCOUNT_INSN_SIZE], regs_call[MCOUNT_INSN_SIZE];
	int ret;

	fxk_call(call, ftrace_rec_ip(&rec), FTRACE_ADDR);
	fxk_call(regs_call, ftrace_rec_ip(&rec), FTRACE_REGS_ADDR);
	if (!fxk_sites_open(&rec, 1))
		kunit_skip(test, "fxkt_site is traced by someone else");

	/* Already a NOP: the CALL to take out is missing. */
	ftrace_expected = NULL;
	ret = ftrace_make_nop(NULL, &rec, FTRACE_ADDR);
	fxk_expect_refused(test, ret, ftrace_rec_ip(&rec), fxk_nop(), call);

	/* A CALL, but to another trampoline than the record says. */
	fxk_poke(ftrace_rec_ip(&rec), regs_call);
	ftrace_expected = NULL;
	ret = ftrace_make_nop(NULL, &rec, FTRACE_ADDR);
	fxk_expect_refused(test, ret, ftrace_rec_ip(&rec), regs_call, call);

	ret = ftrace_make_nop(NULL, &rec, FTRACE_REGS_ADDR);
	text_poke_finish();
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_MEMEQ(test, (void *)ftrace_rec_ip(&rec), fxk_nop(), MCOUNT_INSN_SIZE);

	fxk_sites_close(&rec, 1);
}

/* ftrace_modify_call() only retargets the CALL its record promises. */
static void fxk_modify_call_test(struct kunit *test)
{
	struct dyn_ftrace rec = fxk_rec(fxk_ips[FXK_SITE], 0);
	u8 call[MCOUNT_INSN_SIZE], regs_call[MCOUNT_INSN_SIZE];
	int ret;

	fxk_call(call, ftrace_rec_ip(&rec), FTRACE_ADDR);
	fxk_call(regs_call, ftrace_rec_ip(&rec), FTRACE_REGS_ADDR);
	if (!fxk_sites_open(&rec, 1))
		kunit_skip(test, "fxkt_site is traced by someone else");

	/* A NOP: there is no CALL to retarget. */
	ftrace_expected = NULL;
	ret = ftrace_modify_call(&rec, FTRACE_ADDR, FTRACE_REGS_ADDR);
	fxk_expect_refused(test, ret, ftrace_rec_ip(&rec), fxk_nop(), call);

	/* A CALL to the new target already, not to the old one. */
	fxk_poke(ftrace_rec_ip(&rec), regs_call);
	ftrace_expected = NULL;
	ret = ftrace_modify_call(&rec, FTRACE_ADDR, FTRACE_REGS_ADDR);
	fxk_expect_refused(test, ret, ftrace_rec_ip(&rec), regs_call, call);

	ret = ftrace_modify_call(&rec, FTRACE_REGS_ADDR, FTRACE_ADDR);
	text_poke_finish();
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_MEMEQ(test, (void *)ftrace_rec_ip(&rec), call, MCOUNT_INSN_SIZE);

	fxk_sites_close(&rec, 1);
}

static void fxk_execmem_free(void *p)
{
	execmem_free(p);
}

/* A site that cannot be read is refused with -EFAULT, not written. */
static void fxk_unreadable_site_test(struct kunit *test)
{
	static const u8 tail[2] = { INT3_INSN_OPCODE, INT3_INSN_OPCODE };
	struct dyn_ftrace rec;
	int call_ret, nop_ret, modify_ret;
	u8 *page;

	/*
	 * Module text (which a record can name, unlike vmalloc()'s) is
	 * vmalloc'ed too, with an unmapped guard page after each area:
	 * five bytes from two before the end can only be read in part.
	 */
	page = execmem_alloc(EXECMEM_FTRACE, PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fxk_execmem_free, page));
	memset(page, INT3_INSN_OPCODE, PAGE_SIZE);
	rec = fxk_rec((unsigned long)page + PAGE_SIZE - sizeof(tail), 0);

	ftrace_arch_code_modify_prepare();
	call_ret = ftrace_make_call(&rec, FTRACE_ADDR);
	nop_ret = ftrace_make_nop(NULL, &rec, FTRACE_ADDR);
	modify_ret = ftrace_modify_call(&rec, FTRACE_ADDR, FTRACE_REGS_ADDR);
	ftrace_arch_code_modify_post_process();

	KUNIT_EXPECT_EQ(test, call_ret, -EFAULT);
	KUNIT_EXPECT_EQ(test, nop_ret, -EFAULT);
	KUNIT_EXPECT_EQ(test, modify_ret, -EFAULT);
	KUNIT_EXPECT_MEMEQ(test, (void *)ftrace_rec_ip(&rec), tail, sizeof(tail));
}

/* Records of the three batch tracees, all with one user and @flags. */
static void fxk_batch_recs(struct dyn_ftrace recs[3], unsigned long flags)
{
	unsigned int i;

	for (i = 0; i < 3; i++)
		recs[i] = fxk_rec(fxk_ips[FXK_BATCH_A + i], 1 | flags);
}

/*
 * A batch that turns NOPs into CALLs, whose last site is not a NOP:
 * that site alone is refused (reported, its record marked BAD, its
 * bytes left), and the first two get their CALLs.
 */
static void fxk_batch_make_calls_test(struct kunit *test)
{
	struct dyn_ftrace recs[3];
	struct site_batch b = { .recs = recs, .nr = ARRAY_SIZE(recs) };
	u8 call[3][MCOUNT_INSN_SIZE];
	unsigned int i, refused;

	fxk_batch_recs(recs, 0);
	for (i = 0; i < 3; i++)
		fxk_call(call[i], ftrace_rec_ip(&recs[i]), FTRACE_ADDR);
	if (!fxk_sites_open(recs, 3))
		kunit_skip(test, "a batch tracee is traced by someone else");

	fxk_poke(ftrace_rec_ip(&recs[2]), call[2]);
	ftrace_expected = NULL;
	refused = site_batch_replace(&b, true);
	KUNIT_EXPECT_EQ(test, refused, 1U);
	KUNIT_EXPECT_NOT_NULL(test, ftrace_expected);
	if (ftrace_expected)
		KUNIT_EXPECT_MEMEQ(test, ftrace_expected, fxk_nop(),
				   MCOUNT_INSN_SIZE);
	for (i = 0; i < 2; i++) {
		KUNIT_EXPECT_MEMEQ(test, (void *)ftrace_rec_ip(&recs[i]), call[i],
				   MCOUNT_INSN_SIZE);
		KUNIT_EXPECT_EQ(test, recs[i].flags, 1UL | FTRACE_FL_ENABLED |
				FTRACE_FL_TOUCHED);
	}
	KUNIT_EXPECT_MEMEQ(test, (void *)ftrace_rec_ip(&recs[2]), call[2],
			   MCOUNT_INSN_SIZE);
	/* Refused: no count, no claim of a CALL, out of later batches. */
	KUNIT_EXPECT_EQ(test, recs[2].flags, FTRACE_FL_BAD);
	KUNIT_EXPECT_EQ(test, site_batch_replace(&b, false), 0U);
	KUNIT_EXPECT_MEMEQ(test, (void *)ftrace_rec_ip(&recs[2]), call[2],
			   MCOUNT_INSN_SIZE);
	for (i = 0; i < 2; i++)
		KUNIT_EXPECT_MEMEQ(test, (void *)ftrace_rec_ip(&recs[i]), fxk_nop(),
				   MCOUNT_INSN_SIZE);

	fxk_sites_close(recs, 3);
}

/*
 * A batch that turns CALLs into NOPs, whose middle site calls another
 * trampoline than its record says: the first and the last become
 * NOPs, the middle one keeps its CALL and its record is marked BAD.
 */
static void fxk_batch_make_nops_test(struct kunit *test)
{
	struct dyn_ftrace recs[3];
	struct site_batch b = { .recs = recs, .nr = ARRAY_SIZE(recs) };
	u8 call[3][MCOUNT_INSN_SIZE], regs_call[MCOUNT_INSN_SIZE];
	unsigned int i, refused;

	fxk_batch_recs(recs, FTRACE_FL_ENABLED);
	for (i = 0; i < 3; i++)
		fxk_call(call[i], ftrace_rec_ip(&recs[i]), FTRACE_ADDR);
	fxk_call(regs_call, ftrace_rec_ip(&recs[1]), FTRACE_REGS_ADDR);
	if (!fxk_sites_open(recs, 3))
		kunit_skip(test, "a batch tracee is traced by someone else");

	fxk_poke(ftrace_rec_ip(&recs[0]), call[0]);
	fxk_poke(ftrace_rec_ip(&recs[1]), regs_call);
	fxk_poke(ftrace_rec_ip(&recs[2]), call[2]);
	ftrace_expected = NULL;
	refused = site_batch_replace(&b, false);
	KUNIT_EXPECT_EQ(test, refused, 1U);
	KUNIT_EXPECT_NOT_NULL(test, ftrace_expected);
	if (ftrace_expected)
		KUNIT_EXPECT_MEMEQ(test, ftrace_expected, call[1],
				   MCOUNT_INSN_SIZE);
	KUNIT_EXPECT_MEMEQ(test, (void *)ftrace_rec_ip(&recs[0]), fxk_nop(),
			   MCOUNT_INSN_SIZE);
	KUNIT_EXPECT_MEMEQ(test, (void *)ftrace_rec_ip(&recs[1]), regs_call,
			   MCOUNT_INSN_SIZE);
	KUNIT_EXPECT_MEMEQ(test, (void *)ftrace_rec_ip(&recs[2]), fxk_nop(),
			   MCOUNT_INSN_SIZE);
	KUNIT_EXPECT_FALSE(test, recs[0].flags & FTRACE_FL_ENABLED);
	KUNIT_EXPECT_FALSE(test, recs[2].flags & FTRACE_FL_ENABLED);
	KUNIT_EXPECT_EQ(test, recs[1].flags, FTRACE_FL_BAD);

	fxk_sites_close(recs, 3);
}

/*
 * The batches are written by text_poke_bp_batch(), which writes each of
 * its steps a run of sites at a time, as many as fit the two pages one
 * mapping covers.  Four pages of module
 * text with a site every FXK_RUN_STEP bytes have a site that straddles
 * a page boundary, runs that end at the two-page limit and more sites
 * than one vector holds.  Each site must get exactly its new bytes,
 * both ways, and the INT3s between the sites must stay.
 */
#define FXK_RUN_SIZE	(4 * PAGE_SIZE)
#define FXK_RUN_STEP	27

/* What the site at @buf + @off holds when it calls, or is a NOP. */
static const u8 *fxk_run_insn(u8 call[MCOUNT_INSN_SIZE], u8 *buf,
			      unsigned int off, bool calls)
{
	if (!calls)
		return fxk_nop();
	fxk_call(call, (unsigned long)buf + off, FTRACE_ADDR);
	return call;
}

/* Make every site of @buf call, or be a NOP, in one batch. */
static void fxk_run_write(u8 *buf, bool calls)
{
	u8 call[MCOUNT_INSN_SIZE];
	unsigned int off;

	ftrace_arch_code_modify_prepare();
	for (off = 0; off + MCOUNT_INSN_SIZE <= FXK_RUN_SIZE;
	     off += FXK_RUN_STEP)
		text_poke_queue(buf + off, fxk_run_insn(call, buf, off, calls),
				MCOUNT_INSN_SIZE, NULL);
	ftrace_arch_code_modify_post_process();
}

/* Do the sites of @buf all call (or are all NOPs), with INT3s between? */
static bool fxk_run_holds(u8 *buf, bool calls)
{
	unsigned int off, gap = 0;
	u8 call[MCOUNT_INSN_SIZE];

	for (off = 0; off + MCOUNT_INSN_SIZE <= FXK_RUN_SIZE;
	     off += FXK_RUN_STEP) {
		if (memchr_inv(buf + gap, INT3_INSN_OPCODE, off - gap) ||
		    memcmp(buf + off, fxk_run_insn(call, buf, off, calls),
			   MCOUNT_INSN_SIZE))
			return false;
		gap = off + MCOUNT_INSN_SIZE;
	}
	return !memchr_inv(buf + gap, INT3_INSN_OPCODE, FXK_RUN_SIZE - gap);
}

static void fxk_text_runs_test(struct kunit *test)
{
	u8 call[MCOUNT_INSN_SIZE];
	unsigned int off;
	u8 *buf;

	buf = execmem_alloc(EXECMEM_FTRACE, FXK_RUN_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fxk_execmem_free, buf));
	memset(buf, INT3_INSN_OPCODE, FXK_RUN_SIZE);
	for (off = 0; off + MCOUNT_INSN_SIZE <= FXK_RUN_SIZE;
	     off += FXK_RUN_STEP)
		memcpy(buf + off, fxk_run_insn(call, buf, off, false),
		       MCOUNT_INSN_SIZE);

	fxk_run_write(buf, true);
	KUNIT_EXPECT_TRUE(test, fxk_run_holds(buf, true));
	fxk_run_write(buf, false);
	KUNIT_EXPECT_TRUE(test, fxk_run_holds(buf, false));
}

/* An ops hooking fxkt_tramp() alone, and how often it was called. */
struct fxk_probe {
	struct ftrace_ops ops;
	atomic_t hits;
};

static void fxk_probe_func(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct fxk_probe *p = container_of(op, struct fxk_probe, ops);

	if (ip == fxk_ips[FXK_TRAMP])
		atomic_inc(&p->hits);
}

/* KUnit action: unregister an ops if a case left it, free its filter. */
static void fxk_ops_release(void *data)
{
	struct ftrace_ops *ops = data;

	if (ops->flags & FTRACE_OPS_FL_ENABLED)
		WARN_ON(unregister_ftrace_function(ops));
	ftrace_free_filter(ops);
}

/*
 * Allocated rather than static: the core frees the trampoline of a
 * dynamic ops only (one outside the kernel's data), so a static ops
 * would keep the first trampoline it got.
 */
static struct fxk_probe *fxk_probe_new(struct kunit *test)
{
	struct fxk_probe *p;

	p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	p->ops.func = fxk_probe_func;
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fxk_ops_release, &p->ops));
	KUNIT_ASSERT_EQ(test, 0, ftrace_set_filter_ip(&p->ops,
						      fxk_ips[FXK_TRAMP],
						      0, 0));
	return p;
}

/* How many trampolines the backend tracks for @ops, or for all if NULL. */
static unsigned int fxk_tramp_nodes(const struct ftrace_ops *ops)
{
	struct tramp_node *node;
	unsigned int n = 0;

	mutex_lock(&tramp_lock);
	list_for_each_entry(node, &tramp_list, list) {
		if (!ops || node->ops == ops)
			n++;
	}
	mutex_unlock(&tramp_lock);
	return n;
}

/* KUnit action: let trampolines be built again. */
static void fxk_tramp_alloc_works(void *unused)
{
	WRITE_ONCE(tramp_alloc_fails_for, NULL);
}

/*
 * When an ops' trampoline cannot be built, the ops is left without
 * one, the backend keeps nothing of the attempt, and the core calls
 * the ops from the shared template instead.
 */
static void fxk_tramp_fallback_test(struct kunit *test)
{
	unsigned long ip = fxk_ips[FXK_TRAMP];
	u8 call[MCOUNT_INSN_SIZE];
	struct fxk_probe *p;
	unsigned int tramps;

	if (!fxk_site_is(ip, fxk_nop()))
		kunit_skip(test, "fxkt_tramp is traced by someone else");
	p = fxk_probe_new(test);
	WRITE_ONCE(tramp_alloc_fails_for, &p->ops);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fxk_tramp_alloc_works,
						  NULL));
	tramps = fxk_tramp_nodes(NULL);

	KUNIT_ASSERT_EQ(test, register_ftrace_function(&p->ops), 0);
	KUNIT_EXPECT_EQ(test, p->ops.trampoline, 0UL);
	KUNIT_EXPECT_EQ(test, p->ops.trampoline_size, 0U);
	KUNIT_EXPECT_FALSE(test, p->ops.flags & FTRACE_OPS_FL_ALLOC_TRAMP);
	KUNIT_EXPECT_EQ(test, fxk_tramp_nodes(&p->ops), 0U);
	KUNIT_EXPECT_EQ(test, fxk_tramp_nodes(NULL), tramps);

	fxk_call(call, ip, FTRACE_ADDR);
	KUNIT_EXPECT_MEMEQ(test, (void *)ip, call, MCOUNT_INSN_SIZE);
	KUNIT_EXPECT_EQ(test, fxkt_tramp(1), 60);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->hits), 1);

	KUNIT_EXPECT_EQ(test, unregister_ftrace_function(&p->ops), 0);
	KUNIT_EXPECT_MEMEQ(test, (void *)ip, fxk_nop(), MCOUNT_INSN_SIZE);
	KUNIT_EXPECT_EQ(test, fxk_tramp_nodes(NULL), tramps);
}

/*
 * The counterpart: with the allocation working, the same ops gets a
 * trampoline of its own, its site calls it, and unregistering the ops
 * frees it.
 */
static void fxk_tramp_built_test(struct kunit *test)
{
	unsigned long ip = fxk_ips[FXK_TRAMP];
	u8 call[MCOUNT_INSN_SIZE];
	struct fxk_probe *p;
	unsigned int tramps;

	if (!fxk_site_is(ip, fxk_nop()))
		kunit_skip(test, "fxkt_tramp is traced by someone else");
	p = fxk_probe_new(test);
	tramps = fxk_tramp_nodes(NULL);

	KUNIT_ASSERT_EQ(test, register_ftrace_function(&p->ops), 0);
	KUNIT_ASSERT_NE(test, p->ops.trampoline, 0UL);
	KUNIT_EXPECT_NE(test, p->ops.trampoline_size, 0U);
	KUNIT_EXPECT_TRUE(test, p->ops.flags & FTRACE_OPS_FL_ALLOC_TRAMP);
	KUNIT_EXPECT_EQ(test, fxk_tramp_nodes(&p->ops), 1U);
	KUNIT_EXPECT_EQ(test, fxk_tramp_nodes(NULL), tramps + 1);

	fxk_call(call, ip, p->ops.trampoline);
	KUNIT_EXPECT_MEMEQ(test, (void *)ip, call, MCOUNT_INSN_SIZE);
	KUNIT_EXPECT_EQ(test, fxkt_tramp(2), 89);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->hits), 1);

	KUNIT_EXPECT_EQ(test, unregister_ftrace_function(&p->ops), 0);
	KUNIT_EXPECT_EQ(test, p->ops.trampoline, 0UL);
	KUNIT_EXPECT_EQ(test, fxk_tramp_nodes(NULL), tramps);
	KUNIT_EXPECT_MEMEQ(test, (void *)ip, fxk_nop(), MCOUNT_INSN_SIZE);
}

/* nopw 0x0(%rax): a five-byte NOP, but not the x86_nops[5] of a site. */
static const u8 fxk_other_nop[MCOUNT_INSN_SIZE] = {
	0x66, 0x0f, 0x1f, 0x40, 0x00
};

/* An ops on fxkt_bad() and fxkt_good(), with its calls of each. */
struct fxk_pair {
	struct ftrace_ops ops;
	atomic_t bad_hits, good_hits;
};

static void fxk_pair_func(unsigned long ip, unsigned long parent_ip,
			  struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct fxk_pair *p = container_of(op, struct fxk_pair, ops);

	if (ip == fxk_ips[FXK_BAD])
		atomic_inc(&p->bad_hits);
	else if (ip == fxk_ips[FXK_GOOD])
		atomic_inc(&p->good_hits);
}

static struct fxk_pair *fxk_pair_new(struct kunit *test)
{
	unsigned long ips[] = { fxk_ips[FXK_BAD], fxk_ips[FXK_GOOD] };
	struct fxk_pair *p;

	p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	p->ops.func = fxk_pair_func;
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fxk_ops_release, &p->ops));
	KUNIT_ASSERT_EQ(test, 0, ftrace_set_filter_ips(&p->ops, ips,
						       ARRAY_SIZE(ips), 0, 0));
	return p;
}

/* Write @insn at @ip with plain text_poke(): it need not be a NOP5. */
static void fxk_poke_any(unsigned long ip, const u8 *insn)
{
	mutex_lock(&text_mutex);
	text_poke((void *)ip, insn, MCOUNT_INSN_SIZE);
	text_poke_sync();
	mutex_unlock(&text_mutex);
}

/*
 * The core's record of the site at @ip, found with the iterator the
 * core's batches use, so under the lock of a batch (text_mutex). Its
 * flags are the core's, which no one changes while the suite runs at
 * boot, before user space.
 */
static struct dyn_ftrace *fxk_rec_of(unsigned long ip)
{
	struct ftrace_rec_iter *iter;
	struct dyn_ftrace *rec = NULL;

	mutex_lock(&text_mutex);
	for (iter = ftrace_rec_iter_start(); iter;
	     iter = ftrace_rec_iter_next(iter)) {
		if (ftrace_rec_ip(ftrace_rec_iter_record(iter)) == ip) {
			rec = ftrace_rec_iter_record(iter);
			break;
		}
	}
	mutex_unlock(&text_mutex);
	return rec;
}

/*
 * KUnit action: give fxkt_bad() its NOP back, then lift the BAD mark
 * of its record, which holds no count and no call: the site is again
 * what the record says.
 */
static void fxk_bad_restore(void *data)
{
	struct dyn_ftrace *rec = data;

	if (!fxk_site_is(ftrace_rec_ip(rec), fxk_nop()))
		fxk_poke_any(ftrace_rec_ip(rec), fxk_nop());
	mutex_lock(&text_mutex);
	rec->flags &= ~FTRACE_FL_BAD;
	mutex_unlock(&text_mutex);
}

/*
 * A site corrupted behind the core's back, under a real ops that also
 * asks for a sound one: registering works, the corrupted site is
 * reported and left as it is (its record turns BAD), the sound one
 * calls the ops, a second ops comes and goes, and unregistering puts
 * the sound site's NOP back. Nothing stops. The case ends by mending
 * the site and lifting the mark.
 */
static void fxk_bad_site_test(struct kunit *test)
{
	unsigned long bad = fxk_ips[FXK_BAD], good = fxk_ips[FXK_GOOD];
	struct dyn_ftrace *rec = fxk_rec_of(bad);
	struct fxk_pair *p, *q;

	KUNIT_ASSERT_NOT_NULL(test, rec);
	if (!fxk_site_is(bad, fxk_nop()) || !fxk_site_is(good, fxk_nop()))
		kunit_skip(test, "fxkt_bad or fxkt_good is traced by someone else");
	p = fxk_pair_new(test);
	q = fxk_pair_new(test);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fxk_bad_restore, rec));
	fxk_poke_any(bad, fxk_other_nop);

	KUNIT_ASSERT_EQ(test, register_ftrace_function(&p->ops), 0);
	KUNIT_EXPECT_TRUE(test, rec->flags & FTRACE_FL_BAD);
	KUNIT_EXPECT_EQ(test, ftrace_rec_count(rec), 0UL);
	KUNIT_EXPECT_MEMEQ(test, (void *)bad, fxk_other_nop, MCOUNT_INSN_SIZE);
	KUNIT_EXPECT_FALSE(test, fxk_site_is(good, fxk_nop()));
	KUNIT_EXPECT_EQ(test, fxkt_bad(1), 78);
	KUNIT_EXPECT_EQ(test, fxkt_good(1), 90);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->bad_hits), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->good_hits), 1);

	KUNIT_ASSERT_EQ(test, register_ftrace_function(&q->ops), 0);
	fxkt_bad(2);
	fxkt_good(2);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->good_hits), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&q->good_hits), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->bad_hits) +
			      atomic_read(&q->bad_hits), 0);
	KUNIT_EXPECT_EQ(test, unregister_ftrace_function(&q->ops), 0);

	KUNIT_EXPECT_EQ(test, unregister_ftrace_function(&p->ops), 0);
	KUNIT_EXPECT_MEMEQ(test, (void *)good, fxk_nop(), MCOUNT_INSN_SIZE);
	KUNIT_EXPECT_MEMEQ(test, (void *)bad, fxk_other_nop, MCOUNT_INSN_SIZE);
	fxkt_good(3);
	KUNIT_EXPECT_EQ(test, atomic_read(&p->good_hits), 2);
}

static int fxk_suite_init(struct kunit_suite *suite)
{
	unsigned int i;

	for (i = 0; i < FXK_NR; i++) {
		fxk_ips[i] = ftrace_location((unsigned long)fxk_tracees[i]);
		if (!fxk_ips[i]) {
			pr_err("%ps has no ftrace record\n", fxk_tracees[i]);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * An ops that asked for the guard (RECURSION, or RCU), on fxkt_tramp().
 * Its callback calls the tracee again, which the guard must drop, and
 * can raise an interrupt that calls it, which the guard must let in.
 */
struct fxk_guarded {
	struct ftrace_ops ops;
	atomic_t hits, irq_hits;
	bool preemptible;	/* a call ran with preemption on */
	bool raise_irq;
	struct irq_work work;
};

static void fxk_guarded_irq(struct irq_work *work)
{
	fxkt_tramp(5);
}

static void fxk_guarded_func(unsigned long ip, unsigned long parent_ip,
			     struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct fxk_guarded *g = container_of(op, struct fxk_guarded, ops);

	if (ip != fxk_ips[FXK_TRAMP])
		return;
	atomic_inc(&g->hits);
	if (preemptible())
		WRITE_ONCE(g->preemptible, true);
	if (in_hardirq()) {
		atomic_inc(&g->irq_hits);
		return;
	}
	fxkt_tramp(4);
	if (g->raise_irq && irq_work_queue(&g->work)) {
		/* irq_work_sync() may sleep; this CPU takes the IPI here. */
		while (irq_work_is_busy(&g->work))
			cpu_relax();
	}
}

static struct fxk_guarded *fxk_guarded_init(struct kunit *test,
					    struct fxk_guarded *g,
					    unsigned long flags)
{
	g->ops.func = fxk_guarded_func;
	g->ops.flags = flags;
	/* A hard one: PREEMPT_RT runs the others in a thread, after us. */
	g->work = IRQ_WORK_INIT_HARD(fxk_guarded_irq);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fxk_ops_release, &g->ops));
	KUNIT_ASSERT_EQ(test, 0, ftrace_set_filter_ip(&g->ops,
						      fxk_ips[FXK_TRAMP],
						      0, 0));
	return g;
}

static struct fxk_guarded *fxk_guarded_new(struct kunit *test,
					   unsigned long flags)
{
	struct fxk_guarded *g;

	g = kunit_kzalloc(test, sizeof(*g), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, g);
	return fxk_guarded_init(test, g, flags);
}

/* Is this CPU's guard free again? */
static bool fxk_guard_idle(void)
{
	bool idle;

	preempt_disable();
	idle = __this_cpu_read(ftrace_ops_guard) == FTRACE_GUARD_IDLE;
	preempt_enable();
	return idle;
}

/*
 * A RECURSION ops' trampoline is a copy of the guarded template, which
 * calls the ops' own function: with preemption off, once per call of
 * the tracee, not again for the call the callback makes.
 */
static void fxk_guard_tramp_test(struct kunit *test)
{
	struct fxk_guarded *g;

	if (!fxk_site_is(fxk_ips[FXK_TRAMP], fxk_nop()))
		kunit_skip(test, "fxkt_tramp is traced by someone else");
	g = fxk_guarded_new(test, FTRACE_OPS_FL_RECURSION);

	KUNIT_ASSERT_EQ(test, register_ftrace_function(&g->ops), 0);
	KUNIT_ASSERT_TRUE(test, g->ops.flags & FTRACE_OPS_FL_ALLOC_TRAMP);
	KUNIT_EXPECT_PTR_EQ(test, arch_ftrace_trampoline_func(&g->ops, NULL),
			    (void *)fxk_guarded_func);
	KUNIT_EXPECT_EQ(test, fxkt_tramp(2), 89);
	KUNIT_EXPECT_EQ(test, fxkt_tramp(3), 118);
	KUNIT_EXPECT_EQ(test, atomic_read(&g->hits), 2);
	KUNIT_EXPECT_FALSE(test, READ_ONCE(g->preemptible));
	KUNIT_EXPECT_TRUE(test, fxk_guard_idle());
	KUNIT_EXPECT_EQ(test, unregister_ftrace_function(&g->ops), 0);
}

/* An interrupt inside a guarded callback is another context: it gets in. */
static void fxk_guard_irq_test(struct kunit *test)
{
	struct fxk_guarded *g;

	if (!fxk_site_is(fxk_ips[FXK_TRAMP], fxk_nop()))
		kunit_skip(test, "fxkt_tramp is traced by someone else");
	if (!arch_irq_work_has_interrupt())
		kunit_skip(test, "no self-interrupt for irq_work");
	g = fxk_guarded_new(test, FTRACE_OPS_FL_RECURSION);
	g->raise_irq = true;

	KUNIT_ASSERT_EQ(test, register_ftrace_function(&g->ops), 0);
	KUNIT_EXPECT_EQ(test, fxkt_tramp(2), 89);
	KUNIT_EXPECT_EQ(test, atomic_read(&g->irq_hits), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&g->hits), 2);
	KUNIT_EXPECT_TRUE(test, fxk_guard_idle());
	KUNIT_EXPECT_EQ(test, unregister_ftrace_function(&g->ops), 0);
}

/*
 * Without a trampoline, the shared template calls the same ops through
 * the C guard (or the list function): the same promises hold.  The ops
 * is static, so that the core may call it through the assist function.
 */
static struct fxk_guarded fxk_static_guarded;

static void fxk_guard_shared_test(struct kunit *test)
{
	struct fxk_guarded *g = &fxk_static_guarded;

	if (!fxk_site_is(fxk_ips[FXK_TRAMP], fxk_nop()))
		kunit_skip(test, "fxkt_tramp is traced by someone else");
	memset(g, 0, sizeof(*g));
	fxk_guarded_init(test, g, FTRACE_OPS_FL_RECURSION);
	g->raise_irq = arch_irq_work_has_interrupt();
	WRITE_ONCE(tramp_alloc_fails_for, &g->ops);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fxk_tramp_alloc_works,
						  NULL));

	KUNIT_ASSERT_EQ(test, register_ftrace_function(&g->ops), 0);
	KUNIT_EXPECT_EQ(test, g->ops.trampoline, 0UL);
	KUNIT_EXPECT_EQ(test, fxkt_tramp(2), 89);
	KUNIT_EXPECT_EQ(test, atomic_read(&g->irq_hits), g->raise_irq ? 1 : 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&g->hits), g->raise_irq ? 2 : 1);
	KUNIT_EXPECT_FALSE(test, READ_ONCE(g->preemptible));
	KUNIT_EXPECT_TRUE(test, fxk_guard_idle());
	KUNIT_EXPECT_EQ(test, unregister_ftrace_function(&g->ops), 0);
}

/* Call the tracee where RCU is not watching, as the idle loop would. */
static void fxk_call_rcu_idle(void)
{
	local_irq_disable();
	ct_idle_enter();
	fxkt_tramp(6);
	ct_idle_exit();
	local_irq_enable();
}

/*
 * An RCU ops gets the guarded template too, and is called only where
 * RCU is watching; a RECURSION ops is called there as well.
 */
static void fxk_guard_rcu_test(struct kunit *test)
{
	struct fxk_guarded *rcu, *rec;

	if (!IS_ENABLED(CONFIG_CONTEXT_TRACKING_IDLE))
		kunit_skip(test, "RCU ops keep the C guard here");
	if (!fxk_site_is(fxk_ips[FXK_TRAMP], fxk_nop()))
		kunit_skip(test, "fxkt_tramp is traced by someone else");
	rcu = fxk_guarded_new(test, FTRACE_OPS_FL_RCU);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(&rcu->ops), 0);
	KUNIT_EXPECT_TRUE(test, rcu->ops.flags & FTRACE_OPS_FL_ALLOC_TRAMP);
	KUNIT_EXPECT_EQ(test, fxkt_tramp(2), 89);
	KUNIT_EXPECT_EQ(test, atomic_read(&rcu->hits), 1);
	fxk_call_rcu_idle();
	KUNIT_EXPECT_EQ(test, atomic_read(&rcu->hits), 1);
	KUNIT_EXPECT_EQ(test, unregister_ftrace_function(&rcu->ops), 0);

	rec = fxk_guarded_new(test, FTRACE_OPS_FL_RECURSION);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(&rec->ops), 0);
	fxk_call_rcu_idle();
	KUNIT_EXPECT_EQ(test, atomic_read(&rec->hits), 1);
	KUNIT_EXPECT_TRUE(test, fxk_guard_idle());
	KUNIT_EXPECT_EQ(test, unregister_ftrace_function(&rec->ops), 0);
}

/*
 * An ops on one tracee, and what its callback saw there: how often it
 * was called and, for fxk_frame_func(), what the frame held.
 */
struct fxk_hook {
	struct ftrace_ops ops;
	unsigned long ip;	/* the tracee's site */
	atomic_t hits;
	bool has_regs;		/* ftrace_get_regs() gave a pt_regs */
	unsigned long ss, cs, flags;
	unsigned long sp_word;	/* the word at the frame's sp */
	unsigned long parent_ip;
};

/*
 * Hook the tracee @idx with a new ops of @func and @flags: through a
 * trampoline of its own, or with @shared through the shared template
 * (its trampoline fails to build). Its site must then call that one.
 */
static struct fxk_hook *fxk_hook_on(struct kunit *test, enum fxk_idx idx,
				    ftrace_func_t func, unsigned long flags,
				    bool shared)
{
	unsigned long ip = fxk_ips[idx], target;
	u8 call[MCOUNT_INSN_SIZE];
	struct fxk_hook *h;

	if (!fxk_site_is(ip, fxk_nop()))
		kunit_skip(test, "%ps is traced by someone else",
			   fxk_tracees[idx]);
	h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, h);
	h->ops.func = func;
	h->ops.flags = flags;
	h->ip = ip;
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fxk_ops_release, &h->ops));
	KUNIT_ASSERT_EQ(test, 0, ftrace_set_filter_ip(&h->ops, ip, 0, 0));
	if (shared) {
		WRITE_ONCE(tramp_alloc_fails_for, &h->ops);
		KUNIT_ASSERT_EQ(test, 0,
				kunit_add_action_or_reset(test,
							  fxk_tramp_alloc_works,
							  NULL));
	}

	KUNIT_ASSERT_EQ(test, register_ftrace_function(&h->ops), 0);
	if (shared) {
		KUNIT_ASSERT_EQ(test, h->ops.trampoline, 0UL);
		target = flags & FTRACE_OPS_FL_SAVE_REGS ? FTRACE_REGS_ADDR :
							   FTRACE_ADDR;
	} else {
		KUNIT_ASSERT_TRUE(test, h->ops.flags & FTRACE_OPS_FL_ALLOC_TRAMP);
		KUNIT_ASSERT_NE(test, h->ops.trampoline, 0UL);
		target = h->ops.trampoline;
	}
	fxk_call(call, ip, target);
	KUNIT_ASSERT_MEMEQ(test, (void *)ip, call, MCOUNT_INSN_SIZE);
	return h;
}

/* Count the tracee's calls, and note what the frame held. */
static void fxk_frame_func(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct fxk_hook *h = container_of(op, struct fxk_hook, ops);
	struct pt_regs *regs = ftrace_get_regs(fregs);
	unsigned long sp;

	if (ip != h->ip)
		return;
	h->has_regs = regs;
	if (regs) {
		h->ss = regs->ss;
		h->cs = regs->cs;
		h->flags = regs->flags;
		sp = regs->sp;
	} else {
		sp = ftrace_regs_get_stack_pointer(fregs);
	}
	h->sp_word = *(unsigned long *)sp;
	h->parent_ip = parent_ip;
	atomic_inc(&h->hits);
}

/* An ops' flags, and the template its trampoline must be a copy of. */
struct fxk_template_row {
	const char *name;
	unsigned long flags;
	void (*lean)(void);	/* where the CPU does not track call depth */
	void (*full)(void);	/* where it does */
};

static const struct fxk_template_row fxk_template_rows[] = {
	{ "none", 0, ftrace_lean_caller, ftrace_caller },
	{ "override", FTRACE_OPS_FL_OVERRIDE, ftrace_caller, ftrace_caller },
	{ "ipmodify", FTRACE_OPS_FL_IPMODIFY, ftrace_caller, ftrace_caller },
	{ "save_regs", FTRACE_OPS_FL_SAVE_REGS,
	  ftrace_lean_regs_caller, ftrace_regs_caller },
	{ "save_regs_ipmodify",
	  FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_IPMODIFY,
	  ftrace_lean_regs_caller, ftrace_regs_caller },
	{ "recursion", FTRACE_OPS_FL_RECURSION,
	  ftrace_guard_caller, ftrace_guard_caller },
};

KUNIT_ARRAY_PARAM_DESC(fxk_template, fxk_template_rows, name);

/*
 * The template a trampoline copies follows from its ops' flags: a lean
 * one (no call-depth accounting) wherever the CPU does not track call
 * depth, and the lean light one only for an ops that may not move the
 * ip (neither IPMODIFY nor OVERRIDE); the guarded one for RECURSION.
 * The copy works: the tracee returns its value, the callback saw it.
 */
static void fxk_tramp_template_test(struct kunit *test)
{
	const struct fxk_template_row *row = test->param_value;
	bool lean = !cpu_feature_enabled(X86_FEATURE_CALL_DEPTH);
	void *want = lean ? row->lean : row->full;
	struct fxk_hook *h;
	void *got;

	h = fxk_hook_on(test, FXK_TRAMP, fxk_frame_func, row->flags, false);
	got = (void *)arch_ftrace_tramp_template(&h->ops);
	KUNIT_EXPECT_PTR_EQ_MSG(test, got, want, "a copy of %ps, not %ps",
				got, want);
	KUNIT_EXPECT_EQ(test, fxkt_tramp(2), 89);
	KUNIT_EXPECT_EQ(test, atomic_read(&h->hits), 1);
	KUNIT_EXPECT_EQ(test, unregister_ftrace_function(&h->ops), 0);
}

/* The two ways a call reaches an ops: the parameter of the cases below. */
struct fxk_path {
	const char *name;
	bool shared;
};

static const struct fxk_path fxk_paths[] = {
	{ "copy", false },
	{ "shared", true },
};

KUNIT_ARRAY_PARAM_DESC(fxk_path, fxk_paths, name);

/*
 * A SAVE_REGS ops gets a complete pt_regs, through its trampoline and
 * through ftrace_regs_caller: the kernel's ss and cs, the flags the
 * call was made with (interrupts on), and the hooked function's sp,
 * the slot of its return address into its caller.
 */
static void fxk_regs_frame_test(struct kunit *test)
{
	const struct fxk_path *path = test->param_value;
	struct fxk_hook *h;

	h = fxk_hook_on(test, FXK_TRAMP, fxk_frame_func,
			FTRACE_OPS_FL_SAVE_REGS, path->shared);
	KUNIT_ASSERT_FALSE(test, irqs_disabled());
	KUNIT_EXPECT_EQ(test, fxkt_tramp(3), 118);
	KUNIT_EXPECT_EQ(test, unregister_ftrace_function(&h->ops), 0);

	KUNIT_ASSERT_EQ(test, atomic_read(&h->hits), 1);
	KUNIT_EXPECT_TRUE(test, h->has_regs);
	KUNIT_EXPECT_EQ(test, h->ss, (unsigned long)__KERNEL_DS);
	KUNIT_EXPECT_EQ(test, h->cs, (unsigned long)__KERNEL_CS);
	KUNIT_EXPECT_TRUE(test, h->flags & X86_EFLAGS_FIXED);
	KUNIT_EXPECT_TRUE(test, h->flags & X86_EFLAGS_IF);
	KUNIT_EXPECT_NE(test, h->parent_ip, 0UL);
	KUNIT_EXPECT_EQ(test, h->sp_word, h->parent_ip);
}

/*
 * An ops without SAVE_REGS gets no complete pt_regs (ftrace_get_regs()
 * is NULL), through its trampoline and through ftrace_caller, but its
 * stack pointer is the hooked function's all the same.
 */
static void fxk_light_frame_test(struct kunit *test)
{
	const struct fxk_path *path = test->param_value;
	struct fxk_hook *h;

	h = fxk_hook_on(test, FXK_TRAMP, fxk_frame_func, 0, path->shared);
	KUNIT_EXPECT_EQ(test, fxkt_tramp(3), 118);
	KUNIT_EXPECT_EQ(test, unregister_ftrace_function(&h->ops), 0);

	KUNIT_ASSERT_EQ(test, atomic_read(&h->hits), 1);
	KUNIT_EXPECT_FALSE(test, h->has_regs);
	KUNIT_EXPECT_NE(test, h->parent_ip, 0UL);
	KUNIT_EXPECT_EQ(test, h->sp_word, h->parent_ip);
}

/* Have the hooked function run with interrupts off. */
static void fxk_irqs_off_func(unsigned long ip, unsigned long parent_ip,
			      struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct fxk_hook *h = container_of(op, struct fxk_hook, ops);
	struct pt_regs *regs = ftrace_get_regs(fregs);

	if (ip != h->ip)
		return;
	atomic_inc(&h->hits);
	if (regs)
		regs->flags &= ~X86_EFLAGS_IF;
}

/*
 * A SAVE_REGS handler's change of regs->flags takes effect, through
 * the ops' trampoline and through ftrace_regs_caller: called with
 * interrupts on, the tracee runs with them off once the handler has
 * cleared the interrupt flag there.
 */
static void fxk_regs_flags_test(struct kunit *test)
{
	const struct fxk_path *path = test->param_value;
	struct fxk_hook *h;
	bool off;

	h = fxk_hook_on(test, FXK_IRQS, fxk_irqs_off_func,
			FTRACE_OPS_FL_SAVE_REGS, path->shared);
	KUNIT_ASSERT_FALSE(test, irqs_disabled());
	off = fxkt_irqs_off();
	/* Turned off behind lockdep's back, so back on the same way. */
	raw_local_irq_enable();
	KUNIT_EXPECT_TRUE(test, off);
	KUNIT_EXPECT_EQ(test, atomic_read(&h->hits), 1);
	KUNIT_EXPECT_EQ(test, unregister_ftrace_function(&h->ops), 0);
	KUNIT_EXPECT_FALSE(test, fxkt_irqs_off());
}

/* Send the call on to fxkt_moved(), as kprobes' error injection would. */
static void fxk_move_regs_func(unsigned long ip, unsigned long parent_ip,
			       struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct fxk_hook *h = container_of(op, struct fxk_hook, ops);
	struct pt_regs *regs = ftrace_get_regs(fregs);

	if (ip != h->ip)
		return;
	atomic_inc(&h->hits);
	if (regs)
		instruction_pointer_set(regs, (unsigned long)fxkt_moved);
}

/* The same without pt_regs, as an OVERRIDE ops does. */
static void fxk_move_func(unsigned long ip, unsigned long parent_ip,
			  struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct fxk_hook *h = container_of(op, struct fxk_hook, ops);

	if (ip != h->ip)
		return;
	atomic_inc(&h->hits);
	ftrace_regs_set_instruction_pointer(fregs, (unsigned long)fxkt_moved);
}

/*
 * An ops of @func and @flags on fxkt_tramp() moves the ip to
 * fxkt_moved(), whose value the call then returns (x * 53 + 59, not
 * x * 29 + 31), through the path the case's parameter names; once the
 * ops is gone the call stays in fxkt_tramp() again.
 */
static void fxk_move_ip_check(struct kunit *test, ftrace_func_t func,
			      unsigned long flags)
{
	const struct fxk_path *path = test->param_value;
	struct fxk_hook *h;

	h = fxk_hook_on(test, FXK_TRAMP, func, flags, path->shared);
	KUNIT_EXPECT_EQ(test, fxkt_tramp(2), 165);
	KUNIT_EXPECT_EQ(test, atomic_read(&h->hits), 1);
	KUNIT_EXPECT_EQ(test, unregister_ftrace_function(&h->ops), 0);
	KUNIT_EXPECT_EQ(test, fxkt_tramp(2), 89);
}

/* A SAVE_REGS ops may move the ip without IPMODIFY (error injection). */
static void fxk_regs_move_ip_test(struct kunit *test)
{
	fxk_move_ip_check(test, fxk_move_regs_func, FTRACE_OPS_FL_SAVE_REGS);
}

/* So may an OVERRIDE ops, without pt_regs and without IPMODIFY. */
static void fxk_override_move_ip_test(struct kunit *test)
{
	fxk_move_ip_check(test, fxk_move_func, FTRACE_OPS_FL_OVERRIDE);
}

static struct kunit_case fxk_cases[] = {
	KUNIT_CASE(fxk_make_call_test),
	KUNIT_CASE(fxk_make_nop_test),
	KUNIT_CASE(fxk_modify_call_test),
	KUNIT_CASE(fxk_unreadable_site_test),
	KUNIT_CASE(fxk_batch_make_calls_test),
	KUNIT_CASE(fxk_batch_make_nops_test),
	KUNIT_CASE(fxk_text_runs_test),
	KUNIT_CASE(fxk_tramp_fallback_test),
	KUNIT_CASE(fxk_tramp_built_test),
	KUNIT_CASE(fxk_bad_site_test),
	KUNIT_CASE(fxk_guard_tramp_test),
	KUNIT_CASE(fxk_guard_irq_test),
	KUNIT_CASE(fxk_guard_shared_test),
	KUNIT_CASE(fxk_guard_rcu_test),
	KUNIT_CASE_PARAM(fxk_tramp_template_test, fxk_template_gen_params),
	KUNIT_CASE_PARAM(fxk_regs_frame_test, fxk_path_gen_params),
	KUNIT_CASE_PARAM(fxk_light_frame_test, fxk_path_gen_params),
	KUNIT_CASE_PARAM(fxk_regs_flags_test, fxk_path_gen_params),
	KUNIT_CASE_PARAM(fxk_regs_move_ip_test, fxk_path_gen_params),
	KUNIT_CASE_PARAM(fxk_override_move_ip_test, fxk_path_gen_params),
	{}
};

static struct kunit_suite fxk_suite = {
	.name = "ftrace_x86",
	.suite_init = fxk_suite_init,
	.test_cases = fxk_cases,
};

kunit_test_suite(fxk_suite);
