// SPDX-License-Identifier: GPL-2.0
/*
 * bad.c - the conformance suite's runner (rpcload bad): malformed input
 * over raw sockets, TAP output.
 *
 * Each case opens its own sockets, sends something (mostly) wrong, and
 * checks what RFC 5531 and the svcsock module's documented behaviour
 * prescribe: a specific reply, a silent drop (the connection stays
 * usable), or a close.  The cases are a table split by area (bad_header.c,
 * bad_auth.c, bad_args.c, bad_records.c, bad_conns.c, bad_udp.c; see
 * bad_int.h); this file runs them.  All along, a side thread makes NULL
 * calls on its own TCP connection; a case also fails when the side
 * connection made no progress during it (or failed), i.e. the server
 * stalled or died.
 *
 * Everything is bounded: socket operations have deadlines, and a case
 * that runs longer than CASE_ALARM_S aborts the run ("Bail out!").
 */
#include "bad_int.h"
#include "svcsock_prot.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define SIDE_PAUSE_MS 2u     /* between two side NULL calls */
#define CASE_ALARM_S 60u     /* hard bound of one case */

/* ---- side connection ------------------------------------------------------ */

static void side_error(struct bad_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void side_error(struct bad_ctx *c, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&c->side_mu);
	va_start(ap, fmt);
	vsnprintf(c->side_err, sizeof(c->side_err), fmt, ap);
	va_end(ap);
	pthread_mutex_unlock(&c->side_mu);
}

static void *side_main(void *arg)
{
	struct bad_ctx *c = arg;
	struct rng r;
	struct xbuf b, rec;
	int fd = -1;

	rng_seed(&r, c->o->seed ^ 0x51de51de51de51deULL);
	xb_init(&b);
	xb_init(&rec);
	while (!atomic_load(&c->side_stop)) {
		if (fd < 0) {
			fd = net_dial(&c->tcp, SOCK_STREAM, c->o->timeout_ms,
				      NET_NONBLOCK | NET_NODELAY, 0, 0);
			if (fd < 0) {
				atomic_fetch_add(&c->side_fail, 1);
				side_error(c, "connect: %s", strerror(errno));
				sleep_ms(50);
				continue;
			}
			atomic_fetch_add(&c->side_connects, 1);
		}
		uint32_t xid = (uint32_t)rng_next(&r);
		uint64_t dl = mono_ms() + c->o->timeout_ms;
		enum net_status st;
		struct rpc_reply rep;
		char err[200];

		xb_reset(&b);
		xb_reset(&rec);
		svc_call(&rec, xid, SVCSOCK_NULL);
		rm_record(&b, rec.p, rec.len);
		st = net_send_all(fd, b.p, b.len, dl);
		if (st == NET_OK)
			st = net_recv_record(fd, &rec, MAX_REPLY, dl);
		if (st != NET_OK) {
			side_error(c, "NULL: %s",
				   st == NET_TIMEOUT ? "no reply within the timeout"
						     : net_status_text(st, errno));
		} else if (rpc_dec_reply(rec.p, rec.len, &rep, err, sizeof(err)) < 0) {
			side_error(c, "NULL reply: %s", err);
			st = NET_ERROR;
		} else if (rep.xid != xid || !reply_matches(&rep, &x_success)) {
			side_error(c, "NULL reply: wrong xid or status");
			st = NET_ERROR;
		}
		if (st == NET_OK) {
			atomic_fetch_add(&c->side_ok, 1);
			sleep_ms(SIDE_PAUSE_MS);
		} else {
			atomic_fetch_add(&c->side_fail, 1);
			close(fd);
			fd = -1;
			sleep_ms(20);
		}
	}
	if (fd >= 0)
		close(fd);
	xb_free(&b);
	xb_free(&rec);
	return NULL;
}

/* ---- runner --------------------------------------------------------------- */

static const char *volatile current_case = "";

