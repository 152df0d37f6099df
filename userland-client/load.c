// SPDX-License-Identifier: GPL-2.0
/*
 * load.c - rpcload load: the calls libsvcrpc's load generator makes.
 *
 * With --depth 1 a connection is a libtirpc CLIENT on a socket of its own
 * (call.c), one call at a time; with more, the pipelined connections of
 * pipeline.c.  Call number N of a run with seed S sends the ECHO payload
 * pattern(S, N) and verifies the reply byte for byte.
 */
#include "load.h"
#include "call.h"
#include "pattern.h"
#include "pipeline.h"
#include "svcsock_prot.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct load_conn {
	struct rpc_client cl;
	uint8_t *sendbuf;
	uint8_t *recvbuf;
};

static int conn_init(void *vctx, void *vconn, char *err, size_t n)
{
	const struct load_opts *o = ((struct load_target *)vctx)->o;
	struct load_conn *c = vconn;

	if (o->proc != PROCK_ECHO)
		return 0;
	c->sendbuf = malloc(o->size ? o->size : 1);
	/* The reply is decoded in place; it may be as large as allowed. */
	c->recvbuf = malloc(SVCSOCK_ECHO_MAX);
	if (!c->sendbuf || !c->recvbuf) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	return 0;
}

static int conn_open(void *vctx, void *vconn, char *err, size_t n)
{
	struct load_target *ctx = vctx;
	struct load_conn *c = vconn;

	return rpc_client_open(&c->cl, &ctx->o->t, &ctx->addr, ctx->o->size, err,
			       n);
}

static void conn_close(void *vctx, void *vconn)
{
	(void)vctx;
	rpc_client_close(&((struct load_conn *)vconn)->cl);
}

static void conn_fini(void *vctx, void *vconn)
{
	struct load_conn *c = vconn;

	(void)vctx;
	free(c->sendbuf);
	free(c->recvbuf);
}

static void conn_call(void *vctx, void *vconn, uint64_t callno, struct lg_call *r)
{
	const struct load_opts *o = ((struct load_target *)vctx)->o;
	struct load_conn *c = vconn;
	struct call_result cr;

	if (o->proc == PROCK_ECHO)
		pattern_fill(c->sendbuf, o->size, o->seed, callno);
	rpc_do_call(&c->cl, o->proc, c->sendbuf, o->size, c->recvbuf, o->sleep_us,
		    &cr);
	r->outcome = (enum lg_outcome)cr.outcome; /* the same values */
	r->broken = cr.broken;
	snprintf(r->msg, sizeof(r->msg), "%s", cr.msg);
}

static const struct lg_ops load_ops = {
	.conn_size = sizeof(struct load_conn),
	.init = conn_init,
	.open = conn_open,
	.close = conn_close,
	.call = conn_call,
	.fini = conn_fini,
};

const struct lg_ops *load_ops_for(unsigned depth)
{
	return depth > 1 ? &pipeline_ops : &load_ops;
}

int load_run(const struct load_opts *o, struct lg_result *res, char *err,
	     size_t n)
{
	struct load_target ctx = { .o = o };
	struct lg_params p = {
		.conns = o->conns,
		.duration_s = o->duration_s,
		.calls_limit = o->calls_limit,
		.rate = (double)o->rate,
		.warmup_s = o->warmup_s,
		.depth = o->depth,
		.payload_per_call = o->proc == PROCK_ECHO ? 2 * (uint64_t)o->size : 0,
		.progress = o->progress < 0 ? isatty(STDERR_FILENO) : o->progress,
		.name = "rpcload: load",
	};

	if (rpc_resolve(&o->t, &ctx.addr, err, n) < 0)
		return -1;
	return lg_run(&p, load_ops_for(o->depth), &ctx, res, err, n);
}
