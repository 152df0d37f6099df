/*
 * load.c - the load generator.
 *
 * Each connection has its own thread and its own libtirpc CLIENT; the
 * threads share only a call counter (the call number, from which the ECHO
 * payload is derived) and a stop flag.  Counters are per thread (read by
 * the progress line with relaxed atomics); latencies go to a per-thread
 * fixed-size histogram merged at the end.
 */
#include "load.h"
#include "call.h"
#include "clock.h"
#include "pattern.h"
#include "svcsock.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define MAX_RECONNECT_FAILURES 3

struct shared {
	const struct load_opts *o;
	struct rpc_addr addr;
	atomic_uint_fast64_t next_call;
	atomic_bool stop;
	atomic_uint active;
	pthread_barrier_t start;
};

struct worker {
	pthread_t th;
	unsigned idx;
	struct shared *sh;
	struct rpc_client cl;
	bool connected;
	atomic_uint_fast64_t calls, ok, failures, timeouts, mismatches;
	uint64_t reconnects;
	uint64_t payload_bytes;
	bool gave_up;
	double end_time;
	uint8_t *sendbuf;
	uint8_t *recvbuf;
	char first_err[240];
	struct hist hist;
};

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { .tv_sec = ms / 1000,
			       .tv_nsec = (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR && !interrupted)
		;
}

static void note_error(struct worker *w, const char *msg)
{
	if (!w->first_err[0])
		snprintf(w->first_err, sizeof(w->first_err), "conn %u: %.200s", w->idx,
			 msg);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct shared *sh = w->sh;
	const struct load_opts *o = sh->o;
	unsigned reconnect_failures = 0;
	struct call_result r;
	char err[240];

	pthread_barrier_wait(&sh->start);
	while (!atomic_load_explicit(&sh->stop, memory_order_relaxed)) {
		uint64_t callno = atomic_fetch_add_explicit(&sh->next_call, 1,
							   memory_order_relaxed);

		if (o->calls_limit && callno >= o->calls_limit)
			break;
		if (!w->connected) {
			if (rpc_client_open(&w->cl, &o->t, &sh->addr, o->size, err,
					    sizeof(err)) < 0) {
				/* The call could not be made: it counts as failed. */
				atomic_fetch_add_explicit(&w->calls, 1, memory_order_relaxed);
				atomic_fetch_add_explicit(&w->failures, 1,
							  memory_order_relaxed);
				note_error(w, err);
				if (++reconnect_failures >= MAX_RECONNECT_FAILURES) {
					w->gave_up = true;
					break;
				}
				sleep_ms(100);
				continue;
			}
			w->connected = true;
			w->reconnects++;
			reconnect_failures = 0;
		}
		if (o->proc == PROCK_ECHO)
			pattern_fill(w->sendbuf, o->size, o->seed, callno);

		uint64_t t0 = now_ns();

		rpc_do_call(&w->cl, o->proc, w->sendbuf, o->size, w->recvbuf,
			    o->sleep_us, &r);

		uint64_t t1 = now_ns();

		atomic_fetch_add_explicit(&w->calls, 1, memory_order_relaxed);
		switch (r.outcome) {
		case CALL_OK:
			hist_record(&w->hist, t1 - t0);
			atomic_fetch_add_explicit(&w->ok, 1, memory_order_relaxed);
			if (o->proc == PROCK_ECHO)
				w->payload_bytes += 2 * (uint64_t)o->size;
			break;
		case CALL_TIMEOUT:
			atomic_fetch_add_explicit(&w->timeouts, 1, memory_order_relaxed);
			note_error(w, r.msg);
			break;
		case CALL_MISMATCH:
			atomic_fetch_add_explicit(&w->mismatches, 1,
						  memory_order_relaxed);
			note_error(w, r.msg);
			break;
		case CALL_FAILED:
			atomic_fetch_add_explicit(&w->failures, 1, memory_order_relaxed);
			note_error(w, r.msg);
			break;
		}
		if (r.broken) {
			rpc_client_close(&w->cl);
			w->connected = false;
		}
	}
	w->end_time = now_s();
	atomic_fetch_sub(&sh->active, 1);
	return NULL;
}

static void raise_nofile(unsigned need)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < need + 64) {
		rl.rlim_cur = rl.rlim_max < need + 64 ? rl.rlim_max : need + 64;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

struct totals {
	uint64_t calls, ok, failures, timeouts, mismatches;
};

static void sum_counters(struct worker *ws, unsigned n, struct totals *t)
{
	memset(t, 0, sizeof(*t));
	for (unsigned i = 0; i < n; i++) {
		t->calls += atomic_load_explicit(&ws[i].calls, memory_order_relaxed);
		t->ok += atomic_load_explicit(&ws[i].ok, memory_order_relaxed);
		t->failures +=
			atomic_load_explicit(&ws[i].failures, memory_order_relaxed);
		t->timeouts +=
			atomic_load_explicit(&ws[i].timeouts, memory_order_relaxed);
		t->mismatches +=
			atomic_load_explicit(&ws[i].mismatches, memory_order_relaxed);
	}
}

static void free_workers(struct worker *ws, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		if (ws[i].connected)
			rpc_client_close(&ws[i].cl);
		free(ws[i].sendbuf);
		free(ws[i].recvbuf);
	}
	free(ws);
}

