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
 * solution is then optimal, and at any time the least f open is a proven lower bound.  On
 * several threads (op_astar) the states are split among them by hash, each thread
 * expanding its own: argued there, exact as well.  Every state is stored once, by its
 * canonical key (core.h's eo_key: foundations, the set of cell cards, the columns
 * sorted) or, where x->compact asks, by its compact record (op_key: a function of the
 * same canonical state); the table keeps the best g found for each.  The key loses
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
 * The heuristic, h: the plain bound below (consistent), plus op_deadlocks (admissible).
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
 *   OP_PLAYER in alternate colours (level 3, x->deadlocks >= 3): a card of rank 3 or more
 *   lying above a lower card of the other colour counts as blocked too.  It must leave
 *   its place before the goal (a certain win has every column running down in rank, and
 *   the lower card cannot leave before it), and its first move is a counted step: either
 *   a move to a cell or a column (of its run, as above) or a move home, and that one is
 *   not a free auto-move, since the table sends a card home by itself only when it is
 *   safe (eo_engine_safe: every card of the other colour one rank lower is home, and the
 *   lower card below it is not; with two packs a copy not home leaves one of its suit's
 *   foundations below its rank), so the player sends it home, alone.  Charge each run
 *   holding a blocked card with the first move of one of its blocked cards: the charges
 *   of two runs are different steps (a move home moves one card, and a move to a cell or
 *   a column cannot take cards of two runs while both lie where they are).  Blocking
 *   still depends only on the cards below in the column, and a safe card is never
 *   blocked (its lower cards of the other colour and of its suit are home), so the
 *   argument for consistency above stands.  With one suit's building every card that can
 *   go home is safe (Position.is_safe_home), and with OP_SINGLE every move home is
 *   counted already: the rule is for OP_PLAYER in alternate colours only.
 *   op_deadlocks adds, for one pack, a packing of cycles of the deadlock graph no two of
 *   which share a unit (a card, or for player moves a built run), each costing a move of
 *   its own: argued where it is written; at levels 4 and 5 (OP_PLAYER, alternate colours)
 *   the graph has the edges of the cards' safety too (op_safe_edges).
 * tests/unit/test_optimal.py checks the lengths against an independent breadth-first
 * search over Position.legal_moves.
 *
 * Two other modes find short solutions without proving them (upper bounds for A*): an
 * anytime weighted A* (x->weight) and a beam search (x->beam, op_beam_search).  Both drop
 * only children whose g + h reaches the best length known, which no shorter solution
 * passes through, so what A* is then given as `upper` is the length of a real solution
 * and A* still finds any shorter one.
 */
#ifndef EIGHTOFF_OPTIMAL_H
#define EIGHTOFF_OPTIMAL_H

#include "core.h"
#include "search.h"    /* eo_decode */
#include "heuristic.h" /* eo_score, for the beam */

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
#define OP_BEAM 7      /* the beam search found a solution (not proven optimal): path, plen */
#define OP_DRY 8       /* the beam ran dry: nothing shorter than `upper` found at its width */

typedef struct {
    uint32_t *v;
    uint32_t n, cap;
} op_stack;

typedef struct {
    eo_rules R;
    eo_state S;
    int count;      /* OP_PLAYER or OP_SINGLE */
    int upper;      /* the length of a known solution (0: none): only shorter ones are sought */
    int deadlocks;  /* the bound's level: 0 blocked cards alone, 1 and pairs, 2 cycles of any
                       length, 3 and (OP_PLAYER, alternate colours) cards above a lower
                       card of the other colour, 4 and the edges of the safety of cards
                       that cannot stay, 5 of every card (op_safe_edges) */
    int weight;     /* 0: A* (exact, a lower bound at any time); w > 10: anytime weighted
                       A*, states taken in the order of g + w/10 * h (op_index) */
    long beam;      /* > 0: a beam search of this width instead (op_beam_search) */
    long max_states;
    double seconds;
    int threads;    /* A*'s threads (op_astar; 0 or 1: the caller's alone) */
    int cpu_clock;  /* `seconds` counts this thread's CPU time (context.h's eo_clock), else
                       monotonic wall time */
    size_t max_mem;
    int partial;    /* A*'s partial expansion (op_take): 0 never; 1 from the start; 2 when
                       the memory limit would otherwise stop the search first (op_worker) */
    int compact;    /* store states by their compact records where the rules allow (op_key):
                       a third less memory a state, about a tenth more time */
    eo_cstore enc;  /* op_key's records, from the start as the root (op_search sets it) */
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

/* Now on the clock of x's time limit. */
static double op_clock(const op_ctx *x) { return x->cpu_clock ? eo_cpu_now() : op_now(); }

/* Whether the card on top of place src (a column or a cell) goes home: safely (the
 * table's auto-move, eo_engine_safe), or with `every` whenever the rules allow it. */
static inline int op_goes_home(const eo_rules *r, const eo_state *s, int src, int card,
                               int every) {
    return every ? eo_legal(r, s, eo_mv(src, EO_HOME, 1)) : eo_engine_safe(r, s, card);
}

/* The table's safe auto-moves, to a fixed point (the set sent home does not depend on
 * the order: a card safe now stays safe and exposed until it goes); with `every`, every
 * card that can go home instead (the auto-complete of a certain win); each move made
 * into out (unless NULL); returns how many. */
static int op_closure_into(const eo_rules *r, eo_state *s, eo_move *out, int every) {
    int made = 0;
    for (;;) {
        int moved = 0;
        for (int i = 0; i < r->ncells; i++) {
            int card = s->cell[i];
            if (card && op_goes_home(r, s, EO_CELL + i, card, every)) {
                eo_move m = eo_mv(EO_CELL + i, EO_HOME, 1);
                eo_apply(r, s, &m);
                if (out) out[made] = m;
                made++;
                moved = 1;
            }
        }
        for (int c = 0; c < r->ncols; c++) {
            while (s->len[c] && op_goes_home(r, s, c, s->col[c][s->len[c] - 1], every)) {
                eo_move m = eo_mv(c, EO_HOME, 1);
                eo_apply(r, s, &m);
                if (out) out[made] = m;
                made++;
                moved = 1;
            }
        }
        if (!moved) return made;
    }
}

static void op_closure(const eo_rules *r, eo_state *s) { op_closure_into(r, s, NULL, 0); }

static int op_goal(const op_ctx *x, const eo_state *s) {
    if (x->count == OP_PLAYER) return eo_win_certain(EO_R(x), s);
    return s->home == EO_R(x)->total;
}

/* The key a state is stored by (op_search's tables): its compact record (compact.h's
 * eo_cencode, 16 bytes, exact, with the search's start as the root: every state stored
 * is reached from it) where the rules have one pack and the record fits, else its
 * canonical key (eo_key).  Either is a function of the canonical state alone, so each
 * state has one key, and the two kinds never meet: a canonical key of one pack holds the
 * foundations (4 bytes), the cell cards' mask (8) and a length byte for each of more
 * than four columns (op_search turns records on only then), so it is longer than 16
 * bytes.  A record is about a third of a canonical key, and kept without offset or
 * length (op_tab), so a state takes about 48 bytes in all rather than 120 (FreeCell, one
 * thread), at up to a tenth more time (records are made and read bit by bit):
 * x->compact asks for them where the memory limit binds. */
static inline int op_key(const op_ctx *x, const eo_state *s, uint8_t *out) {
    eo_crec k;
    if (x->enc.on && eo_cencode(&x->enc, EO_R(x), s, &k) == 0) {
        memcpy(out, &k.lo, 8);
        memcpy(out + 8, &k.hi, 8);
        return 16;
    }
    return eo_key(EO_R(x), s, out);
}

/* The state of a key of op_key (laid out as eo_decode lays out a canonical key). */
static inline void op_unkey(const op_ctx *x, const uint8_t *key, int len, eo_state *s) {
    if (len == 16 && x->enc.on) {
        eo_crec k;
        memcpy(&k.lo, key, 8);
        memcpy(&k.hi, key + 8, 8);
        eo_cdecode(&x->enc, EO_R(x), &k, s);
    } else {
        eo_decode(EO_R(x), key, s);
    }
}

/* Deadlocks (one pack): the graph of "w must leave its column before x can go home":
 * w lies above, in its column, x itself or a card that must go home before x (a lower
 * card of x's suit not yet home).  Call a card *direct* when its first move is to go home
 * (a card that never moves goes home in the auto-complete after the goal, which moves
 * cards home only: every solution, so extended, moves every card, and its moves other
 * than home are all counted).  If x is direct, every card w it points to moved before x
 * went home; if w is direct too, w went home before x.  So no cycle of the graph is made
 * of direct cards alone: each cycle holds a card whose first move is to a cell or a
 * column.  A self-loop is a blocked card (above a lower card of its suit).
 *
 * A *unit* is what one move can never split before the cards' first moves: for single
 * moves a card; for player moves a maximal built run of a column (two cards of
 * different runs, or of different columns, cannot move in one move while both are where
 * they lie now: the break between their runs lies between them).  So the first moves of
 * cards of different units are different moves, and a set of cycles no two of which
 * share a unit needs a move of its own for each: any such packing is a bound.  Units
 * already counted (blocked cards, or runs holding one: `dead`) are left out (their
 * charges are their own: first moves of their cards, or a player's move home).  The
 * packing is greedy: pairs of cards pointing at each other first (level 1 and up), then
 * (level 2) the shortest cycle left, again and again (op_cycles).  Cycles are found in
 * the live cards alone, so each new one shares no unit with those taken.  The bound is
 * admissible but not consistent: the search takes the parent's f where it is larger
 * (pathmax) and opens a state again when it is reached by a shorter path (A* with an
 * admissible bound and reopening is exact). */
#define OP_CYCLE_MAX 12

/* Bits set (the builtin is a library call without the popcnt instruction, which the
 * build does not ask for). */
static inline int op_popcount(uint64_t v) {
#ifdef __POPCNT__
    return __builtin_popcountll(v);
#else
    v = v - ((v >> 1) & 0x5555555555555555ULL);
    v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL);
    v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((v * 0x0101010101010101ULL) >> 56);
#endif
}
/* Cycles of any length in the deadlock graph (level 2 of x->deadlocks), packed greedily
 * after the pairs: the shortest cycle among the cards left (breadth-first search from
 * each, its length at most OP_CYCLE_MAX), then every card of its units leaves the pool,
 * until no cycle is left.  Each cycle holds a card whose first move is not home (the
 * argument of op_deadlocks), and no unit holds cards of two cycles of the packing, so
 * each cycle costs a move of its own. */
