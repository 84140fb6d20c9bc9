// SPDX-License-Identifier: GPL-2.0
/*
 * fprobe_bench: the fprobe and kprobe rows of `make bench`, for the base
 * and the series alike.  Loaded with mode=NAME it puts one probe on its
 * own tracee (or, for the all_* modes, one fprobe on every traceable
 * function) and takes it off at unload; writing a count to
 * /sys/module/fprobe_bench/parameters/run calls the tracee that many
 * times and leaves the nanoseconds it took in last_ns (under QEMU
 * -icount shift=0, instructions).
 *
 * The all_* modes share the calls among FPB_SPREAD tracees instead.
 * With a probe on every function, the cost of a call may depend on where
 * its function's address falls in whatever structure a kernel looks
 * addresses up in: the row is the mean over functions at FPB_SPREAD
 * addresses, not the luck of one.
 *
 * The handlers count the calls of the tracee they see, and a run fails
 * with -EIO unless every call reached the handlers the mode has (and,
 * with entry data, the exit handler read what its own entry wrote): a
 * probe that silently missed calls would otherwise look fast.
 *
 * All fprobe and kprobe functions are exported in both kernels, so this
 * module needs nothing of harness/bench-patches.
 */
#include <linux/fprobe.h>
#include <linux/kprobes.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/string.h>

/*
 * The handlers' register argument: upstream 6.12 hands fprobe handlers
 * a struct pt_regs, the series a struct ftrace_regs (as upstream does
 * from 6.14).  Only the series' fprobe.h limits entry data by a count of
 * words in FPROBE_DATA_SIZE_BITS bits, so that macro tells the headers
 * apart (6.12's fprobe.h has neither it nor MAX_FPROBE_DATA_SIZE_WORD).
 */
#ifdef FPROBE_DATA_SIZE_BITS
#define FPB_REGS struct ftrace_regs
#else
#define FPB_REGS struct pt_regs
#endif

/* The bytes of entry data of the data16 mode: two words. */
#define FPB_DATA_SIZE	(2 * sizeof(unsigned long))

enum fpb_kind { FPB_NONE, FPB_FPROBE, FPB_KPROBE, FPB_KRETPROBE };

/*
 * One row of the bench: what is registered and which handlers must see
 * every call of the tracee.
 */
struct fpb_mode {
	const char *name;
	enum fpb_kind kind;
	const char *filter;	/* FPB_FPROBE: the glob it is registered on */
	bool exit;		/* FPB_FPROBE: with an exit handler */
	size_t data_size;	/* FPB_FPROBE: entry_data_size */
	bool want_entry;	/* every call reaches an entry handler */
	bool want_exit;		/* every call reaches a return handler */
	bool spread;		/* the calls go to the FPB_SPREAD tracees */
};

static const struct fpb_mode fpb_modes[] = {
	{ "none",		FPB_NONE },
	{ "entry",		FPB_FPROBE, "fpb_tracee", false, 0, true, false },
	{ "entry_exit",		FPB_FPROBE, "fpb_tracee", true, 0, true, true },
	{ "entry_exit_data16",	FPB_FPROBE, "fpb_tracee", true, FPB_DATA_SIZE,
				true, true },
	{ "all_entry",		FPB_FPROBE, "*", false, 0, true, false, true },
	{ "all_entry_exit",	FPB_FPROBE, "*", true, 0, true, true, true },
	{ "kprobe",		FPB_KPROBE, NULL, false, 0, true, false },
	{ "kretprobe",		FPB_KRETPROBE, NULL, false, 0, false, true },
};

static const struct fpb_mode *fpb_mode;

static char *mode = "none";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "probe to register at load (see fpb_modes)");

static unsigned long last_ns;
module_param(last_ns, ulong, 0444);
MODULE_PARM_DESC(last_ns, "nanoseconds the last run took");

/*
 * Calls of the tracee the handlers saw in the last run; with the tracee
 * called from one task at a time, plain increments are exact.
 */
static unsigned long entries;
module_param(entries, ulong, 0444);
MODULE_PARM_DESC(entries, "tracee entries the handlers saw in the last run");

static unsigned long exits;
module_param(exits, ulong, 0444);
MODULE_PARM_DESC(exits, "tracee returns the handlers saw (and found their data right)");

/* The tracee: noinline and with a barrier, so each call is a real call. */
static noinline __noclone int fpb_tracee(int x)
{
	barrier();
	return x + 1;
}

/*
 * The tracees of the all_* modes, alone in their section so that the
 * handlers tell them from every other function by one range.  Each adds
 * its own number, so that no two bodies are the same for the compiler
 * to fold into one function.
 */
#define FPB_SPREAD	16
#define FPB_SPREAD_TRACEE(n)						\
static noinline __noclone __section(".text.fpb_spread")			\
int fpb_spread##n(int x)						\
{									\
	barrier();							\
	return x + (n) + 1;						\
}

