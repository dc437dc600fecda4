"""A period claim, where it comes from, and the verdict rule with a margin of practical equivalence.

A claim is read as a comparison of a simulated quantity with a value: "twenty-five
points" (equal to 25), "an advantage" (more than 50%), "as well as" (at least 50%),
"exceptional" (less than 10%).  Each comparison has a *margin*: differences smaller
than it do not matter in play (each claim says why it chose its margin).  With the
95% interval ``[lo, hi]`` of the estimate, value ``x`` and margin ``m``:

* **equal** (``=``): *supported* if ``[lo, hi]`` lies within ``x ± m``; *not
  supported* if it lies wholly outside; else *inconclusive*.
* **at least** (``>=``): *supported* if ``lo >= x − m``; *not supported* if
  ``hi < x − m``; else *inconclusive*.
* **more than** (``>``), optionally under a cap (``trifling``: under 60%):
  *negligible* if ``[lo, hi]`` lies within ``x ± m`` (the difference is too small to
  matter, whichever way it goes); *supported* if ``lo > x + m`` (and ``hi < cap``);
  *not supported* if ``hi <= x + m`` (a difference that matters is ruled out, and one
  the other way is not) or ``lo > cap``; else *inconclusive*.
* **less than** (``<``): the mirror image of *more than*.

>>> more(0.5, 0.005, "one game in 200").verdict((0.527, 0.540))
'supported'
>>> more(0.0, 0.05, "a twentieth of a point").verdict((-0.0007, -0.0003))
'negligible'
>>> more(0.5, 0.005, "one game in 200", cap=0.6).verdict((0.55, 0.62))
'inconclusive'
>>> equal(25, 0.5, "rounds to twenty-five").verdict((26.45, 26.53))
'not supported'
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

SUPPORTED, NOT_SUPPORTED, INCONCLUSIVE, NEGLIGIBLE = "supported", "not supported", "inconclusive", "negligible"
VERDICTS = (SUPPORTED, NOT_SUPPORTED, NEGLIGIBLE, INCONCLUSIVE)
RELATIONS = {"=": "equal to", ">=": "at least", ">": "more than", "<": "less than"}

VERDICT_RULE = """**Verdict rule.** Each claim is read as a comparison of the simulated quantity with a value: \
"twenty-five points" is *equal to* 25, "an advantage" *more than* 50%, "as well as" *at least* 50%, \
"exceptional" *less than* 10%. Each claim also states a **margin**: a difference smaller than the margin is too \
small to matter in play (the claim says why it chose its margin). With the 95% interval of the estimate:

- *equal to x*: **supported** when the whole interval lies within x ± margin; **not supported** when it lies \
wholly outside; otherwise **inconclusive**.
- *at least x*: **supported** when the whole interval lies above x − margin; **not supported** when it lies \
wholly below; otherwise **inconclusive**.
- *more than x* (and *less than x*, its mirror image): **negligible** when the whole interval lies within \
x ± margin, so that any difference is too small to matter; **supported** when the whole interval lies beyond \
x + margin (and inside any bound the claim also states, such as "trifling": under 60%); **not supported** when \
a difference that matters on the claimed side is ruled out (the interval ends short of x + margin) or the bound \
is exceeded; otherwise **inconclusive**, and a larger simulation would decide.