static int op_cycles(const uint64_t *adj, const uint64_t *adj_all, uint64_t nt,
                     const uint64_t *unit, uint64_t live) {
    int found = 0;
    for (;;) {
        /* trim: a card without a successor or a predecessor among the live is on no
         * cycle */
        for (;;) {
            uint64_t keep = 0, into = 0;
            for (uint64_t m = live; m; m &= m - 1) {
                int v = __builtin_ctzll(m);
                uint64_t out = adj_all[v] & live;
                if (out) keep |= (uint64_t)1 << v;
                into |= out;
            }
            keep &= into;
            if (keep == live) break;
            live = keep;
        }
        if (!live) return found;
        int best = OP_CYCLE_MAX + 1, best_v = -1;
        uint64_t best_layers[OP_CYCLE_MAX + 1];
        for (uint64_t m = live; m && best > 3; m &= m - 1) {
            int v = __builtin_ctzll(m);
            uint64_t vb = (uint64_t)1 << v;
            /* from a card that cannot stay, the edges of every card's safety (level 5) */
            const uint64_t *g = (nt & vb) ? adj_all : adj;
            uint64_t layers[OP_CYCLE_MAX + 1];
            uint64_t seen = 0, front = g[v] & live;
            int d = 1;
            while (front && d < best) {
                layers[d] = front;
                if (front & vb) {
                    best = d;
                    best_v = v;
                    memcpy(best_layers, layers, sizeof(uint64_t) * (size_t)(d + 1));
                    break;
                }
                seen |= front;
                uint64_t next = 0;
                for (uint64_t k = front; k; k &= k - 1) next |= g[__builtin_ctzll(k)];
                front = next & live & ~seen;
                d++;
            }
        }
        if (best_v < 0) return found;
        /* the cycle back from best_v: c_d = best_v, c_{i-1} a card of layer i-1 leading
         * to c_i (layer 1 is best_v's successors) */
        const uint64_t *g = (nt >> best_v & 1) ? adj_all : adj;
        uint64_t drop = unit[best_v];
        int c = best_v;
        for (int i = best - 1; i >= 1; i--) {
            uint64_t cand = best_layers[i];
            int p = -1;
            for (uint64_t k = cand; k; k &= k - 1) {
                int u = __builtin_ctzll(k);
                if ((g[u] >> c) & 1) {
                    p = u;
                    break;
                }
            }
            if (p < 0) return found; /* cannot happen: layer i was reached from layer i-1 */
            drop |= unit[p];
            c = p;
        }
        live &= ~drop;
        found++;
    }
}

/* Level 2: the pairs packed by a matching of the units rather than card by card.  A unit
 * holding two cards that point at each other is a cycle alone; then units are matched
 * when a card of one and a card of the other point at each other, the unit with the
 * fewest partners left first, to its partner with the fewest (a maximal matching, near
 * the largest); then the cycles left among the units not matched (op_cycles). */
static int op_matching(const uint64_t *adj, const uint64_t *adj_all, uint64_t nt,
                       const uint64_t *unit, uint64_t live) {
    int8_t uidx[64];
    uint64_t umask[64], ug[64];
    int nu = 0;
    for (uint64_t m = live; m; m &= m - 1) uidx[__builtin_ctzll(m)] = -1;
    for (uint64_t m = live; m; m &= m - 1) {
        int a = __builtin_ctzll(m);
        if (uidx[a] >= 0) continue;
        uint64_t u = unit[a] & live;
        for (uint64_t k = u; k; k &= k - 1) uidx[__builtin_ctzll(k)] = (int8_t)nu;
        umask[nu] = u;
        ug[nu] = 0;
        nu++;
    }
    uint64_t alone = 0;
    for (uint64_t m = live; m; m &= m - 1) {
        int a = __builtin_ctzll(m);
        for (uint64_t n = adj_all[a] & live & (((uint64_t)1 << a) - 1); n; n &= n - 1) {
            int b = __builtin_ctzll(n);
            if (!((adj_all[b] >> a) & 1)) continue;
            /* a pair of the graph of level 5 holds a card that cannot stay (op_cycles) */
            if (!(((nt >> a) | (nt >> b)) & 1) && !((adj[a] >> b & 1) && (adj[b] >> a & 1)))
                continue;
            int i = uidx[a], j = uidx[b];
            if (i == j) {
                alone |= (uint64_t)1 << i;
            } else {
                ug[i] |= (uint64_t)1 << j;
                ug[j] |= (uint64_t)1 << i;
            }
        }
    }
    uint64_t all = nu == 64 ? ~(uint64_t)0 : (((uint64_t)1 << nu) - 1);
    int found = op_popcount(alone);
    uint64_t open = all & ~alone, paired = 0;
    int deg[64];
    for (uint64_t m = open; m; m &= m - 1) {
        int i = __builtin_ctzll(m);
        ug[i] &= open;
        deg[i] = op_popcount(ug[i]);
        if (deg[i]) paired |= (uint64_t)1 << i;
    }
    /* the units with partners: matched, or left without partners */
    while (paired) {
        int bi = -1, bd = 99;
        for (uint64_t m = paired; m; m &= m - 1) {
            int i = __builtin_ctzll(m);
            if (deg[i] < bd) {
                bd = deg[i];
                bi = i;
                if (bd == 1) break;
            }
        }
        if (bd == 0) {
            paired &= ~((uint64_t)1 << bi);
            continue;
        }
        int bj = -1;
        bd = 99;
        for (uint64_t m = ug[bi] & paired; m; m &= m - 1) {
            int j = __builtin_ctzll(m);
            if (deg[j] < bd) {
                bd = deg[j];
                bj = j;
            }
        }
        uint64_t two = (uint64_t)1 << bi | (uint64_t)1 << bj;
        paired &= ~two;
        open &= ~two;
        for (uint64_t m = (ug[bi] | ug[bj]) & paired; m; m &= m - 1) {
            int k = __builtin_ctzll(m);
            deg[k] -= op_popcount(ug[k] & two);
        }
        found++;
    }
    uint64_t rest = 0;
    for (uint64_t m = open; m; m &= m - 1) rest |= umask[__builtin_ctzll(m)];
    return found + op_cycles(adj, adj_all, nt, unit, rest);
}

/* Levels 4 and 5 (OP_PLAYER, alternate colours, one pack): the edges of a card's safety.
 * Sort the cards not home by their first moves (in the solution extended by the
 * auto-complete): S, a move to a cell or a column (a counted step); U, a player's move
 * home (counted); A, a free auto-move home before the goal; T, a move home in the
 * auto-complete, after the goal (the card stayed where it is until then).  An edge
 * x -> w says that w's first move comes before x's.  The edges of op_deadlocks hold for
 * x in A, U or T.  A card x of rank 3 or more that the table sends home by itself is
 * sent only when every card of the other colour below its rank is home (eo_engine_safe),
 * so each such card y, and every card above y in its column, moved first: x -> y and
 * x -> w (w above y), the edges of x's safety, hold for x in A.  A card *cannot stay*
 * when it lies above a card of lower rank in its column: a certain win has every column
 * running down in rank and the cards below it cannot move before it, so it is not in T.
 * Take a cycle none of whose cards is in S or U.  If one of its cards x is in T, so is
 * the card before it on the cycle (were that one in A, its edge to x would put x's
 * first move, after the goal, before its own, before the goal); so either every card of
 * the cycle is in A, and every edge holds, which orders the first moves in a circle,
 * impossible; or every card is in T, which needs every card able to stay and an edge of
 * safety on the cycle (without one every edge holds again).  So a cycle holding a card
 * that cannot stay, or made of op_deadlocks' edges and the edges of safety of cards
 * that cannot stay alone, holds a card in S (charged: its first move, a step of its
 * unit) or in U (charged: its move home, which moves it alone).  Cycles sharing no unit
 * are charged different steps, as in op_deadlocks.
 * Level 4 packs the cycles of the second kind (the edges of safety of the cards that
 * cannot stay only).  Level 5 takes both kinds: the edges of safety of every card
 * (adj_all), and a card in a cell as a unit of its own (its first move moves it alone;
 * a card in a cell can stay until the goal); op_cycles searches adj_all from a card
 * that cannot stay and the graph of level 4 from the others, and op_matching takes a
 * pair of adj_all when one of its cards cannot stay.  Returns the cards that cannot stay
 * at level 5 (0 below it: then adj_all is the graph of level 4). */
static uint64_t op_safe_edges(const eo_rules *r, const eo_state *s, const int8_t *colof,
                              const int8_t *posof, uint64_t (*above)[EO_COLCAP + 1],
                              uint64_t cand, uint64_t *adj, uint64_t *adj_all, int all) {
    /* by colour and rank: the cards of that colour not home up to that rank, and the
     * cards above them */
    uint64_t under[2][14];
    for (int colour = 0; colour < 2; colour++) {
        uint64_t a = 0;
        under[colour][0] = 0;
        for (int rank = 1; rank <= 13; rank++) {
            for (int suit = colour * 2; suit < colour * 2 + 2; suit++) {
                if (rank <= s->found[suit]) continue;
                int card = rank << 2 | suit;
                a |= (uint64_t)1 << card;
                if (colof[card] >= 0) a |= above[(int)colof[card]][(int)posof[card]];
            }
            under[colour][rank] = a;
        }
    }
    uint64_t nt = 0; /* the cards that cannot stay */
    for (int c = 0; c < r->ncols; c++) {
        int L = s->len[c];
        const uint8_t *col = s->col[c];
        /* the cards from the first one above a card of lower rank cannot stay */
        int i = 1;
        while (i < L && (col[i] >> 2) <= (col[i - 1] >> 2)) i++;
        for (; i < L; i++) {
            int card = col[i], rank = card >> 2;
            nt |= (uint64_t)1 << card;
            if (rank >= 3) adj[card] |= under[((card & 3) >> 1) ^ 1][rank - 1];
        }
    }
    for (uint64_t m = cand; m; m &= m - 1) {
        int card = __builtin_ctzll(m), rank = card >> 2;
        adj_all[card] = adj[card];
        if (all && rank >= 3 && !(nt >> card & 1))
            adj_all[card] |= under[((card & 3) >> 1) ^ 1][rank - 1];
    }
    return all ? nt : 0;
}

static int op_deadlocks(const op_ctx *x, const eo_state *s, const uint64_t *unit,
                        uint64_t dead) {
    const eo_rules *r = EO_R(x);
    int8_t colof[64], posof[64];
    memset(colof, -1, sizeof(colof));
    uint64_t above[EO_MAXCOLS][EO_COLCAP + 1];
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
    }
    uint64_t adj[64];
    uint64_t cand = 0;
    int cells = x->deadlocks >= 5 && x->count == OP_PLAYER && r->alt;
    for (int suit = 0; suit < 4; suit++) {
        /* the cards above the suit's cards from the next one home up to this rank: as the
         * rank grows, each new card in a column adds the cards above it (those above a
         * deeper card of the column include those above a shallower one) */
        uint64_t a = 0;
        for (int rank = s->found[suit] + 1; rank <= 13; rank++) {
            int card = rank << 2 | suit;
            if (colof[card] < 0) {
                /* in a cell: a unit of its own in the graph of level 5 */
                adj[card] = a;
                if (cells) cand |= (uint64_t)1 << card;
                continue;
            }
            a |= above[(int)colof[card]][(int)posof[card]];
            adj[card] = a;
            cand |= (uint64_t)1 << card;
        }
    }
    uint64_t adj_all[64], nt = 0;
    const uint64_t *all = adj;
    if (x->deadlocks >= 4 && x->count == OP_PLAYER && r->alt) {
        nt = op_safe_edges(r, s, colof, posof, above, cand, adj, adj_all, cells);
        all = adj_all;
    }
    /* self-loops are blocked cards: counted already, in `dead` */
    uint64_t live = cand & ~dead;
    int found = 0;
    if (x->deadlocks >= 2) return op_matching(adj, all, nt, unit, live);
    for (uint64_t m = live; m; m &= m - 1) {
        int a = __builtin_ctzll(m);
        if (!((live >> a) & 1)) continue;
        for (uint64_t n = adj[a] & live & ~((uint64_t)1 << a); n; n &= n - 1) {
            int b = __builtin_ctzll(n);
            if (!((adj[b] >> a) & 1)) continue;
            live &= ~(unit[a] | unit[b]);
            found++;
            break;
        }
    }
    return found;
}

