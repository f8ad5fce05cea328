"""Running a manifest's matches: on a local process pool, or on an existing Dask cluster.

The driver hashes every match's inputs, skips those already stored with the same key (inputs,
settings, varroom version) unless forced, hands out the rest one match per task, reports
each as it ends, and gathers the parts into the two tables. Workers are reused for many
matches, so the import of the audit code is paid once per worker (`work.warm`).

With a Dask scheduler every worker must see the manifest's files and `DIR` at the same paths
(a shared file system): the workers write the results.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path

from varroom.errors import InputError, VarroomError
from varroom.season import store
from varroom.season.manifest import MatchEntry
from varroom.season.work import (
    MatchState,
    Outcome,
    inputs_hash,
    match_key,
    match_row,
    run_match,
    warm,
)

_POOLS = 3  # local pools tried before the matches a dying worker took down fail
SCHEDULER_WAIT_S = 20  # how long a scheduler is waited for: its file, then its address

# Called once per match audited, as it ends.
Report = Callable[[Outcome], None]


class SchedulerError(VarroomError):
    """The Dask scheduler cannot be reached (exit 1)."""


def scheduler_address(scheduler_file: Path, wait_s: float = SCHEDULER_WAIT_S) -> str:
    """The address a Dask scheduler wrote to its `--scheduler-file`. The file is waited for,
    as `dask worker --scheduler-file` waits for it: the scheduler may have been started a
    moment before, and may be writing it."""
    deadline = time.monotonic() + wait_s
    while True:
        try:
            written = json.loads(scheduler_file.read_text(encoding="utf-8"))
        except (FileNotFoundError, json.JSONDecodeError):
            if time.monotonic() >= deadline:
                break
            time.sleep(0.1)
            continue
        except (OSError, UnicodeDecodeError) as error:
            raise InputError(scheduler_file, "", f"cannot be read ({error})") from None
        address = written.get("address") if isinstance(written, dict) else None
        if not isinstance(address, str) or not address:
            raise InputError(scheduler_file, "address", "expected the Dask scheduler's address")
        return address
    if scheduler_file.exists():
        raise InputError(scheduler_file, "", "not a Dask scheduler file (JSON)")
    raise SchedulerError(f"{scheduler_file}: no Dask scheduler wrote it within {wait_s:g} s")


@dataclass(frozen=True, slots=True)
class Summary:
    total: int
    skipped: int
    ok: int
    failed: int
    errors: tuple[tuple[str, str], ...]  # (match id, error) of the failed matches

    @property
    def all_failed(self) -> bool:
        return self.failed > 0 and self.ok == 0 and self.skipped == 0


def run_season(
    entries: Sequence[MatchEntry],
    out: Path,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    force: bool = False,
    report: Report = lambda outcome: None,
    started: Callable[[int, int], None] = lambda todo, skipped: None,
) -> Summary:
    """Audit every match of `entries` not already done, into `out`."""
    inputs = {entry.match_id: inputs_hash(entry) for entry in entries}
    stored = {} if force else store.done(out, inputs)
    todo = [
        entry
        for entry in entries
        if stored.get(entry.match_id)
        != (MatchState.OK.value, match_key(inputs[entry.match_id], entry.profile))
    ]
    skipped = len(entries) - len(todo)
    started(len(todo), skipped)
    outcomes: list[Outcome] = []

    def ended(outcome: Outcome) -> None:
        outcomes.append(outcome)
        report(outcome)

    if todo:
        batch = _Batch(todo, out, inputs, ended)
        if scheduler is None:
            _run_local(batch, workers or os.cpu_count() or 1)
        else:
            _run_dask(batch, scheduler)
    store.gather(out, [entry.match_id for entry in entries])
    failed = [(o.match_id, o.error) for o in outcomes if o.state is not MatchState.OK]
    return Summary(len(entries), skipped, len(outcomes) - len(failed), len(failed), tuple(failed))


@dataclass(frozen=True, slots=True)
class _Batch:
    """The matches to run, the folder of their results, the hash of each one's inputs, and
    who hears of each match as it ends."""

    todo: Sequence[MatchEntry]
    out: Path
    inputs: Mapping[str, str]
    ended: Report

    def end(self, future: object, entry: MatchEntry) -> None:
        """Report the match's outcome; a worker that died under it (killed, out of memory)
        fails the match, stored by the driver."""
        try:
            outcome: Outcome = future.result()  # type: ignore[attr-defined]
        except Exception as error:
            message = " ".join(f"worker lost: {type(error).__name__}: {error}".split())
            outcome = _store_failure(entry, self.out, self.inputs[entry.match_id], message)
        self.ended(outcome)


def _run_local(batch: _Batch, workers: int) -> None:
    """On a pool of spawned processes. A worker that dies (killed, out of memory) breaks the
    pool: the matches left are run again on a new one, up to `_POOLS` pools in all, and
    then fail."""
    left = list(batch.todo)
    for attempt in range(_POOLS):
        # Spawned, not forked: the driver runs a progress thread, and a fork copies its locks.
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(min(workers, len(left)), context, initializer=warm) as pool:
            futures: dict[Future[Outcome], MatchEntry] = {
                pool.submit(run_match, entry, batch.out, batch.inputs[entry.match_id]): entry
                for entry in left
            }
            lost = []
            for future in as_completed(futures):
                entry = futures[future]
                if isinstance(future.exception(), BrokenProcessPool) and attempt + 1 < _POOLS:
                    lost.append(entry)
                else:
                    batch.end(future, entry)
        if not lost:
            return
        left = lost


def _run_dask(batch: _Batch, scheduler: str) -> None:
    try:
        from distributed import Client
        from distributed import as_completed as dask_completed
    except ImportError as error:
        raise SchedulerError(
            f"--scheduler needs the season extra: pip install 'varroom[season]' ({error})"
        ) from None
    try:
        client = Client(scheduler, timeout=f"{SCHEDULER_WAIT_S}s")  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError) as error:
        raise SchedulerError(f"cannot reach the Dask scheduler {scheduler}: {error}") from None
    with client:
        client.run(warm)
        futures = {
            client.submit(
                run_match,
                entry,
                batch.out,
                batch.inputs[entry.match_id],
                key=f"varroom-{entry.match_id}-{batch.inputs[entry.match_id]}",
                pure=False,
            ): entry
            for entry in batch.todo
        }
        for future in dask_completed(futures):  # type: ignore[no-untyped-call]
            batch.end(future, futures[future])


def _store_failure(entry: MatchEntry, out: Path, inputs: str, message: str) -> Outcome:
    store.write_match(
        out, entry.match_id, match_row(entry, inputs, MatchState.FAILED, message, 0.0, []), []
    )
    return Outcome(entry.match_id, MatchState.FAILED, message, 0.0, 0)
