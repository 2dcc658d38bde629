// SPDX-License-Identifier: GPL-2.0
/*
 * Toeplitz RSS hash and a solver for the UDP source port that steers a flow
 * to a chosen receive queue.
 *
 * The hash of an input bit string is the XOR, over its set bits i, of the
 * 32 key bits starting at key bit i.  It is linear over GF(2).  With the
 * addresses and the destination port fixed, both symmetric input
 * transformations are affine in the source port: sport ^ dport is, and so
 * is sport | dport (the bits set in dport are constant, the others are
 * sport's).  So hash(sport) = hash(0) ^ M * sport, where column i of the
 * 32x16 matrix M is what source port bit i flips.  For a table of
 * 2^m entries only the low m hash bits choose the slot, so the ports that
 * land on slot j are the solutions of an m x 16 system: empty, or one port
 * plus the null space of M.  Gaussian elimination once, then one reduction
 * per slot of the queue; no port is tried by hashing it.
 */

#include <asm/byteorder.h>
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/ethtool.h>
#include <linux/export.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/log2.h>
#include <linux/netlink.h>
#include <linux/socket.h>
#include <linux/string.h>
#include <net/toeplitz.h>

/* An IPv6 4-tuple: two addresses and two ports */
#define TOEPLITZ_MAX_INPUT	36
#define TOEPLITZ_NO_PORT	0x10000U

#define TOEPLITZ_ADDRS		(RXH_IP_SRC | RXH_IP_DST)
#define TOEPLITZ_PORTS		(RXH_L4_B_0_1 | RXH_L4_B_2_3)

/**
 * toeplitz_hash() - Toeplitz hash of a byte string
 * @key: the hash key
 * @key_size: bytes in @key; bits past its end count as zero
 * @data: the input, in the order the device feeds it (network order)
 * @len: bytes in @data
 *
 * Return: the 32-bit hash.
 */
u32 toeplitz_hash(const u8 *key, u32 key_size, const u8 *data, u32 len)
{
	u32 window = 0, hash = 0, i, bit;

	for (i = 0; i < 4; i++)
		window = window << 8 | (i < key_size ? key[i] : 0);

	for (i = 0; i < len; i++) {
		u8 next = i + 4 < key_size ? key[i + 4] : 0;

		for (bit = 0; bit < 8; bit++) {
			if (data[i] & (0x80 >> bit))
				hash ^= window;
			window = window << 1 | ((next >> (7 - bit)) & 1);
		}
	}
	return hash;
}
EXPORT_SYMBOL_GPL(toeplitz_hash);

/* Lay out the hash input of @flow with @sport as @rss's device does */
static int toeplitz_input(const struct toeplitz_rss *rss,
			  const struct toeplitz_flow *flow, __be16 sport,
			  u8 *in, struct netlink_ext_ack *extack)
{
	const u8 *s = flow->saddr, *d = flow->daddr;
	u16 sp = be16_to_cpu(sport), dp = be16_to_cpu(flow->dport);
	u32 alen, len, i;

	if (rss->hfunc != ETH_RSS_HASH_TOP) {
		NL_SET_ERR_MSG(extack, "the RSS hash function is not Toeplitz");
		return -EOPNOTSUPP;
	}
	if (rss->input_xfrm && rss->input_xfrm != RXH_XFRM_SYM_XOR &&
	    rss->input_xfrm != RXH_XFRM_SYM_OR_XOR) {
		NL_SET_ERR_MSG(extack, "unknown RSS input transformation");
		return -EOPNOTSUPP;
	}
	if (rss->fields != TOEPLITZ_ADDRS &&
	    rss->fields != (TOEPLITZ_ADDRS | TOEPLITZ_PORTS)) {
		NL_SET_ERR_MSG(extack,
			       "the RSS hash fields are not the IP addresses, or the addresses and ports");
		return -EOPNOTSUPP;
	}
	switch (flow->family) {
	case AF_INET:
		alen = sizeof(struct in_addr);
		break;
	case AF_INET6:
		alen = sizeof(struct in6_addr);
		break;
	default:
		NL_SET_ERR_MSG(extack,
			       "the address family is neither IPv4 nor IPv6");
		return -EAFNOSUPPORT;
	}
	len = 2 * alen + (rss->fields & TOEPLITZ_PORTS ? 4 : 0);
	if (rss->key_size < len + 4) {
		NL_SET_ERR_MSG(extack,
			       "the RSS key is shorter than the hash input plus 4 bytes");
		return -EINVAL;
	}

	for (i = 0; i < alen; i++) {
		switch (rss->input_xfrm) {
		case RXH_XFRM_SYM_XOR:
			in[i] = s[i] ^ d[i];
			in[alen + i] = s[i] ^ d[i];
			break;
		case RXH_XFRM_SYM_OR_XOR:
			in[i] = s[i] | d[i];
			in[alen + i] = s[i] ^ d[i];
			break;
		default:
			in[i] = s[i];
			in[alen + i] = d[i];
		}
	}
	if (rss->fields & TOEPLITZ_PORTS) {
		u16 x = sp ^ dp;

		switch (rss->input_xfrm) {
		case RXH_XFRM_SYM_XOR:
			sp = x;
			dp = x;
			break;
		case RXH_XFRM_SYM_OR_XOR:
			sp |= dp;
			dp = x;
			break;
		}
		in[2 * alen] = sp >> 8;
		in[2 * alen + 1] = sp;
		in[2 * alen + 2] = dp >> 8;
		in[2 * alen + 3] = dp;
	}
	return len;
}

