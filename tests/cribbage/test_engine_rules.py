"""Rule-book replays (issue 3, must-haves 2, 3 and 8), named after the seed clauses.

Each deal is stacked: the hands by role (the dealer first, then round to his left), the cards the
crib takes from the pack, the starter.  Two scripted policies make the play predictable: each
player lays out the *last* cards dealt to him and lays the *first* card of his hand that keeps
the count within thirty-one.  Every replay runs in the reference engine, whose pegs are checked
against the points worked out by hand here, and in the njit kernel from the same stacked deck
(``play.play_dealt``), which must give the same points, cards laid, scores and winner.
"""

import numpy as np
from numba import types

from sims.cards import parse_card, parse_cards
from sims.core.arrays import copy_into
from sims.core.errors import E_SIZE
from sims.core.jobs import Job
from sims.core.kernel import njit  # cached by every source it reaches, not its own file only
from sims.core.kernel_types import F64_1, I64_1, I64_2, U64_2
from sims.core.streams import seat_streams
from sims.cribbage import play, play_games
from sims.cribbage import reference as ref
from sims.cribbage.contract import DISCARD_SIG, PEG_SIG, S_COUNT, is_legal_play
from sims.cribbage.engine import DISCARDS, PEGS
from sims.cribbage.literal_scoring import peg_items
from sims.cribbage.rules import R_THROW, get_rules


@njit(DISCARD_SIG, cache=True)
def throw_last(hand, state, rules, rng, params):
    """Lay out the last cards dealt."""
    n, k = hand.shape[0], rules[R_THROW]
    return ((1 << k) - 1) << (n - k)


@njit(PEG_SIG, cache=True)
def first_legal(hand, played, state, rules, rng, params):
    """Lay the first card in hand order that keeps the count within thirty-one."""
    for i in range(hand.shape[0]):
        if is_legal_play(hand, i, state[S_COUNT]):
            return i
    return -1


SCRIPT = {"discard": throw_last, "peg": first_legal}


@njit(
    types.int64(I64_1, types.int64, I64_1, types.boolean, I64_1, U64_2, DISCARDS, PEGS, F64_1, I64_1, I64_2, I64_1),
    cache=True,
)
def _kernel_deal(rules, dealer, scores, check_target, deck, seat_rngs, discard_fns, peg_fns, params, poff, comp, laid):
    """The kernel's deal from a stacked deck; ``laid`` gets the cards laid (-1 after the last)."""
    work = play.new_work(rules)
    copy_into(work[0], deck)
    err = np.zeros(E_SIZE, dtype=np.int64)
    winner = play.play_dealt(
        rules, dealer, scores, check_target, seat_rngs, (discard_fns, peg_fns), params, poff, comp, err, work
    )
    n_laid = 0
    for r in range(rules[1]):
        for c in work[3][r]:
            n_laid += c < 0
    copy_into(laid[:n_laid], work[6][:n_laid])
    return winner


def replay(rules, hands, starter, from_pack="", dealer=0, scores=None, check_target=False):
    """Play a stacked deal (``hands`` by role, dealer first) in the reference engine and the kernel."""
    rules = get_rules(rules)
    deck = ref.stacked_deck([parse_cards(h) for h in hands], parse_card(starter), parse_cards(from_pack))
    seat_rngs = np.zeros((4, 4), dtype=np.uint64)
    start = list(scores) if scores is not None else [0] * rules.sides
    deal = ref.play_deal(rules, dealer, deck, seat_rngs, SCRIPT, list(start), check_target)
    (discard_fns, peg_fns), params, poff = Job.make("cribbage", "deals", rules, SCRIPT, 1, 0).kernel_policies()
    kernel_scores = np.zeros(4, dtype=np.int64)
    kernel_scores[: rules.sides] = start
    comp = np.zeros((4, len(play.COMPONENTS)), dtype=np.int64)
    laid = np.full(rules.active * rules.kept, -1, dtype=np.int64)
    winner = _kernel_deal(
        rules.to_kernel(),
        dealer,
        kernel_scores,
        check_target,
        np.array(deck, dtype=np.int64),
        seat_streams(4),  # the same (zero) states as the reference's, each guarded (sims.core.streams)
        discard_fns,
        peg_fns,
        params,
        poff,
        comp,
        laid,
    )
    assert np.array_equal(comp[: rules.active], deal.components()), "kernel and reference points differ"
    assert laid[laid >= 0].tolist() == [card for _, card, _ in deal.laid], "kernel and reference play differ"
    assert kernel_scores[: rules.sides].tolist() == [s + p for s, p in zip(start, deal.side_points())]
    assert winner == (play.NO_WINNER if deal.winner is None else deal.winner)
    return deal


