// SPDX-License-Identifier: GPL-2.0
/*
 * The lwq build: the queued build (xprt_queued.c) with the hand-over of
 * Linux 6.7 (Neil Brown's 2023 series "SUNRPC: lockless queue and
 * idle-thread list"): ready sockets wait on a light-weight queue
 * (svc_lwq.c) and idle threads on an llist, and no service-wide lock is
 * taken on the enqueue path.  Compare with xprt_queued.c: the difference
 * is svc_sock_enqueue(), the dequeue, the thread's wait (svc_wait.c in the
 * builds before), the teardown of a queued socket, and this comment.
 *
 * What it buys: an enqueue that claims SK_BUSY adds the socket to the
 * queue with one exchange and wakes an idle thread without a lock; the
 * threads' side takes two short locks that no producer takes.  Nothing
 * is handed to a thread: a woken thread dequeues for itself, and wakes
 * the next idle thread when it leaves work behind it (the waker chain).
 *
 * SMP locking strategy:
 *
 *	svc_serv->sv_lock protects the lists sv_permsocks and sv_tempsocks,
 *	sv_tmpcnt, and each socket's sk_list and sk_culled.  It is taken
 *	with bottom halves disabled, and never on the enqueue path.
 *	There is no per-socket lock.  The state of a socket is the word
 *	sk_svc_flags, changed only by atomic bitops (the kernel's, each
 *	counted in flag_rmw: svc_set_bit() and friends, svcsock.h).
 *
 *	sv_ready, the queue of sockets waiting for a thread (svc_lwq.c):
 *	any context adds a socket without a lock, and only a socket whose
 *	SK_BUSY it has just taken, so a socket is on it at most once;
 *	threads take from it under its own lock, sv_ready.lock.  A socket
 *	on it is owned by no thread yet: SK_BUSY is held for whichever
 *	thread takes it.  sk_qnode.next points at itself when the socket is
 *	not on the queue, written by the thread that took it off.
 *
 *	sv_idle, the idle threads (an llist, newest first): a thread adds
 *	itself, without a lock, before its last look for work and its
 *	sleep, and takes itself off after; taking off is serialised by
 *	sv_idle_lock, which only threads take, so that a thread can leave
 *	from anywhere in the list (6.7 leaves only from the head, without a
 *	lock, and stops whichever thread is at the head; our pool stops a
 *	chosen thread).  A waker takes no lock: under rcu_read_lock() it
 *	looks at the first idle thread and wakes it unless it is running.
 *	A running thread at the head of sv_idle has been woken, or has not
 *	yet looked for work: either way it looks for work before it sleeps
 *	or after it wakes, so the waker may leave it be.
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
 *	"If this succeeds, it must be set again" is kept as "if this
 *	succeeds and the socket still holds data" (svc_sock_data_queued()).
 *	Data that the test misses arrived after SK_DATA was cleared, and its
 *	callback sets SK_DATA again and calls svc_sock_enqueue() itself.
 *
 *	The other flags follow from those rules and sv_lock:
 *
 *	SK_BUSY is a bit lock, held from birth (svc_sock_state_init()) by
 *		the thread that made the socket until svc_sock_precharge()
 *		hands it back; otherwise svc_sock_enqueue() takes it with
 *		test_and_set_bit_lock(), and then adds the socket to sv_ready
 *		and wakes an idle thread.  From the dequeue until
 *		svc_sock_received() drops it with clear_bit_unlock(), exactly one
 *		thread owns the socket's receive side: the TCP record state and
 *		the choice to accept, read or delete.  A deleted socket keeps
 *		SK_BUSY set forever, so it is never enqueued again.
 *	SK_QUED  is not used: a socket is on sv_ready while it is busy and
 *		no thread has taken it.
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
 *	is set again if data is still queued, and the socket goes to the
 *	back of sv_ready, so a peer that streams fragments holds no thread.
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
 * and every thread that owns or uses the socket holds one, taken when it
 * takes the socket off sv_ready: a socket on sv_ready is busy, so no
 * thread can delete it, and only the teardown takes it off otherwise.  No
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
 * The wakeup.  A thread stores its task state (set_current_state(), a
 * full barrier after the store), adds itself to sv_idle (llist_add(), a
 * fully ordered exchange) and then loads sv_ready; an enqueue adds to
 * sv_ready (the same kind of exchange) and then loads sv_idle's head.
 * Each side stores and then loads the other's word with a full barrier
 * between, so at least one sees the other: the thread finds the socket
 * and does not sleep, or the enqueue finds the thread (or one added after
 * it, which looks for work after the add) and wakes it.  A thread woken
 * with nothing to do, or asked to stop, leaves sv_idle without taking
 * work and wakes the next idle thread if work remains.
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
#include <linux/kthread.h>
#include <net/tcp_states.h>
#include "svcsock.h"
#include "svc_lwq.h"
#include "svc_trace.h"

/**
 * svc_serv_state_init() - Set up the hand-over state of a new service
 * @serv: the service, not yet serving
 *
 * An empty service: no idle thread, no socket ready.
 *
 * Context: Process context.
 */
