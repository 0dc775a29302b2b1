from __future__ import annotations

import datetime

import pytest

from cupcake.stores.state.timestamps import iso_timestamp, parse_timestamp


@pytest.mark.parametrize("when", [0.0, 951782400.25, 1_704_880_800.5, 4_102_444_800.999, 1_767_225_599.0])
def test_timestamps_round_trip_and_agree_with_datetime(when):
    text = iso_timestamp(when)
    expected = datetime.datetime.fromtimestamp(when, datetime.UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    assert text == expected
    assert parse_timestamp(text) == pytest.approx(when, abs=0.001)


def test_the_seed_example_timestamp_is_read():
    assert (
        parse_timestamp("2024-01-10T10:00:00Z") == datetime.datetime(2024, 1, 10, 10, tzinfo=datetime.UTC).timestamp()
    )


@pytest.mark.parametrize(
    "text", [None, 5, "", "yesterday", "2024-13-10T10:00:00Z", "2024-01-10 10:00:00Z", "2024-01-10T10:00:00"]
)
def test_anything_else_is_no_time(text):
    assert parse_timestamp(text) is None
