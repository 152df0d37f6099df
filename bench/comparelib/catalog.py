# SPDX-License-Identifier: GPL-2.0
"""What compare can measure: the servers and the workloads.

A workload is one kind of load (procedure, transport, sizes, pipeline
depth) at one or more connection counts; a cell is one workload at one
connection count against one server in one guest; a row is the cells of
one workload and connection count in one guest, across the servers.
"""

from . import builds as buildsmod

# the non-build servers, after the builds in every table
OTHERS = {
    "nfsd": "the kernel's nfsd (6.1 sunrpc), THREADS threads, NFSv3 NULL "
            "(program 100003) on 2049, NFSv4 disabled, rpcbind running",
    "ref": "rpcsvc-ref: libtirpc svc_run, user space, SINGLE-THREADED "
           "(THREADS does not apply)",
    "rr": "the reference: bench/rr-server, user space, one thread per "
          "connection, "
          "fixed-size request -> fixed-size reply, no RPC",
    "iperf": "iperf3 over loopback, one connection each way (--bidir), "
             "single-threaded iperf3 3.12: the bound for ECHO MB/s",
}
OTHER_ORDER = ["nfsd", "ref", "rr", "iperf"]

# in a workload's server list: every svcsock build, in lineage order
BUILDS = "*builds*"


def servers(builds, strategies=None):
    """Server name -> description, builds first, in table order."""
    strategies = strategies or {}
    out = {}
    for b in builds:
        out[b] = ("svcsock_%s: kernel module, threads=THREADS, strategy "
                  "svcsock-mod/xprt_%s.c" % (b, strategies.get(b, b)))
    out.update(OTHERS)
    return out


def server_order(builds):
    return list(builds) + OTHER_ORDER


# workload -> definition:
#   proto, proc, size (ECHO bytes), sleep_us (SLEEP), depth (calls in
#   flight per connection, rpcload --depth; 0: not given), conns, smp
#   ("all" guests or only the "first"), servers (BUILDS = every build),
#   reference (what the builds are measured against besides each other:
#   "rr" = rr-server at the same connections and sizes, ("rr", WL) = the
#   rr cell of workload WL, "ideal" = THREADS x 10^6 / sleep_us, None),
#   expect_ops (a low guess of the builds' calls/s at each connection
#   count under TCG, from docs/results.md: sets how long a run must be to
#   make its minimum number of calls), desc.
WORKLOADS = {
    "null-tcp": dict(proto="tcp", proc="null", size=0, sleep_us=0, depth=0,
                     conns=[1, 4, 16, 64], smp="all",
                     servers=[BUILDS, "nfsd", "ref", "rr"], reference="rr",
                     expect_ops={1: 600, 4: 1800, 16: 3500, 64: 3500},
                     desc="NULL over TCP"),
    "null-tcp-d1": dict(proto="tcp", proc="null", size=0, sleep_us=0, depth=1,
                        conns=[1], smp="first",
                        servers=[BUILDS, "nfsd", "ref"], reference=None,
                        expect_ops={1: 600},
                        desc="NULL over TCP, pipelined, depth 1"),
    "null-tcp-d8": dict(proto="tcp", proc="null", size=0, sleep_us=0, depth=8,
                        conns=[1, 16], smp="first",
                        servers=[BUILDS, "nfsd", "ref"], reference=None,
                        expect_ops={1: 1500, 16: 3500},
                        desc="NULL over TCP, pipelined, depth 8"),
    "null-tcp-d64": dict(proto="tcp", proc="null", size=0, sleep_us=0,
                         depth=64, conns=[1], smp="first",
                         servers=[BUILDS, "nfsd", "ref"], reference=None,
                         expect_ops={1: 1500},
                         desc="NULL over TCP, pipelined, depth 64"),
    "null-udp": dict(proto="udp", proc="null", size=0, sleep_us=0, depth=0,
                     conns=[16], smp="first",
                     servers=[BUILDS, "nfsd", "ref"], reference=None,
                     expect_ops={16: 4000}, desc="NULL over UDP"),
    "echo-4k": dict(proto="tcp", proc="echo", size=4096, sleep_us=0, depth=0,
                    conns=[16], smp="first", servers=[BUILDS, "ref", "rr"],
                    reference="rr", expect_ops={16: 2800},
                    desc="ECHO 4 KiB over TCP"),
    "echo-64k": dict(proto="tcp", proc="echo", size=65536, sleep_us=0,
                     depth=0, conns=[16], smp="first",
                     servers=[BUILDS, "ref", "rr"], reference="rr",
                     expect_ops={16: 290}, desc="ECHO 64 KiB over TCP"),
    "tcp-bw": dict(proto="tcp", proc="-", size=0, sleep_us=0, depth=0,
                   conns=[1], smp="first", servers=["iperf"], reference=None,
                   expect_ops={}, desc="iperf3 TCP bandwidth over loopback, --bidir"),
    "sleep-1ms": dict(proto="tcp", proc="sleep", size=0, sleep_us=1000,
                      depth=0, conns=[64], smp="first",
                      servers=[BUILDS, "ref"], reference="ideal",
                      expect_ops={64: 1000}, desc="SLEEP 1 ms over TCP"),
    "sleep-1ms-d64": dict(proto="tcp", proc="sleep", size=0, sleep_us=1000,
                          depth=64, conns=[1], smp="first",
                          servers=[BUILDS, "ref"], reference="ideal",
                          expect_ops={1: 800},
                          desc="SLEEP 1 ms over TCP, one connection, depth 64"),
    "threads-4-16-4": dict(proto="tcp", proc="null", size=0, sleep_us=0,
                           depth=0, conns=[64], smp="first",
                           servers=[BUILDS], reference=("rr", "null-tcp"),
                           expect_ops={64: 3500},
                           desc="NULL over TCP, module threads changed "
                                "T -> 16 -> T under load"),
}
WORKLOAD_ORDER = ["null-tcp", "null-tcp-d1", "null-tcp-d8", "null-tcp-d64",
                  "null-udp", "echo-4k", "echo-64k", "tcp-bw", "sleep-1ms",
                  "sleep-1ms-d64", "threads-4-16-4"]

