"""The emulated Pi: a qemu-system-aarch64 machine and the three lines tools/pi-boot talks over.

Promises:
- `Machine` starts `qemu-system-aarch64 -M virt -cpu cortex-a53` on the image (Debian's
  kernel and initrd from the root), with no network device, or with `web_port`/`ssh_port` one
  virtio NIC on qemu's user-mode network with `restrict=on` (the guest reaches nothing
  outside; only the host's 127.0.0.1 ports forwarded to its table page and sshd reach in),
  and three lines, each a Unix socket or file in its run folder: the kernel console (hvc0,
  to console.log), the check agent (hvc1, agent.py inside) and the board's PL011 UART
  (ttyAMA0), which the companion serves its line protocol on. `power_off` is a hard power
  cut: SIGKILL to qemu, whose pid it started; guest RAM is lost, the disk keeps only what the
  guest had written out.
- `Agent.run` runs an argument list inside the VM and returns (status, output).
- `SerialLine` speaks the companion's line protocol: one line out, one reply line back.
- `wait_for` polls until something holds, `CheckFailed` after its timeout: never forever.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pi_image.card import CARD_WEB_PORT
from pi_image.debian import ROOT_LABEL


class CheckFailed(RuntimeError):
    """A check's condition did not hold; the message says what was seen."""


def wait_for(what: str, probe: Callable[[], object], timeout: float,
             every: float = 2.0) -> object:
    """Call `probe` until it returns something truthy; CheckFailed after `timeout` seconds."""
    end = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > end:
            raise CheckFailed(f"{what}: not within {timeout:.0f} s")
        time.sleep(every)


def _connect(path: Path, timeout: float) -> socket.socket:
    end = time.monotonic() + timeout
    while True:
        try:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.connect(str(path))
            return sock
        except OSError:
            sock.close()
            if time.monotonic() > end:
                raise
            time.sleep(0.2)


