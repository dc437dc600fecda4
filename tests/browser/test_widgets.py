"""The notebook widgets in a real browser: notebook 08 opened in JupyterLab in headless Chromium, every cell run,
a control changed as a reader changes it (a card of the discard explorer, the cards played in the pegging
advisor), and the table the page then shows checked against the same advisor called in this process; and the
explorer's table fitting a notebook 1280 pixels wide."""

from __future__ import annotations

import json
import os
import shutil
import struct
from pathlib import Path

import pytest

from sims.cribbage.advice import advise
from sims.cribbage.discards import analyze_discards
from sims.cribbage.situation import PegSituation

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "08-discard-explorer.ipynb"
WAIT = int(
    os.environ.get("SIMS_BROWSER_WAIT", 300_000)
)  # ms for a page or a kernel to answer: a fresh kernel loads the advisors' kernels from the cache
FIRST_ROW = """([output, unlike]) => {
    const table = output.querySelector('table.dataframe');
    if (!table) return null;
    const head = [...table.querySelectorAll('thead tr:first-child th')].map(th => th.innerText.trim());
    const cells = [...table.querySelector('tbody tr').children].map(td => td.innerText.trim());
    const row = Object.fromEntries(head.map((name, i) => [name, cells[i]]));
    return JSON.stringify(row) === JSON.stringify(unlike) ? null : row;
}"""


def cells():
    return json.loads(NOTEBOOK.read_text())["cells"]


def parameters() -> dict:
    """The notebook's parameters cell, run here: the values its widgets start from."""
    found = {}
    exec("".join(next(c for c in cells() if "parameters" in c["metadata"].get("tags", []))["source"]), found)
    return found


@pytest.fixture(scope="module")
def page(browser, lab):
    """Notebook 08 in JupyterLab with every cell run and the kernel idle again."""
    shutil.copy(NOTEBOOK, lab.root)
    opened = browser.new_page(viewport={"width": 1400, "height": 1000})
    opened.set_default_timeout(WAIT)
    opened.goto(lab.notebook_url(NOTEBOOK.name))
    opened.wait_for_function(f"() => window.jupyterapp?.shell.currentWidget?.context?.path === {NOTEBOOK.name!r}")
    opened.evaluate("""async () => {
        const notebook = window.jupyterapp.shell.currentWidget;
        await notebook.context.ready;
        await notebook.sessionContext.ready;
        await window.jupyterapp.commands.execute('notebook:run-all-cells');
    }""")
    opened.wait_for_function(
        "() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status === 'idle'"
    )
    yield opened
    opened.close()


def widget_output(page, call: str):
    """The output widget of the cell that displays ``call`` (waited for until the page shows it)."""
    index = next(i for i, c in enumerate(cells()) if call in "".join(c["source"]))
    output = page.locator(".jp-Notebook .jp-Cell").nth(index).locator(".widget-output")
    output.wait_for()
    return output


def first_row(page, output, unlike=None) -> dict:
    """The first row of the table ``output`` shows, by column, once there is one (and it is not ``unlike``)."""
    return page.wait_for_function(FIRST_ROW, arg=[output.element_handle(), unlike]).json_value()


