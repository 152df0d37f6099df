// SPDX-License-Identifier: GPL-2.0
/*
 * bad_header.c - rpcload bad, the call header: a valid NULL, then wrong
 * RPC version, program, version, procedure, and a REPLY sent to the server.
 */
#include "bad_int.h"
#include "svcsock_prot.h"

/* A call: arg = { rpcvers, prog, vers, proc }, AUTH_NONE. */
static bool build_call(struct bad_ctx *c, const struct bad_case *k,
		       struct bad_msg *m)
{
	m->xid = new_xid(c);
	call_none(&m->b, m->xid, k->arg[0], k->arg[1], k->arg[2], k->arg[3]);
	return true;
}

static bool build_reply(struct bad_ctx *c, const struct bad_case *k,
			struct bad_msg *m)
{
	struct rpc_reply r = { .xid = new_xid(c) };
	struct xbuf rec;

	(void)k;
	xb_init(&rec);
	rpc_enc_reply(&rec, &r); /* MSG_ACCEPTED, AUTH_NONE, SUCCESS */
	rm_record(&m->b, rec.p, rec.len);
	xb_free(&rec);
	return true;
}

static const struct bad_case cases[] = {
	{ .name = "tcp-null", .desc = "a valid NULL call is answered",
	  .shape = SH_TCP_NULL },
	{ .name = "rpcvers-3",
	  .desc = "rpcvers 3: MSG_DENIED RPC_MISMATCH low=2 high=2",
	  .shape = SH_TCP_CALL, .build = build_call,
	  .arg = { 3, SVCSOCK_PROG, SVCSOCK_V1, 0 },
	  .expect = { XK_RPC_MISMATCH, 2, 2 } },
	{ .name = "prog-unavail", .desc = "unknown program: PROG_UNAVAIL",
	  .shape = SH_TCP_CALL, .build = build_call,
	  .arg = { 2, SVCSOCK_PROG + 1, 1, 0 },
	  .expect = { XK_PROG_UNAVAIL, 0, 0 } },
	{ .name = "prog-mismatch", .desc = "version 7: PROG_MISMATCH low=1 high=1",
	  .shape = SH_TCP_CALL, .build = build_call,
	  .arg = { 2, SVCSOCK_PROG, 7, 0 },
	  .expect = { XK_PROG_MISMATCH, 1, 1 } },
	{ .name = "proc-unavail", .desc = "procedure 9: PROC_UNAVAIL",
	  .shape = SH_TCP_CALL, .build = build_call,
	  .arg = { 2, SVCSOCK_PROG, SVCSOCK_V1, 9 },
	  .expect = { XK_PROC_UNAVAIL, 0, 0 } },
	{ .name = "reply-to-server",
	  .desc = "a REPLY message sent to the server: dropped, connection usable",
	  .shape = SH_TCP_DROPPED, .build = build_reply },
};

const struct bad_area bad_area_header = AREA("call header", cases);
