// SPDX-License-Identifier: GPL-2.0
/*
 * jsonout.c - JSON documents through jansson (jsonout.h).
 */
#include "jsonout.h"

int json_print(FILE *f, json_t *doc)
{
	int rc;

	if (!doc)
		return -1;
	rc = json_dumpf(doc, f, JSONOUT_FLAGS);
	fputc('\n', f);
	json_decref(doc);
	return rc;
}

json_t *json_text(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

static double us(uint64_t ns)
{
	return (double)ns / 1000.0;
}

json_t *json_latency_us(const struct hist *h)
{
	return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f}", "p50",
			 us(hist_percentile(h, 50)), "p90",
			 us(hist_percentile(h, 90)), "p99",
			 us(hist_percentile(h, 99)), "p999",
			 us(hist_percentile(h, 99.9)), "max",
			 us(h->count ? h->max : 0), "mean", hist_mean(h) / 1000.0);
}

json_t *json_load_result(const struct lg_result *r, bool open_loop,
			 bool warmup)
{
	json_t *o = json_pack(
		"{s:I, s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:o, s:I, s:I, s:I, s:b, s:o}",
		"calls", (json_int_t)r->calls, "ok", (json_int_t)r->ok, "failures",
		(json_int_t)r->failures, "timeouts", (json_int_t)r->timeouts,
		"mismatches", (json_int_t)r->mismatches, "elapsed_s", r->elapsed_s,
		"ops_per_s", r->ops_per_s, "mb_per_s", r->mb_per_s, "latency_us",
		json_latency_us(&r->hist), "payload_bytes",
		(json_int_t)r->payload_bytes, "reconnects",
		(json_int_t)r->reconnects, "conns_gave_up",
		(json_int_t)r->conns_gave_up, "interrupted", r->interrupted,
		"first_error", json_text(r->first_error));

	if (o && open_loop &&
	    json_object_set_new(o, "service_latency_us",
				json_latency_us(&r->service_hist)) < 0)
		goto fail;
	if (o && warmup &&
	    (json_object_set_new(o, "warmup_calls",
				 json_integer((json_int_t)r->warmup_calls)) < 0 ||
	     json_object_set_new(o, "warmup_errors",
				 json_integer((json_int_t)r->warmup_errors)) < 0))
		goto fail;
	return o;
fail:
	json_decref(o);
	return NULL;
}
