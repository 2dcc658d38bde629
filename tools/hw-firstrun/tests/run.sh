#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Tests of firstrun against recorded command output: every command it runs on the receiver is
# tests/fake on PATH (ethtool, devlink, mstconfig, modinfo, pidof, dmesg, ssh, python3's yaml check;
# l4steer and rxq-delta snap through TOOLS; rxq-delta diff is the real one), debugfs a directory.
# Ends with "hw-firstrun: N passed, N failed, 0 skipped".
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
hasnt() { # NAME FILE PATTERN: no line of FILE matches
	if grep -Eq -- "$3" "$2"; then fail "$1" "$(grep -E -- "$3" "$2" | head -n 3)"; else pass "$1"; fi
}
CMDS="ethtool devlink mstconfig modinfo pidof dmesg ssh python3 lsinitramfs id"
mkdir -p "$T/tools"
for c in l4steer rxq-delta; do ln -s "$HERE/tests/fake" "$T/tools/$c"; done
export TOOLS=$T/tools SENDER_TOOLS=/root/flexl4 REAL_TOOLS=$HERE/../flexl4
mkdir -p "$T/sys/module/mlx5_core"	# the loaded module: the one modinfo finds, out of tree
echo 0123456789ABCDEF0123456 >"$T/sys/module/mlx5_core/srcversion"
echo OE >"$T/sys/module/mlx5_core/taint"
echo flexl4-6.12.118.a14a7dc4 >"$T/sys/module/mlx5_core/version"
mkdir -p "$T/sys/devices/system/cpu" "$T/mods" "$T/sys/class/net/ens1f1np1"
echo 0-31 >"$T/sys/devices/system/cpu/online"
export FIRSTRUN_SYS=$T/sys FLEXL4_LOADED_MODULES=$T/mods
PATH0=$PATH
# scenario N [COMMAND...]: a fresh $FAKE (files there override tests/data); the COMMANDs are not
# installed in it; debugfs shows tests/data/parse_graph
scenario() {
	export FAKE=$T/s$1; shift
	rm -rf "$FAKE"; mkdir -p "$FAKE/bin" "$FAKE/debug/mlx5/0000:08:00.0"; : >"$FAKE/log"
	for c in $CMDS; do
		case " $* " in *" $c "*) ;; *) ln -s "$HERE/tests/fake" "$FAKE/bin/$c" ;; esac
	done
	cp "$HERE/tests/data/parse_graph" "$FAKE/debug/mlx5/0000:08:00.0/parse_graph"
	: >"$FAKE/initrd"; : >"$FAKE/rules"
	export PATH="$FAKE/bin:$PATH0" FIRSTRUN_DEBUGFS=$FAKE/debug FIRSTRUN_INITRD=$FAKE/initrd
}
# SIGINT at its default, as at a terminal: started from a background job of a script (SIGINT
# ignored there), bash could not trap it, and the Ctrl-C scenario would see no interrupt
firstrun() { env --default-signal=INT "$HERE/firstrun" -i ens1f1np1 -R root@192.0.2.1 \
	-d 192.0.2.2 -s 192.0.2.1 --tree "$HERE/tests/tree" "$@" >"$FAKE/stdout" 2>&1; }

scenario 1
firstrun --report "$T/r1.txt"; rc=$?
[ $rc -eq 0 ] && pass "all prerequisites met: exit 0" || fail "exit $rc" "$(cat "$FAKE/stdout")"
R=$T/r1.txt
has "report: says whom it is for and that serials are masked" "$R" \
	'^It is for whoever asked for this run \(the project has no public tracker\): send it to them\.$' \
	'^Serial numbers are masked'
has "report: firmware version, PCI address, PSID" "$R" '^firmware-version: 32.43.1014' \
	'^ok   ens1f1np1: mlx5_core, firmware 32.43.1014 \(MT_0000000884\), PCI 0000:08:00.0' 'fw.psid MT_0000000884'
has "report: serial numbers masked (review F10)" "$R" '^  serial_number \(masked\)$'
hasnt "report: no serial number anywhere" "$R" 'MT0000X00000'
has "report: the loaded module is the series' one" "$R" \
	'^ok   mlx5_core: the series.* module is loaded \(/lib/modules/.*/updates/mlx5_core.ko'
