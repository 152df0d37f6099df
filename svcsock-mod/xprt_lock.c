// SPDX-License-Identifier: GPL-2.0
/*
 * The lock build: svc_sock before "rationalise locking in RPC server
 * routines" (Neil Brown, 2002).  Compare with xprt_bitflag.c, the same
 * code after that patch: the difference between the two files is the
 * patch.
 *
 * SMP locking strategy:
 *
 *	svc_sock->sk_lock and svc_serv->sv_lock protect their
 *	respective structures.
 *
 *	svc_serv->sv_lock protects the lists sv_threads, sv_sockets,
 *	sv_permsocks and sv_tempsocks, sv_tmpcnt, and each socket's
 *	sk_ready, sk_list, sk_culled, sk_qued and sk_dead.
 *	svc_sock->sk_lock protects sk_busy, sk_conn, sk_close and sk_data,
 *	which are read and written only with it held.
 *	Both are taken with bottom halves disabled: the socket callbacks
 *	take them in softirq context.
 *
 *	Antideadlock ordering is sk_lock --> sv_lock.
 *
 *	sk_busy is set when the socket is born (svc_sock_state_init()), the
 *	thread that made it owning it until svc_sock_precharge() hands it
 *	back, and otherwise by svc_sock_enqueue() when it hands the socket
 *	to a thread or queues it; svc_sock_received() or
 *	svc_sock_accepted() clear it.  While it is set exactly one thread owns the
 *	socket's receive side: the TCP record state and the choice to
 *	accept, read or delete.  A deleted socket stays busy forever.
 *	sk_conn counts connections the listener was told of, sk_data the
 *	data_ready callbacks of a TCP socket not yet accounted for by a
 *	read (on UDP it is 0 or 1); a read gives back what it used through
 *	svc_sock_received(svsk, count).  sk_close is set and never cleared.
 *	sk_temp is set before the socket is published and never changes.
 *	A socket is ready for a thread when sk_conn or sk_close is set, or
 *	sk_data while its send buffer has room for a reply
 *	(svc_sock_has_wspace(), 6.1's has-write-space test); room coming
 *	back calls svc_sock_enqueue() from svc_tcp_write_space(), and so
 *	does the send worker's emptied queue (svc_sock_send_drained()),
 *	both under sk_lock.  One
 *	hand-over reads at most 64 fragments of a TCP record; whole
 *	fragments of an unfinished record use none of sk_data, so the
 *	socket goes to the back of sv_sockets while data remains.
 *	The three bitfields share a word: every write to any of them is
 *	made under sv_lock or before publication, never under sk_lock
 *	alone, or one lock's update could undo the other's.
 *
 * Lifetime.  sk_ref counts references (svc_sock_get()/svc_sock_put()):
 * the lists hold one from svc_setup_socket() until svc_delete_socket(),
 * and every thread that owns or uses the socket holds one, taken under
 * sv_lock when svc_sock_enqueue() or svcsock_recv() hands it over.  No
 * reference is needed to call the callbacks' svc_sock_enqueue(): they
 * run under sk_callback_lock, and the socket is detached under its write
 * side before the lists' reference goes.  svc_sock_received() and
 * svc_sock_accepted() take one across the enqueue that follows clearing
 * sk_busy, as 6.1's svc_xprt_received() does: from then on another
 * thread may take the socket, delete it and drop the last reference, and
 * the creating thread of a new socket holds none of its own.  The last
 * put frees the socket, which is then detached and off every list.
 *
 * Memory ordering comes from the locks: every test of a state field is
 * made under the lock that its writers hold.
 *
 * Socket callbacks run in softirq context, or in process context with
 * bottom halves enabled, and never sleep.  They find the svc_sock through
 * sk_user_data under read_lock_bh(&sk->sk_callback_lock); the socket is
 * detached under the write side before it is freed.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/net.h>
#include <linux/sched.h>
#include <net/tcp_states.h>
#include "svcsock.h"
#include "svc_trace.h"

/**
 * svc_sock_state_init() - Give a new socket its first state: busy
 * @svsk: the new socket
 * @temp: whether it is an accepted (temporary) TCP socket
 *
 * A new socket is born busy: its creator owns it until the precharge.
 *
 * Context: Process context, before the socket is published: nothing else
 * can see it yet.
 */
