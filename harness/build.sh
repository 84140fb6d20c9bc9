#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build one flavour of the kernel (run, test or bench) out of tree, with
# its modules and, for the test flavour, the livepatch selftest modules.
# The make output goes to a log; progress is shown as it goes.
# A flavour cfg-NAME (an entry of `make configs`) is the test kernel with
# configs/matrix/NAME.config: built with W=1, and without the modules
# its configuration has no place for.  Flavour distro is Debian's
# configuration (harness/kconfig.sh), built as Debian builds it: no W=1.
#
# usage: build.sh SRC BUILD FLAVOUR
set -euo pipefail
src=$(realpath "$1") build=$(realpath -m "$2") flavour=$3
here=$(cd "$(dirname "$0")" && pwd)
jobs=${JOBS:-$(( $(nproc) + 1 ))}
log=$build.log

step() { echo "[build $flavour] $*"; }

"$here/kconfig.sh" "$src" "$build" "$flavour"
has() { grep -q "^CONFIG_$1=y" "$build/.config"; }

# The matrix's kernels show the extra warnings of W=1 (harness/configs.py
# fails an entry on one in the series' files).
extra=()
case "$flavour" in cfg-*) extra=(W=1) ;; esac

run_make() {
	local what=$1; shift
	: >"$log.part"
	make -C "$src" O="$build" -j"$jobs" "${extra[@]}" "$@" >>"$log.part" 2>&1 &
	local pid=$! last=0 now n
	while kill -0 $pid 2>/dev/null; do
		sleep 5
		now=$SECONDS
		n=$(grep -c '^  \(CC\|AS\|LD\|AR\)' "$log.part" || true)
		if [ -t 1 ]; then
			printf '\r\033[K[build %s] %s: %d steps' "$flavour" "$what" "$n"
		elif [ $((now - last)) -ge 60 ]; then
			step "$what: $n steps"; last=$now
		fi
	done
	[ -t 1 ] && printf '\r\033[K'
	cat "$log.part" >>"$log"
	if ! wait $pid; then
		grep -B2 -A8 -m5 'error\|Error' "$log.part" | tail -40 >&2 || tail -30 "$log.part" >&2
		step "FAILED: $what (full log: $log)" >&2
		return 1
	fi
}

: >"$log"
step "kernel and modules in ${build#$PWD/} (log: ${log#$PWD/})"
if ! has MODULES; then
	# Neither ours nor the livepatch selftests' modules have a place.
	run_make "kernel" bzImage
	step "done (no modules): ${build#$PWD/}/arch/x86/boot/bzImage"
	exit 0
fi
run_make "kernel" bzImage modules

# A module's BTF is split against vmlinux's, but kbuild relinks an
# external module only when its own sources change: after vmlinux
# changes, an old .ko carries BTF the kernel refuses ("failed to
# validate module BTF") and modprobe fails with EINVAL.  Drop the .ko
# files older than vmlinux so that they are linked again.
relink_stale_modules() {
	find "$1" -name '*.ko' ! -newer "$build/vmlinux" -delete
}

# Our own modules (the demo's ftrace_hits.ko and friends).
hm=$build/harness-modules
mkdir -p "$hm"
rsync -a "$here/modules/" "$hm/"
relink_stale_modules "$hm"
bench=
[ "$flavour" = bench ] && bench=m
run_make "harness modules" M="$hm" HARNESS_BENCH=$bench modules

if [[ $flavour = test || $flavour = cfg-* || $flavour = distro ]] && has LIVEPATCH; then
	# The livepatch selftests' modules build against this tree as an
	# external module directory; keep their objects out of the source.
	lp=$build/livepatch-modules
	mkdir -p "$lp"
	rsync -a --delete "$src/tools/testing/selftests/livepatch/test_modules/" "$lp/"
	run_make "livepatch test modules" M="$lp" modules
	gcc -static -O2 -o "$lp/test_klp-call_getpid" \
		"$src/tools/testing/selftests/livepatch/test_klp-call_getpid.c"
fi
step "done: ${build#$PWD/}/arch/x86/boot/bzImage"
