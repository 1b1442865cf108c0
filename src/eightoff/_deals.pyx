# cython: language_level=3
"""The compiled copy of the deal rule (solver/deals.h) for eightoff.deals: a deal's cards
in dealing order, as card codes.  Held to pysol_cards by tests/unit/test_deals_compiled.py."""

from libc.stdint cimport uint8_t, uint64_t

cdef extern from *:
    """
    #include "deals.h"
    static void eo_deal_order_hl(int decks, uint64_t hi, uint64_t lo, uint8_t *out) {
        eo_deal_order(decks, ((eo_deal_number)hi << 64) | lo, out);
    }
    static void eo_deal_orders_hl(int decks, uint64_t hi, uint64_t lo, int count,
                                  uint8_t *out) {
        eo_deal_orders(decks, ((eo_deal_number)hi << 64) | lo, count, out);
    }
    """
    void eo_deal_order_hl(int decks, uint64_t hi, uint64_t lo, uint8_t *out) nogil
    void eo_deal_orders_hl(int decks, uint64_t hi, uint64_t lo, int count, uint8_t *out) nogil
    enum:
        EO_LANES


def order(int decks, number) -> bytes:
    """The cards of deal ``number`` (1 … 10^20 − 1) of ``decks`` packs in dealing order."""
    cdef uint8_t out[104]
    if decks not in (1, 2):
        raise ValueError("one or two packs")
    if not 1 <= number < 10**20:
        raise ValueError("deal numbers are 1 to 10^20 - 1")
    eo_deal_order_hl(decks, <uint64_t>(number >> 64), <uint64_t>(number & 0xFFFFFFFFFFFFFFFF),
                     out)
    return out[:52 * decks]


def orders(int decks, first, int count) -> bytes:
    """The cards of ``count`` consecutive deals from ``first`` in dealing order, one
    after the other (52 or 104 bytes each): the batch path, several deals at once."""
    cdef bytearray out
    cdef unsigned char *p
    cdef int i, k
    if decks not in (1, 2):
        raise ValueError("one or two packs")
    if count < 0 or not 1 <= first or first + count > 10**20:
        raise ValueError("deal numbers are 1 to 10^20 - 1")
    out = bytearray(52 * decks * count)
    p = out
    i = 0
    while i < count:
        k = min(EO_LANES, count - i)
        n = first + i
        eo_deal_orders_hl(decks, <uint64_t>(n >> 64), <uint64_t>(n & 0xFFFFFFFFFFFFFFFF), k,
                          p + 52 * decks * i)
        i += k
    return bytes(out)
