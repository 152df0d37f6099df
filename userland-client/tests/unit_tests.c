/*
 * unit_tests.c - host-side unit tests of rpcload's pure parts: histogram
 * percentiles, the payload pattern, argument parsing and its messages,
 * help coverage, and bad mode's hand-written wire encoding.
 *
 * Run by `make check` with CMOCKA_MESSAGE_OUTPUT=TAP (TAP on stdout).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "help.h"
#include "histogram.h"
#include "pattern.h"
#include "rawrpc.h"
#include "svcsock.h"

/* ---- histogram ----------------------------------------------------------- */

static void test_hist_buckets_contiguous(void **state)
{
	(void)state;
	assert_int_equal(hist_bucket_low(0), 0);
	for (size_t i = 0; i + 1 < HIST_NBUCKETS; i++) {
		assert_true(hist_bucket_low(i) <= hist_bucket_high(i));
		assert_int_equal(hist_bucket_high(i) + 1, hist_bucket_low(i + 1));
	}
	assert_int_equal(hist_bucket_high(HIST_NBUCKETS - 1), HIST_MAX_VALUE);
}

static void test_hist_index_roundtrip(void **state)
{
	struct rng r;

	(void)state;
	rng_seed(&r, 42);
	for (uint64_t v = 0; v < 100000; v++) {
		size_t i = hist_index(v);

		assert_true(hist_bucket_low(i) <= v && v <= hist_bucket_high(i));
	}
	for (int k = 0; k < 100000; k++) {
		uint64_t v = rng_next(&r) >> (20 + rng_below(&r, 44));
		size_t i = hist_index(v);

		if (v > HIST_MAX_VALUE)
			continue;
		assert_true(hist_bucket_low(i) <= v && v <= hist_bucket_high(i));
		/* Relative width below 1/128 of the value. */
		if (v >= HIST_SUB)
			assert_true((double)(hist_bucket_high(i) - hist_bucket_low(i) + 1) /
					    (double)hist_bucket_low(i) <=
				    1.0 / 128.0 + 1e-12);
	}
	assert_int_equal(hist_index(UINT64_MAX), HIST_NBUCKETS - 1);
}

static void test_hist_exact_small(void **state)
{
	struct hist *h = malloc(sizeof(*h));

	(void)state;
	hist_init(h);
	for (uint64_t v = 1; v <= 100; v++)
		hist_record(h, v);
	assert_int_equal(h->count, 100);
	assert_int_equal(hist_percentile(h, 50), 50);
	assert_int_equal(hist_percentile(h, 90), 90);
	assert_int_equal(hist_percentile(h, 99), 99);
	assert_int_equal(hist_percentile(h, 99.9), 100);
	assert_int_equal(hist_percentile(h, 100), 100);
	assert_int_equal(hist_percentile(h, 0), 1);
	assert_int_equal(h->min, 1);
	assert_int_equal(h->max, 100);
	assert_true(fabs(hist_mean(h) - 50.5) < 1e-9);
	free(h);
}

static void test_hist_uniform_large(void **state)
{
	struct hist *h = malloc(sizeof(*h));
	const double ps[] = { 50, 90, 99, 99.9 };

	(void)state;
	hist_init(h);
	/* 1 us .. 1 s in 1 us steps (as nanoseconds). */
	for (uint64_t us = 1; us <= 1000000; us++)
		hist_record(h, us * 1000);
	for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		double exact = ps[i] / 100.0 * 1e6 * 1000.0;
		double got = (double)hist_percentile(h, ps[i]);

		/* Never below the exact rank value, at most one bucket above. */
		assert_true(got >= exact);
		assert_true(got <= exact * (1.0 + 1.0 / 128.0));
	}
	assert_int_equal(hist_percentile(h, 100), 1000000000ull);
	free(h);
}

static void test_hist_empty_single_clamp(void **state)
{
	struct hist *h = malloc(sizeof(*h));

	(void)state;
	hist_init(h);
	assert_int_equal(hist_percentile(h, 50), 0);
	assert_true(hist_mean(h) == 0.0);
	hist_record(h, 123456789);
	/* A single value: every percentile is that value (clamped to min/max). */
	assert_int_equal(hist_percentile(h, 1), 123456789);
	assert_int_equal(hist_percentile(h, 50), 123456789);
	assert_int_equal(hist_percentile(h, 99.9), 123456789);
	hist_init(h);
	hist_record(h, UINT64_MAX);
	assert_int_equal(h->max, HIST_MAX_VALUE);
	assert_int_equal(hist_percentile(h, 50), HIST_MAX_VALUE);
	free(h);
}

