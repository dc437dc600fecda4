"""The test run's worker groups hold: under ``make test`` (``pytest -n 2 --dist loadgroup``) every test marked
``xdist_group`` is sent to the one worker of its group, so a group's shared set-up (a Jupyter kernel, a wheel, a
browser, a Dask cluster, a lazily compiled kernel) is paid once.

pytest-xdist sends a group to one worker by the group's name, which each worker appends to the test's node id.
pytest 9.2 keeps node ids where pytest-xdist 3.8 cannot append it, and the marks were then ignored without a word
(pytest-dev/pytest-xdist#1386): every group's set-up ran on both workers.  pyproject.toml keeps pytest below 9.2;
this test fails if a pair of versions drops the groups again."""

import pytest

pytestmark = pytest.mark.xdist_group("groups")  # so that at least this test is grouped, in any selection


def test_every_grouped_test_carries_its_group_to_the_scheduler(request):
    if not request.config.getoption("loadgroup", False):
        pytest.skip("groups are scheduled only under --dist loadgroup (make test)")
    grouped = {
        item.nodeid: mark.args[0] if mark.args else mark.kwargs.get("name", "default")
        for item in request.session.items
        for mark in item.iter_markers("xdist_group")
    }
    assert request.node.nodeid in grouped
    untagged = [nodeid for nodeid, group in grouped.items() if not nodeid.endswith(f"@{group}")]
    assert untagged == [], f"{len(untagged)} grouped tests would be scheduled alone, e.g. {untagged[:3]}"
