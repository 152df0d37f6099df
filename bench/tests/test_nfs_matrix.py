#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench/nfs-matrix on SYNTHETIC consoles: every (build, address, mount)
must have read every byte right or been skipped with a reason; a failed
or missing mount, a mismatch, a guest that did not finish or a bad kernel
fail the run.  Nothing is booted.

Run: python3 bench/tests/run   (every bench test; --tap for TAP)
"""
import json
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(os.path.dirname(HERE), "nfs-matrix")
sys.path.insert(0, HERE)
import synth  # noqa: E402


def console(builds, fail=None, mismatch=None, missing=None, end=True, exit_=0):
    """nfs-matrix-run's lines: every mount read 66880160 bytes in 2 s, UDP
    skipped; `fail`/`mismatch`/`missing`: a (build, addr, mount) that
    failed to mount, read a wrong byte, or printed nothing."""
    lines = ["# boot noise", "NFSM-ish not a row"]
    for b in builds:
        for a in ("127.0.0.1", "::1"):
            for m in ("tcp", "tcp-nconnect4", "udp"):
                k = (b, a, m)
                if k == missing:
                    continue
                if m == "udp":
                    lines.append("NFSM %s %s %s skip NFS over UDP is compiled out" % k)
                elif k == fail:
                    lines.append("NFSM %s %s %s fail mount: refused" % k)
                else:
                    j = {"bytes": 66880160, "seconds": 2.0,
                         "mismatches": 1 if k == mismatch else 0}
                    lines.append("NFSM %s %s %s ok %s" % (k + (json.dumps(j),)))
                    lines.append("NFSC %s %s %s calls_nfs3=100 sv_lock_acquired=200 "
                                 "sk_lock_acquired=50 flag_rmw=900 threads_woken=120 "
                                 "wakeups_idle=12 bytes_out=-3" % k)
    if end:
        lines.append("NFSM-END")
    lines.append("# vm-run exit %d" % exit_)
    return "\n".join(lines) + "\n"


class NfsMatrixTest(synth.LogJudgeTest):
    TOOL = TOOL

    def judge(self, text, builds=("lock", "lwq")):
        return self.run_tool(text, "--kernels", "stock", "--builds", ",".join(builds),
                             "--results", self.dir)

    def test_clean_run(self):
        r = self.judge(console(["lock", "lwq"]))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("8 mounts read every byte right, 0 failed, 4 skipped, 0 missing",
                      r.stdout)
        self.assertRegex(r.stdout, r"::1\s+tcp-nconnect4\s+ok\s+63\.8\s+2\.00\s+31\.9")
        with open(os.path.join(self.dir, "nfs-matrix.json")) as f:
            doc = json.load(f)
        self.assertEqual(doc["schema"], "svcsock-nfs-matrix")
        self.assertTrue(doc["ok"])

    def test_per_call_counts(self):
        r = self.judge(console(["lock"]), builds=("lock",))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        # 250 locks, 900 atomics, 120 woken (12 idle) over 100 calls
        self.assertRegex(r.stdout, r"::1\s+tcp-nconnect4\s+100\s+2\.50\s+9\.00\s+1\.20\s+10\.0%")
        with open(os.path.join(self.dir, "nfs-matrix.json")) as f:
            row = json.load(f)["rows"][0]
        self.assertEqual(row["counts"]["delta"]["bytes_out"], -3)
        self.assertEqual(row["counts"]["idle_share"], 0.1)

    def test_failed_mount_fails(self):
        r = self.judge(console(["lock", "lwq"], fail=("lock", "::1", "tcp")))
        self.assertEqual(r.returncode, 1)
        self.assertIn("!!! stock lock ::1 tcp: mount: refused", r.stdout)

    def test_mismatch_fails(self):
        r = self.judge(console(["lock"], mismatch=("lock", "127.0.0.1", "tcp")),
                       builds=("lock",))
        self.assertEqual(r.returncode, 1)
        self.assertIn("stock lock 127.0.0.1 tcp", r.stdout)

    def test_missing_row_fails(self):
        r = self.judge(console(["lock", "lwq"], missing=("lwq", "127.0.0.1", "tcp")))
        self.assertEqual(r.returncode, 1)
        self.assertIn("!!! stock lwq 127.0.0.1 tcp: missing", r.stdout)

    def test_unfinished_guest_fails(self):
        r = self.judge(console(["lock"], end=False), builds=("lock",))
        self.assertEqual(r.returncode, 1)
        self.assertIn("did not finish", r.stdout)

    def test_bad_kernel_fails(self):
        r = self.judge(console(["lock"], exit_=122), builds=("lock",))
        self.assertEqual(r.returncode, 1)
        self.assertIn("vm-run exit 122", r.stdout)


if __name__ == "__main__":
    unittest.main()
