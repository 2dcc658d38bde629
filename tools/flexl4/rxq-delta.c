// SPDX-License-Identifier: GPL-2.0
/*
 * rxq-delta - per-RX-queue packet counter snapshots and their deltas.
 *
 * Counters come from netdev netlink (qstats-get, queue scope) when the
 * driver has them, else from the ethtool stats rxN_packets (mlx5) or
 * rx_queue_N_packets (virtio and others).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <linux/ethtool.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

/* From include/uapi/linux/netdev.h (not in older libc headers). */
#define NETDEV_CMD_QSTATS_GET		12
#define NETDEV_A_QSTATS_IFINDEX		1
#define NETDEV_A_QSTATS_QUEUE_TYPE	2
#define NETDEV_A_QSTATS_QUEUE_ID	3
#define NETDEV_A_QSTATS_SCOPE		4
#define NETDEV_A_QSTATS_RX_PACKETS	8
#define NETDEV_QUEUE_TYPE_RX		0
#define NETDEV_QSTATS_SCOPE_QUEUE	1

#define MAX_QUEUES	4096
#define HIST_WIDTH	40
#define SNAP_MAGIC	"rxq-delta-snapshot 1"

static const char help_text[] =
"NAME\n"
"    rxq-delta - per-RX-queue packet counts between two moments\n"
"\n"
"SYNOPSIS\n"
"    rxq-delta snap DEV [--source auto|qstats|ethtool]\n"
"    rxq-delta snap --ethtool-file FILE [--dev NAME]\n"
"    rxq-delta diff [--json] BEFORE AFTER\n"
"    rxq-delta watch DEV [--json] [--source S] [--time SEC | -- CMD [ARG...]]\n"
"\n"
"DESCRIPTION\n"
"    snap prints a snapshot of DEV's per-RX-queue packet counters to stdout\n"
"    (a small text file, see FILES). diff reads two snapshots and prints, per\n"
"    queue, the packets received in between, the share of the total and a\n"
"    text histogram, then the total. watch takes a snapshot, runs CMD (or\n"
"    sleeps SEC seconds, default 1), takes another and prints the diff.\n"
"\n"
"    Counter sources, in the order 'auto' tries them:\n"
"    qstats   netdev netlink qstats-get with queue scope (rx-packets per\n"
"             RX queue); drivers with netdev queue stats, e.g. mlx5.\n"
"    ethtool  ethtool statistics named rxN_packets (mlx5) or\n"
"             rx_queue_N_packets (virtio_net and others).\n"
"    A device with neither (veth, lo, most virtual devices) is refused with\n"
"    a message saying so.\n"
"\n"
"OPTIONS\n"
"    -s, --source S         auto (default), qstats or ethtool\n"
"    -f, --ethtool-file F   snap: parse recorded 'ethtool -S DEV' output\n"
"                           from F ('-' = stdin) instead of asking a device\n"
"    -d, --dev NAME         snap -f: device name to record (default: file)\n"
"    -j, --json             diff/watch: print one JSON object\n"
"    -t, --time SEC         watch: interval when no CMD is given (default 1)\n"
"    -h, --help             show this text\n"
"\n"
"FILES\n"
"    A snapshot is text: the line '" SNAP_MAGIC "', then 'dev NAME',\n"
"    'source qstats|ethtool', optionally 'time SECONDS' (wall clock), then\n"
"    one 'rx QUEUE PACKETS' line per queue. Lines starting with # are\n"
"    ignored. Hand-written snapshots are fine.\n"
"\n"
"OUTPUT\n"
"    diff: a header line (device, source, interval), then 'queue packets\n"
"    share histogram' rows sorted by queue and a 'total' row. A counter that\n"
"    went backwards (driver reset) counts from 0 and is reported on stderr.\n"
"    --json: {\"dev\":..,\"source\":..,\"interval\":SEC|null,\"total\":N,\n"
"    \"queues\":[{\"queue\":Q,\"packets\":N,\"share\":PCT},..]}\n"
"\n"
"EXIT STATUS\n"
"    0 success, 1 run-time or data error (no per-queue counters, unreadable\n"
"    or malformed snapshot, snapshots of different devices), 2 bad\n"
"    arguments. watch with CMD exits with CMD's status if that is non-zero.\n"
"\n"
"EXAMPLES\n"
"    rxq-delta snap eth0 > before; sleep 5; rxq-delta snap eth0 > after\n"
"    rxq-delta diff before after\n"
"    rxq-delta watch eth0 -- l4send -d 192.0.2.2 -D 4000 -K 16 -c 100000\n"
"    ethtool -S eth0 | rxq-delta snap -f - -d eth0 > before\n";

