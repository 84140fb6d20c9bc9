#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Export the series as `git format-patch` files against the pristine base,
# grouped as harness/series-map says (harness/series.py), with the cover
# letter harness/cover-letter.txt; then checkpatch --strict on each patch.
#
# usage: series.sh OUTDIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(realpath -m "$1")
tree=$out/tree

"$here/series.py" "$out"
n=$(ls "$out"/0*.patch | grep -vc '/0000-')

echo "[series] checkpatch --strict"
bad=0
for p in "$out"/0*.patch; do
	case "$p" in */0000-*) continue ;; esac
	# FILE_PATH_CHANGES: MAINTAINERS changes in the patch that moves the
	# files, not in each patch that adds one.
	# UNKNOWN_COMMIT_ID: the export tree has no upstream history; the
	# commits the Fixes: tags name are upstream's.
	# UNDOCUMENTED_SETUP: checkpatch looks for a __setup() parameter only
	# among the lines the same patch adds to kernel-parameters.txt, and
	# the series' parameters are upstream's, documented there already.
	# checkpatch checks SPDX lines with scripts/spdxcheck.py, which
	# wants a git work tree for its root (the export tree, the
	# current directory) and python3-ply and python3-git: Debian's
	# python3 has them (harness/setup.sh), one earlier in a user's
	# PATH may not, and a check that could not run must not pass.
	if ! (cd "$tree" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl \
		--strict --quiet --no-signoff \
		--ignore FILE_PATH_CHANGES,UNDOCUMENTED_SETUP,UNKNOWN_COMMIT_ID "$p") \
		> "$p.checkpatch" 2>&1 ||
		grep -q '^Traceback\|^FAIL' "$p.checkpatch"; then
		bad=$((bad + 1))
		echo "  $(basename "$p"): $(grep -c '^\(ERROR\|WARNING\|CHECK\|Traceback\|FAIL\)' "$p.checkpatch") reports (${p#$PWD/}.checkpatch)"
	fi
done
echo "[series] checkpatch: $bad of $n patches with reports"
# A distinct status, so that make series-check can go on and report.
[ $bad -eq 0 ] || exit 3
