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


def _constructor_types(app, what, name, obj, options, signature, return_annotation):
    """A class's parameters are described by its ``__init__``'s annotations: autodoc reads the class's own
    annotations, which for the situations are the types of the facts as kept (``hand: tuple[int, ...]``), not
    what the constructor takes (``"7H 8C 5D"``).  Runs after autodoc has recorded the class's types; a Sphinx
    that keeps them elsewhere fails the build here."""
    import inspect
    import typing

    from sphinx.util.typing import stringify_annotation

    if what != "class" or not inspect.isfunction(obj.__init__):
        return

    recorded = app.env.current_document.autodoc_annotations[name]
    for param, hint in typing.get_type_hints(obj.__init__).items():
        if param != "return":
            recorded[param] = stringify_annotation(hint, "fully-qualified")


def setup(app):
    app.connect("autodoc-process-signature", _constructor_types, priority=900)
