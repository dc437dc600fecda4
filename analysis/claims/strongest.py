"""Each claim where play matters, judged twice: with the players the section names and with the strongest players
of the game (its ``expert``), side by side; a verdict that changes between them says so (issue 21, item 5).

A section passes its claims and, for each, the same quantity measured with the strongest players (a
:class:`~sims.analysis.claims.model.Claim` of the same id), or a sentence saying why it was not measured again.
"""

from __future__ import annotations

from dataclasses import replace

import pandas as pd

from .model import INCONCLUSIVE, Claim

# How the verdict changes from the named players to the strongest: "**flips**" only between two decided verdicts.
CHANGES = {
    "no": "the same verdict",
    "**flips**": "**the verdict flips**",
    "undecided": "the verdict differs, one of them inconclusive (a larger simulation would decide)",
}


def _change(named: str, strongest: str) -> str:
    if named == strongest:
        return "no"
    return "undecided" if INCONCLUSIVE in (named, strongest) else "**flips**"


def judged_twice(named: list[Claim], strongest: dict[str, Claim | str]) -> tuple[list[Claim], pd.DataFrame]:
    """The named claims with the strongest players' verdict added to their notes, and the side-by-side table.

    ``strongest[claim id]`` is the claim measured with the strongest players, or the reason it was not."""
    claims, rows = [], []
    for claim in named:
        other = strongest[claim.id]
        if isinstance(other, Claim):
            change = _change(claim.verdict, other.verdict)
            said = (
                f"With the strongest players ({other.policies}, n = {other.n:,}): {other.format_estimate()}, "
                f"{other.verdict}; {other.direction()}; {CHANGES[change]}."
            )
            row = {
                "strongest: estimate [95% CI]": other.format_estimate(),
                "strongest: verdict": f"{other.verdict}; {other.direction()}",
                "strongest players": f"{other.policies} (n = {other.n:,})",
                "flips?": change,
            }
        else:
            said = f"Not judged again with the strongest players: {other}"
            row = {
                "strongest: estimate [95% CI]": "",
                "strongest: verdict": "not judged",
                "strongest players": other,
                "flips?": "",
            }
        claims.append(replace(claim, notes=f"{claim.notes} {said}".strip()))
        rows.append(
            {
                "claim": claim.id,
                "named: estimate [95% CI]": claim.format_estimate(),
                "named: verdict": f"{claim.verdict}; {claim.direction()}",
                "named players": claim.policies,
                **row,
            }
        )
    return claims, pd.DataFrame(rows)
