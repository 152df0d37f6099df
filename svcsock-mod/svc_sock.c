// SPDX-License-Identifier: GPL-2.0
/*
 * The socket machinery every locking build shares: creating and setting
 * up sockets, reading TCP records and UDP datagrams, sending replies,
 * connection limits and teardown.  None of it touches a socket's state
 * flags: where the state must change it calls the build's functions
 * (xprt_<strategy>.c), whose opening comment gives the rules.
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
#include <linux/kthread.h>
#include <linux/workqueue.h>
#include <net/sock.h>
#include <net/ip.h>
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
#define SVC_SEND_BOUND		HZ		/* a reply may wait this long... */
#define SVC_SEND_SLICE		(HZ / 10)	/* ...in slices this long */
#define SVC_UDP_SKIPS		16		/* bad datagrams skipped per read */
#define SVC_WMEM_QUEUED		(256 * 1024)	/* replies queued, then stop reading */

/* Give the UDP socket room for a whole record in each direction, as the
 * 2002 server's svc_sock_setbufsize() did, and for many small calls
 * beside a large one (at least 1 MiB) whatever max_record is.  Not the TCP listener: its
 * accepted sockets would inherit the locked sizes, and a thousand idle
 * connections would each be allowed 2 x max_record of queued data.
 * They keep TCP's autotuned buffers instead.
 */
static void svc_sock_setbufsize(struct socket *sock, size_t bytes)
{
	struct sock *sk = sock->sk;
	int size = clamp_t(size_t, 2 * bytes, SZ_1M, INT_MAX / 2);

	lock_sock(sk);
	sk->sk_sndbuf = size;
	sk->sk_rcvbuf = size;
	sk->sk_userlocks |= SOCK_SNDBUF_LOCK | SOCK_RCVBUF_LOCK;
	sk->sk_write_space(sk);
	release_sock(sk);
}

/* Wrap a kernel socket in a svc_sock, install our callbacks and put it on
 * the service's lists.  A socket accepted from listener is temporary; it
 * inherited the listener's callbacks, so the ones to restore are those the
 * listener saved.  Process context, no locks held.  On failure the socket
 * is released.
 *
 * The socket is born busy (svc_sock_state_init()): the calling thread owns
 * it, so a callback that fires as soon as it is published (a reset right
 * after the accept) only sets a flag and cannot hand it to another thread,
 * which could delete and free it under us.  The caller must hand it back
 * with svc_sock_precharge(), and must not touch it after that: it holds
 * no reference of its own, only the lists' one.
 */
struct svc_sock *svc_setup_socket(struct svc_serv *serv, struct socket *sock,
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
#ifndef SVCSOCK_LWQ
	INIT_LIST_HEAD(&svsk->sk_ready);
#endif
	INIT_LIST_HEAD(&svsk->sk_list);
	mutex_init(&svsk->sk_sendmutex);
	svsk->sk_lastrecv = jiffies;
	refcount_set(&svsk->sk_ref, 1);		/* the lists' reference */
	svc_sock_state_init(svsk, temp);

	if (sock->type == SOCK_STREAM)
		tcp_sock_set_nodelay(sk);
	else
		svc_sock_setbufsize(sock, serv->sv_max_record);

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
	if (sock->type == SOCK_DGRAM) {
		svsk->sk_recvfrom = svc_udp_recvfrom;
		sk->sk_data_ready = svc_udp_data_ready;
	} else if (sk->sk_state == TCP_LISTEN) {
		svsk->sk_recvfrom = svc_tcp_recvfrom;
		sk->sk_data_ready = svc_tcp_listen_data_ready;
	} else {
		svsk->sk_recvfrom = svc_tcp_recvfrom;
		sk->sk_data_ready = svc_tcp_data_ready;
		sk->sk_state_change = svc_tcp_state_change;
		sk->sk_write_space = svc_tcp_write_space;
	}
	sk->sk_user_data = svsk;
	write_unlock_bh(&sk->sk_callback_lock);

	/* It may have died before our state_change callback was there.  We
	 * own it, so this only sets the flag; the precharge hands it over.
	 */
	if (temp && sk->sk_state != TCP_ESTABLISHED)
		svc_sock_set_close(svsk);

	return svsk;
}

/* Put back the old socket callbacks.  After this returns no callback of
 * ours runs on the socket, or will: a callback that had started holds
 * the read side of sk_callback_lock.  Process context; idempotent.
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
}

/* Release the socket and free the svc_sock.  The socket is detached,
 * off every list and unused.  Process context.
 */
