/* The search: depth-first with a transposition table of canonical states, children
 * ordered by a heuristic, safe cards sent home at once; then the solution is
 * shortened.  Plain C, included by _core.pyx after core.h.
 *
 * Soundness (why "lost" is a proof):
 *  - every state the table holds is expanded before the search can end "lost"
 *    (children are entered into the table when generated and each frame runs
 *    through all its children), and the table compares full canonical keys;
 *  - the canonical key only identifies states that are the same game up to the
 *    order of columns, of cells and (two packs) of a suit's two foundations, all
 *    interchangeable by the rules;
 *  - the moves left out are those whose result is canonically the same as a move
 *    kept (to another empty cell, to another empty column, cell to cell, a whole
 *    column into an empty column);
 *  - the cards sent home at once are those eo_safe allows (see core.h).
 */
#ifndef EIGHTOFF_SEARCH_H
#define EIGHTOFF_SEARCH_H

#include "core.h"

enum { EO_RUNNING = 0, EO_SOLVED = 1, EO_LOST = 2, EO_STATE_LIMIT = 3, EO_TIME_LIMIT = 4,
       EO_MEMORY_LIMIT = 5 };

#define EO_NWEIGHTS 8

typedef struct {
    eo_move m;
    int32_t score;
} eo_child;

typedef struct {
    int kid0, nkids, next, path0;
} eo_frame;

typedef struct {
    eo_rules R;
    eo_state S;
    eo_table T;
    long max_states;
    double deadline; /* monotonic seconds; <= 0: none */
    size_t max_mem;
    int status;
    eo_move *path; /* moves from the root: each step = a chosen move then its auto-moves */
    uint8_t *is_step; /* 1 where path[i] is a chosen move */
    int plen, pcap;
    eo_frame *fr;
    int nfr, frcap;
    eo_child *kids;
    int nkids, kcap;
    int w[EO_NWEIGHTS];
} eo_ctx;

static inline double eo_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Send home every card the safe rule allows (cells first, then columns, as
 * Position.safe_auto_move does); return how many moves were made. */
