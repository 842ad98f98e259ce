"""Shared pytest setup: hypothesis profiles (CI runs more examples, never with deadlines), a
small real disk to fill, the SD card's checks in a run of their own (`--card`), the whole-system
checks left out unless ready, and, with CI=true, a skip of a trial the README presents as
checked made a failure."""

import errno
import os
import sqlite3
import subprocess
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, settings


def in_ci():
    """CI sets CI=true (.ci/run); unset, "", "0", "false" and "no" mean not CI."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


settings.register_profile("ci", max_examples=200, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=60, deadline=None)
settings.load_profile("ci" if in_ci() else "dev")


def pytest_addoption(parser):
    parser.addoption("--regen-golden", action="store_true", default=False,
                     help="rewrite the golden PNGs from the current renderer (on purpose only)")
    parser.addoption("--card", action="store_true", default=False,
                     help="run only the checks that build or boot the SD card image "
                          "(@pytest.mark.card; `sudo tools/test --card`)")


# The SD card's build and boot checks (@pytest.mark.card: tests/deploy/test_image.py's read-back
# of a built image, tools/pi-boot's booted VM) build arm64 Debian layers under emulation: about
# 50 minutes on 2 cores when /var/cache/companion is cold. They are a run of their own,
# `pytest --card` (`sudo tools/test --card`, a step of its own in .ci/run), never part of the
# default run, so that a first `tools/test` builds no operating system. Each run leaves the
# other's tests out at collection (deselected, not skipped) and its summary names them.
CARD_NOT_RUN = []

# The whole-system checks (tools/pi-boot's booted VM, the flashable card with its emulated venv)
# take 10-20 minutes more when their layer is cold, which every change to the installed sources
# makes it. Even in a --card run they are left out unless ready (their layer cached, or
# COMPANION_PI_BOOT=1), not skipped, and the summary says so and how to run them.
FULL_SYSTEM_NOT_RUN = []


# Trials the README presents as checked, that skip only where the machine does not permit them
# (mounting a tmpfs, making a network namespace: root), or where the workspace's shared/ is not
# beside the clone (the lessons' own-words check). CI runs as root beside shared/, so there a
# skip of one of them is a failure: a green CI run has run them all. Elsewhere it stays a skip,
# and -ra (addopts) prints its reason in the summary. A test is such a trial when it uses one
# of these fixtures or carries @pytest.mark.claimed.
CLAIMED_FIXTURES = {"small_disk"}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    claimed = (item.get_closest_marker("claimed") is not None
               or CLAIMED_FIXTURES & set(getattr(item, "fixturenames", ())))
    if report.skipped and claimed and in_ci() and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = (f"skipped under CI=true, but the README presents this trial as "
                           f"checked: {reason}")


def pytest_collection_modifyitems(config, items):
    card_run = config.getoption("--card")
    kept = []
    for item in items:
        is_card = item.get_closest_marker("card") is not None
        marker = item.get_closest_marker("full_system")
        if is_card != card_run:
            CARD_NOT_RUN.append(item)
        elif marker is not None and not marker.kwargs.get("ready", False):
            FULL_SYSTEM_NOT_RUN.append(item)
        else:
            kept.append(item)
    left_out = CARD_NOT_RUN + FULL_SYSTEM_NOT_RUN
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = kept


def pytest_terminal_summary(terminalreporter, config):
    """Name what this run left out, and how to run it (above pytest's closing count line)."""
    if CARD_NOT_RUN and not config.getoption("--card"):
        files = sorted({item.nodeid.split("::")[0] for item in CARD_NOT_RUN})
        terminalreporter.write_line(
            f"== {len(CARD_NOT_RUN)} long build "
            f"check{'s are' if len(CARD_NOT_RUN) > 1 else ' is'} not in this run (they build "
            "the card's Debian image, or render the case's speaker clash for every variant: "
            f"{', '.join(files)}): `sudo tools/test --card` runs them, as CI does "
            "in a step of its own; README.md, \"What each command takes\", says how long.")
    if FULL_SYSTEM_NOT_RUN:
        terminalreporter.write_line(
            f"== {len(FULL_SYSTEM_NOT_RUN)} whole-system checks are not in this run (their "
            "companion layer is not cached for this checkout): `sudo tools/pi-boot` and "
            "`sudo tools/build-image` run them, or COMPANION_PI_BOOT=1 with "
            "`sudo tools/test --card` (10-20 minutes more); docs/pi-image.md says what they check.")


def pytest_report_header(config):
    if config.getoption("--card"):
        return ("--card: only the SD card's build and boot checks (@pytest.mark.card); "
                "a cold build of its Debian layers takes about 50 minutes and prints its progress")
    return None


class SmallDisk:
    """A 4 MiB tmpfs at ``path``: :meth:`fill` writes a filler file until the disk refuses,
    :meth:`free` deletes it."""

    def __init__(self, path):
        self.path = path
        self.filler = path / "filler.bin"

    def fill(self):
        descriptor = os.open(self.filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            while True:
                os.write(descriptor, b"\xa5" * 4096)
        except OSError as error:
            if error.errno != errno.ENOSPC:
                raise
        finally:
            os.close(descriptor)

    def free(self):
        self.filler.unlink()

    def available(self):
        stats = os.statvfs(self.path)
        return stats.f_bavail * stats.f_frsize


@pytest.fixture
def small_disk(tmp_path):
    """A :class:`SmallDisk` of its own, for real disk-full trials; skipped only where mounting
    is not permitted (not root, no tmpfs), never for any other reason."""
    mount_point = tmp_path / "small-disk"
    mount_point.mkdir()
    try:
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs",
                                  str(mount_point)], capture_output=True, text=True, check=False)
    except (FileNotFoundError, PermissionError) as error:
        pytest.skip(f"cannot mount a small tmpfs here: {error}")
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {mounted.stderr.strip()}")
    try:
        yield SmallDisk(mount_point)
    finally:
        subprocess.run(["umount", "-l", str(mount_point)], check=False)


