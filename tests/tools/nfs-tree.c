// SPDX-License-Identifier: GPL-2.0
/*
 * nfs-tree: the synthetic export of issue 26, on the client's side.
 *
 *   nfs-tree write DIR   creates the tree under DIR (e.g. a tmpfs that
 *                        kernel nfsd exports, to compare with the module)
 *   nfs-tree check DIR   walks DIR (e.g. an NFS mount of the module) and
 *                        checks its shape and every byte of every file
 *   nfs-tree list        prints each entry's path, fileid and size
 *   nfs-tree gen N O C   prints C bytes of file N from offset O, in hex
 *
 * The tree (the contract with the module, which generates the same):
 * "/" is fileid 1 and holds directories d0..d{D-1}; "di" is fileid 2+i
 * and holds regular files f0..f{F-1}; "fj" in "di" is fileid
 * n = 2 + D + i*F + j.  Directories are 0555, files 0444, owner 0:0.
 * The size and the bytes of file n are file_size() and file_word()
 * (nfs-export.h, shared with nfs-bad).
 *
 * check reads the files with --jobs processes (file k by process k % N),
 * with read() calls of --block bytes (1 MiB), so that the NFS client has
 * many large READs in flight; exit 0 when everything matched, 1 (with a
 * one-line reason) when something did not, 2 on a usage error.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "nfs-export.h"

#define MAX_DIRS 1000000ULL
#define MAX_FILES 1000000ULL
#define MAX_ENTRIES 10000000ULL
#define MAX_JOBS 256
#define MAX_BLOCK (64u << 20)

static struct {
	uint64_t dirs, files, size;
	unsigned int jobs;
	size_t block;
	bool json, direct, fileids, owner;
} opt = {
	.dirs = 4, .files = 16, .size = 1048576, .jobs = 1,
	.block = 1 << 20, .owner = true,
};

static const char *prog = "nfs-tree";

static void usage(FILE *f)
{
	fprintf(f,
"usage: nfs-tree write DIR [--dirs D] [--files F] [--size S]\n"
"       nfs-tree check DIR [--dirs D] [--files F] [--size S] [--jobs N]\n"
"                      [--block B] [--direct] [--fileids] [--no-owner] [--json]\n"
"       nfs-tree list [--dirs D] [--files F] [--size S]\n"
"       nfs-tree gen FILEID OFFSET COUNT\n"
"The synthetic export of issue 26: DIR/d0..d{D-1}, each with files\n"
"f0..f{F-1}; file fj of di has fileid n = 2 + D + i*F + j, size\n"
"S - ((n %% 8) * 1021) %% (S + 1) and bytes that are a function of (n, offset).\n"
"write creates it under DIR (DIR is created if missing; files 0444,\n"
"directories and DIR 0555, owner 0:0 when run as root).  check walks DIR:\n"
"no entry missing or extra, types, modes, owner, sizes, then every byte\n"
"of every file, read by N processes; one line (or --json, a JSON object),\n"
"exit 0 when everything matched, 1 with the first reason when not.\n"
"list prints \"PATH FILEID SIZE\" for each entry; gen prints bytes in hex.\n"
"  --dirs D      directories under the root (default 4)\n"
"  --files F     files per directory (default 16)\n"
"  --size S      nominal file size in bytes, K/M/G suffixes (default 1M)\n"
"  --jobs N      check: reader processes, 1-%d (default 1)\n"
"  --block B     check: bytes per read() (default 1M)\n"
"  --direct      check: open the files O_DIRECT\n"
"  --fileids     check: st_ino must be the fileid (an NFS mount of the module)\n"
"  --no-owner    check: do not require uid 0 and gid 0\n"
"  --json        check: print a JSON object on stdout (the line on stderr)\n"
"  -h, --help    this text\n", MAX_JOBS);
}

static void __attribute__((noreturn)) usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (--help)\n");
	exit(2);
}

/* a decimal u64 with an optional K, M or G (powers of 1024) */
static uint64_t parse_u64(const char *s, const char *what, bool suffix)
{
	char *end;
	unsigned long long v;
	unsigned int shift = 0;

	errno = 0;
	if (*s < '0' || *s > '9')
		usage_error("%s: not a number", what);
	v = strtoull(s, &end, 10);
	if (errno)
		usage_error("%s: out of range", what);
	if (suffix && *end && !end[1]) {
		switch (*end) {
		case 'k': case 'K': shift = 10; end++; break;
		case 'm': case 'M': shift = 20; end++; break;
		case 'g': case 'G': shift = 30; end++; break;
		}
	}
	if (*end)
		usage_error("%s: not a number", what);
	if (shift && v > (UINT64_MAX >> shift))
		usage_error("%s: out of range", what);
	return (uint64_t)v << shift;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t fileid(uint64_t i, uint64_t j)
{
	return 2 + opt.dirs + i * opt.files + j;
}

/* ---- write ---- */

static int fail(const char *what, const char *path)
{
	fprintf(stderr, "%s: %s %s: %s\n", prog, what, path, strerror(errno));
	return 1;
}

static int write_file(const char *path, uint64_t n, unsigned char *buf)
{
	uint64_t size = file_size(n, opt.size), off = 0;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		return fail("open", path);
	while (off < size) {
		size_t len = size - off < opt.block ? size - off : opt.block;
		ssize_t w;

		file_fill(n, off, buf, len);
		w = write(fd, buf, len);
		if (w < 0) {
			close(fd);
			return fail("write", path);
		}
		off += (uint64_t)w;
	}
	if ((geteuid() == 0 && fchown(fd, 0, 0)) || fchmod(fd, 0444)) {
		close(fd);
		return fail("chown/chmod", path);
	}
	if (close(fd))
		return fail("close", path);
	return 0;
}

static int finish_dir(const char *path)
{
	if ((geteuid() == 0 && lchown(path, 0, 0)) || chmod(path, 0555))
		return fail("chown/chmod", path);
	return 0;
}

static int cmd_write(const char *root)
{
	unsigned char *buf = malloc(opt.block);
	char path[4096];
	double t0 = now();

	if (!buf)
		return fail("malloc", "");
	if (mkdir(root, 0755) && errno != EEXIST)
		return fail("mkdir", root);
	for (uint64_t i = 0; i < opt.dirs; i++) {
		snprintf(path, sizeof(path), "%s/d%" PRIu64, root, i);
		if (mkdir(path, 0755) && errno != EEXIST)
			return fail("mkdir", path);
		for (uint64_t j = 0; j < opt.files; j++) {
			snprintf(path, sizeof(path), "%s/d%" PRIu64 "/f%" PRIu64,
				 root, i, j);
			if (write_file(path, fileid(i, j), buf))
				return 1;
		}
		snprintf(path, sizeof(path), "%s/d%" PRIu64, root, i);
		if (finish_dir(path))
			return 1;
	}
	if (finish_dir(root))
		return 1;
	free(buf);
	printf("nfs-tree write: %s: %" PRIu64 " dirs, %" PRIu64
	       " files of %" PRIu64 " bytes at most, %.2f s\n",
	       root, opt.dirs, opt.dirs * opt.files, opt.size, now() - t0);
	return 0;
}

/* ---- check ---- */

/* one file to read, and what reading it found (shared with the readers) */
struct entry {
	uint64_t n, size;	/* fileid, expected size */
	uint64_t i, j;		/* d<i>/f<j> */
	uint64_t got;		/* bytes read */
	uint64_t bad_off;	/* offset of the first wrong byte */
	int bad;		/* 0 fine, else one of enum bad */
	int err;		/* errno of a failed open/read */
	unsigned char want_b, got_b;
};

enum bad { BAD_NONE, BAD_BYTE, BAD_SHORT, BAD_LONG, BAD_OPEN, BAD_READ };

static struct {
	uint64_t mismatches;
	char path[4200];	/* the first mismatch (walk order, then file order) */
	char reason[4400];
	int64_t offset;		/* -1: not in a file's bytes */
} res = { .offset = -1 };

static void mismatch(const char *path, int64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void mismatch(const char *path, int64_t offset, const char *fmt, ...)
{
	va_list ap;

	if (res.mismatches++)
		return;
	snprintf(res.path, sizeof(res.path), "%s", path);
	res.offset = offset;
	va_start(ap, fmt);
	vsnprintf(res.reason, sizeof(res.reason), fmt, ap);
	va_end(ap);
}

/* lstat PATH and check its type, mode, owner, fileid and size */
static bool check_node(const char *path, bool dir, uint64_t n, uint64_t size)
{
	struct stat st;
	mode_t mode = dir ? 0555 : 0444;

	if (lstat(path, &st)) {
		mismatch(path, -1, "%s: %s", path, errno == ENOENT ? "missing" : strerror(errno));
		return false;
	}
	if (dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode)) {
		mismatch(path, -1, "%s: not a %s (mode %06o)", path,
			 dir ? "directory" : "regular file", (unsigned int)st.st_mode);
		return false;
	}
	if ((st.st_mode & 07777) != mode)
		mismatch(path, -1, "%s: mode %04o, not %04o", path,
			 (unsigned int)(st.st_mode & 07777), (unsigned int)mode);
	else if (opt.owner && (st.st_uid != 0 || st.st_gid != 0))
		mismatch(path, -1, "%s: owner %u:%u, not 0:0", path,
			 (unsigned int)st.st_uid, (unsigned int)st.st_gid);
	else if (opt.fileids && (uint64_t)st.st_ino != n)
		mismatch(path, -1, "%s: fileid (st_ino) %" PRIu64 ", not %" PRIu64,
			 path, (uint64_t)st.st_ino, n);
	else if (!dir && (uint64_t)st.st_size != size)
		mismatch(path, -1, "%s: size %" PRIu64 ", not %" PRIu64, path,
			 (uint64_t)st.st_size, size);
	return true;
}

/* is NAME "<c><k>" with k < max written without leading zeros? */
static bool expected_name(const char *name, char c, uint64_t max)
{
	char *end;
	unsigned long long k;

	if (name[0] != c || name[1] < '0' || name[1] > '9' ||
	    (name[1] == '0' && name[2]))
		return false;
	errno = 0;
	k = strtoull(name + 1, &end, 10);
	return !errno && !*end && k < max;
}

/* every entry of directory PATH is "<c><k>" with k < max; count them */
static void check_listing(const char *path, char c, uint64_t max)
{
	DIR *d = opendir(path);
	struct dirent *de;
	uint64_t seen = 0;

	if (!d) {
		mismatch(path, -1, "%s: opendir: %s", path, strerror(errno));
		return;
	}
	errno = 0;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (expected_name(de->d_name, c, max))
			seen++;
		else
			mismatch(path, -1, "%s: unexpected entry \"%s\"", path, de->d_name);
		errno = 0;
	}
	if (errno)
		mismatch(path, -1, "%s: readdir: %s", path, strerror(errno));
	else if (seen != max)	/* a name twice, or lstat found what readdir did not */
		mismatch(path, -1, "%s: readdir listed %" PRIu64 " of %" PRIu64
			 " entries", path, seen, max);
	closedir(d);
}

