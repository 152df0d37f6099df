/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bad_int.h - what the parts of `rpcload bad` share: the run's context,
 * the table of cases (one part per area, bad_*.c) and the checks.
 *
 * A case is a row: its name, what it expects (desc, shown by --list), a
 * shape and what to send.  Most cases are one of a few shapes (send a call
 * on a new connection and expect a reply, expect the record dropped, the
 * connection closed, an ECHO back...): the row gives the shape, the
 * expected reply and a function that builds the bytes, and the runner
 * (bad.c) opens the socket, sends, checks and closes.  A case that is none
 * of these (pipelining, floods, slow or reset records) is SH_CUSTOM with a
 * function of its own.
 */
#ifndef CONFORMANCE_BAD_INT_H
#define CONFORMANCE_BAD_INT_H

#include "bad.h"
#include "clock.h"
#include "netio.h"
#include "pattern.h"
#include "rpcwire.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define QUIET_MS 300u        /* how long "no reply" is waited for */
#define MAX_REPLY (2u << 20) /* longest reply record accepted */
#define UDP_MAX 65507u       /* largest IPv4 UDP payload */
/* The largest ECHO payload in one datagram both ways: 40 header bytes, 4
 * length bytes and the padded payload (rpcload's RPCLOAD_UDP_ECHO_MAX). */
#define UDP_ECHO_MAX ((UDP_MAX - RPC_CALL_NONE_LEN - 4u) & ~3u)

struct bad_ctx {
	const struct bad_opts *o;
	struct net_addr tcp, udp;
	struct rng rng;
	char reason[600];
	char note[600];

	pthread_t side_th;
	atomic_bool side_stop;
	atomic_uint_fast64_t side_ok, side_fail, side_connects;
	pthread_mutex_t side_mu;
	char side_err[240];
};

/* The reply a case expects. */
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

/* For the tables. */
#define X_SUCCESS { XK_SUCCESS, 0, 0 }
#define X_GARBAGE { XK_GARBAGE_ARGS, 0, 0 }
#define X_BADCRED { XK_AUTH_ERROR, RPC_AUTH_BADCRED, 0 }
#define X_BADVERF { XK_AUTH_ERROR, RPC_AUTH_BADVERF, 0 }

/* For the code. */
extern const struct expect x_success;

enum bad_shape {
	/* m.b is a call record (unframed): a new connection gets the reply
	 * row.expect for m.xid, then still answers a NULL */
	SH_TCP_CALL,
	/* m.b is framed: MSG_ACCEPTED SUCCESS for m.xid (m.b sent a byte
	 * every m.pace_ms ms when that is not 0) */
	SH_TCP_SUCCESS,
	/* m.b is framed: no reply, the connection still answers a NULL */
	SH_TCP_DROPPED,
	/* m.b is raw bytes: the server closes the connection */
	SH_TCP_CLOSED,
	/* m.b is an ECHO call record: m.payload comes back, byte-exact */
	SH_TCP_ECHO,
	/* m.b is a datagram: the reply row.expect for m.xid */
	SH_UDP_CALL,
	/* m.b is a datagram: no reply, then a NULL is answered */
	SH_UDP_DROPPED,
	/* m.b is an ECHO datagram: m.payload comes back */
	SH_UDP_ECHO,
	/* a NULL call on a new connection, or from a new UDP socket, is
	 * answered with SUCCESS and no results (nothing to build) */
	SH_TCP_NULL,
	SH_UDP_NULL,
	/* row.run does everything */
	SH_CUSTOM,
};

/* What a row's build function fills in. */
struct bad_msg {
	struct xbuf b;
	uint32_t xid;
	uint8_t *payload; /* ECHO: malloc'd, freed by the runner */
	uint32_t size;
	unsigned pace_ms; /* SH_TCP_SUCCESS: a byte every pace_ms ms */
};

