// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB

/* KUnit tests of parse graph nodes and of the ethtool l4data rules that use
 * them.
 *
 * The firmware is a model behind mlx5_pg_cmd(), through which the node
 * manager sends every command. It serves two functions of one device and an
 * outside owner (a DPDK application, say) of a node, and answers as one of
 * three hypotheses on the scope of the parse graph, none of which is
 * documented: a graph per function; one per device that refuses a second
 * node on an arc; one per device that shares the node between handles.
 * Object ids are numbered per function, so the two functions get the same
 * ids. A firmware reset forgets every object, and a command on an object id
 * from before it fails the test.
 *
 * The ethtool side is tested twice: in the first suite, on a netdev without
 * flow steering, the match that en_fs_ethtool.c builds and the rules it
 * refuses; in the second, with fs_core's own NIC RX tree whose root sends
 * its flow table commands to a recorder, rules installed, replaced and
 * deleted through mlx5e_ethtool_set_rxnfc() as ethtool does. The command
 * interface is never reached.
 */

#include <kunit/device.h>
#include <linux/debugfs.h>
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/seq_file.h>
#include <linux/mlx5/driver.h>
#include "mlx5_core.h"
#include "en.h"
#include "en/fs_ethtool.h"
#include "fs_core.h"
#include "fs_cmd.h"
#include "lib/parse_graph.h"

#define FW_MAX_NODES	16
/* ids are FW_OBJ_ID_BASE + 0x1000 * resets + n */
#define FW_OBJ_ID_BASE	0x100
/* function index of the outside owner's handles */
#define FW_OUTSIDE	2
#define FW_LOG_LEN	64

enum fw_scope {
	FW_PER_FUNCTION,	/* (a) one graph per function */
	/* (b) one per device, a second node on an arc is refused */
	FW_REFUSE_SECOND,
	/* (c) one per device, a second create shares the node */
	FW_SHARE,
};

struct fw_node {
	unsigned int handles;
	int graph;
	u8 proto;
	u8 sample_id;
};

struct fw_handle {
	bool live;
	int fn;
	u32 obj_id;
	struct fw_node *node;
};

struct fw_cmd {
	int fn;
	u16 opcode;
	u32 obj_id;
};

struct fw_model {
	enum fw_scope scope;
	/* FW_REFUSE_SECOND: the refusal's status */
	u8 second_status;
	unsigned int node_budget;	/* flex parsers left for nodes */
	unsigned int pool;		/* programmable sample fields */
	u32 epoch;			/* firmware resets so far */
	/* internal error: commands do not reach it */
	bool down;
	/* fail the next command with this opcode */
	u16 fail_opcode;
	u8 fail_status;
	u32 query_sample_id;		/* if set, queries answer this id */
	bool query_sample_disabled;
	u32 next_obj_id[FW_OUTSIDE + 1];
	struct fw_node nodes[FW_MAX_NODES];
	struct fw_handle handles[FW_MAX_NODES * 2];
	struct fw_cmd log[FW_LOG_LEN];
	unsigned int n_log;
	u32 last_create[MLX5_ST_SZ_DW(create_flex_parse_graph_in)];
};

/* The flow table commands of fs_core (installed rules) */
enum ft_op {
	FT_CREATE_TABLE = 1,
	FT_DESTROY_TABLE,
	FT_MODIFY_TABLE,
	FT_CREATE_GROUP,
	FT_DESTROY_GROUP,
	FT_CREATE_FTE,
	FT_UPDATE_FTE,
	FT_DELETE_FTE,
	FT_ROOT,
};

struct ft_cmd {
	enum ft_op op;
	u32 table;
};

/* What the last CREATE_FTE wrote */
struct ft_entry {
	u32 table;
	u8 enable;
	/* fs_core keeps less: the rest is 0 */
	u32 c[MLX5_ST_SZ_DW(fte_match_param)];
	u32 v[MLX5_ST_SZ_DW(fte_match_param)];
	u32 action;
	u32 dests;
};

struct ft_model {
	u32 next_id;
	enum ft_op fail_op;		/* fail the next command of this kind */
	unsigned int tables, groups, ftes;
	struct ft_cmd log[FW_LOG_LEN];
	unsigned int n_log;
	struct ft_entry last;
};

struct pg_ctx {
	struct kunit *test;
	struct fw_model fw;
	struct mlx5_core_dev *mdev[2];
	struct mlx5e_priv *priv;
	struct mlx5_parse_graph_node *held[4];	/* put at the end of the test */
	unsigned int n_held;
	struct ft_model ft;
};

static const int pg_cap_types[] = {
	MLX5_CAP_GENERAL, MLX5_CAP_GENERAL_2, MLX5_CAP_FLOW_TABLE,
	MLX5_CAP_PARSE_GRAPH_NODE,
};

#define GEN_CAP(mdev) ((mdev)->caps.hca[MLX5_CAP_GENERAL]->cur)
#define GEN2_CAP(mdev) ((mdev)->caps.hca[MLX5_CAP_GENERAL_2]->cur)
#define FT_CAP(mdev) ((mdev)->caps.hca[MLX5_CAP_FLOW_TABLE]->cur)
#define PG_CAP(mdev) ((mdev)->caps.hca[MLX5_CAP_PARSE_GRAPH_NODE]->cur)

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

static unsigned int fw_live_nodes(struct fw_model *fw)
{
	unsigned int i, n = 0;

	for (i = 0; i < FW_MAX_NODES; i++)
		n += !!fw->nodes[i].handles;
	return n;
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
		};
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

static void expect_log(struct kunit *test, struct fw_model *fw,
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

#define CREATE(fn)		{ fn, MLX5_CMD_OP_CREATE_GENERAL_OBJECT, 0 }
#define QUERY(fn, id)		{ fn, MLX5_CMD_OP_QUERY_GENERAL_OBJECT, id }
#define DESTROY(fn, id)		{ fn, MLX5_CMD_OP_DESTROY_GENERAL_OBJECT, id }
#define EXPECT_LOG(test, fw, ...) do {					\
	const struct fw_cmd __cmds[] = { __VA_ARGS__ };			\
	expect_log(test, fw, __cmds, ARRAY_SIZE(__cmds));		\
} while (0)
#define EXPECT_NO_COMMAND(test, fw) expect_log(test, fw, NULL, 0)

/* ---- devices ---- */

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

static int pg_test_init(struct kunit *test)
{
	static const struct mlx5e_profile profile = {};
	static const char * const names[] = { "0000:08:00.0", "0000:08:00.1" };
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

		mdev = kunit_kzalloc(test, sizeof(*mdev), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, mdev);
		mdev->device = kunit_device_register(test, names[fn]);
		KUNIT_ASSERT_FALSE(test, IS_ERR(mdev->device));
		mdev->priv.dbg.dbg_root = debugfs_create_dir(names[fn], NULL);
		for (i = 0; i < ARRAY_SIZE(pg_cap_types); i++) {
			struct mlx5_hca_cap *cap;

			cap = kunit_kzalloc(test, sizeof(*cap), GFP_KERNEL);
			KUNIT_ASSERT_NOT_NULL(test, cap);
			mdev->caps.hca[pg_cap_types[i]] = cap;
		}
		pg_set_caps(mdev);
		mdev->parse_graph = mlx5_parse_graph_create(mdev);
		KUNIT_ASSERT_NOT_NULL(test, mdev->parse_graph);
		KUNIT_ASSERT_FALSE(test, IS_ERR(mdev->parse_graph));
		ctx->mdev[fn] = mdev;
	}
	kunit_activate_static_stub(test, mlx5_pg_cmd, fw_cmd);

	/* A netdev of function 0, without flow steering: rules are refused
	 * or fail at their table, before fs_core
	 */
	ctx->priv = kunit_kzalloc(test, sizeof(*ctx->priv), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx->priv);
	ctx->priv->mdev = ctx->mdev[0];
	ctx->priv->channels.params.num_channels = 16;
	ctx->priv->fs = mlx5e_fs_init(&profile, ctx->mdev[0], false, NULL);
	KUNIT_ASSERT_NOT_NULL(test, ctx->priv->fs);
	mlx5e_ethtool_init_steering(ctx->priv->fs);
	return 0;
}

