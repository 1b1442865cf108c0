/* Player models for deal ratings (eightoff.rating).  Plain C, included by _core.pyx
 * after core.h; uses only core.h's rule primitives (eo_legal_moves, eo_apply, eo_undo,
 * eo_safe, eo_key and the eo_table of seen states).
 *
 * A player plays one game from a position, forward only (no undo), and either wins or
 * stops: no move it is willing to make, or a move limit.  It never returns to a
 * position it has already seen in this game.  Two kinds:
 *
 *  - PL_LOOKAHEAD, the rating's players: after each move the safe cards go home; the
 *    player tries every move (up to symmetry), looks `depth` further moves ahead and
 *    takes the move whose best continuation scores highest on pl_eval (cards home, free
 *    cells and columns, cards in sequence, low cards buried), plus a random amount up to
 *    `noise` (so that runs with different seeds play differently).
 *  - PL_SENSIBLE, the benchmark's held-out player: no lookahead and no score; it follows
 *    a person's rules of thumb in order (any card that can go home goes home; a cell
 *    card onto a column; a run onto a column that uncovers something; a King run into
 *    an empty column; else a card into a cell, preferring the column that hides the
 *    lowest card still needed) and chooses at random within the first rule that offers
 *    a move.
 *  - PL_PATIENT, the same rules of thumb with undo (held out too, for variants where
 *    the sensible player almost never wins): it tries the moves in the order of those
 *    rules (at random within a rule), and when it is stuck it undoes its last move and
 *    tries the next one there, and so on back; it wins, or stops when every line is
 *    exhausted or it has made `max_moves` moves (undone moves count: its patience).
 */
#ifndef EIGHTOFF_PLAYERS_H
#define EIGHTOFF_PLAYERS_H

#include "core.h"

#define PL_LOOKAHEAD 0
#define PL_SENSIBLE 1
#define PL_PATIENT 2
#define PL_BACKTRACK 3
#define PL_MAXDEPTH 3
#define PL_BUF 2048
#define PL_DEAD (-1000000)
#define PL_MAXWIDTH 16

typedef struct {
    int kind;      /* PL_LOOKAHEAD, PL_SENSIBLE or PL_PATIENT */
    int depth;     /* lookahead: further moves looked at (0: judge the position a move makes) */
    int noise;     /* lookahead: random extra score, 0 .. noise - 1 */
    int max_moves; /* give up after this many moves (auto-moves not counted) */
    int width;     /* lookahead: look further only after this many best-judged moves (0: all) */
    uint64_t seed;
} pl_params;

typedef struct {
    int won;
    int home;  /* cards home at the end */
    int moves; /* moves made (auto-moves not counted) */
} pl_result;

