/* Checks of the search's shortcuts against the plain computations, for the differential
 * test only (tests/unit/test_core_differential.py, through _core.check_incremental and
 * _core.check_dive_moves; tests/unit/test_disk_search.py and bench/disk_sort.py, through
 * _core.check_drec_sort and check_drec_sort_run).  Nothing in the search calls them.
 */
#ifndef EIGHTOFF_CHECKS_H
#define EIGHTOFF_CHECKS_H

#include "search.h"
#include "optimal.h" /* op_tab, op_key */

/* Whether two column parts agree (for the differential test): sums, per-column parts,
 * and the depth of every card in a column of s. */
static inline int eo_pcache_same(const eo_rules *r, const eo_state *s, const eo_pcache *a,
                                 const eo_pcache *b) {
    if (a->sbad != b->sbad || a->sblk != b->sblk || a->sprs != b->sprs || a->sumh != b->sumh)
        return 0;
    for (int c = 0; c < r->ncols; c++) {
        if (a->bad[c] != b->bad[c] || a->blk[c] != b->blk[c] || a->prs[c] != b->prs[c] ||
            a->run[c] != b->run[c] || a->colh[c] != b->colh[c] || a->run[c] != eo_run(r, s, c))
            return 0;
        for (int j = 0; j < s->len[c]; j++)
            if (a->depth[s->col[c][j]] != b->depth[s->col[c][j]]) return 0;
    }
    return 1;
}

/* For the differential test: the dive's own generators against the general ones (one
 * pack).  The digs home that the dive's first pass generates from the column parts
 * (eo_dig_home_moves), and those that eo_macro_moves generates with the digs home alone,
 * against the digs home among all the kinds eo_macro_moves generates, fewest cards first,
 * then by column; and the moves of a cell card onto its parent (eo_cell_to_parent_moves)
 * against those among eo_search_moves' single moves, in its order.  Returns the
 * mismatches; *n_out: the steps compared. */
static int eo_check_dive_moves(const eo_rules *r, const eo_state *s, int *n_out) {
    eo_move all[EO_MAXMOVES], want[EO_MAXMOVES], alone[EO_MAXMOVES], fast[8];
    eo_pcache pc;
    *n_out = 0;
    if (r->nfound != 4) return 0;
    int bad = 0, ns = eo_search_moves(r, s, all), nc = eo_cell_to_parent_moves(r, s, want), m = 0;
    for (int i = 0; i < ns; i++) {
        const eo_move *t = &all[i];
        if (t->src < EO_CELL || t->src >= EO_FOUND || t->dst >= EO_CELL || !s->len[t->dst]) continue;
        bad += m >= nc || want[m].src != t->src || want[m].dst != t->dst || want[m].n != t->n;
        m++;
    }
    bad += m != nc;
    *n_out = m;
    eo_pcache_fill(r, s, &pc);
    int n = eo_macro_moves(r, s, all, EO_MAXMOVES, EO_DIGS_ALL, NULL), k = 0;
    for (int i = 0; i < n; i++) {
        if (all[i].src != EO_MACRO + EO_DIG_HOME) continue;
        int j = k++;
        for (; j > 0 && want[j - 1].n > all[i].n; j--) want[j] = want[j - 1];
        want[j] = all[i];
    }
    *n_out += k;
    int na = eo_macro_moves(r, s, alone, EO_MAXMOVES, 1 << EO_DIG_HOME, NULL);
    int nf = eo_dig_home_moves(r, s, &pc, fast);
    if (nf != k) return bad + 1;
    for (int i = 0; i < k; i++)
        bad += fast[i].src != want[i].src || fast[i].dst != want[i].dst || fast[i].n != want[i].n;
    /* eo_macro_moves alone keeps its own order (by column, then depth), and so does
     * eo_dig_home_moves_in by column (the dive's first pass, eo_all_steps_m) */
    nf = eo_dig_home_moves_in(r, s, &pc, fast, 1);
    bad += nf != na;
    m = 0;
    for (int i = 0; i < n; i++) {
        if (all[i].src != EO_MACRO + EO_DIG_HOME) continue;
        bad += m >= na || alone[m].dst != all[i].dst || alone[m].n != all[i].n;
        bad += m < nf && (fast[m].dst != all[i].dst || fast[m].n != all[i].n || fast[m].f != 255);
        m++;
    }
    return bad + (m != na);
}