struct snap {
	char dev[IFNAMSIZ + 64];
	char source[16];
	double time;		/* wall clock seconds, 0 = unknown */
	bool have[MAX_QUEUES];
	uint64_t rx[MAX_QUEUES];
};

/* ---- netdev netlink (qstats) ---------------------------------------- */

struct nlreq {
	struct nlmsghdr nh;
	struct genlmsghdr gh;
	char attrs[64];
};

static void put_attr(struct nlreq *r, uint16_t type, const void *data,
		     uint16_t len)
{
	struct nlattr *a = (struct nlattr *)((char *)r + r->nh.nlmsg_len);

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memcpy((char *)a + NLA_HDRLEN, data, len);
	r->nh.nlmsg_len += NLA_ALIGN(a->nla_len);
}

static uint64_t attr_uint(const struct nlattr *a)
{
	const void *p = (const char *)a + NLA_HDRLEN;
	uint64_t v64;
	uint32_t v32;

	if (a->nla_len - NLA_HDRLEN >= 8) {
		memcpy(&v64, p, 8);
		return v64;
	}
	memcpy(&v32, p, 4);
	return v32;
}

typedef void (*nl_cb)(const struct nlattr *attrs, int len, void *arg);

/*
 * Send request r on fd and hand every reply message's attributes to cb.
 * Returns 0 or a negative errno from the kernel.
 */
static int nl_talk(int fd, struct nlreq *r, nl_cb cb, void *arg)
{
	static char buf[65536];
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };

	if (sendto(fd, r, r->nh.nlmsg_len, 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0)
		return -errno;
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *nh = (struct nlmsghdr *)buf;

		if (n < 0)
			return -errno;
		for (; NLMSG_OK(nh, n); nh = NLMSG_NEXT(nh, n)) {
			/* A dump's error, if any, rides in NLMSG_DONE. */
			if (nh->nlmsg_type == NLMSG_DONE) {
				int err = 0;

				if (nh->nlmsg_len >= NLMSG_LENGTH(sizeof(err)))
					memcpy(&err, NLMSG_DATA(nh), sizeof(err));
				return err;
			}
			if (nh->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(nh);

				return e->error;
			}
			cb((struct nlattr *)((char *)NLMSG_DATA(nh) +
					     GENL_HDRLEN),
			   nh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN, arg);
			if (!(nh->nlmsg_flags & NLM_F_MULTI))
				return 0;
		}
	}
}

#define for_each_attr(a, attrs, len)					\
	for (a = attrs; (len) >= (int)sizeof(*a) &&			\
	     a->nla_len >= sizeof(*a) && a->nla_len <= (len);		\
	     len -= NLA_ALIGN(a->nla_len),				\
	     a = (const struct nlattr *)((const char *)a + NLA_ALIGN(a->nla_len)))

static void family_cb(const struct nlattr *attrs, int len, void *arg)
{
	const struct nlattr *a;

	for_each_attr(a, attrs, len)
		if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_ID)
			memcpy(arg, (const char *)a + NLA_HDRLEN, 2);
}

static void qstats_cb(const struct nlattr *attrs, int len, void *arg)
{
	struct snap *s = arg;
	uint64_t type = ~0ULL, queue = ~0ULL, packets = 0;
	bool have_packets = false;
	const struct nlattr *a;

	for_each_attr(a, attrs, len) {
		switch (a->nla_type & NLA_TYPE_MASK) {
		case NETDEV_A_QSTATS_QUEUE_TYPE:
			type = attr_uint(a);
			break;
		case NETDEV_A_QSTATS_QUEUE_ID:
			queue = attr_uint(a);
			break;
		case NETDEV_A_QSTATS_RX_PACKETS:
			packets = attr_uint(a);
			have_packets = true;
			break;
		}
	}
	if (type == NETDEV_QUEUE_TYPE_RX && queue < MAX_QUEUES &&
	    have_packets) {
		s->have[queue] = true;
		s->rx[queue] = packets;
	}
}

