/* The complete search on disk: where the in-memory complete search runs out of memory,
 * an external-memory breadth-first search with delayed duplicate detection over the
 * same successor relation (after Freecell Solver's depth_dbm_fc_solver in spirit).
 *
 * The relation.  A state's children are exactly those eo_befs_run makes in the complete
 * search: every step eo_all_steps gives (the plan's complete_steps: every single move up
 * to symmetry, and the digging steps when the plan adds them), each followed by the safe
 * auto-moves; a child that is won ends the search.  States are identified as the
 * complete search identifies them: one pack, by the compact record (compact.h: exact,
 * equal records are canonically equal states and no more), relative to the same root;
 * the rare state whose record does not fit goes, as there, to a table by full
 * canonical key kept in memory (its record: EO_CBIG | its id there, one per state).
 * Two packs (Double FreeCell) are left out: their canonical key has no fixed-size
 * record to sort, so the search stays in memory and ends at the memory limit.
 *
 * The layers.  Layer 0 is the root (after its auto-moves), or, taking over the
 * in-memory best-first complete search where its memory ended (eo_disk_take_over),
 * every state it entered, each with its parent, and then layer 1 the states it had left
 * to expand (its open list, the state it was expanding, that state's children); or,
 * taking over the depth-first one (eo_disk_take_over_dfs), every state it entered (its
 * records alone: the parents of the frontier, the only ones known, in a file T0 of their
 * own), and layer 1 the kids of the frames of its stack (each with its frame as
 * parent).  These are the record layers (0 .. nrec - 1): each entry a record and its
 * parent's record, sorted by record.  Layer d + 1 is made from layer d: its states are
 * decoded in file order and expanded; the children (their records alone: no parent is
 * kept) fill a buffer of the memory limit's size, which is sorted, cut to one entry per
 * child and written as a run (with several
 * threads, x->disk_threads, each takes entries of layer d a chunk at a time and fills
 * and writes a part of the buffer of its own: eo_disk_work); the runs are then
 * merged (k-way, again one entry per child) and, in the same pass, against every state
 * seen so far (the files of layers 0..d, each read in order; the children in batches,
 * each passed by the seen layers one layer at a time: eo_seen_batch; with several
 * threads, one merges the runs and hands the batches over to the search's own, which
 * passes them by the seen layers: eo_pipe): a child
 * found there is dropped, the rest is layer d + 1, an index layer (a
 * layer made on disk): its records, sorted and packed (below, "Packed files"), in one
 * file; the runs are packed too.  The layers are kept for the trace-back of a win and
 * are the seen states as well: each state is on disk once.  An empty layer ends the
 * search lost.  No parent of an index layer's state is written: a trace-back finds it
 * again (below), and the parents took 5 bytes a state of the 10 a layer took (41% of
 * the FreeCell 982 search's files with 2 cells).
 *
 * The states count: the states the searches before counted (those they entered), less
 * the states taken over unexpanded (layer 1), plus the states expanded on disk; the
 * state limit applies to that sum.  Where it exhausts, that is every distinct state
 * once, as the in-memory complete search counts where it exhausts: tested.  The memory
 * limit is the size of the children's buffer (an eighth of it while the tables taken
 * over are still there; the seen layers' readers share a 32nd of it besides); the disk
 * limit bounds the bytes of the files alive (an index layer its packed records, a
 * record layer 32 bytes a state, a depth-first take-over's layer 0 its packed records
 * and T0 32 a state of its frontier; the runs of the layer being made, packed: each
 * child its record and a byte), capped by the free space of the
 * directory at the start less a margin.  A write that fails ends it the same way.
 *
 * The files live in a directory of their own, <dir>/eightoff-disk-<pid>-XXXXXX, removed
 * however the search ends (a kept search's, below, stays where a limit stops it).
 * Ctrl+C or SIGTERM (caught for a call from Python's main thread: context.h,
 * eo_signals_catch) stops it at its next check, as the time limit
 * does (every 1,024 states expanded or entries merged, read or copied; every MiB of a run
 * written; every partition of a million entries and every million swaps or heap sifts
 * while a run is sorted: well under a second apart, whatever the memory limit): it
 * removes its files, and the caller raises the signal again under the handler that was
 * there before (Python's KeyboardInterrupt, or death).  After kill -9 the directory
 * stays; the next disk search removes every such directory whose process is gone.
 *
 * The solution: the won child's parent is a state of layer d (its record kept when the
 * win is found); a state of an index layer j has a parent in layer j - 1, the first
 * state of that layer, in file order, one of whose steps leads to it (found by reading
 * and expanding the layer: eo_disk_scan_parent, a cost paid only on a win, at most one
 * layer's expansion for each step of the path back), a state
 * of a record layer j >= 1 its parent's record, found in layer j - 1's file by binary
 * search, and within layer 0 (taken over) again in layer 0 (or T0), down to the root
 * (its own parent); the
 * step between consecutive states is the first of the parent's steps that leads to the
 * child (eo_step_to, as the best-first trace-back finds it), mapped onto the real
 * layout (eo_push_mapped_step), so the path is the same kind as the in-memory one.
 */
#ifndef EIGHTOFF_DISK_H
#define EIGHTOFF_DISK_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/file.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <unistd.h>

#include "bestfirst.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

/* Give the memory the searches before freed back to the system (glibc keeps freed heap
 * pages of small blocks otherwise: hundreds of MiB of a depth-first search's tables),
 * so that the process holds about --memory once the disk search's buffer is made. */
