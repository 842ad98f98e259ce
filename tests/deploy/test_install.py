"""tools/install.py: --root staging, an idempotent config.txt merge, an uninstall that restores."""

import importlib.util
import io
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
INSTALL = ROOT / "tools" / "install.py"
INSTALL_FILES = ROOT / "tools" / "install_files.py"
ORIGINAL_CONFIG = """\
# For more options and information see http://rptl.io/configtxt
dtparam=audio=on
camera_auto_detect=1

[cm4]
otg_mode=1

[all]
"""
ORIGINAL_CMDLINE = "console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 rootwait\n"


def _install(root: Path, *args: str) -> str:
    done = subprocess.run([sys.executable, str(INSTALL), "--root", str(root), *args],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def _fresh_pi(tmp_path: Path) -> Path:
    root = tmp_path / "pi"
    boot = root / "boot" / "firmware"
    boot.mkdir(parents=True)
    (boot / "config.txt").write_text(ORIGINAL_CONFIG)
    (boot / "cmdline.txt").write_text(ORIGINAL_CMDLINE)
    return root


def _tool():
    """tools/install_files.py, the installer's file-editing machinery, as a module."""
    spec = importlib.util.spec_from_file_location("companion_install_files", INSTALL_FILES)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_install_root_stages_every_file_in_its_place(tmp_path):
    root = _fresh_pi(tmp_path)
    out = _install(root)
    etc = root / "etc"
    assert (etc / "systemd/system/companion.service").read_text() == \
        (ROOT / "systemd/companion.service").read_text()
    assert (etc / "udev/rules.d/99-companion.rules").read_text() == \
        (ROOT / "firmware_config/99-companion.rules").read_text()
    assert "i2c-dev" in (etc / "modules-load.d/companion.conf").read_text().split()
    config = (etc / "companion/companion.toml").read_text()
    assert config.endswith((ROOT / "companion/default_config.toml").read_text())
    link = root / "usr/local/bin/companion"
    assert link.is_symlink() and str(link.readlink()) == "/opt/companion/venv/bin/companion"
    boot_config = (root / "boot/firmware/config.txt").read_text()
    assert boot_config.startswith(ORIGINAL_CONFIG)
    assert (ROOT / "firmware_config/config.txt.fragment").read_text() in boot_config
    # Nothing was run, only printed; the venv is not created while staging.
    for command in ("apt-get install", "pip install", "systemctl enable companion.service"):
        assert any(command in line and "[not run: --root]" in line for line in out.splitlines())
    assert not (root / "opt").exists()
    assert "Reboot needed: yes" in out
    # Without --free-serial the console is left alone, with a hint.
    assert (root / "boot/firmware/cmdline.txt").read_text() == ORIGINAL_CMDLINE
    assert "--free-serial" in out


def test_install_twice_changes_nothing_and_keeps_one_backup(tmp_path):
    root = _fresh_pi(tmp_path)
    boot = root / "boot" / "firmware"
    _install(root)
    merged = (boot / "config.txt").read_text()
    second = _install(root)
    assert (boot / "config.txt").read_text() == merged
    assert "Summary: 0 changed" in second
    assert "Reboot needed: no" in second
    backups = sorted(boot.glob("config.txt.companion-*.bak"))
    assert len(backups) == 1
    assert backups[0].read_text() == ORIGINAL_CONFIG
    assert merged.count("# >>> table companion") == 1


def test_install_keeps_an_existing_config_file(tmp_path):
    root = _fresh_pi(tmp_path)
    mine = root / "etc/companion/companion.toml"
    mine.parent.mkdir(parents=True)
    mine.write_text('[serial]\nurl = "/dev/serial0"\n')
    _install(root)
    assert mine.read_text() == '[serial]\nurl = "/dev/serial0"\n'


def test_uninstall_restores_config_txt_and_cmdline(tmp_path):
    root = _fresh_pi(tmp_path)
    boot = root / "boot" / "firmware"
    _install(root, "--free-serial")
    assert "console=serial0" not in (boot / "cmdline.txt").read_text()
    assert "console=tty1" in (boot / "cmdline.txt").read_text()
    out = _install(root, "--uninstall")
    assert (boot / "config.txt").read_text() == ORIGINAL_CONFIG
    assert (boot / "cmdline.txt").read_text() == ORIGINAL_CMDLINE
    for gone in ("etc/systemd/system/companion.service", "etc/udev/rules.d/99-companion.rules",
                 "etc/modules-load.d/companion.conf", "usr/local/bin/companion"):
        assert not (root / gone).exists() and not (root / gone).is_symlink(), gone
    assert (root / "etc/companion/companion.toml").exists()  # kept without --purge
    assert "Reboot needed: yes" in out
    _install(root, "--uninstall", "--purge")
    assert not (root / "etc/companion").exists()


UART_FRAGMENT = (ROOT / "firmware_config/uart.fragment").read_text()


def test_install_lets_the_service_power_off_and_uninstall_takes_it_back(tmp_path):
    root = _fresh_pi(tmp_path)
    out = _install(root)
    rule = root / "etc/polkit-1/rules.d/50-companion-poweroff.rules"
    assert rule.read_text() == (ROOT / "firmware_config/50-companion-poweroff.rules").read_text()
    assert 'subject.user == "companion"' in rule.read_text()  # the unit's DynamicUser
    assert "DynamicUser=yes" in (ROOT / "systemd/companion.service").read_text()
    assert any("polkitd" in line and "[not run: --root]" in line for line in out.splitlines())
    _install(root, "--uninstall")
    assert not rule.exists()


@pytest.mark.parametrize(("config", "args", "uart"), [
    (None, (), False),                                          # the defaults: no serial line
    ('[serial]\nurl = "/dev/ttyUSB0"\n', (), False),            # a USB adapter
    ('[serial]\nurl = "pty"\n', (), False),
    ('[serial]\nurl = "/dev/serial0"\n', (), True),             # on-board UART, Pi 4 style
    ('[serial]\nurl = "/dev/ttyAMA0"\n', (), True),             # on-board UART, Pi 5 style
    (None, ("--free-serial",), True),
])
def test_install_adds_the_uart_lines_only_for_an_on_board_serial_line(tmp_path, config, args,
                                                                     uart):
    root = _fresh_pi(tmp_path)
    if config is not None:
        mine = root / "etc/companion/companion.toml"
        mine.parent.mkdir(parents=True)
        mine.write_text(config)
    out = _install(root, *args)
    boot_config = (root / "boot/firmware/config.txt").read_text()
    assert (UART_FRAGMENT in boot_config) is uart
    assert ("enable_uart" in boot_config) is uart
    assert ("(UART on GPIO14/15" in out) is uart


def test_free_serial_is_remembered_by_the_next_update(tmp_path):
    root = _fresh_pi(tmp_path)
    _install(root, "--free-serial")
    again = _install(root)
    assert UART_FRAGMENT in (root / "boot/firmware/config.txt").read_text()
    assert "Summary: 0 changed" in again


def test_merge_block_replaces_an_old_block_in_place():
    tool = _tool()
    once = tool.merge_block(ORIGINAL_CONFIG, "dtparam=i2c_arm=on\n")
    changed = tool.merge_block(once + "gpu_mem=16\n", "dtparam=i2c_arm=on\nenable_uart=1\n")
    assert changed.count(tool.BEGIN) == 1
    assert changed.endswith("enable_uart=1\n" + tool.END + "\ngpu_mem=16\n")
    assert tool.remove_block(tool.merge_block("no newline", "x=1")) == "no newline\n"


def test_install_warns_about_a_gpio_shutdown_overlay_on_gpio3(tmp_path):
    root = _fresh_pi(tmp_path)
    config = root / "boot/firmware/config.txt"
    config.write_text(ORIGINAL_CONFIG + "dtoverlay=gpio-shutdown\n")
    out = _install(root)
    assert "WARNING" in out and "dtoverlay=gpio-shutdown" in out


def test_install_stops_before_any_change_when_the_unit_would_not_start_the_venv(tmp_path):
    root = _fresh_pi(tmp_path)
    source = tmp_path / "src"
    for folder in ("systemd", "firmware_config"):
        (source / folder).mkdir(parents=True)
        for item in (ROOT / folder).iterdir():
            if item.is_file():  # systemd/companion.service.d/ is not needed to fail here
                (source / folder / item.name).write_bytes(item.read_bytes())
    unit = source / "systemd" / "companion.service"
    unit.write_text(unit.read_text().replace("ExecStart=/opt/companion/venv/bin/companion",
                                             "ExecStart=/usr/bin/companion"))
    done = subprocess.run([sys.executable, str(INSTALL), "--root", str(root), "--source",
                           str(source)], capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 1
    assert "FAILED: systemd/companion.service does not start /opt/companion/venv/bin/companion" \
        in done.stdout
    assert (root / "boot/firmware/config.txt").read_text() == ORIGINAL_CONFIG
    assert not (root / "etc").exists() and not (root / "usr").exists()


def test_install_step_tables_name_each_step_once():
    spec = importlib.util.spec_from_file_location("companion_install_tool", INSTALL)
    assert spec and spec.loader
    sys.path.insert(0, str(INSTALL.parent))  # install.py imports install_files beside it
    try:
        tool = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = tool  # dataclasses look their module up there
        spec.loader.exec_module(tool)
    finally:
        sys.path.remove(str(INSTALL.parent))
    for table in (tool.INSTALL_STEPS, tool.UNINSTALL_STEPS):
        names = [step.name for step in table]
        assert len(names) == len(set(names)), names
    # The first install step only checks: it must come before anything that changes the box.
    assert tool.INSTALL_STEPS[0].run is tool.check_unit


# -- the table page's Avahi service file (issue #15) -------------------------------------------

AVAHI = "etc/avahi/services/companion.service"


def _configured(root: Path, web: str) -> Path:
    config = root / "etc/companion/companion.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(web)
    return config


@pytest.mark.parametrize(("web", "port"), [
    ('[web]\nlisten = "0.0.0.0:8080"\n', 8080),
    ('[web]\nlisten = "8123"\n', 8123),
    ('[web]\nlisten = "[::]:9000"\n', 9000),
    ('[web]\nlisten = "192.168.1.20:80"\n', 80),
])
def test_install_advertises_the_table_page_when_it_serves_the_lan(tmp_path, web, port):
    root = _fresh_pi(tmp_path)
    _configured(root, web)
    out = _install(root)
    service = (root / AVAHI).read_text()
    assert "<type>_http._tcp</type>" in service
    assert f"<port>{port}</port>" in service
    assert f"+ /{AVAHI}" in out
    assert "Summary: 0 changed" in _install(root)  # idempotent


@pytest.mark.parametrize("web", [
    "",                                        # the packaged default: off
    '[web]\nlisten = ""\n',
    '[web]\nlisten = "127.0.0.1:8080"\n',      # loopback: nothing on the LAN to find
    '[web]\nlisten = "localhost:8080"\n',
    '[web]\nlisten = "nonsense"\n',            # not a setting the companion accepts
    "[web\n",                                  # not TOML (doctor names it)
])
def test_install_does_not_advertise_a_table_page_the_lan_cannot_reach(tmp_path, web):
    root = _fresh_pi(tmp_path)
    if web:
        _configured(root, web)
    _install(root)
    assert not (root / AVAHI).exists()


def test_install_takes_the_service_file_away_when_the_web_is_turned_off(tmp_path):
    root = _fresh_pi(tmp_path)
    config = _configured(root, '[web]\nlisten = "0.0.0.0:8080"\n')
    _install(root)
    config.write_text('[web]\nlisten = ""\n')
    out = _install(root)
    assert not (root / AVAHI).exists()
    assert f"- /{AVAHI}" in out


def test_uninstall_removes_the_avahi_service_file(tmp_path):
    root = _fresh_pi(tmp_path)
    _configured(root, '[web]\nlisten = "0.0.0.0:8080"\n')
    _install(root)
    assert (root / AVAHI).exists()
    _install(root, "--uninstall")
    assert not (root / AVAHI).exists()


def _installer_module():
    """tools/install.py as a module (it imports install_files from its own folder)."""
    sys.path.insert(0, str(INSTALL.parent))
    try:
        spec = importlib.util.spec_from_file_location("companion_install", INSTALL)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(INSTALL.parent))
    return module


@pytest.mark.parametrize(("policy", "candidate"), [
    ("python3-lgpio:\n  Installed: (none)\n  Candidate: 0.2.2-1~rpt1\n  Version table:\n",
     "0.2.2-1~rpt1"),
    ("python3-lgpio:\n  Installed: (none)\n  Candidate: (none)\n  Version table:\n", None),
    ("", None),  # Debian trixie: apt-cache policy knows no such package and prints nothing
    ("N: Unable to locate package python3-lgpio\n", None),
])
def test_install_reads_apt_cache_policy_candidate(policy, candidate):
    assert _installer_module().apt_candidate(policy) == candidate


def _lgpio_without_apt(version, imports):
    module = _installer_module()
    out = io.StringIO()
    inst = module.Installer(root=None, out=out)
    module.lgpio_without_apt(inst, version=version, imports_lgpio=lambda python: imports)
    return out.getvalue()


def test_install_without_python3_lgpio_on_3_11_leaves_lgpio_to_the_pi_extra():
    assert "PyPI's lgpio wheel" in _lgpio_without_apt((3, 11), imports=False)


def test_install_without_python3_lgpio_on_3_13_uses_an_installed_lgpio():
    assert "already installed for python3 is used" in _lgpio_without_apt((3, 13), imports=True)


def test_install_without_python3_lgpio_on_3_13_stops_before_building_it():
    module = _installer_module()
    with pytest.raises(module.InstallError, match=r"no wheel for Python 3\.13.*swig"):
        _lgpio_without_apt((3, 13), imports=False)


def test_install_root_checks_lgpio_imports_in_the_venv(tmp_path):
    out = _install(_fresh_pi(tmp_path))
    check = [line for line in out.splitlines() if "import lgpio, gpiozero.pins.lgpio" in line]
    assert check and "/opt/companion/venv/bin/python" in check[0]
    assert "apt-get install" in out and "python3-lgpio" in out


@pytest.mark.parametrize(("python", "machine", "wants_pypi_lgpio"), [
    ("3.11", "aarch64", True),   # Bookworm: PyPI has the cp311 aarch64 wheel
    ("3.11", "armv7l", True),
    ("3.12", "aarch64", True),
    ("3.13", "aarch64", False),  # Trixie: no wheel; the distribution's python3-lgpio is used
    ("3.13", "armv7l", False),
    ("3.11", "x86_64", False),
])
def test_install_pi_extra_asks_pypi_for_lgpio_only_where_it_has_a_wheel(
        python, machine, wants_pypi_lgpio):
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]["pi"]
    wanted = [Requirement(r).name for r in extra
              if Requirement(r).marker is None or Requirement(r).marker.evaluate(
                  {"python_version": python, "platform_machine": machine})]
    assert ("lgpio" in wanted) == wants_pypi_lgpio


