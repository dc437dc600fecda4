"""The ``expert`` agrees with the advisor where the advisor is exact: the follower at the fifth trick of two-hand,
after whose card every card is forced (each holds one), on random positions reached by random play under law iii
(follow suit or trump).  The advisor deals every card the leader may hold by the laws (``infer="laws"``: the random
play that reaches these positions is no play-out policy's, so nothing more can be read from it); wherever one card
is strictly best, the expert must play it.  Positions in which neither card is a trump or counts for game are left out: there the two
cards almost always tie (7 of 167 decided in a trial), and each position costs an advisor's call."""

import numpy as np

from sims.allfours import reference as ref
from sims.allfours.advice import O_NET, Player, play_outs
from sims.allfours.cards import game_points
from sims.allfours.situation import PlaySituation
from tests.agreement import DECISIVE, missed_bests

from .test_advice import FIFTH_TRICK


def fifth_trick_followers(seed: int):
    """Random two-hand positions in which the follower to the fifth trick may play either of his two cards, one
    of them a trump or a card that counts for game: six cards each and the thirteenth turned, then four tricks
    and a lead of random cards that law iii allows."""
    rng = np.random.default_rng(seed)
    while True:
        deck = rng.permutation(52).tolist()
        hands, turned = [deck[6:12], deck[:6]], deck[12]  # the dealer's, the eldest's
        trump = turned & 3
        played, trick, leader = [], [], 1
        while len(played) < 9:
            role = (leader + len(trick)) % 2
            legal = ref.legal_cards(hands[role], trick[0][1] & 3 if trick else None, trump, True)
            card = hands[role].pop(legal[rng.integers(len(legal))])
            played.append(card)
            trick.append((role, card))
            if len(trick) == 2:
                leader, trick = trick[ref.trick_winner(trick, trump)][0], []
        role = 1 - leader
        situation = PlaySituation(hands[role], turned, played, role=role)
        if len(situation.legal()) == 2 and any(c & 3 == trump or game_points(c) for c in situation.hand):
            yield situation


def _exact_values(situation):
    out, labels, exact, _, _ = play_outs(situation, samples=2, infer="laws")
    assert exact
    return labels, out[:, :, O_NET].mean(axis=0)


def test_the_expert_plays_a_best_card_wherever_the_advisor_is_exact():
    missed = missed_bests(fifth_trick_followers(seed=34), _exact_values, Player("expert", seed=1))
    assert not missed, f"{len(missed)} of {DECISIVE:,} missed, e.g. {missed[:2]}"


def test_the_expert_trumps_with_the_knave_to_make_sure_of_jack():
    """The README's position: kept, the knave can fall to a higher trump in the last trick."""
    assert Player("expert").choose(PlaySituation(**FIFTH_TRICK)) == "JH"
