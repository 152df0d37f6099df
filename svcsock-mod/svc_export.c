// SPDX-License-Identifier: GPL-2.0
/*
 * The synthetic export: a read-only tree with no storage behind it, for
 * NFS clients to mount (svc_nfs3.c, svc_mount3.c).  Its shape and sizes
 * are module parameters, read once at load:
 *
 *   /             fileid 1
 *   /dI           fileid 2 + I, for I < export_dirs
 *   /dI/fJ        fileid 2 + export_dirs + I * export_files + J, for
 *                 J < export_files; a regular file
 *
 * File N is export_file_size - ((N % 8) * 1021) % (export_file_size + 1)
 * bytes long (so that most end inside a page), and its byte at offset O
 * is byte O % 8, little-endian, of a 64-bit mix (splitmix64's finalizer)
 * of O / 8 + N * 0x9e3779b97f4a7c15: a pure function of (N, O) that
 * tests/tools/nfs-tree regenerates to check what a client read.
 * Directories are mode 0555, files 0444, owned by root, and every time is
 * the time of the load.
 *
 * A file handle is 16 bytes: a magic word, the load's verifier (random,
 * drawn at load) and the fileid.  A handle of another length or magic is
 * NFS3ERR_BADHANDLE; one of an earlier load (another verifier) or naming
 * no file, NFS3ERR_STALE.
 *
 * Nothing here changes after svc_export_init(): every function may be
 * called from any thread without a lock.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/random.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <asm/unaligned.h>
#include "svc_export.h"

#define SVC_EXPORT_MAGIC	0x73766668	/* "svfh" */
#define SVC_EXPORT_MAX_DIRS	65536
#define SVC_EXPORT_MAX_NODES	BIT(24)
#define SVC_EXPORT_MAX_SIZE	BIT_ULL(40)

static unsigned int export_dirs = 4;
module_param(export_dirs, uint, 0444);
MODULE_PARM_DESC(export_dirs,
		 "Directories under the NFS export's root (1..65536, default 4)");

static unsigned int export_files = 16;
module_param(export_files, uint, 0444);
MODULE_PARM_DESC(export_files,
		 "Files in each directory of the NFS export (default 16)");

static unsigned long long export_file_size = 1048576;
module_param(export_file_size, ullong, 0444);
MODULE_PARM_DESC(export_file_size,
		 "Largest file of the NFS export in bytes (at most 2^40, default 1 MiB)");

/* Drawn at load; never 0, so that a zeroed handle is always stale. */
static u32 svc_export_verf;
static s64 svc_export_mtime;

/**
 * svc_export_init() - Check the export's parameters and start a load
 *
 * Context: Process context, the module's init, before any socket exists.
 * Return: 0, or -EINVAL (said in the log) for parameters out of range.
 */
int svc_export_init(void)
{
	if (export_dirs < 1 || export_dirs > SVC_EXPORT_MAX_DIRS ||
	    (u64)export_dirs * export_files + export_dirs + 2 >
	    SVC_EXPORT_MAX_NODES || export_file_size > SVC_EXPORT_MAX_SIZE) {
		pr_err("export_dirs=%u export_files=%u export_file_size=%llu: at most %u directories, %lu entries, 2^40 bytes a file\n",
		       export_dirs, export_files, export_file_size,
		       SVC_EXPORT_MAX_DIRS, SVC_EXPORT_MAX_NODES);
		return -EINVAL;
	}
	/* The verifier makes every handle of an earlier load stale. */
	svc_export_verf = get_random_u32() | 1;
	svc_export_mtime = ktime_get_real_seconds();
	return 0;
}

/* The first regular file's fileid. */
static u64 svc_export_first_file(void)
{
	return 2 + (u64)export_dirs;
}

/**
 * svc_export_files() - How many entries the export has, root included
 *
 * Return: the count of files and directories.
 */
u64 svc_export_files(void)
{
	return svc_export_first_file() + (u64)export_dirs * export_files - 1;
}

/* The length of file fileid (a regular file's fileid). */
static u64 svc_export_size(u64 fileid)
{
	return export_file_size -
	       ((fileid % 8) * 1021) % (export_file_size + 1);
}

/**
 * svc_export_bytes() - The bytes of all the export's files together
 *
 * Return: their sum.
 */
u64 svc_export_bytes(void)
{
	u64 first = svc_export_first_file();
	u64 n = (u64)export_dirs * export_files, id, sum = 0;

	/* The sizes repeat every 8 fileids. */
	for (id = first; id < first + min_t(u64, n, 8); id++)
		sum += svc_export_size(id) * ((n - (id - first) + 7) / 8);
	return sum;
}

/**
 * svc_export_verifier() - The load's verifier
 *
 * Return: a value that differs between loads (READDIR's cookie verifier).
 */
u64 svc_export_verifier(void)
{
	return svc_export_verf;
}

/**
 * svc_export_time() - Every node's atime, mtime and ctime
 *
 * Return: the load's wall-clock time in seconds.
 */
s64 svc_export_time(void)
{
	return svc_export_mtime;
}

/**
 * svc_export_node() - Describe the node numbered fileid
 * @fileid: the node
 * @n: filled in when it exists
 *
 * Return: whether the export has a node numbered @fileid.
 */
