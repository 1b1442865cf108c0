/* A search's context (eo_ctx): its plan, its state and path, its tables and buffers,
 * its limits; and the steps it tries from a state (eo_all_steps).
 */
#ifndef EIGHTOFF_CONTEXT_H
#define EIGHTOFF_CONTEXT_H

#include <signal.h>

#include "core.h"
#include "compact.h"
#include "plan.h"
#include "heuristic.h"
#include "steps.h"

/* the first size of a dive's set of seen states (slots of 8 bytes, 16 KB; doubled at half
 * full): most dives enter a few hundred states, and a set begun at 256 slots was copied
 * into a new one twice or more and probed at up to half full (FreeCell 50001-54000,
 * 2048 against 256: x0.97 CPU; bench/README.md, "Lighter dives") */
#ifndef EO_HSET_FIRST
#define EO_HSET_FIRST 2048
#endif

/* the most kids whose column parts a depth-first search keeps (eo_ctx.kpc): 3.4 MB; a
 * deeper stack's kids above them are made without (a dive mostly holds a few hundred) */
#ifndef EO_KPC_MAX
#define EO_KPC_MAX 16384
#endif

/* the bytes of a best-first node: its parent's id and its depth */
#define EO_NODE_BYTES (sizeof(uint32_t) + sizeof(uint16_t))

typedef struct {
    eo_move m;
    int32_t score;
    /* the moves of its step, then its auto-moves, as made when it was scored: at
     * kmv[off], ns + na of them (the depth-first search makes them again from there when
     * it enters the child, instead of generating the step and the auto-moves again) */
    uint32_t off;
    uint8_t ns, na;
    /* its column parts: eo_ctx.kpc[pc] (the index it was entered at: sorting the kids
     * moves them, not their parts), or -1 if none were kept */
    int32_t pc;
} eo_child;

typedef struct {
    int kid0, nkids, next, path0;
    size_t kmv0; /* the end of the kids' recorded moves (kmv) when the frame began */
    int more; /* what eo_expand still owes the state if its kids fail: 1 every step (the
                 dive took a dig home in EO_PASS_DIGS_HOME), 2 the digs onto a parent
                 (dive_parent_digs_last) */
} eo_frame;

/* Ctrl+C and SIGTERM while a search runs.  Python turns a signal into an exception only
 * when the interpreter runs again, which a search of an hour would put off for an hour;
 * so a call from Python's main thread (the command line; never the web table's worker
 * threads, whose calls would race for the handlers) swaps the handlers, for the call,
 * for one that only notes the signal (a signal the caller ignores stays ignored: a
 * survey worker's SIGINT).  The searches check the note with their limits and end
 * EO_INTERRUPTED; the caller then puts its handlers back and raises the signal again
 * under them (Python's KeyboardInterrupt, the command line's SIGTERM), so the result
 * of an interrupted search is never used. */
#ifdef EO_FIXED_RULES
extern volatile sig_atomic_t eo_signal; /* one note for every copy of the search (fixed.h) */
#else
volatile sig_atomic_t eo_signal = 0;
#endif

static void eo_on_signal(int sig) { eo_signal = sig; }

typedef struct {
    struct sigaction old_int, old_term;
    int caught_int, caught_term;
} eo_signals;

static inline void eo_signals_catch(eo_signals *g) {
    struct sigaction on, cur;
    memset(&on, 0, sizeof(on));
    on.sa_handler = eo_on_signal;
    sigemptyset(&on.sa_mask);
    eo_signal = 0;
    g->caught_int = sigaction(SIGINT, NULL, &cur) == 0 && cur.sa_handler != SIG_IGN &&
                    sigaction(SIGINT, &on, &g->old_int) == 0;
    g->caught_term = sigaction(SIGTERM, NULL, &cur) == 0 && cur.sa_handler != SIG_IGN &&
                     sigaction(SIGTERM, &on, &g->old_term) == 0;
}

/* The signal noted so far (0: none). */
static inline int eo_signalled(void) { return (int)eo_signal; }

/* The caller's handlers back; the signal noted meanwhile (0: none), for it to raise. */
static inline int eo_signals_release(eo_signals *g) {
    if (g->caught_int) sigaction(SIGINT, &g->old_int, NULL);
    if (g->caught_term) sigaction(SIGTERM, &g->old_term, NULL);
    g->caught_int = g->caught_term = 0;
    int sig = (int)eo_signal;
    eo_signal = 0;
    return sig;
}

