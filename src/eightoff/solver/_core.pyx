# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled solver core: a thin Cython layer over core.h (rules, moves, canonical keys),
search.h (the search, and the headers it includes: see its opening comment), plan.h (the
records a search plan crosses in), checks.h (for the differential test) and players.h
(rating players).

Everything crosses the boundary as plain data, records by field name: ``rules`` is
the dict made by ``eightoff.solver.core_rules`` (the fields of core.h's ``eo_rules``), a
search plan the dict of an ``eightoff.solver.plans.Search`` (plan.h's ``eo_plan``, its
weights, dive rules and portfolio members likewise); ``columns`` a sequence of sequences of card codes
(bottom first), ``cells`` a sequence of card codes with 0 (or None) for an empty
cell, ``foundations`` a sequence of top ranks.  A move is ``(src, dst, count)``:
0..9 a column, 16+i a cell, 32+f a foundation, 48 home.
"""

from libc.stdint cimport int16_t, uint8_t, uint64_t
from cpython.ref cimport Py_INCREF
from cpython.list cimport PyList_GET_ITEM
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from libc.string cimport memcpy, memset
from libc.limits cimport LONG_MAX
from libc.stdlib cimport free, malloc
from libc.signal cimport raise_ as c_raise
from cpython.exc cimport PyErr_CheckSignals
import os
import threading as _threading

cdef extern from "core.h":
    enum:
        EO_MAXCOLS
        EO_MAXCELLS
        EO_MAXFOUND
        EO_COLCAP
        EO_MAXMOVES
        EO_MAXKEY
        EO_HOME
        EO_CELL
        EO_FOUND

    ctypedef struct eo_rules:
        int ncols, ncells, nfound
        int alt, kings_only, supermove, retrieval, strict
        int total
        int safe_mode

    ctypedef struct eo_state:
        uint8_t len[EO_MAXCOLS]
        uint8_t cell[EO_MAXCELLS]
        uint8_t found[EO_MAXFOUND]
        int home, free_cells, free_cols
        uint8_t col[EO_MAXCOLS][EO_COLCAP]

    ctypedef struct eo_move:
        uint8_t src, dst, n, f

    void eo_apply(const eo_rules *r, eo_state *s, eo_move *m) nogil
    void eo_undo(eo_state *s, const eo_move *m) nogil
    void eo_recount(const eo_rules *r, eo_state *s) nogil
    int eo_legal_moves(const eo_rules *r, const eo_state *s, eo_move *out) nogil
    int eo_key(const eo_rules *r, const eo_state *s, uint8_t *out) nogil
    int eo_safe(const eo_rules *r, const eo_state *s, int card) nogil
    int eo_engine_safe(const eo_rules *r, const eo_state *s, int card) nogil

cdef extern from "plan.h":
    enum:
        EO_SOLVED
        EO_LOST
        EO_STATE_LIMIT
        EO_TIME_LIMIT
        EO_MEMORY_LIMIT
        EO_REPLAY_FAILED
        EO_DISK_LIMIT
        EO_INTERRUPTED
        EO_STAGE_BEST_FIRST
        EO_STAGE_COMPLETE
        EO_STAGE_DIVE
        EO_METHOD_DIVE
        EO_METHOD_BEST_FIRST
        EO_METHOD_BEST_FIRST_NO_TARGET
        EO_METHOD_DIVE_PARENT_DIGS_LAST
        EO_METHOD_META_DFS
        EO_METHOD_META_DFS_PLAIN
        EO_DEPTH_FIRST
        EO_BEST_FIRST
        EO_STEPS_SINGLE
        EO_STEPS_DIGS
        EO_STEPS_PURPOSEFUL
        EO_MAXPORT
        EO_MAX_FIRST_ROUND

    ctypedef struct eo_weights:
        int home, free_cells, free_columns, next_depth, unsettled, per_move, blockers
        int cell_wait, next_exposed, next_min_depth, pairs

    ctypedef struct eo_dive_rules:
        int home_stop_keeps_space
        int whole_runs_to_empty
        int whole_runs_to_parent
        int home_moves_first
        int dig_home_first
        int cell_to_empty_needs_child
        int home_digs_before_moves
        int cell_to_parent_first

    ctypedef struct eo_member:
        eo_weights weights
        int noise
        int method
        int first_round
        long meta_order

    ctypedef struct eo_plan:
        eo_weights weights
        int stages
        long dive_states
        long quick_states
        long port_quota
        int port_shared
        int complete_order
        int complete_steps
        long complete_meta
        int complete_scored
        int shorten
        int memory_beam
        eo_dive_rules dive

cdef extern from "search.h":
    ctypedef struct eo_signals:
        pass

    ctypedef struct eo_ctx:
        eo_rules R
        eo_state S
        long max_states
        double deadline
        int cpu_clock
        size_t max_mem
        int status
        eo_move *path
        int plen
        eo_plan plan
        eo_member port[EO_MAXPORT]
        int nport
        size_t max_disk
        const char *disk_dir
        long disk_states
        size_t disk_peak
        int disk_layers
        size_t disk_held
        const char *disk_keep
        const char *disk_build
        long disk_deal
        int disk_kept
        int disk_resumed
        int disk_threads
        double cpu_extra
        eo_signals *sig

    ctypedef struct eo_table:
        size_t count

    int eo_ctx_init(eo_ctx *x) nogil
    void eo_ctx_free(eo_ctx *x) nogil
    void eo_solve_any(eo_ctx *x, long *states_out) nogil
    int eo_fixed_for(const eo_rules *r) nogil
    const char *eo_fixed_name(int i) nogil
    int eo_fixed_set(int on) nogil

    void eo_signals_catch(eo_signals *g) nogil
    void eo_signals_defer(eo_signals *g) nogil
    int eo_signals_release(eo_signals *g) nogil
    int eo_signalled() nogil
    double eo_now() nogil
    double eo_cpu_now() nogil
    int eo_search_moves(const eo_rules *r, const eo_state *s, eo_move *out) nogil
    uint64_t eo_safe_mask4(const eo_rules *r, const eo_state *s) nogil
    unsigned long long eo_state_hash(const eo_rules *r, const eo_state *s) nogil

cdef extern from "steps.h":
    enum:
        EO_META_HOME
        EO_META_CELL_PARENT
        EO_META_SEG_PARENT
        EO_META_SEG_EMPTY
        EO_META_REPARENT
        EO_META_COL_CELLS
        EO_META_TOP_HOME
        EO_META_CELL_HOME
        EO_META_CELL_EMPTY
        EO_STEPMAX
    int eo_meta_moves(const eo_rules *r, const eo_state *s, int kind, eo_move *out,
                      int room) nogil
    int eo_step(const eo_rules *r, eo_state *s, eo_move m, eo_move *out) nogil

cdef extern from "replay.h":
    enum:
        EO_REPLAY_OK
        EO_COST_MISSING

cdef extern from "search.h":
    int eo_replay_any(const eo_rules *r, const eo_state *start, const eo_move *path,
                      int plen, uint64_t *keys, int *counts) nogil

cdef extern from "checks.h":
    int eo_check_incremental(const eo_rules *r, eo_state *s, const eo_weights *w,
                             int *n_out) nogil
    int eo_check_dive_moves(const eo_rules *r, const eo_state *s, int *n_out) nogil
    int eo_check_legal(const eo_rules *r, const eo_state *s, int *n_out) nogil
    int eo_check_compact(const eo_rules *r, const eo_state *root, const eo_state *s) nogil
    long eo_check_op_tab(const eo_rules *r, const eo_state *root, const eo_state *s,
                         size_t n) nogil
    uint64_t eo_check_drec_sort(size_t n, uint64_t seed, size_t distinct, int how,
                                int records, double *seconds) nogil
    uint64_t eo_check_drec_sort_run(const char *path, size_t cap, uint64_t seed, int how,
                                    int records, size_t *n_out, double *seconds) nogil

cdef extern from *:
    """
    #ifndef EO_SOURCE_ID /* set by setup.py: the sources' hash */
    #define EO_SOURCE_ID "unknown"
    #endif
    #ifndef EO_PROFILE_GUIDED /* set by setup.py's profile-guided build */
    #define EO_PROFILE_GUIDED 0
    #endif
    """
    const char *EO_SOURCE_ID
    const int EO_PROFILE_GUIDED

BUILD = (<bytes>EO_SOURCE_ID).decode("ascii")
"""Which build this is: setup.py's hash of the sources (the same code built anywhere is
the same build)."""
PROFILE_GUIDED = bool(EO_PROFILE_GUIDED)
"""Whether this build was compiled with the profile of its training solve (setup.py): the
same searches either way, faster with it."""

MAX_COLUMNS = EO_MAXCOLS
MAX_CELLS = EO_MAXCELLS
MAX_FOUNDATIONS = EO_MAXFOUND
HOME = EO_HOME
CELL = EO_CELL
FOUNDATION = EO_FOUND

# How a search ends (plan.h), stages, portfolio methods, orders and steps: the values
# eightoff.solver.plans names.
SOLVED = EO_SOLVED
LOST = EO_LOST
STATE_LIMIT = EO_STATE_LIMIT
TIME_LIMIT = EO_TIME_LIMIT
MEMORY_LIMIT = EO_MEMORY_LIMIT
REPLAY_FAILED = EO_REPLAY_FAILED
DISK_LIMIT = EO_DISK_LIMIT
INTERRUPTED = EO_INTERRUPTED
STATUS = {EO_SOLVED: "solved", EO_LOST: "lost", EO_STATE_LIMIT: "state limit reached",
          EO_TIME_LIMIT: "time limit reached", EO_MEMORY_LIMIT: "memory limit reached",
          EO_REPLAY_FAILED: "the solution does not replay",
          EO_DISK_LIMIT: "disk limit reached", EO_INTERRUPTED: "interrupted"}
STAGE_DIVE = EO_STAGE_DIVE
STAGE_BEST_FIRST = EO_STAGE_BEST_FIRST
STAGE_COMPLETE = EO_STAGE_COMPLETE
METHOD_DIVE = EO_METHOD_DIVE
METHOD_BEST_FIRST = EO_METHOD_BEST_FIRST
METHOD_BEST_FIRST_NO_TARGET = EO_METHOD_BEST_FIRST_NO_TARGET
METHOD_DIVE_PARENT_DIGS_LAST = EO_METHOD_DIVE_PARENT_DIGS_LAST
METHOD_META_DFS = EO_METHOD_META_DFS
METHOD_META_DFS_PLAIN = EO_METHOD_META_DFS_PLAIN
META_HOME = EO_META_HOME
META_CELL_PARENT = EO_META_CELL_PARENT
META_SEG_PARENT = EO_META_SEG_PARENT
META_SEG_EMPTY = EO_META_SEG_EMPTY
META_REPARENT = EO_META_REPARENT
META_COL_CELLS = EO_META_COL_CELLS
META_TOP_HOME = EO_META_TOP_HOME
META_CELL_HOME = EO_META_CELL_HOME
META_CELL_EMPTY = EO_META_CELL_EMPTY
DEPTH_FIRST = EO_DEPTH_FIRST
BEST_FIRST = EO_BEST_FIRST
STEPS_SINGLE = EO_STEPS_SINGLE
STEPS_DIGS = EO_STEPS_DIGS
MAX_PORTFOLIO = EO_MAXPORT


# The records that cross by field name, as the core names their fields: each a dict of
# a zeroed struct (nested records as dicts).
cdef dict _rules_fields():
    cdef eo_rules r
    memset(&r, 0, sizeof(r))
    d = <dict>r
    del d["safe_mode"]  # derived from retrieval (load_rules)
    return d


cdef dict _plan_fields():
    cdef eo_plan p
    memset(&p, 0, sizeof(p))
    return p


cdef dict _member_fields():
    cdef eo_member m
    memset(&m, 0, sizeof(m))
    return m


cdef dict _weights_fields():
    cdef eo_weights w
    memset(&w, 0, sizeof(w))
    return w


cdef dict _FIELDS = {"rules": _rules_fields(), "search": _plan_fields(),
                     "member": _member_fields(), "weights": _weights_fields()}


def fields() -> dict:
    """The field names of each record the core reads by name (``rules``, ``search``
    without its portfolio, ``member``, ``weights``), nested records as dicts."""
    return {k: dict(v) for k, v in _FIELDS.items()}


cdef int _check_fields(object record, dict template, str what) except -1:
    """Raise unless record is a dict with exactly the template's keys (recursively)."""
    if not isinstance(record, dict):
        raise TypeError(f"{what} crosses into the core as a dict by field name, "
                        f"not {type(record).__name__}")
    if record.keys() != template.keys():
        missing = sorted(template.keys() - record.keys())
        unknown = sorted(record.keys() - template.keys())
        raise ValueError(f"{what}: the core's fields differ (missing {missing}, "
                         f"unknown {unknown})")
    for key, sub in template.items():
        if isinstance(sub, dict):
            _check_fields(record[key], sub, f"{what}.{key}")
    return 0


