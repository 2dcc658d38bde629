#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0

"""
PSP source port steering: the receiver's rx-assoc returns the UDP source
port that its RSS steers to the queue it asks for, the sender's tx-assoc
uses it, and the PSP packets of the connection land on that queue, by the
receiver's per-queue RX counters.

Runs on netdevsim and on any PSP device whose remote end is a network
namespace on this host (REMOTE_TYPE=netns, e.g. two ports cabled to each
other): the test makes the sender's tx-assoc itself, in the remote's
namespace. On a real device it checks what netdevsim cannot: that the
queue the device's RSS picks is the one the key, table and hash fields it
reports give.
"""

import errno
import socket

from lib.py import (
    CmdExitFailure,
    EthtoolFamily,
    KsftNamedVariant,
    KsftSkipEx,
    NetdevFamily,
    NetDrvEpEnv,
    NetNSEnter,
    NlError,
    PSPFamily,
    defer,
    ethtool,
    ksft_eq,
    ksft_exit,
    ksft_ge,
    ksft_gt,
    ksft_raises,
    ksft_run,
    ksft_variants,
    rss_queue,
    rx_queue_packets,
    wait_rx_quiet,
)

QUEUES = 4
PSP_PORT = 1000
RXH_PORTS = {"l4-b-0-1", "l4-b-2-3"}  # ethtool netlink's flags: the ports are hashed


def is_nsim(cfg):
    """Whether the local device is netdevsim."""
    return cfg.get_local_nsim_dev() is not None


def device_queue(cfg, ipver, proto, sport, dport):
    """
    The local queue the device's RSS picks for a packet of proto ("tcp" or
    "udp") from the remote, by the key, table and hash fields it reports.
    """
    rss = cfg.ethnl.rss_get({"header": {"dev-index": cfg.ifindex}})
    if rss.get("input-xfrm"):
        raise KsftSkipEx("the test's Toeplitz has no symmetric input "
                         f"transformation (input-xfrm {rss['input-xfrm']})")
    fields = rss.get("flow-hash", {}).get(f"{proto}{ipver}", RXH_PORTS)
    return rss_queue(cfg, rss["hkey"], rss["indir"], ipver, sport, dport,
                     ports=RXH_PORTS <= set(fields))


def require_queue(cfg, queue):
    """Skip unless the device's indirection table holds queue."""
    rss = cfg.ethnl.rss_get({"header": {"dev-index": cfg.ifindex}})
    if queue not in rss["indir"]:
        raise KsftSkipEx(f"the RSS indirection table does not hold queue {queue}")


def psp_dev_id(cfg, pspnl, ifindex):
    """
    The PSP device of ifindex, with every version it can do enabled; the
    versions it had are restored at the end (cfg.psp_restore).
    """
    for dev in pspnl.dev_get({}, dump=True):
        if dev["ifindex"] == ifindex:
            if dev["psp-versions-ena"] != dev["psp-versions-cap"]:
                cfg.psp_restore.append((pspnl, {
                    "id": dev["id"],
                    "psp-versions-ena": dev["psp-versions-ena"]}))
                pspnl.dev_set({"id": dev["id"],
                               "psp-versions-ena": dev["psp-versions-cap"]})
            return dev["id"]
    raise KsftSkipEx(f"no PSP device on ifindex {ifindex}")


def connect(cfg, ipver):
    """A TCP connection: (local socket, remote socket)."""
    fam = socket.AF_INET if ipver == "4" else socket.AF_INET6
    with socket.socket(fam, socket.SOCK_STREAM) as lsock:
        lsock.bind((cfg.addr_v[ipver], 0))
        lsock.listen()
        with NetNSEnter(cfg.remote.name):
            rsock = socket.socket(fam, socket.SOCK_STREAM)
        rsock.connect((cfg.addr_v[ipver], lsock.getsockname()[1]))
        lsock_conn, _ = lsock.accept()
    defer(rsock.close)
    defer(lsock_conn.close)
    return lsock_conn, rsock


def rx_assoc_steered(cfg, lsock, steer):
    """
    The local rx-assoc with steer. On a real device that cannot steer by
    the port (EOPNOTSUPP: no RSS report, not Toeplitz, UDP ports not
    hashed) the test is skipped with the reason; on netdevsim it fails.
    """
    try:
        return cfg.pspnl.rx_assoc({"version": 0, "dev-id": cfg.psp_id,
                                   "sock-fd": lsock.fileno(), **steer})
    except NlError as exc:
        if exc.error == errno.EOPNOTSUPP and not is_nsim(cfg):
            msg = exc.nl_msg.extack.get("msg", "") if exc.nl_msg else ""
            raise KsftSkipEx(f"rx-assoc cannot steer here: {msg}") from exc
        raise


