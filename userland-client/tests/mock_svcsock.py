#!/usr/bin/env python3
"""mock_svcsock.py - a small Python model of the svcsock module's documented
behaviour, for checking `rpcload bad` on the host (no kernel module here).

It follows the expectations in rpcload's bad mode (record limits, drops,
closes, RFC 5531 replies, connection limit closing the least recently used
idle connection).  It is a test double, not a reference: the module is the
real thing.  Usage: mock_svcsock.py PORT [MAX_CONNS] [MAX_RECORD]
Prints "mock_svcsock: ready on PORT" when listening; stops on SIGTERM.
"""
import signal
import socket
import struct
import sys
import threading
import time

PROG, VERS = 0x20049001, 1
ECHO_MAX, SLEEP_MAX = 1048576, 1000000
LAST = 0x80000000

port = int(sys.argv[1])
max_conns = int(sys.argv[2]) if len(sys.argv) > 2 else 128
max_record = int(sys.argv[3]) if len(sys.argv) > 3 else 1052672

lock = threading.Lock()
conns = {}  # socket -> last activity (monotonic)


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
            out = process(bytes(rec))
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
        threading.Thread(target=serve_tcp, args=(s,), daemon=True).start()


def udp_loop(us):
    while True:
        data, addr = us.recvfrom(70000)
        if not data:
            continue
        out = process(data)
        if out is not None:
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
