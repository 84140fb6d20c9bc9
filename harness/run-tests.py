#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Boot the test kernel in QEMU and run the test plan.

The plan (harness/test-plan) names every case: boot-time selftests and
built-in KUnit cases are read from the first boot's kernel log; the rest
run inside the guest one after another (harness/guest/run-cases.sh),
reporting on a second serial port.  A case that hangs or crashes the
guest is failed and the guest is booted again from the next case, with
the boot-time selftests and KUnit switched off.  Any oops, BUG, WARNING,
lockdep or KASAN report fails the case that was running.

The closing line is "N passed, N failed, N skipped"; the exit status is
non-zero when anything failed.
"""
import argparse
import fnmatch
import os
import re
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GUEST_KINDS = ("ftracetest", "script", "livepatch", "kunit-run")
DEFAULT_COST = 20        # seconds a guest case takes when not measured
BOOT_COST = 270          # seconds of boot selftests and KUnit on shard 0
DEFAULT_TIMEOUT = {"ftracetest": 300, "script": 300, "livepatch": 600,
                   "kunit-run": 600}

# Kernel log lines that fail whatever case was running.
SPLAT = re.compile(
    r"(BUG: |WARNING: |Oops[:\s]|general protection fault|Kernel panic"
    r"|KASAN|UBSAN|kernel BUG at|INFO: task .* blocked|"
    r"rcu: INFO: .* stall|soft lockup|hard LOCKUP|"
    r"possible recursive locking|circular locking dependency|"
    r"unreferenced object|Unable to handle kernel)")
TIMESTAMP = re.compile(r"^\[\s*\d+\.\d+\]\s?")


class Case:
    def __init__(self, kind, name, expect, timeout, reason, line, cpus=0,
                 guest=None):
        self.kind, self.name, self.expect = kind, name, expect
        self.timeout, self.reason, self.line = timeout, reason, line
        self.cpus = cpus        # CPUs online while it runs; 0: all
        self.guest = guest      # the shard it must run on; None: any
        self.status = None      # PASS, FAIL, ... as reported
        self.detail = ""
        self.output = []        # what a guest case printed

    @property
    def id(self):
        return f"{self.kind}:{self.name}"


def read_config(path):
    """The options a kernel's .config sets, to y or m."""
    with open(path) as f:
        return {m.group(1) for m in
                (re.match(r"(CONFIG_\w+)=[ym]$", line.strip()) for line in f)
                if m}


def holds(cond, config):
    """if=CONFIG_X: the kernel has X (y or m); if=!CONFIG_X: it has not."""
    return (cond[1:] not in config) if cond.startswith("!") else \
        (cond in config)


def parse_plan(path, config=None):
    """The plan's cases; a line whose if= conditions do not all hold on
    @config (the kernel's options, from read_config()) is left out."""
    cases = []
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            if raw.lstrip().startswith("#"):
                continue
            line = raw
            if " -- " in raw:
                line, reason = raw.split(" -- ", 1)
                reason = reason.strip()
            else:
                reason = ""
            words = line.split()
            if not words:
                continue
            if len(words) < 3:
                sys.exit(f"{path}:{n}: want 'KIND NAME EXPECT [timeout=S] "
                         "[cpus=N] [guest=N] [if=[!]CONFIG_X]'")
            kind, name, expect = words[:3]
            timeout = DEFAULT_TIMEOUT.get(kind, 0)
            cpus, guest, conds = 0, None, []
            for w in words[3:]:
                if re.fullmatch(r"if=!?CONFIG_\w+", w):
                    conds.append(w[3:])
                elif w.startswith("timeout="):
                    timeout = int(w[8:])
                elif w.startswith("cpus=") and kind in GUEST_KINDS:
                    cpus = int(w[5:])
                elif w.startswith("guest=") and kind in GUEST_KINDS:
                    guest = int(w[6:])
                else:
                    sys.exit(f"{path}:{n}: unknown option {w}")
            if expect not in ("pass", "xfail", "skip"):
                sys.exit(f"{path}:{n}: EXPECT is pass, xfail or skip")
            if expect != "pass" and not reason:
                sys.exit(f"{path}:{n}: {expect} needs '-- reason'")
            if kind not in GUEST_KINDS + ("boot", "kunit"):
                sys.exit(f"{path}:{n}: unknown kind {kind}")
            if conds and config is None:
                sys.exit(f"{path}:{n}: if= needs the kernel's .config "
                         "(--config)")
            if not all(holds(c, config) for c in conds):
                continue
            cases.append(Case(kind, name, expect, timeout, reason, n, cpus,
                              guest))
    return cases


