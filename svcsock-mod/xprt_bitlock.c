// SPDX-License-Identifier: GPL-2.0
/*
 * The bitlock build: the bitflag build (xprt_bitflag.c) with SK_BUSY made
 * a bit lock, with the primitives "bitops: introduce lock ops" (Nick
 * Piggin, 2007) added for exactly this: test_and_set_bit_lock() claims
 * the socket, clear_bit_unlock() gives it back.  Compare with
 * xprt_bitflag.c: the difference is two functions and this comment.
 *
 * What it buys: svc_sock_enqueue() claims SK_BUSY before it takes
 * sv_lock, so an enqueue that finds the socket busy (a callback while a
 * thread reads or a record arrives in several segments) costs one atomic
 * operation and no lock; sv_lock is taken only to hand the socket over.
 * What it keeps: rule 3 as the 2002 patch wrote it, so every read that
 * succeeded re-enqueues the socket, and a lone call still wakes a second
 * thread that reads nothing (xprt_queued.c, the next build, changes that).
 *
 * SMP locking strategy:
 *
 *	svc_serv->sv_lock protects most stuff for that service: the lists
 *	sv_threads, sv_sockets, sv_permsocks and sv_tempsocks, sv_tmpcnt,
 *	and each socket's sk_ready, sk_list and sk_culled.  It is taken with
 *	bottom halves disabled: the socket callbacks take it in softirq.
 *	There is no per-socket lock.  The state of a socket is the word
 *	sk_svc_flags, changed only by atomic bitops (the kernel's, each
 *	counted in flag_rmw: svc_set_bit() and friends, svcsock.h).
 *
 *	Some flags can be set to certain values at any time
 *	providing that certain rules are followed:
 *
 *	SK_BUSY  can be set to 0 at any time.
 *		svc_sock_enqueue must be called afterwards
 *	SK_CONN, SK_DATA, can be set or cleared at any time.
 *		after a set, svc_sock_enqueue must be called.
 *		after a clear, the socket must be read/accepted
 *		 if this succeeds, it must be set again.
 *	SK_CLOSE can set at any time. It is never cleared.
 *
 *	The other flags follow from those rules and sv_lock:
 *
 *	SK_BUSY is a bit lock, held from birth (svc_sock_state_init()) by
 *		the thread that made the socket until svc_sock_precharge()
 *		hands it back; otherwise svc_sock_enqueue() takes it with
 *		test_and_set_bit_lock(), without sv_lock, and then hands the
 *		socket to a thread or queues it under sv_lock.  From then until
 *		svc_sock_received() drops it with clear_bit_unlock(), exactly one
 *		thread owns the socket's receive side: the TCP record state and
 *		the choice to accept, read or delete.  A deleted socket keeps
 *		SK_BUSY set forever, so it is never enqueued again.
 *	SK_QUED  is set and cleared under sv_lock, with sk_ready's list.
 *	SK_DEAD  is set under sv_lock by svc_delete_socket(), whose caller
 *		holds SK_BUSY (or is the teardown, after every thread has
 *		stopped).
 *	SK_TEMP  is set before the socket is published and never changes.
 *
 *	SK_DATA makes a connected socket ready only while its send buffer
 *	has room for a reply (svc_sock_has_wspace(), 6.1's has-write-space
 *	test): a peer that does not read its replies gets no more calls
 *	read.  Room coming back is an event like a set of SK_DATA:
 *	svc_tcp_write_space() calls svc_sock_enqueue() after it, and so
 *	does svc_sock_send_drained() when the send worker has emptied the
 *	connection's queue of replies.
 *
 *	One hand-over reads at most 64 fragments of a TCP record.  Whole
 *	fragments of an unfinished record are a read that succeeded: SK_DATA
 *	is set again and the socket goes to the back of sv_sockets, so a
 *	peer that streams fragments holds no thread.
 *
 *	svc_sock_enqueue() tests SK_CONN, SK_DATA and SK_CLOSE before it
 *	takes SK_BUSY.  In between, the previous owner may have cleared
 *	SK_CONN or SK_DATA (and then found nothing to accept or read), so
 *	a thread may be handed a socket with nothing to do.  A receive
 *	function therefore tests what it needs under SK_BUSY and copes
 *	with finding nothing; in particular it never reads from a listener
 *	whose SK_CONN it found clear.
 *
 * Lifetime.  sk_ref counts references (svc_sock_get()/svc_sock_put()):
 * the lists hold one from svc_setup_socket() until svc_delete_socket(),
 * and every thread that owns or uses the socket holds one, taken under
 * sv_lock when svc_sock_enqueue() or svcsock_recv() hands it over.  No
 * reference is needed to call the callbacks' svc_sock_enqueue(): they
 * run under sk_callback_lock, and the socket is detached under its write
 * side before the lists' reference goes.  svc_sock_received() takes one
 * across its enqueue, as 6.1's svc_xprt_received() does: once SK_BUSY is
 * clear another thread may take the socket, delete it and drop the last
 * reference, and the creating thread of a new socket holds none of its
 * own.  The last put frees the socket, which is then detached and off
 * every list.
 *
 * Memory ordering.  A callback sets SK_DATA and then tries SK_BUSY in
 * svc_sock_enqueue(); a thread clears SK_BUSY and then tests SK_DATA in
 * svc_sock_enqueue().  Each side stores one bit and loads the other, so
 * each needs a full barrier between the two or both may miss the other's
 * store: svc_sock_enqueue() still opens with smp_mb__after_atomic().  The
 * lock variants carry only the one-way barriers of a lock:
 * test_and_set_bit_lock() is an acquire (the new owner's reads of the
 * record state stay after it), clear_bit_unlock() a release (the old
 * owner's writes to it are visible first), which replaces the bitflag
 * build's smp_mb__before_atomic().
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
	svsk->sk_svc_flags = BIT(SK_BUSY) | (temp ? BIT(SK_TEMP) : 0);
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
	return test_bit(SK_TEMP, &svsk->sk_svc_flags);
}

/* Has the socket work for a thread?  A connection, a close, or data with
 * room to send the reply.  Any context; the flags are read once.
 */