/* Whatever a test leaves, the driver holds no object in the end. A test
 * that stopped at a failed assertion may leave nodes: the functions' state
 * goes with the test, so they cannot reach the next one.
 */
static void pg_test_exit(struct kunit *test)
{
	struct pg_ctx *ctx = test->priv;
	unsigned int i;
	int fn;

	mlx5e_ethtool_cleanup_steering(ctx->priv->fs);
	mlx5e_fs_cleanup(ctx->priv->fs);
	while (ctx->n_held)
		mlx5_parse_graph_node_put(ctx->held[--ctx->n_held]);
	for (i = 0; i < ARRAY_SIZE(ctx->fw.handles); i++)
		if (ctx->fw.handles[i].live && !ctx->fw.down)
			KUNIT_EXPECT_EQ_MSG(test, ctx->fw.handles[i].fn,
					    FW_OUTSIDE, "object 0x%x left",
					    ctx->fw.handles[i].obj_id);
	for (fn = 0; fn < 2; fn++) {
		mlx5_parse_graph_destroy(ctx->mdev[fn]->parse_graph);
		debugfs_remove(ctx->mdev[fn]->priv.dbg.dbg_root);
	}
}

static void hold(struct pg_ctx *ctx, struct mlx5_parse_graph_node *node)
{
	ctx->held[ctx->n_held++] = node;
}

