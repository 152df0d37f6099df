# SPDX-License-Identifier: GPL-2.0
"""Aggregation: each run's BENCH-JSON -> a run record; the runs of a cell
-> its medians and spreads; the cells of a row -> ratios with their
intervals."""

from . import builds as buildsmod
from . import catalog
from .stats import rnd, summary, ratio, log2_percentile

# /proc/net/svcsock_BUILD counters that, when they rise, mean a failed call
SERVER_ERROR_COUNTERS = [
    "reply_prog_unavail", "reply_prog_mismatch", "reply_proc_unavail",
    "reply_garbage_args", "reply_system_err", "reply_rpc_mismatch",
    "reply_auth_error", "records_too_large", "garbage", "replies_dropped",
    "tcp_refused", "send_errors",
]
# the cost of a call: /proc/net/svcsock_BUILD counters' increase per call served
# (a counter the module does not have is None, shown "-")
COST_COUNTERS = [
    "sv_lock_acquired", "sk_lock_acquired", "lwq_lock_acquired",
    "flag_rmw", "threads_woken", "wakeups_idle", "enqueue_calls",
    "sv_lock_contended", "sk_lock_contended", "lwq_lock_contended",
    "enqueue_busy",
]
# enqueue-to-owner wait: bucket K counts waits of [2^K, 2^(K+1)) ns
OWNER_WAIT = "owner_wait_log2_%d"
OWNER_WAIT_BUCKETS = 40
# the calls a module served, of every program (the NFS cells' are NFS and
# MOUNT calls)
CALL_COUNTERS = ("calls_null", "calls_echo", "calls_sleep", "calls_nfs3",
                 "calls_mount3")
GAUGES = ("threads", "sockets")


def tool_result(rec, j, res):
    """The load tool's figures, and how many calls failed."""
    lat = res.get("latency_us") or {}
    rec.update({
        "calls": res.get("calls"), "ok": res.get("ok"),
        "failures": res.get("failures", 0), "timeouts": res.get("timeouts", 0),
        "mismatches": res.get("mismatches", 0),
        "elapsed_s": res.get("elapsed_s"), "ops_per_s": res.get("ops_per_s"),
        "mb_per_s": res.get("mb_per_s"),
        "latency_us": {k: lat.get(k) for k in
                       ("p50", "p90", "p99", "p999", "max", "mean")},
    })
    bad = (rec["failures"] or 0) + (rec["timeouts"] or 0) + (rec["mismatches"] or 0)
    if res.get("calls") != res.get("ok"):
        bad = max(bad, (res.get("calls") or 0) - (res.get("ok") or 0))
    if bad:
        rec["error_detail"].append(
            "%d of %s calls failed (failures %s, timeouts %s, mismatches %s)%s" % (
                bad, res.get("calls"), rec["failures"], rec["timeouts"],
                rec["mismatches"],
                (": " + res["first_error"]) if res.get("first_error") else ""))
    if j.get("rc") not in (0, None):
        bad = max(bad, 1)
        if not rec["error_detail"]:
            rec["error_detail"].append("exit status %s: %s" % (
                j.get("rc"), j.get("stderr", "")))
    if not res.get("ok"):
        bad = max(bad, 1)
        rec["error_detail"].append("no call answered")
    return bad


def counter_delta(before, after):
    """/proc/net/svcsock_BUILD after minus before, gauges left out."""
    return {k: after[k] - before.get(k, 0) for k in after if k not in GAUGES}


def per_call(delta, denom):
    """Each COST_COUNTERS counter over denom calls (None: the module
    has no such counter)."""
    return {k: (rnd(float(delta[k]) / denom) if k in delta else None)
            for k in COST_COUNTERS}


def log2_hist(delta, name):
    """(buckets, {p50, p99, n}) of the log2 histogram whose bucket K is
    the counter name % K, or (None, None) when the module has none."""
    if name % 0 not in delta:
        return None, None
    b = [max(0, delta.get(name % k, 0)) for k in range(OWNER_WAIT_BUCKETS)]
    return b, {"p50": rnd(log2_percentile(b, 0.50)),
               "p99": rnd(log2_percentile(b, 0.99)), "n": sum(b)}


def server_errors(delta):
    """{counter: rise} of the counters that mean a failed call."""
    return {k: delta.get(k, 0) for k in SERVER_ERROR_COUNTERS if delta.get(k, 0)}


def module_stats(rec, before, after, tool_ok):
    """/proc/net/svcsock_BUILD after minus before: the delta, the cost per call,
    the owner-wait percentiles; returns the server error count."""
    delta = counter_delta(before, after)
    for g in GAUGES:
        delta[g] = after.get(g)
    rec["svcsock_delta"] = delta
    calls = sum(delta.get(k, 0) for k in CALL_COUNTERS)
    rec["server_calls"] = calls
    denom = calls or tool_ok or 0
    if denom:
        rec["per_call"] = per_call(delta, denom)
    _, ow = log2_hist(delta, OWNER_WAIT)
    if ow:
        rec["owner_wait_ns"] = ow
    serr = server_errors(delta)
    if not serr:
        return 0
    rec["server_errors"] = serr
    rec["error_detail"].append("server error counters: %s" % ", ".join(
        "%s +%d" % kv for kv in sorted(serr.items())))
    return sum(serr.values())


