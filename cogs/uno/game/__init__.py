"""A running game and its owner: its state, clock, save, moves, computers, hands, table, pings
and results.

The map: docs/architecture.md."""
