"""``topk bench``: the DSA workload grid, every installed backend and the peers side by side."""
