/* The search.  Plain C, included by _core.pyx after core.h.
 *
 * eo_solve runs up to three searches, each afresh if the one before failed:
 *  1. a greedy depth-first dive over purposeful steps (single moves other than a
 *     column card into a cell, and "digging" steps: clear the cards above a card, then
 *     send it home or move it onto a parent); states remembered by hash only;
 *  2. a best-first search over purposeful steps, children scored by a heuristic;
 *  3. the complete search: every single move (up to symmetry), best-first.
 * Cards the safe rule allows go home at once after every step, each its own move.
 * The first two are not complete, so their failure proves nothing; only the third
 * can end "lost".  In short mode the solution is then shortened (eo_shorten).
 *
 * Soundness of "lost" (the complete search):
 *  - every state the table holds is expanded before the search can end "lost"
 *    (children are entered into the table when generated; depth-first, each frame
 *    runs through all its children; best-first, every entered state is queued), and
 *    the table compares full canonical keys;
 *  - the canonical key only identifies states that are the same game up to the
 *    order of columns, of cells and (two packs) of a suit's two foundations, all
 *    interchangeable by the rules;
 *  - the single moves tried reach, up to that identification, every legal move's
 *    result (left out: to another empty cell, to another empty column, cell to cell,
 *    a whole column into an empty column); digging steps, when added, are sequences
 *    of legal moves, extra edges that never replace a single move;
 *  - the cards sent home at once are those eo_safe allows (see core.h).
 * tests/unit/test_core_differential.py checks the move generation, the reach of the
 * single moves tried, the safe rule and the canonical key against the Python engine.
 */
#ifndef EIGHTOFF_SEARCH_H
#define EIGHTOFF_SEARCH_H

#include "core.h"
#include "plan.h"

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

typedef struct {
    eo_move m;
    int32_t score;
    /* the moves of its step, then its auto-moves, as made when it was scored: at
     * kmv[off], ns + na of them (the depth-first search makes them again from there when
     * it enters the child, instead of generating the step and the auto-moves again) */
    uint32_t off;
    uint8_t ns, na;
} eo_child;

typedef struct {
    int kid0, nkids, next, path0;
    size_t kmv0; /* the end of the kids' recorded moves (kmv) when the frame began */
    int more; /* 1: the dive took a dig home first (pass 0 of eo_expand): the other steps are
                 still to be generated when its kids fail; 2: the digs onto a parent are
                 (dive_parent_digs_last) */
} eo_frame;

/* The parts of the heuristic and of the dive's hash that belong to each column of a
 * state, kept while its children are scored: a child differs from it only in the
 * columns its step touched, so only those are looked at again (one pack only: with
 * two, a card's depth is the smaller of its two copies').  The depth-first search keeps
 * one per frame, each made from its parent's (eo_pcache_child). */
typedef struct {
    /* per column (each at most a column's length, < 128): cards above the settled run,
     * blockers, pairs, the top run's length */
    uint8_t bad[EO_MAXCOLS], blk[EO_MAXCOLS], prs[EO_MAXCOLS], run[EO_MAXCOLS];
    int sbad, sblk, sprs;
    uint64_t colh[EO_MAXCOLS], sumh;
    uint8_t depth[64];
} eo_pcache;


typedef struct {
    eo_rules R;
    eo_state S;
    eo_table T;
    long max_states;
    double deadline; /* monotonic seconds; <= 0: none */
    size_t max_mem;
    int status;
    eo_plan plan; /* how eo_solve searches (its dive rules also the portfolio's dives') */
    eo_member port[EO_MAXPORT]; /* the portfolio (eo_portfolio): nport searches in turns */
    int nport;
    /* the current search: */
    eo_weights w; /* its weights */
    int steps;    /* the steps it tries: EO_STEPS_... */
    int dig_kinds; /* which digging steps: bit 1 << EO_DIG_... */
    /* the dive makes the digs onto a parent (and a King's into an empty column) only once
     * every other step of the state has failed (see eo_expand; set by portfolio method 3:
     * FreeCell's first member) */
    int dive_parent_digs_last;
    /* this search is the greedy dive: depth-first, never a proof; its rules (dive) apply,
     * and it takes the first step that sends a card home */
    int is_dive;
    /* the search remembers states by a 64-bit hash of their canonical form only (the dive:
     * a collision can only hide a state from a search whose failure proves nothing) */
    int hash_only;
    uint64_t *hset;
    size_t hmask, hcount;
    unsigned long work;
    eo_move *path; /* moves from the root: each step's moves, then its auto-moves */
    uint8_t *is_step; /* 1 where path[i] starts a step */
    int plen, pcap;
    eo_frame *fr;
    int nfr, frcap;
    eo_pcache *pcs; /* one pack: the column parts of each frame's state (fr[i] -> pcs[i]) */
    int pccap;
    eo_child *kids;
    int nkids, kcap;
    eo_move *kmv; /* the recorded moves of the kids on the stack (eo_child.off) */
    size_t kmv_len, kmv_cap;
    /* best-first search: per state id its parent, the step from the parent's canonical
     * layout, its depth; the open list is a binary heap */
    uint32_t *parent;
    eo_move *pmove;
    uint16_t *depth;
    size_t idcap;
    uint64_t *heap; /* score << 32 | id, biased so that a max-heap pops the best */
    size_t nheap, heapcap;
    /* depth-first: a random amount below `noise` is added to each child's score
     * (xorshift generator, seeded per search) to vary the order of near-equal children */
    uint64_t rng;
    int noise;
} eo_ctx;

static inline double eo_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

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
/* The cards in the cells, a bit per card code (bit 0 set: some cell is empty). */
static inline uint64_t eo_cell_bits(const eo_rules *r, const eo_state *s) {
    uint64_t m = 0;
    for (int i = 0; i < r->ncells; i++) m |= (uint64_t)1 << s->cell[i];
    return m;
}

/* The top cards of the columns, a bit per card code. */
static inline uint64_t eo_top_bits(const eo_rules *r, const eo_state *s) {
    uint64_t m = 0;
    for (int c = 0; c < r->ncols; c++)
        if (s->len[c]) m |= (uint64_t)1 << s->col[c][s->len[c] - 1];
    return m;
}

/* The top runs' lengths of the column parts pc in runs, which is returned; NULL if pc is
 * NULL (the generators then find the runs themselves). */
static inline const int *eo_runs_of(const eo_rules *r, const eo_pcache *pc, int *runs) {
    if (!pc) return NULL;
    for (int c = 0; c < r->ncols; c++) runs[c] = pc->run[c];
    return runs;
}

