"""The text report: every figure on one line, its target and a mark beside it."""

from __future__ import annotations

import json
from typing import Any


def format_report(report: dict[str, Any]) -> str:
    """The figures as aligned lines, targets and a mark for each."""
    lines = [f"companion bench ({report['mode']}) on {report['machine']['platform']}, "
             f"Python {report['machine']['python']}, {report['machine']['cpu_count']} CPUs"]
    for name, figure in report.items():
        if name in ("mode", "machine", "targets_met") or not isinstance(figure, dict):
            continue
        shown = {key: value for key, value in figure.items() if key not in ("target", "met")}
        mark = "" if "met" not in figure else ("  ok" if figure["met"] else "  MISSED")
        target = f"  target {figure['target']}" if "target" in figure else ""
        lines.append(f"{name:36s} {json.dumps(shown)}{target}{mark}")
    for name in ("run_rss_mb", "startup_heaviest_imports"):
        if name in report:
            lines.append(f"{name:36s} {json.dumps(report[name])}")
    lines.append(f"all targets met: {report['targets_met']} "
                 f"({report.get('bench_seconds', '?')} s)")
    return "\n".join(lines)
