// SPDX-License-Identifier: GPL-2.0
/*
 * x86 backend of the function hooks.
 *
 * Two jobs: rewrite the 5-byte __fentry__ sites (a NOP, or a CALL to a
 * trampoline) for the core, and, on x86-64, build per-ops trampolines by
 * copying the templates of ftrace_64.S.  x86-32's sites call the shared
 * callers of ftrace_32.S.
 *
 * Every site is checked to hold exactly the bytes the core's records
 * say before it is changed; a batch is checked whole before the first
 * byte of it is written, so a surprise leaves the text as it was.
 * Live text is only changed through the int3-safe text_poke machinery.
 *
 * Lock order: the core's ftrace_lock, then text_mutex, then tramp_lock.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/context_tracking_state.h>
#include <linux/execmem.h>
#include <linux/ftrace.h>
#include <linux/memory.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/set_memory.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <asm/asm.h>
#include <asm/ftrace.h>
#include <asm/nops.h>
#include <asm/text-patching.h>

#include "ftrace_hooks.h"

#ifdef CONFIG_DYNAMIC_FTRACE

/*
 * Set while the core holds a batch open (between the two
 * ftrace_arch_code_modify_*() hooks, with text_mutex held): site
 * writes are then queued for text_poke_finish(). Outside a batch the
 * core only rewrites text that cannot be running yet (boot, or a module
 * still being loaded), which may be written in place.
 */
static bool site_batch_open;

/*
 * The last landing call_dest() worked out in the open batch: a batch
 * calls a handful of targets from thousands of sites, and nothing can
 * free or load text while it is open.
 */
static struct {
	unsigned long target, dest;
} call_dest_memo;

/**
 * ftrace_arch_code_modify_prepare - open a batch of site updates
 *
 * The core calls this before it changes sites and holds its ftrace_lock
 * across the batch; text_mutex keeps module loading and other text
 * patchers out until ftrace_arch_code_modify_post_process().
 */
void ftrace_arch_code_modify_prepare(void)
{
	mutex_lock(&text_mutex);
	site_batch_open = true;
	call_dest_memo.target = 0;
}

/**
 * ftrace_arch_code_modify_post_process - write and close the batch
 *
 * Flushes whatever the batch queued, then lets other patchers in.
 */
void ftrace_arch_code_modify_post_process(void)
{
	lockdep_assert_held(&text_mutex);
	text_poke_finish();
	site_batch_open = false;
	mutex_unlock(&text_mutex);
}

/*
 * Where a CALL of ours to @target lands: past the ENDBR64 that an IBT
 * kernel puts at the start of every function that may be called
 * indirectly (the templates, their copies, ops functions), which a
 * direct call does not need; one instruction less at each hop. The
 * bytes read never change once a function can be a target, so every
 * later check of a CALL computes the same landing.
 */
static unsigned long call_dest(unsigned long target)
{
	unsigned long dest = target;
	u32 insn;

	/* The compiler's own calls of __fentry__ land on its start. */
	if (!IS_ENABLED(CONFIG_X86_KERNEL_IBT) || target == MCOUNT_ADDR)
		return target;
	if (site_batch_open && call_dest_memo.target == target)
		return call_dest_memo.dest;
	if (!copy_from_kernel_nofault(&insn, (void *)target, sizeof(insn)) &&
	    is_endbr(insn))
		dest += ENDBR_INSN_SIZE;
	if (site_batch_open) {
		call_dest_memo.target = target;
		call_dest_memo.dest = dest;
	}
	return dest;
}

/* The bytes a site holds when it calls @target. */
static void site_call_insn(u8 insn[MCOUNT_INSN_SIZE], unsigned long ip,
			   unsigned long target)
{
	/*
	 * A plain CALL, never a call-depth thunk: the trampolines do their
	 * own call-depth accounting.
	 */
	__text_gen_insn(insn, CALL_INSN_OPCODE, (void *)ip,
			(void *)call_dest(target), CALL_INSN_SIZE);
}

