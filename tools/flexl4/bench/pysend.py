#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Plain Python raw-socket sender: the baseline l4send is compared with.

pysend.py DST PROTO SECONDS -- sends the same packets as
l4send -d DST -p PROTO --hdr-len 28 -S 32768 -D 4000 --cycle 16 (28-byte header,
sport 32768, dport 4000..4015) with socket.sendto() in a loop and prints
"packets seconds packets_per_second".
"""
import socket
import struct
import sys
import time


def main():
    dst, proto, secs = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    fam = socket.AF_INET6 if ":" in dst else socket.AF_INET
    sock = socket.socket(fam, socket.SOCK_RAW, proto)
    pkts = [struct.pack("!HH", 32768, 4000 + k) + bytes(24) for k in range(16)]
    addr = (dst, 0)
    sent = 0
    start = time.monotonic()
    end = start + secs
    while True:
        for pkt in pkts:
            sock.sendto(pkt, addr)
        sent += len(pkts)
        if time.monotonic() >= end:
            break
    took = time.monotonic() - start
    print(f"{sent} {took:.6f} {sent / took:.0f}")


if __name__ == "__main__":
    main()
