// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics: per-CPU counters, so that counting costs no shared cache
 * line on the paths being measured, summed when /proc/net/KBUILD_MODNAME
 * (/proc/net/svcsock_bitflag, ...) is read.  Each build's module has its
 * own file, so that several builds can serve side by side.  One "name
 * value" a line; a counter the build does not use (the sk_lock ones in
 * the bitflag build) reads 0.  flag_rmw counts the atomic
 * read-modify-writes on socket state outside the locks: the flags word's
 * bitops, the reference count, and the lwq build's llist exchanges.
 * owner_wait_log2_K is bucket K of the enqueue-to-owner histogram (see
 * SVC_OWNER_WAIT_BUCKETS); owner_waits and owner_wait_ns its count and
 * sum.  enqueue_ns_log2_K is bucket K of the time spent inside the
 * build's enqueue (svc_sock_enqueue()), enqueue_ns its sum; enqueue_calls
 * its count.
 *
 * Also here: the count of the objects the server allocates, for the leak
 * check at unload (svc_obj_alloc()).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <net/net_namespace.h>
#include "svcsock.h"

struct svc_stats __percpu *svc_stats;

static const char * const svc_stat_names[SVC_STAT_NR] = {
	[SVC_STAT_CALLS_NULL]		= "calls_null",
	[SVC_STAT_CALLS_ECHO]		= "calls_echo",
	[SVC_STAT_CALLS_SLEEP]		= "calls_sleep",
	[SVC_STAT_CALLS_NFS3]		= "calls_nfs3",
	[SVC_STAT_CALLS_MOUNT3]		= "calls_mount3",
	[SVC_STAT_NFS3_READ_BYTES]	= "nfs3_read_bytes",
	[SVC_STAT_NFS3_READ_CLAMPED]	= "nfs3_read_clamped",
	[SVC_STAT_NFS3_READ_GENERATED]	= "nfs3_read_generated",
	[SVC_STAT_NFS3_CACHE_FILLS]	= "nfs3_cache_fills",
	[SVC_STAT_NFS3_CACHE_FILLS_LOST] = "nfs3_cache_fills_lost",
	[SVC_STAT_NFS3_ERR_BADHANDLE]	= "nfs3_err_badhandle",
	[SVC_STAT_NFS3_ERR_STALE]	= "nfs3_err_stale",
	[SVC_STAT_NFS3_ERR_NOENT]	= "nfs3_err_noent",
	[SVC_STAT_NFS3_ERR_NAMETOOLONG]	= "nfs3_err_nametoolong",
	[SVC_STAT_NFS3_ERR_BAD_COOKIE]	= "nfs3_err_bad_cookie",
	[SVC_STAT_NFS3_ERR_ROFS]	= "nfs3_err_rofs",
	[SVC_STAT_NFS3_ERR_OTHER]	= "nfs3_err_other",
	[SVC_STAT_MOUNT3_ERR]		= "mount3_err",
	[SVC_STAT_REPLY_SUCCESS]	= "reply_success",
	[SVC_STAT_REPLY_PROG_UNAVAIL]	= "reply_prog_unavail",
	[SVC_STAT_REPLY_PROG_MISMATCH]	= "reply_prog_mismatch",
	[SVC_STAT_REPLY_PROC_UNAVAIL]	= "reply_proc_unavail",
	[SVC_STAT_REPLY_GARBAGE_ARGS]	= "reply_garbage_args",
	[SVC_STAT_REPLY_SYSTEM_ERR]	= "reply_system_err",
	[SVC_STAT_REPLY_RPC_MISMATCH]	= "reply_rpc_mismatch",
	[SVC_STAT_REPLY_AUTH_ERROR]	= "reply_auth_error",
	[SVC_STAT_TCP_ACCEPTED]		= "tcp_accepted",
	[SVC_STAT_TCP_CLOSED]		= "tcp_closed",
	[SVC_STAT_TCP_REFUSED]		= "tcp_refused",
	[SVC_STAT_RECORDS_TOO_LARGE]	= "records_too_large",
	[SVC_STAT_GARBAGE]		= "garbage",
	[SVC_STAT_REPLIES_DROPPED]	= "replies_dropped",
	[SVC_STAT_UDP_DATAGRAMS]	= "udp_datagrams",
	[SVC_STAT_BYTES_IN]		= "bytes_in",
	[SVC_STAT_BYTES_OUT]		= "bytes_out",
	[SVC_STAT_BYTES_OUT_BY_REF]	= "bytes_out_by_ref",
	[SVC_STAT_ENQUEUE_CALLS]	= "enqueue_calls",
	[SVC_STAT_THREADS_WOKEN]	= "threads_woken",
	[SVC_STAT_ENQUEUE_BUSY]		= "enqueue_busy",
	[SVC_STAT_SV_LOCK_ACQUIRED]	= "sv_lock_acquired",
	[SVC_STAT_SV_LOCK_CONTENDED]	= "sv_lock_contended",
	[SVC_STAT_SK_LOCK_ACQUIRED]	= "sk_lock_acquired",
	[SVC_STAT_SK_LOCK_CONTENDED]	= "sk_lock_contended",
	[SVC_STAT_SEND_ERRORS]		= "send_errors",
	[SVC_STAT_LISTENER_IDLE]	= "listener_idle",
	[SVC_STAT_FRAGS_TOO_MANY]	= "frags_too_many",
	[SVC_STAT_RECV_YIELD]		= "recv_yield",
	[SVC_STAT_WSPACE_WAIT]		= "wspace_wait",
	[SVC_STAT_SLOW_READER_CLOSED]	= "slow_reader_closed",
	[SVC_STAT_SEND_PARKED]		= "send_parked",
	[SVC_STAT_IDLE_CLOSED]		= "idle_closed",
	[SVC_STAT_UDP_TRUNCATED]	= "udp_truncated",
	[SVC_STAT_WAKEUPS_IDLE]		= "wakeups_idle",
	[SVC_STAT_FLAG_RMW]		= "flag_rmw",
	[SVC_STAT_LWQ_LOCK_ACQUIRED]	= "lwq_lock_acquired",
	[SVC_STAT_LWQ_LOCK_CONTENDED]	= "lwq_lock_contended",
	[SVC_STAT_IDLE_LOCK_ACQUIRED]	= "idle_lock_acquired",
	[SVC_STAT_IDLE_LOCK_CONTENDED]	= "idle_lock_contended",
	[SVC_STAT_OWNER_WAITS]		= "owner_waits",
	[SVC_STAT_OWNER_WAIT_NS]	= "owner_wait_ns",
	[SVC_STAT_ENQUEUE_NS]		= "enqueue_ns",
};

