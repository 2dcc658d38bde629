/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Toeplitz RSS hash, and a solver for the UDP source port whose hash makes
 * the receiver's RSS pick a given queue.
 *
 * The Toeplitz hash is linear over GF(2): with the addresses and the
 * destination port fixed, each bit of the source port flips a fixed set of
 * hash bits.  toeplitz_sport() solves that 16-variable system for the
 * indirection table slots of the queue instead of hashing every port.
 */
#ifndef _NET_TOEPLITZ_H
#define _NET_TOEPLITZ_H

#include <linux/types.h>

struct netlink_ext_ack;

/* The receiver's RSS configuration: one RSS context's key and table, as
 * the driver reports them. PSP reads context 0 only (psp_rss.c).
 */
struct toeplitz_rss {
	const u8 *key;
	u32 key_size;
	const u32 *indir;	/* queue = indir[hash & (indir_size - 1)] */
	u32 indir_size;		/* a power of two */
	u8 hfunc;		/* ETH_RSS_HASH_* */
	u8 input_xfrm;		/* 0, or one of RXH_XFRM_SYM_* */
	u32 fields;		/* RXH_* hashed for the flow's type (UDP) */
};

/* A flow as its receiver sees it: saddr is the sender's address. */
struct toeplitz_flow {
	unsigned short family;	/* AF_INET or AF_INET6 */
	const void *saddr;	/* struct in_addr or struct in6_addr */
	const void *daddr;
	__be16 dport;
};

u32 toeplitz_hash(const u8 *key, u32 key_size, const u8 *data, u32 len);
int toeplitz_flow_hash(const struct toeplitz_rss *rss,
		       const struct toeplitz_flow *flow, __be16 sport,
		       u32 *hash, struct netlink_ext_ack *extack);
int toeplitz_sport(const struct toeplitz_rss *rss,
		   const struct toeplitz_flow *flow, u32 queue,
		   u16 lo, u16 hi, u16 pref, u16 *sport,
		   struct netlink_ext_ack *extack);

#endif /* _NET_TOEPLITZ_H */
