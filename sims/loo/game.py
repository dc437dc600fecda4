"""Loo as a game of the core: the record registered as the entry point ``sims.games`` ``loo``."""

from ..core.protocol import HAND, PLAY, Decision, Game
from .policies import POLICIES

GAME = Game(
    name="loo",
    title="Loo (three-card with the miss, five-card with Pam; three to ten players)",
    rules="sims.loo.rules",
    default_preset="three-card",
    decisions=(
        Decision(
            "declare",
            "sims.loo.contract:DECIDE_SIG",
            "expert",
            "play, take the miss or pass (five-card: stand or throw up); the dealer's play or give up",
            arguments=HAND,
            situation="sims.loo.situation:DeclareSituation",
        ),
        Decision(
            "exchange",
            "sims.loo.contract:DECIDE_SIG",
            "threshold",
            "five-card: the cards a stander changes for cards from the pack",
            arguments=HAND,
            situation="sims.loo.situation:ExchangeSituation",
        ),
        Decision(
            "card",
            "sims.loo.contract:CARD_SIG",
            "greedy",
            "the card played where the laws leave a choice",
            arguments=PLAY,
            situation="sims.loo.situation:CardSituation",
        ),
    ),
    policies=POLICIES,
    engine="sims.loo.engine",
    results="sims.loo.results",
    reference="sims.loo.reference",
    chunk_size={"deals": 4096, "games": 64},
    compile_time="a minute",
    max_seats=10,
    options={
        "clean": "independent deals with nothing held over in the pool: a single (or everyone stakes, "
        "under single=stake-all); by default one stake is held over"
    },
    advice="sims.loo.advice",
    record="sims.loo.record",
    duel="sims.loo.duel",
    advise_command="sims.loo.commands.advise",
    ladder=("declare=expert", "declare=threshold", "declare=always", "card=random"),
)
