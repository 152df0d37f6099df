// SPDX-License-Identifier: GPL-2.0
/*
 * nfs-bad: NFS version 3 and MOUNT version 3 calls, good and malformed,
 * against the module's synthetic export, each reply checked against what
 * RFC 1813 says it must be.  Prints TAP: one point per case.
 *
 *   nfs-bad [--host H] [--port P] [--proto tcp|udp] [--dirs D]
 *           [--files F] [--size S]
 *
 * The calls are written by hand (libsvcrpc's rpcwire) so that every byte
 * can be wrong on purpose: handles of the wrong length, magic, verifier
 * or fileid, names too long, READ past the end, with count 0 and beyond
 * rtmax, READDIR cookies never issued, ".." at the root, and every
 * procedure that would write.  The tree's shape (D, F, S) must be the
 * module's export_dirs, export_files and export_file_size: FSSTAT and the
 * sizes are checked against it, and READ's bytes against the export's
 * formula (svcsock-mod/svc_export.c).
 *
 * Exit status: 0 when every point passed, 1 when one failed, 2 on a usage
 * error or when the server cannot be reached.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "clock.h"
#include "netio.h"
#include "nfs-export.h"
#include "opts.h"
#include "rpcwire.h"
#include "toolopts.h"

#define NFS_PROG	100003u
#define MOUNT_PROG	100005u
#define TIMEOUT_MS	5000u
#define MAX_REPLY	(2u << 20)

enum {
	NFS3_OK = 0, NFS3ERR_NOENT = 2, NFS3ERR_NOTDIR = 20, NFS3ERR_ISDIR = 21,
	NFS3ERR_INVAL = 22, NFS3ERR_ROFS = 30, NFS3ERR_NAMETOOLONG = 63,
	NFS3ERR_STALE = 70, NFS3ERR_BADHANDLE = 10001,
	NFS3ERR_BAD_COOKIE = 10003, NFS3ERR_TOOSMALL = 10005,
};

enum {
	P_GETATTR = 1, P_SETATTR, P_LOOKUP, P_ACCESS, P_READLINK, P_READ,
	P_WRITE, P_CREATE, P_MKDIR, P_SYMLINK, P_MKNOD, P_REMOVE, P_RMDIR,
	P_RENAME, P_LINK, P_READDIR, P_READDIRPLUS, P_FSSTAT, P_FSINFO,
	P_PATHCONF, P_COMMIT,
};

static const char usage[] =
	"usage: nfs-bad [--host H] [--port P] [--proto tcp|udp] [--dirs D]\n"
	"               [--files F] [--size S]\n"
	"NFSv3 and MOUNTv3 calls, good and malformed, against svcsock's\n"
	"synthetic export; TAP on stdout, exit 0 when every point passed.\n"
	"  --host H     server address (default 127.0.0.1)\n"
	"  --port P     its port (default 20049)\n"
	"  --proto X    tcp (default) or udp\n"
	"  --dirs D     the module's export_dirs (default 4)\n"
	"  --files F    its export_files (default 16, at least 1 here)\n"
	"  --size S     its export_file_size (default 1048576, at least 4096)\n";

static struct tool_target target = TOOL_TARGET_DEFAULT;
static int fd = -1;
static uint32_t next_xid = 0x6e667300;
static unsigned int npoints, nfailed;
static uint64_t ndirs = 4, nfiles = 16, fsize = 1048576;

static void point(bool good, const char *fmt, ...)
{
	va_list ap;

	npoints++;
	if (!good)
		nfailed++;
	printf("%sok %u - ", good ? "" : "not ", npoints);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static void die(const char *why)
{
	fprintf(stderr, "nfs-bad: %s\n", why);
	exit(2);
}

/* A cursor over the results of a reply. */
struct rd {
	const uint8_t *p;
	size_t left;
	bool bad;
};

static uint32_t g32(struct rd *r)
{
	uint32_t v;

	if (r->left < 4) {
		r->bad = true;
		return 0;
	}
	v = rd_u32(r->p);
	r->p += 4;
	r->left -= 4;
	return v;
}

