/*
 * movegen.c: the checkers rules of moving over the bitboards (checkers.h):
 * which pieces can step or jump, the jump paths, making a move, and perft's
 * fast path, which lives here so that generating and making moves inline
 * into its loop.
 */
#include "postgres.h"

#include "checkers.h"
#include "miscadmin.h"

/* Direction d steps by offset[d]: 0, 1 towards square 1, 2, 3 towards 32. */
static const int offset[4] = {-5, -4, 4, 5};

/* Directions of a man of each side, as a bit set over d. */
static const int man_dirs[2] = {0xC, 0x3};

static inline uint64
shift(uint64 x, int by)
{
	return by >= 0 ? x << by : x >> -by;
}

static inline uint64
empty_squares(const Checkers *c)
{
	return VALID & ~(c->piece[CK_BLACK] | c->piece[CK_WHITE]);
}

/*
 * Pieces of side s (the mover) that can jump now.  Inlined with a constant s,
 * the directions and shifts become constants.
 */
static pg_attribute_always_inline uint64
jumpers(const Checkers *c, int s)
{
	uint64		own = c->piece[s];
	uint64		opp = c->piece[s ^ 1];
	uint64		empty = empty_squares(c);
	uint64		found = 0;

	for (int d = 0; d < 4; d++)
	{
		uint64		movers = (man_dirs[s] >> d & 1) ? own : own & c->king;

		found |= movers & shift(opp, -offset[d]) & shift(empty, -2 * offset[d]);
	}
	return found;
}

static void
too_many_moves(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			 errmsg("checkers position has more than %d legal moves", MAX_MOVES)));
}

/*
 * Completes the jump paths of the piece at bit at, which has made njumps
 * jumps coded in prefix.  opp holds the pieces not yet captured; empty has
 * the origin square empty, since a king may come back to it.  Appends the
 * moves to moves[n..] (or only counts them when moves is NULL) and returns
 * the new count.
 */
static int
jump_paths(int s, int at, bool king, uint64 opp, uint64 empty, GameMove prefix,
		   int njumps, GameMove *moves, int n)
{
	int			dirs = king ? 0xF : man_dirs[s];
	bool		extended = false;

	for (int d = 0; d < 4; d++)
	{
		int			over = at + offset[d];
		int			land = at + 2 * offset[d];
		GameMove	code;

		if (!(dirs >> d & 1) || land < 0 ||
			!(opp >> over & 1) || !(empty >> land & 1))
			continue;
		extended = true;
		code = prefix | (GameMove) d << MOVE_DIR_SHIFT(njumps);
		/* A man that reaches the far row is crowned and his move ends. */
		if (!king && (crown_row[s] >> land & 1))
		{
			if (moves != NULL)
			{
				if (n >= MAX_MOVES)
					too_many_moves();
				moves[n] = code | (njumps + 1);
			}
			n++;
		}
		else
			n = jump_paths(s, land, king, opp & ~(UINT64CONST(1) << over), empty,
						   code, njumps + 1, moves, n);
	}
	if (!extended && njumps > 0)
	{
		if (moves != NULL)
		{
			if (n >= MAX_MOVES)
				too_many_moves();
			moves[n] = prefix | njumps;
		}
		n++;
	}
	return n;
}

/*
 * The number of jump paths of side s, whose pieces in jump can jump.  A man's
 * further jumps go forward, away from the squares his first jump emptied,
 * so the board before the move tells whether he can go on; only then (and
 * for kings) are his paths walked.
 */
static pg_attribute_always_inline int
count_jumps(const Checkers *c, int s, uint64 jump)
{
	uint64		opp = c->piece[s ^ 1];
	uint64		empty = empty_squares(c);
	uint64		men = jump & ~c->king;
	uint64		kings = jump & c->king;
	uint64		goes_on = 0;
	int			n = 0;

	for (int d = 0; d < 4; d++)
		if (man_dirs[s] >> d & 1)
			goes_on |= shift(opp, -offset[d]) & shift(empty, -2 * offset[d]);
	goes_on &= ~crown_row[s];
	for (int d = 0; d < 4; d++)
	{
		uint64		land,
					more;

		if (!(man_dirs[s] >> d & 1))
			continue;
		land = shift(men & shift(opp, -offset[d]) & shift(empty, -2 * offset[d]), 2 * offset[d]);
		more = land & goes_on;
		n += gt_popcount64(land & ~more);
		while (more)
		{
			int			at = first_bit(more);

			more &= more - 1;
			n += jump_paths(s, at, false, opp & ~(UINT64CONST(1) << (at - offset[d])),
							empty | UINT64CONST(1) << (at - 2 * offset[d]), 0, 1, NULL, 0);
		}
	}
	while (kings)
	{
		int			from = first_bit(kings);

		kings &= kings - 1;
		n += jump_paths(s, from, true, opp, empty | UINT64CONST(1) << from, 0, 0, NULL, 0);
	}
	return n;
}

/*
 * The legal moves of side s, the mover, ignoring the draw rule, in generation
 * order; with moves NULL only their number (steps are then counted, not
 * listed).
 */
