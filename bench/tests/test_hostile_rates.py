#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench/hostile-rates on SYNTHETIC consoles: the points, the good
client's rates and rmmod's seconds are read per build and test, and a
failed point, a test that printed nothing or a bad kernel fail the run.
Nothing is booted.

Run: python3 bench/tests/run   (every bench test; --tap for TAP)
"""
import json
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(os.path.dirname(HERE), "hostile-rates")
sys.path.insert(0, HERE)
import synth  # noqa: E402


def console(builds, under=None, rmmod=None, fail=None, missing=None, exit_=0):
    """run-all's output for hostile-slowlive against each build: the good
    client 400 ops/s alone (410 after), `under` (default 300) under
    attack, rmmod in `rmmod` (default 0.2) s; `fail`: a build whose
    memory point fails; `missing`: a build that printed nothing."""
    lines, n = [], 0
    for b in builds:
        if b == missing:
            continue
        u = (under or {}).get(b, 300.0)
        r = (rmmod or {}).get(b, 0.2)
        pts = [("ok", "the slow readers read replies (1418329 bytes)"),
               ("ok", "a good client is served beside 4 slow but live readers "
                "(alone 400.5 and 410.25 ops/s, under attack %s ops/s)" % u),
               ("not ok" if b == fail else "ok",
                "memory returns after the slow readers (slab+vmalloc 1 kB before, 2 kB after)"),
               ("ok", "rmmod under attack returns within 5 s (%s s)" % r)]
        lines.append("# === %s hostile-slowlive" % b)
        for st, d in pts:
            n += 1
            lines.append("%s - %s hostile-slowlive: %s" % (st, b, d) if n % 2 else
                         "%s %d - %s hostile-slowlive: %s" % (st, n, b, d))
        lines.append("# --- %s hostile-slowlive took 15 s" % b)
    lines += ["1..%d" % n, "# vm-run exit %d" % exit_]
    return "\n".join(lines) + "\n"


class HostileRatesTest(synth.LogJudgeTest):
    TOOL = TOOL

    def judge(self, text, builds=("lock", "lwq")):
        return self.run_tool(text, "--builds", ",".join(builds), "--tests",
                             "hostile-slowlive")

    def test_clean_run(self):
        r = self.judge(console(["lock", "lwq"], under={"lwq": 100.0}))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("every point passed", r.stdout)
        # lwq: 100 against the lower rate alone, 400.5
        self.assertRegex(r.stdout, r"lwq\s+hostile-slowlive\s+4\s+0\s+400\s+100\s+0\.25\s+0\.20\s+15")
        self.assertIn("lowest 0.25", r.stdout)

    def test_failed_point_fails(self):
        r = self.judge(console(["lock", "lwq"], fail="lock"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("!!! lock hostile-slowlive: memory returns", r.stdout)

    def test_silent_test_fails(self):
        r = self.judge(console(["lock", "lwq"], missing="lwq"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("lwq hostile-slowlive: the test printed no point", r.stdout)

    def test_bad_kernel_fails(self):
        r = self.judge(console(["lock", "lwq"], exit_=122))
        self.assertEqual(r.returncode, 1)
        self.assertIn("vm-run exit 122", r.stdout)

    def test_slow_rmmod_is_shown(self):
        r = self.judge(console(["lock", "lwq"], rmmod={"lock": 4.5}))
        self.assertIn("longest 4.50 s", r.stdout)

    def test_document(self):
        sys.path.insert(0, os.path.dirname(HERE))
        import importlib.machinery
        import importlib.util
        loader = importlib.machinery.SourceFileLoader("hostile_rates", TOOL)
        spec = importlib.util.spec_from_loader("hostile_rates", loader)
        mod = importlib.util.module_from_spec(spec)
        loader.exec_module(mod)
        text = console(["bitflag"], under={"bitflag": 250.0})
        doc = mod.document(mod.parse(text, ["bitflag"], ["hostile-slowlive"]),
                           ["bitflag"], ["hostile-slowlive"], 0, 1.0, "c.log")
        json.dumps(doc)
        row = doc["rows"][0]
        self.assertEqual((row["points"], row["alone"], row["under"], row["rmmod_s"]),
                         (4, 400.5, 250.0, 0.2))
        self.assertEqual(doc["schema"], "svcsock-hostile-rates")
        self.assertTrue(doc["ok"])


if __name__ == "__main__":
    unittest.main()
