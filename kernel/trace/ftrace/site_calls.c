// SPDX-License-Identifier: GPL-2.0
/*
 * The call each patch site holds, and the one it should hold.
 *
 * A record's wishes (FL_REGS, FL_TRAMP, FL_DIRECT, FL_CALL_OPS and
 * the count, kept by accounting.c) say what its ops need.  Its
 * _EN flags say what the site was last patched to: FL_ENABLED for any
 * call, FL_REGS_EN for the regs-saving caller, FL_TRAMP_EN for an
 * ops' own trampoline or, on a site several ops take, a chain's
 * (chains.c), FL_DIRECT_EN for a direct call and
 * FL_CALL_OPS_EN for a call that passes its ops.  A site is up to date
 * when its _EN flags are the ones its wishes give; a code update makes
 * the call for each site that is not, and records the new _EN flags.
 *
 * While a site is not FL_ENABLED it holds a NOP and none of the other
 * _EN flags is set.
 *
 * The arch code drives the update through ftrace_test_record(),
 * ftrace_update_record() and the ftrace_get_addr_*() pair, and reports
 * a site it could not patch with ftrace_bug(), which marks it BAD: it
 * is left as it is, and the update goes on with the others.  All of it
 * runs under ftrace_lock, or inside the update the lock holder started.
 */
#include <linux/ftrace.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/uaccess.h>

#include "accounting.h"
#include "chains.h"
#include "dispatch.h"
#include "records.h"
#include "site_calls.h"
#include "../trace.h"

/* The _EN flags: what a site holds. */
#define FCALL_EN_FLAGS	(FTRACE_FL_ENABLED | FTRACE_FL_REGS_EN |	\
			 FTRACE_FL_TRAMP_EN | FTRACE_FL_DIRECT_EN |	\
			 FTRACE_FL_CALL_OPS_EN)

struct ftrace_ops *fcall_leaving_ops;

enum ftrace_bug_type ftrace_bug_type;
const void *ftrace_expected;

/*
 * The _EN flags @rec should have: none with calls off (@enable false)
 * or no ops left, else a call of the kind its wishes give.  A direct
 * call and a call that passes the ops serve a single ops only.
 */
static unsigned long fcall_wanted(const struct dyn_ftrace *rec, bool enable)
{
	unsigned long n = ftrace_rec_count(rec);
	unsigned long want = FTRACE_FL_ENABLED;

	if (!enable || !n)
		return 0;
	if (rec->flags & FTRACE_FL_REGS)
		want |= FTRACE_FL_REGS_EN;
	if (rec->flags & FTRACE_FL_TRAMP)
		want |= FTRACE_FL_TRAMP_EN;
	if (n == 1 && (rec->flags & FTRACE_FL_DIRECT))
		want |= FTRACE_FL_DIRECT_EN;
	if (n == 1 && (rec->flags & FTRACE_FL_CALL_OPS))
		want |= FTRACE_FL_CALL_OPS_EN;
	return want;
}

/* The _EN flags @rec has; a site that holds a NOP has none. */
static unsigned long fcall_held(const struct dyn_ftrace *rec)
{
	if (!(rec->flags & FTRACE_FL_ENABLED))
		return 0;
	return rec->flags & FCALL_EN_FLAGS;
}

/*
 * The ops whose trampoline a site with FL_TRAMP is to call: the one
 * ops on the site, the first on the list that selects it.
 */
static struct ftrace_ops *fcall_tramp_new(struct dyn_ftrace *rec)
{
	struct ftrace_ops *op;

	fops_for_each_raw(op) {
		if (fops_hash_has_ip(op->func_hash, ftrace_rec_ip(rec)))
			return op;
	}
	return NULL;
}

/*
 * The ops whose trampoline a site with FL_TRAMP_EN calls now.  While
 * the update runs, the ops being unregistered is off the list but
 * still called (its old sets say where); an ops being added is on the
 * list but not called yet; an ops whose sets change is called where
 * its old sets said.
 */
static struct ftrace_ops *fcall_tramp_held(struct dyn_ftrace *rec)
{
	struct ftrace_ops *op = fcall_leaving_ops;
	unsigned long ip = ftrace_rec_ip(rec);

	if (op && fops_hash_has_ip(&op->old_hash, ip))
		return op;

	fops_for_each_raw(op) {
		if (!op->trampoline || (op->flags & FTRACE_OPS_FL_ADDING))
			continue;
		if (op->flags & FTRACE_OPS_FL_MODIFYING) {
			if (fops_hash_has_ip(&op->old_hash, ip))
				return op;
		} else if (fops_hash_has_ip(op->func_hash, ip)) {
			return op;
		}
	}
	return NULL;
}

