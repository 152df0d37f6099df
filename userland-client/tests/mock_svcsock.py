#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""mock_svcsock.py - a small Python model of the svcsock module's documented
behaviour, for checking `rpcload bad` on the host (no kernel module here).

It follows the expectations in rpcload's bad mode (record limits, drops,
closes, RFC 5531 replies, connection limit closing the least recently used
idle connection).  It is a test double, not a reference: the module is the
real thing.  Usage: mock_svcsock.py PORT [MAX_CONNS] [MAX_RECORD] [OPTIONS]
Prints "mock_svcsock: ready on PORT" when listening; stops on SIGTERM.

Options for testing `rpcload load --depth` (pipelined calls):
  --batch-stats FILE  take every call that has arrived before answering
                      any (TCP: every whole record read, UDP: every
                      datagram queued), answer them in order, and keep in
                      FILE the most calls one batch held, per transport
                      ("tcp N" and "udp N" lines): more than 1 proves that
                      calls were in flight together
  --bad-xid N         every Nth reply carries another xid (xid ^ 2^31)
  --drop N            every Nth call gets no reply
  --late N            UDP: every Nth reply is sent 500 ms late
"""
import os
import signal
import socket
import struct
import sys
import threading
import time

PROG, VERS = 0x20049001, 1
ECHO_MAX, SLEEP_MAX = 1048576, 1000000
LAST = 0x80000000


def parse_args(argv):
    opts = {"--batch-stats": None, "--bad-xid": 0, "--drop": 0, "--late": 0}
    pos = []
    i = 0
    while i < len(argv):
        if argv[i] in opts:
            v = argv[i + 1]
            opts[argv[i]] = v if argv[i] == "--batch-stats" else int(v)
            i += 2
        else:
            pos.append(argv[i])
            i += 1
    return pos, opts


args, opts = parse_args(sys.argv[1:])
port = int(args[0])
max_conns = int(args[1]) if len(args) > 1 else 128
max_record = int(args[2]) if len(args) > 2 else 1052672
batch_stats = opts["--batch-stats"]

lock = threading.Lock()
conns = {}  # socket -> last activity (monotonic)
replies = 0  # calls answered or dropped, for --bad-xid/--drop/--late
max_batch = {"tcp": 0, "udp": 0}


class Drop(Exception):
    pass


def u32(b, off):
    if off + 4 > len(b):
        raise Drop()
    return struct.unpack_from(">I", b, off)[0], off + 4


def reply(xid, body):
    return struct.pack(">II", xid, 1) + body


def accepted(xid, stat, extra=b""):
    return reply(xid, struct.pack(">IIII", 0, 0, 0, stat) + extra)


def denied(xid, body):
    return reply(xid, struct.pack(">I", 1) + body)


def check_authsys(body):
    try:
        off = 4  # stamp
        n, off = u32(body, off)
        if n > 255:
            return False
        off += (n + 3) & ~3
        _, off = u32(body, off)  # uid
        _, off = u32(body, off)  # gid
        ng, off = u32(body, off)
        if ng > 16:
            return False
        off += 4 * ng
        return off <= len(body)
    except Drop:
        return False


def process(rec):
    """Returns reply bytes, or None to drop."""
    try:
        xid, off = u32(rec, 0)
        mtype, off = u32(rec, off)
        if mtype != 0:
            return None
        rpcvers, off = u32(rec, off)
        prog, off = u32(rec, off)
        vers, off = u32(rec, off)
        proc, off = u32(rec, off)
        if rpcvers != 2:
            return denied(xid, struct.pack(">III", 0, 2, 2))
        cfl, off = u32(rec, off)
        clen, off = u32(rec, off)
        if clen > 400:
            return denied(xid, struct.pack(">II", 1, 1))
        cbody = rec[off:off + clen]
        off += (clen + 3) & ~3
        if off > len(rec):
            raise Drop()
        vfl, off = u32(rec, off)
        vlen, off = u32(rec, off)
        if vlen > 400:
            return denied(xid, struct.pack(">II", 1, 3))
        off += (vlen + 3) & ~3
        if off > len(rec):
            raise Drop()
    except Drop:
        return None
    if cfl == 0:
        if clen != 0:
            return denied(xid, struct.pack(">II", 1, 1))
    elif cfl == 1:
        if not check_authsys(cbody):
            return denied(xid, struct.pack(">II", 1, 1))
    else:
        return denied(xid, struct.pack(">II", 1, 1))
    if vfl != 0 or vlen != 0:
        return denied(xid, struct.pack(">II", 1, 3))
    if prog != PROG:
        return accepted(xid, 1)
    if vers != VERS:
        return accepted(xid, 2, struct.pack(">II", 1, 1))
    args = rec[off:]
    if proc == 0:
        return accepted(xid, 0)
    if proc == 1:
        if len(args) < 4:
            return accepted(xid, 4)
        n = struct.unpack_from(">I", args, 0)[0]
        if n > ECHO_MAX or 4 + ((n + 3) & ~3) > len(args):
            return accepted(xid, 4)
        data = args[4:4 + n]
        return accepted(xid, 0, struct.pack(">I", n) + data + b"\0" * ((4 - n % 4) % 4))
    if proc == 2:
        if len(args) < 4:
            return accepted(xid, 4)
        us = struct.unpack_from(">I", args, 0)[0]
        if us > SLEEP_MAX:
            return accepted(xid, 4)
        time.sleep(us / 1e6)
        return accepted(xid, 0)
    return accepted(xid, 3)


def recv_exact(s, n):
    buf = bytearray()
    while len(buf) < n:
        chunk = s.recv(min(n - len(buf), 1 << 20))
        if not chunk:
            raise ConnectionError()
        buf += chunk
    return bytes(buf)


def touch(s):
    with lock:
        if s in conns:
            conns[s] = time.monotonic()


def serve_tcp(s):
    try:
        while True:
            rec = bytearray()
            while True:
                (w,) = struct.unpack(">I", recv_exact(s, 4))
                touch(s)
                flen = w & ~LAST
                if flen > max_record or len(rec) + flen > max_record:
                    return
                rec += recv_exact(s, flen)
                if w & LAST:
                    break
            touch(s)
            out, _ = shape(process(bytes(rec)))
            if out is not None:
                s.sendall(struct.pack(">I", LAST | len(out)) + out)
                touch(s)
    except (ConnectionError, OSError):
        pass
    finally:
        with lock:
            conns.pop(s, None)
        try:
            s.close()
        except OSError:
            pass


def shape(out):
    """What --bad-xid, --drop and --late make of a reply: (bytes or None,
    late)."""
    global replies
    if out is None:
        return None, False
    with lock:
        replies += 1
        n = replies
    if opts["--drop"] and n % opts["--drop"] == 0:
        return None, False
    if opts["--bad-xid"] and n % opts["--bad-xid"] == 0:
        out = struct.pack(">I", struct.unpack_from(">I", out)[0] ^ LAST) + out[4:]
    return out, bool(opts["--late"] and n % opts["--late"] == 0)


def note_batch(proto, n):
    with lock:
        if n <= max_batch[proto]:
            return
        max_batch[proto] = n
        with open(batch_stats + ".tmp", "w") as f:
            f.write("tcp %d\nudp %d\n" % (max_batch["tcp"], max_batch["udp"]))
        os.replace(batch_stats + ".tmp", batch_stats)


def whole_records(buf):
    """The whole records at the start of buf, and the bytes they took; None
    for a record longer than max_record."""
    recs, off = [], 0
    while True:
        rec, pos = bytearray(), off
        while True:
            if len(buf) - pos < 4:
                return recs, off
            (w,) = struct.unpack_from(">I", buf, pos)
            flen = w & ~LAST
            if len(rec) + flen > max_record:
                return None, off
            if len(buf) - pos - 4 < flen:
                return recs, off
            rec += buf[pos + 4:pos + 4 + flen]
            pos += 4 + flen
            if w & LAST:
                break
        recs.append(bytes(rec))
        off = pos


def serve_tcp_batched(s):
    """--batch-stats: every whole record read is answered before the next
    read, in order, in one write."""
    buf = bytearray()
    try:
        while True:
            data = s.recv(1 << 20)
            if not data:
                return
            buf += data
            recs, used = whole_records(buf)
            if recs is None:
                return
            del buf[:used]
            if not recs:
                continue
            note_batch("tcp", len(recs))
            out = bytearray()
            for rec in recs:
                rep, _ = shape(process(rec))
                if rep is not None:
                    out += struct.pack(">I", LAST | len(rep)) + rep
            s.sendall(out)
    except (ConnectionError, OSError):
        pass
    finally:
        with lock:
            conns.pop(s, None)
        s.close()


def accept_loop(ls):
    while True:
        s, _ = ls.accept()
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        with lock:
            conns[s] = time.monotonic()
            victims = []
            if len(conns) > max_conns:
                # The least recently used connections other than this one.
                others = sorted((t, id(c), c) for c, t in conns.items() if c is not s)
                victims = [c for _, _, c in others[:len(conns) - max_conns]]
                for c in victims:
                    conns.pop(c, None)
        for c in victims:
            try:
                c.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        serve = serve_tcp_batched if batch_stats else serve_tcp
        threading.Thread(target=serve, args=(s,), daemon=True).start()


def udp_loop(us):
    while True:
        batch = [us.recvfrom(70000)]
        if batch_stats:
            # Every datagram queued, before any is answered.
            try:
                while True:
                    batch.append(us.recvfrom(70000, socket.MSG_DONTWAIT))
            except BlockingIOError:
                pass
            note_batch("udp", len(batch))
        for data, addr in batch:
            if not data:
                continue
            out, late = shape(process(data))
            if out is None:
                continue
            if late:
                threading.Timer(0.5, us.sendto, (out, addr)).start()
            else:
                us.sendto(out, addr)


def main():
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", port))
    ls.listen(1024)
    us = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    us.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    us.bind(("127.0.0.1", port))
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
    threading.Thread(target=accept_loop, args=(ls,), daemon=True).start()
    threading.Thread(target=udp_loop, args=(us,), daemon=True).start()
    print("mock_svcsock: ready on %d" % port, flush=True)
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main()
