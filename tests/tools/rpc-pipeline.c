// SPDX-License-Identifier: GPL-2.0
/*
 * rpc-pipeline: send N NULL calls to the svcsock program at once (one TCP
 * write holding N records, or N UDP datagrams back to back) and wait for
 * N replies.  A server that forgets that a read may leave more data
 * queued (the lost-wakeup bug the 2002 rules guard against) answers the
 * first call and never the rest: the stall test is built on this.
 *
 * Hand-written XDR on purpose (rpcmsg.h): the point is the byte layout
 * on the wire.
 */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "rpcmsg.h"

#define CALL_WORDS (RPCMSG_CALL_LEN / 4)	/* a NULL call */
#define REPLY_WORDS 6	/* xid, REPLY, ACCEPTED, verifier, SUCCESS */

static void usage(FILE *f)
{
	fprintf(f,
"usage: rpc-pipeline [--host A] [--port P] [--proto tcp|udp] [--calls N]\n"
"                    [--timeout-ms T]\n"
"Send N NULL calls to program 0x20049001 version 1 at once and wait for\n"
"N replies.  Prints one line; exit 0 when every reply came within T ms\n"
"(default 5000), 1 when some did not, 2 on a usage error.\n"
"  --host A        IPv4 address (default 127.0.0.1)\n"
"  --port P        port (default 20049)\n"
"  --proto tcp|udp transport (default tcp): N records in one write, or N\n"
"                  datagrams sent back to back\n"
"  --calls N       calls, 1-1024 (default 8)\n"
"  --timeout-ms T  how long to wait for all replies (default 5000)\n"
"  --separate      TCP: one write per call instead of one for all, so that\n"
"                  the server sees a data_ready per call while it works\n");
}

static void encode_call(uint32_t *w, uint32_t xid)
{
	rpcmsg_call((uint8_t *)w, xid, RPCMSG_PROC_NULL);
}

/* Note a successful reply, of len bytes at p, to one of our n calls. */
static void note_reply(const unsigned char *p, size_t len, uint32_t base,
		       int n, unsigned char *seen, int *got)
{
	uint32_t w[REPLY_WORDS], x;

	if (len < sizeof(w))
		return;
	memcpy(w, p, sizeof(w));
	x = ntohl(w[0]) - base;
	if (x < (uint32_t)n && !seen[x] && ntohl(w[1]) == 1 && w[2] == 0 &&
	    w[5] == 0) {
		seen[x] = 1;
		(*got)++;
	}
}

/* Note every whole record in buf; returns the bytes they took. */
static size_t scan_records(const unsigned char *buf, size_t len,
			   uint32_t base, int n, unsigned char *seen, int *got)
{
	size_t off = 0;

	while (len - off >= 4) {
		uint32_t mark, rlen;

		memcpy(&mark, buf + off, 4);
		rlen = ntohl(mark) & 0x7fffffffu;
		if (len - off - 4 < rlen)
			break;
		note_reply(buf + off + 4, rlen, base, n, seen, got);
		off += 4 + rlen;
	}
	return off;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "host", required_argument, NULL, 'h' },
		{ "port", required_argument, NULL, 'p' },
		{ "proto", required_argument, NULL, 'P' },
		{ "calls", required_argument, NULL, 'n' },
		{ "timeout-ms", required_argument, NULL, 't' },
		{ "separate", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'H' },
		{ NULL, 0, NULL, 0 },
	};
	const char *host = "127.0.0.1", *proto = "tcp";
	int port = 20049, n = 8, timeout = 5000, c, got = 0, fd, separate = 0;
	struct sockaddr_in sin = { .sin_family = AF_INET };
	unsigned char seen[1024] = { 0 }, buf[65536];
	size_t have = 0;
	uint64_t t0;
	uint32_t base;
	char *end;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'h': host = optarg; break;
		case 'p':
			port = (int)strtol(optarg, &end, 10);
			if (*end || port < 1 || port > 65535)
				goto bad;
			break;
		case 'P': proto = optarg; break;
		case 'n':
			n = (int)strtol(optarg, &end, 10);
			if (*end || n < 1 || n > 1024)
				goto bad;
			break;
		case 't':
			timeout = (int)strtol(optarg, &end, 10);
			if (*end || timeout < 1)
				goto bad;
			break;
		case 's': separate = 1; break;
		case 'H': usage(stdout); return 0;
		default: goto bad;
		}
	}
	if (optind != argc || (strcmp(proto, "tcp") && strcmp(proto, "udp")) ||
	    inet_pton(AF_INET, host, &sin.sin_addr) != 1)
		goto bad;
	sin.sin_port = htons((uint16_t)port);

	fd = socket(AF_INET, strcmp(proto, "tcp") ? SOCK_DGRAM : SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sin, sizeof(sin)) < 0) {
		fprintf(stderr, "rpc-pipeline: connect %s:%d: %s\n", host, port,
			strerror(errno));
		return 1;
	}

	if (separate) {
		int one = 1;	/* no Nagle: each write its own segment */

		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	}
	srand((unsigned int)time(NULL) ^ (unsigned int)getpid());
	base = (uint32_t)rand() << 8;
	if (!strcmp(proto, "tcp")) {
		uint32_t out[1024 * (CALL_WORDS + 1)];

		for (int i = 0; i < n; i++) {
			rpcmsg_mark((uint8_t *)(out + i * (CALL_WORDS + 1)),
				    RPCMSG_CALL_LEN, true);
			encode_call(out + i * (CALL_WORDS + 1) + 1, base + i);
		}
		size_t one = (CALL_WORDS + 1) * 4;

		for (int i = 0; i < n; i += separate ? 1 : n) {
			size_t len = separate ? one : n * one;

			if (write(fd, (char *)out + i * one, len) != (ssize_t)len) {
				fprintf(stderr, "rpc-pipeline: write: %s\n",
					strerror(errno));
				return 1;
			}
		}
	} else {
		for (int i = 0; i < n; i++) {
			uint32_t out[CALL_WORDS];

			encode_call(out, base + i);
			if (send(fd, out, sizeof(out), 0) != sizeof(out)) {
				fprintf(stderr, "rpc-pipeline: send: %s\n",
					strerror(errno));
				return 1;
			}
		}
	}

	t0 = now_ns();
	while (got < n && ms_since(t0) < timeout) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t r;

		if (poll(&p, 1, (int)(timeout - ms_since(t0))) <= 0)
			continue;
		r = recv(fd, buf + have, sizeof(buf) - have, 0);
		if (r <= 0)
			break;
		if (!strcmp(proto, "udp")) {
			note_reply(buf, (size_t)r, base, n, seen, &got);
			continue;
		}
		have += (size_t)r;
		size_t used = scan_records(buf, have, base, n, seen, &got);

		memmove(buf, buf + used, have - used);
		have -= used;
	}
	printf("rpc-pipeline: %s %d calls, %d replies in %ld ms\n", proto, n,
	       got, ms_since(t0));
	close(fd);
	return got == n ? 0 : 1;
bad:
	fprintf(stderr, "rpc-pipeline: bad arguments (see --help)\n");
	return 2;
}
