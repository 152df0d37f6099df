// SPDX-License-Identifier: GPL-2.0
/*
 * How an idle thread waits for work in the builds before lwq (lock,
 * bitflag, bitlock, queued): on the service's list sv_threads, under
 * sv_lock, until svc_sock_enqueue() takes it off the list, gives it a
 * socket in rq_sock and wakes it; or it finds a socket waiting on
 * sv_sockets.  Both lists are sv_lock's (see the comment that opens the
 * build's xprt_<strategy>.c); the lwq build replaces this file with its
 * own svc_sock_wait() and svc_serv_state_init() in xprt_lwq.c.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include "svcsock.h"

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
	INIT_LIST_HEAD(&serv->sv_threads);
	INIT_LIST_HEAD(&serv->sv_sockets);
}

/**
 * svc_sock_wait() - Wait for a socket that needs attention
 * @rqstp: the thread
 *
 * Context: Process context, no locks held; sleeps.
 *
 * Return: the socket, owned (its busy flag set for this thread) and with a
 * reference for the thread; or NULL when the thread was woken with none
 * (asked to stop).
 */
struct svc_sock *svc_sock_wait(struct svc_rqst *rqstp)
{
	struct svc_serv	*serv = rqstp->rq_server;
	struct svc_sock	*svsk;

	svc_spin_lock_bh(&serv->sv_lock, SVC_SV_LOCK);
	svsk = svc_sock_dequeue(serv);
	if (svsk) {
		rqstp->rq_sock = svsk;
		svc_sock_get(svsk);
	} else {
		/* No data pending. Go to sleep: svc_sock_enqueue() takes us
		 * off sv_threads, sets rq_sock and wakes us, all under
		 * sv_lock; kthread_stop() wakes us too.  The task state is set
		 * before sv_lock is dropped, so neither wakeup can be lost.
		 */
		rqstp->rq_sock = NULL;
		list_add(&rqstp->rq_list, &serv->sv_threads);
		set_current_state(TASK_INTERRUPTIBLE);
		spin_unlock_bh(&serv->sv_lock);

		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);

		svc_spin_lock_bh(&serv->sv_lock, SVC_SV_LOCK);
		svsk = rqstp->rq_sock;
		if (!svsk)
			list_del_init(&rqstp->rq_list);
	}
	spin_unlock_bh(&serv->sv_lock);
	return svsk;
}
