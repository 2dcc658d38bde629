#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Tests of flexl4-steer, as root: config parsing; apply, re-apply and remove on a recorded mlx5 port
# (sysfs, /proc/interrupts) and on a veth port in a network namespace that comes and goes, with a
# fake ethtool that keeps a rule table; the units under systemd-analyze verify; make install and
# uninstall into a scratch root. Ends with "steer-persist: N passed, N failed, 0 skipped".
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d /tmp/steer-persist.XXXXXX)
NS=steerp-$$
PASSED=0 FAILED=0
cleanup() { ip netns del "$NS" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
pass() { PASSED=$((PASSED + 1)); echo "PASS $1"; }
fail() { FAILED=$((FAILED + 1)); echo "FAIL $1${2:+: $2}"; }
# expect NAME COMMAND-OUTPUT-FILE EXPECTED: the file's lines equal EXPECTED
expect() {
	if [ "$(cat "$2")" = "$3" ]; then pass "$1"
	else fail "$1" "got:
$(cat "$2")
want:
$3"; fi
}

export FLEXL4_STEER_CONF=$T/steer.conf FLEXL4_STEER_STATE=$T/state
export L4STEER=$HERE/../flexl4/l4steer ETHTOOL=$HERE/tests/fake-ethtool
export FAKE_LOG=$T/ethtool.log FAKE_RULES=$T/rules L4STEER_STATE_DIR=$T/l4steer
S=$HERE/flexl4-steer
: >"$FAKE_RULES"

# --- config parsing ---------------------------------------------------------------------------
cat >"$T/steer.conf" <<'CONF'
# comment
dev=eth9 proto=253 field=dport buckets=4 cpus=0-3   # trailing comment

dev=eth9 proto=132 field=sport ranges=1000-1999:2,2000-2999:3 family=4
CONF
"$S" check >"$T/out" 2>"$T/err"; rc=$?
expect "check: each line becomes its l4steer command, the second set after the first's 8 rules" "$T/out" \
"l4steer buckets eth9 -p 253 -f dport --buckets 4 -c 0-3
l4steer range eth9 -p 132 -f sport --map 1000-1999:2 --map 2000-2999:3 -4 --loc 8"
[ $rc -eq 4 ] && [ "$(cat "$T/err")" = "flexl4-steer: eth9: in $T/steer.conf, but no such network device: its ntuple support, channels and IRQs not checked" ] &&
	pass "check: a configured port that is absent: one line, exit 4 (review F5)" || fail "check: absent port" "rc $rc: $(cat "$T/err")"
refused() {	# NAME LINE PATTERN: a config of LINE is refused with one line naming line 2
	printf '# x\n%s\n' "$2" >"$T/bad.conf"
	FLEXL4_STEER_CONF=$T/bad.conf "$S" check >"$T/out" 2>"$T/err"
	rc=$?
	if [ $rc -eq 2 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
	   grep -q "bad.conf:2: .*$3" "$T/err"; then pass "config refused: $1"
	else fail "config refused: $1" "rc $rc: $(cat "$T/out" "$T/err")"; fi
}
refused "unknown word" "dev=eth9 proto=253 field=dport buckets=4 queue=1" "unknown word 'queue=1'"
refused "no dev" "proto=253 field=dport buckets=4" "missing dev="
refused "proto 256" "dev=eth9 proto=256 field=dport buckets=4" "proto="
refused "bad field" "dev=eth9 proto=253 field=port buckets=4" "field="
refused "buckets and ranges" "dev=eth9 proto=253 field=dport buckets=4 ranges=1-2:1" "either buckets"
refused "cpus with ranges" "dev=eth9 proto=253 field=dport ranges=1-2:1 cpus=1" "either buckets"
refused "bad cpu list" "dev=eth9 proto=253 field=dport buckets=4 cpus=0-" "bad list"
refused "bad ranges" "dev=eth9 proto=253 field=dport ranges=1-2" "bad ranges"
# what l4steer refuses, check and apply refuse too, with l4steer's reason (review F9)
refused "buckets=12" "dev=eth9 proto=253 field=dport buckets=12" \
	"l4steer refuses it: bad --buckets '12': want a power of two, 1-1024$"
refused "ranges past 65535" "dev=eth9 proto=253 field=dport ranges=1000-70000:2" \
	"l4steer refuses it: bad --map '1000-70000:2'"
refused "16 buckets on 4 queues" "dev=eth9 proto=253 field=dport buckets=16 queues=0-3" \
	"l4steer refuses it: --queues has 4 entries, want one per bucket (16)$"
refused "queues past channels=" "dev=eth9 proto=253 field=dport buckets=16 channels=8" \
	"queue 15 does not exist with 8 channels (channels=); refusing$"
refused "bad channels" "dev=eth9 proto=253 field=dport buckets=2 channels=0" "bad channels '0'"
printf 'dev=eth9 proto=253 field=dport buckets=2 channels=8\ndev=eth9 proto=132 field=dport buckets=2 channels=4\n' >"$T/bad.conf"
FLEXL4_STEER_CONF=$T/bad.conf "$S" check >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && [ "$(cat "$T/err")" = "flexl4-steer: $T/bad.conf:2: channels=4 for eth9, but an earlier line says channels=8" ] &&
	pass "config refused: two channel counts for one device" || fail "two channel counts" "$(cat "$T/err")"
FLEXL4_STEER_CONF=$T/bad.conf "$S" apply >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && grep -q 'channels=4 for eth9' "$T/err" && pass "apply refuses the same config as check" ||
	fail "apply refuses the same config as check" "$(cat "$T/out" "$T/err")"
echo "dev=eth9 proto=253 field=dport ranges=5000:1,6000-6001:2 channels=16" >"$T/one.conf"
FLEXL4_STEER_CONF=$T/one.conf "$S" check >"$T/out" 2>/dev/null
[ $? -eq 4 ] && grep -q '^l4steer range eth9 -p 253 -f dport --map 5000:1 --map 6000-6001:2$' "$T/out" &&
	pass "ranges=5000:1: a single port is accepted (review F26)" || fail "single port" "$(cat "$T/out")"
refused "bad family" "dev=eth9 proto=253 field=dport buckets=2 family=5" "bad family"
# mlx5 has locations 0-1023: the sets of a port, one after the other, must fit there
printf 'dev=eth9 proto=253 field=dport buckets=256\ndev=eth9 proto=132 field=dport buckets=256 family=4\ndev=eth9 proto=17 field=dport buckets=256\n' >"$T/bad.conf"
FLEXL4_STEER_CONF=$T/bad.conf "$S" check >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && [ ! -s "$T/out" ] && [ "$(cat "$T/err")" = "flexl4-steer: $T/bad.conf:3: l4steer refuses it: the 512 rules from location 768 would end at 1279, past mlx5's last location 1023: plan fewer rules (-4 or -6, fewer buckets) or a lower --loc" ] &&
	pass "config refused: a set whose rules would pass location 1023 after the sets before it" ||
	fail "a set past location 1023" "rc $rc: $(cat "$T/err")"
printf 'dev=eth9 proto=253 field=dport buckets=512\ndev=eth9 proto=132 field=dport buckets=2\n' >"$T/bad.conf"
FLEXL4_STEER_CONF=$T/bad.conf "$S" check >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && [ "$(cat "$T/err")" = "flexl4-steer: $T/bad.conf:2: the lines before take eth9's locations 0-1023: none is left for this one (mlx5 has 0-1023)" ] &&
	pass "config refused: no location left after 1024 rules" || fail "no location left" "rc $rc: $(cat "$T/err")"
FLEXL4_STEER_CONF=$T/none "$S" apply >/dev/null 2>&1
[ $? -eq 2 ] && pass "no config: exit 2" || fail "no config: exit 2"

"$S" --help >"$T/out" 2>"$T/err"
[ $? -eq 0 ] && [ ! -s "$T/err" ] && grep -q '^    flexl4-steer resume' "$T/out" && grep -q '^    0 done, .* 4 no such device' "$T/out" &&
	pass "--help: the whole usage on stdout, exit 0" || fail "--help" "$(cat "$T/err")"
for a in "apply --bogus" "apply eth9 -x" "remove --force"; do
	"$S" $a >"$T/out" 2>"$T/err"
	[ $? -eq 2 ] && [ ! -s "$T/out" ] && [ "$(cat "$T/err")" = "flexl4-steer: unknown option '${a##* }' (flexl4-steer --help)" ] &&
		pass "$a: one line on stderr, exit 2" || fail "$a" "$(cat "$T/err")"
done
"$S" frobnicate >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && [ ! -s "$T/out" ] &&
	[ "$(cat "$T/err")" = "flexl4-steer: unknown command 'frobnicate': want apply, remove, resume, check or status (flexl4-steer --help)" ] &&
	pass "unknown command: one line on stderr, exit 2 (review F25)" || fail "unknown command" "$(cat "$T/err")"
"$S" --version >"$T/out" 2>&1
[ $? -eq 0 ] && [ "$(cat "$T/out")" = "flexl4-steer $(cat "$HERE/../VERSION")" ] &&
	pass "--version" || fail "--version" "$(cat "$T/out")"
# not root: its own line and exit code, before anything is read or written (review F25)
mkdir -m 755 "$T/nr" && cp "$S" "$T/nr/" && chmod 755 "$T" "$T/nr/flexl4-steer"
for c in apply remove resume; do
	FLEXL4_STEER_STATE=$T/nr/state setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$T/nr/flexl4-steer" $c >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 3 ] && [ ! -s "$T/out" ] && [ ! -e "$T/nr/state" ] &&
		[ "$(cat "$T/err")" = "flexl4-steer: $c changes rules, channels and IRQ affinities: run it as root" ] &&
		pass "$c as non-root: one line, exit 3" || fail "$c as non-root" "rc $rc: $(cat "$T/out" "$T/err")"
done
chmod 700 "$T"

# --- a recorded mlx5 port: eth9 at 0000:08:00.0 ----------------------------------------------
mkdir -p "$T/sys/class/net/eth9" "$T/proc"
ln -s ../../../devices/pci0000:00/0000:08:00.0 "$T/sys/class/net/eth9/device"
cp "$HERE/tests/data/interrupts" "$T/proc/interrupts"
for irq in $(seq 39 60); do mkdir -p "$T/proc/irq/$irq"; echo 0-1 >"$T/proc/irq/$irq/smp_affinity_list"; done
export L4STEER_SYS=$T/sys L4STEER_PROC=$T/proc
affinity() { for i in 40 41 42 43; do cat "$T/proc/irq/$i/smp_affinity_list"; done | paste -sd' '; }

"$S" apply >"$T/out" 2>&1; rc=$?
expect "apply: one line per rule set" "$T/out" \
"flexl4-steer: eth9: applied l4steer buckets eth9 -p 253 -f dport --buckets 4 -c 0-3 (8 rules)
flexl4-steer: eth9: applied l4steer range eth9 -p 132 -f sport --map 1000-1999:2 --map 2000-2999:3 -4 --loc 8 (15 rules)"
[ $rc -eq 0 ] && [ "$(wc -l <"$FAKE_RULES")" -eq 23 ] && pass "apply: 23 rules in the device's table" ||
	fail "apply: 23 rules in the device's table" "rc $rc, $(wc -l <"$FAKE_RULES") rules"
[ "$(affinity)" = "0 1 2 3" ] && pass "apply: queue k's IRQ on CPU k" || fail "apply: IRQs" "$(affinity)"
grep -q '^0 flow-type ip4 l4proto 253 l4data 0x0 m 0xfffffffc action 0$' "$FAKE_RULES" &&
	grep -q '^8 flow-type ip4 l4proto 132 l4data 0x3e80000 m 0x0007ffff action 2$' "$FAKE_RULES" &&
	pass "apply: the rules are l4steer's, at locations 0-7 and 8-22" || fail "apply: the rules are l4steer's" "$(head -n2 "$FAKE_RULES")"

cp "$FAKE_RULES" "$T/rules.before"
: >"$FAKE_LOG"
"$S" apply >"$T/out" 2>&1; rc=$?
[ $rc -eq 0 ] && [ ! -s "$T/out" ] && cmp -s "$FAKE_RULES" "$T/rules.before" &&
	[ -z "$(grep -v '^-n eth9$' "$FAKE_LOG")" ] &&
	pass "apply again: silent, changes nothing, only reads 'ethtool -n'" ||
	fail "apply again is not idempotent" "rc $rc: $(cat "$T/out" "$FAKE_LOG")"

: >"$FAKE_RULES"	# a firmware reset: the netdev stays, its rules are gone, IRQs reset
for i in 40 41 42 43; do echo 0-1 >"$T/proc/irq/$i/smp_affinity_list"; done
"$S" apply >"$T/out" 2>&1
expect "after a firmware reset: applied again, one line per set" "$T/out" \
"flexl4-steer: eth9: applied l4steer buckets eth9 -p 253 -f dport --buckets 4 -c 0-3 (8 rules, again: its rules had gone (driver reload or firmware reset))
flexl4-steer: eth9: applied l4steer range eth9 -p 132 -f sport --map 1000-1999:2 --map 2000-2999:3 -4 --loc 8 (15 rules, again: its rules had gone (driver reload or firmware reset))"
[ "$(wc -l <"$FAKE_RULES")" -eq 23 ] && [ "$(affinity)" = "0 1 2 3" ] &&
	pass "after a firmware reset: 23 rules and the IRQ pinning back" || fail "after reset" "$(affinity)"

sed -i 's/buckets=4 cpus=0-3/buckets=2/' "$T/steer.conf"	# the operator edits the config
"$S" apply >"$T/out" 2>&1
expect "config edited: the old set removed, the new one applied, the next set moved up after it" "$T/out" \
"flexl4-steer: eth9: removed l4steer range eth9 -p 132 -f sport --map 1000-1999:2 --map 2000-2999:3 -4 --loc 8 (no longer in $T/steer.conf)
flexl4-steer: eth9: removed l4steer buckets eth9 -p 253 -f dport --buckets 4 -c 0-3 (no longer in $T/steer.conf)
flexl4-steer: eth9: applied l4steer buckets eth9 -p 253 -f dport --buckets 2 (4 rules)
flexl4-steer: eth9: applied l4steer range eth9 -p 132 -f sport --map 1000-1999:2 --map 2000-2999:3 -4 --loc 4 (15 rules)"
[ "$(wc -l <"$FAKE_RULES")" -eq 19 ] && [ "$(affinity)" = "0-1 0-1 0-1 0-1" ] &&
	pass "config edited: 19 rules, IRQ affinities restored" ||
	fail "config edited" "$(wc -l <"$FAKE_RULES") rules, $(affinity)"

"$S" status >"$T/out" 2>&1; rc=$?
[ $rc -eq 0 ] && [ "$(head -n1 "$T/out")" = "eth9: applied: 2 of 2 sets, 19 rules" ] &&
	grep -q '^== buckets eth9 -p 253 -f dport --buckets 2$' "$T/out" && grep -q '^rule 0: ' "$T/out" &&
	pass "status: one line per port, then each set and its rules" || fail "status" "rc $rc: $(head -3 "$T/out")"

"$S" remove >"$T/out" 2>&1; rc=$?
[ $rc -eq 0 ] && [ "$(wc -l <"$T/out")" -eq 3 ] && [ ! -s "$FAKE_RULES" ] &&
	[ -z "$(ls "$T/state" | grep "\.state$")" ] &&
	grep -q "^flexl4-steer: eth9: paused: apply, udev and the timer leave it alone until 'flexl4-steer resume eth9'" "$T/out" &&
	pass "remove: one line per set and the pause, no rule and no state left" || fail "remove" "rc $rc: $(cat "$T/out")"
# a deliberate remove is not undone by the timer's check, nor by udev's apply (review F7)
FLEXL4_STEER_BACKOFF=600 "$S" apply >"$T/out" 2>&1; rc=$?
[ $rc -eq 0 ] && [ ! -s "$T/out" ] && [ ! -s "$FAKE_RULES" ] &&
	pass "paused: the timer's run applies nothing, silently" || fail "paused: timer" "rc $rc: $(cat "$T/out")"
"$S" apply eth9 >"$T/out" 2>&1; rc=$?
[ $rc -eq 0 ] && [ ! -s "$FAKE_RULES" ] && grep -q "^flexl4-steer: eth9: paused by 'flexl4-steer remove' at .*: nothing applied ('flexl4-steer resume eth9' ends the pause)$" "$T/out" &&
	pass "paused: 'apply eth9' (udev) applies nothing and says why" || fail "paused: apply eth9" "rc $rc: $(cat "$T/out")"
"$S" status >"$T/out" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q "^eth9: paused since .* ('flexl4-steer resume eth9' ends it)$" "$T/out" && [ "$(wc -l <"$T/out")" -eq 1 ] &&
	pass "paused, nothing installed: status prints the port's line (review F27)" || fail "paused: status" "$(cat "$T/out")"
"$S" resume eth9 >"$T/out" 2>&1; rc=$?
[ $rc -eq 0 ] && [ "$(head -n1 "$T/out")" = "flexl4-steer: eth9: pause ended" ] && [ "$(wc -l <"$T/out")" -eq 3 ] &&
	[ "$(wc -l <"$FAKE_RULES")" -eq 19 ] && [ ! -e "$T/state/eth9.paused" ] &&
	pass "resume: the pause ends and the rules come back" || fail "resume" "rc $rc: $(cat "$T/out")"
"$S" remove eth9 >/dev/null 2>&1
"$S" apply --force >"$T/out" 2>&1; rc=$?
[ $rc -eq 0 ] && [ "$(head -n1 "$T/out")" = "flexl4-steer: eth9: pause ended" ] && [ "$(wc -l <"$FAKE_RULES")" -eq 19 ] &&
	pass "apply --force ends the pause too" || fail "apply --force" "rc $rc: $(cat "$T/out")"
mv "$T/steer.conf" "$T/steer.conf.away"	# remove works without a (valid) config
"$S" remove >"$T/out" 2>&1; rc=$?
[ $rc -eq 0 ] && [ "$(wc -l <"$T/out")" -eq 3 ] && [ ! -s "$FAKE_RULES" ] &&
	pass "remove without a config: still removes everything" || fail "remove without a config" "rc $rc: $(cat "$T/out")"
mv "$T/steer.conf.away" "$T/steer.conf"

# channels= and IRQ affinity come back, as the rules do (review F7)
echo "dev=eth9 proto=253 field=dport buckets=4 cpus=0-3 channels=16" >"$T/steer.conf"
echo 8 >"$T/channels"; export FAKE_CHANNELS=$T/channels
"$S" resume >"$T/out" 2>&1; rc=$?
expect "channels=16 on 8 channels: set first, then the rules" "$T/out" \
"flexl4-steer: eth9: pause ended
flexl4-steer: eth9: channels: combined 16 (was 8)
flexl4-steer: eth9: applied l4steer buckets eth9 -p 253 -f dport --buckets 4 -c 0-3 (8 rules)"
echo 63 >"$T/channels"; : >"$FAKE_RULES"	# a reboot: the driver's default channel count, no rules
for i in 40 41 42 43; do echo 0-1 >"$T/proc/irq/$i/smp_affinity_list"; done
"$S" apply >"$T/out" 2>&1
expect "after a reboot: channels, rules and IRQ affinity back" "$T/out" \
"flexl4-steer: eth9: forgot l4steer buckets eth9 -p 253 -f dport --buckets 4 -c 0-3, whose rules are gone (the channel count changes)
flexl4-steer: eth9: channels: combined 16 (was 63)
flexl4-steer: eth9: applied l4steer buckets eth9 -p 253 -f dport --buckets 4 -c 0-3 (8 rules)"
[ "$(cat "$T/channels")" = 16 ] && [ "$(wc -l <"$FAKE_RULES")" -eq 8 ] && [ "$(affinity)" = "0 1 2 3" ] &&
	pass "after a reboot: 16 channels, 8 rules, queue k's IRQ on CPU k" ||
	fail "after a reboot" "$(cat "$T/channels") channels, $(wc -l <"$FAKE_RULES") rules, IRQs $(affinity)"
echo 0-1 >"$T/proc/irq/41/smp_affinity_list"	# irqbalance moves one IRQ
"$S" apply >"$T/out" 2>&1
expect "an IRQ moved (irqbalance): the set is applied again" "$T/out" \
"flexl4-steer: eth9: applied l4steer buckets eth9 -p 253 -f dport --buckets 4 -c 0-3 (8 rules, again: IRQ 41 of queue 1 was on CPUs 0-1, not 1 (irqbalance? see README))"
[ "$(affinity)" = "0 1 2 3" ] && [ "$(wc -l <"$FAKE_RULES")" -eq 8 ] &&
	pass "an IRQ moved: every IRQ back on its core, 8 rules" || fail "IRQ moved" "$(affinity)"
: >"$FAKE_LOG"
"$S" apply >"$T/out" 2>&1
[ ! -s "$T/out" ] && [ "$(cat "$FAKE_LOG")" = "-l eth9
-n eth9" ] && pass "nothing missing: silent; reads only 'ethtool -l' and '-n'" || fail "idempotent with channels" "$(cat "$T/out" "$FAKE_LOG")"
echo 63 >"$T/channels"	# the operator changes the channel count by hand
"$S" apply >"$T/out" 2>&1
expect "channels changed by hand: the set removed, channels set, the set applied" "$T/out" \
"flexl4-steer: eth9: removed l4steer buckets eth9 -p 253 -f dport --buckets 4 -c 0-3 (the channel count changes)
flexl4-steer: eth9: channels: combined 16 (was 63)
flexl4-steer: eth9: applied l4steer buckets eth9 -p 253 -f dport --buckets 4 -c 0-3 (8 rules)"
echo "dev=eth9 proto=253 field=dport buckets=64 channels=64" >"$T/steer.conf"
"$S" apply >"$T/out" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q '^flexl4-steer: eth9: FAILED ethtool -L eth9 combined 64: netlink error: Invalid argument$' "$T/out" &&
	pass "channels the device refuses: one FAILED line, exit 1" || fail "channels refused" "rc $rc: $(cat "$T/out")"
FLEXL4_STEER_BACKOFF=600 "$S" apply >"$T/out" 2>&1; rc=$?
[ $rc -eq 0 ] && [ ! -s "$T/out" ] &&
	pass "the timer's run: a refused channel count is not retried (nor logged) within the backoff (review F10)" ||
	fail "channels backoff" "rc $rc: $(cat "$T/out")"
"$S" apply >"$T/out" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q 'FAILED ethtool -L eth9 combined 64' "$T/out" &&
	pass "channels: a run by hand retries at once" || fail "channels: no backoff by hand" "rc $rc: $(cat "$T/out")"
"$S" remove >/dev/null 2>&1; rm -f "$T/state/eth9.paused" "$T/state/"*.failed
unset FAKE_CHANNELS

"$S" apply nosuchdev0 >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 4 ] && [ ! -s "$T/out" ] && [ "$(cat "$T/err")" = "flexl4-steer: nosuchdev0: no such network device, and not in $T/steer.conf" ] &&
	pass "apply of an unknown device: one line, exit 4" || fail "unknown device" "rc $rc: $(cat "$T/out" "$T/err")"

echo "dev=eth9 proto=253 field=dport buckets=2" >"$T/steer.conf"
FAKE_NTUPLE='off [fixed]' "$S" apply >"$T/out" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q '^flexl4-steer: eth9: FAILED l4steer buckets .*ntuple' "$T/out" &&
	[ "$(wc -l <"$T/out")" -eq 1 ] && [ -z "$(ls "$T/state" | grep "\.state$")" ] &&
	pass "a refused apply: one FAILED line with l4steer's reason, exit 1, no state" ||
	fail "a refused apply" "rc $rc: $(cat "$T/out")"
FAKE_NTUPLE='off [fixed]' FLEXL4_STEER_BACKOFF=600 "$S" apply >"$T/out" 2>&1; rc=$?
[ $rc -eq 0 ] && [ ! -s "$T/out" ] && pass "the timer's run: a failed set is not retried (nor logged) within the backoff" ||
	fail "backoff" "rc $rc: $(cat "$T/out")"
FAKE_NTUPLE='off [fixed]' "$S" apply >"$T/out" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q FAILED "$T/out" && pass "a run by hand or by udev retries at once" || fail "no backoff" "rc $rc"
FAKE_NTUPLE='off [fixed]' "$S" check >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && [ "$(cat "$T/err")" = "flexl4-steer: eth9 cannot take it: eth9 does not support ntuple filters (ntuple-filters: off [fixed])" ] &&
	pass "check: a present port that cannot take a line: l4steer's reason without its dry-run wording (review F16)" ||
	fail "check: cannot take it" "rc $rc: $(cat "$T/err")"
rm -f "$T/state/"*.failed
FAKE_ETHTOOL_FAIL=1 "$S" apply >"$T/out" 2>&1; rc=$?
expect "a rule the driver refuses: the FAILED line carries ethtool's errno text (review F24)" "$T/out" \
"flexl4-steer: eth9: FAILED l4steer buckets eth9 -p 253 -f dport --buckets 2: '$ETHTOOL -N eth9 flow-type ip4 l4proto 253 l4data 0x0 m 0xfffffffe action 0 loc 0' failed (Invalid argument): the driver's reason is in dmesg (docs/operator-guide.md, \"Kernel messages\"); undoing what was installed"
rm -f "$T/state/"*.failed
# 'ethtool -n' is the truth (tools review F1): Debian 12's ethtool 6.1 prints the kernel's refusal
# and exits 0. Nothing is "applied" that 'ethtool -n' does not list, and status counts its rules.
: >"$FAKE_RULES"
FAKE_ETHTOOL_FAIL=1 FAKE_ETHTOOL_FAIL_EXIT=0 FAKE_ETHTOOL_ERR="Operation not supported" "$S" apply >"$T/out" 2>&1; rc=$?
[ $rc -eq 1 ] && [ ! -s "$FAKE_RULES" ] && [ -z "$(ls "$T/state" | grep "\.state$")" ] &&
	expect "a refusal that ethtool exits 0 for (Debian 12): FAILED with the kernel's errno text, exit 1" "$T/out" \
"flexl4-steer: eth9: FAILED l4steer buckets eth9 -p 253 -f dport --buckets 2: '$ETHTOOL -N eth9 flow-type ip4 l4proto 253 l4data 0x0 m 0xfffffffe action 0 loc 0' failed (Operation not supported): the driver's reason is in dmesg (docs/operator-guide.md, \"Kernel messages\"); undoing what was installed" ||
	fail "a refusal that ethtool exits 0 for" "rc $rc, $(wc -l <"$FAKE_RULES") rules: $(cat "$T/out")"
"$S" status >"$T/out" 2>&1; rc=$?
[ $rc -eq 0 ] &&
	expect "status after that refusal: 0 sets, 0 rules" "$T/out" "eth9: not applied: 0 of 1 sets, 0 rules ('flexl4-steer apply eth9')" ||
	fail "status after that refusal: exit $rc"
rm -f "$T/state/"*.failed
# an l4steer that reports rules 'ethtool -n' does not list (as v4's did with ethtool 6.1)
printf '%s\n' '#!/bin/sh' "case \" \$* \" in *' --dry-run '*) exec $HERE/../flexl4/l4steer \"\$@\" ;; esac" \
	'case "$1" in remove) exit 0 ;; esac' \
	'while [ $# -gt 1 ]; do [ "$1" = --state ] && st=$2; shift; done' \
	'echo "rule 0 flow-type ip4 l4proto 253 l4data 0x0 m 0xfffffffe action 0" >"$st"' \
	'echo "rule 1 flow-type ip4 l4proto 253 l4data 0x1 m 0xfffffffe action 1" >>"$st"' >"$T/l4steer-61"
chmod +x "$T/l4steer-61"
L4STEER=$T/l4steer-61 "$S" apply >"$T/out" 2>&1; rc=$?
[ $rc -eq 1 ] && [ -z "$(ls "$T/state" | grep "\.state$")" ] &&
	expect "l4steer says installed, 'ethtool -n' lists none: FAILED, not applied, exit 1" "$T/out" \
"flexl4-steer: eth9: FAILED l4steer buckets eth9 -p 253 -f dport --buckets 2: '$ETHTOOL -n eth9' lists 0 of its 2 rules" ||
	fail "l4steer says installed, none listed" "rc $rc: $(cat "$T/out")"
rm -f "$T/state/"*.failed
"$S" apply >/dev/null 2>&1 && : >"$FAKE_RULES" && "$S" status >"$T/out" 2>&1; rc=$?
[ $rc -eq 0 ] && [ "$(head -n2 "$T/out")" = "eth9: not applied: 0 of 1 sets, 0 rules ('flexl4-steer apply eth9')
eth9: 1 set(s) recorded as applied, but 'ethtool -n eth9' does not list all their rules (driver reload or firmware reset?): 'flexl4-steer apply eth9' installs them again" ] &&
	pass "status: rules gone from 'ethtool -n' count 0, the recorded set named" || fail "status after a reset" "rc $rc: $(cat "$T/out")"
"$S" apply >"$T/out" 2>&1; rc=$?
[ $rc -eq 0 ] && [ "$(wc -l <"$FAKE_RULES")" -eq 4 ] &&
	expect "apply after the reset installs them again" "$T/out" \
"flexl4-steer: eth9: applied l4steer buckets eth9 -p 253 -f dport --buckets 2 (4 rules, again: its rules had gone (driver reload or firmware reset))" ||
	fail "apply after a reset" "rc $rc: $(cat "$T/out")"
"$S" remove >/dev/null 2>&1; rm -f "$T/state/eth9.paused"; : >"$FAKE_RULES"

# README steps 4 and 5 in order (review F2): l4steer by hand, then flexl4-steer apply of the same
# set: the rules are kept, not installed twice
echo "dev=eth9 proto=253 field=dport buckets=16 cpus=0-15 channels=16" >"$T/steer.conf"
: >"$FAKE_RULES"; : >"$FAKE_LOG"
"$L4STEER" buckets eth9 -p 253 -f dport --buckets 16 -c 0-15 >"$T/out" 2>&1
"$S" apply >"$T/out" 2>&1; rc=$?
[ $rc -eq 0 ] && [ "$(wc -l <"$FAKE_RULES")" -eq 32 ] && [ "$(grep -c '^-N eth9 flow-type' "$FAKE_LOG")" -eq 32 ] &&
	[ "$(cat "$T/out")" = "flexl4-steer: eth9: kept l4steer buckets eth9 -p 253 -f dport --buckets 16 -c 0-15: its 32 rules were already installed at their locations (by l4steer by hand?); flexl4-steer keeps them now" ] &&
	pass "steps 4 then 5: 32 rules, not 64; flexl4-steer says it keeps them (review F2)" ||
	fail "steps 4 then 5" "rc $rc, $(wc -l <"$FAKE_RULES") rules, $(grep -c '^-N eth9 flow-type' "$FAKE_LOG") -N: $(cat "$T/out")"
"$S" apply >"$T/out" 2>&1; rc=$?
[ $rc -eq 0 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$FAKE_RULES")" -eq 32 ] &&
	pass "steps 4 then 5, apply again: silent, still 32 rules" || fail "steps 4 then 5 again" "rc $rc: $(cat "$T/out")"
"$S" remove eth9 >"$T/out" 2>&1
"$L4STEER" remove eth9 >"$T/out2" 2>&1; rc=$?
[ ! -s "$FAKE_RULES" ] && [ $rc -eq 0 ] && [ "$(cat "$T/out2")" = "removed 0 rules, 16 IRQ settings from eth9 (32 more were gone already)" ] &&
	pass "then flexl4-steer remove and l4steer remove: no rule left, no ethtool error" || fail "remove both" "rc $rc: $(cat "$T/out" "$T/out2")"
rm -f "$T/state/eth9.paused"
printf '%s\n' '3 other tcp4' >"$FAKE_RULES"	# another tool's rule where the set goes
"$S" apply >"$T/out" 2>&1; rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$FAKE_RULES")" -eq 1 ] &&
	grep -q "^flexl4-steer: eth9: FAILED l4steer buckets eth9 -p 253 -f dport --buckets 16 -c 0-15: locations 0-31 of eth9 hold 1 other rule (3: TCP over IPv4): see '.*-n eth9'; delete it " "$T/out" &&
	pass "another tool's rule at the set's locations: FAILED, naming it, nothing installed" || fail "other rule" "rc $rc: $(cat "$T/out")"
: >"$FAKE_RULES"; rm -f "$T/state/"*.failed

# a configured port that is absent (review F5): apply PORT, check, status say so, exit 4
echo "dev=eth7 proto=253 field=dport buckets=2" >>"$T/steer.conf"
"$S" apply eth7 >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 4 ] && [ ! -s "$T/out" ] && [ "$(cat "$T/err")" = "flexl4-steer: eth7: in $T/steer.conf, but no such network device: nothing applied" ] &&
	pass "apply of a configured port that is absent: one line, exit 4" || fail "apply eth7" "rc $rc: $(cat "$T/out" "$T/err")"
"$S" apply >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 4 ] && [ "$(wc -l <"$FAKE_RULES")" -eq 32 ] && [ "$(cat "$T/err")" = "flexl4-steer: eth7: in $T/steer.conf, but no such network device: nothing applied" ] &&
	pass "apply: the present port applied, the absent one named, exit 4" || fail "apply with eth7 absent" "rc $rc: $(cat "$T/out" "$T/err")"
