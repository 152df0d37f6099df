/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netio.h - sockets for the tools: name resolution, connect and listen,
 * reads and writes bounded by deadlines, RPC records off a stream.
 *
 * Deadlines are mono_ms() readings (clock.h): a server that stops reading
 * or never answers cannot hang a caller.  A signal handler that sets
 * net_stop makes every wait here return as if its deadline had passed.
 */
#ifndef SVCRPC_NETIO_H
#define SVCRPC_NETIO_H

#include "rpcwire.h"

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

struct net_addr {
	struct sockaddr_storage ss;
	socklen_t len;
	char text[300]; /* "host:port/proto" ("[host]:port/proto" for IPv6) */
};

/* Set by a program's signal handler: stop waiting. */
extern volatile sig_atomic_t net_stop;

/*
 * Resolve host (a name or a numeric address, IPv4 or IPv6) and port for
 * socktype (SOCK_STREAM or SOCK_DGRAM).  0, or -1 with err set.
 */
int net_resolve(const char *host, unsigned port, int socktype,
		struct net_addr *a, char *err, size_t n);

enum {
	NET_NONBLOCK = 1 << 0, /* leave the socket non-blocking */
	NET_NODELAY = 1 << 1,  /* TCP_NODELAY (on a listener: for accepted sockets) */
};

/* Connect fd to a within timeout_ms; fd's blocking mode is kept.
 * 0, or -1 with errno set (ETIMEDOUT when the time ran out). */
int net_connect_fd(int fd, const struct net_addr *a, unsigned timeout_ms);

/*
 * A new socket of type (SOCK_STREAM, SOCK_DGRAM) connected to a within
 * timeout_ms, with the NET_* flags; rcvbuf and sndbuf, when not 0, are set
 * before it connects.  The fd, or -1 with errno set.
 */
int net_dial(const struct net_addr *a, int type, unsigned timeout_ms,
	     unsigned flags, int rcvbuf, int sndbuf);

/* net_dial(), and on a stream socket TCP_MAXSEG set to mss (when not 0)
 * before it connects, so that the SYN announces it (tests/tools/hostile
 * slowlive: a small MSS keeps the server's send buffer small). */
int net_dial_mss(const struct net_addr *a, int type, unsigned timeout_ms,
		 unsigned flags, int rcvbuf, int sndbuf, int mss);

/*
 * A socket of type bound to the numeric address bind_addr (IPv4 or IPv6)
 * and port (0: a free one), with SO_REUSEADDR; a stream socket listens
 * with backlog.  The fd; -2 when bind_addr is not a numeric address, -1
 * when the system refused; err says why.
 */
int net_listen(const char *bind_addr, unsigned port, int type, int backlog,
	       unsigned flags, char *err, size_t n);

/* The port a socket is bound to (0 when unknown). */
unsigned net_bound_port(int fd);

enum net_status {
	NET_OK = 0,
	NET_TIMEOUT = -1,
	NET_EOF = -2,   /* orderly close by the peer */
	NET_ERROR = -3, /* errno is set (ECONNRESET, EPIPE, ...) */
	NET_TOOBIG = -4 /* a record longer than the caller accepts */
};

const char *net_status_text(enum net_status st, int err);

/* Wait for events on fd: 1 ready, 0 deadline passed (or net_stop), -1 error. */
int net_wait(int fd, short events, uint64_t deadline);
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

/* Blocking whole reads and writes: 0, or -1 with errno set (0 at EOF). */
int fd_read_full(int fd, void *buf, size_t len);
int fd_write_full(int fd, const void *buf, size_t len);

#endif
