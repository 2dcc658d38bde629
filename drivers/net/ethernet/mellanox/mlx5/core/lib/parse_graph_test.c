// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB

/* KUnit tests of the parse graph node manager (parse_graph.c).
 *
 * The firmware is a model behind mlx5_pg_cmd(), through which the node
 * manager sends every command. It serves two functions of one device and an
 * outside owner (a DPDK application, say) of a node, and answers as one of
 * three hypotheses on the scope of the parse graph, none of which is
 * documented: a graph per function; one per device that refuses a second
 * node on an arc; one per device that shares the node between handles.
 * Object ids are numbered per function, so the two functions get the same
 * ids. A firmware reset forgets every object, and a command on an object id
 * from before it fails the test. The functions' capability pages are those
 * probe allocates. The ethtool rules that use the nodes are tested in
 * en_fs_ethtool_test.c, on the same model.
 */

#include <kunit/device.h>
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/mlx5/driver.h>
#include <net/devlink.h>
#include "mlx5_core.h"
#include "lib/parse_graph.h"
#include "lib/parse_graph_test.h"

/* ---- firmware model ---- */

static int fw_graph(struct fw_model *fw, int fn)
{
	return fw->scope == FW_PER_FUNCTION ? fn % FW_OUTSIDE : 0;
}

static struct fw_node *fw_node_on_arc(struct fw_model *fw, int graph, u8 proto)
{
	int i;

	for (i = 0; i < FW_MAX_NODES; i++)
		if (fw->nodes[i].handles && fw->nodes[i].graph == graph &&
		    fw->nodes[i].proto == proto)
			return &fw->nodes[i];
	return NULL;
}

static struct fw_handle *fw_new_handle(struct fw_model *fw, int fn,
				       struct fw_node *node)
{
	struct fw_handle *h = fw->handles;

	while (h->live)
		h++;
	h->live = true;
	h->fn = fn;
	h->obj_id = fw->next_obj_id[fn]++;
	h->node = node;
	node->handles++;
	return h;
}

/* A node on the graph of function @fn, with a handle for @owner */
static u8 fw_create_node(struct fw_model *fw, int fn, int owner, u8 proto,
			 u32 *obj_id)
{
	int graph = fw_graph(fw, fn);
	struct fw_node *node = fw_node_on_arc(fw, graph, proto);
	unsigned int id, i;

	if (node && fw->scope != FW_SHARE)
		return fw->second_status;
	if (!node) {
		if (fw_live_nodes(fw) >= fw->node_budget)
			return MLX5_CMD_STAT_NO_RES_ERR;
		/* The lowest sample id that no node of the graph uses */
		for (id = 0; id < fw->pool; id++) {
			for (i = 0; i < FW_MAX_NODES; i++)
				if (fw->nodes[i].handles &&
				    fw->nodes[i].graph == graph &&
				    fw->nodes[i].sample_id == id)
					break;
			if (i == FW_MAX_NODES)
				break;
		}
		if (id == fw->pool)
			return MLX5_CMD_STAT_NO_RES_ERR;
		for (node = fw->nodes; node->handles; node++)
			;
		node->graph = graph;
		node->proto = proto;
		node->sample_id = id;
	}
	*obj_id = fw_new_handle(fw, owner, node)->obj_id;
	return MLX5_CMD_STAT_OK;
}

static struct fw_handle *fw_handle(struct fw_model *fw, int fn, u32 obj_id)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(fw->handles); i++) {
		struct fw_handle *h = &fw->handles[i];

		if (h->live && h->fn == fn && h->obj_id == obj_id)
			return h;
	}
	return NULL;
}

static void fw_drop_handle(struct fw_handle *h)
{
	h->live = false;
	h->node->handles--;
}

static u8 fw_exec(struct pg_ctx *ctx, int fn, void *in, void *out)
{
	struct fw_model *fw = &ctx->fw;
	u16 opcode = MLX5_GET(general_obj_in_cmd_hdr, in, opcode);
	u32 obj_id = MLX5_GET(general_obj_in_cmd_hdr, in, obj_id);
	void *flex, *arc, *sample;
	struct fw_handle *h;
	u8 status;

	KUNIT_EXPECT_EQ(ctx->test,
			MLX5_GET(general_obj_in_cmd_hdr, in, obj_type),
			MLX5_OBJ_TYPE_FLEX_PARSE_GRAPH);
	if (opcode == fw->fail_opcode) {
		fw->fail_opcode = 0;
		return fw->fail_status;
	}

	if (opcode == MLX5_CMD_OP_CREATE_GENERAL_OBJECT) {
		memcpy(fw->last_create, in, sizeof(fw->last_create));
		flex = MLX5_ADDR_OF(create_flex_parse_graph_in, in, flex);
		arc = MLX5_ADDR_OF(parse_graph_flex, flex, input_arc[0]);
		status = fw_create_node(fw, fn, fn,
					MLX5_GET(parse_graph_arc, arc,
						 compare_condition_value),
					&obj_id);
		if (!status)
			MLX5_SET(general_obj_out_cmd_hdr, out, obj_id, obj_id);
		return status;
	}

	KUNIT_EXPECT_EQ_MSG(ctx->test, (obj_id - FW_OBJ_ID_BASE) / 0x1000,
			    fw->epoch,
			    "command on object 0x%x of before a firmware reset",
			    obj_id);
	h = fw_handle(fw, fn, obj_id);
	if (!h)
		return MLX5_CMD_STAT_BAD_RES_ERR;

	if (opcode == MLX5_CMD_OP_DESTROY_GENERAL_OBJECT) {
		fw_drop_handle(h);
		return MLX5_CMD_STAT_OK;
	}

	/* QUERY: the node as created, with the sample id filled in */
	flex = MLX5_ADDR_OF(query_flex_parse_graph_out, out, flex);
	sample = MLX5_ADDR_OF(parse_graph_flex, flex, sample_table[0]);
	MLX5_SET(parse_graph_arc,
		 MLX5_ADDR_OF(parse_graph_flex, flex, input_arc[0]),
		 compare_condition_value, h->node->proto);
	MLX5_SET(parse_graph_flow_match_sample, sample, flow_match_sample_en,
		 !fw->query_sample_disabled);
	MLX5_SET(parse_graph_flow_match_sample, sample,
		 flow_match_sample_field_id,
		 fw->query_sample_id ?: h->node->sample_id);
	return MLX5_CMD_STAT_OK;
}