"$S" status >"$T/out" 2>&1; rc=$?
[ $rc -eq 4 ] && [ "$(head -n2 "$T/out")" = "eth9: applied: 1 of 1 sets, 32 rules
eth7: absent: in $T/steer.conf, but no such network device" ] &&
	pass "status: one line per configured port (applied, absent), exit 4" || fail "status with eth7 absent" "rc $rc: $(cat "$T/out")"
"$S" remove >/dev/null 2>&1; rm -f "$T/state/eth9.paused"
"$S" status >"$T/out" 2>&1; rc=$?
[ $rc -eq 4 ] && [ "$(cat "$T/out")" = "eth9: not applied: 0 of 1 sets, 0 rules ('flexl4-steer apply eth9')
eth7: absent: in $T/steer.conf, but no such network device" ] &&
	pass "status with nothing installed: still one line per port (review F27)" || fail "status, nothing installed" "rc $rc: $(cat "$T/out")"
echo "dev=eth9 proto=253 field=dport buckets=2" >"$T/steer.conf"
unset L4STEER_SYS L4STEER_PROC

# --- a veth port that comes and goes (modprobe -r / modprobe), in a network namespace ---------
if ip netns add "$NS" 2>/dev/null; then
	echo "dev=va proto=146 field=dport buckets=4" >"$T/steer.conf"
	: >"$FAKE_RULES"
	in_ns() { ip netns exec "$NS" "$@"; }
	in_ns "$S" apply >"$T/out" 2>&1; rc=$?
	[ $rc -eq 4 ] && [ ! -s "$FAKE_RULES" ] &&
		[ "$(cat "$T/out")" = "flexl4-steer: va: in $T/steer.conf, but no such network device: nothing applied" ] &&
		pass "netns: a configured port not there yet: one line, exit 4 (review F5)" || fail "netns: no port" "rc $rc: $(cat "$T/out")"
	FLEXL4_STEER_BACKOFF=600 in_ns "$S" apply >"$T/out" 2>&1; rc=$?
	[ $rc -eq 4 ] && [ ! -s "$T/out" ] &&
		pass "netns: the timer's run within the backoff: exit 4, nothing logged again" || fail "netns: absent, backoff" "rc $rc: $(cat "$T/out")"
	in_ns "$S" apply va >"$T/out" 2>&1; rc=$?
	[ $rc -eq 4 ] && [ "$(cat "$T/out")" = "flexl4-steer: va: in $T/steer.conf, but no such network device: nothing applied" ] &&
		pass "netns: 'apply va' of the absent port: one line, exit 4" || fail "netns: apply va absent" "rc $rc: $(cat "$T/out")"
	in_ns "$S" status >"$T/out" 2>&1; rc=$?
	[ $rc -eq 4 ] && [ "$(cat "$T/out")" = "va: absent: in $T/steer.conf, but no such network device" ] &&
		pass "netns: status of the absent port: its line, exit 4" || fail "netns: status absent" "rc $rc: $(cat "$T/out")"
	in_ns ip link add va type veth peer name vb
	in_ns "$S" apply va >"$T/out" 2>&1	# what flexl4-steer@va.service runs when va appears
	expect "netns: the port appears: applied" "$T/out" \
		"flexl4-steer: va: applied l4steer buckets va -p 146 -f dport --buckets 4 (8 rules)"
	in_ns ip link del va; : >"$FAKE_RULES"	# the driver goes away, and its rules with it
	in_ns "$S" remove va >"$T/out" 2>&1	# ExecStop, when systemd sees the port go
	expect "netns: the port goes: its state is forgotten" "$T/out" \
		"flexl4-steer: va: forgot l4steer buckets va -p 146 -f dport --buckets 4, whose rules are gone (asked to)"
	in_ns ip link add va type veth peer name vb
	in_ns "$S" apply va >"$T/out" 2>&1
	expect "netns: the port comes back: applied again" "$T/out" \
		"flexl4-steer: va: applied l4steer buckets va -p 146 -f dport --buckets 4 (8 rules)"
	[ "$(wc -l <"$FAKE_RULES")" -eq 8 ] && pass "netns: 8 rules once more" || fail "netns: rules"
else
	fail "netns: cannot create a network namespace (run as root)"
fi

# --- the units and the udev rule ----------------------------------------------------------------
U=$T/units
mkdir -p "$U"
for u in flexl4-steer@.service flexl4-steer.service flexl4-steer.timer; do
	sed -e "s#/usr/local/sbin/flexl4-steer#$S#" \
		-e "s#/usr/local/sbin/flexl4-loaded#$HERE/../../tools/flexl4/flexl4-loaded#" "$HERE/$u" >"$U/$u"
done
# the instance systemd makes from a port's sysfs path (udev's bare template); %i.device is that
# port's device unit. A PCI port's path has ':', which systemd 252's 'systemd-analyze verify'
# cannot process in an instance ("Couldn't process aliases"; systemd itself takes it, as in
# systemd-backlight@backlight:acpi_video0.service), so verify runs on a virtual port's instance.
P9=/sys/devices/pci0000:00/0000:00:02.0/0000:08:00.0/net/eth9
[ "$(systemd-escape --path --template=flexl4-steer@.service "$P9")" = \
  'flexl4-steer@sys-devices-pci0000:00-0000:00:02.0-0000:08:00.0-net-eth9.service' ] &&
	pass "a PCI port's instance is its escaped sysfs path" || fail "PCI port instance"
I9=$(systemd-escape --path --template=flexl4-steer@.service /sys/devices/virtual/net/eth9)
ln -s flexl4-steer@.service "$U/$I9"
if (cd "$U" && systemd-analyze verify "./$I9" ./flexl4-steer.service \
	./flexl4-steer.timer) >"$T/out" 2>&1; then pass "systemd-analyze verify: the three units ($I9)"
else fail "systemd-analyze verify" "$(cat "$T/out")"; fi
sed "s#^ExecStart=$S#ExecStart=$T/missing#" "$U/flexl4-steer.service" >"$U/broken.service"
(cd "$U" && systemd-analyze verify ./broken.service) >/dev/null 2>&1 &&
	fail "systemd-analyze verify catches a broken unit" || pass "systemd-analyze verify catches a broken unit"
grep -q '^ACTION=="add", SUBSYSTEM=="net", DRIVERS=="mlx5_core", TAG+="systemd", ENV{SYSTEMD_WANTS}+="flexl4-steer@.service"$' \
	"$HERE/99-flexl4-steer.rules" && pass "udev rule: an added mlx5 port wants flexl4-steer@<its sysfs path>" ||
	fail "udev rule"
grep -q '^BindsTo=%i.device$' "$HERE/flexl4-steer@.service" &&
	grep -q "^ExecStart=/usr/local/sbin/flexl4-steer apply %f$" "$HERE/flexl4-steer@.service" &&
	grep -q "^ExecStop=/usr/local/sbin/flexl4-steer remove %f$" "$HERE/flexl4-steer@.service" &&
	pass "the port's unit: bound to the port's device unit, applies and removes %f" || fail "unit specifiers"
grep -q '^ExecStartPre=-/usr/local/sbin/flexl4-loaded$' "$HERE/flexl4-steer@.service" &&
	pass "the port's unit: says first whether the loaded mlx5_core is ours (failure ignored)" ||
	fail "the port's unit runs no flexl4-loaded"
# A port named with '-' (review F27): the instance escapes it, %f gives the path back
PH=/sys/devices/virtual/net/homa-rx
IH=$(systemd-escape --path --template=flexl4-steer@.service "$PH")
i=${IH#flexl4-steer@}; i=${i%.service}
[ "$IH" = 'flexl4-steer@sys-devices-virtual-net-homa\x2drx.service' ] &&
	[ "$(systemd-escape -u --path "$i")" = "$PH" ] &&
	pass "a port named homa-rx: the instance escapes the '-', %f is its sysfs path" || fail "homa-rx escaping" "$IH"
ln -s flexl4-steer@.service "$U/$IH"
(cd "$U" && systemd-analyze verify "./$IH") >"$T/out" 2>&1 &&
	pass "systemd-analyze verify: $IH" || fail "systemd-analyze verify $IH" "$(cat "$T/out")"
if ip netns exec "$NS" true 2>/dev/null; then
	echo "dev=homa-rx proto=146 field=dport buckets=2" >"$T/steer.conf"
	ip netns exec "$NS" ip link del va 2>/dev/null; : >"$FAKE_RULES"	# va and its rules go (one fake table)
	ip netns exec "$NS" ip link add homa-rx type veth peer name homa-tx
	ip netns exec "$NS" "$S" apply "$(systemd-escape -u --path "$i")" >"$T/out" 2>&1
	expect "netns: 'apply %f' of homa-rx applies the port by its name" "$T/out" \
		"flexl4-steer: homa-rx: applied l4steer buckets homa-rx -p 146 -f dport --buckets 2 (4 rules)"
	ip netns exec "$NS" "$S" remove "$PH" >"$T/out" 2>&1
	expect "netns: 'remove %f' of homa-rx removes and pauses it" "$T/out" \
"flexl4-steer: homa-rx: removed l4steer buckets homa-rx -p 146 -f dport --buckets 2 (asked to)
flexl4-steer: homa-rx: paused: apply, udev and the timer leave it alone until 'flexl4-steer resume homa-rx' (or apply --force, or a reboot)"
else
	fail "netns for the homa-rx port: cannot enter $NS"
fi

# --- flexl4-loaded (tools/flexl4/flexl4-loaded, installed beside flexl4-steer) ----------------------
# A faked host: /sys/module under $T/lsys, /lib/modules under $T/lmods, modinfo and ofed_info stubs
# first on PATH (modinfo answers for mlx5_core from $T/lmod.*, for a file from its version= line).
FL=$HERE/../../tools/flexl4/flexl4-loaded
LB=$T/lbin REL=$(uname -r)
mkdir -p "$LB" "$T/lsys/module" "$T/lmods/$REL/updates/dkms"
cat >"$LB/modinfo" <<'STUB'
#!/bin/sh
[ "$1" = -F ] || exit 1
case "$3" in
mlx5_core) cat "$LST/lmod.$2" 2>/dev/null ;;
*) sed -n "s/^$2=//p" "$3" ;;
esac
STUB
printf '#!/bin/sh\necho MLNX_OFED_LINUX-24.10-1.1.4.0:\n' >"$T/ofed_info"
chmod +x "$LB/modinfo" "$T/ofed_info"
export LST=$T
# loaded NAME RC LINE [ARGS]: flexl4-loaded prints exactly LINE (stdout) and exits RC
loaded() {
	FLEXL4_LOADED_SYS=$T/lsys FLEXL4_LOADED_MODULES=$T/lmods PATH="$LB:$PATH" sh "$FL" ${4:-} \
		>"$T/out" 2>"$T/err"
	rc=$?
	if [ $rc -eq "$2" ] && [ "$(cat "$T/out")" = "$3" ] && [ ! -s "$T/err" ]; then pass "flexl4-loaded: $1"
	else fail "flexl4-loaded: $1" "rc $rc: $(cat "$T/out" "$T/err")"; fi
}
# mod VERSION SRCVERSION: the loaded mlx5_core (- for none); inst VERSION SRCVERSION: the installed one
mod() { rm -rf "$T/lsys/module/mlx5_core"; [ "$1" = - ] && return
	mkdir -p "$T/lsys/module/mlx5_core"; [ -z "$1" ] || echo "$1" >"$T/lsys/module/mlx5_core/version"
	echo "$2" >"$T/lsys/module/mlx5_core/srcversion"; }
inst() { if [ -n "$1" ]; then echo "$1" >"$T/lmod.version"; else rm -f "$T/lmod.version"; fi
	echo "$2" >"$T/lmod.srcversion"; }
V=flexl4-6.12.118.a14a7dc4
mod -; inst "$V" AAAA
loaded "no mlx5_core loaded: exit 2" 2 "flexl4-loaded: mlx5_core is not loaded"
mod "$V" AAAA
loaded "ours loaded and installed: exit 0" 0 "flexl4-loaded: ok: mlx5_core $V is loaded"
mod "$V" BBBB	# an older build of ours in the initramfs (review F17)
loaded "an older build of ours loaded (srcversion differs): exit 1" 1 \
"flexl4-loaded: WARNING: mlx5_core $V (srcversion BBBB) is loaded, not the build installed for $REL (srcversion AAAA): an initramfs made before the last install? make a new initramfs (update-initramfs -u -k $REL, or dracut -f --kver $REL) and reboot, or reload the driver"
mod "" CCCC
loaded "the stock module loaded, ours installed: exit 1" 1 \
"flexl4-loaded: WARNING: the distribution's mlx5_core is loaded, not $V installed for $REL: l4data rules will be refused; make a new initramfs (update-initramfs -u -k $REL, or dracut -f --kver $REL) and reboot, or reload the driver"
inst "" CCCC
loaded "the stock module loaded, none of ours installed: exit 1" 1 \
"flexl4-loaded: WARNING: the distribution's mlx5_core is loaded and kernel $REL has no flexl4 mlx5_core installed (a kernel upgrade?): l4data rules will be refused; build and install it for $REL (dist/dist-build --headers /lib/modules/$REL/build)"
loaded "--ofed on a host without OFED: silent, exit 0" 0 "" --ofed
printf 'version=%s\n' "$V" >"$T/lmods/$REL/updates/dkms/mlx5_core.ko"	# our own DKMS build
loaded "--ofed: our own module in updates/dkms is not OFED" 0 "" --ofed
O="flexl4-loaded: this host runs NVIDIA's OFED/DOCA mlx5 drivers"
W="the flexl4 module replaces only the kernel's own mlx5_core and would break theirs; use a host without OFED"
cp "$T/ofed_info" "$LB/ofed_info"
loaded "an OFED host (ofed_info): refused, exit 3" 3 "$O (ofed_info says MLNX_OFED_LINUX-24.10-1.1.4.0:): $W"
loaded "--ofed on an OFED host (ofed_info): the same line, exit 3" 3 "$O (ofed_info says MLNX_OFED_LINUX-24.10-1.1.4.0:): $W" --ofed
rm "$LB/ofed_info"
mod 24.10-1.1.4 DDDD; inst 24.10-1.1.4 DDDD	# OFED's mlx5_core loaded and installed, no ofed_info
loaded "an OFED host (mlx5_core version 24.10-1.1.4): refused, exit 3" 3 \
"$O (the loaded mlx5_core is version 24.10-1.1.4; the installed mlx5_core is version 24.10-1.1.4): $W"
mod -; inst "" CCCC
printf 'version=24.10-1.1.4\n' >"$T/lmods/$REL/updates/dkms/mlx5_core.ko"	# OFED's DKMS packages
loaded "an OFED host (its DKMS mlx5_core in updates/dkms): refused, exit 3" 3 \
"$O ($T/lmods/$REL/updates/dkms/mlx5_core.ko is version 24.10-1.1.4): $W" --ofed
rm "$T/lmods/$REL/updates/dkms/mlx5_core.ko"
sh "$FL" --help >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 0 ] && [ ! -s "$T/err" ] && grep -q '^    flexl4-loaded \[--ofed\]$' "$T/out" &&
	grep -q '^    3  this host runs NVIDIA' "$T/out" && pass "flexl4-loaded --help: usage and exit codes on stdout (review F17)" ||
	fail "flexl4-loaded --help" "rc $rc: $(head -n 3 "$T/out" "$T/err")"
