"""A pytest plugin for the notebook run (``make notebooks``): a kernel that
dies while it starts is started again, up to three times.

The run starts a kernel per notebook on each xdist worker at once, and
jupyter_client picks a kernel's TCP ports by binding them and letting them
go, so two kernels started together can be given the same port; one of them
then dies before it replies ("Kernel died before replying to kernel_info",
as jupyter/nbconvert#1066 reports).  A notebook whose kernel cannot start
for another reason still fails: the third failure is raised as it is.

The kernels keep their data (the learner's progress, which a lesson's last
cell ``widgets.Progress()`` opens) in a fresh temporary folder, never in the
user's own: ``$RUMMY_DATA`` is set for them unless the run sets it already.
"""

from __future__ import annotations

import logging
import os
import tempfile
from typing import Any

import nbval.kernel

TRIES = 3
os.environ.setdefault("RUMMY_DATA", tempfile.mkdtemp(prefix="rummy-nbval-"))
_start = nbval.kernel.start_new_kernel


def start_new_kernel(*args: Any, **kwargs: Any) -> Any:
    """nbval's ``start_new_kernel``, tried again when the kernel dies starting."""
    for attempt in range(1, TRIES + 1):
        try:
            return _start(*args, **kwargs)
        except RuntimeError as error:
            if attempt == TRIES:
                raise
            logging.getLogger(__name__).warning("kernel start %d failed (%s); again",
                                                attempt, error)
    raise AssertionError("unreachable")


nbval.kernel.start_new_kernel = start_new_kernel
