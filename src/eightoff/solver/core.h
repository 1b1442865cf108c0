/* The solver's compiled core: rules, moves, canonical states, search.
 *
 * A second implementation of the rules of eightoff.position, held to it move for
 * move by tests/unit/test_core_differential.py.  Everything is plain C99, included
 * by _core.pyx; nothing here touches Python.
 *
 * Cards are bytes: rank << 2 | suit (rank 1..13, suit 0..3), 0 = no card.
 * Places in a move: 0..9 a column, 16+i a cell, 32+f a foundation (as a source,
 * foundation retrieval), 48 = home (the foundation that takes the card; apply
 * records which one in move.f so that undo can put it back).
 */
#ifndef EIGHTOFF_CORE_H
#define EIGHTOFF_CORE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define EO_MAXCOLS 10
#define EO_MAXCELLS 8
#define EO_MAXFOUND 8
#define EO_COLCAP 128
#define EO_CELL 16
#define EO_FOUND 32
#define EO_HOME 48
#define EO_KING 13
/* the longest key, and room for eo_key's last column copied in whole 16-byte blocks and
 * for eo_hash's last block read whole */
#define EO_MAXKEY (EO_MAXFOUND + 8 + EO_MAXCELLS + EO_MAXCOLS + 2 * 52 + 8 + 16)
#define EO_MAXMOVES 512
#define EO_PACK_BITS (((uint64_t)1 << 56) - ((uint64_t)1 << 4)) /* one pack's card codes */

typedef struct {
    int ncols, ncells, nfound;
    int alt;        /* build in alternate colours (else in suit) */
    int kings_only; /* an empty column takes only a King (or a King-led run) */
    int supermove;  /* group limit (E+1)*2^C, else E+1 */
    int retrieval;  /* foundation cards may come back */
    int strict;     /* single-card moves only */
    int total;      /* cards in the game */
    int safe_mode;  /* search's auto-moves: 0 Aces only, 1 the safe rule */
} eo_rules;

/* The rules a search reads: a context's own, or, in a copy of the search compiled for
 * one variant's rules (fixed.h, EO_FIXED_RULES), those rules as constants, which the
 * compiler folds into every test of them.  A copy runs only on a context whose rules
 * are those (eo_solve_any), so both read the same values. */
#ifdef EO_FIXED_RULES
static const eo_rules eo_fixed_rules = EO_FIXED_RULES;
#define EO_R(x) ((void)(x), &eo_fixed_rules)
#else
#define EO_R(x) (&(x)->R)
#endif

typedef struct {
    uint8_t len[EO_MAXCOLS];
    uint8_t cell[EO_MAXCELLS];
    uint8_t found[EO_MAXFOUND];
    int home, free_cells, free_cols;
    uint8_t col[EO_MAXCOLS][EO_COLCAP];
} eo_state;

typedef struct {
    uint8_t src, dst, n, f; /* f: the foundation a home move went to (set by apply) */
} eo_move;

/* ----- rule primitives --------------------------------------------------------- */
static inline int eo_rank(int card) { return card >> 2; }

static inline int eo_stacks(const eo_rules *r, int card, int onto) {
    if ((card >> 2) + 1 != (onto >> 2)) return 0;
    if (r->alt) return ((card ^ onto) & 2) != 0;
    return (card & 3) == (onto & 3);
}

static inline int eo_run(const eo_rules *r, const eo_state *s, int c) {
    int L = s->len[c];
    if (!L) return 0;
    const uint8_t *col = s->col[c];
    int n = 1;
    while (n < L && eo_stacks(r, col[L - n], col[L - n - 1])) n++;
    return n;
}

static inline int eo_foundation_for(const eo_rules *r, const eo_state *s, int card) {
    int rank = card >> 2;
    if (r->nfound == 4) return s->found[card & 3] == rank - 1 ? (card & 3) : -1;
    for (int f = card & 3; f < r->nfound; f += 4)
        if (s->found[f] == rank - 1) return f;
    return -1;
}

static inline int eo_limit(const eo_rules *r, const eo_state *s, int to_empty) {
    if (r->strict) return 1;
    int e = s->free_cells;
    if (!r->supermove) return e + 1;
    int c = s->free_cols - (to_empty ? 1 : 0);
    if (c < 0) c = 0;
    if (c > 20) c = 20;
    return (e + 1) << c;
}

