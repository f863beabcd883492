"""Game records and replays: `/uno export`, `/uno verify`, the record and replay buttons.

The map: docs/architecture.md."""
