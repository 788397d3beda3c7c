#!/usr/bin/env bash
# test/pgtap/setup.sh: makes the database the pgTAP tests run in, so that
# pg_prove can run any of them on its own afterwards:
#
#   bash test/pgtap/setup.sh [DB]                  # default gametree_tap
#   pg_prove -d gametree_tap test/pgtap/perft.sql  # from the checkout's top
#
# (`make prove` does both for every file; tools/check.sh runs it.)  It drops
# and creates DB with the extensions pgtap, dblink and gametree (a superuser
# must run it), and loads the reference data of test/data/ (its README gives
# each number's source) into tables of public that the tests compare with:
# reference_perft, reference_perft_move_rules, reference_positions, the
# search suites (reference_chess_mates, reference_chess_avoid_mate,
# reference_connect4_values, reference_connect4_exact, reference_checkers_kings), the perft of each
# game the conformance suite checks (reference_conformance) and reference_gdl,
# the text of each GDL description of test/data/gdl/.  The server is the
# one libpq's environment names (PGHOST, PGPORT, PGUSER); PSQL names the
# psql to use.
set -euo pipefail
db=${1:-gametree_tap}
cd "$(dirname "$0")/../.."
# Named run_psql, not psql: a function psql calling "${PSQL:-psql}" would call
# itself when PSQL is unset.
run_psql() { "${PSQL:-psql}" -X -q -v ON_ERROR_STOP=1 "$@"; }

run_psql -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
for ext in pgtap dblink gametree; do
	run_psql -d "$db" -c "CREATE EXTENSION $ext"
done

run_psql -d "$db" \
	-c "CREATE TABLE public.reference_perft (game text, name text, position text, depth int, count bigint,
	                                          count_with_early_ends bigint, source text)" \
	-c "CREATE TABLE public.reference_perft_move_rules (game text, name text, position text, depth int,
	                                                     count bigint, source text)" \
	-c "CREATE TABLE public.reference_positions (game text, ply int, count bigint, source text)" \
	-c "CREATE TABLE public.reference_chess_mates (fen text, mate_in int, stockfish_bestmove text,
	                                               mating_moves text, winning_moves text)" \
	-c "CREATE TABLE public.reference_chess_avoid_mate (fen text, blundering_moves text, safe_moves_count int)" \
	-c "CREATE TABLE public.reference_connect4_values (moves text, plies int, value text, column_values text)" \
	-c "CREATE TABLE public.reference_connect4_exact (moves text, plies int, score int, column_scores text)" \
	-c "CREATE TABLE public.reference_checkers_kings (fen text, value text)" \
	-c "CREATE TABLE public.reference_conformance (game text PRIMARY KEY, perft_game text, perft_name text,
	                                              max_depth int, source text)"
for table in perft perft_move_rules positions chess_mates chess_avoid_mate connect4_values connect4_exact \
	checkers_kings conformance; do
	run_psql -d "$db" -c "\\copy public.reference_$table FROM 'test/data/$table.tsv' WITH (FORMAT csv, DELIMITER E'\\t', HEADER true)"
done

# The GDL game descriptions (test/data/gdl/README.md), one row per file, the
# text less its final newline: psql reads each file into a variable, and
# :'kif' quotes it.
run_psql -d "$db" -c "CREATE TABLE public.reference_gdl (name text PRIMARY KEY, file text, kif text)"
for file in test/data/gdl/*.kif; do
	run_psql -d "$db" -v name="$(basename "$file" .kif)" -v file="$file" <<-'EOF'
		\set kif `cat :'file'`
		INSERT INTO public.reference_gdl VALUES (:'name', :'file', :'kif');
	EOF
done
