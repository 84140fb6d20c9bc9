#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch --strict over the series' own kernel files (the small
# patches to upstream files are checked as part of `make series`).
#
# usage: check.sh SRC
set -uo pipefail
src=$(realpath "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
bad=0 n=0
files=$(git ls-files -- arch include kernel lib samples Documentation \
	'tools/testing/selftests/ftrace' harness/modules | grep -E '\.(c|h|S|rst)$')
for f in $files; do
	n=$((n + 1))
	# DEFINE_ARCH_HAS: asm/ftrace.h must define the interface macro
	# ARCH_HAS_SYSCALL_MATCH_SYM_NAME that trace_syscalls.c tests.
	# UNDOCUMENTED_SETUP: checkpatch looks for the parameter only among
	# the lines the same patch adds to kernel-parameters.txt; ours are
	# upstream's parameters, documented there already.
	ignore=SPDX_LICENSE_TAG,FILE_PATH_CHANGES,DEFINE_ARCH_HAS,UNDOCUMENTED_SETUP
	# include/linux/ftrace.h keeps upstream's interface macros as they
	# are: stubs that must not evaluate their arguments (the types may
	# not exist in that configuration) and the open-coded ops walk.
	[ "$f" = include/linux/ftrace.h ] &&
		ignore=$ignore,MACRO_ARG_UNUSED,MACRO_ARG_REUSE,COMPLEX_MACRO,MULTISTATEMENT_MACRO_USE_DO_WHILE
	if ! out=$("$src/scripts/checkpatch.pl" --strict --quiet --no-tree \
		--ignore "$ignore" -f "$f" 2>&1); then
		bad=$((bad + 1)); echo "$out"
	fi
done
echo "[check] checkpatch --strict: $n files, $bad with reports"
[ $bad -eq 0 ]