/* read one file and compare; the result goes into *e */
static void read_one(const char *root, struct entry *e, unsigned char *buf,
		     unsigned char *want)
{
	char path[4200];
	uint64_t off = 0;
	int fd;

	snprintf(path, sizeof(path), "%s/d%" PRIu64 "/f%" PRIu64, root, e->i, e->j);
	fd = open(path, O_RDONLY | (opt.direct ? O_DIRECT : 0));
	if (fd < 0) {
		e->bad = BAD_OPEN;
		e->err = errno;
		return;
	}
	for (;;) {
		ssize_t r = read(fd, buf, opt.block);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			e->bad = BAD_READ;
			e->err = errno;
			break;
		}
		if (r == 0) {
			if (off < e->size)
				e->bad = BAD_SHORT;
			break;
		}
		if (off + (uint64_t)r > e->size) {
			e->bad = BAD_LONG;
			off += (uint64_t)r;
			break;
		}
		file_fill(e->n, off, want, (size_t)r);
		if (memcmp(buf, want, (size_t)r)) {
			size_t k = 0;

			while (buf[k] == want[k])
				k++;
			e->bad = BAD_BYTE;
			e->bad_off = off + k;
			e->want_b = want[k];
			e->got_b = buf[k];
			off += (uint64_t)r;
			break;
		}
		off += (uint64_t)r;
	}
	e->got = off;
	close(fd);
}

