/* Best-first search: the open state with the best score is expanded next; states are
 * kept by canonical key, and the path is rebuilt from the parents at the end, each step
 * mapped from the canonical layout onto the real one.
 */
#ifndef EIGHTOFF_BESTFIRST_H
#define EIGHTOFF_BESTFIRST_H

#include "context.h"

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
    int n = eo_step(EO_R(x), &canon, m, ms);
    if (n < 0) return -1;
    int na = eo_autos(EO_R(x), &canon, ms + n);
    if (eo_path_reserve(x, n + na) != 0) return -1;
    eo_layout_map mp;
    eo_layout_map_of(EO_R(x), a, &x->S, &mp);
    for (int i = 0; i < n + na; i++) {
        eo_move mm = eo_map_by(&mp, ms[i]);
        eo_apply(EO_R(x), &x->S, &mm);
        x->is_step[x->plen] = i == 0;
        x->path[x->plen++] = mm;
    }
    return 0;
}

/* Per state id its parent and its depth, in blocks of EO_CBLOCK ids (parents, then
 * depths): grown a block at a time, never copied. */
static inline uint32_t *eo_parent_at(const eo_ctx *x, size_t id) {
    return (uint32_t *)x->nodes[id >> EO_CBLOCK_BITS] + (id & (EO_CBLOCK - 1));
}

static inline uint16_t *eo_depth_at(const eo_ctx *x, size_t id) {
    return (uint16_t *)((uint32_t *)x->nodes[id >> EO_CBLOCK_BITS] + EO_CBLOCK) +
           (id & (EO_CBLOCK - 1));
}