class ConnectionStandIn:
    """Stands in for a journal's SQLite connection (``self.connection``): every attribute and
    the ``with`` block go to it; a subclass's ``execute`` decides which statements fail."""

    def __getattr__(self, name):
        return getattr(self.connection, name)

    def __enter__(self):
        return self.connection.__enter__()

    def __exit__(self, *exc):
        return self.connection.__exit__(*exc)


class FullDisk(ConnectionStandIn):
    """A disk that refuses every write once :meth:`fill` ed, except into the space the
    journal's reserve frees if it was there to release (an injected fault: runs anywhere)."""

    def __init__(self, journal, monkeypatch):
        self.journal = journal
        self.full = False
        self.reserve_when_filled = False
        self.refused = 0
        self.connection = journal._db
        journal._db = self
        real_statvfs = os.statvfs

        def statvfs(path):
            stats = real_statvfs(path)
            return SimpleNamespace(f_bavail=0 if self.full else stats.f_bavail,
                                   f_frsize=stats.f_frsize)
        monkeypatch.setattr("companion.adapters.disk_reserve.os.statvfs", statvfs)

    def fill(self):
        self.full = True
        self.reserve_when_filled = self.journal.reserve.path.exists()

    def execute(self, sql, *parameters):
        room = self.reserve_when_filled and not self.journal.reserve.path.exists()
        if self.full and not room and not sql.startswith("SELECT"):
            self.refused += 1
            raise sqlite3.OperationalError("database or disk is full")
        return self.connection.execute(sql, *parameters)



@pytest.fixture
def full_disk(monkeypatch):
    """Make a journal's disk refusable: ``full_disk(journal).fill()`` (see :class:`FullDisk`)."""
    return lambda journal: FullDisk(journal, monkeypatch)
