/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loading and unloading the tracee module ftrace_ops_kunit_mod.ko from
 * the KUnit suites that need a module's patch sites (see
 * kunit_modload.c), and fake modules for the suites that only need an
 * owner of records.
 */
#ifndef _KERNEL_TRACE_FTRACE_KUNIT_MODLOAD_H
#define _KERNEL_TRACE_FTRACE_KUNIT_MODLOAD_H

#include <linux/errno.h>
#include <linux/module.h>
#include <kunit/test.h>

#define FTK_MOD			"ftrace_ops_kunit_mod"
#define FTK_MOD_FUNC		"fokt_mod_tracee"

#ifdef CONFIG_FTRACE_KUNIT_MODLOAD
void ftk_mod_load(struct kunit *test);
int ftk_mod_unload(void);
bool ftk_mod_loaded(void);
void *ftk_mod_func(struct kunit *test);
#else
/* A kernel without modules: the cases that need the tracee skip. */
static inline void ftk_mod_load(struct kunit *test)
{
	kunit_skip(test, "no modules");
}

static inline int ftk_mod_unload(void)
{
	return -ENOENT;
}

static inline bool ftk_mod_loaded(void)
{
	return false;
}

static inline void *ftk_mod_func(struct kunit *test)
{
	kunit_skip(test, "no modules");
	return NULL;
}
#endif

/*
 * A fake module, freed when @test ends: zeroed, so that within_module()
 * finds no text of it.  Without modules there is no struct module to
 * size, and only the address counts.
 */
static inline struct module *ftk_fake_module(struct kunit *test)
{
#ifdef CONFIG_MODULES
	return kunit_kzalloc(test, sizeof(struct module), GFP_KERNEL);
#else
	return kunit_kzalloc(test, 1, GFP_KERNEL);
#endif
}

#endif /* _KERNEL_TRACE_FTRACE_KUNIT_MODLOAD_H */