/* A trampoline the books promise is missing: stop tracing for good. */
static unsigned long fcall_lost_tramp(struct dyn_ftrace *rec)
{
	WARN_ONCE(1, "ftrace: no trampoline for %pS (%x)\n",
		  (void *)ftrace_rec_ip(rec), rec->flags);
	ftrace_kill();
	return (unsigned long)FTRACE_ADDR;
}

/* The callers all ops share: the one that saves full regs, or not. */
static unsigned long fcall_shared(bool regs)
{
	return regs ? (unsigned long)FTRACE_REGS_ADDR :
		      (unsigned long)FTRACE_ADDR;
}

/*
 * The trampoline a site with FL_TRAMP is to call: the chain of the
 * ops that take it, or the own trampoline of the one ops; 0 if there
 * is none (a chain is built only before the update patches sites).
 */
static unsigned long fcall_tramp_new_addr(struct dyn_ftrace *rec)
{
	struct ftrace_ops *ops;
	struct fchain *chain;

	if (ftrace_rec_count(rec) >= 2) {
		chain = fchain_new(rec);
		return chain ? chain->ops.trampoline : 0;
	}
	ops = fcall_tramp_new(rec);
	return ops ? ops->trampoline : 0;
}

/**
 * ftrace_get_addr_new - the address a site's call is to go to
 * @rec: the site's record
 *
 * Return: the direct function of a direct call, else the trampoline
 * built for the ops on the site (the one ops' own, or a chain) if
 * there is one, else the caller that saves full regs if an ops wants
 * them, else the plain caller.
 */
unsigned long ftrace_get_addr_new(struct dyn_ftrace *rec)
{
	unsigned long addr;

	if ((rec->flags & FTRACE_FL_DIRECT) && ftrace_rec_count(rec) == 1) {
		addr = ftrace_find_rec_direct(ftrace_rec_ip(rec));
		if (!WARN_ON_ONCE(!addr))
			return addr;
	}
	if (rec->flags & FTRACE_FL_TRAMP) {
		addr = fcall_tramp_new_addr(rec);
		return addr ?: fcall_lost_tramp(rec);
	}
	return fcall_shared(rec->flags & FTRACE_FL_REGS);
}

/**
 * ftrace_get_addr_curr - the address a site's call goes to now
 * @rec: the site's record
 *
 * Return: as ftrace_get_addr_new(), from the _EN flags: what the site
 * was last patched to.
 */
unsigned long ftrace_get_addr_curr(struct dyn_ftrace *rec)
{
	struct ftrace_ops *ops;
	struct fchain *chain;
	unsigned long addr;

	if (rec->flags & FTRACE_FL_DIRECT_EN) {
		addr = ftrace_find_rec_direct(ftrace_rec_ip(rec));
		if (!WARN_ON_ONCE(!addr))
			return addr;
	}
	if (rec->flags & FTRACE_FL_TRAMP_EN) {
		chain = fchain_held(rec);
		if (chain)
			return chain->ops.trampoline;
		ops = fcall_tramp_held(rec);
		return ops ? ops->trampoline : fcall_lost_tramp(rec);
	}
	return fcall_shared(rec->flags & FTRACE_FL_REGS_EN);
}

/*
 * Does a site that holds a trampoline and still wants one need
 * another?  The flags cannot tell, when the site holds or wants a
 * chain: one ops more or less, and the chain or the ops' own
 * trampoline it calls must change.
 */
static bool fcall_tramp_moves(struct dyn_ftrace *rec)
{
	if (!(rec->flags & FTRACE_FL_TRAMP_EN) ||
	    !(rec->flags & FTRACE_FL_TRAMP))
		return false;
	if (ftrace_rec_count(rec) < 2 && !fchain_held(rec))
		return false;
	return fcall_tramp_new_addr(rec) != ftrace_get_addr_curr(rec);
}

/* Record that @rec's site is being patched to hold @want. */
static void fcall_take(struct dyn_ftrace *rec, unsigned long want)
{
	rec->flags &= ~FCALL_EN_FLAGS;
	rec->flags |= want;
	if (want) {
		rec->flags |= FTRACE_FL_TOUCHED;
		/* The function runs someone else's code: the user is told. */
		if (rec->flags & (FTRACE_FL_DIRECT | FTRACE_FL_IPMODIFY))
			rec->flags |= FTRACE_FL_MODIFIED;
	}
}

/* @update, and what ftrace_bug() is to say if it fails. */
static int fcall_verdict(int update, enum ftrace_bug_type bug)
{
	ftrace_bug_type = bug;
	return update;
}

