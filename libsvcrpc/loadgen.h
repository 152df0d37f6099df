/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loadgen.h - the load generator shared by rpcload and bench/rr-client:
 * N connections, one thread each, calls until a duration or a call count
 * is reached, counters, latency histograms, reconnects, progress, SIGINT.
 *
 * What a connection is and what a call does is the caller's (struct
 * lg_ops): an RPC client for rpcload, a raw socket for rr-client.
 *
 * Closed loop (rate 0): each connection makes its next call as soon as
 * the previous one is answered; a call's latency runs from just before it
 * is sent to its reply.
 * Open loop (rate R > 0): the calls are scheduled at R per second in all,
 * each connection R/conns per second at fixed intervals (staggered across
 * connections); a connection that falls behind sends back to back until it
 * has caught up, and a call's latency runs from the time it was scheduled
 * to its reply, so time spent waiting behind a slow call counts (wrk2's
 * correction for coordinated omission).  service_hist keeps the latency
 * measured from the actual send, as in the closed loop.
 * Warm-up (warmup_s > 0): calls are made for warmup_s seconds first and
 * only counted in warmup_calls/warmup_errors; the duration, the call limit
 * and every figure start after it.
 * Pipelined (depth > 1): each connection keeps up to depth calls
 * outstanding (lg_ops send/reap instead of call).  It sends while the
 * window has room and a call is due (closed loop: at once; open loop: a
 * call that fell due while the window was full goes as soon as there is
 * room), and a call's latency runs from its send (open loop: from the
 * time it was due) to the moment reap hands it back.  When the run stops,
 * or the call limit is reached, the calls outstanding are waited for; a
 * connection that broke is closed once its last outstanding call has been
 * handed back, and made again under the same rules as one call at a time.
 */
#ifndef SVCRPC_LOADGEN_H
#define SVCRPC_LOADGEN_H

#include "histogram.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LG_MAX_CONNS 4096u
#define LG_MAX_RECONNECT_FAILURES 3

enum lg_outcome {
	LG_OK = 0,
	LG_FAILED,   /* any error but a timeout */
	LG_TIMEOUT,  /* no reply within the call's timeout */
	LG_MISMATCH, /* a reply, but not the right one */
};

struct lg_call {
	enum lg_outcome outcome;
	bool broken; /* close the connection and make a new one */
	char msg[200];
};

/*
 * A call outstanding on a pipelined connection, as the generator sees it:
 * the transport keeps it with its call and hands it back, unchanged, when
 * the call ends.
 */
struct lg_pending {
	uint64_t callno;
	uint64_t sched_ns; /* open loop: when the call was due; else 0 */
	uint64_t sent_ns;  /* when it was handed to send */
	bool measured;     /* false: a warm-up call */
};

struct lg_ops {
	size_t conn_size; /* bytes of a connection's state, zeroed by lg_run */
	/* Once per connection before the run (buffers): 0 or -1 with err. */
	int (*init)(void *ctx, void *conn, char *err, size_t n);
	/* Connect: 0 or -1 with err. */
	int (*open)(void *ctx, void *conn, char *err, size_t n);
	void (*close)(void *ctx, void *conn);
	/* One call, number callno (unique in the run). */
	void (*call)(void *ctx, void *conn, uint64_t callno, struct lg_call *r);
	/* Once per connection at the end (after close when connected). */
	void (*fini)(void *ctx, void *conn);

