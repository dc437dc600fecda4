"""A player's outcome per game or deal, on common random numbers with the seats exchanged.

A *candidate* (one decision's policy) sits in the seats of one side, the *field* in the
others; on the same seed the candidate then sits in the next side's seats, and so on, and a
deal's or game's value is the candidate's average over the sides.  Two candidates played on
the same seed are so paired item by item: their difference is free of the luck of the cards
and of the seats.  The objectives read the games' per-item records:

* ``games``: 1 when the candidate's side wins the game (a game that reaches no winner: 0);
* ``points``: the points the candidate's seats make in a deal (``<role>_total``);
* ``net``: those points less the other seats' (scaled to as many seats);
* ``stakes``: the money the candidate's seats win in a deal, less what they pay (``<role>_money``).

A deal's roles are counted from the dealer (role ``r`` is the seat ``r`` places to his left).
"""

from __future__ import annotations

from contextlib import nullcontext

import numpy as np

OBJECTIVES = {"games": "games", "points": "deals", "net": "deals", "stakes": "deals"}  # objective -> job kind
SUFFIX = {"points": "_total", "net": "_total", "stakes": "_money"}


def check_objective(objective: str) -> str:
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r}; choose from {', '.join(OBJECTIVES)}")
    return objective


def sides(rules) -> int:
    """The sides of a table: partners share one (seat ``s`` plays for side ``s % sides``)."""
    return getattr(rules, "sides", None) or rules.players


def seats_of(rules, side: int) -> list[int]:
    return [s for s in range(rules.players) if s % sides(rules) == side]


def field_policies(game, against: str | None, base: dict | None = None) -> dict:
    """``{decision: policy}`` of a field: ``base`` (default the game's defaults) with ``against`` either a policy
    (``maxims``, ``defensive:pair_bonus=1``) for every decision that has it (for all when none has it), or
    ``DECISION=POLICY,...``; each policy checked, a bad one a one-line error before any game."""
    from .jobs import parse_policy, resolve_one
    from .registry import get_game

    game = get_game(game)
    chosen = dict(base or {d.name: d.default for d in game.decisions})
    decisions = [d.name for d in game.decisions]
    if against:
        tokens = [t.strip() for t in against.split(",")]
        if any("=" in t and ":" not in t.partition("=")[0] for t in tokens):  # not NAME:PARAM=VALUE
            for token in tokens:
                decision, _, policy = (p.strip() for p in token.partition("="))
                if decision not in decisions or not policy:
                    raise ValueError(
                        f"--against: write POLICY or DECISION=POLICY,...; {game.name}'s decisions are "
                        f"{', '.join(decisions)}, got {token!r}"
                    )
                chosen[decision] = policy
        else:
            name = parse_policy(against, "--against")[0]
            having = [d for d in decisions if name in game.policies[d]]
            chosen.update({d: against for d in (having or decisions)})
    for decision, policy in chosen.items():
        resolve_one(game, decision, policy)
    return chosen


def by_seat(rows, rules, suffix: str) -> np.ndarray:
    """Each seat's ``<role><suffix>`` per row (rows by seats), the roles counted from the dealer."""
    roles = [c for c in rows.columns if c.endswith(suffix)]
    if len(roles) != rules.players:
        raise ValueError(
            f"this objective needs each seat's {suffix[1:]} per deal, and this game's records have "
            f"{len(roles)} for {rules.players} seats"
        )
    by_role = rows[roles].to_numpy(dtype=np.float64)
    dealer = rows["dealer"].to_numpy().astype(np.int64)
    seats = (np.arange(rules.players)[None, :] - dealer[:, None]) % rules.players
    return np.take_along_axis(by_role, seats, axis=1)


def per_item(objective: str, rows, rules, side: int) -> np.ndarray:
    """The objective of the candidate in ``side``'s seats, per row of a run's records."""
    if objective == "games":
        if "winner" not in rows:
            raise ValueError(
                "objective 'games' needs a winner of each game, and this game has none: use a "
                "per-deal objective (stakes)"
            )
        return (rows["winner"].to_numpy() == side).astype(np.float64)
    mine = seats_of(rules, side)
    others = [s for s in range(rules.players) if s not in mine]
    seat = by_seat(rows, rules, SUFFIX[objective])
    if objective == "net":
        return seat[:, mine].sum(axis=1) - seat[:, others].mean(axis=1) * len(mine)
    return seat[:, mine].sum(axis=1)


def paired_values(
    game, rules, field: dict, candidate: dict, objective: str, n: int, seed: int, threads=None, client=None, lock=None
) -> np.ndarray:
    """The candidate's ``objective`` per item of ``n`` games or deals on ``seed``: the mean, over the sides, of the
    runs with the candidate (``{decision: policy}``, each a name, a ``{name, params}`` table or a Policy) in that
    side's seats and ``field`` (``{decision: policy}``) everywhere else.  ``lock`` is held while a run plays here."""
    from .jobs import Job
    from .runner import run

    kind = OBJECTIVES[check_objective(objective)]
    total = np.zeros(n)
    for side in range(sides(rules)):
        mine = seats_of(rules, side)
        policies = dict(
            field,
            **{
                decision: [policy if s in mine else field[decision] for s in range(rules.players)]
                for decision, policy in candidate.items()
            },
        )
        job = Job.make(game, kind, rules, policies, n, seed, records=True)
        with lock if lock is not None else nullcontext():
            result = run(job, threads=threads, client=client, progress=False)
        total += per_item(objective, result.batch.rows[kind], rules, side)
    return total / sides(rules)


def check_for(game, rules, objective: str, field: dict) -> None:
    """One item of the field against itself: a one-line error now when ``game`` does not have ``objective``."""
    paired_values(game, rules, field, {}, objective, 1, 0)
