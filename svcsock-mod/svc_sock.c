// SPDX-License-Identifier: GPL-2.0
/*
 * The socket machinery every locking build shares: the transport classes
 * of real sockets (struct svc_sock_ops: UDP, the TCP listener, accepted
 * TCP connections), creating and setting up sockets, reading TCP records
 * and UDP datagrams, sending replies, connection limits and teardown.
 * None of it touches a socket's state flags: where the state must change
 * it calls the build's functions (xprt_<strategy>.c), whose opening
 * comment gives the rules.  Nothing here asks what a socket is: what
 * differs between kinds of socket is in their classes, at the end of this
 * file.
 *
 * The receive functions here are called by a thread that owns the
 * socket's receive side (the build's busy flag); the send side is
 * serialised by sk_sendmutex instead, so that a thread may reply while
 * another reads the next record.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/net.h>
#include <linux/uio.h>
#include <linux/udp.h>
#include <linux/jiffies.h>
#include <linux/workqueue.h>
#include <net/sock.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/tcp.h>
#include <net/tcp_states.h>
#include "svcsock.h"
#include "svc_trace.h"

#define SVC_RECORD_LAST		0x80000000U	/* last fragment of a record */
#define SVC_RECORD_LEN		0x7fffffffU
#define SVC_RBUF_KEEP		65536		/* record buffer kept when idle */
#define SVC_RBUF_STEP		4096		/* first growth of a record buffer */
#define SVC_MAX_FRAGS		1024		/* fragments in one record */
#define SVC_FRAGS_PER_TURN	64		/* fragments read per hand-over */
#define SVC_SEND_BOUND		HZ		/* a peer may take no byte this long */
#define SVC_SEND_MIN_RATE	16384		/* bytes/s a queue must drain at */
#define SVC_UDP_SKIPS		16		/* bad datagrams skipped per read */
#define SVC_WMEM_QUEUED		(256 * 1024)	/* replies queued, then stop reading */

/* The send side ("Replies on TCP", below): svc_setup_socket() sets up
 * its worker, svc_sock_detach() stops it.
 */
static void svc_send_worker(struct work_struct *work);
static void svc_send_drop(struct svc_sock *svsk);

/* The UDP class's xpo_prepare: give the socket room for a whole record
 * in each direction, as the 2002 server's svc_sock_setbufsize() did, and
 * for many small calls beside a large one (at least 1 MiB) whatever
 * max_record is.  Not the TCP listener: its accepted sockets would
 * inherit the locked sizes, and a thousand idle connections would each be
 * allowed 2 x max_record of queued data.  They keep TCP's autotuned
 * buffers instead.  Process context, before the socket is published.
 */
static void svc_udp_prepare(struct svc_sock *svsk)
{
	struct sock *sk = svsk->sk_sk;
	int size = clamp_t(size_t, 2 * svsk->sk_server->sv_max_record,
			   SZ_1M, INT_MAX / 2);

	lock_sock(sk);
	sk->sk_sndbuf = size;
	sk->sk_rcvbuf = size;
	sk->sk_userlocks |= SOCK_SNDBUF_LOCK | SOCK_RCVBUF_LOCK;
	sk->sk_write_space(sk);
	release_sock(sk);
}

/* Wrap a kernel socket of class ops in a svc_sock, install the class's
 * callbacks and put it on the service's lists: svc_setup_socket() for an
 * accepted socket, svc_setup_perm_socket() for the others, which say
 * what they return and assume.
 */
static struct svc_sock *svc_sock_setup(struct svc_serv *serv,
				       struct socket *sock,
				       const struct svc_sock_ops *ops,
				       void *class_data,
				       struct svc_sock *listener)
{
	struct sock	*sk = sock->sk;
	bool		temp = listener;
	struct svc_sock	*svsk;

	svsk = svc_obj_alloc(sizeof(*svsk), GFP_KERNEL | __GFP_ZERO);
	if (!svsk) {
		sock_release(sock);
		return ERR_PTR(-ENOMEM);
	}

	svsk->sk_sock = sock;
	svsk->sk_sk = sk;
	svsk->sk_server = serv;
	svsk->sk_ops = ops;
	svsk->sk_class_data = class_data;
#ifndef SVCSOCK_LWQ
	INIT_LIST_HEAD(&svsk->sk_ready);
#endif
	INIT_LIST_HEAD(&svsk->sk_list);
	mutex_init(&svsk->sk_sendmutex);
	INIT_LIST_HEAD(&svsk->sk_sendq);
	INIT_DELAYED_WORK(&svsk->sk_send_work, svc_send_worker);
	svsk->sk_lastrecv = jiffies;
	refcount_set(&svsk->sk_ref, 1);		/* the lists' reference */
	svc_sock_state_init(svsk, temp);
	svc_sock_owner_begin(svsk);		/* born busy: ours */
	ops->xpo_prepare(svsk);

	/* Publish: the lists first, so that a callback's enqueue finds a
	 * socket that teardown can reach; then sk_user_data and the
	 * callbacks together under sk_callback_lock, which the callbacks
	 * take to read sk_user_data.
	 */
	svc_spin_lock_bh(&serv->sv_lock, SVC_SV_LOCK);
	if (temp) {
		list_add_tail(&svsk->sk_list, &serv->sv_tempsocks);
		WRITE_ONCE(serv->sv_tmpcnt, serv->sv_tmpcnt + 1);
	} else {
		list_add_tail(&svsk->sk_list, &serv->sv_permsocks);
	}
	spin_unlock_bh(&serv->sv_lock);

	write_lock_bh(&sk->sk_callback_lock);
	svsk->sk_odata = temp ? listener->sk_odata : sk->sk_data_ready;
	svsk->sk_ostate = temp ? listener->sk_ostate : sk->sk_state_change;
	svsk->sk_owspace = sk->sk_write_space;
	sk->sk_user_data = svsk;
	ops->xpo_attach(svsk);
	write_unlock_bh(&sk->sk_callback_lock);

	return svsk;
}

/**
 * svc_setup_socket() - Wrap an accepted socket in a svc_sock
 * @serv: the service
 * @sock: the kernel socket
 * @listener: the listener @sock was accepted from
 *
 * Install our callbacks and put it on the service's lists.  The socket is
 * temporary and of the class the listener's class makes (xpo_accepted);
 * it inherited the listener's callbacks, so the ones to restore are those
 * the listener saved.  On failure the socket is released.
 *
 * The socket is born busy (svc_sock_state_init()): the calling thread owns
 * it, so a callback that fires as soon as it is published (a reset right
 * after the accept) only sets a flag and cannot hand it to another thread,
 * which could delete and free it under us.  The caller must hand it back
 * with svc_sock_precharge(), and must not touch it after that: it holds
 * no reference of its own, only the lists' one.
 *
 * Context: Process context, no locks held.
 *
 * Return: the new svc_sock, or ERR_PTR(-ENOMEM).
 */
