// SPDX-License-Identifier: GPL-2.0
/*
 * NFS version 3 (RFC 1813), read-only, over the synthetic export
 * (svc_export.c): program 100003, version 3, on the port every other
 * program is served on.
 *
 * What each procedure answers:
 *  - NULL, GETATTR, LOOKUP, ACCESS, READ, READDIR, READDIRPLUS, FSSTAT,
 *    FSINFO and PATHCONF, as the RFC says;
 *  - READLINK: NFS3ERR_INVAL, there being no symbolic links;
 *  - every procedure that would change something (SETATTR, WRITE,
 *    CREATE, MKDIR, SYMLINK, MKNOD, REMOVE, RMDIR, RENAME, LINK, COMMIT):
 *    NFS3ERR_ROFS, with the attributes it would carry said absent.  Their
 *    arguments are not decoded: the answer cannot depend on them.
 *
 * And to arguments the export has no answer for:
 *  - a handle of another length than ours or not ours: NFS3ERR_BADHANDLE;
 *    one of an earlier load or naming no file: NFS3ERR_STALE (a handle
 *    longer than NFS3_FHSIZE does not decode: GARBAGE_ARGS);
 *  - a name longer than NFS3_MAXNAMLEN: NFS3ERR_NAMETOOLONG; one the
 *    directory does not hold: NFS3ERR_NOENT; ".." at the root is the root;
 *  - READ of a directory: NFS3ERR_ISDIR; at or past the end: no bytes and
 *    eof; of 0 bytes: no bytes; of more than rtmax or than the transport
 *    carries: fewer bytes (the RFC lets a server return less);
 *  - READDIR or READDIRPLUS with a cookie never issued or a verifier of
 *    an earlier load: NFS3ERR_BAD_COOKIE; a count too small for one
 *    entry: NFS3ERR_TOOSMALL.  READDIRPLUS's dircount is a hint the RFC
 *    lets a server ignore; maxcount bounds the reply, as in nfsd.
 * Each error is counted (nfs3_err_*), none logged: a client chooses them.
 *
 * READ's bytes are sent from the export's cache of the file, the reply
 * naming them where they are (svc_put_opaque_ref()), or, for a file the
 * cache cannot hold, generated straight into the thread's reply buffer:
 * no allocation per call.  Everything here runs in a server thread, in
 * process context, with no lock held.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include "svc_export.h"
#include "svc_program.h"

#define NFS3_PROGRAM		100003
#define NFS3_VERSION		3
#define NFS3_FHSIZE		64
#define NFS3_MAXNAMLEN		255
#define NFS3_COOKIEVERFSIZE	8

enum nfs3_stat {
	NFS3_OK			= 0,
	NFS3ERR_NOENT		= 2,
	NFS3ERR_NOTDIR		= 20,
	NFS3ERR_ISDIR		= 21,
	NFS3ERR_INVAL		= 22,
	NFS3ERR_ROFS		= 30,
	NFS3ERR_NAMETOOLONG	= 63,
	NFS3ERR_STALE		= 70,
	NFS3ERR_BADHANDLE	= 10001,
	NFS3ERR_BAD_COOKIE	= 10003,
	NFS3ERR_TOOSMALL	= 10005,
};

enum {
	NFS3PROC_NULL, NFS3PROC_GETATTR, NFS3PROC_SETATTR, NFS3PROC_LOOKUP,
	NFS3PROC_ACCESS, NFS3PROC_READLINK, NFS3PROC_READ, NFS3PROC_WRITE,
	NFS3PROC_CREATE, NFS3PROC_MKDIR, NFS3PROC_SYMLINK, NFS3PROC_MKNOD,
	NFS3PROC_REMOVE, NFS3PROC_RMDIR, NFS3PROC_RENAME, NFS3PROC_LINK,
	NFS3PROC_READDIR, NFS3PROC_READDIRPLUS, NFS3PROC_FSSTAT,
	NFS3PROC_FSINFO, NFS3PROC_PATHCONF, NFS3PROC_COMMIT, NFS3PROC_NR
};

#define NFS3_ACCESS_READ	0x0001
#define NFS3_ACCESS_LOOKUP	0x0002
#define NFS3_FSF_HOMOGENEOUS	0x0008

/* Bytes in a reply: fattr3, post_op_attr with attributes, nfs_fh3 and
 * post_op_fh3 with our handle.
 */
