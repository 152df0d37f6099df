// SPDX-License-Identifier: GPL-2.0
/*
 * rpcsvc_ref.c - rpcsvc-ref: the svcsock program served by libtirpc in user
 * space, over TCP and UDP on one chosen port.  The user-space peer of the
 * kernel module for benchmarks and for testing rpcload.
 *
 * libtirpc's service loop is single-threaded: this is the svc_run loop
 * (poll on svc_pollfd, then svc_getreq_poll) with a stop flag, so SIGINT
 * and SIGTERM end it cleanly (and unregister from rpcbind with --register).
 */
#include "netio.h"
#include "opts.h"
#include "rpcsvc_ref.h"
#include "stopsig.h"
#include "svcsock_prot.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <rpc/pmap_clnt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

/* Connection buffers: the largest record fits, a reply is one write. */
#define VC_BUFSZ 0 /* libtirpc default */
/* Only this machine, unless --bind says otherwise. */
#define DEFAULT_BIND "127.0.0.1"

/* The generated dispatcher (rpcgen -m). */
void svcsock_prog_1(struct svc_req *rqstp, SVCXPRT *transp);

static const char help[] =
"Usage: rpcsvc-ref [OPTIONS]\n"
"\n"
"Serves the svcsock program (0x20049001 = 537169921, version 1: NULL, ECHO,\n"
"SLEEP; see svcsock.x) with libtirpc in user space, over TCP and UDP on the\n"
"same port.  It does not register with rpcbind unless --register is given.\n"
"\n"
"libtirpc's service loop (svc_run) is single-threaded: one process serves\n"
"all connections, one request at a time.  Many concurrent TCP connections\n"
"are fine (the open-file limit is raised to its maximum), but a SLEEP\n"
"holds every client, and the throughput is that of one core.  TCP uses\n"
"libtirpc's default blocking mode: once a record has started to arrive,\n"
"the server reads until it is complete, so a client that stops in the\n"
"middle of a record stalls all the others until it sends the rest, closes,\n"
"or libtirpc's 35 s read timeout passes.  (libtirpc 1.3.3's non-blocking\n"
"mode, RPC_SVC_CONNMAXREC_SET, is not used: it drops a connection whose\n"
"record does not arrive in one read, and so any large ECHO.)\n"
"\n"
"Options:\n"
"  -p, --port PORT       port for TCP and UDP, 0..65535 (default 20049);\n"
"                        0 picks a free port, printed at start\n"
"      --proto P         tcp, udp or both (default both)\n"
"  -b, --bind ADDR       local address, numeric (default 127.0.0.1: this\n"
"                        machine only; 0.0.0.0 for every IPv4 address, ::\n"
"                        for IPv6)\n"
"      --register        register with rpcbind (portmapper v2 pmap_set)\n"
"                        and unregister at exit; needs rpcbind running\n"
"  -v, --verbose         per-procedure counts on stderr at exit\n"
"  -h, --help            this text\n"
"\n"
"Testing options:\n"
"      --corrupt-echo N  flip one byte (the middle one) of every Nth ECHO\n"
"                        reply, N >= 1, so that a test can check that\n"
"                        rpcload reports mismatches (empty payloads are\n"
"                        never corrupted)\n"
"\n"
"At start it prints 'rpcsvc-ref: serving program 537169921 version 1 on\n"
"tcp port P, udp port P' on stderr.  SIGINT or SIGTERM stops it (exit 0).\n"
"Exit status: 1 when it cannot serve (port in use, rpcbind missing with\n"
"--register), 2 bad usage.\n";

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* Register the program on a transport libtirpc made (NULL: it could not). */
static bool serve(SVCXPRT *x, const char *proto)
{
	if (!x) {
		fprintf(stderr, "rpcsvc-ref: cannot create the %s service\n", proto);
		return false;
	}
	if (!svc_register(x, SVCSOCK_PROG, SVCSOCK_V1, svcsock_prog_1, 0)) {
		fprintf(stderr, "rpcsvc-ref: cannot register the %s service\n", proto);
		return false;
	}
	return true;
}

