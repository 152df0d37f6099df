#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench/soak's host side (comparelib/soak.py) on SYNTHETIC guest output:
the parser, the slope, the comparison of the late slices with the early
ones, that every check passes on a clean soak and that each can fail,
the document and both renderings.  Nothing is booted."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
sys.path.insert(0, BENCH)
from comparelib import soak  # noqa: E402

MODES = soak.MODES
# what each hostile mode does to the good load's rate (slowlive halves it)
MODE_RATE = {"zerofrag": 2400, "slowread": 2200, "slowlive": 1200, "rststorm": 2000}


def load_json(ops, p99_us=30000.0, failures=0, timeouts=0, slice_s=10,
              error=None):
    calls = int(ops * slice_s)
    doc = {"tool": "rpcload", "version": 1, "params": {"conns": 16},
           "result": {"calls": calls + failures + timeouts,
                      "ok": calls, "failures": failures,
                      "timeouts": timeouts, "mismatches": 0,
                      "elapsed_s": float(slice_s), "ops_per_s": float(ops),
                      "latency_us": {"p50": 5000.0, "p90": 9000.0,
                                     "p99": float(p99_us), "p999": 1.0,
                                     "max": 1.0, "mean": 1.0}}}
    if error:
        doc["error"] = error
    return json.dumps(doc)


def synth(build="bitflag", n=12, slice_s=10, ops=None, p99=None, kmem=None,
          before=13000, after=13300, churn_refused=0, drain_sockets=0,
          rmmod_rc=0, rmmod_s=0.3, failures=0, hostile_rc=0, closed_less=0,
          modprobe="ok", end=True, drop_slices=0, orphans_at=0, orphans_left=0):
    """One build's SOAK lines (synthetic).  ops, p99, kmem: functions of
    the slice's index (from 1) and mode."""
    ops = ops or (lambda i, m: MODE_RATE[m])
    p99 = p99 or (lambda i, m: 30000.0)
    kmem = kmem or (lambda i, m: 29000 + (200 if m == "slowread" else 0))
    out = ["SOAK-MEM: %s before kmem=%d sunreclaim=%d vmalloc=5700 slab=17000" % (
        build, before, before - 5700)]
    if modprobe != "ok":
        return out + ["SOAK-BEGIN: %s modprobe=fail" % build, "SOAK-END: %s" % build]
    out += ["SOAK-MEM: %s loaded kmem=29000 sunreclaim=23300 vmalloc=5700 slab=33000" % build,
            "SOAK-BEGIN: %s modprobe=ok slices=%d slice=%d threads=4" % (build, n, slice_s)]
    acc = 0
    for i in range(1, n + 1 - drop_slices):
        m = MODES[(i - 1) % 4]
        t0, t1 = (i - 1) * (slice_s + 1.5), (i - 1) * (slice_s + 1.5) + slice_s + 1
        k = kmem(i, m)
        acc += 900
        out += [
            "SOAK-SLICE: %s %d mode=%s t0=%.2f t1=%.2f kmem=%d sunreclaim=%d "
            "vmalloc=5700 slab=%d" % (build, i, m, t0, t1, k, k - 5700, k + 4000),
            "SOAK-LOAD: %s %d %s" % (build, i, load_json(
                ops(i, m), p99(i, m), failures if i == n else 0,
                slice_s=slice_s)),
            "SOAK-CHURN: %s %d rc=%d conn-churn: 900 connections in %d ms from "
            "4 threads: %d answered, %d refused, 0 timed out, 0 other errors" % (
                build, i, 1 if churn_refused and i == 2 else 0, slice_s * 1000,
                900 - (churn_refused if i == 2 else 0),
                churn_refused if i == 2 else 0),
            "SOAK-HOSTILE: %s %d %s rc=%d {\"tool\": \"hostile\", \"mode\": "
            "\"%s\", \"closed\": 3}" % (build, i, m,
                                        hostile_rc if i == 3 else 0, m),
            "SOAK-STAT: %s %d calls_null=%d tcp_accepted=%d tcp_closed=%d "
            "frags_too_many=%d wspace_wait=%d sockets=20 threads=4" % (
                build, i, i * 20000, acc, acc - 20, 10 * i, 5 * i)]
    out += ["SOAK-DRAIN: %s sockets=%d s=0.20" % (build, drain_sockets),
            "SOAK-STAT: %s end calls_null=1 tcp_accepted=%d tcp_closed=%d "
            "sockets=%d threads=4" % (build, acc, acc - closed_less, drain_sockets),
            "SOAK-RMMOD: %s rc=%d s=%.2f" % (build, rmmod_rc, rmmod_s),
            "SOAK-ORPHANS: %s at_rmmod=%d s=%.2f left=%d" % (
                build, orphans_at, 0.5 if orphans_at else 0.0, orphans_left),
            "SOAK-MEM: %s after kmem=%d sunreclaim=%d vmalloc=5700 slab=17300" % (
                build, after, after - 5700)]
    if end:
        out.append("SOAK-END: %s" % build)
    return out


