"""is_raspberry_pi / board_model against fake /proc, /sys and /dev trees."""

from pathlib import Path

from companion.adapters.pi_probe import board_model, is_raspberry_pi


def _probe(tmp_path: Path, *, model: bytes | None = None, labels: tuple[str, ...] = ()):
    model_path = tmp_path / "device-tree" / "model"
    if model is not None:
        model_path.parent.mkdir(parents=True)
        model_path.write_bytes(model)
    sysfs = tmp_path / "sys-class-gpio"
    sysfs.mkdir(parents=True)
    for number, label in enumerate(labels):
        chip = sysfs / f"gpiochip{512 + number * 32}"
        chip.mkdir()
        (chip / "label").write_text(label + "\n")
    dev = tmp_path / "dev"
    dev.mkdir()
    return {"model_path": model_path, "gpio_sysfs": sysfs, "dev_dir": dev}


def test_is_raspberry_pi_from_the_device_tree_model(tmp_path):
    paths = _probe(tmp_path, model=b"Raspberry Pi 4 Model B Rev 1.5\x00")
    assert is_raspberry_pi(**paths)
    assert board_model(paths["model_path"]) == "Raspberry Pi 4 Model B Rev 1.5"


def test_is_raspberry_pi_from_a_gpio_chip_label(tmp_path):
    for label in ("pinctrl-bcm2835", "pinctrl-bcm2711", "pinctrl-rp1"):
        paths = _probe(tmp_path / label, labels=("raspberrypi-exp-gpio", label))
        assert is_raspberry_pi(**paths), label


def test_is_not_raspberry_pi_on_a_laptop(tmp_path):
    paths = _probe(tmp_path, model=b"Framework Laptop 13\x00", labels=("INT34C5:00",))
    assert not is_raspberry_pi(**paths)
    assert board_model(paths["model_path"]) == "Framework Laptop 13"


def test_is_not_raspberry_pi_when_nothing_is_readable(tmp_path):
    paths = _probe(tmp_path)
    (paths["dev_dir"] / "gpiochip0").write_text("not a character device")
    assert not is_raspberry_pi(**paths)
    assert board_model(paths["model_path"]) is None
    missing = tmp_path / "missing"
    assert not is_raspberry_pi(model_path=missing, gpio_sysfs=missing, dev_dir=missing)
