#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench/comparelib/report and plan on SYNTHETIC data: counters the
module does not have are "-", never a crash; every build appears in every
table; a plan over its budget drops rows and names them, never shortens
runs."""
import os
import sys
import types
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import synth  # noqa: E402
from comparelib import catalog, cells, plan, report, table  # noqa: E402


def run_json(server, rep, before, after, ops=1000.0):
    return {"id": rep, "rep": rep, "server": server, "wl": "null-tcp",
            "kind": "rpcload", "conns": 1, "rc": 0, "t0": 1.0, "t1": 2.0,
            "svcsock_before": before, "svcsock_after": after,
            "out": synth.tool_json("null-tcp", 1, ops)}


def doc_of(runs, builds):
    cl = cells.aggregate([{"smp": 2, "json": runs}], 4, builds)
    return {"builds": builds, "baseline": "lock", "cells": cl,
            "rows": cells.build_rows(cl, builds, 4),
            "settings": {"reps": 3, "min_duration_s": 2, "min_calls": 1000}}


class ReportTest(unittest.TestCase):
    def test_missing_counters_are_dashes(self):
        # today's module: no lwq_lock_acquired, flag_rmw, wakeups_idle,
        # owner_wait_log2_*; and a run with no module statistics at all
        runs = []
        for rep in (1, 2, 3):
            b, a = synth.svcsock(1000, "lock")
            runs.append(run_json("lock", rep, b, a))
            runs.append(run_json("bitflag", rep, None, None))
        doc = doc_of(runs, ["lock", "bitflag"])
        t = report.cost_table(doc)
        names = [n for n, _ in t.columns]
        row = dict(zip(names, t.rows[0]))
        self.assertEqual(row["build"], "lock")
        self.assertEqual(row["sv_lock"], "3.00")
        for col in ("lwq_lock", "flag RMW", "idle wakeups", "owner p50 us",
                    "owner p99 us"):
            self.assertEqual(row[col], "-", col)
        self.assertIn("| lock | 3.00 | 2.00 | - |", table.markdown(t))
        text = table.text(t)
        self.assertIn("lock", text)
        report.terminal(dict(doc, settings=dict(doc["settings"], reps=3)))

    def test_new_counters_are_shown(self):
        runs = []
        for rep in (1, 2, 3):
            b, a = synth.svcsock(1000, "queued")
            runs.append(run_json("queued", rep, b, a))
        doc = doc_of(runs, ["lock", "queued"])
        row = dict(zip([n for n, _ in report.cost_table(doc).columns],
                       report.cost_table(doc).rows[0]))
        self.assertEqual((row["lwq_lock"], row["flag RMW"], row["idle wakeups"]),
                         ("2.00", "5.00", "0.20"))
        self.assertEqual(row["owner p50 us"], "1.55")

    def test_ratios_name_their_pair(self):
        runs = []
        for rep in (1, 2, 3):
            for b in ("lock", "bitflag", "bitlock"):
                runs.append(run_json(b, rep, None, None, synth.rate(b, rep, 1)))
        doc = doc_of(runs, ["lock", "bitflag", "bitlock"])
        pairs = [(r["num"], r["den"]) for r in doc["rows"][0]["ratios"]]
        self.assertEqual(pairs, [("bitflag", "lock"), ("bitlock", "lock"),
                                 ("bitlock", "bitflag")])
        t = report.throughput_table(doc)
        text = table.text(t)
        self.assertRegex(text, r"bitlock .* tie \(")
        self.assertIn("| **2.00 (", table.markdown(t))


def settings(**kw):
    s = dict(smps=[2, 4], reps=3, min_duration=2.0, min_calls=1000,
             warmup=0.5, budget_s=0, quick=False,
             servers=catalog.server_order(synth.BUILDS),
             workloads=catalog.WORKLOAD_ORDER, builds=synth.BUILDS,
             depth_ok=True, depth_why="")
    s.update(kw)
    return types.SimpleNamespace(**s)


class PlanTest(unittest.TestCase):
    def test_run_length_is_set_by_the_statistics(self):
        self.assertEqual(plan.run_length("null-tcp", 1, 2.0, 1000), 2.0)
        self.assertEqual(plan.run_length("null-tcp", 1, 1.0, 1000), 2.0)
        self.assertEqual(plan.run_length("echo-64k", 16, 2.0, 1000), 3.5)
        self.assertEqual(plan.run_length("null-tcp", 64, 2.0, 0), 2.0)

    def test_over_budget_drops_rows_and_names_them(self):
        free = plan.build(settings())
        tight = plan.build(settings(budget_s=300))
        self.assertLessEqual(tight.estimate_s(), 300)
        self.assertGreater(len(tight.dropped), len(free.dropped))
        for d in tight.dropped:
            self.assertIn("budget", d["reason"])
        durs = {(r["wl"], r["conns"]): r["dur"] for r in free.runs()}
        for r in tight.runs():
            self.assertEqual(r["dur"], durs[(r["wl"], r["conns"])])
        kept = [(r.smp, r.wl, r.conns) for r in tight.rows]
        self.assertIn((2, "null-tcp", 1), kept)

    def test_pipelined_rows_need_depth(self):
        p = plan.build(settings(depth_ok=False, depth_why="no --depth here"))
        gone = [(d["workload"], d["reason"]) for d in p.dropped]
        for wl in ("null-tcp-d1", "null-tcp-d8", "null-tcp-d64", "sleep-1ms-d64"):
            self.assertIn(wl, [g[0] for g in gone])
        self.assertFalse([r for r in p.runs() if r["depth"]])
        p = plan.build(settings())
        self.assertEqual(sorted(set(r["depth"] for r in p.runs())), [0, 1, 8, 64])

    def test_every_build_runs_every_round(self):
        p = plan.build(settings(workloads=["null-tcp"], smps=[2]))
        for rep in (1, 2, 3):
            got = [r["server"] for r in p.runs() if r["rep"] == rep]
            self.assertTrue(set(synth.BUILDS) <= set(got))
        firsts = [[r["server"] for r in p.runs() if r["rep"] == rep][0]
                  for rep in (1, 2, 3)]
        self.assertEqual(len(set(firsts)), 3)


if __name__ == "__main__":
    unittest.main(verbosity=2)
