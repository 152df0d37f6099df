// SPDX-License-Identifier: GPL-2.0
/*
 * MOUNT version 3 (RFC 1813 appendix I) for the synthetic export
 * (svc_export.c): program 100005, version 3, on the port every other
 * program is served on, so that a client given mountport= needs no
 * rpcbind.
 *
 *  - MNT: the handle of the directory a path names, from the export's
 *    root "/" (so "/d0" mounts a directory of it), and the flavors
 *    AUTH_SYS and AUTH_NONE; a path naming nothing is MNT3ERR_NOENT, a
 *    file MNT3ERR_NOTDIR, a component longer than 255 bytes
 *    MNT3ERR_NAMETOOLONG; a path longer than MNTPATHLEN does not decode
 *    (GARBAGE_ARGS);
 *  - DUMP: an empty list: no record of mounts is kept (as a server
 *    without an rmtab), so UMNT and UMNTALL have nothing to undo;
 *  - EXPORT: "/", to everyone.
 * Errors are counted (mount3_err), not logged.  Everything here runs in a
 * server thread, in process context, with no lock held.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/string.h>
#include "svc_export.h"
#include "svc_program.h"

#define MOUNT3_PROGRAM		100005
#define MOUNT3_VERSION		3
#define MOUNT3_MNTPATHLEN	1024
#define MOUNT3_MNTNAMLEN	255

enum mount3_stat {
	MNT3_OK			= 0,
	MNT3ERR_NOENT		= 2,
	MNT3ERR_NOTDIR		= 20,
	MNT3ERR_NAMETOOLONG	= 63,
};

enum {
	MOUNTPROC3_NULL, MOUNTPROC3_MNT, MOUNTPROC3_DUMP, MOUNTPROC3_UMNT,
	MOUNTPROC3_UMNTALL, MOUNTPROC3_EXPORT, MOUNTPROC3_NR
};

#define MOUNT3_AUTH_NONE	0
#define MOUNT3_AUTH_SYS		1

static bool mount3_decode_dirpath(struct svc_xdr *x, union svc_proc_args *args)
{
	return svc_xdr_opaque(x, MOUNT3_MNTPATHLEN, &args->dirpath.path,
			      &args->dirpath.len);
}

/* The node path names, walked from the root one component at a time
 * ("." and ".." as LOOKUP takes them); MNT3_OK or the error.
 */
static u32 mount3_resolve(const u8 *path, u32 len, struct svc_node *n)
{
	struct svc_node next;
	u32 i = 0, j;

	if (!len || path[0] != '/')
		return MNT3ERR_NOENT;
	svc_export_node(SVC_EXPORT_ROOT, n);
	while (i < len) {
		if (path[i] == '/') {
			i++;
			continue;
		}
		for (j = i; j < len && path[j] != '/'; j++)
			;
		if (j - i > MOUNT3_MNTNAMLEN)
			return MNT3ERR_NAMETOOLONG;
		if (n->type != SVC_EXPORT_DIR)
			return MNT3ERR_NOTDIR;
		if (!svc_export_lookup(n, path + i, j - i, &next))
			return MNT3ERR_NOENT;
		*n = next;
		i = j;
	}
	return n->type == SVC_EXPORT_DIR ? MNT3_OK : MNT3ERR_NOTDIR;
}

static u32 mount3_proc_null(const union svc_proc_args *args,
			    struct svc_reply *r)
{
	return RPC_SUCCESS;
}

static u32 mount3_proc_mnt(const union svc_proc_args *args,
			   struct svc_reply *r)
{
	u8 fh[SVC_EXPORT_FH_SIZE];
	struct svc_node n;
	u32 stat;

	stat = mount3_resolve(args->dirpath.path, args->dirpath.len, &n);
	svc_put(r, stat);
	if (stat != MNT3_OK) {
		svc_stat_inc(SVC_STAT_MOUNT3_ERR);
		return RPC_SUCCESS;
	}
	svc_export_fh(n.fileid, fh);
	svc_put_opaque(r, fh, sizeof(fh));
	svc_put(r, 2);			/* auth_flavors */
	svc_put(r, MOUNT3_AUTH_SYS);
	svc_put(r, MOUNT3_AUTH_NONE);
	return RPC_SUCCESS;
}

/* DUMP: no mount is recorded; the list is empty. */
static u32 mount3_proc_dump(const union svc_proc_args *args,
			    struct svc_reply *r)
{
	svc_put(r, 0);
	return RPC_SUCCESS;
}

/* UMNT and UMNTALL: nothing recorded, nothing to remove; no results. */
static u32 mount3_proc_umnt(const union svc_proc_args *args,
			    struct svc_reply *r)
{
	return RPC_SUCCESS;
}

/* EXPORT: one export, "/", with no group list: open to every host. */
static u32 mount3_proc_export(const union svc_proc_args *args,
			      struct svc_reply *r)
{
	svc_put(r, 1);			/* an export follows */
	svc_put_opaque(r, "/", 1);
	svc_put(r, 0);			/* groups: none */
	svc_put(r, 0);			/* no more exports */
	return RPC_SUCCESS;
}

#define MOUNT3_PROC(num, name, dec, func, ressize)			\
	SVC_PROCEDURE(MOUNTPROC3_##num, name, dec, func, ressize,	\
		      SVC_STAT_CALLS_MOUNT3)

static const struct svc_procedure mount3_procedures[MOUNTPROC3_NR] = {
	MOUNT3_PROC(NULL, "NULL", NULL, mount3_proc_null, 0),
	MOUNT3_PROC(MNT, "MNT", mount3_decode_dirpath, mount3_proc_mnt,
		    4 + 4 + SVC_EXPORT_FH_SIZE + 12),
	MOUNT3_PROC(DUMP, "DUMP", NULL, mount3_proc_dump, 4),
	MOUNT3_PROC(UMNT, "UMNT", mount3_decode_dirpath, mount3_proc_umnt, 0),
	MOUNT3_PROC(UMNTALL, "UMNTALL", NULL, mount3_proc_umnt, 0),
	MOUNT3_PROC(EXPORT, "EXPORT", NULL, mount3_proc_export, 20),
};

const struct svc_program svc_mount3_program =
	SVC_PROGRAM_ONE_VERSION(MOUNT3_PROGRAM, MOUNT3_VERSION,
				mount3_procedures, MOUNTPROC3_NR);
