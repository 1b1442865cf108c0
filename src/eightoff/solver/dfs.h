/* Depth-first search: the greedy dive (states remembered by hash, children scored and
 * tried best first, the first step home taken), and the complete depth-first search.
 */
#ifndef EIGHTOFF_DFS_H
#define EIGHTOFF_DFS_H

#include "context.h"

/* Room for an entry of `size` bytes per frame of x in the array p of *cap entries (64 at
 * first, doubling, the entries kept): the frames' column parts and record fields.
 * Returns the array, moved or not, or NULL out of memory (status set; p and *cap then
 * as they were). */
static inline void *eo_frames_room(eo_ctx *x, void *p, int *cap, size_t size) {
    if (x->nfr <= *cap) return p;
    int c = *cap ? *cap : 64;
    while (c < x->nfr) c *= 2;
    void *q = realloc(p, (size_t)c * size);
    if (q)
        *cap = c;
    else
        x->status = EO_MEMORY_LIMIT;
    return q;
}

/* The next draw of the depth-first search's score noise (xorshift). */
static inline uint64_t eo_rng_next(eo_ctx *x) {
    x->rng ^= x->rng << 13;
    x->rng ^= x->rng >> 7;
    x->rng ^= x->rng << 17;
    return x->rng;
}

/* Room for n more children on the stack of kids, and (one pack, hashes only) for the
 * column parts of the first EO_KPC_MAX of them (eo_enter_child); else status: memory
 * limit, -1. */
