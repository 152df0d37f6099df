# SPDX-License-Identifier: GPL-2.0
"""The plan: which cells run, for how long, in which order.

Run length is set by the statistics, never by the clock: every run lasts
at least `min_duration_s` and long enough to make `min_calls` calls at
the rate the workload is expected to reach (catalog.WORKLOADS'
expect_ops), rounded up to half a second; every server of a row runs
equally long.  When the whole plan would take longer than the budget,
the rows (a workload and connection count across all servers) are taken
in order of importance (catalog.PRIORITY), each kept if the plan still
fits, else dropped, and the plan says which.  Pipelined rows need `rpcload load --depth`; without it they are
dropped, saying so.
"""

import math

from . import catalog

# rough cost in seconds, beside the runs' durations and warm-ups, measured
# under TCG on the 2-core machine with a busy process beside it (2026-12-04,
# QUICK plan): QEMU start to the first run and power-off ~8 s; a run's
# start and end plus the gap to the next ~0.35 s; a server start + stop
# ~0.8 s (nfsd's ~2.5 s); a threads change adds ~2.5 s to its run.
EST_BOOT_S = 10.0
EST_RUN_OVERHEAD_S = 0.4
EST_SWITCH_S = 0.9
EST_SWITCH_NFSD_S = 2.5
EST_TCHANGE_S = 2.5
# a paired cell: each server's start and stop (~0.7 s a module, nfsd's
# ~2.5 s), rpcload slices' connecting and probing ~1 s
EST_PAIRED_FIXED_S = 2.0
# an NFS cell: each mount ~1 s; nfsd's copy of the tree (64 MiB written
# into a tmpfs by nfs-tree, once a guest) ~8 s
EST_NFS_MOUNT_S = 1.0
EST_NFS_TREE_S = 8.0


class Row:
    """A workload at a connection count in one guest, across its servers."""

    def __init__(self, smp, wl, conns, servers, rank):
        self.smp, self.wl, self.conns = smp, wl, conns
        self.servers = servers
        self.rank = rank        # lower is more important
        self.dur = None

    def key(self):
        return (self.smp, self.wl, self.conns)


class Plan:
    def __init__(self, settings, rows, dropped, guests):
        self.settings = settings
        self.rows = rows            # kept
        self.dropped = dropped      # [{smp, workload, conns, servers, reason}]
        self.guests = guests        # [(smp, [run dict])]

    def runs(self):
        return [r for _smp, runs in self.guests for r in runs]

    def estimate_s(self):
        return estimate_s(self.guests)

    def planned_cells(self):
        return set((r["smp"], r["wl"], r["conns"], r["server"])
                   for r in self.runs() if r["kind"] not in ("slices", "nfs"))

    def planned_paired(self):
        return set((r["smp"], r["wl"], r["conns"])
                   for r in self.runs() if r["kind"] in ("slices", "nfs"))


def run_length(wl, conns, min_duration, min_calls):
    """Seconds per run: the minimum duration, or the time the minimum
    number of calls takes at the expected rate, rounded up to 0.5 s."""
    d = catalog.WORKLOADS[wl]
    exp = d["expect_ops"].get(conns)
    need = min_duration
    if exp and min_calls:
        need = max(need, min_calls / float(exp))
    return math.ceil(need * 2 - 1e-9) / 2.0


def _rank(wl, conns, first):
    key = (wl, conns, "first" if first else "other")
    if key in catalog.PRIORITY:
        return catalog.PRIORITY.index(key)
    return len(catalog.PRIORITY) + catalog.WORKLOAD_ORDER.index(wl) * 10 + \
        (0 if first else 5)


def candidate_rows(s):
    """Every row the settings ask for, before the budget; and the rows
    dropped for want of rpcload --depth."""
    rows, dropped = [], []
    for si, smp in enumerate(s.smps):
        for wl in catalog.WORKLOAD_ORDER:
            if wl not in s.workloads:
                continue
            d = catalog.WORKLOADS[wl]
            if d["smp"] == "first" and si != 0:
                continue
            conns = d["conns"]
            servers = [x for x in catalog.workload_servers(wl, s.builds)
                       if x in s.servers]
            if s.quick:
                if wl not in catalog.QUICK_WORKLOADS:
                    continue
                conns = catalog.QUICK_WORKLOADS[wl]
                servers = [x for x in servers
                           if x in s.builds or x in catalog.QUICK_OTHERS]
            if not servers:
                continue
            paired = set(catalog.QUICK_PAIRED if s.quick else catalog.PAIRED) \
                if getattr(s, "paired", False) else set()
            for c in conns:
                row = Row(smp, wl, c, servers, _rank(wl, c, si == 0))
                if (wl, c) in paired:
                    # the paired cell measures it, every server at once
                    dropped.append(dropped_entry(
                        row, "measured by the paired cell instead"))
                    continue
                row.dur = run_length(wl, c, s.min_duration, s.min_calls)
                if catalog.pipelined(wl) and not s.depth_ok:
                    dropped.append(dropped_entry(
                        row, "rpcload load has no --depth (%s)" % s.depth_why))
                else:
                    rows.append(row)
    return rows, dropped


