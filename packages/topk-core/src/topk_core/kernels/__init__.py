"""Runtime helpers that several kernel backends share (no cutlass/triton import here)."""
