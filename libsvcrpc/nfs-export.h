/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nfs-export.h - the synthetic export's sizes and bytes, as the module
 * makes them (svcsock-mod/svc_export.c): compare these functions with
 * svc_export_size() and svc_export_word() there.  Used by nfs-tree (which
 * writes and checks the tree), nfs-bad (which checks READ's bytes) and
 * bench/nfs-slices (which checks what its reads return).
 */
#ifndef SVCRPC_NFS_EXPORT_H
#define SVCRPC_NFS_EXPORT_H

#include <stddef.h>
#include <stdint.h>

/* size of file n in a tree of files of nominal size S */
static inline uint64_t file_size(uint64_t n, uint64_t S)
{
	return S - ((n % 8) * 1021) % (S + 1);
}

/*
 * Bytes 8w..8w+7 of file n, little-endian: the byte at offset o is
 * (file_word(n, o / 8) >> (8 * (o % 8))) & 0xff.  splitmix64's finaliser
 * of w + n * golden ratio; all arithmetic wraps mod 2^64.
 */
static inline uint64_t file_word(uint64_t n, uint64_t w)
{
	uint64_t z = w + n * 0x9E3779B97F4A7C15ULL;

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* buf[0..len) = bytes off..off+len-1 of file n */
static inline void file_fill(uint64_t n, uint64_t off, unsigned char *buf, size_t len)
{
	size_t k = 0;

	while (k < len) {
		uint64_t o = off + k, z = file_word(n, o / 8);

		for (unsigned int b = o % 8; b < 8 && k < len; b++, k++)
			buf[k] = (unsigned char)(z >> (8 * b));
	}
}

#endif
