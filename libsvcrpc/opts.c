// SPDX-License-Identifier: GPL-2.0
/*
 * opts.c - command-line options on getopt_long (opts.h).
 */
#include "opts.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LONG_BASE 256 /* getopt_long's value for defs[i] is LONG_BASE + i */

void opt_errf(char *err, size_t n, const char *fmt, ...)
{
	va_list ap;

	if (!err || !n)
		return;
	va_start(ap, fmt);
	vsnprintf(err, n, fmt, ap);
	va_end(ap);
}

void opts_start(struct opts *s, int argc, char **argv,
		const struct optdef *defs, const char *ctx, const char *see)
{
	size_t k = 0;

	memset(s, 0, sizeof(*s));
	s->argc = argc;
	s->argv = argv;
	s->defs = defs;
	s->ctx = ctx;
	s->see = see;
	s->so[k++] = ':'; /* a missing value is ':', not '?' */
	for (int i = 0; defs[i].name && i < OPTS_MAX; i++) {
		s->lo[i] = (struct option){ defs[i].name,
					    defs[i].arg ? required_argument
							: no_argument,
					    NULL, LONG_BASE + i };
		if (defs[i].shortc) {
			s->so[k++] = defs[i].shortc;
			if (defs[i].arg)
				s->so[k++] = ':';
		}
		s->ndefs = i + 1;
	}
	s->so[k] = 0;
	opterr = 0;
	optind = 0; /* glibc: start afresh */
}

static const char *pre(const struct opts *s)
{
	return s->ctx ? s->ctx : "";
}

static const char *sep(const struct opts *s)
{
	return s->ctx ? ": " : "";
}

/* defs for a short letter, or NULL */
static const struct optdef *by_short(const struct opts *s, int c)
{
	for (int i = 0; i < s->ndefs; i++)
		if (s->defs[i].shortc && s->defs[i].shortc == c)
			return &s->defs[i];
	return NULL;
}

/* "--name" or "-c" for the option getopt_long reported in optopt */
static void spelled(const struct opts *s, char *buf, size_t n)
{
	if (optopt >= LONG_BASE && optopt < LONG_BASE + s->ndefs)
		snprintf(buf, n, "--%s", s->defs[optopt - LONG_BASE].name);
	else
		snprintf(buf, n, "-%c", optopt);
}

/* An unknown or ambiguous long option: argv[optind - 1]. */
static int bad_long(const struct opts *s, char *err, size_t n)
{
	const char *a = optind > 0 && optind <= s->argc ? s->argv[optind - 1] : "?";
	const char *name = strncmp(a, "--", 2) == 0 ? a + 2 : a;
	size_t len = strcspn(name, "=");
	char shown[64], cands[160] = "";
	int matches = 0;

	snprintf(shown, sizeof(shown), "--%.*s", (int)(len > 40 ? 40 : len), name);
	for (int i = 0; i < s->ndefs; i++) {
		size_t used = strlen(cands);

		if (strncmp(s->defs[i].name, name, len) != 0)
			continue;
		matches++;
		snprintf(cands + used, sizeof(cands) - used, "%s--%s",
			 used ? ", " : "", s->defs[i].name);
	}
	if (matches > 1) {
		opt_errf(err, n, "%s%soption '%s' is ambiguous (%s)", pre(s), sep(s),
			 shown, cands);
		return -1;
	}
	opt_errf(err, n, "%s%sunknown option '%s' (see '%s')", pre(s), sep(s),
		 shown, s->see);
	return -1;
}

int opts_next(struct opts *s, const struct optdef **d, const char **val,
	      char *err, size_t n)
{
	char shown[64];
	int c = getopt_long(s->argc, s->argv, s->so, s->lo, NULL);

	*d = NULL;
	*val = NULL;
	if (c == -1)
		return 0;
	if (c == ':') {
		spelled(s, shown, sizeof(shown));
		opt_errf(err, n, "%s%soption '%s' needs a value", pre(s), sep(s),
			 shown);
		return -1;
	}
	if (c == '?') {
		if (optopt == 0)
			return bad_long(s, err, n);
		spelled(s, shown, sizeof(shown));
		if (optopt >= LONG_BASE)
			opt_errf(err, n, "%s%soption '%s' takes no value", pre(s),
				 sep(s), shown);
		else
			opt_errf(err, n, "%s%sunknown option '%s' (see '%s')", pre(s),
				 sep(s), shown, s->see);
		return -1;
	}
	*d = c >= LONG_BASE ? &s->defs[c - LONG_BASE] : by_short(s, c);
	if (!*d) { /* cannot happen: getopt_long returns what it was given */
		opt_errf(err, n, "%s%sinternal error: option %d", pre(s), sep(s), c);
		return -1;
	}
	*val = (*d)->arg ? optarg : NULL;
	return (*d)->id;
}

int opts_index(const struct opts *s)
{
	(void)s;
	return optind;
}

int opts_no_args(const struct opts *s, char *err, size_t n)
{
	if (optind >= s->argc)
		return 0;
	opt_errf(err, n, "%s%sunexpected argument '%.64s'", pre(s), sep(s),
		 s->argv[optind]);
	return -1;
}