has "report: firmware verdict from mstconfig's Current column, devlink only as next boot (review F3)" "$R" \
	'^\$ mstconfig -d 0000:08:00.0 -e query' \
	'^ok   firmware in effect \(mstconfig Current\): FLEX_PARSER_PROFILE_ENABLE 4, PROG_PARSE_GRAPH True\(1\)$' \
	'^info devlink \(next boot, not in effect\): flex_parser_profile 4, prog_parse_graph true$'
has "report: debugfs parse_graph captured and judged (review F3)" "$R" \
	'^== parse graph the driver sees \(debugfs\)' '^object: yes$' '^prog_sample_fields: 8$' \
	'^ok   parse graph \(debugfs\): object yes, 8 programmable sample fields$' \
	'^== parse graph with the rules \(debugfs\)'
has "report: the initramfs carries the series' module (review F1)" "$R" '^== mlx5_core in the initramfs' \
	'^usr/lib/modules/6.12.118\+deb13-amd64/updates/mlx5_core.ko$' "^ok   initramfs: .*/s1/initrd carries the series' module$"
has "report: channels and irqbalance" "$R" '^ok   channels: 16 combined' '^ok   irqbalance: not running'
has "report: the selftest ran ntuple.py of the tree, its TAP kept" "$R" \
	'^\$ env NETIF=ens1f1np1 LOCAL_V4=192.0.2.2 REMOTE_V4=192.0.2.1 REMOTE_TYPE=ssh REMOTE_ARGS=root@192.0.2.1 python3 .*/hw/ntuple.py' \
	'^ok 2 ntuple.l4data.ip4.proto253.port_pair'
has "selftest verdict: l4data passes of protocol 253 counted, UDP and skips not (review F4)" "$R" \
	'^ok   selftest: 3 l4data case\(s\) of unparsed protocols passed \(l4data.ip4.proto253.port_pair l4data.ip4.proto253.dport_nibble l4data_udp_rss.ip4\); # Totals: pass:4 fail:0 xfail:0 xpass:0 skip:1 error:0, exit 0$'
has "report: l4send over ssh twice, 160,000 packets to 16 ports" "$R" \
	'^\$ ssh -o BatchMode=yes root@192.0.2.1 /root/flexl4/l4send -d 192.0.2.2 -p 253 -D 4000 --cycle 16 -n 160000'
[ "$(grep -c 'l4send -d' "$FAKE/log")" -eq 2 ] && pass "l4send ran exactly twice" || fail "l4send runs"
has "report: per-queue deltas without rules (one queue)" "$R" '^== per-queue packets \(without rules\)' \
	'^ +7 +160000 +100.0%' '^info without rules: 1 queues received packets, the busiest 100.0%'
has "bucket verdict: each of 16 queues got 90 % of its 10,000 (review F4)" "$R" '^== per-queue packets \(with 16 buckets\)' \
	'^ +15 +10000 +6.2%' '^ok   buckets: each of queues 0-15 received at least 9000 packets \(90 % of its 10000\)$'
has "report: rules installed, listed and removed" "$R" '^\$ .*l4steer buckets ens1f1np1 -p 253 -f dport --buckets 16 -c 0-15' \
	'^== l4steer list' '^== ethtool -n' '^== l4steer remove$'
[ ! -e "$FAKE/installed" ] && [ "$(grep -c 'l4steer remove' "$FAKE/log")" -eq 1 ] &&
	pass "rules removed exactly once" || fail "rules removed exactly once" "$(grep l4steer "$FAKE/log")"
has "report: rx_out_of_buffer drops per run" "$R" '^rx_out_of_buffer: 0 -> 205 \(\+205\)' '^rx_out_of_buffer: 205 -> 410 \(\+205\)'
has "report: the driver's dmesg lines" "$R" '^== driver messages \(all mlx5 lines\)' 'mlx5_core 0000:08:00.0: firmware version'
has "report ends with the summary" "$R" '^== summary'
tail -n 1 "$FAKE/stdout" | grep -q "^firstrun: 0 failed; report $R (for whoever asked for this run; serial numbers masked)$" &&
	pass "stdout: the summary and the report's name" || fail "stdout" "$(tail -n 2 "$FAKE/stdout")"

