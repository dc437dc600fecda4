"""Cribbage as a game of the core: the record registered as the entry point ``sims.games`` ``cribbage``."""

from ..core.protocol import HAND, PLAY, Decision, Game
from .policies import POLICIES

GAME = Game(
    name="cribbage",
    title="Cribbage (five-, six- and eight-card; three- and four-hand)",
    rules="sims.cribbage.rules",
    default_preset="six-card",
    decisions=(
        Decision(
            "discard",
            "sims.cribbage.contract:DISCARD_SIG",
            "expected_peg",
            "cards laid out for the crib",
            arguments=HAND,
            situation="sims.cribbage.situation:DiscardSituation",
        ),
        Decision(
            "peg",
            "sims.cribbage.contract:PEG_SIG",
            "distilled",
            "the card laid in the play",
            arguments=PLAY,
            situation="sims.cribbage.situation:PegSituation",
        ),
    ),
    policies=POLICIES,
    engine="sims.cribbage.engine",
    results="sims.cribbage.results",
    reference="sims.cribbage.reference",
    chunk_size={"deals": 4096, "games": 256},
    compile_time="a minute or two",
    max_seats=4,
    options={"score_log": "games: keep the score after every deal (up to 64 a game)"},
    advice="sims.cribbage.advice",
    record="sims.cribbage.record",
    duel="sims.cribbage.duel",
    advise_command="sims.cribbage.commands.advise",
    ladder=(
        "discard=expected_net,peg=defensive",
        "discard=hoyle,peg=defensive",
        "discard=greedy,peg=greedy",
        "discard=random,peg=random",
    ),
)
