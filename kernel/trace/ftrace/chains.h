/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trampolines for the sites that several ops take.  See chains.c.
 */
#ifndef _KERNEL_TRACE_FTRACE_CHAINS_H
#define _KERNEL_TRACE_FTRACE_CHAINS_H

#include <linux/ftrace.h>

#ifdef CONFIG_DYNAMIC_FTRACE

/* A chain can name the site's target only where the arch reads it back. */
#ifdef arch_ftrace_site_target
#define FCHAIN_ARCH	true
#else
#define FCHAIN_ARCH	false
static inline unsigned long arch_ftrace_site_target(struct dyn_ftrace *rec)
{
	return 0;
}
#endif

/* The most ops a chain calls; a site that more take uses the list. */
#define FCHAIN_MAX	8

struct fchain {
	struct ftrace_ops	ops;	/* what the trampoline passes */
	struct list_head	node;	/* fchain_all, read under RCU */
	struct list_head	reap;	/* on the way out */
	bool			wanted;	/* by a site, after this update */
	bool			dead;	/* no site calls it any more */
	unsigned int		nr;
	struct ftrace_ops	*member[];
};

/* Do sites that several ops take get a chain? */
static inline bool fchain_enabled(void)
{
	return FCHAIN_ARCH;
}

void fchain_prepare(bool enable);
void fchain_sweep(void);
struct fchain *fchain_new(struct dyn_ftrace *rec);
struct fchain *fchain_held(struct dyn_ftrace *rec);
struct ftrace_ops *fchain_ops_at(unsigned long addr);
unsigned int fchain_count(void);
void fchain_flush(void);

#ifdef CONFIG_FTRACE_ACCOUNTING_KUNIT_TEST
/* Set by the KUnit suite: chains fail to build, as if memory ran out. */
extern bool fchain_refuse;
#endif

#endif /* CONFIG_DYNAMIC_FTRACE */
#endif /* _KERNEL_TRACE_FTRACE_CHAINS_H */