def pegs(deal, what=None, role=None):
    return [
        (p.role, p.points) for p in deal.pegs if (what is None or p.what == what) and (role is None or p.role == role)
    ]


def cards(text):
    return tuple(parse_cards(text))


DEALER, PONE = 0, 1


# -- Mottoes, "Sequences" ----------------------------------------------------------------------


def test_mottoes_sequences_ace_five_three_two_four_he_counts_five():
    """ "your adversary playing an ace, you a five, he a three, you a two, then he a four — he counts
    five for the sequence" (and two for the fifteen the five cards make)."""
    deal = replay("six-card", ["5H 2C 9C 8D  7S 7D", "AS 3D 4C KH  QS QD"], starter="6S")
    assert [card for _, card, _ in deal.laid[:5]] == list(cards("AS 5H 3D 2C 4C"))
    fifth = [p for p in deal.pegs if p.what == "play" and p.cards == cards("AS 5H 3D 2C 4C")]
    assert [(p.role, p.points) for p in fifth] == [(PONE, 7)]
    assert sorted(peg_items(fifth[0].cards)) == [("fifteen", 2), ("run of 5", 5)]
    assert not [p for p in deal.pegs if p.what == "play" and len(p.cards) < 5]  # A-5, A-5-3, A-5-3-2 score nothing


# -- Mottoes, "Pairs-Royal" and "Double Pairs-Royal" -------------------------------------------


def test_mottoes_pairs_royal_in_play_seven_seven_seven_seven():
    """ "Your adversary having played a seven and you another ... two points; your antagonist then
    playing a third seven, makes a pair-royal, and he marks six; and your playing a fourth is a
    double pair-royal, and entitles you to twelve points."  Then the go, a pair of kings, the end
    hole and the last card, all worked out by hand."""
    deal = replay("six-card", ["7H 7S KD QD  4H 9H", "7C 7D KC QC  2S 3S"], starter="AH")
    assert [card for _, card, _ in deal.laid] == list(cards("7C 7H 7D 7S  KC KD QC  QD"))
    assert pegs(deal, "play") == [(DEALER, 2), (PONE, 6), (DEALER, 12), (DEALER, 2)]
    # 28: nobody can play, the dealer takes the go; the pone leads K, K (pair), Q = 30, the dealer
    # cannot lay his queen, the pone has no cards: the pone's go; the dealer leads his queen, last card.
    assert [(p.role, p.what) for p in deal.pegs if p.component == "go"] == [
        (DEALER, "go"),
        (PONE, "go"),
        (DEALER, "last card"),
    ]
    assert deal.points(DEALER, "pegging") == 2 + 12 + 1 + 2 + 1
    assert deal.points(PONE, "pegging") == 6 + 1


# -- Mottoes, "End Hole" -------------------------------------------------------------------------


def test_mottoes_end_hole_thirty_one_for_two():
    """ "if he make thirty-one exactly, he marks two" — and no end hole besides; the player on the
    left of the last player (the pone) leads the next count."""
    deal = replay("six-card", ["QD 6H 2D 3D  KS KH", "TC 5C 9S 8S  KC KD"], starter="AH")
    assert [card for _, card, _ in deal.laid[:4]] == list(cards("TC QD 5C 6H"))
    assert deal.laid[3][2] == 31
    thirty_one = [p for p in deal.pegs if p.cards == cards("TC QD 5C 6H")]
    assert [(p.role, p.what, p.points) for p in thirty_one] == [(DEALER, "play", 2)]
    assert deal.counts[0] == [(PONE, c) for c in cards("TC")] + [(DEALER, c) for c in cards("QD")] + [
        (PONE, c) for c in cards("5C")
    ] + [(DEALER, c) for c in cards("6H")]
    assert deal.counts[1][0] == (PONE, parse_card("9S"))


