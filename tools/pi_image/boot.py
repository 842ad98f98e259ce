"""Boot the image under qemu-system-aarch64 (software emulation) and check the real systemd.

Promises:
- The machine and its lines (`Machine`, `Agent`, `SerialLine`) are vm.py's, named here too
  for tools/pi-boot.
- `run_checks` performs tools/pi-boot's checks in order, printing each with its timing and
  evidence, and returns the failures (an empty list: all passed).
"""

from __future__ import annotations

import json
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from pi_image.debian import Clock
from pi_image.vm import Agent, CheckFailed, LineSocket, Machine, SerialLine, wait_for

__all__ = ["Agent", "CardTrial", "CheckFailed", "LineSocket", "Machine", "Results", "SerialLine",
           "check_network", "run_checks", "wait_for"]


STATE = "/var/lib/private/companion"
HOST_KEY_PUB = "/var/lib/private/card/ssh/ssh_host_ed25519_key.pub"
JOURNAL = f"{STATE}/journal.sqlite3"
SANDBOX_PROPERTIES = (
    "Type", "NotifyAccess", "WatchdogUSec", "Restart", "DynamicUser", "User",
    "MemoryMax", "TasksMax", "ProtectSystem", "ProtectHome", "PrivateTmp", "PrivateNetwork",
    "PrivateDevices", "NoNewPrivileges", "CapabilityBoundingSet", "RestrictAddressFamilies",
    "DevicePolicy", "MemoryDenyWriteExecute", "ProtectKernelTunables", "ProtectControlGroups",
    "RestrictNamespaces", "LockPersonality", "SystemCallArchitectures", "StateDirectory",
    "ExecStart", "IPAddressDeny", "IPAddressAllow", "SocketBindAllow", "SocketBindDeny",
)
# What `systemctl show` must say for the unit's promises to be in force.
EXPECTED = {
    "Type": "notify", "WatchdogUSec": "20s", "Restart": "on-failure", "DynamicUser": "yes",
    "MemoryMax": str(128 * 2**20), "TasksMax": "80", "ProtectSystem": "strict",
    "ProtectHome": "yes", "PrivateTmp": "yes", "PrivateNetwork": "yes",
    "NoNewPrivileges": "yes", "CapabilityBoundingSet": "", "RestrictAddressFamilies":
    "AF_UNIX", "DevicePolicy": "closed", "MemoryDenyWriteExecute": "yes",
}
# With the table page on the LAN (the card's config), the unit's web drop-in
# (systemd/companion.service.d/web.conf) opens the network to TCP and nothing else.
EXPECTED_WITH_PAGE = EXPECTED | {"PrivateNetwork": "no",
                                 "RestrictAddressFamilies": "AF_INET AF_INET6 AF_UNIX",
                                 "SocketBindAllow": "tcp8080", "SocketBindDeny": "any"}


@dataclass
class Results:
    """What the checks saw, for the summary and docs/pi-image.md."""

    failures: list[str] = field(default_factory=list)
    figures: dict[str, str] = field(default_factory=dict)


def _active(agent: Agent) -> bool:
    return agent.run("systemctl", "is-active", "companion.service")[1].strip() == "active"


def _restarted(agent: Agent, before: int) -> bool:
    props = agent.show("NRestarts", "ActiveState")
    return int(props.get("NRestarts", "0")) > before and props.get("ActiveState") == "active"


def http_get(port: int, path: str, timeout: float = 30) -> tuple[int, str]:
    """(status, body) of GET http://127.0.0.1:PORT/PATH: the host's side of a forwarded port."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}",
                                    timeout=timeout) as answer:
            return answer.status, answer.read(1 << 20).decode("utf-8", "replace")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(1 << 16).decode("utf-8", "replace")
    except (urllib.error.URLError, OSError):
        return 0, ""


def ssh_run(port: int, key: Path, *argv: str, timeout: float = 60) -> tuple[int, str]:
    """Run a command on the guest over the forwarded sshd, logged in with `key` as root."""
    done = subprocess.run(  # noqa: S603 (an argument list, no shell)
        ["/usr/bin/ssh", "-i", str(key), "-p", str(port), "-o", "BatchMode=yes",
         "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
         "-o", "ConnectTimeout=20", "-o", "LogLevel=ERROR", "root@127.0.0.1", *argv],
        capture_output=True, text=True, timeout=timeout, check=False)
    return done.returncode, done.stdout + done.stderr


@dataclass
class CardTrial:
    """The boot-partition files tools/pi-boot wrote on the card, for the network check: the
    private half of authorized_keys' key, and what companion.toml there changes."""

    ssh_key: Path
    boot_config_says: str = "public_mirror"  # [web] public_mirror = true on the boot partition


