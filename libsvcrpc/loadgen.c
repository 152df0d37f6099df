// SPDX-License-Identifier: GPL-2.0
/*
 * loadgen.c - the load generator (loadgen.h).
 *
 * Each connection has its own thread and state; the threads share only the
 * call counters (the call number, from which rpcload derives the ECHO
 * payload), the schedule's origin and a stop flag.  Counters are per thread
 * (read by the progress line with relaxed atomics); latencies go to
 * per-thread fixed-size histograms merged at the end.
 */
#include "loadgen.h"
#include "clock.h"
#include "stopsig.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define NS 1000000000.0
/* Warm-up calls are numbered apart from the measured ones. */
#define WARM_CALLNO (UINT64_C(1) << 62)
/* Longest sleep before a worker looks at the stop flag again. */
#define NAP_NS 50000000u

struct shared {
	const struct lg_params *p;
	const struct lg_ops *ops;
	void *ctx;
	atomic_uint_fast64_t next_call, next_warm;
	atomic_bool stop;
	atomic_uint active;
	pthread_barrier_t ready, start; /* every thread running; go */
	uint64_t t0;      /* the schedule's origin, set before the start */
	uint64_t measure; /* t0 + warm-up: what is measured starts here */
};

struct worker {
	pthread_t th;
	unsigned idx;
	struct shared *sh;
	void *conn;
	bool connected, inited;
	atomic_uint_fast64_t calls;
	atomic_uint_fast64_t by[LG_MISMATCH + 1]; /* by outcome: ok, failures... */
	atomic_uint_fast64_t warm_calls, warm_errors;
	uint64_t reconnects;
	bool gave_up;
	uint64_t end_ns;
	char first_err[240];
	struct hist hist;
	struct hist *service; /* open loop only: 38 KiB a connection */
};

struct lg_keep {
	const struct lg_ops *ops;
	void *ctx;
	unsigned n;
	struct kept {
		void *conn;
		bool inited, connected;
	} *c;
};

static volatile sig_atomic_t interrupted;
/* Connections kept open by lg_keep_open(), for raise_nofile(). */
static unsigned kept_total;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static bool stopping(const struct shared *sh)
{
	return atomic_load_explicit(&sh->stop, memory_order_relaxed);
}

/* Sleep until t (now_ns), or until the run stops. */
static void nap_until(const struct shared *sh, uint64_t t)
{
	uint64_t now;

	while (!stopping(sh) && (now = now_ns()) < t)
		sleep_ns(t - now < NAP_NS ? t - now : NAP_NS);
}

static void note_error(struct worker *w, const char *msg)
{
	if (!w->first_err[0])
		snprintf(w->first_err, sizeof(w->first_err), "conn %u: %.200s",
			 w->idx, msg);
}

static void add(atomic_uint_fast64_t *c)
{
	atomic_fetch_add_explicit(c, 1, memory_order_relaxed);
}

/* Count one call's outcome (a failed reconnect is LG_FAILED). */
static void count(struct worker *w, bool measured, const struct lg_call *r)
{
	if (!measured) {
		add(&w->warm_calls);
		if (r->outcome != LG_OK)
			add(&w->warm_errors);
		return;
	}
	add(&w->calls);
	add(&w->by[r->outcome]);
	if (r->outcome != LG_OK)
		note_error(w, r->msg);
}

/* Count a call that ended at end, and its latency when it was ok. */
static void record(struct worker *w, const struct lg_pending *c, uint64_t end,
		   const struct lg_call *r)
{
	count(w, c->measured, r);
	if (c->measured && r->outcome == LG_OK) {
		hist_record(&w->hist, end - (w->service ? c->sched_ns : c->sent_ns));
		if (w->service)
			hist_record(w->service, end - c->sent_ns);
	}
}

/*
 * The number of the next call, due at t (its scheduled time, or now):
 * measured or warm-up by t.  false when the call limit has been reached.
 */
static bool take_callno(struct worker *w, uint64_t t, struct lg_pending *c)
{
	struct shared *sh = w->sh;

	c->measured = t >= sh->measure;
	if (!c->measured) {
		c->callno = WARM_CALLNO |
			    atomic_fetch_add_explicit(&sh->next_warm, 1,
						      memory_order_relaxed);
		return true;
	}
	c->callno = atomic_fetch_add_explicit(&sh->next_call, 1,
					      memory_order_relaxed);
	return !(sh->p->calls_limit && c->callno >= sh->p->calls_limit);
}

