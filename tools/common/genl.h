/* SPDX-License-Identifier: GPL-2.0 */
/*
 * genl - how rxq-delta asks the kernel for netdev qstats: a generic netlink
 * request/reply loop on libmnl, which also replays recorded replies.  The
 * genl_ functions return 0 or a negative errno; g->err and g->ext then hold the kernel's
 * errno (positive) and its extended-ack message ("" if none).
 */
#ifndef TOOLS_GENL_H
#define TOOLS_GENL_H

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

struct genl {
	struct mnl_socket *nl;	/* NULL when replaying recorded replies */
	char *buf;		/* request, then each read of the reply */
	unsigned int seq, portid;	/* 0: accept any (recorded replies) */
	bool dump;		/* the answer ends with NLMSG_DONE */
	mnl_cb_t cb;		/* and its cb_arg: genl_run()'s callback */
	void *cb_arg;
	int err;
	char ext[256];
};

/* NETLINK_GENERIC socket with extended acks; the id of @family. */
int genl_open(struct genl *g, const char *family, uint16_t *id);
void genl_close(struct genl *g);
/* Start a request in g->buf: netlink and genl headers, no attributes. */
struct nlmsghdr *genl_req(struct genl *g, uint16_t family, uint16_t flags,
			  uint8_t cmd, uint8_t version);
/* Send @req, hand each reply message to @cb until the answer ends. */
int genl_talk(struct genl *g, struct nlmsghdr *req, mnl_cb_t cb, void *arg);
/*
 * Walk @len received bytes as genl_talk() does: 1 if the answer is not
 * complete yet, 0 if it is, -1 on an error (g->err, g->ext).
 */
int genl_run(const void *buf, size_t len, struct genl *g, mnl_cb_t cb,
	     void *arg);
/* Attributes of a genl message into tb[type] for type <= max. */
void genl_attrs(const struct nlmsghdr *nh, const struct nlattr **tb,
		unsigned int max);

#endif /* TOOLS_GENL_H */