static void on_alarm(int sig)
{
	static const char a[] = "Bail out! case ";
	static const char b[] = " ran longer than the hard limit\n";
	const char *name = current_case;

	(void)sig;
	(void)!write(STDOUT_FILENO, a, sizeof(a) - 1);
	(void)!write(STDOUT_FILENO, name, strlen(name));
	(void)!write(STDOUT_FILENO, b, sizeof(b) - 1);
	_exit(1);
}

/* The cases of every area, in order. */
static const struct bad_case *cases[BAD_MAX_CASES];
static size_t ncases;

static void gather_cases(void)
{
	const struct bad_area *areas[] = {
		&bad_area_header,  &bad_area_auth,  &bad_area_args,
		&bad_area_records, &bad_area_conns, &bad_area_udp,
	};

	ncases = 0;
	for (size_t a = 0; a < sizeof(areas) / sizeof(areas[0]); a++)
		for (size_t i = 0; i < areas[a]->n && ncases < BAD_MAX_CASES; i++)
			cases[ncases++] = &areas[a]->cases[i];
}

static int find_case(const char *name)
{
	for (size_t i = 0; i < ncases; i++)
		if (strcmp(cases[i]->name, name) == 0)
			return (int)i;
	return -1;
}

/* One case: build what its shape sends, then open, send, check, close. */
static bool run_case(struct bad_ctx *c, const struct bad_case *k)
{
	struct bad_msg m = { .xid = 0 };
	bool ok;

	if (k->shape == SH_CUSTOM)
		return k->run(c);
	if (k->shape == SH_TCP_NULL || k->shape == SH_UDP_NULL) {
		int fd = k->shape == SH_TCP_NULL ? open_tcp(c) : open_udp(c);

		if (fd < 0)
			return false;
		ok = k->shape == SH_TCP_NULL ? null_ok(c, fd, NULL)
					     : udp_null_ok(c, fd, NULL);
		close(fd);
		return ok;
	}
	xb_init(&m.b);
	ok = k->build(c, k, &m);
	if (ok) {
		switch (k->shape) {
		case SH_TCP_CALL:
			ok = tcp_call_expect(c, &m.b, m.xid, &k->expect);
			break;
		case SH_TCP_SUCCESS:
			ok = tcp_framed_success(c, &m);
			break;
		case SH_TCP_DROPPED:
			ok = tcp_framed_dropped(c, &m.b);
			break;
		case SH_TCP_CLOSED:
			ok = tcp_bytes_closed(c, &m.b);
			break;
		case SH_TCP_ECHO:
			ok = tcp_echo(c, &m);
			break;
		case SH_UDP_CALL:
			ok = udp_call_expect(c, &m.b, m.xid, &k->expect);
			break;
		case SH_UDP_DROPPED:
			ok = udp_dropped(c, m.b.p, m.b.len);
			break;
		case SH_UDP_ECHO:
			ok = udp_echo(c, &m);
			break;
		case SH_CUSTOM:
		case SH_TCP_NULL:
		case SH_UDP_NULL:
			break;
		}
	}
	xb_free(&m.b);
	free(m.payload);
	return ok;
}

