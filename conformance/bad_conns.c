// SPDX-License-Identifier: GPL-2.0
/*
 * bad_conns.c - rpcload bad, connections: random bytes and random calls,
 * a record dribbled in slowly (the side connection must be served
 * meanwhile), a reset in the middle of a record, a flood of idle
 * connections past max_conns.
 */
#include "bad_int.h"
#include "svcsock_prot.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

static bool case_random_stream(struct bad_ctx *c)
{
	enum { LEN = 64 * 1024 };
	uint8_t *junk = malloc(LEN);
	enum net_status st;
	size_t got = 0;
	int fd;

	if (!junk)
		return fail(c, "out of memory");
	rng_fill(&c->rng, junk, LEN);
	fd = open_tcp(c);
	if (fd < 0) {
		free(junk);
		return false;
	}
	st = net_send_all(fd, junk, LEN, mono_ms() + quiet_ms(c));
	note(c, "send: %s", net_status_text(st, errno));
	st = net_wait_close(fd, mono_ms() + quiet_ms(c), &got);
	note(c, "then: %s",
	     st == NET_OK ? "the server sent data" : st == NET_TIMEOUT
		     ? "connection left open"
		     : net_status_text(st, errno));
	close(fd);
	free(junk);
	return fresh_null_ok(c);
}

static bool case_random_calls(struct bad_ctx *c)
{
	enum { N = 32 };
	uint32_t xids[N + 1];
	struct xbuf all, one, rec;
	unsigned replies = 0;
	int fd;
	bool ok = true;

	xb_init(&all);
	xb_init(&one);
	xb_init(&rec);
	for (int i = 0; i < N; i++) {
		uint8_t junk[256];
		size_t jl = (size_t)rng_below(&c->rng, sizeof(junk) + 1);

		xids[i] = new_xid(c);
		xb_reset(&one);
		xb_u32(&one, xids[i]);
		xb_u32(&one, RPC_MSG_CALL);
		xb_u32(&one, 2);
		xb_u32(&one, SVCSOCK_PROG);
		xb_u32(&one, SVCSOCK_V1);
		xb_u32(&one, (uint32_t)rng_below(&c->rng, 4));
		rng_fill(&c->rng, junk, jl);
		xb_put(&one, junk, jl);
		rm_record(&all, one.p, one.len);
	}
	xids[N] = add_null_record(c, &all);
	fd = open_send(c, &all);
	ok = fd >= 0;
	while (ok) {
		enum net_status st = net_recv_record(fd, &rec, MAX_REPLY, deadline(c));
		struct rpc_reply r;
		char err[200];
		int k;

		if (st == NET_EOF || st == NET_ERROR) {
			/* Closing on garbage is allowed; the server must live on. */
			note(c, "server closed the connection after %u replies (%s)",
			     replies, net_status_text(st, errno));
			close(fd);
			fd = -1;
			ok = fresh_null_ok(c);
			break;
		}
		if (st != NET_OK) {
			ok = fail(c, "after %u replies to random calls, the final NULL: %s",
				  replies,
				  st == NET_TIMEOUT ? "no reply within the timeout"
						    : "oversized reply");
			break;
		}
		if (rpc_dec_reply(rec.p, rec.len, &r, err, sizeof(err)) < 0) {
			ok = fail(c, "malformed reply: %s", err);
			break;
		}
		for (k = 0; k <= N && xids[k] != r.xid; k++)
			;
		if (k > N) {
			ok = fail(c, "reply with unknown xid 0x%08x", r.xid);
			break;
		}
		if (k == N) {
			if (!reply_matches(&r, &x_success))
				ok = fail(c, "the final NULL was not answered with SUCCESS");
			break;
		}
		replies++;
	}
	if (ok && fd >= 0)
		note(c, "%u of %d random calls answered", replies, N);
	if (fd >= 0)
		close(fd);
	xb_free(&all);
	xb_free(&one);
	xb_free(&rec);
	return ok;
}

