// SPDX-License-Identifier: GPL-2.0
/*
 * Function probes: "func:traceon" and the other function commands of
 * set_ftrace_filter hook a struct ftrace_probe_ops to the functions a
 * glob selects.  Each trace array has one probe per probe_ops; the
 * probe's own ftrace_ops traces the union of the functions, and each
 * function holds one reference on the probe.
 *
 * Also the func mapper, the ip -> data map that probe_ops keep their
 * per-function state in (a count, an event file).
 *
 * Locks: a trace array's probe list and each probe's reference count
 * are under ftrace_lock; a probe's set, and so the init and free calls
 * of its probe_ops for single functions (which edit the mapper), are
 * under the regex_lock of the probe's ops, taken outside ftrace_lock.
 * The last reference goes under ftrace_lock alone, with the free call
 * for the probe's data as a whole (ip 0).
 */
#include <linux/kallsyms.h>
#include <linux/slab.h>

#include "../dispatch.h"
#include "../hash.h"
#include "../internal.h"
#include "tracefs.h"
#include "../../trace.h"

/* ---- the func mapper ------------------------------------------------ */

/* A mapper is a set whose entries carry data. */
struct ftrace_func_mapper {
	struct ftrace_hash	set;
};

struct fmap_entry {
	struct ftrace_func_entry	entry;		/* first: the set frees it */
	void				*data;
	struct rcu_head			rcu;
};

/**
 * allocate_ftrace_func_mapper - make an empty map of ips to data
 *
 * Return: the mapper, or NULL if out of memory.
 */
struct ftrace_func_mapper *allocate_ftrace_func_mapper(void)
{
	return (struct ftrace_func_mapper *)
		fhash_alloc(FTRACE_HASH_DEFAULT_BITS);
}

/**
 * ftrace_func_mapper_find_ip - where the data of an ip is kept
 * @mapper: the mapper
 * @ip: the ip
 *
 * Callers whose data fits in a pointer keep it in the returned slot
 * itself.  Safe in a probe's callback, concurrently with changes.
 *
 * Return: the address of @ip's data pointer, or NULL if @ip has none.
 */
void **ftrace_func_mapper_find_ip(struct ftrace_func_mapper *mapper,
				  unsigned long ip)
{
	struct ftrace_func_entry *entry = fhash_find(&mapper->set, ip);

	return entry ? &container_of(entry, struct fmap_entry, entry)->data :
		       NULL;
}

/**
 * ftrace_func_mapper_add_ip - give an ip its data
 * @mapper: the mapper
 * @ip: the ip, which must not have data yet
 * @data: the data
 *
 * Return: 0, -EBUSY if @ip has data already, or -ENOMEM.
 */
int ftrace_func_mapper_add_ip(struct ftrace_func_mapper *mapper,
			      unsigned long ip, void *data)
{
	struct fmap_entry *map;

	if (fhash_find(&mapper->set, ip))
		return -EBUSY;
	map = kmalloc(sizeof(*map), GFP_KERNEL);
	if (!map)
		return -ENOMEM;
	*map = (struct fmap_entry){ .entry.ip = ip, .data = data };
	fhash_link(&mapper->set, &map->entry);
	return 0;
}

/**
 * ftrace_func_mapper_remove_ip - take an ip out of a mapper
 * @mapper: the mapper
 * @ip: the ip
 *
 * The caller makes sure no probe callback can still look @ip up (its
 * function is no longer probed, and an RCU grace period has passed).
 * Callbacks looking up other ips may still pass over the entry, so it
 * is freed after a grace period.
 *
 * Return: @ip's data, or NULL if it had none (or its data was NULL).
 */
void *ftrace_func_mapper_remove_ip(struct ftrace_func_mapper *mapper,
				   unsigned long ip)
{
	struct ftrace_func_entry *entry = fhash_find(&mapper->set, ip);
	struct fmap_entry *map;
	void *data;

	if (!entry)
		return NULL;
	map = container_of(entry, struct fmap_entry, entry);
	data = map->data;
	fhash_unlink(&mapper->set, entry);
	kfree_rcu(map, rcu);
	return data;
}

