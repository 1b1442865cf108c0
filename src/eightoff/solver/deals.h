/* Numbered deals in compiled code: the second copy of the rule of eightoff.deals (the
 * first states it in Python through pysol_cards), held to it deal for deal by
 * tests/unit/test_deals_compiled.py over thousands of numbers at every boundary.
 *
 * Deal #N of a variant: the cards of its packs in pysol_cards' order (pack by pack,
 * suit by suit C S H D, Ace to King), shuffled by PySolFC's generator seeded with N
 * (N <= 32000: Microsoft's linear congruential generator, over the cards rearranged as
 * Microsoft's FreeCell lays them out when there is one pack; larger N: Python's Mersenne
 * Twister seeded with the integer N, as random.Random(N) is), then reversed: that is the
 * dealing order.  The first `to_columns` cards go round-robin into the columns, left to
 * right; the rest into the dealt cells in order.
 *
 * Plain C99 (plus unsigned __int128 for numbers up to 10^20 - 1, and POSIX threads'
 * pthread_once); nothing here touches Python.  Card codes as in core.h: rank << 2 | suit.
 */
#ifndef EIGHTOFF_DEALS_H
#define EIGHTOFF_DEALS_H

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#define EO_DEAL_MS 32000 /* numbers up to this one follow Microsoft's generator */
#define EO_DEAL_MAXCARDS 104

typedef unsigned __int128 eo_deal_number;

/* ----- Python's Mersenne Twister (MT19937, seeded as random.Random(int) seeds) ------
 * Seeding is the cost of a deal (init_by_array: 1,247 dependent steps), so it runs for
 * EO_LANES deal numbers at once, lane by lane in the innermost loops (the compiler makes
 * them vector instructions); a deal needs only the first 2 * 103 outputs, and those are
 * made from the seeded table directly (output k < 227 reads only seeded values). */
#define EO_LANES 16
#define EO_MT_OUT (2 * EO_DEAL_MAXCARDS)

static uint32_t eo_mt_base[624]; /* init_genrand(19650218), the same for every seed */
static pthread_once_t eo_mt_base_once = PTHREAD_ONCE_INIT;

static void eo_mt_base_fill(void) {
    eo_mt_base[0] = 19650218U;
    for (int i = 1; i < 624; i++)
        eo_mt_base[i] =
            1812433253U * (eo_mt_base[i - 1] ^ (eo_mt_base[i - 1] >> 30)) + (uint32_t)i;
}

/* Filled once, by the first caller: a survey's threads deal at the same time. */
static void eo_mt_base_init(void) { pthread_once(&eo_mt_base_once, eo_mt_base_fill); }

static inline uint32_t eo_mt_temper(uint32_t y) {
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= y >> 18;
    return y;
}

/* The first `nout` (<= 227) outputs of MT19937 seeded by init_by_array with each lane's
 * key (key[j][lane], `len` words, the same length in every lane): out[k][lane], for the
 * first W lanes (EO_LANES for a batch, 1 for one deal). */
static inline void eo_mt_seeded(const uint32_t key[][EO_LANES], int len, int nout,
                                uint32_t out[][EO_LANES], int W) {
    static __thread uint32_t mt[624][EO_LANES];
    eo_mt_base_init();
    for (int i = 0; i < 624; i++)
        for (int l = 0; l < W; l++) mt[i][l] = eo_mt_base[i];
    int i = 1, j = 0;
    for (int k = 624 > len ? 624 : len; k; k--) {
        for (int l = 0; l < W; l++) {
            uint32_t p = mt[i - 1][l];
            mt[i][l] = (mt[i][l] ^ ((p ^ (p >> 30)) * 1664525U)) + key[j][l] + (uint32_t)j;
        }
        i++;
        j++;
        if (i >= 624) {
            for (int l = 0; l < W; l++) mt[0][l] = mt[623][l];
            i = 1;
        }
        if (j >= len) j = 0;
    }
    for (int k = 623; k; k--) {
        for (int l = 0; l < W; l++) {
            uint32_t p = mt[i - 1][l];
            mt[i][l] = (mt[i][l] ^ ((p ^ (p >> 30)) * 1566083941U)) - (uint32_t)i;
        }
        i++;
        if (i >= 624) {
            for (int l = 0; l < W; l++) mt[0][l] = mt[623][l];
            i = 1;
        }
    }
    for (int l = 0; l < W; l++) mt[0][l] = 0x80000000U;
    for (int k = 0; k < nout; k++)
        for (int l = 0; l < W; l++) {
            uint32_t y = (mt[k][l] & 0x80000000U) | (mt[k + 1][l] & 0x7fffffffU);
            y = mt[k + 397][l] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
            out[k][l] = eo_mt_temper(y);
        }
}

/* (not in the instrumented pass of setup.py's profile-guided build: gcc's instrumented
 * ifunc resolver runs before its counters are relocated and crashes the loader) */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(EO_NO_CLONES)
__attribute__((target_clones("avx2", "default")))
#endif
static void eo_mt_lanes(const uint32_t key[][EO_LANES], int len, int nout,
                        uint32_t out[][EO_LANES]) {
    eo_mt_seeded(key, len, nout, out, EO_LANES);
}

static void eo_mt_lane1(const uint32_t key[][EO_LANES], int len, int nout,
                        uint32_t out[][EO_LANES]) {
    eo_mt_seeded(key, len, nout, out, 1);
}

