// SPDX-License-Identifier: GPL-2.0
/*
 * nfs-slices - paired slices of file load through the kernel's NFS
 * client: the NFS cells of bench/compare (issue 26).
 *
 * Every target is a directory where an NFS server's copy of the synthetic
 * export is mounted (the module's export, or kernel nfsd exporting the
 * same tree from tmpfs): the mounts, and with them the client's
 * connections, stay up for the whole cell.  One driver moves the same
 * load from mount to mount in slices (--slice, its first --warm not
 * counted), round after round, in the order of libsvcrpc's Williams
 * design, as `rpcload slices` does with RPC calls; its JSON document has
 * the shape of rpcload slices' (slices, summary, order), so that
 * bench/comparelib/pairedcells.py reads both alike.
 *
 * The workloads (--jobs threads each, every one with one operation in
 * flight, so that --jobs is the I/O depth):
 *   seq   each thread reads the files one after another in --bs pieces
 *         (1 MiB), O_DIRECT, each from its own starting file: READs of
 *         rsize, many in flight over the mount's connections (nconnect)
 *   rand  --bs (4 KiB) reads at random aligned offsets of random files,
 *         O_DIRECT
 *   meta  stat() of random entries by path: with the mount's attribute
 *         and lookup caches off (noac, lookupcache=none, as run-cells
 *         mounts it) every stat is a LOOKUP per component and a GETATTR
 * An operation counts in the slice when it started after the slice's
 * warm part; the slice ends once every operation in flight has ended, so
 * that nothing of one target's slice runs in the next one's.
 *
 * Every read is checked: its length against the file's size, its first
 * and last 64 bytes against the export's formula (libsvcrpc/nfs-export.h;
 * nfs-tree writes nfsd's copy with it); every stat's type and size.  A
 * wrong answer is a mismatch, a failed call an error; either fails the
 * run (exit 1).
 */
#define _GNU_SOURCE
#include "clock.h"
#include "design.h"
#include "histogram.h"
#include "jsonout.h"
#include "nfs-export.h"
#include "opts.h"
#include "pattern.h"
#include "stopsig.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_TARGETS 16u
#define MAX_JOBS 256u
#define MAX_ROUNDS 10000u
#define MIN_ROUNDS 6u
#define CHECK_BYTES 64u

enum workload { WL_SEQ, WL_RAND, WL_META };
static const char *const wl_names[] = { "seq", "rand", "meta", NULL };

struct target {
	char name[64];
	char dir[256];
	int *fd; /* per file, seq and rand */
};

struct file {
	uint64_t fileid, size;
	char rel[32]; /* "dI/fJ" */
};

struct nopts {
	struct target targets[MAX_TARGETS];
	unsigned ntargets;
	enum workload wl;
	unsigned jobs;
	uint64_t bs;
	bool direct;
	uint64_t dirs, files, size;
	double slice_s, warm_s, duration_s;
	unsigned rounds;
	uint64_t seed;
	bool json;
	int progress; /* -1: when stderr is a terminal */
};

/* one slice's counted part, as rpcload slices' struct slice_rec */
struct slice {
	unsigned round, position, target;
	uint64_t calls, ok, failures, mismatches, warm_calls, warm_errors, bytes;
	double elapsed_s, ops_per_s, mb_per_s, p50_us, p99_us;
	double t_start, t_measure, t_end;
	char first_error[240];
};

/* what one thread did in the slice now running; reset while it waits */
struct job {
	pthread_t tid;
	unsigned idx;
	uint64_t rng;
	unsigned file;   /* seq: the file it reads */
	uint64_t offset; /* seq: where */
	uint64_t calls, ok, failures, mismatches, warm_calls, warm_errors, bytes;
	char first_error[240];
	unsigned char *buf;
	struct hist hist;
};

static struct nopts opt;
static struct file *files;
static unsigned nfiles, nentries;
static struct job *jobs;

/*
 * The hand-over between the driver and the threads: under mu, the driver
 * sets target and bumps gen with state RUN, and waits in PAUSE for active
 * to fall to 0; a thread joins a generation it has not run (active++),
 * runs while run_gen is its generation, and leaves (active--).  run_gen
 * and measure_ns are read without mu on every operation: run_gen's store
 * of 0 ends the slice for every thread at its next operation, and an
 * operation that started at or after measure_ns (0: not yet) is counted.
 */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv_run = PTHREAD_COND_INITIALIZER;
static pthread_cond_t cv_idle = PTHREAD_COND_INITIALIZER;
static enum { PAUSE, RUN, STOP } state = PAUSE;
static unsigned gen, cur_target, active;
static atomic_uint run_gen;
static atomic_uint_fast64_t measure_ns;

static volatile sig_atomic_t stop_asked;

