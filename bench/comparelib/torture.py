# SPDX-License-Identifier: GPL-2.0
"""The hand-over torture test per build, through compare's pipeline:
a plan within a budget (QUICK, BUDGET), one guest boot per CPU count
(vm-run), the rounds' reports -> cells with stats.summary, the tables
with table.Table, RESULTS/torture.json (schema "svcsock-torture",
version 1) and torture.md.

The test itself is svcsock-mod/svc_torture.c, in a module of its own
per build (svcsock_<build>_torture): the build's own
enqueue/dequeue/received code on synthetic sockets, no network; each
round is started by debugfs's `run` and reports one line (`report`).  Counts per hand-over lead
(they repeat); rates and latency under TCG do not, and a difference
inside the ranges is a tie.
"""

import datetime
import os
import re
import subprocess
import sys

from .plan import mmss
from .stats import summary
from .table import Table, Strong, markdown, text
from . import schema

SCHEMA = "svcsock-torture"
SCHEMA_VERSION = 2

# the module's counts per 1000 hand-overs, shown per hand-over
COUNTS = [("woken_per_k", "woken"), ("wakeups_idle_per_k", "idle wakeups"),
          ("enqueue_per_k", "enqueues"), ("sv_lock_per_k", "sv_lock"),
          ("sk_lock_per_k", "sk_lock"), ("lwq_lock_per_k", "lwq_lock"),
          ("flag_rmw_per_k", "flag RMW")]
RATES = [("handovers_per_s_per_cpu", "hand-overs/s/CPU"),
         ("lat_p50_ns", "p50 ns"), ("lat_p99_ns", "p99 ns")]
# the checks every round must pass: each counted event handed over once,
# by one owner at a time, within the module's latency bound
CHECKS = ("lost", "double_owner", "twice", "late")

# rough cost, measured under TCG on the 2-core machine: a boot ~10 s, a
# round's module load, start, report and unload ~3 s beside its seconds
EST_BOOT_S = 10.0
EST_ROUND_S = 3.0


def estimate_s(smps, builds, reps, seconds):
    return len(smps) * (EST_BOOT_S + len(builds) * reps * (seconds + EST_ROUND_S))


def plan(smps, builds, reps, seconds, budget_s):
    """(smps, reps, dropped): the CPU counts and rounds that fit in the
    budget: rounds are cut first, down to 2 (a range needs two), then
    CPU counts are dropped from the last; the first always runs.
    dropped says what went, in words."""
    smps, dropped = list(smps), []
    if budget_s:
        while reps > 2 and estimate_s(smps, builds, reps, seconds) > budget_s:
            reps -= 1
            dropped.append("rounds cut to %d: over the budget (%d s)" % (reps, budget_s))
        while len(smps) > 1 and estimate_s(smps, builds, reps, seconds) > budget_s:
            dropped.append("%d CPUs: over the budget (%d s)" % (smps[-1], budget_s))
            smps.pop()
    return smps, reps, dropped


def guest_script(builds, reps, seconds, threads):
    """The sh the guest runs: REPS rounds, each build's torture module
    once per round (interleaved, so that a drifting host does not favour
    one build).  A run starts in the background; the report says
    result=running until it ends (at most the run, its drains of 3 s
    each and the listener's close: the loop waits SECONDS + 60 s)."""
    lines = ["rpcbind -w 2>/dev/null || true",
             "for r in $(seq %d); do for b in %s; do" % (reps, " ".join(builds)),
             "  m=svcsock_${b}_torture D=/sys/kernel/debug/$m",
             "  modprobe $m threads=%d rpcbind=0 || { echo \"TORTURE $b $r "
             "result=noload\"; continue; }" % threads,
             "  if echo %d >$D/run; then" % seconds,
             "    i=0; while grep -q '^result=running' $D/report && "
             "[ $i -lt %d ]; do sleep 0.2; i=$((i+1)); done" % ((seconds + 60) * 5),
             "    echo \"TORTURE $b $r $(cat $D/report)\"",
             "  else echo \"TORTURE $b $r result=error\"; fi",
             "  rmmod $m",
             "done; done"]
    return "\n".join(lines)


def parse(stdout):
    """{build: [report dict per round]} out of a boot's output."""
    rounds = {}
    for line in stdout.splitlines():
        m = re.match(r"^TORTURE (\S+) (\d+) (.*)$", line.strip())
        if not m:
            continue
        rep = dict(kv.split("=", 1) for kv in m.group(3).split() if "=" in kv)
        rounds.setdefault(m.group(1), []).append(rep)
    return rounds


def run_boot(vm_run, smp, builds, reps, seconds, threads, raw_dir, vmrun_args=()):
    """One boot: ({build: [rounds]}, vm-run's status); its console kept
    in raw_dir/torture-smpN.log."""
    argv = [vm_run, "--smp", str(smp), "--mem", "2048", "--timeout",
            str(int(120 + len(builds) * reps * (seconds + 10) * 3))] + \
        list(vmrun_args) + ["--", guest_script(builds, reps, seconds, threads)]
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, errors="replace", check=False)
    with open(os.path.join(raw_dir, "torture-smp%d.log" % smp), "w") as f:
        f.write(p.stdout)
        f.write("\n# vm-run exit %d; its stderr:\n%s" % (p.returncode, p.stderr))
    if p.returncode not in (0, 1):
        sys.stderr.write("torture: smp %d: vm-run exit %d: %s\n" %
                         (smp, p.returncode, p.stderr.strip()[-300:]))
    return parse(p.stdout), p.returncode


