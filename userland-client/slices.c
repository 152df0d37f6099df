// SPDX-License-Identifier: GPL-2.0
/*
 * slices.c - rpcload slices (slices.h).
 */
#include "slices.h"
#include "call.h"
#include "clock.h"
#include "design.h"
#include "load.h"
#include "loadgen.h"
#include "stopsig.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NS 1e9

static volatile sig_atomic_t stop_asked;

static void on_signal(int sig)
{
	(void)sig;
	stop_asked = 1;
}

/* What every connection to one target shares (load.c's context). */
struct slices_target {
	struct load_opts lo;
	struct load_target ctx;
	struct lg_keep *keep;
};

int slices_plan(const struct slices_opts *o, struct slices_result *res,
		char *err, size_t n)
{
	unsigned nt = o->ntargets;
	struct design_plan p;

	memset(res, 0, sizeof(*res));
	if (design_plan(nt, o->duration_s, o->slice_s, o->rounds,
			SLICES_MIN_ROUNDS, SLICES_MAX_ROUNDS, &p, err, n) < 0)
		return -1;
	res->rounds = p.rounds;
	res->block = p.block;
	res->balanced = p.balanced;
	res->order = p.order;
	res->slices = calloc((size_t)p.rounds * nt, sizeof(*res->slices));
	res->hist = calloc(nt, sizeof(*res->hist));
	if (!res->slices || !res->hist) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	for (unsigned i = 0; i < nt; i++)
		hist_init(&res->hist[i]);
	return 0;
}

/* One NULL call on a connection of its own: is the target there? */
static int probe(const struct slice_target *st, const struct net_addr *a,
		 char *err, size_t n)
{
	struct rpc_client cl;
	struct call_result r;
	char why[300];

	if (rpc_client_open(&cl, &st->t, a, 0, why, sizeof(why)) < 0) {
		snprintf(err, n, "target %s: %s", st->name, why);
		return -1;
	}
	rpc_do_call(&cl, PROCK_NULL, NULL, 0, NULL, 0, &r);
	rpc_client_close(&cl);
	if (r.outcome != CALL_OK) {
		snprintf(err, n, "target %s: %s: NULL call failed: %s", st->name,
			 a->text, r.msg);
		return -1;
	}
	return 0;
}

/* Resolve, check and connect every target before anything is measured. */
static int open_targets(const struct slices_opts *o, struct slices_target *ts,
			char *err, size_t n)
{
	char why[300];

	for (unsigned i = 0; i < o->ntargets; i++) {
		struct slices_target *t = &ts[i];
		const struct slice_target *st = &o->targets[i];

		t->lo = (struct load_opts){ .t = st->t, .proc = o->proc,
					    .conns = o->conns, .size = o->size,
					    .sleep_us = o->sleep_us, .seed = o->seed,
					    .depth = o->depth };
		t->ctx.o = &t->lo;
		if (rpc_resolve(&st->t, &t->ctx.addr, why, sizeof(why)) < 0) {
			snprintf(err, n, "target %s: %s", st->name, why);
			return -1;
		}
		if (probe(st, &t->ctx.addr, err, n) < 0)
			return -1;
	}
	for (unsigned i = 0; i < o->ntargets; i++) {
		struct slices_target *t = &ts[i];

		t->keep = lg_keep_open(o->conns, load_ops_for(o->depth), &t->ctx,
				       why, sizeof(why));
		if (!t->keep) {
			snprintf(err, n, "target %s: %s", o->targets[i].name, why);
			return -1;
		}
	}
	return 0;
}

static void record(struct slice_rec *s, const struct lg_result *r)
{
	s->calls = r->calls;
	s->ok = r->ok;
	s->failures = r->failures;
	s->timeouts = r->timeouts;
	s->mismatches = r->mismatches;
	s->warmup_calls = r->warmup_calls;
	s->warmup_errors = r->warmup_errors;
	s->reconnects = r->reconnects;
	s->elapsed_s = r->elapsed_s;
	s->ops_per_s = r->ops_per_s;
	s->mb_per_s = r->mb_per_s;
	s->p50_us = (double)hist_percentile(&r->hist, 50) / 1e3;
	s->p99_us = (double)hist_percentile(&r->hist, 99) / 1e3;
	s->t_start = (double)r->start_ns / NS;
	s->t_measure = (double)r->measure_ns / NS;
	s->t_end = (double)r->end_ns / NS;
	s->interrupted = r->interrupted;
	snprintf(s->first_error, sizeof(s->first_error), "%s", r->first_error);
}

static void progress_line(const struct slices_opts *o,
			  const struct slices_result *res, const struct slice_rec *s)
{
	fprintf(stderr,
		"[slice %u/%u] round %u pos %u %-12s %10.0f ops/s  errors %llu  t %.6f..%.6f\n",
		res->nslices, res->rounds * o->ntargets, s->round, s->position,
		o->targets[s->target].name, s->ops_per_s,
		(unsigned long long)(s->failures + s->timeouts + s->mismatches),
		s->t_start, s->t_end);
}