/*
 * What must be done to @rec's site: one of FTRACE_UPDATE_*.  With
 * @update the record takes the new _EN flags, as the caller is about
 * to patch the site, and a record no ops is left on drops the wishes
 * the last ones left behind.  Sets ftrace_bug_type for ftrace_bug().
 */
static int fcall_check(struct dyn_ftrace *rec, bool enable, bool update)
{
	unsigned long held, want;

	ftrace_bug_type = FTRACE_BUG_UNKNOWN;
	if (facct_rec_ignored(rec))
		return FTRACE_UPDATE_IGNORE;

	held = fcall_held(rec);
	want = fcall_wanted(rec, enable);
	if (held == want && fcall_tramp_moves(rec))
		held &= ~FTRACE_FL_TRAMP_EN;
	if (update) {
		if (held != want)
			fcall_take(rec, want);
		if (!ftrace_rec_count(rec))
			rec->flags &= FCALL_KEPT_FLAGS;
	}

	if (held == want)
		return FTRACE_UPDATE_IGNORE;
	if (!want)
		return fcall_verdict(FTRACE_UPDATE_MAKE_NOP, FTRACE_BUG_NOP);
	if (!held)
		return fcall_verdict(FTRACE_UPDATE_MAKE_CALL, FTRACE_BUG_CALL);
	return fcall_verdict(FTRACE_UPDATE_MODIFY_CALL, FTRACE_BUG_UPDATE);
}

/**
 * ftrace_update_record - take the state a site is about to be patched to
 * @rec: the site's record
 * @enable: false to turn every call off, true for what the ops want
 *
 * Call it right before patching the site as it says.
 *
 * Return: FTRACE_UPDATE_IGNORE if the site is as it should be, else
 * FTRACE_UPDATE_MAKE_CALL, FTRACE_UPDATE_MODIFY_CALL or
 * FTRACE_UPDATE_MAKE_NOP.
 */
int ftrace_update_record(struct dyn_ftrace *rec, bool enable)
{
	return fcall_check(rec, enable, true);
}

/**
 * ftrace_test_record - what a site's patching would be, changing nothing
 * @rec: the site's record
 * @enable: false to turn every call off, true for what the ops want
 *
 * Return: as ftrace_update_record(), which it does not replace: the
 * record keeps the state it had.
 */
int ftrace_test_record(struct dyn_ftrace *rec, bool enable)
{
	return fcall_check(rec, enable, false);
}

/*
 * Bring one site to what its record wants: with @enable false, to a
 * NOP.  The addresses are taken before the record changes, as the
 * current one is read from the _EN flags.
 */
int __ftrace_replace_code(struct dyn_ftrace *rec, bool enable)
{
	unsigned long to = ftrace_get_addr_new(rec);
	unsigned long from = ftrace_get_addr_curr(rec);

	switch (ftrace_update_record(rec, enable)) {
	case FTRACE_UPDATE_IGNORE:
		return 0;
	case FTRACE_UPDATE_MAKE_CALL:
		return ftrace_make_call(rec, to);
	case FTRACE_UPDATE_MAKE_NOP:
		return ftrace_make_nop(NULL, rec, from);
	case FTRACE_UPDATE_MODIFY_CALL:
		return ftrace_modify_call(rec, from, to);
	}
	/* Not an update: -EINVAL would make ftrace_bug() compare code. */
	return -EIO;
}

/*
 * One site at a time, for arches that have no batch of their own: a
 * site that fails is reported and left out, and the others go on.
 */
void __weak ftrace_replace_code(int mod_flags)
{
	bool enable = mod_flags & FTRACE_MODIFY_ENABLE_FL;
	struct dyn_ftrace *rec;
	int ret;

	if (unlikely(ftrace_is_dead()))
		return;

	frec_for_each(rec) {
		if (facct_rec_ignored(rec))
			continue;
		ret = __ftrace_replace_code(rec, enable);
		if (ret)
			ftrace_bug(ret, rec);
		if (mod_flags & FTRACE_MODIFY_MAY_SLEEP_FL)
			cond_resched();
	}
}

/*
 * Turn a new site's __fentry__ call into the NOP the records start
 * from.  A site that will not is reported and marked BAD.
 */
void fcall_init_nop(struct module *mod, struct dyn_ftrace *rec)
{
	int ret;

	if (unlikely(ftrace_is_dead()))
		return;
	ret = ftrace_init_nop(mod, rec);
	if (ret) {
		ftrace_bug_type = FTRACE_BUG_INIT;
		ftrace_bug(ret, rec);
	}
}

