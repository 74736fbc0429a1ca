#!/usr/bin/env python3
"""Build and run servebench's Containerfile without a container engine.

Each stage's root file system is a fresh Debian 12 (debootstrap --variant=minbase bookworm,
cached as a tarball); RUN lines run in it through chroot as `/bin/sh -c` in the stage's WORKDIR,
COPY copies from the build context (honouring .dockerignore) or, with --from, from an earlier
stage's root. The final stage's ENTRYPOINT is then run by check_container.sh.

  containerfile_chroot.py CONTAINERFILE CONTEXT WORKDIR [--prebuilt NAME=ROOT]

--prebuilt takes stage NAME's root as already built at ROOT (its instructions are skipped): the
short check reuses the .deb that `make package` built on this machine instead of compiling again.

Prints the final stage's root path, ENTRYPOINT and WORKDIR as three lines at the end
(`final-root=...`, `entrypoint=...`, `workdir=...`). Only the instructions the Containerfile uses
are supported (FROM, RUN, WORKDIR, COPY, ENTRYPOINT, CMD, ENV); anything else is an error.
"""
import argparse
import fnmatch
import glob
import json
import os
import shlex
import shutil
import subprocess
import sys

BASE_IMAGES = {"docker.io/library/debian:12", "debian:12", "debian:bookworm"}


def instructions(path):
    """(keyword, argument text) per instruction, continuation lines joined, comments dropped."""
    out, pending = [], ""
    for raw in open(path, encoding="utf-8"):
        line = raw.rstrip("\n")
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        text = (pending + line).strip()
        pending = ""
        keyword, _, rest = text.partition(" ")
        out.append((keyword.upper(), rest.strip()))
    return out


def base_root(cache_dir, dest):
    """A fresh copy of the cached Debian 12 minbase root at dest."""
    tarball = os.path.join(cache_dir, "debian12-minbase.tar")
    if not os.path.exists(tarball):
        staging = os.path.join(cache_dir, "debootstrap")
        shutil.rmtree(staging, ignore_errors=True)
        subprocess.run(["debootstrap", "--variant=minbase", "bookworm", staging,
                        "http://deb.debian.org/debian"], check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["tar", "-C", staging, "-cf", tarball + ".part", "."], check=True)
        os.replace(tarball + ".part", tarball)
        shutil.rmtree(staging)
    os.makedirs(dest)
    subprocess.run(["tar", "-C", dest, "-xf", tarball], check=True)
    shutil.copy("/etc/resolv.conf", os.path.join(dest, "etc/resolv.conf"))


def ignore_patterns(context):
    path = os.path.join(context, ".dockerignore")
    if not os.path.exists(path):
        return []
    pats = [p.strip().rstrip("/") for p in open(path) if p.strip() and not p.startswith("#")]
    if any(p.startswith("!") for p in pats):
        sys.exit(".dockerignore: '!' exceptions are not supported by this checker")
    return pats


def ignored(rel, patterns):
    parts = rel.split("/")
    prefixes = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
    for p in patterns:
        p = p.lstrip("/")
        if p.startswith("**/"):
            if any(fnmatch.fnmatch(part, p[3:]) for part in parts):
                return True
        elif any(fnmatch.fnmatch(pre, p) for pre in prefixes):
            return True
    return False


def copy_context(context, dest):
    patterns = ignore_patterns(context)
    for dirpath, dirnames, filenames in os.walk(context):
        rel_dir = os.path.relpath(dirpath, context)
        rel_dir = "" if rel_dir == "." else rel_dir
        dirnames[:] = [d for d in dirnames if not ignored(os.path.join(rel_dir, d), patterns)]
        os.makedirs(os.path.join(dest, rel_dir), exist_ok=True)
        for f in filenames:
            rel = os.path.join(rel_dir, f)
            if not ignored(rel, patterns):
                shutil.copy2(os.path.join(context, rel), os.path.join(dest, rel), follow_symlinks=False)