/* ---- values --------------------------------------------------------------- */

int opt_parse_u64(const char *s, uint64_t min, uint64_t max, unsigned flags,
		  uint64_t *out)
{
	const char *p = s;
	char *end;
	unsigned long long v;
	uint64_t mult = 1;

	if (!s || !*s)
		return -1;
	while (*p == ' ')
		p++;
	if (*p == '-' || *p == '+')
		return -1;
	errno = 0;
	v = strtoull(p, &end, 0);
	if (errno || end == p)
		return -1;
	if ((flags & OPT_KM) && *end) {
		if ((end[0] == 'k' || end[0] == 'K') && !end[1])
			mult = 1024;
		else if ((end[0] == 'm' || end[0] == 'M') && !end[1])
			mult = 1024 * 1024;
		else
			return -1;
	} else if (*end) {
		return -1;
	}
	if (mult > 1 && v > UINT64_MAX / mult)
		return -1;
	v *= mult;
	if (v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int opt_parse_duration(const char *s, double *seconds)
{
	static const struct {
		const char *unit;
		double s;
	} units[] = { { "", 1 },      { "s", 1 },     { "ms", 1e-3 },
		      { "us", 1e-6 }, { "m", 60 },    { "h", 3600 } };
	char *end;
	double v;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return -1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].unit) == 0) {
			*seconds = v * units[i].s;
			return 0;
		}
	}
	return -1;
}

int opt_bad_value(char *err, size_t n, const char *ctx, const struct optdef *d,
		  const char *val, const char *expect)
{
	opt_errf(err, n, "%s%s--%s: invalid value '%.64s' (expected %s)",
		 ctx ? ctx : "", ctx ? ": " : "", d->name, val, expect);
	return -1;
}

int opt_u64(char *err, size_t n, const char *ctx, const struct optdef *d,
	    const char *val, uint64_t min, uint64_t max, unsigned flags,
	    uint64_t *out)
{
	char expect[96];

	if (opt_parse_u64(val, min, max, flags, out) == 0)
		return 0;
	snprintf(expect, sizeof(expect), "an integer %llu..%llu%s",
		 (unsigned long long)min, (unsigned long long)max,
		 flags & OPT_KM ? ", k/M suffixes allowed" : "");
	return opt_bad_value(err, n, ctx, d, val, expect);
}

int opt_u32(char *err, size_t n, const char *ctx, const struct optdef *d,
	    const char *val, uint32_t min, uint32_t max, unsigned flags,
	    uint32_t *out)
{
	uint64_t v;

	if (opt_u64(err, n, ctx, d, val, min, max, flags, &v) < 0)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

int opts_usage_error(const char *prog, const char *msg)
{
	fprintf(stderr, "%s: %s\n", prog, msg);
	return 2;
}

uint64_t opt_u64_or_exit(const char *prog, const struct optdef *d,
			 const char *val, uint64_t min, uint64_t max,
			 unsigned flags)
{
	char err[200];
	uint64_t v;

	if (opt_u64(err, sizeof(err), NULL, d, val, min, max, flags, &v) == 0)
		return v;
	exit(opts_usage_error(prog, err));
}

int opt_duration(char *err, size_t n, const char *ctx, const struct optdef *d,
		 const char *val, bool zero_ok, double max_s, double *out)
{
	char expect[128];
	double v;

	if (opt_parse_duration(val, &v) == 0 && (v > 0 || (zero_ok && v == 0)) &&
	    v <= max_s) {
		*out = v;
		return 0;
	}
	snprintf(expect, sizeof(expect),
		 "a duration %s 0 and at most %g s, e.g. 5, 1.5s, 500ms, 2m",
		 zero_ok ? "from" : "more than", max_s);
	return opt_bad_value(err, n, ctx, d, val, expect);
}

int opt_word_index(const char *const *words, const char *s)
{
	for (int i = 0; words[i]; i++)
		if (strcmp(s, words[i]) == 0)
			return i;
	return -1;
}

int opt_word(char *err, size_t n, const char *ctx, const struct optdef *d,
	     const char *val, const char *const *words, int *out)
{
	char expect[160] = "";
	int k = opt_word_index(words, val);
	size_t used;

	if (k >= 0) {
		*out = k;
		return 0;
	}
	for (int i = 0; words[i]; i++) {
		used = strlen(expect);
		snprintf(expect + used, sizeof(expect) - used, "%s%s",
			 !i ? "" : words[i + 1] ? ", " : " or ", words[i]);
	}
	return opt_bad_value(err, n, ctx, d, val, expect);
}

int opts_help_missing(const struct optdef *defs, const char *help,
		      char *missing, size_t n)
{
	char want[64];

	for (const struct optdef *d = defs; d->name; d++) {
		snprintf(want, sizeof(want), "--%s", d->name);
		if (!strstr(help, want)) {
			snprintf(missing, n, "%s", want);
			return 1;
		}
		if (d->shortc) {
			snprintf(want, sizeof(want), "-%c,", d->shortc);
			if (!strstr(help, want)) {
				snprintf(missing, n, "%s", want);
				return 1;
			}
		}
	}
	return 0;
}
