# SPDX-License-Identifier: GPL-2.0
"""bench/compare, in the order it works (bench/compare is the entry point):

  builds    the svcsock builds, read from svcsock-mod/Kbuild
  catalog   the servers and workloads that can be measured
  plan      which cells run, how long, in what order; what is dropped
  guest     booting the guest (vm-run), the BENCH-* lines it prints
  stats     medians, spreads, bootstrap intervals, log2 histograms
  cells     runs -> cells -> rows with their ratios
  results   the compare.json document
  table     one table model, rendered for the terminal and Markdown
  report    the tables of compare.md and the terminal
  plot      compare.png (gnuplot)

Standard library only.
"""