static int fw_cmd(struct mlx5_core_dev *mdev, void *in, int in_size, void *out,
		  int out_size)
{
	struct pg_ctx *ctx = kunit_get_current_test()->priv;
	struct fw_model *fw = &ctx->fw;
	int fn = mdev == ctx->mdev[1];
	u8 status;

	KUNIT_ASSERT_TRUE(ctx->test,
			  mdev == ctx->mdev[0] || mdev == ctx->mdev[1]);
	if (fw->n_log < FW_LOG_LEN)
		fw->log[fw->n_log] = (struct fw_cmd) {
			.fn = fn,
			.opcode = MLX5_GET(general_obj_in_cmd_hdr, in, opcode),
			.obj_id = MLX5_GET(general_obj_in_cmd_hdr, in, obj_id),
			.seq = ctx->seq,
		};
	ctx->seq++;
	fw->n_log++;
	/* What the command interface returns for a device in internal error;
	 * the output is not the firmware's, whatever it holds
	 */
	if (fw->down) {
		MLX5_SET(general_obj_out_cmd_hdr, out, status,
			 MLX5_CMD_STAT_NO_RES_ERR);
		return -ENXIO;
	}

	memset(out, 0, out_size);
	status = fw_exec(ctx, fn, in, out);
	if (status) {
		MLX5_SET(general_obj_out_cmd_hdr, out, status, status);
		MLX5_SET(general_obj_out_cmd_hdr, out, syndrome, 0x7e57);
		return -EREMOTEIO;
	}
	return 0;
}

/* A node that an outside owner created on @fn's parse graph */
static void fw_outside_node(struct fw_model *fw, int fn, u8 proto)
{
	u32 obj_id;

	fw_create_node(fw, fn, FW_OUTSIDE, proto, &obj_id);
}

/* Firmware reset: every object is gone, and ids start again */
static void fw_reset(struct fw_model *fw)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fw->handles); i++)
		if (fw->handles[i].live)
			fw_drop_handle(&fw->handles[i]);
	fw->epoch++;
	for (i = 0; i <= FW_OUTSIDE; i++)
		fw->next_obj_id[i] = FW_OBJ_ID_BASE + 0x1000 * fw->epoch;
	fw->down = false;
}

void mlx5_pgt_expect_log(struct kunit *test, struct fw_model *fw,
			 const struct fw_cmd *cmds, unsigned int n)
{
	unsigned int i;

	KUNIT_ASSERT_EQ(test, fw->n_log, n);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ_MSG(test, fw->log[i].fn, cmds[i].fn,
				    "command %u", i);
		KUNIT_EXPECT_EQ_MSG(test, fw->log[i].opcode, cmds[i].opcode,
				    "command %u", i);
		KUNIT_EXPECT_EQ_MSG(test, fw->log[i].obj_id, cmds[i].obj_id,
				    "command %u", i);
	}
	fw->n_log = 0;
}

/* ---- devices ---- */

static const struct devlink_ops pgt_devlink_ops = {};

/* What a BlueField-3 with the programmable parse graph enabled reports */
static void pg_set_caps(struct mlx5_core_dev *mdev)
{
	MLX5_SET(cmd_hca_cap, GEN_CAP(mdev), port_type, MLX5_CAP_PORT_TYPE_ETH);
	MLX5_SET64(cmd_hca_cap, GEN_CAP(mdev), general_obj_types,
		   MLX5_GENERAL_OBJ_TYPES_CAP_FLEX_PARSE_GRAPH);
	MLX5_SET(cmd_hca_cap_2, GEN2_CAP(mdev), max_num_prog_sample_field, 8);
	/* MAC, IP, UDP */
	MLX5_SET(parse_graph_node_cap, PG_CAP(mdev), node_in, 0x2c);
	MLX5_SET(parse_graph_node_cap, PG_CAP(mdev), header_length_mode, 0x3);
	MLX5_SET(parse_graph_node_cap, PG_CAP(mdev), sample_offset_mode, 0x1);
	MLX5_SET(parse_graph_node_cap, PG_CAP(mdev), max_num_arc_in, 8);
	MLX5_SET(parse_graph_node_cap, PG_CAP(mdev), max_num_sample, 8);
	MLX5_SET(parse_graph_node_cap, PG_CAP(mdev),
		 header_length_field_offset_mode, 1);
	MLX5_SET(parse_graph_node_cap, PG_CAP(mdev), max_base_header_length,
		 0xff);
}

int mlx5_pgt_init(struct kunit *test)
{
	static const char * const names[] = { "pg-test-fn0", "pg-test-fn1" };
	struct pg_ctx *ctx;
	int fn, i;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->test = test;
	test->priv = ctx;
	ctx->fw.scope = FW_PER_FUNCTION;
	ctx->fw.second_status = MLX5_CMD_STAT_BAD_PARAM_ERR;
	ctx->fw.node_budget = 8;
	ctx->fw.pool = 8;
	for (i = 0; i <= FW_OUTSIDE; i++)
		ctx->fw.next_obj_id[i] = FW_OBJ_ID_BASE;

	for (fn = 0; fn < 2; fn++) {
		struct mlx5_core_dev *mdev;
		struct devlink *devlink;
		struct device *dev;

		dev = kunit_device_register(test, names[fn]);
		KUNIT_ASSERT_FALSE(test, IS_ERR(dev));
		/* A function is the private data of its devlink instance */
		devlink = devlink_alloc(&pgt_devlink_ops, sizeof(*mdev), dev);
		KUNIT_ASSERT_NOT_NULL(test, devlink);
		mdev = devlink_priv(devlink);
		mdev->device = dev;
		mdev->priv.dbg.dbg_root = debugfs_create_dir(names[fn],
							     mlx5_debugfs_root);
		ctx->mdev[fn] = mdev;
		/* The pages probe allocates (main.c's list) and fw.c fills */
		KUNIT_ASSERT_EQ(test, mlx5_hca_caps_alloc(mdev), 0);
		KUNIT_ASSERT_NOT_NULL_MSG(test, PG_CAP_PAGE(mdev),
					  "probe allocates no parse graph node capability page");
		pg_set_caps(mdev);
		mdev->parse_graph = mlx5_parse_graph_create(mdev);
		KUNIT_ASSERT_NOT_NULL(test, mdev->parse_graph);
		KUNIT_ASSERT_FALSE(test, IS_ERR(mdev->parse_graph));
	}
	kunit_activate_static_stub(test, mlx5_pg_cmd, fw_cmd);

	return 0;
}

/* Whatever a test leaves, the driver holds no object in the end. A test
 * that stopped at a failed assertion may leave nodes: the functions' state
 * goes with the test, so they cannot reach the next one.
 */
