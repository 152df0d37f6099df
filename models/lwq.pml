/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lwq.pml: the hand-over protocol of the lwq build
 * (svcsock-mod/xprt_lwq.c, svc_lwq.c): the queued build's flag rules
 * (queued.pml) with Linux 6.7's hand-over (lwq67.pml), and the build's one
 * deviation from 6.7: a thread leaves the idle list from anywhere.
 * diff -u queued.pml lwq.pml shows the hand-over change.
 *
 * The hand-over:
 *   - svc_sock_enqueue() tests the ready flags, claims SK_BUSY with
 *     test_and_set_bit_lock(), adds the socket to sv_ready (a light-weight
 *     queue: llist_add() to q->new, no lock) and wakes the first thread
 *     on sv_idle unless it is running.  It takes no lock.  Nothing is
 *     handed to a thread: a woken thread dequeues for itself.
 *   - sv_ready's consumers (threads) take q->lock, which no producer
 *     takes: the head of q->ready, or when that is empty, with a marker
 *     in q->ready, all of q->new at once (llist_del_all(), reversed).
 *   - sv_idle is an llist of idle threads, newest first.  A thread sets
 *     TASK_IDLE, adds itself without a lock, looks for work once more,
 *     sleeps, sets TASK_RUNNING, and takes itself off from wherever it is
 *     under sv_idle_lock, which only threads take (6.7 leaves only from
 *     the head, lock-free, and stops whichever thread wakes; our pool
 *     stops a chosen thread, with kthread_stop()).
 *   - The waker reads the head of sv_idle without a lock (RCU) and wakes
 *     that thread unless it is running; it never takes it off.
 *   - After its dequeue (or none, or none because it was asked to stop)
 *     a thread that sees sv_ready not empty wakes the first idle thread:
 *     the waker chain.  A thread woken with nothing to do returns and
 *     counts wakeups_idle; one asked to stop returns and exits.
 *   - The teardown (svc_shutdown()) detaches the listener, stops every
 *     thread, then deletes every socket; a socket found still on
 *     sv_ready makes it drain the queue first.  A deleted socket keeps
 *     SK_BUSY.
 * The flag rules are queued.pml's: rules 1-4 of the 2002 patch, with
 * SK_DATA set again after a read only while data is queued.
 *
 * Memory model: sequential consistency (common.pml).  The ordered steps
 * stand for these barriers in the C:
 *   - svc_sock_enqueue()'s smp_mb__after_atomic() before its load of the
 *     flags; test_and_set_bit_lock() an acquire, clear_bit_unlock() a
 *     release, as in queued.pml;
 *   - set_current_state(TASK_IDLE) is a store and a full barrier, and
 *     llist_add() a fully ordered exchange: the thread's store to sv_idle
 *     is ordered before its last look at sv_ready; the producer's
 *     llist_add() to sv_ready is ordered before its load of sv_idle's
 *     head (xprt_lwq.c, "The wakeup");
 *   - svc_lwq_empty()'s smp_load_acquire() of q->ready pairs with the
 *     marker's smp_store_release() (svc_lwq.c).
 * Granularity: one step per bitop, per lockless load (q->ready, q->new,
 * sv_idle's head, a task's state) and per atomic operation
 * (llist_add(), llist_del_all()); the q->lock section is three steps when
 * it moves q->new (the marker, the exchange, the store of q->ready) and
 * one otherwise.  Merged, each with a reason at its place: the task state
 * with llist_add(); each load of the stop flag (svc_thread()'s loop
 * test too) with the load of sv_ready next to it;
 * __set_current_state(TASK_RUNNING) with the look that found work;
 * svc_idle_remove() whole; the wake's test and wake_up_process();
 * svc_sock_get() with the dequeue.  With -DLWQ_FINE=0 sv_ready is one
 * FIFO and each of its operations one step, as lwq67.pml has it.  Ghost
 * updates and printfs ride in the step they describe.
 *
 * Not in the other models: STOP threads are stopped with kthread_stop()
 * (the last first, one at a time), and TEARDOWN=1 runs svc_shutdown() (it
 * needs CULL=0: the age work is cancelled first, and a thread's
 * svc_check_conn_limits() is over once the threads have stopped).  Their
 * property (h): a thread asked to stop does stop (it is never left asleep
 * on sv_idle), and after the teardown every socket is freed and sv_ready
 * is empty.
 *
 * Run: spin -a lwq.pml && gcc -O2 -DSAFETY -o pan pan.c && ./pan -m100000
 * Progress (i): spin -a lwq.pml && gcc -O2 -DNP -DNFAIR=4 -o pan pan.c &&
 *   ./pan -l -m100000 (-l -f for MUTANT_LIVELOCK; common.pml says why)
 * Parameters, properties and mutants: README.md.
 */

/* sk_svc_flags (svcsock.h); SK_DEAD is the ghost deleted[] */
#define SK_BUSY		1
#define SK_CONN		2
#define SK_CLOSE	4
#define SK_DATA		8
#define SK_TEMP		16

