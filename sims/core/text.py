"""Small text pieces the games' ``render`` functions share, and the one way intervals are written.

Every interval printed is a 95% interval, written ``estimate [lo, hi]`` (or ``±h``, half its width, in the
advisors' dense tables), with its method named once beside the table: a mean is mean ± 1.96 standard
errors (normal, :data:`MEAN_METHOD`), a rate is Wilson's score interval (:data:`RATE_METHOD`).
"""

from __future__ import annotations

import re

from ..stats import Z95

MEAN_METHOD = "95% interval: mean ± 1.96 standard errors"
RATE_METHOD = "95% interval: Wilson score"
HALF_WIDTH = "±95%: half the width of the 95% interval (1.96 standard errors; the standard errors are in --json)"


def mine_theirs(text: str | None, example: str) -> tuple[int, int] | None:
    """A score as every command takes it (``--score MINE-THEIRS``): your side's score first, then the other
    side's; None for None."""
    if text is None:
        return None
    return two_scores(text, f"the score is MINE-THEIRS, your side's score first, e.g. {example}")


def two_scores(text, form: str) -> tuple[int, int]:
    """``"95-110"`` -> ``(95, 110)``: two whole scores joined by a hyphen; else one line, ``form`` (how the score
    is written) and what was given."""
    match = re.fullmatch(r"\s*(\d+)\s*-\s*(\d+)\s*", str(text))
    if match is None:
        raise ValueError(f"{form}; got {text!r}")
    return int(match[1]), int(match[2])


def counted(n: int, noun: str) -> str:
    """``1 blunder``, ``2 blunders``, ``0 inaccuracies``: ``n`` and ``noun`` agreeing with it."""
    if n == 1:
        return f"1 {noun}"
    return f"{n} {noun[:-1] + 'ies' if noun.endswith('y') and noun[-2:-1] not in 'aeiou' else noun + 's'}"


def listed(text) -> list[str]:
    """A list flag's items, split at commas or spaces (``--declared pass,play``); none for None."""
    return [t for t in re.split(r"[\s,]+", text or "") if t]


def rate_interval(entry: dict) -> str:
    """``0.5512 [0.5470, 0.5554]``: a rate with its Wilson interval (``rate``, ``lo``, ``hi``)."""
    return f"{entry['rate']:.4f} [{entry['lo']:.4f}, {entry['hi']:.4f}]"


def mean_interval(mean: float, se: float, digits: int = 4, sign: str = "") -> str:
    """``8.1200 [8.0808, 8.1592]``: a mean with its normal 95% interval; ``sign="+"`` signs all three."""
    return interval(mean, mean - Z95 * se, mean + Z95 * se, digits, sign)


def interval(value: float, lo: float, hi: float, digits: int = 4, sign: str = "") -> str:
    """``value [lo, hi]`` to ``digits`` places."""
    f = f"{sign}.{digits}f"
    return f"{value:{f}} [{lo:{f}}, {hi:{f}}]"


def component_table(entries: dict, components: list[str]) -> list[str]:
    """Points by component (rows) for each role or side (columns: ``entries[who][component]`` has ``mean``
    and ``se``), each a mean with its normal 95% interval."""
    cells = {
        who: [mean_interval(entries[who][c]["mean"], entries[who][c]["se"]) for c in components] for who in entries
    }
    widths = {who: max(len(who), *(len(x) for x in col)) + 2 for who, col in cells.items()}
    lines = [f"{'component':<10}" + "".join(f"{who:>{widths[who]}}" for who in entries)]
    for i, comp in enumerate(components):
        lines.append(f"{comp:<10}" + "".join(f"{cells[who][i]:>{widths[who]}}" for who in entries))
    return lines


def policy_line(summary: dict) -> str:
    """``discard greedy,greedy, peg random,random``: each decision's policy by seat (changed parameters shown)."""
    return ", ".join(
        f"{d} {','.join(p.get('label', p['name']) for p in seats)}" for d, seats in summary["policies"].items()
    )


def cut(text, limit: int = 80) -> str:
    """``text`` on one line and at most ``limit`` characters (an ellipsis in place of the rest): what a one-line
    error echoes of the user's input.

    >>> cut("x" * 100, 10)
    'xxxxxxxxx…'
    """
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
