"""Observations as JSON and back: the one format the table service speaks.

``encode`` turns an engine value (an observation, a meld, a card ...) into
plain JSON: a card is its text (``"9c"``), an action its text (``"discard
9c"``), a variant its name, a dataclass an object of its fields, a tuple a
list.  ``decode`` reads such JSON back into the observation class of the
variant's family, field by field from the class's type hints, so that a
table widget fed by the service gets the very objects a local engine gives.

>>> import rummy
>>> g = rummy.new_game("three_thirteen", players=2, seed=1)
>>> data = encode(g.observe(0))
>>> data["variant"], data["hand"] == [str(c) for c in g.observe(0).hand]
('three_thirteen', True)
>>> decode_observation(data) == g.observe(0)
True
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import types
import typing
from typing import Any

from rummy.action import Action
from rummy.cards import Card
from rummy.engine import engine_class
from rummy.progress import GRID_COLUMNS
from rummy.variants import Variant, find_variant

__all__ = ["encode", "decode", "decode_observation", "observation_class", "WireError",
           "csv_cell", "grid_csv", "GRID_COLUMNS"]

#: A text cell starting with one of these is a formula to a spreadsheet (OWASP).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """``value`` as a CSV cell a spreadsheet shows as text: a text starting
    with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a ``'``
    in front (OWASP's advice against CSV injection); anything else is kept.

    >>> print(csv_cell('=HYPERLINK("//e.vil")'), csv_cell("Ana"), csv_cell(-1))
    '=HYPERLINK("//e.vil") Ana -1
    """
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def grid_csv(rows: list[dict[str, Any]]) -> str:
    """The class grid's rows as CSV (a header even when empty), each text
    cell made safe with :func:`csv_cell` and quoted (a tab, a carriage
    return or a semicolon stays inside its cell); the teacher's page and the
    API's ``?format=csv`` both write it.

    >>> header, row = grid_csv([{"learner": "@SUM(1)", "rule": "M-1", "attempts": 2,
    ...                          "right_first": 1, "last_wrong": "=1+1"}]).splitlines()
    >>> header.split(",")[:4]
    ['"learner"', '"rule"', '"attempts"', '"right_first"']
    >>> print(row)
    "'@SUM(1)","M-1",2,1,"","","","","'=1+1","","",""
    """
    import csv
    import io

    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n", quoting=csv.QUOTE_NONNUMERIC)
    out.writerow(GRID_COLUMNS)
    for row in rows:
        out.writerow([csv_cell(row.get(k, "")) for k in GRID_COLUMNS])
    return buf.getvalue()



#: Cards are frozen values: their text is worked out once.
_CARD_TEXT: dict[Card, str] = {}


class WireError(ValueError):
    """JSON that does not fit the type it should be read as."""


def encode(value: Any) -> Any:
    """``value`` as plain JSON (dicts, lists, strings, numbers, booleans, None).

    >>> encode(Action.parse("lay off 5h onto 6h 7h 8h"))
    'lay off 5h onto 6h 7h 8h'
    >>> encode((Card.parse("Qh"), None, 3))
    ['Qh', None, 3]
    """
    t = type(value)
    if t is str or t is int or value is None or t is bool or t is float:
        return value
    if t is Card:
        text = _CARD_TEXT.get(value)
        if text is None:
            text = _CARD_TEXT[value] = str(value)
        return text
    if t is tuple or t is list:
        if all(type(v) is str for v in value):  # a log: nothing to convert
            return list(value)
        return [encode(v) for v in value]
    if isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (Card, Action)):
        return str(value)
    if isinstance(value, Variant):
        return value.name
    if isinstance(value, enum.Enum):
        return encode(value.value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)
                if not f.name.startswith("_")}
    if isinstance(value, dict):
        return {str(k): encode(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [encode(v) for v in value]
    raise WireError(f"cannot send a {type(value).__name__} as JSON")


def observation_class(variant: str | Variant) -> type:
    """The observation class of ``variant``'s family."""
    return engine_class(variant).observation


def decode_observation(data: dict[str, Any]) -> Any:
    """Read an observation sent by :func:`encode` back into its class."""
    if not isinstance(data, dict) or "variant" not in data:
        raise WireError("an observation is a JSON object with a 'variant' key")
    return decode(observation_class(data["variant"]), data)


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def decode(kind: Any, data: Any) -> Any:
    """Read JSON ``data`` as a value of type ``kind`` (a type hint).

    >>> decode(tuple[Card, ...], ["9c", "Jk"])
    (Card.parse('9c'), Card.parse('Jk'))
    >>> decode(Action | None, "draw stock")
    Action.parse('draw stock')
    """
    if kind is Any or kind is object:
        return data
    origin = typing.get_origin(kind)
    args = typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        if data is None and type(None) in args:
            return None
        options = [a for a in args if a is not type(None)]
        errors = []
        for a in options:
            try:
                return decode(a, data)
            except (WireError, ValueError, TypeError, KeyError) as e:
                errors.append(str(e))
        raise WireError(f"{data!r} fits none of {kind}: {'; '.join(errors)}")
    if origin is typing.Literal:
        if data not in args:
            raise WireError(f"{data!r} is not one of {args}")
        return data
    if origin is tuple:
        if not isinstance(data, list):
            raise WireError(f"expected a list for {kind}, got {data!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode(args[0], x) for x in data)
        if len(args) != len(data):
            raise WireError(f"expected {len(args)} items for {kind}, got {len(data)}")
        return tuple(decode(a, x) for a, x in zip(args, data))
    if origin is list:
        if not isinstance(data, list):
            raise WireError(f"expected a list for {kind}, got {data!r}")
        return [decode(args[0] if args else Any, x) for x in data]
    if origin is dict:
        if not isinstance(data, dict):
            raise WireError(f"expected an object for {kind}, got {data!r}")
        value_kind = args[1] if args else Any
        return {k: decode(value_kind, v) for k, v in data.items()}
    if kind is Card:
        return Card.parse(_text(data))
    if kind is Action:
        return Action.parse(_text(data))
    if kind is Variant:
        return find_variant(_text(data))
    if kind in (int, float, str, bool):
        if kind is float and isinstance(data, int) and not isinstance(data, bool):
            return float(data)
        if type(data) is not kind:
            raise WireError(f"expected {kind.__name__}, got {data!r}")
        return data
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        if not isinstance(data, dict):
            raise WireError(f"expected an object for {kind.__name__}, got {data!r}")
        hints = _hints(kind)
        values = {f.name: decode(hints[f.name], data[f.name])
                  for f in dataclasses.fields(kind) if f.init and f.name in data}
        return kind(**values)
    if kind is type(None):
        if data is not None:
            raise WireError(f"expected null, got {data!r}")
        return None
    raise WireError(f"cannot read {kind!r} from JSON")


def _text(data: Any) -> str:
    if not isinstance(data, str):
        raise WireError(f"expected text, got {data!r}")
    return data