/* The same as eo_signals_catch, put off until the search has run a while (eo_ctx.sig,
 * eo_signals_arm at its checks of the limits, after its first 1,024 units of work, and
 * before the search on disk or the beam after the memory limit): most solves end within
 * a millisecond, and the six system calls that look at the handlers, swap them and put
 * them back cost more than such a search (a signal before then is Python's, raised when
 * the call returns, as one just after it would be). */
static inline void eo_signals_defer(eo_signals *g) {
    memset(g, 0, sizeof(*g)); /* nothing swapped: eo_signals_release puts nothing back */
    eo_signal = 0;
}

typedef struct eo_ctx_s {
    eo_rules R;
    eo_state S;
    eo_table T; /* the seen states by full key (two packs), or nothing (C on) */
    eo_cstore C; /* the seen states in 16 bytes each (one pack; compact.h) */
    long max_states;
    double deadline; /* seconds on the limit's clock (eo_clock); <= 0: none */
    int cpu_clock;   /* the time limit counts this thread's CPU time (the batch path:
                        a deal's verdict does not depend on the machine's load), else
                        monotonic wall time */
    size_t max_mem;
    int status;
    eo_plan plan; /* how eo_solve searches (its dive rules also the portfolio's dives') */
    eo_member port[EO_MAXPORT]; /* the portfolio (eo_portfolio): nport searches in turns */
    int nport;
    /* the current search: */
    eo_weights w; /* its weights */
    int steps;    /* the steps it tries: EO_STEPS_... */
    int dig_kinds; /* which digging steps: bit 1 << EO_DIG_... */
    /* the dive makes the digs onto a parent (and a King's into an empty column) only once
     * every other step of the state has failed (see eo_expand; a portfolio member of
     * EO_METHOD_DIVE_PARENT_DIGS_LAST) */
    int dive_parent_digs_last;
    /* a depth-first search over meta steps (steps.h, EO_META_...), a kind at a time: the
     * kinds in order (eo_member.meta_order; 0: not such a search); meta_plain: each kind's
     * children in the order made, not scored (also the complete depth-first search
     * without meta steps, when its plan's complete_scored is 0) */
    long meta;
    int meta_plain;
    /* this search is the greedy dive: depth-first, never a proof; its rules (dive) apply,
     * and it takes the first step that sends a card home */
    int is_dive;
    /* the search remembers states by a 64-bit hash of their canonical form only (the dive:
     * a collision can only hide a state from a search whose failure proves nothing) */
    int hash_only;
    uint64_t *hset;
    size_t hmask, hcount; /* the set's slots - 1 and hashes */
    /* a portfolio member whose set is another member's (plan.port_shared): that member's
     * context, else NULL; hmine counts the states this search entered into the set */
    struct eo_ctx_s *hown;
    size_t hmine;
    unsigned long work;
    eo_move *path; /* moves from the root: each step's moves, then its auto-moves */
    uint8_t *is_step; /* 1 where path[i] starts a step */
    int plen, pcap;
    eo_frame *fr;
    int nfr, frcap;
    eo_pcache *pcs; /* one pack: the column parts of each frame's state (fr[i] -> pcs[i]) */
    int pccap;
    /* the complete depth-first search in suit (one pack): the fields of each frame's
     * record (fr[i] -> cps[i]: eo_cparts_update, eo_cencode_parts) */
    eo_cparts *cps;
    int cpcap;
    eo_child *kids;
    int nkids, kcap;
    /* one pack: each kid's column parts (kpc[kids[i].pc], when not -1), made
     * from its frame's as the kid was entered and scored, and taken as the kid's frame's
     * own when the search enters it (eo_frame_parts), instead of looking at the columns
     * its step touched a second time */
    eo_pcache *kpc;
    int kpccap; /* at most EO_KPC_MAX */
    int kid_in; /* the kid whose frame is being expanded (eo_dfs_run), or -1 */
    eo_move *kmv; /* the recorded moves of the kids on the stack (eo_child.off) */
    size_t kmv_len, kmv_cap;
    /* depth-first: a child was entered into the seen states but its moves could not be
     * kept (out of memory): the search on disk cannot take this search over (disk.h) */
    int kid_lost;
    /* best-first search: per state id its parent and its depth (bestfirst.h,
     * eo_parent_at, eo_depth_at; the step from the parent is found again when the path
     * is built); the open list is a binary heap */
    uint8_t **nodes;
    size_t nnodes, nodecap;
    uint64_t *heap; /* score << 32 | id, biased so that a max-heap pops the best */
    size_t nheap, heapcap;
    /* depth-first: a random amount below `noise` is added to each child's score
     * (xorshift generator, seeded per search) to vary the order of near-equal children */
    uint64_t rng;
    int noise;
    /* the search on disk (disk.h), where the complete search's memory ends: its limit in
     * bytes (0: none, the search ends at the memory limit) and directory (NULL: TMPDIR
     * or /tmp); what it did: the states it expanded, the most bytes its files held, its
     * layers */
    size_t max_disk;
    const char *disk_dir;
    /* best-first: the state being expanded and the states entered before its children
     * (what the search on disk takes over when the memory ends midway) */
    uint32_t cur_id;
    size_t cur_from;
    long disk_states;
    size_t disk_peak;
    int disk_layers;
    size_t disk_held; /* what the searches before still held beside the disk search's buffer */
    /* keeping the search on disk across runs (disk.h, "Kept searches"): what the search
     * is (the rules and the plan, as the caller words them) and which build runs it
     * (NULL or empty: not kept); the deal's number for the kept search's manifest (-1:
     * none); what happened: its files kept for a later run (1), and the layers it went
     * on from (0: it began afresh) */
    const char *disk_keep;
    const char *disk_build;
    long disk_deal;
    int disk_kept;
    int disk_resumed;
    /* the threads the search on disk expands a layer with (at most EO_DISK_MAXTHREADS;
     * <= 1: this one alone), and the CPU seconds its other threads took, which the time
     * limit's CPU clock counts (eo_clock) */
    int disk_threads;
    double cpu_extra;
    /* the caller's signal handlers to swap once the search has run a while (NULL: none,
     * or swapped already): eo_signals_defer, eo_signals_arm */
    eo_signals *sig;
} eo_ctx;

