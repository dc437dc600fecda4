"""All Fours as a game of the core: the record registered as the entry point ``sims.games`` ``allfours``."""

from ..core.protocol import HAND, PLAY, Decision, Game
from .policies import POLICIES

GAME = Game(
    name="allfours",
    title="All Fours (two-hand, four-hand partners, seven-up)",
    rules="sims.allfours.rules",
    default_preset="two-hand",
    decisions=(  # the order of contract.D_BEG, D_ANSWER, D_PLAY, D_DISCARD
        Decision(
            "beg",
            "sims.allfours.contract:HAND_SIG",
            "threshold",
            "the eldest's beg: stand (0) or beg (1)",
            arguments=HAND,
            situation="sims.allfours.situation:BegSituation",
        ),
        Decision(
            "answer",
            "sims.allfours.contract:HAND_SIG",
            "threshold",
            "the dealer's answer to a beg: run the cards (0) or give one (1)",
            arguments=HAND,
            situation="sims.allfours.situation:AnswerSituation",
        ),
        Decision(
            "play",
            "sims.allfours.contract:PLAY_SIG",
            "maxims",
            "the card to play",
            arguments=PLAY,
            situation="sims.allfours.situation:PlaySituation",
        ),
        Decision(
            "discard",
            "sims.allfours.contract:HAND_SIG",
            "cheapest",
            "with discard_to_six: a card thrown out after the cards were run",
            arguments=HAND,
            situation="sims.allfours.situation:DiscardSituation",
        ),
    ),
    policies=POLICIES,
    engine="sims.allfours.engine",
    results="sims.allfours.results",
    reference="sims.allfours.reference",
    chunk_size={"deals": 4096, "games": 256},
    compile_time="a minute or two",
    max_seats=4,
    options={
        "agreement": "tally how often each play agrees with the advice of each maxim (Sections 87-96 §94)",
        "holdings": "the chance of each point (high, low, jack, game) by what a player holds when the play "
        "begins: trumps held, highest trump held, the knave (deals)",
    },
    advice="sims.allfours.advice",
    record="sims.allfours.record",
    duel="sims.allfours.duel",
    advise_command="sims.allfours.commands.advise",
    ladder=("play=maxims", "play=forgetful", "play=greedy", "play=random"),
)
