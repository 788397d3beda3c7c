/*
 * alphabeta.c: alpha-beta search for two roles that take turns (search.h).
 *
 * Negamax: a score is for the role in control at the node (its "mover"),
 * and a child's score counts negated unless the same role moves there
 * again.  Principal variation search within iterative deepening; a
 * transposition table (tt.c); moves tried hash move first, then tactical
 * moves by the game's tactical hook, then killers, then history; at the
 * horizon, quiescence over tactical moves, then the game's heuristic.
 *
 * Scores:
 *   - estimates: the log-odds of the mover's share of the two utilities,
 *     x 1000, within about -13800..13800: monotone in the estimate, and
 *     fine enough near 0 and 100 that a heuristic's small steps in a won
 *     position (a pawn more, the enemy king nearer the edge) still count;
 *   - ends of the game: a draw on goals is 0; otherwise SCORE_WIN + 1000 x
 *     the goal margin - the ply it is reached at, so that bigger wins come
 *     first and, among equal ones, the shortest win and the longest loss.
 * A score is "solved" when no estimate lies below it: it is then a bound of
 * the game's value, not of an estimate.  A solved win's distance is the
 * shortest the search has seen, not always the shortest there is (a node
 * is a proven win once one move wins, whatever its other moves would
 * show); so beyond its depth a solved table entry of a win counts only as
 * a lower bound, one of a loss only as an upper bound, and a deeper
 * search can still find the shorter win or the longer defence.
 */
#include "postgres.h"

#include <math.h>

#include "core/line.h"
#include "miscadmin.h"
#include "search/frame.h"
#include "search/tt.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#define SCORE_INF 1000000
#define SCORE_WIN 100000
#define SCORE_MARGIN 1000
#define ESTIMATE_SCALE 1000.0
/* Shares are kept within this much of 0 and 1, so that log-odds stay finite. */
#define ESTIMATE_EPSILON 1e-6
/* Scores beyond these are proven wins or losses. */
#define WIN_BAND (SCORE_WIN - SEARCH_MAX_PLY)

#define ORDER_HASH_MOVE (1 << 30)
#define ORDER_TACTICAL (1 << 28)
#define ORDER_KILLER (1 << 27)
#define HISTORY_SIZE 4096

typedef struct Search
{
	SearchFrame frame;
	TTable	   *tt;
	int32	   *order[SEARCH_MAX_PLY];	/* ordering keys of frame.moves */
	GameMove	killers[SEARCH_MAX_PLY][2];
	int32		history[HISTORY_SIZE];
	struct SolvedMove *solved;	/* [nsolved]: the game's solver on the root's moves */
	int			nsolved;
} Search;

/* What the game's solver proved of a root move (solve_root_moves). */
typedef struct SolvedMove
{
	GameMove	move;
	bool		ended;			/* the game ends with it: not for the solver */
	bool		proven;			/* who wins */
	bool		exact;			/* and how soon, with the line to the end */
	int32		score;			/* for the root's mover */
	int			line_length;	/* 0: no line to the end */
	GameMove	line[SEARCH_MAX_PLY - 1];	/* after the move, to the end */
} SolvedMove;

bool
search_alphabeta_applies(const Game *game, const GameState *state)
{
	return game->nroles == 2 && game->control(game, state) != GT_NO_ROLE;
}

static int
mover_of(const Search *s, const GameState *state, int fallback)
{
	int			role = gt_mover(s->frame.game, state);

	return role == GT_NO_ROLE ? fallback : role;
}

static bool
is_proven_score(int32 score)
{
	return score > WIN_BAND || score < -WIN_BAND;
}

/* The ply of the end of the game a proven score stands for. */
static int
end_ply(int32 score)
{
	return (SCORE_MARGIN - (Abs(score) - SCORE_WIN) % SCORE_MARGIN) % SCORE_MARGIN;
}