#define NFS3_FATTR_SIZE		(21 * 4)
#define NFS3_POST_OP_ATTR_SIZE	(4 + NFS3_FATTR_SIZE)
#define NFS3_FH_SIZE		(4 + SVC_EXPORT_FH_SIZE)
#define NFS3_POST_OP_FH_SIZE	(4 + NFS3_FH_SIZE)

/* The fixed part of READ's and READDIR's results: status, attributes,
 * then count, eof and the data's length; or the cookie verifier, the
 * list's end and eof.  The rest grows to the room the reply has.
 */
#define NFS3_READ_FIXED		(4 + NFS3_POST_OP_ATTR_SIZE + 12)
#define NFS3_READDIR_FIXED	(4 + NFS3_POST_OP_ATTR_SIZE + \
				 NFS3_COOKIEVERFSIZE + 8)

/* The reply's room that a transport needs beyond READ's data: the RPC
 * reply header, status, attributes, count, eof and length, with margin.
 */
#define NFS3_READ_OVERHEAD	1024

/* Count an error status and return it. */
static u32 nfs3_err(u32 stat)
{
	switch (stat) {
	case NFS3ERR_BADHANDLE:
		svc_stat_inc(SVC_STAT_NFS3_ERR_BADHANDLE);
		break;
	case NFS3ERR_STALE:
		svc_stat_inc(SVC_STAT_NFS3_ERR_STALE);
		break;
	case NFS3ERR_NOENT:
		svc_stat_inc(SVC_STAT_NFS3_ERR_NOENT);
		break;
	case NFS3ERR_NAMETOOLONG:
		svc_stat_inc(SVC_STAT_NFS3_ERR_NAMETOOLONG);
		break;
	case NFS3ERR_BAD_COOKIE:
		svc_stat_inc(SVC_STAT_NFS3_ERR_BAD_COOKIE);
		break;
	case NFS3ERR_ROFS:
		svc_stat_inc(SVC_STAT_NFS3_ERR_ROFS);
		break;
	default:
		svc_stat_inc(SVC_STAT_NFS3_ERR_OTHER);
		break;
	}
	return stat;
}

/* The node a handle names: NFS3_OK, or the counted error. */
static u32 nfs3_fh(const struct nfs3_fh_arg *fh, struct svc_node *n)
{
	int err = svc_export_fh_decode(fh->data, fh->len, n);

	if (!err)
		return NFS3_OK;
	return nfs3_err(err == -EBADF ? NFS3ERR_BADHANDLE : NFS3ERR_STALE);
}

/* The largest READ payload this reply buffer can carry: rtmax, which, as
 * nfsd's, depends on the transport (a UDP datagram carries less).
 */
static u32 nfs3_max_payload(const struct svc_reply *r)
{
	size_t buf = (size_t)(r->end - r->start) * sizeof(__be32);

	if (buf < NFS3_READ_OVERHEAD + SZ_4K)
		return 0;
	return min_t(size_t, SZ_1M,
		     round_down(buf - NFS3_READ_OVERHEAD, SZ_4K));
}

static void nfs3_put_time(struct svc_reply *r)
{
	svc_put(r, (u32)svc_export_time());
	svc_put(r, 0);
}

