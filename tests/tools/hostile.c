// SPDX-License-Identifier: GPL-2.0
/*
 * hostile: local peers that attack the svcsock server the way a hostile
 * or merely slow client would (issue 11): a flood of empty record
 * fragments, clients that never read their replies or read them only
 * slowly, connections that
 * claim a large record and go idle, connect/send/reset storms, an
 * unprivileged bind to the server's UDP port, an oversized datagram.
 * Each mode is bounded in time (--duration-ms) and in count, stops by
 * itself and prints what it did and what the server did to it; the
 * guest tests (tests/guest/t-hostile-*.sh) judge the server by that and
 * by /proc/net/svcsock_BUILD.
 *
 * The calls are built by rpcmsg.h and a UDP reply is decoded with
 * libsvcrpc (rpcwire.h), which also gives the sockets (netio.h), the
 * options (opts.h) and the JSON output (jsonout.h).
 */
#define _GNU_SOURCE		/* POLLRDHUP, setgroups() */
#include <arpa/inet.h>
#include <errno.h>
#include <grp.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "clock.h"
#include "jsonout.h"
#include "netio.h"
#include "opts.h"
#include "rpcmsg.h"
#include "stopsig.h"

#define PROG_NAME	"hostile"
#define MAX_CONNS	20000
#define MAX_THREADS	64
#define CONNECT_MS	5000	/* default connect timeout */
#define UDP_MAX		65507	/* largest IPv4 UDP payload */

/* Exit statuses. */
enum { EX_DONE = 0, EX_VERDICT = 1, EX_USAGE = 2, EX_SETUP = 3 };

/* Options, as bits, so that each mode can refuse the ones it ignores. */
enum {
	O_CONNS = 1 << 0, O_SIZE = 1 << 1, O_CLAIM = 1 << 2,
	O_CYCLES = 1 << 3, O_THREADS = 1 << 4, O_UID = 1 << 5,
	O_GID = 1 << 6, O_RCVBUF = 1 << 7, O_CALL = 1 << 8,
	O_EXPECT = 1 << 9, O_DURATION = 1 << 10, O_TIMEOUT = 1 << 11,
	O_RECONNECT = 1 << 12, O_READRATE = 1 << 13, O_MSS = 1 << 14,
};

enum mode { ZEROFRAG, SLOWREAD, SLOWLIVE, PIN, RSTSTORM, UDPBIND, UDPBIG };

static const struct {
	const char *name;
	unsigned int opts;
} modes[] = {
	[ZEROFRAG] = { "zerofrag", O_CONNS | O_RECONNECT | O_DURATION |
				   O_TIMEOUT },
	[SLOWREAD] = { "slowread", O_CONNS | O_SIZE | O_RCVBUF | O_RECONNECT |
				   O_DURATION | O_TIMEOUT },
	[SLOWLIVE] = { "slowlive", O_CONNS | O_SIZE | O_RCVBUF | O_RECONNECT |
				   O_READRATE | O_MSS | O_DURATION | O_TIMEOUT },
	[PIN]      = { "pin", O_CONNS | O_CLAIM | O_DURATION | O_TIMEOUT },
	[RSTSTORM] = { "rststorm", O_CYCLES | O_THREADS | O_DURATION |
				   O_TIMEOUT },
	[UDPBIND]  = { "udpbind", O_UID | O_GID | O_TIMEOUT },
	[UDPBIG]   = { "udpbig", O_SIZE | O_CALL | O_EXPECT | O_TIMEOUT },
};

static struct {
	enum mode mode;
	struct sockaddr_in addr;
	struct net_addr server;	/* the same, for netio.h */
	unsigned long conns, size, claim, cycles, threads, rcvbuf;
	unsigned long read_rate, mss;
	unsigned long duration_ms, timeout_ms;
	unsigned long uid, gid;
	bool gid_set, json, expect_reply, call_null, reconnect;
} opt = {
	.conns = 1, .claim = 1048576, .cycles = 1000, .threads = 4,
	.rcvbuf = 4096, .duration_ms = 5000, .uid = 1000,
	.read_rate = 65536,
};

static atomic_int stopping;	/* SIGINT/SIGTERM: stop and report */
static uint64_t t_start, deadline;

