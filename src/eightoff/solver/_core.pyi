"""Type stub of the compiled core (see _core.pyx)."""

from array import array
from collections.abc import Callable, Mapping, Sequence
from typing import Any

_Columns = Sequence[Sequence[int]]
_Cells = Sequence[int | None]
_Move = tuple[int, int, int]
_Rules = dict[str, int]
"""core.h's eo_rules by field name (eightoff.solver.core_rules)."""

BUILD: str
PROFILE_GUIDED: bool
MAX_COLUMNS: int
MAX_CELLS: int
MAX_FOUNDATIONS: int
HOME: int
CELL: int
FOUNDATION: int
SOLVED: int
LOST: int
STATE_LIMIT: int
TIME_LIMIT: int
MEMORY_LIMIT: int
STATUS: dict[int, str]
STAGE_DIVE: int
STAGE_BEST_FIRST: int
STAGE_COMPLETE: int
METHOD_DIVE: int
METHOD_BEST_FIRST: int
METHOD_BEST_FIRST_NO_TARGET: int
METHOD_DIVE_PARENT_DIGS_LAST: int
METHOD_META_DFS: int
METHOD_META_DFS_PLAIN: int
META_HOME: int
META_CELL_PARENT: int
META_SEG_PARENT: int
META_SEG_EMPTY: int
META_REPARENT: int
META_COL_CELLS: int
META_TOP_HOME: int
META_CELL_HOME: int
META_CELL_EMPTY: int
DEPTH_FIRST: int
BEST_FIRST: int
STEPS_SINGLE: int
STEPS_DIGS: int
MAX_PORTFOLIO: int
REPLAY_FAILED: int

def fields() -> dict[str, dict[str, Any]]: ...
def core_version() -> str: ...
def fixed_copy(rules: _Rules) -> str: ...
def use_fixed_copies(on: bool) -> bool: ...
def legal_moves(
    rules: _Rules, columns: _Columns, cells: _Cells, foundations: Sequence[int]
) -> list[_Move]: ...
def search_moves(
    rules: _Rules, columns: _Columns, cells: _Cells, foundations: Sequence[int]
) -> list[_Move]: ...
def meta_steps(
    rules: _Rules, columns: _Columns, cells: _Cells, foundations: Sequence[int], kind: int
) -> list[list[int]]: ...
def apply_move(
    rules: _Rules,
    columns: _Columns,
    cells: _Cells,
    foundations: Sequence[int],
    src: int,
    dst: int,
    n: int,
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]: ...
def safe_cards(
    rules: _Rules, columns: _Columns, cells: _Cells, foundations: Sequence[int]
) -> list[tuple[int, bool, bool, bool]]: ...
def replay(
    rules: _Rules,
    columns: _Columns,
    cells: _Cells,
    foundations: Sequence[int],
    codes: Sequence[int],
) -> int: ...
def canonical_key(
    rules: _Rules, columns: _Columns, cells: _Cells, foundations: Sequence[int]
) -> bytes: ...
def check_dive_moves(
    rules: _Rules, columns: _Columns, cells: _Cells, foundations: Sequence[int]
) -> tuple[int, int]: ...
def check_legal(
    rules: _Rules, columns: _Columns, cells: _Cells, foundations: Sequence[int]
) -> tuple[int, int]: ...
def check_compact(
    rules: _Rules,
    root: tuple[_Columns, _Cells, Sequence[int]],
    columns: _Columns,
    cells: _Cells,
    foundations: Sequence[int],
) -> int: ...
def check_op_tab(
    rules: _Rules,
    root: tuple[_Columns, _Cells, Sequence[int]],
    positions: Sequence[tuple[_Columns, _Cells, Sequence[int]]],
) -> int: ...
def check_drec_sort(
    n: int, seed: int, radix: bool, distinct: int = 0, records: bool = False
) -> tuple[int, float]: ...
def check_drec_sort_run(
    path: str, cap: int, seed: int, radix: bool, records: bool = False
) -> tuple[int, int, float]: ...
def check_incremental(
    rules: _Rules,
    columns: _Columns,
    cells: _Cells,
    foundations: Sequence[int],
    weights: Mapping[str, int],
) -> tuple[int, int, int]: ...

class Setup:
    def __init__(self, rules: _Rules, search: dict[str, Any]) -> None: ...

def solve(
    setup: Setup,
    columns: _Columns,
    cells: _Cells,
    foundations: Sequence[int],
    max_states: int = 0,
    seconds: float = 0.0,
    max_memory: int = 0,
    moves_of: Mapping[int, Any] | None = None,
    max_disk: int = 0,
    disk_dir: str | None = None,
    disk_stats: dict[str, int] | None = None,
    cpu_clock: bool = False,
    disk_keep: tuple[str, str] | None = None,
    disk_threads: int = 1,
) -> tuple[int, int, Any]: ...

PLAYER_LOOKAHEAD: int
PLAYER_SENSIBLE: int

def play(
    rules: _Rules,
    columns: _Columns,
    cells: _Cells,
    foundations: Sequence[int],
    players: Sequence[tuple[int, int, int, int, int, int]],
) -> list[tuple[bool, int, int]]: ...

PLAYER_PATIENT: int
PLAYER_BACKTRACK: int

# ----- par (optimal.h) ------------------------------------------------------------
COUNT_PLAYER: int
COUNT_SINGLE: int
OPTIMAL_STATUS: dict[int, str]

def optimal(
    rules: _Rules,
    columns: _Columns,
    cells: _Cells,
    foundations: Sequence[int],
    count: int,
    upper: int = 0,
    max_states: int = 0,
    seconds: float = 0.0,
    max_memory: int = 0,
    deadlocks: int = 5,
    weight: int = 0,
    beam: int = 0,
    threads: int = 1,
    partial: int = 2,
    compact: bool = False,
) -> tuple[int, int, int, int, list[tuple[int, int, int]]]: ...

# ----- the batch API (issue 20) ---------------------------------------------------------

_Layout = tuple[int, int, tuple[int, ...]]

def dealt(
    rules: _Rules, layout: _Layout, number: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]: ...
def move_keys(
    rules: _Rules,
    columns: _Columns,
    cells: _Cells,
    foundations: Sequence[int],
    codes: Sequence[int],
) -> tuple[int, array[int], int, int]: ...

COST_RUN: int

def set_group_costs(cost: Callable[[int, int, int], int | None]) -> None: ...
def solve_range(
    setup: Setup,
    layout: _Layout,
    first: int,
    count: int,
    max_states: int = 0,
    seconds: float = 0.0,
    max_memory: int = 0,
    keep_moves: bool = False,
    max_disk: int = 0,
    disk_dir: str | None = None,
    cpu_clock: bool = False,
    disk_keep: tuple[str, str] | None = None,
    disk_threads: int = 1,
) -> tuple[
    array[int], array[int], array[float], array[int], array[int] | None, array[int], array[int]
]: ...
