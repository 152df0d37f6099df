/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What an RPC program served on the port is made of: the XDR cursor its
 * decoders read the call with, the reply its handlers write, and the
 * tables (program, version, procedure) svc_rpc.c dispatches through, as
 * net/sunrpc's svc_program and svc_procedure are.  Each program is a
 * file of its own (svc_rpc.c: the svcsock program; svc_nfs3.c: NFS
 * version 3; svc_mount3.c: MOUNT version 3) that fills in its tables;
 * svc_rpc.c lists them in svc_programs[].
 *
 * Decoders leave variable-length arguments (names, opaques) in the
 * call's buffer and point at them: nothing is copied or allocated per
 * call.  Handlers write their results straight into the thread's reply
 * buffer, and check that they fit first (svc_reply_room()).  A reply's
 * last item may instead be bytes the server keeps elsewhere for as long
 * as it runs (READ's, from the export's cache): svc_put_opaque_ref()
 * names them, and the transport sends them from where they are, as
 * net/sunrpc sends an xdr_buf's pages after its head.
 */
#ifndef _SVC_PROGRAM_H
#define _SVC_PROGRAM_H

#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/types.h>
#include "svcsock.h"

/* The accept status a handler returns (RFC 5531 accept_stat). */
enum {
	RPC_SUCCESS = 0,
	RPC_PROG_UNAVAIL = 1,
	RPC_PROG_MISMATCH = 2,
	RPC_PROC_UNAVAIL = 3,
	RPC_GARBAGE_ARGS = 4,
	RPC_SYSTEM_ERR = 5,
};

/* A cursor over XDR input: big-endian words, opaques padded to 4. */
struct svc_xdr {
	const u8	*p;
	size_t		left;
};

/**
 * svc_xdr_u32() - Take an unsigned int (one big-endian word) from the call
 * @x: the cursor, moved past it
 * @v: the value
 *
 * Return: false when the call ends first.
 */
static inline bool svc_xdr_u32(struct svc_xdr *x, u32 *v)
{
	__be32 w;

	if (x->left < 4)
		return false;
	memcpy(&w, x->p, 4);
	*v = be32_to_cpu(w);
	x->p += 4;
	x->left -= 4;
	return true;
}

/**
 * svc_xdr_u64() - Take an unsigned hyper (two words, high first)
 * @x: the cursor, moved past it
 * @v: the value
 *
 * Return: false when the call ends first.
 */
static inline bool svc_xdr_u64(struct svc_xdr *x, u64 *v)
{
	u32 hi, lo;

	if (!svc_xdr_u32(x, &hi) || !svc_xdr_u32(x, &lo))
		return false;
	*v = (u64)hi << 32 | lo;
	return true;
}

/**
 * svc_xdr_skip() - Step over an opaque body and its padding
 * @x: the cursor, moved past them
 * @len: the body's length in bytes
 *
 * Return: false when the call ends first.
 */
static inline bool svc_xdr_skip(struct svc_xdr *x, u32 len)
{
	size_t padded = round_up((size_t)len, 4);

	if (x->left < padded)
		return false;
	x->p += padded;
	x->left -= padded;
	return true;
}

/**
 * svc_xdr_opaque() - Take a variable-length opaque or string
 * @x: the cursor, moved past it
 * @max: the most bytes it may have
 * @body: set to its bytes, left in the call's buffer
 * @len: set to its length
 *
 * Return: false when it is longer than @max or runs past the call.
 */
static inline bool svc_xdr_opaque(struct svc_xdr *x, u32 max,
				  const u8 **body, u32 *len)
{
	if (!svc_xdr_u32(x, len) || *len > max)
		return false;
	*body = x->p;
	return svc_xdr_skip(x, *len);
}

/**
 * svc_xdr_fixed() - Take a fixed-length opaque
 * @x: the cursor, moved past it
 * @len: its length, a multiple of 4
 * @body: set to its bytes, left in the call's buffer
 *
 * Return: false when the call ends first.
 */
