/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jsonout.h - JSON documents through jansson, printed the same way by
 * every tool: one line, members in the order they were added, reals with
 * 12 significant digits.
 */
#ifndef SVCRPC_JSONOUT_H
#define SVCRPC_JSONOUT_H

#include "histogram.h"
#include "loadgen.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#define JSONOUT_FLAGS (JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12))

/* Print doc and a newline, then drop the reference.  0, or -1 when doc is
 * NULL (it could not be built) or could not be written. */
int json_print(FILE *f, json_t *doc);

/* A string, or null for NULL or "". */
json_t *json_text(const char *s);

/* {"p50","p90","p99","p999","max","mean"}: a histogram of nanoseconds, in
 * microseconds. */
json_t *json_latency_us(const struct hist *h);

/*
 * The "result" object of a load run: calls, ok, failures, timeouts,
 * mismatches, elapsed_s, ops_per_s, mb_per_s, latency_us, payload_bytes,
 * reconnects, conns_gave_up, interrupted, first_error; then, in an
 * open-loop run, service_latency_us, and after a warm-up, warmup_calls and
 * warmup_errors.
 */
json_t *json_load_result(const struct lg_result *r, bool open_loop,
			 bool warmup);

#endif
