#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Count the instructions of one hooked call, function by function: boot
# the series' bench kernel (as `make bench` builds it) with QEMU's gdb
# stub, have the guest hook the tracee of a bench row and call it, and
# single-step one call from gdb (harness/trace-call.py).  What a row of
# `make bench` costs, and where it goes.
#
# usage: [KERNEL=base] trace-call.sh OUTDIR ROW...
#   ROW: the ftrace-ops.ko rows of `make bench` (nr_ops_relevant=N,
#        1_relevant+5_irrelevant, save_regs, assist_recursion, assist_rcu),
#        fgraph_1_user, fgraph_2_user, fprobe_<mode of fprobe_bench.ko>,
#        function_tracer, function_graph_tracer (the tracer on
#        fgraph_bench.ko's tracee alone; with _off, tracing_on 0)
#        event_fprobe, event_fprobe_return, event_kprobe, event_kretprobe
#        (a probe event on fgraph_bench.ko's tracee, recording)
#        wl_<row of make bench's workload, without workload_> (one round
#        of syscall_loop, its three system calls from the syscall entry)
#   KERNEL=base steps the unmodified base's bench kernel instead.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(realpath -m "$1")
shift
[ $# -gt 0 ] || { echo "usage: $0 OUTDIR ROW..." >&2; exit 2; }
kernel=${KERNEL:-series}
mkdir -p "$out"
top=$(dirname "$out")
src=$top/src-bench-$kernel
build=$top/build-bench-$kernel

case $kernel in
series)	"$here/prepare.py" --extra "$here/bench-patches/series" "$src" ;;
base)	"$here/prepare.py" --pristine --extra "$here/bench-patches/base" "$src" ;;
*)	echo "KERNEL is base or series" >&2; exit 2 ;;
esac
"$here/build.sh" "$src" "$build" bench
"$here/initramfs.sh" "$src" "$build" "$out/initrd.cpio.gz"

for row in "$@"; do
	log=$out/$kernel-$row
	: > "$log.guest"
	port=$((20000 + RANDOM % 20000))
	qemu-system-x86_64 -M q35 -smp 2 -m 1G -nodefaults -display none \
		-no-reboot -accel tcg -cpu max -gdb tcp:localhost:$port \
		-kernel "$build/arch/x86/boot/bzImage" \
		-initrd "$out/initrd.cpio.gz" \
		-append "console=ttyS0 quiet panic=-1 nokaslr series.mode=trace series.row=$row" \
		-serial "file:$log.console" -serial "file:$log.guest" &
	qemu=$!
	for _ in $(seq 600); do
		grep -q '^@@\(ready\|error\)' "$log.guest" && break
		kill -0 $qemu 2>/dev/null || break
		sleep 1
	done
	if ! grep -q '^@@ready' "$log.guest"; then
		kill $qemu 2>/dev/null || true
		echo "[trace-call] $row: the guest did not get ready; see $log.console" >&2
		exit 1
	fi
	echo "[trace-call] $row"
	TRACE_PORT=$port TRACE_MAP=$build/System.map TRACE_SYMS=$log.guest \
		TRACE_OUT=$log.pcs gdb -batch -nx -x "$here/trace-call.py" \
		> "$log.txt" 2>&1 || true
	kill $qemu 2>/dev/null || true
	wait $qemu 2>/dev/null || true
	grep -q '^@@total' "$log.txt" || {
		echo "[trace-call] $row: gdb failed; see $log.txt" >&2; exit 1; }
	sed -n '/^@@path/,$p' "$log.txt" | sed 's/^@@//'
done
