/* SPDX-License-Identifier: GPL-2.0 */
/*
 * svcsock: the svc_sock RPC server transport of 2002 on today's kernel
 * sockets.  Declarations shared by every locking build.
 *
 * A build is one xprt_<strategy>.c (the enqueue/receive/accept machinery
 * and its locking rules, which open that file) linked with the shared
 * server: svc_sock.c (the TCP and UDP transport classes: sockets, records,
 * replies), svc_rpc.c (ONC RPC), svc_server.c (threads, parameters,
 * init/exit) and svc_stats.c (counters).  Exactly one of SVCSOCK_LOCK and
 * SVCSOCK_BITFLAG says which struct svc_sock this translation unit sees;
 * Kbuild sets it.
 *
 * A production module's entry points are svc_module.c's; Kbuild links a
 * test module with its own instead (and may set SVCSOCK_DEBUG_OWNER, the
 * ownership hooks below).
 */
#ifndef SVCSOCK_H
#define SVCSOCK_H

#include <linux/types.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <linux/in.h>
#include <linux/percpu.h>
#include <linux/refcount.h>
#include <linux/workqueue.h>
#include <linux/llist.h>
#include <linux/log2.h>
#include <linux/timekeeping.h>
#include <linux/rcupdate.h>
#include <net/sock.h>

#if defined(SVCSOCK_LOCK) == defined(SVCSOCK_BITFLAG)
#error "exactly one of SVCSOCK_LOCK and SVCSOCK_BITFLAG must be defined"
#endif
#if defined(SVCSOCK_LWQ) && !defined(SVCSOCK_BITFLAG)
#error "SVCSOCK_LWQ needs SVCSOCK_BITFLAG's flags word"
#endif

struct svc_rqst;
struct svc_sock;

/* The program of protocol/svcsock.x, which rpcgen turns into C. */
#define SVCSOCK_PROG		0x20049001
#define SVCSOCK_VERS		1
#define SVCSOCK_PROC_NULL	0
#define SVCSOCK_PROC_ECHO	1
#define SVCSOCK_PROC_SLEEP	2
#define SVCSOCK_NPROC		3	/* procedures of version 1 */
#define SVCSOCK_ECHO_MAX	1048576
#define SVCSOCK_SLEEP_MAX	1000000

/* The lwq build's queue of ready sockets (svc_lwq.c): producers add to
 * "new" without a lock; consumers take "lock" and take from "ready",
 * refilling it from "new" when it is empty.
 */
struct svc_lwq {
	spinlock_t		lock;		/* consumers only */
	struct llist_node	*ready;		/* FIFO, under lock */
	struct llist_head	new;		/* LIFO, lockless */
};

/* One service: the sockets it listens and talks on and the threads that
 * serve them.  sv_lock protects the lists, sv_tmpcnt and every
 * svc_sock's list linkage and sk_culled; it nests inside the lock build's
 * sk_lock and is taken with bottom halves disabled because the socket
 * callbacks take it in softirq context.  The lwq build keeps its ready
 * sockets and idle threads elsewhere, under the rules that open
 * xprt_lwq.c.
 */
struct svc_serv {
	spinlock_t		sv_lock;	/* see above */
#ifdef SVCSOCK_LWQ
	struct svc_lwq		sv_ready;	/* sockets ready for a thread */
	struct llist_head	sv_idle;	/* idle threads, LIFO */
	spinlock_t		sv_idle_lock;	/* taking a thread off sv_idle */
#else
	struct list_head	sv_threads;	/* idle server threads */
	struct list_head	sv_sockets;	/* sockets ready for a thread, FIFO */
#endif
	struct list_head	sv_permsocks;	/* listener and UDP socket */
	struct list_head	sv_tempsocks;	/* accepted TCP sockets */
	unsigned int		sv_tmpcnt;	/* entries on sv_tempsocks; WRITE_ONCE */

	/* Thread pool: svc_threads_mutex in svc_server.c protects these. */
	struct svc_rqst		**sv_pool;
	unsigned int		sv_nrthreads;

