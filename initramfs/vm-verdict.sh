# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# vm-verdict.sh: vm-run's verdict on a guest's kernel console log.  Sourced
# by vm-run, which calls verdict once QEMU has ended.
#
# verdict LOG: judges LOG, the guest's kernel console (the live console,
# the dmesg dump between SVCSOCK-VM-DMESG-BEGIN and -END, and the line
# SVCSOCK-VM-EXIT: STATUS taint=N), and how the guest ended; says on
# stderr why when it is not CMD's status (the first kernel report, with
# what follows it, every report line, the console's last lines, where a
# guest that hung was), and returns vm-run's exit status: 120 timeout,
# 121 kernel panic, 123 no status, 122 kernel badness, else CMD's
# status, in that order of precedence (vm-run --help).
#
# It reads vm-run's variables: prog, tmp (the run's scratch directory:
# killed, where, qemu.err are read there, scanned, dump, kcsan-ignored
# written), conlog, kcsan_scope, timeout, boot_timeout, attempt (boot
# hangs), qrc (QEMU's status), elapsed and verbose.
# shellcheck disable=SC2154 # (vm-run's variables, listed above)

# kcsan_cut LOG: LOG without the KCSAN reports outside --kcsan-scope, into
# $tmp/scanned; their titles, once each, on stderr.
# A report runs from its "BUG: KCSAN:" line to the "====" line that follows
# "Reported by Kernel Concurrency Sanitizer"; one that never ends is kept.
# It is in scope when the top frame of either racing access (the first
# frame after its "read/write ... to 0x... by" line) matches the scope, or,
# where the console dropped the frames, when its title names an svc_
# function ("data-race in A / B").  Frames further down, and the locks held
# by a task an interrupt hit, do not count.
kcsan_cut() {
	awk -v scope="$kcsan_scope" -v ignored="$tmp/kcsan-ignored" '
	function flush(keep) {
		if (keep) printf "%s", block
		else print title >> ignored
		block = ""; inblock = 0; reported = 0; inscope = 0; top = 0
	}
	/BUG: KCSAN:/ {
		if (inblock) flush(1)
		inblock = 1; title = $0
		if (title ~ scope || title ~ /data-race in (svc_|[^ ]* \/ svc_)/)
			inscope = 1
	}
	inblock && /SVCSOCK-VM-/ { flush(inscope) }	# cut short by the dump
	inblock {
		block = block $0 "\n"
		if ($0 ~ /(read|write).* to 0x[0-9a-f]+ of [0-9]+ bytes by /) top = 1
		else if (top && $0 ~ /\+0x[0-9a-f]+\/0x[0-9a-f]+/) {
			if ($0 ~ scope) inscope = 1
			top = 0
		}
		if (/Reported by Kernel Concurrency Sanitizer/) reported = 1
		else if (reported && /=====/) flush(inscope)
		next
	}
	{ print }
	END { if (inblock) flush(1) }' "$1" >"$tmp/scanned"
	if [ -s "$tmp/kcsan-ignored" ]; then
		echo "$prog: KCSAN reports outside --kcsan-scope (not counted):" >&2
		sed 's/^\[ *[0-9.]*\] //' "$tmp/kcsan-ignored" | awk '!seen[$0]++' |
			head -n 20 | sed "s/^/$prog: - /" >&2
	fi
}

# Kernel reports; the guest's own markers never match these.
bad_re='WARNING:|BUG:|Oops|kernel BUG at|general protection fault|Call Trace:'
bad_re="$bad_re|possible circular locking|inconsistent lock state|possible recursive locking"
bad_re="$bad_re|INFO: .*lock|INFO: task .* blocked for more than|detected stalls? on CPU|self-detected stall"
bad_re="$bad_re|sleeping function called from invalid context|UBSAN:|Unable to handle kernel"
bad_re="$bad_re|Kernel panic - not syncing|KASAN|KCSAN: "

