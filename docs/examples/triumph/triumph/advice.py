"""Triumph's advisor: each legal card valued by the tricks its player takes from there to the end of the deal,
over the deals of the cards he has not seen that give no player a suit he showed he has none of (every one when
they are few: exact with the greedy play-outs; else sampled), each played out by the reference engine seating the
kernel's policies (the facts: :class:`triumph.situation.CardSituation`)."""

import numpy as np

from sims.cards import format_card, parse_card
from sims.core.advice import advice_frame, check_samples, deals_of
from sims.core.jobs import resolve_one
from sims.core.record import situation_fields
from sims.core.rng import chunk_keys, seed_state

from .game import GAME
from .reference import play_out, seated

VALUE = "the tricks you take from here to the end of the deal"


def advise(situation, playout=None, samples: int = 2_000, seed: int = 0, policies=("greedy",)):
    """``choice, value, se, vs_best, vs_best_se, chosen_by`` a legal card, best first; ``playout`` the policy (or
    ``{"card": policy}``) every player follows after the choice (default greedy)."""
    s, players, samples = situation, situation.rules.players, check_samples(samples)
    name = playout if isinstance(playout, str) else (playout or {}).get("card", "greedy")
    policy, greedy = resolve_one(GAME, "card", name), resolve_one(GAME, "card", "greedy").fn
    held, legal = [c for c in s.cards if c >= 0], s.legal()
    sizes = [len(held) - (k >= players - len(s.trick)) for k in range(1, players)]  # the seats after his
    unseen = sorted(set(range(52)) - {*held, *s.played_cards, parse_card(s.turned)})
    cut, order = np.cumsum([0, *sizes]), [(seat - s.seat) % players for seat in range(players)]
    deals, exact = deals_of(unseen, sizes, samples, seed)
    lacks, owner = [s.voids[(s.seat + k) % players] for k in range(1, players)], np.repeat(range(players - 1), sizes)
    deals = deals[[not any(c % 4 in lacks[k] for k, c in zip(owner, d)) for d in deals]]  # uniform over the lawful
    if not len(deals):
        raise ValueError("no deal of the cards you have not seen fits the suits the others showed they lack")
    keys, streams = chunk_keys(seed, 0, 1, players)[0], np.empty((players, 4), dtype=np.uint64)
    values = np.zeros((len(deals), len(legal)))
    choose = seated([policy.fn] * players, streams, s.rules, policy.params_array())
    for d, dealt in enumerate(deals):
        for j, card in enumerate(legal):
            for seat in range(players):  # the same streams for every choice
                seed_state(streams[seat], keys[seat], d)
            mine = [None if c < 0 or c == card else c for c in s.cards]
            hands = [dealt[cut[k - 1] : cut[k]].tolist() if k else mine for k in order]
            tally = [[0, 0] for _ in range(players)]
            play_out(hands, parse_card(s.turned), s.leader, choose, tally, len(held) + 1, (*s.trick, card))
            values[d, j] = tally[s.seat][0]
    hand = [None if c < 0 else c for c in s.cards]
    greedy_i = seated({s.seat: greedy}, streams, s.rules)(s.seat, hand, s.trump, s.led, s.best, parse_card(s.turned))
    chosen = {"greedy": format_card(s.cards[greedy_i])} if "greedy" in policies else {}
    facts, exact = {"decision": "card", "rules": s.rules.name, **situation_fields(s, {})}, exact and name == "greedy"
    return advice_frame([format_card(c) for c in legal], values, exact, chosen, situation=facts, playout={"card": name})
