"""`second_last_opponent` by partition gives the index a stable sort does, ties and players
off the pitch (NaN) included (issue 26 item 2)."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from varroom.law.position import second_last_opponent


def _by_sorting(depths: list[float]) -> int:
    """The oracle: sort (depth, then who comes first) in plain Python."""
    on = [(-d, k) for k, d in enumerate(depths) if not np.isnan(d)]
    return sorted(on)[1][1] if len(on) >= 2 else -1


# Few distinct values, so that ties are common.
_depth = st.sampled_from([float("nan"), -3.0, 0.0, 1.5, 1.5000001, 20.0])


@given(st.lists(st.lists(_depth, min_size=2, max_size=9), min_size=1, max_size=1))
def test_second_last_as_a_stable_sort(rows: list[list[float]]) -> None:
    assert int(second_last_opponent(np.array(rows[0]))) == _by_sorting(rows[0])


@given(
    st.integers(2, 9).flatmap(
        lambda n: st.lists(st.lists(_depth, min_size=n, max_size=n), min_size=1, max_size=6)
    )
)
def test_second_last_over_frames(rows: list[list[float]]) -> None:
    found = second_last_opponent(np.array(rows))
    assert found.tolist() == [_by_sorting(row) for row in rows]