int load_run(const struct load_opts *o, struct load_result *res, char *err,
	     size_t n)
{
	struct shared sh;
	struct worker *ws;
	struct sigaction sa, old_int, old_term;
	unsigned started = 0;
	int show_progress = o->progress < 0 ? isatty(STDERR_FILENO) : o->progress;

	memset(res, 0, sizeof(*res));
	hist_init(&res->hist);
	memset(&sh, 0, sizeof(sh));
	sh.o = o;
	if (rpc_resolve(&o->t, &sh.addr, err, n) < 0)
		return -1;
	raise_nofile(o->conns);

	ws = calloc(o->conns, sizeof(*ws));
	if (!ws) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	/* Set every connection up before the clock starts. */
	for (unsigned i = 0; i < o->conns; i++) {
		struct worker *w = &ws[i];

		w->idx = i;
		w->sh = &sh;
		hist_init(&w->hist);
		if (o->proc == PROCK_ECHO) {
			w->sendbuf = malloc(o->size ? o->size : 1);
			/* The reply is decoded in place; it may be as large as allowed. */
			w->recvbuf = malloc(SVCSOCK_ECHO_MAX);
			if (!w->sendbuf || !w->recvbuf) {
				snprintf(err, n, "out of memory");
				free_workers(ws, o->conns);
				return -1;
			}
		}
		if (rpc_client_open(&w->cl, &o->t, &sh.addr, o->size, err, n) < 0) {
			free_workers(ws, o->conns);
			return -1;
		}
		w->connected = true;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	interrupted = 0;

	pthread_barrier_init(&sh.start, NULL, o->conns + 1);
	atomic_store(&sh.active, o->conns);
	pthread_attr_t attr;

	/* Small stacks: thousands of threads must fit. */
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	for (unsigned i = 0; i < o->conns; i++) {
		int rc = pthread_create(&ws[i].th, &attr, worker_main, &ws[i]);

		if (rc != 0) {
			/* Cannot happen at sane --conns; stop cleanly anyway. */
			fprintf(stderr, "rpcload: load: pthread_create: %s\n",
				strerror(rc));
			exit(1);
		}
		started++;
	}
	pthread_attr_destroy(&attr);
	pthread_barrier_wait(&sh.start);

	double t_start = now_s();
	double deadline = o->duration_s > 0 ? t_start + o->duration_s : 0;
	double next_progress = t_start + 1.0;
	struct totals prev = { 0 };

	for (;;) {
		double t = now_s();

		if (interrupted) {
			res->interrupted = true;
			break;
		}
		if (atomic_load(&sh.active) == 0)
			break;
		if (deadline && t >= deadline)
			break;
		if (show_progress && t >= next_progress) {
			struct totals cur;

			sum_counters(ws, o->conns, &cur);
			fprintf(stderr,
				"[%6.1fs] %10.0f ops/s  calls %llu  ok %llu  failures %llu  timeouts %llu  mismatches %llu\n",
				t - t_start,
				(double)(cur.ok - prev.ok) / (t - next_progress + 1.0),
				(unsigned long long)cur.calls,
				(unsigned long long)cur.ok,
				(unsigned long long)cur.failures,
				(unsigned long long)cur.timeouts,
				(unsigned long long)cur.mismatches);
			prev = cur;
			next_progress += 1.0;
		}
		double wait = 0.05;

		if (deadline && deadline - t < wait)
			wait = deadline - t;
		if (show_progress && next_progress - t < wait)
			wait = next_progress - t;
		if (wait > 0) {
			struct timespec ts = { .tv_sec = 0,
					       .tv_nsec = (long)(wait * 1e9) };

			nanosleep(&ts, NULL);
		}
	}
	atomic_store(&sh.stop, true);

	double t_end = t_start;

	for (unsigned i = 0; i < started; i++) {
		pthread_join(ws[i].th, NULL);
		if (ws[i].end_time > t_end)
			t_end = ws[i].end_time;
	}
	pthread_barrier_destroy(&sh.start);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);

	struct totals tot;

	sum_counters(ws, o->conns, &tot);
	res->calls = tot.calls;
	res->ok = tot.ok;
	res->failures = tot.failures;
	res->timeouts = tot.timeouts;
	res->mismatches = tot.mismatches;
	for (unsigned i = 0; i < o->conns; i++) {
		hist_merge(&res->hist, &ws[i].hist);
		res->payload_bytes += ws[i].payload_bytes;
		res->reconnects += ws[i].reconnects;
		if (ws[i].gave_up)
			res->conns_gave_up++;
		if (!res->first_error[0] && ws[i].first_err[0])
			snprintf(res->first_error, sizeof(res->first_error), "%s",
				 ws[i].first_err);
	}
	res->elapsed_s = t_end - t_start;
	if (res->elapsed_s > 0) {
		res->ops_per_s = (double)res->ok / res->elapsed_s;
		res->mb_per_s = (double)res->payload_bytes / res->elapsed_s / 1e6;
	}
	free_workers(ws, o->conns);
	return 0;
}
