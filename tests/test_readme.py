"""Every example in the README runs as printed: the quick start's two commands, each `sims` command line
(in one working directory, in order) and each Python block."""
import re
import shlex
from pathlib import Path


from sims.cli import main

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()


def _blocks(language):
    return re.findall(rf"```{language}\n(.*?)```", README, flags=re.S)


def _command_lines():
    lines = []
    for block in _blocks("sh"):
        for line in block.splitlines():
            command = line.split(" # ")[0].strip()
            if command.startswith("sims "):
                lines.append(command)
    return lines


def test_quick_start_has_exactly_two_commands():
    start = README.split("## Quick start", 1)[1].split("```", 2)[1]
    commands = [line.split("#")[0].strip() for line in start.strip().splitlines()]
    assert commands == ["make run", "make test"]


def test_every_command_line_runs(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    lines = _command_lines()
    assert len(lines) >= 15 and any("--game loo" in line for line in lines)
    for line in lines:
        code = main(shlex.split(line)[1:])
        out, err = capsys.readouterr()
        assert code == 0, f"{line}: {err}"
        assert out.strip(), line
    assert (tmp_path / "data/runs/demo/summary.json").exists()


def test_every_python_block_runs(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["run", "--deals", "200000", "--discard", "greedy", "--peg", "greedy", "--seed", "1", "--out",
                 "data/runs/demo", "--quiet"]) == 0         # the run the store example reads (as in the README)
    blocks = _blocks("python")
    assert len(blocks) == 5
    for block in blocks:
        namespace = {}
        exec(compile(block, "README.md", "exec"), namespace)
    out = capsys.readouterr().out
    assert "pegging" in out and "crib" in out


def test_user_policy_example_plays_its_policy():
    (example,) = [block for block in _blocks("python") if "def lowest_card" in block]
    namespace = {}
    exec(compile(example, "README.md", "exec"), namespace)
    pegging = namespace["result"].seat_table().query("component == 'pegging'").set_index("seat")["mean"]
    greedy = namespace["simulate_deals"]("six-card", {"discard": "greedy", "peg": "greedy"}, 20_000, seed=1)
    greedy_pegging = greedy.seat_table().query("component == 'pegging'").set_index("seat")["mean"]
    assert pegging[0] < greedy_pegging[0] - 0.1          # seat 0 lays its lowest card: it pegs less