static uint64_t g64(struct rd *r)
{
	uint64_t hi = g32(r);

	return hi << 32 | g32(r);
}

static void skip(struct rd *r, size_t n)
{
	n = (n + 3) & ~(size_t)3;
	if (r->left < n) {
		r->bad = true;
		r->left = 0;
		return;
	}
	r->p += n;
	r->left -= n;
}

struct fattr {
	uint32_t type, mode, nlink;
	uint64_t size, fileid;
};

static void get_fattr(struct rd *r, struct fattr *a)
{
	a->type = g32(r);
	a->mode = g32(r);
	a->nlink = g32(r);
	skip(r, 8);		/* uid, gid */
	a->size = g64(r);
	skip(r, 8 + 8 + 8);	/* used, rdev, fsid */
	a->fileid = g64(r);
	skip(r, 24);		/* atime, mtime, ctime */
}

/* post_op_attr: whether attributes followed (then in *a, if given). */
static bool get_post_op(struct rd *r, struct fattr *a)
{
	struct fattr tmp;

	if (!g32(r))
		return false;
	get_fattr(r, a ? a : &tmp);
	return true;
}

struct fh {
	uint8_t b[64];
	uint32_t len;
};

static void get_fh(struct rd *r, struct fh *fh)
{
	fh->len = g32(r);
	if (fh->len > sizeof(fh->b)) {
		r->bad = true;
		fh->len = 0;
		return;
	}
	if (r->left >= fh->len)
		memcpy(fh->b, r->p, fh->len);
	skip(r, fh->len);
}

/* The reply to the last call, as a record. */
static struct xbuf reply;

/*
 * Call proc of prog/vers with the arguments in args; the reply header in
 * *rep and, when accepted with SUCCESS, a cursor over its results in *r.
 * Returns false (with a diagnostic) when no reply came or it did not
 * decode.
 */
static bool call(uint32_t prog, uint32_t vers, uint32_t proc,
		 const struct xbuf *args, struct rpc_reply *rep, struct rd *r)
{
	uint64_t deadline = mono_ms() + TIMEOUT_MS;
	struct xbuf msg, out;
	uint32_t xid = next_xid++;
	enum net_status st;
	char err[200];

	xb_init(&msg);
	rpc_enc_call(&msg, xid, 2, prog, vers, proc, &rpc_auth_none,
		     &rpc_auth_none);
	if (args)
		xb_put(&msg, args->p, args->len);
	xb_init(&out);
	if (target.socktype == SOCK_STREAM)
		rm_record(&out, msg.p, msg.len);
	else
		xb_put(&out, msg.p, msg.len);
	xb_free(&msg);
	st = net_send_all(fd, out.p, out.len, deadline);
	xb_free(&out);
	if (st != NET_OK) {
		printf("# send: %s\n", net_status_text(st, errno));
		return false;
	}
	xb_reset(&reply);
	if (target.socktype == SOCK_STREAM) {
		st = net_recv_record(fd, &reply, MAX_REPLY, deadline);
	} else {
		size_t len;

		xb_reset(&reply);
		xb_zero(&reply, 65536);
		st = net_recv_dgram(fd, reply.p, 65536, &len, deadline);
		reply.len = len;
	}
	if (st != NET_OK) {
		printf("# receive: %s\n", net_status_text(st, errno));
		return false;
	}
	if (rpc_dec_reply(reply.p, reply.len, rep, err, sizeof(err)) ||
	    rep->xid != xid) {
		printf("# reply does not decode: %s\n", err);
		return false;
	}
	r->p = rep->results;
	r->left = rep->results_len;
	r->bad = false;
	return true;
}

/* A call whose reply must be accepted with SUCCESS: its results' first
 * word (the procedure's status) in *stat, the rest in *r.
 */
static bool call_ok(uint32_t prog, uint32_t proc, const struct xbuf *args,
		    uint32_t *stat, struct rd *r)
{
	struct rpc_reply rep;
	char why[200];

	if (!call(prog, 3, proc, args, &rep, r))
		return false;
	if (rep.reply_stat != RPC_MSG_ACCEPTED ||
	    rep.accept_stat != RPC_ACC_SUCCESS) {
		rpc_reply_describe(&rep, why, sizeof(why));
		printf("# not SUCCESS: %s\n", why);
		return false;
	}
	*stat = g32(r);
	return !r->bad;
}

