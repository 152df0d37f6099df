/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lwq67.pml: the hand-over protocol of Linux 6.7's RPC server
 * (net/sunrpc/svc_xprt.c, svc.c, lib/lwq.c, include/linux/lwq.h), on
 * the same peers, sockets and lifetime as the svcsock builds: the design
 * the lwq build (lwq.pml) follows, kept to document it and to compare.
 * The lwq build deviates from it in how a thread leaves the idle list
 * (from anywhere, under a lock that only threads take, because our pool
 * stops a chosen thread: lwq.pml's MUTANT_HEAD_ONLY is this model's
 * removal there), and its flag rules are the queued build's (queued.pml),
 * not svc_xprt.c's.  Nothing here stops a thread: 6.7 stops whichever
 * thread wakes first.
 *
 * What changed since the 2002 patch:
 *   - Transports wait on a light-weight queue (struct lwq): producers
 *     llist_add() to q->new without a lock; consumers take q->lock,
 *     refill q->ready from q->new (llist_del_all(), reversed) when it is
 *     empty, and take the first.  lwq_empty() is lockless.
 *   - svc_xprt_enqueue() claims XPT_BUSY with test_and_set_bit() (no
 *     lock), lwq_enqueue()s the transport and calls
 *     svc_pool_wake_idle_thread(), which takes no lock either: it wakes
 *     the first thread on the idle llist unless that one is running.
 *     Nothing is handed to a thread: a woken thread dequeues for itself.
 *   - An idle thread (svc_thread_wait_for_work()) sets TASK_IDLE,
 *     llist_add()s itself to sp_idle_threads, looks for work once more,
 *     schedules, and may leave the idle list only from its head
 *     (llist_del_first_this()); a thread that cannot has a later one
 *     before it, which looked for work after this one did.
 *   - A thread that dequeued a transport wakes the next idle thread if
 *     work remains (svc_thread_wake_next()): the waker chain.
 * The flag rules are the 2002 ones (svc_xprt.c's opening comment):
 * XPT_CONN and XPT_DATA set then enqueue, cleared then read and set
 * again on success; XPT_CLOSE never cleared; XPT_BUSY cleared by
 * svc_xprt_received() followed by an enqueue; XPT_DEAD set only under
 * XPT_BUSY, which a dead transport keeps.  The data callback enqueues
 * only when it set XPT_DATA (test_and_set_bit()); a read error asks for
 * a close (svc_xprt_deferred_close()) rather than deleting.
 *
 * Memory model: sequential consistency (common.pml).  The ordered steps
 * stand for these barriers in the C:
 *   - set_current_state(TASK_IDLE) is smp_store_mb(): the store of the
 *     task state is ordered before the llist_add() and the second
 *     lwq_empty(); try_to_wake_up() orders the waker's loads;
 *   - llist_add(), llist_del_all(), llist_del_first_this() and
 *     test_and_set_bit() are fully ordered atomic operations;
 *   - lwq_empty() pairs smp_load_acquire(&q->ready) with the
 *     smp_store_release() of the transient q->ready = 1 in
 *     __lwq_dequeue(), which keeps the queue from looking empty while
 *     entries move from q->new to q->ready; here the move is one step,
 *     and lwq_empty() one load;
 *   - smp_mb__before_atomic() before svc_xprt_received()'s clear of
 *     XPT_BUSY, as in the bitflag build.
 * Granularity: one step per atomic operation and per lockless load; the
 * q->lock section of __lwq_dequeue() is one step (its only access that
 * producers race with is the llist_del_all() exchange), so the lwq's two
 * lists are modelled as the one FIFO they behave as; set_current_state()
 * and llist_add() are one step (only a waker that found the thread on
 * the idle list reads its state); svc_xprt_dequeue()'s svc_xprt_get()
 * rides in the dequeue.  XPT_DATA is set again after every whole record,
 * as mainline's svc_tcp_recvfrom() does.  Ghost updates and printfs ride
 * in the step they describe.
 *
 * Run: spin -a lwq67.pml && gcc -O2 -DSAFETY -o pan pan.c && ./pan -m100000
 * Progress (i): spin -a lwq67.pml && gcc -O2 -DNP -DNFAIR=4 -o pan pan.c &&
 *   ./pan -l -m100000 (-l -f for MUTANT_LIVELOCK; common.pml says why)
 * Parameters, properties and mutants: README.md.
 */

/* xpt_flags; XPT_DEAD is the ghost deleted[], XPT_LISTENER is s == 0 */
#define XPT_BUSY	1
#define XPT_CONN	2
#define XPT_CLOSE	4
#define XPT_DATA	8

/* What common.pml and world.pml need of the build */
#define QUEUED(s)	(onq[s])		/* on pool->sp_xprts */
#define QUEUE_LEN	nq
#define PROTO_LOCALS	byte f; byte w; byte n; bit a

#include "common.pml"

byte flags[NS];

/*
 * pool->sp_xprts, a struct lwq: q->ready, then q->new.  Entries leave in
 * the order they came: everything on q->ready came before everything on
 * q->new, and a refill moves q->new over oldest first.  With the refill
 * in one step (below), the pair behaves as one FIFO, and is modelled so.
 */
byte lwq[NS];
byte nq;
bit  onq[NS];				/* ghost: on the lwq */

/* pool->sp_idle_threads, an llist (a stack), and each thread's state */
byte idle[NTHREAD];
byte nidle;
#define TASK_RUNNING	0
#define TASK_IDLE	1
bit  tstate[NTHREAD];

#define LWQ_EMPTY	(nq == 0)
#define IDLE_FIRST	(nidle > 0 -> idle[nidle - 1] : NONE)

/* The flags as letters for the trace: B=BUSY C=CONN X=CLOSE D=DATA */
#define FL(s, b, c)	((flags[s] & (b)) -> (c) : '-')
#define PRINT_FLAGS(s)	printf("socket %d flags %c%c%c%c\n", s,	\
	FL(s, XPT_BUSY, 'B'), FL(s, XPT_CONN, 'C'), FL(s, XPT_CLOSE, 'X'), FL(s, XPT_DATA, 'D'))

