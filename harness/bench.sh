#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Compare the unmodified base with the series: one config for both (no
# boot selftests), each booted under QEMU with -icount shift=0 so that a
# guest nanosecond is one instruction, exact on a busy machine.  Prints
# instructions per call of samples/ftrace/ftrace-ops.ko, per site of
# turning the function tracer on and off, per call of the function graph
# (harness/modules/fgraph_bench.c) and its stacks' bytes per task, and
# the boot-time records of the patch sites (how many, bytes per record),
# side by side, with the goal the open issues set beside a row that has
# one.
#
# usage: bench.sh OUTDIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(realpath -m "$1")
mkdir -p "$out"
top=$(dirname "$out")

for v in base series; do
	src=$top/src-bench-$v
	# bench-patches/: exports that only fgraph_bench.ko needs (no
	# kernel exports register_ftrace_graph()), the same for both.
	if [ $v = base ]; then
		"$here/prepare.py" --pristine --extra "$here/bench-patches/base" "$src"
	else
		"$here/prepare.py" --extra "$here/bench-patches/series" "$src"
	fi
	"$here/build.sh" "$src" "$top/build-bench-$v" bench
	"$here/initramfs.sh" "$src" "$top/build-bench-$v" "$out/initrd-$v.cpio.gz"
	echo "[bench] booting $v with -icount shift=0"
	: > "$out/results-$v.log"
	timeout 1200 qemu-system-x86_64 -M q35 -smp 2 -m 1G -nodefaults \
		-display none -no-reboot -accel tcg -cpu max -icount shift=0 \
		-kernel "$top/build-bench-$v/arch/x86/boot/bzImage" \
		-initrd "$out/initrd-$v.cpio.gz" \
		-append "console=ttyS0 quiet panic=-1 nokaslr series.mode=bench" \
		-serial "file:$out/console-$v.log" -serial "file:$out/results-$v.log" \
		|| echo "[bench] $v: qemu exited with $?"
	grep -q '^@@done' "$out/results-$v.log" || {
		echo "[bench] $v did not finish; see $out/console-$v.log" >&2; exit 1; }
done

python3 - "$out" <<'PY'
import sys, os
out = sys.argv[1]
def load(v):
    rows = {}
    for line in open(os.path.join(out, f"results-{v}.log"), errors="replace"):
        p = line.split()
        if len(p) == 4 and p[0] == "@@bench" and p[2] != "NA":
            # Interrupts landing in the timed loop only add instructions:
            # the fewest over the passes is the cost of the call itself.
            per_call = int(p[2]) / int(p[3])
            rows[p[1]] = min(per_call, rows.get(p[1], per_call))
    return rows
base, ser = load("base"), load("series")
# The goals the open issues set for the series (at most this many
# instructions per call, or bytes per record); a row without one only
# has to keep up with the base.
goals = {
    "nr_ops_relevant=1": 40, "nr_ops_relevant=2": 100,
    "nr_ops_relevant=4": 180, "1_relevant+5_irrelevant": 40,
    "save_regs": 60, "assist_recursion": 60, "assist_rcu": 60,
    "record_bytes_per_site": 8,
    "fprobe_entry": 80, "fprobe_entry_exit": 200,
}
lines = [f"{'row':34} {'base':>8} {'series':>8} {'ratio':>6} {'goal':>6}"]
worse = missed = 0
for name in base:
    b, s = base[name], ser.get(name)
    g = goals.get(name)
    gs = f"<={g}" if g is not None else ""
    if s is None:
        lines.append(f"{name:34} {b:8.1f} {'NA':>8} {'':>6} {gs:>6}")
        worse += 1
        continue
    r = s / b if b else 1.0
    worse += r > 1.01
    # 1% over a goal counts as met, as 1% over the base is not slower.
    # The bytes per record come from whole pages: the kernel's two tables
    # (text, init text) may each end in a part-filled page.
    limit = g * 1.01 if g is not None else None
    if name == "record_bytes_per_site" and limit and ser.get("boot_records"):
        limit = g + 2 * 4096 / ser["boot_records"]
    if g is not None and s > limit:
        missed += 1
        gs += " x"
    lines.append(f"{name:34} {b:8.1f} {s:8.1f} {r:6.2f} {gs:>6}")
table = "\n".join(lines)
open(os.path.join(out, "table.txt"), "w").write(table + "\n")
print(table)
print(f"[bench] {worse} rows slower than the base" if worse else
      "[bench] no row slower than the base")
print(f"[bench] {missed} rows short of their goal (marked x)" if missed else
      "[bench] every row with a goal meets it")
PY