Where a period sentence can be read more than one way, each reading is a claim of its own, and the report names \
the reading beside its verdict."""


@dataclass(frozen=True)
class Claimed:
    """What a claim says of its quantity: ``relation`` (``=``, ``>=``, ``>``, ``<``) to ``value``, with
    the margin of practical equivalence ``margin`` (``why``: the reason for it) and, for ``>``, an
    optional upper ``cap`` the claim also states.  :meth:`verdict` is the rule of the module docstring."""

    relation: str
    value: float
    margin: float
    why: str
    cap: float | None = None

    def __post_init__(self):
        if self.relation not in RELATIONS:
            raise ValueError(f"claimed relation must be one of {', '.join(RELATIONS)}, got {self.relation!r}")
        if not (math.isfinite(self.value) and math.isfinite(self.margin)) or self.margin <= 0:
            raise ValueError(
                f"claimed value and margin must be finite, margin > 0 (a margin of 0 decides "
                f"nothing), got {self.value}, {self.margin}"
            )
        if not self.why.strip():
            raise ValueError("a claim's margin needs its reason (why)")
        if self.cap is not None and (self.relation != ">" or not self.cap > self.value + self.margin):
            raise ValueError(f"a cap goes with '>' and must exceed value + margin, got {self.cap}")

    def verdict(self, interval: tuple[float, float]) -> str:
        lo, hi = interval
        x, m = self.value, self.margin
        if self.relation == "=":
            if x - m <= lo and hi <= x + m:
                return SUPPORTED
            return NOT_SUPPORTED if hi < x - m or lo > x + m else INCONCLUSIVE
        if self.relation == ">=":
            if lo >= x - m:
                return SUPPORTED
            return NOT_SUPPORTED if hi < x - m else INCONCLUSIVE
        if self.relation == "<":  # the mirror image of ">"
            lo, hi, x = -hi, -lo, -x
        cap = math.inf if self.cap is None else self.cap
        if x - m <= lo and hi <= x + m:
            return NEGLIGIBLE
        if lo > cap:
            return NOT_SUPPORTED
        if lo > x + m:
            return SUPPORTED if hi < cap else INCONCLUSIVE
        return NOT_SUPPORTED if hi <= x + m else INCONCLUSIVE


def equal(value: float, margin: float, why: str) -> Claimed:
    """The quantity equals ``value`` to within ``margin`` ("twenty-five points")."""
    return Claimed("=", value, margin, why)


def at_least(value: float, margin: float, why: str) -> Claimed:
    """The quantity is no worse than ``value`` by more than ``margin`` ("plays as well as")."""
    return Claimed(">=", value, margin, why)


def more(value: float, margin: float, why: str, cap: float | None = None) -> Claimed:
    """The quantity exceeds ``value`` by more than ``margin`` (and stays under ``cap``): "an advantage"."""
    return Claimed(">", value, margin, why, cap)


def less(value: float, margin: float, why: str) -> Claimed:
    """The quantity is below ``value`` by more than ``margin`` ("exceptional": under one game in ten)."""
    return Claimed("<", value, margin, why)


@dataclass(frozen=True)
class Text:
    """A period text the claims quote: its file in ``data/reference/seeds/``, its title, author and year as the
    text gives them.  None of the five names its book, author or year; the title is then the text's own
    headings, or (in square brackets) what it holds, and author and year say they are not given."""

    file: str
    title: str
    author: str = "not given in the text"
    year: str = "not given in the text"

    def cite(self) -> str:
        """The title as the report, the notebooks and the README cite it."""
        return f"*{self.title}*"


# The one table of the sources, by short title key: every citation of a period text (report, notebooks, README,
# docstrings: "Sections 87-96 §89", "Mottoes, Five-Card Loo") comes from here.
TEXTS = {
    "Mottoes": Text(
        "000_316201a56e859ee5.txt",
        "[Cribbage, All-Fours, Three-Card and Five-Card Loo: terms, laws and maxims, between mottoes]",
    ),
    "Rules of Cribbage": Text("001_5509ca1ecad4e9e2.txt", "Terms Used In Cribbage; Rules Of Cribbage (§2105-2106)"),
    "Fragment": Text("002_d4c3027aaf86b12b.txt", "[Cribbage: terms and laws (i-), a fragment]"),
    "Sections 87-96": Text("003_5d5f9a5fddebf1fd.txt", "Three or Four-Hand Cribbage ... All Fours, Loo (§87-96)"),
    "Article": Text("004_9055db097589e349.txt", "CRIBBAGE, a game at cards [the five-card game, a dictionary article]"),
}


@dataclass(frozen=True)
class Source:
    """The clause a claim comes from: the text (its short title, the key of :data:`TEXTS`), its file, the clause
    label and the quoted words (each quote is checked against the excerpts in ``data/reference/seeds/``)."""

    text: str
    file: str
    clause: str
    quote: str

    def cite(self) -> str:
        """The text's title and the clause: ``'*Three or Four-Hand Cribbage ... (§87-96)*, §96 i'``."""
        return f"{TEXTS[self.text].cite()}, {self.clause}"


