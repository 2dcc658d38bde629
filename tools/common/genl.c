// SPDX-License-Identifier: GPL-2.0
/* Generic netlink over libmnl; see genl.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "genl.h"

#define GENL_BUF_SIZE	(256 * 1024)	/* one read of a dump */

void genl_close(struct genl *g)
{
	if (g->nl)
		mnl_socket_close(g->nl);
	free(g->buf);
	g->nl = NULL;
	g->buf = NULL;
}

struct nlmsghdr *genl_req(struct genl *g, uint16_t family, uint16_t flags,
			  uint8_t cmd, uint8_t version)
{
	struct nlmsghdr *nh;
	struct genlmsghdr *gh;

	memset(g->buf, 0, GENL_BUF_SIZE);	/* attribute padding is sent */
	nh = mnl_nlmsg_put_header(g->buf);
	nh->nlmsg_type = family;
	nh->nlmsg_flags = NLM_F_REQUEST | flags;
	g->dump = flags & NLM_F_DUMP;
	gh = mnl_nlmsg_put_extra_header(nh, sizeof(*gh));
	gh->cmd = cmd;
	gh->version = version;
	return nh;
}

/* NLMSG_ERROR (an ack or a failure) or a dump's NLMSG_DONE: the end. */
static int end_cb(const struct nlmsghdr *nh, void *arg)
{
	struct genl *g = arg;
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nh);
	size_t len = mnl_nlmsg_get_payload_len(nh), tlv = sizeof(int);
	const struct nlattr *a;

	if (nh->nlmsg_type == NLMSG_ERROR)
		tlv = sizeof(*e) + (len < sizeof(*e) ||
				    nh->nlmsg_flags & NLM_F_CAPPED ? 0 :
				    mnl_nlmsg_get_payload_len(&e->msg));
	if (len < tlv) {
		g->err = EBADMSG;
		return MNL_CB_ERROR;
	}
	g->err = e->error < 0 ? -e->error : e->error;
	if (nh->nlmsg_flags & NLM_F_ACK_TLVS)
		mnl_attr_for_each(a, nh, tlv)
			if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG &&
			    !mnl_attr_validate(a, MNL_TYPE_NUL_STRING))
				snprintf(g->ext, sizeof(g->ext), "%s",
					 mnl_attr_get_str(a));
	return g->err ? MNL_CB_ERROR : MNL_CB_STOP;
}

static int data_cb(const struct nlmsghdr *nh, void *arg)
{
	struct genl *g = arg;
	int r = MNL_CB_ERROR;

	if (mnl_nlmsg_get_payload_len(nh) >= sizeof(struct genlmsghdr))
		r = g->cb(nh, g->cb_arg);
	if (r == MNL_CB_ERROR && !g->err)
		g->err = EPROTO;
	/*
	 * A dump ends with NLMSG_DONE, other answers are one message. Not by
	 * NLM_F_MULTI: netdev's qstats dump leaves it clear in every message.
	 */
	return r == MNL_CB_OK && !g->dump ? MNL_CB_STOP : r;
}

int genl_run(const void *buf, size_t len, struct genl *g, mnl_cb_t cb,
	     void *arg)
{
	static mnl_cb_t ctl[NLMSG_MIN_TYPE] = {
		[NLMSG_ERROR] = end_cb, [NLMSG_DONE] = end_cb,
	};
	int r;

	g->cb = cb;
	g->cb_arg = arg;
	g->err = 0;
	g->ext[0] = '\0';
	errno = 0;
	r = mnl_cb_run2(buf, len, g->seq, g->portid, data_cb, g, ctl,
			NLMSG_MIN_TYPE);
	if (r < 0 && !g->err)
		g->err = errno ? errno : EPROTO;
	return r < 0 ? -1 : r > 0;
}

int genl_talk(struct genl *g, struct nlmsghdr *req, mnl_cb_t cb, void *arg)
{
	ssize_t n;
	int r;

	req->nlmsg_seq = ++g->seq;
	if (mnl_socket_sendto(g->nl, req, req->nlmsg_len) < 0)
		return -(g->err = errno);
	do {
		n = mnl_socket_recvfrom(g->nl, g->buf, GENL_BUF_SIZE);
		if (n < 0)
			return -(g->err = errno);
		r = genl_run(g->buf, n, g, cb, arg);
	} while (r > 0);
	return r ? -g->err : 0;
}

static int family_cb(const struct nlmsghdr *nh, void *arg)
{
	const struct nlattr *tb[CTRL_ATTR_FAMILY_ID + 1] = { NULL };

	genl_attrs(nh, tb, CTRL_ATTR_FAMILY_ID);
	if (tb[CTRL_ATTR_FAMILY_ID] &&
	    !mnl_attr_validate(tb[CTRL_ATTR_FAMILY_ID], MNL_TYPE_U16))
		*(uint16_t *)arg = mnl_attr_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	return MNL_CB_OK;
}

static int genl_family(struct genl *g, const char *name, uint16_t *id)
{
	struct nlmsghdr *nh = genl_req(g, GENL_ID_CTRL, 0, CTRL_CMD_GETFAMILY, 1);
	int r;

	mnl_attr_put_strz(nh, CTRL_ATTR_FAMILY_NAME, name);
	*id = 0;
	r = genl_talk(g, nh, family_cb, id);
	return r || *id ? r : -(g->err = ENOENT);
}

int genl_open(struct genl *g, const char *family, uint16_t *id)
{
	int one = 1, err;

	memset(g, 0, sizeof(*g));
	g->buf = malloc(GENL_BUF_SIZE);
	g->nl = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC);
	if (!g->buf || !g->nl || mnl_socket_bind(g->nl, 0, MNL_SOCKET_AUTOPID)) {
		err = g->buf ? errno : ENOMEM;
		genl_close(g);
		return -(g->err = err);
	}
	mnl_socket_setsockopt(g->nl, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(g->nl, NETLINK_CAP_ACK, &one, sizeof(one));
	g->portid = mnl_socket_get_portid(g->nl);
	g->seq = time(NULL);
	return genl_family(g, family, id);
}

void genl_attrs(const struct nlmsghdr *nh, const struct nlattr **tb,
		unsigned int max)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, nh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) <= max)
			tb[mnl_attr_get_type(a)] = a;
}
