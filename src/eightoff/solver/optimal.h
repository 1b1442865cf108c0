/* Par: the proven fewest moves of a position, by A* over canonical states.
 *
 * Two costs (the counts of the design guide, eightoff.solver.optimal):
 *
 *   OP_PLAYER  one step = one legal move (a single card, or a group within the limit),
 *              then the safe auto-moves of the table (Position.is_safe_home, here
 *              eo_engine_safe; none after a card taken back from a foundation, as in
 *              Game.play).  The auto-moves of the deal itself are free, and so is the
 *              auto-complete once the win is certain (Position.win_is_certain): the goal is
 *              a certain win, not the last card home.
 *   OP_SINGLE  one step = one single card moved (strict single-card rules, every card home
 *              one step); the goal is every card home.
 *
 * The search is A* with an admissible heuristic (below): f = g + h never exceeds the
 * cost of the cheapest solution through a state, f is carried down from parent to child
 * where larger (pathmax), a state reached again by a shorter path is opened again, and
 * the search ends when the least f open is no less than the best solution found: that
 * solution is then optimal, and at any time the least f open is a proven lower bound.  Every state is
 * stored once, by its canonical key (core.h's eo_key: foundations, the set of cell
 * cards, the columns sorted); the table keeps the best g found for each.  The key loses
 * only what cannot change the cost to the goal: which cell holds which card (cells are
 * interchangeable), the order of the columns (columns are interchangeable: every rule
 * reads a column alone, and an empty column is any empty column), and for two packs which
 * of a suit's two foundations holds which rank.  So no path is cut by the table: a path
 * through a state's twin costs what the path through the state does.
 *
 * Moves pruned before they are made, none of them on every optimal path:
 *   - a card to a cell other than the first empty one, a card or run to an empty column
 *     other than the first empty one: the state reached is the same canonical state;
 *   - a card from a cell to another cell, a whole column into an empty column: the same
 *     canonical state as before the move (a step that costs 1 and changes nothing);
 *   - with OP_SINGLE, when a card may go home safely (eo_safe, the compiled search's
 *     conservative rule: nothing not yet home can ever need it as a parent; Aces only
 *     with foundation retrieval), that move is the state's only successor.  Any solution
 *     can be rewritten to make that move first without growing: the card's own later
 *     moves (to cells or columns, and its one move home) are dropped for the one move
 *     home made now; no other move needs it as a parent (every card that could lie on it
 *     is home), and leaving its place only frees a cell or a column, which makes no
 *     other move illegal.
 *
 * The heuristic, h: the plain bound below (consistent), plus op_pairs (admissible).
 *   A card x in a column is *blocked* when a card below it in the same column must go home
 *   before it can: with one pack, a lower card of its suit; with two, both copies of a
 *   lower rank of its suit.  A blocked card must leave its column before that card does,
 *   and cannot leave it for home, so it leaves by a move to a cell or a column.
 *   OP_SINGLE: h = cards not home + blocked cards (each card not home takes one move home;
 *   each blocked card one more move before that).  One single move changes "not home" by
 *   at most 1 and the blocked count by at most 1 and not both (a card going home is never
 *   blocked), so h falls by at most the step's cost: consistent.
 *   OP_PLAYER: h = for each column, the number of its maximal built runs (each card lying
 *   on the card below it by the build rule) holding a blocked card.  One move takes cards
 *   from the top of one column only, and the cards it moves were a built run there; cards
 *   of two different runs of a column can never move in the same move while both lie in
 *   it; so each such run costs at least one move before the goal (in a certain win no card
 *   is blocked: every column runs down in rank).  A move ends at most one run of its
 *   source column (its top one); putting cards on a column never unblocks a card there
 *   (blocking depends only on the cards below) and joins at most the top run; the
 *   auto-moves send home only unblocked top cards, which ends no blocked run.  So h falls
 *   by at most 1 per step: consistent.
 * tests/unit/test_optimal.py checks the lengths against an independent breadth-first
 * search over Position.legal_moves.
 */
#ifndef EIGHTOFF_OPTIMAL_H
#define EIGHTOFF_OPTIMAL_H

#include "core.h"
#include "search.h" /* eo_decode */

