// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD shim for the tests: answers the SIOCETHTOOL requests that
 * rsspick's ioctl fallback makes as a Toeplitz NIC would, by byte offset
 * in the ABI (not by header field names):
 *   ETHTOOL_GRSSH  128-entry table i % 8, the Microsoft key, hfunc
 *                  $SHIM_HFUNC (default 1) and input_xfrm $SHIM_XFRM
 *                  (default 0) in the byte after it;
 *   ETHTOOL_GRXFH  rx-flow-hash $SHIM_FIELDS (default 0xf0, sdfn).
 * Everything else goes to the real ioctl().
 */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>

static const uint8_t key[40] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67,
	0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb,
	0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30,
	0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

static unsigned long env(const char *name, unsigned long def)
{
	const char *v = getenv(name);

	return v ? strtoul(v, NULL, 0) : def;
}

int ioctl(int fd, unsigned long req, ...)
{
	int (*real)(int, unsigned long, ...) = dlsym(RTLD_NEXT, "ioctl");
	uint32_t cmd, n, i;
	struct ifreq *ifr;
	uint64_t fields;
	uint8_t *d;
	va_list ap;

	va_start(ap, req);
	ifr = va_arg(ap, struct ifreq *);
	va_end(ap);
	if (req != SIOCETHTOOL)
		return real(fd, req, ifr);
	d = (uint8_t *)ifr->ifr_data;
	memcpy(&cmd, d, 4);
	if (cmd == ETHTOOL_GRXFH) {
		fields = env("SHIM_FIELDS", 0xf0);
		memcpy(d + 8, &fields, 8);		/* rxnfc.data */
		return 0;
	}
	if (cmd != ETHTOOL_GRSSH)
		return real(fd, req, ifr);
	memcpy(&n, d + 8, 4);				/* indir_size */
	if (n) {
		for (i = 0; i < 128; i++) {
			uint32_t q = i % 8;

			memcpy(d + 24 + 4 * i, &q, 4);	/* rss_config */
		}
		memcpy(d + 24 + 4 * 128, key, 40);
	}
	n = 128;
	memcpy(d + 8, &n, 4);
	n = 40;
	memcpy(d + 12, &n, 4);				/* key_size */
	d[16] = env("SHIM_HFUNC", 1);			/* hfunc */
	d[17] = env("SHIM_XFRM", 0);			/* input_xfrm */
	return 0;
}
