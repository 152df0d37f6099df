/* SPDX-License-Identifier: GPL-2.0 */
/*
 * call.h - one libtirpc client connection and one verified call on it.
 *
 * Used by the single-call commands and by every load thread.  The client
 * is built on a socket this code creates and connects itself
 * (clnt_vc_create / clnt_dg_create), so no rpcbind and no /etc/netconfig
 * lookup is involved.
 */
#ifndef RPCLOAD_CALL_H
#define RPCLOAD_CALL_H

#include "cli.h"
#include "loadgen.h"
#include "netio.h"

#include <stdbool.h>
#include <stdint.h>

#include <rpc/rpc.h>

struct rpc_client {
	CLIENT *clnt;
	int fd;
	enum proto proto;
	unsigned timeout_ms;
};

/* The load generator's outcomes (loadgen.h), which a call's are. */
enum call_outcome {
	CALL_OK = LG_OK,
	CALL_FAILED = LG_FAILED,     /* any RPC or transport error but a timeout */
	CALL_TIMEOUT = LG_TIMEOUT,   /* no reply within the timeout */
	CALL_MISMATCH = LG_MISMATCH, /* RPC success, but the ECHO payload differs */
};

struct call_result {
	enum call_outcome outcome;
	enum clnt_stat stat;
	bool broken; /* the connection should be re-established */
	char msg[200];
};

/*
 * The message of a failed call, as rpcload prints it: clnt_sperrno's text
 * and what e adds (errno, versions, auth_stat).
 */
void rpc_describe_err(enum clnt_stat st, const struct rpc_err *e, char *msg,
		      size_t n);

/* Resolve t->host (numeric or name, IPv4 or IPv6).  0 or -1 with err. */
int rpc_resolve(const struct target *t, struct net_addr *a, char *err, size_t n);

/*
 * Create the socket, connect (TCP, bounded by t->timeout_ms) and the
 * client.  echo_size sizes the TCP record buffers: above 64 KiB they are
 * made large enough for a whole ECHO call, so it goes out in one write.
 */
int rpc_client_open(struct rpc_client *c, const struct target *t,
		    const struct net_addr *a, uint32_t echo_size, char *err,
		    size_t n);
void rpc_client_close(struct rpc_client *c);

/*
 * One call.  For ECHO, payload[0..size) is sent and the reply is decoded
 * into replybuf (which must hold SVCSOCK_ECHO_MAX bytes) and compared with
 * payload byte for byte.
 */
void rpc_do_call(struct rpc_client *c, enum proc_kind p, const uint8_t *payload,
		 uint32_t size, uint8_t *replybuf, uint32_t sleep_us,
		 struct call_result *r);

#endif
