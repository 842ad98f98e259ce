"""tools/install.py's steps that fit the program into the system: boot config, devices, service.

Promises:
- `merge_config_txt`: the companion block of config.txt (I2C and the shutdown button always,
  the UART lines only for an on-board serial line or --free-serial, SPI0 only for an SPI
  display, gpio-poweroff on the LED's pin while it shows the power-off), backed up before it
  changes; `serial_console` takes the console off the UART only
  with --free-serial.
- The udev rules, i2c-dev at boot, the polkit rule for the menu's power-off, the unit, a
  config file written from the packaged defaults only when there is none.
- With the table page on for the LAN: an Avahi service file and the unit's web drop-in;
  otherwise neither.
- `enable_service`: enabled, and (re)started only where systemd runs (not in a staged root).
Standard library only; every command through the Installer (printed, a timeout, no shell).
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

# Run as a script, Python puts this folder first on sys.path: the machinery sits beside it.
from install_files import (
    AVAHI_SERVICE_PATH,
    CONFIG_PATH,
    INSTALL_STATE,
    MODULES_PATH,
    POLKIT_RULE,
    POLKIT_RULE_PATH,
    POWER_PACKAGES,
    RULES_PATH,
    UNIT_NAME,
    UNIT_PATH,
    Installer,
    Options,
    conflicts,
    merge_block,
    poweroff_led_pin,
    remove_serial_console,
    serial_url,
    shutdown_by_companion,
    source_text,
    spi_cs_pin,
    wants_uart,
)

CONFIG_HEADER = """\
# The table companion's settings, written by tools/install.py from the packaged defaults.
# Edit freely: installs and --uninstall keep this file. Apply with: sudo systemctl restart companion
# Check with: companion doctor

