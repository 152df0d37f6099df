/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slices_report.h - rpcload slices' output: the human table and the JSON
 * document (jansson, through libsvcrpc's jsonout.h).
 */
#ifndef RPCLOAD_SLICES_REPORT_H
#define RPCLOAD_SLICES_REPORT_H

#include "cli.h"
#include "slices.h"

#include <stdio.h>

/* Why the cell failed (the exit status 1), or NULL when it did not. */
const char *slices_error(const struct slices_opts *o,
			 const struct slices_result *res, char *buf, size_t n);

void slices_table(FILE *f, const struct slices_opts *o,
		  const struct slices_result *res);
/*
 * The document.  err: why the cell could not start (then "slices" is
 * empty), or NULL: the error, if any, is the cell's own (slices_error).
 * 0, or -1 when it could not be built.
 */
int slices_json(FILE *f, const struct slices_opts *o,
		const struct slices_result *res, const char *err);

#endif