# Move objects by a compact index of (source, target, count): a flat list, so that
# building a solution touches one pointer and one object per move (no dict probing).
cdef list _move_table = [None] * (27 * 27 * 16)


cdef inline int _place_index(int v) noexcept nogil:
    if v < 16:
        return v
    if v < 32:
        return 10 + v - 16
    if v < 48:
        return 18 + v - 32
    return 26


def core_version() -> str:
    return "1"


def fixed_copy(rules) -> str:
    """The name of the copy of the search compiled for these rules (fixed.h) that solves
    them, or "" where the module's own copy does (rules of no copy, or the copies off)."""
    cdef eo_rules r
    load_rules(&r, rules)
    cdef int i = eo_fixed_for(&r)
    return "" if i < 0 else eo_fixed_name(i).decode()


def use_fixed_copies(bint on) -> bool:
    """Let solve and solve_range run the copies of the search compiled for one variant's
    rules (on, as at import), or only the module's own copy (off: the tests compare the
    two); returns the setting before.  Both give the same searches."""
    return eo_fixed_set(1 if on else 0) != 0


cdef int load_rules(eo_rules *r, object rules) except -1:
    """Copy rules (the dict of eightoff.solver.core_rules) into r by field name."""
    if type(rules) is not dict or (<dict>rules).keys() != _FIELDS["rules"].keys():
        _check_fields(rules, _FIELDS["rules"], "rules (eightoff.solver.core_rules)")
    r.ncols = rules["ncols"]
    r.ncells = rules["ncells"]
    r.nfound = rules["nfound"]
    r.alt = rules["alt"]
    r.kings_only = rules["kings_only"]
    r.supermove = rules["supermove"]
    r.retrieval = rules["retrieval"]
    r.strict = rules["strict"]
    r.total = rules["total"]
    if not (0 < r.ncols <= EO_MAXCOLS and 0 <= r.ncells <= EO_MAXCELLS
            and r.nfound in (4, 8)):
        raise ValueError("the compiled solver handles up to 10 columns, 8 cells, 2 packs")
    r.safe_mode = 0 if r.retrieval else 1
    return 0


