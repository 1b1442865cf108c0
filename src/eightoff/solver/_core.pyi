"""Type stub of the compiled core (see _core.pyx)."""

from array import array
from collections.abc import Mapping, Sequence
from typing import Any

_Columns = Sequence[Sequence[int]]
_Cells = Sequence[int | None]
_Move = tuple[int, int, int]

MAX_COLUMNS: int
MAX_CELLS: int
MAX_FOUNDATIONS: int
HOME: int
CELL: int
FOUNDATION: int
DEFAULT_WEIGHTS: tuple[int, ...]
SHORT_WEIGHTS: tuple[int, ...]
ALTERNATE_WEIGHTS: tuple[int, ...]
ALTERNATE_SHORT_WEIGHTS: tuple[int, ...]
ALTERNATE_DIVE_WEIGHTS: tuple[int, ...]
ALTERNATE_GREEDY_WEIGHTS: tuple[int, ...]
ALTERNATE_DEPTH_WEIGHTS: tuple[int, ...]
STATUS: dict[int, str]
REPLAY_FAILED: int

def core_version() -> str: ...
def legal_moves(
    rules: tuple[int, ...], columns: _Columns, cells: _Cells, foundations: Sequence[int]
) -> list[_Move]: ...
def search_moves(
    rules: tuple[int, ...], columns: _Columns, cells: _Cells, foundations: Sequence[int]
) -> list[_Move]: ...
def apply_move(
    rules: tuple[int, ...],
    columns: _Columns,
    cells: _Cells,
    foundations: Sequence[int],
    src: int,
    dst: int,
    n: int,
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]: ...
def safe_cards(
    rules: tuple[int, ...], columns: _Columns, cells: _Cells, foundations: Sequence[int]
) -> list[tuple[int, bool, bool, bool]]: ...
def replay(
    rules: tuple[int, ...],
    columns: _Columns,
    cells: _Cells,
    foundations: Sequence[int],
    codes: Sequence[int],
) -> int: ...
def canonical_key(
    rules: tuple[int, ...], columns: _Columns, cells: _Cells, foundations: Sequence[int]
) -> bytes: ...
def check_dive_moves(
    rules: tuple[int, ...], columns: _Columns, cells: _Cells, foundations: Sequence[int]
) -> tuple[int, int]: ...
def check_incremental(
    rules: tuple[int, ...],
    columns: _Columns,
    cells: _Cells,
    foundations: Sequence[int],
    weights: tuple[int, ...],
) -> tuple[int, int, int]: ...

class Setup:
    def __init__(
        self,
        rules: tuple[int, ...],
        weights: tuple[int, ...] = ...,
        dive_states: int = 300,
        stages: int = 7,
        quick_states: int = 20000,
        portfolio: tuple[tuple[tuple[int, ...], int, int], ...] = (),
        port_quota: int = 100,
        shorten: bool = False,
        method: int = 1,
        macros: int = 0,
        dive: dict[str, bool] | None = None,
    ) -> None: ...

def solve(
    setup: Setup,
    columns: _Columns,
    cells: _Cells,
    foundations: Sequence[int],
    max_states: int = 0,
    seconds: float = 0.0,
    max_memory: int = 0,
    moves_of: Mapping[int, Any] | None = None,
) -> tuple[int, int, Any]: ...

PLAYER_LOOKAHEAD: int
PLAYER_SENSIBLE: int

def play(
    rules: tuple[int, ...],
    columns: _Columns,
    cells: _Cells,
    foundations: Sequence[int],
    players: Sequence[tuple[int, int, int, int, int, int]],
) -> list[tuple[bool, int, int]]: ...

PLAYER_PATIENT: int
PLAYER_BACKTRACK: int

# ----- the batch API (issue 20) ---------------------------------------------------------

_Layout = tuple[int, int, tuple[int, ...]]

def dealt(
    rules: tuple[int, ...], layout: _Layout, number: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]: ...
def move_keys(
    rules: tuple[int, ...],
    columns: _Columns,
    cells: _Cells,
    foundations: Sequence[int],
    codes: Sequence[int],
) -> tuple[int, array[int]]: ...
def solve_range(
    setup: Setup,
    layout: _Layout,
    first: int,
    count: int,
    max_states: int = 0,
    seconds: float = 0.0,
    max_memory: int = 0,
    keep_moves: bool = False,
) -> tuple[array[int], array[int], array[float], array[int], array[int] | None]: ...
