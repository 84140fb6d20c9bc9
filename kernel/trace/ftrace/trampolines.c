// SPDX-License-Identifier: GPL-2.0
/*
 * The trampolines the arch builds for single ops, as the rest of the
 * kernel sees them.
 *
 * A trampoline the arch allocated (FTRACE_OPS_FL_ALLOC_TRAMP) is code
 * outside any image, so it gets a name: "ftrace_trampoline" in the
 * made-up module "__builtin__ftrace" of /proc/kallsyms, which stack
 * traces, perf and BPF use to name an address; and perf hears of it
 * (a PERF_RECORD_KSYMBOL for the name, a text_poke event for the
 * bytes) when it comes and when it goes.
 *
 * The named trampolines are on one list, changed under ftrace_lock
 * and read under RCU by kallsyms.
 */
#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/rculist.h>

#include "dispatch.h"
#include "internal.h"
#include "modules.h"

#define FTRAMP_SYM	"ftrace_trampoline"
#define FTRAMP_MOD	"__builtin__ftrace"

static LIST_HEAD(ftramp_named);

void __weak arch_ftrace_update_trampoline(struct ftrace_ops *ops)
{
}

void __weak arch_ftrace_trampoline_free(struct ftrace_ops *ops)
{
}

/* Does @ops own a trampoline the arch allocated for it? */
static bool ftramp_owned(struct ftrace_ops *ops)
{
	return ops->trampoline && (ops->flags & FTRACE_OPS_FL_ALLOC_TRAMP);
}

/**
 * ftrace_update_trampoline - build or refresh an ops' own trampoline
 * @ops: the ops, being registered or changed
 *
 * The arch decides whether @ops gets a trampoline and what it calls.
 * A trampoline that is new is named and announced to perf.  Hold
 * ftrace_lock.
 */
void ftrace_update_trampoline(struct ftrace_ops *ops)
{
	unsigned long before = ops->trampoline;

	lockdep_assert_held(&ftrace_lock);
	arch_ftrace_update_trampoline(ops);
	if (!ftramp_owned(ops) || ops->trampoline == before)
		return;

	/* A moved trampoline keeps its entry: the name reads the address. */
	if (!before)
		list_add_rcu(&ops->list, &ftramp_named);
	/* Named before perf hears of it, so its readers can look it up. */
	perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_OOL, ops->trampoline,
			   ops->trampoline_size, false, FTRAMP_SYM);
	perf_event_text_poke((void *)ops->trampoline, NULL, 0,
			     (void *)ops->trampoline, ops->trampoline_size);
}

/*
 * Take the name of @ops' trampoline away, after perf heard that its
 * bytes and then its name go.  Kallsyms readers may still stand on its
 * entry until an RCU grace period has passed; only then may the arch
 * have the trampoline back.  Hold ftrace_lock.
 */
void ftramp_unname(struct ftrace_ops *ops)
{
	unsigned long addr, len;

	lockdep_assert_held(&ftrace_lock);
	if (!ops || !ftramp_owned(ops))
		return;
	addr = ops->trampoline;
	len = ops->trampoline_size;
	perf_event_text_poke((void *)addr, (void *)addr, len, NULL, 0);
	perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_OOL, addr, len, true,
			   FTRAMP_SYM);
	list_del_rcu(&ops->list);
}

/*
 * Give @ops' trampoline back to the arch, unnamed first: the entry is
 * reused if @ops is registered again.  Hold ftrace_lock.
 */
void ftramp_free(struct ftrace_ops *ops)
{
	if (ops && ftramp_owned(ops)) {
		ftramp_unname(ops);
		synchronize_rcu();
	}
	arch_ftrace_trampoline_free(ops);
}

/*
 * Symbol @symnum among the named trampolines, for /proc/kallsyms
 * (through ftrace_mod_get_kallsym()).  RCU read side.  Returns
 * -ERANGE past the last.
 */
int ftrace_get_trampoline_kallsym(unsigned int symnum, unsigned long *value,
				  char *type, char *name, char *module_name,
				  int *exported)
{
	struct ftrace_ops *op;

	list_for_each_entry_rcu(op, &ftramp_named, list) {
		if (!op->trampoline)
			continue;
		if (symnum--)
			continue;
		*value = op->trampoline;
		*type = 't';
		*exported = 0;
		strscpy(name, FTRAMP_SYM, KSYM_NAME_LEN);
		strscpy(module_name, FTRAMP_MOD, MODULE_NAME_LEN);
		return 0;
	}
	return -ERANGE;
}
