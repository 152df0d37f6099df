/*
 * rr-server - the simplest user-space request/response server: the
 * "raw ceiling" of bench/compare.
 *
 * One thread per TCP connection (blocking sockets, TCP_NODELAY), no RPC,
 * no XDR, no dispatch: read a hello giving the request and reply sizes
 * (rr.h), then loop { read exactly the request; write exactly the reply }.
 * Whatever an RPC server does on top of this costs it throughput; what this
 * one cannot do is the limit of the machine for that exchange.
 */
#define _GNU_SOURCE
#include "rr.h"

#include <arpa/inet.h>
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
		"Usage: rr-server [--host ADDR] [--port PORT] [--backlog N] [--verbose]\n"
		"\n"
		"Bare request/response server over TCP (the raw ceiling of\n"
		"bench/compare): one thread per connection; each connection sends a\n"
		"12-byte hello (\"RRv1\", request size, reply size; big-endian u32)\n"
		"and then exchanges fixed-size requests and replies.  The first 8\n"
		"bytes of each reply echo the first 8 bytes of its request.\n"
		"\n"
		"  --host ADDR    IPv4 address to listen on (default 127.0.0.1)\n"
		"  --port PORT    TCP port (default %u; 0: a free one, printed)\n"
		"  --backlog N    listen backlog (default 1024)\n"
		"  --verbose      log connections on stderr\n"
		"  --help         this text\n"
		"\n"
		"Runs until killed; prints \"rr-server: listening on ADDR:PORT\" on\n"
		"stderr once it accepts connections.  Exit status 2: bad usage,\n"
		"1: could not listen.\n",
		RR_DEFAULT_PORT);
}

static int read_full(int fd, void *buf, size_t len)
{
	uint8_t *p = buf;

	while (len > 0) {
		ssize_t r = read(fd, p, len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		p += r;
		len -= (size_t)r;
	}
	return 0;
}

static int write_full(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len > 0) {
		ssize_t r = write(fd, p, len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		p += r;
		len -= (size_t)r;
	}
	return 0;
}

static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static void *conn_main(void *arg)
{
	int fd = (int)(intptr_t)arg;
	uint8_t hello[RR_HELLO_LEN];
	uint8_t *req = NULL, *resp = NULL;
	uint32_t req_size, resp_size;
	unsigned long long n = 0;

	if (read_full(fd, hello, sizeof(hello)) < 0)
		goto out;
	req_size = get_be32(hello + 4);
	resp_size = get_be32(hello + 8);
	if (get_be32(hello) != RR_MAGIC || req_size < RR_MIN_SIZE ||
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
		if (read_full(fd, req, req_size) < 0)
			break;
		memcpy(resp, req, 8);
		if (write_full(fd, resp, resp_size) < 0)
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

static int parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || *end || v > max || s[0] == '-')
		return -1;
	*out = v;
	return 0;
}

int main(int argc, char **argv)
{
	const char *host = "127.0.0.1";
	unsigned long port = RR_DEFAULT_PORT, backlog = 1024;
	struct sockaddr_in sa;
	pthread_attr_t attr;
	int lfd, one = 1;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--verbose") || !strcmp(a, "-v")) {
			verbose = true;
		} else if (!strcmp(a, "--host")) {
			if (!v)
				goto bad;
			host = v;
			i++;
		} else if (!strcmp(a, "--port")) {
			if (parse_uint(v, 65535, &port) < 0)
				goto bad;
			i++;
		} else if (!strcmp(a, "--backlog")) {
			if (parse_uint(v, 65535, &backlog) < 0)
				goto bad;
			i++;
		} else {
			goto bad;
		}
		continue;
bad:
		fprintf(stderr, "rr-server: bad argument: %s%s%s (see --help)\n",
			a, v ? " " : "", v ? v : "");
		return 2;
	}

	signal(SIGPIPE, SIG_IGN);
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons((uint16_t)port);
	if (inet_pton(AF_INET, host, &sa.sin_addr) != 1) {
		fprintf(stderr, "rr-server: --host %s: not an IPv4 address\n", host);
		return 2;
	}
	lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0) {
		perror("rr-server: socket");
		return 1;
	}
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(lfd, (int)backlog) < 0) {
		fprintf(stderr, "rr-server: %s:%lu: %s\n", host, port,
			strerror(errno));
		return 1;
	}
	if (port == 0) {	/* a free port was picked: say which */
		socklen_t len = sizeof(sa);

		if (getsockname(lfd, (struct sockaddr *)&sa, &len) == 0)
			port = ntohs(sa.sin_port);
	}
	fprintf(stderr, "rr-server: listening on %s:%lu\n", host, port);

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