cdef int load_state(const eo_rules *r, eo_state *s, object columns, object cells,
                    object foundations) except -1:
    """Copy a position into s; raise ValueError if it is not one the core can take."""
    cdef int c, i, n, card, bad = 0
    memset(s, 0, sizeof(eo_state))
    if len(columns) != r.ncols or len(cells) != r.ncells or len(foundations) != r.nfound:
        raise ValueError("the position does not match its rules")
    for c in range(r.ncols):
        col = columns[c]
        n = len(col)
        if n > EO_COLCAP - 14:
            raise ValueError("a column is too long for the compiled solver")
        s.len[c] = n
        for i in range(n):
            card = col[i]
            bad |= card < 4 or card > 55
            s.col[c][i] = card
    for i in range(r.ncells):
        v = cells[i]
        card = 0 if v is None else v
        bad |= card != 0 and (card < 4 or card > 55)
        s.cell[i] = card
    for i in range(r.nfound):
        card = foundations[i]
        bad |= card < 0 or card > 13
        s.found[i] = card
    if bad:
        raise ValueError("the position holds something that is not a card")
    eo_recount(r, s)
    return 0


cdef tuple dump_state(const eo_rules *r, const eo_state *s):
    cdef int c, i
    columns = tuple(tuple(s.col[c][i] for i in range(s.len[c])) for c in range(r.ncols))
    cells = tuple(s.cell[i] for i in range(r.ncells))
    foundations = tuple(s.found[i] for i in range(r.nfound))
    return columns, cells, foundations


def legal_moves(rules, columns, cells, foundations) -> list:
    """Every legal move, as the Python engine lists them (same set)."""
    cdef eo_rules r
    cdef eo_state s
    cdef eo_move out[2048]
    load_rules(&r, rules)
    load_state(&r, &s, columns, cells, foundations)
    cdef int k = eo_legal_moves(&r, &s, out)
    return [(out[i].src, out[i].dst, out[i].n) for i in range(k)]


def search_moves(rules, columns, cells, foundations) -> list:
    """The moves the search tries from a position (a subset of the legal moves)."""
    cdef eo_rules r
    cdef eo_state s
    cdef eo_move out[EO_MAXMOVES]
    load_rules(&r, rules)
    load_state(&r, &s, columns, cells, foundations)
    cdef int k = eo_search_moves(&r, &s, out)
    return [(out[i].src, out[i].dst, out[i].n) for i in range(k)]


def meta_steps(rules, columns, cells, foundations, int kind) -> list:
    """The meta steps of one kind (``META_...``; steps.h) from a position, each as the
    codes ``src << 16 | dst << 8 | count`` of the single moves it makes (steps that
    cannot be made left out)."""
    cdef eo_rules r
    cdef eo_state s
    cdef eo_move ms[EO_MAXMOVES]
    cdef eo_move out[EO_STEPMAX]
    load_rules(&r, rules)
    load_state(&r, &s, columns, cells, foundations)
    cdef int k = eo_meta_moves(&r, &s, kind, ms, EO_MAXMOVES), i, j, n
    steps = []
    for i in range(k):
        n = eo_step(&r, &s, ms[i], out)
        if n < 0:
            continue
        steps.append([out[j].src << 16 | out[j].dst << 8 | out[j].n for j in range(n)])
        for j in range(n - 1, -1, -1):
            eo_undo(&s, &out[j])
    return steps


def apply_move(rules, columns, cells, foundations, int src, int dst, int n) -> tuple:
    """The position after a legal move, as (columns, cells, foundations)."""
    cdef eo_rules r
    cdef eo_state s
    cdef eo_move m
    load_rules(&r, rules)
    load_state(&r, &s, columns, cells, foundations)
    m.src = src
    m.dst = dst
    m.n = n
    m.f = 0
    eo_apply(&r, &s, &m)
    return dump_state(&r, &s)


def safe_cards(rules, columns, cells, foundations) -> list:
    """For each exposed card: (card, engine's safe rule, the search's safe rule, the
    search's rule as its auto-moves read it: one pack, from eo_safe_mask4)."""
    cdef eo_rules r
    cdef eo_state s
    load_rules(&r, rules)
    load_state(&r, &s, columns, cells, foundations)
    out = []
    cdef int c, i, card
    cdef uint64_t mask = eo_safe_mask4(&r, &s) if r.nfound == 4 else 0
    exposed = [s.col[c][s.len[c] - 1] for c in range(r.ncols) if s.len[c]]
    exposed += [s.cell[i] for i in range(r.ncells) if s.cell[i]]
    for card in exposed:
        search = bool(eo_safe(&r, &s, card))
        out.append((card, bool(eo_engine_safe(&r, &s, card)), search,
                    bool(mask >> card & 1) if r.nfound == 4 else search))
    return out