def dropped_entry(row, reason):
    return {"smp": row.smp, "workload": row.wl, "conns": row.conns,
            "servers": row.servers, "reason": reason}


def order_runs(rows, s):
    """One list of runs per guest: REPS rounds, each server once a round
    with all its cells, the server order rotated every round (A B C,
    B C A, C A B, ...) so that no server always runs first."""
    guests = []
    rid = 0
    order = catalog.server_order(s.builds)
    for smp in s.smps:
        mine = sorted([r for r in rows if r.smp == smp],
                      key=lambda r: (catalog.WORKLOAD_ORDER.index(r.wl), r.conns))
        if not mine:
            continue
        servers = [x for x in order if any(x in r.servers for r in mine)]
        runs = []
        for rep in range(1, s.reps + 1):
            k = (rep - 1) % len(servers)
            for srv in servers[k:] + servers[:k]:
                for row in mine:
                    if srv not in row.servers:
                        continue
                    d = catalog.WORKLOADS[row.wl]
                    rid += 1
                    runs.append(dict(
                        id=rid, rep=rep, server=srv, wl=row.wl,
                        kind=catalog.kind_of(srv, row.wl), proto=d["proto"],
                        proc=d["proc"], conns=row.conns, size=d["size"],
                        sleep_us=d["sleep_us"], depth=d["depth"],
                        dur=row.dur, warmup=s.warmup if srv != "iperf" else 0,
                        smp=smp))
        guests.append((smp, runs))
    return guests


def paired_estimate_s(r):
    """A paired cell's seconds: its slices, its servers' starts and stops
    (and for an NFS cell their mounts, and nfsd's tree)."""
    fixed = EST_PAIRED_FIXED_S
    for srv in r["servers"]:
        fixed += EST_SWITCH_NFSD_S if srv == "nfsd" else EST_SWITCH_S
        if r["kind"] == "nfs":
            fixed += EST_NFS_MOUNT_S + (EST_NFS_TREE_S if srv == "nfsd" else 0)
    return r["dur"] + fixed


