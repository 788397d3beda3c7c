/*
 * subtree.c: the part of a tree within some plies of a state (subtree.h).
 *
 * One statement reads the states and their edges, so one snapshot: a grow
 * running meanwhile cannot leave an edge without the state it comes from.
 * The walk is a recursive query whose UNION drops a state reached again at
 * the same ply, so cycles and transpositions end; a state reached along
 * several paths is listed once, at its shortest distance.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "store/subtree.h"
#include "store/tree.h"

void
tree_subtree(text *tree_name, int64 state_id, int32 plies, Tuplestorestate *result, TupleDesc desc)
{
	Tree	   *tree;
	char	   *sql;

	if (plies < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("plies must be 0 or more, not %d", plies),
				 errhint("0 gives the state alone, 1 it and its children.")));
	SPI_connect();
	/* The query reads the tables themselves, with the caller's privileges. */
	tree = tree_open(tree_name, TREE_READ);
	/*
	 * Edges in the order of their moves' JSON text, so that a picture draws
	 * siblings in move order; "best" marks the state's chosen move.
	 */
	sql = psprintf("WITH RECURSIVE walk(id, ply) AS ("
				   " SELECT $1::bigint, 0"
				   " UNION"
				   " SELECT g.next_id, w.ply + 1 FROM walk w JOIN %1$s g ON g.init_id = w.id WHERE w.ply < $2"
				   "), reached AS (SELECT id, min(ply) AS ply FROM walk GROUP BY id) "
				   "SELECT r.id, r.ply, s.depth, s.state::jsonb, s.expanded, s.goal IS NOT NULL, s.control, "
				   "%4$s, s.mobility, s.proven, "
				   "CASE WHEN r.ply < $2 THEN coalesce((SELECT jsonb_agg(jsonb_build_object("
				   "'to', g.next_id, 'move', m.move, 'utility', %5$s, 'proven', coalesce(c.proven, false), "
				   "'visits', g.visits, 'best', coalesce(s.best_move = g.move_id, false)) ORDER BY m.move::text) "
				   "FROM %1$s g JOIN %2$s m ON m.id = g.move_id LEFT JOIN %3$s c ON c.id = g.next_id "
				   "WHERE g.init_id = r.id), '[]') END "
				   "FROM reached r JOIN %3$s s ON s.id = r.id ORDER BY r.ply, r.id",
				   tree->edges, tree->moves, tree->states, tree_utility_sql("s"), tree_utility_sql("c"));
	spi_run(sql, 2, (Oid[]) {INT8OID, INT4OID}, (Datum[]) {Int64GetDatum(state_id), Int32GetDatum(plies)},
			SPI_OK_SELECT);
	if (SPI_tuptable->tupdesc->natts != desc->natts)
		elog(ERROR, "gametree: the subtree query returns %d columns, the function %d",
			 SPI_tuptable->tupdesc->natts, desc->natts);
	for (int i = 0; i < desc->natts; i++)
		if (TupleDescAttr(SPI_tuptable->tupdesc, i)->atttypid != TupleDescAttr(desc, i)->atttypid)
			elog(ERROR, "gametree: column %d of the subtree query has the wrong type", i + 1);
	for (uint64 r = 0; r < SPI_processed; r++)
		tuplestore_puttuple(result, SPI_tuptable->vals[r]);
	tree_close(tree);
	SPI_finish();
}
