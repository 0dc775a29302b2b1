"""The log's timestamps: ISO 8601 in UTC with milliseconds, written and read without ``datetime``."""

from __future__ import annotations

import time


def iso_timestamp(now: float) -> str:
    """``2024-01-10T10:00:00.123Z`` (UTC)."""
    millis = int(now * 1000) % 1000
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{millis:03d}Z"


def parse_timestamp(text):
    """Seconds since the epoch for an ``iso_timestamp`` string (``.fff`` optional), or None."""
    if not isinstance(text, str) or len(text) < 20 or text[-1] != "Z" or text[4] != "-" or text[10] != "T":
        return None
    try:
        year, month, day = int(text[0:4]), int(text[5:7]), int(text[8:10])
        hour, minute, second = int(text[11:13]), int(text[14:16]), float(text[17:-1])
    except ValueError:
        return None
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    return _days_from_civil(year, month, day) * 86400.0 + hour * 3600 + minute * 60 + second


def _days_from_civil(y: int, m: int, d: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm)."""
    y -= m <= 2
    era = (y if y >= 0 else y - 399) // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468
