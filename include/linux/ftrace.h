/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Function hooks (ftrace): how the rest of the kernel has a callback run
 * on entry to kernel functions (struct ftrace_ops), on their return too
 * (struct fgraph_ops), or has them jump to a trampoline of its own
 * (direct calls); and the hooks an architecture provides to patch the
 * call each function starts with.  The core is kernel/trace/ftrace/;
 * Documentation/trace/ftrace-design.rst lists what an arch must supply.
 */

#ifndef _LINUX_FTRACE_H
#define _LINUX_FTRACE_H

#include <linux/trace_recursion.h>
#include <linux/trace_clock.h>
#include <linux/jump_label.h>
#include <linux/kallsyms.h>
#include <linux/linkage.h>
#include <linux/bitops.h>
#include <linux/ptrace.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/types.h>
#include <linux/init.h>
#include <linux/fs.h>

#include <asm/ftrace.h>

/*
 * An arch whose trampoline hands the callback function_trace_op as a
 * third argument says so with 1; with 0, every hooked call has to go
 * through the list function, which finds the ops on its own.
 */
#ifndef ARCH_SUPPORTS_FTRACE_OPS
#define ARCH_SUPPORTS_FTRACE_OPS 0
#endif

#ifdef CONFIG_TRACING
/* trace.c: take the snapshot the ftrace_boot_snapshot parameter wants. */
void ftrace_boot_snapshot(void);
#else
static inline void ftrace_boot_snapshot(void) { }
#endif

struct ftrace_ops;
struct ftrace_regs;
struct dyn_ftrace;

/* ftrace/hash.c, weak: strip symbol decorations users do not type. */
char *arch_ftrace_match_adjust(char *str, const char *search);

/* ftrace/fgraph/calls.c: return_to_handler runs the retfuncs and gets the real return. */
#ifdef CONFIG_HAVE_FUNCTION_GRAPH_FREGS
unsigned long ftrace_return_to_handler(struct ftrace_regs *fregs);
#else
unsigned long ftrace_return_to_handler(unsigned long frame_pointer);
#endif

#ifdef CONFIG_FUNCTION_TRACER
/*
 * The list function under the name and signature the arch's caller
 * uses.  Without ARCH_SUPPORTS_FTRACE_OPS the caller passes only the
 * two addresses, so the list function must be used for every ops.
 */
#if !ARCH_SUPPORTS_FTRACE_OPS
# define FTRACE_FORCE_LIST_FUNC 1
void arch_ftrace_ops_list_func(unsigned long ip, unsigned long parent_ip);
#else
# define FTRACE_FORCE_LIST_FUNC 0
void arch_ftrace_ops_list_func(unsigned long ip, unsigned long parent_ip,
			       struct ftrace_ops *op, struct ftrace_regs *fregs);
#endif
/*
 * For DYNAMIC_FTRACE_WITH_CALL_OPS: the ops a site is given when it
 * calls nothing or goes through the list, and the one ops a site may
 * be given directly because no other ops traces it.
 */
extern const struct ftrace_ops ftrace_nop_ops;
extern const struct ftrace_ops ftrace_list_ops;
struct ftrace_ops *ftrace_find_unique_ops(struct dyn_ftrace *rec);

/* The ops ftrace_caller passes; declared for sparse, used from asm. */
extern struct ftrace_ops *function_trace_op;
#endif /* CONFIG_FUNCTION_TRACER */

/* trace.c: the trace buffers early in start_kernel(), the events later. */
#ifdef CONFIG_TRACING
void trace_init(void);
void early_trace_init(void);
#else
static inline void trace_init(void) { }
static inline void early_trace_init(void) { }
#endif

struct module;
struct ftrace_hash;

/*
 * ftrace/modules.c: kallsyms asks here about addresses in module init
 * text that is gone but may still show up in a trace.
 */
#if defined(CONFIG_FUNCTION_TRACER) && defined(CONFIG_MODULES) && \
	defined(CONFIG_DYNAMIC_FTRACE)
int
ftrace_mod_address_lookup(unsigned long addr, unsigned long *size,
			  unsigned long *off, char **modname,
			  const unsigned char **modbuildid, char *sym);
#else
static inline int
ftrace_mod_address_lookup(unsigned long addr, unsigned long *size,
			  unsigned long *off, char **modname,
			  const unsigned char **modbuildid, char *sym)
{
	return 0;
}
#endif

/* ftrace/modules.c: the symbols ftrace adds to /proc/kallsyms. */
#if defined(CONFIG_FUNCTION_TRACER) && defined(CONFIG_DYNAMIC_FTRACE)
int ftrace_mod_get_kallsym(unsigned int symnum, unsigned long *value,
			   char *type, char *name,
			   char *module_name, int *exported);
#else
static inline int ftrace_mod_get_kallsym(unsigned int symnum, unsigned long *value,
					 char *type, char *name,
					 char *module_name, int *exported)
{
	return -1;
}
#endif

#ifdef CONFIG_FUNCTION_TRACER

#include <linux/ftrace_regs.h>

/* ftrace/switches.c: the kernel.ftrace_enabled sysctl; 0 stops all ops. */
extern int ftrace_enabled;

/**
 * struct ftrace_regs - the registers a hooked call saved, opaque
 *
 * A callback gets one of these for the function it hooks.  What it
 * holds is up to the arch (struct __arch_ftrace_regs): at least the
 * argument registers, the stack pointer and the instruction pointer on
 * entry, and the return value registers on return; a full pt_regs only
 * when an ops asked for FTRACE_OPS_FL_SAVE_REGS.  On entry the arch
 * reloads the registers from it, which is how a callback may change
 * the arguments or, with IPMODIFY, where the call goes.
 *
 * Callers must go through ftrace_get_regs() and the ftrace_regs_get_*()
 * and ftrace_regs_set_*() accessors; the type has no members, which
 * keeps generic code from relying on one arch's layout.
 */
struct ftrace_regs {
	/* Empty on purpose: see above. */
};

#define ftrace_regs_size()	sizeof(struct __arch_ftrace_regs)

#ifndef CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS
/**
 * arch_ftrace_get_regs - the pt_regs inside a register set
 * @fregs: the register set
 *
 * Without DYNAMIC_FTRACE_WITH_ARGS the set is always a complete
 * pt_regs.  An arch with it provides its own, which must return NULL
 * unless every register was saved.
 *
 * Return: the pt_regs @fregs holds.
 */
static inline struct pt_regs *arch_ftrace_get_regs(struct ftrace_regs *fregs)
{
	return &arch_ftrace_regs(fregs)->regs;
}

/*
 * Changing the instruction pointer through the register set needs the
 * arch's trampoline to honour it (livepatch on WITH_ARGS arches); here
 * it is a no-op unless the arch says otherwise.
 */
#ifndef ftrace_regs_set_instruction_pointer
#define ftrace_regs_set_instruction_pointer(fregs, ip) do { } while (0)
#endif
#endif /* CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS */

/**
 * ftrace_get_regs - the complete pt_regs of a hooked call, if saved
 * @fregs: what the callback was given, or NULL
 *
 * Return: a pt_regs with every register valid, or NULL if the site did
 * not save one (no ops on it asked for FTRACE_OPS_FL_SAVE_REGS).
 */
static __always_inline struct pt_regs *ftrace_get_regs(struct ftrace_regs *fregs)
{
	if (!fregs)
		return NULL;

	return arch_ftrace_get_regs(fregs);
}

#if !defined(CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS) || \
	defined(CONFIG_HAVE_FTRACE_REGS_HAVING_PT_REGS)

/* An arch may fix up a partly saved pt_regs before it is handed out. */
#ifndef arch_ftrace_partial_regs
#define arch_ftrace_partial_regs(regs) do {} while (0)
#endif

/**
 * ftrace_partial_regs - a pt_regs view of a register set
 * @fregs: the register set
 * @regs: scratch space, not needed here
 *
 * For users such as fprobe and BPF that want a pt_regs but do not need
 * every register in it.
 *
 * Return: the pt_regs embedded in @fregs; only the registers the arch
 * saved for this call are valid.
 */
static __always_inline struct pt_regs *
ftrace_partial_regs(struct ftrace_regs *fregs, struct pt_regs *regs)
{
	/*
	 * The layout embeds a pt_regs, so use it whole: unlike
	 * arch_ftrace_get_regs() this must not refuse a partial one.
	 */
	regs = &arch_ftrace_regs(fregs)->regs;

	arch_ftrace_partial_regs(regs);
	return regs;
}

