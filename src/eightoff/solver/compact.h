/* The seen states of a search that keeps them exactly (best-first, the complete search),
 * one pack: a state in 16 bytes, exact, no hash trusted.  (A best-first search that proves
 * nothing, a portfolio member's or the best-first stage, looks its children up by a hash
 * instead, bestfirst.h's eo_befs_by_hash, and keeps here only the records of the states it
 * enters, by id: eo_cstore_append.)
 *
 * The encoding.  Take the search's root.  In every state reached from it a column holds,
 * from the bottom, cards never moved since the root (a prefix of one root column), then
 * cards each put there by a move, so each lies on a card it stacks on (eo_stacks), but
 * the first card put into an empty column, which may be any.  So a column is either
 *   - a prefix of root column i, of length p >= 1 (the longest prefix the two share),
 *     and above it a chain of m cards each stacking on the one below; or
 *   - a base card that is no root column's bottom card, and a chain above it.
 * A chain is its length m (at most the rank below it minus one) and, building in
 * alternate colours, a bit a card (which suit of the colour; rank and colour follow
 * from the card below), left out when one of the two cards it may be is home or
 * written already (then it is the other); in suit, nothing more.  A state is then,
 * bit-packed in this order: the four foundations' ranks; for each root column in the
 * root's order that had cards, the p of the state column that begins with its bottom
 * card (0: none) and that column's chain; the number of base columns (in as many bits
 * as the columns left need), then each (in the order of their base cards) with its
 * chain.  The cells are the cards found nowhere else (one pack: all 52 cards are
 * somewhere).  Empty columns are the columns left.
 *
 * Why it is exact.  The record is a function of the foundations, the set of columns and
 * the set of cell cards only (root columns are identified by their bottom card, unique
 * in one pack; base columns are taken in card order), which is what the canonical key
 * (eo_key) holds; and eo_cdecode reads the fields back in the same order, each field's
 * width and presence given by the fields before (the foundations and the cards written
 * so far decide which suit bits are there), so it rebuilds those three from the record alone:
 * equal records are equal states, up to the symmetries eo_key allows and no more.  The
 * table compares whole records, so no hash collision can merge two states.  A state
 * the encoder cannot write in 127 bits (long chains on many base columns), or one not
 * of the shape above (never reached from the root; checked anyway), is kept by its full
 * canonical key in a second table (`big`), and its record only points there (top bit
 * set); which table a state goes to depends only on the state, so it is never in both.
 *
 * Ids: states are numbered in the order entered, as eo_table numbers them, so that a
 * search sees the same ids, the same order of the open list and the same states
 * counts with either store.  The records and their index are an eo_crecs (below), the
 * one such store, which A* (optimal.h's op_tab) keeps its records in as well.
 */
#ifndef EIGHTOFF_COMPACT_H
#define EIGHTOFF_COMPACT_H

#include "core.h"

/* The state of a canonical key (columns and cells in canonical order). */
static void eo_decode(const eo_rules *r, const uint8_t *key, eo_state *s) {
    const uint8_t *p = key;
    if (r->nfound == 4) {
        memcpy(s->found, p, 4);
        p += 4;
    } else {
        for (int f = 0; f < 4; f++) {
            s->found[f] = *p++;
            s->found[f + 4] = *p++;
        }
    }
    if (r->nfound == 4) {
        uint64_t mask;
        memcpy(&mask, p, 8);
        p += 8;
        int n = 0;
        for (uint64_t m = mask; m; m &= m - 1) n++;
        int i = 0;
        for (; i < r->ncells - n; i++) s->cell[i] = 0;
        for (uint64_t m = mask; m; m &= m - 1) s->cell[i++] = (uint8_t)__builtin_ctzll(m);
    } else {
        memcpy(s->cell, p, (size_t)r->ncells);
        p += r->ncells;
    }
    for (int c = 0; c < r->ncols; c++) {
        int L = *p++;
        s->len[c] = (uint8_t)L;
        memcpy(s->col[c], p, (size_t)L);
        p += L;
    }
    eo_recount(r, s);
}

typedef struct {
    uint64_t lo, hi; /* hi's top bit: the state is in the big table, lo its id there */
} eo_crec;

#define EO_CBIG ((uint64_t)1 << 63)
#define EO_CBLOCK_BITS 16
#define EO_CBLOCK ((size_t)1 << EO_CBLOCK_BITS)