class Stage:
    def __init__(self, name, root):
        self.name, self.root, self.workdir, self.env = name, root, "/", {}
        self.entrypoint, self.cmd = [], []

    def run(self, command):
        mounts = [("/dev", "dev", ["--bind"]), ("proc", "proc", ["-t", "proc"])]
        for src, sub, how in mounts:
            subprocess.run(["mount", *how, src, os.path.join(self.root, sub)], check=True)
        try:
            env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                   "HOME": "/root", "DEBIAN_FRONTEND": "noninteractive", **self.env}
            script = f"cd {shlex.quote(self.workdir)} || exit 1; {command}"
            rc = subprocess.run(["chroot", self.root, "/bin/sh", "-c", script], env=env).returncode
        finally:
            for _, sub, _ in reversed(mounts):
                subprocess.run(["umount", os.path.join(self.root, sub)], check=False)
        if rc != 0:
            sys.exit(f"stage {self.name}: RUN failed with exit code {rc}: {command[:120]}")


def in_root(stage, path):
    full = path if path.startswith("/") else os.path.join(stage.workdir, path)
    return os.path.join(stage.root, full.lstrip("/"))


def copy(stage, arg, stages, context):
    words = shlex.split(arg)
    source_stage = None
    if words[0].startswith("--from="):
        source_stage = stages[words.pop(0).split("=", 1)[1]]
    *sources, dest = words
    target = in_root(stage, dest)
    for src in sources:
        if source_stage is None and src == ".":
            copy_context(context, target)
            continue
        base = source_stage.root if source_stage else context
        matches = sorted(glob.glob(os.path.join(base, src.lstrip("/"))))
        if not matches:
            sys.exit(f"COPY {src}: nothing matches")
        os.makedirs(target if dest.endswith("/") else os.path.dirname(target), exist_ok=True)
        for m in matches:
            shutil.copy2(m, target)


def parse_args():
    ap = argparse.ArgumentParser()
    ap.add_argument("containerfile")
    ap.add_argument("context")
    ap.add_argument("work")
    ap.add_argument("--prebuilt", action="append", default=[], metavar="NAME=ROOT")
    args = ap.parse_args()
    args.prebuilt = dict(p.split("=", 1) for p in args.prebuilt)
    return args


def begin_stage(arg, stages, work, cache, prebuilt):
    """A new Stage for a FROM line; a prebuilt stage reuses its given root."""
    words = arg.split()
    if words[0] not in BASE_IMAGES:
        sys.exit(f"FROM {words[0]}: only Debian 12 bases are supported by this checker")
    name = words[2] if len(words) == 3 and words[1].upper() == "AS" else f"stage{len(stages)}"
    if name in prebuilt:
        stage = Stage(name, prebuilt[name])
        stage.skip = True
    else:
        stage = Stage(name, os.path.join(work, name))
        base_root(cache, stage.root)
        stage.skip = False
    stages[name] = stage
    return stage


def apply(stage, keyword, arg, stages, context):
    if keyword == "RUN":
        stage.run(arg)
    elif keyword == "WORKDIR":
        stage.workdir = arg if arg.startswith("/") else os.path.join(stage.workdir, arg)
        os.makedirs(in_root(stage, stage.workdir), exist_ok=True)
    elif keyword == "COPY":
        copy(stage, arg, stages, context)
    elif keyword == "ENV":
        key, _, value = arg.partition("=")
        stage.env[key.strip()] = value.strip().strip('"')
    elif keyword in ("ENTRYPOINT", "CMD"):
        setattr(stage, keyword.lower(), json.loads(arg))
    else:
        sys.exit(f"{keyword}: not supported by this checker")


def main():
    args = parse_args()
    cache = os.environ.get("SERVEBENCH_CONTAINER_CACHE",
                           os.path.expanduser("~/.cache/servebench/container"))
    os.makedirs(cache, exist_ok=True)
    stages, stage = {}, None
    for keyword, arg in instructions(args.containerfile):
        if keyword == "FROM":
            stage = begin_stage(arg, stages, args.work, cache, args.prebuilt)
        if stage is None:
            sys.exit(f"{keyword} before FROM")
        print(f"--> {'(prebuilt) ' if stage.skip else ''}{keyword} {arg[:100]}", flush=True)
        if keyword != "FROM" and not stage.skip:
            apply(stage, keyword, arg, stages, args.context)
    print(f"final-root={stage.root}")
    print(f"entrypoint={json.dumps(stage.entrypoint)}")
    print(f"workdir={stage.workdir}")


if __name__ == "__main__":
    main()
