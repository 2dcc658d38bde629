// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* Copyright (c) 2026, mlx5 flex L4 steering authors. */

/* KUnit tests of ethtool l4data rules and of the flex parser nodes behind
 * them. This file is included at the end of en_fs_ethtool.c to reach its
 * static functions.
 *
 * The firmware is a model behind mlx5_cmd_do(). It executes CREATE, QUERY
 * and DESTROY of FLEX_PARSE_GRAPH objects as the PRM describes them,
 * refuses what the PRM does not allow (and any field it does not know),
 * hands out sample ids from the pool of programmable samples, runs out of
 * flex parsers after a budget, and fails any command on request.
 *
 * Flow steering is a recorder behind the fs_core calls of this file: it
 * keeps the flow tables and entries the driver installs. A classifier
 * evaluates those entries against packets built as bytes, the way the
 * hardware does: the flex parser samples the first dword after the IP
 * header only for a protocol that has a live node.
 */

#include <kunit/test.h>
#include <kunit/static_stub.h>
#include <linux/unaligned.h>

#define FW_NUM_SAMPLE_IDS	8
#define FW_MAX_NODES		16
#define FW_OBJ_ID_BASE		0x4000
#define TEST_TIRN_BASE		0x1000
#define TEST_NUM_CHANNELS	16

struct fw_node {
	bool live;
	u32 obj_id;
	u8 proto;
	u8 sample_id;
	u32 flex[MLX5_ST_SZ_DW(parse_graph_flex)];
};

struct fw_model {
	struct mlx5_core_dev *mdev;
	unsigned int node_budget;	/* flex parsers left for nodes */
	unsigned int creates, queries, destroys, others;
	unsigned int live;
	u16 fail_opcode;		/* fail the next command with this opcode */
	u8 fail_status;
	bool packed_sample_ids;		/* answer queries as pre-GA firmware did */
	u32 force_sample_id;		/* if set, answer queries with this id */
	bool sample_disabled;		/* answer queries with sample 0 disabled */
	struct fw_node nodes[FW_MAX_NODES];
};

struct fake_ft {
	struct list_head list;
	unsigned int prio;
};

struct fake_fte {
	struct list_head list;
	struct fake_ft *ft;
	struct mlx5_flow_spec spec;
	u32 action;
	u32 tirn;
};

struct steer_model {
	struct list_head tables;
	struct list_head ftes;
	unsigned int n_tables, n_ftes;
	int fail_add;			/* errno of the next mlx5_add_flow_rules() */
	int fail_table;			/* errno of the next table creation */
	int ns;				/* stands for the ethtool namespace */
};

struct l4_ctx {
	struct kunit *test;
	struct fw_model fw;
	struct steer_model steer;
	struct mlx5_core_dev *mdev;
	struct mlx5e_priv *priv;
};

static struct l4_ctx *l4_ctx(void)
{
	return kunit_get_current_test()->priv;
}

/* ---- firmware model ---- */

#define NODE_CAP(mdev, cap) MLX5_CAP_PARSE_GRAPH_NODE(mdev, cap)

static struct fw_node *fw_find(struct fw_model *fw, u32 obj_id)
{
	int i;

	for (i = 0; i < FW_MAX_NODES; i++)
		if (fw->nodes[i].live && fw->nodes[i].obj_id == obj_id)
			return &fw->nodes[i];
	return NULL;
}

static struct fw_node *fw_node_of_proto(struct fw_model *fw, u8 proto)
{
	int i;

	for (i = 0; i < FW_MAX_NODES; i++)
		if (fw->nodes[i].live && fw->nodes[i].proto == proto)
			return &fw->nodes[i];
	return NULL;
}

/* Check a node against the PRM rules and the capabilities, and rebuild it
 * from the fields the model knows: any other bit set makes it malformed.
 */
static u8 fw_check_node(struct fw_model *fw, void *flex, u8 *proto)
{
	u32 canon[MLX5_ST_SZ_DW(parse_graph_flex)] = {};
	struct mlx5_core_dev *mdev = fw->mdev;
	unsigned int len, i, n_in = 0, n_samples = 0;
	u32 mode;

	mode = MLX5_GET(parse_graph_flex, flex, header_length_mode);
	if (!(NODE_CAP(mdev, header_length_mode) & BIT(mode)) ||
	    mode != MLX5_PARSE_GRAPH_NODE_LEN_FIXED)
		return MLX5_CMD_STAT_BAD_PARAM_ERR;
	len = MLX5_GET(parse_graph_flex, flex, header_length_base_value);
	if (!len || len > NODE_CAP(mdev, max_base_header_length))
		return MLX5_CMD_STAT_BAD_PARAM_ERR;
	/* Newer firmware checks the offset mode bit in every length mode */
	if (MLX5_GET(parse_graph_flex, flex, header_length_field_offset_mode) !=
	    NODE_CAP(mdev, header_length_field_offset_mode))
		return MLX5_CMD_STAT_BAD_PARAM_ERR;
	MLX5_SET(parse_graph_flex, canon, header_length_mode, mode);
	MLX5_SET(parse_graph_flex, canon, header_length_base_value, len);
	MLX5_SET(parse_graph_flex, canon, header_length_field_offset_mode,
		 NODE_CAP(mdev, header_length_field_offset_mode));

	for (i = 0; i < MLX5_PARSE_GRAPH_NODE_MAX_ARCS; i++) {
		void *arc = MLX5_ADDR_OF(parse_graph_flex, flex, input_arc[i]);
		void *carc = MLX5_ADDR_OF(parse_graph_flex, canon, input_arc[i]);
		u32 node = MLX5_GET(parse_graph_arc, arc, arc_parse_graph_node);
		u32 value = MLX5_GET(parse_graph_arc, arc, compare_condition_value);

		if (!node)
			continue;
		/* The model knows arcs from the IP node only */
		if (!(NODE_CAP(mdev, node_in) & BIT(node)) ||
		    node != MLX5_PARSE_GRAPH_ARC_NODE_IP || value > 0xff ||
		    ++n_in > NODE_CAP(mdev, max_num_arc_in))
			return MLX5_CMD_STAT_BAD_PARAM_ERR;
		*proto = value;
		MLX5_SET(parse_graph_arc, carc, arc_parse_graph_node, node);
		MLX5_SET(parse_graph_arc, carc, compare_condition_value, value);
	}
	/* Input arcs are mandatory; the model takes one */
	if (n_in != 1)
		return MLX5_CMD_STAT_BAD_PARAM_ERR;

	for (i = 0; i < MLX5_PARSE_GRAPH_NODE_MAX_SAMPLES; i++) {
		void *s = MLX5_ADDR_OF(parse_graph_flex, flex, sample_table[i]);
		void *cs = MLX5_ADDR_OF(parse_graph_flex, canon, sample_table[i]);
		u32 base, tunnel;

		if (!MLX5_GET(parse_graph_flow_match_sample, s, flow_match_sample_en))
			continue;
		mode = MLX5_GET(parse_graph_flow_match_sample, s,
				flow_match_sample_offset_mode);
		base = MLX5_GET(parse_graph_flow_match_sample, s,
				flow_match_sample_field_base_offset);
		tunnel = MLX5_GET(parse_graph_flow_match_sample, s,
				  flow_match_sample_tunnel_mode);
		/* A sample is a dword inside the header */
		if (!(NODE_CAP(mdev, sample_offset_mode) & BIT(mode)) ||
		    mode != MLX5_PARSE_GRAPH_SAMPLE_OFFSET_FIXED ||
		    base % 4 || base + 4 > len ||
		    base > NODE_CAP(mdev, max_sample_base_offset) ||
		    tunnel > MLX5_PARSE_GRAPH_SAMPLE_TUNNEL_FIRST ||
		    ++n_samples > NODE_CAP(mdev, max_num_sample))
			return MLX5_CMD_STAT_BAD_PARAM_ERR;
		MLX5_SET(parse_graph_flow_match_sample, cs, flow_match_sample_en, 1);
		MLX5_SET(parse_graph_flow_match_sample, cs,
			 flow_match_sample_offset_mode, mode);
		MLX5_SET(parse_graph_flow_match_sample, cs,
			 flow_match_sample_field_base_offset, base);
		MLX5_SET(parse_graph_flow_match_sample, cs,
			 flow_match_sample_tunnel_mode, tunnel);
	}
	/* The model's nodes sample exactly one dword */
	if (n_samples != 1)
		return MLX5_CMD_STAT_BAD_PARAM_ERR;

	/* No next header field, so no output arcs; nothing else may be set */
	if (memcmp(flex, canon, sizeof(canon)))
		return MLX5_CMD_STAT_BAD_PARAM_ERR;
	return MLX5_CMD_STAT_OK;
}

static u8 fw_create(struct fw_model *fw, void *in, int in_size, void *out, int out_size)
{
	u32 hdr_canon[MLX5_ST_SZ_DW(general_obj_in_cmd_hdr)] = {};
	void *flex = MLX5_ADDR_OF(create_flex_parse_graph_in, in, flex);
	unsigned int pool, id, i;
	struct fw_node *node;
	u8 proto = 0;
	u8 status;

	if (in_size != MLX5_ST_SZ_BYTES(create_flex_parse_graph_in) ||
	    out_size != MLX5_ST_SZ_BYTES(general_obj_out_cmd_hdr))
		return MLX5_CMD_STAT_BAD_INP_LEN_ERR;
	MLX5_SET(general_obj_in_cmd_hdr, hdr_canon, opcode, MLX5_CMD_OP_CREATE_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, hdr_canon, obj_type, MLX5_OBJ_TYPE_FLEX_PARSE_GRAPH);
	if (memcmp(in, hdr_canon, sizeof(hdr_canon)))
		return MLX5_CMD_STAT_BAD_PARAM_ERR;

	status = fw_check_node(fw, flex, &proto);
	if (status)
		return status;
	/* What firmware does with two nodes on one arc is not documented */
	if (fw_node_of_proto(fw, proto))
		return MLX5_CMD_STAT_BAD_PARAM_ERR;
	if (fw->live >= fw->node_budget)
		return MLX5_CMD_STAT_NO_RES_ERR;

	pool = min_t(unsigned int, FW_NUM_SAMPLE_IDS,
		     MLX5_CAP_GEN_2(fw->mdev, max_num_prog_sample_field));
	for (id = 0; id < pool; id++) {
		for (i = 0; i < FW_MAX_NODES; i++)
			if (fw->nodes[i].live && fw->nodes[i].sample_id == id)
				break;
		if (i == FW_MAX_NODES)
			break;
	}
	if (id == pool)
		return MLX5_CMD_STAT_NO_RES_ERR;

	for (i = 0; fw->nodes[i].live; i++)
		;
	node = &fw->nodes[i];
	node->live = true;
	node->obj_id = FW_OBJ_ID_BASE + fw->creates;
	node->proto = proto;
	node->sample_id = id;
	memcpy(node->flex, flex, sizeof(node->flex));
	fw->live++;
	MLX5_SET(general_obj_out_cmd_hdr, out, obj_id, node->obj_id);
	return MLX5_CMD_STAT_OK;
}

static struct fw_node *fw_obj(struct fw_model *fw, void *in, int in_size, u8 *status)
{
	u32 hdr_canon[MLX5_ST_SZ_DW(general_obj_in_cmd_hdr)] = {};
	u32 obj_id = MLX5_GET(general_obj_in_cmd_hdr, in, obj_id);
	struct fw_node *node = fw_find(fw, obj_id);