FPB_SPREAD_TRACEE(0) FPB_SPREAD_TRACEE(1) FPB_SPREAD_TRACEE(2)
FPB_SPREAD_TRACEE(3) FPB_SPREAD_TRACEE(4) FPB_SPREAD_TRACEE(5)
FPB_SPREAD_TRACEE(6) FPB_SPREAD_TRACEE(7) FPB_SPREAD_TRACEE(8)
FPB_SPREAD_TRACEE(9) FPB_SPREAD_TRACEE(10) FPB_SPREAD_TRACEE(11)
FPB_SPREAD_TRACEE(12) FPB_SPREAD_TRACEE(13) FPB_SPREAD_TRACEE(14)
FPB_SPREAD_TRACEE(15)

static int (* const fpb_spread[FPB_SPREAD])(int) = {
	fpb_spread0, fpb_spread1, fpb_spread2, fpb_spread3, fpb_spread4,
	fpb_spread5, fpb_spread6, fpb_spread7, fpb_spread8, fpb_spread9,
	fpb_spread10, fpb_spread11, fpb_spread12, fpb_spread13, fpb_spread14,
	fpb_spread15,
};

/* The range of the spread tracees' addresses, set at load. */
static unsigned long fpb_spread_start, fpb_spread_span;

static void fpb_spread_range(void)
{
	unsigned long lo = ULONG_MAX, hi = 0, a;
	int n;

	for (n = 0; n < FPB_SPREAD; n++) {
		a = (unsigned long)fpb_spread[n];
		lo = min(lo, a);
		hi = max(hi, a);
	}
	fpb_spread_start = lo;
	fpb_spread_span = hi - lo + 16;
}

/*
 * @per calls of each spread tracee, each in a loop of its own shaped as
 * run_set()'s, so that a call costs the loop what one of fpb_tracee()
 * does; the calls are direct (an indirect call would add a retpoline).
 */
#define FPB_SPREAD_LOOP(n)						\
	do {								\
		for (i = 0; i < per; i++)				\
			sum = fpb_spread##n(sum);			\
	} while (0)

static int fpb_spread_calls(unsigned long per)
{
	unsigned long i;
	int sum = 0;

	FPB_SPREAD_LOOP(0); FPB_SPREAD_LOOP(1); FPB_SPREAD_LOOP(2);
	FPB_SPREAD_LOOP(3); FPB_SPREAD_LOOP(4); FPB_SPREAD_LOOP(5);
	FPB_SPREAD_LOOP(6); FPB_SPREAD_LOOP(7); FPB_SPREAD_LOOP(8);
	FPB_SPREAD_LOOP(9); FPB_SPREAD_LOOP(10); FPB_SPREAD_LOOP(11);
	FPB_SPREAD_LOOP(12); FPB_SPREAD_LOOP(13); FPB_SPREAD_LOOP(14);
	FPB_SPREAD_LOOP(15);
	return sum;
}

/*
 * Is @ip the tracee?  Handlers get the patch site, which is the
 * function's address or, with IBT, the address after its ENDBR; the
 * all_* modes call the handlers for every function, so this must stay a
 * subtraction and a compare, inline in the notrace handlers.
 */
static __always_inline bool fpb_is_tracee(unsigned long ip, bool spread)
{
	if (spread)
		return ip - fpb_spread_start < fpb_spread_span;
	return ip - (unsigned long)fpb_tracee < 16;
}

/*
 * The handlers run (in the all_* modes) for every function the kernel
 * calls: notrace, so that they do not hook themselves, and they touch
 * nothing but for the tracee.
 */
static __always_inline int fpb_entry_in(bool spread, unsigned long entry_ip,
					void *entry_data)
{
	unsigned long *data = entry_data;

	if (!fpb_is_tracee(entry_ip, spread))
		return 0;
	entries++;
	if (data) {
		/* Which call wrote it: the exit handler checks both. */
		data[0] = entry_ip;
		data[1] = entries;
	}
	return 0;
}

static __always_inline void fpb_exit_in(bool spread, unsigned long entry_ip,
					void *entry_data)
{
	unsigned long *data = entry_data;

	if (!fpb_is_tracee(entry_ip, spread))
		return;
	/*
	 * The tracee's calls never nest, so the data of this call holds
	 * the entries count of its own entry; a stale frame's would not.
	 */
	if (fpb_mode->data_size &&
	    (!data || data[0] != entry_ip || data[1] != entries))
		return;
	exits++;
}

static notrace int fpb_entry(struct fprobe *fp, unsigned long entry_ip,
			     unsigned long ret_ip, FPB_REGS *regs,
			     void *entry_data)
{
	return fpb_entry_in(false, entry_ip, entry_data);
}

static notrace void fpb_exit(struct fprobe *fp, unsigned long entry_ip,
			     unsigned long ret_ip, FPB_REGS *regs,
			     void *entry_data)
{
	fpb_exit_in(false, entry_ip, entry_data);
}

