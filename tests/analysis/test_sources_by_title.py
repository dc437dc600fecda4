"""Sources are cited by title (issue 21, item 6): one table (``sims.analysis.claims.model.TEXTS``) gives each period
text's title, author and year; the report, the notebooks and the README cite titles, never "seed 00N"."""

import json
import re
import subprocess
from pathlib import Path

import pytest

from sims.analysis.claims.model import TEXTS, Claim, more, source
from sims.analysis.report import _claim_md, _sources

ROOT = Path(__file__).resolve().parents[2]
SEED_NAME = re.compile(r"\b[Ss]eeds? 00\d")


def test_the_table_covers_every_seed_file_and_says_what_the_texts_do_not_give():
    files = sorted(p.name for p in (ROOT / "data" / "reference" / "seeds").glob("*.txt"))
    assert sorted(t.file for t in TEXTS.values()) == files
    for text in TEXTS.values():
        assert text.title and not SEED_NAME.search(text.title)
        assert text.author == text.year == "not given in the text"  # none of the five names them


def test_a_claim_cites_its_source_by_title_with_the_file_in_a_footnote():
    quoted = source("Sections 87-96", "§96 i", "five or seven make the best game")
    claim = Claim("x", "s", quoted, "q", 0.1, (0.0, 0.2), 10, more(0.0, 0.01, "why"))
    line = next(line for line in _claim_md(claim) if line.startswith("- **Source**"))
    assert TEXTS["Sections 87-96"].title in line and "[^sections-87-96]" in line and not SEED_NAME.search(line)
    sources = "\n".join(_sources([claim]))
    assert "## Sources" in sources
    assert f"[^sections-87-96]: `data/reference/seeds/{TEXTS['Sections 87-96'].file}`" in sources


@pytest.mark.parametrize("path", sorted((ROOT / "notebooks").glob("*.ipynb")), ids=lambda p: p.stem)
def test_notebooks_cite_titles(path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    text = "".join("".join(c["source"]) for c in cells)
    assert not SEED_NAME.search(text), SEED_NAME.search(text)


def test_readme_cites_titles():
    assert not SEED_NAME.search((ROOT / "README.md").read_text(encoding="utf-8"))


# A period text cited by its file number: the word seed, then 00 and a digit, with a space, "_", "-" or nothing
# between ("Seed {}'s advice", "test_seed_{}_nobs" with {} the number); "seed" alone is the random seed ("seed 0",
# "--seed 1").  Written, like the examples below, so that no file number appears in this file.
FILE_NUMBER = re.compile(rb"seeds?[ _-]?0{2}\d(?!\d)", re.IGNORECASE)
NUMBER = b"0" * 2 + b"3"


def test_the_file_number_pattern_finds_citations_and_spares_random_seeds():
    for cited in (
        b"Seed {} \xc2\xa789",
        b"seed {}'s advice",
        b"seeds {} and {}",
        b"test_seed{}_nobs",
        b"def test_hoyle_seed_{}_x",
        b"cribbage-seed{}",
    ):
        assert FILE_NUMBER.search(cited.replace(b"{}", NUMBER)), cited
    for random_seed in (b"500 games, seed 0, discard", b"--seed 1", b"seed=1234", b"seed " + NUMBER + b"4"):
        assert not FILE_NUMBER.search(random_seed), random_seed


def test_no_tracked_file_cites_a_text_by_its_file_number():
    """Every tracked file (code, tests, notebooks, docs, data, the report) cites a period text by its short title
    (the keys of ``TEXTS``), never by the number of its file."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True)
    if listed.returncode != 0:
        pytest.skip("not a git checkout: no list of tracked files")
    paths = [ROOT / name for name in listed.stdout.decode().split("\0") if name]
    assert len(paths) > 100
    found = [
        f"{path.relative_to(ROOT)}: {match.group().decode(errors='replace')}"
        for path in paths
        if path.is_file()
        for match in FILE_NUMBER.finditer(path.read_bytes())
    ]
    assert not found, found
