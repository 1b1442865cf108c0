/* The heuristic and the dive's hash: how promising a state looks (eo_score, weights
 * named in plan.h) and a 64-bit hash of its canonical form (eo_state_hash), both also
 * computed for a child from its parent's column parts, looking again only at the
 * columns its step touched (one pack).  Held to the full computations by checks.h.
 */
#ifndef EIGHTOFF_HEURISTIC_H
#define EIGHTOFF_HEURISTIC_H

#include "core.h"
#include "plan.h"

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

/* The top runs' lengths of the column parts pc in runs, which is returned; NULL if pc is
 * NULL (the generators then find the runs themselves). */
static inline const int *eo_runs_of(const eo_rules *r, const eo_pcache *pc, int *runs) {
    if (!pc) return NULL;
    for (int c = 0; c < r->ncols; c++) runs[c] = pc->run[c];
    return runs;
}

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
    /* the cards below, a bit by card code: a card is a blocker when one of the bits of
     * its suit's lower ranks is set (the only value carried from card to card) */
    uint64_t below = (uint64_t)1 << col[0];
    int prev = col[0], blk = 0, prs = 0, run = 1;
    /* one pack: each card lies in one place, so its depth is simply written */
    if (onepack || L - 1 < depth[prev]) depth[prev] = (uint8_t)(L - 1);
    for (int j = 1; j < L; j++) {
        int card = col[j], rk = card >> 2;
        int d = L - 1 - j;
        if (onepack || d < depth[card]) depth[card] = (uint8_t)d;
        uint64_t lower = (((uint64_t)1 << (card & ~3)) - 1) & (0x1111111111111111ULL << (card & 3));
        blk += (below & lower) != 0;
        below |= (uint64_t)1 << card;
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

/* The score (eo_score) of a state s whose column parts are pc (eo_pcache_child's). */
static inline int eo_pcache_score(const eo_rules *r, const eo_state *s, const eo_pcache *pc,
                                  const eo_weights *w) {
    uint8_t depth[64];
    memcpy(depth, pc->depth, sizeof(depth)); /* eo_score_finish writes the cells' cards */
    return eo_score_finish(r, s, w, depth, pc->sbad, pc->sblk, pc->sprs);
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

#endif
