// SPDX-License-Identifier: GPL-2.0
/*
 * The hand-over torture test: the build's own enqueue, dequeue and
 * received code driven hard on synthetic sockets, with no network in
 * between (as kernel/locking/locktorture.c drives a lock).  It is a
 * module of its own per build, svcsock_<build>_torture: the build's
 * sources compiled again with SVCSOCK_DEBUG_OWNER (the ownership hooks,
 * defined here), and this file, whose init and exit take the place of
 * svc_module.c's (Kbuild).  The production modules carry none of it.
 *
 * Control, in debugfs (/sys/kernel/debug/KBUILD_MODNAME/):
 *   run     write N (1-60) to start an N-second run; the write returns
 *           at once, -EBUSY while a run is under way
 *   report  the last run's results, one line of NAME=VALUE words, the
 *           first result=ok or result=fail (result=running while a run
 *           is under way, result=none before the first)
 * Unloading the module stops a run under way within a second or so.
 *
 * A synthetic socket is a real, unbound UDP socket (no datagram can reach
 * it) of this file's own transport class, svc_torture_dgram_ops: set up
 * like the service's own sockets, so it is born busy, precharged, and
 * served by the service's threads through the build's svc_udp_recvfrom().
 * Its "datagrams" are events: a producer counts a batch of 1-4 events in,
 * then calls the build's svc_udp_data_ready() once for the batch, as the
 * network stack calls it once for a segment holding several records.
 * The class's xpo_read takes one event and returns -EINPROGRESS, so the
 * build gives the socket back exactly as after a datagram (rule 3: set
 * SK_DATA again, or, in queued, when events remain) and processes no
 * call.  The synthetic listener, of svc_torture_listen_ops, is a TCP
 * socket listening on 127.0.0.1 that no one connects to; its xpo_accept
 * makes an unconnected TCP socket for each CONN event, which the build
 * finds not established, closes and deletes (a CLOSE event through the
 * build's own close path).  At the end of a run the listener itself is
 * closed the same way.
 *
 * Producers: torture_producers kthreads (default: one per online CPU)
 * and an hrtimer that fires in softirq context every 50 us.  Consumers:
 * the service's threads.  Checked as it runs, each a counter in the
 * report that fails the run when it is not 0:
 *   - double_owner: the build's busy flag makes one owner of a socket,
 *     from the moment an enqueue takes the flag until the build gives it
 *     back; the build marks both ends (the ownership hooks, svcsock.h),
 *     and a second mark before the first ends is counted: a second owner
 *     is seen whenever the flag is taken twice, whether or not two reads
 *     happen to overlap (KCSAN's ASSERT_EXCLUSIVE_WRITER on the consumed
 *     count reports an overlap too, on the kcsan kernel);
 *   - twice: an event handled twice.  A take exchanges the event's stamp
 *     for 0, so the second take of one event finds 0, however the two
 *     interleave;
 *   - late: an event taken more than torture_latency_ms after it was
 *     counted in (per-event latency bound);
 *   - lost: when the producers stop, every event must be consumed, the
 *     threads never taking three seconds without progress; then each
 *     socket gets a last batch of two events, which must be consumed too.
 *     A build that loses a wakeup strands the second event of a batch
 *     (the first read gives the socket back with SK_DATA clear), so the
 *     check does not depend on a race being hit.  Connections made for
 *     CONN events and not yet freed count as events left, and so does the
 *     listener if it is not freed after its close.
 * Reported besides: hand-overs (events consumed) per second per CPU, the
 * latency from an event's count to its take (mean, p50, p99, max, by
 * powers of two), and the build's counters per hand-over.
 *
 * Synthetic UDP sockets stay on sv_permsocks, detached, until the module
 * is unloaded: only a socket's owner may delete it, and the build's UDP
 * path never deletes.  Their torture state goes with them (xpo_free).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/debugfs.h>
#include <linux/kthread.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/net.h>
#include <linux/prandom.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/delay.h>
#include <linux/log2.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include "svcsock.h"

#define SVC_TORTURE_RING	64	/* events outstanding per socket */
#define SVC_TORTURE_MAX_SOCKS	64
#define SVC_TORTURE_MAX_PROD	16
#define SVC_TORTURE_MAX_SECS	60
#define SVC_TORTURE_TIMER_NS	50000
#define SVC_TORTURE_STALL_MS	3000
#define SVC_TORTURE_DRAIN_MS	30000
#define SVC_TORTURE_BUCKETS	40	/* latency by powers of two, in ns */
#define SVC_TORTURE_REPORT	768

static unsigned int torture_sockets = 4;
module_param(torture_sockets, uint, 0644);
MODULE_PARM_DESC(torture_sockets,
		 "synthetic sockets per torture run, 1-64 (default 4)");