void svc_sock_state_init(struct svc_sock *svsk, bool temp)
{
	spin_lock_init(&svsk->sk_lock);
	svsk->sk_busy = 1;
	svsk->sk_temp = temp;
}

/**
 * svc_sock_is_temp() - Is the socket an accepted (temporary) TCP socket?
 * @svsk: the socket
 *
 * Context: Any context, no lock: the flag is set before the socket is
 * published and never changes.
 *
 * Return: true for an accepted TCP socket, false for a listener or a UDP
 * socket.
 */
bool svc_sock_is_temp(struct svc_sock *svsk)
{
	return svsk->sk_temp;
}

/* Has the socket work for a thread?  A connection, a close, or data with
 * room to send the reply.  Called with svsk->sk_lock held.
 */
static bool svc_sock_ready(struct svc_sock *svsk)
{
	lockdep_assert_held(&svsk->sk_lock);
	if (svsk->sk_conn || svsk->sk_close)
		return true;
	if (!svsk->sk_data)
		return false;
	if (svc_sock_has_wspace(svsk))
		return true;
	svc_stat_inc(SVC_STAT_WSPACE_WAIT);
	return false;
}

/**
 * svc_build_enqueue() - Queue up a socket with data pending
 * @svsk: the socket
 *
 * If there are idle server threads, wake one.
 *
 * Context: This must be called with svsk->sk_lock held.
 */
void svc_build_enqueue(struct svc_sock *svsk)
{
	struct svc_serv	*serv = svsk->sk_server;
	struct svc_rqst	*rqstp;

	lockdep_assert_held(&svsk->sk_lock);
	svc_stat_inc(SVC_STAT_ENQUEUE_CALLS);
	if (!svc_sock_ready(svsk)) {
		trace_svcsock_enqueue(svsk, SVC_ENQ_NOT_READY);
		return;
	}

	/* NOTE: Local BH is already disabled by our caller. */
	svc_spin_lock(&serv->sv_lock, SVC_SV_LOCK);

	if (!list_empty(&serv->sv_threads) &&
	    !list_empty(&serv->sv_sockets))
		pr_err_ratelimited("%s: threads and sockets both waiting??\n",
				   __func__);

	if (svsk->sk_busy) {
		/* Don't enqueue socket while a thread is receiving */
		svc_stat_inc(SVC_STAT_ENQUEUE_BUSY);
		trace_svcsock_enqueue(svsk, SVC_ENQ_BUSY);
		goto out_unlock;
	}

	/* Mark socket as busy. It will remain in this state until the
	 * server has processed all pending data and put the socket back
	 * on the idle list.
	 */
	svsk->sk_busy = 1;
	svc_sock_owner_wait_start(svsk);

	if (!list_empty(&serv->sv_threads)) {
		rqstp = list_first_entry(&serv->sv_threads,
					 struct svc_rqst, rq_list);
		list_del_init(&rqstp->rq_list);
		rqstp->rq_sock = svsk;
		svc_sock_get(svsk);
		svc_stat_inc(SVC_STAT_THREADS_WOKEN);
		trace_svcsock_enqueue(svsk, SVC_ENQ_WOKE);
		wake_up_process(rqstp->rq_task);
	} else {
		trace_svcsock_enqueue(svsk, SVC_ENQ_QUEUED);
		list_add_tail(&svsk->sk_ready, &serv->sv_sockets);
		svsk->sk_qued = 1;
	}

out_unlock:
	spin_unlock(&serv->sv_lock);
}

/**
 * svc_sock_dequeue() - Dequeue the first socket
 * @serv: the service
 *
 * Context: Must be called with the serv->sv_lock held.
 *
 * Return: the first socket on sv_sockets, now off it, or NULL when there
 * is none.
 */
struct svc_sock *svc_sock_dequeue(struct svc_serv *serv)
{
	struct svc_sock	*svsk;

	lockdep_assert_held(&serv->sv_lock);
	if (list_empty(&serv->sv_sockets))
		return NULL;

	svsk = list_first_entry(&serv->sv_sockets, struct svc_sock, sk_ready);
	list_del_init(&svsk->sk_ready);
	svsk->sk_qued = 0;

	return svsk;
}

/* Having read count bytes from a socket, check whether it
 * needs to be re-enqueued.
 * The caller owns sk_busy, and gives it up here.
 */