scenario 2	# next boot right, current not: the reset did not activate the settings
sed 's/^\(\*  *FLEX_PARSER_PROFILE_ENABLE  *0  *\)4 /\10 /; s/^\(\*  *PROG_PARSE_GRAPH  *False(0)  *\)True(1)/\1False(0)/' \
	"$HERE/tests/data/mstconfig" >"$FAKE/mstconfig"
sed -i 's/^object: yes/object: no/' "$FAKE/debug/mlx5/0000:08:00.0/parse_graph"
firstrun --report "$T/r2.txt"; rc=$?
[ $rc -eq 1 ] && grep -q "l4send -d" "$FAKE/log" && fail "not active: exit $rc, traffic sent" || pass "settings not in effect: exit 1, no traffic"
has "settings for the next boot only: FAIL, although devlink shows 4/true (review F3)" "$T/r2.txt" \
	'^FAIL firmware in effect \(mstconfig Current\): FLEX_PARSER_PROFILE_ENABLE 0, PROG_PARSE_GRAPH False\(0\); want 4 and True\(1\) \(next boot: 4, True\(1\): a reset activates them' \
	'^info devlink \(next boot, not in effect\): flex_parser_profile 4, prog_parse_graph true$' \
	'^FAIL parse graph \(debugfs\): object no, 8 sample fields: the firmware settings are not in effect$'

scenario 3 mstconfig	# nothing ready: each prerequisite fails with its fix, and no traffic is sent
touch "$FAKE/irqbalance" "$FAKE/installed"
sed 's/^Combined:\t16$/Combined:\t8/' "$HERE/tests/data/ethtool-l" >"$FAKE/ethtool-l"
echo /lib/modules/6.12.118+deb13-amd64/kernel/drivers/net/ethernet/mellanox/mlx5/core/mlx5_core.ko.xz >"$FAKE/modinfo-filename"
echo usr/lib/modules/6.12.118+deb13-amd64/kernel/drivers/net/ethernet/mellanox/mlx5/core/mlx5_core.ko.xz >"$FAKE/initramfs"
rm -r "$FAKE/debug/mlx5"
printf '%s\n' '0 flow-type ip4 l4proto 253 l4data 0x0 m 0xfffffff0 action 0' '1 other tcp4' '5 other tcp4' >"$FAKE/rules"
echo 0-7 >"$T/sys/devices/system/cpu/online"	# a BlueField-2's Arm cores
firstrun --report "$T/r3.txt" --tree "$T/nowhere"; rc=$?
echo 0-31 >"$T/sys/devices/system/cpu/online"
[ $rc -eq 1 ] && pass "missing prerequisites: exit 1" || fail "missing prerequisites: exit $rc"
has "missing prerequisites: each FAIL says what to do, missing commands by package (review F24)" "$T/r3.txt" \
	'^FAIL commands: missing packages: apt-get install mstflint \(the selftest.s ynl needs python3-yaml\)$' \
	"^FAIL mlx5_core: the distribution's module is installed \(/lib/modules/.*/mlx5_core.ko.xz\) and loaded: install the one dist/dist-build built$" \
	"^FAIL initramfs: .*/s3/initrd carries the distribution's mlx5_core, which loads at boot: update-initramfs -u -k " \
	'^FAIL firmware in effect: unknown without mstconfig: apt-get install mstflint$' \
	'^FAIL parse graph: no .*/debug/mlx5: mount -t debugfs none /sys/kernel/debug$' \
	'^FAIL channels: 8 combined, need 16: ethtool -L ens1f1np1 combined 16' \
	'^FAIL irqbalance runs .*: systemctl stop irqbalance' \
	"^FAIL rules: 3 installed on ens1f1np1 \('ethtool -n ens1f1np1'\): the run without rules needs none: flexl4-steer remove ens1f1np1 \(pauses step 5\), l4steer remove ens1f1np1 \(step 4\), or ethtool -N ens1f1np1 delete N$" \
	'^FAIL CPUs: the queues. IRQs go to CPUs 0-15, but 8,9,10,11,12,13,14,15 not online \(online: 0-7\): CPUS=LIST of 16 online CPUs, e.g. from /sys/class/net/ens1f1np1/device/local_cpulist$' \
	'^FAIL selftest: no .*/nowhere/tools/testing/selftests/drivers/net/hw/ntuple.py \(--tree TREE of the series, or --tree a tarball' \
	'^firstrun: 10 prerequisite'
