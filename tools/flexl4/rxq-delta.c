// SPDX-License-Identifier: GPL-2.0
/*
 * rxq-delta - per-RX-queue packet counter snapshots and their deltas.
 *
 * Counters come from netdev netlink (qstats-get, queue scope) when the
 * driver has them, else from 'ethtool -S' (rxN_packets of mlx5,
 * rx_queue_N_packets of ifb, older virtio_net and others). ynltool qstats
 * (Linux 7.3's tools/net/ynl) shows the counters themselves; this tool adds
 * the difference between two moments, and the ethtool -S path for kernels
 * without netdev qstats (6.1). The qstats half is built when the UAPI
 * <linux/netdev.h> the build sees has them (HAVE_QSTATS; make UAPI=DIR for a
 * newer one).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#ifdef HAVE_QSTATS	/* the Makefile's check: <linux/netdev.h> has qstats */
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netdev.h>
#define QSTATS_WHY_NOT NULL
#else
#define QSTATS_WHY_NOT "rxq-delta was built without them (its <linux/netdev.h> has no qstats; make UAPI=DIR)"
#endif

#define MAX_QUEUES	4096
#define HIST_WIDTH	40
#define SNAP_MAGIC	"rxq-delta-snapshot 1"

static const char help_text[] =
"NAME\n"
"    rxq-delta - per-RX-queue packet counts between two moments\n"
"\n"
"SYNOPSIS\n"
"    rxq-delta snap DEV [--counters auto|qstats|ethtool]\n"
"    rxq-delta snap --ethtool-file FILE [--dev NAME]\n"
"    rxq-delta snap --qstats-file FILE [--dev NAME]\n"
"    rxq-delta diff [--json] BEFORE AFTER\n"
"    rxq-delta watch DEV [--json] [--counters C] [--time SEC | -- CMD [ARG...]]\n"
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
"             RX queue); drivers with netdev queue stats, e.g. mlx5 and\n"
"             virtio_net.\n"
"    ethtool  'ethtool -S DEV' counters named rxN_packets (mlx5) or\n"
"             rx_queue_N_packets (older virtio_net, ifb and others;\n"
"             virtio_net of Linux 6.18 has no per-queue packet count\n"
"             in ethtool -S, only in qstats).\n"
"    A device with neither (veth, lo, most virtual devices) is refused with\n"
"    a message saying so. 'ynltool qstats show' (Linux 7.3, tools/net/ynl)\n"
"    prints the qstats counters themselves; rxq-delta adds the difference\n"
"    between two moments and the ethtool path for kernels without qstats.\n"
"\n"
"OPTIONS\n"
"    -i, --dev NAME         the device (or give it as the argument); with\n"
"                           --ethtool-file/--qstats-file: the name to record\n"
"                           (default: file)\n"
"    -j, --json             diff/watch: print one JSON object\n"
"        --counters C       auto (default), qstats or ethtool\n"
"        --ethtool-file F   snap: parse recorded 'ethtool -S DEV' output\n"
"                           from F ('-' = stdin) instead of asking a device\n"
"        --qstats-file F    snap: parse a recorded netdev qstats-get dump\n"
"                           (the raw netlink reply bytes) from F\n"
"        --time SEC         watch: interval when no CMD is given (default 1)\n"
"    -h, --help             show this text\n"
"    -V, --version          print the version\n"
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
"    went backwards (driver reset), or a queue only in AFTER (channels\n"
"    added), counts from 0 and is reported on stderr.\n"
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
"    rxq-delta watch eth0 -- l4send -d 192.0.2.2 -D 4000 --cycle 16 -n 100000\n"
"    ethtool -S eth0 | rxq-delta snap --ethtool-file - -i eth0 > before\n";

struct snap {
	char dev[IFNAMSIZ + 64];
	char source[16];
	double time;		/* wall clock seconds, 0 = unknown */
	bool have[MAX_QUEUES];
	uint64_t rx[MAX_QUEUES];
	int nq;			/* queues seen by qstats_cb() */
};

