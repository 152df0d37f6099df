#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench/compare end to end on SYNTHETIC guest output (bench/tests/synth.py):
parsing, aggregation, ratios and their verdicts, error flagging, the
outputs, --from-json and the plan.  Nothing is booted.

Run: python3 bench/tests/run   (every bench test; --tap for TAP)
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import synth  # noqa: E402


class CompareTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="test-compare.")
        self.kbuild = synth.kbuild(os.path.join(self.dir, "Kbuild"))

    def tearDown(self):
        shutil.rmtree(self.dir)

    def compare(self, *args, env=None):
        return subprocess.run([sys.executable, synth.COMPARE, "--kbuild",
                               self.kbuild] + list(args), capture_output=True,
                              text=True, timeout=120, env=env)

    def run_compare(self, logs):
        res = os.path.join(self.dir, "results")
        p = self.compare("--results", res, "--from-logs", *logs)
        with open(os.path.join(res, "compare.json")) as f:
            doc = json.load(f)
        with open(os.path.join(res, "compare.md")) as f:
            md = f.read()
        return p, doc, md, res

    def logs(self, **kw):
        paths = []
        for smp in (2, 4):
            p = os.path.join(self.dir, "console-smp%d.log" % smp)
            synth.make_log(p, smp, **(kw if smp == 2 else {}))
            paths.append(p)
        return paths

    def row(self, doc, smp, wl, conns):
        for r in doc["rows"]:
            if (r["smp"], r["workload"], r["conns"]) == (smp, wl, conns):
                return r
        self.fail("no row %s %s %s" % (smp, wl, conns))

    def ratio(self, row, num, den, measure="ops_per_s"):
        for r in row["ratios"]:
            if (r["num"], r["den"], r["measure"]) == (num, den, measure):
                return r
        self.fail("no ratio %s/%s" % (num, den))

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
        self.assertEqual((doc["schema"], doc["schema_version"]), ("svcsock-compare", 3))
        self.assertEqual(doc["builds"], synth.BUILDS)
        self.assertEqual(doc["settings"]["reps"], 3)
        self.assertEqual(doc["settings"]["smp"], [2, 4])
        self.assertEqual(doc["errors_total"], 0)
        # medians: round 2 of 3 (1.02 x); a real difference and ties
        r = self.row(doc, 2, "null-tcp", 1)
        bl = self.ratio(r, "bitflag", "lock")
        self.assertAlmostEqual(bl["value"], 2.0, places=2)
        self.assertEqual(bl["verdict"], "faster")
        self.assertLess(bl["lo"], 2.0)
        self.assertGreater(bl["hi"], 2.0)
        self.assertEqual(self.ratio(r, "bitlock", "bitflag")["verdict"], "tie")
        self.assertEqual(self.ratio(r, "queued", "lock")["verdict"], "tie")
        self.assertEqual(self.ratio(r, "queued", "bitlock")["verdict"], "slower")
        self.assertEqual(self.ratio(r, "bitflag", "nfsd")["verdict"], "slower")
        self.assertAlmostEqual(self.ratio(r, "bitflag", "reference")["value"], 0.4, places=2)
        self.assertEqual(r["reference"]["kind"], "rr")
        # the lineage: bitflag over lock once, not again as its predecessor
        self.assertEqual(len([x for x in r["ratios"] if (x["num"], x["den"]) ==
                              ("bitflag", "lock")]), 1)
        c = self.cell(doc, 2, "null-tcp", 1, "lock")
        self.assertEqual(c["n"], 3)
        self.assertAlmostEqual(c["ops_per_s"]["median"], 1020, delta=1)
        self.assertAlmostEqual(c["ops_per_s"]["spread_pct"], 100 * 20 / 1020, delta=0.1)
        pc = c["per_call"]
        self.assertAlmostEqual(pc["sv_lock_acquired"]["median"], 3, delta=0.01)
        self.assertAlmostEqual(pc["sk_lock_acquired"]["median"], 2, delta=0.01)
        self.assertIsNone(pc["lwq_lock_acquired"])
        q = self.cell(doc, 2, "null-tcp", 1, "queued")
        self.assertAlmostEqual(q["per_call"]["flag_rmw"]["median"], 5, delta=0.01)
        # owner wait: 98% in [1024, 2048) ns: p50 interpolated at 1024 x
        # (1 + 50/98), p99 in bucket 14
        self.assertAlmostEqual(q["owner_wait_ns"]["p50"]["median"],
                               1024 * (1 + 50 / 98.0), delta=2)
        self.assertTrue(16384 <= q["owner_wait_ns"]["p99"]["median"] < 32768)
        # SLEEP: the ideal reference, a fraction of it; UDP: none
        s = self.row(doc, 2, "sleep-1ms", 64)
        self.assertEqual(s["reference"]["kind"], "ideal")
        self.assertEqual(s["reference"]["ops_per_s"], 4000)
        self.assertEqual(self.ratio(s, "lock", "reference")["verdict"], "slower")
        self.assertIsNone(self.row(doc, 2, "null-udp", 16)["reference"])
        e = self.row(doc, 2, "echo-4k", 16)
        self.assertEqual(e["iperf_mb_per_s"], 80.0)
        self.ratio(e, "bitflag", "iperf", "mb_per_s")
        self.assertTrue(self.cell(doc, 2, "threads-4-16-4", 64, "bitflag")["threads_change_seen"])
        self.assertEqual(self.row(doc, 2, "threads-4-16-4", 64)["reference"]["of"],
                         "rr null-tcp c64")
        # 4-CPU guest: null-tcp only
        self.assertTrue(any(c["smp"] == 4 for c in doc["cells"]))
        self.assertFalse(any(c["smp"] == 4 and c["workload"] != "null-tcp"
                             for c in doc["cells"]))
        # what repeats leads, on the terminal and in compare.md
        for out in (p.stdout, md):
            self.assertLess(out.index("Cost per call"), out.index("Throughput"))
            for b in synth.BUILDS:
                self.assertRegex(out, r"\|? *%s *\|? +\S" % b)
        self.assertIn("tie (", p.stdout)
        self.assertIn("**2.00 (", md)
        self.assertNotIn("ceiling", md + p.stdout)
        if shutil.which("gnuplot"):
            self.assertTrue(os.path.getsize(os.path.join(res, "compare.png")) > 1000)
            for b in synth.BUILDS:
                self.assertTrue(os.path.exists(os.path.join(
                    res, "plot-data", "null-tcp-smp2-%s.dat" % b)))

    def test_from_json_renders_the_same(self):
        p, doc, md, res = self.run_compare(self.logs())
        again = os.path.join(self.dir, "again")
        q = self.compare("--results", again, "--from-json",
                         os.path.join(res, "compare.json"))
        self.assertEqual(q.returncode, 0, q.stderr)
        with open(os.path.join(again, "compare.md")) as f:
            self.assertEqual(f.read(), md)
        self.assertEqual(q.stdout.split("results:")[0], p.stdout.split("results:")[0])

    def test_logs_directory(self):
        logs = self.logs()
        p, doc, _, _ = self.run_compare([self.dir])
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(len(doc["guests"]), len(logs))

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
        self.assertIn("bitflag, 2 CPUs, null-tcp c16: errors", md)

    def test_not_run_is_flagged(self):
        p, doc, md, _ = self.run_compare(self.logs(skip=("nfsd", "null-tcp", 4)))
        self.assertEqual(p.returncode, 1)
        self.assertEqual(self.cell(doc, 2, "null-tcp", 4, "nfsd")["status"], "not-run")
        self.assertEqual(doc["cells_not_run"], 1)
        self.assertIn("NOT RUN", p.stdout)
        r = self.row(doc, 2, "null-tcp", 4)
        self.assertFalse([x for x in r["ratios"] if x["den"] == "nfsd"])

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

    def test_saved_settings_are_used(self):
        saved = {"reps": 3, "min_duration": 4.0, "min_calls": 1500,
                 "warmup": 0.5, "builds": synth.BUILDS, "dropped": [
                     {"smp": 2, "workload": "echo-64k", "conns": 16,
                      "servers": ["lock"], "reason": "over the time budget"}]}
        p, doc, md, _ = self.run_compare(self.logs(settings=saved))
        self.assertEqual(doc["settings"]["min_duration_s"], 4.0)
        self.assertEqual(doc["dropped_cells"][0]["workload"], "echo-64k")
        self.assertIn("echo-64k c16 (lock): over the time budget", p.stdout)
        self.assertIn("## Dropped from the plan", md)

    def dry_run(self, *args):
        p = self.compare("--dry-run", *args)
        self.assertEqual(p.returncode, 0, p.stderr)
        runs = [l for l in p.stdout.splitlines() if l.startswith("run ")]
        notes = [l for l in p.stdout.splitlines() if l.startswith("# ")]
        self.guests = [[int(x.split("rep=")[1].split()[0]) for x in g.splitlines()
                        if x.startswith("run ")]
                       for g in p.stdout.split("# guest with ")[1:]]
        return runs, notes

    def test_dry_run_plan(self):
        runs, notes = self.dry_run("--budget", "0")
        durs = [float(re.search(r" dur=(\S+)", l).group(1)) for l in runs]
        self.assertGreaterEqual(min(durs), 2.0)
        # the rows with pipelined cells are planned, or dropped saying why
        for wl in ("null-tcp-d8", "null-tcp-d64", "sleep-1ms-d64"):
            planned = any(" wl=%s " % wl in l for l in runs)
            said = any(wl in l and "--depth" in l for l in notes)
            self.assertTrue(planned != said, wl)
        # interleaved: each round runs every server before the next round
        self.assertEqual(len(self.guests), 2)
        for reps in self.guests:
            self.assertEqual(reps, sorted(reps))
            self.assertEqual(set(reps), {1, 2, 3})
        servers = set(re.search(r" server=(\S+)", l).group(1) for l in runs)
        self.assertTrue(set(synth.BUILDS) <= servers)

    def test_paired_cell(self):
        """A paired cell (synth.paired_lines) -> paired, aa, paired_cpu,
        the cell's costs and flagged slices, and both renderings."""
        paths = []
        for smp in (2, 4):
            p = os.path.join(self.dir, "console-smp%d.log" % smp)
            synth.make_log(p, smp, paired=16)
            paths.append(p)
        p, doc, md, res = self.run_compare(paths)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertEqual(len(doc["paired_cells"]), 2)
        e = {(x["smp"], x["a"], x["b"]): x for x in doc["paired"]}
        for x in doc["paired"]:
            for k in ("smp", "workload", "conns", "a", "b", "ratio", "ci95",
                      "verdict"):
                self.assertIn(k, x)
        # 10 pairs of the four builds and nfsd, and the A/A arm
        self.assertEqual(len([x for x in doc["paired"] if x["smp"] == 2]), 11)
        for smp in (2, 4):
            bl = e[(smp, "bitflag", "lock")]
            self.assertEqual(bl["verdict"], "faster")
            self.assertTrue(bl["ci95"][0] <= 2.0 <= bl["ci95"][1], bl)
            # equal servers: never called different (the synthetic host
            # swings 2x over the cell: 6 rounds do not always resolve 5%)
            for a in ("bitlock", "bitflag_aa"):
                x = e[(smp, a, "bitflag")]
                self.assertIn(x["verdict"], ("equal", "unresolved"), x)
                self.assertTrue(x["ci95"][0] <= 1.0 <= x["ci95"][1], x)
            self.assertTrue(e[(smp, "bitflag_aa", "bitflag")]["aa"])
            self.assertNotIn((smp, "bitlock", "bitflag_aa"), e)
        self.assertEqual(doc["aa"]["cells"], 2)
        self.assertEqual(doc["aa"]["called_different"], 0)
        self.assertEqual(doc["aa"]["false_rate"], 0)
        for k in ("cells", "called_different", "false_rate", "median_halfwidth"):
            self.assertIn(k, doc["aa"])
        # host CPU per call: made up as 1 / (2 x rate), so bitflag is half
        # lock's cost per call: 2x the calls per host CPU second
        cpu = {(x["smp"], x["a"], x["b"]): x for x in doc["paired_cpu"]}
        self.assertAlmostEqual(cpu[(2, "bitflag", "lock")]["ratio"], 2.0, delta=0.05)
        c = doc["paired_cells"][0]
        self.assertEqual(c["slices_host_busy"], 1)      # slice 3's
        self.assertTrue(c["slices"][2]["host_busy"])
        self.assertEqual(c["slices_with_host_cpu"], len(c["slices"]))
        lock = c["targets"]["lock"]
        self.assertAlmostEqual(lock["per_call"]["sv_lock_acquired"], 3, delta=0.01)
        self.assertAlmostEqual(lock["host_cpu_us_per_call"]["median"], 500, delta=1)
        self.assertAlmostEqual(lock["enqueue_ns"]["mean"], 1500, delta=1)
        self.assertEqual(len(lock["enqueue_hist"]), 40)
        self.assertAlmostEqual(c["targets"]["bitflag"]["enqueue_ns"]["mean"], 700, delta=1)
        self.assertIn("Paired comparison", md)
        self.assertIn("A/A arm", md)
        self.assertIn("Paired comparison", p.stdout)
        # bench/agree: a run agrees with itself; a changed verdict is seen
        agree = os.path.join(os.path.dirname(synth.COMPARE), "agree")
        one = os.path.join(res, "compare.json")
        q = subprocess.run([sys.executable, agree, one, one],
                           capture_output=True, text=True)
        self.assertEqual(q.returncode, 0, q.stderr)
        self.assertIn("verdicts agree: 22 of 22 pairs (100%)", q.stdout)
        doc["paired"][1]["verdict"] = "slower"
        other = os.path.join(self.dir, "other.json")
        with open(other, "w") as f:
            json.dump(doc, f)
        q = subprocess.run([sys.executable, agree, one, other],
                           capture_output=True, text=True)
        self.assertIn("verdicts agree: 21 of 22 pairs", q.stdout)
        self.assertIn(" NO", q.stdout)

    def test_nfs_cell(self):
        """A paired NFS cell (synth.nfs_lines) -> its paired entries, the
        mounts, the modules' NFS calls as the per-call denominator, and
        the NFS workload described."""
        p = os.path.join(self.dir, "console-smp2.log")
        synth.make_log(p, 2, nfs=True)
        p, doc, md, res = self.run_compare([p])
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        c = [x for x in doc["paired_cells"] if x["workload"] == "nfs-seq"]
        self.assertEqual(len(c), 1)
        c = c[0]
        self.assertEqual(c["status"], "ok")
        self.assertEqual(c["conns"], 4)
        self.assertIn("rsize=262144", c["mounts"]["nfsd"])
        # every operation two NFS calls: the per-call counts are over them
        lock = c["targets"]["lock"]
        self.assertEqual(lock["calls"], 2 * sum(
            s["ok"] for s in c["slices"] if s["target"] == "lock"))
        self.assertAlmostEqual(lock["per_call"]["sv_lock_acquired"], 3, delta=0.01)
        self.assertNotIn("per_call", c["targets"]["nfsd"])
        e = {(x["a"], x["b"]): x for x in doc["paired"]
             if x["workload"] == "nfs-seq"}
        # made-up rates: nfsd 60, queued 45, bitflag = bitlock 40, lock 30
        self.assertEqual(e[("nfsd", "queued")]["verdict"], "faster")
        self.assertAlmostEqual(e[("nfsd", "queued")]["ratio"], 4 / 3, delta=0.05)
        self.assertIn(e[("bitlock", "bitflag")]["verdict"], ("equal", "unresolved"))
        self.assertEqual(e[("bitflag", "lock")]["verdict"], "faster")
        self.assertEqual(doc["workloads"]["nfs-seq"]["proto"], "nfs")
        self.assertIn("nfs-seq", md)
        self.assertIn("nfs-slices", md)

    def test_nfs_cells_planned(self):
        """The NFS cells: three, in the first guest, every build and nfsd,
        12 rounds in whole blocks of the design; none under QUICK (said)
        or NFS=0."""
        p = self.compare("--dry-run")
        self.assertEqual(p.returncode, 0, p.stderr)
        guests = p.stdout.split("# guest with ")[1:]
        first = [l for l in guests[0].splitlines() if l.startswith("nfs ")]
        self.assertEqual([re.search(r" wl=(\S+)", l).group(1) for l in first],
                         ["nfs-seq", "nfs-rand", "nfs-meta"])
        self.assertFalse([l for g in guests[1:] for l in g.splitlines()
                          if l.startswith("nfs ")])
        servers = re.search(r" servers=(\S+)", first[0]).group(1).split(",")
        self.assertEqual(servers, synth.BUILDS + ["nfsd"])
        n = len(servers)
        sl = float(re.search(r" slice=(\S+)", first[0]).group(1))
        dur = float(re.search(r" duration=(\S+)", first[0]).group(1))
        # NFS_ROUNDS (12) rounded up to whole blocks of the design
        block = n if n % 2 == 0 else 2 * n
        self.assertEqual(round((dur - 0.5) / (n * sl)), -(-12 // block) * block)
        self.assertIn(" opts=noac,lookupcache=none ", first[2])
        q = self.compare("--dry-run", "--quick")
        self.assertNotIn("\nnfs ", q.stdout)
        self.assertIn("QUICK runs no NFS cell", q.stdout)
        z = self.compare("--dry-run", "--nfs", "0")
        self.assertNotIn("\nnfs ", z.stdout)
        self.assertNotIn("NFS cell", z.stdout)

    def test_budget_drops_rows_not_run_length(self):
        full, _ = self.dry_run("--budget", "0", "--workloads", "null-tcp",
                               "--paired", "0")
        cut, notes = self.dry_run("--budget", "200", "--workloads", "null-tcp",
                                  "--paired", "0")
        self.assertLess(len(cut), len(full))
        dropped = [l for l in notes if l.startswith("# dropped") and "budget" in l]
        self.assertTrue(dropped)
        dur = lambda ls: sorted(set(re.search(r" dur=(\S+)", l).group(1) for l in ls))
        self.assertTrue(set(dur(cut)) <= set(dur(full)))
        # the most important row stays: 1 connection, first guest
        self.assertTrue(any(" conns=1 " in l for l in cut))
        self.assertFalse(any("2 CPUs null-tcp c1 " in l for l in dropped))
        quick, notes = self.dry_run("--quick")
        est = notes[-1].split("estimated ")[1].split(":")
        self.assertLessEqual(int(est[0]) * 60 + int(est[1]), 120, notes[-1])


    def paired_lines(self, *args):
        p = self.compare("--dry-run", *args)
        self.assertEqual(p.returncode, 0, p.stderr)
        out = []
        for guest in p.stdout.split("# guest with ")[1:]:
            smp = int(guest.split()[0])
            for l in guest.splitlines():
                if l.startswith("slices "):
                    n = len(re.search(r" servers=(\S+)", l).group(1).split(","))
                    sl = float(re.search(r" slice=(\S+)", l).group(1))
                    dur = float(re.search(r" duration=(\S+)", l).group(1))
                    out.append((smp, int(re.search(r" conns=(\d+)", l).group(1)),
                                round((dur - 0.5) / (n * sl))))
        return out

    def test_paired_rounds_go_to_the_judged_cells(self):
        # one block of the design everywhere (b rounds: the servers'
        # count, twice it when odd), then what the budget leaves to the
        # first guest's cells, a whole block at a time to each in turn
        cells = self.paired_lines("--budget", "1", "--paired-budget", "0")
        self.assertEqual(len(cells), 6, cells)
        b = cells[0][2]
        self.assertEqual({r for _, _, r in cells}, {b})
        for budget in (2000, 1200):
            cells = self.paired_lines("--budget", "1", "--paired-budget", str(budget))
            first = [r for smp, _, r in cells if smp == 2]
            second = [r for smp, _, r in cells if smp == 4]
            self.assertEqual(second, [b] * 3, budget)
            self.assertEqual(len(set(first)), 1, (budget, first))
            self.assertEqual(first[0] % b, 0)
            self.assertGreater(first[0], b, budget)
        # more budget, more rounds
        more = self.paired_lines("--budget", "1", "--paired-budget", "2000")
        less = self.paired_lines("--budget", "1", "--paired-budget", "1200")
        self.assertGreater(more[0][2], less[0][2])
        # PAIRED_ROUNDS: every cell the same, whole blocks
        cells = self.paired_lines("--budget", "1", "--paired-rounds", str(b + 1))
        self.assertEqual({r for _, _, r in cells}, {2 * b})
        # only one block fits: the first guest's first cell
        cells = self.paired_lines("--budget", "1", "--paired-budget", "10")
        self.assertEqual([(smp, r) for smp, _, r in cells], [(2, b)])


class ClientCpuTest(unittest.TestCase):
    """CLIENT_CPU: the load tools run under taskset -c N in the guest."""

    def test_bad_client_cpu_is_refused(self):
        p = subprocess.run([sys.executable, synth.COMPARE, "--dry-run",
                            "--client-cpu", "one"], capture_output=True,
                           text=True, timeout=60)
        self.assertEqual(p.returncode, 2, p.stdout)
        self.assertIn("CLIENT_CPU", p.stderr)

    def test_run_cells_pins_the_load_tool(self):
        """run-cells on this host (it runs rr outside a guest), with a
        taskset on PATH that logs its words and runs the command."""
        build = os.path.join(synth.BENCH, "build")
        if not os.access(os.path.join(build, "rr-client"), os.X_OK):
            self.skipTest("bench/build/rr-client not built (make -C bench)")
        d = tempfile.mkdtemp(prefix="test-client-cpu.")
        self.addCleanup(shutil.rmtree, d)
        log = os.path.join(d, "taskset.log")
        with open(os.path.join(d, "taskset"), "w") as f:
            f.write('#!/bin/sh\necho "$*" >>%s\nshift 2\nexec "$@"\n' % log)
        os.chmod(os.path.join(d, "taskset"), 0o755)
        plan = os.path.join(d, "plan")
        with open(plan, "w") as f:
            f.write("run id=1 rep=1 server=rr wl=null-tcp kind=rr proto=tcp "
                    "proc=null conns=1 size=0 sleep_us=0 depth=0 dur=0.3 "
                    "warmup=0\n")
        for cpu, want in (("0", "-c 0 rr-client"), ("", None)):
            if os.path.exists(log):
                os.unlink(log)
            env = dict(os.environ, PATH=d + ":" + build + ":" + os.environ["PATH"],
                       BENCH_CLIENT_CPU=cpu, BENCH_RR_PORT="20151", TMPDIR=d)
            env.pop("SVCSOCK_VM", None)
            p = subprocess.run(["sh", os.path.join(synth.BENCH, "guest", "run-cells"),
                                plan], capture_output=True, text=True,
                               timeout=60, env=env)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            self.assertIn('"rc":0', p.stdout)
            words = open(log).read() if os.path.exists(log) else ""
            if want:
                self.assertTrue(words.startswith(want), words)
            else:
                self.assertEqual(words, "")


if __name__ == "__main__":
    unittest.main(verbosity=2)
