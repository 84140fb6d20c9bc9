/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fixtures the KUnit suites for starting and stopping ops share;
 * see start_kunit.c.
 */
#ifndef _KERNEL_TRACE_FTRACE_START_KUNIT_H
#define _KERNEL_TRACE_FTRACE_START_KUNIT_H

#include <kunit/test.h>
#include <linux/ftrace.h>

struct file;
struct ftrace_hash;

/* The tracees, and their patch sites once a suite's init found them. */
enum { FAK_A, FAK_B, FAK_C, FAK_TRACEES };
int fak_tracee_a(int x);
int fak_tracee_b(int x);
int fak_tracee_c(int x);
extern int (*const fak_fns[FAK_TRACEES])(int);
extern unsigned long fak_ip[FAK_TRACEES];

/* suite_init and init of every suite: find the sites, start from zero. */
int fak_suite_init(struct kunit_suite *suite);
int fak_init(struct kunit *test);

/* The callback of fak_ops_new()'s ops: counts calls per tracee. */
void fak_func(unsigned long ip, unsigned long parent_ip,
	      struct ftrace_ops *op, struct ftrace_regs *fregs);
void fak_ops_release(void *arg);
struct ftrace_ops *fak_ops_new(struct kunit *test, unsigned long flags,
			       unsigned int sites);

/* Tracee @i's record: its flags, its count of ops, one flag. */
unsigned long fak_flags(int i);
unsigned long fak_count(int i);
bool fak_has(int i, unsigned long flag);

/* Call each tracee once; calls of tracee @i that reached fak_func(). */
void fak_call_all(void);
int fak_hit(int i);

/* What enabled_functions prints after tracee @i's name, into @buf. */
void fak_listed(int i, char *buf, size_t size);

/* Let fhash_alloc() make @n more sets, then refuse; or make all again. */
void fak_sets_limit(struct kunit *test, int n);
void fak_sets_unlimited(struct kunit *test);
/* Let fhash_insert() make @n more entries, then refuse; or all again. */
void fak_entries_limit(struct kunit *test, int n);
void fak_entries_unlimited(struct kunit *test);

/* write(2) to a tracefs file the case opened itself. */
typedef ssize_t (*fak_write_t)(struct file *file, const char __user *ubuf,
			       size_t cnt, loff_t *ppos);
unsigned long fak_user_page(struct kunit *test);
ssize_t fak_write(struct kunit *test, fak_write_t write, struct file *file,
		  unsigned long ubuf, const char *words);

/*
 * direct_kunit.c: two direct trampolines, in asm, that count
 * their calls and return.
 */
void fak_direct_one(void);
void fak_direct_two(void);

#endif /* _KERNEL_TRACE_FTRACE_START_KUNIT_H */
