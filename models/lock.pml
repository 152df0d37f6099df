/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lock.pml: the hand-over protocol of the lock build
 * (svcsock-mod/xprt_lock.c, svc_sock before the 2002 patch), with the
 * thread loop of svc_server.c and the socket lifetime of svc_sock.c.
 *
 * svc_sock->sk_lock protects sk_busy, sk_conn, sk_close and sk_data;
 * every read and write of them is made with it held.  svc_serv->sv_lock
 * protects the lists and each socket's sk_qued and sk_dead.  Lock order:
 * sk_lock, then sv_lock.  sk_conn and sk_data are counts: a callback adds
 * one per event, a thread snapshots sk_data before it reads and gives
 * back what it thinks it used with svc_sock_received(svsk, count); the
 * socket is enqueued while any count is non-zero.  The 2002 guess: if
 * the snapshot was 1 but more data is queued than the record took, use
 * none of it.
 *
 * Memory model: sequential consistency (common.pml).  Every test of a
 * state field is made under the lock its writers hold, so the locks
 * order everything; there are no lockless accesses to the state and no
 * barriers to name.  Granularity: a critical section of sk_lock is one
 * step, and svc_sock_enqueue(), called with sk_lock held, runs inside
 * its caller's step (its sv_lock section nests in it); a critical
 * section of sv_lock alone is one step.  sk_lock is therefore never held
 * between steps and needs no variable.  Ghost updates and printfs ride
 * in the step they describe.
 *
 * Run: spin -a lock.pml && gcc -O2 -DSAFETY -o pan pan.c && ./pan -m100000
 * Progress (i): spin -a lock.pml && gcc -O2 -DNP -DNFAIR=4 -o pan pan.c &&
 *   ./pan -l -m100000 (-l -f for MUTANT_LIVELOCK; common.pml says why)
 * Parameters, properties and mutants: README.md.
 */

/* What common.pml and world.pml need of the build */
#define QUEUED(s)	(qued[s])		/* on sv_sockets */
#define QUEUE_LEN	nqueued
#define PROTO_LOCALS	byte f; byte w; byte n; bit a

/*
 * sk_conn is an unsigned char: 256 connections announced before the
 * listener is served wrap it to 0.  MUTANT_CONN_WRAP makes it one bit
 * wide, so that the two connections of NSOCK=2 wrap it.
 */
#ifdef MUTANT_CONN_WRAP
#define CONN_MOD	2
#else
#define CONN_MOD	256
#endif

#include "common.pml"

/*
 * A critical section of sk_lock that calls svc_sock_enqueue() is one
 * step, which waits for sv_lock to be free (the enqueue takes it inside).
 * Only MUTANT_CLOSE_BITFIELD holds a lock across steps: sv_lock in its
 * dequeue, and sk_lock between setting sk_close and enqueuing, so only
 * there is sk_lock a variable.
 */
#ifdef MUTANT_CLOSE_BITFIELD
bit  sk_lock[NS];
#define LOCKS_FREE(s)	(sv_lock == 0 && sk_lock[s] == 0)
#else
#define LOCKS_FREE(s)	(sv_lock == 0)
#endif

/* The state sk_lock protects */
byte busy[NS];			/* sk_busy */
byte conn[NS];			/* sk_conn, a count */
byte close[NS];			/* sk_close */
short data[NS];			/* sk_data, a count */
/* The bitfields sv_lock protects (sk_temp is s != LISTENER) */
bit  qued[NS];			/* sk_qued */

/* svc_serv: sv_threads (a stack), sv_sockets (FIFO), rq_sock */
byte sv_threads[NTHREAD];
byte nidle;
byte sv_sockets[NS];
byte nqueued;
byte rq_sock[NTHREAD];

/* The state as letters for the trace: B=busy C=conn X=close, then sk_data */
#define FL(v, c)	((v) -> (c) : '-')
#define PRINT_STATE(s)	printf("socket %d state %c%c%c data %d\n", s,	\
	FL(busy[s], 'B'), FL(conn[s], 'C'), FL(close[s], 'X'), data[s])