/* Print the MCOUNT_INSN_SIZE bytes at @p after @what, or say why not. */
static void fcall_print_insn(const char *what, const void *p)
{
	u8 insn[MCOUNT_INSN_SIZE];

	if (copy_from_kernel_nofault(insn, p, sizeof(insn)))
		pr_info("%s(unreadable at %pS)\n", what, p);
	else
		pr_info("%s%*phC\n", what, (int)sizeof(insn), insn);
}

static const char *const fcall_bug_step[] = {
	[FTRACE_BUG_UNKNOWN]	= NULL,
	[FTRACE_BUG_INIT]	= "turning the __fentry__ call into a NOP",
	[FTRACE_BUG_NOP]	= "turning a call into a NOP",
	[FTRACE_BUG_CALL]	= "turning a NOP into a call",
	[FTRACE_BUG_UPDATE]	= "pointing a call somewhere else",
};

/* The trampolines @rec may call, as the books say. */
static void fcall_print_tramps(struct dyn_ftrace *rec)
{
	struct ftrace_ops *ops = ftrace_find_tramp_ops_any(rec);
	struct fchain *chain = fchain_held(rec);

	if (chain) {
		pr_info(" trampoline: %pS (chain of %u ops)\n",
			(void *)chain->ops.trampoline, chain->nr);
		return;
	}

	if (!ops) {
		pr_info(" trampoline: none found!\n");
		return;
	}
	for (; ops; ops = ftrace_find_tramp_ops_next(rec, ops))
		pr_info(" trampoline: %pS (for %pS)\n",
			(void *)ops->trampoline, (void *)ops->func);
}

/* Describe what went wrong at @rec's site, or at an unknown one. */
static void fcall_print_bug(int failed, struct dyn_ftrace *rec)
{
	unsigned long ip = rec ? ftrace_rec_ip(rec) : 0;
	const char *step = NULL;

	switch (failed) {
	case -EFAULT:
		pr_err("ftrace: could not read the site at %pS\n", (void *)ip);
		break;
	case -EINVAL:
		pr_err("ftrace: unexpected code at the site of %pS\n",
		       (void *)ip);
		fcall_print_insn(" actual:   ", (void *)ip);
		if (ftrace_expected)
			fcall_print_insn(" expected: ", ftrace_expected);
		break;
	case -EPERM:
		pr_err("ftrace: could not write the site at %pS\n", (void *)ip);
		break;
	default:
		pr_err("ftrace: failed (%d) at the site of %pS\n", failed,
		       (void *)ip);
	}
	if (ftrace_bug_type < ARRAY_SIZE(fcall_bug_step))
		step = fcall_bug_step[ftrace_bug_type];
	if (step)
		pr_info(" while %s\n", step);
	if (!rec)
		return;
	pr_info(" record flags: %x (%lu ops)%s%s\n", rec->flags,
		ftrace_rec_count(rec),
		rec->flags & FTRACE_FL_REGS ? " regs" : "",
		rec->flags & FTRACE_FL_CALL_OPS ? " call-ops" : "");
	if (!(rec->flags & FTRACE_FL_ENABLED))
		return;
	if (rec->flags & FTRACE_FL_TRAMP_EN)
		fcall_print_tramps(rec);
	pr_info(" expected call target: %pS\n",
		(void *)ftrace_get_addr_curr(rec));
}

/**
 * ftrace_bug - report a site that could not be patched, and shut it out
 * @failed: -EFAULT (reading the site failed), -EINVAL (it did not hold
 *          what was expected), -EPERM (writing it failed), or another
 *          error
 * @rec: the site's record, or NULL
 *
 * A site that is not what its record says cannot be patched safely,
 * but says nothing about the others: the record is marked BAD, which
 * keeps every later update away from it and shows in enabled_functions,
 * and the ops on it are forgotten there.  The site keeps whatever it
 * holds.  Everything else goes on.  Only a failure that names no site
 * shuts function tracing down for good (ftrace_kill()).
 *
 * Called with ftrace_lock held, from inside a code update or a module's
 * records being set up.
 */
void ftrace_bug(int failed, struct dyn_ftrace *rec)
{
	fcall_print_bug(failed, rec);
	if (!rec) {
		WARN_ON_ONCE(1);
		ftrace_kill();
		return;
	}
	pr_err("ftrace: %pS is left as it is and will not be traced\n",
	       (void *)ftrace_rec_ip(rec));
	rec->flags = (rec->flags & FCALL_KEPT_FLAGS) | FTRACE_FL_BAD;
}