static struct mlx5_parse_graph_node *get_ok(struct pg_ctx *ctx, int fn,
					    u8 proto)
{
	struct mlx5_parse_graph_node *node =
		mlx5_parse_graph_node_get(ctx->mdev[fn]->parse_graph, proto);

	KUNIT_ASSERT_FALSE(ctx->test, IS_ERR(node));
	return node;
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
	mlx5_parse_graph_destroy(ctx->mdev[0]->parse_graph);
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

#define PG_CAPS_BF3							\
	"object: yes\nnode_in: 0x2c\nheader_length_mode: 0x3\n"		\
	"sample_offset_mode: 0x1\nmax_num_arc_in: 8\n"			\
	"max_num_sample: 8\nmax_base_header_length: 255\n"		\
	"prog_sample_fields: 8\nprotocol object sample refs\n"

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

/* ---- ethtool l4data rules ---- */

/* A rule as ethtool sends it: "l4data V m M" arrives as htonl(V) with the
 * mask ~htonl(M) (ethtool's M has 1 = ignore)
 */
static struct ethtool_rx_flow_spec
l4_rule(bool ip6, u8 proto, u8 proto_m, u32 l4data, u32 m)
{
	struct ethtool_rx_flow_spec fs = { .location = 5, .ring_cookie = 3 };

	fs.flow_type = ip6 ? IPV6_USER_FLOW : IP_USER_FLOW;
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

struct match {
	u32 c[MLX5_ST_SZ_DW(fte_match_param)];
	u32 v[MLX5_ST_SZ_DW(fte_match_param)];
};

/* The match of an IP rule on @proto, before its l4data */
static void ip_match(struct match *e, bool ip6, u8 proto)
{
	void *hc = MLX5_ADDR_OF(fte_match_param, e->c, outer_headers);
	void *hv = MLX5_ADDR_OF(fte_match_param, e->v, outer_headers);

	memset(e, 0, sizeof(*e));
	MLX5_SET(fte_match_set_lyr_2_4, hc, ethertype, 0xffff);
	MLX5_SET(fte_match_set_lyr_2_4, hv, ethertype,
		 ip6 ? ETH_P_IPV6 : ETH_P_IP);
	MLX5_SET(fte_match_set_lyr_2_4, hc, ip_protocol, 0xff);
	MLX5_SET(fte_match_set_lyr_2_4, hv, ip_protocol, proto);
}

/* The match of a rule through a node: no fragment, and the sample */
static void sample_match(struct match *e, bool ip6, u8 proto, u8 sample_id,
			 u32 c, u32 v)
{
	void *misc_c = MLX5_ADDR_OF(fte_match_param, e->c, misc_parameters_4);
	void *misc_v = MLX5_ADDR_OF(fte_match_param, e->v, misc_parameters_4);

	ip_match(e, ip6, proto);
	MLX5_SET(fte_match_set_lyr_2_4,
		 MLX5_ADDR_OF(fte_match_param, e->c, outer_headers), frag, 1);
	MLX5_SET(fte_match_set_misc4, misc_c, prog_sample_field_id_0,
		 sample_id);
	MLX5_SET(fte_match_set_misc4, misc_v, prog_sample_field_id_0,
		 sample_id);
	MLX5_SET(fte_match_set_misc4, misc_c, prog_sample_field_value_0, c);
	MLX5_SET(fte_match_set_misc4, misc_v, prog_sample_field_value_0, v);
}

#define RULE_NODE (MLX5_MATCH_OUTER_HEADERS | MLX5_MATCH_MISC_PARAMETERS_4)

/* What en_fs_ethtool.c hands fs_core for @fs: exactly @e, with @enable.
 * fs_core refuses a value bit outside the criteria.
 */
static void expect_match(struct kunit *test, struct ethtool_rx_flow_spec *fs,
			 const struct mlx5_parse_graph_node *node,
			 const struct match *e, u8 enable)
{
	struct mlx5_flow_spec *spec =
		kunit_kzalloc(test, sizeof(*spec), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, spec);
	KUNIT_ASSERT_EQ(test, mlx5e_ethtool_set_match(spec, fs, node), 0);
	KUNIT_EXPECT_EQ(test, spec->match_criteria_enable, enable);
	KUNIT_EXPECT_MEMEQ(test, spec->match_criteria, e->c, sizeof(e->c));
	KUNIT_EXPECT_MEMEQ(test, spec->match_value, e->v, sizeof(e->v));
	for (i = 0; i < ARRAY_SIZE(e->v); i++)
		KUNIT_EXPECT_EQ(test,
				spec->match_value[i] & ~spec->match_criteria[i],
				0);
}

static void l4data_match(struct kunit *test)
{
	struct pg_ctx *ctx = test->priv;
	struct mlx5_parse_graph_node *node;
	struct ethtool_rx_flow_spec fs;
	struct mlx5_flow_spec *spec;
	struct match *e;
	void *c, *v;
	int ip6;

	/* Two match parameters are too much for the stack next to the rules */
	e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e);
	spec = kunit_kzalloc(test, sizeof(*spec), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, spec);

	hold(ctx, get_ok(ctx, 0, 146));	/* so that 253 gets sample id 1 */
	node = get_ok(ctx, 0, 253);
	hold(ctx, node);
	for (ip6 = 0; ip6 < 2; ip6++) {
		/* l4proto 253 l4data 0x12345673 m 0xfffffff0 */
		sample_match(e, ip6, 253, 1, 0xf, 0x3);
		fs = l4_rule(ip6, 253, 0xff, 0x12345673, 0xfffffff0);
		expect_match(test, &fs, node, e, RULE_NODE);

		/* Bucket 0: l4data 0 m 0xfffffff0, a value of 0 under a mask */
		sample_match(e, ip6, 253, 1, 0xf, 0);
		fs = l4_rule(ip6, 253, 0xff, 0, 0xfffffff0);
		expect_match(test, &fs, node, e, RULE_NODE);

		/* The whole dword, exact */
		sample_match(e, ip6, 253, 1, 0xffffffff, 0x89abcdef);
		fs = l4_rule(ip6, 253, 0xff, 0x89abcdef, 0);
		expect_match(test, &fs, node, e, RULE_NODE);

		/* No l4data: the protocol alone, fragments included, no node */
		ip_match(e, ip6, 253);
		fs = l4_rule(ip6, 253, 0xff, 0, 0xffffffff);
		expect_match(test, &fs, NULL, e, MLX5_MATCH_OUTER_HEADERS);

		/* TCP, exact: sport 0x1234, dport 0x5678 */
		ip_match(e, ip6, IPPROTO_TCP);
		c = MLX5_ADDR_OF(fte_match_param, e->c, outer_headers);
		v = MLX5_ADDR_OF(fte_match_param, e->v, outer_headers);
		MLX5_SET(fte_match_set_lyr_2_4, c, tcp_sport, 0xffff);
		MLX5_SET(fte_match_set_lyr_2_4, v, tcp_sport, 0x1234);
		MLX5_SET(fte_match_set_lyr_2_4, c, tcp_dport, 0xffff);
		MLX5_SET(fte_match_set_lyr_2_4, v, tcp_dport, 0x5678);
		fs = l4_rule(ip6, IPPROTO_TCP, 0xff, 0x12345678, 0);
		expect_match(test, &fs, NULL, e, MLX5_MATCH_OUTER_HEADERS);

		/* UDP, dport only, value bits outside the mask */
		ip_match(e, ip6, IPPROTO_UDP);
		MLX5_SET(fte_match_set_lyr_2_4, c, udp_dport, 0xfff0);
		MLX5_SET(fte_match_set_lyr_2_4, v, udp_dport, 0x1380);
		fs = l4_rule(ip6, IPPROTO_UDP, 0xff, 0xabcd1389, 0xffff000f);
		expect_match(test, &fs, NULL, e, MLX5_MATCH_OUTER_HEADERS);

		/* UDP, sport only */
		ip_match(e, ip6, IPPROTO_UDP);
		MLX5_SET(fte_match_set_lyr_2_4, c, udp_sport, 0xff00);
		MLX5_SET(fte_match_set_lyr_2_4, v, udp_sport, 0xab00);
		fs = l4_rule(ip6, IPPROTO_UDP, 0xff, 0xabcd1389, 0x00ffffff);
		expect_match(test, &fs, NULL, e, MLX5_MATCH_OUTER_HEADERS);
	}

	/* A node rule without its node (a driver bug: it warns) is refused,
	 * not installed as a rule on the whole protocol
	 */
	fs = l4_rule(false, 253, 0xff, 3, 0xfffffff0);
	KUNIT_EXPECT_EQ(test, mlx5e_ethtool_set_match(spec, &fs, NULL),
			-EINVAL);
}

struct refuse_case {
	const char *name;
	u8 proto, proto_m;
	int err;
	void (*setup)(struct pg_ctx *ctx);
	bool create;		/* the refusal comes from firmware */
};

static void no_parse_graph(struct pg_ctx *ctx)
{
	set_general_obj_types(ctx->mdev[0], 0);
}

static void create_fails(struct pg_ctx *ctx)
{
	ctx->fw.fail_opcode = MLX5_CMD_OP_CREATE_GENERAL_OBJECT;
	ctx->fw.fail_status = MLX5_CMD_STAT_INT_ERR;
}

static void no_free_parser(struct pg_ctx *ctx)
{
	ctx->fw.node_budget = 0;
}

static void arc_taken_on_device(struct pg_ctx *ctx)
{
	ctx->fw.scope = FW_REFUSE_SECOND;
	if (!ctx->n_held)
		hold(ctx, get_ok(ctx, 1, 253));
	ctx->fw.n_log = 0;
}

static const struct refuse_case refuse_cases[] = {
	{ "no l4proto", 0, 0, -EINVAL },
	{ "partial l4proto mask", 253, 0xf0, -EINVAL },
	{ "fixed-parser protocol", IPPROTO_GRE, 0xff, -EOPNOTSUPP },
	{ "ESP (fixed parser)", IPPROTO_ESP, 0xff, -EOPNOTSUPP },
	{ "no parse graph", 253, 0xff, -EOPNOTSUPP, no_parse_graph },
	{ "firmware fails", 253, 0xff, -EIO, create_fails, true },
	{ "no free parser", 253, 0xff, -ENOSPC, no_free_parser, true },
	{ "arc taken on the device", 253, 0xff, -EINVAL, arc_taken_on_device,
	  true },
};

static void refuse_case_desc(const struct refuse_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(refuse, refuse_cases, refuse_case_desc);

static u32 num_rules(struct pg_ctx *ctx)
{
	struct ethtool_rxnfc info = { .cmd = ETHTOOL_GRXCLSRLCNT };

	KUNIT_EXPECT_EQ(ctx->test,
			mlx5e_ethtool_get_rxnfc(ctx->priv, &info, NULL), 0);
	return info.rule_cnt;
}

/* Validation: the tuples a rule counts (they choose its table), and the
 * refusals that come before any node
 */
static void l4data_validation(struct kunit *test)
{
	struct pg_ctx *ctx = test->priv;
	struct ethtool_rx_flow_spec fs;
	int ip6;

	for (ip6 = 0; ip6 < 2; ip6++) {
		fs = l4_rule(ip6, 253, 0xff, 3, 0xfffffff0);
		KUNIT_EXPECT_EQ(test,
				mlx5e_ethtool_validate_flow(ctx->priv, &fs), 3);
		fs = l4_rule(ip6, IPPROTO_UDP, 0xff, 3, 0);
		KUNIT_EXPECT_EQ(test,
				mlx5e_ethtool_validate_flow(ctx->priv, &fs), 3);
		fs = l4_rule(ip6, 253, 0xff, 0, 0xffffffff);	/* no l4data */
		KUNIT_EXPECT_EQ(test,
				mlx5e_ethtool_validate_flow(ctx->priv, &fs), 2);
		fs = l4_rule(ip6, 253, 0xf0, 3, 0);
		KUNIT_EXPECT_EQ(test,
				mlx5e_ethtool_validate_flow(ctx->priv, &fs),
				-EINVAL);
		fs = l4_rule(ip6, 0, 0, 3, 0);
		KUNIT_EXPECT_EQ(test,
				mlx5e_ethtool_validate_flow(ctx->priv, &fs),
				-EINVAL);
	}
	EXPECT_NO_COMMAND(test, &ctx->fw);
}

/* A refused rule gets the exact errno and leaves no node and no rule */
static void l4data_refused(struct kunit *test)
{
	const struct refuse_case *c = test->param_value;
	struct pg_ctx *ctx = test->priv;
	struct ethtool_rx_flow_spec fs;
	unsigned int nodes;
	int ip6;

	for (ip6 = 0; ip6 < 2; ip6++) {
		if (c->setup)
			c->setup(ctx);
		nodes = fw_live_nodes(&ctx->fw);
		fs = l4_rule(ip6, c->proto, c->proto_m, 3, 0xfffffff0);
		KUNIT_EXPECT_EQ(test,
				mlx5e_ethtool_flow_replace(ctx->priv, &fs, 0),
				c->err);
		if (c->create)
			EXPECT_LOG(test, &ctx->fw, CREATE(0));
		else
			EXPECT_NO_COMMAND(test, &ctx->fw);
		KUNIT_EXPECT_EQ(test, fw_live_nodes(&ctx->fw), nodes);
		KUNIT_EXPECT_EQ(test, num_rules(ctx), 0);
	}
}

/* Only the PF of an Ethernet port has parse graph state: a VF, an SF or
 * an InfiniBand port (IPoIB) gets none, and refuses rules that need a
 * node before any command
 */
static void function_without_state(struct kunit *test)
{
	struct pg_ctx *ctx = test->priv;
	struct mlx5_core_dev *mdev = ctx->mdev[0];
	struct ethtool_rx_flow_spec fs;

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

	fs = l4_rule(false, 253, 0xff, 3, 0xfffffff0);
	KUNIT_EXPECT_EQ(test, mlx5e_ethtool_flow_replace(ctx->priv, &fs, 0),
			-EOPNOTSUPP);
	EXPECT_NO_COMMAND(test, &ctx->fw);
}

/* A function whose state could not be allocated holds ERR_PTR(-ENOMEM):
 * it refuses nodes and rules that need them, has no debugfs file, and
 * teardown passes it by
 */
static void state_alloc_failed(struct kunit *test)
{
	struct pg_ctx *ctx = test->priv;
	struct mlx5_core_dev *mdev = ctx->mdev[0];
	struct ethtool_rx_flow_spec fs;

	mlx5_parse_graph_destroy(mdev->parse_graph);
	mdev->parse_graph = ERR_PTR(-ENOMEM);
	KUNIT_EXPECT_NULL(test, debugfs_lookup("parse_graph",
					       mdev->priv.dbg.dbg_root));
	KUNIT_EXPECT_EQ(test, get_err(ctx, 0, 253), -EOPNOTSUPP);
	fs = l4_rule(false, 253, 0xff, 3, 0xfffffff0);
	KUNIT_EXPECT_EQ(test, mlx5e_ethtool_flow_replace(ctx->priv, &fs, 0),
			-EOPNOTSUPP);
	EXPECT_NO_COMMAND(test, &ctx->fw);
	mlx5_parse_graph_destroy(mdev->parse_graph);
	mdev->parse_graph = NULL;
}

/* A rule whose node exists but whose table cannot be created (this netdev
 * has no flow steering) drops the node again; a rule that needs no node
 * sends nothing
 */
static void l4data_table_fails(struct kunit *test)
{
	struct pg_ctx *ctx = test->priv;
	struct ethtool_rx_flow_spec fs;
	void *arc;
	int ip6;

	for (ip6 = 0; ip6 < 2; ip6++) {
		fs = l4_rule(ip6, 253, 0xff, 3, 0xfffffff0);
		KUNIT_EXPECT_EQ(test,
				mlx5e_ethtool_flow_replace(ctx->priv, &fs, 0),
				-EOPNOTSUPP);
		EXPECT_LOG(test, &ctx->fw, CREATE(0), QUERY(0, 0x100 + ip6),
			   DESTROY(0, 0x100 + ip6));
		arc = MLX5_ADDR_OF(create_flex_parse_graph_in,
				   ctx->fw.last_create, flex.input_arc[0]);
		KUNIT_EXPECT_EQ(test,
				MLX5_GET(parse_graph_arc, arc,
					 compare_condition_value),
				253);

		fs = l4_rule(ip6, IPPROTO_UDP, 0xff, 3, 0xfffffff0);
		KUNIT_EXPECT_EQ(test,
				mlx5e_ethtool_flow_replace(ctx->priv, &fs, 0),
				-EOPNOTSUPP);
		fs = l4_rule(ip6, 253, 0xff, 0, 0xffffffff);	/* no l4data */
		KUNIT_EXPECT_EQ(test,
				mlx5e_ethtool_flow_replace(ctx->priv, &fs, 0),
				-EOPNOTSUPP);
		EXPECT_NO_COMMAND(test, &ctx->fw);
	}
	KUNIT_EXPECT_EQ(test, num_rules(ctx), 0);
}

/* ---- installed rules: fs_core with flow commands of the test's own ----
 *
 * fs_core sends every flow table command through its root namespace's
 * struct mlx5_flow_cmds. The tests build the NIC RX tree as fs_core does
 * (without the anchor table, which needs firmware) and give its root a table
 * that records each command and can fail one: rules then go through
 * mlx5e_ethtool_set_rxnfc() and fs_core as on a device.
 */

static struct ft_model *ft_model(void)
{
	return &((struct pg_ctx *)kunit_get_current_test()->priv)->ft;
}

/* Log @op on @table; the command fails if it is the one to fail */
static int ft_record(enum ft_op op, u32 table)
{
	struct ft_model *ft = ft_model();

	if (ft->n_log < FW_LOG_LEN)
		ft->log[ft->n_log] = (struct ft_cmd){ op, table };
	ft->n_log++;
	if (op != ft->fail_op)
		return 0;
	ft->fail_op = 0;
	return -EIO;
}

static int ft_create_table(struct mlx5_flow_root_namespace *ns,
			   struct mlx5_flow_table *t,
			   struct mlx5_flow_table_attr *attr,
			   struct mlx5_flow_table *next_ft)
{
	struct ft_model *ft = ft_model();
	int err = ft_record(FT_CREATE_TABLE, ft->next_id);

	if (err)
		return err;
	/* Firmware gives a table the size asked for, in a power of two */
	t->id = ft->next_id++;
	t->max_fte = roundup_pow_of_two(attr->max_fte);
	ft->tables++;
	return 0;
}

static int ft_destroy_table(struct mlx5_flow_root_namespace *ns,
			    struct mlx5_flow_table *t)
{
	ft_model()->tables--;
	return ft_record(FT_DESTROY_TABLE, t->id);
}

static int ft_modify_table(struct mlx5_flow_root_namespace *ns,
			   struct mlx5_flow_table *t,
			   struct mlx5_flow_table *next_ft)
{
	return ft_record(FT_MODIFY_TABLE, t->id);
}

static int ft_create_group(struct mlx5_flow_root_namespace *ns,
			   struct mlx5_flow_table *t, u32 *in,
			   struct mlx5_flow_group *fg)
{
	struct ft_model *ft = ft_model();
	int err = ft_record(FT_CREATE_GROUP, t->id);

	if (err)
		return err;
	fg->id = ft->next_id++;
	ft->groups++;
	return 0;
}

static int ft_destroy_group(struct mlx5_flow_root_namespace *ns,
			    struct mlx5_flow_table *t,
			    struct mlx5_flow_group *fg)
{
	ft_model()->groups--;
	return ft_record(FT_DESTROY_GROUP, t->id);
}

static int ft_create_fte(struct mlx5_flow_root_namespace *ns,
			 struct mlx5_flow_table *t, struct mlx5_flow_group *fg,
			 struct fs_fte *fte)
{
	struct ft_model *ft = ft_model();
	int err = ft_record(FT_CREATE_FTE, t->id);

	if (err)
		return err;
	ft->ftes++;
	memset(&ft->last, 0, sizeof(ft->last));
	ft->last.table = t->id;
	ft->last.enable = fg->mask.match_criteria_enable;
	memcpy(ft->last.c, fg->mask.match_criteria,
	       sizeof(fg->mask.match_criteria));
	memcpy(ft->last.v, fte->val, sizeof(fte->val));
	ft->last.action = fte->act_dests.action.action;
	ft->last.dests = fte->act_dests.dests_size;
	return 0;
}

static int ft_update_fte(struct mlx5_flow_root_namespace *ns,
			 struct mlx5_flow_table *t, struct mlx5_flow_group *fg,
			 int modify_mask, struct fs_fte *fte)
{
	return ft_record(FT_UPDATE_FTE, t->id);
}

static int ft_delete_fte(struct mlx5_flow_root_namespace *ns,
			 struct mlx5_flow_table *t, struct fs_fte *fte)
{
	ft_model()->ftes--;
	return ft_record(FT_DELETE_FTE, t->id);
}

static int ft_update_root(struct mlx5_flow_root_namespace *ns,
			  struct mlx5_flow_table *t, u32 underlay_qpn,
			  bool disconnect)
{
	return ft_record(FT_ROOT, t->id);
}

static int ft_ns_ok(struct mlx5_flow_root_namespace *ns)
{
	return 0;
}

static u32 ft_no_caps(struct mlx5_flow_root_namespace *ns,
		      enum fs_flow_table_type type)
{
	return 0;
}

static const struct mlx5_flow_cmds ft_cmds = {
	.create_flow_table = ft_create_table,
	.destroy_flow_table = ft_destroy_table,
	.modify_flow_table = ft_modify_table,
	.create_flow_group = ft_create_group,
	.destroy_flow_group = ft_destroy_group,
	.create_fte = ft_create_fte,
	.update_fte = ft_update_fte,
	.delete_fte = ft_delete_fte,
	.update_root_ft = ft_update_root,
	.create_ns = ft_ns_ok,
	.destroy_ns = ft_ns_ok,
	.get_capabilities = ft_no_caps,
};

static void expect_ft_log(struct kunit *test, const struct ft_cmd *cmds,
			  unsigned int n)
{
	struct ft_model *ft = &((struct pg_ctx *)test->priv)->ft;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, ft->n_log, n);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ_MSG(test, ft->log[i].op, cmds[i].op,
				    "flow command %u", i);
		KUNIT_EXPECT_EQ_MSG(test, ft->log[i].table, cmds[i].table,
				    "flow command %u", i);
	}
	ft->n_log = 0;
}