/**
 * free_ftrace_func_mapper - free a mapper
 * @mapper: the mapper, or NULL
 * @free_func: called with the data of each ip left, if not NULL
 */
void free_ftrace_func_mapper(struct ftrace_func_mapper *mapper,
			     ftrace_mapper_func free_func)
{
	struct ftrace_func_entry *entry;

	if (!mapper)
		return;
	if (free_func) {
		fhash_for_each(&mapper->set, entry)
			free_func(container_of(entry, struct fmap_entry,
					       entry)->data);
	}
	fhash_free(&mapper->set);
}

/* ---- probes --------------------------------------------------------- */

/* What each probed function calls. */
static void fprb_call(unsigned long ip, unsigned long parent_ip,
		      struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct ftrace_func_probe *probe =
		container_of(op, struct ftrace_func_probe, ops);

	/*
	 * Keep the grace period that unregistering waits for from ending
	 * while the probe_ops looks its data up.
	 */
	preempt_disable_notrace();
	probe->probe_ops->func(ip, parent_ip, probe->tr, probe->probe_ops,
			       probe->data);
	preempt_enable_notrace();
}

static struct ftrace_func_probe *fprb_find(struct trace_array *tr,
					   struct ftrace_probe_ops *probe_ops)
{
	struct ftrace_func_probe *probe;

	lockdep_assert_held(&ftrace_lock);
	list_for_each_entry(probe, &tr->func_probes, list) {
		if (probe->probe_ops == probe_ops)
			return probe;
	}
	return NULL;
}

/* Drop a reference; the last frees the probe and its probe_ops' data. */
static void fprb_put(struct ftrace_func_probe *probe)
{
	struct ftrace_probe_ops *probe_ops = probe->probe_ops;

	guard(mutex)(&ftrace_lock);
	if (WARN_ON_ONCE(probe->ref <= 0) || --probe->ref)
		return;
	list_del(&probe->list);
	/* ip 0: the probe_ops frees what it keeps for all its functions */
	if (probe_ops->free)
		probe_ops->free(probe_ops, probe->tr, 0, probe->data);
	kfree(probe);
}

/*
 * The free call of a probe_ops can unhook another ops' functions (an
 * event whose kprobe sits on ftrace), taking that ops' regex_lock
 * inside the probe's: a class of their own tells lockdep the two are
 * different locks.
 */
static struct lock_class_key fprb_regex_key;

/* Find or make @tr's probe for @probe_ops, with a reference held. */
static struct ftrace_func_probe *fprb_get(struct trace_array *tr,
					  struct ftrace_probe_ops *probe_ops,
					  bool make)
{
	struct ftrace_func_probe *probe;

	guard(mutex)(&ftrace_lock);
	probe = fprb_find(tr, probe_ops);
	if (!probe && make) {
		probe = kzalloc(sizeof(*probe), GFP_KERNEL);
		if (!probe)
			return ERR_PTR(-ENOMEM);
		probe->probe_ops = probe_ops;
		probe->tr = tr;
		probe->ops.func = fprb_call;
		ftrace_ops_init(&probe->ops);
		lockdep_set_class(&probe->ops.local_hash.regex_lock,
				  &fprb_regex_key);
		list_add(&probe->list, &tr->func_probes);
	}
	if (!probe)
		return ERR_PTR(-ENODEV);
	probe->ref++;
	return probe;
}

/* Make @set the probe's: its entries move, and the calls follow. */
static int fprb_move(struct ftrace_func_probe *probe, struct ftrace_hash *set)
{
	struct ftrace_ops *ops = &probe->ops;

	lockdep_assert_held(&ftrace_lock);
	return ftrace_hash_move_and_update_ops(ops, &ops->func_hash->filter_hash,
					      set, 1);
}

static struct ftrace_hash *fprb_set(struct ftrace_func_probe *probe)
{
	return rcu_dereference_protected(probe->ops.func_hash->filter_hash,
			lockdep_is_held(&probe->ops.func_hash->regex_lock));
}