static void svc_sock_received(struct svc_sock *svsk, int count)
{
	trace_svcsock_received(svsk);
	svc_sock_owner_end(svsk);
	svc_sock_get(svsk);	/* !sk_busy lets another thread delete it */
	svc_spin_lock_bh(&svsk->sk_lock, SVC_SK_LOCK);
	svsk->sk_data -= count;
	if (svsk->sk_data < 0) {
		pr_notice_ratelimited("sk_data negative!\n");
		svsk->sk_data = 0;
	}
	svsk->sk_busy = 0;
	if (svsk->sk_conn || svsk->sk_data || svsk->sk_close)
		svc_sock_enqueue(svsk);
	spin_unlock_bh(&svsk->sk_lock);
	svc_sock_put(svsk);
}

/* Dequeue a new connection.
 * The caller owns the listener's sk_busy, and gives it up here.
 */
static void svc_sock_accepted(struct svc_sock *svsk)
{
	trace_svcsock_received(svsk);
	svc_sock_owner_end(svsk);
	svc_sock_get(svsk);	/* !sk_busy lets another thread delete it */
	svc_spin_lock_bh(&svsk->sk_lock, SVC_SK_LOCK);
	svsk->sk_busy = 0;
	svsk->sk_conn--;
	if (svsk->sk_conn || svsk->sk_data || svsk->sk_close)
		svc_sock_enqueue(svsk);
	spin_unlock_bh(&svsk->sk_lock);
	svc_sock_put(svsk);
}

/**
 * svc_sock_set_close() - Ask for the socket to be closed by a thread
 * @svsk: the socket
 *
 * Context: Any context.
 */
void svc_sock_set_close(struct svc_sock *svsk)
{
	svc_spin_lock_bh(&svsk->sk_lock, SVC_SK_LOCK);
	svsk->sk_close = 1;
	svc_sock_enqueue(svsk);
	spin_unlock_bh(&svsk->sk_lock);
}

/**
 * svc_sock_is_closing() - Has the socket been asked to close?
 * @svsk: the socket
 *
 * Context: Any context.
 *
 * Return: true when it has, from then on.
 */
bool svc_sock_is_closing(struct svc_sock *svsk)
{
	bool close;

	svc_spin_lock_bh(&svsk->sk_lock, SVC_SK_LOCK);
	close = svsk->sk_close;
	spin_unlock_bh(&svsk->sk_lock);
	return close;
}

/**
 * svc_sock_precharge() - Precharge a new socket and hand it back
 * @svsk: the new socket
 *
 * Data, or connections, may have arrived before the callbacks were
 * installed, and those that came after found it busy.
 *
 * Context: Process context; the caller owns sk_busy (the socket was born
 * busy) and must not touch the socket afterwards.
 */
void svc_sock_precharge(struct svc_sock *svsk)
{
	svc_spin_lock_bh(&svsk->sk_lock, SVC_SK_LOCK);
	if (svc_sock_is_listener(svsk))
		svsk->sk_conn++;
	else
		svsk->sk_data = 1;
	spin_unlock_bh(&svsk->sk_lock);
	svc_sock_received(svsk, 0);
}

/**
 * svc_udp_data_ready() - INET callback: data has arrived on the UDP socket
 * @sk: the UDP socket
 *
 * Context: Softirq or process context; never sleeps.
 */
void svc_udp_data_ready(struct sock *sk)
{
	struct svc_sock	*svsk;

	read_lock_bh(&sk->sk_callback_lock);
	svsk = sk->sk_user_data;
	if (svsk) {
		svc_spin_lock_bh(&svsk->sk_lock, SVC_SK_LOCK);
		svsk->sk_data = 1;
		svc_sock_enqueue(svsk);
		spin_unlock_bh(&svsk->sk_lock);
	}
	read_unlock_bh(&sk->sk_callback_lock);
}

/**
 * svc_udp_recvfrom() - Receive a datagram from a UDP socket
 * @rqstp: the thread; rqstp->rq_sock is the socket
 *
 * Context: Process context; the caller owns sk_busy, and gives it back
 * here.
 *
 * Return: the length of a datagram in rqstp->rq_argbuf, or 0 or a negative
 * errno when there is no call to process.
 */