static inline bool svc_xdr_fixed(struct svc_xdr *x, u32 len, const u8 **body)
{
	*body = x->p;
	return svc_xdr_skip(x, len);
}

/* The reply being built in the thread's reply buffer, which ends at end
 * (earlier than the buffer does where the transport carries less, as a
 * UDP datagram does), and the bytes of its last opaque when they are
 * sent from elsewhere (svc_put_opaque_ref()): they count against end.
 */
struct svc_reply {
	__be32		*p;
	__be32		*start;
	__be32		*end;
	const u8	*data;
	u32		datalen;
};

/**
 * svc_reply_room() - Whether more bytes fit in the reply
 * @r: the reply
 * @bytes: how many
 *
 * Return: true when they fit.
 */
static inline bool svc_reply_room(const struct svc_reply *r, size_t bytes)
{
	return bytes <= (size_t)(r->end - r->p) * sizeof(__be32);
}

/**
 * svc_reply_left() - The room left in the reply
 * @r: the reply
 *
 * Return: the bytes that still fit, a multiple of 4.
 */
static inline size_t svc_reply_left(const struct svc_reply *r)
{
	return (size_t)(r->end - r->p) * sizeof(__be32);
}

/**
 * svc_put() - Put an unsigned int in the reply; the caller checked room
 * @r: the reply
 * @v: the value
 */
static inline void svc_put(struct svc_reply *r, u32 v)
{
	*r->p++ = cpu_to_be32(v);
}

/**
 * svc_put64() - Put an unsigned hyper in the reply; the caller checked room
 * @r: the reply
 * @v: the value
 */
static inline void svc_put64(struct svc_reply *r, u64 v)
{
	svc_put(r, upper_32_bits(v));
	svc_put(r, lower_32_bits(v));
}

/**
 * svc_put_opaque() - Put an opaque or string in the reply
 * @r: the reply; the caller checked room (svc_opaque_size())
 * @body: its bytes
 * @len: its length
 *
 * Puts the length, the bytes and zero padding to a multiple of 4.
 */
static inline void svc_put_opaque(struct svc_reply *r, const void *body,
				  u32 len)
{
	svc_put(r, len);
	memcpy(r->p, body, len);
	memset((u8 *)r->p + len, 0, round_up(len, 4) - len);
	r->p += round_up(len, 4) / 4;
}

/**
 * svc_put_opaque_ref() - End the reply with an opaque sent from elsewhere
 * @r: the reply; the caller checked room (svc_opaque_size())
 * @body: its bytes, which stay where they are until the module unloads
 * @len: its length
 *
 * Puts the length; the transport sends @body and its padding after the
 * reply buffer's bytes (svc_reply_kvecs()), with no copy into the buffer.
 * Nothing may be put after it: the room it takes is given up at once.
 */
static inline void svc_put_opaque_ref(struct svc_reply *r, const void *body,
				      u32 len)
{
	svc_put(r, len);
	r->data = body;
	r->datalen = len;
	r->end = r->p;
}

/**
 * svc_opaque_size() - The room an opaque takes in a reply
 * @len: its length
 *
 * Return: its bytes with the length word and the padding.
 */
static inline size_t svc_opaque_size(u32 len)
{
	return 4 + round_up((size_t)len, 4);
}

/* The arguments of each program's procedures (in the program's file). */
struct svcsock_echo_args {
	const u8	*data;
	u32		len;
};

/* An NFS version 3 file handle as it came in the call (nfs_fh3). */
struct nfs3_fh_arg {
	const u8	*data;
	u32		len;
};

struct nfs3_diropargs {
	struct nfs3_fh_arg	dir;
	const u8		*name;
	u32			namelen;
};

struct nfs3_readargs {
	struct nfs3_fh_arg	fh;
	u64			offset;
	u32			count;
};

