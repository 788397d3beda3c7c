/*
 * movegen.c: legal move generation without trying moves: the check mask
 * (capture the checker or block it) and the pin lines restrict each piece's
 * targets up front, so only king moves and en passant test for attacks.
 */
#include "postgres.h"

#include "chess.h"

static inline bool
attacked(const Position *pos, int s, Bitboard occ, Bitboard enemy)
{
	return (attackers_to(pos, s, occ) & enemy) != 0;
}

static inline Move *
emit(Move *list, int from, Bitboard targets)
{
	while (targets)
		*list++ = MOVE(from, pop_lsb(&targets), 0);
	return list;
}

/* Pawn moves to targets, each from to - delta; pinned pawns keep to their pin line. */
static inline Move *
emit_pawn_moves(Move *list, Bitboard targets, int delta, Bitboard pinned, int ksq)
{
	Bitboard	promotions = targets & (RANK_1 | RANK_8);

	targets &= ~(RANK_1 | RANK_8);
	while (targets)
	{
		int			to = pop_lsb(&targets);
		int			from = to - delta;

		if (unlikely(pinned & BB(from)) && !(chess_line[ksq][from] & BB(to)))
			continue;
		*list++ = MOVE(from, to, 0);
	}
	while (promotions)
	{
		int			to = pop_lsb(&promotions);
		int			from = to - delta;

		if ((pinned & BB(from)) && !(chess_line[ksq][from] & BB(to)))
			continue;
		*list++ = MOVE(from, to, QUEEN);
		*list++ = MOVE(from, to, ROOK);
		*list++ = MOVE(from, to, BISHOP);
		*list++ = MOVE(from, to, KNIGHT);
	}
	return list;
}

int
chess_generate(const Position *pos, Move *moves)
{
	int			us = pos->side;
	int			them = us ^ 1;
	Bitboard	own = pos->color[us];
	Bitboard	enemy = pos->color[them];
	Bitboard	occ = own | enemy;
	int			ksq = king_square(pos, us);
	Bitboard	checks = attackers_to(pos, ksq, occ) & enemy;
	Bitboard	target;
	Bitboard	pinned = 0;
	Bitboard	snipers;
	Bitboard	pawns = pieces(pos, us, PAWN);
	Bitboard	b;
	Move	   *list = moves;

	/* The king may not stay on a slider's ray, hence occupancy without it. */
	b = chess_king_attacks[ksq] & ~own;
	while (b)
	{
		int			to = pop_lsb(&b);

		if (!attacked(pos, to, occ ^ BB(ksq), enemy))
			*list++ = MOVE(ksq, to, 0);
	}
	if (checks & (checks - 1))
		return list - moves;	/* double check: only the king moves */
	target = checks ? chess_between[ksq][lsb(checks)] | checks : ~own;

	snipers = ((rook_attacks(ksq, 0) & (pos->type[ROOK] | pos->type[QUEEN])) |
			   (bishop_attacks(ksq, 0) & (pos->type[BISHOP] | pos->type[QUEEN]))) & enemy;
	while (snipers)
	{
		Bitboard	between = chess_between[ksq][pop_lsb(&snipers)] & occ;

		if (between && !(between & (between - 1)) && (between & own))
			pinned |= between;
	}

	if (us == WHITE)
	{
		Bitboard	single = (pawns << 8) & ~occ;

		list = emit_pawn_moves(list, single & target, 8, pinned, ksq);
		list = emit_pawn_moves(list, ((single & RANK_3) << 8) & ~occ & target, 16, pinned, ksq);
		list = emit_pawn_moves(list, ((pawns & ~FILE_A) << 7) & enemy & target, 7, pinned, ksq);
		list = emit_pawn_moves(list, ((pawns & ~FILE_H) << 9) & enemy & target, 9, pinned, ksq);
	}
	else
	{
		Bitboard	single = (pawns >> 8) & ~occ;

		list = emit_pawn_moves(list, single & target, -8, pinned, ksq);
		list = emit_pawn_moves(list, ((single & RANK_6) >> 8) & ~occ & target, -16, pinned, ksq);
		list = emit_pawn_moves(list, ((pawns & ~FILE_A) >> 9) & enemy & target, -9, pinned, ksq);
		list = emit_pawn_moves(list, ((pawns & ~FILE_H) >> 7) & enemy & target, -7, pinned, ksq);
	}
	if (pos->ep != NO_SQUARE)
	{
		/* Rare: test the king's safety with both pawns gone. */
		int			victim = us == WHITE ? pos->ep - 8 : pos->ep + 8;

		b = chess_pawn_attacks[them][pos->ep] & pawns;
		while (b)
		{
			int			from = pop_lsb(&b);
			Bitboard	after = (occ ^ BB(from) ^ BB(victim)) | BB(pos->ep);

			if (!(attackers_to(pos, ksq, after) & enemy & ~BB(victim)))
				*list++ = MOVE(from, pos->ep, 0);
		}
	}

	/* A pinned knight never stays on its pin line. */
	b = pieces(pos, us, KNIGHT) & ~pinned;
	while (b)
	{
		int			from = pop_lsb(&b);

		list = emit(list, from, chess_knight_attacks[from] & target);
	}
	b = own & (pos->type[BISHOP] | pos->type[QUEEN]);
	while (b)
	{
		int			from = pop_lsb(&b);
		Bitboard	to = bishop_attacks(from, occ) & target;

		if (pinned & BB(from))
			to &= chess_line[ksq][from];
		list = emit(list, from, to);
	}
	b = own & (pos->type[ROOK] | pos->type[QUEEN]);
	while (b)
	{
		int			from = pop_lsb(&b);
		Bitboard	to = rook_attacks(from, occ) & target;

		if (pinned & BB(from))
			to &= chess_line[ksq][from];
		list = emit(list, from, to);
	}

	if (!checks && (pos->castling & (us == WHITE ? WHITE_OO | WHITE_OOO : BLACK_OO | BLACK_OOO)))
	{
		int			base = us == WHITE ? 0 : 56;
		int			oo = us == WHITE ? WHITE_OO : BLACK_OO;
		int			ooo = us == WHITE ? WHITE_OOO : BLACK_OOO;

		/* The king's path is empty and not attacked; the rook's may be. */
		if ((pos->castling & oo) && !(occ & (BB(base + 5) | BB(base + 6))) &&
			!attacked(pos, base + 5, occ, enemy) && !attacked(pos, base + 6, occ, enemy))
			*list++ = MOVE(base + 4, base + 6, 0);
		if ((pos->castling & ooo) && !(occ & (BB(base + 1) | BB(base + 2) | BB(base + 3))) &&
			!attacked(pos, base + 3, occ, enemy) && !attacked(pos, base + 2, occ, enemy))
			*list++ = MOVE(base + 4, base + 2, 0);
	}
	return list - moves;
}
