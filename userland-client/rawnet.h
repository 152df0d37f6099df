/*
 * rawnet.h - socket helpers with deadlines for `rpcload bad`.
 *
 * Every operation is bounded by a deadline (CLOCK_MONOTONIC, ms), so a
 * server that stops reading or never answers cannot hang a case.
 */
#ifndef RPCLOAD_RAWNET_H
#define RPCLOAD_RAWNET_H

#include "call.h"
#include "rawrpc.h"

#include <stddef.h>
#include <stdint.h>

enum net_status {
	NET_OK = 0,
	NET_TIMEOUT = -1,
	NET_EOF = -2,   /* orderly close by the peer */
	NET_ERROR = -3, /* errno is set (ECONNRESET, EPIPE, ...) */
	NET_TOOBIG = -4 /* a record longer than the caller accepts */
};

uint64_t mono_ms(void);
void sleep_ms(unsigned ms);
const char *net_status_text(enum net_status st, int err);

/* Non-blocking TCP socket with TCP_NODELAY, connected within timeout_ms.
 * Returns the fd or -1 (errno set). */
int net_tcp_connect(const struct rpc_addr *a, unsigned timeout_ms);
/* Connected non-blocking UDP socket.  Returns the fd or -1. */
int net_udp_socket(const struct rpc_addr *a);

/* Send everything before the deadline (MSG_NOSIGNAL). */
enum net_status net_send_all(int fd, const void *buf, size_t len,
			     uint64_t deadline);
/* Read exactly len bytes before the deadline. */
enum net_status net_recv_exact(int fd, void *buf, size_t len, uint64_t deadline);
/* Read one record (all its fragments) into rec, at most maxlen bytes. */
enum net_status net_recv_record(int fd, struct xbuf *rec, size_t maxlen,
				uint64_t deadline);
/* Wait for the peer to close: NET_EOF/NET_ERROR when it did, NET_TIMEOUT,
 * or NET_OK when data arrived instead (*got bytes were discarded). */
enum net_status net_wait_close(int fd, uint64_t deadline, size_t *got);
/* One datagram; *len is set to its size. */
enum net_status net_recv_dgram(int fd, void *buf, size_t cap, size_t *len,
			       uint64_t deadline);
/* close() that sends a RST (SO_LINGER 0). */
void net_abort(int fd);

#endif