@pytest.mark.parametrize(("running", "changed", "expected"), [
    (True, True, [["systemctl", "daemon-reload"], ["systemctl", "enable", "companion.service"],
                  ["systemctl", "restart", "companion.service"]]),
    # An image being built or a chroot (tools/pi-trial): enable for the next boot, no more.
    (False, True, [["systemctl", "enable", "companion.service"]]),
])
def test_install_enables_without_starting_where_systemd_is_not_running(
        monkeypatch, running, changed, expected):
    module = _installer_module()
    ran = []

    class Recording(module.Installer):
        def run(self, argv, **kwargs):
            ran.append(list(argv))
            return True

    monkeypatch.setattr(sys.modules["install_system"], "systemd_running", lambda: running)
    out = io.StringIO()
    inst = Recording(root=None, out=out)
    if changed:
        inst.changed.append(module.UNIT_PATH)
    module.enable_service(inst, module.Options())
    assert ran == expected
    assert ("not running here" in out.getvalue()) == (not running)


@pytest.mark.parametrize(("config", "cs_pin"), [
    (None, None),                                                  # I2C, the default
    ('[display]\ninterface = "i2c"\n', None),
    ('[display]\ndriver = "ssd1309"\ninterface = "spi"\n', 13),    # the pin map's CS
    ('[display]\ninterface = "spi"\nspi_cs_pin = 26\n', 26),       # a CS moved in the config
])
def test_install_switches_spi0_on_only_for_an_spi_display(tmp_path, config, cs_pin):
    """SPI0 and its chip select on display.spi_cs_pin (the spi0-1cs overlay's cs0_pin) are
    written into config.txt's companion block only when the display is on SPI; a re-install
    changes nothing."""
    root = _fresh_pi(tmp_path)
    if config is not None:
        mine = root / "etc/companion/companion.toml"
        mine.parent.mkdir(parents=True)
        mine.write_text(config)
    out = _install(root)
    boot_config = (root / "boot/firmware/config.txt").read_text()
    block = boot_config[boot_config.index(_tool().BEGIN):]
    lines = [line for line in block.splitlines() if line and not line.startswith("#")]
    if cs_pin is None:
        assert not any("spi" in line for line in lines)
        assert "SPI0 for the display" not in out
    else:
        assert "dtparam=spi=on" in lines
        assert f"dtoverlay=spi0-1cs,cs0_pin={cs_pin}" in lines
        assert f"chip select on GPIO{cs_pin}" in out
        assert "Summary: 0 changed" in _install(root)
    assert "python3-spidev" in out  # luma's SPI bus, from the distribution


