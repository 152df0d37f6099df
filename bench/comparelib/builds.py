"""The svcsock builds, from the one place that defines them.

svcsock-mod/Kbuild's `svcsock-builds := lock bitflag bitlock ...` line
lists the locking builds in their lineage: each build is a step from the
one before it (lock -> bitflag -> bitlock -> ...).  Every table, ratio
and plot line of compare follows that list; nothing else names a build.
"""

import os
import re

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KBUILD = os.path.join(TOP, "svcsock-mod", "Kbuild")

# the build the others are measured against, when the list holds it
BASELINE = "lock"


def _logical_lines(text):
    """Make's lines: comments cut, backslash continuations joined."""
    line = ""
    for raw in text.splitlines():
        raw = raw.split("#", 1)[0]
        if raw.endswith("\\"):
            line += raw[:-1] + " "
            continue
        yield line + raw
        line = ""
    if line:
        yield line


def parse_kbuild(text):
    """(builds, strategies) out of Kbuild's text.

    builds: the words of the top-level `svcsock-builds` assignments (`:=`
    and `=` replace, `+=` appends), in order; assignments inside
    ifeq/ifneq blocks (the mutant's) and words holding `$` are ignored.
    strategies: build -> its `svcsock-strategy-BUILD` (strategy file
    xprt_STRATEGY.c), where Kbuild says."""
    builds, strategies = [], {}
    depth = 0
    for line in _logical_lines(text):
        s = line.strip()
        if re.match(r"(ifeq|ifneq|ifdef|ifndef)\b", s):
            depth += 1
            continue
        if s == "endif" or s.startswith("endif "):
            depth = max(0, depth - 1)
            continue
        if depth:
            continue
        m = re.match(r"svcsock-builds\s*(:=|\+=|=)\s*(.*)$", s)
        if m:
            words = [w for w in m.group(2).split() if "$" not in w]
            builds = (builds if m.group(1) == "+=" else []) + words
            continue
        m = re.match(r"svcsock-strategy-([A-Za-z0-9_]+)\s*:?=\s*(\S+)\s*$", s)
        if m:
            strategies[m.group(1)] = m.group(2)
    seen = set()
    builds = [b for b in builds if not (b in seen or seen.add(b))]
    return builds, strategies


def read_builds(path=KBUILD):
    """The builds in lineage order; raises SystemExit when there are none."""
    try:
        with open(path) as f:
            builds, _ = parse_kbuild(f.read())
    except OSError as e:
        raise SystemExit("compare: cannot read the builds from %s: %s" % (path, e))
    if not builds:
        raise SystemExit("compare: no `svcsock-builds :=` line in %s" % path)
    return builds


def read_strategies(path=KBUILD):
    try:
        with open(path) as f:
            return parse_kbuild(f.read())[1]
    except OSError:
        return {}


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
