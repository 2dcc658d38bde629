#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Test ethtool ip4/ip6 ntuple rules on the first four L4 bytes (l4data).

For UDP, l4data holds the source and destination ports, which NICs parse
anyway. For an IP protocol the NIC does not parse (253, reserved for
experiments by RFC 3692) matching l4data needs a programmable parser, such
as the flex parser of mlx5 devices; devices without one refuse the rule
and the case is skipped with the driver's reason.

The remote sends matching and non-matching packets with a raw (or UDP)
socket; RSS sends everything to queue 0, so the rule's queue must receive
the matching packets and nothing else (up to a little unrelated traffic).
"""

import random
import shlex
import sys

from lib.py import (
    EthtoolFamily,
    KsftFailEx,
    KsftSkipEx,
    KsftXfailEx,
    NetdevFamily,
    NetDrvEpEnv,
    NlError,
    cmd,
    defer,
    ethtool,
    ksft_eq,
    ksft_exit,
    ksft_ge,
    ksft_in,
    ksft_lt,
    ksft_pr,
    ksft_run,
    rand_port,
)

KSFT_SKIP = 4
IPPROTO_UDP = 17
IPPROTO_EXPERIMENT = 253
PKT_CNT = 200
# Unrelated packets (neighbour discovery, for example) that may reach the
# rule's queue while a case runs; every other packet there is a steering bug
RX_SLACK = 5

# Run by the remote: python3 -c SENDER DST PROTO SPORT DPORT COUNT.
# UDP goes through a UDP socket (the stack fills in the checksum), other
# protocols through a raw socket, with a 32-byte header that starts with
# the two ports.
SENDER = """
import socket, struct, sys
dst = sys.argv[1]
proto, sport, dport, count = (int(x) for x in sys.argv[2:6])
fam = socket.AF_INET6 if ":" in dst else socket.AF_INET
if proto == socket.IPPROTO_UDP:
    sock = socket.socket(fam, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("", sport))
    data, addr = b"l4data", (dst, dport)
else:
    sock = socket.socket(fam, socket.SOCK_RAW, proto)
    data, addr = struct.pack("!HH28x", sport, dport), (dst, 0)
for _ in range(count):
    sock.sendto(data, addr)
