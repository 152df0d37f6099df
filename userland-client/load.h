/*
 * load.h - the load generator: N connections, one thread each, verified
 * calls until a duration or a call count is reached.
 */
#ifndef RPCLOAD_LOAD_H
#define RPCLOAD_LOAD_H

#include "cli.h"
#include "histogram.h"

#include <stdbool.h>
#include <stdint.h>

struct load_result {
	uint64_t calls;      /* calls attempted (incl. failed reconnects) */
	uint64_t ok;         /* RPC success and, for ECHO, payload verified */
	uint64_t failures;   /* RPC or transport errors other than timeouts */
	uint64_t timeouts;   /* no reply within --timeout-ms */
	uint64_t mismatches; /* RPC success but ECHO payload differs */
	uint64_t reconnects; /* TCP connections re-established during the run */
	uint64_t payload_bytes; /* ECHO payload bytes sent + received, ok calls */
	unsigned conns_gave_up; /* threads that stopped after failing to reconnect */
	double elapsed_s;
	double ops_per_s;
	double mb_per_s;
	bool interrupted;    /* stopped early by SIGINT/SIGTERM */
	char first_error[240];
	struct hist hist;    /* latency of ok calls, nanoseconds */
};

/*
 * Runs the load.  Returns 0 when the run took place (whatever its errors),
 * -1 with err set when it could not start (resolution, first connections).
 */
int load_run(const struct load_opts *o, struct load_result *res, char *err,
	     size_t n);

#endif
