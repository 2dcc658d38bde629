#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0

"""
PSP source port steering: the receiver's rx-assoc returns the UDP source
port that its RSS steers to the queue it asks for, the sender's tx-assoc
uses it, and the PSP packets of the connection land on that queue, by the
receiver's per-queue RX counters. steer-queue asks for each queue, queue
0 included, with each input transformation the device can report (none,
symmetric-xor, symmetric-or-xor), set over ethtool netlink before
rx-assoc reads it; steer-sock's connection is put on each queue by its
TCP source port.

Runs on netdevsim and on any PSP device whose remote end is a network
namespace on this host (REMOTE_TYPE=netns, e.g. two ports cabled to each
other): the test makes the sender's tx-assoc itself, in the remote's
namespace. On a real device it checks what netdevsim cannot: that the
queue the device's RSS picks is the one the key, table and hash fields it
reports give.
"""

import contextlib
import ctypes
import errno
import random
import socket

from lib.py import (
    XFRM_SYM_OR_XOR,
    XFRM_SYM_XOR,
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
    input_xfrm,
    ksft_eq,
    ksft_exit,
    ksft_ge,
    ksft_gt,
    ksft_raises,
    ksft_run,
    ksft_variants,
    quiet_rx,
    rss_queue,
    rx_queue_packets,
    set_input_xfrm,
)

QUEUES = 4
PSP_PORT = 1000
RXH_PORTS = {"l4-b-0-1", "l4-b-2-3"}  # ethtool netlink's flags: the ports are hashed
XFRMS = (("", 0), ("_sym_xor", XFRM_SYM_XOR), ("_sym_or_xor", XFRM_SYM_OR_XOR))
CAP_NET_BIND_SERVICE = 10


def is_nsim(cfg):
    """Whether the local device is netdevsim."""
    return cfg.get_local_nsim_dev() is not None


def rss_of(cfg):
    """The device's RSS configuration (rss-get of context 0)."""
    return cfg.ethnl.rss_get({"header": {"dev-index": cfg.ifindex}})


def queue_of(cfg, rss, ipver, proto, sport, dport):
    """
    The local queue the device's RSS picks for a packet of proto ("tcp" or
    "udp") from the remote, by the key, table, hash fields and input
    transformation it reports in rss.
    """
    xfrm = input_xfrm(rss)
    if xfrm is None:
        raise KsftSkipEx("the test's Toeplitz does not know input-xfrm "
                         f"{rss['input-xfrm']}")
    fields = rss.get("flow-hash", {}).get(f"{proto}{ipver}", RXH_PORTS)
    return rss_queue(cfg, rss["hkey"], rss["indir"], ipver, sport, dport,
                     ports=RXH_PORTS <= set(fields), xfrm=xfrm)


def device_queue(cfg, ipver, proto, sport, dport):
    """queue_of() with the configuration the device reports now."""
    return queue_of(cfg, rss_of(cfg), ipver, proto, sport, dport)


def require_queue(cfg, queue):
    """Skip unless the device's indirection table holds queue."""
    rss = cfg.ethnl.rss_get({"header": {"dev-index": cfg.ifindex}})
    if queue not in rss["indir"]:
        raise KsftSkipEx(f"the RSS indirection table does not hold queue {queue}")


def psp_dev_id(undo, pspnl, ifindex):
    """
    The PSP device of ifindex, with every version it can do enabled; the
    versions it had are restored by undo at the end.
    """
    for dev in pspnl.dev_get({}, dump=True):
        if dev["ifindex"] == ifindex:
            if dev["psp-versions-ena"] != dev["psp-versions-cap"]:
                undo.callback(pspnl.dev_set, {
                    "id": dev["id"],
                    "psp-versions-ena": dev["psp-versions-ena"]})
                pspnl.dev_set({"id": dev["id"],
                               "psp-versions-ena": dev["psp-versions-cap"]})
            return dev["id"]
    raise KsftSkipEx(f"no PSP device on ifindex {ifindex}")


def bind_to_queue(cfg, rsock, ipver, lport, queue):
    """
    Bind the remote's TCP socket to a source port whose packets to lport
    the device's RSS puts on queue, so that steer-sock is asked for that
    queue by design, not by chance.
    """
    rss = rss_of(cfg)
    start = random.randrange(20000, 60000)
    for port in range(start, start + 5000):
        if queue_of(cfg, rss, ipver, "tcp", port, lport) != queue:
            continue
        try:
            rsock.bind((cfg.remote_addr_v[ipver], port))
            return
        except OSError as exc:
            if exc.errno != errno.EADDRINUSE:
                raise
    raise KsftSkipEx(f"no free TCP source port reaches queue {queue}")