def replay(rules, columns, cells, foundations, codes) -> int:
    """The compiled replay (replay.h) of a sequence of move codes
    ``src << 16 | dst << 8 | count``: -1 when every move is legal in turn and the last
    leaves every card home, else the index of the first illegal move (``len(codes)``
    when all are legal but cards are left)."""
    cdef eo_rules r
    cdef eo_state s
    cdef int i, n = len(codes)
    load_rules(&r, rules)
    load_state(&r, &s, columns, cells, foundations)
    cdef eo_move *path = <eo_move *>malloc(max(n, 1) * sizeof(eo_move))
    if path == NULL:
        raise MemoryError("no memory for the replay")
    try:
        for i in range(n):
            code = codes[i]
            path[i].src = code >> 16 & 255
            path[i].dst = code >> 8 & 255
            path[i].n = code & 255
            path[i].f = 0
        with nogil:
            i = eo_replay_any(&r, &s, path, n, NULL, NULL)
        return i
    finally:
        free(path)


def canonical_key(rules, columns, cells, foundations) -> bytes:
    """The bytes the transposition table stores for a position."""
    cdef eo_rules r
    cdef eo_state s
    cdef uint8_t key[EO_MAXKEY]
    load_rules(&r, rules)
    load_state(&r, &s, columns, cells, foundations)
    cdef int n = eo_key(&r, &s, key)
    return bytes(key[:n])


def check_dive_moves(rules, columns, cells, foundations) -> tuple:
    """Do the dive's own generators give what the general ones do: its digs home (made
    from the column parts) and eo_macro_moves' digs home alone, the digs home among every
    kind of digging step; its cell cards onto their parents, those among the single
    moves?  Returns (steps compared, mismatches); one pack only."""
    cdef eo_rules r
    cdef eo_state s
    cdef int n = 0
    load_rules(&r, rules)
    load_state(&r, &s, columns, cells, foundations)
    bad = eo_check_dive_moves(&r, &s, &n)
    return n, bad


def check_legal(rules, columns, cells, foundations) -> tuple:
    """Does the rule the replay checks each move by (eo_legal) allow exactly the moves
    the list of legal moves holds, for every move from every place to every place
    (counts 0 to 14, places that are none among them)?  Returns (moves compared,
    mismatches)."""
    cdef eo_rules r
    cdef eo_state s
    cdef int n = 0
    load_rules(&r, rules)
    load_state(&r, &s, columns, cells, foundations)
    bad = eo_check_legal(&r, &s, &n)
    return n, bad


def check_compact(rules, root, columns, cells, foundations) -> int:
    """Does the compact record of a position reached from ``root`` (a (columns, cells,
    foundations) triple) decode to the state its canonical key decodes to, and does that
    state have the same record?  1 yes, 0 the position does not fit in a record (kept by
    its full key), -1 no, -2 the rules keep no records (two packs)."""
    cdef eo_rules r
    cdef eo_state s0, s
    load_rules(&r, rules)
    load_state(&r, &s0, root[0], root[1], root[2])
    load_state(&r, &s, columns, cells, foundations)
    return eo_check_compact(&r, &s0, &s)


def check_op_tab(rules, root, positions) -> int:
    """Does the optimal search's table of compact records (optimal.h's op_tab) number,
    find and give back the states of ``positions`` (a list of (columns, cells,
    foundations) triples reached from ``root``, repeats among them) as a table of
    canonical keys does?  Returns how many it kept by their canonical key (the record
    does not fit), -1 on a difference, -2 when the rules keep no records (two packs)."""
    cdef eo_rules r
    cdef eo_state s0
    cdef Py_ssize_t i, n = len(positions)
    cdef long out
    load_rules(&r, rules)
    load_state(&r, &s0, root[0], root[1], root[2])
    cdef eo_state *states = <eo_state *>malloc(max(n, 1) * sizeof(eo_state))
    if states == NULL:
        raise MemoryError()
    try:
        for i in range(n):
            load_state(&r, &states[i], positions[i][0], positions[i][1], positions[i][2])
        with nogil:
            out = eo_check_op_tab(&r, &s0, states, <size_t>n)
    finally:
        free(states)
    return out


def check_drec_sort(Py_ssize_t n, unsigned long long seed, bint radix,
                    Py_ssize_t distinct=0, bint records=False) -> tuple:
    """The sort of a search on disk's buffer (disk.h) on ``n`` entries made from ``seed``
    (checks.h, eo_check_drec_sort; ``distinct`` > 0: that many records, each held by many
    entries): the radix sort the search runs (``radix``) or the introsort alone, of the
    entries (a record and its parent's, as a take-over's buffer holds them) or, with
    ``records``, of their records alone (as a layer's children are held).  Returns (a
    hash of the sorted sequence, 0 when it is out of order or there was no memory for
    the entries; the sort's CPU seconds)."""
    cdef double seconds = 0.0
    cdef uint64_t h
    if n < 0 or distinct < 0:
        raise ValueError("n and distinct must not be negative")
    with nogil:
        h = eo_check_drec_sort(<size_t>n, seed, <size_t>distinct, 1 if radix else 0,
                               1 if records else 0, &seconds)
    return h, seconds


def check_drec_sort_run(str path, Py_ssize_t cap, unsigned long long seed, bint radix,
                        bint records=False) -> tuple:
    """The same sort (``check_drec_sort``) on the first ``cap`` entries of a run a search
    on disk wrote (its packed R file), shuffled by ``seed``.  Returns (the hash, 0 when
    out of order or the file cannot be read, the entries, the sort's CPU seconds)."""
    cdef double seconds = 0.0
    cdef size_t n = 0
    cdef uint64_t h
    if cap < 0:
        raise ValueError("cap must not be negative")
    cdef bytes p = path.encode()
    cdef const char *cp = p
    with nogil:
        h = eo_check_drec_sort_run(cp, <size_t>cap, seed, 1 if radix else 0, 1 if records else 0,
                                   &n, &seconds)
    return h, n, seconds


def check_incremental(rules, columns, cells, foundations, dict weights) -> tuple:
    """For every search step from a position: do the score and hash the search
    computes from the parent's columns (only the touched ones again), and the column
    parts a depth-first frame makes from its parent's, equal the full computation?
    Returns (children compared, mismatches, the position's own hash as
    the dive computes it); one pack only.  ``weights``: the dict of a
    ``eightoff.solver.plans.Weights``."""
    cdef eo_rules r
    cdef eo_state s
    cdef eo_weights w
    cdef int n = 0
    load_rules(&r, rules)
    load_state(&r, &s, columns, cells, foundations)
    _check_fields(weights, _FIELDS["weights"], "weights")
    w = weights
    cdef int bad = eo_check_incremental(&r, &s, &w, &n)
    return n, bad, eo_state_hash(&r, &s)


