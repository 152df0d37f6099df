/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bitflag.pml: the hand-over protocol of the bitflag build
 * (svcsock-mod/xprt_bitflag.c, after the 2002 patch "rationalise locking
 * in RPC server routines"), with the thread loop of svc_server.c and the
 * socket lifetime of svc_sock.c.
 *
 * The state of a socket is one word, sk_svc_flags, changed only by
 * atomic bitops under four rules:
 *   1. SK_BUSY can be cleared at any time; svc_sock_enqueue() must be
 *      called afterwards.
 *   2. SK_CONN and SK_DATA can be set or cleared at any time; after a
 *      set, svc_sock_enqueue() must be called.
 *   3. After a clear, the socket must be read (or accepted); if this
 *      succeeds, the flag must be set again.
 *   4. SK_CLOSE can be set at any time; it is never cleared.
 * SK_BUSY is set only at birth and by svc_sock_enqueue() under sv_lock.
 *
 * Memory model: sequential consistency (common.pml).  The ordered steps
 * stand for these barriers in the C:
 *   - svc_sock_enqueue() loads the flags after the caller's set_bit() or
 *     clear_bit(): smp_mb__after_atomic() at its top, which the C gives
 *     for a callback that sets SK_DATA then tests SK_BUSY against an
 *     owner that clears SK_BUSY then tests SK_DATA (two bits of one
 *     word, whose read-modify-writes coherence orders anyway: README.md);
 *   - the owner's record state is visible before SK_BUSY is seen clear:
 *     smp_mb__before_atomic() in svc_sock_received();
 *   - everything under sv_lock is ordered by the lock.
 * Granularity: one step per bitop and per lockless load of the flags;
 * an sv_lock critical section is one step (svc_sock_enqueue()'s test and
 * set of SK_BUSY included: SK_BUSY is set only under sv_lock, and a
 * clear by its owner, made without sv_lock, can be taken to come after
 * the unlock).  Ghost updates and printfs ride in the step they
 * describe.
 *
 * Run: spin -a bitflag.pml && gcc -O2 -DSAFETY -o pan pan.c && ./pan -m100000
 * Progress (i): spin -a bitflag.pml && gcc -O2 -DNP -DNFAIR=4 -o pan pan.c &&
 *   ./pan -l -m100000 (-l -f for MUTANT_LIVELOCK; common.pml says why)
 * Parameters, properties and mutants: README.md.
 */

/* sk_svc_flags (svcsock.h); SK_DEAD is the ghost deleted[] */
#define SK_BUSY		1
#define SK_CONN		2
#define SK_CLOSE	4
#define SK_DATA		8
#define SK_TEMP		16
#define SK_QUED		32

/* What common.pml and world.pml need of the build */
#define QUEUED(s)	(flags[s] & SK_QUED)	/* on sv_sockets */
#define QUEUE_LEN	nqueued
#define PROTO_LOCALS	byte f; byte w; byte n; bit a

#include "common.pml"

byte flags[NS];

/*
 * svc_serv: sv_threads, the idle threads (a stack: list_add() at the
 * head, list_first_entry() from it); sv_sockets, the sockets waiting for
 * a thread (FIFO); and each thread's rq_sock.
 */
byte sv_threads[NTHREAD];
byte nidle;
byte sv_sockets[NS];
byte nqueued;
byte rq_sock[NTHREAD];

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
	flags[LISTENER] = 0;
	for (i : 0 .. NTHREAD - 1) {
		rq_sock[i] = NONE
	}
}

/* An accepted socket set up before the run (ACCEPT=0): idle */
inline init_socket(s)
{
	flags[s] = SK_TEMP
}

/*
 * The body of svc_sock_enqueue() once it has set SK_BUSY, under sv_lock:
 * give the socket to the idle thread that slept last, with a reference,
 * or queue it.  (b): the receive side is entered here, whether by a
 * thread or by sv_sockets on behalf of the thread that will dequeue it.
 * (d): a deleted socket is never handed over.  (f): the C checks that
 * threads and sockets are never both waiting.
 */
#ifdef MUTANT_QUEUE_ALWAYS
#define WAKE_IDLE	0	/* queued even when a thread sleeps */
#else
#define WAKE_IDLE	1
#endif

inline svc_sock_handover(s)
{
	assert(!deleted[s]);
	assert(nidle == 0 || nqueued == 0);
	own_enter(s);
	if
	:: nidle > 0 && WAKE_IDLE ->
		nidle--;
		w = sv_threads[nidle];
		sv_threads[nidle] = 0;
		rq_sock[w] = s;
		svc_sock_get(s);
		printf("svc_sock_enqueue: socket %d handed to sleeping thread %d\n", s, w);
		w = 0
	:: else ->
		sv_sockets[nqueued] = s;
		nqueued++;
		flags_store(s, flags[s] | SK_QUED);
		printf("svc_sock_enqueue: socket %d queued on sv_sockets\n", s)
	fi
}

/*
 * xprt_bitflag.c:svc_sock_enqueue(): any context, no locks held.
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
#ifdef MUTANT_BUSY_UNLOCKED
		/* test_bit(SK_BUSY) made before spin_lock_bh(), not under it */
		d_step { touch(s); f = flags[s] & SK_BUSY }
		if
		:: f ->
			d_step {
				printf("svc_sock_enqueue: socket %d busy\n", s);
				f = 0
			}
		:: else ->
			d_step {
				sv_lock == 0 ->
				touch(s);
				flags_store(s, flags[s] | SK_BUSY);
				svc_sock_handover(s)
			}
		fi
