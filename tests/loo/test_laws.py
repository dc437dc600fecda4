"""Rule-book replays of Loo on stacked decks (issue 11, must-have 4), named after the law they check.

Each deal is stacked (hands by role: the dealer first, then round to his left; the miss; the
trump; the pack for exchanges) and scripted: each player declares (and, five-card, exchanges)
as the script says, and plays the *first* card in his hand that the laws allow, so where the
laws force a card the script would have chosen another.  Every replay runs in the reference
engine and in the njit kernel (``engine.play_stacked``), which must agree card for card and
penny for penny; the outcomes are then checked against the money worked out by hand here.

Three players unless said otherwise (roles: 0 the dealer, 1 the eldest hand, 2 the player on
his left); three-card stake 3, five-card stake 5, one stake held over from the deal before.
"""

import numpy as np
import pytest

from sims.cards import parse_card, parse_cards
from sims.core.kernel import njit  # cached by every source it reaches, not its own file only
from sims.core.policies import user
from sims.loo import get_rules
from sims.loo import reference as ref
from sims.loo.contract import CARD_SIG, DECIDE_SIG, MISS, PASS, PLAY, S_LEGAL
from sims.loo.engine import play_stacked

THREE = get_rules("three-card").replace(name="three-card, three players", players=3)
FIVE = get_rules("five-card-pam").replace(name="five-card, three players", players=3)


@njit(DECIDE_SIG, cache=True)
def declare_by_script(hand, state, rules, rng, params):
    """The declaration the script gives this seat."""
    return int(params[0])


@njit(DECIDE_SIG, cache=True)
def exchange_by_script(hand, state, rules, rng, params):
    """The exchange mask the script gives this seat."""
    return int(params[0])


@njit(CARD_SIG, cache=True)
def first_legal(hand, played, state, rules, rng, params):
    """The first card in hand that the laws allow."""
    legal = state[S_LEGAL]
    i = 0
    while not (legal >> i) & 1:
        i += 1
    return i


def replay(rules, hands, trump, miss="", pack="", declare=None, exchange=None, carry=None, dealer=0):
    """Play a stacked deal in the reference engine and in the kernel; returns the reference's Deal.

    ``hands`` by role (dealer first); ``declare`` / ``exchange``: {role: answer} (default: everyone plays,
    changing nothing)."""
    n = rules.players
    declare = declare or {}
    exchange = exchange or {}
    seat_of_role = {r: (dealer + r) % n for r in range(n)}
    role_of_seat = {s: r for r, s in seat_of_role.items()}
    policies = {
        "declare": [
            user("declare", declare_by_script, DECIDE_SIG, (declare.get(role_of_seat[s], PLAY),)) for s in range(n)
        ],
        "exchange": [
            user("exchange", exchange_by_script, DECIDE_SIG, (exchange.get(role_of_seat[s], 0),)) for s in range(n)
        ],
        "card": first_legal,
    }
    carry = rules.stake if carry is None else carry
    deck = ref.stacked_deck([parse_cards(h) for h in hands], parse_card(trump), parse_cards(miss), parse_cards(pack))
    deal = ref.play_deal(rules, dealer, carry, ref.Pack(stacked=deck), np.zeros((10, 4), dtype=np.uint64), policies)
    out, info, played = play_stacked(rules, policies, deck, dealer, carry)
    assert np.array_equal(out, deal.outcomes()), "kernel and reference outcomes differ"
    assert np.array_equal(info, deal.info()), "kernel and reference deals differ"
    assert [(int(c), int(r)) for c, r in played] == [(c, r) for t in deal.tricks for r, c in t], (
        "kernel and reference play differ"
    )
    assert out[:, 0].sum() == carry - deal.carried_on, "money is not conserved"
    return deal


def cards_played(deal):
    return [c for t in deal.tricks for _, c in t]


def money(deal):
    return [deal.money.get(r, 0) for r in range(deal.rules.players)]