struct bad_case {
	const char *name;
	const char *desc;
	enum bad_shape shape;
	/* builds m from the row (its arg); false when it could not (the
	 * reason is set) */
	bool (*build)(struct bad_ctx *c, const struct bad_case *k,
		      struct bad_msg *m);
	uint32_t arg[6];      /* for build: a size, a header word... */
	struct expect expect; /* SH_TCP_CALL, SH_UDP_CALL */
	bool (*run)(struct bad_ctx *c); /* SH_CUSTOM */
};

/* A row of shape SH_CUSTOM. */
#define CUSTOM(n, d, fn) { .name = n, .desc = d, .shape = SH_CUSTOM, .run = fn }

/* The areas, in the order they run (bad.c). */
struct bad_area {
	const char *name;
	const struct bad_case *cases;
	size_t n;
};

#define AREA(name, table) { name, table, sizeof(table) / sizeof(table[0]) }

extern const struct bad_area bad_area_header, bad_area_auth, bad_area_args,
	bad_area_records, bad_area_conns, bad_area_udp;

/* ---- bad_check.c: building, sending, expecting --------------------------- */

bool fail(struct bad_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void note(struct bad_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
uint64_t deadline(struct bad_ctx *c);
unsigned quiet_ms(struct bad_ctx *c);
uint32_t new_xid(struct bad_ctx *c);

/* Call headers with AUTH_NONE credential and verifier. */
void call_none(struct xbuf *b, uint32_t xid, uint32_t rpcvers, uint32_t prog,
	       uint32_t vers, uint32_t proc);
void svc_call(struct xbuf *b, uint32_t xid, uint32_t proc);
/* A NULL call with a new xid into b (unframed); returns the xid. */
uint32_t null_call(struct bad_ctx *c, struct xbuf *b);
/* The same as a record appended to all. */
uint32_t add_null_record(struct bad_ctx *c, struct xbuf *all);
void echo_call(struct xbuf *b, uint32_t xid, const uint8_t *payload,
	       uint32_t size);
/* m: an ECHO call of size bytes of the seed's pattern (for SH_*_ECHO). */
bool build_echo(struct bad_ctx *c, struct bad_msg *m, uint32_t size);

int open_tcp(struct bad_ctx *c);
int open_udp(struct bad_ctx *c);
bool send_bytes(struct bad_ctx *c, int fd, const void *p, size_t len);
/* A new connection with bytes sent on it: its fd, or -1 (reason set). */
int open_send(struct bad_ctx *c, const struct xbuf *bytes);
bool send_record(struct bad_ctx *c, int fd, const struct xbuf *rec);

void expect_describe(const struct expect *e, char *buf, size_t n);
bool reply_matches(const struct rpc_reply *r, const struct expect *e);
bool expect_tcp(struct bad_ctx *c, int fd, uint32_t xid, const struct expect *e,
		struct xbuf *keep, struct rpc_reply *out);
bool null_ok(struct bad_ctx *c, int fd, const char *when);
bool fresh_null_ok(struct bad_ctx *c);
bool check_echo_results(struct bad_ctx *c, const struct rpc_reply *r,
			const uint8_t *payload, uint32_t size);

/* The shapes: open, send, check, close. */
bool tcp_call_expect(struct bad_ctx *c, const struct xbuf *rec, uint32_t xid,
		     const struct expect *e);
bool tcp_framed_success(struct bad_ctx *c, const struct bad_msg *m);
bool tcp_framed_dropped(struct bad_ctx *c, const struct xbuf *framed);
bool tcp_bytes_closed(struct bad_ctx *c, const struct xbuf *bytes);
bool tcp_echo(struct bad_ctx *c, const struct bad_msg *m);
bool udp_null_ok(struct bad_ctx *c, int fd, const char *when);
bool udp_call_expect(struct bad_ctx *c, const struct xbuf *msg, uint32_t xid,
		     const struct expect *e);
bool udp_dropped(struct bad_ctx *c, const void *p, size_t len);
bool udp_echo(struct bad_ctx *c, const struct bad_msg *m);

#endif
