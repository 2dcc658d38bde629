// SPDX-License-Identifier: GPL-2.0
/*
 * l4steer - install, list and remove ethtool ntuple rules that spread an
 * IP protocol over RX queues by the port bits in its first four bytes
 * (ethtool "l4data"), and pin the queues' IRQs to chosen cores.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

/* 1024 buckets in both families */
#define MAX_RULES	2048
#define MAX_MAPS	256

static const char help_text[] =
"NAME\n"
"    l4steer - steer an IP protocol to RX queues by its port bits\n"
"\n"
"SYNOPSIS\n"
"    l4steer buckets DEV -p PROTO -f sport|dport -b N [-q QUEUES] [-c CORES]\n"
"                    [-4] [-6] [-l LOC] [-n] [-s STATE]\n"
"    l4steer range DEV -p PROTO -f sport|dport -m LO-HI:QUEUE|P:QUEUE\n"
"                    [-m ...]\n"
"                    [-4] [-6] [-l LOC] [-n] [-s STATE]\n"
"    l4steer list DEV [-s STATE]\n"
"    l4steer remove DEV [-n] [-s STATE]\n"
"    l4steer --version\n"
"\n"
"DESCRIPTION\n"
"    Rules have the form\n"
"        ethtool -N DEV flow-type ip4|ip6 l4proto P l4data V m M action Q\n"
"    where l4data is the first four bytes after the IP header read\n"
"    big-endian, sport<<16|dport for port-style headers (Homa 146, SCTP\n"
"    132), and M has 1 for every bit to ignore.\n"
"\n"
"    buckets  N (a power of two) buckets on the low log2(N) bits of the\n"
"             chosen port: bucket k -> the k-th queue of QUEUES (default\n"
"             0..N-1). With -c, the IRQ of each queue (mlx5_comp<Q>@pci:<BDF>\n"
"             in /proc/interrupts) is pinned to the matching core through\n"
"             /proc/irq/<IRQ>/smp_affinity_list.\n"
"    range    each port range LO-HI (or single port P) goes to QUEUE, with\n"
"             the fewest prefix rules: adjacent ranges to the same queue\n"
"             are merged, then each range is cut into aligned power-of-two\n"
"             blocks (at most 30 for a 16-bit port), one masked rule each.\n"
"    list     show what l4steer installed on DEV (from the state file).\n"
"    remove   delete exactly the rules l4steer installed, restore the IRQ\n"
"             affinities it changed, turn ntuple off again if it turned it\n"
"             on, then delete the state file.\n"
"\n"
"    Before anything else, buckets and range read 'ethtool -k DEV': they\n"
"    refuse a device whose ntuple-filters is 'off [fixed]' or missing, and\n"
"    turn it on ('ethtool -K DEV ntuple on') when it is merely off (on\n"
"    mlx5 that also turns on aRFS; l4data rules do not need it). They\n"
"    read 'ethtool -l DEV' and refuse a plan that uses a queue the\n"
"    device does not have (RX + combined channels).\n"
"    Install stops at the first failure and undoes what it did.\n"
"\n"
"    Locations. Rule k of the plan goes to location LOC+k ('ethtool -N\n"
"    ... loc N'; LOC 0 by default; mlx5 has locations 0-1023), and\n"
"    'ethtool -n DEV' is the truth: before installing, l4steer reads it.\n"
"    A location that already holds the identical rule (flow type,\n"
"    protocol, l4data, mask and queue) is kept, so installing the same\n"
"    plan twice, by hand or through flexl4-steer, installs each rule once\n"
"    (then it says 'already installed' and changes no rule). A location\n"
"    that holds any other rule is refused, naming it. remove deletes a\n"
"    rule only where 'ethtool -n' still shows it at its location.\n"
"\n"
"OPTIONS\n"
"    -p, --proto N        IP protocol number 0-255, except those the\n"
"                         NIC's fixed parser handles and mlx5 refuses\n"
"                         l4data rules for: 0 1 4 41 43 44 47 50 51 58\n"
"                         60 135 139 140 (TCP 6 and UDP 17 are matched\n"
"                         on the ports the NIC parses)\n"
"    -f, --field F        sport or dport: which port the buckets/ranges use\n"
"    -b, --buckets N      number of buckets: 1, 2, 4, ... 1024\n"
"    -q, --queues LIST    queues for buckets 0..N-1 (N entries; 3,5,8-13)\n"
"    -c, --cores LIST     cores for those queues' IRQs (N entries)\n"
"    -m, --map LO-HI:Q    range: ports LO..HI to queue Q, or P:Q for one\n"
"                         port (repeatable; ranges must not overlap)\n"
"    -4, -6               only ip4 or only ip6 rules (default: both)\n"
"    -l, --loc LOC        first location of the rules (default 0): rule k\n"
"                         at LOC+k; give each rule set of a device its own\n"
"                         range (flexl4-steer does)\n"
"    -n, --dry-run        print the exact commands, change nothing; works\n"
"                         without an ntuple-capable DEV (planning on\n"
"                         another host): then it warns on stderr and\n"
"                         prints the 'ntuple on' step too\n"
"    -s, --state FILE     state file (default $L4STEER_STATE_DIR/DEV.state,\n"
"                         directory default /run/l4steer)\n"
"    -h, --help           show this text\n"
"    -V, --version        print the version\n"
"\n"
"ENVIRONMENT\n"
"    ETHTOOL        ethtool command to run (default: ethtool from PATH)\n"
"    L4STEER_CHANNELS  check the queues against this many channels\n"
"                   instead of 'ethtool -l DEV' (for planning a channel\n"
"                   count that is not set yet; flexl4-steer uses it)\n"
"    L4STEER_PROC   where /proc is (default /proc; for tests)\n"
"    L4STEER_SYS    where /sys is (default /sys; for tests)\n"
"\n"
"EXIT STATUS\n"
"    0 done (also: the rules were already installed), 1 refused or failed\n"
"    (no such device, no ntuple support, too few channels, locations\n"
"    held by other rules, ethtool error, another plan installed, nothing\n"
"    to remove), 2 bad arguments (a protocol mlx5 refuses included).\n"
"\n"
"NOTES\n"
"    irqbalance may move IRQs back: disable it, or ban these IRQs from it\n"
"    (--banirq=N in IRQBALANCE_ARGS of /etc/default/irqbalance).\n"
"    A core of --cores that /sys/devices/system/cpu/online does not list\n"
"    is warned about; /sys/class/net/DEV/device/local_cpulist names the\n"
"    cores near the NIC.\n"
"\n"
"EXAMPLES\n"
"    # Homa by destination port low nibble: 16 buckets, queue k on core k\n"
"    l4steer buckets eth0 -p 146 -f dport -b 16 -c 0-15 --dry-run\n"
"    l4steer range eth0 -p 132 -f dport -m 1000-1999:2 -m 2000-2999:3\n"
"    l4steer list eth0\n"
"    l4steer remove eth0\n";

