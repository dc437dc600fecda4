"""Analysis of simulation output: intervals and comparisons (stats), figures (plots),
the period claims and the main job (claims), the report writer (report), saved runs (runs)."""
