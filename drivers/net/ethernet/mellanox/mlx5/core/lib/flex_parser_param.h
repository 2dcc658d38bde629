/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */

#ifndef __MLX5_FLEX_PARSER_PARAM_H
#define __MLX5_FLEX_PARSER_PARAM_H

#include <linux/mlx5/driver.h>
#include "devlink.h"

int mlx5_flex_parser_params_register(struct devlink *devlink);
void mlx5_flex_parser_params_unregister(struct devlink *devlink);

#if IS_ENABLED(CONFIG_KUNIT)
#define MLX5_FLEX_PARSER_NUM_PARAMS 2
extern const struct devlink_param
	mlx5_flex_parser_params[MLX5_FLEX_PARSER_NUM_PARAMS];
int mlx5_flex_parser_reg(struct mlx5_core_dev *dev, u32 *mnvda, size_t len,
			 bool write);
#endif

#endif
