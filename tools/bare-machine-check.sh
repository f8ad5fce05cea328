#!/usr/bin/env bash
# The README's two set-up commands as a new user runs them on a machine with nothing but Python
# and make: a fresh clone of HEAD in a folder of its own (no ../shared/data beside it), `make
# demo` then `make test`, with CI unset and, in a mount namespace of its own, Chromium,
# PostgreSQL's server, curl, git and every system font hidden: PATH holds links to this
# machine's commands less those, and tmpfs covers Chromium's, PostgreSQL's and the fonts'
# folders. The tests that need what is hidden must skip with their reasons (tests/machine.py);
# any failure fails this check. A green `make test` on a developer's machine proves little:
# this is the machine a user has.
# Usage: tools/bare-machine-check.sh [PYTHON]   (as root: it mounts; .ci/run runs it)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# The interpreter itself, not a version manager's shim (which would need what PATH hides).
python=$("${1:-python3}" -c 'import sys; print(sys.executable)')
work=$(mktemp -d "${TMPDIR:-/tmp}/varroom-bare.XXXXXX")
cleanup() { rm -rf "$work"; }
trap cleanup EXIT

git clone -q "$root" "$work/varroom"

# PATH: a link to each command this machine has, less what a bare machine lacks. The first
# found on PATH wins, as the shell would take it.
hidden='^(chromium.*|chromedriver|curl|git.*|psql|pg_.*|initdb|postgres|createdb|dropdb)$'
mkdir "$work/bin"
IFS=: read -r -a dirs <<< "$PATH"
for dir in "${dirs[@]}"; do
    [ -d "$dir" ] || continue
    for program in "$dir"/*; do
        name=$(basename "$program")
        [[ -x "$program" && ! -d "$program" ]] || continue
        [[ "$name" =~ $hidden ]] && continue
        [ -e "$work/bin/$name" ] || ln -s "$program" "$work/bin/$name"
    done
done
ln -sf "$python" "$work/bin/python3"

# Chromium's and PostgreSQL's programs and the system's fonts gone; matplotlib's font cache and
# pip's settings of this machine unseen (a fresh home), pip's download cache kept (the same
# files, checked by the lock's hashes).
run_bare() {
    unshare --mount --propagation private bash -euo pipefail -c '
        for folder in /usr/lib/chromium /usr/lib/postgresql /usr/share/fonts /usr/local/share/fonts; do
            if [ -d "$folder" ]; then mount -t tmpfs none "$folder"; fi
        done
        work=$1 cache=$2
        as_a_new_user() {
            env -u CI -u VIRTUAL_ENV -u PYTHONPATH PATH="$work/bin" HOME="$work/home" \
                MPLCONFIGDIR="$work/home/mpl" PIP_CACHE_DIR="$cache" "$@"
        }
        cd "$work/varroom"
        as_a_new_user make demo
        as_a_new_user make test
    ' bare "$work" "$(pip_cache)"
}
pip_cache() { "$python" -m pip cache dir 2>/dev/null || echo "$HOME/.cache/pip"; }
mkdir -p "$work/home"
run_bare
echo "bare machine: make demo and make test passed in a fresh clone without Chromium, PostgreSQL, curl, git or system fonts"
