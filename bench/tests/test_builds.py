#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench/comparelib/builds: the builds list, asked of svcsock-mod's make
(make -s -C DIR builds; svcsock-mod/list.mk).  Needs python3 and make."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
from comparelib import builds  # noqa: E402
import synth  # noqa: E402


class BuildsTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="test-builds.")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def kbuild(self, text):
        """A directory like svcsock-mod/ whose Kbuild is `text`."""
        return synth.kbuild(os.path.join(self.dir, "Kbuild"), text)

    def test_the_line(self):
        k = self.kbuild("svcsock-builds := lock bitflag bitlock\n")
        self.assertEqual(builds.read_builds(k), ["lock", "bitflag", "bitlock"])

    def test_new_builds_are_picked_up(self):
        k = self.kbuild("svcsock-builds := lock bitflag bitlock queued lwq\n"
                        "svcsock-strategy-lwq             := lwq\n")
        self.assertEqual(builds.read_builds(k),
                         ["lock", "bitflag", "bitlock", "queued", "lwq"])
        self.assertEqual(builds.read_strategies(k), {"lwq": "lwq"})

    def test_a_directory_or_its_kbuild(self):
        k = self.kbuild("svcsock-builds := lock scratch\n"
                        "svcsock-strategy-scratch := bitflag\n")
        self.assertEqual(builds.read_builds(self.dir), ["lock", "scratch"])
        self.assertEqual(builds.read_builds(k), ["lock", "scratch"])
        self.assertEqual(builds.read_strategies(self.dir), {"scratch": "bitflag"})

    def test_make_reads_it_as_make_does(self):
        # continuations, +=, comments, a mutant's block (not taken), a
        # variable: make's own reading, not a parser's guess
        text = ("# svcsock-builds := not this\n"
                "extra := bitlock\n"
                "svcsock-builds = lock \\\n\tbitflag # two\n"
                "svcsock-builds += $(extra)\n"
                "ifneq ($(SVCSOCK_MUTANT),)\n"
                "svcsock-builds := $(SVCSOCK_MUTANT)\n"
                "endif\n"
                "svcsock-builds += queued\n")
        k = self.kbuild(text)
        self.assertEqual(builds.read_builds(k), ["lock", "bitflag", "bitlock", "queued"])

    def test_the_synthetic_kbuild(self):
        k = synth.kbuild(os.path.join(self.dir, "Kbuild"))
        self.assertEqual(builds.read_builds(k), synth.BUILDS)
        self.assertEqual(builds.read_strategies(k), {"lock": "lock", "queued": "queued"})

    def test_a_parent_make_does_not_reach_it(self):
        # under `make -n compare` the parent's MAKEFLAGS hold n: the list
        # must still be printed, not the recipe that prints it
        k = self.kbuild("svcsock-builds := lock bitflag\n")
        old = os.environ.get("MAKEFLAGS")
        os.environ["MAKEFLAGS"] = "n"
        try:
            self.assertEqual(builds.read_builds(k), ["lock", "bitflag"])
        finally:
            if old is None:
                del os.environ["MAKEFLAGS"]
            else:
                os.environ["MAKEFLAGS"] = old

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
        # what the Makefile prints, and what an out-of-tree make builds:
        # the builds, then the twins and the torture modules, which are
        # no builds
        out = subprocess.run(["make", "-s", "--no-print-directory", "-C",
                              builds.MODDIR, "list-modules"], capture_output=True,
                             text=True, check=True).stdout.split()
        twins = builds.read_twins()
        tortures = builds.read_tortures()
        self.assertEqual(out, b + twins + tortures)
        self.assertFalse(set(twins) & set(b))
        self.assertEqual(tortures, [x + "_torture" for x in b])
        st = builds.read_strategies()
        self.assertEqual(sorted(st), sorted(b))
        for s in st.values():
            self.assertTrue(os.path.exists(os.path.join(builds.MODDIR,
                                                        "xprt_%s.c" % s)), s)

    def test_no_builds_is_an_error(self):
        with self.assertRaises(SystemExit):
            builds.read_builds(self.dir)    # no Makefile
        k = self.kbuild("svcsock-shared := svc_sock\n")
        with self.assertRaises(SystemExit):
            builds.read_builds(k)


if __name__ == "__main__":
    unittest.main(verbosity=2)