int svc_udp_recvfrom(struct svc_rqst *rqstp)
{
	struct svc_sock	*svsk = rqstp->rq_sock;
	int		len;

	svc_spin_lock_bh(&svsk->sk_lock, SVC_SK_LOCK);
	svsk->sk_data = 0;
	spin_unlock_bh(&svsk->sk_lock);
	len = svc_sock_read(rqstp);
	if (len == -EAGAIN) {
		svc_sock_received(svsk, 0);
		return len;
	}

	/* A datagram, or a run of bad ones skipped: there may be more data */
	svc_spin_lock_bh(&svsk->sk_lock, SVC_SK_LOCK);
	svsk->sk_data = 1;
	spin_unlock_bh(&svsk->sk_lock);

	/* One down, maybe more to go... */
	svc_sock_received(svsk, 0);

	return len;
}

/**
 * svc_tcp_listen_data_ready() - INET callback: a connection is waiting
 * @sk: the listening socket
 *
 * A state change on a listening socket means a connection is waiting.
 *
 * Context: Softirq context; never sleeps.
 */
void svc_tcp_listen_data_ready(struct sock *sk)
{
	struct svc_sock	*svsk;

	/* A child socket inherits this callback and sk_user_data from its
	 * listener until svc_tcp_accept() sets it up: ignore its data.
	 */
	if (sk->sk_state != TCP_LISTEN)
		return;

	read_lock_bh(&sk->sk_callback_lock);
	svsk = sk->sk_user_data;
	if (svsk) {
		svc_spin_lock_bh(&svsk->sk_lock, SVC_SK_LOCK);
		svsk->sk_conn++;
		svc_sock_enqueue(svsk);
		spin_unlock_bh(&svsk->sk_lock);
	}
	read_unlock_bh(&sk->sk_callback_lock);
}

/**
 * svc_tcp_state_change() - INET callback: a connected socket changed state
 * @sk: the connected socket
 *
 * A state change on a connected socket means it's dying or dead.
 *
 * Context: Softirq or process context; never sleeps.
 */
void svc_tcp_state_change(struct sock *sk)
{
	struct svc_sock	*svsk;

	read_lock_bh(&sk->sk_callback_lock);
	svsk = sk->sk_user_data;
	if (svsk) {
		svsk->sk_ostate(sk);
		if (sk->sk_state != TCP_ESTABLISHED) {
			svc_spin_lock_bh(&svsk->sk_lock, SVC_SK_LOCK);
			svsk->sk_close = 1;
			svc_sock_enqueue(svsk);
			spin_unlock_bh(&svsk->sk_lock);
		}
	}
	read_unlock_bh(&sk->sk_callback_lock);
}

/**
 * svc_tcp_data_ready() - INET callback: data has arrived on a connected socket
 * @sk: the connected socket
 *
 * Context: Softirq or process context; never sleeps.
 */
void svc_tcp_data_ready(struct sock *sk)
{
	struct svc_sock	*svsk;

	read_lock_bh(&sk->sk_callback_lock);
	svsk = sk->sk_user_data;
	if (svsk) {
		svc_spin_lock_bh(&svsk->sk_lock, SVC_SK_LOCK);
		svsk->sk_data++;
		svc_sock_enqueue(svsk);
		spin_unlock_bh(&svsk->sk_lock);
	}
	read_unlock_bh(&sk->sk_callback_lock);
}

/**
 * svc_tcp_write_space() - INET callback: room in a connected socket's buffer
 * @sk: the connected socket
 *
 * Room has come back in a connected socket's send buffer: the previous
 * callback clears SOCK_NOSPACE, replies waiting for the room go to the
 * send worker (svc_sock_send_resume()), and the socket may be ready
 * again.
 *
 * Context: Softirq or process context; never sleeps.
 */
void svc_tcp_write_space(struct sock *sk)
{
	struct svc_sock	*svsk;

	read_lock_bh(&sk->sk_callback_lock);
	svsk = sk->sk_user_data;
	if (svsk) {
		svsk->sk_owspace(sk);
		svc_sock_send_resume(svsk);
		if (svc_sock_has_wspace(svsk)) {
			svc_spin_lock_bh(&svsk->sk_lock, SVC_SK_LOCK);
			svc_sock_enqueue(svsk);
			spin_unlock_bh(&svsk->sk_lock);
		}
	}
	read_unlock_bh(&sk->sk_callback_lock);
}