/* For the differential test: the rule eo_legal (the replay's) against the list of moves
 * eo_legal_from makes with it, for every move from every place of s to every place,
 * counts 0 to 14, places that are none among them: the same moves.  Returns the
 * mismatches; *n_out: the moves compared. */
static int eo_check_legal(const eo_rules *r, const eo_state *s, int *n_out) {
    int places[EO_MAXCOLS + EO_MAXCELLS + EO_MAXFOUND + 4], np = 0, bad = 0;
    eo_move listed[EO_MAXMOVES];
    for (int c = 0; c <= r->ncols; c++) places[np++] = c; /* (ncols: no column) */
    for (int i = 0; i <= r->ncells; i++) places[np++] = EO_CELL + i;
    for (int f = 0; f < r->nfound; f++) places[np++] = EO_FOUND + f;
    places[np++] = EO_HOME;
    *n_out = 0;
    for (int a = 0; a < np; a++) {
        int k = eo_legal_from(r, s, places[a], listed);
        for (int b = 0; b < np; b++)
            for (int n = 0; n <= 14; n++) {
                int in_list = 0;
                for (int j = 0; j < k; j++) in_list |= listed[j].dst == places[b] && listed[j].n == n;
                bad += in_list != eo_legal(r, s, eo_mv(places[a], places[b], n));
                ++*n_out;
            }
    }
    return bad;
}

/* For the differential test: make every search step from s (single moves and every
 * kind of digging step, then the auto-moves) and compare the incremental score and
 * hash of the result with the full ones (the dives and the best-first searches that
 * prove nothing look their children up by that hash alone: eo_befs_by_hash).  Returns the number of
 * mismatches; *n_out: the children compared.  One pack only (where the incremental form
 * is used). */
static int eo_check_incremental(const eo_rules *r, eo_state *s, const eo_weights *w,
                                int *n_out) {
    eo_move ms[EO_MAXMOVES];
    eo_move step[EO_STEPMAX];
    eo_move au[2 * 52 + 8];
    eo_pcache pc;
    int bad = 0;
    *n_out = 0;
    if (r->nfound != 4) return 0;
    eo_pcache_fill(r, s, &pc);
    int n = eo_search_moves(r, s, ms);
    n += eo_macro_moves(r, s, ms + n, EO_MAXMOVES - n, EO_DIGS_ALL, NULL);
    for (int i = 0; i < n; i++) {
        int ns = eo_step(r, s, ms[i], step);
        if (ns < 0) continue;
        int na = eo_autos(r, s, au);
        unsigned mask = eo_touched(step, ns) | eo_touched(au, na);
        int score = eo_child_score(r, s, &pc, mask, w);
        uint64_t h = eo_child_hash(r, s, &pc, mask);
        eo_pcache inherited, fresh;
        eo_pcache_child(r, s, &pc, mask, &inherited);
        eo_pcache_fill(r, s, &fresh);
        bad += score != eo_score(r, s, w) || h != eo_state_hash(r, s) ||
               !eo_pcache_same(r, s, &inherited, &fresh) ||
               eo_child_score(r, s, &inherited, 0, w) != score ||
               eo_pcache_score(r, s, &inherited, w) != score || /* the dive's (dfs.h) */
               eo_state_hash_finish(r, s, inherited.sumh) != h;
        (*n_out)++;
        eo_undo_all(s, au, na);
        eo_undo_all(s, step, ns);
    }
    return bad;
}

