/* SPDX-License-Identifier: GPL-2.0 */
/*
 * recstream.h - RPC records (RFC 5531 record marking) out of a byte
 * stream that arrives in pieces of any size.
 *
 * The bytes read go into one buffer; a record is handed out when its last
 * fragment has arrived, its fragments joined in place (so a one-fragment
 * record is not copied).  Nothing is trusted: a record longer than max
 * bytes, fragment markers included, is refused before it has arrived, and
 * the buffer never grows beyond what such a record needs.
 *
 *	while (more) {
 *		p = rs_space(rs, &n);	 read at most n bytes to p
 *		rs_added(rs, got);
 *		while ((rc = rs_next(rs, &rec, &len)) == 1)
 *			use rec[0..len)
 *	}
 */
#ifndef RPCLOAD_RECSTREAM_H
#define RPCLOAD_RECSTREAM_H

#include <stddef.h>
#include <stdint.h>

struct recstream {
	uint8_t *buf;
	size_t cap;  /* bytes allocated */
	size_t head; /* first byte not handed out */
	size_t tail; /* end of the bytes read */
	size_t max;  /* longest record accepted, markers included */
};

/* An empty stream: 0, or -1 when out of memory (max >= 4). */
int rs_init(struct recstream *rs, size_t max);
void rs_free(struct recstream *rs);
/* Forget every byte (a new connection). */
void rs_reset(struct recstream *rs);
/*
 * Where the next read goes and how much may be read (*n > 0).  Moves what
 * is not handed out yet to the front, or grows the buffer, when the room
 * left is small: records handed out before are no longer valid.  NULL when
 * out of memory, or when more than a record of max bytes lies there
 * untaken (rs_next would have refused it).
 */
uint8_t *rs_space(struct recstream *rs, size_t *n);
/* n bytes were read to what rs_space returned. */
void rs_added(struct recstream *rs, size_t n);
/*
 * The next whole record: 1 with rec[0..*len) (valid until the next
 * rs_space or rs_reset), 0 when it has not all arrived, -1 when it is
 * longer than max (the stream cannot go on).
 */
int rs_next(struct recstream *rs, uint8_t **rec, size_t *len);

#endif