/* ---- netdev netlink (qstats) ---------------------------------------- */
#ifdef HAVE_QSTATS

#define GENL_BUF_SIZE	(256 * 1024)	/* one read of a dump */

/* A generic netlink request and its answer, or a recorded answer replayed. */
struct genl {
	struct mnl_socket *nl;	/* NULL when replaying recorded replies */
	char *buf;		/* request, then each read of the reply */
	unsigned int seq, portid;	/* 0: accept any (recorded replies) */
	bool dump;		/* the answer ends with NLMSG_DONE */
	mnl_cb_t cb;		/* and its cb_arg: genl_run()'s callback */
	void *cb_arg;
	int err;		/* the kernel's errno, positive */
};

static void genl_close(struct genl *g)
{
	if (g->nl)
		mnl_socket_close(g->nl);
	free(g->buf);
	g->nl = NULL;
	g->buf = NULL;
}

/* Start a request in g->buf: netlink and genl headers, no attributes. */
static struct nlmsghdr *genl_req(struct genl *g, uint16_t family,
				 uint16_t flags, uint8_t cmd, uint8_t version)
{
	struct nlmsghdr *nh;
	struct genlmsghdr *gh;

	memset(g->buf, 0, GENL_BUF_SIZE);	/* attribute padding is sent */
	nh = mnl_nlmsg_put_header(g->buf);
	nh->nlmsg_type = family;
	nh->nlmsg_flags = NLM_F_REQUEST | flags;
	g->dump = flags & NLM_F_DUMP;
	gh = mnl_nlmsg_put_extra_header(nh, sizeof(*gh));
	gh->cmd = cmd;
	gh->version = version;
	return nh;
}

/* NLMSG_ERROR (an ack or a failure) or a dump's NLMSG_DONE: the end. */
static int end_cb(const struct nlmsghdr *nh, void *arg)
{
	const int *e = mnl_nlmsg_get_payload(nh);
	struct genl *g = arg;

	if (mnl_nlmsg_get_payload_len(nh) < sizeof(*e)) {
		g->err = EBADMSG;
		return MNL_CB_ERROR;
	}
	g->err = *e < 0 ? -*e : *e;
	return g->err ? MNL_CB_ERROR : MNL_CB_STOP;
}

static int data_cb(const struct nlmsghdr *nh, void *arg)
{
	struct genl *g = arg;
	int r = MNL_CB_ERROR;

	if (mnl_nlmsg_get_payload_len(nh) >= sizeof(struct genlmsghdr))
		r = g->cb(nh, g->cb_arg);
	if (r == MNL_CB_ERROR && !g->err)
		g->err = EPROTO;
	/*
	 * A dump ends with NLMSG_DONE, other answers are one message. Not by
	 * NLM_F_MULTI: netdev's qstats dump leaves it clear in every message.
	 */
	return r == MNL_CB_OK && !g->dump ? MNL_CB_STOP : r;
}

/*
 * Hand each message of @len received bytes to @cb: 1 if the answer is not
 * complete yet, 0 if it is, -1 on an error (g->err).
 */
static int genl_run(const void *buf, size_t len, struct genl *g, mnl_cb_t cb,
		    void *arg)
{
	static mnl_cb_t ctl[NLMSG_MIN_TYPE] = {
		[NLMSG_ERROR] = end_cb, [NLMSG_DONE] = end_cb,
	};
	int r;

	g->cb = cb;
	g->cb_arg = arg;
	g->err = 0;
	errno = 0;
	r = mnl_cb_run2(buf, len, g->seq, g->portid, data_cb, g, ctl,
			NLMSG_MIN_TYPE);
	if (r < 0 && !g->err)
		g->err = errno ? errno : EPROTO;
	return r < 0 ? -1 : r > 0;
}

