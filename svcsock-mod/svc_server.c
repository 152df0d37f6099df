// SPDX-License-Identifier: GPL-2.0
/*
 * The server: module parameters, the pool of server threads and the
 * thread loop, module init and exit.  Shared by every locking build.
 *
 * A thread waits in the build's svc_sock_wait() until it holds a socket
 * (svc_wait.c, or xprt_lwq.c for the lwq build), receives at most one call
 * from it through its class's xpo_recvfrom (the build's receive: struct
 * svc_sock_ops, svcsock.h), processes and answers it, and
 * drops its use of the socket.  svc_threads_mutex serialises changes to the pool (module
 * init and exit, writes to the threads parameter) and protects
 * svc_the_serv; the pool is changed only under it, outside sv_lock.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/mm.h>
#include <linux/inet.h>
#include "svc_export.h"
#include "svcsock.h"
#define CREATE_TRACE_POINTS
#include "svc_trace.h"

#define SVC_MAX_THREADS		64
#define SVC_MIN_RECORD		1024
#define SVC_MAX_RECORD		(16 << 20)

static DEFINE_MUTEX(svc_threads_mutex);
static struct svc_serv *svc_the_serv;	/* while serving */

static ushort port = 20049;
module_param(port, ushort, 0444);
MODULE_PARM_DESC(port, "TCP and UDP port to serve on (default 20049)");

#define SVC_DEFAULT_BIND	"127.0.0.1,::1"
static char *bind = SVC_DEFAULT_BIND;
module_param(bind, charp, 0444);
MODULE_PARM_DESC(bind,
		 "Addresses to serve on, IPv4 or IPv6, comma-separated (at most 4; default 127.0.0.1,::1)");

/* A parameter that may be written while serving.  Its set() parses the
 * new value and checks it against min..max; then, under
 * svc_threads_mutex and only while serving, apply() puts it into the
 * service and may refuse it.  The value is stored only once applied, under
 * the same mutex, and svcsock_start() applies every such parameter under
 * it again as it publishes the service: no write is lost, whenever it
 * comes.
 */
struct svc_live_param {
	unsigned int val;
	unsigned int min;
	unsigned int max;
	int (*apply)(struct svc_serv *serv, unsigned int val);
};

static int svc_live_param_set(const char *val, const struct kernel_param *kp)
{
	struct svc_live_param *p = kp->arg;
	unsigned int n;
	int err;

	err = kstrtouint(val, 0, &n);
	if (err)
		return err;
	if (n < p->min || n > p->max)
		return -EINVAL;

	mutex_lock(&svc_threads_mutex);
	if (svc_the_serv)
		err = p->apply(svc_the_serv, n);
	if (!err)
		WRITE_ONCE(p->val, n);
	mutex_unlock(&svc_threads_mutex);
	return err;
}

static int svc_live_param_get(char *buf, const struct kernel_param *kp)
{
	const struct svc_live_param *p = kp->arg;

	return scnprintf(buf, PAGE_SIZE, "%u\n", READ_ONCE(p->val));
}

static const struct kernel_param_ops svc_live_param_ops = {
	.set = svc_live_param_set,
	.get = svc_live_param_get,
};

/* The socket code reads it from the service, at each accept. */
static int svc_apply_max_conns(struct svc_serv *serv, unsigned int n)
{
	WRITE_ONCE(serv->sv_max_conns, n);
	return 0;
}

static struct svc_live_param max_conns = {
	.val = 128, .min = 0, .max = UINT_MAX, .apply = svc_apply_max_conns,
};
module_param_cb(max_conns, &svc_live_param_ops, &max_conns, 0644);
MODULE_PARM_DESC(max_conns,
		 "accepted TCP connections kept; past it the longest idle is closed (default 128)");

static unsigned int max_record = SVCSOCK_ECHO_MAX + 4096;
module_param(max_record, uint, 0444);
MODULE_PARM_DESC(max_record,
		 "largest RPC record accepted, in bytes; a larger one closes the connection (default 1 MiB + 4 KiB)");

static bool rpcbind = true;

/* Writing rpcbind while serving registers (Y) or unregisters (N) now.
 * Built into the kernel, the server starts before any rpcbind runs, so
 * init registers it this way once rpcbind is up.
 */
static int svc_param_set_rpcbind(const char *val, const struct kernel_param *kp)
{
	bool on;
	int err;

	err = kstrtobool(val, &on);
	if (err)
		return err;
	mutex_lock(&svc_threads_mutex);
	*(bool *)kp->arg = on;
	if (svc_the_serv) {
		if (on)
			svc_rpcbind_register(port);
		else
			svc_rpcbind_unregister();
	}
	mutex_unlock(&svc_threads_mutex);
	return 0;
}

