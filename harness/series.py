#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Export the series as git format-patch files, grouped by harness/series-map.

The repository's history replays the development: designs added and
later replaced.  A posted series is the final change, cut into patches a
reviewer can read in order.  So the export does not replay commits: it
takes the final difference between the pristine base and the prepared
tree (harness/prepare.py) and hands every changed path to exactly one
patch of the map.  A path the map does not place, or places twice, or a
path the map names that the series no longer changes, stops the export.

Two refinements keep each patch building on its own:
  hunks: PATH REGEX   an earlier patch takes the hunks of PATH whose
                      changed lines match REGEX (a fix that goes first);
                      the patch that lists PATH takes the rest.
  progressive: PATH   (before the first patch) a build file that, from
                      the patch that lists it on, names only what exists:
                      a Makefile's objects whose source is not in the
                      tree yet, and a Kconfig's "source" lines and the
                      options of such objects, are left out until the
                      patch that adds them.

usage: series.py OUTDIR          the patches and a cover letter in OUTDIR
       series.py --list          the patches' subjects and build targets
       series.py --compare TREE BASE
                                 is TREE (a git work tree with the series
                                 applied on commit BASE) make prepare's?
"""
import argparse
import difflib
import fnmatch
import importlib.util
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MAP = os.path.join(HERE, "series-map")

spec = importlib.util.spec_from_file_location(
    "prepare", os.path.join(HERE, "prepare.py"))
prepare = importlib.util.module_from_spec(spec)
spec.loader.exec_module(prepare)


def die(msg):
    sys.exit(f"[series] {msg}")


class Patch:
    def __init__(self, subject, line):
        self.subject = subject
        self.line = line
        self.files = []
        self.hunks = []         # (path, compiled regex)
        self.build = None       # make targets; [] for none
        self.body = []


def parse_map(path=MAP):
    """The map: global directives, then one block per patch."""
    progressive, patches = [], []
    cur, in_body = None, False
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if line.startswith("== "):
                cur, in_body = Patch(line[3:].strip(), n), False
                patches.append(cur)
                continue
            if cur is None:
                if line.startswith("#") or not line.strip():
                    continue
                key, _, val = line.partition(":")
                if key != "progressive":
                    die(f"series-map:{n}: unknown directive {key!r}")
                progressive += val.split()
                continue
            if in_body:
                cur.body.append(line)
                continue
            if not line.strip():
                in_body = True
                continue
            if line.startswith("#"):
                continue
            key, _, val = line.partition(":")
            val = val.strip()
            if key == "files":
                cur.files += val.split()
            elif key == "hunks":
                p, _, rx = val.partition(" ")
                cur.hunks.append((p, re.compile(rx.strip())))
            elif key == "build":
                cur.build = [] if val == "-" else (cur.build or []) + val.split()
            else:
                die(f"series-map:{n}: unknown key {key!r} in "
                    f"{cur.subject!r}")
    for p in patches:
        while p.body and not p.body[-1].strip():
            p.body.pop()
        if not p.body:
            die(f"series-map:{p.line}: {p.subject!r} has no message")
        if p.build is None:
            die(f"series-map:{p.line}: {p.subject!r} has no build: line "
                f"(make targets, or - for none)")
    return progressive, patches


def final_state():
    """pristine tree, {path: bytes or None} of every path the series changes."""
    env = prepare.read_env(os.path.join(HERE, "base.env"))
    cache = os.environ.get("SERIES_CACHE",
                           os.path.expanduser("~/.cache/ftrace-series"))
    pristine = prepare.pristine_tree(env, cache)
    changed = {}
    for rel, data in prepare.desired_state(pristine).items():
        old = os.path.join(pristine, rel)
        have = open(old, "rb").read() if os.path.exists(old) else None
        if have != data:
            changed[rel] = data
    return pristine, changed


def check_coverage(patches, changed, progressive):
    """Every changed path in exactly one patch; no stale entries."""
    owner, bad = {}, []
    for i, p in enumerate(patches):
        for rel in p.files:
            if rel in owner:
                bad.append(f"{rel} is in both {patches[owner[rel]].subject!r}"
                           f" and {p.subject!r}")
            owner[rel] = i
            if rel not in changed:
                bad.append(f"{rel} ({p.subject!r}): the series does not "
                           f"change it")
    for i, p in enumerate(patches):
        for rel, _ in p.hunks:
            if rel not in owner:
                bad.append(f"hunks of {rel} ({p.subject!r}): no patch "
                           f"takes the rest of the file")
            elif owner[rel] <= i:
                bad.append(f"hunks of {rel} ({p.subject!r}) must come "
                           f"before the patch that lists the file")
    for rel in progressive:
        if rel not in owner:
            bad.append(f"progressive {rel}: no patch lists it")
    missing = sorted(set(changed) - set(owner))
    for rel in missing:
        bad.append(f"{rel}: changed by the series, placed in no patch of "
                   f"harness/series-map")
    if bad:
        die("harness/series-map does not cover the series exactly:\n  " +
            "\n  ".join(bad))
    return owner


# --- intermediate contents --------------------------------------------------

def hunk_groups(old, new):
    """difflib's hunks of old -> new: lists of (tag, i1, i2, j1, j2)."""
    sm = difflib.SequenceMatcher(None, old, new, autojunk=False)
    return [[op for op in g if op[0] != "equal"]
            for g in sm.get_grouped_opcodes(3)]


