/* Depth-first search: the greedy dive (states remembered by hash, children scored and
 * tried best first, the first step home taken), and the complete depth-first search.
 */
#ifndef EIGHTOFF_DFS_H
#define EIGHTOFF_DFS_H

#include "context.h"

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

#endif