/* Every write of xpt_flags.  (c): once XPT_CLOSE is set it stays. */
inline flags_store(s, v)
{
	assert(!close_set[s] || ((v) & XPT_CLOSE));
	flags[s] = v;
	close_set[s] = close_set[s] | (((v) & XPT_CLOSE) != 0)
}

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

/* test_and_set_bit(): f = the old bit */
inline test_and_set_bit(b, s)
{
	d_step {
		touch(s);
		f = flags[s] & (b);
		flags_store(s, flags[s] | (b));
		PRINT_FLAGS(s)
	}
}

/* __clear_bit(): a plain load and store (MUTANT_RACY_CLEAR only) */
inline __clear_bit(b, s)
{
	d_step {
		touch(s);
		f = flags[s];
		printf("__clear_bit: loads the flags of socket %d\n", s)
	}
	d_step { touch(s); flags_store(s, f & ~(b)); f = 0; PRINT_FLAGS(s) }
}

inline init_listener()
{
	flags[LISTENER] = 0
}

/* An accepted socket set up before the run (ACCEPT=0): idle */
inline init_socket(s)
{
	flags[s] = 0
}

/*
 * svc.c:svc_pool_wake_idle_thread(): no lock.  READ_ONCE() of the idle
 * llist's first entry; if that thread is not running, wake_up_process()
 * (try_to_wake_up() does nothing to a running task, so the test and the
 * wake are one step).  It is not taken off the list: it leaves by itself.
 */
inline svc_pool_wake_idle_thread()
{
	d_step { w = IDLE_FIRST }
	if
	:: w != NONE ->
		d_step {
			if
			:: tstate[w] != TASK_RUNNING ->
				tstate[w] = TASK_RUNNING;
				printf("svc_pool_wake_idle_thread: wakes thread %d\n", w)
			:: else ->
				printf("svc_pool_wake_idle_thread: thread %d already running\n", w)
			fi;
			w = 0
		}
	:: else ->
		d_step {
			printf("svc_pool_wake_idle_thread: no idle thread\n");
			w = 0
		}
	fi
}

/*
 * svc_xprt.c:svc_xprt_enqueue(): any context.  svc_xprt_ready(), then
 * test_and_set_bit(XPT_BUSY) (the winner enters the receive side, (b),
 * on behalf of the thread that will dequeue it), lwq_enqueue() and a
 * wake.  (d): a dead transport is never queued.
 */