"""


def _local_addr(cfg, ipver):
    """Address the remote sends to; skip the case without that family."""
    addr = cfg.env.get(f"LOCAL_V{ipver}")
    if not addr or not cfg.env.get(f"REMOTE_V{ipver}"):
        raise KsftSkipEx(f"Test requires IPv{ipver} connectivity")
    return addr


def _require_ntuple(cfg):
    feature = ethtool(f"-k {cfg.ifname}", json=True)[0]["ntuple-filters"]
    if feature["active"]:
        return
    if feature["fixed"]:
        raise KsftSkipEx(f"{cfg.ifname} does not support ntuple-filters")
    ethtool(f"-K {cfg.ifname} ntuple-filters on")
    defer(ethtool, f"-K {cfg.ifname} ntuple-filters off")


def _isolate_queue(cfg):
    """Make RSS use queue 0 only and return another queue for the rule."""
    channels = cfg.ethnl.channels_get({"header": {"dev-index": cfg.ifindex}})
    count = channels.get("combined-count", 0)
    if count < 2:
        if count == 0 or channels.get("combined-max", 0) < 2:
            raise KsftSkipEx("Test requires at least 2 combined channels")
        ethtool(f"-L {cfg.ifname} combined 2")
        defer(ethtool, f"-L {cfg.ifname} combined {count}")
        count = 2

    ethtool(f"-X {cfg.ifname} equal 1")
    defer(ethtool, f"-X {cfg.ifname} default")
    return random.randrange(1, count)


def _rx_packets(cfg):
    """RX packets per queue id, from the netdev netlink queue stats."""
    cfg.wait_hw_stats_settle()
    try:
        stats = cfg.netdevnl.qstats_get({"ifindex": cfg.ifindex,
                                         "scope": ["queue"]}, dump=True)
    except NlError as err:
        raise KsftSkipEx(f"No per-queue stats: {err}") from err
    return {q["queue-id"]: q.get("rx-packets", 0)
            for q in stats if q["queue-type"] == "rx"}


def _kernel_log():
    return cmd("dmesg", fail=False).stdout.splitlines()


def _driver_reason(cfg, log_before):
    """The driver's last message about this netdev since log_before.

    The ethtool ioctl has no extack, so drivers explain a refused rule
    in the kernel log only.
    """
    prefix = f" {cfg.ifname}: "
    for line in reversed(_kernel_log()[len(log_before):]):
        if prefix in line:
            return line.split(prefix, 1)[1].strip()
    return "no message in the kernel log"


def _driver(cfg):
    """The driver name of the netdev, as ethtool -i reports it."""
    for line in ethtool(f"-i {cfg.ifname}").stdout.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "driver":
            return value.strip()
    return ""


def _add_rule(cfg, spec, proto):
    """Insert a rule, skip if the device refuses it; return its ID."""
    # EOPNOTSUPP and EINVAL are how a driver without l4data refuses the
    # rule (stock mlx5 says EINVAL), so both skip. But a skip on EINVAL
    # would also hide a regression of the UDP translation on a driver that
    # should support it: l4data for UDP is the port pair, which mlx5 with
    # l4data support translates to its native port match on any device.
    # There EINVAL is a failure.
    refusals = ["Operation not supported", "No space left on device"]
    if proto != IPPROTO_UDP or _driver(cfg) != "mlx5_core":
        refusals.append("Invalid argument")

    log_before = _kernel_log()
    res = cmd(f"ethtool -N {cfg.ifname} {spec}", fail=False)
    if res.ret == 0 and "Added rule with ID" in res.stdout:
        rule_id = int(res.stdout.split()[-1])
        defer(ethtool, f"-N {cfg.ifname} delete {rule_id}")
        return rule_id

    # Some ethtool versions print the error but exit with 0
    for refusal in refusals:
        if refusal in res.stderr:
            raise KsftSkipEx(f"'{spec}' refused ({refusal}): "
                             f"{_driver_reason(cfg, log_before)}")
    raise KsftFailEx(f"ethtool -N {cfg.ifname} {spec} failed: "
                     f"{res.stderr.strip()}: {_driver_reason(cfg, log_before)}")


def _check_rule(cfg, rule_id, ipver, proto, l4data, mask, queue):
    """ethtool -n must print the rule back as it was given."""
    out = ethtool(f"-n {cfg.ifname} rule {rule_id}").stdout
    lines = [line.strip() for line in out.splitlines()]
    for want in (f"Rule Type: Raw IPv{ipver}",
                 f"Protocol: {proto} mask: 0x0",
                 f"L4 bytes: {l4data:#x} mask: {mask:#x}",
                 f"Action: Direct to queue {queue}"):
        ksft_in(want, lines, f"ethtool -n {cfg.ifname} rule {rule_id}")


def _send(cfg, dst, proto, sport, dport):
    argv = ["python3", "-c", SENDER, dst, str(proto), str(sport), str(dport),
            str(PKT_CNT)]
    cmd(shlex.join(argv), host=cfg.remote)


def _steer(cfg, ipver, proto, l4mask, hit, misses):
    """Steer (sport, dport) @hit to a queue and check that @misses stay out.

    @l4mask is ethtool's mask (1 = ignore) for the l4data value of @hit;
    @misses is a list of (sport, dport) pairs that the rule must not match.
    """
    dst = _local_addr(cfg, ipver)
    _require_ntuple(cfg)
    cfg.require_cmd("python3", local=False, remote=True)
    queue = _isolate_queue(cfg)

    l4data = (hit[0] << 16 | hit[1]) & ~l4mask & 0xffffffff
    rule_id = _add_rule(cfg, f"flow-type ip{ipver} l4proto {proto} "
                             f"l4data {l4data:#x} m {l4mask:#x} "
                             f"action {queue}", proto)
    _check_rule(cfg, rule_id, ipver, proto, l4data, l4mask, queue)

    before = _rx_packets(cfg)
    _send(cfg, dst, proto, *hit)
    for miss in misses:
        _send(cfg, dst, proto, *miss)
    after = _rx_packets(cfg)
    cnt = {q: after[q] - before.get(q, 0) for q in after}
    ksft_pr(f"queue {queue} is the rule's, queue 0 takes the rest: {cnt}")

    # Exactly the matching packets, give or take RX_SLACK unrelated ones:
    # any non-matching packet steered by the rule shows up as an excess
    ksft_ge(cnt.get(queue, 0), PKT_CNT, "matching packets on the rule's queue")
    ksft_lt(cnt.get(queue, 0), PKT_CNT + RX_SLACK + 1,
            f"non-matching packets on the rule's queue (at most {RX_SLACK} "
            "unrelated packets allowed)")
    ksft_ge(cnt.get(0, 0), len(misses) * PKT_CNT,
            "non-matching packets on queue 0")
    others = sum(n for q, n in cnt.items() if q not in (0, queue))
    ksft_eq(others, 0, "packets on the idle queues")


def _port_pair(cfg, ipver, proto):
    """An exact (sport, dport) rule.

    One miss differs in dport only, the other in sport only, so a driver
    that drops or mis-splits either half of l4data fails.
    """
    sport, dport = rand_port(), rand_port()
    _steer(cfg, ipver, proto, 0, (sport, dport),
           [(sport, dport ^ 1), (sport ^ 1, dport)])


def _dport_nibble(cfg, ipver, proto):
    """One of 16 buckets on the low nibble of dport, any sport."""
    dport = rand_port()
    miss = (dport & ~0xf) | ((dport + 1) & 0xf)
    _steer(cfg, ipver, proto, 0xfffffff0, (rand_port(), dport),
           [(rand_port(), miss)])


def udp4_port_pair(cfg):
    """UDP over IPv4: l4data is matched on the parsed ports."""
    _port_pair(cfg, "4", IPPROTO_UDP)


def udp6_port_pair(cfg):
    """UDP over IPv6: l4data is matched on the parsed ports."""
    _port_pair(cfg, "6", IPPROTO_UDP)


def flex4_port_pair(cfg):
    """Unparsed protocol over IPv4, exact first dword."""
    _port_pair(cfg, "4", IPPROTO_EXPERIMENT)


def flex6_port_pair(cfg):
    """Unparsed protocol over IPv6, exact first dword."""
    _port_pair(cfg, "6", IPPROTO_EXPERIMENT)


def flex4_dport_nibble(cfg):
    """Unparsed protocol over IPv4, masked to the low nibble of dport."""
    _dport_nibble(cfg, "4", IPPROTO_EXPERIMENT)


def flex6_dport_nibble(cfg):
    """Unparsed protocol over IPv6, masked to the low nibble of dport."""
    _dport_nibble(cfg, "6", IPPROTO_EXPERIMENT)


def main() -> None:
    """Ksft boilerplate main."""
    try:
        env = NetDrvEpEnv(__file__, nsim_test=False)
    except KsftXfailEx:
        # Without NETIF the framework would use netdevsim: no ntuple filters
        print("TAP version 13")
        print("1..0 # SKIP NETIF is not set, and netdevsim has no ntuple filters")
        ksft_pr("Set NETIF, LOCAL_V4/REMOTE_V4 and/or LOCAL_V6/REMOTE_V6,",
                "REMOTE_TYPE and REMOTE_ARGS, see drivers/net/README.rst")
        sys.exit(KSFT_SKIP)

    with env as cfg:
        cfg.ethnl = EthtoolFamily()
        cfg.netdevnl = NetdevFamily()
        ksft_run([udp4_port_pair, udp6_port_pair,
                  flex4_port_pair, flex6_port_pair,
                  flex4_dport_nibble, flex6_dport_nibble], args=(cfg,))
    ksft_exit()


if __name__ == "__main__":
    main()
