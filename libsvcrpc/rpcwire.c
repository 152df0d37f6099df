// SPDX-License-Identifier: GPL-2.0
/*
 * rpcwire.c - ONC RPC messages and record marking, by hand.
 */
#include "rpcwire.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct auth_spec rpc_auth_none = { RPC_FLAVOR_NONE, NULL, 0, 0 };

void xb_init(struct xbuf *b)
{
	b->p = NULL;
	b->len = b->cap = 0;
	b->fixed = false;
}

void xb_fixed(struct xbuf *b, void *mem, size_t cap)
{
	b->p = mem;
	b->len = 0;
	b->cap = cap;
	b->fixed = true;
}

void xb_free(struct xbuf *b)
{
	if (!b->fixed)
		free(b->p);
	xb_init(b);
}

void xb_reset(struct xbuf *b)
{
	b->len = 0;
}

static void xb_reserve(struct xbuf *b, size_t more)
{
	if (b->len + more <= b->cap)
		return;
	if (b->fixed) {
		fprintf(stderr, "%s: internal error: %zu bytes do not fit a %zu-byte buffer\n",
			program_invocation_short_name, b->len + more, b->cap);
		abort();
	}
	size_t cap = b->cap ? b->cap : 256;

	while (cap < b->len + more)
		cap *= 2;
	uint8_t *p = realloc(b->p, cap);

	if (!p) {
		fprintf(stderr, "%s: out of memory\n", program_invocation_short_name);
		exit(1);
	}
	b->p = p;
	b->cap = cap;
}

void xb_put(struct xbuf *b, const void *data, size_t len)
{
	xb_reserve(b, len);
	if (len)
		memcpy(b->p + b->len, data, len);
	b->len += len;
}

void xb_zero(struct xbuf *b, size_t len)
{
	xb_reserve(b, len);
	memset(b->p + b->len, 0, len);
	b->len += len;
}

void xb_u32(struct xbuf *b, uint32_t v)
{
	xb_reserve(b, 4);
	wr_u32(b->p + b->len, v);
	b->len += 4;
}

static size_t pad4(size_t len)
{
	return (4 - len % 4) % 4;
}

void xb_opaque(struct xbuf *b, const void *data, uint32_t len)
{
	xb_u32(b, len);
	xb_put(b, data, len);
	xb_zero(b, pad4(len));
}

/* ---- calls ---------------------------------------------------------------- */

static void enc_auth(struct xbuf *b, const struct auth_spec *a)
{
	xb_u32(b, a->flavor);
	xb_u32(b, a->len);
	xb_put(b, a->body, a->body_len);
	xb_zero(b, pad4(a->body_len));
}

void rpc_enc_call(struct xbuf *b, uint32_t xid, uint32_t rpcvers, uint32_t prog,
		  uint32_t vers, uint32_t proc, const struct auth_spec *cred,
		  const struct auth_spec *verf)
{
	xb_u32(b, xid);
	xb_u32(b, RPC_MSG_CALL);
	xb_u32(b, rpcvers);
	xb_u32(b, prog);
	xb_u32(b, vers);
	xb_u32(b, proc);
	enc_auth(b, cred);
	enc_auth(b, verf);
}

size_t rpc_put_call(uint8_t *p, uint32_t xid, uint32_t prog, uint32_t vers,
		    uint32_t proc)
{
	struct xbuf b;

	xb_fixed(&b, p, RPC_CALL_NONE_LEN);
	rpc_enc_call(&b, xid, RPC_VERSION, prog, vers, proc, &rpc_auth_none,
		     &rpc_auth_none);
	return b.len;
}

void rpc_enc_authsys(struct xbuf *b, uint32_t stamp, const char *machine,
		     uint32_t uid, uint32_t gid, uint32_t ngids,
		     const uint32_t *gids)
{
	xb_u32(b, stamp);
	xb_opaque(b, machine, (uint32_t)strlen(machine));
	xb_u32(b, uid);
	xb_u32(b, gid);
	xb_u32(b, ngids);
	for (uint32_t i = 0; i < ngids; i++)
		xb_u32(b, gids[i]);
}

/* ---- replies -------------------------------------------------------------- */

