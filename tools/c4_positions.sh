#!/usr/bin/env bash
# tools/c4_positions.sh: regenerates test/data/connect4_values.tsv, connect
# four positions after 10 to 22 plies with the exact value of the position and
# of each column for the side to move, test/data/connect4_exact.tsv,
# positions after 8, 12, 16 and 20 plies with exact scores (how soon the game
# ends), for test/pgtap/search_connect4.sql and bench/c4_solve.sh, and
# test/data/connect4_proofs.tsv, the first 50 positions after 8 to 14 plies
# of random plausible games, valued as connect4_values.tsv, for solve
# (bench/solve_connect4.sh, test/t/solve_check.sh).
#
# Builds the project's own solver (tools/c4solve/c4solve.c) into a temporary
# directory, checks it (positions whose values follow by hand, and positions
# after 22 to 28 plies against a plain minimax), draws random plausible games
# with a fixed seed (c4solve -g), solves every candidate and keeps, for each
# ply, the first three won positions where some move does not win, the first
# two drawn positions where some move loses, and the first lost position.
#
# Usage: tools/c4_positions.sh [--check-initial]
#   --check-initial also solves the empty board (the first player wins, only
#   with the centre column; columns 3 and 5 draw).  Adds about 13 minutes.
# Needs only a C compiler; does not touch PostgreSQL.  Takes about 5 minutes
# on two cores and 2 GiB of memory.  The same seed gives the same file.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
seed=20240601
min_ply=10
max_ply=22
per_ply=120 # candidates per ply
out=$root/test/data/connect4_values.tsv
exact_out=$root/test/data/connect4_exact.tsv
exact_plies="8 12 16 20"
exact_per_ply=5
proofs_out=$root/test/data/connect4_proofs.tsv
proofs_seed=20261126

check_initial=0
case "${1:-}" in
'') ;;
--check-initial) check_initial=1 ;;
*)
	echo "usage: $0 [--check-initial]" >&2
	exit 2
	;;
esac