	size_t			sv_max_record;	/* largest record accepted */
	/* The writable parameters the socket code obeys, stored here by
	 * svc_server.c as they change: READ_ONCE()/WRITE_ONCE().
	 */
	unsigned int		sv_max_conns;	/* accepted sockets kept */
	unsigned int		sv_idle_timeout; /* seconds; 0: never close */
	struct delayed_work	sv_age_work;	/* closes idle accepted sockets */
};

/**
 * struct svc_sock_ops - A transport class: what one kind of socket does
 * @xpo_name: the class's name
 * @xpo_recvfrom: take the thread's turn on the socket: close, accept or
 *	receive, then give the socket back (the build's svc_udp_recvfrom()
 *	or svc_tcp_recvfrom(), which hold the locking rules)
 * @xpo_read: read one call, or one bounded step towards it (svc_sock_read())
 * @xpo_accept: accept one connection (svc_sock_accept()); NULL but for a
 *	listener
 * @xpo_accepted: the class of the sockets @xpo_accept makes
 * @xpo_data_queued: does the socket hold data not yet read?
 * @xpo_has_wspace: is there room for another reply?
 * @xpo_sendto: send the reply: rqstp->rq_resbuf's bytes, then any kept
 *	elsewhere (svc_reply_kvecs())
 * @xpo_max_reply: the longest reply the class can send, in bytes (a UDP
 *	datagram's payload); 0: as long as the thread's reply buffer
 * @xpo_prepare: set the socket up before it is published (its buffers)
 * @xpo_attach: install the class's socket callbacks; the caller holds the
 *	write side of sk_callback_lock and restores the old ones on detach
 * @xpo_free: the class's part of freeing the svc_sock, before its socket
 *	is released (NULL: none)
 *
 * The hand-over code (xprt_<strategy>.c) and the shared socket code call
 * through a socket's class and never ask what a socket is, as
 * net/sunrpc's svc_xprt_ops keeps TCP, UDP and RDMA apart.  svc_sock.c
 * defines the classes of real sockets (svc_udp_ops, svc_tcp_listen_ops,
 * svc_tcp_ops); a test module may define classes of its own for
 * synthetic sockets, which the same code serves.  Every member
 * but @xpo_accept, @xpo_accepted, @xpo_max_reply and @xpo_free is set in
 * every class.
 */
struct svc_sock_ops {
	const char	*xpo_name;
	int		(*xpo_recvfrom)(struct svc_rqst *rqstp);
	int		(*xpo_read)(struct svc_rqst *rqstp);
	int		(*xpo_accept)(struct svc_sock *svsk,
				      struct socket **newsock);
	const struct svc_sock_ops *xpo_accepted;
	bool		(*xpo_data_queued)(struct svc_sock *svsk);
	bool		(*xpo_has_wspace)(struct svc_sock *svsk);
	int		(*xpo_sendto)(struct svc_rqst *rqstp);
	size_t		xpo_max_reply;
	void		(*xpo_prepare)(struct svc_sock *svsk);
	void		(*xpo_attach)(struct svc_sock *svsk);
	void		(*xpo_free)(struct svc_sock *svsk);
};

/* One socket.  Which fields the build's rules protect, and how, is the
 * subject of the comment that opens xprt_<strategy>.c.
 */