/* The bound h of a state: `full` 0 leaves out op_deadlocks (a smaller bound, still
 * admissible: what the beam search ranks and prunes with, op_beam_search). */
static int op_bound(const op_ctx *x, const eo_state *s, int full) {
    const eo_rules *r = EO_R(x);
    int runs = 0, blocked = 0;
    uint64_t unit[64];
    uint64_t dead = 0; /* the units counted as blocked */
    int unsafe = x->count == OP_PLAYER && r->alt && x->deadlocks >= 3;
    for (int c = 0; c < r->ncols; c++) {
        int L = s->len[c];
        const uint8_t *col = s->col[c];
        uint32_t once[4] = {0, 0, 0, 0}, twice[4] = {0, 0, 0, 0};
        int low[2] = {99, 99}; /* the lowest rank below, by colour */
        int run_blocked = 0, start = 0;
        uint64_t run = 0;
        for (int i = 0; i <= L; i++) {
            if (i == L || (i > 0 && !eo_stacks(r, col[i], col[i - 1]))) {
                /* the run col[start..i) ends */
                for (int j = start; j < i; j++) unit[col[j]] = run;
                if (run_blocked) dead |= run;
                runs += run_blocked;
                run_blocked = 0;
                run = 0;
                start = i;
                if (i == L) break;
            }
            int card = col[i], rank = card >> 2, suit = card & 3;
            uint32_t below = (uint32_t)1 << rank;
            uint32_t lower = below - 1;
            int b = ((r->nfound == 4 ? once[suit] : twice[suit]) & lower) != 0;
            /* for player moves in alternate colours, also above a lower card of the
             * other colour (op_h's comment: it cannot go home for free before the goal) */
            int colour = suit >> 1;
            if (unsafe && rank >= 3 && low[colour ^ 1] < rank) run_blocked = 1;
            if (rank < low[colour]) low[colour] = rank;
            run_blocked |= b;
            blocked += b;
            run |= (uint64_t)1 << (card & 63);
            if (x->count == OP_SINGLE && b) dead |= (uint64_t)1 << (card & 63);
            if (once[suit] & below) twice[suit] |= below;
            once[suit] |= below;
        }
    }
    int extra = 0;
    if (full && r->nfound == 4 && x->deadlocks) {
        if (x->count == OP_SINGLE)
            for (int c = 0; c < r->ncols; c++)
                for (int i = 0; i < s->len[c]; i++) unit[s->col[c][i]] = (uint64_t)1 << s->col[c][i];
        for (int i = 0; i < r->ncells; i++) /* a card in a cell is a unit (level 5) */
            if (s->cell[i]) unit[s->cell[i]] = (uint64_t)1 << s->cell[i];
        extra = op_deadlocks(x, s, unit, dead);
    }
    if (x->count == OP_PLAYER) return runs + extra;
    return (r->total - s->home) + blocked + extra;
}

static int op_h(const op_ctx *x, const eo_state *s) { return op_bound(x, s, 1); }

/* The state after one step (a move, and the auto-moves after it with OP_PLAYER), made
 * on s; with `made` (not NULL), each move made (the step, then its auto-moves) into it,
 * for op_unstep to take back.  Returns how many. */
static int op_step(const op_ctx *x, eo_state *s, eo_move *m, eo_move *made) {
    int from_foundation = m->src >= EO_FOUND && m->src < EO_HOME;
    eo_apply(EO_R(x), s, m);
    if (made) made[0] = *m;
    if (x->count != OP_PLAYER || from_foundation) return 1;
    return 1 + op_closure_into(EO_R(x), s, made ? made + 1 : NULL, 0);
}

static void op_unstep(eo_state *s, const eo_move *made, int n) {
    for (int j = n - 1; j >= 0; j--) eo_undo(s, &made[j]);
}

/* The steps to try from a state (see the pruning above); returns how many. */
static int op_moves(const op_ctx *x, const eo_rules *mr, const eo_state *s, eo_move *out) {
    const eo_rules *r = EO_R(x);
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
    /* the moves eo_legal_moves lists, in its order, less those pruned: made directly
     * (each rule asked only of the moves kept) rather than listed and then filtered */
    int first_cell = -1, first_col = -1, k = 0;
    for (int i = 0; i < r->ncells && first_cell < 0; i++)
        if (!s->cell[i]) first_cell = EO_CELL + i;
    for (int c = 0; c < r->ncols && first_col < 0; c++)
        if (!s->len[c]) first_col = c;
    for (int c = 0; c < r->ncols; c++) {
        int L = s->len[c];
        if (!L) continue;
        int run = eo_run(mr, s, c), top = eo_rank(s->col[c][L - 1]);
        if (eo_column_move_ok(mr, s, c, run, EO_HOME, 1)) out[k++] = eo_mv(c, EO_HOME, 1);
        if (first_cell >= 0) out[k++] = eo_mv(c, first_cell, 1); /* to the first empty cell */
        for (int t = 0; t < r->ncols; t++) {
            int T = s->len[t];
            if (T) {
                /* onto a card: only the run's card one rank below it can go there, the
                 * n-th from the top (a run's ranks go down one by one) */
                int n = eo_rank(s->col[t][T - 1]) - top;
                if (n >= 1 && n <= run && eo_column_move_ok(mr, s, c, run, t, n))
                    out[k++] = eo_mv(c, t, n);
            } else if (t == first_col) {
                /* into the first empty column, every count but the whole column */
                for (int n = 1; n <= run && n < L; n++)
                    if (eo_column_move_ok(mr, s, c, run, t, n)) out[k++] = eo_mv(c, t, n);
            }
        }
    }
    /* from a cell (never to another cell), then with retrieval from a foundation */
    int singles = r->ncells + (mr->retrieval ? r->nfound : 0);
    for (int i = 0; i < singles; i++) {
        int from_cell = i < r->ncells, src, card;
        if (from_cell) {
            src = EO_CELL + i;
            card = s->cell[i];
        } else {
            int f = i - r->ncells;
            src = EO_FOUND + f;
            card = s->found[f] ? s->found[f] << 2 | (f & 3) : 0;
        }
        if (!card) continue;
        if (eo_single_move_ok(mr, s, card, from_cell, EO_HOME, 1)) out[k++] = eo_mv(src, EO_HOME, 1);
        if (!from_cell && first_cell >= 0) out[k++] = eo_mv(src, first_cell, 1);
        for (int t = 0; t < r->ncols; t++)
            if ((s->len[t] || t == first_col) && eo_single_move_ok(mr, s, card, from_cell, t, 1))
                out[k++] = eo_mv(src, t, 1);
    }
    return k;
}

/* ----- A*'s table of states (op_tab) ----------------------------------------------
 * A state's id is the order it entered in, with either kind of key (op_key), so the
 * search is the same with either: the same ids, open list and states.
 *   - Canonical keys: core.h's eo_table (an 8-byte slot, the key in an arena after its
 *     length byte, and its offset: the key and about 35 bytes more a state, with the
 *     slots a quarter to half full).
 *   - Records (x->enc.on): compact.h's eo_crecs, the store of the complete search's
 *     records: the 16-byte record of id with no length and no offset, and an index of
 *     4-byte slots (the id and a tag of the hash).  About 30 bytes a state fewer than an
 *     eo_table of the same records: A* on FreeCell 74 took 105 MiB for 2.17 million
 *     states (48 bytes a state in all), against 172 MiB (an eo_table of records) and
 *     265 MiB (canonical keys).  A state whose record does not fit is kept there by its
 *     canonical key.
 * Both place a key by the high half of its eo_hash (the low bits choose the thread that
 * owns it, op_astar); the slots double at half full, or three quarters after
 * op_tab_dense. */
typedef struct {
    eo_table t; /* canonical keys */
    int rec;
    eo_crecs r; /* records */
} op_tab;

#define OP_IX_FIRST ((size_t)1 << 16)

static void op_tab_init(op_tab *b, int rec) {
    memset(b, 0, sizeof(*b));
    b->rec = rec;
    eo_table_init(&b->t, OP_IX_FIRST);
    eo_crecs_init(&b->r, OP_IX_FIRST, 50);
}

static void op_tab_free(op_tab *b) {
    eo_table_free(&b->t);
    eo_crecs_free(&b->r);
    memset(b, 0, sizeof(*b));
}

/* New slots written at once (core.h's eo_table_slots), for a search of several threads. */
static void op_tab_prefault(op_tab *b, int on) {
    b->t.prefault = b->r.prefault = b->r.big.prefault = on;
}

static inline size_t op_tab_count(const op_tab *b) { return b->rec ? b->r.count : b->t.count; }

/* the slots' bytes (what a doubling of them takes again, twice) */
static inline size_t op_tab_slot_bytes(const op_tab *b) {
    if (b->rec) return eo_crecs_slot_bytes(&b->r);
    return b->t.slots ? (b->t.mask + 1) * sizeof(uint64_t) : 0;
}

/* Whether the slots are an eighth of them short of their next doubling. */
static inline int op_tab_near_grow(const op_tab *b) {
    if (b->rec) return b->r.index && b->r.count + (b->r.imask + 1) / 8 > b->r.grow_at;
    return b->t.slots && b->t.count + (b->t.mask + 1) / 8 > b->t.grow_at;
}

/* The bytes the table holds as the machine holds them (op_bytes): the slots whole, of
 * what grows by doubling the part written. */
static inline size_t op_tab_bytes(const op_tab *b) {
    const eo_table *t = b->rec ? &b->r.big : &b->t;
    size_t keyed = (t->slots ? (t->mask + 1) * sizeof(uint64_t) : 0) + t->arena_len +
                   t->count * sizeof(uint64_t);
    if (!b->rec) return keyed;
    return keyed + op_tab_slot_bytes(b) + b->r.count * sizeof(eo_crec) +
           t->count * sizeof(uint32_t);
}

/* The slots filled to three quarters before they double next (eo_table_dense). */
static inline int op_tab_dense(op_tab *b) {
    return b->rec ? eo_crecs_dense(&b->r) : eo_table_dense(&b->t);
}

/* The id of a key (op_key) whose eo_hash is h, or -1. */
static inline long op_tab_find_hashed(const op_tab *b, const uint8_t *key, int len,
                                      uint64_t h) {
    if (!b->rec) return eo_table_find_hashed(&b->t, key, len, h);
    if (len != (int)sizeof(eo_crec)) return eo_crecs_find_big(&b->r, key, len, h);
    eo_crec k;
    memcpy(&k, key, sizeof(k));
    return eo_crecs_find(&b->r, &k, h);
}

/* Insert a key (op_key) whose eo_hash is h: its new id, or -(existing id) - 2 if it was
 * there, or -1 if out of memory (as eo_table_insert_hashed). */
