"""Every module of the packages imports: a name removed from one module and still imported by
another fails here, not first in a notebook or on a user's machine."""
import importlib
import pkgutil

import pytest

import analysis
import sims


def modules():
    for package in (sims, analysis):
        for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if not module.name.endswith("__main__"):
                yield module.name


@pytest.mark.parametrize("name", sorted(modules()))
def test_the_module_imports(name):
    assert importlib.import_module(name).__name__ == name
