/*
 * report.c - rpcload's output: human tables and JSON documents (jansson).
 */
#include "report.h"

#include <jansson.h>
#include <string.h>

#define JSON_FLAGS (JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12))

static double us(uint64_t ns)
{
	return (double)ns / 1000.0;
}

static const char *outcome_name(enum call_outcome oc)
{
	switch (oc) {
	case CALL_OK:
		return "ok";
	case CALL_FAILED:
		return "failed";
	case CALL_TIMEOUT:
		return "timeout";
	case CALL_MISMATCH:
		return "mismatch";
	}
	return "?";
}

void report_load_table(FILE *f, const struct load_opts *o,
		       const struct load_result *r)
{
	const struct hist *h = &r->hist;

	fprintf(f, "rpcload load  %s:%u/%s  prog %u vers %u  proc %s",
		o->t.host, o->t.port, proto_name(o->t.proto), (unsigned)o->t.prog,
		(unsigned)o->t.vers, proc_kind_name(o->proc));
	if (o->proc == PROCK_ECHO)
		fprintf(f, " size %u", (unsigned)o->size);
	if (o->proc == PROCK_SLEEP)
		fprintf(f, " sleep_us %u", (unsigned)o->sleep_us);
	fprintf(f, "  conns %u  seed %llu\n", o->conns,
		(unsigned long long)o->seed);
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
	fprintf(f, "%-12s %10.1f %10.1f %10.1f %10.1f %10.1f %10.1f\n", "",
		us(hist_percentile(h, 50)), us(hist_percentile(h, 90)),
		us(hist_percentile(h, 99)), us(hist_percentile(h, 99.9)),
		us(h->count ? h->max : 0), hist_mean(h) / 1000.0);
	if (r->conns_gave_up)
		fprintf(f, "%u connection(s) gave up after %d failed reconnects\n",
			r->conns_gave_up, 3);
	if (r->interrupted)
		fprintf(f, "interrupted\n");
	if (r->first_error[0])
		fprintf(f, "first error: %s\n", r->first_error);
}

int report_load_json(FILE *f, const struct load_opts *o,
		     const struct load_result *r)
{
	const struct hist *h = &r->hist;
	json_t *doc, *params, *result, *lat;
	int rc;

	params = json_pack(
		"{s:s, s:I, s:s, s:I, s:I, s:I, s:s, s:I, s:I, s:f, s:I, s:I, s:I}",
		"host", o->t.host, "port", (json_int_t)o->t.port, "proto",
		proto_name(o->t.proto), "prog", (json_int_t)o->t.prog, "vers",
		(json_int_t)o->t.vers, "conns", (json_int_t)o->conns, "proc",
		proc_kind_name(o->proc), "size", (json_int_t)o->size, "sleep_us",
		(json_int_t)o->sleep_us, "duration_s", o->duration_s,
		"calls_limit", (json_int_t)o->calls_limit, "seed",
		/* --seed is at most 2^63-1: it fits a JSON (jansson) integer. */
		(json_int_t)o->seed, "timeout_ms", (json_int_t)o->t.timeout_ms);
	lat = json_pack("{s:f, s:f, s:f, s:f, s:f, s:f}", "p50",
			us(hist_percentile(h, 50)), "p90", us(hist_percentile(h, 90)),
			"p99", us(hist_percentile(h, 99)), "p999",
			us(hist_percentile(h, 99.9)), "max",
			us(h->count ? h->max : 0), "mean", hist_mean(h) / 1000.0);
	result = json_pack(
		"{s:I, s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:o, s:I, s:I, s:I, s:b, s:o}",
		"calls", (json_int_t)r->calls, "ok", (json_int_t)r->ok, "failures",
		(json_int_t)r->failures, "timeouts", (json_int_t)r->timeouts,
		"mismatches", (json_int_t)r->mismatches, "elapsed_s", r->elapsed_s,
		"ops_per_s", r->ops_per_s, "mb_per_s", r->mb_per_s, "latency_us",
		lat, "payload_bytes", (json_int_t)r->payload_bytes, "reconnects",
		(json_int_t)r->reconnects,
		"conns_gave_up", (json_int_t)r->conns_gave_up, "interrupted",
		r->interrupted, "first_error",
		r->first_error[0] ? json_string(r->first_error) : json_null());
	if (!params || !result) {
		json_decref(params);
		json_decref(result);
		return -1;
	}
	doc = json_pack("{s:s, s:i, s:o, s:o}", "tool", "rpcload", "version", 1,
			"params", params, "result", result);
	if (!doc)
		return -1;
	rc = json_dumpf(doc, f, JSON_FLAGS);
	fputc('\n', f);
	json_decref(doc);
	return rc;
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
	json_t *call, *doc;
	int rc;

	call = json_pack("{s:s, s:s, s:I, s:s, s:I, s:I, s:I, s:I, s:b, s:s, s:o, s:f}",
			 "proc", proc_kind_name(o->proc), "host", o->t.host, "port",
			 (json_int_t)o->t.port, "proto", proto_name(o->t.proto),
			 "prog", (json_int_t)o->t.prog, "vers",
			 (json_int_t)o->t.vers, "size", (json_int_t)o->size,
			 "sleep_us", (json_int_t)o->sleep_us, "ok",
			 r->outcome == CALL_OK, "outcome", outcome_name(r->outcome),
			 "error", r->outcome == CALL_OK ? json_null() : json_string(r->msg),
			 "latency_us", latency_us);
	if (!call)
		return -1;
	doc = json_pack("{s:s, s:i, s:o}", "tool", "rpcload", "version", 1, "call",
			call);
	if (!doc)
		return -1;
	rc = json_dumpf(doc, f, JSON_FLAGS);
	fputc('\n', f);
	json_decref(doc);
	return rc;
}