def source(text: str, clause: str, quote: str) -> Source:
    """A :class:`Source` in the text of short title ``text`` (a key of :data:`TEXTS`), its file from the table."""
    if text not in TEXTS:
        raise ValueError(f"unknown text {text!r}; the texts are {', '.join(TEXTS)}")
    return Source(text, TEXTS[text].file, clause, quote)


@dataclass(frozen=True)
class Reference:
    """A published value or range (lo, hi) for comparison, with its source."""

    value: tuple[float, float]
    source: str


@dataclass(frozen=True)
class Claim:
    """One period claim, the simulated answer and the verdict (:meth:`Claimed.verdict`).

    ``reading`` says how the period sentence is read where it can be read more than one
    way (each reading is a claim of its own); ``percent`` shows the quantity as a rate in percent.
    """

    id: str
    statement: str
    source: Source
    quantity: str
    estimate: float
    interval: tuple[float, float]
    n: int
    claimed: Claimed
    reading: str = ""
    reference: Reference | None = None
    notes: str = ""
    rules: str = ""
    policies: str = ""
    percent: bool = False
    side: str = "the claim"

    def direction(self) -> str:
        """Which side of the claimed value the interval lies, whatever the margin: ``'for the maxim (above
        0)'``, ``'against the maxim (below 0)'`` (``side`` names what the claim says) or ``'either way (the
        interval holds 0)'``; for ``=``, ``'above 25'``, ``'below 25'`` or ``'either side of 25'``."""
        lo, hi = self.interval
        c = self.claimed
        x = self._fmt(c.value)
        if c.relation == "=":
            return f"above {x}" if lo > c.value else f"below {x}" if hi < c.value else f"either side of {x}"
        above, below = (
            f"{'for' if c.relation != '<' else 'against'} {self.side} (above {x})",
            f"{'against' if c.relation != '<' else 'for'} {self.side} (below {x})",
        )
        return above if lo > c.value else below if hi < c.value else f"either way (the interval holds {x})"

    def __post_init__(self):
        lo, hi = self.interval
        if not all(map(math.isfinite, (lo, self.estimate, hi))) or not lo <= hi:
            raise ValueError(f"claim {self.id}: the interval must be finite with lo <= hi, got {self.interval}")
        if not isinstance(self.claimed, Claimed):
            raise ValueError(f"claim {self.id}: claimed must be a Claimed (equal, at_least, more or less)")

    @property
    def verdict(self) -> str:
        return self.claimed.verdict(self.interval)

    @property
    def margin(self) -> float:
        return self.claimed.margin

    def _fmt(self, x: float) -> str:
        if self.percent:
            return f"{100 * x:.1f}%"
        if 0 < abs(x) < 0.001:
            return f"{x:.2g}"  # a rare event keeps two significant digits
        return f"{x:.4f}" if 0 < abs(x) < 0.1 else f"{x:.2f}"  # small differences keep their digits

    def format_estimate(self) -> str:
        return f"{self._fmt(self.estimate)} [{self._fmt(self.interval[0])}, {self._fmt(self.interval[1])}]"

    def format_range(self, rng: tuple[float, float]) -> str:
        lo, hi = rng
        return self._fmt(lo) if lo == hi else f"{self._fmt(lo)} to {self._fmt(hi)}"

    def claimed_text(self) -> str:
        """``'> 50.0%, under 60.0%'``, ``'= 25.00'``, ``'>= 50.0%'``, ``'< 10.0%'``."""
        c = self.claimed
        text = f"{c.relation} {self._fmt(c.value)}"
        return text + (f", under {self._fmt(c.cap)}" if c.cap is not None else "")

    def margin_text(self) -> str:
        """``'±0.5%'`` (points of a rate) or ``'±0.05'``."""
        m = self.claimed.margin
        return f"±{100 * m:.3g}%" if self.percent else f"±{m:.3g}"

    def to_dict(self) -> dict:
        d = asdict(self)
        d["verdict"] = self.verdict
        d["direction"] = self.direction()
        return d
