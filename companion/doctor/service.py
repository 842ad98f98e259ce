"""The doctor's service checks: is the companion service up, and how did its last run end?

Rules these checks keep (as every check, see checks.py), and what they read:
- `service`: `systemctl is-active companion`. When systemd gave up restarting it (the start
  limit), its fix is `systemctl reset-failed`, since `systemctl start` alone is refused then.
- `last-run`: the run record the daemon keeps in its state directory (adapters/last_run.py:
  crashes in a row and the last one-line reason) and `systemctl show companion.service -p
  ActiveState,Result,NRestarts`. It fails when the service failed, when systemd gave up after
  repeated crashes (Result=start-limit-hit: then it says why and how to re-arm it), or when the
  last run crashed and the service is not running. A box that recovered after crashes passes,
  with the count and the last reason in its line.
- Both read what `run_checks` gathered once into the context (`service_state`,
  `service_properties`), so systemctl runs once per question.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.adapters.last_run import CRASHED, FILE_NAME, RUNNING, STOPPED, LastRun, parse
from companion.doctor.checks import Check, Context
from companion.doctor.probe import DoctorProbe

__all__ = ["PROPERTIES", "STATE_DIR", "check_last_run", "check_service"]

# The unit's StateDirectory=companion (a link to /var/lib/private/companion, which only root
# may read: the service runs as a DynamicUser).
STATE_DIR = "/var/lib/companion"
PROPERTIES = ("ActiveState", "Result", "NRestarts")
LOGS = "journalctl -u companion -b --no-pager | tail -n 30"
REARM = "sudo systemctl reset-failed companion && sudo systemctl start companion"
WHY_REARM = ("systemd stops restarting a service that fails 5 times within 10 minutes "
             "(StartLimitBurst= in the unit), so a fault cannot loop forever; it then refuses "
             "to start it until reset-failed clears the count")


def _start_limit_hit(ctx: Context) -> bool:
    properties = ctx.get("service_properties") or {}
    return bool(properties.get("Result") == "start-limit-hit")


def check_service(config: Mapping[str, Any], probe: DoctorProbe, ctx: Context) -> Check:
    state = ctx["service_state"]
    if state == "active":
        return Check("service", True, "companion.service is active")
    if _start_limit_hit(ctx):
        return Check("service", False, f"companion.service is {state}: systemd gave up "
                     "restarting it", f"see last-run below, then: {REARM}")
    return Check("service", False, f"companion.service is {state}",
                 "sudo systemctl enable --now companion; if it fails: " + LOGS)


def _story(record: LastRun | None, path: str) -> str:
    """What the run record says, in words."""
    if record is None:
        return (f"no run record at {path} (the service has not run yet, or only root may read "
                "it: sudo companion doctor)")
    times = "crash" if record.crashes == 1 else "crashes"
    if record.state == CRASHED:
        return f"the last run crashed ({record.crashes} {times} in a row): {record.last_crash}"
    if record.state == RUNNING and record.crashes:
        return f"running, recovered after {record.crashes} {times}, last: {record.last_crash}"
    if record.state == RUNNING:
        return "running, no crash since the last clean stop"
    assert record.state == STOPPED
    return "the last run stopped cleanly"


def check_last_run(config: Mapping[str, Any], probe: DoctorProbe, ctx: Context) -> Check:
    path = f"{ctx.get('state_dir', STATE_DIR)}/{FILE_NAME}"
    record = parse(probe.read_text(path))
    properties = ctx.get("service_properties")
    if properties:
        active = properties.get("ActiveState", "unknown")
        systemd = (f"systemd: {active}, result {properties.get('Result', 'unknown')}, "
                   f"{properties.get('NRestarts', '?')} automatic restarts")
    else:
        active, systemd = "unknown", "systemd: no answer from systemctl show"
    detail = f"{_story(record, path)}; {systemd}"
    if _start_limit_hit(ctx):
        return Check("last-run", False, f"systemd gave up after repeated failures; {detail}",
                     f"find the cause (the reason above, and {LOGS}) and fix it, then: "
                     f"{REARM}. Why: {WHY_REARM}")
    if active == "failed" or (record is not None and record.state == CRASHED
                              and active != "active"):
        return Check("last-run", False, detail,
                     f"see why: {LOGS}; once fixed: sudo systemctl restart companion")
    return Check("last-run", True, detail)
