"""The files the commands write (issue 23, "Files and records"): a file that exists is refused without --force
(or --append), is never emptied by a run that fails or is interrupted before it has a game, and a replaced file
stays whole until its replacement is."""

import json
import os
import stat

import pytest

from azul_engine import outputs, records
from azul_engine.__main__ import main

OLD = b'{"old": "a game the user kept"}\n'


def run(argv, capsys):
    code = main(argv)
    return code, capsys.readouterr().err


@pytest.fixture
def kept(tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_bytes(OLD)
    return path


def leftovers(folder):
    return [name for name in os.listdir(folder) if name.endswith(".partial")]


@pytest.mark.parametrize("command", [
    ["record", "--games", "1", "--bot", "random"],
    ["tournament", "--bots", "random,greedy", "--games", "2", "--workers", "1"],
])
def test_an_existing_record_file_is_refused_without_force_or_append(command, kept, capsys):
    code, err = run(command + ["-o", str(kept)], capsys)
    assert code == 2
    assert "cannot write %s: it already exists (--force replaces it, --append adds to it)" % kept in err
    assert kept.read_bytes() == OLD and not leftovers(kept.parent)


@pytest.mark.parametrize("command", [
    ["record", "--games", "2", "--bot", "random"],
    ["tournament", "--bots", "random,greedy", "--games", "2", "--workers", "1"],
])
@pytest.mark.slow
def test_force_replaces_and_append_adds(command, kept, capsys):
    assert run(command + ["-o", str(kept), "--append"], capsys)[0] == 0
    lines = kept.read_bytes().splitlines(keepends=True)
    assert lines[0] == OLD and len(lines) == 3
    assert all(json.loads(line)["format"] == "azul-record" for line in lines[1:])
    assert run(command + ["-o", str(kept), "--force"], capsys)[0] == 0
    lines = kept.read_bytes().splitlines()
    assert len(lines) == 2 and all(json.loads(line)["format"] == "azul-record" for line in lines)
    assert not leftovers(kept.parent)


def test_force_and_append_together_is_a_usage_error(kept, capsys):
    code, err = run(["record", "--bot", "random", "-o", str(kept), "--force", "--append"], capsys)
    assert code == 2 and "not both" in err and kept.read_bytes() == OLD


def test_a_new_record_file_is_made(tmp_path, capsys):
    path = tmp_path / "new.jsonl"
    assert run(["record", "--bot", "random", "-o", str(path)], capsys)[0] == 0
    assert len(path.read_bytes().splitlines()) == 1 and not leftovers(tmp_path)


@pytest.mark.parametrize("command", [["replay"], ["board"]])
def test_an_existing_page_or_picture_is_refused_without_force(command, kept, tmp_path, capsys):
    records.write(tmp_path / "g.jsonl", [_game()])
    out = tmp_path / ("page.html" if command == ["replay"] else "board.svg")
    out.write_bytes(b"mine")
    argv = command + [str(tmp_path / "g.jsonl"), "-o", str(out)]
    if command == ["board"]:
        argv = ["board", "--game", "1", str(tmp_path / "g.jsonl"), "-o", str(out)]
    code, err = run(argv, capsys)
    assert code == 2 and "cannot write %s: it already exists (--force replaces it)" % out in err
    assert out.read_bytes() == b"mine"
    assert run(argv + ["--force"], capsys)[0] == 0
    assert out.read_bytes().startswith(b"<") and not leftovers(tmp_path)


def _game():
    import azul_engine
    from azul_engine import bots
    return bots.play(azul_engine.load_backend("python"), 2, "classic", 1, "greedy")


class Stop(BaseException):
    """As an interrupt would."""


def test_an_interrupt_before_the_first_line_keeps_the_old_file(kept):
    with pytest.raises(Stop):
        with outputs.LineWriter(kept, "replace"):
            raise Stop
    assert kept.read_bytes() == OLD and not leftovers(kept.parent)


def test_a_new_file_grows_in_place_and_an_interrupt_before_its_first_line_leaves_none(tmp_path):
    path = tmp_path / "grows.jsonl"
    with outputs.LineWriter(path) as out:
        out.write_line('{"a": 1}')
        assert path.read_bytes() == b'{"a": 1}\n' and not leftovers(tmp_path)


def test_an_interrupt_before_the_first_line_makes_no_new_file(tmp_path):
    path = tmp_path / "new.jsonl"
    with pytest.raises(Stop):
        with outputs.LineWriter(path):
            raise Stop
    assert not path.exists() and not leftovers(tmp_path)


def test_the_old_file_is_whole_until_the_new_one_is(kept):
    with outputs.LineWriter(kept, "replace") as out:
        out.write_line('{"new": 1}')
        assert kept.read_bytes() == OLD  # still the old file: the new one is beside it
        assert len(leftovers(kept.parent)) == 1
    assert kept.read_bytes() == b'{"new": 1}\n' and not leftovers(kept.parent)


def test_an_interrupted_or_failed_replacement_leaves_the_old_file_whole(kept):
    """An interrupt (or a full disk) after the new file's first line left that partial file in place of the old
    one (issue 38): the old file stays whole until the new one is complete, and nothing is left beside it."""
    for stop in (Stop, OSError(28, "No space left on device")):
        with pytest.raises(type(stop) if isinstance(stop, BaseException) else stop):
            with outputs.LineWriter(kept, "replace") as out:
                out.write_line('{"new": 1}')
                out._file.write(b'{"half": ')
                raise stop
        assert kept.read_bytes() == OLD and not leftovers(kept.parent)


def test_an_interrupt_keeps_the_whole_lines_of_a_new_file(tmp_path):
    path = tmp_path / "new.jsonl"
    with pytest.raises(Stop):
        with outputs.LineWriter(path) as out:
            out.write_line('{"new": 1}')
            out._file.write(b'{"half": ')
            raise Stop
    assert path.read_bytes() == b'{"new": 1}\n'


def test_an_interrupted_append_is_cut_back_to_its_whole_lines(kept):
    with pytest.raises(Stop):
        with outputs.LineWriter(kept, "append") as out:
            out.write_line('{"new": 1}')
            out._file.write(b'{"half": ')
            raise Stop
    assert kept.read_bytes() == OLD + b'{"new": 1}\n'


def test_appending_to_a_file_that_ends_mid_line_is_refused(tmp_path):
    path = tmp_path / "cut.jsonl"
    path.write_bytes(b'{"a": 1}\n{"b"')
    with pytest.raises(OSError, match="does not end with a whole line"):
        outputs.LineWriter(path, "append")
    assert path.read_bytes() == b'{"a": 1}\n{"b"'


def test_a_replaced_file_keeps_its_permissions_and_a_new_one_follows_the_umask(kept, tmp_path):
    os.chmod(kept, 0o640)
    outputs.write_text(str(kept), "x\n", "replace")
    assert stat.S_IMODE(os.stat(kept).st_mode) == 0o640
    umask = os.umask(0o022)
    try:
        outputs.write_text(str(tmp_path / "n.txt"), "x\n")
    finally:
        os.umask(umask)
    assert stat.S_IMODE(os.stat(tmp_path / "n.txt").st_mode) == 0o644


def test_a_directory_or_an_unknown_mode_is_an_error(tmp_path):
    with pytest.raises(IsADirectoryError):
        outputs.LineWriter(tmp_path, "replace")
    with pytest.raises(ValueError, match="mode must be one of new, replace, append"):
        outputs.LineWriter(tmp_path / "x", "overwrite")
    with pytest.raises(ValueError, match="--append does not apply"):
        outputs.write_text(str(tmp_path / "x"), "", "append")


def test_a_device_is_written_in_place():
    with outputs.LineWriter(os.devnull) as out:  # exists, not a regular file: not refused, no temporary file
        out.write_line("{}")
    assert os.path.exists(os.devnull)


def test_records_write_refuses_an_existing_file(kept):
    with pytest.raises(outputs.OutputExists):
        records.write(kept, [])
    records.write(kept, [], mode="replace")
    assert kept.read_bytes() == b""


@pytest.mark.slow
def test_a_run_that_cannot_reach_ray_leaves_the_file_it_was_to_replace(kept):
    import subprocess
    import sys

    # In a process of its own: importing ray here would make the test session's own Ray instance (tests/test_ray.py)
    # miss its loopback-only setting, which must come before the first import.
    done = subprocess.run([sys.executable, "-m", "azul_engine", "record", "--bot", "random", "-o", str(kept),
                           "--force", "--ray", "127.0.0.1:1"], capture_output=True, text=True, timeout=120)
    code, err = done.returncode, done.stderr
    # Without the ray package (the sanitizer run leaves it out) the run stops earlier, for that reason, and must keep
    # the file just the same.
    assert code == 2 and ("127.0.0.1:1" in err or "needs the ray package" in err), err
    assert kept.read_bytes() == OLD and not leftovers(kept.parent)


def test_append_to_a_file_not_there_makes_it(tmp_path):
    path = tmp_path / "new.jsonl"
    with outputs.LineWriter(path, "append") as out:
        out.write_line("{}")
    assert path.read_bytes() == b"{}\n"


@pytest.mark.skipif(outputs.fcntl is None, reason="no fcntl (Windows): a killed run's temporary file stays")
def test_a_killed_runs_temporary_file_goes_and_a_running_ones_stays(kept):
    """A run writing a replacement holds a lock on its temporary file; the next run writing the same path removes
    those whose lock is free (their run was killed) and leaves those of runs still writing, and other files."""
    import fcntl

    dead, live = kept.parent / ".games.jsonl.abcd1234.partial", kept.parent / ".games.jsonl.live_123.partial"
    other = kept.parent / ".games.jsonl.abcd1234.partial.mine"
    for path in (dead, live, other):
        path.write_bytes(b'{"half": ')
    with open(live, "rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        with outputs.LineWriter(kept, "replace") as out:
            out.write_line('{"new": 1}')
            assert sorted(leftovers(kept.parent)) == sorted([live.name, os.path.basename(out._temp)])
    assert kept.read_bytes() == b'{"new": 1}\n' and leftovers(kept.parent) == [live.name] and other.exists()