static unsigned int torture_producers;
module_param(torture_producers, uint, 0644);
MODULE_PARM_DESC(torture_producers,
		 "producer threads per torture run, 1-16 (default 0: one per online CPU)");

/* The bound on one event's wait, from its count to its take.  Under TCG
 * on a 2-core host that also runs another guest, a vCPU may be off its
 * host CPU for a good part of a second; a build that strands a socket
 * until the drain takes seconds.  So: 2 s, below the drain's 3 s stall.
 */
static unsigned int torture_latency_ms = 2000;
module_param(torture_latency_ms, uint, 0644);
MODULE_PARM_DESC(torture_latency_ms,
		 "an event taken later than this after it was counted in fails the run (default 2000)");

/* One synthetic socket's events.  Producers serialise on lock (the
 * socket's receive queue lock, in a real socket); the socket's owner
 * alone reads and advances consumed.
 */
struct svc_torture_sock {
	spinlock_t		lock;		/* producers of this socket */
	unsigned long		produced;	/* smp_store_release() under lock */
	unsigned long		consumed;	/* owner only; smp_store_release() */
	atomic_t		owners;		/* the ownership hooks: at most 1 */
	u64			stamp[SVC_TORTURE_RING]; /* ns counted in; 0: taken */
	struct svc_sock		*svsk;
};

/* One run.  The counters are atomic: they are the test's, not the build's. */
struct svc_torture {
	struct svc_serv		*serv;
	struct svc_torture_sock	*socks[SVC_TORTURE_MAX_SOCKS];
	unsigned int		nsocks;
	struct svc_torture_sock	*listener;	/* CONN events */
	u64			accepted0;	/* tcp_accepted at the start */
	u64			closed0;	/* tcp_closed at the start */
	struct task_struct	*producers[SVC_TORTURE_MAX_PROD];
	unsigned int		nproducers;
	struct hrtimer		timer;
	bool			stopping;	/* READ_ONCE: timer stops */
	atomic64_t		batches;
	atomic64_t		full;		/* a batch found the ring full */
};

/* What the checks find, reset by each run.  Not in struct svc_torture: a
 * thread may still hold a synthetic socket (and find it empty) when a run
 * ends and frees that.
 */
static atomic64_t svc_torture_double_owner;
static atomic64_t svc_torture_twice;
static atomic64_t svc_torture_late;
static u64 svc_torture_late_ns;		/* the bound, for this run */
/* Synthetic listeners freed (xpo_free), and the wait for one. */
static atomic_t svc_torture_listeners_freed = ATOMIC_INIT(0);
static DECLARE_WAIT_QUEUE_HEAD(svc_torture_wq);

struct svc_torture_hist {
	u64	bucket[SVC_TORTURE_BUCKETS];
	u64	sum;
	u64	count;
	u64	max;
};

/* Allocated at init: static per-CPU data would come out of the small
 * chunk every module shares (svcsock.h, struct svc_stats).
 */
static struct svc_torture_hist __percpu *svc_torture_hist;

/* The control side: svc_torture_mutex protects the report, whether a run
 * is under way, and svc_torture_stop, which module exit sets (then no run
 * starts, and one under way ends; svc_torture_wq wakes it).
 */
static DEFINE_MUTEX(svc_torture_mutex);
static char svc_torture_report[SVC_TORTURE_REPORT] = "result=none";
static bool svc_torture_busy;
static bool svc_torture_stop;
static unsigned int svc_torture_secs;
static struct svc_serv *svc_torture_serv;
static struct dentry *svc_torture_dir;

static void svc_torture_work_fn(struct work_struct *work);
static DECLARE_WORK(svc_torture_work, svc_torture_work_fn);

static const struct svc_sock_ops svc_torture_dgram_ops;
static const struct svc_sock_ops svc_torture_listen_ops;

static bool svc_torture_stopped(void)
{
	return READ_ONCE(svc_torture_stop);
}

/* A synthetic socket's events, or NULL for a socket of another class. */
static struct svc_torture_sock *svc_torture_sock_of(const struct svc_sock *svsk)
{
	if (svsk->sk_ops != &svc_torture_dgram_ops &&
	    svsk->sk_ops != &svc_torture_listen_ops)
		return NULL;
	return svsk->sk_class_data;
}

/**
 * svc_sock_owner_begin() - The build's busy flag was taken: mark an owner
 * @svsk: the socket
 *
 * Counts a second owner when the socket has one already.
 *
 * Context: Any context; the caller has just taken the busy flag (or the
 * socket is being born busy).
 */
