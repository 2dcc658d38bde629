// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests of the flex parser devlink parameters: each callback is called
 * as devlink calls it, and every MNVDA register access it makes is checked
 * against a fake device. The registration is checked through devlink's
 * netlink interface, as devlink(8) sees it.
 */

#include <kunit/device.h>
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/net.h>
#include <net/genetlink.h>
#include "mlx5_core.h"
#include "flex_parser_param.h"
#include "nv_param.h"

/* The register contents are written out by hand from mlxconfig's database
 * (Debian mstflint 4.31.0+1-4, usr/share/mstflint/mlxconfig_dbs/
 * mlxconfig_host.db), not built with the layouts under test. MNVDA is a
 * 3 dword header followed by the item: dword 0 holds access_mode (bits 23:22)
 * and the item length (bits 8:0), dword 1 the type class (bits 31:24) and the
 * parameter index, dword 2 the crc16 (bits 15:0).
 */
#define MNVDA_BYTES		(12 + 256)
#define DATA			3
#define CONF_DW			5		/* 20 byte item */

#define HDR_CONF_NEXT		0x00000014	/* access_mode 0, 20 bytes */
#define HDR_CONF_DEFAULT	0x00800014	/* access_mode 2 */
#define HDR_CAP			0x00000010	/* 16 byte item */
/* class 0, NV_FLEX_PARSER_CONF 14 and NV_FLEX_PARSER_CAP 15 */
#define TYPE_CONF		0x0000000e
#define TYPE_CAP		0x0000000f
#define CRC			0x00005a5a	/* what the fake returns */

/* NV_FLEX_PARSER_CONF dword 0: prog_parse_graph 0x0.31,
 * flex_parser_profile_enable 0x0.0 (8 bits); dword 2: a field the driver
 * does not touch (flex_ipv4_over_vxlan_port 0x8.0 in NVIDIA's tools), kept
 * by every write
 */
#define CONF_GRAPH		0x80000000
#define PORT			4789
/* NV_FLEX_PARSER_CAP dword 0: flex_parser_profile_<N>_supported 0x0.(31 - N)
 * for N = 0..30, prog_parse_graph_supported 0x0.0
 */
#define NPROFILES		31
#define CAP_PROFILE(n)		BIT(31 - (n))
#define CAP_ALL_PROFILES	0xfffffffe
#define CAP_GRAPH		BIT(0)

/* the driver's extack messages carry its module name */
#define MSG(s)			"mlx5_core: " s
#define MAX_ACCESSES		4
#define NL_BUF_LEN		4096

static const u32 profile_id = MLX5_DEVLINK_PARAM_ID_FLEX_PARSER_PROFILE;
static const u32 graph_id = MLX5_DEVLINK_PARAM_ID_PROG_PARSE_GRAPH;

/* One MNVDA access: the register as the driver passed it (header and the
 * first dwords of the item, CPU order) and whether the shared devlink
 * instance was locked at that moment.
 */
struct fp_access {
	bool write;
	u32 reg[DATA + CONF_DW];
	bool shd_locked;
};

struct fp_test {
	struct devlink *devlink, *shd;
	struct mlx5_core_dev *mdev;
	/* the fake device: NV_FLEX_PARSER_CONF for the next boot and by
	 * default, NV_FLEX_PARSER_CAP dword 0
	 */
	u32 next[CONF_DW], dflt[CONF_DW], cap;
	int fail_at;		/* 1-based access that fails with fail_err */
	int fail_err;
	int n;
	struct fp_access log[MAX_ACCESSES];
	struct netlink_ext_ack extack;
	/* a generic netlink socket of the test's, devlink's family id and
	 * the buffer of the last reply
	 */
	struct socket *nl;
	u16 family;
	void *nl_buf;
};

static int fake_reg(struct mlx5_core_dev *dev, u32 *mnvda, size_t len,
		    bool write)
{
	struct kunit *test = kunit_get_current_test();
	__be32 *reg = (__force __be32 *)mnvda;
	struct fp_test *t = test->priv;
	struct fp_access *a;
	u32 hdr, type, *src;
	int i;

	KUNIT_EXPECT_PTR_EQ(test, dev, t->mdev);
	KUNIT_EXPECT_EQ(test, len, MNVDA_BYTES);
	if (t->n >= MAX_ACCESSES) {
		KUNIT_FAIL(test, "more than %d register accesses",
			   MAX_ACCESSES);
		return -EIO;
	}
	a = &t->log[t->n++];
	a->write = write;
	for (i = 0; i < ARRAY_SIZE(a->reg); i++)
		a->reg[i] = be32_to_cpu(reg[i]);
	if (t->shd) {
		a->shd_locked = !devl_trylock(t->shd);
		if (!a->shd_locked)
			devl_unlock(t->shd);
	}
	if (t->n == t->fail_at)
		return t->fail_err;

	hdr = a->reg[0];
	type = a->reg[1];
	if (write) {
		KUNIT_EXPECT_EQ(test, type, TYPE_CONF);
		for (i = 0; i < CONF_DW; i++)
			t->next[i] = a->reg[DATA + i];
		return 0;
	}
	if (type == TYPE_CAP && hdr == HDR_CAP) {
		reg[DATA] = cpu_to_be32(t->cap);
		return 0;
	}
	if (type == TYPE_CONF && hdr == HDR_CONF_NEXT)
		src = t->next;
	else if (type == TYPE_CONF && hdr == HDR_CONF_DEFAULT)
		src = t->dflt;
	else
		return -EINVAL;	/* the access check of the case fails */
	reg[2] = cpu_to_be32(CRC);
	for (i = 0; i < CONF_DW; i++)
		reg[DATA + i] = cpu_to_be32(src[i]);
	return 0;
}

