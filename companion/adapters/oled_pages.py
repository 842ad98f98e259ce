"""Partial display updates for SSD1306, SSD1309 and SH1106 panels: send only what changed.

luma's ``ssd1306.display`` sends the whole 1024-byte frame for every image (its
``diff_to_previous`` framebuffer is not used by the monochrome drivers), so a one-digit timer
tick costs as much I2C time as a full redraw. :class:`PartialUpdates` wraps a luma
``ssd1306``, ``ssd1309`` or ``sh1106`` device and promises:

- **The panel ends up holding exactly the new frame.** The first frame (and the first after a
  failed write, or after :meth:`PartialUpdates.invalidate`) is sent whole; after that, the
  new frame is packed into the controller's page bytes (one byte = 8 vertical pixels), compared
  with what the panel holds, and only the changed bytes are sent, in address windows:
  SSD1306 / SSD1309 ``COLUMNADDR``/``PAGEADDR`` rectangles (horizontal addressing, which
  luma's init selects), SH1106 page + column address runs (page addressing, the only mode it has).
- **An unchanged frame sends nothing** (no command either).
- **Windows are chosen by their cost on the wire**: changed columns closer together than a
  window's overhead are sent as one run, and runs on neighbouring pages are merged into one
  rectangle when that is cheaper than sending them apart (:func:`plan_windows`).
- Every other attribute (``mode``, ``size``, ``contrast``, ``hide``, ``cleanup``...) is the
  wrapped device's.

For tests and the bench it also provides :class:`SimulatedPanel`, a model of the controller's
display RAM that applies a recorded I2C command/data stream honouring the address commands,
and :func:`wire_cost`, the bytes and bits a recorded stream puts on the I2C bus.

luma is never imported here: the wrapper works on whatever device object it is given.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

SSD1306_COLUMNADDR = 0x21
SSD1306_PAGEADDR = 0x22
SSD1306_MEMORYMODE = 0x20
SET_PAGE = 0xB0
CONTROL_COMMAND = 0x00
CONTROL_DATA = 0x40

# Bytes one window costs on the wire besides its data (I2C address + control byte per
# transaction): SSD1306 = a 6-byte window command + the data transaction's two;
# SH1106 = a 3-byte page/column command + the data transaction's two.
SSD1306_WINDOW_OVERHEAD = (1 + 1 + 6) + (1 + 1)
SH1106_RUN_OVERHEAD = (1 + 1 + 3) + (1 + 1)

SUPPORTED = ("ssd1306", "ssd1309", "sh1106")
# Controllers addressed by COLUMNADDR/PAGEADDR windows in horizontal addressing mode. The
# SSD1309 has the SSD1306's command set for this (0x20 memory mode, 0x21 column and 0x22 page
# address) and 128 columns; luma's ssd1309 is a plain subclass of its ssd1306 (same init,
# MEMORYMODE 0x00, same display()).
WINDOWED = ("ssd1306", "ssd1309")


# -- packing -----------------------------------------------------------------------------------


def page_bytes(image: Image.Image) -> bytes:
    """A 1-bit image as panel page bytes: page ``p``, column ``x`` at ``p * width + x``;
    bit ``i`` of a byte is the pixel in row ``8 * p + i`` (the SSD1306/SH1106 RAM layout)."""
    if image.mode != "1":
        image = image.convert("1")
    height = image.size[1]
    if height % 8:
        raise ValueError(f"panel height must be a multiple of 8, got {height}")
    pages = height // 8
    # Rotated a quarter turn, each row of the image is one panel column read bottom-up, and
    # tobytes() packs 8 pixels a byte most significant first: byte k of row x is page
    # (pages - 1 - k) of column x, bit i = row 8 * page + i.
    columns = image.transpose(Image.Transpose.ROTATE_270).tobytes()
    return b"".join(columns[pages - 1 - page::pages] for page in range(pages))


def image_from_pages(data: bytes | bytearray, width: int, height: int) -> Image.Image:
    """The inverse of :func:`page_bytes`."""
    pages = height // 8
    columns = bytearray(width * pages)
    for page in range(pages):
        columns[pages - 1 - page::pages] = data[page * width:(page + 1) * width]
    rotated = Image.frombytes("1", (height, width), bytes(columns))
    return rotated.transpose(Image.Transpose.ROTATE_90)


# -- planning ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Window:
    """Pages ``first_page..last_page`` and columns ``first_column..last_column`` (inclusive),
    in the visible frame's coordinates."""

    first_page: int
    last_page: int
    first_column: int
    last_column: int

    @property
    def size(self) -> int:
        return ((self.last_page - self.first_page + 1)
                * (self.last_column - self.first_column + 1))

    def union(self, other: Window) -> Window:
        return Window(min(self.first_page, other.first_page),
                      max(self.last_page, other.last_page),
                      min(self.first_column, other.first_column),
                      max(self.last_column, other.last_column))


