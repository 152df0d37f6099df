// SPDX-License-Identifier: GPL-2.0
/*
 * conn-churn: open TCP connections to the svcsock program from several
 * threads as fast as they go, make one NULL call on each, close it, and
 * count what went wrong.  Every connection is accepted by the server's
 * listener, so this is the test of the accept path under concurrency:
 * a listener that is lost (closed, or stranded with connections in its
 * queue) turns into refused or timed-out connects.
 *
 * Hand-written XDR (rpcmsg.h), as in rpc-pipeline: nothing between us
 * and the wire.
 */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "rpcmsg.h"

#define MAX_THREADS 256
#define MAX_HOLD 256

static struct {
	struct sockaddr_in addr;
	unsigned int threads, duration_ms, timeout_ms, hold;
	unsigned long max_conns;
} opt = { .threads = 8, .duration_ms = 5000, .timeout_ms = 5000, .hold = 1 };

static atomic_ulong n_conns, n_ok, n_refused, n_timeout, n_other;
static atomic_int first_errno;
static uint64_t t_start;

static void usage(FILE *f)
{
	fprintf(f,
"usage: conn-churn [--host A] [--port P] [--threads N] [--duration-ms D]\n"
"                  [--connections M] [--hold H] [--timeout-ms T]\n"
"From N threads, until D ms have passed or M connections were made:\n"
"connect H connections over TCP one after the other, make one NULL call\n"
"to program 0x20049001 version 1 on each and check the reply, close them.\n"
"Prints one line of counts; exit 0 when every connection was made and\n"
"answered, 1 otherwise, 2 on a usage error.\n"
"  --host A          IPv4 address (default 127.0.0.1)\n"
"  --port P          port (default 20049)\n"
"  --threads N       client threads, 1-%d (default 8)\n"
"  --duration-ms D   how long to run (default 5000)\n"
"  --connections M   stop after M connections in all (default: no limit)\n"
"  --hold H          connections a thread opens before it calls on them\n"
"                    and closes them, 1-%d (default 1): bursts of connects\n"
"  --timeout-ms T    connect and reply timeout (default 5000)\n",
		MAX_THREADS, MAX_HOLD);
}

/* Wait for fd to become ready for events; 0 ready, -1 with errno set. */
static int wait_fd(int fd, short events)
{
	struct pollfd p = { .fd = fd, .events = events };
	int rc;

	do
		rc = poll(&p, 1, (int)opt.timeout_ms);
	while (rc < 0 && errno == EINTR);
	if (rc == 0)
		errno = ETIMEDOUT;
	return rc > 0 ? 0 : -1;
}

/* Non-blocking connect with a timeout; the fd stays non-blocking. */
static int connect_fd(void)
{
	int fd, one = 1, err = 0;
	socklen_t len = sizeof(err);

	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (connect(fd, (struct sockaddr *)&opt.addr, sizeof(opt.addr)) < 0) {
		if (errno != EINPROGRESS || wait_fd(fd, POLLOUT) < 0)
			goto fail;
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
			goto fail;
		if (err) {
			errno = err;
			goto fail;
		}
	}
	return fd;
fail:
	err = errno;
	close(fd);
	errno = err;
	return -1;
}

/* One NULL call on fd and its reply: 0, or -1 with errno set. */
static int null_call(int fd, uint32_t xid)
{
	uint8_t call[RPCMSG_MARK_LEN + RPCMSG_CALL_LEN];
	uint8_t reply[RPCMSG_MARK_LEN + RPCMSG_NULL_REPLY_LEN];
	size_t got = 0;
	ssize_t n;

	rpcmsg_mark(call, RPCMSG_CALL_LEN, true);
	rpcmsg_call(call + RPCMSG_MARK_LEN, xid, RPCMSG_PROC_NULL);
	if (send(fd, call, sizeof(call), MSG_NOSIGNAL) != sizeof(call))
		return -1;
	while (got < sizeof(reply)) {
		if (wait_fd(fd, POLLIN) < 0)
			return -1;
		n = recv(fd, (char *)reply + got, sizeof(reply) - got, 0);
		if (n == 0)
			errno = ECONNRESET;
		if (n <= 0) {
			if (n < 0 && errno == EAGAIN)
				continue;
			return -1;
		}
		got += n;
	}
	/* one record: xid, REPLY, MSG_ACCEPTED, AUTH_NONE verifier, SUCCESS */
	if (rd_u32(reply) != (RM_LAST_FRAG | RPCMSG_NULL_REPLY_LEN) ||
	    !rpcmsg_reply_ok(reply + RPCMSG_MARK_LEN, RPCMSG_NULL_REPLY_LEN,
			     xid)) {
		errno = EBADMSG;
		return -1;
	}
	return 0;
}