#define EXPECT_FT_LOG(test, ...) do {					\
	const struct ft_cmd __cmds[] = { __VA_ARGS__ };			\
	expect_ft_log(test, __cmds, ARRAY_SIZE(__cmds));		\
} while (0)
#define EXPECT_NO_FT_COMMAND(test) expect_ft_log(test, NULL, 0)

/* The first rule of a table makes the table (ids start at 1), points the
 * root at it, and adds a group and the entry; the last takes them away
 */
static void expect_ft_first_rule(struct kunit *test, u32 t)
{
	EXPECT_FT_LOG(test, { FT_CREATE_TABLE, t }, { FT_ROOT, t },
		      { FT_CREATE_GROUP, t }, { FT_CREATE_FTE, t });
}

static void expect_ft_last_rule(struct kunit *test, u32 t)
{
	EXPECT_FT_LOG(test, { FT_DELETE_FTE, t }, { FT_DESTROY_GROUP, t },
		      { FT_DESTROY_TABLE, t });
}

static int rules_test_init(struct kunit *test)
{
	struct mlx5_flow_steering *steering;
	struct mlx5_core_dev *mdev;
	struct pg_ctx *ctx;
	void *nic_rx;
	int err;

	err = pg_test_init(test);
	if (err)
		return err;
	ctx = test->priv;
	ctx->ft.next_id = 1;
	mdev = ctx->mdev[0];
	nic_rx = MLX5_ADDR_OF(flow_table_nic_cap, FT_CAP(mdev),
			      flow_table_properties_nic_receive);
	MLX5_SET(cmd_hca_cap, GEN_CAP(mdev), nic_flow_table, 1);
	MLX5_SET(flow_table_prop_layout, nic_rx, ft_support, 1);
	MLX5_SET(flow_table_prop_layout, nic_rx, flow_modify_en, 1);
	MLX5_SET(flow_table_prop_layout, nic_rx, modify_root, 1);
	MLX5_SET(flow_table_prop_layout, nic_rx, identified_miss_table_mode, 1);
	MLX5_SET(flow_table_prop_layout, nic_rx, flow_table_modify, 1);
	MLX5_SET(flow_table_prop_layout, nic_rx, log_max_ft_size, 16);
	MLX5_SET(flow_table_prop_layout, nic_rx, max_ft_level, 64);

	KUNIT_ASSERT_EQ(test, mlx5_fs_core_alloc(mdev), 0);
	steering = mdev->priv.steering;
	steering->root_ns = create_root_ns(steering, FS_FT_NIC_RX);
	KUNIT_ASSERT_NOT_NULL(test, steering->root_ns);
	steering->root_ns->cmds = &ft_cmds;
	KUNIT_ASSERT_EQ(test,
			init_root_tree(steering, &root_fs,
				       &steering->root_ns->ns.node),
			0);
	set_prio_attrs(steering->root_ns);
	return 0;
}

