#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make test-arm`: build the 32-bit arm test kernel (configs/arch/common,
# arm and arm-test), its initramfs with Debian's armhf busybox, and run
# harness/test-plan-arm in qemu-system-arm (-M virt -cpu cortex-a15 -smp 1).
#
# usage: test-arm.sh SRC OUT [CASES]
set -euo pipefail
src=$1 out=$2 cases=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
build=$out/build-arm-test
log=$build.log
jobs=${JOBS:-$(( $(nproc) + 1 ))}
export ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf-

step() { echo "[test-arm] $*"; }

mkdir -p "$build"
EXTRA_CONFIG=$(dirname "$here")/configs/arch/arm-test.config \
	"$here/kconfig.sh" "$src" "$build" arch-arm
step "kernel and modules in $build (log: $log)"
if ! make -C "$src" O="$(realpath "$build")" -j"$jobs" zImage modules >"$log" 2>&1; then
	grep -B2 -A6 -m8 'error:\|Error \|undefined reference' "$log" | tail -40 >&2
	step "FAILED: the build (log: $log)"
	echo "0 passed, 1 failed, 0 skipped"
	exit 1
fi
step "initramfs $out/initrd-arm-test.cpio.gz"
GUEST_ARCH=arm BUSYBOX=${SERIES_CACHE:-$HOME/.cache/ftrace-series}/busybox-armhf/bin/busybox \
	"$here/initramfs.sh" "$src" "$build" "$out/initrd-arm-test.cpio.gz"
# One vCPU: arm patches each site through a fixmap under stop_machine,
# and each of its TLB flushes hands single-threaded TCG to the other
# vCPU, which spins in multi_cpu_stop until its 100 ms slice ends (a
# tracer over every function then takes half an hour).  Without LPAE
# or highmem the kernel maps some 760 MB: 512 MB will do.
exec "$here/run-tests.py" --arch arm --cpu cortex-a15 --smp 1 --mem 512M \
	--kernel "$build/arch/arm/boot/zImage" \
	--initrd "$out/initrd-arm-test.cpio.gz" --out "$out/test-arm" \
	--plan "$here/test-plan-arm" --shards 1 ${cases:+--cases "$cases"}
