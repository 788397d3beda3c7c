/*
 * mcts.h: the tree of Monte Carlo tree search (mcts.c), kept after the
 * search so that a stored tree can take what it learned (store/searchtree.c).
 */
#ifndef GAMETREE_MCTS_H
#define GAMETREE_MCTS_H

#include "search/search.h"

typedef struct MctsNode
{
	GameMove	move;			/* the joint move from the parent */
	int32		parent;			/* -1 at the root */
	int32		first_child;	/* -1: not expanded; children are contiguous */
	int32		nchildren;
	int32		actions;		/* simultaneous moves: index in MctsTree.actions, else -1 */
	int64		visits;
	int8		mover;			/* role in control, GT_NO_ROLE: simultaneous or terminal */
	bool		terminal;
	bool		proven;			/* its value is the game's: MctsTree.proven holds it */
} MctsNode;

typedef struct MctsTree
{
	MemoryContext cxt;			/* the search's: holds the tree, search_mcts_free deletes it */
	const Game *game;
	int			nroles;
	int32		nnodes;
	MctsNode   *nodes;			/* node 0 is the root */
	double	   *total;			/* nroles per node: sums of the results through it */
	double	   *proven;			/* nroles per node: the proven goals, where proven */
	int32	   *actions;		/* per child of a simultaneous node and role: the role's action */
} MctsTree;

#define MCTS_TOTAL(tree, node) (&(tree)->total[(int64) (node) * (tree)->nroles])
#define MCTS_PROVEN(tree, node) (&(tree)->proven[(int64) (node) * (tree)->nroles])

/*
 * UCT with per-role goal vectors, decoupled at simultaneous-move states, and
 * proven values carried upward (MCTS-solver).  Runs until the deadline, or
 * for limits->max_depth rounds of MCTS_ROUND iterations, or until the root
 * is proven.  All it holds stays within limits->memory.  Returns the tree,
 * in a child of the caller's context that search_mcts_free deletes; the
 * result is in the caller's context.
 */
#define MCTS_ROUND 1000
extern MctsTree *search_mcts(const Game *game, const GameState *root, const SearchLimits *limits,
							 SearchResult *result);
extern void search_mcts_free(MctsTree *tree);

#endif
