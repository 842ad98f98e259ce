"""The card's first step at every boot: the settings a person wrote on the boot partition.

Runs on the box (installed by tools/pi_image/card.py to /usr/local/lib/companion-card/ and
started by companion-card.service before the network, sshd and the companion). The root is
read-only, so nothing here writes to it: what it makes goes to /run (RAM, rebuilt at each
boot) or, for sshd's host keys, to the data partition (kept, so a phone or a laptop sees the
same box after a reboot).

Promises:
- `wpa_supplicant.conf` on the boot partition (the format Raspberry Pi OS read from there for
  years, written with any text editor): copied to /run/companion-card/wpa_supplicant-wlan0.conf,
  which /etc/wpa_supplicant/wpa_supplicant-wlan0.conf links to; wpa_supplicant@wlan0 starts
  only when it is there. A file with no `network={` block, or with Windows line ends, is
  still used (line ends mended) or refused with a line in the system log that says why.
- `authorized_keys` on the boot partition (one public key a line, as `ssh-copy-id` writes):
  the lines that look like keys are copied to /run/companion-card/authorized_keys (0600), and
  sshd starts only when it is there; sshd's host key is made once, on the data partition.
- `companion.toml` on the boot partition is read by the companion itself (companion/config.py);
  nothing to do here.
Standard library only: it runs with the card's python3, before anything else of the box.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

BOOT = Path("/boot/firmware")
RUN = Path("/run/companion-card")
HOST_KEYS = Path("/var/lib/private/card/ssh")
HOST_KEY = HOST_KEYS / "ssh_host_ed25519_key"
WIFI_FILE = "wpa_supplicant.conf"
KEYS_FILE = "authorized_keys"
WIFI_OUT = "wpa_supplicant-wlan0.conf"
# A public key line: optional options (from="...", command="..."), the key type, the key.
KEY_LINE = re.compile(r"(?:^|\s)(?:ssh-(?:ed25519|rsa|dss)|ecdsa-sha2-nistp\d+|"
                      r"sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com)\s+"
                      r"[A-Za-z0-9+/]{20,}=*(?:\s|$)")
MAX_BYTES = 64 * 1024  # a settings file, not a disk image


def _text(path: Path) -> str | None:
    """The file as text with Unix line ends; None when absent, empty or unreadable."""
    try:
        data = path.read_bytes()[:MAX_BYTES]
    except OSError:
        return None
    text = data.decode("utf-8", errors="replace").replace("\r\n", "\n").replace("\r", "\n")
    return text if text.strip() else None


def wifi(boot: Path, run: Path, say: list[str]) -> bool:
    """The Wi-Fi settings from the boot partition to /run; whether there are any."""
    text = _text(boot / WIFI_FILE)
    if text is None:
        say.append(f"no {WIFI_FILE} on the boot partition: Wi-Fi off (a wired network still "
                   "works)")
        return False
    if "network={" not in text.replace(" ", ""):
        say.append(f"{WIFI_FILE} has no network={{...}} block: Wi-Fi off (see companion-card.txt)")
        return False
    if "ctrl_interface" not in text:  # wpa_cli and networkd's checks need the control socket
        text = "ctrl_interface=DIR=/run/wpa_supplicant GROUP=netdev\n" + text
    out = run / WIFI_OUT
    out.write_text(text, encoding="utf-8")
    out.chmod(0o600)
    ssids = re.findall(r'^\s*ssid\s*=\s*"([^"]*)"', text, re.M)
    say.append(f"Wi-Fi from {WIFI_FILE}: {', '.join(ssids) or 'a network'}")
    return True


def keys(boot: Path, run: Path, say: list[str]) -> bool:
    """The SSH keys from the boot partition to /run; whether there are any."""
    text = _text(boot / KEYS_FILE)
    if text is None:
        say.append(f"no {KEYS_FILE} on the boot partition: SSH off")
        return False
    good = [line.strip() for line in text.splitlines()
            if not line.startswith("#") and KEY_LINE.search(line.strip())]
    skipped = [line for line in text.splitlines() if line.strip() and not line.startswith("#")
               and line.strip() not in good]
    if skipped:
        say.append(f"{KEYS_FILE}: {len(skipped)} line(s) that are not public keys, skipped")
    if not good:
        say.append(f"{KEYS_FILE} holds no public key: SSH off")
        return False
    out = run / KEYS_FILE
    out.write_text("\n".join(good) + "\n", encoding="utf-8")
    out.chmod(0o600)
    say.append(f"SSH on for root, key only: {len(good)} key(s) from {KEYS_FILE}")
    return True


def host_key(folder: Path, say: list[str]) -> None:
    """sshd's host key, made once on the data partition (every card its own)."""
    key = folder / HOST_KEY.name
    if key.exists():
        return
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    subprocess.run(["/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "",  # noqa: S603
                    "-C", "companion", "-f", str(key)], check=True, timeout=120)
    say.append(f"made sshd's host key {key}")


def main(boot: Path = BOOT, run: Path = RUN, host_keys: Path = HOST_KEYS) -> int:
    run.mkdir(parents=True, exist_ok=True, mode=0o700)
    run.chmod(0o700)
    say: list[str] = []
    wifi(boot, run, say)
    if keys(boot, run, say):
        try:
            host_key(host_keys, say)
        except (OSError, subprocess.SubprocessError) as exc:
            say.append(f"could not make sshd's host key: {exc}")
    for line in say:
        print(f"companion-card: {line}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
