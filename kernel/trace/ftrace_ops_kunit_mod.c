// SPDX-License-Identifier: GPL-2.0
/*
 * Tracee module of the ftrace_ops KUnit suite (see ftrace_ops_kunit.c,
 * suite "ftrace_ops_module").  The suite loads and unloads this module
 * while an ftrace_ops filters on fokt_mod_tracee() by name.  Built with
 * $(CC_FLAGS_FTRACE) so that the function has an ftrace record.
 */
#include <linux/compiler.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/module.h>

int fokt_mod_tracee(int x);

noinline int fokt_mod_tracee(int x)
{
	barrier();
	return x * 13 + 5;
}
EXPORT_SYMBOL_GPL(fokt_mod_tracee);

static int __init fokt_mod_init(void)
{
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
