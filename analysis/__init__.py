"""Analysis of simulation output: intervals and comparisons (stats), figures (plots), the cribbage quantities
the claims measure (cribbage), the period claims and the main job (claims: the verdict rule, the Context and one
module per report section), the report writer (report), saved runs (runs) and the notebooks' helpers."""
