/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the KUnit suites that build trampolines: is one named as
 * /proc/kallsyms names it?
 */
#ifndef _KERNEL_TRACE_FTRACE_TESTS_TRAMP_NAMES_H
#define _KERNEL_TRACE_FTRACE_TESTS_TRAMP_NAMES_H

#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/string.h>

#include "../modules.h"

/* Is there a symbol "ftrace_trampoline [__builtin__ftrace]" at @addr? */
static inline bool ftrace_kunit_tramp_named(unsigned long addr)
{
	char name[KSYM_NAME_LEN], mod[MODULE_NAME_LEN];
	unsigned long value;
	unsigned int i;
	bool found = false;
	int exported;
	char type;

	rcu_read_lock();
	for (i = 0; !ftrace_get_trampoline_kallsym(i, &value, &type, name,
						   mod, &exported); i++) {
		if (value == addr && type == 't' && !exported &&
		    !strcmp(name, "ftrace_trampoline") &&
		    !strcmp(mod, "__builtin__ftrace"))
			found = true;
	}
	rcu_read_unlock();
	return found;
}

#endif /* _KERNEL_TRACE_FTRACE_TESTS_TRAMP_NAMES_H */