struct svc_sock {
#ifdef SVCSOCK_LWQ
	struct llist_node	sk_qnode;	/* on sv_ready; ->next == self: not */
#else
	struct list_head	sk_ready;	/* on sv_sockets */
#endif
	struct list_head	sk_list;	/* on sv_permsocks or sv_tempsocks */
	struct socket		*sk_sock;	/* berkeley socket layer */
	struct sock		*sk_sk;		/* INET layer */
	struct svc_serv		*sk_server;	/* service for this socket */
	/* Shared ownership (svc_sock_get()/svc_sock_put()): one reference
	 * for the service's lists, dropped by svc_delete_socket(), and one
	 * for every thread or function that uses the socket outside them.
	 * The last put frees it.
	 */
	refcount_t		sk_ref;
	bool			sk_culled;	/* asked to close, under sv_lock */
#ifdef SVCSOCK_LOCK
	spinlock_t		sk_lock;	/* protects the state below */
	unsigned char		sk_busy;	/* enqueued/receiving */
	unsigned char		sk_conn;	/* conn pending */
	unsigned char		sk_close;	/* dead or dying */
	int			sk_data;	/* data pending */
	unsigned int		sk_temp : 1,	/* temp socket */
				sk_qued : 1,	/* on serv->sv_sockets */
				sk_dead : 1;	/* socket closed */
#else
	/* The 2002 patch's sk_flags: renamed because <net/sock.h> has
	 * since made sk_flags a macro for struct sock's own flags.
	 */
	unsigned long		sk_svc_flags;
#define	SK_BUSY		0			/* enqueued/receiving */
#define	SK_CONN		1			/* conn pending */
#define	SK_CLOSE	2			/* dead or dying */
#define	SK_DATA		3			/* data pending */
#define	SK_TEMP		4			/* temp (TCP) socket */
#define	SK_QUED		5			/* on serv->sv_sockets */
#define	SK_DEAD		6			/* socket closed */
#endif
	const struct svc_sock_ops *sk_ops;	/* its class; never changes */
	void			*sk_class_data;	/* the class's own, or NULL */
	/* ktime_get_ns() when an enqueue took the busy flag: under it */
	u64			sk_qtime;

	/* The callbacks we replaced, restored by svc_sock_detach(). */
	void			(*sk_odata)(struct sock *sk);
	void			(*sk_ostate)(struct sock *sk);
	void			(*sk_owspace)(struct sock *sk);

	/* TCP record state (RFC 5531 section 11).  Only the thread that owns
	 * the socket's receive side, by the build's busy flag, touches these.
	 */
	__be32			sk_marker;	/* fragment header being read */
	u32			sk_reclen;	/* fragment header, host order */
	u32			sk_tcplen;	/* bytes of this fragment read, with header */
	u32			sk_nfrags;	/* fragments of this record read */
	size_t			sk_datalen;	/* bytes of the record in sk_rbuf */
	u8			*sk_rbuf;	/* the record being assembled */
	size_t			sk_rbuf_size;
	unsigned long		sk_lastrecv;	/* jiffies, READ_ONCE/WRITE_ONCE */

	/* The send side on TCP (svc_sock.c, "Replies on TCP").  A thread
	 * never waits for the peer here: what the socket does not take at
	 * once waits in sk_sendq for the send worker.  sk_sendmutex keeps
	 * replies whole and in order and is never held across a wait; it
	 * protects the fields below it, of which sk_sendq_bytes is also
	 * read without it (READ_ONCE).
	 */
	struct mutex		sk_sendmutex;
	struct list_head	sk_sendq;	/* unsent replies */
	size_t			sk_sendq_bytes;	/* their bytes */
	bool			sk_send_dead;	/* detached: queue nothing */
	bool			sk_send_watching; /* the worker watches */
	u32			sk_send_una;	/* snd_una, and jiffies, at */
	unsigned long		sk_send_since;	/* the watchdog period's start */
	struct delayed_work	sk_send_work;	/* svc_send_worker() */
};

/* One server thread and the request it is serving. */
struct svc_rqst {
#ifdef SVCSOCK_LWQ
	struct llist_node	rq_idle;	/* on sv_idle while idle */
#else
	struct list_head	rq_list;	/* on sv_threads while idle */
#endif
	struct rcu_head		rq_rcu;		/* freed after a grace period */
	struct svc_serv		*rq_server;
	struct svc_sock		*rq_sock;	/* socket being served */
	struct task_struct	*rq_task;
	struct sockaddr_storage	rq_addr;	/* UDP peer, IPv4 or IPv6 */
	int			rq_addrlen;	/* its length */
	u8			*rq_argbuf;	/* the call, sv_max_record bytes */
	size_t			rq_arglen;
	u8			*rq_resbuf;	/* the reply, rq_resmax bytes */
	size_t			rq_resmax;
	size_t			rq_reslen;
	const u8		*rq_resdata;	/* its last opaque's bytes, */
	size_t			rq_resdatalen;	/* kept elsewhere, or NULL */
};