/* What common.pml and world.pml need of the build */
#define QUEUED(s)	(onq[s])		/* on sv_ready */
#define QUEUE_LEN	(nrdy + nnew)
#define PROTO_LOCALS	byte f; byte w; byte n; bit a

/* This model's own parameters */
#ifndef STOP
#define STOP	0	/* threads the pool stops (kthread_stop()), the last first */
#endif
#ifndef TEARDOWN
#define TEARDOWN 0	/* 1: svc_shutdown(): every thread stopped, every socket closed */
#endif
#ifndef LWQ_FINE
#define LWQ_FINE 1	/* 1: svc_lwq.c step by step; 0: sv_ready one FIFO */
#endif
#define STOPPER		(STOP > 0 || TEARDOWN)
#define NSTOPPED	(TEARDOWN -> NTHREAD : STOP)

#include "common.pml"

#if STOP > NTHREAD
#error "STOP <= NTHREAD"
#endif
#if TEARDOWN && CULL
#error "TEARDOWN needs CULL=0"
#endif

byte flags[NS];

/*
 * sv_ready, a struct svc_lwq (svc_lwq.c): q->ready, the entries a
 * consumer moved over, oldest first; q->new, the llist the producers add
 * to, kept here in the order of the adds (llist_reverse_order() restores
 * that order when they move); q->lock, which only consumers take; and
 * the marker q->ready holds while a consumer moves q->new over.  During
 * the move the entries are in rdy[] already, but what a lockless reader
 * finds in q->ready is the marker (READY_SEEN).
 */
byte rdy[NS];
byte nrdy;
byte nw[NS];
byte nnew;
bit  qlock;
bit  moving;
bit  onq[NS];			/* on sv_ready: sk_qnode.next != &sk_qnode */

/*
 * sv_idle, an llist of idle threads: idle[nidle - 1] is its first entry,
 * the newest.  Each thread's task state, and kthread_should_stop().
 */
byte idle[NTHREAD];
byte nidle;
#define TASK_RUNNING	0
#define TASK_IDLE	1
bit  tstate[NTHREAD];
bit  should_stop[NTHREAD];
bit  gone[NTHREAD];		/* ghost: the thread function returned */
byte stop_hang = NONE;		/* ghost (h): asked to stop, left asleep on sv_idle */
byte leaked = NONE;		/* ghost (h): a socket the teardown did not free */

#define IDLE_FIRST	(nidle > 0 -> idle[nidle - 1] : NONE)
#define GONE		254	/* svc_sock_wait(): the thread is to return */

/*
 * Every write of sk_svc_flags.  (c): once SK_CLOSE is set, no write may
 * clear it.
 */
inline flags_store(s, v)
{
	assert(!close_set[s] || ((v) & SK_CLOSE));
	flags[s] = v;
	close_set[s] = close_set[s] | (((v) & SK_CLOSE) != 0)
}

/* The flags as letters for the trace: B=BUSY C=CONN X=CLOSE D=DATA */
#define FL(s, b, c)	((flags[s] & (b)) -> (c) : '-')
#define PRINT_FLAGS(s)	printf("socket %d flags %c%c%c%c\n", s,	\
	FL(s, SK_BUSY, 'B'), FL(s, SK_CONN, 'C'), FL(s, SK_CLOSE, 'X'), FL(s, SK_DATA, 'D'))

/* set_bit(), clear_bit(): one atomic read-modify-write each */
inline set_bit(b, s)
{
	d_step {
		touch(s);
		flags_store(s, flags[s] | (b));
		PRINT_FLAGS(s)
	}
}

inline clear_bit(b, s)
{
	d_step {
		touch(s);
		flags_store(s, flags[s] & ~(b));
		PRINT_FLAGS(s)
	}
}

/*
 * __set_bit(): a plain read-modify-write, a load and a store between
 * which other CPUs' bitops can fall.  Only MUTANT_RACY_SET uses it
 * (tests/mutants/bitflag_racy.patch makes the same change in the UDP
 * callback).
 */
inline __set_bit(b, s)
{
	d_step {
		touch(s);
		f = flags[s];
		printf("__set_bit: loads the flags of socket %d\n", s)
	}
	d_step { touch(s); flags_store(s, f | (b)); f = 0; PRINT_FLAGS(s) }
}

/*
 * __clear_bit(): the same for a clear.  Only MUTANT_RACY_CLEAR uses it,
 * for the owner's clear of SK_DATA before a read: a set of SK_DATA that
 * it undoes came before the read, which finds that data; a set of
 * SK_CLOSE is lost.
 */
inline __clear_bit(b, s)
{
	d_step {
		touch(s);
		f = flags[s];
		printf("__clear_bit: loads the flags of socket %d\n", s)
	}
	d_step { touch(s); flags_store(s, f & ~(b)); f = 0; PRINT_FLAGS(s) }
}

/*
 * The state when svc_create_sockets() returns: the listener precharged,
 * handed back and idle; no thread handed anything.
 */
inline init_listener()
{
	flags[LISTENER] = 0
}

