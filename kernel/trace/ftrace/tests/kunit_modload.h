/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loading and unloading the tracee module ftrace_ops_kunit_mod.ko from
 * the KUnit suites that need a module's patch sites.  See
 * kunit_modload.c.
 */
#ifndef _KERNEL_TRACE_FTRACE_KUNIT_MODLOAD_H
#define _KERNEL_TRACE_FTRACE_KUNIT_MODLOAD_H

#include <kunit/test.h>

#define FTK_MOD			"ftrace_ops_kunit_mod"
#define FTK_MOD_FUNC		"fokt_mod_tracee"

void ftk_mod_load(struct kunit *test);
int ftk_mod_unload(void);
bool ftk_mod_loaded(void);

#endif /* _KERNEL_TRACE_FTRACE_KUNIT_MODLOAD_H */