/* An ECHO of size bytes as a record in f; m keeps the call (free it). */
static bool echo_record(struct bad_ctx *c, struct bad_msg *m, uint32_t size,
			struct xbuf *f)
{
	xb_init(&m->b);
	m->payload = NULL;
	xb_init(f);
	if (!build_echo(c, m, size))
		return false;
	rm_record(f, m->b.p, m->b.len);
	return true;
}

static void echo_free(struct bad_msg *m, struct xbuf *f)
{
	xb_free(&m->b);
	free(m->payload);
	xb_free(f);
}

static bool case_slow_partial_record(struct bad_ctx *c)
{
	enum { SIZE = 4096, STEPS = 30, STEP_MS = 50 };
	struct bad_msg m;
	struct xbuf f, keep;
	struct rpc_reply r;
	int fd = -1;
	bool ok = echo_record(c, &m, SIZE, &f) && (fd = open_tcp(c)) >= 0;
	uint64_t s0 = atomic_load(&c->side_ok);
	size_t chunk = (f.len + STEPS - 1) / STEPS;

	for (size_t off = 0; ok && off < f.len; off += chunk) {
		size_t n = f.len - off < chunk ? f.len - off : chunk;

		ok = send_bytes(c, fd, f.p + off, n);
		if (off + n < f.len)
			sleep_ms(STEP_MS);
	}
	if (ok) {
		uint64_t served = atomic_load(&c->side_ok) - s0;

		note(c, "side connection served %llu calls meanwhile",
		     (unsigned long long)served);
		if (served < 5)
			ok = fail(c, "side connection served only %llu calls while the record was dribbled over %d ms",
				  (unsigned long long)served, STEPS * STEP_MS);
	}
	xb_init(&keep);
	if (ok)
		ok = expect_tcp(c, fd, m.xid, &x_success, &keep, &r) &&
		     check_echo_results(c, &r, m.payload, SIZE);
	if (fd >= 0)
		close(fd);
	xb_free(&keep);
	echo_free(&m, &f);
	return ok;
}

static bool case_rst_mid_record(struct bad_ctx *c)
{
	struct bad_msg m;
	struct xbuf f;
	int fd = -1;
	bool ok = echo_record(c, &m, 8192, &f) && (fd = open_tcp(c)) >= 0 &&
		  send_bytes(c, fd, f.p, f.len / 2);

	if (fd >= 0) {
		sleep_ms(50);
		net_abort(fd);
	}
	echo_free(&m, &f);
	if (!ok)
		return false;
	sleep_ms(50);
	return fresh_null_ok(c);
}