enum cmd { CMD_BUCKETS, CMD_RANGE, CMD_LIST, CMD_REMOVE };

struct rule {
	int family;		/* 4 or 6 */
	uint32_t data, mask;	/* mask: 1 = ignore, as ethtool takes it */
	uint32_t queue;
	long id;		/* its location once installed (or kept) */
	bool added;		/* installed by this run (undone if it fails) */
};

struct irq {
	unsigned int irq, queue, core;
	char old[256];		/* previous smp_affinity_list */
};

struct plan {
	const char *dev;
	int proto;
	bool dport, fam4, fam6, dry_run;
	struct rule rules[MAX_RULES];
	size_t nrules;
	struct irq irqs[MAX_RULES];
	size_t nirqs;
	bool ntuple_on;		/* we turn (turned) ntuple on */
	bool ntuple_was;	/* an earlier run of this plan turned it on */
	bool no_device;		/* dry run for a device we cannot read */
	long loc0;		/* location of rule 0; rule k at loc0 + k */
	char state[PATH_MAX];
};

static const char *ethtool_cmd(void)
{
	const char *e = getenv("ETHTOOL");

	return e && *e ? e : "ethtool";
}

static const char *root_dir(const char *var, const char *def)
{
	const char *e = getenv(var);

	return e && *e ? e : def;
}

/*
 * Run argv, capturing up to len-1 bytes of stdout into out (stderr
 * passes through). Returns the exit status, or -1 if it could not run.
 */
static int run(char *const argv[], char *out, size_t len)
{
	int pfd[2], status;
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	fflush(stdout);
	if (pipe(pfd) < 0)
		die("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		dup2(pfd[1], 1);
		close(pfd[0]);
		close(pfd[1]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(pfd[1]);
	while ((n = read(pfd[0], out + got, len - 1 - got)) > 0 ||
	       (n < 0 && errno == EINTR))
		if (n > 0)
			got += n;
	out[got] = '\0';
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("waitpid: %s", strerror(errno));
	if (!WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status) == 127 ? -1 : WEXITSTATUS(status);
}

/*
 * Refuse (exit 1) with msg, or in a dry run only warn: the plan is printed
 * for a device that can take it, with the 'ntuple on' step.
 */
static void __attribute__((format(printf, 2, 3)))
ntuple_refuse(struct plan *p, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!p->dry_run)
		die("%s; refusing", msg);
	warnx("%s; dry run: printing the commands for a device that has them", msg);
	p->ntuple_on = true;
	p->no_device = true;
}

/* Read "ntuple-filters:" from ethtool -k; refuse if fixed off or absent. */
static void check_ntuple(struct plan *p)
{
	char *argv[] = { (char *)ethtool_cmd(), "-k", (char *)p->dev, NULL };
	static char out[65536];
	char *line, val[64] = "";
	int rc;

	rc = run(argv, out, sizeof(out));
	if (rc < 0)
		return ntuple_refuse(p, "cannot run '%s' (install the ethtool package)",
				     argv[0]);
	if (rc)
		return ntuple_refuse(p, "'%s -k %s' failed (exit %d)", argv[0],
				     p->dev, rc);
	line = strstr(out, "ntuple-filters:");
	if (!line)
		return ntuple_refuse(p, "%s does not support ntuple filters (no ntuple-filters in 'ethtool -k %s')",
				     p->dev, p->dev);
	if (sscanf(line + strlen("ntuple-filters:"), " %63[^\n]", val) != 1)
		val[0] = '\0';
	if (strstr(val, "[fixed]") && strncmp(val, "on", 2))
		return ntuple_refuse(p, "%s does not support ntuple filters (ntuple-filters: %s)",
				     p->dev, val);
	if (strncmp(val, "on", 2) && strncmp(val, "off", 3))
		return ntuple_refuse(p, "cannot read ntuple-filters state of %s ('%s')",
				     p->dev, val);
	p->ntuple_on = !strncmp(val, "off", 3);
}

/*
 * The protocols whose l4data mlx5 refuses: its fixed parser handles them, and
 * a parse graph node would replace that (mlx5_pg_fixed_proto() in the
 * series' lib/parse_graph.c). TCP and UDP are matched on the ports the
 * fixed parser extracts, so they are not here.
 */
static const char *fixed_proto(int proto)
{
	switch (proto) {
	case 0: return "IPv6 hop-by-hop options";
	case 1: return "ICMP";
	case 4: return "IPIP";
	case 41: return "IPv6 in IP";
	case 43: return "IPv6 routing header";
	case 44: return "IPv6 fragment header";
	case 47: return "GRE";
	case 50: return "ESP";
	case 51: return "AH";
	case 58: return "ICMPv6";
	case 60: return "IPv6 destination options";
	case 135: return "IPv6 mobility header";
	case 139: return "HIP";
	case 140: return "Shim6";
	default: return NULL;
	}
}

/*
 * The device's RX queues: RX + combined channels of 'ethtool -l DEV'
 * (Current hardware settings), or $L4STEER_CHANNELS. Every queue of the
 * plan must exist. A dry run for a device it cannot read warns instead.
 */
static void check_channels(struct plan *p)
{
	char *argv[] = { (char *)ethtool_cmd(), "-l", (char *)p->dev, NULL };
	const char *env = getenv("L4STEER_CHANNELS");
	static char out[65536];
	unsigned long rx = 0, comb = 0, n;
	uint32_t top = 0;
	uint64_t v;
	char *cur, *s;
	int rc;

	for (size_t k = 0; k < p->nrules; k++)
		if (p->rules[k].queue > top)
			top = p->rules[k].queue;
	if (env && *env) {
		if (!parse_u64(env, 1, 65536, &v))
			usage_err("bad L4STEER_CHANNELS '%s': want 1-65536", env);
		n = v;
		if (top >= n)
			die("queue %u does not exist with %lu channels (L4STEER_CHANNELS); refusing",
			    top, n);
		return;
	}
	if (p->no_device)
		return;
	rc = run(argv, out, sizeof(out));
	cur = rc ? NULL : strstr(out, "Current hardware settings:");
	if (!cur) {
		if (p->dry_run)
			return warnx("cannot read the channel count of %s ('%s -l %s' %s); dry run: not checked",
				     p->dev, argv[0], p->dev, rc < 0 ? "did not run" : "failed");
		die("cannot read the channel count of %s ('%s -l %s' %s); refusing",
		    p->dev, argv[0], p->dev, rc < 0 ? "did not run" : "failed");
	}
	s = strstr(cur, "\nRX:");
	if (s)
		sscanf(s, "\nRX: %lu", &rx);
	s = strstr(cur, "\nCombined:");
	if (s)
		sscanf(s, "\nCombined: %lu", &comb);
	n = rx + comb;
	if (top >= n)
		die("queue %u does not exist: %s has %lu RX queues (ethtool -l: RX %lu, combined %lu); first 'ethtool -L %s combined %u'; refusing",
		    top, p->dev, n, rx, comb, p->dev, top + 1);
}

static void default_state_path(struct plan *p)
{
	snprintf(p->state, sizeof(p->state), "%s/%s.state",
		 root_dir("L4STEER_STATE_DIR", "/run/l4steer"), p->dev);
}

/* /sys/class/net/DEV exists */
static bool dev_present(const struct plan *p)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/class/net/%s",
		 root_dir("L4STEER_SYS", "/sys"), p->dev);
	return !stat(path, &st);
}

