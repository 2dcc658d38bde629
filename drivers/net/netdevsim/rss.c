// SPDX-License-Identifier: GPL-2.0
/*
 * RSS: a Toeplitz key and indirection table that ethtool reads and sets,
 * the hash fields of TCP and UDP, and RX queue selection by that hash for
 * the packets a port receives from its peer.
 */

#include <linux/ethtool.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <net/flow_dissector.h>
#include <net/toeplitz.h>

#include "netdevsim.h"

#define NSIM_RSS_ADDRS	(RXH_IP_SRC | RXH_IP_DST)
#define NSIM_RSS_SDFN	(NSIM_RSS_ADDRS | RXH_L4_B_0_1 | RXH_L4_B_2_3)

enum {
	NSIM_RSS_TCP4,
	NSIM_RSS_UDP4,
	NSIM_RSS_TCP6,
	NSIM_RSS_UDP6,
	NSIM_RSS_TYPES,
};

struct nsim_rss {
	struct rcu_head rcu;
	u32 indir[NSIM_RSS_INDIR_SIZE];
	u8 key[NSIM_RSS_KEY_SIZE];
	u8 input_xfrm;
	u32 fields[NSIM_RSS_TYPES];	/* RXH_* of the flow types above */
};

static struct nsim_rss *nsim_rss_locked(struct netdevsim *ns)
{
	return rcu_dereference_protected(ns->rss,
					 lockdep_is_held(&ns->netdev->lock));
}

/* A copy of the configuration to change and publish with nsim_rss_publish() */
static struct nsim_rss *nsim_rss_copy(struct netdevsim *ns)
{
	return kmemdup(nsim_rss_locked(ns), sizeof(struct nsim_rss),
		       GFP_KERNEL);
}

void nsim_rss_publish(struct netdevsim *ns, struct nsim_rss *rss)
{
	struct nsim_rss *old;

	old = rcu_replace_pointer(ns->rss, rss,
				  lockdep_is_held(&ns->netdev->lock));
	kfree_rcu(old, rcu);
}

static int nsim_rss_type(u32 flow_type)
{
	switch (flow_type) {
	case TCP_V4_FLOW:
		return NSIM_RSS_TCP4;
	case UDP_V4_FLOW:
		return NSIM_RSS_UDP4;
	case TCP_V6_FLOW:
		return NSIM_RSS_TCP6;
	case UDP_V6_FLOW:
		return NSIM_RSS_UDP6;
	default:
		return -1;
	}
}

u32 nsim_get_rxfh_key_size(struct net_device *dev)
{
	return NSIM_RSS_KEY_SIZE;
}

u32 nsim_get_rxfh_indir_size(struct net_device *dev)
{
	return NSIM_RSS_INDIR_SIZE;
}

u32 nsim_get_rx_ring_count(struct net_device *dev)
{
	return dev->real_num_rx_queues;
}

int nsim_get_rxfh(struct net_device *dev, struct ethtool_rxfh_param *rxfh)
{
	struct netdevsim *ns = netdev_priv(dev);
	const struct nsim_rss *rss;

	if (ns->ethtool.get_err)
		return -ns->ethtool.get_err;

	rcu_read_lock();
	rss = rcu_dereference(ns->rss);
	rxfh->hfunc = ETH_RSS_HASH_TOP;
	rxfh->input_xfrm = rss->input_xfrm;
	if (rxfh->indir)
		memcpy(rxfh->indir, rss->indir, sizeof(rss->indir));
	if (rxfh->key)
		memcpy(rxfh->key, rss->key, sizeof(rss->key));
	rcu_read_unlock();
	return 0;
}

int nsim_set_rxfh(struct net_device *dev, struct ethtool_rxfh_param *rxfh,
		  struct netlink_ext_ack *extack)
{
	struct netdevsim *ns = netdev_priv(dev);
	struct nsim_rss *rss;

	if (rxfh->hfunc != ETH_RSS_HASH_NO_CHANGE &&
	    rxfh->hfunc != ETH_RSS_HASH_TOP) {
		NSIM_EA(extack, "the only RSS hash function is Toeplitz");
		return -EOPNOTSUPP;
	}

	rss = nsim_rss_copy(ns);
	if (!rss)
		return -ENOMEM;
	if (rxfh->indir)
		memcpy(rss->indir, rxfh->indir, sizeof(rss->indir));
	if (rxfh->key)
		memcpy(rss->key, rxfh->key, sizeof(rss->key));
	if (rxfh->input_xfrm != RXH_XFRM_NO_CHANGE)
		rss->input_xfrm = rxfh->input_xfrm;
	nsim_rss_publish(ns, rss);
	return 0;
}

int nsim_get_rxfh_fields(struct net_device *dev,
			 struct ethtool_rxfh_fields *fields)
{
	struct netdevsim *ns = netdev_priv(dev);
	int type = nsim_rss_type(fields->flow_type);

	switch (fields->flow_type) {
	case IPV4_FLOW:
	case IPV6_FLOW:
		fields->data = NSIM_RSS_ADDRS;
		return 0;
	}
	if (type < 0)
		return -EOPNOTSUPP;
	rcu_read_lock();
	fields->data = rcu_dereference(ns->rss)->fields[type];
	rcu_read_unlock();
	return 0;
}

