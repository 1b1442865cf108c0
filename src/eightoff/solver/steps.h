/* The search's steps: the safe auto-moves, the single moves the search tries, the
 * digging steps (clear the cards above a card, then send it home or move it onto a
 * parent), and making a step on a state.
 */
#ifndef EIGHTOFF_STEPS_H
#define EIGHTOFF_STEPS_H

#include "core.h"
#include "heuristic.h"

/* A search step that is not a single move: src = EO_MACRO + kind, dst = column,
 * n = depth of the card below the top, f = target column (or 255). */
#define EO_MACRO 64
#define EO_DIG_HOME 1   /* clear the cards above a card that can go home; send it home */
#define EO_DIG_PARENT 2 /* clear the cards above a card; move it (and its run) onto f */
#define EO_DIG_EMPTY 3  /* clear the cards above a King; move it (and its run) to f, empty */
#define EO_DIG_TARGET 4 /* clear the cards above a card; move onto it a card from f (a cell,
                           or a column's top run) */
#define EO_DIGS_ALL (1 << EO_DIG_HOME | 1 << EO_DIG_PARENT | 1 << EO_DIG_EMPTY | 1 << EO_DIG_TARGET)
#define EO_STEPMAX (EO_COLCAP + 8)
#ifndef EO_DIG_SLACK
#define EO_DIG_SLACK 0 /* dig at most this many cards more than there are empty cells */
#endif

/* One pack: the cards eo_safe allows now, as a bit mask by card code (one card a suit
 * at most: the next one its foundation takes). */
static inline uint64_t eo_safe_mask4(const eo_rules *r, const eo_state *s) {
    uint64_t m = 0;
    for (int f = 0; f < 4; f++) {
        int rank = s->found[f] + 1;
        if (rank > EO_KING) continue;
        uint64_t bit = (uint64_t)1 << (rank << 2 | f);
        if (rank == 1 || (r->safe_mode && (!r->alt || rank <= 2))) {
            m |= bit;
        } else if (r->safe_mode) {
            int opposite = (f & 2) ? 0 : 2;
            if (s->found[opposite] >= rank - 1 && s->found[opposite + 1] >= rank - 1) m |= bit;
        }
    }
    return m;
}

/* Send home every card the safe rule allows (cells first, then columns, as
 * Position.safe_auto_move does); return how many moves were made. */
static inline int eo_autos(const eo_rules *r, eo_state *s, eo_move *out) {
    int k = 0;
    if (r->nfound == 4) {
        /* the same moves in the same order as below, the safe cards, the cell cards and
         * the top cards kept as masks (one pack: a card is in one place), so that only a
         * move found is looked for place by place */
        uint64_t safe = eo_safe_mask4(r, s);
        if (!safe) return 0;
        uint64_t cells = eo_cell_bits(r, s) & ~(uint64_t)1, tops = eo_top_bits(r, s);
        for (;;) {
            uint64_t hit = safe & cells;
            eo_move m;
            if (hit) {
                int i = 0;
                while (!(hit >> s->cell[i] & 1)) i++;
                cells &= ~((uint64_t)1 << s->cell[i]);
                m = eo_mv(EO_CELL + i, EO_HOME, 1);
                eo_apply(r, s, &m);
            } else {
                hit = safe & tops;
                if (!hit) return k;
                int c = 0;
                while (!(s->len[c] && (hit >> s->col[c][s->len[c] - 1] & 1))) c++;
                tops &= ~((uint64_t)1 << s->col[c][s->len[c] - 1]);
                m = eo_mv(c, EO_HOME, 1);
                eo_apply(r, s, &m);
                if (s->len[c]) tops |= (uint64_t)1 << s->col[c][s->len[c] - 1];
            }
            out[k++] = m;
            safe = eo_safe_mask4(r, s);
        }
    }
again:
    for (int i = 0; i < r->ncells; i++) {
        int card = s->cell[i];
        if (card && eo_safe(r, s, card)) {
            eo_move m = eo_mv(EO_CELL + i, EO_HOME, 1);
            eo_apply(r, s, &m);
            out[k++] = m;
            goto again;
        }
    }
    for (int c = 0; c < r->ncols; c++) {
        int L = s->len[c];
        if (L && eo_safe(r, s, s->col[c][L - 1])) {
            eo_move m = eo_mv(c, EO_HOME, 1);
            eo_apply(r, s, &m);
            out[k++] = m;
            goto again;
        }
    }
    return k;
}

/* Whether eo_autos can make a move after the moves of one step (none of them home,
 * from a position where eo_autos made none): only the cards those moves exposed or
 * moved can have become safe, unless a card went home. */
static inline int eo_autos_after(const eo_rules *r, eo_state *s, const eo_move *ms, int n) {
    for (int i = 0; i < n; i++) {
        const eo_move *m = &ms[i];
        if (m->dst >= EO_FOUND) return 1;
        int ends[2] = {m->src, m->dst};
        for (int e = 0; e < 2; e++) {
            int v = ends[e], card;
            if (v < EO_CELL)
                card = s->len[v] ? s->col[v][s->len[v] - 1] : 0;
            else if (v < EO_FOUND)
                card = s->cell[v - EO_CELL];
            else
                continue;
            if (card && eo_safe(r, s, card)) return 1;
        }
    }
    return 0;
}

