#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Tests of firstrun against recorded command output: every command it runs on the receiver is
# tests/fake on PATH (ethtool, devlink, mstconfig, modinfo, pidof, dmesg, ssh; l4steer and
# rxq-delta snap through TOOLS; rxq-delta diff is the real one). Ends with "N passed, N failed".
# KEEP=1 keeps the reports (r1.txt ... in the printed /tmp directory).
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d /tmp/hw-firstrun.XXXXXX)
trap 'if [ -n "${KEEP:-}" ]; then echo "kept $T"; else rm -rf "$T"; fi' EXIT
PASSED=0 FAILED=0
pass() { PASSED=$((PASSED + 1)); echo "PASS $1"; }
fail() { FAILED=$((FAILED + 1)); echo "FAIL $1${2:+: $2}"; }
has() {	# NAME FILE PATTERN...: FILE has a line matching each (grep -E)
	n=$1 f=$2
	shift 2
	for p in "$@"; do grep -Eq -- "$p" "$f" || { fail "$n" "no line '$p' in $(basename "$f")"; return; }; done
	pass "$n"
}
mkdir -p "$T/bin" "$T/tools"
for c in ethtool devlink mstconfig modinfo pidof dmesg ssh; do ln -s "$HERE/tests/fake" "$T/bin/$c"; done
for c in l4steer rxq-delta; do ln -s "$HERE/tests/fake" "$T/tools/$c"; done
export PATH="$T/bin:$PATH" TOOLS=$T/tools SENDER_TOOLS=/root/flexl4 REAL_TOOLS=$HERE/../flexl4
mkdir -p "$T/sys/module/mlx5_core"	# the loaded module: the one modinfo finds, out of tree
echo 0123456789ABCDEF0123456 >"$T/sys/module/mlx5_core/srcversion"
echo OE >"$T/sys/module/mlx5_core/taint"
export FIRSTRUN_SYS=$T/sys
# firstrun [options]: one run in a fresh scenario $FAKE (files there override tests/data)
scenario() { export FAKE=$T/s$1; rm -rf "$FAKE"; mkdir -p "$FAKE"; : >"$FAKE/log"; }
firstrun() { "$HERE/firstrun" -i ens1f1np1 -s root@192.0.2.1 -d 192.0.2.2 -r 192.0.2.1 \
	-t "$HERE/tests/tree" "$@" >"$FAKE/stdout" 2>&1; }

scenario 1
firstrun -o "$T/r1.txt"; rc=$?
[ $rc -eq 0 ] && pass "all prerequisites met: exit 0" || fail "exit $rc" "$(cat "$FAKE/stdout")"
R=$T/r1.txt
has "report: firmware version, PCI address, PSID" "$R" '^firmware-version: 32.43.1014' \
	'^ok   ens1f1np1: mlx5_core, firmware 32.43.1014 \(MT_0000000884\), PCI 0000:08:00.0' 'fw.psid MT_0000000884'
has "report: the loaded module is the series' one" "$R" \
	'^ok   mlx5_core: the series.* module is loaded \(/lib/modules/.*/updates/mlx5_core.ko'
has "report: devlink permanent parameters checked" "$R" \
	'^\$ sh -c devlink dev param show pci/0000:08:00.0 name flex_parser_profile' \
	'^ok   firmware: devlink flex_parser_profile 4, prog_parse_graph true'
has "report: channels and irqbalance" "$R" '^ok   channels: 16 combined' '^ok   irqbalance: not running'
has "report: the selftest ran ntuple.py of the tree, its TAP kept" "$R" \
	'^\$ env NETIF=ens1f1np1 LOCAL_V4=192.0.2.2 REMOTE_V4=192.0.2.1 REMOTE_TYPE=ssh REMOTE_ARGS=root@192.0.2.1 python3 .*/hw/ntuple.py' \
	'^ok 2 ntuple.flex6_dport_nibble' '^ok   selftest: # Totals: pass:2 fail:0'
has "report: l4send over ssh twice, 160,000 packets to 16 ports" "$R" \
	'^\$ ssh -o BatchMode=yes root@192.0.2.1 /root/flexl4/l4send -d 192.0.2.2 -p 253 -D 4000 -K 16 -c 160000'
