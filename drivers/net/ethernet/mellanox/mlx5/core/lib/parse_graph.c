// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB

/* Parse graph nodes for IP protocols that the fixed parser does not handle.
 *
 * A node is a FLEX_PARSE_GRAPH general object: it follows the IP node when
 * the IPv4 protocol / IPv6 next header equals its protocol, describes a
 * fixed 4-byte header and samples that header's only dword. Flow rules
 * match the sample through misc4 with the sample id the firmware assigned.
 * One node serves IPv4 and IPv6 and every netdev of its PCI function.
 *
 * The nodes, their refcounts and their lock belong to the function, as
 * geneve's TLV option object does. Whether the firmware keeps a parse graph
 * per function or per device is not documented; a refusal is reported with
 * the firmware's own status.
 */

#include <linux/debugfs.h>
#include <linux/mlx5/driver.h>
#include <linux/seq_file.h>
#include <kunit/static_stub.h>
#include <kunit/visibility.h>
#include "mlx5_core.h"
#include "lib/parse_graph.h"

#define MLX5_PG_NODE_HDR_LEN 4
/* IPv6 extension headers that include/uapi has no name for */
#define MLX5_PG_IPPROTO_HIP 139
#define MLX5_PG_IPPROTO_SHIM6 140
/* Sample ids are flex parser register indices; misc4 can match only 0..7 */
#define MLX5_PG_NUM_SAMPLE_IDS 8

struct mlx5_parse_graph {
	struct mlx5_core_dev *mdev;
	struct mutex lock; /* protects nodes and their refcounts */
	struct list_head nodes;
};

struct mlx5_parse_graph_node {
	struct list_head list;
	struct mlx5_parse_graph *pg;
	u32 obj_id;
	u32 refcount;
	u8 ip_proto;
	u8 sample_id;
};

/* Protocols the fixed parser handles. A node for one of them would replace
 * that handling: with a node on GRE, the inner RSS of all GRE traffic
 * collapsed onto one queue on a BlueField-3. The IP node compares the IPv4
 * protocol and the IPv6 next header alike, so IPv6 extension headers count
 * for IPv4 too.
 */
static const char *mlx5_pg_fixed_proto(u8 ip_proto)
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
	case MLX5_PG_IPPROTO_HIP:
		return "HIP";
	case MLX5_PG_IPPROTO_SHIM6:
		return "Shim6";
	default:
		return NULL;
	}
}

/* Every firmware command of this file goes through here */
VISIBLE_IF_KUNIT int mlx5_pg_cmd(struct mlx5_core_dev *mdev, void *in,
				 int in_size, void *out, int out_size)
{
	KUNIT_STATIC_STUB_REDIRECT(mlx5_pg_cmd, mdev, in, in_size, out,
				   out_size);

	return mlx5_cmd_do(mdev, in, in_size, out, out_size);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_pg_cmd);

static int mlx5_pg_supported(struct mlx5_core_dev *mdev, u8 ip_proto)
{
	const char *fixed = mlx5_pg_fixed_proto(ip_proto);

	if (fixed) {
		mlx5_core_warn_rl(mdev,
				  "IP protocol %u (%s) belongs to the fixed parser, a parse graph node would replace it\n",
				  ip_proto, fixed);
		return -EOPNOTSUPP;
	}

	if (!(MLX5_CAP_GEN_64(mdev, general_obj_types) &
	      MLX5_GENERAL_OBJ_TYPES_CAP_FLEX_PARSE_GRAPH)) {
		mlx5_core_warn_rl(mdev,
				  "Device does not offer parse graph nodes\n");
		return -EOPNOTSUPP;
	}

	if (!(MLX5_CAP_PARSE_GRAPH_NODE(mdev, node_in) &
	      BIT(MLX5_PARSE_GRAPH_ARC_NODE_IP)) ||
	    !MLX5_CAP_PARSE_GRAPH_NODE(mdev, max_num_arc_in) ||
	    !(MLX5_CAP_PARSE_GRAPH_NODE(mdev, header_length_mode) &
	      BIT(MLX5_PARSE_GRAPH_NODE_LEN_FIXED)) ||
	    MLX5_CAP_PARSE_GRAPH_NODE(mdev, max_base_header_length) <
	    MLX5_PG_NODE_HDR_LEN) {
		mlx5_core_warn_rl(mdev,
				  "Parse graph cannot add a fixed-length node after the IP header\n");
		return -EOPNOTSUPP;
	}

	if (!(MLX5_CAP_PARSE_GRAPH_NODE(mdev, sample_offset_mode) &
	      BIT(MLX5_PARSE_GRAPH_SAMPLE_OFFSET_FIXED)) ||
	    !MLX5_CAP_PARSE_GRAPH_NODE(mdev, max_num_sample) ||
	    !MLX5_CAP_GEN_2(mdev, max_num_prog_sample_field)) {
		mlx5_core_warn_rl(mdev,
				  "Parse graph has no programmable sample fields\n");
		return -EOPNOTSUPP;
	}

	return 0;
}