/* A proven score as the table keeps it: from the node, not from the root. */
static int32
score_to_tt(int32 score, int ply)
{
	return score > WIN_BAND ? score + ply : score < -WIN_BAND ? score - ply : score;
}

static int32
score_from_tt(int32 score, int ply)
{
	return score > WIN_BAND ? score - ply : score < -WIN_BAND ? score + ply : score;
}

/* The score for role of a game that ends with goals at ply. */
static int32
goals_score(const int *goals, int role, int ply)
{
	int			margin = goals[role] - goals[1 - role];

	if (margin == 0)
		return 0;
	return margin > 0 ? SCORE_WIN + SCORE_MARGIN * margin - ply :
		-(SCORE_WIN + SCORE_MARGIN * -margin - ply);
}

/* The score of an ended game for role. */
static int32
end_score(const Search *s, const GameState *state, int role, int ply)
{
	const Game *game = s->frame.game;
	int			goals[GT_MAX_ROLES];

	game->goals(game, state, goals);
	return goals_score(goals, role, ply);
}

/* The game's estimate for role; 0 when the game has none. */
static int32
estimate(const Search *s, const GameState *state, int role)
{
	const Game *game = s->frame.game;
	double		values[GT_MAX_ROLES];
	double		share;

	if (game->heuristic == NULL)
		return 0;
	game->heuristic(game, state, values);
	share = values[role] + values[1 - role] > 0 ? values[role] / (values[role] + values[1 - role]) : 0.5;
	share = Max(ESTIMATE_EPSILON, Min(1 - ESTIMATE_EPSILON, share));
	return (int32) rint(ESTIMATE_SCALE * log(share / (1 - share)));
}

static inline int
history_slot(GameMove move)
{
	return (int) ((move * UINT64CONST(0x9e3779b97f4a7c15)) >> 52);
}

/* Ordering keys of the n moves at ply. */
static void
order_moves(Search *s, int ply, int n, GameMove hash_move)
{
	const Game *game = s->frame.game;
	const GameState *state = s->frame.states[ply];

	for (int i = 0; i < n; i++)
	{
		GameMove	m = s->frame.moves[ply][i];
		int			tactical = game->tactical != NULL ? game->tactical(game, state, m) : 0;

		if (m == hash_move)
			s->order[ply][i] = ORDER_HASH_MOVE;
		else if (tactical > 0)
			s->order[ply][i] = ORDER_TACTICAL + Min(tactical, ORDER_TACTICAL - 1);
		else if (m == s->killers[ply][0])
			s->order[ply][i] = ORDER_KILLER + 1;
		else if (m == s->killers[ply][1])
			s->order[ply][i] = ORDER_KILLER;
		else
			s->order[ply][i] = Min(s->history[history_slot(m)], ORDER_KILLER - 1);
	}
}

/* Moves the best-ordered of moves i..n-1 to i (selection: cutoffs often come early). */
static GameMove
pick_move(Search *s, int ply, int i, int n)
{
	int			best = i;
	GameMove	m;
	int32		o;

	for (int j = i + 1; j < n; j++)
		if (s->order[ply][j] > s->order[ply][best])
			best = j;
	m = s->frame.moves[ply][best];
	o = s->order[ply][best];
	s->frame.moves[ply][best] = s->frame.moves[ply][i];
	s->order[ply][best] = s->order[ply][i];
	s->frame.moves[ply][i] = m;
	s->order[ply][i] = o;
	return m;
}

static int32 negamax(Search *s, int ply, int depth, int32 alpha, int32 beta, int role, bool *solved);

/*
 * Is a node whose best move scores best (solved as best_solved), searched
 * with alpha0 as its alpha, a proven win?  Its other moves need no look:
 * they can only be better.  But only a score above alpha0 is at least
 * that move's value; one at or below is a bound from above, which proves
 * nothing while other moves are estimates.
 */
static bool
won(int32 best, bool best_solved, int32 alpha0)
{
	return best_solved && best > WIN_BAND && best > alpha0;
}