/* The cards that a foundation takes now, as a bit mask by card code. */
static inline uint64_t eo_homeable_mask(const eo_rules *r, const eo_state *s) {
    uint64_t m = 0;
    if (r->nfound == 4) { /* (the common case, unrolled: a King's foundation takes no card) */
        m = (uint64_t)1 << ((s->found[0] + 1) << 2) | (uint64_t)1 << ((s->found[1] + 1) << 2 | 1) |
            (uint64_t)1 << ((s->found[2] + 1) << 2 | 2) | (uint64_t)1 << ((s->found[3] + 1) << 2 | 3);
        return m & EO_PACK_BITS;
    }
    for (int f = 0; f < r->nfound; f++)
        if (s->found[f] < EO_KING) m |= (uint64_t)1 << ((s->found[f] + 1) << 2 | (f & 3));
    return m;
}

/* The next free one of a card's two slots in a table of up to two places per card (one
 * per pack): first and second hold the cards with a first / second entry, so that the
 * table needs no clearing.  Returns 0 or 1, or -1 when both are taken. */
static inline int eo_slot2(uint64_t *first, uint64_t *second, int card) {
    uint64_t b = (uint64_t)1 << card;
    if (!(*first & b)) {
        *first |= b;
        return 0;
    }
    if (!(*second & b)) {
        *second |= b;
        return 1;
    }
    return -1;
}

static inline int eo_first_empty_cell(const eo_rules *r, const eo_state *s) {
    for (int i = 0; i < r->ncells; i++)
        if (!s->cell[i]) return i;
    return -1;
}

static inline int eo_first_empty_col(const eo_rules *r, const eo_state *s, int avoid) {
    for (int c = 0; c < r->ncols; c++)
        if (!s->len[c] && c != avoid) return c;
    return -1;
}

/* The cards that can lie on `card` (children) or that it can lie on (parents) by the
 * build rule: up to two codes. */
static inline int eo_related(const eo_rules *r, int card, int delta, int *out) {
    int rank = (card >> 2) + delta;
    if (rank < 1 || rank > EO_KING) return 0;
    if (!r->alt) {
        out[0] = rank << 2 | (card & 3);
        return 1;
    }
    int base = (card & 2) ? 0 : 2; /* the other colour's suits */
    out[0] = rank << 2 | base;
    out[1] = rank << 2 | (base + 1);
    return 2;
}

/* The cards of mask m one rank lower (delta -1) or higher (+1), of the colour a card on
 * them or under them must have by the build rule: every card eo_related gives for a card
 * of m, as a mask (so that a generator can see at once that no card it looks for is
 * there). */
static inline uint64_t eo_related_bits(const eo_rules *r, uint64_t m, int delta) {
    uint64_t x = (delta < 0 ? m >> 4 : m << 4) & EO_PACK_BITS;
    if (!r->alt) return x;
    /* a nibble per rank, a bit per suit; suits 0, 1 and suits 2, 3 are the two colours */
    const uint64_t one = 0x1111111111111111ULL;
    uint64_t first = x & 0x3333333333333333ULL, second = x & 0xCCCCCCCCCCCCCCCCULL;
    uint64_t any_first = (first | first >> 1) & one, any_second = (second >> 2 | second >> 3) & one;
    return any_first * 0xC | any_second * 0x3;
}

/* The bits of eo_search_moves_runs' `purposeful` (see eo_all_steps). */
#define EO_PURPOSEFUL 1     /* no move of a column card into a cell */
#define EO_WHOLE_TO_EMPTY 2 /* into an empty column only a column's whole top run (as much
                               of it as may move), not a single card */
#define EO_WHOLE_TO_PARENT 4 /* onto another column only a column's whole top run, and only
                                if all of it may move */
#define EO_EMPTY_NEEDS_CHILD 8 /* a cell card into an empty column only when a card that
                                  would lie on it is on top of a column or in a cell */

/* The single moves the search tries: every legal move except those that lead to a
 * state canonically equal to another move's (one empty cell and one empty column stand
 * for all, no cell-to-cell moves, no whole column into an empty column). */
/* runs[c]: each column's top run, given (known) or written here; purposeful: the
 * EO_PURPOSEFUL ... bits above, which leave moves out. */
