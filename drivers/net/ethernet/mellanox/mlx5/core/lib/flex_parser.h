/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Copyright (c) 2026, mlx5 flex L4 steering authors. */

#ifndef __MLX5_LIB_FLEX_PARSER_H__
#define __MLX5_LIB_FLEX_PARSER_H__

#include <linux/types.h>

struct mlx5_core_dev;
struct mlx5_flex_parser;
struct mlx5_flex_node;
struct netlink_ext_ack;

struct mlx5_flex_parser *mlx5_flex_parser_create(struct mlx5_core_dev *mdev);
void mlx5_flex_parser_destroy(struct mlx5_flex_parser *fp);

struct mlx5_flex_node *mlx5_flex_node_get(struct mlx5_flex_parser *fp, u8 ip_proto,
					  struct netlink_ext_ack *extack);
void mlx5_flex_node_put(struct mlx5_flex_node *node);
u8 mlx5_flex_node_sample_id(const struct mlx5_flex_node *node);

#endif /* __MLX5_LIB_FLEX_PARSER_H__ */
