#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# l4send (raw socket) against trafgen with trafgen/l4.cfg (netsniff-ng, the
# line-rate sender) and a plain Python raw-socket loop, side by side in one
# run, on a discard sink. Prints figures, asserts nothing.
#   make -C tools/flexl4 bench     (root; BENCH_SECS=2 per run, BENCH_ROUNDS=3)
#
# Sink: a dummy device if the kernel has one, else an ifb device with a
# noqueue root (ifb frees every frame it transmits: rx_packets ==
# rx_dropped == frames sent), in a namespace of its own. Every sender
# sends the same bytes: IPv4 protocol 146, 28-byte header (sport 32768,
# dport 4000..4015 in turn), no payload, to 198.18.0.2 (a permanent
# neighbour entry, so no ARP). Rate = the sink's own packet counter delta
# / the sender's wall time. Runs are interleaved: each round runs every
# sender once, the order rotated by one each round; the table gives the
# per-run figures and their median, and the median CPU time (user +
# system, from bash's time) per packet: on a busy machine the rates follow
# the CPU share a sender gets, the CPU time per packet much less so.

set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
SECS=${BENCH_SECS:-2}
ROUNDS=${BENCH_ROUNDS:-3}
NS=flexl4-bench-$$
T=$(mktemp -d /tmp/flexl4-bench.XXXXXX)
DMAC=02:00:00:00:00:02

cleanup()
{
	ip netns del "$NS" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

command -v trafgen >/dev/null ||
	echo "bench: no trafgen here, so no trafgen rows (for them: apt-get install netsniff-ng)" >&2

ip netns add "$NS" && ip -n "$NS" link set lo up || {
	echo "bench: cannot create a namespace (root needed)" >&2
	exit 1
}
if ip -n "$NS" link add sink type dummy 2>/dev/null; then
	SINK="dummy (no queue)" CTR=tx_packets
elif ip -n "$NS" link add sink type ifb 2>/dev/null &&
     ip netns exec "$NS" tc qdisc replace dev sink root noqueue; then
	SINK="ifb with a noqueue root (no dummy device here)" CTR=rx_packets
else
	echo "bench: neither a dummy nor an ifb device can be created" >&2
	exit 1
fi
ip -n "$NS" link set sink up &&
ip -n "$NS" addr add 198.18.0.1/24 dev sink &&
ip -n "$NS" neigh replace 198.18.0.2 lladdr $DMAC dev sink nud permanent || exit 1


L4="$HERE/l4send -p 146 --hdr-len 28 -S 32768 -D 4000 --cycle 16 -d 198.18.0.2 -s 198.18.0.1 --duration $SECS"
# trafgen's configuration is the one shipped for line-rate runs: the same packets
TG="trafgen --cpp -D SRC=198.18.0.1 -D DST=198.18.0.2 -D DMAC=$DMAC -i $HERE/trafgen/l4.cfg -o sink --no-sock-mem -Q -C"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3)
# name|command, one sender per line
{
	[ -n "$PY" ] && echo "python3 socket.sendto loop|$PY $HERE/bench/pysend.py 198.18.0.2 146 $SECS"
	command -v trafgen >/dev/null &&
		echo "trafgen -P 1 (TX ring, qdisc bypass)|timeout -s INT $SECS $TG -P 1" &&
		echo "trafgen -P 2|timeout -s INT $SECS $TG -P 2"
	echo "l4send, 1 thread|$L4"
	echo "l4send, 2 threads|$L4 --threads 2"
} >"$T/senders"
N=$(wc -l <"$T/senders")

ctr() { ip netns exec "$NS" cat "/sys/class/net/sink/statistics/$CTR"; }

echo "flexl4 bench: $SECS s per run, $ROUNDS interleaved rounds, $(nproc) CPUs, kernel $(uname -r)"
echo "sink: $SINK; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "packets: IPv4 proto 146, 28-byte header, no payload, dport 4000..4015"
r=0
while [ $r -lt "$ROUNDS" ]; do
	i=0
	while [ $i -lt "$N" ]; do
		k=$(((i + r) % N + 1))
		line=$(sed -n "${k}p" "$T/senders")
		a=$(ctr)
		s=$(date +%s%N)
		# bash's time: user + system CPU seconds of the sender
		bash -c 'TIMEFORMAT="%3U %3S"; time ip netns exec "$0" sh -c "$1" >/dev/null 2>"$2"' \
			"$NS" "${line#*|}" "$T/err" 2>"$T/time"
		e=$(date +%s%N)
		b=$(ctr)
		[ -n "$(grep -v 'Terminated\|^$' "$T/err")" ] &&
			sed "s/^/bench: ${line%%|*}: /" "$T/err" | head -3 >&2
		cpu=$(awk '{ print $1 + $2 }' "$T/time")
		echo "$k $(((b - a) * 1000000000 / (e - s))) $(awk -v c="$cpu" -v n=$((b - a)) 'BEGIN { if (n > 0) printf "%.3f", c * 1e6 / n; else print 0 }')" >>"$T/pps"
		i=$((i + 1))
	done
	r=$((r + 1))
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
py=$(awk '$1 == 1 { print $2 }' "$T/pps" | median)
tg=
grep -q '^trafgen -P 1' "$T/senders" &&
	tg=$(awk -v k="$(grep -n '^trafgen -P 1' "$T/senders" | cut -d: -f1)" '$1 == k { print $2 }' "$T/pps" | median)
printf '%-38s %-22s %10s %7s %7s %9s\n' sender "packets/s per run" median "vs py" "vs tg" "CPU us/pkt"
k=1
while [ $k -le "$N" ]; do
	name=$(sed -n "${k}p" "$T/senders" | cut -d'|' -f1)
	runs=$(awk -v k=$k '$1 == k { printf "%s%d", sep, $2 / 1000; sep = " " } END { print "" }' "$T/pps")
	med=$(awk -v k=$k '$1 == k { print $2 }' "$T/pps" | median)
	us=$(awk -v k=$k '$1 == k { print $3 * 1000 }' "$T/pps" | median)
	printf '%-38s %-22s %10s %7s %7s %9s\n' "$name" "$runs (k)" "$med" \
		"$(awk -v a="$med" -v b="$py" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }')" \
		"$(awk -v a="$med" -v b="${tg:-0}" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }')" \
		"$(awk -v u="$us" 'BEGIN { printf "%.2f", u / 1000 }')"
	k=$((k + 1))
done
