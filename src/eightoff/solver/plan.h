/* The search plan as the core reads it: the records eightoff.solver.plans declares for
 * each variant (Search, Weights, DiveRules, Member), with the same field names, and the
 * named values of their fields.  _core.pyx copies each Python record into its struct
 * here by field name and checks that both sides name the same fields.  Nothing here
 * decides anything: which variant gets which plan is plans.py's table.
 */
#ifndef EIGHTOFF_PLAN_H
#define EIGHTOFF_PLAN_H

/* How a search ended (eo_ctx.status; _core.STATUS names them for Python). */
enum {
    EO_RUNNING = 0,
    EO_SOLVED = 1,
    EO_LOST = 2, /* only the complete search ends so */
    EO_STATE_LIMIT = 3,
    EO_TIME_LIMIT = 4,
    EO_MEMORY_LIMIT = 5,
    EO_REPLAY_FAILED = 6, /* _core.solve: the solution found does not replay (replay.h) */
    EO_DISK_LIMIT = 7,    /* the search on disk (disk.h) filled its disk limit */
    EO_INTERRUPTED = 8    /* the search on disk caught SIGINT or SIGTERM (disk.h) */
};

/* The stages of eo_solve (bits of eo_plan.stages, plans.Stage), run in the order dive,
 * best-first, complete, each only if the one before failed. */
enum {
    EO_STAGE_BEST_FIRST = 1, /* best-first over purposeful steps, quick_states at most */
    EO_STAGE_COMPLETE = 2,   /* the complete search: the only one that proves a loss */
    EO_STAGE_DIVE = 4        /* the greedy dive (or the portfolio), dive_states at most */
};

/* How a member of the portfolio searches (eo_member.method, plans.Method). */
enum {
    EO_METHOD_DIVE = 0,                  /* the greedy dive */
    EO_METHOD_BEST_FIRST = 1,            /* best-first over purposeful steps */
    EO_METHOD_BEST_FIRST_NO_TARGET = 2,  /* best-first without the digs onto a dug card */
    EO_METHOD_DIVE_PARENT_DIGS_LAST = 3, /* the dive, the digs onto a parent only once a
                                            state's other steps have failed */
    EO_METHOD_META_DFS = 4,      /* depth-first over meta steps (steps.h, EO_META_...), a
                                    kind at a time in the member's meta_order, each kind's
                                    children best score first */
    EO_METHOD_META_DFS_PLAIN = 5 /* the same, each kind's children in the order made */
};

/* The order of the complete search (eo_plan.complete_order, plans.Order). */
enum { EO_DEPTH_FIRST = 0, EO_BEST_FIRST = 1 };

/* The steps a search tries (eo_plan.complete_steps, eo_ctx.macros; plans.Steps). */
enum {
    EO_STEPS_SINGLE = 0,    /* every single move, up to symmetry: complete */
    EO_STEPS_DIGS = 1,      /* those and the digging steps: still complete */
    EO_STEPS_PURPOSEFUL = 2 /* no column card into a cell, digging steps: not complete */
};

/* The heuristic's weights (eo_score): a state scores the sum of each feature times its
 * weight, added for those that help, subtracted for those that hinder. */
typedef struct {
    int home;           /* + cards home */
    int free_cells;     /* + empty cells */
    int free_columns;   /* + empty columns */
    int next_depth;     /* - cards above the next card of each foundation, summed */
    int unsettled;      /* - cards above the first break of each column's bottom run */
    int per_move;       /* - moves made from the root (best-first only; not those home) */
    int blockers;       /* - cards lying above a lower card of their suit */
    int cell_wait;      /* - ranks between each cell card and its foundation */
    int next_exposed;   /* + foundations whose next card is exposed */
    int next_min_depth; /* - cards above the shallowest next card of a foundation */
    int pairs;          /* + column cards on their natural parent (by the build rule) */
} eo_weights;

/* The dive's rules (plans.DiveRules; 0 off, 1 on), each a way to try fewer steps. */
typedef struct {
    /* the dive stops at the first step that sends a card home only if that step left as
     * many empty cells and columns as before (else it scores the step with its siblings) */
    int home_stop_keeps_space;
    /* into an empty column only a column's whole top run (as much as may move), never a
     * single card */
    int whole_runs_to_empty;
    /* onto another column only a column's whole top run, when all of it may move, never
     * a part of it that lies on a natural parent already */
    int whole_runs_to_parent;
    /* the single moves that send a card home first, before every other step */
    int home_moves_first;
    /* (with home_moves_first) the digs home right after the single moves home */
    int dig_home_first;
    /* a cell card into an empty column only when a card that would lie on it is on top
     * of a column or in a cell */
    int cell_to_empty_needs_child;
    /* the digs home first, fewest cards first, before any other step is generated; the
     * first that costs at most one empty cell or column is taken, the rest only if it
     * fails */
    int home_digs_before_moves;
    /* with at most EO_CELL_TO_PARENT_FREE free cells, the moves of a cell card onto its
     * parent on top of a column next, the first that leads to a new state taken */
    int cell_to_parent_first;
} eo_dive_rules;

#define EO_CELL_TO_PARENT_FREE 3
#define EO_MAXPORT 8
#define EO_MAX_FIRST_ROUND 20 /* a member's first round (eo_member.first_round) at most */

/* One search of the portfolio (plans.Member). */
typedef struct {
    eo_weights weights;
    int noise;  /* depth-first: a random amount below this added to each child's score */
    int method; /* EO_METHOD_... */
    /* the round of the portfolio's turns in which it takes its first (0: the first); in
     * round k a member goes on until it has entered port_quota << k states, so one that
     * begins in round 1 takes as many states by the end of that round as if it had begun
     * in round 0, and a deal another member wins before does without its first turn */
    int first_round;
    /* (EO_METHOD_META_DFS...) the kinds of meta step in the order tried, a nibble each
     * from the lowest, kind - EO_META_HOME + 1 (0 ends the list) */
    long meta_order;
} eo_member;

/* One call of the core (plans.Search; its portfolio is copied beside it, eo_ctx.port). */
typedef struct {
    eo_weights weights;  /* of the dive, the best-first stage and the complete search */
    int stages;          /* EO_STAGE_... bits */
    long dive_states;    /* the first stage's states at most */
    long quick_states;   /* the best-first stage's states at most */
    long port_quota;     /* each portfolio member's states in its first turn (doubling) */
    int port_shared;     /* the portfolio's depth-first members enter their states into
                            one set of seen states (by hash), each skipping those the
                            others entered (eo_portfolio) */
    int complete_order;  /* EO_DEPTH_FIRST or EO_BEST_FIRST */
    int complete_steps;  /* EO_STEPS_SINGLE or EO_STEPS_DIGS */
    /* depth-first, nonzero: the complete search expands a state a group of meta steps at
     * a time in this order (eo_member.meta_order's form), and last every step of
     * complete_steps (EO_META_ALL), each group only once the children of those before
     * have failed */
    long complete_meta;
    int complete_scored; /* the complete search depth-first over single moves (no meta
                            steps) tries each state's children best score first; 0: in
                            the order they are made, unscored (eo_enter_child) */
    int shorten;         /* shorten the solution found (eo_shorten) */
    int memory_beam;     /* where the memory ends, a beam search's try for a win first
                            (eo_beam_fallback) */
    eo_dive_rules dive;  /* the dive's rules, the portfolio's dives' too */
} eo_plan;

#endif