void svc_sock_owner_begin(struct svc_sock *svsk)
{
	struct svc_torture_sock *ts = svc_torture_sock_of(svsk);

	if (ts && atomic_inc_return(&ts->owners) != 1)
		atomic64_inc(&svc_torture_double_owner);
}

/**
 * svc_sock_owner_end() - The build is about to give the busy flag back
 * @svsk: the socket
 *
 * Context: Process context; the caller owns the socket, and gives the
 * flag back next.
 */
void svc_sock_owner_end(struct svc_sock *svsk)
{
	struct svc_torture_sock *ts = svc_torture_sock_of(svsk);

	if (ts)
		atomic_dec(&ts->owners);
}

/* Count an event's latency, on the reading thread's CPU. */
static void svc_torture_hist_add(u64 ns)
{
	struct svc_torture_hist *h;
	unsigned int b = ns ? min_t(unsigned int, ilog2(ns) + 1,
				    SVC_TORTURE_BUCKETS - 1) : 0;

	if (ns > READ_ONCE(svc_torture_late_ns))
		atomic64_inc(&svc_torture_late);
	h = get_cpu_ptr(svc_torture_hist);
	h->bucket[b]++;
	h->sum += ns;
	h->count++;
	if (ns > h->max)
		h->max = ns;
	put_cpu_ptr(svc_torture_hist);
}

/* Take the next event of a synthetic socket, if there is one: its owner
 * (the build's busy flag) calls, for a read or an accept.  With newsock,
 * the event is a connection, and it is taken only if an unconnected TCP
 * socket can be made for it (*newsock).  Returns whether it was taken.
 */
static bool svc_torture_take(struct svc_torture_sock *ts,
			     struct socket **newsock)
{
	unsigned long produced, seq;
	u64 stamp;

	/* The owner alone writes consumed: KCSAN checks it. */
	ASSERT_EXCLUSIVE_WRITER(ts->consumed);

	/* Pairs with the release in svc_torture_raise(): stamps first. */
	produced = smp_load_acquire(&ts->produced);
	seq = ts->consumed;
	if (seq == produced)
		return false;
	if (newsock && sock_create_kern(&init_net, PF_INET, SOCK_STREAM,
					IPPROTO_TCP, newsock))
		return false;
	/* Exactly one take of an event gets its stamp (xchg() is atomic
	 * and fully ordered), however two owners interleave.
	 */
	stamp = xchg(&ts->stamp[seq % SVC_TORTURE_RING], 0);
	if (stamp)
		svc_torture_hist_add(ktime_get_ns() - stamp);
	else
		atomic64_inc(&svc_torture_twice);
	/* Release: the slot is empty before a producer can see it free. */
	smp_store_release(&ts->consumed, seq + 1);
	return true;
}

/* The xpo_read of a synthetic socket: take one event.  Returns
 * -EINPROGRESS for an event taken (the build gives the socket back as
 * after a datagram, with no call to process), -EAGAIN when none is left.
 * Process context; the caller owns the socket's receive side.
 */
static int svc_torture_read(struct svc_rqst *rqstp)
{
	return svc_torture_take(svc_torture_sock_of(rqstp->rq_sock), NULL) ?
	       -EINPROGRESS : -EAGAIN;
}

/* The synthetic listener has no calls to read. */
static int svc_torture_listen_read(struct svc_rqst *rqstp)
{
	return -ENOTCONN;
}

/* The xpo_data_queued of both: events left.  The owner asks, for rule 3. */
static bool svc_torture_queued(struct svc_sock *svsk)
{
	struct svc_torture_sock *ts = svc_torture_sock_of(svsk);

	/* Acquire: as in svc_torture_take(), the stamps come with the count. */
	return smp_load_acquire(&ts->produced) != READ_ONCE(ts->consumed);
}

/* The synthetic listener's xpo_accept: the next CONN event, and an
 * unconnected TCP socket made for it, which svc_tcp_ops finds not
 * established (svc_setup_socket()): so the build sets SK_CLOSE on it and
 * a thread deletes it.  -EAGAIN when no event is left (or no socket could
 * be made: then the event stays, and is reported lost if no later accept
 * takes it).  The caller owns the listener.
 */
static int svc_torture_accept(struct svc_sock *svsk, struct socket **newsock)
{
	return svc_torture_take(svc_torture_sock_of(svsk), newsock) ?
	       0 : -EAGAIN;
}

/* Synthetic sockets answer no call: they have none. */
static int svc_torture_sendto(struct svc_rqst *rqstp)
{
	return -EOPNOTSUPP;
}

/* A synthetic socket keeps its buffers: nothing is ever sent or queued. */
static void svc_torture_prepare(struct svc_sock *svsk)
{
}

/* The build's callbacks, as for real sockets of the kind: nothing reaches
 * them from the network, and the producers call them directly.  Under the
 * write side of sk_callback_lock.
 */