/* A deferred swap of the signal handlers (eo_ctx.sig), made now. */
static inline void eo_signals_arm(eo_ctx *x) {
    if (x->sig) {
        eo_signals_catch(x->sig);
        x->sig = NULL;
    }
}

static inline double eo_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* This thread's CPU time in seconds (user and system: a search on disk's sorting and
 * writing count, its waiting does not). */
static inline double eo_cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Now on the clock of x's time limit (x->deadline). */
static inline double eo_clock(const eo_ctx *x) {
    return x->cpu_clock ? eo_cpu_now() + x->cpu_extra : eo_now();
}

/* A context with empty buffers: each is allocated when first needed (a solve runs
 * several searches, most of which need only some of them). */
static int eo_ctx_init(eo_ctx *x) {
    x->path = NULL;
    x->is_step = NULL;
    x->pcap = 0;
    x->fr = NULL;
    x->frcap = 0;
    x->pcs = NULL;
    x->pccap = 0;
    x->cps = NULL;
    x->cpcap = 0;
    x->kids = NULL;
    x->kcap = 0;
    x->kpc = NULL;
    x->kpccap = 0;
    x->kid_in = -1;
    x->kmv = NULL;
    x->kmv_len = x->kmv_cap = 0;
    x->kid_lost = 0;
    x->plen = x->nfr = x->nkids = 0;
    x->status = EO_RUNNING;
    x->work = 0;
    x->nodes = NULL;
    x->nnodes = x->nodecap = 0;
    x->heap = NULL;
    x->nheap = x->heapcap = 0;
    x->hash_only = 0;
    x->is_dive = 0;
    x->hset = NULL;
    x->hmask = x->hcount = x->hmine = 0;
    x->hown = NULL;
    eo_cstore_init(&x->C);
    return eo_table_init(&x->T, 1024);
}

static void eo_ctx_free(eo_ctx *x) {
    free(x->path);
    free(x->is_step);
    free(x->fr);
    free(x->pcs);
    free(x->cps);
    free(x->kids);
    free(x->kpc);
    free(x->kmv);
    for (size_t b = 0; b < x->nnodes; b++) free(x->nodes[b]);
    free(x->nodes);
    free(x->heap);
    free(x->hset);
    eo_table_free(&x->T);
    eo_cstore_free(&x->C);
}

static inline int eo_path_reserve(eo_ctx *x, int extra) {
    if (x->plen + extra <= x->pcap) return 0;
    int cap = x->pcap ? x->pcap : 256;
    while (cap < x->plen + extra) cap *= 2;
    eo_move *p = (eo_move *)realloc(x->path, (size_t)cap * sizeof(eo_move));
    if (!p) return -1;
    x->path = p;
    uint8_t *q = (uint8_t *)realloc(x->is_step, (size_t)cap);
    if (!q) return -1;
    x->is_step = q;
    x->pcap = cap;
    return 0;
}