static void usage(FILE *f)
{
	fprintf(f,
"usage: hostile MODE [OPTIONS]\n"
"Hostile and slow local peers against the svcsock server (program\n"
"0x20049001 v1) on --host:--port.  Every mode stops by itself: at\n"
"--duration-ms, at its count, or when the server has closed all its\n"
"connections; SIGINT/SIGTERM stop it early.  Prints one summary line\n"
"(or with --json one JSON object) on stdout.\n"
"\n"
"Modes:\n"
"  zerofrag --conns N      N TCP connections that send only zero-length\n"
"                          non-final record fragments (00 00 00 00), as\n"
"                          fast as the sockets take them\n"
"  slowread --conns N --size B\n"
"                          N TCP connections with a small SO_RCVBUF that\n"
"                          send ECHO calls of B payload bytes (default\n"
"                          65536) back to back and never read a reply\n"
"  slowlive --conns N --size B --read-rate R --mss M\n"
"                          as slowread, but each connection reads its\n"
"                          replies steadily at R bytes/s (default 65536)\n"
"                          and announces an MSS of M bytes (default 536),\n"
"                          so the server's send buffer stays small: a slow\n"
"                          but live reader that a deadline on stalled\n"
"                          sends alone never catches\n"
"  pin --conns N --claim B N TCP connections that each send a record\n"
"                          marker claiming B bytes (last fragment; default\n"
"                          1 MiB), 4 bytes of it, then sit idle; prints\n"
"                          'hostile: pin: N open ..., holding' on stderr\n"
"                          once they are all open\n"
"  rststorm --cycles N --threads T\n"
"                          T threads doing N cycles in all of: connect,\n"
"                          send a NULL call, close with a reset (SO_LINGER\n"
"                          0) without reading the reply\n"
"  udpbind [--uid U]       as uid U (when run as root), bind a UDP socket\n"
"                          to the server's address and port with\n"
"                          SO_REUSEADDR, SO_REUSEPORT and both\n"
"  udpbig --size B         one UDP datagram of B bytes: an ECHO call of that\n"
"                          total size (default), or a NULL call padded with\n"
"                          junk (--call null); then wait --timeout-ms\n"
"\n"
"Options:\n"
"  --host A          server IPv4 address (default 127.0.0.1)\n"
"  --port P          server port, TCP and UDP (default 20049)\n"
"  --conns N         connections, 1..%d (default 1)\n"
"  --size B          slowread, slowlive: ECHO payload, 0..1048576 (default 65536);\n"
"                    udpbig: datagram bytes, 40..%d (default 2000; ECHO\n"
"                    needs a multiple of 4, at least 44)\n"
"  --claim B         pin: record length claimed, 5..2147483647 (default\n"
"                    1048576)\n"
"  --rcvbuf B        slowread, slowlive: SO_RCVBUF set before connect\n"
"                    (default 4096); SO_SNDBUF is then 256 KiB\n"
"  --read-rate R     slowlive: bytes read per second per connection,\n"
"                    1..1073741824 (default 65536)\n"
"  --mss M           slowlive: TCP_MAXSEG set before connect, 88..65535\n"
"                    (default 536)\n"
"  --reconnect       zerofrag, slowread, slowlive: when the server closes a\n"
"                    connection, open another in its place (until the\n"
"                    duration ends or a connect fails), so the attack\n"
"                    lasts; without it each connection attacks once\n"
"  --cycles N        rststorm: cycles in all (default 1000)\n"
"  --threads T       rststorm: threads, 1..%d (default 4)\n"
"  --uid U, --gid G  udpbind: the user and group to become (default 1000,\n"
"                    the group the same as the user)\n"
"  --call echo|null  udpbig: the call in the datagram (default echo)\n"
"  --expect-none     udpbig: exit 0 when no reply comes (the default)\n"
"  --expect-reply    udpbig: exit 0 when a reply comes\n"
"  --duration-ms D   TCP modes: how long to run, at most (default 5000)\n"
"  --timeout-ms T    connect timeout (default 5000); udpbig: how long to\n"
"                    wait for a reply (default 1000); udpbind: how long\n"
"                    to wait for the server's answer first (default 1000)\n"
"  --json            one JSON object with the figures instead of the line\n"
"  -h, --help        this text\n"
"Sizes take k and M suffixes (1k = 1024).\n"
"\n"
"Exit status: 0 the attack ran (zerofrag, slowread, slowlive, pin,\n"
"rststorm: the figures tell how the server took it); udpbind: 0 when every bind was\n"
"refused with EADDRINUSE, 1 when one succeeded (a hijack); udpbig: 0 when\n"
"no reply came (with --expect-reply: when one came), 1 otherwise;\n"
"2 bad usage; 3 the attack could not run (no connection could be made,\n"
"no server answering, a system call failed).\n",
		MAX_CONNS, UDP_MAX, MAX_THREADS);
}

static void __attribute__((noreturn, format(printf, 2, 3)))
die(int status, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG_NAME ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(status);
}

/* A number option, decimal or 0x hex, with k/M suffixes when sizes is set. */
static unsigned long number(const struct optdef *d, const char *val,
			    unsigned long lo, unsigned long hi, bool sizes)
{
	return (unsigned long)opt_u64_or_exit(PROG_NAME, d, val, lo, hi,
					      sizes ? OPT_KM : 0);
}

static void on_signal(int sig)
{
	(void)sig;
	atomic_store(&stopping, 1);
	net_stop = 1;	/* and stop waiting in netio.h */
}

static bool running(void)
{
	return !atomic_load(&stopping) && now_ns() < deadline;
}

/* Milliseconds left before the deadline, at most cap. */
static int left_ms(long cap)
{
	uint64_t now = now_ns();
	long ms;

	if (now >= deadline)
		return 0;
	ms = (long)((deadline - now) / 1000000u) + 1;
	return (int)(ms < cap ? ms : cap);
}

/* --- the report: a summary line, or the same figures as JSON ------------ */

static json_t *fields;	/* the figures, in the order they were put */

static void put(const char *key, json_t *v)
{
	if (!fields)
		fields = json_object();
	if (!fields || json_object_set_new(fields, key, v) < 0)
		die(EX_SETUP, "out of memory");
}

static void put_num(const char *key, long long v)
{
	put(key, json_integer(v));
}

static void put_str(const char *key, const char *s)
{
	put(key, json_string(s));
}

/* Print the JSON object, or the summary line fmt when not --json. */
static void __attribute__((format(printf, 1, 2))) report(const char *fmt, ...)
{
	va_list ap;

	if (opt.json) {
		json_t *doc = json_pack("{s:s, s:s}", "tool", "hostile", "mode",
					modes[opt.mode].name);

		if (!doc || (fields && json_object_update(doc, fields) < 0) ||
		    json_print(stdout, doc) < 0)
			die(EX_SETUP, "cannot write the JSON object");
	} else {
		printf(PROG_NAME " %s: ", modes[opt.mode].name);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		putchar('\n');
	}
	fflush(stdout);
}

/* --- TCP connections ---------------------------------------------------- */

struct conn {
	int fd;
	uint64_t t_open;	/* now_ns() when connected */
	uint64_t bytes;		/* sent */
	unsigned long calls;	/* whole calls sent */
	size_t off;		/* into the current call */
	uint32_t xid;
	uint8_t hdr[8];		/* slowread: this call's marker and xid */
	uint64_t rbytes;	/* slowlive: read */
	uint64_t t_credit;	/* slowlive: now_ns() when credit was last given */
	double credit;		/* slowlive: bytes it may read now */
};

static struct conn *conns;
static unsigned long n_open, n_connected, n_connect_err, n_send_err;
static unsigned long n_reconnects;
static int first_err;

/*
 * The closing figures: how many connections the server closed, how (EOF
 * or reset), and after how long (min..max ms after each was opened).
 */
static struct closes {
	unsigned long closed, eof, reset, other;
	long first_ms, last_ms;
} closes = { .first_ms = -1, .last_ms = -1 };