/* ----- a set of records (eo_crecs), numbered as they enter ------------------------
 * The one store of 16-byte records by id, with its index: the complete search's and
 * best-first's (eo_cstore, below) and A*'s (optimal.h's op_tab).
 *   - The record of id at eo_crec_at(c, id): blocks of EO_CBLOCK, never copied on
 *     growth, so a pointer to a record stays good.
 *   - The index: open addressing over 4-byte slots, each the id + 1 below and above it
 *     as many bits of the record's hash as the id leaves (none once the slots reach
 *     2^32), at the high half of the hash (eo_crec_hash, the record's eo_hash: A* takes
 *     the low bits for the thread that owns a state).  Most probes of another state end
 *     without reading its record; the whole record is compared on every hit, so no hash
 *     decides that two states are the same.  The slots double before `fill` percent of
 *     them would be taken (eo_crecs_dense: three quarters, until the next doubling).
 *   - A state whose record does not fit is kept by its canonical key in `big`, and its
 *     record only points there (hi's top bit, EO_CBIG; lo its id there; big_id the way
 *     back).  Which of the two a state goes to depends only on the state, so it is never
 *     in both. */
typedef struct {
    eo_crec **blocks; /* record of id: blocks[id >> EO_CBLOCK_BITS][id & ...] */
    size_t nblocks, blockcap, count;
    uint32_t *index; /* tag | (id + 1), 0 = empty; NULL until the first insert */
    size_t imask, grow_at, first_slots;
    int ibits; /* log2 of the slots: ids stay below the slots, so id + 1 takes ibits bits,
                  and the bits above hold the tag */
    int fill;  /* percent of the slots taken before they double */
    int prefault;     /* new slots written at once (core.h's eo_table_slots) */
    eo_table big;     /* states whose record does not fit: by full canonical key */
    uint32_t *big_id; /* id of the state with big-table id i */
    size_t big_cap;
    size_t max_bytes; /* the index never grows past this many bytes of the store in all,
                         the old index counted (0: no limit; eo_seen_begin sets it) */
    int failed;
} eo_crecs;

typedef struct {
    int on; /* in use: one pack, the root given (eo_cstore_root) */
    int alt, ncols;
    uint8_t rlen[EO_MAXCOLS];
    uint8_t rcol[EO_MAXCOLS][EO_COLCAP]; /* the root's columns, in its order */
    int8_t root_of[64];                  /* card -> the root column it is the bottom of, or -1 */
    uint8_t pbits[EO_MAXCOLS];           /* bits of a prefix length of root column i */
    /* the cards of root column i's prefix of length p, a bit per card code: pre[pre0[i] + p]
     * (one pack: the root columns hold at most 52 cards, so 52 + EO_MAXCOLS entries) */
    uint64_t pre[52 + EO_MAXCOLS + 1];
    uint8_t pre0[EO_MAXCOLS];
    uint64_t home[4][16]; /* the cards of suit f up to rank n, bit by code */
    eo_crecs recs;        /* the states entered (an encoder alone, as A*'s, leaves it empty) */
} eo_cstore;

static void eo_crecs_init(eo_crecs *c, size_t first_slots, int fill) {
    memset(c, 0, sizeof(*c));
    c->first_slots = first_slots;
    c->fill = fill;
    eo_table_init(&c->big, 64);
}

/* Forget the ids: the records, their index and big_id go; the full keys stay (records
 * written elsewhere refer to them: disk.h's take-over). */
static void eo_crecs_drop_ids(eo_crecs *c) {
    for (size_t b = 0; b < c->nblocks; b++) free(c->blocks[b]);
    free(c->blocks);
    free(c->index);
    free(c->big_id);
    c->blocks = NULL;
    c->index = NULL;
    c->big_id = NULL;
    c->nblocks = c->blockcap = c->count = c->big_cap = 0;
    c->imask = c->grow_at = 0;
}

static void eo_crecs_free(eo_crecs *c) {
    eo_crecs_drop_ids(c);
    eo_table_free(&c->big);
    memset(c, 0, sizeof(*c));
}

static inline size_t eo_crecs_slot_bytes(const eo_crecs *c) {
    return c->index ? (c->imask + 1) * sizeof(uint32_t) : 0;
}

static inline size_t eo_crecs_bytes(const eo_crecs *c) {
    return c->nblocks * EO_CBLOCK * sizeof(eo_crec) + c->blockcap * sizeof(eo_crec *) +
           eo_crecs_slot_bytes(c) + eo_table_bytes(&c->big) + c->big_cap * sizeof(uint32_t);
}

static inline eo_crec *eo_crec_at(const eo_crecs *c, size_t id) {
    return &c->blocks[id >> EO_CBLOCK_BITS][id & (EO_CBLOCK - 1)];
}

/* The record's eo_hash, of its 16 bytes, lo then hi (the key op_key gives A*), written
 * out: eo_hash's one round and its last fold, its seed taken for 16 bytes
 * (checks.h's eo_check_op_tab holds the two equal). */