static const struct devlink_ops fp_test_ops = {};

static int fp_test_init(struct kunit *test)
{
	struct device *dev;
	struct fp_test *t;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	dev = kunit_device_register(test, "mlx5_flex_parser_param_test");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dev);
	t->devlink = devlink_alloc(&fp_test_ops, sizeof(*t->mdev), dev);
	KUNIT_ASSERT_NOT_NULL(test, t->devlink);
	t->mdev = devlink_priv(t->devlink);
	t->mdev->device = dev;
	test->priv = t;
	kunit_activate_static_stub(test, mlx5_flex_parser_reg, fake_reg);
	return 0;
}

static void fp_test_exit(struct kunit *test)
{
	struct fp_test *t = test->priv;

	if (t->nl) {
		sock_release(t->nl);
		devlink_unregister(t->devlink);
	}
	devlink_free(t->devlink);
	if (t->shd)
		devlink_free(t->shd);
}

static const struct devlink_param *fp_param(u32 id)
{
	int i;

	for (i = 0; i < MLX5_FLEX_PARSER_NUM_PARAMS; i++)
		if (mlx5_flex_parser_params[i].id == id)
			return &mlx5_flex_parser_params[i];
	return NULL;
}

/* A value as devlink hands it to a callback: only the parameter type's member
 * is set, the rest of the union is not zeroed
 */
static union devlink_param_value fp_u8(u8 v)
{
	union devlink_param_value val;

	memset(&val, 0xaa, sizeof(val));
	val.vu8 = v;
	return val;
}

static union devlink_param_value fp_bool(bool v)
{
	union devlink_param_value val;

	memset(&val, 0xaa, sizeof(val));
	val.vbool = v;
	return val;
}

/* Start a call: no access made yet, an empty extack */
static struct fp_test *fp_call(struct kunit *test)
{
	struct fp_test *t = test->priv;

	t->n = 0;
	memset(t->log, 0, sizeof(t->log));
	memset(&t->extack, 0, sizeof(t->extack));
	return t;
}

static int fp_get(struct kunit *test, u32 id, bool dflt,
		  union devlink_param_value *val)
{
	const struct devlink_param *p = fp_param(id);
	struct fp_test *t = fp_call(test);
	struct devlink_param_gset_ctx ctx = {
		.cmode = DEVLINK_PARAM_CMODE_PERMANENT,
	};
	int err;

	memset(&ctx.val, 0xaa, sizeof(ctx.val));
	if (dflt)
		err = p->get_default(t->devlink, id, &ctx, &t->extack);
	else
		err = p->get(t->devlink, id, &ctx, &t->extack);
	*val = ctx.val;
	return err;
}

static int fp_validate(struct kunit *test, u32 id,
		       union devlink_param_value val)
{
	struct fp_test *t = fp_call(test);

	return fp_param(id)->validate(t->devlink, id, &val, &t->extack);
}

static int fp_set(struct kunit *test, u32 id, union devlink_param_value val)
{
	struct fp_test *t = fp_call(test);
	struct devlink_param_gset_ctx ctx = {
		.val = val,
		.cmode = DEVLINK_PARAM_CMODE_PERMANENT,
	};

	return fp_param(id)->set(t->devlink, id, &ctx, &t->extack);
}

static int fp_reset(struct kunit *test, u32 id)
{
	struct fp_test *t = fp_call(test);

	return fp_param(id)->reset_default(t->devlink, id,
					   DEVLINK_PARAM_CMODE_PERMANENT,
					   &t->extack);
}

static void expect_msg(struct kunit *test, const char *msg)
{
	struct fp_test *t = test->priv;

	if (!msg) {
		KUNIT_EXPECT_NULL(test, t->extack._msg);
		return;
	}
	KUNIT_ASSERT_NOT_NULL(test, t->extack._msg);
	KUNIT_EXPECT_STREQ(test, t->extack._msg, msg);
}

/* A get wrote its parameter's member of the union and nothing else */
static void expect_val(struct kunit *test, const union devlink_param_value *val,
		       const union devlink_param_value want)
{
	KUNIT_EXPECT_MEMEQ(test, val, &want, sizeof(want));
}

/* Access @i read the item given by @hdr and @type */
static void expect_read(struct kunit *test, int i, u32 hdr, u32 type)
{
	struct fp_test *t = test->priv;

	KUNIT_ASSERT_LT(test, i, t->n);
	KUNIT_EXPECT_FALSE_MSG(test, t->log[i].write, "access %d", i);
	KUNIT_EXPECT_EQ_MSG(test, t->log[i].reg[0], hdr, "access %d", i);
	KUNIT_EXPECT_EQ_MSG(test, t->log[i].reg[1], type, "access %d", i);
}