/* --- svc_stats.c: per-CPU counters behind /proc/net/svcsock --- */
enum svc_stat {
	SVC_STAT_CALLS_NULL,
	SVC_STAT_CALLS_ECHO,
	SVC_STAT_CALLS_SLEEP,
	SVC_STAT_CALLS_NFS3,
	SVC_STAT_CALLS_MOUNT3,
	SVC_STAT_NFS3_READ_BYTES,
	SVC_STAT_NFS3_READ_CLAMPED,
	SVC_STAT_NFS3_READ_GENERATED,
	SVC_STAT_NFS3_CACHE_FILLS,
	SVC_STAT_NFS3_CACHE_FILLS_LOST,
	SVC_STAT_NFS3_ERR_BADHANDLE,
	SVC_STAT_NFS3_ERR_STALE,
	SVC_STAT_NFS3_ERR_NOENT,
	SVC_STAT_NFS3_ERR_NAMETOOLONG,
	SVC_STAT_NFS3_ERR_BAD_COOKIE,
	SVC_STAT_NFS3_ERR_ROFS,
	SVC_STAT_NFS3_ERR_OTHER,
	SVC_STAT_MOUNT3_ERR,
	SVC_STAT_REPLY_SUCCESS,
	SVC_STAT_REPLY_PROG_UNAVAIL,
	SVC_STAT_REPLY_PROG_MISMATCH,
	SVC_STAT_REPLY_PROC_UNAVAIL,
	SVC_STAT_REPLY_GARBAGE_ARGS,
	SVC_STAT_REPLY_SYSTEM_ERR,
	SVC_STAT_REPLY_RPC_MISMATCH,
	SVC_STAT_REPLY_AUTH_ERROR,
	SVC_STAT_TCP_ACCEPTED,
	SVC_STAT_TCP_CLOSED,
	SVC_STAT_TCP_REFUSED,
	SVC_STAT_RECORDS_TOO_LARGE,
	SVC_STAT_GARBAGE,
	SVC_STAT_REPLIES_DROPPED,
	SVC_STAT_UDP_DATAGRAMS,
	SVC_STAT_BYTES_IN,
	SVC_STAT_BYTES_OUT,
	SVC_STAT_BYTES_OUT_BY_REF,
	SVC_STAT_ENQUEUE_CALLS,
	SVC_STAT_THREADS_WOKEN,
	SVC_STAT_ENQUEUE_BUSY,
	SVC_STAT_SV_LOCK_ACQUIRED,
	SVC_STAT_SV_LOCK_CONTENDED,
	SVC_STAT_SK_LOCK_ACQUIRED,
	SVC_STAT_SK_LOCK_CONTENDED,
	SVC_STAT_SEND_ERRORS,
	SVC_STAT_LISTENER_IDLE,
	SVC_STAT_FRAGS_TOO_MANY,
	SVC_STAT_RECV_YIELD,
	SVC_STAT_WSPACE_WAIT,
	SVC_STAT_SLOW_READER_CLOSED,
	SVC_STAT_SEND_PARKED,
	SVC_STAT_IDLE_CLOSED,
	SVC_STAT_UDP_TRUNCATED,
	SVC_STAT_WAKEUPS_IDLE,
	SVC_STAT_FLAG_RMW,
	SVC_STAT_LWQ_LOCK_ACQUIRED,
	SVC_STAT_LWQ_LOCK_CONTENDED,
	SVC_STAT_IDLE_LOCK_ACQUIRED,
	SVC_STAT_IDLE_LOCK_CONTENDED,
	SVC_STAT_OWNER_WAITS,
	SVC_STAT_OWNER_WAIT_NS,
	SVC_STAT_ENQUEUE_NS,
	SVC_STAT_NR
};

/* The time from the enqueue that took a socket's busy flag to a thread
 * holding the socket, in buckets by powers of two: bucket K counts waits
 * of [2^K, 2^(K+1)) ns (bucket 0 also those under 1 ns).
 */
#define SVC_OWNER_WAIT_BUCKETS	40

struct svc_stats {
	u64	v[SVC_STAT_NR];
	u64	owner_wait[SVC_OWNER_WAIT_BUCKETS];
	u64	enqueue_time[SVC_OWNER_WAIT_BUCKETS];
};