static inline int eo_search_moves_runs(const eo_rules *r, const eo_state *s, eo_move *out,
                                       int *runs, int known, int purposeful) {
    int k = 0;
    int fec = eo_first_empty_cell(r, s), fcol = eo_first_empty_col(r, s, -1);
    int lim_full = eo_limit(r, s, 0), lim_empty = eo_limit(r, s, 1);
    /* where each card lies in a column's top run: column and depth (up to two copies;
     * in1/in2: the cards with a first/second entry, so nothing needs clearing), and
     * the columns whose top card each card is (top1/top2 likewise) */
    int8_t runcol[64][2], rundepth[64][2], topcol[64][2];
    uint64_t in1 = 0, in2 = 0, top1 = 0, top2 = 0;
    uint64_t homeable = eo_homeable_mask(r, s);
    for (int c = 0; c < r->ncols; c++) {
        int L = s->len[c];
        if (!known) runs[c] = eo_run(r, s, c);
        if (!L) continue;
        const uint8_t *col = s->col[c];
        int tc = col[L - 1];
        int q = eo_slot2(&top1, &top2, tc);
        if (q >= 0) topcol[tc][q] = (int8_t)c;
        if (homeable >> tc & 1) out[k++] = eo_mv(c, EO_HOME, 1);
        int run = runs[c];
        int top = run < lim_full ? run : lim_full;
        int n1 = 1;
        if (purposeful & EO_WHOLE_TO_PARENT) n1 = run <= lim_full ? run : lim_full + 1;
        for (int n = n1; n <= top; n++) {
            int card = col[L - n], q2 = eo_slot2(&in1, &in2, card);
            if (q2 >= 0) {
                runcol[card][q2] = (int8_t)c;
                rundepth[card][q2] = (int8_t)n;
            }
        }
        if (fcol >= 0) {
            int tope = run < lim_empty ? run : lim_empty;
            int n0 = 1;
            if (purposeful & EO_WHOLE_TO_EMPTY) n0 = tope > 1 ? tope : tope + 1; /* not one card */
            for (int n = n0; n <= tope; n++) {
                if (n == L) break;
                if (r->kings_only && eo_rank(col[L - n]) != EO_KING) continue;
                out[k++] = eo_mv(c, fcol, n);
            }
        }
        if (fec >= 0 && !(purposeful & EO_PURPOSEFUL)) out[k++] = eo_mv(c, EO_CELL + fec, 1);
    }
    int rel[2];
    uint64_t incells = 0; /* (EO_EMPTY_NEEDS_CHILD) the cell cards */
    if (purposeful & EO_EMPTY_NEEDS_CHILD) incells = eo_cell_bits(r, s) & ~(uint64_t)1;
    /* (most states have no movable run whose bottom card lies on another top card) */
    int onto_tops = (eo_related_bits(r, top1 | top2, -1) & in1) != 0;
    for (int t = 0; onto_tops && t < r->ncols; t++) {
        int T = s->len[t];
        if (!T) continue;
        int nc = eo_related(r, s->col[t][T - 1], -1, rel);
        for (int a = 0; a < nc; a++) {
            int card = rel[a];
            if (!(in1 >> card & 1)) continue;
            if (runcol[card][0] != t) out[k++] = eo_mv(runcol[card][0], t, rundepth[card][0]);
            if ((in2 >> card & 1) && runcol[card][1] != t)
                out[k++] = eo_mv(runcol[card][1], t, rundepth[card][1]);
        }
    }
    for (int pass = 0; pass < 2; pass++) {
        int nsrc = pass == 0 ? r->ncells : (r->retrieval ? r->nfound : 0);
        for (int i = 0; i < nsrc; i++) {
            int card, src;
            if (pass == 0) {
                card = s->cell[i];
                src = EO_CELL + i;
                if (!card) continue;
                if (homeable >> card & 1) out[k++] = eo_mv(src, EO_HOME, 1);
            } else {
                if (!s->found[i]) continue;
                card = s->found[i] << 2 | (i & 3);
                src = EO_FOUND + i;
                if (fec >= 0) out[k++] = eo_mv(src, EO_CELL + fec, 1);
            }
            /* the columns whose top card takes it, in column order: its parents'
             * columns (up to two parents, each on up to two columns) */
            int np = eo_related(r, card, 1, rel), cols[4], nt = 0;
            for (int a = 0; a < np; a++) {
                int pc = rel[a];
                if (top1 >> pc & 1) cols[nt++] = topcol[pc][0];
                if (top2 >> pc & 1) cols[nt++] = topcol[pc][1];
            }
            for (int x = 1; x < nt; x++) /* insertion sort, at most 4 */
                for (int y = x; y > 0 && cols[y - 1] > cols[y]; y--) {
                    int tmp = cols[y];
                    cols[y] = cols[y - 1];
                    cols[y - 1] = tmp;
                }
            for (int x = 0; x < nt; x++) out[k++] = eo_mv(src, cols[x], 1);
            if (fcol >= 0 && (!r->kings_only || eo_rank(card) == EO_KING)) {
                int takes = 1;
                if ((purposeful & EO_EMPTY_NEEDS_CHILD) && pass == 0) {
                    int nch = eo_related(r, card, -1, rel);
                    takes = 0;
                    for (int a = 0; a < nch; a++) takes |= (int)((top1 | incells) >> rel[a] & 1);
                }
                if (takes) out[k++] = eo_mv(src, fcol, 1);
            }
        }
    }
    return k;
}

static int eo_search_moves(const eo_rules *r, const eo_state *s, eo_move *out) {
    int runs[EO_MAXCOLS];
    return eo_search_moves_runs(r, s, out, runs, 0, 0);
}

/* The digging steps worth trying: for each card below the top of a column, send it
 * home if it can go, move it onto the exposed card of another column that takes it,
 * (a King) into an empty column, or move onto it a card from a cell or from another
 * column's top run; each once the cards above it are cleared. */
