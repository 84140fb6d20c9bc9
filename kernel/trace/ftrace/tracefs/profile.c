// SPDX-License-Identifier: GPL-2.0
/*
 * The function profiler: tracing/function_profile_enabled and the
 * tracing/trace_stat/function<cpu> files.
 *
 * While it is on, each call of a traced function counts a hit on the
 * CPU it runs on; with the function graph tracer built in, the time
 * spent in the function is added up too.  Each CPU has a table of its
 * own, open-addressed by ip, sized when the profiler is first turned
 * on for every patch site the kernel then has.  Only its CPU writes a
 * table, with interrupts off; the one concurrency left is an NMI that
 * lands while the CPU adds a function (it does not add one itself
 * then, its hit is lost) and the stat file being read on another CPU
 * (statistics: a count may be read while it moves).
 */
#include <linux/ftrace.h>
#include <linux/hash.h>
#include <linux/kallsyms.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/tracefs.h>

#include "profile.h"
#include "../../trace.h"
#include "../../trace_stat.h"

/*
 * The ip of a table's last slot, which stops the walks of the stat
 * file.  Probes pass over it as over a slot of another function.
 */
#define FPROF_END	(~0UL)

struct fprof_slot {
	unsigned long		ip;	/* 0: free */
	unsigned long		hits;
#ifdef CONFIG_FUNCTION_GRAPH_TRACER
	unsigned long long	time;	/* ns, summed over the hits */
	unsigned long long	time_sq;	/* ns^2, for the variance */
#endif
};

struct fprof_cpu {
	struct fprof_slot	*slots;	/* mask + 1, the last is the end */
	unsigned long		mask;
	unsigned int		bits;
	unsigned int		used;
	unsigned int		limit;	/* at most 3/4 of the slots used */
	atomic_t		adding;	/* an NMI must not add meanwhile */
	struct tracer_stat	stat;
};

static DEFINE_PER_CPU(struct fprof_cpu, fprof_cpus);

/* Serialises turning the profiler on and off with the stat output. */
static DEFINE_MUTEX(fprof_lock);
static bool fprof_on __read_mostly;

static inline unsigned long fprof_home(struct fprof_cpu *pc, unsigned long ip)
{
	return hash_long(ip, pc->bits) & pc->mask;
}

/* The slot of @ip, or the free slot where it would go. */
static struct fprof_slot *fprof_probe(struct fprof_cpu *pc, unsigned long ip)
{
	unsigned long i = fprof_home(pc, ip);
	struct fprof_slot *slot;

	/* The limit keeps free slots, so the probe ends. */
	for (;; i = (i + 1) & pc->mask) {
		slot = &pc->slots[i];
		if (READ_ONCE(slot->ip) == ip || !READ_ONCE(slot->ip))
			return slot;
	}
}

/* The slot of @ip on this CPU, added if it is new; interrupts off. */
static struct fprof_slot *fprof_slot_of(struct fprof_cpu *pc,
					unsigned long ip, bool add)
{
	struct fprof_slot *slot = fprof_probe(pc, ip);

	if (slot->ip == ip)
		return slot;
	if (!add)
		return NULL;

	slot = NULL;
	if (atomic_inc_return(&pc->adding) == 1 && pc->used < pc->limit) {
		/* Probe again: an NMI may have added before we got here. */
		slot = fprof_probe(pc, ip);
		if (!slot->ip) {
			pc->used++;
			/* The rest of the slot is zero: the ip makes it live. */
			WRITE_ONCE(slot->ip, ip);
		}
	}
	atomic_dec(&pc->adding);
	return slot;
}

static void fprof_hit(unsigned long ip, unsigned long parent_ip,
		      struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
	struct fprof_slot *slot;
	struct fprof_cpu *pc;
	unsigned long flags;

	if (!READ_ONCE(fprof_on))
		return;

	local_irq_save(flags);
	pc = this_cpu_ptr(&fprof_cpus);
	if (pc->slots && READ_ONCE(fprof_on)) {
		slot = fprof_slot_of(pc, ip, true);
		if (slot)
			slot->hits++;
	}
	local_irq_restore(flags);
}

/* Empty every slot of @pc but the end, which a walk may be nearing. */
static void fprof_clear(struct fprof_cpu *pc)
{
	memset(pc->slots, 0, pc->mask * sizeof(*pc->slots));
	pc->used = 0;
}

static int fprof_alloc(struct fprof_cpu *pc, unsigned long nr)
{
	struct fprof_slot *slots = kvcalloc(nr, sizeof(*slots), GFP_KERNEL);

	if (!slots)
		return -ENOMEM;
	slots[nr - 1].ip = FPROF_END;
	pc->mask = nr - 1;
	pc->bits = ilog2(nr);
	pc->limit = nr / 4 * 3;
	/* Walks that see the table see its end; see fprof_stat_start(). */
	smp_store_release(&pc->slots, slots);
	return 0;
}

