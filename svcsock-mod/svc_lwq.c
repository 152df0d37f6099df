// SPDX-License-Identifier: GPL-2.0
/*
 * The lwq build's light-weight queue of ready sockets: the design of
 * Linux 6.7's lib/lwq.c (Neil Brown, 2023), written for 6.1, which has
 * none.
 *
 * Producers (svc_sock_enqueue(), any context) add an entry to q->new with
 * llist_add(): one compare-and-exchange, no lock.  Consumers (server
 * threads, process context) take q->lock, which no producer ever takes,
 * and take the first entry of q->ready; when q->ready is empty they move
 * all of q->new there at once (llist_del_all(), one exchange) and reverse
 * it.  So the queue is FIFO in the order the producers' adds took effect,
 * and a producer never waits for a consumer.
 *
 * svc_lwq_empty() takes no lock and may see the queue empty while a
 * consumer moves entries from q->new to q->ready.  While it moves them,
 * q->ready holds a marker (a release store before the exchange, paired
 * with the acquire load in svc_lwq_empty()), which narrows that window
 * but cannot close it (a reader may load q->ready before the marker and
 * q->new after the exchange).  No entry is stranded by it: the consumer
 * holds the moved entries, and having taken one it looks again, under no
 * illusion, and wakes the next thread if any remain (svc_sock_wait() in
 * xprt_lwq.c).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/llist.h>
#include "svcsock.h"
#include "svc_lwq.h"

/* q->ready while a consumer moves q->new to it: not NULL, never followed */
#define SVC_LWQ_MOVING	((struct llist_node *)1)

/**
 * svc_lwq_init() - Set up an empty queue
 * @q: the queue
 *
 * Context: Process context, before the queue is used.
 */
void svc_lwq_init(struct svc_lwq *q)
{
	spin_lock_init(&q->lock);
	q->ready = NULL;
	init_llist_head(&q->new);
}

/**
 * svc_lwq_enqueue() - Add an entry at the tail
 * @n: the entry, on no queue
 * @q: the queue
 *
 * A full barrier (the exchange of llist_add()) orders the caller's earlier
 * stores, and the caller's later loads, around the add.
 *
 * Context: Any context; no lock.
 */
void svc_lwq_enqueue(struct llist_node *n, struct svc_lwq *q)
{
	svc_stat_inc(SVC_STAT_FLAG_RMW);
	llist_add(n, &q->new);
}

/**
 * svc_lwq_empty() - Is the queue empty?
 * @q: the queue
 *
 * See the comment at the top of this file for its race.
 *
 * Context: Any context; no lock.
 *
 * Return: true when the queue looked empty.
 */
bool svc_lwq_empty(struct svc_lwq *q)
{
	/* Acquire: pairs with the marker's release in svc_lwq_dequeue(). */
	return !smp_load_acquire(&q->ready) && llist_empty(&q->new);
}

/**
 * svc_lwq_dequeue() - Take the entry at the head
 * @q: the queue
 *
 * Context: Process context; takes q->lock.
 *
 * Return: the entry, or NULL when there is none.
 */
struct llist_node *svc_lwq_dequeue(struct svc_lwq *q)
{
	struct llist_node *this;

	if (svc_lwq_empty(q))
		return NULL;
	svc_spin_lock(&q->lock, SVC_LWQ_LOCK);
	this = q->ready;
	if (!this && !llist_empty(&q->new)) {
		/* Not empty to a lockless reader while the entries move. */
		smp_store_release(&q->ready, SVC_LWQ_MOVING);
		svc_stat_inc(SVC_STAT_FLAG_RMW);
		this = llist_reverse_order(llist_del_all(&q->new));
		if (!this)
			WRITE_ONCE(q->ready, NULL);
	}
	if (this)
		WRITE_ONCE(q->ready, this->next);
	spin_unlock(&q->lock);
	return this;
}