/* --reconnect: what a new connection in a closed one's place needs */
static int reopen_rcvbuf;
static void (*reopen_hook)(struct conn *c);

static void note_error(int err)
{
	if (!first_err)
		first_err = err;
}

/* A non-blocking TCP connection to the server, or -1 with errno set. */
static const int slowread_sndbuf = 256 * 1024;

static int tcp_connect(int rcvbuf)
{
	int ms = left_ms((long)opt.timeout_ms);

	if (ms <= 0 || atomic_load(&stopping)) {
		errno = ETIMEDOUT;
		return -1;
	}
	/*
	 * slowread: a small receive buffer (it never reads), and a bounded
	 * send buffer: the attacker runs in the server's guest, and its own
	 * autotuned 4 MiB send buffers would push the whole guest into TCP
	 * memory pressure, which a remote attacker's would not.  slowlive:
	 * the small MSS it announces (--mss), set before connect, so that
	 * the server sends segments that small and its autotuned send
	 * buffer, sized in segments, stays small too.
	 */
	return net_dial_mss(&opt.server, SOCK_STREAM, (unsigned)ms,
			    NET_NONBLOCK | NET_NODELAY, rcvbuf,
			    rcvbuf ? slowread_sndbuf : 0, (int)opt.mss);
}

static int sock_error(int fd)
{
	int err = 0;
	socklen_t len = sizeof(err);

	getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
	return err;
}

/*
 * The server closed c: err 0 for an orderly close (EOF), else errno.
 * With --reconnect a new connection takes its place while time is left;
 * when none can be made (the server is gone) the slot stays empty.
 */
/* Connect c (rcvbuf as for tcp_connect): false, and counted, when it
 * could not. */
static bool conn_open(struct conn *c, int rcvbuf)
{
	int fd = tcp_connect(rcvbuf);

	if (fd < 0) {
		n_connect_err++;
		note_error(errno);
		return false;
	}
	c->fd = fd;
	c->t_open = now_ns();
	n_open++;
	return true;
}

static void conn_gone(struct conn *c, int err)
{
	long ms = ms_since(c->t_open);

	closes.closed++;
	if (err == 0)
		closes.eof++;
	else if (err == ECONNRESET || err == EPIPE)
		closes.reset++;
	else
		closes.other++;
	if (closes.first_ms < 0 || ms < closes.first_ms)
		closes.first_ms = ms;
	if (ms > closes.last_ms)
		closes.last_ms = ms;
	close(c->fd);
	c->fd = -1;
	n_open--;

	if (!opt.reconnect || !running() || !conn_open(c, reopen_rcvbuf))
		return;
	n_reconnects++;
	if (reopen_hook)
		reopen_hook(c);
}

/* The n connections, none open yet. */
static void alloc_conns(unsigned long n)
{
	conns = calloc(n, sizeof(*conns));
	if (!conns)
		die(EX_SETUP, "out of memory");
	for (unsigned long i = 0; i < n; i++)
		conns[i].fd = -1;
}

/* Connect the n connections; rcvbuf 0 leaves SO_RCVBUF alone. */
static void open_conns(unsigned long n, int rcvbuf)
{
	alloc_conns(n);
	for (unsigned long i = 0; i < n && running(); i++)
		if (conn_open(&conns[i], rcvbuf))
			n_connected++;
}

/* Put the closing figures into the report. */
static struct closes count_closes(void)
{
	put_num("closed", (long long)closes.closed);
	put_num("closed_eof", (long long)closes.eof);
	put_num("closed_reset", (long long)closes.reset);
	put_num("closed_other", (long long)closes.other);
	put_num("closed_first_ms", closes.first_ms);
	put_num("closed_last_ms", closes.last_ms);
	put_num("open_at_end", (long long)n_open);
	if (opt.reconnect)
		put_num("reconnects", (long long)n_reconnects);
	return closes;
}

/* "the server closed 2 (2 EOF, 0 reset) after 15..20 ms, 0 still open" */
static const char *closes_text(const struct closes *k)
{
	static char buf[160];
	int n;

	n = snprintf(buf, sizeof(buf), "the server closed %lu", k->closed);
	if (k->closed)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n,
			      " (%lu EOF, %lu reset, %lu other) after %ld..%ld ms",
			      k->eof, k->reset, k->other, k->first_ms,
			      k->last_ms);
	n += snprintf(buf + n, sizeof(buf) - (size_t)n, ", %lu still open", n_open);
	if (opt.reconnect)
		snprintf(buf + n, sizeof(buf) - (size_t)n, ", %lu reconnects",
			 n_reconnects);
	return buf;
}

static void close_all(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		if (conns[i].fd >= 0)
			close(conns[i].fd);
}

/*
 * Poll the open connections for events (POLLRDHUP, POLLERR and POLLHUP
 * mean the server closed it) and call fn on each ready one.  Returns
 * false when none is open any more.
 */
static bool poll_conns(unsigned long n, short events, int cap_ms,
		       void (*fn)(struct conn *c, short revents))
{
	static struct pollfd *pfd;
	static unsigned long *idx;
	unsigned long k = 0;
	int rc;

	if (!pfd) {
		pfd = calloc(n, sizeof(*pfd));
		idx = calloc(n, sizeof(*idx));
		if (!pfd || !idx)
			die(EX_SETUP, "out of memory");
	}
	for (unsigned long i = 0; i < n; i++) {
		if (conns[i].fd < 0)
			continue;
		pfd[k] = (struct pollfd){ .fd = conns[i].fd,
					  .events = events | POLLRDHUP };
		idx[k++] = i;
	}
	if (!k)
		return false;
	rc = poll(pfd, k, left_ms(cap_ms));
	if (rc < 0 && errno != EINTR)
		die(EX_SETUP, "poll: %s", strerror(errno));
	for (unsigned long j = 0; rc > 0 && j < k; j++) {
		struct conn *c = &conns[idx[j]];

		if (!pfd[j].revents)
			continue;
		if (pfd[j].revents & (POLLERR | POLLHUP | POLLRDHUP))
			conn_gone(c, sock_error(c->fd));
		else
			fn(c, pfd[j].revents);
	}
	return n_open > 0;
}