def connect(cfg, ipver, queue=None):
    """
    A TCP connection: (local socket, remote socket). With queue, the
    remote's packets arrive on that local queue.
    """
    fam = socket.AF_INET if ipver == "4" else socket.AF_INET6
    with socket.socket(fam, socket.SOCK_STREAM) as lsock:
        lsock.bind((cfg.addr_v[ipver], 0))
        lsock.listen()
        with NetNSEnter(cfg.remote.name):
            rsock = socket.socket(fam, socket.SOCK_STREAM)
        defer(rsock.close)
        if queue is not None:
            bind_to_queue(cfg, rsock, ipver, lsock.getsockname()[1], queue)
        rsock.connect((cfg.addr_v[ipver], lsock.getsockname()[1]))
        lsock_conn, _ = lsock.accept()
    defer(lsock_conn.close)
    return lsock_conn, rsock


def use_xfrm(cfg, xfrm):
    """
    Set the device's input transformation for the test case; on a real
    device that does not offer it the case is skipped.
    """
    if not xfrm:
        return
    try:
        set_input_xfrm(cfg, xfrm)
    except NlError as exc:
        if exc.error == errno.EOPNOTSUPP and not is_nsim(cfg):
            raise KsftSkipEx(f"the device refuses input-xfrm {xfrm}") from exc
        raise


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
        for name, xfrm in XFRMS:
            for queue in range(QUEUES):
                yield KsftNamedVariant(f"ipv{ipver}{name}_queue{queue}",
                                       ipver, xfrm, queue)


@ksft_variants(_queues())
def steer_queue(cfg, ipver, xfrm, queue):
    """
    rx-assoc's steer-queue, with the input transformation xfrm: the port
    leads to that queue.
    """
    require_setup(cfg, ipver)
    use_xfrm(cfg, xfrm)
    require_queue(cfg, queue)
    lsock, rsock = connect(cfg, ipver)
    sport = associate(cfg, lsock, rsock, {"steer-queue": queue})
    ksft_eq(device_queue(cfg, ipver, "udp", sport, PSP_PORT), queue)
    check_queue(cfg, lsock, rsock, queue)


def _sock_queues():
    for ipver in ("4", "6"):
        for name, xfrm in XFRMS:
            for queue in range(QUEUES if not xfrm else 1):
                yield KsftNamedVariant(f"ipv{ipver}{name}_queue{queue}",
                                       ipver, xfrm, queue)


@ksft_variants(_sock_queues())
def steer_sock(cfg, ipver, xfrm, queue):
    """
    rx-assoc's steer-sock: the queue the plain TCP packets came on, which
    the remote's source port makes queue (each queue without an input
    transformation, queue 0 with each). The queue is the one the key and
    table give: a device whose ntuple filters (aRFS, or a rule for the
    flow) are on may put the TCP flow elsewhere, and the case is skipped.
    """
    require_setup(cfg, ipver)
    if not is_nsim(cfg) and \
       "ntuple-filters: on" in ethtool(f"-k {cfg.ifname}").stdout:
        raise KsftSkipEx("ntuple filters (aRFS) may steer the TCP flow")
    use_xfrm(cfg, xfrm)
    require_queue(cfg, queue)
    lsock, rsock = connect(cfg, ipver, queue)
    ksft_eq(device_queue(cfg, ipver, "tcp", rsock.getsockname()[1],
                         lsock.getsockname()[1]), queue)
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


def refuse_both(cfg):
    """steer-queue and steer-sock together are refused, not ranked."""
    require_setup(cfg, "4")
    _refuse(cfg, {"steer-queue": 0, "steer-sock": True}, errno.EINVAL,
            "steer-queue and steer-sock are exclusive")


class _CapHeader(ctypes.Structure):
    # pylint: disable=too-few-public-methods
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    # pylint: disable=too-few-public-methods
    _fields_ = [("effective", ctypes.c_uint32),
                ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32)]


