"""Every example in the README and on the documentation site's pages runs as printed: the quick start's two
commands, each `sims` command line (in one working directory, in order, the README first and then the pages of
:data:`PAGES`; ``yes WORD | sims ...`` and ``printf 'TEXT' | sims ...`` with that standard input), each Python
block, and each output shown in a ``text`` block after a command (every line but ``...`` as the command prints
it)."""

import io
import json
import linecache
import os
import re
import shlex
import sys
from pathlib import Path

import pandas as pd
import pytest

from sims.cli import main

# A group is scheduled before the tests that run alone, and this file comes last but one: run alone, its 12 s of
# commands were the run's last work, with the other worker idle.
pytestmark = pytest.mark.xdist_group("readme")
ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
# The site's pages with examples, in the order their commands run (the run store is made before it is verified).
PAGES = [
    "docs/command-line.md",
    "docs/getting-started/player.md",
    "docs/getting-started/analyst.md",
    "docs/getting-started/developer.md",
]
DOCUMENTS = {"README.md": README} | {page: (ROOT / page).read_text() for page in PAGES}
# What each README example prints, recorded from a checked engine: an example whose output changes fails until
# the change is meant and recorded again with SIMS_UPDATE_GOLDEN=1 (the diff then shows what moved).
OUTPUTS = Path(__file__).resolve().parent / "golden" / "readme_outputs.json"
VOLATILE = [
    (re.compile(r"\d[\d,]*(\.\d+)? ?(s|ms|seconds|deals/s|games/s)\b"), "<time>"),
    (re.compile(r"/tmp/\S+|pytest-of-\S+"), "<tmp>"),
]


def _normal(text: str) -> str:
    """Output without what a rerun changes (timings, temporary paths)."""
    for pattern, replacement in VOLATILE:
        text = pattern.sub(replacement, text)
    return text.strip()


def _compare_outputs(section: str, got: dict) -> None:
    """``got`` (example -> normalised output) against the recorded outputs of that section of the README."""
    recorded = json.loads(OUTPUTS.read_text()) if OUTPUTS.exists() else {}
    if os.environ.get("SIMS_UPDATE_GOLDEN"):
        recorded[section] = got
        OUTPUTS.write_text(json.dumps(recorded, indent=1, ensure_ascii=False, sort_keys=True) + "\n")
    assert sorted(got) == sorted(recorded[section]), "README examples were added or changed: record them again"
    for key, text in got.items():
        assert text == recorded[section][key], f"{key!r} prints something else than recorded"


def _blocks(language, text=None):
    """The ``language`` blocks of ``text``, else of every document in order (a block shown twice: once)."""
    texts = [text] if text is not None else DOCUMENTS.values()
    return list(dict.fromkeys(b for t in texts for b in re.findall(rf"```{language}\n(.*?)```", t, flags=re.S)))


def _run(block: str, namespace: dict) -> None:
    """Run a Python block, its source known to ``inspect`` (numba and a policy's provenance read a function's source)."""
    name = f"<example: {block.splitlines()[0]}>"
    linecache.cache[name] = (len(block), None, block.splitlines(keepends=True), name)
    exec(compile(block, name, "exec"), namespace)


PIPED = re.compile(r"(?:yes (?P<word>\S+)|printf '(?P<text>[^']*)') \| (?P<command>sims .*)")


def _commands_of(block: str) -> list[str]:
    commands = [line.split(" # ")[0].strip() for line in block.splitlines()]
    return [c for c in commands if c.startswith("sims ") or PIPED.fullmatch(c)]


def _command_lines():
    """Every command line of the documents, in order; one shown on several pages runs once."""
    return list(dict.fromkeys(c for block in _blocks("sh") for c in _commands_of(block)))


def _piped(line: str) -> tuple[str, str | None]:
    """The command of a README line and the standard input piped into it (None: none)."""
    match = PIPED.fullmatch(line)
    if match is None:
        return line, None
    if match["word"] is not None:
        return match["command"], f"{match['word']}\n" * 10_000  # yes: as many lines as are read
    return match["command"], match["text"].encode().decode("unicode_escape")


