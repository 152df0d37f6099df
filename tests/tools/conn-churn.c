// SPDX-License-Identifier: GPL-2.0
/*
 * conn-churn: open TCP connections to the svcsock program from several
 * threads as fast as they go, make one NULL call on each, close it, and
 * count what went wrong.  Every connection is accepted by the server's
 * listener, so this is the test of the accept path under concurrency:
 * a listener that is lost (closed, or stranded with connections in its
 * queue) turns into refused or timed-out connects.
 *
 * With --keep K it holds K connections open instead (the soak's many
 * idle clients): each is opened with one NULL call, then R a second
 * (--cycle-rate) are taken oldest first, checked to be still open (the
 * server must not have closed an idle client), closed and opened again
 * with a NULL call, until the duration ends or SIGTERM.  A line of
 * progress a second, and the summary at the end.
 *
 * Hand-written XDR (libsvcrpc's rpcwire.h, via rpcmsg.h), as in
 * rpc-pipeline: nothing between us and the wire.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "clock.h"
#include "netio.h"
#include "opts.h"
#include "rpcmsg.h"
#include "stopsig.h"
#include "toolopts.h"

#define MAX_THREADS 256
#define MAX_HOLD 256
#define MAX_KEEP 1000000

static struct {
	struct tool_target server;
	unsigned int threads, duration_ms, timeout_ms, hold, keep, cycle_rate;
	unsigned int max_conns;
	int nice;
} opt = { .server = TOOL_TARGET_DEFAULT, .threads = 8, .duration_ms = 5000,
	  .timeout_ms = 5000, .hold = 1 };

static atomic_ulong n_conns, n_ok, n_refused, n_timeout, n_other;
static atomic_int first_errno;
static uint64_t t_start;

/* --keep: the held connections (-1: not open), how many are open, how
 * many were cycled, found closed by the server or answered with data
 * nobody asked for, and how many threads have opened their share
 */
static int *kept;
static atomic_ulong n_open, n_cycled, n_dropped, n_unasked;
static atomic_uint n_opened_threads;
static atomic_bool cycling;		/* "kept" printed: the threads may cycle */
static volatile sig_atomic_t stop_requested;
static long kept_ms = -1;		/* when every thread had opened its share */
static long cycled_ms = -1;		/* when they stopped cycling */

static void usage(FILE *f)
{
	fprintf(f,
"usage: conn-churn [--host A] [--port P] [--threads N] [--duration-ms D]\n"
"                  [--connections M] [--hold H] [--timeout-ms T]\n"
"       conn-churn --keep K [--cycle-rate R] [--host A] [--port P]\n"
"                  [--threads N] [--duration-ms D] [--timeout-ms T]\n"
"                  [--nice N]\n"
"From N threads, until D ms have passed or M connections were made:\n"
"connect H connections over TCP one after the other, make one NULL call\n"
"to program 0x20049001 version 1 on each and check the reply, close them.\n"
"With --keep: open K connections with one NULL call each, print \"kept\",\n"
"then every second take R of them, oldest first, check that the server\n"
"has not closed them, close them and open them again with a NULL call;\n"
"one line of progress a second, until D ms or SIGINT/SIGTERM.\n"
"Prints one line of counts at the end; exit 0 when every connection was\n"
"made and answered (and, with --keep, every held one still open when\n"
"cycled), 1 otherwise, 2 on a usage error.\n"
"  --host A          server address (default 127.0.0.1)\n"
"  --port P          port (default 20049)\n"
"  --threads N       client threads, 1-%d (default 8)\n"
"  --duration-ms D   how long to run (default 5000)\n"
"  --connections M   stop after M connections in all (default: no limit)\n"
"  --hold H          connections a thread opens before it calls on them\n"
"                    and closes them, 1-%d (default 1): bursts of connects\n"
"  --timeout-ms T    connect and reply timeout (default 5000)\n"
"  --keep K          hold K connections open, 1-%d (raises the open\n"
"                    file limit to fit; root may need to)\n"
"  --cycle-rate R    with --keep: connections closed and opened again a\n"
"                    second, over all threads (default 0: none)\n"
"  --nice N          run at nice N, -20..19 (below 0 needs root): a rate\n"
"                    asked of it is kept beside a load that takes every\n"
"                    cycle it is given\n"
"  -h, --help        this text\n",
		MAX_THREADS, MAX_HOLD, MAX_KEEP);
}

