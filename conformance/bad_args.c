// SPDX-License-Identifier: GPL-2.0
/*
 * bad_args.c - rpcload bad, procedure arguments: valid ECHO and SLEEP
 * calls, then ECHO lengths beyond the record or the limit, random argument
 * bytes, SLEEP without its argument or too long.
 */
#include "bad_int.h"
#include "svcsock_prot.h"

static bool build_echo_size(struct bad_ctx *c, const struct bad_case *k,
			    struct bad_msg *m)
{
	return build_echo(c, m, k->arg[0]);
}

/* The largest ECHO, or the largest --max-record allows. */
static bool build_echo_max(struct bad_ctx *c, const struct bad_case *k,
			   struct bad_msg *m)
{
	uint32_t size = SVCSOCK_ECHO_MAX;
	uint32_t room = (c->o->max_record - 48u) & ~3u;

	(void)k;
	if (size > room) {
		size = room;
		note(c, "ECHO of %u bytes to stay within --max-record", size);
	}
	return build_echo(c, m, size);
}

/* Procedure arg[0]; with arg[1], the word arg[2] as its argument. */
static bool build_proc_word(struct bad_ctx *c, const struct bad_case *k,
			    struct bad_msg *m)
{
	m->xid = new_xid(c);
	svc_call(&m->b, m->xid, k->arg[0]);
	if (k->arg[1])
		xb_u32(&m->b, k->arg[2]);
	return true;
}

static bool build_echo_overrun(struct bad_ctx *c, const struct bad_case *k,
			       struct bad_msg *m)
{
	(void)k;
	m->xid = new_xid(c);
	svc_call(&m->b, m->xid, SVCSOCK_ECHO);
	xb_u32(&m->b, 100); /* claims 100 bytes ... */
	xb_zero(&m->b, 8);  /* ... has 8 */
	return true;
}

static bool build_echo_too_big(struct bad_ctx *c, const struct bad_case *k,
			       struct bad_msg *m)
{
	uint32_t size = SVCSOCK_ECHO_MAX + 1;
	uint32_t room = (c->o->max_record - 48u) & ~3u;
	size_t padded = ((size_t)size + 3) & ~(size_t)3;

	(void)k;
	m->xid = new_xid(c);
	svc_call(&m->b, m->xid, SVCSOCK_ECHO);
	xb_u32(&m->b, size);
	xb_zero(&m->b, padded < room ? padded : room);
	note(c, "opaque length %u, record %zu bytes", size, m->b.len);
	return true;
}

static bool build_echo_garbage(struct bad_ctx *c, const struct bad_case *k,
			       struct bad_msg *m)
{
	uint8_t junk[16];

	(void)k;
	m->xid = new_xid(c);
	rng_fill(&c->rng, junk, sizeof(junk));
	junk[0] |= 0x80; /* an opaque length far beyond the record */
	svc_call(&m->b, m->xid, SVCSOCK_ECHO);
	xb_put(&m->b, junk, sizeof(junk));
	return true;
}

static const struct bad_case cases[] = {
	{ .name = "tcp-echo", .desc = "ECHO of 1001 bytes is answered byte-exact",
	  .shape = SH_TCP_ECHO, .build = build_echo_size,
	  .arg = { 1001 } /* not a multiple of 4: padding */ },
	{ .name = "tcp-echo-max",
	  .desc = "ECHO of 1048576 bytes is answered byte-exact",
	  .shape = SH_TCP_ECHO, .build = build_echo_max },
	{ .name = "tcp-sleep", .desc = "SLEEP 1000 us is answered",
	  .shape = SH_TCP_CALL, .build = build_proc_word,
	  .arg = { SVCSOCK_SLEEP, 1, 1000 }, .expect = X_SUCCESS },
	{ .name = "echo-len-overrun",
	  .desc = "ECHO opaque length beyond the record: GARBAGE_ARGS",
	  .shape = SH_TCP_CALL, .build = build_echo_overrun, .expect = X_GARBAGE },
	{ .name = "echo-too-big",
	  .desc = "ECHO opaque of 1048577 bytes: GARBAGE_ARGS",
	  .shape = SH_TCP_CALL, .build = build_echo_too_big, .expect = X_GARBAGE },
	{ .name = "echo-garbage-args",
	  .desc = "ECHO with random argument bytes: GARBAGE_ARGS",
	  .shape = SH_TCP_CALL, .build = build_echo_garbage, .expect = X_GARBAGE },
	{ .name = "sleep-no-arg", .desc = "SLEEP without its argument: GARBAGE_ARGS",
	  .shape = SH_TCP_CALL, .build = build_proc_word,
	  .arg = { SVCSOCK_SLEEP, 0 }, .expect = X_GARBAGE },
	{ .name = "sleep-too-long", .desc = "SLEEP 1000001 us: GARBAGE_ARGS",
	  .shape = SH_TCP_CALL, .build = build_proc_word,
	  .arg = { SVCSOCK_SLEEP, 1, SVCSOCK_SLEEP_MAX + 1 }, .expect = X_GARBAGE },
};

const struct bad_area bad_area_args = AREA("arguments", cases);