def associate(cfg, lsock, rsock, steer):
    """PSP both ways; the local end asks for a port with steer. The port."""
    rx_resp = rx_assoc_steered(cfg, lsock, steer)
    peer_rx = cfg.peer_pspnl.rx_assoc({"version": 0, "dev-id": cfg.peer_psp_id,
                                       "sock-fd": rsock.fileno()})
    cfg.peer_pspnl.tx_assoc({"version": 0, "dev-id": cfg.peer_psp_id,
                             "sock-fd": rsock.fileno(),
                             "tx-key": rx_resp["rx-key"],
                             "sport": rx_resp["sport"]})
    cfg.pspnl.tx_assoc({"version": 0, "dev-id": cfg.psp_id,
                        "sock-fd": lsock.fileno(),
                        "tx-key": peer_rx["rx-key"]})
    return rx_resp["sport"]


def transfer(lsock, rsock, size):
    """Send size bytes from the remote, read them locally."""
    rsock.sendall(b"p" * size)
    got = 0
    while got < size:
        got += len(lsock.recv(65536))


def check_queue(cfg, lsock, rsock, queue):
    """
    The remote's data lands on queue: every packet on netdevsim, whose
    link carries nothing else; at least 90% of what the device received
    on a real one, whose link may carry other packets.
    """
    transfer(lsock, rsock, 1)
    if not is_nsim(cfg):
        cfg.wait_hw_stats_settle()
    before = rx_queue_packets(cfg)
    transfer(lsock, rsock, 200000)
    if not is_nsim(cfg):
        cfg.wait_hw_stats_settle()
    after = rx_queue_packets(cfg)
    got = {q: after[q] - before.get(q, 0) for q in after}
    ksft_gt(got.get(queue, 0), 0, comment=f"packets on queue {queue}")
    if is_nsim(cfg):
        ksft_eq(got, {q: got[queue] if q == queue else 0 for q in after},
                comment=f"packets per queue, all on {queue}")
    else:
        ksft_ge(got[queue] * 10, sum(got.values()) * 9,
                comment=f"packets per queue {got}, 90% on {queue}")


def _queues():
    for ipver in ("4", "6"):
        for queue in range(QUEUES):
            yield KsftNamedVariant(f"ipv{ipver}_queue{queue}", ipver, queue)


@ksft_variants(_queues())
def steer_queue(cfg, ipver, queue):
    """rx-assoc's steer-queue: the port leads to that queue."""
    require_setup(cfg, ipver)
    require_queue(cfg, queue)
    lsock, rsock = connect(cfg, ipver)
    sport = associate(cfg, lsock, rsock, {"steer-queue": queue})
    ksft_eq(device_queue(cfg, ipver, "udp", sport, PSP_PORT), queue)
    check_queue(cfg, lsock, rsock, queue)


def _ipvers():
    for ipver in ("4", "6"):
        yield KsftNamedVariant(f"ipv{ipver}", ipver)


@ksft_variants(_ipvers())
def steer_sock(cfg, ipver):
    """rx-assoc's steer-sock: the queue the plain TCP packets came on."""
    require_setup(cfg, ipver)
    lsock, rsock = connect(cfg, ipver)
    queue = device_queue(cfg, ipver, "tcp", rsock.getsockname()[1],
                         lsock.getsockname()[1])
    sport = associate(cfg, lsock, rsock, {"steer-sock": True})
    ksft_eq(device_queue(cfg, ipver, "udp", sport, PSP_PORT), queue)
    check_queue(cfg, lsock, rsock, queue)


def no_steering(cfg):
    """Without steer attributes, rx-assoc returns no port."""
    require_setup(cfg, "4")
    lsock, _ = connect(cfg, "4")
    rx_resp = cfg.pspnl.rx_assoc({"version": 0, "dev-id": cfg.psp_id,
                                  "sock-fd": lsock.fileno()})
    ksft_eq("sport" in rx_resp, False)


def _refuse(cfg, steer, want_err, msg):
    lsock, _ = connect(cfg, "4")
    with ksft_raises(NlError) as err:
        cfg.pspnl.rx_assoc({"version": 0, "dev-id": cfg.psp_id,
                            "sock-fd": lsock.fileno(), **steer})
    ksft_eq(err.exception.error, want_err)
    ksft_eq(err.exception.nl_msg.extack["msg"], msg)


