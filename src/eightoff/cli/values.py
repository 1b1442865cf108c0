"""One reader for each value given on the command line: a variant, a deal number, deals
and ranges of deals, the time and state limits, a port, a database file.

Every command reads its values through these, so the same bad value gets the same
one-line error (exit 64) wherever it is given. Each reader takes the text and returns
the value or raises :class:`eightoff.cli.exits.UsageError`; the ``*_arg`` forms are the
same readers as argparse ``type`` functions (argparse then names the argument). The
rules behind the values are the domain's: a deal number is checked by
:func:`eightoff.deals.check_deal_number`, a variant by :func:`eightoff.rules.preset`.

>>> deal_ranges(["1-3", "7"])
[range(1, 4), range(7, 8)]
>>> deal_number("0", high=1000)
Traceback (most recent call last):
...
eightoff.cli.exits.UsageError: '0' is not a deal number: deals are numbered 1 to 1000
"""

from __future__ import annotations

import os
from typing import Final

from eightoff.cli.exits import MAX_PATH, UsageError, argument, database_path, number, whole_number
from eightoff.deals import MAX_DEAL, MIN_DEAL, DealNumberError, check_deal_number
from eightoff.i18n import Message, grouped, quote, reason
from eightoff.rules import UnknownVariantError, preset

MAX_PORT: Final = 65535
DEFAULT_HOST: Final = "127.0.0.1"  # where play's table listens unless --host says
MAX_DEALS: Final = 10_000_000
"""The most deals one command solves or rates (a survey is the tool for more)."""
MAX_STATES: Final = 2**63 - 1
"""The largest state limit: the compiled core counts states in a C ``long`` (64 bits),
and a survey stores the limit as an SQLite integer (64 bits too)."""
MAX_SECONDS: Final = 1e9
"""The largest time limit in seconds (about 31 years)."""


def variant(text: str) -> str:
    """A variant id (``--variant``): one of the presets."""
    try:
        return preset(text).id
    except UnknownVariantError as e:
        raise UsageError(reason(e) or str(e)) from None


def deal_number(text: str, what: str = "", high: int = MAX_DEAL, hint: Message | str = "") -> int:
    """A deal number: ASCII digits, 1 to ``high`` (at most the domain's largest deal).
    ``what`` names the argument in the error ("START"), ``hint`` ends it."""
    lead = f"{what}: " if what else ""
    refusal = UsageError(
        Message(
            "cli.value.not_a_deal", lead=lead, token=quote(text), low=MIN_DEAL, high=high, hint=hint
        )
    )
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()):  # no sign, no "_": as the README says
        raise refusal
    try:
        value = whole_number(digits, "a deal number", MIN_DEAL, high)
        return check_deal_number(value)
    except (UsageError, DealNumberError):
        raise refusal from None


def deal_ranges(tokens: list[str]) -> list[range]:
    """Deal numbers and ranges (``1-100 7 42``, ``1-100,7``) as ranges, at most
    :data:`MAX_DEALS` deals in all; UsageError names the bad token."""
    ranges: list[range] = []
    total = 0
    for token in tokens:
        for part in token.split(","):
            if not part.strip():
                raise UsageError(Message("cli.value.empty_deal", token=quote(token)))
            first, dash, last = part.partition("-")
            try:
                lo = deal_number(first)
                hi = deal_number(last) if dash else lo
            except UsageError:
                raise UsageError(
                    Message("cli.value.not_deals", token=quote(part), low=MIN_DEAL, high=MAX_DEAL)
                ) from None
            if hi < lo:
                raise UsageError(Message("cli.value.backwards", token=quote(part), lo=lo, hi=hi))
            total += hi - lo + 1
            if total > MAX_DEALS:
                limit = grouped(MAX_DEALS)
                raise UsageError(Message("cli.value.too_many_deals", limit=limit))
            ranges.append(range(lo, hi + 1))
    return ranges


def seconds_limit(text: str) -> float:
    """A time limit (``--time-limit``): more than 0, at most MAX_SECONDS."""
    return number(text, Message("cli.what.time_limit"), 0, MAX_SECONDS, open_low=True)