/* Returns the number of queues found, or a negative errno. */
static int read_qstats(const char *dev, struct snap *s)
{
	uint32_t ifindex = if_nametoindex(dev);
	uint32_t scope = NETDEV_QSTATS_SCOPE_QUEUE;
	struct nlreq r = {};
	uint16_t family = 0;
	int fd, err, n = 0;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0)
		return -errno;
	r.nh.nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN;
	r.nh.nlmsg_type = GENL_ID_CTRL;
	r.nh.nlmsg_flags = NLM_F_REQUEST;
	r.gh.cmd = CTRL_CMD_GETFAMILY;
	r.gh.version = 1;
	put_attr(&r, CTRL_ATTR_FAMILY_NAME, "netdev", 7);
	err = nl_talk(fd, &r, family_cb, &family);
	if (err || !family) {
		close(fd);
		return err ? err : -ENOENT;
	}
	memset(&r, 0, sizeof(r));
	r.nh.nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN;
	r.nh.nlmsg_type = family;
	r.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	r.gh.cmd = NETDEV_CMD_QSTATS_GET;
	r.gh.version = 1;
	put_attr(&r, NETDEV_A_QSTATS_IFINDEX, &ifindex, 4);
	put_attr(&r, NETDEV_A_QSTATS_SCOPE, &scope, 4);
	err = nl_talk(fd, &r, qstats_cb, s);
	close(fd);
	if (err)
		return err;
	for (int q = 0; q < MAX_QUEUES; q++)
		n += s->have[q];
	return n;
}

/* ---- ethtool statistics --------------------------------------------- */

/* "rx5_packets" or "rx_queue_5_packets" -> 5; else -1. */
static int rx_queue_of(const char *name)
{
	unsigned int q;
	int end = 0;

	if ((sscanf(name, "rx%u_packets%n", &q, &end) == 1 && !name[end] &&
	     end) ||
	    (sscanf(name, "rx_queue_%u_packets%n", &q, &end) == 1 &&
	     !name[end] && end))
		return q < MAX_QUEUES ? (int)q : -1;
	return -1;
}

static int ethtool_ioctl(int fd, const char *dev, void *data)
{
	struct ifreq ifr = {};

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", dev);
	ifr.ifr_data = data;
	return ioctl(fd, SIOCETHTOOL, &ifr);
}

static void driver_name(const char *dev, char *buf, size_t len)
{
	struct ethtool_drvinfo info = { .cmd = ETHTOOL_GDRVINFO };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	snprintf(buf, len, "unknown");
	if (fd >= 0 && !ethtool_ioctl(fd, dev, &info) && info.driver[0])
		snprintf(buf, len, "%s", info.driver);
	if (fd >= 0)
		close(fd);
}

/* Returns the number of queues found, or a negative errno. */
static int read_ethtool(const char *dev, struct snap *s)
{
	struct {
		struct ethtool_sset_info hdr;
		uint32_t len;
	} sset = { .hdr = { .cmd = ETHTOOL_GSSET_INFO,
			    .sset_mask = 1ULL << ETH_SS_STATS } };
	struct ethtool_gstrings *strs = NULL;
	struct ethtool_stats *stats = NULL;
	int fd, n = 0, err = 0;
	uint32_t cnt;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (ethtool_ioctl(fd, dev, &sset) < 0) {
		err = -errno;
		goto out;
	}
	cnt = sset.hdr.sset_mask ? sset.len : 0;
	strs = calloc(1, sizeof(*strs) + (size_t)cnt * ETH_GSTRING_LEN);
	stats = calloc(1, sizeof(*stats) + (size_t)cnt * sizeof(uint64_t));
	if (!strs || !stats)
		die("out of memory");
	strs->cmd = ETHTOOL_GSTRINGS;
	strs->string_set = ETH_SS_STATS;
	strs->len = cnt;
	stats->cmd = ETHTOOL_GSTATS;
	stats->n_stats = cnt;
	if (cnt && (ethtool_ioctl(fd, dev, strs) < 0 ||
		    ethtool_ioctl(fd, dev, stats) < 0)) {
		err = -errno;
		goto out;
	}
	for (uint32_t k = 0; k < cnt; k++) {
		char name[ETH_GSTRING_LEN + 1] = {};
		int q;

		memcpy(name, strs->data + k * ETH_GSTRING_LEN, ETH_GSTRING_LEN);
		q = rx_queue_of(name);
		if (q >= 0 && !s->have[q]) {
			s->have[q] = true;
			s->rx[q] = stats->data[k];
			n++;
		}
	}
out:
	free(strs);
	free(stats);
	close(fd);
	return err ? err : n;
}