def test_install_leaves_out_the_shutdown_overlay_when_the_companion_watches_the_button(
        tmp_path):
    root = _fresh_pi(tmp_path)
    mine = root / "etc/companion/companion.toml"
    mine.parent.mkdir(parents=True)
    mine.write_text('[shutdown]\nhandler = "companion"\n')
    out = _install(root)
    boot_config = (root / "boot/firmware/config.txt").read_text()
    assert "dtoverlay=gpio-shutdown" not in boot_config
    assert "dtparam=i2c_arm=on" in boot_config
    assert "no gpio-shutdown overlay" in out


@pytest.mark.parametrize(("config", "line"), [
    (None, "dtoverlay=gpio-poweroff,gpiopin=24,active_low=0"),   # the defaults: the LED's pin
    ("[led]\npin = 26\n", "dtoverlay=gpio-poweroff,gpiopin=26,active_low=0"),
    ('[led]\nshows = "countdown"\n', None),                      # the companion's LED
    ("[led]\npin = 0\n", None),                                  # no LED fitted
])
def test_install_gives_the_led_to_gpio_poweroff_only_while_it_shows_the_power_off(
        tmp_path, config, line):
    """The LED in the case lights once the box may be unplugged: the kernel's gpio-poweroff
    on led.pin, active high; as the countdown LED or not fitted, no overlay takes its pin."""
    root = _fresh_pi(tmp_path)
    if config is not None:
        mine = root / "etc/companion/companion.toml"
        mine.parent.mkdir(parents=True)
        mine.write_text(config)
    out = _install(root)
    boot_config = (root / "boot/firmware/config.txt").read_text()
    overlays = [x for x in boot_config.splitlines() if x.startswith("dtoverlay=gpio-poweroff")]
    assert overlays == ([line] if line else [])
    assert ("lights when the box may be unplugged" in out) is (line is not None)
    _install(root, "--uninstall")
    assert "gpio-poweroff" not in (root / "boot/firmware/config.txt").read_text()
