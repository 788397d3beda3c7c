#!/usr/bin/env bash
# Runs the SQL of README.md and checks its samples (the convention is in
# README.md, "README samples").  Prints one TAP line per SQL block, with a
# unified diff under each failed sample, and exits non-zero on any failure.
# Expects the extension installed (tools/check.sh builds and installs it).
source "$(dirname "$0")/lib.sh"
gt_start_cluster
# README.md, or the file given (to try the checker out).
readme=README.md
if [ $# -gt 0 ]; then readme=$(realpath "$1"); fi
cd "$GT_ROOT"

db=gametree_readme
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Splits the README into $work/<id>.sql and <id>.out files, and lists
# "<id> <line>" in $work/blocks.  A ```sql block is followed by its output
# when the next non-blank line opens a plain ``` block.  A ```sql block that
# starts with "-- not run:" is skipped.  An output block without SQL gets an
# id of its own (no .sql file), and fails.  Fences may be indented (in list
# items); their content loses that indentation.
touch "$work/blocks"
awk -v work="$work" '
	function save(name) { printf "%s", text >(work "/" name); close(work "/" name) }
	!infence && /^ *```/ {
		indent = match($0, /[^ ]/) - 1
		info = substr($0, indent + 4)
		infence = 1; opened = NR; text = ""
		next
	}
	infence && substr($0, 1, indent) ~ /^ *$/ && substr($0, indent + 1) ~ /^```[ ]*$/ {
		infence = 0
		if (info == "sql" && text !~ /^-- not run:/) {
			print ++id, opened >(work "/blocks"); save(id ".sql"); pending = 1
		} else if (info == "" && pending) {
			save(id ".out"); pending = 0
		} else if (info == "") {
			print ++id, opened >(work "/blocks"); save(id ".out")
		} else pending = 0
		next
	}
	infence {
		text = text (substr($0, 1, indent) ~ /^ *$/ ? substr($0, indent + 1) : $0) "\n"
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

n=0 failed=0
while read -r id line; do
	n=$((n + 1))
	sql=$work/$id.sql out=$work/$id.out
	if [ ! -f "$sql" ]; then
		echo "not ok $n - $readme:$line output block without a \`\`\`sql block before it"
		failed=$((failed + 1))
		continue
	fi
	title=$(grep -v -e '^--' -e '^[[:space:]]*$' "$sql" | head -1 | tr -s ' \t' ' ' | cut -c1-60 || true)
	ok=1
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
