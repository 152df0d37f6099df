/* SPDX-License-Identifier: GPL-2.0 */
/*
 * common.pml: what every model of the hand-over protocol shares: the
 * parameters, the kernel sockets and peers the server reads from, the
 * svc_sock's lifetime (sk_ref and the lists), and the ghost state the
 * properties are stated over.  A model includes this file first, then
 * defines its build's protocol (the inlines that world.pml calls), then
 * includes world.pml, which holds the peers, the culler and the
 * quiescence check.  README.md says what is modelled and what is not.
 *
 * Memory model: SPIN interleaves whole statements, so every model assumes
 * sequential consistency.  One statement stands for one access to shared
 * memory that the C makes without a lock, or for one atomic operation (a
 * bitop, a refcount operation, a cmpxchg); a d_step or atomic sequence
 * stands for a critical section whose every shared location is written
 * only under the locks it holds, or for a function that is atomic as a
 * whole (kernel_accept()).  Each model says which C barrier each ordered
 * step stands for: under SC the barriers are what make the C behave like
 * the model, and a model cannot show a missing one.
 *
 * Liveness (i): progress labels and pan's non-progress search (spin -a;
 * cc -DNP; ./pan -l).  The server makes progress when it consumes what a
 * peer did: a record read, a call to serve (progress_record); a
 * connection accepted (progress_accept); a close acted on, the socket
 * deleted (progress_close); a peer's reset seen by a read
 * (progress_reset).  Each model puts these four labels in its
 * svc_tcp_recvfrom() and svc_tcp_accept() (lwq67.pml: svc_handle_xprt()).
 * An infinite run that passes none of them infinitely often is a
 * livelock, such as an empty socket handed round for ever
 * (MUTANT_LIVELOCK in every model).  What is not progress, and why:
 *   - a hand-over, a read that returns -EAGAIN, a listener handed over
 *     with nothing to accept, a thread woken for nothing: every build
 *     does these, a bounded number of times per event, and they are
 *     exactly the steps a livelock repeats;
 *   - a thread going idle: in the livelock the socket handed round wakes
 *     the idle thread every lap (it takes the socket, or finds it taken
 *     and goes idle again), so the label would hide it;
 *   - any place a process waits (asleep on sv_threads or sv_idle, a call
 *     that never ends, kthread_stop()'s wait, the quiescence check): np_
 *     is false while any process is at a progress label, so a process
 *     parked at one would make every cycle beside it look like progress.
 *     A model that has stopped needs no label: pan does not extend a
 *     state with no move into a cycle;
 *   - the peers' own steps: they are bounded (NEVENT events, then
 *     perhaps a reset), and what counts is the server consuming them.
 * Legitimate cycles: none in the models as written.  The peers, the
 * culler and the stopper do boundedly many things, and every lap of a
 * thread's loop consumes one of them or ends asleep, so every run ends in
 * quiescence, where (a) and (f) judge it; at the progress sizes (and with
 * STOP=1 or TEARDOWN=1 in lwq.pml) the search passes with no label at
 * all (README.md).  The C has cycles the models leave out: the idle
 * timeout's work (svc_age_temp_sockets()) re-arms for ever and mostly
 * finds nothing to close.  The culler here makes one pass; a culler that
 * looped would make an empty pass a legitimate cycle, and a progress
 * label on that pass would, under weak fairness, be in every fair cycle
 * and hide every livelock, so it stays one pass.
 * Weak fairness (pan -f) is not needed for the checks: they find no
 * cycle at all, fair or not, which is the stronger result and the
 * cheaper search.  The mutants are searched with -f, so that the livelock
 * shown is one a fair scheduler runs: without it pan may show a cycle
 * that starves a process which, once run, would end it (seen: a peer
 * starved before its second record; in a fair run that record is read
 * and, with STALL, its call parks the looping thread for good).
 */

/* ---- Parameters (override with spin -DNAME=VALUE) ---- */
#ifndef NTHREAD
#define NTHREAD	2	/* server threads */
#endif
#ifndef NSOCK
#define NSOCK	1	/* accepted TCP sockets, one peer each (the listener is more) */
#endif
#ifndef NEVENT
#define NEVENT	2	/* data events per peer: one sk_data_ready each */
#endif
#ifndef BATCH
#define BATCH	1	/* 1: an event may queue two records (two calls in one segment) */
#endif
#ifndef RESET
#define RESET	1	/* 1: a peer may reset its connection after its events */
#endif
#ifndef CULL
#define CULL	1	/* 1: svc_check_conn_limits() or the idle timeout closes a socket */
#endif
#ifndef STALL
#define STALL	1	/* 1: a call may never end (SLEEP, a peer that does not read) */
#endif
#ifndef SLOWREAD
#define SLOWREAD 0	/* 1: a read may never end (the owner stalls holding the socket) */
#endif
#ifndef ACCEPT
#define ACCEPT	1	/* 1: peers connect, threads accept; 0: sockets set up before */
#endif

#if NSOCK < 1 || NSOCK > 3 || NTHREAD < 1 || NTHREAD > 4
#error "1 <= NSOCK <= 3, 1 <= NTHREAD <= 4"
#endif

#define NS		(NSOCK + 1)	/* sockets: the listener and the accepted ones */
#define LISTENER	0		/* socket 0 is the TCP listener */
#define NONE		255		/* no socket, no thread */

/* Results of the receive functions, as the C's negative errnos. */
#define EAGAIN		1		/* -EAGAIN: nothing (whole) to read */
#define ERESET		2		/* the peer closed or reset: the read fails */

