#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench/torture's host side (comparelib/torture.py) on SYNTHETIC
reports: the plan within its budget, parsing, the cells, the failures a
round's checks must raise, both renderings.  Nothing is booted."""
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from comparelib import torture  # noqa: E402


def line(build, r, result="ok", lost=0, double=0, twice=0, late=0,
         woken=1000):
    return ("TORTURE %s %d result=%s handovers=5000 lost=%d double_owner=%d "
            "twice=%d late=%d handovers_per_s_per_cpu=%d lat_p50_ns=4096 "
            "lat_p99_ns=65536 enqueue_per_k=2000 woken_per_k=%d "
            "sv_lock_per_k=3000 sk_lock_per_k=0 lwq_lock_per_k=0 "
            "flag_rmw_per_k=9000 wakeups_idle_per_k=10" % (
                build, r, result, lost, double, twice, late, 1000 + r, woken))


class TortureTest(unittest.TestCase):
    def doc(self, lines, builds=("lock", "bitflag"), reps=2):
        raw = {"2": torture.parse("noise\n" + "\n".join(lines) + "\n")}
        return torture.document(raw, [{"smp": 2, "vm_run_status": 0}],
                                list(builds), [2], reps, 2, 4, [], 1.0)

    def test_plan_cuts_rounds_then_cpu_counts(self):
        b = ["a", "b", "c", "d", "e"]
        smps, reps, dropped = torture.plan([2, 4], b, 3, 2, 0)
        self.assertEqual((smps, reps, dropped), ([2, 4], 3, []))
        smps, reps, dropped = torture.plan([2, 4], b, 3, 2, 150)
        self.assertEqual((smps, reps), ([2, 4], 2))
        self.assertLessEqual(torture.estimate_s(smps, b, reps, 2), 150)
        smps, reps, dropped = torture.plan([2, 4, 1], b, 3, 2, 60)
        self.assertEqual((smps, reps), ([2], 2))    # the first always runs
        self.assertTrue(any("4 CPUs" in d for d in dropped), dropped)

    def test_clean_rounds(self):
        d = self.doc([line(b, r) for r in (1, 2) for b in ("lock", "bitflag")])
        self.assertEqual(torture.failures(d), [])
        c = d["cells"][0]
        self.assertEqual((c["build"], c["rounds"], c["clean"]), ("lock", 2, 2))
        self.assertEqual(c["woken_per_k"]["median"], 1000)
        self.assertEqual(c["handovers_per_s_per_cpu"]["min"], 1001)
        out = torture.render(d)
        self.assertIn("exactly once", out)
        self.assertIn("1.00", out)      # woken per hand-over

    def test_every_check_can_fail(self):
        for kw, word in (({"lost": 1}, "lost 1"), ({"double": 2}, "double owner 2"),
                         ({"twice": 3}, "twice 3"), ({"late": 4}, "late 4")):
            bad = line("bitflag", 2, result="failed", **kw)
            d = self.doc([line("lock", 1), line("bitflag", 1), line("lock", 2), bad])
            f = torture.failures(d)
            self.assertTrue(any(word in x for x in f), (kw, f))

    def test_missing_rounds_and_builds_fail(self):
        d = self.doc([line("lock", 1), line("lock", 2), line("bitflag", 1)])
        self.assertTrue(any("bitflag: 1 of 2 rounds ran" in x
                            for x in torture.failures(d)))
        d = self.doc([line("lock", 1), line("lock", 2)])
        self.assertTrue(any("bitflag: 0 of 2 rounds ran" in x
                            for x in torture.failures(d)))
        d = self.doc([line(b, r) for r in (1, 2) for b in ("lock", "bitflag")])
        d["guests"][0]["vm_run_status"] = 122
        self.assertTrue(any("vm-run exit 122" in x for x in torture.failures(d)))

    def test_markdown(self):
        d = self.doc([line(b, r) for r in (1, 2) for b in ("lock", "bitflag")])
        with tempfile.TemporaryDirectory() as t:
            torture.render(d, t)
            with open(os.path.join(t, "torture.md")) as f:
                md = f.read()
        self.assertIn("# The hand-over torture test, per build", md)
        self.assertIn("| 2 | lock | 2/2 |", md)


if __name__ == "__main__":
    unittest.main()