static void raise_nofile(unsigned need)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < need) {
		rl.rlim_cur = rl.rlim_max < need ? rl.rlim_max : need;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static bool case_conn_flood(struct bad_ctx *c)
{
	unsigned n = c->o->max_conns + 32;
	unsigned want_oldest = 32; /* the oldest 32 idle ones must go... */
	/*
	 * ...but for a few: a connection whose final ACK the server dropped
	 * while its accept queue (64) was full is accepted later than
	 * younger ones, so the server's order of age can differ from ours
	 * (seen once in 40 runs under TCG: #23 accepted after #33).  Up to
	 * OUT_OF_ORDER of the oldest may stay open, and only while every
	 * connection closed is among the oldest want_oldest + 8: a server
	 * that closed the newest or any at random still fails.
	 */
	enum { OUT_OF_ORDER = 2 };
	int *fds = calloc(n, sizeof(int));
	bool *closed = calloc(n, sizeof(bool));
	struct pollfd *pfd = calloc(n, sizeof(*pfd));
	unsigned opened = 0, nclosed = 0, data = 0;
	bool ok = true;

	if (!fds || !closed || !pfd) {
		free(fds);
		free(closed);
		free(pfd);
		return fail(c, "out of memory");
	}
	raise_nofile(n + 64);
	/* One at a time, so the server accepts them in this order. */
	for (unsigned i = 0; i < n; i++) {
		fds[i] = net_dial(&c->tcp, SOCK_STREAM, c->o->timeout_ms,
				  NET_NONBLOCK | NET_NODELAY, 0, 0);
		if (fds[i] < 0) {
			ok = fail(c, "flood connection %u of %u: %s", i + 1, n,
				  strerror(errno));
			break;
		}
		opened++;
	}
	/* Wait for the server to close the excess (side + flood - max). */
	uint64_t end = mono_ms() + (c->o->timeout_ms > 2000 ? c->o->timeout_ms : 2000);
	unsigned target = opened + 1 > c->o->max_conns ? opened + 1 - c->o->max_conns : 0;

	while (ok && nclosed < target) {
		uint64_t now = mono_ms();
		unsigned np = 0;

		if (now >= end)
			break;
		for (unsigned i = 0; i < opened; i++)
			if (!closed[i]) {
				pfd[np].fd = fds[i];
				pfd[np].events = POLLIN | POLLRDHUP;
				pfd[np].revents = 0;
				np++;
			}
		int rc = poll(pfd, np, (int)(end - now));

		if (rc <= 0)
			continue;
		for (unsigned j = 0; j < np; j++) {
			if (!pfd[j].revents)
				continue;
			unsigned i;

			for (i = 0; i < opened && fds[i] != pfd[j].fd; i++)
				;
			char buf[512];
			ssize_t r = recv(fds[i], buf, sizeof(buf), MSG_DONTWAIT);

			if (r > 0) {
				data++;
				continue;
			}
			if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
				closed[i] = true;
				nclosed++;
			}
		}
	}
	if (ok) {
		unsigned oldest_closed = 0, first_open = n, newest_closed = 0;
		unsigned young_closed = 0;

		for (unsigned i = 0; i < opened; i++) {
			if (closed[i]) {
				newest_closed = i;
				if (i < want_oldest)
					oldest_closed++;
				if (i >= want_oldest + 8)
					young_closed++;
			} else if (first_open == n) {
				first_open = i;
			}
		}
		note(c, "server closed %u of %u idle connections (limit %u)", nclosed,
		     opened, c->o->max_conns);
		if (nclosed)
			note(c, "lowest still open #%u, highest closed #%u", first_open,
			     newest_closed);
		if (data)
			note(c, "%u unexpected data arrivals on idle connections", data);
		if (nclosed < want_oldest)
			ok = fail(c, "server closed %u of %u idle connections, expected at least %u (max_conns %u)",
				  nclosed, opened, want_oldest, c->o->max_conns);
		else if (oldest_closed + OUT_OF_ORDER < want_oldest || young_closed)
			ok = fail(c, "server closed %u connections, but only %u of the oldest %u idle ones (%u beyond the oldest %u)",
				  nclosed, oldest_closed, want_oldest, young_closed,
				  want_oldest + 8);
		else if (oldest_closed < want_oldest)
			note(c, "%u of the oldest %u closed: %u accepted out of order (allowed: %u)",
			     oldest_closed, want_oldest, want_oldest - oldest_closed,
			     OUT_OF_ORDER);
	}
	/* The newest connection, made at the limit, must be served. */
	if (ok)
		ok = fresh_null_ok(c);
	for (unsigned i = 0; i < opened; i++)
		close(fds[i]);
	free(fds);
	free(closed);
	free(pfd);
	return ok;
}

static const struct bad_case cases[] = {
	CUSTOM("random-stream", "64 KiB of random bytes: server survives",
	       case_random_stream),
	CUSTOM("random-calls",
	       "32 call headers with random bodies, then NULL: replies well-formed, NULL answered (or closed, then served)",
	       case_random_calls),
	CUSTOM("slow-partial-record",
	       "ECHO record dribbled over 1.5 s: answered, side served meanwhile",
	       case_slow_partial_record),
	CUSTOM("rst-mid-record", "RST after half a record: server survives",
	       case_rst_mid_record),
	CUSTOM("conn-flood",
	       "max_conns+32 idle connections: the oldest idle ones closed, busy side and newest served",
	       case_conn_flood),
};

const struct bad_area bad_area_conns = AREA("connections", cases);
