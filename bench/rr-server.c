// SPDX-License-Identifier: GPL-2.0
/*
 * rr-server - the simplest user-space request/response server: the
 * "reference" of bench/compare.
 *
 * One thread per TCP connection (blocking sockets, TCP_NODELAY), no RPC,
 * no XDR, no dispatch: read a hello giving the request and reply sizes
 * (rr.h), then loop { read exactly the request; write exactly the reply }.
 * Whatever an RPC server does on top of this costs it throughput; what this
 * one cannot do is the limit of the machine for that exchange.
 */
#define _GNU_SOURCE
#include "netio.h"
#include "opts.h"
#include "rr.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static bool verbose;

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: rr-server [--bind ADDR] [--port PORT] [--backlog N] [--verbose]\n"
		"\n"
		"Bare request/response server over TCP (the reference of\n"
		"bench/compare): one thread per connection; each connection sends a\n"
		"12-byte hello (\"RRv1\", request size, reply size; big-endian u32)\n"
		"and then exchanges fixed-size requests and replies.  The first 8\n"
		"bytes of each reply echo the first 8 bytes of its request.\n"
		"\n"
		"  -b, --bind ADDR   numeric IPv4 or IPv6 address to listen on\n"
		"                    (default 127.0.0.1: this machine only);\n"
		"                    --host ADDR is the same (its former name)\n"
		"  -p, --port PORT   TCP port (default %u; 0: a free one, printed)\n"
		"      --backlog N   listen backlog (default 1024)\n"
		"  -v, --verbose     log connections on stderr\n"
		"  -h, --help        this text\n"
		"\n"
		"Runs until killed; prints \"rr-server: listening on ADDR:PORT\" on\n"
		"stderr once it accepts connections.  Exit status 2: bad usage,\n"
		"1: could not listen.\n",
		RR_DEFAULT_PORT);
}

static void *conn_main(void *arg)
{
	int fd = (int)(intptr_t)arg;
	uint8_t hello[RR_HELLO_LEN];
	uint8_t *req = NULL, *resp = NULL;
	uint32_t req_size, resp_size;
	unsigned long long n = 0;

	if (fd_read_full(fd, hello, sizeof(hello)) < 0)
		goto out;
	req_size = rd_u32(hello + 4);
	resp_size = rd_u32(hello + 8);
	if (rd_u32(hello) != RR_MAGIC || req_size < RR_MIN_SIZE ||
	    resp_size < RR_MIN_SIZE || req_size > RR_MAX_SIZE ||
	    resp_size > RR_MAX_SIZE) {
		if (verbose)
			fprintf(stderr, "rr-server: fd %d: bad hello\n", fd);
		goto out;
	}
	req = malloc(req_size);
	resp = malloc(resp_size);
	if (!req || !resp)
		goto out;
	for (uint32_t i = 0; i < resp_size; i++)
		resp[i] = (uint8_t)(i * 31u + 7u);
	for (;;) {
		if (fd_read_full(fd, req, req_size) < 0)
			break;
		memcpy(resp, req, 8);
		if (fd_write_full(fd, resp, resp_size) < 0)
			break;
		n++;
	}
	if (verbose)
		fprintf(stderr, "rr-server: fd %d: %llu exchanges of %u/%u bytes\n",
			fd, n, req_size, resp_size);
out:
	free(req);
	free(resp);
	close(fd);
	return NULL;
}

enum { S_HELP = 1, S_BIND, S_PORT, S_BACKLOG, S_VERBOSE };

static const struct optdef server_opts[] = {
	{ "help", 'h', false, S_HELP },
	{ "bind", 'b', true, S_BIND },
	{ "host", 0, true, S_BIND },
	{ "port", 'p', true, S_PORT },
	{ "backlog", 0, true, S_BACKLOG },
	{ "verbose", 'v', false, S_VERBOSE },
	{ NULL, 0, false, 0 },
};

int main(int argc, char **argv)
{
	const char *host = "127.0.0.1";
	uint64_t port = RR_DEFAULT_PORT, backlog = 1024;
	const struct optdef *d;
	const char *val;
	pthread_attr_t attr;
	struct opts o;
	char err[300];
	int lfd, one = 1, id;

	opts_start(&o, argc, argv, server_opts, NULL, "rr-server --help");
	while ((id = opts_next(&o, &d, &val, err, sizeof(err))) > 0) {
		uint64_t *num = id == S_PORT ? &port : id == S_BACKLOG ? &backlog : NULL;

		if (id == S_HELP) {
			usage(stdout);
			return 0;
		}
		if (num && opt_u64(err, sizeof(err), NULL, d, val, id == S_PORT ? 0 : 1,
				   65535, 0, num))
			return opts_usage_error("rr-server", err);
		if (id == S_BIND)
			host = val;
		if (id == S_VERBOSE)
			verbose = true;
	}
	if (id < 0 || opts_no_args(&o, err, sizeof(err)) < 0)
		return opts_usage_error("rr-server", err);

	signal(SIGPIPE, SIG_IGN);
	lfd = net_listen(host, (unsigned)port, SOCK_STREAM, (int)backlog, 0, err,
			 sizeof(err));
	if (lfd < 0) {
		fprintf(stderr, "rr-server: %s\n", err);
		return lfd == -2 ? 2 : 1;
	}
	if (port == 0) /* a free port was picked: say which */
		port = net_bound_port(lfd);
	fprintf(stderr, "rr-server: listening on %s:%llu\n", host,
		(unsigned long long)port);

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	for (;;) {
		pthread_t th;
		int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		int rc;

		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED ||
			    errno == EMFILE || errno == ENFILE) {
				if (errno == EMFILE || errno == ENFILE)
					usleep(10000);
				continue;
			}
			perror("rr-server: accept");
			return 1;
		}
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		rc = pthread_create(&th, &attr, conn_main, (void *)(intptr_t)fd);
		if (rc != 0) {
			fprintf(stderr, "rr-server: pthread_create: %s\n",
				strerror(rc));
			close(fd);
		}
	}
}