/* A per-CPU counter, summed: a snapshot, racy against updates, as a
 * reader is.  Each CPU adds to its own copy with a this_cpu op, one
 * instruction that KCSAN does not see, while this reads every CPU's:
 * READ_ONCE() makes each read one load, never torn or refetched, and
 * marks it as the concurrent access it is.  The plain read it replaces
 * was reported by KCSAN ("race at unknown origin", the value changed
 * under a read of /proc/net/svcsock_*) once in a clean-clone make check.
 */
static u64 svc_percpu_sum(u64 __percpu *counter)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(*per_cpu_ptr(counter, cpu));
	return sum;
}

/**
 * svc_stat_sum() - A counter, summed over the CPUs
 * @s: the counter
 *
 * Context: Any context; racy against updates, as a reader is.
 *
 * Return: the sum.
 */
u64 svc_stat_sum(enum svc_stat s)
{
	return svc_percpu_sum(&svc_stats->v[s]);
}

static int svc_stats_show(struct seq_file *m, void *v)
{
	struct svc_serv *serv = m->private;
	unsigned int sockets, k;
	int s;

	for (s = 0; s < SVC_STAT_NR; s++)
		seq_printf(m, "%s %llu\n", svc_stat_names[s], svc_stat_sum(s));
	for (k = 0; k < SVC_OWNER_WAIT_BUCKETS; k++)
		seq_printf(m, "owner_wait_log2_%u %llu\n", k,
			   svc_percpu_sum(&svc_stats->owner_wait[k]));
	for (k = 0; k < SVC_OWNER_WAIT_BUCKETS; k++)
		seq_printf(m, "enqueue_ns_log2_%u %llu\n", k,
			   svc_percpu_sum(&svc_stats->enqueue_time[k]));

	/* Not svc_spin_lock_bh(): reading the file is not server work. */
	spin_lock_bh(&serv->sv_lock);
	sockets = serv->sv_tmpcnt;
	spin_unlock_bh(&serv->sv_lock);
	seq_printf(m, "threads %u\n", READ_ONCE(serv->sv_nrthreads));
	seq_printf(m, "sockets %u\n", sockets);
	return 0;
}

