// SPDX-License-Identifier: GPL-2.0
/*
 * The hand-over torture test: the build's own enqueue, dequeue and
 * received code driven hard on synthetic sockets, with no network in
 * between (as kernel/locking/locktorture.c drives a lock).  Writing N to
 * the torture parameter runs it for N seconds (svc_server.c calls
 * svc_torture_run()); torture_report then reads one line of results.
 *
 * A synthetic socket is a real, unbound UDP socket (no datagram can reach
 * it) set up by svc_setup_socket() like the service's own, so it is born
 * busy, precharged, and served by the service's threads through the
 * build's svc_udp_recvfrom().  Its "datagrams" are events: a producer
 * counts a batch of 1-4 events in, then calls the build's
 * svc_udp_data_ready() once for the batch, as the network stack calls it
 * once for a segment holding several records.  svc_udp_read_datagram()
 * and svc_sock_data_queued() ask svc_torture_read() and
 * svc_torture_queued() instead of the socket: a read takes one event and
 * returns -EINPROGRESS, so the build gives the socket back exactly as
 * after a datagram (rule 3: set SK_DATA again, or, in queued, when
 * events remain) and processes no call.
 *
 * Producers: torture_producers kthreads (default: one per online CPU)
 * and an hrtimer that fires in softirq context every 50 us.  Consumers:
 * the service's threads.  Checked as it runs:
 *   - no two owners: a read that finds another read of the same socket
 *     under way counts a double owner (and KCSAN's ASSERT_EXCLUSIVE_WRITER
 *     on the consumed count reports it on the kcsan kernel);
 *   - no event handled twice: events are numbered, and a read takes the
 *     next one only, so a second handling would show as consumed running
 *     past produced (counted, never expected);
 *   - no event lost: when the producers stop, every event must be
 *     consumed, the threads never taking three seconds without progress;
 *     then each socket gets a last batch of two events, which must be
 *     consumed too.  A build that loses a
 *     wakeup strands the second event of a batch (the first read gives
 *     the socket back with SK_DATA clear), so the check does not depend
 *     on a race being hit.
 * Reported: hand-overs (events consumed) per second per CPU, the latency
 * from an event's count to the read that takes it (mean, p50, p99, max,
 * by powers of two), and the build's counters per hand-over.
 *
 * Synthetic sockets stay on sv_permsocks, detached, until the module is
 * unloaded: only a socket's owner may delete it, and the UDP path never
 * deletes.  Their torture state goes with them (svc_sock_free()).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/net.h>
#include <linux/prandom.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/delay.h>
#include <linux/log2.h>
#include <net/net_namespace.h>
#include "svcsock.h"

#define SVC_TORTURE_RING	64	/* events outstanding per socket */
#define SVC_TORTURE_MAX_SOCKS	64
#define SVC_TORTURE_MAX_PROD	16
#define SVC_TORTURE_TIMER_NS	50000
#define SVC_TORTURE_STALL_MS	3000
#define SVC_TORTURE_DRAIN_MS	30000
#define SVC_TORTURE_BUCKETS	40	/* latency by powers of two, in ns */

static unsigned int torture_sockets = 4;
module_param(torture_sockets, uint, 0644);
MODULE_PARM_DESC(torture_sockets,
		 "synthetic sockets per torture run, 1-64 (default 4)");

static unsigned int torture_producers;
module_param(torture_producers, uint, 0644);
MODULE_PARM_DESC(torture_producers,
		 "producer threads per torture run, 1-16 (default 0: one per online CPU)");

/* One synthetic socket's events.  Producers serialise on lock (the
 * socket's receive queue lock, in a real socket); the socket's owner
 * alone reads and advances consumed.
 */
struct svc_torture_sock {
	spinlock_t		lock;		/* producers of this socket */
	unsigned long		produced;	/* smp_store_release() under lock */
	unsigned long		consumed;	/* owner only; WRITE_ONCE */
	atomic_t		readers;	/* reads under way: at most 1 */
	u64			stamp[SVC_TORTURE_RING];  /* ns, when counted in */
	struct svc_sock		*svsk;
};

