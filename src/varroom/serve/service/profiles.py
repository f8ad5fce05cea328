"""The competition profiles a room judges under: its default (`varroom serve --profile`), and
by name the built-in ones, which an upload may choose instead (`?profile=NAME`).

An incident keeps the name of the profile it was queued under: facts set later, its picture
and a still's marks are judged under that profile again, whatever the room's default is.
"""

from __future__ import annotations

from dataclasses import dataclass

from varroom.formats.json_fields import did_you_mean
from varroom.profiles import Profile, builtin_names, builtin_profile, ifab
from varroom.serve.errors import ApiError


@dataclass(frozen=True, slots=True)
class RoomProfiles:
    default: Profile

    def names(self) -> list[str]:
        """The profiles the room knows by name: the built-in ones and its default."""
        return list(dict.fromkeys([*builtin_names(), self.default.name]))

    def _known(self, name: str) -> Profile | None:
        # The default first: a profile file may take a built-in one's name.
        if name == self.default.name:
            return self.default
        return builtin_profile(name) if name in builtin_names() else None

    def chosen(self, name: str | None, where: str) -> Profile:
        """The profile a request names (`where`: the parameter), the default where it names
        none; a 422 for a name the room does not know."""
        if name is None:
            return self.default
        profile = self._known(name)
        if profile is None:
            names = self.names()
            raise ApiError(
                422,
                f"no profile {name!r} in this room{did_you_mean(name, names)}: it knows "
                + ", ".join(names),
                where,
            )
        return profile

    def of_incident(self, name: str | None) -> Profile:
        """The profile an incident was queued under (its `profile`), to judge it again; a 409
        where the room no longer has it (served since with another profile file)."""
        if name is None:  # queued before profiles: judged under the Laws as written
            return ifab()
        profile = self._known(name)
        if profile is None:
            raise ApiError(
                409,
                f"this incident is judged under the profile {name!r}, which this room does not "
                "have: serve it with that profile's file (--profile FILE)",
            )
        return profile