	MLX5_SET(general_obj_in_cmd_hdr, hdr_canon, opcode,
		 MLX5_GET(general_obj_in_cmd_hdr, in, opcode));
	MLX5_SET(general_obj_in_cmd_hdr, hdr_canon, obj_type, MLX5_OBJ_TYPE_FLEX_PARSE_GRAPH);
	MLX5_SET(general_obj_in_cmd_hdr, hdr_canon, obj_id, obj_id);
	if (in_size != sizeof(hdr_canon)) {
		*status = MLX5_CMD_STAT_BAD_INP_LEN_ERR;
		return NULL;
	}
	if (memcmp(in, hdr_canon, sizeof(hdr_canon))) {
		*status = MLX5_CMD_STAT_BAD_PARAM_ERR;
		return NULL;
	}
	*status = node ? MLX5_CMD_STAT_OK : MLX5_CMD_STAT_BAD_RES_ERR;
	return node;
}

static u8 fw_query(struct fw_model *fw, void *in, int in_size, void *out, int out_size)
{
	void *flex = MLX5_ADDR_OF(query_flex_parse_graph_out, out, flex);
	struct fw_node *node;
	u32 id;
	u8 status;
	int i;

	node = fw_obj(fw, in, in_size, &status);
	if (!node)
		return status;
	if (out_size != MLX5_ST_SZ_BYTES(query_flex_parse_graph_out))
		return MLX5_CMD_STAT_BAD_OUTP_LEN_ERR;

	memcpy(flex, node->flex, sizeof(node->flex));
	/* Pre-GA firmware: {sample_id:12, modify_field_id:12, format_select_dw:8} */
	id = fw->packed_sample_ids ? node->sample_id << 20 | 0x2a << 8 | 0x11 : node->sample_id;
	if (fw->force_sample_id)
		id = fw->force_sample_id;
	for (i = 0; i < MLX5_PARSE_GRAPH_NODE_MAX_SAMPLES; i++) {
		void *s = MLX5_ADDR_OF(parse_graph_flex, flex, sample_table[i]);

		if (MLX5_GET(parse_graph_flow_match_sample, s, flow_match_sample_en))
			MLX5_SET(parse_graph_flow_match_sample, s, flow_match_sample_field_id, id);
	}
	if (fw->sample_disabled)
		MLX5_SET(parse_graph_flow_match_sample,
			 MLX5_ADDR_OF(parse_graph_flex, flex, sample_table[0]),
			 flow_match_sample_en, 0);
	return MLX5_CMD_STAT_OK;
}

static bool fte_uses_sample(const struct mlx5_flow_spec *spec, u8 sample_id)
{
	const void *mc = MLX5_ADDR_OF(fte_match_param, spec->match_criteria,
				      misc_parameters_4);

	return (spec->match_criteria_enable & MLX5_MATCH_MISC_PARAMETERS_4) &&
	       MLX5_GET(fte_match_set_misc4, mc, prog_sample_field_id_0) == sample_id;
}

static u8 fw_destroy(struct fw_model *fw, void *in, int in_size, int out_size)
{
	struct l4_ctx *ctx = l4_ctx();
	struct fake_fte *fte;
	struct fw_node *node;
	u8 status;

	node = fw_obj(fw, in, in_size, &status);
	if (!node)
		return status;
	if (out_size != MLX5_ST_SZ_BYTES(general_obj_out_cmd_hdr))
		return MLX5_CMD_STAT_BAD_OUTP_LEN_ERR;
	/* Flow entries that match the node's sample go first */
	list_for_each_entry(fte, &ctx->steer.ftes, list)
		if (fte_uses_sample(&fte->spec, node->sample_id))
			KUNIT_FAIL(ctx->test, "node of protocol %u destroyed under a flow entry",
				   node->proto);
	node->live = false;
	fw->live--;
	return MLX5_CMD_STAT_OK;
}

static int fw_cmd_do(struct mlx5_core_dev *dev, void *in, int in_size, void *out,
		     int out_size)
{
	struct l4_ctx *ctx = l4_ctx();
	struct fw_model *fw = &ctx->fw;
	u16 opcode = MLX5_GET(general_obj_in_cmd_hdr, in, opcode);
	u8 status;

	KUNIT_EXPECT_PTR_EQ(ctx->test, dev, ctx->mdev);
	memset(out, 0, out_size);
	switch (opcode) {
	case MLX5_CMD_OP_CREATE_GENERAL_OBJECT:
		fw->creates++;
		break;
	case MLX5_CMD_OP_QUERY_GENERAL_OBJECT:
		fw->queries++;
		break;
	case MLX5_CMD_OP_DESTROY_GENERAL_OBJECT:
		fw->destroys++;
		break;
	default:
		fw->others++;
		KUNIT_FAIL(ctx->test, "unexpected firmware command 0x%x", opcode);
		MLX5_SET(general_obj_out_cmd_hdr, out, status, MLX5_CMD_STAT_BAD_OP_ERR);
		return -EREMOTEIO;
	}

	if (opcode == fw->fail_opcode) {
		/* A failed command has no effect */
		fw->fail_opcode = 0;
		status = fw->fail_status;
	} else if (opcode == MLX5_CMD_OP_CREATE_GENERAL_OBJECT) {
		status = fw_create(fw, in, in_size, out, out_size);
	} else if (opcode == MLX5_CMD_OP_QUERY_GENERAL_OBJECT) {
		status = fw_query(fw, in, in_size, out, out_size);
	} else {
		status = fw_destroy(fw, in, in_size, out_size);
	}

	if (status) {
		MLX5_SET(general_obj_out_cmd_hdr, out, status, status);
		MLX5_SET(general_obj_out_cmd_hdr, out, syndrome, 0x7e57);
		return -EREMOTEIO;
	}
	return 0;
}

/* ---- flow steering recorder ---- */

static struct mlx5_flow_namespace *
steer_get_ns(struct mlx5_core_dev *dev, enum mlx5_flow_namespace_type type)
{
	struct l4_ctx *ctx = l4_ctx();

	KUNIT_EXPECT_EQ(ctx->test, type, MLX5_FLOW_NAMESPACE_ETHTOOL);
	return (struct mlx5_flow_namespace *)&ctx->steer.ns;
}

static struct mlx5_flow_table *
steer_create_table(struct mlx5_flow_namespace *ns, struct mlx5_flow_table_attr *ft_attr)
{
	struct steer_model *steer = &l4_ctx()->steer;
	struct fake_ft *ft;
	int err;

	if (steer->fail_table) {
		err = steer->fail_table;
		steer->fail_table = 0;
		return ERR_PTR(err);
	}
	ft = kzalloc(sizeof(*ft), GFP_KERNEL);
	if (!ft)
		return ERR_PTR(-ENOMEM);
	ft->prio = ft_attr->prio;
	list_add_tail(&ft->list, &steer->tables);
	steer->n_tables++;
	return (struct mlx5_flow_table *)ft;
}

static int steer_destroy_table(struct mlx5_flow_table *table)
{
	struct l4_ctx *ctx = l4_ctx();
	struct fake_ft *ft = (struct fake_ft *)table;
	struct fake_fte *fte;

	list_for_each_entry(fte, &ctx->steer.ftes, list)
		KUNIT_EXPECT_PTR_NE(ctx->test, fte->ft, ft);
	list_del(&ft->list);
	kfree(ft);
	ctx->steer.n_tables--;
	return 0;
}

static struct mlx5_flow_handle *
steer_add_rules(struct mlx5_flow_table *ft, const struct mlx5_flow_spec *spec,
		struct mlx5_flow_act *flow_act, struct mlx5_flow_destination *dest,
		int num_dest)
{
	struct steer_model *steer = &l4_ctx()->steer;
	struct fake_fte *fte;
	int err;

	if (steer->fail_add) {
		err = steer->fail_add;
		steer->fail_add = 0;
		return ERR_PTR(err);
	}
	fte = kzalloc(sizeof(*fte), GFP_KERNEL);
	if (!fte)
		return ERR_PTR(-ENOMEM);
	fte->ft = (struct fake_ft *)ft;
	fte->spec = *spec;
	fte->action = flow_act->action;
	if (num_dest)
		fte->tirn = dest[0].tir_num;
	list_add_tail(&fte->list, &steer->ftes);
	steer->n_ftes++;
	return (struct mlx5_flow_handle *)fte;
}

static void steer_del_rules(struct mlx5_flow_handle *handle)
{
	struct fake_fte *fte = (struct fake_fte *)handle;

	list_del(&fte->list);
	kfree(fte);
	l4_ctx()->steer.n_ftes--;
}

static u32 steer_tirn_direct(struct mlx5e_rx_res *res, unsigned int ix)
{
	return TEST_TIRN_BASE + ix;
}

/* ---- device set-up ---- */

static const int l4_cap_types[] = {
	MLX5_CAP_GENERAL, MLX5_CAP_GENERAL_2, MLX5_CAP_FLOW_TABLE,
	MLX5_CAP_PARSE_GRAPH_NODE,
};

#define GEN_CAP(mdev) ((mdev)->caps.hca[MLX5_CAP_GENERAL]->cur)
#define GEN2_CAP(mdev) ((mdev)->caps.hca[MLX5_CAP_GENERAL_2]->cur)
#define FT_CAP(mdev) ((mdev)->caps.hca[MLX5_CAP_FLOW_TABLE]->cur)
#define PG_CAP(mdev) ((mdev)->caps.hca[MLX5_CAP_PARSE_GRAPH_NODE]->cur)

/* What a BlueField-3 with PROG_PARSE_GRAPH enabled is expected to report */
static void l4_set_caps(struct mlx5_core_dev *mdev)
{
	MLX5_SET64(cmd_hca_cap, GEN_CAP(mdev), general_obj_types,
		   MLX5_GENERAL_OBJ_TYPES_CAP_FLEX_PARSE_GRAPH);
	MLX5_SET(cmd_hca_cap_2, GEN2_CAP(mdev), max_num_prog_sample_field, 8);
	MLX5_SET(flow_table_nic_cap, FT_CAP(mdev),
		 flow_table_properties_nic_receive.ft_field_support.outer_esp_spi, 1);
	MLX5_SET(parse_graph_node_cap, PG_CAP(mdev), node_in,
		 BIT(MLX5_PARSE_GRAPH_ARC_NODE_MAC) | BIT(MLX5_PARSE_GRAPH_ARC_NODE_IP) |
		 BIT(MLX5_PARSE_GRAPH_ARC_NODE_UDP));
	MLX5_SET(parse_graph_node_cap, PG_CAP(mdev), node_out,
		 BIT(MLX5_PARSE_GRAPH_ARC_NODE_IPV4) | BIT(MLX5_PARSE_GRAPH_ARC_NODE_IPV6));
	MLX5_SET(parse_graph_node_cap, PG_CAP(mdev), header_length_mode,
		 BIT(MLX5_PARSE_GRAPH_NODE_LEN_FIXED) | BIT(MLX5_PARSE_GRAPH_NODE_LEN_FIELD));
	MLX5_SET(parse_graph_node_cap, PG_CAP(mdev), sample_offset_mode,
		 BIT(MLX5_PARSE_GRAPH_SAMPLE_OFFSET_FIXED));
	MLX5_SET(parse_graph_node_cap, PG_CAP(mdev), max_num_arc_in, 8);
	MLX5_SET(parse_graph_node_cap, PG_CAP(mdev), max_num_arc_out, 8);
	MLX5_SET(parse_graph_node_cap, PG_CAP(mdev), max_num_sample, 8);
	MLX5_SET(parse_graph_node_cap, PG_CAP(mdev), header_length_field_offset_mode, 1);
	MLX5_SET(parse_graph_node_cap, PG_CAP(mdev), max_base_header_length, 0xff);
	MLX5_SET(parse_graph_node_cap, PG_CAP(mdev), max_sample_base_offset, 0xfc);
	MLX5_SET(parse_graph_node_cap, PG_CAP(mdev), max_next_header_offset, 0x7ff);
	MLX5_SET(parse_graph_node_cap, PG_CAP(mdev), header_length_mask_width, 6);
}