static inline size_t eo_ctx_bytes(const eo_ctx *x) {
    return eo_table_bytes(&x->T) + eo_crecs_bytes(&x->C.recs) + (size_t)x->pcap * (sizeof(eo_move) + 1) +
           (size_t)x->frcap * sizeof(eo_frame) + (size_t)x->pccap * sizeof(eo_pcache) +
           (size_t)x->cpcap * sizeof(eo_cparts) + (size_t)x->kcap * sizeof(eo_child) +
           (size_t)x->kpccap * sizeof(eo_pcache) +
           x->kmv_cap * sizeof(eo_move) +
           x->nnodes * EO_CBLOCK * EO_NODE_BYTES + x->nodecap * sizeof(uint8_t *) +
           x->heapcap * sizeof(uint64_t) + (x->hset ? (x->hmask + 1) * sizeof(uint64_t) : 0);
}

/* Record moves already applied to x->S as one step on the path, then make and record
 * the auto-moves. */
static inline int eo_record_step(eo_ctx *x, const eo_move *ms, int n) {
    if (eo_path_reserve(x, n + 1 + EO_R(x)->total) != 0) return -1;
    memcpy(x->path + x->plen, ms, (size_t)n * sizeof(eo_move));
    memset(x->is_step + x->plen, 0, (size_t)n);
    x->is_step[x->plen] = 1;
    x->plen += n;
    int na = eo_autos(EO_R(x), &x->S, x->path + x->plen);
    memset(x->is_step + x->plen, 0, (size_t)na);
    x->plen += na;
    return 0;
}

/* States the current search has entered (table or hash set). */
static inline long eo_states(const eo_ctx *x) {
    return x->hash_only ? (long)x->hmine : x->C.on ? (long)x->C.recs.count : (long)x->T.count;
}

/* Begin the seen states of a search that keeps them exactly, from x->S (its root): the
 * compact store with one pack, else the table of full keys; enter the root (id 0).
 * Nonzero out of memory. */
static inline int eo_seen_begin(eo_ctx *x) {
    if (eo_cstore_root(&x->C, EO_R(x), &x->S)) {
        x->C.recs.max_bytes = x->max_mem;
        return eo_cstore_insert(&x->C, EO_R(x), &x->S) != 0;
    }
    uint8_t key[EO_MAXKEY];
    return eo_table_insert(&x->T, key, eo_key(EO_R(x), &x->S, key)) != 0;
}

/* Enter s into the seen states (eo_seen_begin): its new id, -(existing id) - 2 if it
 * was there, -1 out of memory. */
static inline long eo_seen_insert(eo_ctx *x, const eo_state *s) {
    if (x->C.on) return eo_cstore_insert(&x->C, EO_R(x), s);
    uint8_t key[EO_MAXKEY];
    return eo_table_insert(&x->T, key, eo_key(EO_R(x), s, key));
}

/* eo_seen_insert of s, in suit, its compact record made from its parts p (eo_cparts). */
static inline long eo_seen_insert_parts(eo_ctx *x, const eo_state *s, const eo_cparts *p) {
    eo_crec k;
    int fits = eo_cencode_parts(&x->C, EO_R(x), s, p, &k) == 0;
    return eo_cstore_insert_rec(&x->C, EO_R(x), s, fits, k);
}

/* The state of a seen id, laid out as eo_decode lays out its canonical key. */
static inline void eo_seen_state(const eo_ctx *x, size_t id, eo_state *s) {
    if (x->C.on)
        eo_cstore_state(&x->C, EO_R(x), id, s);
    else
        eo_decode(EO_R(x), x->T.arena + x->T.offs[id] + 1, s);
}

/* Enter a hash into the set of x (a portfolio member's whose set it shares, x->hown):
 * 1 if new, 0 if there, -1 out of memory. */
static inline int eo_hset_enter(eo_ctx *x, uint64_t h) {
    if (!x->hset || (x->hcount + 1) * 2 > x->hmask + 1) {
        size_t n = x->hset ? (x->hmask + 1) * 2 : EO_HSET_FIRST;
        uint64_t *t = (uint64_t *)calloc(n, sizeof(uint64_t));
        if (!t) return -1;
        if (x->hset) {
            for (size_t i = 0; i <= x->hmask; i++) {
                uint64_t v = x->hset[i];
                if (!v) continue;
                size_t j = (size_t)v & (n - 1);
                while (t[j]) j = (j + 1) & (n - 1);
                t[j] = v;
            }
            free(x->hset);
        }
        x->hset = t;
        x->hmask = n - 1;
    }
    size_t i = (size_t)h & x->hmask;
    while (x->hset[i]) {
        if (x->hset[i] == h) return 0;
        i = (i + 1) & x->hmask;
    }
    x->hset[i] = h;
    x->hcount++;
    return 1;
}

