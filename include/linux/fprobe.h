/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fprobe: handlers on the entry and the return of many kernel functions
 * at once, on the function hooks and the function graph's shadow stack.
 * Documentation/trace/fprobe.rst says how to use them; the code is in
 * kernel/trace/ftrace/fprobe*.c.
 */
#ifndef _LINUX_FPROBE_H
#define _LINUX_FPROBE_H

#include <linux/compiler.h>
#include <linux/ftrace.h>
#include <linux/types.h>

struct fprobe;
struct fprobe_hook;

/*
 * The handlers: @entry_ip is the function's patch site, @ret_ip where
 * it returns to, @regs its registers on entry (arguments) or on return
 * (return value), @entry_data the call's storage or NULL.  A non-zero
 * return from the entry handler declines the call's exit handler.
 */
typedef int (*fprobe_entry_cb)(struct fprobe *fp, unsigned long entry_ip,
			       unsigned long ret_ip, struct ftrace_regs *regs,
			       void *entry_data);

typedef void (*fprobe_exit_cb)(struct fprobe *fp, unsigned long entry_ip,
			       unsigned long ret_ip, struct ftrace_regs *regs,
			       void *entry_data);

/**
 * struct fprobe - a probe on the entries and returns of functions
 * @nmissed: calls whose handlers did not all run, one for each: the
 *	recursion lock was held (neither ran), the call got no frame on
 *	the shadow stack (the exit handler did not run), or a kprobe ran;
 *	a statistic
 * @flags: FPROBE_FL_*
 * @entry_data_size: bytes of storage each call gets, shared by its entry
 *	and exit handlers; at most MAX_FPROBE_DATA_SIZE
 * @nr_maxactive: kept for old users; the shadow stack has no such limit
 * @entry_handler: called on entry, or NULL
 * @exit_handler: called on return, or NULL
 * @id: fprobe's own: non-zero while the probe is registered, and unique
 *	among all registrations, so that a call's frame names its probe
 *	without pointing at it
 * @hook: fprobe's own: while the probe is registered, the ftrace_ops
 *	that calls its handlers
 *
 * The owner zeroes it and sets the handlers, the size and the flags
 * before registering, and leaves them alone while it is registered
 * (but for disable_fprobe() and enable_fprobe()).
 */
struct fprobe {
	unsigned long		nmissed;
	unsigned int		flags;
	size_t			entry_data_size;
	int			nr_maxactive;

	fprobe_entry_cb		entry_handler;
	fprobe_exit_cb		exit_handler;

	u64			id;
	struct fprobe_hook	*hook;
};

/* The handlers are not called (disable_fprobe()). */
#define FPROBE_FL_DISABLED	1

/*
 * The handlers are shared with kprobes, which must not run inside one
 * another: fprobe marks a kprobe as running around them, and misses a
 * call that finds one running.  Set before registering.
 */
#define FPROBE_FL_KPROBE_SHARED	2

static inline bool fprobe_disabled(struct fprobe *fp)
{
	return fp ? fp->flags & FPROBE_FL_DISABLED : false;
}

static inline bool fprobe_shared_with_kprobes(struct fprobe *fp)
{
	return fp ? fp->flags & FPROBE_FL_KPROBE_SHARED : false;
}

#ifdef CONFIG_FPROBE
int register_fprobe(struct fprobe *fp, const char *filter, const char *notfilter);
int register_fprobe_ips(struct fprobe *fp, unsigned long *addrs, int num);
int register_fprobe_syms(struct fprobe *fp, const char **syms, int num);
int unregister_fprobe(struct fprobe *fp);
bool fprobe_is_registered(struct fprobe *fp);
#else
static inline int register_fprobe(struct fprobe *fp, const char *filter,
				  const char *notfilter)
{
	return -EOPNOTSUPP;
}

static inline int register_fprobe_ips(struct fprobe *fp, unsigned long *addrs,
				      int num)
{
	return -EOPNOTSUPP;
}

static inline int register_fprobe_syms(struct fprobe *fp, const char **syms,
				       int num)
{
	return -EOPNOTSUPP;
}

static inline int unregister_fprobe(struct fprobe *fp)
{
	return -EOPNOTSUPP;
}

static inline bool fprobe_is_registered(struct fprobe *fp)
{
	return false;
}
#endif

/**
 * disable_fprobe() - stop calling a probe's handlers
 * @fp: the probe, or NULL
 *
 * Its functions stay hooked; enable_fprobe() resumes.  A handler that
 * has already begun, on any CPU, runs to its end.
 */
static inline void disable_fprobe(struct fprobe *fp)
{
	if (fp)
		fp->flags |= FPROBE_FL_DISABLED;
}

/**
 * enable_fprobe() - call a probe's handlers again
 * @fp: the probe, or NULL
 */
static inline void enable_fprobe(struct fprobe *fp)
{
	if (fp)
		fp->flags &= ~FPROBE_FL_DISABLED;
}

/* The most storage a probe may ask for: 15 words, a 4-bit count. */
#define FPROBE_DATA_SIZE_BITS		4
#define MAX_FPROBE_DATA_SIZE_WORD	((1L << FPROBE_DATA_SIZE_BITS) - 1)
#define MAX_FPROBE_DATA_SIZE		(MAX_FPROBE_DATA_SIZE_WORD * sizeof(long))

#endif /* _LINUX_FPROBE_H */