/*
 * Warn about cores of --cores that /sys/devices/system/cpu/online does not
 * list (writing them to smp_affinity_list fails). Silent if it cannot be read.
 */
static void check_online(const uint32_t *cores, size_t n)
{
	char path[PATH_MAX], online[4096], off[128] = "";
	uint32_t *on;
	size_t non, noff = 0, len = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/online",
		 root_dir("L4STEER_SYS", "/sys"));
	f = fopen(path, "r");
	if (!f)
		return;
	if (!fgets(online, sizeof(online), f)) {
		fclose(f);
		return;
	}
	fclose(f);
	online[strcspn(online, "\n")] = '\0';
	if (!parse_num_list(online, 65535, 65536, &on, &non))
		return;
	for (size_t k = 0; k < n; k++) {
		bool found = false;

		for (size_t j = 0; j < non && !found; j++)
			found = on[j] == cores[k];
		if (found)
			continue;
		if (noff++ < 8)
			len += snprintf(off + len, sizeof(off) - len, "%s%u",
					len ? "," : "", cores[k]);
		else if (noff == 9)
			len += snprintf(off + len, sizeof(off) - len, ",...");
	}
	free(on);
	if (noff)
		warnx("--cores names %zu CPU%s that %s not online (%s; online: %s): pinning %s IRQ%s will fail",
		      noff, noff > 1 ? "s" : "", noff > 1 ? "are" : "is", off,
		      online, noff > 1 ? "their" : "its", noff > 1 ? "s" : "");
}

/* ---- building the rules --------------------------------------------- */

static void add_rule(struct plan *p, uint32_t port, uint32_t ignore,
		     uint32_t queue)
{
	static const int fams[2] = { 4, 6 };

	for (int k = 0; k < 2; k++) {
		struct rule *r;

		if ((k == 0 && !p->fam4) || (k == 1 && !p->fam6))
			continue;
		if (p->nrules == MAX_RULES)
			usage_err("more than %d rules", MAX_RULES);
		r = &p->rules[p->nrules++];
		r->family = fams[k];
		r->queue = queue;
		r->id = -1;
		if (p->dport) {
			r->data = port;
			r->mask = 0xffff0000u | ignore;
		} else {
			r->data = port << 16;
			r->mask = 0x0000ffffu | ignore << 16;
		}
	}
}

/*
 * Cover [lo, hi] with the fewest aligned power-of-two blocks: at each
 * step take the largest block that starts at lo and stays within hi.
 * Blocks are emitted in port order; the caller sorts rules by family.
 */
static size_t add_range(struct plan *p, uint32_t lo, uint32_t hi,
			uint32_t queue)
{
	size_t n = 0;

	while (lo <= hi) {
		uint32_t size = 1;

		while (!(lo & size) && size < 0x10000 &&
		       lo + 2 * size - 1 <= hi)
			size <<= 1;
		add_rule(p, lo, size - 1, queue);
		n++;
		lo += size;
	}
	return n;
}

/*
 * Join ranges that touch (one's HI + 1 is the other's LO) and go to the same
 * queue: the union is one range, whose prefix cover can need fewer rules
 * than the parts' covers (1-1, 2-2, 3-3 take 3 rules, 1-3 takes 2). Ranges
 * do not overlap. Each merged range keeps the place of its first part.
 */
static void merge_adjacent(uint32_t *lo, uint32_t *hi, uint32_t *q, size_t *n)
{
	bool merged;

	do {
		merged = false;
		for (size_t k = 0; k < *n && !merged; k++) {
			for (size_t j = 0; j < *n; j++) {
				if (j == k || q[j] != q[k] ||
				    (hi[k] + 1 != lo[j] && hi[j] + 1 != lo[k]))
					continue;
				if (lo[j] < lo[k])
					lo[k] = lo[j];
				if (hi[j] > hi[k])
					hi[k] = hi[j];
				memmove(lo + j, lo + j + 1, (*n - j - 1) * sizeof(*lo));
				memmove(hi + j, hi + j + 1, (*n - j - 1) * sizeof(*hi));
				memmove(q + j, q + j + 1, (*n - j - 1) * sizeof(*q));
				(*n)--;
				merged = true;
				break;
			}
		}
	} while (merged);
}