/* fattr3 (RFC 1813 section 2.5) of node n. */
static void nfs3_put_fattr(struct svc_reply *r, const struct svc_node *n)
{
	svc_put(r, n->type);
	svc_put(r, n->type == SVC_EXPORT_DIR ? 0555 : 0444);
	svc_put(r, n->nlink);
	svc_put(r, 0);				/* uid */
	svc_put(r, 0);				/* gid */
	svc_put64(r, n->size);
	svc_put64(r, round_up(n->size, 512));	/* used */
	svc_put(r, 0);				/* rdev */
	svc_put(r, 0);
	svc_put64(r, 0x73766373);		/* fsid */
	svc_put64(r, n->fileid);
	nfs3_put_time(r);			/* atime */
	nfs3_put_time(r);			/* mtime */
	nfs3_put_time(r);			/* ctime */
}

/* post_op_attr: node n's attributes, or none when n is NULL. */
static void nfs3_put_post_op_attr(struct svc_reply *r,
				  const struct svc_node *n)
{
	svc_put(r, !!n);
	if (n)
		nfs3_put_fattr(r, n);
}

static void nfs3_put_fh(struct svc_reply *r, u64 fileid)
{
	u8 fh[SVC_EXPORT_FH_SIZE];

	svc_export_fh(fileid, fh);
	svc_put_opaque(r, fh, sizeof(fh));
}

/* The status of a procedure on one handle, and its post_op_attr: the
 * node's attributes when the handle is good.  Returns whether it is, and
 * then the node in n and the procedure's own results still to put.
 */
static bool nfs3_put_fh_status(const struct nfs3_fh_arg *fh,
			       struct svc_node *n, struct svc_reply *r)
{
	u32 stat = nfs3_fh(fh, n);

	svc_put(r, stat);
	nfs3_put_post_op_attr(r, stat == NFS3_OK ? n : NULL);
	return stat == NFS3_OK;
}

static bool nfs3_decode_fh(struct svc_xdr *x, union svc_proc_args *args)
{
	return svc_xdr_opaque(x, NFS3_FHSIZE, &args->fh.data, &args->fh.len);
}

/* diropargs3: a directory's handle and a name of any length (a name
 * longer than NFS3_MAXNAMLEN is an error the handler answers).
 */
static bool nfs3_decode_dirop(struct svc_xdr *x, union svc_proc_args *args)
{
	struct nfs3_diropargs *a = &args->dirop;

	return svc_xdr_opaque(x, NFS3_FHSIZE, &a->dir.data, &a->dir.len) &&
	       svc_xdr_opaque(x, U32_MAX, &a->name, &a->namelen);
}

static bool nfs3_decode_access(struct svc_xdr *x, union svc_proc_args *args)
{
	struct nfs3_accessargs *a = &args->access;

	return svc_xdr_opaque(x, NFS3_FHSIZE, &a->fh.data, &a->fh.len) &&
	       svc_xdr_u32(x, &a->access);
}

static bool nfs3_decode_read(struct svc_xdr *x, union svc_proc_args *args)
{
	struct nfs3_readargs *a = &args->read;

	return svc_xdr_opaque(x, NFS3_FHSIZE, &a->fh.data, &a->fh.len) &&
	       svc_xdr_u64(x, &a->offset) && svc_xdr_u32(x, &a->count);
}

static bool nfs3_decode_readdir(struct svc_xdr *x, union svc_proc_args *args)
{
	struct nfs3_readdirargs *a = &args->readdir;

	a->plus = false;
	return svc_xdr_opaque(x, NFS3_FHSIZE, &a->dir.data, &a->dir.len) &&
	       svc_xdr_u64(x, &a->cookie) &&
	       svc_xdr_fixed(x, NFS3_COOKIEVERFSIZE, &a->verf) &&
	       svc_xdr_u32(x, &a->maxcount);
}

static bool nfs3_decode_readdirplus(struct svc_xdr *x,
				    union svc_proc_args *args)
{
	struct nfs3_readdirargs *a = &args->readdir;
	u32 dircount;

