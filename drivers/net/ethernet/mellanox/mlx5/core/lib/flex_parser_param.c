// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The flex parser settings of the device's non-volatile configuration as
 * permanent devlink parameters: FLEX_PARSER_PROFILE_ENABLE selects the
 * profile, that is which additional protocols the parser handles with its
 * flex parser resources, and PROG_PARSE_GRAPH allows the parse graph to be
 * programmed with the resources the profile leaves free. Both are fields of
 * NV_FLEX_PARSER_CONF, an item global to the device; NV_FLEX_PARSER_CAP says
 * which values the device accepts.
 */

#include <kunit/static_stub.h>
#include <kunit/visibility.h>
#include "mlx5_core.h"
#include "nv_param.h"
#include "flex_parser_param.h"

enum {
	MLX5_CLASS_0_CTRL_ID_NV_FLEX_PARSER_CONF = 0xe,
	MLX5_CLASS_0_CTRL_ID_NV_FLEX_PARSER_CAP  = 0xf,
};

struct mlx5_ifc_nv_flex_parser_conf_bits {
	u8         prog_parse_graph[0x1];
	u8         reserved_at_1[0x17];
	u8         flex_parser_profile_enable[0x8];

	u8         reserved_at_20[0x80];
};

/* flex_parser_profile_<N>_supported is the bit at offset N. The database of
 * NVIDIA's configuration tools names those of profiles 0 to 9; the bits after
 * them up to prog_parse_graph_supported are taken to continue the sequence,
 * so that a device's new profile needs no change here.
 */
struct mlx5_ifc_nv_flex_parser_cap_bits {
	u8         flex_parser_profile_supported[0x1f];
	u8         prog_parse_graph_supported[0x1];

	u8         reserved_at_20[0x60];
};

/* Every access of this file to the MNVDA register goes through here, so that
 * the KUnit tests can check each one.
 */
VISIBLE_IF_KUNIT int mlx5_flex_parser_reg(struct mlx5_core_dev *dev, u32 *mnvda,
					  size_t len, bool write)
{
	KUNIT_STATIC_STUB_REDIRECT(mlx5_flex_parser_reg, dev, mnvda, len,
				   write);

	return write ? mlx5_nv_param_write(dev, mnvda, len) :
		       mlx5_nv_param_read(dev, mnvda, len);
}
EXPORT_SYMBOL_IF_KUNIT(mlx5_flex_parser_reg);

/* A failed read is -EOPNOTSUPP, which devlink's parameter dump skips */
static int mlx5_flex_parser_read_conf(struct mlx5_core_dev *dev, u32 *mnvda,
				      u8 access_mode)
{
	MLX5_SET_CFG_ITEM_TYPE(global, mnvda, type_class, 0);
	MLX5_SET_CFG_ITEM_TYPE(global, mnvda, parameter_index,
			       MLX5_CLASS_0_CTRL_ID_NV_FLEX_PARSER_CONF);
	MLX5_SET_CFG_HDR_LEN(mnvda, nv_flex_parser_conf);
	MLX5_SET(mnvda_reg, mnvda, configuration_item_header.access_mode,
		 access_mode);

	if (mlx5_flex_parser_reg(dev, mnvda, MLX5_ST_SZ_BYTES(mnvda_reg),
				 false))
		return -EOPNOTSUPP;
	return 0;
}

static int mlx5_flex_parser_read_cap(struct mlx5_core_dev *dev, u32 *mnvda)
{
	MLX5_SET_CFG_ITEM_TYPE(global, mnvda, type_class, 0);
	MLX5_SET_CFG_ITEM_TYPE(global, mnvda, parameter_index,
			       MLX5_CLASS_0_CTRL_ID_NV_FLEX_PARSER_CAP);
	MLX5_SET_CFG_HDR_LEN(mnvda, nv_flex_parser_cap);

	if (mlx5_flex_parser_reg(dev, mnvda, MLX5_ST_SZ_BYTES(mnvda_reg),
				 false))
		return -EOPNOTSUPP;
	return 0;
}