#define OP_PLAYER 0
#define OP_SINGLE 1
#define OP_MAXF 1024
#define OP_HB 64

/* status */
#define OP_FOUND 1    /* a solution of the least cost: path, plen */
#define OP_NO_BETTER 2 /* no solution shorter than `upper` exists (upper is optimal) */
#define OP_LOST 6     /* no solution at all (searched completely, no upper bound given) */
#define OP_STATES 3
#define OP_TIME 4
#define OP_MEMORY 5

typedef struct {
    uint32_t *v;
    uint32_t n, cap;
} op_stack;

typedef struct {
    eo_rules R;
    eo_state S;
    int count;      /* OP_PLAYER or OP_SINGLE */
    int upper;      /* the length of a known solution (0: none): only shorter ones are sought */
    int pairs;      /* add the deadlocked pairs to the bound (op_pairs) */
    long max_states;
    double seconds;
    size_t max_mem;
    /* results */
    int status;
    int lower;      /* proven: no solution has fewer steps */
    long states;    /* states stored */
    long expanded;
    eo_move *path;  /* OP_FOUND: the steps (player moves, or single moves), real places */
    int plen;
} op_ctx;

static double op_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The table's safe auto-moves, to a fixed point (the set sent home does not depend on
 * the order: a card safe now stays safe and exposed until it goes). */
static void op_closure(const eo_rules *r, eo_state *s) {
    for (;;) {
        int moved = 0;
        for (int i = 0; i < r->ncells; i++) {
            int card = s->cell[i];
            if (card && eo_engine_safe(r, s, card)) {
                eo_move m = eo_mv(EO_CELL + i, EO_HOME, 1);
                eo_apply(r, s, &m);
                moved = 1;
            }
        }
        for (int c = 0; c < r->ncols; c++) {
            while (s->len[c] && eo_engine_safe(r, s, s->col[c][s->len[c] - 1])) {
                eo_move m = eo_mv(c, EO_HOME, 1);
                eo_apply(r, s, &m);
                moved = 1;
            }
        }
        if (!moved) return;
    }
}

/* Position.win_is_certain: every column runs down in rank from bottom to top. */
static int op_certain(const eo_rules *r, const eo_state *s) {
    for (int c = 0; c < r->ncols; c++)
        for (int i = 0; i + 1 < s->len[c]; i++)
            if ((s->col[c][i] >> 2) < (s->col[c][i + 1] >> 2)) return 0;
    return 1;
}

static int op_goal(const op_ctx *x, const eo_state *s) {
    if (x->count == OP_PLAYER) return op_certain(&x->R, s);
    return s->home == x->R.total;
}

/* Deadlocks between two cards (one pack): the graph of "w must leave its column before
 * x can go home": w lies above, in its column, x itself or a card that must go home
 * before x (a lower card of x's suit not yet home).  If x's first move is to go home
 * (a "direct" card), then every card w it points to moved before it, and if w is direct
 * too, w went home before x did.  So a cycle x -> w -> x cannot have both direct: one of
 * them makes a move to a cell or a column first.  A self-loop is a blocked card (above a
 * lower card of its suit).  Pairs of cards pointing at each other, each pair apart from
 * the others (and, for player moves, from the others' runs, and from runs already
 * counted), each cost one move more; the pairs are matched greedily, any set of
 * disjoint pairs being a valid bound (no more than the fewest cards, or runs, that meet
 * every cycle).  The bound is admissible but not consistent: the search takes the
 * parent's f where it is larger (pathmax) and opens a state again when it is reached
 * by a shorter path (A* with an admissible bound and reopening is exact). */