static inline uint64_t eo_crec_hash(const eo_crec *k) {
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ 16;
    h = eo_mum(k->lo ^ 0xa0761d6478bd642fULL ^ h, k->hi ^ 0xe7037ed1a0b428dbULL);
    return eo_mum(h, 0x8ebc6af09c88c6e3ULL);
}

/* The bits of an index slot that hold the id + 1, in an index of 2^ibits slots (the
 * bits above them hold the tag). */
static inline uint32_t eo_idmask(int ibits) {
    return ibits >= 32 ? 0xffffffffU : ((uint32_t)1 << ibits) - 1;
}

/* Double the index (the first: first_slots).  While both are held, the store takes
 * their two sizes: a growth that would pass c->max_bytes fails instead, as a lack of
 * memory, so that a search stops at its memory limit rather than well past it (the index
 * of hundreds of millions of states takes gigabytes). */
static int eo_crecs_grow(eo_crecs *c) {
    size_t n = c->index ? (c->imask + 1) * 2 : c->first_slots;
    if (c->index && c->max_bytes && eo_crecs_bytes(c) + n * sizeof(uint32_t) > c->max_bytes)
        return -1;
    uint32_t *ix = (uint32_t *)eo_zeroed(n, sizeof(uint32_t), c->prefault);
    if (!ix) return -1;
    size_t mask = n - 1;
    int ibits = __builtin_ctzll((unsigned long long)n);
    uint32_t idmask = eo_idmask(ibits);
    for (size_t id = 0; id < c->count; id++) {
        const eo_crec *k = eo_crec_at(c, id);
        if (k->hi & EO_CBIG) continue;
        uint32_t h = (uint32_t)(eo_crec_hash(k) >> 32);
        size_t j = h & mask;
        while (ix[j]) j = (j + 1) & mask;
        ix[j] = (h & ~idmask) | (uint32_t)(id + 1);
    }
    free(c->index);
    c->index = ix;
    c->imask = mask;
    c->ibits = ibits;
    c->grow_at = n * (size_t)c->fill / 100;
    return 0;
}

/* The slots filled to three quarters before they double next (as core.h's
 * eo_table_dense); the doubling after that is at `fill` again.  Whether the mark moved. */
static inline int eo_crecs_dense(eo_crecs *c) {
    size_t mark = (c->imask + 1) / 4 * 3;
    if (!c->index || c->grow_at >= mark) return 0;
    c->grow_at = mark;
    return 1;
}

/* Room for the record of id c->count. */
static int eo_crecs_room(eo_crecs *c) {
    if (c->count >= 0xfffffff0ULL) return -1;
    size_t b = c->count >> EO_CBLOCK_BITS;
    if (b < c->nblocks) return 0;
    if (b == c->blockcap) {
        size_t cap = c->blockcap ? c->blockcap * 2 : 16;
        eo_crec **p = (eo_crec **)realloc(c->blocks, cap * sizeof(eo_crec *));
        if (!p) return -1;
        c->blocks = p;
        c->blockcap = cap;
    }
    c->blocks[b] = (eo_crec *)malloc(EO_CBLOCK * sizeof(eo_crec));
    if (!c->blocks[b]) return -1;
    c->nblocks++;
    return 0;
}

/* Record k under the next id, not looked up nor indexed: that id, or -1 out of memory
 * (c->failed set). */
static long eo_crecs_put(eo_crecs *c, eo_crec k) {
    if (eo_crecs_room(c) != 0) {
        c->failed = 1;
        return -1;
    }
    long id = (long)c->count++;
    *eo_crec_at(c, (size_t)id) = k;
    return id;
}

/* Record k (one that fits) whose eo_crec_hash is h, looked up: its id, or -1 with *at
 * the empty slot where it would go (the index made already). */
static inline long eo_crecs_probe(const eo_crecs *c, const eo_crec *k, uint64_t h, size_t *at) {
    uint32_t h32 = (uint32_t)(h >> 32), idmask = eo_idmask(c->ibits), tag = h32 & ~idmask;
    for (size_t i = h32 & c->imask;; i = (i + 1) & c->imask) {
        uint32_t v = c->index[i];
        if (!v) {
            *at = i;
            return -1;
        }
        if ((v & ~idmask) == tag) {
            size_t id = (v & idmask) - 1;
            const eo_crec *o = eo_crec_at(c, id);
            if (o->lo == k->lo && o->hi == k->hi) return (long)id;
        }
    }
}

