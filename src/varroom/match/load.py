"""`load_match`: any provider kloppy reads, as one `MatchTracking`."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from varroom.errors import DataError
from varroom.formats.json_fields import did_you_mean
from varroom.match import metrica_epts, skillcorner, sportec_positions, tracab_dat
from varroom.match.convert import Loaded, to_match_tracking
from varroom.match.files import Contents, FileSpec, check_file, find_malformed, read_contents
from varroom.match.providers import LOADERS, DatasetKind, Loader
from varroom.match.statsbomb_360 import FACT_FILES, nicknames, read_statsbomb_facts
from varroom.match.tracking import MatchTracking, Provider

FilePath = str | os.PathLike[str]


@dataclass(frozen=True, slots=True)
class _FastReader:
    accepts: Callable[[Path], bool]  # given the raw data file
    read: Callable[..., MatchTracking]  # given the files by kloppy's argument names
    files: frozenset[str] = frozenset({"meta_data", "raw_data"})  # exactly these, no others


_FAST_READERS: dict[Provider, _FastReader] = {
    Provider.METRICA: _FastReader(metrica_epts.accepts, metrica_epts.read),
    Provider.SKILLCORNER: _FastReader(skillcorner.accepts, skillcorner.read),
    Provider.SPORTEC: _FastReader(sportec_positions.accepts, sportec_positions.read),
    Provider.TRACAB: _FastReader(tracab_dat.accepts, tracab_dat.read),
}


def load_match(
    provider: str | Provider, *, fast: bool = True, **files: FilePath | Sequence[FilePath]
) -> MatchTracking:
    """Load a match from a provider's files, named as kloppy names them.

    For example `load_match("statsbomb", event_data=..., lineup_data=...,
    three_sixty_data=...)` or `load_match("sportec", meta_data=..., event_data=...,
    raw_data=...)`: every loader of the provider whose files are all given is used, so
    events and tracking of one match load together. `fast` uses varroom's own reader
    where one exists (SkillCorner, Metrica EPTS, Sportec/DFL positions, Tracab .dat:
    tracking files alone) instead of kloppy's; both give the same match.

    Raises DataError naming the file for an unknown provider, a missing, empty,
    truncated or malformed file, or a file of another provider or kind.
    """
    paths = {name: _paths(value) for name, value in files.items()}
    first_path = next((group[0] for group in paths.values() if group), None)
    provider = _provider(provider, first_path)
    loaders = _loaders(provider, paths, first_path)
    for loader in loaders:
        for spec in loader.files:
            given = paths.get(spec.name, [])
            if len(given) > 1 and not spec.many:
                raise DataError(given[1], f"{provider.value} takes one {spec.name} file")
            for path in given:
                check_file(path, spec, provider.value)
    fast_reader = _FAST_READERS.get(provider)
    if (
        fast
        and fast_reader is not None
        and paths.keys() == fast_reader.files
        and fast_reader.accepts(paths["raw_data"][0])
    ):
        return fast_reader.read(**{name: group[0] for name, group in paths.items()})
    if provider is Provider.STATSBOMB:
        return _statsbomb(loaders, paths)
    return to_match_tracking(provider, [_read(provider, loader, paths, {}) for loader in loaders])


def _statsbomb(loaders: list[Loader], paths: dict[str, list[Path]]) -> MatchTracking:
    """StatsBomb's events and 360 frames say more than kloppy keeps (`statsbomb_360`): each
    of those files is read once, kloppy and the facts both reading its bytes."""
    read = {name: read_contents(paths[name][0]) for name in FACT_FILES if name in paths}
    match = to_match_tracking(
        Provider.STATSBOMB,
        [_read(Provider.STATSBOMB, loader, paths, read) for loader in loaders],
    )
    facts = read_statsbomb_facts(match, read["event_data"], read.get("three_sixty_data"))
    called = nicknames(read["lineup_data"]) if "lineup_data" in read else {}
    short_names = tuple(
        called.get(str(pid), short)
        for pid, short in zip(match.player_ids, match.player_short_names, strict=True)
    )
    return dataclasses.replace(match, statsbomb_facts=facts, player_short_names=short_names)


def _paths(value: FilePath | Sequence[FilePath]) -> list[Path]:
    if isinstance(value, str | os.PathLike):
        return [Path(value)]
    return [Path(item) for item in value]


def _provider(name: str | Provider, first_path: Path | None) -> Provider:
    try:
        provider = Provider(name.lower() if isinstance(name, str) else name)
    except ValueError:
        provider = None
    if provider not in LOADERS:
        known = [p.value for p in LOADERS]
        near = did_you_mean(str(name), known)
        raise DataError(
            None,
            f"unknown{near}; the providers are {', '.join(known)}",
            subject=f"provider {str(name)!r}",
        ) from None
    return provider


def _loaders(
    provider: Provider, paths: dict[str, list[Path]], first_path: Path | None
) -> list[Loader]:
    """The provider's loaders whose files are all given, the first of each kind; every
    given file must be read by one of them."""
    chosen: dict[DatasetKind, Loader] = {}
    for loader in LOADERS[provider]:
        if all(spec.name in paths for spec in loader.files if spec.required):
            chosen.setdefault(loader.kind, loader)
    if not chosen:
        reads = " or ".join(
            " + ".join(spec.name for spec in loader.files if spec.required)
            for loader in LOADERS[provider]
        )
        given = ", ".join(paths) or "no files"
        raise DataError(first_path, f"{provider.value} reads {reads}; given {given}")
    read = {spec.name for loader in chosen.values() for spec in loader.files}
    for name, group in paths.items():
        if name not in read:
            raise DataError(
                group[0] if group else first_path,
                f"{provider.value} reads no {name} with {', '.join(sorted(read & set(paths)))}",
            )
    return list(chosen.values())


def _read(
    provider: Provider,
    loader: Loader,
    paths: dict[str, list[Path]],
    read: Mapping[str, Contents],
) -> Loaded:
    """kloppy's dataset from the files: their bytes where they are `read` already, else
    their paths."""
    given = [spec for spec in loader.files if spec.name in paths]
    arguments = {spec.name: _argument(spec, paths, read) for spec in given}
    main_file = paths[loader.files[0].name][0]
    try:
        dataset = loader.read(**arguments, coordinates=loader.coordinates, **loader.options)
    except Exception as error:  # kloppy raises anything from KeyError to lxml's errors
        malformed = find_malformed([(path, spec) for spec in given for path in paths[spec.name]])
        if malformed is not None:
            raise malformed from error
        message = " ".join(f"{type(error).__name__}: {error}".split())
        raise DataError(
            main_file,
            f"kloppy cannot read this {provider.value} {loader.kind.value} data: {message}",
        ) from error
    return Loaded(loader, dataset, main_file)


def _argument(
    spec: FileSpec, paths: dict[str, list[Path]], read: Mapping[str, Contents]
) -> bytes | str | list[str]:
    if spec.name in read:
        return read[spec.name].data
    if spec.many:
        return [str(path) for path in paths[spec.name]]
    return str(paths[spec.name][0])
