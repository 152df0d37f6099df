# SPDX-License-Identifier: GPL-2.0
"""Paired cells: each guest's BENCH-SLICES records (rpcload slices'
documents, every server up at once) and the host's CPU samples taken on
the slices' progress lines (guest.HostSampler) -> compare.json's
`paired_cells`, `paired`, `aa` and `paired_cpu`.

Per slice, from two marks (the slice's end and the one before it):
    host_cpu_us_per_call = (vCPU threads' CPU time between the marks)
                           / (calls of the slice, its warm-up included)
    other_cpus           = (host busy time - QEMU's CPU time) / wall time
The calls of the warm-up are counted because the CPU time covers them
too.  The vCPUs run the load generator as well as the server: the cost
is the guest's per call, the same client in every slice, so that its
ratios between servers are the servers' differences.  A slice whose
other_cpus is above BUSY_CPUS (something outside the guest took a
quarter of a host CPU or more) is flagged `host_busy`; it still counts
(dropping it would unbalance its round), and the cell says how many.

Paired throughput (`paired`) is paired.analyse over the slices' ops/s;
paired host cost (`paired_cpu`) the same analysis over calls per host
CPU second (1 / host_cpu_us_per_call): its ratio a/b above 1 means a is
the cheaper per call.  Per-call counts come from each module's
statistics before and after the cell (its calls are all its own: every
server has its own port and module).
"""

import statistics

from . import paired
from .cells import (CALL_COUNTERS, OWNER_WAIT, counter_delta, log2_hist,
                    per_call, server_errors)
from .stats import rnd

BUSY_CPUS = 0.25
# time inside the build's enqueue: bucket K counts [2^K, 2^(K+1)) ns
ENQUEUE_TIME = "enqueue_ns_log2_%d"


def _marks_by_id(g):
    out = {}
    for m in g.get("slice_marks") or []:
        out.setdefault(m.get("id"), {})[m.get("i")] = m
    return out


def slice_costs(slices, marks):
    """Each slice's host CPU per call and the host's other load, where the
    marks of both its ends were taken (slices in the order they ran:
    slice k ends at mark k, starts at mark k - 1)."""
    for k, s in enumerate(slices, start=1):
        a, b = marks.get(k - 1), marks.get(k)
        if not a or not b or b["t"] <= a["t"]:
            continue
        calls = (s.get("calls") or 0) + (s.get("warmup_calls") or 0)
        wall = b["t"] - a["t"]
        vcpu = b["vcpu_ns"] - a["vcpu_ns"]
        other = (b["busy_ns"] - a["busy_ns"]) - (b["qemu_ns"] - a["qemu_ns"])
        s["host_wall_s"] = rnd(wall, 3)
        s["host_vcpu_s"] = rnd(vcpu / 1e9, 3)
        s["host_other_cpus"] = rnd(max(0.0, other / 1e9 / wall), 2)
        s["host_busy"] = other / 1e9 / wall > BUSY_CPUS
        if calls and vcpu > 0:
            s["host_cpu_us_per_call"] = rnd(vcpu / 1e3 / calls, 3)


def module_costs(before, after):
    """{per_call: {counter: per call}, calls, server_errors, owner_wait_ns,
    owner_wait_hist, enqueue_ns, enqueue_hist} of one module over the
    cell (cells.py's helpers, as an unpaired run's are counted)."""
    delta = counter_delta(before, after)
    calls = sum(delta.get(k, 0) for k in CALL_COUNTERS)
    out = {"calls": calls}
    if calls:
        out["per_call"] = per_call(delta, calls)
        if "wakeups_idle" in delta and delta.get("owner_waits"):
            # Brown 2023: the share of wakeups that found nothing to do.
            # wakeups_idle counts hand-overs (a thread given a socket,
            # woken or not) that found nothing to read or accept, so its
            # share is of the hand-overs: owner_waits, one per socket a
            # thread took (threads_woken counts only those it had to wake)
            out["wasted_wakeup_share"] = rnd(
                float(delta["wakeups_idle"]) / delta["owner_waits"], 3)
    b, ow = log2_hist(delta, OWNER_WAIT)
    if ow:
        out["owner_wait_hist"], out["owner_wait_ns"] = b, ow
    b, eq = log2_hist(delta, ENQUEUE_TIME)
    if eq:
        eq["mean"] = rnd(delta.get("enqueue_ns", 0) / eq["n"]) if eq["n"] else None
        out["enqueue_hist"], out["enqueue_ns"] = b, eq
    serr = server_errors(delta)
    if serr:
        out["server_errors"] = serr
    return out


