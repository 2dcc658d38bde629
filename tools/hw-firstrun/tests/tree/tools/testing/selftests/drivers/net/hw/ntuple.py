#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Stand-in for the hardware selftest (its l4data cases): prints recorded TAP
($FAKE/tap if the scenario has one) and the environment it was given."""
import os
tap = os.path.join(os.environ.get("FAKE", ""), "tap")
print("# NETIF=%s REMOTE_ARGS=%s" % (os.environ.get("NETIF"), os.environ.get("REMOTE_ARGS")))
if os.path.exists(tap):
    with open(tap, encoding="ascii") as f:
        print(f.read(), end="")
else:
    print("""TAP version 13
1..5
ok 1 ntuple.l4data.ip4.udp.port_pair
ok 2 ntuple.l4data.ip4.proto253.port_pair
ok 3 ntuple.l4data.ip4.proto253.dport_nibble
ok 4 ntuple.l4data_two_protos.ip4 # SKIP Need at least 3 combined channels
ok 5 ntuple.l4data_udp_rss.ip4
# Totals: pass:4 fail:0 xfail:0 xpass:0 skip:1 error:0""")