/* Access @i wrote NV_FLEX_PARSER_CONF for the next boot, as read back from
 * the device, with dword 0 @dw0 and the port @port
 */
static void expect_write(struct kunit *test, int i, u32 dw0, u32 port)
{
	struct fp_test *t = test->priv;
	u32 want[DATA + CONF_DW] = {
		HDR_CONF_NEXT, TYPE_CONF, CRC, dw0, 0, port, 0, 0,
	};

	KUNIT_ASSERT_LT(test, i, t->n);
	KUNIT_EXPECT_TRUE_MSG(test, t->log[i].write, "access %d", i);
	KUNIT_EXPECT_MEMEQ(test, t->log[i].reg, want, sizeof(want));
}

static void expect_accesses(struct kunit *test, int n)
{
	struct fp_test *t = test->priv;

	KUNIT_EXPECT_EQ(test, t->n, n);
}

static void fp_params_table(struct kunit *test)
{
	static const struct {
		u32 id;
		const char *name;
		enum devlink_param_type type;
	} want[] = {
		{ MLX5_DEVLINK_PARAM_ID_FLEX_PARSER_PROFILE,
		  "flex_parser_profile", DEVLINK_PARAM_TYPE_U8 },
		{ MLX5_DEVLINK_PARAM_ID_PROG_PARSE_GRAPH,
		  "prog_parse_graph", DEVLINK_PARAM_TYPE_BOOL },
	};
	const struct devlink_param *p;
	int i;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		p = &mlx5_flex_parser_params[i];
		KUNIT_EXPECT_EQ(test, p->id, want[i].id);
		KUNIT_EXPECT_STREQ(test, p->name, want[i].name);
		KUNIT_EXPECT_EQ(test, p->type, want[i].type);
		KUNIT_EXPECT_FALSE(test, p->generic);
		KUNIT_EXPECT_EQ(test, p->supported_cmodes,
				BIT(DEVLINK_PARAM_CMODE_PERMANENT));
		KUNIT_EXPECT_NOT_NULL(test, p->get);
		KUNIT_EXPECT_NOT_NULL(test, p->set);
		KUNIT_EXPECT_NOT_NULL(test, p->validate);
		KUNIT_EXPECT_NOT_NULL(test, p->get_default);
		KUNIT_EXPECT_NOT_NULL(test, p->reset_default);
	}
}

/* get reads the value for the next boot */
static void fp_get_next(struct kunit *test)
{
	struct fp_test *t = test->priv;
	union devlink_param_value val;

	t->next[0] = CONF_GRAPH | 4;
	t->next[2] = PORT;
	t->dflt[0] = 2;

	KUNIT_EXPECT_EQ(test, fp_get(test, profile_id, false, &val), 0);
	expect_val(test, &val, fp_u8(4));
	expect_accesses(test, 1);
	expect_read(test, 0, HDR_CONF_NEXT, TYPE_CONF);
	expect_msg(test, NULL);

	KUNIT_EXPECT_EQ(test, fp_get(test, graph_id, false, &val), 0);
	expect_val(test, &val, fp_bool(true));
	expect_accesses(test, 1);
	expect_read(test, 0, HDR_CONF_NEXT, TYPE_CONF);
}

/* get_default reads the default, not the value for the next boot */
static void fp_get_default(struct kunit *test)
{
	struct fp_test *t = test->priv;
	union devlink_param_value val;

	t->next[0] = CONF_GRAPH | 4;
	t->next[2] = PORT;
	t->dflt[0] = 2;

	KUNIT_EXPECT_EQ(test, fp_get(test, profile_id, true, &val), 0);
	expect_val(test, &val, fp_u8(2));
	expect_accesses(test, 1);
	expect_read(test, 0, HDR_CONF_DEFAULT, TYPE_CONF);

	KUNIT_EXPECT_EQ(test, fp_get(test, graph_id, true, &val), 0);
	expect_val(test, &val, fp_bool(false));
	expect_accesses(test, 1);
	expect_read(test, 0, HDR_CONF_DEFAULT, TYPE_CONF);
}

/* Each parameter is its own field: reserved bits are part of neither */
static void fp_get_fields(struct kunit *test)
{
	static const struct {
		u32 dw0;
		u8 profile;
		bool graph;
	} cases[] = {
		{ CONF_GRAPH, 0, true },
		{ 3, 3, false },
		{ 0x7fffff00 | 7, 7, false },
		{ 0xff, 0xff, false },
	};
	struct fp_test *t = test->priv;
	union devlink_param_value val;
	int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		t->next[0] = cases[i].dw0;
		t->next[2] = 0xffff;
		KUNIT_EXPECT_EQ(test, fp_get(test, profile_id, false, &val), 0);
		KUNIT_EXPECT_EQ_MSG(test, val.vu8, cases[i].profile,
				    "dword 0x%08x", cases[i].dw0);
		expect_val(test, &val, fp_u8(cases[i].profile));
		KUNIT_EXPECT_EQ(test, fp_get(test, graph_id, false, &val), 0);
		KUNIT_EXPECT_EQ_MSG(test, val.vbool, cases[i].graph,
				    "dword 0x%08x", cases[i].dw0);
		expect_val(test, &val, fp_bool(cases[i].graph));
	}
}

