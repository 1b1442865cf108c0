/* The search.  Plain C, included by _core.pyx after core.h.  The parts, by concern:
 *   plan.h       the plan as the core reads it (plans.py's records, by field name)
 *   heuristic.h  the score of a state, the dive's hash, both incremental
 *   steps.h      auto-moves, single moves, digging steps, meta steps (after Freecell
 *                Solver's meta-moves: the cards above one or two places cleared into
 *                cells and empty columns, then one move)
 *   context.h    a search's context, buffers, limits, the steps it tries
 *   dfs.h        depth-first: the dive, the searches over meta steps a group of kinds
 *                at a time, and the complete depth-first search
 *   bestfirst.h  best-first search
 *   shorten.h    shortening a solution
 *   disk.h       the complete search on disk, where its memory ends
 *   search.h     the portfolio and eo_solve, the stages in turn (this file), and
 *                eo_solve_any, which runs the copy compiled for the rules (fixed.h)
 *   fixed.h      the copies of the search compiled for one variant's rules each
 *                (fixed_*.c, beside the module in the same extension)
 *   checks.h     checks for the differential test only (not included here)
 *
 * eo_solve runs up to three searches, each afresh if the one before failed:
 *  1. a greedy depth-first dive over purposeful steps (single moves other than a
 *     column card into a cell, and "digging" steps: clear the cards above a card, then
 *     send it home or move it onto a parent); states remembered by hash only;
 *  2. a best-first search over purposeful steps, children scored by a heuristic;
 *  3. the complete search: every single move (up to symmetry), best-first.
 * Cards the safe rule allows go home at once after every step, each its own move.
 * The first two are not complete, so their failure proves nothing; only the third
 * can end "lost".  Where a search runs out of memory (with the plan's memory_beam), a
 * beam search has a try for a win, once the tables are freed or taken over on disk
 * (eo_beam_fallback, optimal.h): not complete either, it can only end "solved", with a
 * solution the compiled replay checks like any other.  In short mode the solution is
 * then shortened (eo_shorten).
 *
 * Soundness of "lost" (the complete search):
 *  - every state the table holds is expanded before the search can end "lost"
 *    (children are entered into the table when generated; depth-first, each frame
 *    runs through all its children; best-first, every entered state is queued), and
 *    the seen states are compared whole: one pack, by a record that decodes back to
 *    the canonical state (compact.h, which says why it is exact), else by the full
 *    canonical key; no hash decides that two states are the same;
 *  - the canonical key only identifies states that are the same game up to the
 *    order of columns, of cells and (two packs) of a suit's two foundations, all
 *    interchangeable by the rules;
 *  - the single moves tried reach, up to that identification, every legal move's
 *    result (left out: to another empty cell, to another empty column, cell to cell,
 *    a whole column into an empty column); digging steps, when added, are sequences
 *    of legal moves, extra edges that never replace a single move; so are meta steps
 *    (plan.complete_meta, depth-first only): a state is expanded a group of meta kinds
 *    at a time, and its last group is always every step of complete_steps, so each
 *    state entered still gets every single move before its frame can end;
 *  - the cards sent home at once are those eo_safe allows (see core.h).
 * tests/unit/test_core_differential.py checks the move generation, the reach of the
 * single moves tried, the safe rule and the canonical key against the Python engine.
 *
 * Soundness of "lost" on disk (disk.h, run when a stage ends at the memory limit, the
 * disk limit is not 0 and the plan has the complete stage):
 *  - its relation is the complete search's, the same function of a state: the steps of
 *    eo_all_steps under the plan's complete_steps, each followed by eo_autos, a won
 *    child ending it; states identified by the same exact compact record (or full key);
 *  - taking over the in-memory best-first search, it starts from every state that
 *    search entered (layer 0, the first seen file): each was expanded there in full
 *    (its children all entered) but those of layer 1: the open list, the state being
 *    expanded when the memory ended, and the children entered since (pushed or not);
 *  - taking over the in-memory depth-first search (without meta steps), likewise: a
 *    state it entered is a kid of a frame of its stack, or the root, or was expanded
 *    in full (a frame is popped only once it has entered every child and run through
 *    all its kids, each of which was popped in turn); layer 1 is every kid of every
 *    frame (every frame but the root is one) and the root if its expansion was cut
 *    short; a kid entered into the seen states whose moves could not be kept (out of
 *    memory, eo_ctx.kid_lost) makes it start afresh from the root instead;
 *  - every state it keeps is expanded: layer d's file is read whole before layer d + 1
 *    is made, and an empty layer is the only way to "lost";
 *  - the duplicate removal never drops a state not already expanded or queued: within
 *    a layer, equal records (equal states) become one entry; against the past, a child
 *    is dropped only when its record is in the seen file, which holds exactly the
 *    records of layers 0..d, every one of them expanded (in memory, or in a layer before
 *    d) or being expanded (layer d is complete before the merge); records compared
 *    whole, no hash;
 *  - so at "lost" the kept states are closed under the relation: every state reachable
 *    from the root was kept, expanded, and none was won.
 * tests/unit/test_disk_search.py checks that it gives the in-memory verdicts and, where
 * both exhaust, counts exactly as many states as the in-memory complete search enters.
 */
