/*
 * rawnet.c - socket helpers with deadlines for `rpcload bad`.
 */
#include "rawnet.h"
#include "clock.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

uint64_t mono_ms(void)
{
	return now_ns() / 1000000u;
}

void sleep_ms(unsigned ms)
{
	struct timespec ts = { .tv_sec = ms / 1000,
			       .tv_nsec = (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
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

static int wait_fd(int fd, short events, uint64_t deadline)
{
	for (;;) {
		uint64_t now = mono_ms();
		struct pollfd p = { .fd = fd, .events = events };
		int rc;

		if (now >= deadline)
			return 0;
		rc = poll(&p, 1, (int)(deadline - now));
		if (rc < 0 && errno == EINTR)
			continue;
		return rc;
	}
}

int net_tcp_connect(const struct rpc_addr *a, unsigned timeout_ms)
{
	int fd = socket(a->ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
			0);
	int one = 1, soerr = 0;
	socklen_t sl = sizeof(soerr);

	if (fd < 0)
		return -1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (connect(fd, (const struct sockaddr *)&a->ss, a->len) == 0)
		return fd;
	if (errno != EINPROGRESS)
		goto fail;
	if (wait_fd(fd, POLLOUT, mono_ms() + timeout_ms) <= 0) {
		errno = ETIMEDOUT;
		goto fail;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) < 0)
		goto fail;
	if (soerr) {
		errno = soerr;
		goto fail;
	}
	return fd;
fail:
	{
		int e = errno;

		close(fd);
		errno = e;
	}
	return -1;
}

int net_udp_socket(const struct rpc_addr *a)
{
	int fd = socket(a->ss.ss_family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
			0);
	int sz = 1 << 20;

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	if (connect(fd, (const struct sockaddr *)&a->ss, a->len) < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

enum net_status net_send_all(int fd, const void *buf, size_t len,
			     uint64_t deadline)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n > 0) {
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			int rc = wait_fd(fd, POLLOUT, deadline);

			if (rc == 0)
				return NET_TIMEOUT;
			if (rc < 0)
				return NET_ERROR;
			continue;
		}
		return NET_ERROR;
	}
	return NET_OK;
}

enum net_status net_recv_exact(int fd, void *buf, size_t len, uint64_t deadline)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t n = recv(fd, p, len, MSG_DONTWAIT);

		if (n > 0) {
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (n == 0)
			return NET_EOF;
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK) {
			int rc = wait_fd(fd, POLLIN, deadline);

			if (rc == 0)
				return NET_TIMEOUT;
			if (rc < 0)
				return NET_ERROR;
			continue;
		}
		return NET_ERROR;
	}
	return NET_OK;
}

enum net_status net_recv_record(int fd, struct xbuf *rec, size_t maxlen,
				uint64_t deadline)
{
	xb_reset(rec);
	for (;;) {
		uint8_t h[4];
		enum net_status st = net_recv_exact(fd, h, 4, deadline);

		if (st != NET_OK)
			return st;
		uint32_t w = rd_u32(h);
		size_t flen = w & ~RM_LAST_FRAG;

		if (rec->len + flen > maxlen)
			return NET_TOOBIG;
		size_t off = rec->len;

		xb_zero(rec, flen);
		st = net_recv_exact(fd, rec->p + off, flen, deadline);
		if (st != NET_OK)
			return st;
		if (w & RM_LAST_FRAG)
			return NET_OK;
	}
}

enum net_status net_wait_close(int fd, uint64_t deadline, size_t *got)
{
	uint8_t buf[4096];

	*got = 0;
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);

		if (n > 0) {
			*got += (size_t)n;
			return NET_OK;
		}
		if (n == 0)
			return NET_EOF;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return NET_ERROR;
		int rc = wait_fd(fd, POLLIN, deadline);

		if (rc == 0)
			return NET_TIMEOUT;
		if (rc < 0)
			return NET_ERROR;
	}
}

enum net_status net_recv_dgram(int fd, void *buf, size_t cap, size_t *len,
			       uint64_t deadline)
{
	for (;;) {
		ssize_t n = recv(fd, buf, cap, MSG_DONTWAIT | MSG_TRUNC);

		if (n >= 0) {
			*len = (size_t)n;
			return (size_t)n > cap ? NET_TOOBIG : NET_OK;
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return NET_ERROR;
		int rc = wait_fd(fd, POLLIN, deadline);

		if (rc == 0)
			return NET_TIMEOUT;
		if (rc < 0)
			return NET_ERROR;
	}
}

void net_abort(int fd)
{
	struct linger l = { .l_onoff = 1, .l_linger = 0 };

	setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof(l));
	close(fd);
}