static int eo_macro_moves(const eo_rules *r, const eo_state *s, eo_move *out, int room,
                          int kinds, const int *runs) {
    int k = 0;
    if (!(kinds & (1 << EO_DIG_PARENT | 1 << EO_DIG_TARGET))) {
        /* the digs home alone (a first expansion with the digs onto a parent last): the same
         * steps in the same order as below, without the tables of the other kinds */
        uint64_t home = (kinds & 1 << EO_DIG_HOME) ? eo_homeable_mask(r, s) : 0;
        for (int c = 0; home && c < r->ncols; c++) {
            int L = s->len[c], lowest = L - 1 - (s->free_cells + EO_DIG_SLACK);
            for (int i = L - 2; i >= 0 && i >= lowest; i--) {
                if (k + 16 > room) return k;
                if (home >> s->col[c][i] & 1) {
                    eo_move m = eo_mv(EO_MACRO + EO_DIG_HOME, c, L - 1 - i);
                    m.f = 255;
                    out[k++] = m;
                }
            }
        }
        return k;
    }
    int fcol = eo_first_empty_col(r, s, -1);
    /* where each card is exposed (top of a column) or movable (cell, top run) */
    int8_t topcol[64][2], src[64][2];
    uint64_t t1 = 0, t2 = 0, s1 = 0, s2 = 0; /* cards with a first / second entry */
    uint64_t homeable = eo_homeable_mask(r, s);
    int run[EO_MAXCOLS];
    int targets = kinds & 1 << EO_DIG_TARGET;
    for (int t = 0; t < r->ncols; t++) {
        int T = s->len[t];
        run[t] = runs ? runs[t] : eo_run(r, s, t);
        if (!T) continue;
        int top = s->col[t][T - 1];
        int ts = eo_slot2(&t1, &t2, top);
        if (ts >= 0) topcol[top][ts] = (int8_t)t;
        /* (the movable cards matter only to the kind that moves a card onto a dug one) */
        for (int q = 1; targets && q <= run[t]; q++) {
            int card = s->col[t][T - q];
            if (q == T && r->kings_only) break; /* a whole King-led column stays */
            int slot = eo_slot2(&s1, &s2, card);
            if (slot >= 0) src[card][slot] = (int8_t)t;
        }
    }
    for (int j = 0; targets && j < r->ncells; j++) {
        int card = s->cell[j];
        if (!card) continue;
        int slot = eo_slot2(&s1, &s2, card);
        if (slot >= 0) src[card][slot] = (int8_t)(EO_CELL + j);
    }
    int rel[2];
    /* the cards whose parent is on top of a column, and those a movable card may lie on */
    uint64_t under_tops = eo_related_bits(r, t1 | t2, -1);
    uint64_t over_movable = targets ? eo_related_bits(r, s1 | s2, 1) : 0;
    for (int c = 0; c < r->ncols; c++) {
        int L = s->len[c];
        if (L < 2) continue;
        const uint8_t *col = s->col[c];
        int lowest = L - 1 - (s->free_cells + EO_DIG_SLACK);
        for (int i = L - 2; i >= 0 && i >= lowest; i--) {
            if (k + 16 > room) return k;
            int card = col[i], d = L - 1 - i;
            if ((kinds & 1 << EO_DIG_HOME) && (homeable >> card & 1)) {
                eo_move m = eo_mv(EO_MACRO + EO_DIG_HOME, c, d);
                m.f = 255;
                out[k++] = m;
            }
            if ((kinds & 1 << EO_DIG_PARENT) && i < L - run[c] &&
                !(i > 0 && eo_stacks(r, card, col[i - 1]))) {
                /* below the top run and not on a parent: onto a parent elsewhere */
                int np = (under_tops >> card & 1) ? eo_related(r, card, 1, rel) : 0;
                for (int a = 0; a < np; a++) {
                    int nt = (int)(t1 >> rel[a] & 1) + (int)(t2 >> rel[a] & 1);
                    for (int b = 0; b < nt; b++) {
                        if (topcol[rel[a]][b] == c) continue; /* its parent lies on it */
                        eo_move m = eo_mv(EO_MACRO + EO_DIG_PARENT, c, d);
                        m.f = (uint8_t)topcol[rel[a]][b];
                        out[k++] = m;
                    }
                }
                if (fcol >= 0 && i > 0 && eo_rank(card) == EO_KING) {
                    eo_move m = eo_mv(EO_MACRO + EO_DIG_EMPTY, c, d);
                    m.f = (uint8_t)fcol;
                    out[k++] = m;
                }
            }
            /* a card from a cell or another column's top run onto this one */
            int nc = (over_movable >> card & 1) ? eo_related(r, card, -1, rel) : 0;
            for (int a = 0; a < nc; a++) {
                int ns = (int)(s1 >> rel[a] & 1) + (int)(s2 >> rel[a] & 1);
                for (int b = 0; b < ns; b++) {
                    if (src[rel[a]][b] == c) continue;
                    eo_move m = eo_mv(EO_MACRO + EO_DIG_TARGET, c, d);
                    m.f = (uint8_t)src[rel[a]][b];
                    out[k++] = m;
                }
            }
        }
    }
    return k;
}

/* The digs home of eo_macro_moves (one pack), fewest cards first, then by column, as the
 * dive's first pass tries them (eo_expand, dive.home_digs_before_moves): found from the
 * next card of each foundation and its depth in the column parts pc, instead of looking
 * at every card within reach, which costs far more and is rarely needed.  A card that
 * left the columns may keep a stale depth in pc: the card is looked for at that depth. */