static void site_nop_insn(u8 insn[MCOUNT_INSN_SIZE])
{
	memcpy(insn, x86_nops[MCOUNT_INSN_SIZE], MCOUNT_INSN_SIZE);
}

/*
 * What the last failed site_check() expected. The core reports a
 * mismatch later, with ftrace_bug(), which prints ftrace_expected next
 * to what the site holds; so it must outlive our stack frame. Updates
 * are serialized by the core's ftrace_lock.
 */
static u8 site_expected[MCOUNT_INSN_SIZE];

/* Is the site at @ip holding @expect? */
static int site_check(unsigned long ip, const u8 *expect)
{
	u8 now[MCOUNT_INSN_SIZE];

	if (copy_from_kernel_nofault(now, (void *)ip, MCOUNT_INSN_SIZE))
		return -EFAULT;
	if (memcmp(now, expect, MCOUNT_INSN_SIZE)) {
		memcpy(site_expected, expect, MCOUNT_INSN_SIZE);
		ftrace_expected = site_expected;
		return -EINVAL;
	}
	return 0;
}

/*
 * Rewrite one site from @old to @new. Marked __ref: text_poke_early()
 * is init text, and it is only reached while init text is still there
 * (boot) or for a module's own, not yet running, text.
 */
static int __ref site_rewrite(unsigned long ip, const u8 *old, const u8 *new)
{
	int ret = site_check(ip, old);

	if (ret)
		return ret;
	if (site_batch_open)
		text_poke_queue((void *)ip, new, MCOUNT_INSN_SIZE, NULL);
	else
		text_poke_early((void *)ip, new, MCOUNT_INSN_SIZE);
	return 0;
}

int ftrace_make_nop(struct module *mod, struct dyn_ftrace *rec,
		    unsigned long addr)
{
	u8 old[MCOUNT_INSN_SIZE], new[MCOUNT_INSN_SIZE];

	site_call_insn(old, ftrace_rec_ip(rec), addr);
	site_nop_insn(new);
	return site_rewrite(ftrace_rec_ip(rec), old, new);
}

int ftrace_make_call(struct dyn_ftrace *rec, unsigned long addr)
{
	u8 old[MCOUNT_INSN_SIZE], new[MCOUNT_INSN_SIZE];

	site_nop_insn(old);
	site_call_insn(new, ftrace_rec_ip(rec), addr);
	return site_rewrite(ftrace_rec_ip(rec), old, new);
}

int ftrace_modify_call(struct dyn_ftrace *rec, unsigned long old_addr,
		       unsigned long addr)
{
	u8 old[MCOUNT_INSN_SIZE], new[MCOUNT_INSN_SIZE];

	site_call_insn(old, ftrace_rec_ip(rec), old_addr);
	site_call_insn(new, ftrace_rec_ip(rec), addr);
	return site_rewrite(ftrace_rec_ip(rec), old, new);
}

/*
 * What the site of @rec holds now and what it should hold, for the
 * update the core asks for. Returns false when the site stays as it is.
 * Pure: reads the record, changes nothing.
 */
static bool site_plan(struct dyn_ftrace *rec, bool enable,
		      u8 old[MCOUNT_INSN_SIZE], u8 new[MCOUNT_INSN_SIZE])
{
	unsigned long ip = ftrace_rec_ip(rec);

	switch (ftrace_test_record(rec, enable)) {
	case FTRACE_UPDATE_MAKE_CALL:
		site_nop_insn(old);
		site_call_insn(new, ip, ftrace_get_addr_new(rec));
		return true;
	case FTRACE_UPDATE_MODIFY_CALL:
		site_call_insn(old, ip, ftrace_get_addr_curr(rec));
		site_call_insn(new, ip, ftrace_get_addr_new(rec));
		return true;
	case FTRACE_UPDATE_MAKE_NOP:
		site_call_insn(old, ip, ftrace_get_addr_curr(rec));
		site_nop_insn(new);
		return true;
	default:
		return false;
	}
}