/* Allocated at init (svc_stats_init()), not a static per-CPU variable:
 * a module's static per-CPU data comes out of a small reserved chunk
 * (PERCPU_MODULE_RESERVE, 8 KiB for every module together), which six
 * builds loaded side by side (make compare's paired cells) used up.
 */
extern struct svc_stats __percpu *svc_stats;

/**
 * svc_stat_add() - Add to a counter, on this CPU
 * @s: the counter
 * @n: how much
 *
 * Context: Any context.
 */
static inline void svc_stat_add(enum svc_stat s, u64 n)
{
	this_cpu_add(svc_stats->v[s], n);
}

/**
 * svc_stat_inc() - Count one, on this CPU
 * @s: the counter
 *
 * Context: Any context.
 */
static inline void svc_stat_inc(enum svc_stat s)
{
	this_cpu_inc(svc_stats->v[s]);
}

/* The locks whose acquisitions, and contended acquisitions, are counted:
 * each kind's pair of counters, acquired then contended, in enum svc_stat.
 */
enum svc_lock_kind {
	SVC_SV_LOCK = SVC_STAT_SV_LOCK_ACQUIRED,
	SVC_SK_LOCK = SVC_STAT_SK_LOCK_ACQUIRED,
	SVC_LWQ_LOCK = SVC_STAT_LWQ_LOCK_ACQUIRED,
	SVC_IDLE_LOCK = SVC_STAT_IDLE_LOCK_ACQUIRED,
};

/**
 * svc_lock_counted() - Count an acquisition of a lock
 * @kind: the lock's kind
 * @contended: whether it had to wait
 *
 * Context: Any context; the caller has just taken the lock.
 */
static inline void svc_lock_counted(enum svc_lock_kind kind, bool contended)
{
	svc_stat_inc((enum svc_stat)kind);
	if (contended)
		svc_stat_inc((enum svc_stat)(kind + 1));
}

/**
 * svc_spin_lock_bh() - spin_lock_bh(), counted
 * @lock: the lock
 * @kind: the lock's kind
 *
 * spin_lock_bh(), counting the acquisition and, by trying first, whether
 * it had to wait.
 *
 * Context: As spin_lock_bh().
 */
static inline void svc_spin_lock_bh(spinlock_t *lock, enum svc_lock_kind kind)
{
	bool contended = !spin_trylock_bh(lock);

	if (contended)
		spin_lock_bh(lock);
	svc_lock_counted(kind, contended);
}

/**
 * svc_spin_lock() - spin_lock(), counted
 * @lock: the lock
 * @kind: the lock's kind
 *
 * The same, for a caller that already runs with bottom halves disabled,
 * or for a lock that no softirq takes.
 *
 * Context: As spin_lock().
 */
static inline void svc_spin_lock(spinlock_t *lock, enum svc_lock_kind kind)
{
	bool contended = !spin_trylock(lock);

	if (contended)
		spin_lock(lock);
	svc_lock_counted(kind, contended);
}

/* The atomic read-modify-writes on a socket's flags, counted
 * (flag_rmw in /proc/net/svcsock): the bitops of the builds with a
 * flags word, named as the kernel names them with a svc_ prefix.  A
 * lock's own atomics are counted as its acquisitions instead, and
 * test_bit() is a plain load.
 */
#define svc_set_bit(nr, addr) \
	do { svc_stat_inc(SVC_STAT_FLAG_RMW); set_bit(nr, addr); } while (0)
#define svc_clear_bit(nr, addr) \
	do { svc_stat_inc(SVC_STAT_FLAG_RMW); clear_bit(nr, addr); } while (0)
#define svc_clear_bit_unlock(nr, addr) \
	do { svc_stat_inc(SVC_STAT_FLAG_RMW); clear_bit_unlock(nr, addr); } while (0)
#define svc_test_and_set_bit_lock(nr, addr) \
	({ svc_stat_inc(SVC_STAT_FLAG_RMW); test_and_set_bit_lock(nr, addr); })