static inline uint64_t pl_rand(uint64_t *s) {
    /* splitmix64 */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* The moves a player considers: every legal move up to symmetry (only the first empty
 * cell, only the first empty column), never cell to cell, never a whole column into an
 * empty column, never a foundation card back.  Filters `out` in place. */
static int pl_moves(const eo_rules *r, const eo_state *s, eo_move *out) {
    int k = eo_legal_moves(r, s, out);
    int first_cell = -1, first_col = -1;
    for (int i = 0; i < r->ncells; i++)
        if (!s->cell[i]) {
            first_cell = i;
            break;
        }
    for (int c = 0; c < r->ncols; c++)
        if (!s->len[c]) {
            first_col = c;
            break;
        }
    int n = 0;
    for (int i = 0; i < k; i++) {
        eo_move m = out[i];
        if (m.src >= EO_FOUND && m.src != EO_HOME) continue;
        if (m.dst >= EO_CELL && m.dst < EO_FOUND) {
            if (m.src >= EO_CELL) continue;
            if (m.dst - EO_CELL != first_cell) continue;
        } else if (m.dst < EO_CELL && !s->len[m.dst]) {
            if (m.dst != first_col) continue;
            if (m.src < EO_CELL && m.n == s->len[m.src]) continue;
        }
        out[n++] = m;
    }
    return n;
}

/* How many more cards of this card's suit must go home before it can (0: it can). */
static inline int pl_need(const eo_rules *r, const eo_state *s, int card) {
    int best = 0;
    for (int f = card & 3; f < r->nfound; f += 4)
        if (s->found[f] > best) best = s->found[f];
    return (card >> 2) - best - 1;
}

/* The lookahead players' judgement of a position (higher is better). */
static int pl_eval(const eo_rules *r, const eo_state *s) {
    if (s->home == r->total) return 1000000;
    int v = 60 * s->home + 25 * s->free_cells + (r->kings_only ? 40 : 70) * s->free_cols;
    for (int c = 0; c < r->ncols; c++) {
        int L = s->len[c];
        const uint8_t *col = s->col[c];
        int ordered = 1; /* still in sequence from the column's bottom */
        for (int i = 0; i < L; i++) {
            int card = col[i];
            if (i == 0) {
                ordered = !r->kings_only || (card >> 2) == EO_KING;
            } else if (eo_stacks(r, card, col[i - 1])) {
                v += ordered ? 6 : 3;
            } else {
                ordered = 0;
            }
            if (!ordered) {
                int need = pl_need(r, s, card);
                int above = L - 1 - i;
                if (need <= 0)
                    v -= 12 * above;
                else if (need <= 2)
                    v -= 5 * above;
                else if (need <= 4)
                    v -= 2 * above;
            }
        }
    }
    for (int i = 0; i < r->ncells; i++) {
        int card = s->cell[i];
        if (card && pl_need(r, s, card) > 6) v -= 6;
    }
    return v;
}

/* Best score reachable in `depth` more moves (the position itself if depth is 0),
 * looking further only after the `width` moves judged best at once (0: every move). */
static int pl_value(const eo_rules *r, eo_state *s, int depth, int width) {
    if (depth == 0 || s->home == r->total) return pl_eval(r, s);
    eo_move buf[PL_BUF];
    int k = pl_moves(r, s, buf);
    if (!k) return pl_eval(r, s) - 500;
    int best = PL_DEAD;
    if (width <= 0 || k <= width) {
        for (int i = 0; i < k; i++) {
            eo_move m = buf[i];
            eo_apply(r, s, &m);
            int v = pl_value(r, s, depth - 1, width);
            eo_undo(s, &m);
            if (v > best) best = v;
        }
        return best;
    }
    /* judge every move at once; keep the `width` best (insertion into a short list) */
    int keep[PL_MAXWIDTH], kv[PL_MAXWIDTH], nk = 0;
    if (width > PL_MAXWIDTH) width = PL_MAXWIDTH;
    for (int i = 0; i < k; i++) {
        eo_move m = buf[i];
        eo_apply(r, s, &m);
        int v = pl_eval(r, s);
        eo_undo(s, &m);
        if (nk == width && v <= kv[nk - 1]) continue;
        int j = nk < width ? nk++ : nk - 1;
        while (j > 0 && kv[j - 1] < v) {
            kv[j] = kv[j - 1];
            keep[j] = keep[j - 1];
            j--;
        }
        kv[j] = v;
        keep[j] = i;
    }
    for (int i = 0; i < nk; i++) {
        eo_move m = buf[keep[i]];
        eo_apply(r, s, &m);
        int v = depth == 1 ? kv[i] : pl_value(r, s, depth - 1, width);
        eo_undo(s, &m);
        if (v > best) best = v;
    }
    return best;
}

/* Send home every card the safe rule allows. */
static void pl_autos(const eo_rules *r, eo_state *s) {
    int again = 1;
    while (again) {
        again = 0;
        for (int i = 0; i < r->ncells; i++) {
            int card = s->cell[i];
            if (card && eo_safe(r, s, card)) {
                eo_move m = eo_mv(EO_CELL + i, EO_HOME, 1);
                eo_apply(r, s, &m);
                again = 1;
            }
        }
        for (int c = 0; c < r->ncols; c++) {
            int L = s->len[c];
            if (L && eo_safe(r, s, s->col[c][L - 1])) {
                eo_move m = eo_mv(c, EO_HOME, 1);
                eo_apply(r, s, &m);
                again = 1;
            }
        }
    }
}

static inline int pl_seen(const eo_rules *r, const eo_table *t, const eo_state *s) {
    uint8_t key[EO_MAXKEY];
    int n = eo_key(r, s, key);
    return eo_table_find(t, key, n) >= 0;
}

static inline int pl_remember(const eo_rules *r, eo_table *t, const eo_state *s) {
    uint8_t key[EO_MAXKEY];
    int n = eo_key(r, s, key);
    return eo_table_insert(t, key, n) == -1 ? -1 : 0;
}

/* Cards above the lowest card still needed in column c (a large number if none). */
static inline int pl_cover(const eo_rules *r, const eo_state *s, int c) {
    int L = s->len[c], best = 99, cover = 99;
    for (int i = 0; i < L; i++) {
        int need = pl_need(r, s, s->col[c][i]);
        if (need < best) {
            best = need;
            cover = L - 1 - i;
        }
    }
    return best * 8 + cover;
}

/* The held-out players' rules of thumb: the rule a move falls under, higher first. */
static int pl_sensible_class(const eo_rules *r, const eo_state *s, eo_move m) {
    if (m.dst == EO_HOME) return 6;
    if (m.src >= EO_CELL && m.dst < EO_CELL && s->len[m.dst]) return 5; /* cell card onto a column */
    if (m.src < EO_CELL && m.dst < EO_CELL && s->len[m.dst]) {
        int L = s->len[m.src];
        /* a run that already sits in sequence is not moved for nothing */
        if (L > m.n && eo_stacks(r, s->col[m.src][L - m.n], s->col[m.src][L - m.n - 1]))
            return 1;
        return 4;
    }
    if (m.dst < EO_CELL) {
        /* into an empty column: a King-led run is worth it, anything else barely */
        int card = m.src < EO_CELL ? s->col[m.src][s->len[m.src] - m.n] : s->cell[m.src - EO_CELL];
        return (card >> 2) == EO_KING ? 3 : 1;
    }
    return 2; /* a column card into a cell */
}

/* The held-out player's choice among the moves in buf (k of them, none to a position
 * seen before); returns an index. */
static int pl_sensible_pick(const eo_rules *r, const eo_state *s, const eo_move *buf, int k,
                            uint64_t *rng) {
    int cls[PL_BUF];
    int top = -1;
    for (int i = 0; i < k; i++) {
        cls[i] = pl_sensible_class(r, s, buf[i]);
        if (cls[i] > top) top = cls[i];
    }
    if (top == 2) {
        /* into a cell: the column whose needed card is nearest the top; ties at random */
        int best = 1 << 30, pick = -1, ties = 0;
        for (int i = 0; i < k; i++) {
            if (cls[i] != 2) continue;
            int v = pl_cover(r, s, buf[i].src);
            if (v < best) {
                best = v;
                pick = i;
                ties = 1;
            } else if (v == best && pl_rand(rng) % (uint64_t)(++ties) == 0) {
                pick = i;
            }
        }
        return pick;
    }
    int count = 0, pick = -1;
    for (int i = 0; i < k; i++)
        if (cls[i] == top && pl_rand(rng) % (uint64_t)(++count) == 0) pick = i;
    return pick;
}

/* The order in which a player with undo tries the moves in buf (k of them), first
 * first.  PL_PATIENT: by rule, highest first; into a cell, the column whose needed card
 * is nearest the top first; else at random.  PL_BACKTRACK: by the judgement (pl_eval)
 * of the position each makes plus a random amount up to `noise`. */
static void pl_patient_order(const eo_rules *r, eo_state *s, eo_move *buf, int k,
                             const pl_params *p, uint64_t *rng) {
    int key[PL_BUF];
    for (int i = 0; i < k; i++) {
        if (p->kind == PL_BACKTRACK) {
            eo_move m = buf[i];
            eo_apply(r, s, &m);
            key[i] = pl_eval(r, s);
            eo_undo(s, &m);
            if (p->noise > 0) key[i] += (int)(pl_rand(rng) % (uint64_t)p->noise);
            continue;
        }
        int c = pl_sensible_class(r, s, buf[i]);
        int cover = c == 2 ? pl_cover(r, s, buf[i].src) : 0;
        /* rule, then (cells) fewest cards over the needed one, then a random tie-break */
        key[i] = (c << 24) - (cover << 12) + (int)(pl_rand(rng) & 0xFFF);
    }
    for (int i = 1; i < k; i++) { /* insertion sort, highest key first (k is small) */
        eo_move m = buf[i];
        int v = key[i], j = i;
        while (j > 0 && key[j - 1] < v) {
            buf[j] = buf[j - 1];
            key[j] = key[j - 1];
            j--;
        }
        buf[j] = m;
        key[j] = v;
    }
}

typedef struct {
    int start, count, next; /* this position's moves: pool[start .. start + count) */
    eo_move made;           /* the move that led here (as applied, for undo) */
} pl_frame;

/* The patient player (PL_PATIENT): see the top of this file.  -1 if out of memory. */
static int pl_patient(const eo_rules *r, const eo_state *start, const pl_params *p,
                      pl_result *out) {
    eo_state s = *start;
    eo_table seen;
    eo_move buf[PL_BUF];
    uint64_t rng = p->seed * 0x2545F4914F6CDD1DULL + 0x7654321ULL;
    int pool_cap = 4096, frames_cap = 256, pool_top = 0, depth = 0, rc = 0;
    eo_move *pool = malloc(sizeof(eo_move) * (size_t)pool_cap);
    pl_frame *frames = malloc(sizeof(pl_frame) * (size_t)frames_cap);
    out->won = 0;
    out->moves = 0;
    out->home = s.home;
    if (eo_table_init(&seen, 1024) != 0 || !pool || !frames || pl_remember(r, &seen, &s) != 0) {
        free(pool);
        free(frames);
        eo_table_free(&seen);
        return -1;
    }
    for (;;) {
        /* a new position: its fresh moves, in the player's order, become a frame */
        int k = pl_moves(r, &s, buf);
        if (pool_top + k > pool_cap) {
            while (pool_top + k > pool_cap) pool_cap *= 2;
            eo_move *grown = realloc(pool, sizeof(eo_move) * (size_t)pool_cap);
            if (!grown) { rc = -1; break; }
            pool = grown;
        }
        if (depth == frames_cap) {
            frames_cap *= 2;
            pl_frame *grown = realloc(frames, sizeof(pl_frame) * (size_t)frames_cap);
            if (!grown) { rc = -1; break; }
            frames = grown;
        }
        pl_patient_order(r, &s, buf, k, p, &rng);
        pl_frame *f = &frames[depth];
        f->start = pool_top;
        f->count = k;
        f->next = 0;
        for (int i = 0; i < k; i++) pool[pool_top++] = buf[i];
        depth++;
        /* the next untried move to a fresh position, undoing exhausted positions */
        int moved = 0;
        while (depth > 0 && !moved) {
            f = &frames[depth - 1];
            if (f->next == f->count) {
                pool_top = f->start;
                depth--;
                if (depth > 0) eo_undo(&s, &f->made);
                continue;
            }
            eo_move m = pool[f->start + f->next++];
            eo_apply(r, &s, &m);
            if (pl_seen(r, &seen, &s)) {
                eo_undo(&s, &m);
                continue;
            }
            if (pl_remember(r, &seen, &s) != 0) { rc = -1; break; }
            out->moves++;
            if (s.home > out->home) out->home = s.home;
            if (depth == frames_cap) {
                frames_cap *= 2;
                pl_frame *grown = realloc(frames, sizeof(pl_frame) * (size_t)frames_cap);
                if (!grown) { rc = -1; break; }
                frames = grown;
            }
            frames[depth].made = m;
            moved = 1;
        }
        if (rc != 0 || !moved) break; /* out of memory, or every line tried */
        if (s.home == r->total) {
            out->won = 1;
            break;
        }
        if (out->moves >= p->max_moves) break;
    }
    free(pool);
    free(frames);
    eo_table_free(&seen);
    return rc;
}

/* Play one game from `start`; return -1 if out of memory. */
static int pl_play(const eo_rules *r, const eo_state *start, const pl_params *p,
                   pl_result *out) {
    if (p->kind == PL_PATIENT || p->kind == PL_BACKTRACK) return pl_patient(r, start, p, out);
    eo_state s = *start;
    eo_table seen;
    eo_move buf[PL_BUF];
    int score[PL_BUF];
    uint64_t rng = p->seed * 0x2545F4914F6CDD1DULL + 0x1234567ULL;
    int depth = p->depth < 0 ? 0 : (p->depth > PL_MAXDEPTH ? PL_MAXDEPTH : p->depth);
    if (eo_table_init(&seen, 1024) != 0) {
        eo_table_free(&seen);
        return -1;
    }
    out->won = 0;
    out->moves = 0;
    int rc = 0;
    for (;;) {
        if (p->kind == PL_LOOKAHEAD) pl_autos(r, &s);
        if (s.home == r->total) {
            out->won = 1;
            break;
        }
        if (pl_remember(r, &seen, &s) != 0) {
            rc = -1;
            break;
        }
        if (out->moves >= p->max_moves) break;
        int k = pl_moves(r, &s, buf);
        int n = 0;
        for (int i = 0; i < k; i++) {
            eo_move m = buf[i];
            eo_apply(r, &s, &m);
            int fresh = !pl_seen(r, &seen, &s);
            if (fresh && p->kind == PL_LOOKAHEAD) score[n] = pl_eval(r, &s);
            eo_undo(&s, &m);
            if (fresh) buf[n++] = buf[i];
        }
        if (!n) break;
        int pick = 0;
        if (p->kind == PL_LOOKAHEAD) {
            if (depth > 0) {
                /* look further after the `width` moves judged best at once */
                int cut = PL_DEAD;
                if (p->width > 0 && n > p->width) {
                    int sorted[PL_MAXWIDTH], ns = 0;
                    int w = p->width > PL_MAXWIDTH ? PL_MAXWIDTH : p->width;
                    for (int i = 0; i < n; i++) {
                        int v = score[i];
                        if (ns == w && v <= sorted[ns - 1]) continue;
                        int j = ns < w ? ns++ : ns - 1;
                        while (j > 0 && sorted[j - 1] < v) {
                            sorted[j] = sorted[j - 1];
                            j--;
                        }
                        sorted[j] = v;
                    }
                    cut = sorted[ns - 1];
                }
                for (int i = 0; i < n; i++) {
                    if (score[i] < cut) {
                        score[i] = PL_DEAD;
                        continue;
                    }
                    eo_move m = buf[i];
                    eo_apply(r, &s, &m);
                    score[i] = pl_value(r, &s, depth, p->width);
                    eo_undo(&s, &m);
                }
            }
            if (p->noise > 0)
                for (int i = 0; i < n; i++)
                    if (score[i] > PL_DEAD) score[i] += (int)(pl_rand(&rng) % (uint64_t)p->noise);
            for (int i = 1; i < n; i++)
                if (score[i] > score[pick]) pick = i;
        } else {
            pick = pl_sensible_pick(r, &s, buf, n, &rng);
        }
        eo_move m = buf[pick];
        eo_apply(r, &s, &m);
        out->moves++;
        if (pl_remember(r, &seen, &s) != 0) {
            rc = -1;
            break;
        }
    }
    out->home = s.home;
    eo_table_free(&seen);
    return rc;
}

#endif
