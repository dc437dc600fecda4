"""The claims report: Markdown + PNG figures + claims.json, written atomically.

The report holds only what the seeds and sizes determine, so rerunning it leaves a checkout
clean; what changes from run to run (when, how long, versions, commit) goes to ``run.json``
beside it, which git does not track.

The report directory (default data/reports/) is built in a temporary sibling
directory and swapped in by renames only when everything is written, so a
crash or an error never leaves a half-written report; the directory is
replaced as a whole (it holds nothing but the report).
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd

from .plots import DPI

REPORT = "report.md"
FIGURES = "figures"
RUN_DETAILS = "run.json"  # untracked (.gitignore): this run's time, versions and commit


@dataclass
class Section:
    """One part of the report: its claims, tables (title -> DataFrame) and figures (caption -> Figure)."""

    number: str
    title: str
    claims: list = field(default_factory=list)
    text: str = ""
    tables: dict = field(default_factory=dict)
    figures: dict = field(default_factory=dict)


def environment() -> dict:
    """Versions (:func:`sims.core.store.versions`) and the git commit of the working tree (``-dirty`` with changes)."""
    import sims
    from sims.core.store import versions

    env = versions()
    commit = git_commit(Path(sims.__file__).resolve().parent.parent)
    if commit:
        env["git commit"] = commit
    return env


def git_commit(repo: Path) -> str | None:
    """``HEAD``'s hash (+ ``-dirty`` when the tree has uncommitted changes), or None outside git."""
    try:
        head = subprocess.run(
            ["git", "-C", str(repo), "rev-parse", "HEAD"], check=False, capture_output=True, text=True, timeout=10
        )
        if head.returncode != 0:
            return None
        dirty = subprocess.run(
            ["git", "-C", str(repo), "status", "--porcelain", "--untracked-files=no"],
            check=False,
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return head.stdout.strip() + ("-dirty" if dirty else "")


def _cell(x) -> str:
    if isinstance(x, float):
        return "" if math.isnan(x) else f"{x:.4g}"
    return str(x).replace("|", "\\|").replace("\n", " ")


def markdown_table(df: pd.DataFrame) -> str:
    """A GitHub Markdown table; the index is a column unless it is a plain 0..n-1 range."""
    if not isinstance(df.index, pd.RangeIndex) or df.index.name:
        df = df.reset_index()
    if df.shape[1] == 0:
        return "(none)"
    lines = ["| " + " | ".join(_cell(c) for c in df.columns) + " |", "|" + "---|" * df.shape[1]]
    lines += ["| " + " | ".join(_cell(x) for x in row) + " |" for row in df.itertuples(index=False)]
    return "\n".join(lines)


def verdict_rows(claims) -> pd.DataFrame:
    """The verdict table: one row per claim, its reading of the text beside the statement."""
    return pd.DataFrame(
        [
            {
                "claim": c.id,
                "statement": c.statement + (f" (reading: {c.reading})" if c.reading else ""),
                "estimate [95% CI]": c.format_estimate(),
                "claimed": c.claimed_text(),
                "margin": c.margin_text(),
                "verdict": f"{c.verdict}; {c.direction()}",
                "n": f"{c.n:,}",
                "rules": c.rules,
                "policies": c.policies,
            }
            for c in claims
        ]
    )


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60]


def _claim_md(claim) -> list[str]:
    src = claim.source
    lines = [
        f"### Claim {claim.id}: {claim.statement}",
        "",
        f"- **Source**: {src.cite()}[^{_slug(src.text)}]:",
        f"  > {src.quote}",
        f"- **Quantity**: {claim.quantity}",
    ]
    if claim.reading:
        lines.append(f"- **Reading of the text**: {claim.reading}")
    lines += [
        f"- **Estimate**: {claim.format_estimate()} (95% interval), n = {claim.n:,}",
        f"- **Claimed**: {claim.claimed_text()}",
        f"- **Margin**: {claim.margin_text()}: {claim.claimed.why}",
    ]
    if claim.reference is not None:
        lines.append(f"- **Published**: {claim.format_range(claim.reference.value)} ({claim.reference.source})")
    lines.append(f"- **Rules / policies**: {claim.rules} / {claim.policies}")
    lines.append(f"- **Verdict**: **{claim.verdict}**; {claim.direction()}")
    if claim.notes:
        lines.append(f"- **Notes**: {claim.notes}")
    return lines + [""]


