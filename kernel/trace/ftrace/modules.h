/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text that comes and goes (modules.c): what that file needs
 * from the rest of the core.  All of it is called with ftrace_lock
 * held unless said otherwise.
 */
#ifndef _KERNEL_TRACE_FTRACE_MODULES_H
#define _KERNEL_TRACE_FTRACE_MODULES_H

#include <linux/ftrace.h>

#ifdef CONFIG_DYNAMIC_FTRACE

struct module;

/*
 * core.c: make records for a block of __mcount_loc entries and turn
 * their sites into NOPs.  Takes ftrace_lock itself.
 */
int ftrace_process_locs(struct module *mod, unsigned long *start,
			unsigned long *end);

/* Does @rec sit at the start of a function (not in a discarded weak one)? */
int test_for_valid_rec(struct dyn_ftrace *rec);

/*
 * The tracefs side: apply "mod:" filters written before @mod_name
 * loaded.  Takes trace_types_lock itself: call without ftrace_lock.
 */
void process_cached_mods(const char *mod_name);

/* trampolines.c: the names of ops' trampolines; RCU read side. */
int ftrace_get_trampoline_kallsym(unsigned int symnum, unsigned long *value,
				  char *type, char *name, char *module_name,
				  int *exported);

/*
 * fprobe.c: take @mod's functions out of every probe.  Takes its own
 * locks: call without ftrace_lock.
 */
#ifdef CONFIG_FPROBE
void fprobe_release_mod(struct module *mod);
#else
static inline void fprobe_release_mod(struct module *mod) { }
#endif

#endif /* CONFIG_DYNAMIC_FTRACE */
#endif /* _KERNEL_TRACE_FTRACE_MODULES_H */
