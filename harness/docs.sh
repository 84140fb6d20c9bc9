#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The series' documentation: kernel-doc over every source file of ours,
# then `make htmldocs SPHINXDIRS=trace` in the prepared tree.  A warning
# from a file of ours fails; the others (upstream's documents in
# Documentation/trace) are counted and shown.  Ends with the summary
# line .ci/run reads: the two checks as cases.
#
# usage: docs.sh SRC BUILD
set -uo pipefail
src=$(realpath "$1")
build=$(realpath -m "$2")
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
passed=0 failed=0

# The files kernel-doc reads for our documents, and the documents.
ours_src=$(git ls-files -- kernel/trace/ftrace include/linux/ftrace.h \
	include/linux/fprobe.h 'arch/x86/kernel/ftrace*' \
	arch/x86/include/asm/ftrace.h | grep -E '\.(c|h)$')
ours_doc=$(git ls-files -- Documentation | grep -E '\.rst$')
ours_re=$(printf '%s\n' "$ours_src" "$ours_doc" Documentation/trace/index.rst |
	grep . | sed 's/[.]/[.]/g' | paste -sd'|')

n=0 bad=0
for f in $ours_src; do
	n=$((n + 1))
	out=$("$src/scripts/kernel-doc" -none "$src/$f" 2>&1)
	[ -z "$out" ] && continue
	bad=$((bad + 1))
	echo "$out"
done
echo "[docs] kernel-doc -none: $n files, $bad with warnings"
if [ $bad -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi

mkdir -p "$build"
log=$build/htmldocs.log
start=$(date +%s)
# -E: read every document again, so that a warning is never hidden
# by an earlier build's saved state.
make -C "$src" O="$build" SPHINXDIRS=trace SPHINXOPTS="-E -q" htmldocs \
	> "$log" 2>&1
status=$?
secs=$(( $(date +%s) - start ))
# Sphinx and kernel-doc name the file a warning is about first; a
# warning about text that kernel-doc pulled in names the .rst that
# pulled it, or the source file.
warnings=$(grep -E -i '(warning|error)' "$log" | grep -v '^make' || true)
mine=$(printf '%s\n' "$warnings" | grep -E "(^|/)($ours_re)[:(]" || true)
n_all=$(printf '%s' "$warnings" | grep -c . || true)
n_mine=$(printf '%s' "$mine" | grep -c . || true)
[ -n "$mine" ] && printf '%s\n' "$mine"
echo "[docs] htmldocs SPHINXDIRS=trace: $n_mine warnings from the series' files," \
	"$((n_all - n_mine)) from upstream's, ${secs}s (log: ${log#"$root"/})"
if [ $status -ne 0 ]; then
	tail -20 "$log"
	echo "[docs] htmldocs failed (exit $status)"
	failed=$((failed + 1))
elif [ "$n_mine" -ne 0 ]; then
	failed=$((failed + 1))
else
	passed=$((passed + 1))
fi
echo "$passed passed, $failed failed, 0 skipped"
[ $failed -eq 0 ]
