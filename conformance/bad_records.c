// SPDX-License-Identifier: GPL-2.0
/*
 * bad_records.c - rpcload bad, record marking: pipelined records, records
 * in many small or empty fragments, headers a byte at a time; empty,
 * short and truncated records (dropped); fragment headers too large for
 * the server (connection closed).
 */
#include "bad_int.h"
#include "svcsock_prot.h"

#include <errno.h>
#include <unistd.h>

static bool case_tcp_pipelined(struct bad_ctx *c)
{
	enum { N = 64 };
	uint32_t xids[N];
	bool seen[N] = { false };
	struct xbuf all, rec;
	int fd;
	bool ok;

	xb_init(&all);
	xb_init(&rec);
	for (int i = 0; i < N; i++)
		xids[i] = add_null_record(c, &all);
	fd = open_send(c, &all);
	ok = fd >= 0;
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
		if (!reply_matches(&r, &x_success)) {
			char got_s[160];

			rpc_reply_describe(&r, got_s, sizeof(got_s));
			ok = fail(c, "reply %d: %s", got + 1, got_s);
		}
	}
	if (fd >= 0)
		close(fd);
	xb_free(&all);
	xb_free(&rec);
	return ok;
}

/* A NULL in fragments of arg[0] bytes, arg[1] empty ones before each;
 * sent a byte every arg[2] ms if not 0. */
static bool build_fragmented(struct bad_ctx *c, const struct bad_case *k,
			     struct bad_msg *m)
{
	struct xbuf rec;

	xb_init(&rec);
	m->xid = null_call(c, &rec);
	rm_fragments(&m->b, rec.p, rec.len, k->arg[0], k->arg[1]);
	m->pace_ms = k->arg[2];
	xb_free(&rec);
	return true;
}

static bool build_zero_final(struct bad_ctx *c, const struct bad_case *k,
			     struct bad_msg *m)
{
	(void)c;
	(void)k;
	rm_header(&m->b, 0, true);
	return true;
}

/* The first arg[0] bytes of a NULL call as a whole record. */
static bool build_truncated(struct bad_ctx *c, const struct bad_case *k,
			    struct bad_msg *m)
{
	rm_header(&m->b, k->arg[0], true);
	null_call(c, &m->b);
	if (m->b.len > RM_MARK_LEN + k->arg[0])
		m->b.len = RM_MARK_LEN + k->arg[0];
	return true;
}

/* The header of a fragment of arg[0] bytes (0: max_record + 1), final when
 * arg[1], then the start of a NULL call. */
static bool build_header_word(struct bad_ctx *c, const struct bad_case *k,
			      struct bad_msg *m)
{
	rm_header(&m->b, k->arg[0] ? k->arg[0] : c->o->max_record + 1, k->arg[1]);
	null_call(c, &m->b);
	return true;
}

static bool build_accum_over_max(struct bad_ctx *c, const struct bad_case *k,
				 struct bad_msg *m)
{
	uint32_t f = (c->o->max_record / 2 + 8) & ~3u;
	struct xbuf rec;

	(void)k;
	xb_init(&rec);
	svc_call(&rec, new_xid(c), SVCSOCK_ECHO);
	xb_u32(&rec, SVCSOCK_ECHO_MAX);
	/* Two non-final fragments, each below the limit, together above it. */
	rm_header(&m->b, f, false);
	xb_put(&m->b, rec.p, rec.len);
	xb_zero(&m->b, f - rec.len);
	rm_header(&m->b, f, false);
	xb_zero(&m->b, f);
	note(c, "two %u-byte non-final fragments (limit %u)", f, c->o->max_record);
	xb_free(&rec);
	return true;
}

static const struct bad_case cases[] = {
	CUSTOM("tcp-pipelined", "64 NULL calls in one write get 64 replies",
	       case_tcp_pipelined),
	{ .name = "frag-4byte-chain",
	  .desc = "NULL split into 4-byte non-final fragments is answered",
	  .shape = SH_TCP_SUCCESS, .build = build_fragmented, .arg = { 4, 0 } },
	{ .name = "frag-empty-interleaved",
	  .desc = "zero-length non-final fragments interleaved: answered",
	  .shape = SH_TCP_SUCCESS, .build = build_fragmented, .arg = { 8, 2 } },
	{ .name = "frag-long-empty-chain",
	  .desc = "1000 zero-length non-final fragments, then NULL: answered",
	  .shape = SH_TCP_SUCCESS, .build = build_fragmented,
	  .arg = { 1000000, 1000 } },
	{ .name = "frag-header-bytewise",
	  .desc = "fragment headers and call written 1 byte at a time: answered",
	  .shape = SH_TCP_SUCCESS, .build = build_fragmented,
	  /* two fragments, so two headers arrive a byte at a time */
	  .arg = { 20, 0, 8 } },
	{ .name = "frag-zero-final",
	  .desc = "a zero-length final fragment as the whole record: dropped, connection usable",
	  .shape = SH_TCP_DROPPED, .build = build_zero_final },
	{ .name = "record-short",
	  .desc = "an 8-byte record: dropped, connection usable",
	  .shape = SH_TCP_DROPPED, .build = build_truncated,
	  .arg = { 8 } /* xid and msg_type only */ },
	{ .name = "record-truncated-header",
	  .desc = "a call header cut before the credentials: dropped, connection usable",
	  .shape = SH_TCP_DROPPED, .build = build_truncated,
	  .arg = { 24 } /* up to proc */ },
	{ .name = "record-truncated-verf",
	  .desc = "a call header cut inside the verifier: dropped, connection usable",
	  .shape = SH_TCP_DROPPED, .build = build_truncated,
	  .arg = { 36 } /* verifier flavor without length */ },
	{ .name = "frag-huge-final",
	  .desc = "final fragment header of 2^31-1 bytes: connection closed",
	  .shape = SH_TCP_CLOSED, .build = build_header_word,
	  .arg = { 0x7fffffffu, 1 } },
	{ .name = "frag-huge-nonfinal",
	  .desc = "non-final fragment header of 2^31-1 bytes: connection closed",
	  .shape = SH_TCP_CLOSED, .build = build_header_word,
	  .arg = { 0x7fffffffu, 0 } },
	{ .name = "frag-over-max-record",
	  .desc = "fragment of max_record+1 bytes: connection closed",
	  .shape = SH_TCP_CLOSED, .build = build_header_word, .arg = { 0, 1 } },
	{ .name = "frag-accum-over-max-record",
	  .desc = "fragments adding up past max_record: connection closed",
	  .shape = SH_TCP_CLOSED, .build = build_accum_over_max },
};

const struct bad_area bad_area_records = AREA("record marking", cases);
