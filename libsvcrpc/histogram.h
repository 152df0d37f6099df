/* SPDX-License-Identifier: GPL-2.0 */
/*
 * histogram.h - fixed-size log-linear latency histogram.
 *
 * Values (nanoseconds in the load generators) below HIST_SUB are counted
 * exactly; above, each power-of-two range is split into HIST_SUB/2 equal
 * buckets, so a bucket's width is at most 1/128 of its lower bound
 * (relative error of a reported percentile <= 0.79%).  The histogram has
 * a fixed size (about 38 KiB) whatever the run's length: no per-call
 * storage.
 */
#ifndef SVCRPC_HISTOGRAM_H
#define SVCRPC_HISTOGRAM_H

#include <stddef.h>
#include <stdint.h>

#define HIST_SUB_BITS 8
#define HIST_SUB (1u << HIST_SUB_BITS)   /* 256 exact values */
#define HIST_HALF (HIST_SUB / 2)          /* 128 buckets per octave */
#define HIST_MAX_BITS 44                  /* values up to 2^44-1 (~4.9 h in ns) */
#define HIST_NBUCKETS (HIST_SUB + (HIST_MAX_BITS - HIST_SUB_BITS) * HIST_HALF)
#define HIST_MAX_VALUE ((UINT64_C(1) << HIST_MAX_BITS) - 1)

struct hist {
	uint64_t count;
	uint64_t sum;     /* of the recorded (clamped) values */
	uint64_t min;
	uint64_t max;
	uint64_t buckets[HIST_NBUCKETS];
};

void hist_init(struct hist *h);
/* Record one value; values above HIST_MAX_VALUE are clamped to it. */
void hist_record(struct hist *h, uint64_t v);
/* dst += src */
void hist_merge(struct hist *dst, const struct hist *src);

/*
 * Nearest-rank percentile, p in [0, 100]: the smallest value v such that at
 * least p% of the recorded values are <= v, reported as the highest value
 * of v's bucket, clamped to [min, max].  0 when the histogram is empty.
 */
uint64_t hist_percentile(const struct hist *h, double p);
double hist_mean(const struct hist *h);

/* Bucket arithmetic, exposed for the unit tests. */
size_t hist_index(uint64_t v);
uint64_t hist_bucket_low(size_t idx);
uint64_t hist_bucket_high(size_t idx);

#endif