/* One run.  The counters are atomic: they are the test's, not the build's. */
struct svc_torture {
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

/* What the readers find wrong, reset by each run.  Not in struct
 * svc_torture: a thread may still be reading a synthetic socket (and
 * finding it empty) when a run ends and frees that.
 */
static atomic64_t svc_torture_double_owner;
static atomic64_t svc_torture_overrun;	/* consumed past produced */

struct svc_torture_hist {
	u64	bucket[SVC_TORTURE_BUCKETS];
	u64	sum;
	u64	count;
	u64	max;
};

static DEFINE_PER_CPU(struct svc_torture_hist, svc_torture_hist);

static char svc_torture_report[640] = "none";

/* Count an event's latency, on the reading thread's CPU. */
static void svc_torture_hist_add(u64 ns)
{
	struct svc_torture_hist *h;
	unsigned int b = ns ? min_t(unsigned int, ilog2(ns) + 1,
				    SVC_TORTURE_BUCKETS - 1) : 0;

	h = get_cpu_ptr(&svc_torture_hist);
	h->bucket[b]++;
	h->sum += ns;
	h->count++;
	if (ns > h->max)
		h->max = ns;
	put_cpu_ptr(&svc_torture_hist);
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
	bool taken = false;

	if (atomic_inc_return(&ts->readers) != 1)
		atomic64_inc(&svc_torture_double_owner);
	/* The owner alone writes consumed: KCSAN checks it. */
	ASSERT_EXCLUSIVE_WRITER(ts->consumed);

	/* Pairs with the release in svc_torture_raise(): stamps first. */
	produced = smp_load_acquire(&ts->produced);
	seq = ts->consumed;
	if (seq != produced &&
	    (!newsock || !sock_create_kern(&init_net, PF_INET, SOCK_STREAM,
					   IPPROTO_TCP, newsock))) {
		if (time_after(seq, produced))
			atomic64_inc(&svc_torture_overrun);
		svc_torture_hist_add(ktime_get_ns() -
				     ts->stamp[seq % SVC_TORTURE_RING]);
		WRITE_ONCE(ts->consumed, seq + 1);
		taken = true;
	}
	atomic_dec(&ts->readers);
	return taken;
}

/**
 * svc_torture_read() - Take the next event of a synthetic socket
 * @rqstp: the thread; rqstp->rq_sock is the synthetic socket
 *
 * Context: Called through svc_udp_read_datagram() by the thread that owns
 * the socket's receive side.
 *
 * Return: -EINPROGRESS for an event taken (the build gives the socket back
 * as after a datagram), -EAGAIN when none is left.
 */
int svc_torture_read(struct svc_rqst *rqstp)
{
	return svc_torture_take(rqstp->rq_sock->sk_torture, NULL) ?
	       -EINPROGRESS : -EAGAIN;
}

/**
 * svc_torture_queued() - Has a synthetic socket events left?
 * @svsk: the synthetic socket
 *
 * Context: Its owner asks, for rule 3.
 *
 * Return: true when it has.
 */
bool svc_torture_queued(struct svc_sock *svsk)
{
	struct svc_torture_sock *ts = svsk->sk_torture;

	/* Acquire: as in svc_torture_read(), the stamps come with the count. */
	return smp_load_acquire(&ts->produced) != READ_ONCE(ts->consumed);
}

/**
 * svc_torture_accept() - Accept a connection on the synthetic listener
 * @svsk: the synthetic listener
 * @newsock: where the new socket goes
 *
 * Takes the next CONN event and makes, for it, an unconnected TCP socket,
 * which svc_setup_socket() finds not established: so the build sets
 * SK_CLOSE on it, and a thread deletes it (a CLOSE event, through the
 * build's own close and delete path).
 *
 * Context: Called through svc_tcp_accept_socket() by the thread that owns
 * the listener.
 *
 * Return: 0 with *@newsock, or -EAGAIN when no event is left (or no socket
 * could be made: then the event stays, and is reported lost if no later
 * accept takes it).
 */
int svc_torture_accept(struct svc_sock *svsk, struct socket **newsock)
{
	return svc_torture_take(svsk->sk_torture, newsock) ? 0 : -EAGAIN;
}

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
	if (p + n - READ_ONCE(ts->consumed) > SVC_TORTURE_RING) {
		spin_unlock_irqrestore(&ts->lock, flags);
		atomic64_inc(&t->full);
		return false;
	}
	for (i = 0; i < n; i++)
		ts->stamp[(p + i) % SVC_TORTURE_RING] = now;
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

static int svc_torture_add_socket(struct svc_serv *serv, struct svc_torture *t)
{
	struct svc_torture_sock *ts;
	struct socket *sock;
	struct svc_sock *svsk;
	int err;

	ts = kzalloc(sizeof(*ts), GFP_KERNEL);
	if (!ts)
		return -ENOMEM;
	spin_lock_init(&ts->lock);
	err = sock_create_kern(&init_net, PF_INET, SOCK_DGRAM, IPPROTO_UDP,
			       &sock);
	if (err) {
		kfree(ts);
		return err;
	}
	svsk = svc_setup_socket(serv, sock, NULL);
	if (IS_ERR(svsk)) {
		kfree(ts);
		return PTR_ERR(svsk);
	}
	/* Born busy: no thread reads it before the precharge. */
	svsk->sk_torture = ts;
	ts->svsk = svsk;
	t->socks[t->nsocks++] = ts;
	svc_sock_precharge(svsk);
	return 0;
}

/* The synthetic listener: a real TCP socket listening on 127.0.0.1, port
 * chosen by the kernel, that no one connects to; its connections are
 * CONN events (svc_torture_accept()).
 */
static int svc_torture_add_listener(struct svc_serv *serv,
				    struct svc_torture *t)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	struct svc_torture_sock *ts;
	struct socket *sock;
	struct svc_sock *svsk;
	int err;