bool svc_export_node(u64 fileid, struct svc_node *n)
{
	u64 first = svc_export_first_file();

	memset(n, 0, sizeof(*n));
	n->fileid = fileid;
	if (fileid == SVC_EXPORT_ROOT) {
		n->type = SVC_EXPORT_DIR;
		n->size = 4096;
		n->nlink = 2 + export_dirs;
		n->parent = SVC_EXPORT_ROOT;
		n->nchildren = export_dirs;
		return true;
	}
	if (fileid >= 2 && fileid < first) {
		n->type = SVC_EXPORT_DIR;
		n->size = 4096;
		n->nlink = 2;
		n->parent = SVC_EXPORT_ROOT;
		n->nchildren = export_files;
		return true;
	}
	if (fileid >= first && fileid <= svc_export_files()) {
		n->type = SVC_EXPORT_REG;
		n->size = svc_export_size(fileid);
		n->nlink = 1;
		n->parent = 2 + div64_u64(fileid - first, export_files);
		return true;
	}
	return false;
}

/**
 * svc_export_child() - Entry index of a directory
 * @dir: the directory
 * @index: which entry, from 0, below @dir->nchildren
 * @child: filled in with the entry's node
 * @name: filled in with its name, at least SVC_EXPORT_NAME_MAX + 1 bytes;
 *	or NULL
 *
 * Return: the length of the name (0 when @name is NULL).
 */
int svc_export_child(const struct svc_node *dir, u32 index,
		     struct svc_node *child, char *name)
{
	u64 fileid;

	if (dir->fileid == SVC_EXPORT_ROOT)
		fileid = 2 + (u64)index;
	else
		fileid = svc_export_first_file() +
			 (dir->fileid - 2) * export_files + index;
	svc_export_node(fileid, child);
	if (!name)
		return 0;
	return snprintf(name, SVC_EXPORT_NAME_MAX + 1, "%c%u",
			dir->fileid == SVC_EXPORT_ROOT ? 'd' : 'f', index);
}

/* The number a name of the export spells after its letter: decimal digits
 * without a leading zero (but "0" itself), below limit.
 */
static bool svc_export_index(const u8 *digits, u32 len, u32 limit, u32 *index)
{
	u64 v = 0;
	u32 i;

	if (len < 1 || len > SVC_EXPORT_NAME_MAX - 1 ||
	    (digits[0] == '0' && len > 1))
		return false;
	for (i = 0; i < len; i++) {
		if (digits[i] < '0' || digits[i] > '9')
			return false;
		v = v * 10 + digits[i] - '0';
	}
	if (v >= limit)
		return false;
	*index = v;
	return true;
}

/**
 * svc_export_lookup() - Find a name in a directory
 * @dir: the directory
 * @name: the name, not terminated; "." and ".." are the directory and its
 *	parent (the root's parent is the root)
 * @len: its length
 * @child: filled in when found
 *
 * Return: whether @dir has an entry called @name.
 */
bool svc_export_lookup(const struct svc_node *dir, const u8 *name, u32 len,
		       struct svc_node *child)
{
	char letter = dir->fileid == SVC_EXPORT_ROOT ? 'd' : 'f';
	u32 index;

	if (len == 1 && name[0] == '.') {
		*child = *dir;
		return true;
	}
	if (len == 2 && name[0] == '.' && name[1] == '.')
		return svc_export_node(dir->parent, child);
	if (len < 2 || name[0] != letter ||
	    !svc_export_index(name + 1, len - 1, dir->nchildren, &index))
		return false;
	svc_export_child(dir, index, child, NULL);
	return true;
}

/**
 * svc_export_fh() - The handle of a node
 * @fileid: the node
 * @fh: SVC_EXPORT_FH_SIZE bytes to fill in
 */
void svc_export_fh(u64 fileid, u8 *fh)
{
	put_unaligned_be32(SVC_EXPORT_MAGIC, fh);
	put_unaligned_be32(svc_export_verf, fh + 4);
	put_unaligned_be64(fileid, fh + 8);
}

/**
 * svc_export_fh_decode() - The node a handle names
 * @fh: the handle's bytes
 * @len: its length
 * @n: filled in with the node
 *
 * Return: 0, -EBADF for a handle that is not one of ours (wrong length or
 * magic: NFS3ERR_BADHANDLE), -ESTALE for one of an earlier load or of no
 * node (NFS3ERR_STALE).
 */
int svc_export_fh_decode(const u8 *fh, u32 len, struct svc_node *n)
{
	if (len != SVC_EXPORT_FH_SIZE ||
	    get_unaligned_be32(fh) != SVC_EXPORT_MAGIC)
		return -EBADF;
	if (get_unaligned_be32(fh + 4) != svc_export_verf ||
	    !svc_export_node(get_unaligned_be64(fh + 8), n))
		return -ESTALE;
	return 0;
}

/* The 8 bytes of file fileid at offset 8 * word, as a little-endian
 * integer: splitmix64's finalizer.  tests/tools/nfs-tree.c has the same.
 */
static u64 svc_export_word(u64 fileid, u64 word)
{
	u64 z = word + fileid * 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/**
 * svc_export_read() - A file's bytes
 * @fileid: the file
 * @offset: where to start
 * @buf: where to put them
 * @len: how many; the caller keeps @offset + @len within the file
 */
void svc_export_read(u64 fileid, u64 offset, u8 *buf, size_t len)
{
	u64 word = offset / 8;
	unsigned int skip = offset % 8;
	__le64 w;

	while (len) {
		size_t n = min_t(size_t, len, 8 - skip);

		w = cpu_to_le64(svc_export_word(fileid, word++));
		memcpy(buf, (u8 *)&w + skip, n);
		buf += n;
		len -= n;
		skip = 0;
	}
}
