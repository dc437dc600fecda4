"""The README's promises: two quick-start commands, and the policy example runs as printed."""
import re
from pathlib import Path

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()


def _python_blocks():
    return re.findall(r"```python\n(.*?)```", README, flags=re.S)


def test_quick_start_has_exactly_two_commands():
    start = README.split("## Quick start", 1)[1].split("```", 2)[1]
    commands = [line.split("#")[0].strip() for line in start.strip().splitlines()]
    assert commands == ["make run", "make test"]


def test_user_policy_example_runs(capsys):
    (example,) = [block for block in _python_blocks() if "def lowest_card" in block]
    namespace = {}
    exec(compile(example, "README.md", "exec"), namespace)
    table = namespace["result"].table()
    pegging = table[table.component == "pegging"].set_index("role")["mean"]
    assert set(pegging.index) == {"dealer", "pone"}
    assert (pegging > 0).all()
    assert "pegging" in capsys.readouterr().out


def test_api_example_names_exist():
    import sims.cribbage as cribbage

    (api,) = [block for block in _python_blocks() if "from sims.cribbage import simulate_deals, play_games" in block]
    names = re.search(r"from sims.cribbage import (.*)", api).group(1).split(", ")
    for name in names:
        assert hasattr(cribbage, name.strip()), name
