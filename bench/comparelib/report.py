# SPDX-License-Identifier: GPL-2.0
"""The tables of compare.md and of the terminal, built from compare.json
alone (so --from-json renders exactly what a run rendered).

First what repeats: the cost of a call in each build, counted by the
module (/proc/net/svcsock_BUILD).  Then throughput, with how sure each figure
is: the spread of the runs and, for every ratio, its 95% interval, a
ratio whose interval holds 1.0 being printed "tie"."""

import json

from . import catalog
from .cells import find, find_ratio, median_of
from .table import Table, Strong, text, markdown

# cost table columns: (title, counters summed); None: the module lacks all
COST_COLUMNS = [
    ("sv_lock", ["sv_lock_acquired"]),
    ("sk_lock", ["sk_lock_acquired"]),
    ("lwq_lock", ["lwq_lock_acquired"]),
    ("flag RMW", ["flag_rmw"]),
    ("woken", ["threads_woken"]),
    ("idle wakeups", ["wakeups_idle"]),
    ("enqueues", ["enqueue_calls"]),
    ("contended", ["sv_lock_contended", "sk_lock_contended", "lwq_lock_contended"]),
]
# a counter's spread counts in "max spread" only above this per call
SPREAD_FLOOR = 0.1


def human(v):
    if v is None:
        return "-"
    if abs(v) >= 1e6:
        return "%.2fM" % (v / 1e6)
    if abs(v) >= 1e4:
        return "%.1fk" % (v / 1e3)
    if abs(v) >= 100:
        return "%.0f" % v
    return "%.3g" % v


def per_call(v):
    if v is None:
        return "-"
    if v == 0:
        return "0"
    if abs(v) < 0.01:
        return "<0.01"
    if abs(v) >= 100:
        return "%.0f" % v
    if abs(v) >= 10:
        return "%.1f" % v
    return "%.2f" % v


def pct(v):
    return "-" if v is None else "%d%%" % round(v)


def fmt_ratio(r):
    """tie (lo-hi) | value (lo-hi), bold | value (no interval)."""
    if r is None:
        return ""
    if r.get("verdict") is None:
        return "%s (n<2)" % num2(r["value"])
    iv = "(%s-%s)" % (num2(r["lo"]), num2(r["hi"]))
    if r["verdict"] == "tie":
        return "tie " + iv
    return Strong("%s %s" % (num2(r["value"]), iv))


def num2(v):
    """A ratio: 2 decimals below 10, fewer above (the noise shows anyway)."""
    if abs(v) >= 100:
        return "%.0f" % v
    if abs(v) >= 10:
        return "%.1f" % v
    return "%.2f" % v


def fmt_rate(c, what="ops_per_s"):
    if c is None:
        return "-"
    if c["status"] == "not-run":
        return "NOT RUN"
    m = c.get(what)
    if not m:
        return "ERR" if c["errors"] else "-"
    return human(m["median"]) + (" ERR" if c["errors"] else "")


def fmt_spread(c, what="ops_per_s"):
    m = c.get(what) if c else None
    if not m or len(m.get("values", [])) < 2:
        return ""
    return pct(m.get("spread_pct"))


def row_cells(doc, row, servers):
    out = []
    for s in servers:
        c = find(doc["cells"], row["smp"], row["workload"], row["conns"], s)
        if c:
            out.append(c)
    return out


def cost_value(c, counters):
    pc = c.get("per_call") or {}
    vals = [pc[k]["median"] for k in counters if pc.get(k)]
    return sum(vals) if vals else None


def max_spread(c):
    pc = c.get("per_call") or {}
    sp = [s["spread_pct"] for _, ks in COST_COLUMNS[:-1] for k in ks
          for s in [pc.get(k)] if s and s.get("spread_pct") is not None
          and len(s.get("values", [])) > 1 and (s.get("median") or 0) >= SPREAD_FLOOR]
    return max(sp) if sp else None


def owner_wait(c, q):
    w = (c.get("owner_wait_ns") or {}).get(q)
    return "-" if not w else human(w["median"] / 1000.0)


