// SPDX-License-Identifier: GPL-2.0
/*
 * rr-client - drives rr-server (rr.h) the way rpcload drives an RPC
 * server, with the same load generator (libsvcrpc's loadgen.h): N
 * connections, one thread each, one request in flight per connection, for
 * a duration or a number of calls, closed loop or at a fixed rate; prints
 * rpcload's JSON shape ("tool":"rr-client") or a short table.
 *
 * --proc null / --proc echo --size N pick the request and reply sizes of
 * the matching RPC call over TCP (AUTH_NONE, record mark included), so the
 * bytes on the wire are those of rpcload's calls; --req-size/--resp-size
 * set them directly.  mb_per_s counts payload as rpcload does: 2 x size per
 * ECHO call, request + reply bytes for explicit sizes, 0 for null.
 */
#define _GNU_SOURCE
#include "rr.h"
#include "jsonout.h"
#include "loadgen.h"
#include "netio.h"
#include "opts.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

enum rr_proc { RRP_NULL, RRP_ECHO, RRP_RAW };

struct rr_opts {
	char host[256];
	unsigned port;
	unsigned conns;
	double duration_s;
	uint64_t calls_limit;
	enum rr_proc proc;
	uint32_t size;
	uint32_t req_size, resp_size;
	uint64_t seed;
	unsigned timeout_ms;
	uint64_t rate;
	double warmup_s;
	bool json;
	struct net_addr addr;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: rr-client [load] [--host ADDR] [--port PORT] [--conns N]\n"
		"                 [--duration D | --calls N] [--proc null|echo]\n"
		"                 [--size BYTES] [--req-size B --resp-size B]\n"
		"                 [--rate N] [--warmup D] [--seed K] [--timeout-ms MS]\n"
		"                 [--json]\n"
		"\n"
		"Drives rr-server (bench/rr-server.c): N TCP connections, one thread\n"
		"and one request in flight each, fixed-size requests and replies,\n"
		"no RPC.  The sizes are those of the matching RPC call over TCP:\n"
		"  --proc null              request %u, reply %u bytes (default)\n"
		"  --proc echo --size N     request %u+4+N, reply %u+4+N (N padded to 4)\n"
		"  --req-size B --resp-size B   explicit sizes (proc \"raw\")\n"
		"Other options (as rpcload load's):\n"
		"  -c, --host ADDR     server name or address (default 127.0.0.1)\n"
		"  -p, --port PORT     (default %u)\n"
		"  -P, --conns N       connections (default 1, at most 4096)\n"
		"  -t, --duration D    how long: 10, 10s, 500ms, 2m (default 10 s; 0 with\n"
		"                      --calls: no limit)\n"
		"  -n, --calls N       stop after N calls in all\n"
		"  -l, --size BYTES    the ECHO payload the sizes are those of\n"
		"  -R, --rate N        open loop: N calls per second in all, latency from\n"
		"                      the time each call was due (as rpcload load --rate)\n"
		"      --warmup D      calls for D before measuring\n"
		"      --seed K        recorded in the output (the payload is fixed)\n"
		"      --timeout-ms MS a reply not received by then is a timeout (5000)\n"
		"  -J, --json          one JSON document in rpcload's shape, tool \"rr-client\"\n"
		"  -h, --help          this text\n"
		"\"rr-client\" alone (without \"load\") is accepted too.  Exit status:\n"
		"0 every call answered correctly, 1 some call failed, 2 bad usage.\n",
		RR_NULL_REQ, RR_NULL_RESP, RR_NULL_REQ, RR_NULL_RESP,
		RR_DEFAULT_PORT);
}

enum {
	C_HELP = 1, C_JSON, C_HOST, C_PORT, C_CONNS, C_DURATION, C_CALLS,
	C_PROC, C_SIZE, C_REQ, C_RESP, C_SEED, C_TIMEOUT, C_RATE, C_WARMUP,
};

static const struct optdef client_opts[] = {
	{ "help", 'h', false, C_HELP },
	{ "json", 'J', false, C_JSON },
	{ "host", 'c', true, C_HOST },
	{ "port", 'p', true, C_PORT },
	{ "conns", 'P', true, C_CONNS },
	{ "duration", 't', true, C_DURATION },
	{ "calls", 'n', true, C_CALLS },
	{ "proc", 0, true, C_PROC },
	{ "size", 'l', true, C_SIZE },
	{ "req-size", 0, true, C_REQ },
	{ "resp-size", 0, true, C_RESP },
	{ "seed", 0, true, C_SEED },
	{ "timeout-ms", 0, true, C_TIMEOUT },
	{ "rate", 'R', true, C_RATE },
	{ "warmup", 0, true, C_WARMUP },
	{ NULL, 0, false, 0 },
};