/* Whatever a test leaves, the netdev's cleanup deletes every entry, group
 * and table it made
 */
static void rules_test_exit(struct kunit *test)
{
	struct pg_ctx *ctx = test->priv;
	struct mlx5_core_dev *mdev = ctx->mdev[0];

	pg_test_exit(test);
	KUNIT_EXPECT_EQ(test, ctx->ft.ftes, 0);
	KUNIT_EXPECT_EQ(test, ctx->ft.groups, 0);
	KUNIT_EXPECT_EQ(test, ctx->ft.tables, 0);
	cleanup_root_ns(mdev->priv.steering->root_ns);
	mlx5_fs_core_free(mdev);
}

static int rule_set(struct pg_ctx *ctx, struct ethtool_rx_flow_spec fs)
{
	struct ethtool_rxnfc cmd = { .cmd = ETHTOOL_SRXCLSRLINS, .fs = fs };

	return mlx5e_ethtool_set_rxnfc(ctx->priv, &cmd);
}

static int rule_del(struct pg_ctx *ctx, u32 location)
{
	struct ethtool_rxnfc cmd = { .cmd = ETHTOOL_SRXCLSRLDEL,
				     .fs.location = location };

	return mlx5e_ethtool_set_rxnfc(ctx->priv, &cmd);
}

/* Install a rule at @loc that drops what it matches (a queue needs the
 * netdev's TIRs, which only firmware makes)
 */
static int drop_set(struct pg_ctx *ctx, u32 loc, bool ip6, u8 proto, u32 l4data,
		    u32 m, bool ext)
{
	struct ethtool_rx_flow_spec fs = l4_rule(ip6, proto, 0xff, l4data, m);

	fs.location = loc;
	fs.ring_cookie = RX_CLS_FLOW_DISC;
	if (ext) {		/* ... vlan 5 */
		fs.flow_type |= FLOW_EXT;
		fs.h_ext.vlan_tci = htons(5);
		fs.m_ext.vlan_tci = htons(0xfff);
	}
	return rule_set(ctx, fs);
}

/* Word by word, so that a failure names the first dword that differs */
static void expect_dwords(struct kunit *test, const char *what, const u32 *got,
			  const u32 *want, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (got[i] == want[i])
			continue;
		KUNIT_FAIL(test,
			   "%s: dword %u (byte %u) is 0x%08x, want 0x%08x",
			   what, i, 4 * i, be32_to_cpu((__force __be32)got[i]),
			   be32_to_cpu((__force __be32)want[i]));
		return;
	}
}

/* The entry that the last rule wrote is @e, with @enable, dropping */
static void expect_entry(struct kunit *test, u32 table, const struct match *e,
			 u8 enable)
{
	struct ft_entry *last = &((struct pg_ctx *)test->priv)->ft.last;

	KUNIT_EXPECT_EQ(test, last->table, table);
	KUNIT_EXPECT_EQ(test, last->enable, enable);
	expect_dwords(test, "criteria", last->c, e->c, ARRAY_SIZE(e->c));
	expect_dwords(test, "value", last->v, e->v, ARRAY_SIZE(e->v));
	KUNIT_EXPECT_EQ(test, last->action, MLX5_FLOW_CONTEXT_ACTION_DROP);
	KUNIT_EXPECT_EQ(test, last->dests, 0);
}

static void vlan_match(struct match *e)
{
	void *hc = MLX5_ADDR_OF(fte_match_param, e->c, outer_headers);
	void *hv = MLX5_ADDR_OF(fte_match_param, e->v, outer_headers);

	MLX5_SET(fte_match_set_lyr_2_4, hc, cvlan_tag, 1);
	MLX5_SET(fte_match_set_lyr_2_4, hv, cvlan_tag, 1);
	MLX5_SET(fte_match_set_lyr_2_4, hc, first_vid, 0xfff);
	MLX5_SET(fte_match_set_lyr_2_4, hv, first_vid, 5);
}

/* Install and delete, ip4 and ip6, with and without FLOW_EXT: the entry
 * fs_core writes, one node reference per rule, and the last delete
 * destroys the node with one DESTROY and the table with its group
 */