	a->plus = true;
	return svc_xdr_opaque(x, NFS3_FHSIZE, &a->dir.data, &a->dir.len) &&
	       svc_xdr_u64(x, &a->cookie) &&
	       svc_xdr_fixed(x, NFS3_COOKIEVERFSIZE, &a->verf) &&
	       svc_xdr_u32(x, &dircount) && svc_xdr_u32(x, &a->maxcount);
}

static u32 nfs3_proc_null(const union svc_proc_args *args,
			  struct svc_reply *r)
{
	return RPC_SUCCESS;
}

static u32 nfs3_proc_getattr(const union svc_proc_args *args,
			     struct svc_reply *r)
{
	struct svc_node n;
	u32 stat = nfs3_fh(&args->fh, &n);

	svc_put(r, stat);
	if (stat == NFS3_OK)
		nfs3_put_fattr(r, &n);
	return RPC_SUCCESS;
}

static u32 nfs3_proc_lookup(const union svc_proc_args *args,
			    struct svc_reply *r)
{
	const struct nfs3_diropargs *a = &args->dirop;
	struct svc_node dir, child;
	u32 stat = nfs3_fh(&a->dir, &dir);

	if (stat != NFS3_OK) {
		svc_put(r, stat);
		nfs3_put_post_op_attr(r, NULL);
		return RPC_SUCCESS;
	}
	if (dir.type != SVC_EXPORT_DIR)
		stat = nfs3_err(NFS3ERR_NOTDIR);
	else if (a->namelen > NFS3_MAXNAMLEN)
		stat = nfs3_err(NFS3ERR_NAMETOOLONG);
	else if (!svc_export_lookup(&dir, a->name, a->namelen, &child))
		stat = nfs3_err(NFS3ERR_NOENT);
	svc_put(r, stat);
	if (stat == NFS3_OK) {
		nfs3_put_fh(r, child.fileid);
		nfs3_put_post_op_attr(r, &child);
	}
	nfs3_put_post_op_attr(r, &dir);
	return RPC_SUCCESS;
}

/* ACCESS: what the modes (directories 0555, files 0444) grant anyone,
 * of what was asked: never a right to change anything.
 */
static u32 nfs3_proc_access(const union svc_proc_args *args,
			    struct svc_reply *r)
{
	struct svc_node n;
	u32 granted;

	if (!nfs3_put_fh_status(&args->access.fh, &n, r))
		return RPC_SUCCESS;
	granted = NFS3_ACCESS_READ;
	if (n.type == SVC_EXPORT_DIR)
		granted |= NFS3_ACCESS_LOOKUP;
	svc_put(r, args->access.access & granted);
	return RPC_SUCCESS;
}

static u32 nfs3_proc_readlink(const union svc_proc_args *args,
			      struct svc_reply *r)
{
	struct svc_node n;
	u32 stat = nfs3_fh(&args->fh, &n);

	svc_put(r, stat == NFS3_OK ? nfs3_err(NFS3ERR_INVAL) : stat);
	nfs3_put_post_op_attr(r, stat == NFS3_OK ? &n : NULL);
	return RPC_SUCCESS;
}

/* READ: the bytes asked for that the file has, at most rtmax and what the
 * reply's room carries: sent from the export's cache of the file when it
 * holds it, else generated in place.
 */
static u32 nfs3_proc_read(const union svc_proc_args *args,
			  struct svc_reply *r)
{
	const struct nfs3_readargs *a = &args->read;
	struct svc_node n;
	u32 stat = nfs3_fh(&a->fh, &n);
	const u8 *data;
	size_t room;
	u32 count;
	bool eof;

	if (stat != NFS3_OK) {
		svc_put(r, stat);
		nfs3_put_post_op_attr(r, NULL);
		return RPC_SUCCESS;
	}
	if (n.type != SVC_EXPORT_REG) {
		svc_put(r, nfs3_err(NFS3ERR_ISDIR));
		nfs3_put_post_op_attr(r, &n);
		return RPC_SUCCESS;
	}
	svc_put(r, NFS3_OK);
	nfs3_put_post_op_attr(r, &n);

