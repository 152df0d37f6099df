/*
 * rr-client - drives rr-server (rr.h) the way rpcload drives an RPC
 * server: N connections, one thread each, one request in flight per
 * connection, for a duration or a number of calls; prints rpcload's JSON
 * shape ("tool":"rr-client") or a short table.
 *
 * --proc null / --proc echo --size N pick the request and reply sizes of
 * the matching RPC call over TCP (AUTH_NONE, record mark included), so the
 * bytes on the wire are those of rpcload's calls; --req-size/--resp-size
 * set them directly.  mb_per_s counts payload as rpcload does: 2 x size per
 * ECHO call, request + reply bytes for explicit sizes, 0 for null.
 */
#define _GNU_SOURCE
#include "rr.h"
#include "clock.h"
#include "histogram.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
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
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* ---- latency histogram: rpcload's own (userland-client/histogram.c) ---- */

/* ---- options ---------------------------------------------------------- */
enum rr_proc { RRP_NULL, RRP_ECHO, RRP_RAW };

struct opts {
	char host[64];
	unsigned port;
	unsigned conns;
	double duration_s;
	uint64_t calls_limit;
	enum rr_proc proc;
	uint32_t size;
	uint32_t req_size, resp_size;
	uint64_t seed;
	unsigned timeout_ms;
	bool json;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: rr-client load [--host ADDR] [--port PORT] [--conns N]\n"
		"                 [--duration S | --calls N] [--proc null|echo]\n"
		"                 [--size BYTES] [--req-size B --resp-size B]\n"
		"                 [--seed K] [--timeout-ms MS] [--json]\n"
		"\n"
		"Drives rr-server (bench/rr-server.c): N TCP connections, one thread\n"
		"and one request in flight each, fixed-size requests and replies,\n"
		"no RPC.  The sizes are those of the matching RPC call over TCP:\n"
		"  --proc null              request %u, reply %u bytes (default)\n"
		"  --proc echo --size N     request %u+4+N, reply %u+4+N (N padded to 4)\n"
		"  --req-size B --resp-size B   explicit sizes (proc \"raw\")\n"
		"Other options:\n"
		"  --host ADDR     IPv4 address (default 127.0.0.1)\n"
		"  --port PORT     (default %u)\n"
		"  --conns N       connections (default 1, at most 4096)\n"
		"  --duration S    seconds (default 10; 0 with --calls: no limit)\n"
		"  --calls N       stop after N calls in all\n"
		"  --seed K        recorded in the output (the payload is fixed)\n"
		"  --timeout-ms MS a reply not received by then is a timeout (5000)\n"
		"  --json          one JSON document in rpcload's shape, tool \"rr-client\"\n"
		"  --help          this text\n"
		"\"rr-client\" alone (without \"load\") is accepted too.  Exit status:\n"
		"0 every call answered correctly, 1 some call failed, 2 bad usage.\n",
		RR_NULL_REQ, RR_NULL_RESP, RR_NULL_REQ, RR_NULL_RESP,
		RR_DEFAULT_PORT);
}