/* In suit: whether the record made from s's fields (eo_cencode_parts, the fields made
 * afresh) is eo_cencode's, and so is each child's (every search step and its auto-moves)
 * made from s's fields and its touched columns', as the complete search makes it. */
static int eo_check_cparts(const eo_cstore *c, const eo_rules *r, const eo_state *s) {
    if (r->alt) return 1;
    eo_state t = *s;
    eo_cparts p, q;
    eo_crec a, b;
    eo_cparts_update(c, r, &t, NULL, 0, &p);
    int fa = eo_cencode(c, r, &t, &a), fb = eo_cencode_parts(c, r, &t, &p, &b);
    if (fa != fb || (fa == 0 && (a.lo != b.lo || a.hi != b.hi))) return 0;
    eo_move ms[EO_MAXMOVES];
    eo_move step[EO_STEPMAX];
    eo_move au[2 * 52 + 8];
    int n = eo_search_moves(r, &t, ms);
    n += eo_macro_moves(r, &t, ms + n, EO_MAXMOVES - n, EO_DIGS_ALL, NULL);
    int same = 1;
    for (int i = 0; i < n && same; i++) {
        int ns = eo_step(r, &t, ms[i], step);
        if (ns < 0) continue;
        int na = eo_autos(r, &t, au);
        eo_cparts_update(c, r, &t, &p, eo_touched(step, ns) | eo_touched(au, na), &q);
        fa = eo_cencode(c, r, &t, &a);
        fb = eo_cencode_parts(c, r, &t, &q, &b);
        same = fa == fb && (fa != 0 || (a.lo == b.lo && a.hi == b.hi));
        eo_undo_all(&t, au, na);
        eo_undo_all(&t, step, ns);
    }
    return same;
}

/* For the differential test: the compact record (compact.h) of s, a state reached from
 * `root`.  The record must decode to the very state eo_decode makes of s's canonical
 * key, and the state so made (laid out otherwise than s) must have the same record; in
 * suit the records made from fields (eo_check_cparts) must be the same too.  Returns 1
 * when all hold, 0 when s does not fit in a record (it would be kept by its full key),
 * -1 when one fails, -2 with rules that keep no records (two packs). */
static int eo_check_compact(const eo_rules *r, const eo_state *root, const eo_state *s) {
    eo_cstore c;
    eo_cstore_init(&c);
    int out = -2;
    if (eo_cstore_root(&c, r, root)) {
        eo_crec k, k2;
        out = eo_check_cparts(&c, r, s) ? 0 : -1;
        if (out == 0 && eo_cencode(&c, r, s, &k) == 0) {
            uint8_t key[EO_MAXKEY];
            eo_state a, b;
            int n = eo_key(r, s, key);
            eo_decode(r, key, &b);
            eo_cdecode(&c, r, &k, &a);
            int same = a.home == b.home && memcmp(a.found, b.found, 4) == 0 &&
                       memcmp(a.cell, b.cell, (size_t)r->ncells) == 0;
            for (int col = 0; col < r->ncols && same; col++)
                same = a.len[col] == b.len[col] && memcmp(a.col[col], b.col[col], a.len[col]) == 0;
            uint8_t key2[EO_MAXKEY];
            same = same && eo_key(r, &a, key2) == n && memcmp(key, key2, (size_t)n) == 0;
            same = same && eo_cencode(&c, r, &b, &k2) == 0 && k2.lo == k.lo && k2.hi == k.hi;
            out = same ? 1 : -1;
        }
    }
    eo_cstore_free(&c);
    return out;
}

/* A*'s table of records (optimal.h's op_tab, as A* keeps states where x->compact asks)
 * against a table of canonical keys: the states s[0 .. n), repeats among them, entered
 * in order from the search's root `root`.  Each must be new in both or there in both,
 * under the same id; be found again by its key, also after the index doubled (its slots
 * placed again by eo_crec_hash, which must be the key's eo_hash); and give its key back,
 * which decodes to the state's canonical key.  Returns how many states the table kept
 * by canonical key (their record does not fit), -1 on a difference, -2 when the rules
 * keep no records (two packs). */
