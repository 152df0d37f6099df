// SPDX-License-Identifier: GPL-2.0
/*
 * recstream.c - RPC records out of a byte stream (recstream.h).
 */
#include "recstream.h"
#include "rpcwire.h" /* rm_get_header, RM_MARK_LEN */

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The first buffer, and the least room worth a read. */
#define RS_FIRST 16384u
#define RS_MIN_READ 4096u

int rs_init(struct recstream *rs, size_t max)
{
	*rs = (struct recstream){ .max = max, .cap = RS_FIRST };
	rs->buf = malloc(rs->cap);
	return rs->buf ? 0 : -1;
}

void rs_free(struct recstream *rs)
{
	free(rs->buf);
	rs->buf = NULL;
}

void rs_reset(struct recstream *rs)
{
	rs->head = rs->tail = 0;
}

uint8_t *rs_space(struct recstream *rs, size_t *n)
{
	size_t most = rs->max + RS_MIN_READ;

	if (rs->cap - rs->tail < RS_MIN_READ && rs->head > 0) {
		memmove(rs->buf, rs->buf + rs->head, rs->tail - rs->head);
		rs->tail -= rs->head;
		rs->head = 0;
	}
	/*
	 * Little room even so: the record being read is longer than the
	 * buffer.  The buffer grows up to what the longest one needs.
	 */
	if (rs->cap - rs->tail < RS_MIN_READ && rs->cap < most) {
		size_t cap = rs->cap * 2 < most ? rs->cap * 2 : most;
		uint8_t *p = realloc(rs->buf, cap);

		if (!p)
			return NULL;
		rs->buf = p;
		rs->cap = cap;
	}
	if (rs->tail == rs->cap)
		return NULL; /* more than a record of max bytes not taken */
	*n = rs->cap - rs->tail;
	return rs->buf + rs->tail;
}

void rs_added(struct recstream *rs, size_t n)
{
	rs->tail += n;
}

int rs_next(struct recstream *rs, uint8_t **rec, size_t *len)
{
	size_t pos = rs->head, w;
	bool last;

	/* Is the whole record there? */
	do {
		size_t flen;

		if (rs->tail - pos < RM_MARK_LEN)
			return pos - rs->head + RM_MARK_LEN > rs->max ? -1 : 0;
		flen = rm_get_header(rs->buf + pos, &last);
		if (pos - rs->head + RM_MARK_LEN + flen > rs->max)
			return -1;
		if (rs->tail - pos - RM_MARK_LEN < flen)
			return 0;
		pos += RM_MARK_LEN + flen;
	} while (!last);

	if (rs->head + RM_MARK_LEN + rm_get_header(rs->buf + rs->head, &last) ==
	    pos) {
		/* One fragment: the record is where it arrived. */
		*rec = rs->buf + rs->head + RM_MARK_LEN;
		*len = pos - rs->head - RM_MARK_LEN;
		rs->head = pos;
		return 1;
	}
	/* Join its fragments where it starts (each moves down). */
	w = rs->head;
	for (size_t p = rs->head; p < pos;) {
		size_t flen = rm_get_header(rs->buf + p, &last);

		memmove(rs->buf + w, rs->buf + p + RM_MARK_LEN, flen);
		w += flen;
		p += RM_MARK_LEN + flen;
	}
	*rec = rs->buf + rs->head;
	*len = w - rs->head;
	rs->head = pos;
	return 1;
}