static void test_hist_merge(void **state)
{
	struct hist *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b)),
		    *all = malloc(sizeof(*all));

	(void)state;
	hist_init(a);
	hist_init(b);
	hist_init(all);
	for (uint64_t v = 1; v <= 5000; v++) {
		hist_record(v % 2 ? a : b, v * 37);
		hist_record(all, v * 37);
	}
	hist_merge(a, b);
	assert_int_equal(a->count, all->count);
	assert_int_equal(a->sum, all->sum);
	assert_int_equal(a->min, all->min);
	assert_int_equal(a->max, all->max);
	assert_memory_equal(a->buckets, all->buckets, sizeof(a->buckets));
	assert_int_equal(hist_percentile(a, 99), hist_percentile(all, 99));
	free(a);
	free(b);
	free(all);
}

/* ---- pattern -------------------------------------------------------------- */

static void test_pattern_deterministic(void **state)
{
	uint8_t a[1001], b[1001], c[1001];

	(void)state;
	pattern_fill(a, sizeof(a), 1, 7);
	pattern_fill(b, sizeof(b), 1, 7);
	assert_memory_equal(a, b, sizeof(a));
	pattern_fill(c, sizeof(c), 1, 8);
	assert_memory_not_equal(a, c, sizeof(a));
	pattern_fill(c, sizeof(c), 2, 7);
	assert_memory_not_equal(a, c, sizeof(a));
	/* A shorter payload is a prefix of a longer one. */
	pattern_fill(c, 13, 1, 7);
	assert_memory_equal(a, c, 13);
}

static void test_pattern_known_answer(void **state)
{
	/* Pinned: changing the pattern changes what every tool expects. */
	static const uint8_t want[8] = { 0x6a, 0xd8, 0xad, 0xeb,
					 0x41, 0x0e, 0x81, 0x4a };
	uint8_t got[8];

	(void)state;
	pattern_fill(got, sizeof(got), 1, 0);
	assert_memory_equal(got, want, sizeof(want));
}

static void test_pattern_check(void **state)
{
	size_t n = 70000;
	uint8_t *p = malloc(n);

	(void)state;
	pattern_fill(p, n, 99, 123456);
	assert_int_equal(pattern_check(p, n, 99, 123456), n);
	assert_int_equal(pattern_check(p, 0, 99, 123456), 0);
	assert_int_not_equal(pattern_check(p, n, 99, 123457), n);
	p[4097] ^= 0x01;
	assert_int_equal(pattern_check(p, n, 99, 123456), 4097);
	p[4097] ^= 0x01;
	p[n - 1] ^= 0x80;
	assert_int_equal(pattern_check(p, n, 99, 123456), n - 1);
	free(p);
}

static void test_rng_below(void **state)
{
	struct rng r;
	unsigned seen[7] = { 0 };

	(void)state;
	rng_seed(&r, 5);
	for (int i = 0; i < 7000; i++) {
		uint64_t v = rng_below(&r, 7);

		assert_true(v < 7);
		seen[v]++;
	}
	for (int i = 0; i < 7; i++)
		assert_true(seen[i] > 700 && seen[i] < 1300);
}

/* ---- argument parsing ------------------------------------------------------ */

#define ARGV(...) ((char *[]){ __VA_ARGS__, NULL })
#define ARGC(...) ((int)(sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *)))
#define LOAD(...) cli_parse_load(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), &o, err, sizeof(err))
#define SINGLE(...) cli_parse_single(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), &s, err, sizeof(err))
#define BAD(...) cli_parse_bad(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), &b, err, sizeof(err))

