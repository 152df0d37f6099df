// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - rpcload's output: human tables and JSON documents.
 */
#include "report.h"
#include "jsonout.h"

#include <string.h>

static double us(uint64_t ns)
{
	return (double)ns / 1000.0;
}

static const char *outcome_name(enum call_outcome oc)
{
	static const char *const names[] = {
		[CALL_OK] = "ok", [CALL_FAILED] = "failed",
		[CALL_TIMEOUT] = "timeout", [CALL_MISMATCH] = "mismatch",
	};

	return (unsigned)oc < sizeof(names) / sizeof(names[0]) ? names[oc] : "?";
}

static void latency_row(FILE *f, const char *label, const struct hist *h)
{
	fprintf(f, "%-12s %10.1f %10.1f %10.1f %10.1f %10.1f %10.1f\n", label,
		us(hist_percentile(h, 50)), us(hist_percentile(h, 90)),
		us(hist_percentile(h, 99)), us(hist_percentile(h, 99.9)),
		us(h->count ? h->max : 0), hist_mean(h) / 1000.0);
}

void report_workload(FILE *f, enum proc_kind proc, uint32_t size,
		     uint32_t sleep_us, unsigned conns, const char *conns_per,
		     unsigned depth)
{
	if (proc == PROCK_ECHO)
		fprintf(f, " size %u", (unsigned)size);
	if (proc == PROCK_SLEEP)
		fprintf(f, " sleep_us %u", (unsigned)sleep_us);
	fprintf(f, "  conns %u%s", conns, conns_per);
	if (depth > 1)
		fprintf(f, "  depth %u", depth);
}

void report_load_table(FILE *f, const struct load_opts *o,
		       const struct lg_result *r)
{
	fprintf(f, "rpcload load  %s:%u/%s  prog %u vers %u  proc %s",
		o->t.host, o->t.port, proto_name(o->t.proto), (unsigned)o->t.prog,
		(unsigned)o->t.vers, proc_kind_name(o->proc));
	report_workload(f, o->proc, o->size, o->sleep_us, o->conns, "", o->depth);
	fprintf(f, "  seed %llu\n", (unsigned long long)o->seed);
	if (o->rate)
		fprintf(f, "open loop: %llu calls/s scheduled; latency from the scheduled time, service from the send\n",
			(unsigned long long)o->rate);
	if (o->warmup_s > 0)
		fprintf(f, "warm-up %.3f s: %llu calls, %llu errors (not counted below)\n",
			o->warmup_s, (unsigned long long)r->warmup_calls,
			(unsigned long long)r->warmup_errors);
	fprintf(f, "%-12s %14s %14s %10s %10s %10s %10s\n", "elapsed_s", "calls",
		"ok", "failures", "timeouts", "mismatch", "reconnect");
	fprintf(f, "%-12.3f %14llu %14llu %10llu %10llu %10llu %10llu\n",
		r->elapsed_s, (unsigned long long)r->calls,
		(unsigned long long)r->ok, (unsigned long long)r->failures,
		(unsigned long long)r->timeouts, (unsigned long long)r->mismatches,
		(unsigned long long)r->reconnects);
	fprintf(f, "%-12s %14s %14s\n", "", "ops/s", "MB/s");
	fprintf(f, "%-12s %14.1f %14.3f\n", "", r->ops_per_s, r->mb_per_s);
	fprintf(f, "latency_us   %10s %10s %10s %10s %10s %10s\n", "p50", "p90",
		"p99", "p99.9", "max", "mean");
	latency_row(f, "", &r->hist);
	if (o->rate)
		latency_row(f, "service_us", &r->service_hist);
	if (r->conns_gave_up)
		fprintf(f, "%u connection(s) gave up after %d failed reconnects\n",
			r->conns_gave_up, LG_MAX_RECONNECT_FAILURES);
	if (r->interrupted)
		fprintf(f, "interrupted\n");
	if (r->first_error[0])
		fprintf(f, "first error: %s\n", r->first_error);
}

/* Why a run that took place failed (rpcload's exit status 1), or NULL. */
static const char *run_error(const struct lg_result *r, char *buf, size_t n)
{
	uint64_t bad = r->failures + r->timeouts + r->mismatches;

	if (lg_all_ok(r))
		return NULL;
	if (!bad) {
		snprintf(buf, n, "no call succeeded");
		return buf;
	}
	snprintf(buf, n,
		 "%llu of %llu calls failed (failures %llu, timeouts %llu, mismatches %llu)%s%s",
		 (unsigned long long)bad, (unsigned long long)r->calls,
		 (unsigned long long)r->failures, (unsigned long long)r->timeouts,
		 (unsigned long long)r->mismatches, r->first_error[0] ? ": " : "",
		 r->first_error);
	return buf;
}