/* The id of record k (one that fits) whose eo_crec_hash is h, or -1. */
static inline long eo_crecs_find(const eo_crecs *c, const eo_crec *k, uint64_t h) {
    size_t at;
    return c->index ? eo_crecs_probe(c, k, h, &at) : -1;
}

/* Enter record k (one that fits) whose eo_crec_hash is h: its new id, -(existing id) - 2
 * if it was there, or -1 out of memory (c->failed set).  The index grows before the
 * record may enter, so that a failure leaves it out (a caller takes -1 as "not
 * entered": the search on disk takes over exactly the states entered). */
static long eo_crecs_add(eo_crecs *c, const eo_crec *k, uint64_t h) {
    if ((!c->index || c->count + 1 > c->grow_at) && eo_crecs_grow(c) != 0) {
        c->failed = 1;
        return -1;
    }
    size_t at;
    long known = eo_crecs_probe(c, k, h, &at);
    if (known >= 0) return -known - 2;
    long id = eo_crecs_put(c, *k);
    if (id >= 0) /* the tag and the id, as eo_crecs_probe reads them */
        c->index[at] = ((uint32_t)(h >> 32) & ~eo_idmask(c->ibits)) | (uint32_t)(id + 1);
    return id;
}

/* The id of a state kept by its canonical key (eo_key, whose eo_hash is h), or -1. */
static inline long eo_crecs_find_big(const eo_crecs *c, const uint8_t *key, int len,
                                     uint64_t h) {
    long bid = eo_table_find_hashed(&c->big, key, len, h);
    return bid < 0 ? -1 : (long)c->big_id[bid];
}

/* Enter a state by its canonical key (its record does not fit; eo_hash h): as
 * eo_crecs_add answers. */
static long eo_crecs_add_big(eo_crecs *c, const uint8_t *key, int len, uint64_t h) {
    long bid = eo_table_insert_hashed(&c->big, key, len, h);
    if (bid < -1) return -(long)c->big_id[-bid - 2] - 2;
    if (bid >= 0 && (size_t)bid >= c->big_cap) {
        size_t cap = c->big_cap ? c->big_cap * 2 : 64;
        uint32_t *p = (uint32_t *)realloc(c->big_id, cap * sizeof(uint32_t));
        if (p) {
            c->big_id = p;
            c->big_cap = cap;
        } else {
            bid = -1;
        }
    }
    if (bid == -1) {
        c->failed = 1;
        return -1;
    }
    eo_crec k = {.lo = (uint64_t)bid, .hi = EO_CBIG};
    long id = eo_crecs_put(c, k);
    if (id >= 0) c->big_id[bid] = (uint32_t)id;
    return id;
}

/* Hints for a batch of lookups (as core.h's eo_table_prefetch_slot and eo_table_first:
 * the id in the first slot from h's with h's tag, or -1, a guess to be confirmed). */
static inline void eo_crecs_prefetch_slot(const eo_crecs *c, uint64_t h) {
    if (c->index) __builtin_prefetch(&c->index[(uint32_t)(h >> 32) & c->imask]);
}

static inline long eo_crecs_first(const eo_crecs *c, uint64_t h) {
    if (!c->index) return -1;
    uint32_t h32 = (uint32_t)(h >> 32), idmask = eo_idmask(c->ibits), tag = h32 & ~idmask;
    for (size_t i = h32 & c->imask;; i = (i + 1) & c->imask) {
        uint32_t v = c->index[i];
        if (!v) return -1;
        if ((v & ~idmask) == tag) return (long)(v & idmask) - 1;
    }
}

static inline int eo_bw(unsigned v) { return v ? 32 - __builtin_clz(v) : 0; }

/* the index at most 70% full: one slot of 4 bytes a state at 1.4 to 2.9 slots a state */
static void eo_cstore_init(eo_cstore *c) {
    memset(c, 0, sizeof(*c));
    eo_crecs_init(&c->recs, 1024, 70);
}

static void eo_cstore_free(eo_cstore *c) {
    eo_crecs_free(&c->recs);
    memset(c, 0, sizeof(*c));
}

/* Forget every state and take `root` as the root of the encoding: on when the rules
 * have one pack.  Returns c->on. */