def cost_table(doc):
    builds = doc["builds"]
    st = doc["settings"]
    t = Table(
        "Cost per call: what repeats",
        [("CPUs", "r"), ("workload", "l"), ("conns", "r"), ("build", "l")] +
        [(name, "r") for name, _ in COST_COLUMNS] +
        [("owner p50 us", "r"), ("owner p99 us", "r"), ("max spread", "r")],
        notes=[
            "Counted by the module (/proc/net/svcsock_BUILD after minus before "
            "each run), per call it served; median of %d runs. sv_lock, "
            "sk_lock, lwq_lock: lock acquisitions; flag RMW: atomic "
            "read-modify-writes of socket and service state; woken: "
            "threads woken; idle wakeups: wakeups that found nothing to do; "
            "enqueues: enqueue calls; contended: acquisitions of any "
            "of the three locks that had to wait. owner p50/p99: enqueue-to-owner "
            "wait in microseconds, from the owner_wait_log2_K histogram "
            "(bucket K: [2^K, 2^(K+1)) ns), interpolated linearly inside "
            "the bucket. max spread: the largest (max - min) / median of "
            "this row's counters (those at %.1f per call or more). "
            "\"-\": the module has no such counter." % (st["reps"], SPREAD_FLOOR)],
        repeat=3)
    for row in doc["rows"]:
        for c in row_cells(doc, row, builds):
            if not c.get("per_call") and c["status"] != "not-run":
                continue
            cells = [str(row["smp"]), row["workload"], str(row["conns"]), c["server"]]
            if c["status"] == "not-run":
                cells += ["NOT RUN"] + [""] * (len(COST_COLUMNS) + 2)
            else:
                cells += [per_call(cost_value(c, ks)) for _, ks in COST_COLUMNS]
                cells += [owner_wait(c, "p50"), owner_wait(c, "p99"),
                          pct(max_spread(c))]
            t.add(cells)
    return t


def throughput_table(doc):
    builds = doc["builds"]
    st = doc["settings"]
    servers = builds + [s for s in catalog.OTHER_ORDER if s != "iperf"]
    base = doc.get("baseline") or builds[0]
    lineage = " -> ".join(builds)
    t = Table(
        "Throughput, and how sure it is",
        [("CPUs", "r"), ("workload", "l"), ("conns", "r"), ("server", "l"),
         ("ops/s", "r"), ("spread", "r"), ("p99 us", "r"),
         ("over %s" % base, "l"), ("over previous", "l"), ("over nfsd", "l"),
         ("over reference", "l")],
        notes=[
            "ops/s: median of %d runs of each cell (lengths in compare.json, "
            "at least %s s and %d calls planned); spread: (max - min) / median "
            "of the runs. Ratios are of medians, with a 95%% bootstrap "
            "interval over the runs (with 3 runs: from the worst run "
            "against the best to the best against the worst); \"tie\" when "
            "the interval holds 1.0. over previous: over the build before "
            "it in the lineage %s. reference: rr-server (bench/rr-server, "
            "the same connections and sizes, no RPC; threads-4-16-4 uses "
            "NULL's at the same connections), or for SLEEP the ideal "
            "THREADS x 10^6 / sleep_us (the ratio is the fraction of "
            "ideal). ref is rpcsvc-ref, single-threaded." % (
                st["reps"], fmt_num(st["min_duration_s"]), st["min_calls"],
                lineage)],
        repeat=3)
    sp = doc.get("throughput_spread_pct") or {}
    if sp.get("median") is not None:
        t.notes.append("Median spread over the %d cells: %d%%." % (
            sp["cells"], round(sp["median"])))
    for row in doc["rows"]:
        for c in row_cells(doc, row, servers):
            s = c["server"]
            cells = [str(row["smp"]), row["workload"], str(row["conns"]), s,
                     fmt_rate(c), fmt_spread(c), human(median_of(c, "p99_us"))]
            if s in builds:
                prev = builds[builds.index(s) - 1] if builds.index(s) > 0 else None
                cells += [fmt_ratio(find_ratio(row, s, base)),
                          fmt_ratio(find_ratio(row, s, prev)) if prev != base else "",
                          fmt_ratio(find_ratio(row, s, "nfsd")),
                          fmt_ratio(find_ratio(row, s, "reference"))]
            else:
                cells += [""] * 4
            t.add(cells)
        ref = row.get("reference")
        if ref and ref["kind"] == "ideal":
            t.add([str(row["smp"]), row["workload"], str(row["conns"]), "ideal",
                   human(ref["ops_per_s"]), "", "", "", "", "", ""])
    return t


