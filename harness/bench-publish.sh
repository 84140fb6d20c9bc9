#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Publish the table of the last complete `make bench`: replace what
# README.md holds between its bench-table markers with table.md, and
# what the cover letter holds between its own with table.txt.  The
# figures published are then always one run's output, named by the
# header bench-table.py gave it, never typed in.
#
# usage: bench-publish.sh BENCHDIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
bench=$1

# Replace the lines between the lines $2 and $3 of file $1 with file $4;
# each marker must be there exactly once.
replace() {
	awk -v b="$2" -v e="$3" -v f="$4" '
		$0 == e && inside { inside = 0; ends++ }
		!inside { print }
		$0 == b {
			begins++; inside = 1
			while ((getline l < f) > 0) print l
			close(f)
		}
		END { exit !(begins == 1 && ends == 1) }
	' "$1" > "$1.new" || {
		rm -f "$1.new"
		echo "[bench-publish] $1: needs one '$2' line and one '$3' after it" >&2
		return 1
	}
	mv "$1.new" "$1"
	echo "[bench-publish] ${1#"$root"/}: table of $(grep -m 1 . "$4" | sed 's/ *$//')"
}

for f in table.txt table.md; do
	[ -f "$bench/$f" ] || {
		echo "[bench-publish] no $bench/$f: only a make bench run in which every row passed writes it" >&2
		exit 1
	}
done
replace "$root/README.md" '<!-- bench-table:begin -->' \
	'<!-- bench-table:end -->' "$bench/table.md"
replace "$root/harness/cover-letter.txt" '[bench-table:begin]' \
	'[bench-table:end]' "$bench/table.txt"
