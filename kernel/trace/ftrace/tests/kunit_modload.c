// SPDX-License-Identifier: GPL-2.0
/*
 * Load and unload ftrace_ops_kunit_mod.ko for the KUnit suites that
 * follow a module's patch sites (ftrace_ops_module, ftrace_modules).
 *
 * A built-in suite cannot call the module loader directly with a file
 * it does not have, so it runs /bin/sh through the usermode helper:
 * modprobe first, then insmod of the installed file.  A boot without
 * a shell or without the module installed skips the case instead of
 * failing it.
 */
#include <linux/init.h>
#include <linux/types.h>
#include <linux/initrd.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/umh.h>
#include <linux/utsname.h>

#include "kunit_modload.h"

/* Exit code of the load script when the module is not installed. */
#define FTK_NOT_INSTALLED	3

static int ftk_sh(const char *cmd)
{
	char *argv[4], *envp[3];

	argv[0] = "/bin/sh";
	argv[1] = "-c";
	argv[2] = (char *)cmd;
	argv[3] = NULL;
	envp[0] = "HOME=/";
	envp[1] = "PATH=/sbin:/bin:/usr/sbin:/usr/bin";
	envp[2] = NULL;
	return call_usermodehelper(argv[0], argv, envp, UMH_WAIT_PROC);
}

/**
 * ftk_mod_loaded - is the tracee module loaded and live?
 *
 * Return: true when its exported tracee function can be looked up.
 */
bool ftk_mod_loaded(void)
{
	void *fn = __symbol_get(FTK_MOD_FUNC);

	if (fn)
		__symbol_put(FTK_MOD_FUNC);
	return fn;
}

/**
 * ftk_mod_func - the tracee module's function
 * @test: the running case; fails unless the module is loaded
 *
 * Return: its address, for as long as @test keeps the module loaded.
 */
void *ftk_mod_func(struct kunit *test)
{
	void *fn = __symbol_get(FTK_MOD_FUNC);

	KUNIT_ASSERT_NOT_NULL(test, fn);
	__symbol_put(FTK_MOD_FUNC);
	return fn;
}

/**
 * ftk_mod_unload - unload the tracee module
 *
 * Return: 0, or what the rmmod helper returned.
 */
int ftk_mod_unload(void)
{
	return ftk_sh("rmmod " FTK_MOD);
}

static void ftk_mod_release(void *unused)
{
	if (ftk_mod_loaded())
		ftk_mod_unload();
}

/**
 * ftk_mod_load - load the tracee module for @test
 * @test: the running case; skipped when the module cannot be found
 *
 * Unloads a copy left loaded by an earlier case first.  The module is
 * unloaded again when @test ends, whatever way it ends.
 */
void ftk_mod_load(struct kunit *test)
{
	char *cmd;
	int ret;

	wait_for_initramfs();
	if (ftk_mod_loaded())
		KUNIT_ASSERT_EQ(test, ftk_mod_unload(), 0);
	KUNIT_ASSERT_FALSE(test, ftk_mod_loaded());

	cmd = kasprintf(GFP_KERNEL,
			"modprobe " FTK_MOD " && exit 0\n"
			"d=/lib/modules/%s\n"
			"for m in $d/kernel/kernel/trace/" FTK_MOD ".ko \\\n"
			"\t$(find $d -name '" FTK_MOD ".ko*'); do\n"
			"\t[ -f \"$m\" ] && exec insmod \"$m\"\n"
			"done\n"
			"exit %d\n", init_utsname()->release,
			FTK_NOT_INSTALLED);
	KUNIT_ASSERT_NOT_NULL(test, cmd);
	ret = ftk_sh(cmd);
	kfree(cmd);
	if (ret == -ENOENT)
		kunit_skip(test, "no /bin/sh to load " FTK_MOD);
	if (ret == FTK_NOT_INSTALLED << 8)
		kunit_skip(test, FTK_MOD ".ko is not installed");
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "loading " FTK_MOD);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, ftk_mod_release, NULL));
	KUNIT_ASSERT_TRUE(test, ftk_mod_loaded());
}
