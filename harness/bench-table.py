#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench's table: the rows of the base and the series side by side.

Reads OUTDIR/results-{base,series}.log (the guest's @@bench and @@fail
lines, harness/guest/bench.sh) and prints the table.  A row fails if
either kernel lacks it, could not run one of its passes (NA) or failed
one of its checks; the table then shows FAILED and the exit status is
1.  Only a complete run (every row, both kernels, nothing failed)
writes OUTDIR/table.txt and OUTDIR/table.md, which `make bench-publish`
puts into README.md and the cover letter.
"""
import argparse
import os
import statistics
import sys

# The goals the open issues set for the series (at most this many
# instructions per call, or bytes per record); a row without one only
# has to keep up with the base.
GOALS = {
    "nr_ops_relevant=1": 40, "nr_ops_relevant=2": 100,
    "nr_ops_relevant=4": 180, "1_relevant+5_irrelevant": 40,
    "save_regs": 60, "assist_recursion": 60, "assist_rcu": 60,
    "record_bytes_per_site": 8,
    "fprobe_entry": 80, "fprobe_entry_exit": 200,
}

# The goals for the tracers over a workload: at most this share of the
# base's instructions beyond the workload's own (workload_none).
WORKLOAD_GOALS = {
    "workload_function": 0.6, "workload_function_off": 0.3,
    "workload_function_graph": 0.5, "workload_function_graph_off": 0.3,
}

LEGEND = [
    "Instructions per call (per round for the workload_ rows, per site",
    "for tracer_on_off_per_site, bytes per task or per record for the",
    "rows that say bytes, a count for boot_records), the fewest over the",
    "passes (the median for the stacks' bytes); ratio is series/base,",
    "goal the series' target (x: missed).",
]


# Rows of memory, measured in rounds: noise moves them either way.
MEDIAN = ("fgraph_stack_bytes_per_task_on", "fgraph_stack_bytes_per_task_after")


class Row:
    def __init__(self, name):
        self.name = name
        self.values = []    # per call (or per site, task, record)
        self.why = []       # the checks it failed

    def value(self):
        if self.why or not self.values:
            return None
        if self.name in MEDIAN:
            return statistics.median(self.values)
        # Interrupts landing in a timed loop only add instructions:
        # the fewest over the passes is the cost of the call itself.
        return min(self.values)


def load(path):
    """name -> Row, in the order the guest printed them; and whether the
    guest got to its end."""
    rows, done = {}, False
    if not os.path.exists(path):
        return rows, done
    for line in open(path, errors="replace"):
        p = line.split()
        done = done or p[:1] == ["@@done"]
        if len(p) < 3 or p[0] not in ("@@bench", "@@fail"):
            continue
        row = rows.setdefault(p[1], Row(p[1]))
        if p[0] == "@@fail":
            row.why.append(" ".join(p[2:]))
        elif len(p) != 4 or p[2] == "NA" or p[3] == "0":
            row.why.append("a pass could not run (NA)")
        else:
            row.values.append(int(p[2]) / int(p[3]))
    return rows, done


def goal_limit(name, series):
    """The most the series may show for a row, or None."""
    g = GOALS.get(name)
    if g is None:
        return None
    # The bytes per record come from whole pages: the kernel's two
    # tables (text, init text) may each end in a part-filled page.
    if name == "record_bytes_per_site" and series.get("boot_records"):
        records = series["boot_records"].value()
        if records:
            return g + 2 * 4096 / records
    # 1% over a goal counts as met, as 1% over the base is not slower.
    return g * 1.01


def judge(base, series):
    """(name, base value, series value, goal text) per row; failures."""
    out, failures = [], []
    for name in list(base) + [n for n in series if n not in base]:
        vals = []
        for kernel, rows in (("base", base), ("series", series)):
            row = rows.get(name)
            why = row.why if row else ["missing"]
            failures += [f"{name} on {kernel}: {w}" for w in why]
            vals.append(row.value() if row else None)
        limit, g = goal_limit(name, series), GOALS.get(name)
        gs = f"<={g}" if g is not None else ""
        if limit is not None and vals[1] is not None and vals[1] > limit:
            gs += " x"
        out.append((name, vals[0], vals[1], gs))
    return out, failures


def cell(v):
    return "FAILED" if v is None else f"{v:.1f}"


def ratio(b, s):
    return f"{s / b:.2f}" if b and s is not None else ""


def text_table(rows):
    lines = [f"{'row':34} {'base':>8} {'series':>8} {'ratio':>6} {'goal':>6}"]
    for name, b, s, g in rows:
        lines.append(f"{name:34} {cell(b):>8} {cell(s):>8} "
                     f"{ratio(b, s):>6} {g:>6}".rstrip())
    return lines


def md_table(rows):
    lines = ["| row | base | series | ratio | goal |",
             "| --- | ---: | ---: | ---: | --- |"]
    for name, b, s, g in rows:
        lines.append(f"| `{name}` | {cell(b)} | {cell(s)} | "
                     f"{ratio(b, s)} | {g} |")
    return lines


def summary(rows):
    done = [(b, s, g) for _, b, s, g in rows if b is not None and s is not None]
    worse = sum(1 for b, s, _ in done if b and s / b > 1.01)
    missed = sum(1 for _, _, g in done if g.endswith("x"))
    return [f"[bench] {worse} rows slower than the base" if worse else
            "[bench] no row slower than the base",
            f"[bench] {missed} rows short of their goal (marked x)" if missed
            else "[bench] every row with a goal meets it"]


def overheads(rows):
    """The workload rows less the workload's own (workload_none), per
    round: (name, base, series, ratio, goal text)."""
    own = {n: (b, s) for n, b, s, _ in rows}.get("workload_none")
    if not own or None in own:
        return []
    out = []
    for name, b, s, _ in rows:
        if not name.startswith("workload_") or name == "workload_none":
            continue
        if b is None or s is None:
            continue
        ob, os_ = b - own[0], s - own[1]
        r = os_ / ob if ob > 0 else None
        g = WORKLOAD_GOALS.get(name)
        gs = f"<={g}" if g is not None else ""
        if g is not None and r is not None and r > g * 1.01:
            gs += " x"
        out.append((name, ob, os_, r, gs))
    return out


def overhead_text(ov):
    if not ov:
        return []
    lines = ["", "The tracers over the workload: instructions per round beyond",
             "the workload's own (workload_none), and the series' share of",
             "the base's.", "",
             f"{'row':34} {'base':>8} {'series':>8} {'share':>6} {'goal':>6}"]
    for name, b, s, r, g in ov:
        share = f"{r:.2f}" if r is not None else ""
        lines.append(f"{name:34} {b:8.1f} {s:8.1f} {share:>6} {g:>6}".rstrip())
    return lines


def overhead_md(ov):
    if not ov:
        return []
    lines = ["", "The tracers over the workload, instructions per round beyond "
             "the workload's own, and the series' share of the base's:", "",
             "| row | base | series | share | goal |",
             "| --- | ---: | ---: | ---: | --- |"]
    for name, b, s, r, g in ov:
        share = f"{r:.2f}" if r is not None else ""
        lines.append(f"| `{name}` | {b:.1f} | {s:.1f} | {share} | {g} |")
    return lines


def write(path, lines):
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("outdir")
    ap.add_argument("--header", action="append", default=[],
                    help="a line naming the run (repeatable)")
    ap.add_argument("--partial", action="store_true",
                    help="only some rows ran: write no table")
    args = ap.parse_args()
    (base, base_done), (series, series_done) = [
        load(os.path.join(args.outdir, f"results-{v}.log"))
        for v in ("base", "series")]
    rows, failures = judge(base, series)
    failures += [f"the {v} guest did not get to its end"
                 for v, done in (("base", base_done), ("series", series_done))
                 if not done]
    ov = overheads(rows)
    text = text_table(rows) + overhead_text(ov)
    print("\n".join(text))
    print("\n".join(summary(rows)))
    missed = sum(1 for *_, g in ov if g.endswith("x"))
    if missed:
        print(f"[bench] {missed} workload rows short of their goal (marked x)")
    for f in ("table.txt", "table.md"):
        if os.path.exists(os.path.join(args.outdir, f)):
            os.unlink(os.path.join(args.outdir, f))
    if failures or not rows:
        for f in failures or ["no row ran"]:
            print(f"[bench] FAILED {f}", file=sys.stderr)
        return 1
    if args.partial:
        print("[bench] only some rows ran (BENCH_ROWS): no table written")
        return 0
    head = args.header + LEGEND + [""]
    write(os.path.join(args.outdir, "table.txt"), head + text)
    # Blank lines around it: in a README the table is a block of its own.
    write(os.path.join(args.outdir, "table.md"),
          [""] + [h + "  " if h else h for h in head] + md_table(rows) +
          overhead_md(ov) + [""])
    print(f"[bench] {args.outdir}/table.txt and table.md written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