/* An accepted socket set up before the run (ACCEPT=0): idle */
inline init_socket(s)
{
	flags[s] = SK_TEMP
}

/*
 * svc_lwq.c:svc_lwq_empty(): !smp_load_acquire(&q->ready) &&
 * llist_empty(&q->new), two loads.  A reader may load q->ready before a
 * consumer stores the marker and q->new after the consumer took it
 * whole, and find the queue empty while the consumer holds the entries.
 * MUTANT_NO_MARKER leaves the marker out: q->ready then looks NULL for
 * the whole move (a control: the waker chain covers the window anyway).
 */
#ifdef MUTANT_NO_MARKER
#define READY_SEEN	(nrdy > 0 && !moving)
#else
#define READY_SEEN	(nrdy > 0 || moving)
#endif

inline lwq_empty(e)
{
#if LWQ_FINE
	d_step { e = !READY_SEEN }
	if
	:: e -> d_step { e = (nnew == 0) }
	:: else
	fi
#else
	d_step { e = (nrdy + nnew == 0) }
#endif
}

/*
 * The thread's looks for work in xprt_lwq.c:svc_sock_wait():
 * "svc_lwq_empty(&serv->sv_ready) && !kthread_should_stop()", two or
 * three loads.  The loads of the stop flag ride in the loads of the queue
 * next to them: only kthread_stop() writes it, once, and a load of it
 * commutes with every step but that write.  With first, the look before
 * llist_add(): the load of svc_thread()'s loop ("while
 * (!kthread_should_stop())") rides in it too, and e = 2 when the thread
 * is to return (gone and counted in the same step).  Without it, the look
 * after llist_add(): a thread that finds work (or a stop) sets
 * TASK_RUNNING in the same step, as the __set_current_state() after it
 * does; a waker could tell the two apart only by waking a thread that
 * runs on anyway.
 */
inline should_sleep(e, t, first)
{
	d_step {
		if
		:: first && should_stop[t] ->
			e = 2;
			gone[t] = 1;
			exited++;
			printf("svc_thread: kthread_should_stop(), returns\n")
		:: else ->
#if LWQ_FINE
			e = !READY_SEEN;
			if
			:: !e && !first ->
				tstate[t] = TASK_RUNNING;
				printf("svc_sock_wait: q->ready not NULL: work, no sleep\n")
			:: e && !first ->
				printf("svc_sock_wait: q->ready is NULL\n")
			:: else
			fi
#else
			e = (nrdy + nnew == 0 && !should_stop[t]);
			if
			:: !e && !first ->
				tstate[t] = TASK_RUNNING;
				printf("svc_sock_wait: work (or a stop), no sleep\n")
			:: e && !first ->
				printf("svc_sock_wait: sv_ready empty: schedule()\n")
			:: else
			fi
#endif
		fi
	}
#if LWQ_FINE
	if
	:: e == 1 ->
		d_step {
			e = (nnew == 0 && !should_stop[t]);
			if
			:: !e && !first ->
				tstate[t] = TASK_RUNNING;
				printf("svc_sock_wait: work in q->new (or a stop), no sleep\n")
			:: e && !first ->
				printf("svc_sock_wait: q->new empty too: schedule()\n")
			:: else
			fi
		}
	:: else
	fi
#endif
}

/*
 * svc_lwq.c:svc_lwq_enqueue(): llist_add() to q->new, one exchange, no
 * lock.  (d): a deleted socket is never queued; (b): nor one already
 * queued (its SK_BUSY is held for the thread that will dequeue it).
 */
inline svc_lwq_enqueue(s)
{
	d_step {
		touch(s);
		assert(!deleted[s]);
		assert(!onq[s]);
		nw[nnew] = s;
		nnew++;
		onq[s] = 1;
		printf("svc_sock_enqueue: socket %d added to sv_ready\n", s)
	}
}

/* Take the head of q->ready: WRITE_ONCE(q->ready, this->next) */
inline lwq_pop(s, thread)
{
	s = rdy[0];
	for (n : 1 .. NS - 1) {
		rdy[n - 1] = rdy[n]
	}
	nrdy--;
	rdy[nrdy] = 0;
	n = 0;
	touch(s);
	onq[s] = 0;
#ifndef MUTANT_DEQUEUE_NOREF
	if
	:: thread -> svc_sock_get(s)
	:: else
	fi;
#endif
	printf("svc_sock_dequeue: socket %d\n", s)
}

/* llist_reverse_order(llist_del_all(&q->new)): q->new, oldest first */
inline lwq_move()
{
	for (n : 0 .. NS - 1) {
		rdy[n] = nw[n];
		nw[n] = 0
	}
	nrdy = nnew;
	nnew = 0;
	n = 0
}

