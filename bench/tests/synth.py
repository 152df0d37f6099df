# SPDX-License-Identifier: GPL-2.0
"""SYNTHETIC guest output for bench/tests: console logs as run-cells and
compare would write them, made up here.  Every log starts with
BENCH-SYNTHETIC, so compare marks its outputs as synthetic.  Also
rpcload slices documents (slices_doc) on a made-up host whose speed
wanders, for the paired statistics.  None of these numbers is a
measurement."""

import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
COMPARE = os.path.join(BENCH, "compare")
TOP = os.path.dirname(BENCH)
sys.path.insert(0, BENCH)

# the builds of the synthetic Kbuild (written by kbuild())
BUILDS = ["lock", "bitflag", "bitlock", "queued"]

# made-up rates per server, and each run's factor by round (1, 2, 3):
# lock/bitflag/nfsd/ref/rr repeat within 2%, so bitflag/lock = 2 is a
# real difference; bitlock moves +-5% around bitflag's rate (a tie with
# bitflag); queued runs at lock's rate (a tie with lock)
RATE = {"lock": 1000.0, "bitflag": 2000.0, "bitlock": 2000.0,
        "queued": 1000.0, "nfsd": 4000.0, "ref": 500.0, "rr": 5000.0}
FACTOR = {"bitlock": [1.05, 0.95, 1.0]}

# per call, by build; None: the module has no such counter (today's
# modules lack the new ones; "queued" has them all)
COST = {
    "lock": {"sv_lock_acquired": 3, "sk_lock_acquired": 2, "enqueue_calls": 1,
             "threads_woken": 0.5, "sv_lock_contended": 0.1,
             "sk_lock_contended": 0.01, "enqueue_busy": 0.25},
    "bitflag": {"sv_lock_acquired": 4, "sk_lock_acquired": 0, "enqueue_calls": 2,
                "threads_woken": 1.6, "sv_lock_contended": 0.1,
                "sk_lock_contended": 0, "enqueue_busy": 0.25},
    "bitlock": {"sv_lock_acquired": 3, "sk_lock_acquired": 0, "enqueue_calls": 2,
                "threads_woken": 1.0, "sv_lock_contended": 0.1,
                "sk_lock_contended": 0, "enqueue_busy": 0.25},
    "queued": {"sv_lock_acquired": 1, "sk_lock_acquired": 0, "enqueue_calls": 1,
               "threads_woken": 1.0, "sv_lock_contended": 0,
               "sk_lock_contended": 0, "enqueue_busy": 0.1,
               "lwq_lock_acquired": 2, "flag_rmw": 5, "wakeups_idle": 0.2},
}
# queued's owner-wait histogram per call: bucket 10 ([1024, 2048) ns) holds
# 98 of 100 waits, bucket 14 the other 2
OWNER_WAIT = {10: 0.98, 14: 0.02}

WL = {  # workload -> (conns, proc, size, servers)
    "null-tcp": ([1, 4, 16, 64], "null", 0, BUILDS + ["nfsd", "ref", "rr"]),
    "null-udp": ([16], "null", 0, BUILDS + ["nfsd", "ref"]),
    "echo-4k": ([16], "echo", 4096, BUILDS + ["ref", "rr"]),
    "sleep-1ms": ([64], "sleep", 0, BUILDS + ["ref"]),
    "threads-4-16-4": ([64], "null", 0, BUILDS),
}

KBUILD = """# synthetic Kbuild for bench/tests
svcsock-shared := svc_sock svc_rpc
svcsock-builds := lock bitflag \\
	bitlock
svcsock-builds += queued
svcsock-strategy-lock := lock
svcsock-strategy-queued := queued
ifneq ($(SVCSOCK_MUTANT),)
svcsock-builds := $(SVCSOCK_MUTANT) mutantword
endif
"""


def kbuild(path, text=KBUILD):
    """Writes the Kbuild `path` (text: KBUILD by default) and, beside it,
    svcsock-mod's Makefile and list.mk, which compare asks for the builds
    (make -C DIR builds).  Returns path, for compare --kbuild."""
    with open(path, "w") as f:
        f.write(text)
    d = os.path.dirname(path) or "."
    for name in ("Makefile", "list.mk"):
        shutil.copy(os.path.join(TOP, "svcsock-mod", name), os.path.join(d, name))
    return path


