"""Game records and their review, for every game: what PGN is to chess, one decision a line.

A record is JSON Lines (docs/records.md).  The first line is the header::

    {"format": "sims-record/2", "game": "mygame", "rules": "standard", "seed": 7, "games": 1,
     "players": ["expert", "random"]}

``rules`` is a preset's name or a table of the rules' fields; ``seed`` and ``games``
say which games of a run were played (``sims play --seed 7 --games 1 --record F``);
``players`` names the seats.  Every further line is either one decision -- the
situation as the player knew it (the fields of the game's situation class for that
decision, cards readable, the rules left to the header) and the choice::

    {"game": 0, "player": 1, "decision": "bid", "hand": "7H 8C 5D 2S QD 3C", "turned": "JS",
     "score": [0, 1], "choice": "pass"}

or, after a game's decisions, its result (the row ``play_games(..., records=True)``
gives that game)::

    {"game": 0, "result": {"first_dealer": 0, "winner": 1, "score_0": 9, "score_1": 10}}

``player`` indexes ``players``; ``game`` (0 if left out) is the game's number in the
run.  A record typed by hand for a real game is read the same way (each game's
example, :func:`example`).  ``sims-record/1`` (the first game's records, without ``game``
numbers or results) still reads.

What depends on the game comes from its decisions' situations (``Game.situations``) and its
records module, the ``record`` its ``Game`` declares (``mygame.record``): ``situation`` (an engine
decision's arrays -> its situation) and ``play_game`` (one game of the reference engine with given
seat functions); and where the defaults do not fit,
``fields`` (a situation -> its record fields; default :func:`fields_of`'s)
and ``grade`` (a choice against the game's advisor; default :func:`grade`).

:func:`review` grades every decision against the advisor: the best choice, the points
the choice lost with their standard error, and the chance of winning it lost when the
advisor gives one; a loss is an ``inaccuracy``, a ``mistake`` or a ``blunder`` past the
thresholds of :data:`GRADES`, as chess analysis boards grade moves.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import pandas as pd

from .paths import shown
from .record_schema import check_decision, check_header, check_result, read_lines

if TYPE_CHECKING:
    from .protocol import Game

FORMAT = "sims-record/2"
FORMATS = ("sims-record/1", FORMAT)
# Grades by the chance of winning lost (where the advisor gives one), else by the points lost.
GRADES = (("blunder", 0.10, 1.0), ("mistake", 0.05, 0.5), ("inaccuracy", 0.02, 0.25))


class Line(NamedTuple):
    """One decision of a record: its line number, game number, player index, situation and choice (as the
    situation writes it)."""

    number: int
    game: int
    player: int
    situation: object
    choice: str


class Record(NamedTuple):
    header: dict
    game: Game  # the Game
    rules: object
    decisions: list  # Line
    results: dict  # game number -> its result row


def example(game) -> Path:
    """The hand-typed example record shipped with ``game``."""
    from .registry import get_game

    return get_game(game).part("record").EXAMPLE


def rules_field(game, rules):
    """The header's ``rules``: the preset's name, or the rules' fields when they are no preset."""
    return rules.name if game.presets.get(rules.name) == rules else rules.to_dict()


def header_of(game, rules, seed: int, players, games: int) -> dict:
    return {
        "format": FORMAT,
        "game": game.name,
        "rules": rules_field(game, rules),
        "seed": int(seed),
        "games": int(games),
        "players": list(players),
    }


def write_record(path, header: dict, lines) -> None:
    """Write the record atomically (all of it or, on any error, nothing), with the run store's permissions."""
    from .store import atomic_write

    atomic_write(Path(path), lambda out: out.writelines((json.dumps(row) + "\n").encode() for row in [header, *lines]))


def situation_fields(situation, formats: dict) -> dict:
    """A situation's record fields: its constructor's fields but the rules (in the header), those left at their
    defaults left out, ``formats[name]`` making a value readable (cards), tuples as lists."""
    out = {}
    for f in dataclasses.fields(situation):
        value = getattr(situation, f.name)
        if not f.init or f.name == "rules" or value is None or value == f.default:
            continue
        out[f.name] = (
            formats[f.name](value) if f.name in formats else list(value) if isinstance(value, tuple) else value
        )
    return out