"""



def merge_config_txt(inst: Installer, options: Options) -> None:
    """The companion block: I2C and the shutdown button always; the board-aware UART lines
    only when the serial line is an on-board UART or --free-serial was given (now or before);
    SPI0 with its chip select on display.spi_cs_pin only for an SPI display."""
    config_txt = inst.boot_file("config.txt")
    body = source_text(inst, "firmware_config/config.txt.fragment")
    config = inst.path(CONFIG_PATH)
    config_text = config.read_text(encoding="utf-8") if config.exists() else None
    if shutdown_by_companion(config_text):  # the companion watches the button itself
        body = "\n".join(line for line in body.splitlines()
                         if not line.startswith("dtoverlay=gpio-shutdown")) + "\n"
        inst.say("  (no gpio-shutdown overlay: shutdown.handler = 'companion')")
    free = options.free_serial or bool(inst.read_state().get("free_serial"))
    if wants_uart(config_text, free):
        body = body.rstrip() + "\n" + source_text(inst, "firmware_config/uart.fragment")
        inst.say("  (UART on GPIO14/15: /dev/ttyAMA0 on a Pi 5, /dev/serial0 on the others)")
    else:
        inst.say(f"  (no UART lines: serial.url is {serial_url(config_text)!r}; an on-board "
                 "serial URL or --free-serial adds them)")
    cs_pin = spi_cs_pin(config_text, source_text(inst, "companion/default_config.toml"))
    if cs_pin is not None:
        spi = source_text(inst, "firmware_config/spi.fragment").replace("{cs_pin}", str(cs_pin))
        body = body.rstrip() + "\n" + spi
        inst.say(f"  (SPI0 for the display: /dev/spidev0.0, chip select on GPIO{cs_pin})")
    led_pin = poweroff_led_pin(config_text, source_text(inst, "companion/default_config.toml"))
    if led_pin is not None:
        poweroff = source_text(inst, "firmware_config/poweroff.fragment")
        body = body.rstrip() + "\n" + poweroff.replace("{led_pin}", str(led_pin))
        inst.say(f"  (the LED on GPIO{led_pin} lights when the box may be unplugged: "
                 "gpio-poweroff)")
    target = inst.path(config_txt)
    old = target.read_text(encoding="utf-8") if target.exists() else ""
    inst.warnings += [f"{config_txt}: {w}" for w in conflicts(old)]
    if inst.write(config_txt, merge_block(old, body), mode=0o755, backup=True):
        inst.reboot_reasons.append(f"{config_txt} changed")


def serial_console(inst: Installer, options: Options) -> None:
    """With --free-serial take the login console off the serial line (and remember the choice,
    so a later update keeps the UART lines); else say how to."""
    if options.free_serial:
        state = inst.read_state()
        if not state.get("free_serial"):
            state["free_serial"] = True
            inst.write(INSTALL_STATE, json.dumps(state, indent=2) + "\n")
        free_serial(inst)
        return
    cmdline = inst.path(inst.boot_file("cmdline.txt"))
    if cmdline.exists() and remove_serial_console(cmdline.read_text(encoding="utf-8"))[1]:
        inst.say("  (the kernel console still uses the serial port; to use the serial "
                 "line, run again with --free-serial: firmware_config/cmdline.md)")


def free_serial(inst: Installer) -> None:
    cmdline_txt = inst.boot_file("cmdline.txt")
    target = inst.path(cmdline_txt)
    if not target.exists():
        inst.warnings.append(f"{cmdline_txt} not found: the serial console is not changed")
        return
    new, removed = remove_serial_console(target.read_text(encoding="utf-8"))
    if not removed:
        inst.unchanged.append(cmdline_txt)
        inst.say(f"  = {cmdline_txt} (no serial console)")
        return
    inst.write(cmdline_txt, new, mode=0o755, backup=True)
    # Remember the words, so --uninstall can put them back.
    state = inst.read_state()
    state["cmdline_removed"] = [*state.get("cmdline_removed", []), *removed]
    inst.write(INSTALL_STATE, json.dumps(state, indent=2) + "\n")
    inst.reboot_reasons.append(f"{cmdline_txt} changed")


def install_udev_rules(inst: Installer, options: Options) -> None:
    if inst.write(RULES_PATH, source_text(inst, "firmware_config/99-companion.rules")):
        inst.run(["udevadm", "control", "--reload-rules"], timeout=60, check=False)
        inst.run(["udevadm", "trigger", "--subsystem-match=gpio",
                  "--subsystem-match=i2c-dev", "--subsystem-match=tty"], timeout=60, check=False)


def load_i2c_dev(inst: Installer, options: Options) -> None:
    if inst.write(MODULES_PATH, "# The table companion's OLED: /dev/i2c-*\ni2c-dev\n"):
        inst.run(["modprobe", "i2c-dev"], timeout=60, check=False)


def install_power_rule(inst: Installer, options: Options) -> None:
    """The polkit rule that lets the service power off (the menu's "Power off"), and polkit."""
    inst.run(["apt-get", "install", "-y", "--no-install-recommends", *POWER_PACKAGES],
             timeout=1800, env={"DEBIAN_FRONTEND": "noninteractive"}, check=False)
    inst.write(POLKIT_RULE_PATH, source_text(inst, f"firmware_config/{POLKIT_RULE}"))


def install_unit(inst: Installer, options: Options) -> None:
    inst.write(UNIT_PATH, source_text(inst, f"systemd/{UNIT_NAME}"))


def install_config_file(inst: Installer, options: Options) -> None:
    """The packaged defaults, once: a config file already there is the owner's and stays."""
    if inst.path(CONFIG_PATH).exists():
        inst.unchanged.append(CONFIG_PATH)
        inst.say(f"  = {CONFIG_PATH} (kept as it is)")
        return
    inst.write(CONFIG_PATH, CONFIG_HEADER + source_text(inst, "companion/default_config.toml"))


AVAHI_SERVICE = """\
<?xml version="1.0" standalone='no'?>
<!DOCTYPE service-group SYSTEM "avahi-service.dtd">
<!-- The table companion's table page (tools/install.py writes it while [web] listen is on the
     LAN; --uninstall removes it). Avahi rereads this folder by itself. -->
<service-group>
  <name replace-wildcards="yes">Table companion on %h</name>
  <service>
    <type>_http._tcp</type>
    <port>{port}</port>
    <txt-record>path=/</txt-record>
  </service>
</service-group>
"""
LOOPBACK_HOSTS = ("localhost", "::1")


def web_port_on_lan(config_text: str) -> int | None:
    """The port of `[web] listen` when it serves the LAN; None when the web is off, bound to
    loopback, or the setting is not one the companion would accept (doctor names that)."""
    try:
        listen = tomllib.loads(config_text).get("web", {}).get("listen", "")
    except (tomllib.TOMLDecodeError, AttributeError):
        return None
    if not isinstance(listen, str) or not listen.strip():
        return None
    host, _, port = listen.strip().rpartition(":")
    host = host.strip("[]")
    if not port.isdigit() or not 0 < int(port) <= 65535:
        return None
    if host in LOOPBACK_HOSTS or host.startswith("127."):
        return None
    return int(port)  # a bare PORT binds every interface on a Pi (companion run --web)


def avahi_service(inst: Installer, options: Options) -> None:
    """Advertise the table page over mDNS while the config serves it on the LAN."""
    config = inst.path(CONFIG_PATH)
    port = web_port_on_lan(config.read_text(encoding="utf-8")) if config.exists() else None
    if port is None:
        if inst.remove(AVAHI_SERVICE_PATH):
            inst.say("  (the table page is off or on loopback: not advertised)")
        return
    if not inst.staging and not Path("/etc/avahi").is_dir():
        inst.warnings.append("avahi-daemon is not installed: <hostname>.local will not find "
                             "the table page (sudo apt install avahi-daemon)")
    inst.write(AVAHI_SERVICE_PATH, AVAHI_SERVICE.format(port=port))


WEB_DROPIN_PATH = f"/etc/systemd/system/{UNIT_NAME}.d/web.conf"


def web_dropin(inst: Installer, options: Options) -> None:
    """The table page's sandbox drop-in (systemd/companion.service.d/web.conf, issue #19) while
    `[web] listen` is set: for its port, and `IPAddressAllow=localhost` only when it listens
    on loopback. Removed when the web is off, so the unit keeps PrivateNetwork=yes."""
    config = inst.path(CONFIG_PATH)
    listen = web_listen(config.read_text(encoding="utf-8")) if config.exists() else None
    if listen is None:
        if inst.remove(WEB_DROPIN_PATH):
            inst.say("  (the table page is off: the service keeps no network)")
        return
    host, port = listen
    text = re.sub(r"^SocketBindAllow=tcp:\d+$", f"SocketBindAllow=tcp:{port}",
                  source_text(inst, f"systemd/{UNIT_NAME}.d/web.conf"), flags=re.M)
    if host in LOOPBACK_HOSTS or host.startswith("127."):
        text = re.sub(r"^IPAddressAllow=.*$", "IPAddressAllow=localhost", text, flags=re.M)
    inst.write(WEB_DROPIN_PATH, text)


def web_listen(config_text: str) -> tuple[str, int] | None:
    """`[web] listen` as (host, port; a bare PORT is every interface), or None when it is off
    or not a setting the companion accepts (doctor names that)."""
    try:
        listen = tomllib.loads(config_text).get("web", {}).get("listen", "")
    except (tomllib.TOMLDecodeError, AttributeError):
        return None
    if not isinstance(listen, str) or not listen.strip():
        return None
    host, _, port = listen.strip().rpartition(":")
    if not port.isdigit() or not 0 < int(port) <= 65535:
        return None
    return host.strip("[]") or "0.0.0.0", int(port)  # noqa: S104 - what a Pi binds


def systemd_running() -> bool:
    """systemd is the running init (sd_booted(3): /run/systemd/system exists)."""
    return Path("/run/systemd/system").is_dir()


def enable_service(inst: Installer, options: Options) -> None:
    """Enable at boot; restart now unless a reboot is coming anyway. Where systemd is not
    running (an image being built, a chroot), only enable: the unit starts at the next boot."""
    running = inst.staging or systemd_running()
    if not running:
        inst.say("  (systemd is not running here, as in an image or a chroot: the unit is "
                 "enabled for the next boot, not started)")
    if running and (UNIT_PATH in inst.changed or WEB_DROPIN_PATH in inst.changed):
        inst.run(["systemctl", "daemon-reload"], timeout=120)
    inst.run(["systemctl", "enable", UNIT_NAME], timeout=120)
    if running and not inst.reboot_reasons:
        inst.run(["systemctl", "restart", UNIT_NAME], timeout=180, check=False)


