#!/usr/bin/env python3
"""bench/comparelib/builds: the builds list read out of Kbuild."""
import os
import re
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from comparelib import builds  # noqa: E402


class BuildsTest(unittest.TestCase):
    def test_the_line(self):
        b, _ = builds.parse_kbuild("svcsock-builds := lock bitflag bitlock\n")
        self.assertEqual(b, ["lock", "bitflag", "bitlock"])

    def test_new_builds_are_picked_up(self):
        b, st = builds.parse_kbuild(
            "svcsock-builds := lock bitflag bitlock queued lwq\n"
            "svcsock-strategy-lwq             := lwq\n")
        self.assertEqual(b, ["lock", "bitflag", "bitlock", "queued", "lwq"])
        self.assertEqual(st, {"lwq": "lwq"})

    def test_continuations_appends_comments_and_mutants(self):
        text = ("# svcsock-builds := not this\n"
                "svcsock-builds = lock \\\n\tbitflag # two\n"
                "svcsock-builds += bitlock\n"
                "ifneq ($(SVCSOCK_MUTANT),)\n"
                "svcsock-builds := $(SVCSOCK_MUTANT)\n"
                "svcsock-builds += mutant\n"
                "endif\n"
                "svcsock-builds += queued $(EXTRA) bitflag\n")
        b, _ = builds.parse_kbuild(text)
        self.assertEqual(b, ["lock", "bitflag", "bitlock", "queued"])

    def test_lineage_pairs(self):
        b = ["lock", "bitflag", "bitlock", "queued", "lwq"]
        self.assertEqual(builds.lineage_pairs(b), [
            ("bitflag", "lock"), ("bitlock", "lock"), ("queued", "lock"),
            ("lwq", "lock"), ("bitlock", "bitflag"), ("queued", "bitlock"),
            ("lwq", "queued")])
        self.assertEqual(builds.lineage_pairs(["lock"]), [])
        self.assertEqual(builds.baseline(["a", "b"]), "a")

    def test_the_real_kbuild(self):
        b = builds.read_builds()
        self.assertEqual(b[0], "lock")
        self.assertIn("bitflag", b)
        for x in b:
            self.assertRegex(x, r"^[a-z0-9_]+$")
        with open(builds.KBUILD) as f:
            line = [l for l in f if re.match(r"svcsock-builds\s*:=\s*lock", l)]
        self.assertEqual(b, line[0].split(":=")[1].split())

    def test_no_builds_is_an_error(self):
        with self.assertRaises(SystemExit):
            builds.read_builds(os.devnull)


if __name__ == "__main__":
    unittest.main(verbosity=2)
