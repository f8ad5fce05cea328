#!/usr/bin/env bash
# make dist's last step: install the wheel into a fresh venv outside the checkout and use it
# as a new user would, from a folder that is not the repository: the shipped examples, a
# check, the audit of the shipped match sample, and the review room's health and page.
# The installing is done by every `pip install` line of the README and docs/, as written
# (tools/docs_blocks.py finds them): run from the folder that holds the wheel's folder, as
# getting-started's line is, with that folder added to pip's find-links, so that varroom comes
# from this wheel and the extras' packages from the package index.
# Usage: tools/dist-check.sh WHEEL [PYTHON]
set -euo pipefail
wheel=$(realpath "$1")
dist=$(dirname "$wheel")
tools=$(cd "$(dirname "$0")" && pwd)
python=${2:-python3}
work=$(mktemp -d "${TMPDIR:-/tmp}/varroom-dist.XXXXXX")
cleanup() { rm -rf "$work"; }
trap cleanup EXIT

step() { printf '\n== %s\n' "$*"; }

step "fresh venv in $work"
"$python" -m venv "$work/venv"
export PATH="$work/venv/bin:$PATH"

installs=$("$python" "$tools/docs_blocks.py" pip-installs)
[ -n "$installs" ] || { echo "no pip install line found in the docs" >&2; exit 1; }
while IFS=$'\t' read -r where command; do
    step "$where: $command"
    (
        cd "$dist/.."
        export PIP_FIND_LINKS="$dist ${PIP_FIND_LINKS:-}" PIP_QUIET=1 PIP_DISABLE_PIP_VERSION_CHECK=1
        eval "$command"
    )
done <<< "$installs"
mkdir "$work/user" && cd "$work/user"

step "varroom --version"
varroom --version
installed=$(python -c 'import varroom, pathlib; print(pathlib.Path(varroom.__file__).resolve())')
case "$installed" in
    "$work/venv/"*) echo "imports $installed" ;;
    *) echo "varroom imported from $installed, not from the fresh venv" >&2; exit 1 ;;
esac

step "varroom examples; varroom examples --copy ."
varroom examples
varroom examples --copy .
test -f examples/tottenham-sporting-2022-kane.json
test -f samples/statsbomb-euro2020-turkey-italy/LICENSE.md

step "varroom check on a copied example"
varroom check examples/tottenham-sporting-2022-kane.json --json --image kane.png > kane.json
python - <<'PY'
import json
verdict = json.load(open("kane.json"))
assert verdict["offence"] is True and verdict["offender"] == "kane", verdict
assert open("kane.png", "rb").read(8) == b"\x89PNG\r\n\x1a\n"
print("offside:", verdict["offender"], verdict["margin_m"], "m; kane.png written")
PY

step "varroom audit statsbomb on the shipped sample"
sample=samples/statsbomb-euro2020-turkey-italy
varroom audit statsbomb --quiet --json \
    --event-data "$sample/statsbomb_3788741_event.json" \
    --lineup-data "$sample/statsbomb_3788741_lineup.json" \
    --three-sixty-data "$sample/statsbomb_3788741_360.json" > audit.json
python - <<'PY'
import json
audit = json.load(open("audit.json"))
calls = audit["official_calls"]
assert len(calls) == 6, f"the sample holds the match's six offside calls, the audit found {len(calls)}"
print(f"{len(calls)} official offside calls audited, {len(audit['incidents'])} engine incidents")
PY

step "varroom serve: /api/health and /"
python "$tools/serve_check.py" --page varroom serve --data-dir "$work/room"

printf '\nThe wheel works outside the checkout.\n'
