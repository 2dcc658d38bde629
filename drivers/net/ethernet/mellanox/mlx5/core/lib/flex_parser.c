// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Copyright (c) 2026, mlx5 flex L4 steering authors. */

/* Flex parser nodes for IP protocols that the fixed parser does not handle.
 *
 * A node is a FLEX_PARSE_GRAPH general object: it follows the IP node when
 * the IPv4 protocol / IPv6 next header equals its protocol, describes a
 * fixed 4-byte header and samples that header's only dword. Flow rules
 * match the sample through misc4 with the sample id that the firmware
 * assigned to it. One node serves IPv4 and IPv6, and every user of the
 * function: nodes are kept in a list, looked up by protocol and refcounted.
 */

#include <linux/mlx5/driver.h>
#include <net/netlink.h>
#include "mlx5_core.h"
#include "lib/flex_parser.h"

#define MLX5_FLEX_NODE_HDR_LEN 4
/* Sample ids are flex parser register indices; only 0..7 can be matched */
#define MLX5_FLEX_NUM_SAMPLE_IDS 8

struct mlx5_flex_node {
	struct list_head list;
	struct mlx5_flex_parser *fp;
	u32 obj_id;
	u32 refcount;
	u8 ip_proto;
	u8 sample_id;
};

struct mlx5_flex_parser {
	struct mlx5_core_dev *mdev;
	struct mutex lock; /* protects nodes and their refcounts */
	struct list_head nodes;
};

/* Protocols the fixed parser handles. A node for one of them would replace
 * that handling: with a node on GRE, the inner RSS of all GRE traffic
 * collapsed onto one queue on a BlueField-3. The IP node compares the IPv4
 * protocol and the IPv6 next header alike, so IPv6 extension headers count
 * for IPv4 too.
 */
static const char *mlx5_flex_parsed_proto(u8 ip_proto)
{
	switch (ip_proto) {
	case IPPROTO_HOPOPTS:
		return "IPv6 hop-by-hop options";
	case IPPROTO_ICMP:
		return "ICMP";
	case IPPROTO_IPIP:
		return "IPIP";
	case IPPROTO_TCP:
		return "TCP";
	case IPPROTO_UDP:
		return "UDP";
	case IPPROTO_IPV6:
		return "IPv6 in IP";
	case IPPROTO_ROUTING:
		return "IPv6 routing header";
	case IPPROTO_FRAGMENT:
		return "IPv6 fragment header";
	case IPPROTO_GRE:
		return "GRE";
	case IPPROTO_ESP:
		return "ESP";
	case IPPROTO_AH:
		return "AH";
	case IPPROTO_ICMPV6:
		return "ICMPv6";
	case IPPROTO_DSTOPTS:
		return "IPv6 destination options";
	case IPPROTO_MH:
		return "IPv6 mobility header";
	case 139: /* Host Identity Protocol, an IPv6 extension header */
		return "HIP";
	case 140: /* Shim6, an IPv6 extension header */
		return "Shim6";
	default:
		return NULL;
	}
}

static int mlx5_flex_node_supported(struct mlx5_core_dev *mdev, u8 ip_proto,
				    struct netlink_ext_ack *extack)
{
	const char *parsed = mlx5_flex_parsed_proto(ip_proto);

	if (parsed) {
		NL_SET_ERR_MSG_FMT(extack, "%s (IP protocol %u) belongs to the fixed parser",
				   parsed, ip_proto);
		return -EOPNOTSUPP;
	}

	if (!(MLX5_CAP_GEN_64(mdev, general_obj_types) &
	      MLX5_GENERAL_OBJ_TYPES_CAP_FLEX_PARSE_GRAPH)) {
		NL_SET_ERR_MSG(extack,
			       "Device has no programmable flex parser (firmware setting PROG_PARSE_GRAPH)");
		return -EOPNOTSUPP;
	}

	if (!(MLX5_CAP_PARSE_GRAPH_NODE(mdev, node_in) &
	      BIT(MLX5_PARSE_GRAPH_ARC_NODE_IP)) ||
	    !MLX5_CAP_PARSE_GRAPH_NODE(mdev, max_num_arc_in) ||
	    !(MLX5_CAP_PARSE_GRAPH_NODE(mdev, header_length_mode) &
	      BIT(MLX5_PARSE_GRAPH_NODE_LEN_FIXED)) ||
	    MLX5_CAP_PARSE_GRAPH_NODE(mdev, max_base_header_length) <
	    MLX5_FLEX_NODE_HDR_LEN) {
		NL_SET_ERR_MSG(extack,
			       "Flex parser cannot add a fixed-length node after the IP header");
		return -EOPNOTSUPP;
	}

	if (!(MLX5_CAP_PARSE_GRAPH_NODE(mdev, sample_offset_mode) &
	      BIT(MLX5_PARSE_GRAPH_SAMPLE_OFFSET_FIXED)) ||
	    !MLX5_CAP_PARSE_GRAPH_NODE(mdev, max_num_sample) ||
	    !MLX5_CAP_GEN_2(mdev, max_num_prog_sample_field)) {
		NL_SET_ERR_MSG(extack, "Flex parser has no programmable sample fields");
		return -EOPNOTSUPP;
	}

