#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench/comparelib/stats: a real difference is reported as one, a tie as
a tie, the bootstrap is deterministic, log2 percentiles interpolate."""
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from comparelib import stats  # noqa: E402

# SYNTHETIC runs (ops/s), made up here
LOCK = [1000, 1020, 990, 1010, 980]
FASTER = [1300, 1280, 1320, 1290, 1310]       # +30%, runs within 3%
OVERLAP = [1050, 960, 1120, 1000, 1030]       # the same within the noise


class StatsTest(unittest.TestCase):
    def test_real_difference_is_reported(self):
        r = stats.ratio("bitflag", "lock", FASTER, LOCK, "t1")
        self.assertEqual(r["verdict"], "faster")
        self.assertGreater(r["lo"], 1.0)
        self.assertAlmostEqual(r["value"], 1300 / 1000.0, places=2)
        r = stats.ratio("lock", "bitflag", LOCK, FASTER, "t1")
        self.assertEqual(r["verdict"], "slower")
        self.assertLess(r["hi"], 1.0)

    def test_tie_is_a_tie(self):
        r = stats.ratio("bitlock", "lock", OVERLAP, LOCK, "t2")
        self.assertEqual(r["verdict"], "tie")
        self.assertLessEqual(r["lo"], 1.0)
        self.assertGreaterEqual(r["hi"], 1.0)
        # a 10% difference inside +-15% noise is a tie too
        noisy_a = [1000, 1150, 870]
        noisy_b = [1100, 1265, 957]
        self.assertEqual(stats.ratio("b", "a", noisy_b, noisy_a, "t3")["verdict"], "tie")

    def test_three_runs_interval_is_the_range(self):
        a, b = [1200, 1300, 1250], [1000, 1100, 1050]
        lo, hi = stats.bootstrap_interval(a, b, 7)
        self.assertAlmostEqual(lo, 1200 / 1100.0)
        self.assertAlmostEqual(hi, 1300 / 1000.0)

    def test_bootstrap_is_deterministic(self):
        a = stats.bootstrap_interval(OVERLAP, LOCK, stats.seed_of("x"))
        self.assertEqual(a, stats.bootstrap_interval(OVERLAP, LOCK, stats.seed_of("x")))
        # and across processes, whatever PYTHONHASHSEED says
        code = ("import sys; sys.path.insert(0, %r); from comparelib import stats; "
                "print(stats.bootstrap_interval(%r, %r, stats.seed_of('x')))" % (
                    os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                    OVERLAP, LOCK))
        outs = set()
        for seed in ("1", "2"):
            env = dict(os.environ, PYTHONHASHSEED=seed)
            outs.add(subprocess.run([sys.executable, "-c", code], env=env,
                                    capture_output=True, text=True).stdout.strip())
        self.assertEqual(outs, {str(a)})

    def test_too_few_runs_give_no_verdict(self):
        r = stats.ratio("a", "b", [1300], LOCK, "t4")
        self.assertIsNone(r["verdict"])
        self.assertIsNone(r["lo"])
        self.assertIsNone(stats.ratio("a", "b", [], LOCK, "t4"))

    def test_exact_denominator(self):
        # SLEEP against its ideal rate: one exact number, not resampled
        r = stats.ratio("lock", "reference", [1000, 1010, 990], [4000], "t5",
                        den_exact=True)
        self.assertEqual(r["verdict"], "slower")
        self.assertAlmostEqual(r["lo"], 990 / 4000.0, delta=0.001)
        self.assertIsNone(stats.ratio("lock", "rr", [1000, 1010], [4000], "t5")["lo"])

    def test_summary(self):
        s = stats.summary([100, 120, 90, None])
        self.assertEqual((s["median"], s["min"], s["max"]), (100, 90, 120))
        self.assertAlmostEqual(s["spread_pct"], 30.0)
        self.assertIsNone(stats.summary([None]))

    def test_log2_percentile(self):
        b = [0] * 40
        b[10] = 100                     # every wait in [1024, 2048) ns
        self.assertAlmostEqual(stats.log2_percentile(b, 0.5), 1536.0)
        self.assertAlmostEqual(stats.log2_percentile(b, 0.99), 1024 * 1.99)
        b[20] = 1                       # one slow wait
        self.assertTrue(2 ** 20 <= stats.log2_percentile(b, 1.0) <= 2 ** 21)
        self.assertLess(stats.log2_percentile(b, 0.99), 2048)
        self.assertIsNone(stats.log2_percentile([0] * 40, 0.5))


if __name__ == "__main__":
    unittest.main(verbosity=2)
