"""Arguments shared by the simulation commands: the game, its rules and a policy flag per decision."""

from __future__ import annotations

import argparse

from ..core import registry
from ..core.registry import get_game
from ..core.spec import apply_rule_changes


def positive(text: str) -> int:
    """An argparse type: a positive integer (``--threads 0`` or ``-3`` is refused)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return value


def percent(chance: float, digits: int = 2, width: int = 0) -> str:
    """A chance in percent; within half a last digit of 0 or 100 it is ``< 0.01`` or ``> 99.99``, not a
    certainty (the shipped tables store chances rounded, so a stored 1.0 is not a sure thing).

    >>> percent(0.999996), percent(0.5), percent(0.0)
    ('> 99.99', '50.00', '< 0.01')
    """
    step = 10.0**-digits
    value = 100 * chance
    text = (
        f"> {100 - step:.{digits}f}"
        if value > 100 - step / 2
        else f"< {step:.{digits}f}"
        if value < step / 2
        else f"{value:.{digits}f}"
    )
    return text.rjust(width)


def game_of(argv) -> str:
    """The game a command line is about, before the full parser exists: ``--game``, else the ``game`` of a
    TOML spec file named on it, else the default game (:func:`sims.core.registry.default_name`)."""
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--game")
    known, rest = pre.parse_known_args(argv)
    name = known.game
    if name is None:
        from ..core.spec import read_spec

        for arg in rest:
            if arg.endswith(".toml"):
                try:
                    name = read_spec(arg).get("game")
                except ValueError:
                    pass
                break
    return name if name in registry.names() else registry.default_name()


def add_game_arguments(parser, game, defaults: bool = True) -> None:
    """``--game``, ``--rules``, ``--rule`` and one policy flag per decision of ``game``."""
    parser.add_argument(
        "--game",
        default=registry.default_name() if defaults else None,
        choices=registry.names(),
        help=f"the game (default {registry.default_name()}); the flags below are {game.name}'s",
    )
    parser.add_argument(
        "--rules",
        default=None,
        metavar="PRESET",
        help=f"preset: {', '.join(game.presets)} (default {game.default_preset})",
    )
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="change one rules field, e.g. --rule target=61",
    )
    for d in game.decisions:
        names = ", ".join(game.policies[d.name])
        parser.add_argument(
            f"--{d.name}",
            default=None,
            metavar="POLICY",
            help=f"{d.help}: a policy ({names}, an installed plug-in's: sims policies, or "
            f"py:MODULE.FUNCTION, an njit function by path) or a comma list, one per seat "
            f"(default {d.default}); NAME:PARAM=VALUE changes a parameter",
        )
    for option, text in game.options.items():
        parser.add_argument(
            f"--{option.replace('_', '-')}",
            dest=option,
            action="store_true",
            default=False if defaults else None,
            help=text,
        )


def add_simulation_arguments(parser, game, size_flag: str, size_help: str, default: int) -> None:
    add_game_arguments(parser, game)
    parser.add_argument(size_flag, dest="n", type=positive, default=default, help=size_help)
    parser.add_argument("--seed", type=int, default=0, help="master seed (non-negative integer)")
    parser.add_argument("--records", action="store_true", help="keep one row per deal or game (memory grows)")
    parser.add_argument("--threads", type=positive, default=None, help="numba threads (default: all)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def rules_from_args(args):
    """The preset named by ``--rules`` with any ``--rule FIELD=VALUE`` changes."""
    game = get_game(args.game)
    return apply_rule_changes(game, game.get_rules(args.rules), args.rule)


def policies_from_args(args) -> dict:
    """``--discard greedy,random`` -> per-seat lists, for each decision of the game given."""
    game = get_game(args.game)
    return {d.name: getattr(args, d.name) for d in game.decisions if getattr(args, d.name, None) is not None}


def options_from_args(args) -> dict:
    return {option: True for option in get_game(args.game).options if getattr(args, option, None)}


def defaults_used(game, given) -> dict:
    """``{decision: default policy}`` for the decisions of ``game`` not in ``given`` (names -> specs)."""
    return {d.name: d.default for d in get_game(game).decisions if given.get(d.name) is None}


def render_summary(summary: dict) -> str:
    """The game's own text for a result summary, and a line naming the default policies it used."""
    from ..core.policies import load

    text = load(get_game(summary.get("game")).results).render(summary)
    if summary.get("defaults"):
        used = ", ".join(f"{d} {p}" for d, p in summary["defaults"].items())
        flags = ", ".join(f"--{d}" for d in summary["defaults"])
        text += f"\ndefault policies: {used} (the game's strongest at full speed; {flags} to choose)"
    return text


def choice_table(rows, key: str, win: bool, exact: bool) -> list[str]:
    """The advisors' table (``sims peg``, ``sims advise``): a line per choice (``row[key]``) with its value, its
    paired difference from the best, with ``win`` the chance of winning, each ± half its 95% interval
    (said below the table; ``exact``: the values are exact, so those are 0), and the policies that make it."""
    from ..core.text import HALF_WIDTH, Z95

    head = [key, "value", "±95%", "vs best", "±95%"] + (["win %", "±95%", "vs best"] if win else []) + ["chosen by"]
    table = [head]
    for row in rows:
        cells = [
            row[key],
            f"{row['value']:.3f}",
            f"{Z95 * row['se']:.3f}",
            f"{row['vs_best']:.3f}",
            f"{Z95 * row['vs_best_se']:.3f}",
        ]
        if win:
            cells += [f"{100 * row['win']:.2f}", f"{100 * Z95 * row['win_se']:.2f}", f"{100 * row['win_vs_best']:.2f}"]
        table.append(cells + [", ".join(row["chosen_by"])])
    return aligned(table, left={0, len(head) - 1}) + ["", HALF_WIDTH + (" (0: the values are exact)" if exact else "")]


def best_by_win(choice: str) -> str:
    """The line above an advisor's table with a score: which row is the best (issue 34: one best, first)."""
    return f"best: the best chance of winning, then the most points; vs best: against that {choice}"


def aligned(table: list[list[str]], left) -> list[str]:
    """Rows of cells as lines, each column as wide as its widest cell and two spaces apart: the columns whose
    index is in ``left`` to the left, the others to the right; no trailing spaces."""
    widths = [max(len(row[j]) for row in table) for j in range(len(table[0]))]
    return [
        "  ".join(c.ljust(w) if j in left else c.rjust(w) for j, (c, w) in enumerate(zip(row, widths))).rstrip()
        for row in table
    ]
