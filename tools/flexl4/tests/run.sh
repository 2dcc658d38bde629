#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Tests of the flexl4 tools. Run as root from anywhere:
#   make -C tools/flexl4 test
# Creates two network namespaces joined by a veth pair (192.0.2.0/24,
# 2001:db8::/64) and removes them on exit. Prints one line per check and
# ends with "flexl4: N passed, N failed, N skipped"; exits 1 if any failed.

set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
DATA=$HERE/tests/data
GOLD=$HERE/tests/golden
T=$(mktemp -d /tmp/flexl4-test.XXXXXX)
NSA=flexl4-a-$$
NSB=flexl4-b-$$
PASSED=0
FAILED=0
SKIPPED=0
CAPPID=

cleanup()
{
	[ -n "$CAPPID" ] && kill "$CAPPID" 2>/dev/null
	ip netns del "$NSA" 2>/dev/null
	ip netns del "$NSB" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

pass() { PASSED=$((PASSED + 1)); echo "PASS $1"; }
fail() { FAILED=$((FAILED + 1)); echo "FAIL $1${2:+: $2}"; }
skip() { SKIPPED=$((SKIPPED + 1)); echo "SKIP $1: $2"; }

# check NAME: pass if the last command (in $?) succeeded.
ok() { if [ "$2" -eq 0 ]; then pass "$1"; else fail "$1" "${3:-}"; fi; }

# bad NAME CMD...: CMD must exit 2 with one line on stderr, none on stdout.
bad()
{
	name=$1
	shift
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	lines=$(wc -l <"$T/err")
	if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && [ ! -s "$T/out" ]; then
		pass "$name"
	else
		fail "$name" "exit $rc, $lines stderr lines: $(head -c 200 "$T/err")"
	fi
}

# golden NAME FILE: compare $T/out with the golden FILE.
golden()
{
	[ -z "${UPDATE_GOLDEN:-}" ] || cp "$T/out" "$GOLD/$2"
	if cmp -s "$T/out" "$GOLD/$2"; then
		pass "$1"
	else
		fail "$1" "output differs from golden/$2:
$(diff -u "$GOLD/$2" "$T/out" | head -20)"
	fi
}

# helps TOOL: --help prints a man-page-like text and exits 0.
helps()
{
	"$HERE/$1" --help >"$T/out" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ] && grep -q '^SYNOPSIS' "$T/out" &&
	   grep -q '^EXIT STATUS' "$T/out" && grep -q '^EXAMPLES' "$T/out"; then
		pass "$1 --help"
	else
		fail "$1 --help" "exit $rc"
	fi
}

# scapy decodes the captured packets: Debian's python3-scapy (apt-packages).
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
if ! "$PY" -c 'import scapy.layers.inet6' 2>/dev/null; then
	echo "scapy missing for $PY: install python3-scapy (see apt-packages)" >&2
	exit 1
fi

for t in l4send rxq-delta l4steer tests/capture; do
	if [ ! -x "$HERE/$t" ]; then
		echo "missing $HERE/$t: run make first" >&2
		exit 1
	fi
done

###########################################################################
# l4send: arguments
###########################################################################
S=$HERE/l4send
helps l4send
bad "l4send: no --dst" "$S"
bad "l4send: bad --dst" "$S" -d 192.0.2.300
bad "l4send: -4 with IPv6 --dst" "$S" -4 -d 2001:db8::2
bad "l4send: -6 with IPv4 --dst" "$S" -6 -d 192.0.2.2
bad "l4send: bad --src" "$S" -d 192.0.2.2 -s nothere
bad "l4send: --src family differs" "$S" -d 192.0.2.2 -s 2001:db8::1
bad "l4send: --proto 256" "$S" -d 192.0.2.2 -p 256
bad "l4send: --proto not a number" "$S" -d 192.0.2.2 -p homa
bad "l4send: --proto negative" "$S" -d 192.0.2.2 -p -1
bad "l4send: --hdr-len 3" "$S" -d 192.0.2.2 --hdr-len 3
bad "l4send: --hdr-len 70000" "$S" -d 192.0.2.2 --hdr-len 70000
bad "l4send: --payload 70000" "$S" -d 192.0.2.2 --payload 70000
bad "l4send: IPv4 packet too long" "$S" -d 192.0.2.2 --hdr-len 28 --payload 65490
bad "l4send: --sport 70000" "$S" -d 192.0.2.2 -S 70000
bad "l4send: --dport range backwards" "$S" -d 192.0.2.2 -D 5-3
bad "l4send: --dport not a number" "$S" -d 192.0.2.2 -D http
bad "l4send: --dport empty item" "$S" -d 192.0.2.2 -D 1,,2
bad "l4send: --cycle with a port list" "$S" -d 192.0.2.2 -D 1,2 --cycle 4
bad "l4send: --cycle past 65535" "$S" -d 192.0.2.2 -D 65535 --cycle 2
bad "l4send: --cycle 0" "$S" -d 192.0.2.2 --cycle 0
bad "l4send: --count 0" "$S" -d 192.0.2.2 -n 0
bad "l4send: --duration 0" "$S" -d 192.0.2.2 --duration 0
bad "l4send: --duration -1" "$S" -d 192.0.2.2 --duration -1
bad "l4send: --duration abc" "$S" -d 192.0.2.2 --duration abc
bad "l4send: --rate 0" "$S" -d 192.0.2.2 --rate 0
bad "l4send: --threads 0" "$S" -d 192.0.2.2 --threads 0
bad "l4send: --threads 65" "$S" -d 192.0.2.2 --threads 65
bad "l4send: --count below --threads" "$S" -d 192.0.2.2 --threads 4 -n 3
bad "l4send: --batch 0" "$S" -d 192.0.2.2 --batch 0
bad "l4send: --batch 2000" "$S" -d 192.0.2.2 --batch 2000
bad "l4send: --proto 0" "$S" -d 192.0.2.2 -p 0
bad "l4send: --proto 255" "$S" -d 192.0.2.2 -p 255
bad "l4send: --dev too long" "$S" -d 192.0.2.2 -i abcdefghijklmnopq
bad "l4send: unknown option" "$S" -d 192.0.2.2 --frobnicate
bad "l4send: option without value" "$S" -d
bad "l4send: extra argument" "$S" -d 192.0.2.2 extra

###########################################################################
# rxq-delta: recorded counters, arguments, live devices
###########################################################################
R=$HERE/rxq-delta
helps rxq-delta
"$R" diff "$DATA/before.snap" "$DATA/after.snap" >"$T/out" 2>"$T/err"
golden "rxq-delta: diff of recorded snapshots" rxq-diff.txt
"$R" diff --json "$DATA/before.snap" "$DATA/after.snap" >"$T/out" 2>"$T/err"
golden "rxq-delta: diff --json of recorded snapshots" rxq-diff.json
"$R" diff "$DATA/after.snap" "$DATA/reset.snap" >"$T/out" 2>"$T/err"
golden "rxq-delta: diff with a counter reset" rxq-diff-reset.txt
if grep -q 'queue 1 counter went backwards (2050 -> 50' "$T/err"; then
	pass "rxq-delta: counter reset reported on stderr"
else
	fail "rxq-delta: counter reset reported on stderr" "$(cat "$T/err")"
fi
"$R" diff "$DATA/before.snap" "$DATA/new-queue.snap" >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && grep -q '^    8           5000 ' "$T/out" && [ "$(cat "$T/err")" = \
	"rxq-delta: queue 8 is not in the first snapshot (channels added?); counting it from 0" ]
ok "rxq-delta: a queue new in the second snapshot is counted from 0, with a warning" $? \
	"exit $rc: $(cat "$T/err")"
"$R" snap --ethtool-file "$DATA/ethtool-S-mlx5.txt" -i eth2 >"$T/out" 2>"$T/err"
golden "rxq-delta: snap from recorded mlx5 ethtool -S" rxq-snap-mlx5.txt
"$R" snap --ethtool-file - <"$DATA/ethtool-S-virtio.txt" >"$T/out" 2>"$T/err"
golden "rxq-delta: snap from recorded virtio ethtool -S (stdin)" \
	rxq-snap-virtio.txt
# The qstats half is built where <linux/netdev.h> has qstats (make test fetches one: UAPI=)
if "$R" snap --qstats-file /dev/null 2>&1 | grep -q 'built without'; then
	for n in "virtio_net dump" "3-queue dump" "veth refusal" "dump without NLMSG_DONE"; do
		skip "rxq-delta: recorded qstats $n" "built without netdev qstats (no UAPI=DIR with them)"
	done
else
	"$R" snap --qstats-file "$DATA/qstats-virtio.nl" -i eth0 >"$T/out" 2>"$T/err"
	golden "rxq-delta: snap from a recorded qstats dump (virtio_net)" rxq-snap-qstats.txt
	"$R" snap --qstats-file "$DATA/qstats-3q.nl" -i eth0 >"$T/out" 2>"$T/err"
	golden "rxq-delta: snap from a 3-queue qstats dump (64-bit counter)" \
		rxq-snap-qstats-3q.txt
	"$R" snap --qstats-file "$DATA/qstats-veth.nl" -i vb >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" -eq 1 ] && [ ! -s "$T/out" ] && [ "$(cat "$T/err")" = \
		"rxq-delta: $DATA/qstats-veth.nl: netdev qstats: not supported by the driver" ]
	ok "rxq-delta: recorded qstats refusal (veth: EOPNOTSUPP in NLMSG_DONE)" $? "exit $rc"
	head -c 136 "$DATA/qstats-virtio.nl" >"$T/trunc.nl"
	"$R" snap --qstats-file "$T/trunc.nl" >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" -eq 1 ] && grep -q 'reply ends before NLMSG_DONE' "$T/err"
	ok "rxq-delta: recorded qstats dump without NLMSG_DONE refused" $? "exit $rc"
