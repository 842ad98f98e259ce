"""The run record: how runs ended, crashes in a row, the one-line reason, never a crash itself."""

import json
import logging

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.adapters.last_run import (
    CRASHED,
    FILE_NAME,
    KILLED,
    RUNNING,
    STOPPED,
    LastRun,
    LastRunFile,
    crash_reason,
    current_boot_id,
    parse,
    ready_status,
)


def _on_disk(state_dir):
    return json.loads((state_dir / FILE_NAME).read_text())


def test_last_run_first_start_is_ready_and_marks_running(tmp_path):
    record = LastRunFile(tmp_path / "state", boot_id="boot-1", pid=41)
    previous = record.begin()
    assert previous == LastRun()
    assert ready_status(previous) == "ready"
    assert _on_disk(tmp_path / "state") == {"state": RUNNING, "crashes": 0, "last_crash": "",
                                            "boot_id": "boot-1", "pid": 41}


def test_last_run_crash_is_one_line_counted_and_told_at_the_next_start(tmp_path):
    first = LastRunFile(tmp_path, boot_id="b")
    first.begin()
    first.crashed(ValueError("bad line\n  'next 3'"))
    on_disk = _on_disk(tmp_path)
    assert on_disk["state"] == CRASHED and on_disk["crashes"] == 1
    assert on_disk["last_crash"] == "ValueError: bad line 'next 3'"
    previous = LastRunFile(tmp_path, boot_id="b").begin()
    assert previous.crashes == 1
    assert ready_status(previous) == "ready; recovered after 1 crash, last: ValueError: bad line " \
                                     "'next 3'"
    assert _on_disk(tmp_path)["state"] == RUNNING  # the count stays until a clean stop
    assert _on_disk(tmp_path)["crashes"] == 1


@pytest.mark.parametrize(("later_boot", "crashes", "status"), [
    ("b", 1, f"ready; recovered after 1 crash, last: {KILLED}"),  # killed on this boot
    ("other-boot", 0, "ready"),                                   # a power cut: not a crash
])
def test_last_run_a_run_left_marked_running(tmp_path, later_boot, crashes, status):
    LastRunFile(tmp_path, boot_id="b").begin()  # then SIGKILL: nothing more is written
    previous = LastRunFile(tmp_path, boot_id=later_boot).begin()
    assert previous.crashes == crashes
    assert ready_status(previous) == status


def test_last_run_counts_crashes_in_a_row_until_a_clean_stop(tmp_path):
    for n in range(1, 4):
        record = LastRunFile(tmp_path, boot_id="b")
        assert record.begin().crashes == n - 1
        record.crashed(OSError(121, "Remote I/O error"))
    record = LastRunFile(tmp_path, boot_id="b")
    previous = record.begin()
    assert ready_status(previous) == ("ready; recovered after 3 crashes, last: OSError: "
                                      "[Errno 121] Remote I/O error")
    record.stopped()
    assert _on_disk(tmp_path)["state"] == STOPPED and _on_disk(tmp_path)["crashes"] == 0
    assert ready_status(LastRunFile(tmp_path, boot_id="b").begin()) == "ready"


@pytest.mark.parametrize("text", ["", "{", "[]", "null", '{"state": "asleep"}',
                                  '{"state": "crashed", "crashes": -3, "pid": "x"}',
                                  "\udcff not json"])
def test_last_run_garbled_record_counts_as_none_and_is_replaced(tmp_path, text, caplog):
    (tmp_path / FILE_NAME).write_text(text, errors="surrogateescape")
    with caplog.at_level(logging.WARNING):
        previous = LastRunFile(tmp_path, boot_id="b").begin()
    assert previous.crashes == 0
    assert _on_disk(tmp_path)["state"] == RUNNING


def test_last_run_that_cannot_be_written_warns_once_and_never_raises(tmp_path, caplog):
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x")
    record = LastRunFile(not_a_folder, boot_id="b")
    with caplog.at_level(logging.WARNING, logger="companion.adapters.last_run"):
        assert record.begin() == LastRun()
        record.crashed(RuntimeError("x"))
        record.stopped()
    assert len([r for r in caplog.records if "cannot write" in r.getMessage()]) == 1
    assert not_a_folder.read_text() == "x"


@pytest.mark.parametrize(("error", "reason"), [
    (ValueError("x"), "ValueError: x"),
    (KeyError("next"), "KeyError: 'next'"),
    (RuntimeError(), "RuntimeError"),
    (ValueError("a" * 1000), "ValueError: " + "a" * 285 + "..."),
])
def test_last_run_crash_reason(error, reason):
    assert crash_reason(error) == reason
    assert len(crash_reason(error)) <= 300


def test_last_run_boot_id_is_empty_where_the_kernel_has_none(tmp_path):
    assert current_boot_id(str(tmp_path / "missing")) == ""
    (tmp_path / "boot_id").write_text("abc-123\n")
    assert current_boot_id(str(tmp_path / "boot_id")) == "abc-123"


@given(st.one_of(st.text(), st.dictionaries(
    st.sampled_from(["state", "crashes", "last_crash", "boot_id", "pid", "x"]),
    st.one_of(st.sampled_from([RUNNING, STOPPED, CRASHED]), st.integers(), st.text(),
              st.none(), st.lists(st.integers()))).map(json.dumps)))
def test_last_run_parse_never_raises_and_answers_a_sane_record(text):
    found = parse(text)
    assert found is None or (found.state in (RUNNING, STOPPED, CRASHED) and found.crashes >= 0
                             and isinstance(found.pid, int))


@given(st.lists(st.sampled_from(["crash", "kill", "stop", "power-cut"]), max_size=12))
def test_last_run_counts_like_a_simple_model(tmp_path_factory, endings):
    state_dir = tmp_path_factory.mktemp("runs")
    boot, expected = 0, 0
    for ending in endings:
        record = LastRunFile(state_dir, boot_id=f"boot-{boot}")
        assert record.begin().crashes == expected
        if ending == "crash":
            record.crashed(ValueError("x"))
            expected += 1
        elif ending == "kill":
            expected += 1  # nothing written: the next start on this boot finds it running
        elif ending == "stop":
            record.stopped()
            expected = 0
        else:
            boot += 1  # the machine went off with it: the count carries, nothing is added
    assert LastRunFile(state_dir, boot_id=f"boot-{boot}").begin().crashes == expected
