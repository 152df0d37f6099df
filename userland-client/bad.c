/*
 * bad.c - rpcload bad: malformed input over raw sockets, TAP output.
 *
 * Each case opens its own sockets, sends something (mostly) wrong, and
 * checks what RFC 5531 and the svcsock module's documented behaviour
 * prescribe: a specific reply, a silent drop (the connection stays
 * usable), or a close.  All along, a side thread makes NULL calls on its
 * own TCP connection; a case also fails when the side connection made no
 * progress during it (or failed), i.e. the server stalled or died.
 *
 * Everything is bounded: socket operations have deadlines, and a case
 * that runs longer than CASE_ALARM_S aborts the run ("Bail out!").
 */
#include "bad.h"
#include "pattern.h"
#include "rawnet.h"
#include "rawrpc.h"
#include "svcsock.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#define QUIET_MS 300u        /* how long "no reply" is waited for */
#define SIDE_PAUSE_MS 2u     /* between two side NULL calls */
#define CASE_ALARM_S 60u     /* hard bound of one case */
#define MAX_REPLY (2u << 20) /* longest reply record accepted */
#define UDP_MAX 65507u       /* largest IPv4 UDP payload */

struct bad_ctx {
	const struct bad_opts *o;
	struct rpc_addr tcp, udp;
	struct rng rng;
	char reason[600];
	char note[600];

	pthread_t side_th;
	atomic_bool side_stop;
	atomic_uint_fast64_t side_ok, side_fail, side_connects;
	pthread_mutex_t side_mu;
	char side_err[240];
};

struct bad_case {
	const char *name;
	const char *desc;
	bool (*fn)(struct bad_ctx *c);
};

/* ---- small helpers ----------------------------------------------------- */