grep -q "l4send -d" "$FAKE/log" && fail "missing prerequisites: traffic was sent" ||
	pass "missing prerequisites: no selftest, no traffic"

scenario 4	# python3-yaml missing; the pristine selftest (no l4data case)
touch "$FAKE/no-yaml"
mkdir -p "$FAKE/tree/tools/testing/selftests/drivers/net/hw"
echo 'print("TAP version 13")' >"$FAKE/tree/tools/testing/selftests/drivers/net/hw/ntuple.py"
firstrun --report "$T/r4.txt" --tree "$FAKE/tree"
has "python3-yaml and the series' selftest are prerequisites (review F4, F12)" "$T/r4.txt" \
	'^FAIL commands: missing packages: apt-get install python3-yaml ' \
	'^FAIL selftest: .*/ntuple.py has no l4data case: it is not the series. one$' '^firstrun: 2 prerequisite'

scenario 5	# -f runs anyway; a refused rule is a failure, the report still complete
touch "$FAKE/irqbalance" "$FAKE/refuse"
firstrun --force --report "$T/r5.txt"; rc=$?
[ $rc -eq 1 ] && pass "-f: runs despite a failed check, exit 1" || fail "-f: exit $rc"
has "-f: refused rules reported, dmesg kept" "$T/r5.txt" '^FAIL l4steer: the rules were refused' \
	'ethtool: Operation not supported' '^== driver messages'
grep -q 'l4steer remove' "$FAKE/log" && fail "-f: removed rules it never installed" || pass "-f: nothing to remove, nothing removed"

scenario 6	# every l4data case of protocol 253 skipped (no parser): the selftest exits 0, firstrun fails
printf '%s\n' 'TAP version 13' '1..3' 'ok 1 ntuple.l4data.ip4.udp.port_pair' \
	"ok 2 ntuple.l4data.ip4.proto253.port_pair # SKIP Device refused 'flow-type ip4 l4proto 253': Operation not supported" \
	"ok 3 ntuple.l4data_udp_rss.ip4 # SKIP Device refused 'flow-type ip4 l4proto 253': Operation not supported" \
	'# Totals: pass:1 fail:0 xfail:0 xpass:0 skip:2 error:0' >"$FAKE/tap"
firstrun --report "$T/r6.txt"; rc=$?
[ $rc -eq 1 ] && pass "only skips and UDP passes: exit 1" || fail "skips: exit $rc"
has "only skips and UDP passes: the selftest verdict fails (review F4)" "$T/r6.txt" \
	'^FAIL selftest: no l4data case of an unparsed protocol passed; # Totals: pass:1 fail:0 xfail:0 xpass:0 skip:2 error:0, exit 0$'

scenario 7	# with the rules, queue 9 gets 8,999 of its 10,000: the bucket verdict fails
sed 's/^rx 9 .*/rx 9 9099/' "$HERE/tests/data/snap.2" >"$FAKE/snap.2"
firstrun --report "$T/r7.txt"; rc=$?
[ $rc -eq 1 ] && pass "a short bucket: exit 1" || fail "short bucket: exit $rc"
has "a short bucket: the verdict names the queue and its count (review F4)" "$T/r7.txt" \
	'^FAIL buckets: queues below 9000 packets \(90 % of 10000\), queue:packets: 9:8999$'

scenario 8	# Ctrl-C during the run with rules: the rules and the IRQ pinning go (review F23)
touch "$FAKE/interrupt"
firstrun --report "$T/r8.txt"; rc=$?
[ $rc -eq 130 ] && [ ! -e "$FAKE/installed" ] && grep -q '^l4steer remove ens1f1np1$' "$FAKE/log" &&
	grep -q 'interrupted; removing the rules it installed' "$FAKE/stdout" &&
	pass "Ctrl-C: exit 130, l4steer remove ran" || fail "Ctrl-C" "exit $rc: $(tail -n 3 "$FAKE/stdout"; cat "$FAKE/log" | grep l4steer)"