#endif /* !WITH_ARGS || HAVE_FTRACE_REGS_HAVING_PT_REGS */

#ifdef CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS

/*
 * The arch fills @_regs from @fregs the way perf_arch_fetch_caller_regs()
 * would: a kernel-mode pt_regs that perf can unwind the stack from.
 */
#ifndef arch_ftrace_fill_perf_regs
#define arch_ftrace_fill_perf_regs(fregs, _regs) do {} while (0)
#endif

/**
 * ftrace_fill_perf_regs - a pt_regs perf can sample from
 * @fregs: the register set
 * @regs: storage for the result
 *
 * Return: @regs, filled with what perf needs to unwind from the call.
 */
static __always_inline struct pt_regs *
ftrace_fill_perf_regs(struct ftrace_regs *fregs, struct pt_regs *regs)
{
	arch_ftrace_fill_perf_regs(fregs, regs);
	return regs;
}

#else /* !CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS */

/* Here the register set is a pt_regs already; @regs goes unused. */
static __always_inline struct pt_regs *
ftrace_fill_perf_regs(struct ftrace_regs *fregs, struct pt_regs *regs)
{
	return &arch_ftrace_regs(fregs)->regs;
}

#endif

/**
 * ftrace_regs_has_args - may the argument accessors be used?
 * @fregs: what the callback was given, or NULL
 *
 * Return: true if ftrace_regs_get_argument() and the other accessors
 * work on @fregs.  That can hold while ftrace_get_regs() gives NULL.
 */
static __always_inline bool ftrace_regs_has_args(struct ftrace_regs *fregs)
{
	if (IS_ENABLED(CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS))
		return true;

	return !!ftrace_get_regs(fregs);
}

typedef void (*ftrace_func_t)(unsigned long ip, unsigned long parent_ip,
			      struct ftrace_ops *op, struct ftrace_regs *fregs);

/* ftrace/dispatch.c: ->func, or a wrapper that does what ->flags ask. */
ftrace_func_t ftrace_ops_get_func(struct ftrace_ops *ops);

/*
 * The guard of the ops that ask for one (RECURSION, RCU), per CPU and
 * shared with the arch's guarded trampolines: the FTRACE_GUARD_CTX bits
 * of preempt_count() where a guarded call is running on this CPU, or
 * FTRACE_GUARD_IDLE.  An arch whose assembly reads it defines both.
 */
#ifndef FTRACE_GUARD_CTX
# define FTRACE_GUARD_CTX	(NMI_MASK | HARDIRQ_MASK | SOFTIRQ_OFFSET)
# define FTRACE_GUARD_IDLE	1
#endif
DECLARE_PER_CPU(u32, ftrace_ops_guard);
/* Notes a call the guard dropped (recursed_functions). */
void ftrace_ops_guard_busy(unsigned long ip, unsigned long parent_ip);

/**
 * DOC: ftrace_ops flags
 *
 * Set by the owner before register_ftrace_function(), and left alone
 * while the ops is registered (the core reads them as it goes):
 *
 * - SAVE_REGS: the callback needs a complete pt_regs.  Registering
 *   fails where the arch cannot save one (no DYNAMIC_FTRACE_WITH_REGS).
 * - SAVE_REGS_IF_SUPPORTED: with SAVE_REGS, turns the demand into a
 *   wish: registering succeeds where the arch cannot save regs, and the
 *   callback copes with ftrace_get_regs() returning NULL.
 * - RECURSION: the core guards the callback against recursion; without
 *   it the callback must guard itself.
 * - STUB: the ops does nothing and exists only to be on a site.
 * - IPMODIFY: the callback may change the instruction pointer (needs
 *   SAVE_REGS or WITH_ARGS).  Only one such ops may be on a function,
 *   so registering or growing the filter fails if another has it.
 *   Without IPMODIFY, OVERRIDE or SAVE_REGS a change of the instruction
 *   pointer may be ignored.
 * - OVERRIDE: the callback may change the instruction pointer to make
 *   the function return at once (ftrace_override_function_with_return(),
 *   error injection as BPF does it through fprobe), with no claim on
 *   the function: several such ops may share it, and an IPMODIFY one.
 * - PID: call only for the tasks the set_ftrace_pid files select.
 * - RCU: call only where RCU is watching.
 * - TRACE_ARRAY: @private is the struct trace_array that owns the ops.
 * - PERMANENT: the ops must keep running: it cannot be registered while
 *   kernel.ftrace_enabled is 0, nor can that sysctl be cleared while
 *   the ops is registered.
 *
 * Kept by the core (or the arch) to track an ops' state:
 *
 * - ENABLED: registered, or a subops of a registered manager.
 * - DYNAMIC: not in kernel data (a module's or allocated); unregistering
 *   waits until no task can still be in the callback.
 * - INITIALIZED: the sets and locks are set up (done on first use).
 * - DELETED: unregistered for good; registering it again fails.
 * - ADDING, REMOVING, MODIFYING: a code update on the ops' behalf is
 *   adding it, taking it away or changing its sets.
 * - ALLOC_TRAMP: the arch built the trampoline in @trampoline and may
 *   rebuild it; set only by the arch, never for a caller's trampoline.
 * - DIRECT: an ops of the direct-call helpers; not for other users.
 * - SUBOP: run by the manager in @managed, not on the ops list itself.
 */
enum {
	FTRACE_OPS_FL_ENABLED			= BIT(0),
	FTRACE_OPS_FL_DYNAMIC			= BIT(1),
	FTRACE_OPS_FL_SAVE_REGS			= BIT(2),
	FTRACE_OPS_FL_SAVE_REGS_IF_SUPPORTED	= BIT(3),
	FTRACE_OPS_FL_RECURSION			= BIT(4),
	FTRACE_OPS_FL_STUB			= BIT(5),
	FTRACE_OPS_FL_INITIALIZED		= BIT(6),
	FTRACE_OPS_FL_DELETED			= BIT(7),
	FTRACE_OPS_FL_ADDING			= BIT(8),
	FTRACE_OPS_FL_REMOVING			= BIT(9),
	FTRACE_OPS_FL_MODIFYING			= BIT(10),
	FTRACE_OPS_FL_ALLOC_TRAMP		= BIT(11),
	FTRACE_OPS_FL_IPMODIFY			= BIT(12),
	FTRACE_OPS_FL_PID			= BIT(13),
	FTRACE_OPS_FL_RCU			= BIT(14),
	FTRACE_OPS_FL_TRACE_ARRAY		= BIT(15),
	FTRACE_OPS_FL_PERMANENT			= BIT(16),
	FTRACE_OPS_FL_DIRECT			= BIT(17),
	FTRACE_OPS_FL_SUBOP			= BIT(18),
	FTRACE_OPS_FL_OVERRIDE			= BIT(19),
};

/* Asks for the arguments: only WITH_ARGS arches save them without regs. */
#ifndef CONFIG_DYNAMIC_FTRACE_WITH_ARGS
#define FTRACE_OPS_FL_SAVE_ARGS			FTRACE_OPS_FL_SAVE_REGS
#else
#define FTRACE_OPS_FL_SAVE_ARGS			0
#endif

/**
 * enum ftrace_ops_cmd - requests the core sends to an ops' @ops_func
 * @FTRACE_OPS_CMD_ENABLE_SHARE_IPMODIFY_SELF: a direct ops that is
 *	being registered finds an IPMODIFY ops on one of its functions;
 *	agree to share it.  Sent with the direct-call lock and ftrace_lock
 *	held.
 * @FTRACE_OPS_CMD_ENABLE_SHARE_IPMODIFY_PEER: an IPMODIFY ops is being
 *	registered on a function of this direct ops; agree to share it.
 *	Sent with only the direct-call lock held, so the owner may move
 *	its direct calls (modify_ftrace_direct_nolock()).
 * @FTRACE_OPS_CMD_DISABLE_SHARE_IPMODIFY_PEER: the IPMODIFY ops on a
 *	function of this direct ops is gone.  Sent as the request above.
 *
 * An ops the core must ask but that has no @ops_func counts as refusing.
 */
enum ftrace_ops_cmd {
	FTRACE_OPS_CMD_ENABLE_SHARE_IPMODIFY_SELF,
	FTRACE_OPS_CMD_ENABLE_SHARE_IPMODIFY_PEER,
	FTRACE_OPS_CMD_DISABLE_SHARE_IPMODIFY_PEER,
};

