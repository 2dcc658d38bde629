#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check packets captured by tests/capture (hex lines from the IP header on)
with scapy's IPv4/IPv6 dissectors.

decode.py CAPFILE FAMILY PROTO HDR PAYLOAD SRC DST PAIRS [--any-order|--set]
          [--frame]
PAIRS is "SPORT:DPORT ..." in sending order (--any-order: as a multiset;
--set: the set of pairs seen, each at least once, in any number).
--frame also checks what trafgen with trafgen/l4.cfg writes: a valid IPv4
header checksum, DF, TTL/hop limit 64, zero traffic class and flow label.
Prints "ok N" or one line per problem; exits 0 only if all is well.
"""
import sys
from collections import Counter

from scapy.fields import ShortField
from scapy.layers.inet import IP
from scapy.layers.inet6 import IPv6
from scapy.packet import Packet
from scapy.utils import checksum


class PortPair(Packet):
    """The first four bytes of an l4send header: source and dest port."""
    name = "PortPair"
    fields_desc = [ShortField("sport", 0), ShortField("dport", 0)]


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    any_order = "--any-order" in sys.argv
    as_set = "--set" in sys.argv
    frame = "--frame" in sys.argv
    cap, fam, proto, hdr, pay, src, dst, pairs = args
    proto, hdr, pay = int(proto), int(hdr), int(pay)
    want = [tuple(int(x) for x in p.split(":")) for p in pairs.split()]
    want_rest = bytes(hdr - 4) + bytes(j & 0xFF for j in range(pay))
    errs, got = [], []
    with open(cap) as f:
        lines = [ln.strip() for ln in f if ln.strip()]
    for i, line in enumerate(lines, 1):
        raw = bytes.fromhex(line)
        bad = []
        if fam == "4":
            ip = IP(raw)
            l4 = raw[ip.ihl * 4:ip.len]
            if ip.version != 4 or ip.ihl != 5:
                bad.append(f"version/ihl {ip.version}/{ip.ihl}")
            if ip.len != len(raw) or ip.len != 20 + hdr + pay:
                bad.append(f"total length {ip.len} (captured {len(raw)})")
            if frame and (checksum(raw[:20]) != 0 or ip.flags != "DF"
                          or ip.ttl != 64 or ip.frag != 0):
                bad.append(f"checksum/flags/ttl {ip.chksum:#x}/{ip.flags}/{ip.ttl}")
            fields = (ip.proto, ip.src, ip.dst)
        else:
            ip = IPv6(raw)
            l4 = raw[40:40 + ip.plen]
            if ip.version != 6 or ip.plen != len(raw) - 40 or ip.plen != hdr + pay:
                bad.append(f"version/payload length {ip.version}/{ip.plen}")
            if frame and (ip.hlim != 64 or ip.tc != 0 or ip.fl != 0):
                bad.append(f"hlim/tc/fl {ip.hlim}/{ip.tc}/{ip.fl}")
            fields = (ip.nh, ip.src, ip.dst)
        if fields != (proto, src, dst):
            bad.append(f"proto/src/dst {fields}")
        ports = PortPair(l4[:4])
        got.append((ports.sport, ports.dport))
        if l4[4:] != want_rest:
            bad.append("header padding or payload bytes differ")
        errs += [f"packet {i}: {b}" for b in bad]
    if as_set:
        if set(got) != set(want):
            errs.append(f"port pairs seen {sorted(set(got))[:8]} want {sorted(set(want))[:8]}")
    elif any_order:
        if Counter(got) != Counter(want):
            errs.append(f"port pairs {sorted(Counter(got).items())[:8]} want {sorted(Counter(want).items())[:8]}")
    elif got != want:
        errs.append(f"port pairs {got[:8]} want {want[:8]} ({len(got)} vs {len(want)} packets)")
    for e in errs[:10]:
        print(e)
    if not errs:
        print(f"ok {len(got)}")
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
