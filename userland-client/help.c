/*
 * help.c - rpcload's help texts.
 */
#include "help.h"

#include <stddef.h>
#include <string.h>

static const char main_help[] =
"Usage: rpcload COMMAND [OPTIONS]\n"
"\n"
"Drives ONC RPC servers: the svcsock kernel module (program 0x20049001 =\n"
"537169921, version 1, port 20049), rpcsvc-ref (the same program served\n"
"by libtirpc in user space) and any program's NULL procedure (e.g. nfsd:\n"
"--prog 100003 --vers 3 --port 2049).\n"
"\n"
"Commands:\n"
"  null      one NULL call (procedure 0), any program/version\n"
"  echo      one ECHO call (procedure 1): sends bytes, checks they come back\n"
"  sleep     one SLEEP call (procedure 2): the server holds the call\n"
"  load      many verified calls over N connections; table or --json report\n"
"  bad       malformed input over raw sockets; TAP report (for the module)\n"
"\n"
"'rpcload COMMAND --help' explains each command's options.  Options follow\n"
"getopt_long's conventions: short flags bundle (-uJ), values attach or not\n"
"(-p20049, -p 20049, --port=20049, --port 20049), a long option may be\n"
"abbreviated while it is unambiguous (--dur 5), '--' ends the options.\n"
"Durations take a unit: 500ms, 5s (a bare number is seconds), 2m, 1h.\n"
"\n"
"Options (before or after the command):\n"
"  -h, --help      this text\n"
"  -V, --version   print the version and exit\n"
"\n"
"Exit status: 0 success; 1 a call failed, timed out or mismatched, or a\n"
"bad-mode case failed; 2 bad usage (unknown option or invalid value).\n"
"Nothing is looked up with rpcbind: the port is always given (--port).\n";

#define TARGET_HELP                                                           \
"  -c, --host HOST        server name or address, IPv4 or IPv6\n"             \
"                         (default 127.0.0.1)\n"                              \
"  -p, --port PORT        server port, 1..65535 (default 20049)\n"            \
"      --proto tcp|udp    transport (default tcp)\n"                          \
"  -u, --udp              same as --proto udp\n"                              \
"      --prog N           RPC program number, decimal or 0x hex\n"            \
"                         (default 537169921 = 0x20049001, svcsock)\n"        \
"      --vers N           RPC program version (default 1)\n"                  \
"      --timeout-ms MS    per-call timeout, 1..600000 (default 5000); over\n" \
"                         UDP the call is sent once, never retransmitted\n"   \
"  -J, --json             print a JSON document instead of the text output\n" \
"      --seed N           seed of the ECHO payload pattern (default 1)\n"     \
"  -h, --help             this text\n"                                       \
"  -V, --version          print the version and exit\n"

static const char null_help[] =
"Usage: rpcload null [OPTIONS]\n"
"\n"
"One NULL call (procedure 0) to any program and version, e.g.\n"
"  rpcload null --port 20049                       (svcsock)\n"
"  rpcload null --prog 100003 --vers 3 --port 2049  (nfsd)\n"
"Prints one line: 'null HOST:PORT/PROTO prog P vers V: ok in X us' on\n"
"stdout, or 'rpcload: ...: failed: REASON' on stderr (exit status 1).\n"
"\n"
"Options:\n"
TARGET_HELP
"\n"
"JSON: {\"tool\":\"rpcload\",\"version\":1,\"call\":{\"proc\",\"host\",\"port\",\"proto\",\n"
"\"prog\",\"vers\",\"size\",\"sleep_us\",\"ok\",\"outcome\" (ok|failed|timeout|mismatch),\n"
"\"error\" (null or text),\"latency_us\"}}.\n";

static const char echo_help[] =
"Usage: rpcload echo [OPTIONS]\n"
"\n"
"One ECHO call (procedure 1 of program 0x20049001): sends --size bytes of a\n"
"pattern derived from --seed and checks the reply byte for byte (a\n"
"difference is reported as 'mismatch', exit status 1).\n"
"\n"
"Options:\n"
TARGET_HELP
"  -l, --size BYTES       payload size, 0..1048576, k/M suffixes (1k = 1024)\n"
"                         (default 1024; at most 65460 with --proto udp, so\n"
"                         that the call fits one datagram)\n"
"\n"
"JSON: as for 'rpcload null --help'.\n";