/*
 * Every write of sk_close.  (c): once set it is never cleared.  In the
 * C it is a byte of its own; MUTANT_CLOSE_BITFIELD puts it in the
 * bitfield word of sk_temp, sk_qued and sk_dead, which sv_lock protects,
 * so that a write of sk_qued under sv_lock alone rewrites sk_close too.
 */
inline close_store(s, v)
{
	assert(!close_set[s] || v);
	close[s] = v;
	close_set[s] = close_set[s] | v
}

inline init_listener()
{
	for (i : 0 .. NTHREAD - 1) {
		rq_sock[i] = NONE
	}
}

/* An accepted socket set up before the run (ACCEPT=0): idle */
inline init_socket(s)
{
	busy[s] = 0
}

/*
 * xprt_lock.c:svc_sock_enqueue(), called with sk_lock held, so inside
 * its caller's step, which begins by waiting for sv_lock to be free (it
 * is held across steps only by MUTANT_CLOSE_BITFIELD's dequeue).
 * svc_sock_ready(): a connection, a close, or data (the send buffer
 * always has room here).  Then under sv_lock: if nobody is receiving,
 * mark the socket busy and give it to the idle thread that slept last,
 * with a reference, or queue it.  (b): the receive side is entered here.
 * (d): a deleted socket is never handed over.  (f): the C checks that
 * threads and sockets are never both waiting.
 */
#ifdef MUTANT_QUEUE_ALWAYS
#define WAKE_IDLE	0	/* queued even when a thread sleeps */
#else
#define WAKE_IDLE	1
#endif

inline svc_sock_enqueue(s)
{
	touch(s);
	if
	:: conn[s] || close[s] || data[s] > 0 ->
		/* spin_lock(&serv->sv_lock): the caller's step waited for it */
		assert(nidle == 0 || nqueued == 0);
		if
		:: busy[s] ->
			printf("svc_sock_enqueue: socket %d busy\n", s)
		:: else ->
			busy[s] = 1;
			assert(!deleted[s]);
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
				qued[s] = 1;
				printf("svc_sock_enqueue: socket %d queued on sv_sockets\n", s)
			fi
		fi
	:: else
	fi
}

/*
 * xprt_lock.c:svc_sock_received(svsk, count): the caller owns sk_busy
 * and gives it back, with count taken off sk_data (clamped at 0).  The
 * reference keeps the socket alive across the enqueue; taking it is
 * folded into the step, as nobody can delete the socket while we own
 * sk_busy.
 */
inline svc_sock_received(s, count)
{
	d_step {
		LOCKS_FREE(s) ->
#ifndef MUTANT_RECEIVED_NOREF
		svc_sock_get(s);
#endif
		/* spin_lock_bh(&svsk->sk_lock) */
		touch(s);
		data[s] = data[s] - count;
		if
		:: data[s] < 0 -> data[s] = 0	/* "sk_data negative!" */
		:: else
		fi;
		own_exit(s);
		busy[s] = 0;
		printf("svc_sock_received: socket %d given back, %d used\n", s, count);
		PRINT_STATE(s);
		svc_sock_enqueue(s)
		/* spin_unlock_bh(&svsk->sk_lock) */
	}
#ifndef MUTANT_RECEIVED_NOREF
	svc_sock_put(s)
#endif
}

/* xprt_lock.c:svc_sock_accepted(): the same for the listener, sk_conn-- */
inline svc_sock_accepted(s)
{
	d_step {
		LOCKS_FREE(s) ->
		svc_sock_get(s);
		touch(s);
		own_exit(s);
		busy[s] = 0;
		conn[s] = (conn[s] + CONN_MOD - 1) % CONN_MOD;
		printf("svc_sock_accepted: listener given back\n");
		PRINT_STATE(s);
		svc_sock_enqueue(s)
	}
	svc_sock_put(s)
}

/*
 * spin_lock_bh(&svsk->sk_lock); sk_close = 1; svc_sock_enqueue();
 * spin_unlock_bh(&svsk->sk_lock): svc_sock_set_close() and the
 * state_change callback.  With MUTANT_CLOSE_BITFIELD the store of
 * sk_close and the enqueue's wait for sv_lock are two steps.
 */
