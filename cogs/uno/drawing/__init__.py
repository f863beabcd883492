"""Pictures and other heavy work off the event loop: drawing threads, worker processes, card emojis.

The map: docs/architecture.md."""
