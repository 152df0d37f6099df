"""Guest I/O: boot a guest with vm-run, send it run-cells and the plan,
collect the BENCH-* lines it prints (or read them back from the console
logs of an earlier run), and what the host looked like meanwhile."""

import glob
import json
import os
import platform
import re
import shlex
import subprocess
import sys
import time

from .plan import plan_text, mmss


class Progress:
    """One status line on stderr: runs done, time spent, time left."""

    def __init__(self, total_runs, est_total):
        self.total = total_runs
        self.done = 0
        self.t0 = time.monotonic()
        self.est_total = est_total
        self.tty = sys.stderr.isatty()
        self.last_len = 0

    def show(self, text):
        el = time.monotonic() - self.t0
        if self.done > 0:
            eta = el / self.done * (self.total - self.done)
        else:
            eta = max(0.0, self.est_total - el)
        line = "[%3d/%d %s, ~%s left] %s" % (
            self.done, self.total, mmss(el), mmss(eta), text)
        if self.tty:
            sys.stderr.write("\r" + line + " " * max(0, self.last_len - len(line)))
            self.last_len = len(line)
        else:
            sys.stderr.write(line + "\n")
        sys.stderr.flush()

    def end(self):
        if self.tty and self.last_len:
            sys.stderr.write("\n")
            sys.stderr.flush()
        self.last_len = 0


def guest_command(runs, threads, script_text, client_cpu=""):
    """The sh script vm-run runs in the guest: run-cells and the plan."""
    plan = plan_text(runs)
    for tag in ("SVCSOCK_RUN_CELLS_EOF", "SVCSOCK_PLAN_EOF"):
        if tag in script_text or tag in plan:
            raise SystemExit("compare: here-document tag %s in the text" % tag)
    return ("cat >/tmp/run-cells <<'SVCSOCK_RUN_CELLS_EOF'\n" + script_text +
            ("" if script_text.endswith("\n") else "\n") +
            "SVCSOCK_RUN_CELLS_EOF\n"
            "cat >/tmp/bench-plan <<'SVCSOCK_PLAN_EOF'\n" + plan +
            "SVCSOCK_PLAN_EOF\n"
            "BENCH_THREADS=%d BENCH_CLIENT_CPU='%s' "
            "sh /tmp/run-cells /tmp/bench-plan\n" % (threads, client_cpu))


def parse_bench_line(line, sink):
    """Feed one console line to sink (a dict of lists); return the kind."""
    m = re.search(r"BENCH-(JSON|INFO|SERVER|PROGRESS|DONE|SYNTHETIC): ?(.*)$", line)
    if not m:
        return None
    kind, rest = m.group(1), m.group(2).rstrip("\r\n")
    if kind in ("JSON", "INFO", "SERVER"):
        try:
            obj = json.loads(rest)
        except ValueError as e:
            sink.setdefault("bad_lines", []).append(
                "%s: %s: %s" % (kind, e, rest[:200]))
            return "bad"
        sink.setdefault(kind.lower(), []).append(obj)
    elif kind == "DONE":
        sink["done"] = rest.strip()
    elif kind == "SYNTHETIC":
        # test data made up by bench/tests: never real figures
        sink["synthetic"] = rest.strip() or "yes"
    return kind


