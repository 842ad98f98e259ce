"""tools/pi-boot: the box's card booted under qemu-system-aarch64 (software emulation), with the
real systemd as PID 1, and its checks: READY=1, the sandbox and limits in force, SIGKILL and
SIGSTOP (watchdog) restarts with the game resumed from the journal, the journal on the data
partition, and a hard power-off with no acknowledged action lost.

The boot test needs root and is slow: about 3 minutes on 2 shared cores when the companion
layer is cached (two emulated boots and the checks), 12-15 minutes more when it must first be
built (tools/install.py under qemu-user). It runs when the companion layer for this checkout is
already cached (after a `sudo tools/pi-boot`), or when COMPANION_PI_BOOT=1 asks for it;
otherwise it is left out of the run and the summary says so. (The layer is named after the
installed sources, so any change to them makes it cold again: CI leaves it out unless asked.)
The rest (the VM's command line, the test-only parts of the image) runs always.
"""

import io
import os
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from pi_image import boot, debian, layout  # noqa: E402

from tests.deploy.card_support import run_live  # noqa: E402

ASKED = os.environ.get("COMPANION_PI_BOOT") == "1"
WARM = debian.companion_layer_cached() is not None


def test_pi_boot_vm_has_no_network_and_boots_the_whole_card(tmp_path):
    machine = boot.Machine(image=tmp_path / "card.img", kernel=tmp_path / "vmlinuz",
                           initrd=tmp_path / "initrd.img", folder=tmp_path)
    argv = machine.argv()
    assert argv[0] == "qemu-system-aarch64"
    assert argv[argv.index("-M") + 1] == "virt"
    assert argv[argv.index("-nic") + 1] == "none"
    assert "-accel" in argv and argv[argv.index("-accel") + 1].startswith("tcg")
    assert f"file={tmp_path / 'card.img'},if=none,id=card,format=raw,cache=writeback" in argv
    cmdline = argv[argv.index("-append") + 1]
    assert f"root=LABEL={debian.ROOT_LABEL} ro" in cmdline
    # every line to the VM is a socket or a file in the run folder: nothing on the network
    assert all(str(tmp_path) in a for a in argv if a.startswith(("socket,", "file,")))


def test_pi_boot_vm_network_is_restricted_with_only_loopback_ports_forwarded(tmp_path):
    machine = boot.Machine(image=tmp_path / "card.img", kernel=tmp_path / "vmlinuz",
                           initrd=tmp_path / "initrd.img", folder=tmp_path, web_port=40123,
                           ssh_port=40124)
    argv = machine.argv()
    netdev = argv[argv.index("-netdev") + 1]
    options = netdev.split(",")
    assert options[:2] == ["user", "id=net"]  # qemu's own user-mode network: no tap, no bridge
    assert "restrict=on" in options  # the guest reaches nothing outside
    assert [o for o in options if o.startswith("hostfwd=")] == [
        "hostfwd=tcp:127.0.0.1:40123-:8080", "hostfwd=tcp:127.0.0.1:40124-:22"]
    assert argv.count("-netdev") == 1
    assert "virtio-net-pci,netdev=net,romfile=" in argv
    assert "-nic" not in argv


def _fake_layer(folder):
    """A companion layer's shape, as stage_root reads it: the config, systemd's unit folder,
    the firmware folder."""
    (folder / "etc/companion").mkdir(parents=True)
    (folder / "etc/companion/companion.toml").write_text(
        '[serial]\nurl = "/dev/serial0"\n', encoding="utf-8")
    (folder / "etc/systemd/system").mkdir(parents=True)
    (folder / "boot/firmware").mkdir(parents=True)
    (folder / "boot/firmware/config.txt").write_text("arm_64bit=1\n", encoding="utf-8")
    return folder


