#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Export the series as `git format-patch` files against the pristine base:
# every commit of this repository that changes the kernel tree becomes
# one kernel patch with the same author and message; then checkpatch.
#
# usage: series.sh OUTDIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=$(realpath -m "$1")
tree=$out/tree
. "$here/base.env"

# Every git command here names the export tree's repository explicitly:
# never fall through to an enclosing repository.
tgit() { git --git-dir="$tree/.git" --work-tree="$tree" -C "$tree" "$@"; }

rm -rf "$out"
mkdir -p "$out"
echo "[series] base tree (git add of the pristine base: a minute or two)"
"$here/prepare.py" --pristine "$tree" >/dev/null
git init -q -b base "$tree"
printf '/.series-manifest\n' >> "$tree/.git/info/exclude"
# Debian's tree ignores itself (a "/*" line in .gitignore): force.
tgit add -A -f -- . ':!.series-manifest'
tgit -c user.name=base -c user.email=base@localhost \
	commit -q -m "Linux $BASE_KERNELVERSION ($BASE_PKG $BASE_VERSION)"
tgit checkout -q -b series

# A landed commit is never rewritten, but the exported series may be,
# as one rebases a series before posting it: harness/series-rewords
# gives, for a commit, the subject its patch carries instead.
rewords=$here/series-rewords
reword() {
	local subject
	subject=$(sed -n "s/^$1 //p" "$rewords")
	[ -n "$subject" ] || return 0
	echo "[series] ${1:0:12}: subject reworded (harness/series-rewords)"
	sed -i "1c\\$subject" "$2"
}
# Every line names a commit of this history by its full hash.
while read -r c _; do
	case $c in ''|'#'*) continue ;; esac
	[ "$(git -C "$root" rev-parse -q --verify "$c^{commit}" 2>/dev/null)" = "$c" ] ||
		{ echo "[series] series-rewords: $c is not a commit here" >&2; exit 1; }
done < "$rewords"

# The kernel paths the repository mirrors (harness/prepare.py MIRRORED).
mirrored="arch include kernel lib samples Documentation tools"
n=0
for c in $(git -C "$root" rev-list --reverse HEAD); do
	snap=$(mktemp -d)
	git -C "$root" archive "$c" | tar -x -C "$snap"
	[ -x "$snap/harness/prepare.py" ] && "$snap/harness/prepare.py" "$tree" >/dev/null
	rm -rf "$snap"
	[ -d "$tree/.git" ] || { echo "[series] $tree lost its .git" >&2; exit 1; }
	# Every file gets the mode it has at HEAD, so that a later commit
	# fixing a mode (ftracetest sources its .tc files: 0644) fixes every
	# patch of the series, not only its own.
	git -C "$root" ls-tree -r HEAD -- $mirrored | while read -r mode _ _ path; do
		[ -f "$tree/$path" ] || continue
		case $mode in
		100755) chmod 755 "$tree/$path" ;;
		100644) chmod 644 "$tree/$path" ;;
		esac
	done
	tgit add -A -f -- . ':!.series-manifest'
	if ! tgit diff --cached --quiet; then
		# The commit lives in this repository, not the export tree's.
		git -C "$root" log -1 --format=%B "$c" > "$out/.msg"
		reword "$c" "$out/.msg"
		tgit -c user.name="$(git -C "$root" log -1 --format=%an "$c")" \
			-c user.email="$(git -C "$root" log -1 --format=%ae "$c")" \
			commit -q --date="$(git -C "$root" log -1 --format=%aI "$c")" \
			-F "$out/.msg"
		n=$((n + 1))
	fi
done
if [ $n -eq 0 ]; then
	echo "[series] no commit changes the kernel yet: nothing to export"
	exit 0
fi

cover=$out/cover.txt
{
	echo "ftrace: a new function-hook core for x86_64"
	echo
	# The bench table sits between two marker lines (make bench-publish).
	grep -v '^\[bench-table:\(begin\|end\)\]$' "$root/harness/cover-letter.txt"
} > "$cover"
# The histogram diff: where a commit moves code out of a large file,
# git's default diff can show lines it kept as removed and added again,
# and checkpatch would then judge upstream's lines as the series' own.
# -M: a file the series moves shows as a rename with its changes.
tgit format-patch -q --cover-letter --diff-algorithm=histogram -M \
	-o "$out" base..series
# Fill the cover letter's placeholders (git 2.39 has no --description-file).
python3 - "$out"/0000-cover-letter.patch "$cover" <<'PY'
import sys
letter, cover = sys.argv[1], open(sys.argv[2]).read()
subject, _, blurb = cover.partition("\n")
text = open(letter).read()
text = text.replace("*** SUBJECT HERE ***", subject)
text = text.replace("*** BLURB HERE ***", blurb.strip("\n"))
open(letter, "w").write(text)
PY
echo "[series] $n patches in ${out#$PWD/}"

echo "[series] checkpatch --strict"
bad=0
for p in "$out"/0*.patch; do
	case "$p" in */0000-*) continue ;; esac
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
		--ignore FILE_PATH_CHANGES,UNDOCUMENTED_SETUP "$p") \
		> "$p.checkpatch" 2>&1 ||
		grep -q '^Traceback\|^FAIL' "$p.checkpatch"; then
		bad=$((bad + 1))
		echo "  $(basename "$p"): $(grep -c '^\(ERROR\|WARNING\|CHECK\|Traceback\|FAIL\)' "$p.checkpatch") reports (${p#$PWD/}.checkpatch)"
	fi
done
echo "[series] checkpatch: $bad of $n patches with reports"
[ $bad -eq 0 ]