def select(cases, globs):
    if not globs:
        return cases
    pats = globs.split()
    return [c for c in cases if any(fnmatch.fnmatchcase(c.id, p)
                                    for p in pats)]


# ---------------------------------------------------------------- boots

# Per guest architecture: QEMU's binary and machine, the kernel's
# console, and the device the guest writes its results to (the second
# serial port; arm's and arm64's virt machine has one PL011, so a virtio
# console).
GUESTS = {
    "x86_64": {"qemu": ["qemu-system-x86_64", "-M", "q35"],
               "console": "ttyS0", "results": "/dev/ttyS1"},
    "i386": {"qemu": ["qemu-system-i386", "-M", "q35"],
             "console": "ttyS0", "results": "/dev/ttyS1"},
    "arm64": {"qemu": ["qemu-system-aarch64", "-M", "virt"],
              "console": "ttyAMA0", "results": "/dev/hvc0"},
    "arm": {"qemu": ["qemu-system-arm", "-M", "virt"],
            "console": "ttyAMA0", "results": "/dev/hvc0"},
}


def qemu_cmd(kernel, initrd, append, console, results, smp, mem,
             arch="x86_64", cpu="max"):
    accel = os.environ.get("SERIES_ACCEL", "tcg")
    cmd = GUESTS[arch]["qemu"] + [
           "-smp", str(smp),
           "-m", mem, "-nodefaults", "-display", "none", "-no-reboot",
           "-kernel", kernel, "-initrd", initrd, "-append", append,
           "-serial", f"file:{console}"]
    if GUESTS[arch]["results"] == "/dev/ttyS1":
        cmd += ["-serial", f"file:{results}"]
    else:
        cmd += ["-device", "virtio-serial-device",
                "-chardev", f"file,id=results,path={results}",
                "-device", "virtconsole,chardev=results"]
    if accel == "kvm":
        cmd += ["-accel", "kvm", "-cpu", "host"]
    else:
        # Multi-threaded TCG has run stale code after a text_poke_bp()
        # (an int3 oops in upstream code): one host thread for all vCPUs.
        thread = os.environ.get("SERIES_TCG_THREAD", "single")
        cmd += ["-accel", f"tcg,thread={thread}", "-cpu", cpu]
    return cmd


def write_selected(path, cases):
    with open(path, "w") as f:
        for c in cases:
            f.write(f"{c.kind} {c.name} {c.timeout} {c.cpus}\n")


def make_initrd(base, outdir, boot, cases):
    """The base initramfs plus a second cpio holding this boot's cases."""
    stage = os.path.join(outdir, f"stage-{boot}")
    os.makedirs(os.path.join(stage, "harness"), exist_ok=True)
    write_selected(os.path.join(stage, "harness", "selected"), cases)
    extra = subprocess.run(
        "find harness | cpio -o -H newc --quiet | gzip -1", shell=True,
        cwd=stage,
        check=True, capture_output=True).stdout
    initrd = os.path.join(outdir, f"initrd-{boot}.cpio")
    with open(base, "rb") as src, open(initrd, "wb") as dst:
        dst.write(src.read())
        dst.write(extra)
    return initrd


