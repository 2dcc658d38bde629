# SPDX-License-Identifier: GPL-2.0
# Sourced by the other scripts: targets, cache layout, private apt configuration.

set -euo pipefail

# Where python3 is a version manager's shim (pyenv's, on these machines), each call costs half a
# CPU-second before Python starts, and W=1 builds run kernel-doc, a Python script, on every file:
# call the interpreter the shim resolves to directly.
py3=$(python3 -c 'import sys; print(sys.executable)')
[ "$(command -v python3)" = "$py3" ] || export PATH=${py3%/*}:$PATH

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${FLEXL4_CACHE:-/var/cache/mlx5-flexl4}
# make's jobs option for each build: none under scripts/test, whose make passes its pool of jobs (the
# jobserver in MAKEFLAGS, which a -j of our own would leave) to every build of the run; by hand,
# every CPU
JOBS=-j$(nproc)
[[ ${MAKEFLAGS:-} =~ --jobserver-auth=([0-9]+), ]] && [ -e "/proc/self/fd/${BASH_REMATCH[1]}" ] && JOBS=
MLX5=drivers/net/ethernet/mellanox/mlx5/core
DEFAULT_TARGET=7.3
CODESPELL_DICT=/usr/lib/python3/dist-packages/codespell_lib/data/dictionary.txt
# The lines scripts/test fetches the pinned source of (6.1's comes with its load test)
TARGETS="7.3 6.12 6.18"

# Pinned sources: target -> Debian package version, suite, sha256 of the .deb.
target_pkg() {
	case "$1" in
	7.3)  echo "linux-source-7.3 7.3.4-1~bpo13+1 trixie-backports" ;;
	6.12) echo "linux-source-6.12 6.12.117-1 trixie-security" ;;
	6.18) echo "linux 6.18.15-1~bpo13+1 trixie-backports" ;;	# see target_orig
	6.1)  echo "linux-source-6.1 6.1.192-3 bookworm-security" ;;	# Debian 12's kernel
	*) echo "unknown target '$1' (known: $TARGETS)" >&2; return 1 ;;
	esac
}

target_sha256() {
	case "$1" in
	7.3)  echo "703e369ddd4cce971452f5a593ee55df3a5c10c83caf0fa0df039633ed181ee3" ;;
	6.12) echo "9141325315c7f1eca682113d185a8c77c82814aa6e32f7e127e61d6106403835" ;;
	6.18) echo "fdf4c4d487c95b17a41cb38003faef86669e532a44fe702eb31a3390b6a60cca" ;;	# the .orig.tar.xz
	6.1)  echo "5259c57ca92092da39bd2ea803046da0e3c28f2b6a11ea20f6297468188ceb67" ;;
	esac
}

# --- targets whose source is the upstream tarball of Debian's 'linux' source package ---
# (no linux-source-LINE .deb is left in the archive for them). target_orig TARGET prints the
# tarball's file name, or fails for a target built from a linux-source .deb. The SHA-256 of
# target_sha256 is the tarball's, as the signed Sources index lists it.
target_orig() {
	case "$1" in
	6.18) echo "linux_6.18.15.orig.tar.xz" ;;
	*) return 1 ;;
	esac
}

# Exit status of scripts/get-sources (and so of scripts/apply) when the archive no longer has a
# pinned source and no copy is in the cache: callers count the target as skipped.
SOURCE_GONE=77

# Every line the scripts can build. Which checks run on which in CI: the Makefile's CI list.
ALL_TARGETS="7.3 6.12 6.18 6.1"

# orig_tarball DEBIAN-VERSION [SHA256]: print the path of the upstream tarball of Debian's 'linux'
# source package DEBIAN-VERSION in $CACHE/orig, downloading it once. The checksum is the one the
# archive's signed Sources index lists, and must be SHA256 when given (a pin). A tarball already in
# $CACHE/orig (e.g. a copy put there by hand) is used after its checksum. When the archive does not
# have it, says so in one line (naming where a copy goes) and exits with SOURCE_GONE; a download
# of what the archive lists that fails is an error, not a skip.
orig_tarball() {
	local dver=$1 sha=${2:-} name line uri
	name=linux_${dver%-*}.orig.tar.xz
	mkdir -p "$CACHE/orig"
	if [ ! -f "$CACHE/orig/$name" ]; then
		[ -n "${APT_OPTS+x}" ] || apt_private
		line=$(apt-get "${APT_OPTS[@]}" --print-uris source "linux=$dver" 2>/dev/null |
			awk -v n="$name" '$2 == n' || true)
		if [ -z "$line" ]; then
			echo "skipped: the archive no longer lists $name (Debian's linux $dver); put a copy" \
				"${sha:+with SHA-256 $sha }at $CACHE/orig/$name" >&2
			exit "$SOURCE_GONE"
		fi
		[ -z "$sha" ] || [ "${line##* SHA256:}" = "$sha" ] ||
			die "$name: the archive's index lists SHA-256 ${line##* SHA256:}, the pin is $sha"
		sha=${line##* SHA256:}
		uri=$(echo "$line" | cut -d"'" -f2)
		if ! /usr/lib/apt/apt-helper download-file "$uri" "$CACHE/orig/$name.part" \
			"SHA256:$sha" >&2; then
			rm -f "$CACHE/orig/$name.part"
			die "$name (Debian's linux $dver): the archive lists it, but its download failed"
		fi
		mv "$CACHE/orig/$name.part" "$CACHE/orig/$name"
	fi
	[ -z "$sha" ] || echo "$sha  $CACHE/orig/$name" | sha256sum --quiet -c - >&2 ||
		die "$CACHE/orig/$name: checksum mismatch (pinned $sha)"
	echo "$CACHE/orig/$name"
}

# orig_versions LINE: Debian versions of the 'linux' source package of that line in the archive's
# Sources index (e.g. 6.18.5-1~bpo13+1 ...), oldest first
orig_versions() {
	[ -n "${APT_OPTS+x}" ] || apt_private
	apt-cache "${APT_OPTS[@]}" showsrc linux 2>/dev/null | sed -n 's/^Version: //p' |
		grep "^${1//./\\.}\.[0-9]*-" | sort -uV || true
}
# --- end ---

die() { echo "error: $*" >&2; exit 1; }

# The series, each sent to a tree of its own: net (the fix), net-next (the l4data feature), devlink
# (the flex parser parameters) and psp (PSP source-port steering). Each is a directory
# patches/SERIES (patches/README: the layout), a branch in each target's cached tree (scripts/apply)
# and a mailable series (scripts/export).
SERIES="net net-next devlink psp"
series_dir() { echo "$TOP/patches/$1"; }
series_branch() { if [ "$1" = net-next ]; then echo series; else echo "$1-series"; fi; }
# series_entries SERIES TARGET: the entries of SERIES that TARGET carries, "NAME FILE..." each: the
# series file's, less the names of patches/SERIES/TARGET/omit ('*' there: all of them)
series_entries() {
	local d=$TOP/patches/$1 omit=
	[ ! -f "$d/$2/omit" ] || omit=$(sed '/^#/d' "$d/$2/omit" | xargs)
	awk -v omit=" $omit " '!/^#/ && NF && omit !~ / \* / && !index(omit, " " $1 " ")' "$d/series"
}
# series_for TARGET: the series that have a patch for TARGET
series_for() {
	local s
	for s in $SERIES; do
		[ -z "$(series_entries "$s" "$1")" ] || echo "$s"
	done
}

# A backport line's patches are derived from mainline's (DEFAULT_TARGET's): the mainline patch as it
# is, or with its context cut to two lines (git apply -C2) where the full context does not match;
# the new files through patches/SERIES/TARGET/new-files.sed. Only where that fails, or gives what
# the line must not have, does patches/SERIES/TARGET/NAME hold the line's own port of NAME: its
# edits to upstream files only (the message is always mainline's), after a "Ported-from:" line
# naming the mainline patch's patch-id, so that a port left behind by a mainline change is found.
# scripts/refresh writes the ports; scripts/refresh --check shows that each is still needed.

# patch_id FILE: the patch-id of a patch's edits (empty for a patch of no edits)
# (--verbatim: a whitespace change in mainline's patch is a change the port must follow)
patch_id() { git patch-id --verbatim <"$1" | cut -d' ' -f1; }

# patch_commit PATCH OUT: what a commit of the mainline patch PATCH holds besides its edits:
# OUT.info, git mailinfo's Author:, Email:, Subject: and Date: lines, and OUT.msg, the message
# (scripts/apply makes the commit of them; scripts/refresh checks a line's commit against them)
patch_commit() {
	git mailinfo -k "$2.body" /dev/null <"$1" >"$2.info"
	{ sed -n 's/^Subject: //p' "$2.info"; echo; cat "$2.body"; } | git stripspace >"$2.msg"
}

# derive_apply SERIES TARGET NAME [GIT-APPLY-OPTION...]: apply the mainline patch NAME in the
# current directory the way TARGET derives it; on failure, git apply's error on stderr
derive_apply() {
	local p=$TOP/patches/$1/$3 t=$2
	shift 3
	grep -q '^diff --git ' "$p" || return 0	# a patch of new files only
	if [ "$t" = "$DEFAULT_TARGET" ]; then git apply "$@" "$p"; return; fi
	local err
	git apply "$@" "$p" 2>/dev/null && return
	err=$(git apply -C2 "$@" "$p" 2>&1) || { echo "$err" >&2; return 1; }
}

# line_apply SERIES TARGET NAME [GIT-APPLY-OPTION...]: apply NAME's edits to upstream files as
# TARGET carries them, in the current directory: TARGET's port where there is one, else derived
line_apply() {
	local port=$TOP/patches/$1/$2/$3
	if [ "$2" != "$DEFAULT_TARGET" ] && [ -f "$port" ]; then
		shift 3
		git apply "$@" "$port"
	else
		derive_apply "$@"
	fi
}

# new_file SERIES TARGET FILE: the new FILE as TARGET has it (its new-files.sed applied), on stdout
new_file() {
	local sed=$TOP/patches/$1/$2/new-files.sed
	if [ "$2" != "$DEFAULT_TARGET" ] && [ -f "$sed" ]; then sed -f "$sed" "$TOP/$3"; else cat "$TOP/$3"; fi
}

# series_inputs SERIES TARGET: a hash of every file of this repo that scripts/apply reads to make
# SERIES' branch for TARGET; scripts/apply records it beside the branch, and scripts/refresh
# refuses to write a branch back over files that have changed since it was made
series_inputs() {
	local d=$TOP/patches/$1 f
	for f in "$d"/series "$d"/*.patch "$d/$2"/*; do [ ! -f "$f" ] || echo "$f"; done
	series_entries "$1" "$2" | cut -s -d' ' -f2- | tr ' ' '\n' | while read -r f; do echo "$TOP/$f"; done
} 2>/dev/null
series_hash() { series_inputs "$1" "$2" | sort | git hash-object --stdin-paths | sha1sum | cut -c1-16; }
applied_file() { echo "$(src_dir "$2")/.git/flexl4-applied-$1"; }

# kunit_kernel TARGET: "TREE DIR..." of TARGET's KUnit kernel, built in $CACHE/kunit/TARGET: the
# series of TARGET that add a .kunitconfig (DIR: where), applied first, all in one tree. net-next
# alone is its branch in the target's tree; with others (7.3: net, devlink), the tree is a worktree,
# $CACHE/kunit/tree-TARGET, at a commit holding each of them on top of net-next (scripts/check shows
# they git-am together), made without touching the work tree so that the checkout rewrites only
# files that changed. net has no suite of its own, but its fixes go under net-next's (the rule
# cases of net-next's suite reproduce them), as net-next carries them once it takes the feature.
# psp, on the default target only: on top of them, with scripts/psp/uml.config in the
# configuration, so that its Toeplitz suite runs with the others and scripts/psp-test boots the
# same kernel for its selftests (one sanitized kernel to build, not two). The caller holds the
# lock kunit-TARGET while it uses the tree and its build.
kunit_kernel() {
	local t=$1 src s k tree head dirs=() others=() fragments=
	src=$(src_dir "$t")
	for s in $(series_for "$t"); do
		"$TOP/scripts/apply" "$t" "$s" >/dev/null
		case $s in
		psp)	[ "$t" = "$DEFAULT_TARGET" ] || continue
			others+=(psp) fragments=$TOP/scripts/psp/uml.config; continue ;;
		net) others+=(net); continue ;;	# net-next has the net fixes when it takes the feature
		esac
		k=$(git -C "$src" diff --name-only --diff-filter=A base "$(series_branch "$s")" -- |
			grep '\.kunitconfig$' | head -n1 || true)
		[ -n "$k" ] || die "the $s series adds no .kunitconfig"
		dirs+=("$(dirname "$k")")
		[ "$s" = net-next ] || others+=("$s")
	done
	tree=$src
	if [ ${#others[@]} -gt 0 ]; then
		tree=$CACHE/kunit/tree-$t
		[ -d "$tree" ] || { git -C "$src" worktree prune
				    git -C "$src" worktree add -q --detach "$tree" series; }
		head=$(
			export GIT_INDEX_FILE
			GIT_INDEX_FILE=$(mktemp)
			trap 'rm -f "$GIT_INDEX_FILE"' EXIT
			git -C "$src" read-tree series
			for s in "${others[@]}"; do
				git -C "$src" diff base "$(series_branch "$s")" |
					git -C "$src" apply --cached ||
					die "the $s series does not apply on top of net-next"
			done
			GIT_AUTHOR_DATE="@0 +0000" GIT_COMMITTER_DATE="@0 +0000" git -C "$src" -c user.name=kunit \
				-c user.email=kunit@localhost commit-tree "$(git -C "$src" write-tree)" \
				-p series -m "KUnit: net-next, ${others[*]}"
		)
		git -C "$tree" checkout -q -f --detach "$head"
	fi
	kunit_config "$tree" "$CACHE/kunit/$t" "$fragments" "${dirs[@]}" || die "$t: no KUnit configuration"
	echo "$tree ${dirs[*]}"
}

# kunit_config TREE BUILD FRAGMENTS DIR...: BUILD's .config for kunit.py, small. kunit.py alone configures with
# olddefconfig from the kunitconfigs, which turns on every default-y option (every Ethernet vendor,
# media): about 500 directories that each rebuild walks, most of a planted fault's time. Here the
# .config is allnoconfig with what the kunitconfigs ask for (as kunit.py merged them, UML's
# additions included), scripts/kunit-um.config and FRAGMENTS (files, space-separated); kunit.py
# keeps a .config that holds its kunitconfig. Rewritten only when it changes.
kunit_config() {
	local tree=$1 build=$2 fragments=$3
	shift 3
	mkdir -p "$build"
	(cd "$tree" && python3 tools/testing/kunit/kunit.py config --arch=um --build_dir="$build" \
		$(printf -- '--kunitconfig=%s ' "$@")) >"$build/config.log" 2>&1 || return 1
	cat "$build/last_used_kunitconfig" "$TOP/scripts/kunit-um.config" $fragments >"$build/small.config"
	! suppresses_warnings "$tree" || cat "$TOP/scripts/debug.config" >>"$build/small.config"
	sanitized_objects "$tree" >"$build/make.args.new"
	update_file "$build/make.args.new" "$build/make.args"
	make -s -C "$tree" ARCH=um O="$build" KCONFIG_CONFIG=.config.small \
		KCONFIG_ALLCONFIG="$build/small.config" allnoconfig >>"$build/config.log" 2>&1 || return 1
	update_file "$build/.config.small" "$build/.config"
}

# sanitized_objects TREE: make's variables that keep KASAN and UBSAN to the objects of the .c files
# the series add or change (their tests included) and off the rest of the kernel, which they
# would only slow down; lockdep and the list checks stay global. Kbuild reads
# KASAN_SANITIZE_NAME.o with NAME the object's path from the Makefile that lists it: every suffix
# of the path is given.
sanitized_objects() {
	local f
	echo KASAN_SANITIZE=n UBSAN_SANITIZE=n
	git -C "$1" diff --name-only base HEAD -- '*.c' | while read -r f; do
		f=${f%.c}.o
		while echo "KASAN_SANITIZE_$f=y UBSAN_SANITIZE_$f=y" && [ "$f" != "${f#*/}" ]; do f=${f#*/}; done
	done | sort -u
}
# kunit_make TREE BUILD MAKE-ARGUMENT...: make in the KUnit kernel's build, with its sanitizer switches;
# kunit_exec TREE BUILD: the kernel built and booted, its suites' results as kunit.py prints them
kunit_make() { make -C "$1" ARCH=um O="$2" $JOBS $(cat "$2/make.args") "${@:3}"; }
kunit_exec() { kunit_make "$1" "$2" linux && (cd "$1" && tools/testing/kunit/kunit.py exec --build_dir="$2"); }