static pg_attribute_always_inline int
generate_side(const Checkers *c, int s, GameMove *moves)
{
	uint64		own = c->piece[s];
	uint64		empty = empty_squares(c);
	uint64		jump = jumpers(c, s);
	int			n = 0;

	if (jump && moves == NULL)
		return count_jumps(c, s, jump);
	if (jump)
	{
		while (jump)
		{
			int			from = first_bit(jump);
			uint64		from_bit = UINT64CONST(1) << from;

			jump &= jump - 1;
			n = jump_paths(s, from, (c->king & from_bit) != 0, c->piece[s ^ 1],
						   empty | from_bit,
						   (GameMove) SQUARE_OF(from) << MOVE_FROM_SHIFT, 0, moves, n);
		}
		return n;
	}
	for (int d = 0; d < 4; d++)
	{
		uint64		movers = (man_dirs[s] >> d & 1) ? own : own & c->king;
		uint64		targets = shift(movers, offset[d]) & empty;

		if (moves == NULL)
		{
			n += gt_popcount64(targets);
			continue;
		}
		while (targets)
		{
			int			to = first_bit(targets);

			targets &= targets - 1;
			moves[n++] = (GameMove) SQUARE_OF(to - offset[d]) << MOVE_FROM_SHIFT |
				(GameMove) d << MOVE_DIR_SHIFT(0);
		}
	}
	return n;
}

/* generate_side, compiled once per side */
static int
generate(const Checkers *c, GameMove *moves)
{
	return c->mover == CK_BLACK ? generate_side(c, CK_BLACK, moves) : generate_side(c, CK_WHITE, moves);
}

/* The number of legal moves, the draw rule aside; inline in perft's last ply. */
static inline int
count_moves(const Checkers *c)
{
	return c->mover == CK_BLACK ? generate_side(c, CK_BLACK, NULL) : generate_side(c, CK_WHITE, NULL);
}

/* Whether the mover can move at all (the draw rule aside). */
bool
checkers_can_move(const Checkers *c)
{
	int			s = c->mover;
	uint64		empty = empty_squares(c);

	if (jumpers(c, s))
		return true;
	for (int d = 0; d < 4; d++)
	{
		uint64		movers = (man_dirs[s] >> d & 1) ? c->piece[s] : c->piece[s] & c->king;

		if (shift(movers, offset[d]) & empty)
			return true;
	}
	return false;
}

/*
 * The layout bits that move m visits, origin first, into path[]; returns
 * their number.  *captured gets the bits of the jumped pieces.
 */
static int
follow_move(GameMove m, int *path, uint64 *captured)
{
	int			njumps = m & MOVE_JUMPS_MASK;
	int			at = BIT((int) (m >> MOVE_FROM_SHIFT) & 31);

	path[0] = at;
	*captured = 0;
	if (njumps == 0)
	{
		path[1] = at + offset[m >> MOVE_DIR_SHIFT(0) & 3];
		return 2;
	}
	for (int i = 0; i < njumps; i++)
	{
		int			d = m >> MOVE_DIR_SHIFT(i) & 3;

		*captured |= UINT64CONST(1) << (at + offset[d]);
		at += 2 * offset[d];
		path[i + 1] = at;
	}
	return njumps + 1;
}

/* Makes move m; inline in perft's loop. */
static inline void
apply_move(Checkers *c, GameMove m)
{
	int			s = c->mover;
	int			path[MAX_PIECES + 1];
	uint64		captured;
	int			len = follow_move(m, path, &captured);
	uint64		from = UINT64CONST(1) << path[0];
	uint64		to = UINT64CONST(1) << path[len - 1];
	bool		was_king = (c->king & from) != 0;

	/* from and to coincide when a king jumps round in a circle */
	c->piece[s] = (c->piece[s] & ~from) | to;
	c->piece[s ^ 1] &= ~captured;
	c->king &= ~(from | captured);
	if (was_king || (to & crown_row[s]))
		c->king |= to;
	c->clock = (was_king && captured == 0) ? c->clock + 1 : 0;
	c->mover = s ^ 1;
}

/*
 * The entry points of the other files.  Perft calls the static functions
 * instead, so that the compiler may inline them into its loop (as it did
 * when perft shared a file with the vtable): an exported function of a
 * shared library may be interposed, so it is never inlined.
 */
int
checkers_generate(const Checkers *c, GameMove *moves)
{
	return generate(c, moves);
}

int
checkers_follow_move(GameMove m, int *path, uint64 *captured)
{
	return follow_move(m, path, captured);
}

void
checkers_do_move(Checkers *c, GameMove m)
{
	apply_move(c, m);
}

/*
 * Perft over the bitboards: moves are made in place on a copy, and the last
 * ply is counted without making its moves (steps by popcount).
 */
static int64
perft_rec(const Checkers *c, int depth, GameMove *moves, bool draw_rules)
{
	int64		leaves = 0;
	int			n;

	if (draw_rules && c->clock >= DRAW_PLIES)
		return 0;
	if (depth == 1)
		return count_moves(c);
	check_stack_depth();
	CHECK_FOR_INTERRUPTS();
	n = generate(c, moves);
	for (int i = 0; i < n; i++)
	{
		Checkers	child = *c;

		apply_move(&child, moves[i]);
		leaves += perft_rec(&child, depth - 1, moves + MAX_MOVES, draw_rules);
	}
	return leaves;
}

int64
checkers_perft(const Game *game, const GameState *state, int depth, bool draw_rules)
{
	if (depth == 0)
		return 1;
	return perft_rec(GT_STATE_AS(state, Checkers), depth,
					 palloc(depth * MAX_MOVES * sizeof(GameMove)), draw_rules);
}
