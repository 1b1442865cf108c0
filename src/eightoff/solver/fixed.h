/* Copies of the search compiled for one variant's rules.
 *
 * The search reads its rules through EO_R(x) (core.h).  In the module's own build that
 * is the context's rules, read at run time.  Each fixed_*.c file compiles the whole
 * search, the par search (optimal.h) and the replay (replay.h) again, its own static
 * copy of every function, with one set of rules below as EO_FIXED_RULES, so that the
 * compiler folds every test of the rules into a constant, as Freecell Solver's fastest
 * build does (about 6% less CPU a deal on FreeCell, 7-10% on Eight Off, 1-4% on par's
 * A*: bench/README.md, "Compiler options").  eo_solve_any, eo_replay_any (search.h)
 * and op_search_any (optimal.h) run the copy whose rules equal the context's, field by
 * field, else the module's own eo_solve, eo_replay_described or op_search: the same
 * source read with the same values, so the same searches, states, moves and replays
 * (tests/unit/test_solver_copies.py holds each copy to the module's own, deal by deal).
 *
 * A copy is one line of EO_FIXED_COPIES and a file fixed_NAME.c of three lines (setup.py
 * compiles every fixed_*.c into the module).  Its rules are eo_rules' fields in order:
 * ncols, ncells, nfound, alt, kings_only, supermove, retrieval, strict, total and
 * safe_mode (1 without retrieval: load_rules in _core.pyx). */
#ifndef EIGHTOFF_FIXED_H
#define EIGHTOFF_FIXED_H

#define EO_RULES_FREECELL {8, 4, 4, 1, 0, 1, 0, 0, 52, 1}  /* FreeCell, SuperMove FreeCell */
#define EO_RULES_EIGHTOFF {8, 8, 4, 0, 1, 0, 0, 0, 52, 1}  /* Eight Off */
#define EO_RULES_EIGHTOFF_EASY {8, 8, 4, 0, 0, 1, 0, 0, 52, 1}
#define EO_RULES_BAKERS_GAME {8, 4, 4, 0, 0, 1, 0, 0, 52, 1}
#define EO_RULES_SEAHAVEN_TOWERS {10, 4, 4, 0, 1, 0, 0, 0, 52, 1}

/* X(name, rules): the copy's eo_solve is eo_solve_NAME, its par search (optimal.h)
 * op_search_NAME and its replay (replay.h, eo_replay_described) eo_replay_NAME, in
 * fixed_NAME.c */
#define EO_FIXED_COPIES(X)                        \
    X(freecell, EO_RULES_FREECELL)                \
    X(eightoff, EO_RULES_EIGHTOFF)                \
    X(eightoff_easy, EO_RULES_EIGHTOFF_EASY)      \
    X(bakers_game, EO_RULES_BAKERS_GAME)          \
    X(seahaven_towers, EO_RULES_SEAHAVEN_TOWERS)

#endif

/* In a fixed_NAME.c file: the whole search with these rules, and its entries */
#if defined(EO_FIXED_RULES) && defined(EO_FIXED_NAME) && !defined(EIGHTOFF_FIXED_COPY)
#define EIGHTOFF_FIXED_COPY
#include "search.h"
#include "optimal.h"

#define EO_FIXED_CAT(a, b) a##b
#define EO_FIXED_ENTRY(a, b) EO_FIXED_CAT(a, b)
void EO_FIXED_ENTRY(eo_solve_, EO_FIXED_NAME)(eo_ctx *x, long *states_out);
void EO_FIXED_ENTRY(eo_solve_, EO_FIXED_NAME)(eo_ctx *x, long *states_out) { eo_solve(x, states_out); }
void EO_FIXED_ENTRY(op_search_, EO_FIXED_NAME)(op_ctx *x);
void EO_FIXED_ENTRY(op_search_, EO_FIXED_NAME)(op_ctx *x) { op_search(x); }
int EO_FIXED_ENTRY(eo_replay_, EO_FIXED_NAME)(const eo_state *start, const eo_move *path,
                                              int plen, uint64_t *keys, int *counts);
int EO_FIXED_ENTRY(eo_replay_, EO_FIXED_NAME)(const eo_state *start, const eo_move *path,
                                              int plen, uint64_t *keys, int *counts) {
    return eo_replay_described(EO_R(NULL), start, path, plen, keys, counts);
}
#endif