static void svc_sock_free(struct svc_sock *svsk)
{
	if (svsk->sk_sock->type == SOCK_STREAM &&
	    svsk->sk_sk->sk_state != TCP_LISTEN)
		svc_stat_inc(SVC_STAT_TCP_CLOSED);
	sock_release(svsk->sk_sock);
	svc_obj_free(svsk->sk_rbuf);
	kfree(svsk->sk_torture);
	svc_obj_free(svsk);
}

/* Drop a reference.  The last one is the lists' reference or the last
 * user's after svc_delete_socket() dropped that, so the socket is already
 * detached and off every list, and no callback can find it.  Process
 * context, no locks held.
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

/* Does the socket hold data that we have not read?  The caller owns the
 * socket's receive side and has just read from it; the read took the
 * socket's lock (TCP) or its queue's lock (UDP), so whatever was queued
 * before the callbacks that got the socket here is visible.  A datagram
 * may wait in UDP's reader_queue as well as in sk_receive_queue.  A
 * synthetic socket of the torture test holds events instead.  Process
 * context.
 */
bool svc_sock_data_queued(struct svc_sock *svsk)
{
	struct sock *sk = svsk->sk_sk;

	if (unlikely(svsk->sk_torture))
		return svc_torture_queued(svsk);
	if (!skb_queue_empty_lockless(&sk->sk_receive_queue))
		return true;
	return sk->sk_type == SOCK_DGRAM &&
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

/* Read the current record, at most SVC_FRAGS_PER_TURN fragments of it.
 * Returns:
 *
 *  - the length of the completed record, now copied to rqstp->rq_argbuf;
 *  - -EINPROGRESS when that many fragments are whole but the record is
 *    not: the socket may hold more, and the caller gives it back so that
 *    other sockets get a turn (a bounded read per hand-over: no peer
 *    holds a thread by streaming fragments);
 *  - -EAGAIN when the socket ran dry first (the partial record stays in
 *    sk_rbuf for the next owner; a hand-over that found not one byte is
 *    counted in wakeups_idle);
 *  - another negative errno when the connection must be closed.
 *
 * The caller owns the busy flag.
 */
int svc_tcp_read_record(struct svc_rqst *rqstp)
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
	if (msg.msg_flags & MSG_TRUNC) {
		svc_stat_inc(SVC_STAT_UDP_TRUNCATED);
		return -EMSGSIZE;
	}
	svc_stat_inc(SVC_STAT_UDP_DATAGRAMS);
	svc_stat_add(SVC_STAT_BYTES_IN, len);
	rqstp->rq_arglen = len;
	return len;
}

/* Receive the next datagram worth decoding.  Returns its length, -EAGAIN
 * when none is queued, or -EINPROGRESS when SVC_UDP_SKIPS in a row had to
 * be skipped: the socket may hold more, but a flood of bad datagrams must
 * not hold the thread, so the caller gives the socket back as after a
 * read.  A synthetic socket of the torture test gives one event instead
 * (svc_torture_read()).  The caller owns the busy flag.
 */
int svc_udp_read_datagram(struct svc_rqst *rqstp)
{
	int len, skips;

	if (unlikely(rqstp->rq_sock->sk_torture))
		return svc_torture_read(rqstp);
	for (skips = 0; skips < SVC_UDP_SKIPS; skips++) {
		len = svc_udp_read_one(rqstp);
		if (len == -EAGAIN && !skips)
			svc_stat_inc(SVC_STAT_WAKEUPS_IDLE);	/* nothing there */
		if (len >= 0 || len == -EAGAIN)
			return len;
	}
	return -EINPROGRESS;
}

/* Accept one connection from the listener without blocking.  The torture
 * test's synthetic listener makes one for a CONN event instead
 * (svc_torture_accept()).  The caller owns the listener's busy flag.
 */