static int l4_test_init(struct kunit *test)
{
	static const struct mlx5e_profile profile = {};
	struct l4_ctx *ctx;
	int i;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->test = test;
	test->priv = ctx;

	ctx->mdev = kunit_kzalloc(test, sizeof(*ctx->mdev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx->mdev);
	for (i = 0; i < ARRAY_SIZE(l4_cap_types); i++) {
		ctx->mdev->caps.hca[l4_cap_types[i]] =
			kunit_kzalloc(test, sizeof(struct mlx5_hca_cap), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, ctx->mdev->caps.hca[l4_cap_types[i]]);
	}
	l4_set_caps(ctx->mdev);

	ctx->fw.mdev = ctx->mdev;
	ctx->fw.node_budget = 8;
	INIT_LIST_HEAD(&ctx->steer.tables);
	INIT_LIST_HEAD(&ctx->steer.ftes);

	kunit_activate_static_stub(test, mlx5_cmd_do, fw_cmd_do);
	kunit_activate_static_stub(test, mlx5_get_flow_namespace, steer_get_ns);
	kunit_activate_static_stub(test, mlx5_create_auto_grouped_flow_table,
				   steer_create_table);
	kunit_activate_static_stub(test, mlx5_destroy_flow_table, steer_destroy_table);
	kunit_activate_static_stub(test, mlx5_add_flow_rules, steer_add_rules);
	kunit_activate_static_stub(test, mlx5_del_flow_rules, steer_del_rules);
	kunit_activate_static_stub(test, mlx5e_rx_res_get_tirn_direct, steer_tirn_direct);

	ctx->mdev->flex_parser = mlx5_flex_parser_create(ctx->mdev);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ctx->mdev->flex_parser));

	ctx->priv = kunit_kzalloc(test, sizeof(*ctx->priv), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx->priv);
	ctx->priv->mdev = ctx->mdev;
	ctx->priv->channels.params.num_channels = TEST_NUM_CHANNELS;
	ctx->priv->fs = mlx5e_fs_init(&profile, ctx->mdev, false, NULL);
	KUNIT_ASSERT_NOT_NULL(test, ctx->priv->fs);
	mlx5e_ethtool_init_steering(ctx->priv->fs);
	return 0;
}

static void l4_test_exit(struct kunit *test)
{
	struct l4_ctx *ctx = test->priv;

	mlx5e_ethtool_cleanup_steering(ctx->priv->fs);
	mlx5e_fs_cleanup(ctx->priv->fs);
	mlx5_flex_parser_destroy(ctx->mdev->flex_parser);
	/* Teardown released everything the driver held */
	KUNIT_EXPECT_EQ(test, ctx->steer.n_ftes, 0);
	KUNIT_EXPECT_EQ(test, ctx->steer.n_tables, 0);
	KUNIT_EXPECT_EQ(test, ctx->fw.live, 0);
}

static unsigned int l4_num_rules(struct l4_ctx *ctx)
{
	return mlx5e_fs_get_ethtool(ctx->priv->fs)->tot_num_rules;
}

/* ---- node manager ---- */

static struct mlx5_flex_node *node_get(struct l4_ctx *ctx, u8 proto, const char **msg)
{
	struct netlink_ext_ack extack = {};
	struct mlx5_flex_node *node;

	node = mlx5_flex_node_get(ctx->mdev->flex_parser, proto, &extack);
	if (msg)
		*msg = extack._msg;
	return node;
}

static void flex_node_create_query_destroy(struct kunit *test)
{
	struct l4_ctx *ctx = test->priv;
	struct mlx5_flex_node *node;
	struct fw_node *fwn;
	void *arc, *s;

	node = node_get(ctx, 146, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(node));
	KUNIT_EXPECT_EQ(test, ctx->fw.creates, 1);
	KUNIT_EXPECT_EQ(test, ctx->fw.queries, 1);
	KUNIT_EXPECT_EQ(test, ctx->fw.live, 1);

	/* The node exactly: IP -> 146, fixed 4 bytes, dword 0 sampled */
	fwn = fw_node_of_proto(&ctx->fw, 146);
	KUNIT_ASSERT_NOT_NULL(test, fwn);
	KUNIT_EXPECT_EQ(test, mlx5_flex_node_sample_id(node), fwn->sample_id);
	KUNIT_EXPECT_EQ(test, MLX5_GET(parse_graph_flex, fwn->flex, header_length_mode),
			MLX5_PARSE_GRAPH_NODE_LEN_FIXED);
	KUNIT_EXPECT_EQ(test, MLX5_GET(parse_graph_flex, fwn->flex, header_length_base_value), 4);
	KUNIT_EXPECT_EQ(test, MLX5_GET(parse_graph_flex, fwn->flex,
				       header_length_field_offset_mode), 1);
	arc = MLX5_ADDR_OF(parse_graph_flex, fwn->flex, input_arc[0]);
	KUNIT_EXPECT_EQ(test, MLX5_GET(parse_graph_arc, arc, arc_parse_graph_node),
			MLX5_PARSE_GRAPH_ARC_NODE_IP);
	KUNIT_EXPECT_EQ(test, MLX5_GET(parse_graph_arc, arc, compare_condition_value), 146);
	s = MLX5_ADDR_OF(parse_graph_flex, fwn->flex, sample_table[0]);
	KUNIT_EXPECT_EQ(test, MLX5_GET(parse_graph_flow_match_sample, s, flow_match_sample_en), 1);
	KUNIT_EXPECT_EQ(test, MLX5_GET(parse_graph_flow_match_sample, s,
				       flow_match_sample_field_base_offset), 0);
	KUNIT_EXPECT_EQ(test, MLX5_GET(parse_graph_flow_match_sample, s,
				       flow_match_sample_offset_mode),
			MLX5_PARSE_GRAPH_SAMPLE_OFFSET_FIXED);
	KUNIT_EXPECT_EQ(test, MLX5_GET(parse_graph_flow_match_sample, s,
				       flow_match_sample_tunnel_mode),
			MLX5_PARSE_GRAPH_SAMPLE_TUNNEL_FIRST);

	mlx5_flex_node_put(node);
	KUNIT_EXPECT_EQ(test, ctx->fw.destroys, 1);
	KUNIT_EXPECT_EQ(test, ctx->fw.live, 0);
}

/* Older firmware has no offset-mode bit: the node must not set it */
static void flex_node_offset_mode_cap(struct kunit *test)
{
	struct l4_ctx *ctx = test->priv;
	struct mlx5_flex_node *node;

	MLX5_SET(parse_graph_node_cap, PG_CAP(ctx->mdev), header_length_field_offset_mode, 0);
	node = node_get(ctx, 146, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(node));
	KUNIT_EXPECT_EQ(test, MLX5_GET(parse_graph_flex, fw_node_of_proto(&ctx->fw, 146)->flex,
				       header_length_field_offset_mode), 0);
	mlx5_flex_node_put(node);
}

static void flex_node_parsed_protocols(struct kunit *test)
{
	static const u8 protos[] = {
		0, 1, 4, 6, 17, 41, 43, 44, 47, 50, 51, 58, 60, 135, 139, 140,
	};
	struct l4_ctx *ctx = test->priv;
	struct mlx5_flex_node *node;
	const char *msg;
	int i;

	for (i = 0; i < ARRAY_SIZE(protos); i++) {
		node = node_get(ctx, protos[i], &msg);
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR(node), -EOPNOTSUPP, "protocol %u", protos[i]);
	}
	node = node_get(ctx, IPPROTO_GRE, &msg);
	KUNIT_EXPECT_STREQ(test, msg, "GRE (IP protocol 47) belongs to the fixed parser");
	node = node_get(ctx, IPPROTO_TCP, &msg);
	KUNIT_EXPECT_STREQ(test, msg, "TCP (IP protocol 6) belongs to the fixed parser");
	KUNIT_EXPECT_EQ(test, ctx->fw.creates + ctx->fw.queries + ctx->fw.destroys, 0);
}

static void flex_node_refcount(struct kunit *test)
{
	struct l4_ctx *ctx = test->priv;
	struct mlx5_flex_node *a, *b, *c;

	a = node_get(ctx, 253, NULL);
	b = node_get(ctx, 253, NULL);
	c = node_get(ctx, 253, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	KUNIT_EXPECT_PTR_EQ(test, a, b);
	KUNIT_EXPECT_PTR_EQ(test, a, c);
	KUNIT_EXPECT_EQ(test, ctx->fw.creates, 1);
	KUNIT_EXPECT_EQ(test, ctx->fw.queries, 1);

	mlx5_flex_node_put(a);
	mlx5_flex_node_put(b);
	KUNIT_EXPECT_EQ(test, ctx->fw.destroys, 0);
	KUNIT_EXPECT_EQ(test, ctx->fw.live, 1);
	mlx5_flex_node_put(c);
	KUNIT_EXPECT_EQ(test, ctx->fw.destroys, 1);
	KUNIT_EXPECT_EQ(test, ctx->fw.live, 0);
	mlx5_flex_node_put(NULL);
	KUNIT_EXPECT_EQ(test, ctx->fw.destroys, 1);
}

static void flex_node_several_protocols(struct kunit *test)
{
	static const u8 protos[] = { 146, 132, 253, 254 };
	struct l4_ctx *ctx = test->priv;
	struct mlx5_flex_node *node[ARRAY_SIZE(protos)];
	int i, j;

	for (i = 0; i < ARRAY_SIZE(protos); i++) {
		node[i] = node_get(ctx, protos[i], NULL);
		KUNIT_ASSERT_FALSE(test, IS_ERR(node[i]));
		KUNIT_EXPECT_EQ(test, mlx5_flex_node_sample_id(node[i]),
				fw_node_of_proto(&ctx->fw, protos[i])->sample_id);
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_NE(test, mlx5_flex_node_sample_id(node[i]),
					mlx5_flex_node_sample_id(node[j]));
	}
	KUNIT_EXPECT_EQ(test, ctx->fw.live, ARRAY_SIZE(protos));
	for (i = 0; i < ARRAY_SIZE(protos); i++)
		mlx5_flex_node_put(node[i]);
	KUNIT_EXPECT_EQ(test, ctx->fw.live, 0);
}

static void flex_node_out_of_parsers(struct kunit *test)
{
	struct l4_ctx *ctx = test->priv;
	struct mlx5_flex_node *a, *b, *c;
	const char *msg;

	ctx->fw.node_budget = 2;
	a = node_get(ctx, 146, NULL);
	b = node_get(ctx, 132, NULL);
	c = node_get(ctx, 253, &msg);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));
	KUNIT_EXPECT_EQ(test, PTR_ERR(c), -ENOSPC);
	KUNIT_EXPECT_STREQ(test, msg, "No free flex parser for IP protocol 253");
	KUNIT_EXPECT_EQ(test, ctx->fw.creates, 3);
	KUNIT_EXPECT_EQ(test, ctx->fw.queries, 2);
	KUNIT_EXPECT_EQ(test, ctx->fw.live, 2);

	/* A freed parser can be used again */
	mlx5_flex_node_put(a);
	c = node_get(ctx, 253, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c));
	mlx5_flex_node_put(b);
	mlx5_flex_node_put(c);
	KUNIT_EXPECT_EQ(test, ctx->fw.live, 0);
}

