"""The notebooks on the site with their outputs, from copies executed outside the build.

The notebooks are committed without outputs (tests/test_notebooks.py) and the Sphinx build never runs them.
``python docs/_ext/executed_notebooks.py [NAME ...]`` (``make notebooks``: all of them) runs each notebook at its
default size in a kernel of its own, started in ``notebooks/`` as a reader's would be, and writes the executed
copy to ``docs/_build/executed/`` (not committed).  When Sphinx reads a notebook, the ``source-read`` hook below
puts the executed copy in its place if it is *current*: its cells are the committed notebook's, source for
source.  A copy of an older version of the notebook is not shown (the page shows the notebook as committed), so
the site never pairs outputs with code that did not produce them.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

DOCS = Path(__file__).resolve().parents[1]
NOTEBOOKS = DOCS.parent / "notebooks"
EXECUTED = DOCS / "_build" / "executed"
TIMEOUT = 1800  # seconds a cell may take; the slowest notebook takes about a minute at its default size


def sources(notebook: dict) -> list[tuple[str, str]]:
    """Each cell's type and source (a string, however the file splits it into lines)."""
    return [(c["cell_type"], "".join(c["source"])) for c in notebook["cells"]]


def current_copy(committed: str, executed: Path) -> str | None:
    """The text of the executed copy ``executed`` if it exists and its cells are those of the notebook text
    ``committed``; None otherwise."""
    if not executed.is_file():
        return None
    text = executed.read_text(encoding="utf-8")
    return text if sources(json.loads(text)) == sources(json.loads(committed)) else None


def execute(name: str) -> float:
    """Run ``notebooks/NAME.ipynb`` and write the executed copy; the seconds it took."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    start = time.perf_counter()
    NotebookClient(
        nb, timeout=TIMEOUT, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}
    ).execute()
    seconds = time.perf_counter() - start
    EXECUTED.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, EXECUTED / f"{name}.ipynb")
    return seconds


def main(argv: list[str]) -> int:
    """Execute the notebooks named (stems such as ``01-scoring``), or every notebook; one line each.  With
    ``--missing`` first, only those without a current executed copy."""
    missing = argv[:1] == ["--missing"]
    names = (argv[1:] if missing else argv) or sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb"))
    unknown = [n for n in names if not (NOTEBOOKS / f"{n}.ipynb").is_file()]
    if unknown:
        print(f"executed_notebooks: no notebook {unknown[0]!r} in notebooks/", file=sys.stderr)
        return 2
    for name in names:
        committed = (NOTEBOOKS / f"{name}.ipynb").read_text(encoding="utf-8")
        if missing and current_copy(committed, EXECUTED / f"{name}.ipynb") is not None:
            print(f"{name}: a current executed copy exists")
            continue
        from nbclient.exceptions import CellExecutionError  # jsonschema's checkers: seconds, only to execute

        try:
            seconds = execute(name)
        except CellExecutionError as err:
            print(f"executed_notebooks: {name} failed: {err.ename}: {err.evalue}", file=sys.stderr)
            return 1
        print(f"{name}: executed in {seconds:.0f} s -> {(EXECUTED / name).relative_to(DOCS.parent)}.ipynb")
    return 0


def _use_executed(app, docname: str, source: list[str]) -> None:
    """Sphinx ``source-read``: a notebook's page is read from its current executed copy, if there is one."""
    if docname.startswith("notebooks/"):
        executed = current_copy(source[0], EXECUTED / f"{docname.removeprefix('notebooks/')}.ipynb")
        if executed is not None:
            source[0] = executed


def setup(app):
    app.connect("source-read", _use_executed)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