	ts = kzalloc(sizeof(*ts), GFP_KERNEL);
	if (!ts)
		return -ENOMEM;
	spin_lock_init(&ts->lock);
	err = sock_create_kern(&init_net, PF_INET, SOCK_STREAM, IPPROTO_TCP,
			       &sock);
	if (err) {
		kfree(ts);
		return err;
	}
	err = kernel_bind(sock, (struct sockaddr *)&sin, sizeof(sin));
	if (!err)
		err = kernel_listen(sock, 8);
	if (err) {
		sock_release(sock);
		kfree(ts);
		return err;
	}
	svsk = svc_setup_socket(serv, sock, NULL);
	if (IS_ERR(svsk)) {
		kfree(ts);
		return PTR_ERR(svsk);
	}
	svsk->sk_torture = ts;
	ts->svsk = svsk;
	t->listener = ts;
	svc_sock_precharge(svsk);
	return 0;
}

/* Events not yet handed over, and connections made for CONN events not
 * yet deleted and freed (each is a CLOSE event).
 */
static u64 svc_torture_pending(struct svc_torture *t)
{
	u64 n = 0;
	unsigned int i;

	for (i = 0; i < t->nsocks; i++)
		/* Acquire: a count read here is never behind its consumer's. */
		n += smp_load_acquire(&t->socks[i]->produced) -
		     READ_ONCE(t->socks[i]->consumed);
	/* Acquire: as above. */
	n += smp_load_acquire(&t->listener->produced) -
	     READ_ONCE(t->listener->consumed);
	return n + (svc_stat_sum(SVC_STAT_TCP_ACCEPTED) - t->accepted0) -
	       (svc_stat_sum(SVC_STAT_TCP_CLOSED) - t->closed0);
}