def bandwidth_table(doc):
    rows = [r for r in doc["rows"]
            if catalog.WORKLOADS.get(r["workload"], {}).get("proc") == "echo"]
    ip = [c for c in doc["cells"] if c["workload"] == "tcp-bw"]
    if not rows and not ip:
        return None
    t = Table("Bandwidth (MB/s, payload both ways)",
              [("CPUs", "r"), ("workload", "l"), ("conns", "r"), ("server", "l"),
               ("MB/s", "r"), ("spread", "r"), ("over iperf3", "l")],
              notes=["iperf3 --bidir over loopback is the bound; ECHO counts "
                     "its payload both ways, as rpcload does."], repeat=3)
    servers = doc["builds"] + ["ref", "rr"]
    for row in rows:
        for c in row_cells(doc, row, servers):
            t.add([str(row["smp"]), row["workload"], str(row["conns"]), c["server"],
                   fmt_rate(c, "mb_per_s"), fmt_spread(c, "mb_per_s"),
                   fmt_ratio(find_ratio(row, c["server"], "iperf", "mb_per_s"))])
    for c in ip:
        t.add([str(c["smp"]), "tcp-bw", "1", "iperf", fmt_rate(c, "mb_per_s"),
               fmt_spread(c, "mb_per_s"), ""])
    return t


def fmt_num(x):
    return "%g" % x


def dropped_lines(doc):
    return ["%s CPUs %s c%s (%s): %s" % (d["smp"], d["workload"], d["conns"],
                                         " ".join(d.get("servers") or []),
                                         d["reason"])
            for d in doc.get("dropped_cells", [])]


def short_lines(doc):
    return ["%s CPUs %s c%s %s: %d of %d runs made fewer than %d calls" % (
        c["smp"], c["workload"], c["conns"], c["server"], c["short_runs"],
        c["n"], doc["settings"]["min_calls"])
        for c in doc["cells"] if c.get("short_runs")]


def terminal(doc):
    """What compare prints: the paired cells' counts and verdicts first,
    then the unpaired cells' cost and throughput."""
    out = []
    if doc.get("paired_cells"):
        out += [text(paired_cost_table(doc)), "", text(paired_table(doc))]
        out += aa_lines(doc) + [""]
    out += [text(cost_table(doc)), "", text(throughput_table(doc))]
    bw = bandwidth_table(doc)
    if bw:
        out += ["", text(bw)]
    for title, lines in (("dropped from the plan", dropped_lines(doc)),
                         ("short runs", short_lines(doc))):
        if lines:
            out += ["", title + ":"] + ["  " + x for x in lines]
    return "\n".join(out)