static inline int eo_autos(const eo_rules *r, eo_state *s, eo_move *out) {
    int k = 0;
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

/* The moves the search tries: every legal move except those that lead to a state
 * canonically equal to another move's (one empty cell and one empty column stand for
 * all, no cell-to-cell moves, no whole column into an empty column). */
static int eo_search_moves(const eo_rules *r, const eo_state *s, eo_move *out) {
    int k = 0;
    int fec = -1, fcol = -1;
    for (int i = 0; i < r->ncells; i++)
        if (!s->cell[i]) {
            fec = i;
            break;
        }
    for (int c = 0; c < r->ncols; c++)
        if (!s->len[c]) {
            fcol = c;
            break;
        }
    int lim_full = eo_limit(r, s, 0), lim_empty = eo_limit(r, s, 1);
    for (int c = 0; c < r->ncols; c++) {
        int L = s->len[c];
        if (!L) continue;
        const uint8_t *col = s->col[c];
        if (eo_foundation_for(r, s, col[L - 1]) >= 0) out[k++] = eo_mv(c, EO_HOME, 1);
        int run = eo_run(r, s, c);
        int top = run < lim_full ? run : lim_full;
        for (int t = 0; t < r->ncols; t++) {
            int T = s->len[t];
            if (t == c || !T) continue;
            int onto = s->col[t][T - 1];
            for (int n = 1; n <= top; n++)
                if (eo_stacks(r, col[L - n], onto)) {
                    out[k++] = eo_mv(c, t, n);
                    break;
                }
        }
        if (fcol >= 0) {
            int tope = run < lim_empty ? run : lim_empty;
            for (int n = 1; n <= tope; n++) {
                if (n == L) break;
                if (r->kings_only && eo_rank(col[L - n]) != EO_KING) continue;
                out[k++] = eo_mv(c, fcol, n);
            }
        }
        if (fec >= 0) out[k++] = eo_mv(c, EO_CELL + fec, 1);
    }
    for (int pass = 0; pass < 2; pass++) {
        int nsrc = pass == 0 ? r->ncells : (r->retrieval ? r->nfound : 0);
        for (int i = 0; i < nsrc; i++) {
            int card, src;
            if (pass == 0) {
                card = s->cell[i];
                src = EO_CELL + i;
                if (!card) continue;
                if (eo_foundation_for(r, s, card) >= 0) out[k++] = eo_mv(src, EO_HOME, 1);
            } else {
                if (!s->found[i]) continue;
                card = s->found[i] << 2 | (i & 3);
                src = EO_FOUND + i;
                if (fec >= 0) out[k++] = eo_mv(src, EO_CELL + fec, 1);
            }
            for (int t = 0; t < r->ncols; t++) {
                int T = s->len[t];
                if (T && eo_stacks(r, card, s->col[t][T - 1])) out[k++] = eo_mv(src, t, 1);
            }
            if (fcol >= 0 && (!r->kings_only || eo_rank(card) == EO_KING))
                out[k++] = eo_mv(src, fcol, 1);
        }
    }
    return k;
}

/* How promising a state looks (higher is better). */
static inline int eo_score(const eo_rules *r, const eo_state *s, const int *w) {
    uint8_t depth[64];
    memset(depth, 255, sizeof(depth));
    int bad = 0;
    for (int c = 0; c < r->ncols; c++) {
        int L = s->len[c];
        if (!L) continue;
        const uint8_t *col = s->col[c];
        int settled = 0;
        if (!r->kings_only || eo_rank(col[0]) == EO_KING) {
            settled = 1;
            while (settled < L && eo_stacks(r, col[settled], col[settled - 1])) settled++;
        }
        bad += L - settled;
        for (int j = 0; j < L; j++) {
            int d = L - 1 - j;
            if (d < depth[col[j]]) depth[col[j]] = (uint8_t)d;
        }
    }
    for (int i = 0; i < r->ncells; i++)
        if (s->cell[i]) depth[s->cell[i]] = 0;
    int sumdepth = 0;
    for (int f = 0; f < r->nfound; f++) {
        if (s->found[f] >= EO_KING) continue;
        int need = (s->found[f] + 1) << 2 | (f & 3);
        int d = depth[need];
        if (d != 255) sumdepth += d;
    }
    return w[0] * s->home + w[1] * s->free_cells + w[2] * s->free_cols - w[3] * sumdepth -
           w[4] * bad;
}

static int eo_ctx_init(eo_ctx *x) {
    x->pcap = 1024;
    x->path = (eo_move *)malloc((size_t)x->pcap * sizeof(eo_move));
    x->is_step = (uint8_t *)malloc((size_t)x->pcap);
    x->frcap = 256;
    x->fr = (eo_frame *)malloc((size_t)x->frcap * sizeof(eo_frame));
    x->kcap = 4096;
    x->kids = (eo_child *)malloc((size_t)x->kcap * sizeof(eo_child));
    x->plen = x->nfr = x->nkids = 0;
    x->status = EO_RUNNING;
    if (!x->path || !x->is_step || !x->fr || !x->kids) return -1;
    return eo_table_init(&x->T, 4096);
}

static void eo_ctx_free(eo_ctx *x) {
    free(x->path);
    free(x->is_step);
    free(x->fr);
    free(x->kids);
    eo_table_free(&x->T);
}

static inline int eo_path_reserve(eo_ctx *x, int extra) {
    if (x->plen + extra <= x->pcap) return 0;
    int cap = x->pcap;
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
           (size_t)x->frcap * sizeof(eo_frame) + (size_t)x->kcap * sizeof(eo_child);
}

/* Apply a chosen move and its auto-moves to the state, recording them on the path. */
static inline int eo_push_step(eo_ctx *x, eo_move m) {
    if (eo_path_reserve(x, 1 + x->R.total) != 0) return -1;
    eo_apply(&x->R, &x->S, &m);
    x->is_step[x->plen] = 1;
    x->path[x->plen++] = m;
    int na = eo_autos(&x->R, &x->S, x->path + x->plen);
    memset(x->is_step + x->plen, 0, (size_t)na);
    x->plen += na;
    return 0;
}

/* Check the limits; set status and return nonzero when one is reached. */
static inline int eo_over_limits(eo_ctx *x) {
    if (x->T.failed) {
        x->status = EO_MEMORY_LIMIT;
        return 1;
    }
    if (x->max_states > 0 && (long)x->T.count >= x->max_states) {
        x->status = EO_STATE_LIMIT;
        return 1;
    }
    if ((x->T.count & 255) == 0) {
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

/* Generate, enter into the table, score and sort the children of the current state.
 * Returns 1 when a child wins (it is then applied and on the path), 0 otherwise,
 * -1 when a limit is reached. */
static int eo_expand(eo_ctx *x) {
    const eo_rules *r = &x->R;
    eo_state *s = &x->S;
    eo_move ms[EO_MAXMOVES];
    eo_move au[2 * 52 + 8];
    uint8_t key[EO_MAXKEY];
    int n = eo_search_moves(r, s, ms);
    if (x->nkids + n > x->kcap) {
        int cap = x->kcap;
        while (cap < x->nkids + n) cap *= 2;
        eo_child *k = (eo_child *)realloc(x->kids, (size_t)cap * sizeof(eo_child));
        if (!k) {
            x->status = EO_MEMORY_LIMIT;
            return -1;
        }
        x->kids = k;
        x->kcap = cap;
    }
    int k0 = x->nkids;
    for (int i = 0; i < n; i++) {
        eo_move m = ms[i];
        eo_apply(r, s, &m);
        int na = eo_autos(r, s, au);
        if (s->home == r->total) {
            for (int j = na - 1; j >= 0; j--) eo_undo(s, &au[j]);
            eo_undo(s, &m);
            if (eo_push_step(x, m) != 0) {
                x->status = EO_MEMORY_LIMIT;
                return -1;
            }
            x->status = EO_SOLVED;
            return 1;
        }
        int len = eo_key(r, s, key);
        long id = eo_table_insert(&x->T, key, len);
        if (id >= 0) {
            eo_child *c = &x->kids[x->nkids++];
            c->m = m;
            c->score = eo_score(r, s, x->w);
        }
        for (int j = na - 1; j >= 0; j--) eo_undo(s, &au[j]);
        eo_undo(s, &m);
        if (id == -1 || eo_over_limits(x)) {
            if (x->status == EO_RUNNING) x->status = EO_MEMORY_LIMIT;
            return -1;
        }
    }
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
        int cap = x->frcap * 2;
        eo_frame *f = (eo_frame *)realloc(x->fr, (size_t)cap * sizeof(eo_frame));
        if (!f) return -1;
        x->fr = f;
        x->frcap = cap;
    }
    eo_frame *f = &x->fr[x->nfr++];
    f->kid0 = x->nkids;
    f->nkids = 0;
    f->next = 0;
    f->path0 = path0;
    return 0;
}

/* Depth-first search from x->S (whose root auto-moves are already on the path).
 * Sets x->status; on success the path leads from the root to a won state. */
static void eo_dfs(eo_ctx *x) {
    const eo_rules *r = &x->R;
    uint8_t key[EO_MAXKEY];
    if (x->S.home == r->total) {
        x->status = EO_SOLVED;
        return;
    }
    int len = eo_key(r, &x->S, key);
    if (eo_table_insert(&x->T, key, len) < 0) {
        x->status = EO_MEMORY_LIMIT;
        return;
    }
    if (eo_push_frame(x, x->plen) != 0) {
        x->status = EO_MEMORY_LIMIT;
        return;
    }
    int e = eo_expand(x);
    if (e) return;
    x->fr[0].nkids = x->nkids - x->fr[0].kid0;
    while (x->nfr) {
        eo_frame *f = &x->fr[x->nfr - 1];
        if (f->next == f->nkids) {
            x->nkids = f->kid0;
            while (x->plen > f->path0) eo_undo(&x->S, &x->path[--x->plen]);
            x->nfr--;
            continue;
        }
        eo_move m = x->kids[f->kid0 + f->next++].m;
        int path0 = x->plen;
        if (eo_push_step(x, m) != 0 || eo_push_frame(x, path0) != 0) {
            x->status = EO_MEMORY_LIMIT;
            return;
        }
        f = &x->fr[x->nfr - 1];
        e = eo_expand(x);
        if (e) return;
        f->nkids = x->nkids - f->kid0;
    }
    x->status = EO_LOST;
}

/* ----- shortening a solution ------------------------------------------------------ */

/* Map a move made in layout a to the canonically equal layout b. */
static eo_move eo_map_move(const eo_rules *r, const eo_state *a, const eo_state *b, eo_move m) {
    int pa[EO_MAXCOLS], pb[EO_MAXCOLS], ca[EO_MAXCELLS], cb[EO_MAXCELLS];
    int rank_col[EO_MAXCOLS], rank_cell[EO_MAXCELLS];
    eo_canon_order(r, a, pa, ca);
    eo_canon_order(r, b, pb, cb);
    for (int k = 0; k < r->ncols; k++) rank_col[pa[k]] = k;
    for (int k = 0; k < r->ncells; k++) rank_cell[ca[k]] = k;
    uint8_t *ends[2] = {&m.src, &m.dst};
    for (int e = 0; e < 2; e++) {
        int v = *ends[e];
        if (v < EO_CELL)
            *ends[e] = (uint8_t)pb[rank_col[v]];
        else if (v < EO_FOUND)
            *ends[e] = (uint8_t)(EO_CELL + cb[rank_cell[v - EO_CELL]]);
        else if (v < EO_HOME && r->nfound == 8) {
            int f = v - EO_FOUND;
            if (b->found[f] != a->found[f]) f ^= 4;
            *ends[e] = (uint8_t)(EO_FOUND + f);
        }
    }
    return m;
}

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
 * path that one move reaches.  Returns 0, or -1 on allocation failure (path unchanged). */
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
    int olen = 0;
    memcpy(out, x->path, (size_t)root_len * sizeof(eo_move));
    memset(out_step, 0, (size_t)root_len);
    olen = root_len;
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
            for (int q = na - 1; q >= 0; q--) eo_undo(&cur, &au[q]);
            eo_undo(&cur, &m);
        }
        eo_move m;
        if (best >= 0) {
            m = ms[best];
        } else {
            m = eo_map_move(r, &states[i], &cur, x->path[first[i]]);
            bestj = i + 1;
        }
        eo_apply(r, &cur, &m);
        out_step[olen] = 1;
        out[olen++] = m;
        int na = eo_autos(r, &cur, out + olen);
        memset(out_step + olen, 0, (size_t)na);
        olen += na;
        i = bestj;
        if (olen > x->plen + 4) {
            ok = 0;
            break;
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

/* Solve from x->S: root auto-moves, search, shortening.  x->status says the verdict. */
static void eo_solve(eo_ctx *x, int shorten) {
    const eo_rules *r = &x->R;
    eo_state root;
    x->plen = 0;
    if (eo_path_reserve(x, r->total + 1) != 0) {
        x->status = EO_MEMORY_LIMIT;
        return;
    }
    int na = eo_autos(r, &x->S, x->path);
    memset(x->is_step, 0, (size_t)na);
    x->plen = na;
    root = x->S;
    eo_dfs(x);
    if (x->status == EO_SOLVED && shorten) eo_shorten(x, &root, na);
}

#endif