def partial_content(old_b, new_b, take):
    """old with the hunks for which take(text of changed lines) holds."""
    old = old_b.decode().splitlines(keepends=True)
    new = new_b.decode().splitlines(keepends=True)
    picked = []
    for g in hunk_groups(old, new):
        text = "".join("".join(old[i1:i2]) + "".join(new[j1:j2])
                       for _, i1, i2, j1, j2 in g)
        if take(text):
            picked += g
    out, pos = [], 0
    for _, i1, i2, j1, j2 in sorted(picked, key=lambda op: op[1]):
        out += old[pos:i1] + new[j1:j2]
        pos = i2
    out += old[pos:]
    return "".join(out).encode()


OBJ = re.compile(r"(\S+)\.o$")


def makefile_filter(text, rel, exists):
    """Leave out the objects whose source is not in the tree yet.

    Paragraphs (blank-line separated) whose object lines all went are
    left out whole, their comments with them."""
    d = os.path.dirname(rel)

    def present(tok):
        m = OBJ.match(tok)
        if not m:
            return True
        stem = os.path.normpath(os.path.join(d, m.group(1)))
        return exists(stem + ".c") or exists(stem + ".S")

    out = []
    for para in re.split(r"\n\n+", text.rstrip("\n")):
        # Join continuation lines.
        lines = para.replace("\\\n", "\x00").split("\n")
        kept, had_obj, kept_obj, dropped = [], False, False, False
        for line in lines:
            m = re.match(r"^(\s*[\w$().-]+\s*[:+]?=)(.*)$", line)
            cf = re.match(r"^CFLAGS_(\S+\.o)\b", line)
            if cf:
                if present(cf.group(1)):
                    kept.append(line)
                else:
                    dropped = True
                continue
            if m and ".o" in m.group(2) and not line.startswith("#"):
                had_obj = True
                toks = m.group(2).replace("\x00", " ").split()
                left = [t for t in toks if present(t)]
                if left:
                    kept_obj = True
                    if left == toks:
                        kept.append(line)
                    else:
                        kept.append(m.group(1) + " " + " ".join(left))
                continue
            kept.append(line)
        if had_obj and not kept_obj:
            continue
        # Comments left alone, about lines that are not there yet.
        if dropped and all(k.startswith("#") for k in kept):
            continue
        # An ifdef left with nothing inside.
        body = "\n".join(kept).replace("\x00", "\\\n")
        body = re.sub(r"(?m)^ifdef [^\n]*\nendif\n?", "", body)
        if body.strip():
            out.append(body.rstrip("\n"))
    return ("\n\n".join(out) + "\n").encode()


def kconfig_filter(text, rel, exists, makefiles):
    """Leave out "source" lines of files not there yet, and the options
    whose objects (in the final Makefile of the same folder) are not."""
    symbol_objs = {}
    mk = makefiles.get(os.path.join(os.path.dirname(rel), "Makefile"))
    if mk:
        d = os.path.dirname(rel)
        for line in mk.replace("\\\n", " ").splitlines():
            m = re.match(r"^obj-\$\(CONFIG_(\w+)\)\s*\+=(.*)$", line)
            if m:
                for t in m.group(2).split():
                    om = OBJ.match(t)
                    if om:
                        symbol_objs.setdefault(m.group(1), []).append(
                            os.path.normpath(os.path.join(d, om.group(1))))

    def wanted(sym):
        objs = symbol_objs.get(sym)
        if not objs:
            return True
        return any(exists(o + ".c") or exists(o + ".S") for o in objs)

    out, skip = [], False
    for line in text.splitlines(keepends=True):
        m = re.match(r'^source "([^"]+)"', line)
        if m:
            skip = False
            if exists(m.group(1)):
                out.append(line)
            continue
        m = re.match(r"^(menu)?config (\w+)", line)
        if m:
            skip = not wanted(m.group(2))
            if skip and out and not out[-1].strip():
                out.pop()
        elif re.match(r"^(endmenu|menu |if |endif|choice|endchoice|comment )",
                      line):
            skip = False
        if not skip:
            out.append(line)
    return "".join(out).encode()