void rpc_enc_reply(struct xbuf *b, const struct rpc_reply *r)
{
	xb_u32(b, r->xid);
	xb_u32(b, RPC_MSG_REPLY);
	xb_u32(b, r->reply_stat);
	if (r->reply_stat == RPC_MSG_ACCEPTED) {
		xb_u32(b, r->verf_flavor);
		xb_u32(b, r->verf_len);
		if (r->verf_body)
			xb_put(b, r->verf_body, r->verf_len);
		else
			xb_zero(b, r->verf_len);
		xb_zero(b, pad4(r->verf_len));
		xb_u32(b, r->accept_stat);
		if (r->accept_stat == RPC_ACC_SUCCESS) {
			xb_put(b, r->results, r->results_len);
		} else if (r->accept_stat == RPC_ACC_PROG_MISMATCH) {
			xb_u32(b, r->low);
			xb_u32(b, r->high);
		}
		return;
	}
	xb_u32(b, r->reject_stat);
	if (r->reject_stat == RPC_REJ_RPC_MISMATCH) {
		xb_u32(b, r->low);
		xb_u32(b, r->high);
	} else {
		xb_u32(b, r->auth_stat);
	}
}

size_t rpc_put_null_reply(uint8_t *p, uint32_t xid)
{
	struct rpc_reply r = { .xid = xid };
	struct xbuf b;

	xb_fixed(&b, p, RPC_NULL_REPLY_LEN);
	rpc_enc_reply(&b, &r);
	return b.len;
}

bool rpc_is_null_reply(const uint8_t *p, size_t len, uint32_t xid)
{
	uint8_t want[RPC_NULL_REPLY_LEN];

	rpc_put_null_reply(want, xid);
	return len >= sizeof(want) && memcmp(p, want, sizeof(want)) == 0;
}

struct rd {
	const uint8_t *p;
	size_t len, off;
};

static int rd32(struct rd *r, uint32_t *v)
{
	if (r->len - r->off < 4)
		return -1;
	*v = rd_u32(r->p + r->off);
	r->off += 4;
	return 0;
}

int rpc_dec_reply(const uint8_t *p, size_t len, struct rpc_reply *rep,
		  char *err, size_t n)
{
	struct rd r = { p, len, 0 };

	memset(rep, 0, sizeof(*rep));
	if (rd32(&r, &rep->xid) || rd32(&r, &rep->mtype)) {
		snprintf(err, n, "reply of %zu bytes is too short", len);
		return -1;
	}
	if (rep->mtype != RPC_MSG_REPLY) {
		snprintf(err, n, "message type %u is not REPLY", rep->mtype);
		return -1;
	}
	if (rd32(&r, &rep->reply_stat))
		goto short_reply;
	if (rep->reply_stat == RPC_MSG_ACCEPTED) {
		if (rd32(&r, &rep->verf_flavor) || rd32(&r, &rep->verf_len))
			goto short_reply;
		if (rep->verf_len > 400) {
			snprintf(err, n, "reply verifier length %u > 400", rep->verf_len);
			return -1;
		}
		size_t padded = (rep->verf_len + 3u) & ~3u;

		if (r.len - r.off < padded)
			goto short_reply;
		rep->verf_body = p + r.off;
		r.off += padded;
		if (rd32(&r, &rep->accept_stat))
			goto short_reply;
		switch (rep->accept_stat) {
		case RPC_ACC_SUCCESS:
			rep->results = p + r.off;
			rep->results_len = r.len - r.off;
			return 0;
		case RPC_ACC_PROG_MISMATCH:
			if (rd32(&r, &rep->low) || rd32(&r, &rep->high))
				goto short_reply;
			break;
		case RPC_ACC_PROG_UNAVAIL:
		case RPC_ACC_PROC_UNAVAIL:
		case RPC_ACC_GARBAGE_ARGS:
		case RPC_ACC_SYSTEM_ERR:
			break;
		default:
			snprintf(err, n, "unknown accept_stat %u", rep->accept_stat);
			return -1;
		}
	} else if (rep->reply_stat == RPC_MSG_DENIED) {
		if (rd32(&r, &rep->reject_stat))
			goto short_reply;
		if (rep->reject_stat == RPC_REJ_RPC_MISMATCH) {
			if (rd32(&r, &rep->low) || rd32(&r, &rep->high))
				goto short_reply;
		} else if (rep->reject_stat == RPC_REJ_AUTH_ERROR) {
			if (rd32(&r, &rep->auth_stat))
				goto short_reply;
		} else {
			snprintf(err, n, "unknown reject_stat %u", rep->reject_stat);
			return -1;
		}
	} else {
		snprintf(err, n, "unknown reply_stat %u", rep->reply_stat);
		return -1;
	}
	if (r.off != r.len) {
		snprintf(err, n, "%zu trailing bytes after the reply", r.len - r.off);
		return -1;
	}
	return 0;

short_reply:
	snprintf(err, n, "reply truncated at byte %zu of %zu", r.off, len);
	return -1;
}

