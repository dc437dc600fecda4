"""Loo's built-in policies as a declarative table (nothing is imported until a policy is asked for).

>>> from sims.loo.policies import POLICIES
>>> sorted(POLICIES)
['card', 'declare', 'exchange']
"""

from __future__ import annotations

from ...core.policies import COUNT, NUMBER, PolicySpec, TableParams

M = "sims.loo.policies"
# The threshold policies' parameters: a weight for each category of card but plain low cards (their order is
# that of sims.loo.policies.hands.CATEGORIES), then the thresholds.
WEIGHTS = ("pam", "trump_high", "trump_mid", "trump_low", "plain_ace", "plain_king")
DEFAULT_WEIGHTS = (1.3, 1.0, 0.6, 0.35, 0.6, 0.25)
THRESHOLD_DECLARE = WEIGHTS + ("stand_at", "per_stander", "miss_below")
THRESHOLD_EXCHANGE = WEIGHTS + ("keep_at",)
# Sizes of the expert's tables (sims.loo.policies.expert: DECLARE_SIZE, EXCHANGE_SIZE), checked by the tests.
DECLARE_TABLE = TableParams(
    "declaration tables", 61_920, f"{M}.expert:named_declare_tables", "self_play", ("self_play",)
)
EXCHANGE_TABLE = TableParams("exchange table", 56, f"{M}.expert:named_exchange_tables", "self_play", ("self_play",))

POLICIES = {
    "declare": {
        "random": PolicySpec(f"{M}.builtin:random_declare", help="pass, play or take the miss at random"),
        "always": PolicySpec(f"{M}.builtin:always_declare", help="always play"),
        "threshold": PolicySpec(
            f"{M}.builtin:threshold_declare",
            THRESHOLD_DECLARE,
            DEFAULT_WEIGHTS + (0.9, 0.15, 0.5),
            help="play on a weighted hand strength; take the miss on a poor hand",
            ranges=(NUMBER,) * len(THRESHOLD_DECLARE),
        ),
        "expert": PolicySpec(
            f"{M}.expert:expert_declare",
            DECLARE_TABLE,
            help="play, take the miss or pass by the money self-play tables expect",
        ),
    },
    "exchange": {
        "keep": PolicySpec(f"{M}.builtin:keep_exchange", help="change nothing"),
        "random": PolicySpec(f"{M}.builtin:random_exchange", help="change each card with chance one half"),
        "threshold": PolicySpec(
            f"{M}.builtin:threshold_exchange",
            THRESHOLD_EXCHANGE,
            DEFAULT_WEIGHTS + (0.3,),
            help="change the cards weighing less than keep_at",
            ranges=(NUMBER,) * len(THRESHOLD_EXCHANGE),
        ),
        "expert": PolicySpec(
            f"{M}.expert:expert_exchange",
            EXCHANGE_TABLE,
            help="change the cards a card from the pack beats, by self-play win chances",
        ),
    },
    "card": {
        "random": PolicySpec(f"{M}.builtin:random_card", help="a uniformly random legal card"),
        "greedy": PolicySpec(
            f"{M}.builtin:greedy_card",
            help="lead the strongest card; win a trick as cheaply as you can, else throw the weakest",
        ),
        "expert": PolicySpec(
            f"{M}.expert:expert_card",
            ("samples",),
            (24.0,),
            help="play each legal card out against sampled deals of the unseen cards",
            ranges=(COUNT,),
        ),
    },
}