/* One option: 0, or -1 with err set. */
static int client_opt(struct rr_opts *o, const struct optdef *d,
		      const char *val, char *err, size_t n)
{
	/* --proc's words, by enum rr_proc (raw is the sizes') */
	static const char *const proc_words[] = { "null", "echo", NULL };
	int i;

	switch (d->id) {
	case C_JSON:
		o->json = true;
		return 0;
	case C_HOST:
		if (!*val || strlen(val) >= sizeof(o->host))
			return opt_bad_value(err, n, NULL, d, val, "a host name or address");
		snprintf(o->host, sizeof(o->host), "%s", val);
		return 0;
	case C_PORT:
		return opt_u32(err, n, NULL, d, val, 1, 65535, 0, &o->port);
	case C_CONNS:
		return opt_u32(err, n, NULL, d, val, 1, LG_MAX_CONNS, 0, &o->conns);
	case C_DURATION:
		return opt_duration(err, n, NULL, d, val, true, 86400, &o->duration_s);
	case C_CALLS:
		return opt_u64(err, n, NULL, d, val, 0, UINT64_MAX, 0, &o->calls_limit);
	case C_PROC:
		if (opt_word(err, n, NULL, d, val, proc_words, &i) < 0)
			return -1;
		o->proc = (enum rr_proc)i;
		return 0;
	case C_SIZE:
		return opt_u32(err, n, NULL, d, val, 0, RR_MAX_SIZE - 64, OPT_KM,
			       &o->size);
	case C_REQ:
	case C_RESP:
		return opt_u32(err, n, NULL, d, val, RR_MIN_SIZE, RR_MAX_SIZE, OPT_KM,
			       d->id == C_REQ ? &o->req_size : &o->resp_size);
	case C_SEED:
		return opt_u64(err, n, NULL, d, val, 0, INT64_MAX, 0, &o->seed);
	case C_TIMEOUT:
		return opt_u32(err, n, NULL, d, val, 1, 3600000, 0, &o->timeout_ms);
	case C_RATE:
		return opt_u64(err, n, NULL, d, val, 1, 10000000, 0, &o->rate);
	case C_WARMUP:
		return opt_duration(err, n, NULL, d, val, true, 86400, &o->warmup_s);
	}
	opt_errf(err, n, "internal error: option --%s", d->name);
	return -1;
}

/* 0 run, 1 --help given, -1 bad usage (err set). */
static int parse_opts(int argc, char **argv, struct rr_opts *o, char *err,
		      size_t n)
{
	bool have_size = false;
	const struct optdef *d;
	const char *val;
	struct opts s;
	int id;

	memset(o, 0, sizeof(*o));
	snprintf(o->host, sizeof(o->host), "127.0.0.1");
	o->port = RR_DEFAULT_PORT;
	o->conns = 1;
	o->duration_s = 10.0;
	o->proc = RRP_NULL;
	o->seed = 1;
	o->timeout_ms = 5000;
	if (argc > 1 && !strcmp(argv[1], "load")) {
		argv[1] = argv[0];
		argc--;
		argv++;
	}
	opts_start(&s, argc, argv, client_opts, NULL, "rr-client --help");
	while ((id = opts_next(&s, &d, &val, err, n)) > 0) {
		if (id == C_HELP)
			return 1;
		if (client_opt(o, d, val, err, n) < 0)
			return -1;
		have_size |= id == C_SIZE;
	}
	if (id < 0 || opts_no_args(&s, err, n) < 0)
		return -1;
	if (!o->req_size != !o->resp_size) {
		opt_errf(err, n, "--req-size and --resp-size go together");
		return -1;
	}
	if (o->req_size) {
		if (have_size) {
			opt_errf(err, n, "--size does not go with --req-size");
			return -1;
		}
		o->proc = RRP_RAW;
	} else if (o->proc == RRP_ECHO) {
		uint32_t padded = (o->size + 3u) & ~3u;

		o->req_size = RR_NULL_REQ + 4 + padded;
		o->resp_size = RR_NULL_RESP + 4 + padded;
	} else {
		if (have_size) {
			opt_errf(err, n, "--size needs --proc echo");
			return -1;
		}
		o->req_size = RR_NULL_REQ;
		o->resp_size = RR_NULL_RESP;
	}
	if (o->duration_s == 0 && o->calls_limit == 0) {
		opt_errf(err, n, "--duration 0 needs --calls");
		return -1;
	}
	return 0;
}