log() { printf '== %s\n' "$*" >&2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$SECONDS

log "building tools/c4solve/c4solve.c"
${CC:-cc} -O2 -march=native -Wall -o "$tmp/c4solve" "$root/tools/c4solve/c4solve.c"
solver=$tmp/c4solve

# Each line: a sequence and the expected output, value and columns; a column
# given as * is not checked.  Every value given follows by hand:
#   the full board of a game without a four is a draw, and so is the board
#     one or two discs before it (the last discs make no four);
#   121212: red wins at once in column 1; anywhere but column 2 yellow
#     completes column 2;
#   4455: red's disc in column 3 or 6 makes three in the bottom row, open at
#     both ends; 44553 is the position after column 3: yellow cannot stop both;
#   112233: red wins at once in column 4;
#   then three lines that are not positions.
log "checking the solver on positions decided by hand"
full=467542311242375735765675733135661624214421
cat >"$tmp/hand" <<EOF
$full	0	x,x,x,x,x,x,x
${full:0:41}	0	draw,x,x,x,x,x,x
${full:0:40}	0	draw,draw,x,x,x,x,x
121212	+1	win,*,loss,loss,loss,loss,loss
4455	+1	*,*,win,*,*,win,*
44553	-1	loss,loss,loss,loss,loss,loss,loss
112233	+1	*,*,*,win,*,*,*
1212121	error	four on the board
4444444	error	column full
12121212	error	move after a four
EOF
[ "$check_initial" = 1 ] && printf '\t+1\tloss,loss,draw,win,draw,loss,loss\n' >>"$tmp/hand"
cut -f1 "$tmp/hand" | "$solver" -m 27 >"$tmp/hand.out"
if ! paste "$tmp/hand" "$tmp/hand.out" | awk -F'\t' '
	{
		ok = $1 == $4 && $2 == $5 && NF == 6
		n = split($3, want, ","); split($6, got, ",")
		for (i = 1; i <= n && ok; i++) ok = want[i] == "*" || want[i] == got[i]
		if (n == 1) ok = ok && $3 == $6
		printf "%s - %s: %s %s\n", ok ? "ok" : "not ok", $1 == "" ? "(empty board)" : $1, $5, $6
		bad += !ok
	}
	END { exit bad != 0 }' >&2; then
	log "the solver fails a hand check"
	exit 1
fi

log "checking the solver against a plain minimax (positions after 22 to 28 plies)"
if ! "$solver" -t "$seed" 42 22 28 >"$tmp/selftest"; then
	grep -v '^ok' "$tmp/selftest" >&2
	exit 1
fi
tail -1 "$tmp/selftest" >&2

log "generating $((per_ply * (max_ply - min_ply + 1))) candidates (seed $seed)"
"$solver" -g "$seed" $((per_ply * (max_ply - min_ply + 1))) $min_ply $max_ply >"$tmp/candidates"

log "solving the candidates (two processes)"
awk 'NR % 2 == 1' "$tmp/candidates" | "$solver" -m 27 >"$tmp/solved.1" &
pid=$!
awk 'NR % 2 == 0' "$tmp/candidates" | "$solver" -m 27 >"$tmp/solved.2"
wait "$pid"
cat "$tmp/solved.1" "$tmp/solved.2" >"$tmp/solved"
if [ "$(wc -l <"$tmp/solved")" -ne "$(wc -l <"$tmp/candidates")" ] || grep -q $'\terror\t' "$tmp/solved"; then
	log "the solver did not solve every candidate"
	exit 1
fi

# Selection, in the order of the candidates, for each ply: 2 draws, 1 loss,
# and wins to make 6 (a drawn position here always has a losing move; a lost
# position never has a move that changes the value).
awk -F'\t' -v OFS='\t' -v min=$min_ply -v max=$max_ply '
	FNR == NR { value[$1] = $2 == "+1" ? "win" : $2 == "0" ? "draw" : "loss"; cols[$1] = $3; next }
	{
		s = $1; p = length(s); v = value[s]
		c = cols[s]; gsub(/x/, "full", c)
		n = split(c, a, ","); changes = 0
		for (i = 1; i <= n; i++) if (a[i] != "full" && a[i] != v) changes = 1
		if (v == "loss") { if (!nl[p]++) loss[p] = s OFS p OFS v OFS c }
		else if (!changes) next
		else if (v == "draw") draw[p, ++nd[p]] = s OFS p OFS v OFS c
		else win[p, ++nw[p]] = s OFS p OFS v OFS c
	}
	END {
		print "moves", "plies", "value", "column_values"
		for (p = min; p <= max; p++) {
			d = nd[p] < 2 ? nd[p] : 2
			w = 6 - d - (nl[p] > 0)
			if (nw[p] < w) w = nw[p]
			for (i = 1; i <= w; i++) print win[p, i]
			for (i = 1; i <= d; i++) print draw[p, i]
			if (nl[p]) print loss[p]
		}
	}' "$tmp/solved" "$tmp/candidates" >"$tmp/values.tsv"

# Sanity: no repeated sequence, at least 50 positions where a move changes
# the value, every value at every ply.
awk -F'\t' '
	NR > 1 {
		if (seen[$1]++) { print "repeated: " $1; bad = 1 }
		n = split($4, a, ","); ch = 0
		for (i = 1; i <= n; i++) if (a[i] != "full" && a[i] != $3) ch = 1
		changes += ch; byv[$3]++; byp[$2]++; pv[$2, $3]++
	}
	END {
		printf "%d positions: %d win, %d draw, %d loss; %d where some move changes the value\n",
			NR - 1, byv["win"], byv["draw"], byv["loss"], changes
		for (p in byp) printf "  ply %s: %d (win %d, draw %d, loss %d)\n", p, byp[p],
			pv[p, "win"], pv[p, "draw"], pv[p, "loss"] | "sort -n -k2"
		close("sort -n -k2")
		if (changes < 50) { print "fewer than 50 positions where a move changes the value"; bad = 1 }
		exit bad
	}' "$tmp/values.tsv" >&2

cp "$tmp/values.tsv" "$out"
log "wrote ${out#"$root"/} in $((SECONDS - start)) s"

# Exact scores (c4solve -e, Pascal Pons's convention: a win with the
# winner's k-th disc scores 22 - k) of the first positions after each ply
# count of random plausible games, a seed per ply count.
log "solving $exact_per_ply positions after each of $exact_plies plies exactly"
for p in $exact_plies; do
	"$solver" -g $((seed + p)) $exact_per_ply "$p" "$p"
done | "$solver" -e -m 24 | awk -F'\t' -v OFS='\t' '
	BEGIN { print "moves", "plies", "score", "column_scores" }
	$2 == "error" { exit 1 }
	{ print $1, length($1), $4, $5 }' >"$tmp/exact.tsv"
cp "$tmp/exact.tsv" "$exact_out"
log "wrote ${exact_out#"$root"/} in $((SECONDS - start)) s"

# Positions for solve, all kept whatever their value: the random games make
# few draws, as random play does.
log "solving 50 positions after 8 to 14 plies (seed $proofs_seed)"
"$solver" -g "$proofs_seed" 50 8 14 | "$solver" -m 27 | awk -F'\t' -v OFS='\t' '
	BEGIN { print "moves", "plies", "value", "column_values" }
	$2 == "error" { exit 1 }
	{
		c = $3; gsub(/x/, "full", c)
		print $1, length($1), $2 == "+1" ? "win" : $2 == "0" ? "draw" : "loss", c
	}' >"$tmp/proofs.tsv"
cp "$tmp/proofs.tsv" "$proofs_out"
log "wrote ${proofs_out#"$root"/} in $((SECONDS - start)) s"
