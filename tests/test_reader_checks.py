"""Checks every reader shares: a file of another format, and players not of two teams."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest

from varroom.errors import InputError, VarroomError
from varroom.formats.ball_line_json import ball_line_from_dict
from varroom.formats.penalty_json import penalty_kick_from_dict
from varroom.formats.situation_json import situation_from_dict
from varroom.serve.errors import ApiError, unjudgeable_as_422
from varroom.still.marks import marks_from_dict


def _marks(data: Any) -> object:
    return marks_from_dict(data, (1920, 1080))


KINDED: dict[str, tuple[Callable[[Any], object], bool]] = {
    # reader, whether a file without `kind` is refused
    "penalty_kick": (penalty_kick_from_dict, True),
    "ball_line": (ball_line_from_dict, False),
    "still_marks": (_marks, False),
}


@pytest.mark.parametrize("kind", sorted(KINDED))
def test_a_file_of_another_format_is_a_fault_at_its_kind(kind: str) -> None:
    read, _ = KINDED[kind]
    with pytest.raises(InputError) as caught:
        read({"kind": "situation"})
    assert caught.value.where == "$.kind"
    assert repr(kind) in caught.value.problem and "'situation'" in caught.value.problem


@pytest.mark.parametrize("kind", sorted(KINDED))
def test_a_file_without_kind_is_this_format_unless_the_format_requires_it(kind: str) -> None:
    read, required = KINDED[kind]
    with pytest.raises(InputError) as caught:
        read({})
    assert (caught.value.where == "$.kind") is required


ONE_TEAM = [{"id": "a", "team": "A"}, {"id": "b", "team": "A"}]
READERS: dict[str, Callable[[Any], object]] = {
    "situation": situation_from_dict,
    "penalty_kick": penalty_kick_from_dict,
    "still_marks": _marks,
}


@pytest.mark.parametrize("kind", sorted(READERS))
def test_players_of_one_team_are_a_fault_at_players(kind: str) -> None:
    with pytest.raises(InputError) as caught:
        READERS[kind]({"kind": kind, "players": ONE_TEAM, "touches": [], "landmarks": []})
    assert caught.value.where == "$.players"
    assert "exactly two teams, got 1" in caught.value.problem


def _raise(error: Exception) -> None:
    with unjudgeable_as_422("this could not be judged", "<test>"):
        raise error


def test_judging_that_fails_answers_422_with_where_the_fault_is() -> None:
    with pytest.raises(ApiError) as caught:
        _raise(InputError("<test>", "$.touches[0]", "no player"))
    assert (caught.value.status, caught.value.error, caught.value.where) == (
        422,
        "no player",
        "$.touches[0]",
    )
    with pytest.raises(ApiError) as caught:
        _raise(VarroomError("the engine refuses"))
    assert (caught.value.status, caught.value.error, caught.value.where) == (
        422,
        "the engine refuses",
        "$",
    )


def test_a_crash_while_judging_is_logged_and_told_without_its_insides(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.ERROR, "varroom.serve"), pytest.raises(ApiError) as caught:
        _raise(ZeroDivisionError("secret insides"))
    assert caught.value.status == 422
    assert caught.value.error == "this could not be judged: the server's log has the details"
    assert "secret insides" not in caught.value.error
    assert "<test>" in caplog.text and "ZeroDivisionError" in caplog.text