def rate(server, rep, conns):
    f = FACTOR.get(server, [1.01, 1.02, 1.03])[(rep - 1) % 3]
    return RATE[server] * f * (conns ** 0.25)


def tool_json(wl, conns, rate_, failures=0, size=0, server="lock"):
    calls = int(rate_)
    okc = calls - failures
    return {
        "tool": "rr-client" if server == "rr" else "rpcload", "version": 1,
        "params": {"host": "127.0.0.1", "port": 20049, "proto": "tcp",
                   "conns": conns, "proc": WL[wl][1], "size": size,
                   "duration_s": 1.0, "calls_limit": 0, "seed": 1},
        "result": {"calls": calls, "ok": okc, "failures": failures,
                   "timeouts": 0, "mismatches": 0, "elapsed_s": 1.0,
                   "ops_per_s": float(okc), "mb_per_s": 2.0 * size * okc / 1e6,
                   "latency_us": {"p50": 100.0, "p90": 200.0, "p99": 1e6 / rate_,
                                  "p999": 2e6 / rate_, "max": 5e6 / rate_,
                                  "mean": 120.0},
                   "first_error": "conn 1: RPC: Timed out" if failures else None}}


def svcsock(calls, build, extra=None):
    """/proc/net/svcsock before and after a run of `calls` calls."""
    base = {"calls_null": 10, "calls_echo": 0, "calls_sleep": 0,
            "garbage": 0, "reply_system_err": 0, "threads": 4, "sockets": 0}
    for k in COST[build]:
        base[k] = 100
    if build == "queued":
        for k in range(40):
            base["owner_wait_log2_%d" % k] = 7
    after = dict(base)
    after["calls_null"] += calls
    for k, v in COST[build].items():
        after[k] += int(round(v * calls))
    if build == "queued":
        for k, share in OWNER_WAIT.items():
            after["owner_wait_log2_%d" % k] += int(round(share * calls))
    # time inside the enqueue: lock 1500 ns a call, the others 700
    for k in range(40):
        base["enqueue_ns_log2_%d" % k] = 0
        after["enqueue_ns_log2_%d" % k] = 0
    base["enqueue_ns"] = 0
    after["enqueue_ns_log2_%d" % (10 if build == "lock" else 9)] = calls
    after["enqueue_ns"] = calls * (1500 if build == "lock" else 700)
    after["sockets"] = 16
    for k, v in (extra or {}).items():
        after[k] = after.get(k, 0) + v
    return base, after