static int mlx5_pg_node_create(struct mlx5_core_dev *mdev, u8 ip_proto,
			       u32 *obj_id)
{
	u32 out[MLX5_ST_SZ_DW(general_obj_out_cmd_hdr)] = {};
	u32 in[MLX5_ST_SZ_DW(create_flex_parse_graph_in)] = {};
	void *hdr, *flex, *sample, *arc;
	u8 status = 0;
	int err;

	hdr = MLX5_ADDR_OF(create_flex_parse_graph_in, in, hdr);
	MLX5_SET(general_obj_in_cmd_hdr, hdr, opcode,
		 MLX5_CMD_OP_CREATE_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, hdr, obj_type,
		 MLX5_OBJ_TYPE_FLEX_PARSE_GRAPH);

	flex = MLX5_ADDR_OF(create_flex_parse_graph_in, in, flex);
	MLX5_SET(parse_graph_flex, flex, header_length_mode,
		 MLX5_PARSE_GRAPH_NODE_LEN_FIXED);
	MLX5_SET(parse_graph_flex, flex, header_length_base_value,
		 MLX5_PG_NODE_HDR_LEN);
	/* Newer firmware checks this bit in every length mode */
	MLX5_SET(parse_graph_flex, flex, header_length_field_offset_mode,
		 MLX5_CAP_PARSE_GRAPH_NODE(mdev,
					   header_length_field_offset_mode));

	sample = MLX5_ADDR_OF(parse_graph_flex, flex, sample_table[0]);
	MLX5_SET(parse_graph_flow_match_sample, sample,
		 flow_match_sample_en, 1);
	MLX5_SET(parse_graph_flow_match_sample, sample,
		 flow_match_sample_offset_mode,
		 MLX5_PARSE_GRAPH_SAMPLE_OFFSET_FIXED);
	MLX5_SET(parse_graph_flow_match_sample, sample,
		 flow_match_sample_tunnel_mode,
		 MLX5_PARSE_GRAPH_SAMPLE_TUNNEL_FIRST);

	arc = MLX5_ADDR_OF(parse_graph_flex, flex, input_arc[0]);
	MLX5_SET(parse_graph_arc, arc, arc_parse_graph_node,
		 MLX5_PARSE_GRAPH_ARC_NODE_IP);
	MLX5_SET(parse_graph_arc, arc, compare_condition_value, ip_proto);

	err = mlx5_pg_cmd(mdev, in, sizeof(in), out, sizeof(out));
	/* The status is the firmware's answer only if the command reached it */
	if (err == -EREMOTEIO)
		status = MLX5_GET(general_obj_out_cmd_hdr, out, status);
	err = mlx5_cmd_check(mdev, err, in, out);
	if (status == MLX5_CMD_STAT_NO_RES_ERR ||
	    status == MLX5_CMD_STAT_LIM_ERR) {
		mlx5_core_warn_rl(mdev,
				  "No free flex parser for IP protocol %u\n",
				  ip_proto);
		return -ENOSPC;
	}
	if (err) {
		mlx5_core_warn_rl(mdev,
				  "Failed to create a parse graph node for IP protocol %u (%d, status 0x%x)\n",
				  ip_proto, err, status);
		return err;
	}

	*obj_id = MLX5_GET(general_obj_out_cmd_hdr, out, obj_id);
	return 0;
}

static int mlx5_pg_node_query_sample(struct mlx5_core_dev *mdev, u32 obj_id,
				     u32 *sample_id)
{
	u32 out[MLX5_ST_SZ_DW(query_flex_parse_graph_out)] = {};
	u32 in[MLX5_ST_SZ_DW(general_obj_in_cmd_hdr)] = {};
	void *sample;
	int err;

	MLX5_SET(general_obj_in_cmd_hdr, in, opcode,
		 MLX5_CMD_OP_QUERY_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_type,
		 MLX5_OBJ_TYPE_FLEX_PARSE_GRAPH);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_id, obj_id);

	err = mlx5_pg_cmd(mdev, in, sizeof(in), out, sizeof(out));
	err = mlx5_cmd_check(mdev, err, in, out);
	if (err)
		return err;

	sample = MLX5_ADDR_OF(query_flex_parse_graph_out, out,
			      flex.sample_table[0]);
	if (!MLX5_GET(parse_graph_flow_match_sample, sample,
		      flow_match_sample_en))
		return -EPROTO;

	*sample_id = MLX5_GET(parse_graph_flow_match_sample, sample,
			      flow_match_sample_field_id);
	return 0;
}