cdef class Setup:
    """A variant's rules and one search plan, converted once into the core's form, so
    that each ``solve`` copies them instead of reading Python objects again.

    ``rules``: the dict of ``eightoff.solver.core_rules``; ``search``: the dict
    (``dataclasses.asdict``) of an ``eightoff.solver.plans.Search``, whose fields, and
    those of its weights, dive rules and portfolio members, must be exactly the fields of
    plan.h's records (a ValueError names the difference)."""

    cdef eo_ctx proto

    def __cinit__(self, rules, dict search):
        memset(&self.proto, 0, sizeof(eo_ctx))
        load_rules(&self.proto.R, rules)
        portfolio = search.get("portfolio", ())
        plan = {k: v for k, v in search.items() if k != "portfolio"}
        _check_fields(plan, _FIELDS["search"], "search")
        if not isinstance(portfolio, (tuple, list)) or len(portfolio) > EO_MAXPORT:
            raise ValueError(f"the portfolio is a sequence of at most {EO_MAXPORT} members")
        if plan["complete_steps"] not in (EO_STEPS_SINGLE, EO_STEPS_DIGS):
            raise ValueError("the complete search tries single moves, or digging steps too")
        self.proto.plan = plan
        self.proto.plan.port_quota = max(1, self.proto.plan.port_quota)
        self.proto.nport = len(portfolio)
        for k, member in enumerate(portfolio):
            _check_fields(member, _FIELDS["member"], "portfolio member")
            if not 0 <= member["first_round"] <= EO_MAX_FIRST_ROUND:
                raise ValueError(
                    f"a portfolio member begins in round 0 to {EO_MAX_FIRST_ROUND}"
                )
            self.proto.port[k] = member


def _disk_dir_bytes(object disk_dir) -> bytes:
    """The disk search's directory as the core reads it (b"": the default)."""
    if disk_dir is None:
        return b""
    return os.fsencode(disk_dir)


cdef inline bint _catching():
    """Does this call catch Ctrl+C and SIGTERM while it searches (context.h,
    eo_signals_catch)?  Only from Python's main thread."""
    return _threading.current_thread() is _threading.main_thread()


cdef int _raise_signal(int sig) except -1:
    """A signal came while the search ran (its handlers put back): raise it again under
    the caller's handler and let Python run it now (KeyboardInterrupt; the command line's
    SIGTERM); a handler that does not raise still ends the call, as Ctrl+C."""
    if sig:
        c_raise(sig)
        PyErr_CheckSignals()
        raise KeyboardInterrupt()
    return 0


def _keep_bytes(object keep) -> tuple:
    """A kept search's (what it is, which build) as the core reads them (b"": none)."""
    if keep is None:
        return b"", b""
    search, build = keep
    out = (str(search).encode(), str(build).encode())
    if any(b"\n" in part or b"\0" in part for part in out):
        raise ValueError("a kept search's words are one line each")
    return out


def solve(Setup setup not None, columns, cells, foundations, long max_states=0,
          double seconds=0.0, long max_memory=0, object moves_of=None, long max_disk=0,
          object disk_dir=None, dict disk_stats=None, bint cpu_clock=False,
          object disk_keep=None, int disk_threads=1) -> tuple:
    """Search; return (status, states, moves), status one of SOLVED, LOST, STATE_LIMIT,
    TIME_LIMIT, MEMORY_LIMIT, or REPLAY_FAILED: the search's solution is refused by the
    compiled replay (replay.h), and the third item is (the index of the first move
    refused, the solution's length): the two are equal when every move is legal but cards
    are left.

    ``moves``: the solution as a tuple of ``moves_of[code]`` (moves_of: always the same
    mapping, its values are cached here) for each move's code
    ``src << 16 | dst << 8 | count`` (the codes themselves, as a list, when moves_of is
    None).  How the search runs: ``setup`` (see Setup).

    ``max_disk`` (bytes, 0: none): where the memory ends, the complete search goes on on
    disk (disk.h) in a directory of its own under ``disk_dir`` (str; None: TMPDIR or
    /tmp), up to that many bytes; ``disk_stats``, if given, gets "states" (expanded on
    disk), "peak" (the most bytes on disk at once), "layers" and "held" (the bytes the
    searches before still held in memory beside its buffer), "kept" (its files kept for a
    later search: disk.h, "Kept searches") and "resumed" (the layers it went on from; 0:
    it began afresh).  ``disk_keep``: None, or (what the search is, which build runs it),
    two one-line strings: the search on disk is kept where a limit stops it, and goes on
    where a kept one of the same root, search and build is there.  ``disk_threads``: the
    threads the search on disk expands a layer with (1: this one alone; the time
    limit's CPU clock counts them all).  ``cpu_clock``: the time limit ``seconds``
    counts this thread's CPU time (else wall time)."""
    cdef eo_ctx x
    cdef eo_state start
    cdef int i, code, index, bad = EO_REPLAY_OK
    memcpy(&x, &setup.proto, sizeof(eo_ctx))
    load_state(&x.R, &x.S, columns, cells, foundations)
    start = x.S
    x.max_states = max_states
    x.max_mem = max_memory
    cdef bytes dir_b = _disk_dir_bytes(disk_dir)
    cdef const char *dir_p = NULL
    if dir_b:
        dir_p = dir_b
    x.max_disk = max_disk if max_disk > 0 else 0
    x.disk_dir = dir_p
    cdef bytes keep_search, keep_build
    keep_search, keep_build = _keep_bytes(disk_keep)
    x.disk_keep = keep_search
    x.disk_build = keep_build
    x.disk_deal = -1
    x.disk_threads = disk_threads
    x.cpu_extra = 0.0
    if eo_ctx_init(&x) != 0:
        eo_ctx_free(&x)
        raise MemoryError("the solver could not allocate its tables")
    x.cpu_clock = cpu_clock
    x.deadline = (eo_cpu_now() if cpu_clock else eo_now()) + seconds if seconds > 0 else 0.0
    cdef long states = 0
    cdef eo_signals caught
    cdef bint catching = _catching()
    if catching:
        eo_signals_defer(&caught)  # swapped once the search has run a while (context.h)
        x.sig = &caught
    with nogil:
        eo_solve_any(&x, &states)
        if x.status == EO_SOLVED:
            bad = eo_replay_any(&x.R, &start, x.path, x.plen, NULL, NULL)
    if catching:
        code = eo_signals_release(&caught)
        if code:
            eo_ctx_free(&x)
            _raise_signal(code)
    status = x.status
    if disk_stats is not None:
        disk_stats["states"] = x.disk_states
        disk_stats["peak"] = x.disk_peak
        disk_stats["layers"] = x.disk_layers
        disk_stats["held"] = x.disk_held
        disk_stats["kept"] = bool(x.disk_kept)
        disk_stats["resumed"] = x.disk_resumed
    cdef object moves = ()
    if bad != EO_REPLAY_OK:
        i = x.plen
        eo_ctx_free(&x)
        return REPLAY_FAILED, states, (bad, i)
    try:
        if status == EO_SOLVED:
            if moves_of is None:
                moves = [x.path[i].src << 16 | x.path[i].dst << 8 | x.path[i].n
                         for i in range(x.plen)]
            else:
                moves = PyTuple_New(x.plen)
                for i in range(x.plen):
                    index = (_place_index(x.path[i].src) * 27 + _place_index(x.path[i].dst)) * 16 \
                        + x.path[i].n
                    item = <object>PyList_GET_ITEM(_move_table, index)
                    if item is None:
                        code = x.path[i].src << 16 | x.path[i].dst << 8 | x.path[i].n
                        item = moves_of[code]
                        _move_table[index] = item
                    Py_INCREF(item)
                    PyTuple_SET_ITEM(moves, i, item)
    finally:
        eo_ctx_free(&x)
    return status, states, moves