/*
 * An ops' answer to an ftrace_ops_cmd: 0 to agree or a negative errno
 * to refuse.  Refusing an ENABLE_* request fails the registration that
 * sent it; the answer to DISABLE_* is not looked at.
 */
typedef int (*ftrace_ops_func_t)(struct ftrace_ops *op, enum ftrace_ops_cmd cmd);

#ifdef CONFIG_DYNAMIC_FTRACE
/**
 * struct ftrace_ops_hash - the two sets that decide what an ops traces
 * @notrace_hash: functions never traced, even if @filter_hash has them
 * @filter_hash: functions traced; empty means every function
 * @regex_lock: serializes writers (the filter files, ftrace_set_*())
 *
 * Readers, the hooked calls among them, use RCU: a writer builds a new
 * set under @regex_lock and publishes it whole.
 */
struct ftrace_ops_hash {
	struct ftrace_hash __rcu	*notrace_hash;
	struct ftrace_hash __rcu	*filter_hash;
	/* protects both sets against concurrent writers */
	struct mutex			regex_lock;
};

/* ftrace/modules.c: forget the sites of text about to be freed. */
void ftrace_free_init_mem(void);
void ftrace_free_mem(struct module *mod, void *start, void *end);
#else
/* Nothing to forget; the boot snapshot is still due at this point. */
static inline void ftrace_free_init_mem(void)
{
	ftrace_boot_snapshot();
}

static inline void ftrace_free_mem(struct module *mod, void *start, void *end) { }
#endif

/**
 * struct ftrace_ops - a callback for the entry of kernel functions
 * @func: called on entry to each function the ops traces
 * @next: the next registered ops; kept by the core
 * @flags: FTRACE_OPS_FL_*; see "ftrace_ops flags"
 * @private: the owner's; for the tracing code's ops (PID,
 *	TRACE_ARRAY) the struct trace_array of their instance
 * @saved_func: @func as registered, while the core calls a wrapper
 * @local_hash: the ops' own filter and notrace sets
 * @func_hash: the sets in force, usually &@local_hash; another ops'
 *	sets when shared (ftrace_ops_set_global_filter())
 * @old_hash: the sets in force before a code update that is changing
 *	them, for sites not yet patched
 * @trampoline: the trampoline the ops' sites may call when it is alone
 *	there, or 0
 * @trampoline_size: its size, if the arch allocated it
 * @list: on a manager's @subop_list, or on the list of trampolines
 *	that kallsyms names
 * @subop_list: a manager's subops
 * @ops_func: answers the core's ftrace_ops_cmd requests, or NULL
 * @managed: a subop's manager
 * @direct_call: where a direct ops sends its functions
 *
 * The owner sets @func, @flags and perhaps @private and @ops_func, and
 * chooses functions with the ftrace_set_*() calls; the rest belongs to
 * the core.  Unless FTRACE_OPS_FL_RCU is set the callback may run where
 * RCU is not watching.  For an ops in core kernel data,
 * unregister_ftrace_function() does not wait for callbacks still
 * running, so data they use must stay valid until they are done.  An
 * ops elsewhere (FTRACE_OPS_FL_DYNAMIC) is waited for and may then be
 * freed.
 */
struct ftrace_ops {
	ftrace_func_t			func;
	struct ftrace_ops __rcu		*next;
	unsigned long			flags;
	void				*private;
	ftrace_func_t			saved_func;
#ifdef CONFIG_DYNAMIC_FTRACE
	struct ftrace_ops_hash		local_hash;
	struct ftrace_ops_hash		*func_hash;
	struct ftrace_ops_hash		old_hash;
	unsigned long			trampoline;
	unsigned long			trampoline_size;
	struct list_head		list;
	struct list_head		subop_list;
	ftrace_ops_func_t		ops_func;
	struct ftrace_ops		*managed;
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
	unsigned long			direct_call;
#endif
#endif
};

/* ftrace/dispatch.c: the registered ops, ending in ftrace_list_end. */
extern struct ftrace_ops __rcu *ftrace_ops_list;
extern struct ftrace_ops ftrace_list_end;

/*
 * Walk the registered ops from the hooked call itself.  No grace period
 * is needed: an ops taken off the list still points into it, and is
 * freed only after every CPU has left such walks.  The raw checked
 * dereference orders each load against an ops being added concurrently.
 * The two halves go around a block:
 *
 *	do_for_each_ftrace_op(op, list) { ... } while_for_each_ftrace_op(op);
 */
#define do_for_each_ftrace_op(op, list)			\
	op = rcu_dereference_raw_check(list);			\
	do

/* The common case is a single ops: hint that the walk ends at once. */
#define while_for_each_ftrace_op(op)				\
	while (likely(op = rcu_dereference_raw_check((op)->next)) &&	\
	       unlikely((op) != &ftrace_list_end))

/* Which end of a call is hooked. */
enum ftrace_tracing_type_t {
	FTRACE_TYPE_ENTER = 0,	/* the call */
	FTRACE_TYPE_RETURN,	/* the return */
};

/* Declared only: no file defines it. */
extern enum ftrace_tracing_type_t ftrace_tracing_type;

/**
 * register_ftrace_function - start calling an ops' callback
 * @ops: the ops to start; its callback, and all that the callback
 *	calls, must be notrace or they would hook themselves
 *
 * From return on, every function @ops' filter selects (all functions
 * when the filter is empty) and its notrace set does not exclude calls
 * @ops->func on entry.  An IPMODIFY ops must have a filter; direct ops
 * already on its functions are asked to share them.  The core owns
 * @ops->next from now on, even after unregistering.
 *
 * Return: 0 on success; -EBUSY if an IPMODIFY or unwilling direct ops
 * holds one of its functions, or if @ops is PERMANENT while
 * kernel.ftrace_enabled is 0; -EINVAL if @ops is DELETED or wants regs
 * the arch cannot save; -ENODEV once ftrace is dead; or another errno.
 */
int register_ftrace_function(struct ftrace_ops *ops);

/**
 * unregister_ftrace_function - stop calling an ops' callback
 * @ops: a registered ops
 *
 * When it returns the functions no longer call @ops.  For an ops outside
 * core kernel data (FTRACE_OPS_FL_DYNAMIC) it also waits until no CPU
 * or task is inside its callback or trampoline, so it may be freed.
 *
 * Return: 0 on success; -EBUSY or -ENOENT if @ops was not registered;
 * -ENODEV once ftrace is dead.
 */
int unregister_ftrace_function(struct ftrace_ops *ops);

/* The callback that does nothing: ftrace_trace_function with no ops. */
void ftrace_stub(unsigned long a0, unsigned long a1,
		 struct ftrace_ops *op, struct ftrace_regs *fregs);

/**
 * ftrace_lookup_symbols - find traceable functions by name
 * @sorted_syms: the names, sorted by strcmp()
 * @cnt: the number of names
 * @addrs: gets, for each name, the address of a traceable function of
 *	that name (the kernel's before modules'), or 0
 *
 * Made for the users, such as BPF's multi-kprobes, that attach one
 * ops to many functions at once.
 *
 * Return: 0 if every name was found; -ESRCH if one was not (unknown,
 * not traceable or listed twice); -EOPNOTSUPP without the function
 * tracer.
 */
int ftrace_lookup_symbols(const char **sorted_syms, size_t cnt, unsigned long *addrs);
#else /* !CONFIG_FUNCTION_TRACER */
/* Macros, so that @ops is not evaluated and need not even exist. */
#define register_ftrace_function(ops) ({ 0; })
#define unregister_ftrace_function(ops) ({ 0; })
static inline void ftrace_kill(void) { }
static inline void ftrace_free_init_mem(void) { }
static inline void ftrace_free_mem(struct module *mod, void *start, void *end) { }
static inline int ftrace_lookup_symbols(const char **sorted_syms, size_t cnt,
					unsigned long *addrs)
{
	return -EOPNOTSUPP;
}
#endif /* CONFIG_FUNCTION_TRACER */

/**
 * struct ftrace_func_entry - one function in a filter or notrace set
 * @hlist: the link in the set's bucket
 * @ip: the function's patch site
 * @direct: for the direct-call table only: where the site jumps to
 */
struct ftrace_func_entry {
	struct hlist_node hlist;
	unsigned long ip;
	unsigned long direct;
};

#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
/* ftrace/direct.c: the address a direct ops sends site @ip to, or 0. */
unsigned long ftrace_find_rec_direct(unsigned long ip);

