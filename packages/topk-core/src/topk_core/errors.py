"""Exceptions raised by topk_core."""


class BackendNotSupportedError(RuntimeError):
    """A named backend cannot run this problem on this device; the message says why."""

    def __init__(self, backend: str, reason: str):
        super().__init__(f"backend {backend!r} cannot run this call: {reason}")
        self.backend = backend
        self.reason = reason