static inline int eo_dig_home_moves_in(const eo_rules *r, const eo_state *s, const eo_pcache *pc,
                                       eo_move *out, int by_column) {
    int k = 0, reach = s->free_cells + EO_DIG_SLACK;
    for (int f = 0; f < 4; f++) {
        if (s->found[f] >= EO_KING) continue;
        int card = (s->found[f] + 1) << 2 | f, d = pc->depth[card];
        if (d < 1 || d > reach) continue;
        for (int c = 0; c < r->ncols; c++) {
            int L = s->len[c];
            if (L <= d || s->col[c][L - 1 - d] != card) continue;
            eo_move m = eo_mv(EO_MACRO + EO_DIG_HOME, c, d);
            m.f = 255;
            int j = k++;
            if (by_column)
                for (; j > 0 && (out[j - 1].dst > c || (out[j - 1].dst == c && out[j - 1].n > d)); j--)
                    out[j] = out[j - 1];
            else
                for (; j > 0 && (out[j - 1].n > d || (out[j - 1].n == d && out[j - 1].dst > c)); j--)
                    out[j] = out[j - 1];
            out[j] = m;
            break;
        }
    }
    return k;
}

static inline int eo_dig_home_moves(const eo_rules *r, const eo_state *s, const eo_pcache *pc,
                                    eo_move *out) {
    return eo_dig_home_moves_in(r, s, pc, out, 0);
}

/* The single moves of a cell card onto its parent on top of a column, in the order
 * eo_search_moves_runs makes them (by cell, then by column). */
static inline int eo_cell_to_parent_moves(const eo_rules *r, const eo_state *s, eo_move *out) {
    int k = 0, rel[2];
    uint64_t tops = eo_top_bits(r, s);
    for (int i = 0; i < r->ncells; i++) {
        int card = s->cell[i];
        if (!card) continue;
        int np = eo_related(r, card, 1, rel);
        uint64_t want = 0;
        for (int a = 0; a < np; a++) want |= (uint64_t)1 << rel[a];
        if (!(tops & want)) continue;
        for (int c = 0; c < r->ncols; c++) {
            int L = s->len[c];
            if (L && (s->col[c][L - 1] == rel[0] || (np > 1 && s->col[c][L - 1] == rel[1])))
                out[k++] = eo_mv(EO_CELL + i, c, 1);
        }
    }
    return k;
}

static inline void eo_undo_all(eo_state *s, const eo_move *ms, int n) {
    for (int j = n - 1; j >= 0; j--) eo_undo(s, &ms[j]);
}

/* Move cards off column c until its card at index k is exposed (or, with keep_run,
 * until the top run reaches down to it): each time the top run (the part above k)
 * onto the exposed card of another column (not `avoid`) that takes it, else the top
 * card into a cell, else the run into an empty column (not `avoid`).  Appends the
 * moves (applied) to out; returns how many, or -1 when stuck (s then unchanged). */
static int eo_dig(const eo_rules *r, eo_state *s, int c, int k, int keep_run, int avoid,
                  eo_move *out) {
    int n = 0;
    /* the top cards of the columns (a bit per card code), so that the columns are looked
     * through only when one of them takes the run (most cards dug go into cells): made
     * when first needed, then a card landing on a column adds its bit (a bit left by a
     * card moved away only costs a look) */
    uint64_t tops = 0;
    int have_tops = 0;
    for (;;) {
        int L = s->len[c];
        if (L - 1 <= k) break;
        int run = eo_run(r, s, c);
        if (keep_run && L - run <= k) break;
        int above = L - 1 - k;
        int g = run < above ? run : above;
        const uint8_t *col = s->col[c];
        eo_move m;
        int found = 0;
        uint64_t parents = 0;
        if (g <= eo_limit(r, s, 0)) {
            int rel[2], np = eo_related(r, col[L - g], 1, rel);
            for (int a = 0; a < np; a++) parents |= (uint64_t)1 << rel[a];
            if (parents && !have_tops) {
                tops |= eo_top_bits(r, s);
                have_tops = 1;
            }
        }
        if (parents & tops) {
            for (int t = 0; t < r->ncols; t++) {
                int T = s->len[t];
                if (t == c || t == avoid || !T || !eo_stacks(r, col[L - g], s->col[t][T - 1]))
                    continue;
                m = eo_mv(c, t, g);
                found = 1;
                break;
            }
        }
        if (!found) {
            int cell = eo_first_empty_cell(r, s);
            if (cell >= 0) {
                m = eo_mv(c, EO_CELL + cell, 1);
                found = 1;
            }
        }
        if (!found) {
            int e = eo_first_empty_col(r, s, avoid);
            if (e >= 0 && g <= eo_limit(r, s, 1) && (!r->kings_only || eo_rank(col[L - g]) == EO_KING)) {
                m = eo_mv(c, e, g);
                found = 1;
            }
        }
        if (!found) {
            eo_undo_all(s, out, n);
            return -1;
        }
        eo_apply(r, s, &m);
        out[n++] = m;
        if (m.dst < EO_CELL) tops |= (uint64_t)1 << s->col[m.dst][s->len[m.dst] - 1];
    }
    return n;
}