def target_summary(slices, name):
    mine = [s for s in slices if s.get("target") == name]
    ops = [s["ops_per_s"] for s in mine if s.get("ops_per_s")]
    cpu = [s["host_cpu_us_per_call"] for s in mine if s.get("host_cpu_us_per_call")]
    p99 = [s["p99_us"] for s in mine if s.get("p99_us")]
    out = {"slices": len(mine),
           "calls": sum(s.get("calls") or 0 for s in mine),
           "errors": sum(s.get("errors") or 0 for s in mine)}
    for key, v in (("ops_per_s", ops), ("host_cpu_us_per_call", cpu),
                   ("p99_us", p99)):
        out[key] = ({"median": rnd(statistics.median(v)), "min": rnd(min(v)),
                     "max": rnd(max(v))} if v else None)
    return out


def cell_of(g, rec, marks):
    """One paired cell of compare.json's paired_cells."""
    doc = rec.get("out")
    servers = [x for x in (rec.get("servers") or "").split(",") if x]
    cell = {"smp": g.get("smp"), "workload": rec.get("wl"),
            "conns": rec.get("conns"), "servers": servers, "rc": rec.get("rc"),
            "errors": 0, "error_detail": []}
    if rec.get("mounts") is not None:
        # an NFS cell: each server's mount options as the kernel took them
        cell["mounts"] = rec["mounts"]
    if rec.get("skipped") or not isinstance(doc, dict):
        cell["errors"] = 1
        cell["status"] = "not-run"
        cell["error_detail"].append(rec.get("skipped") or
                                    "no document from the slices' driver (rc %s)" % rec.get("rc"))
        return cell, None
    slices = doc.get("slices") or []
    slice_costs(slices, marks)
    twin = next((x for x in servers if x.endswith("_aa")
                 and x[:-3] in servers), None)
    cell.update({
        "status": "ok", "rounds": (doc.get("design") or {}).get("rounds_done"),
        "params": doc.get("params"), "aa": [twin, twin[:-3]] if twin else None,
        "slices_host_busy": sum(1 for s in slices if s.get("host_busy")),
        "slices_with_host_cpu": sum(1 for s in slices
                                    if s.get("host_cpu_us_per_call")),
        "slices": slices,
        "targets": {n: target_summary(slices, n) for n in servers},
    })
    if doc.get("error"):
        cell["error_detail"].append(doc["error"])
    errs = sum(cell["targets"][n]["errors"] for n in servers)
    before, after = rec.get("svcsock_before") or {}, rec.get("svcsock_after") or {}
    for n in servers:
        if n in before and n in after:
            mc = module_costs(before[n], after[n])
            cell["targets"][n].update(mc)
            if mc.get("server_errors"):
                errs += sum(mc["server_errors"].values())
                cell["error_detail"].append("%s: server error counters: %s" % (
                    n, ", ".join("%s +%d" % kv for kv in sorted(mc["server_errors"].items()))))
    if rec.get("rc") not in (0, None) and not errs:
        errs = 1
        cell["error_detail"].append("%s exit status %s" % (
            (doc.get("tool") or "rpcload") + " slices", rec.get("rc")))
    cell["errors"] = errs
    acell = {"smp": cell["smp"], "workload": cell["workload"],
             "conns": cell["conns"], "targets": servers, "slices": slices}
    if twin:
        acell["aa"] = cell["aa"]
    return cell, acell


def cpu_cell(acell):
    """The same cell with calls per host CPU second in place of ops/s."""
    out = dict(acell)
    out["slices"] = [dict(s, ops_per_s=(1e6 / s["host_cpu_us_per_call"]
                                        if s.get("host_cpu_us_per_call") else None))
                     for s in acell["slices"]]
    return out


def build(guests):
    """{paired_cells, paired, aa, paired_cpu} over every guest's cells."""
    cells, acells = [], []
    for g in guests:
        marks = _marks_by_id(g)
        for rec in g.get("slices") or []:
            c, a = cell_of(g, rec, marks.get(rec.get("id"), {}))
            cells.append(c)
            if a:
                acells.append(a)
    thr = paired.analyse(acells)
    cpu = paired.analyse([cpu_cell(a) for a in acells])
    return {"paired_cells": cells, "paired": thr["paired"], "aa": thr["aa"],
            "paired_cpu": cpu["paired"], "aa_cpu": cpu["aa"]}


def missing(plan_cells, cells):
    """Planned paired cells that sent nothing back."""
    have = set((c["smp"], c["workload"], c["conns"]) for c in cells)
    return sorted(k for k in plan_cells if k not in have)
