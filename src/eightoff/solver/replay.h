/* The compiled replay: is a solution the search found legal, move by move, under the
 * rules engine's own move list, and does it end with every card home?
 *
 * It checks each move against the legal moves from its source (eo_legal_from, the code
 * of eo_legal_moves, whose moves are the same set as Position.legal_moves:
 * tests/unit/test_core_differential.py holds the two together),
 * not against the search's generators, so a bug in the search (its macro moves, its
 * pruning, its incremental bookkeeping) cannot pass it.  It costs microseconds where
 * a replay through the Python engine costs about a millisecond, so every solution the
 * core returns is checked before it leaves the core.
 */
#ifndef EIGHTOFF_REPLAY_H
#define EIGHTOFF_REPLAY_H

#include "core.h"

#define EO_REPLAY_OK (-1)
#define EO_LEGAL_CAP 256 /* room for every legal move from one place */

/* A move home names HOME (48), as every move the core makes does: a named foundation as
 * a target (the engine's notation h1..h8) is refused.
 *
 * EO_REPLAY_OK when every move of path is legal in turn from start and the last one
 * leaves every card home; else the index of the first illegal move (plen when every
 * move is legal but cards are left). */
static int eo_replay(const eo_rules *r, const eo_state *start, const eo_move *path, int plen) {
    eo_state s = *start;
    eo_move legal[EO_LEGAL_CAP];
    for (int i = 0; i < plen; i++) {
        int k = eo_legal_from(r, &s, path[i].src, legal), found = -1;
        for (int j = 0; j < k; j++)
            if (legal[j].src == path[i].src && legal[j].dst == path[i].dst &&
                legal[j].n == path[i].n) {
                found = j;
                break;
            }
        if (found < 0) return i;
        eo_move m = legal[found];
        eo_apply(r, &s, &m);
    }
    return s.home == r->total ? EO_REPLAY_OK : plen;
}

/* ----- what an output needs of each move (solve_range's keep_moves) -------------------
 * A move packed in 64 bits: its source, its target resolved (a move home names the
 * foundation it went to: 32 + f), its count, the card that moves (the bottom card of a
 * group) and the group's top card (0 for one card). */
static inline uint64_t eo_move_key(int src, int dst, int n, int card, int top) {
    return (uint64_t)src | (uint64_t)dst << 8 | (uint64_t)n << 16 | (uint64_t)card << 24 |
           (uint64_t)top << 32;
}

/* The keys of a solution eo_replay accepted, played from start (not checked again). */
static void eo_move_keys(const eo_rules *r, const eo_state *start, const eo_move *path,
                         int plen, uint64_t *keys) {
    eo_state s = *start;
    for (int i = 0; i < plen; i++) {
        eo_move m = path[i];
        int card, top = 0;
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
        eo_apply(r, &s, &m);
        keys[i] = eo_move_key(m.src, m.dst == EO_HOME ? EO_FOUND + m.f : m.dst, m.n, card, top);
    }
}

#endif
