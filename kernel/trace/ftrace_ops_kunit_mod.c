// SPDX-License-Identifier: GPL-2.0
/*
 * Tracee module of the ftrace KUnit suites (ftrace_ops_module in
 * ftrace_ops_kunit.c, ftrace_modules in ftrace_modules_kunit.c).  They
 * load and unload this module while ftrace_ops filter on
 * fokt_mod_tracee() or trace everything.  Built with $(CC_FLAGS_FTRACE)
 * so that its functions, the init function too, have ftrace records.
 */
#include <linux/compiler.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/module.h>

#include "ftrace_ops_kunit.h"

noinline int fokt_mod_tracee(int x)
{
	barrier();
	return x * 13 + 5;
}
EXPORT_SYMBOL_GPL(fokt_mod_tracee);

/*
 * Where the init function was: its text is freed once it returned, and
 * the ftrace_modules suite checks that the name can still be found.
 */
static unsigned long fokt_init_addr;

noinline unsigned long fokt_mod_init_addr(void)
{
	return READ_ONCE(fokt_init_addr);
}
EXPORT_SYMBOL_GPL(fokt_mod_init_addr);

static int __init fokt_mod_init(void)
{
	WRITE_ONCE(fokt_init_addr, (unsigned long)fokt_mod_init);
	return 0;
}
module_init(fokt_mod_init);

/* An exit function makes the module unloadable without forcing. */
static void __exit fokt_mod_exit(void)
{
}
module_exit(fokt_mod_exit);

MODULE_DESCRIPTION("Tracee module for the ftrace_ops KUnit suite");
MODULE_LICENSE("GPL");
