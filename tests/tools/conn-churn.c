// SPDX-License-Identifier: GPL-2.0
/*
 * conn-churn: open TCP connections to the svcsock program from several
 * threads as fast as they go, make one NULL call on each, close it, and
 * count what went wrong.  Every connection is accepted by the server's
 * listener, so this is the test of the accept path under concurrency:
 * a listener that is lost (closed, or stranded with connections in its
 * queue) turns into refused or timed-out connects.
 *
 * Hand-written XDR (libsvcrpc's rpcwire.h, via rpcmsg.h), as in
 * rpc-pipeline: nothing between us and the wire.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "clock.h"
#include "netio.h"
#include "opts.h"
#include "rpcmsg.h"

#define MAX_THREADS 256
#define MAX_HOLD 256

static struct {
	struct net_addr addr;
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
"  --host A          server address (default 127.0.0.1)\n"
"  --port P          port (default 20049)\n"
"  --threads N       client threads, 1-%d (default 8)\n"
"  --duration-ms D   how long to run (default 5000)\n"
"  --connections M   stop after M connections in all (default: no limit)\n"
"  --hold H          connections a thread opens before it calls on them\n"
"                    and closes them, 1-%d (default 1): bursts of connects\n"
"  --timeout-ms T    connect and reply timeout (default 5000)\n"
"  -h, --help        this text\n",
		MAX_THREADS, MAX_HOLD);
}

/* One NULL call on fd and its reply: 0, or -1 with errno set. */
static int null_call(int fd, uint32_t xid)
{
	uint8_t call[RM_MARK_LEN + RPC_CALL_NONE_LEN];
	uint64_t deadline = mono_ms() + opt.timeout_ms;
	enum net_status st;
	struct xbuf reply;

	rm_put_header(call, RPC_CALL_NONE_LEN, true);
	rpcmsg_call(call + RM_MARK_LEN, xid, RPCMSG_PROC_NULL);
	xb_init(&reply);
	st = net_send_all(fd, call, sizeof(call), deadline);
	if (st == NET_OK)
		st = net_recv_record(fd, &reply, 512, deadline);
	/* one record: xid, REPLY, MSG_ACCEPTED, AUTH_NONE verifier, SUCCESS */
	if (st == NET_OK && (reply.len != RPC_NULL_REPLY_LEN ||
			     !rpc_is_null_reply(reply.p, reply.len, xid)))
		st = NET_TOOBIG;
	xb_free(&reply);
	switch (st) {
	case NET_OK:
		return 0;
	case NET_TIMEOUT:
		errno = ETIMEDOUT;
		break;
	case NET_EOF:
		errno = ECONNRESET;
		break;
	case NET_TOOBIG:
		errno = EBADMSG;
		break;
	case NET_ERROR:
		break;
	}
	return -1;
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
			fds[n] = net_dial(&opt.addr, SOCK_STREAM, opt.timeout_ms,
					  NET_NONBLOCK | NET_NODELAY, 0, 0);
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

enum { C_HOST = 1, C_PORT, C_THREADS, C_DURATION, C_CONNS, C_TIMEOUT, C_HOLD,
       C_HELP };

static const struct optdef defs[] = {
	{ "host", 0, true, C_HOST },
	{ "port", 0, true, C_PORT },
	{ "threads", 0, true, C_THREADS },
	{ "duration-ms", 0, true, C_DURATION },
	{ "connections", 0, true, C_CONNS },
	{ "timeout-ms", 0, true, C_TIMEOUT },
	{ "hold", 0, true, C_HOLD },
	{ "help", 'h', false, C_HELP },
	{ NULL, 0, false, 0 },
};

static uint64_t number(const struct optdef *d, const char *val, uint64_t lo,
		       uint64_t hi)
{
	return opt_u64_or_exit("conn-churn", d, val, lo, hi, 0);
}

int main(int argc, char **argv)
{
	pthread_t tids[MAX_THREADS];
	const char *host = "127.0.0.1";
	unsigned int port = 20049, i;
	const struct optdef *d;
	const char *val;
	struct opts o;
	char err[300];
	unsigned long bad;
	long ms;
	int id;

	opts_start(&o, argc, argv, defs, NULL, "conn-churn --help");
	while ((id = opts_next(&o, &d, &val, err, sizeof(err))) > 0) {
		switch (id) {
		case C_HOST: host = val; break;
		case C_PORT: port = (unsigned)number(d, val, 1, 65535); break;
		case C_THREADS:
			opt.threads = (unsigned)number(d, val, 1, MAX_THREADS);
			break;
		case C_DURATION:
			opt.duration_ms = (unsigned)number(d, val, 1, 86400000);
			break;
		case C_CONNS:
			opt.max_conns = (unsigned long)number(d, val, 1, 1000000000);
			break;
		case C_TIMEOUT:
			opt.timeout_ms = (unsigned)number(d, val, 1, 600000);
			break;
		case C_HOLD:
			opt.hold = (unsigned)number(d, val, 1, MAX_HOLD);
			break;
		case C_HELP: usage(stdout); return 0;
		}
	}
	if (id < 0 || opts_no_args(&o, err, sizeof(err)) < 0 ||
	    net_resolve(host, port, SOCK_STREAM, &opt.addr, err, sizeof(err)) < 0)
		return opts_usage_error("conn-churn", err);

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
