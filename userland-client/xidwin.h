/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xidwin.h - the calls outstanding on one pipelined connection, by xid.
 *
 * At most depth calls are outstanding.  Each takes a free slot of an
 * array (a power of two, at least depth, slots), and its xid says which:
 * the low bits are the slot's number, the high bits count the calls sent
 * on the connection from a random start, so a reply finds its call in one
 * step and xids do not repeat soon.  The outstanding calls are also linked
 * in the order they were sent: the oldest is the one whose timeout comes
 * first, whatever order the replies come in.  The window remembers the
 * xids of the last XW_WRITTEN_OFF calls that ended without their reply
 * (timed out, or written off for a reply that matched no call).  So a
 * reply's xid tells:
 *
 *   XW_OUTSTANDING  the reply to a call still outstanding;
 *   XW_LATE         the reply to a call that ended without it: dropped,
 *                   the call was counted when it ended;
 *   XW_UNMATCHED    anything else: an xid never sent on this connection,
 *                   a second reply to an answered call.
 *
 * One thread uses a window; nothing here locks.
 */
#ifndef RPCLOAD_XIDWIN_H
#define RPCLOAD_XIDWIN_H

#include "loadgen.h"

#include <stdbool.h>
#include <stdint.h>

#define XW_MAX_DEPTH 1024u
#define XW_WRITTEN_OFF 256u

enum xw_kind { XW_OUTSTANDING, XW_LATE, XW_UNMATCHED };

struct xw_slot {
	uint32_t xid;
	bool out;            /* outstanding */
	uint32_t older, newer; /* the send order of the outstanding calls */
	struct lg_pending call;
};

struct xidwin {
	struct xw_slot *slot;
	uint32_t *free;      /* the free slots' numbers, nfree of them */
	unsigned nfree;
	uint32_t mask;       /* slots - 1 */
	unsigned shift;      /* log2(slots) */
	uint32_t oldest, newest; /* outstanding calls' slots, or XW_NONE */
	uint32_t sent;       /* calls sent (modulo 2^32), from a random start */
	unsigned depth;
	unsigned out;        /* calls outstanding */
	uint32_t off[XW_WRITTEN_OFF]; /* xids of calls ended without reply */
	unsigned noff;       /* how many were, ever (off[noff % size] is next) */
};

/* 0, or -1 when out of memory; depth is 1..XW_MAX_DEPTH. */
int xw_init(struct xidwin *w, unsigned depth);
void xw_free(struct xidwin *w);
/* A new connection: nothing outstanding or remembered; start: any number. */
void xw_reset(struct xidwin *w, uint32_t start);
/* May another call be sent? */
bool xw_room(const struct xidwin *w);
/* Send call c: its xid.  Only when xw_room(). */
uint32_t xw_add(struct xidwin *w, const struct lg_pending *c);
/* What a reply with this xid answers; *s is the call's slot (XW_OUTSTANDING). */
enum xw_kind xw_find(struct xidwin *w, uint32_t xid, struct xw_slot **s);
/* The oldest outstanding call, or NULL. */
struct xw_slot *xw_oldest(struct xidwin *w);
/* An outstanding call ends: answered by its reply, or not. */
void xw_end(struct xidwin *w, struct xw_slot *s, bool answered);

#endif