/* Accept every pending connection and hand each to libtirpc. */
static void accept_all(int lfd)
{
	for (;;) {
		int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);

		if (fd < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK && errno != ECONNABORTED)
				fprintf(stderr, "rpcsvc-ref: accept: %s\n", strerror(errno));
			if (errno == ECONNABORTED)
				continue;
			return;
		}
		/*
		 * A connection reset before it was accepted has no peer any
		 * more: libtirpc's svc_fd_create then fails after registering
		 * a half-made transport for the fd, which it never removes
		 * (libtirpc 1.3.3 aborts later, in __xprt_do_unregister).
		 * Such a connection is closed here instead.
		 */
		struct sockaddr_storage peer;
		socklen_t plen = sizeof(peer);

		if (getpeername(fd, (struct sockaddr *)&peer, &plen) < 0) {
			close(fd);
			continue;
		}
		if (!svc_fd_create(fd, VC_BUFSZ, VC_BUFSZ)) {
			fprintf(stderr, "rpcsvc-ref: cannot serve a new connection\n");
			close(fd);
		}
	}
}

enum { R_HELP = 1, R_PORT, R_PROTO, R_BIND, R_REGISTER, R_VERBOSE, R_CORRUPT };

static const struct optdef ref_opts[] = {
	{ "help", 'h', false, R_HELP },
	{ "port", 'p', true, R_PORT },
	{ "proto", 0, true, R_PROTO },
	{ "bind", 'b', true, R_BIND },
	{ "register", 0, false, R_REGISTER },
	{ "verbose", 'v', false, R_VERBOSE },
	{ "corrupt-echo", 0, true, R_CORRUPT },
	{ NULL, 0, false, 0 },
};
static const char *const protos[] = { "tcp", "udp", "both", NULL };

