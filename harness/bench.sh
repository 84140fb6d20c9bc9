#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Compare the unmodified base with the series: one config for both (no
# boot selftests), each booted under QEMU with -icount shift=0 so that a
# guest nanosecond is one instruction, exact on a busy machine.  Prints
# instructions per call of samples/ftrace/ftrace-ops.ko, per site of
# turning the function tracer on and off, per call of the function graph
# (harness/modules/fgraph_bench.c) and of fprobe and kprobes
# (harness/modules/fprobe_bench.c), per round of a syscall workload under
# the tracers and probe events, the shadow stacks' bytes per task
# as the kernel's memory grows with them, and the boot-time records of
# the patch sites (how many, bytes per record), side by side, with the
# goal the open issues set beside a row that has one
# (harness/bench-table.py).  A row that could not run, failed a check
# or that either kernel lacks fails the run.
#
# usage: bench.sh OUTDIR
#   BENCH_ROWS='GLOB ...' runs only the rows that match (a quick check;
#   such a run writes no table to publish).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=$(realpath -m "$1")
mkdir -p "$out"
top=$(dirname "$out")
rows=${BENCH_ROWS:-}

# Prepare, build and pack kernel $1 (base or series).
build() {
	local src=$top/src-bench-$1
	# bench-patches/: what only make bench's kernels need, the same for
	# both (exports for fgraph_bench.ko, the sample's check_count).
	if [ "$1" = base ]; then
		"$here/prepare.py" --pristine --extra "$here/bench-patches/base" "$src"
	else
		"$here/prepare.py" --extra "$here/bench-patches/series" "$src"
	fi
	"$here/build.sh" "$src" "$top/build-bench-$1" bench
	"$here/initramfs.sh" "$src" "$top/build-bench-$1" "$out/initrd-$1.cpio.gz"
}

# Boot kernel $1 and run the guest's rows (harness/guest/bench.sh).
boot() {
	local append="console=ttyS0 quiet panic=-1 nokaslr series.mode=bench"
	[ -z "$rows" ] || append="$append series.rows=${rows// /,}"
	echo "[bench] booting $1 with -icount shift=0"
	: > "$out/results-$1.log"
	timeout 1200 qemu-system-x86_64 -M q35 -smp 2 -m 1G -nodefaults \
		-display none -no-reboot -accel tcg -cpu max -icount shift=0 \
		-kernel "$top/build-bench-$1/arch/x86/boot/bzImage" \
		-initrd "$out/initrd-$1.cpio.gz" -append "$append" \
		-serial "file:$out/console-$1.log" \
		-serial "file:$out/results-$1.log" ||
		echo "[bench] $1: qemu exited with $?"
	grep -q '^@@done' "$out/results-$1.log" ||
		echo "[bench] $1 did not finish; see $out/console-$1.log" >&2
}

for v in base series; do
	build $v
	boot $v
done

# The tables' header names the run: when, which commit of the series,
# which base, which QEMU.
# shellcheck source=harness/base.env
. "$here/base.env"
commit=$(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown)
qemu=$(qemu-system-x86_64 --version | sed -n '1s/.*version \([^ ]*\).*/\1/p')
"$here/bench-table.py" "$out" ${rows:+--partial} \
	--header "make bench of $(date -u '+%Y-%m-%d %H:%M') UTC: series $commit," \
	--header "base $BASE_PKG $BASE_VERSION, QEMU $qemu -icount shift=0."