static void on_signal(int sig)
{
	(void)sig;
	stop_asked = 1;
}

static const char help[] =
"usage: nfs-slices --target NAME=DIR --target NAME=DIR... [options]\n"
"\n"
"Paired slices of file load through the kernel's NFS client: the same load\n"
"moves from mount to mount (each DIR an NFS mount of the synthetic export)\n"
"in slices, round after round, in a Williams design's order; the JSON has\n"
"the shape of rpcload slices' (bench/comparelib/pairedcells.py).\n"
"\n"
"  -T, --target NAME=DIR  a mount to load (2 to 16; NAME: letters, digits, _ -)\n"
"  -w, --workload W       seq: 1 MiB O_DIRECT reads of whole files; rand:\n"
"                         4 KiB O_DIRECT reads at random offsets; meta:\n"
"                         stat() of random entries (mount with noac,\n"
"                         lookupcache=none) (default seq)\n"
"  -j, --jobs N           threads, one operation in flight each (default 16;\n"
"                         meta 8)\n"
"  -b, --bs BYTES         read size, k/M suffixes (seq 1M, rand 4k)\n"
"      --buffered         no O_DIRECT: reads may come from the page cache\n"
"      --dirs D           the export's shape: D directories (default 4),\n"
"      --files F          F files each (default 16),\n"
"      --size S           of nominal size S (default 1048576), as the\n"
"                         module's export_dirs, export_files, export_file_size\n"
"  -s, --slice S          a slice's length (default 1s)\n"
"      --warm W           its first part, not counted (default 250ms)\n"
"  -r, --rounds N         rounds (default: whole blocks of the design, at\n"
"                         least 6, or what --duration holds)\n"
"  -t, --duration D       the whole blocks of rounds that fit in D\n"
"      --seed N           the random offsets' and entries' seed (default 1)\n"
"  -J, --json             the JSON document on stdout instead of the table\n"
"      --progress         a line on stderr as each slice ends (default: when\n"
"                         stderr is a terminal); --no-progress: none\n"
"      --no-progress\n"
"  -h, --help             this help\n"
"\n"
"Exit status: 0 every slice ran and every operation was answered right,\n"
"1 an operation failed or read wrong bytes (or the cell could not start),\n"
"2 bad usage.\n";

enum { O_HELP = 1, O_TARGET, O_WL, O_JOBS, O_BS, O_BUF, O_DIRS, O_FILES,
       O_SIZE, O_SLICE, O_WARM, O_ROUNDS, O_DUR, O_SEED, O_JSON, O_PROG,
       O_NOPROG };

static const struct optdef defs[] = {
	{ "help", 'h', false, O_HELP },
	{ "target", 'T', true, O_TARGET },
	{ "workload", 'w', true, O_WL },
	{ "jobs", 'j', true, O_JOBS },
	{ "bs", 'b', true, O_BS },
	{ "buffered", 0, false, O_BUF },
	{ "dirs", 0, true, O_DIRS },
	{ "files", 0, true, O_FILES },
	{ "size", 0, true, O_SIZE },
	{ "slice", 's', true, O_SLICE },
	{ "warm", 0, true, O_WARM },
	{ "rounds", 'r', true, O_ROUNDS },
	{ "duration", 't', true, O_DUR },
	{ "seed", 0, true, O_SEED },
	{ "json", 'J', false, O_JSON },
	{ "progress", 0, false, O_PROG },
	{ "no-progress", 0, false, O_NOPROG },
	{ NULL, 0, false, 0 },
};

static int add_target(const char *v, char *err, size_t n)
{
	const char *eq = strchr(v, '=');
	struct target *t;
	size_t len;

	if (opt.ntargets == MAX_TARGETS) {
		opt_errf(err, n, "--target: at most %u targets", MAX_TARGETS);
		return -1;
	}
	if (!eq || eq == v || !eq[1]) {
		opt_errf(err, n, "--target: '%s' is not NAME=DIR", v);
		return -1;
	}
	len = (size_t)(eq - v);
	if (len >= sizeof(t->name) || strlen(eq + 1) >= sizeof(t->dir) ||
	    strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != len) {
		opt_errf(err, n, "--target: '%s': NAME of letters, digits, _ and - (at most 63), DIR at most 255 bytes", v);
		return -1;
	}
	for (unsigned i = 0; i < opt.ntargets; i++)
		if (strlen(opt.targets[i].name) == len &&
		    !strncmp(opt.targets[i].name, v, len)) {
			opt_errf(err, n, "--target: %.*s named twice", (int)len, v);
			return -1;
		}
	t = &opt.targets[opt.ntargets++];
	memcpy(t->name, v, len);
	t->name[len] = '\0';
	snprintf(t->dir, sizeof(t->dir), "%s", eq + 1);
	return 0;
}

