"""The README is short and its links lead somewhere: at most 200 lines, every relative link and the picture a
file of the checkout (the site's own links are checked by its build, ``make docs``: Sphinx -W -n)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def test_the_readme_is_at_most_200_lines():
    assert len(README.splitlines()) <= 200


def test_every_relative_link_of_the_readme_is_a_file():
    targets = re.findall(r"\]\(([^)#\s]+)\)", README)
    relative = [t for t in targets if "://" not in t]
    assert len(relative) >= 8 and any(t.endswith(".png") for t in relative)
    assert [t for t in relative if not (ROOT / t).is_file()] == []


def test_the_readme_names_no_machine_figures():
    """Timings belong on the performance page (docs/performance.md), which make bench rewrites."""
    assert not re.search(r"\d+ ?(min|s)\b(?! \d)", README.replace("`", "")), re.findall(
        r".{30}\d+ ?(?:min|s)\b", README
    )