def _header(path, number: int, header: dict):
    from .registry import get_game

    check_header(header, f"{shown(path)} line {number}", FORMATS)
    try:
        game = get_game(header.get("game"))
        given = header.get("rules", game.default_preset)
        rules = game.rules_module.Rules.from_dict(given) if isinstance(given, dict) else game.get_rules(given)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{shown(path)} line {number}: {exc}") from None
    return game, rules, header["players"]


def _index(row: dict, key: str, limit: int, where: str) -> int:
    value = row.get(key, 0 if key == "game" else None)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < limit:
        raise ValueError(f"{where}: {key} must be 0..{limit - 1}, got {value!r}")
    return value


def read_record(path) -> Record:
    """The header, the decisions and the results of a record; a one-line error naming the line of anything
    wrong: against the schema (:mod:`sims.core.record_schema`: the file's kind and size, each line's types and
    ranges), a field the decision does not have, an impossible situation, an illegal choice."""
    rows = read_lines(path)
    number, header = rows[0]
    game, rules, players = _header(path, number, header)
    try:
        game.part("record")
    except ValueError:
        raise ValueError(f"{shown(path)} line {number}: game: {game.name} keeps no game records") from None
    n_games = header.get("games", 1) if header["format"] != FORMATS[0] else 1
    decisions, results = [], {}
    for number, row in rows[1:]:
        where = f"{shown(path)} line {number}"
        g = _index(row, "game", n_games, where)
        if "result" in row:
            check_result(row, where)
            results[g] = row["result"]
            continue
        check_decision(row, where)
        kind = row.get("decision")
        if kind not in game.situations:
            raise ValueError(f"{where}: decision must be {' or '.join(game.situations)}, got {kind!r}")
        cls = game.situations[kind]
        names = {f.name for f in dataclasses.fields(cls) if f.init} - {"rules"}
        unknown = sorted(set(row) - names - {"game", "decision", "player", "choice"})
        if unknown:
            raise ValueError(f"{where}: unknown field {unknown[0]!r} for a {kind} decision")
        player = _index(row, "player", len(players), where)
        if "choice" not in row:
            raise ValueError(f"{where}: no choice")
        try:
            situation = cls(rules=rules, **{k: v for k, v in row.items() if k in names})
            choice = situation.choice_of(situation.answer(row["choice"]))
        except (ValueError, TypeError) as exc:
            raise ValueError(f"{where}: {exc}") from None
        decisions.append(Line(number, g, player, situation, choice))
    return Record(header, game, rules, decisions, results)


def _grade(points_lost: float, win_lost: float | None) -> str:
    for name, win, points in GRADES:
        if (win_lost is not None and win_lost >= win) or (win_lost is None and points_lost >= points):
            return name
    return ""


def paired_grade(frame: pd.DataFrame, key: str, choice: str) -> dict:
    """The grade of ``choice`` from an advisor's frame whose differences from the best are paired over the same
    deals (``vs_best``, ``vs_best_se``, ``win_vs_best``); the frame's first row is the best choice."""
    mine = frame.set_index(key).loc[choice]
    has_win = "win" in frame
    return {
        "best": frame.iloc[0][key],
        "points_lost": -float(mine["vs_best"]),
        "points_lost_se": float(mine["vs_best_se"]),
        "win": float(mine["win"]) if has_win else None,
        "win_lost": -float(mine["win_vs_best"]) if has_win else None,
        "playout": playout_text(frame.attrs.get("playout")),
    }


def playout_text(playout) -> str | None:
    """An advisor frame's ``attrs["playout"]`` in words: who makes the decisions after the choice
    (``{decision: player}``, or one pegging policy), or None where nothing is played out."""
    if isinstance(playout, dict):
        return ", ".join(f"{decision} {player}" for decision, player in playout.items())
    return playout


def fields_of(game):
    """How a situation of ``game`` becomes its record fields: the game's ``record.fields``, else
    :func:`situation_fields` as they are."""
    module = game.part("record")
    return getattr(module, "fields", lambda situation: situation_fields(situation, {}))


def grade(game, situation, choice: str, samples: int, seed: int, playout=None) -> dict:
    """``choice`` graded against the game's advisor: the game's ``record.grade``, else :func:`paired_grade` of
    its advice (``advise(situation, playout=, samples=, seed=, policies=())``, whose ``choice`` column names
    every choice, paired over the same deals)."""
    module = game.part("record")
    if hasattr(module, "grade"):
        return module.grade(situation, choice, samples, seed, playout)
    advise = game.part("advice").advise
    return paired_grade(advise(situation, playout=playout, samples=samples, seed=seed, policies=()), "choice", choice)