/*
 * The records of one batch: the core's, walked with its iterator. The
 * KUnit suite (ftrace_kunit.c) has a batch walk a small array of
 * records of its own instead, so that it can corrupt sites on purpose
 * and watch only those be refused.
 */
struct site_batch {
	struct ftrace_rec_iter *iter;
#ifdef CONFIG_FTRACE_X86_KUNIT_TEST
	struct dyn_ftrace *recs;
	unsigned int nr, pos;
#endif
};

static struct dyn_ftrace *batch_first(struct site_batch *b)
{
#ifdef CONFIG_FTRACE_X86_KUNIT_TEST
	if (b->recs) {
		b->pos = 0;
		return b->nr ? b->recs : NULL;
	}
#endif
	b->iter = ftrace_rec_iter_start();
	return b->iter ? ftrace_rec_iter_record(b->iter) : NULL;
}

static struct dyn_ftrace *batch_next(struct site_batch *b)
{
#ifdef CONFIG_FTRACE_X86_KUNIT_TEST
	if (b->recs)
		return ++b->pos < b->nr ? &b->recs[b->pos] : NULL;
#endif
	b->iter = ftrace_rec_iter_next(b->iter);
	return b->iter ? ftrace_rec_iter_record(b->iter) : NULL;
}

/*
 * Bring every site of @b to the state its record wants. A site that
 * does not hold what its record says is handed to ftrace_bug(), which
 * marks its record BAD, and left as it is; the others are queued, and
 * written together. Returns how many sites were refused.
 */
static unsigned int site_batch_replace(struct site_batch *b, bool enable)
{
	u8 old[MCOUNT_INSN_SIZE], new[MCOUNT_INSN_SIZE];
	struct dyn_ftrace *rec;
	unsigned int refused = 0;
	unsigned long ip;
	int ret;

	lockdep_assert_held(&text_mutex);

	for (rec = batch_first(b); rec; rec = batch_next(b)) {
		if (!site_plan(rec, enable, old, new))
			continue;
		ip = ftrace_rec_ip(rec);
		ret = site_check(ip, old);
		if (ret) {
			ftrace_bug(ret, rec);
			refused++;
			continue;
		}
		text_poke_queue((void *)ip, new, MCOUNT_INSN_SIZE, NULL);
		ftrace_update_record(rec, enable);
	}
	text_poke_finish();
	return refused;
}

/**
 * ftrace_replace_code - bring every site to the state its record wants
 * @mod_flags: FTRACE_MODIFY_ENABLE_FL if sites that want a call may get
 *	one (else every site becomes a NOP); FTRACE_MODIFY_MAY_SLEEP_FL
 *	is not used, as the batch does not yield between sites
 *
 * Called by the core with a batch open. A site that holds something
 * unexpected is reported through ftrace_bug() and left alone; every
 * other site is written.
 */
void ftrace_replace_code(int mod_flags)
{
	struct site_batch b = { };

	site_batch_replace(&b, mod_flags & FTRACE_MODIFY_ENABLE_FL);
}

/* Point the CALL at @ip, which must be a CALL, to @target. */
static int call_retarget(unsigned long ip, unsigned long target)
{
	u8 new[CALL_INSN_SIZE];
	u8 now;

	lockdep_assert_held(&text_mutex);
	if (copy_from_kernel_nofault(&now, (void *)ip, 1))
		return -EFAULT;
	if (WARN_ON_ONCE(now != CALL_INSN_OPCODE))
		return -EINVAL;
	site_call_insn(new, ip, target);
	text_poke_bp((void *)ip, new, CALL_INSN_SIZE, NULL);
	return 0;
}

/**
 * ftrace_update_ftrace_func - set the function both templates call
 * @func: the new callback (usually the core's list function)
 *
 * Called by the core with a batch open, so text_mutex is held.
 *
 * Return: 0, or -errno if a template's call site is not a CALL.
 */