/* Send @req, hand each reply message to @cb until the answer ends. */
static int genl_talk(struct genl *g, struct nlmsghdr *req, mnl_cb_t cb,
		     void *arg)
{
	ssize_t n;
	int r;

	req->nlmsg_seq = ++g->seq;
	if (mnl_socket_sendto(g->nl, req, req->nlmsg_len) < 0)
		return -(g->err = errno);
	do {
		n = mnl_socket_recvfrom(g->nl, g->buf, GENL_BUF_SIZE);
		if (n < 0)
			return -(g->err = errno);
		r = genl_run(g->buf, n, g, cb, arg);
	} while (r > 0);
	return r ? -g->err : 0;
}

/* Attributes of a genl message into tb[type] for type <= max. */
static void genl_attrs(const struct nlmsghdr *nh, const struct nlattr **tb,
		       unsigned int max)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, nh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) <= max)
			tb[mnl_attr_get_type(a)] = a;
}

static int family_cb(const struct nlmsghdr *nh, void *arg)
{
	const struct nlattr *tb[CTRL_ATTR_FAMILY_ID + 1] = { NULL };

	genl_attrs(nh, tb, CTRL_ATTR_FAMILY_ID);
	if (tb[CTRL_ATTR_FAMILY_ID] &&
	    !mnl_attr_validate(tb[CTRL_ATTR_FAMILY_ID], MNL_TYPE_U16))
		*(uint16_t *)arg = mnl_attr_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	return MNL_CB_OK;
}

/* A NETLINK_GENERIC socket; the id of @family. 0 or a negative errno. */
static int genl_open(struct genl *g, const char *family, uint16_t *id)
{
	struct nlmsghdr *nh;
	int r;

	memset(g, 0, sizeof(*g));
	g->buf = malloc(GENL_BUF_SIZE);
	g->nl = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC);
	if (!g->buf || !g->nl || mnl_socket_bind(g->nl, 0, MNL_SOCKET_AUTOPID)) {
		r = g->buf ? errno : ENOMEM;
		genl_close(g);
		return -(g->err = r);
	}
	g->portid = mnl_socket_get_portid(g->nl);
	g->seq = time(NULL);
	nh = genl_req(g, GENL_ID_CTRL, 0, CTRL_CMD_GETFAMILY, 1);
	mnl_attr_put_strz(nh, CTRL_ATTR_FAMILY_NAME, family);
	*id = 0;
	r = genl_talk(g, nh, family_cb, id);
	return r || *id ? r : -(g->err = ENOENT);
}

/* A netlink "uint": 4 or 8 bytes. */
static uint64_t attr_uint(const struct nlattr *a)
{
	if (mnl_attr_get_payload_len(a) == 8)
		return mnl_attr_get_u64(a);
	return mnl_attr_get_payload_len(a) == 4 ? mnl_attr_get_u32(a) : ~0ULL;
}

/* One qstats-get message: the packets of one RX queue. */
static int qstats_cb(const struct nlmsghdr *nh, void *arg)
{
	const struct nlattr *tb[NETDEV_A_QSTATS_RX_PACKETS + 1] = { NULL };
	struct snap *s = arg;
	uint64_t queue;

	genl_attrs(nh, tb, NETDEV_A_QSTATS_RX_PACKETS);
	if (!tb[NETDEV_A_QSTATS_QUEUE_TYPE] || !tb[NETDEV_A_QSTATS_QUEUE_ID] ||
	    !tb[NETDEV_A_QSTATS_RX_PACKETS] ||
	    attr_uint(tb[NETDEV_A_QSTATS_QUEUE_TYPE]) != NETDEV_QUEUE_TYPE_RX)
		return MNL_CB_OK;
	queue = attr_uint(tb[NETDEV_A_QSTATS_QUEUE_ID]);
	if (queue < MAX_QUEUES) {
		s->nq += !s->have[queue];
		s->have[queue] = true;
		s->rx[queue] = attr_uint(tb[NETDEV_A_QSTATS_RX_PACKETS]);
	}
	return MNL_CB_OK;
}

