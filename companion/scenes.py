"""Screen scenes: named protocol scripts whose final screen ``companion render`` draws.

Each game's view module lists its own scenes (``SCENES``, names prefixed with the game).

The README's pictures and the golden PNG tests come from these scenes, run on the same
simulated controller as ``companion simulate`` (fake clock, fake hardware), so a scene is
exactly what a user sees after typing those lines.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from PIL import Image

from companion.runtime import Controller
from companion.testing.simulated import simulated_controller
from companion.ui.render import render
from companion.ui.views import all_view_scenes
from companion.ui.views.menu import SCENES as MENU_SCENES

SCENES: dict[str, tuple[str, ...]] = {"menu": (), **MENU_SCENES, **all_view_scenes()}


def run_scene(lines: tuple[str, ...], state_dir: Path, seed: int = 1) -> Controller:
    """A simulated controller after ``lines``. Only the last line may get an error reply
    (a scene may show a refusal); an error before it raises, since the scene went wrong."""
    controller = simulated_controller(state_dir, seed=seed)
    for number, line in enumerate(lines, start=1):
        reply = controller.command_line(line)
        if reply is not None and reply.startswith("err") and number < len(lines):
            raise ValueError(f"scene line {line!r} got {reply!r}")
    return controller


def render_scene(name: str) -> Image.Image:
    with tempfile.TemporaryDirectory(prefix="companion-scene-") as state_dir:
        controller = run_scene(SCENES[name], Path(state_dir))
        try:
            return render(controller.screen())
        finally:
            controller.journal.close()
