// SPDX-License-Identifier: GPL-2.0
/*
 * slices_report.c - rpcload slices' table and JSON document.
 */
#include "slices_report.h"
#include "design.h"
#include "jsonout.h"
#include "report.h"

#include <limits.h>
#include <string.h>

static uint64_t errors_of(const struct slice_rec *s)
{
	return s->failures + s->timeouts + s->mismatches;
}

#define ALL_TARGETS UINT_MAX

/* Target ti's slices (ALL_TARGETS: every slice), summed. */
static void sum_target(const struct slices_result *res, unsigned ti,
		       struct slice_sum *t)
{
	slice_sum_start(t, res->nslices);
	for (unsigned i = 0; i < res->nslices; i++) {
		const struct slice_rec *s = &res->slices[i];

		if (ti == ALL_TARGETS || s->target == ti)
			slice_sum_add(t, s->calls, s->ok, errors_of(s),
				      s->elapsed_s, s->ops_per_s);
	}
	slice_sum_end(t);
}

const char *slices_error(const struct slices_opts *o,
			 const struct slices_result *res, char *buf, size_t n)
{
	int idle = slices_idle_target(o, res);
	struct slice_sum all;

	if (slices_all_ok(o, res))
		return NULL;
	if (res->error[0]) {
		snprintf(buf, n, "%s", res->error);
		return buf;
	}
	sum_target(res, ALL_TARGETS, &all);
	if (all.first_bad >= 0) {
		const struct slice_rec *first = &res->slices[all.first_bad];

		snprintf(buf, n,
			 "%llu of %llu calls failed; first in round %u, target %s: %s",
			 (unsigned long long)all.errors,
			 (unsigned long long)all.calls, first->round,
			 o->targets[first->target].name, first->first_error);
	} else if (idle >= 0) {
		snprintf(buf, n, "target %s: no call succeeded in any slice",
			 o->targets[idle].name);
	} else {
		snprintf(buf, n, "%u of %u slices ran", res->nslices,
			 res->rounds * o->ntargets);
	}
	return buf;
}

static void target_line(FILE *f, const struct slice_target *st)
{
	bool v6 = strchr(st->t.host, ':') != NULL;

	fprintf(f, "  %-12s %s%s%s:%u/%s prog %u vers %u\n", st->name,
		v6 ? "[" : "", st->t.host, v6 ? "]" : "", st->t.port,
		proto_name(st->t.proto), (unsigned)st->t.prog,
		(unsigned)st->t.vers);
}

void slices_table(FILE *f, const struct slices_opts *o,
		  const struct slices_result *res)
{
	unsigned nt = o->ntargets;

	fprintf(f, "rpcload slices  proc %s", proc_kind_name(o->proc));
	report_workload(f, o->proc, o->size, o->sleep_us, o->conns, " per target",
			o->depth);
	fprintf(f, "  slice %.3f s (first %.3f s not counted)  seed %llu\n",
		o->slice_s, o->warm_s, (unsigned long long)o->seed);
	fprintf(f, "targets:\n");
	for (unsigned i = 0; i < nt; i++)
		target_line(f, &o->targets[i]);
	fprintf(f, "order: Williams design, %u rounds, blocks of %u (%s)\n",
		res->rounds, res->block,
		res->balanced ? "balanced: whole blocks" :
				"not balanced: not whole blocks");
	fprintf(f, "clock: monotonic %.6f s = realtime %.6f s (t_start below is monotonic)\n",
		(double)res->clock_monotonic_ns / 1e9,
		(double)res->clock_realtime_ns / 1e9);
	fprintf(f, "%5s %3s %-12s %10s %8s %9s %12s %10s %10s %18s\n", "round",
		"pos", "target", "calls", "errors", "elapsed_s", "ops/s", "p50_us",
		"p99_us", "t_start (mono s)");
	for (unsigned i = 0; i < res->nslices; i++) {
		const struct slice_rec *s = &res->slices[i];

		fprintf(f, "%5u %3u %-12s %10llu %8llu %9.3f %12.1f %10.1f %10.1f %18.6f%s\n",
			s->round, s->position, o->targets[s->target].name,
			(unsigned long long)s->calls,
			(unsigned long long)errors_of(s), s->elapsed_s,
			s->ops_per_s, s->p50_us, s->p99_us, s->t_start,
			s->interrupted ? "  interrupted" : "");
	}
	fprintf(f, "per target (counted parts of its slices):\n");
	fprintf(f, "%-12s %6s %12s %8s %12s %12s %12s %12s %10s %10s\n", "target",
		"slices", "calls", "errors", "ops/s", "median", "min", "max",
		"p50_us", "p99_us");
	for (unsigned i = 0; i < nt; i++) {
		struct slice_sum t;

		sum_target(res, i, &t);
		fprintf(f, "%-12s %6u %12llu %8llu %12.1f %12.1f %12.1f %12.1f %10.1f %10.1f\n",
			o->targets[i].name, t.slices, (unsigned long long)t.calls,
			(unsigned long long)t.errors,
			t.ops_per_s, t.median, t.min, t.max,
			(double)hist_percentile(&res->hist[i], 50) / 1e3,
			(double)hist_percentile(&res->hist[i], 99) / 1e3);
	}
	if (slices_empty(res))
		fprintf(f, "%u slice(s) without a call in the counted part: one call outlasted it (the host or the server stalled)\n",
			slices_empty(res));
	if (res->interrupted)
		fprintf(f, "interrupted after %u of %u slices\n", res->nslices,
			res->rounds * nt);
	for (unsigned i = 0; i < res->nslices; i++)
		if (res->slices[i].first_error[0]) {
			fprintf(f, "first error: round %u, target %s: %s\n",
				res->slices[i].round,
				o->targets[res->slices[i].target].name,
				res->slices[i].first_error);
			break;
		}
	if (res->error[0])
		fprintf(f, "stopped: %s\n", res->error);
}