int svc_tcp_accept_socket(struct svc_sock *svsk, struct socket **newsock)
{
	int err;

	if (unlikely(svsk->sk_torture))
		err = svc_torture_accept(svsk, newsock);
	else
		err = kernel_accept(svsk->sk_sock, newsock, O_NONBLOCK);
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

/* With more than max_conns accepted sockets, ask the one that has been
 * idle longest to close, as svc_check_conn_limits() did.  Sockets already
 * asked are skipped and not counted: they close when a thread gets to
 * them, and a burst of connections must not pick the same one again.
 * Process context, no locks held.
 */
void svc_check_conn_limits(struct svc_serv *serv)
{
	struct svc_sock	*svsk, *oldest = NULL;
	unsigned int	culled = 0;

	if (READ_ONCE(serv->sv_tmpcnt) <= svc_max_conns())
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
	if (oldest && serv->sv_tmpcnt - culled > svc_max_conns()) {
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

/* Close the accepted sockets that have received nothing for idle_timeout
 * seconds, as 6.1's svc_age_temp_xprts() does: a peer that connects,
 * sends a header or nothing and goes quiet holds a socket and its buffers
 * only that long.  Like svc_check_conn_limits(), a socket already asked
 * to close is skipped; the others are marked, referenced under sv_lock
 * and closed after it, a batch at a time.  Runs from the system
 * workqueue, process context, and re-arms itself while the timeout is
 * set; svcsock_exit() cancels it before the threads stop.
 */
void svc_age_temp_sockets(struct work_struct *work)
{
	struct svc_serv	*serv = container_of(to_delayed_work(work),
					     struct svc_serv, sv_age_work);
	unsigned long	timeout = svc_idle_timeout() * HZ;
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

/* Is there room for another reply?  A connected socket is not read while
 * a send had to wait for room (SOCK_NOSPACE, 6.1's svc_tcp_has_wspace()),
 * nor while more than SVC_WMEM_QUEUED of replies wait unsent or unacked:
 * a peer that does not read its replies gets no more calls read, and so
 * holds neither a thread blocked in a send nor more memory than that and
 * the calls it sent.  To be told when that changes, set SOCK_NOSPACE:
 * then each ACK calls the write-space callback, which clears it once TCP
 * sees room and calls svc_sock_enqueue() (svc_tcp_write_space()).  It is
 * set before the second look, with a full barrier between, against
 * tcp_check_space()'s smp_mb() between its store of sk_wmem_queued and its
 * test of the bit: either that ACK sees the bit, or the second look sees
 * the ACK.  The listener and the UDP socket always have room (UDP replies
 * never wait).  Any context; lockless reads.
 */
bool svc_sock_has_wspace(struct svc_sock *svsk)
{
	struct socket *sock = svsk->sk_sock;

	if (sock->type != SOCK_STREAM || !svc_sock_is_temp(svsk))
		return true;
	if (test_bit(SOCK_NOSPACE, &sock->flags))
		return false;
	if (READ_ONCE(svsk->sk_sk->sk_wmem_queued) <= SVC_WMEM_QUEUED)
		return true;
	set_bit(SOCK_NOSPACE, &sock->flags);
	/* Pairs with the smp_mb() in tcp_check_space(): see above. */
	smp_mb__after_atomic();
	return READ_ONCE(svsk->sk_sk->sk_wmem_queued) <= SVC_WMEM_QUEUED;
}

/* Send what the kvecs hold on TCP; a waiting send gives up at deadline. */
static size_t svc_tcp_send_kvec(struct svc_sock *svsk, struct kvec *iov,
				int nvec, size_t total, unsigned long deadline,
				int *err)
{
	struct msghdr	msg = { .msg_flags = MSG_NOSIGNAL };
	struct sock	*sk = svsk->sk_sk;
	int		ret;

	*err = 0;
	while (total) {
		/* Wait for room in slices, so that a thread asked to stop
		 * (rmmod, a smaller pool) stops within one, and never past
		 * the deadline in all: a peer that does not read holds a
		 * thread for SVC_SEND_BOUND at most.  Only this thread sends
		 * on the socket (sk_sendmutex), so the timeout it sets is
		 * the one its own sendmsg reads.
		 */
		WRITE_ONCE(sk->sk_sndtimeo, SVC_SEND_SLICE);
		ret = kernel_sendmsg(svsk->sk_sock, &msg, iov, nvec, total);
		if (ret > 0) {
			svc_stat_add(SVC_STAT_BYTES_OUT, ret);
			total -= ret;
			/* A short send: step over what went. */
			while (nvec && ret >= iov->iov_len) {
				ret -= iov->iov_len;
				iov++;
				nvec--;
			}
			if (nvec) {
				iov->iov_base += ret;
				iov->iov_len -= ret;
			}
			continue;
		}
		if (ret != -EAGAIN || time_after(jiffies, deadline) ||
		    kthread_should_stop()) {
			*err = ret ? ret : -EPIPE;
			break;
		}
	}
	return total;
}

/* Send the reply in rqstp->rq_resbuf.  On TCP the record marker goes in
 * front and sk_sendmutex keeps two threads' replies apart.  A reply that
 * cannot be sent whole closes the connection, since the stream would be
 * out of step (6.1 closes on a short send too), and so does one that
 * would wait for the peer longer than SVC_SEND_BOUND; a socket found
 * closing once the mutex is ours gets no reply, so threads queued behind
 * a stuck send do not each wait in turn.  Process context; the caller
 * holds a reference to the socket.
 */
int svcsock_send(struct svc_rqst *rqstp)
{
	struct svc_sock	*svsk = rqstp->rq_sock;
	__be32		marker = cpu_to_be32(SVC_RECORD_LAST | rqstp->rq_reslen);
	struct kvec	iov[2];
	struct msghdr	msg = { .msg_flags = MSG_NOSIGNAL | MSG_DONTWAIT };
	size_t		left;
	int		ret;

	if (svsk->sk_sock->type == SOCK_DGRAM) {
		iov[0].iov_base = rqstp->rq_resbuf;
		iov[0].iov_len = rqstp->rq_reslen;
		msg.msg_name = &rqstp->rq_addr;
		msg.msg_namelen = sizeof(rqstp->rq_addr);
		ret = kernel_sendmsg(svsk->sk_sock, &msg, iov, 1,
				     rqstp->rq_reslen);
		if (ret < 0) {
			svc_stat_inc(SVC_STAT_SEND_ERRORS);
			return ret;
		}
		svc_stat_add(SVC_STAT_BYTES_OUT, ret);
		return 0;
	}

	iov[0].iov_base = &marker;
	iov[0].iov_len = sizeof(marker);
	iov[1].iov_base = rqstp->rq_resbuf;
	iov[1].iov_len = rqstp->rq_reslen;

	mutex_lock(&svsk->sk_sendmutex);
	if (svc_sock_is_closing(svsk)) {
		/* A send before ours failed, or the peer went: no reply. */
		mutex_unlock(&svsk->sk_sendmutex);
		return -ENOTCONN;
	}
	left = svc_tcp_send_kvec(svsk, iov, 2, sizeof(marker) +
				 rqstp->rq_reslen, jiffies + SVC_SEND_BOUND,
				 &ret);
	mutex_unlock(&svsk->sk_sendmutex);

	if (left) {
		if (ret == -EAGAIN) {
			svc_sock_defence(svsk, SVC_STAT_SLOW_READER_CLOSED);
			net_dbg_ratelimited("peer not reading its replies, closing\n");
		} else {
			svc_stat_inc(SVC_STAT_SEND_ERRORS);
		}
		svc_sock_set_close(svsk);
		return ret;
	}
	return 0;
}

/* Drop the thread's use of its socket.  Process context. */
void svc_sock_release(struct svc_rqst *rqstp)
{
	struct svc_sock *svsk = rqstp->rq_sock;

	rqstp->rq_sock = NULL;
	svc_sock_put(svsk);
}

static int svc_create_socket(struct svc_serv *serv, int type, __be32 addr,
			     u16 port)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = addr,
		.sin_port = htons(port),
	};
	int protocol = type == SOCK_STREAM ? IPPROTO_TCP : IPPROTO_UDP;
	struct svc_sock *svsk;
	struct socket *sock;
	int err;

	err = sock_create_kern(&init_net, AF_INET, type, protocol, &sock);
	if (err < 0)
		return err;
	/* TCP only: on UDP, SO_REUSEADDR would let any local user bind the
	 * same address beside us and take our callers' datagrams.
	 */
	if (type == SOCK_STREAM)
		sock_set_reuseaddr(sock->sk);
	/* Built in, the server starts before init brings lo up, when
	 * 127.0.0.1 is not yet a local address: bind to it anyway
	 * (IP_FREEBIND), and the socket receives once it is.  Loaded as a
	 * module, a wrong bind= fails here with -EADDRNOTAVAIL instead.
	 */
	if (system_state < SYSTEM_RUNNING)
		ip_sock_set_freebind(sock->sk);
	err = kernel_bind(sock, (struct sockaddr *)&sin, sizeof(sin));
	if (!err && type == SOCK_STREAM)
		err = kernel_listen(sock, 64);
	if (err < 0) {
		sock_release(sock);
		return err;
	}

	svsk = svc_setup_socket(serv, sock, NULL);
	if (IS_ERR(svsk))
		return PTR_ERR(svsk);
	svc_sock_precharge(svsk);
	return 0;
}

/* Create the UDP socket and the TCP listener.  Process context. */
int svc_create_sockets(struct svc_serv *serv, __be32 addr, u16 port)
{
	int err;

	err = svc_create_socket(serv, SOCK_DGRAM, addr, port);
	if (!err)
		err = svc_create_socket(serv, SOCK_STREAM, addr, port);
	return err;
}

/* Delete every socket.  Every thread has stopped, so nothing else owns a
 * socket or can enqueue one: a deleted socket's callbacks are gone, and
 * a live one's only enqueue it.  Process context.
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