/**
 * register_ftrace_direct - have a set of functions call a trampoline
 * @ops: an unregistered ops with no callback, whose filter was set
 *	with ftrace_set_filter_ip() or ftrace_set_filter_ips()
 * @addr: the trampoline; it must save and restore the traced
 *	function's arguments itself
 *
 * Where @ops is the only ops on a function, the site calls @addr
 * directly; elsewhere ftrace_caller passes the call on to it.  The core
 * fills in @ops' callback, flags and trampoline; leave them and the
 * filter alone until unregister_ftrace_direct().
 *
 * Return: 0 on success; -EINVAL if @ops has a callback, is registered
 * or has no filter; -EBUSY if another direct ops has one of the
 * functions; -ENOMEM; or the errors of register_ftrace_function().
 */
int register_ftrace_direct(struct ftrace_ops *ops, unsigned long addr);

/**
 * unregister_ftrace_direct - stop the direct calls of an ops
 * @ops: an ops registered with register_ftrace_direct()
 * @addr: the address it was registered with
 * @free_filters: also free @ops' filter (as ftrace_free_filter())
 *
 * Return: 0 on success; -EINVAL if @ops is not a registered direct ops;
 * or the error of unregistering it.
 */
int unregister_ftrace_direct(struct ftrace_ops *ops, unsigned long addr,
			     bool free_filters);

/**
 * modify_ftrace_direct - send a direct ops' functions somewhere else
 * @ops: an ops registered with register_ftrace_direct()
 * @addr: the new trampoline
 *
 * No call is lost on the way: each goes to the old or the new address.
 *
 * Return: 0 on success; -EINVAL if @ops is not a registered direct ops;
 * or the errors of registering an ops on its functions.
 */
int modify_ftrace_direct(struct ftrace_ops *ops, unsigned long addr);

/**
 * modify_ftrace_direct_nolock - modify_ftrace_direct() under the lock
 * @ops: an ops registered with register_ftrace_direct()
 * @addr: the new trampoline
 *
 * Only for an @ops_func answering an FTRACE_OPS_CMD_*_PEER request,
 * which already runs with the direct-call lock held.
 *
 * Return: as modify_ftrace_direct().
 */
int modify_ftrace_direct_nolock(struct ftrace_ops *ops, unsigned long addr);

/* The arch's: a direct trampoline that just returns, for selftests. */
void ftrace_stub_direct_tramp(void);

#else
struct ftrace_ops;
static inline unsigned long ftrace_find_rec_direct(unsigned long ip)
{
	return 0;
}

static inline int register_ftrace_direct(struct ftrace_ops *ops, unsigned long addr)
{
	return -ENODEV;
}

static inline int unregister_ftrace_direct(struct ftrace_ops *ops, unsigned long addr,
					   bool free_filters)
{
	return -ENODEV;
}

static inline int modify_ftrace_direct(struct ftrace_ops *ops, unsigned long addr)
{
	return -ENODEV;
}

static inline int modify_ftrace_direct_nolock(struct ftrace_ops *ops, unsigned long addr)
{
	return -ENODEV;
}

/*
 * With direct calls an arch defines this to make its trampoline, on
 * the way out of the callbacks, jump to @addr instead of returning to
 * the traced function (x86 passes @addr in orig_ax).  Without them
 * there is nothing to redirect.
 */
static inline void arch_ftrace_set_direct_caller(struct ftrace_regs *fregs,
						 unsigned long addr) { }
#endif /* CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS */

#ifdef CONFIG_STACK_TRACER

/* trace_stack.c: the kernel.stack_tracer_enabled sysctl. */
extern int stack_tracer_enabled;

int stack_trace_sysctl(const struct ctl_table *table, int write, void *buffer,
		       size_t *lenp, loff_t *ppos);

/* Touch only through stack_tracer_disable() and stack_tracer_enable(). */
DECLARE_PER_CPU(int, disable_stack_tracer);

/**
 * stack_tracer_disable - keep the stack tracer off this CPU for a moment
 *
 * For the few places, in RCU for one, where measuring the stack is not
 * safe.  Call it from a preempt-disabled section with interrupts off
 * (DEBUG_PREEMPT kernels warn otherwise), and call stack_tracer_enable()
 * shortly after, before leaving that state.
 */
static inline void stack_tracer_disable(void)
{
	/* The per-CPU count is only ours while we cannot migrate. */
	if (IS_ENABLED(CONFIG_DEBUG_PREEMPT))
		WARN_ON_ONCE(!preempt_count() || !irqs_disabled());
	this_cpu_inc(disable_stack_tracer);
}

/**
 * stack_tracer_enable - undo stack_tracer_disable()
 *
 * Call it on the same CPU, before preemption or interrupts come back.
 */
static inline void stack_tracer_enable(void)
{
	if (IS_ENABLED(CONFIG_DEBUG_PREEMPT))
		WARN_ON_ONCE(!preempt_count() || !irqs_disabled());
	this_cpu_dec(disable_stack_tracer);
}
#else
static inline void stack_tracer_disable(void) { }
static inline void stack_tracer_enable(void) { }
#endif

/*
 * The command of a code update (ftrace_modify_all_code()): what to
 * patch and how.
 *
 * - UPDATE_CALLS: bring every site to what the ops on it need.
 * - DISABLE_CALLS: turn every site back into a NOP.
 * - UPDATE_TRACE_FUNC: repoint ftrace_caller's call.
 * - START_FUNC_RET, STOP_FUNC_RET: turn the graph caller on or off.
 * - MAY_SLEEP: the update may reschedule between sites.
 */
enum {
	FTRACE_UPDATE_CALLS		= (1 << 0),
	FTRACE_DISABLE_CALLS		= (1 << 1),
	FTRACE_UPDATE_TRACE_FUNC	= (1 << 2),
	FTRACE_START_FUNC_RET		= (1 << 3),
	FTRACE_STOP_FUNC_RET		= (1 << 4),
	FTRACE_MAY_SLEEP		= (1 << 5),
};

#ifdef CONFIG_DYNAMIC_FTRACE

/*
 * Weak; an arch overrides them to bracket each code update (x86 opens
 * and flushes a batch of text pokes).
 */
void ftrace_arch_code_modify_prepare(void);
void ftrace_arch_code_modify_post_process(void);

/* Which step of patching a site failed, for ftrace_bug()'s report. */
enum ftrace_bug_type {
	FTRACE_BUG_UNKNOWN,
	FTRACE_BUG_INIT,
	FTRACE_BUG_NOP,
	FTRACE_BUG_CALL,
	FTRACE_BUG_UPDATE,
};

extern enum ftrace_bug_type ftrace_bug_type;

/*
 * The arch may point this at the bytes it expected to find at a site,
 * so that ftrace_bug() can show them next to the ones it found.
 */
extern const void *ftrace_expected;

/* ftrace/site_calls.c: report a site that could not be patched; stop. */
void ftrace_bug(int err, struct dyn_ftrace *rec);

struct seq_file;

/* ftrace/records.c: non-zero if [@start, @end] holds a patch site. */
int ftrace_text_reserved(const void *start, const void *end);

/*
 * ftrace/dispatch.c: for unwinders and kallsyms, the ops whose run-time
 * trampoline holds @addr, and whether there is one.
 */
struct ftrace_ops *ftrace_ops_trampoline(unsigned long addr);

bool is_ftrace_trampoline(unsigned long addr);

/*
 * A record's flags hold two things.  The low FTRACE_REF_MAX_SHIFT bits
 * count the registered ops that trace the site (ftrace_rec_count()).
 * The bits above describe the site, and come in pairs where a wish is
 * followed by the fact once the site has been patched to match:
 *
 *   wish        patched        meaning
 *   (count)     ENABLED        the site calls, rather than holding a NOP
 *   REGS        REGS_EN        through the caller that saves pt_regs
 *   TRAMP       TRAMP_EN       to the trampoline of its one ops
 *   DIRECT      DIRECT_EN      straight to a direct ops' address
 *   CALL_OPS    CALL_OPS_EN    passing its one ops (WITH_CALL_OPS)
 *
 * The rest stand alone: IPMODIFY, an ops that may change the ip holds
 * the site; DISABLED, the site may not be touched (its module is not
 * ready, or the function was discarded); TOUCHED, some ops traced it
 * since boot; MODIFIED, an IPMODIFY or direct ops has been on it;
 * BAD, the site did not hold what its record said or could not be
 * patched, and no update touches it again (ftrace_bug()).
 */