/*
 * The child reached by move from ply, searched with the window (alpha,
 * beta) of role, the mover at ply: returns its score for role.
 */
static int32
child_score(Search *s, int ply, GameMove move, int depth, int32 alpha, int32 beta, int role,
			bool *solved)
{
	const Game *game = s->frame.game;
	GameState  *child = s->frame.states[ply + 1];
	int			child_role;

	game->next(game, s->frame.states[ply], move, child);
	child_role = mover_of(s, child, 1 - role);
	if (child_role == role)
		return negamax(s, ply + 1, depth, alpha, beta, role, solved);
	return -negamax(s, ply + 1, depth, -beta, -alpha, child_role, solved);
}

/* At the horizon: tactical moves until the position is quiet, then the estimate. */
static int32
quiesce(Search *s, int ply, int n, int32 alpha, int32 beta, int role, bool *solved)
{
	const Game *game = s->frame.game;
	const GameState *state = s->frame.states[ply];
	int32		best = -SCORE_INF;
	int32		alpha0 = alpha;
	int			ntactical = 0;
	bool		all_solved = true;
	bool		best_solved = false;

	*solved = false;
	if (game->tactical == NULL || ply >= SEARCH_MAX_PLY - 1)
		return estimate(s, state, role);
	for (int i = 0; i < n; i++)
	{
		int			t = game->tactical(game, state, s->frame.moves[ply][i]);

		if (t > 0)
		{
			s->frame.moves[ply][ntactical] = s->frame.moves[ply][i];
			s->order[ply][ntactical++] = t;
		}
	}
	/* Standing pat is for a mover who has a quiet move. */
	if (ntactical < n)
	{
		best = estimate(s, state, role);
		all_solved = false;
		if (best >= beta)
			return best;
		alpha = Max(alpha, best);
	}
	for (int i = 0; i < ntactical && !s->frame.stopped; i++)
	{
		GameMove	m = pick_move(s, ply, i, ntactical);
		bool		child_solved;
		int32		v = child_score(s, ply, m, 0, alpha, beta, role, &child_solved);

		all_solved &= child_solved;
		if (v > best)
		{
			best = v;
			best_solved = child_solved;
		}
		if (v > alpha)
		{
			alpha = v;
			search_frame_update_pv(&s->frame, ply, m);
		}
		if (alpha >= beta)
			break;
	}
	*solved = all_solved || won(best, best_solved, alpha0);
	return best;
}

