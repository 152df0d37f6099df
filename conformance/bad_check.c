// SPDX-License-Identifier: GPL-2.0
/*
 * bad_check.c - rpcload bad: building calls, sending them and checking what
 * comes back: the expectations every case and the runner's shapes use.
 */
#include "bad_int.h"
#include "svcsock_prot.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

bool fail(struct bad_ctx *c, const char *fmt, ...)
{
	va_list ap;

	if (c->reason[0])
		return false; /* keep the first reason */
	va_start(ap, fmt);
	vsnprintf(c->reason, sizeof(c->reason), fmt, ap);
	va_end(ap);
	return false;
}

void note(struct bad_ctx *c, const char *fmt, ...)
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

uint64_t deadline(struct bad_ctx *c)
{
	return mono_ms() + c->o->timeout_ms;
}

uint32_t new_xid(struct bad_ctx *c)
{
	return (uint32_t)rng_next(&c->rng);
}

unsigned quiet_ms(struct bad_ctx *c)
{
	return c->o->timeout_ms < QUIET_MS ? c->o->timeout_ms : QUIET_MS;
}

/* A call header with AUTH_NONE credentials and verifier. */
void call_none(struct xbuf *b, uint32_t xid, uint32_t rpcvers,
		      uint32_t prog, uint32_t vers, uint32_t proc)
{
	rpc_enc_call(b, xid, rpcvers, prog, vers, proc, &rpc_auth_none,
		     &rpc_auth_none);
}

void svc_call(struct xbuf *b, uint32_t xid, uint32_t proc)
{
	call_none(b, xid, 2, SVCSOCK_PROG, SVCSOCK_V1, proc);
}

uint32_t null_call(struct bad_ctx *c, struct xbuf *b)
{
	uint32_t xid = new_xid(c);

	svc_call(b, xid, SVCSOCK_NULL);
	return xid;
}

uint32_t add_null_record(struct bad_ctx *c, struct xbuf *all)
{
	struct xbuf one;
	uint32_t xid;

	xb_init(&one);
	xid = null_call(c, &one);
	rm_record(all, one.p, one.len);
	xb_free(&one);
	return xid;
}

int open_tcp(struct bad_ctx *c)
{
	int fd = net_dial(&c->tcp, SOCK_STREAM, c->o->timeout_ms,
			  NET_NONBLOCK | NET_NODELAY, 0, 0);

	if (fd < 0)
		fail(c, "connect %s: %s", c->tcp.text, strerror(errno));
	return fd;
}

int open_udp(struct bad_ctx *c)
{
	int fd = net_dial(&c->udp, SOCK_DGRAM, c->o->timeout_ms, NET_NONBLOCK,
			  1 << 20, 1 << 20);

	if (fd < 0)
		fail(c, "UDP socket for %s: %s", c->udp.text, strerror(errno));
	return fd;
}

int open_send(struct bad_ctx *c, const struct xbuf *bytes)
{
	int fd = open_tcp(c);

	if (fd >= 0 && !send_bytes(c, fd, bytes->p, bytes->len)) {
		close(fd);
		return -1;
	}
	return fd;
}

bool send_bytes(struct bad_ctx *c, int fd, const void *p, size_t len)
{
	enum net_status st = net_send_all(fd, p, len, deadline(c));

	if (st != NET_OK)
		return fail(c, "send: %s", net_status_text(st, errno));
	return true;
}

/* Frame rec as one final fragment and send it. */
bool send_record(struct bad_ctx *c, int fd, const struct xbuf *rec)
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

/* What each kind of expected reply is on the wire. */
static const struct {
	uint32_t reply_stat; /* MSG_ACCEPTED or MSG_DENIED */
	uint32_t stat;       /* its accept_stat or reject_stat */
	bool versions;       /* low, high = expect a, b */
	bool why;            /* auth_stat = expect a */
} kinds[] = {
	[XK_SUCCESS] = { RPC_MSG_ACCEPTED, RPC_ACC_SUCCESS, false, false },
	[XK_PROG_UNAVAIL] = { RPC_MSG_ACCEPTED, RPC_ACC_PROG_UNAVAIL, false, false },
	[XK_PROG_MISMATCH] = { RPC_MSG_ACCEPTED, RPC_ACC_PROG_MISMATCH, true, false },
	[XK_PROC_UNAVAIL] = { RPC_MSG_ACCEPTED, RPC_ACC_PROC_UNAVAIL, false, false },
	[XK_GARBAGE_ARGS] = { RPC_MSG_ACCEPTED, RPC_ACC_GARBAGE_ARGS, false, false },
	[XK_RPC_MISMATCH] = { RPC_MSG_DENIED, RPC_REJ_RPC_MISMATCH, true, false },
	[XK_AUTH_ERROR] = { RPC_MSG_DENIED, RPC_REJ_AUTH_ERROR, false, true },
};

void expect_describe(const struct expect *e, char *buf, size_t n)
{
	struct rpc_reply w;

	if (e->kind == XK_SUCCESS) {
		snprintf(buf, n, "MSG_ACCEPTED SUCCESS");
		return;
	}
	memset(&w, 0, sizeof(w));
	w.reply_stat = kinds[e->kind].reply_stat;
	w.accept_stat = w.reject_stat = kinds[e->kind].stat;
	if (kinds[e->kind].versions) {
		w.low = e->a;
		w.high = e->b;
	}
	if (kinds[e->kind].why)
		w.auth_stat = e->a;
	rpc_reply_describe(&w, buf, n);
}

