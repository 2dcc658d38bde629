/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The firmware model of parse_graph_test.c and its two functions of one
 * device, which the l4data rule tests of en_fs_ethtool_test.c use too
 */

#ifndef __MLX5_LIB_PARSE_GRAPH_TEST_H__
#define __MLX5_LIB_PARSE_GRAPH_TEST_H__

#include <kunit/test.h>
#include <linux/mlx5/driver.h>
#include "lib/parse_graph.h"

struct mlx5e_priv;

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
	unsigned int seq;	/* place among all commands, flow ones too */
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
	unsigned int seq;	/* place among all commands */
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
	unsigned int seq;	/* commands sent so far, of either kind */
	/* probe: the firmware's pages (general, general 2, parse graph node),
	 * the reads of the node page by mode, and a page whose read fails
	 */
	struct mlx5_hca_cap *probe_fw;
	unsigned int pg_reads[2];
	int caps_fail;
};

#define GEN_CAP(mdev) ((mdev)->caps.hca[MLX5_CAP_GENERAL]->cur)
#define GEN2_CAP(mdev) ((mdev)->caps.hca[MLX5_CAP_GENERAL_2]->cur)
#define FT_CAP(mdev) ((mdev)->caps.hca[MLX5_CAP_FLOW_TABLE]->cur)
#define PG_CAP_PAGE(mdev) ((mdev)->caps.hca[MLX5_CAP_PARSE_GRAPH_NODE])
#define PG_CAP(mdev) (PG_CAP_PAGE(mdev)->cur)

#define CREATE(fn)		{ fn, MLX5_CMD_OP_CREATE_GENERAL_OBJECT, 0 }
#define QUERY(fn, id)		{ fn, MLX5_CMD_OP_QUERY_GENERAL_OBJECT, id }
#define DESTROY(fn, id)		{ fn, MLX5_CMD_OP_DESTROY_GENERAL_OBJECT, id }
#define EXPECT_LOG(test, fw, ...) do {					\
	const struct fw_cmd __cmds[] = { __VA_ARGS__ };			\
	mlx5_pgt_expect_log(test, fw, __cmds, ARRAY_SIZE(__cmds));	\
} while (0)
#define EXPECT_NO_COMMAND(test, fw) mlx5_pgt_expect_log(test, fw, NULL, 0)

#define PG_CAPS_BF3							\
	"object: yes\nnode_in: 0x2c\nheader_length_mode: 0x3\n"		\
	"sample_offset_mode: 0x1\nmax_num_arc_in: 8\n"			\
	"max_num_sample: 8\nmax_base_header_length: 255\n"		\
	"prog_sample_fields: 8\nprotocol object sample refs\n"

int mlx5_pgt_init(struct kunit *test);
void mlx5_pgt_exit(struct kunit *test);
void mlx5_pgt_expect_log(struct kunit *test, struct fw_model *fw,
			 const struct fw_cmd *cmds, unsigned int n);
void mlx5_pgt_expect_debugfs(struct kunit *test, struct mlx5_core_dev *mdev,
			     const char *want);

static inline unsigned int fw_live_nodes(struct fw_model *fw)
{
	unsigned int i, n = 0;

	for (i = 0; i < FW_MAX_NODES; i++)
		n += !!fw->nodes[i].handles;
	return n;
}

static inline void hold(struct pg_ctx *ctx, struct mlx5_parse_graph_node *node)
{
	ctx->held[ctx->n_held++] = node;
}

static inline struct mlx5_parse_graph_node *
get_ok(struct pg_ctx *ctx, int fn, u8 proto)
{
	struct mlx5_parse_graph_node *node =
		mlx5_parse_graph_node_get(ctx->mdev[fn]->parse_graph, proto);

	KUNIT_ASSERT_FALSE(ctx->test, IS_ERR(node));
	return node;
}

#endif /* __MLX5_LIB_PARSE_GRAPH_TEST_H__ */
