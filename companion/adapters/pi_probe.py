"""Is this a Raspberry Pi? The probe behind `companion run --backend auto`.

Promises:
- `is_raspberry_pi()` is True when a Raspberry Pi GPIO chip is present: the device tree's model
  names a Raspberry Pi, or a GPIO chip carries a Raspberry Pi pin-controller label
  (pinctrl-bcm2835 on Pi 1-3 and Zero, pinctrl-bcm2711 on Pi 4, pinctrl-rp1 / pinctrl-bcm2712 on
  Pi 5), read from sysfs or, failing that, from /dev/gpiochip* itself.
- It only reads files; it never claims a pin, imports a hardware library or raises. Anything it
  cannot read counts as "not a Pi" (a laptop, a container, macOS).
- Every path is a keyword argument, so tests can point the probe at a fake tree.
"""

from __future__ import annotations

import fcntl
import os
import struct
from pathlib import Path

__all__ = ["PI_GPIO_LABELS", "board_model", "gpio_chip_labels", "is_raspberry_pi"]

MODEL_PATH = Path("/proc/device-tree/model")
GPIO_SYSFS = Path("/sys/class/gpio")
DEV_DIR = Path("/dev")

PI_GPIO_LABELS = frozenset({"pinctrl-bcm2835", "pinctrl-bcm2711", "pinctrl-bcm2712",
                            "pinctrl-rp1"})

# struct gpiochip_info { char name[32]; char label[32]; __u32 lines; } from <linux/gpio.h>,
# read with GPIO_GET_CHIPINFO_IOCTL = _IOR(0xB4, 0x01, struct gpiochip_info).
_CHIPINFO = struct.Struct("32s32sI")
_GPIO_GET_CHIPINFO_IOCTL = (2 << 30) | (_CHIPINFO.size << 16) | (0xB4 << 8) | 0x01


def board_model(model_path: Path = MODEL_PATH) -> str | None:
    """The board's model string from the device tree ("Raspberry Pi 4 Model B Rev 1.5"), or None."""
    try:
        raw = model_path.read_bytes()
    except OSError:
        return None
    text = raw.replace(b"\0", b"").decode("utf-8", "replace").strip()
    return text or None


def gpio_chip_labels(gpio_sysfs: Path = GPIO_SYSFS, dev_dir: Path = DEV_DIR) -> list[str]:
    """Labels of the GPIO chips: from sysfs (gpiochip*/label) or, if none, from /dev/gpiochip*."""
    labels: list[str] = []
    try:
        chips = sorted(gpio_sysfs.glob("gpiochip*"))
    except OSError:
        chips = []
    for chip in chips:
        try:
            labels.append((chip / "label").read_text(encoding="utf-8", errors="replace").strip())
        except OSError:
            continue
    if labels:
        return labels
    try:
        devices = sorted(dev_dir.glob("gpiochip*"))
    except OSError:
        devices = []
    for device in devices:
        label = _chardev_label(device)
        if label:
            labels.append(label)
    return labels


def _chardev_label(device: Path) -> str | None:
    try:
        fd = os.open(device, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        buf = bytearray(_CHIPINFO.size)
        fcntl.ioctl(fd, _GPIO_GET_CHIPINFO_IOCTL, buf)
    except OSError:
        return None
    finally:
        os.close(fd)
    _name, label, _lines = _CHIPINFO.unpack(bytes(buf))
    return label.split(b"\0", 1)[0].decode("ascii", "replace") or None


def is_raspberry_pi(*, model_path: Path = MODEL_PATH, gpio_sysfs: Path = GPIO_SYSFS,
                    dev_dir: Path = DEV_DIR) -> bool:
    """True when this machine has a Raspberry Pi's GPIO (see the module docstring)."""
    model = board_model(model_path)
    if model is not None and "raspberry pi" in model.lower():
        return True
    return any(label in PI_GPIO_LABELS for label in gpio_chip_labels(gpio_sysfs, dev_dir))
