/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rsssrc - where rsspick gets the receiver's RSS configuration from:
 * command-line strings, recorded `ethtool -x` output, a key file such as
 * /proc/sys/net/core/netdev_rss_key, or the device itself (the
 * ETHTOOL_GRSSH and ETHTOOL_GRXFH ioctls).
 *
 * Every function returns 0 on success or -1 with a one-line message in
 * @err (no trailing newline).
 */
#ifndef RSSSRC_H
#define RSSSRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/ethtool.h>

/* hfunc bit 0, ETH_RSS_HASH_TOP: the kernel's, not in the UAPI headers */
#define RSS_HFUNC_TOP	(1U << 0)
/* rx-flow-hash "sdfn": addresses and ports, the RXH_* bits of <linux/ethtool.h> */
#define RSS_RXH_SDFN	(RXH_IP_SRC | RXH_IP_DST | RXH_L4_B_0_1 | RXH_L4_B_2_3)

struct rss_conf {
	uint8_t *key;
	size_t key_len;
	uint32_t *indir;
	uint32_t indir_size;
	uint32_t rings;			/* RX rings reported, 0 if unknown */
	bool hfunc_known;
	uint32_t hfunc;			/* bit i: ethtool -x's i-th function */
	char hfunc_name[32];		/* active function, for messages */
	bool xfrm_known;
	uint32_t input_xfrm;		/* RSSPICK_XFRM_* bits; others: unknown */
	char xfrm_name[48];
	bool fields_known;
	uint32_t fields;		/* RXH_* of udp4 or udp6 */
	char source[16];		/* "ioctl", "ethtool -x" */
	char ifname[32];		/* device named in ethtool -x output */
};

void rss_conf_free(struct rss_conf *c);

/* "6d:5a:56:..." (ethtool style) or plain "6d5a56..." */
int rss_parse_key(const char *s, uint8_t **key, size_t *len,
		  char *err, size_t errlen);
/*
 * "0 1 2 3", "0,1,2,3" or "equal N" (N queues over @equal_size slots;
 * @equal_size 0 is refused: the size must be the device's).
 */
int rss_parse_indir(const char *s, uint32_t equal_size, uint32_t **indir,
		    uint32_t *size, char *err, size_t errlen);
/* Text printed by `ethtool -x DEV [context N]`. */
int rss_parse_ethtool_x(const char *text, struct rss_conf *c,
			char *err, size_t errlen);
/* Whole file into a NUL-terminated buffer; "-" is standard input. */
int rss_read_file(const char *path, char **text, char *err, size_t errlen);

/* Query the device; @family selects udp4 or udp6 for rx-flow-hash. */
int rss_read_dev(const char *ifname, uint32_t context, int family,
		 struct rss_conf *c, char *err, size_t errlen);

/*
 * Receiver preconditions: Toeplitz, no input transformation, rx-flow-hash
 * udp4/udp6 = sdfn exactly.  Violations known for certain fail (-1, @err);
 * things that could not be read produce one warning line in @warn ("" if
 * none), naming each assumption made.
 */
int rss_check_conf(const struct rss_conf *c, const char *dev, int family,
		   char *err, size_t errlen, char *warn, size_t warnlen);

#endif /* RSSSRC_H */