def run_guest(smp, runs, opts, script_text, progress, raw_dir, saved):
    """Boot one guest; return a dict with what it printed and how it ended.
    saved: the settings, written at the top of the console log so that
    --from-logs renders the run as it was planned."""
    cmd_text = guest_command(runs, opts.threads, script_text,
                             getattr(opts, "client_cpu", ""))
    per_run = sum(r["dur"] + r["warmup"] + 3 for r in runs)
    timeout = int(per_run * 2 + 300)
    log_path = os.path.join(raw_dir, "console-smp%d.log" % smp)
    err_path = os.path.join(raw_dir, "vm-run-smp%d.stderr" % smp)
    kern_path = os.path.join(raw_dir, "kernel-smp%d.log" % smp)
    argv = [opts.vm_run, "--verbose", "--console-log", kern_path] + \
        shlex.split(opts.vmrun_args) + [
        "--smp", str(smp), "--mem", str(opts.mem), "--timeout", str(timeout),
        "--", cmd_text]
    with open(os.path.join(raw_dir, "plan-smp%d.txt" % smp), "w") as f:
        f.write(plan_text(runs))
    sink = {"smp": smp, "argv": argv[:-1] + ["<guest command: %d bytes>" %
                                              len(cmd_text)],
            "timeout_s": timeout}
    t0 = time.monotonic()
    sink["loadavg_start"] = loadavg()
    sink["other_qemu_start"] = other_qemu()
    env = dict(os.environ)
    if opts.qemu_wrapper:
        env["QEMU"] = opts.qemu_wrapper
        env["QEMU_PIN_LOG"] = os.path.join(raw_dir, "pin-smp%d.txt" % smp)
    with open(log_path, "w") as log, open(err_path, "w") as errf:
        log.write("COMPARE-SETTINGS: %s\n" % json.dumps(saved))
        log.flush()
        try:
            p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=errf,
                                 stdin=subprocess.DEVNULL, text=True,
                                 errors="replace", bufsize=1, env=env)
        except OSError as e:
            raise SystemExit("compare: cannot run %s: %s" % (opts.vm_run, e))
        for line in p.stdout:
            log.write(line)
            kind = parse_bench_line(line, sink)
            if kind == "PROGRESS":
                progress.show("smp %d: %s" % (smp, line.split(":", 1)[1].strip()))
            elif kind == "JSON":
                progress.done += 1
            elif kind == "SERVER":
                ev = sink["server"][-1]
                if not ev.get("ok"):
                    progress.end()
                    sys.stderr.write("compare: smp %d: %s %s FAILED: %s\n" % (
                        smp, ev.get("server"), ev.get("event"), ev.get("msg")))
        status = p.wait()
        sink["status"] = status
        sink["wall_s"] = round(time.monotonic() - t0, 1)
        sink["loadavg_end"] = loadavg()
        sink["other_qemu_end"] = other_qemu()
        # so that --from-logs knows how the guest ended
        log.write("COMPARE-VM-RUN-STATUS: %d\n" % status)
        log.write("COMPARE-GUEST: %s\n" % json.dumps({
            k: sink.get(k) for k in ("smp", "status", "wall_s", "timeout_s",
                                     "argv", "loadavg_start", "loadavg_end",
                                     "other_qemu_start", "other_qemu_end")}))
    sink["qemu_cmdline"] = qemu_cmdline(err_path)
    sink["log"] = os.path.relpath(log_path, opts.results)
    progress.end()
    if status != 0:
        tail = ""
        try:
            with open(err_path) as f:
                tail = "".join(f.readlines()[-15:])
        except OSError:
            pass
        what = {120: "timed out", 121: "kernel panic", 122: "kernel warning",
                123: "no status"}.get(status, "exit status %d" % status)
        sys.stderr.write("compare: smp %d: vm-run: %s%s\n" % (
            smp, what, (":\n" + tail) if tail and status >= 120 else ""))
    return sink


def log_paths(paths):
    """--from-logs arguments -> console logs: a directory stands for its
    console-smp*.log (or its raw/ directory's)."""
    out = []
    for p in paths:
        if os.path.isdir(p):
            found = sorted(glob.glob(os.path.join(p, "console-smp*.log")))
            if not found:
                found = sorted(glob.glob(os.path.join(p, "raw", "console-smp*.log")))
            if not found:
                raise SystemExit("compare: no console-smp*.log in %s" % p)
            out.extend(found)
        else:
            out.append(p)
    return out