/* Enter a hash into the dive's set: 1 if new (counted as this search's), 0 if there
 * (entered by this search or, sharing the set, by another), -1 out of memory. */
static inline int eo_hset_insert(eo_ctx *x, uint64_t h) {
    int id = eo_hset_enter(x->hown ? x->hown : x, h);
    if (id == 1) x->hmine++;
    return id;
}

/* Check the limits; set status and return nonzero when one is reached. */
static inline int eo_over_limits(eo_ctx *x) {
    if (x->T.failed || x->C.recs.failed) {
        x->status = EO_MEMORY_LIMIT;
        return 1;
    }
    if (x->max_states > 0 && eo_states(x) >= x->max_states) {
        x->status = EO_STATE_LIMIT;
        return 1;
    }
    if ((++x->work & 1023) == 0) {
        eo_signals_arm(x);
        if (eo_signal) {
            x->status = EO_INTERRUPTED;
            return 1;
        }
        if (x->deadline > 0 && eo_clock(x) > x->deadline) {
            x->status = EO_TIME_LIMIT;
            return 1;
        }
        if (x->max_mem && eo_ctx_bytes(x) > x->max_mem) {
            x->status = EO_MEMORY_LIMIT;
            return 1;
        }
    }
    return 0;
}

/* All the steps to try from s: single moves, then (if enabled) the digging steps of the
 * kinds in digs (bit 1 << EO_DIG_...); pc: the state's column parts if known (their top
 * runs are used), or NULL. */
static inline int eo_all_steps_m(const eo_ctx *x, const eo_state *s, eo_move *out,
                                 const eo_pcache *pc, int digs) {
    int runs[EO_MAXCOLS];
    eo_runs_of(EO_R(x), pc, runs); /* else eo_search_moves_runs finds them */
    /* Purposeful steps: no single card from a column into a cell.  The dive's rules leave
     * out more: into an empty column only a column's whole top run (a single card there
     * is a move into a cell paid for with a column; part of a run frees less than all of
     * it); onto another column only a whole top run (part of a run lies on a parent
     * already: moving it makes no new pair, frees no column); a cell card into an empty
     * column only to be built on (else it trades a column for a cell).  What each bought:
     * bench/README.md, "The search plans". */
    int purposeful = x->steps == EO_STEPS_PURPOSEFUL ? EO_PURPOSEFUL : 0;
    if (purposeful && x->is_dive) /* the dive's own rules */
        purposeful |= (x->plan.dive.whole_runs_to_empty ? EO_WHOLE_TO_EMPTY : 0) |
                      (x->plan.dive.whole_runs_to_parent ? EO_WHOLE_TO_PARENT : 0) |
                      (x->plan.dive.cell_to_empty_needs_child ? EO_EMPTY_NEEDS_CHILD : 0);
    int n = eo_search_moves_runs(EO_R(x), s, out, runs, pc != NULL, purposeful);
    if (x->steps == EO_STEPS_SINGLE || !digs) return n;
    if (pc && !(digs & (1 << EO_DIG_PARENT | 1 << EO_DIG_TARGET)) && n + 16 <= EO_MAXMOVES) {
        /* the digs home alone (eo_macro_moves makes no others without those two kinds):
         * the same steps in eo_macro_moves' order, found from the column parts */
        if (digs & 1 << EO_DIG_HOME) n += eo_dig_home_moves_in(EO_R(x), s, pc, out + n, 1);
        return n;
    }
    return n + eo_macro_moves(EO_R(x), s, out + n, EO_MAXMOVES - n, digs, runs);
}

static inline int eo_all_steps(const eo_ctx *x, const eo_state *s, eo_move *out,
                               const eo_pcache *pc) {
    return eo_all_steps_m(x, s, out, pc, x->dig_kinds);
}

/* optimal.h: where a search's memory ends, a beam search's try for a win (search.h,
 * disk.h) */
static int eo_beam_fallback(eo_ctx *x, const eo_state *root, int na, long max_states,
                            double deadline, long *states);

#endif