/* ----- meta steps ---------------------------------------------------------------
 * After Freecell Solver's "meta-moves" (its freecell.c, the tests of `-to 0123456789`,
 * what its soft-DFS scans win with when few cells are free): each is a sequence of legal
 * single moves that clears the cards above one or two places, one card at a time into
 * the empty cells and then (where any card fills an empty column) into empty columns,
 * one card each, and then makes one move.  Unlike the digging steps above, the place
 * cleared may be a card's parent deep in a column, and the card moved a run segment
 * deep in another: a column's bottom cards meet without either being exposed first.
 * One pack only (nfound 4): a card has one place.  A meta step is an eo_move with
 * src = EO_MACRO + kind, and dst, n, f as each kind says below. */
#define EO_META_HOME 5        /* dst column, n cards above a card a foundation takes:
                                 clear them, send it home (fc-solve test 3) */
#define EO_META_CELL_PARENT 6 /* dst cell, f column, n cards above a parent there of the
                                 cell card: clear them, put the card on it (test 2) */
#define EO_META_SEG_PARENT 7  /* dst column, n cards above the bottom card of a run
                                 segment (maximal), f = column | cards above a parent of
                                 it there << 4: clear that column, then the cards above the
                                 segment, move the segment (test 4) */
#define EO_META_SEG_EMPTY 8   /* dst column, n cards above the first card moved, f cards
                                 moved: clear the cards above, move those into an empty
                                 column, one column left empty for it (test 6) */
#define EO_META_REPARENT 9    /* dst column, n cards above a card of its top run that lies
                                 on a parent, f as EO_META_SEG_PARENT: clear above the other
                                 parent, move the card and those above it (test 8) */
#define EO_META_COL_CELLS 10  /* dst column, moved whole into the cells when no column is
                                 empty (test 9) */
#define EO_META_TOP_HOME 11   /* a column's top card home (single moves; test 0) */
#define EO_META_CELL_HOME 12  /* a cell card home (single moves; test 1) */
#define EO_META_CELL_EMPTY 13 /* a cell card into an empty column (single moves; test 7) */
#define EO_META_ALL 14        /* every step the search's plan tries (eo_all_steps): the
                                 last group of the complete search's meta order */

/* Move the top k cards of column c off it one at a time, into the first empty cell, else
 * (any card filling an empty column) into the first empty column, one card each.
 * Appends the moves (applied) to out; returns how many, or -1 when there is no room (s
 * then unchanged). */
static int eo_clear_to_slots(const eo_rules *r, eo_state *s, int c, int k, eo_move *out) {
    int n = 0;
    while (n < k) {
        eo_move m;
        int cell = eo_first_empty_cell(r, s);
        if (cell >= 0) {
            m = eo_mv(c, EO_CELL + cell, 1);
        } else {
            int e = r->kings_only ? -1 : eo_first_empty_col(r, s, c);
            if (e < 0 || s->len[c] < 2) {
                eo_undo_all(s, out, n);
                return -1;
            }
            m = eo_mv(c, e, 1);
        }
        eo_apply(r, s, &m);
        out[n++] = m;
    }
    return n;
}

/* Could k cards be cleared into F empty cells and E empty columns (one card each) and a
 * run of `len` cards then move (onto a card, or with to_empty into one more empty
 * column)?  The group limit after the clearing (eo_limit's rule). */
static inline int eo_meta_room(const eo_rules *r, int F, int E, int k, int len, int to_empty) {
    int cells = k < F ? k : F;
    int cols = k - cells;
    int virt = r->kings_only ? 0 : E;
    if (cols > virt) return 0;
    if (len <= 1) return to_empty ? E - cols >= 1 : 1;
    if (r->strict) return 0;
    int left = F - cells + 1;
    if (!r->supermove) return len <= left;
    int e = E - cols - (to_empty ? 1 : 0);
    if (e < 0) return 0;
    if (e > 20) e = 20;
    return len <= (left << e);
}

/* The meta steps of one kind from s (one pack), appended at out (room at most).  Cards
 * put on a parent go only onto a parent no child lies on yet. */
