// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_kmulti - BPF kprobe_multi and kretprobe_multi links, end to end.
 *
 * usage: bpf_kmulti GLOB CALLS
 *
 * With bpf(2) alone (no libbpf, no compiler for BPF), load a program
 * that adds 1 to the map slot its link's cookie names, attach it to
 * every function of available_filter_functions that matches GLOB, once
 * as kprobe_multi (cookie SLOT_ENTRY) and once as kretprobe_multi
 * (cookie SLOT_RETURN), call getpid(2) CALLS times and read the slots
 * back.  GLOB must match __do_sys_getpid, so that each slot must have
 * counted at least CALLS; a call whose cookie was not found (the link
 * did not know the entry address it was handed) lands in SLOT_NONE,
 * which must stay 0.  Then: every matched function is listed in
 * enabled_functions while the links exist and none is once they are
 * closed, the slots stop moving, and a link to a function that does
 * not exist is refused and leaves nothing behind.
 *
 * Last, error injection: a second program calls bpf_override_return()
 * with OVERRIDE_RC.  Linked as kprobe_multi to TRIGGER alone, it makes
 * getpid(2) return OVERRIDE_RC without running its body, which only
 * works if the fprobe's ftrace_ops trampoline writes the instruction
 * pointer the program changed back; once the link is closed getpid(2)
 * returns the real pid again.  A link of it to NOT_INJECTABLE, alone or
 * with TRIGGER, is refused (EINVAL) and hooks nothing.  Our configs
 * enable CONFIG_BPF_KPROBE_OVERRIDE, so a kernel that refuses the
 * program fails.
 *
 * Exit status: 0 pass, 4 unsupported (no bpf(2) or no kprobe_multi),
 * 1 fail.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <linux/bpf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define TRACEFS		"/sys/kernel/tracing"
/*
 * getpid(2)'s body.  __x64_sys_getpid is only an alias of it (so is any
 * SYSCALL_DEFINE0's entry), and the listings of ftrace name a function
 * by the first of its names that kallsyms holds.
 */
#define TRIGGER		"__do_sys_getpid"
#define MISSING		"bpf_kmulti_no_such_function"
/*
 * A traceable function without ALLOW_ERROR_INJECTION(): a program that
 * overrides return values must not be linked to it.  (Every
 * SYSCALL_DEFINE's __x64_sys_ entry is on the list, and with it the
 * __do_sys_ body of a SYSCALL_DEFINE0, its alias: hence not one of
 * those.)
 */
#define NOT_INJECTABLE	"vfs_read"
#define EI_LIST		"/sys/kernel/debug/error_injection/list"
/* Above PID_MAX_LIMIT (4M), so no real getpid(2) can return it. */
#define OVERRIDE_RC	42424242
#define OVERRIDE_CALLS	10

enum { SLOT_NONE, SLOT_ENTRY, SLOT_RETURN, NR_SLOTS };

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define INSN(c, d, s, o, i) \
	{ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) }

static int failed;

#define FAIL(...) do { printf("FAIL: " __VA_ARGS__); putchar('\n'); failed = 1; } while (0)

static int sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

static __u64 ptr_to_u64(const void *p)
{
	return (__u64)(uintptr_t)p;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

/*
 * The names in available_filter_functions that match @glob, sorted and
 * without repeats (static functions may share a name); names of module
 * functions (" [mod]" after the name) are left out.
 */
static char **match_functions(const char *glob, size_t *nr)
{
	FILE *f = fopen(TRACEFS "/available_filter_functions", "r");
	char **names = NULL, *line = NULL;
	size_t len = 0, n = 0, i, j;

	if (!f) {
		perror(TRACEFS "/available_filter_functions");
		exit(4);
	}
	while (getline(&line, &len, f) > 0) {
		line[strcspn(line, "\n")] = '\0';
		if (strchr(line, ' ') || fnmatch(glob, line, 0))
			continue;
		names = realloc(names, (n + 1) * sizeof(*names));
		if (names)
			names[n] = strdup(line);
		if (!names || !names[n++]) {
			perror("match_functions");
			exit(1);
		}
	}
	free(line);
	fclose(f);
	qsort(names, n, sizeof(*names), cmp_names);
	for (i = j = 0; i < n; i++) {
		if (j && !strcmp(names[j - 1], names[i]))
			free(names[i]);
		else
			names[j++] = names[i];
	}
	*nr = j;
	return names;
}

/*
 * How many of the sorted @names enabled_functions lists (its lines are
 * "name (count) flags..."); the first few are printed after @why.
 */
static size_t count_enabled(char **names, size_t nr, const char *why)
{
	FILE *f = fopen(TRACEFS "/enabled_functions", "r");
	char *line = NULL, *key;
	size_t len = 0, found = 0;

	if (!f) {
		perror(TRACEFS "/enabled_functions");
		exit(1);
	}
	while (getline(&line, &len, f) > 0) {
		line[strcspn(line, "\n")] = '\0';
		key = strndup(line, strcspn(line, " \t"));
		if (bsearch(&key, names, nr, sizeof(*names), cmp_names) &&
		    found++ < 3)
			printf("  %s: %s\n", why, line);
		free(key);
	}
	free(line);
	fclose(f);
	return found;
}

static int create_map(void)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = sizeof(__u32);
	attr.value_size = sizeof(__u64);
	attr.max_entries = NR_SLOTS;
	return sys_bpf(BPF_MAP_CREATE, &attr);
}