static void svc_torture_dgram_attach(struct svc_sock *svsk)
{
	svsk->sk_sk->sk_data_ready = svc_udp_data_ready;
}

static void svc_torture_listen_attach(struct svc_sock *svsk)
{
	svsk->sk_sk->sk_data_ready = svc_tcp_listen_data_ready;
}

/* Free the events with the socket; count a listener freed. */
static void svc_torture_free(struct svc_sock *svsk)
{
	bool listener = svsk->sk_ops == &svc_torture_listen_ops;

	kfree(svsk->sk_class_data);
	if (listener) {
		atomic_inc(&svc_torture_listeners_freed);
		wake_up(&svc_torture_wq);
	}
}

static const struct svc_sock_ops svc_torture_dgram_ops = {
	.xpo_name		= "torture-dgram",
	.xpo_recvfrom		= svc_udp_recvfrom,
	.xpo_read		= svc_torture_read,
	.xpo_data_queued	= svc_torture_queued,
	.xpo_has_wspace		= svc_sock_always_wspace,
	.xpo_sendto		= svc_torture_sendto,
	.xpo_prepare		= svc_torture_prepare,
	.xpo_attach		= svc_torture_dgram_attach,
	.xpo_free		= svc_torture_free,
};

static const struct svc_sock_ops svc_torture_listen_ops = {
	.xpo_name		= "torture-listener",
	.xpo_recvfrom		= svc_tcp_recvfrom,
	.xpo_read		= svc_torture_listen_read,
	.xpo_accept		= svc_torture_accept,
	.xpo_accepted		= &svc_tcp_ops,
	.xpo_data_queued	= svc_torture_queued,
	.xpo_has_wspace		= svc_sock_always_wspace,
	.xpo_sendto		= svc_torture_sendto,
	.xpo_prepare		= svc_torture_prepare,
	.xpo_attach		= svc_torture_listen_attach,
	.xpo_free		= svc_torture_free,
};

/* Count n events into a socket and call the build's data_ready callback
 * once for them.  Returns false, raising nothing, when the socket's ring
 * of outstanding events is full.  Any context; never sleeps.
 */
static bool svc_torture_raise(struct svc_torture *t,
			      struct svc_torture_sock *ts, unsigned int n)
{
	unsigned long flags, p;
	u64 now = ktime_get_ns();
	unsigned int i;

	spin_lock_irqsave(&ts->lock, flags);
	p = ts->produced;
	/* Acquire: pairs with the take's release, so that a slot seen free
	 * has been emptied.
	 */
	if (p + n - smp_load_acquire(&ts->consumed) > SVC_TORTURE_RING) {
		spin_unlock_irqrestore(&ts->lock, flags);
		atomic64_inc(&t->full);
		return false;
	}
	for (i = 0; i < n; i++)
		WRITE_ONCE(ts->stamp[(p + i) % SVC_TORTURE_RING], now ?: 1);
	/* The stamps are visible before the events: the reader acquires. */
	smp_store_release(&ts->produced, p + n);
	spin_unlock_irqrestore(&ts->lock, flags);
	atomic64_inc(&t->batches);

	if (ts == t->listener)
		svc_tcp_listen_data_ready(ts->svsk->sk_sk);
	else
		svc_udp_data_ready(ts->svsk->sk_sk);
	return true;
}

/* A random event: one connection on the listener (one in eight, one per
 * callback, as TCP calls it once per connection), else a batch of n
 * datagrams on a random socket.
 */
static bool svc_torture_raise_random(struct svc_torture *t, unsigned int n)
{
	u32 r = get_random_u32();

	if (r % 8 == 0)
		return svc_torture_raise(t, t->listener, 1);
	return svc_torture_raise(t, t->socks[(r >> 3) % t->nsocks], n);
}

static int svc_torture_producer(void *data)
{
	struct svc_torture *t = data;

	while (!kthread_should_stop()) {
		/* A full ring: the threads are behind, let them run. */
		if (!svc_torture_raise_random(t, 1 + get_random_u32() % 4))
			usleep_range(20, 50);
		cond_resched();
	}
	return 0;
}

/* The softirq producer: one event on a random socket every 50 us. */
static enum hrtimer_restart svc_torture_timer(struct hrtimer *timer)
{
	struct svc_torture *t = container_of(timer, struct svc_torture, timer);

	if (READ_ONCE(t->stopping))
		return HRTIMER_NORESTART;
	svc_torture_raise_random(t, 1);
	hrtimer_forward_now(timer, ns_to_ktime(SVC_TORTURE_TIMER_NS));
	return HRTIMER_RESTART;
}