static void reader(const char *root, struct entry *ents, size_t nents,
		   unsigned int k)
{
	unsigned char *buf, *want = malloc(opt.block);

	if (posix_memalign((void **)&buf, 4096, opt.block) || !want) {
		fprintf(stderr, "%s: out of memory\n", prog);
		_exit(3);
	}
	for (size_t f = k; f < nents; f += opt.jobs)
		read_one(root, &ents[f], buf, want);
	_exit(0);
}

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static int cmd_check(const char *root)
{
	uint64_t nfiles = opt.dirs * opt.files, bytes = 0, files = 0;
	struct entry *ents;
	size_t nents = 0;
	char path[4200];
	double t0 = now(), secs;
	pid_t pids[MAX_JOBS];
	FILE *line_to = opt.json ? stderr : stdout;

	ents = mmap(NULL, (nfiles ? nfiles : 1) * sizeof(*ents),
		    PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ents == MAP_FAILED)
		return fail("mmap", "");

	/* shape: expected entries in order (lstat: LOOKUP, GETATTR), then
	 * each listing for extras (READDIR, READDIRPLUS) */
	if (check_node(root, true, 1, 0)) {
		for (uint64_t i = 0; i < opt.dirs; i++) {
			snprintf(path, sizeof(path), "%s/d%" PRIu64, root, i);
			if (!check_node(path, true, 2 + i, 0))
				continue;
			for (uint64_t j = 0; j < opt.files; j++) {
				uint64_t n = fileid(i, j), size = file_size(n, opt.size);

				snprintf(path, sizeof(path), "%s/d%" PRIu64 "/f%" PRIu64,
					 root, i, j);
				if (check_node(path, false, n, size))
					ents[nents++] = (struct entry){
						.n = n, .size = size, .i = i, .j = j };
			}
			snprintf(path, sizeof(path), "%s/d%" PRIu64, root, i);
			check_listing(path, 'f', opt.files);
		}
		check_listing(root, 'd', opt.dirs);
	}

	/* bytes: file k by reader k % jobs */
	unsigned int jobs = opt.jobs, started = 0;

	for (unsigned int k = 0; k < jobs && k < nents; k++) {
		pid_t p = fork();

		if (p < 0) {
			fail("fork", "");
			break;
		}
		if (p == 0)
			reader(root, ents, nents, k);
		pids[started++] = p;
	}
	for (unsigned int k = 0; k < started; k++) {
		int st;

		while (waitpid(pids[k], &st, 0) < 0 && errno == EINTR)
			;
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			mismatch(root, -1, "reader %u failed (status %d)", k, st);
	}
	if (started < jobs && started < nents)
		mismatch(root, -1, "started %u of %u readers", started, jobs);
	for (size_t f = 0; f < nents; f++) {
		struct entry *e = &ents[f];

		snprintf(path, sizeof(path), "%s/d%" PRIu64 "/f%" PRIu64, root, e->i, e->j);
		bytes += e->got;
		files += (e->bad == BAD_NONE);
		switch (e->bad) {
		case BAD_BYTE:
			mismatch(path, (int64_t)e->bad_off,
				 "%s: byte at offset %" PRIu64 " is 0x%02x, not 0x%02x",
				 path, e->bad_off, e->got_b, e->want_b);
			break;
		case BAD_SHORT:
			mismatch(path, (int64_t)e->got, "%s: end of file at %" PRIu64
				 ", size is %" PRIu64, path, e->got, e->size);
			break;
		case BAD_LONG:
			mismatch(path, (int64_t)e->size, "%s: data past its size %" PRIu64,
				 path, e->size);
			break;
		case BAD_OPEN:
		case BAD_READ:
			mismatch(path, e->bad == BAD_READ ? (int64_t)e->got : -1,
				 "%s: %s: %s", path, e->bad == BAD_OPEN ? "open" : "read",
				 strerror(e->err));
			break;
		}
	}
	secs = now() - t0;

	if (res.mismatches)
		fprintf(line_to, "nfs-tree check: %s (%" PRIu64 " mismatch%s; the bytes of %"
			PRIu64 " of %" PRIu64 " files match)\n", res.reason, res.mismatches,
			res.mismatches == 1 ? "" : "es", files, nfiles);
	else
		fprintf(line_to, "nfs-tree check: %s: %" PRIu64 " dirs, %" PRIu64
			" files, %" PRIu64 " bytes match, %u job%s, %.2f s (%.1f MiB/s)\n",
			root, opt.dirs, files, bytes, jobs, jobs == 1 ? "" : "s", secs,
			bytes / 1048576.0 / (secs > 0 ? secs : 1e-9));
	if (opt.json) {
		printf("{\"dir\": ");
		json_string(root);
		printf(", \"dirs\": %" PRIu64 ", \"files_expected\": %" PRIu64
		       ", \"files\": %" PRIu64 ", \"bytes\": %" PRIu64
		       ", \"mismatches\": %" PRIu64 ", \"first_mismatch\": ",
		       opt.dirs, nfiles, files, bytes, res.mismatches);
		if (res.mismatches) {
			printf("{\"path\": ");
			json_string(res.path);
			if (res.offset >= 0)
				printf(", \"offset\": %" PRId64, res.offset);
			else
				printf(", \"offset\": null");
			printf(", \"reason\": ");
			json_string(res.reason);
			printf("}");
		} else {
			printf("null");
		}
		printf(", \"jobs\": %u, \"block\": %zu, \"seconds\": %.3f}\n",
		       jobs, opt.block, secs);
	}
	munmap(ents, (nfiles ? nfiles : 1) * sizeof(*ents));
	return res.mismatches ? 1 : 0;
}

