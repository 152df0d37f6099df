// SPDX-License-Identifier: GPL-2.0
/*
 * ONC RPC version 2 (RFC 5531): decode a call, run the procedure of the
 * program it names and encode the reply.
 *
 * The programs served are tables (svc_program.h), as net/sunrpc's
 * svc_program and svc_procedure are: svc_programs[] lists each program
 * with its range of versions, each version its procedures, indexed by
 * number, and each procedure its argument decoder, its handler, the
 * most its results take and the statistic it counts.  One port serves
 * every program in the list: the svcsock program (protocol/svcsock.x,
 * here), NFS version 3 (svc_nfs3.c) and MOUNT version 3 (svc_mount3.c).
 * Adding a program is adding a file with its tables and a line to
 * svc_programs[].
 *
 * What a call the server cannot decode gets, RFC 5531 leaving some of
 * it to the server:
 *  - shorter than a call header, a REPLY, a message type that is neither,
 *    or a credential or verifier that runs past the record: dropped and
 *    counted (there is nothing to reply to, or nothing safe to say);
 *  - rpcvers other than 2: MSG_DENIED RPC_MISMATCH, low = high = 2;
 *  - a credential longer than 400 bytes, a flavor other than AUTH_NONE
 *    and AUTH_SYS, an AUTH_NONE body, an AUTH_SYS body that does not
 *    parse to exactly its length: MSG_DENIED AUTH_ERROR AUTH_BADCRED;
 *  - a verifier that is not an empty AUTH_NONE: AUTH_ERROR AUTH_BADVERF;
 *  - then PROG_UNAVAIL, PROG_MISMATCH (with the program's range of
 *    versions), PROC_UNAVAIL and, for arguments that do not decode or
 *    exceed their bounds, GARBAGE_ARGS.
 * All of these are counted; none is logged, since a client chooses them.
 *
 * Called by a server thread holding a use of its socket, but not its
 * busy flag: another thread may already be reading the next record.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/string.h>
#include "svc_program.h"

enum {
	RPC_CALL = 0,
	RPC_REPLY = 1,
	RPC_MSG_ACCEPTED = 0,
	RPC_MSG_DENIED = 1,
	RPC_MISMATCH = 0,
	RPC_AUTH_ERROR = 1,
	RPC_AUTH_BADCRED = 1,
	RPC_AUTH_BADVERF = 3,
	RPC_AUTH_NONE = 0,
	RPC_AUTH_SYS = 1,
	RPC_MAX_AUTH_BYTES = 400,
	RPC_AUTH_SYS_MAX_MACHINE = 255,
	RPC_AUTH_SYS_MAX_GIDS = 16,
};

/* An AUTH_SYS body (RFC 5531 section 14): stamp, machine name of at most
 * 255 bytes, uid, gid, at most 16 gids; and nothing after them.
 */
static bool svc_authsys_valid(const u8 *body, u32 len)
{
	struct svc_xdr x = { .p = body, .left = len };
	u32 stamp, namelen, uid, gid, ngids, g;

	if (!svc_xdr_u32(&x, &stamp) || !svc_xdr_u32(&x, &namelen) ||
	    namelen > RPC_AUTH_SYS_MAX_MACHINE || !svc_xdr_skip(&x, namelen) ||
	    !svc_xdr_u32(&x, &uid) || !svc_xdr_u32(&x, &gid) ||
	    !svc_xdr_u32(&x, &ngids) || ngids > RPC_AUTH_SYS_MAX_GIDS)
		return false;
	while (ngids--)
		if (!svc_xdr_u32(&x, &g))
			return false;
	return x.left == 0;
}

/* An accepted reply's header with status stat, not counted. */
static void svc_put_accepted(struct svc_reply *r, u32 stat)
{
	svc_put(r, RPC_MSG_ACCEPTED);
	svc_put(r, RPC_AUTH_NONE);	/* verifier */
	svc_put(r, 0);
	svc_put(r, stat);
}

/* An accepted reply's header with status stat, counted (PROG_MISMATCH's
 * range follows it).
 */