	return 0;
}

/* Returns -ENOSPC when the firmware has no flex parser or sample field left */
static int mlx5_flex_node_create(struct mlx5_core_dev *mdev, u8 ip_proto, u32 *obj_id)
{
	u32 out[MLX5_ST_SZ_DW(general_obj_out_cmd_hdr)] = {};
	u32 in[MLX5_ST_SZ_DW(create_flex_parse_graph_in)] = {};
	void *hdr, *flex, *sample, *arc;
	u8 status;
	int err;

	hdr = MLX5_ADDR_OF(create_flex_parse_graph_in, in, hdr);
	MLX5_SET(general_obj_in_cmd_hdr, hdr, opcode, MLX5_CMD_OP_CREATE_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, hdr, obj_type, MLX5_OBJ_TYPE_FLEX_PARSE_GRAPH);

	flex = MLX5_ADDR_OF(create_flex_parse_graph_in, in, flex);
	MLX5_SET(parse_graph_flex, flex, header_length_mode, MLX5_PARSE_GRAPH_NODE_LEN_FIXED);
	MLX5_SET(parse_graph_flex, flex, header_length_base_value, MLX5_FLEX_NODE_HDR_LEN);
	/* Newer firmware checks this bit in every length mode */
	MLX5_SET(parse_graph_flex, flex, header_length_field_offset_mode,
		 MLX5_CAP_PARSE_GRAPH_NODE(mdev, header_length_field_offset_mode));

	sample = MLX5_ADDR_OF(parse_graph_flex, flex, sample_table[0]);
	MLX5_SET(parse_graph_flow_match_sample, sample, flow_match_sample_en, 1);
	MLX5_SET(parse_graph_flow_match_sample, sample, flow_match_sample_offset_mode,
		 MLX5_PARSE_GRAPH_SAMPLE_OFFSET_FIXED);
	MLX5_SET(parse_graph_flow_match_sample, sample, flow_match_sample_tunnel_mode,
		 MLX5_PARSE_GRAPH_SAMPLE_TUNNEL_FIRST);

	arc = MLX5_ADDR_OF(parse_graph_flex, flex, input_arc[0]);
	MLX5_SET(parse_graph_arc, arc, arc_parse_graph_node, MLX5_PARSE_GRAPH_ARC_NODE_IP);
	MLX5_SET(parse_graph_arc, arc, compare_condition_value, ip_proto);

	err = mlx5_cmd_do(mdev, in, sizeof(in), out, sizeof(out));
	status = MLX5_GET(general_obj_out_cmd_hdr, out, status);
	err = mlx5_cmd_check(mdev, err, in, out);
	if (err)
		return status == MLX5_CMD_STAT_NO_RES_ERR ||
		       status == MLX5_CMD_STAT_LIM_ERR ? -ENOSPC : err;

	*obj_id = MLX5_GET(general_obj_out_cmd_hdr, out, obj_id);
	return 0;
}

static int mlx5_flex_node_query_sample(struct mlx5_core_dev *mdev, u32 obj_id,
				       u32 *sample_id)
{
	u32 out[MLX5_ST_SZ_DW(query_flex_parse_graph_out)] = {};
	u32 in[MLX5_ST_SZ_DW(general_obj_in_cmd_hdr)] = {};
	void *sample;
	int err;

	MLX5_SET(general_obj_in_cmd_hdr, in, opcode, MLX5_CMD_OP_QUERY_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_type, MLX5_OBJ_TYPE_FLEX_PARSE_GRAPH);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_id, obj_id);

	err = mlx5_cmd_exec(mdev, in, sizeof(in), out, sizeof(out));
	if (err)
		return err;

	sample = MLX5_ADDR_OF(query_flex_parse_graph_out, out, flex.sample_table[0]);
	if (!MLX5_GET(parse_graph_flow_match_sample, sample, flow_match_sample_en))
		return -EIO;

	*sample_id = MLX5_GET(parse_graph_flow_match_sample, sample,
			      flow_match_sample_field_id);
	return 0;
}

static void mlx5_flex_node_destroy(struct mlx5_core_dev *mdev, u32 obj_id, u8 ip_proto)
{
	u32 out[MLX5_ST_SZ_DW(general_obj_out_cmd_hdr)] = {};
	u32 in[MLX5_ST_SZ_DW(general_obj_in_cmd_hdr)] = {};
	int err;

	MLX5_SET(general_obj_in_cmd_hdr, in, opcode, MLX5_CMD_OP_DESTROY_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_type, MLX5_OBJ_TYPE_FLEX_PARSE_GRAPH);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_id, obj_id);

	err = mlx5_cmd_exec(mdev, in, sizeof(in), out, sizeof(out));
	if (err)
		mlx5_core_warn(mdev,
			       "flex parser node 0x%x for IP protocol %u was not destroyed (%d), its parser stays in use until firmware reset\n",
			       obj_id, ip_proto, err);
}