static void rule_install_delete(struct kunit *test)
{
	struct pg_ctx *ctx = test->priv;
	struct match *e;
	int ip6, ext;
	u32 t = 1;

	e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e);
	for (ip6 = 0; ip6 < 2; ip6++) {
		for (ext = 0; ext < 2; ext++) {
			u32 obj = 0x100 + 2 * ip6 + ext;

			KUNIT_ASSERT_EQ(test,
					drop_set(ctx, 5, ip6, 253, 3,
						 0xfffffff0, ext),
					0);
			EXPECT_LOG(test, &ctx->fw, CREATE(0), QUERY(0, obj));
			expect_ft_first_rule(test, t);
			sample_match(e, ip6, 253, 0, 0xf, 0x3);
			if (ext)
				vlan_match(e);
			expect_entry(test, t, e, RULE_NODE);

			/* A second rule of the protocol shares the node */
			KUNIT_ASSERT_EQ(test,
					drop_set(ctx, 6, ip6, 253, 4,
						 0xfffffff0, ext),
					0);
			EXPECT_NO_COMMAND(test, &ctx->fw);
			EXPECT_FT_LOG(test, { FT_CREATE_FTE, t });
			sample_match(e, ip6, 253, 0, 0xf, 0x4);
			if (ext)
				vlan_match(e);
			expect_entry(test, t, e, RULE_NODE);
			KUNIT_EXPECT_EQ(test, num_rules(ctx), 2);

			KUNIT_EXPECT_EQ(test, rule_del(ctx, 5), 0);
			EXPECT_NO_COMMAND(test, &ctx->fw);
			EXPECT_FT_LOG(test, { FT_DELETE_FTE, t });
			KUNIT_EXPECT_EQ(test, rule_del(ctx, 6), 0);
			EXPECT_LOG(test, &ctx->fw, DESTROY(0, obj));
			expect_ft_last_rule(test, t);
			KUNIT_EXPECT_EQ(test, num_rules(ctx), 0);
			KUNIT_EXPECT_EQ(test, rule_del(ctx, 6), -ENOENT);
			t += 2;		/* a table and its group */
		}
	}
}

/* TCP and UDP l4data are the native port fields, with no node, also on
 * ip6 with a value of 0 under a mask; a node rule with a value of 0 is a
 * node rule
 */
static void rule_native_ports(struct kunit *test)
{
	struct pg_ctx *ctx = test->priv;
	struct match *e;
	void *c, *v;
	int ip6;
	u32 t = 1;

	e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e);
	for (ip6 = 0; ip6 < 2; ip6++) {
		KUNIT_ASSERT_EQ(test,
				drop_set(ctx, 1, ip6, IPPROTO_UDP, 0,
					 0xffff0000, false),
				0);
		EXPECT_NO_COMMAND(test, &ctx->fw);
		expect_ft_first_rule(test, t);
		ip_match(e, ip6, IPPROTO_UDP);
		c = MLX5_ADDR_OF(fte_match_param, e->c, outer_headers);
		v = MLX5_ADDR_OF(fte_match_param, e->v, outer_headers);
		MLX5_SET(fte_match_set_lyr_2_4, c, udp_dport, 0xffff);
		MLX5_SET(fte_match_set_lyr_2_4, v, udp_dport, 0);
		expect_entry(test, t, e, MLX5_MATCH_OUTER_HEADERS);

		KUNIT_ASSERT_EQ(test,
				drop_set(ctx, 2, ip6, 253, 0,
					 0xffff0000, false),
				0);
		EXPECT_LOG(test, &ctx->fw, CREATE(0), QUERY(0, 0x100 + ip6));
		EXPECT_FT_LOG(test, { FT_CREATE_GROUP, t },
			      { FT_CREATE_FTE, t });
		sample_match(e, ip6, 253, 0, 0xffff, 0);
		expect_entry(test, t, e, RULE_NODE);

		KUNIT_EXPECT_EQ(test, rule_del(ctx, 2), 0);
		EXPECT_LOG(test, &ctx->fw, DESTROY(0, 0x100 + ip6));
		KUNIT_EXPECT_EQ(test, rule_del(ctx, 1), 0);
		ctx->ft.n_log = 0;
		KUNIT_EXPECT_EQ(test, ctx->ft.tables, 0);
		t += 3;
	}
}

/* The entry of a rule through the node of @proto with sample @sample_id,
 * with the VLAN of drop_set() if @ext
 */
static void node_entry(struct match *e, bool ip6, u8 proto, u8 sample_id,
		       u32 c, u32 v, bool ext)
{
	sample_match(e, ip6, proto, sample_id, c, v);
	if (ext)
		vlan_match(e);
}

/* A replace deletes the rule at the location (get_ethtool_rule()), after
 * the new rule took its node and table, and installs the new one: the old
 * entry takes its group with it, the new one makes its own
 */
static void expect_ft_rewrite(struct kunit *test, u32 t)
{
	EXPECT_FT_LOG(test, { FT_DELETE_FTE, t }, { FT_DESTROY_GROUP, t },
		      { FT_CREATE_GROUP, t }, { FT_CREATE_FTE, t });
}

/* Replace at one location, ip4 and ip6, with and without FLOW_EXT: the
 * same protocol keeps its node, another protocol swaps nodes, a rule
 * without l4data drops the node (and, with a tuple less, moves to another
 * table) and one with l4data takes a node back; the entry written at each
 * step
 */
static void rule_replace(struct kunit *test)
{
	struct pg_ctx *ctx = test->priv;
	struct match *e;
	int ip6, ext;

	e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e);
	for (ip6 = 0; ip6 < 2; ip6++) {
		for (ext = 0; ext < 2; ext++) {
			u32 obj = ctx->fw.next_obj_id[0];
			/* the table; its groups and the next tables after */
			u32 t = ctx->ft.next_id;

			KUNIT_ASSERT_EQ(test,
					drop_set(ctx, 5, ip6, 253, 3,
						 0xfffffff0, ext),
					0);
			EXPECT_LOG(test, &ctx->fw, CREATE(0), QUERY(0, obj));
			expect_ft_first_rule(test, t);
			node_entry(e, ip6, 253, 0, 0xf, 3, ext);
			expect_entry(test, t, e, RULE_NODE);

			KUNIT_ASSERT_EQ(test,
					drop_set(ctx, 5, ip6, 253, 7,
						 0xfffffff0, ext),
					0);
			EXPECT_NO_COMMAND(test, &ctx->fw);
			expect_ft_rewrite(test, t);
			node_entry(e, ip6, 253, 0, 0xf, 7, ext);
			expect_entry(test, t, e, RULE_NODE);
			KUNIT_EXPECT_EQ(test, ctx->ft.ftes, 1);

			/* The new node is made while the old one still
			 * holds sample 0
			 */
			KUNIT_ASSERT_EQ(test,
					drop_set(ctx, 5, ip6, 146, 7,
						 0xfffffff0, ext),
					0);
			EXPECT_LOG(test, &ctx->fw, CREATE(0),
				   QUERY(0, obj + 1), DESTROY(0, obj));
			expect_ft_rewrite(test, t);
			node_entry(e, ip6, 146, 1, 0xf, 7, ext);
			expect_entry(test, t, e, RULE_NODE);

			/* l4proto 146 alone: no l4data, no node */
			KUNIT_ASSERT_EQ(test,
					drop_set(ctx, 5, ip6, 146, 0,
						 0xffffffff, ext),
					0);
			EXPECT_LOG(test, &ctx->fw, DESTROY(0, obj + 1));
			EXPECT_FT_LOG(test, { FT_CREATE_TABLE, t + 4 },
				      { FT_MODIFY_TABLE, t },
				      { FT_DELETE_FTE, t },
				      { FT_DESTROY_GROUP, t },
				      { FT_ROOT, t + 4 },
				      { FT_DESTROY_TABLE, t },
				      { FT_CREATE_GROUP, t + 4 },
				      { FT_CREATE_FTE, t + 4 });
			ip_match(e, ip6, 146);
			if (ext)
				vlan_match(e);
			expect_entry(test, t + 4, e, MLX5_MATCH_OUTER_HEADERS);

			KUNIT_ASSERT_EQ(test,
					drop_set(ctx, 5, ip6, 146, 7,
						 0xfffffff0, ext),
					0);
			EXPECT_LOG(test, &ctx->fw, CREATE(0),
				   QUERY(0, obj + 2));
			EXPECT_FT_LOG(test, { FT_CREATE_TABLE, t + 6 },
				      { FT_ROOT, t + 6 },
				      { FT_DELETE_FTE, t + 4 },
				      { FT_DESTROY_GROUP, t + 4 },
				      { FT_MODIFY_TABLE, t + 6 },
				      { FT_DESTROY_TABLE, t + 4 },
				      { FT_CREATE_GROUP, t + 6 },
				      { FT_CREATE_FTE, t + 6 });
			node_entry(e, ip6, 146, 0, 0xf, 7, ext);
			expect_entry(test, t + 6, e, RULE_NODE);
			KUNIT_EXPECT_EQ(test, ctx->ft.ftes, 1);
			KUNIT_EXPECT_EQ(test, num_rules(ctx), 1);

			KUNIT_EXPECT_EQ(test, rule_del(ctx, 5), 0);
			EXPECT_LOG(test, &ctx->fw, DESTROY(0, obj + 2));
			expect_ft_last_rule(test, t + 6);
			KUNIT_EXPECT_EQ(test, ctx->ft.tables, 0);
		}
	}
}

