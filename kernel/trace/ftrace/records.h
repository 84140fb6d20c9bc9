/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The records of patch sites: one struct dyn_ftrace per __fentry__
 * call the compiler emitted (the __mcount_loc tables of the kernel
 * image and of each module).
 *
 * Records live in tables.  A table holds the sites of one block of
 * text, sorted by address with no duplicates: the kernel's text, the
 * kernel's init text, and the same two for each module.  Init text
 * gets a table of its own so that freeing it after boot (or after a
 * module's init ran) drops a whole table instead of moving records.
 *
 * Locking: the table list and the records' flags are changed under
 * ftrace_lock (internal.h), and the walks below need it held.
 * Address lookups (frec_lookup(), ftrace_location()) may instead run
 * under rcu_read_lock(): tables are added and removed RCU-safely and
 * freed only after a grace period.
 */
#ifndef _KERNEL_TRACE_FTRACE_RECORDS_H
#define _KERNEL_TRACE_FTRACE_RECORDS_H

#include <linux/ftrace.h>
#include <linux/list.h>
#include <linux/types.h>

#ifdef CONFIG_DYNAMIC_FTRACE

struct module;

struct frec_table {
	struct list_head	node;		/* in the list of live tables */
	struct frec_table	*next_dead;	/* chain of detached tables */
	struct module		*mod;		/* owner; NULL: the kernel */
	bool			init;		/* sites in init text */
	unsigned int		nr;		/* records in use, sorted */
	unsigned int		cap;		/* records allocated */
	size_t			bytes;		/* what the allocator gave */
	struct dyn_ftrace	*recs;
};

/*
 * A place in a walk over the records of all live tables, or of the
 * tables of one owner.  Zero-initialised it stands before the first
 * record; valid only while ftrace_lock stays held.
 */
struct frec_cursor {
	struct frec_table	*table;
	unsigned int		idx;
	bool			started;
	bool			owned;		/* only tables of @mod */
	struct module		*mod;
};

struct dyn_ftrace *frec_step(struct frec_cursor *cur);
struct dyn_ftrace *frec_resume(struct frec_cursor *cur, unsigned long ip);

/* Every record, in table order.  A single loop: break works. */
#define frec_for_each(rec)						\
	for (struct frec_cursor __frc = { };				\
	     ((rec) = frec_step(&__frc)) != NULL;)

/* Every record of the tables of @owner (NULL: the kernel image). */
#define frec_for_each_owned(owner, rec)					\
	for (struct frec_cursor __frc = { .owned = true, .mod = (owner) }; \
	     ((rec) = frec_step(&__frc)) != NULL;)

/* Record @i of @t, NULL past the last. */
static inline struct dyn_ftrace *frec_table_rec(struct frec_table *t,
						unsigned int i)
{
	return i < t->nr ? &t->recs[i] : NULL;
}

/* Every record of one table, live or detached. */
#define frec_for_each_in(table, rec)					\
	for (unsigned int __fri = 0;					\
	     ((rec) = frec_table_rec((table), __fri)) != NULL; __fri++)

struct dyn_ftrace *frec_lookup(unsigned long start, unsigned long end);
struct dyn_ftrace *frec_at(unsigned long n);
unsigned long frec_count(void);

/* The kernel's __mcount_loc table, laid out by vmlinux.lds.h. */
extern unsigned long __start_mcount_loc[], __stop_mcount_loc[];

int frec_build(struct module *mod, unsigned long *start, unsigned long *end,
	       struct list_head *tables);
void frec_publish(struct list_head *tables);

/* Called for each record frec_remove_range() takes out, before it goes. */
typedef void (*frec_retire_fn)(struct dyn_ftrace *rec, void *arg);

struct frec_table *frec_remove_owner(struct module *mod);
struct frec_table *frec_remove_range(unsigned long start, unsigned long end,
				     frec_retire_fn retire, void *arg);
void frec_free_dead(struct frec_table *dead);

#ifdef CONFIG_FTRACE_RECORDS_KUNIT_TEST
/* Test only: tables of this owner fail to allocate. */
extern struct module *frec_alloc_fails_for;
#endif

#endif /* CONFIG_DYNAMIC_FTRACE */
#endif /* _KERNEL_TRACE_FTRACE_RECORDS_H */
