/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rpcmsg.h - the svcsock program's NULL and ECHO calls on the wire, for
 * the test tools (conn-churn, rpc-pipeline, hostile).  Header only: each
 * function writes into a caller's buffer and returns the bytes written.
 * The RFC 5531 numbers and rd_u32() come from userland-client/rawrpc.h,
 * whose functions are not needed (and not linked) for this.
 *
 * A call is xid, CALL, rpcvers 2, program 0x20049001, version 1, the
 * procedure, AUTH_NONE credential and verifier: 40 bytes; ECHO adds its
 * opaque<> argument.  Over TCP a record marker goes in front.
 */
#ifndef TESTS_TOOLS_RPCMSG_H
#define TESTS_TOOLS_RPCMSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "rawrpc.h"

#define RPCMSG_PROG		0x20049001u
#define RPCMSG_VERS		1u
#define RPCMSG_PROC_NULL	0u
#define RPCMSG_PROC_ECHO	1u
#define RPCMSG_CALL_LEN		40u	/* a NULL call, without marker */
#define RPCMSG_MARK_LEN		4u
/* The reply to a NULL call: xid, REPLY, ACCEPTED, AUTH_NONE, SUCCESS. */
#define RPCMSG_NULL_REPLY_LEN	24u

static inline void rpcmsg_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* A record marker: one fragment of len bytes, the last one when last. */
static inline size_t rpcmsg_mark(uint8_t *p, uint32_t len, bool last)
{
	rpcmsg_put32(p, (len & ~RM_LAST_FRAG) | (last ? RM_LAST_FRAG : 0));
	return RPCMSG_MARK_LEN;
}

/* The 40-byte call header for procedure proc, AUTH_NONE both ways. */
static inline size_t rpcmsg_call(uint8_t *p, uint32_t xid, uint32_t proc)
{
	const uint32_t w[10] = { xid, RPC_MSG_CALL, 2, RPCMSG_PROG,
				 RPCMSG_VERS, proc, RPC_FLAVOR_NONE, 0,
				 RPC_FLAVOR_NONE, 0 };

	for (int i = 0; i < 10; i++)
		rpcmsg_put32(p + 4 * i, w[i]);
	return RPCMSG_CALL_LEN;
}

/* Bytes an ECHO call of size payload bytes takes, without marker. */
static inline size_t rpcmsg_echo_len(uint32_t size)
{
	return RPCMSG_CALL_LEN + 4 + (((size_t)size + 3) & ~(size_t)3);
}

/*
 * An ECHO call of size bytes of fill (payload may be NULL: then fill
 * is used), zero-padded to 4.  p must hold rpcmsg_echo_len(size).
 */
static inline size_t rpcmsg_echo(uint8_t *p, uint32_t xid, uint32_t size,
				 const uint8_t *payload, uint8_t fill)
{
	size_t n = rpcmsg_call(p, xid, RPCMSG_PROC_ECHO);

	rpcmsg_put32(p + n, size);
	n += 4;
	if (payload)
		memcpy(p + n, payload, size);
	else
		memset(p + n, fill, size);
	n += size;
	while (n % 4)
		p[n++] = 0;
	return n;
}

/* The xid of a call (or reply) at p, which starts at the xid. */
static inline void rpcmsg_set_xid(uint8_t *p, uint32_t xid)
{
	rpcmsg_put32(p, xid);
}

/*
 * Is the len bytes at p (one reassembled record or one datagram) the
 * successful reply to call xid, with an AUTH_NONE verifier?
 */
static inline bool rpcmsg_reply_ok(const uint8_t *p, size_t len, uint32_t xid)
{
	return len >= RPCMSG_NULL_REPLY_LEN && rd_u32(p) == xid &&
	       rd_u32(p + 4) == RPC_MSG_REPLY &&
	       rd_u32(p + 8) == RPC_MSG_ACCEPTED &&
	       rd_u32(p + 12) == RPC_FLAVOR_NONE && rd_u32(p + 16) == 0 &&
	       rd_u32(p + 20) == RPC_ACC_SUCCESS;
}

#endif