/* 0 run, 1 --help, -1 bad usage (err set) */
static int parse(int argc, char **argv, char *err, size_t n)
{
	const struct optdef *d;
	const char *val;
	struct opts s;
	uint64_t jobs = 0, bs = 0, v;
	int id, wl;

	memset(&opt, 0, sizeof(opt));
	opt.dirs = 4;
	opt.files = 16;
	opt.size = 1048576;
	opt.slice_s = 1.0;
	opt.warm_s = 0.25;
	opt.seed = 1;
	opt.progress = -1;
	opt.direct = true;
	opts_start(&s, argc, argv, defs, NULL, "nfs-slices --help");
	while ((id = opts_next(&s, &d, &val, err, n)) > 0) {
		int rc = 0;

		switch (id) {
		case O_HELP:
			return 1;
		case O_TARGET:
			rc = add_target(val, err, n);
			break;
		case O_WL:
			rc = opt_word(err, n, NULL, d, val, wl_names, &wl);
			opt.wl = rc ? opt.wl : (enum workload)wl;
			break;
		case O_JOBS:
			rc = opt_u64(err, n, NULL, d, val, 1, MAX_JOBS, 0, &jobs);
			break;
		case O_BS:
			rc = opt_u64(err, n, NULL, d, val, 512, 16 << 20, OPT_KM, &bs);
			break;
		case O_BUF:
			opt.direct = false;
			break;
		case O_DIRS:
			rc = opt_u64(err, n, NULL, d, val, 1, 1000, 0, &opt.dirs);
			break;
		case O_FILES:
			rc = opt_u64(err, n, NULL, d, val, 1, 1000, 0, &opt.files);
			break;
		case O_SIZE:
			rc = opt_u64(err, n, NULL, d, val, 1, UINT64_C(1) << 40, OPT_KM,
				     &opt.size);
			break;
		case O_SLICE:
			rc = opt_duration(err, n, NULL, d, val, false, 3600, &opt.slice_s);
			break;
		case O_WARM:
			rc = opt_duration(err, n, NULL, d, val, true, 3600, &opt.warm_s);
			break;
		case O_ROUNDS:
			rc = opt_u64(err, n, NULL, d, val, 1, MAX_ROUNDS, 0, &v);
			opt.rounds = (unsigned)v;
			break;
		case O_DUR:
			rc = opt_duration(err, n, NULL, d, val, false, 86400, &opt.duration_s);
			break;
		case O_SEED:
			rc = opt_u64(err, n, NULL, d, val, 0, UINT64_MAX, 0, &opt.seed);
			break;
		case O_JSON:
			opt.json = true;
			break;
		case O_PROG:
			opt.progress = 1;
			break;
		case O_NOPROG:
			opt.progress = 0;
			break;
		}
		if (rc < 0)
			return -1;
	}
	if (id < 0 || opts_no_args(&s, err, n) < 0)
		return -1;
	if (opt.ntargets < 2) {
		opt_errf(err, n, "at least two --target NAME=DIR (a paired cell compares them)");
		return -1;
	}
	if (opt.warm_s >= opt.slice_s) {
		opt_errf(err, n, "--warm (%g s) must be shorter than --slice (%g s)",
			 opt.warm_s, opt.slice_s);
		return -1;
	}
	opt.jobs = jobs ? (unsigned)jobs : opt.wl == WL_META ? 8 : 16;
	opt.bs = bs ? bs : opt.wl == WL_SEQ ? 1048576 : 4096;
	if (opt.direct && opt.bs % 512) {
		opt_errf(err, n, "--bs %" PRIu64 ": O_DIRECT reads need a multiple of 512 (or --buffered)",
			 opt.bs);
		return -1;
	}
	if (opt.wl == WL_RAND && opt.bs > file_size(7, opt.size)) {
		opt_errf(err, n, "--bs %" PRIu64 " is larger than the smallest file (%" PRIu64 " bytes)",
			 opt.bs, file_size(7, opt.size));
		return -1;
	}
	return 0;
}

/* ---- the tree ------------------------------------------------------------- */

/* The files, as nfs-tree lays them out: "dI/fJ", fileid 2 + D + I*F + J. */
static int make_files(char *err, size_t n)
{
	nfiles = (unsigned)(opt.dirs * opt.files);
	nentries = (unsigned)opt.dirs + nfiles;
	files = calloc(nfiles, sizeof(*files));
	if (!files) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	for (unsigned i = 0; i < opt.dirs; i++)
		for (unsigned j = 0; j < opt.files; j++) {
			struct file *f = &files[i * opt.files + j];

			f->fileid = 2 + opt.dirs + i * opt.files + j;
			f->size = file_size(f->fileid, opt.size);
			snprintf(f->rel, sizeof(f->rel), "d%u/f%u", i, j);
		}
	return 0;
}

