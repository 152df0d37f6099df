/*
 * rpcsvc_ref.c - rpcsvc-ref: the svcsock program served by libtirpc in user
 * space, over TCP and UDP on one chosen port.  The user-space peer of the
 * kernel module for benchmarks and for testing rpcload.
 *
 * libtirpc's service loop is single-threaded: this is the svc_run loop
 * (poll on svc_pollfd, then svc_getreq_poll) with a stop flag, so SIGINT
 * and SIGTERM end it cleanly (and unregister from rpcbind with --register).
 */
#include "rpcsvc_ref.h"
#include "svcsock.h"

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
"      --bind ADDR       local address (default 0.0.0.0; an IPv6 address\n"
"                        such as :: serves IPv6)\n"
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

static int usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "rpcsvc-ref: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return 2;
}

static int parse_ulong(const char *s, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	if (!s || !*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

static int make_socket(const char *bind_addr, int type, unsigned port,
		       char *err, size_t n)
{
	struct addrinfo hints, *res = NULL;
	char ps[16];
	int fd, one = 1, rc;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = type;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV | AI_NUMERICHOST;
	snprintf(ps, sizeof(ps), "%u", port);
	rc = getaddrinfo(bind_addr, ps, &hints, &res);
	if (rc) {
		snprintf(err, n, "bad --bind address '%s': %s", bind_addr,
			 gai_strerror(rc));
		return -2;
	}
	fd = socket(res->ai_family, type | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, n, "socket: %s", strerror(errno));
		freeaddrinfo(res);
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (type == SOCK_DGRAM) {
		int sz = 4 * 1024 * 1024;

		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	}
	if (bind(fd, res->ai_addr, res->ai_addrlen) < 0) {
		snprintf(err, n, "bind %s port %u/%s: %s", bind_addr, port,
			 type == SOCK_DGRAM ? "udp" : "tcp", strerror(errno));
		close(fd);
		freeaddrinfo(res);
		return -1;
	}
	freeaddrinfo(res);
	/* Accepted sockets inherit TCP_NODELAY (libtirpc does not set it). */
	if (type == SOCK_STREAM)
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (type == SOCK_STREAM && listen(fd, 4096) < 0) {
		snprintf(err, n, "listen: %s", strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

static unsigned bound_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t l = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &l) < 0)
		return 0;
	if (ss.ss_family == AF_INET6)
		return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	return ntohs(((struct sockaddr_in *)&ss)->sin_port);
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
		if (!svc_fd_create(fd, VC_BUFSZ, VC_BUFSZ)) {
			fprintf(stderr, "rpcsvc-ref: cannot serve a new connection\n");
			close(fd);
		}
	}
}

int main(int argc, char **argv)
{
	unsigned long port = SVCSOCK_PORT, ul;
	const char *bind_addr = "0.0.0.0";
	bool tcp = true, udp = true, reg = false, verbose = false;
	int tfd = -1, ufd = -1;
	char err[300];

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = NULL;
		char name[64];
		const char *eq = strchr(a, '=');

		if (a[0] == '-' && a[1] == '-' && eq) {
			snprintf(name, sizeof(name), "%.*s", (int)(eq - a), a);
			v = eq + 1;
		} else {
			snprintf(name, sizeof(name), "%s", a);
		}
#define NEEDARG()                                                          \
	do {                                                               \
		if (!v) {                                                  \
			if (i + 1 >= argc)                                 \
				return usage("option '%s' needs a value", name); \
			v = argv[++i];                                     \
		}                                                          \
	} while (0)
		if (!strcmp(name, "-h") || !strcmp(name, "--help")) {
			fputs(help, stdout);
			return 0;
		} else if (!strcmp(name, "-p") || !strcmp(name, "--port")) {
			NEEDARG();
			if (parse_ulong(v, 65535, &port))
				return usage("--port: invalid value '%s' (expected 0..65535)", v);
		} else if (!strcmp(name, "--proto")) {
			NEEDARG();
			if (!strcmp(v, "tcp"))
				tcp = true, udp = false;
			else if (!strcmp(v, "udp"))
				tcp = false, udp = true;
			else if (!strcmp(v, "both"))
				tcp = udp = true;
			else
				return usage("--proto: invalid value '%s' (expected tcp, udp or both)", v);
		} else if (!strcmp(name, "--bind")) {
			NEEDARG();
			bind_addr = v;
		} else if (!strcmp(name, "--register")) {
			reg = true;
		} else if (!strcmp(name, "--corrupt-echo")) {
			NEEDARG();
			if (parse_ulong(v, 0xffffffff, &ul) || ul == 0)
				return usage("--corrupt-echo: invalid value '%s' (expected an integer >= 1)", v);
			ref_corrupt_echo = ul;
		} else if (!strcmp(name, "-v") || !strcmp(name, "--verbose")) {
			verbose = true;
		} else if (a[0] == '-') {
			return usage("unknown option '%s' (see 'rpcsvc-ref --help')", name);
		} else {
			return usage("unexpected argument '%s'", a);
		}
		if (eq && (!strcmp(name, "--register") || !strcmp(name, "--verbose")))
			return usage("option '%s' takes no value", name);
#undef NEEDARG
	}
	if (reg && port == 0)
		return usage("%s", "--register needs a fixed --port");

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
			tfd = make_socket(bind_addr, SOCK_STREAM, p, err, sizeof(err));
			if (tfd < 0)
				break;
			p = bound_port(tfd);
		}
		if (udp) {
			ufd = make_socket(bind_addr, SOCK_DGRAM, p, err, sizeof(err));
			if (ufd < 0 && port == 0 && tcp && errno == EADDRINUSE) {
				close(tfd);
				tfd = -1;
				continue;
			}
		}
		break;
	}
	if ((tcp && tfd < 0) || (udp && ufd < 0)) {
		fprintf(stderr, "rpcsvc-ref: %s\n", err);
		return err[0] == 'b' && strstr(err, "--bind") ? 2 : 1;
	}

	SVCXPRT *tx = NULL, *ux = NULL;

	if (tcp) {
		/* Buffers for the largest record: a reply goes out in one write. */
		tx = svc_vc_create(tfd, VC_BUFSZ, VC_BUFSZ);
		/* Non-blocking listener: accept_all() stops at EAGAIN. */
		fcntl(tfd, F_SETFL, fcntl(tfd, F_GETFL) | O_NONBLOCK);
		if (!tx) {
			fprintf(stderr, "rpcsvc-ref: cannot create the TCP service\n");
			return 1;
		}
		if (!svc_register(tx, SVCSOCK_PROG, SVCSOCK_V1, svcsock_prog_1, 0)) {
			fprintf(stderr, "rpcsvc-ref: cannot register the tcp service\n");
			return 1;
		}
	}
	if (udp) {
		/* Buffers for the largest datagram. */
		ux = svc_dg_create(ufd, 65536, 65536);
		if (!ux) {
			fprintf(stderr, "rpcsvc-ref: cannot create the UDP service\n");
			return 1;
		}
		if (!svc_register(ux, SVCSOCK_PROG, SVCSOCK_V1, svcsock_prog_1, 0)) {
			fprintf(stderr, "rpcsvc-ref: cannot register the udp service\n");
			return 1;
		}
	}
	/*
	 * With --register, tell rpcbind (portmapper v2) the ports ourselves:
	 * svc_register(..., IPPROTO_TCP) would use xp_port, which libtirpc
	 * does not set for transports made by svc_vc_create/svc_dg_create.
	 */
	if (reg) {
		pmap_unset(SVCSOCK_PROG, SVCSOCK_V1);
		if ((tcp && !pmap_set(SVCSOCK_PROG, SVCSOCK_V1, IPPROTO_TCP,
				      (unsigned short)bound_port(tfd))) ||
		    (udp && !pmap_set(SVCSOCK_PROG, SVCSOCK_V1, IPPROTO_UDP,
				      (unsigned short)bound_port(ufd)))) {
			fprintf(stderr, "rpcsvc-ref: cannot register with rpcbind: is rpcbind running?\n");
			pmap_unset(SVCSOCK_PROG, SVCSOCK_V1);
			return 1;
		}
	}

	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL); /* no SA_RESTART: poll returns EINTR */
	sigaction(SIGTERM, &sa, NULL);

	fprintf(stderr, "rpcsvc-ref: serving program %u version %u on", SVCSOCK_PROG,
		SVCSOCK_V1);
	if (tcp)
		fprintf(stderr, " tcp port %u%s", bound_port(tfd), udp ? "," : "");
	if (udp)
		fprintf(stderr, " udp port %u", bound_port(ufd));
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
