"""The main job: ``python -m sims.analysis.claims [--full] [--out data/reports] [--quiet] [--seed N] [--only 2 3 ...]``.

Runs every section (:func:`sims.analysis.claims.sections`), one progress line per section on stderr, prints the
verdict table fitted to a terminal of :data:`WIDTH` columns and writes the report (:mod:`sims.analysis.report`)
into ``data/reports/``, whose path it prints last.  The default size finishes in a few minutes on 2 cores;
``--full`` runs publication-size simulations.
"""

from __future__ import annotations

import argparse
import sys
import time

import pandas as pd

from ..report import environment, timestamp, write_report
from . import run_claims, sections
from .context import Context
from .model import VERDICT_RULE

# (deals per simulation, games per simulation)
SIZES = {"default": (200_000, 20_000), "full": (10_000_000, 1_000_000)}
WIDTH = 100  # the terminal the console output fits; the report keeps every statement whole


def cut(text: str, room: int) -> str:
    """``text`` in at most ``room`` characters, a cut one ending in an ellipsis."""
    return text if len(text) <= room else text[: max(room - 1, 0)].rstrip() + "…"


def verdict_text(claims, width: int = WIDTH) -> str:
    """The verdict table as fixed-width text for a terminal of ``width`` columns (tabulate): a line for each
    claim's verdict, estimate [95% CI], n and what is claimed with its margin, and under it the statement, cut
    to the width (the report gives the statements whole, with the sources)."""
    from tabulate import tabulate

    head = ("claim", "verdict", "estimate [95% CI]", "n", "claimed")
    rows = [(c.id, c.verdict, c.format_estimate(), f"{c.n:,}", f"{c.claimed_text()} {c.margin_text()}") for c in claims]
    text = tabulate(
        [head, *rows],
        tablefmt="plain",
        disable_numparse=True,  # the head as a row: no extra padding
        colalign=["left"] * len(head),
    )
    lines = [cut(line.rstrip(), width) for line in text.splitlines()]
    indent = " " * lines[0].index("verdict")  # the statement under the verdict column
    out = lines[:1]
    for line, c in zip(lines[1:], claims):
        statement = c.statement + (f" (reading: {c.reading})" if c.reading else "")
        out += [line, indent + cut(statement, width - len(indent))]
    return "\n".join(out)


class SectionProgress:
    """The run's log as one progress line per section (tqdm): a section's heading (an unindented log line) opens
    its line, and each simulation the section runs (an indented line) advances it, shown while it runs."""

    FORMAT = "{desc} [{elapsed}, simulations: {n_fmt}]{postfix}"

    def __init__(self, file=None, width: int = WIDTH):
        self.file, self.width, self.bar = file, width, None

    def __call__(self, message: str) -> None:
        from tqdm import tqdm

        if not message.startswith(" "):
            self.close()
            self.bar = tqdm(
                desc=cut(message, self.width // 2),
                file=self.file or sys.stderr,
                leave=True,
                bar_format=self.FORMAT,
                ncols=self.width,
            )
        elif self.bar is not None:
            what = message.strip().removesuffix(" ...")
            if not what.startswith("not run"):
                self.bar.update(1)
            self.bar.set_postfix_str(cut(what, self.width // 2))

    def close(self) -> None:
        """End the open section's line (what ran last is left out of it; a section not run says why)."""
        if self.bar is not None:
            if not str(self.bar.postfix or "").startswith("not run"):
                self.bar.set_postfix_str("", refresh=False)
            self.bar.close()
            self.bar = None


def report_games() -> list[str]:
    """The games whose claims the report runs (:func:`sims.core.registry.claims_by_game`), in the order of their
    first section."""
    from sims.core.registry import claims_by_game

    owner = {package: game for game, package in claims_by_game().items()}
    return list(
        dict.fromkeys(
            game
            for module in sections().values()
            for package, game in owner.items()
            if module.__name__.startswith(package + ".")
        )
    )


def announce_compiling() -> None:
    """Before the first section compiles anything: a line for each game of the report (:func:`report_games`) whose
    kernels are not cached yet (:func:`sims.core.first_run.announce`; a section's first kernels would otherwise
    fill its game's line)."""
    from sims.core.first_run import announce
    from sims.core.registry import get_game

    for name in report_games():
        announce(get_game(name))


def rules_tables(ctx: Context) -> dict[str, pd.DataFrame]:
    """Every field of the rules each game's simulations used, one table per game."""
    by_game: dict[str, list] = {}
    for (game, _label), rules in ctx.rules_used().items():
        by_game.setdefault(game, []).append(rules)
    return {f"rules ({game})": pd.DataFrame(rows) for game, rows in by_game.items()}


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m sims.analysis.claims",
        description=("Check every period claim by simulation, print the verdicts and write the report."),
    )
    p.add_argument("--full", action="store_true", help="publication-size runs (default: a few minutes on 2 cores)")
    p.add_argument("--out", default="data/reports", help="report directory (default: data/reports)")
    p.add_argument("--quiet", action="store_true", help="no progress messages")
    p.add_argument("--seed", type=int, default=1, help="master seed of every simulation (default: 1)")
    p.add_argument("--deals", type=int, help="deals per deal simulation (overrides the size)")
    p.add_argument("--games", type=int, help="games per game simulation (overrides the size)")
    p.add_argument("--only", nargs="+", metavar="N", help="run only these sections (numbers)")
    return p


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    try:
        deals, games = SIZES["full" if args.full else "default"]
        deals, games = args.deals or deals, args.games or games
        if deals < 1 or games < 1:
            raise ValueError("--deals and --games must be positive")
        progress = SectionProgress()
        log = (lambda m: None) if args.quiet else progress
        if not args.quiet:
            announce_compiling()
        ctx = Context(deals=deals, games=games, seed=args.seed, log=log)
        start = time.perf_counter()
        try:
            done, skipped = run_claims(ctx, args.only)
        finally:
            progress.close()
        claims = [c for s in done for c in s.claims]
        print(verdict_text(claims))
        for number, title, reason in skipped:
            print(f"not run: {number}. {title}: {reason}")
        runs = pd.DataFrame(ctx.runs)
        command = "python -m sims.analysis.claims " + " ".join(argv if argv is not None else sys.argv[1:])
        provenance = {
            "command": command,
            "seed": args.seed,
            "deals per simulation": deals,
            "games per simulation": games,
            "simulations": runs.drop(columns="seconds", errors="ignore"),
            **rules_tables(ctx),
        }
        run_details = {
            "generated": timestamp(),
            "wall time (s)": round(time.perf_counter() - start, 1),
            **environment(),
            "simulations": runs,
        }
        path = write_report(done, args.out, provenance, skipped, preamble=VERDICT_RULE, run_details=run_details)
        print(f"report: {path}")
    except ValueError as exc:
        print(f"sims.analysis.claims: error: {exc}", file=sys.stderr)
        return 2
    return 0
