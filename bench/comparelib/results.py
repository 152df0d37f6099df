# SPDX-License-Identifier: GPL-2.0
"""compare.json: the whole run as one document (docs/compare-schema.md),
which the tables and the plot are rendered from."""

import datetime
import json
import os
import statistics

from . import catalog, pairedcells
from .cells import aggregate, build_rows, cell_key, sort_key
from .guest import qemu_desc, qemu_summary
from .stats import rnd
from . import schema

SCHEMA = "svcsock-compare"
SCHEMA_VERSION = 3


def guest_entry(g, qemu_version, mem):
    info = (g.get("info") or [{}])[0]
    return {
        "smp": g.get("smp"), "nproc": info.get("nproc"),
        "mem_kb": info.get("mem_kb"), "kernel": info.get("kernel"),
        "cpu_model": info.get("cpu_model"),
        "modules": info.get("modules"), "rpcload_depth": info.get("rpcload_depth"),
        "vm_run_status": g.get("status"), "vm_run_argv": g.get("argv"),
        "timeout_s": g.get("timeout_s"), "wall_s": g.get("wall_s"),
        "loadavg_start": g.get("loadavg_start"),
        "loadavg_end": g.get("loadavg_end"),
        "other_qemu_start": g.get("other_qemu_start"),
        "other_qemu_end": g.get("other_qemu_end"),
        "qemu": qemu_desc(qemu_version, g, mem),
        "qemu_cmdline": g.get("qemu_cmdline"),
        "log": g.get("log"), "runs_done": len(g.get("json", [])),
        "done": g.get("done"), "bad_lines": g.get("bad_lines", []),
        "server_events": g.get("server") or [],
    }


def document(guests, s, plan, host, source, wall_s, script_sha):
    """The compare.json document.  s: the settings; plan: the Plan that
    ran (None for --from-logs)."""
    cells = aggregate(guests, s.threads, s.builds, s.min_calls)
    rows = build_rows(cells, s.builds, s.threads)
    gdocs = [guest_entry(g, host.get("qemu_version"), s.mem) for g in guests]
    for gd in gdocs:
        acc = qemu_summary(gd.get("qemu_cmdline")).get("accel")
        if acc:
            host["accel"] = acc.split(",")[0]
            break
    missing = []
    if plan is not None:
        have = set(cell_key(c) for c in cells)
        missing = sorted(plan.planned_cells() - have,
                         key=lambda k: sort_key(k, s.builds))
    pc = pairedcells.build(guests)
    pmissing = []
    if plan is not None:
        pmissing = pairedcells.missing(plan.planned_paired(), pc["paired_cells"])
    n_err = sum(1 for c in cells if c["errors"] and c["status"] != "not-run")
    n_not_run = sum(1 for c in cells if c["status"] == "not-run")
    n_err += sum(1 for c in pc["paired_cells"]
                 if c["errors"] and c["status"] != "not-run")
    n_not_run += sum(1 for c in pc["paired_cells"] if c["status"] == "not-run")
    doc = {
        "schema": SCHEMA, "schema_version": SCHEMA_VERSION,
        "created": datetime.datetime.now(datetime.timezone.utc).strftime(
            "%Y-%m-%dT%H:%M:%SZ"),
        "source": source,
        "synthetic": any(bool(g.get("synthetic")) for g in guests),
        "builds": list(s.builds),
        "baseline": catalog.baseline(s.builds),
        "settings": {
            "reps": s.reps, "min_duration_s": s.min_duration,
            "min_calls": s.min_calls, "warmup_s": s.warmup,
            "budget_s": s.budget_s, "threads": s.threads, "smp": s.smps,
            "mem_mib": s.mem, "quick": s.quick, "servers": s.servers,
            "workloads": s.workloads, "rpcload_depth": s.depth_ok,
            "pin_vcpus": bool(getattr(s, "pin", False)),
            "client_cpu": getattr(s, "client_cpu", "") or "",
            "run_cells_sha256": script_sha,
            "paired": bool(getattr(s, "paired", False)),
            "paired_budget_s": getattr(s, "paired_budget_s", None),
            "slice_s": getattr(s, "slice_s", None),
            "slice_warm_s": getattr(s, "slice_warm_s", None),
            "nfs": bool(getattr(s, "nfs", False)),
            "nfs_rounds": getattr(s, "nfs_rounds", None),
            "nfs_slice_s": getattr(s, "nfs_slice_s", None),
            "nfs_slice_warm_s": getattr(s, "nfs_slice_warm_s", None),
            "busy_cpus": pairedcells.BUSY_CPUS},
        "host": host,
        "servers": {k: v.replace("THREADS", str(s.threads))
                    for k, v in catalog.servers(s.builds, s.strategies).items()
                    if k in s.servers},
        "workloads": dict({w: catalog.describe(w) for w in s.workloads},
                          **{w: catalog.describe(w) for w in catalog.NFS_ORDER
                             if any(c.get("workload") == w
                                    for c in pc["paired_cells"])}),
        "guests": gdocs,
        "cells": cells,
        "rows": rows,
        "dropped_cells": plan.dropped if plan is not None else s.dropped,
        "missing_cells": [dict(zip(("smp", "workload", "conns", "server"), m))
                          for m in missing],
        "paired_cells": pc["paired_cells"],
        "paired": pc["paired"],
        "aa": pc["aa"],
        "paired_cpu": pc["paired_cpu"],
        "aa_cpu": pc["aa_cpu"],
        "missing_paired": [dict(zip(("smp", "workload", "conns"), m))
                           for m in pmissing],
        "errors_total": sum(c["errors"] for c in cells) +
        sum(c["errors"] for c in pc["paired_cells"]),
        "cells_with_errors": n_err,
        "cells_not_run": n_not_run + len(missing) + len(pmissing),
        "wall_s": wall_s,
    }
    spreads = [c["ops_per_s"]["spread_pct"] for c in cells
               if c.get("ops_per_s") and len(c["ops_per_s"]["values"]) > 1
               and c["ops_per_s"]["spread_pct"] is not None]
    doc["throughput_spread_pct"] = {
        "median": rnd(statistics.median(spreads)) if spreads else None,
        "cells": len(spreads)}
    bad_guests = [g for g in gdocs if g["vm_run_status"] not in (0, 1, None)]
    doc["ok"] = (doc["errors_total"] == 0 and doc["cells_not_run"] == 0
                 and not bad_guests and bool(cells))
    return doc


def write(doc, results):
    with open(os.path.join(results, "compare.json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


def load(path):
    return schema.load(path, SCHEMA, SCHEMA_VERSION, "compare")


def bad_guests(doc):
    return [g for g in doc["guests"] if g["vm_run_status"] not in (0, 1, None)]