inline svc_xprt_enqueue(s)
{
	/* svc_xprt_ready(): smp_rmb(); READ_ONCE(xprt->xpt_flags) */
	d_step {
		touch(s);
		f = flags[s] & (XPT_CONN | XPT_CLOSE | XPT_DATA);
		if
		:: f -> printf("svc_xprt_enqueue: socket %d has work\n", s)
		:: else
		fi
	}
	if
	:: f ->
#ifdef MUTANT_TEST_THEN_SET
		/* test_bit(XPT_BUSY), then set_bit(XPT_BUSY) */
		d_step { touch(s); f = flags[s] & XPT_BUSY }
		if
		:: !f -> d_step { touch(s); flags_store(s, flags[s] | XPT_BUSY); own_enter(s) }
		:: else
		fi;
#else
		/* test_and_set_bit(XPT_BUSY) */
		d_step {
			touch(s);
			f = flags[s] & XPT_BUSY;
			flags_store(s, flags[s] | XPT_BUSY);
			if
			:: !f -> own_enter(s)
			:: else
			fi
		}
#endif
		if
		:: f ->
			d_step {
				printf("svc_xprt_enqueue: socket %d busy\n", s);
				f = 0
			}
		:: else ->
			/* lwq_enqueue(&xprt->xpt_ready, &pool->sp_xprts): llist_add() */
			d_step {
				touch(s);
				assert(!deleted[s]);
				lwq[nq] = s;
				nq++;
				onq[s] = 1;
				printf("lwq_enqueue: socket %d\n", s)
			}
			svc_pool_wake_idle_thread()
		fi
	:: else
	fi
}

/*
 * svc_xprt.c:svc_xprt_dequeue(): lwq_dequeue(), then svc_xprt_get().
 * __lwq_dequeue(): lwq_empty() without the lock, then under q->lock take
 * the head of q->ready, refilling it from q->new, oldest first, when it
 * is empty.  The reference is taken in the same step: the transport is
 * ours (XPT_BUSY) and on the lists, so nobody can free it in between.
 */
inline svc_xprt_dequeue(s)
{
	d_step { f = LWQ_EMPTY }
	if
	:: f ->
		d_step { s = NONE; f = 0 }
	:: else ->
		/*
		 * spin_lock(&q->lock); refill q->ready from q->new if it is
		 * empty (llist_reverse_order(llist_del_all(&q->new))); take
		 * its head; spin_unlock(&q->lock).
		 */
		d_step {
			if
			:: nq > 0 ->
				s = lwq[0];
				for (n : 1 .. NS - 1) {
					lwq[n - 1] = lwq[n]
				}
				nq--;
				lwq[nq] = 0;
				n = 0;
				onq[s] = 0;
#ifndef MUTANT_DEQUEUE_NOREF
				svc_sock_get(s);
#endif
				printf("svc_xprt_dequeue: socket %d\n", s)
			:: else ->
				s = NONE;
				printf("svc_xprt_dequeue: nothing\n")
			fi
		}
	fi
}

/*
 * svc_xprt.c:svc_xprt_received(): the caller owns XPT_BUSY and gives it
 * back; the reference keeps the transport alive across the enqueue (the
 * creator of a new one holds none).
 */
inline svc_xprt_received(s)
{
	d_step {
#ifndef MUTANT_RECEIVED_NOREF
		svc_sock_get(s);
#endif
		own_exit(s);
		/* smp_mb__before_atomic(); clear_bit(XPT_BUSY) */
		touch(s);
		flags_store(s, flags[s] & ~XPT_BUSY);
		printf("svc_xprt_received: socket %d given back\n", s);
		PRINT_FLAGS(s)
	}
	svc_xprt_enqueue(s);
#ifndef MUTANT_RECEIVED_NOREF
	svc_sock_put(s)
#endif
}

/*
 * svc_xprt.c:svc_xprt_deferred_close(): set XPT_CLOSE; enqueue if this
 * set it.  The culler's close (svc_check_conn_limits(),
 * svc_age_temp_xprts()) and the state_change callback use it.
 */
inline svc_sock_set_close(s)
{
	test_and_set_bit(XPT_CLOSE, s);
	if
	:: !f -> svc_xprt_enqueue(s)
	:: else -> f = 0
	fi
}

/*
 * svc_xprt.c:svc_delete_xprt(): the caller owns XPT_BUSY, which a dead
 * transport keeps.  test_and_set_bit(XPT_DEAD); xpo_detach()
 * (svc_sock_detach(): the callbacks restored under lock_sock(), which
 * the callbacks' bh_lock_sock() excludes); the lists under sv_lock; the
 * lists' reference.
 */
