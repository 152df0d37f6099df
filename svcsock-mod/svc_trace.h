/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of the svc_sock hand-over, one system per module so that
 * two builds can be loaded side by side (Kbuild sets SVCSOCK_TRACE_SYSTEM
 * to the module's name: events/svcsock_bitflag/...).  They show one
 * socket's path: a callback's enqueue (the flags it saw and what it did),
 * a thread taking the socket, the thread giving it back, accepts,
 * deletes, and each defence against a hostile peer as it fires.
 * docs/tracing.md shows how to follow one call through them.
 *
 * The flags are the build's state word, in the bit positions of SK_BUSY
 * .. SK_DEAD; the lock build composes it from its fields (svcsock.h,
 * svc_sock_trace_flags()).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM SVCSOCK_TRACE_SYSTEM

#if !defined(SVC_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define SVC_TRACE_H

#include <linux/tracepoint.h>
#include "svcsock.h"

TRACE_DEFINE_ENUM(SVC_ENQ_NOT_READY);
TRACE_DEFINE_ENUM(SVC_ENQ_BUSY);
TRACE_DEFINE_ENUM(SVC_ENQ_WOKE);
TRACE_DEFINE_ENUM(SVC_ENQ_QUEUED);
TRACE_DEFINE_ENUM(SVC_STAT_RECORDS_TOO_LARGE);
TRACE_DEFINE_ENUM(SVC_STAT_FRAGS_TOO_MANY);
TRACE_DEFINE_ENUM(SVC_STAT_RECV_YIELD);
TRACE_DEFINE_ENUM(SVC_STAT_SLOW_READER_CLOSED);
TRACE_DEFINE_ENUM(SVC_STAT_IDLE_CLOSED);

#define svc_trace_show_flags(f)					\
	__print_flags(f, "|",					\
		      { 1UL << 0, "BUSY" }, { 1UL << 1, "CONN" },	\
		      { 1UL << 2, "CLOSE" }, { 1UL << 3, "DATA" },	\
		      { 1UL << 4, "TEMP" }, { 1UL << 5, "QUED" },	\
		      { 1UL << 6, "DEAD" })

#define svc_trace_show_outcome(o)				\
	__print_symbolic(o,					\
			 { SVC_ENQ_NOT_READY, "not_ready" },	\
			 { SVC_ENQ_BUSY, "busy" },		\
			 { SVC_ENQ_WOKE, "woke" },		\
			 { SVC_ENQ_QUEUED, "queued" })

#define svc_trace_show_defence(d)					\
	__print_symbolic(d,						\
			 { SVC_STAT_RECORDS_TOO_LARGE, "record_too_large" },	\
			 { SVC_STAT_FRAGS_TOO_MANY, "frags_too_many" },	\
			 { SVC_STAT_RECV_YIELD, "recv_yield" },		\
			 { SVC_STAT_SLOW_READER_CLOSED, "slow_reader_closed" }, \
			 { SVC_STAT_IDLE_CLOSED, "idle_closed" })

/* svc_sock_enqueue(): what a callback or a give-back found and did. */
TRACE_EVENT(svcsock_enqueue,
	    TP_PROTO(const struct svc_sock *svsk, int outcome),
	    TP_ARGS(svsk, outcome),
	    TP_STRUCT__entry(__field(const void *, svsk)
			     __field(unsigned long, flags)
			     __field(int, outcome)),
	    TP_fast_assign(__entry->svsk = svsk;
			   __entry->flags = svc_sock_trace_flags(svsk);
			   __entry->outcome = outcome;),
	    TP_printk("svsk=%p flags=%s %s", __entry->svsk,
		      svc_trace_show_flags(__entry->flags),
		      svc_trace_show_outcome(__entry->outcome))
);

/* Events of one socket: its flags as the event happened. */
DECLARE_EVENT_CLASS(svcsock_sock_class,
		    TP_PROTO(const struct svc_sock *svsk),
		    TP_ARGS(svsk),
		    TP_STRUCT__entry(__field(const void *, svsk)
				     __field(unsigned long, flags)),
		    TP_fast_assign(__entry->svsk = svsk;
				   __entry->flags = svc_sock_trace_flags(svsk);),
		    TP_printk("svsk=%p flags=%s", __entry->svsk,
			      svc_trace_show_flags(__entry->flags))
);

/* A thread takes the socket: from sv_sockets, or handed it while idle. */
DEFINE_EVENT(svcsock_sock_class, svcsock_dequeue,
	     TP_PROTO(const struct svc_sock *svsk), TP_ARGS(svsk));
/* The owner gives the socket back (svc_sock_received()). */
DEFINE_EVENT(svcsock_sock_class, svcsock_received,
	     TP_PROTO(const struct svc_sock *svsk), TP_ARGS(svsk));
/* A connection accepted on the listener svsk. */
DEFINE_EVENT(svcsock_sock_class, svcsock_accept,
	     TP_PROTO(const struct svc_sock *svsk), TP_ARGS(svsk));
/* svc_delete_socket(). */
DEFINE_EVENT(svcsock_sock_class, svcsock_delete,
	     TP_PROTO(const struct svc_sock *svsk), TP_ARGS(svsk));

/* The lwq build's waker chain: a thread that took a socket, or gave up
 * waiting, woke the next idle thread (pid) because work remained.
 */
TRACE_EVENT(svcsock_wake_next,
	    TP_PROTO(pid_t pid),
	    TP_ARGS(pid),
	    TP_STRUCT__entry(__field(pid_t, pid)),
	    TP_fast_assign(__entry->pid = pid;),
	    TP_printk("pid=%d", __entry->pid)
);

/* A defence against a hostile or slow peer fired on svsk. */
TRACE_EVENT(svcsock_defence,
	    TP_PROTO(const struct svc_sock *svsk, enum svc_stat what),
	    TP_ARGS(svsk, what),
	    TP_STRUCT__entry(__field(const void *, svsk)
			     __field(int, what)),
	    TP_fast_assign(__entry->svsk = svsk;
			   __entry->what = what;),
	    TP_printk("svsk=%p %s", __entry->svsk,
		      svc_trace_show_defence(__entry->what))
);

#endif /* SVC_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE svc_trace
#include <trace/define_trace.h>
