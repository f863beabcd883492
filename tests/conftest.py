"""Hypothesis profiles: the test command is deterministic, exploration is opt-in.

- `default` (the README's test command, `.ci/run`, CI=true): derandomized, so every run tries
  the same examples and a failure reproduces with the same command; no example database, so a
  stale `.hypothesis/` directory changes nothing; failures print a reproduction blob.
- `long` (`HYPOTHESIS_PROFILE=long .venv/bin/pytest -q tests/engine/test_properties.py`): random
  and five times as many examples, for finding new failures locally. Add `--hypothesis-seed=N`
  to repeat a run.

Property tests scale their own example counts with `examples()` below.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

#: max_examples of the default profile; a test's count is relative to it (see `examples`).
BASE_EXAMPLES = 100

settings.register_profile(
    "default",
    max_examples=BASE_EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "long",
    max_examples=5 * BASE_EXAMPLES,
    derandomize=False,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def examples(count: int) -> int:
    """`count` examples under the default profile, proportionally more under a longer one."""
    return max(1, count * settings.default.max_examples // BASE_EXAMPLES)