/* Parse recorded "ethtool -S" text ("     rx3_packets: 123"). */
static void read_ethtool_file(const char *path, struct snap *s)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char line[512], name[128];
	unsigned long long v;
	int n = 0, q, lineno = 0;

	if (!f)
		die("%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (sscanf(line, " %127[^:]: %llu", name, &v) != 2)
			continue;
		q = rx_queue_of(name);
		if (q < 0)
			continue;
		if (s->have[q])
			die("%s:%d: queue %d counted twice", path, lineno, q);
		s->have[q] = true;
		s->rx[q] = v;
		n++;
	}
	if (f != stdin)
		fclose(f);
	if (!n)
		die("%s: no rxN_packets or rx_queue_N_packets counters", path);
	snprintf(s->source, sizeof(s->source), "ethtool");
}

static void take_snap(const char *dev, const char *source, struct snap *s)
{
	struct timespec ts;
	char drv[64];
	int qerr = 0, eerr = 0, n;

	memset(s, 0, sizeof(*s));
	snprintf(s->dev, sizeof(s->dev), "%s", dev);
	if (!if_nametoindex(dev))
		die("no such device '%s'", dev);
	if (strcmp(source, "ethtool")) {
		n = read_qstats(dev, s);
		if (n > 0) {
			snprintf(s->source, sizeof(s->source), "qstats");
			goto done;
		}
		qerr = n;
		memset(s->have, 0, sizeof(s->have));
	}
	if (strcmp(source, "qstats")) {
		n = read_ethtool(dev, s);
		if (n > 0) {
			snprintf(s->source, sizeof(s->source), "ethtool");
			goto done;
		}
		eerr = n;
	}
	driver_name(dev, drv, sizeof(drv));
	die("%s (driver %s) has no per-queue RX packet counters: %s%s%s%s%s",
	    dev, drv,
	    strcmp(source, "ethtool") ? "netdev qstats: " : "",
	    strcmp(source, "ethtool") ?
		(qerr == -EOPNOTSUPP ? "not supported by the driver" :
		 qerr ? strerror(-qerr) : "no RX queues reported") : "",
	    !strcmp(source, "auto") ? "; " : "",
	    strcmp(source, "qstats") ? "ethtool -S: " : "",
	    strcmp(source, "qstats") ?
		(eerr ? strerror(-eerr) :
		 "no rxN_packets or rx_queue_N_packets") : "");
done:
	clock_gettime(CLOCK_REALTIME, &ts);
	s->time = ts.tv_sec + ts.tv_nsec / 1e9;
}

static void write_snap(FILE *f, const struct snap *s)
{
	fprintf(f, "%s\ndev %s\nsource %s\n", SNAP_MAGIC, s->dev, s->source);
	if (s->time)
		fprintf(f, "time %.6f\n", s->time);
	for (int q = 0; q < MAX_QUEUES; q++)
		if (s->have[q])
			fprintf(f, "rx %d %llu\n", q,
				(unsigned long long)s->rx[q]);
}

