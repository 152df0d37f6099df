// SPDX-License-Identifier: GPL-2.0
/*
 * design.c - the Williams design of paired slices, and the sum of one
 * target's slices (design.h).
 */
#include "design.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned design_block(unsigned n)
{
	return n <= 1 ? 1 : (n % 2 ? 2 * n : n);
}

void design_row(unsigned n, unsigned r, unsigned *row)
{
	unsigned i = r % design_block(n);
	/* couple i/2: base row i/2, then the same reversed */
	unsigned base = i / 2;
	bool reversed = i % 2;

	for (unsigned j = 0; j < n; j++) {
		/* row 0: 0, 1, n-1, 2, n-2, ...; row k adds k (mod n) */
		unsigned first = j == 0 ? 0 : j % 2 ? (j + 1) / 2 : n - j / 2;

		row[reversed ? n - 1 - j : j] = (first + base) % n;
	}
}

unsigned design_rounds(unsigned n, unsigned min_rounds, unsigned max_rounds)
{
	unsigned b = design_block(n);
	unsigned want = (min_rounds + b - 1) / b * b;

	if (!want)
		want = b;
	if (!max_rounds)
		return want;
	return max_rounds >= b ? max_rounds / b * b : max_rounds;
}

bool design_balanced(unsigned n, unsigned rounds)
{
	return rounds > 0 && rounds % design_block(n) == 0;
}

int design_plan(unsigned n, double duration_s, double slice_s, unsigned rounds,
		unsigned min_rounds, unsigned max_rounds, struct design_plan *p,
		char *err, size_t errlen)
{
	unsigned want;

	memset(p, 0, sizeof(*p));
	if (duration_s > 0) {
		unsigned fit = (unsigned)(duration_s / (slice_s * n) + 1e-9);

		want = design_rounds(n, 0, fit > max_rounds ? max_rounds : fit);
		if (rounds && rounds < want)
			want = rounds;
	} else {
		want = rounds ? rounds : design_rounds(n, min_rounds, 0);
	}
	if (!want) {
		snprintf(err, errlen, "no round fits in --duration %g s", duration_s);
		return -1;
	}
	p->order = calloc((size_t)want * n, sizeof(*p->order));
	if (!p->order) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	p->rounds = want;
	p->block = design_block(n);
	p->balanced = design_balanced(n, want);
	for (unsigned r = 0; r < want; r++)
		design_row(n, r, p->order + (size_t)r * n);
	return 0;
}

void slice_sum_start(struct slice_sum *t, unsigned n)
{
	memset(t, 0, sizeof(*t));
	t->first_bad = -1;
	/* without it only the median, min and max stay 0 */
	t->ops = calloc(n ? n : 1, sizeof(*t->ops));
}

void slice_sum_add(struct slice_sum *t, uint64_t calls, uint64_t ok,
		   uint64_t errors, double elapsed_s, double ops_per_s)
{
	if (t->ops)
		t->ops[t->slices] = ops_per_s;
	if (errors && t->first_bad < 0)
		t->first_bad = (int)t->slices;
	t->slices++;
	t->calls += calls;
	t->ok += ok;
	t->errors += errors;
	t->elapsed_s += elapsed_s;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void slice_sum_end(struct slice_sum *t)
{
	double *v = t->ops;
	unsigned n = t->slices;

	t->ops_per_s = t->elapsed_s > 0 ? (double)t->ok / t->elapsed_s : 0.0;
	if (v && n) {
		qsort(v, n, sizeof(*v), cmp_double);
		t->min = v[0];
		t->max = v[n - 1];
		t->median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	}
	free(v);
	t->ops = NULL;
}
