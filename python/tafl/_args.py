"""Reading arguments in the pure-Python half of the package, in the Rust half's words (issue 47):
anything but an int is a ``TypeError``, an int out of range a ``ValueError`` that names the
argument and its range. Floats and strings are never taken for whole numbers (``int(78.7)``
would quietly be 78). docs/fuzzing.md lists the limits.
"""

from __future__ import annotations

import operator
from typing import Any, Optional


def shown(number: int) -> str:
    """``number`` as text for a message, cut short (Python writes no int of over 4,300 digits)."""
    try:
        text = str(number)
    except ValueError:
        return "a number too long to write"
    return text if len(text) <= 40 else text[:40] + "..."


def whole(value: Any, name: str, low: int = 0, high: Optional[int] = None) -> int:
    """``value`` as ``operator.index`` reads it (ints, numpy's ints, bools), from ``low`` to
    ``high`` (no upper bound for ``None``)."""
    try:
        number = operator.index(value)
    except TypeError:
        raise TypeError(f"`{name}` must be an int, not {type(value).__name__}") from None
    if number < low or (high is not None and number > high):
        bound = f"at least {low}" if high is None else f"{low} to {high}"
        raise ValueError(f"`{name}` must be {bound}, not {shown(number)}")
    return number


def optional_whole(value: Any, name: str, low: int = 0, high: Optional[int] = None) -> Optional[int]:
    """As ``whole``, ``None`` passed as ``None``."""
    return None if value is None else whole(value, name, low, high)


def text(value: Any, name: str) -> str:
    """``value`` if it is a ``str``; ``TypeError`` otherwise."""
    if not isinstance(value, str):
        raise TypeError(f"`{name}` must be a str, not {type(value).__name__}")
    return value
