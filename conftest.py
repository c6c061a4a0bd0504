"""Repository-wide pytest hooks: the long builds first, longest first.

With pytest-xdist, ``--maxschedchunk 1`` hands each worker about one test at a time from this order, so the
slow-marked builds (minutes each, cold) start at once, spread over the workers, and the many short tests fill in
around them instead of leaving one build to run alone at the end (CI has two cores). ``slow(minutes=M)`` is a
cold-CI estimate that orders them; ``minutes(M)`` does the same for the long tests CI runs (CI leaves out the
slow-marked ones)."""


def _minutes(item) -> float | None:
    for name in ("minutes", "slow"):
        mark = item.get_closest_marker(name)
        if mark is not None:
            return float(mark.args[0] if mark.args else mark.kwargs.get("minutes", 0))
    return None


def _order(item):
    minutes = _minutes(item)
    return (minutes is None, -(minutes or 0))


def pytest_collection_modifyitems(items):
    items.sort(key=_order)  # stable: the collection order within equal keys