class LineSocket:
    """A Unix socket read and written as lines (bytes), with timeouts."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        # Its own socket object, so a reader's timeout never cuts a write in another thread.
        self.writer = sock.dup()
        self.writer.settimeout(60)
        self.buffer = b""

    def send(self, line: bytes) -> None:
        self.writer.sendall(line + b"\n")

    def read_line(self, timeout: float) -> bytes:
        end = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError("no line")
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                continue
            if not chunk:
                raise ConnectionError("closed")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.rstrip(b"\r")


class Agent:
    """The check agent on hvc1: argument lists in, (status, output) back."""

    def __init__(self, line: LineSocket) -> None:
        self.line = line
        self.next_id = 0

    def hello(self, timeout: float) -> float:
        """Wait for the agent's greeting; the VM's uptime then (seconds since boot)."""
        end = time.monotonic() + timeout
        while True:
            try:
                raw = self.line.read_line(max(1.0, end - time.monotonic()))
            except TimeoutError as exc:
                raise CheckFailed(f"the VM's agent did not start within {timeout:.0f} s "
                                  "(see console.log)") from exc
            with contextlib.suppress(ValueError):
                message = json.loads(raw)
                if isinstance(message, dict) and "hello" in message:
                    return float(message["hello"])

    def run(self, *argv: str, timeout: float = 60) -> tuple[int, str]:
        self.next_id += 1
        wanted = self.next_id
        self.line.send(json.dumps({"id": wanted, "argv": list(argv),
                                   "timeout": timeout}).encode())
        end = time.monotonic() + timeout + 30
        while True:
            raw = self.line.read_line(max(1.0, end - time.monotonic()))
            with contextlib.suppress(ValueError):
                answer = json.loads(raw)
                if isinstance(answer, dict) and answer.get("id") == wanted:
                    return int(answer["rc"]), str(answer["out"])

    def out(self, *argv: str, timeout: float = 60) -> str:
        """Output of a command that must succeed."""
        rc, text = self.run(*argv, timeout=timeout)
        if rc != 0:
            raise CheckFailed(f"{' '.join(argv)} exited {rc}: {text.strip()[-500:]}")
        return text

    def show(self, *props: str) -> dict[str, str]:
        text = self.out("systemctl", "show", "companion.service", "-p", ",".join(props))
        return dict(line.split("=", 1) for line in text.splitlines() if "=" in line)


class SerialLine:
    """The companion's line protocol over the board's UART (a socket on the host)."""

    def __init__(self, line: LineSocket) -> None:
        self.line = line

    def ask(self, command: str, timeout: float = 30) -> str:
        self.line.send(command.encode())
        return self.line.read_line(timeout).decode()

    def drain(self) -> None:
        with contextlib.suppress(TimeoutError):
            while True:
                self.line.read_line(0.5)


@dataclass
class Machine:
    """One qemu-system-aarch64 process on the image, with its console and sockets."""

    image: Path
    kernel: Path
    initrd: Path
    folder: Path
    memory_mb: int = 1024
    # Host ports (127.0.0.1) forwarded to the guest's table page (8080) and sshd (22): with
    # them, a NIC on qemu's user-mode network that can reach nothing outside (restrict=on).
    web_port: int | None = None
    ssh_port: int | None = None
    process: subprocess.Popen[bytes] | None = None
    boots: int = 0
    started: float = field(default=0.0)

    def nic(self) -> list[str]:
        """No network, or one virtio NIC on a restricted user-mode network with the ports.
        `romfile=` leaves out the NIC's network-boot ROM (ipxe-qemu's efi-virtio.rom, not
        needed: the kernel is given directly)."""
        if self.web_port is None and self.ssh_port is None:
            return ["-nic", "none"]
        forwards = "".join(f",hostfwd=tcp:127.0.0.1:{host}-:{guest}" for host, guest in
                           ((self.web_port, CARD_WEB_PORT), (self.ssh_port, 22)) if host)
        return ["-netdev", f"user,id=net,restrict=on{forwards}",
                "-device", "virtio-net-pci,netdev=net,romfile="]

    def argv(self) -> list[str]:
        f = self.folder
        cmdline = f"root=LABEL={ROOT_LABEL} ro rootwait console=hvc0 panic=10"
        return [
            "qemu-system-aarch64", "-M", "virt", "-cpu", "cortex-a53", "-smp", "2",
            "-m", str(self.memory_mb), "-accel", "tcg,thread=multi",
            "-nodefaults", "-display", "none", "-monitor", "none", "-no-reboot", *self.nic(),
            "-kernel", str(self.kernel), "-initrd", str(self.initrd), "-append", cmdline,
            "-drive", f"file={self.image},if=none,id=card,format=raw,cache=writeback",
            "-device", "virtio-blk-pci,drive=card",
            "-device", "virtio-serial-pci",
            "-chardev", f"file,id=con,path={f / f'console-{self.boots + 1}.log'}",
            "-device", "virtconsole,chardev=con,name=console",
            "-chardev", f"socket,id=agent,path={f / 'agent.sock'},server=on,wait=off",
            "-device", "virtconsole,chardev=agent,name=agent",
            "-chardev", f"socket,id=uart,path={f / 'uart.sock'},server=on,wait=off",
            "-serial", "chardev:uart",
        ]

    def start(self) -> tuple[Agent, SerialLine]:
        for name in ("agent.sock", "uart.sock"):
            (self.folder / name).unlink(missing_ok=True)
        log = (self.folder / f"qemu-{self.boots + 1}.log").open("wb")
        self.process = subprocess.Popen(  # noqa: S603 (an argument list, no shell)
            self.argv(), stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        log.close()
        self.boots += 1
        self.started = time.monotonic()
        agent = Agent(LineSocket(_connect(self.folder / "agent.sock", 60)))
        uart = SerialLine(LineSocket(_connect(self.folder / "uart.sock", 60)))
        return agent, uart

    def power_off(self) -> None:
        """A hard power cut: SIGKILL to the qemu process this Machine started."""
        if self.process and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=60)

    def stop(self) -> None:
        self.power_off()