static json_t *params_json(const struct slices_opts *o)
{
	return json_pack("{s:s, s:I, s:I, s:I, s:I, s:f, s:f, s:I, s:f, s:I, s:I}",
			 "proc", proc_kind_name(o->proc), "size", (json_int_t)o->size,
			 "sleep_us", (json_int_t)o->sleep_us, "conns",
			 (json_int_t)o->conns, "depth", (json_int_t)o->depth,
			 "slice_s", o->slice_s, "warm_s", o->warm_s, "rounds",
			 (json_int_t)o->rounds, "duration_s", o->duration_s,
			 "timeout_ms", (json_int_t)o->timeout_ms, "seed",
			 (json_int_t)o->seed);
}

static json_t *targets_json(const struct slices_opts *o)
{
	json_t *a = json_array();

	for (unsigned i = 0; a && i < o->ntargets; i++) {
		const struct slice_target *st = &o->targets[i];

		if (json_array_append_new(
			    a, json_pack("{s:s, s:s, s:I, s:s, s:I, s:I}", "name",
					 st->name, "host", st->t.host, "port",
					 (json_int_t)st->t.port, "proto",
					 proto_name(st->t.proto), "prog",
					 (json_int_t)st->t.prog, "vers",
					 (json_int_t)st->t.vers)) < 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *order_json(const struct slices_opts *o,
			  const struct slices_result *res)
{
	json_t *a = json_array();

	for (unsigned r = 0; a && res->order && r < res->rounds; r++) {
		json_t *row = json_array();

		for (unsigned j = 0; row && j < o->ntargets; j++)
			json_array_append_new(
				row, json_string(o->targets[res->order[r * o->ntargets + j]].name));
		if (json_array_append_new(a, row) < 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *slice_json(const struct slices_opts *o, const struct slice_rec *s)
{
	return json_pack(
		"{s:I, s:I, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:f, s:f,"
		" s:f, s:f, s:f, s:I, s:I, s:I, s:b, s:o}",
		"round", (json_int_t)s->round, "position", (json_int_t)s->position,
		"target", o->targets[s->target].name, "calls", (json_int_t)s->calls,
		"ok", (json_int_t)s->ok, "errors", (json_int_t)errors_of(s),
		"failures", (json_int_t)s->failures, "timeouts",
		(json_int_t)s->timeouts, "mismatches", (json_int_t)s->mismatches,
		"elapsed_s", s->elapsed_s, "ops_per_s", s->ops_per_s, "mb_per_s",
		s->mb_per_s, "p50_us", s->p50_us, "p99_us", s->p99_us, "t_start",
		s->t_start, "t_measure", s->t_measure, "t_end", s->t_end,
		"warmup_calls", (json_int_t)s->warmup_calls, "warmup_errors",
		(json_int_t)s->warmup_errors, "reconnects", (json_int_t)s->reconnects,
		"interrupted", s->interrupted, "first_error", json_text(s->first_error));
}

static json_t *summary_json(const struct slices_opts *o,
			    const struct slices_result *res)
{
	json_t *a = json_array();

	for (unsigned i = 0; a && i < o->ntargets; i++) {
		struct slice_sum t;

		sum_target(res, i, &t);
		if (json_array_append_new(
			    a, json_pack("{s:s, s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:f, s:f, s:f}",
					 "target", o->targets[i].name, "slices",
					 (json_int_t)t.slices, "calls",
					 (json_int_t)t.calls, "ok", (json_int_t)t.ok,
					 "errors", (json_int_t)t.errors,
					 "ops_per_s", t.ops_per_s,
					 "median_ops_per_s", t.median,
					 "min_ops_per_s", t.min, "max_ops_per_s", t.max,
					 "p50_us",
					 (double)hist_percentile(&res->hist[i], 50) / 1e3,
					 "p99_us",
					 (double)hist_percentile(&res->hist[i], 99) / 1e3)) < 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

int slices_json(FILE *f, const struct slices_opts *o,
		const struct slices_result *res, const char *err)
{
	char buf[600];
	json_t *doc, *slices = json_array();

	for (unsigned i = 0; slices && i < res->nslices; i++)
		if (json_array_append_new(slices, slice_json(o, &res->slices[i])) < 0) {
			json_decref(slices);
			slices = NULL;
		}
	if (!err)
		err = slices_error(o, res, buf, sizeof(buf));
	doc = json_pack(
		"{s:s, s:i, s:s, s:o, s:o, s:{s:s, s:I, s:I, s:b, s:I}, s:o,"
		" s:{s:I, s:I}, s:o, s:o, s:I, s:b}",
		"tool", "rpcload", "version", 1, "command", "slices", "params",
		params_json(o), "targets", targets_json(o), "design", "kind",
		"williams", "block", (json_int_t)res->block, "rounds",
		(json_int_t)res->rounds, "balanced", res->balanced, "rounds_done",
		(json_int_t)res->rounds_done, "order", order_json(o, res), "clock",
		"monotonic_ns", (json_int_t)res->clock_monotonic_ns, "realtime_ns",
		(json_int_t)res->clock_realtime_ns, "slices", slices, "summary",
		summary_json(o, res), "empty_slices", (json_int_t)slices_empty(res),
		"interrupted", res->interrupted);
	if (doc && err)
		json_object_set_new(doc, "error", json_string(err));
	return json_print(f, doc);
}