def _ethtool_or_skip(args):
    try:
        ethtool(args)
    except CmdExitFailure as exc:
        raise KsftSkipEx(f"the device refuses ethtool {args}") from exc


def refuse_ports_not_hashed(cfg):
    """A device whose RSS does not hash the UDP ports gets no port."""
    require_setup(cfg, "4")
    rss = cfg.ethnl.rss_get({"header": {"dev-index": cfg.ifindex}})
    old = rss.get("flow-hash", {}).get("udp4",
                                      RXH_PORTS | {"ip-src", "ip-dst"})
    _ethtool_or_skip(f"-N {cfg.ifname} rx-flow-hash udp4 sd")
    defer(cfg.ethnl.rss_set, {"header": {"dev-index": cfg.ifindex},
                              "flow-hash": {"udp4": old}})
    _refuse(cfg, {"steer-queue": 1}, errno.EOPNOTSUPP,
            "RSS does not hash the UDP ports (see rx-flow-hash udp4/udp6)")


def refuse_queue_not_in_table(cfg):
    """A queue the indirection table does not hold gets no port."""
    require_setup(cfg, "4")
    _ethtool_or_skip(f"-X {cfg.ifname} equal 2")
    defer(ethtool, f"-X {cfg.ifname} default")
    _refuse(cfg, {"steer-queue": 3}, errno.ENOENT,
            "no RSS indirection table entry holds the queue")


def refuse_detached(cfg):
    """
    A detached device (as during a reset) gets no port, and its RSS
    configuration is not read: the driver's get_rxfh, set to fail, is not
    called.
    """
    require_setup(cfg, "4")
    if not is_nsim(cfg):
        raise KsftSkipEx("detaching the device needs netdevsim")
    port = cfg.get_local_nsim_dev().nsims[0]
    lsock, _ = connect(cfg, "4")
    port.dfs_write("ethtool/get_err", str(errno.EIO))
    defer(port.dfs_write, "ethtool/get_err", "0")
    port.dfs_write("detach", "1")
    defer(port.dfs_write, "detach", "0")
    with ksft_raises(NlError) as err:
        cfg.pspnl.rx_assoc({"version": 0, "dev-id": cfg.psp_id,
                            "sock-fd": lsock.fileno(), "steer-queue": 1})
    ksft_eq(err.exception.error, errno.ENODEV)
    ksft_eq(err.exception.nl_msg.extack["msg"],
            "The socket's device is detached or going away")


def require_setup(cfg, ipver):
    """Skip with the reason the setup gave, or without the address family."""
    if cfg.skip_reason:
        raise KsftSkipEx(cfg.skip_reason)
    cfg.require_ipver(ipver)


def setup(cfg):
    """
    The families and both ends' PSP devices; KsftSkipEx if the remote is
    not a network namespace here or either end has no PSP device.
    """
    if not is_nsim(cfg) and cfg.env.get("REMOTE_TYPE") != "netns":
        raise KsftSkipEx("the test makes the sender's tx-assoc itself: the "
                         "remote must be a network namespace on this host "
                         "(REMOTE_TYPE=netns)")
    cfg.ethnl = EthtoolFamily()
    cfg.netnl = NetdevFamily()
    cfg.pspnl = PSPFamily()
    cfg.psp_id = psp_dev_id(cfg, cfg.pspnl, cfg.ifindex)
    with NetNSEnter(cfg.remote.name):
        cfg.peer_pspnl = PSPFamily()
        cfg.peer_psp_id = psp_dev_id(cfg, cfg.peer_pspnl, cfg.remote_ifindex)
    if not rx_queue_packets(cfg):
        raise KsftSkipEx("the device reports no per-queue RX packet counts "
                         "(netdev qstats)")
    wait_rx_quiet(cfg)


def main() -> None:
    """Ksft boiler plate main"""
    with NetDrvEpEnv(__file__, queue_count=QUEUES) as cfg:
        cfg.skip_reason = None
        cfg.psp_restore = []
        try:
            setup(cfg)
        except KsftSkipEx as exc:
            cfg.skip_reason = str(exc)
        try:
            ksft_run([steer_queue, steer_sock, no_steering,
                      refuse_ports_not_hashed, refuse_queue_not_in_table,
                      refuse_detached],
                     args=(cfg,))
        finally:
            for pspnl, versions in cfg.psp_restore:
                pspnl.dev_set(versions)
    ksft_exit()


if __name__ == "__main__":
    main()
