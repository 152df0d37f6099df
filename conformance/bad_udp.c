// SPDX-License-Identifier: GPL-2.0
/*
 * bad_udp.c - rpcload bad, UDP: a valid NULL and the largest ECHO in one
 * datagram; empty, random and truncated datagrams (no reply); error
 * replies over UDP.
 */
#include "bad_int.h"
#include "svcsock_prot.h"

_Static_assert(UDP_ECHO_MAX == 65460u, "the largest ECHO in one datagram");

static bool build_empty(struct bad_ctx *c, const struct bad_case *k,
			struct bad_msg *m)
{
	(void)c;
	(void)k;
	(void)m;
	return true;
}

static bool build_random_64k(struct bad_ctx *c, const struct bad_case *k,
			     struct bad_msg *m)
{
	(void)k;
	xb_zero(&m->b, UDP_MAX);
	rng_fill(&c->rng, m->b.p, UDP_MAX);
	m->b.p[4] |= 0x80; /* msg_type is neither CALL nor REPLY */
	return true;
}

/* The first arg[0] bytes of a NULL call. */
static bool build_truncated(struct bad_ctx *c, const struct bad_case *k,
			    struct bad_msg *m)
{
	null_call(c, &m->b);
	if (m->b.len > k->arg[0])
		m->b.len = k->arg[0];
	return true;
}

static bool build_echo_max(struct bad_ctx *c, const struct bad_case *k,
			   struct bad_msg *m)
{
	(void)k;
	/* 40-byte header + 4-byte length + payload <= 65507; reply smaller. */
	return build_echo(c, m, UDP_ECHO_MAX);
}

/* A call: arg = { rpcvers, proc }, AUTH_NONE, to the svcsock program. */
static bool build_call(struct bad_ctx *c, const struct bad_case *k,
		       struct bad_msg *m)
{
	m->xid = new_xid(c);
	call_none(&m->b, m->xid, k->arg[0], SVCSOCK_PROG, SVCSOCK_V1, k->arg[1]);
	return true;
}

static const struct bad_case cases[] = {
	{ .name = "udp-null", .desc = "a valid NULL over UDP is answered",
	  .shape = SH_UDP_NULL },
	{ .name = "udp-zero-datagram", .desc = "0-byte UDP datagram: no reply",
	  .shape = SH_UDP_DROPPED, .build = build_empty },
	{ .name = "udp-random-64k",
	  .desc = "65507-byte random UDP datagram: no reply",
	  .shape = SH_UDP_DROPPED, .build = build_random_64k },
	{ .name = "udp-truncated-header",
	  .desc = "20-byte UDP call header: no reply",
	  .shape = SH_UDP_DROPPED, .build = build_truncated, .arg = { 20 } },
	{ .name = "udp-echo-max",
	  .desc = "ECHO of 65460 bytes in one datagram: answered byte-exact",
	  .shape = SH_UDP_ECHO, .build = build_echo_max },
	{ .name = "udp-rpcvers-3",
	  .desc = "rpcvers 3 over UDP: RPC_MISMATCH low=2 high=2",
	  .shape = SH_UDP_CALL, .build = build_call, .arg = { 3, SVCSOCK_NULL },
	  .expect = { XK_RPC_MISMATCH, 2, 2 } },
	{ .name = "udp-garbage-args",
	  .desc = "SLEEP without argument over UDP: GARBAGE_ARGS",
	  .shape = SH_UDP_CALL, .build = build_call,
	  .arg = { 2, SVCSOCK_SLEEP }, .expect = X_GARBAGE },
};

const struct bad_area bad_area_udp = AREA("UDP", cases);
