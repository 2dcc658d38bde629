#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Stand-in for the hardware selftest: prints recorded TAP and the environment it was given."""
import os
print("TAP version 13")
print("1..2")
print("# NETIF=%s REMOTE_ARGS=%s" % (os.environ.get("NETIF"), os.environ.get("REMOTE_ARGS")))
print("ok 1 ntuple.flex4_dport_nibble")
print("ok 2 ntuple.flex6_dport_nibble")
print("# Totals: pass:2 fail:0 xfail:0 xpass:0 skip:0 error:0")