struct svc_sock *svc_setup_socket(struct svc_serv *serv, struct socket *sock,
				  struct svc_sock *listener)
{
	return svc_sock_setup(serv, sock, listener->sk_ops->xpo_accepted,
			      NULL, listener);
}

/**
 * svc_setup_perm_socket() - Wrap a socket of the service's own in a svc_sock
 * @serv: the service
 * @sock: the kernel socket, bound (and listening, for a listener's class)
 * @ops: its class
 * @class_data: the class's own data for it (sk_class_data), or NULL;
 *	freed, if at all, by the class's xpo_free
 *
 * As svc_setup_socket(), for a permanent socket: one the service made,
 * on sv_permsocks until the service stops.  The socket is born busy, and
 * the caller must hand it back with svc_sock_precharge().
 *
 * Context: Process context, no locks held.
 *
 * Return: the new svc_sock, or ERR_PTR(-ENOMEM) (@sock released).
 */
struct svc_sock *svc_setup_perm_socket(struct svc_serv *serv,
				       struct socket *sock,
				       const struct svc_sock_ops *ops,
				       void *class_data)
{
	return svc_sock_setup(serv, sock, ops, class_data, NULL);
}

/**
 * svc_sock_enqueue() - Offer a socket that may have work to the threads
 * @svsk: the socket
 *
 * The build's own svc_build_enqueue(), timed: the time spent inside it
 * goes to the enqueue_ns_log2_K histogram of /proc/net/svcsock_BUILD
 * (the figure Chuck Lever measured for svc_xprt_enqueue() when lwq came
 * in: a mean of 1602 ns before, 914 ns after, at 8 threads).  The two
 * clock reads cost every build the same; under emulation the absolute
 * nanoseconds mean little, the ratios between builds do.
 *
 * Context: Any context, no locks held, as svc_build_enqueue() asks.
 */
void svc_sock_enqueue(struct svc_sock *svsk)
{
	u64 t0 = ktime_get_ns();

	svc_build_enqueue(svsk);
	svc_enqueue_time_count(ktime_get_ns() - t0);
}

/**
 * svc_sock_detach() - Put back the old socket callbacks
 * @svsk: the socket
 *
 * After this returns no callback of ours runs on the socket, or will: a
 * callback that had started holds the read side of sk_callback_lock.  Then
 * stop the send worker: with the callbacks gone nothing but a reply can
 * start it, and none is queued once sk_send_dead is set; a worker already
 * queued holds a reference, dropped here for it.  The replies still queued
 * are freed: the connection is going.  Idempotent.
 *
 * Context: Process context, with a reference held (the lists' one at
 * least); sleeps.
 */
void svc_sock_detach(struct svc_sock *svsk)
{
	struct sock *sk = svsk->sk_sk;

	write_lock_bh(&sk->sk_callback_lock);
	if (sk->sk_user_data == svsk) {
		sk->sk_data_ready = svsk->sk_odata;
		sk->sk_state_change = svsk->sk_ostate;
		sk->sk_write_space = svsk->sk_owspace;
		sk->sk_user_data = NULL;
	}
	write_unlock_bh(&sk->sk_callback_lock);

	mutex_lock(&svsk->sk_sendmutex);
	svsk->sk_send_dead = true;
	svc_send_drop(svsk);
	mutex_unlock(&svsk->sk_sendmutex);
	if (cancel_delayed_work_sync(&svsk->sk_send_work))
		svc_sock_put(svsk);
}

/* Release the socket and free the svc_sock.  The socket is detached,
 * off every list and unused.  Process context.
 */
static void svc_sock_free(struct svc_sock *svsk)
{
	if (svsk->sk_ops->xpo_free)
		svsk->sk_ops->xpo_free(svsk);
	sock_release(svsk->sk_sock);
	svc_obj_free(svsk->sk_rbuf);
	svc_obj_free(svsk);
}

/**
 * svc_sock_put() - Drop a reference
 * @svsk: the socket
 *
 * The last one is the lists' reference or the last user's after
 * svc_delete_socket() dropped that, so the socket is already detached and
 * off every list, and no callback can find it.  The last put frees it.
 *
 * Context: Process context, no locks held.
 */
void svc_sock_put(struct svc_sock *svsk)
{
	svc_stat_inc(SVC_STAT_FLAG_RMW);
	if (refcount_dec_and_test(&svsk->sk_ref))
		svc_sock_free(svsk);
}

/* A defence against a hostile or slow peer fired: count it, trace it. */
static void svc_sock_defence(struct svc_sock *svsk, enum svc_stat what)
{
	svc_stat_inc(what);
	trace_svcsock_defence(svsk, what);
}

/* Read up to len bytes without blocking: bytes read, -EAGAIN or error. */
static int svc_recv_bytes(struct svc_sock *svsk, void *buf, size_t len)
{
	struct kvec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr msg = { .msg_flags = MSG_DONTWAIT };
	int ret;

	ret = kernel_recvmsg(svsk->sk_sock, &msg, &iov, 1, len, MSG_DONTWAIT);
	if (ret > 0) {
		svc_stat_add(SVC_STAT_BYTES_IN, ret);
		WRITE_ONCE(svsk->sk_lastrecv, jiffies);
	}
	return ret;
}

/* Make sk_rbuf hold at least len bytes, keeping what it holds.  It at
 * least doubles, so a record costs a logarithmic number of copies, and
 * never exceeds max_record.
 */
