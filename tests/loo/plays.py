"""Random play under the laws of the reference engine, for the tests that need positions reached by it."""


def play_by_the_laws(rng, laws, hands, order, stop: int):
    """Cards played from ``hands`` (a list or dict by player) by the players of ``order`` (the first leads the
    first trick, each trick's winner the next), each a random choice among the cards the laws allow (the forced
    first lead, following, heading, trumping), until ``stop`` cards are played.  Returns the cards left
    (``held[r]``, -1 where one was played), the cards played and the player of each, the player to play next
    and the positions in his hand that he may play."""
    held = {r: list(hands[r]) for r in order}
    played, by, trick, lead = [], [], [], 0
    while True:
        r = order[(lead + len(trick)) % len(order)]
        forced = laws.forced_lead(held[r]) if not played else None
        legal = [forced] if forced is not None else laws.legal(held[r], trick)
        if len(played) == stop:
            return held, played, by, r, legal
        card = held[r][legal[int(rng.integers(len(legal)))]]
        held[r][held[r].index(card)] = -1
        played.append(card)
        by.append(r)
        trick.append(card)
        if len(trick) == len(order):
            lead, trick = (lead + laws.winning(trick)[0]) % len(order), []
