#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# l4send against a plain Python raw-socket sender over a veth pair between
# two namespaces, in one run. Prints figures, asserts nothing. About 30 s.
#   make -C tools/flexl4 bench        (root; BENCH_SECS=N to change)
#
# Two receiving setups, the same packets for every sender:
#   delivered  to 192.0.2.2, the peer's own address: the peer's IP stack
#              takes each packet (unknown protocol: dropped, ICMP limited)
#   l2-drop    to 192.0.2.3, whose static neighbour entry is a MAC the peer
#              does not own: the peer drops it right after the veth (other
#              host), so mostly the sender's own cost is measured

set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
SECS=${BENCH_SECS:-2.5}
NSA=flexl4-bench-a-$$
NSB=flexl4-bench-b-$$
T=$(mktemp -d /tmp/flexl4-bench.XXXXXX)

cleanup()
{
	ip netns del "$NSA" 2>/dev/null
	ip netns del "$NSB" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

ip netns add "$NSA" && ip netns add "$NSB" &&
ip link add va netns "$NSA" type veth peer name vb netns "$NSB" &&
ip -n "$NSA" addr add 192.0.2.1/24 dev va &&
ip -n "$NSB" addr add 192.0.2.2/24 dev vb &&
ip -n "$NSA" link set va up && ip -n "$NSB" link set vb up || {
	echo "bench: cannot set up namespaces (root needed)" >&2
	exit 1
}
MACB=$(ip netns exec "$NSB" cat /sys/class/net/vb/address)
ip -n "$NSA" neigh replace 192.0.2.2 lladdr "$MACB" dev va nud permanent
ip -n "$NSA" neigh replace 192.0.2.3 lladdr 02:00:00:00:00:03 dev va nud permanent

echo "flexl4 bench: $SECS s per run, $(nproc) CPUs, kernel $(uname -r)"
echo "packets: IPv4 proto 146, 28-byte header, no payload, dport 4000..4015"
printf '%-10s %-34s %12s %8s\n' setup sender packets/s "vs py"

# l4send_pps ARGS...: packets/s of one l4send run.
l4send_pps()
{
	ip netns exec "$NSA" "$HERE/l4send" -p 146 -H 28 -S 32768 -D 4000 \
		-K 16 -t "$SECS" --json "$@" |
		sed 's/.*"pps":\([0-9]*\).*/\1/'
}

row()
{
	if [ -n "$4" ] && [ "$4" -gt 0 ]; then
		ratio=$(awk -v a="$3" -v b="$4" 'BEGIN { printf "%.1fx", a / b }')
	else
		ratio=-
	fi
	printf '%-10s %-34s %12s %8s\n' "$1" "$2" "$3" "$ratio"
}

for setup in delivered l2-drop; do
	dst=192.0.2.2
	[ $setup = l2-drop ] && dst=192.0.2.3
	py=
	if command -v python3 >/dev/null; then
		py=$(ip netns exec "$NSA" python3 "$HERE/bench/pysend.py" \
			"$dst" 146 "$SECS" | awk '{ print $3 }')
		row $setup "python3 socket.sendto loop" "$py" "$py"
	else
		echo "python3 not installed: no baseline"
	fi
	row $setup "l4send raw, 1 thread" "$(l4send_pps -d $dst)" "$py"
	row $setup "l4send raw, 2 threads" "$(l4send_pps -d $dst -T 2)" "$py"
	pk="-m packet -i va -s 192.0.2.1 -d $dst"
	mac=$MACB
	[ $setup = l2-drop ] && mac=02:00:00:00:00:03
	row $setup "l4send packet, 1 thread" \
		"$(l4send_pps $pk -M $mac)" "$py"
	row $setup "l4send packet, 2 threads" \
		"$(l4send_pps $pk -M $mac -T 2)" "$py"
done