/* Add a synthetic socket with fresh events to the run and hand it to
 * the threads (the precharge): one of t->socks[], a UDP socket, or the
 * listener, a TCP socket listening on 127.0.0.1, port chosen by the
 * kernel, that no one connects to (the build's listener callback ignores
 * a socket that is not listening).  Returns 0 or a negative errno.
 */
static int svc_torture_add(struct svc_torture *t, bool listener)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	struct svc_torture_sock *ts;
	struct svc_sock *svsk;
	struct socket *sock;
	int err;

	err = sock_create_kern(&init_net, PF_INET,
			       listener ? SOCK_STREAM : SOCK_DGRAM, 0, &sock);
	if (err)
		return err;
	if (listener) {
		err = kernel_bind(sock, (struct sockaddr *)&sin, sizeof(sin));
		if (!err)
			err = kernel_listen(sock, 8);
	}
	ts = err ? NULL : kzalloc(sizeof(*ts), GFP_KERNEL);
	if (!ts) {
		sock_release(sock);
		return err ? err : -ENOMEM;
	}
	spin_lock_init(&ts->lock);
	svsk = svc_setup_perm_socket(t->serv, sock,
				     listener ? &svc_torture_listen_ops :
						&svc_torture_dgram_ops, ts);
	if (IS_ERR(svsk)) {
		kfree(ts);
		return PTR_ERR(svsk);
	}
	/* Born busy: no thread takes it before the precharge. */
	ts->svsk = svsk;
	svc_sock_precharge(svsk);
	if (listener)
		t->listener = ts;
	else
		t->socks[t->nsocks++] = ts;
	return 0;
}

/* A synthetic socket's events not yet taken. */
static u64 svc_torture_left(struct svc_torture_sock *ts)
{
	unsigned long produced, consumed;

	/* Pairs with the release in svc_torture_raise(). */
	produced = smp_load_acquire(&ts->produced);
	/* Pairs with the release in svc_torture_take(). */
	consumed = smp_load_acquire(&ts->consumed);
	return produced - consumed;
}

/* Events not yet handed over, and connections made for CONN events not
 * yet deleted and freed (each is a CLOSE event).
 */
static u64 svc_torture_pending(struct svc_torture *t)
{
	u64 n = 0;
	unsigned int i;

	for (i = 0; i < t->nsocks; i++)
		n += svc_torture_left(t->socks[i]);
	n += svc_torture_left(t->listener);
	return n + (svc_stat_sum(SVC_STAT_TCP_ACCEPTED) - t->accepted0) -
	       (svc_stat_sum(SVC_STAT_TCP_CLOSED) - t->closed0);
}

/* Wait for the threads to take every event; the events left.  A lost
 * wakeup makes no progress at all, so the wait ends when nothing was
 * taken for SVC_TORTURE_STALL_MS (a debug kernel on a busy host can take
 * seconds over a backlog it is still working through), or after
 * SVC_TORTURE_DRAIN_MS in all, or when the module is being unloaded.
 */
static u64 svc_torture_drain(struct svc_torture *t)
{
	unsigned long end = jiffies + msecs_to_jiffies(SVC_TORTURE_DRAIN_MS);
	unsigned long stall = jiffies + msecs_to_jiffies(SVC_TORTURE_STALL_MS);
	u64 left = svc_torture_pending(t), now;

	while (left && time_before(jiffies, end) &&
	       time_before(jiffies, stall) && !svc_torture_stopped()) {
		msleep(20);
		now = svc_torture_pending(t);
		if (now < left)
			stall = jiffies + msecs_to_jiffies(SVC_TORTURE_STALL_MS);
		left = now;
	}
	return left;
}

/* Close the synthetic listener through the build's own close path (a
 * thread takes it, finds it closing and deletes it) and wait for it to be
 * freed.  Returns 0 when it was, 1 (an event lost) when it was not within
 * the drain's stall bound.
 */
static u64 svc_torture_close_listener(struct svc_torture *t)
{
	struct svc_serv *serv = t->serv;
	struct svc_sock *svsk = t->listener->svsk;
	int freed = atomic_read(&svc_torture_listeners_freed);

	/* A reference across svc_sock_set_close(), as its callers hold:
	 * taken under sv_lock while the socket is on sv_permsocks.
	 */
	svc_spin_lock_bh(&serv->sv_lock, SVC_SV_LOCK);
	svc_sock_get(svsk);
	spin_unlock_bh(&serv->sv_lock);
	svc_sock_set_close(svsk);
	svc_sock_put(svsk);
	t->listener = NULL;	/* the socket and its events are the build's */

	wait_event_timeout(svc_torture_wq,
			   atomic_read(&svc_torture_listeners_freed) != freed ||
			   svc_torture_stopped(),
			   msecs_to_jiffies(SVC_TORTURE_STALL_MS));
	/* Unloading ends the wait: then the shutdown frees it, unjudged. */
	return atomic_read(&svc_torture_listeners_freed) == freed &&
	       !svc_torture_stopped();
}