int ftrace_update_ftrace_func(ftrace_func_t func)
{
	int ret;

	ret = call_retarget((unsigned long)ftrace_call, (unsigned long)func);
	if (ret)
		return ret;
	return call_retarget((unsigned long)ftrace_regs_call,
			     (unsigned long)func);
}

void arch_ftrace_update_code(int command)
{
	ftrace_modify_all_code(command);
}

/*
 * The function the CALL at @ip calls (its start, before the ENDBR64
 * call_dest() skipped), or NULL if there is no CALL there.
 */
static void *call_target_of(unsigned long ip)
{
	union text_poke_insn insn;
	unsigned long dest;
	u32 endbr;

	if (copy_from_kernel_nofault(&insn, (void *)ip, CALL_INSN_SIZE))
		return NULL;
	if (insn.opcode != CALL_INSN_OPCODE)
		return NULL;
	dest = ip + CALL_INSN_SIZE + insn.disp;
	if (IS_ENABLED(CONFIG_X86_KERNEL_IBT) &&
	    !copy_from_kernel_nofault(&endbr, (void *)(dest - ENDBR_INSN_SIZE),
				      sizeof(endbr)) && is_endbr(endbr))
		dest -= ENDBR_INSN_SIZE;
	return (void *)dest;
}

/* As call_target_of(), for a CALL the templates are known to hold. */
static void *call_target(unsigned long ip)
{
	void *dest = call_target_of(ip);

	WARN_ON_ONCE(!dest);
	return dest;
}

#ifdef CONFIG_X86_64

/* -------------------------- x86-64 only: per-ops trampolines and chains */

/**
 * arch_ftrace_site_target - where a patched site's call goes
 * @rec: the site's record
 *
 * The core reads back which of the trampolines that sites share
 * (chains) a site calls, rather than keep it in every record.
 *
 * Return: the called function's start, or 0 if the site holds no CALL.
 */
unsigned long arch_ftrace_site_target(struct dyn_ftrace *rec)
{
	return (unsigned long)call_target_of(ftrace_rec_ip(rec));
}

/* One template: where its copy starts and ends and what gets patched. */
struct hook_template {
	void (*start)(void);
	void (*end)(void);
	void (*op_load)(void);	/* movq function_trace_op(%rip), %rdx */
	void (*call)(void);	/* call <ops function> */
	bool guarded;		/* calls ->func itself, inside the guard */
};

static const struct hook_template light_template = {
	.start = ftrace_caller, .end = ftrace_caller_end,
	.op_load = ftrace_caller_op_ptr, .call = ftrace_call,
};

static const struct hook_template regs_template = {
	.start = ftrace_regs_caller, .end = ftrace_regs_caller_end,
	.op_load = ftrace_regs_caller_op_ptr, .call = ftrace_regs_call,
};

static const struct hook_template guard_template = {
	.start = ftrace_guard_caller, .end = ftrace_guard_caller_end,
	.op_load = ftrace_guard_caller_op_ptr, .call = ftrace_guard_call,
	.guarded = true,
};

static const struct hook_template lean_template = {
	.start = ftrace_lean_caller, .end = ftrace_lean_caller_end,
	.op_load = ftrace_lean_caller_op_ptr, .call = ftrace_lean_call,
};

static const struct hook_template lean_regs_template = {
	.start = ftrace_lean_regs_caller, .end = ftrace_lean_regs_caller_end,
	.op_load = ftrace_lean_regs_caller_op_ptr, .call = ftrace_lean_regs_call,
};

/* What the guarded template reads, as the C side defines it. */
static_assert(offsetof(struct pcpu_hot, preempt_count) ==
	      FTRACE_PCPU_PREEMPT_COUNT);
#ifdef CONFIG_CONTEXT_TRACKING_IDLE
static_assert(offsetof(struct context_tracking, state) == FTRACE_CT_STATE);
static_assert(CT_RCU_WATCHING == FTRACE_CT_RCU_WATCHING);
#endif