def test_mottoes_end_hole_under_thirty_one_for_one():
    """ "The point scored by the last player, if he make under thirty-one": the pone makes 29,
    neither can go on, the pone takes one and the dealer leads the next count."""
    deal = replay("six-card", ["QD TH KH 4D  KS 2H", "KC 9C 3S 6S  JC JD"], starter="AH")
    assert [card for _, card, _ in deal.laid[:3]] == list(cards("KC QD 9C"))
    first_go = next(p for p in deal.pegs if p.component == "go")
    assert (first_go.role, first_go.what, first_go.points) == (PONE, "go", 1)
    assert deal.counts[1][0] == (DEALER, parse_card("TH"))


def test_three_hand_the_player_left_of_the_last_player_leads():
    """Sections 87-96 §87: "when thirty-one, or the nearest to that has been made, the next eldest hand
    leads": eldest K, second Q, dealer 9 (29), eldest cannot, second lays a two for thirty-one;
    the dealer, on the second player's left, leads — not the eldest, who led the last count."""
    hands = ["9H 8H 7H 6H  5C", "KC QC JC TC  4C", "QD 2D 3D 4D  5D"]  # dealer, eldest, second
    deal = replay("three-hand", hands, starter="AS", from_pack="6D")
    assert [(r, card) for r, card, _ in deal.laid[:4]] == [
        (1, parse_card("KC")),
        (2, parse_card("QD")),
        (0, parse_card("9H")),
        (2, parse_card("2D")),
    ]
    assert deal.laid[3][2] == 31
    assert deal.counts[1][0] == (0, parse_card("8H"))


# -- Mottoes, "Nob": his heels -------------------------------------------------------------------


def test_mottoes_his_heels_two_to_the_dealer():
    """ "if a knave be turned up, the dealer marks two", before any card is played."""
    deal = replay("six-card", ["5H 2C 9C 8D  7S 7D", "AS 3D 4C KH  QS QD"], starter="JD")
    assert (deal.pegs[0].role, deal.pegs[0].what, deal.pegs[0].points) == (DEALER, "heels", 2)
    assert deal.points(DEALER, "heels") == 2 and deal.points(PONE, "heels") == 0


def test_mottoes_his_heels_can_win_the_game():
    """Two for his heels are scored at once (Mottoes: "before the dealer's own card be played"):
    at 119 of 121 they win the game before a card is laid."""
    deal = replay(
        "six-card", ["5H 2C 9C 8D  7S 7D", "AS 3D 4C KH  QS QD"], starter="JD", scores=[119, 120], check_target=True
    )
    assert deal.winner == 0 and deal.laid == [] and pegs(deal) == [(DEALER, 2)]


# -- RULES.md "The play": two-handed five-card, one count only -------------------------------------


def test_five_card_one_count_only_cards_left_unplayed():
    """Hoyle / Britannica: in five-card, when neither can play the play is over; the cards left in
    hand are not played (but they are shown)."""
    deal = replay("five-card", ["QD JH 8S  2H 3H", "KC 9C 5D  2S 3S"], starter="AH")
    assert [card for _, card, _ in deal.laid] == list(cards("KC QD 9C"))
    assert [(p.role, p.what, p.points) for p in deal.pegs if p.component in ("play", "go")] == [(PONE, "go", 1)]
    assert deal.unplayed == [list(cards("JH 8S")), list(cards("5D"))]
    assert deal.points(PONE, "hand") > 0  # 9-5-A fifteen: the unplayed five still shows