def test_changing_a_card_of_the_discard_explorer_redraws_the_advisors_table(page):
    p = parameters()

    def expected(hand):
        return analyze_discards(
            hand,
            p["ROLE"],
            p["RULES"],
            crib=list(p["CRIB"]),
            score=p["SCORE"] or None,
            sort="net",
            samples=p["SAMPLES"],
            seed=p["SEED"],
        ).iloc[0]

    output = widget_output(page, "explorer(")
    shown = first_row(page, output)
    best = expected(p["HAND"])
    assert (shown["thrown"], float(shown["net"])) == (best["thrown"], pytest.approx(best["net"], abs=5e-4))

    cards = page.locator(".jp-Notebook .jupyter-widget-tagsinput").first
    old, new = p["HAND"].split()[-1], "QD"
    assert new not in p["HAND"].split()
    cards.locator(".jupyter-widget-tag", has_text=old).locator(".jupyter-widget-tag-close").click()
    with pytest.raises(ValueError) as short:
        analyze_discards(" ".join(p["HAND"].split()[:-1]), p["ROLE"], p["RULES"])
    output.get_by_text(f"cannot advise: {short.value}").wait_for()  # one card short: one line, no table
    cards.click(position={"x": 2, "y": 2})  # the box, not a tag: its input shows
    cards.locator("input.jupyter-widget-taginput").fill(new)
    cards.locator("input.jupyter-widget-taginput").press("Tab")  # the tag is added on leaving the input
    changed = first_row(page, output, unlike=shown)
    best = expected(" ".join(p["HAND"].split()[:-1] + [new]))
    assert (changed["thrown"], float(changed["net"])) == (best["thrown"], pytest.approx(best["net"], abs=5e-4))
    assert changed != shown


def test_changing_the_cards_played_in_the_pegging_advisor_redraws_its_table(page):
    p = parameters()
    peg = p["PEG"]

    def expected(played):
        situation = PegSituation(peg["hand"], played, peg["role"], peg["starter"], peg["thrown"], None, peg["rules"])
        return advise(situation, samples=p["PEG_SAMPLES"], seed=p["SEED"]).iloc[0]

    output = widget_output(page, "advisor(")
    shown = first_row(page, output)
    best = expected(peg["played"])
    assert (shown["card"], float(shown["value"])) == (best["card"], pytest.approx(best["value"], abs=5e-4))

    played = "9D 2S 5H"  # the pone led a nine, not a king: count 16, not 17
    box = output.locator("xpath=..").locator(".widget-text:has(label:text-is('played')) input")
    box.fill(played)
    box.press("Enter")
    changed = first_row(page, output, unlike=shown)
    best = expected(played)
    assert (changed["card"], float(changed["value"]), float(changed["se"])) == (
        best["card"],
        pytest.approx(best["value"], abs=5e-4),
        pytest.approx(best["se"], abs=5e-4),
    )
    output.get_by_text(f"best: {best['card']}").wait_for()
    assert changed != shown


FIT = """table => {
    const box = table.closest('.jp-OutputArea-output');
    return {table: table.scrollWidth, container: box.clientWidth, right: table.getBoundingClientRect().right,
            edge: box.getBoundingClientRect().right, body_th: table.querySelectorAll('tbody th').length,
            head: [...table.querySelectorAll('thead th')].map(th => th.innerText.trim())};
}"""


def png_width(png: bytes) -> int:
    """The width of a PNG image, from its IHDR chunk."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">I", png[16:20])[0]


def test_the_discard_explorers_table_fits_a_notebook_1280_pixels_wide(page, tmp_path):
    """At a 1280-pixel window (the side panels closed: the notebook as wide as the window) the explorer's table
    shows every column, the chance of winning included, ``rank`` first and no index beside it, and is no wider
    than the output it sits in (nothing cut, nothing to scroll); the screenshot is 1280 pixels wide."""
    page.set_viewport_size({"width": 1280, "height": 1000})
    try:
        page.evaluate("() => { window.jupyterapp.shell.collapseLeft(); window.jupyterapp.shell.collapseRight(); }")
        output = widget_output(page, "explorer(")
        first_row(page, output)  # the table is drawn
        table = output.locator("table.dataframe").first
        table.scroll_into_view_if_needed()
        fit = table.evaluate(FIT)
        assert fit["head"][0] == "rank" and fit["body_th"] == 0  # no index column
        assert {"thrown", "net", "win % [95%]", "helps most"} <= set(fit["head"])
        assert fit["table"] <= fit["container"] and fit["right"] <= fit["edge"], fit
        shot = page.screenshot(path=tmp_path / "explorer-1280.png")
        assert png_width(shot) == 1280
        assert png_width(table.screenshot()) <= fit["container"]
    finally:
        page.set_viewport_size({"width": 1400, "height": 1000})