/* --- The ownership hooks ---
 * The build's busy flag makes one owner of a socket's receive side, from
 * the moment it is taken (by an enqueue, which hands the socket to a
 * thread or queues it for one, or at birth) until it is given back.  The
 * two ends are marked: svc_sock_owner_begin() where the flag is taken
 * (svc_sock_owner_wait_start(), which every build's enqueue calls right
 * after taking it, and svc_setup_socket() for a socket born busy),
 * svc_sock_owner_end() in every build's received path just before it is
 * given back.  They compile to nothing unless SVCSOCK_DEBUG_OWNER is set,
 * which Kbuild does only for a test module; that module defines them, and
 * counts a second owner whenever the flag is taken twice, not only when
 * two reads happen to overlap.
 */
#ifdef SVCSOCK_DEBUG_OWNER
void svc_sock_owner_begin(struct svc_sock *svsk);
void svc_sock_owner_end(struct svc_sock *svsk);
#else
static inline void svc_sock_owner_begin(struct svc_sock *svsk) { }
static inline void svc_sock_owner_end(struct svc_sock *svsk) { }
#endif

/**
 * svc_sock_owner_wait_start() - The wait for an owner starts
 * @svsk: the socket
 *
 * An enqueue took the socket's busy flag: the wait for an owner starts,
 * and so does the ownership (the ownership hooks, above).
 *
 * Context: The caller holds the busy flag (or the lock build's sk_lock).
 */
static inline void svc_sock_owner_wait_start(struct svc_sock *svsk)
{
	svc_sock_owner_begin(svsk);
	svsk->sk_qtime = ktime_get_ns();
}

/**
 * svc_sock_owner_wait_end() - A thread now holds the socket
 * @svsk: the socket
 *
 * Count how long that took, since svc_sock_owner_wait_start().
 *
 * Context: Process context; the calling thread owns the socket.
 */
static inline void svc_sock_owner_wait_end(struct svc_sock *svsk)
{
	u64 ns = ktime_get_ns() - svsk->sk_qtime;
	unsigned int k = ns ? min_t(unsigned int, ilog2(ns),
				    SVC_OWNER_WAIT_BUCKETS - 1) : 0;

	this_cpu_inc(svc_stats->owner_wait[k]);
	svc_stat_inc(SVC_STAT_OWNER_WAITS);
	svc_stat_add(SVC_STAT_OWNER_WAIT_NS, ns);
}

/**
 * svc_enqueue_time_count() - Count the time one enqueue took
 * @ns: nanoseconds spent in the build's svc_build_enqueue()
 *
 * Bucket K of enqueue_time counts enqueues of [2^K, 2^(K+1)) ns, as the
 * owner-wait histogram does.
 *
 * Context: Any context.
 */
static inline void svc_enqueue_time_count(u64 ns)
{
	unsigned int k = ns ? min_t(unsigned int, ilog2(ns),
				    SVC_OWNER_WAIT_BUCKETS - 1) : 0;

	this_cpu_inc(svc_stats->enqueue_time[k]);
	svc_stat_add(SVC_STAT_ENQUEUE_NS, ns);
}

/* What svc_build_enqueue() did (the svcsock_enqueue tracepoint). */
enum svc_enq_outcome {
	SVC_ENQ_NOT_READY,	/* nothing to do, or no room to reply */
	SVC_ENQ_BUSY,		/* a thread owns it: that one will see */
	SVC_ENQ_WOKE,		/* handed to an idle thread */
	SVC_ENQ_QUEUED,		/* on sv_sockets for the next free thread */
};

/**
 * svc_sock_trace_flags() - The socket's state as one word, for tracing
 * @svsk: the socket
 *
 * SK_BUSY .. SK_DEAD in their bit positions, for the tracepoints only.
 *
 * Context: Any context; read without the build's lock, racing with its
 * updates by design (data_race() says so to KCSAN).
 *
 * Return: the word.
 */
static inline unsigned long svc_sock_trace_flags(const struct svc_sock *svsk)
{
#ifdef SVCSOCK_LOCK
	/* Racy by design: a trace of fields that sk_lock protects. */
	return data_race((svsk->sk_busy ? 1UL : 0) |
			 (svsk->sk_conn ? 2UL : 0) |
			 (svsk->sk_close ? 4UL : 0) |
			 (svsk->sk_data ? 8UL : 0) |
			 (svsk->sk_temp ? 16UL : 0) |
			 (svsk->sk_qued ? 32UL : 0) |
			 (svsk->sk_dead ? 64UL : 0));
#else
	return READ_ONCE(svsk->sk_svc_flags);
#endif
}