/* Returns the number of queues found, or a negative errno. */
static int read_qstats(const char *dev, struct snap *s)
{
	struct nlmsghdr *nh;
	uint16_t family;
	struct genl g;
	int err;

	err = genl_open(&g, "netdev", &family);
	if (!err) {
		nh = genl_req(&g, family, NLM_F_DUMP, NETDEV_CMD_QSTATS_GET,
			      NETDEV_FAMILY_VERSION);
		mnl_attr_put_u32(nh, NETDEV_A_QSTATS_IFINDEX, if_nametoindex(dev));
		mnl_attr_put_u32(nh, NETDEV_A_QSTATS_SCOPE,
				 NETDEV_QSTATS_SCOPE_QUEUE);
		err = genl_talk(&g, nh, qstats_cb, s);
	}
	genl_close(&g);
	return err ? err : s->nq;
}

static const char *qstats_why(int err)
{
	return err == -EOPNOTSUPP ? "not supported by the driver" :
	       err ? strerror(-err) : "no RX queues reported";
}

/* Recorded qstats-get dump: the raw netlink bytes the kernel answered. */
static void read_qstats_file(const char *path, struct snap *s)
{
	static char buf[1 << 20];
	struct genl g = { .dump = true };
	FILE *f = fopen(path, "rb");
	int r;

	if (!f)
		die("%s: %s", path, strerror(errno));
	r = genl_run(buf, fread(buf, 1, sizeof(buf), f), &g, qstats_cb, s);
	fclose(f);
	if (r || !s->nq)
		die("%s: netdev qstats: %s", path, r > 0 ?
		    "reply ends before NLMSG_DONE" : qstats_why(-g.err));
	snprintf(s->source, sizeof(s->source), "qstats");
}
#endif

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

/* "     rx3_packets: 123" lines of 'ethtool -S' from f: the queues found */
static int parse_ethtool(FILE *f, const char *what, struct snap *s)
{
	char line[512], name[128];
	unsigned long long v;
	int n = 0, q, lineno = 0;

	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (sscanf(line, " %127[^:]: %llu", name, &v) != 2)
			continue;
		q = rx_queue_of(name);
		if (q < 0)
			continue;
		if (s->have[q])
			die("%s:%d: queue %d counted twice", what, lineno, q);
		s->have[q] = true;
		s->rx[q] = v;
		n++;
	}
	snprintf(s->source, sizeof(s->source), "ethtool");
	return n;
}

static void read_ethtool_file(const char *path, struct snap *s)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;

	if (!f)
		die("%s: %s", path, strerror(errno));
	if (!parse_ethtool(f, path, s))
		die("%s: no rxN_packets or rx_queue_N_packets counters", path);
	if (f != stdin)
		fclose(f);
}

