"""sims.bench.timing: the calls a rate is timed on, and compile times measured with an empty cache."""

from __future__ import annotations

from sims.bench import timing


def test_a_rate_is_items_over_the_fastest_of_the_repeats_after_a_smaller_warm_call():
    calls = []
    rate = timing.best_rate(calls.append, 5_000, repeats=3, warm=1_000)
    assert calls == [1_000, 5_000, 5_000, 5_000]
    assert rate > 5_000  # 5,000 items in well under a second: nothing but the appends is timed


def test_compile_times_use_the_empty_cache_given_not_the_callers(tmp_path, monkeypatch):
    monkeypatch.setenv("SIMS_CACHE_DIR", str(tmp_path / "the callers warm cache"))
    script = "import json; from sims.core.cache import cache_root; print(json.dumps({'root': str(cache_root())}))"
    assert timing.compile_seconds(script, str(tmp_path / "cold")) == {"root": str(tmp_path / "cold" / "sims")}