def test_first_player_with_two_or_three_trumps_must_lead_the_highest():
    """Mottoes: "If the first player possess two or three trumps, he must play the highest"."""
    deal = replay(THREE, ["AS 7C 9D", "5H QH 3C", "KH 4S 2D"], "2H", miss="KC KD 6S")
    assert cards_played(deal)[0] == parse_card("QH")  # the script would have led 5H
    assert cards_played(deal) == parse_cards("QH KH AS 4S 7C 5H 3C 2D 9D")
    assert deal.winners == [2, 1, 1]
    # The dealer took no trick: looed, he pays the stake into the next pool.
    assert deal.looed == {0} and deal.carried_on == 3
    assert money(deal) == [-3 - 3, 4, 2]


def test_ace_of_trumps_only_must_be_led():
    """Mottoes: "With ace of trumps only, the first player must lead it"."""
    deal = replay(THREE, ["5C QS 7D", "4C 9S AH", "KC 10S 3D"], "2H", miss="8C 8D 8S")
    assert cards_played(deal) == parse_cards("AH KC 5C 4C 10S QS 9S 3D 7D")  # the script would have led 4C
    assert deal.winners == [1, 1, 1]
    assert deal.looed == {0, 2} and deal.carried_on == 6
    assert money(deal) == [-3 - 3, 6, -3]


def test_a_follower_must_follow_suit_and_head_the_trick():
    """Mottoes: "Each player must follow suit if he can" and "must head the trick if he can"."""
    deal = replay(THREE, ["2S KS 7C", "10S 4D 6C", "3S QS 5H"], "2H", miss="8C 8D 8S")
    # Role 2 heads with QS (not 3S, not the trump 5H); the dealer heads again with KS.
    assert cards_played(deal) == parse_cards("10S QS KS 2S 4D 3S 5H 7C 6C")
    assert deal.winners == [0, 2, 2]
    assert deal.looed == {1} and money(deal) == [-3 + 2, -3, 4]


def test_a_player_void_in_the_suit_led_must_trump_and_overtrump():
    """shared/RULES.md (Loo, play): void in the suit led, a player must trump, and overtrump, when that wins."""
    deal = replay(THREE, ["7C 6H 8D", "KS 4D 6C", "5C 3H 9H"], "2H", miss="8C 10D 8S")
    # Role 2 trumps (3H, not 5C); the dealer overtrumps (6H, not 7C).
    assert cards_played(deal)[:3] == parse_cards("KS 3H 6H")
    # Trick two: clubs led, both must follow; trick three: void in diamonds, 9H must trump.
    assert cards_played(deal)[3:] == parse_cards("7C 6C 5C 8D 4D 9H")
    assert deal.winners == [0, 0, 2]
    assert money(deal) == [-3 + 4, -3, 2]


def test_a_trick_trumped_too_high_need_not_be_overtrumped():
    """The duty to trump holds only "when that wins the trick": a lower trump may stay in hand."""
    deal = replay(THREE, ["4C 5C 3H", "KS 7D 8D", "QH 9D 10D"], "2H", miss="2C 3C 8C")
    # Role 2 must trump KS; the dealer, void in spades, cannot beat QH with 3H: any card, the script's 4C.
    assert cards_played(deal)[:3] == parse_cards("KS QH 4C")


def test_a_player_holding_the_suit_led_follows_though_the_trick_is_trumped():
    deal = replay(THREE.replace(players=4), ["4C 5C 6C", "KS 7D 8D", "QH 9D 10D", "7S 3H JC"], "2H", miss="2C 3C 8C")
    # Role 3 holds 7S: he must follow spades (no trumping, no heading possible); the dealer throws 4C.
    assert cards_played(deal)[:4] == parse_cards("KS QH 7S 4C")