/* Wait for the threads to take every event; the events left.  A lost
 * wakeup makes no progress at all, so the wait ends when nothing was
 * taken for SVC_TORTURE_STALL_MS (a debug kernel on a busy host can take
 * seconds over a backlog it is still working through), or after
 * SVC_TORTURE_DRAIN_MS in all.
 */
static u64 svc_torture_drain(struct svc_torture *t)
{
	unsigned long end = jiffies + msecs_to_jiffies(SVC_TORTURE_DRAIN_MS);
	unsigned long stall = jiffies + msecs_to_jiffies(SVC_TORTURE_STALL_MS);
	u64 left = svc_torture_pending(t), now;

	while (left && time_before(jiffies, end) && time_before(jiffies, stall)) {
		msleep(20);
		now = svc_torture_pending(t);
		if (now < left)
			stall = jiffies + msecs_to_jiffies(SVC_TORTURE_STALL_MS);
		left = now;
	}
	return left;
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
		memset(per_cpu_ptr(&svc_torture_hist, cpu), 0,
		       sizeof(struct svc_torture_hist));
}

static void svc_torture_hist_sum(struct svc_torture_hist *h)
{
	int cpu, b;

	memset(h, 0, sizeof(*h));
	for_each_possible_cpu(cpu) {
		const struct svc_torture_hist *c = per_cpu_ptr(&svc_torture_hist, cpu);

		for (b = 0; b < SVC_TORTURE_BUCKETS; b++)
			h->bucket[b] += c->bucket[b];
		h->sum += c->sum;
		h->count += c->count;
		h->max = max(h->max, c->max);
	}
}

/* The build's counter s per hand-over, in thousandths. */
static u64 svc_torture_per_k(u64 before, u64 after, u64 handovers)
{
	return handovers ? div64_u64((after - before) * 1000, handovers) : 0;
}

/**
 * svc_torture_run() - Run the torture test and write the report
 * @serv: the service
 * @secs: how long to run, in seconds
 *
 * Run the torture test for @secs seconds on @serv and write the report.
 *
 * Context: Process context; the caller holds svc_threads_mutex, so the
 * thread pool and the service stay as they are.
 *
 * Return: 0, or an errno when the test could not be set up (a failed check
 * is in the report, not the return).
 */
