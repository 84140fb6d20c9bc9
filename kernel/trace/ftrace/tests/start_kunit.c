// SPDX-License-Identifier: GPL-2.0
/*
 * What the KUnit suites for starting and stopping ops share
 * (ftrace_accounting, ftrace_code_update, ftrace_subops and
 * ftrace_direct, one file each): three tracees, an ops helper whose
 * callback counts calls per tracee, the flags of the tracees' records,
 * and a made-up shortage of memory (which the suites for function
 * probes and the graph filters use too).
 *
 * This file is built with the ftrace instrumentation flags, so
 * fak_tracee_a(), _b() and _c() have records of their own; __noipa
 * keeps the compiler from making copies of them (with records of their
 * own) for the constant arguments the cases pass.  The callback is
 * notrace.  Registered ops are unregistered and freed by KUnit actions,
 * also when a case fails.
 *
 * Running out of memory is made up: static stubs on fhash_alloc() and
 * fhash_insert() let a case grant a number of sets or entries and then
 * refuse.  Cases that write to a tracefs file they opened themselves
 * do so from a page of user memory, as a user would.
 */
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/fs.h>
#include <linux/ftrace.h>
#include <linux/mman.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>

#include "../hash.h"
#include "../internal.h"
#include "../records.h"
#include "../tracefs/tracefs.h"
#include "start_kunit.h"

__noipa int fak_tracee_a(int x)
{
	barrier();
	return x * 17 + 4;
}

__noipa int fak_tracee_b(int x)
{
	barrier();
	return x * 19 + 5;
}

__noipa int fak_tracee_c(int x)
{
	barrier();
	return x * 23 + 6;
}

int (*const fak_fns[FAK_TRACEES])(int) = {
	fak_tracee_a, fak_tracee_b, fak_tracee_c,
};

/* The patch sites of the tracees, found by the suite's init. */
unsigned long fak_ip[FAK_TRACEES];

/* Calls of each tracee that reached fak_func(), since the case began. */
static atomic_t fak_hits[FAK_TRACEES];

int fak_suite_init(struct kunit_suite *suite)
{
	int i;

	for (i = 0; i < FAK_TRACEES; i++) {
		fak_ip[i] = ftrace_location((unsigned long)fak_fns[i]);
		if (!fak_ip[i])
			return -ENODEV;
	}
	return 0;
}

/*
 * The cases count from zero: an ops of someone else's on the tracees
 * (ftrace=function on the command line) would make them meaningless.
 */
int fak_init(struct kunit *test)
{
	int i;

	/* Nothing is patched, and nothing called, while it is off. */
	if (!READ_ONCE(ftrace_enabled))
		kunit_skip(test, "kernel.ftrace_enabled is off");
	for (i = 0; i < FAK_TRACEES; i++) {
		if (fak_count(i))
			kunit_skip(test, "another ops traces the tracees");
		atomic_set(&fak_hits[i], 0);
	}
	return 0;
}

notrace void fak_func(unsigned long ip, unsigned long parent_ip,
		      struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	int i;

	for (i = 0; i < FAK_TRACEES; i++) {
		if (ip == fak_ip[i])
			atomic_inc(&fak_hits[i]);
	}
}

void fak_ops_release(void *arg)
{
	struct ftrace_ops *ops = arg;

	if (ops->flags & FTRACE_OPS_FL_ENABLED)
		WARN_ON(unregister_ftrace_function(ops));
	ftrace_free_filter(ops);
}

/* A new ops with @flags that selects the tracees in the mask @sites. */
struct ftrace_ops *fak_ops_new(struct kunit *test, unsigned long flags,
			       unsigned int sites)
{
	struct ftrace_ops *ops = kunit_kzalloc(test, sizeof(*ops), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, ops);
	ops->func = fak_func;
	ops->flags = flags;
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fak_ops_release, ops));
	for (i = 0; i < FAK_TRACEES; i++) {
		if (sites & BIT(i))
			KUNIT_ASSERT_EQ(test, 0,
					ftrace_set_filter_ip(ops, fak_ip[i], 0, 0));
	}
	return ops;
}