void svc_serv_state_init(struct svc_serv *serv)
{
	svc_lwq_init(&serv->sv_ready);
	init_llist_head(&serv->sv_idle);
	spin_lock_init(&serv->sv_idle_lock);
}

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
	svsk->sk_qnode.next = &svsk->sk_qnode;	/* not on sv_ready */
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

/* Wake the first idle thread, unless it is running (woken already, or
 * about to look for work).  Returns the pid of the thread it woke, or 0.
 * Any context; no lock: sv_idle is read under rcu_read_lock(), and a
 * thread's svc_rqst is freed after a grace period (svcsock_rqst_free())
 * and its task too.
 */
static pid_t svc_wake_idle_thread(struct svc_serv *serv)
{
	struct llist_node *first;
	struct svc_rqst	*rqstp;
	pid_t		pid = 0;

	rcu_read_lock();
	first = READ_ONCE(serv->sv_idle.first);
	if (first) {
		rqstp = llist_entry(first, struct svc_rqst, rq_idle);
		if (!task_is_running(rqstp->rq_task)) {
			svc_stat_inc(SVC_STAT_THREADS_WOKEN);
			pid = task_pid_nr(rqstp->rq_task);
			wake_up_process(rqstp->rq_task);
		}
	}
	rcu_read_unlock();
	return pid;
}

/**
 * svc_build_enqueue() - Queue up a socket with data pending
 * @svsk: the socket
 *
 * If there are idle server threads, wake one.
 *
 * Context: May be called from any context, with no locks held; takes
 * SK_BUSY unless another caller holds it.  The caller keeps the socket
 * from being freed (a reference, or the callback's sk_callback_lock) until
 * this returns.
 */
void svc_build_enqueue(struct svc_sock *svsk)
{
	struct svc_serv	*serv = svsk->sk_server;

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

	/* A full barrier: the add is ordered before the look at sv_idle. */
	svc_lwq_enqueue(&svsk->sk_qnode, &serv->sv_ready);
	/* A thread may own it now; the caller keeps it from being freed. */
	if (svc_wake_idle_thread(serv))
		trace_svcsock_enqueue(svsk, SVC_ENQ_WOKE);
	else
		trace_svcsock_enqueue(svsk, SVC_ENQ_QUEUED);
}

/**
 * svc_sock_dequeue() - Dequeue the first socket
 * @serv: the service
 *
 * Context: Process context.
 *
 * Return: the first socket on sv_ready, now off it, or NULL when there is
 * none.
 */
static struct svc_sock *svc_sock_dequeue(struct svc_serv *serv)
{
	struct llist_node *n = svc_lwq_dequeue(&serv->sv_ready);
	struct svc_sock	*svsk;

	if (!n)
		return NULL;
	svsk = llist_entry(n, struct svc_sock, sk_qnode);
	WRITE_ONCE(svsk->sk_qnode.next, &svsk->sk_qnode);
	return svsk;
}

/* Take this thread off sv_idle, wherever it is.  Others add at the head
 * without a lock, and only thread code takes a node off, under
 * sv_idle_lock; so below the head no next pointer changes under us.
 * Process context.
 */
