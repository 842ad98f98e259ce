"""tools/pi-boot's check agent, run inside the booted VM (never in a flashable image).

It reads one JSON request per line from a virtio console (/dev/hvc1), runs the argument list
it names (no shell, with a timeout) and answers one JSON line: {"id", "rc", "out"}. On start it
says {"hello": <seconds since boot>}. Standard library only (the VM's own python3).
"""

import json
import os
import subprocess
import sys
import termios
import tty


def uptime() -> float:
    with open("/proc/uptime", encoding="ascii") as f:
        return float(f.read().split()[0])


def main(device: str) -> None:
    fd = os.open(device, os.O_RDWR | os.O_NOCTTY)
    if os.isatty(fd):
        tty.setraw(fd, termios.TCSANOW)
    reader = os.fdopen(fd, "rb", buffering=0, closefd=False)

    def send(obj: object) -> None:
        data = (json.dumps(obj) + "\n").encode()
        while data:
            data = data[os.write(fd, data):]

    send({"hello": uptime()})
    buffer = b""
    while True:
        chunk = reader.read(4096)
        if not chunk:
            continue
        buffer += chunk
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            if not line.strip():
                continue
            request: object = None
            try:
                request = json.loads(line)
                assert isinstance(request, dict)
                done = subprocess.run(  # noqa: S603 (an argument list from the host's checks)
                    request["argv"], capture_output=True, text=True,
                    timeout=request.get("timeout", 60), check=False)
                send({"id": request["id"], "rc": done.returncode,
                      "out": done.stdout + done.stderr, "uptime": uptime()})
            except Exception as exc:  # any failure is an answer, never a dead agent
                send({"id": request.get("id") if isinstance(request, dict) else None,
                      "rc": -1, "out": f"agent: {exc!r}", "uptime": uptime()})


if __name__ == "__main__":
    main(sys.argv[1])