	room = round_down(svc_reply_left(r) - 12, 4);
	count = min3((size_t)a->count, (size_t)nfs3_max_payload(r), room);
	if (count < a->count)
		svc_stat_inc(SVC_STAT_NFS3_READ_CLAMPED);
	if (a->offset >= n.size)
		count = 0;
	else
		count = min_t(u64, count, n.size - a->offset);
	eof = a->offset + count >= n.size;

	svc_put(r, count);
	svc_put(r, eof);
	svc_stat_add(SVC_STAT_NFS3_READ_BYTES, count);
	data = count ? svc_export_contents(n.fileid, n.size) : NULL;
	if (data) {
		svc_put_opaque_ref(r, data + a->offset, count);
		return RPC_SUCCESS;
	}
	svc_put(r, count);
	if (count)
		svc_stat_inc(SVC_STAT_NFS3_READ_GENERATED);
	svc_export_read(n.fileid, a->offset, (u8 *)r->p, count);
	memset((u8 *)r->p + count, 0, round_up(count, 4) - count);
	r->p += round_up(count, 4) / 4;
	return RPC_SUCCESS;
}

/* Entry k of directory dir as READDIR lists it: ".", "..", then its
 * children.  Fills in node and name; returns the name's length.
 */
static u32 nfs3_dirent(const struct svc_node *dir, u64 k,
		       struct svc_node *node, char *name)
{
	if (k < 2) {
		svc_export_node(k ? dir->parent : dir->fileid, node);
		strscpy(name, k ? ".." : ".", SVC_EXPORT_NAME_MAX + 1);
		return k + 1;
	}
	return svc_export_child(dir, k - 2, node, name);
}

/* READDIR and READDIRPLUS: the entries after the cookie that fit in
 * maxcount bytes of results (and in the reply), each with the cookie
 * that resumes after it, its position plus one.
 */
static u32 nfs3_proc_readdir(const union svc_proc_args *args,
			     struct svc_reply *r)
{
	const struct nfs3_readdirargs *a = &args->readdir;
	char name[SVC_EXPORT_NAME_MAX + 1];
	struct svc_node dir, node;
	__be64 verf = cpu_to_be64(svc_export_verifier());
	size_t budget, fixed, esize;
	u64 k, total;
	__be32 *start;
	u32 stat, len;

	stat = nfs3_fh(&a->dir, &dir);
	if (stat != NFS3_OK) {
		svc_put(r, stat);
		nfs3_put_post_op_attr(r, NULL);
		return RPC_SUCCESS;
	}
	total = (u64)dir.nchildren + 2;
	if (dir.type != SVC_EXPORT_DIR)
		stat = nfs3_err(NFS3ERR_NOTDIR);
	else if (a->cookie > total ||
		 (a->cookie && memcmp(a->verf, &verf, sizeof(verf))))
		stat = nfs3_err(NFS3ERR_BAD_COOKIE);
	if (stat != NFS3_OK) {
		svc_put(r, stat);
		nfs3_put_post_op_attr(r, &dir);
		return RPC_SUCCESS;
	}

	/* maxcount bounds the results but for the status: their fixed part
	 * (NFS3_READDIR_FIXED, which the table made room for) and entries
	 */
	start = r->p;
	budget = min_t(size_t, a->maxcount, svc_reply_left(r) - 4);
	fixed = NFS3_READDIR_FIXED - 4;
	budget = budget > fixed ? budget - fixed : 0;
	svc_put(r, NFS3_OK);
	nfs3_put_post_op_attr(r, &dir);
	memcpy(r->p, &verf, sizeof(verf));
	r->p += sizeof(verf) / 4;
	for (k = a->cookie; k < total; k++) {
		len = nfs3_dirent(&dir, k, &node, name);
		esize = 4 + 8 + svc_opaque_size(len) + 8;
		if (a->plus)
			esize += NFS3_POST_OP_ATTR_SIZE + NFS3_POST_OP_FH_SIZE;
		if (esize > budget)
			break;
		budget -= esize;
		svc_put(r, 1);			/* an entry follows */
		svc_put64(r, node.fileid);
		svc_put_opaque(r, name, len);
		svc_put64(r, k + 1);		/* its cookie */
		if (a->plus) {
			nfs3_put_post_op_attr(r, &node);
			svc_put(r, 1);		/* post_op_fh3 */
			nfs3_put_fh(r, node.fileid);
		}
	}
	if (k == a->cookie && k < total) {
		r->p = start;
		svc_put(r, nfs3_err(NFS3ERR_TOOSMALL));
		nfs3_put_post_op_attr(r, &dir);
		return RPC_SUCCESS;
	}
	svc_put(r, 0);				/* no more entries */
	svc_put(r, k == total);			/* eof */
	return RPC_SUCCESS;
}

