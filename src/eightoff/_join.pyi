"""Type stub of the compiled joiner (see _join.pyx)."""

from collections.abc import Callable, Sequence

FREE_BIT: int

class Pieces:
    def __init__(self, make: Callable[[int], bytes]) -> None: ...
    def __len__(self) -> int: ...
    def join(
        self,
        keys: Sequence[int],
        sep: bytes = b"",
        numbers: list[bytes] | None = None,
        before: bytes = b"",
        after: bytes = b"",
        free_label: bytes | None = None,
    ) -> bytes: ...
