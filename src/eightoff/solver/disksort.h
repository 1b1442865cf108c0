/* The sorts of a search on disk's buffers (disk.h), and the writing of a sorted buffer as
 * a run: written once, included by disk.h once for each kind of entry it sorts (no
 * include guard), with
 *   EO_ST          the entry's type: eo_drec (a record and its parent's, the take-overs'
 *                  entries) or eo_crec (a record alone, the children of a layer made on
 *                  disk, which carry no parent);
 *   EO_SN(name)    the name of the function `name` for that type (eo_drec_sort, ...);
 *   EO_SLESS(a, b) the order of two entries (pointers): by record, then by parent;
 *   EO_SREC(e)     the record of entry e (an lvalue);
 *   EO_SPARENT(e)  a pointer to the parent of entry e as a run writes it (all ones:
 *                  none).
 * The macros are undefined at the end. */

static inline void EO_SN(swap)(EO_ST *a, EO_ST *b) {
    EO_ST t = *a;
    *a = *b;
    *b = t;
}

static void EO_SN(sift)(EO_ST *a, size_t i, size_t n) {
    EO_ST v = a[i];
    for (size_t c; (c = 2 * i + 1) < n; i = c) {
        if (c + 1 < n && EO_SLESS(&a[c], &a[c + 1])) c++;
        if (!EO_SLESS(&v, &a[c])) break;
        a[i] = a[c];
    }
    a[i] = v;
}

/* Sort a[0 .. n) by EO_SLESS: introsort (quicksort, median of three, Hoare's
 * partition; heapsort past the depth limit; insertion sort below 24 entries), with the
 * comparison inlined (about 5 times glibc's qsort on 30 million entries; what the radix
 * sort below leaves to it: small parts, and parts of one record), and the time
 * limit and the signals checked at every partition of a million entries or more and
 * every million swaps inside one of 4 million or more (every million sifts of the
 * heapsort of a part of a million or more), so that sorting a buffer of
 * gigabytes answers Ctrl+C at once.  Nonzero when it stops (status set; the buffer is
 * then unordered). */
static int EO_SN(sort)(eo_disk *d, EO_ST *a, size_t n, int depth) {
    while (n > 24) {
        if (n >= ((size_t)1 << 20) && eo_disk_halted(d)) return -1;
        if (depth-- == 0) {
            /* heapsort: checked every million sifts when the part is a million or more */
            const int large = n >= ((size_t)1 << 20);
            for (size_t i = n / 2; i-- > 0;) {
                EO_SN(sift)(a, i, n);
                if (large && (i & 0xfffff) == 0 && eo_disk_halted(d)) return -1;
            }
            for (size_t m = n; m-- > 1;) {
                EO_SN(swap)(&a[0], &a[m]);
                EO_SN(sift)(a, 0, m);
                if (large && (m & 0xfffff) == 0 && eo_disk_halted(d)) return -1;
            }
            return 0;
        }
        size_t mid = n / 2;
        if (EO_SLESS(&a[mid], &a[0])) EO_SN(swap)(&a[mid], &a[0]);
        if (EO_SLESS(&a[n - 1], &a[mid])) {
            EO_SN(swap)(&a[mid], &a[n - 1]);
            if (EO_SLESS(&a[mid], &a[0])) EO_SN(swap)(&a[mid], &a[0]);
        }
        const EO_ST pv = a[mid];
        /* Hoare: a[0] <= pv <= a[n - 1] stop both scans inside the array; the parts
         * [0, j] and (j, n) are both non-empty */
        size_t i = 0, j = n - 1, swaps = 0;
        const int big = n >= ((size_t)1 << 22);
        for (;;) {
            while (EO_SLESS(&a[i], &pv)) i++;
            while (EO_SLESS(&pv, &a[j])) j--;
            if (i >= j) break;
            EO_SN(swap)(&a[i], &a[j]);
            i++;
            j--;
            /* a partition of gigabytes takes seconds: checked inside it too */
            if (big && (++swaps & 0xfffff) == 0 && eo_disk_halted(d)) return -1;
        }
        size_t left = j + 1;
        /* the smaller part first (recursion depth at most log2 n), the larger in the loop */
        if (left < n - left) {
            if (EO_SN(sort)(d, a, left, depth) != 0) return -1;
            a += left;
            n -= left;
        } else {
            if (EO_SN(sort)(d, a + left, n - left, depth) != 0) return -1;
            n = left;
        }
    }
    for (size_t i = 1; i < n; i++) {
        EO_ST v = a[i];
        size_t k = i;
        for (; k > 0 && EO_SLESS(&v, &a[k - 1]); k--) a[k] = a[k - 1];
        a[k] = v;
    }
    return 0;
}

/* The introsort of a[0 .. n) with its depth limit (twice log2 n). */
static int EO_SN(sort_all)(eo_disk *d, EO_ST *a, size_t n) {
    int depth = 0;
    for (size_t m = n; m > 1; m >>= 1) depth += 2;
    return EO_SN(sort)(d, a, n, depth);
}