static long eo_check_op_tab(const eo_rules *r, const eo_state *root, const eo_state *s,
                            size_t n) {
    op_ctx *x = (op_ctx *)calloc(1, sizeof(op_ctx));
    if (!x) return -1;
    x->R = *r;
    eo_cstore_init(&x->enc);
    long out = -2;
    if (eo_cstore_root(&x->enc, r, root)) {
        op_tab b;
        eo_table ref;
        op_tab_init(&b, 1);
        b.r.first_slots = 1024; /* so that the walks' states make the index double */
        eo_table_init(&ref, 64);
        out = 0;
        for (size_t i = 0; i < n && out >= 0; i++) {
            uint8_t key[EO_MAXKEY], canon[EO_MAXKEY], back[EO_MAXKEY];
            int len = op_key(x, &s[i], key), clen = eo_key(r, &s[i], canon), klen;
            long got = op_tab_insert(&b, key, len), want = eo_table_insert(&ref, canon, clen);
            long id = got >= 0 ? got : -got - 2;
            eo_state t;
            const uint8_t *k = got == want && got != -1 ? op_tab_key(&b, (size_t)id, &klen) : NULL;
            eo_crec rec;
            memcpy(&rec, key, sizeof(rec));
            if (!k || klen != len || memcmp(k, key, (size_t)len) != 0 ||
                op_tab_find_hashed(&b, key, len, eo_hash(key, len)) != id ||
                (len == (int)sizeof(rec) && eo_crec_hash(&rec) != eo_hash(key, len))) {
                out = -1;
                break;
            }
            op_unkey(x, k, klen, &t);
            if (eo_key(r, &t, back) != clen || memcmp(back, canon, (size_t)clen) != 0) out = -1;
            else if (got >= 0 && len != (int)sizeof(eo_crec)) out++;
        }
        if (out >= 0 && op_tab_count(&b) != ref.count) out = -1;
        op_tab_free(&b);
        eo_table_free(&ref);
    }
    eo_cstore_free(&x->enc);
    free(x);
    return out;
}

/* Sort a[0 .. n) as eo_drec_flush does (how 1) or by eo_drec_sort alone (how 0), then
 * free it: a hash of the sorted sequence, 0 when it is out of order or the memory is
 * lacking; *seconds the sort's CPU time.  With `records`, the entries' records alone
 * instead (eo_crec, as a layer's children are sorted: eo_crec_flush, or eo_crec_sort),
 * the hash of the records. */
static uint64_t eo_check_sorted(eo_drec *a, size_t n, int how, int records, double *seconds) {
    eo_ctx x;
    memset(&x, 0, sizeof(x));
    eo_disk d;
    memset(&d, 0, sizeof(d));
    d.x = &x;
    d.threads = 1;
    eo_crec *c = NULL;
    if (records) {
        c = (eo_crec *)malloc((n ? n : 1) * sizeof(eo_crec));
        if (!c) {
            free(a);
            return 0;
        }
        for (size_t i = 0; i < n; i++) c[i] = a[i].s;
        free(a);
        a = NULL;
    }
    double c0 = eo_cpu_now();
    int bad = records ? (how ? eo_crec_sort_buf(&d, c, n) : eo_crec_sort_all(&d, c, n))
                      : (how ? eo_drec_sort_buf(&d, a, n) : eo_drec_sort_all(&d, a, n));
    *seconds = eo_cpu_now() - c0;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n && !bad; i++) {
        const eo_crec *s = records ? &c[i] : &a[i].s;
        if (i && (records ? eo_crec_less(s, &c[i - 1]) : eo_drec_less(&a[i], &a[i - 1])))
            bad = 1;
        h = (h ^ s->hi) * 1099511628211ull;
        h = (h ^ s->lo) * 1099511628211ull;
        if (records) continue;
        h = (h ^ a[i].p.lo) * 1099511628211ull;
        h = (h ^ a[i].p.hi) * 1099511628211ull;
    }
    free(a);
    free(c);
    return bad ? 0 : h | 1;
}