/*
 * The template a new trampoline for @ops copies.  An ops that asked for
 * the guard gets it inline, but with SAVE_REGS it keeps the regs
 * template and the C guard; so does an RCU ops where the template
 * cannot see RCU's state.  The lean templates leave the call-depth
 * accounting out, so they serve only where the CPU does not track call
 * depth; the light one also leaves out taking regs->ip back.
 */
static const struct hook_template *template_for(struct ftrace_ops *ops)
{
	unsigned long flags = ops->flags;
	bool lean = !cpu_feature_enabled(X86_FEATURE_CALL_DEPTH);
	bool c_guard = (flags & FTRACE_OPS_FL_RCU) &&
		       !IS_ENABLED(CONFIG_CONTEXT_TRACKING_IDLE);

	if (flags & FTRACE_OPS_FL_SAVE_REGS)
		return lean && !(flags & FTRACE_OPS_FL_DIRECT) ?
		       &lean_regs_template : &regs_template;
	if ((flags & (FTRACE_OPS_FL_RECURSION | FTRACE_OPS_FL_RCU)) && !c_guard)
		return &guard_template;
	if (lean && !(flags & (FTRACE_OPS_FL_IPMODIFY | FTRACE_OPS_FL_OVERRIDE)))
		return &lean_template;
	return &light_template;
}

/*
 * A trampoline is the template's code, a return, and (8-aligned) its
 * tail: the address of its ops, which the op_load reads instead of the
 * global function_trace_op, and the template it was copied from.  That
 * one is kept, not worked out again: a tracer started from the command
 * line may build its trampoline before the CPU's call-depth tracking is
 * chosen.
 */
struct tramp_tail {
	struct ftrace_ops *ops;
	const struct hook_template *template;
};

/* Does @ops have a trampoline we built, and not yet freed? */
static bool tramp_ours(struct ftrace_ops *ops)
{
	return (ops->flags & FTRACE_OPS_FL_ALLOC_TRAMP) && ops->trampoline;
}

/* The tail of a trampoline we built for @ops. */
static struct tramp_tail *tramp_tail(struct ftrace_ops *ops)
{
	return (void *)(ops->trampoline + ops->trampoline_size) -
	       sizeof(struct tramp_tail);
}

/* The template of a trampoline we built for @ops. */
static const struct hook_template *template_of(struct ftrace_ops *ops)
{
	return tramp_tail(ops)->template;
}

/**
 * arch_ftrace_tramp_template - the code a trampoline was copied from
 * @ops: an ops with a trampoline
 *
 * The ORC unwinder reads a trampoline with its template's ORC data, at
 * the same offset.
 *
 * Return: the template's start, or 0 for a trampoline we did not build.
 */
unsigned long arch_ftrace_tramp_template(struct ftrace_ops *ops)
{
	const struct hook_template *t;

	/* From any context, for any ip: the trampoline may be gone. */
	if (!tramp_ours(ops) ||
	    copy_from_kernel_nofault(&t, &tramp_tail(ops)->template, sizeof(t)))
		return 0;
	return (unsigned long)t->start;
}

/* The function a copy of @t calls for @ops. */
static ftrace_func_t tramp_func(const struct hook_template *t,
				struct ftrace_ops *ops)
{
	return t->guarded ? ops->func : ftrace_ops_get_func(ops);
}

static unsigned long tmpl_off(const struct hook_template *t, void (*l)(void))
{
	return (unsigned long)l - (unsigned long)t->start;
}

/* The op_load instruction: REX.W MOV r64, r/m64 with %rdx, %rip-based. */
static const u8 op_load_opcode[] = { 0x48, 0x8b, 0x15 };
#define OP_LOAD_SIZE	(sizeof(op_load_opcode) + sizeof(s32))

static unsigned long tramp_tail_off(const struct hook_template *t)
{
	return ALIGN(tmpl_off(t, t->end) + JMP32_INSN_SIZE, sizeof(long));
}

static unsigned long tramp_size(const struct hook_template *t)
{
	return tramp_tail_off(t) + sizeof(struct tramp_tail);
}

