#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0

"""
RSS of netdevsim: the Toeplitz key and indirection table ethtool sets are
what ethtool reads back, and every packet the peer sends lands on the queue
that the Toeplitz hash of its addresses (and ports, per rx-flow-hash)
selects, after the input transformation (none, symmetric-xor or
symmetric-or-xor).
"""

import errno
import random
import socket
import time

from lib.py import (
    XFRM_SYM_OR_XOR,
    XFRM_SYM_XOR,
    CmdExitFailure,
    EthtoolFamily,
    KsftNamedVariant,
    NetdevFamily,
    NetDrvEpEnv,
    NetNSEnter,
    NlError,
    defer,
    ethtool,
    ksft_eq,
    ksft_exit,
    ksft_in,
    ksft_raises,
    ksft_run,
    ksft_variants,
    quiet_rx,
    rss_queue,
    rx_queue_packets,
    set_input_xfrm,
)

QUEUES = 4
PACKETS = 20
# RXH_IP_SRC | RXH_IP_DST, and RXH_L4_B_0_1 (the source port)
RXH_SD = 0x30
RXH_SDF = 0x70

# Microsoft's RSS verification key
MS_KEY = bytes.fromhex("6d5a56da255b0ec24167253d43a38fb0d0ca2bcbae7b30b4"
                       "77cb2da38030f20c6a42b73bbeac01fa")


def rx_queue_delta(cfg, before, count):
    """
    Packets per queue since before, once count arrived (or after 5 s) and
    nothing more came for 0.1 s.
    """
    deadline = time.monotonic() + 5
    last = None
    while True:
        after = rx_queue_packets(cfg)
        got = {q: after[q] - before.get(q, 0) for q in after}
        if time.monotonic() > deadline or \
           (sum(got.values()) >= count and got == last):
            return got
        last = got
        time.sleep(0.1)


def send_udp(cfg, ipver, sport, dport, count):
    """Send count datagrams from the remote's sport to our dport."""
    fam = socket.AF_INET if ipver == "4" else socket.AF_INET6
    with NetNSEnter(cfg.remote.name):
        sock = socket.socket(fam, socket.SOCK_DGRAM)
    with sock:
        sock.bind((cfg.remote_addr_v[ipver], sport))
        for _ in range(count):
            sock.sendto(b"rss", (cfg.addr_v[ipver], dport))


def set_rss(cfg, key, indir):
    """Set key and table over ethtool netlink, restore the defaults after."""
    cfg.ethnl.rss_set({"header": {"dev-index": cfg.ifindex},
                       "hkey": key, "indir": indir})
    defer(ethtool, f"-X {cfg.ifname} default")


def check_steering(cfg, key, indir, ipver, flows, ports=True, xfrm=0):
    """Send each flow's packets and check they all land on its queue."""
    dport = 4000 + random.randrange(1000)
    fam = socket.AF_INET if ipver == "4" else socket.AF_INET6
    with socket.socket(fam, socket.SOCK_DGRAM) as sink:
        sink.bind((cfg.addr_v[ipver], dport))
        # resolve the neighbours first, so that only the test's packets count
        before = rx_queue_packets(cfg)
        send_udp(cfg, ipver, 1, dport, 1)
        rx_queue_delta(cfg, before, 1)
        for sport in flows:
            want = rss_queue(cfg, key, indir, ipver, sport, dport, ports,
                             xfrm)
            before = rx_queue_packets(cfg)
            send_udp(cfg, ipver, sport, dport, PACKETS)
            got = rx_queue_delta(cfg, before, PACKETS)
            ksft_eq(got, {q: PACKETS if q == want else 0 for q in got},
                    comment=f"sport {sport} -> queue {want}")


def _ipvers():
    for ipver in ("4", "6"):
        yield KsftNamedVariant(f"ipv{ipver}", ipver)


def key_table_roundtrip(cfg):
    """ethtool -x shows the key and table that ethtool netlink set."""
    indir = [3, 1, 2, 0] * 32
    set_rss(cfg, MS_KEY, indir)
    rss = cfg.ethnl.rss_get({"header": {"dev-index": cfg.ifindex}})
    ksft_eq(rss["hkey"], MS_KEY)
    ksft_eq(rss["indir"], indir)
    ksft_eq(rss["hfunc"], 1)  # ETH_RSS_HASH_TOP

    text = ethtool(f"-x {cfg.ifname}").stdout
    ksft_in(":".join(f"{b:02x}" for b in MS_KEY), text)
    ksft_in("    0:      3     1     2     0     3     1     2     0", text)
    ksft_in("  120:      3     1     2     0     3     1     2     0", text)