static inline long op_tab_insert_hashed(op_tab *b, const uint8_t *key, int len, uint64_t h) {
    if (!b->rec) return eo_table_insert_hashed(&b->t, key, len, h);
    if (len != (int)sizeof(eo_crec)) return eo_crecs_add_big(&b->r, key, len, h);
    eo_crec k;
    memcpy(&k, key, sizeof(k));
    return eo_crecs_add(&b->r, &k, h);
}

static inline long op_tab_insert(op_tab *b, const uint8_t *key, int len) {
    return op_tab_insert_hashed(b, key, len, eo_hash(key, len));
}

/* The key of state id (op_key's bytes). */
static inline const uint8_t *op_tab_key(const op_tab *b, size_t id, int *len) {
    const eo_table *t = &b->t;
    size_t off;
    if (b->rec) {
        const eo_crec *k = eo_crec_at(&b->r, id);
        if (!(k->hi & EO_CBIG)) {
            *len = (int)sizeof(*k);
            return (const uint8_t *)k;
        }
        t = &b->r.big;
        off = t->offs[k->lo];
    } else {
        off = t->offs[id];
    }
    const uint8_t *rec = t->arena + off;
    *len = rec[0];
    return rec + 1;
}

/* Hints for a batch of lookups (eo_table_prefetch_slot, eo_table_first; a state kept
 * by its canonical key among records is not guessed: -1). */
static inline void op_tab_prefetch_slot(const op_tab *b, uint64_t h) {
    if (!b->rec) eo_table_prefetch_slot(&b->t, h);
    else eo_crecs_prefetch_slot(&b->r, h);
}

static inline long op_tab_first(const op_tab *b, uint64_t h) {
    return b->rec ? eo_crecs_first(&b->r, h) : eo_table_first(&b->t, h);
}

/* A child of the state expanded: its key's length and hash, and whether it is a goal
 * (op_search). */
typedef struct {
    uint64_t hash;
    int len, goal;
} op_child;

/* A state in the table: open (waiting in the open list), or closed (expanded, or stored
 * only to remember its bound: f reached the upper bound when it was reached, op_search). */
#define OP_OPEN 0
#define OP_CLOSED 1
#define OP_PARTIAL 2 /* expanded, with children left out to be made again (op_take) */

typedef struct {
    op_tab t;
    uint32_t *parent;
    uint16_t *g, *f;
    uint8_t *closed;
    size_t cap;
    op_stack *open; /* OP_MAXF * OP_HB stacks: f * OP_HB + min(h, OP_HB - 1) */
    size_t open_bytes;
} op_work;

/* Where a state waits in the open list: its f (A*) or g + w/10 * h (weighted), then h.
 * f = g + h is what w->f keeps in both modes: the bound that prunes. */
static int op_index(const op_ctx *x, int g, int f) {
    int h = f - g, key = f;
    if (x->weight > 10) {
        key = g + (h * x->weight + 9) / 10;
        if (key >= OP_MAXF) key = OP_MAXF - 1;
    }
    return key * OP_HB + (h < OP_HB ? h : OP_HB - 1);
}

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
    op_tab_free(&w->t);
    free(w->parent);
    free(w->g);
    free(w->f);
    free(w->closed);
    if (w->open)
        for (int i = 0; i < OP_MAXF * OP_HB; i++) free(w->open[i].v);
    free(w->open);
    memset(w, 0, sizeof(*w));
}

/* The memory limit as op_bytes counts: the limit less a 32nd of it, for what the count
 * does not see (the allocator's rounding and free blocks, each thread's buffers of
 * children).  With neither this nor the open list counted twice, A* grew the process by
 * 261 MiB at a limit of 256 MiB (tests/unit/test_optimal.py). */
static size_t op_limit(const op_ctx *x) { return x->max_mem - x->max_mem / 32; }

/* The memory a thread's tables hold, as the machine holds it: the table's slots whole
 * (the states are spread over all of them); of the arrays that grow by doubling (the
 * table's keys and their offsets or its records, each state's parent, g, f and mark)
 * the part written, one state's worth per state stored: a large block is mapped by the
 * system a page at a time when first written, and grown in place of its pages
 * (realloc's mremap), so room taken and never written holds no memory (counting it, as
 * before 2026-12-06, stopped the table's par with about two thirds of its 512 MiB in
 * use); the open list's stacks twice as allocated (thousands of small blocks grown on
 * the heap, where each doubling can leave the block it moved from unused).  And, from
 * when the table is an eighth of its slots short of its next doubling
 * (op_tab_near_grow), the new slots as well: the doubling holds the old slots and the
 * new ones at once, so a doubling that would pass the limit is the limit (the limit is
 * looked at every 256 expansions, far fewer states than an eighth of the slots).
 * Before that, op_worker lets the slots fill to three quarters rather than half
 * (op_fill).  tests/unit/test_optimal.py holds A*'s growth of the process's peak memory
 * to its limit. */
static size_t op_bytes(const op_work *w) {
    const op_tab *t = &w->t;
    size_t b = op_tab_bytes(t) +
               op_tab_count(t) * (sizeof(uint32_t) + 2 * sizeof(uint16_t) + 1) +
               2 * w->open_bytes;
    if (op_tab_near_grow(t)) b += 2 * op_tab_slot_bytes(t);
    return b;
}

static const uint8_t *op_key_of(const op_work *w, uint32_t id, int *len) {
    return op_tab_key(&w->t, id, len);
}

/* A state of the search is named by a reference: the thread that owns it (op_astar) and
 * its id in that thread's table, thread << OP_TSHIFT | id (with one thread, or in the
 * beam search, the id itself). */
#define OP_MAXT 16     /* threads of op_astar, at most */
#define OP_TSHIFT 28   /* ids of a thread's table below 2^28 */
#define OP_IDMASK ((1u << OP_TSHIFT) - 1)

static inline uint32_t op_ref(int thread, uint32_t id) {
    return (uint32_t)thread << OP_TSHIFT | id;
}

static inline uint32_t op_parent_ref(op_work *const *ws, uint32_t ref) {
    return ws[ref >> OP_TSHIFT]->parent[ref & OP_IDMASK];
}

/* The path to state `goal` (a reference; ws[t] is thread t's table) as moves from the
 * real start: each step found again among the legal moves of the real state (by the
 * canonical key it leads to). */