/* The next of a xorshift sequence (never 0 from a state that is not 0). */
static inline uint64_t eo_check_next(uint64_t *z) {
    *z ^= *z << 13, *z ^= *z >> 7, *z ^= *z << 17;
    return *z;
}

/* For the differential test and bench/disk_sort.py: the sorts of a layer's buffer of
 * children (disk.h) on n random entries made from `seed`: records that share their top
 * 16 bits, a quarter of them the record of an entry before with another parent (a child
 * reached from several parents); or, with `distinct` > 0, that many records each held
 * by many entries.  `how` 1 sorts as eo_drec_flush does (eo_drec_radix from the
 * first bit that differs), 0 with eo_drec_sort alone; with `records`, the records alone
 * as a layer's children are (eo_crec_flush, eo_crec_sort).  Returns a hash of the sorted
 * sequence (the same for both when they agree), 0 when the result is out of order or
 * the memory is lacking; *seconds: the sort's CPU time. */
static uint64_t eo_check_drec_sort(size_t n, uint64_t seed, size_t distinct, int how,
                                   int records, double *seconds) {
    *seconds = 0.0;
    eo_drec *a = (eo_drec *)malloc((n ? n : 1) * sizeof(eo_drec));
    if (!a) return 0;
    uint64_t z = seed * 0x9e3779b97f4a7c15ull + 1;
    for (size_t i = 0; i < n; i++) {
        uint64_t u = eo_check_next(&z), w = eo_check_next(&z);
        if (distinct) {
            uint64_t k = (u >> 8) % distinct;
            a[i].s.hi = 0x5a3cull << 48 | k;
            a[i].s.lo = k * 0x9e3779b97f4a7c15ull;
        } else if (i && (u & 3) == 0) {
            a[i].s = a[(u >> 2) % i].s;
        } else {
            a[i].s.hi = 0x5a3cull << 48 | (u >> 16);
            a[i].s.lo = w;
        }
        a[i].p.hi = 0;
        a[i].p.lo = eo_check_next(&z) >> 24;
    }
    return eo_check_sorted(a, n, how, records, seconds);
}

/* For bench/disk_sort.py: the first `cap` entries of a run a search on disk wrote (a
 * packed R file of its directory), shuffled (seed), sorted as eo_check_drec_sort sorts:
 * the children of a real search, whose records are far from random.  Returns the same
 * hash, or 0 also when the file cannot be read; *n_out the entries read. */
static uint64_t eo_check_drec_sort_run(const char *path, size_t cap, uint64_t seed, int how,
                                       int records, size_t *n_out, double *seconds) {
    *seconds = 0.0;
    *n_out = 0;
    eo_drec *a = (eo_drec *)malloc((cap ? cap : 1) * sizeof(eo_drec));
    if (!a) return 0;
    eo_preader r;
    if (eo_pr_open(&r, path, NULL, 0) != 0) {
        free(a);
        return 0;
    }
    size_t n = 0;
    int rc = 1;
    while (n < cap && (rc = eo_pr_next(&r, &a[n].s, &a[n].p)) == 1) n++;
    eo_pr_close(&r);
    if (rc < 0) {
        free(a);
        return 0;
    }
    uint64_t z = seed * 0x9e3779b97f4a7c15ull + 1;
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)(eo_check_next(&z) % i);
        eo_drec t = a[i - 1];
        a[i - 1] = a[j];
        a[j] = t;
    }
    *n_out = n;
    return eo_check_sorted(a, n, how, records, seconds);
}

#endif