def compare_md(doc):
    st = doc["settings"]
    host = doc["host"]
    L = ["# svcsock compare: %s, nfsd, libtirpc and the reference" %
         ", ".join(doc["builds"]), "",
         "Generated by `bench/compare` on %s. Schema of compare.json: "
         "docs/compare-schema.md." % doc["created"], ""]
    if doc.get("synthetic"):
        L += ["**SYNTHETIC TEST DATA (made up by bench/tests, not measured): "
              "these figures mean nothing.**", ""]
    la = host.get("loadavg_start")
    if la and la[0] > (host.get("nproc") or 1):
        L += ["**Warning: the host's load average was up to %.1f on %s CPUs "
              "when the guests started: their vCPUs competed with other "
              "work, the figures are noisy.**" % (la[0], host.get("nproc")), ""]
    L.append("- Builds, from svcsock-mod/Kbuild, in their lineage: %s." %
             " -> ".join(doc["builds"]))
    L.append("- Each cell ran %d times, the servers interleaved (every server "
             "once per round, rotated each round); each run at least %s s "
             "and long enough for %d calls at the rate expected%s." % (
                 st["reps"], fmt_num(st["min_duration_s"]), st["min_calls"],
                 ", after %s s of warm-up calls" % fmt_num(st["warmup_s"])
                 if st.get("warmup_s") else ""))
    L.append("- Server threads: %d (svcsock modules and nfsd). **rpcsvc-ref "
             "is single-threaded (libtirpc svc_run)**; rr-server runs one "
             "thread per connection." % st["threads"])
    if st.get("client_cpu", "") != "" or st.get("pin_vcpus"):
        L.append("- Pinned:%s%s." % (
            " the load tools to guest CPU %s (CLIENT_CPU)" % st["client_cpu"]
            if st.get("client_cpu", "") != "" else "",
            "%s each vCPU thread to a host CPU (PIN=1)" % (
                ";" if st.get("client_cpu", "") != "" else "")
            if st.get("pin_vcpus") else ""))
    L.append("- Everything (servers and load) runs inside the same QEMU guest; "
             "accel %s (no KVM): absolute figures are emulation figures, "
             "only the comparisons within a guest mean anything." %
             host.get("accel", "?"))
    for g in doc["guests"]:
        L.append("- Guest with %s CPU(s): kernel %s, %s MiB, vm-run status %s, "
                 "%s s wall, host load average %s at its start, other QEMU "
                 "processes at its start/end: %s / %s. QEMU: %s." % (
                     g.get("nproc"), g.get("kernel"),
                     (g.get("mem_kb") or 0) // 1024, g.get("vm_run_status"),
                     g.get("wall_s"),
                     "%.1f" % g["loadavg_start"][0] if g.get("loadavg_start") else "?",
                     others(g.get("other_qemu_start")), others(g.get("other_qemu_end")),
                     g.get("qemu", "?")))
    L.append("- Host: %s, %s CPU(s), %s." % (host.get("cpu_model"),
                                            host.get("nproc"), host.get("kernel")))
    L.append("")
    if doc["errors_total"] or doc["cells_not_run"]:
        L += ["**ERRORS: %d failed call(s)/run(s) in %d cell(s); %d cell(s) "
              "not run. See the Errors section.**" % (
                  doc["errors_total"], doc["cells_with_errors"],
                  doc["cells_not_run"]), ""]
    else:
        L += ["Every verified call of every cell was answered: 0 errors.", ""]
    if doc.get("paired_cells"):
        L.append(markdown(paired_cost_table(doc)))
        L.append(markdown(paired_table(doc, every=True)))
        L += aa_lines(doc) + [""]
    L.append(markdown(cost_table(doc)))
    L.append(markdown(throughput_table(doc)))
    bw = bandwidth_table(doc)
    if bw:
        L.append(markdown(bw))
    tc = [c for c in doc["cells"] if c.get("kind") == "tchange"]
    if tc:
        L += ["## threads %d -> 16 -> %d under load" % (st["threads"], st["threads"]), ""]
        for c in tc:
            L.append("- %s, %d CPUs: threads gauge seen (start, after 16, after "
                     "%d, end) per run: %s%s" % (
                         c["server"], c["smp"], st["threads"],
                         json.dumps(c.get("threads_seen")),
                         "" if c.get("threads_change_seen") else
                         " **(the change to 16 and back was not seen in every run)**"))
        L.append("")
    for title, lines in (("Dropped from the plan", dropped_lines(doc)),
                         ("Short runs", short_lines(doc))):
        if lines:
            L += ["## " + title, ""] + ["- " + x for x in lines] + [""]
    errs = [c for c in doc["cells"] if c["errors"] or c["status"] == "not-run"]
    perrs = [c for c in doc.get("paired_cells") or []
             if c["errors"] or c["status"] == "not-run"]
    L += ["## Errors", ""]
    if not errs and not perrs:
        L.append("None: every cell answered every verified call.")
    for c in perrs:
        L.append("- **paired cell, %s CPUs, %s c%d: %s** - %s" % (
            c["smp"], c["workload"], c["conns"], c["status"],
            "; ".join(sorted(set(c["error_detail"])))[:600]))
    for c in errs:
        L.append("- **%s, %s CPUs, %s c%d: %s** - %s" % (
            c["server"], c["smp"], c["workload"], c["conns"], c["status"],
            "; ".join(sorted(set(c["error_detail"])))[:600]))
    L += ["", "![cost per call, ops/s and p99 latency against connections]"
          "(compare.png)", ""]
    return "\n".join(L)