static bool svc_sock_ready(struct svc_sock *svsk)
{
	unsigned long flags = READ_ONCE(svsk->sk_svc_flags);

	if (flags & (BIT(SK_CONN) | BIT(SK_CLOSE)))
		return true;
	if (!(flags & BIT(SK_DATA)))
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
 * Context: May be called from any context, with no locks held; takes
 * SK_BUSY unless another caller holds it.
 */
void svc_build_enqueue(struct svc_sock *svsk)
{
	struct svc_serv	*serv = svsk->sk_server;
	struct svc_rqst	*rqstp;

	svc_stat_inc(SVC_STAT_ENQUEUE_CALLS);

	/* Order the caller's set or clear of a flag before our test. */
	smp_mb__after_atomic();
	if (!svc_sock_ready(svsk)) {
		trace_svcsock_enqueue(svsk, SVC_ENQ_NOT_READY);
		return;
	}

	/* Claim the socket: one enqueue wins, the others need not lock. */
	if (svc_test_and_set_bit_lock(SK_BUSY, &svsk->sk_svc_flags)) {
		/* Don't enqueue socket while a thread is receiving */
		svc_stat_inc(SVC_STAT_ENQUEUE_BUSY);
		trace_svcsock_enqueue(svsk, SVC_ENQ_BUSY);
		return;
	}
	svc_sock_owner_wait_start(svsk);

	svc_spin_lock_bh(&serv->sv_lock, SVC_SV_LOCK);

	if (!list_empty(&serv->sv_threads) &&
	    !list_empty(&serv->sv_sockets))
		pr_err_ratelimited("%s: threads and sockets both waiting??\n",
				   __func__);

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
		svc_set_bit(SK_QUED, &svsk->sk_svc_flags);
	}

	spin_unlock_bh(&serv->sv_lock);
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
	svc_clear_bit(SK_QUED, &svsk->sk_svc_flags);

	return svsk;
}

/* Having read something from a socket, check whether it
 * needs to be re-enqueued.
 * Note: SK_DATA only gets cleared when a read-attempt finds
 * no (or insufficient) data.
 * The caller holds SK_BUSY, and gives it up here.
 */
static void svc_sock_received(struct svc_sock *svsk)
{
	trace_svcsock_received(svsk);
	svc_sock_owner_end(svsk);
	svc_sock_get(svsk);	/* !BUSY lets another thread delete it */
	/* Release: the record state is visible before !BUSY is. */
	svc_clear_bit_unlock(SK_BUSY, &svsk->sk_svc_flags);
	svc_sock_enqueue(svsk);
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
	svc_set_bit(SK_CLOSE, &svsk->sk_svc_flags);
	svc_sock_enqueue(svsk);
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
	return test_bit(SK_CLOSE, &svsk->sk_svc_flags);
}

/**
 * svc_sock_precharge() - Precharge a new socket and hand it back
 * @svsk: the new socket
 *
 * Data, or connections, may have arrived before the callbacks were
 * installed, and those that came after found it busy.
 *
 * Context: Process context; the caller owns SK_BUSY (the socket was born
 * busy) and must not touch the socket afterwards.
 */
void svc_sock_precharge(struct svc_sock *svsk)
{
	if (svc_sock_is_listener(svsk))
		svc_set_bit(SK_CONN, &svsk->sk_svc_flags);
	else
		svc_set_bit(SK_DATA, &svsk->sk_svc_flags);
	svc_sock_received(svsk);
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
		svc_set_bit(SK_DATA, &svsk->sk_svc_flags);
		svc_sock_enqueue(svsk);
	}
	read_unlock_bh(&sk->sk_callback_lock);
}

/**
 * svc_udp_recvfrom() - Receive a datagram from a UDP socket
 * @rqstp: the thread; rqstp->rq_sock is the socket
 *
 * Context: Process context; the caller owns SK_BUSY, and gives it back
 * here.
 *
 * Return: the length of a datagram in rqstp->rq_argbuf, or 0 or a negative
 * errno when there is no call to process.
 */