/* Two packs: can the card's twin follow it home (every foundation of its suit at least
 * one rank below it)? Else the twin needs the foundation this card would take. */
static inline int eo_twin_follows(const eo_rules *r, const eo_state *s, int card) {
    if (r->nfound == 4) return 1;
    for (int f = card & 3; f < r->nfound; f += 4)
        if (s->found[f] < (card >> 2) - 1) return 0;
    return 1;
}

/* May this exposed card go home now without any risk (the search's auto-moves)?
 * Mirrors Position.is_safe_home (its twin's foundation free with two packs), and is
 * more conservative where that rule has no proof: foundation retrieval (Aces only). */
static inline int eo_safe(const eo_rules *r, const eo_state *s, int card) {
    if (eo_foundation_for(r, s, card) < 0) return 0;
    int rank = card >> 2;
    if (rank == 1) return 1;
    if (r->safe_mode == 0) return 0;
    if (!eo_twin_follows(r, s, card)) return 0;
    if (!r->alt) return 1;
    if (rank <= 2) return 1;
    int opposite = (card & 2) ? 0 : 2;
    for (int f = 0; f < r->nfound; f++)
        if (((f & 3) & 2) == opposite && s->found[f] < rank - 1) return 0;
    return 1;
}

/* The same rule as Position.is_safe_home (for the differential test). */
static inline int eo_engine_safe(const eo_rules *r, const eo_state *s, int card) {
    if (eo_foundation_for(r, s, card) < 0) return 0;
    if (!eo_twin_follows(r, s, card)) return 0;
    if (!r->alt) return 1;
    int rank = card >> 2;
    if (rank <= 2) return 1;
    int opposite = (card & 2) ? 0 : 2;
    for (int f = 0; f < r->nfound; f++)
        if (((f & 3) & 2) == opposite && s->found[f] < rank - 1) return 0;
    return 1;
}

/* The same rule as Position.win_is_certain: every column runs down in rank from bottom to
 * top (then auto-complete sends every card home; the counts treat those moves as free). */
static inline int eo_win_certain(const eo_rules *r, const eo_state *s) {
    for (int c = 0; c < r->ncols; c++)
        for (int i = 0; i + 1 < s->len[c]; i++)
            if ((s->col[c][i] >> 2) < (s->col[c][i + 1] >> 2)) return 0;
    return 1;
}

/* ----- applying and undoing moves ----------------------------------------------- */
static inline void eo_apply(const eo_rules *r, eo_state *s, eo_move *m) {
    int src = m->src, dst = m->dst, n = m->n;
    const uint8_t *moved;
    uint8_t single;
    if (src < EO_CELL) {
        int L = s->len[src];
        if (dst < EO_CELL) {
            /* column to column: copy directly */
            int T = s->len[dst];
            if (T == 0) s->free_cols--;
            memcpy(&s->col[dst][T], &s->col[src][L - n], (size_t)n);
            s->len[dst] = (uint8_t)(T + n);
            s->len[src] = (uint8_t)(L - n);
            if (L == n) s->free_cols++;
            return;
        }
        single = s->col[src][L - 1];
        s->len[src] = (uint8_t)(L - 1);
        if (L == 1) s->free_cols++;
        moved = &single;
    } else if (src < EO_FOUND) {
        single = s->cell[src - EO_CELL];
        s->cell[src - EO_CELL] = 0;
        s->free_cells++;
        moved = &single;
    } else {
        int f = src - EO_FOUND;
        single = (uint8_t)(s->found[f] << 2 | (f & 3));
        s->found[f]--;
        s->home--;
        moved = &single;
    }
    if (dst < EO_CELL) {
        int T = s->len[dst];
        if (T == 0) s->free_cols--;
        s->col[dst][T] = *moved;
        s->len[dst] = (uint8_t)(T + 1);
    } else if (dst < EO_FOUND) {
        s->cell[dst - EO_CELL] = *moved;
        s->free_cells--;
    } else {
        int f = (dst == EO_HOME) ? eo_foundation_for(r, s, *moved) : dst - EO_FOUND;
        m->f = (uint8_t)f;
        s->found[f] = (uint8_t)(*moved >> 2);
        s->home++;
    }
}

