/* The compiled replay: is a solution the search found legal, move by move, under the
 * rules, and does it end with every card home?
 *
 * It checks each move by the rule the list of legal moves is made by (core.h's
 * eo_legal; eo_legal_moves lists the moves it allows, the same set as
 * Position.legal_moves: tests/unit/test_core_differential.py holds the list to the
 * engine and the rule to the list), not by the search's generators, so a bug in the
 * search (its macro moves, its
 * pruning, its incremental bookkeeping) cannot pass it.  It costs microseconds where
 * a replay through the Python engine costs about a millisecond, so every solution the
 * core returns is checked before it leaves the core.
 */
#ifndef EIGHTOFF_REPLAY_H
#define EIGHTOFF_REPLAY_H

#include "core.h"

#define EO_REPLAY_OK (-1)

/* ----- what an output needs of each move (solve_range's keep_moves) -------------------
 * A move packed in 64 bits: its source, its target resolved (a move home names the
 * foundation it went to: 32 + f), its count, the card that moves (the bottom card of a
 * group), the group's top card (0 for one card) and, at bit EO_KEY_FREE, whether it is
 * free in player moves (a card home that safe auto-move or auto-complete sends: the
 * output marks it instead of numbering it). */
#define EO_KEY_FREE 40
static inline uint64_t eo_move_key(int src, int dst, int n, int card, int top, int free) {
    return (uint64_t)src | (uint64_t)dst << 8 | (uint64_t)n << 16 | (uint64_t)card << 24 |
           (uint64_t)top << 32 | (uint64_t)(free != 0) << EO_KEY_FREE;
}

/* ----- the two move counts of a solution (eightoff.counts) ---------------------------
 * Player moves: every move but a card sent home that may safely go home
 * (Position.is_safe_home: eo_engine_safe) or once the win is certain
 * (Position.win_is_certain); counts.is_free.  Single-card moves: 1 for a card, and for a
 * group of n the cost counts.group_cost gives with the room counts._room names: the
 * empty cells, and where any card fills an empty column the empty columns but the
 * target.  The costs are not worked out here: the table is counts.group_cost's own,
 * filled in by eightoff.solver at import (_core.set_group_costs).
 * tests/unit/test_solve_output.py holds both counts to eightoff.counts. */
#define EO_COST_RUN 13 /* the longest run: King to Ace */
#ifdef EO_FIXED_RULES /* one table for every copy of the replay (fixed.h) */
extern int16_t eo_group_costs[EO_COST_RUN + 1][EO_MAXCELLS + 1][EO_MAXCOLS + 1];
#else
int16_t eo_group_costs[EO_COST_RUN + 1][EO_MAXCELLS + 1][EO_MAXCOLS + 1]; /* 0: none */
#endif

/* The single-card moves of move m made in s (0: a group the table cannot carry). */
static inline int eo_single_cost(const eo_rules *r, const eo_state *s, const eo_move *m) {
    if (m->n == 1) return 1;
    int cols = 0;
    if (!r->kings_only)
        cols = s->free_cols - (m->dst < EO_CELL && s->len[m->dst] == 0 ? 1 : 0);
    if (m->n > EO_COST_RUN || s->free_cells > EO_MAXCELLS || cols < 0 || cols > EO_MAXCOLS)
        return 0;
    return eo_group_costs[m->n][s->free_cells][cols];
}

/* ----- the replay ---------------------------------------------------------------
 * A move home names HOME (48), as every move the core makes does: a named foundation as
 * a target (the engine's notation h1..h8) is refused.
 *
 * EO_REPLAY_OK when every move of path is legal in turn from start and the last one
 * leaves every card home; else the index of the first illegal move (plen when every
 * move is legal but cards are left).  With counts (not NULL) the same pass describes the
 * solution it accepts: each move's key into keys (unless NULL; keys need counts), and
 * its player moves and single-card moves into counts[0] and counts[1]; EO_COST_MISSING
 * instead of EO_REPLAY_OK when a group's single-card cost is missing from the table (a
 * bug: the move generator offers no group the room cannot carry).  Keys and counts are
 * only meant where it returns EO_REPLAY_OK.  One pass, where a replay and then a second
 * walk for the description took about 3.5% of a FreeCell survey's CPU. */
#define EO_COST_MISSING (-2)
static int eo_replay_described(const eo_rules *r, const eo_state *start, const eo_move *path,
                               int plen, uint64_t *keys, int *counts) {
    eo_state s = *start;
    int player = 0, single = 0, missing = 0;
    for (int i = 0; i < plen; i++) {
        eo_move m = eo_mv(path[i].src, path[i].dst, path[i].n);
        if (!eo_legal(r, &s, m)) return i;
        int card = 0, top = 0, free = 0;
        if (counts) { /* what the move is, before it is made */
            if (m.src < EO_CELL) {
                int L = s.len[m.src];
                card = s.col[m.src][L - m.n];
                if (m.n > 1) top = s.col[m.src][L - 1];
            } else if (m.src < EO_FOUND) {
                card = s.cell[m.src - EO_CELL];
            } else {
                int f = m.src - EO_FOUND;
                card = s.found[f] << 2 | (f & 3);
            }
            int cost = eo_single_cost(r, &s, &m);
            if (!cost) missing = 1;
            single += cost;
            free = m.dst == EO_HOME && m.src < EO_FOUND &&
                   (eo_engine_safe(r, &s, card) || eo_win_certain(r, &s));
            player += !free;
        }
        eo_apply(r, &s, &m); /* sets m.f, the foundation a move home went to */
        if (counts && keys)
            keys[i] = eo_move_key(m.src, m.dst == EO_HOME ? EO_FOUND + m.f : m.dst, m.n, card,
                                  top, free);
    }
    if (s.home != r->total) return plen;
    if (counts) {
        counts[0] = player;
        counts[1] = single;
    }
    return missing ? EO_COST_MISSING : EO_REPLAY_OK;
}

#endif