/* Rules were added family-interleaved; emit all ip4 rules, then ip6. */
static void sort_by_family(struct plan *p)
{
	static struct rule tmp[MAX_RULES];
	size_t n = 0;

	for (int fam = 4; fam <= 6; fam += 2)
		for (size_t k = 0; k < p->nrules; k++)
			if (p->rules[k].family == fam)
				tmp[n++] = p->rules[k];
	memcpy(p->rules, tmp, n * sizeof(*tmp));
}

/* Find the IRQ of queue q: "mlx5_comp<q>@pci:<bdf>" in /proc/interrupts. */
static unsigned int queue_irq(const struct plan *p, const char *bdf,
			      unsigned int q)
{
	char path[PATH_MAX], line[4096], want[128];
	unsigned int irq;
	FILE *f;

	snprintf(path, sizeof(path), "%s/interrupts",
		 root_dir("L4STEER_PROC", "/proc"));
	snprintf(want, sizeof(want), "mlx5_comp%u@pci:%s", q, bdf);
	f = fopen(path, "r");
	if (!f)
		die("%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char *name;

		line[strcspn(line, "\n")] = '\0';
		while (*line && line[strlen(line) - 1] == ' ')
			line[strlen(line) - 1] = '\0';
		name = strrchr(line, ' ');
		if (name && !strcmp(name + 1, want) &&
		    sscanf(line, " %u:", &irq) == 1) {
			fclose(f);
			return irq;
		}
	}
	fclose(f);
	die("no IRQ named %s in %s (queue %u of %s)", want, path, q, p->dev);
}

static void plan_irqs(struct plan *p, const uint32_t *queues,
		      const uint32_t *cores, size_t n)
{
	char link[PATH_MAX], target[PATH_MAX];
	const char *bdf;
	ssize_t len;

	snprintf(link, sizeof(link), "%s/class/net/%s/device",
		 root_dir("L4STEER_SYS", "/sys"), p->dev);
	len = readlink(link, target, sizeof(target) - 1);
	if (len < 0)
		die("%s is not a PCI device (%s: %s); cannot find its queue IRQs",
		    p->dev, link, strerror(errno));
	target[len] = '\0';
	bdf = basename(target);
	for (size_t k = 0; k < n; k++) {
		bool seen = false;

		for (size_t j = 0; j < p->nirqs; j++)
			if (p->irqs[j].queue == queues[k])
				seen = true;
		if (seen)
			continue;
		p->irqs[p->nirqs].queue = queues[k];
		p->irqs[p->nirqs].core = cores[k];
		p->irqs[p->nirqs].irq = queue_irq(p, bdf, queues[k]);
		p->nirqs++;
	}
}

/* ---- the device's rules: 'ethtool -n DEV' --------------------------- */

/* One "Filter: N" block of 'ethtool -n' */
struct have {
	long loc;
	bool l4data;		/* a plain l4data rule: family, proto, r */
	int family, proto, seen;
	struct rule r;
	char type[64];		/* its Rule Type, to name another rule */
};

#define MAX_HAVE	4096
static struct have have[MAX_HAVE];
static size_t nhave;

/*
 * Read 'ethtool -n DEV' (rxclass.c's format) into have[]: a plain l4data
 * rule is a "Raw IPv4" or "Raw IPv6" rule that ignores the addresses and
 * the TOS/traffic class, matches the whole protocol and the L4 bytes under
 * a mask, and directs to a queue; any other line makes it another rule.
 * False if ethtool failed.
 */
static bool read_rules(const struct plan *p)
{
	char *argv[] = { (char *)ethtool_cmd(), "-n", (char *)p->dev, NULL };
	static char out[1 << 21];
	struct have *h = NULL;
	char *line, *save, *m;
	unsigned int a, b;
	long loc;

	nhave = 0;
	if (run(argv, out, sizeof(out)))
		return false;
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		while (*line == '\t' || *line == ' ')
			line++;
		if (sscanf(line, "Filter: %ld", &loc) == 1) {
			if (nhave == MAX_HAVE)
				die("more than %d rules in '%s -n %s'", MAX_HAVE,
				    argv[0], p->dev);
			h = &have[nhave++];
			memset(h, 0, sizeof(*h));
			h->loc = loc;
			snprintf(h->type, sizeof(h->type), "a rule");
			continue;
		}
		if (!h || !*line)
			continue;
		if (!strncmp(line, "Rule Type: ", 11)) {
			snprintf(h->type, sizeof(h->type), "%s", line + 11);
			h->family = !strcmp(h->type, "Raw IPv4") ? 4 :
				    !strcmp(h->type, "Raw IPv6") ? 6 : 0;
			h->l4data = h->family;
		} else if (!strncmp(line, "Src IP addr: ", 13) ||
			   !strncmp(line, "Dest IP addr: ", 14)) {
			m = strstr(line, " mask: ");
			if (!m || (strcmp(m + 7, "255.255.255.255") &&
				   strcmp(m + 7, "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff")))
				h->l4data = false;
		} else if (sscanf(line, "TOS: 0x%x mask: 0x%x", &a, &b) == 2 ||
			   sscanf(line, "Traffic Class: 0x%x mask: 0x%x", &a, &b) == 2) {
			if (b != 0xff)
				h->l4data = false;
		} else if (sscanf(line, "Protocol: %u mask: 0x%x", &a, &b) == 2) {
			h->proto = a;
			h->seen |= 1;
			if (b)
				h->l4data = false;
		} else if (sscanf(line, "L4 bytes: 0x%x mask: 0x%x", &h->r.data,
				  &h->r.mask) == 2) {
			h->seen |= 2;
		} else if (sscanf(line, "Action: Direct to queue %u", &h->r.queue) == 1) {
			h->seen |= 4;
		} else {
			h->l4data = false;	/* VLAN, user-def, MAC, another action */
		}
	}
	for (size_t k = 0; k < nhave; k++)
		if (have[k].seen != 7)
			have[k].l4data = false;
	return true;
}