int nsim_set_rxfh_fields(struct net_device *dev,
			 const struct ethtool_rxfh_fields *fields,
			 struct netlink_ext_ack *extack)
{
	struct netdevsim *ns = netdev_priv(dev);
	int type = nsim_rss_type(fields->flow_type);
	struct nsim_rss *rss;

	if (type < 0) {
		NSIM_EA(extack,
			"only the hash fields of tcp4, udp4, tcp6 and udp6 can be set");
		return -EOPNOTSUPP;
	}
	if (fields->data != NSIM_RSS_ADDRS && fields->data != NSIM_RSS_SDFN) {
		NSIM_EA(extack,
			"the hash fields must be sd (addresses) or sdfn (and ports)");
		return -EOPNOTSUPP;
	}

	rss = nsim_rss_copy(ns);
	if (!rss)
		return -ENOMEM;
	rss->fields[type] = fields->data;
	nsim_rss_publish(ns, rss);
	return 0;
}

/**
 * nsim_rss_respread() - the default table for a new channel count
 * @ns: the port
 * @channels: the new channel count
 *
 * Return: a configuration for nsim_rss_publish() whose table spreads over
 * @channels, NULL if the user set the table (ethtool keeps the channels it
 * uses), or an ERR_PTR().
 */
struct nsim_rss *nsim_rss_respread(struct netdevsim *ns, u32 channels)
{
	struct nsim_rss *rss;
	u32 i;

	if (netif_is_rxfh_configured(ns->netdev))
		return NULL;
	rss = nsim_rss_copy(ns);
	if (!rss)
		return ERR_PTR(-ENOMEM);
	for (i = 0; i < NSIM_RSS_INDIR_SIZE; i++)
		rss->indir[i] = ethtool_rxfh_indir_default(i, channels);
	return rss;
}

/**
 * nsim_rss_rxq() - the RX queue of @ns that RSS picks for @skb
 * @ns: the receiving port
 * @skb: the packet, as it is on the wire
 *
 * The outer IPv4/IPv6 addresses, and for unfragmented TCP and UDP the ports
 * if the flow type's hash fields include them, are hashed with the port's
 * key; the low bits of the hash index the indirection table.  Other
 * packets go to queue 0.
 *
 * Return: the index of the RX queue.
 */
u32 nsim_rss_rxq(struct netdevsim *ns, struct sk_buff *skb)
{
	struct toeplitz_flow flow = {};
	const struct nsim_rss *cfg;
	struct toeplitz_rss rss = {
		.key_size = NSIM_RSS_KEY_SIZE,
		.hfunc = ETH_RSS_HASH_TOP,
		.fields = NSIM_RSS_ADDRS,
	};
	struct flow_keys keys;
	int type = -1;
	u32 hash, rxq = 0;

	if (!skb_flow_dissect_flow_keys(skb, &keys,
					FLOW_DISSECTOR_F_STOP_AT_ENCAP))
		return 0;

	switch (keys.control.addr_type) {
	case FLOW_DISSECTOR_KEY_IPV4_ADDRS:
		flow.family = AF_INET;
		flow.saddr = &keys.addrs.v4addrs.src;
		flow.daddr = &keys.addrs.v4addrs.dst;
		if (keys.basic.ip_proto == IPPROTO_TCP)
			type = NSIM_RSS_TCP4;
		else if (keys.basic.ip_proto == IPPROTO_UDP)
			type = NSIM_RSS_UDP4;
		break;
	case FLOW_DISSECTOR_KEY_IPV6_ADDRS:
		flow.family = AF_INET6;
		flow.saddr = &keys.addrs.v6addrs.src;
		flow.daddr = &keys.addrs.v6addrs.dst;
		if (keys.basic.ip_proto == IPPROTO_TCP)
			type = NSIM_RSS_TCP6;
		else if (keys.basic.ip_proto == IPPROTO_UDP)
			type = NSIM_RSS_UDP6;
		break;
	default:
		return 0;
	}
	if (keys.control.flags & FLOW_DIS_IS_FRAGMENT)
		type = -1;
	flow.dport = keys.ports.dst;

	rcu_read_lock();
	cfg = rcu_dereference(ns->rss);
	rss.key = cfg->key;
	rss.input_xfrm = cfg->input_xfrm;
	if (type >= 0)
		rss.fields = cfg->fields[type];
	if (!toeplitz_flow_hash(&rss, &flow, keys.ports.src, &hash, NULL))
		rxq = cfg->indir[hash % NSIM_RSS_INDIR_SIZE];
	rcu_read_unlock();
	return rxq;
}

int nsim_rss_init(struct netdevsim *ns)
{
	u32 i, channels = ns->ethtool.channels;
	struct nsim_rss *rss;

	rss = kzalloc_obj(*rss);
	if (!rss)
		return -ENOMEM;
	netdev_rss_key_fill(rss->key, sizeof(rss->key));
	for (i = 0; i < NSIM_RSS_INDIR_SIZE; i++)
		rss->indir[i] = ethtool_rxfh_indir_default(i, channels);
	for (i = 0; i < NSIM_RSS_TYPES; i++)
		rss->fields[i] = NSIM_RSS_SDFN;
	RCU_INIT_POINTER(ns->rss, rss);
	return 0;
}

void nsim_rss_fini(struct netdevsim *ns)
{
	kfree_rcu(rcu_dereference_protected(ns->rss, true), rcu);
}