static int svc_rbuf_reserve(struct svc_sock *svsk, size_t len)
{
	size_t size = max(len, 2 * svsk->sk_rbuf_size);
	u8 *buf;

	if (len <= svsk->sk_rbuf_size)
		return 0;
	size = min(size, svsk->sk_server->sv_max_record);
	buf = svc_obj_alloc(size, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	if (svsk->sk_datalen)
		memcpy(buf, svsk->sk_rbuf, svsk->sk_datalen);
	svc_obj_free(svsk->sk_rbuf);
	svsk->sk_rbuf = buf;
	svsk->sk_rbuf_size = size;
	return 0;
}

/* The TCP classes' xpo_data_queued: bytes in sk_receive_queue.  The
 * caller owns the socket's receive side and has just read from it; the
 * read took the socket's lock, so whatever was queued before the
 * callbacks that got the socket here is visible.
 */
static bool svc_tcp_data_queued(struct svc_sock *svsk)
{
	return !skb_queue_empty_lockless(&svsk->sk_sk->sk_receive_queue);
}

/* The UDP class's: a datagram may wait in UDP's reader_queue as well as
 * in sk_receive_queue.  As above; the read took the queue's lock.
 */
static bool svc_udp_data_queued(struct svc_sock *svsk)
{
	struct sock *sk = svsk->sk_sk;

	return !skb_queue_empty_lockless(&sk->sk_receive_queue) ||
	       !skb_queue_empty_lockless(&udp_sk(sk)->reader_queue);
}

/* Read the current fragment of the record, or as much of it as the socket
 * holds: its four-byte header, whose top bit marks the last fragment, and
 * its body.  Returns 0 when the fragment is whole (sk_tcplen back to 0,
 * sk_reclen its header), -EAGAIN when the socket ran dry first, or another
 * negative errno when the connection must be closed: the peer closed or
 * reset it, or the record would exceed max_record or SVC_MAX_FRAGS
 * fragments.  The record buffer grows with the bytes that arrive, not
 * with the length a header claims, so a peer that sends headers alone
 * pins no memory.  The caller owns the busy flag.
 */
static int svc_tcp_read_fragment(struct svc_sock *svsk)
{
	size_t	max = svsk->sk_server->sv_max_record;
	size_t	len, want;
	int	ret;

	if (svsk->sk_tcplen < 4) {
		ret = svc_recv_bytes(svsk,
				     (u8 *)&svsk->sk_marker + svsk->sk_tcplen,
				     4 - svsk->sk_tcplen);
		if (ret <= 0)
			return ret ? ret : -ECONNRESET;
		svsk->sk_tcplen += ret;
		if (svsk->sk_tcplen < 4)
			return -EAGAIN;
		svsk->sk_reclen = be32_to_cpu(svsk->sk_marker);
		len = svsk->sk_reclen & SVC_RECORD_LEN;
		if (len > max || svsk->sk_datalen + len > max) {
			svc_sock_defence(svsk, SVC_STAT_RECORDS_TOO_LARGE);
			net_dbg_ratelimited("record of %zu bytes too large\n",
					    svsk->sk_datalen + len);
			return -EMSGSIZE;
		}
		if (++svsk->sk_nfrags > SVC_MAX_FRAGS) {
			svc_sock_defence(svsk, SVC_STAT_FRAGS_TOO_MANY);
			net_dbg_ratelimited("record of over %u fragments\n",
					    SVC_MAX_FRAGS);
			return -EMSGSIZE;
		}
	}

	while ((len = (svsk->sk_reclen & SVC_RECORD_LEN) -
		      (svsk->sk_tcplen - 4))) {
		/* Room for what may come next: at most what is owed. */
		want = min(len, max_t(size_t, svsk->sk_datalen, SVC_RBUF_STEP));
		ret = svc_rbuf_reserve(svsk, svsk->sk_datalen + want);
		if (ret)
			return ret;
		want = min(len, svsk->sk_rbuf_size - svsk->sk_datalen);
		ret = svc_recv_bytes(svsk, svsk->sk_rbuf + svsk->sk_datalen,
				     want);
		if (ret <= 0)
			return ret ? ret : -ECONNRESET;
		svsk->sk_tcplen += ret;
		svsk->sk_datalen += ret;
	}
	svsk->sk_tcplen = 0;
	return 0;
}

/* The TCP class's xpo_read: read the current record, at most
 * SVC_FRAGS_PER_TURN fragments of it.  Process context; the caller owns
 * the busy flag.  Returns:
 *  - the length of the completed record, now copied to rqstp->rq_argbuf;
 *  - -EINPROGRESS when that many fragments are whole but the record is
 *    not: the socket may hold more, and the caller gives it back so that
 *    other sockets get a turn (a bounded read per hand-over: no peer
 *    holds a thread by streaming fragments);
 *  - -EAGAIN when the socket ran dry first (the partial record stays in
 *    sk_rbuf for the next owner; a hand-over that found not one byte is
 *    counted in wakeups_idle);
 *  - another negative errno when the connection must be closed.
 */
static int svc_tcp_read_record(struct svc_rqst *rqstp)
{
	struct svc_sock	*svsk = rqstp->rq_sock;
	u32		tcplen = svsk->sk_tcplen;
	size_t		datalen = svsk->sk_datalen;
	unsigned int	turn;
	size_t		len;
	int		ret;

	for (turn = 1; ; turn++) {
		ret = svc_tcp_read_fragment(svsk);
		if (ret == -EAGAIN && turn == 1 &&
		    svsk->sk_tcplen == tcplen && svsk->sk_datalen == datalen)
			svc_stat_inc(SVC_STAT_WAKEUPS_IDLE);
		if (ret)
			return ret;
		if (svsk->sk_reclen & SVC_RECORD_LAST)
			break;
		if (turn == SVC_FRAGS_PER_TURN) {
			svc_sock_defence(svsk, SVC_STAT_RECV_YIELD);
			return -EINPROGRESS;
		}
	}

	len = svsk->sk_datalen;
	if (len)
		memcpy(rqstp->rq_argbuf, svsk->sk_rbuf, len);
	rqstp->rq_arglen = len;
	svsk->sk_datalen = 0;
	svsk->sk_reclen = 0;
	svsk->sk_nfrags = 0;
	if (svsk->sk_rbuf_size > SVC_RBUF_KEEP) {
		svc_obj_free(svsk->sk_rbuf);
		svsk->sk_rbuf = NULL;
		svsk->sk_rbuf_size = 0;
	}
	return len;
}

/* Receive one datagram into rqstp->rq_argbuf without blocking.  Returns
 * its length (0 for an empty one), -EAGAIN when none is queued, or
 * another negative errno for what must be skipped: an ICMP error, or
 * -EMSGSIZE for a datagram larger than max_record, which was truncated
 * and must not be decoded.
 */
static int svc_udp_read_one(struct svc_rqst *rqstp)
{
	struct svc_sock	*svsk = rqstp->rq_sock;
	struct kvec	iov = {
		.iov_base = rqstp->rq_argbuf,
		.iov_len = svsk->sk_server->sv_max_record,
	};
	struct msghdr	msg = {
		.msg_name = &rqstp->rq_addr,
		.msg_namelen = sizeof(rqstp->rq_addr),
	};
	int		len;

	len = kernel_recvmsg(svsk->sk_sock, &msg, &iov, 1, iov.iov_len,
			     MSG_DONTWAIT);
	if (len < 0)
		return len;
	rqstp->rq_addrlen = msg.msg_namelen;
	if (msg.msg_flags & MSG_TRUNC) {
		svc_stat_inc(SVC_STAT_UDP_TRUNCATED);
		return -EMSGSIZE;
	}
	svc_stat_inc(SVC_STAT_UDP_DATAGRAMS);
	svc_stat_add(SVC_STAT_BYTES_IN, len);
	rqstp->rq_arglen = len;
	return len;
}

/* The UDP class's xpo_read: receive the next datagram worth decoding.
 * Process context; the caller owns the busy flag.  Returns its length,
 * -EAGAIN when none is queued, or -EINPROGRESS when SVC_UDP_SKIPS in a row
 * had to be skipped: the socket may hold more, but a flood of bad
 * datagrams must not hold the thread, so the caller gives the socket back
 * as after a read.
 */
static int svc_udp_read_datagram(struct svc_rqst *rqstp)
{
	int len, skips;

	for (skips = 0; skips < SVC_UDP_SKIPS; skips++) {
		len = svc_udp_read_one(rqstp);
		if (len == -EAGAIN && !skips)
			svc_stat_inc(SVC_STAT_WAKEUPS_IDLE);	/* nothing there */
		if (len >= 0 || len == -EAGAIN)
			return len;
	}
	return -EINPROGRESS;
}

/* The listener's xpo_read: a listener has no calls, and recvmsg() on it
 * says so.  The builds never read a listener (a listener handed over
 * with nothing to accept is given back unread); a build that did would
 * delete it, as the listenread mutants show.
 */
static int svc_tcp_listen_read(struct svc_rqst *rqstp)
{
	return -ENOTCONN;
}

/* The listener's xpo_accept: one connection, without blocking. */
static int svc_tcp_accept_one(struct svc_sock *svsk, struct socket **newsock)
{
	return kernel_accept(svsk->sk_sock, newsock, O_NONBLOCK);
}

/**
 * svc_sock_accept() - Accept one connection through the class, counted
 * @svsk: the listener
 * @newsock: where the accepted socket goes
 *
 * Context: Process context; the caller owns the listener's busy flag.
 *
 * Return: 0 with the new socket in *@newsock, or a negative errno (-EAGAIN
 * when no connection was waiting).
 */
int svc_sock_accept(struct svc_sock *svsk, struct socket **newsock)
{
	int err;

	err = svsk->sk_ops->xpo_accept(svsk, newsock);
	if (err == -EAGAIN)
		svc_stat_inc(SVC_STAT_WAKEUPS_IDLE);	/* nothing there */
	if (err < 0) {
		if (err != -EAGAIN)
			net_warn_ratelimited("accept failed (err %d)!\n", -err);
		return err;
	}
	svc_stat_inc(SVC_STAT_TCP_ACCEPTED);
	trace_svcsock_accept(svsk);
	return 0;
}

/**
 * svc_check_conn_limits() - Keep at most max_conns accepted sockets
 * @serv: the service
 *
 * With more than max_conns accepted sockets, ask the one that has been
 * idle longest to close, as svc_check_conn_limits() did.  Sockets already
 * asked are skipped and not counted: they close when a thread gets to
 * them, and a burst of connections must not pick the same one again.
 *
 * Context: Process context, no locks held.
 */
void svc_check_conn_limits(struct svc_serv *serv)
{
	struct svc_sock	*svsk, *oldest = NULL;
	unsigned int	culled = 0;

	if (READ_ONCE(serv->sv_tmpcnt) <= READ_ONCE(serv->sv_max_conns))
		return;		/* the common case: no scan, no lock */

	svc_spin_lock_bh(&serv->sv_lock, SVC_SV_LOCK);
	list_for_each_entry(svsk, &serv->sv_tempsocks, sk_list) {
		if (svsk->sk_culled)
			culled++;
		else if (!oldest ||
			 time_before(READ_ONCE(svsk->sk_lastrecv),
				     READ_ONCE(oldest->sk_lastrecv)))
			oldest = svsk;
	}
	if (oldest &&
	    serv->sv_tmpcnt - culled > READ_ONCE(serv->sv_max_conns)) {
		oldest->sk_culled = true;
		svc_sock_get(oldest);
	} else {
		oldest = NULL;
	}
	spin_unlock_bh(&serv->sv_lock);

	if (oldest) {
		net_info_ratelimited("too many open TCP sockets, closing one\n");
		svc_stat_inc(SVC_STAT_TCP_REFUSED);
		svc_sock_set_close(oldest);
		svc_sock_put(oldest);
	}
}

/**
 * svc_age_temp_sockets() - Close the accepted sockets idle for too long
 * @work: the service's sv_age_work
 *
 * Close the accepted sockets that have received nothing for idle_timeout
 * seconds, as 6.1's svc_age_temp_xprts() does: a peer that connects,
 * sends a header or nothing and goes quiet holds a socket and its buffers
 * only that long.  Like svc_check_conn_limits(), a socket already asked
 * to close is skipped; the others are marked, referenced under sv_lock
 * and closed after it, a batch at a time.
 *
 * Context: Runs from the system workqueue, process context, and re-arms
 * itself while the timeout is set; svcsock_exit() cancels it before the
 * threads stop.
 */
void svc_age_temp_sockets(struct work_struct *work)
{
	struct svc_serv	*serv = container_of(to_delayed_work(work),
					     struct svc_serv, sv_age_work);
	/* At most a week of jiffies (svc_server.c): no wrap. */
	unsigned long	timeout =
		(unsigned long)READ_ONCE(serv->sv_idle_timeout) * HZ;
	struct svc_sock	*svsk, *batch[16];
	unsigned int	i, n;

	if (!timeout)
		return;
	do {
		n = 0;
		svc_spin_lock_bh(&serv->sv_lock, SVC_SV_LOCK);
		list_for_each_entry(svsk, &serv->sv_tempsocks, sk_list) {
			if (svsk->sk_culled ||
			    time_before(jiffies,
					READ_ONCE(svsk->sk_lastrecv) + timeout))
				continue;
			svsk->sk_culled = true;
			svc_sock_get(svsk);
			batch[n++] = svsk;
			if (n == ARRAY_SIZE(batch))
				break;
		}
		spin_unlock_bh(&serv->sv_lock);

		for (i = 0; i < n; i++) {
			svc_sock_defence(batch[i], SVC_STAT_IDLE_CLOSED);
			svc_sock_set_close(batch[i]);
			svc_sock_put(batch[i]);
		}
	} while (n == ARRAY_SIZE(batch));

	queue_delayed_work(system_wq, &serv->sv_age_work,
			   clamp_t(unsigned long, timeout / 2, HZ, 60 * HZ));
}

/* --- Replies on TCP ----------------------------------------------------
 *
 * A server thread never waits for a peer to read.  svcsock_send() gives
 * the socket what it takes at once (MSG_DONTWAIT); what it does not take
 * is copied to sk_sendq, and the send worker (svc_send_worker(), on
 * system_wq) sends the rest: the write-space callback runs it as soon as
 * the peer has read enough for TCP to call the socket writeable
 * (svc_sock_send_resume()), and it runs by itself every SVC_SEND_BOUND as
 * a watchdog.  So whatever the peer does, a reply costs a thread one
 * non-blocking pass over the socket and at most one copy of the reply.
 * READ's bytes from the export's cache go by reference to their pages
 * (svc_tcp_send_page()), the rest by copy; sk_sendq always copies.
 * sk_sendmutex keeps each reply whole and the replies in order on the
 * stream, and is only ever held across such non-blocking steps: a thread
 * that waits for it waits for another's copy, never for the peer, so no
 * thread waits on a connection's sends for longer than that.
 *
 * While sk_sendq holds bytes the connection is not read
 * (svc_sock_has_wspace()), so a peer has queued at most the replies to
 * the calls read before its first one had to wait: one per thread, each
 * at most max_record + 64 bytes, and for ECHO about the size of the call
 * it sent.  Nor is it read while the socket itself holds more than
 * SVC_WMEM_QUEUED of replies or had no room (svc_send_backlogged()), and
 * from the first reply that leaves it so the worker watches the peer
 * (svc_send_watch()): TCP's snd_una tells how many of our bytes it has
 * taken.  A peer that, while backlogged, takes fewer than
 * SVC_SEND_MIN_RATE bytes a second over a watchdog period of
 * SVC_SEND_BOUND (it does not read, or reads a trickle) is closed
 * (slow_reader_closed), at most two periods after it slowed down.  An
 * honest client that reads at SVC_SEND_MIN_RATE or faster is never closed
 * for being slow, and costs no thread time while it reads; what it costs
 * is its replies' memory, which it sent us the calls for.
 *
 * The listener and the UDP socket never queue: UDP replies are sent or
 * dropped at once.
 */
struct svc_send_buf {
	struct list_head	sb_list;	/* on sk_sendq */
	size_t			sb_len;		/* bytes in sb_data */
	size_t			sb_sent;	/* of which sent */
	u8			sb_data[];
};

/* The TCP class's xpo_has_wspace: is there room for another reply?  A
 * connected socket is not read while replies wait in sk_sendq (above),
 * nor while a send found no room (SOCK_NOSPACE, 6.1's
 * svc_tcp_has_wspace()), nor while more than SVC_WMEM_QUEUED of replies
 * wait unsent or unacked in the socket: a peer that does not read its
 * replies gets no more calls read, and so holds neither a thread nor more
 * memory than that and the calls it sent.  To be told when that changes,
 * set SOCK_NOSPACE: then each ACK calls the write-space callback, which
 * clears it once TCP sees room and calls svc_sock_enqueue()
 * (svc_tcp_write_space()).  It is set before the second look, with a full
 * barrier between, against tcp_check_space()'s smp_mb() between its store
 * of sk_wmem_queued and its test of the bit: either that ACK sees the bit,
 * or the second look sees the ACK.
 *
 * Any context; lockless reads.
 */
static bool svc_tcp_has_wspace(struct svc_sock *svsk)
{
	struct socket *sock = svsk->sk_sock;

	if (READ_ONCE(svsk->sk_sendq_bytes)) {
		/* Pairs with the smp_mb() in svc_send_worker() between
		 * emptying sk_sendq and svc_sock_send_drained(): our caller
		 * marked the data before asking, so either we see the queue
		 * empty now or the worker's enqueue sees the data.
		 */
		smp_mb();
		if (READ_ONCE(svsk->sk_sendq_bytes))
			return false;
	}
	if (test_bit(SOCK_NOSPACE, &sock->flags))
		return false;
	if (READ_ONCE(svsk->sk_sk->sk_wmem_queued) <= SVC_WMEM_QUEUED)
		return true;
	set_bit(SOCK_NOSPACE, &sock->flags);
	/* Pairs with the smp_mb() in tcp_check_space(): see above. */
	smp_mb__after_atomic();
	return READ_ONCE(svsk->sk_sk->sk_wmem_queued) <= SVC_WMEM_QUEUED;
}

/* Is this kvec (or what is left of it) within @ref, the bytes sent by
 * reference?
 */
static bool svc_tcp_is_ref(const struct kvec *iov, const struct kvec *ref)
{
	return ref && iov->iov_base >= ref->iov_base &&
	       iov->iov_base < ref->iov_base + ref->iov_len;
}

/* Give the socket, by reference, the bytes of @iov that lie in its first
 * page: returns what it took or a negative errno, as sendmsg() does.
 * Those bytes are vmalloc()ed and stay as they are until the module
 * unloads (svc_export_contents()); TCP takes a reference on the page for
 * each skb it puts the page in, so the page outlives our vfree() until the
 * last such skb is freed, as nfsd's page-cache pages do under 6.1's
 * svc_tcp_sendmsg().
 */
static int svc_tcp_send_page(struct socket *sock, const struct kvec *iov,
			     int flags)
{
	size_t off = offset_in_page(iov->iov_base);
	size_t len = min_t(size_t, iov->iov_len, PAGE_SIZE - off);

	return kernel_sendpage(sock, vmalloc_to_page(iov->iov_base), off, len,
			       flags);
}

/* Give the socket what it takes now of the kvecs' total bytes (at most a
 * record marker and a reply's, left as they are), never waiting for room:
 * returns the bytes it took; *err is 0, or the error that ends the stream
 * (never -EAGAIN).  The kvec @ref, if not NULL, is one of them whose bytes
 * go by reference to their pages (svc_tcp_send_page()); the rest are
 * copied.  Every send but the last says more follows, so that TCP fills
 * its segments across them.  The caller holds sk_sendmutex.
 */
static size_t svc_tcp_send_nowait(struct svc_sock *svsk,
				  const struct kvec *vec, int nvec,
				  size_t total, const struct kvec *ref,
				  int *err)
{
	struct kvec	left[1 + SVC_REPLY_KVECS], *iov = left;
	struct msghdr	msg = { };
	size_t		sent = 0, len;
	int		flags, n, ret;

	memcpy(left, vec, nvec * sizeof(*vec));
	*err = 0;
	while (sent < total) {
		flags = MSG_NOSIGNAL | MSG_DONTWAIT;
		if (svc_tcp_is_ref(iov, ref)) {
			len = min_t(size_t, iov->iov_len,
				    PAGE_SIZE - offset_in_page(iov->iov_base));
			if (sent + len < total)
				flags |= MSG_SENDPAGE_NOTLAST;
			ret = svc_tcp_send_page(svsk->sk_sock, iov, flags);
		} else {
			/* The kvecs up to the next sent by reference. */
			len = iov->iov_len;
			for (n = 1; n < nvec && !svc_tcp_is_ref(&iov[n], ref);
			     n++)
				len += iov[n].iov_len;
			msg.msg_flags = flags | (sent + len < total ? MSG_MORE : 0);
			ret = kernel_sendmsg(svsk->sk_sock, &msg, iov, n, len);
		}
		if (ret <= 0) {
			if (ret != -EAGAIN)
				*err = ret ? ret : -EPIPE;
			break;
		}
		svc_stat_add(SVC_STAT_BYTES_OUT, ret);
		if (svc_tcp_is_ref(iov, ref))
			svc_stat_add(SVC_STAT_BYTES_OUT_BY_REF, ret);
		sent += ret;
		/* Step over what went. */
		while (nvec && ret >= iov->iov_len) {
			ret -= iov->iov_len;
			iov++;
			nvec--;
		}
		if (nvec) {
			iov->iov_base += ret;
			iov->iov_len -= ret;
		}
	}
	return sent;
}

/* Run the send worker after delay jiffies, or sooner if it is already
 * due; with now, run it at once.  A queued worker holds a reference,
 * which it drops when it has run.  The caller holds a reference or runs
 * under sk_callback_lock with the socket attached (the lists' reference
 * is then held), so the put here is never the last.  Any context.
 */
static void svc_send_kick(struct svc_sock *svsk, unsigned long delay,
			  bool now)
{
	bool pending;

	svc_sock_get(svsk);
	if (now)
		pending = mod_delayed_work(system_wq, &svsk->sk_send_work, 0);
	else
		pending = !queue_delayed_work(system_wq, &svsk->sk_send_work,
					      delay);
	if (pending)
		svc_sock_put(svsk);	/* the queued worker holds one */
}

/* Does the connection wait for its peer to read?  Replies wait in
 * sk_sendq, or the socket had no room for one, or holds more than
 * SVC_WMEM_QUEUED: svc_sock_has_wspace() keeps it from being read.  The
 * caller holds sk_sendmutex.
 */
static bool svc_send_backlogged(struct svc_sock *svsk)
{
	return !list_empty(&svsk->sk_sendq) ||
	       test_bit(SOCK_NOSPACE, &svsk->sk_sock->flags) ||
	       READ_ONCE(svsk->sk_sk->sk_wmem_queued) > SVC_WMEM_QUEUED;
}

/* Start watching a backlogged connection's peer, unless the worker does
 * already: the first period starts now.  The caller holds sk_sendmutex
 * and a reference.
 */
static void svc_send_watch(struct svc_sock *svsk)
{
	if (svsk->sk_send_watching)
		return;
	svsk->sk_send_watching = true;
	svsk->sk_send_una = READ_ONCE(tcp_sk(svsk->sk_sk)->snd_una);
	svsk->sk_send_since = jiffies;
	/* The watchdog; a write-space callback may run it sooner. */
	svc_send_kick(svsk, SVC_SEND_BOUND, false);
}

/* A watchdog period has ended if SVC_SEND_BOUND has passed since it
 * started: did the peer take SVC_SEND_MIN_RATE bytes a second in it?
 * Starts the next period.  The caller holds sk_sendmutex.
 */
static bool svc_send_too_slow(struct svc_sock *svsk)
{
	unsigned long	elapsed = jiffies - svsk->sk_send_since;
	u32		una = READ_ONCE(tcp_sk(svsk->sk_sk)->snd_una);
	u64		need;

	if (elapsed < SVC_SEND_BOUND)
		return false;
	need = div_u64((u64)SVC_SEND_MIN_RATE * elapsed, HZ);
	if (una - svsk->sk_send_una < need)
		return true;
	svsk->sk_send_una = una;
	svsk->sk_send_since = jiffies;
	return false;
}

/* Queue bytes [skip, total) of the kvecs for the send worker, and watch
 * the peer.  The caller holds sk_sendmutex and a reference; process
 * context.
 */
static int svc_send_park(struct svc_sock *svsk, const struct kvec *iov,
			 size_t skip, size_t total)
{
	size_t			len = total - skip, off = 0;
	struct svc_send_buf	*sb;

	sb = svc_obj_alloc(struct_size(sb, sb_data, len), GFP_KERNEL);
	if (!sb)
		return -ENOMEM;
	sb->sb_len = len;
	sb->sb_sent = 0;
	for (; off < len; iov++) {
		size_t n = iov->iov_len;

		if (skip >= n) {
			skip -= n;
			continue;
		}
		n -= skip;
		memcpy(sb->sb_data + off, iov->iov_base + skip, n);
		off += n;
		skip = 0;
	}

	svc_send_watch(svsk);
	list_add_tail(&sb->sb_list, &svsk->sk_sendq);
	WRITE_ONCE(svsk->sk_sendq_bytes, svsk->sk_sendq_bytes + len);
	svc_sock_defence(svsk, SVC_STAT_SEND_PARKED);
	return 0;
}

/* Free what sk_sendq holds.  The caller holds sk_sendmutex, or the last
 * reference.
 */
static void svc_send_drop(struct svc_sock *svsk)
{
	struct svc_send_buf *sb, *next;

	list_for_each_entry_safe(sb, next, &svsk->sk_sendq, sb_list) {
		list_del(&sb->sb_list);
		svc_obj_free(sb);
	}
	WRITE_ONCE(svsk->sk_sendq_bytes, 0);
}

/* Send what sk_sendq holds, in order, while the socket takes it: 0, or
 * the error that ends the stream.  The caller holds sk_sendmutex.
 */
static int svc_send_flush(struct svc_sock *svsk)
{
	struct svc_send_buf	*sb, *next;
	struct kvec		iov;
	size_t			sent;
	int			err = 0;

	list_for_each_entry_safe(sb, next, &svsk->sk_sendq, sb_list) {
		iov.iov_base = sb->sb_data + sb->sb_sent;
		iov.iov_len = sb->sb_len - sb->sb_sent;
		sent = svc_tcp_send_nowait(svsk, &iov, 1, iov.iov_len, NULL,
					   &err);
		sb->sb_sent += sent;
		WRITE_ONCE(svsk->sk_sendq_bytes, svsk->sk_sendq_bytes - sent);
		if (err || sb->sb_sent < sb->sb_len)
			break;
		list_del(&sb->sb_list);
		svc_obj_free(sb);
	}
	return err;
}

/* The send worker: send what waits in sk_sendq, and judge the peer by
 * whether it takes our bytes (above).  Once the connection is no longer
 * backlogged it may be read again: the build enqueues it
 * (svc_sock_send_drained()), for a call that arrived while it could not
 * be, and the worker stops watching.  Process context, from
 * system_wq; holds the reference that svc_send_kick() took.
 */
static void svc_send_worker(struct work_struct *work)
{
	struct svc_sock	*svsk = container_of(to_delayed_work(work),
					     struct svc_sock, sk_send_work);
	bool		drained = false, slow = false;
	int		err;

	mutex_lock(&svsk->sk_sendmutex);
	if (svsk->sk_send_dead) {
		mutex_unlock(&svsk->sk_sendmutex);
		svc_sock_put(svsk);
		return;
	}
	err = svc_send_flush(svsk);
	if (!err && !svc_send_backlogged(svsk)) {
		svsk->sk_send_watching = false;
		drained = true;
	} else if (!err && svsk->sk_send_watching) {
		slow = svc_send_too_slow(svsk);
		if (!slow)
			svc_send_kick(svsk, SVC_SEND_BOUND, false);
	}
	/* An error or a slow peer leaves the queue as it is, so the socket
	 * is not read again; svc_sock_detach() frees it.
	 */
	mutex_unlock(&svsk->sk_sendmutex);

	if (slow) {
		svc_sock_defence(svsk, SVC_STAT_SLOW_READER_CLOSED);
		net_dbg_ratelimited("peer not reading its replies, closing\n");
		svc_sock_set_close(svsk);
	} else if (err) {
		svc_stat_inc(SVC_STAT_SEND_ERRORS);
		svc_sock_set_close(svsk);
	} else if (drained) {
		/* Pairs with the smp_mb() in svc_sock_has_wspace(). */
		smp_mb();
		svc_sock_send_drained(svsk);
	}
	svc_sock_put(svsk);
}

/**
 * svc_sock_send_resume() - Run the send worker when room has come back
 * @svsk: the connected socket
 *
 * The peer made room in a connected socket's send buffer: if replies wait
 * for it, run the send worker now.  Only once TCP calls the socket
 * writeable (the hysteresis sk_stream_write_space() wakes writers by), not
 * on every ACK of a peer that reads a few bytes at a time.
 *
 * Context: Called by the builds' svc_tcp_write_space() under
 * sk_callback_lock with the socket attached; softirq or process context,
 * never sleeps.
 */
void svc_sock_send_resume(struct svc_sock *svsk)
{
	if (READ_ONCE(svsk->sk_sendq_bytes) &&
	    sk_stream_is_writeable(svsk->sk_sk))
		svc_send_kick(svsk, 0, true);
}

/* The UDP class's xpo_sendto: one datagram to the caller's address, sent
 * or dropped at once.  Process context; the caller holds a reference.
 */
static int svc_udp_sendto(struct svc_rqst *rqstp)
{
	struct kvec	iov[SVC_REPLY_KVECS];
	struct msghdr	msg = {
		.msg_name = &rqstp->rq_addr,
		.msg_namelen = rqstp->rq_addrlen,
		.msg_flags = MSG_NOSIGNAL | MSG_DONTWAIT,
	};
	size_t		total;
	int		nvec, ret;

	nvec = svc_reply_kvecs(rqstp, iov, &total);
	ret = kernel_sendmsg(rqstp->rq_sock->sk_sock, &msg, iov, nvec, total);
	if (ret < 0) {
		svc_stat_inc(SVC_STAT_SEND_ERRORS);
		return ret;
	}
	svc_stat_add(SVC_STAT_BYTES_OUT, ret);
	return 0;
}

/* The TCP class's xpo_sendto: the record marker goes in front; the
 * socket gets what it takes at once and the rest waits in sk_sendq behind
 * any reply already waiting there ("Replies on TCP").  A reply that
 * cannot be queued (no memory) closes the connection, since the stream
 * would be out of step, and so does a send error; a socket found closing
 * or detached gets no reply.  Process context; the caller holds a
 * reference.
 */
static int svc_tcp_sendto(struct svc_rqst *rqstp)
{
	struct svc_sock	*svsk = rqstp->rq_sock;
	struct kvec	iov[1 + SVC_REPLY_KVECS];
	size_t		total, sent = 0;
	__be32		marker;
	int		nvec, ret;

	nvec = 1 + svc_reply_kvecs(rqstp, iov + 1, &total);
	marker = cpu_to_be32(SVC_RECORD_LAST | total);
	iov[0].iov_base = &marker;
	iov[0].iov_len = sizeof(marker);
	total += sizeof(marker);

	mutex_lock(&svsk->sk_sendmutex);
	if (svsk->sk_send_dead || svc_sock_is_closing(svsk)) {
		/* A send before ours failed, or the peer went: no reply. */
		mutex_unlock(&svsk->sk_sendmutex);
		return -ENOTCONN;
	}
	ret = 0;
	if (list_empty(&svsk->sk_sendq))
		sent = svc_tcp_send_nowait(svsk, iov, nvec, total,
					   rqstp->rq_resdata ? &iov[2] : NULL,
					   &ret);
	if (!ret && sent < total)
		ret = svc_send_park(svsk, iov, sent, total);
	else if (!ret && svc_send_backlogged(svsk))
		svc_send_watch(svsk);
	mutex_unlock(&svsk->sk_sendmutex);

	if (ret) {
		svc_stat_inc(SVC_STAT_SEND_ERRORS);
		svc_sock_set_close(svsk);
		return ret;
	}
	return 0;
}

/**
 * svc_sock_release() - Drop the thread's use of its socket
 * @rqstp: the thread
 *
 * Context: Process context.
 */
void svc_sock_release(struct svc_rqst *rqstp)
{
	struct svc_sock *svsk = rqstp->rq_sock;

	rqstp->rq_sock = NULL;
	svc_sock_put(svsk);
}

/* Make, bind and set up one permanent socket of class ops at addr (IPv4
 * or IPv6, its port set): a listener (backlog > 0, TCP) or a UDP socket
 * (backlog 0).  Process context.
 */
static int svc_create_socket(struct svc_serv *serv,
			     const struct svc_sock_ops *ops, int type,
			     int protocol, int backlog,
			     const struct sockaddr *addr, int addrlen)
{
	struct svc_sock *svsk;
	struct socket *sock;
	int err;

	err = sock_create_kern(&init_net, addr->sa_family, type, protocol,
			       &sock);
	if (err < 0)
		return err;
	/* The listener only: on UDP, SO_REUSEADDR would let any local user
	 * bind the same address beside us and take our callers' datagrams.
	 */
	if (backlog)
		sock_set_reuseaddr(sock->sk);
	/* An IPv6 socket takes IPv6 alone, so that bind=:: and bind=0.0.0.0
	 * can be served side by side on one port.
	 */
	if (addr->sa_family == AF_INET6)
		ip6_sock_set_v6only(sock->sk);
	/* Built in, the server starts before init brings lo up, when
	 * 127.0.0.1 and ::1 are not yet local addresses: bind to them anyway
	 * (IP_FREEBIND, which IPv6 obeys too), and the socket receives once
	 * they are.  Loaded as a module, a wrong bind= fails here with
	 * -EADDRNOTAVAIL instead.
	 */
	if (system_state < SYSTEM_RUNNING)
		ip_sock_set_freebind(sock->sk);
	err = kernel_bind(sock, (struct sockaddr *)addr, addrlen);
	if (!err && backlog)
		err = kernel_listen(sock, backlog);
	if (err < 0) {
		sock_release(sock);
		return err;
	}

	svsk = svc_setup_perm_socket(serv, sock, ops, NULL);
	if (IS_ERR(svsk))
		return PTR_ERR(svsk);
	svc_sock_precharge(svsk);
	return 0;
}

/**
 * svc_create_sockets() - Create a UDP socket and a TCP listener
 * @serv: the service
 * @addr: the IPv4 or IPv6 address and port to bind them to
 * @addrlen: its length
 *
 * Called once for each address served; svc_close_all() deletes them all.
 *
 * Context: Process context.
 *
 * Return: 0, or a negative errno.
 */
int svc_create_sockets(struct svc_serv *serv, const struct sockaddr *addr,
		       int addrlen)
{
	int err;

	err = svc_create_socket(serv, &svc_udp_ops, SOCK_DGRAM, IPPROTO_UDP,
				0, addr, addrlen);
	if (!err)
		err = svc_create_socket(serv, &svc_tcp_listen_ops, SOCK_STREAM,
					IPPROTO_TCP, 64, addr, addrlen);
	return err;
}

/**
 * svc_close_all() - Delete every socket
 * @serv: the service
 *
 * Context: Process context.  Every thread has stopped, so nothing else
 * owns a socket or can enqueue one: a deleted socket's callbacks are gone,
 * and a live one's only enqueue it.
 */
void svc_close_all(struct svc_serv *serv)
{
	struct svc_sock *svsk;

	for (;;) {
		spin_lock_bh(&serv->sv_lock);
		svsk = list_first_entry_or_null(&serv->sv_tempsocks,
						struct svc_sock, sk_list);
		if (!svsk)
			svsk = list_first_entry_or_null(&serv->sv_permsocks,
							struct svc_sock,
							sk_list);
		spin_unlock_bh(&serv->sv_lock);
		if (!svsk)
			break;
		svc_delete_socket(svsk);
	}
}

/* --- The transport classes of real sockets ------------------------------
 *
 * What differs between a UDP socket, a TCP listener and an accepted TCP
 * connection, and nothing else.  The xpo_recvfrom and the callbacks are
 * the build's (xprt_<strategy>.c): they hold its locking rules.
 */

/**
 * svc_sock_always_wspace() - xpo_has_wspace of a class that never waits
 * @svsk: the socket
 *
 * A UDP reply is sent or dropped at once, and a listener sends nothing:
 * neither waits for room.
 *
 * Context: Any context.
 *
 * Return: true.
 */
bool svc_sock_always_wspace(struct svc_sock *svsk)
{
	return true;
}

/* A listener sends nothing: its class's xpo_sendto is never called with a
 * call to answer, since it reads none.
 */
static int svc_tcp_listen_sendto(struct svc_rqst *rqstp)
{
	return -EOPNOTSUPP;
}

/* The listener keeps TCP's buffers (svc_udp_prepare() says why). */
static void svc_tcp_listen_prepare(struct svc_sock *svsk)
{
}

/* An accepted connection: replies leave at once (TCP_NODELAY), as one
 * record each.
 */
static void svc_tcp_prepare(struct svc_sock *svsk)
{
	tcp_sock_set_nodelay(svsk->sk_sk);
}

/* The xpo_attach of each class: the build's callbacks.  The caller holds
 * the write side of sk_callback_lock, with bottom halves disabled, and
 * owns the new socket (born busy).
 */
static void svc_udp_attach(struct svc_sock *svsk)
{
	svsk->sk_sk->sk_data_ready = svc_udp_data_ready;
}

static void svc_tcp_listen_attach(struct svc_sock *svsk)
{
	svsk->sk_sk->sk_data_ready = svc_tcp_listen_data_ready;
}

/* An accepted connection may have died before our state_change callback
 * was there.  We own it, so svc_sock_set_close() only sets the flag; the
 * precharge hands it over.
 */
static void svc_tcp_attach(struct svc_sock *svsk)
{
	struct sock *sk = svsk->sk_sk;

	sk->sk_data_ready = svc_tcp_data_ready;
	sk->sk_state_change = svc_tcp_state_change;
	sk->sk_write_space = svc_tcp_write_space;
	if (sk->sk_state != TCP_ESTABLISHED)
		svc_sock_set_close(svsk);
}

/* An accepted connection is counted closed when it is freed. */
static void svc_tcp_free(struct svc_sock *svsk)
{
	svc_stat_inc(SVC_STAT_TCP_CLOSED);
}

const struct svc_sock_ops svc_udp_ops = {
	.xpo_name		= "udp",
	.xpo_recvfrom		= svc_udp_recvfrom,
	.xpo_read		= svc_udp_read_datagram,
	.xpo_data_queued	= svc_udp_data_queued,
	.xpo_has_wspace		= svc_sock_always_wspace,
	.xpo_sendto		= svc_udp_sendto,
	/* the most an IPv4 datagram carries: 65535, less the IP and UDP
	 * headers (IPv6's payload length leaves more)
	 */
	.xpo_max_reply		= 65535 - 20 - 8,
	.xpo_prepare		= svc_udp_prepare,
	.xpo_attach		= svc_udp_attach,
};

const struct svc_sock_ops svc_tcp_listen_ops = {
	.xpo_name		= "tcp-listener",
	.xpo_recvfrom		= svc_tcp_recvfrom,
	.xpo_read		= svc_tcp_listen_read,
	.xpo_accept		= svc_tcp_accept_one,
	.xpo_accepted		= &svc_tcp_ops,
	.xpo_data_queued	= svc_tcp_data_queued,
	.xpo_has_wspace		= svc_sock_always_wspace,
	.xpo_sendto		= svc_tcp_listen_sendto,
	.xpo_prepare		= svc_tcp_listen_prepare,
	.xpo_attach		= svc_tcp_listen_attach,
};

const struct svc_sock_ops svc_tcp_ops = {
	.xpo_name		= "tcp",
	.xpo_recvfrom		= svc_tcp_recvfrom,
	.xpo_read		= svc_tcp_read_record,
	.xpo_data_queued	= svc_tcp_data_queued,
	.xpo_has_wspace		= svc_tcp_has_wspace,
	.xpo_sendto		= svc_tcp_sendto,
	.xpo_prepare		= svc_tcp_prepare,
	.xpo_attach		= svc_tcp_attach,
	.xpo_free		= svc_tcp_free,
};