static int32
negamax(Search *s, int ply, int depth, int32 alpha, int32 beta, int role, bool *solved)
{
	const Game *game = s->frame.game;
	const GameState *state = s->frame.states[ply];
	int			n;
	uint64		key;
	const TTEntry *entry;
	GameMove	hash_move = GT_NO_MOVE;
	GameMove	best_move = GT_NO_MOVE;
	int32		best = -SCORE_INF;
	int32		alpha0 = alpha;
	bool		all_solved = true;
	bool		best_solved = false;

	s->frame.pv[ply].length = 0;
	*solved = false;
	if (!search_frame_look(&s->frame))
		return 0;
	check_stack_depth();
	n = search_frame_legal(&s->frame, ply);
	if (n < 0)
		return 0;

	if (n == 0)
	{
		*solved = true;
		return end_score(s, state, role, ply);
	}
	if (depth <= 0 || ply >= SEARCH_MAX_PLY - 1)
		return quiesce(s, ply, n, alpha, beta, role, solved);

	key = gt_state_hash(game, state);
	entry = tt_probe(s->tt, key);
	if (entry != NULL)
	{
		int32		score = score_from_tt(entry->score, ply);

		hash_move = entry->move;
		if (entry->depth >= depth)
		{
			if (entry->bound == TT_EXACT ||
				(entry->bound == TT_LOWER && score >= beta) ||
				(entry->bound == TT_UPPER && score <= alpha))
			{
				*solved = entry->solved;
				return score;
			}
		}
		else if (entry->solved)
		{
			/*
			 * Searched less deep, but the game's value: a draw as it is, a
			 * win as at least this short, a loss as at least this long (see
			 * the top of the file).
			 */
			bool		lower = entry->bound != TT_UPPER && score >= beta && score >= -WIN_BAND;
			bool		upper = entry->bound != TT_LOWER && score <= alpha && score <= WIN_BAND;

			if ((entry->bound == TT_EXACT && !is_proven_score(score)) || lower || upper)
			{
				*solved = true;
				return score;
			}
		}
	}

	order_moves(s, ply, n, hash_move);
	for (int i = 0; i < n; i++)
	{
		GameMove	m = pick_move(s, ply, i, n);
		bool		child_solved;
		int32		v;

		if (i == 0)
			v = child_score(s, ply, m, depth - 1, alpha, beta, role, &child_solved);
		else
		{
			/* Principal variation search: prove the move no better, else search it fully. */
			v = child_score(s, ply, m, depth - 1, alpha, alpha + 1, role, &child_solved);
			if (v > alpha && v < beta && !s->frame.stopped)
				v = child_score(s, ply, m, depth - 1, alpha, beta, role, &child_solved);
		}
		if (s->frame.stopped)
			return 0;
		all_solved &= child_solved;
		if (v > best)
		{
			best = v;
			best_move = m;
			best_solved = child_solved;
		}
		if (v > alpha)
		{
			alpha = v;
			search_frame_update_pv(&s->frame, ply, m);
		}
		if (alpha >= beta)
		{
			if (s->order[ply][i] < ORDER_TACTICAL)
			{
				if (s->killers[ply][0] != m)
				{
					s->killers[ply][1] = s->killers[ply][0];
					s->killers[ply][0] = m;
				}
				s->history[history_slot(m)] = Min(s->history[history_slot(m)] + depth * depth,
												  ORDER_KILLER - 1);
			}
			break;
		}
	}
	*solved = all_solved || won(best, best_solved, alpha0);
	tt_store(s->tt, key, best_move, score_to_tt(best, ply), depth,
			 best >= beta ? TT_LOWER : best > alpha0 ? TT_EXACT : TT_UPPER, *solved);
	return best;
}

/* role's moves at state that the search has not proven lost for role (non-losing mobility). */
static int
non_losing_replies(Search *s, const GameState *state, int role)
{
	const Game *game = s->frame.game;
	GameMove   *moves = s->frame.moves[1];
	int			n = game->legal(game, state, moves);
	int			count = 0;

	for (int i = 0; i < n; i++)
	{
		GameState  *after = s->frame.states[2];
		const TTEntry *entry;
		bool		loses = false;

		game->next(game, state, moves[i], after);
		if (game->legal(game, after, s->frame.moves[2]) == 0)
		{
			int			goals[GT_MAX_ROLES];

			game->goals(game, after, goals);
			loses = goals[role] == GT_GOAL_MIN;
		}
		else if ((entry = tt_probe(s->tt, gt_state_hash(game, after))) != NULL && entry->solved)
		{
			bool		same = mover_of(s, after, 1 - role) == role;
			int32		score = same ? entry->score : -entry->score;
			bool		at_most = same ? entry->bound != TT_LOWER : entry->bound != TT_UPPER;

			loses = at_most && score < -WIN_BAND;
		}
		count += !loses;
	}
	return count;
}

