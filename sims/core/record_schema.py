"""The schema of a game record's lines (docs/records.md, "The schema"), checked before anything is graded.

A record is read only when it is a regular file of at most :data:`MAX_BYTES` (a named pipe would block, a
device never end), each line at most :data:`MAX_LINE` characters and nested at most :data:`MAX_DEPTH` deep (JSON
nested 5,000 deep is one line, not Python's RecursionError).  Then the header, each decision and each result are
checked field by field: the types, the ranges, no unknown key; an error is one line naming the file, the line and
the field.  What depends on the game (the cards, the situation, the choice) is the game's records module's to
check, after this.
"""

from __future__ import annotations

import json

from .paths import check_input_file, shown
from .text import cut

MAX_BYTES = 32 * 2**20  # a record of 20,000 decisions is about 3 MB
MAX_LINE = 2**16  # characters of one line (a decision is a few hundred)
MAX_DEPTH = 4  # a line's nesting: {"rules": {...}}, {"score": [...]}
MAX_GAMES = 100_000  # games in one record (sims play --record plays them at about one a second)
MAX_PLAYERS = 16
MAX_NAME = 80  # characters of a player's name, of a preset's name
MAX_TEXT = 1_000  # characters of a text field of a decision (cards, a role, a choice)
MAX_LIST = 64  # items of a list field of a decision
MAX_NUMBER = 10**6  # size of a whole number in a decision (a seat, a count, money held over)
MAX_SCORE = 10_000  # a score a side
MAX_SEED = 2**63 - 1  # as sims.core.rng's (which would import numba just to say so)
HEADER = {"format", "game", "rules", "seed", "games", "players"}
DECISION_KEYS = {"game", "player", "decision", "choice"}  # besides the situation's fields


def read_lines(path) -> list[tuple[int, dict]]:
    """``(line number, JSON object)`` of every line that is not blank, each checked for size and depth; a missing
    file is FileNotFoundError, anything else wrong one line."""
    path = check_input_file(path, shown(path), MAX_BYTES, "record")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{shown(path)}: cannot read the record ({getattr(exc, 'strerror', None) or exc})") from None
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        where = f"{shown(path)} line {number}"
        if not line.strip():
            continue
        if len(line) > MAX_LINE:
            raise ValueError(
                f"{where}: a line of {len(line):,} characters, and a record's lines hold at most {MAX_LINE:,}"
            )
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{where}: not JSON ({exc.msg})") from None
        except RecursionError:
            row = None
        if row is None or _depth(row) > MAX_DEPTH:
            raise ValueError(f"{where}: nested deeper than {MAX_DEPTH} levels ([...] or {{...}} within each other)")
        if not isinstance(row, dict):
            raise ValueError(f"{where}: a line is a JSON object {{...}}")
        rows.append((number, row))
    if not rows:
        raise ValueError(f"{shown(path)}: empty record")
    return rows


