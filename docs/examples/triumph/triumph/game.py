"""Triumph as a game of sims: the record the entry point ``sims.games`` ``triumph`` names."""

from sims.core.policies import PolicySpec
from sims.core.protocol import Decision, Game

CARD = Decision(
    "card", "triumph.rules:CARD_SIG", "greedy", "the card to play", situation="triumph.situation:CardSituation"
)
GAME = Game(
    name="triumph",
    title="Triumph (a small trick game: the worked example of docs/adding-a-game.md)",
    rules="triumph.rules",
    default_preset="two-hand",
    decisions=(CARD,),
    policies={
        "card": {
            "random": PolicySpec("triumph.play:random_card", help="a uniformly random legal card"),
            "greedy": PolicySpec("triumph.play:greedy_card", help="the cheapest card that wins, else the lowest"),
        }
    },
    engine="triumph.engine",
    reference="triumph.reference",
    chunk_size={"deals": 4096, "games": 4096},  # the same: a game's streams are its deal's (record.play_game)
    compile_time="a few seconds",
    advice="triumph.advice",
    record="triumph.record",
    duel="triumph.duel",
)