/* Load a kprobe_multi program; print the verifier's log if refused. */
static int prog_load(const struct bpf_insn *insns, size_t cnt)
{
	static char log[65536];
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_KPROBE;
	attr.expected_attach_type = BPF_TRACE_KPROBE_MULTI;
	attr.insns = ptr_to_u64(insns);
	attr.insn_cnt = cnt;
	attr.license = ptr_to_u64("GPL");
	attr.log_buf = ptr_to_u64(log);
	attr.log_size = sizeof(log);
	attr.log_level = 1;
	fd = sys_bpf(BPF_PROG_LOAD, &attr);
	if (fd < 0)
		printf("verifier log:\n%s\n", log);
	return fd;
}

/* The program: map[cookie] += 1, atomically (both links share the map). */
static int load_prog(int map_fd)
{
	struct bpf_insn insns[] = {
		/* r0 = bpf_get_attach_cookie(ctx): which link ran us */
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_attach_cookie),
		/* *(u32 *)(fp - 4) = r0: the key */
		INSN(BPF_STX | BPF_MEM | BPF_W, BPF_REG_10, BPF_REG_0, -4, 0),
		/* r2 = fp - 4 */
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_10, 0, 0),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, -4),
		/* r1 = the map (a 16-byte load of its fd) */
		INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_FD, 0, map_fd),
		INSN(0, 0, 0, 0, 0),
		/* r0 = bpf_map_lookup_elem(r1, r2); if (!r0) goto out */
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem),
		INSN(BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 2, 0),
		/* lock *(u64 *)(r0 + 0) += 1 */
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_1, 0, 0, 1),
		INSN(BPF_STX | BPF_ATOMIC | BPF_DW, BPF_REG_0, BPF_REG_1, 0, BPF_ADD),
		/* out: return 0 */
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};

	return prog_load(insns, ARRAY_SIZE(insns));
}

/*
 * The error injector: bpf_override_return(ctx, OVERRIDE_RC); return 0.
 * r1 holds ctx at entry and is the helper's first argument as it is.
 * The verifier marks the program kprobe_override for the call, which is
 * what makes a link refuse functions off the error-injection list.
 */
static int load_override_prog(void)
{
	struct bpf_insn insns[] = {
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, OVERRIDE_RC),
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_override_return),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};

	return prog_load(insns, ARRAY_SIZE(insns));
}

/* A kprobe_multi link (kretprobe_multi with @flags RETURN) on @syms. */
static int attach(int prog_fd, const char * const *syms, const __u64 *cookies,
		  size_t cnt, __u32 flags)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.link_create.prog_fd = prog_fd;
	attr.link_create.attach_type = BPF_TRACE_KPROBE_MULTI;
	attr.link_create.kprobe_multi.flags = flags;
	attr.link_create.kprobe_multi.cnt = cnt;
	attr.link_create.kprobe_multi.syms = ptr_to_u64(syms);
	attr.link_create.kprobe_multi.cookies = ptr_to_u64(cookies);
	return sys_bpf(BPF_LINK_CREATE, &attr);
}

static void read_slots(int map_fd, __u64 *slots)
{
	union bpf_attr attr;
	__u32 key;

	for (key = 0; key < NR_SLOTS; key++) {
		memset(&attr, 0, sizeof(attr));
		attr.map_fd = map_fd;
		attr.key = ptr_to_u64(&key);
		attr.value = ptr_to_u64(&slots[key]);
		if (sys_bpf(BPF_MAP_LOOKUP_ELEM, &attr)) {
			perror("BPF_MAP_LOOKUP_ELEM");
			exit(1);
		}
	}
}

static void call_getpid(unsigned long calls)
{
	while (calls--)
		syscall(SYS_getpid);	/* glibc's getpid() would do too */
}

/*
 * Whether EI_LIST names @name or @alias (it prints an entry's address
 * with %ps, so by whichever of its names kallsyms finds first); -1 when
 * the list cannot be read.
 */