static int op_pairs(const op_ctx *x, const eo_state *s, const int *run_of, const uint64_t used_runs) {
    const eo_rules *r = &x->R;
    /* pos_of[card] = column * 64 + position, or -1 */
    int8_t colof[64], posof[64];
    memset(colof, -1, sizeof(colof));
    uint64_t above[EO_MAXCOLS][EO_COLCAP + 1];
    uint64_t incol = 0;
    for (int c = 0; c < r->ncols; c++) {
        int L = s->len[c];
        uint64_t m = 0;
        above[c][L] = 0;
        for (int i = L - 1; i >= 0; i--) {
            above[c][i] = m; /* cards above position i */
            int card = s->col[c][i];
            m |= (uint64_t)1 << card;
            colof[card] = (int8_t)c;
            posof[card] = (int8_t)i;
        }
        incol |= m;
    }
    uint64_t adj[64];
    uint64_t cand = 0;
    for (int suit = 0; suit < 4; suit++) {
        int lo = s->found[suit] + 1;
        /* the deepest position in each column of the suit's cards from lo up */
        int deep[EO_MAXCOLS];
        for (int c = 0; c < r->ncols; c++) deep[c] = EO_COLCAP;
        for (int rank = lo; rank <= 13; rank++) {
            int card = rank << 2 | suit;
            if (colof[card] >= 0 && posof[card] < deep[(int)colof[card]])
                deep[(int)colof[card]] = posof[card];
            if (!((incol >> card) & 1)) {
                adj[card] = 0;
                continue;
            }
            uint64_t a = 0;
            for (int c = 0; c < r->ncols; c++)
                if (deep[c] < EO_COLCAP) a |= above[c][deep[c]];
            adj[card] = a;
            cand |= (uint64_t)1 << card;
        }
    }
    /* drop self-loops (blocked, counted already) and cards of runs counted already */
    uint64_t live = 0;
    for (uint64_t m = cand; m; m &= m - 1) {
        int card = __builtin_ctzll(m);
        if ((adj[card] >> card) & 1) continue;
        if (run_of && ((used_runs >> run_of[card]) & 1)) continue;
        live |= (uint64_t)1 << card;
    }
    int pairs = 0;
    uint64_t used = used_runs;
    for (uint64_t m = live; m; m &= m - 1) {
        int a = __builtin_ctzll(m);
        if (!((live >> a) & 1)) continue;
        for (uint64_t n = adj[a] & live & ~((uint64_t)1 << a); n; n &= n - 1) {
            int b = __builtin_ctzll(n);
            if (!((adj[b] >> a) & 1)) continue;
            if (run_of) {
                /* both in one run: that run makes a move to a cell or a column */
                if (((used >> run_of[a]) & 1) || ((used >> run_of[b]) & 1)) continue;
                used |= (uint64_t)1 << run_of[a] | (uint64_t)1 << run_of[b];
                /* every card of these runs leaves the pool */
                uint64_t drop = 0;
                for (uint64_t k = live; k; k &= k - 1) {
                    int c = __builtin_ctzll(k);
                    if (run_of[c] == run_of[a] || run_of[c] == run_of[b]) drop |= (uint64_t)1 << c;
                }
                live &= ~drop;
            } else {
                live &= ~((uint64_t)1 << a | (uint64_t)1 << b);
            }
            pairs++;
            break;
        }
    }
    return pairs;
}

static int op_h(const op_ctx *x, const eo_state *s) {
    const eo_rules *r = &x->R;
    int runs = 0, blocked = 0, nrun = 0;
    int run_of[64];
    uint64_t used_runs = 0;
    for (int c = 0; c < r->ncols; c++) {
        int L = s->len[c];
        const uint8_t *col = s->col[c];
        uint32_t once[4] = {0, 0, 0, 0}, twice[4] = {0, 0, 0, 0};
        int run_blocked = 0;
        for (int i = 0; i < L; i++) {
            int card = col[i], rank = card >> 2, suit = card & 3;
            uint32_t below = (uint32_t)1 << rank;
            uint32_t lower = below - 1;
            int b = ((r->nfound == 4 ? once[suit] : twice[suit]) & lower) != 0;
            if (i == 0 || !eo_stacks(r, card, col[i - 1])) {
                if (run_blocked && nrun < 64) used_runs |= (uint64_t)1 << (nrun - 1);
                runs += run_blocked;
                run_blocked = 0;
                nrun++;
            }
            run_of[card] = nrun - 1 < 63 ? nrun - 1 : 63;
            run_blocked |= b;
            blocked += b;
            if (once[suit] & below) twice[suit] |= below;
            once[suit] |= below;
        }
        if (run_blocked && nrun <= 64) used_runs |= (uint64_t)1 << (nrun - 1);
        runs += run_blocked;
    }
    int pairs = 0;
    if (r->nfound == 4 && x->pairs)
        pairs = op_pairs(x, s, x->count == OP_PLAYER ? run_of : NULL,
                         x->count == OP_PLAYER ? used_runs : 0);
    if (x->count == OP_PLAYER) return runs + pairs;
    return (r->total - s->home) + blocked + pairs;
}