def _xfrms():
    for ipver in ("4", "6"):
        for name, xfrm in (("", 0), ("_sym_xor", XFRM_SYM_XOR),
                           ("_sym_or_xor", XFRM_SYM_OR_XOR)):
            yield KsftNamedVariant(f"ipv{ipver}{name}", ipver, xfrm)


@ksft_variants(_xfrms())
def udp_ports_steer(cfg, ipver, xfrm):
    """
    With sdfn (the default), the source port picks the queue, through
    the input transformation set over ethtool netlink.
    """
    indir = [random.randrange(QUEUES) for _ in range(128)]
    set_rss(cfg, MS_KEY, indir)
    if xfrm:
        set_input_xfrm(cfg, xfrm)
    check_steering(cfg, MS_KEY, indir, ipver,
                   random.sample(range(1024, 65536), 8), xfrm=xfrm)


@ksft_variants(_ipvers())
def udp_addrs_only(cfg, ipver):
    """With rx-flow-hash sd, the ports do not count."""
    flow = "udp4" if ipver == "4" else "udp6"
    ethtool(f"-N {cfg.ifname} rx-flow-hash {flow} sd")
    defer(ethtool, f"-N {cfg.ifname} rx-flow-hash {flow} sdfn")
    ksft_in("IP DA", ethtool(f"-n {cfg.ifname} rx-flow-hash {flow}").stdout)
    indir = [q % QUEUES for q in range(128)]
    set_rss(cfg, MS_KEY, indir)
    check_steering(cfg, MS_KEY, indir, ipver,
                   random.sample(range(1024, 65536), 4), ports=False)


def random_key_steer(cfg):
    """A random key, after the channel count changed."""
    key = random.randbytes(40)
    ethtool(f"-L {cfg.ifname} combined {QUEUES - 1}")
    defer(ethtool, f"-L {cfg.ifname} combined {QUEUES}")
    rss = cfg.ethnl.rss_get({"header": {"dev-index": cfg.ifindex}})
    # the default table follows the channel count
    ksft_eq(rss["indir"], [q % (QUEUES - 1) for q in range(128)])
    cfg.ethnl.rss_set({"header": {"dev-index": cfg.ifindex}, "hkey": key})
    check_steering(cfg, key, rss["indir"], "4",
                   random.sample(range(1024, 65536), 6))


def refusals(cfg):
    """What netdevsim RSS cannot do is refused."""
    with ksft_raises(NlError) as err:
        cfg.ethnl.rss_set({"header": {"dev-index": cfg.ifindex},
                           "hfunc": 2})  # ETH_RSS_HASH_XOR
    ksft_eq(err.exception.error, errno.EOPNOTSUPP)
    ksft_eq(err.exception.nl_msg.extack["msg"],
            "netdevsim: the only RSS hash function is Toeplitz")

    with ksft_raises(CmdExitFailure):
        ethtool(f"-X {cfg.ifname} hfunc xor")

    for flow, fields, msg in (
            ("udp4", RXH_SDF,
             "netdevsim: the hash fields must be sd (addresses) or sdfn (and ports)"),
            ("sctp4", RXH_SD,
             "netdevsim: only the hash fields of tcp4, udp4, tcp6 and udp6 can be set")):
        with ksft_raises(NlError) as err:
            cfg.ethnl.rss_set({"header": {"dev-index": cfg.ifindex},
                               "flow-hash": {flow: fields}})
        ksft_eq(err.exception.error, errno.EOPNOTSUPP, comment=flow)
        ksft_eq(err.exception.nl_msg.extack["msg"], msg)
    ksft_in("L4 bytes 0 & 1 [TCP/UDP src port]",
            ethtool(f"-n {cfg.ifname} rx-flow-hash udp4").stdout)


def main() -> None:
    """Ksft boiler plate main"""
    with NetDrvEpEnv(__file__, nsim_test=True, queue_count=QUEUES) as cfg:
        cfg.ethnl = EthtoolFamily()
        cfg.netnl = NetdevFamily()
        with quiet_rx(cfg):
            ksft_run([key_table_roundtrip, udp_ports_steer, udp_addrs_only,
                      random_key_steer, refusals], args=(cfg,))
    ksft_exit()


if __name__ == "__main__":
    main()