/* One NULL call on fd and its reply: 0, or -1 with errno set. */
static int null_call(int fd, uint32_t xid)
{
	uint8_t call[RM_MARK_LEN + RPC_CALL_NONE_LEN];
	uint64_t deadline = mono_ms() + opt.timeout_ms;
	enum net_status st;
	struct xbuf reply;

	rm_put_header(call, RPC_CALL_NONE_LEN, true);
	rpcmsg_call(call + RM_MARK_LEN, xid, RPCMSG_PROC_NULL);
	xb_init(&reply);
	st = net_send_all(fd, call, sizeof(call), deadline);
	if (st == NET_OK)
		st = net_recv_record(fd, &reply, 512, deadline);
	/* one record: xid, REPLY, MSG_ACCEPTED, AUTH_NONE verifier, SUCCESS */
	if (st == NET_OK && (reply.len != RPC_NULL_REPLY_LEN ||
			     !rpc_is_null_reply(reply.p, reply.len, xid)))
		st = NET_TOOBIG;
	xb_free(&reply);
	switch (st) {
	case NET_OK:
		return 0;
	case NET_TIMEOUT:
		errno = ETIMEDOUT;
		break;
	case NET_EOF:
		errno = ECONNRESET;
		break;
	case NET_TOOBIG:
		errno = EBADMSG;
		break;
	case NET_ERROR:
		break;
	}
	return -1;
}

static void count_error(int err)
{
	int none = 0;

	if (err == ECONNREFUSED)
		atomic_fetch_add(&n_refused, 1);
	else if (err == ETIMEDOUT)
		atomic_fetch_add(&n_timeout, 1);
	else
		atomic_fetch_add(&n_other, 1);
	atomic_compare_exchange_strong(&first_errno, &none, err);
}

static void *churn(void *arg)
{
	uint32_t xid = (uint32_t)(uintptr_t)arg << 24;
	int fds[MAX_HOLD];

	while (ms_since(t_start) < (long)opt.duration_ms) {
		unsigned int i, n = 0;

		/* Open a burst of connections, as a client starting up does. */
		while (n < opt.hold &&
		       ms_since(t_start) < (long)opt.duration_ms) {
			unsigned long c = atomic_fetch_add(&n_conns, 1);

			if (opt.max_conns && c >= opt.max_conns) {
				atomic_fetch_sub(&n_conns, 1);
				break;
			}
			fds[n] = net_dial(&opt.server.addr, SOCK_STREAM,
					  opt.timeout_ms,
					  NET_NONBLOCK | NET_NODELAY, 0, 0);
			if (fds[n] < 0)
				count_error(errno);
			else
				n++;
		}
		for (i = 0; i < n; i++) {
			if (null_call(fds[i], ++xid) < 0)
				count_error(errno);
			else
				atomic_fetch_add(&n_ok, 1);
			close(fds[i]);
		}
	}
	return NULL;
}

/* A connection of the held set opened, with its NULL call answered: the
 * fd, or -1 with the error counted.
 */
static int open_answered(uint32_t xid)
{
	int fd;

	atomic_fetch_add(&n_conns, 1);
	fd = net_dial(&opt.server.addr, SOCK_STREAM, opt.timeout_ms,
		      NET_NONBLOCK | NET_NODELAY, 0, 0);
	if (fd < 0) {
		count_error(errno);
		return -1;
	}
	if (null_call(fd, xid) < 0) {
		count_error(errno);
		close(fd);
		return -1;
	}
	atomic_fetch_add(&n_ok, 1);
	return fd;
}

/* Is a held connection still as we left it: open, nothing to read?  The
 * server must neither close an idle client that is within its limits
 * nor send it anything unasked.
 */
static void check_held(int fd)
{
	char c;
	ssize_t n = recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);

	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK))
		atomic_fetch_add(&n_dropped, 1);
	else if (n > 0)
		atomic_fetch_add(&n_unasked, 1);
}

static bool keep_running(void)
{
	return !stop_requested && ms_since(t_start) < (long)opt.duration_ms;
}

/* One thread's share of the held set: slots [lo, hi).  Opened in order,
 * then cycled in the same order (so the oldest goes first) at the
 * thread's share of the rate, catching up when behind by less than a
 * second and starting afresh when behind by more.
 */