static inline void eo_undo(eo_state *s, const eo_move *m) {
    int src = m->src, dst = m->dst, n = m->n;
    uint8_t card;
    if (dst < EO_CELL) {
        int T = s->len[dst];
        if (src < EO_CELL) {
            int L = s->len[src];
            if (L == 0) s->free_cols--;
            memcpy(&s->col[src][L], &s->col[dst][T - n], (size_t)n);
            s->len[src] = (uint8_t)(L + n);
            s->len[dst] = (uint8_t)(T - n);
            if (T == n) s->free_cols++;
            return;
        }
        card = s->col[dst][T - 1];
        s->len[dst] = (uint8_t)(T - 1);
        if (T == 1) s->free_cols++;
    } else if (dst < EO_FOUND) {
        card = s->cell[dst - EO_CELL];
        s->cell[dst - EO_CELL] = 0;
        s->free_cells++;
    } else {
        int f = m->f;
        card = (uint8_t)(s->found[f] << 2 | (f & 3));
        s->found[f]--;
        s->home--;
    }
    if (src < EO_CELL) {
        int L = s->len[src];
        if (L == 0) s->free_cols--;
        s->col[src][L] = card;
        s->len[src] = (uint8_t)(L + 1);
    } else if (src < EO_FOUND) {
        s->cell[src - EO_CELL] = card;
        s->free_cells--;
    } else {
        int f = src - EO_FOUND;
        s->found[f]++;
        s->home++;
    }
}

static inline void eo_recount(const eo_rules *r, eo_state *s) {
    s->home = 0;
    for (int f = 0; f < r->nfound; f++) s->home += s->found[f];
    s->free_cells = 0;
    for (int i = 0; i < r->ncells; i++) s->free_cells += (s->cell[i] == 0);
    s->free_cols = 0;
    for (int c = 0; c < r->ncols; c++) s->free_cols += (s->len[c] == 0);
}

static inline eo_move eo_mv(int src, int dst, int n) {
    eo_move m;
    m.src = (uint8_t)src;
    m.dst = (uint8_t)dst;
    m.n = (uint8_t)n;
    m.f = 0;
    return m;
}

/* ----- every legal move, as Position.legal_moves lists them ---------------------- */
/* The rule for moving n cards from column c, whose top run is `run` cards, to dst (the
 * one rule both the move list below and the replay, replay.h, ask). */
static inline int eo_column_move_ok(const eo_rules *r, const eo_state *s, int c, int run, int dst,
                                    int n) {
    int L = s->len[c];
    if (n < 1 || n > run) return 0; /* (no run: an empty column) */
    if (dst == EO_HOME) return n == 1 && eo_foundation_for(r, s, s->col[c][L - 1]) >= 0;
    if (dst >= EO_CELL && dst < EO_FOUND)
        return n == 1 && dst - EO_CELL < r->ncells && !s->cell[dst - EO_CELL];
    if (dst >= r->ncols || dst == c) return 0; /* (a named foundation is no target) */
    int T = s->len[dst];
    if (T) return n <= eo_limit(r, s, 0) && eo_stacks(r, s->col[c][L - n], s->col[dst][T - 1]);
    return n <= eo_limit(r, s, 1) && (!r->kings_only || eo_rank(s->col[c][L - n]) == EO_KING);
}

/* The rule for moving `card` alone from a cell (from_cell) or a foundation to dst. */
static inline int eo_single_move_ok(const eo_rules *r, const eo_state *s, int card, int from_cell,
                                    int dst, int n) {
    if (n != 1) return 0;
    if (dst == EO_HOME) return from_cell && eo_foundation_for(r, s, card) >= 0;
    if (dst >= EO_CELL && dst < EO_FOUND) return dst - EO_CELL < r->ncells && !s->cell[dst - EO_CELL];
    if (dst >= r->ncols) return 0;
    int T = s->len[dst];
    if (T) return eo_stacks(r, card, s->col[dst][T - 1]);
    return !r->kings_only || eo_rank(card) == EO_KING;
}

/* eo_run, but counted no further than n cards: the same answer to "n > run?" (the one
 * thing eo_column_move_ok asks of the run), without walking a long run for one card. */
static inline int eo_run_upto(const eo_rules *r, const eo_state *s, int c, int n) {
    int L = s->len[c];
    if (!L) return 0;
    const uint8_t *col = s->col[c];
    int k = 1;
    while (k < L && k < n && eo_stacks(r, col[L - k], col[L - k - 1])) k++;
    return k;
}