int svc_stats_init(struct svc_serv *serv);
void svc_stats_exit(void);
void svc_stats_free(void);
u64 svc_stat_sum(enum svc_stat s);

/* The objects the server allocates per socket and per thread, counted
 * while they live so that unloading finds a leak (svc_stats.c).
 */
void *svc_obj_alloc(size_t size, gfp_t gfp);
void *svc_obj_vmalloc(size_t size);
void svc_obj_free(const void *obj);
void svc_obj_forget(void);
int svc_obj_count(void);

/* --- svc_server.c --- */
int svcsock_recv(struct svc_rqst *rqstp);

/* --- svc_sock.c: the transport classes of real sockets --- */
extern const struct svc_sock_ops svc_udp_ops;
extern const struct svc_sock_ops svc_tcp_listen_ops;
extern const struct svc_sock_ops svc_tcp_ops;
void svc_sock_enqueue(struct svc_sock *svsk);
struct svc_sock *svc_setup_socket(struct svc_serv *serv, struct socket *sock,
				  struct svc_sock *listener);
struct svc_sock *svc_setup_perm_socket(struct svc_serv *serv,
				       struct socket *sock,
				       const struct svc_sock_ops *ops,
				       void *class_data);
void svc_sock_detach(struct svc_sock *svsk);
void svc_sock_put(struct svc_sock *svsk);
void svc_sock_send_resume(struct svc_sock *svsk);
int svc_sock_accept(struct svc_sock *svsk, struct socket **newsock);
bool svc_sock_always_wspace(struct svc_sock *svsk);
void svc_check_conn_limits(struct svc_serv *serv);
void svc_age_temp_sockets(struct work_struct *work);
void svc_sock_release(struct svc_rqst *rqstp);
int svc_create_sockets(struct svc_serv *serv, const struct sockaddr *addr,
		       int addrlen);
void svc_close_all(struct svc_serv *serv);

/**
 * svc_sock_read() - Read one call, or a step towards it, through the class
 * @rqstp: the thread; rqstp->rq_sock is the socket
 *
 * Context: Process context; the caller owns the socket's busy flag.
 *
 * Return: as the class's xpo_read: a call's length (in rqstp->rq_argbuf),
 * -EAGAIN when the socket ran dry first, -EINPROGRESS when it gave up its
 * turn with more to read (the caller gives the socket back as after a
 * call), or another negative errno when the connection must be closed.
 */
static inline int svc_sock_read(struct svc_rqst *rqstp)
{
	return rqstp->rq_sock->sk_ops->xpo_read(rqstp);
}

/**
 * svc_sock_data_queued() - Does the socket hold data that we have not read?
 * @svsk: the socket
 *
 * Context: Process context; the caller owns the socket's receive side and
 * has just read from it.
 *
 * Return: true when it does.
 */
static inline bool svc_sock_data_queued(struct svc_sock *svsk)
{
	return svsk->sk_ops->xpo_data_queued(svsk);
}

/**
 * svc_sock_has_wspace() - Is there room for another reply?
 * @svsk: the socket
 *
 * Context: Any context; lockless reads.
 *
 * Return: true when there is.
 */
static inline bool svc_sock_has_wspace(struct svc_sock *svsk)
{
	return svsk->sk_ops->xpo_has_wspace(svsk);
}

/**
 * svc_sock_is_listener() - Does the socket accept connections?
 * @svsk: the socket
 *
 * Context: Any context: a socket's class never changes.
 *
 * Return: true for a listener's class.
 */
static inline bool svc_sock_is_listener(const struct svc_sock *svsk)
{
	return svsk->sk_ops->xpo_accept;
}

/* The most kvecs a reply is sent from: svc_reply_kvecs(). */
#define SVC_REPLY_KVECS	3