static int op_trace(op_ctx *x, op_work *const *ws, const eo_rules *mr, const eo_state *start,
                    uint32_t goal) {
    /* the chain of parents, to the start (its own parent): a state's parent had a smaller
     * g when it was set, and g only falls, so the chain ends there; it is no longer than
     * the goal's g */
    int n = 0;
    for (uint32_t ref = goal; op_parent_ref(ws, ref) != ref; ref = op_parent_ref(ws, ref)) n++;
    uint32_t *ids = (uint32_t *)malloc((size_t)(n + 1) * sizeof(uint32_t));
    x->path = (eo_move *)malloc((size_t)(n + 1) * sizeof(eo_move));
    if (!ids || !x->path) {
        free(ids);
        return -1;
    }
    uint32_t ref = goal;
    for (int i = n; i >= 0; i--) {
        ids[i] = ref;
        ref = op_parent_ref(ws, ref);
    }
    eo_state s = *start;
    uint8_t key[EO_MAXKEY];
    eo_move all[2048];
    for (int i = 1; i <= n; i++) {
        int want_len;
        const uint8_t *want = op_key_of(ws[ids[i] >> OP_TSHIFT], ids[i] & OP_IDMASK, &want_len);
        int k = eo_legal_moves(mr, &s, all), found = 0;
        for (int j = 0; j < k && !found; j++) {
            eo_state t = s;
            eo_move m = all[j];
            op_step(x, &t, &m, NULL);
            int len = op_key(x, &t, key);
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

/* ----- the upper bound: a beam search (x->beam > 0) ------------------------------------
 * Not a proof, a short solution sooner: breadth-first by steps, keeping at each depth
 * only the x->beam children that look best (op_beam_score), every state once (the first
 * depth it is reached at); children whose g + h reaches x->upper (the best solution
 * known) are dropped, as they cannot be shorter.  The first goal reached ends it: the
 * path to it is the solution (status OP_BEAM), at most x->upper - 1 steps.  h here is
 * the bound without op_deadlocks (op_bound's `full` 0): the beam then looks at more
 * states in its time, which found shorter solutions than the full bound on 7 of 10
 * FreeCell deals tried and longer on none.  It ends with OP_BEAM, OP_DRY (nothing found
 * at this width), or at a limit (OP_TIME, OP_STATES, OP_MEMORY).  eo_beam_fallback
 * (the end of this file) runs it for the main solver too. */
typedef struct {
    int score;
    uint32_t id;
} op_scored;

/* How promising a state looks (higher better): the compiled solver's features with the
 * weights it is tuned with for the build rule (plans.py, SUIT_WEIGHTS and
 * ALTERNATE_WEIGHTS without the moves made, which are the same within a depth), less a
 * weight on the moves the bound says are left. */
static int op_beam_score(const op_ctx *x, const eo_state *s, int h) {
    static const eo_weights suit = {100, 2, 5, 13, 12, 0, 124, 4, 27, 131, 2};
    static const eo_weights alt = {100, 11, 21, 0, 11, 0, 108, 9, 31, 109, 24};
    return eo_score(EO_R(x), s, EO_R(x)->alt ? &alt : &suit) - 100 * h;
}

/* the `keep` best of v[0..n) to its front (quickselect by score, best first) */
static void op_best(op_scored *v, long n, long keep) {
    long lo = 0, hi = n - 1;
    while (lo < hi && keep > lo && keep <= hi) {
        int pivot = v[lo + (hi - lo) / 2].score;
        long i = lo, j = hi;
        while (i <= j) {
            while (v[i].score > pivot) i++;
            while (v[j].score < pivot) j--;
            if (i <= j) {
                op_scored t = v[i];
                v[i] = v[j];
                v[j] = t;
                i++;
                j--;
            }
        }
        if (keep <= j) hi = j;
        else if (keep > i) lo = i;
        else break;
    }
}

static void op_beam_search(op_ctx *x, op_work *w, const eo_rules *mr, const eo_state *start,
                           double deadline) {
    int upper = x->upper > 0 ? x->upper : OP_MAXF;
    long width = x->beam;
    uint32_t *layer = (uint32_t *)malloc((size_t)width * sizeof(uint32_t));
    long cap = width * 64, nnext = 0, nlayer = 1;
    op_scored *next = (op_scored *)malloc((size_t)cap * sizeof(op_scored));
    uint8_t key[EO_MAXKEY];
    eo_move moves[2048];
    eo_state s, t;
    long goal = -1;
    x->status = OP_TIME;
    if (!layer || !next) {
        x->status = OP_MEMORY;
        goto done;
    }
    layer[0] = 0;
    for (int depth = 0; depth + 1 < upper && nlayer > 0 && goal < 0; depth++) {
        nnext = 0;
        for (long li = 0; li < nlayer && goal < 0; li++) {
            uint32_t id = layer[li];
            int klen;
            const uint8_t *k = op_key_of(w, id, &klen);
            op_unkey(x, k, klen, &s);
            int n = op_moves(x, mr, &s, moves);
            for (int i = 0; i < n; i++) {
                t = s;
                op_step(x, &t, &moves[i], NULL);
                int goal_here = op_goal(x, &t);
                int h = goal_here ? 0 : op_bound(x, &t, 0);
                if (depth + 1 + h >= upper) continue;
                int len = op_key(x, &t, key);
                long r = op_tab_insert(&w->t, key, len);
                if (r == -1 || (r >= 0 && op_reserve(w, (size_t)r) != 0)) {
                    x->status = OP_MEMORY;
                    goto done;
                }
                if (r < 0) continue; /* reached before, at this depth or less */
                w->parent[r] = id;
                w->g[r] = (uint16_t)(depth + 1);
                if (goal_here) {
                    goal = r;
                    break;
                }
                if (nnext == cap) {
                    op_scored *v = (op_scored *)realloc(next, (size_t)cap * 2 * sizeof(op_scored));
                    if (!v) {
                        x->status = OP_MEMORY;
                        goto done;
                    }
                    next = v;
                    cap *= 2;
                }
                next[nnext].score = op_beam_score(x, &t, h);
                next[nnext].id = (uint32_t)r;
                nnext++;
            }
            x->expanded++;
            if ((x->expanded & 255) == 0) {
                if (eo_signal || (deadline && op_clock(x) > deadline)) goto done;
                if (x->max_states && (long)op_tab_count(&w->t) > x->max_states) {
                    x->status = OP_STATES;
                    goto done;
                }
                if (x->max_mem && op_bytes(w) + (size_t)cap * sizeof(op_scored) > op_limit(x)) {
                    x->status = OP_MEMORY;
                    goto done;
                }
            }
        }
        if (goal >= 0) break;
        if (nnext > width) op_best(next, nnext, width);
        nlayer = nnext < width ? nnext : width;
        for (long i = 0; i < nlayer; i++) layer[i] = next[i].id;
    }
    if (goal >= 0) {
        op_work *ws[1] = {w};
        if (op_trace(x, ws, mr, start, (uint32_t)goal) == 0) {
            x->status = OP_BEAM;
            x->upper = x->plen;
        } else {
            x->status = OP_MEMORY;
        }
    } else {
        /* the beam ran dry (or reached the longest path the search stores): nothing
         * shorter found at this width */
        x->status = OP_DRY;
    }
done:
    free(layer);
    free(next);
}

/* A thread's table and open list made empty, the table keyed as x's op_key keys states;
 * nonzero when the memory is lacking. */
static int op_work_init(op_work *w, const op_ctx *x) {
    memset(w, 0, sizeof(*w));
    w->open = (op_stack *)calloc((size_t)OP_MAXF * OP_HB, sizeof(op_stack));
    op_tab_init(&w->t, x->enc.on);
    if (!w->open) return -1;
    w->open_bytes = (size_t)OP_MAXF * OP_HB * sizeof(op_stack);
    return 0;
}

/* The start stored in w (the first state of its table: id 0, its own parent, `self` its
 * reference), open with f = h0; nonzero when the memory is lacking. */
static int op_work_root(op_work *w, const op_ctx *x, const eo_state *start, int h0,
                        uint32_t self) {
    uint8_t key[EO_MAXKEY];
    int len = op_key(x, start, key);
    if (op_tab_insert(&w->t, key, len) != 0 || op_reserve(w, 0) != 0) return -1;
    w->parent[0] = self;
    w->g[0] = 0;
    w->f[0] = (uint16_t)h0;
    w->closed[0] = OP_OPEN;
    return op_push(w, op_index(x, 0, h0), 0);
}

/* ----- A* on x->threads threads (op_astar) -----------------------------------------
 * The states are split among the threads by their hash (the low bits of eo_hash; the
 * tables take their slots from the high ones): each thread keeps the states it owns
 * (its own table, g, f, parents and open list) and expands them, taking its own least f
 * first; a child goes to its owner, which looks it up, computes its bound when it is
 * new and stores or opens it (op_take) exactly as the one thread does, so every state
 * is stored once.  A child owned by another thread is sent to it as a message (its key
 * and hash, g, its parent's reference and f), in batches (op_send_all).
 * (Hash-distributed A*: Kishimoto, Fukunaga and Botea, "Evaluation of a simple,
 * scalable, parallel best-first search strategy", 2013.)  One thread is the search as it
 * was, run in the caller's thread.
 *
 * Still exact, though the threads do not expand in one order of f: the search ends when
 * no thread has a state open with f below the best solution's length (upper) and no
 * message is waiting (every thread idle, every inbox empty, checked under one lock: a
 * thread sends only while it is not idle, and wakes only on a message).  Were there
 * then a solution of length L < upper, take its path s0 .. sL and the first state s_i
 * on it not expanded with g <= i (s0 was, with g 0).  s_{i-1} was, so a child s_i with
 * g <= i and f = max(g + h, the parent's f) <= L went to s_i's owner (h is admissible,
 * and the parent's f <= L the same way); the owner stored it open with that g unless it
 * had it with a g no larger (then its f - g, kept, is no more than its true distance:
 * pathmax), so it was open with f <= L < upper, and at the end nothing is: it was
 * expanded with g <= i, a contradiction, unless i = L, a goal, whose g <= L < upper
 * would have set upper.  So the best solution found is optimal.  At a limit, the least
 * f open anywhere, of a message not yet taken (its parent's f, no more than the
 * child's), or of a state whose expansion a lack of memory cut, is a proven lower
 * bound: by the same argument a shorter solution has a state on its path that is one of
 * those, with f no more than its length. */
typedef struct op_par op_par;

typedef struct {
    /* the thread's own: no other thread touches these while the search runs */
    op_par *P;
    int id;
    op_work w;
    int cur;        /* the least index of its open list that may hold an entry */
    int busy_f;     /* the f of the state whose expansion is under way, or the least f of
                       messages a lack of memory lost (OP_MAXF: none) */
    long pops, expanded;
    int unsent;     /* expansions since its batches of messages were last sent */
    uint8_t *spare; /* the inbox's second buffer (op_drain) */
    size_t spare_cap;
    uint8_t *out[OP_MAXT]; /* the messages to each thread, not yet sent */
    size_t out_n[OP_MAXT], out_cap[OP_MAXT];
    int idle;           /* under P->mu */
    op_child *kids;
    uint8_t *kid_keys;
    pthread_t tid;
    /* its inbox, which the others write: on cache lines of its own (a line shared with
     * the fields above, which the thread writes at every state, would go back and forth
     * between the cores) */
    _Alignas(64) pthread_mutex_t mu;
    uint8_t *in;
    size_t in_n, in_cap;
    int mail;           /* (atomic) the inbox holds messages */
    /* published for the others' checks of the limits */
    _Alignas(64) size_t bytes; /* (atomic) its memory */
    long count;         /* (atomic) the states it stores */
    _Alignas(64) char end;
} op_thr;

struct op_par {
    op_ctx *x;
    const eo_rules *mr;
    int T;
    op_thr th[OP_MAXT];
    op_work *ws[OP_MAXT];
    pthread_mutex_t mu; /* the best goal, and the threads' idleness */
    int upper;          /* (atomic) the best solution's length: only shorter ones are sought */
    uint32_t goal;      /* under mu: the best goal's reference (has_goal) */
    int has_goal;
    int stop;           /* (atomic) the status of a limit that ends the search, else 0 */
    int done;           /* (atomic) every thread idle and every inbox empty: the end */
    int overflow;       /* (atomic) a state's f reached OP_MAXF */
    int partial;        /* (atomic) partial expansion is on (op_take) */
    double deadline, t0; /* t0: the start, on the clock of the deadline */
};

/* A message: hash 8, parent 4, g 2, the parent's f 2, goal 1, key's length 1, the f of
 * the expansion 2 (op_take's F), then the key.  A report of children left out (goal
 * OP_REPORT, no key): the parent's id in `parent`, the least f of the children left out in
 * the parent's f (what op_least_msg reads for the lower bound). */
#define OP_MSG_HEAD 20
#define OP_REPORT 2

static void op_halt(op_par *P, int status) {
    int none = 0;
    __atomic_compare_exchange_n(&P->stop, &none, status, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

/* A buffer of messages with room for `need` bytes more; nonzero when the memory is
 * lacking. */
static int op_room(uint8_t **buf, size_t n, size_t *cap, size_t need) {
    if (n + need <= *cap) return 0;
    size_t c = *cap ? *cap : (size_t)1 << 16;
    while (c < n + need) c *= 2;
    uint8_t *b = (uint8_t *)realloc(*buf, c);
    if (!b) return -1;
    *buf = b;
    *cap = c;
    return 0;
}

/* A child for thread `to`, into the batch of messages to it; nonzero when the memory is
 * lacking. */
static int op_out(op_thr *t, int to, uint64_t hash, uint32_t parent, int g1, int pf, int F,
                  int goal, const uint8_t *key, int len) {
    if (op_room(&t->out[to], t->out_n[to], &t->out_cap[to], OP_MSG_HEAD + (size_t)len) != 0)
        return -1;
    uint8_t *p = t->out[to] + t->out_n[to];
    uint16_t g = (uint16_t)g1, f = (uint16_t)pf, ef = (uint16_t)F;
    memcpy(p, &hash, 8);
    memcpy(p + 8, &parent, 4);
    memcpy(p + 12, &g, 2);
    memcpy(p + 14, &f, 2);
    p[16] = (uint8_t)goal;
    p[17] = (uint8_t)len;
    memcpy(p + 18, &ef, 2);
    if (len) memcpy(p + OP_MSG_HEAD, key, (size_t)len);
    t->out_n[to] += OP_MSG_HEAD + (size_t)len;
    return 0;
}

/* The batch of messages to thread `to` into its inbox; nonzero when the memory is
 * lacking. */
static int op_send(op_thr *t, int to) {
    if (!t->out_n[to]) return 0;
    op_thr *d = &t->P->th[to];
    int rc = 0;
    pthread_mutex_lock(&d->mu);
    size_t held = d->in_cap;
    if (!d->in_n) { /* an empty inbox takes the batch's buffer */
        uint8_t *b = d->in;
        size_t c = d->in_cap;
        d->in = t->out[to];
        d->in_cap = t->out_cap[to];
        d->in_n = t->out_n[to];
        t->out[to] = b;
        t->out_cap[to] = c;
    } else if (op_room(&d->in, d->in_n, &d->in_cap, t->out_n[to]) == 0) {
        memcpy(d->in + d->in_n, t->out[to], t->out_n[to]);
        d->in_n += t->out_n[to];
    } else {
        rc = -1;
    }
    if (!rc) __atomic_store_n(&d->mail, 1, __ATOMIC_SEQ_CST);
    /* the inbox's growth counted at once in the receiver's memory (which it publishes
     * only every 256 expansions: a receiver that lags, its inbox filling, would be
     * counted late) */
    if (d->in_cap > held) __atomic_add_fetch(&d->bytes, d->in_cap - held, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&d->mu);
    if (!rc) t->out_n[to] = 0;
    return rc;
}

/* Every batch sent (after OP_SEND_EVERY expansions, or a batch of OP_SEND_BYTES, and
 * before the thread falls idle: fewer sends, fewer locks and cache lines passed between
 * the cores). */
#define OP_SEND_EVERY 64
#define OP_SEND_BYTES ((size_t)1 << 14)

static int op_send_all(op_thr *t) {
    t->unsent = 0;
    for (int to = 0; to < t->P->T; to++)
        if (op_send(t, to) != 0) return -1;
    return 0;
}

/* Fetch from memory, all at once, what op_take will read of the states of these hashes
 * that the table holds (their slots fetched already: eo_table_prefetch_slot): each
 * looked up alone waits for memory three times in a row (its slot, its record's offset,
 * the record), most of the time of a lookup otherwise. */
#define OP_WARM_MAX 2048   /* the most at once: an expansion's children (op_worker's kids) */
#define OP_DRAIN_BATCH 32  /* messages taken a batch at a time (op_drain) */
static void op_warm(const op_work *w, const uint64_t *hash, int n) {
    long first[OP_WARM_MAX];
    const op_tab *b = &w->t;
    if (b->rec) { /* the record is where the id says: no offset to wait for */
        for (int j = 0; j < n; j++) {
            long cc = op_tab_first(b, hash[j]);
            if (cc < 0) continue;
            __builtin_prefetch(eo_crec_at(&b->r, (size_t)cc));
            __builtin_prefetch(&w->g[cc]);
            __builtin_prefetch(&w->f[cc]);
        }
        return;
    }
    for (int j = 0; j < n; j++) {
        long cc = op_tab_first(b, hash[j]);
        first[j] = cc;
        if (cc >= 0) __builtin_prefetch(&b->t.offs[cc]);
    }
    for (int j = 0; j < n; j++) {
        long cc = first[j];
        if (cc < 0) continue;
        const uint8_t *rec = b->t.arena + b->t.offs[cc];
        __builtin_prefetch(rec);
        __builtin_prefetch(rec + 64);
        __builtin_prefetch(&w->g[cc]);
        __builtin_prefetch(&w->f[cc]);
    }
}

/* State id of the thread into its open list at `index` (op_index), the least index
 * that may hold an entry lowered to it; nonzero when the memory is lacking. */
static int op_open_at(op_thr *t, uint32_t id, int index) {
    if (op_push(&t->w, index, id) != 0) return -1;
    if (index < t->cur) t->cur = index;
    return 0;
}

/* A child the thread owns, reached with g1 from `parent` (a reference) whose f is pf,
 * in an expansion at F (pf, or more for a partial one): stored, opened again or dropped
 * as the search requires (the comments below); nonzero when the memory is lacking.
 *
 * Partial expansion (P->partial; Yoshizumi, Miura and Ishida, "A* with partial
 * expansion for large branching factor problems", AAAI 2000): a new child whose f
 * exceeds F is left out, not stored (most children whose f exceeds their parent's are
 * never expanded: about half the states A* stores have f = par and are left when the
 * goal is found), and its f is reported (*left, the least): the parent is opened again
 * at that f (op_reopen) and, taken then, expanded again at it, storing the children
 * whose f has come.  The parent stays open at the least f of the children it left out,
 * which is no more than theirs, so the least f open is still a lower bound and a
 * shorter solution's path still has a state open with f no more than its length
 * (op_astar's argument, with "s_i was left out" leading to its parent's entry at s_i's
 * f); the states stored are fewer, at the cost of expansions made again. */
static int op_take(op_thr *t, const uint8_t *ck, int len, uint64_t hash, int g1, int pf,
                   int F, int goal_here, uint32_t parent, int *left, eo_state *from,
                   eo_move *step) {
    op_par *P = t->P;
    const op_ctx *x = P->x;
    op_work *w = &t->w;
    /* a state stored already with a path no longer: nothing to do (looked up before its
     * bound is computed, most children are such) */
    long known = op_tab_find_hashed(&w->t, ck, len, hash);
    if (known >= 0 && w->g[known] <= g1) return 0;
    /* a state reached again by a shorter path keeps the bound it had: f - g is a bound of
     * the state (pathmax: h(parent) - 1 <= h*(child) on any step) */
    int h = 0;
    if (known >= 0) {
        h = w->f[known] - w->g[known];
    } else if (!goal_here) {
        if (from) {
            /* the child made again on its parent (the bound does not depend on the
             * order of the columns or the cells): cheaper than a record decoded */
            eo_move made[1 + 2 * 52];
            eo_move m = *step;
            int nm = op_step(x, from, &m, made);
            h = op_h(x, from);
            op_unstep(from, made, nm);
        } else {
            eo_state s; /* the child again, from its key, for its bound */
            op_unkey(x, ck, len, &s);
            h = op_h(x, &s);
        }
    }
    int f1 = g1 + h;
    if (f1 < pf) f1 = pf; /* pathmax: the parent's bound holds for its children */
    int upper = __atomic_load_n(&P->upper, __ATOMIC_RELAXED);
    if (f1 >= upper && (known >= 0 || goal_here || f1 >= OP_MAXF)) return 0;
    if (f1 >= OP_MAXF) {
        __atomic_store_n(&P->overflow, 1, __ATOMIC_RELAXED);
        return 0;
    }
    if (known < 0 && !goal_here && __atomic_load_n(&P->partial, __ATOMIC_RELAXED)) {
        if (f1 >= upper) return 0; /* never expanded: not stored either */
        if (f1 > F) {              /* left out until the parent is expanded at f1 */
            if (f1 < *left) *left = f1;
            return 0;
        }
    }
    long r = known >= 0 ? -known - 2 : op_tab_insert_hashed(&w->t, ck, len, hash);
    if (r == -1) return -1;
    uint32_t cid;
    if (r >= 0) {
        if ((size_t)r > OP_IDMASK || op_reserve(w, (size_t)r) != 0) return -1;
        cid = (uint32_t)r;
        __atomic_store_n(&t->count, (long)op_tab_count(&w->t), __ATOMIC_RELAXED);
        w->closed[cid] = OP_OPEN;
        if (f1 >= upper) {
            /* no shorter solution passes through it: stored closed, never opened, only
             * so that its bound is not computed again each time it is reached (it stays
             * closed unless a shorter path brings its f below the upper bound: then it
             * is opened as any state reached again) */
            w->closed[cid] = OP_CLOSED;
            w->parent[cid] = parent;
            w->g[cid] = (uint16_t)g1;
            w->f[cid] = (uint16_t)f1;
            return 0;
        }
    } else {
        cid = (uint32_t)(-r - 2);
        /* reached by a shorter path: open again (expanded before, or stored closed when
         * its f reached the upper bound): expanded whole, at its f */
        w->closed[cid] = OP_OPEN;
    }
    w->parent[cid] = parent;
    w->g[cid] = (uint16_t)g1;
    w->f[cid] = (uint16_t)f1;
    if (goal_here) {
        /* the best goal so far: only shorter solutions are sought from now on (never
         * pushed: not expanded; a shorter path to it later updates it) */
        pthread_mutex_lock(&P->mu);
        if (g1 < P->upper) {
            __atomic_store_n(&P->upper, g1, __ATOMIC_RELAXED);
            P->goal = op_ref(t->id, cid);
            P->has_goal = 1;
        }
        pthread_mutex_unlock(&P->mu);
        return 0;
    }
    return op_open_at(t, cid, op_index(x, g1, f1));
}

/* State id of the thread, expanded, opened again at F (the least f of children it left
 * out: op_take) to be expanded again there; a state open already (reached by a shorter
 * path since) is expanded whole anyway.  Nonzero when the memory is lacking. */
static int op_reopen(op_thr *t, uint32_t id, int F) {
    op_work *w = &t->w;
    if (w->closed[id] == OP_OPEN) return 0;
    w->closed[id] = OP_PARTIAL;
    return op_open_at(t, id, op_index(t->P->x, w->g[id], F));
}

/* The least parent's f of the messages in buf[0 .. n) (OP_MAXF: none). */
static int op_least_msg(const uint8_t *buf, size_t n) {
    int best = OP_MAXF;
    for (size_t i = 0; i < n;) {
        uint16_t f;
        memcpy(&f, buf + i + 14, 2);
        if (f < best) best = f;
        i += OP_MSG_HEAD + (size_t)buf[i + 17];
    }
    return best;
}

static int op_over(op_thr *t);

/* The messages in the thread's inbox taken (op_take); nonzero when the memory is
 * lacking (or the limit is reached: looked at every 256 messages, as op_worker does
 * every 256 expansions). */
static int op_drain(op_thr *t) {
    pthread_mutex_lock(&t->mu);
    uint8_t *buf = t->in;
    size_t n = t->in_n, cap = t->in_cap;
    t->in = t->spare;
    t->in_cap = t->spare_cap;
    t->in_n = 0;
    t->spare = buf;
    t->spare_cap = cap;
    __atomic_store_n(&t->mail, 0, __ATOMIC_SEQ_CST);
    pthread_mutex_unlock(&t->mu);
    /* a batch of messages at a time: their states fetched from memory together
     * (op_warm), then taken in order */
    size_t at[OP_DRAIN_BATCH];
    uint64_t hash[OP_DRAIN_BATCH];
    int batches = 0;
    for (size_t i = 0; i < n;) {
        int k = 0;
        for (size_t j = i; j < n && k < OP_DRAIN_BATCH; j += OP_MSG_HEAD + (size_t)buf[j + 17]) {
            at[k] = j;
            memcpy(&hash[k], buf + j, 8);
            op_tab_prefetch_slot(&t->w.t, hash[k]);
            k++;
        }
        op_warm(&t->w, hash, k);
        for (int j = 0; j < k; j++) {
            const uint8_t *p = buf + at[j];
            uint32_t parent;
            uint16_t g, f, ef;
            memcpy(&parent, p + 8, 4);
            memcpy(&g, p + 12, 2);
            memcpy(&f, p + 14, 2);
            memcpy(&ef, p + 18, 2);
            int left = OP_MAXF, failed;
            if (p[16] == OP_REPORT) {
                failed = op_reopen(t, parent & OP_IDMASK, f);
            } else {
                failed = op_take(t, p + OP_MSG_HEAD, p[17], hash[j], g, f, ef, p[16], parent,
                                 &left, NULL, NULL) != 0;
                /* a child left out: reported to the parent's thread */
                if (!failed && left < OP_MAXF)
                    failed = op_out(t, (int)(parent >> OP_TSHIFT), 0, parent & OP_IDMASK, 0,
                                    left, 0, OP_REPORT, NULL, 0) != 0;
            }
            if (failed) {
                /* the messages not taken are lost: their least f kept for the lower
                 * bound */
                int least = op_least_msg(p, n - at[j]);
                if (least < t->busy_f) t->busy_f = least;
                return -1;
            }
        }
        i = at[k - 1] + OP_MSG_HEAD + (size_t)buf[at[k - 1] + 17]; /* k >= 1: i < n */
        if (++batches % (256 / OP_DRAIN_BATCH) == 0 && i < n && op_over(t)) {
            int least = op_least_msg(buf + i, n - i); /* lost, as above */
            if (least < t->busy_f) t->busy_f = least;
            return -1;
        }
    }
    return 0;
}

/* Nothing left to expand below the upper bound: the thread is idle until a message
 * comes (0) or the search ends (1; the last thread to fall idle ends it when every
 * inbox is empty). */
static int op_idle(op_thr *t) {
    op_par *P = t->P;
    pthread_mutex_lock(&P->mu);
    t->idle = 1;
    int all = 1;
    for (int u = 0; u < P->T && all; u++) {
        op_thr *o = &P->th[u];
        if (!o->idle) all = 0;
        pthread_mutex_lock(&o->mu);
        if (o->in_n) all = 0;
        pthread_mutex_unlock(&o->mu);
    }
    if (all) __atomic_store_n(&P->done, 1, __ATOMIC_SEQ_CST);
    pthread_mutex_unlock(&P->mu);
    for (;;) {
        if (__atomic_load_n(&P->done, __ATOMIC_SEQ_CST) ||
            __atomic_load_n(&P->stop, __ATOMIC_SEQ_CST))
            return 1;
        if (__atomic_load_n(&t->mail, __ATOMIC_SEQ_CST)) {
            pthread_mutex_lock(&P->mu);
            t->idle = 0;
            pthread_mutex_unlock(&P->mu);
            return 0;
        }
        if (eo_signal || (P->deadline && op_clock(P->x) > P->deadline)) {
            op_halt(P, OP_TIME); /* interrupted: the caller raises it (context.h) */
            return 1;
        }
        struct timespec ts = {0, 20000};
        nanosleep(&ts, NULL);
    }
}

/* The memory of a thread: its table and open list, its messages. */
static size_t op_thr_bytes(const op_thr *t) {
    size_t b = op_bytes(&t->w) + t->in_cap + t->spare_cap;
    for (int to = 0; to < t->P->T; to++) b += t->out_cap[to];
    return b;
}

/* With a memory limit: when the thread's table's next doubling (at half full) would take
 * the thread past its share of the limit (the states are split evenly among the threads
 * by hash, so each thread's tables grow alike), its slots fill to three quarters first
 * (eo_table_dense).  The search is the same; only where the states lie in the slots
 * changes.  The memory check after it counts the doubling from when it nears the new
 * mark (op_bytes).  Returns the thread's memory, afresh. */
static size_t op_fill(op_thr *t, size_t bytes) {
    const op_ctx *x = t->P->x;
    op_tab *tb = &t->w.t;
    if (!x->max_mem || bytes + 2 * op_tab_slot_bytes(tb) <= op_limit(x) / (size_t)t->P->T)
        return bytes;
    return op_tab_dense(tb) ? op_thr_bytes(t) : bytes;
}

/* Whether A* should expand partially from now on (x->partial, op_take; with 1 it does
 * from the start, op_astar): with 2, when the memory limit would stop it before the
 * time limit even so: the memory grows about a third as fast then (half the states
 * stored, at two thirds of the speed, on FreeCell's deals), so from when the rest of
 * the limit would last, a third as fast as it has grown so far, no longer than the
 * time left; without a time limit, from half the memory limit; never before a quarter
 * of it.  (Expanding again costs time: where
 * time runs out first, none is spent on it, and where memory would, as little as lets
 * A* reach the time limit.) */
static int op_partial_due(const op_par *P, size_t bytes) {
    const op_ctx *x = P->x;
    if (x->partial != 2 || !x->max_mem || x->weight > 10 ||
        __atomic_load_n(&P->partial, __ATOMIC_RELAXED))
        return 0;
    double limit = (double)op_limit(x);
    if (!P->deadline) return (double)bytes > limit / 2;
    /* not before a quarter of the limit is held: the rate is the tables' (not the
     * fixed cost of an empty open list over the first milliseconds) */
    if ((double)bytes < limit / 4) return 0;
    double now = op_clock(x), used = now - P->t0, rest = P->deadline - now;
    return used > 0 && (double)bytes + (double)bytes / used * rest / 3 > limit;
}

/* The thread's memory published afresh (op_fill first); whether the threads' memory
 * together passes the limit; and partial expansion switched on when due. */
static int op_over(op_thr *t) {
    op_par *P = t->P;
    const op_ctx *x = P->x;
    __atomic_store_n(&t->bytes, op_fill(t, op_thr_bytes(t)), __ATOMIC_RELAXED);
    if (!x->max_mem) return 0;
    size_t bytes = 0;
    for (int u = 0; u < P->T; u++) bytes += __atomic_load_n(&P->th[u].bytes, __ATOMIC_RELAXED);
    /* expanding partially, a 16th more is kept: its open list holds many more entries
     * (a parent again at each f reported), in small blocks grown on the heap, whose
     * leavings the count sees least well (CI on a clean clone of 7e6d22c: the process
     * grew by 263 MiB at a limit of 256 on two threads, where this machine alone grew it
     * by 213-217) */
    size_t limit = op_limit(x);
    if (__atomic_load_n(&P->partial, __ATOMIC_RELAXED)) limit -= x->max_mem / 16;
    if (bytes > limit) return 1;
    if (op_partial_due(P, bytes)) __atomic_store_n(&P->partial, 1, __ATOMIC_RELAXED);
    return 0;
}

/* A thread of A*: expand its least f open until the end or a limit. */
static void *op_worker(void *arg) {
    op_thr *t = (op_thr *)arg;
    op_par *P = t->P;
    op_ctx *x = P->x;
    op_work *w = &t->w;
    const int weighted = x->weight > 10, T = P->T;
    eo_move moves[2048];
    eo_state s;
    eo_move made[1 + 2 * 52]; /* a step and its auto-moves, each card home once (op_step) */
    int local[2048];
    uint64_t hashes[OP_WARM_MAX];
    for (;;) {
        if (__atomic_load_n(&P->stop, __ATOMIC_SEQ_CST) ||
            __atomic_load_n(&P->done, __ATOMIC_SEQ_CST))
            break;
        if (__atomic_load_n(&t->mail, __ATOMIC_SEQ_CST) && op_drain(t) != 0) {
            op_halt(P, OP_MEMORY);
            break;
        }
        int upper = __atomic_load_n(&P->upper, __ATOMIC_RELAXED);
        /* the least (f, h) with an entry */
        while (t->cur < OP_MAXF * OP_HB && w->open[t->cur].n == 0) t->cur++;
        int f = t->cur / OP_HB;
        /* weighted: the order is not by f, so it ends only when nothing is open */
        if (t->cur >= OP_MAXF * OP_HB || (!weighted && f >= upper)) {
            if (op_send_all(t) != 0) {
                op_halt(P, OP_MEMORY);
                break;
            }
            if (op_idle(t)) break;
            continue;
        }
        /* the limits, before the entry is taken (it stays open for the lower bound) */
        if ((++t->pops & 255) == 0) {
            if (eo_signal || (P->deadline && op_clock(x) > P->deadline)) {
                op_halt(P, OP_TIME); /* interrupted: the caller raises it (context.h) */
                break;
            }
            if (op_over(t)) {
                op_halt(P, OP_MEMORY);
                break;
            }
        }
        if (x->max_states) {
            long count = 0;
            for (int u = 0; u < T; u++) count += __atomic_load_n(&P->th[u].count, __ATOMIC_RELAXED);
            if (count > x->max_states) {
                op_halt(P, OP_STATES);
                break;
            }
        }
        uint32_t id = w->open[t->cur].v[--w->open[t->cur].n];
        int mark = w->closed[id];
        if (mark == OP_CLOSED) continue;
        /* F: the f of this expansion, its entry's; more than the state's own f when it is
         * expanded again for children it left out (OP_PARTIAL, op_reopen) */
        int F = f;
        if (weighted) {
            /* an old entry (the state was reached again by a shorter path), or one that
             * the solution found since makes useless */
            if (op_index(x, w->g[id], w->f[id]) != t->cur || w->f[id] >= upper) continue;
            f = F = w->f[id];
        } else if (mark == OP_PARTIAL) {
            f = w->f[id];
            if (F < f) F = f;
        } else if (w->f[id] != f) {
            continue;
        }
        int klen;
        const uint8_t *k = op_key_of(w, id, &klen);
        op_unkey(x, k, klen, &s); /* a key back into a state */
        w->closed[id] = OP_CLOSED;
        t->expanded++;
        t->busy_f = f;
        int g1 = w->g[id] + 1;
        uint32_t self = op_ref(t->id, id);
        int n = op_moves(x, P->mr, &s, moves), nl = 0, failed = 0;
        /* the children's keys first; those of other threads to their batches; what
         * the table holds of this thread's fetched from memory for all of them at once
         * (op_warm: most children are stored already) before any is looked up */
        for (int i = 0; i < n && !failed; i++) {
            /* made on s and taken back: cheaper than a copy of the whole state */
            int nm = op_step(x, &s, &moves[i], made);
            uint8_t *ck = t->kid_keys + (size_t)i * EO_MAXKEY;
            op_child *kid = &t->kids[i];
            kid->goal = op_goal(x, &s);
            kid->len = op_key(x, &s, ck);
            kid->hash = eo_hash(ck, kid->len);
            op_unstep(&s, made, nm);
            int to = T > 1 ? (int)((uint32_t)kid->hash % (uint32_t)T) : 0;
            if (to != t->id) {
                failed = op_out(t, to, kid->hash, self, g1, f, F, kid->goal, ck, kid->len) != 0;
                if (t->out_n[to] >= OP_SEND_BYTES) t->unsent = OP_SEND_EVERY;
                continue;
            }
            local[nl++] = i;
            op_tab_prefetch_slot(&w->t, kid->hash);
        }
        for (int j = 0; j < nl; j++) hashes[j] = t->kids[local[j]].hash;
        op_warm(w, hashes, nl);
        int left = OP_MAXF; /* the least f of the children of its own left out */
        for (int j = 0; j < nl && !failed; j++) {
            const op_child *kid = &t->kids[local[j]];
            failed = op_take(t, t->kid_keys + (size_t)local[j] * EO_MAXKEY, kid->len,
                             kid->hash, g1, f, F, kid->goal, self, &left, &s,
                             &moves[local[j]]) != 0;
        }
        if (!failed && left < OP_MAXF) failed = op_reopen(t, id, left) != 0;
        if (!failed && ++t->unsent >= OP_SEND_EVERY) failed = op_send_all(t) != 0;
        if (failed) {
            op_halt(P, OP_MEMORY); /* the state's expansion cut: busy_f stays its f */
            break;
        }
        t->busy_f = OP_MAXF;
    }
    return NULL;
}

/* The least f of a state open in w (OP_MAXF: none). */
static int op_least_open(const op_ctx *x, const op_work *w) {
    int best = OP_MAXF;
    for (int index = 0; index < OP_MAXF * OP_HB; index++) {
        const op_stack *st = &w->open[index];
        for (uint32_t i = 0; i < st->n; i++) {
            uint32_t id = st->v[i];
            if (w->closed[id] == OP_CLOSED) continue;
            if (w->closed[id] == OP_PARTIAL) { /* children left out, of f from index's */
                int F = index / OP_HB;
                if (F < best) best = F;
                continue;
            }
            if (x->weight > 10 ? op_index(x, w->g[id], w->f[id]) != index
                               : w->f[id] != index / OP_HB)
                continue;
            if (w->f[id] < best) best = w->f[id];
        }
    }
    return best;
}

/* A* from `start` (whose bound is h0 < upper), on x->threads threads (at most OP_MAXT;
 * one when x->weight asks for the weighted order or the time limit is on this thread's
 * CPU clock); the result in x. */
static void op_astar(op_ctx *x, const eo_rules *mr, const eo_state *start, int h0, int upper,
                     double deadline) {
    int T = x->threads < 1 ? 1 : x->threads > OP_MAXT ? OP_MAXT : x->threads;
    if (x->weight > 10 || x->cpu_clock) T = 1;
    void *mem = NULL; /* aligned as the threads' cache lines are (op_thr) */
    if (posix_memalign(&mem, 64, sizeof(op_par)) != 0) {
        x->status = OP_MEMORY;
        return;
    }
    op_par *P = (op_par *)mem;
    memset(P, 0, sizeof(*P));
    P->x = x;
    P->mr = mr;
    P->T = T;
    P->upper = upper;
    P->deadline = deadline;
    P->t0 = op_clock(x);
    P->partial = x->partial == 1 && x->weight <= 10;
    pthread_mutex_init(&P->mu, NULL);
    int ok = 1;
    for (int u = 0; u < T; u++) {
        op_thr *t = &P->th[u];
        t->P = P;
        t->id = u;
        t->busy_f = OP_MAXF;
        pthread_mutex_init(&t->mu, NULL);
        t->kids = (op_child *)malloc(2048 * sizeof(op_child));
        t->kid_keys = (uint8_t *)malloc((size_t)2048 * EO_MAXKEY);
        if (op_work_init(&t->w, x) != 0 || !t->kids || !t->kid_keys) ok = 0;
        op_tab_prefault(&t->w.t, T > 1);
        P->ws[u] = &t->w;
    }
    if (ok) {
        uint8_t key[EO_MAXKEY];
        int len = op_key(x, start, key);
        int owner = T > 1 ? (int)((uint32_t)eo_hash(key, len) % (uint32_t)T) : 0;
        op_thr *t = &P->th[owner];
        ok = op_work_root(&t->w, x, start, h0, op_ref(owner, 0)) == 0;
        t->cur = op_index(x, 0, h0);
        t->count = 1;
    }
    if (!ok) {
        x->status = OP_MEMORY;
    } else {
        int started = 1;
        while (started < T &&
               pthread_create(&P->th[started].tid, NULL, op_worker, &P->th[started]) == 0)
            started++;
        if (started < T) { /* a thread that cannot start: its states go nowhere */
            op_halt(P, OP_MEMORY);
        }
        op_worker(&P->th[0]);
        for (int u = 1; u < started; u++) pthread_join(P->th[u].tid, NULL);
    }
    long states = 0;
    for (int u = 0; u < T; u++) states += (long)op_tab_count(&P->th[u].w.t);
    x->states = states;
    int stop = P->stop;
    if (ok && !stop) {
        /* every state of f < upper was expanded */
        if (P->has_goal) {
            x->status = OP_FOUND;
        } else if (P->overflow) {
            x->status = OP_STATES;
        } else if (x->upper > 0) {
            x->status = OP_NO_BETTER;
            x->lower = x->upper;
        } else {
            x->status = OP_LOST;
            x->lower = 0;
        }
    } else if (ok) {
        x->status = stop;
        /* the proven lower bound: the least f open, in a message, or of a cut expansion */
        int least = OP_MAXF;
        for (int u = 0; u < T; u++) {
            const op_thr *t = &P->th[u];
            int v = op_least_open(x, &t->w);
            if (v < least) least = v;
            if (t->busy_f < least) least = t->busy_f;
            v = op_least_msg(t->in, t->in_n);
            if (v < least) least = v;
            for (int to = 0; to < T; to++) {
                v = op_least_msg(t->out[to], t->out_n[to]);
                if (v < least) least = v;
            }
        }
        int up = P->upper;
        if (least > up) least = up;
        if (least > x->lower) x->lower = least;
    }
    if (x->status == OP_FOUND) {
        x->lower = P->upper;
        if (op_trace(x, P->ws, mr, start, P->goal) != 0) x->status = OP_MEMORY;
    } else if (P->has_goal && x->status >= OP_STATES && x->status <= OP_MEMORY) {
        /* stopped by a limit with a solution found: report it (not proven) */
        int lower = x->lower;
        if (op_trace(x, P->ws, mr, start, P->goal) == 0) x->upper = P->upper;
        x->lower = lower;
    }
    long expanded = 0;
    for (int u = 0; u < T; u++) {
        op_thr *t = &P->th[u];
        op_work_free(&t->w);
        free(t->kids);
        free(t->kid_keys);
        free(t->in);
        free(t->spare);
        for (int to = 0; to < T; to++) free(t->out[to]);
        pthread_mutex_destroy(&t->mu);
        expanded += t->expanded;
    }
    x->expanded = expanded;
    pthread_mutex_destroy(&P->mu);
    free(P);
}

/* op_search from the start (after its auto-moves), its keys set up. */
static void op_search_keyed(op_ctx *x, const eo_rules *mr, const eo_state *start0, int upper,
                            double deadline) {
    eo_state start = *start0;
    int h0 = op_h(x, &start);
    x->lower = h0;
    if (x->beam > 0) {
        op_work w;
        if (op_work_init(&w, x) != 0 || op_work_root(&w, x, &start, h0, 0) != 0) {
            x->status = OP_MEMORY;
        } else {
            op_beam_search(x, &w, mr, &start, deadline);
            x->lower = h0 < upper ? h0 : upper;
            x->states = (long)op_tab_count(&w.t);
        }
        op_work_free(&w);
        return;
    }
    if (h0 >= upper) {
        x->status = OP_NO_BETTER;
        x->lower = upper;
        return;
    }
    op_astar(x, mr, &start, h0, upper, deadline);
}

static void op_search(op_ctx *x) {
    eo_rules mr = *EO_R(x); /* the rules moves are generated by: strict for OP_SINGLE */
    if (x->count == OP_SINGLE) mr.strict = 1;
    x->status = 0;
    x->lower = 0;
    x->plen = 0;
    x->path = NULL;
    x->states = 0;
    x->expanded = 0;
    double deadline = x->seconds > 0 ? op_clock(x) + x->seconds : 0;
    eo_state start = x->S;
    eo_recount(EO_R(x), &start);
    if (x->count == OP_PLAYER) op_closure(EO_R(x), &start);
    if (op_goal(x, &start)) {
        x->status = OP_FOUND;
        return;
    }
    int upper = x->upper > 0 ? x->upper : OP_MAXF;
    if (upper > OP_MAXF) upper = OP_MAXF;
    /* op_key's records, rooted at the start (asked for; one pack, more than four
     * columns) */
    eo_cstore_init(&x->enc);
    if (x->compact && EO_R(x)->ncols > 4) eo_cstore_root(&x->enc, EO_R(x), &start);
    op_search_keyed(x, &mr, &start, upper, deadline);
    eo_cstore_free(&x->enc);
}


/* op_closure_into's moves from s onto x's path (room reserved), none of them a step. */
static void op_path_homes(eo_ctx *x, eo_state *s, int every) {
    int n = op_closure_into(EO_R(x), s, x->path + x->plen, every);
    memset(x->is_step + x->plen, 0, (size_t)n);
    x->plen += n;
}

/* ----- the main solver's try for a win where a search runs out of memory ----------
 * eo_solve (search.h) calls this when a search stopped at the memory limit (with the
 * plan's memory_beam), and the search on disk (disk.h) before its first layer: a beam
 * search (op_beam_search, player moves) from the root, widths from EO_BEAM_FIRST_WIDTH,
 * four times wider each time it runs dry, until one finds a win or a limit (the time
 * until `deadline` on x's clock, max_states less *states, x's memory limit) stops it.
 * The first width is smaller under a small memory limit (one state for every
 * EO_BEAM_BYTES of it: the beam stores about 170 bytes a state, and a width's layers
 * reach 50 to 100 deep on FreeCell), at least EO_BEAM_LEAST_WIDTH.  Its tables are its
 * own, made after the searches' were freed (or written to disk).  A win is written into
 * x->path after the root's auto-moves (path[0..na)): the table's safe auto-moves of the
 * start, then each step with the table's safe auto-moves after it (none after a card
 * taken back from a foundation, as in op_step), then the auto-complete, every card home;
 * the caller's compiled replay checks it as any solution.  Not complete: a beam that
 * finds nothing proves nothing, and x->status is left as it was.  On FreeCell
 * 13599 with one cell (Microsoft's numbering), which the complete search could not
 * decide in 1,200 s and 572 million states, the first width finds a win in 10 s (figures
 * in bench/README). Returns 1 with x->status EO_SOLVED, else 0 (x->plen na, as it was). */
#define EO_BEAM_FIRST_WIDTH 100000L
#define EO_BEAM_LEAST_WIDTH 1000L
#define EO_BEAM_BYTES 10000
static int eo_beam_fallback(eo_ctx *x, const eo_state *root, int na, long max_states,
                            double deadline, long *states) {
    op_ctx o;
    memset(&o, 0, sizeof(o));
    o.R = x->R;
    o.S = *root;
    o.count = OP_PLAYER;
    o.cpu_clock = x->cpu_clock;
    o.max_mem = x->max_mem;
    long first = (long)(x->max_mem / EO_BEAM_BYTES);
    if (first > EO_BEAM_FIRST_WIDTH) first = EO_BEAM_FIRST_WIDTH;
    if (first < EO_BEAM_LEAST_WIDTH) first = EO_BEAM_LEAST_WIDTH;
    for (long width = first;; width *= 4) {
        if (deadline > 0) {
            o.seconds = deadline - eo_clock(x);
            if (o.seconds <= 0) return 0;
        }
        if (max_states > 0) {
            o.max_states = max_states - *states;
            if (o.max_states <= 0) return 0;
        }
        o.beam = width;
        o.upper = 0;
        op_search(&o);
        *states += o.states;
        if (o.status == OP_BEAM) break;
        free(o.path);
        o.path = NULL;
        if (o.status != OP_DRY || eo_signal) return 0; /* a limit stopped it */
    }
    const eo_rules *r = EO_R(x);
    eo_state s = *root;
    /* each step, and each card home at most once plus once after each step (a card taken
     * back from a foundation goes home again) */
    int ok = eo_path_reserve(x, 2 * o.plen + r->total + 1) == 0;
    if (ok) {
        op_path_homes(x, &s, 0);
        for (int i = 0; i < o.plen; i++) {
            eo_move m = o.path[i];
            int from_foundation = m.src >= EO_FOUND && m.src < EO_HOME;
            eo_apply(r, &s, &m);
            x->path[x->plen] = m;
            x->is_step[x->plen++] = 1;
            if (!from_foundation) op_path_homes(x, &s, 0);
        }
        /* the auto-complete: the win is certain (op_goal), so every card goes home */
        op_path_homes(x, &s, 1);
        ok = s.home == r->total;
    }
    free(o.path);
    if (!ok) {
        x->plen = na;
        return 0;
    }
    x->status = EO_SOLVED;
    return 1;
}

#ifndef EO_FIXED_RULES
/* op_search, run by the copy compiled for the context's rules where there is one
 * (fixed.h; eo_fixed_for in search.h), else by this one: the same search either way. */
#define OP_FIXED_DECLARE(name, rules) void op_search_##name(op_ctx *x);
EO_FIXED_COPIES(OP_FIXED_DECLARE)
#define OP_FIXED_ROW(name, rules) op_search_##name,
static void (*const op_fixed_list[])(op_ctx *) = {EO_FIXED_COPIES(OP_FIXED_ROW)};

static void op_search_any(op_ctx *x) {
    int i = eo_fixed_for(&x->R);
    if (i >= 0)
        op_fixed_list[i](x);
    else
        op_search(x);
}
#endif

#endif
