/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rpcwire.h - ONC RPC (RFC 5531) messages and record marking, written and
 * read by hand.
 *
 * rpcload's calls go through libtirpc and the rpcgen output; what is here
 * is for the programs that must control every byte: the conformance suite
 * (`rpcload bad`: messages that are wrong on purpose, replies read without
 * trusting them), the test tools and the hostile-peer tool; and record
 * marks, read and written here only, for every user-space program.  The
 * encoders are checked against libtirpc's xdr_callmsg/xdr_replymsg on the
 * same messages (libsvcrpc/tests).
 */
#ifndef SVCRPC_RPCWIRE_H
#define SVCRPC_RPCWIRE_H

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

#define RPC_VERSION 2u
#define RM_LAST_FRAG 0x80000000u
#define RM_MARK_LEN 4u
/* A call with AUTH_NONE credential and verifier, without arguments. */
#define RPC_CALL_NONE_LEN 40u
/* The reply to a NULL call: xid, REPLY, ACCEPTED, AUTH_NONE, SUCCESS. */
#define RPC_NULL_REPLY_LEN 24u

/* ---- byte buffers --------------------------------------------------------- */

static inline uint32_t rd_u32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static inline void wr_u32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/*
 * A byte buffer: growable (xb_init; out of memory ends the program with a
 * message), or over the caller's fixed array (xb_fixed; writing past its
 * end is a bug and aborts).
 */
struct xbuf {
	uint8_t *p;
	size_t len;
	size_t cap;
	bool fixed;
};

void xb_init(struct xbuf *b);
void xb_fixed(struct xbuf *b, void *mem, size_t cap);
void xb_free(struct xbuf *b);
void xb_reset(struct xbuf *b);
void xb_put(struct xbuf *b, const void *data, size_t len);
void xb_zero(struct xbuf *b, size_t len);
void xb_u32(struct xbuf *b, uint32_t v);
/* XDR variable-length opaque: length, bytes, zero padding to 4. */
void xb_opaque(struct xbuf *b, const void *data, uint32_t len);

/* ---- calls ---------------------------------------------------------------- */

struct auth_spec {
	uint32_t flavor;
	const uint8_t *body;
	uint32_t len;      /* the length written on the wire */
	uint32_t body_len; /* bytes of body actually written (padded to 4) */
};

/* AUTH_NONE with length 0. */
extern const struct auth_spec rpc_auth_none;

/* Call header: xid, CALL, rpcvers, prog, vers, proc, cred, verf. */
void rpc_enc_call(struct xbuf *b, uint32_t xid, uint32_t rpcvers, uint32_t prog,
		  uint32_t vers, uint32_t proc, const struct auth_spec *cred,
		  const struct auth_spec *verf);

/* The same with rpcvers 2 and AUTH_NONE both ways, into p (40 bytes). */
size_t rpc_put_call(uint8_t *p, uint32_t xid, uint32_t prog, uint32_t vers,
		    uint32_t proc);

/* An AUTH_SYS body (RFC 5531 appendix A) with the given gids. */
void rpc_enc_authsys(struct xbuf *b, uint32_t stamp, const char *machine,
		     uint32_t uid, uint32_t gid, uint32_t ngids,
		     const uint32_t *gids);

/* ---- replies -------------------------------------------------------------- */

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
	const uint8_t *verf_body; /* decoding: into the message; encoding:
				   * verf_len bytes, or zeros when NULL */
	const uint8_t *results; /* after accept_stat SUCCESS */
	size_t results_len;
};

/* Encode r (mtype is taken to be REPLY), results included. */
void rpc_enc_reply(struct xbuf *b, const struct rpc_reply *r);
/* The successful reply to a NULL call, into p (24 bytes). */
size_t rpc_put_null_reply(uint8_t *p, uint32_t xid);
/* Is p[0..len) (a record or a datagram) that reply to call xid? */
bool rpc_is_null_reply(const uint8_t *p, size_t len, uint32_t xid);

/* Decode a reply message (one reassembled record or one datagram).
 * 0, or -1 with err describing what is wrong. */
int rpc_dec_reply(const uint8_t *p, size_t len, struct rpc_reply *r, char *err,
		  size_t n);

/* "PROG_UNAVAIL", "AUTH_BADCRED"...; "?" and "AUTH_?" for unknown values. */
const char *rpc_accept_stat_name(uint32_t s);
const char *rpc_auth_stat_name(uint32_t s);

/* "MSG_ACCEPTED PROG_MISMATCH low=1 high=1" and the like. */
void rpc_reply_describe(const struct rpc_reply *r, char *buf, size_t n);

/* ---- record marking (RFC 5531 section 11) --------------------------------- */

/*
 * A fragment's marker word: the high bit set on the record's last
 * fragment, the length (at most 2^31 - 1; len's high bit is ignored) in
 * the other 31.  rm_header and rm_put_header are the writers of every
 * user-space program, rm_get_header the reader of every parser
 * (rm_next_fragment, net_recv_record, rpcload's recstream).
 */
void rm_header(struct xbuf *b, uint32_t len, bool last);
/* The marker word of one fragment of len bytes, into p (4 bytes). */
size_t rm_put_header(uint8_t *p, uint32_t len, bool last);
/* The marker word at p (4 bytes): the fragment's length, and in *last
 * whether it ends the record. */
uint32_t rm_get_header(const uint8_t *p, bool *last);
/* The whole record as one final fragment. */
void rm_record(struct xbuf *b, const uint8_t *rec, size_t len);
/*
 * The record split into fragments of fragsz bytes (the last one final),
 * with `empties` zero-length non-final fragments before each fragment.
 */
void rm_fragments(struct xbuf *b, const uint8_t *rec, size_t len,
		  size_t fragsz, unsigned empties);
/*
 * The first whole fragment of a byte stream buf[0..len): its bytes
 * (*frag, *flen) and whether it ends a record.  Returns the bytes it takes
 * with its marker, 0 when the fragment has not all arrived yet.
 */
size_t rm_next_fragment(const uint8_t *buf, size_t len, const uint8_t **frag,
			size_t *flen, bool *last);

#endif