# suppresses_warnings TREE: whether TREE's KUnit can suppress a WARN a case expects
# (kunit_warning_suppress()). Only such a line's KUnit kernel takes scripts/debug.config and fails
# on console reports: on an older one (6.18) an expected WARN cannot be told from another, and the
# code under test is the same.
suppresses_warnings() { grep -q '^#define kunit_warning_suppress(' "$1/include/kunit/test.h"; }

# debug_config CONFIG: scripts/debug.config's options as CONFIG has them, on one line; fails
# naming those it lacks (a dependency the kernel does not meet drops an option silently)
debug_config() {
	local want missing
	want=$(grep -E '^CONFIG_[A-Z0-9_]+=y$' "$TOP/scripts/debug.config")
	missing=$(grep -vxFf "$1" <<<"$want" | paste -sd' ' || true)
	[ -z "$missing" ] || { echo "the test kernel lacks: $missing"; return 1; }
	paste -sd' ' <<<"$want"
}

# console_reports LOG: the lines of a test kernel's console that open a report (KASAN, UBSAN,
# lockdep, WARN, BUG, oops, panic), one each; a run that printed one failed
console_reports() {
	grep -aE '^(\[ *[0-9.]+\] )?(BUG|WARNING|UBSAN|INFO|Oops)[:!]|Kernel panic' "$1" || true
}

