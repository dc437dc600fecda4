"""Code from outside sims, imported on the user's word: a ``py:`` policy's module, a plug-in's declaration or
function, a registered game.  Whatever its import does wrong (raises anything, a SyntaxError, a numba TypingError
of an eager ``@njit(signature)``, recurses, calls ``sys.exit``) is one :class:`ForeignCodeError` naming what
failed, never a traceback or a silent exit."""

from __future__ import annotations


class ForeignCodeError(ValueError):
    """Importing someone else's module failed: one line naming the module and what it raised."""


def what_failed(exc: BaseException) -> str:
    """``TypeName: message`` on one line (``it called sys.exit(CODE)`` for a SystemExit)."""
    if isinstance(exc, SystemExit):
        return f"it called sys.exit({exc.code!r})"
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def call_foreign(load, where: str):
    """``load()``, which imports code from outside sims; any failure is a :class:`ForeignCodeError` starting with
    ``where`` (a name ``load`` does not find there is an ImportError or AttributeError like any other)."""
    try:
        return load()
    except KeyboardInterrupt:
        raise
    except (Exception, SystemExit) as exc:  # noqa: BLE001 -- the module is not ours: whatever it raised
        raise ForeignCodeError(f"{where}: {what_failed(exc)}") from None