/* A failed read is -EOPNOTSUPP, so that devlink's dump skips the parameter */
static void fp_get_read_fails(struct kunit *test)
{
	struct fp_test *t = test->priv;
	union devlink_param_value val;
	int dflt;

	t->fail_err = -EIO;
	for (dflt = 0; dflt <= 1; dflt++) {
		t->fail_at = 1;
		KUNIT_EXPECT_EQ(test, fp_get(test, profile_id, dflt, &val),
				-EOPNOTSUPP);
		expect_msg(test,
			   MSG("Failed to read flex parser configuration"));
		expect_accesses(test, 1);
		KUNIT_EXPECT_EQ(test, fp_get(test, graph_id, dflt, &val),
				-EOPNOTSUPP);
		expect_msg(test,
			   MSG("Failed to read flex parser configuration"));
	}
}

/* Validate profile @p, which the capability does or does not (@ok) allow */
static void expect_profile(struct kunit *test, int p, bool ok)
{
	union devlink_param_value val = fp_u8(p);
	char msg[NETLINK_MAX_FMTMSG_LEN];
	struct fp_test *t = test->priv;

	snprintf(msg, sizeof(msg),
		 MSG("Flex parser profile %d is not supported on this device"),
		 p);
	KUNIT_EXPECT_EQ_MSG(test, fp_validate(test, profile_id, val),
			    ok ? 0 : -EOPNOTSUPP, "cap 0x%08x profile %d",
			    t->cap, p);
	expect_msg(test, ok ? NULL : msg);
	expect_accesses(test, 1);
	expect_read(test, 0, HDR_CAP, TYPE_CAP);
}

/* Each profile is checked against its own capability bit, and only that */
static void fp_validate_profile_cap(struct kunit *test)
{
	struct fp_test *t = test->priv;
	int n, p;

	for (n = 0; n < NPROFILES; n++) {
		t->cap = CAP_PROFILE(n) | CAP_GRAPH;
		for (p = 0; p < NPROFILES; p++)
			expect_profile(test, p, p == n);

		t->cap = (CAP_ALL_PROFILES & ~CAP_PROFILE(n)) | CAP_GRAPH;
		for (p = 0; p < NPROFILES; p++)
			expect_profile(test, p, p != n);
	}
}

/* A profile past the capability's bits is refused whatever the device reports;
 * profile 10 (which BlueField-4 configurations set) is taken where its bit is
 */
static void fp_validate_range(struct kunit *test)
{
	struct fp_test *t = test->priv;
	int p;

	t->cap = CAP_ALL_PROFILES | CAP_GRAPH;
	for (p = NPROFILES; p <= U8_MAX; p++)
		expect_profile(test, p, false);

	t->cap = CAP_PROFILE(NPROFILES - 1);
	for (p = NPROFILES; p <= U8_MAX; p++)
		expect_profile(test, p, false);

	t->cap = CAP_PROFILE(9) | CAP_PROFILE(10);
	expect_profile(test, 9, true);
	expect_profile(test, 10, true);
	expect_profile(test, 11, false);
}

static void fp_validate_graph_cap(struct kunit *test)
{
	union devlink_param_value val = fp_bool(true);
	struct fp_test *t = test->priv;

	t->cap = CAP_GRAPH;
	KUNIT_EXPECT_EQ(test, fp_validate(test, graph_id, val), 0);
	expect_msg(test, NULL);
	expect_accesses(test, 1);
	expect_read(test, 0, HDR_CAP, TYPE_CAP);

	t->cap = CAP_ALL_PROFILES;
	KUNIT_EXPECT_EQ(test, fp_validate(test, graph_id, val), -EOPNOTSUPP);
	expect_msg(test,
		   "mlx5_core: Programmable parse graph is not supported on this device");
	expect_accesses(test, 1);
	expect_read(test, 0, HDR_CAP, TYPE_CAP);

	/* turning it off needs no capability, not even a readable one */
	val = fp_bool(false);
	t->fail_at = 1;
	t->fail_err = -EIO;
	KUNIT_EXPECT_EQ(test, fp_validate(test, graph_id, val), 0);
	expect_msg(test, NULL);
	expect_accesses(test, 0);
}

static void fp_validate_cap_read_fails(struct kunit *test)
{
	union devlink_param_value val = fp_u8(4);
	struct fp_test *t = test->priv;

	t->cap = CAP_ALL_PROFILES | CAP_GRAPH;
	t->fail_err = -EIO;
	t->fail_at = 1;
	KUNIT_EXPECT_EQ(test, fp_validate(test, profile_id, val), -EOPNOTSUPP);
	expect_msg(test, MSG("Failed to read flex parser capability"));
	expect_accesses(test, 1);

	val = fp_bool(true);
	t->fail_at = 1;
	KUNIT_EXPECT_EQ(test, fp_validate(test, graph_id, val), -EOPNOTSUPP);
	expect_msg(test, MSG("Failed to read flex parser capability"));
	expect_accesses(test, 1);
}

