"""What tests and benchmarks share to drive the real bot: the Discord emulator (`fakediscord`),
the bot's test environment (`bot_env`) and scripted players (`players`, `clicks`).

Why a package of its own: the benchmarks need the same emulator and players as the end-to-end
tests, and nothing outside `tests/` may import `tests`.
"""
