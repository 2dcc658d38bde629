/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */

#ifndef __MLX5_LIB_PARSE_GRAPH_H__
#define __MLX5_LIB_PARSE_GRAPH_H__

#include <linux/types.h>

struct mlx5_core_dev;
struct mlx5_parse_graph;
struct mlx5_parse_graph_node;
struct seq_file;

#ifdef CONFIG_MLX5_EN_RXNFC
struct mlx5_parse_graph *mlx5_parse_graph_create(struct mlx5_core_dev *mdev);
void mlx5_parse_graph_destroy(struct mlx5_parse_graph *pg);
#else
static inline struct mlx5_parse_graph *
mlx5_parse_graph_create(struct mlx5_core_dev *mdev) { return NULL; }
static inline void mlx5_parse_graph_destroy(struct mlx5_parse_graph *pg) {}
#endif

struct mlx5_parse_graph_node *
mlx5_parse_graph_node_get(struct mlx5_parse_graph *pg, u8 ip_proto);
void mlx5_parse_graph_node_put(struct mlx5_parse_graph_node *node);
u8 mlx5_parse_graph_node_sample_id(const struct mlx5_parse_graph_node *node);

#if IS_ENABLED(CONFIG_KUNIT)
int mlx5_pg_cmd(struct mlx5_core_dev *mdev, void *in, int in_size, void *out,
		int out_size);
int mlx5_pg_debugfs_show(struct seq_file *file, void *priv);
#endif

#endif /* __MLX5_LIB_PARSE_GRAPH_H__ */