struct nfs3_readdirargs {
	struct nfs3_fh_arg	dir;
	u64			cookie;
	const u8		*verf;		/* cookieverf3, 8 bytes */
	u32			maxcount;	/* READDIR's count */
	bool			plus;		/* READDIRPLUS */
};

struct nfs3_accessargs {
	struct nfs3_fh_arg	fh;
	u32			access;
};

/* A MOUNT dirpath, at most MNTPATHLEN bytes. */
struct mount3_dirpath {
	const u8	*path;
	u32		len;
};

/* The decoded arguments of a call: one member per kind of arguments. */
union svc_proc_args {
	struct svcsock_echo_args	echo;
	u32				sleep_usecs;
	struct nfs3_fh_arg		fh;
	struct nfs3_diropargs		dirop;
	struct nfs3_readargs		read;
	struct nfs3_readdirargs		readdir;
	struct nfs3_accessargs		access;
	struct mount3_dirpath		dirpath;
};

/**
 * struct svc_procedure - one procedure of a program version
 * @pc_name: its name, for the reader
 * @pc_decode: decode the arguments into @args; false when they do not
 *	decode or exceed their bounds (GARBAGE_ARGS).  NULL: no arguments.
 * @pc_func: run the procedure and encode its results after the accepted
 *	reply header; returns the accept status, RPC_SUCCESS or
 *	RPC_SYSTEM_ERR (the results it wrote are then dropped)
 * @pc_ressize: the most bytes of results @pc_func writes, checked before
 *	it runs (SYSTEM_ERR where they would not fit); for a procedure whose
 *	results grow to the room it finds (ECHO, READ, READDIR), the fixed
 *	part, and the procedure checks the rest itself (svc_reply_room())
 * @pc_counter: the statistic counted once the arguments decoded, before
 *	@pc_func runs (a test may watch a long call arrive)
 *
 * A procedure's handlers are called in process context by a server
 * thread holding a use of the socket, not its busy flag; they may sleep.
 */
struct svc_procedure {
	const char	*pc_name;
	bool		(*pc_decode)(struct svc_xdr *x, union svc_proc_args *args);
	u32		(*pc_func)(const union svc_proc_args *args,
				   struct svc_reply *r);
	size_t		pc_ressize;
	enum svc_stat	pc_counter;
};

/* The entry for procedure num of a table of struct svc_procedure. */
#define SVC_PROCEDURE(num, name, dec, func, ressize, counter)	\
	[num] = {						\
		.pc_name	= name,				\
		.pc_decode	= dec,				\
		.pc_func	= func,				\
		.pc_ressize	= ressize,			\
		.pc_counter	= counter,			\
	}

/**
 * struct svc_version - one version of a program
 * @vs_nproc: how many procedures (numbered from 0)
 * @vs_proc: the procedures; one without a pc_func is not served
 */
struct svc_version {
	u32				vs_nproc;
	const struct svc_procedure	*vs_proc;
};

/**
 * struct svc_program - one RPC program served on the port
 * @pg_prog: its number
 * @pg_lovers: the lowest version served, sent in PROG_MISMATCH
 * @pg_nvers: how many versions, numbered from @pg_lovers up (the highest
 *	is sent in PROG_MISMATCH too)
 * @pg_vers: the versions, indexed by number less @pg_lovers
 */
struct svc_program {
	u32				pg_prog;
	u32				pg_lovers;
	u32				pg_nvers;
	const struct svc_version	*pg_vers;
};

/* The initializer of program prog served at one version, vers, whose
 * nproc procedures are the table procs.
 */
#define SVC_PROGRAM_ONE_VERSION(prog, vers, procs, nproc)		\
	{								\
		.pg_prog	= prog,					\
		.pg_lovers	= vers,					\
		.pg_nvers	= 1,					\
		.pg_vers	= &(const struct svc_version) {		\
			.vs_nproc	= nproc,			\
			.vs_proc	= procs,			\
		},							\
	}

extern const struct svc_program svc_nfs3_program;
extern const struct svc_program svc_mount3_program;

#endif /* _SVC_PROGRAM_H */
