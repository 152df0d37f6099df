# SPDX-License-Identifier: GPL-2.0
# plot.gp - compare.png for bench/compare (gnuplot 5).
# Called as: gnuplot -e "datadir='D'; outfile='F'; smps='2 4'; reps=3;
#   servers='lock bitflag ... nfsd ref rr'; nbuilds=3; colors='#d62728 ...'" plot.gp
# servers: what to draw, the builds first (nbuilds of them), colors: one
# each; costsmps: the CPU counts whose builds have counters to draw
# Data: D/null-tcp-smpN-SERVER.dat, columns:
#   conns ops_median ops_min ops_max p99_median p99_min p99_max errors
#   locks_per_call woken_per_call
# One row of three panels per guest CPU count, NULL over TCP against
# connections: what repeats first (each build's lock acquisitions per call,
# solid, and threads woken per call, dashed), then ops/s (median, error bars
# min..max over the runs), then p99 latency.

if (!exists("datadir")) datadir = "results/plot-data"
if (!exists("outfile")) outfile = "results/compare.png"
if (!exists("smps")) smps = "2"
if (!exists("reps")) reps = 3
if (!exists("servers")) servers = "lock bitflag bitlock nfsd ref rr"
if (!exists("nbuilds")) nbuilds = 3
if (!exists("costsmps")) costsmps = smps	# the CPU counts with counters
if (!exists("colors")) colors = "#d62728 #1f77b4 #ff7f0e #2ca02c #9467bd #7f7f7f"

nrows = words(smps)
H = 120 + 440 * nrows	# canvas height, pixels: a top strip + a row per CPU count
# pngcairo when this gnuplot has it (gnuplot-nox does), else libgd's png
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
	set terminal pngcairo size 1800, H font "DejaVu Sans,10" noenhanced
} else {
	set terminal png size 1800, H noenhanced
}
set output outfile

label(s) = (s eq "nfsd") ? "nfsd (NFSv3)" : \
           (s eq "ref") ? "rpcsvc-ref (1 thread)" : \
           (s eq "rr") ? "reference (rr-server)" : \
           sprintf("svcsock_%s", s)
color(i) = word(colors, i)
file(n, s) = sprintf("%s/null-tcp-smp%s-%s.dat", datadir, n, s)

# in screen fractions, from pixels: 120 px on top for the title and the
# legend, 55 px at the bottom for the last x axis, 95 px between rows
top = 1.0 - 120.0 / H
set multiplot layout nrows, 3 margins 0.05, 0.98, 55.0 / H, top spacing 0.06, 95.0 / H \
	title sprintf("svcsock compare: NULL over TCP, median of %d runs (bars: min..max)", reps)
set logscale x 2
set xtics (1, 4, 16, 64)
set xrange [0.8:80]
set grid
# one shared legend in the top strip: coloured labels (a gnuplot key is
# confined to one panel's width)
unset key
do for [i = 1:words(servers)] {
	set label i sprintf("— %s", label(word(servers, i))) at screen 0.02 + 0.96 / words(servers) * (i - 1), screen 1.0 - 70.0 / H \
		left textcolor rgb color(i) font ",11"
}

do for [r = 1:nrows] {
	n = word(smps, r)
	set title sprintf("%s guest CPUs: cost per call (solid: lock acquisitions, dashed: threads woken)", n)
	set xlabel "connections"
	set ylabel "per call"
	unset logscale y
	set yrange [0:*]
	if (strstrt(" ".costsmps." ", " ".n." ") > 0) {
		plot for [i = 1:nbuilds] file(n, word(servers, i)) \
			using 1:9 with linespoints lw 2 pt 7 ps 1 lc rgb color(i) notitle, \
		     for [i = 1:nbuilds] file(n, word(servers, i)) \
			using 1:10 with linespoints lw 2 dt 2 pt 6 ps 1 lc rgb color(i) notitle
	} else {
		# no counters in this guest: an empty panel that says so
		set yrange [0:1]
		set label 99 "no module counters" at graph 0.5, graph 0.5 center
		plot 2 notitle
		unset label 99
		set yrange [0:*]
	}

	set title sprintf("%s guest CPUs: throughput", n)
	set ylabel "ops/s"
	plot for [i = 1:words(servers)] file(n, word(servers, i)) \
		using 1:2:3:4 with yerrorlines lw 2 pt 7 ps 1 lc rgb color(i) notitle

	set title sprintf("%s guest CPUs: p99 latency", n)
	set ylabel "p99 latency, microseconds"
	set logscale y 10
	set yrange [*:*]
	plot for [i = 1:words(servers)] file(n, word(servers, i)) \
		using 1:5:6:7 with yerrorlines lw 2 pt 7 ps 1 lc rgb color(i) notitle
}
unset multiplot