# test_config_opts TREE "KCONFIG..." "SERIES...": scripts/config arguments that enable KUnit, every
# KUnit test option of those Kconfig files as TREE has them, and what each series'
# patches/SERIES/check.config asks for its code to be built
test_config_opts() {
	local s f
	printf "%s\n" -e KUNIT
	for f in $2; do
		[ ! -f "$1/$f" ] || sed -n 's/^config \([A-Z0-9_]*KUNIT_TEST\)$/-e \1/p' "$1/$f"
	done
	for s in $3; do
		f=$(series_dir "$s")/check.config
		[ ! -f "$f" ] || sed -n 's/^CONFIG_\([A-Z0-9_]*\)=\([ym]\)$/--set-val \1 \2/p' "$f"
	done
}
# update_file NEW FILE: NEW becomes FILE unless they are the same; then FILE keeps its mtime, and a
# build that reads it has nothing to redo
update_file() { if cmp -s "$1" "$2"; then rm "$1"; else mv "$1" "$2"; fi; }

# result_counts LINE: "PASSED FAILED SKIPPED" of a result line "N passed, N failed[, N skipped]"
result_counts() {
	sed -nE 's/^([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?.*/\1 \2 \4/p' <<<"$1" |
		awk '{ print $1, $2, $3 + 0 }'
}
# in_list WORD LIST: whether WORD is one of the space-separated LIST
in_list() { case " $2 " in *" $1 "*) return 0 ;; esac; return 1; }

