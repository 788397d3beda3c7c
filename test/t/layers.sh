#!/usr/bin/env bash
# test/t/layers.sh: the layers of src/ only include downward, as the README's
# Layout describes them, lowest first:
#   pg < core < games = gdl < search < store < sql
# (games/ and gdl/ are two providers on one level: neither includes the
# other), every PG_FUNCTION_INFO_V1 is in src/sql/, and client/ includes
# nothing of src/ (it talks to the extension over libpq only).
# Prints TAP: "ok N - ..." / "not ok N - ..." with the offending lines as
# "# " comments, then the plan.  Needs no server.
cd "$(dirname "$0")/../.." || exit 1

# sql/, the top, may include any of them.
layers="pg core games gdl search store"

rank() {
	case $1 in
	pg) echo 0 ;; core) echo 1 ;; games | gdl) echo 2 ;;
	search) echo 3 ;; store) echo 4 ;; sql) echo 5 ;;
	esac
}

n=0 failed=0
report() {						# report <description> <offending lines>
	n=$((n + 1))
	if [ -z "$2" ]; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		failed=$((failed + 1))
		printf '%s\n' "$2" | sed 's/^/#   /'
	fi
}

# Every quoted include of src/, as "file:line:layer-of-file:included-path".
includes=$(grep -rnE --include='*.c' --include='*.h' '^[[:space:]]*#[[:space:]]*include[[:space:]]+"' src |
	sed -E 's|^src/([^/]+)/([^:]*):([0-9]+):[[:space:]]*#[[:space:]]*include[[:space:]]+"([^"]+)".*|src/\1/\2:\3:\1:\4|')

for layer in $layers; do
	own=$(rank "$layer")
	bad=$(printf '%s\n' "$includes" | while IFS=: read -r file line from path; do
		[ "$from" = "$layer" ] || continue
		to=${path%%/*}
		# A bare name or one relative to the file (games/chess/) stays in its layer;
		# a first part that names no layer is a PostgreSQL header.
		[ "$to" = "$path" ] && continue
		to_rank=$(rank "$to")
		[ -n "$to_rank" ] || continue
		if [ "$to_rank" -gt "$own" ] || { [ "$to_rank" -eq "$own" ] && [ "$to" != "$layer" ]; }; then
			echo "$file:$line includes \"$path\""
		fi
	done)
	case $layer in
	games) what="src/games/ includes no header of gdl/ or of a layer above" ;;
	gdl) what="src/gdl/ includes no header of games/ or of a layer above" ;;
	*) what="src/$layer/ includes no header of a layer above it" ;;
	esac
	report "$what" "$bad"
done

# Each C file is in a layer's folder, so that the checks above see it.
report "every C file of src/ is in the folder of a layer" \
	"$(find src -name '*.[ch]' | sort | while read -r file; do
		folder=${file#src/}
		folder=${folder%%/*}
		[ -n "$(rank "$folder")" ] || echo "$file"
	done)"

report "PG_FUNCTION_INFO_V1 appears only under src/sql/" \
	"$(grep -rnE --include='*.c' --include='*.h' '^[[:space:]]*PG_FUNCTION_INFO_V1' src | grep -v '^src/sql/')"

report "PG_MODULE_MAGIC and _PG_init are in src/sql/module.c alone" \
	"$(grep -rnE --include='*.c' '^[[:space:]]*PG_MODULE_MAGIC|^_PG_init\(' src | grep -v '^src/sql/module\.c:')"

# The client's quoted includes are its own headers, found next to it.
client_bad=$(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"' client/*.c client/*.h |
	sed -E 's|^([^:]*):([0-9]+):.*"([^"]+)".*|\1 \2 \3|' |
	while read -r file line path; do
		[ -f "client/$path" ] || echo "$file:$line includes \"$path\", not a header of client/"
	done)
report "client/ includes only its own headers, none of src/" "$client_bad"

report "client/Makefile adds no src/ include path" "$(grep -nE -- '-I[^[:space:]]*src' client/Makefile)"

echo "1..$n"
[ "$failed" -eq 0 ]
