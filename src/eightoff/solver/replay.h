/* The compiled replay: is each move of a solution legal where it is played, and does it
 * end with every card home?  A survey records "solved" only once this replay has
 * checked the solution.  eo_is_legal is held to eo_legal_moves (itself held to the
 * Python engine, Position.legal_moves) by tests/unit/test_deals_compiled.py: over
 * positions along real games, every (source, target, count) is legal here exactly when
 * eo_legal_moves lists it.
 *
 * Plain C99, included by _core.pyx after core.h.
 */
#ifndef EIGHTOFF_REPLAY_H
#define EIGHTOFF_REPLAY_H

#include "core.h"

/* May move m be played from s (the same set as eo_legal_moves)? */
static int eo_is_legal(const eo_rules *r, const eo_state *s, const eo_move *m) {
    int src = m->src, dst = m->dst, n = m->n, card;
    if (n < 1) return 0;
    if (src < EO_CELL) {
        if (src >= r->ncols) return 0;
        int L = s->len[src];
        if (!L) return 0;
        const uint8_t *col = s->col[src];
        if (dst == EO_HOME) return n == 1 && eo_foundation_for(r, s, col[L - 1]) >= 0;
        if (dst >= EO_CELL) return n == 1 && dst < EO_CELL + r->ncells && !s->cell[dst - EO_CELL];
        if (dst >= r->ncols || dst == src) return 0;
        int T = s->len[dst];
        int lim = eo_limit(r, s, T == 0), run = eo_run(r, s, src);
        if (n > run || n > lim) return 0;
        card = col[L - n];
        if (T) return eo_stacks(r, card, s->col[dst][T - 1]);
        return !r->kings_only || eo_rank(card) == EO_KING;
    }
    if (n != 1) return 0;
    if (src < EO_FOUND) {
        if (src >= EO_CELL + r->ncells) return 0;
        card = s->cell[src - EO_CELL];
        if (!card) return 0;
        if (dst == EO_HOME) return eo_foundation_for(r, s, card) >= 0;
    } else {
        int f = src - EO_FOUND;
        if (!r->retrieval || f >= r->nfound || !s->found[f]) return 0;
        card = s->found[f] << 2 | (f & 3);
    }
    if (dst >= EO_CELL) return dst < EO_CELL + r->ncells && !s->cell[dst - EO_CELL];
    if (dst >= r->ncols) return 0;
    int T = s->len[dst];
    if (T) return eo_stacks(r, card, s->col[dst][T - 1]);
    return !r->kings_only || eo_rank(card) == EO_KING;
}

/* What the output needs of a move, packed in 64 bits: its source, its target resolved
 * (a move home names the foundation it went to: 32 + f), its count, the card that moves
 * (the bottom card of a group) and the group's top card (0 for one card). */
static inline uint64_t eo_move_key(int src, int dst, int n, int card, int top) {
    return (uint64_t)src | (uint64_t)dst << 8 | (uint64_t)n << 16 | (uint64_t)card << 24 |
           (uint64_t)top << 32;
}

/* Replay n moves from s (s is changed).  Returns 1 when every move was legal and every
 * card ends home, 0 otherwise; *bad gets the index of the first illegal move (n when
 * all were legal).  keys, when not NULL, receives each move's eo_move_key. */
static int eo_replay(const eo_rules *r, eo_state *s, const eo_move *moves, int n, int *bad,
                     uint64_t *keys) {
    for (int i = 0; i < n; i++) {
        eo_move m = moves[i];
        if (!eo_is_legal(r, s, &m)) {
            *bad = i;
            return 0;
        }
        if (keys) {
            int card, top = 0;
            if (m.src < EO_CELL) {
                int L = s->len[m.src];
                card = s->col[m.src][L - m.n];
                if (m.n > 1) top = s->col[m.src][L - 1];
            } else if (m.src < EO_FOUND) {
                card = s->cell[m.src - EO_CELL];
            } else {
                int f = m.src - EO_FOUND;
                card = s->found[f] << 2 | (f & 3);
            }
            eo_apply(r, s, &m);
            keys[i] = eo_move_key(m.src, m.dst == EO_HOME ? EO_FOUND + m.f : m.dst, m.n, card,
                                  top);
        } else {
            eo_apply(r, s, &m);
        }
    }
    *bad = n;
    return s->home == r->total;
}

#endif
