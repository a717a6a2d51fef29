"""Views built in one breath: widgets made say nothing while they are made,
then each is opened once, with its whole state.

Building a view sends a ``comm_open`` per widget and an update per change
after it: a seat at the Big Table was 436 messages (half a megabyte) that the
kernel composed and signed, the server read and passed on, and the page
applied one by one.  Built unheard (:func:`unheard`), the same view is one
``comm_open`` per widget, each carrying the state the widget ended with.

- In a preheated Voilà kernel the app is built before its page has even
  loaded its scripts: nobody would hear, and the page asks for every
  widget's state once it connects (``widgets.apps``).
- On a page that is connected (:func:`built_at_once`), the widgets are
  opened at the end, those a widget's state names first (a box after its
  children), as :func:`announce` does.
- An app built in a kernel that no page waited for (:func:`opened_at_end`:
  the static site's, in the page itself) is opened the same way: 200
  ``comm_open`` and no update for a Three Thirteen table, where it was 200
  and 171.

Only a kernel (ipykernel) has comms to keep quiet: anywhere else the widgets
are made as usual.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import comm
import ipywidgets as w
from ipywidgets.widgets.widget import _instances, _remove_buffers

__all__ = ["unheard", "built_at_once", "opened_at_end", "announce", "in_order"]

#: How many :func:`unheard` blocks the kernel is in (an inner one leaves its
#: widgets to the outer one, which opens them all in order).
_DEPTH = [0]


@contextlib.contextmanager
def unheard(*, tell: bool = False) -> Iterator[None]:
    """Widgets made inside say nothing while they are made, then talk as
    usual; if a page already asked for every widget's state (ipywidgets'
    control comm is open), or ``tell``, they are announced (:func:`announce`).
    Inside another such block it changes nothing: the outer one keeps them all."""
    if _DEPTH[0]:
        yield
        return
    kernel_class: Any = None
    if isinstance(comm.create_comm, type):  # Pyodide's kernel (the static site): its class
        base: type = comm.create_comm
    else:  # ipykernel's own classes (zmq, tornado): only a kernel comes here
        from ipykernel.comm.comm import BaseComm  # what its create_comm makes
        from ipykernel.kernelbase import Kernel

        base, kernel_class = BaseComm, Kernel

    class Unheard(base):  # type: ignore[misc, valid-type]
        quiet = True

        def publish_msg(self, *args: Any, **kwargs: Any) -> None:
            if not self.quiet:
                super().publish_msg(*args, **kwargs)

    made: list[Unheard] = []

    def create(*args: Any, **kwargs: Any) -> Unheard:
        made.append(Unheard(*args, **kwargs))
        return made[-1]

    real = comm.create_comm
    comm.create_comm = create
    _DEPTH[0] += 1
    try:
        yield
    finally:
        _DEPTH[0] -= 1
        comm.create_comm = real
        # a comm learns its kernel when it first publishes, and ipywidgets sends
        # nothing through a comm without a kernel
        kernel = (kernel_class.instance() if kernel_class is not None
                  and kernel_class.initialized() else None)
        for c in made:
            if hasattr(c, "kernel"):  # ipykernel's comms (Pyodide's publish without one)
                c.kernel = c.kernel or kernel
        if made and (tell or w.Widget._control_comm is not None):
            announce(made)
        for c in made:
            c.quiet = False


def built_at_once() -> contextlib.AbstractContextManager[None]:
    """:func:`unheard` in a kernel whose page is connected and asked for
    every widget's state (the widgets made inside are then announced at the
    end); elsewhere (no kernel, no page yet, a test) nothing changes.

    >>> with built_at_once():
    ...     box = w.VBox([w.HTML("a table")])
    >>> box.children[0].value
    'a table'
    """
    from IPython import get_ipython

    shell = get_ipython()
    if getattr(shell, "kernel", None) is None or w.Widget._control_comm is None:
        return contextlib.nullcontext()
    return unheard()


def opened_at_end() -> contextlib.AbstractContextManager[None]:
    """:func:`unheard` in a kernel, the widgets made inside then opened for its
    page at the end, each once with its whole state, whether or not the page
    asked for every state: a page that is open hears each ``comm_open`` as it
    comes (the static site's, whose kernel runs in the page); elsewhere (no
    kernel: a test, a script) nothing changes.

    >>> with opened_at_end():
    ...     box = w.VBox([w.HTML("a table")])
    >>> box.children[0].value
    'a table'
    """
    from IPython import get_ipython

    if getattr(get_ipython(), "kernel", None) is None:
        return contextlib.nullcontext()
    return unheard(tell=True)


def in_order(widgets: list[Any]) -> list[Any]:
    """``widgets`` with every widget after those its state names (a box
    after its children, a widget after its layout), else in their order.

    >>> a = w.HTML("a")
    >>> box = w.VBox()
    >>> box.children = (a,)
    >>> [type(x).__name__ for x in in_order([box, a])]
    ['HTML', 'VBox']
    """
    among = {id(x) for x in widgets}
    done: set[int] = set()
    out: list[Any] = []
    for widget in widgets:  # depth first, each widget after what it names
        if id(widget) in done:
            continue
        done.add(id(widget))
        todo = [(widget, _names(widget))]
        while todo:
            x, refs = todo[-1]
            for ref in refs:
                if id(ref) in among and id(ref) not in done:
                    done.add(id(ref))
                    todo.append((ref, _names(ref)))
                    break
            else:
                todo.pop()
                out.append(x)
    return out


def _names(widget: Any) -> Iterator[Any]:
    """The widgets ``widget``'s synced state names."""
    for key in widget.keys:
        yield from _widgets_in(getattr(widget, key, None))


def _widgets_in(value: Any) -> Iterator[Any]:
    """The widgets in a state's value (a widget, or lists, tuples and dicts of them)."""
    if isinstance(value, w.Widget):
        yield value
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _widgets_in(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _widgets_in(v)


def announce(made: list[Any]) -> None:
    """Open, each with its whole state, the comms ``made`` of widgets built
    unheard, those a widget's state names first: the page that asked for
    every state before they existed hears of them now (a page connected
    while a preheated kernel was still building waited in vain: its app
    stayed an empty box)."""
    ids = {c.comm_id for c in made}
    widgets = [x for x in list(_instances.values())
               if x.comm is not None and x.comm.comm_id in ids]
    for widget in in_order(widgets):
        widget.comm.quiet = False
        state, buffer_paths, buffers = _remove_buffers(widget.get_state())
        widget.comm.open(data={"state": state, "buffer_paths": buffer_paths},
                         metadata={"version": w.__protocol_version__}, buffers=buffers)
