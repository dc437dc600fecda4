"""Every module of the packages imports: a name removed from one module and still imported by
another fails here, not first in a notebook or on a user's machine.  ``sims.analysis`` (the top-level
analysis/ folder, linked into the package) is walked with the rest."""

import importlib
import pkgutil

import pytest

import sims


def modules():
    for module in pkgutil.walk_packages(sims.__path__, "sims."):
        if not module.name.endswith("__main__"):
            yield module.name


@pytest.mark.parametrize("name", sorted(modules()))
def test_the_module_imports(name):
    assert importlib.import_module(name).__name__ == name
