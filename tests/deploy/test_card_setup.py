"""The card's boot-time step (tools/pi_image/card_setup.py) and what card.py stages.

card_setup.py runs on the box, before the network and sshd, and takes the files a person wrote
on the boot partition (wpa_supplicant.conf, authorized_keys) to /run. Here it runs against
folders in tmp_path standing in for /boot/firmware, /run/companion-card and the data partition.
card.py's staging runs on a tree shaped like the companion layer, without an image.
"""

import io
import stat
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from pi_image import card, card_setup, debian, layout  # noqa: E402

KEY = ("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGq6t0y8Xq4h3u0bq3wV7mFQm9Zt0m8iQm0bWg0Jc2bE "
       "maker@laptop")


def _run(tmp_path, files):
    boot, run, keys = tmp_path / "boot", tmp_path / "run", tmp_path / "data/card/ssh"
    boot.mkdir()
    for name, data in files.items():
        (boot / name).write_bytes(data.encode() if isinstance(data, str) else data)
    made: list[list[str]] = []

    def keygen(folder, say):
        made.append([str(folder)])
        folder.mkdir(parents=True)
        (folder / card_setup.HOST_KEY.name).write_text("key\n")

    return boot, run, keys, made, keygen


def test_card_setup_without_files_turns_wifi_and_ssh_off(tmp_path, capsys, monkeypatch):
    boot, run, keys, made, keygen = _run(tmp_path, {})
    monkeypatch.setattr(card_setup, "host_key", keygen)
    assert card_setup.main(boot, run, keys) == 0
    said = capsys.readouterr().out
    assert "Wi-Fi off" in said and "SSH off" in said
    assert list(run.iterdir()) == []
    assert stat.S_IMODE(run.stat().st_mode) == 0o700
    assert made == []


def test_card_setup_takes_the_wifi_file_to_run_with_unix_line_ends(tmp_path, capsys,
                                                                    monkeypatch):
    wifi = 'country=GB\r\nnetwork={\r\n    ssid="Kitchen"\r\n    psk="secret words"\r\n}\r\n'
    boot, run, keys, _made, keygen = _run(tmp_path, {"wpa_supplicant.conf": wifi})
    monkeypatch.setattr(card_setup, "host_key", keygen)
    card_setup.main(boot, run, keys)
    out = run / card_setup.WIFI_OUT
    text = out.read_text()
    assert "\r" not in text
    assert 'ssid="Kitchen"' in text and 'psk="secret words"' in text
    assert text.startswith("ctrl_interface=")  # added: wpa_cli needs it
    assert stat.S_IMODE(out.stat().st_mode) == 0o600  # the password is not for every user
    assert "Wi-Fi from wpa_supplicant.conf: Kitchen" in capsys.readouterr().out
    # the file on the boot partition is never changed
    assert (boot / "wpa_supplicant.conf").read_bytes() == wifi.encode()


@pytest.mark.parametrize(("text", "said"), [
    ("", "no wpa_supplicant.conf"),
    ("   \n", "no wpa_supplicant.conf"),
    ('ssid="Kitchen"\npsk="x"\n', "no network={...} block"),
])
def test_card_setup_refuses_a_wifi_file_it_cannot_use_and_says_why(tmp_path, capsys, text,
                                                                   said):
    boot, run, keys, _made, _keygen = _run(tmp_path, {"wpa_supplicant.conf": text})
    card_setup.main(boot, run, keys)
    assert said in capsys.readouterr().out
    assert not (run / card_setup.WIFI_OUT).exists()


def test_card_setup_keeps_only_key_lines_and_makes_the_host_key_once(tmp_path, capsys,
                                                                     monkeypatch):
    keys_text = f"# my laptop\n{KEY}\nnot a key at all\n\nfrom=\"10.0.0.0/8\" {KEY}\n"
    boot, run, keys, made, keygen = _run(tmp_path, {"authorized_keys": keys_text})
    monkeypatch.setattr(card_setup, "host_key", keygen)
    card_setup.main(boot, run, keys)
    out = run / card_setup.KEYS_FILE
    assert out.read_text().splitlines() == [KEY, f'from="10.0.0.0/8" {KEY}']
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    said = capsys.readouterr().out
    assert "1 line(s) that are not public keys, skipped" in said
    assert "SSH on for root, key only: 2 key(s)" in said
    assert made == [[str(keys)]]