def playout_of(text: str | None, flag: str = "--playout"):
    """A command line's play-out (``flag``): a policy (``"maxims"``, ``"position:table=..."``), or
    ``DECISION=POLICY,...`` -> ``{decision: policy}``."""
    if text is None or "=" not in text.split(":")[0]:
        return text
    pairs = [part.partition("=") for part in text.split(",")]
    if any(not d.strip() or not p.strip() for d, _, p in pairs):
        raise ValueError(f"{flag}: give DECISION=POLICY[,DECISION=POLICY], got {text!r}")
    return {d.strip(): p.strip() for d, _, p in pairs}


def check_playout(game, module, playout) -> None:
    """The play-out policies of a review, each resolved before any decision is graded (a bad name or parameter:
    one line): ``{decision: policy}``, or one policy where the game's records module names the decision it plays
    (``PLAYOUT``, e.g. the play of a game whose play-outs only play)."""
    from .jobs import resolve_one

    if playout is None:
        return
    decisions = [d.name for d in game.decisions]
    plain = getattr(module, "PLAYOUT", None)
    pairs = playout if isinstance(playout, dict) else {plain: playout}
    if not set(pairs) <= set(decisions):
        form = (
            f"a {plain} policy"
            if plain
            else f"DECISION=POLICY[,DECISION=POLICY] with DECISION one of {', '.join(decisions)}"
        )
        raise ValueError(f"--playout: {game.name}'s play-outs take {form}")
    solvers = getattr(game.part("advice"), "SOLVERS", {})  # play-outs the advisor plays itself, not policies
    for decision, policy in pairs.items():
        own = solvers.get(decision, ())
        if policy in own:
            continue
        try:
            resolve_one(game, str(decision), policy)
        except ValueError as exc:
            if not own:
                raise
            raise ValueError(f"{exc}; or the advisor's own {', '.join(own)}") from None


def review(path, samples: int = 2_000, seed: int = 0, playout=None, progress: bool = False) -> pd.DataFrame:
    """Every decision of a game record graded against the game's advisor (module docstring).

    Parameters
    ----------
    path : str or pathlib.Path
        The record (JSON Lines: a header, then a line per decision).
    samples : int
        Deals of the unseen cards each decision's advisor samples.
    seed : int
        Seed of the advisors' sampled deals.
    playout : str or dict, optional
        The policy every player uses after the choice (default the advisor's), checked before any decision
        is graded (``check_playout``).
    progress : bool
        A long review says how many decisions first and shows a bar.

    Returns
    -------
    pandas.DataFrame
        ``line, game, player, decision, choice, best, points_lost, points_lost_se, win`` (the chance of winning
        after the choice, where the advisor gives one), ``win_lost, grade, note`` (a decision the advisor
        refuses to value is left ungraded, its ``note`` saying why, its losses NaN); ``attrs["header"]`` the
        header, ``attrs["totals"]`` the sums per player, ``attrs["playouts"]`` per kind of decision who played
        its values out after the choice (the advisor's ``attrs["playout"]`` in words; a kind nothing is played out
        for is left out).
    """
    from .advice import check_samples
    from .errors import PolicyError

    check_samples(samples)
    record = read_record(path)
    module = record.game.part("record")
    check_playout(record.game, module, playout)
    players = record.header["players"]
    rows: list[dict] = []
    playouts: dict[str, str] = {}  # per kind of decision, who plays its values out
    for line in _paced(record.decisions, progress):
        row = {
            "line": line.number,
            "game": line.game,
            "player": players[line.player],
            "decision": line.situation.DECISION,
            "choice": line.choice,
        }
        try:
            graded = grade(record.game, line.situation, line.choice, samples, seed, playout)
        except PolicyError as exc:  # a play-out went wrong: stop there
            raise PolicyError(f"{path} line {line.number}: the advisor's {exc}") from None
        except ValueError as exc:  # what the advisor cannot value (the record was read whole)
            rows.append(
                {
                    **row,
                    "best": None,
                    "points_lost": float("nan"),
                    "points_lost_se": float("nan"),
                    "win": None,
                    "win_lost": None,
                    "grade": "",
                    "note": f"not graded: {exc}",
                }
            )
            continue
        if graded.get("playout"):
            playouts.setdefault(row["decision"], graded["playout"])
        lost = graded["points_lost"] + 0.0  # no -0.0
        win_lost = None if graded["win_lost"] is None else graded["win_lost"] + 0.0
        rows.append(
            {
                **row,
                "best": graded["best"],
                "points_lost": lost,
                "points_lost_se": graded["points_lost_se"],
                "win": graded["win"],
                "win_lost": win_lost,
                "grade": _grade(lost, win_lost),
                "note": "",
            }
        )
    columns = [
        "line",
        "game",
        "player",
        "decision",
        "choice",
        "best",
        "points_lost",
        "points_lost_se",
        "win",
        "win_lost",
        "grade",
        "note",
    ]
    out = pd.DataFrame(rows, columns=columns)
    out.attrs["header"] = record.header
    out.attrs["totals"] = totals(out).to_dict(orient="records")
    out.attrs["playouts"] = playouts
    return out


