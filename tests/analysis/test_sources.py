"""The period sentences the claims and notebooks quote are, word for word, in the seed texts committed under
data/reference/seeds/ (so the check runs on a clean clone)."""

import importlib
import json
import pkgutil
import re
from pathlib import Path

import pytest

from sims.analysis import claims
from sims.analysis.claims.model import TEXTS

ROOT = Path(__file__).resolve().parents[2]
EXCERPTS = ROOT / "data" / "reference" / "seeds"


def norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def excerpt(file: str) -> str:
    """The text without its header (the lines starting with '#'), white space made single spaces."""
    lines = (EXCERPTS / file).read_text(encoding="utf-8").splitlines()
    return norm(" ".join(line for line in lines if not line.startswith("#")))


def all_sources():
    """The sources of every module of the shared claims package and of the games' claims (a section, or the
    claims a section calls)."""
    shared = [
        importlib.import_module(info.name)
        for info in pkgutil.iter_modules(claims.__path__, prefix=f"{claims.__name__}.")
        if not info.name.rpartition(".")[2].startswith("_")
    ]
    return [v for m in shared + claims.section_modules() for v in vars(m).values() if isinstance(v, claims.Source)]


def test_every_text_is_there_and_names_itself_by_its_short_title():
    files = sorted(p.name for p in EXCERPTS.glob("*.txt"))
    assert files == sorted(text.file for text in TEXTS.values())
    for key, text in TEXTS.items():
        header = (EXCERPTS / text.file).read_text(encoding="utf-8").splitlines()[0]
        assert header.startswith(f"# {key} ({text.file}): "), header


def test_every_claim_quote_is_in_its_seed_excerpt():
    sources = all_sources()
    assert len(sources) >= 10
    for src in sources:
        assert src.file == TEXTS[src.text].file
        assert norm(src.quote) in excerpt(src.file), src


def test_a_misquote_is_caught():
    src = all_sources()[0]
    assert norm(src.quote.replace(" ", "  ", 1)) in excerpt(src.file)  # spacing does not matter
    assert norm(src.quote[:-3] + "xyz") not in excerpt(src.file)


NOTEBOOK_QUOTE = re.compile(r"`(\d{3}_[0-9a-f]{16}\.txt)`")


@pytest.mark.parametrize("path", sorted((ROOT / "notebooks").glob("*.ipynb")), ids=lambda p: p.stem)
def test_notebook_quotes_are_in_the_seeds(path):
    """Each block quote ('> ...') of a notebook's first cell is in a seed file that cell names; '[...]' or '...'
    marks words left out, so each piece between them must be there."""
    first = "".join(json.loads(path.read_text(encoding="utf-8"))["cells"][0]["source"])
    files = NOTEBOOK_QUOTE.findall(first)
    quotes = [
        " ".join(line[1:] for line in block.splitlines()) for block in re.findall(r"(?:^>.*\n?)+", first, flags=re.M)
    ]
    assert files and quotes
    for quote in quotes:
        pieces = [norm(p) for p in re.split(r"\[\.\.\.\]|\.\.\.|…", quote) if norm(p)]
        assert any(all(p in excerpt(f) for p in pieces) for f in files), quote
