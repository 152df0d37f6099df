#!/usr/bin/env python3
"""Tests of bench/compare's host side (parsing, aggregation, ratios, error
flagging, outputs) on SYNTHETIC guest output made up here: every log starts
with BENCH-SYNTHETIC, and compare marks its outputs as synthetic.  None of
these numbers is a measurement.  Nothing is booted.

Run: python3 bench/tests/test_compare.py   (or make -C bench check)
     python3 bench/tests/test_compare.py --tap   (TAP, for tests/host/userland.t)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
COMPARE = os.path.join(os.path.dirname(HERE), "compare")

# made-up rates per (server, workload) -- SYNTHETIC
RATE = {"lock": 1000.0, "bitflag": 2000.0, "nfsd": 4000.0, "ref": 500.0,
        "rr": 5000.0}
WL = {  # workload -> (kind per server, conns, proc, size)
    "null-tcp": ([1, 4, 16, 64], "null", 0),
    "null-udp": ([16], "null", 0),
    "echo-4k": ([16], "echo", 4096),
    "sleep-1ms": ([64], "sleep", 0),
    "threads-4-16-4": ([64], "null", 0),
}
SERVERS = {"null-tcp": ["lock", "bitflag", "nfsd", "ref", "rr"],
           "null-udp": ["lock", "bitflag", "nfsd", "ref"],
           "echo-4k": ["lock", "bitflag", "ref", "rr"],
           "sleep-1ms": ["lock", "bitflag", "ref"],
           "threads-4-16-4": ["lock", "bitflag"]}


def tool_json(server, wl, conns, rate, ok=True, failures=0, size=0):
    calls = int(rate)
    okc = calls - failures
    return {
        "tool": "rr-client" if server == "rr" else "rpcload", "version": 1,
        "params": {"host": "127.0.0.1", "port": 20049, "proto": "tcp",
                   "conns": conns, "proc": WL[wl][1], "size": size,
                   "duration_s": 1.0, "calls_limit": 0, "seed": 1},
        "result": {"calls": calls, "ok": okc, "failures": failures,
                   "timeouts": 0, "mismatches": 0, "elapsed_s": 1.0,
                   "ops_per_s": float(okc), "mb_per_s": 2.0 * size * okc / 1e6,
                   "latency_us": {"p50": 100.0, "p90": 200.0, "p99": 1e6 / rate,
                                  "p999": 2e6 / rate, "max": 5e6 / rate,
                                  "mean": 120.0},
                   "first_error": "conn 1: RPC: Timed out" if failures else None}}


def svcsock(calls, server, extra=None):
    base = {"calls_null": 10, "calls_echo": 0, "calls_sleep": 0,
            "sv_lock_acquired": 100, "sv_lock_contended": 1,
            "sk_lock_acquired": 50, "sk_lock_contended": 0,
            "enqueue_calls": 10, "enqueue_busy": 0, "threads_woken": 5,
            "garbage": 0, "reply_system_err": 0, "threads": 4, "sockets": 0}
    after = dict(base)
    after["calls_null"] += calls
    after["sv_lock_acquired"] += 3 * calls
    after["sv_lock_contended"] += calls // 10
    if server == "lock":
        after["sk_lock_acquired"] += 2 * calls
        after["sk_lock_contended"] += calls // 100
    after["enqueue_calls"] += calls
    after["enqueue_busy"] += calls // 4
    after["threads_woken"] += calls // 2
    after["sockets"] = 16
    for k, v in (extra or {}).items():
        after[k] += v
    return base, after


def make_log(path, smp, reps=3, fail=None, skip=None, server_err=None,
             bad_line=False, vm_status=0):
    """A SYNTHETIC console log as run-cells and compare would write it."""
    lines = ["BENCH-SYNTHETIC: made up by bench/tests/test_compare.py",
             "BENCH-INFO: " + json.dumps({"nproc": smp, "mem_kb": 2000000,
                                          "kernel": "6.1.0-synthetic",
                                          "cpu_model": "synthetic",
                                          "threads": 4, "in_guest": 1,
                                          "uptime_s": 5.0})]
    rid = 0
    for rep in range(1, reps + 1):
        for wl, servers in SERVERS.items():
            if smp != 2 and wl != "null-tcp":
                continue
            conns_l, proc, size = WL[wl]
            for server in servers:
                for conns in conns_l:
                    rid += 1
                    kind = ("rr" if server == "rr" else
                            "tchange" if wl == "threads-4-16-4" else "rpcload")
                    key = (server, wl, conns)
                    j = {"id": rid, "rep": rep, "server": server, "wl": wl,
                         "kind": kind, "conns": conns, "nproc": smp}
                    if skip == key:
                        j.update({"skipped": "server did not start: synthetic",
                                  "rc": -1, "out": None})
                    else:
                        rate = RATE[server] * (1 + 0.01 * rep) * (conns ** 0.25)
                        nfail = 3 if (fail == key and rep == 2) else 0
                        out = tool_json(server, wl, conns, rate,
                                        failures=nfail, size=size)
                        before = after = None
                        if server in ("lock", "bitflag"):
                            extra = server_err if (server_err and server_err[0] == key
                                                   and rep == 1) else None
                            before, after = svcsock(out["result"]["ok"], server,
                                                    extra[1] if extra else None)
                        j.update({"rc": 1 if nfail else 0, "t0": 10.0, "t1": 11.5,
                                  "threads_seen": [4, 16, 4, 4] if kind == "tchange" else [],
                                  "stderr": "", "svcsock_before": before,
                                  "svcsock_after": after, "out": out})
                    lines.append("BENCH-PROGRESS: %d/x server=%s" % (rid, server))
                    lines.append("BENCH-JSON: " + json.dumps(j))
    if smp == 2:
        rid += 1
        end = {"sum_received": {"bytes": 50_000_000, "seconds": 1.0,
                                "bits_per_second": 4e8},
               "sum_received_bidir_reverse": {"bytes": 30_000_000,
                                              "seconds": 1.0,
                                              "bits_per_second": 2.4e8},
               "sum_sent": {"retransmits": 0},
               "sum_sent_bidir_reverse": {"retransmits": 1}}
        lines.append("BENCH-JSON: " + json.dumps({
            "id": rid, "rep": 1, "server": "iperf", "wl": "tcp-bw",
            "kind": "iperf", "conns": 1, "nproc": smp, "rc": 0, "t0": 1,
            "t1": 2, "threads_seen": [], "stderr": "", "svcsock_before": None,
            "svcsock_after": None, "out": {"start": {}, "end": end}}))
    if bad_line:
        lines.append('BENCH-JSON: {"id": 999, "rep": 1, "server": "lock", broken')
    lines.append("BENCH-DONE: %d" % rid)
    lines.append("COMPARE-VM-RUN-STATUS: %d" % vm_status)
    with open(path, "w") as f:
        f.write("some kernel noise\n" + "\n".join(lines) + "\n")


class CompareTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="test-compare.")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def run_compare(self, logs):
        res = os.path.join(self.dir, "results")
        p = subprocess.run([sys.executable, COMPARE, "--results", res,
                            "--from-logs"] + logs, capture_output=True,
                           text=True, timeout=120)
        with open(os.path.join(res, "compare.json")) as f:
            doc = json.load(f)
        with open(os.path.join(res, "compare.md")) as f:
            md = f.read()
        return p, doc, md, res

    def logs(self, **kw2):
        paths = []
        for smp in (2, 4):
            p = os.path.join(self.dir, "console-smp%d.log" % smp)
            make_log(p, smp, **(kw2 if smp == 2 else {}))
            paths.append(p)
        return paths

    def row(self, doc, smp, wl, conns):
        for r in doc["rows"]:
            if (r["smp"], r["workload"], r["conns"]) == (smp, wl, conns):
                return r
        self.fail("no row %s %s %s" % (smp, wl, conns))

    def cell(self, doc, smp, wl, conns, server):
        for c in doc["cells"]:
            if (c["smp"], c["workload"], c["conns"], c["server"]) == (smp, wl, conns, server):
                return c
        self.fail("no cell")

    def test_clean_run(self):
        p, doc, md, res = self.run_compare(self.logs())
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertTrue(doc["ok"])
        self.assertTrue(doc["synthetic"])
        self.assertIn("SYNTHETIC", md)
        self.assertIn("SYNTHETIC", p.stdout)
        self.assertEqual(doc["schema"], "svcsock-compare")
        self.assertEqual(doc["settings"]["reps"], 3)
        self.assertEqual(doc["settings"]["smp"], [2, 4])
        self.assertEqual(doc["errors_total"], 0)
        # medians: rep 2 of 3 (1.02 x); ratio bitflag/lock = 2
        r = self.row(doc, 2, "null-tcp", 1)
        self.assertAlmostEqual(r["bitflag_over_lock"], 2.0, places=2)
        self.assertAlmostEqual(r["bitflag_over_nfsd"], 0.5, places=2)
        self.assertAlmostEqual(r["bitflag_over_ceiling"], 0.4, places=2)
        self.assertEqual(r["ceiling"], "rr")
        c = self.cell(doc, 2, "null-tcp", 1, "lock")
        self.assertEqual(c["n"], 3)
        self.assertAlmostEqual(c["ops_per_s"]["median"], 1020, delta=1)
        self.assertAlmostEqual(c["ops_per_s"]["spread_pct"], 100 * 20 / 1020, delta=0.1)
        # module statistics per 1000 calls
        pk = c["svcsock_per_kcall"]
        self.assertAlmostEqual(pk["sv_lock_acquired"], 3000, delta=1)
        self.assertAlmostEqual(pk["sk_lock_acquired"], 2000, delta=1)
        self.assertAlmostEqual(pk["enqueue_busy"], 250, delta=5)
        self.assertAlmostEqual(pk["threads_woken"], 500, delta=2)
        pkb = self.cell(doc, 2, "null-tcp", 1, "bitflag")["svcsock_per_kcall"]
        self.assertEqual(pkb["sk_lock_acquired"], 0)
        # SLEEP ceiling is the ideal rate, UDP has none, ECHO vs iperf3
        self.assertEqual(self.row(doc, 2, "sleep-1ms", 64)["ceiling"], "ideal")
        self.assertEqual(self.row(doc, 2, "sleep-1ms", 64)["ceiling_ops_per_s"], 4000)
        self.assertIsNone(self.row(doc, 2, "null-udp", 16)["bitflag_over_ceiling"])
        e = self.row(doc, 2, "echo-4k", 16)
        self.assertEqual(e["iperf_mb_per_s"], 80.0)
        self.assertIsNotNone(e["bitflag_mb_over_iperf"])
        t = self.cell(doc, 2, "threads-4-16-4", 64, "bitflag")
        self.assertTrue(t["threads_change_seen"])
        # 4-CPU guest: null-tcp only
        self.assertTrue(any(c["smp"] == 4 for c in doc["cells"]))
        self.assertFalse(any(c["smp"] == 4 and c["workload"] != "null-tcp"
                             for c in doc["cells"]))
        self.assertIn("bitflag/lock", md)
        self.assertIn("| 2 | NULL over TCP | 16 |", md)
        if shutil.which("gnuplot"):
            self.assertTrue(os.path.getsize(os.path.join(res, "compare.png")) > 1000)

    def test_failed_calls_are_flagged(self):
        p, doc, md, _ = self.run_compare(self.logs(fail=("bitflag", "null-tcp", 16)))
        self.assertEqual(p.returncode, 1)
        self.assertFalse(doc["ok"])
        c = self.cell(doc, 2, "null-tcp", 16, "bitflag")
        self.assertEqual(c["status"], "errors")
        self.assertEqual(c["errors"], 3)
        self.assertIn("Timed out", " ".join(c["error_detail"]))
        self.assertEqual(doc["cells_with_errors"], 1)
        self.assertIn("ERR", p.stdout)
        self.assertIn("!!!", p.stdout)
        self.assertIn("**3**", md)

    def test_not_run_is_flagged(self):
        p, doc, md, _ = self.run_compare(self.logs(skip=("nfsd", "null-tcp", 4)))
        self.assertEqual(p.returncode, 1)
        c = self.cell(doc, 2, "null-tcp", 4, "nfsd")
        self.assertEqual(c["status"], "not-run")
        self.assertEqual(doc["cells_not_run"], 1)
        self.assertIn("NOT RUN", p.stdout)
        self.assertIsNone(self.row(doc, 2, "null-tcp", 4)["bitflag_over_nfsd"])

    def test_server_error_counters_count(self):
        p, doc, _, _ = self.run_compare(self.logs(
            server_err=(("lock", "null-udp", 16), {"garbage": 2})))
        self.assertEqual(p.returncode, 1)
        c = self.cell(doc, 2, "null-udp", 16, "lock")
        self.assertEqual(c["status"], "errors")
        self.assertEqual(c["runs"][0]["server_errors"], {"garbage": 2})

    def test_bad_line_and_guest_status(self):
        p, doc, _, _ = self.run_compare(self.logs(bad_line=True, vm_status=122))
        self.assertEqual(p.returncode, 1)
        g = [g for g in doc["guests"] if g["smp"] == 2][0]
        self.assertEqual(len(g["bad_lines"]), 1)
        self.assertEqual(g["vm_run_status"], 122)
        self.assertIn("vm-run status 122", p.stdout)

    def test_dry_run_plan(self):
        p = subprocess.run([sys.executable, COMPARE, "--dry-run"],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 0)
        runs = [l for l in p.stdout.splitlines() if l.startswith("run ")]
        # 47 cells with 2 CPUs + 24 with 4, 3 runs each
        self.assertEqual(len(runs), (47 + 24) * 3)
        # interleaved: each round runs every server before the next round
        reps = [int(l.split("rep=")[1].split()[0]) for l in runs]
        self.assertEqual(reps[:38], [1] * 38)
        p = subprocess.run([sys.executable, COMPARE, "--dry-run", "--quick"],
                           capture_output=True, text=True, timeout=60)
        est = p.stdout.strip().splitlines()[-1]
        mins, secs = est.split("estimated ")[1].split(":")
        self.assertLessEqual(int(mins) * 60 + int(secs), 120, est)


class TapResult(unittest.TestResult):
    """One TAP line per test; the failure's traceback as comments."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.n = 0

    def point(self, test, ok, why=""):
        self.n += 1
        print("%s %d - %s%s" % ("ok" if ok else "not ok", self.n,
                                test.id().split(".")[-1], why), flush=True)

    def addSuccess(self, test):
        super().addSuccess(test)
        self.point(test, True)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.point(test, False)
        print("".join("# %s\n" % l for l in self.failures[-1][1].splitlines()), end="")

    def addError(self, test, err):
        super().addError(test, err)
        self.point(test, False, " # error")
        print("".join("# %s\n" % l for l in self.errors[-1][1].splitlines()), end="")

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.point(test, True, " # SKIP " + reason)


def main_tap():
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__])
    print("1..%d" % suite.countTestCases(), flush=True)
    result = TapResult()
    suite.run(result)
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    if sys.argv[1:] == ["--tap"]:
        sys.exit(main_tap())
    unittest.main(verbosity=2)
