// SPDX-License-Identifier: GPL-2.0
/*
 * xidwin.c - the calls outstanding on one pipelined connection (xidwin.h).
 */
#include "xidwin.h"

#include <stdlib.h>

#define XW_NONE UINT32_MAX

int xw_init(struct xidwin *w, unsigned depth)
{
	unsigned shift = 0;

	while (1u << shift < depth)
		shift++;
	*w = (struct xidwin){ .depth = depth, .shift = shift,
			      .mask = (1u << shift) - 1 };
	w->slot = calloc(w->mask + 1, sizeof(*w->slot));
	w->free = calloc(w->mask + 1, sizeof(*w->free));
	if (!w->slot || !w->free) {
		xw_free(w);
		return -1;
	}
	xw_reset(w, 0);
	return 0;
}

void xw_free(struct xidwin *w)
{
	free(w->slot);
	free(w->free);
	w->slot = NULL;
	w->free = NULL;
}

void xw_reset(struct xidwin *w, uint32_t start)
{
	w->nfree = 0;
	for (uint32_t i = w->mask + 1; i-- > 0;) {
		w->slot[i].out = false;
		w->free[w->nfree++] = i; /* slot 0 on top */
	}
	w->oldest = w->newest = XW_NONE;
	w->sent = start;
	w->out = 0;
	w->noff = 0;
}

bool xw_room(const struct xidwin *w)
{
	return w->out < w->depth;
}

uint32_t xw_add(struct xidwin *w, const struct lg_pending *c)
{
	uint32_t i = w->free[--w->nfree];
	struct xw_slot *s = &w->slot[i];

	/* (A shift by 32 is undefined: depth 1 has one slot, shift 0.) */
	s->xid = (uint32_t)((uint64_t)w->sent++ << w->shift) | i;
	s->out = true;
	s->call = *c;
	s->older = w->newest;
	s->newer = XW_NONE;
	if (w->newest != XW_NONE)
		w->slot[w->newest].newer = i;
	else
		w->oldest = i;
	w->newest = i;
	w->out++;
	return s->xid;
}

/* Did call xid end without its reply, lately? */
static bool written_off(const struct xidwin *w, uint32_t xid)
{
	unsigned n = w->noff < XW_WRITTEN_OFF ? w->noff : XW_WRITTEN_OFF;

	for (unsigned i = 0; i < n; i++)
		if (w->off[i] == xid)
			return true;
	return false;
}

enum xw_kind xw_find(struct xidwin *w, uint32_t xid, struct xw_slot **s)
{
	*s = &w->slot[xid & w->mask];
	if ((*s)->out && (*s)->xid == xid)
		return XW_OUTSTANDING;
	*s = NULL;
	return written_off(w, xid) ? XW_LATE : XW_UNMATCHED;
}

struct xw_slot *xw_oldest(struct xidwin *w)
{
	return w->oldest == XW_NONE ? NULL : &w->slot[w->oldest];
}

void xw_end(struct xidwin *w, struct xw_slot *s, bool answered)
{
	uint32_t i = (uint32_t)(s - w->slot);

	if (s->older != XW_NONE)
		w->slot[s->older].newer = s->newer;
	else
		w->oldest = s->newer;
	if (s->newer != XW_NONE)
		w->slot[s->newer].older = s->older;
	else
		w->newest = s->older;
	s->out = false;
	w->free[w->nfree++] = i;
	w->out--;
	if (!answered)
		w->off[w->noff++ % XW_WRITTEN_OFF] = s->xid;
}