/*
 * Trampolines we built, so that set_ftrace_ops_ro() can find them at
 * the end of boot. tramp_lock protects tramp_list.
 */
struct tramp_node {
	struct list_head list;
	struct ftrace_ops *ops;
	unsigned long addr;
	unsigned int npages;
};

static DEFINE_MUTEX(tramp_lock);
static LIST_HEAD(tramp_list);

#ifdef CONFIG_FTRACE_X86_KUNIT_TEST
/*
 * The KUnit suite sets this to an ops of its own, to have that ops'
 * trampoline fail to build as if memory had run out.
 */
static struct ftrace_ops *tramp_alloc_fails_for;
#endif

static void *tramp_alloc(struct ftrace_ops *ops, unsigned int size)
{
#ifdef CONFIG_FTRACE_X86_KUNIT_TEST
	if (READ_ONCE(tramp_alloc_fails_for) == ops)
		return NULL;
#endif
	return execmem_alloc(EXECMEM_FTRACE, size);
}

/* The return a copy ends with, generated for the copy's own address. */
static void tramp_put_return(u8 *ip)
{
	if (cpu_wants_rethunk_at(ip)) {
		__text_gen_insn(ip, JMP32_INSN_OPCODE, ip, x86_return_thunk,
				JMP32_INSN_SIZE);
	} else {
		ip[0] = RET_INSN_OPCODE;
		memset(ip + 1, INT3_INSN_OPCODE, JMP32_INSN_SIZE - 1);
	}
}

/*
 * A copy of the guarded template for an ops that is not RCU's jumps
 * over the RCU check (if the template has one).
 */
static void tramp_skip_rcu(u8 *buf, const struct hook_template *t)
{
	unsigned long from = tmpl_off(t, ftrace_guard_rcu);
	unsigned long to = tmpl_off(t, ftrace_guard_rcu_end);

	/*
	 * Else the compiler folds "to - 2" into the address of no label
	 * inside the template, which objtool flags as a missing ENDBR.
	 */
	OPTIMIZER_HIDE_VAR(to);
	if (to == from)
		return;
	buf[from] = JMP8_INSN_OPCODE;
	buf[from + 1] = to - (from + JMP8_INSN_SIZE);
	memset(buf + from + JMP8_INSN_SIZE, INT3_INSN_OPCODE,
	       to - (from + JMP8_INSN_SIZE));
}

/* Fill @buf (to live at @buf) with a trampoline for @ops. */
static int tramp_fill(u8 *buf, const struct hook_template *t,
		      struct ftrace_ops *ops)
{
	unsigned long len = tmpl_off(t, t->end);
	unsigned long op_off = tmpl_off(t, t->op_load);
	unsigned long call_off = tmpl_off(t, t->call);
	unsigned long tail_off = tramp_tail_off(t);
	struct tramp_tail *tail = (void *)(buf + tail_off);
	s32 disp;

	if (copy_from_kernel_nofault(buf, (void *)t->start, len))
		return -EFAULT;
	if (WARN_ON_ONCE(memcmp(buf + op_off, op_load_opcode,
				sizeof(op_load_opcode)) ||
			 buf[call_off] != CALL_INSN_OPCODE))
		return -EINVAL;

	/*
	 * Write the call to the ops' function as the template would hold
	 * it; the relocation below then moves it, like every other branch
	 * out of the copy, to the copy's address.
	 */
	site_call_insn(buf + call_off, (unsigned long)t->call,
		       (unsigned long)tramp_func(t, ops));
	text_poke_apply_relocation(buf, buf, len, (u8 *)t->start, len);
	tramp_put_return(buf + len);
	if (t->guarded && !(ops->flags & FTRACE_OPS_FL_RCU))
		tramp_skip_rcu(buf, t);

	tail->ops = ops;
	tail->template = t;
	disp = tail_off + offsetof(struct tramp_tail, ops) -
	       (op_off + OP_LOAD_SIZE);
	memcpy(buf + op_off + sizeof(op_load_opcode), &disp, sizeof(disp));
	return 0;
}

