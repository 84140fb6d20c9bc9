// SPDX-License-Identifier: GPL-2.0
/*
 * fprobe's call paths.
 *
 * A probe without exit handler is called from its hook, an ftrace_ops of
 * its own on its functions: no lookup, and no frame on the shadow stack.
 * Probes with exit handlers are called from fprobe_graph_ops, a user of
 * the function graph.  Its entry callback reserves one block on the
 * call's frame for the probes of the site, and each probe that takes
 * the call leaves a header there (its id and the size of its storage)
 * followed by its storage; the return callback walks the headers and
 * calls the exit handler of each probe still on the site.  A probe that
 * was unregistered meanwhile is no longer on the site, and is not
 * called: the block names it by id, which no later probe reuses.
 *
 * Both paths run with preemption off and hold the recursion lock of the
 * function hooks; the tables they read are freed only after a wait for
 * every CPU to leave them (fprobe.h).
 */
#include <linux/fprobe.h>
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/trace_recursion.h>

#include "fgraph_frames.h"
#include "fprobe.h"

/* Is @fp, read from a site, on and enabled? */
static __always_inline bool fprobe_on(struct fprobe *fp)
{
	return fp && !(READ_ONCE(fp->flags) & FPROBE_FL_DISABLED);
}

/* Does @fp share its handlers with kprobes (FPROBE_FL_KPROBE_SHARED)? */
static __always_inline bool fprobe_kshared(struct fprobe *fp)
{
	return fp->flags & FPROBE_FL_KPROBE_SHARED;
}

/* A call the probes from @from on at @site did not see. */
static noinline void fprobe_miss(struct fprobe_site *site, unsigned int from)
{
	unsigned int i;

	for (i = from; i < site->nr; i++) {
		struct fprobe *fp = READ_ONCE(site->at[i].fp);

		if (fprobe_on(fp))
			fp->nmissed++;
	}
}

/* A call of @ip that no probe with an exit handler saw. */
static void fprobe_miss_ip(unsigned long ip)
{
	struct fprobe_site *site;

	preempt_disable_notrace();
	site = fprobe_site_find(fprobe_table(), ip);
	if (site)
		fprobe_miss(site, 0);
	preempt_enable_notrace();
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
 * The entry handlers of the probes of @site that have room in @block,
 * each leaving its header there if it takes the call.  Return: whether
 * one did.
 */
static noinline int fprobe_enter_each(struct fprobe_site *site,
				      unsigned long *block, unsigned long ip,
				      unsigned long ret_ip,
				      struct ftrace_regs *fregs)
{
	unsigned int i, n = 0;

	for (i = 0; i < site->nr_fit; i++) {
		const struct fprobe_at *at = &site->at[i];
		struct fprobe *fp = READ_ONCE(at->fp);

		if (!fprobe_on(fp) ||
		    fprobe_call_entry(fp, ip, ret_ip, fregs,
				      fprobe_at_words(at) ? &block[n + 1] : NULL))
			continue;
		block[n] = at->hdr;
		n += 1 + fprobe_at_words(at);
	}
	if (site->nr_fit < site->nr)
		fprobe_miss(site, site->nr_fit);
	if (n < site->block)
		block[n] = 0;
	return n != 0;
}

/*
 * fprobe_graph_ops' entry: reserve the call's block, and offer the call
 * to the probes of its site.  Most sites have one probe: its header goes
 * in first, so that nothing is live across its handler.
 */
static int fprobe_graph_entry(struct ftrace_graph_ent *trace,
			      struct fgraph_ops *gops,
			      struct ftrace_regs *fregs)
{
	unsigned long ip = trace->func, ret_ip, *block = NULL;
	const struct fprobe_at *at;
	struct fprobe_site *site;
	struct fprobe *fp;

	site = fprobe_site_find(fprobe_table(), ip);
	if (unlikely(!site))
		return 0;
	if (likely(site->nr_fit))
		block = fgraph_call_reserve(trace, gops->idx, site->block);
	if (unlikely(!block)) {
		fprobe_miss(site, 0);
		return 0;
	}
	ret_ip = fgraph_call_frame(trace)->ret;
	if (unlikely(site->nr != 1))
		return fprobe_enter_each(site, block, ip, ret_ip, fregs);
	at = &site->at[0];
	fp = READ_ONCE(at->fp);
	if (!fprobe_on(fp))
		return 0;
	block[0] = at->hdr;
	return !fprobe_call_entry(fp, ip, ret_ip, fregs,
				  fprobe_at_words(at) ? &block[1] : NULL);
}

/*
 * The probe of @site with @id, looked for from *@from on: a block lists
 * its probes in the site's order, and a site keeps its probes' order.
 */
static __always_inline struct fprobe *
fprobe_site_probe(struct fprobe_site *site, u64 id, unsigned int *from)
{
	unsigned int i;

	for (i = *from; i < site->nr; i++) {
		if (fprobe_at_id(&site->at[i]) == id) {
			*from = i + 1;
			return READ_ONCE(site->at[i].fp);
		}
	}
	return NULL;
}

/* The exit handlers of the probes @block names, of its @words words. */
static noinline void fprobe_exit_each(struct fprobe_site *site,
				      unsigned long *block, unsigned int words,
				      unsigned long ip, unsigned long ret_ip,
				      struct ftrace_regs *fregs)
{
	unsigned int n, from = 0;
	unsigned long hdr;

	for (n = 0; n < words && (hdr = block[n]); n += 1 + fprobe_hdr_words(hdr)) {
		struct fprobe *fp = fprobe_site_probe(site, fprobe_hdr_id(hdr),
						      &from);

		if (fprobe_on(fp))
			fprobe_call_exit(fp, ip, ret_ip, fregs,
					 fprobe_hdr_words(hdr) ? &block[n + 1] : NULL);
	}
}

/*
 * fprobe_graph_ops' return: the exit handlers the block names, straight
 * to the one probe of a site that has one.  A block whose first header
 * is that probe's holds its storage, however many probes the site had
 * when the call came in.
 */
static void fprobe_graph_return(struct ftrace_graph_ret *trace,
				struct fgraph_ops *gops,
				struct ftrace_regs *fregs)
{
	unsigned long ip = trace->func, ret_ip, *block;
	const struct fprobe_at *at;
	struct fprobe_site *site;
	unsigned int words;
	struct fprobe *fp;

	block = fgraph_call_data(trace, gops->idx, &words);
	if (unlikely(!block))
		return;
	site = fprobe_site_find(fprobe_table(), ip);
	if (unlikely(!site))
		return;
	ret_ip = ftrace_regs_get_instruction_pointer(fregs);
	at = &site->at[0];
	if (unlikely(site->nr != 1 || block[0] != at->hdr)) {
		fprobe_exit_each(site, block, words, ip, ret_ip, fregs);
		return;
	}
	fp = READ_ONCE(at->fp);
	if (fprobe_on(fp))
		fprobe_call_exit(fp, ip, ret_ip, fregs,
				 fprobe_at_words(at) ? &block[1] : NULL);
}

struct fgraph_ops fprobe_graph_ops = {
	.entryfunc	= fprobe_graph_entry,
	.retfunc	= fprobe_graph_return,
};

/* The function graph could not offer fprobe_graph_ops a call of @func. */
void fprobe_graph_missed(struct fgraph_ops *gops, unsigned long func)
{
	fprobe_miss_ip(func);
}