/* The state after one step (a move, and the auto-moves after it with OP_PLAYER). */
static void op_step(const op_ctx *x, eo_state *s, eo_move *m) {
    int from_foundation = m->src >= EO_FOUND && m->src < EO_HOME;
    eo_apply(&x->R, s, m);
    if (x->count == OP_PLAYER && !from_foundation) op_closure(&x->R, s);
}

/* The steps to try from a state (see the pruning above); returns how many. */
static int op_moves(const op_ctx *x, const eo_rules *mr, const eo_state *s, eo_move *out) {
    const eo_rules *r = &x->R;
    if (x->count == OP_SINGLE) {
        for (int i = 0; i < r->ncells; i++)
            if (s->cell[i] && eo_safe(r, s, s->cell[i])) {
                out[0] = eo_mv(EO_CELL + i, EO_HOME, 1);
                return 1;
            }
        for (int c = 0; c < r->ncols; c++)
            if (s->len[c] && eo_safe(r, s, s->col[c][s->len[c] - 1])) {
                out[0] = eo_mv(c, EO_HOME, 1);
                return 1;
            }
    }
    eo_move all[2048];
    int n = eo_legal_moves(mr, s, all), k = 0;
    int first_cell = -1, first_col = -1;
    for (int i = 0; i < r->ncells && first_cell < 0; i++)
        if (!s->cell[i]) first_cell = EO_CELL + i;
    for (int c = 0; c < r->ncols && first_col < 0; c++)
        if (!s->len[c]) first_col = c;
    for (int i = 0; i < n; i++) {
        eo_move m = all[i];
        int src_cell = m.src >= EO_CELL && m.src < EO_FOUND;
        if (m.dst >= EO_CELL && m.dst < EO_FOUND) {
            if (src_cell || m.dst != first_cell) continue;
        } else if (m.dst < EO_CELL && !s->len[m.dst]) {
            if (m.dst != first_col) continue;
            if (m.src < EO_CELL && m.n == s->len[m.src]) continue;
        }
        out[k++] = m;
    }
    return k;
}

typedef struct {
    eo_table t;
    uint32_t *parent;
    uint16_t *g, *f;
    uint8_t *closed;
    size_t cap;
    op_stack *open; /* OP_MAXF * OP_HB stacks: f * OP_HB + min(h, OP_HB - 1) */
    size_t open_bytes;
} op_work;

static int op_reserve(op_work *w, size_t id) {
    if (id < w->cap) return 0;
    size_t cap = w->cap ? w->cap * 2 : 1024;
    while (cap <= id) cap *= 2;
    uint32_t *p = (uint32_t *)realloc(w->parent, cap * sizeof(uint32_t));
    if (!p) return -1;
    w->parent = p;
    uint16_t *g = (uint16_t *)realloc(w->g, cap * sizeof(uint16_t));
    if (!g) return -1;
    w->g = g;
    uint16_t *f = (uint16_t *)realloc(w->f, cap * sizeof(uint16_t));
    if (!f) return -1;
    w->f = f;
    uint8_t *c = (uint8_t *)realloc(w->closed, cap);
    if (!c) return -1;
    w->closed = c;
    w->cap = cap;
    return 0;
}

static int op_push(op_work *w, int index, uint32_t id) {
    op_stack *st = &w->open[index];
    if (st->n == st->cap) {
        uint32_t cap = st->cap ? st->cap * 2 : 16;
        uint32_t *v = (uint32_t *)realloc(st->v, cap * sizeof(uint32_t));
        if (!v) return -1;
        w->open_bytes += (size_t)(cap - st->cap) * sizeof(uint32_t);
        st->v = v;
        st->cap = cap;
    }
    st->v[st->n++] = id;
    return 0;
}