/* The slices, round after round, until the plan or a signal ends them. */
static void run_rounds(const struct slices_opts *o, struct slices_target *ts,
		       struct slices_result *res, struct lg_result *r)
{
	unsigned nt = o->ntargets;
	int progress = o->progress < 0 ? isatty(STDERR_FILENO) : o->progress;
	struct lg_params p = {
		.conns = o->conns,
		.duration_s = o->slice_s - o->warm_s,
		.warmup_s = o->warm_s,
		.depth = o->depth,
		.payload_per_call = o->proc == PROCK_ECHO ? 2 * (uint64_t)o->size : 0,
		.name = "rpcload: slices",
	};

	/* the line before the first slice: with the one each slice's end
	 * prints, it marks every slice's start, so that a watcher reading
	 * stderr (bench/compare samples the host's CPU time on each line)
	 * has both ends of every slice */
	if (progress)
		fprintf(stderr, "[slice 0/%u] connected, the first slice starts\n",
			res->rounds * nt);
	for (unsigned round = 0; round < res->rounds && !stop_asked; round++) {
		unsigned whole = 0; /* slices of the round that ran whole */

		for (unsigned pos = 0; pos < nt && !stop_asked; pos++) {
			unsigned ti = res->order[(size_t)round * nt + pos];
			struct slice_rec *s = &res->slices[res->nslices];
			char why[300];

			p.keep = ts[ti].keep;
			if (lg_run(&p, load_ops_for(o->depth), &ts[ti].ctx, r, why,
				   sizeof(why)) < 0) {
				snprintf(res->error, sizeof(res->error),
					 "round %u, target %s: %s", round + 1,
					 o->targets[ti].name, why);
				return;
			}
			s->round = round + 1;
			s->position = pos + 1;
			s->target = ti;
			record(s, r);
			hist_merge(&res->hist[ti], &r->hist);
			res->nslices++;
			if (progress)
				progress_line(o, res, s);
			if (r->interrupted)
				stop_asked = 1;
			else
				whole++;
		}
		if (whole == nt)
			res->rounds_done++;
	}
}

int slices_run(const struct slices_opts *o, struct slices_result *res,
	       char *err, size_t n)
{
	struct slices_target *ts;
	struct lg_result *r;
	struct stopsig saved;
	struct timespec mono, real;
	int rc = -1;

	if (slices_plan(o, res, err, n) < 0)
		return -1;
	ts = calloc(o->ntargets, sizeof(*ts));
	r = malloc(sizeof(*r)); /* two histograms: not on the stack */
	if (!ts || !r) {
		snprintf(err, n, "out of memory");
		goto out;
	}
	/* one reading of each clock, together, to align the slices with */
	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_REALTIME, &real);
	res->clock_monotonic_ns = (uint64_t)mono.tv_sec * 1000000000u +
				  (uint64_t)mono.tv_nsec;
	res->clock_realtime_ns = (uint64_t)real.tv_sec * 1000000000u +
				 (uint64_t)real.tv_nsec;
	if (open_targets(o, ts, err, n) < 0)
		goto out;

	stopsig_catch(&saved, on_signal);
	stop_asked = 0;

	run_rounds(o, ts, res, r);

	res->interrupted = stop_asked;
	stopsig_restore(&saved);
	rc = 0;
out:
	if (ts)
		for (unsigned i = 0; i < o->ntargets; i++)
			lg_keep_close(ts[i].keep);
	free(ts);
	free(r);
	return rc;
}

int slices_idle_target(const struct slices_opts *o,
		       const struct slices_result *res)
{
	for (unsigned t = 0; t < o->ntargets; t++) {
		bool ran = false, answered = false;

		for (unsigned i = 0; i < res->nslices; i++) {
			ran |= res->slices[i].target == t;
			answered |= res->slices[i].target == t && res->slices[i].ok;
		}
		if (ran && !answered)
			return (int)t;
	}
	return -1;
}

unsigned slices_empty(const struct slices_result *res)
{
	unsigned n = 0;

	for (unsigned i = 0; i < res->nslices; i++)
		n += res->slices[i].calls == 0;
	return n;
}

bool slices_all_ok(const struct slices_opts *o, const struct slices_result *res)
{
	if (res->error[0] || !res->nslices)
		return false;
	if (!res->interrupted && res->nslices != res->rounds * o->ntargets)
		return false;
	for (unsigned i = 0; i < res->nslices; i++) {
		const struct slice_rec *s = &res->slices[i];

		if (s->failures || s->timeouts || s->mismatches)
			return false;
	}
	return slices_idle_target(o, res) < 0;
}

void slices_free(struct slices_result *res)
{
	free(res->order);
	free(res->slices);
	free(res->hist);
	memset(res, 0, sizeof(*res));
}
