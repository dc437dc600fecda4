"""All Fours's benchmarks: the engine's speed and strength, where a hand's time goes, and the expert's speed with a
fingerprint of its choices; each declared in the entry points ``sims.benchmarks`` and run by ``python -m sims.bench
NAME`` (:mod:`sims.bench`)."""