static int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || s[0] == '-')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	bool have_req = false, have_resp = false, have_size = false;
	uint64_t v;

	memset(o, 0, sizeof(*o));
	snprintf(o->host, sizeof(o->host), "127.0.0.1");
	o->port = RR_DEFAULT_PORT;
	o->conns = 1;
	o->duration_s = 10.0;
	o->proc = RRP_NULL;
	o->seed = 1;
	o->timeout_ms = 5000;
	int i = 1;

	if (i < argc && !strcmp(argv[i], "load"))
		i++;
	for (; i < argc; i++) {
		const char *a = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			exit(0);
		} else if (!strcmp(a, "--json") || !strcmp(a, "-J")) {
			o->json = true;
			continue;
		} else if (!strcmp(a, "--host")) {
			if (!val || strlen(val) >= sizeof(o->host))
				goto bad;
			snprintf(o->host, sizeof(o->host), "%s", val);
		} else if (!strcmp(a, "--port")) {
			if (parse_u64(val, 65535, &v) < 0 || v == 0)
				goto bad;
			o->port = (unsigned)v;
		} else if (!strcmp(a, "--conns")) {
			if (parse_u64(val, 4096, &v) < 0 || v == 0)
				goto bad;
			o->conns = (unsigned)v;
		} else if (!strcmp(a, "--duration")) {
			char *end;

			if (!val)
				goto bad;
			o->duration_s = strtod(val, &end);
			if (*end || !(o->duration_s >= 0) || o->duration_s > 86400)
				goto bad;
		} else if (!strcmp(a, "--calls")) {
			if (parse_u64(val, UINT64_MAX, &v) < 0)
				goto bad;
			o->calls_limit = v;
		} else if (!strcmp(a, "--proc")) {
			if (val && !strcmp(val, "null"))
				o->proc = RRP_NULL;
			else if (val && !strcmp(val, "echo"))
				o->proc = RRP_ECHO;
			else
				goto bad;
		} else if (!strcmp(a, "--size")) {
			if (parse_u64(val, RR_MAX_SIZE - 64, &v) < 0)
				goto bad;
			o->size = (uint32_t)v;
			have_size = true;
		} else if (!strcmp(a, "--req-size")) {
			if (parse_u64(val, RR_MAX_SIZE, &v) < 0 || v < RR_MIN_SIZE)
				goto bad;
			o->req_size = (uint32_t)v;
			have_req = true;
		} else if (!strcmp(a, "--resp-size")) {
			if (parse_u64(val, RR_MAX_SIZE, &v) < 0 || v < RR_MIN_SIZE)
				goto bad;
			o->resp_size = (uint32_t)v;
			have_resp = true;
		} else if (!strcmp(a, "--seed")) {
			if (parse_u64(val, INT64_MAX, &v) < 0)
				goto bad;
			o->seed = v;
		} else if (!strcmp(a, "--timeout-ms")) {
			if (parse_u64(val, 3600000, &v) < 0 || v == 0)
				goto bad;
			o->timeout_ms = (unsigned)v;
		} else {
			fprintf(stderr, "rr-client: unknown argument: %s (see --help)\n", a);
			return -1;
		}
		i++;
		continue;
bad:
		fprintf(stderr, "rr-client: bad value for %s: %s (see --help)\n", a,
			val ? val : "(missing)");
		return -1;
	}
	if (have_req != have_resp) {
		fprintf(stderr, "rr-client: --req-size and --resp-size go together\n");
		return -1;
	}
	if (have_req) {
		if (have_size) {
			fprintf(stderr, "rr-client: --size does not go with --req-size\n");
			return -1;
		}
		o->proc = RRP_RAW;
	} else if (o->proc == RRP_ECHO) {
		uint32_t padded = (o->size + 3u) & ~3u;

		o->req_size = RR_NULL_REQ + 4 + padded;
		o->resp_size = RR_NULL_RESP + 4 + padded;
	} else {
		if (have_size) {
			fprintf(stderr, "rr-client: --size needs --proc echo\n");
			return -1;
		}
		o->req_size = RR_NULL_REQ;
		o->resp_size = RR_NULL_RESP;
	}
	if (o->duration_s == 0 && o->calls_limit == 0) {
		fprintf(stderr, "rr-client: --duration 0 needs --calls\n");
		return -1;
	}
	return 0;
}

/* ---- load ------------------------------------------------------------- */
struct shared {
	const struct opts *o;
	struct sockaddr_in sa;
	atomic_uint_fast64_t next_call;
	atomic_bool stop;
	atomic_uint active;
	pthread_barrier_t start;
};

struct worker {
	pthread_t th;
	unsigned idx;
	struct shared *sh;
	int fd;
	uint64_t calls, ok, failures, timeouts, mismatches, reconnects;
	bool gave_up;
	double end_time;
	uint8_t *req, *resp;
	char first_err[256];
	struct hist hist;
};