static void svc_reply_accepted(struct svc_reply *r, u32 stat)
{
	static const enum svc_stat counter[] = {
		[RPC_SUCCESS]		= SVC_STAT_REPLY_SUCCESS,
		[RPC_PROG_UNAVAIL]	= SVC_STAT_REPLY_PROG_UNAVAIL,
		[RPC_PROG_MISMATCH]	= SVC_STAT_REPLY_PROG_MISMATCH,
		[RPC_PROC_UNAVAIL]	= SVC_STAT_REPLY_PROC_UNAVAIL,
		[RPC_GARBAGE_ARGS]	= SVC_STAT_REPLY_GARBAGE_ARGS,
		[RPC_SYSTEM_ERR]	= SVC_STAT_REPLY_SYSTEM_ERR,
	};

	svc_put_accepted(r, stat);
	svc_stat_inc(counter[stat]);
}

static void svc_reply_denied(struct svc_reply *r, u32 stat, u32 detail)
{
	svc_put(r, RPC_MSG_DENIED);
	svc_put(r, stat);
	if (stat == RPC_MISMATCH) {
		svc_put(r, 2);		/* low */
		svc_put(r, 2);		/* high */
		svc_stat_inc(SVC_STAT_REPLY_RPC_MISMATCH);
	} else {
		svc_put(r, detail);
		svc_stat_inc(SVC_STAT_REPLY_AUTH_ERROR);
	}
}

/* NULL: nothing in, nothing out. */
static u32 svc_proc_null(const union svc_proc_args *args, struct svc_reply *r)
{
	return RPC_SUCCESS;
}

/* ECHO's argument: an opaque of at most SVCSOCK_ECHO_MAX bytes, left in
 * the call's buffer.
 */
static bool svc_decode_echo(struct svc_xdr *x, union svc_proc_args *args)
{
	if (!svc_xdr_u32(x, &args->echo.len) || args->echo.len > SVCSOCK_ECHO_MAX)
		return false;
	args->echo.data = x->p;
	return svc_xdr_skip(x, args->echo.len);
}

/* ECHO: the opaque argument, back as the result.  It came in the call,
 * whose buffer is 64 bytes smaller than the reply's: it always fits.
 */
static u32 svc_proc_echo(const union svc_proc_args *args, struct svc_reply *r)
{
	if (!svc_reply_room(r, svc_opaque_size(args->echo.len)))
		return RPC_SYSTEM_ERR;
	svc_put_opaque(r, args->echo.data, args->echo.len);
	return RPC_SUCCESS;
}

/* SLEEP's argument: microseconds, at most SVCSOCK_SLEEP_MAX. */
static bool svc_decode_sleep(struct svc_xdr *x, union svc_proc_args *args)
{
	return svc_xdr_u32(x, &args->sleep_usecs) &&
	       args->sleep_usecs <= SVCSOCK_SLEEP_MAX;
}

/* SLEEP: hold this thread for the given number of microseconds, or until
 * it is asked to stop (rmmod, a smaller pool), which must not wait for a
 * peer's sleeps.  kthread_stop() wakes an interruptible sleep; one that
 * starts just after the wakeup lasts at most SVCSOCK_SLEEP_MAX (a short
 * one, under 20 ms, is not cut short).  A sleep cut short did not do what
 * the call asked: it is answered SYSTEM_ERR (RFC 5531: the procedure
 * could not be carried out), not SUCCESS.
 */
static u32 svc_proc_sleep(const union svc_proc_args *args, struct svc_reply *r)
{
	u32 usecs = args->sleep_usecs;
	unsigned long end;

	if (usecs < 20 * USEC_PER_MSEC) {
		/* An hrtimer with 1/32 of the time as slack: fsleep() allows
		 * as much slack as the sleep itself, which made SLEEP 1000
		 * hold a thread for up to 2 ms and the ideal rate of the
		 * benchmarks (threads x 1000 calls/s) out of reach.
		 */
		if (usecs >= 10)
			usleep_range(usecs, usecs + usecs / 32);
		else
			udelay(usecs);
		return RPC_SUCCESS;
	}
	end = jiffies + usecs_to_jiffies(usecs);
	while (!kthread_should_stop() && time_before(jiffies, end))
		schedule_timeout_interruptible(end - jiffies);
	return time_before(jiffies, end) ? RPC_SYSTEM_ERR : RPC_SUCCESS;
}

