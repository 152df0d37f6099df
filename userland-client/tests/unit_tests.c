// SPDX-License-Identifier: GPL-2.0
/*
 * unit_tests.c - host-side unit tests of rpcload's pure parts: the payload
 * pattern, argument parsing and its messages, help coverage, the xid window
 * and the record stream of --depth, the Williams design of slices and the
 * sum of a target's slices.  (The histogram, the wire encoding and the
 * option machinery are libsvcrpc's, tested in libsvcrpc/tests.)
 *
 * Run by `make check` with CMOCKA_MESSAGE_OUTPUT=TAP (TAP on stdout).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "design.h"
#include "help.h"
#include "pattern.h"
#include "recstream.h"
#include "rpcwire.h"
#include "svcsock_prot.h"
#include "xidwin.h"

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
#define SLICES(...) cli_parse_slices(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), &sl, err, sizeof(err))

/* Target t must be want, field by field. */
static void assert_target(const struct target *t, struct target want)
{
	assert_string_equal(t->host, want.host);
	assert_int_equal(t->port, want.port);
	assert_int_equal(t->proto, want.proto);
	assert_int_equal(t->prog, want.prog);
	assert_int_equal(t->vers, want.vers);
	assert_int_equal(t->timeout_ms, want.timeout_ms);
}