	/*
	 * Pipelined connections (lg_params.depth > 1) use these three in
	 * place of call.
	 * ready: may another call be sent now (room in the transport's own
	 * window and output buffer)?  Must be true while no call is
	 * outstanding; NULL: always (the generator never exceeds depth).
	 * send: put call c on the wire, or queue it to be written before reap
	 * waits.  0: it is outstanding; -1: it ended at once, r says how.
	 * reap: wait until the time until (now_ns(); UINT64_MAX: no limit) for
	 * one outstanding call to end, enforcing each call's own timeout.
	 * 1: *c is that call (as sent) and r its outcome; 0: none ended, either
	 * because until passed or because ready has become true again.  After
	 * an outcome with r->broken, the generator sends nothing more on the
	 * connection: the transport hands back each call still outstanding
	 * (with its outcome), then the connection is closed.
	 */
	bool (*ready)(void *ctx, void *conn);
	int (*send)(void *ctx, void *conn, const struct lg_pending *c,
		    struct lg_call *r);
	int (*reap)(void *ctx, void *conn, uint64_t until, struct lg_pending *c,
		    struct lg_call *r);
};

struct lg_keep;

struct lg_params {
	unsigned conns;
	double duration_s;   /* 0: no time limit (then calls_limit is set) */
	uint64_t calls_limit; /* 0: no limit */
	double rate;         /* calls per second, all connections; 0: closed loop */
	double warmup_s;     /* 0: none */
	unsigned depth;      /* calls outstanding per connection; 0 or 1:
			      * one at a time (ops->call) */
	uint64_t payload_per_call; /* bytes counted in payload_bytes per ok call */
	int progress;        /* a line on stderr every second: 1 yes, 0 no */
	const char *name;    /* "rpcload: load", for the rare fatal messages */
	struct lg_keep *keep; /* NULL, or connections kept across runs
			       * (lg_keep_open: conns of them, made with the
			       * same ops and ctx) */
};

struct lg_result {
	uint64_t calls;      /* calls attempted (incl. failed reconnects) */
	uint64_t ok;
	uint64_t failures;
	uint64_t timeouts;
	uint64_t mismatches;
	uint64_t reconnects; /* connections re-established during the run */
	uint64_t payload_bytes;
	uint64_t warmup_calls, warmup_errors;
	unsigned conns_gave_up; /* threads stopped after failing to reconnect */
	double elapsed_s;    /* from the start (after warm-up) to the last end */
	double ops_per_s;
	double mb_per_s;
	bool interrupted;    /* stopped early by SIGINT/SIGTERM */
	char first_error[240];
	struct hist hist;         /* latency of ok calls, ns (open loop: from
				   * the scheduled time) */
	struct hist service_hist; /* open loop: from the actual send */
	/* now_ns() readings: the first call (warm-up included), the start
	 * of the measurement, the end of the last call */
	uint64_t start_ns, measure_ns, end_ns;
};

/*
 * Opens every connection (before the clock starts; with p->keep, takes
 * those instead), runs, fills res.
 * 0 when the run took place (whatever its errors), -1 with err set when it
 * could not start.
 */
int lg_run(const struct lg_params *p, const struct lg_ops *ops, void *ctx,
	   struct lg_result *res, char *err, size_t n);

/*
 * Connections kept open across runs (rpcload slices: every target's
 * connections stay open for the whole cell while the load moves from one
 * target to another).  lg_keep_open() makes conns connections and connects
 * them (ops init and open), as lg_run does at its start; a run given them
 * in lg_params.keep makes none of its own and closes none at its end.
 * During the run they are what they always are: one that broke is closed,
 * and made again for its next call (in this run or the next).
 * lg_keep_close() closes what is still open and frees them.
 * lg_keep_open: NULL with err set when a connection could not be made.
 */
struct lg_keep *lg_keep_open(unsigned conns, const struct lg_ops *ops,
			     void *ctx, char *err, size_t n);
/* How many of them are connected now (between runs). */
unsigned lg_keep_connected(const struct lg_keep *k);
void lg_keep_close(struct lg_keep *k);

/* The exit status rule of rpcload: 0 when no call failed and some succeeded. */
bool lg_all_ok(const struct lg_result *r);

/*
 * The close op (lg_ops.close) of a connection whose state begins with its
 * socket, an int fd (-1 when closed): closes the socket and sets -1
 * (rr-client's connections, rpcload's pipelined ones).
 */
void lg_close_fd(void *ctx, void *conn);

#endif