fi
"$R" snap --ethtool-file "$DATA/ethtool-S-mlx5.txt" -i eth2 >"$T/s1" 2>/dev/null
sed 's/^rx 3 456$/rx 3 1456/' "$T/s1" >"$T/s2"
"$R" diff "$T/s1" "$T/s2" >"$T/out" 2>"$T/err"
golden "rxq-delta: diff of snapshots made from ethtool -S" rxq-diff-ethtool.txt
"$R" snap --ethtool-file "$DATA/ethtool-S-veth.txt" >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 1 ] && grep -q 'no rxN_packets or rx_queue_N_packets' "$T/err"
ok "rxq-delta: recorded veth ethtool -S refused" $? "exit $rc"
"$R" diff "$DATA/before.snap" "$DATA/other-dev.snap" >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 1 ] && grep -q 'different devices: eth2 and eth3' "$T/err"
ok "rxq-delta: snapshots of different devices refused" $? "exit $rc"
"$R" diff "$DATA/before.snap" "$DATA/bad.snap" >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 1 ] && grep -q "bad.snap:4: cannot parse 'rx zero 12'" "$T/err"
ok "rxq-delta: malformed snapshot refused" $? "exit $rc"
"$R" diff "$DATA/not-a.snap" "$DATA/before.snap" >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 1 ] && grep -q 'not an rxq-delta snapshot' "$T/err"
ok "rxq-delta: non-snapshot file refused" $? "exit $rc"
"$R" diff "$T/nonexistent" "$DATA/before.snap" >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 1 ] && grep -q 'No such file' "$T/err"
ok "rxq-delta: missing snapshot file refused" $? "exit $rc"

bad "rxq-delta: no command" "$R"
bad "rxq-delta: unknown command" "$R" show eth0
bad "rxq-delta: snap without device" "$R" snap
bad "rxq-delta: snap with two devices" "$R" snap eth0 eth1
bad "rxq-delta: snap --counters bad" "$R" snap eth0 --counters sysfs
bad "rxq-delta: snap --json" "$R" snap eth0 --json
bad "rxq-delta: snap --ethtool-file with a device" "$R" snap --ethtool-file "$DATA/ethtool-S-mlx5.txt" eth0
bad "rxq-delta: the device twice" "$R" snap eth0 -i eth0
bad "rxq-delta: bad --dev" "$R" snap --ethtool-file "$DATA/ethtool-S-mlx5.txt" -i ''
bad "rxq-delta: snap --ethtool-file and -Q" "$R" snap --ethtool-file a --qstats-file b
bad "rxq-delta: diff with one file" "$R" diff "$DATA/before.snap"
bad "rxq-delta: diff with three files" "$R" diff a b c
bad "rxq-delta: diff --time" "$R" diff --time 1 a b
bad "rxq-delta: diff --counters" "$R" diff --counters qstats a b
bad "rxq-delta: diff with --" "$R" diff a -- b
bad "rxq-delta: diff -f" "$R" diff --ethtool-file x a b
bad "rxq-delta: watch without device" "$R" watch
bad "rxq-delta: watch command without --" "$R" watch eth0 true
bad "rxq-delta: watch -- without command" "$R" watch eth0 --
bad "rxq-delta: watch --time and a command" "$R" watch eth0 --time 1 -- true
bad "rxq-delta: watch --time 0" "$R" watch eth0 --time 0
bad "rxq-delta: unknown option" "$R" diff --frobnicate a b
bad "rxq-delta: option without value" "$R" snap eth0 --counters

###########################################################################
# l4steer: dry-run golden text, install/list/remove against a fake ethtool
###########################################################################
L=$HERE/l4steer
helps l4steer
# A fake mlx5 port eth9 at 0000:08:00.0: sysfs link, /proc/interrupts,
# /proc/irq/N/smp_affinity_list, and "ethtool" first in PATH.
mkdir -p "$T/bin" "$T/sys/class/net/eth9" "$T/sys/class/net/eth8" \
	"$T/proc" "$T/state"
ln -s ../../../devices/pci0000:00/0000:08:00.0 "$T/sys/class/net/eth9/device"
cp "$DATA/interrupts" "$T/proc/interrupts"
for irq in $(seq 39 60); do
	mkdir -p "$T/proc/irq/$irq"
	echo 0-1 >"$T/proc/irq/$irq/smp_affinity_list"
done
ln -s "$HERE/tests/fake-ethtool" "$T/bin/ethtool"
export L4STEER_PROC="$T/proc" L4STEER_SYS="$T/sys" L4STEER_STATE_DIR="$T/state"
export FAKE_ETHTOOL_LOG="$T/ethtool.log" FAKE_ETHTOOL_IDS="$T/ids" FAKE_ETHTOOL_RULES="$T/rules"
: >"$FAKE_ETHTOOL_RULES"
export FAKE_ETHTOOL_K="$DATA/ethtool-k-off"
FPATH="$T/bin:$PATH"

# steer ARGS...: run l4steer with the fake ethtool, output with $T -> @T@.
steer()
{
	PATH="$FPATH" "$L" "$@" >"$T/raw" 2>"$T/err"
	rc=$?
	sed "s|$T|@T@|g" "$T/raw" >"$T/out"
	return $rc
}

steer buckets eth9 -p 146 -f dport --buckets 16 -c 0-15 --dry-run
golden "l4steer: dry-run 16 buckets on dport low nibble, IRQs pinned" \
	steer-buckets16.txt
FAKE_ETHTOOL_K="$DATA/ethtool-k-on" steer buckets eth9 -p 132 -f sport \
	--buckets 4 -q 4,5,6,7 -4 --dry-run
golden "l4steer: dry-run 4 sport buckets, ip4 only, ntuple already on" \
	steer-buckets4-sport.txt
FAKE_ETHTOOL_K="$DATA/ethtool-k-on" steer range eth9 -p 146 -f dport \
	--map 1000-1999:2 --map 2000-2999:3 -6 --dry-run
golden "l4steer: dry-run port ranges, fewest prefix rules" steer-range.txt
FAKE_ETHTOOL_K="$DATA/ethtool-k-on" steer range eth9 -p 253 -f sport \
	--map 5000-5000:1 --map 0-0:0 --map 32768-65535:7 -4 --dry-run
golden "l4steer: dry-run single ports and a half-space range" \
	steer-range-edges.txt
: >"$FAKE_ETHTOOL_LOG"
FAKE_ETHTOOL_K="$DATA/ethtool-k-on" steer range eth9 -p 146 -f dport \
	--map 0-65535:5 -4 --dry-run