def test_taking_the_miss():
    """Mottoes: "I take the miss": the player's hand is changed for the miss, and he must play."""
    deal = replay(THREE, ["QC 10D JS", "4C 5D 6S", "KC 8D 9S"], "2H", miss="AH 3C 7S", declare={1: MISS})
    assert deal.took_miss == 1
    # Holding the miss, the eldest has the ace of trumps only: he must lead it.
    assert cards_played(deal) == parse_cards("AH KC QC 3C 8D 10D 7S 9S JS")
    assert deal.winners == [1, 1, 0]
    assert money(deal) == [-3 + 2, 4, -3]


def test_the_miss_cannot_be_taken_twice():
    """The miss is then gone: a second player asking for it is an illegal declaration."""
    from sims.core.errors import PolicyError

    policies = {
        "declare": [user("declare", declare_by_script, DECIDE_SIG, (a,)) for a in (PLAY, MISS, MISS)],
        "card": first_legal,
    }
    deck = ref.stacked_deck(
        [parse_cards(h) for h in ["QC 10D JS", "4C 5D 6S", "KC 8D 9S"]], parse_card("2H"), parse_cards("AH 3C 7S")
    )
    with pytest.raises(
        PolicyError,
        match=r"^declared 2 as hand 2 with KC 8D 9S, 2H trumps: it must be 0 \(pass\) "
        r"or 1 \(play\)$",
    ):
        play_stacked(THREE, policies, deck, 0, 3)


def test_a_lone_stander_and_the_dealer_gives_up_the_stakes():
    """Mottoes: "if only one player stand the chance of the loo, [the dealer] may either play or give up the
    stakes": giving up, the stander takes the pool without play."""
    deal = replay(
        THREE, ["2S KS 7C", "10S 4D 6C", "3S QS 5H"], "2H", miss="8C 8D 8S", declare={1: PLAY, 2: PASS, 0: PASS}
    )
    assert deal.ending == "stakes given up" and not deal.tricks
    assert money(deal) == [-3, 6, 0] and deal.carried_on == 0


def test_a_lone_stander_and_the_dealer_plays():
    deal = replay(
        THREE, ["2S KS 7C", "10S 4D 6C", "3S QS 5H"], "2H", miss="8C 8D 8S", declare={1: PLAY, 2: PASS, 0: PLAY}
    )
    # Two play: the dealer heads 10S with KS, leads 2S (the eldest, void, throws 4D), then 7C.
    assert cards_played(deal) == parse_cards("10S KS 2S 4D 7C 6C")
    assert deal.winners == [0, 0, 0] and deal.looed == {1}
    assert money(deal) == [-3 + 6, -3, 0]


def test_nobody_stands_and_the_dealer_takes_the_pool():
    """shared/RULES.md (Loo, declaring): if nobody stands before the dealer, the dealer takes the pool (his
    own declaration is not asked for)."""
    deal = replay(
        THREE, ["2S KS 7C", "10S 4D 6C", "3S QS 5H"], "2H", miss="8C 8D 8S", declare={1: PASS, 2: PASS, 0: MISS}
    )
    assert deal.ending == "dealer takes the pool" and deal.declarations == [(1, PASS), (2, PASS)]
    assert money(deal) == [-3 + 6, 0, 0]


@pytest.mark.parametrize(
    "unlimited, carry, loo_limit, looe", [(False, 3, 3000, 3), (True, 3, 3000, 6), (True, 6, 3000, 9), (True, 6, 6, 6)]
)
def test_limited_and_unlimited_looes(unlimited, carry, loo_limit, looe):
    """Limited loo: the looed player pays the stake; unlimited: "a sum equal to what happens to be on the
    table" (Mottoes), here no more than loo_limit."""
    rules = THREE.replace(unlimited=unlimited, loo_limit=loo_limit)
    deal = replay(rules, ["2S KS 7C", "10S 4D 6C", "3S QS 5H"], "2H", miss="8C 8D 8S", carry=carry)
    share = (carry + 3) // 3
    assert deal.looed == {1} and deal.carried_on == looe
    assert money(deal) == [-3 + share, -looe, 2 * share]