class Tree:
    """The state of the changed paths after each patch."""

    def __init__(self, pristine, changed, progressive, patches, owner):
        self.pristine, self.changed = pristine, changed
        self.progressive, self.patches, self.owner = progressive, patches, owner
        self.state = {}         # path -> bytes or None, as far as applied

    def exists(self, rel):
        if rel in self.state:
            return self.state[rel] is not None
        return os.path.exists(os.path.join(self.pristine, rel))

    def pristine_bytes(self, rel):
        p = os.path.join(self.pristine, rel)
        return open(p, "rb").read() if os.path.exists(p) else None

    def apply(self, i):
        """Bring the state to after patch i; return the paths it changed."""
        before = dict(self.state)
        p = self.patches[i]
        for rel in p.files:
            self.state[rel] = self.changed[rel]
        for rel, _ in p.hunks:
            rxs = [rx for j in range(i + 1)
                   for r, rx in self.patches[j].hunks if r == rel]
            old = self.pristine_bytes(rel)
            self.state[rel] = partial_content(
                old, self.changed[rel],
                lambda t: any(rx.search(t) for rx in rxs))
        self.refilter()
        return sorted(r for r in self.state
                      if (before[r] if r in before else
                          self.pristine_bytes(r)) != self.state[r])

    def refilter(self):
        makefiles = {r: (self.changed[r] or b"").decode()
                     for r in self.progressive
                     if os.path.basename(r) == "Makefile"}
        # A filter's result depends on what exists: iterate to a fixpoint.
        for _ in range(4):
            changed = False
            for rel in self.progressive:
                if self.owner[rel] > self.cur or self.changed[rel] is None:
                    continue
                text = self.changed[rel].decode()
                if os.path.basename(rel).startswith("Kconfig"):
                    data = kconfig_filter(text, rel, self.exists, makefiles)
                else:
                    data = makefile_filter(text, rel, self.exists)
                # A new Kconfig that offers nothing yet does not exist
                # yet (its "source" line waits for it as well).
                if (rel not in self.pristine_set and
                        os.path.basename(rel).startswith("Kconfig") and
                        not re.search(rb"(?m)^(menu)?config ", data)):
                    data = None
                if self.state.get(rel, "unset") != data:
                    self.state[rel] = data
                    changed = True
            if not changed:
                break

    @property
    def pristine_set(self):
        if not hasattr(self, "_pset"):
            self._pset = {r for r in self.changed
                          if os.path.exists(os.path.join(self.pristine, r))}
        return self._pset


def states(pristine, changed, progressive, patches, owner):
    """Yield (patch index, paths it changes, the state after it)."""
    t = Tree(pristine, changed, progressive, patches, owner)
    for i in range(len(patches)):
        t.cur = i
        yield i, t.apply(i), t.state


# --- export ------------------------------------------------------------------