# the rows that are kept when the plan must lose some, most important
# first: (workload, conns, guest) with guest "first" (the first SMP value)
# or "other"; rows not listed come last, in WORKLOAD_ORDER.
PRIORITY = [
    ("null-tcp", 1, "first"), ("null-tcp-d8", 1, "first"),
    ("null-tcp", 16, "first"), ("null-tcp", 1, "other"),
    ("sleep-1ms-d64", 1, "first"), ("null-tcp-d64", 1, "first"),
    ("null-tcp", 64, "first"), ("null-tcp", 16, "other"),
    ("null-tcp", 64, "other"),
    ("null-tcp-d1", 1, "first"), ("null-tcp-d8", 16, "first"),
    ("null-tcp", 4, "first"), ("null-tcp", 4, "other"),
    ("sleep-1ms", 64, "first"), ("echo-64k", 16, "first"),
    ("null-udp", 16, "first"), ("echo-4k", 16, "first"),
    ("threads-4-16-4", 64, "first"), ("tcp-bw", 1, "first"),
]

# QUICK: the builds and the reference, NULL over TCP at 1, 16, 64
# connections, and the pipelined cells when rpcload has --depth
QUICK_WORKLOADS = {"null-tcp": [1, 16, 64], "null-tcp-d8": [1],
                   "null-tcp-d64": [1], "sleep-1ms-d64": [1]}
QUICK_OTHERS = ["rr"]


def pipelined(wl):
    return WORKLOADS[wl]["depth"] > 0


def workload_servers(wl, builds):
    out = []
    for s in WORKLOADS[wl]["servers"]:
        out.extend(builds if s == BUILDS else [s])
    return out


def kind_of(server, wl):
    if server == "rr":
        return "rr"
    if server == "iperf":
        return "iperf"
    if wl == "threads-4-16-4":
        return "tchange"
    return "rpcload"


def describe(wl):
    """The workload as compare.json's `workloads` shows it."""
    if wl in NFS_WORKLOADS:
        return dict(NFS_WORKLOADS[wl], proto="nfs")
    d = WORKLOADS[wl]
    out = {k: v for k, v in d.items() if k not in ("servers", "expect_ops")}
    if isinstance(out.get("reference"), tuple):
        out["reference"] = "%s (%s)" % out["reference"]
    return out


def baseline(builds):
    return buildsmod.baseline(builds)


# Paired cells (rpcload slices, every server up at once; pairedcells.py):
# (workload, conns) in order of importance, for every guest; the first
# guest's come first.  Their servers: every build, each A/A twin that
# svcsock-mod/Kbuild makes (svcsock-twins: svcsock_<build>_aa; AA_OF's
# when the list cannot be had) and PAIRED_OTHERS.  QUICK: QUICK_PAIRED,
# the builds and the twins only.
PAIRED = [("null-tcp", 1), ("null-tcp", 16), ("null-tcp", 64)]
PAIRED_OTHERS = ["nfsd", "ref"]
QUICK_PAIRED = [("null-tcp", 16)]
AA_OF = "bitflag"


# Paired NFS cells (issue 26; bench/nfs-slices through the guest kernel's
# NFS client, every server mounted at once): workload -> definition:
#   workload (nfs-slices --workload), jobs (threads, one operation in
#   flight each), bs (read size), nconnect (the mount's connections),
#   opts (more mount options, "-" for none), desc.  Their servers: every
#   build (its module's synthetic export, default shape) and NFS_OTHERS
#   (nfsd exporting the same tree from a tmpfs), in the first guest only
#   (the CPU count the target is judged at).  No A/A twin: one block of
#   six servers is what fits; their margin is DELTA, and the RPC cells'
#   A/A arm gives the run's false-call rate.
NFS_WORKLOADS = {
    "nfs-seq": dict(workload="seq", jobs=16, bs=1048576, nconnect=4, opts="-",
                    desc="NFSv3 sequential 1 MiB O_DIRECT reads of whole "
                         "files, 16 in flight, nconnect=4"),
    "nfs-rand": dict(workload="rand", jobs=16, bs=4096, nconnect=4, opts="-",
                     desc="NFSv3 random 4 KiB O_DIRECT reads, 16 in flight, "
                          "nconnect=4"),
    "nfs-meta": dict(workload="meta", jobs=8, bs=0, nconnect=4,
                     opts="noac,lookupcache=none",
                     desc="stat() of random entries, 8 in flight, attribute "
                          "and lookup caches off: LOOKUP and GETATTR calls"),
}
NFS_ORDER = ["nfs-seq", "nfs-rand", "nfs-meta"]
NFS_OTHERS = ["nfsd"]


def twin_of(build):
    """The A/A twin's server name of a build."""
    return build + "_aa"


def original_of(twin):
    """The build an A/A twin is compiled from (Kbuild: the part of its
    name before the first _)."""
    return twin.split("_", 1)[0]


def design_block(n):
    """Rounds in one block of rpcload slices' Williams design for n
    targets (userland-client/design.c): n when n is even, else 2n."""
    return n if n % 2 == 0 else 2 * n