def held(lines, build="bitflag", keep=10000, rate=1000, slice_s=10, got=None,
         dropped=0, unasked=0, refused=0, rc=0, opened=None, hold=True):
    """SOAK-KEPT, -HELD and -HOLD lines put into a build's synthetic lines:
    KEEP held, cycled at GOT a second (default RATE)."""
    got = rate if got is None else got
    opened = keep if opened is None else opened
    out, t_ms, cyc = [], 30000, 0
    for x in lines:
        if x.startswith("SOAK-BEGIN: %s modprobe=ok" % build):
            out += [x, "SOAK-KEPT: %s s=31.20 conn-churn: kept t_ms=%d open=%d "
                    "cycled=0 answered=%d dropped=0 unasked=0 refused=0 "
                    "timed_out=0 other=0" % (build, t_ms, opened, opened)]
            continue
        out.append(x)
        m = x.split()
        if x.startswith("SOAK-STAT: %s " % build) and m[2] != "end":
            t_ms += (slice_s + 1.5) * 1000
            cyc += int(got * (slice_s + 1.5))
            out.append("SOAK-HELD: %s %s conn-churn: held t_ms=%d open=%d "
                       "cycled=%d answered=%d dropped=0 unasked=0 refused=0 "
                       "timed_out=0 other=0" % (build, m[2], t_ms, opened, cyc,
                                                keep + cyc))
        if x.startswith("SOAK-DRAIN: %s" % build) and hold:
            n = keep + cyc
            out.insert(len(out) - 1,
                       "SOAK-HOLD: %s rc=%d conn-churn: %d connections in %d ms "
                       "from 8 threads: %d answered, %d refused, 0 timed out, 0 "
                       "other errors; kept %d (all open after 30000 ms), cycled "
                       "%d (%.1f/s after that), dropped by the server %d, "
                       "unasked data %d" % (
                           build, rc, n, t_ms + 500, n - refused, refused, keep,
                           cyc, cyc / ((t_ms + 500 - 30000) / 1000.0), dropped,
                           unasked))
    return out


def console(*builds_lines, n=12, slice_s=10):
    lines = ["[    1.0] some boot noise",
             "SOAK-INFO: kernel=6.1.0-57-amd64 cpus=2 mem_kb=2014152 "
             "duration=%d slice=%d threads=4 tw_buckets_was=8192" % (
                 n * slice_s, slice_s)]
    for bl in builds_lines:
        lines += bl
    lines.append("SOAK-DONE: %d" % len(builds_lines))
    return "\n".join(lines) + "\n"


def doc_of(text, builds=("bitflag",), n=12, slice_s=10, status=0, keep=0,
           rate=0):
    return soak.document(soak.parse(text), list(builds), n * slice_s, slice_s,
                         4, status, 100.0, "raw/soak-console.log",
                         conns=64 if keep else 16, keep=keep, rate=rate)