def last_line_status(results):
    """(finished case ids -> (status, output lines), id of a case begun
    but not ended)"""
    done, begun, output = {}, None, []
    with open(results, errors="replace") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if line.startswith("@@begin "):
                begun, output = line.split()[1], []
            elif line.startswith("@@result "):
                parts = line.split()
                status = parts[2] if len(parts) > 2 else "FAIL"
                done[parts[1]] = (status, output)
                begun, output = None, []
            elif begun is not None:
                output.append(line)
    return done, begun


def why_failed(output):
    """The line a failing case gave as its reason, if it gave one."""
    for line in reversed(output):
        if re.match(r"((FAIL|UNSUPPORTED|UNRESOLVED):\s*\S|not ok\b)", line):
            return line.strip()
    return ""


def boot(args, kernel, initrd, append, console, results, cases, first, tag):
    """Boot once; return when the guest powers off, crashes or stalls."""
    budget = sum(c.timeout + 30 for c in cases) + \
        (args.boot_timeout if first else 300)
    cmd = qemu_cmd(kernel, initrd, append, console, results, args.smp,
                   args.mem, args.arch, args.cpu)
    for path in (console, results):
        open(path, "w").close()
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL)
    start = last_progress = last_report = time.time()
    size = -1
    current_limit = args.boot_timeout if first else 300
    by_id = {c.id: c for c in cases}
    reason = None
    while proc.poll() is None:
        time.sleep(2)
        now = time.time()
        st = os.stat(results).st_size + os.stat(console).st_size
        if st != size:
            size, last_progress = st, now
        done, begun = last_line_status(results)
        if begun in by_id:
            current_limit = by_id[begun].timeout + 60
        if now - last_progress > current_limit:
            reason = f"no output for {int(now - last_progress)}s"
        elif now - start > budget:
            reason = f"boot took over {budget}s"
        if reason:
            proc.kill()
            break
        if now - last_report >= 120:
            last_report = now
            where = begun or ("booting" if not done else "between cases")
            print(f"[test] {tag}: {len(done)}/{len(cases)} cases done, "
                  f"{where} ({int(now - start)}s)", flush=True)
    proc.wait()
    return reason


def run_guest(args, guest_cases, outdir, shard, logs):
    """Run one shard of the guest cases, booting again after a crash.

    Only shard 0's first boot runs the boot-time selftests and KUnit;
    every other boot switches them off.  Appends (console, results,
    label) for each boot to @logs.
    """
    guest = GUESTS[args.arch]
    base_append = (f"console={guest['console']} panic=-1 "
                   "softlockup_panic=0 printk.devkmsg=on series.mode=test "
                   f"series.results={guest['results']} " + args.append)
    quiet = " kunit.enable=0 trace_event="
    pending = list(guest_cases)
    n = 0
    while True:
        n += 1
        first = shard == 0 and n == 1
        append = base_append + ("" if first else quiet)
        tag = f"{shard}-{n}"
        console = os.path.join(outdir, f"console-{tag}.log")
        results = os.path.join(outdir, f"results-{tag}.log")
        initrd = make_initrd(args.initrd, outdir, tag, pending)
        print(f"[test] shard {shard} boot {n}: {len(pending)} guest cases "
              f"(log: {os.path.relpath(console)})", flush=True)
        why = boot(args, args.kernel, initrd, append, console, results,
                   pending, first, f"shard {shard} boot {n}")
        logs.append((console, results, "boot" if first else f"boot {tag}"))
        done, begun = last_line_status(results)
        for c in pending:
            if c.id in done:
                c.status, c.output = done[c.id]
                if c.status != "PASS":
                    c.detail = why_failed(c.output)
        if why or begun:
            victim = next((c for c in pending if c.id == begun), None)
            if victim is None:
                victim = next((c for c in pending if c.status is None), None)
            if victim is not None:
                victim.status = "CRASH"
                victim.detail = why or "the guest died during the case"
                print(f"[test] {victim.id}: {victim.detail}; rebooting",
                      flush=True)
        pending = [c for c in pending if c.status is None]
        if not pending or n >= args.max_boots:
            for c in pending:
                c.status, c.detail = "NOTRUN", "never reached"
            return
        if not done and not why and not begun and not first:
            # A quiet boot that ran nothing will not do better next time.
            # (After a first boot that died in the selftests, the guest
            # cases still get their boot.)
            for c in pending:
                c.status, c.detail = "NOTRUN", "guest ran no case"
            return