static u32 nfs3_proc_fsstat(const union svc_proc_args *args,
			    struct svc_reply *r)
{
	struct svc_node n;

	if (!nfs3_put_fh_status(&args->fh, &n, r))
		return RPC_SUCCESS;
	svc_put64(r, svc_export_bytes());	/* tbytes */
	svc_put64(r, 0);			/* fbytes */
	svc_put64(r, 0);			/* abytes */
	svc_put64(r, svc_export_files());	/* tfiles */
	svc_put64(r, 0);			/* ffiles */
	svc_put64(r, 0);			/* afiles */
	svc_put(r, 0);				/* invarsec */
	return RPC_SUCCESS;
}

static u32 nfs3_proc_fsinfo(const union svc_proc_args *args,
			    struct svc_reply *r)
{
	u32 max = nfs3_max_payload(r);
	struct svc_node n;

	if (!nfs3_put_fh_status(&args->fh, &n, r))
		return RPC_SUCCESS;
	svc_put(r, max);			/* rtmax */
	svc_put(r, max);			/* rtpref */
	svc_put(r, SZ_4K);			/* rtmult */
	svc_put(r, max);			/* wtmax: WRITE is ROFS */
	svc_put(r, max);			/* wtpref */
	svc_put(r, SZ_4K);			/* wtmult */
	svc_put(r, SZ_32K);			/* dtpref */
	svc_put64(r, S64_MAX);			/* maxfilesize */
	svc_put(r, 1);				/* time_delta: 1 s */
	svc_put(r, 0);
	svc_put(r, NFS3_FSF_HOMOGENEOUS);	/* no links, no setting times */
	return RPC_SUCCESS;
}

static u32 nfs3_proc_pathconf(const union svc_proc_args *args,
			      struct svc_reply *r)
{
	struct svc_node n;

	if (!nfs3_put_fh_status(&args->fh, &n, r))
		return RPC_SUCCESS;
	svc_put(r, 1);				/* linkmax */
	svc_put(r, NFS3_MAXNAMLEN);		/* name_max */
	svc_put(r, 1);				/* no_trunc */
	svc_put(r, 1);				/* chown_restricted */
	svc_put(r, 0);				/* case_insensitive */
	svc_put(r, 1);				/* case_preserving */
	return RPC_SUCCESS;
}

/* NFS3ERR_ROFS followed by words zero words: as many "absent" as the
 * procedure's failure results have optional parts (wcc_data: pre_op_attr
 * and post_op_attr; RENAME two of them; LINK a post_op_attr and one).
 */
static u32 nfs3_rofs(struct svc_reply *r, unsigned int words)
{
	svc_put(r, nfs3_err(NFS3ERR_ROFS));
	while (words--)
		svc_put(r, 0);
	return RPC_SUCCESS;
}

static u32 nfs3_proc_rofs_wcc(const union svc_proc_args *args,
			      struct svc_reply *r)
{
	return nfs3_rofs(r, 2);
}

static u32 nfs3_proc_rofs_rename(const union svc_proc_args *args,
				 struct svc_reply *r)
{
	return nfs3_rofs(r, 4);
}