/*
 * ---- The kernel sockets (net/ipv4/tcp*.c, abstracted) ----
 * A peer queues whole records on its socket's receive queue and then
 * calls sk_data_ready; a read takes one record.  A connection waits in the
 * listener's accept queue until kernel_accept() takes it, in FIFO order.
 */
byte rxq[NS];			/* records queued on the socket, not yet read */
bit  peer_reset[NS];		/* the peer closed or reset the connection */
byte acceptq[3];		/* the listener's accept queue (socket ids), FIFO */
byte aq_len;

/* ---- The service (svc_serv) ---- */
bit  sv_lock;			/* sv_lock: 1 while a thread holds it */

/*
 * ---- The svc_sock's lifetime (svc_sock.c) ----
 */
bit  born[NS];			/* allocated by svc_setup_socket() */
bit  attached[NS];		/* sk_user_data and our callbacks are installed */
byte in_cb[NS];			/* callbacks holding read_lock(sk_callback_lock) */
bit  listed[NS];		/* on sv_permsocks or sv_tempsocks */
bit  culled[NS];		/* sk_culled: asked to close by the culler */
byte ref[NS];			/* sk_ref */
bit  freed[NS];			/* the last svc_sock_put() freed it */

/*
 * ---- Ghost state: not in the C, only for the properties ----
 */
byte owners[NS];		/* threads inside the socket's receive side (b) */
bit  close_set[NS];		/* CLOSE has been set (c), and must be acted on (a) */
bit  deleted[NS];		/* svc_delete_socket() ran: sk_dead/SK_DEAD/XPT_DEAD (d) */
byte stalled;			/* threads whose call (or read) never ends */
byte exited;			/* threads that stopped (kthread_stop(): lwq only) */
bit  stuck[NS];			/* a thread's read of this socket never ends */

/*
 * (e) Any access to a svc_sock: it must not have been freed.
 */
inline touch(s)
{
	assert(!freed[s])
}

/* svc_sock_get(): refcount_inc(), which must not start from 0 (svcsock.h) */
inline svc_sock_get(s)
{
	d_step {
		assert(!freed[s]);
		assert(ref[s] > 0);
		ref[s]++
	}
}

/*
 * svc_sock_put() (svc_sock.c): refcount_dec_and_test(); the last put
 * frees the socket, which must then be unreachable: detached, off the
 * lists and not queued (QUEUED() is the build's "on the ready queue").
 */
inline svc_sock_put(s)
{
	d_step {
		assert(!freed[s]);
		assert(ref[s] > 0);
		ref[s]--;
		if
		:: ref[s] == 0 ->
			assert(!attached[s] && !listed[s] && !QUEUED(s));
			freed[s] = 1;
			printf("svc_sock_put: socket %d freed\n", s)
		:: else
		fi
	}
}

/*
 * (b) A thread enters a socket's receive side when it is handed the
 * socket (or creates it), and leaves it in the step that gives the busy
 * state back (or that deletes the socket).  Two threads inside at once
 * is a double owner.  Ghost steps are folded into the real step they
 * go with, so that they add no interleavings.
 */
inline own_enter(s)
{
	assert(owners[s] == 0);
	owners[s]++
}

inline own_exit(s)
{
	assert(owners[s] == 1);
	owners[s]--
}

/*
 * The listener is deleted only by teardown, which is not modelled: a
 * thread that deletes it has refused every later connection (the
 * bitflag_listenread mutant in tests/mutants/).
 */
inline assert_not_listener(s)
{
	assert(s != LISTENER)
}

/*
 * kernel_accept(): take the oldest connection from the accept queue, or
 * NONE (-EAGAIN).  Atomic under the listener's socket lock.
 */
inline kernel_accept(n)
{
	d_step {
		if
		:: aq_len > 0 ->
			n = acceptq[0];
			acceptq[0] = acceptq[1];	/* NSOCK <= 3 */
			acceptq[1] = acceptq[2];
			acceptq[2] = NONE;
			aq_len--;
			printf("accepts the connection of peer %d\n", n)
		:: else ->
			n = NONE;
			printf("accept: -EAGAIN\n")
		fi
	}
}

/*
 * One read of a TCP record (svc_tcp_read_record() in svc_sock.c): a
 * whole record (1), or -EAGAIN when none is queued, or the reset that
 * ends the stream once the queue is empty.  A listening socket cannot be
 * read (kernel_recvmsg() fails with -ENOTCONN).  With SLOWREAD a read
 * may also never end (an allocation that sleeps, a huge record): its
 * thread stalls owning the socket.
 */
inline tcp_read_record(s, ret)
{
	if
	:: SLOWREAD ->
		d_step {
			touch(s);
			stalled++;
			stuck[s] = 1;
			printf("the read of socket %d never ends\n", s)
		};
end_slowread:	false
	:: true
	fi;
	d_step {
		touch(s);
		if
		:: s == LISTENER ->
			ret = -ERESET;
			printf("read from the listener fails: -ENOTCONN\n")
		:: s != LISTENER && rxq[s] > 0 ->
			rxq[s]--;
			ret = 1;
			printf("reads a record from socket %d (%d more queued)\n", s, rxq[s])
		:: s != LISTENER && rxq[s] == 0 && peer_reset[s] ->
			ret = -ERESET;
			printf("read from socket %d fails: reset\n", s)
		:: s != LISTENER && rxq[s] == 0 && !peer_reset[s] ->
			ret = -EAGAIN;
			printf("read from socket %d: -EAGAIN\n", s)
		fi
	}
}