/* The value of a root move from its score: utilities 50 +- half the margin. */
static void
root_value(Search *s, RootMove *rm, int role)
{
	const Game *game = s->frame.game;
	double		margin;
	GameState  *child = s->frame.states[1];
	int			child_role;

	value_unknown(game, &rm->value);
	rm->value.known = true;
	rm->value.proven = rm->proven;
	if (is_proven_score(rm->score))
	{
		margin = (double) ((Abs(rm->score) - SCORE_WIN + SCORE_MARGIN - 1) / SCORE_MARGIN) *
			(rm->score > 0 ? 1 : -1);
		rm->value.utility[role] = value_round(Max(GT_GOAL_MIN, Min(GT_GOAL_MAX, 50.0 + margin / 2.0)));
	}
	else						/* the share the log-odds stand for */
		rm->value.utility[role] = value_round(GT_GOAL_MAX / (1.0 + exp(-rm->score / ESTIMATE_SCALE)));
	rm->value.utility[1 - role] = value_round(GT_GOAL_MAX - rm->value.utility[role]);
	rm->value.move_id = 0;

	/*
	 * Non-losing mobility at the position the move leads to, for the role in
	 * control there; unknown when a game call gives up on it (the deadline
	 * is past: the prover takes a second or more for this).
	 */
	if (gt_clock_abandoned())
		return;
	game->next(game, s->frame.states[0], rm->move, child);
	if (game->legal(game, child, s->frame.moves[1]) == 0)
	{
		if (!gt_clock_abandoned())
			rm->value.mobility[0] = rm->value.mobility[1] = 0;
		return;
	}
	child_role = mover_of(s, child, 1 - role);
	rm->value.mobility[child_role] = non_losing_replies(s, child, child_role);
	if (gt_clock_abandoned())
		rm->value.mobility[child_role] = -1;
}

/*
 * Lengthens a root move's line through the table's best moves where the
 * search took a child's value from the table and so has no line below it.
 */
static void
extend_pv(Search *s, RootMove *rm)
{
	const Game *game = s->frame.game;
	GameLine	line;

	gt_line_begin(&line, game, s->frame.states[0]);
	for (int i = 0; i < rm->pv.length; i++)
		gt_line_play(&line, rm->pv.moves[i]);
	while (rm->pv.length < SEARCH_MAX_PLY)
	{
		const TTEntry *entry = tt_probe(s->tt, gt_state_hash(game, line.at));
		int			n;
		bool		legal = false;

		if (entry == NULL || entry->move == GT_NO_MOVE)
			return;
		n = game->legal(game, line.at, s->frame.moves[1]);
		for (int i = 0; i < n && !legal; i++)
			legal = s->frame.moves[1][i] == entry->move;
		if (!legal)
			return;
		rm->pv.moves[rm->pv.length++] = entry->move;
		gt_line_play(&line, entry->move);
	}
}

/*
 * The game's solver on the root move sm, before deadline: who wins, or
 * with exact also how soon and the line.  What it proves goes into the
 * table as solved, so that the iterations take it as it is.
 */
static void
solve_root_move(Search *s, SolvedMove *sm, int role, GameSolveCall *call, TimestampTz deadline,
				bool exact)
{
	const Game *game = s->frame.game;
	GameState  *child = s->frame.states[1];
	int			child_role;
	int32		score;

	game->next(game, s->frame.states[0], sm->move, child);
	call->deadline = deadline;
	call->exact = exact;
	call->line = sm->line;
	if (!game->solve(game, child, call))
		return;
	child_role = mover_of(s, child, 1 - role);
	/* For the child's mover, at the ply from the root the search counts. */
	score = goals_score(call->goals, child_role, 1 + call->plies);
	tt_store(s->tt, gt_state_hash(game, child), GT_NO_MOVE, score_to_tt(score, 1), SEARCH_MAX_PLY,
			 TT_EXACT, true);
	sm->proven = true;
	sm->score = child_role == role ? score : -score;
	/* A line the clock cut short is not yet the whole proof: the pass for how soon tries again. */
	sm->exact = call->plies_exact && call->line_length == call->plies;
	sm->line_length = sm->exact ? call->line_length : 0;
}