static void *hold(void *arg)
{
	unsigned int t = (unsigned int)(uintptr_t)arg;
	unsigned int lo = (unsigned int)((uint64_t)opt.keep * t / opt.threads);
	unsigned int hi = (unsigned int)((uint64_t)opt.keep * (t + 1) / opt.threads);
	uint32_t xid = (uint32_t)t << 24;
	uint64_t step_ns, next;
	unsigned int i;

	for (i = lo; i < hi && keep_running(); i++) {
		kept[i] = open_answered(++xid);
		if (kept[i] >= 0)
			atomic_fetch_add(&n_open, 1);
	}
	atomic_fetch_add(&n_opened_threads, 1);
	/* the "kept" line counts the whole set: nobody cycles before it */
	while (!atomic_load(&cycling) && keep_running())
		sleep_ms(5);
	if (!opt.cycle_rate || hi == lo)
		goto idle;
	/* this thread's rate: rate * share / keep, as a step in ns */
	step_ns = (uint64_t)1000000000u * opt.keep / opt.cycle_rate / (hi - lo);
	next = now_ns();
	i = lo;
	while (keep_running()) {
		uint64_t now = now_ns();

		if (now < next) {
			sleep_ns(next - now < 100000000u ? next - now : 100000000u);
			continue;
		}
		next = now - next > 1000000000u ? now + step_ns : next + step_ns;
		if (kept[i] >= 0) {
			check_held(kept[i]);
			close(kept[i]);
			atomic_fetch_sub(&n_open, 1);
		}
		kept[i] = open_answered(++xid);
		if (kept[i] >= 0)
			atomic_fetch_add(&n_open, 1);
		atomic_fetch_add(&n_cycled, 1);
		if (++i == hi)
			i = lo;
	}
	return NULL;
idle:
	while (keep_running())
		sleep_ms(100);
	return NULL;
}

static void on_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/* Room for the held set and a few more descriptors. */
static int raise_nofile(void)
{
	struct rlimit rl;
	rlim_t want = (rlim_t)opt.keep + 64;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return -1;
	if (rl.rlim_cur >= want)
		return 0;
	if (rl.rlim_max < want)
		rl.rlim_max = want;
	rl.rlim_cur = want;
	return setrlimit(RLIMIT_NOFILE, &rl);
}

static void progress(const char *what)
{
	printf("conn-churn: %s t_ms=%ld open=%lu cycled=%lu answered=%lu dropped=%lu unasked=%lu refused=%lu timed_out=%lu other=%lu\n",
	       what, ms_since(t_start), (unsigned long)n_open,
	       (unsigned long)n_cycled, (unsigned long)n_ok,
	       (unsigned long)n_dropped, (unsigned long)n_unasked,
	       (unsigned long)n_refused, (unsigned long)n_timeout,
	       (unsigned long)n_other);
	fflush(stdout);
}

/* --keep: the threads hold and cycle; this one reports once a second. */
static void run_keep(pthread_t *tids)
{
	uint64_t next = now_ns() + 1000000000u;
	bool said_kept = false;

	while (n_opened_threads < opt.threads || keep_running()) {
		if (!said_kept && n_opened_threads == opt.threads) {
			kept_ms = ms_since(t_start);
			progress("kept");
			said_kept = true;
			atomic_store(&cycling, true);
		}
		if (now_ns() >= next) {
			progress("held");
			next += 1000000000u;
		}
		sleep_ms(50);
	}
	for (unsigned int i = 0; i < opt.threads; i++)
		pthread_join(tids[i], NULL);
	cycled_ms = ms_since(t_start);
	/* the server saw every one of them still open until now */
	for (unsigned int i = 0; i < opt.keep; i++) {
		if (kept[i] >= 0) {
			check_held(kept[i]);
			close(kept[i]);
		}
	}
	progress("ended");
}

enum { C_THREADS = 1, C_DURATION, C_CONNS, C_TIMEOUT, C_HOLD, C_KEEP, C_RATE,
       C_NICE, C_HELP };

static const struct optdef defs[] = {
	TOOL_TARGET_OPTS,
	{ "threads", 0, true, C_THREADS },
	{ "duration-ms", 0, true, C_DURATION },
	{ "connections", 0, true, C_CONNS },
	{ "timeout-ms", 0, true, C_TIMEOUT },
	{ "hold", 0, true, C_HOLD },
	{ "keep", 0, true, C_KEEP },
	{ "cycle-rate", 0, true, C_RATE },
	{ "nice", 0, true, C_NICE },
	{ "help", 'h', false, C_HELP },
	{ NULL, 0, false, 0 },
};

/* --nice: an integer -20..19, or the usage error and exit 2. */
static int nice_value(const struct optdef *d, const char *val)
{
	char err[200], *end;
	long v;

	errno = 0;
	v = strtol(val, &end, 10);
	if (errno || end == val || *end || v < -20 || v > 19) {
		opt_bad_value(err, sizeof(err), NULL, d, val, "an integer -20..19");
		exit(opts_usage_error("conn-churn", err));
	}
	return (int)v;
}

