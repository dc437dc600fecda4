"""The ``sims`` command line.

Each sub-command is a module of this package that defines::

    COMMAND = "score"                    # the sub-command's name
    HELP = "one line for sims --help"
    def add_arguments(parser): ...       # argparse arguments (``--json`` is added for you);
                                         # with GAME_AWARE = True: add_arguments(parser, game)
    def run(args) -> dict: ...           # does the work, returns a JSON-able result
    def render(result) -> str: ...       # the human-readable text

Bad input raises ``ValueError`` (or a subclass); :func:`main` turns it into one
line on stderr and exit status 2, without a traceback.
"""
from __future__ import annotations

import argparse
import gc
import importlib
import json
import pkgutil
import sys

from .. import __version__


class CliError(ValueError):
    """A user error to report in one line."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's usage errors: one line, exit 2
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise SystemExit(2)


def _commands(only=None):
    """Command modules by name; ``only`` imports just the module of that command (fast start-up)."""
    names = [info.name for info in pkgutil.iter_modules(__path__)]
    wanted = only.replace("-", "_") if only else None
    found = {}
    for name in [wanted] if wanted in names else names:
        module = importlib.import_module(f"{__name__}.{name}")
        if hasattr(module, "COMMAND"):
            found[module.COMMAND] = module
    return dict(sorted(found.items())) if found else _commands()


def build_parser(only=None, argv=()):
    parser = _Parser(prog="sims", description="Monte Carlo strategy lab for period card games: cribbage, "
                                              "All Fours and Loo.")
    parser.add_argument("--version", action="version", version=f"sims {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    game = None
    for name, module in _commands(only).items():
        p = sub.add_parser(name, help=module.HELP.replace("%", "%%"), description=module.HELP)
        if getattr(module, "GAME_AWARE", False):
            from ..core.registry import get_game
            from .common import game_of

            game = game or get_game(game_of(argv))
            module.add_arguments(p, game)
        else:
            module.add_arguments(p)
        p.add_argument("--json", action="store_true", help="print the result as JSON")
        p.set_defaults(_module=module)
    return parser


def main(argv=None) -> int:
    """Run a command line, by default this process's (``sys.argv``); returns the exit status.

    Ctrl-C at any moment, importing numba included, is one line and status 130.  As the
    process's own command line, the objects made at start-up (numba's, about 100,000) are
    frozen for the garbage collector, which would otherwise walk them again at every full
    collection and when the interpreter exits (0.2 s of a warm ``sims discard``'s 0.85 s).
    """
    program = argv is None
    try:
        return _run(sys.argv[1:] if program else list(argv), program)
    finally:
        if program:
            gc.freeze()


def _run(argv: list[str], program: bool) -> int:
    try:
        parser = build_parser(only=argv[0] if argv and not argv[0].startswith("-") else None, argv=argv)
        if program:
            gc.freeze()
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:     # --help, --version, or a usage error already reported in one line
            return exc.code
        if args.command is None:
            parser.print_help()
            return 2
        _check_shared_flags(args)
        result = args._module.run(args)
    except (ValueError, FileNotFoundError, FileExistsError, KeyError, OverflowError) as exc:
        message = exc.args[0] if exc.args else type(exc).__name__
        sys.stderr.write(f"sims {argv[0] if argv else ''}: error: {' '.join(str(message).split())}\n")
        return 2
    except MemoryError:
        sys.stderr.write(f"sims {argv[0] if argv else ''}: error: not enough memory for this run: ask for fewer "
                         f"items, or drop --records\n")
        return 2
    except KeyboardInterrupt as exc:
        sys.stderr.write(f"sims {argv[0] if argv else ''}: {exc.args[0] if exc.args else 'interrupted'}\n")
        return 130
    text = json.dumps(result, indent=2, default=_jsonable) if args.json else args._module.render(result)
    try:
        print(text)
    except BrokenPipeError:  # e.g. piped into head
        sys.stderr.close()
    return 0


def _check_shared_flags(args) -> None:
    """``--seed`` and ``--threads`` mean the same in every command: checked here, before it starts (threads against
    this machine's numba, unless they are per worker of a remote ``--scheduler``)."""
    if getattr(args, "seed", None) is not None:
        from ..core.rng import check_seed

        check_seed(args.seed)
    if getattr(args, "threads", None) is not None and getattr(args, "scheduler", None) is None:
        from ..core.chunks import check_threads

        check_threads(args.threads)


def _jsonable(obj):
    if hasattr(obj, "tolist"):
        return obj.tolist()
    if hasattr(obj, "item"):
        return obj.item()
    raise TypeError(f"not JSON serialisable: {type(obj).__name__}")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