/*
 * xprt_lwq.c:svc_sock_dequeue(): svc_lwq_dequeue(), then sk_qnode.next
 * pointed at itself (the ghost onq[], cleared with the dequeue: only the
 * socket's deleter reads it, and that is its owner or the teardown).
 * svc_lwq_dequeue(): svc_lwq_empty() without the lock; then, under
 * q->lock, the head of q->ready; or, when q->ready is empty and q->new
 * is not, the marker stored, q->new taken whole, its first entry kept and
 * the rest stored in q->ready.  The lock, the loads of q->ready and q->new
 * and the store of the marker are one step: producers only add to q->new,
 * and only q->lock's holder writes q->ready.  (e): the entry is read
 * (this->next) and must not have been freed.
 *
 * For a thread (thread): "kthread_should_stop() ? NULL :" before it, its
 * load riding in svc_lwq_empty()'s first; and svc_sock_wait()'s
 * svc_sock_get() after the waker chain rides in the dequeue: the socket
 * is this thread's (SK_BUSY) and listed, so nobody can drop the lists'
 * reference before it (MUTANT_DEQUEUE_NOREF leaves it out).  The
 * teardown's svc_sock_drain() calls it with thread 0.
 */
inline svc_sock_dequeue(s, t, thread)
{
	d_step {
		if
		:: thread && should_stop[t] ->
			f = 2;
			printf("svc_sock_wait: asked to stop, dequeues nothing\n")
		:: else ->
#if LWQ_FINE
			f = !READY_SEEN
#else
			f = (nrdy + nnew == 0)
#endif
		fi
	}
#if LWQ_FINE
	if
	:: f == 1 -> d_step { f = (nnew == 0) }
	:: else
	fi;
#endif
	if
	:: f ->
		d_step { f = 0; s = NONE }
	:: else ->
#if LWQ_FINE
		d_step {
			qlock == 0 ->
			if
			:: nrdy > 0 ->
				lwq_pop(s, thread)
			:: nrdy == 0 && nnew == 0 ->
				s = NONE;
				printf("svc_sock_dequeue: nothing\n")
			:: nrdy == 0 && nnew > 0 ->
				qlock = 1;
				a = 1;
				moving = 1;	/* smp_store_release(&q->ready, SVC_LWQ_MOVING) */
				printf("svc_lwq_dequeue: q->ready holds the marker\n")
			fi
		}
		if
		:: a ->
			d_step {
				lwq_move();
				printf("svc_lwq_dequeue: takes q->new whole, %d entries\n", nrdy)
			}
			d_step {
				lwq_pop(s, thread);
				moving = 0;
				qlock = 0;
				a = 0
			}
		:: else
		fi
#else
		d_step {
			if
			:: nrdy == 0 -> lwq_move()
			:: else
			fi;
			if
			:: nrdy > 0 ->
				lwq_pop(s, thread)
			:: else ->
				s = NONE;
				printf("svc_sock_dequeue: nothing\n")
			fi
		}
#endif
	fi
}

/*
 * xprt_lwq.c:svc_wake_idle_thread(): no lock.  Under rcu_read_lock(),
 * READ_ONCE() of sv_idle's first entry; then wake_up_process() unless
 * task_is_running() (try_to_wake_up() does nothing to a running task, so
 * the test and the wake are one step).  The thread is not taken off
 * sv_idle: it leaves by itself.  The entry may be stale by the time its
 * state is read: RCU keeps its svc_rqst, and a stale wake is harmless.
 * MUTANT_SKIP_RUNNING_WRONG inverts the test: the waker leaves the first
 * idle thread be when it is asleep.
 */
#ifdef MUTANT_SKIP_RUNNING_WRONG
#define WAKE_IT(w)	(tstate[w] == TASK_RUNNING)
#else
#define WAKE_IT(w)	(tstate[w] != TASK_RUNNING)
#endif

inline svc_wake_idle_thread()
{
	d_step {
		w = IDLE_FIRST;
		if
		:: w == NONE -> printf("svc_wake_idle_thread: no idle thread\n")
		:: else
		fi
	}
	if
	:: w != NONE ->
		d_step {
			if
			:: WAKE_IT(w) ->
				tstate[w] = TASK_RUNNING;
				printf("svc_wake_idle_thread: wakes thread %d\n", w)
			:: else ->
				printf("svc_wake_idle_thread: thread %d is running, left be\n", w)
			fi;
			w = 0
		}
	:: else ->
		w = 0
	fi
}

/*
 * xprt_lwq.c:svc_sock_enqueue(): any context, no locks held, and it
 * takes none.  (b): the receive side is entered by the enqueue that wins
 * SK_BUSY, on behalf of the thread that will dequeue the socket.
 */