static u32 nfs3_proc_rofs_link(const union svc_proc_args *args,
			       struct svc_reply *r)
{
	return nfs3_rofs(r, 3);
}

#define NFS3_PROC(num, name, dec, func, ressize)			\
	SVC_PROCEDURE(NFS3PROC_##num, name, dec, func, ressize,		\
		      SVC_STAT_CALLS_NFS3)

#define NFS3_ATTR_RES(words)	(4 + NFS3_POST_OP_ATTR_SIZE + 4 * (words))

static const struct svc_procedure nfs3_procedures[NFS3PROC_NR] = {
	NFS3_PROC(NULL, "NULL", NULL, nfs3_proc_null, 0),
	NFS3_PROC(GETATTR, "GETATTR", nfs3_decode_fh, nfs3_proc_getattr,
		  4 + NFS3_FATTR_SIZE),
	NFS3_PROC(SETATTR, "SETATTR", NULL, nfs3_proc_rofs_wcc, 12),
	NFS3_PROC(LOOKUP, "LOOKUP", nfs3_decode_dirop, nfs3_proc_lookup,
		  4 + NFS3_FH_SIZE + 2 * NFS3_POST_OP_ATTR_SIZE),
	NFS3_PROC(ACCESS, "ACCESS", nfs3_decode_access, nfs3_proc_access,
		  NFS3_ATTR_RES(1)),
	NFS3_PROC(READLINK, "READLINK", nfs3_decode_fh, nfs3_proc_readlink,
		  NFS3_ATTR_RES(0)),
	NFS3_PROC(READ, "READ", nfs3_decode_read, nfs3_proc_read,
		  NFS3_READ_FIXED),
	NFS3_PROC(WRITE, "WRITE", NULL, nfs3_proc_rofs_wcc, 12),
	NFS3_PROC(CREATE, "CREATE", NULL, nfs3_proc_rofs_wcc, 12),
	NFS3_PROC(MKDIR, "MKDIR", NULL, nfs3_proc_rofs_wcc, 12),
	NFS3_PROC(SYMLINK, "SYMLINK", NULL, nfs3_proc_rofs_wcc, 12),
	NFS3_PROC(MKNOD, "MKNOD", NULL, nfs3_proc_rofs_wcc, 12),
	NFS3_PROC(REMOVE, "REMOVE", NULL, nfs3_proc_rofs_wcc, 12),
	NFS3_PROC(RMDIR, "RMDIR", NULL, nfs3_proc_rofs_wcc, 12),
	NFS3_PROC(RENAME, "RENAME", NULL, nfs3_proc_rofs_rename, 20),
	NFS3_PROC(LINK, "LINK", NULL, nfs3_proc_rofs_link, 16),
	NFS3_PROC(READDIR, "READDIR", nfs3_decode_readdir, nfs3_proc_readdir,
		  NFS3_READDIR_FIXED),
	NFS3_PROC(READDIRPLUS, "READDIRPLUS", nfs3_decode_readdirplus,
		  nfs3_proc_readdir, NFS3_READDIR_FIXED),
	NFS3_PROC(FSSTAT, "FSSTAT", nfs3_decode_fh, nfs3_proc_fsstat,
		  NFS3_ATTR_RES(13)),
	NFS3_PROC(FSINFO, "FSINFO", nfs3_decode_fh, nfs3_proc_fsinfo,
		  NFS3_ATTR_RES(12)),
	NFS3_PROC(PATHCONF, "PATHCONF", nfs3_decode_fh, nfs3_proc_pathconf,
		  NFS3_ATTR_RES(6)),
	NFS3_PROC(COMMIT, "COMMIT", NULL, nfs3_proc_rofs_wcc, 12),
};

const struct svc_program svc_nfs3_program =
	SVC_PROGRAM_ONE_VERSION(NFS3_PROGRAM, NFS3_VERSION, nfs3_procedures,
				NFS3PROC_NR);
