# SPDX-License-Identifier: GPL-2.0

"""
RSS helpers for tests that check where a device's RSS puts packets: the
Toeplitz hash, the queue it selects for a packet from the remote, and the
local device's per-queue RX packet counters (netdev netlink qstats, in
cfg.netnl).
"""

import contextlib
import socket
import time

from . import cmd, defer, ip, ksft_eq

# ethtool netlink's input-xfrm flags (RXH_XFRM_* of linux/ethtool.h)
XFRM_SYM_XOR = 1
XFRM_SYM_OR_XOR = 2
_XFRM_NAMES = {"sym-xor": XFRM_SYM_XOR, "sym-or-xor": XFRM_SYM_OR_XOR}


def toeplitz(key, data):
    """The Toeplitz hash of data (bytes) with key (bytes)."""
    k = int.from_bytes(key, "big")
    klen = len(key) * 8
    hval = 0
    for i in range(len(data) * 8):
        if data[i // 8] & (0x80 >> (i % 8)):
            hval ^= (k >> (klen - 32 - i)) & 0xffffffff
    return hval


def input_xfrm(rss):
    """
    The input transformation of an rss-get reply as its RXH_XFRM_* value,
    or None for one this module does not know.
    """
    names = rss.get("input-xfrm", set())
    if not names <= _XFRM_NAMES.keys():
        return None
    return sum(_XFRM_NAMES[name] for name in names)


def set_input_xfrm(cfg, xfrm):
    """
    Set the input transformation over ethtool netlink (NlError if the
    device refuses it) and check that rss-get reports it; none after the
    test case.
    """
    hdr = {"dev-index": cfg.ifindex}
    cfg.ethnl.rss_set({"header": hdr, "input-xfrm": xfrm})
    defer(cfg.ethnl.rss_set, {"header": hdr, "input-xfrm": 0})
    ksft_eq(input_xfrm(cfg.ethnl.rss_get({"header": hdr})), xfrm,
            comment="the input-xfrm rss-get reports")


def _xfrm_fields(src, dst, xfrm):
    """The hash input of a source and destination field pair."""
    if xfrm == XFRM_SYM_XOR:
        both = bytes(s ^ d for s, d in zip(src, dst))
        return both + both
    if xfrm == XFRM_SYM_OR_XOR:
        return (bytes(s | d for s, d in zip(src, dst)) +
                bytes(s ^ d for s, d in zip(src, dst)))
    return src + dst


def rss_queue(cfg, key, indir, ipver, sport, dport, ports=True, xfrm=0):
    """The local queue a Toeplitz key and table select for a packet from
    the remote, hashing its addresses and, with ports, its ports, after
    the input transformation xfrm (RXH_XFRM_*: the symmetric ones feed
    each field pair's XOR twice, or its OR then its XOR)."""
    fam = socket.AF_INET if ipver == "4" else socket.AF_INET6
    data = _xfrm_fields(socket.inet_pton(fam, cfg.remote_addr_v[ipver]),
                        socket.inet_pton(fam, cfg.addr_v[ipver]), xfrm)
    if ports:
        data += _xfrm_fields(sport.to_bytes(2, "big"),
                             dport.to_bytes(2, "big"), xfrm)
    return indir[toeplitz(key, data) % len(indir)]


def rx_queue_packets(cfg):
    """RX packets per queue id of the local device."""
    stats = cfg.netnl.qstats_get({"ifindex": cfg.ifindex, "scope": "queue"},
                                 dump=True)
    return {s["queue-id"]: s.get("rx-packets", 0)
            for s in stats if s["queue-type"] == "rx"}


def _neigh_permanent(undo, addr, lladdr, ifname, host=None):
    """Make addr's neighbour entry permanent, unless it is; undo after."""
    if "PERMANENT" in ip(f"neigh show {addr} dev {ifname}", host=host).stdout:
        return
    ip(f"neigh replace {addr} lladdr {lladdr} dev {ifname} nud permanent",
       host=host)
    undo.callback(cmd, f"ip neigh del {addr} dev {ifname}", fail=False,
                  host=host)


@contextlib.contextmanager
def quiet_rx(cfg):
    """
    Keep other packets off the local queues while the block runs: stop
    the remote's router solicitations, make both ends' neighbours
    permanent (no ARP or neighbour solicitation probes later) in each
    address family both have, and wait (up to 15 s) until the local
    device has received nothing for 1.5 s (link-up RS and MLD). Each
    change is undone at the end of the block, in reverse order (not with
    defer(), which only a test case may use).
    """
    with contextlib.ExitStack() as undo:
        rsol = f"net.ipv6.conf.{cfg.remote_ifname}.router_solicitations"
        old = cmd(f"sysctl -n {rsol}", host=cfg.remote).stdout.strip()
        cmd(f"sysctl -qw {rsol}=0", host=cfg.remote)
        undo.callback(cmd, f"sysctl -qw {rsol}={old}", fail=False,
                      host=cfg.remote)
        for ipver in ("4", "6"):
            if not cfg.addr_v[ipver] or not cfg.remote_addr_v[ipver]:
                continue
            _neigh_permanent(undo, cfg.remote_addr_v[ipver],
                             cfg.remote_dev["address"], cfg.ifname)
            _neigh_permanent(undo, cfg.addr_v[ipver], cfg.dev["address"],
                             cfg.remote_ifname, host=cfg.remote)
        deadline = time.monotonic() + 15
        last, since = None, time.monotonic()
        while time.monotonic() < deadline:
            total = sum(rx_queue_packets(cfg).values())
            if total != last:
                last, since = total, time.monotonic()
            elif time.monotonic() - since >= 1.5:
                break
            time.sleep(0.1)
        yield
