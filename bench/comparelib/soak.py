# SPDX-License-Identifier: GPL-2.0
"""The soak (issue 25), host side: the guest command (bench/guest/soak-run
sent with it), the SOAK-* lines parsed, each build judged, the tables,
RESULTS/soak.json (schema "svcsock-soak", version 1) and soak.md.

What a soak looks for is what a short test cannot see: a slow leak, a
stall that comes only after minutes, latency that creeps.  Each build
serves a steady good load, connection churn and a rotating hostile peer
for a while, beside many idle connections held open and cycled (10,000
by default, some hundreds of them closed and reopened a second), sampled
slice by slice; the judgement compares the end of
the run with its beginning, fits memory against time, and checks that
everything comes back at the end.  The bounds, and why they are what
they are, are in BOUNDS_WHY (printed under the tables).
"""

import datetime
import json
import os
import re
import statistics
import subprocess
import sys
import time

from .table import Table, Strong, markdown, text
from . import schema

SCHEMA = "svcsock-soak"
SCHEMA_VERSION = 1

GUEST_SCRIPT = os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "guest", "soak-run")
HEREDOC_TAG = "SVCSOCK_SOAK_RUN_EOF"

# The bounds (settings.bounds in soak.json).
BOUNDS = {
    # median ops/s of the last third of the slices >= this x the first third's
    "rate_floor": 0.5,
    # median p99 of the last third <= this x the first third's
    "p99_ceiling": 3.0,
    # least-squares slope of slab+vmalloc over the slices, KiB per minute
    "mem_slope_kib_per_min": 2048.0,
    # slab+vmalloc after rmmod - before modprobe, KiB (lib-hostile.sh's)
    "mem_return_kib": 4096,
    # rmmod returns within, seconds (the bound)
    "rmmod_s": 5.0,
    # held connections cycled a second, at least this x the rate asked
    "cycle_rate_floor": 0.9,
}

BOUNDS_WHY = [
    "good calls: every call of the good load (rpcload, 16 connections) and "
    "every connection of the churn (conn-churn: connect, one NULL call, "
    "close) answered; a failure, a timeout (5 s), a wrong reply or a slice "
    "without calls fails.",
    "rate held: the median ops/s of the last third of the slices is at "
    "least %(rate_floor)g x the median of the first third.  Under TCG on a "
    "2-core host one window's rate moves by up to 2x with the host alone "
    "(tests/guest/lib-hostile.sh, bench/README.md), so a smaller drop is "
    "not evidence; a stall or a steady decline that builds up over "
    "minutes is.  The hostile mode rotates slice by slice, so each third "
    "holds the same mix when the slices are a multiple of 12.",
    "p99 held: the median p99 of the last third is at most %(p99_ceiling)g x "
    "the first third's: latency under TCG moves by about 2x between "
    "windows; a queue that grows moves it by more, and keeps moving.",
    "memory slope: slab+vmalloc (SUnreclaim + VmallocUsed, caches dropped "
    "and empty slabs shrunk before each reading) against time, from the "
    "second slice on (the first still warms up), least squares with one "
    "level per hostile mode when modes repeat (each attack holds its own "
    "amount of memory while it runs), at most %(mem_slope_kib_per_min)g "
    "KiB/min: over the default 2 minutes that is the end check's 4 MiB, "
    "and at ~15000 connections churned per minute it fires for about 140 "
    "bytes kept per connection.  The guest's TIME_WAIT table is capped at "
    "256 so that the kernel's own TIME_WAIT sockets (60 s each) do not "
    "grow for the first minute.",
    "memory returns: slab+vmalloc after rmmod within %(mem_return_kib)d KiB "
    "of before modprobe (settled both times, as check_mem_returns), read "
    "once TCP has no orphan sockets left (sockets their owner closed that "
    "TCP is still closing, LAST_ACK waiting for a peer's ACK: TCP's memory, "
    "not the module's; at most 120 s, and one left fails the check).",
    "drained and unloaded: the module's sockets down to 0 within 30 s of "
    "the end, every accepted connection closed, rmmod successful within "
    "%(rmmod_s)g s.",
    "kernel clean: vm-run exits 0 (not 122: a WARNING, BUG, Oops, the "
    "module's \"objects leaked\" WARN; nor 120 timeout, 121 panic).",
    "held (with held connections): every one opened with its NULL call "
    "answered before the slices start; each still open, with nothing "
    "unasked to read, when its turn to be cycled comes and at the end "
    "(the module's max_conns is set above their number, so closing one "
    "would be a fault, not a defence); every reopened one answered.",
    "cycle rate (with held connections): closed and reopened at least "
    "%(cycle_rate_floor)g x the rate asked, from the moment all were "
    "open to the end; less means the server could not take the churn "
    "the soak claims to have put on it.",
]