static int eo_meta_moves(const eo_rules *r, const eo_state *s, int kind, eo_move *out, int room) {
    int k = 0;
    if (r->nfound != 4) return 0;
    int F = s->free_cells, E = s->free_cols, slots = F + (r->kings_only ? 0 : E);
    int8_t pcol[64], pidx[64]; /* where each column card lies */
    int need_pos = kind == EO_META_CELL_PARENT || kind == EO_META_SEG_PARENT || kind == EO_META_REPARENT;
    if (need_pos) {
        memset(pcol, -1, sizeof(pcol));
        for (int c = 0; c < r->ncols; c++)
            for (int i = 0; i < s->len[c]; i++) {
                pcol[s->col[c][i]] = (int8_t)c;
                pidx[s->col[c][i]] = (int8_t)i;
            }
    }
    int rel[2];
    switch (kind) {
    case EO_META_TOP_HOME:
        for (int c = 0; c < r->ncols; c++)
            if (s->len[c] && eo_foundation_for(r, s, s->col[c][s->len[c] - 1]) >= 0)
                out[k++] = eo_mv(c, EO_HOME, 1);
        break;
    case EO_META_CELL_HOME:
        for (int i = 0; i < r->ncells; i++)
            if (s->cell[i] && eo_foundation_for(r, s, s->cell[i]) >= 0) out[k++] = eo_mv(EO_CELL + i, EO_HOME, 1);
        break;
    case EO_META_CELL_EMPTY: {
        int e = eo_first_empty_col(r, s, -1);
        if (e < 0) break;
        for (int i = 0; i < r->ncells; i++)
            if (s->cell[i] && (!r->kings_only || eo_rank(s->cell[i]) == EO_KING))
                out[k++] = eo_mv(EO_CELL + i, e, 1);
        break;
    }
    case EO_META_HOME:
        for (int c = 0; c < r->ncols; c++) {
            int L = s->len[c];
            for (int i = L - 2; i >= 0 && L - 1 - i <= slots; i--) {
                if (eo_foundation_for(r, s, s->col[c][i]) < 0) continue;
                eo_move m = eo_mv(EO_MACRO + EO_META_HOME, c, L - 1 - i);
                m.f = 255;
                out[k++] = m;
            }
        }
        break;
    case EO_META_COL_CELLS:
        if (E || !F) break;
        for (int c = 0; c < r->ncols; c++) {
            int L = s->len[c];
            if (!L || L > F) continue;
            eo_move m = eo_mv(EO_MACRO + EO_META_COL_CELLS, c, L);
            m.f = 255;
            out[k++] = m;
        }
        break;
    case EO_META_CELL_PARENT:
        for (int i = 0; i < r->ncells; i++) {
            int card = s->cell[i];
            if (!card) continue;
            int np = eo_related(r, card, 1, rel);
            for (int a = 0; a < np; a++) {
                int t = pcol[rel[a]];
                if (t < 0) continue;
                int p = pidx[rel[a]], T = s->len[t], above = T - 1 - p;
                if (above > slots || above > 15) continue;
                if (above && eo_stacks(r, s->col[t][p + 1], rel[a])) continue; /* taken */
                if (k + 1 > room) return k;
                eo_move m = eo_mv(EO_MACRO + EO_META_CELL_PARENT, i, above);
                m.f = (uint8_t)t;
                out[k++] = m;
            }
        }
        break;
    case EO_META_SEG_PARENT:
    case EO_META_REPARENT:
        for (int c = 0; c < r->ncols; c++) {
            int L = s->len[c];
            if (!L) continue;
            const uint8_t *col = s->col[c];
            int base = L - eo_run(r, s, c); /* the top run's bottom card */
            /* the cards moved: each segment's bottom card (segments are maximal runs), or
             * each card of the top run that lies on a parent */
            int i = kind == EO_META_SEG_PARENT ? 0 : base + 1;
            while (i < L) {
                int j = i; /* the segment's top card */
                if (kind == EO_META_SEG_PARENT)
                    while (j + 1 < L && eo_stacks(r, col[j + 1], col[j])) j++;
                else
                    j = L - 1;
                int card = col[i], len = j - i + 1, over = L - 1 - j;
                int np = eo_rank(card) < EO_KING ? eo_related(r, card, 1, rel) : 0;
                for (int a = 0; a < np; a++) {
                    int t = pcol[rel[a]];
                    if (t < 0 || t == c) continue;
                    int p = pidx[rel[a]], T = s->len[t], above = T - 1 - p;
                    if (above > 15) continue;
                    if (above && eo_stacks(r, s->col[t][p + 1], rel[a])) continue; /* taken */
                    if (!eo_meta_room(r, F, E, above + over, len, 0)) continue;
                    if (k + 1 > room) return k;
                    eo_move m = eo_mv(EO_MACRO + kind, c, L - 1 - i);
                    m.f = (uint8_t)(t | above << 4);
                    out[k++] = m;
                }
                i = kind == EO_META_SEG_PARENT ? j + 1 : i + 1;
            }
        }
        break;
    case EO_META_SEG_EMPTY:
        if (!E || r->kings_only) break;
        for (int c = 0; c < r->ncols; c++) {
            int L = s->len[c];
            const uint8_t *col = s->col[c];
            int i = 0;
            while (i < L) {
                int j = i;
                while (j + 1 < L && eo_stacks(r, col[j + 1], col[j])) j++;
                int over = L - 1 - j, a = -1;
                if (!over) {
                    /* the top segment, whole, unless it is the whole column */
                    if (i > 0 && eo_meta_room(r, F, E, 0, j - i + 1, 1)) a = i;
                } else if (eo_meta_room(r, F, E, over, 1, 1)) {
                    /* under other cards: as much of its top as may move then */
                    a = j;
                    while (a > i && eo_meta_room(r, F, E, over, j - a + 2, 1)) a--;
                }
                if (a >= 0) {
                    if (k + 1 > room) return k;
                    eo_move m = eo_mv(EO_MACRO + EO_META_SEG_EMPTY, c, L - 1 - a);
                    m.f = (uint8_t)(j - a + 1);
                    out[k++] = m;
                }
                i = j + 1;
            }
        }
        break;
    }
    return k;
}

/* Make meta step m on s (see EO_META_...): its moves to out, applied, each checked with
 * eo_legal; returns how many, or -1 if it cannot be made (s then unchanged). */