def checks(doc, build="bitflag"):
    bd = [b for b in doc["builds"] if b["build"] == build][0]
    return {c["name"]: c for c in bd["checks"]}


class SlopeTest(unittest.TestCase):
    def test_plain(self):
        self.assertAlmostEqual(soak.slope([0, 1, 2, 3], [10, 12, 14, 16]), 2.0)
        self.assertAlmostEqual(soak.slope([0, 1, 2], [5, 5, 5]), 0.0)
        self.assertIsNone(soak.slope([1], [1]))
        self.assertIsNone(soak.slope([2, 2], [1, 3]))
        self.assertAlmostEqual(soak.slope([0, 1, 2, 3], [0, 2, 2, 4]), 1.2)

    def test_within_groups_ignores_the_levels(self):
        # two modes at very different levels, each flat: no trend, though
        # a plain fit over the alternating points sees one
        xs = [0, 1, 2, 3, 4, 5]
        g = ["a", "b", "a", "b", "a", "b"]
        ys = [100, 1000, 100, 1000, 100, 1000]
        self.assertAlmostEqual(soak.slope(xs, ys, g), 0.0)
        self.assertGreater(soak.slope(xs, ys), 50)
        # the same leak in both: slope 7, whatever the levels
        ys = [y + 7 * x for x, y in zip(xs, ys)]
        self.assertAlmostEqual(soak.slope(xs, ys, g), 7.0)

    def test_groups_that_never_repeat_fall_back(self):
        self.assertAlmostEqual(soak.slope([0, 1, 2], [1, 2, 3], ["a", "b", "c"]), 1.0)


class ParseTest(unittest.TestCase):
    def test_parse(self):
        p = soak.parse(console(synth()))
        self.assertEqual(p["order"], ["bitflag"])
        self.assertEqual(p["info"]["duration"], 120)
        self.assertEqual(p["done"], 1)
        r = p["builds"]["bitflag"]
        self.assertEqual(len(r["slices"]), 12)
        s = r["slices"][2]
        self.assertEqual((s["i"], s["mode"]), (3, "slowlive"))
        self.assertEqual(s["load"]["result"]["ops_per_s"], 1200.0)
        self.assertEqual(s["churn"]["connections"], 900)
        self.assertEqual(s["hostile"]["out"]["closed"], 3)
        self.assertEqual(s["stat"]["frags_too_many"], 30)
        self.assertEqual(r["mem"]["before"]["kmem"], 13000)
        self.assertEqual(r["rmmod"], {"rc": 0, "s": 0.3})
        self.assertEqual(r["drain"]["sockets"], 0)
        self.assertTrue(r["ended"])

    def test_churn_line(self):
        c = soak.parse_churn("conn-churn: 952 connections in 4169 ms from 4 "
                             "threads: 950 answered, 1 refused, 1 timed out, "
                             "0 other errors")
        self.assertEqual((c["connections"], c["refused"], c["timed_out"]), (952, 1, 1))
        self.assertEqual(soak.churn_errors(dict(c, rc=1)), 2)
        self.assertEqual(soak.churn_errors(soak.parse_churn("garbage")), 1)

    def test_load_without_result_is_an_error(self):
        calls, ok, bad, ops, p99, why = soak.load_figures(
            {"tool": "rpcload", "result": None, "error": "connect: refused"})
        self.assertEqual((calls, bad, ops), (0, 1, None))
        self.assertIn("refused", why)
        self.assertEqual(soak.load_figures(None)[2], 1)

    def test_defences_are_per_slice(self):
        rows = soak.slice_rows(soak.parse(console(synth()))["builds"]["bitflag"])
        self.assertEqual(rows[0]["defences"]["frags_too_many"], 10)
        self.assertEqual(rows[5]["defences"]["frags_too_many"], 10)
        self.assertEqual(rows[5]["defences"]["wspace_wait"], 5)
        self.assertIsNone(rows[5]["defences"]["send_parked"])