/* The accept status of a call (~0u when there was no accepted reply). */
static uint32_t accept_stat(uint32_t prog, uint32_t vers, uint32_t proc,
			    const struct xbuf *args, struct rpc_reply *rep)
{
	struct rd r;

	if (!call(prog, vers, proc, args, rep, &r) ||
	    rep->reply_stat != RPC_MSG_ACCEPTED)
		return ~0u;
	return rep->accept_stat;
}

static bool export_bytes_match(uint64_t fileid, uint64_t off,
			       const uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		uint64_t o = off + i;
		uint8_t want = file_word(fileid, o / 8) >> (8 * (o % 8));

		if (p[i] != want) {
			printf("# byte %llu of file %llu: %#x, want %#x\n",
			       (unsigned long long)o,
			       (unsigned long long)fileid, p[i], want);
			return false;
		}
	}
	return true;
}

static void args_fh(struct xbuf *a, const struct fh *fh)
{
	xb_init(a);
	xb_opaque(a, fh->b, fh->len);
}

static void args_name(struct xbuf *a, const struct fh *dir, const char *name,
		      size_t len)
{
	args_fh(a, dir);
	xb_opaque(a, name, (uint32_t)len);
}

static void args_read(struct xbuf *a, const struct fh *fh, uint64_t off,
		      uint32_t count)
{
	args_fh(a, fh);
	xb_u32(a, (uint32_t)(off >> 32));
	xb_u32(a, (uint32_t)off);
	xb_u32(a, count);
}

static void args_readdir(struct xbuf *a, const struct fh *dir, uint64_t cookie,
			 const uint8_t *verf, bool plus, uint32_t count)
{
	static const uint8_t zero[8];

	args_fh(a, dir);
	xb_u32(a, (uint32_t)(cookie >> 32));
	xb_u32(a, (uint32_t)cookie);
	xb_put(a, verf ? verf : zero, 8);
	if (plus)
		xb_u32(a, count / 8);	/* dircount, as Linux sends it */
	xb_u32(a, count);
}

/* MNT path: the status, and the handle in *fh when MNT3_OK. */
static uint32_t mnt(const char *path, size_t len, struct fh *fh)
{
	struct xbuf a;
	struct rd r;
	uint32_t stat = ~0u;

	xb_init(&a);
	xb_opaque(&a, path, (uint32_t)len);
	if (call_ok(MOUNT_PROG, 1, &a, &stat, &r) && stat == 0 && fh)
		get_fh(&r, fh);
	xb_free(&a);
	return stat;
}

/* An NFS call on one handle (GETATTR, READLINK...): its status. */
static uint32_t nfs_fh_call(uint32_t proc, const struct fh *fh, struct rd *r)
{
	struct xbuf a;
	uint32_t stat = ~0u;

	args_fh(&a, fh);
	if (!call_ok(NFS_PROG, proc, &a, &stat, r))
		stat = ~0u;
	xb_free(&a);
	return stat;
}

/* LOOKUP name in dir: the status; the handle and attributes when OK. */
static uint32_t lookup(const struct fh *dir, const char *name, size_t len,
		       struct fh *fh, struct fattr *attr)
{
	struct xbuf a;
	struct rd r;
	uint32_t stat = ~0u;

	args_name(&a, dir, name, len);
	if (call_ok(NFS_PROG, P_LOOKUP, &a, &stat, &r) && stat == NFS3_OK) {
		get_fh(&r, fh);
		if (!get_post_op(&r, attr))
			stat = ~0u;
	}
	xb_free(&a);
	return stat;
}

