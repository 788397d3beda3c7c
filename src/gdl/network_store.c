/*
 * network_store.c: a compiled network as bytes, and back (network_store.h).
 *
 * The bytes: a magic number, the format, the counts, then each array of
 * the network in turn (int32 each, the initial facts one byte each), then
 * the roles' names and the facts' and actions' KIF text, each its length
 * and its bytes.  Terms go as text so that the reader builds its own term
 * store: term numbers are the store's business.
 */
#include "postgres.h"

#include "core/game.h"
#include "gdl/network_store.h"
#include "gdl/program.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "port/pg_bswap.h"

#define NETWORK_MAGIC 0x67746e74	/* "gtnt" */
/* Bumped when the bytes or the networks the compiler makes change. */
#define NETWORK_FORMAT 1

/* The counts, in the order written. */
enum
{
	COUNT_NODES,
	COUNT_BASE,
	COUNT_INPUTS,
	COUNT_ROLES,
	COUNT_RULES,
	COUNT_LITERALS,
	COUNT_GOALS,
	COUNT_ORDER,
	COUNT_GROUPS,
	COUNT_GROUP_NODES,
	COUNT_TERMINAL,
	NCOUNTS
};

static void
write_int32s(StringInfo out, const int32 *values, int n)
{
	appendBinaryStringInfo(out, (const char *) values, n * sizeof(int32));
}

static void
write_text(StringInfo out, const char *text)
{
	int32		len = strlen(text);

	write_int32s(out, &len, 1);
	appendBinaryStringInfo(out, text, len);
}

bytea *
network_store_write(const Propnet *net, const TermStore *terms, const char *const *roles, int nroles)
{
	StringInfoData out;
	int32		head[2] = {NETWORK_MAGIC, NETWORK_FORMAT};
	int32		counts[NCOUNTS];
	bytea	   *bytes;

	Assert(net->prover == NULL && nroles == net->nroles);
	counts[COUNT_NODES] = net->nnodes;
	counts[COUNT_BASE] = net->nbase;
	counts[COUNT_INPUTS] = net->ninputs;
	counts[COUNT_ROLES] = net->nroles;
	counts[COUNT_RULES] = net->nrules;
	counts[COUNT_LITERALS] = net->literal_start[net->nrules];
	counts[COUNT_GOALS] = net->ngoals;
	counts[COUNT_ORDER] = net->norder;
	counts[COUNT_GROUPS] = net->ngroups;
	counts[COUNT_GROUP_NODES] = net->group_start[net->ngroups];
	counts[COUNT_TERMINAL] = net->terminal;

	initStringInfo(&out);
	/* room for the varlena header, filled in at the end */
	appendStringInfoSpaces(&out, VARHDRSZ);
	write_int32s(&out, head, 2);
	write_int32s(&out, counts, NCOUNTS);
	write_int32s(&out, net->role_inputs, net->nroles + 1);
	write_int32s(&out, net->rule_start, net->nnodes + 1);
	write_int32s(&out, net->literal_start, net->nrules + 1);
	write_int32s(&out, net->literals, counts[COUNT_LITERALS]);
	write_int32s(&out, net->input_legal, net->ninputs);
	write_int32s(&out, net->base_next, net->nbase);
	for (int i = 0; i < net->ngoals; i++)
		write_int32s(&out, (int32[]) {net->goals[i].role, net->goals[i].value, net->goals[i].node}, 3);
	write_int32s(&out, net->order, net->norder);
	write_int32s(&out, net->group_start, net->ngroups + 1);
	write_int32s(&out, net->group_nodes, counts[COUNT_GROUP_NODES]);
	for (int i = 0; i < net->nbase; i++)
		appendStringInfoChar(&out, net->initial[i] ? 1 : 0);
	for (int i = 0; i < nroles; i++)
		write_text(&out, roles[i]);
	for (int i = 0; i < net->nbase; i++)
	{
		CHECK_FOR_INTERRUPTS();
		write_text(&out, term_text(terms, net->base_terms[i]));
	}
	for (int i = 0; i < net->ninputs; i++)
		write_text(&out, term_text(terms, net->input_terms[i]));
	bytes = (bytea *) out.data;
	SET_VARSIZE(bytes, out.len);
	return bytes;
}