inline svc_delete_xprt(s)
{
	assert_not_listener(s);
	atomic { in_cb[s] == 0 -> touch(s); attached[s] = 0 }
	d_step {
		sv_lock == 0 ->
		touch(s);
		listed[s] = 0;
		deleted[s] = 1;
		own_exit(s);
		printf("svc_delete_xprt: socket %d deleted\n", s)
	}
	svc_sock_put(s)
}

/*
 * The listener's turn (svc_handle_xprt(), XPT_LISTENER): svc_tcp_accept()
 * clears XPT_CONN, accepts, sets it again when a connection came, and
 * svc_setup_socket() makes the new transport: born with one reference
 * and XPT_BUSY (svc_xprt_init()), so its creator owns it; callbacks and
 * sk_user_data installed; XPT_DATA set (svc_tcp_init()), XPT_CLOSE too if
 * the peer has gone.  svc_add_new_temp_xprt() puts it on sv_tempsocks
 * under sv_lock and svc_xprt_received() hands it back; then the
 * listener is given back.
 */
inline svc_tcp_accept(l)
{
	clear_bit(XPT_CONN, l);
	kernel_accept(n);
	if
	:: n != NONE ->
progress_accept:	/* a connection accepted: progress (common.pml) */
		set_bit(XPT_CONN, l);
		d_step {
			born[n] = 1;
			ref[n] = 1;
			flags[n] = XPT_BUSY;
			own_enter(n)
		}
		atomic {
			in_cb[n] == 0 ->
			attached[n] = 1;
			printf("svc_setup_socket: socket %d published\n", n)
		}
		set_bit(XPT_DATA, n);
		if
		:: peer_reset[n] -> set_bit(XPT_CLOSE, n)
		:: else
		fi;
		atomic { sv_lock == 0 -> listed[n] = 1 }
		svc_xprt_received(n);
		n = 0
	:: else ->
		n = 0
	fi
}

/*
 * svc_xprt.c:svc_handle_xprt(), with svcsock.c:svc_tcp_recvfrom() for an
 * accepted transport.  The caller owns XPT_BUSY.  ret > 0: a call.
 */
inline svc_handle_xprt(s, ret)
{
	d_step { touch(s); f = flags[s] & XPT_CLOSE }	/* test_bit(XPT_CLOSE) */
	if
	:: f ->
progress_close:	/* a close acted on, the transport deleted: progress */
		f = 0;
		svc_delete_xprt(s);
#ifdef MUTANT_DEAD_UNBUSY
		/* the dead transport's XPT_BUSY given back */
		clear_bit(XPT_BUSY, s);
		svc_xprt_enqueue(s);
#endif
		ret = 0
	:: !f && s == LISTENER ->
		svc_tcp_accept(s);
		svc_xprt_received(s);
		ret = 0
	:: !f && s != LISTENER ->
#ifdef MUTANT_RACY_CLEAR
		__clear_bit(XPT_DATA, s);
#else
		clear_bit(XPT_DATA, s);
#endif
		tcp_read_record(s, ret);
		if
		:: ret == -EAGAIN ->
#ifdef MUTANT_LIVELOCK
			/*
			 * XPT_DATA set again after -EAGAIN as after a record:
			 * the give-back enqueues the empty transport again,
			 * for ever (i)
			 */
			set_bit(XPT_DATA, s);
#endif
			svc_xprt_received(s);
			ret = 0
		:: ret == -ERESET ->
progress_reset:		/* the peer's reset acted on: progress */
			/* err_delete: svc_xprt_deferred_close(); err_noclose */
			svc_sock_set_close(s);
			svc_xprt_received(s);
			ret = 0
		:: ret > 0 ->
progress_record:	/* a record read, a call to serve: progress */
#ifndef MUTANT_NO_RULE3
			set_bit(XPT_DATA, s);	/* "would wait for unrelated traffic" */
#endif
			svc_xprt_received(s)
		fi
	fi
}

/*
 * svc_xprt.c:svc_thread_wake_next(): more work than this thread took,
 * so wake the next idle thread (svc_thread_should_sleep() is false).
 */