sh "$FL" --version >"$T/out" 2>&1
[ $? -eq 0 ] && [ "$(cat "$T/out")" = "flexl4-loaded $(cat "$HERE/../VERSION")" ] &&
	pass "flexl4-loaded --version" || fail "flexl4-loaded --version" "$(cat "$T/out")"
sh "$FL" --bogus >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && [ ! -s "$T/out" ] &&
	[ "$(cat "$T/err")" = "flexl4-loaded: unknown option '--bogus' (flexl4-loaded --help)" ] &&
	pass "flexl4-loaded --bogus: one line on stderr, exit 2" || fail "flexl4-loaded --bogus" "rc $rc: $(cat "$T/out" "$T/err")"

# --- make install / uninstall into a scratch root --------------------------------------------
R=$T/root
make -s -C "$HERE" install DESTDIR="$R" >"$T/out" 2>&1
n=0
for f in usr/local/sbin/l4steer usr/local/sbin/flexl4-steer usr/local/sbin/flexl4-loaded \
	 usr/local/share/man/man8/l4steer.8 usr/local/share/man/man8/flexl4-steer.8 \
	 usr/local/share/man/man8/flexl4-loaded.8 \
	 etc/systemd/system/flexl4-steer@.service etc/systemd/system/flexl4-steer.timer \
	 etc/udev/rules.d/99-flexl4-steer.rules etc/flexl4/steer.conf; do
	[ -f "$R/$f" ] && n=$((n + 1))