/* Send what the socket takes without blocking: false when it closed. */
static bool send_some(struct conn *c, const struct iovec *iov, int n,
		      size_t *sent)
{
	struct msghdr m = { .msg_iov = (struct iovec *)iov,
			    .msg_iovlen = (size_t)n };
	ssize_t r = sendmsg(c->fd, &m, MSG_NOSIGNAL | MSG_DONTWAIT);

	*sent = 0;
	if (r < 0) {
		if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
			return true;
		conn_gone(c, errno);
		return false;
	}
	*sent = (size_t)r;
	c->bytes += (uint64_t)r;
	return true;
}

/* Anything the server sends us (it should not) is read and dropped. */
static void drain(struct conn *c)
{
	char buf[4096];
	ssize_t r;

	while ((r = recv(c->fd, buf, sizeof(buf), MSG_DONTWAIT)) > 0)
		;
	if (r == 0)
		conn_gone(c, 0);
	else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
		conn_gone(c, errno);
}

static void need_connections(void)
{
	if (!n_connected)
		die(EX_SETUP, "%s: no connection to %s:%u could be made: %s",
		    modes[opt.mode].name, inet_ntoa(opt.addr.sin_addr),
		    ntohs(opt.addr.sin_port), strerror(first_err));
}

static void put_common(void)
{
	put_num("conns", (long long)opt.conns);
	put_num("connected", (long long)n_connected);
	put_num("connect_errors", (long long)n_connect_err);
	put_str("first_error", first_err ? strerror(first_err) : "");
}

/* --- zerofrag ----------------------------------------------------------- */

static const uint8_t zeros[65536];

static void zerofrag_ready(struct conn *c, short revents)
{
	struct iovec iov = { .iov_base = (void *)zeros, .iov_len = sizeof(zeros) };
	size_t sent;

	if (revents & POLLIN) {
		drain(c);
		if (c->fd < 0)
			return;
	}
	/* a few writes, then let the others have theirs */
	for (int i = 0; i < 8 && (revents & POLLOUT); i++)
		if (!send_some(c, &iov, 1, &sent) || sent < sizeof(zeros))
			break;
}

static int run_zerofrag(void)
{
	uint64_t total = 0, lo = UINT64_MAX, hi = 0;
	struct closes k;
	long ms;

	open_conns(opt.conns, 0);
	need_connections();
	while (running() && poll_conns(opt.conns, POLLIN | POLLOUT, 100,
				       zerofrag_ready))
		;
	ms = ms_since(t_start);
	for (unsigned long i = 0; i < opt.conns; i++) {
		uint64_t b = conns[i].bytes;

		total += b;
		if (b < lo)
			lo = b;
		if (b > hi)
			hi = b;
	}
	put_common();
	put_num("elapsed_ms", ms);
	put_num("bytes_sent", (long long)total);
	put_num("bytes_per_conn_min", (long long)lo);
	put_num("bytes_per_conn_max", (long long)hi);
	put_num("fragments_sent", (long long)(total / 4));
	k = count_closes();
	report("%lu connections in %ld ms sent %llu zero fragments (%llu bytes, "
	       "%llu..%llu a connection); %s; %lu connect errors",
	       n_connected, ms, (unsigned long long)(total / 4),
	       (unsigned long long)total, (unsigned long long)lo,
	       (unsigned long long)hi, closes_text(&k), n_connect_err);
	close_all(opt.conns);
	return EX_DONE;
}

/* --- slowread ----------------------------------------------------------- */

static uint8_t *echo_call;	/* marker and ECHO call; xid set per conn */
static size_t echo_total;
static uint32_t next_xid;

/* The ECHO call of --size bytes, record marker in front, that slowread
 * and slowlive send back to back; the xid is set per call. */
static void echo_call_build(void)
{
	echo_total = RM_MARK_LEN + rpcmsg_echo_len((uint32_t)opt.size);
	echo_call = malloc(echo_total);
	if (!echo_call)
		die(EX_SETUP, "out of memory");
	rm_put_header(echo_call, (uint32_t)(echo_total - RM_MARK_LEN), true);
	rpcmsg_echo(echo_call + RM_MARK_LEN, 0, (uint32_t)opt.size, NULL, 0xa5);
	next_xid = (uint32_t)now_ns() << 8;
}

static void slowread_next_call(struct conn *c)
{
	c->xid = next_xid++;
	memcpy(c->hdr, echo_call, 4);
	wr_u32(c->hdr + 4, c->xid);
	c->off = 0;
}

static void slowread_ready(struct conn *c, short revents)
{
	/* Write until the socket is full: calls back to back. */
	for (int i = 0; i < 64 && (revents & POLLOUT); i++) {
		struct iovec iov[2];
		size_t sent;
		int n = 0;

		if (c->off < sizeof(c->hdr)) {
			iov[n++] = (struct iovec){ c->hdr + c->off,
						   sizeof(c->hdr) - c->off };
			iov[n++] = (struct iovec){ echo_call + sizeof(c->hdr),
						   echo_total - sizeof(c->hdr) };
		} else {
			iov[n++] = (struct iovec){ echo_call + c->off,
						   echo_total - c->off };
		}
		if (!send_some(c, iov, n, &sent) || !sent)
			return;
		c->off += sent;
		if (c->off == echo_total) {
			c->calls++;
			slowread_next_call(c);
		}
	}
}

/* --- slowlive ----------------------------------------------------------- */

/*
 * Read what the connection's credit allows: --read-rate bytes a second,
 * with at most a tenth of a second's worth saved up, so that the reads
 * are steady rather than bursts after a quiet spell.
 */
static void slowlive_read(struct conn *c, uint64_t now)
{
	double cap = (double)opt.read_rate / 10 + 1;
	char buf[16384];
	ssize_t r;

	c->credit += (double)opt.read_rate * (double)(now - c->t_credit) / 1e9;
	if (c->credit > cap)
		c->credit = cap;
	c->t_credit = now;
	while (c->credit >= 1) {
		size_t want = c->credit < sizeof(buf) ? (size_t)c->credit :
							 sizeof(buf);

		r = recv(c->fd, buf, want, MSG_DONTWAIT);
		if (r > 0) {
			c->rbytes += (uint64_t)r;
			c->credit -= (double)r;
			continue;
		}
		if (r == 0)
			conn_gone(c, 0);
		else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
			conn_gone(c, errno);
		return;
	}
}