#else
		/*
		 * spin_lock_bh(&serv->sv_lock); if !test_bit(SK_BUSY):
		 * set_bit(SK_BUSY), hand over; spin_unlock_bh().  One step:
		 * SK_BUSY is set only under sv_lock, and its owner's clear
		 * can be taken to come after the unlock.
		 */
		d_step {
			sv_lock == 0 ->
			touch(s);
			if
			:: flags[s] & SK_BUSY ->
				printf("svc_sock_enqueue: socket %d busy\n", s)
			:: else ->
				flags_store(s, flags[s] | SK_BUSY);
				svc_sock_handover(s)
			fi;
			f = 0
		}
#endif
	:: else
	fi
}

/*
 * xprt_bitflag.c:svc_sock_received(): the caller owns SK_BUSY and gives
 * it back.  The reference keeps the socket alive across the enqueue:
 * once SK_BUSY is clear another thread may delete it, and the creator of
 * a new socket holds none of its own.  Taking it and clearing SK_BUSY
 * are one step here: while SK_BUSY is ours nobody can delete the socket.
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
		/* smp_mb__before_atomic(); clear_bit(SK_BUSY) */
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

/* xprt_bitflag.c:svc_sock_set_close(): any context */
inline svc_sock_set_close(s)
{
	set_bit(SK_CLOSE, s);
	svc_sock_enqueue(s)
}

/*
 * xprt_bitflag.c:svc_delete_socket(): the caller owns SK_BUSY, which it
 * never gives back.  svc_sock_detach() under the write side of
 * sk_callback_lock (it waits for the callbacks that hold the read side),
 * then the lists under sv_lock, then the lists' reference.
 */
inline svc_delete_socket(s)
{
	assert_not_listener(s);
	atomic { in_cb[s] == 0 -> touch(s); attached[s] = 0 }
	d_step {
		sv_lock == 0 ->
		touch(s);
		listed[s] = 0;
		if
		:: flags[s] & SK_QUED ->	/* only teardown finds it queued */
			n = 0;
			do
			:: sv_sockets[n] == s -> break
			:: else -> n++
			od;
			do
			:: n + 1 < nqueued -> sv_sockets[n] = sv_sockets[n + 1]; n++
			:: else -> break
			od;
			nqueued--;
			sv_sockets[nqueued] = 0;
			flags_store(s, flags[s] & ~SK_QUED);
			n = 0
		:: else
		fi;
		deleted[s] = 1;			/* set_bit(SK_DEAD) */
		own_exit(s);
		printf("svc_delete_socket: socket %d deleted\n", s)
	}
	svc_sock_put(s)
}

/*
 * xprt_bitflag.c:svc_sock_precharge(): the creator owns SK_BUSY (the
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
 * xprt_bitflag.c:svc_tcp_accept(): the caller owns the listener.  Rule 3
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
 * xprt_bitflag.c:svc_tcp_recvfrom(): the caller owns SK_BUSY.  ret > 0:
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
#else
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
#ifndef MUTANT_NO_RULE3
				set_bit(SK_DATA, s);		/* rule 3 */
#endif
				svc_sock_received(s)
			fi
		fi
	fi
}

/*
 * A server thread: svc_server.c:svc_thread() and svcsock_recv(), with
 * the call's processing (svcsock_process(), svcsock_send()) and
 * svc_sock_release().
 */
proctype thread(byte t)
{
	PROTO_LOCALS;
	byte s;
	short ret;

	do
	:: /* svcsock_recv(): under sv_lock, take a queued socket or sleep */
		atomic {
			sv_lock == 0 ->
			if
			:: nqueued > 0 ->
				/* svc_sock_dequeue() */
				s = sv_sockets[0];
				for (n : 1 .. NS - 1) {
					sv_sockets[n - 1] = sv_sockets[n]
				}
				nqueued--;
				sv_sockets[nqueued] = 0;
				n = 0;
				touch(s);
				flags_store(s, flags[s] & ~SK_QUED);
				svc_sock_get(s);
				printf("svcsock_recv: dequeues socket %d\n", s)
			:: else ->
				/* list_add(&rqstp->rq_list, &serv->sv_threads) */
				sv_threads[nidle] = t;
				nidle++;
				s = NONE;
				printf("svcsock_recv: sleeps\n")
			fi
		}
		if
		:: s == NONE ->
			/* schedule(); svc_sock_enqueue() set rq_sock and woke us */
end_sleep:		atomic {
				sv_lock == 0 && rq_sock[t] != NONE ->
				s = rq_sock[t];
				rq_sock[t] = NONE;
				printf("svcsock_recv: woken with socket %d\n", s)
			}
		:: else
		fi;
		svc_tcp_recvfrom(s, ret);
		if
		:: ret > 0 && STALL ->
			/* the call never ends, holding its reference */
			d_step {
				touch(s);
				stalled++;
				printf("svcsock_process: the call on socket %d never ends\n", s)
			};
end_stall:		false
		:: else ->
			/* svcsock_process(), svcsock_send(); svc_sock_release() */
			d_step {
				touch(s);
				svc_sock_put(s);
				s = 0;
				ret = 0
			}
		fi
	od
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
