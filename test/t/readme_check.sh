#!/usr/bin/env bash
# Runs the SQL and the shell sessions of README.md and checks their samples
# (the convention is in README.md, "README samples").  Prints one TAP line
# per SQL block and per shell command, with a unified diff under each failed
# sample, and exits non-zero on any failure.  Expects the extension
# installed (tools/check.sh builds and installs it); builds the client
# (client/gametree) when it is missing.
source "$(dirname "$0")/../../tools/lib.sh"
gt_start_cluster
# README.md, or the file given (to try the checker out).
readme=README.md
if [ $# -gt 0 ]; then readme=$(realpath "$1"); fi
cd "$GT_ROOT"

db=gametree_readme
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Splits the README into $work/<id>.sql, <id>.sh and <id>.out files, and
# lists "<id> <line>" in $work/blocks.  A ```sql block is followed by its
# output when the next non-blank line opens a plain ``` block.  A ```sql
# block that starts with "-- not run:" is skipped.  An output block without
# SQL gets an id of its own (no .sql file), and fails.  In a ```console
# block, each line "$ COMMAND" (continued by lines "> MORE") is a command
# with an id of its own (<id>.sh), and the lines after it, up to the next
# "$ " line, its output (<id>.out); lines before the first command get an id
# without a .sh file, and fail.  Other blocks (```text, ...) are not run.
# Fences may be indented (in list items); their content loses that
# indentation.
touch "$work/blocks"
awk -v work="$work" '
	function save(name, content) { printf "%s", content >(work "/" name); close(work "/" name) }
	function end_command() {
		if (cmd != "") { save(id ".sh", cmd); save(id ".out", out) }
		else if (out != "") save(id ".out", out)
		cmd = out = ""
	}
	!infence && /^ *```/ {
		indent = match($0, /[^ ]/) - 1
		info = substr($0, indent + 4)
		infence = 1; opened = NR; text = ""; cmd = out = ""; continued = 0
		next
	}
	infence && substr($0, 1, indent) ~ /^ *$/ && substr($0, indent + 1) ~ /^```[ ]*$/ {
		infence = 0
		if (info == "console") {
			end_command(); pending = 0
		} else if (info == "sql" && text !~ /^-- not run:/) {
			print ++id, opened >(work "/blocks"); save(id ".sql", text); pending = 1
		} else if (info == "" && pending) {
			save(id ".out", text); pending = 0
		} else if (info == "") {
			print ++id, opened >(work "/blocks"); save(id ".out", text)
		} else pending = 0
		next
	}
	infence {
		line = substr($0, 1, indent) ~ /^ *$/ ? substr($0, indent + 1) : $0
		if (info != "console") { text = text line "\n"; next }
		if (line ~ /^\$ /) {
			end_command()
			print ++id, NR >(work "/blocks")
			cmd = substr(line, 3) "\n"; continued = 1
		} else if (continued && line ~ /^>( |$)/) {
			cmd = cmd substr(line, 3) "\n"
		} else {
			continued = 0
			if (cmd == "" && out == "") {
				if (line ~ /^[ \t]*$/) next
				print ++id, NR >(work "/blocks")
			}
			out = out line "\n"
		}
		next
	}
	/[^ \t]/ { pending = 0 }
' "$readme"

gt_fresh_database "$db" >/dev/null

# What psql prints, as a user sees it: no "psql:<stdin>:N:" before errors,
# no trailing blanks, no blank lines at the end.
normalize() {
	sed -E -e 's/^psql:[^:]*:[0-9]+: //' -e 's/[[:space:]]+$//' "$1" |
		awk '/./ { for (; blank > 0; blank--) print ""; print; next } { blank++ }'
}

# A session per block, as a user pastes it: errors do not stop it.  NOTICEs
# (progress, timings) stay out of samples.
run_block() {
	PGOPTIONS='-c client_min_messages=warning' "$GT_PGBIN/psql" -X -d "$db" <"$1" || true
}

# Shell commands: `gametree` is the client of this checkout, connected to
# $db through the PG* variables; they run in an empty directory of their
# own, with no input (but what they give themselves).
[ -x client/gametree ] || make -s -C client >/dev/null 2>&1 || true
mkdir "$work/bin" "$work/cwd"
ln -s "$GT_ROOT/client/gametree" "$work/bin/gametree"
run_command() {
	(cd "$work/cwd" && env -u PGOPTIONS -u PGSERVICE PGDATABASE="$db" PATH="$work/bin:$PATH" \
		timeout 300 bash "$1" </dev/null 2>&1) || true
}

# What a terminal shows of a command, less what changes from run to run:
# grow's progress lines (a terminal redraws one line and erases it at the
# end) are left out, and the time and states per second of grow's summary,
# the table sizes of stats and the time of uci's info lines are compared as
# T; no trailing blanks, no blank lines at the end.
normalize_console() {
	sed -E -e '/^[^ ]+: [0-9]+ states, [0-9]+ edges, frontier [0-9]+, [0-9]+ states\/s, /d' \
		-e 's/^([^ ]+: [0-9]+ states \([+-][0-9]+\), [0-9]+ edges, frontier [0-9]+); [0-9][0-9.hms]*, [0-9]+ states\/s$/\1; T, T states\/s/' \
		-e '/^tables /s/[0-9]+ (bytes|kB|MB|GB|TB)/T/g' \
		-e '/^info /s/ time [0-9]+( |$)/ time T\1/' \
		-e 's/[[:space:]]+$//' "$1" |
		awk '/./ { for (; blank > 0; blank--) print ""; print; next } { blank++ }'
}

n=0 failed=0
while read -r id line; do
	n=$((n + 1))
	sql=$work/$id.sql sh=$work/$id.sh out=$work/$id.out
	ok=1
	if [ -f "$sh" ]; then
		title="\$ $(head -1 "$sh" | tr -s ' \t' ' ' | cut -c1-60)"
		run_command "$sh" >"$work/actual"
		diff -u --label "$readme:$line" --label output \
			<(normalize_console "$out") <(normalize_console "$work/actual") >"$work/diff" || ok=0
	elif [ -f "$sql" ]; then
		title=$(grep -v -e '^--' -e '^[[:space:]]*$' "$sql" | head -1 | tr -s ' \t' ' ' | cut -c1-60 || true)
		if [ -f "$out" ]; then
			# Errors and warnings go where a terminal shows them, among the results.
			run_block "$sql" >"$work/actual" 2>&1
			diff -u --label "$readme:$line" --label psql <(normalize "$out") <(normalize "$work/actual") \
				>"$work/diff" || ok=0
		else
			# No sample to compare: the block must not print an error or a warning.
			run_block "$sql" 2>"$work/diff" >/dev/null
			if [ -s "$work/diff" ]; then ok=0; fi
		fi
	else
		echo "not ok $n - $readme:$line output without a \`\`\`sql block or a \$ command before it"
		failed=$((failed + 1))
		continue
	fi
	if [ "$ok" -eq 1 ]; then
		echo "ok $n - $readme:$line $title"
	else
		echo "not ok $n - $readme:$line $title"
		sed 's/^/# /' "$work/diff"
		failed=$((failed + 1))
	fi
done <"$work/blocks"

echo "1..$n"
[ "$failed" -eq 0 ]