done
[ $n -eq 10 ] && pass "make install: the tools, their man pages, units, udev rule and an example config" ||
	fail "make install" "$n of 10 files: $(cat "$T/out")"
# The man pages are made from --help: they render cleanly and name every long option of it.
for t in flexl4-steer flexl4-loaded; do
	"$R/usr/local/sbin/$t" --help >"$T/help"
	sh "$HERE/../common/man.sh" check "$R/usr/local/share/man/man8/$t.8" "$T/help" >"$T/out" 2>&1 &&
		pass "$t.8: renders without groff warnings, names every long option of --help" || fail "$t.8" "$(cat "$T/out")"
done
FLEXL4_STEER_CONF=$R/etc/flexl4/steer.conf "$R/usr/local/sbin/flexl4-steer" check >"$T/out" 2>&1 &&
	[ ! -s "$T/out" ] && pass "the example config parses (every line commented out)" || fail "example config" "$(cat "$T/out")"
echo "dev=eth9 proto=1 field=dport buckets=2" >"$R/etc/flexl4/steer.conf"
make -s -C "$HERE" install DESTDIR="$R" >/dev/null 2>&1
make -s -C "$HERE" uninstall DESTDIR="$R" >"$T/out" 2>&1
[ -z "$(find "$R" -type f ! -path '*/etc/flexl4/steer.conf')" ] &&
	grep -q 'proto=1' "$R/etc/flexl4/steer.conf" &&
	pass "make uninstall: removes everything but the operator's config" ||
	fail "make uninstall" "$(find "$R" -type f)"

echo "steer-persist: $PASSED passed, $FAILED failed, 0 skipped"
[ "$FAILED" -eq 0 ]