static inline int eo_ids_reserve(eo_ctx *x, size_t n) {
    while (n > x->nnodes * EO_CBLOCK) {
        if (x->nnodes == x->nodecap) {
            size_t cap = x->nodecap ? x->nodecap * 2 : 16;
            uint8_t **p = (uint8_t **)realloc(x->nodes, cap * sizeof(uint8_t *));
            if (!p) return -1;
            x->nodes = p;
            x->nodecap = cap;
        }
        x->nodes[x->nnodes] = (uint8_t *)malloc(EO_CBLOCK * EO_NODE_BYTES);
        if (!x->nodes[x->nnodes]) return -1;
        x->nnodes++;
    }
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


/* The step from state s (a seen state, in its canonical layout) that leads to the state
 * of canonical key want[0..wn): the first of s's steps, in the order eo_befs_run tries
 * them, that leads there (the one that entered it, as any earlier one leading there
 * would have); states compared by canonical key.  -1 if none does.  s is left as it was. */
static int eo_step_to(eo_ctx *x, eo_state *s, const uint8_t *want, int wn, eo_move *out) {
    const eo_rules *r = EO_R(x);
    eo_move ms[EO_MAXMOVES], step[EO_STEPMAX], au[2 * 52 + 8];
    uint8_t key[EO_MAXKEY];
    eo_pcache pc;
    int incremental = r->nfound == 4;
    if (incremental) eo_pcache_fill_h(r, s, &pc, 0);
    int n = eo_all_steps(x, s, ms, incremental ? &pc : NULL);
    for (int i = 0; i < n; i++) {
        int ns = eo_step(r, s, ms[i], step);
        if (ns < 0) continue;
        int na = eo_autos_after(r, s, step, ns) ? eo_autos(r, s, au) : 0;
        int same = eo_key(r, s, key) == wn && memcmp(key, want, (size_t)wn) == 0;
        eo_undo_all(s, au, na);
        eo_undo_all(s, step, ns);
        if (same) {
            *out = ms[i];
            return 0;
        }
    }
    return -1;
}

/* The step from seen state `from` that entered seen state `to` (its child), in the
 * canonical layout of `from` (eo_step_to).  -1 if none does. */
static int eo_step_between(eo_ctx *x, uint32_t from, uint32_t to, eo_move *out) {
    uint8_t want[EO_MAXKEY];
    eo_state s;
    eo_seen_state(x, to, &s);
    int wn = eo_key(EO_R(x), &s, want);
    eo_seen_state(x, from, &s);
    return eo_step_to(x, &s, want, wn, out);
}

/* Put on the path the steps from the root (x->S, real layout, after its auto-moves)
 * to state `id`, then `last` (a step in the canonical layout of `id`). */
static int eo_befs_path(eo_ctx *x, uint32_t id, eo_move last) {
    size_t n = 0;
    for (uint32_t i = id; i != 0; i = *eo_parent_at(x, i)) n++;
    /* ids[0] is the root, ids[n] == id; ids[j + 1] was reached from ids[j] */
    uint32_t *ids = (uint32_t *)malloc((n + 1) * sizeof(uint32_t));
    if (!ids) return -1;
    size_t k = n;
    for (uint32_t i = id; i != 0; i = *eo_parent_at(x, i)) ids[k--] = i;
    ids[0] = 0;
    eo_state canon;
    for (size_t j = 0; j <= n; j++) {
        eo_move m = last;
        if (j < n && eo_step_between(x, ids[j], ids[j + 1], &m) != 0) {
            free(ids);
            return -1;
        }
        eo_seen_state(x, ids[j], &canon);
        if (eo_push_mapped_step(x, &canon, m) != 0) {
            free(ids);
            return -1;
        }
    }
    free(ids);
    return 0;
}

/* Whether this best-first search looks its children up by hash (the dives' 64-bit hash of
 * the canonical state, made from the parent's column parts: eo_child_hash) and writes a
 * record into the compact store only for a child it enters (eo_cstore_append), so that
 * the children seen before, most of them, cost no record: the same states as the exact
 * lookup but for a collision, which can only hide a state from a search whose failure
 * proves nothing.  So over purposeful steps only (a portfolio member's, the best-first
 * stage): the complete search, whose exhaustion says "lost", tries the plan's
 * complete_steps and keeps its exact lookup.  One pack: the compact store is on. */
static inline int eo_befs_by_hash(const eo_ctx *x) {
    return x->steps == EO_STEPS_PURPOSEFUL && x->C.on;
}

/* Best-first search from x->S (root auto-moves already on the path): always expand the
 * open state with the best score (heuristic, minus w.per_move per move made that is not home). */
static int eo_befs_begin(eo_ctx *x) {
    const eo_rules *r = EO_R(x);
    if (x->S.home == r->total) {
        x->status = EO_SOLVED;
        return 1;
    }
    if (eo_seen_begin(x) != 0 || eo_ids_reserve(x, 1) != 0 ||
        eo_heap_push(x, 0, 0) != 0) {
        x->status = EO_MEMORY_LIMIT;
        return 1;
    }
    if (eo_befs_by_hash(x) && eo_hset_enter(x, eo_state_hash(r, &x->S)) < 0) {
        x->status = EO_MEMORY_LIMIT;
        return 1;
    }
    *eo_parent_at(x, 0) = 0;
    *eo_depth_at(x, 0) = 0;
    x->cur_id = 0;
    x->cur_from = 0;
    return 0;
}

/* Go on with a best-first search until it ends (x->status set) or, with until > 0,
 * until its table holds `until` states (x->status still EO_RUNNING: it can resume). */
static void eo_befs_run(eo_ctx *x, long until) {
    const eo_rules *r = EO_R(x);
    eo_move ms[EO_MAXMOVES];
    eo_move step[EO_STEPMAX];
    eo_move au[2 * 52 + 8];
    eo_state s;
    eo_pcache pc;
    int incremental = r->nfound == 4, hashed = eo_befs_by_hash(x); /* (one pack too) */
    while (x->nheap) {
        if (until > 0 && eo_states(x) >= until) return;
        uint32_t id = eo_heap_pop(x);
        x->cur_id = id;
        x->cur_from = (size_t)eo_states(x);
        eo_seen_state(x, id, &s);
        int depth0 = *eo_depth_at(x, id);
        if (incremental) eo_pcache_fill_h(r, &s, &pc, hashed);
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
            unsigned touched = incremental ? eo_touched(step, ns) | eo_touched(au, na) : 0;
            long cid;
            if (hashed) {
                int fresh = eo_hset_enter(x, eo_child_hash(r, &s, &pc, touched));
                cid = fresh < 0 ? -1 : fresh ? eo_cstore_append(&x->C, r, &s) : -2;
            } else {
                cid = eo_seen_insert(x, &s);
            }
            int depth = depth0;
            for (int j = 0; j < ns; j++) depth += step[j].dst < EO_FOUND;
            if (cid >= 0) {
                if (eo_ids_reserve(x, (size_t)cid + 1) != 0 ||
                    eo_heap_push(x,
                                 (incremental ? eo_child_score(r, &s, &pc, touched, &x->w)
                                              : eo_score(r, &s, &x->w)) - x->w.per_move * depth,
                                 (uint32_t)cid) != 0) {
                    x->status = EO_MEMORY_LIMIT;
                    return;
                }
                *eo_parent_at(x, (size_t)cid) = id;
                *eo_depth_at(x, (size_t)cid) = (uint16_t)(depth < 65535 ? depth : 65535);
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

#endif
