#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make test-arm64`: build the arm64 test kernel (configs/arch/common,
# arm64 and arm64-test), its initramfs with Debian's arm64 busybox, and
# run harness/test-plan-arm64 in qemu-system-aarch64.
#
# usage: test-arm64.sh SRC OUT [CASES]
set -euo pipefail
src=$1 out=$2 cases=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
build=$out/build-arm64-test
log=$build.log
jobs=${JOBS:-$(( $(nproc) + 1 ))}
export ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-

step() { echo "[test-arm64] $*"; }

mkdir -p "$build"
EXTRA_CONFIG=$(dirname "$here")/configs/arch/arm64-test.config \
	"$here/kconfig.sh" "$src" "$build" arch-arm64
step "kernel and modules in $build (log: $log)"
if ! make -C "$src" O="$(realpath "$build")" -j"$jobs" Image modules >"$log" 2>&1; then
	grep -B2 -A6 -m8 'error:\|Error \|undefined reference' "$log" | tail -40 >&2
	step "FAILED: the build (log: $log)"
	echo "0 passed, 1 failed, 0 skipped"
	exit 1
fi
step "initramfs $out/initrd-arm64-test.cpio.gz"
GUEST_ARCH=arm64 BUSYBOX=${SERIES_CACHE:-$HOME/.cache/ftrace-series}/busybox-arm64/bin/busybox \
	"$here/initramfs.sh" "$src" "$build" "$out/initrd-arm64-test.cpio.gz"
exec "$here/run-tests.py" --arch arm64 --kernel "$build/arch/arm64/boot/Image" \
	--initrd "$out/initrd-arm64-test.cpio.gz" --out "$out/test-arm64" \
	--plan "$here/test-plan-arm64" --shards 1 ${cases:+--cases "$cases"}