static void eo_give_back(void) {
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

/* a layer's entry: a state's record and its parent's (the root: itself) */
typedef struct {
    eo_crec s, p;
} eo_drec;

#define EO_DISK_MARGIN ((size_t)1 << 30)  /* free space the disk search always leaves */
#define EO_DISK_MAXRUNS 32                 /* runs merged at once */
#define EO_DISK_IOBUF ((size_t)1 << 20)
#define EO_DISK_MAXTHREADS 64              /* threads a layer is expanded with, at most */
#define EO_DISK_CHUNK 1024                 /* entries a thread takes of a layer at a time */

static inline int eo_crec_cmp(const eo_crec *a, const eo_crec *b) {
    if (a->hi != b->hi) return a->hi < b->hi ? -1 : 1;
    if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
    return 0;
}

static int eo_drec_cmp(const void *a, const void *b) {
    const eo_drec *x = (const eo_drec *)a, *y = (const eo_drec *)b;
    int c = eo_crec_cmp(&x->s, &y->s);
    return c ? c : eo_crec_cmp(&x->p, &y->p);
}

/* ----- Packed files ----------------------------------------------------------------
 * The files of states in ascending order are written packed: the runs and the layers of
 * records alone (the index layers, a depth-first take-over's layer 0).  Each record is
 * written as its difference from the record before it in the file (the first: from 0),
 * a number of 128 bits, in LEB128 (7 bits a byte, the lowest first, the top bit set on
 * every byte but the last); a run's entry then has its parent: a byte (0: none, the
 * record of all ones a depth-first take-over puts; 1: an index, p.lo; 2: a record) and
 * p.lo (1, 2) and p.hi (2), each in LEB128.  The records of a sorted file lie close
 * together: a layer of 411,560 states of FreeCell 1568 with 1 cell takes 7.6 bytes a
 * state this way against 16 (bench/README, "Packed layers and runs").  Such a file is
 * read in order only: a state's index in its layer is its place in that order, and the
 * trace-back reads up to it.  The layers of records with their parents' records (the
 * root's layer 0, a best-first take-over's layers 0 and 1, and T0), which the
 * trace-back searches by binary search, stay as they were, 32 bytes an entry. */
__extension__ typedef unsigned __int128 eo_u128;

static inline eo_u128 eo_crec_u(const eo_crec *c) { return (eo_u128)c->hi << 64 | c->lo; }

static inline eo_crec eo_u_crec(eo_u128 v) {
    eo_crec c;
    c.hi = (uint64_t)(v >> 64);
    c.lo = (uint64_t)v;
    return c;
}

#define EO_PACK_BUF ((size_t)1 << 18) /* a packed file's reading or writing buffer */
#define EO_PACK_MAX 40                /* the most bytes an entry takes: 19 + 1 + 10 + 10 */

/* A packed file read in order. */
typedef struct {
    FILE *f;
    eo_u128 prev;
    uint8_t *buf;
    size_t pos, len, cap;
    int eof, own; /* the file read to its end; buf is the reader's own */
} eo_preader;

/* Open a packed file to read with buffer buf of cap bytes (NULL: one of its own), the
 * last 16 of which are never filled; nonzero when it cannot. */
static int eo_pr_open(eo_preader *r, const char *path, uint8_t *buf, size_t cap) {
    memset(r, 0, sizeof(*r));
    r->own = buf == NULL;
    r->buf = buf ? buf : (uint8_t *)calloc(EO_PACK_BUF + 16, 1);
    r->cap = buf ? cap - 16 : EO_PACK_BUF; /* 16 bytes past the data read at once: eo_pr_u */
    r->f = r->buf ? fopen(path, "rb") : NULL;
    if (!r->f) {
        if (r->own) free(r->buf);
        r->buf = NULL;
        return -1;
    }
    setvbuf(r->f, NULL, _IONBF, 0); /* read straight into the buffer */
    return 0;
}

static void eo_pr_close(eo_preader *r) {
    if (r->f) fclose(r->f);
    if (r->own) free(r->buf);
    r->f = NULL;
    r->buf = NULL;
}

/* At least EO_PACK_MAX bytes in the buffer, unless the file ends sooner. */
static inline void eo_pr_fill(eo_preader *r) {
    if (r->eof || r->len - r->pos >= EO_PACK_MAX) return;
    size_t left = r->len - r->pos;
    memmove(r->buf, r->buf + r->pos, left);
    r->pos = 0;
    size_t got = fread(r->buf + left, 1, r->cap - left, r->f);
    r->len = left + got;
    if (got < r->cap - left) r->eof = 1; /* a short read: the end (or an error) */
}

/* The 7-bit groups of the LEB128 bytes in w (their top bits clear past the last) drawn
 * together. */
static inline uint64_t eo_leb_bits(uint64_t w) {
    return (w & 0x7fULL) | (w >> 1 & 0x7fULL << 7) | (w >> 2 & 0x7fULL << 14) |
           (w >> 3 & 0x7fULL << 21) | (w >> 4 & 0x7fULL << 28) | (w >> 5 & 0x7fULL << 35) |
           (w >> 6 & 0x7fULL << 42) | (w >> 7 & 0x7fULL << 49);
}

/* A number in LEB128 at the reader's place: 0 and *out, or -1 past the data.  Those of
 * up to 16 bytes (112 bits: every difference of records of one pack seen) are read 8
 * bytes at a time: the first byte without its top bit ends it (the buffer has 16 bytes
 * to read here however near its end: see eo_pr_open). */
static inline int eo_pr_u(eo_preader *r, eo_u128 *out) {
    const uint64_t tops = 0x8080808080808080ULL;
    uint64_t w, w2;
    memcpy(&w, r->buf + r->pos, 8);
    uint64_t stop = ~w & tops;
    if (stop) {
        size_t len = (size_t)(__builtin_ctzll(stop) >> 3) + 1;
        if (r->pos + len > r->len) return -1;
        r->pos += len;
        if (len < 8) w &= (1ULL << (8 * len)) - 1;
        *out = eo_leb_bits(w);
        return 0;
    }
    memcpy(&w2, r->buf + r->pos + 8, 8);
    stop = ~w2 & tops;
    if (stop) {
        size_t len = (size_t)(__builtin_ctzll(stop) >> 3) + 1;
        if (r->pos + 8 + len > r->len) return -1;
        r->pos += 8 + len;
        if (len < 8) w2 &= (1ULL << (8 * len)) - 1;
        *out = (eo_u128)eo_leb_bits(w2) << 56 | eo_leb_bits(w);
        return 0;
    }
    eo_u128 v = 0;
    for (int sh = 0; sh < 128; sh += 7) {
        if (r->pos == r->len) return -1;
        uint8_t b = r->buf[r->pos++];
        v |= (eo_u128)(b & 0x7f) << sh;
        if (!(b & 0x80)) {
            *out = v;
            return 0;
        }
    }
    return -1;
}

/* The next entry's record, as a number, into r->prev: 1, 0 at the end, -1 where the
 * file is damaged (its parent, in a run, left to read). */
static inline int eo_pr_step(eo_preader *r) {
    eo_pr_fill(r);
    if (r->pos == r->len) return 0;
    eo_u128 v;
    if (eo_pr_u(r, &v) != 0 || r->prev + v < r->prev) return -1;
    r->prev += v;
    return 1;
}

/* The next entry: 1 (its record in *s; with `parent`, a run's, its parent in *parent),
 * 0 at the end, -1 where the file is damaged. */
static int eo_pr_next(eo_preader *r, eo_crec *s, eo_crec *parent) {
    int rc = eo_pr_step(r);
    if (rc != 1) return rc;
    *s = eo_u_crec(r->prev);
    if (parent) {
        if (r->pos == r->len) return -1;
        uint8_t tag = r->buf[r->pos++];
        eo_u128 lo = 0, hi = 0;
        if (tag > 2 || (tag && (eo_pr_u(r, &lo) != 0 || lo >> 64)) ||
            (tag == 2 && (eo_pr_u(r, &hi) != 0 || hi >> 64)))
            return -1;
        parent->lo = tag ? (uint64_t)lo : UINT64_MAX;
        parent->hi = tag ? (uint64_t)hi : UINT64_MAX;
    }
    return 1;
}

typedef struct {
    eo_ctx *x;
    char dir[4096];
    int made;
    size_t max_disk, used, peak;
    long base;     /* states entered before the disk search */
    long expanded; /* states expanded on disk */
    int nlayers;   /* layer files L0 .. L(nlayers - 1) */
    long *layer_n; /* states of each layer */
    size_t *layer_b; /* bytes of each layer's file */
    int layer_cap;
    int nrec;      /* layers 0 .. nrec - 1 hold records with their parents' (eo_drec) */
    int l0_bare;   /* but layer 0 holds records alone, their parents (where known) in T0 */
    long t0_n;     /* the entries of T0 */
    int nruns, run_seq;
    eo_drec *buf;
    size_t nbuf, capbuf;
    unsigned long work;
    /* a kept search (below, "Kept searches"): its files stay where a limit stops it */
    int keep, saved;   /* kept; its manifest written at least once */
    int lockfd;        /* the lock held on its directory (-1: none) */
    size_t big_saved;  /* the full keys written to its file B */
    int sittings;      /* the runs it has had, this one included */
    double seconds0;   /* the CPU seconds on disk of the runs before */
    double cpu0;       /* this thread's CPU time when this run began */
    /* the expansion of a layer by several threads (eo_disk_expand) */
    int threads;            /* 1: this one alone */
    pthread_mutex_t mu;     /* the layer's reading, run numbers, bytes, the table of full keys */
    FILE *lf;               /* the layer being expanded (a layer of records with parents) */
    eo_preader lr;          /* or (packed) */
    int lpacked;
    double wcpu[EO_DISK_MAXTHREADS]; /* each other thread's CPU seconds in this expansion */
    int won;                /* a won child found: its parent's record, the step */
    eo_crec win_rec;
    eo_move win_move;
} eo_disk;

/* Which thread of the expansion this is (0: the search's own). */
static __thread int eo_disk_thread;

/* Set the search's status where it is still running (the first reason to stop wins:
 * the threads of an expansion may find two at once). */
static void eo_disk_fail(eo_disk *d, int status) {
    int running = EO_RUNNING;
    __atomic_compare_exchange_n(&d->x->status, &running, status, 0, __ATOMIC_SEQ_CST,
                                __ATOMIC_SEQ_CST);
}

static int eo_disk_running(const eo_disk *d) {
    return __atomic_load_n(&d->x->status, __ATOMIC_SEQ_CST) == EO_RUNNING &&
           !__atomic_load_n(&d->won, __ATOMIC_SEQ_CST);
}

static void eo_disk_path(const eo_disk *d, char *out, const char *kind, int i) {
    snprintf(out, 4160, "%s/%s%d", d->dir, kind, i);
}

/* Remove a directory of the disk search and the files in it (flat). */
static void eo_disk_rmdir(const char *dir) {
    DIR *dp = opendir(dir);
    if (dp) {
        struct dirent *e;
        char p[4400];
        while ((e = readdir(dp)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
            unlink(p);
        }
        closedir(dp);
    }
    rmdir(dir);
}

/* The directory the disk search makes its own directory in: x->disk_dir, else TMPDIR,
 * else /tmp. */
static const char *eo_disk_root_dir(const eo_ctx *x) {
    const char *root_dir = x->disk_dir && x->disk_dir[0] ? x->disk_dir : getenv("TMPDIR");
    return root_dir && root_dir[0] ? root_dir : "/tmp";
}

/* Remove the directories left by disk searches whose process is gone (kill -9); a kept
 * search's directory (eightoff-keep-...) is not one of them. */
static void eo_disk_clean_stale(const char *base) {
    DIR *dp = opendir(base);
    if (!dp) return;
    struct dirent *e;
    char p[4400];
    while ((e = readdir(dp)) != NULL) {
        const char *pre = "eightoff-disk-";
        if (strncmp(e->d_name, pre, strlen(pre)) != 0) continue;
        long pid = strtol(e->d_name + strlen(pre), NULL, 10);
        if (pid <= 0 || (kill((pid_t)pid, 0) == 0 || errno != ESRCH)) continue;
        snprintf(p, sizeof(p), "%s/%s", base, e->d_name);
        eo_disk_rmdir(p);
    }
    closedir(dp);
}

/* Account for n more bytes on disk; nonzero (status EO_DISK_LIMIT) past the limit. */
static int eo_disk_grow(eo_disk *d, size_t n) {
    pthread_mutex_lock(&d->mu);
    d->used += n;
    if (d->used > d->peak) d->peak = d->used;
    int over = d->used > d->max_disk;
    pthread_mutex_unlock(&d->mu);
    if (over) {
        eo_disk_fail(d, EO_DISK_LIMIT);
        return -1;
    }
    return 0;
}

static void eo_disk_unlink(eo_disk *d, const char *path) {
    struct stat st;
    if (stat(path, &st) == 0) {
        d->used -= (size_t)st.st_size < d->used ? (size_t)st.st_size : d->used;
        unlink(path);
    }
}

/* The CPU seconds of the search's other threads in the expansion under way. */
static double eo_disk_wcpu(eo_disk *d) {
    double sum = 0, v;
    for (int w = 1; w < d->threads; w++) {
        __atomic_load(&d->wcpu[w], &v, __ATOMIC_RELAXED);
        sum += v;
    }
    return sum;
}

/* The time limit and the signals, checked now; nonzero (status set) when one ends it.
 * In another thread of an expansion: the signals, and whether the search still runs
 * (the search's own thread keeps the clock, which counts every thread's CPU time). */
static int eo_disk_halted(eo_disk *d) {
    if (eo_signal) {
        eo_disk_fail(d, EO_INTERRUPTED);
        return 1;
    }
    if (eo_disk_thread) { /* its CPU clock began with the thread */
        double v = eo_cpu_now();
        __atomic_store(&d->wcpu[eo_disk_thread], &v, __ATOMIC_RELAXED);
        return !eo_disk_running(d);
    }
    if (d->x->deadline > 0 &&
        eo_clock(d->x) + (d->threads > 1 ? eo_disk_wcpu(d) : 0) > d->x->deadline) {
        eo_disk_fail(d, EO_TIME_LIMIT);
        return 1;
    }
    return 0;
}

/* The same, checked every 1024th call (in the loops over states). */
static int eo_disk_stop(eo_disk *d, unsigned long *work) {
    return (++*work & 1023) == 0 && eo_disk_halted(d);
}

static FILE *eo_disk_open(const char *path, const char *mode) {
    FILE *f = fopen(path, mode);
    if (f) setvbuf(f, NULL, _IOFBF, EO_DISK_IOBUF);
    return f;
}

/* Write n items of size sz, accounted; nonzero on failure (a full disk: the disk limit). */
static int eo_disk_write(eo_disk *d, FILE *f, const void *p, size_t sz, size_t n) {
    if (eo_disk_grow(d, sz * n) != 0) return -1;
    if (fwrite(p, sz, n, f) != n) {
        eo_disk_fail(d, EO_DISK_LIMIT);
        return -1;
    }
    return 0;
}

static int eo_disk_close(eo_disk *d, FILE *f) {
    if (fclose(f) != 0) {
        eo_disk_fail(d, EO_DISK_LIMIT);
        return -1;
    }
    return 0;
}

/* A packed file written in order. */
typedef struct {
    eo_disk *d;
    FILE *f;
    eo_u128 prev;
    uint8_t *buf;
    size_t n;
} eo_pwriter;

/* Make a packed file to write; nonzero (status EO_DISK_LIMIT) when it cannot. */
static int eo_pw_open(eo_disk *d, eo_pwriter *w, const char *path) {
    w->d = d;
    w->prev = 0;
    w->n = 0;
    w->buf = (uint8_t *)malloc(EO_PACK_BUF);
    w->f = w->buf ? eo_disk_open(path, "wb") : NULL;
    if (!w->f) {
        free(w->buf);
        w->buf = NULL;
        eo_disk_fail(d, EO_DISK_LIMIT);
        return -1;
    }
    return 0;
}

static inline void eo_pw_u(eo_pwriter *w, eo_u128 v) {
    uint8_t *p = w->buf + w->n;
    for (; v >= 0x80; v >>= 7) *p++ = (uint8_t)v | 0x80;
    *p++ = (uint8_t)v;
    w->n = (size_t)(p - w->buf);
}

/* The buffer written (accounted) and emptied.  Nonzero when it cannot be (status set). */
static int eo_pw_write(eo_pwriter *w) {
    int rc = w->n ? eo_disk_write(w->d, w->f, w->buf, 1, w->n) : 0;
    w->n = 0;
    return rc;
}

/* The same, with the time limit and the signals checked first: a run of a large memory
 * limit is gigabytes.  Nonzero when it stops (status set). */
static int eo_pw_flush(eo_pwriter *w) {
    if (eo_disk_halted(w->d)) return -1;
    return eo_pw_write(w);
}

/* Append record s (not below the one before it) and, to a run, its parent. */
static inline int eo_pw_put(eo_pwriter *w, const eo_crec *s, const eo_crec *parent) {
    eo_u128 v = eo_crec_u(s);
    eo_pw_u(w, v - w->prev);
    w->prev = v;
    if (parent) {
        int tag = parent->hi == UINT64_MAX && parent->lo == UINT64_MAX ? 0 : parent->hi ? 2 : 1;
        w->buf[w->n++] = (uint8_t)tag;
        if (tag) eo_pw_u(w, parent->lo);
        if (tag == 2) eo_pw_u(w, parent->hi);
    }
    return w->n > EO_PACK_BUF - EO_PACK_MAX ? eo_pw_flush(w) : 0;
}

/* The rest written and the file closed; nonzero (status set) when it cannot be. */
static int eo_pw_close(eo_pwriter *w) {
    int bad = eo_pw_write(w) != 0;
    if (eo_disk_close(w->d, w->f) != 0) bad = 1;
    free(w->buf);
    w->buf = NULL;
    w->f = NULL;
    return bad ? -1 : 0;
}

static inline int eo_drec_less(const eo_drec *a, const eo_drec *b) {
    if (a->s.hi != b->s.hi) return a->s.hi < b->s.hi;
    if (a->s.lo != b->s.lo) return a->s.lo < b->s.lo;
    if (a->p.hi != b->p.hi) return a->p.hi < b->p.hi;
    return a->p.lo < b->p.lo;
}

/* The 8 bits of a record's 128 (hi's, then lo's, from the top) from bit b on; zeros
 * past the last. */
static inline unsigned eo_crec_byte(const eo_crec *s, int b) {
    if (b <= 56) return (unsigned)(s->hi >> (56 - b)) & 255;
    if (b < 64) return (unsigned)((s->hi << (b - 56)) | (s->lo >> (120 - b))) & 255;
    if (b <= 120) return (unsigned)(s->lo >> (120 - b)) & 255;
    return (unsigned)(s->lo << (b - 120)) & 255;
}

#define EO_RADIX_MIN 64 /* parts of at most this many entries go to the introsort */

/* The sorts of the take-overs' entries, a record and its parent's (disksort.h) */
#define EO_ST eo_drec
#define EO_SN(name) eo_drec_##name
#define EO_SLESS(a, b) eo_drec_less(a, b)
#define EO_SREC(e) ((e).s)
#define EO_SPARENT(e) (&(e).p)
#include "disksort.h"

/* The sorts of the children of a layer made on disk, records alone (disksort.h): half
 * the bytes of an eo_drec, so a buffer of the memory limit holds twice as many children
 * and a layer is written in half as many runs. */
static inline int eo_crec_less(const eo_crec *a, const eo_crec *b) {
    return a->hi != b->hi ? a->hi < b->hi : a->lo < b->lo;
}

static const eo_crec eo_no_parent = {UINT64_MAX, UINT64_MAX}; /* a run's tag 0: none */

#define EO_ST eo_crec
#define EO_SN(name) eo_crec_##name
#define EO_SLESS(a, b) eo_crec_less(a, b)
#define EO_SREC(e) (e)
#define EO_SPARENT(e) (&eo_no_parent)
#include "disksort.h"

/* The buffer of the take-over as a run. */
static int eo_disk_flush(eo_disk *d) { return eo_drec_flush(d, d->buf, &d->nbuf); }

/* A run read in order: its current entry (has). */
typedef struct {
    eo_preader r;
    eo_drec cur;
    int has;
} eo_dreader;

/* The next entry; nonzero (status EO_DISK_LIMIT) where the run is damaged. */
static inline int eo_dreader_next(eo_disk *d, eo_dreader *r) {
    int rc = eo_pr_next(&r->r, &r->cur.s, &r->cur.p);
    r->has = rc == 1;
    if (rc < 0) eo_disk_fail(d, EO_DISK_LIMIT);
    return rc < 0;
}

/* Whether layer j's file is packed (records alone), else records with their parents'. */
static int eo_disk_packed(const eo_disk *d, int j) { return j >= d->nrec || (j == 0 && d->l0_bare); }

/* The size of an entry of layer j as it is read (the record first in either kind). */
static size_t eo_disk_esz(const eo_disk *d, int j) {
    return eo_disk_packed(d, j) ? sizeof(eo_crec) : sizeof(eo_drec);
}

/* The states seen: every layer's file, each read in order by a reader of its own, moved
 * forward to the children asked for (eo_seen_batch; a state in two layers, as a
 * take-over's layer 1 is in its layer 0, is seen in either).  A record layer's entries
 * are eo_drec, an index layer's eo_crec; either way the record comes first.  A layer of
 * records is read a block at a time into the reader's buffer, and moved forward to a
 * record asked for by a binary search in the block (a block whose last record is below
 * it is passed over whole), so that a layer of hundreds of millions of states (a
 * take-over's layer 0) costs little more than its reading where few of the children
 * asked for fall in it; a packed layer is read on to it, record by record. */
typedef struct {
    FILE *f;
    eo_crec cur;
    size_t esz;
    uint8_t *buf;
    size_t pos, len, cap; /* entries: the current one, those in the buffer, its room */
    int packed;           /* a packed layer instead, read in order through pr */
    eo_preader pr;
    unsigned long work;
} eo_sreader;

typedef struct {
    eo_sreader *r; /* the readers not at their end, in no order */
    int n;
    uint8_t *bufs;
} eo_seen;

static inline eo_crec eo_sreader_at(const eo_sreader *r, size_t i) {
    eo_crec c;
    memcpy(&c, r->buf + i * r->esz, sizeof(c));
    return c;
}

/* Move r to its first record not below s (r->cur): 1; 0 when the file has none left;
 * -1 when it stops (status set: the time limit and the signals, checked at each block
 * read). */
static int eo_sreader_seek(eo_disk *d, eo_sreader *r, const eo_crec *s) {
    if (r->packed) { /* read on to it (the checks every 1,024 records), the records
                          compared as numbers */
        eo_preader *p = &r->pr;
        const eo_u128 to = eo_crec_u(s);
        int rc;
        while ((rc = eo_pr_step(p)) == 1) {
            if (p->prev >= to) {
                r->cur = eo_u_crec(p->prev);
                return 1;
            }
            if (eo_disk_stop(d, &r->work)) return -1;
        }
        if (rc < 0) eo_disk_fail(d, EO_DISK_LIMIT);
        return rc;
    }
    for (;;) {
        if (r->pos == r->len) {
            if (eo_disk_halted(d)) return -1;
            r->len = fread(r->buf, r->esz, r->cap, r->f);
            r->pos = 0;
            if (!r->len) return 0;
        }
        eo_crec last = eo_sreader_at(r, r->len - 1);
        if (eo_crec_cmp(&last, s) < 0) {
            r->pos = r->len; /* the whole block is below s */
            continue;
        }
        size_t lo = r->pos, hi = r->len - 1; /* the first not below s is in [lo, hi] */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            eo_crec m = eo_sreader_at(r, mid);
            if (eo_crec_cmp(&m, s) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        r->pos = lo;
        r->cur = eo_sreader_at(r, lo);
        return 1;
    }
}

static void eo_sreader_close(eo_sreader *r) {
    if (r->packed)
        eo_pr_close(&r->pr);
    else
        fclose(r->f);
}

static void eo_seen_close(eo_seen *v) {
    for (int i = 0; i < v->n; i++) eo_sreader_close(&v->r[i]);
    free(v->r);
    free(v->bufs);
    memset(v, 0, sizeof(*v));
}

/* Open layers 0 .. nlayers - 1, each with a reader of its own; nonzero when it cannot
 * (a file that does not open: status left for the caller; stopped: status set).  Their
 * buffers share about a 32nd of the memory limit (16 KiB to 1 MiB each). */
static int eo_seen_open(eo_disk *d, eo_seen *v) {
    memset(v, 0, sizeof(*v));
    int k = d->nlayers;
    if (!k) return 0;
    size_t mem = d->x->max_mem ? d->x->max_mem : (size_t)1 << 30;
    size_t bsz = mem / 32 / (size_t)k;
    if (bsz > EO_DISK_IOBUF) bsz = EO_DISK_IOBUF;
    if (bsz < ((size_t)16 << 10)) bsz = (size_t)16 << 10;
    bsz -= bsz % sizeof(eo_drec);
    v->r = (eo_sreader *)malloc((size_t)k * sizeof(eo_sreader));
    v->bufs = (uint8_t *)calloc((size_t)k, bsz);
    if (!v->r || !v->bufs) {
        eo_seen_close(v);
        return -1;
    }
    char path[4160];
    eo_crec least;
    least.hi = least.lo = 0;
    for (int j = 0; j < k; j++) {
        eo_disk_path(d, path, "L", j);
        eo_sreader *r = &v->r[v->n];
        memset(r, 0, sizeof(*r));
        r->packed = eo_disk_packed(d, j);
        r->buf = v->bufs + (size_t)j * bsz;
        if (r->packed) {
            if (eo_pr_open(&r->pr, path, r->buf, bsz) != 0) {
                eo_seen_close(v);
                return -1;
            }
        } else {
            r->f = fopen(path, "rb");
            if (!r->f) {
                eo_seen_close(v);
                return -1;
            }
            setvbuf(r->f, NULL, _IONBF, 0); /* read straight into the reader's buffer */
            r->esz = eo_disk_esz(d, j);
            r->cap = bsz / r->esz;
        }
        int rc = eo_sreader_seek(d, r, &least);
        if (rc <= 0) {
            eo_sreader_close(r);
            if (rc < 0) {
                eo_seen_close(v);
                return -1;
            }
            continue; /* an empty layer */
        }
        v->n++;
    }
    return 0;
}

/* Which children of a batch b[0 .. n) (ascending, each above every child asked for
 * before) a layer seen holds: in[i] set for those.  Layer by layer: each reader is moved
 * forward to each child above its current record and compared, and the children below
 * its current record are passed over by a galloping search, so that a seen record costs
 * its reading and a comparison.  (A heap of the readers by their current records, as
 * before, sifted at nearly every seen record: with billions of them a layer that was
 * most of the merge.)  -1 when it stops (status set). */
static int eo_seen_batch(eo_disk *d, eo_seen *v, const eo_drec *b, size_t n, uint8_t *in) {
    memset(in, 0, n);
    for (int h = 0; h < v->n;) {
        eo_sreader *r = &v->r[h];
        int ended = 0;
        for (size_t i = 0; i < n;) {
            int c = eo_crec_cmp(&r->cur, &b[i].s);
            if (c == 0) {
                in[i++] = 1;
            } else if (c < 0) {
                int rc = eo_sreader_seek(d, r, &b[i].s);
                if (rc < 0) return -1;
                if (rc == 0) {
                    ended = 1;
                    break;
                }
            } else { /* b[i] below the reader's record: the first child not below it */
                size_t lo = i, hi = i + 1, step = 1;
                while (hi < n && eo_crec_cmp(&b[hi].s, &r->cur) < 0) {
                    lo = hi;
                    step <<= 1;
                    hi = lo + step < n ? lo + step : n;
                }
                while (hi - lo > 1) { /* b[lo] below, b[hi] (or the end) not */
                    size_t mid = lo + (hi - lo) / 2;
                    if (eo_crec_cmp(&b[mid].s, &r->cur) < 0)
                        lo = mid;
                    else
                        hi = mid;
                }
                i = hi;
            }
        }
        if (ended) {
            eo_sreader_close(r);
            *r = v->r[--v->n]; /* its buffer a part of bufs: moved with it */
        } else {
            h++;
        }
    }
    return 0;
}

/* How eo_disk_merge writes what it keeps */
#define EO_OUT_RUN 0   /* the entries as they are to `out`, a packed run */
#define EO_OUT_DREC 1  /* the same, a layer of records with their parents' (eo_drec) */
#define EO_OUT_INDEX 2 /* the records to `out`, packed (an index layer) */
#define EO_OUT_BARE 3  /* the records to `out`, packed; the entries with a parent to `pout` */

/* The next entry of the merge of runs rd[0 .. k): the least child (with its least
 * parent), every run moved past it; 1, 0 when every run is read, -1 where a run is
 * damaged (status set). */
static inline int eo_runs_next(eo_disk *d, eo_dreader *rd, int k, eo_drec *e) {
    int best = -1;
    for (int i = 0; i < k; i++)
        if (rd[i].has && (best < 0 || eo_drec_cmp(&rd[i].cur, &rd[best].cur) < 0)) best = i;
    if (best < 0) return 0;
    *e = rd[best].cur;
    for (int i = 0; i < k; i++) /* the same child in every run: the least parent is e */
        while (rd[i].has && eo_crec_cmp(&rd[i].cur.s, &e->s) == 0)
            if (eo_dreader_next(d, &rd[i]) != 0) return -1;
    return 1;
}

/* A merge against the states seen on two threads (eo_disk_merge, with d->threads > 1):
 * another thread merges the runs and hands the children over in batches, in order,
 * while the merge's own thread passes them by the seen layers and writes what is new.
 * The merge, which one thread made alone while the other core idled, takes as long as
 * the slower half (on FreeCell 982 with 2 cells, past 20 layers, the seen side); the
 * entries and the file are the same. */
#define EO_PIPE_BATCH 4096
#define EO_PIPE_SLOTS 8
typedef struct {
    eo_disk *d;
    eo_dreader *rd;
    int k;
    eo_drec *buf;              /* EO_PIPE_SLOTS batches of EO_PIPE_BATCH entries */
    size_t n[EO_PIPE_SLOTS];   /* the entries of each batch */
    long made, taken;          /* batches handed over, and given back */
    int end, quit;             /* the runs' thread is done (all read, or it stopped);
                                  the merge's thread stopped: the runs' thread quits */
    pthread_mutex_t mu;
    pthread_cond_t cv;
} eo_pipe;

/* The runs' thread: batches of entries, each as soon as a slot is free. */
static void *eo_pipe_work(void *arg) {
    eo_pipe *p = (eo_pipe *)arg;
    eo_disk *d = p->d;
    eo_disk_thread = 1; /* its CPU time in d->wcpu[1], added to the search's by the caller */
    unsigned long work = 0;
    for (int more = 1; more;) {
        pthread_mutex_lock(&p->mu);
        while (p->made - p->taken == EO_PIPE_SLOTS && !p->quit) pthread_cond_wait(&p->cv, &p->mu);
        int quit = p->quit;
        pthread_mutex_unlock(&p->mu);
        if (quit) break;
        int slot = (int)(p->made % EO_PIPE_SLOTS);
        eo_drec *b = p->buf + (size_t)slot * EO_PIPE_BATCH;
        size_t n = 0;
        while (n < EO_PIPE_BATCH) {
            int rc = eo_disk_stop(d, &work) ? -1 : eo_runs_next(d, p->rd, p->k, &b[n]);
            if (rc != 1) {
                more = 0; /* read to the end, or stopped (status set: the merge's thread
                             sees it once it has taken the batches made) */
                break;
            }
            n++;
        }
        pthread_mutex_lock(&p->mu);
        p->n[slot] = n;
        p->made++;
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
    }
    double v = eo_cpu_now();
    __atomic_store(&d->wcpu[1], &v, __ATOMIC_RELAXED);
    pthread_mutex_lock(&p->mu); /* done: read to the end, stopped, or told to quit */
    p->end = 1;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* The merge's step for one new child e (the least parent's entry): written as `how`
 * says and counted in *kept (and in *kept2, written to fp with EO_OUT_BARE).  Nonzero
 * when it stops (status set, or left for eo_disk_merge). */
static inline int eo_merge_put(eo_disk *d, int how, eo_pwriter *pw, FILE *fo, FILE *fp,
                               const eo_drec *e, long *kept, long *kept2) {
    if (how == EO_OUT_RUN) {
        if (eo_pw_put(pw, &e->s, &e->p) != 0) return -1;
    } else if (how == EO_OUT_DREC) {
        if (eo_disk_write(d, fo, e, sizeof(*e), 1) != 0) return -1;
    } else {
        if (eo_pw_put(pw, &e->s, NULL) != 0) return -1;
        if (how == EO_OUT_BARE && (e->p.hi != UINT64_MAX || e->p.lo != UINT64_MAX)) {
            /* a parent known */
            if (eo_disk_write(d, fp, e, sizeof(*e), 1) != 0) return -1;
            ++*kept2;
        }
    }
    ++*kept;
    return 0;
}

/* The merge's step for a batch of children b[0 .. n) (ascending, one entry a child, the
 * least parent's): those a layer seen holds dropped (expanded already or queued), the
 * others written (eo_merge_put).  Every entry counts towards the checks, the seen ones
 * too (late layers drop most children; the layers seen are gigabytes).  in: n bytes of
 * room.  Nonzero when it stops (status set, or left for eo_disk_merge). */
static int eo_merge_batch(eo_disk *d, eo_seen *sv, const eo_drec *b, size_t n, uint8_t *in,
                          int how, eo_pwriter *pw, FILE *fo, FILE *fp, long *kept,
                          long *kept2) {
    if (eo_seen_batch(d, sv, b, n, in) != 0) return -1;
    for (size_t i = 0; i < n; i++) {
        if (eo_disk_stop(d, &d->work)) return -1;
        if (!in[i] && eo_merge_put(d, how, pw, fo, fp, &b[i], kept, kept2) != 0) return -1;
    }
    return 0;
}

/* eo_disk_merge's merge against the states seen on two threads (eo_pipe): the runs'
 * thread started, the children it hands over taken batch by batch (eo_seen_batch, then
 * eo_merge_put for each new one).  0
 * when done, -1 when it stops (status set), 1 when no thread could be made (then
 * nothing is read: the caller merges alone). */
static int eo_merge_piped(eo_disk *d, eo_dreader *rd, int k, eo_seen *sv, int how,
                          eo_pwriter *pw, FILE *fo, FILE *fp, long *kept, long *kept2) {
    eo_pipe p;
    memset(&p, 0, sizeof(p));
    uint8_t in[EO_PIPE_BATCH]; /* which children of a batch are seen (eo_seen_batch) */
    p.d = d;
    p.rd = rd;
    p.k = k;
    p.buf = (eo_drec *)malloc(sizeof(eo_drec) * EO_PIPE_SLOTS * EO_PIPE_BATCH);
    if (!p.buf) return 1;
    if (pthread_mutex_init(&p.mu, NULL) != 0) {
        free(p.buf);
        return 1;
    }
    if (pthread_cond_init(&p.cv, NULL) != 0) {
        pthread_mutex_destroy(&p.mu);
        free(p.buf);
        return 1;
    }
    d->wcpu[1] = 0;
    pthread_t tid;
    int rc = 1;
    if (pthread_create(&tid, NULL, eo_pipe_work, &p) == 0) {
        int ok = 1;
        for (long taken = 0; ok;) { /* each batch in turn, as the runs' thread makes them */
            pthread_mutex_lock(&p.mu);
            while (p.made == taken && !p.end) pthread_cond_wait(&p.cv, &p.mu);
            int has = p.made > taken;
            pthread_mutex_unlock(&p.mu);
            if (!has) break;
            int slot = (int)(taken % EO_PIPE_SLOTS);
            const eo_drec *b = p.buf + (size_t)slot * EO_PIPE_BATCH;
            ok = eo_merge_batch(d, sv, b, p.n[slot], in, how, pw, fo, fp, kept, kept2) == 0;
            pthread_mutex_lock(&p.mu);
            p.taken = ++taken;
            if (!ok) p.quit = 1;
            pthread_cond_broadcast(&p.cv);
            pthread_mutex_unlock(&p.mu);
        }
        pthread_join(tid, NULL);
        d->x->cpu_extra += d->wcpu[1];
        d->wcpu[1] = 0;
        /* a run damaged or a stop in the runs' thread: the status says so */
        if (ok && __atomic_load_n(&d->x->status, __ATOMIC_SEQ_CST) != EO_RUNNING) ok = 0;
        rc = ok ? 0 : -1;
    }
    pthread_cond_destroy(&p.cv);
    pthread_mutex_destroy(&p.mu);
    free(p.buf);
    return rc;
}

/* Merge runs R[first .. first + k) into one stream, one entry per child (the least
 * parent), written to layer file `out` (and `pout`) as `how` says.  With `seen`,
 * children in layers 0 .. d->nlayers - 1 are dropped (with d->threads > 1 on two
 * threads: eo_pipe).  The entries kept are counted in *kept, those written to `pout`
 * with EO_OUT_BARE in *kept2.  The runs are removed.  Nonzero when it stops (status
 * set). */
static int eo_disk_merge(eo_disk *d, int first, int k, const char *out, const char *pout,
                         int how, int seen, long *kept, long *kept2) {
    eo_dreader rd[EO_DISK_MAXRUNS];
    char path[4160];
    FILE *fo = NULL, *fp = NULL;
    eo_pwriter pw;
    memset(&pw, 0, sizeof(pw));
    eo_seen sv;
    memset(&sv, 0, sizeof(sv));
    int ok = 0, n = 0;
    *kept = 0;
    if (kept2) *kept2 = 0;
    for (; n < k; n++) {
        eo_disk_path(d, path, "R", first + n);
        if (eo_pr_open(&rd[n].r, path, NULL, 0) != 0) goto done;
        if (eo_dreader_next(d, &rd[n]) != 0) {
            n++;
            goto done;
        }
    }
    if (how == EO_OUT_DREC ? !(fo = eo_disk_open(out, "wb")) : eo_pw_open(d, &pw, out) != 0)
        goto done;
    if (how == EO_OUT_BARE && !(fp = eo_disk_open(pout, "wb"))) goto done;
    if (seen && eo_seen_open(d, &sv) != 0) goto done;
    if (seen && d->threads > 1) {
        int rc = eo_merge_piped(d, rd, k, &sv, how, &pw, fo, fp, kept, kept2);
        if (rc <= 0) {
            ok = rc == 0;
            goto done;
        }
        /* no thread could be made: the merge alone, as below */
    }
    for (int rc = 1; rc == 1;) { /* a batch at a time, as the runs' thread hands them over */
        eo_drec b[EO_PIPE_BATCH];
        uint8_t in[EO_PIPE_BATCH];
        size_t got = 0;
        while (got < EO_PIPE_BATCH && (rc = eo_runs_next(d, rd, k, &b[got])) == 1) got++;
        if (rc < 0 || eo_merge_batch(d, &sv, b, got, in, how, &pw, fo, fp, kept, kept2) != 0)
            goto done;
    }
    ok = 1;
done:
    for (int i = 0; i < n; i++) eo_pr_close(&rd[i].r);
    for (int i = 0; i < k; i++) {
        eo_disk_path(d, path, "R", first + i);
        eo_disk_unlink(d, path);
    }
    eo_seen_close(&sv);
    if (fp && eo_disk_close(d, fp) != 0) ok = 0;
    if (fo && eo_disk_close(d, fo) != 0) ok = 0;
    if (pw.f && eo_pw_close(&pw) != 0) ok = 0;
    if (!ok && d->x->status == EO_RUNNING) d->x->status = EO_DISK_LIMIT;
    return ok ? 0 : -1;
}

/* Runs merged EO_DISK_MAXRUNS at a time until at most that many are left. */
static int eo_disk_reduce_runs(eo_disk *d) {
    while (d->nruns > EO_DISK_MAXRUNS) {
        int next = d->run_seq + d->nruns, made = 0;
        for (int first = d->run_seq; first < d->run_seq + d->nruns; first += EO_DISK_MAXRUNS) {
            int k = d->run_seq + d->nruns - first;
            if (k > EO_DISK_MAXRUNS) k = EO_DISK_MAXRUNS;
            char out[4160];
            long kept;
            eo_disk_path(d, out, "R", next + made);
            if (eo_disk_merge(d, first, k, out, NULL, EO_OUT_RUN, 0, &kept, NULL) != 0) return -1;
            made++;
        }
        d->run_seq = next;
        d->nruns = made;
    }
    return 0;
}

/* The record of s (compact.h), or EO_CBIG | its id in the table of full keys (under
 * the lock: the threads of an expansion share the table). */
static int eo_disk_record(eo_disk *d, const eo_state *s, eo_crec *out) {
    eo_ctx *x = d->x;
    if (eo_cencode(&x->C, EO_R(x), s, out) == 0) return 0;
    uint8_t key[EO_MAXKEY];
    int len = eo_key(EO_R(x), s, key);
    pthread_mutex_lock(&d->mu);
    long bid = eo_table_insert(&x->C.recs.big, key, len);
    pthread_mutex_unlock(&d->mu);
    if (bid == -1) {
        eo_disk_fail(d, EO_MEMORY_LIMIT);
        return -1;
    }
    out->lo = (uint64_t)(bid >= 0 ? bid : -bid - 2);
    out->hi = EO_CBIG;
    return 0;
}

/* Read entry i, of sz bytes, of file f into out. */
static int eo_disk_entry(FILE *f, long i, size_t sz, void *out) {
    return fseeko(f, (off_t)i * (off_t)sz, SEEK_SET) == 0 && fread(out, sz, 1, f) == 1 ? 0 : -1;
}

/* The parent of record s in layer j (binary search); nonzero if absent. */
static int eo_disk_parent(eo_disk *d, int j, const eo_crec *s, eo_crec *p) {
    char path[4160];
    int bare = j == 0 && d->l0_bare; /* then in T0 */
    eo_disk_path(d, path, bare ? "T" : "L", j);
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    long lo = 0, hi = bare ? d->t0_n : d->layer_n[j];
    int found = -1;
    while (lo < hi) {
        long mid = lo + (hi - lo) / 2;
        eo_drec e;
        if (eo_disk_entry(f, mid, sizeof(e), &e) != 0) break;
        int c = eo_crec_cmp(&e.s, s);
        if (c == 0) {
            *p = e.p;
            found = 0;
            break;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    fclose(f);
    return found;
}

/* A parent of the state of record `child`, a state of index layer j >= 1: the first state
 * of layer j - 1, in file order, one of whose steps leads to it (eo_step_to: the steps
 * of the search, each with its auto-moves; states compared by canonical key).  Every
 * state of an index layer was made so from a state of the layer before, so there is
 * one.  Nonzero if none is found or the layer is unreadable. */
static int eo_disk_scan_parent(eo_disk *d, int j, const eo_crec *child, eo_crec *p) {
    eo_ctx *x = d->x;
    char path[4160];
    eo_state a;
    uint8_t want[EO_MAXKEY];
    eo_move m;
    eo_cdecode(&x->C, EO_R(x), child, &a);
    int wn = eo_key(EO_R(x), &a, want);
    eo_disk_path(d, path, "L", j - 1);
    int found = -1;
    if (eo_disk_packed(d, j - 1)) {
        eo_preader r;
        if (eo_pr_open(&r, path, NULL, 0) != 0) return -1;
        while (found < 0 && eo_pr_next(&r, p, NULL) == 1) {
            eo_cdecode(&x->C, EO_R(x), p, &a);
            if (eo_step_to(x, &a, want, wn, &m) == 0) found = 0;
        }
        eo_pr_close(&r);
        return found;
    }
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    eo_drec e;
    while (found < 0 && fread(&e, sizeof(e), 1, f) == 1) {
        eo_cdecode(&x->C, EO_R(x), &e.s, &a);
        if (eo_step_to(x, &a, want, wn, &m) == 0) {
            *p = e.s;
            found = 0;
        }
    }
    fclose(f);
    return found;
}

/* The path: root (x->S, real layout, its auto-moves on the path) to the state of record
 * `last_parent`, a state of layer `depth`, then the step `last` from there.  A state
 * of an index layer (j >= d->nrec) has a parent in layer j - 1 that eo_disk_scan_parent
 * finds; a state of a record layer j >= 1 has its parent's record, found in layer j - 1
 * by binary search; a state of layer 0 has its parent in layer 0 too (the states taken
 * over from memory, each with its parent there), the root its own. */
static int eo_disk_trace(eo_disk *d, int depth, eo_crec last_parent, eo_move last) {
    eo_ctx *x = d->x;
    size_t n = 1, cap = (size_t)depth + 64;
    eo_crec *chain = (eo_crec *)malloc(cap * sizeof(eo_crec)); /* from the end back */
    if (!chain) return -1;
    chain[0] = last_parent;
    for (int j = depth;;) {
        eo_crec p;
        if (j >= d->nrec ? eo_disk_scan_parent(d, j, &chain[n - 1], &p) != 0
                         : eo_disk_parent(d, j, &chain[n - 1], &p) != 0 ||
                               n > (size_t)d->layer_n[0] + (size_t)depth + 1) {
            free(chain);
            return -1;
        }
        if (j == 0 && eo_crec_cmp(&p, &chain[n - 1]) == 0) break; /* the root */
        if (n == cap) {
            eo_crec *q = (eo_crec *)realloc(chain, 2 * cap * sizeof(eo_crec));
            if (!q) {
                free(chain);
                return -1;
            }
            chain = q;
            cap *= 2;
        }
        chain[n++] = p;
        if (j > 0) j--;
    }
    eo_state a, b;
    uint8_t want[EO_MAXKEY];
    for (size_t k = n; k-- > 0;) { /* chain[n - 1] is the root, chain[0] the won child's parent */
        eo_move m = last;
        eo_cdecode(&x->C, EO_R(x), &chain[k], &a);
        if (k > 0) {
            eo_cdecode(&x->C, EO_R(x), &chain[k - 1], &b);
            int wn = eo_key(EO_R(x), &b, want);
            if (eo_step_to(x, &a, want, wn, &m) != 0) {
                free(chain);
                return -1;
            }
        }
        if (eo_push_mapped_step(x, &a, m) != 0) {
            free(chain);
            return -1;
        }
    }
    free(chain);
    return 0;
}

/* Layer d->nlayers, of n states, made: counted, with its file's bytes. */
static int eo_disk_add_layer(eo_disk *d, long n) {
    if (d->nlayers == d->layer_cap) {
        int cap = d->layer_cap ? 2 * d->layer_cap : 256;
        long *p = (long *)realloc(d->layer_n, (size_t)cap * sizeof(long));
        if (p) d->layer_n = p;
        size_t *b = (size_t *)realloc(d->layer_b, (size_t)cap * sizeof(size_t));
        if (b) d->layer_b = b;
        if (!p || !b) return -1;
        d->layer_cap = cap;
    }
    char path[4160];
    struct stat st;
    eo_disk_path(d, path, "L", d->nlayers);
    if (stat(path, &st) != 0) return -1;
    d->layer_b[d->nlayers] = (size_t)st.st_size;
    d->layer_n[d->nlayers++] = n;
    return 0;
}

/* ----- Kept searches ----------------------------------------------------------------
 * A search on disk can outlast one run: with x->disk_keep (what the search is: the
 * rules and the plan, as the caller words them) its files live in a directory named by
 * a hash of that, of the root's canonical key and of x->disk_build (so that a search by
 * another build of the core, after an upgrade say, never touches them: it begins in a
 * directory of its own), <dir>/eightoff-keep-<16 hex digits>,
 * and after each layer is complete a manifest M (text: the search, the build, the
 * root's key, the layers' kinds and sizes, the states counted, the runs and seconds so
 * far) is written beside them (written to M.tmp, then renamed: a run killed at any
 * point leaves the manifest of its last complete layer, or none).  The table of full
 * keys that records with EO_CBIG point into is kept in a file B (each key's length
 * byte and bytes, in id order, appended at each manifest).  Where a limit or a signal
 * stops the search, the files of its complete layers stay, and what was begun after
 * them (the runs, the layer being made) is removed, the disk limit included (a run with
 * more room goes on from them); where it ends solved or lost, the directory goes.  A
 * later search of the same root under the same x->disk_keep and x->disk_build (the same
 * compiled core: the same successor relation) goes on from there instead of searching
 * anew: eo_solve looks for the manifest first (eo_keep_found), and eo_disk_search loads
 * it (EO_TAKE_RESUME), rebuilds the table of full keys in the same order (the same ids),
 * and expands its last layer again.  That is the search it would have been had it never
 * stopped: the layers are the seen states and the last one the frontier, exactly as
 * they were after that layer was made.  A
 * manifest of another search or build found there (a hash collision) is not resumed;
 * the directory is emptied and the search begins afresh in it.  The directory is locked
 * (flock) while a search uses it; a second search of the same root meanwhile gets a
 * directory of its own and keeps nothing. */
#define EO_KEEP_FORMAT 3 /* 2: layers and runs packed (above); 3: no parents' files */
#define EO_KEEP_LINE 16384

static void eo_keep_dir(const eo_ctx *x, const char *root_dir, const eo_state *root, char *out) {
    uint8_t key[EO_MAXKEY];
    int len = eo_key(EO_R(x), root, key);
    uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a over the key, the search's words, the build */
    for (int i = 0; i < len; i++) h = (h ^ key[i]) * 0x100000001b3ULL;
    for (const char *c = x->disk_keep; *c; c++) h = (h ^ (uint8_t)*c) * 0x100000001b3ULL;
    h = (h ^ 0xff) * 0x100000001b3ULL;
    for (const char *c = x->disk_build ? x->disk_build : ""; *c; c++)
        h = (h ^ (uint8_t)*c) * 0x100000001b3ULL;
    snprintf(out, 4096, "%s/eightoff-keep-%016llx", root_dir, (unsigned long long)h);
}

/* The root's canonical key in hex (the manifest's root line). */
static void eo_keep_root_hex(const eo_ctx *x, const eo_state *root, char *out) {
    uint8_t key[EO_MAXKEY];
    int len = eo_key(EO_R(x), root, key);
    for (int i = 0; i < len; i++) snprintf(out + 2 * i, 3, "%02x", key[i]);
    out[2 * len] = 0;
}

typedef struct {
    int layers, nrec, bare, sittings;
    long t0, base, expanded, deal;
    size_t big;
    double seconds;
} eo_keep_info;

/* Read one line of the manifest: its text after `name ` into out; -1 if it is not
 * that line. */
static int eo_keep_line(FILE *f, const char *name, char *out) {
    if (!fgets(out, EO_KEEP_LINE, f)) return -1;
    size_t n = strlen(out), k = strlen(name);
    if (!n || out[n - 1] != '\n' || n < k + 2 || strncmp(out, name, k) != 0 || out[k] != ' ')
        return -1;
    out[n - 1] = 0;
    memmove(out, out + k + 1, n - k - 1);
    return 0;
}

/* The manifest of directory `dir` if it is a kept search of this root, search and
 * build: 0 and *in filled (and, with `sizes`, the layers' states and their files' bytes
 * read into new arrays there and in *bytes); else -1. */
static int eo_keep_read(const eo_ctx *x, const char *dir, const eo_state *root, eo_keep_info *in,
                        long **sizes, size_t **bytes) {
    char path[4160];
    char *line = (char *)malloc(EO_KEEP_LINE), *hex = (char *)malloc(2 * EO_MAXKEY + 1);
    snprintf(path, sizeof(path), "%s/M", dir);
    FILE *f = line && hex ? fopen(path, "r") : NULL;
    int ok = 0;
    if (f) {
        int format = 0;
        eo_keep_root_hex(x, root, hex);
        ok = eo_keep_line(f, "eightoff kept search", line) == 0 &&
             sscanf(line, "%d", &format) == 1 && format == EO_KEEP_FORMAT &&
             eo_keep_line(f, "search", line) == 0 && strcmp(line, x->disk_keep) == 0 &&
             eo_keep_line(f, "build", line) == 0 &&
             strcmp(line, x->disk_build ? x->disk_build : "") == 0 &&
             eo_keep_line(f, "root", line) == 0 && strcmp(line, hex) == 0 &&
             fscanf(f,
                    "deal %ld\nlayers %d\nrecord_layers %d\nbare %d\nt0 %ld\nbase %ld\n"
                    "expanded %ld\nbig %zu\nsittings %d\nseconds %lf\nsizes",
                    &in->deal, &in->layers, &in->nrec, &in->bare, &in->t0, &in->base,
                    &in->expanded, &in->big, &in->sittings, &in->seconds) == 10 &&
             in->layers >= 1 && in->nrec >= 1 && in->nrec <= in->layers;
        if (ok && sizes) {
            *sizes = (long *)malloc((size_t)in->layers * sizeof(long));
            *bytes = (size_t *)malloc((size_t)in->layers * sizeof(size_t));
            ok = *sizes != NULL && *bytes != NULL;
            for (int j = 0; ok && j < in->layers; j++) ok = fscanf(f, " %ld", &(*sizes)[j]) == 1;
            int at = -1;
            ok = ok && fscanf(f, " files%n", &at) == 0 && at > 0;
            for (int j = 0; ok && j < in->layers; j++) ok = fscanf(f, " %zu", &(*bytes)[j]) == 1;
            if (!ok) {
                free(*sizes);
                free(*bytes);
                *sizes = NULL;
                *bytes = NULL;
            }
        }
        fclose(f);
    }
    free(line);
    free(hex);
    return ok ? 0 : -1;
}

/* Whether a kept search of x's root (x->S's search from `root`) is there to go on from. */
static int eo_keep_found(const eo_ctx *x, const eo_state *root) {
    if (!x->disk_keep || !x->disk_keep[0]) return 0;
    char dir[4096];
    eo_keep_info in;
    eo_keep_dir(x, eo_disk_root_dir(x), root, dir);
    return eo_keep_read(x, dir, root, &in, NULL, NULL) == 0;
}

/* Whether file `name` belongs to the kept layers of d (L0 .. L(n-1), T0, B and the
 * manifest, the lock). */
static int eo_keep_part(const eo_disk *d, const char *name) {
    if (!strcmp(name, "M") || !strcmp(name, "B") || !strcmp(name, "lock")) return 1;
    char *end;
    if (!name[0] || !name[1]) return 0;
    long j = strtol(name + 1, &end, 10);
    if (*end || j < 0) return 0;
    if (name[0] == 'L') return j < d->nlayers;
    if (name[0] == 'T') return j == 0 && d->l0_bare;
    return 0;
}

/* Remove from d's directory what is not part of its kept layers (all, with `all`, but
 * the lock); the bytes kept are d->used. */
static void eo_keep_trim(eo_disk *d, int all) {
    DIR *dp = opendir(d->dir);
    d->used = 0;
    if (!dp) return;
    struct dirent *e;
    char p[4400];
    struct stat st;
    while ((e = readdir(dp)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        snprintf(p, sizeof(p), "%s/%s", d->dir, e->d_name);
        if (!strcmp(e->d_name, "lock")) continue;
        if (!all && eo_keep_part(d, e->d_name)) {
            if (strcmp(e->d_name, "M") && stat(p, &st) == 0) d->used += (size_t)st.st_size;
            continue;
        }
        unlink(p);
    }
    closedir(dp);
}

/* Make or open the kept search's directory and lock it: d->keep set, or not where
 * another search holds it (or it cannot be made). */
static void eo_keep_open(eo_disk *d, const char *root_dir, const eo_state *root) {
    char path[4160];
    eo_keep_dir(d->x, root_dir, root, d->dir);
    if (mkdir(d->dir, 0700) != 0 && errno != EEXIST) return;
    snprintf(path, sizeof(path), "%s/lock", d->dir);
    d->lockfd = open(path, O_RDWR | O_CREAT, 0600);
    if (d->lockfd < 0) return;
    if (flock(d->lockfd, LOCK_EX | LOCK_NB) != 0) {
        close(d->lockfd);
        d->lockfd = -1;
        return;
    }
    d->keep = d->made = 1;
}

/* Go on from the kept search in d's directory: its layers, states, full keys; 0 when
 * loaded, else -1 (then the directory is emptied). */
static int eo_keep_load(eo_disk *d, const eo_state *root) {
    eo_ctx *x = d->x;
    eo_keep_info in;
    long *sizes = NULL;
    size_t *bytes = NULL;
    char path[4160];
    if (eo_keep_read(x, d->dir, root, &in, &sizes, &bytes) != 0) return -1;
    int ok = 1;
    /* the full keys, in id order; past them, what a killed run appended before its
     * manifest was renamed is cut off (the keys this run adds go right after them) */
    snprintf(path, sizeof(path), "%s/B", d->dir);
    FILE *f = fopen(path, "rb");
    if (f || in.big) {
        uint8_t key[EO_MAXKEY];
        ok = f != NULL;
        for (size_t id = 0; ok && id < in.big; id++) {
            int len = fgetc(f);
            ok = len != EOF && len > 0 && len < EO_MAXKEY - 16 &&
                 fread(key, 1, (size_t)len, f) == (size_t)len &&
                 eo_table_insert(&x->C.recs.big, key, len) == (long)id;
        }
        long end = ok ? ftell(f) : -1;
        if (f) fclose(f);
        ok = ok && end >= 0 && truncate(path, (off_t)end) == 0;
    }
    if (!ok) {
        free(sizes);
        free(bytes);
        return -1;
    }
    d->layer_n = sizes;
    d->layer_b = bytes;
    d->nlayers = d->layer_cap = in.layers;
    d->nrec = in.nrec;
    d->l0_bare = in.bare;
    d->t0_n = in.t0;
    d->base = in.base;
    d->expanded = in.expanded;
    d->big_saved = in.big;
    d->sittings = in.sittings + 1;
    d->seconds0 = in.seconds;
    d->saved = 1;
    eo_keep_trim(d, 0);
    /* every file the layers need is there */
    for (int j = 0; ok && j < d->nlayers; j++) {
        struct stat st;
        eo_disk_path(d, path, "L", j);
        ok = stat(path, &st) == 0 && (size_t)st.st_size == bytes[j] &&
             (eo_disk_packed(d, j) || bytes[j] == (size_t)sizes[j] * sizeof(eo_drec));
    }
    if (ok && d->l0_bare) {
        struct stat st;
        eo_disk_path(d, path, "T", 0);
        ok = stat(path, &st) == 0 && (size_t)st.st_size == (size_t)d->t0_n * sizeof(eo_drec);
    }
    if (!ok) return -1;
    x->disk_resumed = d->nlayers;
    return 0;
}

/* After a layer is complete: the kept search's full keys and manifest written.  Nonzero
 * when they cannot be (status EO_DISK_LIMIT). */
static int eo_keep_save(eo_disk *d, const eo_state *root) {
    if (!d->keep) return 0;
    eo_ctx *x = d->x;
    char path[4160], tmp[4160];
    const eo_table *big = &x->C.recs.big;
    if (big->count > d->big_saved) {
        snprintf(path, sizeof(path), "%s/B", d->dir);
        FILE *f = eo_disk_open(path, "ab");
        if (!f) {
            x->status = EO_DISK_LIMIT;
            return -1;
        }
        for (size_t id = d->big_saved; id < big->count; id++) {
            const uint8_t *k = big->arena + big->offs[id];
            if (eo_disk_write(d, f, k, 1, (size_t)k[0] + 1) != 0) {
                fclose(f);
                return -1;
            }
        }
        if (eo_disk_close(d, f) != 0) return -1;
        d->big_saved = big->count;
    }
    char hex[2 * EO_MAXKEY + 1];
    eo_keep_root_hex(x, root, hex);
    snprintf(tmp, sizeof(tmp), "%s/M.tmp", d->dir);
    snprintf(path, sizeof(path), "%s/M", d->dir);
    FILE *f = fopen(tmp, "w");
    int bad = !f;
    if (f) {
        fprintf(f, "eightoff kept search %d\nsearch %s\nbuild %s\nroot %s\n", EO_KEEP_FORMAT,
                x->disk_keep, x->disk_build ? x->disk_build : "", hex);
        fprintf(f,
                "deal %ld\nlayers %d\nrecord_layers %d\nbare %d\nt0 %ld\nbase %ld\n"
                "expanded %ld\nbig %zu\nsittings %d\nseconds %.3f\nsizes",
                x->disk_deal, d->nlayers, d->nrec, d->l0_bare, d->t0_n, d->base, d->expanded,
                d->big_saved, d->sittings,
                d->seconds0 + (eo_cpu_now() - d->cpu0) + x->cpu_extra); /* every thread's */
        for (int j = 0; j < d->nlayers; j++) fprintf(f, " %ld", d->layer_n[j]);
        fprintf(f, "\nfiles");
        for (int j = 0; j < d->nlayers; j++) fprintf(f, " %zu", d->layer_b[j]);
        fprintf(f, "\nbytes %zu\n", d->used);
        bad = ferror(f) != 0;
        bad |= fclose(f) != 0;
    }
    if (bad || rename(tmp, path) != 0) {
        unlink(tmp);
        x->status = EO_DISK_LIMIT;
        return -1;
    }
    d->saved = 1;
    return 0;
}

/* Up to EO_DISK_CHUNK entries of the layer being expanded into `chunk` (under the lock),
 * as eo_disk_esz reads them; how many (0 at its end, or where a packed layer is damaged:
 * status EO_DISK_LIMIT). */
static size_t eo_disk_take(eo_disk *d, uint8_t *chunk) {
    if (!d->lpacked) return fread(chunk, sizeof(eo_drec), EO_DISK_CHUNK, d->lf);
    size_t got = 0;
    int rc = 1;
    eo_crec c;
    while (got < EO_DISK_CHUNK && (rc = eo_pr_next(&d->lr, &c, NULL)) == 1)
        memcpy(chunk + got++ * sizeof(c), &c, sizeof(c));
    if (rc < 0) {
        eo_disk_fail(d, EO_DISK_LIMIT);
        return 0;
    }
    return got;
}

/* A thread of the expansion of a layer: its part of the children's buffer (records
 * alone), how it ended (0: the layer done, 1: a won child found, -1: stopped). */
typedef struct {
    eo_disk *d;
    int w;
    eo_crec *buf;
    size_t nbuf, cap;
    int rc;
    pthread_t tid;
} eo_dwork;

/* Expand entries of the layer being expanded (d->lf), taken EO_DISK_CHUNK at a time
 * under the lock, each child (its record alone) into this thread's part of the buffer,
 * a run when it is full.  Every thread does the same to
 * the entries it takes, so the runs hold the same children whatever the threads, and
 * the layer merged from them is the same file.  A won child: its place in d (the first
 * found) and the others stop. */
static void *eo_disk_work(void *arg) {
    eo_dwork *k = (eo_dwork *)arg;
    eo_disk *d = k->d;
    eo_ctx *x = d->x;
    const eo_rules *r = EO_R(x);
    eo_disk_thread = k->w;
    eo_move ms[EO_MAXMOVES], step[EO_STEPMAX], au[2 * 52 + 8];
    eo_state s;
    eo_pcache pc;
    eo_drec e;
    memset(&e, 0, sizeof(e));
    int incremental = r->nfound == 4, rc = 0;
    size_t esz = eo_disk_esz(d, d->nlayers - 1);
    unsigned long work = 0;
    uint8_t chunk[EO_DISK_CHUNK * sizeof(eo_drec)];
    while (rc == 0) {
        pthread_mutex_lock(&d->mu);
        size_t got = eo_disk_running(d) ? eo_disk_take(d, chunk) : 0;
        pthread_mutex_unlock(&d->mu);
        if (!got) break;
        for (size_t j = 0; j < got && rc == 0; j++) {
            memcpy(&e, chunk + j * esz, esz);
            if (eo_disk_stop(d, &work)) {
                rc = -1;
                break;
            }
            long before = __atomic_fetch_add(&d->expanded, 1, __ATOMIC_SEQ_CST);
            if (x->max_states > 0 && d->base + before >= x->max_states) {
                __atomic_fetch_sub(&d->expanded, 1, __ATOMIC_SEQ_CST);
                eo_disk_fail(d, EO_STATE_LIMIT);
                rc = -1;
                break;
            }
            if (e.s.hi & EO_CBIG) { /* read from the table of full keys, which may grow */
                pthread_mutex_lock(&d->mu);
                eo_cdecode(&x->C, r, &e.s, &s);
                pthread_mutex_unlock(&d->mu);
            } else
                eo_cdecode(&x->C, r, &e.s, &s);
            if (incremental) eo_pcache_fill_h(r, &s, &pc, 0);
            int n = eo_all_steps(x, &s, ms, incremental ? &pc : NULL);
            for (int i = 0; i < n && rc == 0; i++) {
                int ns = eo_step(r, &s, ms[i], step);
                if (ns < 0) continue;
                int na = eo_autos_after(r, &s, step, ns) ? eo_autos(r, &s, au) : 0;
                if (s.home == r->total) {
                    eo_undo_all(&s, au, na);
                    eo_undo_all(&s, step, ns);
                    pthread_mutex_lock(&d->mu);
                    if (!d->won) {
                        d->win_rec = e.s;
                        d->win_move = ms[i];
                        __atomic_store_n(&d->won, 1, __ATOMIC_SEQ_CST);
                    }
                    pthread_mutex_unlock(&d->mu);
                    rc = 1;
                    break;
                }
                eo_crec c; /* the child, with no parent (eo_disk_scan_parent finds it) */
                if (eo_disk_record(d, &s, &c) != 0) rc = -1;
                eo_undo_all(&s, au, na);
                eo_undo_all(&s, step, ns);
                if (rc) break;
                k->buf[k->nbuf++] = c;
                if (k->nbuf == k->cap && eo_crec_flush(d, k->buf, &k->nbuf) != 0) rc = -1;
            }
        }
    }
    if (rc == 0 && eo_disk_running(d) && eo_crec_flush(d, k->buf, &k->nbuf) != 0) rc = -1;
    if (k->w) {
        double v = eo_cpu_now();
        __atomic_store(&d->wcpu[k->w], &v, __ATOMIC_RELAXED);
    }
    k->rc = rc;
    return NULL;
}

/* Expand layer d->nlayers - 1 into runs, with d->threads threads (this one and the
 * others, each with its part of the buffer); 1 when a child is won (the path made), 0
 * when done, -1 when it stops (status set).  The other threads' CPU time is added to
 * x->cpu_extra, which the time limit's CPU clock counts. */
static int eo_disk_expand(eo_disk *d) {
    eo_ctx *x = d->x;
    int depth = d->nlayers - 1;
    char path[4160];
    eo_disk_path(d, path, "L", depth);
    d->lpacked = eo_disk_packed(d, depth);
    if (d->lpacked ? eo_pr_open(&d->lr, path, NULL, 0) != 0 : !(d->lf = eo_disk_open(path, "rb"))) {
        eo_disk_fail(d, EO_DISK_LIMIT);
        return -1;
    }
    d->won = 0;
    eo_dwork work[EO_DISK_MAXTHREADS];
    int T = d->threads;
    /* the buffer as records alone: twice its entries */
    eo_crec *buf = (eo_crec *)(void *)d->buf;
    size_t cap = d->capbuf * (sizeof(eo_drec) / sizeof(eo_crec)), part = cap / (size_t)T;
    for (int w = 0; w < T; w++) {
        work[w].d = d;
        work[w].w = w;
        work[w].buf = buf + (size_t)w * part;
        work[w].nbuf = 0;
        work[w].cap = w + 1 < T ? part : cap - (size_t)w * part;
        work[w].rc = 0;
        d->wcpu[w] = 0;
    }
    int started = 1;
    while (started < T && pthread_create(&work[started].tid, NULL, eo_disk_work, &work[started]) == 0)
        started++;
    eo_disk_work(&work[0]); /* the entries the others leave (all, if none started) */
    for (int w = 1; w < started; w++) pthread_join(work[w].tid, NULL);
    x->cpu_extra += eo_disk_wcpu(d);
    for (int w = 0; w < T; w++) d->wcpu[w] = 0;
    if (d->lpacked)
        eo_pr_close(&d->lr);
    else
        fclose(d->lf);
    d->lf = NULL;
    if (d->won) {
        if (eo_disk_trace(d, depth, d->win_rec, d->win_move) != 0) {
            x->status = EO_MEMORY_LIMIT;
            return -1;
        }
        x->status = EO_SOLVED;
        return 1;
    }
    if (x->status != EO_RUNNING || eo_disk_reduce_runs(d) != 0) return -1;
    return 0;
}

/* Free the best-first search's parents and open list, the dive's hash set and the
 * depth-first search's stack (before the search on disk or the beam, which need none of
 * them; a depth-first take-over has read the stack already).  A deep depth-first search
 * leaves a large stack: FreeCell 982 with 2 cells, about 3.5 GB at --memory 15G, held
 * beside the disk search's buffer of the whole limit until this freed it too. */
static void eo_release(eo_ctx *x) {
    free(x->fr);
    free(x->pcs);
    free(x->cps);
    free(x->kids);
    free(x->kpc);
    free(x->kmv);
    x->fr = NULL;
    x->pcs = NULL;
    x->cps = NULL;
    x->cpcap = 0;
    x->kids = NULL;
    x->kpc = NULL;
    x->kmv = NULL;
    x->nfr = x->frcap = x->pccap = x->nkids = x->kcap = x->kpccap = 0;
    x->kmv_len = x->kmv_cap = 0;
    for (size_t b = 0; b < x->nnodes; b++) free(x->nodes[b]);
    free(x->nodes);
    free(x->heap);
    free(x->hset);
    x->nodes = NULL;
    x->nnodes = x->nodecap = 0;
    x->heap = NULL;
    x->nheap = x->heapcap = 0;
    x->hset = NULL;
    x->hmask = x->hcount = x->hmine = 0;
}

/* Append (a record, its parent's) to the buffer, a run when it is full. */
static int eo_disk_put(eo_disk *d, const eo_crec *s, const eo_crec *parent) {
    if (eo_disk_stop(d, &d->work)) return -1;
    d->buf[d->nbuf].s = *s;
    d->buf[d->nbuf++].p = *parent;
    if (d->nbuf == d->capbuf && (eo_disk_flush(d) != 0 || eo_disk_reduce_runs(d) != 0)) return -1;
    return 0;
}

/* Append (record of id, record of its parent) to the buffer, a run when it is full. */
static int eo_disk_put_id(eo_disk *d, size_t id, size_t parent) {
    return eo_disk_put(d, eo_crec_at(&d->x->C.recs, id), eo_crec_at(&d->x->C.recs, parent));
}

/* After a take-over: the seen states' tables go; the records' root and the full keys
 * (which the records refer to) stay. */
static void eo_disk_drop_tables(eo_ctx *x) { eo_crecs_drop_ids(&x->C.recs); }

/* The buffer's entries and the runs made so far, sorted and merged into a layer taken
 * over: layer `layer`'s file as records with their parents' (EO_OUT_DREC), or
 * (EO_OUT_BARE) records alone, packed, the entries with a parent in file T<layer>; *kept: its
 * entries, *kept2 those of T<layer>.  Nonzero when it stops (status set). */
static int eo_disk_write_layer(eo_disk *d, int layer, int how, long *kept, long *kept2) {
    char path[4160], tpath[4160];
    if (eo_disk_flush(d) != 0 || eo_disk_reduce_runs(d) != 0) return -1;
    eo_disk_path(d, path, "L", layer);
    eo_disk_path(d, tpath, "T", layer);
    if (eo_disk_merge(d, d->run_seq, d->nruns, path, tpath, how, 0, kept, kept2) != 0)
        return -1;
    d->run_seq += d->nruns;
    d->nruns = 0;
    return 0;
}

/* A take-over's layers 0 and 1 written: counted, and the tables freed. */
static int eo_disk_taken_over(eo_disk *d, long layer0, long open) {
    if (eo_disk_add_layer(d, layer0) != 0 || eo_disk_add_layer(d, open) != 0) {
        d->x->status = EO_MEMORY_LIMIT;
        return -1;
    }
    d->nrec = 2;
    eo_disk_drop_tables(d->x);
    return 0;
}

/* Take over the in-memory best-first complete search (bestfirst.h) that ran out of
 * memory: layer 0 is every state it entered, each with its parent (the root its own);
 * layer 1, the states it had left to expand: its open
 * list, the state it was expanding when it stopped (its children may be part entered)
 * and those children (entered from x->cur_from on; pushed or not).  Then its tables are
 * freed but for the encoding's root and the table of full keys, which the records
 * refer to.  Nonzero when it stops (status set); *open: the states of layer 1. */
static int eo_disk_take_over(eo_disk *d, long *open) {
    eo_ctx *x = d->x;
    size_t count = x->C.recs.count, from = x->cur_from < count ? x->cur_from : count;
    long kept;
    for (size_t i = 0; i < x->nheap; i++) {
        size_t id = (size_t)(x->heap[i] & 0xffffffffULL);
        if (eo_disk_put_id(d, id, id < from ? *eo_parent_at(x, id) : x->cur_id) != 0) return -1;
    }
    if (eo_disk_put_id(d, x->cur_id, x->cur_id ? *eo_parent_at(x, x->cur_id) : 0) != 0) return -1;
    for (size_t id = from; id < count; id++)
        if (eo_disk_put_id(d, id, x->cur_id) != 0) return -1;
    if (eo_disk_write_layer(d, 1, EO_OUT_DREC, open, NULL) != 0) return -1;
    /* the parents: those set (ids below `from` and the open ones), else the state expanded */
    for (size_t id = 0; id < count; id++)
        if (eo_disk_put_id(d, id, id == 0 ? 0 : id < from ? *eo_parent_at(x, id) : x->cur_id) != 0)
            return -1;
    if (eo_disk_write_layer(d, 0, EO_OUT_DREC, &kept, NULL) != 0) return -1;
    return eo_disk_taken_over(d, kept, *open);
}

/* How the search on disk begins (eo_disk_search's `take`). */
#define EO_TAKE_NONE 0        /* afresh from the root */
#define EO_TAKE_BEST_FIRST 1  /* taking the best-first complete search over */
#define EO_TAKE_DEPTH_FIRST 2 /* taking the depth-first complete search over */
#define EO_TAKE_RESUME 3      /* going on from a kept search (eo_keep_found) */

/* The depth-first complete search's frontier (dfs.h), with parents, into the buffer:
 * every kid of every frame on its stack, its parent the frame's state, and the root (its
 * own parent) when `root_too`.  The frames' states are made from the root by the moves
 * each frame's kid in turn was entered by (frame i + 1 is kid next - 1 of frame i), the
 * kids' from their frame's by their recorded moves (eo_child.off): x->S and the path are
 * not read (the memory may have ended between a kid's moves and its frame). */
static int eo_disk_put_frontier(eo_disk *d, const eo_state *root, int root_too) {
    eo_ctx *x = d->x;
    eo_state s = *root, t;
    eo_crec frame, kid;
    if (eo_disk_record(d, &s, &frame) != 0) return -1;
    if (root_too && eo_disk_put(d, &frame, &frame) != 0) return -1;
    for (int i = 0; i < x->nfr; i++) {
        const eo_frame *f = &x->fr[i];
        int end = i + 1 < x->nfr ? x->fr[i + 1].kid0 : x->nkids;
        for (int k = f->kid0; k < end; k++) {
            t = s;
            eo_kid_state(x, &x->kids[k], &t);
            if (eo_disk_record(d, &t, &kid) != 0 || eo_disk_put(d, &kid, &frame) != 0) return -1;
        }
        if (i + 1 < x->nfr) { /* the next frame's state */
            eo_kid_state(x, &x->kids[f->kid0 + f->next - 1], &s);
            if (eo_disk_record(d, &s, &frame) != 0) return -1;
        }
    }
    return 0;
}

/* Take over the in-memory depth-first complete search (dfs.h; without meta steps) that
 * ran out of memory.  Its seen states are every state it entered; each is either
 * expanded in full (its frame ran through all its kids and was popped: every child it
 * has was entered), or on its stack: a frame (the top one's expansion maybe cut short)
 * or a kid of a frame, every frame but the root a kid of the one below it.  So layer 1
 * is the kids of every frame (those already searched too: expanding them again only
 * finds their children seen) and the root if its expansion was cut short; layer 0 every
 * state entered, as records alone, and T0 the frontier with its frame as parent and the
 * root its own (the others are put with a parent no trace-back reads, a record of all
 * ones, after any real one: the merge keeps the least parent of a record, and leaves
 * those out of T0).  A trace-back from
 * layer 1 goes to a frame's kid, then down the frames to the root, whose steps are
 * single steps of complete_steps as on disk (eo_step_to finds them).  Then the tables
 * are freed (the stack by eo_release, in eo_disk_search).  Nonzero when it stops
 * (status set); *open: the states of layer 1. */
static int eo_disk_take_over_dfs(eo_disk *d, const eo_state *root, long *open) {
    eo_ctx *x = d->x;
    long kept;
    int root_open = x->nfr == 1;
    if (eo_disk_put_frontier(d, root, root_open) != 0) return -1;
    if (eo_disk_write_layer(d, 1, EO_OUT_DREC, open, NULL) != 0) return -1;
    eo_crec none;
    none.hi = none.lo = UINT64_MAX;
    for (size_t id = 0; id < x->C.recs.count; id++)
        if (eo_disk_put(d, eo_crec_at(&x->C.recs, id), &none) != 0) return -1;
    if (eo_disk_put_frontier(d, root, 1) != 0) return -1;
    /* layer 0: the records alone, and the frontier with its parents in T0 */
    if (eo_disk_write_layer(d, 0, EO_OUT_BARE, &kept, &d->t0_n) != 0) return -1;
    if (eo_disk_taken_over(d, kept, *open) != 0) return -1;
    d->l0_bare = 1;
    return 0;
}

/* The search on disk from `root` (x->S, its na auto-moves on the path).  With `take`
 * (EO_TAKE_BEST_FIRST, EO_TAKE_DEPTH_FIRST) it takes over the in-memory complete search
 * that ran out of memory (x's tables as it left them; eo_disk_take_over,
 * eo_disk_take_over_dfs), else it starts afresh from the root (x's tables empty).  Then,
 * with the plan's memory_beam, before the first layer is expanded, the beam search has
 * its try for a win (eo_beam_fallback, with at most half the time left and the memory
 * limit, the tables taken over freed and the children's buffer not yet made): a win ends
 * it solved.  `states`: the states counted so far (those entered by the searches before;
 * with `take`, the complete search's among them).  x->disk_dir is the directory (NULL:
 * TMPDIR or /tmp), x->max_disk its limit in bytes.  Ends with x->status solved (the path
 * made), lost, or a limit (EO_DISK_LIMIT, time, states, memory, EO_INTERRUPTED).
 * Returns the states counted in all: with `take` those before less the states taken
 * over unexpanded, plus the beam's, plus the states it expanded (x->disk_states); where
 * it exhausts without the beam, every state once.  x->disk_peak: the most bytes its
 * files held at once; x->disk_held: the bytes the searches before still held in memory
 * (eo_ctx_bytes) when its buffer was made at the full limit. */
static long eo_disk_search(eo_ctx *x, long states, int take, const eo_state *root, int na) {
    int cont = take == EO_TAKE_BEST_FIRST || take == EO_TAKE_DEPTH_FIRST;
    eo_disk d;
    memset(&d, 0, sizeof(d));
    d.x = x;
    d.base = states;
    d.lockfd = -1;
    d.threads = 1;
    pthread_mutex_init(&d.mu, NULL);
    d.sittings = 1;
    d.cpu0 = eo_cpu_now();
    x->disk_peak = 0;
    x->disk_layers = 0;
    x->disk_held = 0;
    x->disk_states = 0;
    x->disk_kept = 0;
    x->disk_resumed = 0;
    if (cont ? !x->C.on : !eo_cstore_root(&x->C, EO_R(x), &x->S)) {
        x->status = EO_MEMORY_LIMIT; /* two packs: not on disk (see above) */
        return states;
    }
    x->status = EO_RUNNING;
    const char *root_dir = eo_disk_root_dir(x);
    eo_disk_clean_stale(root_dir);
    if (x->disk_keep && x->disk_keep[0]) eo_keep_open(&d, root_dir, root);
    if (d.keep && take == EO_TAKE_RESUME && eo_keep_load(&d, root) != 0) {
        free(d.layer_n); /* not what it said: begin afresh in the directory */
        free(d.layer_b);
        d.layer_n = NULL;
        d.layer_b = NULL;
        d.nlayers = d.layer_cap = d.nrec = d.l0_bare = 0;
        d.t0_n = d.expanded = 0;
        d.base = states;
        d.big_saved = 0;
        d.sittings = 1;
        d.seconds0 = 0;
        d.saved = 0;
        x->disk_resumed = 0;
        eo_table_free(&x->C.recs.big);
        eo_table_init(&x->C.recs.big, 64);
        take = EO_TAKE_NONE;
    }
    if (d.keep && take != EO_TAKE_RESUME) eo_keep_trim(&d, 1); /* a new search replaces it */
    if (!d.keep && take == EO_TAKE_RESUME) take = EO_TAKE_NONE; /* held by another search */
    /* the limit counts the files of a kept search gone on from, which the free space
     * read now leaves out */
    d.max_disk = x->max_disk;
    struct statvfs vfs;
    if (statvfs(root_dir, &vfs) == 0) {
        size_t avail = (size_t)vfs.f_bavail * (size_t)vfs.f_frsize;
        size_t room = (avail > EO_DISK_MARGIN ? avail - EO_DISK_MARGIN : 0) + d.used;
        if (room < d.max_disk) d.max_disk = room;
    }
    d.peak = d.used;
    if (!d.keep) {
        snprintf(d.dir, sizeof(d.dir), "%s/eightoff-disk-%ld-XXXXXX", root_dir, (long)getpid());
        if (!mkdtemp(d.dir)) {
            x->status = EO_DISK_LIMIT;
            return states;
        }
        d.made = 1;
    }
    if (!cont) eo_give_back(); /* the tables of the searches before are freed (search.h) */

    /* the children's buffer: the memory limit (taking over, an eighth of it at first,
     * beside the tables it takes over) */
    size_t mem = x->max_mem ? x->max_mem : (size_t)1 << 30;
    size_t cap = mem / sizeof(eo_drec);
    if (cap > 1024) cap -= cap / 16;
    if (cap < 64) cap = 64;
    if (cont) { /* made at full size once the tables taken over are freed (below) */
        d.capbuf = cap / 8 >= 64 ? cap / 8 : cap;
        d.buf = (eo_drec *)malloc(d.capbuf * sizeof(eo_drec));
        if (!d.buf) x->status = EO_MEMORY_LIMIT;
    }

    char path[4160];
    if (x->status == EO_RUNNING && cont) {
        long open = 0;
        int rc = take == EO_TAKE_DEPTH_FIRST ? eo_disk_take_over_dfs(&d, root, &open)
                                             : eo_disk_take_over(&d, &open);
        if (rc == 0) {
            d.base = states - open;
            eo_release(x);
            eo_give_back();
            x->S = *root; /* the trace-back (and the beam) start from the root */
            x->plen = na;
            eo_keep_save(&d, root);
        }
    } else if (x->status == EO_RUNNING && take == EO_TAKE_RESUME) {
        x->S = *root; /* the trace-back starts from the root */
        x->plen = na;
    } else if (x->status == EO_RUNNING) {
        eo_drec e;
        if (eo_disk_record(&d, &x->S, &e.s) == 0) {
            e.p = e.s;
            eo_disk_path(&d, path, "L", 0);
            FILE *f = eo_disk_open(path, "wb");
            int bad = !f || eo_disk_write(&d, f, &e, sizeof(e), 1) != 0;
            if (f && eo_disk_close(&d, f) != 0) bad = 1;
            d.nrec = 1;
            if (bad || eo_disk_add_layer(&d, 1) != 0) {
                if (x->status == EO_RUNNING) x->status = EO_DISK_LIMIT;
            } else
                eo_keep_save(&d, root);
        }
    }
    /* the beam's try, once (not again in a run that goes on from a kept search) */
    if (x->status == EO_RUNNING && x->plan.memory_beam && take != EO_TAKE_RESUME) {
        free(d.buf); /* the beam's memory first */
        d.buf = NULL;
        double deadline = x->deadline > 0 ? (x->deadline + eo_clock(x)) / 2 : 0;
        eo_beam_fallback(x, root, na, x->max_states, deadline, &d.base);
        if (eo_signal) x->status = EO_INTERRUPTED;
        eo_give_back();
    }
    x->disk_held = eo_ctx_bytes(x);
    if (x->status == EO_RUNNING && (!d.buf || d.capbuf != cap)) {
        free(d.buf);
        d.capbuf = cap;
        d.buf = (eo_drec *)malloc(d.capbuf * sizeof(eo_drec));
        if (!d.buf) x->status = EO_MEMORY_LIMIT;
    }
    /* the threads of an expansion: each with a part of the buffer (of 64 or more) */
    d.threads = x->disk_threads < 1 ? 1 : x->disk_threads;
    if (d.threads > EO_DISK_MAXTHREADS) d.threads = EO_DISK_MAXTHREADS;
    while (d.threads > 1 && d.capbuf / (size_t)d.threads < 64) d.threads--;
    while (x->status == EO_RUNNING) {
        int rc = eo_disk_expand(&d);
        if (rc != 0) break;
        long kept;
        eo_disk_path(&d, path, "L", d.nlayers);
        if (eo_disk_merge(&d, d.run_seq, d.nruns, path, NULL, EO_OUT_INDEX, 1, &kept, NULL) != 0)
            break;
        d.run_seq += d.nruns;
        d.nruns = 0;
        if (!kept) {
            x->status = EO_LOST; /* no state left unexpanded */
            break;
        }
        if (eo_disk_add_layer(&d, kept) != 0) x->status = EO_MEMORY_LIMIT;
        else eo_keep_save(&d, root);
    }
    free(d.buf);
    /* a kept search stopped by a limit or a signal keeps its complete layers, the disk
     * limit included: a run with more room (a larger limit, space freed on a disk that
     * others fill too) goes on from them, where hours of layers would otherwise go */
    x->disk_kept = d.keep && d.saved && x->status != EO_SOLVED && x->status != EO_LOST;
    if (x->disk_kept)
        eo_keep_trim(&d, 0);
    else
        eo_disk_rmdir(d.dir);
    if (d.lockfd >= 0) close(d.lockfd);
    free(d.layer_n);
    free(d.layer_b);
    pthread_mutex_destroy(&d.mu);
    x->disk_peak = d.peak;
    x->disk_layers = d.nlayers;
    x->disk_states = d.expanded;
    if (eo_signal) x->status = EO_INTERRUPTED; /* the caller raises it (context.h) */
    return d.base + d.expanded;
}

#endif
