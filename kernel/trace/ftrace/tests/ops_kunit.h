/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Functions traced by the ftrace_ops KUnit suite.
 *
 * They live in ops_kunit_tracee.c, which (unlike the rest of
 * kernel/trace) is built with the ftrace instrumentation flags.  Every
 * name starts with "fokt_" so that the suite's filter globs match
 * nothing else in the kernel.
 */
#ifndef _KERNEL_TRACE_FTRACE_OPS_KUNIT_H
#define _KERNEL_TRACE_FTRACE_OPS_KUNIT_H

int fokt_basic(int x);
int fokt_args(int x);
int fokt_pfx_one(int x);
int fokt_pfx_two(int x);
int fokt_one_sfxq(int x);
int fokt_two_sfxq(int x);
int fokt_a_midq_one(int x);
int fokt_b_midq_two(int x);
int fokt_sw_a(int x);
int fokt_sw_b(int x);
int fokt_sw_c(int x);
int fokt_ip_a(int x);
int fokt_ip_b(int x);
int fokt_ip_c(int x);
int fokt_multi(int x);
int fokt_multi_x(int x);
int fokt_multi_y(int x);
int fokt_ipmod_orig(int x);
int fokt_ipmod_new(int x);
int fokt_recurse(int x);
int fokt_trylock(int x);
int fokt_perm(int x);
long fokt_regs6(long a, long b, long c, long d, long e, long f);

/* In ftrace_ops_kunit_mod.ko, reached through __symbol_get(). */
int fokt_mod_tracee(int x);
unsigned long fokt_mod_init_addr(int i);

/* Return address seen by the last call of fokt_args(). */
extern unsigned long fokt_args_ret;

#endif /* _KERNEL_TRACE_FTRACE_OPS_KUNIT_H */