static void read_snap(const char *path, struct snap *s)
{
	FILE *f = fopen(path, "r");
	char line[512], word[64], rest[64];
	unsigned long long v;
	int lineno = 0, nq = 0;
	unsigned int q;

	memset(s, 0, sizeof(*s));
	if (!f)
		die("%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (lineno == 1) {
			if (strcmp(line, SNAP_MAGIC))
				die("%s: not an rxq-delta snapshot (first line is not '%s')",
				    path, SNAP_MAGIC);
			continue;
		}
		if (!line[0] || line[0] == '#')
			continue;
		if (sscanf(line, "rx %u %llu %1s", &q, &v, word) == 2) {
			if (q >= MAX_QUEUES || s->have[q])
				die("%s:%d: bad or repeated queue %u", path,
				    lineno, q);
			s->have[q] = true;
			s->rx[q] = v;
			nq++;
		} else if (sscanf(line, "dev %63s %1s", rest, word) == 1) {
			snprintf(s->dev, sizeof(s->dev), "%s", rest);
		} else if (sscanf(line, "source %15s %1s", s->source, word) == 1) {
		} else if (sscanf(line, "time %lf %1s", &s->time, word) == 1) {
		} else {
			die("%s:%d: cannot parse '%s'", path, lineno, line);
		}
	}
	fclose(f);
	if (lineno == 0)
		die("%s: empty file, not an rxq-delta snapshot", path);
	if (!s->dev[0] || !s->source[0] || !nq)
		die("%s: snapshot lacks a dev, source or rx line", path);
}

static void print_diff(const struct snap *a, const struct snap *b, bool json)
{
	static uint64_t d[MAX_QUEUES];
	uint64_t total = 0, max = 0;
	bool first = true, timed = a->time && b->time;
	double interval = timed ? b->time - a->time : 0;

	if (strcmp(a->dev, b->dev))
		die("snapshots are of different devices: %s and %s", a->dev,
		    b->dev);
	if (strcmp(a->source, b->source))
		die("snapshots come from different sources: %s and %s",
		    a->source, b->source);
	for (int q = 0; q < MAX_QUEUES; q++) {
		d[q] = 0;
		if (!b->have[q]) {
			if (a->have[q])
				warnx("queue %d is missing from the second snapshot",
				      q);
			continue;
		}
		if (b->rx[q] < a->rx[q]) {
			warnx("queue %d counter went backwards (%llu -> %llu, reset?); counting from 0",
			      q, (unsigned long long)a->rx[q],
			      (unsigned long long)b->rx[q]);
			d[q] = b->rx[q];
		} else {
			d[q] = b->rx[q] - a->rx[q];
		}
		total += d[q];
		if (d[q] > max)
			max = d[q];
	}

	if (json) {
		printf("{\"dev\":\"%s\",\"source\":\"%s\",\"interval\":", b->dev,
		       b->source);
		if (timed)
			printf("%.6f", interval);
		else
			printf("null");
		printf(",\"total\":%llu,\"queues\":[",
		       (unsigned long long)total);
		for (int q = 0; q < MAX_QUEUES; q++) {
			if (!b->have[q])
				continue;
			printf("%s{\"queue\":%d,\"packets\":%llu,\"share\":%.1f}",
			       first ? "" : ",", q, (unsigned long long)d[q],
			       total ? 100.0 * d[q] / total : 0.0);
			first = false;
		}
		printf("]}\n");
		return;
	}
	printf("dev %s  source %s  interval ", b->dev, b->source);
	if (timed)
		printf("%.3f s\n", interval);
	else
		printf("unknown\n");
	printf("%5s %14s %7s  %s\n", "queue", "packets", "share", "histogram");
	for (int q = 0; q < MAX_QUEUES; q++) {
		char bar[HIST_WIDTH + 1];
		int w;

		if (!b->have[q])
			continue;
		w = max ? (int)((d[q] * HIST_WIDTH + max / 2) / max) : 0;
		memset(bar, '#', w);
		bar[w] = '\0';
		printf("%5d %14llu %6.1f%%%s%s\n", q, (unsigned long long)d[q],
		       total ? 100.0 * d[q] / total : 0.0, w ? "  " : "", bar);
	}
	printf("%5s %14llu %6.1f%%\n", "total", (unsigned long long)total,
	       total ? 100.0 : 0.0);
}

