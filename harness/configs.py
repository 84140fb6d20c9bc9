#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Build and smoke-boot the kernels of the configuration matrix.

Each entry of harness/config-matrix names a fragment of configs/matrix/
and, optionally, a CPU model and kernel arguments.  A fragment is built
once (harness/build.sh, flavour cfg-FRAGMENT: the test kernel with the
fragment on top, W=1) in OUT/build-cfg-FRAGMENT, and every entry of it
is booted with harness/test-plan-smoke (harness/run-tests.py).

An entry fails when its kernel does not configure or build, when the
build warns in a file of the series (one this repository adds: git
ls-files under the mirrored kernel paths), or when the smoke plan fails.
One line per entry, then "N passed, N failed"; the exit status is
non-zero when an entry failed.

With --distro the one kernel built and booted is Debian's own
configuration of the base (flavour distro, harness/kconfig.sh) with
configs/distro.config, in OUT/build-distro, its logs in
OUT/configs/distro: the same smoke plan on what a distribution ships.

With --base the same entries are built from the unmodified base
(prepare.py --pristine) instead, in OUT/build-base-cfg-FRAGMENT, and
booted with the same plan (the series' suites left out by their if=):
whether a failure of an entry is the series' or upstream's.

Each verdict is also appended to OUT/configs/results (date, commit,
kernel, entry, verdict); harness/configs-results.md keeps the last ones.
"""
import argparse
import fnmatch
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HARNESS = os.path.join(ROOT, "harness")
MATRIX = os.path.join(HARNESS, "config-matrix")
# The repository's folders that mirror kernel paths and hold code.
CODE_DIRS = ["arch", "include", "kernel", "lib", "samples"]


def log(msg):
    print(f"[configs] {msg}", flush=True)


class Entry:
    def __init__(self, name, fragment, cpu, append, flavour=None):
        self.name, self.fragment = name, fragment
        self.cpu, self.append = cpu, append
        # harness/build.sh's flavour: a matrix entry's is its fragment's.
        self.flavour = flavour or f"cfg-{fragment}"
        self.verdict, self.why, self.detail = None, "", []


def read_matrix(path):
    entries = []
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            words = raw.split("#", 1)[0].split()
            if not words:
                continue
            if len(words) < 2:
                sys.exit(f"{path}:{n}: want 'NAME FRAGMENT [qemu-cpu=MODEL] "
                         "[KERNEL ARGUMENT...]'")
            name, fragment, rest = words[0], words[1], words[2:]
            cpu = "max"
            args = []
            for w in rest:
                if w.startswith("qemu-cpu="):
                    cpu = w[len("qemu-cpu="):]
                else:
                    args.append(w)
            frag = os.path.join(ROOT, "configs", "matrix", fragment + ".config")
            if not os.path.exists(frag):
                sys.exit(f"{path}:{n}: no {os.path.relpath(frag, ROOT)}")
            if any(e.name == name for e in entries):
                sys.exit(f"{path}:{n}: entry {name} twice")
            entries.append(Entry(name, fragment, cpu, " ".join(args)))
    return entries


def choose(entries, words):
    """The entries that the words (entry or fragment names, globs) name."""
    if not words:
        return entries
    chosen = []
    for w in words.split():
        hit = [e for e in entries if fnmatch.fnmatchcase(e.name, w) or
               e.fragment == w]
        if not hit:
            sys.exit(f"[configs] no entry '{w}' in "
                     f"{os.path.relpath(MATRIX)}; there are: " +
                     " ".join(e.name for e in entries))
        chosen += [e for e in hit if e not in chosen]
    return [e for e in entries if e in chosen]


# ------------------------------------------------------------ warnings

def our_files():
    """Paths of the series' source files, relative to the kernel tree."""
    try:
        out = subprocess.run(["git", "-C", ROOT, "ls-files", "--"] +
                             CODE_DIRS, check=True, capture_output=True,
                             text=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        out = [os.path.relpath(os.path.join(d, f), ROOT)
               for top in CODE_DIRS
               for d, _, files in os.walk(os.path.join(ROOT, top))
               for f in files]
    return {p for p in out if p.endswith((".c", ".h", ".S"))}


def our_objects(build, ours):
    return [os.path.join(build, p[:-2] + ".o") for p in sorted(ours)
            if p.endswith((".c", ".S"))]


def our_symbols(objects):
    """Functions defined in the series' objects (for objtool's and
    modpost's warnings, which name a function and not a file)."""
    names = set()
    present = [o for o in objects if os.path.exists(o)]
    if present:
        out = subprocess.run(["nm", "--defined-only"] + present,
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            words = line.split()
            if len(words) == 3 and words[1] in "tTwW":
                names.add(words[2])
    return names


LOCATED = re.compile(r"^(\S+?):\d+:(?:\d+:)? (?:warning|error): ")
FUNC = re.compile(r"([A-Za-z_][\w.]*)\+0x[0-9a-f]+")


def our_warnings(build_log, src, build, ours, symbols):
    """(warnings in the series' files, warnings in all) of a build log."""
    src = os.path.realpath(src) + "/"
    build = os.path.realpath(build) + "/"
    mine, total = [], 0
    with open(build_log, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if not re.search(r"\bwarning\b", line, re.I):
                continue
            total += 1
            m = LOCATED.match(line)
            if m:
                path = m.group(1)
                for top in (src, build):
                    if path.startswith(top):
                        path = path[len(top):]
                if path in ours:
                    mine.append(line)
                continue
            # objtool and modpost: "x.o: warning: objtool: func+0x1c: ..."
            m = re.match(r"^(\S+)\.o: warning:", line)
            if m and {m.group(1) + ".c", m.group(1) + ".S"} & ours:
                mine.append(line)
            elif any(f in symbols for f in FUNC.findall(line)):
                mine.append(line)
    return mine, total


# --------------------------------------------------------------- build

def build_dir(args, flavour):
    return os.path.join(args.out, ("build-base-" if args.base else "build-")
                        + flavour)


def initrd_path(args, flavour):
    return os.path.join(args.out, ("initrd-base-" if args.base else
                                   "initrd-") + f"{flavour}.cpio.gz")


def build(args, flavour, ours):
    """Build a flavour's kernel and initramfs; (error, detail lines)."""
    bdir = build_dir(args, flavour)
    env = dict(os.environ)
    if args.base:
        # The base has none of the series' files, nor the Kconfig
        # symbols of its KUnit suites.
        ours = set()
        env["KCONFIG_ONLY_KNOWN"] = "1"
    objects = our_objects(bdir, ours)
    # Compile the series' files again each time, so that their warnings
    # are in this build's log even when nothing else changed.
    for o in objects:
        if os.path.exists(o):
            os.unlink(o)
    log(f"{flavour}: building {os.path.relpath(bdir)}"
        + (" (W=1)" if flavour.startswith("cfg-") else ""))
    start = time.time()
    proc = subprocess.Popen([os.path.join(HARNESS, "build.sh"), args.src,
                             bdir, flavour], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=env)
    why = []
    for line in proc.stdout:
        print(line, end="", flush=True)
        if re.search(r"error|kconfig:|FAILED", line, re.I):
            why.append(line.rstrip("\n"))
    if proc.wait() != 0:
        return "the kernel did not configure or build", why[-15:]
    mine, total = our_warnings(bdir + ".log", args.src, bdir, ours,
                               our_symbols(objects))
    log(f"{flavour}: built in {(time.time() - start) / 60:.1f} min: "
        f"{total} warning lines, {len(mine)} in the series' files")
    if mine:
        return f"{len(mine)} warnings in the series' files", mine
    initrd = initrd_path(args, flavour)
    log(f"{flavour}: initramfs {os.path.relpath(initrd)}")
    rc = subprocess.run([os.path.join(HARNESS, "initramfs.sh"), args.src,
                         bdir, initrd]).returncode
    if rc != 0:
        return "the initramfs could not be made", []
    return None, []


# --------------------------------------------------------------- smoke

def smoke(args, e):
    """Boot an entry's kernel with the smoke plan; (error, detail)."""
    bdir = build_dir(args, e.flavour)
    outdir = os.path.join(args.out, "configs-base" if args.base
                          else "configs", e.name)
    cmd = [os.path.join(HARNESS, "run-tests.py"),
           "--kernel", os.path.join(bdir, "arch/x86/boot/bzImage"),
           "--initrd", initrd_path(args, e.flavour),
           "--config", os.path.join(bdir, ".config"),
           "--plan", os.path.join(HARNESS, "test-plan-smoke"),
           "--out", outdir,
           "--shards", "1", "--max-boots", "3", "--cpu", e.cpu]
    if e.append:
        cmd += ["--append", e.append]
    if args.cases:
        cmd += ["--cases", args.cases]
    log(f"{e.name}: smoke boot of {os.path.relpath(bdir)} (cpu {e.cpu}"
        + (f", {e.append}" if e.append else "") + ")")
    start = time.time()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    summary, failed = None, []
    for line in proc.stdout:
        line = line.rstrip("\n")
        # Its count is of cases; the count that closes this run is of
        # entries.
        if re.match(r"^\d+ passed, \d+ failed", line):
            summary = line
            print(f"[configs] {e.name}: smoke ({(time.time() - start) / 60:.1f}"
                  f" min): {line}", flush=True)
            continue
        if line.startswith("FAILED "):
            failed.append(line)
        print(line, flush=True)
    rc = proc.wait()
    if rc != 0 or summary is None:
        return f"smoke: {summary or 'no result'}", failed
    return None, []


def source_id():
    """The commit the series' files come from, "+" when they differ."""
    def git(*a):
        return subprocess.run(["git", "-C", ROOT] + list(a),
                              capture_output=True, text=True)
    head = git("rev-parse", "--short=12", "HEAD").stdout.strip() or "?"
    dirty = git("status", "--porcelain", "--", *CODE_DIRS, "patches",
                "configs", "harness").stdout.strip()
    return head + ("+" if dirty else "")


def record(args, e):
    """Append an entry's verdict to OUT/configs/results, one line a run:
    date, commit, kernel (series or base), entry, verdict, why."""
    path = os.path.join(args.out, "configs", "results")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "a") as f:
        f.write("\t".join([time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
                           source_id(), "base" if args.base else "series",
                           e.name, e.verdict, e.why]) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--src", default=os.path.join(ROOT, "out", "src"))
    ap.add_argument("--out", default=os.path.join(ROOT, "out"))
    ap.add_argument("--only", default="",
                    help="entries: names, globs or fragment names "
                    "(default: all)")
    ap.add_argument("--list", action="store_true",
                    help="print the entries' names and exit")
    ap.add_argument("--base", action="store_true",
                    help="--src is the unmodified base: build and boot it "
                    "with the entries' fragments, for comparison")
    ap.add_argument("--distro", action="store_true",
                    help="build and boot Debian's configuration instead "
                    "of the matrix (make distro)")
    ap.add_argument("--cases", default="",
                    help="only the smoke plan's cases matching these globs "
                    "over KIND:NAME")
    args = ap.parse_args()

    entries = read_matrix(MATRIX)
    if args.list:
        for e in entries:
            print(e.name)
        return
    chosen = choose(entries, args.only)
    if args.distro:
        chosen = [Entry("distro", "debian-cloud-amd64", "max", "",
                        flavour="distro")]
    ours = our_files()
    built = {}
    for e in chosen:
        if e.flavour not in built:
            built[e.flavour] = build(args, e.flavour, ours)
        err, detail = built[e.flavour]
        if err is None:
            err, detail = smoke(args, e)
        e.verdict = "FAILED" if err else "PASSED"
        e.why, e.detail = err or "", detail
        log(f"{e.name}: {e.verdict.lower()}" + (f" ({err})" if err else ""))
        record(args, e)

    print("[configs] the matrix:")
    for e in chosen:
        what = e.fragment + (f", {e.append}" if e.append else "") + \
            (f", -cpu {e.cpu}" if e.cpu != "max" else "")
        print(f"{e.verdict:8} cfg:{e.name}  ({what}" +
              (f": {e.why})" if e.why else ")"))
        for line in e.detail[:20]:
            print(f"    | {line}")
    passed = sum(e.verdict == "PASSED" for e in chosen)
    print(f"{passed} passed, {len(chosen) - passed} failed")
    sys.exit(0 if passed == len(chosen) else 1)


if __name__ == "__main__":
    main()