if [ "$(cat "$T/out")" = "ethtool -N eth9 flow-type ip4 l4proto 146 l4data 0x0 m 0xffffffff action 5 loc 0" ] &&
   [ "$(cat "$FAKE_ETHTOOL_LOG")" = "-k eth9
-l eth9" ]; then
	pass "l4steer: full port range is one rule; dry-run only reads -k and -l"
else
	fail "l4steer: full port range is one rule; dry-run only reads -k and -l" \
		"$(cat "$T/out" "$FAKE_ETHTOOL_LOG")"
fi

# Check the range cover: ports near both ends and every 97th port inside
# must match exactly one rule if in the range, none if outside.
range_cover_ok()
{
	FAKE_ETHTOOL_K="$DATA/ethtool-k-on" steer range eth9 -p 146 \
		-f dport --map "$1-$2:1" -4 --dry-run || return 1
	rules=$(awk '{ print $9 ":" $11 }' "$T/out")
	n=$(echo "$rules" | wc -l)
	[ "$n" -eq "$3" ] || { echo "rules $n want $3"; return 1; }
	ports=$(seq $(($1 - 200)) $(($1 + 200)); seq $(($2 - 200)) $(($2 + 200));
		seq "$1" 97 "$2")
	for p in $ports; do
		[ "$p" -ge 0 ] && [ "$p" -le 65535 ] || continue
		hits=0
		for r in $rules; do
			v=$((${r%%:*}))
			m=$((${r#*:}))
			[ $((p & ~m & 0xffff)) -eq "$v" ] && hits=$((hits + 1))
		done
		want=0
		[ "$p" -ge "$1" ] && [ "$p" -le "$2" ] && want=1
		[ $hits -eq $want ] || { echo "port $p: $hits rules"; return 1; }
	done
}
for r in "1000 1999 7" "1 65534 30" "4096 8191 1" "3 4 2"; do
	set -- $r
	if range_cover_ok "$1" "$2" "$3" >"$T/cover" 2>&1; then
		pass "l4steer: range $1-$2 covered exactly by $3 rules"
	else
		fail "l4steer: range $1-$2 covered exactly by $3 rules" \
			"$(cat "$T/cover")"
	fi
done

# Install for real (fake ethtool, fake /proc), list, remove.
: >"$FAKE_ETHTOOL_LOG"
rm -f "$FAKE_ETHTOOL_IDS"; : >"$FAKE_ETHTOOL_RULES"
steer buckets eth9 -p 146 -f dport --buckets 4 -q 0-3 -c 3,2,1,0
rc=$?
golden "l4steer: install output" steer-install.txt
[ "$rc" -eq 0 ] && [ "$(cat "$T/proc/irq/40/smp_affinity_list")" = 3 ] &&
	[ "$(cat "$T/proc/irq/43/smp_affinity_list")" = 0 ] &&
	[ "$(cat "$T/proc/irq/44/smp_affinity_list")" = 0-1 ]
ok "l4steer: install pins exactly the chosen queues' IRQs" $? "exit $rc"
sed "s|$T|@T@|g" "$T/state/eth9.state" >"$T/out"
golden "l4steer: state file" steer-state.txt
steer list eth9
golden "l4steer: list" steer-list.txt
steer buckets eth9 -p 146 -f dport --buckets 4
rc=$?
[ "$rc" -eq 1 ] && [ "$(cat "$T/err")" = "l4steer: other l4steer rules are installed on eth9 ($T/state/eth9.state); run 'l4steer remove eth9' first" ]
ok "l4steer: another plan refused while one is installed" $? "exit $rc: $(cat "$T/err")"
steer remove eth9 --dry-run
golden "l4steer: remove --dry-run" steer-remove-dry.txt
[ -f "$T/state/eth9.state" ]
ok "l4steer: remove --dry-run keeps the state" $?
steer remove eth9
rc=$?
[ "$rc" -eq 0 ] && [ ! -e "$T/state/eth9.state" ] &&
	[ "$(cat "$T/proc/irq/40/smp_affinity_list")" = 0-1 ] &&
	[ "$(cat "$T/proc/irq/43/smp_affinity_list")" = 0-1 ]
ok "l4steer: remove restores IRQs and drops the state" $? "exit $rc"
cp "$FAKE_ETHTOOL_LOG" "$T/out"
golden "l4steer: ethtool calls of install, list, remove" steer-ethtool-log.txt
steer remove eth9
rc=$?
[ "$rc" -eq 1 ] && grep -q 'nothing installed by l4steer on eth9' "$T/err"
ok "l4steer: remove with nothing installed refused" $? "exit $rc"
steer list eth9
rc=$?
[ "$rc" -eq 1 ] && grep -q 'nothing installed by l4steer on eth9' "$T/err"
ok "l4steer: list with nothing installed says so" $? "exit $rc"

# 'ethtool -n' is the truth (review F2): the same plan twice installs each rule once, by hand
# or by another state file (flexl4-steer's); other rules at the locations are refused, named.
export FAKE_ETHTOOL_K="$DATA/ethtool-k-on"
: >"$FAKE_ETHTOOL_RULES"
steer buckets eth9 -p 146 -f dport --buckets 4 -4 && steer buckets eth9 -p 146 -f dport --buckets 4 -4
rc=$?
[ $rc -eq 0 ] && [ "$(head -n1 "$T/out")" = "already installed: the 4 rules at locations 0-3 of eth9 ('ethtool -n eth9'); no rule changed" ] &&
	[ "$(wc -l <"$FAKE_ETHTOOL_RULES")" -eq 4 ] && [ ! -s "$T/err" ]
ok "l4steer: the same plan twice: 'already installed', 4 rules, exit 0" $? "exit $rc: $(cat "$T/out" "$T/err")"
: >"$FAKE_ETHTOOL_LOG"
steer buckets eth9 -p 146 -f dport --buckets 4 -4 --state "$T/other.state"
rc=$?
[ $rc -eq 0 ] && grep -q "^already installed: the 4 rules at locations 0-3 of eth9" "$T/out" &&
	[ "$(wc -l <"$FAKE_ETHTOOL_RULES")" -eq 4 ] && ! grep -q '^-N' "$FAKE_ETHTOOL_LOG" &&
	[ "$(grep -c '^rule ' "$T/other.state")" -eq 4 ]
ok "l4steer: the same rules with another state file: kept and recorded, no -N run" $? "exit $rc: $(cat "$T/out" "$T/err")"
steer remove eth9 --state "$T/other.state"
rc=$?
[ $rc -eq 0 ] && [ ! -s "$FAKE_ETHTOOL_RULES" ] && [ "$(cat "$T/out")" = "removed 4 rules, 0 IRQ settings from eth9" ]
ok "l4steer: remove through the other state file deletes them" $? "exit $rc: $(cat "$T/out" "$T/err")"
steer remove eth9
rc=$?
[ $rc -eq 0 ] && [ ! -e "$T/state/eth9.state" ] && [ ! -s "$T/err" ] &&
	[ "$(cat "$T/out")" = "removed 0 rules, 0 IRQ settings from eth9 (4 more were gone already)" ]
ok "l4steer: remove of rules already gone: no ethtool error, exit 0" $? "exit $rc: $(cat "$T/out" "$T/err")"
printf '%s\n' '1 flow-type ip4 l4proto 146 l4data 0x1 m 0xfffffffc action 5' '3 other tcp4' >"$FAKE_ETHTOOL_RULES"
: >"$FAKE_ETHTOOL_LOG"
steer buckets eth9 -p 146 -f dport --buckets 4 -4
rc=$?
[ $rc -eq 1 ] && [ ! -s "$T/out" ] && [ ! -e "$T/state/eth9.state" ] && ! grep -q '^-N' "$FAKE_ETHTOOL_LOG" &&
	[ "$(cat "$T/err")" = "l4steer: locations 0-3 of eth9 hold 2 other rules (1: flow-type ip4 l4proto 146 l4data 0x1 m 0xfffffffc action 5; 3: TCP over IPv4): see 'ethtool -n eth9'; delete them ('ethtool -N eth9 delete N') or choose free locations (--loc); refusing" ]
ok "l4steer: locations held by other rules: refused, naming them, nothing changed" $? "exit $rc: $(cat "$T/out" "$T/err")"
steer buckets eth9 -p 146 -f dport --buckets 4 -4 --loc 4
rc=$?
[ $rc -eq 0 ] && [ "$(head -n1 "$T/out")" = "rule 4: flow-type ip4 l4proto 146 l4data 0x0 m 0xfffffffc action 0" ] &&
	[ "$(wc -l <"$FAKE_ETHTOOL_RULES")" -eq 6 ]
ok "l4steer: --loc 4 puts the rules after the others" $? "exit $rc: $(cat "$T/out" "$T/err")"
steer remove eth9; : >"$FAKE_ETHTOOL_RULES"
bad "l4steer: list --loc" "$L" list eth9 --loc 4
bad "l4steer: bad --loc" "$L" buckets eth9 -p 146 -f dport --buckets 4 --loc x
export FAKE_ETHTOOL_K="$DATA/ethtool-k-off"

# A port that does not exist (review F9): one line, before ethtool runs
: >"$FAKE_ETHTOOL_LOG"
steer buckets nosuchdev0 -p 146 -f dport --buckets 4 -c 0-3
rc=$?
[ $rc -eq 1 ] && [ ! -s "$FAKE_ETHTOOL_LOG" ] && [ "$(cat "$T/err")" = "l4steer: no such network device 'nosuchdev0'" ]
ok "l4steer: a missing port: one line, exit 1" $? "exit $rc: $(cat "$T/err")"
steer buckets nosuchdev0 -p 146 -f dport --buckets 2 -4 --dry-run
rc=$?
[ $rc -eq 0 ] && [ "$(wc -l <"$T/out")" -eq 3 ] &&
	[ "$(cat "$T/err")" = "l4steer: no such network device 'nosuchdev0' here; dry run: printing the commands for a device that has it" ]
ok "l4steer: a dry run for a missing port: one warning, the plan" $? "exit $rc: $(cat "$T/err")"
steer buckets nosuchdev0 -p 146 -f dport --buckets 2 -c 0,1 --dry-run
rc=$?
[ $rc -eq 1 ] && [ "$(cat "$T/err")" = "l4steer: no such network device 'nosuchdev0': the IRQs of its queues (--cpus) cannot be planned here" ]
ok "l4steer: a dry run with --cpus for a missing port: one line, exit 1" $? "exit $rc: $(cat "$T/err")"

# Cores that are not online (review F12): a warning naming them
mkdir -p "$T/sys/devices/system/cpu" && echo 0-1 >"$T/sys/devices/system/cpu/online"
steer buckets eth9 -p 146 -f dport --buckets 4 -4 -c 0-3 --dry-run
rc=$?
[ $rc -eq 0 ] && [ "$(cat "$T/err")" = "l4steer: --cpus names 2 CPUs that are not online (2,3; online: 0-1): pinning their IRQs will fail" ]
ok "l4steer: cores not online are named" $? "exit $rc: $(cat "$T/err")"
steer buckets eth9 -p 146 -f dport --buckets 2 -4 -c 0-1 --dry-run
[ $? -eq 0 ] && [ ! -s "$T/err" ]
ok "l4steer: online cores: no warning" $? "$(cat "$T/err")"
rm "$T/sys/devices/system/cpu/online"

# A failing third rule: the two installed are deleted, ntuple turned off.
: >"$FAKE_ETHTOOL_LOG"
rm -f "$FAKE_ETHTOOL_IDS"; : >"$FAKE_ETHTOOL_RULES"
FAKE_ETHTOOL_FAIL=3 steer buckets eth9 -p 146 -f dport --buckets 4 -4
rc=$?
cp "$FAKE_ETHTOOL_LOG" "$T/out"
[ "$rc" -eq 1 ] && [ ! -e "$T/state/eth9.state" ]
ok "l4steer: failed install exits 1 and leaves no state" $? "exit $rc"
golden "l4steer: failed install undoes exactly what it did" \
	steer-rollback-log.txt

FAKE_ETHTOOL_K="$DATA/ethtool-k-fixed" steer buckets eth9 -p 146 -f dport --buckets 2
rc=$?
[ "$rc" -eq 1 ] && grep -q 'eth9 does not support ntuple filters (ntuple-filters: off \[fixed\]); refusing' "$T/err"
ok "l4steer: refuses 'ntuple-filters: off [fixed]'" $? "exit $rc"
FAKE_ETHTOOL_K="$DATA/ethtool-k-absent" steer buckets eth9 -p 146 -f dport --buckets 2
rc=$?
[ "$rc" -eq 1 ] && grep -q 'no ntuple-filters in' "$T/err" && [ ! -s "$T/out" ]
ok "l4steer: refuses to install on a device without ntuple-filters" $? "exit $rc"
# A dry run plans for a device that can take the rules (another host).
FAKE_ETHTOOL_K="$DATA/ethtool-k-absent" steer buckets eth9 -p 146 -f dport --buckets 2 -4 --dry-run
rc=$?
[ "$rc" -eq 0 ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
	grep -q "eth9 does not support ntuple filters (no ntuple-filters in 'ethtool -k eth9'); dry run: printing the commands" "$T/err" &&
	[ "$(cat "$T/out")" = "ethtool -K eth9 ntuple on
ethtool -N eth9 flow-type ip4 l4proto 146 l4data 0x0 m 0xfffffffe action 0 loc 0
ethtool -N eth9 flow-type ip4 l4proto 146 l4data 0x1 m 0xfffffffe action 1 loc 1" ]
ok "l4steer: dry run without ntuple filters prints the plan and warns" $? "exit $rc: $(cat "$T/out" "$T/err")"
FAKE_ETHTOOL_K="$DATA/ethtool-k-fixed" steer range eth9 -p 253 -f dport --map 7:1 -6 --dry-run
rc=$?
[ "$rc" -eq 0 ] && grep -q 'off \[fixed\]); dry run' "$T/err" &&
	[ "$(tail -1 "$T/out")" = "ethtool -N eth9 flow-type ip6 l4proto 253 l4data 0x7 m 0xffff0000 action 1 loc 0" ]
ok "l4steer: dry run on 'ntuple-filters: off [fixed]' prints the plan" $? "exit $rc: $(cat "$T/out" "$T/err")"
steer buckets eth8 -p 146 -f dport --buckets 2 -c 0,1 --dry-run
rc=$?
[ "$rc" -eq 1 ] && grep -q 'eth8 is not a PCI device' "$T/err"
ok "l4steer: --cpus on a device without PCI IRQs refused" $? "exit $rc"
sed 's/mlx5_comp1@/mlx5_compX@/' "$DATA/interrupts" >"$T/proc/interrupts"
steer buckets eth9 -p 146 -f dport --buckets 2 -c 0,1 --dry-run
rc=$?
cp "$DATA/interrupts" "$T/proc/interrupts"
[ "$rc" -eq 1 ] && grep -q 'no IRQ named mlx5_comp1@pci:0000:08:00.0' "$T/err"
ok "l4steer: missing queue IRQ refused" $? "exit $rc"
ETHTOOL=/nonexistent/ethtool "$L" buckets eth9 -p 146 -f dport --buckets 2 >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 1 ] && grep -q 'install the ethtool package' "$T/err"
ok "l4steer: missing ethtool reported" $? "exit $rc"
ETHTOOL=/nonexistent/ethtool "$L" buckets eth9 -p 146 -f dport --buckets 2 --dry-run >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] && grep -q 'install the ethtool package.*dry run' "$T/err" &&
	[ "$(wc -l <"$T/out")" -eq 5 ]
ok "l4steer: dry run without ethtool still prints the plan" $? "exit $rc: $(cat "$T/err")"

# mlx5 has locations 0-1023: --buckets 1024 fits in one family; a plan past 1023 is refused up front.
FAKE_ETHTOOL_K="$DATA/ethtool-k-on" steer buckets eth9 -p 146 -f dport --buckets 1024 -6 --dry-run
rc=$?
[ "$rc" -eq 0 ] && [ "$(grep -c ' flow-type ip6 ' "$T/out")" -eq 1024 ] &&
	grep -q 'ip6 l4proto 146 l4data 0x3ff m 0xfffffc00 action 1023 loc 1023$' "$T/out"
ok "l4steer: --buckets 1024 -6 gives 1024 rules, the last at location 1023" $? "exit $rc: $(head -2 "$T/err")"
: >"$FAKE_ETHTOOL_LOG"
bad "l4steer: --buckets 1024 in both families (2048 rules) refused" \
	env PATH="$FPATH" "$L" buckets eth9 -p 146 -f dport --buckets 1024
[ "$(cat "$T/err")" = "l4steer: the 2048 rules from location 0 would end at 2047, past mlx5's last location 1023: plan fewer rules (-4 or -6, fewer buckets) or a lower --loc (l4steer --help)" ] &&
	[ ! -s "$FAKE_ETHTOOL_LOG" ]
ok "l4steer: a plan past location 1023: the line says why and what to do, no ethtool run" $? "$(cat "$T/err")"
bad "l4steer: --buckets 16 --loc 1000 (rules 1000-1031) refused" \
	env PATH="$FPATH" "$L" buckets eth9 -p 253 -f dport --buckets 16 --loc 1000
[ "$(cat "$T/err")" = "l4steer: the 32 rules from location 1000 would end at 1031, past mlx5's last location 1023: plan fewer rules (-4 or -6, fewer buckets) or a lower --loc (l4steer --help)" ]
ok "l4steer: --loc 1000 with 32 rules: refused naming location 1031" $? "$(cat "$T/err")"
bad "l4steer: --loc 1024 refused" "$L" buckets eth9 -p 146 -f dport --buckets 2 --loc 1024
[ "$(cat "$T/err")" = "l4steer: bad --loc '1024': want a location 0-1023 (mlx5 has 1024) (l4steer --help)" ]
ok "l4steer: --loc 1024: the line names 0-1023" $? "$(cat "$T/err")"
FAKE_ETHTOOL_K="$DATA/ethtool-k-on" steer buckets eth9 -p 146 -f dport --buckets 4 -4 --loc 1020 --dry-run
[ $? -eq 0 ] && [ "$(tail -n1 "$T/out")" = "ethtool -N eth9 flow-type ip4 l4proto 146 l4data 0x3 m 0xfffffffc action 3 loc 1023" ]
ok "l4steer: --loc 1020 with 4 rules ends at 1023: planned" $? "$(cat "$T/out" "$T/err")"

# Adjacent ranges to the same queue are merged first; a single port is P.
steer_rules()
{
	FAKE_ETHTOOL_K="$DATA/ethtool-k-on" steer range eth9 -p 146 -f dport "$@" -4 --dry-run &&
		awk '{ print $9 "/" $11 ":" $13 }' "$T/out" | tr '\n' ' '
}
for c in "--map 1-1:1 --map 2-2:1 --map 3-3:1|0x1/0xffff0000:1 0x2/0xffff0001:1 " \
	 "--map 8-15:1 --map 0-7:1|0x0/0xffff000f:1 " \
	 "--map 0-3:2 --map 8-11:2 --map 4-7:2|0x0/0xffff0007:2 0x8/0xffff0003:2 " \
	 "--map 1-1:1 --map 2-3:2|0x1/0xffff0000:1 0x2/0xffff0001:2 " \
	 "--map 5000:1|0x1388/0xffff0000:1 " \
	 "--map 65535:4 --map 0:4 --map 1-65534:4|0x0/0xffffffff:4 "; do
	got=$(steer_rules ${c%%|*})
	[ "$got" = "${c#*|}" ]
	ok "l4steer: range ${c%%|*}: fewest rules after merging" $? "got '$got' $(cat "$T/err")"
done

# A failing rule: the message quotes the whole command, ethtool included.
: >"$FAKE_ETHTOOL_LOG"
rm -f "$FAKE_ETHTOOL_IDS"; : >"$FAKE_ETHTOOL_RULES"
FAKE_ETHTOOL_FAIL=2 steer range eth9 -p 146 -f dport --map 1-3:1 -4
rc=$?
[ "$rc" -eq 1 ] &&
	grep -q "^l4steer: 'ethtool -N eth9 flow-type ip4 l4proto 146 l4data 0x2 m 0xffff0001 action 1 loc 1' failed (Invalid argument): the driver's reason is in dmesg (docs/operator-guide.md, \"Kernel messages\"); undoing what was installed$" "$T/err"
ok "l4steer: rollback message quotes the whole failed command" $? "exit $rc: $(cat "$T/err")"

# Which protocols the driver takes is the driver's business: l4steer plans any, and a refusal
# is ethtool's error, with the pointer to the driver's reason (dmesg).
for p in 6 17 47 132 146 253 255; do
	FAKE_ETHTOOL_K="$DATA/ethtool-k-on" steer buckets eth9 -p $p -f dport --buckets 2 -4 --dry-run
	ok "l4steer: --proto $p planned" $? "$(cat "$T/err")"
done
: >"$FAKE_ETHTOOL_LOG"
rm -f "$FAKE_ETHTOOL_IDS"; : >"$FAKE_ETHTOOL_RULES"
FAKE_ETHTOOL_FAIL=1 FAKE_ETHTOOL_ERR="Operation not supported" FAKE_ETHTOOL_K="$DATA/ethtool-k-on" \
	steer buckets eth9 -p 47 -f dport --buckets 2 -4
rc=$?
[ $rc -eq 1 ] && [ ! -s "$T/out" ] && [ ! -e "$T/state/eth9.state" ] && [ ! -s "$FAKE_ETHTOOL_RULES" ] &&
	[ "$(cat "$T/err")" = "rmgr: Cannot insert RX class rule: Operation not supported
l4steer: 'ethtool -N eth9 flow-type ip4 l4proto 47 l4data 0x0 m 0xfffffffe action 0 loc 0' failed (Operation not supported): the driver's reason is in dmesg (docs/operator-guide.md, \"Kernel messages\"); undoing what was installed" ]
ok "l4steer: a rule the driver refuses: ethtool's error, where to read why, nothing left" $? "exit $rc: $(cat "$T/err")"

# 'ethtool -n' is the truth, not ethtool's exit status: Debian 12's ethtool 6.1 prints the kernel's
# refusal and exits 0 (review F1). Each rule is read back; one the kernel does not list fails.
: >"$FAKE_ETHTOOL_LOG"
rm -f "$FAKE_ETHTOOL_IDS"; : >"$FAKE_ETHTOOL_RULES"
FAKE_ETHTOOL_FAIL=1 FAKE_ETHTOOL_FAIL_EXIT=0 FAKE_ETHTOOL_ERR="Operation not supported" \
	FAKE_ETHTOOL_K="$DATA/ethtool-k-on" steer buckets eth9 -p 6 -f dport --buckets 2 -4
rc=$?
[ $rc -eq 1 ] && [ ! -s "$T/out" ] && [ ! -e "$T/state/eth9.state" ] && [ ! -s "$FAKE_ETHTOOL_RULES" ] &&
	[ "$(grep -c '^-N' "$FAKE_ETHTOOL_LOG")" -eq 1 ] &&
	[ "$(cat "$T/err")" = "rmgr: Cannot insert RX class rule: Operation not supported
l4steer: 'ethtool -N eth9 flow-type ip4 l4proto 6 l4data 0x0 m 0xfffffffe action 0 loc 0' failed (Operation not supported): the driver's reason is in dmesg (docs/operator-guide.md, \"Kernel messages\"); undoing what was installed" ]
ok "l4steer: a refusal that ethtool exits 0 for (Debian 12): exit 1, the kernel's message, nothing left" $? "exit $rc: $(cat "$T/out" "$T/err")"
rm -f "$FAKE_ETHTOOL_IDS"; : >"$FAKE_ETHTOOL_LOG"
FAKE_ETHTOOL_FAIL=3 FAKE_ETHTOOL_FAIL_EXIT=0 FAKE_ETHTOOL_ERR="Operation not supported" \
	FAKE_ETHTOOL_K="$DATA/ethtool-k-on" steer buckets eth9 -p 6 -f dport --buckets 4 -4
rc=$?
[ $rc -eq 1 ] && [ ! -e "$T/state/eth9.state" ] && [ ! -s "$FAKE_ETHTOOL_RULES" ] &&
	[ "$(grep -c '^-N eth9 flow-type' "$FAKE_ETHTOOL_LOG")" -eq 3 ] &&
	[ "$(grep '^-N eth9 delete' "$FAKE_ETHTOOL_LOG" | tr '\n' ' ')" = "-N eth9 delete 1 -N eth9 delete 0 " ] &&
	[ "$(cat "$T/out")" = "rule 0: flow-type ip4 l4proto 6 l4data 0x0 m 0xfffffffc action 0
rule 1: flow-type ip4 l4proto 6 l4data 0x1 m 0xfffffffc action 1" ] &&
	[ "$(tail -n1 "$T/err")" = "l4steer: 'ethtool -N eth9 flow-type ip4 l4proto 6 l4data 0x2 m 0xfffffffc action 2 loc 2' failed (Operation not supported): the driver's reason is in dmesg (docs/operator-guide.md, \"Kernel messages\"); undoing what was installed" ]
ok "l4steer: the third rule refused with exit 0: the two before deleted, exit 1" $? "exit $rc: $(cat "$T/out" "$T/err" "$FAKE_ETHTOOL_LOG")"
rm -f "$FAKE_ETHTOOL_IDS"
FAKE_ETHTOOL_DROP=2 FAKE_ETHTOOL_K="$DATA/ethtool-k-on" steer buckets eth9 -p 146 -f dport --buckets 2 -4
rc=$?
[ $rc -eq 1 ] && [ ! -e "$T/state/eth9.state" ] && [ ! -s "$FAKE_ETHTOOL_RULES" ] &&
	[ "$(cat "$T/err")" = "l4steer: 'ethtool -N eth9 flow-type ip4 l4proto 146 l4data 0x1 m 0xfffffffe action 1 loc 1' exited 0, but 'ethtool -n eth9 rule 1' lists no rule there: the driver's reason is in dmesg (docs/operator-guide.md, \"Kernel messages\"); undoing what was installed" ]
ok "l4steer: a rule missing after a silent exit 0: exit 1, named, the first one deleted" $? "exit $rc: $(cat "$T/err")"
rm -f "$FAKE_ETHTOOL_IDS"

# -n is not --dry-run: it is refused, and nothing is installed.
: >"$FAKE_ETHTOOL_LOG"
FAKE_ETHTOOL_K="$DATA/ethtool-k-on" steer buckets eth9 -p 146 -f dport --buckets 4 -4 -n
rc=$?
[ $rc -eq 2 ] && [ ! -s "$T/out" ] && [ ! -s "$FAKE_ETHTOOL_LOG" ] &&
	[ "$(cat "$T/err")" = "l4steer: unknown option '-n' (l4steer --help)" ]
ok "l4steer: -n refused as unknown, no ethtool run" $? "exit $rc: $(cat "$T/err")"
FAKE_ETHTOOL_K="$DATA/ethtool-k-on" steer buckets -i eth9 --proto=146 --field dport --buckets=2 -4 --dry-run
[ $? -eq 0 ] && [ "$(wc -l <"$T/out")" -eq 2 ] && [ ! -s "$T/err" ]
ok "l4steer: -i DEV and --opt=value" $? "$(cat "$T/err")"

# Queues are checked against the device's channels (ethtool -l).
export FAKE_ETHTOOL_L="$DATA/ethtool-l-16"
FAKE_ETHTOOL_K="$DATA/ethtool-k-on" steer buckets eth9 -p 253 -f dport --buckets 16 --dry-run
ok "l4steer: 16 buckets on 16 channels planned" $? "$(cat "$T/err")"
for c in "buckets|--buckets 32|31|32" "buckets|--buckets 4 -q 0,1,2,16|16|17" "range|--map 1-9:16|16|17"; do
	IFS='|' read -r sub args q want <<EOC
$c
EOC
	FAKE_ETHTOOL_K="$DATA/ethtool-k-on" steer $sub eth9 -p 253 -f dport $args
	rc=$?
	[ $rc -eq 1 ] && [ ! -s "$T/out" ] && [ "$(cat "$T/err")" = "l4steer: queue $q does not exist: eth9 has 16 RX queues (ethtool -l: RX 0, combined 16); first 'ethtool -L eth9 combined $want'; refusing" ]
	ok "l4steer: $sub $args on 16 channels refused, naming the fix" $? "exit $rc: $(cat "$T/out" "$T/err")"
done
FAKE_ETHTOOL_K="$DATA/ethtool-k-on" steer buckets eth9 -p 253 -f dport --buckets 32 --dry-run
[ $? -eq 1 ] && grep -q "queue 31 does not exist" "$T/err"
ok "l4steer: a dry run refuses too few channels too" $?
L4STEER_CHANNELS=32 FAKE_ETHTOOL_K="$DATA/ethtool-k-on" steer buckets eth9 -p 253 -f dport --buckets 32 -4 --dry-run
[ $? -eq 0 ] && [ "$(wc -l <"$T/out")" -eq 32 ]
ok "l4steer: L4STEER_CHANNELS=32 plans 32 buckets" $? "$(cat "$T/err")"
L4STEER_CHANNELS=8 FAKE_ETHTOOL_K="$DATA/ethtool-k-on" steer buckets eth9 -p 253 -f dport --buckets 16 --dry-run
[ $? -eq 1 ] && [ "$(cat "$T/err")" = "l4steer: queue 15 does not exist with 8 channels (L4STEER_CHANNELS); refusing" ]
ok "l4steer: L4STEER_CHANNELS=8 refuses 16 buckets" $? "$(cat "$T/err")"
printf 'Channel parameters for eth9:\n' >"$T/ethtool-l-bad"
FAKE_ETHTOOL_L="$T/ethtool-l-bad" FAKE_ETHTOOL_K="$DATA/ethtool-k-on" steer buckets eth9 -p 253 -f dport --buckets 2
[ $? -eq 1 ] && [ "$(cat "$T/err")" = "l4steer: cannot read the channel count of eth9 ('ethtool -l eth9' failed); refusing" ]
ok "l4steer: unreadable channel count refused" $? "$(cat "$T/err")"
unset FAKE_ETHTOOL_L

for t in l4send rxq-delta l4steer; do
	"$HERE/$t" --version >"$T/out" 2>&1
	[ $? -eq 0 ] && [ "$(cat "$T/out")" = "$t $(cat "$HERE/../VERSION")" ]
	ok "$t --version" $? "$(cat "$T/out")"
done
IR=$T/root
make -s -C "$HERE" install DESTDIR="$IR" PREFIX=/usr >"$T/out" 2>&1 &&
	[ -x "$IR/usr/sbin/l4send" ] && [ -x "$IR/usr/sbin/rxq-delta" ] && [ -x "$IR/usr/sbin/l4steer" ] &&
	[ "$("$IR/usr/sbin/l4steer" --version)" = "l4steer $(cat "$HERE/../VERSION")" ] &&
	[ "$(find "$IR" -type f | wc -l)" -eq 8 ] && [ -f "$IR/usr/share/man/man8/l4steer.8" ] &&
	[ -f "$IR/usr/share/flexl4/l4.cfg" ] && [ -f "$IR/usr/share/flexl4/l4v6.cfg" ] &&
	make -s -C "$HERE" uninstall DESTDIR="$IR" PREFIX=/usr >>"$T/out" 2>&1 &&
	[ -z "$(find "$IR" -type f)" ]
ok "make install/uninstall with DESTDIR and PREFIX: the three tools, their man pages, trafgen/l4.cfg and l4v6.cfg, then none" $? "$(cat "$T/out")"
# The man pages are made from --help: they render cleanly and name every long option of it.
for t in l4send rxq-delta l4steer; do
	"$HERE/$t" --help >"$T/help"
	sh "$HERE/../common/man.sh" check "$HERE/$t.8" "$T/help" >"$T/out" 2>&1
	ok "$t.8: renders without groff warnings, names every long option of --help" $? "$(cat "$T/out")"
done

for t in l4send rxq-delta l4steer; do
	"$HERE/$t" --bogus >"$T/out" 2>"$T/err"
	[ $? -eq 2 ] && [ ! -s "$T/out" ] && [ "$(cat "$T/err")" = "$t: unknown option '--bogus' ($t --help)" ]
	ok "$t --bogus: one line naming --help, exit 2" $? "$(cat "$T/err")"
done
bad "l4send: -p 0 in raw mode refused" "$S" -d 192.0.2.2 -p 0
bad "l4send: -p 255 in raw mode refused" "$S" -d 192.0.2.2 -p 255

bad "l4steer: no command" "$L"
bad "l4steer: unknown command" "$L" add eth9
bad "l4steer: missing device" "$L" buckets -p 146 -f dport --buckets 4
bad "l4steer: two devices" "$L" buckets eth9 eth8 -p 146 -f dport --buckets 4
bad "l4steer: bad device name" "$L" buckets ../eth9 -p 146 -f dport --buckets 4
bad "l4steer: missing --proto" "$L" buckets eth9 -f dport --buckets 4
bad "l4steer: --proto 256" "$L" buckets eth9 -p 256 -f dport --buckets 4
bad "l4steer: missing --field" "$L" buckets eth9 -p 146 --buckets 4
bad "l4steer: bad --field" "$L" buckets eth9 -p 146 -f port --buckets 4
bad "l4steer: missing --buckets" "$L" buckets eth9 -p 146 -f dport
bad "l4steer: --buckets not a power of two" "$L" buckets eth9 -p 146 -f dport --buckets 12
bad "l4steer: --buckets 2048" "$L" buckets eth9 -p 146 -f dport --buckets 2048
bad "l4steer: --buckets 010 (octal to bash)" "$L" buckets eth9 -p 146 -f dport --buckets 010
bad "l4steer: --queues count differs" "$L" buckets eth9 -p 146 -f dport --buckets 4 -q 0-2
bad "l4steer: bad --queues" "$L" buckets eth9 -p 146 -f dport --buckets 4 -q 0-x
bad "l4steer: --cpus count differs" "$L" buckets eth9 -p 146 -f dport --buckets 4 -c 0,1
bad "l4steer: bad --cpus" "$L" buckets eth9 -p 146 -f dport --buckets 2 -c 0,99999
bad "l4steer: one queue, two cores" "$L" buckets eth9 -p 146 -f dport --buckets 2 -q 1,1 -c 0,1
bad "l4steer: --map with buckets" "$L" buckets eth9 -p 146 -f dport --buckets 2 --map 1-2:1
bad "l4steer: range without --map" "$L" range eth9 -p 146 -f dport
bad "l4steer: range with --buckets" "$L" range eth9 -p 146 -f dport --buckets 2 --map 1-2:1
bad "l4steer: --map without queue" "$L" range eth9 -p 146 -f dport --map 1000-1999
bad "l4steer: --map without port" "$L" range eth9 -p 146 -f dport --map :2
bad "l4steer: --map single port past 65535" "$L" range eth9 -p 146 -f dport --map 65536:2
bad "l4steer: --map backwards" "$L" range eth9 -p 146 -f dport --map 2000-1000:2
bad "l4steer: --map past 65535" "$L" range eth9 -p 146 -f dport --map 1-70000:2
bad "l4steer: --map bad queue" "$L" range eth9 -p 146 -f dport --map 1-7:q
bad "l4steer: overlapping --map" "$L" range eth9 -p 146 -f dport --map 1-10:1 --map 10-20:2
bad "l4steer: list with --proto" "$L" list eth9 -p 146
bad "l4steer: list --dry-run" "$L" list eth9 --dry-run
bad "l4steer: remove with --buckets" "$L" remove eth9 --buckets 4
bad "l4steer: unknown option" "$L" buckets eth9 --frobnicate
bad "l4steer: option without value" "$L" buckets eth9 -p

###########################################################################
# In namespaces: l4send packets captured on the veth peer, byte for byte;
# rxq-delta and l4steer on real devices that lack the feature.
###########################################################################
unset L4STEER_PROC L4STEER_SYS L4STEER_STATE_DIR

setup_ns()
{
	ip netns add "$NSA" && ip netns add "$NSB" &&
	ip link add va netns "$NSA" type veth peer name vb netns "$NSB" &&
	ip -n "$NSA" link set lo up && ip -n "$NSB" link set lo up &&
	ip -n "$NSA" addr add 192.0.2.1/24 dev va &&
	ip -n "$NSB" addr add 192.0.2.2/24 dev vb &&
	ip -n "$NSA" addr add 2001:db8::1/64 dev va nodad &&
	ip -n "$NSB" addr add 2001:db8::2/64 dev vb nodad &&
	ip -n "$NSA" link set va up && ip -n "$NSB" link set vb up &&
	MACB=$(ip netns exec "$NSB" cat /sys/class/net/vb/address) &&
	ip -n "$NSA" neigh replace 192.0.2.2 lladdr "$MACB" dev va nud permanent &&
	ip -n "$NSA" neigh replace 2001:db8::2 lladdr "$MACB" dev va nud permanent
}

# capture NAME PROTO COUNT -- L4SEND ARGS: send from A, capture on B.
capture()
{
	cname=$1 cproto=$2 ccount=$3
	shift 4
	rm -f "$T/ready"
	ip netns exec "$NSB" "$HERE/tests/capture" vb "$cproto" "$ccount" \
		3000 "$T/ready" >"$T/cap" 2>"$T/caperr" &
	CAPPID=$!
	n=0
	while [ ! -e "$T/ready" ] && [ $n -lt 100 ]; do
		sleep 0.02
		n=$((n + 1))
	done
	ip netns exec "$NSA" ${CAPSEND:-"$S"} "$@" >"$T/sendout" 2>"$T/senderr"
	src=$?
	wait "$CAPPID"
	crc=$?
	CAPPID=
	if [ $src -ne 0 ] || [ $crc -ne 0 ]; then
		fail "$cname" "l4send exit $src, capture exit $crc ($(wc -l <"$T/cap") packets): $(cat "$T/senderr" "$T/caperr")"
		return 1
	fi
	return 0
}

# check_packets NAME FAMILY PROTO HDR PAYLOAD "SPORT:DPORT ..." [OPTS]: the
# captured packets, decoded by scapy (tests/decode.py), against the expected
# header fields and bytes; OPTS --any-order, --frame (see decode.py).
check_packets()
{
	cname=$1 fam=$2
	shift 2
	if [ "$fam" = 4 ]; then a1=192.0.2.1 a2=192.0.2.2; else a1=2001:db8::1 a2=2001:db8::2; fi
	"$PY" "$HERE/tests/decode.py" "$T/cap" "$fam" "$1" "$2" "$3" "$a1" "$a2" \
		"$4" ${5:-} >"$T/dec" 2>&1
	ok "$cname" $? "$(head -c 600 "$T/dec")"
}

if ! command -v ip >/dev/null; then
	skip "namespace tests" "ip (iproute2) not installed"
elif [ "$(id -u)" != 0 ]; then
	skip "namespace tests" "need root for network namespaces"
elif ! setup_ns 2>"$T/nserr"; then
	skip "namespace tests" "cannot create namespaces/veth: $(head -1 "$T/nserr")"
else
	name="l4send: IPv4 raw socket, dport cycling, captured byte for byte"
	capture "$name" 146 8 -- -d 192.0.2.2 -s 192.0.2.1 -p 146 --hdr-len 28 \
		--payload 16 -S 40000 -D 5000 --cycle 4 -n 8 &&
	check_packets "$name" 4 146 28 16 "40000:5000 40000:5001 40000:5002 40000:5003 40000:5000 40000:5001 40000:5002 40000:5003"
	if [ "$(cat "$T/sendout")" = "$(printf 'sent 8 packets, 512 bytes in %s s: %s packets/s' \
		"$(sed 's/.* in \([0-9.]*\) s.*/\1/' "$T/sendout")" \
		"$(sed 's/.*: \([0-9]*\) packets\/s/\1/' "$T/sendout")")" ]; then
		pass "l4send: summary line"
	else
		fail "l4send: summary line" "$(cat "$T/sendout")"
	fi

	name="l4send: IPv6 raw socket, sport range x dport list, captured byte for byte"
	capture "$name" 253 6 -- -d 2001:db8::2 -s 2001:db8::1 -p 253 --hdr-len 8 \
		--payload 5 -S 1000-1001 -D 7,9 -n 6 --json &&
	check_packets "$name" 6 253 8 5 "1000:7 1000:9 1001:7 1001:9 1000:7 1000:9"
	grep -Eq '^\{"packets":6,"bytes":318,"seconds":[0-9.]+,"pps":[0-9.]+,"threads":1,"dropped":0\}$' "$T/sendout"
	ok "l4send: --json summary" $? "$(cat "$T/sendout")"

	# trafgen/l4.cfg, the line-rate sender in place of l4send's old packet and
	# ring modes: l4send's bytes, with a valid IPv4 checksum, DF and TTL 64.
	name="trafgen/l4.cfg: l4send's packets from trafgen, captured byte for byte"
	if ! command -v trafgen >/dev/null; then
		skip "$name" "trafgen (netsniff-ng) not installed"
	elif CAPSEND=trafgen capture "$name" 146 17 -- --cpp -D SRC=192.0.2.1 -D DST=192.0.2.2 \
		-D DMAC="$MACB" -i "$HERE/trafgen/l4.cfg" -o va -n 17 -P 1 -q; then
		check_packets "$name" 4 146 28 0 "$(for d in $(seq 4001 4015) 4000 4001; do echo 32768:$d; done)" --frame
	fi

	# trafgen/l4v6.cfg, the same flow over IPv6: the whole frame, Ethernet header
	# on, byte for byte the one l4send -6 builds for the same flow (its dports in
	# trafgen's order, which starts at 4001), then its fields decoded. The kernel
	# gives raw IPv6 packets an automatic flow label, the config 0, so the sender's
	# namespace has net.ipv6.auto_flowlabels=0 for this check.
	name="trafgen/l4v6.cfg: l4send -6's frames from trafgen, byte for byte from the Ethernet header on"
	name2="trafgen/l4v6.cfg: next header 146, hop limit 64, traffic class and flow label 0, dports in turn"
	if ! command -v trafgen >/dev/null; then
		skip "$name" "trafgen (netsniff-ng) not installed"
		skip "$name2" "trafgen (netsniff-ng) not installed"
	else
		afl=$(ip netns exec "$NSA" sysctl -n net.ipv6.auto_flowlabels)
		ip netns exec "$NSA" sysctl -qw net.ipv6.auto_flowlabels=0
		if CAPTURE_FRAME=1 capture "$name" 146 17 -- -6 -s 2001:db8::1 -d 2001:db8::2 \
			-p 146 -S 32768 -D 4001-4015,4000 -n 17 &&
		   mv "$T/cap" "$T/cap.l4send" &&
		   CAPTURE_FRAME=1 CAPSEND=trafgen capture "$name" 146 17 -- --cpp \
			-D SRC=2001:db8::1 -D DST=2001:db8::2 -D DMAC="$MACB" \
			-i "$HERE/trafgen/l4v6.cfg" -o va -n 17 -P 1 -q; then
			cmp -s "$T/cap.l4send" "$T/cap"
			ok "$name" $? "$(diff "$T/cap.l4send" "$T/cap" | head -4)"
			cut -c29- "$T/cap" >"$T/cap.ip" && mv "$T/cap.ip" "$T/cap"
			check_packets "$name2" 6 146 28 0 "$(for d in $(seq 4001 4015) 4000 4001; do echo 32768:$d; done)" --frame
		else
			skip "$name2" "no frames to decode"
		fi
		ip netns exec "$NSA" sysctl -qw net.ipv6.auto_flowlabels="$afl"
	fi

	name="l4send: 2 threads send the count, all packets well formed"
	if capture "$name" 146 100 -- -d 192.0.2.2 -p 146 --hdr-len 28 --payload 4 \
		-S 1 -D 2-5 -n 100 --threads 2 --batch 7 &&
	   grep -q '^sent 100 packets' "$T/sendout"; then
		check_packets "$name" 4 146 28 4 "$(for i in $(seq 25); do echo 1:2 1:3 1:4 1:5; done)" --any-order
	fi

	# B1: --threads N --duration SEC without --count: every thread sends its share of the
	# pairs (the unlimited count used to leave all but one thread idle).
	name="l4send: --threads 2 --duration without --count, both threads send (all 4 pairs, full rate)"
	rm -f "$T/ready"
	ip netns exec "$NSB" "$HERE/tests/capture" vb 146 100000 1500 "$T/ready" \
		>"$T/cap" 2>"$T/caperr" &
	CAPPID=$!
	n=0
	while [ ! -e "$T/ready" ] && [ $n -lt 100 ]; do sleep 0.02; n=$((n + 1)); done
	ip netns exec "$NSA" "$S" -d 192.0.2.2 -s 192.0.2.1 -p 146 -S 40000 \
		-D 5000 --cycle 4 --threads 2 --duration 0.5 --rate 400 -j >"$T/sendout" 2>"$T/senderr"
	rc=$?
	wait "$CAPPID"
	CAPPID=
	sent=$(sed -n 's/^{"packets":\([0-9]*\),.*/\1/p' "$T/sendout")
	if [ $rc -eq 0 ] && [ "${sent:-0}" -ge 150 ] &&
	   [ "$(wc -l <"$T/cap")" -eq "$sent" ]; then
		check_packets "$name" 4 146 28 0 "40000:5000 40000:5001 40000:5002 40000:5003" --set
	else
		fail "$name" "exit $rc, sent ${sent:-?} (want >= 150 at 400/s for 0.5 s), captured $(wc -l <"$T/cap")"
	fi

	# A packet larger than the MTU is refused before anything is sent.
	for fam in 4 6; do
		if [ $fam = 4 ]; then ad="-s 192.0.2.1 -d 192.0.2.2" l=1453
		else ad="-s 2001:db8::1 -d 2001:db8::2" l=1433; fi
		ip netns exec "$NSA" "$S" $ad --hdr-len 28 --payload $l -n 3 >"$T/out" 2>"$T/err"
		rc=$?
		[ $rc -eq 1 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
			grep -q 'packets of 1501 bytes .* exceed .*(1500); nothing sent' "$T/err"
		ok "l4send: IPv$fam, 1501-byte packet over MTU 1500 refused before sending" $? \
			"exit $rc: $(cat "$T/out" "$T/err")"
	done
	name="l4send: a packet of exactly the MTU is sent"
	capture "$name" 146 2 -- -s 192.0.2.1 -d 192.0.2.2 --hdr-len 28 --payload 1452 -n 2 &&
	check_packets "$name" 4 146 28 1452 "32768:4000 32768:4000"

	# Raw mode: a qdisc that drops everything (pfifo limit 0) answers
	# NET_XMIT_DROP; through IP_RECVERR l4send sees it and counts nothing.
	ip -n "$NSA" link add ve type veth peer name vg &&
	ip -n "$NSA" link set vg up && ip -n "$NSA" link set ve up &&
	ip -n "$NSA" addr add 198.51.100.1/24 dev ve &&
	ip -n "$NSA" neigh replace 198.51.100.2 lladdr 02:00:00:00:00:02 dev ve nud permanent &&
	ip netns exec "$NSA" tc qdisc replace dev ve root pfifo limit 0
	timeout -k 3 5 ip netns exec "$NSA" "$S" -d 198.51.100.2 -n 10 >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 1 ] && grep -Eq '^sent 0 packets, 0 bytes .* [1-9][0-9]* dropped and resent$' "$T/out" &&
		grep -q 'every packet was dropped' "$T/err"
	ok "l4send: raw mode, packets the qdisc dropped are not reported as sent" $? \
		"exit $rc: $(cat "$T/out" "$T/err")"

	# Raw mode, a qdisc that drops some packets (a tbf whose queue holds
	# 4 kB): drops in the middle of a sendmmsg() batch count too, so
	# l4send's "dropped" equals the qdisc's drop counter and every packet
	# counted as sent reaches the peer. 1 kB packets make the tbf drop
	# whenever l4send sends faster than 2,400 packets/s, which even a
	# loaded machine does at --batch 1 (48-byte packets at 40,000/s did
	# not always exceed 20 Mbit/s).
	ip -n "$NSA" link add vh type veth peer name vi &&
	ip netns exec "$NSA" sh -c 'echo 1 >/proc/sys/net/ipv6/conf/vh/disable_ipv6 &&
		echo 1 >/proc/sys/net/ipv6/conf/vi/disable_ipv6' &&
	ip -n "$NSA" link set vi up && ip -n "$NSA" link set vh up &&
	ip -n "$NSA" addr add 203.0.113.1/24 dev vh &&
	ip -n "$NSA" neigh replace 203.0.113.2 lladdr 02:00:00:00:00:02 dev vh nud permanent &&
	ip netns exec "$NSA" tc qdisc replace dev vh root tbf rate 20mbit burst 4kb limit 4kb
	for b in 64 1; do
		rx0=$(ip netns exec "$NSA" cat /sys/class/net/vi/statistics/rx_packets)
		d0=$(ip netns exec "$NSA" tc -s qdisc show dev vh | sed -n 's/.*(dropped \([0-9]*\),.*/\1/p')
		timeout -k 3 20 ip netns exec "$NSA" "$S" -d 203.0.113.2 -p 253 --payload 1000 -n 2000 --batch $b -j >"$T/out" 2>"$T/err"
		rc=$?
		sleep 0.3	# the tbf's queue drains
		rx1=$(ip netns exec "$NSA" cat /sys/class/net/vi/statistics/rx_packets)
		d1=$(ip netns exec "$NSA" tc -s qdisc show dev vh | sed -n 's/.*(dropped \([0-9]*\),.*/\1/p')
		got=$(sed -n 's/.*"dropped":\([0-9]*\)}$/\1/p' "$T/out")
		[ $rc -eq 0 ] && grep -q '^{"packets":2000,' "$T/out" && [ $((rx1 - rx0)) -eq 2000 ] &&
			[ $((d1 - d0)) -gt 0 ] && [ "$got" = $((d1 - d0)) ]
		ok "l4send: raw mode, --batch $b: 'dropped' is exactly the qdisc's drops ($((d1 - d0)))" $? \
			"exit $rc, l4send dropped ${got:-?}, qdisc dropped $((d1 - d0)), peer got $((rx1 - rx0)): $(cat "$T/out" "$T/err")"
	done

	start=$(date +%s%N)
	ip netns exec "$NSA" "$S" -d 192.0.2.2 --rate 200 -n 40 >"$T/out" 2>&1
	rc=$?
	ms=$((($(date +%s%N) - start) / 1000000))
	[ $rc -eq 0 ] && [ $ms -ge 150 ] && [ $ms -lt 2000 ] &&
		grep -q '^sent 40 packets' "$T/out"
	ok "l4send: --rate 200 -n 40 takes about 0.2 s" $? "exit $rc, $ms ms"

	start=$(date +%s%N)
	ip netns exec "$NSA" "$S" -d 192.0.2.2 --duration 0.3 -j >"$T/out" 2>&1
	rc=$?
	ms=$((($(date +%s%N) - start) / 1000000))
	[ $rc -eq 0 ] && [ $ms -ge 250 ] && [ $ms -lt 2000 ] &&
		grep -Eq '^\{"packets":[1-9][0-9]*,' "$T/out"
	ok "l4send: --duration 0.3 stops after about 0.3 s" $? "exit $rc, $ms ms"

	ip netns exec "$NSA" "$S" -d 192.0.2.2 -i nosuchdev -n 1 >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 1 ] && grep -q 'bind to device nosuchdev' "$T/err"
	ok "l4send: unknown --dev is a run-time error (exit 1)" $? "exit $rc"

	# rxq-delta on veth: no per-queue counters, said clearly.
	ip netns exec "$NSB" "$R" snap vb >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 1 ] && grep -Eq 'vb has no per-queue RX packet counters: (netdev qstats: [^;]*; )?ethtool -S: no rxN_packets or rx_queue_N_packets' "$T/err"
	ok "rxq-delta: veth refused with a clear message" $? "exit $rc: $(cat "$T/err")"
	ip netns exec "$NSB" "$R" watch vb -- true >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 1 ] && grep -q 'vb has no per-queue RX packet counters' "$T/err"
	ok "rxq-delta: watch on veth refused" $? "exit $rc"
	ip netns exec "$NSB" "$R" snap -i vb --counters ethtool >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 1 ] && grep -q 'vb has no per-queue RX packet counters: ethtool -S' "$T/err"
	ok "rxq-delta: snap -i DEV is snap DEV" $? "exit $rc: $(cat "$T/err")"
	ip netns exec "$NSB" "$R" snap nosuchdev >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 1 ] && grep -q "no such device 'nosuchdev'" "$T/err"
	ok "rxq-delta: unknown device refused" $? "exit $rc"

	# ifb reports rx_queue_N_packets through the ethtool ioctl.
	if ip -n "$NSB" link add ifbt type ifb 2>/dev/null; then
		ip netns exec "$NSB" "$R" snap ifbt >"$T/out" 2>"$T/err"
		rc=$?
		[ $rc -eq 0 ] && grep -q '^source ethtool$' "$T/out" &&
			grep -q '^rx 0 0$' "$T/out" && grep -q '^time ' "$T/out"
		ok "rxq-delta: live snap through ethtool -S (ifb)" $? "exit $rc $(cat "$T/err")"
		ip netns exec "$NSB" "$R" watch ifbt -- sh -c 'exit 3' >"$T/out" 2>"$T/err"
		rc=$?
		[ $rc -eq 3 ] && grep -q '^total  *0 ' "$T/out"
		ok "rxq-delta: watch runs CMD, prints the table, returns CMD's status" $? "exit $rc"
		ip netns exec "$NSB" "$R" watch ifbt --time 0.1 --json >"$T/out" 2>"$T/err"
		rc=$?
		grep -Eq '^\{"dev":"ifbt","source":"ethtool","interval":0\.[0-9]+,"total":0,"queues":\[\{"queue":0,"packets":0,"share":0\.0\}\]\}$' "$T/out"
		ok "rxq-delta: watch --time --json" $? "exit $rc $(cat "$T/out")"
	else
		skip "rxq-delta: live ethtool-ioctl snap" "cannot create an ifb device (no ifb module)"
		skip "rxq-delta: live watch" "cannot create an ifb device (no ifb module)"
		skip "rxq-delta: live watch --json" "cannot create an ifb device (no ifb module)"
	fi

	# l4steer on veth with the real ethtool: refused, nothing run.
	if command -v ethtool >/dev/null; then
		ip netns exec "$NSA" "$L" buckets va -p 146 -f dport --buckets 4 \
			--state "$T/va.state" >"$T/out" 2>"$T/err"
		rc=$?
		[ $rc -eq 1 ] && [ ! -s "$T/out" ] && [ ! -e "$T/va.state" ] &&
			grep -q 'va does not support ntuple filters (ntuple-filters: off \[fixed\]); refusing' "$T/err"
		ok "l4steer: refuses veth (real ethtool: ntuple-filters off [fixed])" $? "exit $rc: $(cat "$T/err")"
		ip netns exec "$NSA" "$L" buckets va -p 146 -f dport --buckets 4 --dry-run \
			--state "$T/va.state" >"$T/out" 2>"$T/err"
		rc=$?
		[ $rc -eq 0 ] && [ ! -e "$T/va.state" ] &&
			[ "$(grep -c '^ethtool -N va flow-type ip[46] l4proto 146 ' "$T/out")" -eq 8 ] &&
			grep -q 'va does not support ntuple filters (ntuple-filters: off \[fixed\]); dry run' "$T/err"
		ok "l4steer: dry run on veth (real ethtool) prints the plan" $? "exit $rc: $(cat "$T/err")"
	else
		skip "l4steer: refusal on veth" "ethtool not installed (see apt-packages)"
	fi
fi

# Netlink qstats on a real device of this machine (read-only), if any.
qdev=
for d in /sys/class/net/*; do
	d=${d##*/}
	if "$R" snap --counters qstats "$d" >"$T/qsnap" 2>/dev/null; then
		qdev=$d
		break
	fi
done
if [ -n "$qdev" ]; then
	grep -q '^source qstats$' "$T/qsnap" && grep -q '^rx 0 [0-9]' "$T/qsnap"
	ok "rxq-delta: live netdev qstats snap ($qdev)" $?
else
	skip "rxq-delta: live netdev qstats snap" "no device here reports netdev queue stats"
fi

echo "flexl4: $PASSED passed, $FAILED failed, $SKIPPED skipped"
[ "$FAILED" -eq 0 ]