static inline int eo_autos(const eo_rules *r, eo_state *s, eo_move *out) {
    int k = 0;
    if (r->nfound == 4) {
        /* the same moves in the same order, the safe cards read from a mask and the cell
         * cards and top cards kept as masks (one pack: a card is in one place), so that
         * only a move found is looked for place by place (it scanned every cell and column
         * once per card sent home and once more to find none: Eight Off Easy 1-1000, 2%
         * fewer instructions per solve) */
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

/* The single moves the search tries: every legal move except those that lead to a
 * state canonically equal to another move's (one empty cell and one empty column stand
 * for all, no cell-to-cell moves, no whole column into an empty column). */
static inline int eo_related(const eo_rules *r, int card, int delta, int *out);

/* The bits of eo_search_moves_runs' `purposeful` (see eo_all_steps). */
#define EO_PURPOSEFUL 1     /* no move of a column card into a cell */
#define EO_WHOLE_TO_EMPTY 2 /* into an empty column only a column's whole top run (as much
                               of it as may move), not a single card */
#define EO_WHOLE_TO_PARENT 4 /* onto another column only a column's whole top run, and only
                                if all of it may move */
#define EO_EMPTY_NEEDS_CHILD 8 /* a cell card into an empty column only when a card that
                                  would lie on it is on top of a column or in a cell */

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
    for (int t = 0; t < r->ncols; t++) {
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

/* ----- digging steps ----------------------------------------------------------------- */

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

/* The digging steps worth trying: for each card below the top of a column, send it
 * home if it can go, move it onto the exposed card of another column that takes it,
 * (a King) into an empty column, or move onto it a card from a cell or from another
 * column's top run; each once the cards above it are cleared. */
static int eo_macro_moves(const eo_rules *r, const eo_state *s, eo_move *out, int room,
                          int kinds, const int *runs) {
    int k = 0;
    if (!(kinds & (1 << EO_DIG_PARENT | 1 << EO_DIG_TARGET))) {
        /* the digs home alone (the first expansion of FreeCell's first dive): the same
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
                int np = eo_related(r, card, 1, rel);
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
            int nc = (kinds & 1 << EO_DIG_TARGET) ? eo_related(r, card, -1, rel) : 0;
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
 * at every card within reach (eo_macro_moves, all kinds, was 13% of a median Eight Off
 * Easy solve's instructions, and the first pass takes a dig home in about 9 of the 23
 * expansions of a median deal, never needing the others: 6% fewer instructions per
 * solve).  A card that left the columns may keep a stale depth in pc: the card is looked
 * for at that depth. */
static inline int eo_dig_home_moves(const eo_rules *r, const eo_state *s, const eo_pcache *pc,
                                    eo_move *out) {
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
            for (; j > 0 && (out[j - 1].n > d || (out[j - 1].n == d && out[j - 1].dst > c)); j--)
                out[j] = out[j - 1];
            out[j] = m;
            break;
        }
    }
    return k;
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
     * through only when one of them takes the run (most cards dug go into cells; the
     * column scan was 3% of a median Eight Off Easy solve's instructions): made when first
     * needed, then a card landing on a column adds its bit (a bit left by a card moved
     * away only costs a look) */
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

/* Make a search step (a single move or a digging step) on s; write its moves to out
 * (at most EO_STEPMAX); return how many, or -1 if a digging step cannot be made (s is
 * then unchanged). */
static int eo_step(const eo_rules *r, eo_state *s, eo_move m, eo_move *out) {
    if (m.src < EO_MACRO) {
        eo_apply(r, s, &m);
        out[0] = m;
        return 1;
    }
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

/* ----- the heuristic ------------------------------------------------------------------ */

/* How promising a state looks (higher is better): a weighted sum of features, each
 * named by its weight in eo_weights (plan.h). */
/* The column part of the heuristic: cards above the settled run (bad), cards above a
 * lower card of their suit (blockers), cards on their natural parent (pairs); writes
 * each card's depth (cards above it) into depth[]. */
static inline void eo_col_features(const eo_rules *r, const eo_state *s, int c, int *bad,
                                   int *blockers, int *pairs, int *top_run, uint8_t *depth,
                                   int onepack) {
    int L = s->len[c];
    *bad = *blockers = *pairs = *top_run = 0;
    if (!L) return;
    const uint8_t *col = s->col[c];
    int alt = r->alt;
    /* settled: the bottom run, when it may stay (led by a King where only Kings fill
     * columns) */
    int settled = (!r->kings_only || eo_rank(col[0]) == EO_KING) ? 1 : 0;
    /* the lowest rank seen so far of each suit, a byte per suit (kept in a register) */
    uint32_t low = 0x0e0e0e0eU;
    int prev = col[0], blk = 0, prs = 0, run = 1;
    /* one pack: each card lies in one place, so its depth is simply written */
    if (onepack || L - 1 < depth[prev]) depth[prev] = (uint8_t)(L - 1);
    low = (low & ~(0xffU << ((prev & 3) * 8))) | (uint32_t)(prev >> 2) << ((prev & 3) * 8);
    for (int j = 1; j < L; j++) {
        int card = col[j], rk = card >> 2, sh = (card & 3) * 8;
        int d = L - 1 - j;
        if (onepack || d < depth[card]) depth[card] = (uint8_t)d;
        int lo = (int)(low >> sh & 0xff);
        int above = lo < rk;
        blk += above;
        if (!above) low = (low & ~(0xffU << sh)) | (uint32_t)rk << sh;
        int on = alt ? ((rk + 1 == (prev >> 2)) && ((card ^ prev) & 2)) : (card + 4 == prev);
        prs += on;
        settled += settled == j && on;
        run = on ? run + 1 : 1;
        prev = card;
    }
    *top_run = run;
    *bad = L - settled;
    *blockers = blk;
    *pairs = prs;
}

/* The cell and foundation part of the heuristic, and the sum (see eo_score). */
static inline int eo_score_finish(const eo_rules *r, const eo_state *s, const eo_weights *w,
                                  uint8_t *depth, int bad, int blockers, int pairs) {
    int waiting = 0;
    for (int i = 0; i < r->ncells; i++) {
        int card = s->cell[i];
        if (!card) continue;
        depth[card] = 0;
        int lowest = s->found[card & 3];
        if (r->nfound == 8 && s->found[(card & 3) + 4] < lowest) lowest = s->found[(card & 3) + 4];
        waiting += (card >> 2) - lowest - 1;
    }
    int sumdepth = 0, exposed = 0, mindepth = 99;
    for (int f = 0; f < r->nfound; f++) {
        if (s->found[f] >= EO_KING) continue;
        int d = depth[(s->found[f] + 1) << 2 | (f & 3)];
        if (d == 255) continue;
        sumdepth += d;
        exposed += d == 0;
        if (d < mindepth) mindepth = d;
    }
    if (mindepth == 99) mindepth = 0;
    return w->home * s->home + w->free_cells * s->free_cells + w->free_columns * s->free_cols -
           w->next_depth * sumdepth - w->unsettled * bad - w->blockers * blockers -
           w->cell_wait * waiting + w->next_exposed * exposed - w->next_min_depth * mindepth +
           w->pairs * pairs;
}

static inline int eo_score(const eo_rules *r, const eo_state *s, const eo_weights *w) {
    uint8_t depth[64];
    memset(depth, 255, sizeof(depth));
    int bad = 0, blockers = 0, pairs = 0;
    for (int c = 0; c < r->ncols; c++) {
        int b, k, p, q;
        eo_col_features(r, s, c, &b, &k, &p, &q, depth, r->nfound == 4);
        bad += b;
        blockers += k;
        pairs += p;
    }
    return eo_score_finish(r, s, w, depth, bad, blockers, pairs);
}

/* ----- the search context ------------------------------------------------------------- */

/* A context with empty buffers: each is allocated when first needed (a solve runs
 * several searches, most of which need only some of them). */
static int eo_ctx_init(eo_ctx *x) {
    x->path = NULL;
    x->is_step = NULL;
    x->pcap = 0;
    x->fr = NULL;
    x->frcap = 0;
    x->pcs = NULL;
    x->pccap = 0;
    x->kids = NULL;
    x->kcap = 0;
    x->kmv = NULL;
    x->kmv_len = x->kmv_cap = 0;
    x->plen = x->nfr = x->nkids = 0;
    x->status = EO_RUNNING;
    x->work = 0;
    x->parent = NULL;
    x->pmove = NULL;
    x->depth = NULL;
    x->idcap = 0;
    x->heap = NULL;
    x->nheap = x->heapcap = 0;
    x->hash_only = 0;
    x->is_dive = 0;
    x->hset = NULL;
    x->hmask = x->hcount = 0;
    return eo_table_init(&x->T, 1024);
}

static void eo_ctx_free(eo_ctx *x) {
    free(x->path);
    free(x->is_step);
    free(x->fr);
    free(x->pcs);
    free(x->kids);
    free(x->kmv);
    free(x->parent);
    free(x->pmove);
    free(x->depth);
    free(x->heap);
    free(x->hset);
    eo_table_free(&x->T);
}

static inline int eo_path_reserve(eo_ctx *x, int extra) {
    if (x->plen + extra <= x->pcap) return 0;
    int cap = x->pcap ? x->pcap : 256;
    while (cap < x->plen + extra) cap *= 2;
    eo_move *p = (eo_move *)realloc(x->path, (size_t)cap * sizeof(eo_move));
    if (!p) return -1;
    x->path = p;
    uint8_t *q = (uint8_t *)realloc(x->is_step, (size_t)cap);
    if (!q) return -1;
    x->is_step = q;
    x->pcap = cap;
    return 0;
}

static inline size_t eo_ctx_bytes(const eo_ctx *x) {
    return eo_table_bytes(&x->T) + (size_t)x->pcap * (sizeof(eo_move) + 1) +
           (size_t)x->frcap * sizeof(eo_frame) + (size_t)x->pccap * sizeof(eo_pcache) +
           (size_t)x->kcap * sizeof(eo_child) + x->kmv_cap * sizeof(eo_move) +
           x->idcap * (sizeof(uint32_t) + sizeof(eo_move) + sizeof(uint16_t)) +
           x->heapcap * sizeof(uint64_t) + (x->hset ? (x->hmask + 1) * sizeof(uint64_t) : 0);
}

/* Record moves already applied to x->S as one step on the path, then make and record
 * the auto-moves. */
static inline int eo_record_step(eo_ctx *x, const eo_move *ms, int n) {
    if (eo_path_reserve(x, n + 1 + x->R.total) != 0) return -1;
    memcpy(x->path + x->plen, ms, (size_t)n * sizeof(eo_move));
    memset(x->is_step + x->plen, 0, (size_t)n);
    x->is_step[x->plen] = 1;
    x->plen += n;
    int na = eo_autos(&x->R, &x->S, x->path + x->plen);
    memset(x->is_step + x->plen, 0, (size_t)na);
    x->plen += na;
    return 0;
}

/* States the current search has entered (table or hash set). */
static inline long eo_states(const eo_ctx *x) {
    return x->hash_only ? (long)x->hcount : (long)x->T.count;
}

/* The hash of one column's cards for eo_state_hash: whole 8-byte words read from the
 * column's buffer (EO_COLCAP bytes, so reading up to 15 bytes past the top card stays
 * inside it), the bytes past the top card masked off. */
static inline uint64_t eo_col_hash(const uint8_t *col, int L) {
    if (!L) return 0x51afd7ed558ccd1ULL;
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (uint64_t)L;
    int i = 0;
    for (; i + 16 <= L; i += 16) {
        uint64_t a, b;
        memcpy(&a, col + i, 8);
        memcpy(&b, col + i + 8, 8);
        h = eo_mum(a ^ 0xa0761d6478bd642fULL ^ h, b ^ 0xe7037ed1a0b428dbULL);
    }
    int rem = L - i;
    if (rem) {
        uint64_t a, b;
        memcpy(&a, col + i, 8);
        memcpy(&b, col + i + 8, 8);
        if (rem < 8) {
            a &= ((uint64_t)1 << (8 * rem)) - 1;
            b = 0;
        } else if (rem < 16) {
            b &= rem == 8 ? 0 : ((uint64_t)1 << (8 * (rem - 8))) - 1;
        }
        h = eo_mum(a ^ 0xa0761d6478bd642fULL ^ h, b ^ 0xe7037ed1a0b428dbULL);
    }
    return eo_mum(h, 0x8ebc6af09c88c6e3ULL) * 0x9E3779B97F4A7C15ULL;
}

/* The cells and foundations part of eo_state_hash, and the mix with the columns'
 * sum. */
static inline uint64_t eo_state_hash_finish(const eo_rules *r, const eo_state *s, uint64_t h) {
    if (r->nfound == 4) {
        uint64_t mask = eo_cell_bits(r, s), f;
        memcpy(&f, s->found, 4);
        h ^= eo_mum(mask ^ 0xa0761d6478bd642fULL, (f & 0xffffffffULL) ^ 0xe7037ed1a0b428dbULL);
    } else {
        for (int i = 0; i < r->ncells; i++) h += eo_mum(s->cell[i] + 0x1234567ULL, 0xe7037ed1a0b428dbULL);
        for (int f = 0; f < 4; f++) {
            int a = s->found[f], b = s->found[f + 4];
            h ^= eo_mum((uint64_t)(a < b ? a : b) << 8 | (uint64_t)(a < b ? b : a) | (uint64_t)f << 16,
                        0x8ebc6af09c88c6e3ULL + (uint64_t)f);
        }
    }
    h = eo_mum(h, 0x8ebc6af09c88c6e3ULL);
    return h ? h : 1;
}

/* A 64-bit hash of a state's canonical form, without building the key: the columns
 * and cells are combined by addition, so their order does not matter. */
static inline uint64_t eo_state_hash(const eo_rules *r, const eo_state *s) {
    uint64_t h = 0;
    for (int c = 0; c < r->ncols; c++) h += eo_col_hash(s->col[c], s->len[c]);
    return eo_state_hash_finish(r, s, h);
}

/* Enter a hash into the dive's set: 1 if new, 0 if there, -1 out of memory. */
static inline int eo_hset_insert(eo_ctx *x, uint64_t h) {
    if (!x->hset || (x->hcount + 1) * 2 > x->hmask + 1) {
        size_t n = x->hset ? (x->hmask + 1) * 2 : 256;
        uint64_t *t = (uint64_t *)calloc(n, sizeof(uint64_t));
        if (!t) return -1;
        if (x->hset) {
            for (size_t i = 0; i <= x->hmask; i++) {
                uint64_t v = x->hset[i];
                if (!v) continue;
                size_t j = (size_t)v & (n - 1);
                while (t[j]) j = (j + 1) & (n - 1);
                t[j] = v;
            }
            free(x->hset);
        }
        x->hset = t;
        x->hmask = n - 1;
    }
    size_t i = (size_t)h & x->hmask;
    while (x->hset[i]) {
        if (x->hset[i] == h) return 0;
        i = (i + 1) & x->hmask;
    }
    x->hset[i] = h;
    x->hcount++;
    return 1;
}

/* Check the limits; set status and return nonzero when one is reached. */
static inline int eo_over_limits(eo_ctx *x) {
    if (x->T.failed) {
        x->status = EO_MEMORY_LIMIT;
        return 1;
    }
    if (x->max_states > 0 && eo_states(x) >= x->max_states) {
        x->status = EO_STATE_LIMIT;
        return 1;
    }
    if ((++x->work & 1023) == 0) {
        if (x->deadline > 0 && eo_now() > x->deadline) {
            x->status = EO_TIME_LIMIT;
            return 1;
        }
        if (x->max_mem && eo_ctx_bytes(x) > x->max_mem) {
            x->status = EO_MEMORY_LIMIT;
            return 1;
        }
    }
    return 0;
}

/* All the steps to try from s: single moves, then (if enabled) the digging steps of the
 * kinds in digs (bit 1 << EO_DIG_...); pc: the state's column parts if known (their top
 * runs are used), or NULL. */
static inline int eo_all_steps_m(const eo_ctx *x, const eo_state *s, eo_move *out,
                                 const eo_pcache *pc, int digs) {
    int runs[EO_MAXCOLS];
    eo_runs_of(&x->R, pc, runs); /* else eo_search_moves_runs finds them */
    /* macros 2, purposeful steps only: no single card from a column into a cell.  The
     * dive of Baker's Game and Eight Off Easy (dive.whole_runs_to_empty) moves into an
     * empty column only a column's whole top run (as much of it as may move), and never
     * a single card: a single card there is the move into a cell the dive already leaves
     * out, paid for with a column, and a part of a run splits the run and frees less of
     * its column than the whole (a card inside a run is reached by the moves of part of
     * it onto a parent).  With 4 cells the dive made such moves whenever a column was
     * empty and thrashed below them (Baker's Game deal 671: of the 10 children of a state
     * with no free cell and one empty column, 6 moved a single column card into it, and
     * each failed).  Baker's Game 1-1000, with dive.home_stop_keeps_space: states median 266
     * -> 195, mean 2327 -> 2249 (base 300 / 2304); 1001-2000: 299 -> 220, mean 2271 ->
     * 2194 (base 376 / 2249).  Leaving out single cards only: 209 / 237; also sparing
     * Kings: 206 / 241; moving only whole runs but single cards too: 237 / 270.  Eight
     * Off Easy: 97 / 106 -> 93 / 100 (1-1000), 95 / 104 -> 92 / 97 (1001-2000).
     * FreeCell, with dive.home_stop_keeps_space: 279 / 546 -> 238 / 423 (1-2000), 286 / 530
     * -> 233 / 420 (2001-4000), median solution 98 -> 97 moves.
     * FreeCell's dive (dive.whole_runs_to_parent) also moves a column's cards onto another
     * column only as the column's whole top run, and only when all of it may move: a part
     * of a run lies on a natural parent already, so moving it onto another parent of the
     * same rank makes no new pair and frees no column; it only exposes a card of the run,
     * which the digging steps reach with a purpose (send it home, or move it onto a
     * parent).  Traced on the 200 median deals of 1-2000, column-to-column moves were
     * over half of the steps the dive backtracked out of (1 472 of 2 763).  FreeCell
     * 1-2000: states median / mean 238 / 423 -> 191 / 320, steps made per solve median 282
     * -> 220 (CPU time x0.91 / x0.76); 2001-4000: 233 / 420 -> 191 / 355; median solution
     * 97 -> 96 moves.  Allowing as much of a longer run as may move (as into an empty
     * column): 201 / 370. */
    /* Eight Off Easy (dive.cell_to_empty_needs_child): the dive moves a cell card into an
     * empty column only when a card that would lie on it (one lower, by the build rule) is
     * on top of a column or in a cell.  Else the move trades a column for a cell and
     * builds nothing: with 8 cells the dive made 28 such children in a median deal (of
     * 93 states; 40 deals of 88-98 traced) and took fewer than 2.  Deals 1-1000: states
     * median / mean 93 / 100 -> 78 / 83; with dive.home_digs_before_moves: 70 / 73 -> 54.5 / 58
     * (a card in a column's top run instead of on top: 80 / 86 alone). */
    int purposeful = x->steps == EO_STEPS_PURPOSEFUL ? EO_PURPOSEFUL : 0;
    if (purposeful && x->is_dive) /* the dive's own rules */
        purposeful |= (x->plan.dive.whole_runs_to_empty ? EO_WHOLE_TO_EMPTY : 0) |
                      (x->plan.dive.whole_runs_to_parent ? EO_WHOLE_TO_PARENT : 0) |
                      (x->plan.dive.cell_to_empty_needs_child ? EO_EMPTY_NEEDS_CHILD : 0);
    int n = eo_search_moves_runs(&x->R, s, out, runs, pc != NULL, purposeful);
    if (x->steps != EO_STEPS_SINGLE && digs)
        n += eo_macro_moves(&x->R, s, out + n, EO_MAXMOVES - n, digs, runs);
    return n;
}

static inline int eo_all_steps(const eo_ctx *x, const eo_state *s, eo_move *out,
                               const eo_pcache *pc) {
    return eo_all_steps_m(x, s, out, pc, x->dig_kinds);
}

/* The column parts of s; with hashes 0 the column hashes are left out (zero), for a
 * search that needs none (best-first: its table holds full keys). */
static inline void eo_pcache_fill_h(const eo_rules *r, const eo_state *s, eo_pcache *pc,
                                    int hashes) {
    memset(pc->depth, 255, sizeof(pc->depth));
    pc->sbad = pc->sblk = pc->sprs = 0;
    pc->sumh = 0;
    for (int c = 0; c < r->ncols; c++) {
        int b, k, p, q;
        eo_col_features(r, s, c, &b, &k, &p, &q, pc->depth, 1);
        pc->bad[c] = (uint8_t)b;
        pc->blk[c] = (uint8_t)k;
        pc->prs[c] = (uint8_t)p;
        pc->run[c] = (uint8_t)q;
        pc->sbad += b;
        pc->sblk += k;
        pc->sprs += p;
        pc->colh[c] = hashes ? eo_col_hash(s->col[c], s->len[c]) : 0;
        pc->sumh += pc->colh[c];
    }
}

static inline void eo_pcache_fill(const eo_rules *r, const eo_state *s, eo_pcache *pc) {
    eo_pcache_fill_h(r, s, pc, 1);
}

/* The column parts of a child state s from its parent's (`parent`), looking again only
 * at the columns in mask (those the step and its auto-moves touched).  One pack: a
 * card's depth is rewritten where it now lies; a card that left the columns keeps a
 * stale depth, which eo_score_finish never reads (it sets cell cards' depths to 0 and
 * reads only the next card of each foundation). */
static inline void eo_pcache_child(const eo_rules *r, const eo_state *s, const eo_pcache *parent,
                                   unsigned mask, eo_pcache *pc) {
    *pc = *parent;
    for (unsigned m = mask; m; m &= m - 1) {
        int c = __builtin_ctz(m);
        int b, k, p, q;
        eo_col_features(r, s, c, &b, &k, &p, &q, pc->depth, 1);
        pc->sbad += b - pc->bad[c];
        pc->sblk += k - pc->blk[c];
        pc->sprs += p - pc->prs[c];
        pc->bad[c] = (uint8_t)b;
        pc->blk[c] = (uint8_t)k;
        pc->prs[c] = (uint8_t)p;
        pc->run[c] = (uint8_t)q;
        uint64_t h = eo_col_hash(s->col[c], s->len[c]);
        pc->sumh += h - pc->colh[c];
        pc->colh[c] = h;
    }
}

/* The columns (bit mask) that moves touch. */
static inline unsigned eo_touched(const eo_move *ms, int n) {
    unsigned m = 0;
    for (int i = 0; i < n; i++) {
        if (ms[i].src < EO_CELL) m |= 1u << ms[i].src;
        if (ms[i].dst < EO_CELL) m |= 1u << ms[i].dst;
    }
    return m;
}

/* The dive's hash (eo_state_hash) of a child state s of the state pc was filled from,
 * whose step touched the columns in mask. */
static inline uint64_t eo_child_hash(const eo_rules *r, const eo_state *s, const eo_pcache *pc,
                                     unsigned mask) {
    uint64_t h = pc->sumh;
    for (unsigned m = mask; m; m &= m - 1) {
        int c = __builtin_ctz(m);
        h += eo_col_hash(s->col[c], s->len[c]) - pc->colh[c];
    }
    return eo_state_hash_finish(r, s, h);
}

/* The score (eo_score) of a child state s of the state pc was filled from, whose step
 * touched the columns in mask.  One pack: a card's depth is rewritten where it now
 * lies (a touched column, or 0 in a cell); a card sent home is never asked for. */
static inline int eo_child_score(const eo_rules *r, const eo_state *s, const eo_pcache *pc,
                                 unsigned mask, const eo_weights *w) {
    uint8_t depth[64];
    memcpy(depth, pc->depth, sizeof(depth));
    int bad = pc->sbad, blk = pc->sblk, prs = pc->sprs;
    for (unsigned m = mask; m; m &= m - 1) {
        int c = __builtin_ctz(m);
        int b, k, p, q;
        eo_col_features(r, s, c, &b, &k, &p, &q, depth, 1);
        bad += b - pc->bad[c];
        blk += k - pc->blk[c];
        prs += p - pc->prs[c];
    }
    return eo_score_finish(r, s, w, depth, bad, blk, prs);
}

static inline int eo_pcs_reserve(eo_ctx *x, int n) {
    if (n <= x->pccap) return 0;
    int cap = x->pccap ? x->pccap : 64;
    while (cap < n) cap *= 2;
    eo_pcache *p = (eo_pcache *)realloc(x->pcs, (size_t)cap * sizeof(eo_pcache));
    if (!p) return -1;
    x->pcs = p;
    x->pccap = cap;
    return 0;
}

/* ----- depth-first search --------------------------------------------------------------- */

/* The next draw of the depth-first search's score noise (xorshift). */
static inline uint64_t eo_rng_next(eo_ctx *x) {
    x->rng ^= x->rng << 13;
    x->rng ^= x->rng >> 7;
    x->rng ^= x->rng << 17;
    return x->rng;
}

/* Room for n more children on the stack of kids (else status: memory limit, -1). */
static inline int eo_kids_reserve(eo_ctx *x, int n) {
    if (x->nkids + n <= x->kcap) return 0;
    int cap = x->kcap ? x->kcap : 256;
    while (cap < x->nkids + n) cap *= 2;
    eo_child *k = (eo_child *)realloc(x->kids, (size_t)cap * sizeof(eo_child));
    if (!k) {
        x->status = EO_MEMORY_LIMIT;
        return -1;
    }
    x->kids = k;
    x->kcap = cap;
    return 0;
}

/* Keep a child's moves, as made when it was scored (its step's ns moves, then its na
 * auto-moves), for eo_push_kid.  -1 out of memory (status set). */
static inline int eo_kid_record(eo_ctx *x, eo_child *k, const eo_move *step, int ns,
                                const eo_move *au, int na) {
    size_t end = x->kmv_len + (size_t)(ns + na);
    if (end > x->kmv_cap) {
        size_t cap = x->kmv_cap ? x->kmv_cap : 1024;
        while (cap < end) cap *= 2;
        eo_move *p = cap <= UINT32_MAX ? (eo_move *)realloc(x->kmv, cap * sizeof(eo_move)) : NULL;
        if (!p) {
            x->status = EO_MEMORY_LIMIT;
            return -1;
        }
        x->kmv = p;
        x->kmv_cap = cap;
    }
    k->off = (uint32_t)x->kmv_len;
    k->ns = (uint8_t)ns;
    k->na = (uint8_t)na;
    memcpy(x->kmv + x->kmv_len, step, (size_t)ns * sizeof(eo_move));
    memcpy(x->kmv + x->kmv_len + ns, au, (size_t)na * sizeof(eo_move));
    x->kmv_len = end;
    return 0;
}

/* Enter a child of the current state: make its recorded moves (eo_kid_record) and put
 * them on the path, the first marked as a step: the moves eo_step and eo_autos made for
 * it in eo_expand, made again without generating them again. */
static inline int eo_push_kid(eo_ctx *x, const eo_child *k) {
    int n = k->ns + k->na;
    if (eo_path_reserve(x, n + 1) != 0) return -1;
    const eo_move *ms = x->kmv + k->off;
    eo_move *out = x->path + x->plen;
    for (int i = 0; i < n; i++) {
        out[i] = ms[i];
        eo_apply(&x->R, &x->S, &out[i]);
    }
    memset(x->is_step + x->plen, 0, (size_t)n);
    x->is_step[x->plen] = 1;
    x->plen += n;
    return 0;
}

/* The dive's first candidate where a single move sends a card home (one pack,
 * alternate colours): eo_expand tries the single moves home first and stops at the
 * first new child that sends a card home, so when the first of them leads to a new
 * state that child is the only one, and neither the other steps nor its score are
 * needed.  The first such move is the one eo_search_moves_runs makes first: from the
 * lowest column whose top card a foundation takes, else from the lowest cell.
 * Returns 1 solved (on the path), 2 the child entered (the frame's only kid), -1 a
 * limit, -2 no such move or its state seen before (then expand as usual, which meets
 * the same seen state again and goes on past it). */
static int eo_dive_home_first(eo_ctx *x, const eo_pcache *pcp) {
    const eo_rules *r = &x->R;
    eo_state *s = &x->S;
    uint64_t homeable = eo_homeable_mask(r, s);
    if (!homeable) return -2;
    eo_move m;
    int c = 0;
    for (; c < r->ncols; c++)
        if (s->len[c] && (homeable >> s->col[c][s->len[c] - 1] & 1)) break;
    if (c < r->ncols) {
        m = eo_mv(c, EO_HOME, 1);
    } else {
        int i = 0;
        while (i < r->ncells && !(s->cell[i] && (homeable >> s->cell[i] & 1))) i++;
        if (i == r->ncells) return -2;
        m = eo_mv(EO_CELL + i, EO_HOME, 1);
    }
    eo_move au[2 * 52 + 8];
    eo_apply(r, s, &m);
    int na = eo_autos_after(r, s, &m, 1) ? eo_autos(r, s, au) : 0;
    if (s->home == r->total) {
        eo_undo_all(s, au, na);
        if (eo_record_step(x, &m, 1) != 0) {
            x->status = EO_MEMORY_LIMIT;
            return -1;
        }
        x->status = EO_SOLVED;
        return 1;
    }
    unsigned mask = eo_touched(&m, 1) | eo_touched(au, na);
    int id = eo_hset_insert(x, eo_child_hash(r, s, pcp, mask));
    eo_undo_all(s, au, na);
    eo_undo(s, &m);
    if (id == -1 || eo_over_limits(x)) {
        if (x->status == EO_RUNNING) x->status = EO_MEMORY_LIMIT;
        return -1;
    }
    if (id == 0) return -2;
    if (eo_kids_reserve(x, 1) != 0) return -1;
    if (x->noise) eo_rng_next(x); /* the draw eo_expand makes for each child it enters */
    eo_child *k = &x->kids[x->nkids++];
    k->m = m;
    k->score = 0;
    if (eo_kid_record(x, k, &m, 1, au, na) != 0) return -1;
    return 2;
}

/* Generate, enter into the table, score and sort the children of the current state.
 * Returns 1 when a child wins (it is then made and on the path), 0 otherwise, -1 when a
 * limit is reached. */
static int eo_expand(eo_ctx *x, int resume) {
    const eo_rules *r = &x->R;
    eo_state *s = &x->S;
    eo_move ms[EO_MAXMOVES];
    eo_move step[EO_STEPMAX];
    eo_move au[2 * 52 + 8];
    uint8_t key[EO_MAXKEY];
    int incremental = r->nfound == 4;
    eo_pcache *pcp = NULL;
    if (incremental) {
        int f = x->nfr - 1;
        if (eo_pcs_reserve(x, x->nfr) != 0) {
            x->status = EO_MEMORY_LIMIT;
            return -1;
        }
        pcp = &x->pcs[f];
        if (resume) {
            /* the same state expanded again: its column parts are made already */
        } else if (f >= 1) {
            eo_pcache_child(r, s, &x->pcs[f - 1],
                            eo_touched(x->path + x->fr[f].path0, x->plen - x->fr[f].path0), pcp);
        } else {
            eo_pcache_fill(r, s, pcp);
        }
    }
    if (x->is_dive && x->plan.dive.home_moves_first && resume != 2) {
        int q = eo_dive_home_first(x, pcp);
        if (q != -2) return q == 2 ? 0 : q;
    }
    /* Eight Off Easy (dive.home_digs_before_moves): the dive stops at the first step
     * that sends a card home, and with 8 cells most expansions have one, a dig home, which
     * came after every single move: those were generated, made and scored first.  Now the
     * dive first generates the digging steps alone (pass 0) and tries the digs home, fewest
     * cards first, taking the first that leaves at most one empty cell or column fewer
     * (with its auto-moves); only if none does are the single moves generated (pass 1),
     * followed by the other digging steps and the digs put off.  When the dig taken first
     * fails, the state is expanded again with every step, as without this rule (resume;
     * eo_dfs_run), so the dive keeps what it had to fall back on.  Deals 1-1000, states
     * median / mean (p99, max): 93 / 100 (247, 429) -> 70 / 73 (207, 301); with
     * dive.cell_to_empty_needs_child, 78 / 83 -> 54.5 / 58 (187, 360); only the digs of at
     * most 2 cards first: 57 / 60 (193, 333), the same time; at most 1: 61 / 67.  Without
     * the resume the dive left 82 of deals 1-2000 unsolved instead of 39 (now 12); at most
     * 2 cards without it: 57 / 65 (246, 548); any dig without it and with no condition on
     * space: 57 / 84 (422, 1324); putting off the digs that lose any space: 61 / 65, but
     * time x1.14 (they are made twice).  Eight Off and Seahaven Towers take this rule too
     * (plan_for): Eight Off 1-1000 states 67 / 129 -> 51 / 109. */
    int first = !resume && x->is_dive && x->plan.dive.home_digs_before_moves && pcp &&
                x->steps != EO_STEPS_SINGLE;
    /* FreeCell (dive_parent_digs_last, the first dive of its portfolio: method 3): the digs
     * that move a card onto a parent elsewhere (EO_DIG_PARENT, and a King's into an empty
     * column, EO_DIG_EMPTY) are left out of the state's first expansion; only once every
     * other child has failed is the state expanded again (resume 2, eo_dfs_run) with those
     * digs alone.  Traced on the 767 median deals of FreeCell 1-2000 (150-210 states), the
     * dive made 171 steps a deal (0.43 us each, about 70% of the time of a solve; a full
     * expansion's own cost 0.6 us), of which 37 were such digs, the first choice in 6 of 46
     * expansions.  Left for last, the dive enters states median / mean 177 / 308 -> 147 /
     * 287 on deals 1-2000 (2001-4000: 177 / 340 -> 148 / 301), median solution 95 moves,
     * but some deals go far astray (617: 376 -> 11 667 states; time mean x1.03, p99 x1.28):
     * so the plain dive follows it in the portfolio (plan_for): states 147 / 270 and 148 /
     * 288, CPU time (interleaved, best of 5) median x0.84 / x0.84, mean x0.91 / x0.87, max
     * 21.6 -> 8.6 ms and 15.0 -> 7.2 ms, median solution 95 and 96 moves.  (Leaving out the cell cards into an empty column too: 142 / 283
     * but 97 moves; the whole runs into one too: 135 / 310, 98 moves; only the digs of 2
     * or more cards: 162 / 309; of 3 or more: 171 / 313.) */
    int later = !resume && !first && x->is_dive && x->dive_parent_digs_last &&
                x->steps != EO_STEPS_SINGLE &&
                (x->dig_kinds & 1 << EO_DIG_PARENT);
    int pass = first ? 0 : 1, n, nmac = 0, stopped = 0, k0 = x->nkids;
    eo_move mac[EO_MAXMOVES];
    /* (dive.cell_to_parent_first, see below) cp: the rule holds here; cp_tried: pass 2
     * made those moves already, none leading to a new state */
    int cp = x->is_dive && x->plan.dive.cell_to_parent_first &&
             s->free_cells <= EO_CELL_TO_PARENT_FREE;
    int cp_tried = 0;
again:
    if (pass == 0) {
        /* the digs home alone (mac: those put off to pass 1) */
        n = (x->dig_kinds & 1 << EO_DIG_HOME) ? eo_dig_home_moves(r, s, pcp, ms) : 0;
    } else if (pass == 2) {
        n = eo_cell_to_parent_moves(r, s, ms);
    } else if (first) {
        /* the single moves, the other digs (in eo_macro_moves' order), the digs home put
         * off */
        n = eo_all_steps_m(x, s, ms, pcp, x->dig_kinds & ~(1 << EO_DIG_HOME));
        for (int i = 0; i < nmac && n < EO_MAXMOVES; i++) ms[n++] = mac[i];
    } else if (resume == 2) { /* (dive_parent_digs_last) the other steps failed */
        int runs[EO_MAXCOLS];
        n = eo_macro_moves(r, s, ms, EO_MAXMOVES, 1 << EO_DIG_PARENT, eo_runs_of(r, pcp, runs));
    } else {
        n = eo_all_steps_m(x, s, ms, pcp, later ? x->dig_kinds & ~(1 << EO_DIG_PARENT) : x->dig_kinds);
    }
    if (x->is_dive && x->plan.dive.home_moves_first) {
        /* the dive stops at the first step that sends a card home (below): try the
         * single moves home first (stable), so that it scores no sibling before them
         * (FreeCell 1-2000: 3% fewer states, median solution 100 -> 98.5 moves).  One
         * pack, alternate colours only: not measured on Double FreeCell, and building in
         * suit the safe rule sends every card a foundation takes home at once. */
        /* FreeCell (dive.dig_home_first): the digging steps that send a card home come
         * right after the single moves home, before the other single moves: the dive stops
         * at the first such step that fills no cell or column (dive.home_stop_keeps_space), and
         * scores no sibling before it; one that fills some is scored first, and its ties
         * go first.  With dive.whole_runs_to_parent, FreeCell 1-2000: states median / mean
         * 191 / 320 -> 177 / 308, time x0.97 / x0.99, median solution 96 -> 95 moves;
         * 2001-4000: 191 / 355 -> 177 / 340.  (Round 2 tried this before the two rules of
         * round 3b: mean +90%.) */
        int h = 0;
        int dig_home = x->plan.dive.dig_home_first ? EO_MACRO + EO_DIG_HOME : -1;
        for (int i = 0; i < n; i++)
            if (ms[i].dst == EO_HOME || ms[i].src == dig_home) {
                eo_move t = ms[i];
                memmove(ms + h + 1, ms + h, (size_t)(i - h) * sizeof(eo_move));
                ms[h++] = t;
            }
    }
    /* Eight Off Easy (dive.cell_to_parent_first): when at most EO_CELL_TO_PARENT_FREE
     * cells are free, the moves of a cell card onto its parent on top of a column come
     * first among the steps after the digs home, and the dive takes the first that leads
     * to a new state without making its siblings, as it does with a step home.  Such a
     * move frees a cell and builds on a column; traced on the median deals of 1-1000
     * (round 4), the dive made about 13 of them a deal and scored 11, but took fewer than
     * 3: each expansion scored them with the column moves and digs beside them.  After a
     * first pass (dive.home_digs_before_moves) they are made alone (pass 2), before the
     * other steps are generated, and left out of pass 1 when none led to a new state; else
     * they go first in pass 1 (stable).  Deals 1-1000, instructions per solve (valgrind,
     * median / mean) 157.9k / 185.1k -> 134.7k / 162.5k, states 54 / 58 -> 40 / 46, median
     * solution 81 moves both; 1001-2000: 158.2k / 180.7k -> 132.8k / 160.8k, 54 / 58 -> 40
     * / 45, 80 -> 81 moves.  (Trying them first in pass 1 instead of alone before it, the
     * same search: 142.7k / 170.5k on 1-1000.)  At any number of free cells: more
     * instructions on the mean and the p99 on 1001-2000 (+3%, +8%) and 82 moves: with many
     * free cells the dive never chose such a move, the cell card is better left there; at
     * most 1, 2 or 4 free cells: as good as 3, or a little worse. */
    int onto_parent_first = cp && (pass == 2 || (pass == 1 && !cp_tried));
    if (cp && pass == 1) {
        int h = 0;
        for (int i = 0; i < n; i++) {
            eo_move t = ms[i];
            if (t.src >= EO_CELL && t.src < EO_FOUND && t.dst < EO_CELL && s->len[t.dst]) {
                if (cp_tried) continue; /* made in pass 2 */
                memmove(ms + h + 1, ms + h, (size_t)(i - h) * sizeof(eo_move));
                ms[h++] = t;
            } else if (cp_tried) {
                ms[h++] = t;
            }
        }
        if (cp_tried) n = h;
    }
    if (eo_kids_reserve(x, n) != 0) return -1;
    int home0 = s->home, space0 = s->free_cells + s->free_cols;
    /* When the step to this state was one single move and no auto-move followed, the
     * move back leads to the state before it, which was entered: left out unmade. */
    eo_move back = eo_mv(255, 255, 0);
    {
        const eo_frame *fr = &x->fr[x->nfr - 1];
        if (x->nfr >= 2 && x->plen - fr->path0 == 1) {
            eo_move last = x->path[fr->path0];
            if (last.src < EO_FOUND && last.dst < EO_FOUND) back = eo_mv(last.dst, last.src, last.n);
        }
    }
    for (int i = 0; i < n; i++) {
        /* (dive.cell_to_parent_first) a cell card onto its parent: the dive stops there */
        int onto_parent = onto_parent_first && ms[i].src >= EO_CELL && ms[i].src < EO_FOUND &&
                          ms[i].dst < EO_CELL && s->len[ms[i].dst];
        if (ms[i].src == back.src && ms[i].dst == back.dst && ms[i].n == back.n) {
            if (eo_over_limits(x)) {
                if (x->status == EO_RUNNING) x->status = EO_MEMORY_LIMIT;
                return -1;
            }
            continue;
        }
        int ns = eo_step(r, s, ms[i], step);
        if (ns < 0) continue;
        int na = eo_autos_after(r, s, step, ns) ? eo_autos(r, s, au) : 0;
        if (s->home == r->total) {
            eo_undo_all(s, au, na);
            if (eo_record_step(x, step, ns) != 0) {
                x->status = EO_MEMORY_LIMIT;
                return -1;
            }
            x->status = EO_SOLVED;
            return 1;
        }
        int space = s->free_cells + s->free_cols; /* empty cells and columns left */
        if (pass == 0 && space < space0 - 1) { /* put off to pass 1 */
            eo_undo_all(s, au, na);
            eo_undo_all(s, step, ns);
            mac[nmac++] = ms[i];
            continue;
        }
        unsigned mask = incremental ? eo_touched(step, ns) | eo_touched(au, na) : 0;
        long id;
        if (x->hash_only) {
            /* the hash first: a state seen before is not scored */
            id = eo_hset_insert(x, incremental ? eo_child_hash(r, s, pcp, mask)
                                               : eo_state_hash(r, s));
            if (id == 0) id = -2;
        } else {
            id = eo_table_insert(&x->T, key, eo_key(r, s, key));
        }
        int progress = 0;
        if (id >= 0) {
            eo_child *c = &x->kids[x->nkids++];
            c->m = ms[i];
            if (eo_kid_record(x, c, step, ns, au, na) != 0) return -1;
            progress = s->home > home0;
            /* Baker's Game (dive.home_stop_keeps_space): building in suit, the safe rule sends
             * home every card a foundation takes, so "sends a card home" includes digging
             * steps that fill empty cells to reach a card, and the dive took the first
             * such step even when it filled every cell (deal 709: a dig of 4 cards, then
             * no purposeful step; the dive ran out after 2 states).  Of the 766 solvable
             * deals of 1-1000 the dive solved 522; 208 of the others it left by running
             * out of steps, for the best-first stage to solve afresh.  A step that fills a
             * cell or a column is therefore scored with its siblings instead: the dive
             * solves 663, and the whole solve's states fall from a median of 300 to 266
             * (deals 1001-2000: 376 to 299), the mean rising 1% (the dive now goes on
             * longer in deals that are lost).  Not stopping at all: median 278; stopping
             * only at single moves home: 276; allowing one cell: 285.  FreeCell's dive
             * takes this rule with dive.whole_runs_to_empty (plan_for): alone it was worse
             * there, together they cut the states by a fifth. */
            if (progress && x->plan.dive.home_stop_keeps_space && space < space0) progress = 0;
            if (onto_parent) progress = 1;
            /* a child of the dive that will be its state's only one, the dive stopping at it
             * or it being the last step, needs no score (first in dive.home_digs_before_moves;
             * every dive since round 4; FreeCell 1-2000, round 3c's dive: 10 of the 161 scores of
             * a median deal; CPU time x0.99, the same states and solutions) */
            int lone = x->is_dive && x->nkids == k0 + 1 && ((pass == 1 && i == n - 1) || progress);
            c->score = lone          ? 0
                       : incremental ? eo_child_score(r, s, pcp, mask, &x->w)
                                     : eo_score(r, s, &x->w);
            if (x->noise) c->score += (int32_t)(eo_rng_next(x) % (uint64_t)x->noise);
        }
        eo_undo_all(s, au, na);
        eo_undo_all(s, step, ns);
        if (id == -1 || eo_over_limits(x)) {
            if (x->status == EO_RUNNING) x->status = EO_MEMORY_LIMIT;
            return -1;
        }
        /* the dive takes the first step that sends a card home, untried siblings left
         * out (it is greedy, and never a proof) */
        if (progress && x->is_dive) {
            stopped = 1;
            break;
        }
    }
    if (pass == 0 && !stopped) {
        pass = cp ? 2 : 1;
        goto again;
    }
    if (pass == 2 && !stopped) {
        pass = 1;
        if (n)
            cp_tried = 1;
        else
            cp = 0; /* none: nothing to leave out or to stop at */
        goto again;
    }
    if (pass == 0) x->fr[x->nfr - 1].more = 1; /* the other steps only if it fails */
    if (later && !stopped) x->fr[x->nfr - 1].more = 2; /* the digs onto a parent if it fails */
    /* insertion sort, best first, stable */
    for (int i = k0 + 1; i < x->nkids; i++) {
        eo_child c = x->kids[i];
        int j = i;
        while (j > k0 && x->kids[j - 1].score < c.score) {
            x->kids[j] = x->kids[j - 1];
            j--;
        }
        x->kids[j] = c;
    }
    return 0;
}

static inline int eo_push_frame(eo_ctx *x, int path0) {
    if (x->nfr == x->frcap) {
        int cap = x->frcap ? x->frcap * 2 : 128;
        eo_frame *f = (eo_frame *)realloc(x->fr, (size_t)cap * sizeof(eo_frame));
        if (!f) return -1;
        x->fr = f;
        x->frcap = cap;
    }
    eo_frame *f = &x->fr[x->nfr++];
    f->kid0 = x->nkids;
    f->kmv0 = x->kmv_len;
    f->nkids = 0;
    f->next = 0;
    f->path0 = path0;
    f->more = 0;
    return 0;
}

/* Start a depth-first search from x->S (whose root auto-moves are already on the
 * path): enter the root and expand it.  Returns nonzero when that already ended the
 * search (x->status says how). */
static int eo_dfs_begin(eo_ctx *x) {
    const eo_rules *r = &x->R;
    uint8_t key[EO_MAXKEY];
    if (x->S.home == r->total) {
        x->status = EO_SOLVED;
        return 1;
    }
    long id = x->hash_only ? eo_hset_insert(x, eo_state_hash(r, &x->S))
                           : eo_table_insert(&x->T, key, eo_key(r, &x->S, key));
    if (id < 0 || eo_push_frame(x, x->plen) != 0) {
        x->status = EO_MEMORY_LIMIT;
        return 1;
    }
    if (eo_expand(x, 0)) return 1;
    x->fr[0].nkids = x->nkids - x->fr[0].kid0;
    return 0;
}

/* Go on with a depth-first search until it ends (x->status set) or, with until > 0,
 * until it has entered `until` states (x->status still EO_RUNNING: it can resume).
 * On success the path leads from the root to a won state. */
static void eo_dfs_run(eo_ctx *x, long until) {
    while (x->nfr) {
        if (until > 0 && eo_states(x) >= until) return;
        eo_frame *f = &x->fr[x->nfr - 1];
        if (f->next == f->nkids && f->more) {
            /* the dig home taken first failed (dive.home_digs_before_moves, more 1): the
             * other steps; or the other steps failed (dive_parent_digs_last, more 2): the
             * digs onto a parent */
            int more = f->more;
            f->more = 0;
            if (eo_expand(x, more)) return;
            f = &x->fr[x->nfr - 1];
            f->nkids = x->nkids - f->kid0;
            continue;
        }
        if (f->next == f->nkids) {
            x->nkids = f->kid0;
            x->kmv_len = f->kmv0;
            while (x->plen > f->path0) eo_undo(&x->S, &x->path[--x->plen]);
            x->nfr--;
            continue;
        }
        const eo_child *k = &x->kids[f->kid0 + f->next++];
        int path0 = x->plen;
        if (eo_push_kid(x, k) != 0 || eo_push_frame(x, path0) != 0) {
            x->status = EO_MEMORY_LIMIT;
            return;
        }
        f = &x->fr[x->nfr - 1];
        if (eo_expand(x, 0)) return;
        f->nkids = x->nkids - f->kid0;
    }
    x->status = EO_LOST;
}

/* Depth-first search from x->S (whose root auto-moves are already on the path).
 * Sets x->status; on success the path leads from the root to a won state. */
static void eo_dfs(eo_ctx *x) {
    if (!eo_dfs_begin(x)) eo_dfs_run(x, 0);
}

/* ----- best-first search ------------------------------------------------------------------ */

/* The state of a canonical key (columns and cells in canonical order). */
static void eo_decode(const eo_rules *r, const uint8_t *key, eo_state *s) {
    const uint8_t *p = key;
    if (r->nfound == 4) {
        memcpy(s->found, p, 4);
        p += 4;
    } else {
        for (int f = 0; f < 4; f++) {
            s->found[f] = *p++;
            s->found[f + 4] = *p++;
        }
    }
    if (r->nfound == 4) {
        uint64_t mask;
        memcpy(&mask, p, 8);
        p += 8;
        int n = 0;
        for (uint64_t m = mask; m; m &= m - 1) n++;
        int i = 0;
        for (; i < r->ncells - n; i++) s->cell[i] = 0;
        for (uint64_t m = mask; m; m &= m - 1) s->cell[i++] = (uint8_t)__builtin_ctzll(m);
    } else {
        memcpy(s->cell, p, (size_t)r->ncells);
        p += r->ncells;
    }
    for (int c = 0; c < r->ncols; c++) {
        int L = *p++;
        s->len[c] = (uint8_t)L;
        memcpy(s->col[c], p, (size_t)L);
        p += L;
    }
    eo_recount(r, s);
}

/* How layout a maps onto the canonically equal layout b: column, cell and foundation
 * of b for each of a.  Moves made on both keep them equal under the same map. */
typedef struct {
    uint8_t col[EO_MAXCOLS], cell[EO_MAXCELLS], found[EO_MAXFOUND];
} eo_layout_map;

static void eo_layout_map_of(const eo_rules *r, const eo_state *a, const eo_state *b,
                             eo_layout_map *mp) {
    int pa[EO_MAXCOLS], pb[EO_MAXCOLS], ca[EO_MAXCELLS], cb[EO_MAXCELLS];
    eo_canon_order(r, a, pa, ca);
    eo_canon_order(r, b, pb, cb);
    for (int k = 0; k < r->ncols; k++) mp->col[pa[k]] = (uint8_t)pb[k];
    for (int k = 0; k < r->ncells; k++) mp->cell[ca[k]] = (uint8_t)cb[k];
    for (int f = 0; f < r->nfound; f++)
        mp->found[f] = (uint8_t)((r->nfound == 8 && b->found[f] != a->found[f]) ? f ^ 4 : f);
}

static inline eo_move eo_map_by(const eo_layout_map *mp, eo_move m) {
    uint8_t *ends[2] = {&m.src, &m.dst};
    for (int e = 0; e < 2; e++) {
        int v = *ends[e];
        if (v < EO_CELL)
            *ends[e] = mp->col[v];
        else if (v < EO_FOUND)
            *ends[e] = (uint8_t)(EO_CELL + mp->cell[v - EO_CELL]);
        else if (v < EO_HOME)
            *ends[e] = (uint8_t)(EO_FOUND + mp->found[v - EO_FOUND]);
    }
    return m;
}

/* Make on x->S (real layout) the step `m` given in the layout of `a`, canonically
 * equal to x->S, with its auto-moves, and record them.  The auto-moves are chosen in
 * the layout of `a` and mapped too: with two packs, which of two equal cards goes home
 * depends on the layout, and the result must stay canonically equal to the state the
 * search reached. */
static int eo_push_mapped_step(eo_ctx *x, const eo_state *a, eo_move m) {
    eo_state canon = *a;
    eo_move ms[EO_STEPMAX + 2 * 52 + 8];
    int n = eo_step(&x->R, &canon, m, ms);
    if (n < 0) return -1;
    int na = eo_autos(&x->R, &canon, ms + n);
    if (eo_path_reserve(x, n + na) != 0) return -1;
    eo_layout_map mp;
    eo_layout_map_of(&x->R, a, &x->S, &mp);
    for (int i = 0; i < n + na; i++) {
        eo_move mm = eo_map_by(&mp, ms[i]);
        eo_apply(&x->R, &x->S, &mm);
        x->is_step[x->plen] = i == 0;
        x->path[x->plen++] = mm;
    }
    return 0;
}

static inline int eo_ids_reserve(eo_ctx *x, size_t n) {
    if (n <= x->idcap) return 0;
    size_t cap = x->idcap ? x->idcap : 1024;
    while (cap < n) cap *= 2;
    uint32_t *pa = (uint32_t *)realloc(x->parent, cap * sizeof(uint32_t));
    if (!pa) return -1;
    x->parent = pa;
    eo_move *pm = (eo_move *)realloc(x->pmove, cap * sizeof(eo_move));
    if (!pm) return -1;
    x->pmove = pm;
    uint16_t *d = (uint16_t *)realloc(x->depth, cap * sizeof(uint16_t));
    if (!d) return -1;
    x->depth = d;
    x->idcap = cap;
    return 0;
}

static inline int eo_heap_push(eo_ctx *x, int32_t score, uint32_t id) {
    if (x->nheap == x->heapcap) {
        size_t cap = x->heapcap ? x->heapcap * 2 : 1024;
        uint64_t *h = (uint64_t *)realloc(x->heap, cap * sizeof(uint64_t));
        if (!h) return -1;
        x->heap = h;
        x->heapcap = cap;
    }
    /* ties: the newest state first */
    uint64_t v = (uint64_t)((uint32_t)score ^ 0x80000000U) << 32 | id;
    size_t i = x->nheap++;
    while (i) {
        size_t up = (i - 1) >> 1;
        if (x->heap[up] >= v) break;
        x->heap[i] = x->heap[up];
        i = up;
    }
    x->heap[i] = v;
    return 0;
}

static inline uint32_t eo_heap_pop(eo_ctx *x) {
    uint64_t top = x->heap[0];
    uint64_t v = x->heap[--x->nheap];
    size_t n = x->nheap, i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && x->heap[c + 1] > x->heap[c]) c++;
        if (x->heap[c] <= v) break;
        x->heap[i] = x->heap[c];
        i = c;
    }
    if (n) x->heap[i] = v;
    return (uint32_t)(top & 0xffffffffULL);
}

static inline const uint8_t *eo_key_of(const eo_table *t, uint32_t id) {
    return t->arena + t->offs[id] + 1;
}

/* Put on the path the steps from the root (x->S, real layout, after its auto-moves)
 * to state `id`, then `last` (a step in the canonical layout of `id`). */
static int eo_befs_path(eo_ctx *x, uint32_t id, eo_move last) {
    const eo_rules *r = &x->R;
    size_t n = 0;
    for (uint32_t i = id; i != 0; i = x->parent[i]) n++;
    /* ids[0] is the root, ids[n] == id; ids[j + 1] was reached from ids[j] */
    uint32_t *ids = (uint32_t *)malloc((n + 1) * sizeof(uint32_t));
    if (!ids) return -1;
    size_t k = n;
    for (uint32_t i = id; i != 0; i = x->parent[i]) ids[k--] = i;
    ids[0] = 0;
    eo_state canon;
    for (size_t j = 0; j <= n; j++) {
        eo_move m = j < n ? x->pmove[ids[j + 1]] : last;
        eo_decode(r, eo_key_of(&x->T, ids[j]), &canon);
        if (eo_push_mapped_step(x, &canon, m) != 0) {
            free(ids);
            return -1;
        }
    }
    free(ids);
    return 0;
}

/* Best-first search from x->S (root auto-moves already on the path): always expand the
 * open state with the best score (heuristic, minus w.per_move per move made that is not home). */
static int eo_befs_begin(eo_ctx *x) {
    const eo_rules *r = &x->R;
    uint8_t key[EO_MAXKEY];
    if (x->S.home == r->total) {
        x->status = EO_SOLVED;
        return 1;
    }
    if (eo_table_insert(&x->T, key, eo_key(r, &x->S, key)) != 0 || eo_ids_reserve(x, 1) != 0 ||
        eo_heap_push(x, 0, 0) != 0) {
        x->status = EO_MEMORY_LIMIT;
        return 1;
    }
    x->parent[0] = 0;
    x->depth[0] = 0;
    return 0;
}

/* Go on with a best-first search until it ends (x->status set) or, with until > 0,
 * until its table holds `until` states (x->status still EO_RUNNING: it can resume). */
static void eo_befs_run(eo_ctx *x, long until) {
    const eo_rules *r = &x->R;
    uint8_t key[EO_MAXKEY];
    eo_move ms[EO_MAXMOVES];
    eo_move step[EO_STEPMAX];
    eo_move au[2 * 52 + 8];
    eo_state s;
    eo_pcache pc;
    int incremental = r->nfound == 4;
    while (x->nheap) {
        if (until > 0 && (long)x->T.count >= until) return;
        uint32_t id = eo_heap_pop(x);
        eo_decode(r, eo_key_of(&x->T, id), &s);
        int depth0 = x->depth[id];
        if (incremental) eo_pcache_fill_h(r, &s, &pc, 0);
        int n = eo_all_steps(x, &s, ms, incremental ? &pc : NULL);
        for (int i = 0; i < n; i++) {
            int ns = eo_step(r, &s, ms[i], step);
            if (ns < 0) continue;
            int na = eo_autos_after(r, &s, step, ns) ? eo_autos(r, &s, au) : 0;
            if (s.home == r->total) {
                if (eo_befs_path(x, id, ms[i]) != 0) {
                    x->status = EO_MEMORY_LIMIT;
                    return;
                }
                x->status = EO_SOLVED;
                return;
            }
            long cid = eo_table_insert(&x->T, key, eo_key(r, &s, key));
            int depth = depth0;
            for (int j = 0; j < ns; j++) depth += step[j].dst < EO_FOUND;
            if (cid >= 0) {
                if (eo_ids_reserve(x, (size_t)cid + 1) != 0 ||
                    eo_heap_push(x,
                                 (incremental ? eo_child_score(r, &s, &pc,
                                                               eo_touched(step, ns) | eo_touched(au, na),
                                                               &x->w)
                                              : eo_score(r, &s, &x->w)) - x->w.per_move * depth,
                                 (uint32_t)cid) != 0) {
                    x->status = EO_MEMORY_LIMIT;
                    return;
                }
                x->parent[cid] = id;
                x->pmove[cid] = ms[i];
                x->depth[cid] = (uint16_t)(depth < 65535 ? depth : 65535);
            }
            eo_undo_all(&s, au, na);
            eo_undo_all(&s, step, ns);
            if (cid == -1 || eo_over_limits(x)) {
                if (x->status == EO_RUNNING) x->status = EO_MEMORY_LIMIT;
                return;
            }
        }
    }
    x->status = EO_LOST;
}

/* Best-first search from x->S (root auto-moves already on the path). */
static void eo_befs(eo_ctx *x) {
    if (!eo_befs_begin(x)) eo_befs_run(x, 0);
}

/* ----- shortening a solution --------------------------------------------------------------- */

/* Remember that the state with this key is reached after `step` steps (the latest). */
static inline void eo_index_step(eo_table *tab, int *step_of, const uint8_t *key, int len,
                                 int step) {
    long id = eo_table_insert(tab, key, len);
    if (id >= 0)
        step_of[id] = step;
    else if (id <= -2)
        step_of[-id - 2] = step;
}

/* Rebuild the path from `root` (state after the root auto-moves, whose moves are
 * path[0..root_len)) so that from each state it jumps to the latest state of the old
 * path that one single move reaches.  Returns 0, or -1 on allocation failure (path
 * unchanged). */
static int eo_shorten(eo_ctx *x, const eo_state *root, int root_len) {
    const eo_rules *r = &x->R;
    int nsteps = 0;
    for (int i = root_len; i < x->plen; i++) nsteps += x->is_step[i];
    if (nsteps < 2) return 0;
    eo_state *states = (eo_state *)malloc((size_t)(nsteps + 1) * sizeof(eo_state));
    int *first = (int *)malloc((size_t)(nsteps + 1) * sizeof(int));
    int *step_of = (int *)malloc((size_t)(nsteps + 1) * sizeof(int));
    eo_move *out = (eo_move *)malloc((size_t)(x->plen + 8) * sizeof(eo_move));
    uint8_t *out_step = (uint8_t *)malloc((size_t)(x->plen + 8));
    eo_table tab;
    if (!states || !first || !step_of || !out || !out_step ||
        eo_table_init(&tab, (size_t)nsteps * 2) != 0) {
        free(states);
        free(first);
        free(step_of);
        free(out);
        free(out_step);
        return -1;
    }
    uint8_t key[EO_MAXKEY];
    eo_state s = *root;
    int step = 0;
    states[0] = s;
    eo_index_step(&tab, step_of, key, eo_key(r, &s, key), 0);
    for (int i = root_len; i < x->plen; i++) {
        if (x->is_step[i]) first[step] = i;
        eo_move m = x->path[i];
        eo_apply(r, &s, &m);
        if (i + 1 == x->plen || x->is_step[i + 1]) {
            step++;
            states[step] = s;
            eo_index_step(&tab, step_of, key, eo_key(r, &s, key), step);
        }
    }
    first[nsteps] = x->plen;
    memcpy(out, x->path, (size_t)root_len * sizeof(eo_move));
    memset(out_step, 0, (size_t)root_len);
    int olen = root_len;
    eo_state cur = *root;
    eo_move ms[EO_MAXMOVES];
    eo_move au[2 * 52 + 8];
    int i = 0;
    int ok = 1;
    while (i < nsteps) {
        int n = eo_search_moves(r, &cur, ms);
        int best = -1, bestj = i + 1;
        for (int k = 0; k < n; k++) {
            eo_move m = ms[k];
            eo_apply(r, &cur, &m);
            int na = eo_autos(r, &cur, au);
            long id = eo_table_find(&tab, key, eo_key(r, &cur, key));
            long j = id >= 0 ? step_of[id] : -1;
            if (j > bestj) {
                bestj = (int)j;
                best = k;
            }
            eo_undo_all(&cur, au, na);
            eo_undo(&cur, &m);
        }
        if (olen + (first[i + 1] - first[i]) + 1 + r->total > x->plen + 8) {
            ok = 0;
            break;
        }
        if (best >= 0) {
            eo_move m = ms[best];
            eo_apply(r, &cur, &m);
            out_step[olen] = 1;
            out[olen++] = m;
            int na = eo_autos(r, &cur, out + olen);
            memset(out_step + olen, 0, (size_t)na);
            olen += na;
            i = bestj;
        } else {
            /* follow the old path's step i, mapped onto the current layout */
            eo_layout_map mp;
            eo_layout_map_of(r, &states[i], &cur, &mp);
            for (int p = first[i]; p < first[i + 1]; p++) {
                eo_move m = eo_map_by(&mp, x->path[p]);
                eo_apply(r, &cur, &m);
                out_step[olen] = p == first[i];
                out[olen++] = m;
            }
            i++;
        }
    }
    if (ok && cur.home == r->total && olen <= x->plen) {
        memcpy(x->path, out, (size_t)olen * sizeof(eo_move));
        memcpy(x->is_step, out_step, (size_t)olen);
        x->plen = olen;
        x->S = cur;
    }
    eo_table_free(&tab);
    free(states);
    free(first);
    free(step_of);
    free(out);
    free(out_step);
    return 0;
}

/* Forget a search (its table, stacks and queue) to start another from `root`. */
static int eo_reset(eo_ctx *x, const eo_state *root, int root_len) {
    eo_table_free(&x->T);
    if (eo_table_init(&x->T, 1024) != 0) return -1;
    x->S = *root;
    x->plen = root_len;
    x->nfr = x->nkids = 0;
    x->kmv_len = 0;
    x->nheap = 0;
    x->hcount = 0;
    if (x->hset) memset(x->hset, 0, (x->hmask + 1) * sizeof(uint64_t));
    x->status = EO_RUNNING;
    return 0;
}

/* One search from x->S in the given order (EO_DEPTH_FIRST, EO_BEST_FIRST) over the given
 * steps (EO_STEPS_...). */
static void eo_run_search(eo_ctx *x, int order, int steps) {
    x->steps = steps;
    if (order == EO_BEST_FIRST)
        eo_befs(x);
    else
        eo_dfs(x);
}

/* The dive as a portfolio (after Freecell Solver's soft threads): x->nport searches
 * over purposeful steps, greedy depth-first dives or best-first searches, each with
 * its own weights (and, depth-first, score noise) and its own seen states, all from
 * `root` (whose auto-moves are
 * path[0..root_len)), run in turns: in round k each member goes on until it has
 * entered port_quota << k states; a member that runs out of steps drops out.  The
 * first to win gives the path.  Ends (x->status) solved, EO_STATE_LIMIT once the
 * members together have entered `budget` states or all dropped out (no proof:
 * none is complete), or a time or memory limit.  Returns the states entered. */
static long eo_portfolio(eo_ctx *x, const eo_state *root, int root_len, long budget) {
    int k = x->nport;
    eo_ctx *ms = (eo_ctx *)calloc((size_t)k, sizeof(eo_ctx));
    int *live = (int *)calloc((size_t)k, sizeof(int));
    long total = 0;
    x->status = EO_STATE_LIMIT;
    if (!ms || !live) {
        free(ms);
        free(live);
        x->status = EO_MEMORY_LIMIT;
        return 0;
    }
    int ok = 1;
    for (int i = 0; i < k && ok; i++) {
        eo_ctx *m = &ms[i];
        m->R = x->R;
        m->S = *root;
        if (eo_ctx_init(m) != 0 || eo_path_reserve(m, root_len + 1) != 0) {
            ok = 0;
            break;
        }
        memcpy(m->path, x->path, (size_t)root_len * sizeof(eo_move));
        memset(m->is_step, 0, (size_t)root_len);
        m->plen = root_len;
        const eo_member *p = &x->port[i];
        m->w = p->weights;
        m->noise = p->noise;
        m->plan.dive = x->plan.dive;
        m->rng = 0x9E3779B97F4A7C15ULL * (uint64_t)(i + 1) | 1;
        m->deadline = x->deadline;
        m->max_mem = x->max_mem / (size_t)k; /* the members share the memory limit */
        int befs = p->method == EO_METHOD_BEST_FIRST || p->method == EO_METHOD_BEST_FIRST_NO_TARGET;
        m->dive_parent_digs_last = p->method == EO_METHOD_DIVE_PARENT_DIGS_LAST;
        m->hash_only = m->is_dive = !befs;
        m->steps = EO_STEPS_PURPOSEFUL;
        /* the costliest kind of dig, moving a card onto a dug one, is left out by the
         * dive and by best-first members of method 2 */
        m->dig_kinds = p->method == EO_METHOD_BEST_FIRST ? EO_DIGS_ALL : EO_DIGS_ALL & ~(1 << EO_DIG_TARGET);
        m->status = EO_RUNNING;
        live[i] = 1; /* begun at its first turn: most solves never get past the first */
    }
    int winner = -1;
    for (int round = 0; ok && winner < 0; round++) {
        int any = 0;
        long quota = x->plan.port_quota << (round < 20 ? round : 20);
        for (int i = 0; i < k; i++) {
            if (!live[i]) continue;
            eo_ctx *m = &ms[i];
            total = 0;
            for (int j = 0; j < k; j++) total += eo_states(&ms[j]);
            if (budget > 0 && total >= budget) break;
            if (round == 0) {
                int ended = !m->is_dive ? eo_befs_begin(m) : eo_dfs_begin(m);
                if (m->status == EO_SOLVED) {
                    winner = i;
                    break;
                }
                if (m->status == EO_TIME_LIMIT || m->status == EO_MEMORY_LIMIT) {
                    x->status = m->status;
                    ok = 0;
                    break;
                }
                if (ended) {
                    live[i] = 0;
                    continue;
                }
            }
            long until = quota;
            if (budget > 0 && eo_states(m) + (budget - total) < until)
                until = eo_states(m) + (budget - total);
            if (!m->is_dive)
                eo_befs_run(m, until);
            else
                eo_dfs_run(m, until);
            if (m->status == EO_SOLVED) {
                winner = i;
                break;
            }
            if (m->status == EO_RUNNING) {
                any = 1;
                continue;
            }
            live[i] = 0;
            if (m->status == EO_TIME_LIMIT || m->status == EO_MEMORY_LIMIT) {
                x->status = m->status;
                ok = 0;
                break;
            }
        }
        total = 0;
        for (int j = 0; j < k; j++) total += eo_states(&ms[j]);
        if (!any || (budget > 0 && total >= budget)) break;
    }
    total = 0;
    for (int j = 0; j < k; j++) total += eo_states(&ms[j]);
    if (winner >= 0) {
        eo_ctx *m = &ms[winner];
        x->plen = 0;
        if (eo_path_reserve(x, m->plen) != 0) {
            x->status = EO_MEMORY_LIMIT;
        } else {
            memcpy(x->path, m->path, (size_t)m->plen * sizeof(eo_move));
            memcpy(x->is_step, m->is_step, (size_t)m->plen);
            x->plen = m->plen;
            x->S = m->S;
            x->status = EO_SOLVED;
        }
    } else if (!ok && x->status == EO_STATE_LIMIT) {
        x->status = EO_MEMORY_LIMIT;
    }
    for (int i = 0; i < k; i++) eo_ctx_free(&ms[i]);
    free(ms);
    free(live);
    return total;
}

/* Solve from x->S as x->plan says: root auto-moves, then up to three searches, each
 * started afresh only if the previous one failed:
 *   EO_STAGE_DIVE        a greedy depth-first dive over purposeful steps, or the
 *                        portfolio (at most plan.dive_states states): the cheapest when
 *                        it works;
 *   EO_STAGE_BEST_FIRST  a best-first search over purposeful steps (plan.quick_states);
 *   EO_STAGE_COMPLETE    the complete search (plan.complete_order, complete_steps),
 *                        bounded only by the limits.
 * The first two are not complete: their exhaustion proves nothing (EO_STATE_LIMIT);
 * only the complete search says EO_LOST.  Then, if the plan says so, the solution is
 * shortened.  *states_out: the states examined by all. */
static void eo_solve(eo_ctx *x, long *states_out) {
    static const int order[3] = {EO_STAGE_DIVE, EO_STAGE_BEST_FIRST, EO_STAGE_COMPLETE};
    const eo_rules *r = &x->R;
    const eo_plan *plan = &x->plan;
    long states = 0, max_states = x->max_states;
    x->plen = 0;
    x->w = plan->weights;
    *states_out = 0;
    if (eo_path_reserve(x, r->total + 1) != 0) {
        x->status = EO_MEMORY_LIMIT;
        return;
    }
    int na = eo_autos(r, &x->S, x->path);
    memset(x->is_step, 0, (size_t)na);
    x->plen = na;
    eo_state root = x->S;
    int started = 0;
    for (int k = 0; k < 3; k++) {
        int stage = order[k];
        if (!(plan->stages & stage)) continue;
        long budget = stage == EO_STAGE_DIVE         ? plan->dive_states
                      : stage == EO_STAGE_BEST_FIRST ? plan->quick_states
                                                     : 0;
        if (stage == EO_STAGE_DIVE && budget <= 0) continue;
        if (started && eo_reset(x, &root, na) != 0) {
            x->status = EO_MEMORY_LIMIT;
            break;
        }
        started = 1;
        long left = max_states > 0 ? max_states - states : 0;
        if (max_states > 0 && left <= 0) {
            x->status = EO_STATE_LIMIT;
            break;
        }
        x->max_states = budget > 0 && (left <= 0 || budget < left) ? budget : left;
        /* the dive leaves out the costliest kind of dig, moving a card onto a dug one */
        x->dig_kinds = stage == EO_STAGE_DIVE ? EO_DIGS_ALL & ~(1 << EO_DIG_TARGET) : EO_DIGS_ALL;
        x->hash_only = x->is_dive = stage == EO_STAGE_DIVE;
        if (stage == EO_STAGE_DIVE && x->nport > 0) {
            x->hash_only = x->is_dive = 0;
            states += eo_portfolio(x, &root, na, x->max_states);
            if (x->status != EO_STATE_LIMIT) break;
            continue;
        }
        if (stage == EO_STAGE_COMPLETE)
            eo_run_search(x, plan->complete_order, plan->complete_steps);
        else
            eo_run_search(x, stage == EO_STAGE_DIVE ? EO_DEPTH_FIRST : EO_BEST_FIRST,
                          EO_STEPS_PURPOSEFUL);
        states += eo_states(x);
        x->hash_only = x->is_dive = 0;
        if (stage != EO_STAGE_COMPLETE && x->status == EO_LOST)
            x->status = EO_STATE_LIMIT; /* no proof */
        if (x->status != EO_STATE_LIMIT) break; /* solved, lost, time or memory */
    }
    x->max_states = max_states;
    *states_out = states;
    if (x->status == EO_SOLVED && plan->shorten) eo_shorten(x, &root, na);
}

#endif