def _cap_effective(cap, raise_it):
    """Raise or drop cap in this thread's effective set (capset(2))."""
    libc = ctypes.CDLL(None, use_errno=True)
    hdr = _CapHeader(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3
    data = (_CapData * 2)()
    if libc.capget(ctypes.byref(hdr), data):
        raise OSError(ctypes.get_errno(), "capget")
    if raise_it:
        data[cap // 32].effective |= 1 << (cap % 32)
    else:
        data[cap // 32].effective &= ~(1 << (cap % 32))
    if libc.capset(ctypes.byref(hdr), data):
        raise OSError(ctypes.get_errno(), "capset")


@contextlib.contextmanager
def _without_cap(cap):
    _cap_effective(cap, False)
    try:
        yield
    finally:
        _cap_effective(cap, True)


def tx_assoc_low_sport(cfg):
    """
    tx-assoc's sport below ip_unprivileged_port_start needs
    CAP_NET_BIND_SERVICE, as a bind() of it does: refused without it
    (EACCES), taken with it; the first unprivileged port needs none.
    """
    require_setup(cfg, "4")
    with open("/proc/sys/net/ipv4/ip_unprivileged_port_start",
              encoding="ascii") as sysctl:
        start = int(sysctl.read())
    if start == 0:
        raise KsftSkipEx("ip_unprivileged_port_start is 0: no port needs "
                         "CAP_NET_BIND_SERVICE")
    socks = []
    for _ in range(2):
        lsock, rsock = connect(cfg, "4")
        cfg.pspnl.rx_assoc({"version": 0, "dev-id": cfg.psp_id,
                            "sock-fd": lsock.fileno()})
        peer_rx = cfg.peer_pspnl.rx_assoc({"version": 0,
                                           "dev-id": cfg.peer_psp_id,
                                           "sock-fd": rsock.fileno()})
        socks.append({"version": 0, "dev-id": cfg.psp_id,
                      "sock-fd": lsock.fileno(), "tx-key": peer_rx["rx-key"]})
    with _without_cap(CAP_NET_BIND_SERVICE):
        with ksft_raises(NlError) as err:
            cfg.pspnl.tx_assoc({**socks[0], "sport": start - 1})
        cfg.pspnl.tx_assoc({**socks[1], "sport": start})
    ksft_eq(err.exception.error, errno.EACCES)
    ksft_eq(err.exception.nl_msg.extack["msg"],
            "a port below ip_unprivileged_port_start needs CAP_NET_BIND_SERVICE")
    cfg.pspnl.tx_assoc({**socks[0], "sport": start - 1})


def refuse_detached(cfg):
    """
    A detached device (as during a reset) gets no port, and its RSS
    configuration is not read: the driver's get_rxfh, set to fail, is not
    called.

    What this proves: the RSS read goes through the ethtool core's guard
    (ethtool_rxfh_get(), netif_device_present() in ethnl_ops_begin()),
    which answers ENODEV before get_rxfh. A read that skipped it would
    reach get_rxfh and fail with its EIO (netdevsim's get_err), or, on
    mlx5 after the detach freed the RX resources, oops. It does not prove
    the runtime PM or ops->begin parts of the guard: netdevsim has
    neither.
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


def setup(cfg, undo):
    """
    The families and both ends' PSP devices; KsftSkipEx if the remote is
    not a network namespace here or either end has no PSP device. What it
    changes (PSP versions, neighbours, router solicitations) is undone by
    undo, an ExitStack, at the end.
    """
    if not is_nsim(cfg) and cfg.env.get("REMOTE_TYPE") != "netns":
        raise KsftSkipEx("the test makes the sender's tx-assoc itself: the "
                         "remote must be a network namespace on this host "
                         "(REMOTE_TYPE=netns)")
    cfg.ethnl = EthtoolFamily()
    cfg.netnl = NetdevFamily()
    cfg.pspnl = PSPFamily()
    cfg.psp_id = psp_dev_id(undo, cfg.pspnl, cfg.ifindex)
    with NetNSEnter(cfg.remote.name):
        cfg.peer_pspnl = PSPFamily()
        cfg.peer_psp_id = psp_dev_id(undo, cfg.peer_pspnl,
                                     cfg.remote_ifindex)
    if not rx_queue_packets(cfg):
        raise KsftSkipEx("the device reports no per-queue RX packet counts "
                         "(netdev qstats)")
    undo.enter_context(quiet_rx(cfg))


def main() -> None:
    """Ksft boiler plate main"""
    with NetDrvEpEnv(__file__, queue_count=QUEUES) as cfg, \
         contextlib.ExitStack() as undo:
        cfg.skip_reason = None
        try:
            setup(cfg, undo)
        except KsftSkipEx as exc:
            cfg.skip_reason = str(exc)
        ksft_run([steer_queue, steer_sock, no_steering,
                  refuse_ports_not_hashed, refuse_queue_not_in_table,
                  refuse_both, tx_assoc_low_sport, refuse_detached],
                 args=(cfg,))
    ksft_exit()


if __name__ == "__main__":
    main()