static unsigned long tramp_create(struct ftrace_ops *ops, unsigned int *size)
{
	const struct hook_template *t = template_for(ops);
	struct tramp_node *node;
	u8 *buf;
	int ret;

	node = kzalloc(sizeof(*node), GFP_KERNEL);
	if (!node)
		return 0;
	*size = tramp_size(t);
	buf = tramp_alloc(ops, *size);
	if (!buf)
		goto free_node;

	/* text_mutex: the templates' calls must not change under the copy. */
	mutex_lock(&text_mutex);
	ret = tramp_fill(buf, t, ops);
	mutex_unlock(&text_mutex);
	if (ret)
		goto free_buf;

	node->ops = ops;
	node->addr = (unsigned long)buf;
	node->npages = DIV_ROUND_UP(*size, PAGE_SIZE);
	if (set_memory_rox(node->addr, node->npages))
		goto free_buf;

	mutex_lock(&tramp_lock);
	list_add(&node->list, &tramp_list);
	mutex_unlock(&tramp_lock);
	ops->flags |= FTRACE_OPS_FL_ALLOC_TRAMP;
	return node->addr;

free_buf:
	execmem_free(buf);
free_node:
	kfree(node);
	return 0;
}

/**
 * set_ftrace_ops_ro - make every trampoline read-only again
 *
 * Called once when the kernel's own text is made read-only, for the
 * trampolines that were built before that point.
 */
void set_ftrace_ops_ro(void)
{
	struct tramp_node *node;

	mutex_lock(&tramp_lock);
	list_for_each_entry(node, &tramp_list, list)
		set_memory_ro(node->addr, node->npages);
	mutex_unlock(&tramp_lock);
}

/**
 * arch_ftrace_update_trampoline - give @ops a trampoline of its own
 * @ops: the ops about to be the only user of some sites
 *
 * Builds the trampoline the first time; later calls point it at the
 * ops' current function. A trampoline the ops brought itself is left
 * alone. Without one (no memory) the core uses the shared templates.
 */
void arch_ftrace_update_trampoline(struct ftrace_ops *ops)
{
	const struct hook_template *t;
	unsigned long addr;
	unsigned int size;

	if (!ops->trampoline) {
		addr = tramp_create(ops, &size);
		if (!addr)
			return;
		/* The unwinders find it by both: the size first (x86: TSO). */
		WRITE_ONCE(ops->trampoline_size, size);
		WRITE_ONCE(ops->trampoline, addr);
		return;
	}
	if (!tramp_ours(ops))
		return;
	t = template_of(ops);

	mutex_lock(&text_mutex);
	call_retarget(ops->trampoline + tmpl_off(t, t->call),
		      (unsigned long)tramp_func(t, ops));
	mutex_unlock(&text_mutex);
}

/* What @ops' own trampoline calls, or NULL for one that is not ours. */
static void *tramp_called(struct ftrace_ops *ops)
{
	const struct hook_template *t;

	if (!tramp_ours(ops))
		return NULL;
	t = template_of(ops);
	return call_target(ops->trampoline + tmpl_off(t, t->call));
}

/**
 * arch_ftrace_trampoline_free - free the trampoline we built for @ops
 * @ops: an ops the core has made sure no CPU is running through
 */
void arch_ftrace_trampoline_free(struct ftrace_ops *ops)
{
	struct tramp_node *node, *found = NULL;
	unsigned long addr;

	if (!ops || !(ops->flags & FTRACE_OPS_FL_ALLOC_TRAMP))
		return;

	mutex_lock(&tramp_lock);
	list_for_each_entry(node, &tramp_list, list) {
		if (node->addr == ops->trampoline) {
			list_del(&node->list);
			found = node;
			break;
		}
	}
	mutex_unlock(&tramp_lock);

	WARN_ON_ONCE(!found);
	kfree(found);
	addr = ops->trampoline;
	WRITE_ONCE(ops->trampoline, 0);
	WRITE_ONCE(ops->trampoline_size, 0);
	execmem_free((void *)addr);
}

