#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Cross-build the series for the other architectures whose ftrace code
# it adapts (patches/arch/ARCH/), each with its Debian cross compiler:
# tinyconfig + configs/arch/common.config + configs/arch/ARCH.config, the
# kernel and its modules (or the targets harness/cross-compilers names),
# into OUT/build-arch-ARCH.  Kconfig must keep every option the
# fragments ask for (harness/kconfig.sh checks).
#
# usage: arches.sh SRC OUT [ARCH...]   (default: every arch below)
#        arches.sh --list                the arches, one a line
# Prints "N passed, N failed"; exits non-zero if a build failed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
jobs=${JOBS:-$(( $(nproc) + 1 ))}

# Each architecture's cross compiler and targets: harness/cross-compilers.
declare -A cross=() targets=()
all=()
while read -r arch prefix what; do
	cross[$arch]=$prefix targets[$arch]=$what
	all+=("$arch")
done < <(grep -v '^#' "$here/cross-compilers" | grep .)
if [ "${1:-}" = --list ]; then
	printf '%s\n' "${all[@]}"
	exit 0
fi
src=$1 out=$2
shift 2
arches=("$@")
[ ${#arches[@]} -eq 0 ] && arches=("${all[@]}")

passed=0 failed=0
for arch in "${arches[@]}"; do
	if [ -z "${cross[$arch]:-}" ]; then
		echo "[arches] $arch: unknown (have: ${all[*]})" >&2
		failed=$((failed + 1))
		continue
	fi
	build=$out/build-arch-$arch
	log=$build.log
	mkdir -p "$build"
	echo "[arches] $arch: building in $build (log: $log)"
	start=$SECONDS
	if ARCH=$arch CROSS_COMPILE=${cross[$arch]} \
		"$here/kconfig.sh" "$src" "$build" "arch-$arch" >"$log" 2>&1 &&
	   make -C "$src" O="$(realpath "$build")" ARCH="$arch" \
		CROSS_COMPILE="${cross[$arch]}" -j"$jobs" ${targets[$arch]} >>"$log" 2>&1; then
		echo "PASSED   arches:$arch ($((SECONDS - start))s)"
		passed=$((passed + 1))
	else
		echo "FAILED   arches:$arch ($((SECONDS - start))s, log: $log)"
		grep -B2 -A6 -m8 'error:\|Error \|kconfig:\|undefined reference' "$log" |
			tail -50 | sed 's/^/    | /'
		failed=$((failed + 1))
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