static void mount_cases(struct fh *root)
{
	struct rpc_reply rep;
	struct fh fh;
	struct rd r;
	uint32_t stat;
	char *path;
	struct xbuf a;

	stat = mnt("/", 1, root);
	point(stat == 0 && root->len > 0 && root->len <= 64,
	      "MNT / gives MNT3_OK and a handle (%u bytes)", root->len);
	point(mnt("/d0", 3, &fh) == 0, "MNT /d0 (a directory) gives MNT3_OK");
	point(mnt("/nope", 5, NULL) == 2, "MNT /nope gives MNT3ERR_NOENT");
	point(mnt("/d0/f0", 6, NULL) == 20, "MNT /d0/f0 (a file) gives MNT3ERR_NOTDIR");
	point(mnt("d0", 2, NULL) == 2, "MNT of a relative path gives MNT3ERR_NOENT");
	path = malloc(1100);
	if (!path)
		die("out of memory");
	path[0] = '/';
	memset(path + 1, 'a', 1099);
	point(mnt(path, 257, NULL) == 63,
	      "MNT of a 256-byte component gives MNT3ERR_NAMETOOLONG");
	xb_init(&a);
	xb_opaque(&a, path, 1025);
	point(accept_stat(MOUNT_PROG, 3, 1, &a, &rep) == RPC_ACC_GARBAGE_ARGS,
	      "MNT of a path over MNTPATHLEN (1025 bytes) gives GARBAGE_ARGS");
	xb_free(&a);
	free(path);
	point(call_ok(MOUNT_PROG, 5, NULL, &stat, &r) && stat == 1 &&
	      g32(&r) == 1 && r.left >= 4 && r.p[0] == '/' &&
	      (skip(&r, 4), g32(&r) == 0) && g32(&r) == 0 && !r.bad,
	      "EXPORT lists \"/\" alone, open to every host");
	point(call_ok(MOUNT_PROG, 2, NULL, &stat, &r) && stat == 0 &&
	      r.left == 0, "DUMP gives the empty list");
	stat = accept_stat(MOUNT_PROG, 1, 0, NULL, &rep);
	point(stat == RPC_ACC_PROG_MISMATCH && rep.low == 3 && rep.high == 3,
	      "MOUNT version 1 gives PROG_MISMATCH 3..3 (%u..%u)", rep.low,
	      rep.high);
}

static void handle_cases(const struct fh *root)
{
	struct rpc_reply rep;
	struct fattr at;
	struct xbuf a;
	struct fh fh;
	struct rd r;
	uint32_t stat;

	stat = nfs_fh_call(P_GETATTR, root, &r);
	get_fattr(&r, &at);
	point(stat == NFS3_OK && !r.bad && at.type == 2 && at.fileid == 1 &&
	      (at.mode & 07777) == 0555 && at.nlink == 2 + ndirs,
	      "GETATTR of the root: a directory, fileid 1, mode 0555, nlink %llu",
	      (unsigned long long)(2 + ndirs));
	for (uint32_t len = 0; len <= 64; len += 8) {
		if (len == root->len)
			continue;
		fh = *root;
		fh.len = len;
		point(nfs_fh_call(P_GETATTR, &fh, &r) == NFS3ERR_BADHANDLE,
		      "GETATTR of a %u-byte handle gives NFS3ERR_BADHANDLE", len);
	}
	fh = *root;
	fh.len = 65;
	args_fh(&a, &fh);
	point(accept_stat(NFS_PROG, 3, P_GETATTR, &a, &rep) == RPC_ACC_GARBAGE_ARGS,
	      "GETATTR of a 65-byte handle (over NFS3_FHSIZE) gives GARBAGE_ARGS");
	xb_free(&a);
	fh = *root;
	fh.b[0] ^= 0x40;
	point(nfs_fh_call(P_GETATTR, &fh, &r) == NFS3ERR_BADHANDLE,
	      "GETATTR of a handle with another magic gives NFS3ERR_BADHANDLE");
	fh = *root;
	fh.b[5] ^= 0x10;
	point(nfs_fh_call(P_GETATTR, &fh, &r) == NFS3ERR_STALE,
	      "GETATTR of a handle of another load (verifier) gives NFS3ERR_STALE");
	fh = *root;
	memset(fh.b + 8, 0x7f, 8);
	point(nfs_fh_call(P_GETATTR, &fh, &r) == NFS3ERR_STALE,
	      "GETATTR of a handle naming no file gives NFS3ERR_STALE");
	fh = *root;
	memset(fh.b + 8, 0, 8);
	point(nfs_fh_call(P_GETATTR, &fh, &r) == NFS3ERR_STALE,
	      "GETATTR of a handle of fileid 0 gives NFS3ERR_STALE");
	stat = accept_stat(NFS_PROG, 2, 0, NULL, &rep);
	point(stat == RPC_ACC_PROG_MISMATCH && rep.low == 3 && rep.high == 3,
	      "NFS version 2 gives PROG_MISMATCH 3..3 (%u..%u)", rep.low, rep.high);
	point(accept_stat(NFS_PROG, 3, 22, NULL, &rep) == RPC_ACC_PROC_UNAVAIL,
	      "NFS procedure 22 gives PROC_UNAVAIL");
	point(accept_stat(NFS_PROG, 3, P_GETATTR, NULL, &rep) == RPC_ACC_GARBAGE_ARGS,
	      "GETATTR without its handle gives GARBAGE_ARGS");
}

