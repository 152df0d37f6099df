# SPDX-License-Identifier: GPL-2.0
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


# rpcload slices' progress line, on the console as each slice ends (and
# "[slice 0/N]" before the first): the host samples its CPU time on each
SLICE_MARK = re.compile(r"\[slice (\d+)/(\d+)\]")


class HostSampler:
    """The host's side of a paired cell: on each slice mark, how much CPU
    the guest's QEMU took (its vCPU threads, and all its threads) and how
    much the whole host was busy, so that a slice's host CPU per call can
    be had from outside the guest, and a slice during which something
    else kept the host busy can be flagged (pairedcells)."""

    def __init__(self, root_pid):
        self.root = root_pid
        self.qemu = None
        self.tick_ns = 1e9 / (os.sysconf("SC_CLK_TCK") or 100)

    @staticmethod
    def _stat(pid):
        with open("/proc/%s/stat" % pid) as f:
            text = f.read()
        comm = text[text.index("(") + 1:text.rindex(")")]
        return comm, int(text[text.rindex(")") + 2:].split()[1])

    def _find_qemu(self):
        """QEMU is vm-run's descendant: the process named qemu* whose
        parent chain reaches root."""
        parent, comms = {}, {}
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                comms[int(pid)], parent[int(pid)] = self._stat(pid)
            except (OSError, ValueError):
                continue
        for pid, comm in comms.items():
            if not comm.startswith("qemu"):
                continue
            p, hops = pid, 0
            while p in parent and p > 1 and hops < 16:
                if p == self.root:
                    return pid
                p, hops = parent[p], hops + 1
        return None

    def sample(self):
        """{t, vcpu_ns, qemu_ns, busy_ns} now, or None when QEMU is not
        found (any more)."""
        if self.qemu is None:
            self.qemu = self._find_qemu()
            if self.qemu is None:
                return None
        vcpu = total = 0
        try:
            for tid in os.listdir("/proc/%d/task" % self.qemu):
                try:
                    with open("/proc/%d/task/%s/schedstat" % (self.qemu, tid)) as f:
                        ns = int(f.read().split()[0])
                    with open("/proc/%d/task/%s/comm" % (self.qemu, tid)) as f:
                        comm = f.read().strip()
                except (OSError, ValueError, IndexError):
                    continue
                total += ns
                if comm.startswith("CPU "):     # "CPU 0/TCG": a vCPU
                    vcpu += ns
            with open("/proc/stat") as f:
                w = f.readline().split()
            # user nice system idle iowait irq softirq steal
            busy = sum(int(w[i]) for i in (1, 2, 3, 6, 7, 8)) * self.tick_ns
        except (OSError, ValueError, IndexError):
            self.qemu = None
            return None
        return {"t": round(time.monotonic(), 4), "vcpu_ns": vcpu,
                "qemu_ns": total, "busy_ns": int(busy)}


def parse_bench_line(line, sink):
    """Feed one console line to sink (a dict of lists); return the kind."""
    m = re.search(r"BENCH-(JSON|INFO|SERVER|PROGRESS|DONE|SYNTHETIC|"
                  r"SLICES-BEGIN|SLICES): ?(.*)$", line)
    if not m:
        return None
    kind, rest = m.group(1), m.group(2).rstrip("\r\n")
    if kind == "SLICES-BEGIN":
        try:
            sink["slices_current"] = int(rest.strip())
        except ValueError:
            sink["slices_current"] = None
        return kind
    if kind in ("JSON", "INFO", "SERVER", "SLICES"):
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
        sampler = HostSampler(p.pid)
        for line in p.stdout:
            log.write(line)
            kind = parse_bench_line(line, sink)
            mark = SLICE_MARK.search(line) if sink.get("slices_current") else None
            if mark:
                smp_ = sampler.sample()
                if smp_:
                    smp_.update(id=sink["slices_current"], i=int(mark.group(1)))
                    sink.setdefault("slice_marks", []).append(smp_)
                    log.write("COMPARE-SLICE-MARK: %s\n" % json.dumps(smp_))
            if kind == "SLICES":
                sink["slices_current"] = None
                progress.done += 1
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
                123: "no status", 124: "guest clock ran fast"}.get(
                    status, "exit status %d" % status)
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
                if line.startswith("COMPARE-SLICE-MARK: "):
                    try:
                        sink.setdefault("slice_marks", []).append(
                            json.loads(line[len("COMPARE-SLICE-MARK: "):]))
                    except ValueError:
                        pass
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