/*
 * Give each CPU its table, emptied.  A table is made once, for the
 * sites there are when the profiler is first turned on, and kept:
 * a reader of the stat file may still point into it.
 */
static int fprof_prepare(void)
{
	unsigned long sites, slots;
	struct fprof_cpu *pc;
	int cpu;

#ifdef CONFIG_DYNAMIC_FTRACE
	sites = ftrace_update_tot_cnt;
#else
	/* Nothing counts the sites without dynamic ftrace: guess. */
	sites = 20000;
#endif
	slots = roundup_pow_of_two(max(sites + sites / 3, 64UL));

	for_each_possible_cpu(cpu) {
		pc = per_cpu_ptr(&fprof_cpus, cpu);
		if (!pc->slots && fprof_alloc(pc, slots))
			return -ENOMEM;
		fprof_clear(pc);
	}
	return 0;
}

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
/* Count the time of callees too (the graph tracer's graph-time option). */
static bool fprof_graph_time = true;

void ftrace_graph_graph_time_control(bool enable)
{
	fprof_graph_time = enable;
}

static int fprof_graph_entry(struct ftrace_graph_ent *trace,
			     struct fgraph_ops *gops, struct ftrace_regs *fregs)
{
	fprof_hit(trace->func, 0, NULL, NULL);
	/* The call's frame starts with no subtime (fgraph_frame_push()). */
	fgraph_time_call(trace);
	return 1;
}

/*
 * The time of this call, less that of the calls it made when callee
 * time is not to be counted.  Those calls added their time to this
 * frame's subtime; this call adds its own to its caller's.
 */
static unsigned long long fprof_own_time(struct ftrace_graph_ret *trace)
{
	unsigned long long t = trace->rettime - trace->calltime;
	struct ftrace_ret_stack *frame;

	if (fprof_graph_time)
		return t;
	frame = ftrace_graph_get_ret_stack(current, 1);
	if (frame)
		frame->subtime += t;
	frame = ftrace_graph_get_ret_stack(current, 0);
	if (!frame || frame->subtime >= t)
		return 0;
	return t - frame->subtime;
}

static void fprof_graph_return(struct ftrace_graph_ret *trace,
			       struct fgraph_ops *gops, struct ftrace_regs *fregs)
{
	unsigned long long t;
	struct fprof_slot *slot;
	struct fprof_cpu *pc;
	unsigned long flags;

	/* A zero calltime marks a call not to be timed. */
	if (!trace->calltime)
		return;

	local_irq_save(flags);
	pc = this_cpu_ptr(&fprof_cpus);
	if (pc->slots && READ_ONCE(fprof_on)) {
		t = fprof_own_time(trace);
		slot = fprof_slot_of(pc, trace->func, false);
		if (slot) {
			slot->time += t;
			slot->time_sq += t * t;
		}
	}
	local_irq_restore(flags);
}

static struct fgraph_ops fprof_graph_ops = {
	.entryfunc	= fprof_graph_entry,
	.retfunc	= fprof_graph_return,
};

static int fprof_register(void)
{
	ftrace_ops_set_global_filter(&fprof_graph_ops.ops);
	return register_ftrace_graph(&fprof_graph_ops);
}

static void fprof_unregister(void)
{
	unregister_ftrace_graph(&fprof_graph_ops);
}
#else
static struct ftrace_ops fprof_ops __read_mostly = {
	.func	= fprof_hit,
};

static int fprof_register(void)
{
	ftrace_ops_set_global_filter(&fprof_ops);
	return register_ftrace_function(&fprof_ops);
}

static void fprof_unregister(void)
{
	unregister_ftrace_function(&fprof_ops);
}
#endif /* CONFIG_FUNCTION_GRAPH_TRACER */

/* Turn the profiler on (emptying the tables) or off. */
static int fprof_switch(bool on)
{
	int ret;

	guard(mutex)(&fprof_lock);
	if (fprof_on == on)
		return 0;
	if (!on) {
		WRITE_ONCE(fprof_on, false);
		/* Waits for the CPUs to leave the callbacks. */
		fprof_unregister();
		return 0;
	}
	ret = fprof_prepare();
	if (!ret)
		ret = fprof_register();
	if (!ret)
		WRITE_ONCE(fprof_on, true);
	return ret;
}