static const char sleep_help[] =
"Usage: rpcload sleep [OPTIONS]\n"
"\n"
"One SLEEP call (procedure 2 of program 0x20049001): the server holds the\n"
"call for --sleep-us microseconds before it replies.\n"
"\n"
"Options:\n"
TARGET_HELP
"      --sleep-us US      microseconds, 0..1000000 (default 1000); must be\n"
"                         shorter than --timeout-ms\n"
"\n"
"JSON: as for 'rpcload null --help'.\n";

static const char load_help[] =
"Usage: rpcload load [OPTIONS]\n"
"\n"
"Opens --conns connections (one thread each, all connected before the\n"
"clock starts) and makes calls on each, back to back (or at --rate), until\n"
"--duration has passed or --calls calls were made (whichever comes first;\n"
"--duration 10 when neither is given), after --warmup if given.  With\n"
"--depth 1 (the default) a connection is a libtirpc client making one call\n"
"at a time; with --depth N it keeps N calls outstanding, written back to\n"
"back, their replies matched to them by xid.  Every reply is verified: RPC\n"
"status success and, for ECHO, the payload byte for byte against the\n"
"pattern derived from --seed and the call's number (calls are numbered 0,\n"
"1, 2, ... across all connections).\n"
"\n"
"Options:\n"
TARGET_HELP
"  -P, --conns N          connections (and threads), 1..4096 (default 1)\n"
"  -t, --duration D       how long: 5 or 5s, 0.5, 500ms, 2m, 1h; at most\n"
"                         86400 s (after --warmup)\n"
"  -n, --calls N          total number of calls, all connections together\n"
"                         (after --warmup)\n"
"  -R, --rate N           open loop: N calls per second in all, each\n"
"                         connection N/conns at fixed intervals, 1..10000000;\n"
"                         latency is measured from the time a call was due,\n"
"                         so waiting behind a slow reply counts (wrk2's\n"
"                         correction for coordinated omission); without it\n"
"                         each connection calls back to back (closed loop)\n"
"      --warmup D         make calls for D (e.g. 2s) before measuring; they\n"
"                         count only in warmup_calls/warmup_errors\n"
"      --depth N          calls outstanding on each connection, 1..1024\n"
"                         (default 1: one call at a time, libtirpc's\n"
"                         clnt_call).  N > 1: calls built with libtirpc's\n"
"                         XDR and sent without waiting for the replies, N at\n"
"                         most in flight (TCP: records written back to back;\n"
"                         UDP: N datagrams, none retransmitted); with --rate\n"
"                         a call that falls due while N are in flight goes\n"
"                         as soon as one is answered\n"
"      --proc P           null, echo or sleep (default null); only null is\n"
"                         allowed with another --prog (e.g. nfsd)\n"
"  -l, --size BYTES       ECHO payload, 0..1048576, k/M suffixes (default\n"
"                         1024; at most 65460 over UDP); only with --proc echo\n"
"      --sleep-us US      SLEEP argument, 0..1000000 (default 1000); only\n"
"                         with --proc sleep\n"
"      --progress         a progress line on stderr every second (the\n"
"                         default when stderr is a terminal)\n"
"      --no-progress      no progress line\n"
"\n"
"Counts: calls = ok + failures + timeouts + mismatches.  A timeout is a\n"
"call without a reply within --timeout-ms of its send; a TCP connection\n"
"that failed or timed out is closed and made again (a failed reconnect\n"
"counts as a failed call; a thread stops after 3 in a row), and with\n"
"--depth N the other calls outstanding on it count as timeouts, or as\n"
"failures when it failed.  A mismatch is an RPC success whose ECHO payload\n"
"differs, or (--depth N > 1) a reply whose xid matches no outstanding call:\n"
"the oldest outstanding call is written off for it, and its own reply, if\n"
"it comes, is dropped, as is a late UDP reply to a call that timed out.\n"
"Latencies are those of ok calls, each call's own, from its send to its\n"
"reply: around clnt_call with --depth 1; with --depth N from the moment\n"
"the call is queued on the socket, so the time it waits behind the calls\n"
"sent before it counts (with --rate: from the time the call was due; then\n"
"service_us/service_latency_us is the time from the send), kept in a\n"
"log-linear histogram (relative error < 0.8%).\n"
"\n"
"Rates: ops/s = ok calls / elapsed seconds.  MB/s = ECHO payload bytes of\n"
"ok calls, counted both ways (size sent + size received, without RPC/XDR\n"
"headers), / elapsed seconds / 10^6; 0 for null and sleep.  Elapsed runs\n"
"from the start of the first call to the end of the last one.\n"
"\n"
"Output: a table on stdout, or with --json one document:\n"
"{\"tool\":\"rpcload\",\"version\":1,\n"
" \"params\":{\"host\",\"port\",\"proto\",\"prog\",\"vers\",\"conns\",\"proc\",\"size\",\n"
"           \"sleep_us\",\"duration_s\",\"calls_limit\",\"seed\",\"timeout_ms\"},\n"
" \"result\":{\"calls\",\"ok\",\"failures\",\"timeouts\",\"mismatches\",\"elapsed_s\",\n"
"           \"ops_per_s\",\"mb_per_s\",\"latency_us\":{\"p50\",\"p90\",\"p99\",\"p999\",\n"
"           \"max\",\"mean\"},\"payload_bytes\",\"reconnects\",\"conns_gave_up\",\n"
"           \"interrupted\",\"first_error\"}}\n"
"(duration_s 0 = no time limit, calls_limit 0 = no call limit.)  With --rate,\n"
"params has \"rate\" and result \"service_latency_us\"; with --warmup, params\n"
"has \"warmup_s\" and result \"warmup_calls\", \"warmup_errors\"; with --depth\n"
"N > 1, params has \"depth\".  When the exit\n"
"status is not 0 the document has an \"error\" member saying why (result is\n"
"null when the run could not start); a usage error with --json prints\n"
"{\"tool\":\"rpcload\",\"version\":1,\"error\":...}.\n"
"\n"
"Exit status: 0 when every call was ok; 1 when any call failed, timed out or\n"
"mismatched, or none succeeded, or the run could not start; 2 bad usage.\n"
"SIGINT/SIGTERM stop the run early; the report is still printed.\n";