/* 'ethtool -S DEV': the queues found, or why not in *why */
static int read_ethtool(const char *dev, struct snap *s, const char **why)
{
	const char *ethtool = getenv("ETHTOOL") ? getenv("ETHTOOL") : "ethtool";
	static char buf[64];
	int pfd[2], status, n;
	FILE *f;
	pid_t pid;

	fflush(stdout);
	if (pipe(pfd) < 0 || (pid = fork()) < 0)
		die("pipe, fork: %s", strerror(errno));
	if (!pid) {
		dup2(pfd[1], 1);
		close(pfd[0]);
		execlp(ethtool, ethtool, "-S", dev, (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	f = fdopen(pfd[0], "r");
	n = parse_ethtool(f, "ethtool -S", s);
	fclose(f);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("waitpid: %s", strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		*why = "cannot run ethtool (install the ethtool package)";
	else if (!WIFEXITED(status) || WEXITSTATUS(status))
		snprintf(buf, sizeof(buf), "failed (exit %d)", WEXITSTATUS(status)), *why = buf;
	else
		*why = "no rxN_packets or rx_queue_N_packets";
	return n;
}

static void take_snap(const char *dev, const char *source, struct snap *s)
{
	const char *qwhy = QSTATS_WHY_NOT, *ewhy = "";
	struct timespec ts;

	memset(s, 0, sizeof(*s));
	snprintf(s->dev, sizeof(s->dev), "%s", dev);
	if (!if_nametoindex(dev))
		die("no such device '%s'", dev);
#ifdef HAVE_QSTATS
	if (strcmp(source, "ethtool")) {
		int n = read_qstats(dev, s);

		if (n > 0) {
			snprintf(s->source, sizeof(s->source), "qstats");
			goto done;
		}
		qwhy = qstats_why(n);
		memset(s->have, 0, sizeof(s->have));
	}
#endif
	if (strcmp(source, "qstats") && read_ethtool(dev, s, &ewhy) > 0)
		goto done;
	die("%s has no per-queue RX packet counters: %s%s%s%s%s", dev,
	    strcmp(source, "ethtool") ? "netdev qstats: " : "",
	    strcmp(source, "ethtool") ? qwhy : "",
	    !strcmp(source, "auto") ? "; " : "",
	    strcmp(source, "qstats") ? "ethtool -S: " : "",
	    strcmp(source, "qstats") ? ewhy : "");
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
		if (!a->have[q])
			warnx("queue %d is not in the first snapshot (channels added?); counting it from 0",
			      q);
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
		{ "counters", required_argument, NULL, 's' },
		{ "ethtool-file", required_argument, NULL, 'f' },
		{ "qstats-file", required_argument, NULL, 'Q' },
		{ "dev", required_argument, NULL, 'i' },
		{ "json", no_argument, NULL, 'j' },
		{ "time", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *source = "auto", *efile = NULL, *qfile = NULL, *dev = NULL;
	const char *cmd;
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
	if (!strcmp(cmd, "-V") || !strcmp(cmd, "--version"))
		print_version();
	if (cmd[0] == '-')
		usage_err("unknown option '%s'", cmd);
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
	while ((c = getopt_long(nopt, argv, ":i:jhV", longopts,
				NULL)) != -1) {
		switch (c) {
		case 's':
			if (strcmp(optarg, "auto") && strcmp(optarg, "qstats") &&
			    strcmp(optarg, "ethtool"))
				usage_err("bad --counters '%s': want auto, qstats or ethtool",
					  optarg);
			source = optarg;
			break;
		case 'f':
			efile = optarg;
			break;
		case 'Q':
			qfile = optarg;
			break;
		case 'i':
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
		case 'V':
			print_version();
		case ':':
			usage_err("option '%s' needs a value", argv[optind - 1]);
		default:
			usage_err("unknown option '%s'", argv[optind - 1]);
		}
	}
	argc = nopt - optind;
	argv += optind;
	if (dev && !efile && !qfile) {	/* -i DEV: the device argument */
		if (argc)
			usage_err("give the device once: -i %s or %s", dev, argv[0]);
		argv = (char **)&dev;
		argc = 1;
	}

	if (!strcmp(cmd, "snap")) {
		if (json || have_time)
			usage_err("snap takes no --json or --time");
		if (efile && qfile)
			usage_err("give either --ethtool-file or --qstats-file");
		if (efile || qfile) {
			if (argc)
				usage_err("snap --%s-file takes no device argument",
					  efile ? "ethtool" : "qstats");
			memset(&a, 0, sizeof(a));
			snprintf(a.dev, sizeof(a.dev), "%s", dev ? dev : "file");
			if (efile)
				read_ethtool_file(efile, &a);
#ifdef HAVE_QSTATS
			else
				read_qstats_file(qfile, &a);
#else
			else
				die("--qstats-file: %s", QSTATS_WHY_NOT);
#endif
		} else {
			if (argc != 1)
				usage_err("snap needs exactly one device");
			take_snap(argv[0], source, &a);
		}
		write_snap(stdout, &a);
		return 0;
	}
	if (efile || qfile)
		usage_err("--ethtool-file and --qstats-file are only for snap");
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