static void lookup_cases(const struct fh *root, struct fh *dir, struct fh *file)
{
	struct fattr at;
	struct fh fh;
	char name[300];
	static const char *const noent[] = { "d00", "d", "x0", "", "d0/", "D0" };

	point(lookup(root, "d0", 2, dir, &at) == NFS3_OK && at.fileid == 2 &&
	      at.type == 2, "LOOKUP d0 in the root: a directory, fileid 2");
	point(lookup(root, "..", 2, &fh, &at) == NFS3_OK && at.fileid == 1,
	      "LOOKUP .. at the root gives the root");
	point(lookup(root, ".", 1, &fh, &at) == NFS3_OK && at.fileid == 1,
	      "LOOKUP . gives the directory itself");
	point(lookup(dir, "..", 2, &fh, &at) == NFS3_OK && at.fileid == 1,
	      "LOOKUP .. in d0 gives the root");
	point(lookup(dir, "f0", 2, file, &at) == NFS3_OK && at.type == 1 &&
	      at.fileid == 2 + ndirs && at.size == file_size(2 + ndirs, fsize) &&
	      (at.mode & 07777) == 0444,
	      "LOOKUP f0 in d0: a file of %llu bytes, mode 0444",
	      (unsigned long long)file_size(2 + ndirs, fsize));
	snprintf(name, sizeof(name), "d%llu", (unsigned long long)ndirs);
	point(lookup(root, name, strlen(name), &fh, &at) == NFS3ERR_NOENT,
	      "LOOKUP %s (one past the last) gives NFS3ERR_NOENT", name);
	for (size_t i = 0; i < sizeof(noent) / sizeof(noent[0]); i++)
		point(lookup(root, noent[i], strlen(noent[i]), &fh, &at) ==
		      NFS3ERR_NOENT, "LOOKUP \"%s\" gives NFS3ERR_NOENT", noent[i]);
	memset(name, 'a', sizeof(name));
	point(lookup(root, name, 255, &fh, &at) == NFS3ERR_NOENT,
	      "LOOKUP of a 255-byte name gives NFS3ERR_NOENT");
	point(lookup(root, name, 256, &fh, &at) == NFS3ERR_NAMETOOLONG,
	      "LOOKUP of a 256-byte name gives NFS3ERR_NAMETOOLONG");
	point(lookup(file, "x", 1, &fh, &at) == NFS3ERR_NOTDIR,
	      "LOOKUP in a file gives NFS3ERR_NOTDIR");
}

/* READ: status, count and eof, the data checked against the formula. */
static uint32_t do_read(const struct fh *fh, uint64_t fileid, uint64_t off,
			uint32_t count, uint32_t *got, bool *eof, bool *match)
{
	struct xbuf a;
	struct rd r;
	uint32_t stat = ~0u, len;

	*got = 0;
	*eof = false;
	*match = false;
	args_read(&a, fh, off, count);
	if (call_ok(NFS_PROG, P_READ, &a, &stat, &r) && stat == NFS3_OK) {
		get_post_op(&r, NULL);
		*got = g32(&r);
		*eof = g32(&r);
		len = g32(&r);
		*match = !r.bad && len == *got && r.left >= len &&
			 export_bytes_match(fileid, off, r.p, len);
	}
	xb_free(&a);
	return stat;
}