static void op_work_free(op_work *w) {
    eo_table_free(&w->t);
    free(w->parent);
    free(w->g);
    free(w->f);
    free(w->closed);
    if (w->open)
        for (int i = 0; i < OP_MAXF * OP_HB; i++) free(w->open[i].v);
    free(w->open);
    memset(w, 0, sizeof(*w));
}

static size_t op_bytes(const op_work *w) {
    return eo_table_bytes(&w->t) + w->cap * (sizeof(uint32_t) + 2 * sizeof(uint16_t) + 1) +
           w->open_bytes;
}

static const uint8_t *op_key_of(const op_work *w, uint32_t id, int *len) {
    const uint8_t *rec = w->t.arena + w->t.offs[id];
    *len = rec[0];
    return rec + 1;
}

/* The path to state `goal` as moves from the real start: each step found again among the
 * legal moves of the real state (by the canonical key it leads to). */
static int op_trace(op_ctx *x, op_work *w, const eo_rules *mr, const eo_state *start,
                    uint32_t goal) {
    /* the chain of parents (a state's parent had a smaller g when it was set, and g only
     * falls, so the chain ends at the start; it is no longer than g[goal]) */
    int n = 0;
    for (uint32_t id = goal; id != 0; id = w->parent[id]) n++;
    uint32_t *ids = (uint32_t *)malloc((size_t)(n + 1) * sizeof(uint32_t));
    x->path = (eo_move *)malloc((size_t)(n + 1) * sizeof(eo_move));
    if (!ids || !x->path) {
        free(ids);
        return -1;
    }
    uint32_t id = goal;
    for (int i = n; i >= 0; i--) {
        ids[i] = id;
        id = w->parent[id];
    }
    eo_state s = *start;
    uint8_t key[EO_MAXKEY];
    eo_move all[2048];
    for (int i = 1; i <= n; i++) {
        int want_len;
        const uint8_t *want = op_key_of(w, ids[i], &want_len);
        int k = eo_legal_moves(mr, &s, all), found = 0;
        for (int j = 0; j < k && !found; j++) {
            eo_state t = s;
            eo_move m = all[j];
            op_step(x, &t, &m);
            int len = eo_key(&x->R, &t, key);
            if (len == want_len && memcmp(key, want, (size_t)len) == 0) {
                x->path[i - 1] = all[j];
                s = t;
                found = 1;
            }
        }
        if (!found) {
            free(ids);
            return -1;
        }
    }
    x->plen = n;
    free(ids);
    return 0;
}

