"""Whole games played decision by decision: each seat a policy or anyone who answers ``choose(situation)``.

:func:`play` plays games of any registered game with that game's reference engine
(the plain-Python oracle that replays the kernel's games from the same random
streams).  A seat is

* a **policy** (a built-in or plug-in name, ``name:param=value``, a ``{name, params}``
  table, a Policy, a user's njit function), called exactly as the kernel calls it, with
  the engine's arrays and the seat's own stream: a game whose seats are all policies is
  the kernel's game of the same seed and number (tests/core/test_table.py checks this
  against ``play_games(..., records=True)`` for every game); or
* a **chooser**: any object with ``choose(situation) -> str`` (a person at a terminal, a
  :class:`sims.core.advice.Player`, the advisor: :class:`sims.core.advisor_player.AdvisorPlayer`, seated by
  the name ``advisor`` or ``advisor:samples=N``), shown the public situation of the decision and
  answering with a readable choice (``"7H"``, ``"JD KD"``, ``"stand"``), which the
  situation's ``answer`` turns into the engine's answer (an illegal choice is a
  one-line ValueError).

``seats`` lists one seat each (a policy name stands for that policy in every decision
that has one, the decision's default elsewhere; a ``{decision: policy or chooser}``
dict sets decisions one by one, the rest default), or is the engine's own
``{decision: spec or one per seat}``.

Every decision the engine asks (a player with one card the laws allow is not asked,
as in the kernel) is rebuilt as the public situation the game's records module (the
``record`` its ``Game`` declares) makes from the engine's arrays, passed
to ``on_decision`` as a :class:`Decided`, and, with ``record``, written to a game record.
``on_deal`` is called with the reference engine's own record of each deal as the deal ends
(the game's own deal or hand record): the cards the laws played unasked
and the points of the end of a deal, which no decision shows (the duel narrates them).
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd


@dataclass(frozen=True)
class Decided:
    """One decision taken at the table: game ``game`` of the run, by ``seat``, the public ``situation``, the
    readable ``choice`` and who chose it (``by``: the policy's label or the chooser's name)."""

    game: int
    seat: int
    decision: str
    situation: object
    choice: str
    by: str


def is_chooser(seat) -> bool:
    return callable(getattr(seat, "choose", None))


def chooser_name(chooser) -> str:
    return str(getattr(chooser, "name", type(chooser).__name__))


def _seat_specs(game, seats, players: int) -> list[dict]:
    """Per seat, ``{decision: policy spec or chooser}`` for every decision of ``game``."""
    decisions = [d.name for d in game.decisions]
    if seats is None or isinstance(seats, dict) and set(seats) <= set(decisions) and not is_chooser(seats):
        from .jobs import per_seat

        given = dict(seats or {})
        columns = {d.name: per_seat(given.get(d.name, d.default), players, d.name) for d in game.decisions}
        return [{d: columns[d][s] for d in decisions} for s in range(players)]
    seats = list(seats)
    if len(seats) != players:
        raise ValueError(f"{game.name} with these rules has {players} seats, got {len(seats)}")
    out = []
    for seat in seats:
        if isinstance(seat, dict) and "name" not in seat:  # {decision: policy or chooser}
            unknown = sorted(set(seat) - set(decisions))
            if unknown:
                raise ValueError(
                    f"unknown {game.name} decision {unknown[0]!r}; its decisions are {', '.join(decisions)}"
                )
            out.append({d.name: seat.get(d.name, d.default) for d in game.decisions})
        elif isinstance(seat, str) and any(seat.partition(":")[0] in game.policies.get(d, {}) for d in decisions):
            name = seat.partition(":")[0]  # a policy name: where a decision has it
            out.append({d.name: seat if name in game.policies.get(d.name, {}) else d.default for d in game.decisions})
        else:  # a chooser, or one policy for every decision (a plug-in's, a table, a Policy, a function)
            out.append({d: seat for d in decisions})
    return out


def _resolve(game, specs: list[dict]) -> list[dict]:
    """Policy specs resolved to Policies (choosers kept as they are)."""
    from .jobs import resolve_one

    return [{d: who if is_chooser(who) else resolve_one(game, d, who) for d, who in seat.items()} for seat in specs]


def seat_label(game, seat: dict) -> str:
    """A seat's name in a record's header (unless it was given by one name): its choosers and the policies it
    plays that are not the game's defaults (all of them if it plays only defaults), ``/`` between."""
    labels = {d: chooser_name(w) if is_chooser(w) else w.label() for d, w in seat.items()}
    chosen = [label for d, label in labels.items() if is_chooser(seat[d]) or label != game.decision(d).default]
    return "/".join(dict.fromkeys(chosen or labels.values()))


