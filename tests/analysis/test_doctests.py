"""The examples in the docstrings of the analysis package and of sims.stats (its intervals) run and hold."""

import doctest
import importlib
import pkgutil

import pytest

import sims.analysis

MODULES = sorted(
    {
        info.name
        for info in pkgutil.walk_packages(sims.analysis.__path__, "sims.analysis.")
        if not info.name.endswith("__main__")
    }
    | {"sims.stats"}
)


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0


def test_the_verdict_rule_and_the_wilson_interval_have_examples():
    """The examples that document the verdict rule and the interval are there to run."""
    for name in ("sims.analysis.claims.model", "sims.stats"):
        assert doctest.testmod(importlib.import_module(name)).attempted >= 2, name