def make_log(path, smp, reps=3, fail=None, skip=None, server_err=None,
             bad_line=False, vm_status=0, settings=None, paired=None,
             nfs=False):
    """A SYNTHETIC console log.  fail/skip: (server, wl, conns) whose round
    2 fails 3 calls / whose server did not start; server_err: ((server,
    wl, conns), {counter: +n}) in round 1."""
    lines = ["BENCH-SYNTHETIC: made up by bench/tests",
             "BENCH-INFO: " + json.dumps({"nproc": smp, "mem_kb": 2000000,
                                          "kernel": "6.1.0-synthetic",
                                          "cpu_model": "synthetic",
                                          "threads": 4, "in_guest": 1,
                                          "uptime_s": 5.0})]
    if settings:
        lines.insert(0, "COMPARE-SETTINGS: " + json.dumps(settings))
    rid = 0
    for rep in range(1, reps + 1):
        for wl, (conns_l, proc, size, servers) in WL.items():
            if smp != 2 and wl != "null-tcp":
                continue
            for server in servers:
                for conns in conns_l:
                    rid += 1
                    kind = ("rr" if server == "rr" else
                            "tchange" if wl == "threads-4-16-4" else "rpcload")
                    key = (server, wl, conns)
                    j = {"id": rid, "rep": rep, "server": server, "wl": wl,
                         "kind": kind, "conns": conns, "depth": 0, "nproc": smp}
                    if skip == key:
                        j.update({"skipped": "server did not start: synthetic",
                                  "rc": -1, "out": None})
                    else:
                        nfail = 3 if (fail == key and rep == 2) else 0
                        out = tool_json(wl, conns, rate(server, rep, conns),
                                        failures=nfail, size=size, server=server)
                        before = after = None
                        if server in COST:
                            extra = server_err[1] if (server_err and server_err[0] == key
                                                      and rep == 1) else None
                            before, after = svcsock(out["result"]["ok"], server, extra)
                        j.update({"rc": 1 if nfail else 0, "t0": 10.0, "t1": 11.5,
                                  "threads_seen": [4, 16, 4, 4] if kind == "tchange" else [],
                                  "stderr": "", "svcsock_before": before,
                                  "svcsock_after": after, "out": out})
                    lines.append("BENCH-PROGRESS: %d/x server=%s" % (rid, server))
                    lines.append("BENCH-JSON: " + json.dumps(j))
    if smp == 2:
        for rep in range(1, reps + 1):
            rid += 1
            end = {"sum_received": {"bytes": 50_000_000 + rep, "seconds": 1.0,
                                    "bits_per_second": 4e8},
                   "sum_received_bidir_reverse": {"bytes": 30_000_000,
                                                  "seconds": 1.0,
                                                  "bits_per_second": 2.4e8},
                   "sum_sent": {"retransmits": 0},
                   "sum_sent_bidir_reverse": {"retransmits": 1}}
            lines.append("BENCH-JSON: " + json.dumps({
                "id": rid, "rep": rep, "server": "iperf", "wl": "tcp-bw",
                "kind": "iperf", "conns": 1, "nproc": smp, "rc": 0, "t0": 1,
                "t1": 2, "threads_seen": [], "stderr": "", "svcsock_before": None,
                "svcsock_after": None, "out": {"start": {}, "end": end}}))
    if paired:
        rid += 1
        lines.extend(paired_lines(rid, smp, paired))
    if nfs:
        rid += 1
        lines.extend(nfs_lines(rid, smp))
    if bad_line:
        lines.append('BENCH-JSON: {"id": 999, "rep": 1, "server": "lock", broken')
    lines.append("BENCH-DONE: %d" % rid)
    lines.append("COMPARE-VM-RUN-STATUS: %d" % vm_status)
    with open(path, "w") as f:
        f.write("some kernel noise\n" + "\n".join(lines) + "\n")


# ---- SYNTHETIC rpcload slices (bench/tests/test_paired.py) ---------------

