"""A game before it runs: lobbies, their rules and settings panel, Start, Rematch.

The map: docs/architecture.md."""