static inline int eo_kids_reserve(eo_ctx *x, int n) {
    int parts = EO_R(x)->nfound == 4 && x->hash_only;
    int want = x->kcap < EO_KPC_MAX ? x->kcap : EO_KPC_MAX;
    if (x->nkids + n <= x->kcap && (!parts || x->kpccap == want)) return 0;
    if (x->nkids + n > x->kcap) {
        int cap = x->kcap ? x->kcap : 256;
        while (cap < x->nkids + n) cap *= 2;
        eo_child *k = (eo_child *)realloc(x->kids, (size_t)cap * sizeof(eo_child));
        if (!k) {
            x->status = EO_MEMORY_LIMIT;
            return -1;
        }
        x->kids = k;
        x->kcap = cap;
        want = cap < EO_KPC_MAX ? cap : EO_KPC_MAX;
    }
    if (parts && x->kpccap < want) {
        eo_pcache *p = (eo_pcache *)realloc(x->kpc, (size_t)want * sizeof(eo_pcache));
        if (!p) {
            x->status = EO_MEMORY_LIMIT;
            return -1;
        }
        x->kpc = p;
        x->kpccap = want;
    }
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

/* A kid's state: its recorded moves (eo_kid_record) made on s, its frame's state. */
static inline void eo_kid_state(const eo_ctx *x, const eo_child *k, eo_state *s) {
    const eo_move *ms = x->kmv + k->off;
    for (int i = 0; i < k->ns + k->na; i++) {
        eo_move m = ms[i];
        eo_apply(EO_R(x), s, &m);
    }
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
        eo_apply(EO_R(x), &x->S, &out[i]);
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
    const eo_rules *r = EO_R(x);
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
    if (eo_kids_reserve(x, 1) != 0) {
        eo_undo_all(s, au, na);
        eo_undo(s, &m);
        return -1;
    }
    /* the kid's column parts, made once (eo_frame_parts), while there is room for them */
    eo_pcache *kp = x->nkids < x->kpccap ? &x->kpc[x->nkids] : NULL;
    if (kp) eo_pcache_child(r, s, pcp, mask, kp);
    int id = eo_hset_insert(x, kp ? eo_state_hash_finish(r, s, kp->sumh)
                                  : eo_child_hash(r, s, pcp, mask));
    eo_undo_all(s, au, na);
    eo_undo(s, &m);
    if (id == -1 || eo_over_limits(x)) {
        if (x->status == EO_RUNNING) x->status = EO_MEMORY_LIMIT;
        return -1;
    }
    if (id == 0) return -2;
    if (x->noise) eo_rng_next(x); /* the draw eo_expand makes for each child it enters */
    eo_child *k = &x->kids[x->nkids++];
    k->m = m;
    k->score = 0;
    k->pc = kp ? x->nkids - 1 : -1;
    if (eo_kid_record(x, k, &m, 1, au, na) != 0) return -1;
    return 2;
}

/* The passes of one expansion (eo_expand), in the order they may run:
 *   EO_PASS_DIGS_HOME       (dive.home_digs_before_moves) the digs home alone, fewest
 *                           cards first, before any other step is generated;
 *   EO_PASS_CELL_TO_PARENT  (dive.cell_to_parent_first, after the first) the moves of a
 *                           cell card onto its parent alone;
 *   EO_PASS_STEPS           every step (those already made left out). */
enum { EO_PASS_DIGS_HOME = 0, EO_PASS_STEPS = 1, EO_PASS_CELL_TO_PARENT = 2 };

/* What the passes of one expansion of x->S share. */
typedef struct {
    int resume;     /* 0 a first expansion, else eo_frame.more: 1 the steps after a failed
                       dig home, 2 the digs onto a parent after the other steps failed */
    int pass;       /* EO_PASS_... */
    int digs_first; /* (dive.home_digs_before_moves) the first pass is EO_PASS_DIGS_HOME */
    int parents_later; /* (dive_parent_digs_last) the digs onto a parent wait for resume 2 */
    int cp;         /* (dive.cell_to_parent_first) the rule holds in this state */
    int cp_tried;   /* EO_PASS_CELL_TO_PARENT made those moves, none to a new state */
    int stopped;    /* the dive took a child and tried no more */
    int k0;         /* the first of this state's kids */
    int home0, space0; /* cards home, empty cells and columns in this state */
    int nput;       /* digs home put off by EO_PASS_DIGS_HOME to EO_PASS_STEPS */
    eo_move put_off[EO_MAXMOVES];
    eo_move back;   /* the move back to the parent state, left out unmade */
    eo_pcache *pcp; /* the state's column parts (one pack), else NULL */
    const eo_cparts *cpp; /* the state's record fields (eo_keeps_cparts), else NULL */
} eo_expansion;

/* Whether the search keeps its frames' record fields (eo_cparts): the complete search
 * (seen states kept exactly, in compact records) in suit. */
static inline int eo_keeps_cparts(const eo_ctx *x) {
    return !x->hash_only && x->C.on && !EO_R(x)->alt;
}

/* The record fields of the frame's state (eo_keeps_cparts), from its parent's and the
 * columns the step to it touched (`touched`), or in full at the root, as the column
 * parts below are.  -1 out of memory. */
static inline int eo_frame_cparts(eo_ctx *x, unsigned touched) {
    int f = x->nfr - 1;
    eo_cparts *cps = (eo_cparts *)eo_frames_room(x, x->cps, &x->cpcap, sizeof(eo_cparts));
    if (!cps) return -1;
    x->cps = cps;
    eo_cparts_update(&x->C, EO_R(x), &x->S, f >= 1 ? &cps[f - 1] : NULL, touched, &cps[f]);
    return 0;
}

/* The column parts of the frame's state (one pack; else *pcp NULL): made from its
 * parent's (only the columns the step to it touched), or in full at the root, or kept
 * from the expansion before (resume); with them the record fields (eo_frame_cparts).
 * -1 out of memory. */
static inline int eo_frame_parts(eo_ctx *x, int resume, eo_pcache **pcp) {
    *pcp = NULL;
    if (EO_R(x)->nfound != 4) return 0;
    int f = x->nfr - 1;
    eo_pcache *pcs = (eo_pcache *)eo_frames_room(x, x->pcs, &x->pccap, sizeof(eo_pcache));
    if (!pcs) return -1;
    x->pcs = pcs;
    *pcp = &x->pcs[f];
    if (resume) return 0;
    /* the columns the step to this state touched (none at the root) */
    unsigned touched =
        f >= 1 ? eo_touched(x->path + x->fr[f].path0, x->plen - x->fr[f].path0) : 0;
    if (eo_keeps_cparts(x) && eo_frame_cparts(x, touched) != 0) return -1;
    if (f >= 1 && x->kid_in >= 0 && x->kids[x->kid_in].pc >= 0)
        **pcp = x->kpc[x->kids[x->kid_in].pc]; /* made as the kid was entered (eo_enter_child) */
    else if (f >= 1)
        eo_pcache_child(EO_R(x), &x->S, &x->pcs[f - 1], touched, *pcp);
    else
        eo_pcache_fill(EO_R(x), &x->S, *pcp);
    return 0;
}

/* When the step to this state was one single move and no auto-move followed, the move
 * back leads to the state before it, which was entered: that move (else none). */
static inline eo_move eo_back_move(const eo_ctx *x) {
    const eo_frame *fr = &x->fr[x->nfr - 1];
    if (x->nfr >= 2 && x->plen - fr->path0 == 1) {
        eo_move last = x->path[fr->path0];
        if (last.src < EO_FOUND && last.dst < EO_FOUND) return eo_mv(last.dst, last.src, last.n);
    }
    return eo_mv(255, 255, 0);
}

static inline void eo_expansion_init(eo_ctx *x, eo_expansion *e, int resume, eo_pcache *pcp) {
    const eo_state *s = &x->S;
    int dive = x->is_dive && x->steps != EO_STEPS_SINGLE;
    e->resume = resume;
    e->pcp = pcp;
    e->cpp = pcp && eo_keeps_cparts(x) ? &x->cps[x->nfr - 1] : NULL;
    e->digs_first = !resume && dive && x->plan.dive.home_digs_before_moves && pcp;
    e->parents_later = !resume && !e->digs_first && dive && x->dive_parent_digs_last &&
                       (x->dig_kinds & 1 << EO_DIG_PARENT);
    e->pass = e->digs_first ? EO_PASS_DIGS_HOME : EO_PASS_STEPS;
    e->cp = x->is_dive && x->plan.dive.cell_to_parent_first &&
            s->free_cells <= EO_CELL_TO_PARENT_FREE;
    e->cp_tried = e->stopped = e->nput = 0;
    e->k0 = x->nkids;
    e->home0 = s->home;
    e->space0 = s->free_cells + s->free_cols;
    e->back = eo_back_move(x);
}

/* Whether a step moves a cell card onto a card on top of a column (its parent). */
static inline int eo_cell_onto_column(const eo_state *s, eo_move m) {
    return m.src >= EO_CELL && m.src < EO_FOUND && m.dst < EO_CELL && s->len[m.dst];
}

/* The steps of the expansion's pass, in the order they are tried. */
static int eo_pass_steps(eo_ctx *x, eo_expansion *e, eo_move *ms) {
    const eo_rules *r = EO_R(x);
    const eo_state *s = &x->S;
    int n;
    if (e->pass == EO_PASS_DIGS_HOME) {
        n = (x->dig_kinds & 1 << EO_DIG_HOME) ? eo_dig_home_moves(r, s, e->pcp, ms) : 0;
    } else if (e->pass == EO_PASS_CELL_TO_PARENT) {
        n = eo_cell_to_parent_moves(r, s, ms);
    } else if (e->digs_first) {
        /* the single moves, the other digs, then the digs home put off */
        n = eo_all_steps_m(x, s, ms, e->pcp, x->dig_kinds & ~(1 << EO_DIG_HOME));
        for (int i = 0; i < e->nput && n < EO_MAXMOVES; i++) ms[n++] = e->put_off[i];
    } else if (e->resume == 2) { /* the other steps failed: the digs onto a parent */
        int runs[EO_MAXCOLS];
        n = eo_macro_moves(r, s, ms, EO_MAXMOVES, 1 << EO_DIG_PARENT, eo_runs_of(r, e->pcp, runs));
    } else {
        int digs = e->parents_later ? x->dig_kinds & ~(1 << EO_DIG_PARENT) : x->dig_kinds;
        n = eo_all_steps_m(x, s, ms, e->pcp, digs);
    }
    if (x->is_dive && x->plan.dive.home_moves_first) {
        /* the moves home (and with dig_home_first the digs home) first, in their order:
         * the dive stops at the first that leads to a new state, scoring no sibling */
        int h = 0, dig_home = x->plan.dive.dig_home_first ? EO_MACRO + EO_DIG_HOME : -1;
        for (int i = 0; i < n; i++)
            if (ms[i].dst == EO_HOME || ms[i].src == dig_home) {
                eo_move t = ms[i];
                memmove(ms + h + 1, ms + h, (size_t)(i - h) * sizeof(eo_move));
                ms[h++] = t;
            }
    }
    if (e->cp && e->pass == EO_PASS_STEPS) {
        /* a cell card onto its parent first (stable), or left out if the pass before
         * made those moves already */
        int h = 0;
        for (int i = 0; i < n; i++) {
            eo_move t = ms[i];
            if (eo_cell_onto_column(s, t)) {
                if (e->cp_tried) continue;
                memmove(ms + h + 1, ms + h, (size_t)(i - h) * sizeof(eo_move));
                ms[h++] = t;
            } else if (e->cp_tried) {
                ms[h++] = t;
            }
        }
        if (e->cp_tried) n = h;
    }
    return n;
}

/* The outcome of one step tried (eo_try_step). */
enum { EO_TRY_NEXT = 0, EO_TRY_STOP = 2, EO_TRY_WON = 1, EO_TRY_LIMIT = -1 };

/* Enter x->S, a child made (step and auto-moves) and not yet undone, into the seen
 * states, and if it is new put it on the kids' stack with its score.  Returns 1 entered,
 * 0 seen before, -1 out of memory; *progress: the dive takes this child and tries no
 * more (a step home; onto_parent: a cell card onto its parent, dive.cell_to_parent_first). */
static inline int eo_enter_child(eo_ctx *x, eo_expansion *e, eo_move m, const eo_move *step,
                                 int ns, const eo_move *au, int na, int last, int onto_parent,
                                 int *progress) {
    const eo_rules *r = EO_R(x);
    eo_state *s = &x->S;
    unsigned mask = e->pcp || e->cpp ? eo_touched(step, ns) | eo_touched(au, na) : 0;
    long id;
    *progress = 0;
    /* one pack, hashes only (the dives, the searches over meta steps): the child's column
     * parts, in the slot of the kid it may become (room reserved by eo_expand): its hash,
     * its score and, if it is entered, its frame's parts (eo_frame_parts) come from them.
     * Not kept by the complete search, whose stack of kids can grow to gigabytes, nor
     * past the first EO_KPC_MAX kids on the stack (eo_kids_reserve). */
    eo_pcache *kp = e->pcp && x->hash_only && x->nkids < x->kpccap ? &x->kpc[x->nkids] : NULL;
    if (kp) eo_pcache_child(r, s, e->pcp, mask, kp);
    if (x->hash_only) { /* the hash first: a state seen before is not scored */
        id = eo_hset_insert(x, kp      ? eo_state_hash_finish(r, s, kp->sumh)
                               : e->pcp ? eo_child_hash(r, s, e->pcp, mask)
                                        : eo_state_hash(r, s));
        if (id == 0) return 0;
    } else if (e->cpp) { /* the record from the frame's fields, the touched columns' made */
        eo_cparts cp;
        eo_cparts_update(&x->C, r, s, e->cpp, mask, &cp);
        id = eo_seen_insert_parts(x, s, &cp);
    } else {
        id = eo_seen_insert(x, s);
    }
    if (id == -1) return -1;
    if (id < 0) return 0;
    eo_child *c = &x->kids[x->nkids++];
    c->pc = kp ? x->nkids - 1 : -1;
    c->m = m;
    if (eo_kid_record(x, c, step, ns, au, na) != 0) {
        x->nkids--;
        x->kid_lost = 1;
        return -1;
    }
    if (x->is_dive) {
        /* with home_stop_keeps_space, a step home that costs space is scored instead */
        int space = s->free_cells + s->free_cols;
        *progress = onto_parent || (s->home > e->home0 &&
                                    !(x->plan.dive.home_stop_keeps_space && space < e->space0));
    }
    /* a child that will be its state's only one (taken, or the last step) needs no score */
    int lone = x->is_dive && x->nkids == e->k0 + 1 && (last || *progress);
    c->score = lone || x->meta_plain ? 0
               : kp                    ? eo_pcache_score(r, s, kp, &x->w)
               : e->pcp                ? eo_child_score(r, s, e->pcp, mask, &x->w)
                        : eo_score(r, s, &x->w);
    if (x->noise) c->score += (int32_t)(eo_rng_next(x) % (uint64_t)x->noise);
    return 1;
}

/* Try one step of the pass from x->S: make it and its auto-moves, enter the child, undo
 * them.  In EO_PASS_DIGS_HOME a dig that costs more than one empty cell or column is put
 * off to EO_PASS_STEPS instead.  last: the pass's last step (EO_PASS_STEPS);
 * onto_parent: see eo_enter_child.  Returns EO_TRY_... */
static inline int eo_try_step(eo_ctx *x, eo_expansion *e, eo_move m, int last, int onto_parent) {
    const eo_rules *r = EO_R(x);
    eo_state *s = &x->S;
    eo_move step[EO_STEPMAX];
    eo_move au[2 * 52 + 8];
    if (m.src == e->back.src && m.dst == e->back.dst && m.n == e->back.n) {
        if (!eo_over_limits(x)) return EO_TRY_NEXT;
        if (x->status == EO_RUNNING) x->status = EO_MEMORY_LIMIT;
        return EO_TRY_LIMIT;
    }
    int ns = eo_step(r, s, m, step);
    if (ns < 0) return EO_TRY_NEXT;
    int na = eo_autos_after(r, s, step, ns) ? eo_autos(r, s, au) : 0;
    if (s->home == r->total) {
        eo_undo_all(s, au, na);
        if (eo_record_step(x, step, ns) != 0) {
            x->status = EO_MEMORY_LIMIT;
            return EO_TRY_LIMIT;
        }
        x->status = EO_SOLVED;
        return EO_TRY_WON;
    }
    if (e->pass == EO_PASS_DIGS_HOME && s->free_cells + s->free_cols < e->space0 - 1) {
        eo_undo_all(s, au, na);
        eo_undo_all(s, step, ns);
        e->put_off[e->nput++] = m;
        return EO_TRY_NEXT;
    }
    int progress;
    int entered = eo_enter_child(x, e, m, step, ns, au, na, last, onto_parent, &progress);
    eo_undo_all(s, au, na);
    eo_undo_all(s, step, ns);
    if (entered < 0 || eo_over_limits(x)) {
        if (x->status == EO_RUNNING) x->status = EO_MEMORY_LIMIT;
        return EO_TRY_LIMIT;
    }
    return progress ? EO_TRY_STOP : EO_TRY_NEXT;
}

/* The pass after this one, if any (n: the steps this one had). */
static inline int eo_next_pass(eo_expansion *e, int n) {
    if (e->pass == EO_PASS_DIGS_HOME) {
        e->pass = e->cp ? EO_PASS_CELL_TO_PARENT : EO_PASS_STEPS;
        return 1;
    }
    if (e->pass == EO_PASS_CELL_TO_PARENT) {
        e->pass = EO_PASS_STEPS;
        if (n)
            e->cp_tried = 1;
        else
            e->cp = 0; /* none: nothing to leave out or to take */
        return 1;
    }
    return 0;
}

/* Sort this state's kids (from k0), best score first, stable (insertion sort). */
static inline void eo_sort_kids(eo_ctx *x, int k0) {
    for (int i = k0 + 1; i < x->nkids; i++) {
        eo_child c = x->kids[i];
        int j = i;
        while (j > k0 && x->kids[j - 1].score < c.score) {
            x->kids[j] = x->kids[j - 1];
            j--;
        }
        x->kids[j] = c;
    }
}

/* Generate, enter into the seen states, score and sort the children of the current
 * state (the top frame's), in passes (see EO_PASS_...); the dive takes the first child
 * that sends a card home and tries no more.  resume: the state expanded again after its
 * kids failed (eo_frame.more).  Returns 1 when a child wins (it is then made and on the
 * path), 0 otherwise, -1 when a limit is reached. */
static int eo_meta_expand(eo_ctx *x, int resume);

static int eo_expand(eo_ctx *x, int resume) {
    if (x->meta) return eo_meta_expand(x, resume);
    eo_pcache *pcp;
    if (eo_frame_parts(x, resume, &pcp) != 0) return -1;
    if (x->is_dive && x->plan.dive.home_moves_first && pcp && resume != 2) {
        int q = eo_dive_home_first(x, pcp);
        if (q != -2) return q == 2 ? 0 : q;
    }
    eo_expansion e;
    eo_move ms[EO_MAXMOVES];
    eo_expansion_init(x, &e, resume, pcp);
    for (;;) {
        int n = eo_pass_steps(x, &e, ms);
        if (eo_kids_reserve(x, n) != 0) return -1;
        int takes_cp = e.cp && (e.pass == EO_PASS_CELL_TO_PARENT ||
                                (e.pass == EO_PASS_STEPS && !e.cp_tried));
        for (int i = 0; i < n && !e.stopped; i++) {
            int last = e.pass == EO_PASS_STEPS && i == n - 1;
            int q = eo_try_step(x, &e, ms[i], last, takes_cp && eo_cell_onto_column(&x->S, ms[i]));
            if (q == EO_TRY_WON || q == EO_TRY_LIMIT) return q;
            e.stopped = q == EO_TRY_STOP;
        }
        if (e.stopped || !eo_next_pass(&e, n)) break;
    }
    eo_frame *f = &x->fr[x->nfr - 1];
    if (e.pass == EO_PASS_DIGS_HOME) f->more = 1; /* took a dig home: the rest if it fails */
    if (e.parents_later && !e.stopped) f->more = 2; /* the digs onto a parent if all fail */
    eo_sort_kids(x, e.k0);
    return 0;
}

/* The kind of meta step at position pos of the search's order (0: none): a nibble each
 * from the lowest (kind - EO_META_HOME + 1) in the low 48 bits; bit 48 + pos set when
 * the kind at pos is tried in one group with the kind before it. */
static inline int eo_meta_kind(const eo_ctx *x, int pos) {
    int v = pos < 12 ? (int)((unsigned long)x->meta >> (4 * pos) & 15) : 0;
    return v ? EO_META_HOME + v - 1 : 0;
}

static inline int eo_meta_joins(const eo_ctx *x, int pos) {
    return pos < 12 && ((unsigned long)x->meta >> (48 + pos) & 1);
}

/* Expand the current state of a search over meta steps (x->meta): the steps of one group
 * of kinds at a time, from position `resume` of the order, until a group gives a new
 * child; those children are the frame's (sorted best score first unless meta_plain; the
 * score noise, if any, shuffles them), and the frame resumes at the next group when they
 * fail (eo_frame.more), as Freecell Solver's soft-DFS runs its tests one after another.
 * Returns as eo_expand. */
static int eo_meta_expand(eo_ctx *x, int resume) {
    eo_pcache *pcp;
    if (eo_frame_parts(x, resume, &pcp) != 0) return -1;
    eo_expansion e;
    eo_move ms[EO_MAXMOVES];
    eo_expansion_init(x, &e, resume, pcp);
    eo_frame *f = &x->fr[x->nfr - 1];
    f->more = 0;
    for (int pos = resume; eo_meta_kind(x, pos);) {
        do {
            int kind = eo_meta_kind(x, pos);
            int n = kind == EO_META_ALL ? eo_all_steps(x, &x->S, ms, e.pcp)
                                        : eo_meta_moves(EO_R(x), &x->S, kind, ms, EO_MAXMOVES);
            if (eo_kids_reserve(x, n) != 0) return -1;
            for (int i = 0; i < n; i++) {
                int q = eo_try_step(x, &e, ms[i], 0, 0);
                if (q == EO_TRY_WON || q == EO_TRY_LIMIT) return q;
            }
            pos++;
        } while (eo_meta_kind(x, pos) && eo_meta_joins(x, pos));
        if (x->nkids > e.k0) {
            f = &x->fr[x->nfr - 1];
            f->more = eo_meta_kind(x, pos) ? pos : 0;
            break;
        }
    }
    if (!x->meta_plain || x->noise) eo_sort_kids(x, e.k0);
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
    const eo_rules *r = EO_R(x);
    if (x->S.home == r->total) {
        x->status = EO_SOLVED;
        return 1;
    }
    long id = x->hash_only ? eo_hset_insert(x, eo_state_hash(r, &x->S)) : (eo_seen_begin(x) ? -1 : 0);
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
        x->kid_in = (int)(k - x->kids);
        int q = eo_expand(x, 0);
        x->kid_in = -1;
        if (q) return;
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