inline svc_thread_wake_next()
{
#ifdef MUTANT_NO_WAKE_NEXT
	skip
#else
	d_step { f = !LWQ_EMPTY }
	if
	:: f -> f = 0; svc_pool_wake_idle_thread()
	:: else
	fi
#endif
}

/*
 * A server thread: svc.c's thread function around svc_xprt.c:svc_recv():
 * svc_thread_wait_for_work(), svc_xprt_dequeue(), svc_thread_wake_next(),
 * svc_handle_xprt(), the call, svc_xprt_release().
 */
proctype thread(byte t)
{
	PROTO_LOCALS;
	byte s;
	short ret;

	do
	:: /* svc_thread_wait_for_work(): svc_thread_should_sleep() */
		d_step { f = LWQ_EMPTY }
		if
		:: f ->
			/*
			 * set_current_state(TASK_IDLE | TASK_FREEZABLE);
			 * llist_add(&rqstp->rq_idle, &pool->sp_idle_threads).
			 * One step: only a waker that found us on the list
			 * reads our state.
			 */
			d_step {
				f = 0;
				tstate[t] = TASK_IDLE;
				idle[nidle] = t;
				nidle++;
				printf("svc_thread_wait_for_work: idle\n")
			}
#ifdef MUTANT_NO_RECHECK
			/* schedule() without looking for work again */
end_sleep:		tstate[t] == TASK_RUNNING;
#else
			/* if (likely(svc_thread_should_sleep(rqstp))) schedule() */
			d_step { f = LWQ_EMPTY }
			if
			:: f ->
				f = 0;
end_sleep:			tstate[t] == TASK_RUNNING
			:: else ->
				printf("svc_thread_wait_for_work: work came, no sleep\n")
			fi;
#endif
			/* while (!llist_del_first_this(...)) { schedule(); set_current_state() } */
			do
			:: d_step {
				IDLE_FIRST == t ->
				nidle--;
				idle[nidle] = 0;
				tstate[t] = TASK_RUNNING;	/* __set_current_state() */
				printf("svc_thread_wait_for_work: leaves the idle list\n")
			   };
			   break
			:: d_step {
				IDLE_FIRST != t ->
				printf("svc_thread_wait_for_work: not first on the idle list\n")
			   };
end_resleep:	   tstate[t] == TASK_RUNNING;
			   tstate[t] = TASK_IDLE
			od
		:: else
		fi;
		svc_xprt_dequeue(s);
		if
		:: s != NONE ->
			svc_thread_wake_next();
			svc_handle_xprt(s, ret);
			if
			:: ret > 0 && STALL ->
				/* the call never ends, holding its reference */
				d_step {
					touch(s);
					stalled++;
					printf("svc_process: the call on socket %d never ends\n", s)
				};
end_stall:			false
			:: else ->
				/* svc_process(); svc_xprt_release() */
				d_step {
					touch(s);
					svc_sock_put(s);
					s = 0;
					ret = 0
				}
			fi
		:: else
		fi
	od
}

/*
 * The socket callbacks, each excluded from svc_sock_detach() (modelled
 * as the read side of a lock that detach takes for writing); finding
 * sk_user_data and the first bitop are one step.
 * svc_tcp_listen_data_ready(): set_bit(XPT_CONN), enqueue.
 * svc_data_ready(): enqueue only if test_and_set_bit(XPT_DATA) set it.
 * svc_tcp_state_change(): svc_xprt_deferred_close().
 */
inline callback_begin(s)
{
	d_step { in_cb[s]++; a = attached[s] }
}

inline callback_end(s)
{
	d_step { in_cb[s]--; a = 0 }
}

inline svc_tcp_listen_data_ready()
{
	callback_begin(LISTENER);
	if
	:: a ->
		set_bit(XPT_CONN, LISTENER);
		svc_xprt_enqueue(LISTENER)
	:: else
	fi;
	callback_end(LISTENER)
}

inline svc_tcp_data_ready(s)
{
	callback_begin(s);
	if
	:: a ->
		test_and_set_bit(XPT_DATA, s);
		if
		:: !f -> svc_xprt_enqueue(s)
		:: else -> f = 0
		fi
	:: else
	fi;
	callback_end(s)
}

inline svc_tcp_state_change(s)
{
	callback_begin(s);
	if
	:: a -> svc_sock_set_close(s)
	:: else
	fi;
	callback_end(s)
}

#include "world.pml"