static void test_cli_load_defaults(void **state)
{
	struct load_opts o;
	char err[300] = "";

	(void)state;
	assert_int_equal(LOAD("load"), CLI_OK);
	assert_string_equal(o.t.host, "127.0.0.1");
	assert_int_equal(o.t.port, 20049);
	assert_int_equal(o.t.proto, PROTO_TCP);
	assert_int_equal(o.t.prog, 0x20049001);
	assert_int_equal(o.t.vers, 1);
	assert_int_equal(o.t.timeout_ms, 5000);
	assert_int_equal(o.conns, 1);
	assert_int_equal(o.proc, PROCK_NULL);
	assert_int_equal(o.size, 0);
	assert_int_equal(o.sleep_us, 0);
	assert_true(o.duration_s == 10.0);
	assert_int_equal(o.calls_limit, 0);
	assert_int_equal(o.seed, 1);
	assert_false(o.json);
	assert_int_equal(o.progress, -1);
}

static void test_cli_load_options(void **state)
{
	struct load_opts o;
	char err[300] = "";

	(void)state;
	assert_int_equal(LOAD("load", "--host", "::1", "--port=2049", "--proto", "tcp",
			      "--conns", "16", "--duration", "2.5", "--calls", "1000",
			      "--proc", "echo", "--size", "64k", "--seed", "0x10",
			      "--timeout-ms", "250", "--json", "--progress"),
			 CLI_OK);
	assert_string_equal(o.t.host, "::1");
	assert_int_equal(o.t.port, 2049);
	assert_int_equal(o.t.proto, PROTO_TCP);
	assert_int_equal(o.conns, 16);
	assert_true(o.duration_s == 2.5);
	assert_int_equal(o.calls_limit, 1000);
	assert_int_equal(o.proc, PROCK_ECHO);
	assert_int_equal(o.size, 65536);
	assert_int_equal(o.seed, 16);
	assert_int_equal(o.t.timeout_ms, 250);
	assert_true(o.json);
	assert_int_equal(o.progress, 1);
	assert_int_equal(LOAD("load", "--proto", "udp", "--proc", "echo", "--size",
			      "65460"),
			 CLI_OK);
	assert_int_equal(o.t.proto, PROTO_UDP);
	assert_int_equal(o.size, RPCLOAD_UDP_ECHO_MAX);
}

static void test_cli_load_short_and_defaults(void **state)
{
	struct load_opts o;
	char err[300] = "";

	(void)state;
	assert_int_equal(LOAD("load", "-c", "10.0.0.1", "-p20049", "-u", "-P", "4",
			      "-t", "1", "-J", "--proc", "echo", "--no-progress"),
			 CLI_OK);
	assert_string_equal(o.t.host, "10.0.0.1");
	assert_int_equal(o.t.proto, PROTO_UDP);
	assert_int_equal(o.conns, 4);
	assert_int_equal(o.size, RPCLOAD_DEFAULT_ECHO_SIZE);
	assert_int_equal(o.progress, 0);
	assert_true(o.json);
	assert_int_equal(LOAD("load", "--calls", "5"), CLI_OK);
	assert_true(o.duration_s == 0.0); /* only a call limit */
	assert_int_equal(LOAD("load", "--proc", "sleep"), CLI_OK);
	assert_int_equal(o.sleep_us, RPCLOAD_DEFAULT_SLEEP_US);
	assert_int_equal(LOAD("load", "--prog", "100003", "--vers", "3", "--port",
			      "2049"),
			 CLI_OK);
	assert_int_equal(o.t.prog, 100003);
	assert_int_equal(LOAD("load", "--help"), CLI_HELP);
	assert_int_equal(LOAD("load", "--conns", "2", "-h"), CLI_HELP);
}

struct bad_arg_case {
	const char *args[6];
	const char *msg; /* expected message, exactly */
};