has "Ctrl-C: the report says so and records the removal" "$T/r8.txt" '^== interrupted$' '^== l4steer remove \(cleanup\)$'

scenario 9	# SELFTEST names another file (e.g. the former l4data.py)
cp "$HERE/tests/tree/tools/testing/selftests/drivers/net/hw/ntuple.py" "$FAKE/l4data.py"
SELFTEST=$FAKE/l4data.py firstrun --report "$T/r9.txt"
has "SELFTEST picks the selftest file" "$T/r9.txt" 'python3 .*/s9/l4data.py$'

scenario 10	# the selftest from pack-selftest's tarball: no kernel tree on the receiver (review F12)
mkdir -p "$FAKE/k/tools/testing/selftests/net/lib" "$FAKE/k/tools/net/ynl" "$FAKE/k/Documentation/netlink/specs"
cp -r "$HERE/tests/tree/tools" "$FAKE/k/"
"$HERE/pack-selftest" "$FAKE/k" "$FAKE/st.tar.gz" >"$FAKE/pack.out" 2>&1; rc=$?
[ $rc -eq 0 ] && [ "$(tar -tzf "$FAKE/st.tar.gz" | grep -c 'ntuple.py$')" -eq 1 ] &&
	tar -tzf "$FAKE/st.tar.gz" | grep -q '^Documentation/netlink/specs/$' &&
	pass "pack-selftest: the tarball has ntuple.py, its libraries and the netlink specs" ||
	fail "pack-selftest" "rc $rc: $(cat "$FAKE/pack.out")"
firstrun --report "$T/r10.txt" --tree "$FAKE/st.tar.gz"; rc=$?
[ $rc -eq 0 ] && pass "-t TARBALL: exit 0" || fail "-t TARBALL: exit $rc" "$(tail -n 3 "$FAKE/stdout")"
has "-t TARBALL: the selftest ran from the unpacked tarball" "$T/r10.txt" '^ok   selftest: /tmp/.*/tools/testing/selftests/drivers/net/hw/ntuple.py$' \
	'^ok   selftest: 3 l4data case'
echo 'print(1)' >"$FAKE/k/tools/testing/selftests/drivers/net/hw/ntuple.py"
"$HERE/pack-selftest" "$FAKE/k" "$FAKE/st2.tar.gz" >"$FAKE/pack.out" 2>&1; rc=$?
[ $rc -eq 1 ] && [ ! -e "$FAKE/st2.tar.gz" ] && grep -q 'has no l4data case: apply the series first' "$FAKE/pack.out" &&
	pass "pack-selftest refuses a tree without the series" || fail "pack-selftest refusal" "rc $rc"

scenario 11	# nothing loaded, nothing installed, a tarball that is not there (review F19)
mkdir -p "$FAKE/sys/class/net/ens1f1np1"; : >"$FAKE/modinfo-filename"; grep -v '^srcversion' "$HERE/tests/data/modinfo" >"$FAKE/modinfo"
FIRSTRUN_SYS=$FAKE/sys firstrun --report "$T/r11.txt" --tree "$T/missing.tar.gz"; rc=$?
[ $rc -eq 1 ] && pass "nothing loaded or installed: exit 1" || fail "nothing loaded: exit $rc"
has "nothing loaded or installed: one FAIL each, no empty name, the tarball named once" "$T/r11.txt" \
	"^FAIL mlx5_core: none installed for kernel $(uname -r) \(modinfo finds none\): install the one dist/dist-build built$" \
	"^FAIL selftest: cannot unpack $T/missing.tar.gz: "
hasnt "nothing loaded: no '()' and no temporary directory in a FAIL line" "$T/r11.txt" '^FAIL .*(\(\)|/tmp/tmp\.)'
[ "$(grep -c '^FAIL selftest' "$T/r11.txt")" -eq 1 ] && pass "a missing tarball: one selftest FAIL, not two" ||
	fail "a missing tarball: selftest FAILs" "$(grep '^FAIL selftest' "$T/r11.txt")"