/* The latency percentile q (of 100), as its bucket's upper bound in ns. */
static u64 svc_torture_percentile(const struct svc_torture_hist *h,
				  unsigned int q)
{
	u64 want = div_u64(h->count * q + 99, 100), seen = 0;
	unsigned int b;

	for (b = 0; b < SVC_TORTURE_BUCKETS; b++) {
		seen += h->bucket[b];
		if (seen >= want && want)
			return b ? 1ULL << b : 0;
	}
	return 0;
}

static void svc_torture_hist_reset(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(svc_torture_hist, cpu), 0,
		       sizeof(struct svc_torture_hist));
}

/* Sum the CPUs' histograms for the report.  After a full drain no thread
 * adds to them; but a run cut short (the module unloading, or a drain
 * that gave up on a stranded event) is summed while threads may still
 * take events and add theirs: its report says so (stopped=1, or lost),
 * and its figures are a snapshot.  So the reads are data_race(): a
 * statistic read beside its writers, not a hand-over.
 */
static void svc_torture_hist_sum(struct svc_torture_hist *h)
{
	int cpu, b;

	memset(h, 0, sizeof(*h));
	for_each_possible_cpu(cpu) {
		struct svc_torture_hist c;

		/* A statistic's snapshot, beside its writers (above). */
		c = data_race(*per_cpu_ptr(svc_torture_hist, cpu));
		for (b = 0; b < SVC_TORTURE_BUCKETS; b++)
			h->bucket[b] += c.bucket[b];
		h->sum += c.sum;
		h->count += c.count;
		h->max = max(h->max, c.max);
	}
}

/* The build's counter s per hand-over, in thousandths. */
static u64 svc_torture_per_k(u64 before, u64 after, u64 handovers)
{
	return handovers ? div64_u64((after - before) * 1000, handovers) : 0;
}

/* The counters of the build that the report gives per hand-over. */
static const enum svc_stat svc_torture_counted[] = {
	SVC_STAT_ENQUEUE_CALLS, SVC_STAT_THREADS_WOKEN,
	SVC_STAT_ENQUEUE_BUSY, SVC_STAT_SV_LOCK_ACQUIRED,
	SVC_STAT_SV_LOCK_CONTENDED, SVC_STAT_SK_LOCK_ACQUIRED,
	SVC_STAT_LWQ_LOCK_ACQUIRED, SVC_STAT_IDLE_LOCK_ACQUIRED,
	SVC_STAT_FLAG_RMW, SVC_STAT_WAKEUPS_IDLE,
};

/* Write one run's report line into buf. */
static void svc_torture_format(char *buf, size_t size, struct svc_torture *t,
			       unsigned int secs, u64 lost, u64 run_ns,
			       const u64 *per_k, const struct svc_torture_hist *h,
			       bool stopped)
{
	u64 double_owner = atomic64_read(&svc_torture_double_owner);
	u64 twice = atomic64_read(&svc_torture_twice);
	u64 late = atomic64_read(&svc_torture_late);
	const struct { const char *name; u64 v; } f[] = {
		{ "seconds", secs },
		{ "cpus", num_online_cpus() },
		{ "threads", READ_ONCE(t->serv->sv_nrthreads) },
		{ "sockets", t->nsocks },
		{ "producers", t->nproducers },
		{ "batches", atomic64_read(&t->batches) },
		{ "full", atomic64_read(&t->full) },
		{ "handovers", h->count },
		{ "conns", svc_stat_sum(SVC_STAT_TCP_ACCEPTED) - t->accepted0 },
		{ "closes", svc_stat_sum(SVC_STAT_TCP_CLOSED) - t->closed0 },
		{ "lost", lost },
		{ "double_owner", double_owner },
		{ "twice", twice },
		{ "late", late },
		{ "latency_bound_ms", div_u64(svc_torture_late_ns, NSEC_PER_MSEC) },
		{ "handovers_per_s_per_cpu",
		  div64_u64(h->count * NSEC_PER_SEC,
			    max_t(u64, run_ns, 1) * num_online_cpus()) },
		{ "lat_mean_ns", h->count ? div64_u64(h->sum, h->count) : 0 },
		{ "lat_p50_ns", svc_torture_percentile(h, 50) },
		{ "lat_p99_ns", svc_torture_percentile(h, 99) },
		{ "lat_max_ns", h->max },
		{ "enqueue_per_k", per_k[0] },
		{ "woken_per_k", per_k[1] },
		{ "enqueue_busy_per_k", per_k[2] },
		{ "sv_lock_per_k", per_k[3] },
		{ "sv_lock_contended_per_k", per_k[4] },
		{ "sk_lock_per_k", per_k[5] },
		{ "lwq_lock_per_k", per_k[6] },
		{ "idle_lock_per_k", per_k[7] },
		{ "flag_rmw_per_k", per_k[8] },
		{ "wakeups_idle_per_k", per_k[9] },
	};
	const char *result = stopped ? "stopped" :
		(lost || double_owner || twice || late) ? "fail" : "ok";
	size_t len;
	unsigned int i;

	len = scnprintf(buf, size, "result=%s", result);
	for (i = 0; i < ARRAY_SIZE(f); i++)
		len += scnprintf(buf + len, size - len, " %s=%llu",
				 f[i].name, f[i].v);
}