def check_network(agent: Agent, machine: Machine, card: CardTrial,
                  detail: list[str], say: Callable[[str], None]) -> None:
    """The card's network from outside the VM: DHCP on its NIC (systemd-networkd), the table
    page and the API answering on the host's forwarded port, the boot partition's
    companion.toml in force in the running service, its Wi-Fi file taken to /run, and sshd
    letting in the key from its authorized_keys."""
    if machine.web_port is None or machine.ssh_port is None:
        raise CheckFailed("the machine has no forwarded ports (no network device)")

    def routable() -> str:
        text = agent.run("networkctl", "list", "--no-legend", "--no-pager")[1]
        return text if "routable" in text else ""

    links = str(wait_for("a routable link (systemd-networkd, DHCP)", routable, 180))
    addresses = agent.out("ip", "-4", "-o", "address", "show", "scope", "global").strip()
    say("  networkctl: " + "\n  networkctl: ".join(links.strip().splitlines()))
    say(f"  ip -4: {addresses}")
    if "inet " not in addresses:
        raise CheckFailed(f"no IPv4 address: {addresses!r}")
    web_port = machine.web_port

    def page_answers() -> tuple[int, str] | None:
        answer = http_get(web_port, "/")
        return answer if answer[0] == 200 else None

    status, page = cast("tuple[int, str]",
                        wait_for("the table page on the forwarded port", page_answers, 120))
    if "<title>Table companion</title>" not in page:
        raise CheckFailed(f"GET / answered {status} but not with the table page: {page[:200]!r}")
    _, whoami = http_get(web_port, "/api/whoami")
    state_status, state = http_get(web_port, "/api/state")
    say(f"  host: GET / -> {status} ({len(page)} bytes, the table page); /api/whoami -> "
        f"{whoami.strip()}; /api/state -> {state_status} {state[:80]}")
    if json.loads(whoami or "{}").get(card.boot_config_says) is not True or state_status != 200:
        raise CheckFailed("the boot partition's companion.toml ([web] public_mirror = true) is "
                          f"not in force: whoami {whoami!r}, /api/state {state_status}")
    setup = agent.out("journalctl", "-b", "-u", "companion-card.service", "-o", "cat",
                      "--no-pager")
    say("  " + "\n  ".join(line for line in setup.splitlines()
                          if line.startswith("companion-card:")))
    wifi = agent.run("cat", "/etc/wpa_supplicant/wpa_supplicant-wlan0.conf")[1]
    if "ssid=" not in wifi:
        raise CheckFailed(f"the boot partition's Wi-Fi file did not reach /run: {wifi!r}")
    firmware = agent.out("cat", "/boot/firmware/config.txt")
    overlays = agent.out("ls", "/boot/firmware/overlays").split()
    say(f"  the card's own overlays: {' '.join(overlays)}")
    for name in ("companion-spi0", "companion-poweroff"):
        if f"dtoverlay={name}" not in firmware or f"{name}.dtbo" not in overlays:
            raise CheckFailed(f"the boot partition lacks {name} (config.txt line or "
                              f"overlays/{name}.dtbo): {overlays}")
    rc, out = ssh_run(machine.ssh_port, card.ssh_key, "uname", "-m")
    say(f"  host: ssh -p {machine.ssh_port} root@127.0.0.1 uname -m -> {rc} {out.strip()}")
    if rc != 0 or out.strip() != "aarch64":
        raise CheckFailed(f"ssh with the boot partition's key: exit {rc}: {out.strip()}")
    effective = agent.out("/usr/sbin/sshd", "-T").splitlines()
    wanted = {"passwordauthentication no", "kbdinteractiveauthentication no",
              "authorizedkeysfile /run/companion-card/authorized_keys"}
    if not wanted <= set(effective):
        raise CheckFailed(f"sshd -T: not key-only: lacks {sorted(wanted - set(effective))}")
    detail.append(f"DHCP {addresses.split()[3] if len(addresses.split()) > 3 else addresses}; "
                  "the page, /api/whoami and /api/state answered on the host's forwarded port "
                  "(the boot partition's companion.toml in force, the SPI panel set there); "
                  "the card's SPI0 and power-off overlays on the boot partition; the Wi-Fi "
                  "file in /run; "
                  "ssh with the boot partition's key in; sshd -T: keys only")