/**
 * toeplitz_flow_hash() - the RSS hash a device computes for a flow
 * @rss: the device's RSS configuration (key, hash function, transformation
 *	and the hash fields of the flow's type; the table is not used)
 * @flow: addresses and destination port
 * @sport: the source port
 * @hash: set to the hash on success
 * @extack: the reason of a failure, or NULL
 *
 * Return: 0, or -EOPNOTSUPP for a configuration that is not a Toeplitz hash
 * of the addresses or of the addresses and ports, with no or one symmetric
 * transformation, -EAFNOSUPPORT, or -EINVAL for a key too short for the
 * input.
 */
int toeplitz_flow_hash(const struct toeplitz_rss *rss,
		       const struct toeplitz_flow *flow, __be16 sport,
		       u32 *hash, struct netlink_ext_ack *extack)
{
	u8 in[TOEPLITZ_MAX_INPUT];
	int len;

	len = toeplitz_input(rss, flow, sport, in, extack);
	if (len < 0)
		return len;
	*hash = toeplitz_hash(rss->key, rss->key_size, in, len);
	return 0;
}
EXPORT_SYMBOL_GPL(toeplitz_flow_hash);

struct toeplitz_row {
	u32 bits;	/* table index bits; the highest is the pivot */
	u16 ports;	/* the source port bits whose columns XOR to @bits */
};

/*
 * Ports of a coset p + span(basis), the basis in reduced echelon form
 * (each vector's leading bit in no other vector) and p zero at every
 * leading bit: element k in ascending order is p XOR the basis vectors
 * that the bits of k select, lowest leading bit first.
 */
static u16 toeplitz_coset_elem(u16 p, const u16 *basis, int dim, u32 k)
{
	int i;

	for (i = 0; i < dim; i++)
		if (k & BIT(i))
			p ^= basis[i];
	return p;
}

/* The smallest port of the coset that is at least @min, or TOEPLITZ_NO_PORT */
static u32 toeplitz_coset_ceil(u16 p, const u16 *basis, int dim, u16 min)
{
	u32 lo = 0, hi = BIT(dim) - 1;

	if (toeplitz_coset_elem(p, basis, dim, hi) < min)
		return TOEPLITZ_NO_PORT;
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (toeplitz_coset_elem(p, basis, dim, mid) < min)
			lo = mid + 1;
		else
			hi = mid;
	}
	return toeplitz_coset_elem(p, basis, dim, lo);
}

/* Whether any port can steer by @rss to @queue, before solving for one */
static int toeplitz_sport_check(const struct toeplitz_rss *rss, u32 queue,
				u16 lo, u16 hi, u16 pref,
				struct netlink_ext_ack *extack)
{
	u32 j;

	if (!(rss->fields & TOEPLITZ_PORTS)) {
		NL_SET_ERR_MSG(extack,
			       "RSS does not hash the UDP ports (see rx-flow-hash udp4/udp6)");
		return -EOPNOTSUPP;
	}
	if (!rss->indir_size) {
		NL_SET_ERR_MSG(extack, "the RSS indirection table is empty");
		return -EINVAL;
	}
	if (!is_power_of_2(rss->indir_size)) {
		NL_SET_ERR_MSG(extack,
			       "the RSS indirection table size is not a power of two");
		return -EOPNOTSUPP;
	}
	if (lo > hi || pref < lo || pref > hi) {
		NL_SET_ERR_MSG(extack,
			       "the preferred source port is outside the port range");
		return -EINVAL;
	}
	for (j = 0; j < rss->indir_size; j++)
		if (rss->indir[j] == queue)
			return 0;
	NL_SET_ERR_MSG(extack,
		       "no RSS indirection table entry holds the queue");
	return -ENOENT;
}