/*
 * The game's exact solver values the root's moves within half the time
 * left, or three quarters once it has proven one: the position is then
 * within its reach, and its values are exact where the search's are
 * estimates (connect four after ten plies: proving every losing move
 * lost can take it most of a second, and the search, given the same
 * time, still picks one).  First who wins after each move, in rounds that
 * share the time left evenly among the moves still unknown (what a move
 * does not use goes to the next; the table the calls share keeps what a
 * call cut short found), so that one hard move does not keep the quick
 * proofs from coming; then how soon and the line, winning moves first,
 * with the time left.
 */
static void
solve_root_moves(Search *s, const RootMove *moves, int n, int role)
{
	const Game *game = s->frame.game;
	TimestampTz now = GetCurrentTimestamp();
	TimestampTz deadline = now + (s->frame.limits->deadline - now) / 2;
	TimestampTz in_reach = now + (s->frame.limits->deadline - now) * 3 / 4;
	GameSolveCall call = {0};
	int			unknown = 0;

	call.memory = s->frame.limits->memory / 2;
	call.max_line = SEARCH_MAX_PLY - 1;
	s->solved = palloc0(n * sizeof(SolvedMove));
	s->nsolved = n;
	for (int i = 0; i < n; i++)
	{
		s->solved[i].move = moves[i].move;
		game->next(game, s->frame.states[0], moves[i].move, s->frame.states[1]);
		/* The search sees the end itself. */
		s->solved[i].ended = game->legal(game, s->frame.states[1], s->frame.moves[1]) == 0;
		unknown += !s->solved[i].ended;
	}
	while (unknown > 0 && GetCurrentTimestamp() < deadline)
	{
		int			left = unknown;
		int			was_unknown = unknown;

		for (int i = 0; i < n && (now = GetCurrentTimestamp()) < deadline; i++)
		{
			SolvedMove *sm = &s->solved[i];

			if (sm->ended || sm->proven)
				continue;
			solve_root_move(s, sm, role, &call, now + (deadline - now) / left--, false);
			if (sm->proven)
			{
				unknown--;
				deadline = in_reach;
			}
		}
		if (unknown == was_unknown)
			break;				/* time left, and a round proved nothing: the solver declines */
	}
	for (int wins = 1; wins >= 0; wins--)
		for (int i = 0; i < n && GetCurrentTimestamp() < deadline; i++)
		{
			SolvedMove *sm = &s->solved[i];

			if (sm->proven && !sm->exact && (sm->score > 0) == wins)
				solve_root_move(s, sm, role, &call, deadline, true);
		}
}

/*
 * A root move the game's solver proved as the search values it: its line
 * is the solver's principal line, as deep as the game lasts.
 */
static bool
take_solver_line(Search *s, RootMove *rm)
{
	for (int i = 0; i < s->nsolved; i++)
	{
		const SolvedMove *sm = &s->solved[i];

		if (sm->move != rm->move || !sm->exact || !rm->proven || sm->score != rm->score ||
			sm->line_length == 0)
			continue;
		rm->pv.moves[0] = rm->move;
		memcpy(&rm->pv.moves[1], sm->line, sm->line_length * sizeof(GameMove));
		rm->pv.length = 1 + sm->line_length;
		rm->depth = rm->pv.length;	/* how deep the proof goes, not the iteration */
		return true;
	}
	return false;
}

/*
 * Is root move a ahead of b after an iteration?  Exact scores first,
 * higher first; moves that only have a bound below the best (bestmove's)
 * after them, in the order they were tried in, as are equal scores.
 */
static bool
score_ahead(const RootMove *a, const RootMove *b, const void *arg)
{
	if (a->bounded != b->bounded)
		return !a->bounded;
	return !a->bounded && a->score > b->score;
}

/*
 * Is root move a ahead of b by the max^n tie rules (values.c), focus
 * first, for the root's mover?  Only between equal exact scores of one
 * iteration.  (arg: the SearchFrame)
 */
