"""Sphinx configuration of the documentation site (``make docs``).

Sphinx with the PyData theme and MyST-NB, the toolchain of numpy, pandas and Dask: the pages are Markdown
(MyST), the API reference comes from the numpydoc docstrings (autodoc with napoleon), the command-line reference
from the parsers as built at run time (``_ext/cli_reference.py``).  The build never executes a notebook: a
notebook is shown with its outputs when ``make notebooks`` has left a current executed copy of it
(``_ext/executed_notebooks.py``), as committed otherwise.  ``nitpicky`` with ``-W`` makes every unresolved
internal reference an error.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "_ext"))

from sims import __version__  # noqa: E402

project = "sims"
author = "the sims authors"
release = version = __version__
extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "cli_reference",
    "executed_notebooks",
]

exclude_patterns = ["_build", "examples", "rules.md", "notebooks/.ipynb_checkpoints", "**/.ipynb_checkpoints"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
nb_execution_mode = "off"  # executed outside the build (make notebooks); the tests run them too
suppress_warnings = ["myst.header"]  # the game pages include rules.md's sections, whose headings start at ###

# numpydoc-style docstrings, read by napoleon; types are shown from the annotations
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False
autodoc_typehints = "description"
autodoc_member_order = "bysource"

# every internal reference must resolve (-W makes a miss an error); outside libraries are not linked (no
# intersphinx: the build needs no network), so their names are not checked
nitpicky = True
nitpick_ignore_regex = [
    (
        r"py:.*",
        r"(numpy|np|pandas|pd|pyarrow|numba|dask|distributed|pathlib|collections"
        r"|typing|concurrent|os)\..*",
    ),
    (
        r"py:class",
        r"(Path|DataFrame|Series|ndarray|NamedTuple|Callable|Iterable|Iterator"
        r"|Sequence|Mapping|Any|optional|default.*|array.*|int64.*|callable|\.\.\.)",
    ),
    # the plain words of numpydoc types: "sequence of str", "a situation", "game rules"
    (r"py:class", r"(sequence|situation|game rules)"),
]

html_theme = "pydata_sphinx_theme"
html_title = "sims"
html_theme_options = {"navigation_with_keys": False, "show_toc_level": 2}