static int error_injectable(const char *name, const char *alias)
{
	FILE *f = fopen(EI_LIST, "r");
	char *line = NULL;
	size_t len = 0;
	int found = 0;

	if (!f)
		return -1;
	while (!found && getline(&line, &len, f) > 0) {
		line[strcspn(line, " \t\n")] = '\0';
		found = !strcmp(line, name) || (alias && !strcmp(line, alias));
	}
	free(line);
	fclose(f);
	return found;
}

/* getpid(2) @calls times; how many returned something other than @want. */
static unsigned long getpid_misses(unsigned long calls, long want, long *got)
{
	unsigned long misses = 0;

	while (calls--) {
		*got = syscall(SYS_getpid);
		misses += *got != want;
	}
	return misses;
}

/*
 * bpf_override_return() through kprobe_multi: TRIGGER returns
 * OVERRIDE_RC while linked and the real pid after; NOT_INJECTABLE is
 * refused, alone and beside TRIGGER, leaving nothing hooked.
 */
static void check_override(void)
{
	static const char * const trigger[] = { TRIGGER };
	static const char * const refused[] = { NOT_INJECTABLE };
	static const char * const mixed[] = { TRIGGER, NOT_INJECTABLE };	/* sorted */
	long pid = syscall(SYS_getpid), got;
	unsigned long misses;
	int prog_fd, fd, err, i;
	char **names;
	size_t nr;

	/* Else the refusal below would be ENOENT's, not the injection check's. */
	names = match_functions(NOT_INJECTABLE, &nr);
	if (!nr)
		FAIL("%s is not in available_filter_functions", NOT_INJECTABLE);
	while (nr--)
		free(names[nr]);
	free(names);
	switch (error_injectable(NOT_INJECTABLE, NULL)) {
	case -1:
		printf("no %s: cannot confirm %s is not injectable\n",
		       EI_LIST, NOT_INJECTABLE);
		break;
	case 1:
		FAIL("%s is on the error-injection list: pick another", NOT_INJECTABLE);
		return;
	}
	if (!error_injectable(TRIGGER, "__x64_sys_getpid"))
		FAIL("%s is not on the error-injection list", TRIGGER);

	prog_fd = load_override_prog();
	if (prog_fd < 0) {
		err = errno;
		perror("BPF_PROG_LOAD of bpf_override_return()");
		FAIL("no override program: %s (needs CONFIG_BPF_KPROBE_OVERRIDE)",
		     strerrorname_np(err));
		return;
	}
	fd = attach(prog_fd, trigger, NULL, 1, 0);
	if (fd < 0) {
		FAIL("override link on %s: %s", TRIGGER, strerror(errno));
		close(prog_fd);
		return;
	}
	if (count_enabled((char **)trigger, 1, "override enabled") != 1)
		FAIL("override link: %s not in enabled_functions", TRIGGER);
	misses = getpid_misses(OVERRIDE_CALLS, OVERRIDE_RC, &got);
	printf("override link: %d getpid() calls, %lu did not return %d (last %ld)\n",
	       OVERRIDE_CALLS, misses, OVERRIDE_RC, got);
	if (misses)
		FAIL("bpf_override_return() did not take effect (real pid %ld)", pid);

	close(fd);
	if (count_enabled((char **)trigger, 1, "left enabled by override"))
		FAIL("%s still hooked after the override link closed", TRIGGER);
	misses = getpid_misses(OVERRIDE_CALLS, pid, &got);
	printf("override link closed: %lu of %d getpid() calls not %ld (last %ld)\n",
	       misses, OVERRIDE_CALLS, pid, got);
	if (misses)
		FAIL("getpid() still overridden after the link closed");

	/* The kernel checks every address before it hooks any. */
	for (i = 0; i < 2; i++) {
		const char * const *syms = i ? mixed : refused;

		fd = attach(prog_fd, syms, NULL, i + 1, 0);
		err = errno;
		if (fd >= 0) {
			FAIL("override link on %s%s accepted",
			     i ? TRIGGER " and " : "", NOT_INJECTABLE);
			close(fd);
			continue;
		}
		printf("override link on %s%s: %s (%s)\n", i ? TRIGGER " and " : "",
		       NOT_INJECTABLE, strerrorname_np(err), strerror(err));
		if (err != EINVAL)
			FAIL("unexpected error");
	}
	if (count_enabled((char **)mixed, 2, "enabled by a refused override link"))
		FAIL("a refused override link left functions hooked");
	close(prog_fd);
}