static int eo_cstore_root(eo_cstore *c, const eo_rules *r, const eo_state *root) {
    eo_cstore_free(c);
    eo_cstore_init(c);
    int cards = 0;
    for (int i = 0; i < r->ncols; i++) cards += root->len[i];
    if (r->nfound != 4 || r->total != 52 || r->ncols > EO_MAXCOLS || cards > 52) return 0;
    c->on = 1;
    c->alt = r->alt;
    c->ncols = r->ncols;
    memset(c->root_of, -1, sizeof(c->root_of));
    for (int f = 0; f < 4; f++)
        for (int n = 1; n < 16; n++)
            c->home[f][n] = c->home[f][n - 1] | (n <= EO_KING ? (uint64_t)1 << (n << 2 | f) : 0);
    int at = 0;
    for (int i = 0; i < r->ncols; i++) {
        int L = root->len[i];
        c->rlen[i] = (uint8_t)L;
        memcpy(c->rcol[i], root->col[i], (size_t)L);
        c->pbits[i] = (uint8_t)eo_bw((unsigned)L);
        if (L) c->root_of[root->col[i][0]] = (int8_t)i;
        c->pre0[i] = (uint8_t)at;
        c->pre[at] = 0;
        for (int p = 0; p < L; p++, at++) c->pre[at + 1] = c->pre[at] | (uint64_t)1 << root->col[i][p];
        at++;
    }
    return 1;
}

/* ----- the encoding --------------------------------------------------------------- */
typedef struct {
    __uint128_t acc;
    int pos;
} eo_bits;

/* The record being written: bits appended from the low end of lo up, then hi; bits past
 * the 128th are dropped, and eo_cencode checks at the end that pos is at most 127 (the
 * top bit is the record's flag).  Two words by name, not an array, so that the compiler
 * keeps them in registers. */
typedef struct {
    uint64_t lo, hi;
    int pos;
} eo_bitw;

/* Append the low n bits of v (n < 64, v < 2^n). */
static inline void eo_put(eo_bitw *b, uint64_t v, int n) {
    int o = b->pos;
    if (o < 64) {
        b->lo |= v << o;
        b->hi |= (v >> 1) >> (63 - o); /* the bits past lo (none when they fit) */
    } else if (o < 128) {
        b->hi |= v << (o - 64);
    }
    b->pos = o + n;
}

static inline unsigned eo_get(eo_bits *b, int n) {
    unsigned v = (unsigned)(b->acc >> b->pos) & ((1u << n) - 1);
    b->pos += n;
    return v;
}

/* Building in alternate colours, the card of rank `rank` and suit bit `bit` of the
 * colour other than `below`'s. */
static inline int eo_chain_card(int below, int rank, int bit) {
    return rank << 2 | (((below & 2) ^ 2) | bit);
}

/* The two cards a chain card on `below` may be (the two of the other colour one rank
 * lower, adjacent card codes), as two bits: which of them `used` holds (home, or written
 * already).  None: the card needs its suit bit; else it is the one left, its suit bit
 * the low bit of the pair (the first one used: the second is left). */
static inline unsigned eo_chain_pair(int below, uint64_t used) {
    return (unsigned)(used >> eo_chain_card(below, eo_rank(below) - 1, 0)) & 3;
}

/* The cards home (bit by card code), from the foundations' ranks. */
static inline uint64_t eo_home_bits(const eo_cstore *c, const uint8_t *found) {
    return c->home[0][found[0]] | c->home[1][found[1]] | c->home[2][found[2]] |
           c->home[3][found[3]];
}

/* The bits of a chain's length on a card (by card code): eo_bw(rank - 1), the most cards
 * that can stack on it being rank - 1. */
#define EO_CB4(n) n, n, n, n
static const uint8_t eo_chain_bits[64] = {
    EO_CB4(0), EO_CB4(0), EO_CB4(1), EO_CB4(2), EO_CB4(2), EO_CB4(3), EO_CB4(3), EO_CB4(3),
    EO_CB4(3), EO_CB4(4), EO_CB4(4), EO_CB4(4), EO_CB4(4), EO_CB4(4), EO_CB4(0), EO_CB4(0)};
#undef EO_CB4

/* The length of the prefix that column `col` (L cards) shares with root column i (its
 * bottom card the same), compared eight cards at a time: both arrays hold EO_COLCAP
 * bytes, and a difference past the shorter one is cut to it. */
static inline int eo_root_prefix(const eo_cstore *c, int i, const uint8_t *col, int L) {
    int lim = L < c->rlen[i] ? L : c->rlen[i];
    const uint8_t *root = c->rcol[i];
    for (int p = 0; p < lim; p += 8) {
        uint64_t x, y;
        memcpy(&x, col + p, 8);
        memcpy(&y, root + p, 8);
        if (x != y) {
            p += __builtin_ctzll(x ^ y) >> 3;
            return p < lim ? p : lim;
        }
    }
    return lim;
}

/* The chain of column `col` (L cards) from position `from` (>= 1) up: its length, then
 * (alternate colours) a suit bit for each card that needs one (eo_chain_pair: neither
 * of the two cards it may be is home or written already; else it is the one left).
 * `used`: the cards written so far, these added (alternate colours only: in suit no
 * card needs a bit).  -1 when a card does not stack on the one below or
 * is not the one left (never in a state of one pack reached from the root). */