void mlx5_pgt_exit(struct kunit *test)
{
	struct pg_ctx *ctx = test->priv;
	unsigned int i;
	int fn;

	while (ctx->n_held)
		mlx5_parse_graph_node_put(ctx->held[--ctx->n_held]);
	for (i = 0; i < ARRAY_SIZE(ctx->fw.handles); i++)
		if (ctx->fw.handles[i].live && !ctx->fw.down)
			KUNIT_EXPECT_EQ_MSG(test, ctx->fw.handles[i].fn,
					    FW_OUTSIDE, "object 0x%x left",
					    ctx->fw.handles[i].obj_id);
	for (fn = 0; fn < 2 && ctx->mdev[fn]; fn++) {
		mlx5_parse_graph_destroy(ctx->mdev[fn]->parse_graph);
		debugfs_remove(ctx->mdev[fn]->priv.dbg.dbg_root);
		mlx5_hca_caps_free(ctx->mdev[fn]);
		devlink_free(priv_to_devlink(ctx->mdev[fn]));
	}
}

static int get_err(struct pg_ctx *ctx, int fn, u8 proto)
{
	struct mlx5_parse_graph_node *node =
		mlx5_parse_graph_node_get(ctx->mdev[fn]->parse_graph, proto);

	if (!IS_ERR(node))
		mlx5_parse_graph_node_put(node);
	return PTR_ERR_OR_ZERO(node);
}

/* ---- the node manager ---- */

/* The exact node: IP arc on the protocol, fixed 4 bytes, dword 0 sampled */
static void node_create_query_destroy(struct kunit *test)
{
	struct pg_ctx *ctx = test->priv;
	u32 want[MLX5_ST_SZ_DW(create_flex_parse_graph_in)];
	struct mlx5_parse_graph_node *node;
	void *flex, *sample, *arc;
	int mode;

	for (mode = 0; mode < 2; mode++) {
		MLX5_SET(parse_graph_node_cap, PG_CAP(ctx->mdev[0]),
			 header_length_field_offset_mode, mode);
		node = get_ok(ctx, 0, 146);
		EXPECT_LOG(test, &ctx->fw, CREATE(0),
			   QUERY(0, FW_OBJ_ID_BASE + mode));
		KUNIT_EXPECT_EQ(test, mlx5_parse_graph_node_sample_id(node), 0);

		memset(want, 0, sizeof(want));
		MLX5_SET(general_obj_in_cmd_hdr, want, opcode, 0xa00);
		MLX5_SET(general_obj_in_cmd_hdr, want, obj_type, 0x22);
		flex = MLX5_ADDR_OF(create_flex_parse_graph_in, want, flex);
		/* fixed */
		MLX5_SET(parse_graph_flex, flex, header_length_mode, 0);
		MLX5_SET(parse_graph_flex, flex, header_length_base_value, 4);
		MLX5_SET(parse_graph_flex, flex,
			 header_length_field_offset_mode, mode);
		sample = MLX5_ADDR_OF(parse_graph_flex, flex, sample_table[0]);
		MLX5_SET(parse_graph_flow_match_sample, sample,
			 flow_match_sample_en, 1);
		MLX5_SET(parse_graph_flow_match_sample, sample,
			 flow_match_sample_tunnel_mode, 2); /* first */
		arc = MLX5_ADDR_OF(parse_graph_flex, flex, input_arc[0]);
		/* IP */
		MLX5_SET(parse_graph_arc, arc, arc_parse_graph_node, 3);
		MLX5_SET(parse_graph_arc, arc, compare_condition_value, 146);
		KUNIT_EXPECT_MEMEQ(test, ctx->fw.last_create, want,
				   sizeof(want));

		mlx5_parse_graph_node_put(node);
		EXPECT_LOG(test, &ctx->fw, DESTROY(0, FW_OBJ_ID_BASE + mode));
		KUNIT_EXPECT_EQ(test, fw_live_nodes(&ctx->fw), 0);
	}
}

/* ip4 and ip6 rules, replacement (new reference before the old is put) */
static void node_refcount(struct kunit *test)
{
	struct pg_ctx *ctx = test->priv;
	struct mlx5_parse_graph_node *a, *b, *c;

	a = get_ok(ctx, 0, 146);
	b = get_ok(ctx, 0, 146);
	c = get_ok(ctx, 0, 253);
	KUNIT_EXPECT_PTR_EQ(test, a, b);
	KUNIT_EXPECT_PTR_NE(test, a, c);
	KUNIT_EXPECT_EQ(test, mlx5_parse_graph_node_sample_id(c), 1);
	EXPECT_LOG(test, &ctx->fw, CREATE(0), QUERY(0, 0x100), CREATE(0),
		   QUERY(0, 0x101));

	mlx5_parse_graph_node_put(a);
	b = get_ok(ctx, 0, 146);
	mlx5_parse_graph_node_put(a);
	EXPECT_NO_COMMAND(test, &ctx->fw);
	mlx5_parse_graph_node_put(b);
	mlx5_parse_graph_node_put(c);
	EXPECT_LOG(test, &ctx->fw, DESTROY(0, 0x100), DESTROY(0, 0x101));
	mlx5_parse_graph_node_put(NULL);
	EXPECT_NO_COMMAND(test, &ctx->fw);
}

static const u8 fixed_protos[] = {
	0, IPPROTO_ICMP, IPPROTO_IPIP, IPPROTO_TCP, IPPROTO_UDP, IPPROTO_IPV6,
	43, 44, IPPROTO_GRE, IPPROTO_ESP, IPPROTO_AH, 58, 60, 135, 139, 140,
};

static void node_fixed_parser_protocols(struct kunit *test)
{
	struct pg_ctx *ctx = test->priv;
	int i, p, n = 0;

	for (i = 0; i < ARRAY_SIZE(fixed_protos); i++)
		KUNIT_EXPECT_EQ_MSG(test, get_err(ctx, 0, fixed_protos[i]),
				    -EOPNOTSUPP, "IP protocol %u",
				    fixed_protos[i]);
	EXPECT_NO_COMMAND(test, &ctx->fw);
	/* Every other protocol gets a node */
	ctx->fw.node_budget = 256;
	ctx->fw.pool = 1;
	for (p = 0; p < 256; p++) {
		for (i = 0;
		     i < ARRAY_SIZE(fixed_protos) && fixed_protos[i] != p; i++)
			;
		if (i < ARRAY_SIZE(fixed_protos))
			continue;
		KUNIT_EXPECT_EQ_MSG(test, get_err(ctx, 0, p), 0,
				    "IP protocol %u", p);
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, 256 - ARRAY_SIZE(fixed_protos));
}