/* Sort a[0 .. n), whose records agree on their bits before bit b, by EO_SLESS: a
 * radix sort in place on the record's bits from b, 8 at a time, from the top (American
 * flag sort: count the entries of each value of the 8 bits, then move each entry into
 * its part, each moved once), each part then sorted the same way on the next 8 bits; a
 * part of at most EO_RADIX_MIN entries, or one whose records are all equal (then ordered
 * by parent), by the introsort.  The order is EO_SLESS's: a part holds the entries
 * of one value of the bits sorted so far, and the parts lie in the order of that value.
 * It takes less CPU than the introsort alone, which goes over the whole buffer some 30
 * times: 2.3 times less on 120 million random records, 1.2 times less on 86 million
 * children of a real search, whose records differ in few bits (8 bits split a part into
 * 5 to 25 parts, so some 10 passes are made; bench/README.md, "Sorting the children").
 * The time limit and the signals are checked every million entries moved in a part of a
 * million or more.  Nonzero when it stops (status set; the buffer is then unordered). */
static int EO_SN(radix)(eo_disk *d, EO_ST *a, size_t n, int b) {
    while (n > EO_RADIX_MIN && b < 128) {
        const int large = n >= ((size_t)1 << 20);
        if (large && eo_disk_halted(d)) return -1;
        size_t count[256] = {0};
        for (size_t i = 0; i < n; i++) count[eo_crec_byte(&EO_SREC(a[i]), b)]++;
        if (count[eo_crec_byte(&EO_SREC(a[0]), b)] == n) { /* one value: the next 8 bits */
            b += 8;
            continue;
        }
        size_t head[256], tail[256], sum = 0;
        for (int k = 0; k < 256; k++) {
            head[k] = sum;
            sum += count[k];
            tail[k] = sum;
        }
        size_t moved = 0;
        for (unsigned k = 0; k < 256; k++) {
            while (head[k] < tail[k]) {
                EO_ST v = a[head[k]];
                unsigned dk = eo_crec_byte(&EO_SREC(v), b);
                while (dk != k) { /* v to its part, the entry there taken on */
                    EO_ST t = a[head[dk]];
                    a[head[dk]++] = v;
                    v = t;
                    dk = eo_crec_byte(&EO_SREC(v), b);
                    if (large && (++moved & 0xfffff) == 0 && eo_disk_halted(d)) return -1;
                }
                a[head[k]++] = v;
            }
        }
        size_t start = 0;
        for (int k = 0; k < 256; k++) {
            if (count[k] > 1 && EO_SN(radix)(d, a + start, count[k], b + 8) != 0) return -1;
            start += count[k];
        }
        return 0;
    }
    return EO_SN(sort_all)(d, a, n);
}

/* Sort a buffer by EO_SLESS: the radix sort from the first bit on
 * which the records differ (the bits they all share skipped at once).  Nonzero when it
 * stops (status set). */
static int EO_SN(sort_buf)(eo_disk *d, EO_ST *buf, size_t n) {
    uint64_t hi = 0, lo = 0;
    for (size_t i = 1; i < n; i++) {
        hi |= EO_SREC(buf[i]).hi ^ EO_SREC(buf[0]).hi;
        lo |= EO_SREC(buf[i]).lo ^ EO_SREC(buf[0]).lo;
    }
    int b = hi ? __builtin_clzll(hi) : lo ? 64 + __builtin_clzll(lo) : 128;
    return EO_SN(radix)(d, buf, n, b);
}

/* Sort buf[0 .. *n), write it as the next run (its number taken under the lock: the
 * threads of an expansion flush their own buffers), packed, one entry per record (with
 * the least parent); *n is then 0. */
static int EO_SN(flush)(eo_disk *d, EO_ST *buf, size_t *n) {
    if (!*n) return 0;
    if (EO_SN(sort_buf)(d, buf, *n) != 0) return -1;
    char path[4160];
    pthread_mutex_lock(&d->mu);
    int run = d->run_seq + d->nruns++;
    pthread_mutex_unlock(&d->mu);
    eo_disk_path(d, path, "R", run);
    eo_pwriter w;
    if (eo_pw_open(d, &w, path) != 0) return -1;
    int bad = 0;
    for (size_t i = 0; i < *n && !bad; i++)
        if (!i || eo_crec_cmp(&EO_SREC(buf[i - 1]), &EO_SREC(buf[i])) != 0)
            bad = eo_pw_put(&w, &EO_SREC(buf[i]), EO_SPARENT(buf[i])) != 0;
    if (eo_pw_close(&w) != 0 || bad) return -1;
    *n = 0;
    return 0;
}


#undef EO_ST
#undef EO_SN
#undef EO_SLESS
#undef EO_SREC
#undef EO_SPARENT
