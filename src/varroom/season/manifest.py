"""The season manifest: one CSV row per match, its provider, files and metadata.

Columns: `match_id` and `provider` (kloppy's name) are required; `competition`, `season`
and `referee` are the match's metadata; `profile` the competition profile it is judged under
(a built-in name, or a profile file relative to the manifest; empty: the command's
`--profile`); every column named as kloppy names a file
(`meta_data`, `raw_data`, `event_data`, ... : ending in `_data` or `_feeds`, or
`venue_information`) and `official_calls` (varroom's CSV of the officials' offside calls:
period, t_s, team, player) hold a path, relative to the manifest, or several separated by
`;`; an empty cell means no such file for that match. Other columns are ignored.

A manifest that cannot be read is an `InputError` (exit 2) naming the file, the row (as a
spreadsheet numbers it: the header is row 1) and the column. A missing or broken match file
is not: that match alone fails when it is audited.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from pathlib import Path

from varroom.errors import InputError
from varroom.profiles import Profile, ifab, load_profile

REQUIRED = ("match_id", "provider")
METADATA = ("competition", "season", "referee")
OFFICIAL_CALLS = "official_calls"
PROFILE = "profile"
_FILE_COLUMN = re.compile(r"^(\w+_data|\w+_feeds|venue_information)$")
_MATCH_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")


class ManifestError(InputError):
    """A manifest that cannot be used: exit 2, one line naming the file, row and column."""


@dataclass(frozen=True, slots=True)
class MatchEntry:
    """One match of the manifest."""

    match_id: str
    provider: str
    files: tuple[tuple[str, tuple[Path, ...]], ...]  # kloppy's argument name, its paths
    official_calls: Path | None
    competition: str = ""
    season: str = ""
    referee: str = ""
    profile: Profile = field(default_factory=ifab)  # how its Laws are applied

    def file_arguments(self) -> dict[str, Path | tuple[Path, ...]]:
        """The files as `load_match` takes them: one path, or a tuple for several."""
        return {role: paths[0] if len(paths) == 1 else paths for role, paths in self.files}

    def all_files(self) -> list[tuple[str, Path]]:
        files = [(role, path) for role, paths in self.files for path in paths]
        if self.official_calls is not None:
            files.append((OFFICIAL_CALLS, self.official_calls))
        return files


def is_file_column(name: str) -> bool:
    return name == OFFICIAL_CALLS or _FILE_COLUMN.match(name) is not None


def read_manifest(path: Path, profile: Profile | None = None) -> tuple[MatchEntry, ...]:
    """Every match of the manifest at `path`, in its order; a row without a profile is
    judged under `profile` (`ifab` unless given)."""
    try:
        with path.open(newline="", encoding="utf-8-sig") as stream:
            table = list(csv.reader(stream))
    except FileNotFoundError:
        raise ManifestError(path, "", "no such manifest file") from None
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        raise ManifestError(path, "", f"cannot read the manifest: {error}") from None
    if not table or not any(cell.strip() for cell in table[0]):
        raise ManifestError(path, "row 1", "no header (match_id, provider, files...)")
    header = [cell.strip() for cell in table[0]]
    for name in REQUIRED:
        if name not in header:
            raise ManifestError(path, "row 1", f"no {name} column")
    for k, name in enumerate(header):
        if name in header[:k]:
            raise ManifestError(path, f"row 1, column {name}", "the column appears twice")
    file_columns = [name for name in header if is_file_column(name)]
    if not any(name != OFFICIAL_CALLS for name in file_columns):
        raise ManifestError(path, "row 1", "no file columns (meta_data, raw_data, event_data...)")
    entries: list[MatchEntry] = []
    seen: dict[str, int] = {}
    # Each profile a row names, read once however many rows name it; an empty cell: `profile`.
    profiles: dict[str, Profile] = {"": profile or ifab()}
    for number, cells in enumerate(table[1:], start=2):
        if not any(cell.strip() for cell in cells):
            continue  # a blank line
        if len(cells) != len(header):
            raise ManifestError(
                path, f"row {number}", f"{len(cells)} cells, the header has {len(header)}"
            )
        row = {name: cell.strip() for name, cell in zip(header, cells, strict=True)}
        entries.append(_entry(path, number, row, file_columns, seen, profiles))
    if not entries:
        raise ManifestError(path, "", "no matches")
    return tuple(entries)


def _entry(
    path: Path,
    number: int,
    row: dict[str, str],
    file_columns: list[str],
    seen: dict[str, int],
    profiles: dict[str, Profile],
) -> MatchEntry:
    match_id = row["match_id"]
    if not _MATCH_ID.match(match_id):
        raise ManifestError(
            path,
            f"row {number}, column match_id",
            f"{match_id!r} is not a match id (letters, digits, '.', '_', '-'; 128 at most)",
        )
    if match_id in seen:
        raise ManifestError(
            path, f"row {number}, column match_id", f"{match_id} is already row {seen[match_id]}"
        )
    seen[match_id] = number
    if not row["provider"]:
        raise ManifestError(path, f"row {number}, column provider", "empty")
    files = []
    for name in file_columns:
        if name == OFFICIAL_CALLS or not row[name]:
            continue
        paths = tuple(path.parent / item.strip() for item in row[name].split(";") if item.strip())
        files.append((name, paths))
    if not files:
        raise ManifestError(path, f"row {number}", "no files for this match")
    calls = row.get(OFFICIAL_CALLS, "")
    return MatchEntry(
        match_id=match_id,
        provider=row["provider"].lower(),
        files=tuple(files),
        official_calls=path.parent / calls if calls else None,
        **{name: row.get(name, "") for name in METADATA},
        profile=_profile(path, number, row.get(PROFILE, ""), profiles),
    )


def _profile(path: Path, number: int, named: str, profiles: dict[str, Profile]) -> Profile:
    """A row's profile: a built-in name, or a file beside the manifest, read the first time a
    row names it (`profiles`); a bad one is the manifest's fault, at its row and column."""
    if named not in profiles:
        where = named if not named.lower().endswith(".toml") else path.parent / named
        try:
            profiles[named] = load_profile(where)
        except InputError as error:
            raise ManifestError(path, f"row {number}, column {PROFILE}", str(error)) from None
    return profiles[named]