inline sk_close_and_enqueue(s)
{
#ifdef MUTANT_CLOSE_BITFIELD
	atomic {
		sk_lock[s] == 0 ->
		sk_lock[s] = 1;
		touch(s);
		close_store(s, 1);
		PRINT_STATE(s)
	}
	d_step { sv_lock == 0 -> svc_sock_enqueue(s); sk_lock[s] = 0 }
#else
	d_step {
		LOCKS_FREE(s) ->
		touch(s);
		close_store(s, 1);
		PRINT_STATE(s);
		svc_sock_enqueue(s)
	}
#endif
}

/* xprt_lock.c:svc_sock_set_close(): any context */
inline svc_sock_set_close(s)
{
	sk_close_and_enqueue(s)
}

/*
 * xprt_lock.c:svc_delete_socket(): the caller owns sk_busy, which it
 * never gives back.  svc_sock_detach() under the write side of
 * sk_callback_lock, then the lists under sv_lock, then the lists'
 * reference.
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
		:: qued[s] ->			/* only teardown finds it queued */
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
			qued[s] = 0;
			n = 0
		:: else
		fi;
		deleted[s] = 1;			/* sk_dead = 1 */
		own_exit(s);
		printf("svc_delete_socket: socket %d deleted\n", s)
	}
	svc_sock_put(s)
}

/*
 * xprt_lock.c:svc_sock_precharge(): the creator owns sk_busy (the
 * socket was born busy); data may have come before the callbacks.
 * sk_data = 1 under sk_lock, then svc_sock_received(svsk, 0).
 */
inline svc_sock_precharge(s)
{
	d_step {
		LOCKS_FREE(s) ->
		touch(s);
		data[s] = 1;
		PRINT_STATE(s)
	}
#ifdef MUTANT_PUBLISH_UNOWNED
	d_step { LOCKS_FREE(s) -> touch(s); svc_sock_enqueue(s) }
#else
	svc_sock_received(s, 0)
#endif
}

/*
 * svc_sock.c:svc_setup_socket() for accepted socket n: born with one
 * reference (the lists') and sk_busy set (svc_sock_state_init()), so its
 * creator owns it; put on sv_tempsocks under sv_lock; published to the
 * callbacks under the write side of sk_callback_lock; flagged to close
 * if the peer had already gone.  MUTANT_PUBLISH_UNOWNED is the code
 * before "own every socket from birth": born not busy.
 */