/* Run the test for secs seconds on serv and write the report into buf:
 * 0, or an errno when the test could not be set up (a failed check is in
 * the report, not the return).  Process context, from svc_torture_work.
 */
static int svc_torture_run(struct svc_serv *serv, unsigned int secs,
			   char *buf, size_t size)
{
	u64 before[ARRAY_SIZE(svc_torture_counted)];
	u64 per_k[ARRAY_SIZE(svc_torture_counted)];
	unsigned int nsocks = clamp(READ_ONCE(torture_sockets), 1U,
				    (unsigned int)SVC_TORTURE_MAX_SOCKS);
	unsigned int nprod = READ_ONCE(torture_producers);
	struct svc_torture_hist h;
	struct svc_torture *t;
	u64 lost, start_ns;
	unsigned int i;
	int err = 0;

	if (!nprod)
		nprod = num_online_cpus();
	nprod = min_t(unsigned int, nprod, SVC_TORTURE_MAX_PROD);
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	t->serv = serv;
	svc_torture_hist_reset();
	atomic64_set(&svc_torture_double_owner, 0);
	atomic64_set(&svc_torture_twice, 0);
	atomic64_set(&svc_torture_late, 0);
	WRITE_ONCE(svc_torture_late_ns,
		   (u64)READ_ONCE(torture_latency_ms) * NSEC_PER_MSEC);
	for (i = 0; i < nsocks && !err; i++)
		err = svc_torture_add(t, false);
	if (!err)
		err = svc_torture_add(t, true);
	if (err)
		goto out;
	/* Let the precharges' reads finish before counting. */
	msleep(20);
	for (i = 0; i < ARRAY_SIZE(svc_torture_counted); i++)
		before[i] = svc_stat_sum(svc_torture_counted[i]);
	t->accepted0 = svc_stat_sum(SVC_STAT_TCP_ACCEPTED);
	t->closed0 = svc_stat_sum(SVC_STAT_TCP_CLOSED);
	start_ns = ktime_get_ns();

	for (i = 0; i < nprod; i++) {
		struct task_struct *p;

		p = kthread_run(svc_torture_producer, t, "svcsock-tp/%u", i);
		if (IS_ERR(p)) {
			err = PTR_ERR(p);
			break;
		}
		t->producers[t->nproducers++] = p;
	}
	hrtimer_init(&t->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	t->timer.function = svc_torture_timer;
	hrtimer_start(&t->timer, ns_to_ktime(SVC_TORTURE_TIMER_NS),
		      HRTIMER_MODE_REL_SOFT);

	if (!err)
		wait_event_timeout(svc_torture_wq, svc_torture_stopped(),
				   secs * HZ);

	WRITE_ONCE(t->stopping, true);
	hrtimer_cancel(&t->timer);
	for (i = 0; i < t->nproducers; i++)
		kthread_stop(t->producers[i]);

	/* Drain; then a last batch of two on each socket (see the comment
	 * at the top), which finds every ring empty, and drain again; then
	 * close the listener.
	 */
	lost = svc_torture_drain(t);
	if (!lost) {
		for (i = 0; i < t->nsocks; i++)
			svc_torture_raise(t, t->socks[i], 2);
		svc_torture_raise(t, t->listener, 1);
		lost = svc_torture_drain(t);
	}
	for (i = 0; i < t->nsocks; i++)
		svc_sock_detach(t->socks[i]->svsk);

	svc_torture_hist_sum(&h);
	for (i = 0; i < ARRAY_SIZE(svc_torture_counted); i++)
		per_k[i] = svc_torture_per_k(before[i],
					     svc_stat_sum(svc_torture_counted[i]),
					     h.count);
	svc_torture_format(buf, size, t, secs, lost, ktime_get_ns() - start_ns,
			   per_k, &h, svc_torture_stopped());
	if (!lost && !svc_torture_stopped() && svc_torture_close_listener(t))
		strscpy(buf, "result=fail listener_not_freed=1", size);
out:
	/* No callback can start once detached; the data sockets stay
	 * listed.  A listener left (an error, a lost event) is detached
	 * too, and freed at unload.
	 */
	if (err) {
		for (i = 0; i < t->nsocks; i++)
			svc_sock_detach(t->socks[i]->svsk);
	}
	if (t->listener)
		svc_sock_detach(t->listener->svsk);
	kfree(t);
	return err;
}

static void svc_torture_work_fn(struct work_struct *work)
{
	char *buf = kmalloc(SVC_TORTURE_REPORT, GFP_KERNEL);
	unsigned int secs;
	int err = -ENOMEM;

	mutex_lock(&svc_torture_mutex);
	secs = svc_torture_secs;
	mutex_unlock(&svc_torture_mutex);
	if (buf)
		err = svc_torture_run(svc_torture_serv, secs, buf,
				      SVC_TORTURE_REPORT);

	mutex_lock(&svc_torture_mutex);
	if (err)
		scnprintf(svc_torture_report, sizeof(svc_torture_report),
			  "result=error errno=%d", -err);
	else
		strscpy(svc_torture_report, buf, sizeof(svc_torture_report));
	svc_torture_busy = false;
	mutex_unlock(&svc_torture_mutex);
	kfree(buf);
}

/* debugfs "run": write N to start an N-second run. */
static ssize_t svc_torture_run_write(struct file *file, const char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	unsigned int secs;
	int err;

	err = kstrtouint_from_user(ubuf, count, 0, &secs);
	if (err)
		return err;
	if (secs < 1 || secs > SVC_TORTURE_MAX_SECS)
		return -EINVAL;
	mutex_lock(&svc_torture_mutex);
	if (svc_torture_busy || svc_torture_stop) {
		err = -EBUSY;
	} else {
		svc_torture_busy = true;
		svc_torture_secs = secs;
		strscpy(svc_torture_report, "result=running",
			sizeof(svc_torture_report));
		queue_work(system_long_wq, &svc_torture_work);
	}
	mutex_unlock(&svc_torture_mutex);
	return err ? err : count;
}

static const struct file_operations svc_torture_run_fops = {
	.owner	= THIS_MODULE,
	.write	= svc_torture_run_write,
	.llseek	= noop_llseek,
};

/* debugfs "report": the last run's line. */
static int svc_torture_report_show(struct seq_file *m, void *v)
{
	mutex_lock(&svc_torture_mutex);
	seq_printf(m, "%s\n", svc_torture_report);
	mutex_unlock(&svc_torture_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(svc_torture_report);

/**
 * svc_torture_init() - Make the torture module's control files
 * @serv: the service whose threads consume the events
 *
 * Context: Process context, module init, the service serving.
 *
 * Return: 0, or a negative errno (no debugfs, no memory).
 */
static int __init svc_torture_init(struct svc_serv *serv)
{
	struct dentry *dir;

	svc_torture_hist = alloc_percpu(struct svc_torture_hist);
	if (!svc_torture_hist)
		return -ENOMEM;
	svc_torture_serv = serv;
	dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	if (IS_ERR(dir)) {
		free_percpu(svc_torture_hist);
		return PTR_ERR(dir);
	}
	debugfs_create_file("run", 0200, dir, NULL, &svc_torture_run_fops);
	debugfs_create_file("report", 0444, dir, NULL,
			    &svc_torture_report_fops);
	svc_torture_dir = dir;
	return 0;
}

/**
 * svc_torture_exit() - Stop a run under way and remove the control files
 *
 * Context: Process context, module exit, before the service stops.  After
 * this no run is under way or can start; the service is still up, and its
 * shutdown frees the synthetic sockets left.
 */
static void __exit svc_torture_exit(void)
{
	/* Removing the files waits for a write under way to return. */
	debugfs_remove_recursive(svc_torture_dir);
	mutex_lock(&svc_torture_mutex);
	svc_torture_stop = true;
	mutex_unlock(&svc_torture_mutex);
	wake_up(&svc_torture_wq);
	cancel_work_sync(&svc_torture_work);
	free_percpu(svc_torture_hist);
}

static int __init svc_torture_mod_init(void)
{
	struct svc_serv *serv;
	int err;

	err = svcsock_start(&serv);
	if (err)
		return err;
	err = svc_torture_init(serv);
	if (err)
		svcsock_stop();
	return err;
}

static void __exit svc_torture_mod_exit(void)
{
	/* First: a run under way stops, and no new one can start. */
	svc_torture_exit();
	svcsock_stop();
}

module_init(svc_torture_mod_init);
module_exit(svc_torture_mod_exit);