static void mlx5_pg_node_destroy(struct mlx5_core_dev *mdev, u32 obj_id,
				 u8 ip_proto)
{
	u32 out[MLX5_ST_SZ_DW(general_obj_out_cmd_hdr)] = {};
	u32 in[MLX5_ST_SZ_DW(general_obj_in_cmd_hdr)] = {};
	int err;

	MLX5_SET(general_obj_in_cmd_hdr, in, opcode,
		 MLX5_CMD_OP_DESTROY_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_type,
		 MLX5_OBJ_TYPE_FLEX_PARSE_GRAPH);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_id, obj_id);

	err = mlx5_pg_cmd(mdev, in, sizeof(in), out, sizeof(out));
	err = mlx5_cmd_check(mdev, err, in, out);
	if (err)
		mlx5_core_warn(mdev,
			       "Parse graph node 0x%x of IP protocol %u was not destroyed (%d)\n",
			       obj_id, ip_proto, err);
}

static struct mlx5_parse_graph_node *
mlx5_pg_node_add(struct mlx5_parse_graph *pg, u8 ip_proto)
{
	struct mlx5_core_dev *mdev = pg->mdev;
	struct mlx5_parse_graph_node *node;
	u32 sample_id;
	int err;

	err = mlx5_pg_supported(mdev, ip_proto);
	if (err)
		return ERR_PTR(err);

	node = kzalloc_obj(*node);
	if (!node)
		return ERR_PTR(-ENOMEM);

	err = mlx5_pg_node_create(mdev, ip_proto, &node->obj_id);
	if (err)
		goto err_free;

	err = mlx5_pg_node_query_sample(mdev, node->obj_id, &sample_id);
	if (err) {
		mlx5_core_warn_rl(mdev,
				  "Failed to read the sample of the parse graph node for IP protocol %u (%d)\n",
				  ip_proto, err);
		goto err_destroy;
	}
	if (sample_id >= MLX5_PG_NUM_SAMPLE_IDS) {
		mlx5_core_warn_rl(mdev,
				  "Firmware gave sample id %u to IP protocol %u, flow rules match only 0..%u\n",
				  sample_id, ip_proto,
				  MLX5_PG_NUM_SAMPLE_IDS - 1);
		err = -EPROTO;
		goto err_destroy;
	}

	node->pg = pg;
	node->ip_proto = ip_proto;
	node->sample_id = sample_id;
	node->refcount = 1;
	list_add(&node->list, &pg->nodes);
	return node;

err_destroy:
	mlx5_pg_node_destroy(mdev, node->obj_id, ip_proto);
err_free:
	kfree(node);
	return ERR_PTR(err);
}

/**
 * mlx5_parse_graph_node_get - Take a reference on a protocol's node
 * @pg: the function's parse graph state (mdev->parse_graph)
 * @ip_proto: IPv4 protocol / IPv6 next header the node follows the IP node on
 *
 * The first reference creates the node in firmware and reads its sample id.
 * Every refusal of a function that has the state prints one rate-limited
 * warning that says why.
 *
 * Return: the node, or an ERR_PTR: -EOPNOTSUPP for a function without
 * parse graph state, a protocol of the fixed parser or a device without the
 * capability, -ENOSPC when the firmware has no free flex parser, -EPROTO for
 * a node the firmware answers for inconsistently, or the firmware command's
 * error.
 */
struct mlx5_parse_graph_node *
mlx5_parse_graph_node_get(struct mlx5_parse_graph *pg, u8 ip_proto)
{
	struct mlx5_parse_graph_node *node;

	if (IS_ERR_OR_NULL(pg))
		return ERR_PTR(-EOPNOTSUPP);

	mutex_lock(&pg->lock);
	list_for_each_entry(node, &pg->nodes, list) {
		if (node->ip_proto == ip_proto) {
			node->refcount++;
			goto unlock;
		}
	}
	node = mlx5_pg_node_add(pg, ip_proto);
unlock:
	mutex_unlock(&pg->lock);
	return node;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_parse_graph_node_get);

static void mlx5_pg_node_free(struct mlx5_parse_graph_node *node)
{
	list_del(&node->list);
	mlx5_pg_node_destroy(node->pg->mdev, node->obj_id, node->ip_proto);
	kfree(node);
}

/**
 * mlx5_parse_graph_node_put - Drop a node reference
 * @node: the node, or NULL; the last reference destroys it in firmware
 */
void mlx5_parse_graph_node_put(struct mlx5_parse_graph_node *node)
{
	struct mlx5_parse_graph *pg;

	if (!node)
		return;

	pg = node->pg;
	mutex_lock(&pg->lock);
	if (!--node->refcount)
		mlx5_pg_node_free(node);
	mutex_unlock(&pg->lock);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_parse_graph_node_put);