static struct mlx5_flex_node *
mlx5_flex_node_add(struct mlx5_flex_parser *fp, u8 ip_proto,
		   struct netlink_ext_ack *extack)
{
	struct mlx5_core_dev *mdev = fp->mdev;
	struct mlx5_flex_node *node;
	u32 sample_id;
	int err;

	err = mlx5_flex_node_supported(mdev, ip_proto, extack);
	if (err)
		return ERR_PTR(err);

	node = kzalloc(sizeof(*node), GFP_KERNEL);
	if (!node)
		return ERR_PTR(-ENOMEM);

	err = mlx5_flex_node_create(mdev, ip_proto, &node->obj_id);
	if (err == -ENOSPC) {
		NL_SET_ERR_MSG_FMT(extack, "No free flex parser for IP protocol %u",
				   ip_proto);
		goto err_free;
	}
	if (err) {
		NL_SET_ERR_MSG_FMT(extack,
				   "Failed to create flex parser node for IP protocol %u",
				   ip_proto);
		goto err_free;
	}

	err = mlx5_flex_node_query_sample(mdev, node->obj_id, &sample_id);
	if (err) {
		NL_SET_ERR_MSG_FMT(extack,
				   "Failed to query flex parser node for IP protocol %u",
				   ip_proto);
		goto err_destroy;
	}
	if (sample_id >= MLX5_FLEX_NUM_SAMPLE_IDS) {
		NL_SET_ERR_MSG_FMT(extack,
				   "Firmware returned flex sample id %u, flow rules can match only 0..%u",
				   sample_id, MLX5_FLEX_NUM_SAMPLE_IDS - 1);
		err = -EOPNOTSUPP;
		goto err_destroy;
	}

	node->fp = fp;
	node->ip_proto = ip_proto;
	node->sample_id = sample_id;
	node->refcount = 1;
	list_add(&node->list, &fp->nodes);
	return node;

err_destroy:
	mlx5_flex_node_destroy(mdev, node->obj_id, ip_proto);
err_free:
	kfree(node);
	return ERR_PTR(err);
}

/**
 * mlx5_flex_node_get - Take a reference on the flex parser node of a protocol
 * @fp: the function's flex parser
 * @ip_proto: IPv4 protocol / IPv6 next header the node follows the IP node on
 * @extack: where to say why, on failure
 *
 * The first reference creates the node in firmware and reads its sample id.
 *
 * Return: the node, or an ERR_PTR: -EOPNOTSUPP for a protocol the fixed
 * parser handles or a device that cannot do it, -ENOSPC when the firmware has
 * no free flex parser, or the command's error.
 */
struct mlx5_flex_node *mlx5_flex_node_get(struct mlx5_flex_parser *fp, u8 ip_proto,
					  struct netlink_ext_ack *extack)
{
	struct mlx5_flex_node *node;

	if (IS_ERR_OR_NULL(fp)) {
		NL_SET_ERR_MSG(extack, "Flex parser is not available");
		return ERR_PTR(-EOPNOTSUPP);
	}

	mutex_lock(&fp->lock);
	list_for_each_entry(node, &fp->nodes, list) {
		if (node->ip_proto == ip_proto) {
			node->refcount++;
			goto unlock;
		}
	}
	node = mlx5_flex_node_add(fp, ip_proto, extack);
unlock:
	mutex_unlock(&fp->lock);
	return node;
}

/**
 * mlx5_flex_node_put - Drop a reference taken by mlx5_flex_node_get()
 * @node: the node, or NULL; the last reference destroys it in firmware
 */
void mlx5_flex_node_put(struct mlx5_flex_node *node)
{
	struct mlx5_flex_parser *fp;

	if (!node)
		return;

	fp = node->fp;
	mutex_lock(&fp->lock);
	if (!--node->refcount) {
		list_del(&node->list);
		mlx5_flex_node_destroy(fp->mdev, node->obj_id, node->ip_proto);
		kfree(node);
	}
	mutex_unlock(&fp->lock);
}

u8 mlx5_flex_node_sample_id(const struct mlx5_flex_node *node)
{
	return node->sample_id;
}

struct mlx5_flex_parser *mlx5_flex_parser_create(struct mlx5_core_dev *mdev)
{
	struct mlx5_flex_parser *fp = kzalloc(sizeof(*fp), GFP_KERNEL);

	if (!fp)
		return ERR_PTR(-ENOMEM);

	fp->mdev = mdev;
	mutex_init(&fp->lock);
	INIT_LIST_HEAD(&fp->nodes);
	return fp;
}

void mlx5_flex_parser_destroy(struct mlx5_flex_parser *fp)
{
	struct mlx5_flex_node *node, *tmp;

	if (IS_ERR_OR_NULL(fp))
		return;

	/* Users drop their references before the device goes away */
	list_for_each_entry_safe(node, tmp, &fp->nodes, list) {
		mlx5_core_warn(fp->mdev, "flex parser node for IP protocol %u still has %u users\n",
			       node->ip_proto, node->refcount);
		mlx5_flex_node_destroy(fp->mdev, node->obj_id, node->ip_proto);
		list_del(&node->list);
		kfree(node);
	}
	mutex_destroy(&fp->lock);
	kfree(fp);
}