inline svc_sock_enqueue(s)
{
	/* smp_mb__after_atomic(); svc_sock_ready(): READ_ONCE(sk_svc_flags) */
	d_step {
		touch(s);
		f = flags[s] & (SK_CONN | SK_CLOSE | SK_DATA);
		if
		:: f -> printf("svc_sock_enqueue: socket %d has work\n", s)
		:: else
		fi
	}
	if
	:: f ->
#ifdef MUTANT_TEST_THEN_SET
		/* test_bit(SK_BUSY), then set_bit(SK_BUSY): not one atomic op */
		d_step { touch(s); f = flags[s] & SK_BUSY }
		if
		:: !f -> d_step { touch(s); flags_store(s, flags[s] | SK_BUSY); own_enter(s) }
		:: else
		fi;
#else
		/* test_and_set_bit_lock(SK_BUSY) */
		d_step {
			touch(s);
			f = flags[s] & SK_BUSY;
			flags_store(s, flags[s] | SK_BUSY);
			if
			:: !f -> own_enter(s)
			:: else
			fi
		}
#endif
		if
		:: f ->
			d_step {
				printf("svc_sock_enqueue: socket %d busy\n", s);
				f = 0
			}
		:: else ->
			/* A full barrier: the add is ordered before the look at sv_idle. */
			svc_lwq_enqueue(s);
			svc_wake_idle_thread()
		fi
	:: else
	fi
}

/*
 * xprt_lwq.c:svc_sock_received(): the caller owns SK_BUSY and gives
 * it back with clear_bit_unlock().  The reference keeps the socket alive
 * across the enqueue: once SK_BUSY is clear another thread may delete
 * it, and the creator of a new socket holds none of its own.  Taking it
 * and clearing SK_BUSY are one step here: while SK_BUSY is ours nobody
 * can delete the socket.
 */
inline svc_sock_received(s)
{
#ifdef MUTANT_ENQUEUE_BEFORE_CLEAR
	/* rule 1 broken: enqueue, then clear SK_BUSY */
	svc_sock_get(s);
	svc_sock_enqueue(s);
	d_step { own_exit(s); touch(s); flags_store(s, flags[s] & ~SK_BUSY) }
#else
	d_step {
#ifndef MUTANT_RECEIVED_NOREF
		svc_sock_get(s);
#endif
		own_exit(s);
		/* clear_bit_unlock(SK_BUSY) */
		touch(s);
		flags_store(s, flags[s] & ~SK_BUSY);
		printf("svc_sock_received: socket %d given back\n", s);
		PRINT_FLAGS(s)
	}
	svc_sock_enqueue(s);
#endif
#ifndef MUTANT_RECEIVED_NOREF
	svc_sock_put(s)
#endif
}

/* xprt_lwq.c:svc_sock_set_close(): any context */
inline svc_sock_set_close(s)
{
	set_bit(SK_CLOSE, s);
	svc_sock_enqueue(s)
}

/*
 * xprt_lwq.c:svc_delete_socket() called by a thread: the caller owns
 * SK_BUSY, which it never gives back.  svc_sock_detach() under the write
 * side of sk_callback_lock (it waits for the callbacks that hold the read
 * side), then the lists under sv_lock, then the lists' reference.  The
 * teardown's call is svc_close_all(), below.
 */
inline svc_delete_socket(s)
{
	assert_not_listener(s);
	atomic { in_cb[s] == 0 -> touch(s); attached[s] = 0 }
	d_step {
		sv_lock == 0 ->
		touch(s);
		/*
		 * "Only at teardown is a socket being deleted still on
		 * sv_ready" (READ_ONCE(sk_qnode.next)): a thread owns this one.
		 */
		assert(!onq[s]);
		listed[s] = 0;
		deleted[s] = 1;			/* set_bit(SK_DEAD) */
		own_exit(s);
		printf("svc_delete_socket: socket %d deleted\n", s)
	}
	svc_sock_put(s)
}

/*
 * xprt_lwq.c:svc_sock_precharge(): the creator owns SK_BUSY (the
 * socket was born busy); data may have come before the callbacks.  It
 * hands the socket back and must not touch it afterwards.
 */
inline svc_sock_precharge(s)
{
	set_bit(SK_DATA, s);
#ifdef MUTANT_PUBLISH_UNOWNED
	svc_sock_enqueue(s)
#else
	svc_sock_received(s)
#endif
}

/*
 * svc_sock.c:svc_setup_socket() for accepted socket n: born with one
 * reference (the lists') and SK_BUSY set (svc_sock_state_init()), so its
 * creator owns it; put on sv_tempsocks under sv_lock; published to the
 * callbacks under the write side of sk_callback_lock; flagged to close
 * if the peer had already gone.  MUTANT_PUBLISH_UNOWNED is the code
 * before "own every socket from birth": born not busy, precharged after
 * publication.
 */
inline svc_setup_socket(n)
{
	d_step {
		born[n] = 1;
		ref[n] = 1;
#ifdef MUTANT_PUBLISH_UNOWNED
		flags[n] = SK_TEMP
#else
		flags[n] = SK_BUSY | SK_TEMP;
		own_enter(n)
#endif
	}
	atomic { sv_lock == 0 -> listed[n] = 1 }
	atomic {
		in_cb[n] == 0 ->
		attached[n] = 1;
		printf("svc_setup_socket: socket %d published\n", n)
	}
	if
	:: peer_reset[n] -> svc_sock_set_close(n)
	:: else
	fi
}

/*
 * xprt_lwq.c:svc_tcp_accept(): the caller owns the listener.  Rule 3
 * for SK_CONN: cleared, accepted, set again when a connection came.
 */