u8 mlx5_parse_graph_node_sample_id(const struct mlx5_parse_graph_node *node)
{
	return node->sample_id;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_parse_graph_node_sample_id);

/* debugfs "parse_graph": what the device offers, and the function's nodes */
VISIBLE_IF_KUNIT int mlx5_pg_debugfs_show(struct seq_file *file, void *priv)
{
	struct mlx5_parse_graph *pg = file->private;
	struct mlx5_core_dev *mdev = pg->mdev;
	struct mlx5_parse_graph_node *node;

	if (!(MLX5_CAP_GEN_64(mdev, general_obj_types) &
	      MLX5_GENERAL_OBJ_TYPES_CAP_FLEX_PARSE_GRAPH)) {
		/* The node capability page was not read */
		seq_puts(file, "object: no\n");
		return 0;
	}
	seq_puts(file, "object: yes\n");
	/* fw.c zeroes the page when its query fails */
	if (!memchr_inv(mdev->caps.hca[MLX5_CAP_PARSE_GRAPH_NODE]->cur, 0,
			sizeof_field(struct mlx5_hca_cap, cur))) {
		seq_puts(file, "capabilities: unavailable\n");
		goto nodes;
	}
	seq_printf(file, "node_in: 0x%x\nheader_length_mode: 0x%x\nsample_offset_mode: 0x%x\n",
		   MLX5_CAP_PARSE_GRAPH_NODE(mdev, node_in),
		   MLX5_CAP_PARSE_GRAPH_NODE(mdev, header_length_mode),
		   MLX5_CAP_PARSE_GRAPH_NODE(mdev, sample_offset_mode));
	seq_printf(file, "max_num_arc_in: %u\nmax_num_sample: %u\nmax_base_header_length: %u\n",
		   MLX5_CAP_PARSE_GRAPH_NODE(mdev, max_num_arc_in),
		   MLX5_CAP_PARSE_GRAPH_NODE(mdev, max_num_sample),
		   MLX5_CAP_PARSE_GRAPH_NODE(mdev, max_base_header_length));
	seq_printf(file, "prog_sample_fields: %u\n",
		   MLX5_CAP_GEN_2(mdev, max_num_prog_sample_field));
nodes:
	seq_puts(file, "protocol object sample refs\n");
	mutex_lock(&pg->lock);
	list_for_each_entry(node, &pg->nodes, list)
		seq_printf(file, "%u 0x%x %u %u\n", node->ip_proto,
			   node->obj_id, node->sample_id, node->refcount);
	mutex_unlock(&pg->lock);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_pg_debugfs_show);
DEFINE_SHOW_ATTRIBUTE(mlx5_pg_debugfs);

/**
 * mlx5_parse_graph_create - Parse graph state of a function
 * @mdev: the PCI function
 *
 * Only the PF of an Ethernet port gets one, as only PFs may program the
 * parse graph (DPDK's flex item is likewise PF-only); other functions
 * refuse l4data rules that need a node.
 *
 * Return: the state, NULL for other functions, or ERR_PTR(-ENOMEM).
 */
struct mlx5_parse_graph *mlx5_parse_graph_create(struct mlx5_core_dev *mdev)
{
	struct mlx5_parse_graph *pg;

	if (!mlx5_core_is_pf(mdev) ||
	    MLX5_CAP_GEN(mdev, port_type) != MLX5_CAP_PORT_TYPE_ETH)
		return NULL;

	pg = kzalloc_obj(*pg);
	if (!pg)
		return ERR_PTR(-ENOMEM);

	pg->mdev = mdev;
	mutex_init(&pg->lock);
	INIT_LIST_HEAD(&pg->nodes);
	debugfs_create_file("parse_graph", 0400,
			    mlx5_debugfs_get_dev_root(mdev), pg,
			    &mlx5_pg_debugfs_fops);
	return pg;
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_parse_graph_create);

/* The netdevs' rules are gone by now: a node left is a leaked reference */
void mlx5_parse_graph_destroy(struct mlx5_parse_graph *pg)
{
	struct mlx5_parse_graph_node *node, *tmp;

	if (IS_ERR_OR_NULL(pg))
		return;

	debugfs_lookup_and_remove("parse_graph",
				  mlx5_debugfs_get_dev_root(pg->mdev));
	WARN_ON_ONCE(!list_empty(&pg->nodes));
	list_for_each_entry_safe(node, tmp, &pg->nodes, list)
		mlx5_pg_node_free(node);
	mutex_destroy(&pg->lock);
	kfree(pg);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_parse_graph_destroy);