static uint32_t fsinfo_rtmax(const struct fh *root)
{
	struct rd r;

	if (nfs_fh_call(P_FSINFO, root, &r) != NFS3_OK)
		return 0;
	get_post_op(&r, NULL);
	return g32(&r);
}

static void read_cases(const struct fh *root, const struct fh *dir,
		       const struct fh *file)
{
	uint64_t id = 2 + ndirs, size = file_size(id, fsize);
	uint32_t rtmax = fsinfo_rtmax(root), got, stat;
	bool eof, match;

	point(rtmax >= 4096 && rtmax % 4096 == 0,
	      "FSINFO's rtmax (%u) is a multiple of 4096", rtmax);
	point(do_read(file, id, 0, 4096, &got, &eof, &match) == NFS3_OK &&
	      got == 4096 && !eof && match,
	      "READ 4096 bytes at 0: all of them, the export's bytes");
	point(do_read(file, id, 4093, 13, &got, &eof, &match) == NFS3_OK &&
	      got == 13 && match, "READ 13 bytes at 4093 (unaligned): the export's bytes");
	point(do_read(file, id, size - 5, 100, &got, &eof, &match) == NFS3_OK &&
	      got == 5 && eof && match, "READ across the end: the last 5 bytes and eof");
	point(do_read(file, id, size, 100, &got, &eof, &match) == NFS3_OK &&
	      got == 0 && eof, "READ at the end: no bytes, eof");
	point(do_read(file, id, size + 4096, 100, &got, &eof, &match) == NFS3_OK &&
	      got == 0 && eof, "READ past the end: no bytes, eof");
	point(do_read(file, id, UINT64_MAX - 3, 100, &got, &eof, &match) == NFS3_OK &&
	      got == 0 && eof, "READ at offset 2^64 - 4: no bytes, eof");
	point(do_read(file, id, 0, 0, &got, &eof, &match) == NFS3_OK &&
	      got == 0 && !eof, "READ of count 0: no bytes, not eof");
	stat = do_read(file, id, 0, UINT32_MAX, &got, &eof, &match);
	point(stat == NFS3_OK && got > 0 && got <= rtmax && match &&
	      (got == size || target.socktype == SOCK_DGRAM || got == rtmax),
	      "READ of count 2^32 - 1: %u bytes, at most rtmax (%u), the export's",
	      got, rtmax);
	point(do_read(dir, 2, 0, 100, &got, &eof, &match) == NFS3ERR_ISDIR,
	      "READ of a directory gives NFS3ERR_ISDIR");
}

/* READDIR or READDIRPLUS of dir from cookie: the status; the entries'
 * count, the last cookie and eof when OK.
 */
static uint32_t readdir(const struct fh *dir, uint64_t cookie,
			const uint8_t *verf, bool plus, uint32_t count,
			unsigned int *n, uint64_t *last, bool *eof,
			uint8_t *verf_out, bool *names_ok)
{
	struct xbuf a;
	struct rd r;
	uint32_t stat = ~0u;

	*n = 0;
	*eof = false;
	*names_ok = true;
	args_readdir(&a, dir, cookie, verf, plus, count);
	if (call_ok(NFS_PROG, plus ? P_READDIRPLUS : P_READDIR, &a, &stat, &r) &&
	    stat == NFS3_OK) {
		get_post_op(&r, NULL);
		if (r.left >= 8 && verf_out)
			memcpy(verf_out, r.p, 8);
		skip(&r, 8);
		while (g32(&r) && !r.bad) {
			uint64_t fileid = g64(&r);
			uint32_t len = g32(&r);
			char want[32];

			if (*n == 0 && cookie == 0)
				snprintf(want, sizeof(want), ".");
			else if (*n == 1 && cookie == 0)
				snprintf(want, sizeof(want), "..");
			else
				want[0] = 0;
			if (want[0] && (len != strlen(want) || r.left < len ||
					memcmp(r.p, want, len)))
				*names_ok = false;
			(void)fileid;
			skip(&r, len);
			*last = g64(&r);
			if (plus) {
				get_post_op(&r, NULL);
				if (g32(&r)) {
					struct fh fh;

					get_fh(&r, &fh);
				}
			}
			(*n)++;
		}
		*eof = g32(&r);
		if (r.bad)
			stat = ~0u;
	}
	xb_free(&a);
	return stat;
}