static bool
tie_ahead(const RootMove *a, const RootMove *b, const void *arg)
{
	const SearchFrame *f = arg;

	return !a->bounded && !b->bounded && b->score == a->score && b->depth == a->depth &&
		value_better(f->game, &a->value, &b->value, f->root_role);
}

/*
 * One iteration: the root's moves, in the order of moves, searched depth
 * plies deep into scored.  For analyse (exact_moves) every move gets its
 * exact score.  For bestmove the first gets its exact score and sets the
 * bar; each other move is searched with a zero window just below the bar:
 * one that scores less is worse than the best, and keeps only that bound
 * (bounded); one that reaches the bar gets its exact score by a second
 * search, so that moves as good as the best meet the same tie rules as in
 * analyse, and a better one raises the bar.  Returns how many moves were
 * searched before the clock stopped the search; *all_proven says whether
 * all of those have a proven value or a proven bound.
 */
static int
search_root(Search *s, const RootMove *moves, RootMove *scored, int n, int depth, int role,
			bool *all_proven)
{
	int32		bar = -SCORE_INF;
	int			done;

	*all_proven = true;
	for (done = 0; done < n; done++)
	{
		RootMove   *rm = &scored[done];
		bool		solved;
		int32		v;

		*rm = moves[done];
		rm->bounded = false;
		s->frame.pv[1].length = 0;
		if (s->frame.limits->exact_moves || done == 0)
			v = child_score(s, 0, rm->move, depth - 1, -SCORE_INF, SCORE_INF, role, &solved);
		else
		{
			v = child_score(s, 0, rm->move, depth - 1, bar - 1, bar, role, &solved);
			if (v >= bar && !s->frame.stopped)
				v = child_score(s, 0, rm->move, depth - 1, bar - 1, SCORE_INF, role, &solved);
			rm->bounded = v < bar;
		}
		if (s->frame.stopped)
			break;
		rm->score = v;
		/* A bound from above proves a loss, never a win or a draw. */
		rm->proven = solved && (!rm->bounded || v < -WIN_BAND);
		rm->depth = depth;
		search_frame_root_pv(&s->frame, rm);
		*all_proven &= solved;
		if (!rm->bounded)
			bar = Max(bar, v);
	}
	return done;
}

/*
 * Can deeper iterations not change the best move's value?  It must be
 * exact and proven; an end of the game no further than depth plies away
 * (deeper iterations look for a shorter win or a longer defence only
 * beyond that); and every move proven, or, for bestmove, which needs no
 * other move's value, a win by the biggest margin.
 */
static bool
root_settled(const RootMove *best, int depth, bool all_proven, bool exact_moves)
{
	if (best->bounded || !best->proven)
		return false;
	if (is_proven_score(best->score) && end_ply(best->score) > depth)
		return false;
	return all_proven ||
		(!exact_moves && best->score > SCORE_WIN + SCORE_MARGIN * (GT_GOAL_MAX - GT_GOAL_MIN - 1));
}

/*
 * A search from root, whose mover is role, in cxt, the current context: the
 * frame, the ordering arrays and the table.
 */
static Search *
new_search(MemoryContext cxt, const Game *game, const GameState *root, int role, const SearchLimits *limits)
{
	Search	   *s = MemoryContextAllocZero(cxt, sizeof(Search));

	for (int p = 0; p < SEARCH_MAX_PLY; p++)
		s->killers[p][0] = s->killers[p][1] = GT_NO_MOVE;
	search_frame_init(&s->frame, game, root, role, limits);
	for (int p = 0; p < SEARCH_MAX_PLY; p++)
		s->order[p] = palloc(game->max_moves * sizeof(int32));
	s->tt = tt_create(cxt, limits->memory);
	return s;
}

/*
 * The root's moves, in caller's context, in the order the first iteration
 * tries them: by the move ordering of every node, then by a stored tree's
 * utilities (its best move first).  Starts the clock.
 */