inline svc_tcp_accept(l)
{
	clear_bit(SK_CONN, l);
	kernel_accept(n);
	if
	:: n != NONE ->
progress_accept:	/* a connection accepted: progress (common.pml) */
		set_bit(SK_CONN, l);
		svc_setup_socket(n);
		svc_sock_precharge(n);
		n = 0
		/* svc_check_conn_limits(): the culler process */
	:: else ->
		n = 0
	fi
}

/*
 * xprt_lwq.c:svc_tcp_recvfrom(): the caller owns SK_BUSY.  ret > 0:
 * a call to process.
 */
inline svc_tcp_recvfrom(s, ret)
{
	/*
	 * test_bit(SK_CLOSE), then test_bit(SK_CONN): one load stands for
	 * both, as SK_CONN is only ever set on the listener and SK_CLOSE
	 * only on accepted sockets.
	 */
	d_step { touch(s); f = flags[s] & (SK_CLOSE | SK_CONN) }
	if
	:: f & SK_CLOSE ->
progress_close:	/* a close acted on, the socket deleted: progress */
		f = 0;
		svc_delete_socket(s);
#ifdef MUTANT_DEAD_UNBUSY
		/* the dead socket's SK_BUSY given back, as svc_sock_received() */
		clear_bit(SK_BUSY, s);
		svc_sock_enqueue(s);
#endif
		ret = 0
	:: else ->
		if
		:: f ->
			f = 0;
			svc_tcp_accept(s);
			svc_sock_received(s);
			ret = 0
#ifndef MUTANT_LISTEN_READ
		:: !f && s == LISTENER ->	/* !svc_sock_is_temp() */
			/* a listener handed over after SK_CONN was cleared: idle */
			svc_sock_received(s);
			ret = 0
		:: !f && s != LISTENER ->
#else
		:: !f ->
#endif
#ifdef MUTANT_RACY_CLEAR
			__clear_bit(SK_DATA, s);
#elif !defined(MUTANT_CLEAR_AFTER_TEST)
			clear_bit(SK_DATA, s);
#endif
#ifdef MUTANT_EARLY_RECEIVED
			/* SK_BUSY cleared before the read, not after it */
			clear_bit(SK_BUSY, s);
#endif
			tcp_read_record(s, ret);
			if
			:: ret == -EAGAIN ->
				/* data_ready will set SK_DATA again */
#ifdef MUTANT_CLEAR_AFTER_TEST
				clear_bit(SK_DATA, s);
#endif
#ifdef MUTANT_LIVELOCK
				/*
				 * rule 3 applied to a read that failed: SK_DATA
				 * set again after -EAGAIN, so the give-back
				 * enqueues the empty socket again, for ever (i)
				 */
				set_bit(SK_DATA, s);
#endif
				svc_sock_received(s);
				ret = 0
			:: ret == -ERESET ->
progress_reset:			/* the peer's reset acted on: progress */
				svc_delete_socket(s);
				ret = 0
			:: ret > 0 ->
progress_record:		/* a record read, a call to serve: progress */
#ifdef MUTANT_CLEAR_AFTER_TEST
				/*
				 * rule 3 turned round: SK_DATA left set across
				 * the read, and cleared after it when
				 * svc_sock_data_queued() finds nothing
				 */
				d_step { touch(s); f = (rxq[s] > 0) }
				if
				:: f -> f = 0
				:: else -> clear_bit(SK_DATA, s)
				fi;
#elif !defined(MUTANT_NO_RULE3)
				/* rule 3, if svc_sock_data_queued() */
				d_step { touch(s); f = (rxq[s] > 0) }
				if
				:: f -> f = 0; set_bit(SK_DATA, s)
				:: else
				fi;
#endif
				svc_sock_received(s)
			fi
		fi
	fi
}

/*
 * xprt_lwq.c:svc_idle_remove(): take this thread off sv_idle, wherever it
 * is, under sv_idle_lock, which only threads take.  One step: adders only
 * llist_add() at the head, and the removal either moves the head past
 * this thread with one cmpxchg (failing if an add came first) or unlinks
 * it below the head, whose next pointers only sv_idle_lock's holder
 * writes.  MUTANT_HEAD_ONLY is 6.7's removal (llist_del_first_this(),
 * lwq67.pml): a thread leaves only from the head, and sleeps again until
 * it is there; fine when the pool stops whichever thread wakes, not when
 * it stops a chosen one.
 */
inline svc_idle_remove(t)
{
#ifdef MUTANT_HEAD_ONLY
	do
	:: d_step {
		IDLE_FIRST == t ->
		nidle--;
		idle[nidle] = 0;
		printf("svc_idle_remove: leaves sv_idle from its head\n")
	   };
	   break
	:: d_step {
		IDLE_FIRST != t ->
		tstate[t] = TASK_IDLE;	/* schedule(); set_current_state(TASK_IDLE) */
		printf("svc_idle_remove: not first on sv_idle, sleeps again\n")
	   };
end_resleep:	   tstate[t] == TASK_RUNNING
	od
#else
	d_step {
		n = 0;
		do
		:: idle[n] == t -> break
		:: else -> n++
		od;
		assert(n < nidle);
		do
		:: n + 1 < nidle -> idle[n] = idle[n + 1]; n++
		:: else -> break
		od;
		nidle--;
		idle[nidle] = 0;
		n = 0;
		printf("svc_idle_remove: leaves sv_idle\n")
	}
#endif
}

