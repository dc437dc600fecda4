"""A worked example of sims policies in their own distribution (see docs/getting-started/developer.md, "Your own policies").

``declared`` holds the declarations the entry points name (no numba: listing them compiles nothing);
``pegging`` and ``loo`` hold the njit functions, imported only when a policy is used.
"""