static const struct kernel_param_ops svc_rpcbind_ops = {
	.set = svc_param_set_rpcbind,
	.get = param_get_bool,
};
module_param_cb(rpcbind, &svc_rpcbind_ops, &rpcbind, 0644);
MODULE_PARM_DESC(rpcbind,
		 "register with the local rpcbind, if one runs (default yes); writing it registers or unregisters now");

/* A week: the largest idle_timeout, so that idle_timeout * HZ fits in
 * the half of the jiffies range that time_before() compares.
 */
#define SVC_MAX_IDLE_TIMEOUT	(7 * 24 * 3600)

/* A new idle_timeout takes effect at once: the ageing work runs now and
 * re-arms itself for the new period (or not at all, for 0).
 */
static int svc_apply_idle_timeout(struct svc_serv *serv, unsigned int n)
{
	WRITE_ONCE(serv->sv_idle_timeout, n);
	mod_delayed_work(system_wq, &serv->sv_age_work, 0);
	return 0;
}

static struct svc_live_param idle_timeout = {
	.val = 360, .min = 0, .max = SVC_MAX_IDLE_TIMEOUT,
	.apply = svc_apply_idle_timeout,
};
module_param_cb(idle_timeout, &svc_live_param_ops, &idle_timeout, 0644);
MODULE_PARM_DESC(idle_timeout,
		 "seconds an accepted TCP connection may send nothing before it is closed, at most a week; 0 never (default 360)");

/* Free a thread's request.  The lwq build's wakers look at an idle
 * thread under rcu_read_lock() only, so the request outlives a grace
 * period; its buffers are no waker's business.
 */
static void svcsock_rqst_free(struct svc_rqst *rqstp)
{
	svc_obj_free(rqstp->rq_argbuf);
	svc_obj_free(rqstp->rq_resbuf);
	svc_obj_forget();
	kvfree_rcu(rqstp, rq_rcu);
}

/* The build's name, for its threads' names: svc_bitflag/0, ..., so that
 * builds serving side by side can be told apart (TASK_COMM_LEN leaves 15
 * characters, too few for svcsock_bitflag/0).
 */
static const char *svc_build_name(void)
{
	const char *name = KBUILD_MODNAME;

	return strstarts(name, "svcsock_") ? name + strlen("svcsock_") : name;
}

/* The thread loop.  It may run on any CPU and sleeps only idle in
 * svcsock_recv(), in SLEEP, or on sk_sendmutex behind another thread's
 * non-blocking send.  A thread that finds work on every pass never
 * sleeps, so it offers the CPU once a pass (cond_resched(), as 6.7's
 * svc_thread_wait_for_work() does): on a kernel without full preemption
 * a flood of calls must not keep other tasks off its CPU.
 */
static int svc_thread(void *data)
{
	struct svc_rqst *rqstp = data;

	while (!kthread_should_stop()) {
		cond_resched();
		if (svcsock_recv(rqstp) <= 0)
			continue;
		svcsock_process(rqstp);
		svc_sock_release(rqstp);
	}
	return 0;
}

/**
 * svcsock_recv() - Wait for a socket that needs attention and receive from it
 * @rqstp: the thread
 *
 * Context: Process context, no locks held; sleeps.
 *
 * Return: the length of a call in rqstp->rq_argbuf, the thread holding a
 * use of rqstp->rq_sock; or 0 or a negative errno, holding nothing, when
 * there is no call to process (an accept, a close, a partial record, or
 * the thread being asked to stop).
 */
int svcsock_recv(struct svc_rqst *rqstp)
{
	struct svc_sock	*svsk;
	int		len;

	svsk = svc_sock_wait(rqstp);
	if (!svsk)
		return -EAGAIN;
	svc_sock_owner_wait_end(svsk);
	trace_svcsock_dequeue(svsk);
	len = svsk->sk_ops->xpo_recvfrom(rqstp);
	if (len <= 0)
		svc_sock_release(rqstp);
	return len;
}

static struct svc_rqst *svcsock_rqst_alloc(struct svc_serv *serv)
{
	struct svc_rqst *rqstp;

	rqstp = svc_obj_alloc(sizeof(*rqstp), GFP_KERNEL | __GFP_ZERO);
	if (!rqstp)
		return NULL;
	rqstp->rq_server = serv;
	rqstp->rq_argbuf = svc_obj_alloc(serv->sv_max_record, GFP_KERNEL);
	/* An ECHO reply is its call's payload and a 28-byte header. */
	rqstp->rq_resmax = serv->sv_max_record + 64;
	rqstp->rq_resbuf = svc_obj_alloc(rqstp->rq_resmax, GFP_KERNEL);
	if (!rqstp->rq_argbuf || !rqstp->rq_resbuf) {
		svcsock_rqst_free(rqstp);
		return NULL;
	}
	return rqstp;
}

