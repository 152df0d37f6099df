/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rpcsvc_ref.h - shared state of rpcsvc-ref's main and its procedures.
 */
#ifndef RPCSVC_REF_H
#define RPCSVC_REF_H

struct ref_stats {
	unsigned long null_calls;
	unsigned long echo_calls;
	unsigned long sleep_calls;
	unsigned long echo_corrupted;
	unsigned long garbage;
};

extern struct ref_stats ref_stats;
/* --corrupt-echo N: flip a byte of every Nth ECHO reply (0 = never). */
extern unsigned long ref_corrupt_echo;

#endif
