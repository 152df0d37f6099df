/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h - command-line parsing for rpcload, on getopt_long (libsvcrpc's
 * opts.h): short flags bundle (-uJ), values attach (-p20049, --port=20049),
 * --help and --version work after the command.
 *
 * The parsers never print and never exit: they fill an options structure
 * or write a one-line message into err (without the "rpcload: " prefix),
 * so the unit tests can drive them with argument vectors.
 */
#ifndef RPCLOAD_CLI_H
#define RPCLOAD_CLI_H

#include "bad.h" /* struct bad_opts: the conformance suite's (conformance/) */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RPCLOAD_DEFAULT_HOST "127.0.0.1"
#define RPCLOAD_DEFAULT_PORT 20049u
#define RPCLOAD_DEFAULT_TIMEOUT_MS 5000u
#define RPCLOAD_DEFAULT_DURATION_S 10.0
#define RPCLOAD_DEFAULT_ECHO_SIZE 1024u
#define RPCLOAD_DEFAULT_SLEEP_US 1000u
#define RPCLOAD_MAX_CONNS 4096u
#define RPCLOAD_MAX_DURATION_S 86400.0
#define RPCLOAD_MAX_RATE 10000000u
#define RPCLOAD_MAX_DEPTH 1024u
#define RPCLOAD_DEFAULT_MAX_CONNS 128u
#define RPCLOAD_DEFAULT_MAX_RECORD 1052672u /* 1 MiB + 4 KiB */
#define RPCLOAD_BAD_DEFAULT_TIMEOUT_MS 2000u

/*
 * The largest ECHO payload that fits one UDP datagram both ways: a call
 * with AUTH_NONE has 40 header bytes + 4 length bytes + the padded
 * payload, and must be <= 65507 bytes (the IPv4 UDP limit).
 */
#define RPCLOAD_UDP_ECHO_MAX 65460u

enum proto { PROTO_TCP = 0, PROTO_UDP = 1 };
enum proc_kind { PROCK_NULL = 0, PROCK_ECHO = 1, PROCK_SLEEP = 2 };

enum cli_status {
	CLI_OK = 0,    /* options parsed: run */
	CLI_HELP = 1,  /* --help given: print the help, exit 0 */
	CLI_ERROR = 2, /* err holds the message: exit 2 */
	CLI_VERSION = 3, /* --version given: print the version, exit 0 */
};

struct target {
	char host[256];
	unsigned port;
	enum proto proto;
	uint32_t prog;
	uint32_t vers;
	unsigned timeout_ms;
};

struct single_opts {
	struct target t;
	enum proc_kind proc;
	uint32_t size;     /* ECHO payload bytes */
	uint32_t sleep_us; /* SLEEP argument */
	uint64_t seed;
	bool json;
};

struct load_opts {
	struct target t;
	enum proc_kind proc;
	unsigned conns;
	double duration_s;    /* 0 = no time limit (only with calls) */
	uint64_t calls_limit; /* 0 = no call limit */
	uint32_t size;
	uint32_t sleep_us;
	uint64_t seed;
	bool json;
	int progress; /* -1: when stderr is a terminal, 0: never, 1: always */
	uint64_t rate;   /* calls per second, open loop; 0 = closed loop */
	double warmup_s; /* calls before the measurement; 0 = none */
	unsigned depth;  /* calls outstanding per connection, 1..1024 */
};

/* rpcload slices: the targets it moves the load between, and its cell. */
#define SLICES_MAX_TARGETS 16u
#define SLICES_NAME_MAX 32u /* a target's name, the NUL included */
#define SLICES_DEFAULT_SLICE_S 1.0
#define SLICES_DEFAULT_WARM_S 0.2
#define SLICES_MAX_SLICE_S 3600.0
#define SLICES_MIN_ROUNDS 6u /* the default: whole blocks, at least this */
#define SLICES_MAX_ROUNDS 10000u

struct slice_target {
	char name[SLICES_NAME_MAX];
	struct target t;
};

struct slices_opts {
	struct slice_target targets[SLICES_MAX_TARGETS];
	unsigned ntargets;
	enum proc_kind proc;
	uint32_t size;
	uint32_t sleep_us;
	unsigned conns;     /* connections per target */
	unsigned depth;     /* calls outstanding per connection */
	double slice_s;     /* one slice, its warm-up included */
	double warm_s;      /* the start of each slice that is not counted */
	unsigned rounds;    /* 0: not given */
	double duration_s;  /* 0: not given */
	unsigned timeout_ms;
	uint64_t seed;
	bool json;
	int progress; /* -1: when stderr is a terminal, 0: never, 1: always */
};

const char *proc_kind_name(enum proc_kind p);
const char *proto_name(enum proto p);

/*
 * argv[0] is the subcommand ("null", "echo", "sleep", "load", "bad",
 * "slices").
 */
enum cli_status cli_parse_single(int argc, char **argv, struct single_opts *o,
				 char *err, size_t errlen);
enum cli_status cli_parse_load(int argc, char **argv, struct load_opts *o,
			       char *err, size_t errlen);
enum cli_status cli_parse_bad(int argc, char **argv, struct bad_opts *o,
			      char *err, size_t errlen);
/*
 * slices: --target is given once per target.  The number of rounds is
 * left as given (0 when not): slices.c settles it against the design.
 */
enum cli_status cli_parse_slices(int argc, char **argv, struct slices_opts *o,
				 char *err, size_t errlen);
/*
 * One target of slices: NAME=HOST[:PORT][/tcp|/udp][,prog=N][,vers=N];
 * HOST a name, an IPv4 address, or an IPv6 address in brackets
 * ([::1]:20049).  The port defaults to 20049, the transport to tcp, prog
 * and vers to svcsock's.  0, or -1 with the reason in err.
 */
int cli_parse_target_spec(const char *spec, struct slice_target *st,
			  char *err, size_t errlen);

/*
 * For the tests: 0 when every option of subcommand sub (its long name and,
 * if it has one, its "-x," short form) appears in help; 1 and the missing
 * spelling in missing otherwise; -1 for an unknown subcommand.
 */
int cli_help_missing(const char *sub, const char *help, char *missing, size_t n);

/* Is --json (or -J, alone or in a bundle) among the arguments?  For the
 * JSON document of a usage error. */
bool cli_wants_json(int argc, char **argv);

#endif