enum {
	FTRACE_FL_ENABLED	= (1UL << 31),
	FTRACE_FL_REGS		= (1UL << 30),
	FTRACE_FL_REGS_EN	= (1UL << 29),
	FTRACE_FL_TRAMP		= (1UL << 28),
	FTRACE_FL_TRAMP_EN	= (1UL << 27),
	FTRACE_FL_IPMODIFY	= (1UL << 26),
	FTRACE_FL_DISABLED	= (1UL << 25),
	FTRACE_FL_DIRECT	= (1UL << 24),
	FTRACE_FL_DIRECT_EN	= (1UL << 23),
	FTRACE_FL_CALL_OPS	= (1UL << 22),
	FTRACE_FL_CALL_OPS_EN	= (1UL << 21),
	FTRACE_FL_TOUCHED	= (1UL << 20),
	FTRACE_FL_MODIFIED	= (1UL << 19),
	FTRACE_FL_BAD		= (1UL << 18),
};

#define FTRACE_REF_MAX_SHIFT	18
#define FTRACE_REF_MAX		((1UL << FTRACE_REF_MAX_SHIFT) - 1)

#define ftrace_rec_count(rec)	((rec)->flags & FTRACE_REF_MAX)

/**
 * struct dyn_ftrace - the record of one patch site, in eight bytes
 * @ip_off: where the site (the compiler's mcount/fentry call) is, as its
 *	distance from _text; read it with ftrace_rec_ip()
 * @flags: the count of ops and the FTRACE_FL_* bits
 * @arch: whatever else the arch keeps per site
 *
 * The kernel's text and the modules' lie within 2 GiB of _text on
 * x86-64 (their calls to each other are rel32), so 32 bits hold any
 * site; ftrace_rec_set_ip() refuses one that lies further.
 */
struct dyn_ftrace {
	s32			ip_off;
	u32			flags;
	struct dyn_arch_ftrace	arch;
};

/* The address of @rec's site. */
static inline unsigned long ftrace_rec_ip(const struct dyn_ftrace *rec)
{
	return (unsigned long)_text + (long)rec->ip_off;
}

/* Make @rec name the site at @ip; false (and nothing set) if it cannot. */
static inline bool ftrace_rec_set_ip(struct dyn_ftrace *rec, unsigned long ip)
{
	long off = (long)(ip - (unsigned long)_text);

	if (off != (s32)off)
		return false;
	rec->ip_off = off;
	return true;
}

/**
 * ftrace_set_filter_ip - add a function to an ops' filter, or take it out
 * @ops: the ops; it may be registered already
 * @ip: the function's address, or that of its patch site
 * @remove: non-zero to take @ip out of the filter instead
 * @reset: non-zero to empty the filter first
 *
 * A registered ops is moved to the new filter at once.  The filter keeps
 * memory until ftrace_free_filter().
 *
 * Return: 0 on success; -EINVAL if @ip has no patch site; -ENOENT if
 * @remove and @ip is not in the filter; -ENOMEM; or the error of the
 * code update.
 */
int ftrace_set_filter_ip(struct ftrace_ops *ops, unsigned long ip,
			 int remove, int reset);

/**
 * ftrace_set_filter_ips - ftrace_set_filter_ip() for many functions
 * @ops: the ops
 * @ips: the functions' addresses
 * @cnt: the number of entries in @ips
 * @remove: non-zero to take them out instead
 * @reset: non-zero to empty the filter first
 *
 * All or nothing: on error the filter is left as it was.
 *
 * Return: as ftrace_set_filter_ip().
 */
int ftrace_set_filter_ips(struct ftrace_ops *ops, unsigned long *ips,
			  unsigned int cnt, int remove, int reset);

/**
 * ftrace_set_filter - add the functions a pattern matches to a filter
 * @ops: the ops
 * @buf: a name or glob, as written to set_ftrace_filter ("!" in front
 *	removes), parsed in a copy: a string literal will do.  NULL with
 *	@reset empties the filter.
 * @len: the length of @buf
 * @reset: non-zero to empty the filter first
 *
 * Return: 0 on success; -EINVAL if the pattern matches no function;
 * -ENOMEM; or the error of the code update.
 */
int ftrace_set_filter(struct ftrace_ops *ops, unsigned char *buf,
		      int len, int reset);

/**
 * ftrace_set_notrace - keep the functions a pattern matches untraced
 * @ops: the ops
 * @buf: the pattern, as for ftrace_set_filter()
 * @len: the length of @buf
 * @reset: non-zero to empty the notrace set first
 *
 * Return: as ftrace_set_filter(); -EINVAL also for an IPMODIFY ops,
 * which may not have a notrace set.
 */
int ftrace_set_notrace(struct ftrace_ops *ops, unsigned char *buf,
		       int len, int reset);

/* ftrace_set_filter() and ftrace_set_notrace() on the top-level sets. */
void ftrace_set_global_filter(unsigned char *buf, int len, int reset);
void ftrace_set_global_notrace(unsigned char *buf, int len, int reset);

/**
 * ftrace_free_filter - free an ops' filter and notrace sets
 * @ops: an ops that is not registered
 *
 * Afterwards @ops would trace every function.  Sets it shares with the
 * top level (ftrace_ops_set_global_filter()) are not freed.
 */
void ftrace_free_filter(struct ftrace_ops *ops);

/**
 * ftrace_ops_set_global_filter - make an ops follow the top-level sets
 * @ops: an ops not used yet; for one already initialized this does
 *	nothing
 *
 * @ops then traces what set_ftrace_filter and set_ftrace_notrace of
 * the top tracing directory select, as the function tracer does.
 */
void ftrace_ops_set_global_filter(struct ftrace_ops *ops);

/*
 * What ftrace_update_record() and ftrace_test_record() tell the arch
 * to do with a site:
 *
 * - IGNORE: nothing, it holds what it should.
 * - MAKE_CALL: replace the NOP by a call.
 * - MODIFY_CALL: make the call go somewhere else.
 * - MAKE_NOP: replace the call by a NOP.
 */
enum {
	FTRACE_UPDATE_IGNORE,
	FTRACE_UPDATE_MAKE_CALL,
	FTRACE_UPDATE_MODIFY_CALL,
	FTRACE_UPDATE_MAKE_NOP,
};

/*
 * Modes of the iterator behind the filter files and the listings of
 * records (enabled_functions, touched_functions and the like).
 */
enum {
	FTRACE_ITER_FILTER	= (1 << 0),
	FTRACE_ITER_NOTRACE	= (1 << 1),
	FTRACE_ITER_PRINTALL	= (1 << 2),
	FTRACE_ITER_DO_PROBES	= (1 << 3),
	FTRACE_ITER_PROBE	= (1 << 4),
	FTRACE_ITER_MOD		= (1 << 5),
	FTRACE_ITER_ENABLED	= (1 << 6),
	FTRACE_ITER_TOUCHED	= (1 << 7),
	FTRACE_ITER_ADDRS	= (1 << 8),
};

/* The arch's side of code updates and trampolines; weak defaults. */
void arch_ftrace_update_code(int command);
void arch_ftrace_update_trampoline(struct ftrace_ops *ops);
void *arch_ftrace_trampoline_func(struct ftrace_ops *ops, struct dyn_ftrace *rec);
void arch_ftrace_trampoline_free(struct ftrace_ops *ops);

/* ftrace/records.c: a walk over every record, for the arch. */
struct ftrace_rec_iter;

struct ftrace_rec_iter *ftrace_rec_iter_start(void);
struct ftrace_rec_iter *ftrace_rec_iter_next(struct ftrace_rec_iter *iter);
struct dyn_ftrace *ftrace_rec_iter_record(struct ftrace_rec_iter *iter);

#define for_ftrace_rec_iter(iter)		\
	for (iter = ftrace_rec_iter_start();	\
	     iter;				\
	     iter = ftrace_rec_iter_next(iter))

/*
 * ftrace/site_calls.c and ftrace/code_update.c: what a site should
 * hold, and running a code update.
 */
int ftrace_update_record(struct dyn_ftrace *rec, bool enable);
int ftrace_test_record(struct dyn_ftrace *rec, bool enable);
void ftrace_run_stop_machine(int command);

/**
 * ftrace_location - the patch site of an address
 * @ip: an address in kernel or module text
 *
 * Use it to turn a function's address into the address ftrace knows it
 * by; the two differ where the function starts with something else,
 * such as an ENDBR.
 *
 * Return: the site's address if @ip is inside a site, or is the start
 * of a function that has one; 0 otherwise.
 */
