"""One rule for the number of sampled deals (:func:`sims.core.advice.check_samples`): every command that samples
hidden deals refuses the same numbers with the same line, and the Python advisors refuse them as the commands do."""

from __future__ import annotations

from pathlib import Path

import pytest

from sims.cli import main
from sims.core.advice import MAX_SAMPLES

ROOT = Path(__file__).resolve().parents[2]
HAND = ["5H", "5S", "JD", "6C", "4H", "KD"]
COMMANDS = {
    "discard": ["discard", *HAND, "--dealer", "--opponent", "random"],
    "peg": ["peg", "7H", "8C", "5D", "--played", "KS,2S,5H", "--starter", "2C", "--dealer"],
    "advise": ["advise", "--game", "allfours", "beg", *HAND, "--turned", "7H"],
    "review": ["review", str(ROOT / "sims/cribbage/data/example-record.jsonl")],
    "duel": ["duel", "--game", "loo"],
}


@pytest.mark.parametrize("too_many", [1, MAX_SAMPLES + 1])
@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_refuses_the_same_samples_in_one_line(capsys, command, too_many):
    assert main([*COMMANDS[command], "--samples", str(too_many)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.endswith(
        f": samples must be an integer from 2 to {MAX_SAMPLES:,}, got {too_many}\n"
    )


def test_the_cribbage_advisors_refuse_as_the_commands_do():
    from sims.cribbage.advice import advise
    from sims.cribbage.discards import advise as advise_discard
    from sims.cribbage.situation import PegSituation

    rule = f"samples must be an integer from 2 to {MAX_SAMPLES:,}, got {MAX_SAMPLES + 1}"
    with pytest.raises(ValueError, match=rule):
        advise(PegSituation("7H 8C 5D", "KS 2S 5H", role="dealer", starter="2C"), samples=MAX_SAMPLES + 1)
    with pytest.raises(ValueError, match=rule):
        advise_discard(HAND, "dealer", opponent="random", samples=MAX_SAMPLES + 1)