def _depth(value) -> int:
    """How deep lists and objects nest in ``value`` (a scalar: 0), without recursion."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, level)
            if level <= MAX_DEPTH:
                todo += [(v, level + 1) for v in (item.values() if isinstance(item, dict) else item)]
    return deepest


def _whole(value, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def check_header(header: dict, where: str, formats: tuple) -> None:
    """The header's fields: ``format`` one of ``formats``; ``game`` a name (registered: the caller's check);
    ``rules`` a preset's name or a table of fields; ``seed`` a master seed; ``games`` 1 .. :data:`MAX_GAMES`;
    ``players`` 1 .. :data:`MAX_PLAYERS` names of 1 .. :data:`MAX_NAME` characters; nothing else."""
    unknown = sorted(set(header) - HEADER)
    if unknown:
        raise ValueError(
            f"{where}: unknown field {cut(unknown[0])!r} in the header; it holds {', '.join(sorted(HEADER))}"
        )
    if header.get("format") not in formats:
        raise ValueError(
            f"{where}: the header must say format {formats[-1]!r} (or {formats[0]!r}), got "
            f"{cut(repr(header.get('format')))}"
        )
    game = header.get("game")
    if game is None:
        raise ValueError(f"{where}: game: missing; the header names the game (cribbage, allfours, loo, ...)")
    if not isinstance(game, str) or not 0 < len(game) <= MAX_NAME:
        raise ValueError(f"{where}: game: a game's name, got {cut(repr(game))}")
    rules = header.get("rules")
    if (
        rules is not None
        and not (isinstance(rules, str) and 0 < len(rules) <= MAX_NAME)
        and not (
            isinstance(rules, dict)
            and all(_scalar(v) or isinstance(v, list) and all(map(_scalar, v)) for v in rules.values())
        )
    ):
        raise ValueError(f"{where}: rules: a preset's name or a table of the rules' fields, got {cut(repr(rules))}")
    if "seed" in header and not _whole(header["seed"], 0, MAX_SEED):
        raise ValueError(f"{where}: seed: a whole number from 0 to 2**63 - 1, got {cut(repr(header['seed']))}")
    if "games" in header and not _whole(header["games"], 1, MAX_GAMES):
        raise ValueError(f"{where}: games: a whole number from 1 to {MAX_GAMES:,}, got {cut(repr(header['games']))}")
    players = header.get("players")
    if not (
        isinstance(players, list)
        and 0 < len(players) <= MAX_PLAYERS
        and all(isinstance(p, str) and 0 < len(p) <= MAX_NAME for p in players)
    ):
        raise ValueError(
            f"{where}: players: a list of 1 to {MAX_PLAYERS} names of 1 to {MAX_NAME} characters, one a seat"
        )


def _scalar(value) -> bool:
    return value is None or isinstance(value, (str, int, float))


def check_decision(row: dict, where: str) -> None:
    """A decision's values, before its game reads them: texts of at most :data:`MAX_TEXT` characters, whole
    numbers (or true/false) of at most :data:`MAX_NUMBER`, lists of at most :data:`MAX_LIST` of those; ``score``
    whole numbers from 0 to :data:`MAX_SCORE`, one a side."""
    for key, value in row.items():
        field = cut(key)
        if key == "score":
            if not (
                isinstance(value, list)
                and 0 < len(value) <= MAX_PLAYERS
                and all(_whole(v, 0, MAX_SCORE) for v in value)
            ):
                raise ValueError(
                    f"{where}: score: whole numbers from 0 to {MAX_SCORE:,}, one a side, got {cut(repr(value))}"
                )
            continue
        items = value if isinstance(value, list) else [value]
        if isinstance(value, list) and len(value) > MAX_LIST:
            raise ValueError(f"{where}: {field}: a list of at most {MAX_LIST} items, got {len(value):,}")
        for item in items:
            if isinstance(item, str) and len(item) > MAX_TEXT:
                raise ValueError(f"{where}: {field}: a text of at most {MAX_TEXT:,} characters, got {len(item):,}")
            if isinstance(item, float) or (
                isinstance(item, int) and not _whole(item, -MAX_NUMBER, MAX_NUMBER) and not isinstance(item, bool)
            ):
                raise ValueError(
                    f"{where}: {field}: a whole number from -{MAX_NUMBER:,} to {MAX_NUMBER:,}, got {cut(repr(item))}"
                )
            if not isinstance(item, (str, int)):
                raise ValueError(f"{where}: {field}: a text, a whole number or a list of them, got {cut(repr(item))}")


def check_result(row: dict, where: str) -> None:
    """A game's result line: ``game`` and ``result``, a table of names to numbers (or texts)."""
    result = row.get("result")
    if set(row) - {"game", "result"} or not isinstance(result, dict):
        raise ValueError(f"{where}: a result line holds game and result {{...}} only")
    if not all(_scalar(v) and len(str(v)) <= MAX_NAME for v in result.values()):
        raise ValueError(f"{where}: result: a table of names to numbers")
