# SPDX-License-Identifier: Apache-2.0
"""_check.py - what every public function checks before it hands anything to libvxpeak.

ctypes converts silently: an int past 64 bits is cut to its low bits, a negative one wraps
to a huge unsigned value, a bool passes as 0 or 1, a str with a NUL is cut at it, and a
handle of the wrong kind is a pointer to the wrong struct. Each check here refuses such an
argument with an exception naming the parameter and what was expected:

- a value of the wrong type (a float or a str where an integer belongs, a Source where a
  Program belongs) is a ``TypeError``;
- an integer outside its C type is a ``ValueError`` (:class:`vxpeak.InvalidArgument`) when it
  is negative where the type is unsigned, an ``OverflowError`` when it is too large; a
  fraction outside its range, a word not among the choices or a str holding a NUL is an
  ``InvalidArgument``.
"""

from __future__ import annotations

import math
from os import PathLike, fspath
from typing import Any, Dict, Mapping, Optional, Type, TypeVar

from .errors import InvalidArgument

T = TypeVar("T")

U32_MAX = 2**32 - 1
U64_MAX = 2**64 - 1


def _name(value: object) -> str:
    return type(value).__name__


def instance(value: object, cls: Type[T], what: str, optional: bool = False) -> Optional[T]:
    """``value`` when it is a ``cls`` (or None and ``optional``), else TypeError."""
    if value is None and optional:
        return None
    if not isinstance(value, cls) or (cls is int and isinstance(value, bool)):
        expected = cls.__name__ + (" or None" if optional else "")
        raise TypeError("%s: expected %s, got %s" % (what, expected, _name(value)))
    return value


def unsigned(value: object, what: str, bits: int = 64) -> int:
    """``value`` as an unsigned integer of ``bits`` bits: an int (not a bool, not a float,
    not a str), 0 <= value < 2**bits."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError("%s: expected an integer, got %s %r" % (what, _name(value), value))
    if value < 0:
        raise InvalidArgument("%s: %d is negative; it must be in 0..%d" % (what, value, 2**bits - 1))
    if value >= 2**bits:
        raise OverflowError("%s: %d does not fit in %d bits (largest %d)"
                            % (what, value, bits, 2**bits - 1))
    return value


def text(value: object, what: str, optional: bool = False) -> Optional[bytes]:
    """``value`` (a str) as the UTF-8 bytes of a C string: TypeError for anything else, and
    ValueError for a str holding a NUL, which C would read as its end."""
    if value is None and optional:
        return None
    if not isinstance(value, str):
        expected = "str" + (" or None" if optional else "")
        raise TypeError("%s: expected %s, got %s" % (what, expected, _name(value)))
    if "\0" in value:
        raise InvalidArgument("%s: %r holds a NUL character" % (what, value))
    return value.encode("utf-8", "surrogateescape")


def data(value: object, what: str) -> bytes:
    """A program text: str (encoded as UTF-8) or bytes-like."""
    if isinstance(value, str):
        return value.encode("utf-8", "surrogateescape")
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise TypeError("%s: expected str or bytes, got %s" % (what, _name(value)))


def path(value: object, what: str) -> bytes:
    """A file name: str or os.PathLike of str, without NUL."""
    if not isinstance(value, (str, PathLike)):
        raise TypeError("%s: expected a path (str or os.PathLike), got %s" % (what, _name(value)))
    name = fspath(value)
    if not isinstance(name, str):
        raise TypeError("%s: expected a str path, got %s" % (what, _name(name)))
    encoded = text(name, what)
    assert encoded is not None
    return encoded


def flag(value: object, what: str) -> bool:
    """A yes/no option: a bool, nothing else (0, "no" and None are refused, not guessed)."""
    if not isinstance(value, bool):
        raise TypeError("%s: expected a bool, got %s" % (what, _name(value)))
    return value


def fraction(value: object, what: str) -> float:
    """A share of a capacity, 0 <= value < 1 (an int or a float; not a bool, not NaN)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError("%s: expected a number in [0, 1), got %s" % (what, _name(value)))
    if not math.isfinite(value) or not 0 <= value < 1:
        raise InvalidArgument("%s: %r is not in [0, 1)" % (what, value))
    return float(value)


def overrides(value: object, what: str = "overrides") -> Dict[str, int]:
    """Constant overrides: a mapping of names (str) to unsigned 64-bit values, or None."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise TypeError("%s: expected a mapping of names to integers, got %s" % (what, _name(value)))
    out: Dict[str, int] = {}
    items: Mapping[Any, Any] = value
    for name, number in items.items():
        text(name, "%s key" % what)
        out[name] = unsigned(number, "%s[%r]" % (what, name))
    return out


def choice(value: object, choices: Mapping[str, T], what: str) -> T:
    """One of the words of ``choices`` (a str), mapped to its value."""
    if not isinstance(value, str):
        raise TypeError("%s: expected a str, got %s" % (what, _name(value)))
    if value not in choices:
        raise InvalidArgument("%s: %r is not one of %s" % (what, value, ", ".join(sorted(choices))))
    return choices[value]


def retypes(value: object, what: str = "retype") -> Dict[bytes, bytes]:
    """Element types by role (``vxpeak check --retype ROLE=TYPE``): a mapping of role names
    (str) to element type names (str), or None; each as the UTF-8 bytes of a C string."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise TypeError("%s: expected a mapping of roles to element types, got %s"
                        % (what, _name(value)))
    out: Dict[bytes, bytes] = {}
    items: Mapping[Any, Any] = value
    for role, elem in items.items():
        key = text(role, "%s key" % what)
        assert key is not None
        typ = text(elem, "%s[%r]" % (what, role))
        assert typ is not None
        out[key] = typ
    return out
