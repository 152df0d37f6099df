/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - rpcload's output: human tables and JSON documents (jansson,
 * through libsvcrpc's jsonout.h).
 */
#ifndef RPCLOAD_REPORT_H
#define RPCLOAD_REPORT_H

#include "call.h"
#include "cli.h"
#include "loadgen.h"

#include <stdio.h>

/*
 * The workload in a table's title line (load, slices): " size N" (echo),
 * " sleep_us N" (sleep), "  conns N" and conns_per ("" or " per target"),
 * "  depth N" when pipelined.
 */
void report_workload(FILE *f, enum proc_kind proc, uint32_t size,
		     uint32_t sleep_us, unsigned conns, const char *conns_per,
		     unsigned depth);
void report_load_table(FILE *f, const struct load_opts *o,
		       const struct lg_result *r);
/*
 * The load document.  err is why the run failed: NULL when it ran and every
 * call was ok; for a run with failed calls, NULL makes the text from the
 * counts; a run that could not start has r NULL ("result": null).
 * 0, or -1 if the document could not be built.
 */
int report_load_json(FILE *f, const struct load_opts *o,
		     const struct lg_result *r, const char *err);
/* {"tool":"rpcload","version":1,"error":MSG}: a usage error under --json. */
int report_error_json(FILE *f, const char *msg);

void report_single_line(FILE *out, FILE *errf, const struct single_opts *o,
			const char *addr_text, const struct call_result *r,
			double latency_us);
int report_single_json(FILE *f, const struct single_opts *o,
		       const struct call_result *r, double latency_us);

#endif