/* Whether move m is legal in s: one of the moves eo_legal_from lists from its source. */
static inline int eo_legal(const eo_rules *r, const eo_state *s, eo_move m) {
    int src = m.src;
    if (src < EO_CELL)
        return src < r->ncols && eo_column_move_ok(r, s, src, eo_run_upto(r, s, src, m.n), m.dst, m.n);
    if (src < EO_FOUND) {
        int i = src - EO_CELL;
        return i < r->ncells && s->cell[i] && eo_single_move_ok(r, s, s->cell[i], 1, m.dst, m.n);
    }
    if (src < EO_HOME) {
        int f = src - EO_FOUND;
        return f < r->nfound && r->retrieval && s->found[f] &&
               eo_single_move_ok(r, s, s->found[f] << 2 | (f & 3), 0, m.dst, m.n);
    }
    return 0;
}

/* The legal moves from column c, appended at out[k]; returns the new count. */
static int eo_legal_from_column(const eo_rules *r, const eo_state *s, int c, eo_move *out,
                                int k) {
    int L = s->len[c];
    if (!L) return k;
    int run = eo_run(r, s, c);
    if (eo_column_move_ok(r, s, c, run, EO_HOME, 1)) out[k++] = eo_mv(c, EO_HOME, 1);
    for (int i = 0; i < r->ncells; i++)
        if (eo_column_move_ok(r, s, c, run, EO_CELL + i, 1)) out[k++] = eo_mv(c, EO_CELL + i, 1);
    for (int t = 0; t < r->ncols; t++) {
        /* onto a card, one count at most (a run's ranks differ, so one card of it can
         * lie there); into an empty column, every count allowed */
        int onto = s->len[t] != 0;
        for (int n = 1; n <= run; n++)
            if (eo_column_move_ok(r, s, c, run, t, n)) {
                out[k++] = eo_mv(c, t, n);
                if (onto) break;
            }
    }
    return k;
}

/* The legal moves of the single card at src (a cell, or with retrieval a foundation's
 * top card), appended at out[k]; returns the new count. */
static int eo_legal_from_single(const eo_rules *r, const eo_state *s, int src, eo_move *out,
                                int k) {
    int card, from_cell = src < EO_FOUND;
    if (from_cell) {
        card = s->cell[src - EO_CELL];
        if (!card) return k;
    } else {
        int f = src - EO_FOUND;
        if (!r->retrieval || !s->found[f]) return k;
        card = s->found[f] << 2 | (f & 3);
    }
    if (eo_single_move_ok(r, s, card, from_cell, EO_HOME, 1)) out[k++] = eo_mv(src, EO_HOME, 1);
    for (int j = 0; j < r->ncells; j++)
        if (eo_single_move_ok(r, s, card, from_cell, EO_CELL + j, 1)) out[k++] = eo_mv(src, EO_CELL + j, 1);
    for (int t = 0; t < r->ncols; t++)
        if (eo_single_move_ok(r, s, card, from_cell, t, 1)) out[k++] = eo_mv(src, t, 1);
    return k;
}

/* The legal moves from one place (a column, a cell or a foundation). */
static int eo_legal_from(const eo_rules *r, const eo_state *s, int src, eo_move *out) {
    if (src < EO_CELL) return src < r->ncols ? eo_legal_from_column(r, s, src, out, 0) : 0;
    if (src < EO_FOUND) return src - EO_CELL < r->ncells ? eo_legal_from_single(r, s, src, out, 0) : 0;
    if (src < EO_HOME) return src - EO_FOUND < r->nfound ? eo_legal_from_single(r, s, src, out, 0) : 0;
    return 0;
}

static int eo_legal_moves(const eo_rules *r, const eo_state *s, eo_move *out) {
    int k = 0;
    for (int c = 0; c < r->ncols; c++) k = eo_legal_from_column(r, s, c, out, k);
    for (int i = 0; i < r->ncells; i++) k = eo_legal_from_single(r, s, EO_CELL + i, out, k);
    if (r->retrieval)
        for (int f = 0; f < r->nfound; f++) k = eo_legal_from_single(r, s, EO_FOUND + f, out, k);
    return k;
}

/* ----- canonical key: foundations, sorted cells, sorted columns ------------------ */
static inline int eo_colcmp(const eo_state *s, int a, int b) {
    int la = s->len[a], lb = s->len[b];
    /* bottom cards first (0 for an empty column): with one pack they differ unless both
     * columns are empty */
    int ka = la ? s->col[a][0] : 0, kb = lb ? s->col[b][0] : 0;
    if (ka != kb) return ka - kb;
    if (!ka) return 0;
    int m = la < lb ? la : lb;
    int d = memcmp(s->col[a], s->col[b], (size_t)m);
    if (d) return d;
    return la - lb;
}