/**
 * svc_sock_send_drained() - The send worker has emptied the socket's queue
 * @svsk: the connected socket
 *
 * The send worker has sent every reply a connection had waiting
 * (svc_sock.c, "Replies on TCP"): the socket, not read meanwhile, may be
 * ready again.
 *
 * Context: Process context, no locks held; the caller holds a reference.
 */
void svc_sock_send_drained(struct svc_sock *svsk)
{
	svc_spin_lock_bh(&svsk->sk_lock, SVC_SK_LOCK);
	svc_sock_enqueue(svsk);
	spin_unlock_bh(&svsk->sk_lock);
}

/* Accept a TCP connection.  The caller owns the listener's sk_busy.
 */
static void svc_tcp_accept(struct svc_sock *svsk)
{
	struct svc_serv	*serv = svsk->sk_server;
	struct socket	*newsock;
	struct svc_sock	*newsvsk;

	if (svc_sock_accept(svsk, &newsock) < 0)
		return;		/* aborted connection or whatever */

	newsvsk = svc_setup_socket(serv, newsock, svsk);
	if (IS_ERR(newsvsk))
		return;

	/* Precharge. Data may have arrived on the socket before we
	 * installed the data_ready callback.  This hands it back: not
	 * ours to touch after.
	 */
	svc_sock_precharge(newsvsk);

	svc_check_conn_limits(serv);
}

/**
 * svc_tcp_recvfrom() - Receive data from a TCP socket
 * @rqstp: the thread; rqstp->rq_sock is the socket
 *
 * A socket asked to close is deleted, and the listener accepts a
 * connection.
 *
 * Context: Process context; the caller owns sk_busy, and gives it back
 * here unless the socket is deleted.
 *
 * Return: the length of a whole record in rqstp->rq_argbuf, or 0 or a
 * negative errno when there is no call to process.
 */
int svc_tcp_recvfrom(struct svc_rqst *rqstp)
{
	struct svc_sock	*svsk = rqstp->rq_sock;
	int		len, ready, used, close, conn;

	svc_spin_lock_bh(&svsk->sk_lock, SVC_SK_LOCK);
	close = svsk->sk_close;
	conn = svsk->sk_conn;
	ready = svsk->sk_data;
	spin_unlock_bh(&svsk->sk_lock);

	if (close) {
		svc_delete_socket(svsk);
		return 0;
	}

	if (conn) {
		svc_tcp_accept(svsk);
		svc_sock_accepted(svsk);
		return 0;
	}

	len = svc_sock_read(rqstp);
	if (len == -EAGAIN) {
		/* record not complete: we read all there was */
		svc_sock_received(svsk, ready);
		return len;
	}
	if (len == -EINPROGRESS) {
		/* fragments, not the record: the rest is still to come */
		svc_sock_received(svsk, 0);
		return len;
	}
	if (len < 0) {
		/* peer closed, reset, or sent an oversized record */
		svc_delete_socket(svsk);
		return 0;
	}

	/* if we think there is only one more record to read, but
	 * more data is queued than it took, then two records must have
	 * arrived together, so pretend we aren't using the record..
	 */
	if (ready == 1 && svc_sock_data_queued(svsk))
		used = 0;
	else
		used = 1;

	svc_sock_received(svsk, used);
	return len;
}

/**
 * svc_delete_socket() - Remove a dead socket
 * @svsk: the socket
 *
 * Detach it, take it off the service's lists and drop the lists'
 * reference.
 *
 * Context: Process context; the caller owns sk_busy (which it never gives
 * back), or is the teardown with every thread stopped.
 */
void svc_delete_socket(struct svc_sock *svsk)
{
	struct svc_serv	*serv = svsk->sk_server;

	trace_svcsock_delete(svsk);
	svc_sock_detach(svsk);

	svc_spin_lock_bh(&serv->sv_lock, SVC_SV_LOCK);

	list_del_init(&svsk->sk_list);
	if (svsk->sk_temp)
		WRITE_ONCE(serv->sv_tmpcnt, serv->sv_tmpcnt - 1);
	if (svsk->sk_qued) {
		list_del_init(&svsk->sk_ready);
		svsk->sk_qued = 0;
	}

	svsk->sk_dead = 1;

	spin_unlock_bh(&serv->sv_lock);

	/* The lists' reference; a thread's own keeps it until it is done. */
	svc_sock_put(svsk);
}