def test_the_single():
    """Sections 87-96 §96 viii: "a single; that is, a round without a miss, when all the players must play"."""
    rules = THREE
    deal = replay(rules, ["2S KS 7C", "10S 4D 6C", "3S QS 5H"], "2H", declare={1: PASS, 2: PASS, 0: PASS}, carry=0)
    assert deal.single and not deal.miss and not deal.declarations
    assert deal.pool == 3 and deal.winners == [0, 2, 2]
    assert money(deal) == [-3 + 1, -3, 2] and deal.carried_on == 3


def test_stake_all_instead_of_the_single():
    """Sections 87-96 §96 viii: "or each player puts into the pool a sum equal to that staked by the dealer in which
    latter case a miss is dealt"."""
    rules = THREE.replace(single="stake-all")
    deal = replay(rules, ["2S KS 7C", "10S 4D 6C", "3S QS 5H"], "2H", miss="8C 8D 8S", carry=0)
    assert not deal.single and deal.miss and deal.pool == 9
    assert money(deal) == [-3 + 3, -3 - 3, -3 + 6]


def test_the_deal_passes_round_the_table():
    """Roles count from the dealer: with seat 2 dealing, seat 0 is the eldest hand."""
    deal = replay(THREE, ["AS 7C 9D", "5H QH 3C", "KH 4S 2D"], "2H", miss="KC KD 6S", dealer=2)
    assert deal.dealer == 2 and money(deal) == [-6, 4, 2]


# -- five-card loo with Pam ------------------------------------------------------------------------------

PAM_DEAL = ["KC QC 8S 10D 2D", "AH 9H 2S 3S 4D", "4H JC 5S 6S 7D"]


def test_pam_be_civil():
    """Mottoes: "When the ace of trumps is led, it is usual to say, 'Pam be civil;' the holder of which
    last-mentioned card must then let the ace pass"."""
    deal = replay(FIVE, PAM_DEAL, "2H")
    # Two trumps: the eldest leads the highest, AH.  Pam (JC) waits: role 2 follows with 4H.
    assert cards_played(deal)[:3] == parse_cards("AH 4H KC")
    # Pam is the highest trump: it heads 9H in the next trick.
    assert cards_played(deal)[3:6] == parse_cards("9H JC QC")
    assert deal.winners == [1, 2, 0, 0, 0]
    assert money(deal) == [-5 + 6, 2, 2] and deal.carried_on == 0


def test_pam_not_civil_must_head_the_ace():
    """With ``pam_be_civil`` off, the head rule makes Pam's holder play it on the led ace, and Pam wins."""
    deal = replay(FIVE.replace(pam_be_civil=False), PAM_DEAL, "2H")
    assert cards_played(deal)[:3] == parse_cards("AH JC KC")
    assert deal.winners[0] == 2


def test_the_knave_of_trumps_as_pam():
    """``pam = trumps`` (Mottoes: "sometimes the knave of the trump suit"): JH is Pam, JC a plain club."""
    rules = FIVE.replace(pam="trumps")
    deal = replay(rules, ["KC QC 8S 10D 2D", "AH 9H 2S 3S 4D", "4H JH 5S 6S 7D"], "2H")
    assert cards_played(deal)[:6] == parse_cards("AH 4H KC 9H JH QC")
    assert deal.winners[:2] == [1, 2]


def test_a_flush_sweeps_the_board():
    """Mottoes: a flush "sweeps the board"; all who stood are looed, "except a player holding pam"."""
    deal = replay(FIVE, ["3C 4C 8D 10D 2D", "2S 5S 7S 9S JS", "4H JC 5H 6S 7D"], "2H")
    assert deal.ending == "flush" and deal.sweeper == 1 and not deal.tricks
    assert deal.looed == {0}  # role 2 holds Pam
    assert money(deal) == [-5 - 5, 10, 0] and deal.carried_on == 5