unsigned long ftrace_location(unsigned long ip);

/* The lowest site with a byte in [@start, @end], or 0. */
unsigned long ftrace_location_range(unsigned long start, unsigned long end);

/* The address a site's call is to go to, and where it goes now. */
unsigned long ftrace_get_addr_new(struct dyn_ftrace *rec);
unsigned long ftrace_get_addr_curr(struct dyn_ftrace *rec);

/* What ftrace_caller calls: one ops' callback or the list function. */
extern ftrace_func_t ftrace_trace_function;
struct trace_array;

/* ftrace/tracefs/filter_files.c: the file operations of the filter files. */
int ftrace_regex_open(struct trace_array *tr, struct ftrace_ops *ops, int flag,
		      struct inode *inode, struct file *file);
ssize_t ftrace_filter_write(struct file *file, const char __user *ubuf,
			    size_t cnt, loff_t *ppos);
ssize_t ftrace_notrace_write(struct file *file, const char __user *ubuf,
			     size_t cnt, loff_t *ppos);
int ftrace_regex_release(struct inode *inode, struct file *file);

/* ftrace/filter_api.c: a boot parameter's list of patterns. */
void __init
ftrace_set_early_filter(struct ftrace_ops *ops, char *buf, int enable);

/*
 * The arch's: its caller trampolines and the call instructions in them,
 * and hooks the core runs.  ftrace_dyn_arch_init() and
 * ftrace_replace_code() have weak defaults.
 */
enum {
	/* ftrace_replace_code(): sites may get calls, not only NOPs */
	FTRACE_MODIFY_ENABLE_FL		= (1 << 0),
	/* ftrace_replace_code(): the caller may be rescheduled */
	FTRACE_MODIFY_MAY_SLEEP_FL	= (1 << 1),
};

int ftrace_dyn_arch_init(void);
void ftrace_replace_code(int mod_flags);
int ftrace_update_ftrace_func(ftrace_func_t func);
void ftrace_caller(void);
void ftrace_regs_caller(void);
void ftrace_call(void);
void ftrace_regs_call(void);
void mcount_call(void);

/* ftrace/code_update.c: carry out a command of FTRACE_UPDATE_CALLS etc. */
void ftrace_modify_all_code(int command);

/*
 * The addresses a site may be patched to call; an arch overrides any
 * of them from <asm/ftrace.h>.
 */
#ifndef FTRACE_ADDR
#define FTRACE_ADDR ((unsigned long)ftrace_caller)
#endif

#ifndef FTRACE_GRAPH_ADDR
#define FTRACE_GRAPH_ADDR ((unsigned long)ftrace_graph_caller)
#endif

#ifndef FTRACE_REGS_ADDR
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_REGS
# define FTRACE_REGS_ADDR ((unsigned long)ftrace_regs_caller)
#else
# define FTRACE_REGS_ADDR FTRACE_ADDR
#endif
#endif

/*
 * Where sites traced only by the graph tracer may call to skip the
 * generic caller; 0, the default, means the arch has no such trampoline.
 */
#ifndef FTRACE_GRAPH_TRAMP_ADDR
#define FTRACE_GRAPH_TRAMP_ADDR 0UL
#endif

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
/* The arch's graph caller, and switching it on and off (weak). */
void ftrace_graph_caller(void);
int ftrace_enable_ftrace_graph_caller(void);
int ftrace_disable_ftrace_graph_caller(void);
#else
static inline int ftrace_enable_ftrace_graph_caller(void) { return 0; }
static inline int ftrace_disable_ftrace_graph_caller(void) { return 0; }
#endif

/*
 * The patching hooks below are the arch's.  Each must read the site,
 * compare it with what the record says should be there, and write only
 * if that matches: a mismatch means the records are wrong, and writing
 * could corrupt the kernel's text.  They report:
 *
 *   0        the site was patched
 *   -EFAULT  the site could not be read
 *   -EINVAL  the site did not hold the expected bytes
 *   -EPERM   the site could not be written
 *
 * Any other value is taken as a failure too.
 */

/**
 * ftrace_make_nop - turn a site's call into a NOP
 * @mod: the module being loaded, or NULL after load
 * @rec: the site's record
 * @addr: the address the site calls now
 *
 * Return: 0, or one of the errors listed above.
 */
int ftrace_make_nop(struct module *mod,
		    struct dyn_ftrace *rec, unsigned long addr);

#ifndef ftrace_need_init_nop
/**
 * ftrace_need_init_nop - must ftrace_init_nop() run on new sites?
 *
 * Compilers given -mnop-mcount already emit NOPs; an arch for which
 * that is not enough defines its own test.
 *
 * Return: non-zero if each new site must be turned into a NOP.
 */
#define ftrace_need_init_nop() (!__is_defined(CC_USING_NOP_MCOUNT))
#endif

#ifndef ftrace_init_nop
/**
 * ftrace_init_nop - make a new site hold the NOP ftrace expects
 * @mod: the module being loaded, or NULL for the kernel image
 * @rec: the site's record
 *
 * The site still holds what the compiler emitted.  The default turns
 * the call to MCOUNT_ADDR into a NOP.
 *
 * Return: 0, or one of the errors listed above.
 */
static inline int ftrace_init_nop(struct module *mod, struct dyn_ftrace *rec)
{
	return ftrace_make_nop(mod, rec, MCOUNT_ADDR);
}
#endif

/**
 * ftrace_make_call - turn a site's NOP into a call
 * @rec: the site's record
 * @addr: the address the site is to call
 *
 * Return: 0, or one of the errors listed above.
 */
int ftrace_make_call(struct dyn_ftrace *rec, unsigned long addr);

#if defined(CONFIG_DYNAMIC_FTRACE_WITH_REGS) || \
	defined(CONFIG_DYNAMIC_FTRACE_WITH_CALL_OPS) || \
	defined(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS)
/**
 * ftrace_modify_call - make a site's call go somewhere else
 * @rec: the site's record
 * @old_addr: the address the site calls now
 * @addr: the address it is to call
 *
 * With WITH_CALL_OPS this also runs when only the ops the site passes
 * changes, so @addr may equal @old_addr.
 *
 * Return: 0, or one of the errors listed above.
 */
int ftrace_modify_call(struct dyn_ftrace *rec, unsigned long old_addr,
		       unsigned long addr);
#else
/* Without these options every call goes to FTRACE_ADDR: never asked. */
static inline int ftrace_modify_call(struct dyn_ftrace *rec, unsigned long old_addr,
				     unsigned long addr)
{
	return -EINVAL;
}
#endif

/* sh: the label in mcount.S its graph call is patched to when unused. */
int skip_trace(unsigned long ip);

/* ftrace/modules.c: a module's sites, from load until it is gone. */
void ftrace_module_init(struct module *mod);
void ftrace_module_enable(struct module *mod);
void ftrace_release_mod(struct module *mod);
#else /* CONFIG_DYNAMIC_FTRACE */
static inline int skip_trace(unsigned long ip) { return 0; }
static inline void ftrace_module_init(struct module *mod) { }
static inline void ftrace_module_enable(struct module *mod) { }
static inline void ftrace_release_mod(struct module *mod) { }
static inline int ftrace_text_reserved(const void *start, const void *end)
{
	return 0;
}

static inline unsigned long ftrace_location(unsigned long ip)
{
	return 0;
}

/*
 * Macros rather than inlines: the arguments are never evaluated, so
 * callers may pass things that only exist with dynamic ftrace.
 */
#define ftrace_regex_open(tr, ops, flag, inode, file) ({ -ENODEV; })
#define ftrace_set_early_filter(ops, buf, enable) do { } while (0)
#define ftrace_set_filter_ip(ops, ip, remove, reset) ({ -ENODEV; })
#define ftrace_set_filter_ips(ops, ips, cnt, remove, reset) ({ -ENODEV; })
#define ftrace_set_filter(ops, buf, len, reset) ({ -ENODEV; })
#define ftrace_set_notrace(ops, buf, len, reset) ({ -ENODEV; })
#define ftrace_free_filter(ops) do { } while (0)
#define ftrace_ops_set_global_filter(ops) do { } while (0)

static inline ssize_t ftrace_filter_write(struct file *file, const char __user *ubuf,
					  size_t cnt, loff_t *ppos) { return -ENODEV; }
static inline ssize_t ftrace_notrace_write(struct file *file, const char __user *ubuf,
					   size_t cnt, loff_t *ppos) { return -ENODEV; }