static void note(struct worker *w, const char *what, int err)
{
	if (!w->first_err[0])
		snprintf(w->first_err, sizeof(w->first_err), "conn %u: %s: %s",
			 w->idx, what, err ? strerror(err) : "connection closed");
}

/* 0 ok, -1 error (errno set; 0 for EOF) */
static int io_full(int fd, void *buf, size_t len, bool wr)
{
	uint8_t *p = buf;

	while (len > 0) {
		ssize_t r = wr ? write(fd, p, len) : read(fd, p, len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r == 0)
				errno = 0;
			return -1;
		}
		p += r;
		len -= (size_t)r;
	}
	return 0;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static int conn_open(struct worker *w, char *err, size_t n)
{
	const struct opts *o = w->sh->o;
	struct timeval tv = { .tv_sec = o->timeout_ms / 1000,
			      .tv_usec = (o->timeout_ms % 1000) * 1000 };
	uint8_t hello[RR_HELLO_LEN];
	int one = 1;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0) {
		snprintf(err, n, "socket: %s", strerror(errno));
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (connect(fd, (struct sockaddr *)&w->sh->sa, sizeof(w->sh->sa)) < 0) {
		snprintf(err, n, "connect %s:%u: %s", o->host, o->port,
			 strerror(errno));
		close(fd);
		return -1;
	}
	put_be32(hello, RR_MAGIC);
	put_be32(hello + 4, o->req_size);
	put_be32(hello + 8, o->resp_size);
	if (io_full(fd, hello, sizeof(hello), true) < 0) {
		snprintf(err, n, "hello: %s", errno ? strerror(errno) : "closed");
		close(fd);
		return -1;
	}
	w->fd = fd;
	return 0;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct shared *sh = w->sh;
	const struct opts *o = sh->o;
	unsigned reconnect_failures = 0;
	char err[160];

	pthread_barrier_wait(&sh->start);
	while (!atomic_load_explicit(&sh->stop, memory_order_relaxed)) {
		uint64_t seq = atomic_fetch_add_explicit(&sh->next_call, 1,
							 memory_order_relaxed);

		if (o->calls_limit && seq >= o->calls_limit)
			break;
		if (w->fd < 0) {
			if (conn_open(w, err, sizeof(err)) < 0) {
				w->calls++;
				w->failures++;
				if (!w->first_err[0])
					snprintf(w->first_err, sizeof(w->first_err),
						 "conn %u: %s", w->idx, err);
				if (++reconnect_failures >= 3) {
					w->gave_up = true;
					break;
				}
				usleep(100000);
				continue;
			}
			w->reconnects++;
			reconnect_failures = 0;
		}
		memcpy(w->req, &seq, 8);

		uint64_t t0 = now_ns();
		int wr = io_full(w->fd, w->req, o->req_size, true);
		int e = errno;
		int rd = wr < 0 ? -1 : io_full(w->fd, w->resp, o->resp_size, false);
		uint64_t t1 = now_ns();

		if (wr == 0 && rd < 0)
			e = errno;
		w->calls++;
		if (wr == 0 && rd == 0) {
			if (memcmp(w->resp, w->req, 8) == 0) {
				w->ok++;
				hist_record(&w->hist, t1 - t0);
			} else {
				w->mismatches++;
				note(w, "reply does not match request", EPROTO);
				close(w->fd);
				w->fd = -1;
			}
			continue;
		}
		if (e == EAGAIN || e == EWOULDBLOCK) {
			w->timeouts++;
			note(w, wr < 0 ? "send" : "receive", ETIMEDOUT);
		} else {
			w->failures++;
			note(w, wr < 0 ? "send" : "receive", e);
		}
		close(w->fd);
		w->fd = -1;
	}
	w->end_time = now_s();
	atomic_fetch_sub(&sh->active, 1);
	return NULL;
}

static const char *proc_name(enum rr_proc p)
{
	return p == RRP_NULL ? "null" : p == RRP_ECHO ? "echo" : "raw";
}