static inline int eo_put_chain(int alt, eo_bitw *b, const uint8_t *col, int from, int L,
                               uint64_t *used, unsigned head, int head_bits) {
    /* the field before it (`head`, in `head_bits` bits) and the length in one put */
    eo_put(b, head | (unsigned)(L - from) << head_bits, head_bits + eo_chain_bits[col[from - 1]]);
    if (!alt) {
        /* each card one rank lower than the one below, of its suit: one code lower by 4,
         * eight cards at a time (the column holds EO_COLCAP bytes; those past L are left
         * out, and a carry out of them only goes up, into bytes left out too) */
        for (int k = from; k < L; k += 8) {
            uint64_t x, y;
            memcpy(&x, col + k, 8);
            memcpy(&y, col + k - 1, 8);
            uint64_t d = (x + 0x0404040404040404ULL) ^ y;
            if (L - k < 8) d &= ((uint64_t)1 << (8 * (L - k))) - 1;
            if (d) return -1;
        }
        return 0;
    }
    uint64_t u = *used;
    for (int k = from; k < L; k++) {
        int card = col[k], below = col[k - 1];
        if ((card >> 2) + 1 != (below >> 2) || !((card ^ below) & 2)) return -1;
        unsigned two = eo_chain_pair(below, u);
        if (!two) {
            eo_put(b, (unsigned)card & 1u, 1);
        } else if ((unsigned)(card & 1) != (two & 1)) {
            return -1;
        }
        u |= (uint64_t)1 << card;
    }
    *used = u;
    return 0;
}

/* The record of s; -1 when it does not fit (then s goes to the big table). */
static int eo_cencode(const eo_cstore *c, const eo_rules *r, const eo_state *s, eo_crec *out) {
    eo_bitw b = {(uint64_t)s->found[0] | (uint64_t)s->found[1] << 4 |
                     (uint64_t)s->found[2] << 8 | (uint64_t)s->found[3] << 12,
                 0, 16};
    /* r's fields, not c's copies of them: constants in a copy of the search compiled for
     * one variant's rules (fixed.h), where in suit the bookkeeping of `used` goes */
    int alt = r->alt, at[EO_MAXCOLS], pl[EO_MAXCOLS], base[EO_MAXCOLS], nb = 0;
    for (int i = 0; i < r->ncols; i++) at[i] = -1;
    for (int k = 0; k < r->ncols; k++) {
        int L = s->len[k];
        if (!L) continue;
        const uint8_t *col = s->col[k];
        int i = c->root_of[col[0]];
        if (i >= 0) {
            at[i] = k;
            pl[i] = eo_root_prefix(c, i, col, L);
        } else {
            /* in card order (insertion) */
            int j = nb++;
            while (j > 0 && s->col[base[j - 1]][0] > col[0]) {
                base[j] = base[j - 1];
                j--;
            }
            base[j] = k;
        }
    }
    /* home, then also written (needed in alternate colours only) */
    uint64_t used = alt ? eo_home_bits(c, s->found) : 0;
    int present = 0;
    for (int i = 0; i < r->ncols; i++) {
        if (!c->rlen[i]) continue;
        if (at[i] < 0) {
            eo_put(&b, 0, c->pbits[i]);
        } else {
            int k = at[i];
            present++;
            if (alt) /* the prefix: root column i's first pl[i] cards */
                used |= c->pre[c->pre0[i] + pl[i]];
            if (eo_put_chain(alt, &b, s->col[k], pl[i], s->len[k], &used, (unsigned)pl[i],
                             c->pbits[i]) != 0)
                return -1;
        }
    }
    /* at most the columns left */
    eo_put(&b, (unsigned)nb, eo_bw((unsigned)(r->ncols - present)));
    for (int j = 0; j < nb; j++) {
        int k = base[j];
        if (alt) used |= (uint64_t)1 << s->col[k][0];
        if (eo_put_chain(alt, &b, s->col[k], 1, s->len[k], &used, s->col[k][0], 6) != 0) return -1;
    }
    if (b.pos > 127) return -1;
    out->lo = b.lo;
    out->hi = b.hi;
    return 0;
}

/* ----- the record from its columns' parts (in suit) -----------------------------------
 * In suit each column's field of the record stands alone (no card needs a suit bit, so
 * no field depends on the cards written before it): the complete depth-first search
 * keeps the fields of each frame's state, and a child's record re-reads only the columns
 * its step and auto-moves touched (eo_cparts_update), then puts the fields in the
 * record's order (eo_cencode_parts): the same record eo_cencode makes (checks.h,
 * eo_check_compact, holds the two to each other). */