#define PG_CAP_SETTER(fld)						\
static void set_##fld(struct mlx5_core_dev *mdev, u64 v)		\
{									\
	MLX5_SET(parse_graph_node_cap, PG_CAP(mdev), fld, v);		\
}

PG_CAP_SETTER(node_in)
PG_CAP_SETTER(header_length_mode)
PG_CAP_SETTER(sample_offset_mode)
PG_CAP_SETTER(max_num_arc_in)
PG_CAP_SETTER(max_num_sample)
PG_CAP_SETTER(max_base_header_length)

static void set_prog_sample_fields(struct mlx5_core_dev *mdev, u64 v)
{
	MLX5_SET(cmd_hca_cap_2, GEN2_CAP(mdev), max_num_prog_sample_field, v);
}

static void set_general_obj_types(struct mlx5_core_dev *mdev, u64 v)
{
	MLX5_SET64(cmd_hca_cap, GEN_CAP(mdev), general_obj_types, v);
}

/* Each capability the feature needs, at the least value that offers it
 * and at the value just short of it
 */
struct cap_case {
	const char *name;
	void (*set)(struct mlx5_core_dev *mdev, u64 v);
	u64 least, short_of;
};

static const struct cap_case cap_cases[] = {
	{ "object", set_general_obj_types,
	  MLX5_GENERAL_OBJ_TYPES_CAP_FLEX_PARSE_GRAPH,
	  ~MLX5_GENERAL_OBJ_TYPES_CAP_FLEX_PARSE_GRAPH },
	{ "input arc from IP", set_node_in, BIT(MLX5_PARSE_GRAPH_ARC_NODE_IP),
	  0xff & ~BIT(MLX5_PARSE_GRAPH_ARC_NODE_IP) },
	{ "fixed length", set_header_length_mode,
	  BIT(MLX5_PARSE_GRAPH_NODE_LEN_FIXED),
	  0xf & ~BIT(MLX5_PARSE_GRAPH_NODE_LEN_FIXED) },
	{ "fixed sample offset", set_sample_offset_mode,
	  BIT(MLX5_PARSE_GRAPH_SAMPLE_OFFSET_FIXED),
	  0x7 & ~BIT(MLX5_PARSE_GRAPH_SAMPLE_OFFSET_FIXED) },
	{ "input arcs", set_max_num_arc_in, 1, 0 },
	{ "samples per node", set_max_num_sample, 1, 0 },
	{ "header length", set_max_base_header_length, 4, 3 },
	{ "programmable sample fields", set_prog_sample_fields, 1, 0 },
};

