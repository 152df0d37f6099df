/* SPDX-License-Identifier: GPL-2.0 */
/*
 * opts.h - command-line options on getopt_long, the same way in every
 * program: short options bundle (-uJ), values attached or not (-p20049,
 * --port=20049, --port 20049), long options may be abbreviated, options
 * and arguments in any order, "--" ends the options.  A usage error is
 * one line written into err, which the program prints after its name
 * ("rpcload: load: ...") before it exits 2; only opts_usage_error() and
 * opt_u64_or_exit(), for the programs without subcommands, print it.
 *
 * The table of struct optdef is the one description of a command's
 * options: the parser is built from it, and opts_help_missing() checks a
 * help text against it (unit tests).
 */
#ifndef SVCRPC_OPTS_H
#define SVCRPC_OPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define OPTS_MAX 48

struct optdef {
	const char *name; /* the long name, without "--"; NULL ends a table */
	char shortc;      /* the short letter, 0 for none */
	bool arg;         /* takes a value */
	int id;           /* what opts_next() returns for it, > 0 */
};

struct opts {
	int argc;
	char **argv;
	const struct optdef *defs;
	int ndefs;
	const char *ctx; /* messages start with "CTX: " (NULL: nothing) */
	const char *see; /* "rpcload load --help", named by unknown options */
	struct option lo[OPTS_MAX + 1];
	char so[2 * OPTS_MAX + 2];
};

/* Start parsing argv (argv[0] is the program or command name). */
void opts_start(struct opts *s, int argc, char **argv,
		const struct optdef *defs, const char *ctx, const char *see);

/*
 * The next option: its id, with *d its definition and *val its value (NULL
 * for an option without one).  0 when the options are over: the other
 * arguments are argv[opts_index(s)..argc).  -1 on a usage error (unknown
 * or ambiguous option, missing or unwanted value), the message in err.
 */
int opts_next(struct opts *s, const struct optdef **d, const char **val,
	      char *err, size_t n);
int opts_index(const struct opts *s);
/* After opts_next() returned 0: -1 with a message when an argument is left. */
int opts_no_args(const struct opts *s, char *err, size_t n);

/* ---- values --------------------------------------------------------------- */

#define OPT_KM 1u /* k and M suffixes: x1024, x1048576 */

/* A whole number, decimal or 0x hex, in [min, max].  0 or -1. */
int opt_parse_u64(const char *s, uint64_t min, uint64_t max, unsigned flags,
		  uint64_t *out);
/*
 * A duration, as wrk and fio write them: a number with a unit, us, ms, s,
 * m or h ("500ms", "2m", "1.5s"); a bare number is in seconds.  Finite and
 * >= 0.  0 or -1.
 */
int opt_parse_duration(const char *s, double *seconds);

/* Write "CTX: --NAME: invalid value 'VAL' (expected EXPECT)"; returns -1. */
int opt_bad_value(char *err, size_t n, const char *ctx, const struct optdef *d,
		  const char *val, const char *expect);
/* opt_parse_u64 with that message ("an integer MIN..MAX"). */
int opt_u64(char *err, size_t n, const char *ctx, const struct optdef *d,
	    const char *val, uint64_t min, uint64_t max, unsigned flags,
	    uint64_t *out);
/* The same into a 32-bit unsigned (max at most UINT32_MAX). */
int opt_u32(char *err, size_t n, const char *ctx, const struct optdef *d,
	    const char *val, uint32_t min, uint32_t max, unsigned flags,
	    uint32_t *out);
/*
 * A usage error of a program without subcommands: "PROG: msg" on stderr.
 * Returns 2, the exit status of a usage error.
 */
int opts_usage_error(const char *prog, const char *msg);
/* opt_u64 for the small tools: the value, or "PROG: message" and exit 2. */
uint64_t opt_u64_or_exit(const char *prog, const struct optdef *d,
			 const char *val, uint64_t min, uint64_t max,
			 unsigned flags);
/* A duration in (0, max_s] (or [0, max_s] with zero_ok) with that message. */
int opt_duration(char *err, size_t n, const char *ctx, const struct optdef *d,
		 const char *val, bool zero_ok, double max_s, double *out);
/* The index of s among the NULL-ended words, or -1. */
int opt_word_index(const char *const *words, const char *s);
/*
 * One of the words of a NULL-ended list (--proto tcp|udp): its index in
 * *out, or -1 with "--NAME: invalid value 'VAL' (expected W0, W1 or W2)".
 */
int opt_word(char *err, size_t n, const char *ctx, const struct optdef *d,
	     const char *val, const char *const *words, int *out);
/* printf into err. */
void opt_errf(char *err, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * For the tests: 0 when every option of defs (its "--name" and, when it
 * has one, its "-c," short form) appears in help; 1 and the missing
 * spelling in missing otherwise.
 */
int opts_help_missing(const struct optdef *defs, const char *help,
		      char *missing, size_t n);

#endif