static void slowlive_start(struct conn *c)
{
	slowread_next_call(c);
	c->t_credit = now_ns();
	c->credit = 0;
}

/*
 * slowread and slowlive: calls back to back on every connection; slowlive
 * also reads the replies at --read-rate, on a 10 ms beat.
 */
static int run_slowread(void)
{
	bool live = opt.mode == SLOWLIVE;
	void (*start)(struct conn *c) = live ? slowlive_start :
					       slowread_next_call;
	unsigned long calls = 0;
	uint64_t bytes = 0, rbytes = 0;
	struct closes k;
	long ms;

	echo_call_build();
	open_conns(opt.conns, (int)opt.rcvbuf);
	need_connections();
	for (unsigned long i = 0; i < opt.conns; i++)
		start(&conns[i]);
	reopen_rcvbuf = (int)opt.rcvbuf;
	reopen_hook = start;
	while (running() && poll_conns(opt.conns, POLLOUT, live ? 10 : 100,
				       slowread_ready)) {
		uint64_t now = now_ns();

		for (unsigned long i = 0; live && i < opt.conns; i++)
			if (conns[i].fd >= 0)
				slowlive_read(&conns[i], now);
	}
	ms = ms_since(t_start);
	for (unsigned long i = 0; i < opt.conns; i++) {
		calls += conns[i].calls;
		bytes += conns[i].bytes;
		rbytes += conns[i].rbytes;
	}
	put_common();
	put_num("size", (long long)opt.size);
	put_num("rcvbuf", (long long)opt.rcvbuf);
	if (live) {
		put_num("read_rate", (long long)opt.read_rate);
		put_num("mss", (long long)opt.mss);
	}
	put_num("elapsed_ms", ms);
	put_num("calls_sent", (long long)calls);
	put_num("bytes_sent", (long long)bytes);
	if (live)
		put_num("bytes_read", (long long)rbytes);
	k = count_closes();
	if (live)
		report("%lu connections in %ld ms sent %lu ECHO calls of %lu "
		       "bytes (%llu bytes) and read %llu bytes of replies at "
		       "%lu B/s each (MSS %lu); %s; %lu connect errors",
		       n_connected, ms, calls, opt.size,
		       (unsigned long long)bytes, (unsigned long long)rbytes,
		       opt.read_rate, opt.mss, closes_text(&k), n_connect_err);
	else
		report("%lu connections in %ld ms sent %lu ECHO calls of %lu "
		       "bytes (%llu bytes) and read no reply; %s; %lu connect "
		       "errors",
		       n_connected, ms, calls, opt.size,
		       (unsigned long long)bytes, closes_text(&k),
		       n_connect_err);
	close_all(opt.conns);
	return EX_DONE;
}

/* --- pin ---------------------------------------------------------------- */

static void pin_ready(struct conn *c, short revents)
{
	if (revents & POLLIN)
		drain(c);
}

static int run_pin(void)
{
	uint8_t msg[8];
	long open_ms, ms;
	struct closes k;

	rm_put_header(msg, (uint32_t)opt.claim, true);
	memcpy(msg + 4, "pin!", 4);

	/* Open and pin them one by one, as fast as the server accepts. */
	alloc_conns(opt.conns);
	for (unsigned long i = 0; i < opt.conns && running(); i++) {
		struct conn *c = &conns[i];

		if (!conn_open(c, 0))
			continue;
		n_connected++;
		if (send(c->fd, msg, sizeof(msg), MSG_NOSIGNAL | MSG_DONTWAIT) !=
		    (ssize_t)sizeof(msg)) {
			n_send_err++;
			note_error(errno);
		}
		c->bytes = sizeof(msg);
	}
	open_ms = ms_since(t_start);
	need_connections();
	fprintf(stderr, PROG_NAME ": pin: %lu open in %ld ms (%lu connect errors), holding\n",
		n_open, open_ms, n_connect_err);

	while (running() && poll_conns(opt.conns, POLLIN, 500, pin_ready))
		;
	ms = ms_since(t_start);
	put_common();
	put_num("claim", (long long)opt.claim);
	put_num("send_errors", (long long)n_send_err);
	put_num("open_ms", open_ms);
	put_num("elapsed_ms", ms);
	k = count_closes();
	report("%lu connections opened in %ld ms, each claiming a %lu-byte record "
	       "and sending 4 bytes of it; after %ld ms %s; %lu connect errors, "
	       "%lu send errors", n_connected, open_ms, opt.claim, ms,
	       closes_text(&k), n_connect_err, n_send_err);
	close_all(opt.conns);
	return EX_DONE;
}

/* --- rststorm ----------------------------------------------------------- */

static atomic_ulong rs_claimed, rs_done, rs_conn_err, rs_send_err;
static atomic_int rs_first_err;

static void rs_error(atomic_ulong *count, int err)
{
	int none = 0;

	atomic_fetch_add(count, 1);
	atomic_compare_exchange_strong(&rs_first_err, &none, err);
}

static void *rststorm_thread(void *arg)
{
	uint32_t xid = (uint32_t)(uintptr_t)arg << 24;
	uint8_t call[RM_MARK_LEN + RPC_CALL_NONE_LEN];
	struct linger rst = { .l_onoff = 1, .l_linger = 0 };

	rm_put_header(call, RPC_CALL_NONE_LEN, true);
	while (running()) {
		int fd;

		if (atomic_fetch_add(&rs_claimed, 1) >= opt.cycles)
			break;
		fd = tcp_connect(0);
		if (fd < 0) {
			rs_error(&rs_conn_err, errno);
			continue;
		}
		rpcmsg_call(call + RM_MARK_LEN, ++xid, RPCMSG_PROC_NULL);
		if (send(fd, call, sizeof(call), MSG_NOSIGNAL) !=
		    (ssize_t)sizeof(call))
			rs_error(&rs_send_err, errno);
		if (setsockopt(fd, SOL_SOCKET, SO_LINGER, &rst, sizeof(rst)) < 0)
			rs_error(&rs_send_err, errno);
		close(fd);
		atomic_fetch_add(&rs_done, 1);
	}
	return NULL;
}