/* Every target has the tree's files at their sizes; seq and rand open them. */
static int open_targets(char *err, size_t n)
{
	struct rlimit rl;
	char path[300];

	if (opt.wl != WL_META && !getrlimit(RLIMIT_NOFILE, &rl) &&
	    rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	for (unsigned t = 0; t < opt.ntargets; t++) {
		struct target *tg = &opt.targets[t];

		if (opt.wl != WL_META) {
			tg->fd = malloc(nfiles * sizeof(int));
			if (!tg->fd) {
				snprintf(err, n, "out of memory");
				return -1;
			}
		}
		for (unsigned i = 0; i < nfiles; i++) {
			struct stat st;

			snprintf(path, sizeof(path), "%s/%s", tg->dir, files[i].rel);
			if (stat(path, &st) < 0) {
				snprintf(err, n, "target %s: %s: %s", tg->name, path,
					 strerror(errno));
				return -1;
			}
			if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size != files[i].size) {
				snprintf(err, n, "target %s: %s: %lld bytes, not the export's %" PRIu64 " (another shape? --dirs --files --size)",
					 tg->name, path, (long long)st.st_size, files[i].size);
				return -1;
			}
			if (opt.wl == WL_META)
				continue;
			tg->fd[i] = open(path, O_RDONLY | (opt.direct ? O_DIRECT : 0));
			if (tg->fd[i] < 0) {
				snprintf(err, n, "target %s: open %s: %s", tg->name, path,
					 strerror(errno));
				return -1;
			}
		}
	}
	return 0;
}

/* ---- one operation -------------------------------------------------------- */

