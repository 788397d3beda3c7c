/*
 * network_store.h: a compiled network as bytes, and back.
 *
 * load_game stores a game's network beside its description, so that a new
 * backend reads it instead of grounding the rules again (chineseCheckers6:
 * a second of grounding, against a read of the stored bytes).  The bytes
 * are those of this build: the layout of the counts and arrays, native byte
 * order, a format number bumped whenever the compiler makes other
 * networks.  Bytes of another format (or byte order: a dump restored on
 * another machine) are set aside and the game is compiled
 * from its text; bytes that do not make a well-formed network (every index
 * in range, the steps in dependency order, so that propagation ends) are
 * refused the same way, as damaged.
 */
#ifndef GAMETREE_GDL_NETWORK_STORE_H
#define GAMETREE_GDL_NETWORK_STORE_H

#include "gdl/propnet.h"

/* What network_store_read made of the bytes. */
typedef enum StoredNetwork
{
	STORED_NETWORK_READ,
	STORED_NETWORK_OTHER_FORMAT,	/* written by a build with another format */
	STORED_NETWORK_DAMAGED
} StoredNetwork;

/*
 * The bytes of net (a network, not the prover), whose facts and actions are
 * terms of terms, and of the roles' names.
 */
extern bytea *network_store_write(const Propnet *net, const TermStore *terms,
								  const char *const *roles, int nroles);

/*
 * Reads the bytes into *net, its terms into terms and the roles' names
 * into *roles, *nroles, all in the current memory context; anything but
 * STORED_NETWORK_READ sets *why.  A fact or action whose text is not KIF is
 * reported as kif_parse_term does (22P02).
 */
extern StoredNetwork network_store_read(const bytea *bytes, TermStore *terms, Propnet **net,
										char ***roles, int *nroles, const char **why);

#endif
