"""Claims of the docs checked against the code they describe (issue #36, 10): each was once
only partly true, and these keep them true."""

import re
import tomllib
from pathlib import Path

from companion.runtime.gameclock import CHECKPOINT_SECONDS
from companion.web.routes import ROUTES

ROOT = Path(__file__).resolve().parents[2]


def read(path):
    return (ROOT / path).read_text(encoding="utf-8")


def test_journal_md_names_the_codes_checkpoint_interval():
    text = read("docs/journal.md")
    assert f"one checkpoint interval ({CHECKPOINT_SECONDS:g} s)" in text


def test_public_mirror_docs_name_every_route_it_opens():
    opened = {route.path for route in ROUTES if route.need == "mirror"}
    assert "/api/games" in opened
    contract = read("docs/contract-additions.md")
    claim = contract[contract.index("`[web] public_mirror = true` opens only"):]
    claim = claim[:claim.index("\n- ")]
    assert set(re.findall(r"`(/api/[a-z./]+)`", claim)) == opened
    web = read("docs/web.md")
    sentence = web[web.index("with `public_mirror = true` unpaired"):]
    sentence = sentence[:sentence.index(".\n")]
    assert set(re.findall(r"`(/api/[a-z./]+)`", sentence)) == opened


def test_the_pages_hold_is_the_boxs_long_press():
    box_ms = tomllib.loads(read("companion/default_config.toml"))["buttons"]["long_press_ms"]
    page_ms = int(re.search(r"LONG_PRESS_DEFAULT_MS = (\d+);",
                            read("companion/web/static/common.js")).group(1))
    assert page_ms == box_ms
    assert f"({box_ms} ms, the box's default" in read("docs/web-page.md")
    # the page takes its hold time from nowhere else (the state carries none)
    assert "long_press_ms" not in read("companion/web/static/app.js")


def test_readmes_pi_trial_row_is_docs_pi_trials_last_pass():
    stands = re.search(r"### Where the trial stands \((\d{4}-\d\d-\d\d)\): passing\n\n(.*?)\n\n",
                       read("docs/pi-trial.md"), re.S)
    assert stands is not None
    date, text = stands.groups()
    seconds = re.search(r"\*\*(\d+) s\*\*", text).group(1)
    row = next(line for line in read("README.md").splitlines()
               if line.startswith("| `sudo tools/pi-trial` |"))
    assert date in row and f"{seconds} s" in row
