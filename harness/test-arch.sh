#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make test-arm64`, `make test-arm` and `make test-i386`: build the
# arch's test kernel (configs/arch/common, ARCH and ARCH-test), its
# initramfs with Debian's busybox for it, and run harness/test-plan-ARCH
# in its QEMU.
#
# usage: test-arch.sh arm64|arm|i386 SRC OUT [CASES]
set -euo pipefail
arch=$1 src=$2 out=$3 cases=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
build=$out/build-$arch-test
log=$build.log
jobs=${JOBS:-$(( $(nproc) + 1 ))}
case $arch in
arm64)	export ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-
	image=Image busybox=busybox-arm64 qemu=() ;;
# One vCPU: arm patches each site through a fixmap under stop_machine,
# and each of its TLB flushes hands single-threaded TCG to the other
# vCPU, which spins in multi_cpu_stop until its 100 ms slice ends (a
# tracer over every function then takes half an hour).  Without LPAE
# or highmem the kernel maps some 760 MB: 512 MB will do.
arm)	export ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf-
	image=zImage busybox=busybox-armhf
	qemu=(--cpu cortex-a15 --smp 1 --mem 512M) ;;
# Two vCPUs (ACPI on, or the guest brings up one), so that sites are
# patched under another CPU through text_poke_bp(), as on x86-64; an
# Intel vendor, as QEMU's default AMD one of family 6 is an Athlon that
# 32-bit Linux warns is not fit for SMP.
i386)	export ARCH=i386 CROSS_COMPILE=i686-linux-gnu-
	image=bzImage busybox=busybox-i386
	qemu=(--cpu max,vendor=GenuineIntel --smp 2 --mem 1G) ;;
*)	echo "usage: $0 arm64|arm|i386 SRC OUT [CASES]" >&2; exit 2 ;;
esac

step() { echo "[test-$arch] $*"; }

mkdir -p "$build"
EXTRA_CONFIG=$(dirname "$here")/configs/arch/$arch-test.config \
	"$here/kconfig.sh" "$src" "$build" "arch-$arch"
step "kernel and modules in $build (log: $log)"
if ! make -C "$src" O="$(realpath "$build")" -j"$jobs" "$image" modules >"$log" 2>&1; then
	grep -B2 -A6 -m8 'error:\|Error \|undefined reference' "$log" | tail -40 >&2
	step "FAILED: the build (log: $log)"
	echo "0 passed, 1 failed, 0 skipped"
	exit 1
fi
initrd=$out/initrd-$arch-test.cpio.gz
step "initramfs $initrd"
GUEST_ARCH=$arch BUSYBOX=${SERIES_CACHE:-$HOME/.cache/ftrace-series}/$busybox/bin/busybox \
	"$here/initramfs.sh" "$src" "$build" "$initrd"
exec "$here/run-tests.py" --arch "$arch" "${qemu[@]}" \
	--kernel "$build/arch/$ARCH/boot/$image" --initrd "$initrd" \
	--out "$out/test-$arch" --plan "$here/test-plan-$arch" --shards 1 \
	${cases:+--cases "$cases"}