static struct have *have_at(long loc)
{
	for (size_t k = 0; k < nhave; k++)
		if (have[k].loc == loc)
			return &have[k];
	return NULL;
}

/* The device's rule h is exactly the planned rule r */
static bool same_rule(const struct plan *p, const struct have *h,
		      const struct rule *r)
{
	return h->l4data && h->family == r->family && h->proto == p->proto &&
	       h->r.data == r->data && h->r.mask == r->mask &&
	       h->r.queue == r->queue;
}

static void have_desc(const struct have *h, char *buf, size_t len)
{
	if (h->l4data)
		snprintf(buf, len,
			 "flow-type ip%d l4proto %d l4data 0x%x m 0x%08x action %u",
			 h->family, h->proto, h->r.data, h->r.mask, h->r.queue);
	else
		snprintf(buf, len, "%s", h->type);
}

/* ---- commands ------------------------------------------------------- */

static void rule_args(const struct plan *p, const struct rule *r,
		      char *buf, size_t len)
{
	snprintf(buf, len,
		 "flow-type ip%d l4proto %d l4data 0x%x m 0x%08x action %u",
		 r->family, p->proto, r->data, r->mask, r->queue);
}

static void irq_path(unsigned int irq, char *buf, size_t len)
{
	snprintf(buf, len, "%s/irq/%u/smp_affinity_list",
		 root_dir("L4STEER_PROC", "/proc"), irq);
}

/* Run "ethtool ARGS" where ARGS is a space-separated string. */
static int ethtool(const char *args, char *out, size_t len)
{
	char buf[512], *argv[32], *tok, *save;
	int n = 0;

	argv[n++] = (char *)ethtool_cmd();
	snprintf(buf, sizeof(buf), "%s", args);
	for (tok = strtok_r(buf, " ", &save); tok && n < 31;
	     tok = strtok_r(NULL, " ", &save))
		argv[n++] = tok;
	argv[n] = NULL;
	return run(argv, out, len);
}

static bool write_file(const char *path, const char *val)
{
	FILE *f = fopen(path, "w");
	bool ok;

	if (!f) {
		warnx("%s: %s", path, strerror(errno));
		return false;
	}
	ok = fprintf(f, "%s\n", val) > 0;
	ok = !fclose(f) && ok;
	if (!ok)
		warnx("writing %s to %s: %s", val, path, strerror(errno));
	return ok;
}

static bool read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, len, f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

static void save_state(const struct plan *p)
{
	char tmp[PATH_MAX + 8], args[256];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", p->state);
	f = fopen(tmp, "w");
	if (!f)
		die("%s: %s", tmp, strerror(errno));
	fprintf(f, "# l4steer state: what 'l4steer remove %s' undoes\n",
		p->dev);
	fprintf(f, "dev %s\nproto %d\n", p->dev, p->proto);
	if (p->ntuple_on)
		fprintf(f, "ntuple-enabled\n");
	for (size_t k = 0; k < p->nrules; k++) {
		if (p->rules[k].id < 0)
			continue;
		rule_args(p, &p->rules[k], args, sizeof(args));
		fprintf(f, "rule %ld %s\n", p->rules[k].id, args);
	}
	for (size_t k = 0; k < p->nirqs; k++)
		if (p->irqs[k].old[0])
			fprintf(f, "irq %u queue %u core %u old %s\n",
				p->irqs[k].irq, p->irqs[k].queue,
				p->irqs[k].core, p->irqs[k].old);
	if (fclose(f) || rename(tmp, p->state))
		die("%s: %s", p->state, strerror(errno));
}

static void load_state(struct plan *p)
{
	char line[512], dev[64];
	FILE *f = fopen(p->state, "r");
	int lineno = 0, used;

	if (!f)
		die("nothing installed by l4steer on %s (%s: %s)", p->dev,
		    p->state, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		struct rule *r = &p->rules[p->nrules];
		struct irq *q = &p->irqs[p->nirqs];
		long id;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		if (sscanf(line, "dev %63s", dev) == 1) {
			if (strcmp(dev, p->dev))
				die("%s:%d: state is for %s, not %s", p->state,
				    lineno, dev, p->dev);
		} else if (sscanf(line, "proto %d", &p->proto) == 1) {
		} else if (!strcmp(line, "ntuple-enabled")) {
			p->ntuple_on = true;
		} else if (p->nrules < MAX_RULES &&
			   sscanf(line, "rule %ld flow-type ip%d l4proto %*d l4data %x m %x action %u%n",
				  &id, &r->family, &r->data, &r->mask,
				  &r->queue, &used) == 5 && !line[used]) {
			r->id = id;
			p->nrules++;
		} else if (p->nirqs < MAX_RULES &&
			   sscanf(line, "irq %u queue %u core %u old %255s",
				  &q->irq, &q->queue, &q->core, q->old) == 4) {
			p->nirqs++;
		} else {
			die("%s:%d: cannot parse '%s'", p->state, lineno, line);
		}
	}
	fclose(f);
}

/*
 * Undo what p records (IRQs, rules newest first, ntuple); with only_added,
 * only the rules this run installed. Outside a dry run a rule is deleted
 * only where 'ethtool -n' shows it at its location (rules vanish at a driver
 * reload or firmware reset, and another tool may own the location now);
 * *gone counts those skipped. If 'ethtool -n' cannot be read, every rule is
 * deleted by its location.
 */