# ----- player models for deal ratings (players.h; eightoff.rating) --------------------
from libc.stdint cimport uint64_t

cdef extern from "players.h":
    enum:
        PL_LOOKAHEAD
        PL_SENSIBLE

    ctypedef struct pl_params:
        int kind, depth, noise, max_moves, width
        uint64_t seed

    ctypedef struct pl_result:
        int won, home, moves

    int pl_play(const eo_rules *r, const eo_state *start, const pl_params *p,
                pl_result *out) nogil

PLAYER_LOOKAHEAD = PL_LOOKAHEAD
PLAYER_SENSIBLE = PL_SENSIBLE


def play(rules, columns, cells, foundations, players) -> list:
    """Play one game from the position per player
    ``(kind, depth, width, noise, max_moves, seed)``
    (see players.h); return ``(won, cards home, moves made)`` for each."""
    cdef eo_rules r
    cdef eo_state s
    cdef pl_params p
    cdef pl_result res
    cdef int rc
    load_rules(&r, rules)
    load_state(&r, &s, columns, cells, foundations)
    out = []
    for kind, depth, width, noise, max_moves, seed in players:
        p.kind = kind
        p.depth = depth
        p.width = width
        p.noise = noise
        p.max_moves = max_moves
        p.seed = <uint64_t>seed
        with nogil:
            rc = pl_play(&r, &s, &p, &res)
        if rc != 0:
            raise MemoryError("a player could not allocate its table of seen positions")
        out.append((bool(res.won), res.home, res.moves))
    return out


# ----- players who take moves back (players.h: PL_PATIENT, the held-out player of
# bench/rating_monotonicity.py; PL_BACKTRACK, rating players of some variants) -----------
cdef extern from "players.h":
    enum:
        PL_PATIENT
        PL_BACKTRACK

PLAYER_PATIENT = PL_PATIENT
PLAYER_BACKTRACK = PL_BACKTRACK


# ----- par: the fewest moves, proven (optimal.h; eightoff.solver.optimal) --------------
from libc.stdlib cimport free

cdef extern from "optimal.h":
    enum:
        OP_PLAYER
        OP_SINGLE

    ctypedef struct op_ctx:
        eo_rules R
        eo_state S
        int count
        int upper
        int deadlocks
        int weight
        long beam
        long max_states
        double seconds
        int threads
        size_t max_mem
        int partial
        int compact
        int status
        int lower
        long states
        long expanded
        eo_move *path
        int plen

    void op_search_any(op_ctx *x) nogil

COUNT_PLAYER = OP_PLAYER
COUNT_SINGLE = OP_SINGLE
OPTIMAL_STATUS = {1: "found", 2: "no shorter", 3: "state limit reached",
                  4: "time limit reached", 5: "memory limit reached", 6: "lost",
                  7: "found by the beam", 8: "the beam ran dry"}


def optimal(rules, columns, cells, foundations, int count, int upper=0,
            long max_states=0, double seconds=0.0, long max_memory=0,
            int deadlocks=5, int weight=0, long beam=0, int threads=1, int partial=2,
            bint compact=False) -> tuple:
    """A* for the fewest steps (optimal.h); returns (status, lower bound, upper bound,
    states stored, moves).  ``count``: COUNT_PLAYER or COUNT_SINGLE; ``upper``: the
    length of a known solution (only shorter ones are sought; 0 none).  Status 1: the
    moves (as ``(src, dst, count)``) are a solution of the least length; 2: none shorter
    than ``upper`` exists; 6: no solution at all; 3-5: a limit stopped the search, the
    lower bound is proven, and the moves are a solution found (of length upper bound) or
    empty.  ``deadlocks``: what the bound adds to the blocked cards (op_deadlocks): 0
    nothing, 1 deadlocked pairs of cards, 2 cycles of deadlocked cards of any length, 3
    also, for player moves in alternate colours, cards above a lower card of the other
    colour (they cannot go home for free before the goal), 4 and the edges of the
    safety of the cards that cannot stay until the goal in the deadlock graph, 5 (the
    default) of every card (op_safe_edges).  ``weight``: 0 A*; above 10, anytime
    weighted A* (g + weight/10 * h first): shorter solutions sooner, no lower bound but
    the first one, and a proof only when it runs out of states.  ``beam``: above 0, a
    beam search of that width instead, for a short solution (status 7, not proven; 8 when
    the beam ran dry, 3, 4 or 5 when a limit stopped it).  ``threads``: A*'s threads (the
    states split among them by hash, optimal.h's op_astar: the same par as one thread
    proves, sooner; the states stored and the bounds at a limit may differ).
    ``partial``: A*'s partial expansion (children whose f exceeds their parent's left
    out, made again when the parent's turn comes at their f: fewer states stored, more
    time): 0 never, 1 from the start, 2 (the default) when the memory limit would stop
    the search before its time limit (without a time limit, from half the memory
    limit).  ``compact``: store the states by their compact records (compact.h, one
    pack; others by their canonical keys): the same search in about two fifths of the
    memory, at up to a tenth more time.  With COUNT_PLAYER the moves are the player's
    moves alone: the safe auto-moves (of the start too) follow each, and the
    auto-complete ends the game."""
    cdef op_ctx x
    cdef int i
    memset(&x, 0, sizeof(op_ctx))
    load_rules(&x.R, rules)
    load_state(&x.R, &x.S, columns, cells, foundations)
    if count != OP_PLAYER and count != OP_SINGLE:
        raise ValueError("count: COUNT_PLAYER or COUNT_SINGLE")
    x.count = count
    x.upper = upper
    x.deadlocks = deadlocks
    x.weight = weight
    x.beam = beam
    x.threads = threads
    x.max_states = max_states
    x.seconds = seconds
    x.max_mem = max_memory
    x.partial = partial
    x.compact = compact
    cdef eo_signals caught
    cdef bint catching = _catching()
    if catching:
        eo_signals_catch(&caught)
    with nogil:
        op_search_any(&x)
    if catching:
        i = eo_signals_release(&caught)
        if i:
            free(x.path)
            _raise_signal(i)
    try:
        moves = [(x.path[i].src, x.path[i].dst, x.path[i].n) for i in range(x.plen)]
    finally:
        free(x.path)
    return x.status, x.lower, x.upper, x.states, moves