static int mlx5_flex_parser_query(struct mlx5_core_dev *dev, u32 id,
				  u8 access_mode,
				  union devlink_param_value *val,
				  struct netlink_ext_ack *extack)
{
	u32 mnvda[MLX5_ST_SZ_DW(mnvda_reg)] = {};
	void *data;
	int err;

	err = mlx5_flex_parser_read_conf(dev, mnvda, access_mode);
	if (err) {
		NL_SET_ERR_MSG_MOD(extack,
				   "Failed to read flex parser configuration");
		return err;
	}

	data = MLX5_ADDR_OF(mnvda_reg, mnvda, configuration_item_data);
	if (id == MLX5_DEVLINK_PARAM_ID_PROG_PARSE_GRAPH)
		val->vbool = MLX5_GET(nv_flex_parser_conf, data,
				      prog_parse_graph);
	else
		val->vu8 = MLX5_GET(nv_flex_parser_conf, data,
				    flex_parser_profile_enable);
	return 0;
}

/* Change one field of NV_FLEX_PARSER_CONF for the next boot. The item is
 * global to the device and the devlink lock held here covers one PF only: the
 * shared devlink instance of the device, where it has one, serializes the
 * read-modify-write with the other PFs of this host.
 */
static int mlx5_flex_parser_store(struct mlx5_core_dev *dev, u32 id,
				  const union devlink_param_value *val,
				  struct netlink_ext_ack *extack)
{
	u32 mnvda[MLX5_ST_SZ_DW(mnvda_reg)] = {};
	void *data;
	int err;

	if (dev->shd)
		devl_lock(dev->shd);

	err = mlx5_flex_parser_read_conf(dev, mnvda, MLX5_ACCESS_MODE_NEXT);
	if (err) {
		NL_SET_ERR_MSG_MOD(extack,
				   "Failed to read flex parser configuration");
		goto unlock;
	}

	data = MLX5_ADDR_OF(mnvda_reg, mnvda, configuration_item_data);
	if (id == MLX5_DEVLINK_PARAM_ID_PROG_PARSE_GRAPH)
		MLX5_SET(nv_flex_parser_conf, data, prog_parse_graph,
			 val->vbool);
	else
		MLX5_SET(nv_flex_parser_conf, data, flex_parser_profile_enable,
			 val->vu8);

	err = mlx5_flex_parser_reg(dev, mnvda, sizeof(mnvda), true);
	if (err)
		NL_SET_ERR_MSG_MOD(extack,
				   "Failed to write flex parser configuration");
unlock:
	if (dev->shd)
		devl_unlock(dev->shd);
	return err;
}

static int mlx5_devlink_fp_get(struct devlink *devlink, u32 id,
			       struct devlink_param_gset_ctx *ctx,
			       struct netlink_ext_ack *extack)
{
	return mlx5_flex_parser_query(devlink_priv(devlink), id,
				      MLX5_ACCESS_MODE_NEXT, &ctx->val, extack);
}

static int mlx5_devlink_fp_set(struct devlink *devlink, u32 id,
			       struct devlink_param_gset_ctx *ctx,
			       struct netlink_ext_ack *extack)
{
	return mlx5_flex_parser_store(devlink_priv(devlink), id, &ctx->val,
				      extack);
}

static int mlx5_devlink_fp_validate(struct devlink *devlink, u32 id,
				    union devlink_param_value *val,
				    struct netlink_ext_ack *extack)
{
	const u32 nprofiles = __mlx5_bit_sz(nv_flex_parser_cap,
					    flex_parser_profile_supported);
	u32 cap[MLX5_ST_SZ_DW(mnvda_reg)] = {};
	u32 profiles;
	void *data;