static void job_error(struct job *j, bool counted, bool mismatch, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void job_error(struct job *j, bool counted, bool mismatch, const char *fmt, ...)
{
	va_list ap;

	if (counted) {
		if (mismatch)
			j->mismatches++;
		else
			j->failures++;
	} else {
		j->warm_errors++;
	}
	if (j->first_error[0])
		return;
	va_start(ap, fmt);
	vsnprintf(j->first_error, sizeof(j->first_error), fmt, ap);
	va_end(ap);
}

/* bytes [off, off+len) of buf, read at file offset at, against the export */
static bool bytes_right(const struct file *f, const unsigned char *buf,
			uint64_t at, size_t off, size_t len)
{
	unsigned char want[CHECK_BYTES];

	file_fill(f->fileid, at + off, want, len);
	return !memcmp(buf + off, want, len);
}

/* one read of file fi at offset at; true when it was answered right */
static bool read_op(struct job *j, const struct target *tg, unsigned fi,
		    uint64_t at, bool counted, uint64_t *got)
{
	const struct file *f = &files[fi];
	uint64_t want = at >= f->size ? 0 : f->size - at < opt.bs ? f->size - at : opt.bs;
	ssize_t r = pread(tg->fd[fi], j->buf, opt.bs, (off_t)at);
	size_t k;

	*got = 0;
	if (r < 0) {
		job_error(j, counted, false, "%s: read %s at %" PRIu64 ": %s", tg->name,
			  f->rel, at, strerror(errno));
		return false;
	}
	*got = (uint64_t)r;
	if ((uint64_t)r != want) {
		job_error(j, counted, true, "%s: read %s at %" PRIu64 ": %zd bytes, not %" PRIu64,
			  tg->name, f->rel, at, r, want);
		return false;
	}
	k = (size_t)r < CHECK_BYTES ? (size_t)r : CHECK_BYTES;
	if (r && (!bytes_right(f, j->buf, at, 0, k) ||
		  !bytes_right(f, j->buf, at, (size_t)r - k, k))) {
		job_error(j, counted, true, "%s: read %s at %" PRIu64 ": not the export's bytes",
			  tg->name, f->rel, at);
		return false;
	}
	return true;
}

static bool stat_op(struct job *j, const struct target *tg, bool counted)
{
	unsigned e = (unsigned)(splitmix64(&j->rng) % nentries);
	bool dir = e < opt.dirs, right;
	char path[300];
	struct stat st;

	if (dir)
		snprintf(path, sizeof(path), "%s/d%u", tg->dir, e);
	else
		snprintf(path, sizeof(path), "%s/%s", tg->dir,
			 files[e - opt.dirs].rel);
	if (stat(path, &st) < 0) {
		job_error(j, counted, false, "%s: stat %s: %s", tg->name, path,
			  strerror(errno));
		return false;
	}
	right = dir ? S_ISDIR(st.st_mode) :
		S_ISREG(st.st_mode) &&
		(uint64_t)st.st_size == files[e - opt.dirs].size;
	if (!right)
		job_error(j, counted, true, "%s: stat %s: mode %o, %lld bytes: not the export's",
			  tg->name, path, (unsigned)st.st_mode, (long long)st.st_size);
	return right;
}

/* one operation of the workload on target t; its bytes in *bytes */
static bool one_op(struct job *j, unsigned t, bool counted, uint64_t *bytes)
{
	const struct target *tg = &opt.targets[t];
	uint64_t at;
	unsigned fi;
	bool ok;

	*bytes = 0;
	switch (opt.wl) {
	case WL_SEQ:
		if (j->offset >= files[j->file].size) {
			j->file = (j->file + 1) % nfiles;
			j->offset = 0;
		}
		ok = read_op(j, tg, j->file, j->offset, counted, bytes);
		j->offset += opt.bs;
		return ok;
	case WL_RAND:
		fi = (unsigned)(splitmix64(&j->rng) % nfiles);
		at = splitmix64(&j->rng) % ((files[fi].size - opt.bs) / opt.bs + 1) * opt.bs;
		return read_op(j, tg, fi, at, counted, bytes);
	case WL_META:
		return stat_op(j, tg, counted);
	}
	return false;
}

static void *job_main(void *arg)
{
	struct job *j = arg;
	unsigned mine = 0;

	for (;;) {
		unsigned t;

		pthread_mutex_lock(&mu);
		while (state != STOP && (state != RUN || gen == mine))
			pthread_cond_wait(&cv_run, &mu);
		if (state == STOP) {
			pthread_mutex_unlock(&mu);
			return NULL;
		}
		mine = gen;
		t = cur_target;
		active++;
		pthread_mutex_unlock(&mu);

		while (atomic_load_explicit(&run_gen, memory_order_acquire) == mine) {
			uint64_t m = atomic_load_explicit(&measure_ns, memory_order_acquire);
			uint64_t t0 = now_ns(), bytes;
			bool counted = m && t0 >= m, ok;

			ok = one_op(j, t, counted, &bytes);
			if (!counted) {
				j->warm_calls++;
				continue;
			}
			j->calls++;
			j->bytes += bytes;
			if (ok) {
				j->ok++;
				hist_record(&j->hist, now_ns() - t0);
			}
		}

		pthread_mutex_lock(&mu);
		if (--active == 0)
			pthread_cond_signal(&cv_idle);
		pthread_mutex_unlock(&mu);
	}
}

/* ---- the slices ----------------------------------------------------------- */

struct result {
	struct design_plan d; /* the rounds and their order */
	unsigned rounds_done, nslices;
	bool interrupted;
	struct slice *slices;
	struct hist *hist; /* per target */
	uint64_t mono_ns, real_ns;
	char error[400];
};

static int plan(struct result *res, char *err, size_t n)
{
	if (design_plan(opt.ntargets, opt.duration_s, opt.slice_s, opt.rounds,
			MIN_ROUNDS, MAX_ROUNDS, &res->d, err, n) < 0)
		return -1;
	res->slices = calloc((size_t)res->d.rounds * opt.ntargets, sizeof(*res->slices));
	res->hist = calloc(opt.ntargets, sizeof(*res->hist));
	if (!res->slices || !res->hist) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	for (unsigned t = 0; t < opt.ntargets; t++)
		hist_init(&res->hist[t]);
	return 0;
}

/* the threads' counts of the slice that ended into s; their counts reset */
static void collect(struct slice *s, struct hist *h)
{
	hist_init(h);
	for (unsigned i = 0; i < opt.jobs; i++) {
		struct job *j = &jobs[i];

		s->calls += j->calls;
		s->ok += j->ok;
		s->failures += j->failures;
		s->mismatches += j->mismatches;
		s->warm_calls += j->warm_calls;
		s->warm_errors += j->warm_errors;
		s->bytes += j->bytes;
		if (j->first_error[0] && !s->first_error[0])
			snprintf(s->first_error, sizeof(s->first_error), "%s", j->first_error);
		hist_merge(h, &j->hist);
		j->calls = j->ok = j->failures = j->mismatches = 0;
		j->warm_calls = j->warm_errors = j->bytes = 0;
		j->first_error[0] = '\0';
		hist_init(&j->hist);
	}
}

/* one slice on target t: run, then wait for every thread to leave it */
static void run_slice(unsigned t, struct slice *s, struct hist *h)
{
	uint64_t start, mstart, end;

	pthread_mutex_lock(&mu);
	cur_target = t;
	gen++;
	atomic_store_explicit(&measure_ns, 0, memory_order_relaxed);
	/* release: a thread that sees run_gen == gen sees cur_target too
	 * (it also read it under mu) */
	atomic_store_explicit(&run_gen, gen, memory_order_release);
	state = RUN;
	pthread_cond_broadcast(&cv_run);
	pthread_mutex_unlock(&mu);
	start = now_ns();
	sleep_ns((uint64_t)(opt.warm_s * 1e9));
	mstart = now_ns();
	atomic_store_explicit(&measure_ns, mstart, memory_order_release);
	sleep_ns((uint64_t)((opt.slice_s - opt.warm_s) * 1e9));
	atomic_store_explicit(&run_gen, 0, memory_order_release);
	pthread_mutex_lock(&mu);
	state = PAUSE;
	while (active)
		pthread_cond_wait(&cv_idle, &mu);
	pthread_mutex_unlock(&mu);
	end = now_ns();

	collect(s, h);
	s->target = t;
	s->t_start = (double)start / 1e9;
	s->t_measure = (double)mstart / 1e9;
	s->t_end = (double)end / 1e9;
	s->elapsed_s = (double)(end - mstart) / 1e9;
	s->ops_per_s = s->elapsed_s > 0 ? (double)s->ok / s->elapsed_s : 0;
	s->mb_per_s = s->elapsed_s > 0 ? (double)s->bytes / s->elapsed_s / 1e6 : 0;
	s->p50_us = (double)hist_percentile(h, 50) / 1e3;
	s->p99_us = (double)hist_percentile(h, 99) / 1e3;
}

static void run_rounds(struct result *res)
{
	unsigned nt = opt.ntargets;
	int progress = opt.progress < 0 ? isatty(STDERR_FILENO) : opt.progress;
	struct hist *h = malloc(sizeof(*h));

	if (!h) {
		snprintf(res->error, sizeof(res->error), "out of memory");
		return;
	}
	/* the line before the first slice: with each slice's own, both ends
	 * of every slice are marked for a watcher of stderr (bench/compare
	 * samples the host's CPU time on each line) */
	if (progress)
		fprintf(stderr, "[slice 0/%u] mounted, the first slice starts\n",
			res->d.rounds * nt);
	for (unsigned r = 0; r < res->d.rounds && !stop_asked; r++) {
		unsigned whole = 0;

		for (unsigned pos = 0; pos < nt && !stop_asked; pos++) {
			unsigned t = res->d.order[(size_t)r * nt + pos];
			struct slice *s = &res->slices[res->nslices];

			run_slice(t, s, h);
			s->round = r + 1;
			s->position = pos + 1;
			hist_merge(&res->hist[t], h);
			res->nslices++;
			if (!stop_asked)
				whole++;
			if (progress)
				fprintf(stderr, "[slice %u/%u] round %u pos %u %-12s %10.0f ops/s %8.1f MB/s  errors %" PRIu64 "\n",
					res->nslices, res->d.rounds * nt, s->round,
					s->position, opt.targets[t].name, s->ops_per_s,
					s->mb_per_s, s->failures + s->mismatches);
		}
		if (whole == nt)
			res->rounds_done++;
	}
	res->interrupted = stop_asked;
	free(h);
}

static int start_jobs(char *err, size_t n)
{
	jobs = calloc(opt.jobs, sizeof(*jobs));
	if (!jobs) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	for (unsigned i = 0; i < opt.jobs; i++) {
		struct job *j = &jobs[i];
		int rc;

		j->idx = i;
		j->rng = opt.seed * 1000003u + i;
		j->file = (unsigned)((uint64_t)i * nfiles / opt.jobs);
		hist_init(&j->hist);
		if (opt.wl != WL_META &&
		    posix_memalign((void **)&j->buf, 4096, opt.bs)) {
			snprintf(err, n, "out of memory");
			return -1;
		}
		rc = pthread_create(&j->tid, NULL, job_main, j);
		if (rc) {
			snprintf(err, n, "pthread_create: %s", strerror(rc));
			opt.jobs = i;
			return -1;
		}
	}
	return 0;
}

static void stop_jobs(void)
{
	pthread_mutex_lock(&mu);
	state = STOP;
	pthread_cond_broadcast(&cv_run);
	pthread_mutex_unlock(&mu);
	for (unsigned i = 0; i < opt.jobs; i++) {
		pthread_join(jobs[i].tid, NULL);
		free(jobs[i].buf);
	}
}

/* ---- reports -------------------------------------------------------------- */

static uint64_t slice_errors(const struct slice *s)
{
	return s->failures + s->mismatches;
}

/* Slices summed, and the bytes they read. */
struct tsum {
	struct slice_sum s;
	uint64_t bytes;
};

#define ALL_TARGETS UINT_MAX

/* Target t's slices (ALL_TARGETS: every slice), summed. */
static void sum_target(const struct result *res, unsigned t, struct tsum *ts)
{
	slice_sum_start(&ts->s, res->nslices);
	ts->bytes = 0;
	for (unsigned i = 0; i < res->nslices; i++) {
		const struct slice *s = &res->slices[i];

		if (t != ALL_TARGETS && s->target != t)
			continue;
		slice_sum_add(&ts->s, s->calls, s->ok, slice_errors(s),
			      s->elapsed_s, s->ops_per_s);
		ts->bytes += s->bytes;
	}
	slice_sum_end(&ts->s);
}

static bool all_ok(const struct result *res, char *why, size_t n)
{
	struct tsum all;

	if (res->error[0]) {
		snprintf(why, n, "%s", res->error);
		return false;
	}
	sum_target(res, ALL_TARGETS, &all);
	if (all.s.first_bad >= 0) {
		const struct slice *first = &res->slices[all.s.first_bad];

		snprintf(why, n, "%" PRIu64 " of %" PRIu64 " operations failed or read wrong bytes; first in round %u: %s",
			 all.s.errors, all.s.calls, first->round, first->first_error);
		return false;
	}
	/* a wrong answer in a slice's warm part is as wrong as any other */
	for (unsigned i = 0; i < res->nslices; i++)
		if (res->slices[i].warm_errors) {
			snprintf(why, n, "round %u: %" PRIu64 " operations failed or read wrong bytes in the warm part: %s",
				 res->slices[i].round, res->slices[i].warm_errors,
				 res->slices[i].first_error);
			return false;
		}
	if (res->nslices < res->d.rounds * opt.ntargets) {
		snprintf(why, n, "%u of %u slices ran", res->nslices,
			 res->d.rounds * opt.ntargets);
		return false;
	}
	for (unsigned t = 0; t < opt.ntargets; t++)
		if (!res->hist[t].count) {
			snprintf(why, n, "target %s: no operation answered in any slice",
				 opt.targets[t].name);
			return false;
		}
	return true;
}

static void print_table(const struct result *res, const char *why)
{
	printf("nfs-slices: %s, %u jobs, %" PRIu64 "-byte reads%s; %u rounds of %u slices of %g s (first %g s not counted)\n",
	       wl_names[opt.wl], opt.jobs, opt.bs,
	       opt.wl == WL_META ? " (unused)" : opt.direct ? ", O_DIRECT" : "",
	       res->rounds_done, opt.ntargets, opt.slice_s, opt.warm_s);
	printf("%-14s %6s %10s %7s %11s %11s %11s %9s %9s %9s\n", "target",
	       "slices", "ops", "errors", "ops/s", "min", "max", "MB/s", "p50 us",
	       "p99 us");
	for (unsigned t = 0; t < opt.ntargets; t++) {
		struct tsum ts;

		sum_target(res, t, &ts);
		printf("%-14s %6u %10" PRIu64 " %7" PRIu64 " %11.1f %11.1f %11.1f %9.1f %9.1f %9.1f\n",
		       opt.targets[t].name, ts.s.slices, ts.s.calls, ts.s.errors,
		       ts.s.median, ts.s.min, ts.s.max,
		       ts.s.elapsed_s > 0 ? (double)ts.bytes / ts.s.elapsed_s / 1e6 : 0,
		       (double)hist_percentile(&res->hist[t], 50) / 1e3,
		       (double)hist_percentile(&res->hist[t], 99) / 1e3);
	}
	if (why)
		printf("error: %s\n", why);
}

static json_t *slice_json(const struct slice *s)
{
	return json_pack(
		"{s:I, s:I, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:f,"
		" s:f, s:f, s:f, s:f, s:I, s:I, s:I, s:I, s:o}",
		"round", (json_int_t)s->round, "position", (json_int_t)s->position,
		"target", opt.targets[s->target].name, "calls", (json_int_t)s->calls,
		"ok", (json_int_t)s->ok, "errors", (json_int_t)slice_errors(s),
		"failures", (json_int_t)s->failures, "timeouts", (json_int_t)0,
		"mismatches", (json_int_t)s->mismatches, "elapsed_s", s->elapsed_s,
		"ops_per_s", s->ops_per_s, "mb_per_s", s->mb_per_s, "p50_us",
		s->p50_us, "p99_us", s->p99_us, "t_start", s->t_start, "t_measure",
		s->t_measure, "t_end", s->t_end, "warmup_calls",
		(json_int_t)s->warm_calls, "warmup_errors", (json_int_t)s->warm_errors,
		"reconnects", (json_int_t)0, "bytes", (json_int_t)s->bytes,
		"first_error", json_text(s->first_error));
}

static int print_json(const struct result *res, const char *why)
{
	json_t *sl = json_array(), *tg = json_array(), *order = json_array(),
	       *sum = json_array(), *doc;
	unsigned nt = opt.ntargets;

	for (unsigned i = 0; sl && i < res->nslices; i++)
		json_array_append_new(sl, slice_json(&res->slices[i]));
	for (unsigned t = 0; tg && sum && t < nt; t++) {
		struct tsum ts;

		json_array_append_new(tg, json_pack("{s:s, s:s}", "name",
						    opt.targets[t].name, "dir",
						    opt.targets[t].dir));
		sum_target(res, t, &ts);
		json_array_append_new(sum, json_pack(
			"{s:s, s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:f}",
			"target", opt.targets[t].name, "slices", (json_int_t)ts.s.slices,
			"calls", (json_int_t)ts.s.calls, "ok", (json_int_t)ts.s.ok,
			"errors", (json_int_t)ts.s.errors, "ops_per_s", ts.s.ops_per_s,
			"median_ops_per_s", ts.s.median, "min_ops_per_s", ts.s.min,
			"max_ops_per_s", ts.s.max, "mb_per_s",
			ts.s.elapsed_s > 0 ? (double)ts.bytes / ts.s.elapsed_s / 1e6 : 0.0,
			"p50_us", (double)hist_percentile(&res->hist[t], 50) / 1e3,
			"p99_us", (double)hist_percentile(&res->hist[t], 99) / 1e3));
	}
	for (unsigned r = 0; order && r < res->d.rounds; r++) {
		json_t *row = json_array();

		for (unsigned k = 0; row && k < nt; k++)
			json_array_append_new(row, json_string(
				opt.targets[res->d.order[(size_t)r * nt + k]].name));
		json_array_append_new(order, row);
	}
	doc = json_pack(
		"{s:s, s:i, s:s, s:{s:s, s:I, s:I, s:b, s:I, s:I, s:I, s:f, s:f, s:I,"
		" s:f, s:I}, s:o, s:{s:s, s:I, s:I, s:b, s:I}, s:o, s:{s:I, s:I},"
		" s:o, s:o, s:I, s:b}",
		"tool", "nfs-slices", "version", 1, "command", "slices", "params",
		"workload", wl_names[opt.wl], "jobs", (json_int_t)opt.jobs, "bs",
		(json_int_t)opt.bs, "direct", opt.direct, "dirs", (json_int_t)opt.dirs,
		"files", (json_int_t)opt.files, "size", (json_int_t)opt.size,
		"slice_s", opt.slice_s, "warm_s", opt.warm_s, "rounds",
		(json_int_t)opt.rounds, "duration_s", opt.duration_s, "seed",
		(json_int_t)opt.seed, "targets", tg, "design", "kind", "williams",
		"block", (json_int_t)res->d.block, "rounds", (json_int_t)res->d.rounds,
		"balanced", res->d.balanced, "rounds_done", (json_int_t)res->rounds_done,
		"order", order, "clock", "monotonic_ns", (json_int_t)res->mono_ns,
		"realtime_ns", (json_int_t)res->real_ns, "slices", sl, "summary", sum,
		"empty_slices", (json_int_t)0, "interrupted", res->interrupted);
	if (doc && why)
		json_object_set_new(doc, "error", json_string(why));
	return json_print(stdout, doc);
}

int main(int argc, char **argv)
{
	struct result res;
	struct stopsig saved;
	struct timespec mono, real;
	char err[400], why[600];
	bool ok;
	int rc;

	memset(&res, 0, sizeof(res));
	rc = parse(argc, argv, err, sizeof(err));
	if (rc > 0) {
		fputs(help, stdout);
		return 0;
	}
	if (rc < 0)
		return opts_usage_error("nfs-slices", err);
	if (make_files(err, sizeof(err)) < 0 || plan(&res, err, sizeof(err)) < 0 ||
	    open_targets(err, sizeof(err)) < 0 || start_jobs(err, sizeof(err)) < 0) {
		fprintf(stderr, "nfs-slices: %s\n", err);
		if (opt.json)
			print_json(&res, err);
		if (jobs)
			stop_jobs();
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_REALTIME, &real);
	res.mono_ns = (uint64_t)mono.tv_sec * 1000000000u + (uint64_t)mono.tv_nsec;
	res.real_ns = (uint64_t)real.tv_sec * 1000000000u + (uint64_t)real.tv_nsec;
	stopsig_catch(&saved, on_signal);
	run_rounds(&res);
	stopsig_restore(&saved);
	stop_jobs();
	ok = all_ok(&res, why, sizeof(why));
	if (opt.json)
		print_json(&res, ok ? NULL : why);
	else
		print_table(&res, ok ? NULL : why);
	if (!ok)
		fprintf(stderr, "nfs-slices: %s\n", why);
	return ok ? 0 : 1;
}