def run_checks(machine: Machine, clock: Clock, *, actions: int = 60,
               card: CardTrial | None = None) -> Results:
    """Boot, check, cut the power, boot again, check again."""
    results = Results()

    def check(name: str, body: Callable[[list[str]], None]) -> None:
        try:
            with clock.step(name) as detail:
                body(detail)
            clock.say(f"PASS {name}")
        except (CheckFailed, TimeoutError, ConnectionError, OSError) as exc:
            clock.say(f"FAIL {name}: {exc}")
            results.failures.append(f"{name}: {exc}")

    agent, uart = machine.start()

    def boot(detail: list[str]) -> None:
        up = agent.hello(900)
        detail.append(f"agent answered {up:.1f} s after the kernel started")
        results.figures["boot_to_agent_s"] = f"{up:.1f}"

    check("boot 1: kernel, initrd, systemd to the agent", boot)
    if results.failures:
        return results

    def ready(detail: list[str]) -> None:
        wait_for("companion.service active", lambda: _active(agent), 600)
        props = agent.show("ActiveState", "SubState", "StatusText", "MainPID", "NRestarts",
                           "ExecMainStartTimestampMonotonic", "ActiveEnterTimestampMonotonic")
        took = (int(props["ActiveEnterTimestampMonotonic"])
                - int(props["ExecMainStartTimestampMonotonic"])) / 1e6
        log = agent.out("journalctl", "-b", "-u", "companion.service", "-o", "short-monotonic",
                        "--no-pager")
        clock.say("  journal: " + "\n  journal: ".join(log.strip().splitlines()[-6:]))
        clock.say(f"  systemctl show: ActiveState={props['ActiveState']} "
                  f"SubState={props['SubState']} StatusText={props['StatusText']!r}")
        if props["ActiveState"] != "active" or props["SubState"] != "running":
            raise CheckFailed(f"not active/running: {props}")
        detail.append(f"READY=1: activating -> active {took:.1f} s after ExecStart "
                      f"(Type=notify), status {props['StatusText']!r}")
        results.figures["exec_to_ready_s"] = f"{took:.1f}"

    check("the unit reaches active after READY=1", ready)

    def sandbox(detail: list[str]) -> None:
        props = agent.show(*SANDBOX_PROPERTIES)
        for key in SANDBOX_PROPERTIES:
            clock.say(f"  {key}={props.get(key, '')[:110]}")
        expected = EXPECTED if card is None else EXPECTED_WITH_PAGE
        wrong = {k: props.get(k) for k, v in expected.items() if props.get(k) != v}
        if wrong:
            raise CheckFailed(f"systemctl show differs: {wrong}")
        pid = agent.show("MainPID")["MainPID"]
        status = agent.out("cat", f"/proc/{pid}/status")
        kernel = {k: v.strip() for k, _, v in (line.partition(":") for line in
                                                status.splitlines())
                  if k in ("Uid", "NoNewPrivs", "Seccomp", "CapBnd", "CapEff")}
        cgroup = "/sys/fs/cgroup/system.slice/companion.service"
        memory_max = agent.out("cat", f"{cgroup}/memory.max").strip()
        pids_max = agent.out("cat", f"{cgroup}/pids.max").strip()
        clock.say(f"  in force (kernel): /proc/{pid}/status {kernel}; cgroup memory.max="
                  f"{memory_max} pids.max={pids_max}")
        if (kernel.get("NoNewPrivs") != "1" or kernel.get("Seccomp") != "2"
                or kernel.get("CapEff", "").strip("0") or memory_max != str(128 * 2**20)
                or pids_max != "80" or kernel.get("Uid", "0").split()[0] == "0"):
            raise CheckFailed(f"not in force: {kernel} memory.max={memory_max} "
                              f"pids.max={pids_max}")
        detail.append(f"{len(expected)} properties as the unit says; kernel: uid "
                      f"{kernel['Uid'].split()[0]}, NoNewPrivs 1, seccomp filter on, no "
                      f"capabilities, memory.max 128M, pids.max 80")

    check("systemctl show: sandboxing and limits in force", sandbox)

    game_state: dict[str, str] = {}

    def serial_game(detail: list[str]) -> None:
        uart.drain()
        for line in ("new now-boarding players=3 seed=7", "press next", "press next"):
            reply = uart.ask(line)
            if not reply.startswith("ok"):
                raise CheckFailed(f"{line!r} -> {reply!r}")
        game_state["before"] = uart.ask("state")
        detail.append(f"over ttyAMA0: {game_state['before'][:90]}...")

    check("a game over the serial line (PL011 ttyAMA0, DeviceAllow=char-ttyAMA)", serial_game)

    def sigkill(detail: list[str]) -> None:
        before = int(agent.show("NRestarts")["NRestarts"])
        pid = agent.show("MainPID")["MainPID"]
        begin = time.monotonic()
        agent.out("kill", "-KILL", pid)
        wait_for("restart after SIGKILL", lambda: _restarted(agent, before), 300)
        took = time.monotonic() - begin
        after = uart.ask("state")
        clock.say(f"  before: {game_state.get('before', '')[:100]}\n  after:  {after[:100]}")
        if after != game_state.get("before"):
            raise CheckFailed(f"state after restart differs:\n{game_state.get('before')}\n"
                              f"{after}")
        detail.append(f"SIGKILL pid {pid} -> restarted and active in {took:.1f} s; the game "
                      "resumed from the journal (state identical)")
        results.figures["sigkill_to_active_s"] = f"{took:.1f}"

    check("SIGKILL: restarted, the game resumes from the journal", sigkill)

    def hang(detail: list[str]) -> None:
        before = int(agent.show("NRestarts")["NRestarts"])
        pid = agent.show("MainPID")["MainPID"]
        begin = time.monotonic()
        agent.out("kill", "-STOP", pid)
        wait_for("restart after SIGSTOP", lambda: _restarted(agent, before), 300, every=3)
        took = time.monotonic() - begin
        log = agent.out("journalctl", "-b", "-u", "companion.service", "--no-pager",
                        "-o", "short-monotonic")
        seen = [line for line in log.splitlines() if "atchdog" in line]
        clock.say("  journal: " + "\n  journal: ".join(seen[-3:]))
        if not seen:
            raise CheckFailed("restarted, but the journal names no watchdog timeout")
        detail.append(f"SIGSTOP pid {pid} -> watchdog timeout (WatchdogSec=20s) -> "
                      f"restarted and active after {took:.1f} s")
        results.figures["sigstop_to_active_s"] = f"{took:.1f}"

    check("SIGSTOP: the watchdog catches the hang and restarts", hang)

    def data_partition(detail: list[str]) -> None:
        where = agent.out("findmnt", "-n", "-o", "SOURCE,TARGET,FSTYPE,OPTIONS", "-T",
                          JOURNAL).strip()
        root = agent.out("findmnt", "-n", "-o", "SOURCE,OPTIONS", "/").strip()
        label = agent.out("blkid", "-s", "LABEL", "-o", "value",
                          where.split()[0]).strip() if where else ""
        clock.say(f"  {JOURNAL}: {where} (label {label})\n  /: {root}")
        if label != "COMPANION" or " ext4 " not in f" {where} " or "rw" not in where:
            raise CheckFailed(f"the journal is not on the rw data partition: {where}")
        if "ro" not in root.split()[1].split(","):
            raise CheckFailed(f"the root is not read-only: {root}")
        detail.append(f"journal on {where.split()[0]} (LABEL=COMPANION, ext4 rw); / is ro")

    check("the journal sits on the data partition; the root is read-only", data_partition)

    def running(detail: list[str]) -> None:
        state = str(wait_for("the boot to finish", lambda: agent.run(
            "systemctl", "is-system-running")[1].strip() not in ("initializing", "starting")
            and agent.run("systemctl", "is-system-running")[1].strip(), 300))
        failed = agent.out("systemctl", "list-units", "--failed", "--plain", "--no-legend",
                           "--no-pager").strip()
        clock.say(f"  systemctl is-system-running: {state}; failed units: {failed or 'none'}")
        if state != "running" or failed:
            raise CheckFailed(f"the system is {state}; failed: {failed}")
        detail.append("systemctl is-system-running: running, no failed unit (read-only root)")

    check("the whole system is running: no failed unit on the read-only root", running)

    host_key: dict[str, str] = {}
    if card is not None:
        def network(detail: list[str]) -> None:
            check_network(agent, machine, card, detail, clock.say)
            host_key["before"] = agent.out("cat", HOST_KEY_PUB).strip()

        check("network: DHCP, the page and sshd answer from outside the VM", network)

    power: dict[str, int] = {}

    def power_cut(detail: list[str]) -> None:
        uart.drain()
        if not uart.ask("new timer seconds=60").startswith("ok"):
            raise CheckFailed("new timer refused")
        game_id = agent.out("python3", "-c", _JOURNAL_QUERY, JOURNAL).split()[0]
        acked = 0
        sent = 0
        stop = threading.Event()
        lock = threading.Lock()

        def writer() -> None:
            nonlocal sent
            while not stop.is_set():
                with lock:
                    if sent - acked >= 4:  # a few lines in flight at the moment of the cut
                        pass
                    else:
                        uart.line.send(b"press up" if sent % 2 == 0 else b"press down")
                        sent += 1
                time.sleep(0.01)

        thread = threading.Thread(target=writer, daemon=True)
        thread.start()
        try:
            while acked < actions:
                reply = uart.line.read_line(60)
                if reply.startswith(b"ok"):
                    with lock:
                        acked += 1
                elif reply:
                    raise CheckFailed(f"a press was refused: {reply!r}")
            machine.power_off()   # mid-flight: more presses are on their way
        finally:
            stop.set()
            thread.join(5)
        power.update(acked=acked, sent=sent, game=int(game_id))
        detail.append(f"{acked} presses acknowledged ('ok'), {sent} sent, then SIGKILL to "
                      "qemu (hard power-off)")

    check("power cut: presses over the serial line, then qemu killed", power_cut)
    if "acked" not in power:
        machine.stop()
        return results

    agent, uart = machine.start()

    def reboot(detail: list[str]) -> None:
        up = agent.hello(900)
        wait_for("companion.service active after the power cut", lambda: _active(agent), 600)
        rows = agent.out("python3", "-c", _JOURNAL_QUERY, JOURNAL, str(power["game"])).split()
        journaled = int(rows[1])
        lost = max(0, power["acked"] - journaled)
        clock.say(f"  acknowledged {power['acked']}, sent {power['sent']}, in the journal "
                  f"after reboot {journaled}: lost {lost}")
        results.figures.update(power_acked=str(power["acked"]), power_sent=str(power["sent"]),
                               power_journaled=str(journaled), power_lost=str(lost))
        if lost or journaled > power["sent"]:
            raise CheckFailed(f"acknowledged {power['acked']}, sent {power['sent']}, "
                              f"journaled {journaled}")
        state = json.loads(uart.ask("state").removeprefix("ok "))
        expected = 60 + (15 if journaled % 2 else 0)
        if state.get("game") != "timer" or state["timer"]["duration"] != expected:
            raise CheckFailed(f"the resumed game is not the journal's: {state}")
        detail.append(f"agent after {up:.1f} s; 0 acknowledged actions lost ({power['acked']} "
                      f"acknowledged, {journaled} journaled, {power['sent']} sent); the timer "
                      f"resumed at {expected} s as the journal says")

    check("after the power cut: no acknowledged action lost", reboot)

    if host_key:
        def same_host_key(detail: list[str]) -> None:
            after = agent.out("cat", HOST_KEY_PUB).strip()
            if after != host_key["before"]:
                raise CheckFailed(f"sshd's host key changed across the reboot: {after}")
            detail.append(f"sshd's host key kept on the data partition: {after.split()[1][:20]}...")

        check("after the reboot: the same sshd host key (on the data partition)", same_host_key)
    machine.stop()
    return results


# Run inside the VM by its python3: the current game's id and how many actions it has.
_JOURNAL_QUERY = """\
import sqlite3, sys
db = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
last = db.execute("SELECT max(id) FROM games").fetchone()[0]
game = int(sys.argv[2]) if len(sys.argv) > 2 else last
count = db.execute("SELECT count(*) FROM actions WHERE game_id = ?", (game,)).fetchone()[0]
print(game, count)
"""
