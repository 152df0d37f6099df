/* SPDX-License-Identifier: GPL-2.0 */
/*
 * world.pml: the processes every model runs besides its server threads:
 * the peers (whose packets run the socket callbacks), the culler, and
 * the check made when everything has stopped.  Included last by each
 * model, after its build's protocol: it calls the build's
 * svc_tcp_listen_data_ready(), svc_tcp_data_ready(), svc_tcp_state_change()
 * and svc_sock_set_close(), and uses its PROTO_LOCALS, QUEUE_LEN,
 * init_listener(), init_socket() and proctype thread().  A model that
 * stops threads (lwq.pml) also defines STOPPER: proctype stopper() is
 * then run, and inline quiescence_more() checks more when all is quiet.
 */

/*
 * Work a thread would find if it looked, from the sockets themselves
 * rather than from any flag or count: a connection in the accept queue;
 * a live accepted socket with a record queued, a peer that reset it, or
 * a request to close it.  Deleted sockets have none, and neither has a
 * socket whose reader is stuck in the read (SLOWREAD): it is being
 * served, however slowly.
 */
#define WORK_PENDING(s)							\
	(((s) == LISTENER && aq_len > 0) ||				\
	 ((s) != LISTENER && born[s] && !deleted[s] && !stuck[s] &&	\
	  (rxq[s] > 0 || peer_reset[s] || close_set[s])))

/*
 * The peer of accepted socket s: the softirq side.  It connects (the
 * child joins the accept queue and the listener's sk_data_ready runs),
 * sends NEVENT segments of one or two records, each followed by one
 * sk_data_ready, and may then reset the connection (sk_state_change).
 * Before svc_setup_socket() installs our callbacks the child has only
 * the listener's, which ignore a socket that is not listening, so the
 * data waits unannounced for the precharge.  It has no progress label
 * (common.pml): its steps are bounded, and the threads' consumption of
 * them is what counts.
 */
proctype peer(byte s)
{
	PROTO_LOCALS;
	byte ev;

	if
	:: ACCEPT ->
		d_step {
			acceptq[aq_len] = s;
			aq_len++;
			printf("connects\n")
		};
		svc_tcp_listen_data_ready()
	:: else
	fi;
	do
	:: ev < NEVENT ->
		if
		:: d_step {
			rxq[s] = rxq[s] + 1;
			ev++;
			printf("queues a record on socket %d\n", s)
		   }
		:: BATCH -> d_step {
			rxq[s] = rxq[s] + 2;
			ev++;
			printf("queues two records on socket %d in one segment\n", s)
		   }
		fi;
		svc_tcp_data_ready(s)
	:: else ->
		break
	od;
	if
	:: RESET ->
		d_step {
			peer_reset[s] = 1;
			printf("resets the connection of socket %d\n", s)
		};
		svc_tcp_state_change(s)
	:: true
	fi
}

/*
 * svc_check_conn_limits() (run by the thread that accepted) or
 * svc_age_temp_sockets() (the idle-timeout work), svc_sock.c: under
 * sv_lock pick one accepted socket on sv_tempsocks not asked already,
 * mark it and take a reference; then ask it to close and drop the
 * reference.  Which socket, and whether any, is left open.  One pass,
 * where the C's idle-timeout work re-arms for ever: common.pml says why
 * a looping culler would need more than a progress label.
 */
#define CULLABLE(i)	\
	((i) <= NSOCK && sv_lock == 0 && listed[i] && !culled[i])

proctype culler()
{
	PROTO_LOCALS;
	byte s;

	if
	:: true			/* nothing over the limit, nothing idle */
	:: true ->
end_cull:	atomic {
			if
			:: CULLABLE(1) -> s = 1
			:: CULLABLE(2) -> s = 2
			:: CULLABLE(3) -> s = 3
			fi;
			culled[s] = 1;
#ifndef MUTANT_CULL_NOREF
			svc_sock_get(s);
#endif
			printf("svc_check_conn_limits: closes socket %d\n", s)
		}
		svc_sock_set_close(s);
#ifndef MUTANT_CULL_NOREF
		svc_sock_put(s)
#endif
	fi
}

/*
 * Quiescence: no process can move (the peers are done, every thread
 * sleeps idle, is stuck in a call that never ends, or has stopped).
 * Then a thread that sleeps idle while a socket waits for one is a lost
 * wakeup.
 * Not a kernel function; the timeout fires only in a state where all
 * the others are blocked, and pan then checks that they are blocked at
 * an end label (idle, stalled, the culler waiting): anything else is a
 * deadlock.  In the non-progress search (i) this is where every run of a
 * correct model ends: after it nothing moves, and no cycle is left.
 */
active proctype quiescence()
{
	byte s, queued, lost_wakeup = NONE;

	timeout;
	d_step {
		queued = QUEUE_LEN;
		for (s : 0 .. NS - 1) {
			if
			:: WORK_PENDING(s) -> lost_wakeup = s
			:: else
			fi
		}
	}
#ifdef STOPPER
	if
	:: lost_wakeup != NONE ->
		printf("all quiet: %d of %d threads stalled, %d stopped, %d sockets queued, socket %d has work\n",
		       stalled, NTHREAD, exited, queued, lost_wakeup)
	:: else ->
		printf("all quiet: %d of %d threads stalled, %d stopped, %d sockets queued\n",
		       stalled, NTHREAD, exited, queued)
	fi;
#else
	if
	:: lost_wakeup != NONE ->
		printf("all quiet: %d of %d threads stalled, %d sockets queued, socket %d has work\n",
		       stalled, NTHREAD, queued, lost_wakeup)
	:: else ->
		printf("all quiet: %d of %d threads stalled, %d sockets queued\n",
		       stalled, NTHREAD, queued)
	fi;
#endif
#ifdef STOPPER
	quiescence_more();
#endif
	/* (f) no socket waits on the ready queue while a thread sleeps */
	assert(stalled + exited == NTHREAD || queued == 0);
	/* (a) no socket holds work while a thread sleeps */
	assert(stalled + exited == NTHREAD || lost_wakeup == NONE)
}

init {
	byte i;

	d_step {
		/*
		 * svc_create_sockets(): the listener, set up, precharged
		 * and handed back before the first peer connects; idle.
		 */
		born[LISTENER] = 1;
		attached[LISTENER] = 1;
		listed[LISTENER] = 1;
		ref[LISTENER] = 1;
		init_listener();
		for (i : 0 .. 2) {
			acceptq[i] = NONE
		}
		/*
		 * ACCEPT=0: the accepted sockets were set up and handed back
		 * before the run (svc_setup_socket(), svc_sock_precharge())
		 * and are idle; only their data and resets are modelled.
		 */
		for (i : 1 .. NSOCK) {
			if
			:: !ACCEPT ->
				born[i] = 1;
				attached[i] = 1;
				listed[i] = 1;
				ref[i] = 1;
				init_socket(i)
			:: else
			fi
		}
	}
	atomic {
		for (i : 0 .. NTHREAD - 1) {
			run thread(i)
		}
		for (i : 1 .. NSOCK) {
			run peer(i)
		}
		if
		:: CULL -> run culler()
		:: else
		fi
#ifdef STOPPER
		;
		if
		:: STOPPER -> run stopper()
		:: else
		fi
#endif
	}
}