/* set reads the item for the next boot and writes it back with one field
 * changed: the header as read, the other field and the port unchanged
 */
static void fp_set_fields(struct kunit *test)
{
	union devlink_param_value val = fp_u8(4);
	struct fp_test *t = test->priv;

	t->next[0] = CONF_GRAPH;
	t->next[2] = PORT;
	t->dflt[0] = 0x55;
	KUNIT_EXPECT_EQ(test, fp_set(test, profile_id, val), 0);
	expect_msg(test, NULL);
	expect_accesses(test, 2);
	expect_read(test, 0, HDR_CONF_NEXT, TYPE_CONF);
	expect_write(test, 1, CONF_GRAPH | 4, PORT);

	val = fp_bool(false);
	KUNIT_EXPECT_EQ(test, fp_set(test, graph_id, val), 0);
	expect_accesses(test, 2);
	expect_read(test, 0, HDR_CONF_NEXT, TYPE_CONF);
	expect_write(test, 1, 4, PORT);

	val = fp_bool(true);
	KUNIT_EXPECT_EQ(test, fp_set(test, graph_id, val), 0);
	expect_accesses(test, 2);
	expect_write(test, 1, CONF_GRAPH | 4, PORT);

	val = fp_u8(0);
	KUNIT_EXPECT_EQ(test, fp_set(test, profile_id, val), 0);
	expect_accesses(test, 2);
	expect_write(test, 1, CONF_GRAPH, PORT);
}

static void fp_set_fails(struct kunit *test)
{
	union devlink_param_value val = fp_u8(4);
	struct fp_test *t = test->priv;

	t->next[2] = PORT;
	t->fail_err = -EIO;

	/* the item cannot be read: nothing is written */
	t->fail_at = 1;
	KUNIT_EXPECT_EQ(test, fp_set(test, profile_id, val), -EOPNOTSUPP);
	expect_msg(test, MSG("Failed to read flex parser configuration"));
	expect_accesses(test, 1);

	t->fail_at = 2;
	KUNIT_EXPECT_EQ(test, fp_set(test, profile_id, val), -EIO);
	expect_msg(test, MSG("Failed to write flex parser configuration"));
	expect_accesses(test, 2);
	expect_write(test, 1, 4, PORT);
	KUNIT_EXPECT_EQ(test, t->next[0], 0);
}

/* reset_default writes the default of its own field only, and reads no
 * capability: it works where the capability cannot be read
 */
static void fp_reset_default(struct kunit *test)
{
	struct fp_test *t = test->priv;

	t->next[0] = CONF_GRAPH | 4;
	t->next[2] = PORT;
	t->dflt[0] = CONF_GRAPH | 0;
	t->dflt[2] = 0x1234;
	KUNIT_EXPECT_EQ(test, fp_reset(test, profile_id), 0);
	expect_msg(test, NULL);
	expect_accesses(test, 3);
	expect_read(test, 0, HDR_CONF_DEFAULT, TYPE_CONF);
	expect_read(test, 1, HDR_CONF_NEXT, TYPE_CONF);
	expect_write(test, 2, CONF_GRAPH, PORT);

	t->next[0] = 4;
	t->dflt[0] = CONF_GRAPH | 9;
	KUNIT_EXPECT_EQ(test, fp_reset(test, graph_id), 0);
	expect_accesses(test, 3);
	expect_read(test, 0, HDR_CONF_DEFAULT, TYPE_CONF);
	expect_read(test, 1, HDR_CONF_NEXT, TYPE_CONF);
	expect_write(test, 2, CONF_GRAPH | 4, PORT);
}

static void fp_reset_default_fails(struct kunit *test)
{
	struct fp_test *t = test->priv;

	t->next[0] = 4;
	t->next[2] = PORT;
	t->fail_err = -ETIMEDOUT;

	t->fail_at = 1;
	KUNIT_EXPECT_EQ(test, fp_reset(test, profile_id), -EOPNOTSUPP);
	expect_msg(test, MSG("Failed to read flex parser configuration"));
	expect_accesses(test, 1);

	t->fail_at = 2;
	KUNIT_EXPECT_EQ(test, fp_reset(test, profile_id), -EOPNOTSUPP);
	expect_msg(test, MSG("Failed to read flex parser configuration"));
	expect_accesses(test, 2);

	t->fail_at = 3;
	KUNIT_EXPECT_EQ(test, fp_reset(test, graph_id), -ETIMEDOUT);
	expect_msg(test, MSG("Failed to write flex parser configuration"));
	expect_accesses(test, 3);
	KUNIT_EXPECT_EQ(test, t->next[0], 4);
}

/* With a shared devlink instance, set and reset_default read and write the
 * item under its lock, and release it
 */
