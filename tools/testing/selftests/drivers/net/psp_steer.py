#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0

"""
PSP source port steering on netdevsim: the receiver's rx-assoc returns the
UDP source port that its RSS steers to the queue it asks for, the sender's
tx-assoc uses it, and every PSP packet of the connection lands on that
queue, by the receiver's per-queue RX counters.
"""

import errno
import socket

from lib.py import (
    EthtoolFamily,
    KsftNamedVariant,
    NetdevFamily,
    NetDrvEpEnv,
    NetNSEnter,
    NlError,
    PSPFamily,
    defer,
    ethtool,
    ksft_eq,
    ksft_exit,
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


def device_queue(cfg, ipver, sport, dport):
    """The local queue the device's RSS picks for a packet from the remote."""
    rss = cfg.ethnl.rss_get({"header": {"dev-index": cfg.ifindex}})
    return rss_queue(cfg, rss["hkey"], rss["indir"], ipver, sport, dport)


def psp_dev_id(pspnl, ifindex):
    """The PSP device of ifindex, with every version it can do enabled."""
    for dev in pspnl.dev_get({}, dump=True):
        if dev["ifindex"] == ifindex:
            if dev["psp-versions-ena"] != dev["psp-versions-cap"]:
                pspnl.dev_set({"id": dev["id"],
                               "psp-versions-ena": dev["psp-versions-cap"]})
            return dev["id"]
    raise RuntimeError(f"no PSP device on ifindex {ifindex}")


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


def associate(cfg, lsock, rsock, steer):
    """PSP both ways; the local end asks for a port with steer. The port."""
    rx_resp = cfg.pspnl.rx_assoc({"version": 0, "dev-id": cfg.psp_id,
                                  "sock-fd": lsock.fileno(), **steer})
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
    """Every packet of the remote's data lands on queue."""
    transfer(lsock, rsock, 1)
    before = rx_queue_packets(cfg)
    transfer(lsock, rsock, 200000)
    after = rx_queue_packets(cfg)
    got = {q: after[q] - before.get(q, 0) for q in after}
    ksft_gt(got[queue], 0, comment=f"packets on queue {queue}")
    ksft_eq(got, {q: got[queue] if q == queue else 0 for q in after},
            comment=f"packets per queue, all on {queue}")


def _queues():
    for ipver in ("4", "6"):
        for queue in range(QUEUES):
            yield KsftNamedVariant(f"ipv{ipver}_queue{queue}", ipver, queue)


@ksft_variants(_queues())
def steer_queue(cfg, ipver, queue):
    """rx-assoc's steer-queue: the port leads to that queue."""
    lsock, rsock = connect(cfg, ipver)
    sport = associate(cfg, lsock, rsock, {"steer-queue": queue})
    ksft_eq(device_queue(cfg, ipver, sport, PSP_PORT), queue)
    check_queue(cfg, lsock, rsock, queue)


def _ipvers():
    for ipver in ("4", "6"):
        yield KsftNamedVariant(f"ipv{ipver}", ipver)


@ksft_variants(_ipvers())
def steer_sock(cfg, ipver):
    """rx-assoc's steer-sock: the queue the plain TCP packets came on."""
    lsock, rsock = connect(cfg, ipver)
    queue = device_queue(cfg, ipver, rsock.getsockname()[1],
                      lsock.getsockname()[1])
    sport = associate(cfg, lsock, rsock, {"steer-sock": True})
    ksft_eq(device_queue(cfg, ipver, sport, PSP_PORT), queue)
    check_queue(cfg, lsock, rsock, queue)


def no_steering(cfg):
    """Without steer attributes, rx-assoc returns no port."""
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


def refuse_ports_not_hashed(cfg):
    """A device whose RSS does not hash the UDP ports gets no port."""
    ethtool(f"-N {cfg.ifname} rx-flow-hash udp4 sd")
    defer(ethtool, f"-N {cfg.ifname} rx-flow-hash udp4 sdfn")
    _refuse(cfg, {"steer-queue": 1}, errno.EOPNOTSUPP,
            "RSS does not hash the UDP ports (see rx-flow-hash udp4/udp6)")


def refuse_queue_not_in_table(cfg):
    """A queue the indirection table does not hold gets no port."""
    ethtool(f"-X {cfg.ifname} equal 2")
    defer(ethtool, f"-X {cfg.ifname} default")
    _refuse(cfg, {"steer-queue": 3}, errno.ENOENT,
            "no RSS indirection table entry holds the queue")


def main() -> None:
    """Ksft boiler plate main"""
    with NetDrvEpEnv(__file__, nsim_test=True, queue_count=QUEUES) as cfg:
        cfg.ethnl = EthtoolFamily()
        cfg.netnl = NetdevFamily()
        cfg.pspnl = PSPFamily()
        cfg.psp_id = psp_dev_id(cfg.pspnl, cfg.ifindex)
        with NetNSEnter(cfg.remote.name):
            cfg.peer_pspnl = PSPFamily()
            cfg.peer_psp_id = psp_dev_id(cfg.peer_pspnl, cfg.remote_ifindex)
        wait_rx_quiet(cfg)
        ksft_run([steer_queue, steer_sock, no_steering,
                  refuse_ports_not_hashed, refuse_queue_not_in_table],
                 args=(cfg,))
    ksft_exit()


if __name__ == "__main__":
    main()
