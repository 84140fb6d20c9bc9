// SPDX-License-Identifier: GPL-2.0
/*
 * Tracees of the ftrace_ops KUnit suite (see ops_kunit.c).
 *
 * This object is built with $(CC_FLAGS_FTRACE), so each function below
 * starts with a call to __fentry__ and gets an ftrace record.  The
 * functions are kept out of the suite's translation unit so that no
 * caller can inline, clone or constant-fold them; each one is noinline,
 * has a body no other function shares (so identical-code folding cannot
 * merge two of them) and a compiler barrier (so it is never treated as
 * a pure function whose calls may be dropped).
 */
#include <linux/compiler.h>

#include "ops_kunit.h"

unsigned long fokt_args_ret;

noinline int fokt_basic(int x)
{
	barrier();
	return x * 3 + 11;
}

noinline int fokt_args(int x)
{
	WRITE_ONCE(fokt_args_ret,
		   (unsigned long)__builtin_return_address(0));
	return x * 5 + 18;
}

noinline int fokt_pfx_one(int x)
{
	barrier();
	return x * 7 + 25;
}

noinline int fokt_pfx_two(int x)
{
	barrier();
	return x * 9 + 32;
}

noinline int fokt_one_sfxq(int x)
{
	barrier();
	return x * 11 + 39;
}

noinline int fokt_two_sfxq(int x)
{
	barrier();
	return x * 13 + 46;
}

noinline int fokt_a_midq_one(int x)
{
	barrier();
	return x * 15 + 53;
}

noinline int fokt_b_midq_two(int x)
{
	barrier();
	return x * 17 + 60;
}

noinline int fokt_sw_a(int x)
{
	barrier();
	return x * 19 + 67;
}

noinline int fokt_sw_b(int x)
{
	barrier();
	return x * 21 + 74;
}

noinline int fokt_sw_c(int x)
{
	barrier();
	return x * 23 + 81;
}

noinline int fokt_ip_a(int x)
{
	barrier();
	return x * 25 + 88;
}

noinline int fokt_ip_b(int x)
{
	barrier();
	return x * 27 + 95;
}

noinline int fokt_ip_c(int x)
{
	barrier();
	return x * 29 + 102;
}

noinline int fokt_multi(int x)
{
	barrier();
	return x * 31 + 109;
}

noinline int fokt_multi_x(int x)
{
	barrier();
	return x * 33 + 116;
}

noinline int fokt_multi_y(int x)
{
	barrier();
	return x * 35 + 123;
}

noinline int fokt_ipmod_orig(int x)
{
	barrier();
	return x + 1;
}

noinline int fokt_ipmod_new(int x)
{
	barrier();
	return x * 100 + 7;
}

noinline int fokt_recurse(int x)
{
	barrier();
	return x * 41 + 144;
}

noinline int fokt_trylock(int x)
{
	barrier();
	return x * 43 + 151;
}

noinline int fokt_perm(int x)
{
	barrier();
	return x * 45 + 158;
}

noinline long fokt_regs6(long a, long b, long c, long d, long e, long f)
{
	barrier();
	return a ^ (b << 1) ^ (c << 2) ^ (d << 3) ^ (e << 4) ^ (f << 5);
}