/*
 * Connect for call c.  0 connected; 1 not (the call counts as failed, and
 * the next attempt waits 100 ms); -1 not, for the third time in a row:
 * this connection gives up.
 */
static int reconnect(struct worker *w, const struct lg_pending *c,
		     unsigned *failures)
{
	struct shared *sh = w->sh;
	struct lg_call r = { .outcome = LG_OK };

	if (sh->ops->open(sh->ctx, w->conn, r.msg, sizeof(r.msg)) < 0) {
		/* The call could not be made: it counts as failed. */
		r.outcome = LG_FAILED;
		count(w, c->measured, &r);
		if (++*failures >= LG_MAX_RECONNECT_FAILURES) {
			w->gave_up = true;
			return -1;
		}
		nap_until(sh, now_ns() + 100000000u);
		return 1;
	}
	w->connected = true;
	w->reconnects++;
	*failures = 0;
	return 0;
}

static void reset_call(struct lg_call *r)
{
	r->outcome = LG_OK;
	r->broken = false;
	r->msg[0] = 0;
}

static void close_conn(struct worker *w)
{
	w->sh->ops->close(w->sh->ctx, w->conn);
	w->connected = false;
}

/* One call at a time (ops->call). */
static void run_serial(struct worker *w, uint64_t interval, uint64_t next)
{
	struct shared *sh = w->sh;
	unsigned reconnect_failures = 0;
	struct lg_call r;

	while (!stopping(sh)) {
		struct lg_pending c = { 0 };
		int rc;

		if (interval) {
			nap_until(sh, next);
			if (stopping(sh))
				break;
			c.sched_ns = next;
			next += interval;
		}
		if (!take_callno(w, interval ? c.sched_ns : now_ns(), &c))
			break;
		if (!w->connected &&
		    (rc = reconnect(w, &c, &reconnect_failures)) != 0) {
			if (rc < 0)
				break;
			continue;
		}
		reset_call(&r);
		c.sent_ns = now_ns();
		sh->ops->call(sh->ctx, w->conn, c.callno, &r);
		record(w, &c, now_ns(), &r);
		if (r.broken)
			close_conn(w);
	}
}

/*
 * Up to depth calls outstanding (ops->ready/send/reap).  broken: the
 * connection is to be closed once nothing is outstanding; done: no more
 * calls (the limit was reached, or the connection gave up).
 */