static RootMove *
first_root_moves(Search *s, MemoryContext caller, int *n)
{
	RootMove   *moves;

	*n = search_frame_start(&s->frame);
	moves = MemoryContextAllocZero(caller, *n * sizeof(RootMove));
	order_moves(s, 0, *n, GT_NO_MOVE);
	for (int i = 0; i < *n; i++)
	{
		moves[i].move = pick_move(s, 0, i, *n);
		moves[i].score = -SCORE_INF;
		moves[i].visits = -1;
	}
	search_order_by_prior(s->frame.limits, moves, *n, s->frame.root_role);
	return moves;
}

/*
 * An iteration cut short by the clock: the last best move was searched
 * first (scored[0]); a move that this iteration, in its done moves, found
 * better than it, at this depth, takes its place; the others keep the
 * values of the last iteration, whose best move stays ahead of them.
 */
static void
take_unfinished(RootMove *moves, const RootMove *scored, int done)
{
	int			better = 0;

	for (int i = 1; i < done; i++)
		if (!scored[i].bounded && scored[i].score > scored[better].score)
			better = i;
	if (better > 0)
	{
		memmove(&moves[1], &moves[0], better * sizeof(RootMove));
		moves[0] = scored[better];
	}
}

/*
 * Iterative deepening: one iteration per depth until the deepest, the
 * clock, or a settled root; after each, moves in the order it found.
 */
static void
deepen(Search *s, RootMove *moves, int n, SearchResult *result)
{
	for (int depth = 1; depth <= s->frame.max_depth && !s->frame.stopped; depth++)
	{
		RootMove   *scored = palloc(n * sizeof(RootMove));
		bool		all_proven;
		int			done = search_root(s, moves, scored, n, depth, s->frame.root_role, &all_proven);

		if (done == n)
		{
			search_order_root_moves(scored, n, score_ahead, NULL);
			memcpy(moves, scored, n * sizeof(RootMove));
			result->depth = depth;
			if (root_settled(&moves[0], depth, all_proven, s->frame.limits->exact_moves))
				break;
		}
		else
			take_unfinished(moves, scored, done);
		pfree(scored);
	}
}

/*
 * The root moves' lines lengthened, their values (unknown for a move no
 * iteration finished), and equal scores ordered by the tie rules.
 */
static void
finish_root_moves(Search *s, RootMove *moves, int n)
{
	for (int i = 0; i < n; i++)
	{
		if (moves[i].depth > 0)
		{
			if (!take_solver_line(s, &moves[i]))
				extend_pv(s, &moves[i]);
			root_value(s, &moves[i], s->frame.root_role);
		}
		else
			value_unknown(s->frame.game, &moves[i].value);
	}
	search_order_root_moves(moves, n, tie_ahead, &s->frame);
}

void
search_alphabeta(const Game *game, const GameState *root, const SearchLimits *limits,
				 SearchResult *result)
{
	MemoryContext caller = CurrentMemoryContext;

	/* Everything of the search but its result, within limits->memory, freed at its end. */
	MemoryContext cxt = AllocSetContextCreate(caller, "gametree alpha-beta search",
											  ALLOCSET_DEFAULT_SIZES);
	int			role = game->control(game, root);
	Search	   *s;
	RootMove   *moves;
	int			n;

	Assert(role != GT_NO_ROLE && game->nroles == 2);
	MemoryContextSwitchTo(cxt);
	s = new_search(cxt, game, root, role, limits);
	moves = first_root_moves(s, caller, &n);
	result->moves = moves;
	result->nmoves = n;
	result->depth = 0;
	if (game->solve != NULL && limits->deadline != 0)
		solve_root_moves(s, moves, n, role);
	deepen(s, moves, n, result);
	finish_root_moves(s, moves, n);
	result->nodes = s->frame.nodes;
	gt_clock_stop();
	MemoryContextSwitchTo(caller);
	MemoryContextDelete(cxt);
}