# ----- the batch API (issue 20): deals made in C (deals.h), a range solved in one call,
# each solution checked by the compiled replay (replay.h) -------------------------------
from cpython cimport array
import array as _array

cdef extern from "deals.h":
    ctypedef struct eo_layout:
        int decks, ncols, ncells, to_columns
        int ndealt_cells
        int dealt_cells[8]

cdef extern from *:
    """
    #include "deals.h"
    /* deals `count` (<= EO_LANES) from hi:lo in dealing order into orders */
    static void eo_orders_hl(const eo_layout *L, uint64_t hi, uint64_t lo, int count,
                             uint8_t *orders) {
        eo_deal_orders(L->decks, ((eo_deal_number)hi << 64) | lo, count, orders);
    }
    /* lays one out as a state (foundations empty) */
    static void eo_lay_state(const eo_layout *L, const uint8_t *order, eo_state *s) {
        memset(s, 0, sizeof(eo_state));
        eo_lay_out(L, order, s->len, &s->col[0][0], EO_COLCAP, s->cell);
    }
    static void eo_deal_hl(const eo_layout *L, uint64_t hi, uint64_t lo, eo_state *s) {
        uint8_t order[EO_DEAL_MAXCARDS];
        eo_orders_hl(L, hi, lo, 1, order);
        eo_lay_state(L, order, s);
    }
    """
    enum:
        EO_LANES
        EO_DEAL_MAXCARDS
    void eo_orders_hl(const eo_layout *L, uint64_t hi, uint64_t lo, int count,
                      uint8_t *orders) nogil
    void eo_lay_state(const eo_layout *L, const uint8_t *order, eo_state *s) nogil
    void eo_deal_hl(const eo_layout *L, uint64_t hi, uint64_t lo, eo_state *s) nogil

cdef extern from "replay.h":
    enum:
        EO_COST_RUN
    int16_t eo_group_costs[EO_COST_RUN + 1][EO_MAXCELLS + 1][EO_MAXCOLS + 1]

COST_RUN = EO_COST_RUN
"""The longest group the table of single-card costs holds (set_group_costs)."""


def set_group_costs(cost) -> None:
    """Fill the replay's table of what a group of ``n`` cards moved with ``e`` empty
    cells and ``c`` empty columns as room costs in single-card moves: ``cost(n, e, c)``
    for 2 <= n <= COST_RUN, 0 <= e <= MAX_CELLS, 0 <= c <= MAX_COLUMNS (None: no such
    group). eightoff.solver calls it at import with eightoff.counts.group_cost, so the
    counts the replay gives (move_keys, solve_range) follow the one rule."""
    cdef int n, e, c
    for n in range(2, EO_COST_RUN + 1):
        for e in range(EO_MAXCELLS + 1):
            for c in range(EO_MAXCOLS + 1):
                v = cost(n, e, c)
                if v is not None and not 0 < v < 32768:
                    raise ValueError(f"a group's cost {v!r} does not fit the table")
                eo_group_costs[n][e][c] = 0 if v is None else v


cdef int load_layout(eo_layout *L, const eo_rules *r, tuple layout) except -1:
    decks, to_columns, dealt_cells = layout
    if decks not in (1, 2) or 4 * decks != r.nfound:
        raise ValueError("the layout's packs do not match the rules")
    if not 0 < to_columns <= 52 * decks or len(dealt_cells) > 8 \
            or to_columns + len(dealt_cells) > 52 * decks:
        raise ValueError("the layout does not fit the rules")
    L.decks = decks
    L.ncols = r.ncols
    L.ncells = r.ncells
    L.to_columns = to_columns
    L.ndealt_cells = len(dealt_cells)
    for i, c in enumerate(dealt_cells):
        if not 0 <= c < r.ncells:
            raise ValueError("a dealt cell is not a cell of the rules")
        L.dealt_cells[i] = c
    if 52 * decks - to_columns > L.ndealt_cells:
        raise ValueError("the layout leaves cards undealt")
    return 0


cdef inline void _split(object number, uint64_t *hi, uint64_t *lo):
    hi[0] = <uint64_t>(number >> 64)
    lo[0] = <uint64_t>(number & 0xFFFFFFFFFFFFFFFF)


def dealt(rules, tuple layout, number) -> tuple:
    """Deal ``number`` laid out by the compiled copy of the deal rule (deals.h), as
    (columns, cells, foundations) of card codes: the same as ``eightoff.deals.deal``."""
    cdef eo_rules r
    cdef eo_layout L
    cdef eo_state s
    cdef uint64_t hi, lo
    load_rules(&r, rules)
    load_layout(&L, &r, layout)
    _split(number, &hi, &lo)
    eo_deal_hl(&L, hi, lo, &s)
    return dump_state(&r, &s)


def move_keys(rules, columns, cells, foundations, codes) -> tuple:
    """A solution (move codes ``src << 16 | dst << 8 | count``) checked by the compiled
    replay (replay.h) and, when it replays, described for the output:
    (first illegal move or -1, ``array('Q')`` of each move's key, eo_move_key, player
    moves, single-card moves); the keys empty and the counts 0 when it does not replay
    (``len(codes)`` as the first value when every move is legal but cards are left)."""
    cdef eo_rules r
    cdef eo_state s
    cdef int i, n = len(codes), bad
    cdef int counts[2]
    counts[0] = counts[1] = 0
    load_rules(&r, rules)
    load_state(&r, &s, columns, cells, foundations)
    cdef array.array keys = array.clone(_array.array("Q"), n, zero=True)
    cdef array.array moves = array.clone(_array.array("B"), 4 * n, zero=True)
    cdef eo_move *mv = <eo_move *>moves.data.as_uchars
    for i in range(n):
        code = codes[i]
        mv[i].src = (code >> 16) & 255
        mv[i].dst = (code >> 8) & 255
        mv[i].n = code & 255
        mv[i].f = 0
    with nogil:
        bad = eo_replay_any(&r, &s, mv, n, <uint64_t *>keys.data.as_ulonglongs, counts)
    if bad == EO_COST_MISSING:
        raise ValueError("a group move the table of single-card costs does not hold")
    if bad != EO_REPLAY_OK:
        counts[0] = counts[1] = 0
        del keys[:]
    return bad, keys, counts[0], counts[1]