def iperf_result(rec, j, out):
    end = out.get("end") or {}
    if out.get("error") or not end:
        rec["error_detail"].append("iperf3: %s" % out.get("error", "no end"))
        return 1
    tot_bytes, secs = 0, 0.0
    for k in ("sum_received", "sum_received_bidir_reverse"):
        s = end.get(k) or {}
        tot_bytes += s.get("bytes", 0)
        secs = max(secs, s.get("seconds", 0) or 0)
    rec["mb_per_s"] = rnd(tot_bytes / secs / 1e6) if secs else None
    rec["ops_per_s"] = None
    rec["bits_per_second"] = {
        k: rnd((end.get(k) or {}).get("bits_per_second"))
        for k in ("sum_received", "sum_received_bidir_reverse")}
    rec["retransmits"] = sum((end.get(k) or {}).get("retransmits", 0)
                             for k in ("sum_sent", "sum_sent_bidir_reverse"))
    if j.get("rc") != 0:
        rec["error_detail"].append("iperf3 exit status %s" % j.get("rc"))
        return 1
    return 0


def run_record(j, threads):
    """One run's BENCH-JSON -> the record kept in compare.json."""
    rec = {"id": j.get("id"), "rep": j.get("rep"), "rc": j.get("rc"),
           "errors": 0, "error_detail": []}
    out = j.get("out")
    if j.get("skipped"):
        rec["skipped"] = j["skipped"]
        rec["errors"] = 1
        rec["error_detail"].append("not run: " + j["skipped"])
        return rec
    if j.get("t0") is not None and j.get("t1") is not None:
        rec["wall_s"] = rnd(j["t1"] - j["t0"])
    if not isinstance(out, dict):
        rec["errors"] = 1
        rec["error_detail"].append("no JSON from the tool (rc %s): %s" % (
            j.get("rc"), j.get("stderr", "")))
        return rec
    if j.get("kind") == "iperf":
        rec["errors"] = iperf_result(rec, j, out)
        return rec
    res = out.get("result") or {}
    params = out.get("params") or {}
    rec["duration_s"] = params.get("duration_s")
    if params.get("depth"):
        rec["depth"] = params["depth"]
    bad = tool_result(rec, j, res)
    b, a = j.get("svcsock_before"), j.get("svcsock_after")
    if isinstance(b, dict) and isinstance(a, dict):
        bad = max(bad, module_stats(rec, b, a, res.get("ok")))
    if j.get("kind") == "tchange":
        seen = j.get("threads_seen") or []
        rec["threads_seen"] = seen
        rec["threads_change_seen"] = (len(seen) >= 3 and seen[1] == 16
                                      and seen[2] == threads)
    rec["errors"] = bad
    return rec


def cell_key(c):
    return (c["smp"], c["workload"], c["conns"], c["server"])


def sort_key(key, builds):
    smp, wl, conns, server = key
    order = catalog.server_order(builds)
    wls = catalog.WORKLOAD_ORDER
    return (smp or 0, wls.index(wl) if wl in wls else 99, conns or 0,
            order.index(server) if server in order else 99)


def aggregate(guests, threads, builds, min_calls=0):
    """The cells of compare.json, from the guests' BENCH-JSON lines."""
    cells = {}
    for g in guests:
        info = (g.get("info") or [{}])[0]
        smp = g.get("smp") or info.get("nproc")
        for j in g.get("json", []):
            key = (smp, j.get("wl"), j.get("conns"), j.get("server"))
            c = cells.setdefault(key, {
                "smp": smp, "workload": j.get("wl"), "conns": j.get("conns"),
                "server": j.get("server"), "kind": j.get("kind"), "runs": []})
            c["runs"].append(run_record(j, threads))
    out = []
    for key in sorted(cells, key=lambda k: sort_key(k, builds)):
        c = cells[key]
        runs = [r for r in c["runs"] if not r.get("skipped")]
        c["n"] = len(runs)
        c["ops_per_s"] = summary([r.get("ops_per_s") for r in runs])
        c["mb_per_s"] = summary([r.get("mb_per_s") for r in runs])
        c["p50_us"] = summary([(r.get("latency_us") or {}).get("p50") for r in runs])
        c["p99_us"] = summary([(r.get("latency_us") or {}).get("p99") for r in runs])
        c["errors"] = sum(r["errors"] for r in c["runs"])
        c["error_detail"] = [d for r in c["runs"] for d in r["error_detail"]]
        if min_calls and c["kind"] != "iperf":
            c["short_runs"] = sum(1 for r in runs
                                  if (r.get("calls") or 0) < min_calls)
        pc = [r["per_call"] for r in runs if r.get("per_call")]
        if pc:
            c["per_call"] = {k: summary([p.get(k) for p in pc]) for k in COST_COUNTERS}
        ow = [r["owner_wait_ns"] for r in runs if r.get("owner_wait_ns")]
        if ow:
            c["owner_wait_ns"] = {q: summary([w.get(q) for w in ow])
                                  for q in ("p50", "p99")}
        if c["kind"] == "tchange":
            c["threads_seen"] = [r.get("threads_seen") for r in runs]
            c["threads_change_seen"] = all(r.get("threads_change_seen")
                                           for r in runs) if runs else False
        if not runs:
            c["status"] = "not-run"
        elif c["errors"]:
            c["status"] = "errors"
        else:
            c["status"] = "ok"
        out.append(c)
    return out