MODES = ("zerofrag", "slowread", "slowlive", "rststorm")
# the defence counters shown per slice (the increase over the slice)
DEFENCES = [("frags_too_many", "frags"), ("recv_yield", "yield"),
            ("wspace_wait", "wspace"), ("slow_reader_closed", "slowclosed"),
            ("send_parked", "parked"), ("tcp_refused", "refused"),
            ("records_too_large", "toolarge"), ("garbage", "garbage")]

# rough cost under TCG on the 2-core machine: a boot ~10 s; per build the
# settled memory readings, the warm-up, the drain and rmmod ~15 s; per
# slice ~2 s beside its seconds
EST_BOOT_S = 10.0
EST_BUILD_S = 15.0
EST_SLICE_S = 2.0
# opening and closing the held connections, per 1000 of them
EST_KEEP_S_PER_1000 = 6.0


def nslices(duration, slice_s):
    return -(-int(duration) // int(slice_s))


def estimate_s(builds, duration, slice_s, keep=0):
    n = nslices(duration, slice_s)
    return EST_BOOT_S + len(builds) * (EST_BUILD_S + n * (slice_s + EST_SLICE_S)
                                       + keep / 1000.0 * EST_KEEP_S_PER_1000)


def guest_command(builds, duration, slice_s, threads, script_text=None,
                  conns=16, keep=0, rate=0, load_rate=0):
    """The sh vm-run runs: soak-run written to /tmp, then run."""
    if script_text is None:
        with open(GUEST_SCRIPT) as f:
            script_text = f.read()
    if HEREDOC_TAG in script_text:
        raise SystemExit("soak: here-document tag %s in the script" % HEREDOC_TAG)
    for b in builds:
        if not re.match(r"^[A-Za-z0-9_]+$", b):
            raise SystemExit("soak: bad build name %r" % b)
    return ("cat >/tmp/soak-run <<'%s'\n%s%s%s\n"
            "sh /tmp/soak-run -d %d -s %d -t %d -c %d -l %d -k %d -r %d %s\n" % (
                HEREDOC_TAG, script_text,
                "" if script_text.endswith("\n") else "\n", HEREDOC_TAG,
                duration, slice_s, threads, conns, load_rate, keep, rate,
                " ".join(builds)))


def vmrun_timeout(builds, duration, slice_s, keep=0):
    return int(120 + 2 * estimate_s(builds, duration, slice_s, keep) +
               len(builds) * 60)


# -- parsing -----------------------------------------------------------------

def _kv(words):
    out = {}
    for w in words:
        if "=" in w:
            k, v = w.split("=", 1)
            out[k] = _num(v)
    return out


def _num(v):
    try:
        return int(v)
    except ValueError:
        try:
            return float(v)
        except ValueError:
            return v


def _json(text_):
    text_ = text_.strip()
    if not text_:
        return None
    try:
        return json.loads(text_)
    except ValueError:
        # a tool's stderr may precede its JSON on the same line
        i = text_.find("{")
        if i > 0:
            try:
                return json.loads(text_[i:])
            except ValueError:
                pass
        return {"unparsed": text_[:300]}


CHURN_RE = re.compile(
    r"(\d+) connections in (\d+) ms from (\d+) threads: (\d+) answered, "
    r"(\d+) refused, (\d+) timed out, (\d+) other errors")


def parse_churn(line):
    """conn-churn's summary line -> dict (None fields when absent)."""
    m = CHURN_RE.search(line)
    if not m:
        return {"unparsed": line.strip()[:300]}
    keys = ("connections", "ms", "threads", "answered", "refused",
            "timed_out", "other_errors")
    return dict(zip(keys, (int(x) for x in m.groups())))


HOLD_RE = re.compile(
    r"kept (\d+) \(all open after (-?\d+) ms\), cycled (\d+) \(([\d.]+)/s "
    r"after that\), dropped by the server (\d+), unasked data (\d+)")


def parse_hold(line):
    """conn-churn --keep's summary line -> parse_churn's dict and keep,
    kept_ms, cycled, cycle_per_s, dropped, unasked (absent when the line
    is not there)."""
    c = parse_churn(line)
    m = HOLD_RE.search(line)
    if m:
        c.update(zip(("keep", "kept_ms", "cycled"), (int(x) for x in m.groups()[:3])))
        c["cycle_per_s"] = float(m.group(4))
        c["dropped"], c["unasked"] = int(m.group(5)), int(m.group(6))
    return c


LINE_RE = re.compile(r"SOAK-(INFO|BEGIN|MEM|SLICE|LOAD|CHURN|HOSTILE|STAT|"
                     r"KEPT|HELD|HOLD|DRAIN|RMMOD|ORPHANS|END|DONE): ?(.*)$")


def parse(stdout):
    """The guest's output -> {"info": {...}, "done": n or None,
    "builds": {build: record}, "order": [builds in order]}."""
    doc = {"info": {}, "done": None, "builds": {}, "order": []}

    def rec(b):
        if b not in doc["builds"]:
            doc["builds"][b] = {"build": b, "begin": None, "mem": {},
                                "slices": {}, "drain": None, "rmmod": None,
                                "stat_end": None, "ended": False,
                                "kept": None, "hold": None}
            doc["order"].append(b)
        return doc["builds"][b]

    def sl(r, i):
        return r["slices"].setdefault(int(i), {"i": int(i)})

    for raw in stdout.splitlines():
        m = LINE_RE.search(raw.rstrip("\r\n"))
        if not m:
            continue
        kind, rest = m.group(1), m.group(2)
        words = rest.split()
        try:
            if kind == "INFO":
                doc["info"].update(_kv(words))
            elif kind == "DONE":
                doc["done"] = _num(rest.strip())
            elif kind == "BEGIN":
                rec(words[0])["begin"] = _kv(words[1:])
            elif kind == "MEM":
                rec(words[0])["mem"][words[1]] = _kv(words[2:])
            elif kind == "SLICE":
                s = sl(rec(words[0]), words[1])
                s.update(_kv(words[2:]))
            elif kind == "LOAD":
                b, i, js = rest.split(None, 2) + [""] * (3 - len(rest.split(None, 2)))
                sl(rec(b), i)["load"] = _json(js)
            elif kind == "CHURN":
                b, i, tail = rest.split(None, 2)
                rc = re.match(r"rc=(\S+)", tail)
                c = parse_churn(tail)
                c["rc"] = _num(rc.group(1)) if rc else None
                sl(rec(b), i)["churn"] = c
            elif kind == "HOSTILE":
                parts = rest.split(None, 4) + [""] * 5
                b, i, mode, rc, js = parts[:5]
                sl(rec(b), i)["hostile"] = {"mode": mode,
                                            "rc": _num(rc.split("=", 1)[-1]),
                                            "out": _json(js)}
            elif kind == "STAT":
                r = rec(words[0])
                if words[1] == "end":
                    r["stat_end"] = _kv(words[2:])
                else:
                    sl(r, words[1])["stat"] = _kv(words[2:])
            elif kind == "KEPT":
                rec(words[0])["kept"] = _kv(words[1:])
            elif kind == "HELD":
                sl(rec(words[0]), words[1])["held"] = _kv(words[2:])
            elif kind == "HOLD":
                b, tail = rest.split(None, 1)
                rc = re.match(r"rc=(\S+)", tail)
                h = parse_hold(tail)
                h["rc"] = _num(rc.group(1)) if rc else None
                rec(b)["hold"] = h
            elif kind == "DRAIN":
                rec(words[0])["drain"] = _kv(words[1:])
            elif kind == "RMMOD":
                rec(words[0])["rmmod"] = _kv(words[1:])
            elif kind == "ORPHANS":
                rec(words[0])["orphans"] = _kv(words[1:])
            elif kind == "END":
                rec(words[0])["ended"] = True
        except (IndexError, ValueError):
            doc.setdefault("bad_lines", []).append(raw[:300])
    for r in doc["builds"].values():
        r["slices"] = [r["slices"][k] for k in sorted(r["slices"])]
    return doc


# -- figures -----------------------------------------------------------------

def load_figures(load):
    """(calls, ok, errors, ops_per_s, p99_us, why) of one rpcload JSON;
    errors counts failures, timeouts and mismatches, and a slice whose
    load did not run counts as one error, saying why."""
    if not isinstance(load, dict) or not isinstance(load.get("result"), dict):
        why = "no result" if not isinstance(load, dict) else (
            load.get("error") or load.get("unparsed") or "no result")
        return 0, 0, 1, None, None, str(why)[:200]
    r = load["result"]
    bad = sum(int(r.get(k) or 0) for k in ("failures", "timeouts", "mismatches"))
    calls = int(r.get("calls") or 0)
    why = load.get("error") or ""
    if calls == 0:
        bad, why = max(bad, 1), why or "no call made"
    p99 = (r.get("latency_us") or {}).get("p99")
    return calls, int(r.get("ok") or 0), bad, r.get("ops_per_s"), p99, why


def churn_errors(c):
    if not isinstance(c, dict) or "connections" not in c:
        return 1
    bad = c["refused"] + c["timed_out"] + c["other_errors"]
    if c.get("rc") not in (0, None):
        bad = max(bad, 1)
    return bad


def kmem(d):
    if not d:
        return None
    if "kmem" in d:
        return d["kmem"]
    if "sunreclaim" in d and "vmalloc" in d:
        return d["sunreclaim"] + d["vmalloc"]
    return None


def slope(xs, ys, groups=None):
    """Least-squares slope of ys on xs; with groups, the pooled
    within-group slope (one intercept per group: sum of the groups'
    centred cross-products over the sum of their centred squares).
    Groups of one point carry nothing; when no group repeats, the plain
    slope.  None when it cannot be had (fewer than 2 distinct xs)."""
    pts = [(x, y, g) for x, y, g in zip(xs, ys, groups or [None] * len(xs))
           if x is not None and y is not None]
    if groups:
        by = {}
        for x, y, g in pts:
            by.setdefault(g, []).append((x, y))
        sxy = sxx = 0.0
        for p in by.values():
            if len(p) < 2:
                continue
            mx = sum(x for x, _ in p) / len(p)
            my = sum(y for _, y in p) / len(p)
            sxy += sum((x - mx) * (y - my) for x, y in p)
            sxx += sum((x - mx) ** 2 for x, _ in p)
        if sxx > 0:
            return sxy / sxx
    if len(pts) < 2:
        return None
    mx = sum(x for x, _, _ in pts) / len(pts)
    my = sum(y for _, y, _ in pts) / len(pts)
    sxx = sum((x - mx) ** 2 for x, _, _ in pts)
    if sxx == 0:
        return None
    return sum((x - mx) * (y - my) for x, y, _ in pts) / sxx


def thirds(values):
    """(first third, last third) of a list: max(1, n // 3) each."""
    k = max(1, len(values) // 3)
    return values[:k], values[-k:]


def against_mode(rows, key):
    """The late slices against the early ones, each hostile mode against
    itself (an attack sets the good load's level: slowlive halves it):
    for every slice of the last third, its figure over the median of the
    same mode's slices in the first third (or, when the mode is not
    there, the mode's first slice before it).  ([ratios], first third's
    length, last third's length); slices without an earlier slice of
    their mode, or without a figure, give no ratio."""
    first, last = thirds(rows)
    n, k = len(rows), len(last)
    out = []
    for j in range(n - k, n):
        x = rows[j]
        base = [y[key] for y in first if y["mode"] == x["mode"] and y is not x
                and y[key] is not None]
        if not base:
            base = [y[key] for y in rows[:j]
                    if y["mode"] == x["mode"] and y[key] is not None][:1]
        if base and x[key] is not None and _median(base) > 0:
            out.append(x[key] / _median(base))
    return out, len(first), len(last)


def _median(v):
    v = [x for x in v if x is not None]
    return statistics.median(v) if v else None


def slice_rows(r):
    """Per slice: the figures of the tables and the JSON."""
    rows, prev_stat = [], None
    prev_held = r.get("kept") or {}
    for s in r["slices"]:
        calls, ok, bad, ops, p99, why = load_figures(s.get("load"))
        c = s.get("churn") or {}
        st = s.get("stat") or {}
        dt = (s.get("t1") or 0) - (s.get("t0") or 0)
        row = {"i": s["i"], "mode": s.get("mode"), "t0": s.get("t0"),
               "t1": s.get("t1"), "calls": calls, "ok": ok, "errors": bad,
               "error": why, "ops_per_s": ops, "p99_us": p99,
               "churn_connections": c.get("connections"),
               "churn_per_s": (round(c["connections"] / (c["ms"] / 1000.0), 1)
                               if c.get("connections") is not None and c.get("ms")
                               else None),
               "churn_errors": churn_errors(s.get("churn")),
               "hostile_rc": (s.get("hostile") or {}).get("rc"),
               "sockets": st.get("sockets"), "threads": st.get("threads"),
               "kmem_kib": kmem(s), "sunreclaim_kib": s.get("sunreclaim"),
               "vmalloc_kib": s.get("vmalloc"), "slab_kib": s.get("slab"),
               "wall_s": round(dt, 2) if dt else None}
        row["defences"] = {k: (st[k] - (prev_stat or {}).get(k, 0))
                           if isinstance(st.get(k), int) else None
                           for k, _ in DEFENCES}
        h = s.get("held") or {}
        row["held_open"] = h.get("open")
        row["cycled_per_s"] = None
        if all(isinstance(x.get(k), int) for x in (h, prev_held)
               for k in ("cycled", "t_ms")) and h["t_ms"] > prev_held["t_ms"]:
            row["cycled_per_s"] = round((h["cycled"] - prev_held["cycled"]) /
                                        ((h["t_ms"] - prev_held["t_ms"]) / 1000.0), 1)
        rows.append(row)
        prev_stat = st or prev_stat
        prev_held = h or prev_held
    return rows


def check(name, ok, detail, value=None, bound=None):
    return {"name": name, "ok": bool(ok), "detail": detail,
            "value": value, "bound": bound}


def held_checks(r, keep, rate, b):
    """The checks of the held connections (conn-churn --keep)."""
    kept = r.get("kept") or {}
    h = r.get("hold") or {}
    errs = churn_errors(h) if "connections" in h else None
    dropped, unasked = h.get("dropped"), h.get("unasked")
    ok = (kept.get("open") == keep and h.get("keep") == keep and
          h.get("rc") == 0 and errs == 0 and dropped == 0 and unasked == 0)
    out = [check("held", ok,
                 "%s of %d open after %s s; %s cycled, %s dropped by the "
                 "server, %s unasked, %s not answered (exit %s)" % (
                     kept.get("open", "NOT"), keep, kept.get("s", "?"),
                     h.get("cycled", "?"), _f(dropped, 0), _f(unasked, 0),
                     _f(errs, 0), h.get("rc", "?")),
                 (errs or 0) + (dropped or 0) + (unasked or 0) if h else None, 0)]
    if rate:
        got = h.get("cycle_per_s")
        floor = b["cycle_rate_floor"] * rate
        out.append(check("cycle rate", got is not None and got >= floor,
                         "%s/s closed and reopened of %d/s asked (bound >= %g/s)" % (
                             _f(got, 1), rate, floor), got, floor))
    return out


def judge(r, planned_slices, bounds=None, keep=0, rate=0):
    """The checks of one build: a list of {name, ok, detail, value, bound}."""
    b = dict(BOUNDS, **(bounds or {}))
    rows = slice_rows(r)
    out = []
    begin = r.get("begin") or {}
    loaded = begin.get("modprobe") == "ok"
    n = len(rows)
    out.append(check("ran", loaded and n >= planned_slices and r.get("ended"),
                     "module %s, %d of %d slices, %s" % (
                         "loaded" if loaded else "did NOT load", n,
                         planned_slices, "ended" if r.get("ended") else
                         "did NOT end"), n, planned_slices))
    calls = sum(x["calls"] for x in rows)
    bad = sum(x["errors"] for x in rows)
    whys = sorted(set(x["error"] for x in rows if x["errors"] and x["error"]))
    out.append(check("good calls", n > 0 and bad == 0,
                     "%d calls, %d failed%s" % (calls, bad, (": " + "; ".join(
                         whys)[:300]) if whys else ""), bad, 0))
    cconn = sum(x["churn_connections"] or 0 for x in rows)
    cbad = sum(x["churn_errors"] for x in rows)
    out.append(check("churn calls", n > 0 and cbad == 0,
                     "%d connections churned, %d not answered" % (cconn, cbad),
                     cbad, 0))
    hbad = [x["i"] for x in rows if x["hostile_rc"] != 0]
    out.append(check("hostile ran", n > 0 and not hbad,
                     "%d slices, each with its hostile peer (%s)%s" % (
                         n, " ".join(sorted(set(x["mode"] or "?" for x in rows))),
                         "; exit status not 0 in slice(s) %s" % " ".join(
                             map(str, hbad)) if hbad else ""),
                     len(hbad), 0))
    rel, f_, l_ = against_mode(rows, "ops_per_s")
    mr = _median(rel)
    out.append(check("rate held", mr is not None and mr >= b["rate_floor"],
                     "last %d slice(s) against the same mode in the first %d: "
                     "ops/s x%s (median; %s; bound >= x%g)" % (
                         l_, f_, _f(mr, 2), " ".join(_f(x, 2) for x in rel) or
                         "no slice to compare: too few slices", b["rate_floor"]),
                     None if mr is None else round(mr, 3), b["rate_floor"]))
    rel, f_, l_ = against_mode(rows, "p99_us")
    mr = _median(rel)
    out.append(check("p99 held", mr is not None and mr <= b["p99_ceiling"],
                     "last %d slice(s) against the same mode in the first %d: "
                     "p99 x%s (median; %s; bound <= x%g)" % (
                         l_, f_, _f(mr, 2), " ".join(_f(x, 2) for x in rel) or
                         "no slice to compare: too few slices", b["p99_ceiling"]),
                     None if mr is None else round(mr, 3), b["p99_ceiling"]))
    judged = rows[1:] if len(rows) > 2 else rows
    xs = [((x["t0"] or 0) + (x["t1"] or 0)) / 2.0 / 60.0 for x in judged]
    ys = [x["kmem_kib"] for x in judged]
    modes = [x["mode"] for x in judged]
    repeat = len(set(modes)) < len(modes)
    sl_ = slope(xs, ys, modes if repeat else None)
    out.append(check("memory slope", sl_ is not None and
                     sl_ <= b["mem_slope_kib_per_min"],
                     "slab+vmalloc %s KiB/min over slices %s (%s; bound %g)" % (
                         _f(sl_, 0), ("%d-%d" % (judged[0]["i"], judged[-1]["i"]))
                         if judged else "none",
                         "one level per hostile mode" if repeat else
                         "plain least squares", b["mem_slope_kib_per_min"]),
                     None if sl_ is None else round(sl_, 1),
                     b["mem_slope_kib_per_min"]))
    before, after = kmem(r["mem"].get("before")), kmem(r["mem"].get("after"))
    d = (after - before) if before is not None and after is not None else None
    orph = r.get("orphans") or {}
    left = orph.get("left")
    out.append(check("memory returns", d is not None and d <= b["mem_return_kib"]
                     and left in (0, None),
                     "slab+vmalloc %s KiB before modprobe, %s after rmmod: %s "
                     "KiB (tolerance %d)%s" % (
                         _f(before), _f(after), _f(d, sign=True),
                         b["mem_return_kib"],
                         "; TCP orphans %s at rmmod, %s left after %s s" % (
                             orph.get("at_rmmod", "?"), left, orph.get("s", "?"))
                         if orph else ""),
                     d, b["mem_return_kib"]))
    dr = r.get("drain") or {}
    se = r.get("stat_end") or {}
    acc, clo = se.get("tcp_accepted"), se.get("tcp_closed")
    out.append(check("drained", dr.get("sockets") == 0 and acc is not None
                     and acc == clo,
                     "sockets %s after %s s; accepted %s, closed %s" % (
                         dr.get("sockets", "?"), dr.get("s", "?"), acc, clo),
                     dr.get("sockets"), 0))
    rm = r.get("rmmod") or {}
    rs = rm.get("s")
    out.append(check("rmmod", rm.get("rc") == 0 and isinstance(rs, (int, float))
                     and rs <= b["rmmod_s"],
                     "rmmod %s in %s s (bound %g s)" % (
                         "ok" if rm.get("rc") == 0 else "exit %s" % rm.get("rc", "?"),
                         rs if rs is not None else "?", b["rmmod_s"]),
                     rs, b["rmmod_s"]))
    if keep:
        out += held_checks(r, keep, rate, b)
    return out


def _f(v, digits=1, sign=False):
    if v is None:
        return "-"
    if isinstance(v, int) and digits:
        return ("%+d" if sign else "%d") % v
    return (("%+." if sign else "%.") + "%df" % digits) % v


# -- the document --------------------------------------------------------------

VMRUN_MEANING = {0: "ok", 1: "the guest script failed a step", 2: "vm-run: usage or setup",
                 120: "timeout", 121: "kernel panic",
                 122: "kernel report (WARNING/BUG/Oops/taint)",
                 123: "no status from the guest",
                 124: "the guest's clock ran fast on every boot"}


def document(parsed, builds, duration, slice_s, threads, vm_status, wall_s,
             log=None, quick=False, bounds=None, conns=16, keep=0, rate=0,
             load_rate=0):
    b = dict(BOUNDS, **(bounds or {}))
    planned = nslices(duration, slice_s)
    out_builds, fails = [], []
    for name in builds + [x for x in parsed["order"] if x not in builds]:
        r = parsed["builds"].get(name)
        if r is None:
            out_builds.append({"build": name, "ok": False, "slices": [],
                               "checks": [check("ran", False, "no output at all")],
                               "mem": {}})
            fails.append("%s: no output at all" % name)
            continue
        checks = judge(r, planned, b, keep, rate)
        ok = all(c["ok"] for c in checks)
        out_builds.append({"build": name, "ok": ok, "checks": checks,
                           "slices": slice_rows(r), "mem": r["mem"],
                           "drain": r.get("drain"), "rmmod": r.get("rmmod"),
                           "stat_end": r.get("stat_end")})
        fails += ["%s: %s: %s" % (name, c["name"], c["detail"])
                  for c in checks if not c["ok"]]
    kernel_ok = vm_status in (0, 1)
    if not kernel_ok:
        fails.append("guest: vm-run exit %s (%s)" % (
            vm_status, VMRUN_MEANING.get(vm_status, "?")))
    return {"schema": SCHEMA, "schema_version": SCHEMA_VERSION,
            "created": datetime.datetime.now(datetime.timezone.utc).strftime(
                "%Y-%m-%dT%H:%M:%SZ"),
            "settings": {"builds": builds, "duration_s": duration,
                         "slice_s": slice_s, "slices": planned,
                         "threads": threads, "quick": bool(quick),
                         "good_load": "rpcload load --conns %d%s (NULL, TCP)" % (
                             conns, " --rate %d" % load_rate if load_rate else ""),
                         "conns": conns, "load_rate": load_rate,
                         "keep": keep, "cycle_rate": rate,
                         "held": ("conn-churn --keep %d --cycle-rate %d "
                                  "--threads 16 --nice -10" % (keep, rate))
                         if keep else None,
                         "churn": "conn-churn --threads 4 --hold 8",
                         "hostile_modes": list(MODES), "bounds": b},
            "guest": {"vm_run_status": vm_status,
                      "vm_run_meaning": VMRUN_MEANING.get(vm_status, "?"),
                      "kernel_clean": kernel_ok, "wall_s": wall_s, "log": log,
                      "info": parsed.get("info"), "done": parsed.get("done")},
            "builds": out_builds, "ok": not fails, "failures": fails}


def load(path):
    return schema.load(path, SCHEMA, SCHEMA_VERSION, "soak")


# -- rendering -----------------------------------------------------------------

def build_table(doc, bd):
    s = doc["settings"]
    keep = s.get("keep") or 0
    loaded = kmem(bd["mem"].get("loaded"))
    cols = [("slice", "r"), ("mode", "l"), ("t s", "r"), ("ops/s", "r"),
            ("p99 ms", "r"), ("errors", "r"), ("churn/s", "r"),
            ("churn err", "r"), ("sockets", "r")]
    if keep:
        cols += [("held", "r"), ("cycled/s", "r")]
    cols += [("defences +", "l"), ("kmem KiB", "r"), ("vs loaded", "r")]
    t = Table("Soak: %s" % bd["build"], cols,
              notes=["%d slices of %d s, %d server threads: the good load "
                     "(%d connections, NULL%s), conn-churn and one hostile peer "
                     "at the same time%s. defences +: the counters' increase "
                     "over the slice (%s). kmem: SUnreclaim + VmallocUsed "
                     "after the slice, empty slabs shrunk." % (
                         s["slices"], s["slice_s"], s["threads"],
                         s.get("conns") or 16,
                         (", %d calls a second, open loop" % s["load_rate"])
                         if s.get("load_rate") else "",
                         (", beside %d idle connections held open, %d a second "
                          "closed and reopened (held: open at the slice's end)"
                          % (keep, s.get("cycle_rate") or 0)) if keep else "",
                         ", ".join("%s=%s" % (h, k) for k, h in DEFENCES))])
    for x in bd["slices"]:
        dfs = " ".join("%s=%d" % (h, x["defences"][k]) for k, h in DEFENCES
                       if x["defences"].get(k))
        row = [str(x["i"]), x["mode"] or "-",
               _f(x["t1"], 0), _f(x["ops_per_s"], 0),
               _f(x["p99_us"] / 1000.0 if x["p99_us"] is not None else None, 2),
               (Strong if x["errors"] else str)(str(x["errors"])),
               _f(x["churn_per_s"], 0),
               (Strong if x["churn_errors"] else str)(str(x["churn_errors"])),
               _f(x["sockets"], 0)]
        if keep:
            row += [_f(x.get("held_open"), 0), _f(x.get("cycled_per_s"), 0)]
        row += [dfs or "-", _f(x["kmem_kib"], 0),
                _f(x["kmem_kib"] - loaded if x["kmem_kib"] is not None
                   and loaded is not None else None, 0, sign=True)]
        t.add(row)
    return t


def check_lines(bd):
    return ["%s %-15s %s" % ("PASS" if c["ok"] else "FAIL", c["name"], c["detail"])
            for c in bd["checks"]]


def render(doc, results_dir=None):
    """The terminal's text; soak.md written when results_dir is given."""
    g = doc["guest"]
    lines, md = [], ["# Soak", "",
                     "bench/soak, %s: %s; %d s per build in %d s slices, "
                     "one boot of kernel %s (vm-run exit %s: %s; %s s)." % (
                         doc["created"], " ".join(doc["settings"]["builds"]),
                         doc["settings"]["duration_s"], doc["settings"]["slice_s"],
                         (g.get("info") or {}).get("kernel", "?"),
                         g["vm_run_status"], g["vm_run_meaning"],
                         _f(g["wall_s"], 0)), ""]
    for bd in doc["builds"]:
        if bd["slices"]:
            t = build_table(doc, bd)
            lines += [text(t), ""]
            md += [markdown(t, level=2)]
        else:
            lines += ["Soak: %s: no slice ran" % bd["build"], ""]
            md += ["## Soak: %s" % bd["build"], "", "No slice ran.", ""]
        cl = check_lines(bd)
        lines += cl + [""]
        md += ["Checks:", ""] + ["- %s %s: %s" % (
            "pass" if c["ok"] else "**FAIL**", c["name"], c["detail"])
            for c in bd["checks"]] + [""]
    kl = "%s %-15s vm-run exit %s (%s)" % (
        "PASS" if g["kernel_clean"] else "FAIL", "kernel clean",
        g["vm_run_status"], g["vm_run_meaning"])
    lines.append(kl)
    md += ["## The guest", "", "- " + kl, ""]
    why = [w % doc["settings"]["bounds"] for w in BOUNDS_WHY]
    md += ["## The bounds", ""] + ["- " + w for w in why] + [""]
    summary = [x["build"] + (" ok" if x["ok"] else " FAILED") for x in doc["builds"]]
    lines += ["", "soak: " + ", ".join(summary)]
    lines += (["!!! " + f for f in doc["failures"]] or
              ["soak: every check passed"])
    md += ["## Failures", ""] + (["- " + f for f in doc["failures"]] or ["None."]) + [""]
    if results_dir:
        with open(os.path.join(results_dir, "soak.md"), "w") as f:
            f.write("\n".join(md))
    return "\n".join(lines)


# -- running -------------------------------------------------------------------

def run_boot(vm_run, builds, duration, slice_s, threads, raw_dir, smp=2,
             mem=2048, vmrun_args=(), echo=None, conns=16, keep=0, rate=0,
             load_rate=0):
    """One boot: (stdout, vm-run's status, wall seconds); the console in
    raw_dir/soak-console.log, the kernel's in raw_dir/soak-kernel.log.
    echo: a function called with each SOAK-SLICE/BEGIN/END line as it comes."""
    argv = [vm_run, "--smp", str(smp), "--mem", str(mem),
            "--timeout", str(vmrun_timeout(builds, duration, slice_s, keep)),
            "--console-log", os.path.join(raw_dir, "soak-kernel.log")] + \
        list(vmrun_args) + ["--", guest_command(builds, duration, slice_s, threads,
                                                conns=conns, keep=keep, rate=rate,
                                                load_rate=load_rate)]
    t0 = time.monotonic()
    out = []
    log_path = os.path.join(raw_dir, "soak-console.log")
    with open(log_path, "w") as log, \
            open(os.path.join(raw_dir, "soak-vm-run.stderr"), "w") as err:
        try:
            p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=err,
                                 stdin=subprocess.DEVNULL, text=True,
                                 errors="replace", bufsize=1)
        except OSError as e:
            sys.stderr.write("soak: cannot run %s: %s\n" % (vm_run, e))
            return "", 2, 0.0
        for line in p.stdout:
            log.write(line)
            out.append(line)
            if echo and re.search(r"SOAK-(SLICE|BEGIN|KEPT|HOLD|END|RMMOD|DRAIN):", line):
                echo(line.rstrip())
        st = p.wait()
        log.write("\n# vm-run exit %d\n" % st)
    return "".join(out), st, round(time.monotonic() - t0, 1)
