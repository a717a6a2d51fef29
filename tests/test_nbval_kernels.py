"""The notebook run's kernel-start retry (tests/nbval_kernels.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests import nbval_kernels


def test_a_kernel_that_dies_starting_is_started_again(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict[str, Any]] = []

    def flaky(**kwargs: Any) -> str:
        calls.append(kwargs)
        if len(calls) < nbval_kernels.TRIES:
            raise RuntimeError("Kernel died before replying to kernel_info")
        return "started"

    monkeypatch.setattr(nbval_kernels, "_start", flaky)
    assert nbval_kernels.start_new_kernel(kernel_name="python3") == "started"
    assert calls == [{"kernel_name": "python3"}] * nbval_kernels.TRIES


def test_a_kernel_that_never_starts_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    def dead(**kwargs: Any) -> str:
        raise RuntimeError("Kernel died before replying to kernel_info")

    monkeypatch.setattr(nbval_kernels, "_start", dead)
    with pytest.raises(RuntimeError, match="Kernel died"):
        nbval_kernels.start_new_kernel(kernel_name="python3")


def test_nbval_starts_kernels_through_it() -> None:
    import nbval.kernel

    assert nbval.kernel.start_new_kernel is nbval_kernels.start_new_kernel