def changed_runs(old: bytes, new: bytes, width: int, page: int,
                 overhead: int) -> list[tuple[int, int]]:
    """Column runs of ``page`` that differ, runs closer than ``overhead`` bytes joined."""
    start = page * width
    previous, current = old[start:start + width], new[start:start + width]
    if previous == current:
        return []
    runs: list[tuple[int, int]] = []
    for column in range(width):
        if previous[column] != current[column]:
            if runs and column - runs[-1][1] - 1 <= overhead:
                runs[-1] = (runs[-1][0], column)
            else:
                runs.append((column, column))
    return runs


def plan_windows(old: bytes, new: bytes, width: int, pages: int, *,
                 overhead: int = SSD1306_WINDOW_OVERHEAD,
                 rectangles: bool = True) -> list[Window]:
    """The windows that carry every changed byte of ``new``, cheaply.

    With ``rectangles`` (SSD1306), one-page runs on neighbouring pages are merged into a
    rectangle when the merged window costs no more than the two apart, and the whole
    bounding box is used when that is cheaper still. Without it (SH1106), one run per page.
    """
    windows: list[Window] = []
    for page in range(pages):
        for first, last in changed_runs(old, new, width, page, overhead):
            window = Window(page, page, first, last)
            if rectangles:
                for index, candidate in enumerate(windows):
                    if candidate.last_page != page - 1:
                        continue
                    merged = candidate.union(window)
                    if merged.size + overhead <= candidate.size + window.size + 2 * overhead:
                        windows[index] = merged
                        break
                else:
                    windows.append(window)
            else:
                windows.append(window)
    if rectangles and len(windows) > 1:
        box = windows[0]
        for window in windows[1:]:
            box = box.union(window)
        if box.size + overhead <= sum(window.size + overhead for window in windows):
            return [box]
    return windows


# -- the device wrapper ------------------------------------------------------------------------


def driver_kind(device: Any) -> str | None:
    """``"ssd1306"``, ``"ssd1309"`` or ``"sh1106"`` for exactly those luma drivers, else
    ``None`` (other subclasses such as ssd1305 differ in details and keep luma's full
    frames)."""
    kind = type(device).__name__
    if type(device).__module__.startswith("luma.oled") and kind in SUPPORTED:
        return kind
    return None


def with_partial_updates(device: Any) -> Any:
    """``device`` wrapped in :class:`PartialUpdates` when it is a supported driver, else
    ``device`` itself."""
    kind = driver_kind(device)
    return PartialUpdates(device, kind) if kind is not None else device