static void cap_case_desc(const struct cap_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(cap, cap_cases, cap_case_desc);

/* Offered at the least value: a node. Short of it: refused before any
 * command.
 */
static void node_capability_boundary(struct kunit *test)
{
	const struct cap_case *c = test->param_value;
	struct pg_ctx *ctx = test->priv;

	c->set(ctx->mdev[0], c->least);
	KUNIT_EXPECT_EQ(test, get_err(ctx, 0, 253), 0);
	EXPECT_LOG(test, &ctx->fw, CREATE(0), QUERY(0, 0x100),
		   DESTROY(0, 0x100));
	c->set(ctx->mdev[0], c->short_of);
	KUNIT_EXPECT_EQ(test, get_err(ctx, 0, 253), -EOPNOTSUPP);
	EXPECT_NO_COMMAND(test, &ctx->fw);
}

/* A failed read of the node capability page at probe leaves it zeroed */
static void node_capability_page_zero(struct kunit *test)
{
	struct pg_ctx *ctx = test->priv;

	memset(PG_CAP(ctx->mdev[0]), 0, sizeof(ctx->mdev[0]->caps.hca[0]->cur));
	KUNIT_EXPECT_EQ(test, get_err(ctx, 0, 253), -EOPNOTSUPP);
	EXPECT_NO_COMMAND(test, &ctx->fw);
}

struct fail_case {
	const char *name;
	u16 opcode;
	u8 status;
	int err;
};

static const struct fail_case create_fail_cases[] = {
	{ "no resources", MLX5_CMD_OP_CREATE_GENERAL_OBJECT,
	  MLX5_CMD_STAT_NO_RES_ERR, -ENOSPC },
	{ "limit", MLX5_CMD_OP_CREATE_GENERAL_OBJECT, MLX5_CMD_STAT_LIM_ERR,
	  -ENOSPC },
	{ "not ready", MLX5_CMD_OP_CREATE_GENERAL_OBJECT,
	  MLX5_CMD_STAT_NOT_READY, -EAGAIN },
	{ "bad parameter", MLX5_CMD_OP_CREATE_GENERAL_OBJECT,
	  MLX5_CMD_STAT_BAD_PARAM_ERR, -EINVAL },
	{ "internal error", MLX5_CMD_OP_CREATE_GENERAL_OBJECT,
	  MLX5_CMD_STAT_INT_ERR, -EIO },
	{ "query fails", MLX5_CMD_OP_QUERY_GENERAL_OBJECT,
	  MLX5_CMD_STAT_INT_ERR, -EIO },
};

static void fail_case_desc(const struct fail_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(create_fail, create_fail_cases, fail_case_desc);

/* A failure leaves no node, in the driver or in firmware */
static void node_firmware_failure(struct kunit *test)
{
	const struct fail_case *c = test->param_value;
	struct pg_ctx *ctx = test->priv;

	ctx->fw.fail_opcode = c->opcode;
	ctx->fw.fail_status = c->status;
	KUNIT_EXPECT_EQ(test, get_err(ctx, 0, 253), c->err);
	if (c->opcode == MLX5_CMD_OP_CREATE_GENERAL_OBJECT)
		EXPECT_LOG(test, &ctx->fw, CREATE(0));
	else
		EXPECT_LOG(test, &ctx->fw, CREATE(0), QUERY(0, 0x100),
			   DESTROY(0, 0x100));
	KUNIT_EXPECT_EQ(test, fw_live_nodes(&ctx->fw), 0);
	/* and the next rule starts afresh */
	KUNIT_EXPECT_EQ(test, get_err(ctx, 0, 253), 0);
	KUNIT_EXPECT_EQ(test, fw_live_nodes(&ctx->fw), 0);
}

/* A sample the flow rules cannot match: disabled, or an id past 7 (the
 * packed id of pre-GA firmware, {sample_id:12, modify_field_id:12, dw:8})
 */
static void node_unusable_sample(struct kunit *test)
{
	static const u32 ids[] = { 8, 1 << 20 | 0x2a << 8 | 0x11 };
	struct pg_ctx *ctx = test->priv;
	int i;

	ctx->fw.query_sample_disabled = true;
	KUNIT_EXPECT_EQ(test, get_err(ctx, 0, 253), -EPROTO);
	EXPECT_LOG(test, &ctx->fw, CREATE(0), QUERY(0, 0x100),
		   DESTROY(0, 0x100));
	ctx->fw.query_sample_disabled = false;
	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		ctx->fw.query_sample_id = ids[i];
		KUNIT_EXPECT_EQ(test, get_err(ctx, 0, 253), -EPROTO);
		EXPECT_LOG(test, &ctx->fw, CREATE(0), QUERY(0, 0x101 + i),
			   DESTROY(0, 0x101 + i));
	}
	ctx->fw.query_sample_id = 7;
	KUNIT_EXPECT_EQ(test, get_err(ctx, 0, 253), 0);
	KUNIT_EXPECT_EQ(test, fw_live_nodes(&ctx->fw), 0);
}

/* Parsers and sample fields run out: the model answers NO_RES */
static void node_out_of_resources(struct kunit *test)
{
	struct mlx5_parse_graph_node *nodes[3];
	struct pg_ctx *ctx = test->priv;
	int i;

	ctx->fw.pool = 3;	/* firmware XX.31 */
	for (i = 0; i < 3; i++)
		nodes[i] = get_ok(ctx, 0, 250 + i);
	KUNIT_EXPECT_EQ(test, get_err(ctx, 0, 253), -ENOSPC);
	mlx5_parse_graph_node_put(nodes[1]);
	KUNIT_EXPECT_EQ(test, get_err(ctx, 0, 253), 0);
	ctx->fw.node_budget = 2;
	KUNIT_EXPECT_EQ(test, get_err(ctx, 0, 253), -ENOSPC);
	mlx5_parse_graph_node_put(nodes[0]);
	mlx5_parse_graph_node_put(nodes[2]);
	KUNIT_EXPECT_EQ(test, fw_live_nodes(&ctx->fw), 0);
}

/* A DESTROY that fails: the driver drops the node, the firmware keeps it
 * until it is reset (so the arc stays taken), and the driver recovers
 */
static void node_destroy_fails(struct kunit *test)
{
	struct pg_ctx *ctx = test->priv;

	ctx->fw.fail_opcode = MLX5_CMD_OP_DESTROY_GENERAL_OBJECT;
	ctx->fw.fail_status = MLX5_CMD_STAT_INT_ERR;
	mlx5_parse_graph_node_put(get_ok(ctx, 0, 253));
	KUNIT_EXPECT_EQ(test, get_err(ctx, 0, 253), -EINVAL);
	EXPECT_LOG(test, &ctx->fw, CREATE(0), QUERY(0, 0x100),
		   DESTROY(0, 0x100), CREATE(0));
	KUNIT_EXPECT_EQ(test, fw_live_nodes(&ctx->fw), 1);
	fw_reset(&ctx->fw);
	mlx5_parse_graph_node_put(get_ok(ctx, 0, 253));
	EXPECT_LOG(test, &ctx->fw, CREATE(0), QUERY(0, 0x1100),
		   DESTROY(0, 0x1100));
}

/* ---- two functions of one device, and an outside owner ---- */

/* (a) Each function has its own node; the same object ids on both */
static void two_functions_own_graphs(struct kunit *test)
{
	struct mlx5_parse_graph_node *n0, *n1;
	struct pg_ctx *ctx = test->priv;

	n0 = get_ok(ctx, 0, 253);
	n1 = get_ok(ctx, 1, 253);
	KUNIT_EXPECT_PTR_NE(test, n0, n1);
	EXPECT_LOG(test, &ctx->fw, CREATE(0), QUERY(0, 0x100), CREATE(1),
		   QUERY(1, 0x100));
	KUNIT_EXPECT_EQ(test, fw_live_nodes(&ctx->fw), 2);
	mlx5_parse_graph_node_put(n0);
	EXPECT_LOG(test, &ctx->fw, DESTROY(0, 0x100));
	KUNIT_EXPECT_NOT_NULL(test, fw_node_on_arc(&ctx->fw, 1, 253));
	mlx5_parse_graph_node_put(n1);
	EXPECT_LOG(test, &ctx->fw, DESTROY(1, 0x100));
}

static const struct {
	u8 status;
	int err;
} second_refusals[] = {
	{ MLX5_CMD_STAT_BAD_PARAM_ERR, -EINVAL },
	{ MLX5_CMD_STAT_BAD_RES_STATE_ERR, -EINVAL },
	{ MLX5_CMD_STAT_NO_RES_ERR, -ENOSPC },
	{ MLX5_CMD_STAT_INT_ERR, -EIO },
};

/* (b) The second function is refused with the errno of the firmware's
 * status, whoever holds the node, and the first function's node is not
 * touched
 */
static void two_functions_second_refused(struct kunit *test)
{
	struct mlx5_parse_graph_node *n0;
	struct pg_ctx *ctx = test->priv;
	int i;

	ctx->fw.scope = FW_REFUSE_SECOND;
	n0 = get_ok(ctx, 0, 253);
	ctx->fw.n_log = 0;
	for (i = 0; i < ARRAY_SIZE(second_refusals); i++) {
		ctx->fw.second_status = second_refusals[i].status;
		KUNIT_EXPECT_EQ(test, get_err(ctx, 1, 253),
				second_refusals[i].err);
		EXPECT_LOG(test, &ctx->fw, CREATE(1));
	}
	KUNIT_EXPECT_EQ(test, get_err(ctx, 1, 146), 0);
	mlx5_parse_graph_node_put(n0);
	EXPECT_LOG(test, &ctx->fw, CREATE(1), QUERY(1, 0x100),
		   DESTROY(1, 0x100), DESTROY(0, 0x100));
	KUNIT_EXPECT_EQ(test, get_err(ctx, 1, 253), 0);
	KUNIT_EXPECT_EQ(test, fw_live_nodes(&ctx->fw), 0);
}

/* (c) Firmware shares the node: each function destroys only its handle */
static void two_functions_shared_node(struct kunit *test)
{
	struct mlx5_parse_graph_node *n0, *n1;
	struct pg_ctx *ctx = test->priv;

	ctx->fw.scope = FW_SHARE;
	n0 = get_ok(ctx, 0, 253);
	n1 = get_ok(ctx, 1, 253);
	KUNIT_EXPECT_EQ(test, mlx5_parse_graph_node_sample_id(n0),
			mlx5_parse_graph_node_sample_id(n1));
	KUNIT_EXPECT_EQ(test, fw_live_nodes(&ctx->fw), 1);
	mlx5_parse_graph_node_put(n0);
	KUNIT_EXPECT_NOT_NULL(test, fw_node_on_arc(&ctx->fw, 0, 253));
	mlx5_parse_graph_node_put(n1);
	EXPECT_LOG(test, &ctx->fw, CREATE(0), QUERY(0, 0x100), CREATE(1),
		   QUERY(1, 0x100), DESTROY(0, 0x100), DESTROY(1, 0x100));
	KUNIT_EXPECT_EQ(test, fw_live_nodes(&ctx->fw), 0);
}

/* A DPDK application holds the arc on function 0: refused with the
 * firmware's errno, or sharing its node, never destroying it
 */
static void outside_owner(struct kunit *test)
{
	struct pg_ctx *ctx = test->priv;
	int scope;

	for (scope = FW_PER_FUNCTION; scope <= FW_SHARE; scope++) {
		fw_reset(&ctx->fw);
		ctx->fw.scope = scope;
		fw_outside_node(&ctx->fw, 0, 253);
		KUNIT_EXPECT_EQ(test, get_err(ctx, 0, 253),
				scope == FW_SHARE ? 0 : -EINVAL);
		/* function 1 is refused only where the device has one graph */
		KUNIT_EXPECT_EQ(test, get_err(ctx, 1, 253),
				scope == FW_REFUSE_SECOND ? -EINVAL : 0);
		KUNIT_EXPECT_TRUE(test, ctx->fw.handles[0].live);
		KUNIT_EXPECT_EQ(test, fw_live_nodes(&ctx->fw), 1);
	}
}

/* ---- firmware reset, driver reload, health recovery ---- */

/* devlink reload (driver_reinit) tears the netdevs down first: their rules
 * drop every node while the firmware still runs. After a reset the nodes
 * are created anew, and no id of before it is used. (fw_activate's sync
 * reset enters the error state before the unload: that is the health
 * recovery case below.)
 */
static void lifecycle_reload(struct kunit *test)
{
	struct mlx5_parse_graph_node *n0, *n1;
	struct pg_ctx *ctx = test->priv;

	n0 = get_ok(ctx, 0, 253);
	n1 = get_ok(ctx, 1, 253);
	mlx5_parse_graph_node_put(n0);
	mlx5_parse_graph_node_put(n1);
	fw_reset(&ctx->fw);
	ctx->fw.n_log = 0;
	n0 = get_ok(ctx, 0, 253);
	mlx5_parse_graph_node_put(n0);
	EXPECT_LOG(test, &ctx->fw, CREATE(0), QUERY(0, 0x1100),
		   DESTROY(0, 0x1100));
}

/* Health recovery: the device is in internal error when the rules go. The
 * DESTROY never reaches the firmware and counts as done (the command
 * interface's answer for a device that is down); a create fails and leaves
 * nothing. After the reset, the nodes are new.
 */
static void lifecycle_health_recovery(struct kunit *test)
{
	struct mlx5_parse_graph_node *n0, *n1;
	struct pg_ctx *ctx = test->priv;

	n0 = get_ok(ctx, 0, 253);
	n1 = get_ok(ctx, 1, 146);
	ctx->fw.n_log = 0;
	ctx->fw.down = true;
	mlx5_parse_graph_node_put(n0);
	mlx5_parse_graph_node_put(n1);
	KUNIT_EXPECT_EQ(test, get_err(ctx, 0, 253), -ENOLINK);
	EXPECT_LOG(test, &ctx->fw, DESTROY(0, 0x100), DESTROY(1, 0x100),
		   CREATE(0));
	fw_reset(&ctx->fw);
	n0 = get_ok(ctx, 0, 253);
	n1 = get_ok(ctx, 1, 146);
	mlx5_parse_graph_node_put(n0);
	mlx5_parse_graph_node_put(n1);
	EXPECT_LOG(test, &ctx->fw, CREATE(0), QUERY(0, 0x1100), CREATE(1),
		   QUERY(1, 0x1100), DESTROY(0, 0x1100), DESTROY(1, 0x1100));
}

/* A node leaked past the function's teardown is destroyed there, with a
 * warning; the other function's node stays. The debugfs file goes with
 * the state.
 */
static void cleanup_leaked_node(struct kunit *test)
{
	struct pg_ctx *ctx = test->priv;
	struct dentry *d;

	get_ok(ctx, 0, 253);
	get_ok(ctx, 0, 146);
	hold(ctx, get_ok(ctx, 1, 253));
	ctx->fw.n_log = 0;
	if (IS_ENABLED(CONFIG_DEBUG_FS)) {
		d = debugfs_lookup("parse_graph",
				   ctx->mdev[0]->priv.dbg.dbg_root);
		KUNIT_EXPECT_NOT_NULL(test, d);
		dput(d);
	}
	kunit_warning_suppress(test) {
		mlx5_parse_graph_destroy(ctx->mdev[0]->parse_graph);
		KUNIT_EXPECT_SUPPRESSED_WARNING_COUNT(test, 1);
	}
	ctx->mdev[0]->parse_graph = NULL;
	EXPECT_LOG(test, &ctx->fw, DESTROY(0, 0x101), DESTROY(0, 0x100));
	KUNIT_EXPECT_NULL(test,
			  debugfs_lookup("parse_graph",
					 ctx->mdev[0]->priv.dbg.dbg_root));
	KUNIT_EXPECT_NOT_NULL(test, fw_node_on_arc(&ctx->fw, 1, 253));
	KUNIT_EXPECT_EQ(test, fw_live_nodes(&ctx->fw), 1);
}

/* ---- debugfs ---- */

/* The file of @mdev shows @want: read as its open would, with the private
 * data it was created with
 */
static void expect_debugfs(struct kunit *test, struct mlx5_core_dev *mdev,
			   const char *want)
{
	struct seq_file file = { .size = 1024 };
	struct dentry *dentry;

	dentry = debugfs_lookup("parse_graph", mdev->priv.dbg.dbg_root);
	KUNIT_ASSERT_NOT_NULL(test, dentry);
	file.private = d_inode(dentry)->i_private;
	dput(dentry);
	file.buf = kunit_kzalloc(test, file.size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, file.buf);
	KUNIT_EXPECT_EQ(test, mlx5_pg_debugfs_show(&file, NULL), 0);
	KUNIT_ASSERT_LT(test, file.count, file.size);
	KUNIT_EXPECT_STREQ(test, file.buf, want);
}

void mlx5_pgt_expect_debugfs(struct kunit *test, struct mlx5_core_dev *mdev,
			     const char *want)
{
	expect_debugfs(test, mdev, want);
}

/* No node, one, several: only the function's own, with their refcounts */
static void debugfs_nodes(struct kunit *test)
{
	struct mlx5_parse_graph_node *a, *b, *c;
	struct pg_ctx *ctx = test->priv;

	expect_debugfs(test, ctx->mdev[0], PG_CAPS_BF3);
	a = get_ok(ctx, 0, 253);
	expect_debugfs(test, ctx->mdev[0], PG_CAPS_BF3 "253 0x100 0 1\n");
	b = get_ok(ctx, 0, 146);
	get_ok(ctx, 0, 253);
	c = get_ok(ctx, 1, 132);
	expect_debugfs(test, ctx->mdev[0],
		       PG_CAPS_BF3 "146 0x101 1 1\n253 0x100 0 2\n");
	expect_debugfs(test, ctx->mdev[1], PG_CAPS_BF3 "132 0x100 0 1\n");
	mlx5_parse_graph_node_put(a);
	mlx5_parse_graph_node_put(a);
	mlx5_parse_graph_node_put(b);
	mlx5_parse_graph_node_put(c);
	expect_debugfs(test, ctx->mdev[0], PG_CAPS_BF3);
}

/* Each capability line shows the capability it names, of the device the
 * file was created for: the two functions report different values
 */
static void debugfs_caps(struct kunit *test)
{
	static const struct {
		u64 node_in, hdr_len_mode, sample_off_mode, arcs, samples;
		u64 base_len, prog_fields;
		const char *want;
	} dev[] = {
		{ 0x8, 0x5, 0x7, 3, 2, 44, 6,
		  "object: yes\nnode_in: 0x8\nheader_length_mode: 0x5\n"
		  "sample_offset_mode: 0x7\nmax_num_arc_in: 3\n"
		  "max_num_sample: 2\nmax_base_header_length: 44\n"
		  "prog_sample_fields: 6\nprotocol object sample refs\n" },
		{ 0x24, 0x2, 0x3, 5, 4, 60, 7,
		  "object: yes\nnode_in: 0x24\nheader_length_mode: 0x2\n"
		  "sample_offset_mode: 0x3\nmax_num_arc_in: 5\n"
		  "max_num_sample: 4\nmax_base_header_length: 60\n"
		  "prog_sample_fields: 7\nprotocol object sample refs\n" },
	};
	struct pg_ctx *ctx = test->priv;
	int fn;

	for (fn = 0; fn < 2; fn++) {
		struct mlx5_core_dev *mdev = ctx->mdev[fn];

		set_node_in(mdev, dev[fn].node_in);
		set_header_length_mode(mdev, dev[fn].hdr_len_mode);
		set_sample_offset_mode(mdev, dev[fn].sample_off_mode);
		set_max_num_arc_in(mdev, dev[fn].arcs);
		set_max_num_sample(mdev, dev[fn].samples);
		set_max_base_header_length(mdev, dev[fn].base_len);
		set_prog_sample_fields(mdev, dev[fn].prog_fields);
	}
	for (fn = 0; fn < 2; fn++)
		expect_debugfs(test, ctx->mdev[fn], dev[fn].want);
	/* Without the object the page is not read: no capability shown */
	set_general_obj_types(ctx->mdev[0],
			      ~MLX5_GENERAL_OBJ_TYPES_CAP_FLEX_PARSE_GRAPH);
	expect_debugfs(test, ctx->mdev[0], "object: no\n");
	expect_debugfs(test, ctx->mdev[1], dev[1].want);
	/* A page fw.c zeroed (its query failed) is not shown as zeros */
	memset(PG_CAP(ctx->mdev[1]), 0, sizeof(ctx->mdev[1]->caps.hca[0]->cur));
	expect_debugfs(test, ctx->mdev[1],
		       "object: yes\ncapabilities: unavailable\n"
		       "protocol object sample refs\n");
}

/* Only the PF of an Ethernet port has parse graph state: a VF, an SF or
 * an InfiniBand port (IPoIB) gets none, and refuses nodes before any
 * command (rules: rule_function_without_state)
 */
static void function_without_state(struct kunit *test)
{
	struct pg_ctx *ctx = test->priv;
	struct mlx5_core_dev *mdev = ctx->mdev[0];

	mlx5_parse_graph_destroy(mdev->parse_graph);
	mdev->coredev_type = MLX5_COREDEV_VF;
	KUNIT_EXPECT_NULL(test, mlx5_parse_graph_create(mdev));
	mdev->coredev_type = MLX5_COREDEV_SF;
	KUNIT_EXPECT_NULL(test, mlx5_parse_graph_create(mdev));
	mdev->coredev_type = MLX5_COREDEV_PF;
	MLX5_SET(cmd_hca_cap, GEN_CAP(mdev), port_type, MLX5_CAP_PORT_TYPE_IB);
	KUNIT_EXPECT_NULL(test, mlx5_parse_graph_create(mdev));
	mdev->parse_graph = NULL;
	KUNIT_EXPECT_NULL(test, debugfs_lookup("parse_graph",
					       mdev->priv.dbg.dbg_root));
	KUNIT_EXPECT_EQ(test, get_err(ctx, 0, 253), -EOPNOTSUPP);
	EXPECT_NO_COMMAND(test, &ctx->fw);
}

/* A function whose state could not be allocated holds ERR_PTR(-ENOMEM):
 * it refuses nodes, has no debugfs file, and teardown passes it by
 */
static void state_alloc_failed(struct kunit *test)
{
	struct pg_ctx *ctx = test->priv;
	struct mlx5_core_dev *mdev = ctx->mdev[0];

	mlx5_parse_graph_destroy(mdev->parse_graph);
	mdev->parse_graph = ERR_PTR(-ENOMEM);
	KUNIT_EXPECT_NULL(test, debugfs_lookup("parse_graph",
					       mdev->priv.dbg.dbg_root));
	KUNIT_EXPECT_EQ(test, get_err(ctx, 0, 253), -EOPNOTSUPP);
	EXPECT_NO_COMMAND(test, &ctx->fw);
	mlx5_parse_graph_destroy(mdev->parse_graph);
	mdev->parse_graph = NULL;
}

/* ---- probe ---- */

/* mlx5_core_get_caps_mode() for probe's mlx5_query_hca_caps(): the page it
 * reads was allocated, and the firmware answers from ctx->probe_fw
 */
static int probe_read_caps(struct mlx5_core_dev *dev, enum mlx5_cap_type type,
			   enum mlx5_cap_mode mode)
{
	struct pg_ctx *ctx = kunit_get_current_test()->priv;
	const struct mlx5_hca_cap *fw;
	void *page;

	KUNIT_ASSERT_NOT_NULL_MSG(ctx->test, dev->caps.hca[type],
				  "probe reads capability page 0x%x, which it did not allocate",
				  type);
	KUNIT_ASSERT_LE(ctx->test, mode, HCA_CAP_OPMOD_GET_CUR);
	if (type == MLX5_CAP_PARSE_GRAPH_NODE)
		ctx->pg_reads[mode]++;
	if (type == ctx->caps_fail)
		return -EIO;
	page = mode == HCA_CAP_OPMOD_GET_CUR ? dev->caps.hca[type]->cur :
					      dev->caps.hca[type]->max;
	switch (type) {
	case MLX5_CAP_GENERAL:
		fw = &ctx->probe_fw[0];
		break;
	case MLX5_CAP_GENERAL_2:
		fw = &ctx->probe_fw[1];
		break;
	case MLX5_CAP_PARSE_GRAPH_NODE:
		fw = &ctx->probe_fw[2];
		break;
	default:
		memset(page, 0, sizeof_field(struct mlx5_hca_cap, cur));
		return 0;
	}
	memcpy(page, mode == HCA_CAP_OPMOD_GET_CUR ? fw->cur : fw->max,
	       sizeof(fw->cur));
	return 0;
}

/* Probe (fw.c) reads the node capability page when the device offers the
 * object, once and as the device's current capabilities, into the page
 * main.c allocated; a failed read zeroes it and probe goes on, and nodes
 * are refused. Without the object the page is not read.
 */
static void probe_caps(struct kunit *test)
{
	struct pg_ctx *ctx = test->priv;
	struct mlx5_core_dev *mdev = ctx->mdev[0];
	struct mlx5_hca_cap *fw;

	fw = kunit_kcalloc(test, 3, sizeof(*fw), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fw);
	/* The device's answers: the pages the suite set up, and a maximum
	 * that is not the current value
	 */
	memcpy(fw[0].cur, GEN_CAP(mdev), sizeof(fw[0].cur));
	MLX5_SET(cmd_hca_cap, fw[0].cur, hca_cap_2, 1);
	memcpy(fw[0].max, fw[0].cur, sizeof(fw[0].cur));
	memcpy(fw[1].cur, GEN2_CAP(mdev), sizeof(fw[1].cur));
	memcpy(fw[1].max, fw[1].cur, sizeof(fw[1].cur));
	memcpy(fw[2].cur, PG_CAP(mdev), sizeof(fw[2].cur));
	MLX5_SET(parse_graph_node_cap, fw[2].max, node_in, 0xff);
	MLX5_SET(parse_graph_node_cap, fw[2].max, max_num_arc_in, 16);
	ctx->probe_fw = fw;
	ctx->caps_fail = -1;
	kunit_activate_static_stub(test, mlx5_core_get_caps_mode,
				   probe_read_caps);

	memset(GEN_CAP(mdev), 0, sizeof(fw->cur));
	memset(GEN2_CAP(mdev), 0, sizeof(fw->cur));
	memset(PG_CAP(mdev), 0, sizeof(fw->cur));
	KUNIT_EXPECT_EQ(test, mlx5_query_hca_caps(mdev), 0);
	KUNIT_EXPECT_EQ(test, ctx->pg_reads[HCA_CAP_OPMOD_GET_CUR], 1);
	KUNIT_EXPECT_EQ(test, ctx->pg_reads[HCA_CAP_OPMOD_GET_MAX], 0);
	KUNIT_EXPECT_MEMEQ(test, PG_CAP(mdev), fw[2].cur, sizeof(fw->cur));
	KUNIT_EXPECT_EQ(test, get_err(ctx, 0, 253), 0);

	/* The read fails: zeroed, not left as it was */
	memset(PG_CAP(mdev), 0xff, sizeof(fw->cur));
	ctx->caps_fail = MLX5_CAP_PARSE_GRAPH_NODE;
	KUNIT_EXPECT_EQ(test, mlx5_query_hca_caps(mdev), 0);
	KUNIT_EXPECT_EQ(test, ctx->pg_reads[HCA_CAP_OPMOD_GET_CUR], 2);
	KUNIT_EXPECT_FALSE(test, memchr_inv(PG_CAP(mdev), 0, sizeof(fw->cur)));
	KUNIT_EXPECT_EQ(test, get_err(ctx, 0, 253), -EOPNOTSUPP);

	/* No object, no read */
	ctx->caps_fail = -1;
	MLX5_SET64(cmd_hca_cap, fw[0].cur, general_obj_types, 0);
	KUNIT_EXPECT_EQ(test, mlx5_query_hca_caps(mdev), 0);
	KUNIT_EXPECT_EQ(test, ctx->pg_reads[HCA_CAP_OPMOD_GET_CUR], 2);
	KUNIT_EXPECT_EQ(test, ctx->pg_reads[HCA_CAP_OPMOD_GET_MAX], 0);
	ctx->fw.n_log = 0;
}

static struct kunit_case pg_test_cases[] = {
	KUNIT_CASE(node_create_query_destroy),
	KUNIT_CASE(node_refcount),
	KUNIT_CASE(node_fixed_parser_protocols),
	KUNIT_CASE_PARAM(node_capability_boundary, cap_gen_params),
	KUNIT_CASE(node_capability_page_zero),
	KUNIT_CASE_PARAM(node_firmware_failure, create_fail_gen_params),
	KUNIT_CASE(node_unusable_sample),
	KUNIT_CASE(node_out_of_resources),
	KUNIT_CASE(node_destroy_fails),
	KUNIT_CASE(two_functions_own_graphs),
	KUNIT_CASE(two_functions_second_refused),
	KUNIT_CASE(two_functions_shared_node),
	KUNIT_CASE(outside_owner),
	KUNIT_CASE(lifecycle_reload),
	KUNIT_CASE(lifecycle_health_recovery),
	KUNIT_CASE(cleanup_leaked_node),
	KUNIT_CASE(debugfs_nodes),
	KUNIT_CASE(debugfs_caps),
	KUNIT_CASE(function_without_state),
	KUNIT_CASE(state_alloc_failed),
	KUNIT_CASE(probe_caps),
	{}
};

static struct kunit_suite pg_test_suite = {
	.name = "mlx5_parse_graph",
	.init = mlx5_pgt_init,
	.exit = mlx5_pgt_exit,
	.test_cases = pg_test_cases,
};

kunit_test_suite(pg_test_suite);

MODULE_DESCRIPTION("KUnit tests of mlx5 parse graph nodes and l4data rules");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
