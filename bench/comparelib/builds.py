# SPDX-License-Identifier: GPL-2.0
"""The svcsock builds, asked of the one place that defines them.

svcsock-mod/Kbuild lists the locking builds in their lineage: each build
is a step from the one before it (lock -> bitflag -> bitlock -> ...).
`make -s -C svcsock-mod builds` prints that list, and `strategies`,
`twins` what goes with it (svcsock-mod/list.mk): Kbuild's own variables,
read as make reads Kbuild, with no kernel tree.  Asking make rather than
reading the file keeps compare from ever disagreeing with what Kbuild
builds.  Every table, ratio and plot line of compare follows that list;
nothing else names a build.
"""

import os
import subprocess

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODDIR = os.path.join(TOP, "svcsock-mod")
# compare's default for --kbuild.  A path may name the directory (a
# svcsock-mod/ with its Makefile and list.mk) or its Kbuild.
KBUILD = os.path.join(MODDIR, "Kbuild")

# the build the others are measured against, when the list holds it
BASELINE = "lock"


def mod_dir(path):
    """The svcsock-mod directory of `path`, a directory or its Kbuild."""
    return path if os.path.isdir(path) else (os.path.dirname(path) or ".")


def ask(path, target):
    """The words `make -s -C DIR TARGET` prints; SystemExit when make
    fails.  The caller's MAKEFLAGS are not passed on: under `make compare`
    they carry the parent's jobserver, and a parent's -n would print the
    recipe instead of running it."""
    d = mod_dir(path)
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS")}
    try:
        p = subprocess.run(["make", "-s", "--no-print-directory", "-C", d, target],
                           capture_output=True, text=True, env=env, timeout=60)
    except (OSError, subprocess.SubprocessError) as e:
        raise SystemExit("compare: cannot ask make -C %s %s: %s" % (d, target, e))
    if p.returncode != 0:
        raise SystemExit("compare: make -C %s %s failed: %s"
                         % (d, target, p.stderr.strip()))
    return p.stdout.split()


def read_builds(path=KBUILD):
    """The builds in lineage order; raises SystemExit when there are none."""
    builds = ask(path, "builds")
    if not builds:
        raise SystemExit("compare: make -C %s builds lists no build" % mod_dir(path))
    return builds


def read_strategies(path=KBUILD):
    """build -> its strategy (the file xprt_STRATEGY.c), where Kbuild says."""
    return dict(w.split("=", 1) for w in ask(path, "strategies")
                if "=" in w and not w.endswith("="))


def read_twins(path=KBUILD):
    """The A/A twins (svcsock_<build>_aa), modules but no builds."""
    return ask(path, "twins")


def read_tortures(path=KBUILD):
    """The torture modules (<build>_torture), modules but no builds."""
    return ask(path, "tortures")


def baseline(builds):
    return BASELINE if BASELINE in builds else builds[0]


def lineage_pairs(builds):
    """(numerator, denominator) pairs: every build over the baseline, then
    every build over its predecessor where that is not the baseline."""
    base = baseline(builds)
    pairs = [(b, base) for b in builds if b != base]
    for prev, b in zip(builds, builds[1:]):
        if prev != base and b != base:
            pairs.append((b, prev))
    return pairs


def predecessor(builds, build):
    i = builds.index(build) if build in builds else -1
    return builds[i - 1] if i > 0 else None
