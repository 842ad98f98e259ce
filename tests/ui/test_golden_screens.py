"""Every screen scene against its golden PNG (regenerate on purpose: pytest --regen-golden)."""

from pathlib import Path

import pytest
from PIL import Image

from companion.scenes import SCENES, render_scene, run_scene
from companion.ui.screen import reads_from_a_seat, screen_problems

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("scene", list(SCENES))
def test_golden_scene_fits_the_panel(scene, tmp_path):
    controller = run_scene(SCENES[scene], tmp_path)
    assert not screen_problems(controller.screen())
    controller.journal.close()


@pytest.mark.parametrize("scene", list(SCENES))
def test_golden_screen(scene, request):
    image = render_scene(scene)
    golden = GOLDEN / f"{scene}.png"
    if request.config.getoption("--regen-golden"):
        image.save(golden)
        return
    assert golden.exists(), f"no golden for {scene}: run pytest --regen-golden and look at it"
    expected = Image.open(golden).convert("1")
    assert image.size == expected.size == (128, 64)
    assert image.tobytes() == expected.tobytes(), f"{scene} differs from {golden}"


@pytest.mark.parametrize("scene", list(SCENES))
def test_every_scene_says_what_to_do_in_a_font_read_from_a_seat(scene, tmp_path):
    controller = run_scene(SCENES[scene], tmp_path)
    screen = controller.screen()
    controller.journal.close()
    assert reads_from_a_seat(screen), f"{scene}: only small lines: {screen.text_lines()}"