int bad_run(const struct bad_opts *o)
{
	bool selected[BAD_MAX_CASES];
	unsigned nsel = 0, passed = 0, failed = 0, num = 0;
	struct bad_ctx c;
	char err[300];

	gather_cases();
	if (o->list) {
		for (size_t i = 0; i < ncases; i++)
			printf("%-28s %s\n", cases[i]->name, cases[i]->desc);
		return 0;
	}
	memset(selected, 0, sizeof(selected));
	for (unsigned i = 0; i < o->ncases; i++) {
		/* Each --case value may hold several names, comma-separated. */
		char buf[512];
		char *save = NULL;

		snprintf(buf, sizeof(buf), "%s", o->cases[i]);
		for (char *t = strtok_r(buf, ",", &save); t;
		     t = strtok_r(NULL, ",", &save)) {
			int k = find_case(t);

			if (k < 0) {
				fprintf(stderr,
					"rpcload: bad: unknown case '%s' (see 'rpcload bad --list')\n",
					t);
				return 2;
			}
			selected[k] = true;
		}
	}
	for (size_t i = 0; i < ncases; i++) {
		if (!o->ncases)
			selected[i] = true;
		nsel += selected[i];
	}

	memset(&c, 0, sizeof(c));
	c.o = o;
	rng_seed(&c.rng, o->seed);
	pthread_mutex_init(&c.side_mu, NULL);
	if (net_resolve(o->host, o->port, SOCK_STREAM, &c.tcp, err, sizeof(err)) < 0 ||
	    net_resolve(o->host, o->port, SOCK_DGRAM, &c.udp, err, sizeof(err)) < 0) {
		fprintf(stderr, "rpcload: bad: %s\n", err);
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);
	signal(SIGALRM, on_alarm);

	printf("1..%u\n", nsel);
	printf("# rpcload bad against %s (and udp), max_conns %u, max_record %u, seed %llu\n",
	       c.tcp.text, o->max_conns, o->max_record, (unsigned long long)o->seed);
	fflush(stdout);

	if (pthread_create(&c.side_th, NULL, side_main, &c) != 0) {
		printf("Bail out! cannot start the side thread\n");
		return 1;
	}
	/* The side connection must work before anything else is tried. */
	uint64_t end = mono_ms() + o->timeout_ms;

	while (atomic_load(&c.side_ok) == 0 && mono_ms() < end)
		sleep_ms(5);
	if (atomic_load(&c.side_ok) == 0) {
		pthread_mutex_lock(&c.side_mu);
		printf("Bail out! the side connection to %s is not served: %s\n",
		       c.tcp.text, c.side_err[0] ? c.side_err : "no reply");
		pthread_mutex_unlock(&c.side_mu);
		fflush(stdout);
		atomic_store(&c.side_stop, true);
		pthread_join(c.side_th, NULL);
		return 1;
	}

	for (size_t i = 0; i < ncases; i++) {
		if (!selected[i])
			continue;
		num++;
		c.reason[0] = 0;
		c.note[0] = 0;
		current_case = cases[i]->name;

		uint64_t s0 = atomic_load(&c.side_ok);
		uint64_t f0 = atomic_load(&c.side_fail);
		uint64_t t0 = mono_ms();

		alarm(CASE_ALARM_S);
		bool ok = run_case(&c, cases[i]);
		uint64_t t1 = mono_ms();

		/* The side connection must have been served during the case. */
		uint64_t wait_end = mono_ms() + o->timeout_ms;

		while (atomic_load(&c.side_ok) == s0 && mono_ms() < wait_end)
			sleep_ms(1);
		alarm(0);

		uint64_t ds = atomic_load(&c.side_ok) - s0;
		uint64_t df = atomic_load(&c.side_fail) - f0;

		if (ok && ds == 0)
			ok = fail(&c, "the side connection made no progress during the case");
		if (ok && df) {
			pthread_mutex_lock(&c.side_mu);
			ok = fail(&c, "the side connection failed %llu time(s): %s",
				  (unsigned long long)df, c.side_err);
			pthread_mutex_unlock(&c.side_mu);
		}
		if (ok) {
			passed++;
			printf("ok %u - %s\n", num, cases[i]->name);
		} else {
			failed++;
			printf("not ok %u - %s # %s\n", num, cases[i]->name, c.reason);
		}
		if (o->verbose || (!ok && c.note[0])) {
			printf("#   %s\n", cases[i]->desc);
			if (c.note[0])
				printf("#   %s\n", c.note);
			printf("#   %llu ms, side connection: %llu calls served\n",
			       (unsigned long long)(t1 - t0), (unsigned long long)ds);
		}
		fflush(stdout);
	}
	atomic_store(&c.side_stop, true);
	pthread_join(c.side_th, NULL);
	printf("# %u passed, %u failed; side connection: %llu calls, %llu failures, %llu connects%s%s\n",
	       passed, failed, (unsigned long long)atomic_load(&c.side_ok),
	       (unsigned long long)atomic_load(&c.side_fail),
	       (unsigned long long)atomic_load(&c.side_connects),
	       c.side_err[0] ? "; last side error: " : "", c.side_err);
	fflush(stdout);
	pthread_mutex_destroy(&c.side_mu);
	return failed ? 1 : 0;
}