int main(int argc, char **argv)
{
	struct opts o;
	struct shared sh;
	struct worker *ws;
	struct hist *tot;
	char err[160];

	if (parse_opts(argc, argv, &o) < 0)
		return 2;
	signal(SIGPIPE, SIG_IGN);

	memset(&sh, 0, sizeof(sh));
	sh.o = &o;
	sh.sa.sin_family = AF_INET;
	sh.sa.sin_port = htons((uint16_t)o.port);
	if (inet_pton(AF_INET, o.host, &sh.sa.sin_addr) != 1) {
		fprintf(stderr, "rr-client: --host %s: not an IPv4 address\n", o.host);
		return 2;
	}
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < o.conns + 64) {
		rl.rlim_cur = rl.rlim_max < o.conns + 64 ? rl.rlim_max : o.conns + 64;
		setrlimit(RLIMIT_NOFILE, &rl);
	}

	ws = calloc(o.conns, sizeof(*ws));
	tot = malloc(sizeof(*tot));
	if (!ws || !tot) {
		fprintf(stderr, "rr-client: out of memory\n");
		return 1;
	}
	hist_init(tot);
	/* Every connection is set up before the clock starts. */
	for (unsigned i = 0; i < o.conns; i++) {
		struct worker *w = &ws[i];

		w->idx = i;
		w->sh = &sh;
		w->fd = -1;
		hist_init(&w->hist);
		w->req = malloc(o.req_size);
		w->resp = malloc(o.resp_size);
		if (!w->req || !w->resp) {
			fprintf(stderr, "rr-client: out of memory\n");
			return 1;
		}
		for (uint32_t k = 0; k < o.req_size; k++)
			w->req[k] = (uint8_t)(k * 13u + (unsigned)o.seed);
		if (conn_open(w, err, sizeof(err)) < 0) {
			fprintf(stderr, "rr-client: %s\n", err);
			return 1;
		}
	}
	pthread_barrier_init(&sh.start, NULL, o.conns + 1);
	atomic_store(&sh.active, o.conns);
	for (unsigned i = 0; i < o.conns; i++) {
		int rc = pthread_create(&ws[i].th, NULL, worker_main, &ws[i]);

		if (rc) {
			fprintf(stderr, "rr-client: pthread_create: %s\n", strerror(rc));
			return 1;
		}
	}
	pthread_barrier_wait(&sh.start);
	double t_start = now_s();
	double deadline = o.duration_s > 0 ? t_start + o.duration_s : 0;

	for (;;) {
		double t = now_s();

		if (atomic_load(&sh.active) == 0 || (deadline && t >= deadline))
			break;
		double wait = 0.02;

		if (deadline && deadline - t < wait)
			wait = deadline - t;
		struct timespec ts = { 0, (long)(wait * 1e9) };

		nanosleep(&ts, NULL);
	}
	atomic_store(&sh.stop, true);

	uint64_t calls = 0, ok = 0, failures = 0, timeouts = 0, mismatches = 0;
	uint64_t reconnects = 0;
	unsigned gave_up = 0;
	double t_end = t_start;
	const char *first_err = NULL;

	for (unsigned i = 0; i < o.conns; i++) {
		struct worker *w = &ws[i];

		pthread_join(w->th, NULL);
		if (w->end_time > t_end)
			t_end = w->end_time;
		calls += w->calls;
		ok += w->ok;
		failures += w->failures;
		timeouts += w->timeouts;
		mismatches += w->mismatches;
		reconnects += w->reconnects;
		gave_up += w->gave_up;
		if (!first_err && w->first_err[0])
			first_err = w->first_err;
		hist_merge(tot, &w->hist);
	}
	double elapsed = t_end - t_start;
	uint64_t per_call = o.proc == RRP_ECHO ? 2ull * o.size :
			    o.proc == RRP_RAW ? (uint64_t)o.req_size + o.resp_size : 0;
	uint64_t payload = per_call * ok;
	double ops = elapsed > 0 ? (double)ok / elapsed : 0;
	double mbs = elapsed > 0 ? (double)payload / elapsed / 1e6 : 0;
	double p50 = (double)hist_percentile(tot, 50) / 1e3;
	double p90 = (double)hist_percentile(tot, 90) / 1e3;
	double p99 = (double)hist_percentile(tot, 99) / 1e3;
	double p999 = (double)hist_percentile(tot, 99.9) / 1e3;
	double mx = tot->count ? (double)tot->max / 1e3 : 0;
	double mean = tot->count ? (double)tot->sum / (double)tot->count / 1e3 : 0;

	if (o.json) {
		printf("{\"tool\":\"rr-client\",\"version\":1,\"params\":{"
		       "\"host\":\"%s\",\"port\":%u,\"proto\":\"tcp\",\"conns\":%u,"
		       "\"proc\":\"%s\",\"size\":%u,\"req_size\":%u,\"resp_size\":%u,"
		       "\"duration_s\":%.3f,\"calls_limit\":%llu,\"seed\":%llu,"
		       "\"timeout_ms\":%u},\"result\":{"
		       "\"calls\":%llu,\"ok\":%llu,\"failures\":%llu,\"timeouts\":%llu,"
		       "\"mismatches\":%llu,\"elapsed_s\":%.6f,\"ops_per_s\":%.3f,"
		       "\"mb_per_s\":%.6f,\"latency_us\":{\"p50\":%.3f,\"p90\":%.3f,"
		       "\"p99\":%.3f,\"p999\":%.3f,\"max\":%.3f,\"mean\":%.3f},"
		       "\"payload_bytes\":%llu,\"reconnects\":%llu,"
		       "\"conns_gave_up\":%u,\"interrupted\":false,\"first_error\":",
		       o.host, o.port, o.conns, proc_name(o.proc), o.size, o.req_size,
		       o.resp_size, o.duration_s, (unsigned long long)o.calls_limit,
		       (unsigned long long)o.seed, o.timeout_ms,
		       (unsigned long long)calls, (unsigned long long)ok,
		       (unsigned long long)failures, (unsigned long long)timeouts,
		       (unsigned long long)mismatches, elapsed, ops, mbs, p50, p90,
		       p99, p999, mx, mean, (unsigned long long)payload,
		       (unsigned long long)reconnects, gave_up);
		if (first_err) {
			putchar('"');
			for (const char *p = first_err; *p; p++) {
				if (*p == '"' || *p == '\\')
					putchar('\\');
				if ((unsigned char)*p >= 0x20)
					putchar(*p);
			}
			putchar('"');
		} else {
			fputs("null", stdout);
		}
		fputs("}}\n", stdout);
	} else {
		printf("rr-client  %s:%u/tcp  proc %s  request %u reply %u bytes  conns %u\n",
		       o.host, o.port, proc_name(o.proc), o.req_size, o.resp_size,
		       o.conns);
		printf("%-12s %14s %14s %10s %10s %10s\n", "elapsed_s", "calls", "ok",
		       "failures", "timeouts", "mismatch");
		printf("%-12.3f %14llu %14llu %10llu %10llu %10llu\n", elapsed,
		       (unsigned long long)calls, (unsigned long long)ok,
		       (unsigned long long)failures, (unsigned long long)timeouts,
		       (unsigned long long)mismatches);
		printf("%-12s %14.1f ops/s %10.3f MB/s\n", "", ops, mbs);
		printf("latency_us   p50 %.1f  p90 %.1f  p99 %.1f  p99.9 %.1f  max %.1f  mean %.1f\n",
		       p50, p90, p99, p999, mx, mean);
		if (first_err)
			printf("first error: %s\n", first_err);
	}
	for (unsigned i = 0; i < o.conns; i++) {
		if (ws[i].fd >= 0)
			close(ws[i].fd);
		free(ws[i].req);
		free(ws[i].resp);
	}
	free(ws);
	free(tot);
	return (failures || timeouts || mismatches || ok != calls) ? 1 : 0;
}