[ "$(grep -c 'l4send -d' "$FAKE/log")" -eq 2 ] && pass "l4send ran exactly twice" || fail "l4send runs"
has "report: per-queue deltas without rules (one queue)" "$R" '^== per-queue packets \(without rules\)' \
	'^ +7 +160000 +100.0%' '^     without rules: 1 queues received packets, the busiest 100.0%'
has "report: per-queue deltas with 16 buckets" "$R" '^== per-queue packets \(with 16 buckets\)' \
	'^ +15 +10000 +6.2%' '^     with 16 buckets: 16 queues received packets'
has "report: rules installed, listed and removed" "$R" '^\$ .*l4steer buckets ens1f1np1 -p 253 -f dport -b 16 -c 0-15' \
	'^== l4steer list' '^== ethtool -n' '^== l4steer remove'
has "report: rx_out_of_buffer drops per run" "$R" '^rx_out_of_buffer: 0 -> 205 \(\+205\)' '^rx_out_of_buffer: 205 -> 410 \(\+205\)'
has "report: the driver's dmesg lines" "$R" '^== driver messages \(all mlx5 lines\)' 'mlx5_core 0000:08:00.0: firmware version'
has "report ends with the summary" "$R" '^== summary'
tail -n 1 "$FAKE/stdout" | grep -q "^firstrun: 0 failed; report $R" && pass "stdout: the summary and the report's name" ||
	fail "stdout" "$(tail -n 2 "$FAKE/stdout")"

scenario 2	# an older driver: no devlink parameters, mstconfig instead
touch "$FAKE/no-devlink-params"
firstrun -o "$T/r2.txt"
has "without devlink parameters: mstconfig -e query, current values" "$T/r2.txt" \
	'^\$ mstconfig -d 0000:08:00.0 -e query' 'INTERNAL_CPU_MODEL' \
	'^ok   firmware: mstconfig current FLEX_PARSER_PROFILE_ENABLE 4, PROG_PARSE_GRAPH True\(1\)'

scenario 3	# nothing ready: each prerequisite fails with its fix, and no traffic is sent
touch "$FAKE/irqbalance"
sed 's/^Combined:\t16$/Combined:\t8/' "$HERE/tests/data/ethtool-l" >"$FAKE/ethtool-l"
echo /lib/modules/6.12.118+deb13-amd64/kernel/drivers/net/ethernet/mellanox/mlx5/core/mlx5_core.ko.xz >"$FAKE/modinfo-filename"
sed 's/value 4/value 0/' "$HERE/tests/data/devlink-param" >"$FAKE/devlink-param"
firstrun -o "$T/r3.txt"; rc=$?
[ $rc -eq 1 ] && pass "missing prerequisites: exit 1" || fail "missing prerequisites: exit $rc"
has "missing prerequisites: each FAIL says what to do" "$T/r3.txt" \
	'^FAIL mlx5_core: the distribution.s module .*install the one scripts/dist-build built' \
	'^FAIL firmware: devlink flex_parser_profile 0, prog_parse_graph true \(want 4' \
	'^FAIL channels: 8 combined, need 16: ethtool -L ens1f1np1 combined 16' \
	'^FAIL irqbalance runs .*: systemctl stop irqbalance' '^firstrun: 4 prerequisite'
grep -q "l4send -d" "$FAKE/log" && fail "missing prerequisites: traffic was sent" ||
	pass "missing prerequisites: no selftest, no traffic"

scenario 4	# -f runs anyway; a refused rule is a failure, the report still complete
touch "$FAKE/irqbalance" "$FAKE/refuse"
firstrun -f -o "$T/r4.txt"; rc=$?
[ $rc -eq 1 ] && pass "-f: runs despite a failed check, exit 1" || fail "-f: exit $rc"
has "-f: refused rules reported, dmesg kept" "$T/r4.txt" '^FAIL l4steer: the rules were refused' \
	'ethtool: Operation not supported' '^== driver messages'

scenario 5	# SELFTEST names another file (e.g. the former l4data.py)
cp "$HERE/tests/tree/tools/testing/selftests/drivers/net/hw/ntuple.py" "$FAKE/l4data.py"
SELFTEST=$FAKE/l4data.py firstrun -o "$T/r5.txt"
has "SELFTEST picks the selftest file" "$T/r5.txt" 'python3 .*/s5/l4data.py$'

"$HERE/firstrun" -i x >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q '^firstrun -i IFACE' "$T/err" && pass "missing options: usage, exit 2" || fail "usage: exit $rc"

echo "hw-firstrun: $PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
