/*
 * rawrpc.h - hand-written ONC RPC (RFC 5531) wire encoding and decoding,
 * for `rpcload bad` only.
 *
 * Everything else in rpcload goes through libtirpc and the rpcgen output;
 * bad mode has to build messages that are wrong on purpose (bad fragment
 * headers, inconsistent credentials, truncated headers), which no XDR
 * library will produce, and to read replies without trusting them.
 */
#ifndef RPCLOAD_RAWRPC_H
#define RPCLOAD_RAWRPC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* RFC 5531 numbers. */
enum {
	RPC_MSG_CALL = 0,
	RPC_MSG_REPLY = 1,
	RPC_MSG_ACCEPTED = 0,
	RPC_MSG_DENIED = 1,
	RPC_ACC_SUCCESS = 0,
	RPC_ACC_PROG_UNAVAIL = 1,
	RPC_ACC_PROG_MISMATCH = 2,
	RPC_ACC_PROC_UNAVAIL = 3,
	RPC_ACC_GARBAGE_ARGS = 4,
	RPC_ACC_SYSTEM_ERR = 5,
	RPC_REJ_RPC_MISMATCH = 0,
	RPC_REJ_AUTH_ERROR = 1,
	RPC_AUTH_BADCRED = 1,
	RPC_AUTH_REJECTEDCRED = 2,
	RPC_AUTH_BADVERF = 3,
	RPC_AUTH_REJECTEDVERF = 4,
	RPC_AUTH_TOOWEAK = 5,
	RPC_FLAVOR_NONE = 0,
	RPC_FLAVOR_SYS = 1,
};

#define RM_LAST_FRAG 0x80000000u

/* A growable byte buffer. */
struct xbuf {
	uint8_t *p;
	size_t len;
	size_t cap;
};

void xb_init(struct xbuf *b);
void xb_free(struct xbuf *b);
void xb_reset(struct xbuf *b);
void xb_put(struct xbuf *b, const void *data, size_t len);
void xb_zero(struct xbuf *b, size_t len);
void xb_u32(struct xbuf *b, uint32_t v);
/* XDR variable-length opaque: length, bytes, zero padding to 4. */
void xb_opaque(struct xbuf *b, const void *data, uint32_t len);

struct auth_spec {
	uint32_t flavor;
	const uint8_t *body;
	uint32_t len; /* the length written on the wire */
	uint32_t body_len; /* bytes of body actually written (padded to 4) */
};

/* AUTH_NONE with length 0. */
extern const struct auth_spec rpc_auth_none;

/* Call header: xid, CALL, rpcvers, prog, vers, proc, cred, verf. */
void rpc_enc_call(struct xbuf *b, uint32_t xid, uint32_t rpcvers, uint32_t prog,
		  uint32_t vers, uint32_t proc, const struct auth_spec *cred,
		  const struct auth_spec *verf);

/* An AUTH_SYS body (RFC 5531 appendix A) with the given gids. */
void rpc_enc_authsys(struct xbuf *b, uint32_t stamp, const char *machine,
		     uint32_t uid, uint32_t gid, uint32_t ngids,
		     const uint32_t *gids);

/* Record marking (RFC 5531 section 11). */
void rm_header(struct xbuf *b, uint32_t len, bool last);
/* The whole record as one final fragment. */
void rm_record(struct xbuf *b, const uint8_t *rec, size_t len);
/*
 * The record split into fragments of fragsz bytes (the last one final),
 * with `empties` zero-length non-final fragments before each fragment.
 */
void rm_fragments(struct xbuf *b, const uint8_t *rec, size_t len,
		  size_t fragsz, unsigned empties);

struct rpc_reply {
	uint32_t xid;
	uint32_t mtype;
	uint32_t reply_stat;
	uint32_t verf_flavor;
	uint32_t verf_len;
	uint32_t accept_stat; /* when MSG_ACCEPTED */
	uint32_t reject_stat; /* when MSG_DENIED */
	uint32_t low, high;   /* PROG_MISMATCH or RPC_MISMATCH */
	uint32_t auth_stat;   /* AUTH_ERROR */
	const uint8_t *results; /* after accept_stat SUCCESS */
	size_t results_len;
};

/* Decode a reply message (one reassembled record or one datagram).
 * 0, or -1 with err describing what is wrong. */
int rpc_dec_reply(const uint8_t *p, size_t len, struct rpc_reply *r, char *err,
		  size_t n);

/* "MSG_ACCEPTED PROG_MISMATCH low=1 high=1" and the like. */
void rpc_reply_describe(const struct rpc_reply *r, char *buf, size_t n);

static inline uint32_t rd_u32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

#endif
