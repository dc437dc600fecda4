"""All Fours' built-in policies as a declarative table (nothing is imported until a policy is asked for).

>>> from sims.allfours.policies import POLICIES
>>> sorted(POLICIES["play"])
['expert', 'forgetful', 'greedy', 'maxims', 'random']
"""

from __future__ import annotations

from ...core.policies import COUNT, NUMBER, SWITCH, PolicySpec

M = "sims.allfours.policies"
MAXIMS = ("knave", "tens", "best_cards", "eldest_trumps")

POLICIES = {
    "beg": {
        "random": PolicySpec(f"{M}.basic:random_choice", help="beg or stand at random"),
        "stand": PolicySpec(f"{M}.basic:constant", ("answer",), (0.0,), help="never beg", ranges=(SWITCH,)),
        "beg": PolicySpec(f"{M}.basic:constant", ("answer",), (1.0,), help="always beg", ranges=(SWITCH,)),
        "threshold": PolicySpec(
            f"{M}.begging:threshold_beg",
            ("strength",),
            (2.0,),
            help="beg when trumps + trump honours held are below the strength (default: the "
            "eldest's safest threshold in self-play, report section 9)",
            ranges=(NUMBER,),
        ),
    },
    "answer": {
        "random": PolicySpec(f"{M}.basic:random_choice", help="give one or run the cards at random"),
        "run": PolicySpec(f"{M}.basic:constant", ("answer",), (0.0,), help="always run the cards", ranges=(SWITCH,)),
        "give": PolicySpec(f"{M}.basic:constant", ("answer",), (1.0,), help="always give one", ranges=(SWITCH,)),
        "threshold": PolicySpec(
            f"{M}.begging:threshold_answer",
            ("strength",),
            (2.0,),
            help="give one when trumps + trump honours held reach the strength, unless "
            "the point wins the eldest the game (default: the dealer's safest "
            "threshold in self-play, report section 9)",
            ranges=(NUMBER,),
        ),
    },
    "play": {
        "random": PolicySpec(f"{M}.basic:random_play", help="a uniformly random legal card"),
        "greedy": PolicySpec(
            f"{M}.basic:greedy_play",
            help="win the trick with the lowest card of the suit led that can, else play the "
            "cheapest card; lead the highest plain card",
        ),
        "maxims": PolicySpec(
            f"{M}.maxims:maxims_play",
            MAXIMS,
            (1.0, 1.0, 1.0, 1.0),
            help="the four maxims of Sections 87-96 §94, each on (1) or off (0); else greedy",
            ranges=(SWITCH,) * 4,
        ),
        "forgetful": PolicySpec(
            f"{M}.memory:forgetful_play",
            ("asks",),
            (0.0,),
            help="the four maxims by a player who does not track the cards: he sees only the "
            "trick on the table; asks 1: and every trump played (law v: he asks whether "
            "each is high or low)",
            ranges=(SWITCH,),
        ),
        "expert": PolicySpec(
            f"{M}.expert:expert_play",
            ("samples", "max_nodes", "exact_cards"),
            (20.0, 1_000_000.0, 9.0),
            help="determinised search: solve sampled deals, play the best card on average (the maxims when "
            "max_nodes positions are not enough for one sample); a hand of more than exact_cards cards "
            "(the cards run) is searched two tricks deep, then played out by greedy",
            ranges=(COUNT, COUNT, COUNT),
        ),
    },
    "discard": {
        "random": PolicySpec(f"{M}.basic:random_discard", help="throw out a random card (discard_to_six)"),
        "cheapest": PolicySpec(
            f"{M}.basic:cheapest_discard",
            help="throw out the cheapest card: plain, counting nothing, low (discard_to_six)",
        ),
    },
}