class PartialUpdates:
    """A luma ssd1306/ssd1309/sh1106 device that sends only the changed part of each frame."""

    def __init__(self, device: Any, kind: str) -> None:
        if kind not in SUPPORTED:
            raise ValueError(f"partial updates support {', '.join(SUPPORTED)}, not {kind!r}")
        self.device = device
        self.kind = kind
        self._width: int = device._w
        self._pages: int = device._h // 8
        if kind in WINDOWED:
            self._column_offset = int(getattr(device, "_colstart", 0))
        else:
            self._column_offset = int(getattr(device, "_page_address_offset", 0x02)) & 0x0F
        self._shown: bytes | None = None
        self.windows_sent = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.device, name)

    def invalidate(self) -> None:
        """Forget what the panel holds: the next frame is sent whole."""
        self._shown = None

    def display(self, image: Image.Image) -> None:
        """Show ``image`` (the device's mode and size), sending only what changed."""
        if image.mode != self.device.mode or image.size != self.device.size:
            raise ValueError(f"expected a {self.device.mode} image of {self.device.size}, "
                             f"got {image.mode} {image.size}")
        frame = page_bytes(self.device.preprocess(image))
        if self._shown is None:
            windows = [Window(0, self._pages - 1, 0, self._width - 1)]
        else:
            if frame == self._shown:
                return
            windows = plan_windows(self._shown, frame, self._width, self._pages,
                                   overhead=(SSD1306_WINDOW_OVERHEAD if self.kind in WINDOWED
                                             else SH1106_RUN_OVERHEAD),
                                   rectangles=self.kind in WINDOWED)
        self._shown = None  # unknown until every window is through (a write may fail)
        for window in windows:
            self._send(window, frame)
        self._shown = frame

    def clear(self) -> None:
        """Blank the panel (through the partial path, so what it holds stays known)."""
        self.display(Image.new(self.device.mode, self.device.size))

    def _send(self, window: Window, frame: bytes) -> None:
        width = self._width
        first, last = window.first_column, window.last_column
        if self.kind in WINDOWED:
            offset = self._column_offset
            self.device.command(SSD1306_COLUMNADDR, first + offset, last + offset,
                                SSD1306_PAGEADDR, window.first_page, window.last_page)
            data = b"".join(frame[page * width + first:page * width + last + 1]
                            for page in range(window.first_page, window.last_page + 1))
            self.device.data(list(data))
            self.windows_sent += 1
            return
        column = first + self._column_offset
        for page in range(window.first_page, window.last_page + 1):
            self.device.command(SET_PAGE | page, column & 0x0F, 0x10 | (column >> 4))
            self.device.data(list(frame[page * width + first:page * width + last + 1]))
            self.windows_sent += 1


# -- what it costs on the wire -----------------------------------------------------------------


@dataclass(frozen=True)
class WireCost:
    """I2C traffic: ``transactions`` writes of ``bytes`` bytes in all (address + control +
    payload each)."""

    transactions: int
    bytes: int

    @property
    def bits(self) -> int:
        """9 clocks per byte (8 bits + ACK), plus a start and a stop per transaction."""
        return 9 * self.bytes + 2 * self.transactions

    def seconds(self, clock_hz: float) -> float:
        return self.bits / clock_hz


Write = tuple[int, int, Sequence[int]]


def wire_cost(writes: Iterable[Write], *, block_size: int = 4096) -> WireCost:
    """What a recorded stream (``RecordingI2CBus.writes``) costs on the bus.

    Each command write is one transaction. Consecutive data writes are one luma ``data()``
    call (the drivers always send a command between two data calls), sent as transactions of
    at most ``block_size`` payload bytes: 4096 for luma's own smbus2 bus on a Pi (one
    ``i2c_rdwr`` message), 32 for an SMBus block write (a bus given to luma, as recorded).
    """
    transactions = total = 0
    pending = 0

    def flush() -> None:
        nonlocal transactions, total, pending
        if pending:
            count = math.ceil(pending / block_size)
            transactions += count
            total += pending + 2 * count
            pending = 0

    for _, control, data in writes:
        if control == CONTROL_DATA:
            pending += len(data)
        else:
            flush()
            transactions += 1
            total += 2 + len(data)
    flush()
    return WireCost(transactions, total)


# -- a model of the panel's memory -------------------------------------------------------------

# Commands followed by argument bytes (SSD1306 and SH1106 share these codes); every other
# byte is a one-byte command.
_ARGUMENTS = {0x81: 1, 0x8D: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1,
              0xDB: 1, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0xA3: 2}
_SSD1306_ARGUMENTS = {**_ARGUMENTS, SSD1306_MEMORYMODE: 1, SSD1306_COLUMNADDR: 2,
                      SSD1306_PAGEADDR: 2}


