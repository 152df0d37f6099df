/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rr.h - the wire format shared by rr-server and rr-client.
 *
 * "rr" is the bare request/response reference of bench/compare: the same
 * request and reply sizes as an RPC call and its reply over TCP loopback,
 * with no RPC at all.
 *
 * A connection starts with one hello from the client:
 *     u32 magic "RRv1", u32 request size, u32 reply size  (big-endian)
 * then carries any number of exchanges: the client writes exactly
 * <request size> bytes, the server reads them all and writes exactly
 * <reply size> bytes.  The first 8 bytes of each request are the call's
 * sequence number; the server copies them into the first 8 bytes of the
 * reply (so the client can check that each reply answers its request),
 * the rest of the reply is a fixed pattern.  Sizes are at least 8.
 */
#ifndef SVCSOCK_BENCH_RR_H
#define SVCSOCK_BENCH_RR_H

#include <stdint.h>

#define RR_MAGIC 0x52527631u /* "RRv1" */
#define RR_HELLO_LEN 12u
#define RR_MIN_SIZE 8u
#define RR_MAX_SIZE (16u << 20) /* 16 MiB */
#define RR_DEFAULT_PORT 20050u

/*
 * The sizes of a NULL call and its reply over TCP with AUTH_NONE, record
 * mark included: 4 (record mark) + 24 (xid, CALL, rpcvers, prog, vers,
 * proc) + 8 (cred) + 8 (verf) = 44; reply: 4 + 12 (xid, REPLY, ACCEPTED)
 * + 8 (verf) + 4 (SUCCESS) = 28.  ECHO of N bytes adds 4 + N (padded to
 * 4) to both.
 */
#define RR_NULL_REQ 44u
#define RR_NULL_RESP 28u

#endif
