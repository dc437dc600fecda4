"""The ``expert`` agrees with the advisor where the advisor is exact: the last stander to play to the trick before
the last, after whose card every card is forced (each holds one), on random positions reached by random play under
the laws (the forced first lead, following, heading, trumping).  The advisor deals every card the other standers
may hold; wherever one card is strictly best, the expert must play it."""

import numpy as np

from sims.loo.advice import Player, play_outs
from sims.loo.reference import Laws
from sims.loo.rules import get_rules
from sims.loo.situation import CardSituation
from tests.agreement import DECISIVE, missed_bests
from tests.loo.plays import play_by_the_laws


def last_to_play(seed: int, players: int = 5):
    """Random positions of three-card loo (a miss taken now and then) and five-card loo with Pam (nothing
    changed, no flush held): two standers, now and then three, random cards that the laws allow up to the last
    card of the trick before the last, whose player may play either of two cards or more."""
    rng = np.random.default_rng(seed)
    order = [t % players for t in range(1, players + 1)]  # the declarations go round from the dealer's left
    while True:
        rules = get_rules("three-card" if rng.random() < 0.6 else "five-card-pam")
        k = rules.cards
        deck = rng.permutation(52).tolist()
        hands = [deck[i * k : (i + 1) * k] for i in range(players + 1)]  # the last: the miss (three-card)
        trump = deck[(players + 1) * k]
        laws = Laws.of_deal(rules, trump)
        standers = sorted(rng.choice(players, 3 if rng.random() < 0.15 else 2, replace=False).tolist(), key=order.index)
        declared = ["play" if r in standers else "pass" for r in order]
        if k == 3 and rng.random() < 0.3:
            taker = standers[int(rng.integers(len(standers)))]
            declared[order.index(taker)] = "miss"
            hands[taker] = hands[players]
        if any(laws.flush(hands[r]) for r in standers if k == 5):
            continue
        held, played, _, r, legal = play_by_the_laws(rng, laws, hands, standers, len(standers) * (k - 1) - 1)
        if len(legal) > 1:
            yield CardSituation(held[r], trump, role=r, declared=declared, played=played, rules=rules)


def _exact_values(situation):
    out, labels, exact, _, _ = play_outs(situation, samples=2)
    assert exact
    return labels, out.mean(axis=0)


def test_the_expert_plays_a_best_card_wherever_the_advisor_is_exact():
    missed = missed_bests(last_to_play(seed=34), _exact_values, Player("expert", seed=1))
    assert not missed, f"{len(missed)} of {DECISIVE:,} missed, e.g. {missed[:2]}"