static int run_rststorm(void)
{
	pthread_t tids[MAX_THREADS];
	unsigned long t, started = 0;
	long ms;
	int err;

	for (t = 0; t < opt.threads; t++) {
		err = pthread_create(&tids[t], NULL, rststorm_thread,
				     (void *)(uintptr_t)t);
		if (err) {
			fprintf(stderr, PROG_NAME ": cannot start thread %lu: %s\n",
				t, strerror(err));
			atomic_store(&stopping, 1);
			break;
		}
		started++;
	}
	for (t = 0; t < started; t++)
		pthread_join(tids[t], NULL);
	ms = ms_since(t_start);
	if (!rs_done)
		die(EX_SETUP, "rststorm: no cycle done: %s",
		    strerror(rs_first_err));
	put_num("cycles", (long long)opt.cycles);
	put_num("threads", (long long)opt.threads);
	put_num("cycles_done", (long long)rs_done);
	put_num("connect_errors", (long long)rs_conn_err);
	put_num("send_errors", (long long)rs_send_err);
	put_str("first_error", rs_first_err ? strerror(rs_first_err) : "");
	put_num("elapsed_ms", ms);
	report("%lu of %lu connect/NULL call/reset cycles from %lu threads in "
	       "%ld ms; %lu connect errors, %lu send errors%s%s",
	       (unsigned long)rs_done, opt.cycles, started, ms,
	       (unsigned long)rs_conn_err, (unsigned long)rs_send_err,
	       rs_first_err ? "; first: " : "",
	       rs_first_err ? strerror(rs_first_err) : "");
	return EX_DONE;
}

/* --- UDP ---------------------------------------------------------------- */

/* Wait up to ms for a datagram on fd: its length, or -1 (none, errno). */
static ssize_t udp_wait(int fd, uint8_t *buf, size_t size, long ms)
{
	size_t len = 0;

	switch (net_recv_dgram(fd, buf, size, &len,
			       mono_ms() + (uint64_t)(ms > 0 ? ms : 0))) {
	case NET_OK:
	case NET_TOOBIG:
		return (ssize_t)(len < size ? len : size);
	case NET_ERROR:
		return -1;
	default:
		errno = ETIMEDOUT;
		return -1;
	}
}

/* A UDP socket connected to the server, or exit. */
static int udp_client(void)
{
	int fd = net_dial(&opt.server, SOCK_DGRAM, 0, 0, 0, 0);

	if (fd < 0)
		die(EX_SETUP, "UDP socket to the server: %s", strerror(errno));
	return fd;
}

/* One NULL call over UDP from fd: does the answer come within ms? */
static bool udp_null_answered(int fd, long ms)
{
	uint8_t call[RPC_CALL_NONE_LEN], buf[512];
	uint32_t xid = (uint32_t)now_ns();
	uint64_t t0 = now_ns();
	ssize_t n;

	rpcmsg_call(call, xid, RPCMSG_PROC_NULL);
	if (send(fd, call, sizeof(call), 0) != (ssize_t)sizeof(call))
		return false;
	while ((n = udp_wait(fd, buf, sizeof(buf), ms - ms_since(t0))) >= 0)
		if (rpc_is_null_reply(buf, (size_t)n, xid))
			return true;
	return false;
}

static int run_udpbind(void)
{
	static const struct {
		const char *name, *key;
		int reuseaddr, reuseport;
	} variants[] = {
		{ "SO_REUSEADDR", "reuseaddr", 1, 0 },
		{ "SO_REUSEPORT", "reuseport", 0, 1 },
		{ "SO_REUSEADDR+SO_REUSEPORT", "reuseaddr_reuseport", 1, 1 },
	};
	char line[512], result[3][96];
	unsigned int refused = 0, bound = 0, failed = 0, stolen = 0;
	int probe = udp_client();
	size_t off = 0;

	if (!udp_null_answered(probe, (long)opt.timeout_ms))
		die(EX_SETUP, "udpbind: no answer to a UDP NULL call on %s:%u: "
		    "is the server loaded?", inet_ntoa(opt.addr.sin_addr),
		    ntohs(opt.addr.sin_port));

	if (geteuid() == 0) {
		gid_t gid = (gid_t)(opt.gid_set ? opt.gid : opt.uid);

		if (setgroups(0, NULL) < 0 || setgid(gid) < 0 ||
		    setuid((uid_t)opt.uid) < 0)
			die(EX_SETUP, "udpbind: cannot become uid %lu gid %lu: %s",
			    opt.uid, (unsigned long)gid, strerror(errno));
		if (getuid() != (uid_t)opt.uid || geteuid() != (uid_t)opt.uid)
			die(EX_SETUP, "udpbind: still uid %u after setuid(%lu)",
			    (unsigned int)geteuid(), opt.uid);
	}

	for (unsigned int v = 0; v < 3; v++) {
		int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		int ra = variants[v].reuseaddr, rp = variants[v].reuseport;

		if (fd < 0)
			die(EX_SETUP, "udpbind: socket: %s", strerror(errno));
		if ((ra && setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &ra,
				      sizeof(ra)) < 0) ||
		    (rp && setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &rp,
				      sizeof(rp)) < 0))
			die(EX_SETUP, "udpbind: setsockopt %s: %s",
			    variants[v].name, strerror(errno));
		if (bind(fd, (struct sockaddr *)&opt.addr, sizeof(opt.addr)) == 0) {
			/* Bound beside the server: does it get its calls? */
			uint8_t call[RPC_CALL_NONE_LEN], buf[512];
			int cl = udp_client();
			bool took = false;

			rpcmsg_call(call, (uint32_t)now_ns(), RPCMSG_PROC_NULL);
			if (send(cl, call, sizeof(call), 0) == (ssize_t)sizeof(call))
				took = udp_wait(fd, buf, sizeof(buf), 300) > 0;
			close(cl);
			bound++;
			stolen += took;
			snprintf(result[v], sizeof(result[v]), "bound%s",
				 took ? ", took a call meant for the server" : "");
		} else if (errno == EADDRINUSE) {
			refused++;
			snprintf(result[v], sizeof(result[v]), "refused: EADDRINUSE");
		} else {
			failed++;
			snprintf(result[v], sizeof(result[v]), "error: %s",
				 strerror(errno));
		}
		close(fd);
		put_str(variants[v].key, result[v]);
		off += (size_t)snprintf(line + off, sizeof(line) - off, "%s%s %s",
					v ? "; " : "", variants[v].name, result[v]);
	}
	put_num("uid", (long long)geteuid());
	put_num("refused", refused);
	put_num("bound", bound);
	put_num("errors", failed);
	put_num("calls_taken", stolen);
	put_str("verdict", bound ? "hijack" : failed ? "error" :
		"refused: EADDRINUSE");
	report("as uid %u, bind to %s:%u: %s => %s", (unsigned int)geteuid(),
	       inet_ntoa(opt.addr.sin_addr), ntohs(opt.addr.sin_port), line,
	       bound ? "hijack" : failed ? "error" : "refused: EADDRINUSE");
	close(probe);
	return bound ? EX_VERDICT : failed ? EX_SETUP : EX_DONE;
}