static void test_cli_load_defaults(void **state)
{
	struct load_opts o;
	char err[300] = "";

	(void)state;
	assert_int_equal(LOAD("load"), CLI_OK);
	assert_target(&o.t, (struct target){ "127.0.0.1", 20049, PROTO_TCP,
					     0x20049001, 1, 5000 });
	assert_int_equal(o.conns, 1);
	assert_int_equal(o.proc, PROCK_NULL);
	assert_int_equal(o.size, 0);
	assert_int_equal(o.sleep_us, 0);
	assert_true(o.duration_s == 10.0);
	assert_int_equal(o.calls_limit, 0);
	assert_int_equal(o.seed, 1);
	assert_false(o.json);
	assert_int_equal(o.progress, -1);
	assert_int_equal(o.depth, 1);
	assert_int_equal(LOAD("load", "--depth", "1024", "-u"), CLI_OK);
	assert_int_equal(o.depth, 1024);
	assert_int_equal(LOAD("load", "--depth=8", "--rate", "100"), CLI_OK);
	assert_int_equal(o.depth, 8);
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
	assert_target(&o.t, (struct target){ "::1", 2049, PROTO_TCP, 0x20049001,
					     1, 250 });
	assert_int_equal(o.conns, 16);
	assert_true(o.duration_s == 2.5);
	assert_int_equal(o.calls_limit, 1000);
	assert_int_equal(o.proc, PROCK_ECHO);
	assert_int_equal(o.size, 65536);
	assert_int_equal(o.seed, 16);
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

/* A command's parser, its options' destination its own. */
typedef enum cli_status (*cli_parser)(int argc, char **argv, char *err,
				      size_t n);

/* Each case, as the arguments of command sub, is a usage error, reported
 * in exactly its message, on one line. */
static void check_usage_errors(const char *sub, cli_parser parse,
			       const struct bad_arg_case *cases, size_t ncases)
{
	for (size_t i = 0; i < ncases; i++) {
		char *argv[8] = { (char *)sub };
		int argc = 1;
		char err[300] = "";

		for (int k = 0; k < 6 && cases[i].args[k]; k++)
			argv[argc++] = (char *)cases[i].args[k];
		assert_int_equal(parse(argc, argv, err, sizeof(err)), CLI_ERROR);
		assert_string_equal(err, cases[i].msg);
		assert_null(strchr(err, '\n'));
	}
}

/* Each of vals (NULL-ended), as the value of option opt of command sub, is
 * refused with "SUB: OPT: invalid value 'V' (expected EXPECT)". */
static void check_invalid_values(const char *sub, cli_parser parse,
				 const char *opt, const char *expect,
				 const char *const *vals)
{
	for (; *vals; vals++) {
		char msg[300];
		struct bad_arg_case c = { { opt, *vals }, msg };

		snprintf(msg, sizeof(msg), "%s: %s: invalid value '%s' (expected %s)",
			 sub, opt, *vals, expect);
		check_usage_errors(sub, parse, &c, 1);
	}
}

static enum cli_status parse_load(int argc, char **argv, char *err, size_t n)
{
	struct load_opts o;

	return cli_parse_load(argc, argv, &o, err, n);
}

static enum cli_status parse_slices(int argc, char **argv, char *err, size_t n)
{
	static struct slices_opts sl; /* 16 targets: not on the stack */

	return cli_parse_slices(argc, argv, &sl, err, n);
}

static void test_cli_load_errors(void **state)
{
	static const struct bad_arg_case cases[] = {
		{ { "--foo" }, "load: unknown option '--foo' (see 'rpcload load --help')" },
		{ { "-x" }, "load: unknown option '-x' (see 'rpcload load --help')" },
		{ { "--conns" }, "load: option '--conns' needs a value" },
		{ { "--port", "65536" }, "load: --port: invalid value '65536' (expected an integer 1..65535)" },
		{ { "--proto", "sctp" }, "load: --proto: invalid value 'sctp' (expected tcp or udp)" },
		{ { "--proc", "write" }, "load: --proc: invalid value 'write' (expected null, echo or sleep)" },
		{ { "--warmup", "-1" }, "load: --warmup: invalid value '-1' (expected a duration from 0 and at most 86400 s, e.g. 5, 1.5s, 500ms, 2m)" },
		{ { "--rate", "0" }, "load: --rate: invalid value '0' (expected an integer 1..10000000)" },
		{ { "-R" }, "load: option '-R' needs a value" },
		{ { "--pro", "tcp" }, "load: option '--pro' is ambiguous (--proto, --prog, --proc, --progress)" },
		{ { "--calls", "0" }, "load: --calls: invalid value '0' (expected an integer 1..1000000000000000)" },
		{ { "--size", "10" }, "load: --size is only valid with --proc echo" },
		{ { "--sleep-us", "10" }, "load: --sleep-us is only valid with --proc sleep" },
		{ { "--proc", "echo", "--size", "2M" }, "load: --size: invalid value '2M' (expected an integer 0..1048576, k/M suffixes allowed)" },
		{ { "--proc", "echo", "--size", "4q" }, "load: --size: invalid value '4q' (expected an integer 0..1048576, k/M suffixes allowed)" },
		{ { "--proc", "echo", "-u", "--size", "65461" }, "load: --size 65461 does not fit one UDP datagram (at most 65460 with --proto udp)" },
		{ { "--proc", "echo", "--prog", "100003" }, "load: echo is a svcsock procedure: it needs --prog 537169921 (0x20049001); other programs support only null" },
		{ { "--proc", "sleep", "--sleep-us", "5000", "--timeout-ms", "5" }, "load: --timeout-ms 5 must be longer than --sleep-us 5000" },
		{ { "--json=yes" }, "load: option '--json' takes no value" },
		{ { "-Jx" }, "load: unknown option '-x' (see 'rpcload load --help')" },
		{ { "extra" }, "load: unexpected argument 'extra'" },
		{ { "--", "extra" }, "load: unexpected argument 'extra'" },
		{ { "--timeout-ms", "0" }, "load: --timeout-ms: invalid value '0' (expected an integer 1..600000)" },
		{ { "--host", "" }, "load: --host: invalid value '' (expected a host name or address)" },
		{ { "--depth" }, "load: option '--depth' needs a value" },
	};

	static const struct {
		const char *opt, *expect, *vals[6];
	} invalid[] = {
		{ "--conns", "an integer 1..4096", { "0", "4097", "abc", "-3", "3x" } },
		{ "--duration",
		  "a duration more than 0 and at most 86400 s, e.g. 5, 1.5s, 500ms, 2m",
		  { "0", "inf", "1x", "25h" } },
		{ "--depth", "an integer 1..1024", { "0", "1025", "8x" } },
	};

	(void)state;
	check_usage_errors("load", parse_load, cases,
			   sizeof(cases) / sizeof(cases[0]));
	for (size_t i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++)
		check_invalid_values("load", parse_load, invalid[i].opt,
				     invalid[i].expect, invalid[i].vals);
}

static void test_cli_slices(void **state)
{
	static struct slices_opts sl; /* 16 targets: not on the stack */
	char err[300] = "";

	(void)state;
	assert_int_equal(SLICES("slices", "-T", "a=10.0.0.1:2049", "--target",
				"bb.2=[fe80::1]/udp,prog=100003,vers=3"),
			 CLI_OK);
	assert_int_equal(sl.ntargets, 2);
	assert_string_equal(sl.targets[0].name, "a");
	assert_target(&sl.targets[0].t, (struct target){ "10.0.0.1", 2049,
		      PROTO_TCP, 0x20049001, 1, 5000 });
	assert_string_equal(sl.targets[1].name, "bb.2");
	assert_target(&sl.targets[1].t, (struct target){ "fe80::1", 20049,
		      PROTO_UDP, 100003, 3, 5000 });
	/* the defaults */
	assert_int_equal(sl.proc, PROCK_NULL);
	assert_int_equal(sl.conns, 1);
	assert_int_equal(sl.depth, 1);
	assert_true(sl.slice_s == 1.0 && sl.warm_s == 0.2);
	assert_int_equal(sl.rounds, 0);
	assert_true(sl.duration_s == 0);
	assert_int_equal(sl.seed, 1);
	assert_false(sl.json);
	assert_int_equal(sl.progress, -1);
	/* the rest, and --timeout-ms given after the targets reaches them */
	assert_int_equal(SLICES("slices", "-Ta=h1", "-Tb=h2:7/tcp", "--proc", "echo",
				"-l4k", "-P3", "--depth", "8", "--slice", "2s",
				"--warm", "500ms", "--rounds", "10", "-t", "1m",
				"--timeout-ms", "300", "-J", "--no-progress"),
			 CLI_OK);
	assert_int_equal(sl.size, 4096);
	assert_int_equal(sl.conns, 3);
	assert_int_equal(sl.depth, 8);
	assert_true(sl.slice_s == 2.0 && sl.warm_s == 0.5);
	assert_int_equal(sl.rounds, 10);
	assert_true(sl.duration_s == 60.0);
	assert_int_equal(sl.targets[0].t.timeout_ms, 300);
	assert_int_equal(sl.targets[1].t.timeout_ms, 300);
	assert_int_equal(sl.targets[1].t.port, 7);
	assert_true(sl.json);
	assert_int_equal(sl.progress, 0);
	assert_int_equal(SLICES("slices", "-Ta=h", "-Tb=h", "--proc", "echo"), CLI_OK);
	assert_int_equal(sl.size, 1024);
	assert_true(cli_wants_json(ARGC("slices", "-JTa=h"), ARGV("slices", "-JTa=h")));
	assert_false(cli_wants_json(ARGC("slices", "-TJ=h"), ARGV("slices", "-TJ=h")));
}

static void test_cli_slices_errors(void **state)
{
	static const struct bad_arg_case cases[] = {
		{ { "-Ta=h" }, "slices: give at least two targets (--target NAME=HOST:PORT, once each; got 1)" },
		{ { "-Ta=h", "-Ta=h2" }, "slices: two targets named 'a'" },
		{ { "-Th" }, "slices: --target 'h': expected NAME=HOST[:PORT][/tcp|/udp][,prog=N,vers=N], NAME of letters, digits, _.+- (at most 31)" },
		{ { "-Ta b=h" }, "slices: --target 'a b=h': expected NAME=HOST[:PORT][/tcp|/udp][,prog=N,vers=N], NAME of letters, digits, _.+- (at most 31)" },
		{ { "-Ta=" }, "slices: --target 'a=': no host" },
		{ { "-Ta=:20049" }, "slices: --target 'a=:20049': no host" },
		{ { "-Ta=h:0" }, "slices: --target 'a=h:0': the port must be 1..65535" },
		{ { "-Ta=h:" }, "slices: --target 'a=h:': the port must be 1..65535" },
		{ { "-Ta=h:65536" }, "slices: --target 'a=h:65536': the port must be 1..65535" },
		{ { "-Ta=::1:20049" }, "slices: --target 'a=::1:20049': an IPv6 address goes in brackets, as in [::1]:20049" },
		{ { "-Ta=[::1" }, "slices: --target 'a=[::1': expected [ADDRESS]:PORT" },
		{ { "-Ta=[::1]x" }, "slices: --target 'a=[::1]x': expected [ADDRESS]:PORT" },
		{ { "-Ta=h/sctp" }, "slices: --target 'a=h/sctp': the transport is /tcp or /udp" },
		{ { "-Ta=h,prog=x" }, "slices: --target 'a=h,prog=x': 'prog' is not prog=N or vers=N" },
		{ { "-Ta=h,port=1" }, "slices: --target 'a=h,port=1': 'port' is not prog=N or vers=N" },
		{ { "-Ta=h", "-Tb=h", "--warm", "1s" }, "slices: --warm 1 s must be shorter than --slice 1 s" },
		{ { "-Ta=h", "-Tb=h", "--slice", "0" }, "slices: --slice: invalid value '0' (expected a duration more than 0 and at most 3600 s, e.g. 5, 1.5s, 500ms, 2m)" },
		{ { "-Ta=h", "-Tb=h", "--rounds", "0" }, "slices: --rounds: invalid value '0' (expected an integer 1..10000)" },
		{ { "-Ta=h", "-Tb=h", "-t", "1500ms" }, "slices: --duration 1.5 s is shorter than one round (2 targets x --slice 1 s)" },
		{ { "-Ta=h", "-Tb=h", "-P", "2049" }, "slices: --conns 2049 x 2 targets = 4098 connections: at most 4096" },
		{ { "-Ta=h", "-Tb=h", "--size", "1" }, "slices: --size is only valid with --proc echo" },
		{ { "-Ta=h", "-Tb=h,prog=100003", "--proc", "echo" }, "slices: target b: echo is a svcsock procedure: it needs --prog 537169921 (0x20049001); other programs support only null" },
		{ { "-Ta=h", "-Tb=h/udp", "--proc", "echo", "-l", "65461" }, "slices: target b: --size 65461 does not fit one UDP datagram (at most 65460 with --proto udp)" },
		{ { "-Ta=h", "-Tb=h", "--host", "x" }, "slices: unknown option '--host' (see 'rpcload slices --help')" },
	};

	(void)state;
	check_usage_errors("slices", parse_slices, cases,
			   sizeof(cases) / sizeof(cases[0]));
}

/* ---- the Williams design of slices ------------------------------------------ */

static void test_design_williams(void **state)
{
	(void)state;
	assert_int_equal(design_block(1), 1);
	assert_int_equal(design_block(2), 2);
	assert_int_equal(design_block(3), 6);
	assert_int_equal(design_block(4), 4);
	for (unsigned n = 1; n <= SLICES_MAX_TARGETS; n++) {
		unsigned b = design_block(n), row[SLICES_MAX_TARGETS];
		unsigned follows[SLICES_MAX_TARGETS][SLICES_MAX_TARGETS] = { { 0 } };
		unsigned at[SLICES_MAX_TARGETS][SLICES_MAX_TARGETS] = { { 0 } };
		unsigned again[SLICES_MAX_TARGETS];

		for (unsigned r = 0; r < b; r++) {
			unsigned seen = 0;

			design_row(n, r, row);
			for (unsigned j = 0; j < n; j++) {
				assert_true(row[j] < n);
				seen |= 1u << row[j];
				at[row[j]][j]++;
				if (j)
					follows[row[j - 1]][row[j]]++;
			}
			assert_int_equal(seen, (1u << n) - 1); /* a permutation */
			/* rounds 2k and 2k+1: mirror images */
			if (r % 2) {
				design_row(n, r - 1, again);
				for (unsigned j = 0; j < n; j++)
					assert_int_equal(row[j], again[n - 1 - j]);
			}
			/* past the block the rows come again */
			design_row(n, r + b, again);
			assert_memory_equal(row, again, n * sizeof(row[0]));
		}
		for (unsigned x = 0; x < n; x++)
			for (unsigned y = 0; y < n; y++) {
				/* every target in every position b/n times */
				assert_int_equal(at[x][y], b / n);
				/* every target after every other alike: once a
				 * square, twice for the odd pair of squares */
				if (x != y)
					assert_int_equal(follows[x][y], n % 2 ? 2 : 1);
				else
					assert_int_equal(follows[x][y], 0);
			}
	}
	/* two targets: a b, then b a; three: the pair of Latin squares in
	 * mirror couples */
	{
		unsigned row[2];

		design_row(2, 0, row);
		assert_true(row[0] == 0 && row[1] == 1);
		design_row(2, 1, row);
		assert_true(row[0] == 1 && row[1] == 0);
	}
	{
		static const unsigned want[6][3] = { { 0, 1, 2 }, { 2, 1, 0 },
						     { 1, 2, 0 }, { 0, 2, 1 },
						     { 2, 0, 1 }, { 1, 0, 2 } };
		unsigned row[3];

		for (unsigned r = 0; r < 6; r++) {
			design_row(3, r, row);
			assert_memory_equal(row, want[r], sizeof(row));
		}
	}
	/* the default number of rounds: whole blocks, at least 6 */
	assert_int_equal(design_rounds(2, 6, 0), 6);
	assert_int_equal(design_rounds(3, 6, 0), 6);
	assert_int_equal(design_rounds(4, 6, 0), 8);
	assert_int_equal(design_rounds(5, 6, 0), 10);
	/* what fits in a duration: whole blocks, or what fits if less */
	assert_int_equal(design_rounds(2, 6, 7), 6);
	assert_int_equal(design_rounds(4, 6, 3), 3);
	assert_true(design_balanced(3, 12));
	assert_false(design_balanced(3, 3));
	assert_false(design_balanced(2, 0));
}

/* A target's slices summed: counts, ops/s, the median, min and max. */
static void test_slice_sum(void **state)
{
	static const double ops[] = { 30, 10, 40, 20 };
	struct slice_sum t;

	(void)state;
	slice_sum_start(&t, 4);
	for (unsigned i = 0; i < 3; i++)
		slice_sum_add(&t, 10 + i, 9, i, 0.5, ops[i]);
	slice_sum_end(&t);
	assert_int_equal(t.slices, 3);
	assert_int_equal(t.calls, 33);
	assert_int_equal(t.ok, 27);
	assert_int_equal(t.errors, 3);
	assert_int_equal(t.first_bad, 1); /* the first with errors */
	assert_true(t.ops_per_s == 18.0);
	assert_true(t.median == 30 && t.min == 10 && t.max == 40);
	assert_null(t.ops);
	slice_sum_start(&t, 4);
	for (unsigned i = 0; i < 4; i++)
		slice_sum_add(&t, 1, 1, 0, 1, ops[i]);
	slice_sum_end(&t);
	assert_true(t.median == 25 && t.min == 10 && t.max == 40);
	slice_sum_start(&t, 0); /* none: all 0 */
	slice_sum_end(&t);
	assert_true(t.slices == 0 && t.ops_per_s == 0 && t.median == 0);
	assert_int_equal(t.first_bad, -1);
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

static void test_cli_conventions(void **state)
{
	struct load_opts o;
	struct single_opts s;
	struct bad_opts b;
	char err[300] = "";

	(void)state;
	/* Short flags bundle; a value may follow the last one. */
	assert_int_equal(LOAD("load", "-uJP4", "-t500ms"), CLI_OK);
	assert_int_equal(o.t.proto, PROTO_UDP);
	assert_true(o.json);
	assert_int_equal(o.conns, 4);
	assert_true(o.duration_s == 0.5);
	/* Durations take units. */
	assert_int_equal(LOAD("load", "--duration", "2m"), CLI_OK);
	assert_true(o.duration_s == 120);
	assert_int_equal(LOAD("load", "--duration=1.5s", "--warmup", "250ms"), CLI_OK);
	assert_true(o.duration_s == 1.5);
	assert_true(o.warmup_s == 0.25);
	assert_int_equal(LOAD("load", "-t", "5"), CLI_OK);
	assert_true(o.duration_s == 5);
	/* Open loop. */
	assert_int_equal(LOAD("load", "--rate", "1000", "-P", "8"), CLI_OK);
	assert_int_equal(o.rate, 1000);
	assert_int_equal(LOAD("load", "-R5000"), CLI_OK);
	assert_int_equal(o.rate, 5000);
	assert_int_equal(LOAD("load"), CLI_OK);
	assert_int_equal(o.rate, 0);
	assert_true(o.warmup_s == 0);
	/* --version and --help after the command; --help wins. */
	assert_int_equal(LOAD("load", "--version"), CLI_VERSION);
	assert_int_equal(LOAD("load", "-V", "--help"), CLI_HELP);
	assert_int_equal(SINGLE("null", "-V"), CLI_VERSION);
	assert_int_equal(BAD("bad", "--version"), CLI_VERSION);
	/* Abbreviations of long options, when unambiguous. */
	assert_int_equal(LOAD("load", "--con", "3", "--dur", "1"), CLI_OK);
	assert_int_equal(o.conns, 3);
	/* Options after an argument are still read, the argument refused. */
	assert_int_equal(LOAD("load", "extra", "--conns", "2"), CLI_ERROR);
	assert_string_equal(err, "load: unexpected argument 'extra'");
	/* Is --json there, for the document of a usage error? */
	assert_true(cli_wants_json(ARGC("load", "--conns", "0", "--json"),
				   ARGV("load", "--conns", "0", "--json")));
	assert_true(cli_wants_json(ARGC("load", "-uJ"), ARGV("load", "-uJ")));
	assert_false(cli_wants_json(ARGC("load", "-cJ"), ARGV("load", "-cJ")));
	assert_false(cli_wants_json(ARGC("load", "--", "--json"),
				    ARGV("load", "--", "--json")));
}

static void test_help_covers_options(void **state)
{
	static const char *const subs[] = { "null", "echo", "sleep", "load", "bad",
					    "slices" };
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
	assert_non_null(strstr(help_text(NULL), "slices"));
	assert_null(help_text("nope"));
}

/* ---- the xid window of --depth ------------------------------------------- */

static struct lg_pending pending(uint64_t callno)
{
	return (struct lg_pending){ .callno = callno, .sent_ns = 1000 + callno,
				    .measured = true };
}

static void test_xidwin_match(void **state)
{
	struct xidwin w;
	struct xw_slot *s;
	uint32_t x[5];

	(void)state;
	assert_int_equal(xw_init(&w, 4), 0);
	xw_reset(&w, 0x1000);
	assert_null(xw_oldest(&w));
	for (int i = 0; i < 4; i++) {
		struct lg_pending c = pending(100 + (uint64_t)i);

		assert_true(xw_room(&w));
		x[i] = xw_add(&w, &c);
		for (int k = 0; k < i; k++)
			assert_int_not_equal(x[i], x[k]);
	}
	assert_false(xw_room(&w)); /* depth 4 */
	assert_int_equal(w.out, 4);
	/* Each reply finds its call, in any order. */
	assert_int_equal(xw_find(&w, x[2], &s), XW_OUTSTANDING);
	assert_int_equal(s->call.callno, 102);
	assert_int_equal(s->call.sent_ns, 1102);
	xw_end(&w, s, true);
	assert_true(xw_room(&w));
	/* A second reply to it matches nothing. */
	assert_int_equal(xw_find(&w, x[2], &s), XW_UNMATCHED);
	assert_null(s);
	/* Never sent. */
	assert_int_equal(xw_find(&w, x[0] ^ 0x80000000u, &s), XW_UNMATCHED);
	assert_int_equal(xw_find(&w, x[3] + 0x100, &s), XW_UNMATCHED);
	/* The oldest outstanding call, the first to time out. */
	s = xw_oldest(&w);
	assert_non_null(s);
	assert_int_equal(s->xid, x[0]);
	/* Written off (timed out): its late reply is told apart and dropped. */
	xw_end(&w, s, false);
	assert_int_equal(xw_find(&w, x[0], &s), XW_LATE);
	assert_int_equal(xw_oldest(&w)->xid, x[1]);
	/* A call sent now takes a freed slot, with an xid of its own. */
	x[4] = xw_add(&w, &(struct lg_pending){ .callno = 104 });
	for (int k = 0; k < 4; k++)
		assert_int_not_equal(x[4], x[k]);
	assert_int_equal(xw_find(&w, x[4], &s), XW_OUTSTANDING);
	assert_int_equal(s->call.callno, 104);
	assert_int_equal(xw_find(&w, x[0], &s), XW_LATE);
	assert_int_equal(xw_find(&w, x[2], &s), XW_UNMATCHED);
	/* Send order, whatever order the replies come in. */
	xw_find(&w, x[3], &s);
	xw_end(&w, s, true);
	assert_int_equal(xw_oldest(&w)->xid, x[1]);
	xw_end(&w, xw_oldest(&w), true);
	assert_int_equal(xw_oldest(&w)->xid, x[4]);
	assert_int_equal(w.out, 1);
	/* A new connection: nothing from the last one matches. */
	xw_reset(&w, 0x1000);
	assert_int_equal(xw_find(&w, x[4], &s), XW_UNMATCHED);
	assert_int_equal(xw_find(&w, x[0], &s), XW_UNMATCHED);
	assert_null(xw_oldest(&w));
	assert_true(xw_room(&w));
	xw_free(&w);
}

static void test_xidwin_long_run(void **state)
{
	struct xidwin w;
	struct xw_slot *s;
	uint32_t stuck, x = 0, prev = 0;

	(void)state;
	assert_int_equal(xw_init(&w, 3), 0);
	/* The count in the xids wraps around 2^32 like any other. */
	xw_reset(&w, 0xfffffff0);
	stuck = xw_add(&w, &(struct lg_pending){ .callno = 0 });
	/*
	 * One call stays outstanding while thousands come and go beside
	 * it, two at a time, answered in the reverse order, every 7th
	 * written off: the window never stalls.
	 */
	for (uint64_t i = 1; i < 5000; i += 2) {
		uint32_t a, b;

		assert_true(xw_room(&w));
		a = xw_add(&w, &(struct lg_pending){ .callno = i });
		assert_true(xw_room(&w));
		b = xw_add(&w, &(struct lg_pending){ .callno = i + 1 });
		assert_false(xw_room(&w));
		assert_int_not_equal(a, prev);
		assert_int_equal(xw_find(&w, b, &s), XW_OUTSTANDING);
		assert_int_equal(s->call.callno, i + 1);
		xw_end(&w, s, true);
		assert_int_equal(xw_find(&w, a, &s), XW_OUTSTANDING);
		assert_int_equal(s->call.callno, i);
		xw_end(&w, s, i % 7 != 0);
		assert_int_equal(xw_oldest(&w)->xid, stuck);
		prev = a;
		x = b;
	}
	assert_int_equal(w.out, 1);
	assert_int_equal(xw_find(&w, stuck, &s), XW_OUTSTANDING);
	assert_int_equal(s->call.callno, 0);
	assert_int_equal(xw_find(&w, x, &s), XW_UNMATCHED); /* answered */
	xw_end(&w, xw_oldest(&w), false);
	assert_null(xw_oldest(&w));
	assert_int_equal(xw_find(&w, stuck, &s), XW_LATE);
	/* The last XW_WRITTEN_OFF written off are remembered, no more. */
	for (uint64_t i = 0; i < XW_WRITTEN_OFF; i++) {
		x = xw_add(&w, &(struct lg_pending){ .callno = i });
		if (i == 0)
			prev = x;
		xw_find(&w, x, &s);
		xw_end(&w, s, false);
	}
	assert_int_equal(xw_find(&w, x, &s), XW_LATE);
	assert_int_equal(xw_find(&w, prev, &s), XW_LATE);
	assert_int_equal(xw_find(&w, stuck, &s), XW_UNMATCHED);
	xw_free(&w);
	/* Depth 1 and the largest. */
	assert_int_equal(xw_init(&w, 1), 0);
	x = xw_add(&w, &(struct lg_pending){ .callno = 9 });
	assert_false(xw_room(&w));
	assert_int_equal(xw_find(&w, x, &s), XW_OUTSTANDING);
	xw_free(&w);
	assert_int_equal(xw_init(&w, XW_MAX_DEPTH), 0);
	for (unsigned i = 0; i < XW_MAX_DEPTH; i++)
		xw_add(&w, &(struct lg_pending){ .callno = i });
	assert_false(xw_room(&w));
	assert_int_equal(xw_oldest(&w)->call.callno, 0);
	xw_free(&w);
}

/* ---- the record stream of --depth --------------------------------------- */

/* A test stream: records of these sizes, some in several fragments. */
struct rs_case {
	size_t len;
	size_t frag;      /* fragment size (0: one fragment) */
	unsigned empties; /* empty fragments before each */
};

static const struct rs_case rs_cases[] = {
	{ 24, 0, 0 },   { 0, 0, 0 },   { 28, 0, 0 },     { 1000, 0, 0 },
	{ 1000, 7, 0 }, { 64, 16, 2 }, { 40000, 0, 0 }, { 40000, 4096, 1 },
	{ 5, 0, 0 },
};

static uint8_t rs_byte(size_t rec, size_t i)
{
	return (uint8_t)(rec * 31 + i * 7 + (i >> 8));
}

static void rs_stream(struct xbuf *b)
{
	xb_init(b);
	for (size_t r = 0; r < sizeof(rs_cases) / sizeof(rs_cases[0]); r++) {
		const struct rs_case *c = &rs_cases[r];
		uint8_t *rec = malloc(c->len + 1);

		for (size_t i = 0; i < c->len; i++)
			rec[i] = rs_byte(r, i);
		if (c->frag)
			rm_fragments(b, rec, c->len, c->frag, c->empties);
		else
			rm_record(b, rec, c->len);
		free(rec);
	}
}

/* Feed the stream in pieces of `piece` bytes (0: sizes that vary); every
 * record must come out whole, in order, once. */
static void rs_feed(const struct xbuf *b, size_t piece)
{
	struct recstream rs;
	size_t off = 0, got = 0, step = 0;
	uint8_t *rec;
	size_t len;
	int rc;

	assert_int_equal(rs_init(&rs, 65536), 0);
	while (off < b->len) {
		size_t room, n;
		uint8_t *p = rs_space(&rs, &room);

		assert_non_null(p);
		assert_true(room > 0);
		n = piece ? piece : 1 + (step++ * 977) % 5000;
		if (n > room)
			n = room;
		if (n > b->len - off)
			n = b->len - off;
		memcpy(p, b->p + off, n);
		rs_added(&rs, n);
		off += n;
		while ((rc = rs_next(&rs, &rec, &len)) == 1) {
			const struct rs_case *c = &rs_cases[got];

			assert_int_equal(len, c->len);
			for (size_t i = 0; i < len; i++)
				if (rec[i] != rs_byte(got, i))
					fail_msg("record %zu byte %zu, pieces of %zu",
						 got, i, piece);
			got++;
		}
		assert_int_equal(rc, 0);
	}
	assert_int_equal(got, sizeof(rs_cases) / sizeof(rs_cases[0]));
	rs_free(&rs);
}

static void test_recstream_partial_reads(void **state)
{
	static const size_t pieces[] = { 1, 2, 3, 4, 5, 7, 13, 4095, 4096, 65536, 0 };
	struct xbuf b;

	(void)state;
	rs_stream(&b);
	for (size_t i = 0; i < sizeof(pieces) / sizeof(pieces[0]); i++)
		rs_feed(&b, pieces[i]);
	xb_free(&b);
}

static void test_recstream_limits(void **state)
{
	struct recstream rs;
	struct xbuf b;
	uint8_t *p, *rec;
	size_t room, len;

	(void)state;
	/* A fragment header that claims more than max: refused at once. */
	assert_int_equal(rs_init(&rs, 1000), 0);
	xb_init(&b);
	rm_header(&b, 997, true); /* 4 + 997 > 1000 */
	p = rs_space(&rs, &room);
	memcpy(p, b.p, b.len);
	rs_added(&rs, b.len);
	assert_int_equal(rs_next(&rs, &rec, &len), -1);
	/* Exactly max, markers included, is taken. */
	rs_reset(&rs);
	xb_reset(&b);
	rm_header(&b, 996, true);
	xb_zero(&b, 996);
	p = rs_space(&rs, &room);
	memcpy(p, b.p, b.len);
	rs_added(&rs, b.len);
	assert_int_equal(rs_next(&rs, &rec, &len), 1);
	assert_int_equal(len, 996);
	assert_int_equal(rs_next(&rs, &rec, &len), 0);
	/* Empty fragments without end count their markers. */
	rs_reset(&rs);
	xb_reset(&b);
	for (int i = 0; i < 251; i++)
		rm_header(&b, 0, false);
	p = rs_space(&rs, &room);
	memcpy(p, b.p, b.len);
	rs_added(&rs, b.len);
	assert_int_equal(rs_next(&rs, &rec, &len), -1);
	rs_free(&rs);
	xb_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pattern_deterministic),
		cmocka_unit_test(test_pattern_known_answer),
		cmocka_unit_test(test_pattern_check),
		cmocka_unit_test(test_rng_below),
		cmocka_unit_test(test_cli_load_defaults),
		cmocka_unit_test(test_cli_load_options),
		cmocka_unit_test(test_cli_load_short_and_defaults),
		cmocka_unit_test(test_cli_load_errors),
		cmocka_unit_test(test_cli_slices),
		cmocka_unit_test(test_cli_slices_errors),
		cmocka_unit_test(test_design_williams),
		cmocka_unit_test(test_slice_sum),
		cmocka_unit_test(test_cli_single),
		cmocka_unit_test(test_cli_bad),
		cmocka_unit_test(test_cli_conventions),
		cmocka_unit_test(test_help_covers_options),
		cmocka_unit_test(test_xidwin_match),
		cmocka_unit_test(test_xidwin_long_run),
		cmocka_unit_test(test_recstream_partial_reads),
		cmocka_unit_test(test_recstream_limits),
	};

	return cmocka_run_group_tests_name("rpcload", tests, NULL, NULL);
}