QEMU_ONLY = ("etc/systemd/system/pi-boot-agent.service",
             "etc/systemd/system/multi-user.target.wants/pi-boot-agent.service",
             "etc/systemd/system/companion.service.d/pi-boot.conf",
             "usr/local/lib/pi-boot-agent.py")


def test_pi_boot_parts_never_reach_a_flashable_card(tmp_path):
    layer = _fake_layer(tmp_path / "layer")
    clock = debian.Clock(out=io.StringIO())
    # tools/pi-boot's variant: its agent, the fake-backend drop-in, the emulated serial port
    booted = tmp_path / "qemu/root"
    booted.parent.mkdir()
    trial_files = {"authorized_keys": "ssh-ed25519 AAAA pi-boot\n",
                   "wpa_supplicant.conf": "network={\n}\n", "companion.toml": "[web]\n"}
    booted_boot = layout.stage_root(layer, booted, clock, qemu=True, boot_files=trial_files)
    assert all((booted / part).exists() or (booted / part).is_symlink() for part in QEMU_ONLY)
    assert "--backend fake" in (booted / QEMU_ONLY[2]).read_text(encoding="utf-8")
    assert all((booted_boot / name).read_text(encoding="utf-8") == text
               for name, text in trial_files.items())
    assert 'url = "/dev/ttyAMA0"' in (booted / "etc/companion/companion.toml").read_text(
        encoding="utf-8")
    agent_unit = (booted / QEMU_ONLY[0]).read_text(encoding="utf-8")
    assert "BindsTo=dev-hvc1.device" in agent_unit
    assert "StartLimitIntervalSec=0" in agent_unit
    # the flashable variant, staged from the same layer, has none of it
    flashable = tmp_path / "card/root"
    flashable.parent.mkdir()
    flashable_boot = layout.stage_root(layer, flashable, clock, qemu=False,
                                       boot_files=trial_files)
    assert (flashable / "etc/fstab").exists()  # it was staged
    # no trial key or network of pi-boot's on a flashable card: those are the maker's
    assert not (flashable_boot / "authorized_keys").exists()
    assert not (flashable_boot / "wpa_supplicant.conf").exists()
    assert tomllib.loads((flashable_boot / "companion.toml").read_text(encoding="utf-8")) == {}
    assert not [part for part in QEMU_ONLY
                if (flashable / part).exists() or (flashable / part).is_symlink()]
    assert (flashable / "etc/companion/companion.toml").read_text(encoding="utf-8") == \
        '[serial]\nurl = "/dev/serial0"\n'


@pytest.mark.slow
@pytest.mark.card
@pytest.mark.full_system(ready=ASKED or WARM)
# tools/pi-boot's own bound (3 h) and its report
@pytest.mark.timeout(3 * 3600 + 600)
def test_pi_boot_checks_pass_under_the_real_systemd(request):
    assert os.geteuid() == 0, "tools/pi-boot needs root (debootstrap, the root's files)"
    status, out = run_live(
        request.config, "the card booted under qemu: tools/pi-boot (about 4 minutes with the "
        "companion layer cached, 10-15 more to build it)",
        [sys.executable, str(ROOT / "tools/pi-boot")], timeout=3 * 3600)
    assert status == 0, out[-8000:]
    for check in ("PASS boot 1", "PASS the unit reaches active after READY=1",
                  "PASS systemctl show: sandboxing and limits in force",
                  "PASS SIGKILL: restarted, the game resumes from the journal",
                  "PASS SIGSTOP: the watchdog catches the hang and restarts",
                  "PASS the journal sits on the data partition",
                  "PASS the whole system is running: no failed unit on the read-only root",
                  "PASS network: DHCP, the page and sshd answer from outside the VM",
                  "PASS after the power cut: no acknowledged action lost",
                  "PASS after the reboot: the same sshd host key (on the data partition)"):
        assert check in out
    assert "READY=1" in out
    assert "0 acknowledged actions lost" in out
    assert "all pi-boot checks passed" in out
