# cython: boundscheck=False, wraparound=False, initializedcheck=False
"""Byte strings looked up by 64-bit keys and joined, in compiled code: for outputs that
print one line or object per key of a long sequence (``eightoff solve`` prints a
solution's moves from the compiled replay's move keys).  It knows nothing of cards or
words: the strings come from a Python function, called once for each key not seen
before, and are kept (with their key) for the life of the :class:`Pieces`.

>>> p = Pieces(lambda k: b"<%d>" % k)
>>> from array import array
>>> p.join(array("Q", [3, 1, 3]), b", ")
b'<3>, <1>, <3>'
>>> p.join(array("Q", [7, 8]), b"", [b"1. ", b"2. "])
b'1. <7>2. <8>'
>>> p.join(array("Q", [1]), before=b"[", after=b"]\\n")
b'[<1>]\\n'
>>> p.join(array("Q", [7, 1 << 40 | 9, 8]), b"", [b"1. ", b"2. "], free_label=b" + ")
b'1. <7> + <1099511627785>2. <8>'
>>> len(p)
5
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython.list cimport PyList_GET_ITEM, PyList_GET_SIZE
from cpython.ref cimport PyObject
from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy


cdef int C_FREE_BIT = 40
FREE_BIT = C_FREE_BIT
"""The bit of a key that marks a move that does not count (replay.h's EO_KEY_FREE)."""


cdef class Pieces:
    """The byte string of each key, made by ``make(key)`` (which must return bytes) the
    first time the key is met: an open-addressing table of keys beside the strings."""

    cdef object make
    cdef list owned  # the strings, so that the table's pointers stay valid
    cdef uint64_t *slots
    cdef PyObject **values
    cdef Py_ssize_t cap, used
    cdef int bits

    def __cinit__(self, make):
        self.make = make
        self.owned = []
        self.bits = 12
        self.cap = 1 << self.bits
        self.used = 0
        self.slots = <uint64_t *>calloc(self.cap, sizeof(uint64_t))
        self.values = <PyObject **>calloc(self.cap, sizeof(PyObject *))
        if self.slots == NULL or self.values == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.slots)
        free(self.values)

    def __len__(self) -> int:
        return self.used

    cdef inline Py_ssize_t _find(self, uint64_t key) noexcept:
        cdef Py_ssize_t mask = self.cap - 1
        cdef Py_ssize_t i = <Py_ssize_t>((key * <uint64_t>0x9E3779B97F4A7C15) >> (64 - self.bits))
        while self.values[i] != NULL and self.slots[i] != key:
            i = (i + 1) & mask
        return i

    cdef int _grow(self) except -1:
        cdef uint64_t *old_slots = self.slots
        cdef PyObject **old_values = self.values
        cdef Py_ssize_t old_cap = self.cap, i, j
        self.bits += 1
        self.cap = 1 << self.bits
        self.slots = <uint64_t *>calloc(self.cap, sizeof(uint64_t))
        self.values = <PyObject **>calloc(self.cap, sizeof(PyObject *))
        if self.slots == NULL or self.values == NULL:
            raise MemoryError()
        for i in range(old_cap):
            if old_values[i] != NULL:
                j = self._find(old_slots[i])
                self.slots[j] = old_slots[i]
                self.values[j] = old_values[i]
        free(old_slots)
        free(old_values)
        return 0

    cdef PyObject *get(self, uint64_t key) except NULL:
        cdef Py_ssize_t i = self._find(key)
        if self.values[i] != NULL:
            return self.values[i]
        value = self.make(key)
        if not isinstance(value, bytes):
            raise TypeError(f"make({key}) gave {type(value).__name__}, not bytes")
        self.owned.append(value)
        self.slots[i] = key
        self.values[i] = <PyObject *>value
        self.used += 1
        if 2 * self.used > self.cap:
            self._grow()
        return <PyObject *>value

    def join(self, const unsigned long long[:] keys, bytes sep=b"", list numbers=None,
             bytes before=b"", bytes after=b"", bytes free_label=None) -> bytes:
        """The strings of ``keys`` in order, ``sep`` between them, each after the next
        item of ``numbers`` when given (numbers: at least as many as the keys that take
        one), the whole between ``before`` and ``after``.  With ``free_label``, a key
        with bit :data:`FREE_BIT` set takes that label instead and no number (a move
        that does not count)."""
        cdef Py_ssize_t n = keys.shape[0], i, total = 0, at = 0, k = 0
        cdef Py_ssize_t nsep = PyBytes_GET_SIZE(sep)
        cdef Py_ssize_t nbefore = PyBytes_GET_SIZE(before), nafter = PyBytes_GET_SIZE(after)
        cdef uint64_t free_bit = (<uint64_t>1) << C_FREE_BIT if free_label is not None else 0
        cdef PyObject *piece
        cdef PyObject *num
        if numbers is not None and free_label is None and PyList_GET_SIZE(numbers) < n:
            raise ValueError("fewer numbers than keys")
        if n == 0:
            return before + after
        cdef PyObject **got = <PyObject **>malloc(n * sizeof(PyObject *))
        if got == NULL:
            raise MemoryError()
        try:
            for i in range(n):
                got[i] = self.get(keys[i])
                total += PyBytes_GET_SIZE(<object>got[i])
            total += nsep * (n - 1) + nbefore + nafter
            if numbers is not None:
                for i in range(n):
                    if keys[i] & free_bit:
                        total += PyBytes_GET_SIZE(free_label)
                        continue
                    if k >= PyList_GET_SIZE(numbers):
                        raise ValueError("fewer numbers than counted keys")
                    num = PyList_GET_ITEM(numbers, k)
                    k += 1
                    if not isinstance(<object>num, bytes):
                        raise TypeError("numbers are bytes")
                    total += PyBytes_GET_SIZE(<object>num)
                k = 0
            out = PyBytes_FromStringAndSize(NULL, total)
            buf = PyBytes_AS_STRING(out)
            memcpy(buf, PyBytes_AS_STRING(before), nbefore)
            at = nbefore
            for i in range(n):
                if i and nsep:
                    memcpy(buf + at, PyBytes_AS_STRING(sep), nsep)
                    at += nsep
                if numbers is not None:
                    if keys[i] & free_bit:
                        num = <PyObject *>free_label
                    else:
                        num = PyList_GET_ITEM(numbers, k)
                        k += 1
                    memcpy(buf + at, PyBytes_AS_STRING(<object>num), PyBytes_GET_SIZE(<object>num))
                    at += PyBytes_GET_SIZE(<object>num)
                piece = got[i]
                memcpy(buf + at, PyBytes_AS_STRING(<object>piece), PyBytes_GET_SIZE(<object>piece))
                at += PyBytes_GET_SIZE(<object>piece)
            memcpy(buf + at, PyBytes_AS_STRING(after), nafter)
            return out
        finally:
            free(got)
