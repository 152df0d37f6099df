// SPDX-License-Identifier: GPL-2.0
/*
 * Register the program with the local portmapper (rpcbind, version 2 of
 * program 100000, RFC 1833), as svc_register() did with pmap_set(), so
 * that rpcinfo and libtirpc clients find it.  One blocking call over a
 * loopback UDP socket per request; a missing rpcbind is not an error,
 * only a note in the log: the server works without it.
 *
 * Process context (module init and exit), no locks held.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/net.h>
#include <linux/in.h>
#include <linux/random.h>
#include <linux/uio.h>
#include <net/sock.h>
#include "svcsock.h"

#define PMAP_PORT	111
#define PMAP_PROG	100000
#define PMAP_VERS	2
#define PMAP_SET	1
#define PMAP_UNSET	2
#define PMAP_TIMEOUT	(2 * HZ)

/* Make one PMAPPROC_SET or _UNSET call.  Returns 0 when the portmapper
 * answered TRUE, -EACCES when it answered FALSE, or a negative errno.
 */
static int svc_pmap_call(u32 proc, u32 prot, u16 port)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
		.sin_port = htons(PMAP_PORT),
	};
	u32 xid = get_random_u32();
	__be32 call[14] = {
		cpu_to_be32(xid), 0 /* CALL */, cpu_to_be32(2),
		cpu_to_be32(PMAP_PROG), cpu_to_be32(PMAP_VERS),
		cpu_to_be32(proc),
		0, 0,			/* AUTH_NONE credential */
		0, 0,			/* AUTH_NONE verifier */
		cpu_to_be32(SVCSOCK_PROG), cpu_to_be32(SVCSOCK_VERS),
		cpu_to_be32(prot), cpu_to_be32(port),
	};
	__be32 reply[7];
	struct kvec iov = { .iov_base = call, .iov_len = sizeof(call) };
	struct msghdr msg = { };
	struct socket *sock;
	int err;

	err = sock_create_kern(&init_net, AF_INET, SOCK_DGRAM, IPPROTO_UDP,
			       &sock);
	if (err < 0)
		return err;
	sock->sk->sk_rcvtimeo = PMAP_TIMEOUT;
	sock->sk->sk_sndtimeo = PMAP_TIMEOUT;
	err = kernel_connect(sock, (struct sockaddr *)&sin, sizeof(sin), 0);
	if (err < 0)
		goto out;
	err = kernel_sendmsg(sock, &msg, &iov, 1, iov.iov_len);
	if (err < 0)
		goto out;

	/* Skip anything that is not our reply, until the timeout. */
	do {
		iov.iov_base = reply;
		iov.iov_len = sizeof(reply);
		err = kernel_recvmsg(sock, &msg, &iov, 1, iov.iov_len, 0);
	} while (err >= 0 && (err < (int)sizeof(reply) ||
			      be32_to_cpu(reply[0]) != xid));
	if (err < 0)
		goto out;

	/* xid, REPLY, MSG_ACCEPTED, verifier (AUTH_NONE, 0), SUCCESS, bool */
	if (be32_to_cpu(reply[1]) != 1 || reply[2] || reply[5])
		err = -EPROTO;
	else
		err = reply[6] ? 0 : -EACCES;
out:
	sock_release(sock);
	return err;
}

/**
 * svc_rpcbind_register() - Register the program with the local rpcbind
 * @port: the port it is served on, over TCP and UDP
 *
 * A missing rpcbind is not an error, only a note in the log.
 *
 * Context: Process context, no locks held but svc_threads_mutex when a
 * write of the rpcbind parameter calls it; sleeps (a blocking call per
 * protocol).
 */
void svc_rpcbind_register(u16 port)
{
	int err;

	err = svc_pmap_call(PMAP_SET, IPPROTO_TCP, port);
	if (!err)
		err = svc_pmap_call(PMAP_SET, IPPROTO_UDP, port);
	if (err)
		pr_info("not registered with rpcbind (%d)\n", err);
}

/**
 * svc_rpcbind_unregister() - Drop the program's mappings from rpcbind
 *
 * Context: Process context, no locks held but svc_threads_mutex when a
 * write of the rpcbind parameter calls it; sleeps (one blocking call).
 */
void svc_rpcbind_unregister(void)
{
	/* UNSET drops the program's mappings for every protocol. */
	svc_pmap_call(PMAP_UNSET, 0, 0);
}