/* Where reading is in the bytes. */
typedef struct Reader
{
	const char *at;
	Size		left;
} Reader;

/* n int32 values copied out, or NULL when the bytes end first. */
static int32 *
read_int32s(Reader *in, int64 n)
{
	int32	   *values;

	if (n < 0 || (Size) n > in->left / sizeof(int32))
		return NULL;
	values = palloc_extended(Max(1, n) * sizeof(int32), MCXT_ALLOC_HUGE);
	memcpy(values, in->at, n * sizeof(int32));
	in->at += n * sizeof(int32);
	in->left -= n * sizeof(int32);
	return values;
}

/* A text read out (NUL-terminated), or NULL when the bytes end first. */
static char *
read_text(Reader *in)
{
	int32	   *len = read_int32s(in, 1);
	char	   *text;

	if (len == NULL || *len < 0 || (Size) *len > in->left)
		return NULL;
	text = pnstrdup(in->at, *len);
	in->at += *len;
	in->left -= *len;
	pfree(len);
	return text;
}

/* Whether values[0..n] start at 0, never fall and end at last. */
static bool
starts_valid(const int32 *values, int n, int32 last)
{
	if (values[0] != 0 || values[n] != last)
		return false;
	for (int i = 0; i < n; i++)
		if (values[i] > values[i + 1])
			return false;
	return true;
}

/* Whether every value is a node or -1 (none). */
static bool
nodes_or_none(const int32 *values, int n, int nnodes)
{
	for (int i = 0; i < n; i++)
		if (values[i] < -1 || values[i] >= nnodes)
			return false;
	return true;
}

/*
 * The checks that the evaluation relies on: every index in range, every
 * derived node computed by exactly one step, and each step reading only
 * facts, actions, earlier steps and (positively) its own cycle group, so
 * that propagating a change ends.  NULL when net passes, else what failed.
 */