class SimulatedPanel:
    """The display RAM of an SSD1306 (128 x 8 pages) or SH1106 (132 x 8 pages).

    :meth:`apply` runs a recorded I2C stream: commands (control byte 0x00) move the address
    pointer as the datasheets say (SSD1306: memory mode, column/page windows, page-mode page
    and column nibbles; SH1106: page and column nibbles, page addressing only), data bytes
    (control 0x40) are written at the pointer, which then advances.
    """

    def __init__(self, kind: str, pages: int = 8) -> None:
        if kind not in SUPPORTED:
            raise ValueError(f"no model for {kind!r}")
        self.kind = kind
        self.columns = 128 if kind in WINDOWED else 132
        self.pages = pages
        self.ram = bytearray(self.columns * pages)
        self.mode = 2  # SSD1306 reset state: page addressing
        self.column_window = (0, self.columns - 1)
        self.page_window = (0, pages - 1)
        self.column = 0
        self.page = 0
        self._pending: list[int] = []

    def apply(self, writes: Iterable[Write]) -> None:
        for _, control, data in writes:
            if control == CONTROL_DATA:
                for byte in data:
                    self._write(byte)
            elif control == CONTROL_COMMAND:
                for byte in data:
                    self._command_byte(byte)
            else:
                raise ValueError(f"unknown control byte {control:#04x}")

    def page_bytes(self, width: int, column_offset: int = 0) -> bytes:
        """The visible ``width`` columns from ``column_offset``, in :func:`page_bytes` order."""
        return b"".join(bytes(self.ram[page * self.columns + column_offset:
                                       page * self.columns + column_offset + width])
                        for page in range(self.pages))

    def image(self, width: int = 128, column_offset: int = 0) -> Image.Image:
        return image_from_pages(self.page_bytes(width, column_offset), width, self.pages * 8)

    def _write(self, byte: int) -> None:
        if self.column >= self.columns:
            raise ValueError(f"data written at column {self.column}, past the panel's "
                             f"{self.columns}")
        self.ram[self.page * self.columns + self.column] = byte
        if self.kind == "sh1106" or self.mode == 2:
            # Page addressing: the column moves on within the page (SSD1306: back to the
            # window start past its end; SH1106: stops at the last column).
            if self.kind == "sh1106":
                self.column = min(self.column + 1, self.columns - 1)
            else:
                self.column = (self.column + 1 if self.column < self.column_window[1]
                               else self.column_window[0])
            return
        first_column, last_column = self.column_window
        first_page, last_page = self.page_window
        if self.mode == 0:  # horizontal
            if self.column < last_column:
                self.column += 1
            else:
                self.column = first_column
                self.page = self.page + 1 if self.page < last_page else first_page
        elif self.page < last_page:  # vertical
            self.page += 1
        else:
            self.page = first_page
            self.column = self.column + 1 if self.column < last_column else first_column

    def _command_byte(self, byte: int) -> None:
        pending = self._pending
        pending.append(byte)
        arguments = (_SSD1306_ARGUMENTS if self.kind in WINDOWED else _ARGUMENTS)
        if len(pending) <= arguments.get(pending[0], 0):
            return
        self._pending = []
        self._command(pending)

    def _command(self, command: list[int]) -> None:
        code = command[0]
        if self.kind in WINDOWED and code == SSD1306_MEMORYMODE:
            self.mode = command[1] & 0x03
        elif self.kind in WINDOWED and code == SSD1306_COLUMNADDR:
            self.column_window = (command[1] & 0x7F, command[2] & 0x7F)
            self.column = self.column_window[0]
        elif self.kind in WINDOWED and code == SSD1306_PAGEADDR:
            self.page_window = (command[1] % self.pages, command[2] % self.pages)
            self.page = self.page_window[0]
        elif 0xB0 <= code <= 0xB7:
            self.page = (code & 0x07) % self.pages
        elif code <= 0x0F:  # the column's low nibble (page addressing)
            self.column = (self.column & 0xF0) | code
        elif 0x10 <= code <= 0x1F:  # the column's high nibble
            self.column = ((code & 0x0F) << 4) | (self.column & 0x0F)