static void flex_node_out_of_samples(struct kunit *test)
{
	struct l4_ctx *ctx = test->priv;
	struct mlx5_flex_node *node[3], *extra;
	int i;

	/* Firmware before XX.33.1048 has a pool of three sample fields */
	MLX5_SET(cmd_hca_cap_2, GEN2_CAP(ctx->mdev), max_num_prog_sample_field, 3);
	for (i = 0; i < 3; i++) {
		node[i] = node_get(ctx, 140 + 10 * i + 3, NULL);
		KUNIT_ASSERT_FALSE(test, IS_ERR(node[i]));
	}
	extra = node_get(ctx, 253, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(extra), -ENOSPC);
	KUNIT_EXPECT_EQ(test, ctx->fw.live, 3);
	for (i = 0; i < 3; i++)
		mlx5_flex_node_put(node[i]);
	KUNIT_EXPECT_EQ(test, ctx->fw.live, 0);
}

struct cap_case {
	const char *name;
	void (*clear)(struct mlx5_core_dev *mdev);
	const char *msg;
};

static void clear_obj_bit(struct mlx5_core_dev *mdev)
{
	MLX5_SET64(cmd_hca_cap, GEN_CAP(mdev), general_obj_types, 0);
}

static void clear_node_in_ip(struct mlx5_core_dev *mdev)
{
	MLX5_SET(parse_graph_node_cap, PG_CAP(mdev), node_in, BIT(MLX5_PARSE_GRAPH_ARC_NODE_UDP));
}

static void clear_arc_in(struct mlx5_core_dev *mdev)
{
	MLX5_SET(parse_graph_node_cap, PG_CAP(mdev), max_num_arc_in, 0);
}

static void clear_len_fixed(struct mlx5_core_dev *mdev)
{
	MLX5_SET(parse_graph_node_cap, PG_CAP(mdev), header_length_mode,
		 BIT(MLX5_PARSE_GRAPH_NODE_LEN_FIELD));
}

static void clear_base_len(struct mlx5_core_dev *mdev)
{
	MLX5_SET(parse_graph_node_cap, PG_CAP(mdev), max_base_header_length, 3);
}

static void clear_offset_fixed(struct mlx5_core_dev *mdev)
{
	MLX5_SET(parse_graph_node_cap, PG_CAP(mdev), sample_offset_mode,
		 BIT(MLX5_PARSE_GRAPH_SAMPLE_OFFSET_FIELD));
}

static void clear_num_sample(struct mlx5_core_dev *mdev)
{
	MLX5_SET(parse_graph_node_cap, PG_CAP(mdev), max_num_sample, 0);
}

static void clear_prog_sample(struct mlx5_core_dev *mdev)
{
	MLX5_SET(cmd_hca_cap_2, GEN2_CAP(mdev), max_num_prog_sample_field, 0);
}

#define NO_FLEX "Device has no programmable flex parser (firmware setting PROG_PARSE_GRAPH)"
#define NO_NODE "Flex parser cannot add a fixed-length node after the IP header"
#define NO_SAMPLE "Flex parser has no programmable sample fields"

static const struct cap_case cap_cases[] = {
	{ "no FLEX_PARSE_GRAPH object", clear_obj_bit, NO_FLEX },
	{ "IP cannot feed a node", clear_node_in_ip, NO_NODE },
	{ "no input arc", clear_arc_in, NO_NODE },
	{ "no fixed header length", clear_len_fixed, NO_NODE },
	{ "header length below 4", clear_base_len, NO_NODE },
	{ "no fixed sample offset", clear_offset_fixed, NO_SAMPLE },
	{ "no sample per node", clear_num_sample, NO_SAMPLE },
	{ "no programmable sample field", clear_prog_sample, NO_SAMPLE },
};

