/* Shortening a solution: from each state along it, jump to the latest later state that
 * one single move reaches.
 */
#ifndef EIGHTOFF_SHORTEN_H
#define EIGHTOFF_SHORTEN_H

#include "context.h"
#include "bestfirst.h"

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
    const eo_rules *r = EO_R(x);
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

#endif
