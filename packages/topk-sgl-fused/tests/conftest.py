"""The interpreter must be on before any Triton kernel is imported (``@triton.jit`` decides
at decoration time). Off the GPU, every test here runs through TRITON_INTERPRET=1."""

import os

import torch

if not torch.cuda.is_available():
    os.environ.setdefault("TRITON_INTERPRET", "1")