static int run_cmd(char **argv)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "%s: cannot run %s: %s\n", prog, argv[0],
			strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("waitpid: %s", strerror(errno));
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "source", required_argument, NULL, 's' },
		{ "ethtool-file", required_argument, NULL, 'f' },
		{ "dev", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "time", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *source = "auto", *efile = NULL, *dev = NULL, *cmd;
	static struct snap a, b;
	bool json = false, have_time = false;
	double secs = 1;
	int c, status = 0, nopt;
	char **rest = NULL;

	prog = "rxq-delta";
	if (argc < 2)
		usage_err("missing command: snap, diff or watch");
	cmd = argv[1];
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
		fputs(help_text, stdout);
		return 0;
	}
	if (strcmp(cmd, "snap") && strcmp(cmd, "diff") && strcmp(cmd, "watch"))
		usage_err("unknown command '%s': want snap, diff or watch", cmd);

	/* Options end at "--": what follows is watch's command, untouched. */
	for (nopt = 2; nopt < argc; nopt++) {
		if (!strcmp(argv[nopt], "--")) {
			rest = argv + nopt + 1;
			argv[nopt] = NULL;
			break;
		}
	}
	opterr = 0;
	optind = 2;
	while ((c = getopt_long(nopt, argv, ":s:f:d:jt:h", longopts,
				NULL)) != -1) {
		switch (c) {
		case 's':
			if (strcmp(optarg, "auto") && strcmp(optarg, "qstats") &&
			    strcmp(optarg, "ethtool"))
				usage_err("bad --source '%s': want auto, qstats or ethtool",
					  optarg);
			source = optarg;
			break;
		case 'f':
			efile = optarg;
			break;
		case 'd':
			if (!*optarg || strlen(optarg) > 63 || strchr(optarg, ' '))
				usage_err("bad --dev '%s'", optarg);
			dev = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 't':
			if (!parse_double(optarg, &secs) || secs <= 0 ||
			    secs > 86400)
				usage_err("bad --time '%s': want seconds > 0",
					  optarg);
			have_time = true;
			break;
		case 'h':
			fputs(help_text, stdout);
			return 0;
		case ':':
			usage_err("option '%s' needs a value", argv[optind - 1]);
		default:
			usage_err("unknown option '%s'", argv[optind - 1]);
		}
	}
	argc = nopt - optind;
	argv += optind;

	if (!strcmp(cmd, "snap")) {
		if (json || have_time)
			usage_err("snap takes no --json or --time");
		if (efile) {
			if (argc)
				usage_err("snap --ethtool-file takes no device argument");
			memset(&a, 0, sizeof(a));
			snprintf(a.dev, sizeof(a.dev), "%s", dev ? dev : "file");
			read_ethtool_file(efile, &a);
		} else {
			if (dev)
				usage_err("--dev is only for snap --ethtool-file");
			if (argc != 1)
				usage_err("snap needs exactly one device");
			take_snap(argv[0], source, &a);
		}
		write_snap(stdout, &a);
		return 0;
	}
	if (efile || dev)
		usage_err("--ethtool-file and --dev are only for snap");
	if (rest && strcmp(cmd, "watch"))
		usage_err("'--' is only for watch");
	if (!strcmp(cmd, "diff")) {
		if (have_time || strcmp(source, "auto"))
			usage_err("diff takes no --time or --source");
		if (argc != 2)
			usage_err("diff needs two snapshot files: BEFORE AFTER");
		read_snap(argv[0], &a);
		read_snap(argv[1], &b);
		print_diff(&a, &b, json);
		return 0;
	}
	/* watch DEV [-- CMD...] */
	if (argc < 1)
		usage_err("watch needs a device");
	if (argc > 1)
		usage_err("watch: put the command after '--' (got '%s')",
			  argv[1]);
	if (rest && !rest[0])
		usage_err("watch: no command after '--'");
	if (rest && have_time)
		usage_err("watch: give either --time or a command, not both");
	take_snap(argv[0], source, &a);
	if (rest) {
		status = run_cmd(rest);
	} else {
		struct timespec ts = { (time_t)secs,
				       (long)((secs - (time_t)secs) * 1e9) };

		nanosleep(&ts, NULL);
	}
	take_snap(argv[0], a.source, &b);
	print_diff(&a, &b, json);
	if (status)
		warnx("command exited with status %d", status);
	return status;
}