static void cap_case_desc(const struct cap_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(cap, cap_cases, cap_case_desc);

static void flex_node_capability_absent(struct kunit *test)
{
	const struct cap_case *c = test->param_value;
	struct l4_ctx *ctx = test->priv;
	struct mlx5_flex_node *node;
	const char *msg;

	c->clear(ctx->mdev);
	node = node_get(ctx, 146, &msg);
	KUNIT_EXPECT_EQ(test, PTR_ERR(node), -EOPNOTSUPP);
	KUNIT_EXPECT_STREQ(test, msg, c->msg);
	/* Decided from the capabilities, before any command */
	KUNIT_EXPECT_EQ(test, ctx->fw.creates + ctx->fw.queries + ctx->fw.destroys, 0);
}

static void flex_node_create_fails(struct kunit *test)
{
	struct l4_ctx *ctx = test->priv;
	struct mlx5_flex_node *node;
	const char *msg;

	ctx->fw.fail_opcode = MLX5_CMD_OP_CREATE_GENERAL_OBJECT;
	ctx->fw.fail_status = MLX5_CMD_STAT_BAD_PARAM_ERR;
	node = node_get(ctx, 146, &msg);
	KUNIT_EXPECT_EQ(test, PTR_ERR(node), -EINVAL);
	KUNIT_EXPECT_STREQ(test, msg, "Failed to create flex parser node for IP protocol 146");
	KUNIT_EXPECT_EQ(test, ctx->fw.queries + ctx->fw.destroys, 0);
	KUNIT_EXPECT_EQ(test, ctx->fw.live, 0);

	/* Nothing was left behind: the next get creates the node */
	node = node_get(ctx, 146, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(node));
	KUNIT_EXPECT_EQ(test, ctx->fw.creates, 2);
	mlx5_flex_node_put(node);
}

static void flex_node_create_limit(struct kunit *test)
{
	struct l4_ctx *ctx = test->priv;
	struct mlx5_flex_node *node;

	/* LIM_ERR is the other "out of resources" answer */
	ctx->fw.fail_opcode = MLX5_CMD_OP_CREATE_GENERAL_OBJECT;
	ctx->fw.fail_status = MLX5_CMD_STAT_LIM_ERR;
	node = node_get(ctx, 146, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(node), -ENOSPC);
	KUNIT_EXPECT_EQ(test, ctx->fw.live, 0);
}

/* A firmware that is not ready is not out of resources */
static void flex_node_create_not_ready(struct kunit *test)
{
	struct l4_ctx *ctx = test->priv;
	struct mlx5_flex_node *node;
	const char *msg;

	ctx->fw.fail_opcode = MLX5_CMD_OP_CREATE_GENERAL_OBJECT;
	ctx->fw.fail_status = MLX5_CMD_STAT_NOT_READY;
	node = node_get(ctx, 146, &msg);
	KUNIT_EXPECT_EQ(test, PTR_ERR(node), -EAGAIN);
	KUNIT_EXPECT_STREQ(test, msg, "Failed to create flex parser node for IP protocol 146");
	KUNIT_EXPECT_EQ(test, ctx->fw.live, 0);
}

static void flex_node_query_fails(struct kunit *test)
{
	struct l4_ctx *ctx = test->priv;
	struct mlx5_flex_node *node;
	const char *msg;

	ctx->fw.fail_opcode = MLX5_CMD_OP_QUERY_GENERAL_OBJECT;
	ctx->fw.fail_status = MLX5_CMD_STAT_INT_ERR;
	node = node_get(ctx, 146, &msg);
	KUNIT_EXPECT_EQ(test, PTR_ERR(node), -EIO);
	KUNIT_EXPECT_STREQ(test, msg, "Failed to query flex parser node for IP protocol 146");
	KUNIT_EXPECT_EQ(test, ctx->fw.destroys, 1);
	KUNIT_EXPECT_EQ(test, ctx->fw.live, 0);
}

static void flex_node_packed_sample_id(struct kunit *test)
{
	struct l4_ctx *ctx = test->priv;
	struct mlx5_flex_node *node;
	const char *msg;

	ctx->fw.packed_sample_ids = true;
	node = node_get(ctx, 146, &msg);
	KUNIT_EXPECT_EQ(test, PTR_ERR(node), -EOPNOTSUPP);
	KUNIT_EXPECT_STREQ(test, msg,
			   "Firmware returned flex sample id 10769, flow rules can match only 0..7");
	KUNIT_EXPECT_EQ(test, ctx->fw.destroys, 1);
	KUNIT_EXPECT_EQ(test, ctx->fw.live, 0);
}

static void flex_node_sample_id_bound(struct kunit *test)
{
	struct l4_ctx *ctx = test->priv;
	struct mlx5_flex_node *node;
	const char *msg;

	ctx->fw.force_sample_id = 8;
	node = node_get(ctx, 146, &msg);
	KUNIT_EXPECT_EQ(test, PTR_ERR(node), -EOPNOTSUPP);
	KUNIT_EXPECT_STREQ(test, msg,
			   "Firmware returned flex sample id 8, flow rules can match only 0..7");
	KUNIT_EXPECT_EQ(test, ctx->fw.live, 0);

	ctx->fw.force_sample_id = 7;
	node = node_get(ctx, 146, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(node));
	KUNIT_EXPECT_EQ(test, mlx5_flex_node_sample_id(node), 7);
	mlx5_flex_node_put(node);
}

static void flex_node_sample_disabled(struct kunit *test)
{
	struct l4_ctx *ctx = test->priv;
	struct mlx5_flex_node *node;

	ctx->fw.sample_disabled = true;
	node = node_get(ctx, 146, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(node), -EIO);
	KUNIT_EXPECT_EQ(test, ctx->fw.destroys, 1);
	KUNIT_EXPECT_EQ(test, ctx->fw.live, 0);
}

static void flex_node_destroy_fails(struct kunit *test)
{
	struct l4_ctx *ctx = test->priv;
	struct mlx5_flex_node *node;

	node = node_get(ctx, 146, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(node));
	ctx->fw.fail_opcode = MLX5_CMD_OP_DESTROY_GENERAL_OBJECT;
	ctx->fw.fail_status = MLX5_CMD_STAT_INT_ERR;
	mlx5_flex_node_put(node);
	/* The driver forgets the node; the firmware still has it */
	KUNIT_EXPECT_EQ(test, ctx->fw.destroys, 1);
	KUNIT_EXPECT_EQ(test, ctx->fw.live, 1);
	memset(ctx->fw.nodes, 0, sizeof(ctx->fw.nodes));
	ctx->fw.live = 0;
}

static void flex_node_cycles(struct kunit *test)
{
	static const u8 protos[] = { 146, 132, 253, 254 };
	struct l4_ctx *ctx = test->priv;
	struct mlx5_flex_node *node[ARRAY_SIZE(protos)];
	int cycle, i;

	for (cycle = 0; cycle < 50; cycle++) {
		for (i = 0; i < ARRAY_SIZE(protos); i++) {
			node[i] = node_get(ctx, protos[i], NULL);
			KUNIT_ASSERT_FALSE(test, IS_ERR(node[i]));
		}
		for (i = 0; i < ARRAY_SIZE(protos); i++)
			mlx5_flex_node_put(node[i]);
	}
	KUNIT_EXPECT_EQ(test, ctx->fw.creates, 200);
	KUNIT_EXPECT_EQ(test, ctx->fw.queries, 200);
	KUNIT_EXPECT_EQ(test, ctx->fw.destroys, 200);
	KUNIT_EXPECT_EQ(test, ctx->fw.live, 0);
}

static void flex_parser_destroy_with_users(struct kunit *test)
{
	struct l4_ctx *ctx = test->priv;

	KUNIT_ASSERT_FALSE(test, IS_ERR(node_get(ctx, 146, NULL)));
	KUNIT_ASSERT_FALSE(test, IS_ERR(node_get(ctx, 253, NULL)));
	mlx5_flex_parser_destroy(ctx->mdev->flex_parser);
	ctx->mdev->flex_parser = NULL;
	KUNIT_EXPECT_EQ(test, ctx->fw.destroys, 2);
	KUNIT_EXPECT_EQ(test, ctx->fw.live, 0);
}

/* The model is strict: what the PRM does not allow fails */
static void fw_model_rejects_malformed(struct kunit *test)
{
	struct l4_ctx *ctx = test->priv;
	u32 in[MLX5_ST_SZ_DW(create_flex_parse_graph_in)] = {};
	u32 out[MLX5_ST_SZ_DW(general_obj_out_cmd_hdr)] = {};
	void *flex = MLX5_ADDR_OF(create_flex_parse_graph_in, in, flex);
	void *arc = MLX5_ADDR_OF(parse_graph_flex, flex, input_arc[0]);
	void *s = MLX5_ADDR_OF(parse_graph_flex, flex, sample_table[0]);
	u32 good[MLX5_ST_SZ_DW(create_flex_parse_graph_in)];

	MLX5_SET(general_obj_in_cmd_hdr, in, opcode, MLX5_CMD_OP_CREATE_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_type, MLX5_OBJ_TYPE_FLEX_PARSE_GRAPH);
	MLX5_SET(parse_graph_flex, flex, header_length_base_value, 4);
	MLX5_SET(parse_graph_flex, flex, header_length_field_offset_mode, 1);
	MLX5_SET(parse_graph_arc, arc, arc_parse_graph_node, MLX5_PARSE_GRAPH_ARC_NODE_IP);
	MLX5_SET(parse_graph_arc, arc, compare_condition_value, 200);
	MLX5_SET(parse_graph_flow_match_sample, s, flow_match_sample_en, 1);
	memcpy(good, in, sizeof(in));

	/* Wrong arc node (MAC is allowed by node_in, but not what we model) */
	MLX5_SET(parse_graph_arc, arc, arc_parse_graph_node, MLX5_PARSE_GRAPH_ARC_NODE_MAC);
	KUNIT_EXPECT_EQ(test, mlx5_cmd_exec(ctx->mdev, in, sizeof(in), out, sizeof(out)), -EINVAL);
	/* Sample beyond the 4-byte header */
	memcpy(in, good, sizeof(in));
	MLX5_SET(parse_graph_flow_match_sample, s, flow_match_sample_field_base_offset, 4);
	KUNIT_EXPECT_EQ(test, mlx5_cmd_exec(ctx->mdev, in, sizeof(in), out, sizeof(out)), -EINVAL);
	/* A reserved field set */
	memcpy(in, good, sizeof(in));
	MLX5_SET(parse_graph_flex, flex, reserved_at_e0, 1);
	KUNIT_EXPECT_EQ(test, mlx5_cmd_exec(ctx->mdev, in, sizeof(in), out, sizeof(out)), -EINVAL);
	/* An output arc without a next header field */
	memcpy(in, good, sizeof(in));
	MLX5_SET(parse_graph_arc, MLX5_ADDR_OF(parse_graph_flex, flex, output_arc[0]),
		 arc_parse_graph_node, MLX5_PARSE_GRAPH_ARC_NODE_IPV4);
	KUNIT_EXPECT_EQ(test, mlx5_cmd_exec(ctx->mdev, in, sizeof(in), out, sizeof(out)), -EINVAL);
	/* Offset mode bit that disagrees with the capability */
	memcpy(in, good, sizeof(in));
	MLX5_SET(parse_graph_flex, flex, header_length_field_offset_mode, 0);
	KUNIT_EXPECT_EQ(test, mlx5_cmd_exec(ctx->mdev, in, sizeof(in), out, sizeof(out)), -EINVAL);
	/* Short command */
	KUNIT_EXPECT_EQ(test, mlx5_cmd_exec(ctx->mdev, good, sizeof(good) - 4, out, sizeof(out)),
			-EIO);
	KUNIT_EXPECT_EQ(test, ctx->fw.live, 0);

	/* And the well-formed node is accepted, once */
	KUNIT_EXPECT_EQ(test, mlx5_cmd_exec(ctx->mdev, good, sizeof(good), out, sizeof(out)), 0);
	KUNIT_EXPECT_EQ(test, mlx5_cmd_exec(ctx->mdev, good, sizeof(good), out, sizeof(out)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ctx->fw.live, 1);
	memset(ctx->fw.nodes, 0, sizeof(ctx->fw.nodes));
	ctx->fw.live = 0;
}

/* Offsets and sizes transcribed from the PRM (prm-facts.md, via DPDK) */
static void prm_layouts(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, MLX5_OBJ_TYPE_FLEX_PARSE_GRAPH, 0x22);
	KUNIT_EXPECT_EQ(test, MLX5_GENERAL_OBJ_TYPES_CAP_FLEX_PARSE_GRAPH, BIT_ULL(34));
	KUNIT_EXPECT_EQ(test, MLX5_CAP_PARSE_GRAPH_NODE, 0x1c);
	KUNIT_EXPECT_EQ(test, MLX5_ST_SZ_BYTES(parse_graph_flex), 416);
	KUNIT_EXPECT_EQ(test, MLX5_ST_SZ_BYTES(parse_graph_flow_match_sample), 16);
	KUNIT_EXPECT_EQ(test, MLX5_ST_SZ_BYTES(parse_graph_arc), 16);
	KUNIT_EXPECT_EQ(test, MLX5_ST_SZ_BYTES(parse_graph_node_cap), 24);
	KUNIT_EXPECT_EQ(test, MLX5_ST_SZ_BYTES(create_flex_parse_graph_in), 432);
	KUNIT_EXPECT_EQ(test, MLX5_ST_SZ_BYTES(query_flex_parse_graph_out), 432);
	KUNIT_EXPECT_EQ(test, __mlx5_bit_off(parse_graph_flex, header_length_base_value), 0x60);
	KUNIT_EXPECT_EQ(test, __mlx5_bit_off(parse_graph_flex, header_length_mode), 0x7c);
	KUNIT_EXPECT_EQ(test, __mlx5_bit_off(parse_graph_flex, next_header_field_offset), 0x90);
	KUNIT_EXPECT_EQ(test, __mlx5_bit_off(parse_graph_flex, head_anchor_id), 0xb2);
	KUNIT_EXPECT_EQ(test, __mlx5_bit_off(parse_graph_flex, header_length_field_offset_mode),
			0xb9);
	KUNIT_EXPECT_EQ(test, __mlx5_bit_off(parse_graph_flex, next_header_field_size), 0xbb);
	KUNIT_EXPECT_EQ(test, __mlx5_bit_off(parse_graph_flex, header_length_field_mask), 0xc0);
	KUNIT_EXPECT_EQ(test, __mlx5_bit_off(parse_graph_flex, sample_table), 0x100);
	KUNIT_EXPECT_EQ(test, __mlx5_bit_off(parse_graph_flex, input_arc), 0x500);
	KUNIT_EXPECT_EQ(test, __mlx5_bit_off(parse_graph_flex, output_arc), 0x900);
	KUNIT_EXPECT_EQ(test, __mlx5_bit_off(parse_graph_flow_match_sample,
					     flow_match_sample_offset_mode), 0x4);
	KUNIT_EXPECT_EQ(test, __mlx5_bit_off(parse_graph_flow_match_sample,
					     flow_match_sample_field_base_offset), 0x28);
	KUNIT_EXPECT_EQ(test, __mlx5_bit_off(parse_graph_flow_match_sample,
					     flow_match_sample_tunnel_mode), 0x3d);
	KUNIT_EXPECT_EQ(test, __mlx5_bit_off(parse_graph_flow_match_sample,
					     flow_match_sample_field_id), 0x60);
	KUNIT_EXPECT_EQ(test, __mlx5_bit_off(parse_graph_arc, arc_parse_graph_node), 0x8);
	KUNIT_EXPECT_EQ(test, __mlx5_bit_off(parse_graph_arc, compare_condition_value), 0x10);
	KUNIT_EXPECT_EQ(test, __mlx5_bit_off(parse_graph_node_cap, max_num_sample), 0x70);
	KUNIT_EXPECT_EQ(test, __mlx5_bit_off(parse_graph_node_cap,
					     header_length_field_offset_mode), 0x79);
	KUNIT_EXPECT_EQ(test, __mlx5_bit_off(parse_graph_node_cap, max_base_header_length), 0x80);
	KUNIT_EXPECT_EQ(test, __mlx5_bit_off(parse_graph_node_cap, max_sample_base_offset), 0x98);
	KUNIT_EXPECT_EQ(test, __mlx5_bit_off(parse_graph_node_cap, header_length_mask_width), 0xb8);
	KUNIT_EXPECT_EQ(test, __mlx5_bit_off(cmd_hca_cap_2, max_num_prog_sample_field), 0x83);
	KUNIT_EXPECT_EQ(test, __mlx5_bit_off(create_flex_parse_graph_in, flex), 0x80);
}

/* ---- ethtool rules ---- */

/* A rule as ethtool sends it: "l4data V m M" arrives as htonl(V) with the
 * mask ~htonl(M) (ethtool's M has 1 = ignore); no "m" is mask 0.
 */
static struct ethtool_rx_flow_spec
l4_rule(bool ip6, u32 loc, u8 proto, u8 proto_m, u32 l4data, u32 m, u64 action)
{
	struct ethtool_rx_flow_spec fs;

	memset(&fs, 0, sizeof(fs));
	fs.flow_type = ip6 ? IPV6_USER_FLOW : IP_USER_FLOW;
	fs.location = loc;
	fs.ring_cookie = action;
	if (ip6) {
		fs.h_u.usr_ip6_spec.l4_proto = proto;
		fs.m_u.usr_ip6_spec.l4_proto = proto_m;
		fs.h_u.usr_ip6_spec.l4_4_bytes = htonl(l4data);
		fs.m_u.usr_ip6_spec.l4_4_bytes = ~htonl(m);
	} else {
		fs.h_u.usr_ip4_spec.ip_ver = ETH_RX_NFC_IP4;
		fs.h_u.usr_ip4_spec.proto = proto;
		fs.m_u.usr_ip4_spec.proto = proto_m;
		fs.h_u.usr_ip4_spec.l4_4_bytes = htonl(l4data);
		fs.m_u.usr_ip4_spec.l4_4_bytes = ~htonl(m);
	}
	return fs;
}

static int l4_add(struct l4_ctx *ctx, struct ethtool_rx_flow_spec fs)
{
	return mlx5e_ethtool_flow_replace(ctx->priv, &fs, 0);
}

static struct fake_fte *only_fte(struct l4_ctx *ctx)
{
	KUNIT_ASSERT_EQ(ctx->test, ctx->steer.n_ftes, 1);
	return list_first_entry(&ctx->steer.ftes, struct fake_fte, list);
}

struct expect_match {
	u32 c[MLX5_ST_SZ_DW(fte_match_param)];
	u32 v[MLX5_ST_SZ_DW(fte_match_param)];
};

static void expect_ip(struct expect_match *e, bool ip6, u8 proto)
{
	void *hc = MLX5_ADDR_OF(fte_match_param, e->c, outer_headers);
	void *hv = MLX5_ADDR_OF(fte_match_param, e->v, outer_headers);

	memset(e, 0, sizeof(*e));
	MLX5_SET(fte_match_set_lyr_2_4, hc, ethertype, 0xffff);
	MLX5_SET(fte_match_set_lyr_2_4, hv, ethertype, ip6 ? ETH_P_IPV6 : ETH_P_IP);
	MLX5_SET(fte_match_set_lyr_2_4, hc, ip_protocol, 0xff);
	MLX5_SET(fte_match_set_lyr_2_4, hv, ip_protocol, proto);
}

static void expect_fte(struct kunit *test, struct fake_fte *fte,
		       const struct expect_match *e, u8 enable)
{
	KUNIT_EXPECT_EQ(test, fte->spec.match_criteria_enable, enable);
	KUNIT_EXPECT_MEMEQ(test, fte->spec.match_criteria, e->c, sizeof(e->c));
	KUNIT_EXPECT_MEMEQ(test, fte->spec.match_value, e->v, sizeof(e->v));
}

static void l4data_flex_match(struct kunit *test)
{
	struct l4_ctx *ctx = test->priv;
	struct expect_match e;
	void *mc, *mv;
	u8 sid;
	int ip6;

	for (ip6 = 0; ip6 < 2; ip6++) {
		/* l4proto 253 l4data 0x12345673 m 0xfffffff0 action 3 */
		KUNIT_ASSERT_EQ(test, l4_add(ctx, l4_rule(ip6, 5, 253, 0xff, 0x12345673,
							  0xfffffff0, 3)), 0);
		sid = fw_node_of_proto(&ctx->fw, 253)->sample_id;
		expect_ip(&e, ip6, 253);
		mc = MLX5_ADDR_OF(fte_match_param, e.c, misc_parameters_4);
		mv = MLX5_ADDR_OF(fte_match_param, e.v, misc_parameters_4);
		MLX5_SET(fte_match_set_misc4, mc, prog_sample_field_id_0, sid);
		MLX5_SET(fte_match_set_misc4, mv, prog_sample_field_id_0, sid);
		MLX5_SET(fte_match_set_misc4, mc, prog_sample_field_value_0, 0xf);
		MLX5_SET(fte_match_set_misc4, mv, prog_sample_field_value_0, 0x3);
		expect_fte(test, only_fte(ctx), &e,
			   MLX5_MATCH_OUTER_HEADERS | MLX5_MATCH_MISC_PARAMETERS_4);
		KUNIT_EXPECT_EQ(test, only_fte(ctx)->action, MLX5_FLOW_CONTEXT_ACTION_FWD_DEST);
		KUNIT_EXPECT_EQ(test, only_fte(ctx)->tirn, TEST_TIRN_BASE + 3);
		KUNIT_EXPECT_EQ(test, mlx5e_ethtool_flow_remove(ctx->priv, 5), 0);
		KUNIT_EXPECT_EQ(test, ctx->fw.live, 0);
	}
	KUNIT_EXPECT_EQ(test, ctx->fw.creates, 2);
}

static void l4data_ports_match(struct kunit *test)
{
	struct l4_ctx *ctx = test->priv;
	struct expect_match e;
	void *hc, *hv;
	int ip6;

	for (ip6 = 0; ip6 < 2; ip6++) {
		/* TCP, exact: sport 0x1234, dport 0x5678 */
		KUNIT_ASSERT_EQ(test, l4_add(ctx, l4_rule(ip6, 1, IPPROTO_TCP, 0xff,
							  0x12345678, 0, 1)), 0);
		expect_ip(&e, ip6, IPPROTO_TCP);
		hc = MLX5_ADDR_OF(fte_match_param, e.c, outer_headers);
		hv = MLX5_ADDR_OF(fte_match_param, e.v, outer_headers);
		MLX5_SET(fte_match_set_lyr_2_4, hc, tcp_sport, 0xffff);
		MLX5_SET(fte_match_set_lyr_2_4, hv, tcp_sport, 0x1234);
		MLX5_SET(fte_match_set_lyr_2_4, hc, tcp_dport, 0xffff);
		MLX5_SET(fte_match_set_lyr_2_4, hv, tcp_dport, 0x5678);
		expect_fte(test, only_fte(ctx), &e, MLX5_MATCH_OUTER_HEADERS);
		KUNIT_EXPECT_EQ(test, mlx5e_ethtool_flow_remove(ctx->priv, 1), 0);

		/* UDP, dport only, with value bits outside the mask */
		KUNIT_ASSERT_EQ(test, l4_add(ctx, l4_rule(ip6, 1, IPPROTO_UDP, 0xff,
							  0xabcd1389, 0xffff000f, 1)), 0);
		expect_ip(&e, ip6, IPPROTO_UDP);
		MLX5_SET(fte_match_set_lyr_2_4, hc, udp_dport, 0xfff0);
		MLX5_SET(fte_match_set_lyr_2_4, hv, udp_dport, 0x1380);
		expect_fte(test, only_fte(ctx), &e, MLX5_MATCH_OUTER_HEADERS);
		KUNIT_EXPECT_EQ(test, mlx5e_ethtool_flow_remove(ctx->priv, 1), 0);
	}
	/* The fixed parser reads ports: no node, no command */
	KUNIT_EXPECT_EQ(test, ctx->fw.creates, 0);
}

static void l4data_esp_spi(struct kunit *test)
{
	struct l4_ctx *ctx = test->priv;
	struct expect_match e;
	void *mc, *mv;

	KUNIT_ASSERT_EQ(test, l4_add(ctx, l4_rule(false, 2, IPPROTO_ESP, 0xff,
						  0xdeadbeef, 0, 4)), 0);
	expect_ip(&e, false, IPPROTO_ESP);
	mc = MLX5_ADDR_OF(fte_match_param, e.c, misc_parameters);
	mv = MLX5_ADDR_OF(fte_match_param, e.v, misc_parameters);
	MLX5_SET(fte_match_set_misc, mc, outer_esp_spi, 0xffffffff);
	MLX5_SET(fte_match_set_misc, mv, outer_esp_spi, 0xdeadbeef);
	expect_fte(test, only_fte(ctx), &e,
		   MLX5_MATCH_OUTER_HEADERS | MLX5_MATCH_MISC_PARAMETERS);
	KUNIT_EXPECT_EQ(test, mlx5e_ethtool_flow_remove(ctx->priv, 2), 0);

	/* Without SPI matching the rule is refused and leaves nothing */
	MLX5_SET(flow_table_nic_cap, FT_CAP(ctx->mdev),
		 flow_table_properties_nic_receive.ft_field_support.outer_esp_spi, 0);
	KUNIT_EXPECT_EQ(test, l4_add(ctx, l4_rule(false, 2, IPPROTO_ESP, 0xff, 1, 0, 4)),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ctx->steer.n_tables, 0);
	KUNIT_EXPECT_EQ(test, l4_num_rules(ctx), 0);
	KUNIT_EXPECT_EQ(test, ctx->fw.creates, 0);
}

struct reject_case {
	const char *name;
	u8 proto, proto_m;
	int err;
};

static const struct reject_case reject_cases[] = {
	{ "no l4proto", 0, 0, -EINVAL },
	{ "partial l4proto mask", 253, 0xf0, -EINVAL },
	{ "HOPOPTS", IPPROTO_HOPOPTS, 0xff, -EOPNOTSUPP },
	{ "ICMP", IPPROTO_ICMP, 0xff, -EOPNOTSUPP },
	{ "IPIP", IPPROTO_IPIP, 0xff, -EOPNOTSUPP },
	{ "IPv6 in IP", IPPROTO_IPV6, 0xff, -EOPNOTSUPP },
	{ "ROUTING", IPPROTO_ROUTING, 0xff, -EOPNOTSUPP },
	{ "FRAGMENT", IPPROTO_FRAGMENT, 0xff, -EOPNOTSUPP },
	{ "GRE", IPPROTO_GRE, 0xff, -EOPNOTSUPP },
	{ "AH", IPPROTO_AH, 0xff, -EOPNOTSUPP },
	{ "ICMPv6", IPPROTO_ICMPV6, 0xff, -EOPNOTSUPP },
	{ "DSTOPTS", IPPROTO_DSTOPTS, 0xff, -EOPNOTSUPP },
	{ "MH", IPPROTO_MH, 0xff, -EOPNOTSUPP },
	{ "HIP", 139, 0xff, -EOPNOTSUPP },
	{ "Shim6", 140, 0xff, -EOPNOTSUPP },
};

static void reject_case_desc(const struct reject_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(reject, reject_cases, reject_case_desc);

static void l4data_rejected(struct kunit *test)
{
	const struct reject_case *c = test->param_value;
	struct l4_ctx *ctx = test->priv;
	struct ethtool_rx_flow_spec fs;
	struct ethtool_rxnfc info;
	int ip6;

	/* An installed rule at the same location must survive the refusal */
	KUNIT_ASSERT_EQ(test, l4_add(ctx, l4_rule(false, 9, 146, 0xff, 1, 0, 2)), 0);
	for (ip6 = 0; ip6 < 2; ip6++) {
		fs = l4_rule(ip6, 9, c->proto, c->proto_m, 0x10002, 0, 1);
		KUNIT_EXPECT_EQ(test, l4_add(ctx, fs), c->err);
		KUNIT_EXPECT_EQ(test, l4_num_rules(ctx), 1);
		KUNIT_EXPECT_EQ(test, ctx->steer.n_ftes, 1);
		KUNIT_EXPECT_EQ(test, ctx->steer.n_tables, 1);
		KUNIT_EXPECT_EQ(test, ctx->fw.live, 1);
		KUNIT_EXPECT_EQ(test, ctx->fw.creates, 1);
		KUNIT_EXPECT_EQ(test, mlx5e_ethtool_get_flow(ctx->priv, &info, 9), 0);
		KUNIT_EXPECT_EQ(test, info.fs.h_u.usr_ip4_spec.proto, 146);
	}
}

static void l4data_no_capability(struct kunit *test)
{
	struct l4_ctx *ctx = test->priv;

	MLX5_SET64(cmd_hca_cap, GEN_CAP(ctx->mdev), general_obj_types, 0);
	KUNIT_EXPECT_EQ(test, l4_add(ctx, l4_rule(false, 0, 253, 0xff, 3, 0xfffffff0, 3)),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, l4_add(ctx, l4_rule(true, 0, 253, 0xff, 3, 0xfffffff0, 3)),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ctx->fw.creates + ctx->fw.queries + ctx->fw.destroys, 0);
	KUNIT_EXPECT_EQ(test, ctx->steer.n_tables, 0);
	KUNIT_EXPECT_EQ(test, l4_num_rules(ctx), 0);
	/* Rules without l4data are not affected */
	KUNIT_EXPECT_EQ(test, l4_add(ctx, l4_rule(false, 0, 253, 0xff, 0, 0xffffffff, 3)), 0);
	KUNIT_EXPECT_EQ(test, ctx->steer.n_ftes, 1);
}

static void l4data_shared_by_ip4_ip6(struct kunit *test)
{
	struct l4_ctx *ctx = test->priv;

	KUNIT_ASSERT_EQ(test, l4_add(ctx, l4_rule(false, 1, 146, 0xff, 1, 0, 1)), 0);
	KUNIT_ASSERT_EQ(test, l4_add(ctx, l4_rule(true, 2, 146, 0xff, 2, 0, 2)), 0);
	KUNIT_EXPECT_EQ(test, ctx->fw.creates, 1);
	KUNIT_EXPECT_EQ(test, ctx->fw.live, 1);
	KUNIT_EXPECT_EQ(test, mlx5e_ethtool_flow_remove(ctx->priv, 1), 0);
	KUNIT_EXPECT_EQ(test, ctx->fw.destroys, 0);
	KUNIT_EXPECT_EQ(test, mlx5e_ethtool_flow_remove(ctx->priv, 2), 0);
	KUNIT_EXPECT_EQ(test, ctx->fw.destroys, 1);
	KUNIT_EXPECT_EQ(test, ctx->fw.live, 0);
	KUNIT_EXPECT_EQ(test, ctx->steer.n_tables, 0);
}

static void l4data_replace(struct kunit *test)
{
	struct l4_ctx *ctx = test->priv;

	KUNIT_ASSERT_EQ(test, l4_add(ctx, l4_rule(false, 7, 146, 0xff, 1, 0, 1)), 0);
	/* Same protocol at the same location: the node is kept, not recreated */
	KUNIT_ASSERT_EQ(test, l4_add(ctx, l4_rule(false, 7, 146, 0xff, 2, 0, 2)), 0);
	KUNIT_EXPECT_EQ(test, ctx->fw.creates, 1);
	KUNIT_EXPECT_EQ(test, ctx->fw.destroys, 0);
	KUNIT_EXPECT_EQ(test, only_fte(ctx)->tirn, TEST_TIRN_BASE + 2);
	/* Another protocol: the old node goes once the new rule has its own */
	KUNIT_ASSERT_EQ(test, l4_add(ctx, l4_rule(false, 7, 253, 0xff, 2, 0, 2)), 0);
	KUNIT_EXPECT_EQ(test, ctx->fw.creates, 2);
	KUNIT_EXPECT_EQ(test, ctx->fw.destroys, 1);
	KUNIT_EXPECT_EQ(test, ctx->fw.live, 1);
	KUNIT_EXPECT_NOT_NULL(test, fw_node_of_proto(&ctx->fw, 253));
	KUNIT_EXPECT_EQ(test, l4_num_rules(ctx), 1);
}

static void l4data_firmware_failures(struct kunit *test)
{
	static const u16 ops[] = {
		MLX5_CMD_OP_CREATE_GENERAL_OBJECT, MLX5_CMD_OP_QUERY_GENERAL_OBJECT,
	};
	struct l4_ctx *ctx = test->priv;
	struct ethtool_rx_flow_spec fs;
	struct ethtool_rxnfc info;
	int i;

	KUNIT_ASSERT_EQ(test, l4_add(ctx, l4_rule(false, 1, 132, 0xff, 1, 0, 1)), 0);
	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		ctx->fw.fail_opcode = ops[i];
		ctx->fw.fail_status = MLX5_CMD_STAT_INT_ERR;
		/* A new location, and a replacement of the installed rule */
		KUNIT_EXPECT_EQ(test, l4_add(ctx, l4_rule(false, 2, 146, 0xff, 1, 0, 2)), -EIO);
		ctx->fw.fail_opcode = ops[i];
		KUNIT_EXPECT_EQ(test, l4_add(ctx, l4_rule(false, 1, 146, 0xff, 1, 0, 2)), -EIO);
		KUNIT_EXPECT_EQ(test, l4_num_rules(ctx), 1);
		KUNIT_EXPECT_EQ(test, ctx->steer.n_ftes, 1);
		KUNIT_EXPECT_EQ(test, ctx->steer.n_tables, 1);
		KUNIT_EXPECT_EQ(test, ctx->fw.live, 1);
		KUNIT_EXPECT_EQ(test, mlx5e_ethtool_get_flow(ctx->priv, &info, 1), 0);
		KUNIT_EXPECT_EQ(test, info.fs.h_u.usr_ip4_spec.proto, 132);
	}

	/* A rule with one more field needs a table of its own. When that table
	 * cannot be created, the node goes and so does the table's count.
	 */
	fs = l4_rule(true, 3, 253, 0xff, 1, 0, 2);
	fs.h_u.usr_ip6_spec.ip6src[0] = htonl(0x20010db8);
	fs.m_u.usr_ip6_spec.ip6src[0] = htonl(0xffffffff);
	ctx->steer.fail_table = -ENOMEM;
	KUNIT_EXPECT_EQ(test, l4_add(ctx, fs), -ENOMEM);
	KUNIT_EXPECT_EQ(test, ctx->fw.live, 1);
	KUNIT_EXPECT_EQ(test, l4_num_rules(ctx), 1);
	KUNIT_ASSERT_EQ(test, l4_add(ctx, fs), 0);
	KUNIT_EXPECT_EQ(test, ctx->steer.n_tables, 2);
	KUNIT_EXPECT_EQ(test, mlx5e_ethtool_flow_remove(ctx->priv, 3), 0);
	KUNIT_EXPECT_EQ(test, ctx->steer.n_tables, 1);

	/* The flow entry fails: the new rule's node and table go with it */
	ctx->steer.fail_add = -ENOMEM;
	KUNIT_EXPECT_EQ(test, l4_add(ctx, l4_rule(true, 3, 146, 0xff, 1, 0, 2)), -ENOMEM);
	KUNIT_EXPECT_EQ(test, l4_num_rules(ctx), 1);
	KUNIT_EXPECT_EQ(test, ctx->fw.live, 1);
	KUNIT_EXPECT_EQ(test, ctx->steer.n_tables, 1);
	KUNIT_EXPECT_EQ(test, ctx->steer.n_ftes, 1);
}

static void l4data_cycles(struct kunit *test)
{
	static const u8 protos[] = { 146, 132, 253, 254 };
	struct l4_ctx *ctx = test->priv;
	int cycle, i;

	for (cycle = 0; cycle < 50; cycle++) {
		for (i = 0; i < ARRAY_SIZE(protos); i++)
			KUNIT_ASSERT_EQ(test, l4_add(ctx, l4_rule(i & 1, i, protos[i], 0xff,
								  cycle, 0xfffffff0, i)), 0);
		KUNIT_EXPECT_EQ(test, ctx->fw.live, ARRAY_SIZE(protos));
		for (i = 0; i < ARRAY_SIZE(protos); i++)
			KUNIT_ASSERT_EQ(test, mlx5e_ethtool_flow_remove(ctx->priv, i), 0);
	}
	KUNIT_EXPECT_EQ(test, ctx->fw.creates, 200);
	KUNIT_EXPECT_EQ(test, ctx->fw.destroys, 200);
	KUNIT_EXPECT_EQ(test, ctx->fw.live, 0);
	KUNIT_EXPECT_EQ(test, ctx->steer.n_tables, 0);
	KUNIT_EXPECT_EQ(test, l4_num_rules(ctx), 0);
}

static void l4data_teardown_with_rules(struct kunit *test)
{
	struct l4_ctx *ctx = test->priv;

	KUNIT_ASSERT_EQ(test, l4_add(ctx, l4_rule(false, 1, 146, 0xff, 1, 0, 1)), 0);
	KUNIT_ASSERT_EQ(test, l4_add(ctx, l4_rule(true, 2, 146, 0xff, 2, 0, 2)), 0);
	KUNIT_ASSERT_EQ(test, l4_add(ctx, l4_rule(false, 3, 253, 0xff, 3, 0, 3)), 0);
	KUNIT_ASSERT_EQ(test, l4_add(ctx, l4_rule(false, 4, IPPROTO_UDP, 0xff, 3, 0, 3)), 0);
	mlx5e_ethtool_cleanup_steering(ctx->priv->fs);
	KUNIT_EXPECT_EQ(test, l4_num_rules(ctx), 0);
	KUNIT_EXPECT_EQ(test, ctx->steer.n_ftes, 0);
	KUNIT_EXPECT_EQ(test, ctx->steer.n_tables, 0);
	KUNIT_EXPECT_EQ(test, ctx->fw.destroys, 2);
	KUNIT_EXPECT_EQ(test, ctx->fw.live, 0);
}

static void l4data_round_trip_and_drop(struct kunit *test)
{
	struct l4_ctx *ctx = test->priv;
	struct ethtool_rx_flow_spec fs;
	struct ethtool_rxnfc info = {};
	int ip6;

	for (ip6 = 0; ip6 < 2; ip6++) {
		fs = l4_rule(ip6, 11, 146, 0xff, 0x8001c350, 0xffff0000, RX_CLS_FLOW_DISC);
		KUNIT_ASSERT_EQ(test, l4_add(ctx, fs), 0);
		KUNIT_EXPECT_EQ(test, only_fte(ctx)->action, MLX5_FLOW_CONTEXT_ACTION_DROP);
		KUNIT_ASSERT_EQ(test, mlx5e_ethtool_get_flow(ctx->priv, &info, 11), 0);
		KUNIT_EXPECT_EQ(test, info.fs.flow_type, fs.flow_type);
		KUNIT_EXPECT_EQ(test, info.fs.location, fs.location);
		KUNIT_EXPECT_EQ(test, info.fs.ring_cookie, fs.ring_cookie);
		KUNIT_EXPECT_MEMEQ(test, &info.fs.h_u, &fs.h_u, sizeof(fs.h_u));
		KUNIT_EXPECT_MEMEQ(test, &info.fs.m_u, &fs.m_u, sizeof(fs.m_u));
		KUNIT_EXPECT_MEMEQ(test, &info.fs.h_ext, &fs.h_ext, sizeof(fs.h_ext));
		KUNIT_EXPECT_MEMEQ(test, &info.fs.m_ext, &fs.m_ext, sizeof(fs.m_ext));
	}
}

/* ---- packets through the installed rules ---- */

struct pkt_fields {
	u32 m[MLX5_ST_SZ_DW(fte_match_param)];
	bool sampled;
	u8 sample_id;
	u32 sample;
};

/* What the parser extracts: fixed fields, and the flex sample where a node
 * exists for the protocol. IPv6 extension headers are not walked here.
 */
static void parse_packet(struct fw_model *fw, const u8 *p, bool ip6, struct pkt_fields *f)
{
	void *h = MLX5_ADDR_OF(fte_match_param, f->m, outer_headers);
	struct fw_node *node;
	const u8 *l4;
	u8 proto;

	memset(f, 0, sizeof(*f));
	if (ip6) {
		proto = p[6];
		l4 = p + 40;
		MLX5_SET(fte_match_set_lyr_2_4, h, ethertype, ETH_P_IPV6);
		memcpy(MLX5_ADDR_OF(fte_match_set_lyr_2_4, h, src_ipv4_src_ipv6), p + 8, 16);
		memcpy(MLX5_ADDR_OF(fte_match_set_lyr_2_4, h, dst_ipv4_dst_ipv6), p + 24, 16);
	} else {
		proto = p[9];
		l4 = p + (p[0] & 0xf) * 4;
		MLX5_SET(fte_match_set_lyr_2_4, h, ethertype, ETH_P_IP);
		memcpy(MLX5_ADDR_OF(fte_match_set_lyr_2_4, h,
				    src_ipv4_src_ipv6.ipv4_layout.ipv4), p + 12, 4);
		memcpy(MLX5_ADDR_OF(fte_match_set_lyr_2_4, h,
				    dst_ipv4_dst_ipv6.ipv4_layout.ipv4), p + 16, 4);
	}
	MLX5_SET(fte_match_set_lyr_2_4, h, ip_version, ip6 ? 6 : 4);
	MLX5_SET(fte_match_set_lyr_2_4, h, ip_protocol, proto);
	if (proto == IPPROTO_UDP) {
		MLX5_SET(fte_match_set_lyr_2_4, h, udp_sport, get_unaligned_be16(l4));
		MLX5_SET(fte_match_set_lyr_2_4, h, udp_dport, get_unaligned_be16(l4 + 2));
	}
	node = fw_node_of_proto(fw, proto);
	if (node) {
		f->sampled = true;
		f->sample_id = node->sample_id;
		f->sample = get_unaligned_be32(l4);
	}
}

static bool section_matches(const struct fake_fte *fte, const struct pkt_fields *f,
			    unsigned int off, unsigned int size)
{
	const u32 *c = fte->spec.match_criteria, *v = fte->spec.match_value;
	unsigned int i;

	for (i = off / 4; i < (off + size) / 4; i++)
		if ((f->m[i] & c[i]) != v[i])
			return false;
	return true;
}

static bool fte_matches(const struct fake_fte *fte, const struct pkt_fields *f)
{
	const void *mc = MLX5_ADDR_OF(fte_match_param, fte->spec.match_criteria,
				      misc_parameters_4);
	const void *mv = MLX5_ADDR_OF(fte_match_param, fte->spec.match_value,
				      misc_parameters_4);
	u8 enable = fte->spec.match_criteria_enable;
	u32 mask;

	if ((enable & MLX5_MATCH_OUTER_HEADERS) &&
	    !section_matches(fte, f, MLX5_BYTE_OFF(fte_match_param, outer_headers),
			     MLX5_FLD_SZ_BYTES(fte_match_param, outer_headers)))
		return false;
	if ((enable & MLX5_MATCH_MISC_PARAMETERS) &&
	    !section_matches(fte, f, MLX5_BYTE_OFF(fte_match_param, misc_parameters),
			     MLX5_FLD_SZ_BYTES(fte_match_param, misc_parameters)))
		return false;
	if (enable & MLX5_MATCH_MISC_PARAMETERS_4) {
		/* Slot 0 names a sample; the sample must exist to match */
		mask = MLX5_GET(fte_match_set_misc4, mc, prog_sample_field_value_0);
		/* Software steering builds the matcher from the id in the mask */
		if (MLX5_GET(fte_match_set_misc4, mc, prog_sample_field_id_0) !=
		    MLX5_GET(fte_match_set_misc4, mv, prog_sample_field_id_0))
			return false;
		if (!f->sampled ||
		    f->sample_id != MLX5_GET(fte_match_set_misc4, mv, prog_sample_field_id_0) ||
		    (f->sample & mask) != MLX5_GET(fte_match_set_misc4, mv,
						   prog_sample_field_value_0))
			return false;
	}
	return true;
}

/* First matching entry, tables in priority order; else RSS, which for these
 * protocols hashes the IP addresses only.
 */
static int classify(struct l4_ctx *ctx, const struct pkt_fields *f, int rss_queue)
{
	const struct fake_fte *fte, *best = NULL;

	list_for_each_entry(fte, &ctx->steer.ftes, list)
		if (fte_matches(fte, f) && (!best || fte->ft->prio < best->ft->prio))
			best = fte;
	if (!best)
		return rss_queue;
	if (best->action == MLX5_FLOW_CONTEXT_ACTION_DROP)
		return -1;
	return best->tirn - TEST_TIRN_BASE;
}

static void build_packet(u8 *p, bool ip6, u8 proto, u16 sport, u16 dport)
{
	u8 *l4;

	memset(p, 0, 96);
	if (ip6) {
		p[0] = 0x60;
		put_unaligned_be16(28 + 8, p + 4);
		p[6] = proto;
		p[7] = 64;
		p[8] = 0x20; p[9] = 0x01; p[10] = 0x0d; p[11] = 0xb8; p[23] = 1;
		p[24] = 0x20; p[25] = 0x01; p[26] = 0x0d; p[27] = 0xb8; p[39] = 2;
		l4 = p + 40;
	} else {
		p[0] = 0x45;
		put_unaligned_be16(20 + 28 + 8, p + 2);
		p[8] = 64;
		p[9] = proto;
		p[12] = 192; p[13] = 0; p[14] = 2; p[15] = 1;
		p[16] = 192; p[17] = 0; p[18] = 2; p[19] = 2;
		l4 = p + 20;
	}
	/* A Homa-like header: ports first, then a sequence number */
	put_unaligned_be16(sport, l4);
	put_unaligned_be16(dport, l4 + 2);
	put_unaligned_be32(0x10203040, l4 + 4);
}

static void spread(struct l4_ctx *ctx, bool ip6, u8 proto, unsigned int per_port,
		   unsigned int *count)
{
	unsigned int i, port;
	struct pkt_fields f;
	u8 p[96];
	int q;

	memset(count, 0, TEST_NUM_CHANNELS * sizeof(*count));
	for (port = 0; port < 16; port++) {
		for (i = 0; i < per_port; i++) {
			build_packet(p, ip6, proto, 0x8000 + i % 1000, 0x4000 + port);
			parse_packet(&ctx->fw, p, ip6, &f);
			q = classify(ctx, &f, 5);
			KUNIT_ASSERT_GE(ctx->test, q, 0);
			count[q]++;
		}
	}
}

static void l4data_spreads_packets(struct kunit *test)
{
	struct l4_ctx *ctx = test->priv;
	unsigned int count[TEST_NUM_CHANNELS];
	int k;

	/* Without rules, one host pair lands on one queue */
	spread(ctx, false, 253, 10000, count);
	KUNIT_EXPECT_EQ(test, count[5], 160000U);

	/* ethtool -N DEV flow-type ip4 l4proto 253 l4data k m 0xfffffff0 action k */
	for (k = 0; k < 16; k++)
		KUNIT_ASSERT_EQ(test, l4_add(ctx, l4_rule(false, k, 253, 0xff, k,
							  0xfffffff0, k)), 0);
	KUNIT_EXPECT_EQ(test, ctx->fw.live, 1);
	spread(ctx, false, 253, 10000, count);
	for (k = 0; k < 16; k++)
		KUNIT_EXPECT_EQ_MSG(test, count[k], 10000U, "queue %d", k);

	/* Same bytes, other protocol: no sample, so the rules do not match */
	spread(ctx, false, 146, 1000, count);
	KUNIT_EXPECT_EQ(test, count[5], 16000U);
	/* IPv4 rules do not match IPv6 packets */
	spread(ctx, true, 253, 1000, count);
	KUNIT_EXPECT_EQ(test, count[5], 16000U);

	/* The same for IPv6 and Homa, sharing nothing with the 253 node */
	for (k = 0; k < 16; k++)
		KUNIT_ASSERT_EQ(test, l4_add(ctx, l4_rule(true, 16 + k, 146, 0xff, k,
							  0xfffffff0, k)), 0);
	KUNIT_EXPECT_EQ(test, ctx->fw.live, 2);
	spread(ctx, true, 146, 1000, count);
	for (k = 0; k < 16; k++)
		KUNIT_EXPECT_EQ_MSG(test, count[k], 1000U, "queue %d", k);
	spread(ctx, false, 253, 1000, count);
	for (k = 0; k < 16; k++)
		KUNIT_EXPECT_EQ_MSG(test, count[k], 1000U, "queue %d", k);
}

static void l4data_exact_port_pair(struct kunit *test)
{
	struct l4_ctx *ctx = test->priv;
	struct pkt_fields f;
	u8 p[96];
	int ip6;

	for (ip6 = 0; ip6 < 2; ip6++) {
		/* l4proto 146 l4data 0x8001c350 (sport 32769, dport 50000) action 7 */
		KUNIT_ASSERT_EQ(test, l4_add(ctx, l4_rule(ip6, 1, 146, 0xff, 0x8001c350, 0, 7)),
				0);
		build_packet(p, ip6, 146, 0x8001, 50000);
		parse_packet(&ctx->fw, p, ip6, &f);
		KUNIT_EXPECT_EQ(test, classify(ctx, &f, 5), 7);
		build_packet(p, ip6, 146, 0x8002, 50000);
		parse_packet(&ctx->fw, p, ip6, &f);
		KUNIT_EXPECT_EQ(test, classify(ctx, &f, 5), 5);
		/* UDP through native ports: same bytes, same answer */
		KUNIT_ASSERT_EQ(test, l4_add(ctx, l4_rule(ip6, 2, IPPROTO_UDP, 0xff,
							  0x8001c350, 0, 8)), 0);
		build_packet(p, ip6, IPPROTO_UDP, 0x8001, 50000);
		parse_packet(&ctx->fw, p, ip6, &f);
		KUNIT_EXPECT_EQ(test, classify(ctx, &f, 5), 8);
		mlx5e_ethtool_cleanup_steering(ctx->priv->fs);
	}
}

static struct kunit_case l4_test_cases[] = {
	KUNIT_CASE(prm_layouts),
	KUNIT_CASE(fw_model_rejects_malformed),
	KUNIT_CASE(flex_node_create_query_destroy),
	KUNIT_CASE(flex_node_offset_mode_cap),
	KUNIT_CASE(flex_node_parsed_protocols),
	KUNIT_CASE(flex_node_refcount),
	KUNIT_CASE(flex_node_several_protocols),
	KUNIT_CASE(flex_node_out_of_parsers),
	KUNIT_CASE(flex_node_out_of_samples),
	KUNIT_CASE_PARAM(flex_node_capability_absent, cap_gen_params),
	KUNIT_CASE(flex_node_create_fails),
	KUNIT_CASE(flex_node_create_limit),
	KUNIT_CASE(flex_node_create_not_ready),
	KUNIT_CASE(flex_node_query_fails),
	KUNIT_CASE(flex_node_packed_sample_id),
	KUNIT_CASE(flex_node_sample_id_bound),
	KUNIT_CASE(flex_node_sample_disabled),
	KUNIT_CASE(flex_node_destroy_fails),
	KUNIT_CASE(flex_node_cycles),
	KUNIT_CASE(flex_parser_destroy_with_users),
	KUNIT_CASE(l4data_flex_match),
	KUNIT_CASE(l4data_ports_match),
	KUNIT_CASE(l4data_esp_spi),
	KUNIT_CASE_PARAM(l4data_rejected, reject_gen_params),
	KUNIT_CASE(l4data_no_capability),
	KUNIT_CASE(l4data_shared_by_ip4_ip6),
	KUNIT_CASE(l4data_replace),
	KUNIT_CASE(l4data_firmware_failures),
	KUNIT_CASE(l4data_cycles),
	KUNIT_CASE(l4data_teardown_with_rules),
	KUNIT_CASE(l4data_round_trip_and_drop),
	KUNIT_CASE(l4data_spreads_packets),
	KUNIT_CASE(l4data_exact_port_pair),
	{}
};

static struct kunit_suite l4_test_suite = {
	.name = "mlx5e_ethtool_l4data",
	.init = l4_test_init,
	.exit = l4_test_exit,
	.test_cases = l4_test_cases,
};

kunit_test_suite(l4_test_suite);
