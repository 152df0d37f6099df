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
 * Nothing here changes after svc_export_init() but the cache of file
 * contents: every function may be called from any thread without a lock.
 *
 * The cache (svc_export_contents()) keeps whole files, each generated at
 * its first READ, until the module unloads, so that READ sends a file's
 * bytes from where they are, as nfsd sends a page cache's pages, instead
 * of computing a mix per 8 bytes of every reply.  It takes at most
 * export_cache_mb MiB, whoever asks: a file that does not fit is
 * generated into each reply as before.  Its protocol is fill-once and
 * lock-free on the READ path:
 *
 *  - room is reserved from svc_export_cache_room with a cmpxchg loop
 *    before the file is allocated, so the bound holds whatever number of
 *    threads fill at once, and is given back when a fill is not kept;
 *  - a thread generates the file into memory no one else can see yet,
 *    then publishes it with xa_cmpxchg() from NULL: one fill wins, a
 *    loser frees its copy and uses the winner's;
 *  - xa_cmpxchg() stores the entry with rcu_assign_pointer(), a release,
 *    and xa_load() reads it with rcu_dereference(), so a thread that sees
 *    the pointer sees every byte generated before it was published;
 *  - entries are never removed while a thread runs: svc_export_exit()
 *    frees them after the last thread and socket are gone, so a pointer
 *    once seen stays valid for the call (and the send copies the bytes
 *    into the socket or sk_sendq before the call ends).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/random.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/xarray.h>
#include <asm/unaligned.h>
#include "svc_export.h"
#include "svcsock.h"

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

static unsigned int export_cache_mb = 64;
module_param(export_cache_mb, uint, 0444);
MODULE_PARM_DESC(export_cache_mb,
		 "Memory for the NFS export's file contents, each generated at its first READ and kept until unload, in MiB (0: generate every READ's bytes; at most 65536, default 64)");

#define SVC_EXPORT_MAX_CACHE_MB	65536

/* The cache of file contents, by fileid, and the bytes it may still take
 * (the comment above).
 */
static DEFINE_XARRAY(svc_export_cache);
static atomic_long_t svc_export_cache_room;

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
	if (export_cache_mb > SVC_EXPORT_MAX_CACHE_MB) {
		pr_err("export_cache_mb=%u is over %u\n", export_cache_mb,
		       SVC_EXPORT_MAX_CACHE_MB);
		return -EINVAL;
	}
	atomic_long_set(&svc_export_cache_room, (long)export_cache_mb << 20);
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

/* Reserve size bytes of the cache's room: false when it has not that
 * many left.
 */
static bool svc_export_cache_reserve(u64 size)
{
	long room = atomic_long_read(&svc_export_cache_room);

	do {
		if (size > (u64)room)
			return false;
	} while (!atomic_long_try_cmpxchg(&svc_export_cache_room, &room,
					  room - size));
	return true;
}

/**
 * svc_export_contents() - A whole file's bytes, from the cache
 * @fileid: a regular file's fileid
 * @size: its length, not 0
 *
 * Generates the file into the cache at its first call if the cache has
 * room for it (the comment at the top of this file).
 *
 * Context: Process context; may sleep.
 * Return: the file's @size bytes, which stay until svc_export_exit(); or
 * NULL when the cache cannot hold the file (the caller generates the
 * bytes it needs with svc_export_read()).
 */
const u8 *svc_export_contents(u64 fileid, u64 size)
{
	u8 *buf, *old;

	buf = xa_load(&svc_export_cache, fileid);
	if (buf)
		return buf;
	/* Whole pages of our own: the TCP class sends them by reference. */
	if (!svc_export_cache_reserve(PAGE_ALIGN(size)))
		return NULL;
	buf = svc_obj_vmalloc(size);
	if (!buf) {
		atomic_long_add(PAGE_ALIGN(size), &svc_export_cache_room);
		return NULL;
	}
	svc_export_read(fileid, 0, buf, size);
	/* Publish: the release in xa_cmpxchg() orders the bytes above
	 * before the pointer that xa_load() returns to other threads.
	 */
	old = xa_cmpxchg(&svc_export_cache, fileid, NULL, buf, GFP_KERNEL);
	if (old) {
		/* Another thread's fill won, or the entry could not be
		 * stored: this copy is not kept.
		 */
		svc_obj_free(buf);
		atomic_long_add(PAGE_ALIGN(size), &svc_export_cache_room);
		if (xa_is_err(old))
			return NULL;
		svc_stat_inc(SVC_STAT_NFS3_CACHE_FILLS_LOST);
		return old;
	}
	svc_stat_inc(SVC_STAT_NFS3_CACHE_FILLS);
	return buf;
}

/**
 * svc_export_exit() - Free the cache of file contents
 *
 * Context: Process context, once no thread or socket of the service is
 * left (svcsock_stop()), or when the service failed to start.
 */
void svc_export_exit(void)
{
	unsigned long index;
	u8 *buf;

	xa_for_each(&svc_export_cache, index, buf)
		svc_obj_free(buf);
	xa_destroy(&svc_export_cache);
}
