"""No kernel of sims or of the worked example takes more than twelve arguments: what belongs together travels as
one tuple (the core's item loops, the games' play-outs), so that a kernel's signature can be read."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MOST = 12


def kernels(path: Path):
    """``(name, arguments)`` of every function of ``path`` that ``njit`` compiles: decorated, or wrapped as
    ``njit(SIG, ...)(function)``."""
    tree = ast.parse(path.read_text())
    functions = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}

    def is_njit(node):
        target = node.func if isinstance(node, ast.Call) else node
        return isinstance(target, ast.Name) and target.id == "njit"

    for function in functions.values():
        if any(is_njit(d) for d in function.decorator_list):
            yield function.name, len(function.args.args)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Call) and is_njit(node.func):
            for arg in node.args:
                if isinstance(arg, ast.Name) and arg.id in functions:
                    yield arg.id, len(functions[arg.id].args.args)


def test_no_kernel_takes_more_than_twelve_arguments():
    files = [*(ROOT / "sims").rglob("*.py"), *(ROOT / "docs" / "examples").rglob("*.py")]
    found = {f"{path.relative_to(ROOT)}:{name}": n for path in files for name, n in kernels(path)}
    assert len(found) > 300  # the scan sees the kernels
    assert {k: n for k, n in found.items() if n > MOST} == {}


def test_the_scan_sees_a_wrapped_kernel_and_counts_its_arguments(tmp_path):
    source = tmp_path / "wrapped.py"
    source.write_text(
        "def step(a, b, c):\n    return a\n\nkernel = njit(SIG, cache=True)(step)\n\n"
        "@njit(cache=True)\ndef helper(x):\n    return x\n"
    )
    assert sorted(kernels(source)) == [("helper", 1), ("step", 3)]