/* One of conn-churn's own options (toolopts.h); the numbers by a table. */
static void churn_opt(void *ctx, const char *prog, const struct optdef *d,
		      const char *val)
{
	static const struct {
		int id;
		unsigned int lo, hi, *to;
	} numbers[] = {
		{ C_THREADS, 1, MAX_THREADS, &opt.threads },
		{ C_DURATION, 1, 86400000, &opt.duration_ms },
		{ C_CONNS, 1, 1000000000, &opt.max_conns },
		{ C_TIMEOUT, 1, 600000, &opt.timeout_ms },
		{ C_HOLD, 1, MAX_HOLD, &opt.hold },
		{ C_KEEP, 1, MAX_KEEP, &opt.keep },
		{ C_RATE, 0, MAX_KEEP, &opt.cycle_rate },
	};

	(void)ctx;
	if (d->id == C_HELP) {
		usage(stdout);
		exit(0);
	}
	if (d->id == C_NICE)
		opt.nice = nice_value(d, val);
	for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); i++)
		if (numbers[i].id == d->id)
			*numbers[i].to = (unsigned int)opt_u64_or_exit(
				prog, d, val, numbers[i].lo, numbers[i].hi, 0);
}

int main(int argc, char **argv)
{
	pthread_t tids[MAX_THREADS];
	struct stopsig saved;
	unsigned int i;
	unsigned long bad;
	long ms;

	tool_parse("conn-churn", argc, argv, defs, churn_opt, NULL, &opt.server);
	if (opt.cycle_rate && !opt.keep)
		return opts_usage_error("conn-churn", "--cycle-rate needs --keep");
	if (opt.keep && (opt.max_conns || opt.hold != 1))
		return opts_usage_error("conn-churn",
					"--keep takes neither --connections nor --hold");
	if (opt.keep) {
		if (raise_nofile() < 0) {
			fprintf(stderr, "conn-churn: cannot raise the open file limit to %u: %s\n",
				opt.keep + 64, strerror(errno));
			return 1;
		}
		kept = malloc(sizeof(*kept) * opt.keep);
		if (!kept) {
			fprintf(stderr, "conn-churn: out of memory\n");
			return 1;
		}
		/* a stop while the set is being opened leaves slots unopened */
		for (i = 0; i < opt.keep; i++)
			kept[i] = -1;
		stopsig_catch(&saved, on_stop);
	}

	/* Linux's nice is per thread: set before the threads are made, each
	 * inherits it
	 */
	if (opt.nice && setpriority(PRIO_PROCESS, 0, opt.nice) < 0) {
		fprintf(stderr, "conn-churn: cannot set nice %d: %s\n", opt.nice,
			strerror(errno));
		return 1;
	}
	t_start = now_ns();
	for (i = 0; i < opt.threads; i++) {
		if (pthread_create(&tids[i], NULL, opt.keep ? hold : churn,
				   (void *)(uintptr_t)i) != 0) {
			fprintf(stderr, "conn-churn: cannot start thread %u\n", i);
			return 1;
		}
	}
	if (opt.keep) {
		run_keep(tids);
		stopsig_restore(&saved);
	} else {
		for (i = 0; i < opt.threads; i++)
			pthread_join(tids[i], NULL);
	}
	ms = ms_since(t_start);

	bad = n_refused + n_timeout + n_other;
	printf("conn-churn: %lu connections in %ld ms from %u threads: %lu answered, %lu refused, %lu timed out, %lu other errors%s%s",
	       (unsigned long)n_conns, ms, opt.threads, (unsigned long)n_ok,
	       (unsigned long)n_refused, (unsigned long)n_timeout,
	       (unsigned long)n_other, bad ? "; first: " : "",
	       bad ? strerror(first_errno) : "");
	if (opt.keep) {
		long cyc_ms = kept_ms >= 0 ? cycled_ms - kept_ms : 0;

		printf("; kept %u (all open after %ld ms), cycled %lu (%.1f/s after that), dropped by the server %lu, unasked data %lu",
		       opt.keep, kept_ms, (unsigned long)n_cycled,
		       cyc_ms > 0 ? n_cycled * 1000.0 / cyc_ms : 0.0,
		       (unsigned long)n_dropped, (unsigned long)n_unasked);
		bad += n_dropped + n_unasked;
		if (kept_ms < 0)	/* stopped before the whole set was open */
			bad++;
		free(kept);
	}
	printf("\n");
	return bad || !n_ok ? 1 : 0;
}