static void fp_store_locks_shd(struct kunit *test)
{
	union devlink_param_value val = fp_u8(4);
	struct fp_test *t = test->priv;
	int i;

	t->shd = devlink_alloc(&fp_test_ops, 0, t->mdev->device);
	KUNIT_ASSERT_NOT_NULL(test, t->shd);
	t->mdev->shd = t->shd;

	KUNIT_EXPECT_EQ(test, fp_set(test, profile_id, val), 0);
	expect_accesses(test, 2);
	for (i = 0; i < t->n; i++)
		KUNIT_EXPECT_TRUE_MSG(test, t->log[i].shd_locked, "access %d",
				      i);
	KUNIT_EXPECT_EQ(test, devl_trylock(t->shd), 1);
	devl_unlock(t->shd);

	KUNIT_EXPECT_EQ(test, fp_reset(test, profile_id), 0);
	expect_accesses(test, 3);
	KUNIT_EXPECT_TRUE(test, t->log[1].shd_locked);
	KUNIT_EXPECT_TRUE(test, t->log[2].shd_locked);

	/* and on failure */
	t->fail_at = 1;
	t->fail_err = -EIO;
	KUNIT_EXPECT_EQ(test, fp_set(test, profile_id, val), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, devl_trylock(t->shd), 1);
	devl_unlock(t->shd);
	t->mdev->shd = NULL;
}

/* A request of @cmd to generic netlink family @family, to be completed with
 * its attributes and nlmsg_end()
 */
static struct sk_buff *fp_nl_new(struct kunit *test, u16 family, u8 cmd,
				 struct nlmsghdr **nlh)
{
	struct genlmsghdr *hdr;
	struct sk_buff *skb;

	skb = nlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	*nlh = nlmsg_put(skb, 0, 1, family, GENL_HDRLEN, NLM_F_REQUEST);
	KUNIT_ASSERT_NOT_NULL(test, *nlh);
	hdr = nlmsg_data(*nlh);
	hdr->cmd = cmd;
	hdr->version = 1;
	return skb;
}

/* Send @req and return the reply, or the error, that it gets */
static struct nlmsghdr *fp_nl_request(struct kunit *test, struct sk_buff *req)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct msghdr msg = {
		.msg_name = &kernel,
		.msg_namelen = sizeof(kernel),
	};
	struct fp_test *t = test->priv;
	struct kvec iov = {
		.iov_base = req->data,
		.iov_len = req->len,
	};
	int len, sent;

	sent = kernel_sendmsg(t->nl, &msg, &iov, 1, req->len);
	len = req->len;
	kfree_skb(req);
	KUNIT_ASSERT_EQ(test, sent, len);

	/* the kernel side answers before sendmsg returns */
	memset(&msg, 0, sizeof(msg));
	iov.iov_base = t->nl_buf;
	iov.iov_len = NL_BUF_LEN;
	len = kernel_recvmsg(t->nl, &msg, &iov, 1, NL_BUF_LEN, MSG_DONTWAIT);
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_ASSERT_TRUE(test, nlmsg_ok(t->nl_buf, len));
	return t->nl_buf;
}

static const struct nlattr *fp_nl_attrs(const struct nlmsghdr *nlh, int *len)
{
	*len = nlmsg_len(nlh) - GENL_HDRLEN;
	return nlmsg_data(nlh) + GENL_HDRLEN;
}

/* Make the test's devlink instance visible to netlink, as the driver's is
 * after probe, and open a generic netlink socket that finds devlink
 */
static void fp_nl_open(struct kunit *test)
{
	struct fp_test *t = test->priv;
	const struct nlattr *attrs, *id;
	struct nlmsghdr *nlh;
	struct sk_buff *req;
	int len;

	t->nl_buf = kunit_kzalloc(test, NL_BUF_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->nl_buf);
	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, AF_NETLINK, SOCK_RAW,
					       NETLINK_GENERIC, &t->nl), 0);
	devlink_register(t->devlink);

	req = fp_nl_new(test, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, &nlh);
	KUNIT_ASSERT_EQ(test, nla_put_string(req, CTRL_ATTR_FAMILY_NAME,
					     DEVLINK_GENL_NAME), 0);
	nlmsg_end(req, nlh);
	nlh = fp_nl_request(test, req);
	KUNIT_ASSERT_EQ(test, nlh->nlmsg_type, GENL_ID_CTRL);
	attrs = fp_nl_attrs(nlh, &len);
	id = nla_find(attrs, len, CTRL_ATTR_FAMILY_ID);
	KUNIT_ASSERT_NOT_NULL(test, id);
	t->family = nla_get_u16(id);
}

/* DEVLINK_CMD_PARAM_GET of @name on the test's instance, as devlink(8) sends
 * it: 0 and the reply's DEVLINK_ATTR_PARAM in @param, or devlink's error
 */