static const char *
check_network(const Propnet *net)
{
	int			first_derived = net->nbase + net->ninputs;
	int32	   *step_of = palloc_extended(Max(1, net->nnodes) * sizeof(int32), MCXT_ALLOC_HUGE);
	int32	   *group_of = palloc_extended(Max(1, net->nnodes) * sizeof(int32), MCXT_ALLOC_HUGE);

	if (net->nroles < 1 || net->nroles > GT_MAX_ROLES || first_derived > net->nnodes ||
		!starts_valid(net->role_inputs, net->nroles, net->ninputs))
		return "its roles' actions";
	if (!starts_valid(net->rule_start, net->nnodes, net->nrules) ||
		net->rule_start[first_derived] != 0 ||
		!starts_valid(net->literal_start, net->nrules, net->literal_start[net->nrules]))
		return "its rules";
	for (int l = 0; l < net->literal_start[net->nrules]; l++)
		if (net->literals[l] < 0 || (net->literals[l] >> 1) >= net->nnodes)
			return "a literal";
	if (!nodes_or_none(net->input_legal, net->ninputs, net->nnodes) ||
		!nodes_or_none(net->base_next, net->nbase, net->nnodes) ||
		!nodes_or_none(&net->terminal, 1, net->nnodes))
		return "its legal, next or terminal nodes";
	for (int i = 0; i < net->ngoals; i++)
		if (net->goals[i].role < 0 || net->goals[i].role >= net->nroles ||
			net->goals[i].value < GT_GOAL_MIN || net->goals[i].value > GT_GOAL_MAX ||
			net->goals[i].node < 0 || net->goals[i].node >= net->nnodes)
			return "a goal";

	/* groups and steps: each derived node once */
	memset(group_of, 0xff, Max(1, net->nnodes) * sizeof(int32));
	memset(step_of, 0xff, Max(1, net->nnodes) * sizeof(int32));
	if (!starts_valid(net->group_start, net->ngroups, net->group_start[net->ngroups]))
		return "its cycle groups";
	for (int g = 0; g < net->ngroups; g++)
	{
		/* a step names its group by the group's first node */
		if (net->group_start[g] == net->group_start[g + 1])
			return "its cycle groups";
		for (int k = net->group_start[g]; k < net->group_start[g + 1]; k++)
		{
			int32		node = net->group_nodes[k];

			if (node < first_derived || node >= net->nnodes || group_of[node] >= 0)
				return "its cycle groups";
			group_of[node] = g;
		}
	}
	if (net->norder != net->nnodes - first_derived - net->group_start[net->ngroups] + net->ngroups)
		return "its steps";
	for (int s = 0; s < net->norder; s++)
	{
		int32		step = net->order[s];

		if (step >= 0 && (step < first_derived || step >= net->nnodes || group_of[step] >= 0 ||
						  step_of[step] >= 0))
			return "its steps";
		if (step < 0 && (step < -net->ngroups ||
						 step_of[net->group_nodes[net->group_start[-step - 1]]] >= 0))
			return "its steps";
		if (step >= 0)
			step_of[step] = s;
		else
			for (int k = net->group_start[-step - 1]; k < net->group_start[-step]; k++)
				step_of[net->group_nodes[k]] = s;
	}

	/* every literal reads what is known before its step, or its own group positively */
	for (int v = first_derived; v < net->nnodes; v++)
	{
		CHECK_FOR_INTERRUPTS();
		for (int l = net->literal_start[net->rule_start[v]]; l < net->literal_start[net->rule_start[v + 1]]; l++)
		{
			int32		node = net->literals[l] >> 1;
			bool		same_group = group_of[v] >= 0 && group_of[node] == group_of[v];

			if (node >= first_derived && step_of[node] >= step_of[v] &&
				!(same_group && (net->literals[l] & 1) == 0))
				return "the order of its steps";
		}
	}
	pfree(step_of);
	pfree(group_of);
	return NULL;
}

/* Parses each of n texts into terms (each once); false when one is there twice. */
static bool
read_terms(Reader *in, TermStore *terms, TermId *out, int n)
{
	for (int i = 0; i < n; i++)
	{
		char	   *text = read_text(in);

		CHECK_FOR_INTERRUPTS();
		if (text == NULL)
			return false;
		out[i] = kif_parse_term(terms, text);
		pfree(text);
	}
	return true;
}

/* Whether the n terms are distinct. */
static bool
distinct_terms(const TermStore *terms, const TermId *ids, int n)
{
	bool	   *seen = palloc0(Max(1, terms->nterms) * sizeof(bool));
	bool		distinct = true;

	for (int i = 0; i < n && distinct; i++)
	{
		distinct = !seen[ids[i]];
		seen[ids[i]] = true;
	}
	pfree(seen);
	return distinct;
}

