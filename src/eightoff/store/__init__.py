"""SQLite storage: :mod:`eightoff.store.db` is the one infrastructure (errors,
transactions, schema versions, the data directory); :mod:`eightoff.store.games` keeps
the table's games. ``from eightoff.store import Store`` keeps working for the games,
imported with the first of their names asked for: a survey never loads them."""

from typing import TYPE_CHECKING

from eightoff._lazy import lazy_names
from eightoff.store.db import (
    Database,
    Schema,
    StoreDamaged,
    StoreError,
    connect,
    default_data_dir,
)

if TYPE_CHECKING:
    from eightoff.store.games import (
        GAMES,
        SCHEMA_VERSION,
        GameEdit,
        OverPar,
        SavedGame,
        ServerRecord,
        Store,
        StoredPar,
        VariantStats,
        parse_stats_key,
        rule_options,
        rules_with_options,
        stats_key,
    )

__all__ = [
    "GAMES",
    "SCHEMA_VERSION",
    "Database",
    "GameEdit",
    "OverPar",
    "SavedGame",
    "Schema",
    "ServerRecord",
    "Store",
    "StoreDamaged",
    "StoreError",
    "StoredPar",
    "VariantStats",
    "connect",
    "default_data_dir",
    "parse_stats_key",
    "rule_options",
    "rules_with_options",
    "stats_key",
]

# the games' names (those of __all__ not defined above): a survey never loads them
__getattr__ = lazy_names(__name__, "eightoff.store.games")