def find(cells, smp, wl, conns, server):
    for c in cells:
        if cell_key(c) == (smp, wl, conns, server):
            return c
    return None


def values(c, what="ops_per_s"):
    """The runs' figures of a cell that ran, else []."""
    if not c or c.get("status") == "not-run" or not c.get(what):
        return []
    return c[what]["values"]


def median_of(c, what="ops_per_s"):
    if not c or c.get("status") == "not-run" or not c.get(what):
        return None
    return c[what]["median"]


def reference_of(cells, smp, wl, conns, threads):
    """What the builds of a row are measured against besides each other:
    ({kind, of, ops_per_s}, its runs' values, exact?) or (None, [], False)."""
    ref = catalog.WORKLOADS.get(wl, {}).get("reference")
    if ref == "ideal":
        sleep_us = catalog.WORKLOADS[wl]["sleep_us"] or 1
        v = threads * 1e6 / sleep_us
        return ({"kind": "ideal", "of": "THREADS x 10^6 / sleep_us",
                 "ops_per_s": rnd(v)}, [v], True)
    if ref:
        src = ref[1] if isinstance(ref, tuple) else wl
        c = find(cells, smp, src, conns, "rr")
        if c and values(c):
            return ({"kind": "rr", "of": "rr %s c%d" % (src, conns),
                     "ops_per_s": median_of(c)}, values(c), False)
    return None, [], False


def row_ratios(cells, smp, wl, conns, builds, threads):
    """The ratios of a row: each build over the baseline and over its
    predecessor (builds.lineage_pairs), then each build over nfsd and over
    the reference; for ECHO each build's MB/s over iperf3's."""
    def cell(s):
        return find(cells, smp, wl, conns, s)

    def add(out, num, den, nv, dv, measure, exact=False):
        r = ratio(num, den, nv, dv, "%s/%s %s %s c%s %s" % (
            num, den, smp, wl, conns, measure), den_exact=exact)
        if r:
            r["measure"] = measure
            out.append(r)

    out = []
    for num, den in buildsmod.lineage_pairs(builds):
        add(out, num, den, values(cell(num)), values(cell(den)), "ops_per_s")
    ref, ref_vals, exact = reference_of(cells, smp, wl, conns, threads)
    for b in builds:
        bv = values(cell(b))
        add(out, b, "nfsd", bv, values(cell("nfsd")), "ops_per_s")
        if ref:
            add(out, b, "reference", bv, ref_vals, "ops_per_s", exact)
    if catalog.WORKLOADS.get(wl, {}).get("proc") == "echo":
        ip = find(cells, smp, "tcp-bw", 1, "iperf")
        for b in builds:
            add(out, b, "iperf", values(cell(b), "mb_per_s"),
                values(ip, "mb_per_s"), "mb_per_s")
    return ref, out


def build_rows(cells, builds, threads):
    """One row per (smp, workload, conns) but iperf's: medians per server,
    the reference, the ratios."""
    rows, seen = [], []
    for c in cells:
        k = (c["smp"], c["workload"], c["conns"])
        if k not in seen and c["workload"] != "tcp-bw":
            seen.append(k)
    for (smp, wl, conns) in seen:
        mine = [c for c in cells if (c["smp"], c["workload"], c["conns"]) == (smp, wl, conns)]
        ref, ratios = row_ratios(cells, smp, wl, conns, builds, threads)
        row = {"smp": smp, "workload": wl, "conns": conns,
               "ops_per_s": {c["server"]: median_of(c) for c in mine},
               "p99_us": {c["server"]: median_of(c, "p99_us") for c in mine},
               "reference": ref, "ratios": ratios,
               "errors": sum(c["errors"] for c in mine),
               "not_run": [c["server"] for c in mine if c["status"] == "not-run"]}
        if catalog.WORKLOADS.get(wl, {}).get("proc") == "echo":
            row["iperf_mb_per_s"] = median_of(find(cells, smp, "tcp-bw", 1, "iperf"),
                                              "mb_per_s")
        rows.append(row)
    return rows


def find_ratio(row, num, den, measure="ops_per_s"):
    for r in row.get("ratios", []):
        if r["num"] == num and r["den"] == den and r.get("measure", "ops_per_s") == measure:
            return r
    return None