def williams(n):
    """One block of the Williams design, as rpcload slices orders its
    rounds (userland-client/design.c): row 0 is 0, 1, n-1, 2, n-2, ...,
    row k adds k (mod n); the rows come in mirror couples, row k then row
    k reversed (for an even n that is row k + n/2), k = 0, 1, ... until
    the block is whole: n rows for an even n, 2n (the pair of Latin
    squares) for an odd n."""
    if n == 1:
        return [[0]]
    first = [0] + [(j + 1) // 2 if j % 2 else n - j // 2 for j in range(1, n)]
    rows = []
    for k in range(n // 2 if n % 2 == 0 else n):
        row = [(v + k) % n for v in first]
        rows += [row, list(reversed(row))]
    return rows


def host_speed(rng, span, swing=2.0, waves=3):
    """A made-up host speed over [0, span] seconds: a slow wander (a sum
    of `waves` sinusoids, periods span/2 to 2 span, random phases), scaled
    so that its fastest is `swing` times its slowest (1.0)."""
    ws = [(rng.uniform(span / 2, 2 * span), rng.uniform(0, 2 * math.pi),
           rng.uniform(0.5, 1.0)) for _ in range(waves)]

    def raw(t):
        return sum(a * math.sin(2 * math.pi * t / p + ph) for p, ph, a in ws)
    grid = [raw(span * i / 400.0) for i in range(401)]
    lo, hi = min(grid), max(grid)
    k = math.log(swing) / (hi - lo) if hi > lo else 0.0
    return lambda t: math.exp(k * (raw(t) - lo))


def slices_doc(rates, rounds, seed, swing=2.0, noise=0.02, slice_s=1.0,
               warm_s=0.2, conns=1):
    """A SYNTHETIC `rpcload slices --json` document: rates {target: ops/s
    on the host at its slowest}, in target order; rounds in the Williams
    order; the host's speed wanders by `swing` over the cell (host_speed);
    each slice's ops/s is its target's rate x the host's mean speed over
    the counted part x exp(N(0, noise))."""
    rng = random.Random(seed)
    names = list(rates)
    block = williams(len(names))
    span = rounds * len(names) * slice_s
    speed = host_speed(rng, span, swing)
    slices, order, t = [], [], 0.0
    for r in range(rounds):
        row = [names[i] for i in block[r % len(block)]]
        order.append(row)
        for pos, name in enumerate(row):
            counted = slice_s - warm_s
            mean = sum(speed(t + warm_s + counted * (i + 0.5) / 8)
                       for i in range(8)) / 8
            ops = rates[name] * mean * math.exp(rng.gauss(0.0, noise))
            ok = int(ops * counted)
            slices.append({"round": r + 1, "position": pos + 1, "target": name,
                           "calls": ok, "ok": ok, "errors": 0,
                           "elapsed_s": counted, "ops_per_s": ok / counted,
                           "p50_us": 1e6 / ops, "p99_us": 3e6 / ops,
                           "t_start": 100.0 + t, "t_measure": 100.0 + t + warm_s,
                           "t_end": 100.0 + t + slice_s})
            t += slice_s
    return {"tool": "rpcload", "version": 1, "command": "slices",
            "synthetic": True,
            "params": {"proc": "null", "conns": conns, "slice_s": slice_s,
                       "warm_s": warm_s, "rounds": rounds},
            "targets": [{"name": n} for n in names],
            "design": {"kind": "williams", "block": len(block), "rounds": rounds,
                       "balanced": rounds % len(block) == 0,
                       "rounds_done": rounds},
            "order": order, "slices": slices}


def shuffle_rounds(doc, target, seed):
    """The document with `target`'s slices given the rounds in a seeded
    random order: its pairing with the other targets broken."""
    rng = random.Random(seed)
    rounds = sorted({s["round"] for s in doc["slices"] if s["target"] == target})
    perm = rounds[:]
    while len(perm) > 1 and perm == rounds:
        rng.shuffle(perm)
    to = dict(zip(rounds, perm))
    out = dict(doc)
    out["slices"] = [dict(s, round=to[s["round"]]) if s["target"] == target
                     else s for s in doc["slices"]]
    return out


def slice_marks(rid, doc, vcpu_ns, busy_slice=None):
    """BENCH-SLICES-BEGIN and the slice marks the host would have written
    (COMPARE-SLICE-MARK) a second apart, each slice's vCPU time made up
    by vcpu_ns(slice); during slice busy_slice something else took half
    a host CPU."""
    lines = ["BENCH-SLICES-BEGIN: %d" % rid]
    t, vcpu, busy = 100.0, 0, 0
    lines.append("COMPARE-SLICE-MARK: " + json.dumps(
        {"id": rid, "i": 0, "t": t, "vcpu_ns": vcpu, "qemu_ns": vcpu,
         "busy_ns": busy}))
    for k, s in enumerate(doc["slices"], start=1):
        t += 1.0
        vcpu += int(vcpu_ns(s))
        busy = vcpu + (int(0.5e9) * k if k == busy_slice else 0)
        lines.append("COMPARE-SLICE-MARK: " + json.dumps(
            {"id": rid, "i": k, "t": t, "vcpu_ns": vcpu, "qemu_ns": vcpu,
             "busy_ns": busy}))
    return lines


# the paired cell of a synthetic log: made-up rates, the A/A twin at its
# original's rate, nfsd; the host's CPU per call made up as 1e6 / rate
PAIRED_RATES = {"lock": 1000.0, "bitflag": 2000.0, "bitflag_aa": 2000.0,
                "bitlock": 2000.0, "queued": 1000.0, "nfsd": 4000.0}


def paired_lines(rid, smp, conns, rounds=6, seed=7):
    """A SYNTHETIC paired cell: BENCH-SLICES-BEGIN, the slice marks the
    host would have written (COMPARE-SLICE-MARK), BENCH-SLICES."""
    doc = slices_doc(PAIRED_RATES, rounds, seed=seed + smp, conns=conns)
    lines = slice_marks(rid, doc, lambda s: (s["calls"] + s.get("warmup_calls", 0))
                        * 1e9 / PAIRED_RATES[s["target"]] / 2, busy_slice=3)
    before, after = {}, {}
    for name in PAIRED_RATES:
        if name == "nfsd":
            continue
        ok = sum(s["ok"] + s.get("warmup_calls", 0) for s in doc["slices"]
                 if s["target"] == name)
        before[name], after[name] = svcsock(ok, name.replace("_aa", ""))
    lines.append("BENCH-SLICES: " + json.dumps(
        {"id": rid, "wl": "null-tcp", "conns": conns, "depth": 0,
         "nproc": smp, "servers": ",".join(PAIRED_RATES), "rc": 0, "t0": 1,
         "t1": 2, "svcsock_before": before, "svcsock_after": after,
         "out": doc}))
    return lines


# a paired NFS cell of a synthetic log (bench/nfs-slices through the
# guest's NFS client): the builds' exports and nfsd, made-up file
# operations a second; each operation two NFS calls
NFS_RATES = {"lock": 30.0, "bitflag": 40.0, "bitlock": 40.0, "queued": 45.0,
             "nfsd": 60.0}


def nfs_lines(rid, smp, wl="nfs-seq", rounds=10, seed=11):
    """A SYNTHETIC NFS cell: BENCH-SLICES-BEGIN, slice marks, BENCH-SLICES
    with the mounts and the modules' calls_nfs3."""
    doc = slices_doc(NFS_RATES, rounds, seed=seed + smp, conns=4, noise=0.01,
                     swing=1.2)
    doc["tool"] = "nfs-slices"
    doc["params"] = {"workload": wl.split("-")[1], "jobs": 16, "bs": 1048576,
                     "slice_s": 1.0, "warm_s": 0.2, "rounds": rounds}
    lines = slice_marks(rid, doc, lambda s: (s["calls"] + 1) * 1e9
                        / NFS_RATES[s["target"]] / 4)
    before, after = {}, {}
    for name in NFS_RATES:
        if name == "nfsd":
            continue
        ops = sum(s["ok"] for s in doc["slices"] if s["target"] == name)
        b, a = svcsock(2 * ops, name)
        # NFS calls, not NULL ones
        a["calls_nfs3"] = a.pop("calls_null") - b["calls_null"]
        b["calls_nfs3"] = 0
        before[name], after[name] = b, a
    mounts = {n: "rw,vers=3,rsize=%d,nconnect=4,port=%d" % (
        262144 if n == "nfsd" else 1048576, 2049 if n == "nfsd" else 20101 + i)
        for i, n in enumerate(NFS_RATES)}
    lines.append("BENCH-SLICES: " + json.dumps(
        {"id": rid, "wl": wl, "conns": 4, "depth": 16, "nproc": smp,
         "servers": ",".join(NFS_RATES), "rc": 0, "t0": 1, "t1": 2,
         "mounts": mounts, "svcsock_before": before, "svcsock_after": after,
         "out": doc}))
    return lines


class LogJudgeTest(unittest.TestCase):
    """A test of a benchmark that judges a console log again
    (--from-log): each test gets a scratch directory, and judge() writes
    the log there and runs TOOL on it with ARGS (and --from-log)."""
    TOOL = None

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="test-%s." % os.path.basename(self.TOOL))

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def run_tool(self, text, *args):
        p = os.path.join(self.dir, "console.log")
        with open(p, "w") as f:
            f.write(text)
        return subprocess.run([sys.executable, self.TOOL, "--from-log", p] + list(args),
                              capture_output=True, text=True, timeout=60)