def load_costs(path):
    """Seconds each guest case took on a quiet machine (harness/case-costs)."""
    costs = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                words = line.split()
                if len(words) == 2 and not line.startswith("#"):
                    costs[words[1]] = float(words[0])
    return costs


def shard_cases(cases, shards, costs):
    """Split the guest cases over @shards guests of about equal length.

    Longest case first onto the least loaded guest, by the measured costs
    (a case without one counts as DEFAULT_COST); shard 0 starts with the
    boot-time selftests' and KUnit's share, and a case the plan gives a
    guest (guest=N, modulo @shards) goes there before the others are
    spread.  Each shard keeps the plan's order.
    """
    load = [costs.get("boot", BOOT_COST)] + [0.0] * (shards - 1)
    owner = {}
    pinned = [c for c in cases if c.guest is not None]
    free = sorted((c for c in cases if c.guest is None),
                  key=lambda c: -costs.get(c.id, DEFAULT_COST))
    for c in pinned + free:
        i = c.guest % shards if c.guest is not None else load.index(min(load))
        owner[c.id] = i
        load[i] += costs.get(c.id, DEFAULT_COST)
    return [[c for c in cases if owner[c.id] == i] for i in range(shards)]


def write_costs(path, logs):
    """Record how long each case took, from the @@begin lines' timestamps."""
    costs = {}
    for console, _, label in logs:
        marks = []
        with open(console, errors="replace") as f:
            for line in f:
                m = re.match(r"\[\s*(\d+\.\d+)\] @@(begin|end) (\S+)", line)
                if m:
                    marks.append((float(m.group(1)), m.group(2), m.group(3)))
        for (t0, kind, name), (t1, kind1, name1) in zip(marks, marks[1:]):
            if kind == "begin" and kind1 == "end" and name == name1:
                costs[name] = t1 - t0
        if label == "boot" and marks:
            costs["boot"] = marks[0][0]
    with open(path, "w") as f:
        f.write("# seconds per guest case, measured by harness/run-tests.py\n")
        for name, sec in sorted(costs.items()):
            f.write(f"{sec:8.1f} {name}\n")