src_dir() { echo "$CACHE/src/$1"; }	# pristine unpacked tree, a git repo at tag 'base'
obj_dir() { echo "$CACHE/obj/$1${2:+-$2}"; }	# O= build directories

# with_ccache: from here on, gcc is ccache's (its masquerading gcc first in PATH), for the steps
# that compile the same file contents again: the check, whose commits go back to the base between
# series, and the planted faults, each taken out again. kbuild's command lines keep plain gcc, so
# build trees made without it are not rebuilt; depend mode spares a miss the extra preprocessor run.
with_ccache() {
	[ -x /usr/lib/ccache/gcc ] || die "no /usr/lib/ccache/gcc: run scripts/deps"
	export PATH=/usr/lib/ccache:$PATH CCACHE_DIR=$CACHE/ccache CCACHE_DEPEND=1 CCACHE_MAXSIZE=4G
}

# lock NAME: hold the cache's lock NAME ($CACHE/.lock-NAME, exclusive) until this process exits or
# calls unlock NAME, so that two runs on one cache never write the same tree at once. A run that has
# to wait says for what.
declare -A LOCK_FD
lock() {
	local fd
	mkdir -p "$CACHE"
	exec {fd}>"$CACHE/.lock-$1"
	if ! flock -n "$fd"; then
		echo "waiting for another run on $CACHE ($1)" >&2
		flock "$fd"
	fi
	LOCK_FD[$1]=$fd
}
unlock() { local fd=${LOCK_FD[$1]}; exec {fd}>&-; unset "LOCK_FD[$1]"; }