class JudgeTest(unittest.TestCase):
    def test_clean_soak_passes_every_check(self):
        d = doc_of(console(synth()))
        self.assertEqual(d["failures"], [], d["failures"])
        self.assertTrue(d["ok"])
        c = checks(d)
        self.assertEqual(set(c), {"ran", "good calls", "churn calls", "hostile ran",
                                  "rate held", "p99 held", "memory slope",
                                  "memory returns", "drained", "rmmod"})
        self.assertTrue(all(x["ok"] for x in c.values()))
        # each mode against itself: the level of slowlive is no trend
        self.assertAlmostEqual(c["rate held"]["value"], 1.0)
        # the per-mode levels of memory are no trend either
        self.assertAlmostEqual(c["memory slope"]["value"], 0.0)

    def test_mode_mix_alone_does_not_fail_the_rate(self):
        # 5 slices (QUICK): the last is zerofrag, compared with the first
        d = doc_of(console(synth(n=5, slice_s=4), n=5, slice_s=4), n=5, slice_s=4)
        self.assertTrue(checks(d)["rate held"]["ok"], checks(d)["rate held"])

    def fails(self, name, word=None, **kw):
        d = doc_of(console(synth(**kw)))
        c = checks(d)[name]
        self.assertFalse(c["ok"], (name, c))
        self.assertFalse(d["ok"])
        self.assertTrue(any(name in f for f in d["failures"]), d["failures"])
        if word:
            self.assertIn(word, c["detail"])
        others = [k for k, v in checks(d).items() if not v["ok"] and k != name]
        return c, others

    def test_each_check_can_fail(self):
        self.fails("good calls", "1 failed", failures=1)
        self.fails("churn calls", "not answered", churn_refused=3)
        self.fails("hostile ran", "slice(s) 3", hostile_rc=143)
        # a rate that falls to a third over the run, every mode alike
        c, others = self.fails("rate held", ops=lambda i, m: MODE_RATE[m] * (
            1.0 if i <= 4 else 0.3))
        self.assertEqual(others, [])
        self.assertAlmostEqual(c["value"], 0.3)
        c, others = self.fails("p99 held", p99=lambda i, m: 30000.0 * (
            1 if i <= 4 else 5))
        self.assertEqual(others, [])
        # a leak of 3 MiB a minute (slices are 11.5 s apart)
        c, others = self.fails("memory slope", kmem=lambda i, m: 29000 + int(
            3072 * (i - 1) * 11.5 / 60))
        self.assertEqual(others, [])
        self.assertGreater(c["value"], 2048)
        self.fails("memory returns", "+5000 KiB", after=18000)
        self.fails("memory returns", "1347 at rmmod, 12 left", orphans_at=1347,
                   orphans_left=12)
        d = doc_of(console(synth(orphans_at=1347)))
        self.assertTrue(checks(d)["memory returns"]["ok"])
        self.assertIn("TCP orphans 1347 at rmmod, 0 left after 0.5 s",
                      checks(d)["memory returns"]["detail"])
        self.fails("drained", "sockets 3", drain_sockets=3)
        self.fails("drained", "closed", closed_less=1)
        self.fails("rmmod", "in 6.1 s", rmmod_s=6.1)
        self.fails("rmmod", "exit 1", rmmod_rc=1)
        self.fails("ran", "10 of 12 slices", drop_slices=2)
        self.fails("ran", "did NOT end", end=False)

    def test_a_slow_leak_under_the_mode_levels_is_seen(self):
        # 1 MiB/min hidden under 2 MiB of per-mode levels: seen at its
        # own size (the bound is 2 MiB/min: passes at 1, fails at 3)
        lv = {"zerofrag": 0, "slowread": 2048, "slowlive": 1024, "rststorm": 0}
        for rate, ok in ((1024, True), (3072, False)):
            d = doc_of(console(synth(kmem=lambda i, m: 29000 + lv[m] + int(
                rate * (i - 1) * 11.5 / 60))))
            c = checks(d)["memory slope"]
            self.assertEqual(c["ok"], ok, c)
            self.assertAlmostEqual(c["value"], rate, delta=30)

    def held_doc(self, **kw):
        return doc_of(console(held(synth(), **kw)), keep=kw.get("keep", 10000),
                      rate=kw.get("rate", 1000))

    def test_held_connections_pass(self):
        d = self.held_doc()
        self.assertEqual(d["failures"], [], d["failures"])
        c = checks(d)
        self.assertTrue(c["held"]["ok"] and c["cycle rate"]["ok"], c)
        self.assertIn("10000 of 10000 open after 31.2 s", c["held"]["detail"])
        self.assertAlmostEqual(c["cycle rate"]["value"], 1000, delta=20)
        rows = d["builds"][0]["slices"]
        self.assertEqual(rows[3]["held_open"], 10000)
        self.assertAlmostEqual(rows[3]["cycled_per_s"], 1000, delta=1)
        self.assertEqual(d["settings"]["keep"], 10000)
        self.assertIn("64", d["settings"]["good_load"])
        out = soak.render(d)
        self.assertIn("cycled/s", out)
        self.assertIn("beside 10000 idle connections held open, 1000 a second", out)
        # without held connections neither check is there
        self.assertNotIn("held", checks(doc_of(console(synth()))))

    def test_held_checks_can_fail(self):
        for kw, name, word in (
                ({"dropped": 2}, "held", "2 dropped by the server"),
                ({"unasked": 1}, "held", "1 unasked"),
                ({"refused": 3}, "held", "3 not answered"),
                ({"rc": 1}, "held", "exit 1"),
                ({"opened": 9990}, "held", "9990 of 10000"),
                ({"hold": False}, "held", "? cycled"),
                ({"got": 600}, "cycle rate", "of 1000/s asked")):
            d = self.held_doc(**kw)
            c = checks(d)[name]
            self.assertFalse(c["ok"], (kw, c))
            self.assertIn(word, c["detail"], (kw, c))
            self.assertFalse(d["ok"])
        # not all opened: the held column says so too
        d = self.held_doc(opened=9990)
        self.assertEqual(d["builds"][0]["slices"][0]["held_open"], 9990)

    def test_hold_line(self):
        h = soak.parse_hold(
            "conn-churn: 3337 connections in 3054 ms from 4 threads: 3337 "
            "answered, 0 refused, 0 timed out, 0 other errors; kept 2000 (all "
            "open after 351 ms), cycled 1337 (494.6/s after that), dropped by "
            "the server 0, unasked data 0")
        self.assertEqual((h["keep"], h["kept_ms"], h["cycled"], h["dropped"]),
                         (2000, 351, 1337, 0))
        self.assertAlmostEqual(h["cycle_per_s"], 494.6)
        self.assertNotIn("keep", soak.parse_hold("conn-churn: garbage"))

    def test_module_that_does_not_load(self):
        d = doc_of(console(synth(modprobe="fail")))
        c = checks(d)
        self.assertFalse(c["ran"]["ok"])
        self.assertIn("did NOT load", c["ran"]["detail"])

    def test_kernel_report_fails_the_soak(self):
        d = doc_of(console(synth()), status=122)
        self.assertFalse(d["ok"])
        self.assertFalse(d["guest"]["kernel_clean"])
        self.assertTrue(any("vm-run exit 122" in f for f in d["failures"]))
        self.assertIn("FAIL kernel clean", soak.render(d))

    def test_build_without_output(self):
        d = doc_of(console(synth("lock")), builds=("lock", "bitflag"))
        self.assertTrue(any("bitflag: no output" in f for f in d["failures"]))
        self.assertTrue([b for b in d["builds"] if b["build"] == "lock"][0]["ok"])