static int run_udpbig(void)
{
	static uint8_t dgram[UDP_MAX], buf[65536];
	uint32_t xid = (uint32_t)now_ns();
	size_t size = opt.size;
	char desc[160] = "none";
	bool replied = false;
	int fd = udp_client();
	long reply_ms = -1;
	uint64_t t0;
	ssize_t n;

	if (opt.call_null) {
		rpcmsg_call(dgram, xid, RPCMSG_PROC_NULL);
		for (size_t i = RPC_CALL_NONE_LEN; i < size; i++)
			dgram[i] = (uint8_t)(0x5a ^ i);		/* junk */
	} else {
		uint32_t payload = (uint32_t)(size - rpcmsg_echo_len(0));

		rpcmsg_echo(dgram, xid, payload, NULL, 0xa5);
	}
	t0 = now_ns();
	n = send(fd, dgram, size, 0);
	if (n != (ssize_t)size)
		die(EX_SETUP, "udpbig: send of %zu bytes: %s", size,
		    n < 0 ? strerror(errno) : "short");
	while ((n = udp_wait(fd, buf, sizeof(buf),
			     (long)opt.timeout_ms - ms_since(t0))) >= 0) {
		struct rpc_reply r;
		char err[96];

		if (n < 4 || rd_u32(buf) != xid)
			continue;	/* not ours */
		replied = true;
		reply_ms = ms_since(t0);
		if (rpc_dec_reply(buf, (size_t)n, &r, err, sizeof(err)) == 0)
			rpc_reply_describe(&r, desc, sizeof(desc));
		else
			snprintf(desc, sizeof(desc), "undecodable: %s", err);
		break;
	}
	if (n < 0 && errno == ECONNREFUSED)
		die(EX_SETUP, "udpbig: %s:%u: port unreachable: no server",
		    inet_ntoa(opt.addr.sin_addr), ntohs(opt.addr.sin_port));
	close(fd);
	put_num("size", (long long)size);
	put_str("call", opt.call_null ? "null" : "echo");
	put_num("timeout_ms", (long long)opt.timeout_ms);
	put_num("reply", replied);
	put_num("reply_ms", reply_ms);
	put_str("reply_desc", desc);
	put_str("expect", opt.expect_reply ? "reply" : "none");
	report("a %zu-byte datagram (%s call) to %s:%u: %s%s (waited up to %lu ms; "
	       "expected %s)", size, opt.call_null ? "NULL" : "ECHO",
	       inet_ntoa(opt.addr.sin_addr), ntohs(opt.addr.sin_port),
	       replied ? "reply " : "no reply", replied ? desc : "",
	       opt.timeout_ms, opt.expect_reply ? "a reply" : "none");
	return replied == opt.expect_reply ? EX_DONE : EX_VERDICT;
}

/* --- main --------------------------------------------------------------- */

/* Enough descriptors for n connections and a few more. */
static void raise_nofile(unsigned long n)
{
	struct rlimit rl;
	rlim_t need = (rlim_t)n + 32;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		die(EX_SETUP, "getrlimit: %s", strerror(errno));
	if (rl.rlim_cur >= need)
		return;
	if (rl.rlim_max < need && geteuid() == 0)
		rl.rlim_max = need;	/* root may raise the hard limit */
	if (rl.rlim_max < need)
		die(EX_SETUP, "--conns %lu needs %lu open files; the limit is %lu",
		    n, (unsigned long)need, (unsigned long)rl.rlim_max);
	rl.rlim_cur = need;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
		die(EX_SETUP, "setrlimit(RLIMIT_NOFILE, %lu): %s",
		    (unsigned long)need, strerror(errno));
}

/* Each option's id, and the bit that says which modes take it. */
static const struct optdef defs[] = {
	{ "host", 0, true, 'A' },
	{ "port", 0, true, 'p' },
	{ "conns", 0, true, 'n' },
	{ "size", 0, true, 's' },
	{ "claim", 0, true, 'C' },
	{ "rcvbuf", 0, true, 'r' },
	{ "cycles", 0, true, 'c' },
	{ "threads", 0, true, 'T' },
	{ "uid", 0, true, 'u' },
	{ "gid", 0, true, 'g' },
	{ "call", 0, true, 'k' },
	{ "expect-none", 0, false, 'N' },
	{ "expect-reply", 0, false, 'R' },
	{ "duration-ms", 0, true, 'd' },
	{ "timeout-ms", 0, true, 't' },
	{ "reconnect", 0, false, 'X' },
	{ "read-rate", 0, true, 'W' },
	{ "mss", 0, true, 'M' },
	{ "json", 0, false, 'j' },
	{ "help", 'h', false, 'h' },
	{ NULL, 0, false, 0 }
};