static int undo(struct plan *p, bool only_added, size_t *gone)
{
	char args[512], out[4096], path[PATH_MAX], desc[256];
	bool known = !p->dry_run && read_rules(p);
	int failed = 0;

	for (size_t k = p->nirqs; k-- > 0;) {
		struct irq *q = &p->irqs[k];

		if (!q->old[0])
			continue;
		irq_path(q->irq, path, sizeof(path));
		if (p->dry_run)
			printf("echo %s > %s\n", q->old, path);
		else if (!write_file(path, q->old))
			failed++;
	}
	for (size_t k = p->nrules; k-- > 0;) {
		struct rule *r = &p->rules[k];
		struct have *h;

		if (r->id < 0 || (only_added && !r->added))
			continue;
		if (known) {
			h = have_at(r->id);
			if (!h) {
				(*gone)++;
				continue;
			}
			if (!same_rule(p, h, r)) {
				have_desc(h, desc, sizeof(desc));
				warnx("location %ld of %s holds another rule now (%s); left alone",
				      r->id, p->dev, desc);
				(*gone)++;
				continue;
			}
		}
		snprintf(args, sizeof(args), "-N %s delete %ld", p->dev, r->id);
		if (p->dry_run) {
			printf("%s %s\n", ethtool_cmd(), args);
		} else if (ethtool(args, out, sizeof(out))) {
			warnx("'%s %s' failed", ethtool_cmd(), args);
			failed++;
		}
	}
	if (p->ntuple_on) {
		snprintf(args, sizeof(args), "-K %s ntuple off", p->dev);
		if (p->dry_run) {
			printf("%s %s\n", ethtool_cmd(), args);
		} else if (ethtool(args, out, sizeof(out))) {
			warnx("'%s %s' failed", ethtool_cmd(), args);
			failed++;
		}
	}
	return failed;
}

/*
 * An existing state file must record this very plan (rules at the same
 * locations, the same IRQ pinning): then install completes it. Its IRQs'
 * previous affinities and its ntuple step are kept.
 */
static void check_state(struct plan *p)
{
	static struct plan st;
	bool same;

	memset(&st, 0, sizeof(st));
	st.dev = p->dev;
	snprintf(st.state, sizeof(st.state), "%s", p->state);
	load_state(&st);
	same = st.proto == p->proto && st.nrules == p->nrules &&
	       st.nirqs == p->nirqs;
	for (size_t k = 0; same && k < p->nrules; k++)
		same = st.rules[k].id == p->loc0 + (long)k &&
		       st.rules[k].family == p->rules[k].family &&
		       st.rules[k].data == p->rules[k].data &&
		       st.rules[k].mask == p->rules[k].mask &&
		       st.rules[k].queue == p->rules[k].queue;
	for (size_t k = 0; same && k < p->nirqs; k++)
		same = st.irqs[k].irq == p->irqs[k].irq &&
		       st.irqs[k].core == p->irqs[k].core;
	if (!same)
		die("other l4steer rules are installed on %s (%s); run 'l4steer remove %s' first",
		    p->dev, p->state, p->dev);
	for (size_t k = 0; k < p->nirqs; k++)
		snprintf(p->irqs[k].old, sizeof(p->irqs[k].old), "%s",
			 st.irqs[k].old);
	p->ntuple_was = st.ntuple_on;
}

static void install(struct plan *p)
{
	char args[PATH_MAX + 64], out[4096], path[PATH_MAX], cpu[16], cur[256];
	char others[512] = "", desc[256], *dir;
	size_t kept = 0, nothers = 0, len = 0, gone = 0;
	long last = p->loc0 + (long)p->nrules - 1;
	bool enable = p->ntuple_on, turned = false;
	struct stat st;

	if (p->dry_run) {
		if (enable)
			printf("%s -K %s ntuple on\n", ethtool_cmd(), p->dev);
		for (size_t k = 0; k < p->nrules; k++) {
			rule_args(p, &p->rules[k], args, sizeof(args));
			printf("%s -N %s %s loc %ld\n", ethtool_cmd(), p->dev,
			       args, p->loc0 + (long)k);
		}
		for (size_t k = 0; k < p->nirqs; k++) {
			irq_path(p->irqs[k].irq, path, sizeof(path));
			printf("echo %u > %s\n", p->irqs[k].core, path);
		}
		return;
	}
	if (!stat(p->state, &st))
		check_state(p);
	/* 'ethtool -n' is the truth: identical rules are kept, others refused */
	if (!read_rules(p))
		die("cannot read the rules of %s ('%s -n %s' failed); refusing",
		    p->dev, ethtool_cmd(), p->dev);
	for (size_t k = 0; k < p->nrules; k++) {
		struct have *h = have_at(p->loc0 + (long)k);

		if (!h)
			continue;
		if (same_rule(p, h, &p->rules[k])) {
			p->rules[k].id = h->loc;
			kept++;
			continue;
		}
		if (nothers++ < 3) {
			have_desc(h, desc, sizeof(desc));
			len += snprintf(others + len, sizeof(others) - len, "%s%ld: %s",
					len ? "; " : "", h->loc, desc);
		} else if (nothers == 4) {
			len += snprintf(others + len, sizeof(others) - len, "; ...");
		}
	}
	if (nothers)
		die("locations %ld-%ld of %s hold %zu other rule%s (%s): see '%s -n %s'; delete %s ('%s -N %s delete N') or choose free locations (--loc); refusing",
		    p->loc0, last, p->dev, nothers, nothers > 1 ? "s" : "", others,
		    ethtool_cmd(), p->dev, nothers > 1 ? "them" : "it",
		    ethtool_cmd(), p->dev);
	snprintf(path, sizeof(path), "%s", p->state);
	dir = dirname(path);
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		die("%s: %s", dir, strerror(errno));

	p->ntuple_on = p->ntuple_was;
	save_state(p);
	if (kept == p->nrules)
		printf("already installed: the %zu rules at locations %ld-%ld of %s ('%s -n %s'); no rule changed\n",
		       kept, p->loc0, last, p->dev, ethtool_cmd(), p->dev);
	else if (kept)
		printf("already installed: %zu of the %zu rules, at their locations ('%s -n %s')\n",
		       kept, p->nrules, ethtool_cmd(), p->dev);
	if (enable) {
		snprintf(args, sizeof(args), "-K %s ntuple on", p->dev);
		if (ethtool(args, out, sizeof(out)))
			goto fail;
		p->ntuple_on = turned = true;
		save_state(p);
	}
	for (size_t k = 0; k < p->nrules; k++) {
		struct rule *r = &p->rules[k];
		char spec[256];

		if (r->id >= 0)
			continue;
		rule_args(p, r, spec, sizeof(spec));
		snprintf(args, sizeof(args), "-N %s %s loc %ld", p->dev, spec,
			 p->loc0 + (long)k);
		if (ethtool(args, out, sizeof(out)))
			goto fail;
		r->id = p->loc0 + (long)k;
		r->added = true;
		save_state(p);
		printf("rule %ld: %s\n", r->id, spec);
	}
	for (size_t k = 0; k < p->nirqs; k++) {
		struct irq *q = &p->irqs[k];

		irq_path(q->irq, path, sizeof(path));
		/* What failed, for the message below. */
		snprintf(args, sizeof(args), "echo %u > %s", q->core, path);
		if (!read_line(path, cur, sizeof(cur))) {
			warnx("%s: %s", path, strerror(errno));
			goto fail;
		}
		snprintf(cpu, sizeof(cpu), "%u", q->core);
		if (!q->old[0])
			snprintf(q->old, sizeof(q->old), "%s", cur);
		if (!strcmp(cur, cpu)) {
			save_state(p);
			continue;
		}
		if (!write_file(path, cpu)) {
			q->old[0] = '\0';
			goto fail;
		}
		save_state(p);
		printf("irq %u (queue %u): cpu %u (was %s)\n", q->irq, q->queue,
		       q->core, cur);
	}
	printf("state: %s\n", p->state);
	return;
fail:
	warnx("'%s%s%s' failed; undoing what was installed",
	      strncmp(args, "echo ", 5) ? ethtool_cmd() : "",
	      strncmp(args, "echo ", 5) ? " " : "", args);
	p->ntuple_on = turned;
	undo(p, true, &gone);
	if (kept) {	/* the rules kept stay recorded */
		for (size_t k = 0; k < p->nrules; k++)
			if (p->rules[k].added)
				p->rules[k].id = -1;
		p->ntuple_on = p->ntuple_was;
		save_state(p);
	} else {
		unlink(p->state);
	}
	exit(1);
}

