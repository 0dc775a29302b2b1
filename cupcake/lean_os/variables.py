"""``os.environ`` for reading, without ``os`` (see ``cupcake/lean_os``)."""

from __future__ import annotations

import sys
from posix import environ as _data

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

_ENCODING, _ERRORS = sys.getfilesystemencoding(), sys.getfilesystemencodeerrors()


class _Environ:
    """``os.environ`` for reading: the process's variables as text, from the table of bytes that
    ``os.environ`` itself keeps (``posix.environ``, the same object), so a variable ``os.environ`` sets
    later is seen here too. Read-only: a hook call never changes its own environment."""

    __slots__ = ()

    def __getitem__(self, key: str) -> str:
        return _data[key.encode(_ENCODING, _ERRORS)].decode(_ENCODING, _ERRORS)

    def get(self, key: str, default: str | None = None) -> str | None:
        value = _data.get(key.encode(_ENCODING, _ERRORS))
        return default if value is None else value.decode(_ENCODING, _ERRORS)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and key.encode(_ENCODING, _ERRORS) in _data

    def __iter__(self) -> Iterator[str]:
        return iter([key.decode(_ENCODING, _ERRORS) for key in _data])

    def __len__(self) -> int:
        return len(_data)

    def keys(self) -> list[str]:
        return list(self)

    def items(self) -> list[tuple[str, str]]:
        return [(k.decode(_ENCODING, _ERRORS), v.decode(_ENCODING, _ERRORS)) for k, v in _data.items()]

    def values(self) -> list[str]:
        return [value.decode(_ENCODING, _ERRORS) for value in _data.values()]

    def copy(self) -> dict[str, str]:
        return dict(self.items())


environ = _Environ()