/* Undo probe_ops->init for the ips of @set that @old lacks. */
static void fprb_uninit(struct ftrace_func_probe *probe,
			struct ftrace_hash *set, struct ftrace_hash *old,
			unsigned long stop_ip)
{
	struct ftrace_probe_ops *probe_ops = probe->probe_ops;
	struct ftrace_func_entry *entry;

	if (!probe_ops->free)
		return;
	fhash_for_each(set, entry) {
		if (entry->ip == stop_ip)
			return;
		if (!ftrace_lookup_ip(old, entry->ip))
			probe_ops->free(probe_ops, probe->tr, entry->ip,
					probe->data);
	}
}

/*
 * Call probe_ops->init for the ips of @set that @old lacks.  Returns
 * how many, or an error after undoing the calls made.
 */
static int fprb_init(struct ftrace_func_probe *probe, struct ftrace_hash *set,
		     struct ftrace_hash *old, void *data)
{
	struct ftrace_probe_ops *probe_ops = probe->probe_ops;
	struct ftrace_func_entry *entry;
	int count = 0, ret;

	fhash_for_each(set, entry) {
		if (ftrace_lookup_ip(old, entry->ip))
			continue;
		if (probe_ops->init) {
			ret = probe_ops->init(probe_ops, probe->tr, entry->ip,
					      data, &probe->data);
			if (ret < 0) {
				fprb_uninit(probe, set, old, entry->ip);
				return ret;
			}
		}
		count++;
	}
	return count;
}

/*
 * Publish @set, whose @count functions not in @old were just inited,
 * as @probe's set, and make sure its ops runs.  A failed publication
 * changes nothing and undoes the inits; a failed start leaves the set
 * published, so that unregistering still finds it.
 */
static int fprb_publish(struct ftrace_func_probe *probe,
			struct ftrace_hash *set, struct ftrace_hash *old,
			int count)
{
	struct ftrace_ops *ops = &probe->ops;
	int ret;

	scoped_guard(mutex, &ftrace_lock) {
		/* It fails only for want of memory, before taking @set's entries. */
		ret = fprb_move(probe, set);
		if (!ret) {
			probe->ref += count;
			if (ops->flags & FTRACE_OPS_FL_ENABLED)
				return 0;
			return ftrace_startup(ops, 0);
		}
	}
	fprb_uninit(probe, set, old, 0);
	return ret;
}

/**
 * register_ftrace_function_probe - hook a probe_ops to functions
 * @glob: the functions, by name pattern (no '!')
 * @tr: the trace array the probe belongs to
 * @probe_ops: what to call; one probe per @probe_ops and @tr
 * @data: given to @probe_ops->init for each newly probed function
 *
 * Return: the number of functions newly probed, or -EINVAL if the
 * pattern selects none (or only probed ones), -ENOMEM, or the error of
 * @probe_ops->init or of the code update.
 */
int register_ftrace_function_probe(char *glob, struct trace_array *tr,
				   struct ftrace_probe_ops *probe_ops,
				   void *data)
{
	struct ftrace_func_probe *probe;
	struct ftrace_hash *old, *set;
	struct ftrace_ops_hash *h;
	int count, ret;

	if (WARN_ON(!tr) || WARN_ON(glob[0] == '!'))
		return -EINVAL;
	probe = fprb_get(tr, probe_ops, true);
	if (IS_ERR(probe))
		return PTR_ERR(probe);

	h = probe->ops.func_hash;
	mutex_lock(&h->regex_lock);
	old = fprb_set(probe);
	set = fhash_dup(old, FTRACE_HASH_DEFAULT_BITS);
	count = set ? fmatch_records(set, glob, strlen(glob), NULL) : -ENOMEM;
	if (count > 0)
		count = fprb_init(probe, set, old, data);
	if (!count)
		count = -EINVAL;	/* nothing matched, or nothing new */
	if (count > 0) {
		ret = fprb_publish(probe, set, old, count);
		if (ret)
			count = ret;
	}
	mutex_unlock(&h->regex_lock);
	fhash_free(set);
	fprb_put(probe);
	return count;
}

/* Does the name of @ip match @pat (NULL: everything)? */
static bool fprb_named(unsigned long ip, struct ftrace_pattern *pat)
{
	char name[KSYM_SYMBOL_LEN];

	if (!pat)
		return true;
	kallsyms_lookup(ip, NULL, NULL, NULL, name);
	return ftrace_pattern_match(pat, name);
}

