"""The exact feedback texts of seed 000, and how a text is cut to fit an agent's cap on an answer."""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds of every hook call
if TYPE_CHECKING:
    from collections.abc import Iterable

BULLET = "\u2022"


def _bullets(messages: Iterable[str]) -> str:
    return "\n".join(f"{BULLET} {m}" for m in messages)


def soft_text(messages: Iterable[str]) -> str:
    return f"Policy feedback found:\n{_bullets(messages)}\n\nPlease address these issues before proceeding."


def block_text(reason: str, messages: Iterable[str] = ()) -> str:
    text = f"Operation blocked: {reason}"
    if messages:
        text += f"\n\nAdditional policy feedback:\n{_bullets(messages)}"
    return text


def cut_note(count: int) -> str:
    return f"[… {count} characters cut by Cupcake to fit the client's limit …]"


def shorten(piece: str, excess: int) -> str:
    """Cut at least ``excess`` characters from the middle of ``piece``, with a note saying so,
    keeping its first line and its tail (where test runners print their summary)."""
    target = len(piece) - excess  # the longest the result may be
    first, sep, _ = piece.partition("\n")
    note_room = len(cut_note(len(piece))) + 2
    tail = target - note_room - (len(first) + 1 if sep else 0)
    if sep and tail > 0:
        cut = len(piece) - len(first) - 1 - tail
        return f"{first}\n{cut_note(cut)}\n{piece[len(piece) - tail :]}"
    keep = max(0, target - note_room)
    head = keep // 2
    tail_text = piece[len(piece) - (keep - head) :] if keep - head else ""
    return f"{piece[:head]}\n{cut_note(len(piece) - keep)}\n{tail_text}"


def cap(text: str, pieces: Iterable[str | None], limit: int) -> str:
    """Fit ``text`` into ``limit`` characters by cutting the longest of ``pieces`` (command
    outputs, long messages) in its middle; as a last resort cut the text itself."""
    if len(text) <= limit:
        return text
    for piece in sorted((p for p in pieces if p and p in text), key=len, reverse=True):
        excess = len(text) - limit
        short = shorten(piece, excess)
        if len(short) < len(piece):
            text = text.replace(piece, short, 1)
        if len(text) <= limit:
            return text
    return shorten(text, len(text) - limit)[:limit]