/* Grow or shrink the pool to n threads.  A thread asked to stop finishes
 * the call it is serving, and serves the socket it was just handed, so no
 * call is lost.  Called under svc_threads_mutex.
 */
static int svcsock_set_num_threads(struct svc_serv *serv, unsigned int n)
{
	struct svc_rqst *rqstp;

	lockdep_assert_held(&svc_threads_mutex);

	while (serv->sv_nrthreads < n) {
		rqstp = svcsock_rqst_alloc(serv);
		if (!rqstp)
			return -ENOMEM;
		rqstp->rq_task = kthread_create(svc_thread, rqstp, "svc_%s/%u",
						svc_build_name(),
						serv->sv_nrthreads);
		if (IS_ERR(rqstp->rq_task)) {
			int err = PTR_ERR(rqstp->rq_task);

			svcsock_rqst_free(rqstp);
			return err;
		}
		serv->sv_pool[serv->sv_nrthreads] = rqstp;
		WRITE_ONCE(serv->sv_nrthreads, serv->sv_nrthreads + 1);
		wake_up_process(rqstp->rq_task);
	}

	while (serv->sv_nrthreads > n) {
		rqstp = serv->sv_pool[serv->sv_nrthreads - 1];
		kthread_stop(rqstp->rq_task);
		serv->sv_pool[serv->sv_nrthreads - 1] = NULL;
		WRITE_ONCE(serv->sv_nrthreads, serv->sv_nrthreads - 1);
		svcsock_rqst_free(rqstp);
	}
	return 0;
}

static struct svc_live_param threads = {
	.val = 4, .min = 1, .max = SVC_MAX_THREADS,
	.apply = svcsock_set_num_threads,
};
module_param_cb(threads, &svc_live_param_ops, &threads, 0644);
MODULE_PARM_DESC(threads,
		 "server threads, 1-64 (default 4); writable while serving");

static struct svc_live_param *const svc_live_params[] = {
	&threads, &max_conns, &idle_timeout,
};

/* Put every live parameter's value into the service.
 * Context: svc_threads_mutex held.
 */
static int svc_apply_live_params(struct svc_serv *serv)
{
	unsigned int i;
	int err;

	for (i = 0; i < ARRAY_SIZE(svc_live_params); i++) {
		err = svc_live_params[i]->apply(serv, svc_live_params[i]->val);
		if (err)
			return err;
	}
	return 0;
}

/* Stop serving: no new connection or datagram can queue work once the
 * permanent sockets are detached; then every thread finishes its call and
 * stops; then every socket is closed.  The permanent sockets are only
 * added by svc_create_sockets() and only deleted by svc_close_all(), so
 * the list is walked without sv_lock (which must not be held around
 * sk_callback_lock: the callbacks take them the other way round).
 */
static void svc_shutdown(struct svc_serv *serv)
{
	struct svc_sock *svsk;

	list_for_each_entry(svsk, &serv->sv_permsocks, sk_list)
		svc_sock_detach(svsk);
	/* It re-arms itself; this waits for a run and stops it for good. */
	cancel_delayed_work_sync(&serv->sv_age_work);
	mutex_lock(&svc_threads_mutex);
	svcsock_set_num_threads(serv, 0);
	mutex_unlock(&svc_threads_mutex);
	svc_close_all(serv);
}

/* Free a service that svcsock_start() got as far as counting for, once
 * no one can reach it: a stop, or a start that failed.  svc_shutdown()
 * frees every socket and thread and svc_export_exit() the cache, so a
 * count left is a leak: a kernel bug, which kmem_cache_destroy() would
 * report the same way.
 */
static void svc_destroy(struct svc_serv *serv)
{
	svc_stats_exit();
	svc_shutdown(serv);
	svc_stats_free();
	svc_export_exit();
	kfree(serv->sv_pool);
	kfree(serv);
	WARN(svc_obj_count(), pr_fmt("%d objects leaked\n"), svc_obj_count());
}

/**
 * svcsock_stop() - Stop serving and free the service
 *
 * Context: Process context: the module's exit, or its init failing after
 * svcsock_start() succeeded.  No thread of the service may be running
 * code of the caller's that uses the service.
 */
void svcsock_stop(void)
{
	struct svc_serv *serv;

	mutex_lock(&svc_threads_mutex);
	serv = svc_the_serv;
	svc_the_serv = NULL;
	mutex_unlock(&svc_threads_mutex);

	if (rpcbind)
		svc_rpcbind_unregister();
	svc_destroy(serv);
	pr_info("stopped\n");
}

#define SVC_MAX_BIND	4

/* The addresses of bind= with port: their count, or -EINVAL for a list
 * with an entry that is not a whole IPv4 or IPv6 address, or too many.
 */
static int svc_parse_bind(const char *list, u16 port,
			  struct sockaddr_storage *addrs, int *lens)
{
	const char *p = list, *end, *parsed;
	struct sockaddr_in6 *sin6;
	struct sockaddr_in *sin;
	int n = 0;

