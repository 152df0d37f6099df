// SPDX-License-Identifier: GPL-2.0
/*
 * single.c - rpcload null|echo|sleep: one call, one line (or JSON).
 */
#include "single.h"
#include "call.h"
#include "clock.h"
#include "pattern.h"
#include "report.h"
#include "svcsock_prot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int single_run(const struct single_opts *o)
{
	struct net_addr addr;
	struct rpc_client cl;
	struct call_result r;
	uint8_t *payload = NULL, *reply = NULL;
	uint64_t t0;
	double lat_us;
	char err[300];

	memset(&r, 0, sizeof(r));
	if (rpc_resolve(&o->t, &addr, err, sizeof(err)) < 0 ||
	    rpc_client_open(&cl, &o->t, &addr, o->size, err, sizeof(err)) < 0) {
		if (o->json) {
			r.outcome = CALL_FAILED;
			r.stat = RPC_SYSTEMERROR;
			snprintf(r.msg, sizeof(r.msg), "%.190s", err);
			report_single_json(stdout, o, &r, 0.0);
		} else {
			fprintf(stderr, "rpcload: %s: %s\n", proc_kind_name(o->proc), err);
		}
		return 1;
	}
	if (o->proc == PROCK_ECHO) {
		payload = malloc(o->size ? o->size : 1);
		reply = malloc(SVCSOCK_ECHO_MAX);
		if (!payload || !reply) {
			fprintf(stderr, "rpcload: out of memory\n");
			exit(1);
		}
		/* Call number 0 of the run with this seed. */
		pattern_fill(payload, o->size, o->seed, 0);
	}
	t0 = now_ns();
	rpc_do_call(&cl, o->proc, payload, o->size, reply, o->sleep_us, &r);
	lat_us = (double)(now_ns() - t0) / 1e3;
	rpc_client_close(&cl);
	if (o->json)
		report_single_json(stdout, o, &r, lat_us);
	else
		report_single_line(stdout, stderr, o, addr.text, &r, lat_us);
	free(payload);
	free(reply);
	return r.outcome == CALL_OK ? 0 : 1;
}