/* The svcsock program, version 1 (protocol/svcsock.x). */
static const struct svc_procedure svcsock_procedures_v1[SVCSOCK_NPROC] = {
	SVC_PROCEDURE(SVCSOCK_PROC_NULL, "NULL", NULL, svc_proc_null, 0,
		      SVC_STAT_CALLS_NULL),
	SVC_PROCEDURE(SVCSOCK_PROC_ECHO, "ECHO", svc_decode_echo, svc_proc_echo,
		      0, SVC_STAT_CALLS_ECHO),
	SVC_PROCEDURE(SVCSOCK_PROC_SLEEP, "SLEEP", svc_decode_sleep,
		      svc_proc_sleep, 0, SVC_STAT_CALLS_SLEEP),
};

static const struct svc_program svcsock_program =
	SVC_PROGRAM_ONE_VERSION(SVCSOCK_PROG, SVCSOCK_VERS,
				svcsock_procedures_v1, SVCSOCK_NPROC);

/* Every program this port serves. */
static const struct svc_program *const svc_programs[] = {
	&svcsock_program,
	&svc_nfs3_program,
	&svc_mount3_program,
};

/* The program numbered prog, or NULL. */
static const struct svc_program *svc_find_program(u32 prog)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(svc_programs); i++)
		if (svc_programs[i]->pg_prog == prog)
			return svc_programs[i];
	return NULL;
}

/* Run procedure proc of version vers of program pg on the arguments in
 * x and put the accepted reply (header, status, results) in r.
 */
static void svc_call(const struct svc_program *pg, u32 vers, u32 proc,
		     struct svc_xdr *x, struct svc_reply *r)
{
	const struct svc_version *vs;
	const struct svc_procedure *pc;
	union svc_proc_args args;
	__be32 *results, *end;
	u32 stat;

	if (vers < pg->pg_lovers || vers - pg->pg_lovers >= pg->pg_nvers) {
		svc_reply_accepted(r, RPC_PROG_MISMATCH);
		svc_put(r, pg->pg_lovers);
		svc_put(r, pg->pg_lovers + pg->pg_nvers - 1);
		return;
	}
	vs = &pg->pg_vers[vers - pg->pg_lovers];
	pc = proc < vs->vs_nproc ? &vs->vs_proc[proc] : NULL;
	if (!pc || !pc->pc_func) {
		svc_reply_accepted(r, RPC_PROC_UNAVAIL);
		return;
	}
	if (pc->pc_decode && !pc->pc_decode(x, &args)) {
		svc_reply_accepted(r, RPC_GARBAGE_ARGS);
		return;
	}
	svc_stat_inc(pc->pc_counter);
	if (!svc_reply_room(r, 4 * sizeof(__be32) + pc->pc_ressize)) {
		svc_reply_accepted(r, RPC_SYSTEM_ERR);
		return;
	}
	/* The results go after the accepted header, whose status is known
	 * only once the procedure has run: put the header for SUCCESS, and
	 * on any other status rewind and put it again, without results (nor
	 * any opaque they named elsewhere).
	 */
	results = r->p;
	end = r->end;
	svc_put_accepted(r, RPC_SUCCESS);
	stat = pc->pc_func(&args, r);
	if (stat == RPC_SUCCESS) {
		svc_stat_inc(SVC_STAT_REPLY_SUCCESS);
		return;
	}
	r->p = results;
	r->end = end;
	r->data = NULL;
	r->datalen = 0;
	svc_reply_accepted(r, stat);
}

/* Decode the call in rqstp->rq_argbuf and build the reply in
 * rqstp->rq_resbuf (and rqstp->rq_resdata, an opaque's bytes sent from
 * where they are).  Returns false when the call is to be dropped.
 */