/* The order of columns and cells in the canonical key (perm[k] = real index). */
static inline void eo_canon_order(const eo_rules *r, const eo_state *s, int *colperm,
                                  int *cellperm) {
    for (int i = 0; i < r->ncols; i++) {
        int j = i;
        while (j > 0 && eo_colcmp(s, colperm[j - 1], i) > 0) {
            colperm[j] = colperm[j - 1];
            j--;
        }
        colperm[j] = i;
    }
    if (cellperm) {
        for (int i = 0; i < r->ncells; i++) {
            int j = i;
            while (j > 0 && s->cell[cellperm[j - 1]] > s->cell[i]) {
                cellperm[j] = cellperm[j - 1];
                j--;
            }
            cellperm[j] = i;
        }
    }
}

static inline int eo_key(const eo_rules *r, const eo_state *s, uint8_t *out) {
    uint8_t *p = out;
    if (r->nfound == 4) {
        memcpy(p, s->found, 4);
        p += 4;
    } else {
        /* two packs: the two foundations of a suit are interchangeable */
        for (int f = 0; f < 4; f++) {
            int a = s->found[f], b = s->found[f + 4];
            *p++ = (uint8_t)(a < b ? a : b);
            *p++ = (uint8_t)(a < b ? b : a);
        }
    }
    int nc = r->ncells;
    if (r->nfound == 4) {
        /* one pack: the set of cell cards, as a bit mask */
        uint64_t mask = 0;
        for (int i = 0; i < nc; i++) mask |= (uint64_t)1 << s->cell[i];
        mask &= ~(uint64_t)1;
        memcpy(p, &mask, 8);
        p += 8;
    } else {
        uint8_t cells[EO_MAXCELLS];
        for (int i = 0; i < nc; i++) {
            uint8_t v = s->cell[i];
            int j = i;
            while (j > 0 && cells[j - 1] > v) {
                cells[j] = cells[j - 1];
                j--;
            }
            cells[j] = v;
        }
        memcpy(p, cells, (size_t)nc);
        p += nc;
    }
    int perm[EO_MAXCOLS];
    eo_canon_order(r, s, perm, NULL);
    for (int k = 0; k < r->ncols; k++) {
        int c = perm[k], L = s->len[c];
        *p++ = (uint8_t)L;
        /* whole 16-byte blocks (a column's buffer is EO_COLCAP bytes; the key buffer has
         * room past its end): no call for a copy of variable length */
        for (int i = 0; i < L; i += 16) memcpy(p + i, s->col[c] + i, 16);
        p += L;
    }
    return (int)(p - out);
}

static inline uint64_t eo_mum(uint64_t a, uint64_t b) {
    __uint128_t r = (__uint128_t)a * b;
    return (uint64_t)r ^ (uint64_t)(r >> 64);
}

/* A fast 64-bit hash of a key (16 bytes a round, multiply-and-fold).  Reads up to 15
 * bytes past the key's end: only for keys in buffers of EO_MAXKEY bytes. */
static inline uint64_t eo_hash(const uint8_t *p, int n) {
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (uint64_t)n;
    while (n >= 16) {
        uint64_t a, b;
        memcpy(&a, p, 8);
        memcpy(&b, p + 8, 8);
        h = eo_mum(a ^ 0xa0761d6478bd642fULL ^ h, b ^ 0xe7037ed1a0b428dbULL);
        p += 16;
        n -= 16;
    }
    if (n) {
        /* the last block read whole (key buffers hold EO_MAXKEY bytes, 16 more than the
         * longest key), the bytes past the key masked off */
        uint64_t a, b;
        memcpy(&a, p, 8);
        memcpy(&b, p + 8, 8);
        if (n < 8) {
            a &= ((uint64_t)1 << (8 * n)) - 1;
            b = 0;
        } else if (n == 8) {
            b = 0;
        } else if (n < 16) {
            b &= ((uint64_t)1 << (8 * (n - 8))) - 1;
        }
        h = eo_mum(a ^ 0xa0761d6478bd642fULL ^ h, b ^ 0xe7037ed1a0b428dbULL);
    }
    return eo_mum(h, 0x8ebc6af09c88c6e3ULL);
}