static void test_cli_load_errors(void **state)
{
	static const struct bad_arg_case cases[] = {
		{ { "--foo" }, "load: unknown option '--foo' (see 'rpcload load --help')" },
		{ { "-x" }, "load: unknown option '-x' (see 'rpcload load --help')" },
		{ { "--conns" }, "load: option '--conns' needs a value" },
		{ { "--conns", "0" }, "load: --conns: invalid value '0' (expected an integer 1..4096)" },
		{ { "--conns", "4097" }, "load: --conns: invalid value '4097' (expected an integer 1..4096)" },
		{ { "--conns", "abc" }, "load: --conns: invalid value 'abc' (expected an integer 1..4096)" },
		{ { "--conns", "-3" }, "load: --conns: invalid value '-3' (expected an integer 1..4096)" },
		{ { "--conns", "3x" }, "load: --conns: invalid value '3x' (expected an integer 1..4096)" },
		{ { "--port", "65536" }, "load: --port: invalid value '65536' (expected an integer 1..65535)" },
		{ { "--proto", "sctp" }, "load: --proto: invalid value 'sctp' (expected tcp or udp)" },
		{ { "--proc", "write" }, "load: --proc: invalid value 'write' (expected null, echo or sleep)" },
		{ { "--duration", "0" }, "load: --duration: invalid value '0' (expected seconds, more than 0 and at most 86400)" },
		{ { "--duration", "inf" }, "load: --duration: invalid value 'inf' (expected seconds, more than 0 and at most 86400)" },
		{ { "--duration", "1s" }, "load: --duration: invalid value '1s' (expected seconds, more than 0 and at most 86400)" },
		{ { "--calls", "0" }, "load: --calls: invalid value '0' (expected an integer 1..1000000000000000)" },
		{ { "--size", "10" }, "load: --size is only valid with --proc echo" },
		{ { "--sleep-us", "10" }, "load: --sleep-us is only valid with --proc sleep" },
		{ { "--proc", "echo", "--size", "2M" }, "load: --size: invalid value '2M' (expected an integer 0..1048576, k/M suffixes allowed)" },
		{ { "--proc", "echo", "--size", "4q" }, "load: --size: invalid value '4q' (expected an integer 0..1048576, k/M suffixes allowed)" },
		{ { "--proc", "echo", "-u", "--size", "65461" }, "load: --size 65461 does not fit one UDP datagram (at most 65460 with --proto udp)" },
		{ { "--proc", "echo", "--prog", "100003" }, "load: echo is a svcsock procedure: it needs --prog 537169921 (0x20049001); other programs support only null" },
		{ { "--proc", "sleep", "--sleep-us", "5000", "--timeout-ms", "5" }, "load: --timeout-ms 5 must be longer than --sleep-us 5000" },
		{ { "--json=yes" }, "load: option '--json' takes no value" },
		{ { "-Jx" }, "load: option '-J' takes no value" },
		{ { "extra" }, "load: unexpected argument 'extra'" },
		{ { "--", "extra" }, "load: unexpected argument 'extra'" },
		{ { "--timeout-ms", "0" }, "load: --timeout-ms: invalid value '0' (expected an integer 1..600000)" },
		{ { "--host", "" }, "load: --host: invalid value '' (expected a host name or address)" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[8] = { "load" };
		int argc = 1;
		struct load_opts o;
		char err[300] = "";

		for (int k = 0; k < 6 && cases[i].args[k]; k++)
			argv[argc++] = (char *)cases[i].args[k];
		assert_int_equal(cli_parse_load(argc, argv, &o, err, sizeof(err)),
				 CLI_ERROR);
		assert_string_equal(err, cases[i].msg);
		/* One line. */
		assert_null(strchr(err, '\n'));
	}
}

static void test_cli_single(void **state)
{
	struct single_opts s;
	char err[300] = "";

	(void)state;
	assert_int_equal(SINGLE("null", "--prog", "100003", "--vers", "3", "-p", "2049"),
			 CLI_OK);
	assert_int_equal(s.proc, PROCK_NULL);
	assert_int_equal(s.t.prog, 100003);
	assert_int_equal(s.t.vers, 3);
	assert_int_equal(s.size, 0);
	assert_int_equal(SINGLE("echo"), CLI_OK);
	assert_int_equal(s.size, RPCLOAD_DEFAULT_ECHO_SIZE);
	assert_int_equal(SINGLE("echo", "--size", "1M"), CLI_OK);
	assert_int_equal(s.size, 1048576);
	assert_int_equal(SINGLE("sleep", "--sleep-us", "1000000"), CLI_OK);
	assert_int_equal(s.sleep_us, 1000000);
	assert_int_equal(SINGLE("echo", "--json", "--udp", "--size", "65460"), CLI_OK);
	assert_true(s.json);

	assert_int_equal(SINGLE("null", "--size", "3"), CLI_ERROR);
	assert_string_equal(err, "null: unknown option '--size' (see 'rpcload null --help')");
	assert_int_equal(SINGLE("sleep", "--sleep-us", "1000001"), CLI_ERROR);
	assert_string_equal(err, "sleep: --sleep-us: invalid value '1000001' (expected an integer 0..1000000)");
	assert_int_equal(SINGLE("echo", "--prog", "7"), CLI_ERROR);
	assert_string_equal(err, "echo: echo is a svcsock procedure: it needs --prog 537169921 (0x20049001); other programs support only null");
	assert_int_equal(SINGLE("sleep", "--prog", "0x20049001", "--vers", "7"), CLI_OK);
	assert_int_equal(SINGLE("null", "--prog", "4294967296"), CLI_ERROR);
	assert_string_equal(err, "null: --prog: invalid value '4294967296' (expected an integer 0..4294967295)");
	assert_int_equal(SINGLE("null", "-h"), CLI_HELP);
}

static void test_cli_bad(void **state)
{
	struct bad_opts b;
	char err[300] = "";

	(void)state;
	assert_int_equal(BAD("bad"), CLI_OK);
	assert_int_equal(b.max_conns, 128);
	assert_int_equal(b.max_record, 1052672);
	assert_int_equal(b.timeout_ms, 2000);
	assert_int_equal(b.seed, 1);
	assert_int_equal(b.ncases, 0);
	assert_int_equal(BAD("bad", "--case", "tcp-null", "--case=udp-null,rpcvers-3",
			     "--max-record", "64k", "--max-conns", "8", "--seed", "9",
			     "--list", "-v"),
			 CLI_OK);
	assert_int_equal(b.ncases, 2);
	assert_string_equal(b.cases[0], "tcp-null");
	assert_string_equal(b.cases[1], "udp-null,rpcvers-3");
	assert_int_equal(b.max_record, 65536);
	assert_int_equal(b.max_conns, 8);
	assert_true(b.list);
	assert_true(b.verbose);
	assert_int_equal(BAD("bad", "--max-conns", "0"), CLI_ERROR);
	assert_string_equal(err, "bad: --max-conns: invalid value '0' (expected an integer 1..10000)");
	assert_int_equal(BAD("bad", "--proto", "tcp"), CLI_ERROR);
	assert_string_equal(err, "bad: unknown option '--proto' (see 'rpcload bad --help')");
	assert_int_equal(BAD("bad", "--case"), CLI_ERROR);
	assert_string_equal(err, "bad: option '--case' needs a value");
}

static void test_cli_values(void **state)
{
	uint64_t v;
	double d;

	(void)state;
	assert_int_equal(cli_parse_u64("0x20049001", 0, UINT32_MAX, false, &v), 0);
	assert_int_equal(v, 0x20049001);
	assert_int_equal(cli_parse_u64("1k", 0, 10000, true, &v), 0);
	assert_int_equal(v, 1024);
	assert_int_equal(cli_parse_u64("1k", 0, 10000, false, &v), -1);
	assert_int_equal(cli_parse_u64("18446744073709551615", 0, UINT64_MAX, false, &v), 0);
	assert_int_equal(cli_parse_u64("18446744073709551616", 0, UINT64_MAX, false, &v), -1);
	assert_int_equal(cli_parse_u64("99999999999999999M", 0, UINT64_MAX, true, &v), -1);
	assert_int_equal(cli_parse_u64("", 0, 10, false, &v), -1);
	assert_int_equal(cli_parse_seconds("0.001", &d), 0);
	assert_true(d == 0.001);
	assert_int_equal(cli_parse_seconds("86400.1", &d), -1);
	assert_int_equal(cli_parse_seconds("nan", &d), -1);
}

static void test_help_covers_options(void **state)
{
	static const char *const subs[] = { "null", "echo", "sleep", "load", "bad" };
	char missing[64];

	(void)state;
	for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++) {
		const char *h = help_text(subs[i]);

		assert_non_null(h);
		missing[0] = 0;
		if (cli_help_missing(subs[i], h, missing, sizeof(missing)) != 0)
			fail_msg("'rpcload %s --help' does not mention %s", subs[i],
				 missing);
	}
	assert_non_null(strstr(help_text(NULL), "load"));
	assert_null(help_text("nope"));
}