def states_limit(text: str) -> int:
    """A state limit (``--max-states``, a survey's ``--states``): 1 to 2^63 - 1."""
    return whole_number(text, Message("cli.what.state_limit"), 1, MAX_STATES)


MAX_MEMORY_MB: Final = 1 << 30
"""The largest memory limit, in MiB (a pebibyte: more than any machine holds)."""

_MEMORY_UNITS: Final = {"": 1, "m": 1, "mb": 1, "mib": 1, "g": 1024, "gb": 1024, "gib": 1024}
_DISK_UNITS: Final = {**_MEMORY_UNITS, "t": 1 << 20, "tb": 1 << 20, "tib": 1 << 20}


def _size_mb(text: str, units: dict[str, int], bad: str) -> int:
    """A size in MiB from digits and a unit of ``units``; UsageError(bad) if it is none."""
    t = text.strip().lower()
    digits = t.rstrip("abcdefghijklmnopqrstuvwxyz ")
    unit = t[len(digits) :].strip()
    if not digits.isdigit() or unit not in units or not digits.isascii():
        raise UsageError(Message(bad, token=quote(text)))
    return int(digits) * units[unit]


def memory_limit(text: str) -> int:
    """A memory limit in MiB from ``16G``, ``512M`` or ``1024`` (MiB): at least 16 MiB.

    >>> memory_limit("16G"), memory_limit("512m"), memory_limit("2048")
    (16384, 512, 2048)
    """
    mb = _size_mb(text, _MEMORY_UNITS, "cli.value.not_memory")
    if not 16 <= mb <= MAX_MEMORY_MB:
        raise UsageError(Message("cli.value.memory_range", token=quote(text)))
    return mb


MAX_DISK_MB: Final = 1 << 30
"""The largest disk limit, in MiB (a pebibyte)."""


def disk_limit(text: str) -> int:
    """A disk limit (``--disk``) in MiB from ``64G``, ``2T``, ``512M`` or ``0`` (no
    search on disk): 0, or 16 MiB to a pebibyte.

    >>> disk_limit("64G"), disk_limit("2t"), disk_limit("0")
    (65536, 2097152, 0)
    """
    mb = _size_mb(text, _DISK_UNITS, "cli.value.not_disk")
    if mb and not 16 <= mb <= MAX_DISK_MB:
        raise UsageError(Message("cli.value.disk_range", token=quote(text)))
    return mb


def size_text(mb: int) -> str:
    """A size in MiB as the options take it: ``64G``, ``1536M``.

    >>> size_text(65536), size_text(1536), size_text(1024)
    ('64G', '1536M', '1G')
    """
    return f"{mb >> 10}G" if mb and mb % 1024 == 0 else f"{mb}M"


def disk_dir(text: str, what: str = "") -> str:
    """A directory for the disk search's files (``--disk-dir``): one that exists.
    ``what`` starts the message unless argparse names the argument already."""
    if not os.path.isdir(text):
        lead = f"{what}: " if what else ""
        raise UsageError(Message("cli.value.not_disk_dir", lead=lead, token=quote(text, MAX_PATH)))
    return text


def port(text: str) -> int:
    """A port to listen on (``--port``): 1 to 65535."""
    return whole_number(text, Message("cli.what.port"), 1, MAX_PORT)


def host(text: str) -> str:
    """An address to listen on (``--host``): a host name or an IP address, without spaces
    (an empty one would listen on every interface, as 0.0.0.0 does, unasked)."""
    if not text or text != text.strip() or any(c.isspace() for c in text):
        raise UsageError(Message("cli.value.not_host", token=quote(text, MAX_PATH)))
    return text


variant_arg = argument(variant)
deal_number_arg = argument(deal_number)
seconds_arg = argument(seconds_limit)
states_arg = argument(states_limit)
memory_arg = argument(memory_limit)
disk_arg = argument(disk_limit)
disk_dir_arg = argument(disk_dir)
port_number = argument(port)
host_arg = argument(host)
db_file = argument(database_path)