tar -czf "$FAKE/empty.tar.gz" -C "$FAKE" bin
firstrun --report "$T/r11b.txt" --tree "$FAKE/empty.tar.gz"
has "a tarball without ntuple.py: named, no temporary directory" "$T/r11b.txt" \
	"^FAIL selftest: $FAKE/empty.tar.gz has no tools/testing/selftests/drivers/net/hw/ntuple.py \(make it with tools/hw-firstrun/pack-selftest\)$"

# OFED/DOCA hosts (issue 29 item 4): refused in one line on stderr, exit 1, before any report
O="firstrun: this host runs NVIDIA's OFED/DOCA mlx5 drivers"
W="the flexl4 module replaces only the kernel's own mlx5_core and would break theirs; use a host without OFED"
ofed() {	# NAME LINE: firstrun refuses with exactly LINE
	firstrun --report "$FAKE/r.txt"; rc=$?
	[ $rc -eq 1 ] && [ "$(cat "$FAKE/stdout")" = "$2" ] && [ ! -e "$FAKE/r.txt" ] && ! grep -q '^ssh' "$FAKE/log" &&
		pass "an OFED host ($1): refused in one line, exit 1, no report" || fail "OFED host ($1)" "rc $rc: $(cat "$FAKE/stdout")"
}
scenario 12
printf '#!/bin/sh\necho MLNX_OFED_LINUX-24.10-1.1.4.0:\n' >"$FAKE/bin/ofed_info"; chmod +x "$FAKE/bin/ofed_info"
ofed "ofed_info" "$O (ofed_info says MLNX_OFED_LINUX-24.10-1.1.4.0:): $W"
firstrun --force --report "$FAKE/r.txt"; [ $? -eq 1 ] && [ ! -e "$FAKE/r.txt" ] && pass "an OFED host: --force does not override the refusal" ||
	fail "OFED host with -f"
scenario 13
sed 's/^version: .*/version:        24.10-1.1.4/' "$HERE/tests/data/modinfo" >"$FAKE/modinfo"
ofed "modinfo -F version mlx5_core: 24.10-1.1.4" "$O (the installed mlx5_core is version 24.10-1.1.4): $W"
scenario 14
mkdir -p "$T/mods/$(uname -r)/updates/dkms" && echo version=24.10-1.1.4 >"$T/mods/$(uname -r)/updates/dkms/mlx5_core.ko"
ofed "a DKMS mlx5_core in updates/dkms" "$O ($T/mods/$(uname -r)/updates/dkms/mlx5_core.ko is version 24.10-1.1.4): $W"
rm -r "$T/mods/$(uname -r)"

"$HERE/firstrun" -i x >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && [ "$(cat "$T/err")" = "firstrun: missing -R/--remote SSH (the sender's ssh login) (firstrun --help)" ] &&
	pass "missing options: one line, exit 2" || fail "usage: exit $rc" "$(cat "$T/err")"