#ifndef EIGHTOFF_SEARCH_H
#define EIGHTOFF_SEARCH_H

#include "core.h"
#include "plan.h"
#include "context.h"
#include "dfs.h"
#include "bestfirst.h"
#include "shorten.h"
#include "disk.h"
#include "replay.h"

/* Forget a search (its table, stacks and queue) to start another from `root`. */
static int eo_reset(eo_ctx *x, const eo_state *root, int root_len) {
    eo_table_free(&x->T);
    eo_cstore_free(&x->C);
    if (eo_table_init(&x->T, 1024) != 0) return -1;
    x->S = *root;
    x->plen = root_len;
    x->nfr = x->nkids = 0;
    x->kmv_len = 0;
    x->kid_lost = 0;
    x->nheap = 0;
    x->hcount = x->hmine = 0;
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

/* Set up member i of x's portfolio in m to search from `root` (whose auto-moves are
 * path[0..root_len)), at its first turn: most solves never get past the first member, so
 * the others cost nothing.  Nonzero out of memory (m can still be freed). */
static int eo_member_begin(const eo_ctx *x, eo_ctx *m, int i, const eo_state *root, int root_len) {
    memset(m, 0, sizeof(*m));
    m->R = x->R;
    m->S = *root;
    if (eo_ctx_init(m) != 0 || eo_path_reserve(m, root_len + 1) != 0) return -1;
    memcpy(m->path, x->path, (size_t)root_len * sizeof(eo_move));
    memset(m->is_step, 0, (size_t)root_len);
    m->plen = root_len;
    const eo_member *p = &x->port[i];
    m->w = p->weights;
    m->noise = p->noise;
    m->plan.dive = x->plan.dive;
    m->rng = 0x9E3779B97F4A7C15ULL * (uint64_t)(i + 1) | 1;
    m->deadline = x->deadline;
    m->cpu_clock = x->cpu_clock;
    m->max_mem = x->max_mem / (size_t)x->nport; /* the members share the memory limit */
    int befs = p->method == EO_METHOD_BEST_FIRST || p->method == EO_METHOD_BEST_FIRST_NO_TARGET;
    int meta = p->method == EO_METHOD_META_DFS || p->method == EO_METHOD_META_DFS_PLAIN;
    m->dive_parent_digs_last = p->method == EO_METHOD_DIVE_PARENT_DIGS_LAST;
    m->hash_only = !befs;
    m->is_dive = !befs && !meta;
    m->meta = meta ? p->meta_order : 0;
    m->meta_plain = p->method == EO_METHOD_META_DFS_PLAIN;
    m->steps = EO_STEPS_PURPOSEFUL;
    /* the costliest kind of dig, moving a card onto a dug one, is left out by the
     * dive and by best-first members of method 2 */
    m->dig_kinds = p->method == EO_METHOD_BEST_FIRST ? EO_DIGS_ALL : EO_DIGS_ALL & ~(1 << EO_DIG_TARGET);
    m->status = EO_RUNNING;
    return 0;
}

/* The states the portfolio's members have entered (those begun). */
static inline long eo_port_states(const eo_ctx *ms, const int *begun, int k) {
    long total = 0;
    for (int j = 0; j < k; j++)
        if (begun[j]) total += eo_states(&ms[j]);
    return total;
}

/* The dive as a portfolio (after Freecell Solver's soft threads): x->nport searches
 * over purposeful steps (greedy depth-first dives or best-first searches) or over meta
 * steps (depth-first, a group of kinds at a time), each with its own weights (and,
 * depth-first, score noise, seeded by its place) and its own seen states, all from
 * `root` (whose auto-moves are path[0..root_len)), run in turns: in round k each member goes on until it has
 * entered port_quota << k states; a member that runs out of steps drops out.  The
 * first to win gives the path.  Ends (x->status) solved, EO_STATE_LIMIT once the
 * members together have entered `budget` states or all dropped out (no proof:
 * none is complete), or a time or memory limit.  Returns the states entered. */
static long eo_portfolio(eo_ctx *x, const eo_state *root, int root_len, long budget) {
    int k = x->nport;
    eo_ctx *ms = (eo_ctx *)malloc((size_t)k * sizeof(eo_ctx)); /* each set up when begun */
    int *live = (int *)calloc((size_t)(2 * k), sizeof(int));
    int *begun = live + k;
    long total = 0;
    x->status = EO_STATE_LIMIT;
    if (!ms || !live) {
        free(ms);
        free(live);
        x->status = EO_MEMORY_LIMIT;
        return 0;
    }
    int ok = 1;
    for (int i = 0; i < k; i++) live[i] = 1; /* begun at its first turn */
    int winner = -1;
    for (int round = 0; ok && winner < 0; round++) {
        int any = 0;
        long quota = x->plan.port_quota << (round < 20 ? round : 20);
        for (int i = 0; i < k; i++) {
            if (!live[i]) continue;
            eo_ctx *m = &ms[i];
            total = eo_port_states(ms, begun, k);
            if (budget > 0 && total >= budget) break;
            if (round < x->port[i].first_round) {
                any = 1; /* still to begin: the turns go on */
                continue;
            }
            if (!begun[i]) {
                begun[i] = 1;
                if (eo_member_begin(x, m, i, root, root_len) != 0) {
                    ok = 0;
                    break;
                }
                if (x->plan.port_shared && m->hash_only) { /* the first such member's set */
                    for (int j = 0; j < k && !m->hown; j++) /* begun: it holds its own */
                        if (j != i && begun[j] && ms[j].hash_only && !ms[j].hown)
                            m->hown = &ms[j];
                    /* the set holds this member's states too: so the memory limit of the
                     * member that holds it takes this one's share as well (the rest of
                     * this member, its frames and path, is small) */
                    if (m->hown && m->hown->max_mem) m->hown->max_mem += m->max_mem;
                }
                int ended = !m->hash_only ? eo_befs_begin(m) : eo_dfs_begin(m);
                if (m->status == EO_SOLVED) {
                    winner = i;
                    break;
                }
                if (m->status == EO_TIME_LIMIT || m->status == EO_MEMORY_LIMIT ||
                m->status == EO_INTERRUPTED) {
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
            if (!m->hash_only)
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
            if (m->status == EO_TIME_LIMIT || m->status == EO_MEMORY_LIMIT ||
                m->status == EO_INTERRUPTED) {
                x->status = m->status;
                ok = 0;
                break;
            }
        }
        total = eo_port_states(ms, begun, k);
        if (!any || (budget > 0 && total >= budget)) break;
    }
    total = eo_port_states(ms, begun, k);
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
    for (int i = 0; i < k; i++)
        if (begun[i]) eo_ctx_free(&ms[i]);
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
 * only the complete search says EO_LOST.  When a stage ends at the memory limit and
 * x->max_disk is not 0, the complete search goes on on disk (disk.h: taking over the
 * best-first complete search where it stopped, else afresh from the root; states
 * counted as eo_disk_search says).  Where a kept search on disk of the same root is
 * there (x->disk_keep: disk.h, "Kept searches"), none of the stages runs: the search
 * on disk goes on from it.  Then, if the plan says so, the
 * solution is shortened.  *states_out: the states examined by all. */
static void eo_solve(eo_ctx *x, long *states_out) {
    static const int order[3] = {EO_STAGE_DIVE, EO_STAGE_BEST_FIRST, EO_STAGE_COMPLETE};
    const eo_rules *r = EO_R(x);
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
    int started = 0, last = 0;
    if (x->max_disk > 0 && (plan->stages & EO_STAGE_COMPLETE) && eo_keep_found(x, &root)) {
        /* a kept search on disk of this root (disk.h): it goes on from there */
        eo_signals_arm(x);
        x->steps = plan->complete_steps;
        x->dig_kinds = EO_DIGS_ALL;
        x->hash_only = x->is_dive = 0;
        if (eo_reset(x, &root, na) == 0)
            *states_out = eo_disk_search(x, 0, EO_TAKE_RESUME, &root, na);
        else
            x->status = EO_MEMORY_LIMIT;
        if (x->status == EO_SOLVED && plan->shorten) eo_shorten(x, &root, na);
        return;
    }
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
        last = stage;
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
        if (stage == EO_STAGE_COMPLETE) {
            if (plan->complete_order == EO_DEPTH_FIRST && plan->complete_meta) {
                /* the meta groups, then every step as the last group: see eo_meta_expand */
                int end = 0;
                while (end < 12 && ((unsigned long)plan->complete_meta >> (4 * end) & 15)) end++;
                if (end < 12) {
                    x->meta = plan->complete_meta | (long)(EO_META_ALL - EO_META_HOME + 1) << (4 * end);
                    x->meta_plain = 0;
                }
            } else if (plan->complete_order == EO_DEPTH_FIRST) {
                x->meta_plain = !plan->complete_scored; /* unscored (eo_enter_child) */
            }
            eo_run_search(x, plan->complete_order, plan->complete_steps);
            x->meta = 0;
            x->meta_plain = 0;
        }
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
    x->disk_states = 0;
    if (x->status == EO_MEMORY_LIMIT && (plan->stages & EO_STAGE_COMPLETE)) {
        /* the search on disk takes the complete search over where it can (best-first:
         * its states and parents; depth-first without meta steps: its states and the
         * kids of its frames), else it starts afresh from the root; the beam search
         * has its try in it, once the tables are on disk or freed (disk.h).  Without
         * the disk, the beam alone, on the memory freed. */
        eo_signals_arm(x); /* a long search may follow */
        int take = 0;
        if (x->max_disk > 0 && last == EO_STAGE_COMPLETE && x->C.on && x->C.recs.count > 0) {
            if (plan->complete_order == EO_BEST_FIRST && x->nnodes > 0)
                take = EO_TAKE_BEST_FIRST;
            else if (plan->complete_order == EO_DEPTH_FIRST && !plan->complete_meta &&
                     x->nfr > 0 && !x->kid_lost)
                take = EO_TAKE_DEPTH_FIRST;
        }
        x->steps = plan->complete_steps;
        x->dig_kinds = EO_DIGS_ALL;
        x->hash_only = x->is_dive = 0;
        if (x->max_disk > 0) {
            if (!take) eo_release(x);
            if (take || eo_reset(x, &root, na) == 0)
                states = eo_disk_search(x, states, take, &root, na);
            else
                x->status = EO_MEMORY_LIMIT;
        } else if (plan->memory_beam) {
            eo_release(x);
            int won = eo_reset(x, &root, na) == 0 &&
                      eo_beam_fallback(x, &root, na, max_states, x->deadline, &states);
            if (!won) x->status = EO_MEMORY_LIMIT;
        }
    }
    *states_out = states;
    if (x->status == EO_SOLVED && plan->shorten) eo_shorten(x, &root, na);
}

#ifndef EO_FIXED_RULES
/* eo_solve, run by the copy compiled for the context's rules where there is one
 * (fixed.h), else by this one: the same search either way.  Clearing eo_fixed_copies
 * (the tests, through _core) makes every solve run this one. */
#include "fixed.h"
#define EO_FIXED_DECLARE(name, rules)                                                  \
    void eo_solve_##name(eo_ctx *x, long *states_out);                                 \
    int eo_replay_##name(const eo_state *start, const eo_move *path, int plen,          \
                         uint64_t *keys, int *counts);
EO_FIXED_COPIES(EO_FIXED_DECLARE)

typedef struct {
    const char *name;
    eo_rules R;
    void (*solve)(eo_ctx *, long *);
    int (*replay)(const eo_state *, const eo_move *, int, uint64_t *, int *);
} eo_fixed_copy;

#define EO_FIXED_ROW(name, rules) {#name, rules, eo_solve_##name, eo_replay_##name},
static const eo_fixed_copy eo_fixed_list[] = {EO_FIXED_COPIES(EO_FIXED_ROW)};
#define EO_NFIXED ((int)(sizeof(eo_fixed_list) / sizeof(eo_fixed_list[0])))

static int eo_fixed_copies = 1;

/* the copy compiled for these rules: its place in eo_fixed_list, else -1 */
static inline int eo_fixed_for(const eo_rules *r) {
    for (int i = 0; eo_fixed_copies && i < EO_NFIXED; i++)
        if (memcmp(r, &eo_fixed_list[i].R, sizeof(eo_rules)) == 0) return i;
    return -1;
}

/* eo_replay_described (replay.h), run by the copy compiled for these rules where there
 * is one: the same replay either way, as for eo_solve_any. */
static int eo_replay_any(const eo_rules *r, const eo_state *start, const eo_move *path,
                         int plen, uint64_t *keys, int *counts) {
    int i = eo_fixed_for(r);
    if (i >= 0) return eo_fixed_list[i].replay(start, path, plen, keys, counts);
    return eo_replay_described(r, start, path, plen, keys, counts);
}

static const char *eo_fixed_name(int i) { return eo_fixed_list[i].name; }

static int eo_fixed_set(int on) {
    int was = eo_fixed_copies;
    eo_fixed_copies = on;
    return was;
}

static void eo_solve_any(eo_ctx *x, long *states_out) {
    int i = eo_fixed_for(&x->R);
    if (i >= 0)
        eo_fixed_list[i].solve(x, states_out);
    else
        eo_solve(x, states_out);
}
#endif

#endif