	do {
		end = strchrnul(p, ',');
		if (n == SVC_MAX_BIND)
			return -EINVAL;
		memset(&addrs[n], 0, sizeof(addrs[n]));
		sin = (struct sockaddr_in *)&addrs[n];
		sin6 = (struct sockaddr_in6 *)&addrs[n];
		if (in4_pton(p, end - p, (u8 *)&sin->sin_addr.s_addr, -1,
			     &parsed) && parsed == end) {
			sin->sin_family = AF_INET;
			sin->sin_port = htons(port);
			lens[n] = sizeof(*sin);
		} else if (in6_pton(p, end - p, sin6->sin6_addr.s6_addr, -1,
				    &parsed) && parsed == end) {
			sin6->sin6_family = AF_INET6;
			sin6->sin6_port = htons(port);
			lens[n] = sizeof(*sin6);
		} else {
			return -EINVAL;
		}
		n++;
		p = end + 1;
	} while (*end);
	return n;
}

/**
 * svcsock_start() - Create the service and start serving
 * @servp: where to put the service (for a test module), or NULL
 *
 * Reads the module's parameters, starts the threads, opens a TCP
 * listener and a UDP socket on each address of bind= and registers with
 * rpcbind when asked.
 *
 * Context: Process context, the module's init.
 *
 * Return: 0, or a negative errno with nothing left behind.
 */
int __init svcsock_start(struct svc_serv **servp)
{
	struct sockaddr_storage addrs[SVC_MAX_BIND];
	int lens[SVC_MAX_BIND];
	struct svc_serv *serv;
	int err, naddrs, i;

	naddrs = svc_parse_bind(bind, port, addrs, lens);
	if (naddrs < 0) {
		pr_err("bind=%s is not a list of at most %d IPv4 or IPv6 addresses\n",
		       bind, SVC_MAX_BIND);
		return -EINVAL;
	}
	if (max_record < SVC_MIN_RECORD || max_record > SVC_MAX_RECORD) {
		pr_err("max_record=%u is outside %u..%u\n", max_record,
		       SVC_MIN_RECORD, SVC_MAX_RECORD);
		return -EINVAL;
	}

	err = svc_export_init();
	if (err)
		return err;

	serv = kzalloc(sizeof(*serv), GFP_KERNEL);
	if (!serv)
		return -ENOMEM;
	spin_lock_init(&serv->sv_lock);
	svc_serv_state_init(serv);
	INIT_LIST_HEAD(&serv->sv_permsocks);
	INIT_LIST_HEAD(&serv->sv_tempsocks);
	INIT_DELAYED_WORK(&serv->sv_age_work, svc_age_temp_sockets);
	serv->sv_max_record = max_record;
	serv->sv_pool = kcalloc(SVC_MAX_THREADS, sizeof(*serv->sv_pool),
				GFP_KERNEL);
	if (!serv->sv_pool) {
		err = -ENOMEM;
		goto out_free;
	}

	err = svc_stats_init(serv);
	if (err)
		goto out_free;

	mutex_lock(&svc_threads_mutex);
	err = svc_apply_live_params(serv);
	mutex_unlock(&svc_threads_mutex);
	for (i = 0; !err && i < naddrs; i++) {
		err = svc_create_sockets(serv, (struct sockaddr *)&addrs[i],
					 lens[i]);
		/* A kernel without IPv6 (or booted ipv6.disable=1) serves
		 * the default's IPv4 loopback alone; an IPv6 address asked
		 * for by name still fails the load.
		 */
		if (err == -EAFNOSUPPORT && !strcmp(bind, SVC_DEFAULT_BIND)) {
			pr_info("no IPv6 in this kernel: serving IPv4 only\n");
			err = 0;
		}
	}
	if (err)
		goto out_shutdown;

	mutex_lock(&svc_threads_mutex);
	/* Again, as the service is published: a write since is not lost. */
	err = svc_apply_live_params(serv);
	if (!err)
		svc_the_serv = serv;
	mutex_unlock(&svc_threads_mutex);
	if (err)
		goto out_shutdown;

	if (rpcbind)
		svc_rpcbind_register(port);

	pr_info("serving program %#x, NFS 3 and MOUNT 3 on port %u of %s, tcp and udp, %u threads\n",
		SVCSOCK_PROG, port, bind, threads.val);
	if (servp)
		*servp = serv;
	return 0;

out_shutdown:
	svc_destroy(serv);
	return err;

out_free:
	svc_export_exit();
	kfree(serv->sv_pool);
	kfree(serv);
	return err;
}

MODULE_LICENSE("GPL");
MODULE_AUTHOR("svcsock developers");
MODULE_DESCRIPTION("svc_sock RPC server transport, " KBUILD_MODNAME " build");
