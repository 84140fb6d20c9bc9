/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Functions whose __fentry__ sites the x86 backend's KUnit suite
 * (ftrace_kunit.c) rewrites or hooks. They live in
 * ftrace_kunit_tracee.c, which unlike ftrace.c is instrumented.
 */
#ifndef _X86_KERNEL_FTRACE_KUNIT_H
#define _X86_KERNEL_FTRACE_KUNIT_H

#include <linux/types.h>

int fxkt_site(int x);
int fxkt_batch_a(int x);
int fxkt_batch_b(int x);
int fxkt_batch_c(int x);
int fxkt_tramp(int x);
int fxkt_bad(int x);
int fxkt_good(int x);
bool fxkt_irqs_off(void);
int fxkt_moved(int x);

#endif /* _X86_KERNEL_FTRACE_KUNIT_H */
