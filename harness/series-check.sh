#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Check the exported series the way a maintainer would take it: export it
# (harness/series.sh: checkpatch --strict on every patch), `git am` the
# patches one by one onto the pristine base and, after each, build what
# harness/series-map names for it with the test kernel's fragments in one
# build directory (incremental); after the last, the whole kernel with
# its modules, and the fragments must hold.  Then the applied tree must
# be make prepare's.
#
# usage: series-check.sh OUTDIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=$(realpath -m "$1")
series=$out/series src=$out/src build=$out/build log=$out/build.log
jobs=${JOBS:-$(( $(nproc) + 1 ))}
# Kernel builds wait for each other across the machine.
lock=${HEAVY_LOCK:-/tmp/heavy.lock}
start=$SECONDS

mkdir -p "$out"
cp_bad=0
"$here/series.sh" "$series" || { [ $? -eq 3 ] && cp_bad=1 || exit 1; }

# The tree the patches are applied to is kept from run to run, at its
# base commit, so that make rebuilds only what the patches change.
if ! git -C "$src" rev-parse -q --verify refs/tags/base >/dev/null 2>&1; then
	echo "[series-check] a git tree of the base in ${src#$PWD/} (once)"
	rm -rf "$src"
	"$here/prepare.py" --pristine "$src" >/dev/null
	git init -q "$src"
	git -C "$src" config gc.auto 0
	git -C "$src" config user.name series-check
	git -C "$src" config user.email series-check@localhost
	printf '/.series-manifest\n' >> "$src/.git/info/exclude"
	# Debian's tree ignores itself (a "/*" line in .gitignore): force.
	git -C "$src" add -A -f -- . ':!.series-manifest'
	git -C "$src" commit -q -m base
	git -C "$src" tag base
fi
git -C "$src" am --abort >/dev/null 2>&1 || true
git -C "$src" checkout -q -f --detach base
git -C "$src" clean -q -f -d -x -e /.series-manifest

frags=("$root/configs/base.config" "$root/configs/test.config")
# BUILD [ARCH]: tinyconfig and the fragments of the test kernel, or
# for another architecture those of make arches (configs/arch/).
configure() {
	local b=$1 arch=${2:-} f=("${frags[@]}") env=()
	if [ -n "$arch" ]; then
		f=("$root/configs/arch/common.config" "$root/configs/arch/$arch.config")
		env=(ARCH="$arch" CROSS_COMPILE="${cross[$arch]}")
	fi
	mkdir -p "$b"
	# The fragments name options that later patches add: Kconfig drops
	# what a tree does not have yet, so take them again after each
	# patch that changes a Kconfig file.
	env "${env[@]}" make -s -C "$src" O="$b" tinyconfig >/dev/null
	env "${env[@]}" "$src/scripts/kconfig/merge_config.sh" -m -O "$b" \
		"$b/.config" "${f[@]}" >/dev/null
	env "${env[@]}" make -s -C "$src" O="$b" olddefconfig >/dev/null
}
# A patch of another architecture's code is built with Debian's cross
# compiler for it (harness/setup.sh --arches), as make arches does.
declare -A cross=()
while read -r arch prefix _; do
	cross[$arch]=$prefix
done < <(grep -v '^#' "$here/cross-compilers" | grep .)
configure "$build"
: > "$log"

mapfile -t targets < "$series/build-targets"
# The patches' builds are one incremental build: take the machine's
# heavy-build lock once for all of them, not once a patch, so that other
# builds do not slip in between and the run ends in bounded time.
exec 9>>"$lock"
echo "[series-check] waiting for $lock"
flock 9
i=0
for p in "$series"/0*.patch; do
	case "$p" in */0000-*) continue ;; esac
	t0=$SECONDS
	git -C "$src" am -q --keep-cr "$p" ||
		{ echo "[series-check] $(basename "$p") does not apply" >&2; exit 1; }
	if git -C "$src" diff --name-only HEAD~1 HEAD | grep -q '\(^\|/\)Kconfig[^/]*$'; then
		configure "$build"
	fi
	what=${targets[$i]}
	i=$((i + 1))
	# "ARCH=arm64 TARGETS": cross-built, in a build directory of its own.
	b=$build arch= menv=()
	case $what in
	ARCH=*)
		arch=${what%% *} arch=${arch#ARCH=} what=${what#* }
		[ -n "${cross[$arch]:-}" ] ||
			{ echo "[series-check] series-map: unknown ARCH=$arch" >&2; exit 1; }
		command -v "${cross[$arch]}gcc" >/dev/null ||
			{ echo "[series-check] no ${cross[$arch]}gcc: harness/setup.sh --arches" >&2; exit 1; }
		b=$build-$arch
		menv=(ARCH="$arch" CROSS_COMPILE="${cross[$arch]}")
		configure "$b" "$arch"
		;;
	esac
	if [ "$what" != - ]; then
		# shellcheck disable=SC2086
		if ! make -C "$src" O="$b" "${menv[@]}" -j"$jobs" $what >> "$log" 2>&1; then
			grep -B2 -A8 -m5 'error\|Error' "$log" | tail -40 >&2
			echo "[series-check] $(basename "$p"): make $what FAILED (log: ${log#$PWD/})" >&2
			exit 1
		fi
	fi
	printf '[series-check] %s: built %s%s (%ds)\n' "$(basename "$p" .patch)" \
		"${arch:+ARCH=$arch }" "$what" $((SECONDS - t0))
done

t0=$SECONDS
echo "[series-check] the whole kernel and its modules after the last patch"
# Every option the fragments ask for must hold on the final tree.
"$here/kconfig.sh" "$src" "$build" test
if ! make -C "$src" O="$build" -j"$jobs" bzImage modules >> "$log" 2>&1; then
	grep -B2 -A8 -m5 'error\|Error' "$log" | tail -40 >&2
	echo "[series-check] the whole kernel FAILED (log: ${log#$PWD/})" >&2
	exit 1
fi
echo "[series-check] bzImage and modules built ($((SECONDS - t0))s)"
flock -u 9

"$here/series.py" --compare "$src" base
if [ $cp_bad -ne 0 ]; then
	echo "[series-check] FAILED: checkpatch reports (above), all else passed ($((SECONDS - start))s)" >&2
	exit 1
fi
echo "[series-check] passed: $i patches applied and built, checkpatch clean, tree equal ($((SECONDS - start))s)"