static bool fail(struct bad_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static bool fail(struct bad_ctx *c, const char *fmt, ...)
{
	va_list ap;

	if (c->reason[0])
		return false; /* keep the first reason */
	va_start(ap, fmt);
	vsnprintf(c->reason, sizeof(c->reason), fmt, ap);
	va_end(ap);
	return false;
}

static void note(struct bad_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note(struct bad_ctx *c, const char *fmt, ...)
{
	va_list ap;
	size_t l = strlen(c->note);

	if (l + 2 >= sizeof(c->note))
		return;
	if (l)
		c->note[l++] = ';', c->note[l++] = ' ', c->note[l] = 0;
	va_start(ap, fmt);
	vsnprintf(c->note + l, sizeof(c->note) - l, fmt, ap);
	va_end(ap);
}

static uint64_t deadline(struct bad_ctx *c)
{
	return mono_ms() + c->o->timeout_ms;
}

static uint32_t new_xid(struct bad_ctx *c)
{
	return (uint32_t)rng_next(&c->rng);
}

static unsigned quiet_ms(struct bad_ctx *c)
{
	return c->o->timeout_ms < QUIET_MS ? c->o->timeout_ms : QUIET_MS;
}

/* A call header with AUTH_NONE credentials and verifier. */
static void call_none(struct xbuf *b, uint32_t xid, uint32_t rpcvers,
		      uint32_t prog, uint32_t vers, uint32_t proc)
{
	rpc_enc_call(b, xid, rpcvers, prog, vers, proc, &rpc_auth_none,
		     &rpc_auth_none);
}

static void svc_call(struct xbuf *b, uint32_t xid, uint32_t proc)
{
	call_none(b, xid, 2, SVCSOCK_PROG, SVCSOCK_V1, proc);
}

static int open_tcp(struct bad_ctx *c)
{
	int fd = net_tcp_connect(&c->tcp, c->o->timeout_ms);

	if (fd < 0)
		fail(c, "connect %s: %s", c->tcp.text, strerror(errno));
	return fd;
}

static int open_udp(struct bad_ctx *c)
{
	int fd = net_udp_socket(&c->udp);

	if (fd < 0)
		fail(c, "UDP socket for %s: %s", c->udp.text, strerror(errno));
	return fd;
}

static bool send_bytes(struct bad_ctx *c, int fd, const void *p, size_t len)
{
	enum net_status st = net_send_all(fd, p, len, deadline(c));

	if (st != NET_OK)
		return fail(c, "send: %s", net_status_text(st, errno));
	return true;
}

/* Frame rec as one final fragment and send it. */
static bool send_record(struct bad_ctx *c, int fd, const struct xbuf *rec)
{
	struct xbuf f;
	bool ok;

	xb_init(&f);
	rm_record(&f, rec->p, rec->len);
	ok = send_bytes(c, fd, f.p, f.len);
	xb_free(&f);
	return ok;
}

/* ---- expectations ------------------------------------------------------ */

enum xk {
	XK_SUCCESS,
	XK_PROG_UNAVAIL,
	XK_PROG_MISMATCH,
	XK_PROC_UNAVAIL,
	XK_GARBAGE_ARGS,
	XK_RPC_MISMATCH,
	XK_AUTH_ERROR,
};

struct expect {
	enum xk kind;
	uint32_t a, b; /* low/high, or a = auth_stat */
};

static void expect_describe(const struct expect *e, char *buf, size_t n)
{
	struct rpc_reply w;

	memset(&w, 0, sizeof(w));
	switch (e->kind) {
	case XK_SUCCESS:
		snprintf(buf, n, "MSG_ACCEPTED SUCCESS");
		return;
	case XK_PROG_UNAVAIL:
		w.accept_stat = RPC_ACC_PROG_UNAVAIL;
		break;
	case XK_PROG_MISMATCH:
		w.accept_stat = RPC_ACC_PROG_MISMATCH;
		w.low = e->a;
		w.high = e->b;
		break;
	case XK_PROC_UNAVAIL:
		w.accept_stat = RPC_ACC_PROC_UNAVAIL;
		break;
	case XK_GARBAGE_ARGS:
		w.accept_stat = RPC_ACC_GARBAGE_ARGS;
		break;
	case XK_RPC_MISMATCH:
		w.reply_stat = RPC_MSG_DENIED;
		w.reject_stat = RPC_REJ_RPC_MISMATCH;
		w.low = e->a;
		w.high = e->b;
		break;
	case XK_AUTH_ERROR:
		w.reply_stat = RPC_MSG_DENIED;
		w.reject_stat = RPC_REJ_AUTH_ERROR;
		w.auth_stat = e->a;
		break;
	}
	rpc_reply_describe(&w, buf, n);
}

static bool reply_matches(const struct rpc_reply *r, const struct expect *e)
{
	bool acc = r->reply_stat == RPC_MSG_ACCEPTED;
	bool den = r->reply_stat == RPC_MSG_DENIED;

	switch (e->kind) {
	case XK_SUCCESS:
		return acc && r->accept_stat == RPC_ACC_SUCCESS;
	case XK_PROG_UNAVAIL:
		return acc && r->accept_stat == RPC_ACC_PROG_UNAVAIL;
	case XK_PROG_MISMATCH:
		return acc && r->accept_stat == RPC_ACC_PROG_MISMATCH &&
		       r->low == e->a && r->high == e->b;
	case XK_PROC_UNAVAIL:
		return acc && r->accept_stat == RPC_ACC_PROC_UNAVAIL;
	case XK_GARBAGE_ARGS:
		return acc && r->accept_stat == RPC_ACC_GARBAGE_ARGS;
	case XK_RPC_MISMATCH:
		return den && r->reject_stat == RPC_REJ_RPC_MISMATCH &&
		       r->low == e->a && r->high == e->b;
	case XK_AUTH_ERROR:
		return den && r->reject_stat == RPC_REJ_AUTH_ERROR &&
		       r->auth_stat == e->a;
	}
	return false;
}

/* Check a decoded message (one record or datagram) against e and xid. */
static bool check_message(struct bad_ctx *c, const uint8_t *p, size_t len,
			  uint32_t xid, const struct expect *e,
			  struct rpc_reply *out)
{
	struct rpc_reply r;
	char err[200], got[160], want[160];

	if (rpc_dec_reply(p, len, &r, err, sizeof(err)) < 0)
		return fail(c, "malformed reply: %s", err);
	if (r.xid != xid)
		return fail(c, "reply xid 0x%08x, expected 0x%08x", r.xid, xid);
	if (!reply_matches(&r, e)) {
		rpc_reply_describe(&r, got, sizeof(got));
		expect_describe(e, want, sizeof(want));
		return fail(c, "got %s, expected %s", got, want);
	}
	if (out)
		*out = r;
	return true;
}

/* Read one reply record and check it.  *rec keeps the record (for the
 * results) when the caller passes one. */
static bool expect_tcp(struct bad_ctx *c, int fd, uint32_t xid,
		       const struct expect *e, struct xbuf *keep,
		       struct rpc_reply *out)
{
	struct xbuf local, *rec = keep ? keep : &local;
	enum net_status st;
	bool ok;

	if (!keep)
		xb_init(&local);
	st = net_recv_record(fd, rec, MAX_REPLY, deadline(c));
	if (st != NET_OK) {
		char want[160];

		expect_describe(e, want, sizeof(want));
		ok = fail(c, "expected %s, %s", want,
			  st == NET_TIMEOUT ? "no reply within the timeout"
					    : net_status_text(st, errno));
	} else {
		ok = check_message(c, rec->p, rec->len, xid, e, out);
	}
	if (!keep)
		xb_free(&local);
	return ok;
}

static const struct expect X_SUCCESS = { XK_SUCCESS, 0, 0 };

/* A NULL call on fd must be answered with SUCCESS and no results. */
static bool null_ok(struct bad_ctx *c, int fd, const char *when)
{
	struct xbuf b;
	struct rpc_reply r;
	uint32_t xid = new_xid(c);
	bool ok;

	xb_init(&b);
	svc_call(&b, xid, SVCSOCK_NULL);
	ok = send_record(c, fd, &b) && expect_tcp(c, fd, xid, &X_SUCCESS, NULL, &r);
	xb_free(&b);
	if (ok && r.results_len != 0)
		ok = fail(c, "NULL reply carries %zu result bytes", r.results_len);
	if (!ok && when) {
		char tmp[sizeof(c->reason)];

		snprintf(tmp, sizeof(tmp), "%s", c->reason);
		snprintf(c->reason, sizeof(c->reason), "NULL %.60s: %.500s", when, tmp);
	}
	return ok;
}

/* On a fresh connection: the server is still accepting and serving. */
static bool fresh_null_ok(struct bad_ctx *c)
{
	int fd = open_tcp(c);
	bool ok;

	if (fd < 0)
		return false;
	ok = null_ok(c, fd, "on a new connection");
	close(fd);
	return ok;
}

/* Nothing may arrive for QUIET_MS, and the connection must stay open. */
static bool expect_silence_tcp(struct bad_ctx *c, int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int rc;

	do
		rc = poll(&p, 1, (int)quiet_ms(c));
	while (rc < 0 && errno == EINTR);
	if (rc <= 0)
		return true;

	struct xbuf rec;
	enum net_status st;
	bool ok;

	xb_init(&rec);
	st = net_recv_record(fd, &rec, MAX_REPLY, mono_ms() + quiet_ms(c));
	if (st == NET_OK) {
		struct rpc_reply r;
		char err[200], got[160];

		if (rpc_dec_reply(rec.p, rec.len, &r, err, sizeof(err)) < 0)
			ok = fail(c, "expected no reply, got %zu bytes (%s)", rec.len,
				  err);
		else {
			rpc_reply_describe(&r, got, sizeof(got));
			ok = fail(c, "expected no reply, got %s", got);
		}
	} else if (st == NET_EOF || st == NET_ERROR) {
		ok = fail(c, "expected the record to be dropped, but the server closed the connection (%s)",
			  net_status_text(st, errno));
	} else {
		ok = fail(c, "expected no reply, got a partial record");
	}
	xb_free(&rec);
	return ok;
}

/* Dropped silently: no reply, then a NULL on the same connection works. */
static bool expect_dropped(struct bad_ctx *c, int fd)
{
	return expect_silence_tcp(c, fd) && null_ok(c, fd, "after the dropped record");
}

/* The server must close the connection without replying. */
static bool expect_closed(struct bad_ctx *c, int fd)
{
	struct xbuf rec;
	enum net_status st;
	bool ok;

	xb_init(&rec);
	st = net_recv_record(fd, &rec, MAX_REPLY, deadline(c));
	switch (st) {
	case NET_EOF:
		note(c, "server closed the connection");
		ok = true;
		break;
	case NET_ERROR:
		note(c, "connection reset (%s)", strerror(errno));
		ok = true;
		break;
	case NET_TIMEOUT:
		ok = fail(c, "expected the server to close the connection; still open after %u ms",
			  c->o->timeout_ms);
		break;
	case NET_OK: {
		struct rpc_reply r;
		char err[200], got[160];

		if (rpc_dec_reply(rec.p, rec.len, &r, err, sizeof(err)) < 0)
			ok = fail(c, "expected a close, got %zu bytes (%s)", rec.len, err);
		else {
			rpc_reply_describe(&r, got, sizeof(got));
			ok = fail(c, "expected a close, got a reply: %s", got);
		}
		break;
	}
	default:
		ok = fail(c, "expected a close, got an oversized record");
		break;
	}
	xb_free(&rec);
	return ok;
}

/* One call record (unframed) on a new connection, checked against e. */
static bool tcp_call_expect(struct bad_ctx *c, const struct xbuf *rec,
			    uint32_t xid, const struct expect *e)
{
	int fd = open_tcp(c);
	bool ok;

	if (fd < 0)
		return false;
	ok = send_record(c, fd, rec) && expect_tcp(c, fd, xid, e, NULL, NULL);
	/* After an error reply the connection must still serve calls. */
	if (ok)
		ok = null_ok(c, fd, "after the error reply");
	close(fd);
	return ok;
}

/* Send the framed bytes on a new connection; expect it to be dropped. */
static bool tcp_framed_dropped(struct bad_ctx *c, const struct xbuf *framed)
{
	int fd = open_tcp(c);
	bool ok;

	if (fd < 0)
		return false;
	ok = send_bytes(c, fd, framed->p, framed->len) && expect_dropped(c, fd);
	close(fd);
	return ok;
}

/* Send the framed bytes on a new connection; expect SUCCESS for xid. */
static bool tcp_framed_success(struct bad_ctx *c, const struct xbuf *framed,
			       uint32_t xid)
{
	int fd = open_tcp(c);
	bool ok;

	if (fd < 0)
		return false;
	ok = send_bytes(c, fd, framed->p, framed->len) &&
	     expect_tcp(c, fd, xid, &X_SUCCESS, NULL, NULL);
	close(fd);
	return ok;
}

/* Send the raw bytes (errors from a closing peer are fine); expect a close. */
static bool tcp_bytes_closed(struct bad_ctx *c, const struct xbuf *bytes)
{
	int fd = open_tcp(c);
	enum net_status st;
	bool ok;

	if (fd < 0)
		return false;
	st = net_send_all(fd, bytes->p, bytes->len, deadline(c));
	if (st == NET_TIMEOUT) {
		ok = fail(c, "the server neither read the data nor closed the connection within %u ms",
			  c->o->timeout_ms);
	} else if (st == NET_ERROR) {
		note(c, "send failed: %s (server closed early)", strerror(errno));
		ok = true;
	} else {
		ok = expect_closed(c, fd);
	}
	close(fd);
	return ok;
}

/* Verify an ECHO SUCCESS reply's results against payload. */
static bool check_echo_results(struct bad_ctx *c, const struct rpc_reply *r,
			       const uint8_t *payload, uint32_t size)
{
	size_t padded = ((size_t)size + 3u) & ~(size_t)3u;

	if (r->results_len < 4)
		return fail(c, "ECHO reply has no opaque length");
	uint32_t len = rd_u32(r->results);

	if (len != size)
		return fail(c, "ECHO reply length %u, sent %u", len, size);
	if (r->results_len != 4 + padded)
		return fail(c, "ECHO reply has %zu result bytes, expected %zu",
			    r->results_len, 4 + padded);
	if (memcmp(r->results + 4, payload, size) != 0) {
		uint32_t i = 0;

		while (r->results[4 + i] == payload[i])
			i++;
		return fail(c, "ECHO reply differs at byte %u of %u", i, size);
	}
	return true;
}

static void echo_call(struct xbuf *b, uint32_t xid, const uint8_t *payload,
		      uint32_t size)
{
	svc_call(b, xid, SVCSOCK_ECHO);
	xb_opaque(b, payload, size);
}

/* ECHO of size bytes on a new connection, byte-exact. */
static bool tcp_echo(struct bad_ctx *c, uint32_t size)
{
	struct xbuf b, rec;
	struct rpc_reply r;
	uint32_t xid = new_xid(c);
	uint8_t *payload = malloc(size ? size : 1);
	int fd;
	bool ok = false;

	if (!payload)
		return fail(c, "out of memory");
	pattern_fill(payload, size, c->o->seed, xid);
	xb_init(&b);
	xb_init(&rec);
	echo_call(&b, xid, payload, size);
	fd = open_tcp(c);
	if (fd >= 0) {
		ok = send_record(c, fd, &b) &&
		     expect_tcp(c, fd, xid, &X_SUCCESS, &rec, &r) &&
		     check_echo_results(c, &r, payload, size);
		close(fd);
	}
	xb_free(&b);
	xb_free(&rec);
	free(payload);
	return ok;
}

/* ---- UDP helpers --------------------------------------------------------- */

static bool udp_send(struct bad_ctx *c, int fd, const void *p, size_t len)
{
	ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

	if (n < 0 || (size_t)n != len)
		return fail(c, "UDP send of %zu bytes: %s", len,
			    n < 0 ? strerror(errno) : "short send");
	return true;
}

static bool udp_expect(struct bad_ctx *c, int fd, uint32_t xid,
		       const struct expect *e, uint8_t *buf, size_t cap,
		       struct rpc_reply *out)
{
	size_t len = 0;
	enum net_status st = net_recv_dgram(fd, buf, cap, &len, deadline(c));

	if (st != NET_OK) {
		char want[160];

		expect_describe(e, want, sizeof(want));
		return fail(c, "expected %s, %s", want,
			    st == NET_TIMEOUT ? "no reply within the timeout"
					      : st == NET_TOOBIG ? "reply datagram too long"
								  : net_status_text(st, errno));
	}
	return check_message(c, buf, len, xid, e, out);
}

static bool udp_silence(struct bad_ctx *c, int fd)
{
	uint8_t buf[UDP_MAX + 1];
	size_t len = 0;
	enum net_status st =
		net_recv_dgram(fd, buf, sizeof(buf), &len, mono_ms() + quiet_ms(c));

	if (st == NET_TIMEOUT)
		return true;
	if (st == NET_OK || st == NET_TOOBIG) {
		struct rpc_reply r;
		char err[200], got[160];

		if (rpc_dec_reply(buf, len, &r, err, sizeof(err)) < 0)
			return fail(c, "expected no reply, got a %zu-byte datagram (%s)",
				    len, err);
		rpc_reply_describe(&r, got, sizeof(got));
		return fail(c, "expected no reply, got %s", got);
	}
	return fail(c, "expected no reply, got an error: %s", strerror(errno));
}

static bool udp_null_ok(struct bad_ctx *c, int fd, const char *when)
{
	struct xbuf b;
	struct rpc_reply r;
	uint8_t buf[1024];
	uint32_t xid = new_xid(c);
	bool ok;

	xb_init(&b);
	svc_call(&b, xid, SVCSOCK_NULL);
	ok = udp_send(c, fd, b.p, b.len) &&
	     udp_expect(c, fd, xid, &X_SUCCESS, buf, sizeof(buf), &r);
	xb_free(&b);
	if (!ok && when) {
		char tmp[sizeof(c->reason)];

		snprintf(tmp, sizeof(tmp), "%s", c->reason);
		snprintf(c->reason, sizeof(c->reason), "UDP NULL %.60s: %.500s", when, tmp);
	}
	return ok;
}

static bool udp_call_expect(struct bad_ctx *c, const struct xbuf *msg,
			    uint32_t xid, const struct expect *e)
{
	uint8_t buf[UDP_MAX + 1];
	int fd = open_udp(c);
	bool ok;

	if (fd < 0)
		return false;
	ok = udp_send(c, fd, msg->p, msg->len) &&
	     udp_expect(c, fd, xid, e, buf, sizeof(buf), NULL);
	close(fd);
	return ok;
}

static bool udp_dropped(struct bad_ctx *c, const void *p, size_t len)
{
	int fd = open_udp(c);
	bool ok;

	if (fd < 0)
		return false;
	ok = udp_send(c, fd, p, len) && udp_silence(c, fd) &&
	     udp_null_ok(c, fd, "after the dropped datagram");
	close(fd);
	return ok;
}

/* ---- the cases ------------------------------------------------------------ */

static bool case_tcp_null(struct bad_ctx *c)
{
	int fd = open_tcp(c);
	bool ok;

	if (fd < 0)
		return false;
	ok = null_ok(c, fd, NULL);
	close(fd);
	return ok;
}

static void authsys_body(struct xbuf *body, unsigned ngids)
{
	uint32_t gids[32];

	for (unsigned i = 0; i < ngids && i < 32; i++)
		gids[i] = 1000 + i;
	rpc_enc_authsys(body, 0x5eed, "rpcload", 0, 0, ngids, gids);
}

static bool null_with_auth(struct bad_ctx *c, const struct auth_spec *cred,
			   const struct auth_spec *verf, const struct expect *e)
{
	struct xbuf b;
	uint32_t xid = new_xid(c);
	bool ok;

	xb_init(&b);
	rpc_enc_call(&b, xid, 2, SVCSOCK_PROG, SVCSOCK_V1, SVCSOCK_NULL, cred, verf);
	ok = tcp_call_expect(c, &b, xid, e);
	xb_free(&b);
	return ok;
}

static bool case_tcp_auth_sys(struct bad_ctx *c)
{
	struct xbuf body;
	bool ok;

	xb_init(&body);
	authsys_body(&body, 16); /* the most gids allowed */
	struct auth_spec cred = { RPC_FLAVOR_SYS, body.p, (uint32_t)body.len,
				  (uint32_t)body.len };

	ok = null_with_auth(c, &cred, &rpc_auth_none, &X_SUCCESS);
	xb_free(&body);
	return ok;
}

static bool case_tcp_echo(struct bad_ctx *c)
{
	return tcp_echo(c, 1001); /* not a multiple of 4: padding */
}

static bool case_tcp_echo_max(struct bad_ctx *c)
{
	uint32_t size = SVCSOCK_ECHO_MAX;
	uint32_t room = (c->o->max_record - 48u) & ~3u;

	if (size > room) {
		size = room;
		note(c, "ECHO of %u bytes to stay within --max-record", size);
	}
	return tcp_echo(c, size);
}

static bool case_tcp_sleep(struct bad_ctx *c)
{
	struct xbuf b;
	uint32_t xid = new_xid(c);
	bool ok;

	xb_init(&b);
	svc_call(&b, xid, SVCSOCK_SLEEP);
	xb_u32(&b, 1000);
	ok = tcp_call_expect(c, &b, xid, &X_SUCCESS);
	xb_free(&b);
	return ok;
}

static bool case_tcp_pipelined(struct bad_ctx *c)
{
	enum { N = 64 };
	uint32_t xids[N];
	bool seen[N] = { false };
	struct xbuf all, one, rec;
	int fd;
	bool ok = true;

	xb_init(&all);
	xb_init(&one);
	xb_init(&rec);
	for (int i = 0; i < N; i++) {
		xids[i] = new_xid(c);
		xb_reset(&one);
		svc_call(&one, xids[i], SVCSOCK_NULL);
		rm_record(&all, one.p, one.len);
	}
	fd = open_tcp(c);
	if (fd < 0)
		ok = false;
	else if (!send_bytes(c, fd, all.p, all.len))
		ok = false;
	for (int got = 0; ok && got < N; got++) {
		enum net_status st = net_recv_record(fd, &rec, MAX_REPLY, deadline(c));
		struct rpc_reply r;
		char err[200];
		int k;

		if (st != NET_OK) {
			ok = fail(c, "reply %d of %d: %s", got + 1, N,
				  st == NET_TIMEOUT ? "not received in time"
						    : net_status_text(st, errno));
			break;
		}
		if (rpc_dec_reply(rec.p, rec.len, &r, err, sizeof(err)) < 0) {
			ok = fail(c, "reply %d: %s", got + 1, err);
			break;
		}
		for (k = 0; k < N && xids[k] != r.xid; k++)
			;
		if (k == N || seen[k]) {
			ok = fail(c, "reply %d has %s xid 0x%08x", got + 1,
				  k == N ? "an unknown" : "a repeated", r.xid);
			break;
		}
		seen[k] = true;
		if (!reply_matches(&r, &X_SUCCESS)) {
			char got_s[160];

			rpc_reply_describe(&r, got_s, sizeof(got_s));
			ok = fail(c, "reply %d: %s", got + 1, got_s);
		}
	}
	if (fd >= 0)
		close(fd);
	xb_free(&all);
	xb_free(&one);
	xb_free(&rec);
	return ok;
}

/* NULL split into fragments: fragsz bytes each, empties before each. */
static bool null_fragmented(struct bad_ctx *c, size_t fragsz, unsigned empties)
{
	struct xbuf rec, framed;
	uint32_t xid = new_xid(c);
	bool ok;

	xb_init(&rec);
	xb_init(&framed);
	svc_call(&rec, xid, SVCSOCK_NULL);
	rm_fragments(&framed, rec.p, rec.len, fragsz, empties);
	ok = tcp_framed_success(c, &framed, xid);
	xb_free(&rec);
	xb_free(&framed);
	return ok;
}

static bool case_frag_4byte_chain(struct bad_ctx *c)
{
	return null_fragmented(c, 4, 0);
}

static bool case_frag_empty_interleaved(struct bad_ctx *c)
{
	return null_fragmented(c, 8, 2);
}

static bool case_frag_long_empty_chain(struct bad_ctx *c)
{
	return null_fragmented(c, 1000000, 1000);
}

static bool case_frag_header_bytewise(struct bad_ctx *c)
{
	struct xbuf rec, framed;
	uint32_t xid = new_xid(c);
	int fd;
	bool ok = true;

	xb_init(&rec);
	xb_init(&framed);
	svc_call(&rec, xid, SVCSOCK_NULL);
	/* Two fragments, so two headers arrive a byte at a time. */
	rm_fragments(&framed, rec.p, rec.len, 20, 0);
	fd = open_tcp(c);
	if (fd < 0)
		ok = false;
	for (size_t i = 0; ok && i < framed.len; i++) {
		ok = send_bytes(c, fd, framed.p + i, 1);
		sleep_ms(8);
	}
	if (ok)
		ok = expect_tcp(c, fd, xid, &X_SUCCESS, NULL, NULL);
	if (fd >= 0)
		close(fd);
	xb_free(&rec);
	xb_free(&framed);
	return ok;
}

static bool case_frag_zero_final(struct bad_ctx *c)
{
	struct xbuf f;
	bool ok;

	xb_init(&f);
	rm_header(&f, 0, true);
	ok = tcp_framed_dropped(c, &f);
	xb_free(&f);
	return ok;
}

/* The first `keep` bytes of a NULL call as a whole record: dropped. */
static bool truncated_call(struct bad_ctx *c, size_t keep)
{
	struct xbuf rec, f;
	bool ok;

	xb_init(&rec);
	xb_init(&f);
	svc_call(&rec, new_xid(c), SVCSOCK_NULL);
	rm_record(&f, rec.p, keep < rec.len ? keep : rec.len);
	ok = tcp_framed_dropped(c, &f);
	xb_free(&rec);
	xb_free(&f);
	return ok;
}

static bool case_record_short(struct bad_ctx *c)
{
	return truncated_call(c, 8); /* xid and msg_type only */
}

static bool case_record_trunc_header(struct bad_ctx *c)
{
	return truncated_call(c, 24); /* up to proc: no credentials */
}

static bool case_record_trunc_verf(struct bad_ctx *c)
{
	return truncated_call(c, 36); /* verifier flavor without length */
}

/* A fragment header word followed by the start of a NULL call. */
static bool header_then_close(struct bad_ctx *c, uint32_t word)
{
	struct xbuf b, rec;
	bool ok;

	xb_init(&b);
	xb_init(&rec);
	svc_call(&rec, new_xid(c), SVCSOCK_NULL);
	xb_u32(&b, word);
	xb_put(&b, rec.p, rec.len);
	ok = tcp_bytes_closed(c, &b);
	xb_free(&b);
	xb_free(&rec);
	return ok;
}

static bool case_frag_huge_final(struct bad_ctx *c)
{
	return header_then_close(c, 0xffffffffu);
}

static bool case_frag_huge_nonfinal(struct bad_ctx *c)
{
	return header_then_close(c, 0x7fffffffu);
}

static bool case_frag_over_max_record(struct bad_ctx *c)
{
	return header_then_close(c, RM_LAST_FRAG | (c->o->max_record + 1));
}

static bool case_frag_accum_over_max_record(struct bad_ctx *c)
{
	uint32_t f = (c->o->max_record / 2 + 8) & ~3u;
	struct xbuf b, rec;
	bool ok;

	xb_init(&b);
	xb_init(&rec);
	svc_call(&rec, new_xid(c), SVCSOCK_ECHO);
	xb_u32(&rec, SVCSOCK_ECHO_MAX);
	/* Two non-final fragments, each below the limit, together above it. */
	rm_header(&b, f, false);
	xb_put(&b, rec.p, rec.len);
	xb_zero(&b, f - rec.len);
	rm_header(&b, f, false);
	xb_zero(&b, f);
	note(c, "two %u-byte non-final fragments (limit %u)", f, c->o->max_record);
	ok = tcp_bytes_closed(c, &b);
	xb_free(&b);
	xb_free(&rec);
	return ok;
}

static bool simple_call_expect(struct bad_ctx *c, uint32_t rpcvers,
			       uint32_t prog, uint32_t vers, uint32_t proc,
			       const struct expect *e)
{
	struct xbuf b;
	uint32_t xid = new_xid(c);
	bool ok;

	xb_init(&b);
	call_none(&b, xid, rpcvers, prog, vers, proc);
	ok = tcp_call_expect(c, &b, xid, e);
	xb_free(&b);
	return ok;
}

static bool case_rpcvers_3(struct bad_ctx *c)
{
	struct expect e = { XK_RPC_MISMATCH, 2, 2 };

	return simple_call_expect(c, 3, SVCSOCK_PROG, SVCSOCK_V1, 0, &e);
}

static bool case_prog_unavail(struct bad_ctx *c)
{
	struct expect e = { XK_PROG_UNAVAIL, 0, 0 };

	return simple_call_expect(c, 2, SVCSOCK_PROG + 1, 1, 0, &e);
}

static bool case_prog_mismatch(struct bad_ctx *c)
{
	struct expect e = { XK_PROG_MISMATCH, 1, 1 };

	return simple_call_expect(c, 2, SVCSOCK_PROG, 7, 0, &e);
}

static bool case_proc_unavail(struct bad_ctx *c)
{
	struct expect e = { XK_PROC_UNAVAIL, 0, 0 };

	return simple_call_expect(c, 2, SVCSOCK_PROG, SVCSOCK_V1, 9, &e);
}

static const struct expect X_BADCRED = { XK_AUTH_ERROR, RPC_AUTH_BADCRED, 0 };
static const struct expect X_BADVERF = { XK_AUTH_ERROR, RPC_AUTH_BADVERF, 0 };
static const struct expect X_GARBAGE = { XK_GARBAGE_ARGS, 0, 0 };

static bool case_auth_unknown_flavor(struct bad_ctx *c)
{
	struct auth_spec cred = { 99, NULL, 0, 0 };

	return null_with_auth(c, &cred, &rpc_auth_none, &X_BADCRED);
}

static bool case_auth_sys_oversized(struct bad_ctx *c)
{
	char machine[385];
	struct xbuf body;
	bool ok;

	/* 4 stamp + 4 + 384 name + 4 uid + 4 gid + 4 ngids = 404 bytes. */
	memset(machine, 'm', 384);
	machine[384] = 0;
	xb_init(&body);
	rpc_enc_authsys(&body, 1, machine, 0, 0, 0, NULL); /* 404 bytes */
	struct auth_spec cred = { RPC_FLAVOR_SYS, body.p, (uint32_t)body.len,
				  (uint32_t)body.len };

	note(c, "AUTH_SYS body of %zu bytes", body.len);
	ok = null_with_auth(c, &cred, &rpc_auth_none, &X_BADCRED);
	xb_free(&body);
	return ok;
}

static bool case_auth_sys_machname_overrun(struct bad_ctx *c)
{
	struct xbuf body;
	bool ok;

	xb_init(&body);
	xb_u32(&body, 1);   /* stamp */
	xb_u32(&body, 255); /* machine name length, beyond the body */
	xb_u32(&body, 0);   /* uid */
	xb_u32(&body, 0);   /* gid */
	xb_u32(&body, 0);   /* no gids */
	struct auth_spec cred = { RPC_FLAVOR_SYS, body.p, (uint32_t)body.len,
				  (uint32_t)body.len };

	ok = null_with_auth(c, &cred, &rpc_auth_none, &X_BADCRED);
	xb_free(&body);
	return ok;
}

static bool case_auth_sys_too_many_gids(struct bad_ctx *c)
{
	struct xbuf body;
	bool ok;

	xb_init(&body);
	authsys_body(&body, 17);
	struct auth_spec cred = { RPC_FLAVOR_SYS, body.p, (uint32_t)body.len,
				  (uint32_t)body.len };

	ok = null_with_auth(c, &cred, &rpc_auth_none, &X_BADCRED);
	xb_free(&body);
	return ok;
}

static bool case_auth_sys_truncated(struct bad_ctx *c)
{
	struct xbuf body;
	bool ok;

	xb_init(&body);
	xb_u32(&body, 1); /* stamp */
	xb_u32(&body, 0); /* empty machine name */
	xb_u32(&body, 0); /* uid; gid and gids missing */
	struct auth_spec cred = { RPC_FLAVOR_SYS, body.p, (uint32_t)body.len,
				  (uint32_t)body.len };

	ok = null_with_auth(c, &cred, &rpc_auth_none, &X_BADCRED);
	xb_free(&body);
	return ok;
}

static bool case_auth_none_with_body(struct bad_ctx *c)
{
	static const uint8_t junk[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct auth_spec cred = { RPC_FLAVOR_NONE, junk, 8, 8 };

	return null_with_auth(c, &cred, &rpc_auth_none, &X_BADCRED);
}

static bool case_verf_bad_flavor(struct bad_ctx *c)
{
	struct auth_spec verf = { RPC_FLAVOR_SYS, NULL, 0, 0 };

	return null_with_auth(c, &rpc_auth_none, &verf, &X_BADVERF);
}

static bool case_verf_nonzero_length(struct bad_ctx *c)
{
	static const uint8_t junk[8] = { 8, 7, 6, 5, 4, 3, 2, 1 };
	struct auth_spec verf = { RPC_FLAVOR_NONE, junk, 8, 8 };
	struct xbuf body;
	bool ok;

	xb_init(&body);
	authsys_body(&body, 2);
	struct auth_spec cred = { RPC_FLAVOR_SYS, body.p, (uint32_t)body.len,
				  (uint32_t)body.len };

	ok = null_with_auth(c, &cred, &verf, &X_BADVERF);
	xb_free(&body);
	return ok;
}

static bool case_echo_len_overrun(struct bad_ctx *c)
{
	struct xbuf b;
	uint32_t xid = new_xid(c);
	bool ok;

	xb_init(&b);
	svc_call(&b, xid, SVCSOCK_ECHO);
	xb_u32(&b, 100); /* claims 100 bytes ... */
	xb_zero(&b, 8);  /* ... has 8 */
	ok = tcp_call_expect(c, &b, xid, &X_GARBAGE);
	xb_free(&b);
	return ok;
}

static bool case_echo_too_big(struct bad_ctx *c)
{
	uint32_t size = SVCSOCK_ECHO_MAX + 1;
	uint32_t room = (c->o->max_record - 48u) & ~3u;
	struct xbuf b;
	uint32_t xid = new_xid(c);
	bool ok;

	xb_init(&b);
	svc_call(&b, xid, SVCSOCK_ECHO);
	xb_u32(&b, size);
	size_t padded = ((size_t)size + 3) & ~(size_t)3;

	xb_zero(&b, padded < room ? padded : room);
	note(c, "opaque length %u, record %zu bytes", size, b.len);
	ok = tcp_call_expect(c, &b, xid, &X_GARBAGE);
	xb_free(&b);
	return ok;
}

static bool case_echo_garbage_args(struct bad_ctx *c)
{
	uint8_t junk[16];
	struct xbuf b;
	uint32_t xid = new_xid(c);
	bool ok;

	rng_fill(&c->rng, junk, sizeof(junk));
	junk[0] |= 0x80; /* an opaque length far beyond the record */
	xb_init(&b);
	svc_call(&b, xid, SVCSOCK_ECHO);
	xb_put(&b, junk, sizeof(junk));
	ok = tcp_call_expect(c, &b, xid, &X_GARBAGE);
	xb_free(&b);
	return ok;
}

static bool case_sleep_no_arg(struct bad_ctx *c)
{
	struct xbuf b;
	uint32_t xid = new_xid(c);
	bool ok;

	xb_init(&b);
	svc_call(&b, xid, SVCSOCK_SLEEP);
	ok = tcp_call_expect(c, &b, xid, &X_GARBAGE);
	xb_free(&b);
	return ok;
}

static bool case_sleep_too_long(struct bad_ctx *c)
{
	struct xbuf b;
	uint32_t xid = new_xid(c);
	bool ok;

	xb_init(&b);
	svc_call(&b, xid, SVCSOCK_SLEEP);
	xb_u32(&b, SVCSOCK_SLEEP_MAX + 1);
	ok = tcp_call_expect(c, &b, xid, &X_GARBAGE);
	xb_free(&b);
	return ok;
}

static bool case_reply_to_server(struct bad_ctx *c)
{
	struct xbuf rec, f;
	bool ok;

	xb_init(&rec);
	xb_init(&f);
	xb_u32(&rec, new_xid(c));
	xb_u32(&rec, RPC_MSG_REPLY);
	xb_u32(&rec, RPC_MSG_ACCEPTED);
	xb_u32(&rec, RPC_FLAVOR_NONE);
	xb_u32(&rec, 0);
	xb_u32(&rec, RPC_ACC_SUCCESS);
	rm_record(&f, rec.p, rec.len);
	ok = tcp_framed_dropped(c, &f);
	xb_free(&rec);
	xb_free(&f);
	return ok;
}

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
	xids[N] = new_xid(c);
	xb_reset(&one);
	svc_call(&one, xids[N], SVCSOCK_NULL);
	rm_record(&all, one.p, one.len);

	fd = open_tcp(c);
	if (fd < 0)
		ok = false;
	else
		ok = send_bytes(c, fd, all.p, all.len);
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
			if (!reply_matches(&r, &X_SUCCESS))
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

static bool case_slow_partial_record(struct bad_ctx *c)
{
	enum { SIZE = 4096, STEPS = 30, STEP_MS = 50 };
	uint8_t payload[SIZE];
	struct xbuf rec, f, keep;
	struct rpc_reply r;
	uint32_t xid = new_xid(c);
	uint64_t s0;
	int fd;
	bool ok = true;

	pattern_fill(payload, SIZE, c->o->seed, xid);
	xb_init(&rec);
	xb_init(&f);
	xb_init(&keep);
	echo_call(&rec, xid, payload, SIZE);
	rm_record(&f, rec.p, rec.len);
	fd = open_tcp(c);
	if (fd < 0)
		ok = false;
	s0 = atomic_load(&c->side_ok);
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
	if (ok)
		ok = expect_tcp(c, fd, xid, &X_SUCCESS, &keep, &r) &&
		     check_echo_results(c, &r, payload, SIZE);
	if (fd >= 0)
		close(fd);
	xb_free(&rec);
	xb_free(&f);
	xb_free(&keep);
	return ok;
}

static bool case_rst_mid_record(struct bad_ctx *c)
{
	enum { SIZE = 8192 };
	uint8_t payload[SIZE];
	struct xbuf rec, f;
	uint32_t xid = new_xid(c);
	int fd;
	bool ok;

	pattern_fill(payload, SIZE, c->o->seed, xid);
	xb_init(&rec);
	xb_init(&f);
	echo_call(&rec, xid, payload, SIZE);
	rm_record(&f, rec.p, rec.len);
	fd = open_tcp(c);
	ok = fd >= 0 && send_bytes(c, fd, f.p, f.len / 2);
	if (fd >= 0) {
		sleep_ms(50);
		net_abort(fd);
	}
	xb_free(&rec);
	xb_free(&f);
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
	unsigned want_oldest = 32; /* the oldest 32 idle ones must go */
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
		fds[i] = net_tcp_connect(&c->tcp, c->o->timeout_ms);
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

		for (unsigned i = 0; i < opened; i++) {
			if (closed[i]) {
				newest_closed = i;
				if (i < want_oldest)
					oldest_closed++;
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
		else if (oldest_closed < want_oldest)
			ok = fail(c, "server closed %u connections, but only %u of the oldest %u idle ones",
				  nclosed, oldest_closed, want_oldest);
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

static bool case_udp_null(struct bad_ctx *c)
{
	int fd = open_udp(c);
	bool ok;

	if (fd < 0)
		return false;
	ok = udp_null_ok(c, fd, NULL);
	close(fd);
	return ok;
}

static bool case_udp_zero_datagram(struct bad_ctx *c)
{
	return udp_dropped(c, "", 0);
}

static bool case_udp_random_64k(struct bad_ctx *c)
{
	uint8_t *junk = malloc(UDP_MAX);
	bool ok;

	if (!junk)
		return fail(c, "out of memory");
	rng_fill(&c->rng, junk, UDP_MAX);
	junk[4] |= 0x80; /* msg_type is neither CALL nor REPLY */
	ok = udp_dropped(c, junk, UDP_MAX);
	free(junk);
	return ok;
}

static bool case_udp_truncated_header(struct bad_ctx *c)
{
	struct xbuf b;
	bool ok;

	xb_init(&b);
	svc_call(&b, new_xid(c), SVCSOCK_NULL);
	ok = udp_dropped(c, b.p, 20);
	xb_free(&b);
	return ok;
}

static bool case_udp_echo_max(struct bad_ctx *c)
{
	/* 40-byte header + 4-byte length + payload <= 65507; reply smaller. */
	const uint32_t size = RPCLOAD_UDP_ECHO_MAX;
	uint8_t *payload = malloc(size);
	uint8_t *buf = malloc(UDP_MAX + 1);
	struct xbuf b;
	struct rpc_reply r;
	uint32_t xid = new_xid(c);
	int fd;
	bool ok = false;

	if (!payload || !buf) {
		free(payload);
		free(buf);
		return fail(c, "out of memory");
	}
	pattern_fill(payload, size, c->o->seed, xid);
	xb_init(&b);
	echo_call(&b, xid, payload, size);
	note(c, "ECHO of %u bytes in a %zu-byte datagram", size, b.len);
	fd = open_udp(c);
	if (fd >= 0) {
		ok = udp_send(c, fd, b.p, b.len) &&
		     udp_expect(c, fd, xid, &X_SUCCESS, buf, UDP_MAX + 1, &r) &&
		     check_echo_results(c, &r, payload, size);
		close(fd);
	}
	xb_free(&b);
	free(payload);
	free(buf);
	return ok;
}

static bool case_udp_rpcvers_3(struct bad_ctx *c)
{
	struct expect e = { XK_RPC_MISMATCH, 2, 2 };
	struct xbuf b;
	uint32_t xid = new_xid(c);
	bool ok;

	xb_init(&b);
	call_none(&b, xid, 3, SVCSOCK_PROG, SVCSOCK_V1, 0);
	ok = udp_call_expect(c, &b, xid, &e);
	xb_free(&b);
	return ok;
}

static bool case_udp_garbage_args(struct bad_ctx *c)
{
	struct xbuf b;
	uint32_t xid = new_xid(c);
	bool ok;

	xb_init(&b);
	svc_call(&b, xid, SVCSOCK_SLEEP);
	ok = udp_call_expect(c, &b, xid, &X_GARBAGE);
	xb_free(&b);
	return ok;
}

static const struct bad_case cases[] = {
	{ "tcp-null", "a valid NULL call is answered", case_tcp_null },
	{ "tcp-auth-sys", "NULL with a valid AUTH_SYS credential (16 gids) is answered", case_tcp_auth_sys },
	{ "tcp-echo", "ECHO of 1001 bytes is answered byte-exact", case_tcp_echo },
	{ "tcp-echo-max", "ECHO of 1048576 bytes is answered byte-exact", case_tcp_echo_max },
	{ "tcp-sleep", "SLEEP 1000 us is answered", case_tcp_sleep },
	{ "tcp-pipelined", "64 NULL calls in one write get 64 replies", case_tcp_pipelined },
	{ "frag-4byte-chain", "NULL split into 4-byte non-final fragments is answered", case_frag_4byte_chain },
	{ "frag-empty-interleaved", "zero-length non-final fragments interleaved: answered", case_frag_empty_interleaved },
	{ "frag-long-empty-chain", "1000 zero-length non-final fragments, then NULL: answered", case_frag_long_empty_chain },
	{ "frag-header-bytewise", "fragment headers and call written 1 byte at a time: answered", case_frag_header_bytewise },
	{ "frag-zero-final", "a zero-length final fragment as the whole record: dropped, connection usable", case_frag_zero_final },
	{ "record-short", "an 8-byte record: dropped, connection usable", case_record_short },
	{ "record-truncated-header", "a call header cut before the credentials: dropped, connection usable", case_record_trunc_header },
	{ "record-truncated-verf", "a call header cut inside the verifier: dropped, connection usable", case_record_trunc_verf },
	{ "frag-huge-final", "final fragment header of 2^31-1 bytes: connection closed", case_frag_huge_final },
	{ "frag-huge-nonfinal", "non-final fragment header of 2^31-1 bytes: connection closed", case_frag_huge_nonfinal },
	{ "frag-over-max-record", "fragment of max_record+1 bytes: connection closed", case_frag_over_max_record },
	{ "frag-accum-over-max-record", "fragments adding up past max_record: connection closed", case_frag_accum_over_max_record },
	{ "rpcvers-3", "rpcvers 3: MSG_DENIED RPC_MISMATCH low=2 high=2", case_rpcvers_3 },
	{ "prog-unavail", "unknown program: PROG_UNAVAIL", case_prog_unavail },
	{ "prog-mismatch", "version 7: PROG_MISMATCH low=1 high=1", case_prog_mismatch },
	{ "proc-unavail", "procedure 9: PROC_UNAVAIL", case_proc_unavail },
	{ "auth-unknown-flavor", "credential flavor 99: AUTH_ERROR AUTH_BADCRED", case_auth_unknown_flavor },
	{ "auth-sys-oversized", "AUTH_SYS body of 404 bytes (> 400): AUTH_BADCRED", case_auth_sys_oversized },
	{ "auth-sys-machname-overrun", "AUTH_SYS machine name longer than the body: AUTH_BADCRED", case_auth_sys_machname_overrun },
	{ "auth-sys-too-many-gids", "AUTH_SYS with 17 gids: AUTH_BADCRED", case_auth_sys_too_many_gids },
	{ "auth-sys-truncated", "AUTH_SYS body ending after the uid: AUTH_BADCRED", case_auth_sys_truncated },
	{ "auth-none-with-body", "AUTH_NONE credential of length 8: AUTH_BADCRED", case_auth_none_with_body },
	{ "verf-bad-flavor", "verifier flavor AUTH_SYS: AUTH_BADVERF", case_verf_bad_flavor },
	{ "verf-nonzero-length", "AUTH_NONE verifier of length 8 on an AUTH_SYS call: AUTH_BADVERF", case_verf_nonzero_length },
	{ "echo-len-overrun", "ECHO opaque length beyond the record: GARBAGE_ARGS", case_echo_len_overrun },
	{ "echo-too-big", "ECHO opaque of 1048577 bytes: GARBAGE_ARGS", case_echo_too_big },
	{ "echo-garbage-args", "ECHO with random argument bytes: GARBAGE_ARGS", case_echo_garbage_args },
	{ "sleep-no-arg", "SLEEP without its argument: GARBAGE_ARGS", case_sleep_no_arg },
	{ "sleep-too-long", "SLEEP 1000001 us: GARBAGE_ARGS", case_sleep_too_long },
	{ "reply-to-server", "a REPLY message sent to the server: dropped, connection usable", case_reply_to_server },
	{ "random-stream", "64 KiB of random bytes: server survives", case_random_stream },
	{ "random-calls", "32 call headers with random bodies, then NULL: replies well-formed, NULL answered (or closed, then served)", case_random_calls },
	{ "slow-partial-record", "ECHO record dribbled over 1.5 s: answered, side served meanwhile", case_slow_partial_record },
	{ "rst-mid-record", "RST after half a record: server survives", case_rst_mid_record },
	{ "conn-flood", "max_conns+32 idle connections: the oldest idle ones closed, busy side and newest served", case_conn_flood },
	{ "udp-null", "a valid NULL over UDP is answered", case_udp_null },
	{ "udp-zero-datagram", "0-byte UDP datagram: no reply", case_udp_zero_datagram },
	{ "udp-random-64k", "65507-byte random UDP datagram: no reply", case_udp_random_64k },
	{ "udp-truncated-header", "20-byte UDP call header: no reply", case_udp_truncated_header },
	{ "udp-echo-max", "ECHO of 65460 bytes in one datagram: answered byte-exact", case_udp_echo_max },
	{ "udp-rpcvers-3", "rpcvers 3 over UDP: RPC_MISMATCH low=2 high=2", case_udp_rpcvers_3 },
	{ "udp-garbage-args", "SLEEP without argument over UDP: GARBAGE_ARGS", case_udp_garbage_args },
};

#define NCASES (sizeof(cases) / sizeof(cases[0]))

/* ---- side connection ------------------------------------------------------ */

static void side_error(struct bad_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void side_error(struct bad_ctx *c, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&c->side_mu);
	va_start(ap, fmt);
	vsnprintf(c->side_err, sizeof(c->side_err), fmt, ap);
	va_end(ap);
	pthread_mutex_unlock(&c->side_mu);
}

static void *side_main(void *arg)
{
	struct bad_ctx *c = arg;
	struct rng r;
	struct xbuf b, rec;
	int fd = -1;

	rng_seed(&r, c->o->seed ^ 0x51de51de51de51deULL);
	xb_init(&b);
	xb_init(&rec);
	while (!atomic_load(&c->side_stop)) {
		if (fd < 0) {
			fd = net_tcp_connect(&c->tcp, c->o->timeout_ms);
			if (fd < 0) {
				atomic_fetch_add(&c->side_fail, 1);
				side_error(c, "connect: %s", strerror(errno));
				sleep_ms(50);
				continue;
			}
			atomic_fetch_add(&c->side_connects, 1);
		}
		uint32_t xid = (uint32_t)rng_next(&r);
		uint64_t dl = mono_ms() + c->o->timeout_ms;
		enum net_status st;
		struct rpc_reply rep;
		char err[200];

		xb_reset(&b);
		xb_reset(&rec);
		svc_call(&rec, xid, SVCSOCK_NULL);
		rm_record(&b, rec.p, rec.len);
		st = net_send_all(fd, b.p, b.len, dl);
		if (st == NET_OK)
			st = net_recv_record(fd, &rec, MAX_REPLY, dl);
		if (st != NET_OK) {
			side_error(c, "NULL: %s",
				   st == NET_TIMEOUT ? "no reply within the timeout"
						     : net_status_text(st, errno));
		} else if (rpc_dec_reply(rec.p, rec.len, &rep, err, sizeof(err)) < 0) {
			side_error(c, "NULL reply: %s", err);
			st = NET_ERROR;
		} else if (rep.xid != xid || !reply_matches(&rep, &X_SUCCESS)) {
			side_error(c, "NULL reply: wrong xid or status");
			st = NET_ERROR;
		}
		if (st == NET_OK) {
			atomic_fetch_add(&c->side_ok, 1);
			sleep_ms(SIDE_PAUSE_MS);
		} else {
			atomic_fetch_add(&c->side_fail, 1);
			close(fd);
			fd = -1;
			sleep_ms(20);
		}
	}
	if (fd >= 0)
		close(fd);
	xb_free(&b);
	xb_free(&rec);
	return NULL;
}

/* ---- runner --------------------------------------------------------------- */

static const char *volatile current_case = "";

static void on_alarm(int sig)
{
	static const char a[] = "Bail out! case ";
	static const char b[] = " ran longer than the hard limit\n";
	const char *name = current_case;

	(void)sig;
	(void)!write(STDOUT_FILENO, a, sizeof(a) - 1);
	(void)!write(STDOUT_FILENO, name, strlen(name));
	(void)!write(STDOUT_FILENO, b, sizeof(b) - 1);
	_exit(1);
}

static int find_case(const char *name)
{
	for (size_t i = 0; i < NCASES; i++)
		if (strcmp(cases[i].name, name) == 0)
			return (int)i;
	return -1;
}

int bad_run(const struct bad_opts *o)
{
	bool selected[NCASES];
	unsigned nsel = 0, passed = 0, failed = 0, num = 0;
	struct bad_ctx c;
	char err[300];

	if (o->list) {
		for (size_t i = 0; i < NCASES; i++)
			printf("%-28s %s\n", cases[i].name, cases[i].desc);
		return 0;
	}
	memset(selected, 0, sizeof(selected));
	for (unsigned i = 0; i < o->ncases; i++) {
		/* Each --case value may hold several names, comma-separated. */
		char buf[512];
		char *save = NULL;

		snprintf(buf, sizeof(buf), "%s", o->cases[i]);
		for (char *t = strtok_r(buf, ",", &save); t;
		     t = strtok_r(NULL, ",", &save)) {
			int k = find_case(t);

			if (k < 0) {
				fprintf(stderr,
					"rpcload: bad: unknown case '%s' (see 'rpcload bad --list')\n",
					t);
				return 2;
			}
			selected[k] = true;
		}
	}
	for (size_t i = 0; i < NCASES; i++) {
		if (!o->ncases)
			selected[i] = true;
		nsel += selected[i];
	}

	memset(&c, 0, sizeof(c));
	c.o = o;
	rng_seed(&c.rng, o->seed);
	pthread_mutex_init(&c.side_mu, NULL);
	struct target t = { .port = o->port, .proto = PROTO_TCP };

	snprintf(t.host, sizeof(t.host), "%s", o->host);
	if (rpc_resolve(&t, &c.tcp, err, sizeof(err)) < 0) {
		fprintf(stderr, "rpcload: bad: %s\n", err);
		return 1;
	}
	t.proto = PROTO_UDP;
	if (rpc_resolve(&t, &c.udp, err, sizeof(err)) < 0) {
		fprintf(stderr, "rpcload: bad: %s\n", err);
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);
	signal(SIGALRM, on_alarm);

	printf("1..%u\n", nsel);
	printf("# rpcload bad against %s (and udp), max_conns %u, max_record %u, seed %llu\n",
	       c.tcp.text, o->max_conns, o->max_record, (unsigned long long)o->seed);
	fflush(stdout);

	if (pthread_create(&c.side_th, NULL, side_main, &c) != 0) {
		printf("Bail out! cannot start the side thread\n");
		return 1;
	}
	/* The side connection must work before anything else is tried. */
	uint64_t end = mono_ms() + o->timeout_ms;

	while (atomic_load(&c.side_ok) == 0 && mono_ms() < end)
		sleep_ms(5);
	if (atomic_load(&c.side_ok) == 0) {
		pthread_mutex_lock(&c.side_mu);
		printf("Bail out! the side connection to %s is not served: %s\n",
		       c.tcp.text, c.side_err[0] ? c.side_err : "no reply");
		pthread_mutex_unlock(&c.side_mu);
		fflush(stdout);
		atomic_store(&c.side_stop, true);
		pthread_join(c.side_th, NULL);
		return 1;
	}

	for (size_t i = 0; i < NCASES; i++) {
		if (!selected[i])
			continue;
		num++;
		c.reason[0] = 0;
		c.note[0] = 0;
		current_case = cases[i].name;

		uint64_t s0 = atomic_load(&c.side_ok);
		uint64_t f0 = atomic_load(&c.side_fail);
		uint64_t t0 = mono_ms();

		alarm(CASE_ALARM_S);
		bool ok = cases[i].fn(&c);
		uint64_t t1 = mono_ms();

		/* The side connection must have been served during the case. */
		uint64_t wait_end = mono_ms() + o->timeout_ms;

		while (atomic_load(&c.side_ok) == s0 && mono_ms() < wait_end)
			sleep_ms(1);
		alarm(0);

		uint64_t ds = atomic_load(&c.side_ok) - s0;
		uint64_t df = atomic_load(&c.side_fail) - f0;

		if (ok && ds == 0)
			ok = fail(&c, "the side connection made no progress during the case");
		if (ok && df) {
			pthread_mutex_lock(&c.side_mu);
			ok = fail(&c, "the side connection failed %llu time(s): %s",
				  (unsigned long long)df, c.side_err);
			pthread_mutex_unlock(&c.side_mu);
		}
		if (ok) {
			passed++;
			printf("ok %u - %s\n", num, cases[i].name);
		} else {
			failed++;
			printf("not ok %u - %s # %s\n", num, cases[i].name, c.reason);
		}
		if (o->verbose || (!ok && c.note[0])) {
			printf("#   %s\n", cases[i].desc);
			if (c.note[0])
				printf("#   %s\n", c.note);
			printf("#   %llu ms, side connection: %llu calls served\n",
			       (unsigned long long)(t1 - t0), (unsigned long long)ds);
		}
		fflush(stdout);
	}
	atomic_store(&c.side_stop, true);
	pthread_join(c.side_th, NULL);
	printf("# %u passed, %u failed; side connection: %llu calls, %llu failures, %llu connects%s%s\n",
	       passed, failed, (unsigned long long)atomic_load(&c.side_ok),
	       (unsigned long long)atomic_load(&c.side_fail),
	       (unsigned long long)atomic_load(&c.side_connects),
	       c.side_err[0] ? "; last side error: " : "", c.side_err);
	fflush(stdout);
	pthread_mutex_destroy(&c.side_mu);
	return failed ? 1 : 0;
}
