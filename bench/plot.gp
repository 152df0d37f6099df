# plot.gp - compare.png for bench/compare (gnuplot 5).
# Called as: gnuplot -e "datadir='D'; outfile='F'; smps='2 4'; reps=3; dur='2'" plot.gp
# Data: D/null-tcp-smpN-SERVER.dat, columns:
#   conns ops_median ops_min ops_max p99_median p99_min p99_max errors
# One row of two panels per guest CPU count: NULL-over-TCP ops/s against
# connections (median, error bars min..max) and p99 latency.

if (!exists("datadir")) datadir = "results/plot-data"
if (!exists("outfile")) outfile = "results/compare.png"
if (!exists("smps")) smps = "2"
if (!exists("reps")) reps = 3
if (!exists("dur")) dur = "?"

nrows = words(smps)
H = 120 + 440 * nrows	# canvas height, pixels: a top strip + a row per CPU count
# pngcairo when this gnuplot has it (gnuplot-nox does), else libgd's png
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
	set terminal pngcairo size 1400, H font "DejaVu Sans,10" noenhanced
} else {
	set terminal png size 1400, H noenhanced
}
set output outfile

servers = "lock bitflag nfsd ref rr"
label(s) = (s eq "lock") ? "svcsock lock" : \
           (s eq "bitflag") ? "svcsock bitflag" : \
           (s eq "nfsd") ? "kernel nfsd (NFSv3 NULL)" : \
           (s eq "ref") ? "rpcsvc-ref (libtirpc, 1 thread)" : \
           "raw ceiling (rr-server)"
color(i) = word("#d62728 #1f77b4 #2ca02c #9467bd #7f7f7f", i)
file(n, s) = sprintf("%s/null-tcp-smp%s-%s.dat", datadir, n, s)

# in screen fractions, from pixels: 120 px on top for the title and the
# legend, 55 px at the bottom for the last x axis, 95 px between rows
top = 1.0 - 120.0 / H
set multiplot layout nrows, 2 margins 0.06, 0.98, 55.0 / H, top spacing 0.07, 95.0 / H \
	title sprintf("svcsock compare: NULL over TCP, median of %d runs x %s s each (bars: min..max)", reps, dur)
set logscale x 2
set xtics (1, 4, 16, 64)
set xrange [0.8:80]
set grid
# one shared legend in the top strip: coloured labels (a gnuplot key is
# confined to one panel's width)
unset key
do for [i = 1:words(servers)] {
	set label i sprintf("— %s", label(word(servers, i))) at screen 0.04 + 0.19 * (i - 1), screen 1.0 - 70.0 / H \
		left textcolor rgb color(i) font ",11"
}
set style line 100 lw 1

do for [r = 1:nrows] {
	n = word(smps, r)
	set title sprintf("%s guest CPUs: throughput", n)
	set xlabel "connections"
	set ylabel "ops/s"
	unset logscale y
	set yrange [0:*]
	plot for [i = 1:words(servers)] file(n, word(servers, i)) \
		using 1:2:3:4 with yerrorlines lw 2 pt 7 ps 1 lc rgb color(i) \
		title label(word(servers, i))

	set title sprintf("%s guest CPUs: p99 latency", n)
	set ylabel "p99 latency, microseconds"
	set logscale y 10
	set yrange [*:*]
	plot for [i = 1:words(servers)] file(n, word(servers, i)) \
		using 1:5:6:7 with yerrorlines lw 2 pt 7 ps 1 lc rgb color(i) \
		title label(word(servers, i))
}
unset multiplot