def others(lst):
    if lst is None:
        return "?"
    return "%d%s" % (len(lst), (" (" + ", ".join(lst) + ")") if lst else "")


# ---- the paired cells ---------------------------------------------------

def fmt_iv(e, key="ci95"):
    iv = e.get(key)
    return "-" if not iv else "%.3g-%.3g" % (iv[0], iv[1])


def paired_shown(doc, e):
    """The pairs the terminal shows: lineage neighbours, the A/A arm,
    every build against nfsd, and the last build against the first."""
    b = doc["builds"]
    if e["aa"]:
        return True
    if e["a"] in b and e["b"] in b:
        i, j = b.index(e["a"]), b.index(e["b"])
        return i == j + 1 or (i == len(b) - 1 and j == 0)
    return e["b"] == "nfsd" and e["a"] in b or e["a"] == "nfsd" and e["b"] in b


def paired_table(doc, every=False):
    entries = doc.get("paired") or []
    cpu = {(e["smp"], e["workload"], e["conns"], e["a"], e["b"]): e
           for e in doc.get("paired_cpu") or []}
    st = doc["settings"]
    t = Table(
        "Paired comparison: which server is faster (the verdicts)",
        [("CPUs", "r"), ("workload", "l"), ("conns", "r"), ("a / b", "l"),
         ("ratio", "r"), ("95% interval", "r"), ("verdict", "l"),
         ("rounds", "r"), ("margin", "r"), ("calls/host-CPU a/b", "r")],
        notes=[
            "Every server up at once, each on its own port; one rpcload "
            "slices moved the same load between them in %s s slices (the "
            "first %s s not counted), round after round in a balanced "
            "order. ratio: a's ops/s over b's, the geometric mean over "
            "rounds of each round's ratio; the interval is over rounds "
            "(Student t). verdict: faster/slower when Holm's correction "
            "over the cell's pairs still rejects ratio 1, equal when the "
            "interval lies within the margin (the larger of 5%% and the "
            "A/A arm's own half-width), else unresolved. The A/A arm "
            "(bitflag_aa / bitflag) is the same source under two names: it "
            "should come out equal. calls/host-CPU: the same ratio of calls "
            "per second of the QEMU vCPU threads' host CPU time (above 1: a "
            "is cheaper per call)." % (
                fmt_num(st.get("slice_s") or 1), fmt_num(st.get("slice_warm_s") or 0))]
        + (["The nfs-* cells: every build's export and nfsd's copy of it "
            "(a tmpfs) mounted at once by the guest kernel's NFS client "
            "(NFSv3, TCP, nconnect=4; conns is nconnect); bench/nfs-slices "
            "moved the file load between the mounts in %s s slices (the "
            "first %s s not counted); ops/s are its reads or stat() calls, "
            "each checked. No A/A arm in them: their margin is 5%%." % (
                fmt_num(st.get("nfs_slice_s") or 1),
                fmt_num(st.get("nfs_slice_warm_s") or 0))]
           if any(e["workload"] in catalog.NFS_WORKLOADS for e in entries) else [])
        + ([] if every else ["Shown: lineage neighbours, lwq over lock, each "
                             "build over nfsd and the A/A arm; every pair is "
                             "in compare.md and compare.json."]),
        repeat=3)
    for e in entries:
        if not every and not paired_shown(doc, e):
            continue
        c = cpu.get((e["smp"], e["workload"], e["conns"], e["a"], e["b"]))
        v = e["verdict"]
        t.add([str(e["smp"]), e["workload"], str(e["conns"]),
               "%s / %s%s" % (e["a"], e["b"], " (A/A)" if e["aa"] else ""),
               "-" if e["ratio"] is None else "%.3g" % e["ratio"], fmt_iv(e),
               Strong(v) if v in ("faster", "slower") else v,
               str(e["rounds"]), "%d%%" % round(100 * e["delta"]),
               "-" if not c or c["ratio"] is None else
               "%.3g (%s)" % (c["ratio"], fmt_iv(c))])
    return t


