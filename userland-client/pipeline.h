/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pipeline.h - rpcload load --depth N, N > 1: connections with N calls
 * outstanding, the pipelined transport of libsvcrpc's load generator
 * (lg_ops ready/send/reap; ctx is a struct load_target).
 *
 * libtirpc's clnt_call waits for its reply, so the calls are built here,
 * still with libtirpc's XDR: xdr_callmsg and the rpcgen routines of
 * svcsock.x.  Over TCP each call is one record (one final fragment, RFC
 * 5531 record marking) queued and written back to back on a plain socket;
 * the replies are read in whatever pieces arrive, split into records
 * (recstream.h), decoded with xdr_replymsg and matched to their calls by
 * xid (xidwin.h).  Over UDP each call is one datagram, sent once.
 *
 * Every reply is verified as one call at a time verifies it (RPC accepted
 * and SUCCESS; an ECHO payload byte for byte against its call's pattern).
 * A reply whose xid matches no outstanding call counts as a mismatch: the
 * oldest outstanding call is written off for it (with a server that
 * answers in order, the call it was the reply to), and that call's own
 * reply, should it come, is dropped.  When the oldest call has had no
 * reply within --timeout-ms it is a timeout; over TCP the connection is
 * then closed and every call outstanding on it counts as a timeout, as
 * they do as failures when the connection fails (closed by the server,
 * an error, a reply that cannot be decoded).  Over UDP a late reply to a
 * call that timed out is dropped.
 */
#ifndef RPCLOAD_PIPELINE_H
#define RPCLOAD_PIPELINE_H

#include "loadgen.h"

extern const struct lg_ops pipeline_ops;

#endif