def test_a_flush_looes_all_who_stood_except_a_player_holding_pam_and_without_the_exemption_him_too():
    """Mottoes: "each, except a player holding pam, ... must pay a stake": with ``pam_exempt`` off, the
    holder of Pam who stood (role 2) is looed by the flush like the others."""
    hands = ["3C 4C 8D 10D 2D", "2S 5S 7S 9S JS", "4H JC 5H 6S 7D"]
    exempt = replay(FIVE, hands, "2H")
    assert exempt.looed == {0} and exempt.carried_on == 5
    deal = replay(FIVE.replace(pam_exempt=False), hands, "2H")
    assert deal.ending == "flush" and deal.sweeper == 1 and deal.looed == {0, 2}
    assert money(deal) == [-5 - 5, 10, -5] and deal.carried_on == 10


def test_four_and_pam_make_a_flush_that_beats_a_lower_flush():
    """Mottoes: "Five cards of a suit, or four with pam, make a flush which sweeps the board, and yields only to
    a superior flush": Pam tops the diamond flush."""
    deal = replay(FIVE, ["3C 4C 8H 10S 2C", "2S 5S 7S 9S JS", "4D JC 5D 6D 7D"], "2H")
    assert deal.sweeper == 2 and deal.looed == {0, 1}
    assert money(deal) == [-5 - 5, -5, 10] and deal.carried_on == 10


def test_a_trump_flush_beats_a_plain_flush():
    deal = replay(FIVE, ["3H 4H 8H 10H 5H", "2S 5S 7S 9S AS", "4D JC 5D 6D 7D"], "2H")
    assert deal.sweeper == 0 and deal.looed == {1}
    assert money(deal) == [-5 + 10, -5, 0]


def test_equal_flushes_go_to_the_elder_hand():
    deal = replay(FIVE, ["3C 4C 8H 10S 2C", "2S 5S 7S 9S KS", "KD 3D 5D 6D 7D"], "2H")
    assert deal.sweeper == 1 and deal.looed == {0, 2}


def test_exchanges_come_from_the_pack_in_turn():
    """Mottoes: "Each player can change all or any of the five cards dealt": from the pack, in turn from the
    dealer's left; a player who throws up his hand escapes being looed."""
    deal = replay(
        FIVE,
        ["KC QC 8S 10D 2D", "AH 9H 2S 3S 4D", "4H JC 5S 6S 7D"],
        "2H",
        pack="AS KS QS 3C",
        exchange={1: 0b01100, 0: 0b00001},
        declare={2: PASS},
    )
    assert deal.exchanges == [
        (1, parse_cards("2S 3S"), parse_cards("AS KS")),
        (0, parse_cards("KC"), parse_cards("QS")),
    ]
    assert 2 not in deal.stood and 2 not in deal.looed


def test_a_stacked_deal_of_random_players_draws_from_the_streams_of_its_seed():
    """The seats' streams of a stacked deal are those of item 0 of its seed (before, all zeros by default, and a
    policy that draws never returned): the kernel plays the reference's deal from the same streams."""
    from sims.core.driver import item_streams
    from sims.loo.game import GAME

    rules, deck = get_rules("three-card"), np.random.default_rng(5).permutation(52)
    policies = {"declare": "random", "exchange": "random", "card": "random"}
    out, info, played = play_stacked(rules, policies, deck, carry=rules.stake, seed=7)
    deal = ref.play_deal(rules, 0, rules.stake, ref.Pack(stacked=deck), item_streams(GAME, 7, 0)[1], policies)
    assert np.array_equal(out, deal.outcomes()) and np.array_equal(info, deal.info())
    assert [(int(c), int(r)) for c, r in played] == [(c, r) for t in deal.tricks for r, c in t]