static int fp_nl_param_get(struct kunit *test, const char *name,
			   const struct nlattr **param)
{
	struct fp_test *t = fp_call(test);
	struct device *dev = devlink_to_dev(t->devlink);
	const struct nlattr *attrs;
	struct nlmsghdr *nlh;
	struct sk_buff *req;
	int len;

	req = fp_nl_new(test, t->family, DEVLINK_CMD_PARAM_GET, &nlh);
	KUNIT_ASSERT_EQ(test, nla_put_string(req, DEVLINK_ATTR_BUS_NAME,
					     dev_bus_name(dev)), 0);
	KUNIT_ASSERT_EQ(test, nla_put_string(req, DEVLINK_ATTR_DEV_NAME,
					     dev_name(dev)), 0);
	KUNIT_ASSERT_EQ(test, nla_put_string(req, DEVLINK_ATTR_PARAM_NAME,
					     name), 0);
	nlmsg_end(req, nlh);
	nlh = fp_nl_request(test, req);
	*param = NULL;
	if (nlh->nlmsg_type == NLMSG_ERROR)
		return ((struct nlmsgerr *)nlmsg_data(nlh))->error;

	KUNIT_ASSERT_EQ(test, nlh->nlmsg_type, t->family);
	attrs = fp_nl_attrs(nlh, &len);
	*param = nla_find(attrs, len, DEVLINK_ATTR_PARAM);
	KUNIT_ASSERT_NOT_NULL(test, *param);
	return 0;
}

/* @param, as devlink reports it, is the driver's parameter @name of @type,
 * permanent only, with @val for the next boot and the device's default @dflt
 */
static void expect_nl_param(struct kunit *test, const struct nlattr *param,
			    const char *name, enum devlink_param_type type,
			    u8 val, u8 dflt)
{
	const struct nlattr *a, *v, *list, *value = NULL;
	int rem, n = 0;

	a = nla_find_nested(param, DEVLINK_ATTR_PARAM_NAME);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_EXPECT_STREQ(test, (char *)nla_data(a), name);
	KUNIT_EXPECT_NULL(test, nla_find_nested(param,
						DEVLINK_ATTR_PARAM_GENERIC));
	a = nla_find_nested(param, DEVLINK_ATTR_PARAM_TYPE);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_EXPECT_EQ(test, nla_get_u8(a), type);

	/* one value per configuration mode: permanent only */
	list = nla_find_nested(param, DEVLINK_ATTR_PARAM_VALUES_LIST);
	KUNIT_ASSERT_NOT_NULL(test, list);
	nla_for_each_nested(v, list, rem) {
		KUNIT_EXPECT_EQ(test, nla_type(v), DEVLINK_ATTR_PARAM_VALUE);
		value = v;
		n++;
	}
	KUNIT_ASSERT_EQ(test, n, 1);
	a = nla_find_nested(value, DEVLINK_ATTR_PARAM_VALUE_CMODE);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_EXPECT_EQ(test, nla_get_u8(a), DEVLINK_PARAM_CMODE_PERMANENT);

	/* a bool's value is a flag, present when true; its default a u8 */
	a = nla_find_nested(value, DEVLINK_ATTR_PARAM_VALUE_DATA);
	if (type == DEVLINK_PARAM_TYPE_BOOL) {
		KUNIT_EXPECT_EQ(test, !!a, !!val);
		if (a)
			KUNIT_EXPECT_EQ(test, nla_len(a), 0);
	} else {
		KUNIT_ASSERT_NOT_NULL(test, a);
		KUNIT_EXPECT_EQ(test, nla_len(a), 1);
		KUNIT_EXPECT_EQ(test, nla_get_u8(a), val);
	}
	a = nla_find_nested(value, DEVLINK_ATTR_PARAM_VALUE_DEFAULT);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_EXPECT_EQ(test, nla_len(a), 1);
	KUNIT_EXPECT_EQ(test, nla_get_u8(a), dflt);
}

/* Both parameters are registered, each as itself: devlink answers for each
 * name with its type and mode and the values the device holds, read through
 * the parameter's own get and get_default
 */
static void expect_registered(struct kunit *test)
{
	const struct nlattr *param;
	struct fp_test *t = test->priv;

	t->next[0] = CONF_GRAPH | 4;
	t->dflt[0] = 2;
	KUNIT_ASSERT_EQ(test, fp_nl_param_get(test, "flex_parser_profile",
					      &param), 0);
	expect_nl_param(test, param, "flex_parser_profile",
			DEVLINK_PARAM_TYPE_U8, 4, 2);
	expect_accesses(test, 2);
	expect_read(test, 0, HDR_CONF_NEXT, TYPE_CONF);
	expect_read(test, 1, HDR_CONF_DEFAULT, TYPE_CONF);

	KUNIT_ASSERT_EQ(test, fp_nl_param_get(test, "prog_parse_graph", &param),
			0);
	expect_nl_param(test, param, "prog_parse_graph",
			DEVLINK_PARAM_TYPE_BOOL, true, false);
	expect_accesses(test, 2);
	expect_read(test, 0, HDR_CONF_NEXT, TYPE_CONF);
	expect_read(test, 1, HDR_CONF_DEFAULT, TYPE_CONF);
}

/* Neither parameter is registered: devlink knows neither name */
static void expect_unregistered(struct kunit *test)
{
	const struct nlattr *param;

	KUNIT_EXPECT_EQ(test, fp_nl_param_get(test, "flex_parser_profile",
					      &param), -EINVAL);
	KUNIT_EXPECT_EQ(test, fp_nl_param_get(test, "prog_parse_graph", &param),
			-EINVAL);
	expect_accesses(test, 0);
}

static int fp_register(struct kunit *test)
{
	struct fp_test *t = test->priv;
	int err;

	devl_lock(t->devlink);
	err = mlx5_nv_param_register_dl_params(t->devlink);
	devl_unlock(t->devlink);
	return err;
}

