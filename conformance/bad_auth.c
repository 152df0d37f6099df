// SPDX-License-Identifier: GPL-2.0
/*
 * bad_auth.c - rpcload bad, credentials and verifiers: a valid AUTH_SYS,
 * then unknown flavors, AUTH_SYS bodies too large, overrun, with too many
 * gids or truncated, AUTH_NONE with a body, bad verifiers.
 */
#include "bad_int.h"
#include "svcsock_prot.h"

#include <string.h>

/* m: a NULL call with cred and verf. */
static void null_auth(struct bad_ctx *c, struct bad_msg *m,
		      const struct auth_spec *cred, const struct auth_spec *verf)
{
	m->xid = new_xid(c);
	rpc_enc_call(&m->b, m->xid, 2, SVCSOCK_PROG, SVCSOCK_V1, SVCSOCK_NULL,
		     cred, verf);
}

/*
 * m: a NULL call with an AUTH_SYS credential of body and verifier verf;
 * then body is freed.  True: what a case's build returns.
 */
static bool null_sys(struct bad_ctx *c, struct bad_msg *m, struct xbuf *body,
		     const struct auth_spec *verf)
{
	struct auth_spec cred = { RPC_FLAVOR_SYS, body->p, (uint32_t)body->len,
				  (uint32_t)body->len };

	null_auth(c, m, &cred, verf);
	xb_free(body);
	return true;
}

/* An AUTH_SYS body with ngids gids. */
static void authsys_body(struct xbuf *body, unsigned ngids)
{
	uint32_t gids[32];

	for (unsigned i = 0; i < ngids && i < 32; i++)
		gids[i] = 1000 + i;
	rpc_enc_authsys(body, 0x5eed, "rpcload", 0, 0, ngids, gids);
}

/* AUTH_SYS with arg[0] gids; verifier AUTH_NONE, of 8 bytes if arg[1]. */
static bool build_sys_gids(struct bad_ctx *c, const struct bad_case *k,
			   struct bad_msg *m)
{
	static const uint8_t junk[8] = { 8, 7, 6, 5, 4, 3, 2, 1 };
	const struct auth_spec verf8 = { RPC_FLAVOR_NONE, junk, 8, 8 };
	struct xbuf body;

	xb_init(&body);
	authsys_body(&body, k->arg[0]);
	return null_sys(c, m, &body, k->arg[1] ? &verf8 : &rpc_auth_none);
}

static bool build_sys_oversized(struct bad_ctx *c, const struct bad_case *k,
				struct bad_msg *m)
{
	char machine[385];
	struct xbuf body;

	(void)k;
	/* 4 stamp + 4 + 384 name + 4 uid + 4 gid + 4 ngids = 404 bytes. */
	memset(machine, 'm', 384);
	machine[384] = 0;
	xb_init(&body);
	rpc_enc_authsys(&body, 1, machine, 0, 0, 0, NULL);
	note(c, "AUTH_SYS body of %zu bytes", body.len);
	return null_sys(c, m, &body, &rpc_auth_none);
}

/* An AUTH_SYS body of the arg[0] words after it (stamp, name length...). */
static bool build_sys_words(struct bad_ctx *c, const struct bad_case *k,
			    struct bad_msg *m)
{
	struct xbuf body;

	xb_init(&body);
	for (unsigned i = 1; i <= k->arg[0]; i++)
		xb_u32(&body, k->arg[i]);
	return null_sys(c, m, &body, &rpc_auth_none);
}

/* Credential flavor arg[0] with arg[1] body bytes, verifier arg[2]. */
static bool build_flavors(struct bad_ctx *c, const struct bad_case *k,
			  struct bad_msg *m)
{
	static const uint8_t junk[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct auth_spec cred = { k->arg[0], junk, k->arg[1], k->arg[1] };
	struct auth_spec verf = { k->arg[2], NULL, 0, 0 };

	null_auth(c, m, &cred, &verf);
	return true;
}

static const struct bad_case cases[] = {
	{ .name = "tcp-auth-sys",
	  .desc = "NULL with a valid AUTH_SYS credential (16 gids) is answered",
	  .shape = SH_TCP_CALL, .build = build_sys_gids, .arg = { 16 },
	  .expect = X_SUCCESS },
	{ .name = "auth-unknown-flavor",
	  .desc = "credential flavor 99: AUTH_ERROR AUTH_BADCRED",
	  .shape = SH_TCP_CALL, .build = build_flavors,
	  .arg = { 99, 0, RPC_FLAVOR_NONE }, .expect = X_BADCRED },
	{ .name = "auth-sys-oversized",
	  .desc = "AUTH_SYS body of 404 bytes (> 400): AUTH_BADCRED",
	  .shape = SH_TCP_CALL, .build = build_sys_oversized,
	  .expect = X_BADCRED },
	{ .name = "auth-sys-machname-overrun",
	  .desc = "AUTH_SYS machine name longer than the body: AUTH_BADCRED",
	  .shape = SH_TCP_CALL, .build = build_sys_words,
	  /* stamp, name length 255 (beyond the body), uid, gid, no gids */
	  .arg = { 5, 1, 255, 0, 0, 0 }, .expect = X_BADCRED },
	{ .name = "auth-sys-too-many-gids",
	  .desc = "AUTH_SYS with 17 gids: AUTH_BADCRED",
	  .shape = SH_TCP_CALL, .build = build_sys_gids, .arg = { 17 },
	  .expect = X_BADCRED },
	{ .name = "auth-sys-truncated",
	  .desc = "AUTH_SYS body ending after the uid: AUTH_BADCRED",
	  .shape = SH_TCP_CALL, .build = build_sys_words,
	  /* stamp, empty machine name, uid; gid and gids missing */
	  .arg = { 3, 1, 0, 0 }, .expect = X_BADCRED },
	{ .name = "auth-none-with-body",
	  .desc = "AUTH_NONE credential of length 8: AUTH_BADCRED",
	  .shape = SH_TCP_CALL, .build = build_flavors,
	  .arg = { RPC_FLAVOR_NONE, 8, RPC_FLAVOR_NONE }, .expect = X_BADCRED },
	{ .name = "verf-bad-flavor",
	  .desc = "verifier flavor AUTH_SYS: AUTH_BADVERF",
	  .shape = SH_TCP_CALL, .build = build_flavors,
	  .arg = { RPC_FLAVOR_NONE, 0, RPC_FLAVOR_SYS }, .expect = X_BADVERF },
	{ .name = "verf-nonzero-length",
	  .desc = "AUTH_NONE verifier of length 8 on an AUTH_SYS call: AUTH_BADVERF",
	  .shape = SH_TCP_CALL, .build = build_sys_gids, .arg = { 2, 1 },
	  .expect = X_BADVERF },
};

const struct bad_area bad_area_auth = AREA("credentials", cases);
