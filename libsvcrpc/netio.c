// SPDX-License-Identifier: GPL-2.0
/*
 * netio.c - sockets for the tools (netio.h).
 */
#include "netio.h"
#include "clock.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

volatile sig_atomic_t net_stop;

int net_resolve(const char *host, unsigned port, int socktype,
		struct net_addr *a, char *err, size_t n)
{
	struct addrinfo hints, *res = NULL;
	const char *proto = socktype == SOCK_DGRAM ? "udp" : "tcp";
	char ps[16];
	int rc;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = socktype;
	hints.ai_flags = AI_NUMERICSERV;
	snprintf(ps, sizeof(ps), "%u", port);
	rc = getaddrinfo(host, ps, &hints, &res);
	if (rc != 0 || !res) {
		snprintf(err, n, "cannot resolve host '%s': %s", host,
			 rc ? gai_strerror(rc) : "no address");
		if (res)
			freeaddrinfo(res);
		return -1;
	}
	memset(a, 0, sizeof(*a));
	memcpy(&a->ss, res->ai_addr, res->ai_addrlen);
	a->len = res->ai_addrlen;
	snprintf(a->text, sizeof(a->text),
		 res->ai_family == AF_INET6 ? "[%s]:%u/%s" : "%s:%u/%s", host,
		 port, proto);
	freeaddrinfo(res);
	return 0;
}

int net_wait(int fd, short events, uint64_t deadline)
{
	for (;;) {
		uint64_t now = mono_ms();
		struct pollfd p = { .fd = fd, .events = events };
		int rc;

		if (now >= deadline || net_stop)
			return 0;
		rc = poll(&p, 1, (int)(deadline - now));
		if (rc < 0 && errno == EINTR)
			continue;
		return rc;
	}
}

int net_connect_fd(int fd, const struct net_addr *a, unsigned timeout_ms)
{
	int fl = fcntl(fd, F_GETFL);
	int rc, soerr = 0;
	socklen_t sl = sizeof(soerr);

	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
		return -1;
	rc = connect(fd, (const struct sockaddr *)&a->ss, a->len);
	if (rc < 0 && errno == EINPROGRESS) {
		rc = net_wait(fd, POLLOUT, mono_ms() + timeout_ms);
		if (rc == 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		if (rc < 0)
			return -1;
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) < 0)
			return -1;
		if (soerr) {
			errno = soerr;
			return -1;
		}
	} else if (rc < 0) {
		return -1;
	}
	return fcntl(fd, F_SETFL, fl);
}

int net_dial(const struct net_addr *a, int type, unsigned timeout_ms,
	     unsigned flags, int rcvbuf, int sndbuf)
{
	return net_dial_mss(a, type, timeout_ms, flags, rcvbuf, sndbuf, 0);
}

int net_dial_mss(const struct net_addr *a, int type, unsigned timeout_ms,
		 unsigned flags, int rcvbuf, int sndbuf, int mss)
{
	int fd = socket(a->ss.ss_family,
			type | SOCK_CLOEXEC |
				(flags & NET_NONBLOCK ? SOCK_NONBLOCK : 0),
			0);
	int one = 1, e;

	if (fd < 0)
		return -1;
	if ((rcvbuf && setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf,
				  sizeof(rcvbuf)) < 0) ||
	    (sndbuf && setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf,
				  sizeof(sndbuf)) < 0))
		goto fail;
	if (type == SOCK_STREAM && mss &&
	    setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &mss, sizeof(mss)) < 0)
		goto fail;
	if (type == SOCK_STREAM && (flags & NET_NODELAY))
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (net_connect_fd(fd, a, timeout_ms) == 0)
		return fd;
fail:
	e = errno;
	close(fd);
	errno = e;
	return -1;
}

int net_listen(const char *bind_addr, unsigned port, int type, int backlog,
	       unsigned flags, char *err, size_t n)
{
	struct addrinfo hints, *res = NULL;
	const char *proto = type == SOCK_DGRAM ? "udp" : "tcp";
	char ps[16];
	int fd, one = 1, rc;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = type;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV | AI_NUMERICHOST;
	snprintf(ps, sizeof(ps), "%u", port);
	rc = getaddrinfo(bind_addr, ps, &hints, &res);
	if (rc) {
		snprintf(err, n, "--bind %s: not an IPv4 or IPv6 address (%s)",
			 bind_addr, gai_strerror(rc));
		return -2;
	}
	fd = socket(res->ai_family, type | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, n, "socket: %s", strerror(errno));
		freeaddrinfo(res);
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, res->ai_addr, res->ai_addrlen) < 0) {
		snprintf(err, n, "bind %s port %u/%s: %s", bind_addr, port, proto,
			 strerror(errno));
		goto fail;
	}
	/* Accepted sockets inherit TCP_NODELAY from the listener. */
	if (type == SOCK_STREAM && (flags & NET_NODELAY))
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (type == SOCK_STREAM && listen(fd, backlog) < 0) {
		snprintf(err, n, "listen on %s port %u/%s: %s", bind_addr, port,
			 proto, strerror(errno));
		goto fail;
	}
	freeaddrinfo(res);
	return fd;