def num(r, key):
    try:
        return int(r[key])
    except (KeyError, ValueError):
        return None


def aggregate(raw, builds):
    """Per CPU count and build: each figure's summary over the clean
    rounds, and the checks summed over every round."""
    cells = []
    for smp, per_build in sorted(raw.items(), key=lambda kv: int(kv[0])):
        for build in builds + sorted(set(per_build) - set(builds)):
            rounds = per_build.get(build, [])
            clean = [r for r in rounds if r.get("result") == "ok"]
            cell = {"smp": int(smp), "build": build, "rounds": len(rounds),
                    "clean": len(clean),
                    "results": sorted(set(r.get("result", "?") for r in rounds))}
            for k in CHECKS:
                cell[k] = sum(num(r, k) or 0 for r in rounds)
            for key, _ in COUNTS + RATES:
                cell[key] = summary([num(r, key) for r in clean])
            cells.append(cell)
    return cells


def fmt(s, scale=1.0, digits=0):
    if s is None:
        return "-"
    f = "%%.%df" % digits
    m = f % (s["median"] / scale)
    if s["min"] == s["max"]:
        return m
    return "%s [%s-%s]" % (m, f % (s["min"] / scale), f % (s["max"] / scale))


def the_table(doc):
    t = Table(
        "The hand-over torture test, per build",
        [("CPUs", "r"), ("build", "l"), ("clean", "r")] +
        [(h, "r") for _, h in COUNTS + RATES] + [("lost/double/twice/late", "r")],
        notes=[
            "bench/torture (svcsock-mod/svc_torture.c): %d s rounds, %d "
            "rounds per cell, builds interleaved, %d server threads, one "
            "boot per CPU count (QEMU TCG). Medians, [min-max] over the "
            "clean rounds. Counts are per hand-over (x1000 in the kernel's "
            "report, shown here per hand-over); latency is from an event's "
            "count to the read that takes it, by powers of two. A "
            "difference inside the ranges is a tie. clean: rounds that "
            "handed every event over exactly once, by one owner at a time, "
            "within the module's latency bound." % (
                doc["seconds"], doc["reps"], doc["threads"])],
        repeat=1)
    for c in doc["cells"]:
        bad = c["clean"] != c["rounds"] or c["rounds"] < doc["reps"]
        row = [str(c["smp"]), c["build"],
               (Strong if bad else str)("%d/%d" % (c["clean"], c["rounds"]))]
        row += [fmt(c[k], 1000.0, 2) for k, _ in COUNTS]
        row += [fmt(c[k]) for k, _ in RATES]
        row += ["/".join(str(c[k]) for k in CHECKS)]
        t.add(row)
    return t


def failures(doc):
    """Why the run failed, one line each; [] when every round ran clean."""
    out = []
    for c in doc["cells"]:
        if c["rounds"] < doc["reps"]:
            out.append("%d CPUs %s: %d of %d rounds ran" % (
                c["smp"], c["build"], c["rounds"], doc["reps"]))
        if c["clean"] != c["rounds"]:
            out.append("%d CPUs %s: %d of %d rounds clean (results %s; lost %d, "
                       "double owner %d, twice %d, late %d)" % (
                           c["smp"], c["build"], c["clean"], c["rounds"],
                           ",".join(c["results"]), c["lost"],
                           c["double_owner"], c["twice"], c["late"]))
    for g in doc["guests"]:
        if g["vm_run_status"] not in (0, 1):
            out.append("%d CPUs: vm-run exit %d" % (g["smp"], g["vm_run_status"]))
    missing = [b for smp in doc["smp"] for b in doc["builds"]
               if not any(c["smp"] == smp and c["build"] == b for c in doc["cells"])]
    if missing:
        out.append("no round at all: %s" % " ".join(missing))
    return out


def document(raw, guests, builds, smps, reps, seconds, threads, dropped, wall_s):
    return {"schema": SCHEMA, "schema_version": SCHEMA_VERSION,
            "created": datetime.datetime.now(datetime.timezone.utc).strftime(
                "%Y-%m-%dT%H:%M:%SZ"),
            "seconds": seconds, "reps": reps, "threads": threads,
            "builds": builds, "smp": smps, "dropped": dropped,
            "guests": guests, "cells": aggregate(raw, builds), "raw": raw,
            "wall_s": wall_s}


def load(path):
    return schema.load(path, SCHEMA, SCHEMA_VERSION, "torture")


def render(doc, results_dir=None):
    """The terminal's text; torture.md written when results_dir is given."""
    t = the_table(doc)
    fails = failures(doc)
    lines = [text(t)]
    if doc["dropped"]:
        lines += ["", "dropped from the plan:"] + ["  " + d for d in doc["dropped"]]
    lines += [""] + (["!!! " + f for f in fails] or
                     ["torture: every round handed every event over exactly once"])
    if results_dir:
        md = [markdown(t, level=1)]
        if doc["dropped"]:
            md += ["## Dropped from the plan", ""] + ["- " + d for d in doc["dropped"]] + [""]
        md += ["## Failures", ""] + (["- " + f for f in fails] or ["None."]) + [""]
        with open(os.path.join(results_dir, "torture.md"), "w") as f:
            f.write("\n".join(md))
    return "\n".join(lines)


def say_plan(smps, builds, reps, seconds):
    sys.stderr.write("torture: builds %s; %d round(s) of %d s, CPUs %s; "
                     "estimated %s\n" % (" ".join(builds), reps, seconds,
                                         " ".join(map(str, smps)),
                                         mmss(estimate_s(smps, builds, reps, seconds))))
