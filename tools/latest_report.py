#!/usr/bin/env python3
"""What `make test-latest` found, in a few lines for CI's log: whether every test passed on the
newest releases, which tests broke, and which releases are newer than the lock (where the
cause is). It never fails CI itself: the locked run is the one a submission must pass.

Its lines are worded so that nothing reading CI's log for a test runner's closing line takes
them for the locked run's result.

Usage: tools/latest_report.py LOG FREEZE LOCK STATUS
Standard library only.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")
# pytest's closing line: "=== 2 failed, 2366 passed in 401.2s ===", or under -q (the
# project's addopts) the same without the rules.
CLOSING = re.compile(r"^(?:=+ )?(?P<counts>\d+ (?:passed|failed|error).*) in [\d.]+s")
FAILED = re.compile(r"^(?:FAILED|ERROR) (?P<test>\S+)")


def pins(path: Path) -> dict[str, str]:
    """name -> version of every `name==version` line (a lock or a `pip freeze`)."""
    found: dict[str, str] = {}
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            if match := PIN.match(line.strip()):
                found[normalised(match[1])] = match[2]
    return found


def normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def report(log: Path, freeze: Path, lock: Path, status: int) -> list[str]:
    text = log.read_text(encoding="utf-8", errors="replace") if log.is_file() else ""
    lines = text.splitlines()
    closing = [m["counts"] for line in lines if (m := CLOSING.match(line))]
    broken = [m["test"] for line in lines if (m := FAILED.match(line))]
    locked = pins(lock)
    newer = sorted(
        f"{name} {locked[name]} -> {version}"
        for name, version in pins(freeze).items()
        if name in locked and locked[name] != version
    )
    out = [f"newest releases differ from the lock in: {', '.join(newer) or 'nothing'}"]
    if status == 0:
        counts = closing[-1] if closing else "no summary"
        out.append(f"newest releases: every test holds ({counts.replace(',', ';')})")
    elif broken:
        out.append(f"newest releases: {len(broken)} tests break (out/test-latest.log):")
        out.extend(f"  breaks on the newest releases: {test}" for test in broken)
    else:
        out.append(f"newest releases: make test-latest stopped (exit {status}) before testing:")
        out.extend(f"  {line}" for line in lines[-15:])
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 5:
        print(__doc__.split("Usage: ")[1].splitlines()[0], file=sys.stderr)
        return 2
    log, freeze, lock, status = argv[1:]
    print("\n".join(report(Path(log), Path(freeze), Path(lock), int(status))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