class _Table:
    """The seats' functions the reference engine calls, each rebuilding the decision as a situation."""

    taken: list
    lines: list

    def __init__(self, game, rules, seats, on_decision, keep: bool, on_deal=None):
        from .record import fields_of

        self.module, self.rules, self.seats, self.record_fields = game.part("record"), rules, seats, fields_of(game)
        self.on_decision, self.keep, self.on_deal = on_decision, keep, on_deal
        self.game, self.taken, self.lines, self.decisions = 0, [], [], 0
        # a chooser's situations are rebuilt from the decisions before it (who laid a card): all are watched
        self.choosers = any(is_chooser(who) for seat in seats for who in seat.values())

    def fn(self, seat: int, decision: str):
        from .streams import guarded_call

        who = self.seats[seat][decision]
        watched = self.on_decision is not None or self.keep or self.choosers

        def decide(*args):  # the engine's call: hand, [played,] state, rules, rng, params
            hand, state = args[0], args[-4]
            played = args[1] if len(args) == 6 else None
            situation = (
                self.module.situation(
                    decision,
                    hand.copy(),
                    None if played is None else played.copy(),
                    state.copy(),
                    self.rules,
                    self.taken,
                )
                if watched
                else None
            )
            if is_chooser(who):
                choice = who.choose(situation)
                try:
                    answer = situation.answer(choice, hand)
                except ValueError as exc:
                    raise ValueError(f"seat {seat} ({chooser_name(who)}), {decision}: {exc}") from None
                by = chooser_name(who)
            else:
                answer = guarded_call(
                    lambda stream: int(who.fn(*args[:-2], stream, who.params_array())),
                    args[-2],
                    f"seat {seat}'s {decision} policy {who.label()!r}",
                )
                if not watched:
                    return answer
                try:
                    choice = situation.choice_of(answer, hand)
                except (IndexError, ValueError):
                    return answer  # an illegal answer: the engine says so (PolicyError)
                by = who.label()
            self._taken(Decided(self.game, seat, decision, situation, choice, by))
            return answer

        return decide

    def _taken(self, decided: Decided):
        self.taken.append(decided)
        self.decisions += 1
        if self.keep:
            self.lines.append(
                {
                    "game": decided.game,
                    "player": decided.seat,
                    "decision": decided.decision,
                    **self.record_fields(decided.situation),
                    "choice": decided.choice,
                }
            )
        if self.on_decision is not None:
            self.on_decision(decided)

    def play(self, g: int, seed: int) -> dict:
        self.game, self.taken = g, []
        fns = {d: [self.fn(s, d) for s in range(len(self.seats))] for d in self.seats[0]}
        row = self.module.play_game(
            self.rules, fns, seed, g, **({} if self.on_deal is None else {"on_deal": self.on_deal})
        )
        if self.keep:
            self.lines.append({"game": g, "result": row})
        return {"game": g, **row}


def play(
    game,
    rules=None,
    seats=None,
    seed: int = 0,
    games: int = 1,
    record=None,
    on_decision=None,
    progress: bool = False,
    on_deal=None,
    record_games: int | None = None,
) -> pd.DataFrame:
    """Play games ``0 .. games-1`` of the run ``seed`` of a game, each seat a policy or a chooser (module
    docstring).

    Parameters
    ----------
    game : str
        The game's name.
    rules : str or game rules, optional
        A preset's name or the game's ``Rules`` (default the game's default preset).
    seats : sequence, optional
        One per seat: a policy name, ``{decision: policy or chooser}``, or anyone who answers
        ``choose(situation) -> str`` (a person at a terminal, a ``Player``); default the game's policies.
    seed : int
        The run's seed: game ``k`` of seed ``s`` is the engine's game ``k`` of that run.
    games : int
        Games to play.
    record : str or pathlib.Path, optional
        A path to write the game record to (:mod:`sims.core.record`).
    on_decision : callable, optional
        Called with each :class:`Decided` as it is taken.
    progress : bool
        Show a progress bar on long work.
    on_deal : callable, optional
        Called with each deal as it ends (module docstring; the game's records module must take it).
    record_games : int, optional
        With ``record``, only games ``0 .. record_games-1`` go into it (default every one): a long run whose
        record is read back in part keeps no more.

    Returns
    -------
    pandas.DataFrame
        One row a game, the columns of ``play_games(..., records=True).games``; ``attrs["players"]`` names the
        seats (the seat's number added where two have the same name), ``attrs["decisions"]`` counts the
        decisions recorded.
    """
    from .advisor_player import advisor_seat
    from .jobs import check_count
    from .record import header_of, write_record
    from .registry import get_game

    game = get_game(game)
    rules = game.get_rules(rules)
    games = check_count(games, "games")
    if isinstance(seats, (list, tuple)):  # a seat named advisor follows the advisor, from a stream of its own
        seats = [advisor_seat(who, game, (seed, s)) or who for s, who in enumerate(seats)]
    seats_given, seats = seats, _resolve(game, _seat_specs(game, seats, rules.players))
    table = _Table(game, rules, seats, on_decision, record is not None, on_deal)
    rows = []
    items = range(games)
    if progress:
        from .progress import progress_bar

        items = progress_bar(items, desc="games", unit="game")
    kept = games if record is None or record_games is None else min(games, check_count(record_games, "record_games"))
    for g in items:
        table.keep = record is not None and g < kept
        rows.append(table.play(g, seed))
    named = list(seats_given) if isinstance(seats_given, (list, tuple)) else [None] * len(seats)
    labels = [name if isinstance(name, str) else seat_label(game, s) for name, s in zip(named, seats)]
    players = [label if labels.count(label) == 1 else f"{label} (seat {s})" for s, label in enumerate(labels)]
    if record is not None:
        write_record(record, header_of(game, rules, seed, players, kept), table.lines)
    out = pd.DataFrame(rows)
    out.attrs["players"] = players
    out.attrs["decisions"] = table.decisions  # those watched (with a record, a callback or a chooser)
    return out