def paired_cost_table(doc):
    t = Table(
        "Paired cells: cost per call and host CPU (what repeats)",
        [("CPUs", "r"), ("workload", "l"), ("conns", "r"), ("server", "l"),
         ("ops/s", "r"), ("host us/call", "r")] +
        [(name, "r") for name, _ in COST_COLUMNS] +
        [("wasted wakeups", "r"), ("enqueue ns x first", "r"),
         ("owner p50 us", "r"), ("busy slices", "r")],
        notes=[
            "ops/s: median of the server's slices (min-max in compare.json). "
            "host us/call: the QEMU vCPU threads' CPU time on the host over "
            "the calls of the slice (its warm-up included), median over its "
            "slices: the guest's whole cost per call, client and server. "
            "Counts per call: the module's own counters over the cell, as "
            "in the cost table. wasted wakeups: the share of hand-overs (a "
            "thread given a socket) that found nothing to read or accept "
            "(wakeups_idle / owner_waits). enqueue ns "
            "x first: the mean time inside the build's enqueue, over the "
            "first build's in the same cell (the absolute nanoseconds, in "
            "compare.json, are emulation figures). busy slices: "
            "slices during which something outside the guest took more "
            "than %s of a host CPU (flagged, still counted)." %
            doc["settings"].get("busy_cpus", 0.25)],
        repeat=3)
    for c in doc.get("paired_cells") or []:
        if c.get("status") != "ok":
            t.add([str(c["smp"]), c["workload"], str(c["conns"]), "NOT RUN",
                   "", ""] + [""] * len(COST_COLUMNS) + ["", "", "", ""])
            continue
        first = next(((c["targets"].get(n) or {}).get("enqueue_ns") or {}
                      for n in c["servers"]
                      if ((c["targets"].get(n) or {}).get("enqueue_ns") or {}).get("mean")),
                     {}).get("mean")
        for n in c["servers"]:
            ts = c["targets"].get(n) or {}
            pc = ts.get("per_call") or {}
            ops = (ts.get("ops_per_s") or {}).get("median")
            cpu = (ts.get("host_cpu_us_per_call") or {}).get("median")
            ow = (ts.get("owner_wait_ns") or {}).get("p50")
            ww = ts.get("wasted_wakeup_share")
            eq = (ts.get("enqueue_ns") or {}).get("mean")
            t.add([str(c["smp"]), c["workload"], str(c["conns"]), n,
                   human(ops), human(cpu)] +
                  [per_call(sum(pc[k] for k in ks if pc.get(k) is not None)
                            if any(pc.get(k) is not None for k in ks) else None)
                   for _, ks in COST_COLUMNS] +
                  ["-" if ww is None else "%d%%" % round(100 * ww),
                   "-" if not eq or not first else "%.2f" % (eq / first),
                   "-" if ow is None else human(ow / 1000.0),
                   "%d of %d" % (c["slices_host_busy"], len(c["slices"]))
                   if n == c["servers"][0] else ""])
    return t


def aa_lines(doc):
    aa = doc.get("aa") or {}
    if not aa.get("cells"):
        return []
    return ["A/A arm (bitflag_aa against bitflag, the same source): called "
            "different in %d of %d cells (false-call rate %s); median "
            "half-width of its interval %s%%." % (
                aa["called_different"], aa["cells"], aa["false_rate"],
                "-" if aa.get("median_halfwidth") is None else
                "%.1f" % (100 * aa["median_halfwidth"]))]