static inline int
ftrace_regex_release(struct inode *inode, struct file *file) { return -ENODEV; }

static inline bool is_ftrace_trampoline(unsigned long addr)
{
	return false;
}
#endif /* CONFIG_DYNAMIC_FTRACE */

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
/*
 * An arch that hooks returns from its function tracer callback defines
 * ftrace_graph_func.  Without it the graph ops is a stub and the graph
 * caller runs for every traced function, so the graph code cannot call
 * one fgraph_ops directly: it must test each ops' sets.
 */
#ifndef ftrace_graph_func
# define ftrace_graph_func ftrace_stub
# define FTRACE_OPS_GRAPH_STUB FTRACE_OPS_FL_STUB
# define FGRAPH_NO_DIRECT	1
#else
# define FTRACE_OPS_GRAPH_STUB	0
# define FGRAPH_NO_DIRECT	0
#endif
#endif /* CONFIG_FUNCTION_GRAPH_TRACER */

/* ftrace/switches.c: stop the function hooks for good, without locks. */
void ftrace_kill(void);

/* For kexec: clear ftrace_enabled without the sysctl's code update. */
static inline void tracer_disable(void)
{
#ifdef CONFIG_FUNCTION_TRACER
	ftrace_enabled = 0;
#endif
}

/*
 * Turn ftrace_enabled off and back on without taking the sysctl's lock;
 * the caller must make sure nothing else changes it in between.
 */
static inline int __ftrace_enabled_save(void)
{
#ifdef CONFIG_FUNCTION_TRACER
	int saved_ftrace_enabled = ftrace_enabled;

	ftrace_enabled = 0;
	return saved_ftrace_enabled;
#else
	return 0;
#endif
}

static inline void __ftrace_enabled_restore(int enabled)
{
#ifdef CONFIG_FUNCTION_TRACER
	ftrace_enabled = enabled;
#endif
}

/* The caller's return address; an arch may have a cheaper way. */
#ifndef ftrace_return_address0
# define ftrace_return_address0 __builtin_return_address(0)
#endif

/*
 * Return addresses further up the stack; without frame pointers the
 * compiler cannot find them reliably, so report 0.
 */
#ifndef ftrace_return_address
# ifdef CONFIG_FRAME_POINTER
#  define ftrace_return_address(n) __builtin_return_address(n)
# else
#  define ftrace_return_address(n) 0UL
# endif
#endif

#define CALLER_ADDR0 ((unsigned long)ftrace_return_address0)
#define CALLER_ADDR1 ((unsigned long)ftrace_return_address(1))
#define CALLER_ADDR2 ((unsigned long)ftrace_return_address(2))
#define CALLER_ADDR3 ((unsigned long)ftrace_return_address(3))
#define CALLER_ADDR4 ((unsigned long)ftrace_return_address(4))
#define CALLER_ADDR5 ((unsigned long)ftrace_return_address(5))
#define CALLER_ADDR6 ((unsigned long)ftrace_return_address(6))

/*
 * The first caller outside the lock functions, up to two frames up:
 * the interesting address for preempt and irq-off tracing.
 */
static __always_inline unsigned long get_lock_parent_ip(void)
{
	unsigned long addr = CALLER_ADDR0;

	if (!in_lock_functions(addr))
		return addr;
	addr = CALLER_ADDR1;
	if (!in_lock_functions(addr))
		return addr;
	return CALLER_ADDR2;
}

#ifdef CONFIG_TRACE_PREEMPT_TOGGLE
void trace_preempt_on(unsigned long a0, unsigned long a1);
void trace_preempt_off(unsigned long a0, unsigned long a1);
#else
/*
 * Macros, not empty inlines: on some arches the CALLER_ADDR arguments
 * would still generate code.
 */
# define trace_preempt_on(a0, a1) do { } while (0)
# define trace_preempt_off(a0, a1) do { } while (0)
#endif

/* ftrace/core.c: the kernel's records, from its table of call sites. */
#ifdef CONFIG_FTRACE_MCOUNT_RECORD
void ftrace_init(void);
#ifdef CC_USING_PATCHABLE_FUNCTION_ENTRY
#define FTRACE_CALLSITE_SECTION	"__patchable_function_entries"
#else
#define FTRACE_CALLSITE_SECTION	"__mcount_loc"
#endif
#else
static inline void ftrace_init(void) { }
#endif

/*
 * The two records the graph tracer writes for a call.  Both are
 * __packed so that no tail padding ends up in the ring buffer.
 */

/**
 * struct ftrace_graph_ent - the entry of a traced call
 * @func: the function called
 * @depth: its depth in the task's call graph
 */
struct ftrace_graph_ent {
	unsigned long func;
	int depth;
} __packed;

/**
 * struct ftrace_graph_ret - the return of a traced call
 * @func: the function returning
 * @retval: its return value (CONFIG_FUNCTION_GRAPH_RETVAL)
 * @depth: its depth in the task's call graph
 * @overrun: calls the task could not record, its shadow stack full
 * @calltime: when it was called
 * @rettime: when it returned
 */
struct ftrace_graph_ret {
	unsigned long func;
#ifdef CONFIG_FUNCTION_GRAPH_RETVAL
	unsigned long retval;
#endif
	int depth;
	unsigned int overrun;
	unsigned long long calltime;
	unsigned long long rettime;
} __packed;

struct fgraph_ops;

/*
 * An fgraph_ops' callbacks: on return, and on entry.  Both get the
 * registers of the hooked call: its arguments on entry; on return its
 * return value and, as the instruction pointer, where it returns to.
 * The entry path may pass NULL where the arch has no registers to give.
 */
typedef void (*trace_func_graph_ret_t)(struct ftrace_graph_ret *,
				       struct fgraph_ops *,
				       struct ftrace_regs *);
typedef int (*trace_func_graph_ent_t)(struct ftrace_graph_ent *,
				      struct fgraph_ops *,
				      struct ftrace_regs *);

/* ftrace/fgraph/users.c: the entry callback that declines every call. */
int ftrace_graph_entry_stub(struct ftrace_graph_ent *trace,
			    struct fgraph_ops *gops, struct ftrace_regs *fregs);
/* ftrace/dispatch.c: does @ops follow a pid filter that has pids in it? */
bool ftrace_pids_enabled(struct ftrace_ops *ops);

#ifdef CONFIG_FUNCTION_GRAPH_TRACER

/**
 * struct fgraph_ops - callbacks for the entry and return of functions
 * @entryfunc: called on entry; return non-zero to have @retfunc called
 *	when this call returns, 0 to leave it alone
 * @retfunc: called on return of the calls @entryfunc accepted
 * @declinefunc: optional; true while @entryfunc would decline any call.
 *	Asked only while this is the sole user, before a call takes a
 *	frame, under the entry path's recursion lock: it must be cheap and
 *	may be racy (a call it lets through still meets @entryfunc)
 * @decline_when: optional, with @declinefunc: a word the entry path
 *	reads first, @declinefunc being asked only while it is non-zero
 *	(when NULL, on every call)
 * @ops: selects the functions; set its filter with ftrace_set_filter*()
 *	on &@ops before registering
 * @private: the owner's
 * @saved_func: @entryfunc as registered, while a wrapper runs instead
 * @idx: the slot the ops holds while registered; see
 *	fgraph_reserve_data()
 */
struct fgraph_ops {
	trace_func_graph_ent_t		entryfunc;
	trace_func_graph_ret_t		retfunc;
	bool				(*declinefunc)(struct fgraph_ops *gops);
	const int			*decline_when;
	struct ftrace_ops		ops;
	void				*private;
	trace_func_graph_ent_t		saved_func;
	int				idx;
};

/*
 * ftrace/fgraph/frames.c: per-call storage on the shadow stack, reserved by an
 * entryfunc and read back by the matching retfunc.
 */
void *fgraph_reserve_data(int idx, int size_bytes);
void *fgraph_retrieve_data(int idx, int *size_bytes);

/**
 * struct ftrace_ret_stack - a call's frame on a task's shadow stack
 * @ret: the return address the graph tracer replaced
 * @func: the function called
 * @calltime: when it was called
 * @subtime: time spent in its children (CONFIG_FUNCTION_PROFILER)
 * @fp: the frame pointer at entry, checked on return
 *	(HAVE_FUNCTION_GRAPH_FP_TEST)
 * @retp: where on the stack @ret was found
 */
