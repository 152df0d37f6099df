/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rpcmsg.h - the svcsock program's calls on the wire, for the test tools
 * (conn-churn, rpc-pipeline, hostile).  The encoding is libsvcrpc's
 * (rpcwire.h: rpc_put_call, rm_put_header, rpc_is_null_reply, checked
 * against libtirpc); this adds the program's numbers and its ECHO call.
 *
 * A call is xid, CALL, rpcvers 2, program 0x20049001, version 1, the
 * procedure, AUTH_NONE credential and verifier: 40 bytes; ECHO adds its
 * opaque<> argument.  Over TCP a record marker goes in front.
 */
#ifndef TESTS_TOOLS_RPCMSG_H
#define TESTS_TOOLS_RPCMSG_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "rpcwire.h"

#define RPCMSG_PROG		0x20049001u
#define RPCMSG_VERS		1u
#define RPCMSG_PROC_NULL	0u
#define RPCMSG_PROC_ECHO	1u

/* The 40-byte call header for procedure proc, AUTH_NONE both ways. */
static inline size_t rpcmsg_call(uint8_t *p, uint32_t xid, uint32_t proc)
{
	return rpc_put_call(p, xid, RPCMSG_PROG, RPCMSG_VERS, proc);
}

/* Bytes an ECHO call of size payload bytes takes, without marker. */
static inline size_t rpcmsg_echo_len(uint32_t size)
{
	return RPC_CALL_NONE_LEN + 4 + (((size_t)size + 3) & ~(size_t)3);
}

/*
 * An ECHO call of size bytes of fill (payload may be NULL: then fill
 * is used), zero-padded to 4.  p must hold rpcmsg_echo_len(size).
 */
static inline size_t rpcmsg_echo(uint8_t *p, uint32_t xid, uint32_t size,
				 const uint8_t *payload, uint8_t fill)
{
	size_t n = rpcmsg_call(p, xid, RPCMSG_PROC_ECHO);

	wr_u32(p + n, size);
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

#endif
