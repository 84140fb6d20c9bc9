// SPDX-License-Identifier: GPL-2.0
/*
 * Tracee module of the ftrace KUnit suites (ftrace_ops_module in
 * ops_kunit.c, ftrace_modules in modules_kunit.c).  They
 * load and unload this module while ftrace_ops filter on
 * fokt_mod_tracee() or trace everything.  Built with $(CC_FLAGS_FTRACE)
 * so that its functions, the init function too, have ftrace records.
 */
#include <linux/compiler.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/module.h>

#include "ops_kunit.h"

noinline int fokt_mod_tracee(int x)
{
	barrier();
	return x * 13 + 5;
}
EXPORT_SYMBOL_GPL(fokt_mod_tracee);

/*
 * Where the init functions were: their text is freed once init
 * returned, and the ftrace_modules suite checks that their names can
 * still be found.  Three of them, so that a lookup has some to choose
 * from.
 */
#define FOKT_INITS	3
static unsigned long fokt_init_addrs[FOKT_INITS];

noinline unsigned long fokt_mod_init_addr(int i)
{
	return i >= 0 && i < FOKT_INITS ? READ_ONCE(fokt_init_addrs[i]) : 0;
}
EXPORT_SYMBOL_GPL(fokt_mod_init_addr);

static noinline int __init fokt_mod_init_b(int x)
{
	WRITE_ONCE(fokt_init_addrs[1], (unsigned long)fokt_mod_init_b);
	return x + 1;
}

static noinline int __init fokt_mod_init_c(int x)
{
	WRITE_ONCE(fokt_init_addrs[2], (unsigned long)fokt_mod_init_c);
	return x + 2;
}

static int __init fokt_mod_init(void)
{
	WRITE_ONCE(fokt_init_addrs[0], (unsigned long)fokt_mod_init);
	return fokt_mod_init_b(0) + fokt_mod_init_c(0) == 3 ? 0 : -EINVAL;
}
module_init(fokt_mod_init);

/* An exit function makes the module unloadable without forcing. */
static void __exit fokt_mod_exit(void)
{
}
module_exit(fokt_mod_exit);

MODULE_DESCRIPTION("Tracee module for the ftrace_ops KUnit suite");
MODULE_LICENSE("GPL");
