# SPDX-License-Identifier: GPL-2.0

"""
RSS helpers for tests that check where a device's RSS puts packets: the
Toeplitz hash, the queue it selects for a packet from the remote, and the
local device's per-queue RX packet counters (netdev netlink qstats, in
cfg.netnl).
"""

import socket
import time

from . import cmd, ip


def toeplitz(key, data):
    """The Toeplitz hash of data (bytes) with key (bytes)."""
    k = int.from_bytes(key, "big")
    klen = len(key) * 8
    hval = 0
    for i in range(len(data) * 8):
        if data[i // 8] & (0x80 >> (i % 8)):
            hval ^= (k >> (klen - 32 - i)) & 0xffffffff
    return hval


def rss_queue(cfg, key, indir, ipver, sport, dport, ports=True):
    """The local queue a Toeplitz key and table select for a packet from
    the remote, hashing its addresses and, with ports, its ports."""
    fam = socket.AF_INET if ipver == "4" else socket.AF_INET6
    data = socket.inet_pton(fam, cfg.remote_addr_v[ipver])
    data += socket.inet_pton(fam, cfg.addr_v[ipver])
    if ports:
        data += sport.to_bytes(2, "big") + dport.to_bytes(2, "big")
    return indir[toeplitz(key, data) % len(indir)]


def rx_queue_packets(cfg):
    """RX packets per queue id of the local device."""
    stats = cfg.netnl.qstats_get({"ifindex": cfg.ifindex, "scope": "queue"},
                                 dump=True)
    return {s["queue-id"]: s.get("rx-packets", 0)
            for s in stats if s["queue-type"] == "rx"}


def wait_rx_quiet(cfg):
    """
    Keep other packets off the local queues: stop the remote's router
    solicitations, make both ends' neighbours permanent (no ARP or
    neighbour solicitation probes later) in each address family both
    have, and wait (up to 15 s) until the local device has received
    nothing for 1.5 s (link-up RS and MLD).
    """
    cmd(f"sysctl -qw net.ipv6.conf.{cfg.remote_ifname}.router_solicitations=0",
        host=cfg.remote)
    for ipver in ("4", "6"):
        if not cfg.addr_v[ipver] or not cfg.remote_addr_v[ipver]:
            continue
        ip(f"neigh replace {cfg.remote_addr_v[ipver]} "
           f"lladdr {cfg.remote_dev['address']} dev {cfg.ifname} nud permanent")
        ip(f"neigh replace {cfg.addr_v[ipver]} "
           f"lladdr {cfg.dev['address']} dev {cfg.remote_ifname} nud permanent",
           host=cfg.remote)
    deadline = time.monotonic() + 15
    last, since = None, time.monotonic()
    while time.monotonic() < deadline:
        total = sum(rx_queue_packets(cfg).values())
        if total != last:
            last, since = total, time.monotonic()
        elif time.monotonic() - since >= 1.5:
            return
        time.sleep(0.1)