typedef struct {
    uint32_t val[EO_MAXCOLS]; /* column k's field: its head, then its chain's length */
    uint8_t bits[EO_MAXCOLS];  /* the field's bits */
    int8_t root[EO_MAXCOLS];   /* the root column whose bottom card it holds, or -1 another
                                  bottom card, -2 empty, -3 no chain above its head (the
                                  state is kept by its full key: eo_cencode says -1) */
} eo_cparts;

/* Column k's part of s (in suit). */
static inline void eo_cpart(const eo_cstore *c, const eo_state *s, int k, eo_cparts *p) {
    int L = s->len[k];
    if (!L) {
        p->root[k] = -2;
        return;
    }
    const uint8_t *col = s->col[k];
    int i = c->root_of[col[0]], from, head_bits;
    unsigned head;
    if (i >= 0) {
        from = eo_root_prefix(c, i, col, L);
        head = (unsigned)from;
        head_bits = c->pbits[i];
    } else {
        from = 1;
        head = col[0];
        head_bits = 6;
    }
    eo_bitw b = {0, 0, 0};
    uint64_t used = 0;
    p->root[k] = (int8_t)(eo_put_chain(0, &b, col, from, L, &used, head, head_bits) ? -3 : i);
    p->val[k] = (uint32_t)b.lo;
    p->bits[k] = (uint8_t)b.pos;
}

/* The parts of s (in suit) into out: those of the columns in `mask` made afresh, the
 * others copied from `from`, the parts of a state that differs from s only in the
 * columns of mask (NULL: every column made afresh). */
static inline void eo_cparts_update(const eo_cstore *c, const eo_rules *r, const eo_state *s,
                                    const eo_cparts *from, unsigned mask, eo_cparts *out) {
    if (from) {
        if (out != from) *out = *from;
    } else {
        mask = (1u << r->ncols) - 1;
    }
    for (unsigned m = mask; m; m &= m - 1) eo_cpart(c, s, __builtin_ctz(m), out);
}

/* eo_cencode from s's parts (in suit): the same record, or -1 where it would be. */
static inline int eo_cencode_parts(const eo_cstore *c, const eo_rules *r, const eo_state *s,
                                   const eo_cparts *p, eo_crec *out) {
    eo_bitw b = {(uint64_t)s->found[0] | (uint64_t)s->found[1] << 4 |
                     (uint64_t)s->found[2] << 8 | (uint64_t)s->found[3] << 12,
                 0, 16};
    int at[EO_MAXCOLS], base[EO_MAXCOLS], nb = 0, present = 0;
    for (int i = 0; i < r->ncols; i++) at[i] = -1;
    for (int k = 0; k < r->ncols; k++) {
        int i = p->root[k];
        if (i >= 0) {
            at[i] = k;
            present++;
        } else if (i == -1) {
            int j = nb++; /* in card order (insertion) */
            while (j > 0 && s->col[base[j - 1]][0] > s->col[k][0]) {
                base[j] = base[j - 1];
                j--;
            }
            base[j] = k;
        } else if (i == -3) {
            return -1;
        }
    }
    for (int i = 0; i < r->ncols; i++) {
        if (!c->rlen[i]) continue;
        if (at[i] < 0)
            eo_put(&b, 0, c->pbits[i]);
        else
            eo_put(&b, p->val[at[i]], p->bits[at[i]]);
    }
    eo_put(&b, (unsigned)nb, eo_bw((unsigned)(r->ncols - present)));
    for (int j = 0; j < nb; j++) eo_put(&b, p->val[base[j]], p->bits[base[j]]);
    if (b.pos > 127) return -1;
    out->lo = b.lo;
    out->hi = b.hi;
    return 0;
}

static inline void eo_get_chain(const eo_cstore *c, eo_bits *b, uint8_t *col, int *L,
                                uint64_t *used) {
    int n = *L;
    int m = (int)eo_get(b, eo_chain_bits[col[n - 1]]);
    for (int k = 0; k < m; k++, n++) {
        int below = col[n - 1], rank = eo_rank(below) - 1;
        if (!c->alt) {
            col[n] = (uint8_t)(rank << 2 | (below & 3));
        } else {
            unsigned two = eo_chain_pair(below, *used);
            col[n] = (uint8_t)eo_chain_card(below, rank, two ? (int)(two & 1) : (int)eo_get(b, 1));
        }
        *used |= (uint64_t)1 << col[n];
    }
    *L = n;
}

/* The state of a record, laid out as eo_decode lays out its canonical key: columns in
 * canonical order, empty cells first, then the cell cards in card order. */