/* ----- the table of seen states: full keys compared on every hit ------------------ */
typedef struct {
    uint64_t *slots; /* (hash >> 32) << 32 | (id + 1), at index (hash >> 32) & mask (so that
                      * growing needs no key); 0 = empty; NULL until the first insert */
    size_t mask, count;
    uint8_t *arena; /* records: key length byte, key bytes */
    size_t arena_len, arena_cap;
    uint64_t *offs; /* record offset of state id */
    size_t offs_cap;
    size_t init_slots; /* slots to allocate at the first insert */
    size_t grow_at;    /* the slots double when the count passes this: half of them, or
                        * three quarters after eo_table_dense */
    int failed; /* out of memory */
    int prefault; /* new slots cleared by writing them (eo_table_slots) */
} eo_table;

/* n zeroed items of `size` bytes, from calloc; with `prefault` (the slots of a table of
 * a search of several threads, optimal.h) each page of them written at once.  calloc's
 * fresh pages are mapped to the shared zero page when first read, and the first write
 * after that replaces the page and flushes the TLB of every core running the process,
 * an interrupt of the other threads at each page (perf: 6% of the time of A* on two
 * threads); written first, a page is made once, with no flush.  (A volatile write a
 * page: a compiler drops a memset of zeros after calloc, and turns malloc and such a
 * memset into calloc.) */
static void *eo_zeroed(size_t n, size_t size, int prefault) {
    void *p = calloc(n, size);
    if (p && prefault) {
        volatile uint8_t *v = (volatile uint8_t *)p;
        for (size_t i = 0; i < n * size; i += 4096) v[i] = 0;
    }
    return p;
}

/* n empty slots (eo_zeroed, prefaulted where the table asks). */
static uint64_t *eo_table_slots(const eo_table *t, size_t n) {
    return (uint64_t *)eo_zeroed(n, sizeof(uint64_t), t->prefault);
}

/* An empty table; its memory is taken at the first insert (many searches of a solve
 * never use theirs, and a short search uses little: no large block to clear per solve). */
static int eo_table_init(eo_table *t, size_t slots) {
    memset(t, 0, sizeof(*t));
    size_t n = 64;
    while (n < slots) n <<= 1;
    t->init_slots = n;
    return 0;
}

static int eo_table_alloc(eo_table *t) {
    size_t n = t->init_slots ? t->init_slots : 64;
    t->slots = eo_table_slots(t, n);
    t->mask = n - 1;
    t->grow_at = n / 2;
    t->arena_cap = n * 24;
    t->arena = (uint8_t *)malloc(t->arena_cap);
    t->offs_cap = n / 2;
    t->offs = (uint64_t *)malloc(t->offs_cap * sizeof(uint64_t));
    if (!t->slots || !t->arena || !t->offs) {
        t->failed = 1;
        return -1;
    }
    return 0;
}

static void eo_table_free(eo_table *t) {
    free(t->slots);
    free(t->arena);
    free(t->offs);
    memset(t, 0, sizeof(*t));
}

static inline size_t eo_table_bytes(const eo_table *t) {
    return (t->slots ? (t->mask + 1) * sizeof(uint64_t) : 0) + t->arena_cap +
           t->offs_cap * sizeof(uint64_t);
}

static int eo_table_grow(eo_table *t) {
    size_t n = (t->mask + 1) * 2;
    uint64_t *slots = eo_table_slots(t, n);
    if (!slots) return -1;
    size_t mask = n - 1;
    for (size_t i = 0; i <= t->mask; i++) {
        uint64_t v = t->slots[i];
        if (!v) continue;
        size_t j = (size_t)(v >> 32) & mask;
        while (slots[j]) j = (j + 1) & mask;
        slots[j] = v;
    }
    free(t->slots);
    t->slots = slots;
    t->mask = mask;
    t->grow_at = n / 2;
    return 0;
}

/* The slots filled to three quarters before they double next (longer probes, and no
 * doubling for half as many states again): for a search whose next doubling would take
 * it past its memory limit (optimal.h).  The doubling after that is at half again.
 * Returns whether the mark moved (0: no slots yet, or filled so already). */
static inline int eo_table_dense(eo_table *t) {
    size_t mark = (t->mask + 1) / 4 * 3;
    if (!t->slots || t->grow_at == mark) return 0;
    t->grow_at = mark;
    return 1;
}

