/*
 * report.h - rpcload's output: human tables and JSON documents (jansson).
 */
#ifndef RPCLOAD_REPORT_H
#define RPCLOAD_REPORT_H

#include "call.h"
#include "cli.h"
#include "load.h"

#include <stdio.h>

void report_load_table(FILE *f, const struct load_opts *o,
		       const struct load_result *r);
/* 0, or -1 if the document could not be built. */
int report_load_json(FILE *f, const struct load_opts *o,
		     const struct load_result *r);

void report_single_line(FILE *out, FILE *errf, const struct single_opts *o,
			const char *addr_text, const struct call_result *r,
			double latency_us);
int report_single_json(FILE *f, const struct single_opts *o,
		       const struct call_result *r, double latency_us);

#endif