/* ---- a connection and a call ------------------------------------------- */

struct rr_conn {
	int fd; /* first: closed by lg_close_fd */
	uint8_t *req, *resp;
};

static int conn_init(void *ctx, void *vconn, char *err, size_t n)
{
	const struct rr_opts *o = ctx;
	struct rr_conn *c = vconn;

	c->fd = -1;
	c->req = malloc(o->req_size);
	c->resp = malloc(o->resp_size);
	if (!c->req || !c->resp) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	for (uint32_t k = 0; k < o->req_size; k++)
		c->req[k] = (uint8_t)(k * 13u + (unsigned)o->seed);
	return 0;
}

static int conn_open(void *ctx, void *vconn, char *err, size_t n)
{
	const struct rr_opts *o = ctx;
	struct rr_conn *c = vconn;
	struct timeval tv = { .tv_sec = o->timeout_ms / 1000,
			      .tv_usec = (o->timeout_ms % 1000) * 1000 };
	uint8_t hello[RR_HELLO_LEN];
	int fd = net_dial(&o->addr, SOCK_STREAM, o->timeout_ms, NET_NODELAY, 0, 0);

	if (fd < 0) {
		snprintf(err, n, "connect %s: %s", o->addr.text, strerror(errno));
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	wr_u32(hello, RR_MAGIC);
	wr_u32(hello + 4, o->req_size);
	wr_u32(hello + 8, o->resp_size);
	if (fd_write_full(fd, hello, sizeof(hello)) < 0) {
		snprintf(err, n, "hello: %s", errno ? strerror(errno) : "closed");
		close(fd);
		return -1;
	}
	c->fd = fd;
	return 0;
}

static void conn_fini(void *ctx, void *vconn)
{
	struct rr_conn *c = vconn;

	(void)ctx;
	free(c->req);
	free(c->resp);
}

static void conn_call(void *ctx, void *vconn, uint64_t callno, struct lg_call *r)
{
	const struct rr_opts *o = ctx;
	struct rr_conn *c = vconn;
	const char *what;
	int e;

	memcpy(c->req, &callno, 8);
	if (fd_write_full(c->fd, c->req, o->req_size) < 0) {
		what = "send";
	} else if (fd_read_full(c->fd, c->resp, o->resp_size) < 0) {
		what = "receive";
	} else if (memcmp(c->resp, c->req, 8) != 0) {
		r->outcome = LG_MISMATCH;
		r->broken = true;
		snprintf(r->msg, sizeof(r->msg), "reply does not match request: %s",
			 strerror(EPROTO));
		return;
	} else {
		return;
	}
	e = errno;
	r->broken = true;
	if (e == EAGAIN || e == EWOULDBLOCK) {
		r->outcome = LG_TIMEOUT;
		e = ETIMEDOUT;
	} else {
		r->outcome = LG_FAILED;
	}
	snprintf(r->msg, sizeof(r->msg), "%s: %s", what,
		 e ? strerror(e) : "connection closed");
}

static const struct lg_ops rr_ops = {
	.conn_size = sizeof(struct rr_conn),
	.init = conn_init,
	.open = conn_open,
	.close = lg_close_fd,
	.call = conn_call,
	.fini = conn_fini,
};

/* ---- output -------------------------------------------------------------- */

static const char *proc_name(enum rr_proc p)
{
	return p == RRP_NULL ? "null" : p == RRP_ECHO ? "echo" : "raw";
}

static json_t *params_json(const struct rr_opts *o)
{
	json_t *p = json_pack(
		"{s:s, s:I, s:s, s:I, s:s, s:I, s:I, s:I, s:f, s:I, s:I, s:I}",
		"host", o->host, "port", (json_int_t)o->port, "proto", "tcp",
		"conns", (json_int_t)o->conns, "proc", proc_name(o->proc), "size",
		(json_int_t)o->size, "req_size", (json_int_t)o->req_size,
		"resp_size", (json_int_t)o->resp_size, "duration_s", o->duration_s,
		/* calls_limit may not fit a JSON integer: clamp */
		"calls_limit", (json_int_t)(o->calls_limit > INT64_MAX ? INT64_MAX
								       : o->calls_limit),
		"seed", (json_int_t)o->seed, "timeout_ms", (json_int_t)o->timeout_ms);

	if (p && o->rate)
		json_object_set_new(p, "rate", json_integer((json_int_t)o->rate));
	if (p && o->warmup_s > 0)
		json_object_set_new(p, "warmup_s", json_real(o->warmup_s));
	return p;
}

static void print_json(const struct rr_opts *o, const struct lg_result *r,
		       const char *err)
{
	json_t *result = r ? json_load_result(r, o->rate > 0, o->warmup_s > 0)
			   : json_null();
	json_t *doc = json_pack("{s:s, s:i, s:o, s:o}", "tool", "rr-client",
				"version", 1, "params", params_json(o), "result",
				result);

	if (doc && err)
		json_object_set_new(doc, "error", json_string(err));
	if (json_print(stdout, doc) < 0)
		fprintf(stderr, "rr-client: cannot build the JSON document\n");
}

static void print_table(const struct rr_opts *o, const struct lg_result *r)
{
	const struct hist *h = &r->hist;

	printf("rr-client  %s:%u/tcp  proc %s  request %u reply %u bytes  conns %u\n",
	       o->host, o->port, proc_name(o->proc), o->req_size, o->resp_size,
	       o->conns);
	printf("%-12s %14s %14s %10s %10s %10s\n", "elapsed_s", "calls", "ok",
	       "failures", "timeouts", "mismatch");
	printf("%-12.3f %14llu %14llu %10llu %10llu %10llu\n", r->elapsed_s,
	       (unsigned long long)r->calls, (unsigned long long)r->ok,
	       (unsigned long long)r->failures, (unsigned long long)r->timeouts,
	       (unsigned long long)r->mismatches);
	printf("%-12s %14.1f ops/s %10.3f MB/s\n", "", r->ops_per_s, r->mb_per_s);
	printf("latency_us   p50 %.1f  p90 %.1f  p99 %.1f  p99.9 %.1f  max %.1f  mean %.1f\n",
	       (double)hist_percentile(h, 50) / 1e3,
	       (double)hist_percentile(h, 90) / 1e3,
	       (double)hist_percentile(h, 99) / 1e3,
	       (double)hist_percentile(h, 99.9) / 1e3,
	       h->count ? (double)h->max / 1e3 : 0, hist_mean(h) / 1e3);
	if (r->first_error[0])
		printf("first error: %s\n", r->first_error);
}

int main(int argc, char **argv)
{
	struct rr_opts o;
	struct lg_result *r;
	char err[300], why[400];
	int rc;

	rc = parse_opts(argc, argv, &o, err, sizeof(err));
	if (rc > 0) {
		usage(stdout);
		return 0;
	}
	if (rc < 0)
		return opts_usage_error("rr-client", err);
	signal(SIGPIPE, SIG_IGN);
	if (net_resolve(o.host, o.port, SOCK_STREAM, &o.addr, err, sizeof(err)) < 0) {
		fprintf(stderr, "rr-client: --host: %s\n", err);
		return 2;
	}
	r = malloc(sizeof(*r));
	if (!r) {
		fprintf(stderr, "rr-client: out of memory\n");
		return 1;
	}
	struct lg_params p = {
		.conns = o.conns,
		.duration_s = o.duration_s,
		.calls_limit = o.calls_limit,
		.rate = (double)o.rate,
		.warmup_s = o.warmup_s,
		.payload_per_call = o.proc == RRP_ECHO ? 2ull * o.size :
				    o.proc == RRP_RAW ? (uint64_t)o.req_size + o.resp_size : 0,
		.name = "rr-client",
	};

	if (lg_run(&p, &rr_ops, &o, r, err, sizeof(err)) < 0) {
		fprintf(stderr, "rr-client: %s\n", err);
		if (o.json)
			print_json(&o, NULL, err);
		free(r);
		return 1;
	}
	rc = r->failures || r->timeouts || r->mismatches || r->ok != r->calls;
	if (o.json) {
		snprintf(why, sizeof(why), "%llu of %llu calls failed%s%s",
			 (unsigned long long)(r->calls - r->ok),
			 (unsigned long long)r->calls, r->first_error[0] ? ": " : "",
			 r->first_error);
		print_json(&o, r, rc ? why : NULL);
	} else {
		print_table(&o, r);
	}
	free(r);
	return rc;
}