/* The flags of tracee @i's record. */
unsigned long fak_flags(int i)
{
	struct dyn_ftrace *rec;
	unsigned long flags;

	mutex_lock(&ftrace_lock);
	rec = frec_lookup(fak_ip[i], fak_ip[i]);
	flags = rec ? rec->flags : ~0UL;
	mutex_unlock(&ftrace_lock);
	return flags;
}

unsigned long fak_count(int i)
{
	return fak_flags(i) & FTRACE_REF_MAX;
}

bool fak_has(int i, unsigned long flag)
{
	return fak_flags(i) & flag;
}

void fak_call_all(void)
{
	int i;

	for (i = 0; i < FAK_TRACEES; i++)
		fak_fns[i](i);
}

int fak_hit(int i)
{
	return atomic_read(&fak_hits[i]);
}

/* What enabled_functions prints after tracee @i's name. */
void fak_listed(int i, char *buf, size_t size)
{
	struct seq_file m = { .buf = buf, .size = size - 1 };
	struct dyn_ftrace *rec;

	mutex_lock(&ftrace_lock);
	rec = frec_lookup(fak_ip[i], fak_ip[i]);
	if (rec)
		flist_show_state(&m, rec);
	mutex_unlock(&ftrace_lock);
	buf[m.count] = '\0';
}

/* How many more sets fhash_alloc() makes in this case. */
static int fak_sets_left;

/*
 * The stubs call the real functions under their inner names: switching
 * a stub off and on again would allocate, and could fail the case,
 * with the core's locks held.
 */
static struct ftrace_hash *fak_fhash_alloc(unsigned int bits)
{
	if (fak_sets_left <= 0)
		return NULL;
	fak_sets_left--;
	return __fhash_alloc(bits);
}

/* From now on, until fak_sets_unlimited(), fhash_alloc() makes @n sets. */
void fak_sets_limit(struct kunit *test, int n)
{
	fak_sets_left = n;
	kunit_activate_static_stub(test, fhash_alloc, fak_fhash_alloc);
}

void fak_sets_unlimited(struct kunit *test)
{
	kunit_deactivate_static_stub(test, fhash_alloc);
}

static int fak_entries_left;

/* fhash_insert() while limited: an address already there costs nothing. */
static struct ftrace_func_entry *fak_fhash_insert(struct ftrace_hash *hash,
						  unsigned long ip)
{
	struct ftrace_func_entry *entry = fhash_find(hash, ip);

	if (entry)
		return entry;
	if (fak_entries_left <= 0)
		return NULL;
	fak_entries_left--;
	return __fhash_insert(hash, ip);
}

/* From now on, until fak_entries_unlimited(), @n new entries are made. */
void fak_entries_limit(struct kunit *test, int n)
{
	fak_entries_left = n;
	kunit_activate_static_stub(test, fhash_insert, fak_fhash_insert);
}

void fak_entries_unlimited(struct kunit *test)
{
	kunit_deactivate_static_stub(test, fhash_insert);
}

/* A page of user memory, for the cases that write(2) to tracefs files. */
unsigned long fak_user_page(struct kunit *test)
{
	unsigned long ubuf;

	ubuf = kunit_vm_mmap(test, NULL, 0, PAGE_SIZE, PROT_READ | PROT_WRITE,
			     MAP_ANONYMOUS | MAP_PRIVATE, 0);
	KUNIT_ASSERT_NE_MSG(test, ubuf, 0, "no user page");
	return ubuf;
}

/*
 * Write @words to @file from @ubuf as a user would: write(2) again
 * until all is taken.  The count, or the first error.  It never ends
 * the case, whose file is open.
 */
ssize_t fak_write(struct kunit *test, fak_write_t write, struct file *file,
		  unsigned long ubuf, const char *words)
{
	const char __user *u = (const char __user *)ubuf;
	size_t len = strlen(words), done = 0;
	loff_t pos = 0;
	ssize_t ret;

	if (len > PAGE_SIZE || copy_to_user((char __user *)u, words, len)) {
		KUNIT_FAIL(test, "cannot put %zu bytes in the user page", len);
		return -EFAULT;
	}
	while (done < len) {
		ret = write(file, u + done, len - done, &pos);
		if (ret < 0)
			return ret;
		if (!ret) {
			KUNIT_FAIL(test, "write took nothing of \"%s\"", words);
			return -EIO;
		}
		done += ret;
	}
	return done;
}
