"""The system's reasons for a failed read or write (``permission denied``), in the user's language.

The operating system words its errors in English (``strerror``); the common ones a config file meets are said here
in every language, the rest keep the system's words.
"""

from __future__ import annotations

import errno

from .i18n import Lang, messages

__all__ = ["os_reason"]

REASONS = messages(
    "oserror",
    EACCES="permission denied",
    EPERM="operation not permitted",
    ENOSPC="no space left on the device",
    EDQUOT="disk quota exceeded",
    EIO="input/output error",
    EROFS="the file system is read-only",
    ENAMETOOLONG="the file name is too long",
    ELOOP="too many levels of symbolic links",
    EISDIR="it is a directory",
    ENOENT="no such file or directory",
)


def os_reason(error: OSError | int | None, lang: Lang = "en", fallback: str = "") -> str:
    """Why an operating-system call failed, in ``lang``: from its error number, else the system's own words in
    lower case (``fallback`` when there are none).

    >>> os_reason(PermissionError(13, "Permission denied")), os_reason(28, "zh")
    ('permission denied', '设备上没有剩余空间')
    >>> os_reason(OSError(95, "Operation not supported"))
    'operation not supported'
    """
    number = error if isinstance(error, int) or error is None else error.errno
    name = errno.errorcode.get(number) if number is not None else None
    if name in REASONS.table:
        return REASONS.text(name, lang)
    words = (error.strerror or str(error)) if isinstance(error, OSError) else fallback
    return words[:1].lower() + words[1:]