/* The match_criteria_enable of an entry follows its criteria: an ether
 * rule on the all-zero destination MAC has a zero value and outer criteria
 */
static void rule_zero_value(struct kunit *test)
{
	struct ethtool_rx_flow_spec fs = { .flow_type = ETHER_FLOW,
					   .location = 9,
					   .ring_cookie = RX_CLS_FLOW_DISC };
	struct pg_ctx *ctx = test->priv;

	eth_broadcast_addr(fs.m_u.ether_spec.h_dest);
	KUNIT_ASSERT_EQ(test, rule_set(ctx, fs), 0);
	KUNIT_EXPECT_EQ(test, ctx->ft.last.enable, MLX5_MATCH_OUTER_HEADERS);
	KUNIT_EXPECT_FALSE(test, memchr_inv(ctx->ft.last.v, 0,
					    sizeof(ctx->ft.last.v)));
	KUNIT_EXPECT_EQ(test, rule_del(ctx, 9), 0);
}

/* An L2 rule has a table for each count of tuples from one to four: one
 * with the destination MAC in the ether spec and in FLOW_MAC_EXT counts five
 * and is refused before any table
 */
static void rule_l2_tuples(struct kunit *test)
{
	struct ethtool_rx_flow_spec fs = { .flow_type = ETHER_FLOW | FLOW_EXT,
					   .location = 9,
					   .ring_cookie = RX_CLS_FLOW_DISC };
	static const u8 dst[ETH_ALEN] = { 2, 0, 0, 0, 0, 1 };
	struct pg_ctx *ctx = test->priv;

	ether_addr_copy(fs.h_u.ether_spec.h_dest, dst);
	eth_broadcast_addr(fs.m_u.ether_spec.h_dest);
	eth_broadcast_addr(fs.m_u.ether_spec.h_source);
	fs.h_u.ether_spec.h_proto = htons(0x88b5);
	fs.m_u.ether_spec.h_proto = htons(0xffff);
	fs.h_ext.vlan_tci = htons(5);
	fs.m_ext.vlan_tci = htons(VLAN_VID_MASK);
	KUNIT_EXPECT_EQ(test, mlx5e_ethtool_validate_flow(ctx->priv, &fs), 4);
	KUNIT_ASSERT_EQ(test, rule_set(ctx, fs), 0);
	expect_ft_first_rule(test, 1);

	fs.flow_type |= FLOW_MAC_EXT;
	fs.location = 10;
	ether_addr_copy(fs.h_ext.h_dest, dst);
	eth_broadcast_addr(fs.m_ext.h_dest);
	KUNIT_EXPECT_EQ(test, mlx5e_ethtool_validate_flow(ctx->priv, &fs),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rule_set(ctx, fs), -EINVAL);
	EXPECT_NO_FT_COMMAND(test);
	KUNIT_EXPECT_EQ(test, num_rules(ctx), 1);
	KUNIT_EXPECT_EQ(test, rule_del(ctx, 9), 0);
}

/* Each failure on the way in leaves what was there: the node, the table,
 * the flow group, the entry
 */
static const enum ft_op rule_fail_ops[] = {
	FT_CREATE_TABLE, FT_CREATE_GROUP, FT_CREATE_FTE,
};

static void rule_fails(struct kunit *test)
{
	struct pg_ctx *ctx = test->priv;
	unsigned int i;
	int ip6;

	for (ip6 = 0; ip6 < 2; ip6++) {
		/* The node fails: no table is made */
		create_fails(ctx);
		KUNIT_EXPECT_EQ(test,
				drop_set(ctx, 5, ip6, 253, 3,
					 0xfffffff0, false),
				-EIO);
		EXPECT_NO_FT_COMMAND(test);
		KUNIT_EXPECT_EQ(test, fw_live_nodes(&ctx->fw), 0);
		KUNIT_EXPECT_EQ(test, num_rules(ctx), 0);
		ctx->fw.n_log = 0;

		for (i = 0; i < ARRAY_SIZE(rule_fail_ops); i++) {
			ctx->ft.fail_op = rule_fail_ops[i];
			KUNIT_EXPECT_EQ(test,
					drop_set(ctx, 5, ip6, 253, 3,
						 0xfffffff0, false),
					-EIO);
			KUNIT_EXPECT_EQ(test, fw_live_nodes(&ctx->fw), 0);
			KUNIT_EXPECT_EQ(test, ctx->ft.tables, 0);
			KUNIT_EXPECT_EQ(test, ctx->ft.groups, 0);
			KUNIT_EXPECT_EQ(test, ctx->ft.ftes, 0);
			KUNIT_EXPECT_EQ(test, num_rules(ctx), 0);
			ctx->fw.n_log = 0;
			ctx->ft.n_log = 0;
		}

		/* ... and a rule after them is made and deleted in full; the
		 * entry of a second rule in its group fails alone
		 */
		KUNIT_ASSERT_EQ(test,
				drop_set(ctx, 5, ip6, 253, 3,
					 0xfffffff0, false),
				0);
		ctx->ft.fail_op = FT_CREATE_FTE;
		KUNIT_EXPECT_EQ(test,
				drop_set(ctx, 6, ip6, 253, 4,
					 0xfffffff0, false),
				-EIO);
		KUNIT_EXPECT_EQ(test, ctx->ft.ftes, 1);
		KUNIT_EXPECT_EQ(test, num_rules(ctx), 1);
		KUNIT_EXPECT_EQ(test, rule_del(ctx, 5), 0);
		KUNIT_EXPECT_EQ(test, fw_live_nodes(&ctx->fw), 0);
		KUNIT_EXPECT_EQ(test, ctx->ft.tables, 0);
		ctx->fw.n_log = 0;
		ctx->ft.n_log = 0;
	}
}

/* The rule at @loc is the drop rule on @proto with l4data @l4data */
static void expect_rule_at(struct pg_ctx *ctx, u32 loc, bool ip6, u8 proto,
			   u32 l4data)
{
	struct ethtool_rxnfc info = { .cmd = ETHTOOL_GRXCLSRULE,
				      .fs.location = loc };
	struct kunit *test = ctx->test;

	KUNIT_ASSERT_EQ(test, mlx5e_ethtool_get_rxnfc(ctx->priv, &info, NULL),
			0);
	if (ip6) {
		KUNIT_EXPECT_EQ(test, info.fs.h_u.usr_ip6_spec.l4_proto, proto);
		KUNIT_EXPECT_EQ(test,
				ntohl(info.fs.h_u.usr_ip6_spec.l4_4_bytes),
				l4data);
	} else {
		KUNIT_EXPECT_EQ(test, info.fs.h_u.usr_ip4_spec.proto, proto);
		KUNIT_EXPECT_EQ(test,
				ntohl(info.fs.h_u.usr_ip4_spec.l4_4_bytes),
				l4data);
	}
}

