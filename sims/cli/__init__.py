"""The ``sims`` command line.

Each sub-command is a module registered in the entry-point group ``sims.commands`` (the
entry's name is the command's, its value the module), so a game's own commands come from
its distribution as its ``Game`` does::

    [project.entry-points."sims.commands"]
    mycommand = "mygame.commands.mycommand"

and the module defines::

    HELP = "one line for sims --help"
    EXAMPLES = ["sims score ...", ...]   # the foot of its --help
    def add_arguments(parser): ...       # argparse arguments (``--json`` is added for you);
                                         # with GAME_AWARE = True: add_arguments(parser, game)
    def run(args) -> dict: ...           # does the work, returns a JSON-able result
    def render(result) -> str: ...       # the human-readable text

Bad input raises ``ValueError`` (or a subclass); :func:`main` turns it, and whatever the user's files,
environment, plug-ins or ``py:`` modules make go wrong, into one line on stderr and exit status 2, without a
traceback (:mod:`sims.cli.boundary`).  ``sims --help`` and ``--version``
import no command module: the commands' names and help are read from their sources.
"""

from __future__ import annotations

import argparse
import ast
import gc
import json
import os
import signal
import sys
from importlib.metadata import EntryPoint

from .. import __version__
from ..core.collector import YOUNG


class CliError(ValueError):
    """A user error to report in one line."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's usage errors: one line, exit 2
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise SystemExit(2)


class _Formatter(argparse.HelpFormatter):
    """argparse's help, with the examples block kept line by line."""

    def _fill_text(self, text, width, indent):
        if text.startswith("examples:"):
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


GROUP = "sims.commands"


def _declared(helps: bool = True) -> dict[str, tuple[EntryPoint, str | None]]:
    """``{command: (entry point, HELP)}`` of the group :data:`GROUP`, each HELP read from the module's source, none
    imported (an entry whose module is not installed, metadata left behind, is left out); a command registered
    twice, by different modules, is a one-line error.  ``helps=False``: no HELP read (None), for a command line
    that names its command, whose parser shows no other command's help."""
    from ..core.metadata import entry_points
    from ..core.sources import module_file

    found: dict[str, tuple[EntryPoint, str | None]] = {}
    for ep in sorted(entry_points(group=GROUP), key=lambda ep: ep.name):
        if ep.name in found and found[ep.name][0].value != ep.value:
            raise ValueError(
                f"the command {ep.name} is registered twice in {GROUP}: {found[ep.name][0].value} and {ep.value}"
            )
        path = module_file(ep.value)
        if path is not None:
            found[ep.name] = (ep, _help(path) if helps else None)
    return found


def _help(path) -> str:
    """The ``HELP`` a command module's source assigns, read without importing it."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    values = {
        target.id: node.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    return ast.literal_eval(values["HELP"])


def build_parser(only=None, argv=()):
    """The parser; only the module of command ``only`` is imported and gets its arguments."""
    parser = _Parser(
        prog="sims",
        description="Monte Carlo strategy lab for period card games: cribbage, All Fours and Loo.",
        epilog="sims COMMAND --help: a command's options and examples",
    )
    parser.add_argument("--version", action="version", version=f"sims {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    game = None
    for name, (entry, help_text) in _declared(helps=only is None).items():
        if name != only:
            sub.add_parser(name, help=help_text and help_text.replace("%", "%%"))
            continue
        module = entry.load()
        help_text = module.HELP
        epilog = "examples:\n" + "\n".join(f"  {line}" for line in module.EXAMPLES)
        p = sub.add_parser(
            name, help=help_text.replace("%", "%%"), description=help_text, epilog=epilog, formatter_class=_Formatter
        )
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
    collection and when the interpreter exits (0.2 s of a warm ``sims discard``'s 0.85 s);
    and the collector waits while the command's modules are imported (they make objects that
    live as long as the process, which it would walk a few hundred times for nothing).  While the
    command runs, the youngest generation is collected every :data:`YOUNG` new objects rather than
    every 700: the first kernels loaded make some 10^5 lasting objects, and the default had the
    collector run about 150 times (0.1 s) before a warm ``sims peg`` answered.
    """
    program = argv is None
    if program:  # sims/__init__ quietly ended a Ctrl-C during start-up; from here it is one line and 130
        signal.signal(signal.SIGINT, signal.default_int_handler)
        gc.disable()
    try:
        return _run(sys.argv[1:] if program else list(argv), program)
    finally:
        if program:
            gc.freeze()
            gc.enable()  # whatever ended the command (a usage error before the collector came back)


def _run(argv: list[str], program: bool) -> int:
    """Parse and run a command line inside the error boundary (:mod:`sims.cli.boundary`)."""
    try:
        if os.environ.get("SIMS_CACHE_DIR"):  # before a command module touches the kernel cache
            from .boundary import check_environment

            check_environment()
        parser = build_parser(only=argv[0] if argv and not argv[0].startswith("-") else None, argv=argv)
        if program:
            gc.freeze()
            gc.set_threshold(YOUNG, *gc.get_threshold()[1:])
            gc.enable()
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # --help, --version, or a usage error already reported in one line
            return exc.code
        if args.command is None:
            parser.print_help()
            return 2
        _check_shared_flags(args)
        result = args._module.run(args)
        from .boundary import write_out

        write_out(json.dumps(result, indent=2, default=_jsonable) if args.json else args._module.render(result))
    except (Exception, KeyboardInterrupt) as exc:  # noqa: BLE001 -- one line for the user's errors, a bug's traceback
        from .boundary import report

        return report(exc, argv[0] if argv else "")
    return 0


def _check_shared_flags(args) -> None:
    """``--seed``, ``--threads`` and ``--workers`` mean the same in every command: checked here, before it starts
    (threads against this machine's numba, unless they are per worker of a remote ``--scheduler``)."""
    if getattr(args, "seed", None) is not None:
        from ..core.rng import check_seed

        check_seed(args.seed)
    if getattr(args, "threads", None) is not None and getattr(args, "scheduler", None) is None:
        from ..core.chunks import check_threads

        check_threads(args.threads)
    if getattr(args, "workers", None) is not None:
        from ..core.executors import check_workers

        check_workers(args.workers)


def _jsonable(obj):
    if hasattr(obj, "tolist"):
        return obj.tolist()
    if hasattr(obj, "item"):
        return obj.item()
    raise TypeError(f"not JSON serialisable: {type(obj).__name__}")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