def test_five_card_thirty_one_ends_the_play():
    deal = replay("five-card", ["QD AH 8S  2H 3H", "KC TC 5D  2S 3S"], starter="4H")
    assert [card for _, card, _ in deal.laid] == list(cards("KC QD TC AH"))
    assert pegs(deal, "play") == [(DEALER, 2)] and pegs(deal, "go") == []
    assert deal.unplayed == [list(cards("8S")), list(cards("5D"))]


# -- Mottoes "Last" / Rules of Cribbage, rule 10: three for last ----------------------------------------------


def test_rules_of_cribbage_three_for_last_five_card_non_dealer_starts_with_three():
    """ "The non-dealer, at the commencement of the game, in five-card cribbage, scores three points,
    called three for last; but in six and eight-card cribbage this is not to be done."""
    for game in ref.play_games("five-card", None, 20, seed=2):
        nondealer = 1 - game.first_dealer
        pegged = [sum(d.side_points()[s] for d in game.deals) for s in range(2)]
        assert game.scores[nondealer] - pegged[nondealer] == 3
        assert game.scores[game.first_dealer] == pegged[game.first_dealer]
    # The kernel: the score after the first deal less the first deal's points is the start.
    result = play_games("five-card", None, 200, seed=2, records=True, score_log=True)
    games, log = result.games, result.score_log()
    first = log[log["deal"] == 0].set_index("game")
    for s in range(2):
        start = first[f"score_{s}"] - games.set_index("game")[f"first_deal_{s}"]
        assert (start == np.where(games.set_index("game")["first_dealer"] == s, 0, 3)).all()
    six = play_games("six-card", None, 100, seed=2, records=True, score_log=True)
    first = six.score_log()
    first = first[first["deal"] == 0].set_index("game")
    for s in range(2):
        assert (first[f"score_{s}"] == six.games.set_index("game")[f"first_deal_{s}"]).all()


# -- RULES.md "Order of showing": the game ends the instant a side reaches the target --------------

# The pone's 5C 5D 5H JS with the 5S turned up show 29; the dealer's KH QH TD 9D show 6.
COUNT_OUT = ["KH QH TD 9D  2C 3C", "5C 5D 5H JS  2D 3D"]


def test_counting_out_pone_counts_before_the_dealer_shows():
    """The pone shows first: at 101 after the play his 29 take him out, and the dealer, who would
    have reached 122 with his hand, never shows."""
    deal = replay("six-card", COUNT_OUT, starter="5S", scores=[110, 100], check_target=True)
    # The play: 5 K (15, 2), 5 Q (30), dealer's go; 5 T (15, 2), J, pone's go; 9, last card.
    assert deal.points(DEALER, "pegging") == 2 + 1 + 2 + 1 and deal.points(PONE, "pegging") == 1
    assert deal.winner == PONE
    assert (deal.pegs[-1].role, deal.pegs[-1].what, deal.pegs[-1].points) == (PONE, "hand", 29)
    assert not [p for p in deal.pegs if p.what in ("crib",) or (p.what == "hand" and p.role == DEALER)]
    # Without the target the dealer's hand and crib are shown after the pone's.
    full = replay("six-card", COUNT_OUT, starter="5S")
    assert [(p.role, p.what) for p in full.pegs if p.component in ("hand", "crib")] == [
        (PONE, "hand"),
        (DEALER, "hand"),
        (DEALER, "crib"),
    ]
    assert full.points(DEALER, "hand") == 6


def test_counting_out_in_the_play():
    """At 120 the dealer's fifteen in the play wins at once: nothing more is laid or shown."""
    deal = replay("six-card", COUNT_OUT, starter="5S", scores=[119, 100], check_target=True)
    assert deal.winner == DEALER and len(deal.laid) == 2 and pegs(deal) == [(DEALER, 2)]