/* Insert a key whose eo_hash is h; return its new id, or -(existing id) - 2 if it was
 * there, or -1 if out of memory. */
static inline long eo_table_insert_hashed(eo_table *t, const uint8_t *key, int len, uint64_t h) {
    if (!t->slots && eo_table_alloc(t) != 0) return -1;
    uint64_t tag = h & 0xffffffff00000000ULL;
    size_t i = (size_t)(h >> 32) & t->mask;
    for (;;) {
        uint64_t v = t->slots[i];
        if (!v) break;
        if ((v & 0xffffffff00000000ULL) == tag) {
            size_t id = (size_t)(v & 0xffffffffULL) - 1;
            const uint8_t *rec = t->arena + t->offs[id];
            if (rec[0] == len && memcmp(rec + 1, key, (size_t)len) == 0) return -(long)id - 2;
        }
        i = (i + 1) & t->mask;
    }
    size_t id = t->count;
    if (id >= 0xfffffff0ULL) {
        t->failed = 1;
        return -1;
    }
    if (t->arena_len + (size_t)len + 1 > t->arena_cap) {
        size_t cap = t->arena_cap * 2;
        uint8_t *a = (uint8_t *)realloc(t->arena, cap);
        if (!a) {
            t->failed = 1;
            return -1;
        }
        t->arena = a;
        t->arena_cap = cap;
    }
    if (id >= t->offs_cap) {
        size_t cap = t->offs_cap * 2;
        uint64_t *o = (uint64_t *)realloc(t->offs, cap * sizeof(uint64_t));
        if (!o) {
            t->failed = 1;
            return -1;
        }
        t->offs = o;
        t->offs_cap = cap;
    }
    uint8_t *rec = t->arena + t->arena_len;
    rec[0] = (uint8_t)len;
    memcpy(rec + 1, key, (size_t)len);
    t->offs[id] = t->arena_len;
    t->arena_len += (size_t)len + 1;
    t->slots[i] = tag | (uint64_t)(id + 1);
    t->count++;
    if (t->count > t->grow_at) {
        if (eo_table_grow(t) != 0) {
            t->failed = 1;
            return -1;
        }
    }
    return (long)id;
}

/* Insert a key; return its new id, or -(existing id) - 2 if it was there, or -1 if out
 * of memory. */
static inline long eo_table_insert(eo_table *t, const uint8_t *key, int len) {
    return eo_table_insert_hashed(t, key, len, eo_hash(key, len));
}

/* The id of a key whose eo_hash is h, or -1. */
static inline long eo_table_find_hashed(const eo_table *t, const uint8_t *key, int len,
                                        uint64_t h) {
    if (!t->slots) return -1;
    uint64_t tag = h & 0xffffffff00000000ULL;
    size_t i = (size_t)(h >> 32) & t->mask;
    for (;;) {
        uint64_t v = t->slots[i];
        if (!v) return -1;
        if ((v & 0xffffffff00000000ULL) == tag) {
            size_t id = (size_t)(v & 0xffffffffULL) - 1;
            const uint8_t *rec = t->arena + t->offs[id];
            if (rec[0] == len && memcmp(rec + 1, key, (size_t)len) == 0) return (long)id;
        }
        i = (i + 1) & t->mask;
    }
}

static inline long eo_table_find(const eo_table *t, const uint8_t *key, int len) {
    return eo_table_find_hashed(t, key, len, eo_hash(key, len));
}

/* Hints for a batch of lookups (a search looking up many keys at once: the memory of
 * each is fetched while the others are looked at).  eo_table_prefetch_slot: the slot of
 * hash h.  eo_table_first: the id in the first slot from h's with h's tag, or -1 (a
 * guess, to be confirmed by eo_table_find_hashed); call it after the slot's prefetch. */
static inline void eo_table_prefetch_slot(const eo_table *t, uint64_t h) {
    if (t->slots) __builtin_prefetch(&t->slots[(size_t)(h >> 32) & t->mask]);
}

static inline long eo_table_first(const eo_table *t, uint64_t h) {
    if (!t->slots) return -1;
    uint64_t tag = h & 0xffffffff00000000ULL;
    for (size_t i = (size_t)(h >> 32) & t->mask;; i = (i + 1) & t->mask) {
        uint64_t v = t->slots[i];
        if (!v) return -1;
        if ((v & 0xffffffff00000000ULL) == tag) return (long)(v & 0xffffffffULL) - 1;
    }
}

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

#endif