#else /* !CONFIG_X86_64 */

/*
 * x86-32 builds no trampolines: every site calls ftrace_caller or
 * ftrace_regs_caller (ftrace_32.S), or the graph's own caller.
 */
static void *tramp_called(struct ftrace_ops *ops)
{
	return NULL;
}

#endif /* CONFIG_X86_64 */

/**
 * arch_ftrace_trampoline_func - what a site's trampoline calls
 * @ops: the ops the site is dedicated to, or NULL
 * @rec: the site
 *
 * Return: the function called from @ops' trampoline, or from the shared
 * template @rec uses; NULL for a trampoline that is not ours.
 */
void *arch_ftrace_trampoline_func(struct ftrace_ops *ops, struct dyn_ftrace *rec)
{
	if (ops && ops->trampoline)
		return tramp_called(ops);
	if (rec->flags & FTRACE_FL_REGS_EN)
		return call_target((unsigned long)ftrace_regs_call);
	return call_target((unsigned long)ftrace_call);
}

#if defined(CONFIG_FUNCTION_GRAPH_TRACER) && defined(CONFIG_X86_32)
/*
 * x86-32 has no graph ops function: the shared callers end at
 * ftrace_graph_call, a NOP that is a jump to ftrace_graph_caller while
 * the graph has users.  Switched inside the core's batch.
 */
static int graph_call_switch(bool on)
{
	unsigned long ip = (unsigned long)ftrace_graph_call;
	u8 nop[MCOUNT_INSN_SIZE], jmp[MCOUNT_INSN_SIZE];

	site_nop_insn(nop);
	__text_gen_insn(jmp, JMP32_INSN_OPCODE, (void *)ip, ftrace_graph_caller,
			JMP32_INSN_SIZE);
	return on ? site_rewrite(ip, nop, jmp) : site_rewrite(ip, jmp, nop);
}

/**
 * ftrace_enable_ftrace_graph_caller - send the shared callers on to the graph
 *
 * Return: 0, or -errno if ftrace_graph_call does not hold its NOP.
 */
int ftrace_enable_ftrace_graph_caller(void)
{
	return graph_call_switch(true);
}

/**
 * ftrace_disable_ftrace_graph_caller - take the graph out of the shared callers
 *
 * Return: 0, or -errno if ftrace_graph_call does not hold the jump.
 */
int ftrace_disable_ftrace_graph_caller(void)
{
	return graph_call_switch(false);
}
#endif /* CONFIG_FUNCTION_GRAPH_TRACER && CONFIG_X86_32 */

#endif /* CONFIG_DYNAMIC_FTRACE */

#ifdef CONFIG_FUNCTION_GRAPH_TRACER

/**
 * prepare_ftrace_return - divert a function's return to fgraph
 * @ip: the hooked function's site
 * @parent: where its return address is stored
 * @frame_pointer: unused (0)
 *
 * For callers that have no registers to give the entry callbacks: all
 * of x86-32's, through ftrace_graph_caller.  When fgraph takes the call,
 * *@parent is replaced by return_to_handler, which hands the real return
 * address back on the way out.
 */
void prepare_ftrace_return(unsigned long ip, unsigned long *parent,
			   unsigned long frame_pointer)
{
	function_graph_hook_return(ip, parent, NULL);
}

#ifdef CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS
void ftrace_graph_func(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	/* The hooked function's sp points at its return address. */
	unsigned long *ret_slot = (unsigned long *)arch_ftrace_regs(fregs)->regs.sp;

	function_graph_hook_return(ip, ret_slot, fregs);
}
#endif

#endif /* CONFIG_FUNCTION_GRAPH_TRACER */

#ifdef CONFIG_FTRACE_X86_KUNIT_TEST
/* The suite needs the static helpers and the test seams above. */
#include "ftrace_kunit.c"
#endif
