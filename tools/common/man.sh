#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# man.sh TOOL SECTION VERSION <HELP >TOOL.SECTION
#     A man page from TOOL's --help text, which every tool writes in one layout: headings (NAME,
#     SYNOPSIS, ...) at column 0, the text under them indented, "TOOL - what it does" under NAME.
#     Headings become .SH, the NAME line the page's name line, the rest is kept line for line
#     (no-fill), so the page says what --help says and nothing else.
# man.sh check PAGE HELP
#     The page renders without groff warnings and names every long option HELP names; prints what
#     is wrong and exits 1 otherwise.
set -eu
if [ "${1:-}" = check ]; then
	err=$(groff -man -Tutf8 -ww "$2" 2>&1 >/dev/null) || true
	[ -z "$err" ] || { echo "$2: groff: $err"; exit 1; }
	text=$(groff -man -Tascii "$2" 2>/dev/null | sed 's/.\x08//g')
	miss=
	for o in $(grep -o -- '--[a-z][a-z0-9-]*' "$3" | sort -u); do
		echo "$text" | grep -q -- "$o" || miss="$miss $o"
	done
	[ -z "$miss" ] || { echo "$2: missing long options:$miss"; exit 1; }
	exit 0
fi
[ $# -eq 3 ] || { echo "usage: man.sh TOOL SECTION VERSION <HELP, or man.sh check PAGE HELP" >&2; exit 2; }
awk -v tool="$1" -v sec="$2" -v ver="$3" '
	function esc(s) { gsub(/\\/, "\\e", s); gsub(/-/, "\\-", s); if (s ~ /^[.\047]/) s = "\\&" s; return s }
	BEGIN { printf ".TH \"%s\" \"%s\" \"\" \"%s\" \"flexl4 tools\"\n", toupper(tool), sec, esc(ver) }
	/^[A-Z][A-Z ]*$/ { if (nf) print ".fi"; nf = 0; print ".SH " $0; name = $0 == "NAME"; next }
	name && /[^ \t]/ { sub(/^[ \t]+/, ""); i = index($0, " - ")
		print esc(substr($0, 1, i - 1)) " \\- " esc(substr($0, i + 3)); next }
	name { next }
	!nf { print ".nf"; nf = 1 }
	{ sub(/^    /, ""); print esc($0) }
	END { if (nf) print ".fi" }'
