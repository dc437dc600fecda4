"""Cribbage's built-in policies as a declarative table, and :func:`resolve` for names and user functions.

Each entry names its njit function by ``"module:function"``; nothing is imported
until a policy is asked for (:mod:`sims.core.policies`).

>>> from numba import njit
>>> from sims.cribbage.contract import PEG_SIG, S_COUNT
>>> from sims.cribbage.policies import resolve
>>> @njit(PEG_SIG)
... def lowest(hand, played, state, rules, rng, params):
...     best = -1
...     for i in range(hand.shape[0]):
...         if hand[i] >= 0 and state[S_COUNT] + min((hand[i] >> 2) + 1, 10) <= 31:
...             if best < 0 or hand[i] < hand[best]:
...                 best = i
...     return best
>>> resolve("peg", lowest).name
'lowest'
>>> resolve("peg", "defensive").describe()
{'name': 'defensive', 'params': {'risk_weight': 1.0, 'count_penalty': 0.5, 'pair_bonus': 0.5, 'keep_close': 1.0}}
"""

from __future__ import annotations

from ...core.policies import COUNT, NUMBER, SWITCH, Policy, PolicySpec, TableParams, at_least

M = "sims.cribbage.policies"
CRIBS = ("schell", "hessel", "self_play")  # the names of the tables (sims policies lists them without reading them)
CRIB_TABLE = TableParams("crib table", 338, "sims.cribbage.crib_tables:named_tables", "schell", CRIBS)
# Board-position tables: a section per preset with a table (position.VECTOR_SIZE), pegging on defensive or
# distilled outside the zone; the distilled pegging's own tables (distilled.N_PARAMS).
POSITIONS = ("shipped", "shipped-distilled")
POSITION = TableParams("board-position tables", 97066, f"{M}.position_vectors:named_tables", "shipped", POSITIONS)
POSITION_DISTILLED = TableParams(
    "board-position tables", 97066, f"{M}.position_vectors:named_tables", "shipped-distilled", POSITIONS
)
DISTILLED = TableParams("distilled pegging tables", 1578, f"{M}.distilled:named_tables", "shipped", ("shipped",))
# Crib table then the kept-pegging table (discard.N_KEPT values a role), by the crib table's name.
KEPT_PEGGING = TableParams(
    "crib and kept-pegging tables", 338 + 2 * 1820, f"{M}.kept_pegging:named_tables", "schell", CRIBS
)
WEIGHTS = ("own_crib", "their_crib", "pegging")  # weighted_peg's, each weighing one term of expected_peg
TWO_HANDED = (2,)  # the board-position tables are of two-handed games
DEFENSIVE = ("risk_weight", "count_penalty", "pair_bonus", "keep_close")
DEFENSIVE_RANGES = (NUMBER, NUMBER, NUMBER, SWITCH)

POLICIES = {
    "discard": {
        "random": PolicySpec(f"{M}.builtin:random_discard", help="a uniformly random throw"),
        "greedy": PolicySpec(f"{M}.builtin:greedy_discard", help="keep the cards that score most without a starter"),
        "expected_hand": PolicySpec(
            f"{M}.discard:expected_hand_discard", help="keep the cards with the best exact expected hand"
        ),
        "expected_net": PolicySpec(
            f"{M}.discard:expected_net_discard",
            CRIB_TABLE,
            help="expected hand +/- the crib table's value of the throw (Schell's by default)",
        ),
        "expected_peg": PolicySpec(
            f"{M}.discard:expected_peg_discard",
            KEPT_PEGGING,
            help="expected_net plus the pegging (mine less his) the ranks kept are worth, "
            "by a table fitted to play-outs",
        ),
        "weighted_peg": PolicySpec(
            f"{M}.discard:weighted_peg_discard",
            WEIGHTS,
            (1.0, 1.0, 1.0),
            help="expected_peg with weights that can be tuned: of the crib table's value to one's own crib, "
            "to the opponent's, and of the kept ranks' pegging (all 1: expected_peg's throws)",
            ranges=(at_least(0),) * 3,
            fixed=KEPT_PEGGING,
        ),
        "exact_net": PolicySpec(
            f"{M}.discard:exact_net_discard", help="expected hand +/- the exact crib when the others throw at random"
        ),
        "hoyle": PolicySpec(
            f"{M}.discard:hoyle_discard",
            help="Article: the dealer lays out his best cards for the crib, the pone his worst",
        ),
        "hoyle_hand": PolicySpec(
            f"{M}.discard:hoyle_hand_discard",
            help="Article read the other way: the pone throws the cards worst for his own hand",
        ),
        "position": PolicySpec(
            f"{M}.position_throw:position_discard",
            POSITION,
            players=TWO_HANDED,
            help="the throw with the best chance of winning the game, by the board-position "
            "tables (expected_net far from home)",
        ),
        "position_distilled": PolicySpec(
            f"{M}.position_throw:position_discard",
            POSITION_DISTILLED,
            players=TWO_HANDED,
            help="position, playing as expected_peg + distilled far from home",
        ),
    },
    "peg": {
        "random": PolicySpec(f"{M}.builtin:random_peg", help="a uniformly random legal card"),
        "greedy": PolicySpec(f"{M}.builtin:greedy_peg", help="the card that scores most at once"),
        "defensive": PolicySpec(
            f"{M}.pegging:defensive_peg",
            DEFENSIVE,
            (1.0, 0.5, 0.5, 1.0),
            help="score now, give little away; the last player keeps close (Sections 87-96 §89)",
            ranges=DEFENSIVE_RANGES,
        ),
        "defensive_no_close": PolicySpec(
            f"{M}.pegging:defensive_peg",
            DEFENSIVE,
            (1.0, 0.5, 0.5, 0.0),
            help="defensive without keeping close",
            ranges=DEFENSIVE_RANGES,
        ),
        "rollout": PolicySpec(
            f"{M}.rollout:rollout_peg",
            ("samples", "margin"),
            (32.0, 0.25),
            help="play each card out against sampled hands (slow, strong)",
            ranges=(COUNT, at_least(0)),
        ),
        "distilled": PolicySpec(
            f"{M}.distilled:distilled_peg",
            DISTILLED,
            help="tables fitted to play-outs: pegs more than rollout, at near defensive's speed",
        ),
        "weighted_distilled": PolicySpec(
            f"{M}.distilled:weighted_distilled_peg",
            ("points_now", "reply"),
            (1.0, 1.0),
            help="distilled with its weights scaled, that can be tuned: of the points a card scores now and of "
            "the best reply expected (1 each: distilled's cards)",
            ranges=(at_least(0),) * 2,
            fixed=DISTILLED,
        ),
        "distilled_end": PolicySpec(
            f"{M}.end_of_play:distilled_end_peg",
            DISTILLED,
            help="distilled, with the end of the play (two cards each) solved exactly; slower",
        ),
        "position": PolicySpec(
            f"{M}.position:position_peg",
            POSITION,
            players=TWO_HANDED,
            help="weigh points for and against by the board-position tables (defensive far from home)",
        ),
        "position_distilled": PolicySpec(
            f"{M}.position:position_peg",
            POSITION_DISTILLED,
            players=TWO_HANDED,
            help="position, playing as expected_peg + distilled far from home, "
            "the forced end of the play solved exactly",
        ),
    },
}


def resolve(decision: str, spec, params=None) -> Policy:
    """A cribbage Policy from a built-in name, a ``{name, params}`` table, a Policy or a user's njit function."""
    from ...core.jobs import resolve_one
    from ...core.registry import get_game

    return resolve_one(get_game("cribbage"), decision, spec, params)