/*
 * Eliminate the 16 columns (the table index bits each source port bit flips)
 * in port bit order, into @rows, one per pivot bit. A column that reduces to
 * zero gives a null space vector: its own bit and earlier pivot columns'
 * bits, none of which leads another vector. So the vectors come in reduced
 * echelon form, lowest leading bit first.
 *
 * Return: the dimension of the null space, its basis in @basis.
 */
static int toeplitz_eliminate(const u32 *col, u32 mask,
			      struct toeplitz_row *rows, u16 *basis)
{
	int i, b, dim = 0;

	for (i = 0; i < 16; i++) {
		u32 bits = col[i] & mask;
		u16 ports = BIT(i);

		for (b = 31; b >= 0 && bits; b--) {
			if (!(bits & BIT(b)))
				continue;
			if (!rows[b].bits) {
				rows[b].bits = bits;
				rows[b].ports = ports;
				break;
			}
			bits ^= rows[b].bits;
			ports ^= rows[b].ports;
		}
		if (!bits)
			basis[dim++] = ports;
	}
	return dim;
}

/*
 * The port bits whose columns give @target, with pivot bits only (zero at
 * every leading bit of the basis), in @p; false if no port reaches it.
 */
static bool toeplitz_solve(const struct toeplitz_row *rows, u32 target, u16 *p)
{
	int b;

	*p = 0;
	for (b = 31; b >= 0 && target; b--) {
		if (!(target & BIT(b)))
			continue;
		if (!rows[b].bits)
			return false;
		target ^= rows[b].bits;
		*p ^= rows[b].ports;
	}
	return !target;
}

/**
 * toeplitz_sport() - a UDP source port that RSS steers to a queue
 * @rss: the receiver's RSS configuration; @rss->fields are the hash
 *	fields of UDP over the flow's address family
 * @flow: the flow as the receiver sees it (the sender's address is saddr)
 * @queue: the receive queue the flow should land on
 * @lo: lowest acceptable port
 * @hi: highest acceptable port
 * @pref: preferred port, within [@lo, @hi]
 * @sport: set to the port on success
 * @extack: the reason of a failure
 *
 * Finds the first port at or after @pref, wrapping from @hi to @lo, whose
 * hash selects an indirection table slot that holds @queue.  Either
 * symmetric transformation of the input is solved like the plain one.
 *
 * Return: 0; -EOPNOTSUPP if the hash is not Toeplitz, its input is not the
 * IP addresses and UDP ports with no or one symmetric transformation, or
 * the table size is not a power of two (the slot is then hash % size, which
 * is not linear); -ENOENT if no table entry holds @queue; -ERANGE if no port
 * in [@lo, @hi] reaches one of its slots; -EINVAL or -EAFNOSUPPORT for bad
 * arguments.
 */
int toeplitz_sport(const struct toeplitz_rss *rss,
		   const struct toeplitz_flow *flow, u32 queue,
		   u16 lo, u16 hi, u16 pref, u16 *sport,
		   struct netlink_ext_ack *extack)
{
	u32 after = TOEPLITZ_NO_PORT, wrapped = TOEPLITZ_NO_PORT;
	struct toeplitz_row rows[32] = {};
	u32 h0, mask, col[16], j, port;
	u16 basis[16], p;
	int err, i, dim;

	err = toeplitz_flow_hash(rss, flow, 0, &h0, extack);
	if (err)
		return err;
	err = toeplitz_sport_check(rss, queue, lo, hi, pref, extack);
	if (err)
		return err;

	mask = rss->indir_size - 1;
	for (i = 0; i < 16; i++) {
		err = toeplitz_flow_hash(rss, flow, cpu_to_be16(BIT(i)),
					 &col[i], extack);
		if (err)
			return err;
		col[i] ^= h0;
	}
	dim = toeplitz_eliminate(col, mask, rows, basis);

	for (j = 0; j < rss->indir_size; j++) {
		if (rss->indir[j] != queue ||
		    !toeplitz_solve(rows, (j ^ h0) & mask, &p))
			continue;
		port = toeplitz_coset_ceil(p, basis, dim, pref);
		if (port <= hi && port < after)
			after = port;
		port = toeplitz_coset_ceil(p, basis, dim, lo);
		if (port < pref && port < wrapped)
			wrapped = port;
	}

	if (after != TOEPLITZ_NO_PORT) {
		*sport = after;
	} else if (wrapped != TOEPLITZ_NO_PORT) {
		*sport = wrapped;
	} else {
		NL_SET_ERR_MSG(extack,
			       "no source port in the range makes RSS select the queue");
		return -ERANGE;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(toeplitz_sport);