const char *rpc_accept_stat_name(uint32_t s)
{
	static const char *const names[] = { "SUCCESS", "PROG_UNAVAIL",
					     "PROG_MISMATCH", "PROC_UNAVAIL",
					     "GARBAGE_ARGS", "SYSTEM_ERR" };

	return s < 6 ? names[s] : "?";
}

const char *rpc_auth_stat_name(uint32_t s)
{
	static const char *const names[] = { "AUTH_OK", "AUTH_BADCRED",
					     "AUTH_REJECTEDCRED", "AUTH_BADVERF",
					     "AUTH_REJECTEDVERF", "AUTH_TOOWEAK" };

	return s < 6 ? names[s] : "AUTH_?";
}

void rpc_reply_describe(const struct rpc_reply *r, char *buf, size_t n)
{
	if (r->reply_stat == RPC_MSG_ACCEPTED) {
		if (r->accept_stat == RPC_ACC_PROG_MISMATCH)
			snprintf(buf, n, "MSG_ACCEPTED PROG_MISMATCH low=%u high=%u",
				 r->low, r->high);
		else if (r->accept_stat == RPC_ACC_SUCCESS)
			snprintf(buf, n, "MSG_ACCEPTED SUCCESS (%zu result bytes)",
				 r->results_len);
		else
			snprintf(buf, n, "MSG_ACCEPTED %s", rpc_accept_stat_name(r->accept_stat));
	} else if (r->reject_stat == RPC_REJ_RPC_MISMATCH) {
		snprintf(buf, n, "MSG_DENIED RPC_MISMATCH low=%u high=%u", r->low,
			 r->high);
	} else {
		snprintf(buf, n, "MSG_DENIED AUTH_ERROR %s (%u)",
			 rpc_auth_stat_name(r->auth_stat), r->auth_stat);
	}
}

/* ---- record marking ------------------------------------------------------- */

void rm_header(struct xbuf *b, uint32_t len, bool last)
{
	xb_u32(b, (len & ~RM_LAST_FRAG) | (last ? RM_LAST_FRAG : 0));
}

size_t rm_put_header(uint8_t *p, uint32_t len, bool last)
{
	struct xbuf b;

	xb_fixed(&b, p, RM_MARK_LEN);
	rm_header(&b, len, last);
	return b.len;
}

void rm_record(struct xbuf *b, const uint8_t *rec, size_t len)
{
	rm_header(b, (uint32_t)len, true);
	xb_put(b, rec, len);
}

void rm_fragments(struct xbuf *b, const uint8_t *rec, size_t len,
		  size_t fragsz, unsigned empties)
{
	size_t off = 0;

	if (fragsz == 0)
		fragsz = 1;
	do {
		size_t n = len - off < fragsz ? len - off : fragsz;

		for (unsigned i = 0; i < empties; i++)
			rm_header(b, 0, false);
		rm_header(b, (uint32_t)n, off + n == len);
		xb_put(b, rec + off, n);
		off += n;
	} while (off < len);
}

uint32_t rm_get_header(const uint8_t *p, bool *last)
{
	uint32_t w = rd_u32(p);

	*last = (w & RM_LAST_FRAG) != 0;
	return w & ~RM_LAST_FRAG;
}

size_t rm_next_fragment(const uint8_t *buf, size_t len, const uint8_t **frag,
			size_t *flen, bool *last)
{
	bool fin;
	uint32_t n;

	if (len < RM_MARK_LEN)
		return 0;
	n = rm_get_header(buf, &fin);
	if (len - RM_MARK_LEN < n)
		return 0;
	*frag = buf + RM_MARK_LEN;
	*flen = n;
	*last = fin;
	return RM_MARK_LEN + *flen;
}