/* The same for the spread modes: a range for one address. */
static notrace int fpb_entry_spread(struct fprobe *fp, unsigned long entry_ip,
				    unsigned long ret_ip, FPB_REGS *regs,
				    void *entry_data)
{
	return fpb_entry_in(true, entry_ip, entry_data);
}

static notrace void fpb_exit_spread(struct fprobe *fp, unsigned long entry_ip,
				    unsigned long ret_ip, FPB_REGS *regs,
				    void *entry_data)
{
	fpb_exit_in(true, entry_ip, entry_data);
}

static struct fprobe fpb_fprobe;

static notrace int fpb_kprobe_pre(struct kprobe *p, struct pt_regs *regs)
{
	entries++;
	return 0;
}

static struct kprobe fpb_kprobe = {
	.pre_handler = fpb_kprobe_pre,
};

static notrace int fpb_kretprobe_ret(struct kretprobe_instance *ri,
				     struct pt_regs *regs)
{
	exits++;
	return 0;
}

static struct kretprobe fpb_kretprobe = {
	.handler = fpb_kretprobe_ret,
};

static int run_set(const char *val, const struct kernel_param *kp)
{
	unsigned long calls, i;
	u64 start;
	int sum = 0, ret;

	ret = kstrtoul(val, 0, &calls);
	if (ret)
		return ret;
	if (fpb_mode->spread && calls % FPB_SPREAD)
		return -EINVAL;
	entries = 0;
	exits = 0;
	start = ktime_get_ns();
	if (fpb_mode->spread) {
		sum = fpb_spread_calls(calls / FPB_SPREAD);
	} else {
		for (i = 0; i < calls; i++)
			sum = fpb_tracee(sum);
	}
	last_ns = ktime_get_ns() - start;
	/* Spread tracee n adds n + 1: 1 + 2 + ... + FPB_SPREAD per round. */
	if (sum != (int)(fpb_mode->spread ?
			 calls / FPB_SPREAD * (FPB_SPREAD * (FPB_SPREAD + 1) / 2) :
			 calls))
		return -EIO;
	if (entries != (fpb_mode->want_entry ? calls : 0) ||
	    exits != (fpb_mode->want_exit ? calls : 0))
		return -EIO;
	return 0;
}

static const struct kernel_param_ops run_ops = { .set = run_set };
module_param_cb(run, &run_ops, NULL, 0200);
MODULE_PARM_DESC(run, "write N: call the tracee(s) N times, time in last_ns");

static int fpb_register_fprobe(const struct fpb_mode *m)
{
	fpb_fprobe.entry_handler = m->spread ? fpb_entry_spread : fpb_entry;
	if (m->exit)
		fpb_fprobe.exit_handler = m->spread ? fpb_exit_spread : fpb_exit;
	fpb_fprobe.entry_data_size = m->data_size;
	/* Both kernels copy the glob before matching: a literal will do. */
	return register_fprobe(&fpb_fprobe, m->filter, NULL);
}

static int fpb_register_kprobe(void)
{
	int ret;

	/* The function's address: kprobes moves it past the ENDBR. */
	fpb_kprobe.addr = (kprobe_opcode_t *)fpb_tracee;
	ret = register_kprobe(&fpb_kprobe);
	if (ret)
		return ret;
	/* The row is about kprobes on ftrace, not on an int3. */
	if (!(fpb_kprobe.flags & KPROBE_FLAG_FTRACE)) {
		unregister_kprobe(&fpb_kprobe);
		return -EOPNOTSUPP;
	}
	return 0;
}

static int __init fpb_init(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(fpb_modes); i++)
		if (!strcmp(mode, fpb_modes[i].name))
			fpb_mode = &fpb_modes[i];
	if (!fpb_mode)
		return -EINVAL;
	fpb_spread_range();

	switch (fpb_mode->kind) {
	case FPB_FPROBE:
		return fpb_register_fprobe(fpb_mode);
	case FPB_KPROBE:
		return fpb_register_kprobe();
	case FPB_KRETPROBE:
		fpb_kretprobe.kp.addr = (kprobe_opcode_t *)fpb_tracee;
		return register_kretprobe(&fpb_kretprobe);
	default:
		return 0;
	}
}

static void __exit fpb_exit_module(void)
{
	switch (fpb_mode->kind) {
	case FPB_FPROBE:
		unregister_fprobe(&fpb_fprobe);
		break;
	case FPB_KPROBE:
		unregister_kprobe(&fpb_kprobe);
		break;
	case FPB_KRETPROBE:
		unregister_kretprobe(&fpb_kretprobe);
		break;
	default:
		break;
	}
}

module_init(fpb_init);
module_exit(fpb_exit_module);
MODULE_DESCRIPTION("Cost per call of fprobe and kprobes, for make bench");
MODULE_LICENSE("GPL");