StoredNetwork
network_store_read(const bytea *bytes, TermStore *terms, Propnet **result, char ***roles, int *nroles,
				   const char **why)
{
	Reader		in = {VARDATA_ANY(bytes), VARSIZE_ANY_EXHDR(bytes)};
	int32	   *head = read_int32s(&in, 2);
	int32	   *counts;
	int32	   *goals;
	Propnet    *net;

	if (head == NULL || (head[0] != NETWORK_MAGIC && head[0] != (int32) pg_bswap32(NETWORK_MAGIC)))
	{
		*why = "not a network";
		return STORED_NETWORK_DAMAGED;
	}
	/* a dump restored on a machine of the other byte order is another format */
	if (head[0] != NETWORK_MAGIC || head[1] != NETWORK_FORMAT)
	{
		*why = head[0] != NETWORK_MAGIC ? "another byte order" : "another format";
		return STORED_NETWORK_OTHER_FORMAT;
	}
	counts = read_int32s(&in, NCOUNTS);
	*why = "its bytes end early";
	if (counts == NULL)
		return STORED_NETWORK_DAMAGED;
	for (int c = 0; c < NCOUNTS; c++)
		if (counts[c] < (c == COUNT_TERMINAL ? -1 : 0) || counts[c] >= INT32_MAX / 4)
		{
			*why = "a count";
			return STORED_NETWORK_DAMAGED;
		}
	if (counts[COUNT_ROLES] < 1 || counts[COUNT_ROLES] > GT_MAX_ROLES)
	{
		*why = "its roles";
		return STORED_NETWORK_DAMAGED;
	}

	net = palloc0(sizeof(Propnet));
	net->nnodes = counts[COUNT_NODES];
	net->nbase = counts[COUNT_BASE];
	net->ninputs = counts[COUNT_INPUTS];
	net->nroles = counts[COUNT_ROLES];
	net->nrules = counts[COUNT_RULES];
	net->ngoals = counts[COUNT_GOALS];
	net->norder = counts[COUNT_ORDER];
	net->ngroups = counts[COUNT_GROUPS];
	net->terminal = counts[COUNT_TERMINAL];
	if ((net->role_inputs = read_int32s(&in, net->nroles + 1)) == NULL ||
		(net->rule_start = read_int32s(&in, (int64) net->nnodes + 1)) == NULL ||
		(net->literal_start = read_int32s(&in, (int64) net->nrules + 1)) == NULL ||
		(net->literals = read_int32s(&in, counts[COUNT_LITERALS])) == NULL ||
		(net->input_legal = read_int32s(&in, net->ninputs)) == NULL ||
		(net->base_next = read_int32s(&in, net->nbase)) == NULL ||
		(goals = read_int32s(&in, 3 * (int64) net->ngoals)) == NULL ||
		(net->order = read_int32s(&in, net->norder)) == NULL ||
		(net->group_start = read_int32s(&in, (int64) net->ngroups + 1)) == NULL ||
		(net->group_nodes = read_int32s(&in, counts[COUNT_GROUP_NODES])) == NULL ||
		in.left < (Size) net->nbase)
		return STORED_NETWORK_DAMAGED;
	net->goals = palloc(Max(1, net->ngoals) * sizeof(NetGoal));
	for (int i = 0; i < net->ngoals; i++)
	{
		net->goals[i].role = goals[3 * i];
		net->goals[i].value = goals[3 * i + 1];
		net->goals[i].node = goals[3 * i + 2];
	}
	net->initial = palloc(Max(1, net->nbase) * sizeof(bool));
	for (int i = 0; i < net->nbase; i++)
		net->initial[i] = in.at[i] != 0;
	in.at += net->nbase;
	in.left -= net->nbase;
	if (net->literal_start[0] != 0 || net->literal_start[net->nrules] != counts[COUNT_LITERALS] ||
		net->group_start[0] != 0 || net->group_start[net->ngroups] != counts[COUNT_GROUP_NODES])
	{
		*why = "its rules";
		return STORED_NETWORK_DAMAGED;
	}
	if ((*why = check_network(net)) != NULL)
		return STORED_NETWORK_DAMAGED;

	*nroles = net->nroles;
	*roles = palloc(net->nroles * sizeof(char *));
	for (int i = 0; i < net->nroles; i++)
		if (((*roles)[i] = read_text(&in)) == NULL || !kif_is_symbol((*roles)[i], strlen((*roles)[i])))
		{
			*why = "a role's name";
			return STORED_NETWORK_DAMAGED;
		}
	net->base_terms = palloc(Max(1, net->nbase) * sizeof(TermId));
	net->input_terms = palloc(Max(1, net->ninputs) * sizeof(TermId));
	if (!read_terms(&in, terms, net->base_terms, net->nbase) ||
		!read_terms(&in, terms, net->input_terms, net->ninputs) || in.left != 0)
	{
		*why = "its facts and actions";
		return STORED_NETWORK_DAMAGED;
	}
	if (!distinct_terms(terms, net->base_terms, net->nbase))
	{
		*why = "a fact twice";
		return STORED_NETWORK_DAMAGED;
	}
	*result = net;
	*why = NULL;
	return STORED_NETWORK_READ;
}
