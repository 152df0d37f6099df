/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slices.h - rpcload slices: one load driver moving the same load from
 * target to target in short slices, for paired comparisons.
 *
 * Every target's connections (--conns each) are opened at the start and
 * stay open for the whole cell (libsvcrpc's lg_keep_open); the load then
 * runs on one target at a time for a slice (--slice, its first --warm not
 * counted: libsvcrpc's load generator with that warm-up), in rounds, each
 * round every target once, in the order of a Williams design (design.h).
 * The slices of one round ran a few seconds apart, under nearly the same
 * host, so a ratio of two targets within a round cancels the host's slow
 * drift; bench/comparelib/paired.py takes it from there.
 *
 * Before anything is measured each target answers one NULL call on a
 * connection of its own (a UDP target with nothing behind it is found
 * here, not in the middle of the cell).  Every call of every slice is
 * verified as rpcload load verifies it (load.c, pipeline.c).
 */
#ifndef RPCLOAD_SLICES_H
#define RPCLOAD_SLICES_H

#include "cli.h"
#include "histogram.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One slice: the counted part of one target's turn in one round. */
struct slice_rec {
	unsigned round;    /* 1, 2, ... */
	unsigned position; /* 1..ntargets: its place in the round's order */
	unsigned target;   /* index into slices_opts.targets */
	uint64_t calls, ok, failures, timeouts, mismatches;
	uint64_t warmup_calls, warmup_errors, reconnects;
	double elapsed_s;  /* of the counted part */
	double ops_per_s, mb_per_s;
	double p50_us, p99_us;
	/* CLOCK_MONOTONIC, s: the load moves to the target (its warm-up
	 * starts), the counted part starts, the last call ends */
	double t_start, t_measure, t_end;
	bool interrupted;
	char first_error[240];
};

struct slices_result {
	unsigned rounds;      /* planned */
	unsigned block;       /* rounds in one block of the design */
	bool balanced;        /* the planned rounds are whole blocks */
	unsigned *order;      /* rounds x ntargets: round r's order */
	struct slice_rec *slices; /* in the order they ran */
	unsigned nslices;     /* slices that ran */
	unsigned rounds_done; /* rounds whose every slice ran */
	struct hist *hist;    /* per target: latency of its counted calls */
	/* one reading of both clocks at the start, to align the slices'
	 * monotonic times with another clock */
	uint64_t clock_monotonic_ns, clock_realtime_ns;
	bool interrupted;     /* SIGINT/SIGTERM stopped the cell early */
	char error[400];      /* why a slice could not run; "" */
};

/*
 * The plan: rounds and order (nothing is contacted).  0, or -1 with err.
 * --rounds N: N rounds; --duration D: the whole blocks of rounds that fit
 * in D at the planned slice length (fewer rounds when not even one block
 * fits), at most N with both; neither: whole blocks, at least
 * SLICES_MIN_ROUNDS rounds.
 */
int slices_plan(const struct slices_opts *o, struct slices_result *res,
		char *err, size_t n);

/*
 * Plans, checks every target (one NULL call each), opens every
 * connection, runs the slices.  0 when the cell ran (whatever its errors;
 * res->error says why it stopped early, if it did), -1 with err set when
 * it could not start: res then holds the plan and no slice.
 */
int slices_run(const struct slices_opts *o, struct slices_result *res,
	       char *err, size_t n);

/*
 * Whether every slice ran, every call was ok, and every target answered
 * some.  A slice may have no call in its counted part (one call outlasted
 * it: the host or the server stalled; a SLEEP longer than the slice):
 * that is not an error, but it is counted (slices_empty).
 */
bool slices_all_ok(const struct slices_opts *o, const struct slices_result *res);
/* The first target that ran slices but had no call answered, or -1. */
int slices_idle_target(const struct slices_opts *o,
		       const struct slices_result *res);
/* Slices without a call in their counted part. */
unsigned slices_empty(const struct slices_result *res);

void slices_free(struct slices_result *res);

#endif