int main(int argc, char **argv)
{
	static const struct { int ch; unsigned int bit; } bits[] = {
		{ 'n', O_CONNS }, { 's', O_SIZE }, { 'C', O_CLAIM },
		{ 'r', O_RCVBUF }, { 'c', O_CYCLES }, { 'T', O_THREADS },
		{ 'u', O_UID }, { 'g', O_GID }, { 'k', O_CALL },
		{ 'N', O_EXPECT }, { 'R', O_EXPECT }, { 'd', O_DURATION },
		{ 't', O_TIMEOUT }, { 'X', O_RECONNECT }, { 'W', O_READRATE },
		{ 'M', O_MSS },
	};
	struct stopsig saved; /* never put back: they end the attack */
	const char *host = "127.0.0.1", *mode, *val;
	const struct optdef *d, *given_def[128] = { NULL };
	unsigned long port = 20049;
	bool size_set = false, timeout_set = false;
	struct opts o;
	char err[300];
	int c, st;

	opts_start(&o, argc, argv, defs, NULL, PROG_NAME " --help");
	while ((c = opts_next(&o, &d, &val, err, sizeof(err))) > 0) {
		given_def[c] = d;
		switch (c) {
		case 'A': host = val; break;
		case 'p': port = number(d, val, 1, 65535, false); break;
		case 'n': opt.conns = number(d, val, 1, MAX_CONNS, false); break;
		case 's':
			opt.size = number(d, val, 0, 1048576, true);
			size_set = true;
			break;
		case 'C': opt.claim = number(d, val, 5, 0x7fffffff, true); break;
		case 'r': opt.rcvbuf = number(d, val, 0, 1 << 30, true); break;
		case 'c': opt.cycles = number(d, val, 1, 100000000, false); break;
		case 'T': opt.threads = number(d, val, 1, MAX_THREADS, false); break;
		case 'u': opt.uid = number(d, val, 1, 65534, false); break;
		case 'g':
			opt.gid = number(d, val, 1, 65534, false);
			opt.gid_set = true;
			break;
		case 'k':
			if (!strcmp(val, "null"))
				opt.call_null = true;
			else if (!strcmp(val, "echo"))
				opt.call_null = false;
			else
				die(EX_USAGE, "--call: '%s' is not echo or null", val);
			break;
		case 'N': opt.expect_reply = false; break;
		case 'R': opt.expect_reply = true; break;
		case 'd':
			opt.duration_ms = number(d, val, 1, 86400000, false);
			break;
		case 't':
			opt.timeout_ms = number(d, val, 1, 600000, false);
			timeout_set = true;
			break;
		case 'X': opt.reconnect = true; break;
		case 'W':
			opt.read_rate = number(d, val, 1, 1 << 30, true);
			break;
		case 'M': opt.mss = number(d, val, 88, 65535, true); break;
		case 'j': opt.json = true; break;
		case 'h': usage(stdout); return EX_DONE;
		}
	}
	if (c < 0)
		die(EX_USAGE, "%s", err);
	c = opts_index(&o); /* the first argument left: the mode */
	if (c == argc)
		die(EX_USAGE, "no mode given: zerofrag, slowread, slowlive, pin, "
		    "rststorm, udpbind or udpbig (try --help)");
	mode = argv[c++];
	if (c != argc)
		die(EX_USAGE, "unexpected argument '%s'", argv[c]);
	for (c = 0; c < (int)(sizeof(modes) / sizeof(modes[0])); c++)
		if (!strcmp(mode, modes[c].name))
			break;
	if (c == (int)(sizeof(modes) / sizeof(modes[0])))
		die(EX_USAGE, "unknown mode '%s' (try --help)", mode);
	opt.mode = (enum mode)c;
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (given_def[bits[i].ch] && !(modes[opt.mode].opts & bits[i].bit))
			die(EX_USAGE, "--%s does not apply to mode %s",
			    given_def[bits[i].ch]->name, mode);

	if (!timeout_set)
		opt.timeout_ms = opt.mode == UDPBIG || opt.mode == UDPBIND ?
				 1000 : CONNECT_MS;
	if ((opt.mode == SLOWREAD || opt.mode == SLOWLIVE) && !size_set)
		opt.size = 65536;
	if (opt.mode == SLOWLIVE && !opt.mss)
		opt.mss = 536;
	if (opt.mode == UDPBIG) {
		if (!size_set)
			opt.size = 2000;
		if (opt.size < RPC_CALL_NONE_LEN || opt.size > UDP_MAX)
			die(EX_USAGE, "--size: %lu is not in %u..%d for udpbig",
			    opt.size, RPC_CALL_NONE_LEN, UDP_MAX);
		if (!opt.call_null &&
		    (opt.size < rpcmsg_echo_len(0) || opt.size % 4))
			die(EX_USAGE, "--size: an ECHO datagram is a multiple of 4 "
			    "bytes, at least %zu (or use --call null)",
			    rpcmsg_echo_len(0));
	}
	opt.addr.sin_family = AF_INET;
	opt.addr.sin_port = htons((uint16_t)port);
	if (inet_pton(AF_INET, host, &opt.addr.sin_addr) != 1)
		die(EX_USAGE, "--host: '%s' is not an IPv4 address", host);
	memcpy(&opt.server.ss, &opt.addr, sizeof(opt.addr));
	opt.server.len = sizeof(opt.addr);
	snprintf(opt.server.text, sizeof(opt.server.text), "%s:%lu", host, port);

	stopsig_catch(&saved, on_signal);
	signal(SIGPIPE, SIG_IGN);
	if (opt.mode == ZEROFRAG || opt.mode == SLOWREAD ||
	    opt.mode == SLOWLIVE || opt.mode == PIN)
		raise_nofile(opt.conns);
	t_start = now_ns();
	deadline = t_start + (uint64_t)opt.duration_ms * 1000000u;

	switch (opt.mode) {
	case ZEROFRAG: st = run_zerofrag(); break;
	case SLOWREAD: st = run_slowread(); break;
	case SLOWLIVE: st = run_slowread(); break;
	case PIN: st = run_pin(); break;
	case RSTSTORM: st = run_rststorm(); break;
	case UDPBIND: st = run_udpbind(); break;
	default: st = run_udpbig(); break;
	}
	return st;
}