int main(int argc, char **argv)
{
	static const char * const flag_name[] = { "kprobe_multi", "kretprobe_multi" };
	static const __u32 flags[] = { 0, BPF_F_KPROBE_MULTI_RETURN };
	static const char * const missing[] = { MISSING };
	static const char * const mixed[] = { TRIGGER, MISSING };
	char *trigger = TRIGGER, **names;
	__u64 *cookies, before[NR_SLOTS], after[NR_SLOTS];
	int map_fd, prog_fd, link_fd[2], fd, err, i;
	unsigned long calls;
	size_t nr, k;

	setvbuf(stdout, NULL, _IOLBF, 0);	/* keep order with perror() */
	calls = argc == 3 ? strtoul(argv[2], NULL, 0) : 0;
	if (!calls) {
		fprintf(stderr, "usage: %s GLOB CALLS\n", argv[0]);
		return 1;
	}
	names = match_functions(argv[1], &nr);
	printf("%zu functions match '%s'\n", nr, argv[1]);
	if (!bsearch(&trigger, names, nr, sizeof(*names), cmp_names)) {
		FAIL("'%s' does not match %s", argv[1], TRIGGER);
		return 1;
	}
	if (count_enabled(names, nr, "enabled before"))
		FAIL("some are hooked already");

	map_fd = create_map();
	if (map_fd < 0) {
		perror("BPF_MAP_CREATE");
		return errno == ENOSYS ? 4 : 1;
	}
	prog_fd = load_prog(map_fd);
	if (prog_fd < 0) {
		perror("BPF_PROG_LOAD");
		return 1;
	}

	/* Both links at once: cookies say which slot each one counts in. */
	cookies = malloc(nr * sizeof(*cookies));
	if (!cookies)
		return 1;
	for (i = 0; i < 2; i++) {
		for (k = 0; k < nr; k++)
			cookies[k] = flags[i] ? SLOT_RETURN : SLOT_ENTRY;
		link_fd[i] = attach(prog_fd, (const char * const *)names,
				    cookies, nr, flags[i]);
		if (link_fd[i] < 0) {
			err = errno;
			printf("%s link: %s\n", flag_name[i], strerror(err));
			return err == EOPNOTSUPP ? 4 : 1;
		}
	}
	k = count_enabled(names, nr, "enabled");
	printf("%zu of %zu functions in enabled_functions\n", k, nr);
	if (k != nr)
		FAIL("not all functions are hooked");

	read_slots(map_fd, before);
	call_getpid(calls);
	read_slots(map_fd, after);
	printf("%lu getpid() calls: entry +%llu, return +%llu, no cookie +%llu\n",
	       calls, after[SLOT_ENTRY] - before[SLOT_ENTRY],
	       after[SLOT_RETURN] - before[SLOT_RETURN],
	       after[SLOT_NONE] - before[SLOT_NONE]);
	if (after[SLOT_ENTRY] - before[SLOT_ENTRY] < calls)
		FAIL("kprobe_multi counted fewer calls than made");
	if (after[SLOT_RETURN] - before[SLOT_RETURN] < calls)
		FAIL("kretprobe_multi counted fewer returns than made");
	if (after[SLOT_NONE])
		FAIL("%llu runs found no cookie for their address",
		     (unsigned long long)after[SLOT_NONE]);

	/* Closing a link's last fd detaches it before close() returns. */
	close(link_fd[0]);
	close(link_fd[1]);
	if (count_enabled(names, nr, "left enabled"))
		FAIL("functions still hooked after the links closed");
	read_slots(map_fd, before);
	call_getpid(calls);
	read_slots(map_fd, after);
	if (memcmp(before, after, sizeof(before)))
		FAIL("the program still runs after its links closed");
	printf("links closed, %lu more calls: counts stay entry %llu, return %llu\n",
	       calls, after[SLOT_ENTRY], after[SLOT_RETURN]);

	/* A name that does not exist: the link is refused, nothing hooked. */
	for (i = 0; i < 4; i++) {
		const char * const *syms = i < 2 ? missing : mixed;
		size_t cnt = i < 2 ? 1 : 2;

		fd = attach(prog_fd, syms, NULL, cnt, flags[i % 2]);
		err = errno;
		if (fd >= 0) {
			FAIL("%s link on %s%s accepted", flag_name[i % 2],
			     cnt > 1 ? TRIGGER " and " : "", MISSING);
			close(fd);
			continue;
		}
		printf("%s link on %s%s: %s (%s)\n", flag_name[i % 2],
		       cnt > 1 ? TRIGGER " and " : "", MISSING,
		       strerrorname_np(err), strerror(err));
		if (err != ENOENT && err != ESRCH && err != EINVAL)
			FAIL("unexpected error");
	}
	if (count_enabled(names, nr, "enabled by a refused link"))
		FAIL("a refused link left functions hooked");

	close(prog_fd);
	close(map_fd);

	check_override();
	printf("%s\n", failed ? "FAILED" : "PASSED");
	return failed;
}