fail:
	rc = errno;
	close(fd);
	freeaddrinfo(res);
	errno = rc; /* EADDRINUSE tells a caller to try another port */
	return -1;
}

unsigned net_bound_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t l = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &l) < 0)
		return 0;
	if (ss.ss_family == AF_INET6)
		return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	return ntohs(((struct sockaddr_in *)&ss)->sin_port);
}

const char *net_status_text(enum net_status st, int err)
{
	switch (st) {
	case NET_OK:
		return "ok";
	case NET_TIMEOUT:
		return "timed out";
	case NET_EOF:
		return "connection closed by the server";
	case NET_ERROR:
		return strerror(err);
	case NET_TOOBIG:
		return "record too long";
	}
	return "?";
}

/*
 * After a send or recv that failed: NET_OK to try again (interrupted, or
 * the socket is ready now), or why to stop.
 */
static enum net_status after_error(int fd, short events, uint64_t deadline)
{
	int rc;

	if (errno == EINTR)
		return NET_OK;
	if (errno != EAGAIN && errno != EWOULDBLOCK)
		return NET_ERROR;
	rc = net_wait(fd, events, deadline);
	return rc > 0 ? NET_OK : rc == 0 ? NET_TIMEOUT : NET_ERROR;
}

/* Send (out) or receive len bytes before the deadline. */
static enum net_status xfer(int fd, void *buf, size_t len, uint64_t deadline,
			    bool out)
{
	uint8_t *p = buf;
	enum net_status st;

	while (len) {
		ssize_t n = out ? send(fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT)
				: recv(fd, p, len, MSG_DONTWAIT);

		if (n > 0) {
			p += n;
			len -= (size_t)n;
		} else if (n == 0) {
			return out ? NET_ERROR : NET_EOF;
		} else if ((st = after_error(fd, out ? POLLOUT : POLLIN,
					     deadline)) != NET_OK) {
			return st;
		}
	}
	return NET_OK;
}

enum net_status net_send_all(int fd, const void *buf, size_t len,
			     uint64_t deadline)
{
	return xfer(fd, (void *)buf, len, deadline, true);
}

enum net_status net_recv_exact(int fd, void *buf, size_t len, uint64_t deadline)
{
	return xfer(fd, buf, len, deadline, false);
}

enum net_status net_recv_record(int fd, struct xbuf *rec, size_t maxlen,
				uint64_t deadline)
{
	xb_reset(rec);
	for (;;) {
		uint8_t h[RM_MARK_LEN];
		enum net_status st = net_recv_exact(fd, h, sizeof(h), deadline);
		bool last;

		if (st != NET_OK)
			return st;
		size_t flen = rm_get_header(h, &last);

		if (rec->len + flen > maxlen)
			return NET_TOOBIG;
		size_t off = rec->len;

		xb_zero(rec, flen);
		st = net_recv_exact(fd, rec->p + off, flen, deadline);
		if (st != NET_OK)
			return st;
		if (last)
			return NET_OK;
	}
}

enum net_status net_wait_close(int fd, uint64_t deadline, size_t *got)
{
	uint8_t buf[4096];
	enum net_status st = NET_OK;
	ssize_t n;

	*got = 0;
	while ((n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT)) < 0 &&
	       (st = after_error(fd, POLLIN, deadline)) == NET_OK)
		;
	if (n > 0)
		*got += (size_t)n;
	return n > 0 ? NET_OK : n == 0 ? NET_EOF : st;
}

enum net_status net_recv_dgram(int fd, void *buf, size_t cap, size_t *len,
			       uint64_t deadline)
{
	enum net_status st = NET_OK;
	ssize_t n;

	while ((n = recv(fd, buf, cap, MSG_DONTWAIT | MSG_TRUNC)) < 0 &&
	       (st = after_error(fd, POLLIN, deadline)) == NET_OK)
		;
	if (n < 0)
		return st;
	*len = (size_t)n;
	return (size_t)n > cap ? NET_TOOBIG : NET_OK;
}

void net_abort(int fd)
{
	struct linger l = { .l_onoff = 1, .l_linger = 0 };

	setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof(l));
	close(fd);
}

/* write or read until len bytes went through */
static int fd_full(int fd, void *buf, size_t len, bool wr)
{
	uint8_t *p = buf;

	while (len > 0) {
		ssize_t r = wr ? write(fd, p, len) : read(fd, p, len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r == 0)
				errno = 0;
			return -1;
		}
		p += r;
		len -= (size_t)r;
	}
	return 0;
}

int fd_read_full(int fd, void *buf, size_t len)
{
	return fd_full(fd, buf, len, false);
}

int fd_write_full(int fd, const void *buf, size_t len)
{
	return fd_full(fd, (void *)buf, len, true);
}
