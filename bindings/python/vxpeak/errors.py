# SPDX-License-Identifier: Apache-2.0
"""errors.py - one exception class per libvxpeak return code.

A failed call raises the class of its code, carrying the code and the message libvxpeak
left on the context. Each class also derives from the closest built-in exception, so
``except OSError`` catches a file that cannot be read and ``except MemoryError`` an
allocation failure.
"""

from __future__ import annotations

from typing import Dict, Type

OK = 0
ERROR = -1
ENOMEM = -2
EINVAL = -3
EIO = -4
ECANCELLED = -5
EVERSION = -6
ENOTFOUND = -7
EMISUSE = -8


class VxpeakError(Exception):
    """A libvxpeak call failed. ``code`` is the VXP_E* value, ``message`` the context's."""

    code: int = ERROR

    def __init__(self, message: str, code: int | None = None):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class OutOfMemory(VxpeakError, MemoryError):
    """VXP_ENOMEM: an allocation failed."""

    code = ENOMEM


class InvalidArgument(VxpeakError, ValueError):
    """VXP_EINVAL: a bad argument (a NULL handle, an index or range out of bounds)."""

    code = EINVAL


class InputOutputError(VxpeakError, OSError):
    """VXP_EIO: a file could not be read; the message names it and the reason."""

    code = EIO


class Cancelled(VxpeakError):
    """VXP_ECANCELLED: the cancellation flag was raised."""

    code = ECANCELLED


class VersionError(VxpeakError):
    """VXP_EVERSION: an options version or grammar ABI the library does not support."""

    code = EVERSION


class NotFound(VxpeakError, LookupError):
    """VXP_ENOTFOUND: a named thing (a built-in machine, say) does not exist."""

    code = ENOTFOUND


class Misuse(InvalidArgument):
    """VXP_EMISUSE: a handle of the wrong kind, or one already freed, was passed to the library;
    also raised, before any call, for an object used after it (or what it was made from) was
    closed. An InvalidArgument, so code catching that one catches this too."""

    code = EMISUSE


_BY_CODE: Dict[int, Type[VxpeakError]] = {
    cls.code: cls
    for cls in (
        OutOfMemory, InvalidArgument, InputOutputError, Cancelled, VersionError, NotFound, Misuse
    )
}


def error_for(code: int, message: str) -> VxpeakError:
    """The exception for return code ``code`` (VxpeakError for codes without a class)."""
    cls = _BY_CODE.get(code, VxpeakError)
    return cls(message, code)