static void op_search(op_ctx *x) {
    op_work w;
    memset(&w, 0, sizeof(w));
    eo_rules mr = x->R; /* the rules moves are generated by: strict for OP_SINGLE */
    if (x->count == OP_SINGLE) mr.strict = 1;
    x->status = 0;
    x->lower = 0;
    x->plen = 0;
    x->path = NULL;
    x->states = 0;
    x->expanded = 0;
    double deadline = x->seconds > 0 ? op_now() + x->seconds : 0;
    eo_state start = x->S;
    eo_recount(&x->R, &start);
    if (x->count == OP_PLAYER) op_closure(&x->R, &start);
    if (op_goal(x, &start)) {
        x->status = OP_FOUND;
        return;
    }
    int upper = x->upper > 0 ? x->upper : OP_MAXF;
    if (upper > OP_MAXF) upper = OP_MAXF;
    long goal = -1;
    int overflow = 0;
    w.open = (op_stack *)calloc((size_t)OP_MAXF * OP_HB, sizeof(op_stack));
    eo_table_init(&w.t, 1 << 16);
    if (!w.open) {
        x->status = OP_MEMORY;
        op_work_free(&w);
        return;
    }
    w.open_bytes = (size_t)OP_MAXF * OP_HB * sizeof(op_stack);
    uint8_t key[EO_MAXKEY];
    int len = eo_key(&x->R, &start, key);
    long id0 = eo_table_insert(&w.t, key, len);
    int h0 = op_h(x, &start);
    if (id0 < 0 || op_reserve(&w, 0) != 0) {
        x->status = OP_MEMORY;
        op_work_free(&w);
        return;
    }
    w.parent[0] = 0;
    w.g[0] = 0;
    w.f[0] = (uint16_t)h0;
    w.closed[0] = 0;
    x->lower = h0;
    if (h0 >= upper) {
        x->status = OP_NO_BETTER;
        x->lower = upper;
        op_work_free(&w);
        return;
    }
    op_push(&w, h0 * OP_HB + (h0 < OP_HB ? h0 : OP_HB - 1), 0);
    int cur = h0 * OP_HB;
    eo_move moves[2048];
    eo_state s, t;
    for (;;) {
        /* the least (f, h) with an entry */
        while (cur < OP_MAXF * OP_HB && w.open[cur].n == 0) cur++;
        int f = cur / OP_HB;
        if (cur >= OP_MAXF * OP_HB || f >= upper) {
            /* every state of f < upper was expanded */
            if (goal >= 0) {
                x->status = OP_FOUND;
                x->lower = w.g[goal];
            } else if (overflow) {
                x->status = OP_STATES;
            } else if (x->upper > 0) {
                x->status = OP_NO_BETTER;
                x->lower = x->upper;
            } else {
                x->status = OP_LOST;
                x->lower = 0;
            }
            break;
        }
        uint32_t id = w.open[cur].v[--w.open[cur].n];
        if (w.closed[id] || w.f[id] != f) continue;
        if (f > x->lower) x->lower = f; /* the least f open now: a bound */
        w.closed[id] = 1;
        x->expanded++;
        if ((x->expanded & 255) == 0) {
            if (deadline && op_now() > deadline) {
                x->status = OP_TIME;
                break;
            }
            if (x->max_mem && op_bytes(&w) > x->max_mem) {
                x->status = OP_MEMORY;
                break;
            }
        }
        if (x->max_states && (long)w.t.count > x->max_states) {
            x->status = OP_STATES;
            break;
        }
        int klen;
        const uint8_t *k = op_key_of(&w, id, &klen);
        eo_decode(&x->R, k, &s); /* search.h: a canonical key back into a state */
        int g1 = w.g[id] + 1;
        int n = op_moves(x, &mr, &s, moves);
        int failed = 0;
        for (int i = 0; i < n; i++) {
            t = s;
            op_step(x, &t, &moves[i]);
            int goal_here = op_goal(x, &t);
            int h = goal_here ? 0 : op_h(x, &t);
            int f1 = g1 + h;
            if (f1 < f) f1 = f; /* pathmax: the parent's bound holds for its children */
            if (f1 >= upper) continue;
            if (f1 >= OP_MAXF) {
                overflow = 1;
                continue;
            }
            len = eo_key(&x->R, &t, key);
            long r = eo_table_insert(&w.t, key, len);
            uint32_t cid;
            if (r == -1) {
                failed = 1;
                break;
            }
            if (r >= 0) {
                cid = (uint32_t)r;
                if (op_reserve(&w, cid) != 0) {
                    failed = 1;
                    break;
                }
                w.closed[cid] = 0;
            } else {
                cid = (uint32_t)(-r - 2);
                if (w.g[cid] <= g1) continue;
                w.closed[cid] = 0; /* reached by a shorter path: open again */
            }
            w.parent[cid] = id;
            w.g[cid] = (uint16_t)g1;
            w.f[cid] = (uint16_t)f1;
            if (goal_here) {
                /* the best goal so far: only shorter solutions are sought from now on */
                /* (never pushed: not expanded; a shorter path to it later updates it) */
                goal = cid;
                upper = g1;
                continue;
            }
            int index = f1 * OP_HB + (h < OP_HB ? h : OP_HB - 1);
            if (op_push(&w, index, cid) != 0) {
                failed = 1;
                break;
            }
            if (index < cur) cur = index;
        }
        if (failed) {
            x->status = OP_MEMORY;
            break;
        }
    }
    x->states = (long)w.t.count;
    if (x->status == OP_FOUND) {
        if (op_trace(x, &w, &mr, &start, (uint32_t)goal) != 0) x->status = OP_MEMORY;
    } else if (goal >= 0 && x->status >= OP_STATES && x->status <= OP_MEMORY) {
        /* stopped by a limit with a solution found: report it (not proven) */
        int lower = x->lower;
        if (op_trace(x, &w, &mr, &start, (uint32_t)goal) == 0) x->upper = w.g[goal];
        x->lower = lower;
    }
    op_work_free(&w);
}

#endif
