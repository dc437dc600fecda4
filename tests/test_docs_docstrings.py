"""The public API's docstrings are numpydoc: a ``Parameters`` section naming every parameter of the signature, in
order, and a ``Returns`` section (the docs build renders them with napoleon, warnings as errors)."""

import importlib
import inspect
import re

import pytest

PUBLIC = [
    "sims.core.api:simulate",
    "sims.cribbage.simulate:simulate_deals",
    "sims.cribbage.simulate:play_games",
    "sims.allfours:simulate_deals",
    "sims.allfours:play_games",
    "sims.loo:simulate_deals",
    "sims.loo:play_games",
    "sims.cribbage.advice:advise",
    "sims.allfours.advice:advise",
    "sims.loo.advice:advise",
    "sims.core.advice:Player",
    "sims.core.advice:Player.choose",
    "sims.core.table:play",
    "sims.core.record:review",
    "sims.core.record:totals",
    "sims.core.runner:load_run",
    "sims.core.store:verify",
]


def _object(path: str):
    module, _, name = path.partition(":")
    obj = importlib.import_module(module)
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


def _section(doc: str, title: str) -> list[str] | None:
    """The lines of a numpydoc section (None: no such section)."""
    match = re.search(rf"^{title}\n-{{{len(title)}}}\n(.*?)(?=\n\n\S[^\n]*\n-+\n|\Z)", doc, flags=re.S | re.M)
    return match[1].splitlines() if match else None


def _documented(doc: str) -> list[str]:
    lines = _section(doc, "Parameters") or []
    return [m[1] for line in lines if (m := re.match(r"(\*{0,2}\w+)(?: : .*)?$", line))]


@pytest.mark.parametrize("path", PUBLIC)
def test_public_docstrings_are_numpydoc(path):
    obj = _object(path)
    doc = inspect.getdoc(obj)
    signature = inspect.signature(obj.__init__ if inspect.isclass(obj) else obj)
    names = [
        ("**" if p.kind is p.VAR_KEYWORD else "*" if p.kind is p.VAR_POSITIONAL else "") + p.name
        for p in signature.parameters.values()
        if p.name != "self"
    ]
    assert _documented(doc) == names, f"{path}: Parameters section {_documented(doc)} != signature {names}"
    if not inspect.isclass(obj):
        assert _section(doc, "Returns"), f"{path}: no Returns section"


def test_a_missing_parameter_is_found():
    doc = "Play.\n\nParameters\n----------\nn : int\n    Deals.\n\nReturns\n-------\nint\n    n."
    assert _documented(doc) == ["n"] and _section(doc, "Returns") == ["int", "    n."]
    assert _section("Play.", "Parameters") is None
