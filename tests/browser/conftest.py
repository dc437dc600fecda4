"""A real Jupyter server (JupyterLab) and a real headless Chromium for the widget tests: Playwright drives the
chromium of the operating system's package manager (``apt-get install chromium``), never a browser build of its
own.  Without playwright or chromium every test here skips with one line saying what is missing (fails, under
``make test-browser``, which sets ``SIMS_BROWSER_REQUIRED=1``)."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

START = 180  # seconds for the server to answer on a loaded machine


def chromium() -> str | None:
    """The system's chromium (Debian: ``chromium``; Ubuntu's older name ``chromium-browser``)."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


def pytest_collection_modifyitems(items):
    """Every test here is ``browser``, and one worker runs them all (``--dist loadgroup``): one server, one page."""
    for item in items:
        if Path(str(item.fspath)).parent == Path(__file__).parent:
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.xdist_group("browser"))


def _unavailable(reason: str):
    if os.environ.get("SIMS_BROWSER_REQUIRED"):
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed: pip install '.[browser]'")
    path = chromium()
    if path is None:
        _unavailable("no chromium on the PATH: apt-get install chromium (make test-browser does it as root)")
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=path, headless=True)
        yield launched
        launched.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Lab:
    """A JupyterLab server on ``root`` (a scratch folder: nothing it autosaves reaches the repository)."""

    def __init__(self, root: Path):
        import sims

        self.root, self.token, port = root, secrets.token_hex(16), _free_port()
        self.url = f"http://127.0.0.1:{port}"
        settings = root / ".lab" / "settings"
        tracker = settings / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings"
        tracker.parent.mkdir(parents=True)
        tracker.write_text(json.dumps({"windowingMode": "none"}))  # every cell in the page, scrolled or not
        news = settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
        news.parent.mkdir(parents=True)
        news.write_text(json.dumps({"fetchNews": "false", "checkForUpdates": False}))  # no toast over the cells
        package = str(Path(sims.__file__).resolve().parents[1])  # the kernel imports the sims these tests do
        env = {
            **os.environ,
            "JUPYTERLAB_SETTINGS_DIR": str(settings),
            "JUPYTERLAB_WORKSPACES_DIR": str(root / ".lab" / "workspaces"),
            "JUPYTER_RUNTIME_DIR": str(root / ".lab" / "runtime"),
            "PYTHONPATH": os.pathsep.join(p for p in (package, os.environ.get("PYTHONPATH")) if p),
        }
        self.log = root / ".lab" / "server.log"
        with open(self.log, "w") as log:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "jupyter",
                    "lab",
                    "--no-browser",
                    "--ip=127.0.0.1",
                    f"--port={port}",
                    "--ServerApp.port_retries=0",
                    f"--ServerApp.root_dir={root}",
                    f"--IdentityProvider.token={self.token}",
                    "--LabApp.expose_app_in_browser=True",
                    "--ServerApp.allow_root=True",
                ],  # CI runs as root
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self._wait()

    def _wait(self):
        deadline = time.monotonic() + START
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            try:
                with urllib.request.urlopen(f"{self.url}/api/status?token={self.token}", timeout=5) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.5)
        ended = self.process.poll()
        self.stop()
        why = f"exited with status {ended}" if ended is not None else f"did not answer within {START} s"
        pytest.fail(f"JupyterLab {why}:\n{self.log.read_text()[-2000:]}")

    def notebook_url(self, name: str) -> str:
        return f"{self.url}/lab/tree/{name}?token={self.token}"

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    server = Lab(tmp_path_factory.mktemp("lab"))
    yield server
    server.stop()
