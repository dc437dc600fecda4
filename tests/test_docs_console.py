"""What ``make run`` prints: one progress line per section, and the verdict table within 100 columns."""

import io

from sims.analysis.claims.command import WIDTH, SectionProgress, cut, verdict_text
from sims.analysis.claims.model import Claim, Source, equal, more

LONG = (
    "Each player makes on average twenty-five points in every two deals, whoever deals first and however "
    "well or badly the others play their cards, in the six-card game to one hundred and twenty-one."
)


def _claims() -> list[Claim]:
    source = Source("003", "003.txt", "§89", "twenty-five points in every two deals")
    return [
        Claim(
            "2",
            LONG,
            source,
            "points in two deals",
            26.489355,
            (26.4475254, 26.5311846),
            200_000,
            equal(25.0, 0.5, "a round number"),
        ),
        Claim(
            "3a",
            "The first dealer has some trifling advantage.",
            source,
            "first dealer's wins",
            0.533,
            (0.527, 0.540),
            20_000,
            more(0.5, 0.005, "a trifle", cap=0.6),
            reading="more than half",
            percent=True,
        ),
    ]


def test_cut_keeps_what_fits_and_marks_a_cut():
    assert cut("twenty-five", 11) == "twenty-five"
    assert cut("twenty-five points", 12) == "twenty-five…" and len(cut(LONG, 40)) == 40


def test_the_verdict_table_fits_the_terminal_and_keeps_every_figure():
    lines = verdict_text(_claims()).splitlines()
    assert max(map(len, lines)) <= WIDTH
    assert lines[0].split() == ["claim", "verdict", "estimate", "[95%", "CI]", "n", "claimed"]
    # a line of figures per claim, as the report gives them, and its statement under the verdict column
    assert lines[1].split() == ["2", "not", "supported", "26.49", "[26.45,", "26.53]", "200,000", "=", "25.00", "±0.5"]
    assert lines[2] == " " * 7 + cut(LONG, WIDTH - 7) and lines[2].endswith("…")
    assert lines[3].split()[:2] == ["3a", "supported"] and "> 50.0%, under 60.0% ±0.5%" in lines[3]
    assert lines[4].strip() == "The first dealer has some trifling advantage. (reading: more than half)"
    assert len(lines) == 1 + 2 * 2


def test_a_narrower_terminal_cuts_the_statements_shorter():
    assert max(map(len, verdict_text(_claims(), width=80).splitlines())) <= 80


def test_one_progress_line_per_section():
    out = io.StringIO()
    progress = SectionProgress(file=out)
    for message in [
        "1. Scoring",
        "  cribbage deals: six-card, greedy + greedy, n=200,000 ...",
        "  cribbage deals: six-card, expected_net + defensive, n=200,000 + records ...",
        "2. Twenty-five points in two deals",
        "  cribbage deals: six-card, greedy + greedy, n=200,000 ...",
        "12. A game of another package",
        "  not run: needs the game 'whist', not in the package yet",
    ]:
        progress(message)
    progress.close()
    # tqdm rewrites a section's line in place (carriage returns); each section ends its line once
    final = [line.split("\r")[-1].rstrip() for line in out.getvalue().split("\n") if line.strip()]
    assert final[:2] == [
        "1. Scoring [00:00, simulations: 2]",
        "2. Twenty-five points in two deals [00:00, simulations: 1]",
    ]
    assert final[2].startswith("12. A game of another package [00:00, simulations: 0], not run: needs the game")
    assert len(final) == 3 and max(map(len, final)) <= WIDTH  # a line is cut at the terminal's width


def test_the_bench_writes_its_figures_into_the_performance_page(tmp_path):
    """python -m sims.bench --page: the figures go between the page's markers; the rest of the page stays."""
    from sims.bench import PAGE_BEGIN, PAGE_END, write_page

    page = tmp_path / "performance.md"
    page.write_text(f"# Performance\n\nby hand: 1 min 3 s\n\n{PAGE_BEGIN}\nold figures\n{PAGE_END}\nafter\n")
    rows = [{"what": "shows", "per second": 1_234_567.0}, {"what": "deals", "per second": 0.5}]
    write_page(page, {"scoring": rows}, when="2026-12-06 05:00 UTC", on="a test machine")
    text = page.read_text()
    assert text.startswith("# Performance\n\nby hand: 1 min 3 s\n\n") and text.endswith(f"{PAGE_END}\nafter\n")
    measured = text.split(PAGE_BEGIN)[1].split(PAGE_END)[0]
    assert "old figures" not in measured and "Measured 2026-12-06 05:00 UTC on a test machine." in measured
    assert "### scoring" in measured and "1,234,567" in measured and "0.5" in measured


def test_the_committed_performance_page_has_the_markers():
    from pathlib import Path

    from sims.bench import PAGE_BEGIN, PAGE_END

    text = (Path(__file__).resolve().parents[1] / "docs" / "performance.md").read_text()
    assert text.count(PAGE_BEGIN) == 1 and text.index(PAGE_BEGIN) < text.index(PAGE_END)