static void list(struct plan *p)
{
	char args[256];

	load_state(p);
	printf("%s: state %s\n", p->dev, p->state);
	if (p->ntuple_on)
		printf("ntuple-filters: turned on by l4steer\n");
	for (size_t k = 0; k < p->nrules; k++) {
		rule_args(p, &p->rules[k], args, sizeof(args));
		printf("rule %ld: %s\n", p->rules[k].id, args);
	}
	for (size_t k = 0; k < p->nirqs; k++)
		printf("irq %u (queue %u): cpu %u (was %s)\n", p->irqs[k].irq,
		       p->irqs[k].queue, p->irqs[k].core, p->irqs[k].old);
}

/* "LO-HI:Q" or "P:Q" */
static bool parse_map(const char *s, uint32_t *lo, uint32_t *hi, uint32_t *q)
{
	char range[64], *colon;
	uint32_t *ports;
	size_t n;
	uint64_t v;

	if (strlen(s) >= sizeof(range))
		return false;
	snprintf(range, sizeof(range), "%s", s);
	colon = strchr(range, ':');
	if (!colon)
		return false;
	*colon = '\0';
	if (strchr(range, ',') ||
	    !parse_num_list(range, 65535, 65536, &ports, &n) ||
	    !parse_u64(colon + 1, 0, 65535, &v))
		return false;
	*lo = ports[0];
	*hi = ports[n - 1];
	*q = v;
	free(ports);
	return true;
}

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "proto", required_argument, NULL, 'p' },
		{ "field", required_argument, NULL, 'f' },
		{ "buckets", required_argument, NULL, 'b' },
		{ "queues", required_argument, NULL, 'q' },
		{ "cores", required_argument, NULL, 'c' },
		{ "map", required_argument, NULL, 'm' },
		{ "loc", required_argument, NULL, 'l' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "state", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	static struct plan p;
	const char *field = NULL, *queues_s = NULL, *cores_s = NULL;
	const char *maps[MAX_MAPS];
	uint32_t *queues = NULL, *cores = NULL;
	uint32_t lo[MAX_MAPS], hi[MAX_MAPS], mapq[MAX_MAPS];
	size_t nqueues = 0, ncores = 0, nmaps = 0;
	uint64_t v, buckets = 0;
	bool loc_given = false;
	size_t gone = 0;
	enum cmd cmd;
	int c;

	prog = "l4steer";
	p.proto = -1;
	if (argc < 2)
		usage_err("missing command: buckets, range, list or remove");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(help_text, stdout);
		return 0;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version"))
		print_version();
	if (!strcmp(argv[1], "buckets"))
		cmd = CMD_BUCKETS;
	else if (!strcmp(argv[1], "range"))
		cmd = CMD_RANGE;
	else if (!strcmp(argv[1], "list"))
		cmd = CMD_LIST;
	else if (!strcmp(argv[1], "remove"))
		cmd = CMD_REMOVE;
	else
		usage_err("unknown command '%s': want buckets, range, list or remove",
			  argv[1]);

	opterr = 0;
	optind = 2;
	while ((c = getopt_long(argc, argv, ":p:f:b:q:c:m:46l:ns:hV", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'p':
			if (!parse_u64(optarg, 0, 255, &v))
				usage_err("bad --proto '%s': want 0-255", optarg);
			p.proto = v;
			if (fixed_proto(p.proto))
				usage_err("bad --proto %d: mlx5 refuses l4data rules for %s, which its fixed parser handles",
					  p.proto, fixed_proto(p.proto));
			break;
		case 'f':
			if (strcmp(optarg, "sport") && strcmp(optarg, "dport"))
				usage_err("bad --field '%s': want sport or dport",
					  optarg);
			field = optarg;
			break;
		case 'b':
			if (!parse_u64(optarg, 1, 1024, &buckets) ||
			    !is_pow2(buckets))
				usage_err("bad --buckets '%s': want a power of two, 1-1024",
					  optarg);
			break;
		case 'q':
			queues_s = optarg;
			break;
		case 'c':
			cores_s = optarg;
			break;
		case 'm':
			if (nmaps == MAX_MAPS)
				usage_err("more than %d --map options", MAX_MAPS);
			if (!parse_map(optarg, &lo[nmaps], &hi[nmaps],
				       &mapq[nmaps]))
				usage_err("bad --map '%s': want LO-HI:QUEUE or P:QUEUE, 0 <= LO <= HI <= 65535",
					  optarg);
			maps[nmaps++] = optarg;
			break;
		case '4':
			p.fam4 = true;
			break;
		case '6':
			p.fam6 = true;
			break;
		case 'l':
			if (!parse_u64(optarg, 0, 65535, &v))
				usage_err("bad --loc '%s': want a location 0-65535", optarg);
			p.loc0 = v;
			loc_given = true;
			break;
		case 'n':
			p.dry_run = true;
			break;
		case 's':
			if (!*optarg || strlen(optarg) >= sizeof(p.state) - 8)
				usage_err("bad --state '%s'", optarg);
			snprintf(p.state, sizeof(p.state), "%s", optarg);
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
	if (optind == argc)
		usage_err("missing device");
	if (argc - optind > 1)
		usage_err("unexpected argument '%s'", argv[optind + 1]);
	p.dev = argv[optind];
	if (!*p.dev || strlen(p.dev) >= 16 || strchr(p.dev, '/') ||
	    strchr(p.dev, ' '))
		usage_err("bad device name '%s'", p.dev);
	if (!p.state[0])
		default_state_path(&p);

	if (cmd == CMD_LIST || cmd == CMD_REMOVE) {
		if (p.proto >= 0 || field || buckets || queues_s || cores_s ||
		    nmaps || p.fam4 || p.fam6 || loc_given)
			usage_err("%s takes only DEV, --state%s", argv[1],
				  cmd == CMD_REMOVE ? " and --dry-run" : "");
		if (cmd == CMD_LIST) {
			if (p.dry_run)
				usage_err("list takes no --dry-run");
			list(&p);
			return 0;
		}
		load_state(&p);
		if (!p.dry_run && !dev_present(&p)) {
			unlink(p.state);
			printf("forgot %zu rules, %zu IRQ settings: no such network device '%s' (its rules went with it)\n",
			       p.nrules, p.nirqs, p.dev);
			return 0;
		}
		if (!p.nrules && !p.nirqs && !p.ntuple_on)
			warnx("state file %s lists nothing", p.state);
		if (undo(&p, false, &gone)) {
			warnx("some steps failed; keeping %s", p.state);
			return 1;
		}
		if (!p.dry_run) {
			unlink(p.state);
			if (gone)
				printf("removed %zu rules, %zu IRQ settings from %s (%zu more were gone already)\n",
				       p.nrules - gone, p.nirqs, p.dev, gone);
			else
				printf("removed %zu rules, %zu IRQ settings from %s\n",
				       p.nrules, p.nirqs, p.dev);
		}
		return 0;
	}

	if (p.proto < 0)
		usage_err("missing --proto");
	if (!field)
		usage_err("missing --field sport|dport");
	p.dport = !strcmp(field, "dport");
	if (!p.fam4 && !p.fam6)
		p.fam4 = p.fam6 = true;

	if (cmd == CMD_BUCKETS) {
		if (nmaps)
			usage_err("--map is for range, not buckets");
		if (!buckets)
			usage_err("missing --buckets N");
		if (queues_s) {
			if (!parse_num_list(queues_s, 65535, 1024, &queues,
					    &nqueues))
				usage_err("bad --queues '%s': want a list like 0-3,8", queues_s);
		} else {
			queues = calloc(buckets, sizeof(*queues));
			if (!queues)
				die("out of memory");
			for (nqueues = 0; nqueues < buckets; nqueues++)
				queues[nqueues] = nqueues;
		}
		if (nqueues != buckets)
			usage_err("--queues has %zu entries, want one per bucket (%llu)",
				  nqueues, (unsigned long long)buckets);
		if (cores_s) {
			if (!parse_num_list(cores_s, 4095, 1024, &cores,
					    &ncores))
				usage_err("bad --cores '%s': want a list like 0-3,8", cores_s);
			if (ncores != buckets)
				usage_err("--cores has %zu entries, want one per bucket (%llu)",
					  ncores, (unsigned long long)buckets);
		}
		for (size_t k = 0; k < ncores; k++)
			for (size_t j = 0; j < k; j++)
				if (queues[j] == queues[k] && cores[j] != cores[k])
					usage_err("queue %u is given cores %u and %u",
						  queues[k], cores[j], cores[k]);
		/* Bucket k: the low log2(N) bits of the port equal k. */
		for (uint32_t k = 0; k < buckets; k++)
			add_rule(&p, k, 0xffff & ~(uint32_t)(buckets - 1),
				 queues[k]);
	} else {
		if (buckets || queues_s || cores_s)
			usage_err("range takes --map, not --buckets, --queues or --cores");
		if (!nmaps)
			usage_err("missing --map LO-HI:QUEUE");
		for (size_t k = 0; k < nmaps; k++)
			for (size_t j = 0; j < k; j++)
				if (lo[k] <= hi[j] && lo[j] <= hi[k])
					usage_err("--map %s overlaps --map %s",
						  maps[k], maps[j]);
		merge_adjacent(lo, hi, mapq, &nmaps);
		for (size_t k = 0; k < nmaps; k++)
			add_range(&p, lo[k], hi[k], mapq[k]);
	}
	sort_by_family(&p);

	if (!dev_present(&p)) {
		if (!p.dry_run)
			die("no such network device '%s'", p.dev);
		if (cores)
			die("no such network device '%s': the IRQs of its queues (--cores) cannot be planned here",
			    p.dev);
		warnx("no such network device '%s' here; dry run: printing the commands for a device that has it",
		      p.dev);
		p.ntuple_on = true;
		p.no_device = true;
	} else {
		check_ntuple(&p);
	}
	check_channels(&p);
	if (cores) {
		check_online(cores, ncores);
		plan_irqs(&p, queues, cores, nqueues);
	}
	install(&p);
	return 0;
}
