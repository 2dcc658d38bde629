/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test only: the installed <linux/ethtool.h>, with struct ethtool_rxfh
 * laid out as Linux 6.8 and later declare it (input_xfrm after hfunc, two
 * reserved bytes), so that the tests build rsspick as Debian 13 or Ubuntu
 * 24.04 would.  The ABI is the same; only the field names move.
 */
#ifndef RSSPICK_TEST_UAPI68_ETHTOOL_H
#define RSSPICK_TEST_UAPI68_ETHTOOL_H
#define ethtool_rxfh ethtool_rxfh_installed
#include_next <linux/ethtool.h>
#undef ethtool_rxfh

struct ethtool_rxfh {
	__u32 cmd;
	__u32 rss_context;
	__u32 indir_size;
	__u32 key_size;
	__u8 hfunc;
	__u8 input_xfrm;
	__u8 rsvd8[2];
	__u32 rsvd32;
	__u32 rss_config[];
};

#endif