inline svc_setup_socket(n)
{
	d_step {
		born[n] = 1;
		ref[n] = 1;
#ifndef MUTANT_PUBLISH_UNOWNED
		busy[n] = 1;
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

/* xprt_lock.c:svc_tcp_accept(): the caller owns the listener's sk_busy */
inline svc_tcp_accept(l)
{
	kernel_accept(n);
	if
	:: n != NONE ->
progress_accept:	/* a connection accepted: progress (common.pml) */
		svc_setup_socket(n);
		svc_sock_precharge(n);
		n = 0
		/* svc_check_conn_limits(): the culler process */
	:: else ->
		n = 0
	fi
}

/*
 * xprt_lock.c:svc_tcp_recvfrom(): the caller owns sk_busy.  Snapshot
 * sk_close, sk_conn and sk_data under sk_lock; then delete, accept, or
 * read one record and give back what it used.  ret > 0: a call.
 */
inline svc_tcp_recvfrom(s, ret)
{
	d_step {
		LOCKS_FREE(s) ->
		touch(s);
		f = (close[s] -> 2 : (conn[s] -> 1 : 0));
		ready = data[s]
	}
	if
	:: f == 2 ->
progress_close:	/* a close acted on, the socket deleted: progress */
		f = 0;
		svc_delete_socket(s);
#ifdef MUTANT_DEAD_UNBUSY
		/* the dead socket's sk_busy given back, as svc_sock_received() */
		d_step { LOCKS_FREE(s) -> touch(s); busy[s] = 0; svc_sock_enqueue(s) }
#endif
		ret = 0
	:: f == 1 ->
		f = 0;
		svc_tcp_accept(s);
		svc_sock_accepted(s);
		ret = 0
	:: f == 0 ->
#ifdef MUTANT_EARLY_RECEIVED
		/* sk_busy given back before the read, not after it */
		d_step {
			LOCKS_FREE(s) ->
			touch(s);
			busy[s] = 0;
			printf("svc_tcp_recvfrom: sk_busy cleared before the read\n");
			PRINT_STATE(s);
			svc_sock_enqueue(s)
		}
#endif
		tcp_read_record(s, ret);
		if
		:: ret == -EAGAIN ->
			/* record not complete: we read all there was */
#ifdef MUTANT_LIVELOCK
			/*
			 * sk_data not given back: the snapshot stays counted,
			 * so the give-back enqueues the empty socket again,
			 * for ever (i)
			 */
			svc_sock_received(s, 0);
#else
			svc_sock_received(s, ready);
#endif
			ret = 0
		:: ret == -ERESET ->
progress_reset:		/* the peer's reset acted on: progress */
			svc_delete_socket(s);
			ret = 0
		:: ret > 0 ->
progress_record:	/* a record read, a call to serve: progress */
			/*
			 * If we think there is only one more record to read,
			 * but more data is queued than it took, then two
			 * records must have arrived together: pretend we
			 * aren't using the record.  svc_sock_data_queued()
			 * is one lockless look at the receive queue.
			 */
			d_step {
				touch(s);
#ifdef MUTANT_NO_USED_GUESS
				f = 1
#else
				f = (ready == 1 && rxq[s] > 0 -> 0 : 1)
#endif
			}
			svc_sock_received(s, f);
			f = 0
		fi
	fi;
	ready = 0
}

/*
 * A server thread: svc_server.c:svc_thread() and svcsock_recv(), with
 * the call's processing (svcsock_process(), svcsock_send()) and
 * svc_sock_release().
 */
proctype thread(byte t)
{
	PROTO_LOCALS;
	byte s, ready;
	short ret;
#ifdef MUTANT_CLOSE_BITFIELD
	bit word_close;
#endif

	do
	:: /* svcsock_recv(): under sv_lock, take a queued socket or sleep */
#ifdef MUTANT_CLOSE_BITFIELD
		if
		:: atomic {
			/*
			 * svc_sock_dequeue()'s sk_qued = 0 rewrites the
			 * whole bitfield word: load it (with sk_close) ...
			 */
			sv_lock == 0 && nqueued > 0 ->
			sv_lock = 1;
			s = sv_sockets[0];
			word_close = close[s];
			printf("svc_sock_dequeue: loads the bitfield word of socket %d\n", s)
		   }
		   /* ... and store it back */
		   d_step {
			for (n : 1 .. NS - 1) {
				sv_sockets[n - 1] = sv_sockets[n]
			}
			nqueued--;
			sv_sockets[nqueued] = 0;
			n = 0;
			touch(s);
			qued[s] = 0;
			close_store(s, word_close);
			word_close = 0;
			svc_sock_get(s);
			sv_lock = 0;
			printf("svcsock_recv: dequeues socket %d\n", s);
			PRINT_STATE(s)
		   }
		:: atomic {
			sv_lock == 0 && nqueued == 0 ->
			sv_threads[nidle] = t;
			nidle++;
			s = NONE;
			printf("svcsock_recv: sleeps\n")
		   }
		fi;
#else
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
				qued[s] = 0;
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
#endif
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
 * The socket callbacks: read_lock_bh(&sk->sk_callback_lock), find the
 * svc_sock, then under sk_lock bump a count (or set sk_close) and
 * enqueue.  The read side of sk_callback_lock is held to the end.
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
		d_step {
			LOCKS_FREE(LISTENER) ->
			touch(LISTENER);
			conn[LISTENER] = (conn[LISTENER] + 1) % CONN_MOD;
			PRINT_STATE(LISTENER);
			svc_sock_enqueue(LISTENER)
		}
	:: else
	fi;
	callback_end(LISTENER)
}

inline svc_tcp_data_ready(s)
{
	callback_begin(s);
	if
	:: a ->
		d_step {
			LOCKS_FREE(s) ->
			touch(s);
			data[s]++;
			PRINT_STATE(s);
			svc_sock_enqueue(s)
		}
	:: else
	fi;
	callback_end(s)
}

inline svc_tcp_state_change(s)
{
	callback_begin(s);
	if
	:: a -> sk_close_and_enqueue(s)
	:: else
	fi;
	callback_end(s)
}

#include "world.pml"