bool reply_matches(const struct rpc_reply *r, const struct expect *e)
{
	uint32_t stat = r->reply_stat == RPC_MSG_ACCEPTED ? r->accept_stat
							  : r->reject_stat;

	return r->reply_stat == kinds[e->kind].reply_stat &&
	       stat == kinds[e->kind].stat &&
	       (!kinds[e->kind].versions || (r->low == e->a && r->high == e->b)) &&
	       (!kinds[e->kind].why || r->auth_stat == e->a);
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
bool expect_tcp(struct bad_ctx *c, int fd, uint32_t xid,
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

const struct expect x_success = X_SUCCESS;

/* A NULL call on fd must be answered with SUCCESS and no results. */
bool null_ok(struct bad_ctx *c, int fd, const char *when)
{
	struct xbuf b;
	struct rpc_reply r;
	uint32_t xid = new_xid(c);
	bool ok;

	xb_init(&b);
	svc_call(&b, xid, SVCSOCK_NULL);
	ok = send_record(c, fd, &b) && expect_tcp(c, fd, xid, &x_success, NULL, &r);
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
bool fresh_null_ok(struct bad_ctx *c)
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
bool tcp_call_expect(struct bad_ctx *c, const struct xbuf *rec,
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
bool tcp_framed_dropped(struct bad_ctx *c, const struct xbuf *framed)
{
	int fd = open_tcp(c);
	bool ok;

	if (fd < 0)
		return false;
	ok = send_bytes(c, fd, framed->p, framed->len) && expect_dropped(c, fd);
	close(fd);
	return ok;
}

/* Send m's framed bytes on a new connection (a byte every m->pace_ms ms
 * when not 0); expect SUCCESS for m->xid. */
bool tcp_framed_success(struct bad_ctx *c, const struct bad_msg *m)
{
	int fd = open_tcp(c);
	bool ok = fd >= 0;

	for (size_t i = 0; ok && m->pace_ms && i < m->b.len; i++) {
		ok = send_bytes(c, fd, m->b.p + i, 1);
		sleep_ms(m->pace_ms);
	}
	if (ok && !m->pace_ms)
		ok = send_bytes(c, fd, m->b.p, m->b.len);
	if (ok)
		ok = expect_tcp(c, fd, m->xid, &x_success, NULL, NULL);
	if (fd >= 0)
		close(fd);
	return ok;
}

/* Send the raw bytes (errors from a closing peer are fine); expect a close. */
bool tcp_bytes_closed(struct bad_ctx *c, const struct xbuf *bytes)
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
bool check_echo_results(struct bad_ctx *c, const struct rpc_reply *r,
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

void echo_call(struct xbuf *b, uint32_t xid, const uint8_t *payload,
		      uint32_t size)
{
	svc_call(b, xid, SVCSOCK_ECHO);
	xb_opaque(b, payload, size);
}

/* An ECHO call of size bytes of the seed's pattern, for SH_*_ECHO. */
bool build_echo(struct bad_ctx *c, struct bad_msg *m, uint32_t size)
{
	m->xid = new_xid(c);
	m->size = size;
	m->payload = malloc(size ? size : 1);
	if (!m->payload)
		return fail(c, "out of memory");
	pattern_fill(m->payload, size, c->o->seed, m->xid);
	echo_call(&m->b, m->xid, m->payload, size);
	return true;
}

/* The ECHO call m on a new connection: answered byte-exact. */
bool tcp_echo(struct bad_ctx *c, const struct bad_msg *m)
{
	struct xbuf rec;
	struct rpc_reply r;
	int fd = open_tcp(c);
	bool ok;

	if (fd < 0)
		return false;
	xb_init(&rec);
	ok = send_record(c, fd, &m->b) &&
	     expect_tcp(c, fd, m->xid, &x_success, &rec, &r) &&
	     check_echo_results(c, &r, m->payload, m->size);
	close(fd);
	xb_free(&rec);
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

bool udp_null_ok(struct bad_ctx *c, int fd, const char *when)
{
	struct xbuf b;
	struct rpc_reply r;
	uint8_t buf[1024];
	uint32_t xid = new_xid(c);
	bool ok;

	xb_init(&b);
	svc_call(&b, xid, SVCSOCK_NULL);
	ok = udp_send(c, fd, b.p, b.len) &&
	     udp_expect(c, fd, xid, &x_success, buf, sizeof(buf), &r);
	xb_free(&b);
	if (!ok && when) {
		char tmp[sizeof(c->reason)];

		snprintf(tmp, sizeof(tmp), "%s", c->reason);
		snprintf(c->reason, sizeof(c->reason), "UDP NULL %.60s: %.500s", when, tmp);
	}
	return ok;
}

bool udp_call_expect(struct bad_ctx *c, const struct xbuf *msg,
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

bool udp_dropped(struct bad_ctx *c, const void *p, size_t len)
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


/* The ECHO datagram m: answered byte-exact. */
bool udp_echo(struct bad_ctx *c, const struct bad_msg *m)
{
	uint8_t *buf = malloc(UDP_MAX + 1);
	struct rpc_reply r;
	int fd;
	bool ok = false;

	if (!buf)
		return fail(c, "out of memory");
	note(c, "ECHO of %u bytes in a %zu-byte datagram", m->size, m->b.len);
	fd = open_udp(c);
	if (fd >= 0) {
		ok = udp_send(c, fd, m->b.p, m->b.len) &&
		     udp_expect(c, fd, m->xid, &x_success, buf, UDP_MAX + 1, &r) &&
		     check_echo_results(c, &r, m->payload, m->size);
		close(fd);
	}
	free(buf);
	return ok;
}
