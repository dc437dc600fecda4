"""The discard advisor: what every throw of a dealt hand is worth, and how its kept hand spreads.

For one dealt hand and one seat (``role``), every way to lay out cards for the crib gets

* ``hand``: the exact expected show of the kept cards over every starter the player
  has not seen (46 in six-card, 47 in five-card, three- and four-hand, 44 in
  eight-card); ``hand_min`` and ``hand_max`` over those starters, ``hand_dist`` (how
  many of them give each number of points) and ``helps_most`` (the starter ranks that
  give the kept cards most points, on average over the unseen cards of the rank);
* ``crib`` and ``net``: the crib the first crib source gives (the source that ranks
  the throws; ``exact`` unless ``crib`` says otherwise), and the hand plus that crib
  when the crib is the player's side's (the dealer; in four-hand also his partner),
  the hand minus it otherwise.  In three-hand a non-dealer's net counts the whole
  crib against him although it helps only one of his two opponents.  These two names
  hold whatever the source, so code that reads them works with any ``crib``; which
  source they are is in ``attrs["crib"][0]``.  Every further source adds
  ``crib_<source>`` and ``net_<source>``.

The crib sources (``crib``, a list whose first source ranks the throws):

* ``exact``: the exact expected crib when the other players throw at random: every way
  the unseen cards can complete the crib times every remaining starter, summed in
  closed form by rank multiset with nobs and flushes counted combinatorially
  (:func:`sims.cribbage.expectations.crib_total`);
* ``schell``, ``hessel``, ``self_play``: the shipped tables' value of the thrown ranks
  (:mod:`sims.cribbage.crib_tables`), read as the ``expected_net`` policy reads them:
  they are tables of two-handed six-card play, used as they stand in other variants,
  a single card thrown (three- and four-hand) valued by its row averaged over the other
  card's rank;
* a discard policy: the crib when the others throw by that policy, estimated from
  ``samples`` seeded deals of their hands from the unseen cards, with its standard error
  (``crib_se``, or ``crib_<policy>_se`` when it is not the first source).
  ``opponent=POLICY`` is short for ``crib=[POLICY, "exact"]``.

With ``pegging`` (a pegging policy), ``pegging`` ± ``pegging_se`` estimates the kept
cards' worth in the play from the same sampled deals: the player's side's pegging (play
and go) less the other side's (per opposing side, as :mod:`.policies.rollout` counts it)
in the play from its opening as the engine plays it (his heels scored first), everyone
pegging by that policy, the others laying out by the first sampled crib policy
(``expected_net`` when there is none); ``total`` = net + pegging.  Every sampled figure
uses the same deals for every throw, so differences between throws are sharper than the
standard errors suggest.

With ``score`` (the dealer's and the pone's scores before the deal, two players, for the
rules presets with a board-position table: six-card, six-card-61, five-card), ``win`` is the
player's chance of winning the game with each throw
(:func:`sims.cribbage.odds.throws.throw_win_chances`: exact over the starters, the rest of
the deal in counting order and the games after it from a shipped table: the self-play of
the players named, else of those who throw and peg as the sampled figures ask, else of
expected_net + defensive), with ``win_se``, an upper bound on its standard error from the table's sampling, and its
95% interval ``win_lo``, ``win_hi``.

Rows.  Suit-equivalent throws are one row (``throws``: how many; ``same_as``: the
others) unless ``collapse=False``: two throws are suit-equivalent when they keep and
throw the same ranks and their suits change no exact figure (the same expected crib,
the same number of starters giving each score, the same points from every starter
rank, the same chance of winning); sampled figures are estimated once per row.  Rows
are sorted best first by the stated ``sort`` key, the net by the first crib source (or
``total``, ``hand`` or ``win``), ties by the expected hand; ``rank`` 1 is the best
(equal keys share a rank) and ``vs_best`` is the key less the best key.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cards import format_card, parse_cards
from ..core.advice import check_samples
from ..core.rng import check_seed
from ..core.text import two_scores
from .contract import ROLE_NAMES
from .crib_tables import SOURCES, TITLES, named_tables
from .discard_rows import advice_rows, card_names, cards_of, exact_figures, throw_classes
from .discard_sampling import sampled_figures
from .expectations import table_crib_value
from .rules import Rules, get_rules

DEFAULT_SAMPLES = 2000
DEFAULT_PEG = "defensive"
# The crib source of ``sims discard``, the review and the duel's hints (one value for one hand): the others throw
# as competent players do (the shipped expected_net self-play table), not at random as ``advise``'s own default.
DEFAULT_CRIB = "self_play"
PEGGING_DISCARD = "expected_net"  # the others' discards for the pegging estimate without a sampled crib policy
SORTS = ("net", "total", "hand", "win")
EXACT = "exact"


def role_index(rules: Rules, role: str) -> int:
    """Place from the dealer (``state[S_ROLE]``) of a role name (:data:`ROLE_NAMES`; two players: dealer, pone)."""
    names = ROLE_NAMES[rules.active]
    if role not in names:
        raise ValueError(f"unknown role {role!r} for {rules.name}; choose from {', '.join(names)}")
    return names.index(role)


def crib_is_mine(rules: Rules, role: int) -> bool:
    """The crib is the dealer's, and in four-hand his partner's too."""
    return role == 0 or (rules.partners and role % 2 == 0)


@dataclass(frozen=True)
class Source:
    """Where a crib value comes from: ``exact``, a shipped table, or a sampled discard policy."""

    name: str
    kind: str  # "exact", "table" or "policy"
    policy: object = None  # the resolved Policy of a sampled source

    def columns(self, first: bool) -> tuple[str, str]:
        """Its crib and net columns: ``crib`` and ``net`` for the source that ranks the throws, whichever it is
        (so code reading them works with any ``crib``), ``crib_<name>`` and ``net_<name>`` for the others."""
        return ("crib", "net") if first else (f"crib_{self.name}", f"net_{self.name}")

    def describe(self, samples: int, seed: int) -> dict:
        if self.kind == EXACT:
            return {"name": EXACT, "kind": EXACT, "title": "exact, the others throwing at random"}
        if self.kind == "table":
            return {"name": self.name, "kind": "table", "title": TITLES[self.name]}
        return {
            "name": self.name,
            "kind": "policy",
            "title": f"sampled, the others throwing by {self.name}",
            "policy": self.policy.describe(),
            "samples": samples,
            "seed": seed,
        }


def _source(spec) -> Source:
    if isinstance(spec, str) and spec == EXACT:
        return Source(EXACT, EXACT)
    if isinstance(spec, str) and spec in SOURCES:
        return Source(spec, "table")
    from .policies import POLICIES, resolve

    if isinstance(spec, str) and spec not in POLICIES["discard"]:
        raise ValueError(
            f"unknown crib source {spec!r}; choose from {EXACT}, {', '.join(SOURCES)} or a discard "
            f"policy ({', '.join(POLICIES['discard'])})"
        )
    policy = resolve("discard", spec)
    return Source(policy.name, "policy", policy)


def _sources(crib, opponent) -> tuple[Source, ...]:
    if opponent is not None and crib is not None:
        raise ValueError("give the crib sources or an opponent policy, not both (opponent=P is crib=[P, 'exact'])")
    if crib is None:
        crib = [EXACT] if opponent is None else [opponent, EXACT]
    elif isinstance(crib, str) or not isinstance(crib, (list, tuple)):
        crib = [crib]
    sources = tuple(_source(spec) for spec in crib)
    if not sources:
        raise ValueError("give at least one crib source")
    names = [s.name for s in sources]
    if len(set(names)) < len(names):
        raise ValueError(f"crib source {next(n for n in names if names.count(n) > 1)!r} given twice")
    return sources


@dataclass(frozen=True)
class Advice:
    """The advisor's answer: the question (hand, role, rules, crib sources, sampling) and the rows,
    best first (see the module docstring for the columns)."""

    hand: tuple[int, ...]
    role: str
    rules: Rules
    sources: tuple[Source, ...]
    sort: str
    sort_key: str
    pegging: dict | None
    score: dict | None
    samples: int
    seed: int
    collapse: bool
    n_throws: int
    n_starters: int
    rows: tuple[dict, ...]

    def describe(self) -> dict:
        """Everything but the rows, JSON-able."""
        return {
            "hand": [format_card(c) for c in self.hand],
            "role": self.role,
            "rules": self.rules.to_dict(),
            "crib": [s.describe(self.samples, self.seed) for s in self.sources],
            "sort": {"column": self.sort, "key": self.sort_key},
            "pegging": self.pegging,
            "score": self.score,
            "collapsed": self.collapse,
            "throws": self.n_throws,
            "starters": self.n_starters,
        }

    def to_dict(self) -> dict:
        """The question and the rows as JSON-able data: cards as lists, ``hand_dist`` as
        ``{points: starters}``, ``helps_most`` as ``[{rank, points, cards}]``."""
        return {**self.describe(), "rows": [dict(row) for row in self.rows]}

    def frame(self):
        """The rows as a DataFrame (cards as text, ``helps_most`` as its list of ``{rank, points, cards}``), with
        :meth:`describe` in ``attrs``."""
        import pandas as pd

        rows = []
        for row in self.rows:
            row = dict(row)
            row["thrown"], row["kept"] = " ".join(row["thrown"]), " ".join(row["kept"])
            row["same_as"] = ", ".join(" ".join(t) for t in row["same_as"])
            rows.append(row)
        frame = pd.DataFrame(rows)
        frame.attrs.update(self.describe())
        return frame


def advise(
    hand,
    role: str,
    rules="six-card",
    opponent=None,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    *,
    crib=None,
    pegging=None,
    score=None,
    players: str | None = None,
    sort: str = "net",
    collapse: bool = True,
    progress: bool = False,
) -> Advice:
    """Every throw of ``hand`` for the player in ``role`` (module docstring), without pandas.

    ``role``: ``dealer``/``pone`` with two players (three-rotation too), ``dealer``/``eldest``/
    ``second`` in three-hand, ``dealer``/``eldest``/``dealer_partner``/``eldest_partner`` in four-hand.
    ``crib``: a crib source or a list of them, the first ranking the throws (default ``exact``);
    ``pegging``: a pegging policy to estimate the kept cards' pegging with; ``samples`` and ``seed``:
    the deals of every sampled figure; ``score``: ``(dealer, pone)`` or ``"dealer-pone"`` before the deal,
    for ``win``, from the board-position table of ``players``' self-play (a name of
    :data:`sims.cribbage.odds.layout.PLAYERS`; default: the players who throw and peg as ``crib`` and
    ``pegging`` ask, else :data:`~sims.cribbage.odds.layout.DEFAULT_PLAYERS`);
    ``sort``: ``net``, ``total``, ``hand`` or ``win``; ``collapse``: one
    row per suit-equivalent set of throws; ``progress``: a progress bar on stderr when sampling
    takes more than a few seconds.
    """
    rules = get_rules(rules)
    cards = parse_cards(hand)
    if len(cards) != rules.cards_dealt:
        raise ValueError(f"{rules.name} deals {rules.cards_dealt} cards to each player, got {len(cards)}")
    me = role_index(rules, role)
    sources = _sources(crib, opponent)
    if sort not in SORTS:
        raise ValueError(f"unknown sort {sort!r}; choose from {', '.join(SORTS)}")
    if sort == "total" and pegging is None:
        raise ValueError("sorting by total (net + pegging) needs a pegging policy")
    if sort == "win" and score is None:
        raise ValueError("sorting by the chance of winning needs the score (dealer, pone)")
    sampled = [s.policy for s in sources if s.kind == "policy"]
    peg_policy = peg_discard = None
    if pegging is not None:
        from .policies import resolve

        peg_policy = resolve("peg", pegging)
        peg_discard = sampled[0] if sampled else resolve("discard", PEGGING_DISCARD)
    if score is not None:
        from .odds.layout import players_of

        players = players_of(
            players, discard=sampled[0].name if sampled else None, peg=peg_policy.name if peg_policy else None
        )
    elif players is not None:
        raise ValueError("the players name the board-position table of the chance of winning: give the score too")
    if sampled or peg_policy is not None:
        samples, seed = check_samples(samples), check_seed(seed)
    else:
        samples, seed = 0, 0

    arr = np.asarray(cards, dtype=np.int64)
    pool = np.array([c for c in range(52) if c not in cards], dtype=np.int64)
    masks, hand_mean, crib_mean, points = exact_figures(arr, rules.throw, rules.crib_flush_four, pool)
    win = score_info = None
    if score is not None:
        win, score_info = _win(arr, masks, ROLE_NAMES[rules.active][me], rules, score, players)
    classes = throw_classes(
        arr,
        masks,
        crib_mean,
        points,
        pool,
        suits_matter=peg_policy is not None and rules.bath_flush,
        win=None if win is None else win["win"],
    )
    stands_for = np.array([c[0] for c in classes], dtype=np.int64)
    mine = crib_is_mine(rules, me)
    sign = 1.0 if mine else -1.0

    # The figures of each class of suit-equivalent throws, from the throw that stands for it.
    runs = sampled or ([peg_discard] if peg_discard is not None else [])
    estimates = sampled_figures(arr, me, pool, masks[stands_for], rules, runs, peg_policy, samples, seed, progress)
    sampled_estimates = iter(estimates)
    columns = {"hand": hand_mean[stands_for]}
    for place, source in enumerate(sources):
        crib, net = source.columns(place == 0)
        if source.kind == EXACT:
            columns[crib] = crib_mean[stands_for]
        elif source.kind == "table":
            params = np.asarray(named_tables()[source.name], dtype=np.float64)
            columns[crib] = np.array(
                [table_crib_value(cards_of(arr, masks[j], True), rules.throw, params, mine) for j in stands_for]
            )
        else:
            columns[crib], columns[f"{crib}_se"] = next(sampled_estimates)[:2]
        columns[net] = columns["hand"] + sign * columns[crib]
    if win is not None:
        for name, values in win.items():
            columns[name] = values[stands_for]
    pegging_info = None
    if peg_policy is not None:
        columns["pegging"], columns["pegging_se"] = estimates[0][2:]
        columns["total"] = columns["net"] + columns["pegging"]
        pegging_info = {
            "policy": peg_policy.describe(),
            "others_discard": peg_discard.describe(),
            "samples": samples,
            "seed": seed,
            "value": "the player's side's pegging (play and go) less the other side's, per deal",
        }

    key = sort
    rows = advice_rows(arr, masks, points, pool, classes, columns, key, collapse)
    first = _title(sources[0])
    sort_key = {
        "net": f"net = hand {'+' if mine else '-'} crib ({first})",
        "total": f"total = net ({first}) + pegging",
        "hand": "the expected hand",
        "win": "the chance of winning the game",
    }[sort]
    return Advice(
        tuple(cards),
        ROLE_NAMES[rules.active][me],
        rules,
        sources,
        key,
        sort_key,
        pegging_info,
        score_info,
        samples,
        seed,
        collapse,
        len(masks),
        len(pool),
        tuple(rows),
    )


def analyze_discards(
    hand, role: str, rules="six-card", opponent=None, samples: int = DEFAULT_SAMPLES, seed: int = 0, **options
):
    """:func:`advise` as a DataFrame, best throw first (its question in ``attrs``).

    >>> analyze_discards("5H 5S JD 6C 4H KD", "dealer").iloc[0][["thrown", "kept"]].tolist()
    ['JD KD', '5H 5S 6C 4H']
    """
    return advise(hand, role, rules, opponent, samples, seed, **options).frame()


def hand_distributions(frame):
    """How many starters give each number of points to each row's kept cards: one row per row of
    ``frame`` (labelled by the cards thrown), one column per number of points."""
    import pandas as pd

    table = pd.DataFrame(list(frame["hand_dist"]), index=frame["thrown"]).fillna(0).astype(int)
    table = table.reindex(columns=range(min(table.columns), max(table.columns) + 1), fill_value=0)
    table.columns.name = "points"
    return table


def _title(source: Source) -> str:
    return source.describe(0, 0)["title"]


def _win(hand, masks, role: str, rules: Rules, score, players: str) -> tuple[dict, dict]:
    """Each throw's chance of winning from ``score`` (dealer, pone) by the table of ``players``' self-play, its
    standard error and 95% interval (``win``, ``win_se``, ``win_lo``, ``win_hi``: arrays in ``masks`` order),
    and the score as :meth:`Advice.describe` gives it."""
    from .odds.layout import PLAYERS
    from .odds.throws import throw_win_chances

    dealer, pone = parse_score(score)
    chances = throw_win_chances(hand, role, dealer, pone, rules, players=players).set_index("thrown")
    order = [" ".join(card_names(hand, mask, True)) for mask in masks]
    win = {name: chances.loc[order, name].to_numpy() for name in ("win", "win_se", "win_lo", "win_hi")}
    self_play = " + ".join(dict.fromkeys(PLAYERS[players].values()))
    return win, {
        "dealer": int(dealer),
        "pone": int(pone),
        "players": players,
        "win": f"the player's chance of winning the game from there, before the deal (board-position "
        f"table of {self_play} self-play)",
        "interval": "95%, Student's t on the table's jackknife standard errors, summed over the "
        "positions the deal can reach (an upper bound, as if their errors were fully "
        "correlated); the deal model's own assumptions are not in it",
    }


def parse_score(score) -> tuple:
    """The dealer's score and the pone's before the deal, from ``"95-110"`` or ``(95, 110)`` (their range is
    the table's to check)."""
    if isinstance(score, str):
        return two_scores(score, "the score is DEALER-PONE, the two scores before the deal, e.g. 95-110")
    try:
        dealer, pone = score
    except (TypeError, ValueError):
        raise ValueError(f"the score is two numbers (dealer, pone), got {score!r}") from None
    return dealer, pone