/*
 * Take the functions @pat names out of @probe's set, into @gone.
 * Returns how many, or an error.
 */
static int fprb_drop(struct ftrace_func_probe *probe,
		     struct ftrace_pattern *pat, struct hlist_head *gone)
{
	struct ftrace_ops *ops = &probe->ops;
	struct ftrace_func_entry *entry, *tmp;
	struct ftrace_hash *set;
	int count = 0, ret;

	if (ftrace_hash_empty(fprb_set(probe)))
		return -EINVAL;
	set = fhash_dup(fprb_set(probe), FTRACE_HASH_DEFAULT_BITS);
	if (!set)
		return -ENOMEM;
	fhash_for_each_safe(set, entry, tmp) {
		if (!fprb_named(entry->ip, pat))
			continue;
		fhash_unlink(set, entry);
		hlist_add_head(&entry->hlist, gone);
		count++;
	}

	ret = count ? 0 : -EINVAL;
	scoped_guard(mutex, &ftrace_lock) {
		/*
		 * Stop before publishing an empty set, which would mean
		 * "every function" to a running ops.  Publishing an empty
		 * set allocates nothing, so it cannot fail after this.
		 */
		if (count && ftrace_hash_empty(set) &&
		    (ops->flags & FTRACE_OPS_FL_ENABLED))
			ftrace_shutdown(ops, 0);
		if (count)
			ret = fprb_move(probe, set);
		if (!ret) {
			WARN_ON_ONCE(probe->ref < count);
			probe->ref -= count;
		}
	}
	fhash_free(set);
	return ret ?: count;
}

/**
 * unregister_ftrace_function_probe_func - unhook a probe_ops
 * @glob: the functions to unhook it from, by name pattern (no '!');
 *	NULL, "" or "*" for all of them
 * @tr: the trace array of the probe
 * @probe_ops: the probe_ops given to register_ftrace_function_probe()
 *
 * Return: 0, or -ENODEV if @tr has no probe of @probe_ops, -EINVAL if
 * @glob names none of its functions, or -ENOMEM.
 */
int unregister_ftrace_function_probe_func(char *glob, struct trace_array *tr,
					  struct ftrace_probe_ops *probe_ops)
{
	struct ftrace_pattern pattern, *pat = NULL;
	struct ftrace_func_probe *probe;
	struct ftrace_func_entry *entry;
	struct hlist_node *tmp;
	HLIST_HEAD(gone);
	int ret;

	if (glob && *glob && strcmp(glob, "*")) {
		ftrace_pattern_parse(&pattern, glob, strlen(glob));
		if (WARN_ON(pattern.negate))
			return -EINVAL;
		pat = &pattern;
	}
	probe = fprb_get(tr, probe_ops, false);
	if (IS_ERR(probe))
		return PTR_ERR(probe);

	mutex_lock(&probe->ops.func_hash->regex_lock);
	ret = fprb_drop(probe, pat, &gone);
	if (ret > 0) {
		/* No callback may still be using what is freed below. */
		synchronize_rcu();
		hlist_for_each_entry_safe(entry, tmp, &gone, hlist) {
			if (probe_ops->free)
				probe_ops->free(probe_ops, tr, entry->ip,
						probe->data);
			kfree(entry);
		}
		ret = 0;
	} else {
		/* Still probed: only our copies of their entries go. */
		hlist_for_each_entry_safe(entry, tmp, &gone, hlist)
			kfree(entry);
	}
	mutex_unlock(&probe->ops.func_hash->regex_lock);
	fprb_put(probe);
	return ret;
}

/**
 * clear_ftrace_function_probes - unhook every probe of a trace array
 * @tr: the trace array, going away
 */
void clear_ftrace_function_probes(struct trace_array *tr)
{
	struct ftrace_func_probe *probe, *n;

	list_for_each_entry_safe(probe, n, &tr->func_probes, list)
		unregister_ftrace_function_probe_func(NULL, tr,
						      probe->probe_ops);
}
