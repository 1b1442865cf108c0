"""The API's routers, one per concern: pages, reference data, games, help (hints,
status, solutions), settings and statistics. Each parses, calls the table service
(eightoff.table) or the oracle, and serialises."""