/*
 * The waker chain (svc_sock_wait() after its dequeue): if sv_ready is
 * not empty, wake the first idle thread.  MUTANT_NO_WAKE_NEXT leaves it
 * out; MUTANT_STOP_NO_WAKE leaves it out for a thread asked to stop
 * ("if (kthread_should_stop()) return NULL;" before it).
 */
inline svc_wake_next(t)
{
#ifndef MUTANT_NO_WAKE_NEXT
#ifdef MUTANT_STOP_NO_WAKE
	if
	:: should_stop[t]
	:: else ->
#endif
		lwq_empty(f);
		if
		:: !f -> svc_wake_idle_thread()
		:: else -> f = 0
		fi
#ifdef MUTANT_STOP_NO_WAKE
	fi
#endif
#else
	skip
#endif
}

/*
 * svc_thread()'s loop test and xprt_lwq.c:svc_sock_wait(): s is GONE if
 * the thread is to return; otherwise a socket this thread now owns
 * (SK_BUSY, taken by its enqueue) with a reference, or NONE: woken for a
 * socket another thread took, or asked to stop.
 */
inline svc_sock_wait(t, s)
{
	should_sleep(f, t, 1);
	if
	:: f == 2 ->
		f = 0;
		s = GONE
	:: f != 2 ->
		if
		:: f == 1 ->
#ifdef MUTANT_ADD_AFTER_CHECK
			/* the last look for work made before llist_add(), not after */
			d_step {
				f = 0;
				tstate[t] = TASK_IDLE;
				printf("svc_sock_wait: set_current_state(TASK_IDLE)\n")
			}
			should_sleep(f, t, 0);
			d_step {
				idle[nidle] = t;
				nidle++;
				printf("svc_sock_wait: llist_add() to sv_idle\n")
			}
#else
			/*
			 * set_current_state(TASK_IDLE); llist_add(&rqstp->rq_idle,
			 * &serv->sv_idle).  One step: only a waker that found
			 * this thread on sv_idle reads its state.
			 */
			d_step {
				f = 0;
				tstate[t] = TASK_IDLE;
				idle[nidle] = t;
				nidle++;
				printf("svc_sock_wait: idle, on sv_idle\n")
			}
#ifdef MUTANT_NO_RECHECK
			f = 1;		/* schedule() without looking again */
#else
			should_sleep(f, t, 0);
#endif
#endif
			if
			:: f ->
				f = 0;
end_sleep:			tstate[t] == TASK_RUNNING	/* schedule() */
			:: else
			fi;
			svc_idle_remove(t)
		:: else
		fi;
		/* svsk = kthread_should_stop() ? NULL : svc_sock_dequeue(serv) */
		svc_sock_dequeue(s, t, 1);
		svc_wake_next(t);
		if
		:: s == NONE ->
			printf("svc_sock_wait: nothing for this thread\n")
		:: else
		fi
	fi
}

/*
 * A server thread: svc_server.c:svc_thread() and svcsock_recv(), with
 * the call's processing (svcsock_process(), svcsock_send()) and
 * svc_sock_release(); it returns when kthread_should_stop().
 */
proctype thread(byte t)
{
	PROTO_LOCALS;
	byte s;
	short ret;

	do
	:: svc_sock_wait(t, s);
		if
		:: s == GONE ->
			break
		:: s == NONE ->
			s = 0
		:: else ->
			svc_tcp_recvfrom(s, ret);
			if
			:: ret > 0 && STALL ->
				/* the call never ends, holding its reference */
				d_step {
					touch(s);
					stalled++;
					printf("svcsock_process: the call on socket %d never ends\n", s)
				};
end_stall:			false
			:: else ->
				/* svcsock_process(), svcsock_send(); svc_sock_release() */
				d_step {
					touch(s);
					svc_sock_put(s);
					s = 0;
					ret = 0
				}
			fi
		fi
	od
}

/*
 * xprt_lwq.c:svc_delete_socket() called by svc_sock.c:svc_close_all() at
 * teardown, every thread stopped: svc_sock_detach(); if the socket is
 * still on sv_ready (READ_ONCE(sk_qnode.next)), svc_sock_drain() takes
 * every socket off it (each keeps SK_BUSY, and is deleted in its turn);
 * the lists; the lists' reference.  MUTANT_NO_DRAIN deletes a queued
 * socket without draining: freed on the queue.
 */