def test_card_setup_a_keys_file_without_a_key_leaves_ssh_off(tmp_path, capsys, monkeypatch):
    boot, run, keys, made, keygen = _run(tmp_path, {"authorized_keys": "my password is 1234\n"})
    monkeypatch.setattr(card_setup, "host_key", keygen)
    card_setup.main(boot, run, keys)
    assert "holds no public key: SSH off" in capsys.readouterr().out
    assert not (run / card_setup.KEYS_FILE).exists()
    assert made == []


def test_card_setup_host_key_is_made_by_ssh_keygen_and_kept(tmp_path):
    folder = tmp_path / "ssh"
    said: list[str] = []
    card_setup.host_key(folder, said)
    key = folder / card_setup.HOST_KEY.name
    assert key.read_text().startswith("-----BEGIN OPENSSH PRIVATE KEY-----")
    assert Path(f"{key}.pub").read_text().startswith("ssh-ed25519 ")
    first = key.read_bytes()
    card_setup.host_key(folder, said)  # the next boot: the same key
    assert key.read_bytes() == first
    assert len(said) == 1


# -- what card.py puts on the staged trees ------------------------------------------------------


def _layer(folder):
    (folder / "etc/companion").mkdir(parents=True)
    (folder / "etc/companion/companion.toml").write_text(card.card_config_text())
    (folder / "etc/systemd/system").mkdir(parents=True)
    (folder / "etc/ssh").mkdir(parents=True)
    (folder / "etc/ssh/ssh_host_ed25519_key").write_text("made by openssh-server's postinst")
    (folder / "boot/firmware").mkdir(parents=True)
    (folder / "boot/firmware/config.txt").write_text("arm_64bit=1\n")
    return folder


def test_card_parts_are_staged_for_every_card_and_no_host_key_stays(tmp_path):
    staging = tmp_path / "card/root"
    staging.parent.mkdir()
    boot = layout.stage_root(_layer(tmp_path / "layer"), staging,
                             debian.Clock(out=io.StringIO()))
    assert sorted(p.name for p in boot.iterdir()) == [
        "companion-card.txt", "companion.toml", "config.txt", "overlays",
        "wpa_supplicant.conf.example"]
    assert not list((staging / "etc/ssh").glob("ssh_host_*"))
    wants = staging / "etc/systemd/system/multi-user.target.wants"
    assert str((wants / "systemd-networkd.service").readlink()) == \
        "/usr/lib/systemd/system/systemd-networkd.service"
    assert str((wants / "companion-card.service").readlink()) == \
        "/etc/systemd/system/companion-card.service"
    for masked in ("systemd-networkd-wait-online.service",
                   "systemd-networkd-persistent-storage.service"):
        assert str((staging / "etc/systemd/system" / masked).readlink()) == "/dev/null"
    assert not (wants / "wpa_supplicant@wlan0.service").exists()  # wlan0's arrival starts it
    rule = (staging / "etc/udev/rules.d/80-companion-card-wifi.rules").read_text()
    assert 'ENV{SYSTEMD_WANTS}+="wpa_supplicant@wlan0.service"' in rule
    unit = (staging / "etc/systemd/system/companion-card.service").read_text()
    assert "Before=network-pre.target wpa_supplicant@wlan0.service ssh.service" in unit
    assert (staging / "usr/local/lib/companion-card/card_setup.py").read_text() == \
        (ROOT / "tools/pi_image/card_setup.py").read_text()


def test_card_config_has_the_companion_watch_the_button_and_serve_the_page():
    settings = tomllib.loads(card.card_config_text())
    assert settings["shutdown"]["handler"] == "companion"
    assert settings["shutdown"]["pin"] == 21
    assert settings["web"]["listen"] == f"0.0.0.0:{card.CARD_WEB_PORT}"


def test_card_text_names_every_board_and_the_ones_it_is_not_for():
    text = card.card_text()
    for board, (_dtb, wifi) in card.BOARDS.items():
        assert f"  - {board}: Wi-Fi {wifi}\n" in text
    for board in card.NOT_FOR:
        assert board in text.split("Not for:")[1]
    for name in ("wpa_supplicant.conf", "authorized_keys", "companion.toml"):
        assert name in text
    assert f":{card.CARD_WEB_PORT}/" in text
