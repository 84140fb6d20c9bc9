/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86 definitions for the function hooks: the __fentry__ site, the
 * register frame that hooks receive, and the syscall-name matching of
 * the syscall tracepoints.
 */
#ifndef _ASM_X86_FTRACE_H
#define _ASM_X86_FTRACE_H

#include <asm/asm.h>
#include <asm/ptrace.h>

#ifdef CONFIG_FUNCTION_TRACER
#ifndef CC_USING_FENTRY
# error The function hooks need a compiler with -mfentry
#endif

/* Every traced function starts with a 5-byte "call __fentry__". */
#define MCOUNT_ADDR		((unsigned long)(__fentry__))
#define MCOUNT_INSN_SIZE	5

#ifdef CONFIG_HAVE_FENTRY
# include <asm/ibt.h>
/* With IBT the call follows the function's ENDBR64. */
# define FTRACE_MCOUNT_MAX_OFFSET	ENDBR_INSN_SIZE
#endif

#ifdef CONFIG_DYNAMIC_FTRACE
#define ARCH_SUPPORTS_FTRACE_OPS 1
#endif

/*
 * The guard of RECURSION and RCU ops (see ftrace_ops_guard), spelt out
 * for the guarded template: NMI_MASK | HARDIRQ_MASK | SOFTIRQ_OFFSET,
 * and a value no context has.
 */
#define FTRACE_GUARD_CTX	0x00ff0100
#define FTRACE_GUARD_IDLE	1

#ifndef __ASSEMBLY__
void __fentry__(void);

#ifdef CONFIG_DYNAMIC_FTRACE
struct ftrace_ops;
/* The template an ops' trampoline is a copy of, for the ORC unwinder. */
unsigned long arch_ftrace_tramp_template(struct ftrace_ops *ops);

#ifdef CONFIG_X86_64
struct dyn_ftrace;
/*
 * Where a site's call goes now, for sites that share a trampoline (a
 * chain: x86-32 builds none).
 */
unsigned long arch_ftrace_site_target(struct dyn_ftrace *rec);
#define arch_ftrace_site_target arch_ftrace_site_target
#endif
#endif

/* The __mcount_loc entries already point at the call itself. */
static inline unsigned long ftrace_call_adjust(unsigned long addr)
{
	return addr;
}

#include <linux/ftrace_regs.h>

#define ftrace_regs_set_instruction_pointer ftrace_regs_set_instruction_pointer
/*
 * The shared trampolines, and those of IPMODIFY, OVERRIDE and SAVE_REGS
 * ops, return to whatever regs.ip holds after the hooks.  x86-32's
 * return_to_handler leaves it 0 for the function graph to set.
 */
static __always_inline void
ftrace_regs_set_instruction_pointer(struct ftrace_regs *fregs,
				    unsigned long ip)
{
	arch_ftrace_regs(fregs)->regs.ip = ip;
}

#ifdef CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS

/*
 * struct ftrace_regs is a struct pt_regs here. The trampolines fill all
 * of it only for SAVE_REGS ops, and mark that by a non-zero cs.
 */
static __always_inline struct pt_regs *
arch_ftrace_get_regs(struct ftrace_regs *fregs)
{
	struct pt_regs *regs = &arch_ftrace_regs(fregs)->regs;

	return regs->cs ? regs : NULL;
}

#define arch_ftrace_partial_regs arch_ftrace_partial_regs
/* Make a partial frame pass for a kernel-mode pt_regs. */
static __always_inline void arch_ftrace_partial_regs(struct pt_regs *regs)
{
	regs->flags |= X86_EFLAGS_FIXED;
	regs->cs = __KERNEL_CS;
}

#define arch_ftrace_fill_perf_regs arch_ftrace_fill_perf_regs
/* What perf needs to unwind from a hook: ip and sp, in kernel mode. */
static __always_inline void
arch_ftrace_fill_perf_regs(struct ftrace_regs *fregs, struct pt_regs *regs)
{
	struct pt_regs *src = &arch_ftrace_regs(fregs)->regs;

	regs->ip = src->ip;
	regs->sp = src->sp;
	regs->cs = __KERNEL_CS;
	regs->flags = 0;
}

struct ftrace_ops;
#define ftrace_graph_func ftrace_graph_func
void ftrace_graph_func(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs);
#else
#define FTRACE_GRAPH_TRAMP_ADDR FTRACE_GRAPH_ADDR
#endif

#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
/*
 * A hook asks ftrace_regs_caller to go on into a direct trampoline by
 * leaving its address in orig_ax, which is zero otherwise.
 */
static inline void
__arch_ftrace_set_direct_caller(struct pt_regs *regs, unsigned long addr)
{
	regs->orig_ax = addr;
}

#define arch_ftrace_set_direct_caller(fregs, addr) \
	__arch_ftrace_set_direct_caller(&arch_ftrace_regs(fregs)->regs, addr)
#endif /* CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS */

#ifdef CONFIG_DYNAMIC_FTRACE
/* A site needs nothing beyond the core's record. */
struct dyn_arch_ftrace {
};
#endif

/*
 * May a hook take the return of a call here?  A CPU coming back from
 * suspend runs hooked functions in real mode before its stack is a
 * kernel virtual address (a negative one), and no return may be taken
 * there.
 */
#define arch_ftrace_return_hookable()	((long)current_stack_pointer < 0)

#endif /* !__ASSEMBLY__ */
#endif /* CONFIG_FUNCTION_TRACER */

#ifndef __ASSEMBLY__

void prepare_ftrace_return(unsigned long ip, unsigned long *parent,
			   unsigned long frame_pointer);

/* Only x86-64 builds trampolines, which end up read-only. */
#if defined(CONFIG_FUNCTION_TRACER) && defined(CONFIG_DYNAMIC_FTRACE) && \
	defined(CONFIG_X86_64)
void set_ftrace_ops_ro(void);
#else
static inline void set_ftrace_ops_ro(void) { }
#endif

/*
 * Syscall symbols carry an ABI prefix ("__x64_sys_", "__ia32_sys_",
 * "__do_sys_") where the syscall metadata has plain "sys_": compare
 * what follows the prefixes.
 */
#define ARCH_HAS_SYSCALL_MATCH_SYM_NAME
static inline bool __syscall_sym_is(const char *sym, const char *prefix,
				    const char *rest)
{
	size_t len = strlen(prefix);

	return !strncmp(sym, prefix, len) && !strcmp(sym + len, rest);
}

static inline bool arch_syscall_match_sym_name(const char *sym,
					       const char *name)
{
	const char *rest = name + 3;	/* after "sys" */

	return !strcmp(sym + 3, rest) ||
	       __syscall_sym_is(sym, "__x64_sys", rest) ||
	       __syscall_sym_is(sym, "__ia32_sys", rest) ||
	       __syscall_sym_is(sym, "__do_sys", rest);
}

#ifndef COMPILE_OFFSETS
#if defined(CONFIG_FTRACE_SYSCALLS) && defined(CONFIG_IA32_EMULATION)
#include <linux/compat.h>

/*
 * 32-bit syscalls have their own numbers, which the syscall tracepoints
 * would report as the wrong 64-bit syscalls: they are not traced.
 */
#define ARCH_TRACE_IGNORE_COMPAT_SYSCALLS 1
static inline bool arch_trace_is_compat_syscall(struct pt_regs *regs)
{
	return in_32bit_syscall();
}
#endif /* CONFIG_FTRACE_SYSCALLS && CONFIG_IA32_EMULATION */
#endif /* !COMPILE_OFFSETS */
#endif /* !__ASSEMBLY__ */

#endif /* _ASM_X86_FTRACE_H */