static ssize_t fprof_enabled_write(struct file *filp, const char __user *ubuf,
				   size_t cnt, loff_t *ppos)
{
	unsigned long val;
	int ret;

	ret = kstrtoul_from_user(ubuf, cnt, 10, &val);
	if (ret)
		return ret;
	ret = fprof_switch(val);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static ssize_t fprof_enabled_read(struct file *filp, char __user *ubuf,
				  size_t cnt, loff_t *ppos)
{
	char buf[4];
	int len = scnprintf(buf, sizeof(buf), "%d\n", READ_ONCE(fprof_on));

	return simple_read_from_buffer(ubuf, cnt, ppos, buf, len);
}

static const struct file_operations fprof_enabled_fops = {
	.open		= tracing_open_generic,
	.read		= fprof_enabled_read,
	.write		= fprof_enabled_write,
	.llseek		= default_llseek,
};

/* The first live slot at or after @slot, NULL at the end. */
static struct fprof_slot *fprof_live_from(struct fprof_slot *slot)
{
	for (; slot->ip != FPROF_END; slot++) {
		if (slot->ip && slot->hits)
			return slot;
	}
	return NULL;
}

static void *fprof_stat_start(struct tracer_stat *stat)
{
	struct fprof_cpu *pc = container_of(stat, struct fprof_cpu, stat);
	/* Pairs with the smp_store_release() in fprof_alloc(). */
	struct fprof_slot *slots = smp_load_acquire(&pc->slots);

	return slots ? fprof_live_from(slots) : NULL;
}

static void *fprof_stat_next(void *prev, int idx)
{
	return fprof_live_from((struct fprof_slot *)prev + 1);
}

/* The stat file lists the biggest first: by time, or by hits. */
static int fprof_stat_cmp(const void *a, const void *b)
{
	const struct fprof_slot *x = a, *y = b;

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return 0;
#else
	if (x->hits != y->hits)
		return x->hits < y->hits ? -1 : 1;
	return 0;
#endif
}

static int fprof_stat_headers(struct seq_file *m)
{
	if (IS_ENABLED(CONFIG_FUNCTION_GRAPH_TRACER)) {
		seq_puts(m, "  Function                               Hit    Time            Avg             s^2\n");
		seq_puts(m, "  --------                               ---    ----            ---             ---\n");
	} else {
		seq_puts(m, "  Function                               Hit\n");
		seq_puts(m, "  --------                               ---\n");
	}
	return 0;
}

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
/*
 * Total, mean and variance of the time in the graph tracer's duration
 * format.  The variance is (n * sum(t^2) - sum(t)^2) / (n * (n - 1)),
 * here in us^2 since the duration format divides by 1000 once more.
 */
static void fprof_show_times(struct seq_file *m, struct fprof_slot *slot,
			     unsigned long hits)
{
	static struct trace_seq s;	/* too big for the stack; fprof_lock */
	unsigned long long mean = div64_ul(slot->time, hits);
	unsigned long long var = 0, denom;

	denom = (unsigned long long)hits * (hits - 1) * 1000;
	if (denom)
		var = div64_u64(hits * slot->time_sq - slot->time * slot->time,
				denom);

	trace_seq_init(&s);
	trace_seq_puts(&s, "    ");
	trace_print_graph_duration(slot->time, &s);
	trace_seq_puts(&s, "    ");
	trace_print_graph_duration(mean, &s);
	trace_seq_puts(&s, "    ");
	trace_print_graph_duration(var, &s);
	trace_print_seq(m, &s);
}
#endif

static int fprof_stat_show(struct seq_file *m, void *v)
{
	struct fprof_slot *slot = v;
	char name[KSYM_SYMBOL_LEN];
	unsigned long hits;

	guard(mutex)(&fprof_lock);
	/* Emptied since the file was opened: nothing to say. */
	hits = READ_ONCE(slot->hits);
	if (!hits)
		return 0;
#ifdef CONFIG_FUNCTION_GRAPH_TRACER
	/* Functions faster on average than tracing_thresh are left out. */
	if (tracing_thresh && div64_ul(slot->time, hits) < tracing_thresh)
		return 0;
#endif
	kallsyms_lookup(slot->ip, NULL, NULL, NULL, name);
	seq_printf(m, "  %-30.30s  %10lu", name, hits);
#ifdef CONFIG_FUNCTION_GRAPH_TRACER
	fprof_show_times(m, slot, hits);
#endif
	seq_putc(m, '\n');
	return 0;
}

/**
 * ftrace_profile_tracefs - create the function profiler's files
 * @d_tracer: the top tracing directory
 *
 * One stat file per possible CPU and the switch.  The files stay for
 * the life of the kernel; a failure leaves the profiler without them.
 */
void __init ftrace_profile_tracefs(struct dentry *d_tracer)
{
	struct fprof_cpu *pc;
	int cpu;

	for_each_possible_cpu(cpu) {
		pc = per_cpu_ptr(&fprof_cpus, cpu);
		pc->stat.name = kasprintf(GFP_KERNEL, "function%d", cpu);
		pc->stat.stat_start = fprof_stat_start;
		pc->stat.stat_next = fprof_stat_next;
		pc->stat.stat_cmp = fprof_stat_cmp;
		pc->stat.stat_headers = fprof_stat_headers;
		pc->stat.stat_show = fprof_stat_show;
		if (WARN(!pc->stat.name || register_stat_tracer(&pc->stat),
			 "ftrace: no function profile file for cpu %d\n",
			 cpu)) {
			kfree(pc->stat.name);
			return;
		}
	}
	trace_create_file("function_profile_enabled", TRACE_MODE_WRITE,
			  d_tracer, NULL, &fprof_enabled_fops);
}