/**
 * svc_reply_kvecs() - The reply as a socket is to send it
 * @rqstp: the thread, its reply built (svcsock_process())
 * @vec: filled in: the reply buffer's bytes, then the bytes of the last
 *	opaque when they are kept elsewhere (rqstp->rq_resdata) and their
 *	XDR padding
 * @total: set to the reply's length, the bytes of every kvec
 *
 * Return: how many kvecs, 1 to SVC_REPLY_KVECS.
 */
static inline int svc_reply_kvecs(const struct svc_rqst *rqstp,
				  struct kvec vec[SVC_REPLY_KVECS],
				  size_t *total)
{
	static const u8 zero_pad[3];
	size_t pad = round_up(rqstp->rq_resdatalen, 4) - rqstp->rq_resdatalen;
	int n = 1;

	vec[0].iov_base = rqstp->rq_resbuf;
	vec[0].iov_len = rqstp->rq_reslen;
	if (rqstp->rq_resdata) {
		vec[n].iov_base = (void *)rqstp->rq_resdata;
		vec[n++].iov_len = rqstp->rq_resdatalen;
	}
	if (pad) {
		vec[n].iov_base = (void *)zero_pad;
		vec[n++].iov_len = pad;
	}
	*total = rqstp->rq_reslen + rqstp->rq_resdatalen + pad;
	return n;
}

/**
 * svcsock_send() - Send the thread's reply, through the class
 * @rqstp: the thread; rqstp->rq_sock is the socket
 *
 * Context: Process context; the caller holds a reference to the socket.
 *
 * Return: 0 when the reply was sent or queued, or a negative errno when it
 * was not.
 */
static inline int svcsock_send(struct svc_rqst *rqstp)
{
	return rqstp->rq_sock->sk_ops->xpo_sendto(rqstp);
}

/**
 * svc_sock_get() - Take another reference to a socket
 * @svsk: the socket
 *
 * Context: Any context.  The caller holds one already, or sv_lock with the
 * socket on one of the service's lists, or (lwq) owns it.
 */
static inline void svc_sock_get(struct svc_sock *svsk)
{
	svc_stat_inc(SVC_STAT_FLAG_RMW);
	refcount_inc(&svsk->sk_ref);
}

/* --- svc_rpcbind.c --- */
void svc_rpcbind_register(u16 port);
void svc_rpcbind_unregister(void);

/* --- svc_rpc.c --- */
void svcsock_process(struct svc_rqst *rqstp);

/* --- svc_server.c: the service's life, for a module's init and exit --- */
int svcsock_start(struct svc_serv **servp);
void svcsock_stop(void);

/* --- xprt_<strategy>.c: what each locking build defines ---
 * The comment opening each file says what every function may assume.
 */
/* the build's state of a service and of a socket */
void svc_serv_state_init(struct svc_serv *serv);
void svc_sock_state_init(struct svc_sock *svsk, bool temp);

/* handing sockets to threads */
void svc_build_enqueue(struct svc_sock *svsk);
struct svc_sock *svc_sock_wait(struct svc_rqst *rqstp);
#ifndef SVCSOCK_LWQ
struct svc_sock *svc_sock_dequeue(struct svc_serv *serv);
#endif
void svc_sock_precharge(struct svc_sock *svsk);

/* a socket's life: closing, a reply's send, deletion */
void svc_sock_set_close(struct svc_sock *svsk);
bool svc_sock_is_closing(struct svc_sock *svsk);
bool svc_sock_is_temp(struct svc_sock *svsk);
void svc_sock_send_drained(struct svc_sock *svsk);
void svc_delete_socket(struct svc_sock *svsk);

/* the socket callbacks, in softirq context */
void svc_udp_data_ready(struct sock *sk);
void svc_tcp_listen_data_ready(struct sock *sk);
void svc_tcp_state_change(struct sock *sk);
void svc_tcp_data_ready(struct sock *sk);
void svc_tcp_write_space(struct sock *sk);

/* the receive, each transport's xpo_recvfrom */
int svc_udp_recvfrom(struct svc_rqst *rqstp);
int svc_tcp_recvfrom(struct svc_rqst *rqstp);

#endif /* SVCSOCK_H */