def solve_range(Setup setup not None, tuple layout, first, long count, long max_states=0,
                double seconds=0.0, long max_memory=0, bint keep_moves=False,
                long max_disk=0, object disk_dir=None, bint cpu_clock=False,
                object disk_keep=None, int disk_threads=1) -> tuple:
    """Deal and solve ``count`` deals from ``first`` in one call (no Python between
    deals): deals made by deals.h, each solution replayed by replay.h before it counts
    (a refused one: status 6, REPLAY_FAILED, its length the index of the move refused).

    Returns (status, states, seconds, lengths, keys, player, single): ``array('b')`` of
    statuses (as ``solve``), ``array('q')`` of states, ``array('d')`` of each deal's CPU
    seconds in the core (from the end of the deal before: dealing, search, replay; the
    seconds of a block add up to its CPU time in the loop), ``array('i')``
    of solution lengths (0 unless solved), with ``keep_moves`` an ``array('Q')`` of every
    solution's move keys in order (replay.h, eo_move_key; deal i's are those after the
    lengths before it), else None, and two ``array('i')`` of each solution's length in
    player moves and in single-card moves (eightoff.counts; 0 unless solved).
    ``max_disk``, ``disk_dir``, ``cpu_clock``, ``disk_keep``, ``disk_threads``: as
    ``solve`` (with ``cpu_clock`` the limit counts the CPU time each deal's search takes,
    as the seconds returned do, the search on disk's other threads included; a kept
    search's manifest names its deal)."""
    cdef eo_ctx x
    cdef eo_layout L
    cdef eo_state start
    cdef uint64_t hi, lo
    cdef long d
    cdef int bad = 0, rc, plen
    cdef double c0, c1
    cdef long st = 0
    cdef Py_ssize_t used = 0, cap = 0
    if count < 0:
        raise ValueError("count must not be negative")
    load_layout(&L, &setup.proto.R, layout)
    _split(first, &hi, &lo)
    cdef array.array status = array.clone(_array.array("b"), count, zero=True)
    cdef array.array states = array.clone(_array.array("q"), count, zero=True)
    cdef array.array secs = array.clone(_array.array("d"), count, zero=True)
    cdef array.array lengths = array.clone(_array.array("i"), count, zero=True)
    cdef array.array player = array.clone(_array.array("i"), count, zero=True)
    cdef array.array single = array.clone(_array.array("i"), count, zero=True)
    cdef int counts[2]
    cdef array.array keys = array.clone(_array.array("Q"), 0, zero=False)
    cdef signed char *pstatus = status.data.as_schars
    cdef long long *pstates = states.data.as_longlongs
    cdef double *psecs = secs.data.as_doubles
    cdef int *plens = lengths.data.as_ints
    cdef uint64_t *pkeys = NULL
    cdef uint8_t orders[EO_LANES * EO_DEAL_MAXCARDS]
    cdef int lane = EO_LANES, ncards = 52 * L.decks
    cdef bytes dir_b = _disk_dir_bytes(disk_dir)
    cdef const char *dir_p = NULL
    if dir_b:
        dir_p = dir_b
    cdef bytes keep_search, keep_build
    keep_search, keep_build = _keep_bytes(disk_keep)
    cdef const char *keep_p = keep_search
    cdef const char *build_p = keep_build
    cdef const eo_ctx *proto = &setup.proto
    cdef int *pplayer = player.data.as_ints
    cdef int *psingle = single.data.as_ints
    cdef int failed = 0  # 1 the tables could not be allocated, 2 a group's cost missing
    cdef eo_signals caught
    cdef bint catching = _catching()
    if catching:
        eo_signals_catch(&caught)
    try:
        # The whole block without the GIL (the threads of a survey solve at once): taken
        # only to grow the buffer of move keys.
        with nogil:
            # a deal's time runs from the end of the one before (its dealing and the
            # freeing of the one before's tables included): one reading of the thread's
            # CPU clock a deal, which costs about half a microsecond here (a system call)
            c0 = eo_cpu_now()
            for d in range(count):
                memcpy(&x, proto, sizeof(eo_ctx))
                x.max_disk = max_disk if max_disk > 0 else 0
                x.disk_dir = dir_p
                x.disk_keep = keep_p
                x.disk_build = build_p
                x.disk_deal = <long>lo if hi == 0 and lo <= <uint64_t>LONG_MAX else -1
                x.disk_threads = disk_threads
                x.cpu_extra = 0.0
                if lane == EO_LANES:  # the next EO_LANES deals at once (deals.h)
                    eo_orders_hl(&L, hi, lo, <int>min(<long>EO_LANES, count - d), orders)
                    lane = 0
                eo_lay_state(&L, &orders[lane * ncards], &x.S)
                lane += 1
                eo_recount(&x.R, &x.S)
                memcpy(&start, &x.S, sizeof(eo_state))
                x.max_states = max_states
                x.max_mem = max_memory
                rc = eo_ctx_init(&x)
                if rc != 0:
                    eo_ctx_free(&x)
                    failed = 1
                    break
                x.cpu_clock = cpu_clock
                x.deadline = (c0 if cpu_clock else eo_now()) + seconds if seconds > 0 else 0.0
                st = 0
                eo_solve_any(&x, &st)
                if catching and eo_signalled():  # this deal's search was interrupted
                    eo_ctx_free(&x)
                    break
                plen = x.plen if x.status == 1 else 0
                bad = EO_REPLAY_OK
                if x.status == 1:  # replayed and described in one pass (replay.h)
                    pkeys = NULL
                    if keep_moves and plen:
                        if used + plen > cap:
                            cap = max(2 * cap, used + plen, 4096)
                            with gil:
                                array.resize(keys, cap)
                        pkeys = <uint64_t *>keys.data.as_ulonglongs + used
                    bad = eo_replay_any(&x.R, &start, x.path, plen, pkeys, counts)
                c1 = eo_cpu_now()
                psecs[d] = c1 - c0 + x.cpu_extra
                c0 = c1
                if bad == EO_COST_MISSING:
                    eo_ctx_free(&x)
                    failed = 2
                    break
                if bad != EO_REPLAY_OK:  # a bug, never a verdict: the caller reports it
                    pstatus[d] = EO_REPLAY_FAILED
                    plens[d] = bad
                    plen = 0
                else:
                    pstatus[d] = x.status
                    plens[d] = plen
                pstates[d] = st
                if plen:
                    if keep_moves:
                        used += plen
                    pplayer[d] = counts[0]
                    psingle[d] = counts[1]
                eo_ctx_free(&x)
                lo += 1
                if lo == 0:
                    hi += 1
    finally:
        if catching:
            _raise_signal(eo_signals_release(&caught))
    if failed == 1:
        raise MemoryError("the solver could not allocate its tables")
    if failed == 2:
        raise ValueError("a group move the table of single-card costs does not hold")
    if keep_moves:
        array.resize(keys, used)
        return status, states, secs, lengths, keys, player, single
    return status, states, secs, lengths, None, player, single
