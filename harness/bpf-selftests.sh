#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the subset of the kernel's BPF selftests (test_progs) that hooks
# functions, from a prepared tree and its test kernel's build, with the
# tree's own libbpf, bpftool and resolve_btfids and Debian's clang, and
# lay out what the guest needs in OUT/root/selftests/bpf.
#
# The whole test_progs does not build here: with Debian 12's clang 14,
# 26 of the 798 BPF programs of 6.12 fail against this kernel's BTF, 8
# in clang (newer inline-asm syntax in 5 verifier_*.c, loops it cannot
# unroll in profiler1/3.c, rcu_read_lock.c's unused variable), 18 for
# types the test kernel does not build (IPv6, netfilter, cgroup BPF,
# crypto, MPTCP, xfrm).  So test_progs is built from the subset's own
# test files and BPF programs only: symlinks to them in
# prog_tests-clients/ and progs-clients/ of the tree's selftests, named
# to the Makefile as its test and program folders.  (test_progs.c
# declares every test weak: the others are left out.)
#
# usage: bpf-selftests.sh SRC BUILD OUT
set -euo pipefail
src=$(realpath "$1") build=$(realpath "$2") out=$(realpath -m "$3")
sel=$src/tools/testing/selftests/bpf
jobs=${JOBS:-$(( $(nproc) + 1 ))}
log=$out.log

# The tests, one a line as test_progs names them (harness/test-plan-bpf
# runs them one a case), and the BPF programs their test files load.
tests="fentry_test fexit_test fentry_fexit fexit_sleep fexit_stress
	modify_return trampoline_count kprobe_multi_test
	kprobe_multi_testmod_test get_func_ip_test attach_probe module_attach
	tracing_struct fill_link_info missed bpf_cookie"
progs="btf_data fentry_test fexit_test fentry_many_args fexit_many_args
	fexit_sleep modify_return test_trampoline_count kprobe_multi
	kprobe_multi_empty kprobe_multi_override kprobe_multi_session
	kprobe_multi_session_cookie kprobe_multi_sleepable get_func_ip_test
	get_func_ip_uprobe_test test_attach_kprobe_sleepable test_attach_probe
	test_attach_probe_manual test_module_attach tracing_struct
	tracing_struct_many_args test_fill_link_info missed_kprobe
	missed_kprobe_recursion missed_tp_recursion test_bpf_cookie uprobe_multi"

step() { echo "[bpf-selftests] $*"; }

rm -rf "$sel/prog_tests-clients" "$sel/progs-clients"
mkdir -p "$sel/prog_tests-clients" "$sel/progs-clients" "$out"
for t in $tests; do
	# kprobe_multi_test.c also holds kprobe_multi_bench_attach.
	[ -e "$sel/prog_tests/$t.c" ] && ln -s "../prog_tests/$t.c" "$sel/prog_tests-clients/"
done
for p in $progs; do
	ln -s "../progs/$p.c" "$sel/progs-clients/"
done
for h in "$sel"/progs/*.h; do
	ln -s "../progs/$(basename "$h")" "$sel/progs-clients/"
done
# bpf_cookie.c's lsm subtest (not run: no BPF LSM here) calls
# test_lsm.c's stack_mprotect(), its uprobe_multi subtest the functions
# of uprobe_multi_test.c; neither file is in the subset.
cat > "$sel/prog_tests-clients/clients_stubs.c" <<'EOF'
// SPDX-License-Identifier: GPL-2.0
/* What the subset's tests call from test files left out of it. */
#include <alloca.h>
#include <sys/mman.h>
#include <unistd.h>

int stack_mprotect(void);
int stack_mprotect(void)	/* as prog_tests/test_lsm.c's */
{
	long sz = sysconf(_SC_PAGESIZE);
	void *buf;

	if (sz < 0)
		return sz;
	buf = alloca(sz * 3);
	return mprotect((char *)(((unsigned long)(buf + sz)) & ~(sz - 1)), sz,
			PROT_READ | PROT_WRITE | PROT_EXEC);
}

/* as prog_tests/uprobe_multi_test.c's */
#define noinline __attribute__((noinline))
noinline void uprobe_multi_func_1(void);
noinline void uprobe_multi_func_2(void);
noinline void uprobe_multi_func_3(void);
noinline void uprobe_multi_func_1(void) { asm volatile (""); }
noinline void uprobe_multi_func_2(void) { asm volatile (""); }
noinline void uprobe_multi_func_3(void) { asm volatile (""); }
EOF
# test_progs.c includes prog_tests/tests.h, which names every test.
(echo '/* Generated header, do not edit */'
 sed -n -E 's/^void (serial_)?test_([a-zA-Z0-9_]+)\((void)?\).*/DEFINE_TEST(\2)/p' \
	"$sel"/prog_tests-clients/*.c | sort) > "$sel/prog_tests/tests.h"

# The compiler's dependency files name the light skeletons by their
# bare names, which no rule of a second run makes: start those afresh.
rm -f "$out"/*.test.d
step "test_progs of $(echo $tests | wc -w) tests in ${out#$PWD/} (log: ${log#$PWD/})"
# KDIR: bpf_testmod.ko builds against the test kernel's build.
if ! make -C "$sel" -j"$jobs" OUTPUT="$out" VMLINUX_BTF="$build/vmlinux" \
	KDIR="$build" CLANG=clang LLC=llc LLVM_STRIP=llvm-strip \
	TRUNNER_TESTS_DIR=prog_tests-clients TRUNNER_BPF_PROGS_DIR=progs-clients \
	LSKELS="fentry_test.c fexit_test.c fexit_sleep.c" LSKELS_EXTRA= \
	LINKED_SKELS= \
	TRUNNER_EXTRA_FILES="$out/urandom_read $out/bpf_testmod.ko $out/liburandom_read.so $out/uprobe_multi" \
	"$out/test_progs" > "$log" 2>&1; then
	grep -B2 -A8 -m5 'error' "$log" | tail -40 >&2 || tail -30 "$log" >&2
	step "FAILED (log: $log)" >&2
	exit 1
fi

# The guest's share: test_progs with the objects and programs it opens
# from its own folder, and the shared libraries it links.
root=$out/root
rm -rf "$root"
dst=$root/selftests/bpf
mkdir -p "$dst"
cp "$out/test_progs" "$out"/*.bpf.o "$out/urandom_read" "$out/liburandom_read.so" \
	"$out/uprobe_multi" "$dst/"
strip --strip-debug -o "$dst/bpf_testmod.ko" "$out/bpf_testmod.ko"
for bin in "$out/test_progs" "$out/urandom_read"; do
	for lib in $(LD_LIBRARY_PATH=$out ldd "$bin" | grep -o '/[^ ]*'); do
		case "$lib" in "$out"/*) continue ;; esac
		[ -e "$root$lib" ] || install -D -m 0755 "$lib" "$root$lib"
	done
done
echo "$tests" | tr -s ' \t\n' '\n' | sed '/^$/d' > "$dst/clients-tests"
# libbpf resolves the programs' __kconfig externs (get_func_ip_test's,
# test_fill_link_info's CONFIG_X86_KERNEL_IBT) from the kernel's config,
# which it looks for at /boot/config-$(uname -r).
krel=$(cat "$build/include/config/kernel.release")
install -D -m 0644 "$build/.config" "$root/boot/config-$krel"
step "done: $(ls "$dst" | wc -l) files for the guest in ${root#$PWD/}"