static void readdir_cases(const struct fh *root, const struct fh *file)
{
	unsigned int n, total = 0;
	uint64_t last = 0, cookie = 0;
	uint8_t verf[8], bad[8];
	bool eof = false, names;
	uint32_t stat;

	point(readdir(root, 0, NULL, false, 8192, &n, &last, &eof, verf,
		      &names) == NFS3_OK && n == 2 + ndirs && eof && names,
	      "READDIR of the root: ., .. and %llu directories, eof",
	      (unsigned long long)ndirs);
	/* a small count: the listing in pieces, resumed at each cookie */
	do {
		stat = readdir(root, cookie, verf, false, 200, &n, &last, &eof,
			       NULL, &names);
		total += n;
		cookie = last;
	} while (stat == NFS3_OK && n && !eof && total < 100000);
	point(stat == NFS3_OK && eof && total == 2 + ndirs,
	      "READDIR of the root in 200-byte pieces: %u entries in all", total);
	point(readdir(root, 2 + ndirs + 1000, verf, false, 8192, &n, &last, &eof,
		      NULL, &names) == NFS3ERR_BAD_COOKIE,
	      "READDIR with a cookie never issued gives NFS3ERR_BAD_COOKIE");
	memcpy(bad, verf, 8);
	bad[7] ^= 1;
	point(readdir(root, 1, bad, false, 8192, &n, &last, &eof, NULL,
		      &names) == NFS3ERR_BAD_COOKIE,
	      "READDIR with another load's verifier gives NFS3ERR_BAD_COOKIE");
	point(readdir(root, 2 + ndirs, verf, false, 8192, &n, &last, &eof, NULL,
		      &names) == NFS3_OK && n == 0 && eof,
	      "READDIR from the last cookie: no entries, eof");
	point(readdir(root, 0, NULL, false, 16, &n, &last, &eof, NULL,
		      &names) == NFS3ERR_TOOSMALL,
	      "READDIR with count 16 gives NFS3ERR_TOOSMALL");
	point(readdir(file, 0, NULL, false, 8192, &n, &last, &eof, NULL,
		      &names) == NFS3ERR_NOTDIR,
	      "READDIR of a file gives NFS3ERR_NOTDIR");
	point(readdir(root, 0, NULL, true, 32768, &n, &last, &eof, NULL,
		      &names) == NFS3_OK && n == 2 + ndirs && eof && names,
	      "READDIRPLUS of the root: every entry with attributes and handle");
	point(readdir(root, 0, NULL, true, 100, &n, &last, &eof, NULL,
		      &names) == NFS3ERR_TOOSMALL,
	      "READDIRPLUS with maxcount 100 gives NFS3ERR_TOOSMALL");
}