/* Function 0 has one node, of protocol 253 with object @obj, sample 0 and
 * @refs references (debugfs shows it), or none if @refs is 0
 */
static void expect_node_253(struct pg_ctx *ctx, u32 obj, unsigned int refs)
{
	char want[sizeof(PG_CAPS_BF3) + 32];

	if (refs)
		snprintf(want, sizeof(want), PG_CAPS_BF3 "253 0x%x 0 %u\n", obj,
			 refs);
	else
		strscpy(want, PG_CAPS_BF3);
	expect_debugfs(ctx->test, ctx->mdev[0], want);
}

/* A replace that fails at its node or its table leaves the old rule. One
 * that fails at the flow group or the entry does not: the old rule was
 * deleted before (get_ethtool_rule(), as upstream does for every rule),
 * and the new one is undone, so that the location is left empty, with the
 * node references and tables of the rules that remain and nothing more.
 * ip4 and ip6, with and without FLOW_EXT; rules 5 and 6 share a node and a
 * flow group.
 */
static void rule_replace_fails(struct kunit *test)
{
	struct pg_ctx *ctx = test->priv;
	int ip6, ext;

	for (ip6 = 0; ip6 < 2; ip6++) {
		for (ext = 0; ext < 2; ext++) {
			u32 obj = ctx->fw.next_obj_id[0];
			u32 t = ctx->ft.next_id;

			KUNIT_ASSERT_EQ(test,
					drop_set(ctx, 5, ip6, 253, 3,
						 0xfffffff0, ext),
					0);
			KUNIT_ASSERT_EQ(test,
					drop_set(ctx, 6, ip6, 253, 4,
						 0xfffffff0, ext),
					0);
			ctx->fw.n_log = 0;
			ctx->ft.n_log = 0;

			/* The node fails: nothing changes */
			create_fails(ctx);
			KUNIT_EXPECT_EQ(test,
					drop_set(ctx, 5, ip6, 146, 3,
						 0xfffffff0, ext),
					-EIO);
			EXPECT_LOG(test, &ctx->fw, CREATE(0));
			EXPECT_NO_FT_COMMAND(test);
			expect_rule_at(ctx, 5, ip6, 253, 3);

			/* A rule without l4data has a tuple less: another
			 * table, which fails
			 */
			ctx->ft.fail_op = FT_CREATE_TABLE;
			KUNIT_EXPECT_EQ(test,
					drop_set(ctx, 5, ip6, 146, 0,
						 0xffffffff, ext),
					-EIO);
			EXPECT_NO_COMMAND(test, &ctx->fw);
			EXPECT_FT_LOG(test, { FT_CREATE_TABLE, t + 2 });
			expect_rule_at(ctx, 5, ip6, 253, 3);
			KUNIT_EXPECT_EQ(test, num_rules(ctx), 2);
			expect_node_253(ctx, obj, 2);
			KUNIT_EXPECT_EQ(test, ctx->ft.tables, 1);
			KUNIT_EXPECT_EQ(test, ctx->ft.groups, 1);
			KUNIT_EXPECT_EQ(test, ctx->ft.ftes, 2);

			/* Another l4data mask is another group, which fails:
			 * rule 5 is gone, rule 6 keeps the node, the group
			 * and the table
			 */
			ctx->ft.fail_op = FT_CREATE_GROUP;
			KUNIT_EXPECT_EQ(test,
					drop_set(ctx, 5, ip6, 253, 3,
						 0xffffff00, ext),
					-EIO);
			EXPECT_NO_COMMAND(test, &ctx->fw);
			EXPECT_FT_LOG(test, { FT_DELETE_FTE, t },
				      { FT_CREATE_GROUP, t });
			KUNIT_EXPECT_EQ(test, rule_del(ctx, 5), -ENOENT);
			expect_rule_at(ctx, 6, ip6, 253, 4);
			KUNIT_EXPECT_EQ(test, num_rules(ctx), 1);
			expect_node_253(ctx, obj, 1);
			KUNIT_EXPECT_EQ(test, ctx->ft.tables, 1);
			KUNIT_EXPECT_EQ(test, ctx->ft.groups, 1);
			KUNIT_EXPECT_EQ(test, ctx->ft.ftes, 1);

			/* The entry fails: rule 6 is gone with its group,
			 * and the node and the table with the new rule
			 */
			ctx->ft.fail_op = FT_CREATE_FTE;
			KUNIT_EXPECT_EQ(test,
					drop_set(ctx, 6, ip6, 253, 4,
						 0xffffff00, ext),
					-EIO);
			EXPECT_LOG(test, &ctx->fw, DESTROY(0, obj));
			EXPECT_FT_LOG(test, { FT_DELETE_FTE, t },
				      { FT_DESTROY_GROUP, t },
				      { FT_CREATE_GROUP, t },
				      { FT_CREATE_FTE, t },
				      { FT_DESTROY_GROUP, t },
				      { FT_DESTROY_TABLE, t });
			KUNIT_EXPECT_EQ(test, num_rules(ctx), 0);
			expect_node_253(ctx, obj, 0);
			KUNIT_EXPECT_EQ(test, fw_live_nodes(&ctx->fw), 0);
			KUNIT_EXPECT_EQ(test, ctx->ft.tables, 0);
			KUNIT_EXPECT_EQ(test, ctx->ft.groups, 0);
			KUNIT_EXPECT_EQ(test, ctx->ft.ftes, 0);
		}
	}
}

/* The netdev's steering cleanup deletes rules it still has, with their
 * nodes (the suite's exit checks the tables)
 */
static void rule_cleanup(struct kunit *test)
{
	struct pg_ctx *ctx = test->priv;

	KUNIT_ASSERT_EQ(test,
			drop_set(ctx, 5, false, 253, 3, 0xfffffff0, false), 0);
	KUNIT_ASSERT_EQ(test, drop_set(ctx, 6, true, 146, 3, 0xfffffff0, true),
			0);
	mlx5e_ethtool_cleanup_steering(ctx->priv->fs);
	KUNIT_EXPECT_EQ(test, fw_live_nodes(&ctx->fw), 0);
	KUNIT_EXPECT_EQ(test, ctx->ft.tables, 0);
	mlx5e_ethtool_init_steering(ctx->priv->fs);
}

static struct kunit_case rules_test_cases[] = {
	KUNIT_CASE(rule_install_delete),
	KUNIT_CASE(rule_native_ports),
	KUNIT_CASE(rule_replace),
	KUNIT_CASE(rule_zero_value),
	KUNIT_CASE(rule_l2_tuples),
	KUNIT_CASE(rule_fails),
	KUNIT_CASE(rule_replace_fails),
	KUNIT_CASE(rule_cleanup),
	{}
};

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
	KUNIT_CASE(l4data_match),
	KUNIT_CASE(l4data_validation),
	KUNIT_CASE_PARAM(l4data_refused, refuse_gen_params),
	KUNIT_CASE(function_without_state),
	KUNIT_CASE(state_alloc_failed),
	KUNIT_CASE(l4data_table_fails),
	{}
};

static struct kunit_suite pg_test_suite = {
	.name = "mlx5_parse_graph",
	.init = pg_test_init,
	.exit = pg_test_exit,
	.test_cases = pg_test_cases,
};

static struct kunit_suite rules_test_suite = {
	.name = "mlx5_l4data_rules",
	.init = rules_test_init,
	.exit = rules_test_exit,
	.test_cases = rules_test_cases,
};

kunit_test_suites(&pg_test_suite, &rules_test_suite);