int svc_udp_recvfrom(struct svc_rqst *rqstp)
{
	struct svc_sock	*svsk = rqstp->rq_sock;
	int		len;

	svc_clear_bit(SK_DATA, &svsk->sk_svc_flags);
	len = svc_sock_read(rqstp);
	if (len == -EAGAIN) {
		svc_sock_received(svsk);
		return len;
	}
	/* A datagram, or a run of bad ones skipped (-EINPROGRESS). */
	svc_set_bit(SK_DATA, &svsk->sk_svc_flags); /* there may be more data... */

	/* One down, maybe more to go... */
	svc_sock_received(svsk);

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
		svc_set_bit(SK_CONN, &svsk->sk_svc_flags);
		svc_sock_enqueue(svsk);
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
			svc_set_bit(SK_CLOSE, &svsk->sk_svc_flags);
			svc_sock_enqueue(svsk);
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
		svc_set_bit(SK_DATA, &svsk->sk_svc_flags);
		svc_sock_enqueue(svsk);
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
		if (svc_sock_has_wspace(svsk))
			svc_sock_enqueue(svsk);
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
 * Context: Process context, no locks held; the caller holds a reference
 * and has ordered its emptying of the queue before this with a full
 * barrier.
 */
void svc_sock_send_drained(struct svc_sock *svsk)
{
	svc_sock_enqueue(svsk);
}

/* Accept a TCP connection.  The caller owns the listener's SK_BUSY.
 */
static void svc_tcp_accept(struct svc_sock *svsk)
{
	struct svc_serv	*serv = svsk->sk_server;
	struct socket	*newsock;
	struct svc_sock	*newsvsk;

	svc_clear_bit(SK_CONN, &svsk->sk_svc_flags);
	if (svc_sock_accept(svsk, &newsock) < 0)
		return;		/* aborted connection or whatever */
	svc_set_bit(SK_CONN, &svsk->sk_svc_flags);

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
 * Context: Process context; the caller owns SK_BUSY, and gives it back
 * here unless the socket is deleted.
 *
 * Return: the length of a whole record in rqstp->rq_argbuf, or 0 or a
 * negative errno when there is no call to process.
 */
int svc_tcp_recvfrom(struct svc_rqst *rqstp)
{
	struct svc_sock	*svsk = rqstp->rq_sock;
	int		len;

	if (test_bit(SK_CLOSE, &svsk->sk_svc_flags)) {
		svc_delete_socket(svsk);
		return 0;
	}

	if (test_bit(SK_CONN, &svsk->sk_svc_flags)) {
		svc_tcp_accept(svsk);
		svc_sock_received(svsk);
		return 0;
	}

	if (!svc_sock_is_temp(svsk)) {
		/* A listener handed over after SK_CONN was cleared: idle. */
		svc_stat_inc(SVC_STAT_LISTENER_IDLE);
		svc_stat_inc(SVC_STAT_WAKEUPS_IDLE);
		svc_sock_received(svsk);
		return 0;
	}

	svc_clear_bit(SK_DATA, &svsk->sk_svc_flags);

	len = svc_sock_read(rqstp);
	if (len == -EAGAIN) {
		/* record not complete: data_ready will set SK_DATA again */
		svc_sock_received(svsk);
		return len;
	}
	if (len < 0 && len != -EINPROGRESS) {
		/* peer closed, reset, or sent an oversized record */
		svc_delete_socket(svsk);
		return 0;
	}
	svc_set_bit(SK_DATA, &svsk->sk_svc_flags);

	/* A record, or fragments of one (-EINPROGRESS): maybe more. */
	svc_sock_received(svsk);
	return len;
}

/**
 * svc_delete_socket() - Remove a dead socket
 * @svsk: the socket
 *
 * Detach it, take it off the service's lists and drop the lists'
 * reference.
 *
 * Context: Process context; the caller owns SK_BUSY (which it never gives
 * back), or is the teardown with every thread stopped.
 */
void svc_delete_socket(struct svc_sock *svsk)
{
	struct svc_serv	*serv = svsk->sk_server;

	trace_svcsock_delete(svsk);
	svc_sock_detach(svsk);

	svc_spin_lock_bh(&serv->sv_lock, SVC_SV_LOCK);

	list_del_init(&svsk->sk_list);
	if (test_bit(SK_TEMP, &svsk->sk_svc_flags))
		WRITE_ONCE(serv->sv_tmpcnt, serv->sv_tmpcnt - 1);
	if (test_bit(SK_QUED, &svsk->sk_svc_flags)) {
		list_del_init(&svsk->sk_ready);
		svc_clear_bit(SK_QUED, &svsk->sk_svc_flags);
	}

	svc_set_bit(SK_DEAD, &svsk->sk_svc_flags);

	spin_unlock_bh(&serv->sv_lock);

	/* The lists' reference; a thread's own keeps it until it is done. */
	svc_sock_put(svsk);
}