static void run_pipelined(struct worker *w, uint64_t interval, uint64_t next)
{
	struct shared *sh = w->sh;
	const struct lg_ops *ops = sh->ops;
	unsigned inflight = 0, reconnect_failures = 0;
	bool broken = false, done = false;
	struct lg_pending c;
	struct lg_call r;

	for (;;) {
		bool room;

		/* Send while the window has room and a call is due. */
		while ((room = !broken && !done && !stopping(sh) &&
				inflight < sh->p->depth &&
				(!w->connected || !ops->ready ||
				 ops->ready(sh->ctx, w->conn))) &&
		       (!interval || next <= now_ns())) {
			int rc;

			memset(&c, 0, sizeof(c));
			if (interval) {
				c.sched_ns = next;
				next += interval;
			}
			if (!take_callno(w, interval ? c.sched_ns : now_ns(), &c)) {
				done = true;
				break;
			}
			if (!w->connected &&
			    (rc = reconnect(w, &c, &reconnect_failures)) != 0) {
				done = rc < 0;
				continue;
			}
			reset_call(&r);
			c.sent_ns = now_ns();
			if (ops->send(sh->ctx, w->conn, &c, &r) == 0) {
				inflight++;
				continue;
			}
			record(w, &c, now_ns(), &r);
			broken |= r.broken;
		}
		if (!inflight) {
			if (broken) {
				close_conn(w);
				broken = false;
			}
			if (done || stopping(sh))
				break;
			if (interval)
				nap_until(sh, next);
			continue;
		}
		/*
		 * Wait for a call to end, or, when there is room for it, for
		 * the next one to fall due.
		 */
		reset_call(&r);
		if (ops->reap(sh->ctx, w->conn, interval && room ? next : UINT64_MAX,
			      &c, &r) == 1) {
			inflight--;
			record(w, &c, now_ns(), &r);
			broken |= r.broken;
		}
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct shared *sh = w->sh;
	const struct lg_params *p = sh->p;
	uint64_t interval = 0, next = 0;

	pthread_barrier_wait(&sh->ready);
	pthread_barrier_wait(&sh->start);
	if (p->rate > 0) {
		interval = (uint64_t)(NS * p->conns / p->rate);
		if (!interval)
			interval = 1;
		next = sh->t0 + interval * w->idx / p->conns;
	}
	if (p->depth > 1)
		run_pipelined(w, interval, next);
	else
		run_serial(w, interval, next);
	w->end_ns = now_ns();
	atomic_fetch_sub(&sh->active, 1);
	return NULL;
}

static void raise_nofile(unsigned need)
{
	struct rlimit rl;

	need += kept_total;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < need + 64) {
		rl.rlim_cur = rl.rlim_max < need + 64 ? rl.rlim_max : need + 64;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/*
 * A connection's state, made ready (ops init, then open): 0, or -1 with
 * err set (what was done is left in *inited and *connected, for conn_free).
 */
static int conn_make(const struct lg_ops *ops, void *ctx, void **conn,
		     bool *inited, bool *connected, char *err, size_t n)
{
	*conn = calloc(1, ops->conn_size ? ops->conn_size : 1);
	if (!*conn) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	if (ops->init && ops->init(ctx, *conn, err, n) < 0)
		return -1;
	*inited = true;
	if (ops->open(ctx, *conn, err, n) < 0)
		return -1;
	*connected = true;
	return 0;
}

static void conn_free(const struct lg_ops *ops, void *ctx, void *conn,
		      bool inited, bool connected)
{
	if (connected)
		ops->close(ctx, conn);
	if (inited && ops->fini)
		ops->fini(ctx, conn);
	free(conn);
}

struct totals {
	uint64_t calls, ok, failures, timeouts, mismatches, warm_calls, warm_errors;
};

static uint64_t get(atomic_uint_fast64_t *c)
{
	return atomic_load_explicit(c, memory_order_relaxed);
}

static void sum_counters(struct worker *ws, unsigned n, struct totals *t)
{
	memset(t, 0, sizeof(*t));
	for (unsigned i = 0; i < n; i++) {
		t->calls += get(&ws[i].calls);
		t->ok += get(&ws[i].by[LG_OK]);
		t->failures += get(&ws[i].by[LG_FAILED]);
		t->timeouts += get(&ws[i].by[LG_TIMEOUT]);
		t->mismatches += get(&ws[i].by[LG_MISMATCH]);
		t->warm_calls += get(&ws[i].warm_calls);
		t->warm_errors += get(&ws[i].warm_errors);
	}
}

/* Kept connections go back to their keeper as they are now. */
static void free_workers(struct shared *sh, struct worker *ws, unsigned n)
{
	struct lg_keep *k = sh->p->keep;

	for (unsigned i = 0; i < n; i++) {
		if (k) {
			if (ws[i].conn) /* taken from the keeper */
				k->c[i].connected = ws[i].connected;
		} else {
			conn_free(sh->ops, sh->ctx, ws[i].conn, ws[i].inited,
				  ws[i].connected);
		}
		free(ws[i].service);
	}
	free(ws);
}

/* The progress line at t; prev: the counts at the last one, at *prev_t. */
static void progress_line(struct worker *ws, const struct shared *sh,
			  uint64_t t, uint64_t *prev_t, struct totals *prev)
{
	/* ops/s since the last line, or since the warm-up ended */
	uint64_t from = *prev_t > sh->measure ? *prev_t : sh->measure;
	struct totals cur;

	sum_counters(ws, sh->p->conns, &cur);
	if (t < sh->measure) {
		fprintf(stderr, "[%6.1fs] warm-up: calls %llu  errors %llu\n",
			(double)(t - sh->t0) / NS, (unsigned long long)cur.warm_calls,
			(unsigned long long)cur.warm_errors);
		return;
	}
	fprintf(stderr,
		"[%6.1fs] %10.0f ops/s  calls %llu  ok %llu  failures %llu  timeouts %llu  mismatches %llu\n",
		(double)(t - sh->measure) / NS,
		t > from ? (double)(cur.ok - prev->ok) / ((double)(t - from) / NS) : 0.0,
		(unsigned long long)cur.calls, (unsigned long long)cur.ok,
		(unsigned long long)cur.failures, (unsigned long long)cur.timeouts,
		(unsigned long long)cur.mismatches);
	*prev = cur;
	*prev_t = t;
}

/* Wait for the end of the run: duration, all workers done, or a signal. */
static void supervise(struct shared *sh, struct worker *ws, struct lg_result *res)
{
	const struct lg_params *p = sh->p;
	uint64_t deadline = p->duration_s > 0 ?
			    sh->measure + (uint64_t)(p->duration_s * NS) : 0;
	uint64_t next_progress = sh->t0 + (uint64_t)NS, prev_t = sh->t0;
	struct totals prev = { 0 };

	for (;;) {
		uint64_t t = now_ns(), wait = NAP_NS;

		if (interrupted) {
			res->interrupted = true;
			break;
		}
		if (atomic_load(&sh->active) == 0)
			break;
		if (deadline && t >= deadline)
			break;
		if (p->progress && t >= next_progress) {
			progress_line(ws, sh, t, &prev_t, &prev);
			next_progress += (uint64_t)NS;
		}
		if (deadline && deadline - t < wait)
			wait = deadline - t;
		if (p->progress && next_progress > t && next_progress - t < wait)
			wait = next_progress - t;
		sleep_ns(wait);
	}
	atomic_store(&sh->stop, true);
}

int lg_run(const struct lg_params *p, const struct lg_ops *ops, void *ctx,
	   struct lg_result *res, char *err, size_t n)
{
	struct shared sh;
	struct worker *ws;
	struct stopsig saved;
	pthread_attr_t attr;
	unsigned started = 0;

	memset(res, 0, sizeof(*res));
	hist_init(&res->hist);
	hist_init(&res->service_hist);
	if (p->conns == 0 || p->conns > LG_MAX_CONNS) {
		snprintf(err, n, "%u connections: 1..%u", p->conns, LG_MAX_CONNS);
		return -1;
	}
	if (p->depth > 1 && (!ops->send || !ops->reap)) {
		snprintf(err, n, "depth %u needs a pipelined transport", p->depth);
		return -1;
	}
	if (p->keep && (p->keep->n != p->conns || p->keep->ops != ops ||
			p->keep->ctx != ctx)) {
		snprintf(err, n, "the kept connections are not this run's");
		return -1;
	}
	memset(&sh, 0, sizeof(sh));
	sh.p = p;
	sh.ops = ops;
	sh.ctx = ctx;
	if (!p->keep)
		raise_nofile(p->conns);

	ws = calloc(p->conns, sizeof(*ws));
	if (!ws) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	/*
	 * Set every connection up before the clock starts (kept ones are
	 * taken as they are: one that broke before is made again for its
	 * first call).
	 */
	for (unsigned i = 0; i < p->conns; i++) {
		struct worker *w = &ws[i];

		w->idx = i;
		w->sh = &sh;
		hist_init(&w->hist);
		if (p->rate > 0 && (w->service = malloc(sizeof(*w->service))))
			hist_init(w->service);
		if (p->rate > 0 && !w->service) {
			snprintf(err, n, "out of memory");
			free_workers(&sh, ws, p->conns);
			return -1;
		}
		if (p->keep) {
			w->conn = p->keep->c[i].conn;
			w->inited = true;
			w->connected = p->keep->c[i].connected;
		} else if (conn_make(ops, ctx, &w->conn, &w->inited,
				     &w->connected, err, n) < 0) {
			free_workers(&sh, ws, p->conns);
			return -1;
		}
	}

	stopsig_catch(&saved, on_signal);
	interrupted = 0;

	pthread_barrier_init(&sh.ready, NULL, p->conns + 1);
	pthread_barrier_init(&sh.start, NULL, p->conns + 1);
	atomic_store(&sh.active, p->conns);
	/* Small stacks: thousands of threads must fit. */
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	for (unsigned i = 0; i < p->conns; i++) {
		int rc = pthread_create(&ws[i].th, &attr, worker_main, &ws[i]);

		if (rc != 0) {
			/* Cannot happen at sane --conns; stop cleanly anyway. */
			fprintf(stderr, "%s: pthread_create: %s\n", p->name,
				strerror(rc));
			exit(1);
		}
		started++;
	}
	pthread_attr_destroy(&attr);
	/*
	 * The clock starts once every thread has run: on a busy host a new
	 * thread may wait long to be scheduled the first time, and that wait
	 * is not the run's (rpcload slices starts threads every second).
	 */
	pthread_barrier_wait(&sh.ready);
	sh.t0 = now_ns();
	sh.measure = sh.t0 + (uint64_t)(p->warmup_s * NS);
	pthread_barrier_wait(&sh.start);

	supervise(&sh, ws, res);

	uint64_t t_end = sh.measure;

	for (unsigned i = 0; i < started; i++) {
		pthread_join(ws[i].th, NULL);
		if (ws[i].end_ns > t_end)
			t_end = ws[i].end_ns;
	}
	pthread_barrier_destroy(&sh.ready);
	pthread_barrier_destroy(&sh.start);
	stopsig_restore(&saved);

	struct totals tot;

	sum_counters(ws, p->conns, &tot);
	res->calls = tot.calls;
	res->ok = tot.ok;
	res->failures = tot.failures;
	res->timeouts = tot.timeouts;
	res->mismatches = tot.mismatches;
	res->warmup_calls = tot.warm_calls;
	res->warmup_errors = tot.warm_errors;
	res->payload_bytes = tot.ok * p->payload_per_call;
	for (unsigned i = 0; i < p->conns; i++) {
		hist_merge(&res->hist, &ws[i].hist);
		if (ws[i].service)
			hist_merge(&res->service_hist, ws[i].service);
		res->reconnects += ws[i].reconnects;
		if (ws[i].gave_up)
			res->conns_gave_up++;
		if (!res->first_error[0] && ws[i].first_err[0])
			snprintf(res->first_error, sizeof(res->first_error), "%s",
				 ws[i].first_err);
	}
	res->start_ns = sh.t0;
	res->measure_ns = sh.measure;
	res->end_ns = t_end;
	res->elapsed_s = (double)(t_end - sh.measure) / NS;
	if (res->elapsed_s > 0) {
		res->ops_per_s = (double)res->ok / res->elapsed_s;
		res->mb_per_s = (double)res->payload_bytes / res->elapsed_s / 1e6;
	}
	free_workers(&sh, ws, p->conns);
	return 0;
}

struct lg_keep *lg_keep_open(unsigned conns, const struct lg_ops *ops,
			     void *ctx, char *err, size_t n)
{
	struct lg_keep *k;

	if (conns == 0 || conns > LG_MAX_CONNS) {
		snprintf(err, n, "%u connections: 1..%u", conns, LG_MAX_CONNS);
		return NULL;
	}
	k = calloc(1, sizeof(*k));
	if (!k || !(k->c = calloc(conns, sizeof(*k->c)))) {
		free(k);
		snprintf(err, n, "out of memory");
		return NULL;
	}
	k->ops = ops;
	k->ctx = ctx;
	raise_nofile(conns);
	for (unsigned i = 0; i < conns; i++) {
		k->n++;
		kept_total++;
		if (conn_make(ops, ctx, &k->c[i].conn, &k->c[i].inited,
			      &k->c[i].connected, err, n) < 0) {
			lg_keep_close(k);
			return NULL;
		}
	}
	return k;
}

unsigned lg_keep_connected(const struct lg_keep *k)
{
	unsigned up = 0;

	for (unsigned i = 0; i < k->n; i++)
		up += k->c[i].connected;
	return up;
}

void lg_keep_close(struct lg_keep *k)
{
	if (!k)
		return;
	for (unsigned i = 0; i < k->n; i++)
		conn_free(k->ops, k->ctx, k->c[i].conn, k->c[i].inited,
			  k->c[i].connected);
	kept_total -= k->n;
	free(k->c);
	free(k);
}

bool lg_all_ok(const struct lg_result *r)
{
	return !r->failures && !r->timeouts && !r->mismatches && r->ok > 0;
}

void lg_close_fd(void *ctx, void *conn)
{
	int *fd = conn;

	(void)ctx;
	close(*fd);
	*fd = -1;
}