def _sources(claims) -> list[str]:
    """The period texts the claims quote (title, author, year, file), and the footnotes naming each file."""
    from .claims.model import TEXTS

    quoted = {c.source.text for c in claims}
    texts = [t for t in TEXTS if t in quoted]  # in the table's order
    if not texts:
        return []
    table = pd.DataFrame(
        [
            {
                "title": TEXTS[t].title,
                "author": TEXTS[t].author,
                "year": TEXTS[t].year,
                "file": f"data/reference/seeds/{TEXTS[t].file}",
            }
            for t in texts
        ]
    )
    return [
        "## Sources",
        "",
        markdown_table(table),
        "",
        *(f"[^{_slug(t)}]: `data/reference/seeds/{TEXTS[t].file}`" for t in texts),
        "",
    ]


def _render(sections, skipped, provenance, title, preamble, figdir: Path) -> str:
    claims = [c for s in sections for c in s.claims]
    md = [f"# {title}", ""]
    if preamble:
        md += [preamble.strip(), ""]
    md += ["## Verdicts", "", markdown_table(verdict_rows(claims)) if claims else "(no claims run)", ""]
    for s in sections:
        md += [f"## {s.number}. {s.title}", ""]
        if s.text:
            md += [s.text.strip(), ""]
        for claim in s.claims:
            md += _claim_md(claim)
        for name, df in s.tables.items():
            md += [f"**{name}**", "", markdown_table(df), ""]
        for caption, fig in s.figures.items():
            fname = f"{_slug(s.number + '-' + caption)}.png"
            fig.savefig(figdir / fname, dpi=DPI)
            md += [f"![{caption}]({FIGURES}/{fname})", ""]
    md += _sources(claims)
    if skipped:
        md += ["## Not run", ""] + [f"- {number}. {name}: {reason}" for number, name, reason in skipped] + [""]
    md += ["## Provenance", ""]
    for key, value in provenance.items():
        if isinstance(value, pd.DataFrame):
            md += ["", f"**{key}**", "", markdown_table(value), ""]
        else:
            md.append(f"- {key}: {value}")
    return "\n".join(md).rstrip() + "\n"


def _json_default(x):
    if isinstance(x, pd.DataFrame):
        return x.to_dict(orient="records")
    if hasattr(x, "item"):  # numpy scalars
        return x.item()
    return str(x)


def write_report(
    sections,
    out="data/reports",
    provenance=None,
    skipped=(),
    title="Period claims checked by simulation",
    preamble: str = "",
    run_details=None,
) -> Path:
    """Write ``report.md``, ``claims.json`` and ``figures/*.png`` into ``out``; returns the report's path.

    ``sections``: :class:`Section` list; ``skipped``: (number, title, reason) of sections not run;
    ``provenance``: ordered key -> value (a DataFrame value becomes a table), what the seeds determine;
    ``run_details``: what changes from run to run, written to ``run.json`` (named in the report).
    """
    out = Path(out)
    if out.exists() and not (out.is_dir() and (not any(out.iterdir()) or (out / REPORT).exists())):
        raise ValueError(f"refusing to replace {out}: it is not an empty or report directory (no {REPORT})")
    out.parent.mkdir(parents=True, exist_ok=True)
    provenance = dict(provenance or {})
    if run_details is not None:
        provenance["this run's time, versions and commit"] = f"{RUN_DETAILS} beside this report (not tracked by git)"
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    try:
        (tmp / FIGURES).mkdir()
        (tmp / REPORT).write_text(
            _render(sections, skipped, provenance, title, preamble, tmp / FIGURES), encoding="utf-8"
        )
        data = {
            "claims": [c.to_dict() for s in sections for c in s.claims],
            "skipped": [list(x) for x in skipped],
            "provenance": provenance,
        }
        (tmp / "claims.json").write_text(json.dumps(data, indent=1, default=_json_default) + "\n", encoding="utf-8")
        if run_details is not None:
            (tmp / RUN_DETAILS).write_text(
                json.dumps(run_details, indent=1, default=_json_default) + "\n", encoding="utf-8"
            )
        _swap_in(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out / REPORT


def _swap_in(new: Path, out: Path) -> None:
    """Replace directory ``out`` by ``new`` with renames; the old report is kept until the new one is in."""
    if not out.exists():
        os.rename(new, out)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
    os.rmdir(old)
    os.rename(out, old)
    try:
        os.rename(new, out)
    except BaseException:
        os.rename(old, out)
        raise
    shutil.rmtree(old, ignore_errors=True)


def timestamp() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
