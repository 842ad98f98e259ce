"""tools/solder_steps.py: the "solder these joints" pictures, drawn from the pin map.

Checked on the layout each SVG is written from: every wire end of hardware/pinmap.toml is in
some step (its part end a joint, its header end a plug labelled with the pin), every
module-side link is a joint, each build draws each joint once, nothing runs through a joint it
does not end at or through text, and every text is whole and inside the picture.
"""

import copy
import importlib
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PINMAP = ROOT / "hardware" / "pinmap.toml"
SOLDER = ROOT / "hardware" / "solder"

sys.path.insert(0, str(ROOT / "tools"))  # the tools are scripts beside each other
TOOL = importlib.import_module("solder_steps")
DATA = tomllib.loads(PINMAP.read_text(encoding="utf-8"))
SPECS = TOOL.steps(DATA)
PICTURES = {spec.name: TOOL.picture(DATA, spec) for spec in SPECS}
PANELS = list(DATA["panels"])


def _build(panel, buzzer):
    """The pictures one builder follows: a panel, and the buzzer direct or through the NPN."""
    return [PICTURES[spec.name] for spec in SPECS
            if spec.buzzer in ("", buzzer)
            and spec.panel in ("", panel)]


def test_solder_steps_pictures_are_committed_and_up_to_date(tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "solder_steps.py"),
                           "--out-dir", str(tmp_path)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    fresh = sorted(p.name for p in tmp_path.glob("*.svg"))
    assert fresh == sorted(p.name for p in SOLDER.glob("*.svg"))
    assert fresh == sorted(f"{spec.name}.svg" for spec in SPECS)
    for name in fresh:
        assert (tmp_path / name).read_text(encoding="utf-8") == \
            (SOLDER / name).read_text(encoding="utf-8"), \
            f"hardware/solder/{name} is stale: run python3 tools/solder_steps.py"


def test_solder_steps_one_display_step_per_panel_and_both_buzzer_drives():
    names = [spec.name for spec in SPECS]
    assert [n for n in names if n.startswith("display-")] == [f"display-{p}" for p in PANELS]
    assert {spec.buzzer for spec in SPECS if "buzzer" in spec.parts} == {"direct", "npn"}


@pytest.mark.parametrize("name", list(PICTURES))
def test_solder_steps_picture_geometry_is_clean(name):
    assert TOOL.problems(PICTURES[name]) == []


@pytest.mark.parametrize("panel", PANELS)
@pytest.mark.parametrize("buzzer", ["direct", "npn"])
def test_solder_steps_every_wire_end_has_a_joint_once(panel, buzzer):
    build = _build(panel, buzzer)
    keys = [joint.key for pic in build for joint in pic.joints]
    assert len(keys) == len(set(keys)), "a joint is drawn in two steps"
    leads = [(run.part, run.terminal, run.pin) for pic in build for run in pic.runs
             if run.kind == "lead"]
    wires = [(part_id, w["terminal"], w["pin"])
             for part_id, part in TOOL.wd.parts_for(DATA, panel)
             for w in part["wires"] if buzzer == "npn" or not w.get("optional")]
    assert sorted(leads) == sorted(wires)
    for pic in build:
        here = {joint.key for joint in pic.joints}
        for run in pic.runs:
            if run.kind == "lead":
                (start,) = run.joints  # one joint at the part's end...
                assert start in here
                # ...and the plug at the header's end says which pin.
                assert any(t.group == f"plug:{run.pin}" and t.text.startswith(f"pin {run.pin} ")
                           for t in pic.texts)
    made = [joint.local for pic in build for joint in pic.joints if joint.local]
    wanted = [str(text) for part in DATA["parts"].values() for text in part.get("local", [])]
    wanted += [str(text) for text in DATA["panels"][panel].get("local", {}).values()]
    assert sorted(made) == sorted(wanted)


@pytest.mark.parametrize("name", list(PICTURES))
def test_solder_steps_each_joint_is_drawn_and_listed_once(name):
    pic = PICTURES[name]
    svg = TOOL.render_svg(pic)
    markers = svg.count('fill="url(#solder)" stroke="#4a4d52"') + svg.count('stroke="#888888"')
    assert markers == len(pic.joints)
    for number, joint in enumerate(pic.joints, 1):
        listed = " ".join(t.text for t in pic.texts if t.group == f"says:{joint.key}")
        assert listed.startswith(f"{number}. {joint.says} ("), listed


@pytest.mark.parametrize("name", list(PICTURES))
def test_solder_steps_notes_are_whole_and_said_once(name):
    """Every part's note is in the picture's introduction uncut, and no sentence twice (the
    buttons' "Momentary switch to the ground bus." is the start of NEXT's longer note)."""
    spec = next(spec for spec in SPECS if spec.name == name)
    intro = " ".join(t.text for t in PICTURES[name].texts if t.group == "intro")
    table = dict(TOOL.wd.parts_for(DATA, spec.panel) if spec.panel else TOOL.wd.parts(DATA))
    for part in spec.parts:
        if part != "ground_bus":
            assert " ".join(table[part]["note"].rstrip(".").split()) in intro
    sentences = [s.strip() for s in intro.replace(";", ".").split(".") if s.strip()]
    assert len(sentences) == len(set(sentences)), intro


@pytest.mark.parametrize(("ohms", "colours"), [
    (100, ("#8b4513", "#000000", "#8b4513")),     # brown black brown
    (330, ("#ff7f0e", "#ff7f0e", "#8b4513")),     # orange orange brown
    (68, ("#1f4fd6", "#8a8a8a", "#000000")),      # blue grey black
    (1000, ("#8b4513", "#000000", "#d62728")),    # brown black red
    (10_000, ("#8b4513", "#000000", "#ff7f0e")),  # brown black orange
])
def test_solder_steps_resistor_bands_read_the_value(ohms, colours):
    assert TOOL.bands(ohms) == colours


def _changed(edit):
    data = copy.deepcopy(DATA)
    edit(data)
    return data


@pytest.mark.parametrize(("data", "says"), [
    (_changed(lambda d: d["parts"]["buzzer"]["wires"][1].pop("series")), "series"),
    (_changed(lambda d: d["panels"]["ssd1309"]["local"].update(BS="BS: to GND")),
     "no solder picture"),
    (_changed(lambda d: d["parts"]["shutdown"]["wires"].pop()), "no wire 'B'"),
    (_changed(lambda d: d["parts"]["next"]["wires"][0].update(bcm=18)), "bcm 18 is not on pin"),
])
def test_solder_steps_refuse_a_pin_map_they_cannot_draw(data, says):
    with pytest.raises(TOOL.wd.PinmapError, match=says):
        TOOL.pictures(data)


def test_solder_steps_problems_finds_overlaps_wires_through_joints_and_cut_text():
    pic = TOOL.picture(DATA, next(spec for spec in SPECS if spec.name == "buttons"))
    first = pic.joints[0]
    lead = next(run for run in pic.runs if run.kind == "lead")
    pic.joints.append(TOOL.Joint("stray", "solder", first.x + 3, first.y, "a stray"))
    pic.joints.append(TOOL.Joint("on-a-lead", "solder", *lead.points[len(lead.points) // 2],
                                 "in the way"))
    pic.texts.append(TOOL.wd.Text(20, 20, "cut short..."))
    found = TOOL.problems(pic)
    assert any("overlap" in p and "stray" in p for p in found)
    assert any("runs through joint on-a-lead" in p for p in found)
    assert any("text cut" in p for p in found)
