"""A policy cannot write past its random stream (issue 35, :mod:`sims.core.streams`).

The stream is the one array a policy may write, and numba checks no index: a policy that wrote 4 words past it
once zeroed the next seat's stream (the engine then drew for ever from an all-zero state), and one that wrote 64
words past changed the totals, then aborted the process.  Each game's card-play policy here plays at random
after writing: 4 words past its stream (zeros), 64 words past (a constant), or its own four words (allowed); one
answers no card after writing 4 words past.
Writing past is one line and exit status 2 from ``sims simulate`` (a process of its own, with a timeout), and a
one-line :class:`PolicyError` from a run, the advisors' play-outs, the stacked hands and a :class:`Player`;
writing its own words is a policy's right, and the run is played.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numba
import numpy as np
import pytest

from sims.core.errors import OVERRUN, PolicyError
from sims.core.jobs import Job
from sims.core.policies import load
from sims.core.registry import get_game
from sims.core.runner import run

# game: its card-play decision, and the built-in random policy for it
GAMES = {
    "cribbage": ("peg", "sims.cribbage.policies.builtin:random_peg"),
    "allfours": ("play", "sims.allfours.policies.basic:random_play"),
    "loo": ("card", "sims.loo.policies.builtin:random_card"),
}
PAST = ("past_4", "past_64")
COMPILING = "sims: compiling"  # the notice of a first run whose kernels are not yet in the cache

MODULE = textwrap.dedent("""
    from numba import njit
    from {module} import {name} as play_randomly


    @njit
    def past_4(hand, played, state, rules, rng, params):
        for k in range(4, 8):
            rng[k] = 0
        return play_randomly(hand, played, state, rules, rng, params)


    @njit
    def past_64(hand, played, state, rules, rng, params):
        for k in range(4, 68):
            rng[k] = 0x5EED
        return play_randomly(hand, played, state, rules, rng, params)


    @njit
    def past_4_then_no_card(hand, played, state, rules, rng, params):
        for k in range(4, 8):
            rng[k] = 0
        return -1


    @njit
    def own_words(hand, played, state, rules, rng, params):
        rng[0] += 1
        return play_randomly(hand, played, state, rules, rng, params)
""")


@pytest.fixture(scope="module")
def policies(tmp_path_factory):
    """The folder of the modules ``stream_<game>`` defining each game's writing policies, on ``sys.path``."""
    folder = tmp_path_factory.mktemp("policies")
    for game, (_, random) in GAMES.items():
        module, name = random.split(":")
        (folder / f"stream_{game}.py").write_text(MODULE.format(module=module, name=name))
    sys.path.insert(0, str(folder))
    yield folder
    sys.path.remove(str(folder))


def policy(game, name):
    """The writing policy ``name`` of ``game``, compiled for its decision."""
    decision = get_game(game).decision(GAMES[game][0])
    return numba.njit(load(decision.signature))(load(f"stream_{game}:{name}").py_func)


def _one_line(info) -> str:
    text = str(info.value)
    assert "\n" not in text and OVERRUN in text, text
    return text


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("name", PAST)
def test_the_command_line_refuses_a_policy_that_writes_past_its_stream(policies, game, name):
    decision = GAMES[game][0]
    got = subprocess.run(
        [
            sys.executable,
            "-m",
            "sims",
            "simulate",
            "--game",
            game,
            "--deals",
            "4",
            "--threads",
            "1",
            f"--{decision}",
            f"py:stream_{game}.{name}",
            "--quiet",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(policies)},
    )
    err = "".join(line for line in got.stderr.splitlines(keepends=True) if not line.startswith(COMPILING))
    assert "Traceback" not in err, err
    assert (got.returncode, got.stdout) == (2, ""), got
    assert err.count("\n") == 1 and OVERRUN in err and name in err, err


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("name", PAST)
def test_a_run_refuses_a_policy_that_writes_past_its_stream(policies, game, name):
    job = Job.make(game, "deals", None, {GAMES[game][0]: policy(game, name)}, 8, seed=3)
    with pytest.raises(PolicyError) as info:
        run(job, threads=1, progress=False)
    assert name in _one_line(info)


@pytest.mark.parametrize("game", GAMES)
def test_a_policy_that_writes_past_its_stream_and_answers_no_card_is_told_of_the_stream(policies, game):
    """The stream written past is what the run refuses, not the card (cribbage checks the guards once the play is
    over, and at a card the laws forbid)."""
    job = Job.make(game, "deals", None, {GAMES[game][0]: policy(game, "past_4_then_no_card")}, 8, seed=3)
    with pytest.raises(PolicyError) as info:
        run(job, threads=1, progress=False)
    assert "past_4_then_no_card" in _one_line(info)


@pytest.mark.parametrize("game", GAMES)
def test_a_policy_may_write_its_own_stream(policies, game):
    """Its four words are its own to change: the run is played, and the same seed gives the same numbers."""
    job = Job.make(game, "deals", None, {GAMES[game][0]: policy(game, "own_words")}, 8, seed=3)
    assert run(job, threads=1, progress=False).summary == run(job, threads=1, progress=False).summary


def _situation(game):
    if game == "cribbage":
        from sims.cribbage.situation import PegSituation

        return PegSituation("5H 6H 7H", "KS QS 9D AC", role="dealer", starter="2C")
    if game == "allfours":
        from sims.allfours.situation import PlaySituation

        return PlaySituation("AH 10H 3C 4D 5S", "7H", played="KH QH")
    from sims.loo.situation import CardSituation

    return CardSituation(hand="- 4S 2D", trump="7H", role=3, declared="pass play play pass pass", played="9S KS")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("name", PAST)
def test_an_advisor_refuses_a_play_out_policy_that_writes_past_its_stream(policies, game, name):
    fn = policy(game, name)
    playout = fn if game == "cribbage" else {GAMES[game][0]: fn}
    with pytest.raises(PolicyError) as info:
        get_game(game).part("advice").advise(_situation(game), playout=playout, samples=10)
    _one_line(info)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("name", PAST)
def test_a_player_refuses_a_policy_that_writes_past_its_stream(policies, game, name):
    player = get_game(game).part("advice").Player(policy(game, name), decision=GAMES[game][0])
    with pytest.raises(PolicyError) as info:
        player.choose(_situation(game))
    assert "a " + GAMES[game][0] + " decision" in _one_line(info)


@pytest.mark.parametrize("name", PAST)
def test_stacked_hands_refuse_a_policy_that_writes_past_its_stream(policies, name):
    from sims.allfours.stacked import play_stacked as all_fours_hand
    from sims.loo.engine import play_stacked as loo_deal

    deck = np.random.default_rng(1).permutation(52)
    with pytest.raises(PolicyError) as info:
        all_fours_hand("two-hand", 0, deck, {"play": policy("allfours", name)})
    _one_line(info)
    streams = np.random.default_rng(2).integers(1, 2**63, (3, 4), dtype=np.uint64)  # zero streams draw for ever
    with pytest.raises(PolicyError) as info:
        loo_deal("three-card", {"card": policy("loo", name)}, deck, seat_rngs=streams)
    _one_line(info)