inline svc_close_socket(s)
{
	atomic { in_cb[s] == 0 -> touch(s); attached[s] = 0 }
	d_step { touch(s); f = onq[s] }
	if
	:: f ->
		f = 0;
#ifndef MUTANT_NO_DRAIN
		do	/* svc_sock_drain(): while (svc_sock_dequeue()) */
		:: svc_sock_dequeue(d, 0, 0);
		   if
		   :: d == NONE -> break
		   :: else -> printf("svc_sock_drain: socket %d off sv_ready\n", d)
		   fi
		od;
		d = 0
#else
		skip
#endif
	:: else
	fi;
	d_step {
		sv_lock == 0 ->
		touch(s);
		listed[s] = 0;
		deleted[s] = 1;
		owners[s] = 0;	/* ghost: no thread owned it */
		printf("svc_close_all: socket %d deleted\n", s)
	}
	svc_sock_put(s)
}

/*
 * The pool shrinking (svc_server.c:svcsock_set_num_threads(), a write of
 * the threads parameter): kthread_stop() of the last STOP threads, one
 * at a time: the thread's stop flag set, wake_up_process(), and a wait
 * until the thread has returned.  With TEARDOWN, svc_server.c:
 * svc_shutdown(): the listener detached, every thread stopped so, then
 * svc_sock.c:svc_close_all(), tempsocks first; (h) then every socket has
 * been freed and sv_ready is empty.  Bounded, so no progress label
 * (common.pml); a thread's return (kthread_should_stop()) needs none
 * either: it happens once.
 */
proctype stopper()
{
	PROTO_LOCALS;
	byte v = NTHREAD, s, d;

	if
	:: TEARDOWN ->
		atomic {
			in_cb[LISTENER] == 0 ->
			attached[LISTENER] = 0;
			printf("svc_shutdown: the listener detached\n")
		}
	:: else
	fi;
	do
	:: v > NTHREAD - NSTOPPED ->
		d_step {
			v--;
			should_stop[v] = 1;
			printf("kthread_stop: thread %d asked to stop\n", v)
		};
		d_step {
			tstate[v] = TASK_RUNNING;
			printf("kthread_stop: wake_up_process(thread %d)\n", v)
		};
end_stop:	gone[v]
	:: else ->
		break
	od;
	if
	:: TEARDOWN ->
		for (s : 1 .. NSOCK) {
			if
			:: listed[s] -> svc_close_socket(s)
			:: else
			fi
		}
		svc_close_socket(LISTENER);
		d_step {
			for (s : 0 .. NS - 1) {
				if
				:: born[s] && !freed[s] -> leaked = s
				:: else
				fi
			}
			s = 0;
			printf("svc_shutdown: done, %d sockets on sv_ready\n", nrdy + nnew)
		}
		assert(leaked == NONE && nrdy + nnew == 0)
	:: else
	fi
}

/*
 * (h), at quiescence: no thread asked to stop is asleep on sv_idle (its
 * kthread_stop() would wait for ever).
 */
inline quiescence_more()
{
	d_step {
		for (s : 0 .. nidle - 1) {
			if
			:: should_stop[idle[s]] -> stop_hang = idle[s]
			:: else
			fi
		}
		s = 0
	}
	assert(stop_hang == NONE)
}

/*
 * The socket callbacks, under read_lock_bh(&sk->sk_callback_lock):
 * svc_tcp_listen_data_ready(), svc_tcp_data_ready() and
 * svc_tcp_state_change().  Taking the read side, reading sk_user_data
 * and the callback's first bitop are one step: sk_user_data cannot
 * change while the read side is held.  MUTANT_CB_NOLOCK reads
 * sk_user_data without the lock, so svc_delete_socket() does not wait
 * for the callback before the socket can be freed.
 */
inline callback_begin(s, b)
{
#ifdef MUTANT_CB_NOLOCK
	d_step {
		a = attached[s];
		printf("callback: sk_user_data read without sk_callback_lock\n")
	};
	if
	:: a -> set_bit(b, s)
	:: else
	fi
#else
	d_step {
		in_cb[s]++;
		a = attached[s];
		if
		:: a -> touch(s); flags_store(s, flags[s] | (b)); PRINT_FLAGS(s)
		:: else
		fi
	}
#endif
}

inline callback_end(s)
{
#ifdef MUTANT_CB_NOLOCK
	a = 0
#else
	d_step { in_cb[s]--; a = 0 }
#endif
}

inline svc_tcp_listen_data_ready()
{
	callback_begin(LISTENER, SK_CONN);
	if
	:: a -> svc_sock_enqueue(LISTENER)
	:: else
	fi;
	callback_end(LISTENER)
}

inline svc_tcp_data_ready(s)
{
#ifdef MUTANT_RACY_SET
	/* __set_bit(SK_DATA): not atomic against the other bitops */
	d_step { in_cb[s]++; a = attached[s] }
	if
	:: a -> __set_bit(SK_DATA, s)
	:: else
	fi;
#else
	callback_begin(s, SK_DATA);
#endif
	if
	:: a -> svc_sock_enqueue(s)
	:: else
	fi;
	callback_end(s)
}

inline svc_tcp_state_change(s)
{
	callback_begin(s, SK_CLOSE);
	if
	:: a -> svc_sock_enqueue(s)
	:: else
	fi;
	callback_end(s)
}

#include "world.pml"