def run_shards(args, guest, outdir):
    """One QEMU per shard, side by side: TCG runs each on one host core."""
    logs = []
    costs = load_costs(os.path.join(ROOT, "harness", "case-costs"))
    shards = [s for s in shard_cases(guest, args.shards, costs) if s] or [[]]
    threads = [threading.Thread(target=run_guest,
                                args=(args, cases, outdir, i, logs))
               for i, cases in enumerate(shards)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sorted(logs, key=lambda log: log[2] != "boot")


# --------------------------------------------------------- log parsers

def strip_ts(line):
    return TIMESTAMP.sub("", line.rstrip("\r\n"))


def boot_results(console):
    """'Testing X: PASSED' lines of the boot-time selftests, and the ring
    buffer's (CONFIG_RING_BUFFER_STARTUP_TEST) as ring_buffer: 'Running
    ring buffer tests...', its statistics, then PASSED or FAILED."""
    res = {}
    pending = None
    with open(console, errors="replace") as f:
        for raw in f:
            line = strip_ts(raw)
            m = re.match(r"(?:[\w.]+: )?Testing (.+?): ?(.*)$", line)
            if m:
                pending = re.sub(r"\s+", "_", m.group(1).strip())
                rest = m.group(2)
            elif re.match(r"(?:[\w.]+: )?Running ring buffer tests", line):
                pending, rest = "ring_buffer", ""
            elif pending:
                rest = line
            else:
                continue
            if re.search(r"\bPASSED\b|^OK\b| OK$", rest):
                res[pending], pending = "PASS", None
            elif re.search(r"FAILED|\bNG\b", rest):
                res[pending], pending = "FAIL", None
    return res


def ktap_results(console):
    """KUnit case results as {suite.case: PASS|FAIL|SKIP}."""
    res = {}
    stack = {}          # indent -> name of the subtest opened there
    in_ktap = False
    with open(console, errors="replace") as f:
        for raw in f:
            line = strip_ts(raw)
            if re.match(r"\s*KTAP version", line) and not line.startswith(" "):
                in_ktap = True
                continue
            if not in_ktap:
                continue
            indent = len(line) - len(line.lstrip(" "))
            body = line.strip()
            m = re.match(r"# Subtest: (\S+)", body)
            if m:
                stack[indent] = m.group(1)
                for k in [k for k in stack if k > indent]:
                    del stack[k]
                continue
            m = re.match(r"(not ok|ok) \d+ (\S+)(.*)$", body)
            if not m:
                continue
            status = "PASS" if m.group(1) == "ok" else "FAIL"
            if "# SKIP" in m.group(3):
                status = "SKIP"
            # Built-in suites print their header and their cases four
            # spaces in; parameters sit deeper and the suite's own
            # verdict at the margin.
            suite = stack.get(4)
            if indent == 4 and suite:
                res[f"{suite}.{m.group(2)}"] = status
    return res


SPLAT_CONTEXT = 30      # lines of the first report kept for the verdict


def splats(logs):
    """{case id or 'boot': ([first lines of each report], the first
    report with the SPLAT_CONTEXT lines after it)}"""
    found = {}
    for console, _, label in logs:
        current, keep = label, None
        with open(console, errors="replace") as f:
            for raw in f:
                line = strip_ts(raw)
                if keep is not None and len(keep) < SPLAT_CONTEXT:
                    keep.append(line)
                m = re.search(r"@@(begin|end) (\S+)", line)
                if m:
                    current = m.group(2) if m.group(1) == "begin" else \
                        f"after {m.group(2)}"
                    continue
                if SPLAT.search(line):
                    first, report = found.setdefault(current, ([], []))
                    first.append(line.strip())
                    if not report:
                        report.append(line)
                        keep = report
    return found


# -------------------------------------------------------------- verdict

def judge(case, got):
    """Map (expectation, reported status) to passed/failed/skipped."""
    if case.expect == "skip":
        # Not run (a guest case), or a result the kernel skipped; a
        # KUnit case or selftest that ran instead means a stale plan.
        if got in (None, "SKIP"):
            return "skipped", case.reason
        return "failed", f"the plan expects a skip ({case.reason}), " \
            f"got {got}: update the plan"
    ok = got in ("PASS",)
    if case.expect == "xfail":
        if ok:
            return "failed", "XPASS: expected to fail but passed; " \
                "update the plan"
        if got in ("NOTRUN", None):
            return "failed", "did not run"
        return "passed", f"XFAIL ({got}): {case.reason}"
    if ok:
        return "passed", ""
    return "failed", got or "no result"


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--initrd", required=True)
    ap.add_argument("--plan", default=os.path.join(ROOT, "harness",
                                                    "test-plan"))
    ap.add_argument("--config",
                    help="the kernel's .config, for the plan's if= "
                    "(default: the .config of the build --kernel is in)")
    ap.add_argument("--cases", default=os.environ.get("CASES", ""),
                    help="space-separated globs over KIND:NAME")
    ap.add_argument("--out", default=os.path.join(ROOT, "out", "test"))
    ap.add_argument("--smp", type=int, default=2)
    ap.add_argument("--mem", default="2G")
    ap.add_argument("--arch", default="x86_64", choices=sorted(GUESTS),
                    help="the guest's architecture")
    ap.add_argument("--cpu", default="max",
                    help="the CPU model QEMU emulates under TCG")
    ap.add_argument("--append", default="")
    ap.add_argument("--boot-timeout", type=int, default=1800,
                    help="seconds the first boot may go without output")
    ap.add_argument("--max-boots", type=int, default=12)
    ap.add_argument("--shards", type=int,
                    default=int(os.environ.get("SHARDS", os.cpu_count() or 1)),
                    help="guests run side by side (default: one per core)")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()

    config_path = args.config or os.path.join(
        os.path.dirname(os.path.abspath(args.kernel)), "..", "..", "..",
        ".config")
    config = read_config(config_path) if os.path.exists(config_path) \
        else None
    plan = parse_plan(args.plan, config)
    cases = select(plan, args.cases)
    if not cases:
        sys.exit(f"no case of the plan matches '{args.cases}'")
    runid = time.strftime("%Y%m%d-%H%M%S")
    outdir = os.path.join(args.out, runid)
    os.makedirs(outdir)
    latest = os.path.join(args.out, "latest")
    if os.path.islink(latest) or os.path.exists(latest):
        os.unlink(latest)
    os.symlink(runid, latest)

    guest = [c for c in cases if c.kind in GUEST_KINDS and c.expect != "skip"]
    logs = run_shards(args, guest, outdir)
    write_costs(os.path.join(outdir, "case-costs"), logs)
    first_console = logs[0][0]

    # Boot selftests and KUnit: every result must be in the plan.
    seen = {"boot": boot_results(first_console),
            "kunit": ktap_results(first_console)}
    extra = []
    for kind, results in seen.items():
        if not any(c.kind == kind for c in cases):
            continue
        planned = [c for c in cases if c.kind == kind]
        whole = [c for c in plan if c.kind == kind]
        for name, status in results.items():
            match = [c for c in planned if fnmatch.fnmatchcase(name, c.name)]
            if not match and any(fnmatch.fnmatchcase(name, c.name)
                                 for c in whole):
                continue  # in the plan, but CASES left it out
            if not match:
                c = Case(kind, name, "pass", 0, "", 0)
                c.status, c.detail = "FAIL", "not in the plan"
                extra.append(c)
                continue
            # Expand a glob entry of the plan into one case per result.
            c = Case(kind, name, match[0].expect, 0, match[0].reason, 0)
            c.status = "PASS" if status == "PASS" else status
            extra.append(c)
            match[0].status = match[0].status or "covered"
        for c in planned:
            if c.status is None and c.expect != "skip":
                c.status, c.detail = "NOTRUN", "no such result in the log"
                extra.append(c)
    # A plan line that expects a skip is reported by itself unless
    # results matched it: each of those is in extra already.
    report = guest + [c for c in cases if c.expect == "skip" and
                      c.status != "covered"] + extra

    # Splats fail the case they happened in.
    blame = splats(logs)
    by_id = {c.id: c for c in report}
    for where, (lines, trace) in blame.items():
        c = by_id.get(where)
        if c is None:
            c = Case("kernel", f"log-clean({where})", "pass", 0, "", 0)
            report.append(c)
            by_id[c.id] = c
        c.status = "SPLAT"
        c.detail = lines[0]
        c.output = c.output + ["-- kernel log --"] + trace

    counts = {"passed": 0, "failed": 0, "skipped": 0}
    with open(os.path.join(outdir, "summary.txt"), "w") as summary:
        for c in report:
            verdict, why = judge(c, c.status)
            counts[verdict] += 1
            if c.detail and verdict != "skipped":
                why = f"{why}: {c.detail}" if why else c.detail
            line = f"{verdict.upper():8} {c.id}" + (f"  ({why})" if why
                                                   else "")
            summary.write(line + "\n")
            if verdict != "passed" or args.verbose or "XFAIL" in why:
                print(line)
            if verdict == "failed" and c.output:
                # CI keeps only the end of the log: show why here.
                for out in c.output[-(15 + SPLAT_CONTEXT):]:
                    print(f"    | {out}")
    print(f"[test] logs and summary: {os.path.relpath(outdir)}")
    print(f"{counts['passed']} passed, {counts['failed']} failed, "
          f"{counts['skipped']} skipped")
    sys.exit(1 if counts["failed"] else 0)


if __name__ == "__main__":
    main()