static void svc_idle_remove(struct svc_serv *serv, struct svc_rqst *rqstp)
{
	struct llist_node *me = &rqstp->rq_idle;
	struct llist_node *first, *n;

	svc_spin_lock(&serv->sv_idle_lock, SVC_IDLE_LOCK);
	first = READ_ONCE(serv->sv_idle.first);
	svc_stat_inc(SVC_STAT_FLAG_RMW);
	if (first != me || !try_cmpxchg(&serv->sv_idle.first, &first, me->next)) {
		/* Not the head, or a thread was added above us: unlink. */
		for (n = first; n->next != me; n = n->next)
			;
		WRITE_ONCE(n->next, me->next);
	}
	spin_unlock(&serv->sv_idle_lock);
}

/**
 * svc_sock_wait() - Wait for a socket that needs attention
 * @rqstp: the thread
 *
 * Context: Process context, no locks held; sleeps.
 *
 * Return: the socket, owned (SK_BUSY, taken by the enqueue, is now this
 * thread's) and with a reference for the thread; or NULL when there was
 * none (woken for a socket another thread took, or asked to stop).
 */
struct svc_sock *svc_sock_wait(struct svc_rqst *rqstp)
{
	struct svc_serv	*serv = rqstp->rq_server;
	struct svc_sock	*svsk;
	bool		slept = false;

	if (svc_lwq_empty(&serv->sv_ready) && !kthread_should_stop()) {
		/* A full barrier after the store: see "The wakeup" above. */
		set_current_state(TASK_IDLE);
		svc_stat_inc(SVC_STAT_FLAG_RMW);
		llist_add(&rqstp->rq_idle, &serv->sv_idle);
		if (svc_lwq_empty(&serv->sv_ready) && !kthread_should_stop()) {
			schedule();
			slept = true;
		}
		__set_current_state(TASK_RUNNING);
		svc_idle_remove(serv, rqstp);
	}

	svsk = kthread_should_stop() ? NULL : svc_sock_dequeue(serv);
	/* The waker chain: work left behind gets the next idle thread. */
	if (!svc_lwq_empty(&serv->sv_ready)) {
		pid_t pid = svc_wake_idle_thread(serv);

		if (pid)
			trace_svcsock_wake_next(pid);
	}
	if (!svsk) {
		if (slept && !kthread_should_stop())
			svc_stat_inc(SVC_STAT_WAKEUPS_IDLE);
		return NULL;
	}
	rqstp->rq_sock = svsk;
	svc_sock_get(svsk);
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
	if (svc_sock_data_queued(svsk))
		svc_set_bit(SK_DATA, &svsk->sk_svc_flags); /* more data... */

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
	if (svc_sock_data_queued(svsk))
		svc_set_bit(SK_DATA, &svsk->sk_svc_flags);

	/* A record, or fragments of one (-EINPROGRESS): maybe more. */
	svc_sock_received(svsk);
	return len;
}

/* Take every socket off sv_ready.  Teardown only, every thread stopped:
 * each keeps SK_BUSY, so none is queued again, and each is about to be
 * deleted.  Process context.
 */
static void svc_sock_drain(struct svc_serv *serv)
{
	while (svc_sock_dequeue(serv))
		;
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

	/* Only at teardown is a socket being deleted still on sv_ready. */
	if (READ_ONCE(svsk->sk_qnode.next) != &svsk->sk_qnode)
		svc_sock_drain(serv);

	svc_spin_lock_bh(&serv->sv_lock, SVC_SV_LOCK);

	list_del_init(&svsk->sk_list);
	if (test_bit(SK_TEMP, &svsk->sk_svc_flags))
		WRITE_ONCE(serv->sv_tmpcnt, serv->sv_tmpcnt - 1);

	svc_set_bit(SK_DEAD, &svsk->sk_svc_flags);

	spin_unlock_bh(&serv->sv_lock);

	/* The lists' reference; a thread's own keeps it until it is done. */
	svc_sock_put(svsk);
}