static void other_cases(const struct fh *root, const struct fh *file)
{
	static const struct { uint32_t proc; const char *name; unsigned int words; }
	rofs[] = {
		{ P_SETATTR, "SETATTR", 2 }, { P_WRITE, "WRITE", 2 },
		{ P_CREATE, "CREATE", 2 }, { P_MKDIR, "MKDIR", 2 },
		{ P_SYMLINK, "SYMLINK", 2 }, { P_MKNOD, "MKNOD", 2 },
		{ P_REMOVE, "REMOVE", 2 }, { P_RMDIR, "RMDIR", 2 },
		{ P_RENAME, "RENAME", 4 }, { P_LINK, "LINK", 3 },
		{ P_COMMIT, "COMMIT", 2 },
	};
	struct xbuf a;
	struct fattr at;
	struct rd r;
	uint32_t stat;
	uint64_t nodes = 2 + ndirs + ndirs * nfiles - 1;

	for (size_t i = 0; i < sizeof(rofs) / sizeof(rofs[0]); i++) {
		bool all_absent = true;

		args_name(&a, root, "x", 1);
		stat = ~0u;
		if (!call_ok(NFS_PROG, rofs[i].proc, &a, &stat, &r))
			stat = ~0u;
		for (unsigned int w = 0; w < rofs[i].words; w++)
			all_absent &= g32(&r) == 0;
		point(stat == NFS3ERR_ROFS && all_absent && !r.bad && r.left == 0,
		      "%s gives NFS3ERR_ROFS and %u words of absent attributes",
		      rofs[i].name, rofs[i].words);
		xb_free(&a);
	}
	point(nfs_fh_call(P_READLINK, file, &r) == NFS3ERR_INVAL,
	      "READLINK of a file gives NFS3ERR_INVAL");
	/* ACCESS of every right (0x3f): READ and LOOKUP on a directory,
	 * READ on a file
	 */
	for (int i = 0; i < 2; i++) {
		args_fh(&a, i ? file : root);
		xb_u32(&a, 0x3f);
		point(call_ok(NFS_PROG, P_ACCESS, &a, &stat, &r) &&
		      stat == NFS3_OK && get_post_op(&r, NULL) &&
		      g32(&r) == (i ? 0x1u : 0x3u),
		      "ACCESS of everything on %s grants %s only",
		      i ? "a file" : "the root", i ? "READ" : "READ and LOOKUP");
		xb_free(&a);
	}
	stat = nfs_fh_call(P_FSSTAT, root, &r);
	get_post_op(&r, &at);
	{
		uint64_t tbytes = g64(&r), fbytes = g64(&r), abytes = g64(&r);
		uint64_t tfiles = g64(&r);

		point(stat == NFS3_OK && !r.bad && tbytes > 0 && fbytes == 0 &&
		      abytes == 0 && tfiles == nodes,
		      "FSSTAT: %llu files (%llu expected), none free",
		      (unsigned long long)tfiles, (unsigned long long)nodes);
	}
	stat = nfs_fh_call(P_PATHCONF, root, &r);
	get_post_op(&r, NULL);
	g32(&r);
	point(stat == NFS3_OK && g32(&r) == 255 && !r.bad,
	      "PATHCONF: name_max 255");
	point(nfs_fh_call(P_GETATTR, file, &r) == NFS3_OK,
	      "the server still answers GETATTR after every case");
}

enum { N_DIRS = 1, N_FILES, N_SIZE, N_HELP };

static const struct optdef defs[] = {
	TOOL_TARGET_OPTS,
	TOOL_PROTO_OPT,
	{ "dirs", 0, true, N_DIRS },
	{ "files", 0, true, N_FILES },
	{ "size", 0, true, N_SIZE },
	{ "help", 'h', false, N_HELP },
	{ NULL, 0, false, 0 },
};

/* One of nfs-bad's own options (toolopts.h). */
static void own_opt(void *ctx, const char *prog, const struct optdef *d,
		    const char *val)
{
	(void)ctx;
	if (d->id == N_HELP) {
		fputs(usage, stdout);
		exit(0);
	}
	/* --dirs, --files: at least 1; --size: at least 4096 */
	*(d->id == N_DIRS ? &ndirs : d->id == N_FILES ? &nfiles : &fsize) =
		opt_u64_or_exit(prog, d, val, d->id == N_SIZE ? 4096 : 1,
				UINT64_MAX, 0);
}

int main(int argc, char **argv)
{
	struct fh root, dir, file;

	tool_parse("nfs-bad", argc, argv, defs, own_opt, NULL, &target);
	fd = net_dial(&target.addr, target.socktype, TIMEOUT_MS, 0, 0, 0);
	if (fd < 0)
		die("cannot connect to the server");
	xb_init(&reply);
	printf("# nfs-bad against %s\n", target.addr.text);
	memset(&root, 0, sizeof(root));
	mount_cases(&root);
	if (root.len == 0)
		die("MNT / gave no handle: nothing more to try");
	handle_cases(&root);
	lookup_cases(&root, &dir, &file);
	read_cases(&root, &dir, &file);
	readdir_cases(&root, &file);
	other_cases(&root, &file);
	printf("1..%u\n", npoints);
	close(fd);
	xb_free(&reply);
	return nfailed ? 1 : 0;
}
