// SPDX-License-Identifier: GPL-2.0
/*
 * rpc-pipeline: send N NULL calls to the svcsock program at once (one TCP
 * write holding N records, or N UDP datagrams back to back) and wait for
 * N replies.  A server that forgets that a read may leave more data
 * queued (the lost-wakeup bug the 2002 rules guard against) answers the
 * first call and never the rest: the stall test is built on this.
 *
 * Hand-written XDR on purpose (libsvcrpc's rpcwire.h, via rpcmsg.h): the
 * point is the byte layout on the wire.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "netio.h"
#include "opts.h"
#include "rpcmsg.h"
#include "toolopts.h"

#define MAX_CALLS 1024
#define ONE_CALL (RM_MARK_LEN + RPC_CALL_NONE_LEN) /* a NULL call over TCP */

static void usage(FILE *f)
{
	fprintf(f,
"usage: rpc-pipeline [--host A] [--port P] [--proto tcp|udp] [--calls N]\n"
"                    [--timeout-ms T] [--separate]\n"
"Send N NULL calls to program 0x20049001 version 1 at once and wait for\n"
"N replies.  Prints one line; exit 0 when every reply came within T ms\n"
"(default 5000), 1 when some did not, 2 on a usage error.\n"
"  --host A        server address (default 127.0.0.1)\n"
"  --port P        port (default 20049)\n"
"  --proto tcp|udp transport (default tcp): N records in one write, or N\n"
"                  datagrams sent back to back\n"
"  --calls N       calls, 1-%d (default 8)\n"
"  --timeout-ms T  how long to wait for all replies (default 5000)\n"
"  --separate      TCP: one write per call instead of one for all, so that\n"
"                  the server sees a data_ready per call while it works\n"
"  -h, --help      this text\n", MAX_CALLS);
}

/* Note a successful reply, of len bytes at p, to one of our n calls. */
static void note_reply(const uint8_t *p, size_t len, uint32_t base, int n,
		       unsigned char *seen, int *got)
{
	uint32_t x;

	if (len < 4)
		return;
	x = rd_u32(p) - base;
	if (x < (uint32_t)n && !seen[x] && rpc_is_null_reply(p, len, base + x)) {
		seen[x] = 1;
		(*got)++;
	}
}

/* Note every whole record in buf; returns the bytes they took. */
static size_t scan_records(const uint8_t *buf, size_t len, uint32_t base,
			   int n, unsigned char *seen, int *got)
{
	const uint8_t *frag;
	size_t off = 0, used, flen;
	bool last;

	while ((used = rm_next_fragment(buf + off, len - off, &frag, &flen,
					&last)) > 0) {
		note_reply(frag, flen, base, n, seen, got);
		off += used;
	}
	return off;
}

enum { P_CALLS = 1, P_TIMEOUT, P_SEPARATE, P_HELP };

static const struct optdef defs[] = {
	TOOL_TARGET_OPTS,
	TOOL_PROTO_OPT,
	{ "calls", 0, true, P_CALLS },
	{ "timeout-ms", 0, true, P_TIMEOUT },
	{ "separate", 0, false, P_SEPARATE },
	{ "help", 'h', false, P_HELP },
	{ NULL, 0, false, 0 },
};

/* rpc-pipeline's own options. */
struct pipe_opts {
	uint64_t calls, timeout_ms;
	bool separate;
};

/* One of them (toolopts.h): into the struct pipe_opts ctx. */
static void own_opt(void *ctx, const char *prog, const struct optdef *d,
		    const char *val)
{
	struct pipe_opts *p = ctx;

	switch (d->id) {
	case P_CALLS:
		p->calls = opt_u64_or_exit(prog, d, val, 1, MAX_CALLS, 0);
		break;
	case P_TIMEOUT:
		p->timeout_ms = opt_u64_or_exit(prog, d, val, 1, 3600000, 0);
		break;
	case P_SEPARATE:
		p->separate = true;
		break;
	case P_HELP:
		usage(stdout);
		exit(0);
	}
}

int main(int argc, char **argv)
{
	struct tool_target target = TOOL_TARGET_DEFAULT;
	struct pipe_opts po = { .calls = 8, .timeout_ms = 5000 };
	static uint8_t out[MAX_CALLS * ONE_CALL], buf[65536];
	unsigned char seen[MAX_CALLS] = { 0 };
	int got = 0, fd, n;
	bool tcp;
	size_t have = 0;
	uint64_t t0;
	uint32_t base;

	tool_parse("rpc-pipeline", argc, argv, defs, own_opt, &po, &target);
	tcp = target.socktype == SOCK_STREAM;
	n = (int)po.calls;

	/* no Nagle with --separate: each write its own segment */
	fd = net_dial(&target.addr, target.socktype, (unsigned)po.timeout_ms,
		      po.separate ? NET_NODELAY : 0, 0, 0);
	if (fd < 0) {
		fprintf(stderr, "rpc-pipeline: connect %s: %s\n", target.addr.text,
			strerror(errno));
		return 1;
	}
	srand((unsigned int)time(NULL) ^ (unsigned int)getpid());
	base = (uint32_t)rand() << 8;
	for (int i = 0; i < n; i++) {
		uint8_t *p = out + (size_t)i * ONE_CALL;

		rm_put_header(p, RPC_CALL_NONE_LEN, true);
		rpcmsg_call(p + RM_MARK_LEN, base + i, RPCMSG_PROC_NULL);
	}
	if (tcp) {
		for (int i = 0; i < n; i += po.separate ? 1 : n) {
			size_t len = po.separate ? ONE_CALL : (size_t)n * ONE_CALL;

			if (write(fd, out + (size_t)i * ONE_CALL, len) != (ssize_t)len) {
				fprintf(stderr, "rpc-pipeline: write: %s\n",
					strerror(errno));
				return 1;
			}
		}
	} else {
		for (int i = 0; i < n; i++) {
			const uint8_t *call = out + (size_t)i * ONE_CALL + RM_MARK_LEN;

			if (send(fd, call, RPC_CALL_NONE_LEN, 0) != RPC_CALL_NONE_LEN) {
				fprintf(stderr, "rpc-pipeline: send: %s\n",
					strerror(errno));
				return 1;
			}
		}
	}

	t0 = now_ns();
	while (got < n && ms_since(t0) < (long)po.timeout_ms) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t r;

		if (poll(&p, 1, (int)((long)po.timeout_ms - ms_since(t0))) <= 0)
			continue;
		r = recv(fd, buf + have, sizeof(buf) - have, 0);
		if (r <= 0)
			break;
		if (!tcp) {
			note_reply(buf, (size_t)r, base, n, seen, &got);
			continue;
		}
		have += (size_t)r;
		size_t used = scan_records(buf, have, base, n, seen, &got);

		memmove(buf, buf + used, have - used);
		have -= used;
	}
	printf("rpc-pipeline: %s %d calls, %d replies in %ld ms\n",
	       tcp ? "tcp" : "udp", n, got, ms_since(t0));
	close(fd);
	return got == n ? 0 : 1;
}
