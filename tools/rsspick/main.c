// SPDX-License-Identifier: GPL-2.0
/*
 * rsspick - print UDP source ports whose Toeplitz RSS hash lands on a
 * chosen receive queue.  Run "rsspick --help" for the manual.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "rsspick.h"
#include "rsssrc.h"

#define PROC_KEY	"/proc/sys/net/core/netdev_rss_key"

static const char help_text[] =
"NAME\n"
"    rsspick - choose UDP source ports that land on a chosen RSS queue\n"
"\n"
"SYNOPSIS\n"
"    rsspick SOURCE --src ADDR --dst ADDR --dport PORT --queue Q\n"
"            [--range LO-HI] [--count N | --near PORT] [--json]\n"
"    rsspick SOURCE --hash --src ADDR --dst ADDR\n"
"            (--sport PORT --dport PORT | --no-ports) [--json]\n"
"\n"
"    SOURCE is --dev IFNAME [--context N], or --ethtool-x FILE, or\n"
"    --indir LIST, each optionally with --key HEX, --key-file FILE or\n"
"    --proc-key to supply or override the hash key.\n"
"\n"
"DESCRIPTION\n"
"    The receiving NIC hashes saddr, daddr, sport, dport (in that order)\n"
"    with the Toeplitz function and delivers the packet to queue\n"
"    indir[hash % table_size].  For tunnels and protocols carried over\n"
"    UDP (VXLAN, PSP, QUIC, Homa) the sender picks the source port.\n"
"    rsspick lists the source ports whose packets the receiver steers to\n"
"    queue Q.  Addresses and ports are those of the packet as the\n"
"    receiver sees it: --src is the sender, --dst the receiver.  An input\n"
"    transformation the receiver reports (--dev, --ethtool-x) is hashed\n"
"    as it does: symmetric-xor (src ^ dst in place of each address and\n"
"    port) or symmetric-or-xor (src | dst in place of the source ones,\n"
"    src ^ dst of the destination ones).\n"
"\n"
"    Toeplitz is linear over GF(2), so the ports are found by solving a\n"
"    16-variable linear system (power-of-two tables) or by enumerating\n"
"    the affine image of the port bits (other table sizes), not by\n"
"    hashing every port from scratch.  The hash and the solver are those\n"
"    of the kernel's net/core/toeplitz.c, compiled into rsspick.\n"
"\n"
"RSS CONFIGURATION\n"
"    -i, --dev IFNAME\n"
"        Read key, table, hash function and input transformation from\n"
"        the device (the ETHTOOL_GRSSH ioctl, as ethtool -x), and\n"
"        rx-flow-hash for udp4/udp6 (ETHTOOL_GRXFH).\n"
"    -C, --context N\n"
"        Use RSS context N (for flows steered by an ntuple rule with\n"
"        \"context N\").  Default 0.\n"
"    --ethtool-x FILE\n"
"        Parse the output of \"ethtool -x IFNAME [context N]\" saved in\n"
"        FILE (\"-\" reads standard input).\n"
"    --key HEX\n"
"        Hash key as colon-separated bytes (6d:5a:56:...) or plain hex.\n"
"        At least 16 bytes for IPv4, 40 for IPv6.\n"
"    --key-file FILE\n"
"        Read the key in the same format from FILE.\n"
"    --proc-key\n"
"        Same as --key-file " PROC_KEY ",\n"
"        the host-wide default key most drivers use.\n"
"    --indir LIST\n"
"        Indirection table: queue numbers separated by commas or spaces,\n"
"        or \"equal N\" to spread N queues round-robin like\n"
"        \"ethtool -X IFNAME equal N\".\n"
"    --indir-size S\n"
"        Table size for \"equal N\": the device's (ethtool -x shows it;\n"
"        mlx5 tables have at least 256 entries).  Required unless --dev\n"
"        or --ethtool-x gives a table, whose size is then used.\n"
"    --force\n"
"        Turn receiver precondition failures into warnings.\n"
"\n"
"FLOW\n"
"    -s, --src ADDR       Sender (packet source) IPv4 or IPv6 address.\n"
"                         IPv4-mapped IPv6 (::ffff:a.b.c.d) is hashed as\n"
"                         the IPv4 packet a dual-stack socket sends.\n"
"    -d, --dst ADDR       Receiver (packet destination) address.\n"
"    -p, --proto udp      The protocol; rsspick knows UDP only.\n"
"    -D, --dport PORT     UDP destination port.\n"
"    -q, --queues Q       Receive queue the packets must land on (one;\n"
"                         --queue is the same).\n"
"\n"
"SELECTION\n"
"    --range LO-HI        Only ports in LO..HI (default 32768-60999, the\n"
"                         ephemeral range of Linux's default\n"
"                         net.ipv4.ip_local_port_range; --range 1-65535\n"
"                         for every port, privileged ones included).\n"
"    -n, --count N        Only the N lowest ports of the range.\n"
"    --near PORT          Only the port of the range nearest to PORT\n"
"                         (the lower one on a tie).\n"
"\n"
"HASH MODE\n"
"    --hash               Print the hash, table index and queue of one\n"
"                         flow instead of choosing ports.\n"
"    -S, --sport PORT     Source port for --hash.\n"
"    --no-ports           Hash the address 2-tuple only.\n"
"\n"
"OUTPUT\n"
"    -j, --json           One JSON object on standard output.\n"
"    --verbose            Describe the solve on standard error.\n"
"    -h, --help           This text.\n"
"    -V, --version        The version.\n"
"\n"
"    Without --json, ports are printed one per line, ascending (or the\n"
"    single --near port).\n"
"\n"
"RECEIVER PRECONDITIONS\n"
"    The answer is only right if the receiver hashes the way rsspick\n"
"    models it.  With --dev or --ethtool-x, rsspick refuses to answer\n"
"    (unless --force) when:\n"
"      - the hash function is not toeplitz  (ethtool -X DEV hfunc toeplitz)\n"
"      - an input transformation other than symmetric-xor or\n"
"        symmetric-or-xor is on, or both (ethtool -X DEV xfrm none)\n"
"      - rx-flow-hash udp4/udp6 is not exactly sdfn\n"
"                              (ethtool -N DEV rx-flow-hash udp4 sdfn)\n"
"    and warns about what it could not read and assumes: ethtool -x\n"
"    shows no rx-flow-hash, and before ethtool 6.8 no input\n"
"    transformation.\n"
"    Flows steered by an ntuple rule to \"context N\" use that context's\n"
"    key and table: pass --context N.\n"
"\n"
"EXIT STATUS\n"
"    0 ports (or a hash) printed; 1 error (device, file, receiver\n"
"    configuration) or no port satisfies the request; 2 bad usage,\n"
"    including a malformed --key, --indir or --indir-size.  Errors are\n"
"    one line on standard error.\n"
"\n"
"EXAMPLES\n"
"    rsspick --dev eth0 -s 192.0.2.1 -d 192.0.2.2 -D 4789 -q 3 -n 4\n"
"    rsspick --ethtool-x eth0-x.txt --proc-key -s 2001:db8::1 \\\n"
"            -d 2001:db8::2 -D 1000 -q 5 --near 40000\n"
"    rsspick --indir 'equal 8' --indir-size 256 --key 6d:5a:56:da:... \\\n"
"            -s 10.0.0.1 -d 10.0.0.2 -D 443 -q 2 --range 32768-60999 --json\n";

/* Long-only options */
enum {
	OPT_ETHTOOL_X = 256,
	OPT_KEY,
	OPT_KEY_FILE,
	OPT_PROC_KEY,
	OPT_INDIR,
	OPT_INDIR_SIZE,
	OPT_FORCE,
	OPT_PROTO,
	OPT_RANGE,
	OPT_NEAR,
	OPT_HASH,
	OPT_NO_PORTS,
	OPT_VERBOSE,
};