# Refused up front, one line each, before any check runs and before the report is written
# (operator review v4, finding 5)
scenario 20
cd "$FAKE" || exit 1
for c in "-d 192.0.2.999|bad -d/--dst '192.0.2.999': want this port's IPv4 address, e.g. 192.0.2.2 (firstrun --help)|2" \
	 "-d ens1f1np1|bad -d/--dst 'ens1f1np1': want this port's IPv4 address, e.g. 192.0.2.2 (firstrun --help)|2" \
	 "-s 192.0.2|bad -s/--src '192.0.2': want the sender's IPv4 address, e.g. 192.0.2.1 (firstrun --help)|2" \
	 "-i ens9|no such network device 'ens9' (-i/--dev)|1" \
	 "--report /nonexistent/r.txt|cannot write the report '/nonexistent/r.txt' (--report FILE)|1"; do
	args=${c%%|*} want=${c#*|} want=${want%|*} code=${c##*|}
	: >"$FAKE/log"
	# shellcheck disable=SC2086
	firstrun $args; rc=$?
	[ $rc -eq "$code" ] && [ "$(cat "$FAKE/stdout")" = "firstrun: $want" ] &&
		[ -z "$(ls "$FAKE" | grep '^firstrun-')" ] && ! grep -qv '^id \|^modinfo -F version ' "$FAKE/log" &&
		pass "$args: one line, exit $code, no report, no check run" ||
		fail "$args: exit $rc" "$(cat "$FAKE/stdout"; ls "$FAKE"; cat "$FAKE/log")"
done
: >"$FAKE/log"
FAKE_UID=1000 firstrun; rc=$?
[ $rc -eq 1 ] && [ "$(cat "$FAKE/stdout")" = "firstrun: it installs rules, pins IRQs and reads the firmware: run it as root" ] &&
	[ -z "$(ls "$FAKE" | grep '^firstrun-')" ] && [ "$(cat "$FAKE/log")" = "id -u" ] &&
	pass "not root: one line, exit 1, no report, nothing run" || fail "not root: exit $rc" "$(cat "$FAKE/stdout" "$FAKE/log")"
cd "$T" || exit 1
"$HERE/firstrun" -h >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 0 ] && [ ! -s "$T/err" ] && grep -q '^        --tree TREE' "$T/out" && grep -q '^    buckets ' "$T/out" &&
	grep -q 'FIRSTRUN_DEBUGFS' "$T/out" && [ "$(tail -n1 "$T/out")" = '             --tree flexl4-selftest.tar.gz' ] && pass "-h: options, verdicts and environment, exit 0 (review F23)" ||
	fail "-h: exit $rc" "$(head -3 "$T/out")"
for t in firstrun pack-selftest; do
	"$HERE/$t" --version >"$T/out" 2>&1
	[ "$(cat "$T/out")" = "$t $(cat "$HERE/../VERSION")" ] && pass "$t --version" ||
		fail "$t --version" "$(cat "$T/out")"
done

"$HERE/pack-selftest" --help >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 0 ] && [ ! -s "$T/err" ] && grep -q '^    pack-selftest TREE \[FILE\]$' "$T/out" &&
	pass "pack-selftest --help: on stdout, exit 0" || fail "pack-selftest --help: exit $rc" "$(cat "$T/err")"
for a in "--bogus" "/nowhere --bogus" "/nowhere x.tgz extra"; do
	"$HERE/pack-selftest" $a >"$T/out" 2>"$T/err"; rc=$?
	[ $rc -eq 2 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
		grep -q "^pack-selftest: .* '${a##* }' (pack-selftest --help)$" "$T/err" &&
		pass "pack-selftest $a: one line on stderr, exit 2" || fail "pack-selftest $a: exit $rc" "$(cat "$T/err")"
done

R=$T/root
make -s -C "$HERE" install DESTDIR="$R" PREFIX=/usr >"$T/out" 2>&1 &&
	[ -x "$R/usr/sbin/firstrun" ] && [ -x "$R/usr/sbin/pack-selftest" ] &&
	[ -f "$R/usr/share/man/man8/firstrun.8" ] && [ -f "$R/usr/share/man/man8/pack-selftest.8" ] &&
	[ "$(find "$R" -type f | wc -l)" -eq 4 ] && pass "make install with DESTDIR and PREFIX: the two tools and their man pages" ||
	fail "make install" "$(cat "$T/out"; find "$R" -type f)"
# The man pages are made from --help: they render cleanly and name every long option of it.
for t in firstrun pack-selftest; do
	"$R/usr/sbin/$t" --help >"$T/help"
	sh "$HERE/../common/man.sh" check "$R/usr/share/man/man8/$t.8" "$T/help" >"$T/out" 2>&1 &&
		pass "$t.8: renders without groff warnings, names every long option of --help" || fail "$t.8" "$(cat "$T/out")"
done
make -s -C "$HERE" uninstall DESTDIR="$R" PREFIX=/usr >"$T/out" 2>&1 && [ -z "$(find "$R" -type f)" ] &&
	pass "make uninstall with DESTDIR and PREFIX: none left" || fail "make uninstall" "$(cat "$T/out"; find "$R" -type f)"

echo "hw-firstrun: $PASSED passed, $FAILED failed, 0 skipped"
[ "$FAILED" -eq 0 ]