# report LINE: LINE, then the first kernel report, with what follows it,
# on stderr (verdict's log and bad)
report() {
	echo "$prog: $1" >&2
	[ -n "$bad" ] || return 0
	# prefer the dmesg dump (complete) over the live console
	local src=$log
	sed -n '/SVCSOCK-VM-DMESG-BEGIN/,/SVCSOCK-VM-DMESG-END/p' "$log" >"$tmp/dump"
	[ -s "$tmp/dump" ] && src=$tmp/dump
	grep -av 'SVCSOCK-VM-' "$src" | grep -aE -B 3 -A 40 -m 1 "$bad_re" | sed "s/^/$prog: | /" >&2
	[ "$(printf '%s\n' "$bad" | wc -l)" -le 1 ] || {
		echo "$prog: all report lines:" >&2
		printf '%s\n' "$bad" | head -n 50 | sed "s/^/$prog: * /" >&2
	}
	[ -n "$conlog" ] && echo "$prog: full console log in $conlog" >&2
	return 0
}

# last_lines N: the console's last N lines on stderr, when it has any
last_lines() {
	[ -s "$log" ] || return 0
	echo "$prog: last console lines:" >&2
	tail -n "$1" "$log" | sed "s/^/$prog: | /" >&2
}

# hung_at: after a timeout, where the vCPUs were (vm-diagnose's line, which
# vm-run's watchdog left in $tmp/where) and the console's last lines
hung_at() {
	[ -s "$tmp/where" ] && echo "$prog: at the kill: $(cat "$tmp/where")" >&2
	last_lines 10
	return 0
}

verdict() {
	local log=$1 bad exitline killed status taint letters flags badtaint i why
	if [ -n "$kcsan_scope" ] && grep -aq 'BUG: KCSAN:' "$log"; then
		kcsan_cut "$log"
		log=$tmp/scanned
	fi
	bad=$(grep -aE "$bad_re" "$log" | grep -av 'SVCSOCK-VM-' |
		sed 's/^\[ *[0-9.]*\] //' | awk '!seen[$0]++')

	exitline=$(grep -a 'SVCSOCK-VM-EXIT: ' "$log" | tail -n 1)
	killed=$(cat "$tmp/killed" 2>/dev/null)
	if [ "$killed" = timeout ]; then
		if grep -q 'SVCSOCK-VM-START' "$log"; then
			report "timeout: the guest did not finish in ${timeout}s; QEMU killed"
		else
			report "timeout: the guest did not start CMD in ${timeout}s; QEMU killed"
		fi
		hung_at
		return 120
	fi
	if [ "$killed" = boot ]; then
		report "timeout: the guest hung in boot on each of its $attempt tries (no CMD within ${boot_timeout}s); QEMU killed"
		hung_at
		return 120
	fi
	if [ "$killed" = clock ]; then
		report "clock: the guest's clock ran fast on each of its $attempt tries (its uptime past the time since QEMU started); QEMU killed"
		return 124
	fi
	if grep -aq 'Kernel panic - not syncing' "$log"; then
		report "kernel panic: $(grep -a -m 1 'Kernel panic - not syncing' "$log" | sed 's/^\[ *[0-9.]*\] //')"
		return 121
	fi
	if [ -z "$exitline" ]; then
		report "the guest ended without reporting a status (QEMU exit $qrc after ${elapsed}s)"
		sed "s/^/$prog: qemu: /" "$tmp/qemu.err" >&2
		last_lines 15
		return 123
	fi
	status=$(echo "$exitline" | sed -n 's/.*SVCSOCK-VM-EXIT: \([0-9]*\) taint=.*/\1/p')
	taint=$(echo "$exitline" | sed -n 's/.*taint=\([0-9]*\).*/\1/p')
	status=${status:-255} taint=${taint:-0}
	# taint flags: bit i is the letter at position i; O (12) and E (13) are
	# ok, since the project's modules are out of tree and unsigned.
	letters=PFSRMBUDAWCIOELKXTN
	flags="" badtaint=0
	for i in $(seq 0 18); do
		if [ $(((taint >> i) & 1)) = 1 ]; then
			flags="$flags${letters:i:1}"
			case $i in 12 | 13) ;; *) badtaint=1 ;; esac
		fi
	done
	if [ -n "$bad" ] || [ $badtaint = 1 ]; then
		why=""
		[ -n "$bad" ] && why="$(printf '%s\n' "$bad" | head -n 1)"
		[ $badtaint = 1 ] && why="${why:+$why; }kernel tainted $taint ($flags)"
		report "kernel badness: $why"
		return 122
	fi
	[ "$verbose" = 0 ] || echo "$prog: guest exit $status, taint $taint${flags:+ ($flags)}, ${elapsed}s" >&2
	return "$status"
}
