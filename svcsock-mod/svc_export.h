/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The synthetic export that NFS version 3 and MOUNT version 3 serve
 * (svc_export.c): a read-only tree computed from three module parameters,
 * with no storage behind it.
 */
#ifndef _SVC_EXPORT_H
#define _SVC_EXPORT_H

#include <linux/types.h>

/* NFS version 3's file types (ftype3) used here. */
#define SVC_EXPORT_REG		1
#define SVC_EXPORT_DIR		2

/* The root's fileid; the longest name in the tree ("d" or "f" and ten
 * digits); a file handle's length.
 */
#define SVC_EXPORT_ROOT		1
#define SVC_EXPORT_NAME_MAX	11
#define SVC_EXPORT_FH_SIZE	16

/**
 * struct svc_node - one file or directory of the export
 * @fileid: its number, 1 for the root
 * @type: SVC_EXPORT_REG or SVC_EXPORT_DIR
 * @size: a file's length in bytes; a directory's is 4096
 * @nlink: its links: a directory's 2 and one per subdirectory
 * @parent: the fileid of the directory holding it (the root's is 1)
 * @nchildren: a directory's entries other than "." and ".."
 */
struct svc_node {
	u64	fileid;
	u32	type;
	u64	size;
	u32	nlink;
	u64	parent;
	u32	nchildren;
};

int svc_export_init(void);
bool svc_export_node(u64 fileid, struct svc_node *n);
int svc_export_child(const struct svc_node *dir, u32 index,
		     struct svc_node *child, char *name);
bool svc_export_lookup(const struct svc_node *dir, const u8 *name, u32 len,
		       struct svc_node *child);
void svc_export_fh(u64 fileid, u8 *fh);
int svc_export_fh_decode(const u8 *fh, u32 len, struct svc_node *n);
void svc_export_read(u64 fileid, u64 offset, u8 *buf, size_t len);
const u8 *svc_export_contents(u64 fileid, u64 size);
void svc_export_exit(void);
u64 svc_export_verifier(void);
s64 svc_export_time(void);
u64 svc_export_bytes(void);
u64 svc_export_files(void);

#endif /* _SVC_EXPORT_H */