# initramfs REL: the command that makes a new initramfs for kernel REL. Debian's and Ubuntu's
# (initramfs-tools) and Fedora's and RHEL's (dracut) carry mlx5_core: without a new one the stock
# module comes back at the next boot. dist-build prints it, dkms-make runs it.
initramfs() { echo "if command -v update-initramfs >/dev/null; then update-initramfs -u -k $1;" \
		   "else dracut -f --kver $1; fi"; }

# A private apt configuration for suites this Debian 12 machine does not list.
# The mirror is the one the system's own apt already uses.
apt_private() {
	local root=$CACHE/apt mirror security pairs
	# "URI SUITE" of each entry of the system's sources: deb822 stanzas and one-line entries (their
	# [options] skipped), whatever the suite's name (bookworm, trixie, stable...)
	pairs=$( { awk '/^URIs:/ { u = $2 } /^Suites:/ { print u, $2 } /^$/ { u = "" }' \
			/etc/apt/sources.list.d/*.sources 2>/dev/null
		   cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
			sed -E 's/\[[^]]*\]//' | awk '$1 == "deb" { print $2, $3 }'; } || true)
	# (Debian's own first: a path ending in /debian or /debian-security, before third parties' entries)
	mirror=$(awk '$2 !~ /security/ && $1 ~ /\/debian\/?$/ { print $1; exit }' <<<"$pairs")
	security=$(awk '$2 ~ /security/ { print $1; exit }' <<<"$pairs")
	[ -n "$mirror" ] && [ -n "$security" ] || die "cannot find the system's Debian mirror and its" \
		"security archive in /etc/apt (sources.list or sources.list.d): add Debian's entries there"
	mkdir -p "$root/lists/partial" "$root/archives/partial" "$root/cache"
	lock apt	# two checks at once write the same file
	cat >"$root/sources.list.new" <<EOF
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror trixie main
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror trixie-backports main
deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror trixie main
deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror trixie-backports main
deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror unstable main
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $security trixie-security main
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror bookworm main
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $security bookworm-security main
EOF
	APT_OPTS=(-o Dir::Etc::sourcelist="$root/sources.list" -o Dir::Etc::sourceparts=-
		  -o Dir::State::Lists="$root/lists" -o Dir::Cache="$root/cache"
		  -o Dir::Cache::archives="$root/archives" -o APT::Get::List-Cleanup=0)
	if ! cmp -s "$root/sources.list.new" "$root/sources.list" ||
	   [ -z "$(find "$root/lists" -name '*Packages*' -mmin -1440 | head -n1)" ]; then
		mv "$root/sources.list.new" "$root/sources.list"
		apt-get "${APT_OPTS[@]}" update -qq >&2
	fi
	unlock apt
}

# build_tree TARGET O [make args...]: configure O (once) and build mlx5_core.ko from the target's tree
# (build_tree_at takes a source directory instead).
# Output is in $O/build.log; warnings and errors are echoed. Without a vmlinux, modpost cannot resolve
# symbols, so KBUILD_MODPOST_WARN=1 keeps that from failing the build.
build_tree() {
	local t=$1
	shift
	build_tree_at "$(src_dir "$t")" "$@"
}

# config_tree_at SRC O: the configuration build_tree_at uses, made once
config_tree_at() {
	local src=$1 o=$2
	mkdir -p "$o"
	[ ! -f "$o/.config" ] || return 0
	make -s -C "$src" O="$o" defconfig >/dev/null
	"$src/scripts/config" --file "$o/.config" -m MLX5_CORE -e MLX5_CORE_EN -e MLX5_EN_RXNFC
	make -s -C "$src" O="$o" olddefconfig >/dev/null
}

build_tree_at() {
	local src=$1 o=$2
	shift 2
	config_tree_at "$src" "$o"
	# the .ko target makes modules_prepare (and syncconfig, when .config or a Kconfig changed) first
	if ! make -C "$src" O="$o" $JOBS KBUILD_MODPOST_WARN=1 "$@" \
		"$MLX5/mlx5_core.ko" >"$o/build.log" 2>&1; then
		grep -E 'error|Error' "$o/build.log" >&2 || tail -20 "$o/build.log" >&2
		return 1
	fi
	grep -E '^[^ ]+:[0-9]+:[0-9]+: warning:' "$o/build.log" >&2 || true
}

# pristine_tar SRC PATH...: a tar stream of those PATHs that exist in the kernel source SRC, from its
# tag 'base' when SRC is a git tree with one (the cached trees), else from its files.
pristine_tar() {
	local src=$1 p
	shift
	if [ -e "$src/.git" ] && git -C "$src" rev-parse -q --verify base >/dev/null; then
		git -C "$src" archive base -- $(for p in "$@"; do
			git -C "$src" cat-file -e "base:$p" 2>/dev/null && echo "$p"; done)
	else
		(cd "$src" && for p in "$@"; do [ ! -e "$p" ] || echo "$p"; done) | tar -c -C "$src" -T -
	fi
}

# Debian's linux-source-LINE versions in the archive (private apt lists), oldest first.
# Call apt_private first where APT_OPTS is needed after a $(...) of this.
debian_versions() {
	[ -n "${APT_OPTS+x}" ] || apt_private
	apt-cache "${APT_OPTS[@]}" madison "linux-source-$1" 2>/dev/null | awk '/Packages$/ { print $3 }' |
		sort -uV
}

# newest_release LINE: the upstream version of the newest linux-source-LINE in the archive.
newest_release() { debian_versions "$1" | tail -n1 | sed 's/-[^-]*$//'; }
# oldest_release LINE: the upstream version of the oldest linux-source-LINE in the archive.
oldest_release() { debian_versions "$1" | head -n1 | sed 's/-[^-]*$//'; }
# loadtest_release LINE: what CI load-tests of LINE: the archive's newest release, or LINE (its
# pinned source) where that is the newest
loadtest_release() {
	local pver new
	read -r _ pver _ < <(target_pkg "$1")
	new=$(newest_release "$1")
	if [ -n "$new" ] && [ "$new" != "${pver%-*}" ]; then echo "$new"; else echo "$1"; fi
}

# symvers_drift STOCK OURS: the symbols the Module.symvers STOCK says mlx5_core exports that OURS
# (our mlx5_core's) exports with another CRC ("SYMBOL (CRC, ours CRC)") or not at all
# ("SYMBOL (not exported)"), one a line
symvers_drift() {
	awk -F'\t' 'NR == FNR { if ($3 ~ /(^|\/)mlx5_core$/) stock[$2] = tolower($1); next }
		{ ours[$2] = tolower($1) }
		END {
			for (s in stock)
				if (!(s in ours)) print s " (not exported)"
				else if (ours[s] != stock[s]) print s " (" stock[s] ", ours " ours[s] ")"
		}' "$1" "$2" | sort
}

# move_member FILE STRUCT MEMBER: FILE with the one-line declaration of STRUCT's MEMBER moved to the
# end of the struct, on stdout (for distribution builds, dist/dist-append-members). Exit status 2
# if the struct has no such member, 3 if it is under #if.
move_member() {
	awk -v s="$2" -v m="$3" '
	$0 ~ "^struct " s " \\{" { ins = 1 }
	ins && /^#if/ { depth++ }
	ins && /^#endif/ { depth-- }
	ins && line == "" && $0 ~ "^\t[^\t#].*[ \t*]" m "[ \t]*(;|\\[)" { line = $0; bad = depth > 0; next }
	ins && /^};/ { if (line != "") print line; ins = 0 }
	{ print }
	END { exit line == "" ? 2 : bad ? 3 : 0 }' "$1"
}