/* ---- list, gen ---- */

static int cmd_list(void)
{
	printf("/ 1 -\n");
	for (uint64_t i = 0; i < opt.dirs; i++) {
		printf("/d%" PRIu64 " %" PRIu64 " -\n", i, 2 + i);
		for (uint64_t j = 0; j < opt.files; j++)
			printf("/d%" PRIu64 "/f%" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
			       i, j, fileid(i, j), file_size(fileid(i, j), opt.size));
	}
	return 0;
}

static int cmd_gen(uint64_t n, uint64_t off, uint64_t count)
{
	unsigned char b[4096];

	while (count) {
		size_t len = count < sizeof(b) ? count : sizeof(b);

		file_fill(n, off, b, len);
		for (size_t k = 0; k < len; k++)
			printf("%02x", b[k]);
		off += len;
		count -= len;
	}
	putchar('\n');
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "dirs", required_argument, NULL, 'd' },
		{ "files", required_argument, NULL, 'f' },
		{ "size", required_argument, NULL, 's' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "block", required_argument, NULL, 'b' },
		{ "direct", no_argument, NULL, 'D' },
		{ "fileids", no_argument, NULL, 'I' },
		{ "no-owner", no_argument, NULL, 'O' },
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *cmd;
	int c;
	uint64_t v;

	while ((c = getopt_long(argc, argv, "h", lopts, NULL)) != -1) {
		switch (c) {
		case 'd': opt.dirs = parse_u64(optarg, "--dirs", false); break;
		case 'f': opt.files = parse_u64(optarg, "--files", false); break;
		case 's': opt.size = parse_u64(optarg, "--size", true); break;
		case 'j':
			v = parse_u64(optarg, "--jobs", false);
			if (v < 1 || v > MAX_JOBS)
				usage_error("--jobs %s: not in 1-256", optarg);
			opt.jobs = (unsigned int)v;
			break;
		case 'b':
			v = parse_u64(optarg, "--block", true);
			if (v < 1 || v > MAX_BLOCK)
				usage_error("--block %s: not in 1-64M", optarg);
			opt.block = (size_t)v;
			break;
		case 'D': opt.direct = true; break;
		case 'I': opt.fileids = true; break;
		case 'O': opt.owner = false; break;
		case 'J': opt.json = true; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (opt.dirs > MAX_DIRS || opt.files > MAX_FILES ||
	    opt.dirs * opt.files > MAX_ENTRIES)
		usage_error("%s", "--dirs, --files: at most 10^6 each, 10^7 files");
	if (opt.size == UINT64_MAX)
		usage_error("%s", "--size: at most 2^64 - 2");
	if (optind >= argc)
		usage_error("%s", "no command");
	cmd = argv[optind++];
	if (!strcmp(cmd, "write") || !strcmp(cmd, "check")) {
		if (argc - optind != 1)
			usage_error("%s: one DIR", cmd);
		return cmd[0] == 'w' ? cmd_write(argv[optind]) : cmd_check(argv[optind]);
	}
	if (!strcmp(cmd, "list")) {
		if (argc != optind)
			usage_error("%s", "list: no arguments");
		return cmd_list();
	}
	if (!strcmp(cmd, "gen")) {
		if (argc - optind != 3)
			usage_error("%s", "gen: FILEID OFFSET COUNT");
		return cmd_gen(parse_u64(argv[optind], "FILEID", false),
			       parse_u64(argv[optind + 1], "OFFSET", false),
			       parse_u64(argv[optind + 2], "COUNT", false));
	}
	usage_error("unknown command \"%s\"", cmd);
}
