"""What a process imports: `import varroom` and `varroom check --json` load only what they use
(the bench holds `check`'s time against `import numpy`), `varroom --help` no command and
`varroom CMD --help` only CMD's, the package's names load on first use,
the console script leaves nothing behind for the last collection at exit, and the collector
makes no passes while a command imports and `check` draws."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from typing import Any

import click
import pytest

import varroom
import varroom.profiles.judging as judging_module
from conftest import EXAMPLES
from varroom.cli import collector
from varroom.cli.main import _LAZY_COMMANDS, cli
from varroom.kinds import resolve

KANE = EXAMPLES / "tottenham-sporting-2022-kane.json"
# Libraries `check --json` never needs (rich prints the panel without --json).
HEAVY = {"kloppy", "rich", "scipy", "matplotlib", "mplsoccer", "pandas", "PIL"}
# The parts of varroom judging a situation never needs.
OTHER_PARTS = (
    "varroom.engine.ball_line",
    "varroom.engine.penalty",
    "varroom.pictures",
    "varroom.still",
    "varroom.serve",
    "varroom.audit",
    "varroom.match",
    "varroom.live",
    "varroom.season",
)


def modules_after(code: str, *args: str) -> set[str]:
    """The modules loaded once `code` has run in a fresh interpreter (with `args` as argv)."""
    script = f"import sys\n{code}\nimport json\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, check=True
    )
    loaded: set[str] = set(json.loads(done.stdout.splitlines()[-1]))
    return loaded


def under(modules: set[str], prefixes: tuple[str, ...] | set[str]) -> set[str]:
    return {m for m in modules if any(m == p or m.startswith(p + ".") for p in prefixes)}


def console_script(*args: str) -> str:
    """Code running the console script's own entry point with `args`, as `varroom ARGS` does."""
    return (
        f"sys.argv = ['varroom', *{list(args)!r}]\n"
        "from varroom.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass"
    )


def test_import_varroom_loads_no_part_of_it() -> None:
    loaded = modules_after("import varroom")
    # The package and what resolves its names on first use, nothing else.
    assert under(loaded, ("varroom",)) == {"varroom", "varroom.lazy_names"}
    assert under(loaded, HEAVY | {"numpy"}) == set()


def test_a_name_loads_its_own_part_only() -> None:
    loaded = modules_after("from varroom import judge")
    assert "varroom.engine.judge" in loaded
    assert under(loaded, OTHER_PARTS) == set()


def test_check_json_imports_only_what_judging_a_situation_needs() -> None:
    """Through the console script's own entry point, as `varroom check` runs."""
    loaded = modules_after(console_script("check", str(KANE), "--json"))
    assert "varroom.engine.judge" in loaded  # it did judge
    assert under(loaded, HEAVY) == set()
    assert under(loaded, OTHER_PARTS) == set()


# What the command line needs before it knows the command: the group and its shared options.
CLI_BASE = {"varroom.cli", "varroom.cli.main", "varroom.cli.options", "varroom.cli.collector"}
COMMAND_MODULES = {module for module, _, _ in _LAZY_COMMANDS.values()}


def test_help_imports_no_command() -> None:
    loaded = modules_after(console_script("--help"))
    assert under(loaded, ("varroom.cli",)) == CLI_BASE
    assert under(loaded, HEAVY | {"numpy"}) == set()


@pytest.mark.parametrize("name", sorted(_LAZY_COMMANDS))
def test_a_commands_help_imports_that_command_only(name: str) -> None:
    """No other command (`replay` and `audit` share the match's file options, which are in a
    module of their own)."""
    module = _LAZY_COMMANDS[name][0]
    loaded = modules_after(console_script(name, "--help"))
    assert loaded & COMMAND_MODULES == {module}


@pytest.mark.parametrize("name", sorted(_LAZY_COMMANDS))
def test_the_listed_help_is_the_commands_own(name: str) -> None:
    """--help lists a lazy command's line from the table: the one its docstring gives."""
    command = cli.get_command(click.Context(cli), name)
    assert command is not None and not command.hidden
    assert _LAZY_COMMANDS[name][2] == command.get_short_help_str(sys.maxsize)


@pytest.mark.parametrize("width_chars", [60, 80, 120])
def test_help_lists_the_commands_as_click_would_with_them_imported(width_chars: int) -> None:
    """Shortened to the terminal's width the same way."""
    context = click.Context(cli, terminal_width=width_chars)
    imported = click.Group(
        commands={name: cli.get_command(context, name) for name in cli.list_commands(context)}
    )
    listings = []
    for group in (cli, imported):
        formatter = context.make_formatter()
        group.format_commands(context, formatter)
        listings.append(formatter.getvalue())
    assert listings[0] == listings[1]


@pytest.mark.parametrize("name", varroom.__all__)
def test_every_public_name_is_the_one_its_module_defines(name: str) -> None:
    value = getattr(varroom, name)
    module = sys.modules[value.__module__]
    assert getattr(module, name) is value
    assert name in dir(varroom)


def test_star_import_gives_every_public_name() -> None:
    names: dict[str, object] = {}
    exec("from varroom import *", names)
    assert set(varroom.__all__) <= set(names)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'judge_everything'"):
        _ = varroom.judge_everything  # type: ignore[attr-defined]


def test_the_console_script_freezes_what_is_alive_at_exit() -> None:
    """The last collection skips frozen objects: after `main`, at exit, all are frozen."""
    code = (
        "import atexit, gc, sys\n"
        "sys.argv = ['varroom', 'check', sys.argv[1], '--json']\n"
        "from varroom.cli import main\n"
        "atexit.register(lambda: print('frozen', gc.get_freeze_count() > 0))\n"
        "try:\n    main()\nexcept SystemExit:\n    pass"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(KANE)], capture_output=True, text=True, check=True
    )
    assert done.stdout.splitlines()[-1] == "frozen True"


def test_the_collector_is_paused_inside_and_as_it_was_after() -> None:
    assert gc.isenabled()
    with collector.paused():
        assert not gc.isenabled()
        with collector.paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer pause stays
    assert gc.isenabled()
    with pytest.raises(RuntimeError), collector.paused():
        raise RuntimeError
    assert gc.isenabled()


def test_check_judges_without_the_collector(run_cli, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []
    judge = judging_module.judge_situation

    def judging(*args: Any, **kwargs: Any) -> Any:
        seen.append(gc.isenabled())
        return judge(*args, **kwargs)

    # The registry resolves a kind's judge by name on first use: clear what it resolved.
    monkeypatch.setattr(judging_module, "judge_situation", judging)
    resolve.cache_clear()
    try:
        assert run_cli("check", str(KANE), "--json").exit_code == 0
    finally:
        resolve.cache_clear()
    assert seen == [False]
    assert gc.isenabled()


def test_a_lazy_name_is_kept_a_moved_one_warns_each_time_and_an_unknown_one_is_refused() -> None:
    import varroom.pictures
    import varroom.render

    scene = varroom.pictures.write_scene
    assert vars(varroom.pictures)["write_scene"] is scene  # imported once, then an attribute
    assert "write_scene" in dir(varroom.pictures)
    for _ in range(2):
        with pytest.warns(DeprecationWarning, match="varroom.pictures.decision.write_decision"):
            old = varroom.render.render_png
    assert "render_png" not in vars(varroom.render)
    assert old is varroom.pictures.write_decision
    with pytest.raises(AttributeError, match="'varroom.pictures' has no attribute 'nothing'"):
        _ = varroom.pictures.nothing  # type: ignore[attr-defined]