static json_t *load_params(const struct load_opts *o)
{
	json_t *params = json_pack(
		"{s:s, s:I, s:s, s:I, s:I, s:I, s:s, s:I, s:I, s:f, s:I, s:I, s:I}",
		"host", o->t.host, "port", (json_int_t)o->t.port, "proto",
		proto_name(o->t.proto), "prog", (json_int_t)o->t.prog, "vers",
		(json_int_t)o->t.vers, "conns", (json_int_t)o->conns, "proc",
		proc_kind_name(o->proc), "size", (json_int_t)o->size, "sleep_us",
		(json_int_t)o->sleep_us, "duration_s", o->duration_s,
		"calls_limit", (json_int_t)o->calls_limit, "seed",
		/* --seed is at most 2^63-1: it fits a JSON (jansson) integer. */
		(json_int_t)o->seed, "timeout_ms", (json_int_t)o->t.timeout_ms);

	/* Only when used: the document of a plain run stays as it was. */
	if (params && o->rate)
		json_object_set_new(params, "rate", json_integer((json_int_t)o->rate));
	if (params && o->warmup_s > 0)
		json_object_set_new(params, "warmup_s", json_real(o->warmup_s));
	if (params && o->depth > 1)
		json_object_set_new(params, "depth", json_integer(o->depth));
	return params;
}

int report_load_json(FILE *f, const struct load_opts *o,
		     const struct lg_result *r, const char *err)
{
	char buf[400];
	json_t *params = load_params(o);
	json_t *result = r ? json_load_result(r, o->rate > 0, o->warmup_s > 0)
			   : json_null();
	json_t *doc;

	if (!err && r)
		err = run_error(r, buf, sizeof(buf));
	if (!params || !result) {
		json_decref(params);
		json_decref(result);
		return -1;
	}
	doc = json_pack("{s:s, s:i, s:o, s:o}", "tool", "rpcload", "version", 1,
			"params", params, "result", result);
	if (doc && err)
		json_object_set_new(doc, "error", json_string(err));
	return json_print(f, doc);
}

int report_error_json(FILE *f, const char *msg)
{
	return json_print(f, json_pack("{s:s, s:i, s:s}", "tool", "rpcload",
				       "version", 1, "error", msg));
}

void report_single_line(FILE *out, FILE *errf, const struct single_opts *o,
			const char *addr_text, const struct call_result *r,
			double latency_us)
{
	char what[128];

	if (o->proc == PROCK_ECHO)
		snprintf(what, sizeof(what), "echo %u bytes", (unsigned)o->size);
	else if (o->proc == PROCK_SLEEP)
		snprintf(what, sizeof(what), "sleep %u us", (unsigned)o->sleep_us);
	else
		snprintf(what, sizeof(what), "null");
	if (r->outcome == CALL_OK)
		fprintf(out, "%s %s prog %u vers %u: ok in %.1f us\n", what,
			addr_text, (unsigned)o->t.prog, (unsigned)o->t.vers,
			latency_us);
	else
		fprintf(errf, "rpcload: %s %s prog %u vers %u: %s: %s\n", what,
			addr_text, (unsigned)o->t.prog, (unsigned)o->t.vers,
			outcome_name(r->outcome), r->msg);
}

int report_single_json(FILE *f, const struct single_opts *o,
		       const struct call_result *r, double latency_us)
{
	json_t *call = json_pack(
		"{s:s, s:s, s:I, s:s, s:I, s:I, s:I, s:I, s:b, s:s, s:o, s:f}",
		"proc", proc_kind_name(o->proc), "host", o->t.host, "port",
		(json_int_t)o->t.port, "proto", proto_name(o->t.proto), "prog",
		(json_int_t)o->t.prog, "vers", (json_int_t)o->t.vers, "size",
		(json_int_t)o->size, "sleep_us", (json_int_t)o->sleep_us, "ok",
		r->outcome == CALL_OK, "outcome", outcome_name(r->outcome), "error",
		r->outcome == CALL_OK ? json_null() : json_string(r->msg),
		"latency_us", latency_us);

	if (!call)
		return -1;
	return json_print(f, json_pack("{s:s, s:i, s:o}", "tool", "rpcload",
				       "version", 1, "call", call));
}