int svc_torture_run(struct svc_serv *serv, unsigned int secs)
{
	static const enum svc_stat counted[] = {
		SVC_STAT_ENQUEUE_CALLS, SVC_STAT_THREADS_WOKEN,
		SVC_STAT_ENQUEUE_BUSY, SVC_STAT_SV_LOCK_ACQUIRED,
		SVC_STAT_SV_LOCK_CONTENDED, SVC_STAT_SK_LOCK_ACQUIRED,
		SVC_STAT_LWQ_LOCK_ACQUIRED, SVC_STAT_IDLE_LOCK_ACQUIRED,
		SVC_STAT_FLAG_RMW, SVC_STAT_WAKEUPS_IDLE,
	};
	u64 before[ARRAY_SIZE(counted)], per_k[ARRAY_SIZE(counted)];
	unsigned int nsocks = clamp(READ_ONCE(torture_sockets), 1U,
				    (unsigned int)SVC_TORTURE_MAX_SOCKS);
	unsigned int nprod = READ_ONCE(torture_producers);
	struct svc_torture_hist h;
	struct svc_torture *t;
	u64 handovers, lost, start_ns, run_ns, rate;
	unsigned int i;
	int err = 0;

	if (!nprod)
		nprod = num_online_cpus();
	nprod = min_t(unsigned int, nprod, SVC_TORTURE_MAX_PROD);
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	svc_torture_hist_reset();
	atomic64_set(&svc_torture_double_owner, 0);
	atomic64_set(&svc_torture_overrun, 0);
	for (i = 0; i < nsocks && !err; i++)
		err = svc_torture_add_socket(serv, t);
	if (!err)
		err = svc_torture_add_listener(serv, t);
	if (err)
		goto out;
	/* Let the precharges' reads finish before counting. */
	msleep(20);
	for (i = 0; i < ARRAY_SIZE(counted); i++)
		before[i] = svc_stat_sum(counted[i]);
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
		msleep_interruptible(secs * 1000);

	WRITE_ONCE(t->stopping, true);
	hrtimer_cancel(&t->timer);
	for (i = 0; i < t->nproducers; i++)
		kthread_stop(t->producers[i]);

	/* Drain; then a last batch of two on each socket (see the comment
	 * at the top), which finds every ring empty, and drain again.
	 */
	lost = svc_torture_drain(t);
	if (!lost) {
		for (i = 0; i < t->nsocks; i++)
			svc_torture_raise(t, t->socks[i], 2);
		svc_torture_raise(t, t->listener, 1);
		lost = svc_torture_drain(t);
	}
	run_ns = ktime_get_ns() - start_ns;

	svc_torture_hist_sum(&h);
	handovers = h.count;
	for (i = 0; i < ARRAY_SIZE(counted); i++)
		per_k[i] = svc_torture_per_k(before[i], svc_stat_sum(counted[i]),
					     handovers);
	rate = div64_u64(handovers * NSEC_PER_SEC,
			 max_t(u64, run_ns, 1) * num_online_cpus());

	{
		const char *result = err ? "error" :
			(lost || atomic64_read(&svc_torture_double_owner) ||
			 atomic64_read(&svc_torture_overrun)) ? "fail" : "ok";
		const struct { const char *name; u64 v; } f[] = {
			{ "seconds", secs },
			{ "cpus", num_online_cpus() },
			{ "threads", READ_ONCE(serv->sv_nrthreads) },
			{ "sockets", t->nsocks },
			{ "producers", t->nproducers },
			{ "batches", atomic64_read(&t->batches) },
			{ "full", atomic64_read(&t->full) },
			{ "handovers", handovers },
			{ "conns", svc_stat_sum(SVC_STAT_TCP_ACCEPTED) - t->accepted0 },
			{ "closes", svc_stat_sum(SVC_STAT_TCP_CLOSED) - t->closed0 },
			{ "lost", lost },
			{ "double_owner", atomic64_read(&svc_torture_double_owner) },
			{ "overrun", atomic64_read(&svc_torture_overrun) },
			{ "handovers_per_s_per_cpu", rate },
			{ "lat_mean_ns", h.count ? div64_u64(h.sum, h.count) : 0 },
			{ "lat_p50_ns", svc_torture_percentile(&h, 50) },
			{ "lat_p99_ns", svc_torture_percentile(&h, 99) },
			{ "lat_max_ns", h.max },
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
		size_t len;

		len = scnprintf(svc_torture_report, sizeof(svc_torture_report),
				"result=%s", result);
		for (i = 0; i < ARRAY_SIZE(f); i++)
			len += scnprintf(svc_torture_report + len,
					 sizeof(svc_torture_report) - len,
					 " %s=%llu", f[i].name, f[i].v);
	}
out:
	/* No callback can start once detached; the sockets stay listed. */
	for (i = 0; i < t->nsocks; i++)
		svc_sock_detach(t->socks[i]->svsk);
	if (t->listener)
		svc_sock_detach(t->listener->svsk);
	kfree(t);
	return err;
}

/**
 * svc_torture_report_get() - The last run's report, one line
 * @buf: the parameter's buffer (a page)
 *
 * Context: Process context: a read of the torture_report parameter, which
 * the module's parameter lock serialises with the write of torture that
 * runs the test and writes the report.
 *
 * Return: the length written to @buf.
 */
int svc_torture_report_get(char *buf)
{
	return sysfs_emit(buf, "%s\n", svc_torture_report);
}