static inline int eo_number_words(eo_deal_number n) {
    int len = 0;
    do {
        len++;
        n >>= 32;
    } while (n);
    return len;
}

/* ----- the dealing order ---------------------------------------------------------- */
static inline void eo_fresh_pack(int decks, uint8_t *cards) {
    for (int d = 0, k = 0; d < decks; d++)
        for (int s = 0; s < 4; s++)
            for (int r = 1; r <= 13; r++) cards[k++] = (uint8_t)(r << 2 | s);
}

static inline void eo_reverse_into(const uint8_t *cards, int n, uint8_t *out) {
    for (int i = 0; i < n; i++) out[i] = cards[n - 1 - i];
}

/* Microsoft's generator (numbers up to 32000). */
static void eo_deal_order_ms(int decks, uint32_t number, uint8_t *out) {
    int n = 52 * decks;
    uint8_t cards[EO_DEAL_MAXCARDS];
    eo_fresh_pack(decks, cards);
    if (n == 52) { /* Microsoft's layout of the pack: rank by rank, suits C D H S */
        static const int from[4] = {0, 39, 26, 13};
        uint8_t c[52];
        for (int i = 0; i < 13; i++)
            for (int j = 0; j < 4; j++) c[i * 4 + j] = cards[i + from[j]];
        memcpy(cards, c, 52);
    }
    uint64_t seed = number;
    for (int i = n - 1; i > 0; i--) {
        seed = (seed * 214013U + 2531011U) & 0x1ffffffffULL;
        int j = (int)(((seed >> 16) & 0x7fff) % (uint64_t)(i + 1));
        uint8_t t = cards[i];
        cards[i] = cards[j];
        cards[j] = t;
    }
    eo_reverse_into(cards, n, out);
}

/* The shuffle of one lane's Mersenne Twister outputs (random.random() from two). */
static void eo_shuffle_mt(int decks, const uint32_t out[][EO_LANES], int lane, uint8_t *dst) {
    int n = 52 * decks, k = 0;
    uint8_t cards[EO_DEAL_MAXCARDS];
    eo_fresh_pack(decks, cards);
    for (int i = n - 1; i > 0; i--, k += 2) {
        uint32_t a = out[k][lane] >> 5, b = out[k + 1][lane] >> 6;
        double x = (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
        int j = (int)(x * (double)(i + 1));
        uint8_t t = cards[i];
        cards[i] = cards[j];
        cards[j] = t;
    }
    eo_reverse_into(cards, n, dst);
}

/* The cards of `count` (<= EO_LANES) consecutive deals from `first` (1 .. 10^20 - 1) of
 * `decks` packs in dealing order: deal i's at out + i * 52 * decks. */
static void eo_deal_orders(int decks, eo_deal_number first, int count, uint8_t *out) {
    int n = 52 * decks, i = 0;
    while (i < count && first + (eo_deal_number)i <= EO_DEAL_MS) {
        eo_deal_order_ms(decks, (uint32_t)(first + (eo_deal_number)i), out + i * n);
        i++;
    }
    if (i == count) return;
    uint32_t key[4][EO_LANES];
    uint32_t mtout[EO_MT_OUT][EO_LANES];
    int len = eo_number_words(first + (eo_deal_number)i);
    int lanes = 0;
    for (; lanes < EO_LANES && i + lanes < count; lanes++) {
        eo_deal_number x = first + (eo_deal_number)(i + lanes);
        if (eo_number_words(x) != len) break; /* a new word: the next batch */
        for (int w = 0; w < 4; w++, x >>= 32) key[w][lanes] = (uint32_t)x;
    }
    for (int l = lanes; l < EO_LANES; l++)
        for (int w = 0; w < 4; w++) key[w][l] = key[w][0];
    (lanes > 1 ? eo_mt_lanes : eo_mt_lane1)((const uint32_t(*)[EO_LANES])key, len, 2 * (n - 1),
                                           (uint32_t(*)[EO_LANES])mtout);
    for (int l = 0; l < lanes; l++)
        eo_shuffle_mt(decks, (const uint32_t(*)[EO_LANES])mtout, l, out + (i + l) * n);
    i += lanes;
    if (i < count) eo_deal_orders(decks, first + (eo_deal_number)i, count - i, out + i * n);
}

/* The cards of deal `number` of `decks` packs in dealing order. */
static void eo_deal_order(int decks, eo_deal_number number, uint8_t *out) {
    eo_deal_orders(decks, number, 1, out);
}

/* How a variant lays out its deal. */
typedef struct {
    int decks, ncols, ncells, to_columns;
    int ndealt_cells;
    int dealt_cells[8];
} eo_layout;

/* Lay out the cards of a deal in dealing order: columns[c] gets len[c] cards bottom
 * first (columns are `colcap` bytes apart), cells[i] a card or 0. */
static void eo_lay_out(const eo_layout *L, const uint8_t *order, uint8_t *len, uint8_t *columns,
                       int colcap, uint8_t *cells) {
    int n = 52 * L->decks;
    memset(len, 0, (size_t)L->ncols);
    memset(cells, 0, (size_t)L->ncells);
    for (int i = 0; i < L->to_columns; i++) {
        int c = i % L->ncols;
        columns[c * colcap + len[c]++] = order[i];
    }
    for (int i = L->to_columns, k = 0; i < n && k < L->ndealt_cells; i++, k++)
        cells[L->dealt_cells[k]] = order[i];
}

#endif
