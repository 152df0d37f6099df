# SPDX-License-Identifier: GPL-2.0
"""compare.png: per guest CPU count, NULL over TCP against connections:
the cost of a call per build (what repeats) first, then ops/s with the
runs' range, then p99 latency (bench/plot.gp draws it)."""

import os
import shutil
import subprocess
import sys

from . import catalog
from .cells import median_of

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOCKS = ("sv_lock_acquired", "sk_lock_acquired", "lwq_lock_acquired")
# the builds take these in lineage order; nfsd, ref and rr their own
BUILD_COLORS = ["#d62728", "#1f77b4", "#ff7f0e", "#17becf", "#8c564b",
                "#e377c2", "#bcbd22", "#000000"]
OTHER_COLORS = {"nfsd": "#2ca02c", "ref": "#9467bd", "rr": "#7f7f7f"}


def per_call_sum(c, keys):
    pc = c.get("per_call") or {}
    vals = [pc[k]["median"] for k in keys if pc.get(k)]
    return sum(vals) if vals else "NaN"


def write_data(doc, ddir):
    """plot-data/null-tcp-smpN-SERVER.dat; returns the servers drawn."""
    os.makedirs(ddir, exist_ok=True)
    servers = doc["builds"] + [s for s in catalog.OTHER_ORDER if s != "iperf"]
    drawn = []
    for smp in doc["settings"]["smp"]:
        for s in servers:
            pts = [c for c in doc["cells"] if c["smp"] == smp and c["server"] == s
                   and c["workload"] == "null-tcp" and median_of(c)]
            if pts and s not in drawn:
                drawn.append(s)
            with open(os.path.join(ddir, "null-tcp-smp%d-%s.dat" % (smp, s)), "w") as f:
                f.write("# conns ops_median ops_min ops_max p99_median p99_min "
                        "p99_max errors locks_per_call woken_per_call\n")
                for c in sorted(pts, key=lambda c: c["conns"]):
                    o, p = c["ops_per_s"], c["p99_us"] or {}
                    f.write("%d %s %s %s %s %s %s %d %s %s\n" % (
                        c["conns"], o["median"], o["min"], o["max"],
                        p.get("median", "NaN"), p.get("min", "NaN"),
                        p.get("max", "NaN"), c["errors"],
                        per_call_sum(c, LOCKS), per_call_sum(c, ("threads_woken",))))
    return [s for s in servers if s in drawn]


def write(doc, results):
    gp = shutil.which("gnuplot")
    if not gp:
        sys.stderr.write("compare: gnuplot not found: no compare.png\n")
        return None
    ddir = os.path.join(results, "plot-data")
    servers = write_data(doc, ddir)
    if not servers:
        return None
    smps = [s for s in doc["settings"]["smp"]
            if any(c["smp"] == s and c["workload"] == "null-tcp" for c in doc["cells"])]
    if not smps:
        return None
    builds = [s for s in servers if s in doc["builds"]]
    colors = [BUILD_COLORS[i % len(BUILD_COLORS)] for i in range(len(builds))] + \
        [OTHER_COLORS.get(s, "#000000") for s in servers[len(builds):]]
    out = os.path.join(results, "compare.png")
    st = doc["settings"]
    costsmps = [s for s in smps if any(
        c["smp"] == s and c["workload"] == "null-tcp" and c["server"] in builds
        and per_call_sum(c, LOCKS) != "NaN" for c in doc["cells"])]
    cmd = [gp, "-e", "datadir='%s'; outfile='%s'; smps='%s'; reps=%d; "
           "servers='%s'; nbuilds=%d; colors='%s'; costsmps='%s'" % (
               ddir, out, " ".join(str(s) for s in smps), st["reps"],
               " ".join(servers), len(builds), " ".join(colors),
               " ".join(str(s) for s in costsmps)),
           os.path.join(HERE, "plot.gp")]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write("compare: gnuplot failed: %s\n" % p.stderr.strip()[-800:])
        return None
    return out