def test_three_hand_eldest_counts_out_first():
    """Three-hand: the eldest shows first, then the second player, then the dealer.  From scores at
    which each of them would reach 61 with his own show, the eldest's 2 win the game."""
    hands = ["5C 5D 5H JC  9S", "7C 8C 2D 4S  9H", "6C 6D 3S 3H  9C"]  # dealer, eldest, second
    deal = replay("three-hand", hands, starter="KD", from_pack="9D")
    shows = [deal.points(r, "hand") for r in range(3)]
    assert shows == [20, 2, 8]
    start = [61 - deal.points(r, "pegging") - shows[r] for r in range(3)]  # each would count out
    out = replay("three-hand", hands, starter="KD", from_pack="9D", scores=start, check_target=True)
    assert out.winner == 1 and (out.pegs[-1].role, out.pegs[-1].what, out.pegs[-1].points) == (1, "hand", 2)


# -- Sections 87-96 §87: three-hand: one card each to the crib and one from the pack ----------------------


def test_three_hand_crib_gets_a_card_from_the_pack():
    hands = ["9H 8H 7H 6H  5H", "KC QC JC TC  5C", "QD 2D 3D 4D  5D"]  # dealer, eldest, second
    deal = replay("three-hand", hands, starter="KS", from_pack="5S")
    assert deal.crib == list(cards("5C 5D 5H 5S"))  # eldest first, then the second, the dealer, the pack
    # Four fives and a king: double pair-royal 12, four fifteens of three fives 8, four 5-K 8.
    assert deal.points(DEALER, "crib") == 28
    assert [len(k) for k in deal.kept] == [4, 4, 4]


# -- Rules of Cribbage "sometimes by four" / RULES.md: four-hand partners score together ---------------------


def test_four_hand_partners_score_together():
    """Roles 0 and 2 (the dealer and his partner opposite) are one side, 1 and 3 the other: the
    partner's fifteen in the play counts for the dealer's side, and at 119 wins it the game."""
    hands = ["KH QH TH 9H  AC", "7C KC QC JC  2C", "8D KD QD JD  2D", "3S 9S TS KS  4S"]
    deal = replay("four-hand", hands, starter="6H")
    assert deal.laid[0][:2] == (1, parse_card("7C")) and deal.laid[1][:2] == (2, parse_card("8D"))
    assert next(p for p in deal.pegs if p.what == "play").role == 2
    per_role = [deal.points(r) for r in range(4)]
    assert deal.side_points() == [per_role[0] + per_role[2], per_role[1] + per_role[3]]
    won = replay("four-hand", hands, starter="6H", scores=[119, 100], check_target=True)
    assert won.winner == 0 and len(won.laid) == 2


# -- Sections 87-96 §88: three-rotation ----------------------------------------------------------------


def test_three_rotation_previous_dealer_sits_out_and_the_deal_passes_left():
    """ "one person sits out, not each game, but each deal in rotation": the dealer deals to the
    player on his left and the previous dealer sits out; the deal passes left."""
    for game in ref.play_games("three-rotation", None, 20, seed=8):
        for k, deal in enumerate(game.deals):
            assert deal.dealer == (game.first_dealer + k) % 3
            assert deal.seat(1) == (deal.dealer + 1) % 3
            if k:
                assert (deal.dealer + 2) % 3 == game.deals[k - 1].dealer  # the previous dealer sits out
            assert {deal.seat(p.role) for p in deal.pegs} <= {deal.dealer, (deal.dealer + 1) % 3}
    # The kernel: after each deal, the player sitting out has the score he had before it.
    result = play_games("three-rotation", None, 200, seed=8, records=True, score_log=True)
    log = result.score_log()
    first = result.games.set_index("game")["first_dealer"]
    assert (log["dealer"] == (first.loc[log["game"]].to_numpy() + log["deal"]) % 3).all()
    for game, rows in log.groupby("game"):
        scores = rows[["score_0", "score_1", "score_2"]].to_numpy()
        before = np.vstack([np.zeros(3, dtype=np.int64), scores[:-1]])
        out = (rows["dealer"].to_numpy() + 2) % 3
        assert (scores[np.arange(len(rows)), out] == before[np.arange(len(rows)), out]).all(), game
