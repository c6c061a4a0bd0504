"""Repository-wide pytest hooks: the long builds first, longest first.

With pytest-xdist, ``--maxschedchunk 1`` hands each worker about one test at a time from this order, so the
slow-marked builds (minutes each, cold) start at once, spread over the workers, and the many short tests fill in
around them instead of leaving one build to run alone at the end (CI has two cores). ``slow(minutes=M)`` is a
cold-CI estimate that orders them."""


def _order(item):
    slow = item.get_closest_marker("slow")
    return (slow is None, -(slow.kwargs.get("minutes", 0) if slow else 0))


def pytest_collection_modifyitems(items):
    items.sort(key=_order)  # stable: the collection order within equal keys