LONG = 100  # decisions: a review this long says first how many, and shows a progress bar


def _paced(decisions: list, progress: bool):
    """The decisions to grade; with ``progress``, a long review says how many on stderr before it starts and
    shows a bar with the time left (a decision takes from milliseconds to a second or so)."""
    if not progress or len(decisions) < LONG:
        return decisions
    import sys

    from .progress import progress_bar

    sys.stderr.write(f"sims review: {len(decisions):,} decisions to grade; the bar below says how long it takes\n")
    return progress_bar(decisions, desc="decisions", unit="decision")


def totals(reviewed: pd.DataFrame) -> pd.DataFrame:
    """The graded decisions of :func:`review` summed per player.

    Parameters
    ----------
    reviewed : pandas.DataFrame
        What :func:`review` returns.

    Returns
    -------
    pandas.DataFrame
        Per player: decisions (and how many were not graded), points lost (and its standard error, the
        decisions' added in quadrature), chance of winning lost, and the count of each grade.
    """
    grouped = reviewed.groupby("player", sort=False)
    out = grouped.agg(
        decisions=("line", "size"),
        ungraded=("points_lost", lambda p: int(p.isna().sum())),
        points_lost=("points_lost", "sum"),
        win_lost=("win_lost", lambda w: w.sum(min_count=1)),
    )
    out["points_lost_se"] = grouped["points_lost_se"].apply(lambda s: float((s**2).sum() ** 0.5))
    for name, _, _ in GRADES:
        out[name] = grouped["grade"].apply(lambda g, name=name: int((g == name).sum()))
    out = out.reset_index()
    out["win_lost"] = out["win_lost"].astype(object).where(out["win_lost"].notna(), None)
    return out


def grade_counts(row) -> str:
    """``1 inaccuracy, 0 mistakes, 2 blunders``: a player's :func:`totals` counted by grade, the mildest first."""
    from .text import counted

    return ", ".join(counted(int(row[name]), name) for name, _, _ in reversed(GRADES))


def win_trail(reviewed: pd.DataFrame, player: str) -> pd.DataFrame:
    """``player``'s chance of winning through the game, a row per graded decision that has one: after the choice
    made (``win``) and had the best choice been made (``best_win``), the other side's decisions turned to
    ``player``'s side (one less their chance: two players); with ``line``, ``game``, who chose (``mover``) and
    the ``grade``."""
    rows = reviewed[reviewed["win"].notna()]
    if len(reviewed.attrs.get("header", {}).get("players", ())) > 2:
        raise ValueError("the chance of winning through the game is drawn for two players")
    if player not in set(reviewed["player"]):
        raise ValueError(f"no player {player!r} in the review; players: {', '.join(dict.fromkeys(reviewed['player']))}")
    mine = rows["player"] == player
    win = rows["win"].astype(float)
    best = win + rows["win_lost"].astype(float)
    return pd.DataFrame(
        {
            "line": rows["line"],
            "game": rows["game"],
            "mover": rows["player"],
            "win": win.where(mine, 1 - win),
            "best_win": best.where(mine, 1 - best),
            "grade": rows["grade"],
        }
    ).reset_index(drop=True)