def run(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def export(out):
    progressive, patches = parse_map()
    pristine, changed = final_state()
    owner = check_coverage(patches, changed, progressive)
    env = prepare.read_env(os.path.join(HERE, "base.env"))
    tree = os.path.join(out, "tree")
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(out)
    print("[series] base tree (git add of the pristine base: a minute or two)",
          flush=True)
    run([os.path.join(HERE, "prepare.py"), "--pristine", tree],
        stdout=subprocess.DEVNULL)
    git = ["git", f"--git-dir={tree}/.git", f"--work-tree={tree}", "-C", tree]
    run(["git", "init", "-q", "-b", "base", tree])
    # One commit per patch over 80k files: no automatic gc on the way.
    run(git + ["config", "gc.auto", "0"])
    with open(os.path.join(tree, ".git", "info", "exclude"), "a") as f:
        f.write("/.series-manifest\n")
    # Debian's tree ignores itself (a "/*" line in .gitignore): force.
    run(git + ["add", "-A", "-f", "--", ".", ":!.series-manifest"])
    ident = author()
    date = subprocess.run(["git", "-C", ROOT, "log", "-1", "--format=%aI",
                           "HEAD", "--", "arch", "include", "kernel", "lib",
                           "samples", "Documentation", "tools", "patches",
                           "harness/deleted-files", "harness/series-map"],
                          check=True, capture_output=True,
                          text=True).stdout.strip()
    cenv = dict(os.environ, GIT_AUTHOR_NAME=ident[0], GIT_AUTHOR_EMAIL=ident[1],
                GIT_COMMITTER_NAME=ident[0], GIT_COMMITTER_EMAIL=ident[1],
                GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    run(git + ["-c", "user.name=base", "-c", "user.email=base@localhost",
               "commit", "-q", "-m",
               f"Linux {env['BASE_KERNELVERSION']} ({env['BASE_PKG']} "
               f"{env['BASE_VERSION']})"])
    run(git + ["checkout", "-q", "-b", "series"])
    targets = []
    for i, paths, state in states(pristine, changed, progressive, patches,
                                  owner):
        p = patches[i]
        if not paths:
            die(f"{p.subject!r} changes nothing")
        for rel in paths:
            dst = os.path.join(tree, rel)
            if state[rel] is None:
                if os.path.lexists(dst):
                    os.unlink(dst)
            else:
                prepare.write_file(dst, state[rel],
                                   prepare.file_mode(rel, state[rel]))
        run(git + ["add", "-A", "-f", "--"] + paths)
        msg = os.path.join(out, ".msg")
        with open(msg, "w") as f:
            f.write(p.subject + "\n\n" + "\n".join(p.body) + "\n")
        run(git + ["commit", "-q", "-F", msg], env=cenv)
        targets.append(" ".join(p.build) or "-")
    os.unlink(os.path.join(out, ".msg"))
    # The export must end where make prepare does.
    for rel, data in changed.items():
        dst = os.path.join(tree, rel)
        have = open(dst, "rb").read() if os.path.exists(dst) else None
        if have != data:
            die(f"after the last patch {rel} differs from make prepare's")
    cover(out, tree, git, len(patches))
    with open(os.path.join(out, "build-targets"), "w") as f:
        f.write("\n".join(targets) + "\n")
    print(f"[series] {len(patches)} patches in {os.path.relpath(out)}; the "
          f"last one's tree is make prepare's")


def author():
    """The identity most of the kernel-side commits carry."""
    r = subprocess.run(["git", "-C", ROOT, "shortlog", "-sne", "HEAD", "--",
                        "kernel", "arch", "include"], check=True,
                       capture_output=True, text=True).stdout.splitlines()
    m = re.match(r"\s*\d+\s+(.*) <(.*)>", r[0])
    return m.group(1), m.group(2)


def cover(out, tree, git, n):
    letter = os.path.join(HERE, "cover-letter.txt")
    text = open(letter).read()
    text = re.sub(r"(?m)^\[bench-table:(begin|end)\]\n", "", text)
    subject, _, blurb = text.partition("\n")
    run(git + ["format-patch", "-q", "--cover-letter",
               "--diff-algorithm=histogram", "-M", "-o", out,
               "base..series"])
    cl = os.path.join(out, "0000-cover-letter.patch")
    t = open(cl).read()
    t = t.replace("*** SUBJECT HERE ***", subject)
    t = t.replace("*** BLURB HERE ***", blurb.strip("\n"))
    open(cl, "w").write(t)


def list_patches():
    progressive, patches = parse_map()
    pristine, changed = final_state()
    owner = check_coverage(patches, changed, progressive)
    for i, paths, _ in states(pristine, changed, progressive, patches, owner):
        p = patches[i]
        print(f"{i + 1:2d} {p.subject}\n     build: {' '.join(p.build) or '-'}"
              f"\n     paths: {' '.join(paths)}")


def compare(tree, base):
    """Is the git work tree at TREE, from commit BASE on, make prepare's?"""
    _, changed = final_state()
    git = ["git", "-C", tree]
    dirty = subprocess.run(git + ["status", "--porcelain", "-uall"],
                           check=True, capture_output=True,
                           text=True).stdout.split("\n")
    dirty = [d for d in dirty if d and not d.endswith(".series-manifest")]
    touched = set(subprocess.run(
        git + ["diff", "--name-only", "--no-renames", base, "HEAD"],
        check=True, capture_output=True, text=True).stdout.split())
    bad = [f"not committed: {d}" for d in dirty]
    bad += [f"{r}: changed by the series, not by the patches"
            for r in sorted(set(changed) - touched)]
    bad += [f"{r}: changed by the patches, not by the series"
            for r in sorted(touched - set(changed))]
    for rel, data in sorted(changed.items()):
        dst = os.path.join(tree, rel)
        have = open(dst, "rb").read() if os.path.exists(dst) else None
        if have != data:
            bad.append(f"{rel}: differs from make prepare's")
        elif data is not None:
            want_x = bool(prepare.file_mode(rel, data) & 0o100)
            if bool(os.stat(dst).st_mode & 0o100) != want_x:
                bad.append(f"{rel}: its execute bit differs from make "
                           f"prepare's")
    if bad:
        die("the applied series is not make prepare's tree:\n  " +
            "\n  ".join(bad))
    print(f"[series] the applied series is make prepare's tree "
          f"({len(changed)} paths changed from the base, each the same)")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("out", nargs="?")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--compare", nargs=2, metavar=("TREE", "BASE"))
    a = ap.parse_args()
    if a.list:
        list_patches()
    elif a.compare:
        compare(*a.compare)
    elif a.out:
        export(os.path.abspath(a.out))
    else:
        ap.error("OUTDIR or --list")


if __name__ == "__main__":
    main()
