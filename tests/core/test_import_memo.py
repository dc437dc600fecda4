"""The import graph's memo (:func:`sims.core.sources.imports` with ``memo``): what a source imports is read
back from the kernel cache instead of parsed at every start, and it is the same graph as parsing gives; an
entry is found by the file's content, so an edited file is parsed again, and a damaged entry is ignored."""

from __future__ import annotations

import pytest

from sims.core import cache, sources

SIMS = frozenset({"sims"})


@pytest.fixture(autouse=True)
def fresh():
    """Each test starts with nothing remembered in this process."""
    for cached in (sources._named, sources.package_root, cache.source_key):
        cached.cache_clear()
    yield
    for cached in (sources._named, sources.package_root, cache.source_key):
        cached.cache_clear()


def graph(memo=None, strings=False):
    return {m: sources.imports(m, SIMS, strings, memo) for m in sources.modules("sims")}


@pytest.mark.parametrize("strings", [False, True])
def test_the_remembered_graph_is_the_parsed_graph(tmp_path, strings):
    parsed = graph(strings=strings)
    assert graph(tmp_path, strings) == parsed  # parsed, and kept
    assert len(list(tmp_path.iterdir())) == len(parsed)  # an entry a module, no partial files left
    sources._named.cache_clear()
    assert graph(tmp_path, strings) == parsed  # read back


def write_package(root, body):
    package = root / "memodemo"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text(body)
    (package / "b.py").write_text("")
    (package / "c.py").write_text("")
    return package


def test_an_entry_is_read_not_parsed_and_an_edit_makes_a_new_one(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path / "src"))
    package = write_package(tmp_path / "src", "from . import b\n")
    memo = tmp_path / "memo"
    tops = frozenset({"memodemo"})
    assert sources.imports("memodemo.a", tops, memo=memo) == ["memodemo", "memodemo.b"]
    (entry,) = [p for p in memo.iterdir() if p.read_text() == "memodemo\nmemodemo.b"]
    entry.write_text("memodemo.c")  # what the memo says is what is used: nothing parsed
    sources._named.cache_clear()
    assert sources.imports("memodemo.a", tops, memo=memo) == ["memodemo.c"]
    (package / "a.py").write_text("from . import b  # edited\n")  # new content, new entry: parsed again
    sources._named.cache_clear()
    assert sources.imports("memodemo.a", tops, memo=memo) == ["memodemo", "memodemo.b"]


def test_a_damaged_entry_is_parsed_again_and_replaced(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path / "src"))
    write_package(tmp_path / "src", "import memodemo.c\n")
    memo = tmp_path / "memo"
    tops = frozenset({"memodemo"})
    assert sources.imports("memodemo.a", tops, memo=memo) == ["memodemo", "memodemo.c"]
    (entry,) = memo.iterdir()
    entry.write_text("memodemo.b; rm -rf /")
    sources._named.cache_clear()
    assert sources.imports("memodemo.a", tops, memo=memo) == ["memodemo", "memodemo.c"]
    assert entry.read_text() == "memodemo\nmemodemo.c"


def test_kernel_folders_keep_the_graph_under_the_cache_root_and_keep_their_key(tmp_path):
    modules = ("sims.cribbage.discards",)
    folder = cache.kernel_dir(tmp_path, modules)
    assert folder.name == f"discards-{cache.source_key(modules, frozenset({'sims'}))}"  # the same key as parsed
    assert (tmp_path / cache.IMPORT_GRAPH).is_dir() and any((tmp_path / cache.IMPORT_GRAPH).iterdir())
