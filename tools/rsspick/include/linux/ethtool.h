/* SPDX-License-Identifier: GPL-2.0 */
/* For the series' net/core/toeplitz.c in rsspick: see ../../Makefile */
#include_next <linux/ethtool.h>
#define ETH_RSS_HASH_TOP	(1U << 0)	/* kernel-internal, not UAPI */
/* Older UAPI headers lack the input transformations */
#ifndef RXH_XFRM_SYM_XOR
#define RXH_XFRM_SYM_XOR	(1U << 0)
#endif
#ifndef RXH_XFRM_SYM_OR_XOR
#define RXH_XFRM_SYM_OR_XOR	(1U << 1)
#endif