def test_every_page_with_examples_runs_them():
    """A page of the site with a command or Python block is one of :data:`PAGES` (its examples then run)."""
    pages = [p for p in (ROOT / "docs").rglob("*.md") if not {"examples", "_build"} & set(p.parts)]
    with_examples = {str(p.relative_to(ROOT)) for p in pages if re.search(r"```(sh|python)\n", p.read_text())}
    assert with_examples <= set(PAGES)


def test_quick_start_has_exactly_two_commands():
    start = README.split("## Quick start", 1)[1].split("```", 2)[1]
    commands = [line.split("#")[0].strip() for line in start.strip().splitlines()]
    assert commands == ["make run", "make test"]


def test_every_command_line_runs(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    lines = _command_lines()
    assert len(lines) >= 15 and any("--game loo" in line for line in lines)
    got = {}
    for line in lines:
        command, answers = _piped(line)
        if answers is not None:
            monkeypatch.setattr(sys, "stdin", io.StringIO(answers))
        code = main(shlex.split(command)[1:])
        out, err = capsys.readouterr()
        assert code == 0, f"{line}: {err}"
        got[f"$ {line}"] = _normal(out)
    assert (tmp_path / "data/runs/demo/summary.json").exists()
    _compare_outputs("commands", got)


def test_every_python_block_runs(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert (
        main(
            [
                "run",
                "--deals",
                "200000",
                "--discard",
                "greedy",
                "--peg",
                "greedy",
                "--seed",
                "1",
                "--out",
                "data/runs/demo",
                "--quiet",
            ]
        )
        == 0
    )  # the run the store example reads (as in the README)
    blocks = _blocks("python")
    assert len(blocks) >= 5 and len({b.splitlines()[0] for b in blocks}) == len(blocks)  # a block's key: its first line
    got = {}
    for block in blocks:
        namespace = {}
        _run(block, namespace)
        got[f"block: {block.splitlines()[0]}"] = _normal(capsys.readouterr().out)
        if "duckdb.sql" in block:  # the store read by DuckDB, without sims, gives sims's own numbers
            store = (
                namespace["duckdb"]
                .sql("""SELECT who AS role, component, sum(sum) / sum(n) AS mean
                FROM 'data/runs/demo/totals/*.parquet' WHERE scope = 'role' GROUP BY ALL""")
                .df()
            )
            ours = namespace["load_run"]("data/runs/demo").table().set_index(["role", "component"])["mean"]
            joined = store.set_index(["role", "component"])["mean"].align(ours, join="inner")
            assert len(joined[0]) >= 6
            pd.testing.assert_series_equal(*joined, check_names=False, rtol=1e-12)
    _compare_outputs("python", got)


def test_user_policy_example_plays_its_policy():
    (example,) = [block for block in _blocks("python") if "def lowest_card" in block]
    namespace = {}
    _run(example, namespace)
    pegging = namespace["result"].seat_table().query("component == 'pegging'").set_index("seat")["mean"]
    greedy = namespace["simulate_deals"]("six-card", {"discard": "greedy", "peg": "greedy"}, 20_000, seed=1)
    greedy_pegging = greedy.seat_table().query("component == 'pegging'").set_index("seat")["mean"]
    assert pegging[0] < greedy_pegging[0] - 0.1  # seat 0 lays its lowest card: it pegs less


def test_every_output_shown_is_what_its_command_prints():
    """A ``text`` block right after a ``sh`` block shows what those commands print (as recorded): each of its
    lines but ``...`` is a line of their output, in order."""
    recorded = json.loads(OUTPUTS.read_text())["commands"]
    shown = [
        (name, sh, text)
        for name, doc in DOCUMENTS.items()
        for sh, text in re.findall(r"```sh\n(.*?)```\s*```text\n(.*?)```", doc, flags=re.S)
    ]
    assert len(shown) >= 2
    for name, sh, text in shown:
        printed = [line.rstrip() for c in _commands_of(sh) for line in recorded[f"$ {c}"].splitlines()]
        at = 0
        for line in (line.rstrip() for line in text.splitlines()):
            if line.strip() == "...":
                continue
            assert line in printed[at:], f"{name}: {line!r} is not what {sh.strip()!r} prints (as recorded)"
            at = printed.index(line, at) + 1
