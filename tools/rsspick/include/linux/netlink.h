/* SPDX-License-Identifier: GPL-2.0 */
/* For the series' net/core/toeplitz.c in rsspick: see ../../Makefile */
struct netlink_ext_ack {
	const char *_msg;
};
#define NL_SET_ERR_MSG(extack, msg)	\
	do { if (extack) (extack)->_msg = (msg); } while (0)
