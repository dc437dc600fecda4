"""The site shows a notebook with its outputs only from an executed copy of the committed notebook
(docs/_ext/executed_notebooks.py): a copy of another version of it, or none, leaves the page as committed."""

import copy
import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "01-scoring.ipynb"


def _module():
    spec = importlib.util.spec_from_file_location(
        "executed_notebooks", ROOT / "docs" / "_ext" / "executed_notebooks.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _executed_copy(committed: dict) -> dict:
    """``committed`` as an execution leaves it: counts and an output in each code cell, sources one string."""
    nb = copy.deepcopy(committed)
    for i, cell in enumerate(c for c in nb["cells"] if c["cell_type"] == "code"):
        cell["execution_count"] = i + 1
        cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": f"cell {i}\n"}]
        cell["source"] = "".join(cell["source"])
    return nb


def test_a_current_copy_is_shown_a_stale_one_or_none_is_not(tmp_path):
    module = _module()
    text = NOTEBOOK.read_text(encoding="utf-8")
    executed = _executed_copy(json.loads(text))
    path = tmp_path / "01-scoring.ipynb"
    assert module.current_copy(text, path) is None  # no copy
    path.write_text(json.dumps(executed))
    assert module.current_copy(text, path) == path.read_text()
    source = [text]
    module.EXECUTED = tmp_path
    module._use_executed(None, "notebooks/01-scoring", source)
    assert json.loads(source[0])["cells"][-1]["outputs"], "the page is read from the executed copy"
    executed["cells"][-1]["source"] += "\nprint('changed since')"
    path.write_text(json.dumps(executed))
    assert module.current_copy(text, path) is None  # the committed notebook changed since the copy was made
    source = [text]
    module._use_executed(None, "notebooks/01-scoring", source)
    assert source == [text]


def test_an_unknown_notebook_is_one_line_and_status_2(capsys):
    assert _module().main(["--missing", "99-no-such"]) == 2
    assert capsys.readouterr().err == "executed_notebooks: no notebook '99-no-such' in notebooks/\n"


def test_a_failing_notebook_is_one_line_status_1_and_no_copy(tmp_path, capsys):
    import nbformat

    module = _module()
    module.NOTEBOOKS, module.EXECUTED = tmp_path, tmp_path / "executed"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("raise ValueError('no such deal')")])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, tmp_path / "99-broken.ipynb")
    assert module.main(["99-broken"]) == 1
    assert capsys.readouterr().err.splitlines()[-1] == "executed_notebooks: 99-broken failed: ValueError: no such deal"
    assert not (tmp_path / "executed").exists()