	/* Turning the programmable parse graph off needs no capability */
	if (id == MLX5_DEVLINK_PARAM_ID_PROG_PARSE_GRAPH && !val->vbool)
		return 0;

	if (mlx5_flex_parser_read_cap(devlink_priv(devlink), cap)) {
		NL_SET_ERR_MSG_MOD(extack,
				   "Failed to read flex parser capability");
		return -EOPNOTSUPP;
	}

	data = MLX5_ADDR_OF(mnvda_reg, cap, configuration_item_data);
	if (id == MLX5_DEVLINK_PARAM_ID_PROG_PARSE_GRAPH) {
		if (!MLX5_GET(nv_flex_parser_cap, data,
			      prog_parse_graph_supported)) {
			NL_SET_ERR_MSG_MOD(extack,
					   "Programmable parse graph is not supported on this device");
			return -EOPNOTSUPP;
		}
		return 0;
	}

	profiles = MLX5_GET(nv_flex_parser_cap, data,
			    flex_parser_profile_supported);
	if (val->vu8 >= nprofiles ||
	    !(profiles & BIT(nprofiles - 1 - val->vu8))) {
		NL_SET_ERR_MSG_FMT_MOD(extack,
				       "Flex parser profile %u is not supported on this device",
				       val->vu8);
		return -EOPNOTSUPP;
	}
	return 0;
}

static int mlx5_devlink_fp_get_default(struct devlink *devlink, u32 id,
				       struct devlink_param_gset_ctx *ctx,
				       struct netlink_ext_ack *extack)
{
	return mlx5_flex_parser_query(devlink_priv(devlink), id,
				      MLX5_ACCESS_MODE_DEFAULT, &ctx->val,
				      extack);
}

/* The device's default needs no capability check */
static int mlx5_devlink_fp_reset_default(struct devlink *devlink, u32 id,
					 enum devlink_param_cmode cmode,
					 struct netlink_ext_ack *extack)
{
	struct mlx5_core_dev *dev = devlink_priv(devlink);
	union devlink_param_value val;
	int err;

	err = mlx5_flex_parser_query(dev, id, MLX5_ACCESS_MODE_DEFAULT, &val,
				     extack);
	if (err)
		return err;

	return mlx5_flex_parser_store(dev, id, &val, extack);
}

/* Both parameters are permanent and have the device's default */
#define MLX5_FLEX_PARSER_PARAM(_id, _name, _type)			\
	DEVLINK_PARAM_DRIVER_WITH_DEFAULTS(_id, _name, _type,		\
					   BIT(DEVLINK_PARAM_CMODE_PERMANENT), \
					   mlx5_devlink_fp_get,		\
					   mlx5_devlink_fp_set,		\
					   mlx5_devlink_fp_validate,	\
					   mlx5_devlink_fp_get_default,	\
					   mlx5_devlink_fp_reset_default)

VISIBLE_IF_KUNIT const struct devlink_param mlx5_flex_parser_params[] = {
	MLX5_FLEX_PARSER_PARAM(MLX5_DEVLINK_PARAM_ID_FLEX_PARSER_PROFILE,
			       "flex_parser_profile", DEVLINK_PARAM_TYPE_U8),
	MLX5_FLEX_PARSER_PARAM(MLX5_DEVLINK_PARAM_ID_PROG_PARSE_GRAPH,
			       "prog_parse_graph", DEVLINK_PARAM_TYPE_BOOL),
};
EXPORT_SYMBOL_IF_KUNIT(mlx5_flex_parser_params);

int mlx5_flex_parser_params_register(struct devlink *devlink)
{
	return devl_params_register(devlink, mlx5_flex_parser_params,
				    ARRAY_SIZE(mlx5_flex_parser_params));
}

void mlx5_flex_parser_params_unregister(struct devlink *devlink)
{
	devl_params_unregister(devlink, mlx5_flex_parser_params,
			       ARRAY_SIZE(mlx5_flex_parser_params));
}
