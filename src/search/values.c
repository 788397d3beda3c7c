/*
 * values.c: the max^n value rules (values.h).
 */
#include "postgres.h"

#include <math.h>

#include "search/values.h"

#define EPSILON 1e-9

void
value_unknown(const Game *game, Value *v)
{
	memset(v, 0, sizeof(Value));
	for (int r = 0; r < game->nroles; r++)
		v->mobility[r] = -1;
}

void
value_of_state(const Game *game, const GameState *state, bool terminal, Value *v)
{
	value_unknown(game, v);
	if (terminal)
	{
		int			goals[GT_MAX_ROLES];

		game->goals(game, state, goals);
		v->known = v->proven = true;
		for (int r = 0; r < game->nroles; r++)
		{
			v->utility[r] = goals[r];
			v->mobility[r] = 0;
		}
	}
	else if (game->heuristic != NULL)
	{
		game->heuristic(game, state, v->utility);
		for (int r = 0; r < game->nroles; r++)
			v->utility[r] = value_round(v->utility[r]);
		v->known = true;
	}
}

double
value_round(double utility)
{
	return rint(utility * GT_HUNDREDTHS) / GT_HUNDREDTHS;
}

static double
others_total(const Game *game, const Value *v, int mover)
{
	double		total = 0;

	for (int r = 0; r < game->nroles; r++)
		if (r != mover)
			total += v->utility[r];
	return total;
}

/*
 * The others' non-losing mobility in total and the mover's own, where both
 * values know them: *others and *own are -1, 0 or 1 as a has less, the
 * same or more.
 */
static void
compare_mobility(const Game *game, const Value *a, const Value *b, int mover, int *others, int *own)
{
	int64		total_a = 0,
				total_b = 0;

	*others = *own = 0;
	for (int r = 0; r < game->nroles; r++)
	{
		if (a->mobility[r] < 0 || b->mobility[r] < 0)
			continue;
		if (r == mover)
			*own = (a->mobility[r] > b->mobility[r]) - (a->mobility[r] < b->mobility[r]);
		else
		{
			total_a += a->mobility[r];
			total_b += b->mobility[r];
		}
	}
	*others = (total_a > total_b) - (total_a < total_b);
}

bool
value_better(const Game *game, const Value *a, const Value *b, int mover)
{
	double		diff;
	int			others,
				own;

	if (!b->known)
		return true;
	diff = a->utility[mover] - b->utility[mover];
	if (fabs(diff) > EPSILON)
		return diff > 0;
	if (a->proven != b->proven)
		return a->proven;
	/* Focus: the move that leaves the others fewer moves that do not lose, then the mover more. */
	compare_mobility(game, a, b, mover, &others, &own);
	if (others != 0)
		return others < 0;
	if (own != 0)
		return own > 0;
	diff = others_total(game, a, mover) - others_total(game, b, mover);
	if (fabs(diff) > EPSILON)
		return diff < 0;
	return a->move_id < b->move_id;
}

void
value_evaluate(const Game *game, int mover, const Value *moves, int n, Value *out)
{
	bool		all_proven = true;
	int			known = 0;

	value_unknown(game, out);
	for (int i = 0; i < n; i++)
	{
		all_proven &= moves[i].known && moves[i].proven;
		known += moves[i].known;
	}
	if (mover != GT_NO_ROLE)
	{
		for (int i = 0; i < n; i++)
			if (moves[i].known && value_better(game, &moves[i], out, mover))
				*out = moves[i];
		out->proven = out->known && out->proven &&
			(all_proven || out->utility[mover] >= GT_GOAL_MAX - EPSILON);
		if (!out->known)
			out->move_id = 0;
	}
	else if (known > 0)
	{
		out->known = true;
		out->proven = all_proven;
		for (int i = 0; i < n; i++)
			for (int r = 0; r < game->nroles; r++)
				out->utility[r] += moves[i].known ? moves[i].utility[r] / known : 0;
		for (int r = 0; r < game->nroles; r++)
			out->utility[r] = value_round(out->utility[r]);
	}

	for (int r = 0; r < game->nroles; r++)
	{
		int			mobility = -1;

		for (int i = 0; i < n; i++)
		{
			if (r == mover)
				mobility = Max(mobility, 0) +
					!(moves[i].proven && moves[i].utility[r] <= GT_GOAL_MIN + EPSILON);
			else if (moves[i].mobility[r] >= 0 &&
					 (mobility < 0 || moves[i].mobility[r] < mobility))
				mobility = moves[i].mobility[r];
		}
		out->mobility[r] = mobility;
	}
}

bool
value_same(const Game *game, const Value *a, const Value *b)
{
	if (a->known != b->known || a->proven != b->proven || a->move_id != b->move_id)
		return false;
	for (int r = 0; r < game->nroles; r++)
		if (a->mobility[r] != b->mobility[r] ||
			(a->known && fabs(a->utility[r] - b->utility[r]) > 0.005))
			return false;
	return true;
}