static bool svc_dispatch(struct svc_rqst *rqstp)
{
	struct svc_xdr x = { .p = rqstp->rq_argbuf, .left = rqstp->rq_arglen };
	size_t resmax = rqstp->rq_resmax, max_reply;
	struct svc_reply r = { .p = (__be32 *)rqstp->rq_resbuf };
	const struct svc_program *pg;
	u32 xid, type, rpcvers, prog, vers, proc;
	u32 flavor, credlen, verflavor, verflen;
	const u8 *cred;

	/* The reply ends where the buffer does or the transport's limit, a
	 * whole word in.
	 */
	max_reply = rqstp->rq_sock->sk_ops->xpo_max_reply;
	if (max_reply && max_reply < resmax)
		resmax = max_reply;
	r.start = r.p;
	r.end = r.p + resmax / sizeof(__be32);
	if (!svc_xdr_u32(&x, &xid) || !svc_xdr_u32(&x, &type))
		goto garbage;
	if (type == RPC_REPLY) {
		svc_stat_inc(SVC_STAT_REPLIES_DROPPED);
		return false;
	}
	if (type != RPC_CALL || !svc_xdr_u32(&x, &rpcvers))
		goto garbage;

	svc_put(&r, xid);
	svc_put(&r, RPC_REPLY);

	if (rpcvers != 2) {
		svc_reply_denied(&r, RPC_MISMATCH, 0);
		goto reply;
	}
	if (!svc_xdr_u32(&x, &prog) || !svc_xdr_u32(&x, &vers) ||
	    !svc_xdr_u32(&x, &proc) ||
	    !svc_xdr_u32(&x, &flavor) || !svc_xdr_u32(&x, &credlen))
		goto garbage;
	if (credlen > RPC_MAX_AUTH_BYTES) {
		svc_reply_denied(&r, RPC_AUTH_ERROR, RPC_AUTH_BADCRED);
		goto reply;
	}
	cred = x.p;
	if (!svc_xdr_skip(&x, credlen) ||
	    !svc_xdr_u32(&x, &verflavor) || !svc_xdr_u32(&x, &verflen))
		goto garbage;
	if (verflen > RPC_MAX_AUTH_BYTES) {
		svc_reply_denied(&r, RPC_AUTH_ERROR, RPC_AUTH_BADVERF);
		goto reply;
	}
	if (!svc_xdr_skip(&x, verflen))
		goto garbage;

	if (!(flavor == RPC_AUTH_NONE && credlen == 0) &&
	    !(flavor == RPC_AUTH_SYS && svc_authsys_valid(cred, credlen))) {
		svc_reply_denied(&r, RPC_AUTH_ERROR, RPC_AUTH_BADCRED);
		goto reply;
	}
	if (verflavor != RPC_AUTH_NONE || verflen != 0) {
		svc_reply_denied(&r, RPC_AUTH_ERROR, RPC_AUTH_BADVERF);
		goto reply;
	}

	pg = svc_find_program(prog);
	if (pg)
		svc_call(pg, vers, proc, &x, &r);
	else
		svc_reply_accepted(&r, RPC_PROG_UNAVAIL);

reply:
	rqstp->rq_reslen = (r.p - r.start) * sizeof(__be32);
	rqstp->rq_resdata = r.data;
	rqstp->rq_resdatalen = r.datalen;
	return true;

garbage:
	svc_stat_inc(SVC_STAT_GARBAGE);
	return false;
}

/**
 * svcsock_process() - Serve the call the thread received
 * @rqstp: the thread, with the call in rqstp->rq_argbuf
 *
 * Decode, run, reply.
 *
 * Context: Process context; may sleep (SLEEP).  The thread holds a use of
 * its socket, but not its busy flag: another thread may already be
 * reading the next record.
 */
void svcsock_process(struct svc_rqst *rqstp)
{
	if (svc_dispatch(rqstp))
		svcsock_send(rqstp);
}