/**
 * svc_stats_init() - Allocate the counters, create the service's file
 * @serv: the service
 *
 * The counters first: nothing may count before this returns 0, and
 * svc_stats_free() goes after everything that counts has stopped.
 *
 * Context: Process context (module init).
 *
 * Return: 0, or -ENOMEM (nothing then to free).
 */
int svc_stats_init(struct svc_serv *serv)
{
	svc_stats = alloc_percpu(struct svc_stats);
	if (!svc_stats)
		return -ENOMEM;
	if (!proc_create_single_data(KBUILD_MODNAME, 0444, init_net.proc_net,
				     svc_stats_show, serv)) {
		svc_stats_free();
		return -ENOMEM;
	}
	return 0;
}

/**
 * svc_stats_free() - Free the counters
 *
 * Context: Process context, module init's error path or exit, once every
 * thread, socket, callback and worker that counts is gone
 * (svc_shutdown() has returned) and the file is removed.
 */
void svc_stats_free(void)
{
	free_percpu(svc_stats);
	svc_stats = NULL;
}

/**
 * svc_stats_exit() - Remove the service's file from /proc/net
 *
 * Context: Process context (module init or exit); waits for the file's
 * readers.
 */
void svc_stats_exit(void)
{
	remove_proc_entry(KBUILD_MODNAME, init_net.proc_net);
}

/* The objects the server allocates per socket and per thread (svc_sock,
 * record buffers, requests and their buffers) are counted while they
 * live, so that unloading finds a leak of one exactly; otherwise it would
 * show only as unreclaimable memory drifting, which the RCU frees of the
 * rest of the kernel blur.  One atomic per allocation and per free: per
 * connection, per thread and per record buffer growth, never per call.
 * Unordered atomics suffice: the count is read only at unload, after
 * svc_shutdown() has stopped every thread (kthread_stop() orders their
 * frees before it returns).
 */
static atomic_t svc_objects = ATOMIC_INIT(0);

/**
 * svc_obj_alloc() - kvmalloc(), counted
 * @size: bytes to allocate
 * @gfp: allocation flags, as for kvmalloc()
 *
 * Context: Any context that kvmalloc() allows with @gfp.
 *
 * Return: the object, or NULL.
 */
void *svc_obj_alloc(size_t size, gfp_t gfp)
{
	void *obj = kvmalloc(size, gfp);

	if (obj)
		atomic_inc(&svc_objects);
	return obj;
}

/**
 * svc_obj_vmalloc() - vmalloc(), counted
 * @size: bytes to allocate
 *
 * Whole pages, each its own order-0 page even for a small @size, so that
 * they may be sent by reference (kernel_sendpage(), which refuses slab
 * pages).  Freed by svc_obj_free().
 *
 * Context: Process context; may sleep.
 *
 * Return: the memory, or NULL.
 */
void *svc_obj_vmalloc(size_t size)
{
	void *obj = vmalloc(size);

	if (obj)
		atomic_inc(&svc_objects);
	return obj;
}

/**
 * svc_obj_free() - kvfree() of what svc_obj_alloc() or svc_obj_vmalloc()
 * returned, or of NULL
 * @obj: the object, or NULL
 *
 * Context: Process context (kvfree() may vfree()).
 */
void svc_obj_free(const void *obj)
{
	if (obj) {
		atomic_dec(&svc_objects);
		kvfree(obj);
	}
}

/**
 * svc_obj_forget() - Count as freed an object that is freed another way
 *
 * Context: Any context.  The object came from svc_obj_alloc(), and the
 * caller frees it another way (after a grace period).
 */
void svc_obj_forget(void)
{
	atomic_dec(&svc_objects);
}

/**
 * svc_obj_count() - The objects allocated and not yet freed
 *
 * Context: Any context; exact once every thread has stopped.
 *
 * Return: their number.
 */
int svc_obj_count(void)
{
	return atomic_read(&svc_objects);
}
