#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Prepare a kernel source tree: the pinned base plus this series.

The pristine base is extracted once into a cache (keyed by the tarball's
checksum).  A work tree is a hard-linked copy of it; files the series
adds, replaces, patches or deletes are tracked in a manifest so a later
run touches only files whose content changed: make then rebuilds only
what depends on them.  Nothing here ever writes through a hard link:
a managed file is unlinked before it is written.
"""
import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Top-level directories of the repository that mirror kernel paths.
MIRRORED = ["arch", "include", "kernel", "lib", "samples", "Documentation",
            "tools"]


def log(msg):
    print(f"[prepare] {msg}", flush=True)


def read_env(path):
    env = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#") and "=" in line:
                k, v = line.split("=", 1)
                env[k] = v
    return env


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def sha256_bytes(data):
    return hashlib.sha256(data).hexdigest()


def pristine_tree(env, cache):
    """Return the cached pristine tree, extracting it on first use."""
    tarball = env["BASE_TARBALL"]
    if not os.path.exists(tarball):
        sys.exit(f"[prepare] {tarball} missing: run `make setup` "
                 f"(apt-get install {env['BASE_PKG']}={env['BASE_VERSION']})")
    want = env["BASE_SHA256"]
    dest = os.path.join(cache, want[:16])
    stamp = os.path.join(dest, ".extracted")
    if os.path.exists(stamp):
        return os.path.join(dest, env["BASE_TOPDIR"])
    got = sha256_file(tarball)
    if got != want:
        sys.exit(f"[prepare] base mismatch: {tarball} has sha256 {got},\n"
                 f"          the series is pinned to {env['BASE_VERSION']} "
                 f"({want}).\n          Install the pinned package or "
                 f"update harness/base.env deliberately.")
    log(f"extracting {tarball} into {dest} (once)")
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    subprocess.run(["tar", "-C", dest, "-xf", tarball], check=True)
    open(stamp, "w").close()
    return os.path.join(dest, env["BASE_TOPDIR"])


def overlay_files():
    """Kernel-relative paths of the files the series adds or replaces."""
    files = []
    for top in MIRRORED:
        base = os.path.join(ROOT, top)
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = [d for d in dirnames if not d.startswith(".")]
            for name in filenames:
                full = os.path.join(dirpath, name)
                files.append(os.path.relpath(full, ROOT))
    return sorted(files)


def patch_targets(patch):
    """Files a unified diff modifies (paths relative to the tree)."""
    targets = []
    with open(patch) as f:
        for line in f:
            if line.startswith("+++ "):
                path = line[4:].split("\t")[0].strip()
                if path.startswith("b/"):
                    path = path[2:]
                targets.append(path)
    return targets


# Path -> the mode a file the series writes gets: a file of the repository
# keeps the repository's (ftracetest sources its .tc files: 0644), a
# patched upstream file the base's.  Filled by desired_state().
MODES = {}


def file_mode(rel, data):
    """The mode make prepare gives a file it writes."""
    if rel in MODES:
        return MODES[rel]
    return 0o755 if data.startswith(b"#!") else 0o644


def desired_state(pristine, series=True, extra=None):
    """Map kernel-relative path -> bytes (or None for 'deleted')."""
    want = {}
    if series:
        series_state(pristine, want)
    if extra:
        apply_patch_dir(extra, pristine, want)
    return want


def series_state(pristine, want):
    """The series: its own files, the files it deletes, its patches."""
    for rel in overlay_files():
        with open(os.path.join(ROOT, rel), "rb") as f:
            want[rel] = f.read()
        x = os.stat(os.path.join(ROOT, rel)).st_mode & 0o100
        MODES[rel] = 0o755 if x else 0o644
    deleted = os.path.join(ROOT, "harness", "deleted-files")
    if os.path.exists(deleted):
        with open(deleted) as f:
            for line in f:
                line = line.split("#", 1)[0].strip()
                if line:
                    if line in want:
                        sys.exit(f"[prepare] {line} is both deleted and "
                                 f"provided by the series")
                    want[line] = None
    apply_patch_dir(os.path.join(ROOT, "patches"), pristine, want)


def apply_patch_dir(pdir, pristine, want):
    """Apply each <path>.patch under pdir, which changes <path> only."""
    for dirpath, _, filenames in sorted(os.walk(pdir)):
        for name in sorted(filenames):
            if not name.endswith(".patch"):
                continue
            patch = os.path.join(dirpath, name)
            rel = os.path.relpath(patch, pdir)[:-len(".patch")]
            if patch_targets(patch) != [rel]:
                sys.exit(f"[prepare] {patch} must change exactly {rel}")
            apply_patch(patch, pristine, want)


def apply_patch(patch, pristine, want):
    """Apply one patch on top of what `want` holds so far."""
    with tempfile.TemporaryDirectory() as tmp:
        for rel in patch_targets(patch):
            src = want.get(rel, "pristine")
            dst = os.path.join(tmp, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            if src == "pristine":
                p = os.path.join(pristine, rel)
                if os.path.exists(p):
                    shutil.copyfile(p, dst)
            elif src is not None:
                with open(dst, "wb") as f:
                    f.write(src)
        r = subprocess.run(["patch", "-p1", "-s", "--no-backup-if-mismatch",
                            "-d", tmp, "-i", patch],
                           capture_output=True, text=True)
        if r.returncode:
            sys.exit(f"[prepare] {os.path.basename(patch)} does not apply:\n"
                     f"{r.stdout}{r.stderr}")
        for rel in patch_targets(patch):
            dst = os.path.join(tmp, rel)
            base = os.path.join(pristine, rel)
            if rel not in MODES and os.path.exists(base):
                MODES[rel] = 0o755 if os.stat(base).st_mode & 0o100 else 0o644
            if os.path.exists(dst):
                with open(dst, "rb") as f:
                    want[rel] = f.read()
            else:
                want[rel] = None


def write_file(path, data, mode):
    if os.path.lexists(path):
        os.unlink(path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
    os.chmod(path, mode)


def restore_pristine(tree, pristine, rel):
    dst = os.path.join(tree, rel)
    src = os.path.join(pristine, rel)
    if os.path.lexists(dst):
        os.unlink(dst)
    if os.path.exists(src):
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        # A copy, not a link: the file must be newer than the objects
        # built from the series' version, or make keeps those objects.
        shutil.copyfile(src, dst)
        shutil.copymode(src, dst)


def sync_tree(tree, pristine, want):
    manifest_path = os.path.join(tree, ".series-manifest")
    if not os.path.exists(manifest_path):
        log(f"creating {tree} (hard links to the pristine base)")
        if os.path.exists(tree):
            shutil.rmtree(tree)
        os.makedirs(os.path.dirname(tree), exist_ok=True)
        subprocess.run(["cp", "-al", pristine, tree], check=True)
        old = {}
    else:
        with open(manifest_path) as f:
            old = json.load(f)
    changed = 0
    for rel in sorted(set(old) - set(want)):
        restore_pristine(tree, pristine, rel)
        log(f"restored {rel}")
        changed += 1
    new = {}
    for rel, data in sorted(want.items()):
        digest = None if data is None else sha256_bytes(data)
        new[rel] = digest
        dst = os.path.join(tree, rel)
        if rel in old and old[rel] == digest:
            # A file written before: a mode that changed is set in
            # place (the file is ours, no hard link; its mtime stays).
            if data is not None and os.path.exists(dst):
                mode = file_mode(rel, data)
                if os.stat(dst).st_mode & 0o777 != mode:
                    os.chmod(dst, mode)
            continue
        if data is None:
            if os.path.lexists(dst):
                os.unlink(dst)
        else:
            write_file(dst, data, file_mode(rel, data))
        changed += 1
    with open(manifest_path + ".tmp", "w") as f:
        json.dump(new, f, indent=0, sort_keys=True)
    os.replace(manifest_path + ".tmp", manifest_path)
    log(f"{tree}: {len(want)} series files, {changed} changed")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("tree", help="work tree to create or update")
    ap.add_argument("--pristine", action="store_true",
                    help="the unmodified base (ignore the series)")
    ap.add_argument("--print-pristine", action="store_true",
                    help="print the cached pristine tree's path and exit")
    ap.add_argument("--extra", metavar="DIR",
                    help="also apply DIR/<path>.patch after the series "
                         "(make bench's exports for its test module)")
    args = ap.parse_args()
    env = read_env(os.path.join(ROOT, "harness", "base.env"))
    cache = os.environ.get("SERIES_CACHE",
                           os.path.expanduser("~/.cache/ftrace-series"))
    pristine = pristine_tree(env, cache)
    if args.print_pristine:
        print(pristine)
        return
    extra = os.path.abspath(args.extra) if args.extra else None
    want = desired_state(pristine, not args.pristine, extra)
    sync_tree(os.path.abspath(args.tree), pristine, want)


if __name__ == "__main__":
    main()