def nfs_runs(s):
    """The paired NFS cells (catalog.NFS_WORKLOADS), in the first guest:
    every build and nfsd, s.nfs_rounds rounds (whole blocks) of
    s.nfs_slice_s slices.  None without PAIRED or NFS; QUICK leaves them
    out, saying so."""
    if not getattr(s, "paired", False) or not getattr(s, "nfs", False):
        return [], []
    servers = [b for b in s.builds if b in s.servers] + \
        [x for x in catalog.NFS_OTHERS if x in s.servers]
    if s.quick:
        return [], [{"smp": s.smps[0], "workload": wl, "conns":
                     catalog.NFS_WORKLOADS[wl]["nconnect"], "servers": servers,
                     "paired": True, "reason": "QUICK runs no NFS cell (NFS=1 "
                     "QUICK=0, or make compare)"} for wl in catalog.NFS_ORDER]
    n = len(servers)
    block = catalog.design_block(n)
    rounds = max(block, -(-s.nfs_rounds // block) * block)
    out = []
    for wl in catalog.NFS_ORDER:
        d = catalog.NFS_WORKLOADS[wl]
        out.append(dict(kind="nfs", smp=s.smps[0], wl=wl, conns=d["nconnect"],
                        servers=servers, workload=d["workload"], jobs=d["jobs"],
                        bs=d["bs"], nconnect=d["nconnect"], opts=d["opts"],
                        rounds=rounds, slice=s.nfs_slice_s,
                        warm=s.nfs_slice_warm_s,
                        dur=rounds * n * s.nfs_slice_s, warmup=0,
                        server="paired"))
    return out, []


def paired_runs(s, reserved=0.0):
    """The paired cells, in order of importance, with their lengths.

    Every cell first gets one whole block of rpcload slices' design, kept
    while it fits in s.paired_budget_s (the others dropped, saying so).
    With s.paired_rounds, every cell gets that many rounds (whole blocks).
    Otherwise what is left of the budget goes, a block at a time and in
    turn, to the first guest's cells, which the verdicts are judged by:
    an interval narrows as 1/sqrt(rounds), and one block (8 rounds of 8
    one-second slices) gave +-15-40% on the 2-core host, where the
    question is asked at +-10%.  reserved: seconds of the budget that
    other paired cells (the NFS cells) take first."""
    if not getattr(s, "paired", False):
        return [], []
    cells = catalog.QUICK_PAIRED if s.quick else catalog.PAIRED
    servers = list(s.builds)
    # the A/A arm: each twin Kbuild makes (svcsock-twins), right after
    # its original
    for twin in getattr(s, "twins", None) or [catalog.twin_of(catalog.AA_OF)]:
        orig = catalog.original_of(twin)
        if orig in servers:
            servers.insert(servers.index(orig) + 1, twin)
    if not s.quick:
        servers += [x for x in catalog.PAIRED_OTHERS if x in s.servers]
    n = len(servers)
    block = catalog.design_block(n)
    fixed = s.paired_rounds > 0
    rounds = max(block, -(-s.paired_rounds // block) * block) if fixed else block
    kept, dropped, total = [], [], float(reserved)
    order = [(smp, wl, c) for smp in s.smps for wl, c in cells]
    for smp, wl, c in order:
        d = catalog.WORKLOADS[wl]
        r = dict(kind="slices", smp=smp, wl=wl, conns=c, servers=servers,
                 proto=d["proto"], proc=d["proc"], size=d["size"],
                 sleep_us=d["sleep_us"], depth=d["depth"], rounds=rounds,
                 slice=s.slice_s, warm=s.slice_warm_s,
                 dur=rounds * n * s.slice_s, warmup=0, server="paired")
        est = paired_estimate_s(r)
        if s.paired_budget_s and kept and total + est > s.paired_budget_s:
            dropped.append({"smp": smp, "workload": wl, "conns": c,
                            "servers": servers, "paired": True,
                            "reason": "over the paired budget (%d s; "
                                      "PAIRED_BUDGET to change)" % s.paired_budget_s})
            continue
        kept.append(r)
        total += est
    if not fixed and s.paired_budget_s:
        judged = [r for r in kept if r["smp"] == s.smps[0]]
        more = block * n * s.slice_s
        while judged and total + more * len(judged) <= s.paired_budget_s:
            for r in judged:
                r["rounds"] += block
                r["dur"] += more
                total += more
    return kept, dropped


def estimate_s(guests):
    total = 0.0
    for _smp, runs in guests:
        total += EST_BOOT_S
        prev = None
        for r in runs:
            if r["kind"] in ("slices", "nfs"):
                total += paired_estimate_s(r)
                prev = None
                continue
            total += r["dur"] + r["warmup"] + EST_RUN_OVERHEAD_S
            if r["kind"] == "tchange":
                total += EST_TCHANGE_S
            if r["server"] != prev:
                total += EST_SWITCH_NFSD_S if r["server"] == "nfsd" else EST_SWITCH_S
                prev = r["server"]
    return total


def build(s):
    """The plan for settings s (see bench/compare's options)."""
    rows, dropped = candidate_rows(s)
    kept = []
    for row in sorted(rows, key=lambda r: r.rank):
        # the most important rows that fit; the first always runs
        if not s.budget_s or not kept or \
                estimate_s(order_runs(kept + [row], s)) <= s.budget_s:
            kept.append(row)
        else:
            dropped.append(dropped_entry(
                row, "over the time budget (%d s; BUDGET to change)" % s.budget_s))
    guests = order_runs(kept, s)
    # the NFS cells' time comes out of PAIRED_BUDGET first
    nruns, ndropped = nfs_runs(s)
    pruns, pdropped = paired_runs(s, sum(paired_estimate_s(r) for r in nruns))
    pruns += nruns
    dropped.extend(pdropped + ndropped)
    # the paired cells first in their guest: they are what the comparison
    # is judged by, and a guest that ends early should have run them
    rid = max([r["id"] for _smp, runs in guests for r in runs] or [0])
    out = []
    for smp in s.smps:
        mine = [r for r in pruns if r["smp"] == smp]
        for r in mine:
            rid += 1
            r["id"] = rid
        rest = next((runs for x, runs in guests if x == smp), [])
        if mine or rest:
            out.append((smp, mine + rest))
    return Plan(s, kept, dropped, out)


def plan_text(runs):
    """The runs as run-cells reads them, one line each."""
    lines = []
    for r in runs:
        if r["kind"] == "nfs":
            lines.append("nfs id=%d wl=%s workload=%s jobs=%d bs=%d "
                         "nconnect=%d opts=%s servers=%s slice=%s warm=%s "
                         "duration=%s" % (
                             r["id"], r["wl"], r["workload"], r["jobs"],
                             r["bs"], r["nconnect"], r["opts"],
                             ",".join(r["servers"]), fmt_num(r["slice"]),
                             fmt_num(r["warm"]), fmt_num(r["dur"] + 0.5)))
            continue
        if r["kind"] == "slices":
            lines.append("slices id=%d wl=%s proto=%s proc=%s conns=%d "
                         "size=%d sleep_us=%d depth=%d servers=%s slice=%s "
                         "warm=%s duration=%s" % (
                             r["id"], r["wl"], r["proto"], r["proc"],
                             r["conns"], r["size"], r["sleep_us"], r["depth"],
                             ",".join(r["servers"]), fmt_num(r["slice"]),
                             fmt_num(r["warm"]), fmt_num(r["dur"] + 0.5)))
            continue
        lines.append("run id=%d rep=%d server=%s wl=%s kind=%s proto=%s "
                     "proc=%s conns=%d size=%d sleep_us=%d depth=%d dur=%s "
                     "warmup=%s" % (
                         r["id"], r["rep"], r["server"], r["wl"], r["kind"],
                         r["proto"], r["proc"], r["conns"], r["size"],
                         r["sleep_us"], r["depth"], fmt_num(r["dur"]),
                         fmt_num(r["warmup"])))
    return "\n".join(lines) + "\n"


def fmt_num(x):
    return "%g" % x


def mmss(s):
    s = int(round(s))
    return "%d:%02d" % (s // 60, s % 60)