class DocumentTest(unittest.TestCase):
    def test_schema_and_renderings(self):
        d = doc_of(console(synth("lock"), synth("bitflag")), builds=("lock", "bitflag"))
        self.assertEqual((d["schema"], d["schema_version"]), ("svcsock-soak", 1))
        self.assertEqual(d["settings"]["slices"], 12)
        self.assertEqual(d["settings"]["bounds"]["mem_return_kib"], 4096)
        json.dumps(d)       # serialisable
        with tempfile.TemporaryDirectory() as t:
            out = soak.render(d, t)
            with open(os.path.join(t, "soak.md")) as f:
                md = f.read()
            path = os.path.join(t, "soak.json")
            with open(path, "w") as f:
                json.dump(d, f)
            self.assertEqual(soak.load(path)["builds"][1]["build"], "bitflag")
        self.assertIn("Soak: lock", out)
        self.assertIn("PASS memory slope", out)
        self.assertIn("soak: every check passed", out)
        self.assertIn("## Soak: bitflag", md)
        self.assertIn("## The bounds", md)
        self.assertIn("- pass memory slope: slab+vmalloc", md)
        self.assertIn("| 3 | slowlive |", md)

    def test_failure_rendered(self):
        d = doc_of(console(synth(rmmod_s=9.0)))
        with tempfile.TemporaryDirectory() as t:
            out = soak.render(d, t)
            with open(os.path.join(t, "soak.md")) as f:
                md = f.read()
        self.assertIn("FAIL rmmod", out)
        self.assertIn("!!! bitflag: rmmod: rmmod ok in 9.0 s (bound 5 s)", out)
        self.assertIn("soak: bitflag FAILED", out)
        self.assertIn("- **FAIL** rmmod: rmmod ok in 9.0 s", md)

    def test_guest_command(self):
        cmd = soak.guest_command(["lock", "lwq"], 120, 10, 4)
        self.assertTrue(cmd.startswith("cat >/tmp/soak-run <<'SVCSOCK_SOAK_RUN_EOF'\n"))
        self.assertIn("\nsh /tmp/soak-run -d 120 -s 10 -t 4 -c 16 -l 0 -k 0 -r 0 lock lwq\n",
                      cmd)
        cmd = soak.guest_command(["lwq"], 300, 10, 4, conns=64, keep=10000, rate=1000)
        self.assertIn("\nsh /tmp/soak-run -d 300 -s 10 -t 4 -c 64 -l 0 -k 10000 -r 1000 lwq\n",
                      cmd)
        with self.assertRaises(SystemExit):
            soak.guest_command(["lock; reboot"], 120, 10, 4)
        with self.assertRaises(SystemExit):
            soak.guest_command(["lock"], 120, 10, 4, "x\nSVCSOCK_SOAK_RUN_EOF\n")

    def test_cli_from_log_and_usage(self):
        with tempfile.TemporaryDirectory() as t:
            log = os.path.join(t, "console.log")
            with open(log, "w") as f:
                f.write(console(synth()) + "# vm-run exit 0\n")
            p = subprocess.run([os.path.join(BENCH, "soak"), "--from-log", log],
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            with open(log, "a") as f:
                f.write("# vm-run exit 122\n")
            with open(log) as f:
                text = f.read().replace("# vm-run exit 0\n", "")
            with open(log, "w") as f:
                f.write(text)
            p = subprocess.run([os.path.join(BENCH, "soak"), "--from-log", log],
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        p = subprocess.run([os.path.join(BENCH, "soak"), "--duration", "10",
                            "--slice", "10", "--builds", "bitflag", "--dry-run"],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 2, p.stderr)
        p = subprocess.run([os.path.join(BENCH, "soak"), "--builds", "bitflag",
                            "--vm-run", "/nonexistent/vm-run", "--quick"],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 2, p.stderr)


if __name__ == "__main__":
    unittest.main()