static void eo_cdecode(const eo_cstore *c, const eo_rules *r, const eo_crec *rec, eo_state *s) {
    if (rec->hi & EO_CBIG) {
        size_t id = (size_t)rec->lo;
        eo_decode(r, c->recs.big.arena + c->recs.big.offs[id] + 1, s);
        return;
    }
    eo_bits b = {(__uint128_t)rec->hi << 64 | rec->lo, 0};
    eo_state t;
    int nc = 0;
    for (int f = 0; f < 4; f++) s->found[f] = (uint8_t)eo_get(&b, 4);
    uint64_t used = eo_home_bits(c, s->found); /* home, then also written */
    for (int i = 0; i < c->ncols; i++) {
        if (!c->rlen[i]) continue;
        int p = (int)eo_get(&b, c->pbits[i]);
        if (!p) continue;
        memcpy(t.col[nc], c->rcol[i], (size_t)p);
        used |= c->pre[c->pre0[i] + p];
        eo_get_chain(c, &b, t.col[nc], &p, &used);
        t.len[nc++] = (uint8_t)p;
    }
    int nb = (int)eo_get(&b, eo_bw((unsigned)(r->ncols - nc)));
    for (int j = 0; j < nb; j++) {
        int L = 1;
        t.col[nc][0] = (uint8_t)eo_get(&b, 6);
        used |= (uint64_t)1 << t.col[nc][0];
        eo_get_chain(c, &b, t.col[nc], &L, &used);
        t.len[nc++] = (uint8_t)L;
    }
    for (; nc < r->ncols; nc++) t.len[nc] = 0;
    /* the cells: every card neither home nor in a column (those are `used`) */
    uint64_t left = ~used & EO_PACK_BITS;
    int n = __builtin_popcountll(left), i = 0;
    for (; i < r->ncells - n; i++) s->cell[i] = 0;
    for (uint64_t m = left; m; m &= m - 1) s->cell[i++] = (uint8_t)__builtin_ctzll(m);
    int perm[EO_MAXCOLS];
    eo_canon_order(r, &t, perm, NULL);
    for (int k = 0; k < r->ncols; k++) {
        int L = t.len[perm[k]];
        s->len[k] = (uint8_t)L;
        memcpy(s->col[k], t.col[perm[k]], (size_t)L);
    }
    eo_recount(r, s);
}

/* ----- the store of the states entered ------------------------------------------ */
/* A state kept by its full key (its record does not fit): its new id, -(existing id) - 2
 * if it was there, or -1 out of memory (c->recs.failed set). */
static long eo_cstore_insert_big(eo_cstore *c, const eo_rules *r, const eo_state *s) {
    uint8_t key[EO_MAXKEY];
    int len = eo_key(r, s, key);
    return eo_crecs_add_big(&c->recs, key, len, eo_hash(key, len));
}

/* Enter s; return its new id, or -(existing id) - 2 if it was there, or -1 if out of
 * memory (c->recs.failed set). */
static long eo_cstore_insert_rec(eo_cstore *c, const eo_rules *r, const eo_state *s, int fits,
                                 eo_crec k);

static long eo_cstore_insert(eo_cstore *c, const eo_rules *r, const eo_state *s) {
    eo_crec k;
    int fits = eo_cencode(c, r, s, &k) == 0;
    return eo_cstore_insert_rec(c, r, s, fits, k);
}

/* eo_cstore_insert of s, its record k made already (fits 0: s has none, by its full key
 * then). */
static long eo_cstore_insert_rec(eo_cstore *c, const eo_rules *r, const eo_state *s, int fits,
                                 eo_crec k) {
    if (!fits) return eo_cstore_insert_big(c, r, s);
    return eo_crecs_add(&c->recs, &k, eo_crec_hash(&k));
}

/* Enter s, known to be new (by a lookup elsewhere), without looking it up: its record
 * only, the index left as it is (nothing looks such a store up by record).  Its new id,
 * or -1 if out of memory (c->recs.failed set), as eo_cstore_insert answers. */
static long eo_cstore_append(eo_cstore *c, const eo_rules *r, const eo_state *s) {
    eo_crec k;
    if (eo_cencode(c, r, s, &k) != 0) return eo_cstore_insert_big(c, r, s); /* never there */
    return eo_crecs_put(&c->recs, k);
}

/* The state of id, laid out as eo_decode lays out a canonical key. */
static inline void eo_cstore_state(const eo_cstore *c, const eo_rules *r, size_t id, eo_state *s) {
    eo_cdecode(c, r, eo_crec_at(&c->recs, id), s);
}

#endif