static const char bad_help[] =
"Usage: rpcload bad [OPTIONS]\n"
"\n"
"Sends malformed input over raw TCP and UDP sockets (hand-made XDR, not\n"
"libtirpc): bad fragment headers, fragment chains, truncated headers,\n"
"rpcvers 3, unknown program/version/procedure, bad credentials and\n"
"verifiers, garbage arguments, REPLY messages, random bytes, slow records,\n"
"connection floods, RSTs, odd UDP datagrams.  Each case checks the reply\n"
"RFC 5531 and the svcsock module prescribe (or that the record is dropped\n"
"and the connection still serves, or that it is closed).  A side thread\n"
"makes NULL calls on its own TCP connection all along; a case also fails\n"
"when a side call failed during it, or when the side connection made no\n"
"progress during it (counting up to --timeout-ms after a case too quick\n"
"for any side call to complete).\n"
"The expectations are the svcsock module's: libtirpc (rpcsvc-ref) differs\n"
"in places, so some cases fail against it.\n"
"\n"
"Output: TAP on stdout ('1..N', then 'ok N - case' or\n"
"'not ok N - case # reason'; '#' lines are diagnostics).\n"
"Exit status: 0 all cases passed; 1 a case failed or the server could not\n"
"be reached ('Bail out!'); 2 bad usage or an unknown case name.\n"
"Each case is bounded (a hard limit of 60 s aborts the run); the whole run\n"
"takes about 10 s against a conforming server.\n"
"\n"
"Options:\n"
"  -c, --host HOST        server name or address (default 127.0.0.1)\n"
"  -p, --port PORT        server port, TCP and UDP (default 20049)\n"
"      --timeout-ms MS    wait for an expected reply or close, 10..60000\n"
"                         (default 2000); 'no reply' is waited for 300 ms\n"
"      --max-conns N      the server's connection limit, 1..10000 (default\n"
"                         128): conn-flood opens N+32 idle connections\n"
"      --max-record N     the server's record size limit, bytes, k/M\n"
"                         suffixes (default 1052672 = 1 MiB + 4 KiB)\n"
"      --seed N           seed of xids, random bytes and payloads (default 1);\n"
"                         the same seed sends the same bytes\n"
"      --case NAME        run only this case (repeat, or NAME,NAME,...)\n"
"      --list             list the cases with what each expects, and exit\n"
"  -v, --verbose          diagnostics for every case, not only failed ones\n"
"  -h, --help             this text\n"
"  -V, --version          print the version and exit\n";

const char *help_text(const char *sub)
{
	static const struct {
		const char *sub;
		const char *text;
	} helps[] = {
		{ "null", null_help },	 { "echo", echo_help },
		{ "sleep", sleep_help }, { "load", load_help },
		{ "bad", bad_help },
	};

	if (!sub)
		return main_help;
	for (size_t i = 0; i < sizeof(helps) / sizeof(helps[0]); i++)
		if (strcmp(sub, helps[i].sub) == 0)
			return helps[i].text;
	return NULL;
}