/* ---- bad mode wire encoding ------------------------------------------------ */

static void test_raw_call_header(void **state)
{
	static const uint8_t want[] = {
		0x12, 0x34, 0x56, 0x78, /* xid */
		0, 0, 0, 0,             /* CALL */
		0, 0, 0, 2,             /* rpcvers */
		0x20, 0x04, 0x90, 0x01, /* prog */
		0, 0, 0, 1,             /* vers */
		0, 0, 0, 1,             /* proc ECHO */
		0, 0, 0, 0, 0, 0, 0, 0, /* cred AUTH_NONE */
		0, 0, 0, 0, 0, 0, 0, 0, /* verf AUTH_NONE */
		0, 0, 0, 3, 'a', 'b', 'c', 0, /* opaque<> "abc" padded */
	};
	struct xbuf b;

	(void)state;
	xb_init(&b);
	rpc_enc_call(&b, 0x12345678, 2, SVCSOCK_PROG, SVCSOCK_V1, SVCSOCK_ECHO,
		     &rpc_auth_none, &rpc_auth_none);
	xb_opaque(&b, "abc", 3);
	assert_int_equal(b.len, sizeof(want));
	assert_memory_equal(b.p, want, sizeof(want));
	xb_free(&b);
}

static void test_raw_authsys(void **state)
{
	const uint32_t gids[2] = { 5, 6 };
	struct xbuf b;

	(void)state;
	xb_init(&b);
	rpc_enc_authsys(&b, 1, "host1", 0, 0, 2, gids);
	/* 4 stamp + 4+8 name + 4 uid + 4 gid + 4 n + 8 gids */
	assert_int_equal(b.len, 36);
	assert_int_equal(rd_u32(b.p + 4), 5);
	assert_memory_equal(b.p + 8, "host1\0\0\0", 8);
	assert_int_equal(rd_u32(b.p + 24), 2);
	assert_int_equal(rd_u32(b.p + 32), 6);
	xb_free(&b);
}