int main(int argc, char **argv)
{
	uint64_t port = SVCSOCK_PORT, v;
	const char *bind_addr = DEFAULT_BIND;
	bool tcp = true, udp = true, reg = false, verbose = false;
	const struct optdef *d;
	const char *val;
	struct opts o;
	int tfd = -1, ufd = -1, id, which;
	char err[300];

	opts_start(&o, argc, argv, ref_opts, NULL, "rpcsvc-ref --help");
	while ((id = opts_next(&o, &d, &val, err, sizeof(err))) > 0) {
		switch (id) {
		case R_HELP:
			fputs(help, stdout);
			return 0;
		case R_PORT:
			if (opt_u64(err, sizeof(err), NULL, d, val, 0, 65535, 0, &port))
				return opts_usage_error("rpcsvc-ref", err);
			break;
		case R_PROTO:
			if (opt_word(err, sizeof(err), NULL, d, val, protos, &which))
				return opts_usage_error("rpcsvc-ref", err);
			tcp = which != 1; /* tcp or both */
			udp = which != 0; /* udp or both */
			break;
		case R_BIND:
			bind_addr = val;
			break;
		case R_REGISTER:
			reg = true;
			break;
		case R_CORRUPT:
			if (opt_u64(err, sizeof(err), NULL, d, val, 1, 0xffffffff, 0, &v))
				return opts_usage_error("rpcsvc-ref", err);
			ref_corrupt_echo = (unsigned long)v;
			break;
		case R_VERBOSE:
			verbose = true;
			break;
		}
	}
	if (id < 0 || opts_no_args(&o, err, sizeof(err)) < 0)
		return opts_usage_error("rpcsvc-ref", err);
	if (reg && port == 0)
		return opts_usage_error("rpcsvc-ref",
					 "--register needs a fixed --port");

	/* Many connections: libtirpc sizes its tables from this limit. */
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max > 65536 ? 65536 : rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	signal(SIGPIPE, SIG_IGN);
	/* Port 0: take TCP's free port for UDP too (a few tries). */
	for (int attempt = 0; attempt < 20; attempt++) {
		unsigned p = (unsigned)port;

		if (tcp) {
			tfd = net_listen(bind_addr, p, SOCK_STREAM, 4096, NET_NODELAY,
					 err, sizeof(err));
			if (tfd < 0)
				break;
			p = net_bound_port(tfd);
		}
		if (udp) {
			ufd = net_listen(bind_addr, p, SOCK_DGRAM, 0, 0, err,
					 sizeof(err));
			if (ufd == -1 && port == 0 && tcp && errno == EADDRINUSE) {
				close(tfd);
				tfd = -1;
				continue;
			}
		}
		break;
	}
	if ((tcp && tfd < 0) || (udp && ufd < 0)) {
		fprintf(stderr, "rpcsvc-ref: %s\n", err);
		return tfd == -2 || ufd == -2 ? 2 : 1;
	}
	if (udp) {
		int sz = 4 * 1024 * 1024; /* room for a few of the largest datagrams */

		setsockopt(ufd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
		setsockopt(ufd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	}

	/* Non-blocking listener: accept_all() stops at EAGAIN. */
	if (tcp)
		fcntl(tfd, F_SETFL, fcntl(tfd, F_GETFL) | O_NONBLOCK);
	/* Buffers for the largest record (a reply goes out in one write) and
	 * for the largest datagram. */
	if ((tcp && !serve(svc_vc_create(tfd, VC_BUFSZ, VC_BUFSZ), "tcp")) ||
	    (udp && !serve(svc_dg_create(ufd, 65536, 65536), "udp")))
		return 1;
	/*
	 * With --register, tell rpcbind (portmapper v2) the ports ourselves:
	 * svc_register(..., IPPROTO_TCP) would use xp_port, which libtirpc
	 * does not set for transports made by svc_vc_create/svc_dg_create.
	 */
	if (reg) {
		pmap_unset(SVCSOCK_PROG, SVCSOCK_V1);
		if ((tcp && !pmap_set(SVCSOCK_PROG, SVCSOCK_V1, IPPROTO_TCP,
				      (unsigned short)net_bound_port(tfd))) ||
		    (udp && !pmap_set(SVCSOCK_PROG, SVCSOCK_V1, IPPROTO_UDP,
				      (unsigned short)net_bound_port(ufd)))) {
			fprintf(stderr, "rpcsvc-ref: cannot register with rpcbind: is rpcbind running?\n");
			pmap_unset(SVCSOCK_PROG, SVCSOCK_V1);
			return 1;
		}
	}

	struct stopsig saved; /* never put back: they end the process */

	stopsig_catch(&saved, on_signal); /* no SA_RESTART: poll returns EINTR */

	fprintf(stderr, "rpcsvc-ref: serving program %u version %u on", SVCSOCK_PROG,
		SVCSOCK_V1);
	if (tcp)
		fprintf(stderr, " tcp port %u%s", net_bound_port(tfd), udp ? "," : "");
	if (udp)
		fprintf(stderr, " udp port %u", net_bound_port(ufd));
	fprintf(stderr, "%s\n",
		ref_corrupt_echo ? " (corrupting ECHO replies)" : "");
	fflush(stderr);

	/* svc_run, with a stop flag. */
	struct pollfd *fds = NULL;
	int cap = 0;

	while (!stop) {
		int n = svc_max_pollfd;

		if (n == 0 && svc_pollfd == NULL)
			break;
		if (n > cap) {
			struct pollfd *nf = realloc(fds, sizeof(*fds) * (size_t)n);

			if (!nf) {
				fprintf(stderr, "rpcsvc-ref: out of memory\n");
				break;
			}
			fds = nf;
			cap = n;
		}
		for (int i = 0; i < n; i++) {
			fds[i].fd = svc_pollfd[i].fd;
			fds[i].events = svc_pollfd[i].events;
			fds[i].revents = 0;
		}
		int rc = poll(fds, (nfds_t)n, -1);

		if (rc < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "rpcsvc-ref: poll: %s\n", strerror(errno));
			break;
		}
		if (rc > 0) {
			/*
			 * libtirpc accepts one connection per pass; take every
			 * pending one here, so that a burst of thousands of
			 * connects does not wait thousands of passes.
			 */
			for (int i = 0; tfd >= 0 && i < n; i++) {
				if (fds[i].fd != tfd || !fds[i].revents)
					continue;
				accept_all(tfd);
				fds[i].revents = 0;
				rc--;
			}
			if (rc > 0)
				svc_getreq_poll(fds, rc);
		}
	}
	free(fds);
	if (reg)
		pmap_unset(SVCSOCK_PROG, SVCSOCK_V1);
	if (verbose)
		fprintf(stderr,
			"rpcsvc-ref: calls: null %lu, echo %lu (%lu corrupted), sleep %lu; garbage args %lu\n",
			ref_stats.null_calls, ref_stats.echo_calls,
			ref_stats.echo_corrupted, ref_stats.sleep_calls,
			ref_stats.garbage);
	return 0;
}