static const struct option long_opts[] = {
	{ "dev",	required_argument, NULL, 'i' },
	{ "context",	required_argument, NULL, 'C' },
	{ "ethtool-x",	required_argument, NULL, OPT_ETHTOOL_X },
	{ "key",	required_argument, NULL, OPT_KEY },
	{ "key-file",	required_argument, NULL, OPT_KEY_FILE },
	{ "proc-key",	no_argument,	   NULL, OPT_PROC_KEY },
	{ "indir",	required_argument, NULL, OPT_INDIR },
	{ "indir-size",	required_argument, NULL, OPT_INDIR_SIZE },
	{ "force",	no_argument,	   NULL, OPT_FORCE },
	{ "src",	required_argument, NULL, 's' },
	{ "dst",	required_argument, NULL, 'd' },
	{ "proto",	required_argument, NULL, OPT_PROTO },
	{ "dport",	required_argument, NULL, 'D' },
	{ "sport",	required_argument, NULL, 'S' },
	{ "queues",	required_argument, NULL, 'q' },
	{ "queue",	required_argument, NULL, 'q' },
	{ "range",	required_argument, NULL, OPT_RANGE },
	{ "count",	required_argument, NULL, 'n' },
	{ "near",	required_argument, NULL, OPT_NEAR },
	{ "hash",	no_argument,	   NULL, OPT_HASH },
	{ "no-ports",	no_argument,	   NULL, OPT_NO_PORTS },
	{ "json",	no_argument,	   NULL, 'j' },
	{ "verbose",	no_argument,	   NULL, OPT_VERBOSE },
	{ "help",	no_argument,	   NULL, 'h' },
	{ "version",	no_argument,	   NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

struct opts {
	const char *dev;
	uint32_t context;
	const char *ethtool_x;
	const char *key;
	const char *key_file;
	const char *indir;
	uint32_t indir_size;
	bool force;
	const char *saddr_s, *daddr_s;
	bool have_dport, have_sport, have_queue;
	uint16_t dport, sport;
	uint32_t queue;
	uint16_t lo, hi;
	bool have_count, have_near;
	uint32_t count;
	uint16_t near;
	bool hash, no_ports, json, verbose;
};

static const char *prog = "rsspick";

static __attribute__((format(printf, 2, 3)))
int die(int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	/* 2 is bad usage: say where the usage is */
	fputs(code == 2 ? " (rsspick --help)\n" : "\n", stderr);
	return code;
}

static int parse_num(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	if (!s || !*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	*v = strtoul(s, &end, 10);
	if (errno || *end || *v > max)
		return -1;
	return 0;
}

static int parse_port(const char *s, uint16_t *p)
{
	unsigned long v;

	if (parse_num(s, 65535, &v))
		return -1;
	*p = v;
	return 0;
}

static int parse_range(const char *s, uint16_t *lo, uint16_t *hi)
{
	char buf[32], *sep;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	sep = strchr(buf, '-');
	if (!sep)
		sep = strchr(buf, ':');
	if (!sep)
		return -1;
	*sep = '\0';
	if (parse_port(buf, lo) || parse_port(sep + 1, hi) || *lo > *hi)
		return -1;
	return 0;
}

static int parse_addr(const char *s, int *family, uint8_t out[16])
{
	memset(out, 0, 16);
	if (inet_pton(AF_INET, s, out) == 1) {
		*family = AF_INET;
		return 0;
	}
	if (inet_pton(AF_INET6, s, out) == 1) {
		static const uint8_t mapped[12] = { [10] = 0xff, [11] = 0xff };

		*family = AF_INET6;
		if (!memcmp(out, mapped, 12)) {	/* on the wire it is IPv4 */
			*family = AF_INET;
			memmove(out, out + 12, 4);
			memset(out + 4, 0, 12);
		}
		return 0;
	}
	return -1;
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	unsigned long v;
	int c;

	memset(o, 0, sizeof(*o));
	o->lo = 32768;	/* Linux's default ephemeral range */
	o->hi = 60999;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:C:s:d:p:D:S:q:n:jhV",
				long_opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			o->dev = optarg;
			break;
		case 'C':
			if (parse_num(optarg, UINT32_MAX, &v))
				return die(2, "bad --context '%s'", optarg);
			o->context = v;
			break;
		case OPT_ETHTOOL_X:
			o->ethtool_x = optarg;
			break;
		case OPT_KEY:
			o->key = optarg;
			break;
		case OPT_KEY_FILE:
			o->key_file = optarg;
			break;
		case OPT_PROC_KEY:
			o->key_file = PROC_KEY;
			break;
		case OPT_INDIR:
			o->indir = optarg;
			break;
		case OPT_INDIR_SIZE:
			if (parse_num(optarg, RSSPICK_MAX_INDIR, &v) || !v)
				return die(2, "bad --indir-size '%s': want 1..%u",
					   optarg, RSSPICK_MAX_INDIR);
			o->indir_size = v;
			break;
		case OPT_FORCE:
			o->force = true;
			break;
		case 's':
			o->saddr_s = optarg;
			break;
		case 'd':
			o->daddr_s = optarg;
			break;
		case 'p':
		case OPT_PROTO:
			if (strcmp(optarg, "udp") && strcmp(optarg, "17"))
				return die(2, "bad --proto '%s': rsspick picks UDP source ports, want udp",
					   optarg);
			break;
		case 'D':
			if (parse_port(optarg, &o->dport))
				return die(2, "bad --dport '%s': want 0..65535",
					   optarg);
			o->have_dport = true;
			break;
		case 'S':
			if (parse_port(optarg, &o->sport))
				return die(2, "bad --sport '%s': want 0..65535",
					   optarg);
			o->have_sport = true;
			break;
		case 'q':
			if (parse_num(optarg, UINT32_MAX, &v))
				return die(2, "bad --queues '%s': want one queue number",
					   optarg);
			o->queue = v;
			o->have_queue = true;
			break;
		case OPT_RANGE:
			if (parse_range(optarg, &o->lo, &o->hi))
				return die(2, "bad --range '%s': want LO-HI, 0 <= LO <= HI <= 65535",
					   optarg);
			break;
		case 'n':
			if (parse_num(optarg, RSSPICK_NPORTS, &v) || !v)
				return die(2, "bad --count '%s': want 1..65536",
					   optarg);
			o->count = v;
			o->have_count = true;
			break;
		case OPT_NEAR:
			if (parse_port(optarg, &o->near))
				return die(2, "bad --near '%s': want 0..65535",
					   optarg);
			o->have_near = true;
			break;
		case OPT_HASH:
			o->hash = true;
			break;
		case OPT_NO_PORTS:
			o->no_ports = true;
			break;
		case 'j':
			o->json = true;
			break;
		case OPT_VERBOSE:
			o->verbose = true;
			break;
		case 'h':
			fputs(help_text, stdout);
			exit(0);
		case 'V':
			printf("rsspick %s\n", RSSPICK_VERSION);
			exit(0);
		case ':':
			if (!strncmp(argv[optind - 1], "--", 2))
				return die(2, "option '%s' needs an argument",
					   argv[optind - 1]);
			return die(2, "option '-%c' needs an argument", optopt);
		default:
			if (optopt && optopt < 256)
				return die(2, "unknown option '-%c'", optopt);
			return die(2, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return die(2, "unexpected argument '%s'", argv[optind]);
	if (!o->dev && !o->ethtool_x && !o->indir)
		return die(2, "no RSS configuration: use --dev, --ethtool-x or --indir");
	if (o->dev && o->ethtool_x)
		return die(2, "--dev and --ethtool-x are mutually exclusive");
	if (o->context && !o->dev)
		return die(2, "--context goes with --dev; for --ethtool-x record \"ethtool -x DEV context N\"");
	if (o->key && o->key_file)
		return die(2, "--key and --key-file/--proc-key are mutually exclusive");
	if (!o->saddr_s || !o->daddr_s)
		return die(2, "--src and --dst are required");
	if (o->hash) {
		if (!o->no_ports && (!o->have_sport || !o->have_dport))
			return die(2, "--hash needs --sport and --dport, or --no-ports");
		return 0;
	}
	if (o->no_ports || o->have_sport)
		return die(2, "--no-ports and --sport only go with --hash");
	if (!o->have_dport || !o->have_queue)
		return die(2, "--dport and --queue are required");
	if (o->have_count && o->have_near)
		return die(2, "--count and --near are mutually exclusive");
	return 0;
}

static int load_conf(const struct opts *o, int family, struct rss_conf *c)
{
	char err[512];
	char *text;

	memset(c, 0, sizeof(*c));
	if (o->dev) {
		if (rss_read_dev(o->dev, o->context, family, c, err,
				 sizeof(err)))
			return die(1, "%s", err);
	} else if (o->ethtool_x) {
		if (rss_read_file(o->ethtool_x, &text, err, sizeof(err)))
			return die(1, "%s", err);
		if (rss_parse_ethtool_x(text, c, err, sizeof(err))) {
			free(text);
			return die(1, "%s: %s", o->ethtool_x, err);
		}
		free(text);
	} else {
		snprintf(c->source, sizeof(c->source), "command line");
	}

	if (o->indir) {
		uint32_t size = o->indir_size ? o->indir_size : c->indir_size;

		free(c->indir);
		c->indir = NULL;
		if (rss_parse_indir(o->indir, size, &c->indir, &c->indir_size,
				    err, sizeof(err)))
			return die(2, "%s", err);
	}
	if (o->key || o->key_file) {
		free(c->key);
		c->key = NULL;
		if (o->key_file) {
			if (rss_read_file(o->key_file, &text, err,
					  sizeof(err)))
				return die(1, "%s", err);
			if (rss_parse_key(text, &c->key, &c->key_len, err,
					  sizeof(err))) {
				free(text);
				return die(1, "%s: %s", o->key_file, err);
			}
			free(text);
		} else if (rss_parse_key(o->key, &c->key, &c->key_len, err,
					 sizeof(err))) {
			return die(2, "%s", err);
		}
	}
	if (!c->indir_size)
		return die(1, "%s: no indirection table (RSS not supported or single queue); give one with --indir",
			   o->dev ? o->dev : o->ethtool_x);
	if (!c->key)
		return die(1, "no RSS key: %s reports none; give one with --key, --key-file or --proc-key",
			   o->dev ? o->dev : o->ethtool_x ? o->ethtool_x :
			   "the command line");
	return 0;
}

static void print_addr(int family, const uint8_t *a)
{
	char buf[INET6_ADDRSTRLEN];

	inet_ntop(family, a, buf, sizeof(buf));
	fputs(buf, stdout);
}

static void json_head(const struct opts *o, const struct rsspick_tuple *t,
		      const struct rss_conf *c)
{
	printf("{\"family\":\"%s\",\"saddr\":\"",
	       t->family == AF_INET ? "ipv4" : "ipv6");
	print_addr(t->family, t->saddr);
	printf("\",\"daddr\":\"");
	print_addr(t->family, t->daddr);
	printf("\",\"source\":\"%s\",\"context\":%u,\"key_len\":%zu,\"table_size\":%u",
	       c->source, o->context, c->key_len, c->indir_size);
}

/*
 * The input transformation the hash and the solver take: symmetric-xor or
 * symmetric-or-xor as the receiver reports it; anything else passed only
 * with --force, as none (the warning says so).
 */
static uint8_t conf_xfrm(const struct rss_conf *c)
{
	return c->input_xfrm == RSSPICK_XFRM_SYM_XOR ||
	       c->input_xfrm == RSSPICK_XFRM_SYM_OR_XOR ? c->input_xfrm : 0;
}

static int do_hash(const struct opts *o, const struct rsspick_tuple *t,
		   const struct rss_conf *c)
{
	struct rsspick_rss rss = {
		.key = c->key, .key_len = c->key_len,
		.indir = c->indir, .indir_size = c->indir_size,
		.input_xfrm = conf_xfrm(c),
	};
	uint32_t h, idx;
	int err;

	err = rsspick_flow_hash(&rss, t, !o->no_ports, &h);
	if (err)
		return die(1, "%s (key is %zu bytes)", rsspick_strerror(err),
			   c->key_len);
	err = rsspick_check(&rss, t->family);
	if (err && err != -RSSPICK_EKEYLEN)
		return die(1, "%s", rsspick_strerror(err));
	idx = h % c->indir_size;
	if (o->json) {
		json_head(o, t, c);
		if (!o->no_ports)
			printf(",\"sport\":%u,\"dport\":%u", t->sport,
			       t->dport);
		printf(",\"hash\":\"0x%08x\",\"index\":%u,\"queue\":%u}\n",
		       h, idx, c->indir[idx]);
	} else {
		printf("hash 0x%08x index %u queue %u\n", h, idx,
		       c->indir[idx]);
	}
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The distinct queues of the table, ascending, the first 32 of them. */
static void print_queues(const struct rss_conf *c, char *buf, size_t len)
{
	uint32_t *q = malloc(sizeof(*q) * c->indir_size), i, n = 0;
	size_t off = 0;

	buf[0] = '\0';
	if (!q)
		return;
	memcpy(q, c->indir, sizeof(*q) * c->indir_size);
	qsort(q, c->indir_size, sizeof(*q), cmp_u32);
	for (i = 0; i < c->indir_size && off + 16 < len; i++) {
		if (i && q[i] == q[i - 1])
			continue;
		if (n++ == 32) {
			snprintf(buf + off, len - off, " ...");
			break;
		}
		off += snprintf(buf + off, len - off, "%s%u", off ? " " : "",
				q[i]);
	}
	free(q);
}

static int do_pick(const struct opts *o, const struct rsspick_tuple *t,
		   const struct rss_conf *c)
{
	struct rsspick_rss rss = {
		.key = c->key, .key_len = c->key_len,
		.indir = c->indir, .indir_size = c->indir_size,
		.input_xfrm = conf_xfrm(c),
	};
	struct rsspick_set_info info;
	struct rsspick_set *set;
	uint16_t *ports;
	size_t n = 0, i, max;
	uint32_t total;
	char qs[256];
	int err, ret = 0;

	err = rsspick_solve(&rss, t, o->queue, &set);
	if (err == -RSSPICK_ENOQUEUE) {
		print_queues(c, qs, sizeof(qs));
		return die(1, "queue %u does not appear in the indirection table (queues present: %s)",
			   o->queue, qs);
	}
	if (err == -RSSPICK_EKEYLEN)
		return die(1, "RSS key is %zu bytes; an %s 4-tuple needs at least %d",
			   c->key_len, t->family == AF_INET ? "IPv4" : "IPv6",
			   t->family == AF_INET ? 16 : 40);
	if (err)
		return die(1, "%s", rsspick_strerror(err));

	rsspick_set_info(set, &info);
	if (o->verbose)
		fprintf(stderr,
			"%s: table %u (%s), rank %u, null space 2^%u, %u cosets, %u hash evaluations, %u of 65536 ports on queue %u\n",
			prog, c->indir_size,
			info.method == RSSPICK_AFFINE ? "affine solve" :
			"affine-pruned scan", info.rank, info.dim,
			info.cosets, info.evals, rsspick_set_count(set),
			o->queue);

	total = rsspick_set_count_range(set, o->lo, o->hi);
	max = o->have_near ? 1 : o->have_count ? o->count : RSSPICK_NPORTS;
	ports = malloc(sizeof(*ports) * max);
	if (ports && o->have_near)
		n = !rsspick_set_nearest(set, o->near, o->lo, o->hi, ports);
	else if (ports)
		n = rsspick_set_list(set, o->lo, o->hi, ports, max);
	if (!ports) {
		rsspick_set_free(set);
		return die(1, "out of memory");
	}

	if (o->json) {
		json_head(o, t, c);
		printf(",\"dport\":%u,\"queue\":%u,\"method\":\"%s\",\"range\":[%u,%u],\"total\":%u,\"count\":%zu,\"ports\":[",
		       t->dport, o->queue,
		       info.method == RSSPICK_AFFINE ? "affine" : "scan",
		       o->lo, o->hi, total, n);
		for (i = 0; i < n; i++)
			printf("%s%u", i ? "," : "", ports[i]);
		printf("]}\n");
	} else {
		for (i = 0; i < n; i++)
			printf("%u\n", ports[i]);
	}
	if (!n)
		ret = die(1, "no source port in %u-%u lands on queue %u",
			  o->lo, o->hi, o->queue);
	free(ports);
	rsspick_set_free(set);
	return ret;
}

int main(int argc, char **argv)
{
	char err[512], warn[512];
	struct rsspick_tuple t;
	struct rss_conf c;
	struct opts o;
	int fam2, ret;
	size_t i;

	ret = parse_opts(argc, argv, &o);
	if (ret)
		return ret;

	memset(&t, 0, sizeof(t));
	if (parse_addr(o.saddr_s, &t.family, t.saddr))
		return die(2, "bad --src '%s': want an IPv4 or IPv6 address",
			   o.saddr_s);
	if (parse_addr(o.daddr_s, &fam2, t.daddr))
		return die(2, "bad --dst '%s': want an IPv4 or IPv6 address",
			   o.daddr_s);
	if (fam2 != t.family)
		return die(2, "--src and --dst must both be IPv4 or both IPv6");
	t.sport = o.sport;
	t.dport = o.dport;

	ret = load_conf(&o, t.family, &c);
	if (ret) {
		rss_conf_free(&c);
		return ret;
	}

	if (o.verbose)
		fprintf(stderr,
			"%s: %s: key %zu bytes, table %u entries, hfunc %s, input-xfrm %s, rx-flow-hash %s\n",
			prog, c.source, c.key_len, c.indir_size,
			c.hfunc_known ? c.hfunc_name : "not reported",
			c.xfrm_known ? (c.input_xfrm ? c.xfrm_name : "none") :
			"not reported",
			c.fields_known ? ((c.fields & RSS_RXH_SDFN) ==
					  RSS_RXH_SDFN ? "sdfn" : "not sdfn") :
			"not reported");
	if (rss_check_conf(&c, o.dev ? o.dev : c.ifname[0] ? c.ifname :
			   o.ethtool_x, t.family, err, sizeof(err), warn,
			   sizeof(warn))) {
		if (!o.force) {
			rss_conf_free(&c);
			return die(1, "%s", err);
		}
		fprintf(stderr, "%s: warning: %s (--force)\n", prog, err);
		warn[0] = '\0';
	}
	for (i = 0; i < c.key_len && !c.key[i]; i++)
		;
	if (i == c.key_len)
		fprintf(stderr,
			"%s: warning: RSS key is all zeros; every flow hashes to 0 (is this the key the NIC uses?)\n",
			prog);

	ret = o.hash ? do_hash(&o, &t, &c) : do_pick(&o, &t, &c);
	/* what the answer assumes; after it, so that an error stays one line */
	if (!ret && warn[0])
		fprintf(stderr, "%s: warning: %s\n", prog, warn);
	rss_conf_free(&c);
	return ret;
}
