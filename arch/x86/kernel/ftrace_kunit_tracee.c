// SPDX-License-Identifier: GPL-2.0
/*
 * Tracees of the x86 backend's KUnit suite (ftrace_kunit.c).
 *
 * This file is instrumented like the rest of arch/x86/kernel (ftrace.c
 * is not), so each function starts with a __fentry__ site that has an
 * ftrace record. Each is noinline and has a body of its own, so that no
 * call is inlined and identical-code folding cannot merge two of them.
 *
 * Nothing but the suite calls them, and it calls only fxkt_tramp(),
 * fxkt_bad(), fxkt_good(), fxkt_irqs_off() and fxkt_moved(): it writes
 * CALLs into the other sites behind the core's back, which is safe only
 * while nothing runs them.
 */
#include <linux/compiler.h>
#include <linux/irqflags.h>

#include "ftrace_kunit.h"

noinline int fxkt_site(int x)
{
	barrier();
	return x * 3 + 5;
}

noinline int fxkt_batch_a(int x)
{
	barrier();
	return x * 7 + 11;
}

noinline int fxkt_batch_b(int x)
{
	barrier();
	return x * 13 + 17;
}

noinline int fxkt_batch_c(int x)
{
	barrier();
	return x * 19 + 23;
}

noinline int fxkt_tramp(int x)
{
	barrier();
	return x * 29 + 31;
}

noinline int fxkt_bad(int x)
{
	barrier();
	return x * 37 + 41;
}

noinline int fxkt_good(int x)
{
	barrier();
	return x * 43 + 47;
}

/* Whether it runs with interrupts off, whatever its caller had. */
noinline bool fxkt_irqs_off(void)
{
	barrier();
	return irqs_disabled();
}

/*
 * Where the cases that move the ip send fxkt_tramp()'s calls: the same
 * signature, and no ops of the suite hooks it, so the moved call runs
 * it once, untraced, and returns to fxkt_tramp()'s caller.
 */
noinline int fxkt_moved(int x)
{
	barrier();
	return x * 53 + 59;
}