struct ftrace_ret_stack {
	unsigned long ret;
	unsigned long func;
	unsigned long long calltime;
#ifdef CONFIG_FUNCTION_PROFILER
	unsigned long long subtime;
#endif
#ifdef HAVE_FUNCTION_GRAPH_FP_TEST
	unsigned long fp;
#endif
	unsigned long *retp;
};

/*
 * A call as the graph's entry callbacks see it: they are given @ent, and
 * fgraph_call_frame() finds the call's frame from it.
 */
struct fgraph_entry {
	struct ftrace_graph_ent ent;
	struct ftrace_ret_stack *frame;
};

/* For an entry callback: the frame of the call (its ret, its calltime). */
static inline struct ftrace_ret_stack *
fgraph_call_frame(struct ftrace_graph_ent *trace)
{
	return container_of(trace, struct fgraph_entry, ent)->frame;
}

/*
 * A frame's calltime with this bit set was given by fgraph_time_call_own()
 * alone: its users stamp their return events themselves, and the return
 * path reads no clock for it (rettime 0).  A user that needs rettime
 * clears the bit.  Times are far below it.
 */
#define FGRAPH_CALLTIME_OWN	BIT_ULL(63)

/**
 * fgraph_time_call_own - time the call at @now, its return by the user
 * @trace: the call, as the entry path gave it to the callback
 * @now: trace_clock_local()'s time, read by this entry callback
 *
 * fgraph_time_call_at() for a user whose return callback reads the
 * return's time itself, as a ring buffer's event stamp: unless another
 * user asks for the call to be timed too, the return callbacks get
 * calltime and a rettime of 0, and the return path reads no clock.
 * Inline: the graph tracer times every call it traces.
 */
static __always_inline void fgraph_time_call_own(struct ftrace_graph_ent *trace,
						 u64 now)
{
	struct ftrace_ret_stack *frame = fgraph_call_frame(trace);

	if (!frame->calltime)
		frame->calltime = now | FGRAPH_CALLTIME_OWN;
}

/*
 * The arch's assembly that hooked returns land in; it calls
 * ftrace_return_to_handler() and goes on to the real return address.
 */
void return_to_handler(void);

/*
 * ftrace/fgraph/calls.c: the arch calls this on entry to a traced
 * function, with its registers if it has them.  0 means hook the
 * return: replace *@retp with return_to_handler.
 */
int function_graph_enter_regs(unsigned long ret, unsigned long func,
			      unsigned long frame_pointer, unsigned long *retp,
			      struct ftrace_regs *fregs);

/*
 * The same, for an arch whose return address is the word at @retp: if a
 * user takes the call, *@retp is replaced with return_to_handler here.
 */
void function_graph_hook_return(unsigned long func, unsigned long *retp,
				struct ftrace_regs *fregs);

/* The same, for an arch that has no registers to give the callbacks. */
static inline int function_graph_enter(unsigned long ret, unsigned long func,
				       unsigned long frame_pointer,
				       unsigned long *retp)
{
	return function_graph_enter_regs(ret, func, frame_pointer, retp, NULL);
}

/* ftrace/fgraph/frames.c: for unwinders, the shadow stack and the real return address. */
struct ftrace_ret_stack *
ftrace_graph_get_ret_stack(struct task_struct *task, int skip);

unsigned long ftrace_graph_ret_addr(struct task_struct *task, int *idx,
				    unsigned long ret, unsigned long *retp);

/*
 * A task's shadow stack is a page of words: frames grow up from word 0,
 * and the top FGRAPH_SLOTS words are the task variables, one a slot.
 */
#define FGRAPH_SLOTS		16
#define FGRAPH_VARS		(PAGE_SIZE / sizeof(unsigned long) - FGRAPH_SLOTS)

/**
 * fgraph_get_task_var - a graph user's variable in the current task
 * @gops: the registered user
 *
 * One word per task and user, zero when the user registers; for the
 * user's callbacks, which run in the task (its stack is there while a
 * callback runs).  Inline: the graph tracer reads it on every call.
 *
 * Return: the word.
 */
static __always_inline unsigned long *fgraph_get_task_var(struct fgraph_ops *gops)
{
	return &current->ret_stack[FGRAPH_VARS + gops->idx];
}

/*
 * For functions the graph tracer must not hook.  Builds without the
 * graph tracer leave them to the function tracer.
 */
#define __notrace_funcgraph		notrace

#define FTRACE_RETFUNC_DEPTH 50
#define FTRACE_RETSTACK_ALLOC_SIZE 32

/**
 * register_ftrace_graph - start calling an fgraph_ops' callbacks
 * @ops: the fgraph_ops, with @entryfunc and @retfunc set and, if it is
 *	not to trace every function, a filter on @ops->ops
 *
 * Return: 0 on success; -ENOSPC if every slot for fgraph_ops is taken;
 * or a negative errno from setting up the shadow stacks or starting
 * the ops.
 */
int register_ftrace_graph(struct fgraph_ops *ops);

/**
 * unregister_ftrace_graph - stop calling an fgraph_ops' callbacks
 * @ops: an fgraph_ops registered with register_ftrace_graph()
 */
void unregister_ftrace_graph(struct fgraph_ops *ops);

/* ftrace/fgraph/users.c: set once by ftrace_graph_stop(), never cleared. */
DECLARE_STATIC_KEY_FALSE(kill_ftrace_graph);

/**
 * ftrace_graph_is_dead - has the graph tracer been stopped for good?
 *
 * The graph tracer's hot paths test this to do no more harm after
 * ftrace_graph_stop() reported a fatal error.
 *
 * Return: true once ftrace_graph_stop() has run.
 */
static __always_inline bool ftrace_graph_is_dead(void)
{
	return static_branch_unlikely(&kill_ftrace_graph);
}

void ftrace_graph_stop(void);

/* Read by the mcount code of older arches: is a graph tracer on? */
extern trace_func_graph_ret_t ftrace_graph_return;
extern trace_func_graph_ent_t ftrace_graph_entry;

/* ftrace/fgraph/stacks.c: each task's shadow stack, from fork (or boot) to exit. */
void ftrace_graph_init_task(struct task_struct *t);
void ftrace_graph_exit_task(struct task_struct *t);
void ftrace_graph_init_idle_task(struct task_struct *t, int cpu);

/* Nestable: while paused, the arch hooks none of current's returns. */
static inline void pause_graph_tracing(void)
{
	atomic_inc(&current->tracing_graph_pause);
}

static inline void unpause_graph_tracing(void)
{
	atomic_dec(&current->tracing_graph_pause);
}
#else /* !CONFIG_FUNCTION_GRAPH_TRACER */

#define __notrace_funcgraph

static inline void ftrace_graph_init_task(struct task_struct *t) { }
static inline void ftrace_graph_exit_task(struct task_struct *t) { }
static inline void ftrace_graph_init_idle_task(struct task_struct *t, int cpu) { }

/* Macros: struct fgraph_ops is not defined here, nor @ops evaluated. */
#define register_ftrace_graph(ops) ({ -1; })
#define unregister_ftrace_graph(ops) do { } while (0)

/* Nothing replaced return addresses, so each is the real one. */
static inline unsigned long
ftrace_graph_ret_addr(struct task_struct *task, int *idx, unsigned long ret,
		      unsigned long *retp)
{
	return ret;
}

static inline void pause_graph_tracing(void) { }
static inline void unpause_graph_tracing(void) { }
#endif /* CONFIG_FUNCTION_GRAPH_TRACER */

#ifdef CONFIG_TRACING
enum ftrace_dump_mode;

/* trace.c: the ftrace_dump_on_oops= and tp_printk switches. */
#define MAX_TRACER_SIZE		100
extern char ftrace_dump_on_oops[];
int ftrace_dump_on_oops_enabled(void);
extern int tracepoint_printk;

/* trace.c: traceoff_on_warning=, acted on by __warn(). */
void disable_trace_on_warning(void);
extern int __disable_trace_on_warning;

int tracepoint_printk_sysctl(const struct ctl_table *table, int write,
			     void *buffer, size_t *lenp, loff_t *ppos);

#else /* CONFIG_TRACING */
static inline void disable_trace_on_warning(void) { }
#endif /* CONFIG_TRACING */

#ifdef CONFIG_FTRACE_SYSCALLS

/* The arch's syscall table, for the syscall trace events. */
unsigned long arch_syscall_addr(int nr);

#endif /* CONFIG_FTRACE_SYSCALLS */

#endif /* _LINUX_FTRACE_H */