static void count_error(int err)
{
	int none = 0;

	if (err == ECONNREFUSED)
		atomic_fetch_add(&n_refused, 1);
	else if (err == ETIMEDOUT)
		atomic_fetch_add(&n_timeout, 1);
	else
		atomic_fetch_add(&n_other, 1);
	atomic_compare_exchange_strong(&first_errno, &none, err);
}

static void *churn(void *arg)
{
	uint32_t xid = (uint32_t)(uintptr_t)arg << 24;
	int fds[MAX_HOLD];

	while (ms_since(t_start) < (long)opt.duration_ms) {
		unsigned int i, n = 0;

		/* Open a burst of connections, as a client starting up does. */
		while (n < opt.hold &&
		       ms_since(t_start) < (long)opt.duration_ms) {
			unsigned long c = atomic_fetch_add(&n_conns, 1);

			if (opt.max_conns && c >= opt.max_conns) {
				atomic_fetch_sub(&n_conns, 1);
				break;
			}
			fds[n] = connect_fd();
			if (fds[n] < 0)
				count_error(errno);
			else
				n++;
		}
		for (i = 0; i < n; i++) {
			if (null_call(fds[i], ++xid) < 0)
				count_error(errno);
			else
				atomic_fetch_add(&n_ok, 1);
			close(fds[i]);
		}
	}
	return NULL;
}

static unsigned long parse_num(const char *s, const char *what,
			       unsigned long lo, unsigned long hi)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || end == s || *end || *s == '-' || v < lo || v > hi) {
		fprintf(stderr, "conn-churn: %s: '%s' is not a number in %lu..%lu\n",
			what, s, lo, hi);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "host", required_argument, NULL, 'c' },
		{ "port", required_argument, NULL, 'p' },
		{ "threads", required_argument, NULL, 'T' },
		{ "duration-ms", required_argument, NULL, 'd' },
		{ "connections", required_argument, NULL, 'n' },
		{ "timeout-ms", required_argument, NULL, 't' },
		{ "hold", required_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	pthread_t tids[MAX_THREADS];
	const char *host = "127.0.0.1";
	unsigned int port = 20049, i;
	unsigned long bad;
	long ms;
	int c;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'c': host = optarg; break;
		case 'p': port = parse_num(optarg, "--port", 1, 65535); break;
		case 'T':
			opt.threads = parse_num(optarg, "--threads", 1, MAX_THREADS);
			break;
		case 'd':
			opt.duration_ms = parse_num(optarg, "--duration-ms", 1,
						    86400000);
			break;
		case 'n':
			opt.max_conns = parse_num(optarg, "--connections", 1,
						  1000000000);
			break;
		case 't':
			opt.timeout_ms = parse_num(optarg, "--timeout-ms", 1,
						   600000);
			break;
		case 'H':
			opt.hold = parse_num(optarg, "--hold", 1, MAX_HOLD);
			break;
		case 'h': usage(stdout); return 0;
		default:
			fprintf(stderr, "conn-churn: bad option (try --help)\n");
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "conn-churn: unexpected argument '%s'\n",
			argv[optind]);
		return 2;
	}
	opt.addr.sin_family = AF_INET;
	opt.addr.sin_port = htons(port);
	if (inet_pton(AF_INET, host, &opt.addr.sin_addr) != 1) {
		fprintf(stderr, "conn-churn: --host: '%s' is not an IPv4 address\n",
			host);
		return 2;
	}

	t_start = now_ns();
	for (i = 0; i < opt.threads; i++) {
		if (pthread_create(&tids[i], NULL, churn,
				   (void *)(uintptr_t)i) != 0) {
			fprintf(stderr, "conn-churn: cannot start thread %u\n", i);
			return 1;
		}
	}
	for (i = 0; i < opt.threads; i++)
		pthread_join(tids[i], NULL);
	ms = ms_since(t_start);

	bad = n_refused + n_timeout + n_other;
	printf("conn-churn: %lu connections in %ld ms from %u threads: %lu answered, %lu refused, %lu timed out, %lu other errors%s%s\n",
	       (unsigned long)n_conns, ms, opt.threads, (unsigned long)n_ok,
	       (unsigned long)n_refused, (unsigned long)n_timeout,
	       (unsigned long)n_other, bad ? "; first: " : "",
	       bad ? strerror(first_errno) : "");
	return bad || !n_ok ? 1 : 0;
}
