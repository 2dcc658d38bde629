// SPDX-License-Identifier: GPL-2.0-only
/*
 * Source port steering: choose the UDP source port of the peer's PSP
 * packets so that this device's RSS delivers them to a given queue.
 */

#include <linux/ethtool_netlink.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <net/inet_sock.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/netdev_lock.h>
#include <net/psp.h>
#include <net/toeplitz.h>

#include "psp.h"

/* The RSS configuration of a device, read before psd->lock is taken */
struct psp_rss {
	struct net_device *dev;
	netdevice_tracker dev_tracker;
	u32 fields_udp4;
	u32 fields_udp6;
	struct toeplitz_rss rss;	/* its table and key are one buffer */
};

/**
 * psp_rss_get() - read the RSS configuration of a socket's device
 * @sk: the socket
 * @out: set to the configuration, to release with psp_rss_put()
 * @extack: the reason of a failure
 *
 * Reads the RSS key, indirection table, hash function and UDP hash fields
 * of the device the socket's route uses, as the ethtool core reads them
 * (ethtool_rxfh_get()): under the instance lock (rtnl_lock for a device
 * without one), and not from a device that is detached or going away.
 * Must be called without psd->lock, which nests inside the instance lock.
 *
 * Return: 0 or a negative errno.
 */
int psp_rss_get(struct sock *sk, struct psp_rss **out,
		struct netlink_ext_ack *extack)
{
	struct ethtool_rxfh_fields fields[] = {
		{ .flow_type = UDP_V4_FLOW },
		{ .flow_type = UDP_V6_FLOW },
	};
	struct ethtool_rxfh_param rxfh = {};
	struct net_device *dev = NULL;
	netdevice_tracker tracker;
	struct dst_entry *dst;
	struct psp_rss *r;
	int err;

	if (!IS_ENABLED(CONFIG_ETHTOOL_NETLINK)) {
		NL_SET_ERR_MSG(extack,
			       "Steering reads RSS through ethtool netlink, which this kernel lacks");
		return -EOPNOTSUPP;
	}

	rcu_read_lock();
	dst = __sk_dst_get(sk);
	if (dst)
		dev = dst_dev_rcu(dst);
	if (dev)
		netdev_hold(dev, &tracker, GFP_ATOMIC);
	rcu_read_unlock();
	if (!dev) {
		NL_SET_ERR_MSG(extack, "The socket has no route to a device");
		return -ENODEV;
	}

	netdev_lock_ops_compat(dev);
	err = ethtool_rxfh_get(dev, &rxfh, fields, ARRAY_SIZE(fields));
	netdev_unlock_ops_compat(dev);
	if (err == -ENODEV)
		NL_SET_ERR_MSG(extack,
			       "The socket's device is detached or going away");
	else if (err == -EOPNOTSUPP)
		NL_SET_ERR_MSG(extack,
			       "The device does not report its RSS configuration");
	else if (err)
		NL_SET_ERR_MSG(extack,
			       "Reading the device's RSS configuration failed");
	if (err)
		goto err_put;

	r = kzalloc_obj(*r);
	if (!r) {
		kfree(rxfh.indir);
		err = -ENOMEM;
		goto err_put;
	}
	r->dev = dev;
	r->dev_tracker = tracker;
	r->fields_udp4 = fields[0].data;
	r->fields_udp6 = fields[1].data;
	r->rss.key = rxfh.key;
	r->rss.key_size = rxfh.key_size;
	r->rss.indir = rxfh.indir;
	r->rss.indir_size = rxfh.indir_size;
	r->rss.hfunc = rxfh.hfunc;
	r->rss.input_xfrm = rxfh.input_xfrm;
	*out = r;
	return 0;

err_put:
	netdev_put(dev, &tracker);
	return err;
}

void psp_rss_put(struct psp_rss *r)
{
	if (!r)
		return;
	netdev_put(r->dev, &r->dev_tracker);
	kfree(r->rss.indir);
	kfree(r);
}

/**
 * psp_rss_sport() - the source port that steers a socket's PSP Rx
 * @r: the RSS configuration from psp_rss_get()
 * @psd: the PSP device of the association
 * @sk: the socket
 * @queue: the receive queue
 * @sport: set to the port
 * @extack: the reason of a failure
 *
 * Chooses a port in the local port range: the first from a starting point
 * that the socket's hash gives (a per-connection pseudo-random one, not
 * the port the peer uses today) that reaches @queue; if none in the range
 * does, the first from 1024 on.
 *
 * Return: 0 or a negative errno with the reason in @extack.
 */
int psp_rss_sport(const struct psp_rss *r, struct psp_dev *psd,
		  struct sock *sk, u32 queue, u16 *sport,
		  struct netlink_ext_ack *extack)
{
	struct toeplitz_rss rss = r->rss;
	struct toeplitz_flow flow = {
		.dport = htons(PSP_DEFAULT_UDP_PORT),
	};
	int lo, hi, err;
	u16 pref;

	if (r->dev != psd->main_netdev) {
		NL_SET_ERR_MSG(extack,
			       "The socket's route does not use the PSP device");
		return -EOPNOTSUPP;
	}

	flow.family = AF_INET;
	flow.saddr = &sk->sk_daddr;
	flow.daddr = &sk->sk_rcv_saddr;
	rss.fields = r->fields_udp4;
#if IS_ENABLED(CONFIG_IPV6)
	if (sk->sk_family == AF_INET6 &&
	    !ipv6_addr_v4mapped(&sk->sk_v6_daddr)) {
		flow.family = AF_INET6;
		flow.saddr = &sk->sk_v6_daddr;
		flow.daddr = &sk->sk_v6_rcv_saddr;
		rss.fields = r->fields_udp6;
	}
#endif

	/* Where to start: the port this socket's hash gives, as the sender's
	 * gives its port by default. It spreads connections over the ports
	 * that reach @queue, for ECMP; the peer's own hash, from which it
	 * derives its port today, is not known here.
	 */
	inet_get_local_port_range(sock_net(sk), &lo, &hi);
	pref = psp_hash_sport(lo, hi, sk->sk_hash);

	/* If no port of the range reaches @queue, one above the well-known
	 * ports; the reason of a failure is the last attempt's
	 */
	err = toeplitz_sport(&rss, &flow, queue, lo, hi, pref, sport, NULL);
	if (err == -ERANGE) {
		lo = 1024;
		hi = 65535;
		pref = max_t(u16, pref, lo);
	}
	if (err)
		err = toeplitz_sport(&rss, &flow, queue, lo, hi, pref, sport,
				     extack);
	return err;
}
