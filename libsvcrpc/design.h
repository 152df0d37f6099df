/* SPDX-License-Identifier: GPL-2.0 */
/*
 * design.h - the order of paired slices (rpcload slices, bench/nfs-slices):
 * a Williams design, balanced for first-order carry-over; and the sum of
 * one target's slices, as both print it.
 *
 * A round takes every target once; its order is one row of the design.
 * Over a block of rounds every target takes every position equally often,
 * and follows every other target equally often (the slice before a
 * target's is every other target as often), so what one target leaves
 * behind (a warm cache, a server still busy) weighs on every other target
 * alike.  For an even number n of targets the block is one Williams square
 * of n rows, every ordered pair adjacent once; for an odd n no single
 * square does it, and the block is the pair of Latin squares, the square
 * and its rows reversed (2n rows, every ordered pair adjacent twice).
 *
 * Row 0 of the square is 0, 1, n-1, 2, n-2, ...; row k adds k (mod n).
 * The rows are taken in mirror couples: row k, then row k reversed (for an
 * even n that is row k + n/2 of the square, for an odd n the row of the
 * second square), so in every couple of rounds each pair of targets
 * swaps its places end for end.  A host that speeds up or slows down
 * steadily over the two rounds then adds to one round's ratio of two
 * targets what it takes from the other's (as an ABBA order does), and
 * the per-round ratios do not lean the same way round after round.  The
 * couples follow each other in the order of k; rounds past a block take
 * the rows again from the first.
 */
#ifndef SVCRPC_DESIGN_H
#define SVCRPC_DESIGN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Rounds in one block of the design for n targets: n when n is even, 2n
 * when it is odd (1 for one target). */
unsigned design_block(unsigned n);

/* The order of round r (0, 1, ...): row[0..n) a permutation of 0..n-1.
 * Rounds 2k and 2k+1 are mirror images. */
void design_row(unsigned n, unsigned r, unsigned *row);

/*
 * The default number of rounds: whole blocks, at least min_rounds; with a
 * duration (max_rounds > 0: the rounds that fit in it), the largest whole
 * number of blocks that fits, or max_rounds when not even one block does.
 */
unsigned design_rounds(unsigned n, unsigned min_rounds, unsigned max_rounds);

/* Whether rounds rounds are whole blocks (each ordered pair as often). */
bool design_balanced(unsigned n, unsigned rounds);

/* A paired cell's plan: its rounds and each round's order. */
struct design_plan {
	unsigned rounds;   /* planned */
	unsigned block;    /* rounds in one block of the design */
	bool balanced;     /* the planned rounds are whole blocks */
	unsigned *order;   /* rounds x n: round r's order (malloc'd) */
};

/*
 * The plan of a cell of n targets and slices of slice_s seconds, as both
 * slice drivers take their options: rounds > 0 asks for that many; with
 * duration_s > 0, the whole blocks of rounds that fit in it (fewer rounds
 * when not even one block fits; at most max_rounds, and at most rounds
 * when both are given); neither: whole blocks, at least min_rounds.  0,
 * or -1 with err ("no round fits", out of memory).  The caller frees
 * p->order.
 */
int design_plan(unsigned n, double duration_s, double slice_s, unsigned rounds,
		unsigned min_rounds, unsigned max_rounds, struct design_plan *p,
		char *err, size_t errlen);

/* ---- one target's slices, summed ------------------------------------------ */

struct slice_sum {
	unsigned slices;
	uint64_t calls, ok, errors;
	double elapsed_s;        /* of the counted parts */
	double ops_per_s;        /* ok / elapsed_s (0 when nothing counted) */
	double median, min, max; /* of its slices' ops/s (0 without them) */
	int first_bad;           /* the first slice added with errors, from 0;
				  * -1: none */
	double *ops;             /* between start and end: its slices' ops/s */
};

/* Start the sum of a target's slices (or every slice), at most n of them. */
void slice_sum_start(struct slice_sum *t, unsigned n);
/* Add one slice: its calls, those ok, its errors, counted time and ops/s. */
void slice_sum_add(struct slice_sum *t, uint64_t calls, uint64_t ok,
		   uint64_t errors, double elapsed_s, double ops_per_s);
/* The ops/s of the sum, and the median, min and max of the slices'. */
void slice_sum_end(struct slice_sum *t);

#endif