static void fp_unregister(struct kunit *test)
{
	struct fp_test *t = test->priv;

	devl_lock(t->devlink);
	mlx5_nv_param_unregister_dl_params(t->devlink);
	devl_unlock(t->devlink);
}

/* nv_param.c registers the two parameters with its own on a PF and
 * unregisters all of them at teardown, so that the driver's next register (a
 * devlink reload, a probe after a remove) finds none left: a parameter left
 * registered fails it with -EBUSY.
 */
static void fp_register_params(struct kunit *test)
{
	int i;

	fp_nl_open(test);
	expect_unregistered(test);
	for (i = 0; i < 2; i++) {
		KUNIT_ASSERT_EQ_MSG(test, fp_register(test), 0, "register %d",
				    i);
		expect_registered(test);
		fp_unregister(test);
		expect_unregistered(test);
	}
}

static int fp_blocker_get(struct devlink *devlink, u32 id,
			  struct devlink_param_gset_ctx *ctx,
			  struct netlink_ext_ack *extack)
{
	return -EOPNOTSUPP;
}

static int fp_blocker_set(struct devlink *devlink, u32 id,
			  struct devlink_param_gset_ctx *ctx,
			  struct netlink_ext_ack *extack)
{
	return -EOPNOTSUPP;
}

/* A failed registration leaves nothing registered. Another parameter on the
 * id of the first, then of the second flex parser parameter fails their
 * registration with -EBUSY, after nv_param.c registered its own: those and
 * the first flex parser parameter are unregistered again, so that the next
 * registration, without the other parameter, succeeds.
 */
static void fp_register_unwinds(struct kunit *test)
{
	static const struct devlink_param blockers[] = {
		DEVLINK_PARAM_DRIVER(MLX5_DEVLINK_PARAM_ID_FLEX_PARSER_PROFILE,
				     "fp_test_blocker", DEVLINK_PARAM_TYPE_BOOL,
				     BIT(DEVLINK_PARAM_CMODE_RUNTIME),
				     fp_blocker_get, fp_blocker_set, NULL),
		DEVLINK_PARAM_DRIVER(MLX5_DEVLINK_PARAM_ID_PROG_PARSE_GRAPH,
				     "fp_test_blocker", DEVLINK_PARAM_TYPE_BOOL,
				     BIT(DEVLINK_PARAM_CMODE_RUNTIME),
				     fp_blocker_get, fp_blocker_set, NULL),
	};
	struct fp_test *t = test->priv;
	int i;

	fp_nl_open(test);
	for (i = 0; i < ARRAY_SIZE(blockers); i++) {
		devl_lock(t->devlink);
		KUNIT_ASSERT_EQ(test, devl_params_register(t->devlink,
							   &blockers[i], 1), 0);
		devl_unlock(t->devlink);

		KUNIT_EXPECT_EQ_MSG(test, fp_register(test), -EBUSY,
				    "blocker %d", i);
		expect_unregistered(test);

		devl_lock(t->devlink);
		devl_params_unregister(t->devlink, &blockers[i], 1);
		devl_unlock(t->devlink);
		KUNIT_ASSERT_EQ_MSG(test, fp_register(test), 0, "blocker %d",
				    i);
		expect_registered(test);
		fp_unregister(test);
		expect_unregistered(test);
	}
}

/* A VF registers neither parameter */
static void fp_register_vf(struct kunit *test)
{
	struct fp_test *t = test->priv;

	fp_nl_open(test);
	t->mdev->coredev_type = MLX5_COREDEV_VF;
	KUNIT_EXPECT_EQ(test, fp_register(test), 0);
	expect_unregistered(test);
	fp_unregister(test);
}

static struct kunit_case fp_test_cases[] = {
	KUNIT_CASE(fp_params_table),
	KUNIT_CASE(fp_get_next),
	KUNIT_CASE(fp_get_default),
	KUNIT_CASE(fp_get_fields),
	KUNIT_CASE(fp_get_read_fails),
	KUNIT_CASE(fp_validate_range),
	KUNIT_CASE(fp_validate_profile_cap),
	KUNIT_CASE(fp_validate_graph_cap),
	KUNIT_CASE(fp_validate_cap_read_fails),
	KUNIT_CASE(fp_set_fields),
	KUNIT_CASE(fp_set_fails),
	KUNIT_CASE(fp_reset_default),
	KUNIT_CASE(fp_reset_default_fails),
	KUNIT_CASE(fp_store_locks_shd),
	KUNIT_CASE(fp_register_params),
	KUNIT_CASE(fp_register_unwinds),
	KUNIT_CASE(fp_register_vf),
	{}
};

static struct kunit_suite fp_test_suite = {
	.name = "mlx5_flex_parser_param",
	.init = fp_test_init,
	.exit = fp_test_exit,
	.test_cases = fp_test_cases,
};

kunit_test_suite(fp_test_suite);

MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
MODULE_DESCRIPTION("KUnit tests of the mlx5 flex parser devlink parameters");
MODULE_LICENSE("Dual BSD/GPL");