def load_logs(paths):
    """Re-read console logs of earlier runs (--from-logs)."""
    guests = []
    for path in log_paths(paths):
        sink = {"log": path, "status": None, "argv": None}
        with open(path, errors="replace") as f:
            for line in f:
                parse_bench_line(line, sink)
                m = re.match(r"COMPARE-VM-RUN-STATUS: (-?\d+)", line)
                if m:
                    sink["status"] = int(m.group(1))
                for tag, into in (("COMPARE-GUEST: ", None),
                                  ("COMPARE-SETTINGS: ", "settings")):
                    if not line.startswith(tag):
                        continue
                    try:
                        obj = json.loads(line[len(tag):])
                    except ValueError:
                        continue
                    if into:
                        sink[into] = obj
                    else:
                        sink.update(obj)
        info = (sink.get("info") or [{}])[0]
        sink["smp"] = info.get("nproc") or sink.get("smp")
        err = os.path.join(os.path.dirname(path), os.path.basename(path).replace(
            "console-", "vm-run-").replace(".log", ".stderr"))
        if err != path and os.path.exists(err):
            sink["qemu_cmdline"] = qemu_cmdline(err)
        guests.append(sink)
    return guests


def qemu_cmdline(err_path):
    """QEMU's command line, as vm-run --verbose prints it, temp paths cut."""
    try:
        with open(err_path, errors="replace") as f:
            for line in f:
                m = re.match(r"vm-run: (\S*qemu\S*) (.*)$", line.rstrip("\n"))
                if m:
                    q = m.group(1) + " " + m.group(2)
                    q = re.sub(r"\\(.)", r"\1", q)   # vm-run may print shell escapes
                    return re.sub(r"/tmp/vm-run\.[A-Za-z0-9]+/", "$TMP/", q)
    except OSError:
        pass
    return None


def qemu_summary(cmdline):
    """accel, smp, memory and cpu model out of QEMU's command line."""
    if not cmdline:
        return {}
    w = cmdline.split()
    out = {}
    for opt, key in (("-accel", "accel"), ("-smp", "smp"), ("-m", "mem_mib"),
                     ("-cpu", "cpu"), ("-machine", "machine")):
        if opt in w and w.index(opt) + 1 < len(w):
            out[key] = w[w.index(opt) + 1]
    return out


def qemu_desc(qemu_version, g, mem):
    q = qemu_summary(g.get("qemu_cmdline"))
    if q:
        return "%s; -accel %s -cpu %s -smp %s -m %s" % (
            qemu_version, q.get("accel", "?"), q.get("cpu", "?"),
            q.get("smp", "?"), q.get("mem_mib", "?"))
    return "%s; -smp %s -m %s (QEMU command line not recorded)" % (
        qemu_version, g.get("smp"), mem)


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return [float(x) for x in f.read().split()[:3]]
    except (OSError, ValueError):
        return None


def other_qemu():
    """The QEMU processes running now (as `pgrep -a qemu` shows them,
    shortened): taken before and after each guest, none of them ours."""
    out = []
    for pid in sorted(os.listdir("/proc"), key=lambda p: (len(p), p)):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/comm" % pid) as f:
                comm = f.read().strip()
            if not comm.startswith("qemu"):
                continue
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        words = [a.decode(errors="replace") for a in argv if a]
        smp = words[words.index("-smp") + 1] if "-smp" in words[:-1] else "?"
        out.append("%s %s -smp %s" % (pid, os.path.basename(words[0]) if words
                                      else comm, smp))
    return out


def host_info():
    # vm-run always runs QEMU with TCG; the guests' entries say what it ran
    info = {"nproc": os.cpu_count(), "kernel": platform.release(),
            "accel": "tcg"}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    info["cpu_model"] = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        v = subprocess.run(["qemu-system-x86_64", "--version"],
                           capture_output=True, text=True).stdout.splitlines()
        info["qemu_version"] = v[0] if v else None
    except OSError:
        info["qemu_version"] = None
    return info


def rpcload_has_depth(rpcload):
    """(True, "") when `rpcload load --help` lists --depth, else (False, why)."""
    try:
        p = subprocess.run([rpcload, "load", "--help"], capture_output=True,
                           text=True, timeout=20)
    except (OSError, subprocess.SubprocessError) as e:
        return False, "cannot run %s: %s" % (rpcload, e)
    if re.search(r"(^|\s)--depth\b", p.stdout + p.stderr):
        return True, ""
    return False, "%s load --help does not list it" % rpcload