static int eo_meta_step(const eo_rules *r, eo_state *s, eo_move m, eo_move *out) {
    int kind = m.src - EO_MACRO, n = 0, q;
    eo_move last;
    switch (kind) {
    case EO_META_HOME: {
        int c = m.dst;
        if (s->len[c] <= m.n || (q = eo_clear_to_slots(r, s, c, m.n, out)) < 0) return -1;
        n = q;
        last = eo_mv(c, EO_HOME, 1);
        break;
    }
    case EO_META_COL_CELLS: {
        int c = m.dst;
        if (s->len[c] != m.n || m.n > s->free_cells) return -1;
        for (int i = 0; i < m.n; i++) {
            out[n] = eo_mv(c, EO_CELL + eo_first_empty_cell(r, s), 1);
            eo_apply(r, s, &out[n++]);
        }
        return n;
    }
    case EO_META_CELL_PARENT: {
        int t = m.f;
        if (!s->cell[m.dst] || s->len[t] <= m.n || (q = eo_clear_to_slots(r, s, t, m.n, out)) < 0)
            return -1;
        n = q;
        last = eo_mv(EO_CELL + m.dst, t, 1);
        break;
    }
    case EO_META_SEG_PARENT:
    case EO_META_REPARENT: {
        int c = m.dst, t = m.f & 15, above = m.f >> 4, L = s->len[c];
        if (L <= m.n || s->len[t] <= above || t == c) return -1;
        int i = L - 1 - m.n, j = L - 1;
        if (kind == EO_META_SEG_PARENT) {
            j = i;
            while (j + 1 < L && eo_stacks(r, s->col[c][j + 1], s->col[c][j])) j++;
        }
        if ((q = eo_clear_to_slots(r, s, t, above, out)) < 0) return -1;
        n = q;
        if ((q = eo_clear_to_slots(r, s, c, L - 1 - j, out + n)) < 0) {
            eo_undo_all(s, out, n);
            return -1;
        }
        n += q;
        last = eo_mv(c, t, j - i + 1);
        break;
    }
    case EO_META_SEG_EMPTY: {
        int c = m.dst, L = s->len[c], cnt = m.f, over = m.n + 1 - cnt;
        if (L <= m.n || over < 0 || (q = eo_clear_to_slots(r, s, c, over, out)) < 0) return -1;
        n = q;
        int e = eo_first_empty_col(r, s, c);
        if (e < 0) {
            eo_undo_all(s, out, n);
            return -1;
        }
        last = eo_mv(c, e, cnt);
        break;
    }
    default:
        return -1;
    }
    if (!eo_legal(r, s, last)) {
        eo_undo_all(s, out, n);
        return -1;
    }
    eo_apply(r, s, &last);
    out[n++] = last;
    return n;
}

/* Make a search step (a single move or a digging step) on s; write its moves to out
 * (at most EO_STEPMAX); return how many, or -1 if a digging step cannot be made (s is
 * then unchanged). */
static int eo_step(const eo_rules *r, eo_state *s, eo_move m, eo_move *out) {
    if (m.src < EO_MACRO) {
        eo_apply(r, s, &m);
        out[0] = m;
        return 1;
    }
    if (m.src >= EO_MACRO + EO_META_HOME) return eo_meta_step(r, s, m, out);
    int kind = m.src - EO_MACRO, c = m.dst, L = s->len[c], k = L - 1 - m.n;
    int avoid = (kind == EO_DIG_HOME || (kind == EO_DIG_TARGET && m.f >= EO_CELL)) ? -1 : m.f;
    int n = eo_dig(r, s, c, k, kind == EO_DIG_PARENT || kind == EO_DIG_EMPTY, avoid, out);
    if (n < 0) return -1;
    eo_move last;
    int L2 = s->len[c];
    if (kind == EO_DIG_TARGET) {
        int onto = s->col[c][k];
        if (m.f >= EO_CELL) {
            int card = s->cell[m.f - EO_CELL];
            if (!card || !eo_stacks(r, card, onto)) {
                eo_undo_all(s, out, n);
                return -1;
            }
            last = eo_mv(m.f, c, 1);
        } else {
            int t = m.f, T = s->len[t], run = eo_run(r, s, t), q = 1, lim = eo_limit(r, s, 0);
            while (q <= run && q <= lim && !eo_stacks(r, s->col[t][T - q], onto)) q++;
            if (q > run || q > lim) {
                eo_undo_all(s, out, n);
                return -1;
            }
            last = eo_mv(t, c, q);
        }
    } else if (kind == EO_DIG_HOME) {
        if (eo_foundation_for(r, s, s->col[c][k]) < 0) {
            eo_undo_all(s, out, n);
            return -1;
        }
        last = eo_mv(c, EO_HOME, 1);
    } else {
        int cnt = L2 - k, t = m.f;
        int to_empty = kind == EO_DIG_EMPTY;
        if (cnt > eo_limit(r, s, to_empty) || (to_empty && s->len[t]) ||
            (!to_empty && (!s->len[t] || !eo_stacks(r, s->col[c][k], s->col[t][s->len[t] - 1])))) {
            eo_undo_all(s, out, n);
            return -1;
        }
        last = eo_mv(c, t, cnt);
    }
    eo_apply(r, s, &last);
    out[n++] = last;
    return n;
}

#endif