static void test_raw_fragments(void **state)
{
	const uint8_t rec[10] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	struct xbuf b;

	(void)state;
	xb_init(&b);
	rm_fragments(&b, rec, sizeof(rec), 4, 1);
	/* [0 nf][4 nf]1234 [0 nf][4 nf]5678 [0 nf][2 last]9 10 */
	assert_int_equal(b.len, 6 * 4 + 10);
	assert_int_equal(rd_u32(b.p), 0);
	assert_int_equal(rd_u32(b.p + 4), 4);
	assert_memory_equal(b.p + 8, rec, 4);
	assert_int_equal(rd_u32(b.p + 12), 0);
	assert_int_equal(rd_u32(b.p + 16), 4);
	assert_int_equal(rd_u32(b.p + 28), 0x80000002u);
	assert_memory_equal(b.p + 32, rec + 8, 2);
	xb_reset(&b);
	rm_record(&b, rec, 0);
	assert_int_equal(b.len, 4);
	assert_int_equal(rd_u32(b.p), 0x80000000u);
	xb_free(&b);
}

static void test_raw_decode_replies(void **state)
{
	struct xbuf b;
	struct rpc_reply r;
	char err[200], desc[160];

	(void)state;
	xb_init(&b);
	/* Accepted, verifier with 5 body bytes (padded), SUCCESS, results. */
	xb_u32(&b, 9);
	xb_u32(&b, RPC_MSG_REPLY);
	xb_u32(&b, RPC_MSG_ACCEPTED);
	xb_u32(&b, 7);
	xb_opaque(&b, "vvvvv", 5);
	b.len -= 4 + 8; /* xb_opaque wrote its own length: redo by hand */
	xb_put(&b, "vvvvv\0\0\0", 8);
	xb_u32(&b, RPC_ACC_SUCCESS);
	xb_u32(&b, 0xabcdef01);
	assert_int_equal(rpc_dec_reply(b.p, b.len, &r, err, sizeof(err)), -1);
	/* (the verifier length word was dropped above: malformed) */
	xb_reset(&b);
	xb_u32(&b, 9);
	xb_u32(&b, RPC_MSG_REPLY);
	xb_u32(&b, RPC_MSG_ACCEPTED);
	xb_u32(&b, 7);
	xb_opaque(&b, "vvvvv", 5);
	xb_u32(&b, RPC_ACC_SUCCESS);
	xb_u32(&b, 0xabcdef01);
	assert_int_equal(rpc_dec_reply(b.p, b.len, &r, err, sizeof(err)), 0);
	assert_int_equal(r.xid, 9);
	assert_int_equal(r.verf_flavor, 7);
	assert_int_equal(r.verf_len, 5);
	assert_int_equal(r.results_len, 4);
	assert_int_equal(rd_u32(r.results), 0xabcdef01);

	xb_reset(&b);
	xb_u32(&b, 1);
	xb_u32(&b, RPC_MSG_REPLY);
	xb_u32(&b, RPC_MSG_ACCEPTED);
	xb_u32(&b, 0);
	xb_u32(&b, 0);
	xb_u32(&b, RPC_ACC_PROG_MISMATCH);
	xb_u32(&b, 1);
	xb_u32(&b, 1);
	assert_int_equal(rpc_dec_reply(b.p, b.len, &r, err, sizeof(err)), 0);
	rpc_reply_describe(&r, desc, sizeof(desc));
	assert_string_equal(desc, "MSG_ACCEPTED PROG_MISMATCH low=1 high=1");
	/* Truncated: the high version is missing. */
	assert_int_equal(rpc_dec_reply(b.p, b.len - 4, &r, err, sizeof(err)), -1);
	/* Trailing bytes. */
	xb_u32(&b, 0);
	assert_int_equal(rpc_dec_reply(b.p, b.len, &r, err, sizeof(err)), -1);

	xb_reset(&b);
	xb_u32(&b, 2);
	xb_u32(&b, RPC_MSG_REPLY);
	xb_u32(&b, RPC_MSG_DENIED);
	xb_u32(&b, RPC_REJ_RPC_MISMATCH);
	xb_u32(&b, 2);
	xb_u32(&b, 2);
	assert_int_equal(rpc_dec_reply(b.p, b.len, &r, err, sizeof(err)), 0);
	rpc_reply_describe(&r, desc, sizeof(desc));
	assert_string_equal(desc, "MSG_DENIED RPC_MISMATCH low=2 high=2");

	xb_reset(&b);
	xb_u32(&b, 3);
	xb_u32(&b, RPC_MSG_REPLY);
	xb_u32(&b, RPC_MSG_DENIED);
	xb_u32(&b, RPC_REJ_AUTH_ERROR);
	xb_u32(&b, RPC_AUTH_BADVERF);
	assert_int_equal(rpc_dec_reply(b.p, b.len, &r, err, sizeof(err)), 0);
	rpc_reply_describe(&r, desc, sizeof(desc));
	assert_string_equal(desc, "MSG_DENIED AUTH_ERROR AUTH_BADVERF (3)");

	/* A CALL is not a reply. */
	xb_reset(&b);
	xb_u32(&b, 3);
	xb_u32(&b, RPC_MSG_CALL);
	assert_int_equal(rpc_dec_reply(b.p, b.len, &r, err, sizeof(err)), -1);
	assert_int_equal(rpc_dec_reply(b.p, 3, &r, err, sizeof(err)), -1);
	xb_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hist_buckets_contiguous),
		cmocka_unit_test(test_hist_index_roundtrip),
		cmocka_unit_test(test_hist_exact_small),
		cmocka_unit_test(test_hist_uniform_large),
		cmocka_unit_test(test_hist_empty_single_clamp),
		cmocka_unit_test(test_hist_merge),
		cmocka_unit_test(test_pattern_deterministic),
		cmocka_unit_test(test_pattern_known_answer),
		cmocka_unit_test(test_pattern_check),
		cmocka_unit_test(test_rng_below),
		cmocka_unit_test(test_cli_load_defaults),
		cmocka_unit_test(test_cli_load_options),
		cmocka_unit_test(test_cli_load_short_and_defaults),
		cmocka_unit_test(test_cli_load_errors),
		cmocka_unit_test(test_cli_single),
		cmocka_unit_test(test_cli_bad),
		cmocka_unit_test(test_cli_values),
		cmocka_unit_test(test_help_covers_options),
		cmocka_unit_test(test_raw_call_header),
		cmocka_unit_test(test_raw_authsys),
		cmocka_unit_test(test_raw_fragments),
		cmocka_unit_test(test_raw_decode_replies),
	};

	return cmocka_run_group_tests_name("rpcload", tests, NULL, NULL);
}
