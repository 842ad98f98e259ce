"""Reads SQLite's write-ahead log (the ``-wal`` file) to tell damage from a torn last write.

SQLite itself never reports a damaged WAL: a log whose header fails its checksum is ignored
whole, and the frames after the first bad one are ignored too, so committed transactions can
vanish without a word. This module looks at the file the way SQLite will, *before* SQLite opens
it, and says whether committed data would be lost.

What it promises (:func:`wal_damage`):
- An absent or empty log is fine (a clean stop checkpoints and truncates it).
- A log with a header that is not a valid WAL header (magic, version, page size, checksum) is
  damage: SQLite would drop every frame in it.
- A log whose wal-index (``-shm``) says more frames were committed than the log now holds valid
  (same salts), or an empty or missing log where the wal-index counts committed frames, is
  damage: committed frames were lost, unless the wal-index says they were already copied
  into the database. (The wal-index is written only after the frames are on disk, so it
  never runs ahead of them.)
- A bad frame followed by a commit frame of the same generation that is not the last frame of
  that generation is damage: with ``synchronous=FULL`` every transaction is synced before the
  next one is written, so only the last transaction can be torn by a power cut.
- A bad frame in the last transaction only (a write cut short by the power) is not damage:
  that transaction was never acknowledged.

The file formats are those of https://www.sqlite.org/fileformat2.html (sections 4.1 to 4.3 and
the wal-index header of section 4.5).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

WAL_MAGIC_LITTLE = 0x377F0682
WAL_MAGIC_BIG = 0x377F0683
WAL_VERSION = 3007000
WAL_HEADER_BYTES = 32
FRAME_HEADER_BYTES = 24
SHM_HEADER_BYTES = 48
SHM_BACKFILL_OFFSET = 2 * SHM_HEADER_BYTES  # WalCkptInfo.nBackfill follows the two headers
_MASK = 0xFFFFFFFF


@dataclass(frozen=True)
class WalReport:
    """What SQLite will make of a write-ahead log."""

    valid_frames: int
    """Frames SQLite replays: up to the last commit frame of the unbroken valid chain."""
    damage: str | None
    """Why committed data would be lost, or ``None``."""


def wal_damage(database: Path) -> str | None:
    """Why the write-ahead log of ``database`` has lost committed data, or ``None``."""
    return read_wal(database).damage


def read_wal(database: Path) -> WalReport:
    """Reads ``<database>-wal`` (and ``-shm`` when present); see the module docstring."""
    wal = database.with_name(database.name + "-wal")
    # The wal-index first: it is updated only after the frames it counts are written, so
    # read in this order a box writing meanwhile never looks like lost frames.
    index = _wal_index(database)
    try:
        data = wal.read_bytes()
    except FileNotFoundError:
        data = b""
    if not data:
        if index is not None and index[1] > index[2]:
            return WalReport(0, f"{wal.name}: the log is gone, and the wal-index says it "
                                f"held {index[1] - index[2]} committed frames not yet in "
                                f"the database")
        return WalReport(0, None)
    header = _header(data)
    if header is None:
        return WalReport(0, f"{wal.name}: the write-ahead log header is damaged "
                            f"({len(data)} bytes that SQLite would ignore)")
    big_endian, page_size, salts, checksum = header
    frame_bytes = FRAME_HEADER_BYTES + page_size
    frames = []  # (salts match, checksum ok given the previous stored checksum, commit)
    previous = checksum
    chain_ok = True
    valid_frames = 0
    offset = WAL_HEADER_BYTES
    while offset + frame_bytes <= len(data):
        frame = data[offset:offset + frame_bytes]
        page_number, commit_size, salt1, salt2, sum1, sum2 = struct.unpack(">6I", frame[:24])
        same_generation = (salt1, salt2) == salts
        computed = _checksum(frame[:8] + frame[24:], big_endian, previous)
        sound = same_generation and page_number > 0 and computed == (sum1, sum2)
        frames.append((same_generation, sound, commit_size > 0))
        if chain_ok and sound:
            if commit_size > 0:
                valid_frames = len(frames)
        else:
            chain_ok = False
        # The next frame's checksum continues from this frame's *stored* checksum, so a
        # sound frame after a bad one is still recognised as sound.
        previous = (sum1, sum2)
        offset += frame_bytes
    damage = _broken_before_last_commit(frames, valid_frames)
    if damage is None and index is not None and index[0] == struct.pack(">2I", *salts):
        committed = index[1]
        # Frames already copied into the database (backfilled) are not lost with the log.
        if committed > max(valid_frames, index[2]):
            damage = (f"the wal-index says {committed} frames were committed, the log "
                      f"holds {valid_frames} valid ones")
    return WalReport(valid_frames, None if damage is None else f"{wal.name}: {damage}")


def _broken_before_last_commit(frames: list[tuple[bool, bool, bool]],
                               valid_frames: int) -> str | None:
    """Damage if a commit frame at or after the first bad frame is followed by more frames of
    the same generation (so the bad frame was in a transaction already synced)."""
    bad = next((index for index, (same, sound, _) in enumerate(frames)
                if index >= valid_frames and same and not sound), None)
    if bad is None:
        return None
    same_generation = [index for index, (same, _, _) in enumerate(frames) if same]
    last = same_generation[-1]
    for index in same_generation:
        if index >= bad and frames[index][2] and index < last:
            return (f"frame {bad + 1} is damaged, and the transaction it belongs to was "
                    f"committed (frame {index + 1}) before another was written")
    return None


def _header(data: bytes) -> tuple[bool, int, tuple[int, int], tuple[int, int]] | None:
    if len(data) < WAL_HEADER_BYTES:
        return None
    magic, version, page_size, _, salt1, salt2, sum1, sum2 = struct.unpack(
        ">8I", data[:WAL_HEADER_BYTES])
    if magic not in (WAL_MAGIC_LITTLE, WAL_MAGIC_BIG) or version != WAL_VERSION:
        return None
    if page_size == 1:
        page_size = 65536  # the file format's spelling of the largest page size
    if page_size < 512 or page_size > 65536 or page_size & (page_size - 1):
        return None
    big_endian = magic == WAL_MAGIC_BIG
    if _checksum(data[:24], big_endian, (0, 0)) != (sum1, sum2):
        return None
    return big_endian, page_size, (salt1, salt2), (sum1, sum2)


def _checksum(data: bytes, big_endian: bool, seed: tuple[int, int]) -> tuple[int, int]:
    """SQLite's WAL checksum (fileformat2.html, 4.3) over ``data``, continuing ``seed``."""
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    s0, s1 = seed
    for index in range(0, len(words), 2):
        s0 = (s0 + words[index] + s1) & _MASK
        s1 = (s1 + words[index + 1] + s0) & _MASK
    return s0, s1


def _wal_index(database: Path) -> tuple[bytes, int, int] | None:
    """The log generation's salts (as stored), ``mxFrame`` (the frames committed) and
    ``nBackfill`` (how many of them are already copied into the database), from a sound
    wal-index header; ``None`` without one.

    The wal-index is in the machine's own byte order and holds two copies of its header,
    which must agree; its checksum is the WAL checksum in native order over the first 40
    bytes."""
    shm = database.with_name(database.name + "-shm")
    try:
        with shm.open("rb") as file:
            data = file.read(SHM_BACKFILL_OFFSET + 4)
    except OSError:
        return None
    if (len(data) < SHM_BACKFILL_OFFSET + 4
            or data[:SHM_HEADER_BYTES] != data[SHM_HEADER_BYTES:2 * SHM_HEADER_BYTES]):
        return None
    first = data[:SHM_HEADER_BYTES]
    version, _, _, is_init, _, _, max_frame, _, _, _, _, _, sum1, sum2 = struct.unpack(
        "=3I2BH8I", first)
    if not is_init or version != WAL_VERSION:
        return None
    native_big = struct.pack("=I", 1) == struct.pack(">I", 1)
    if _checksum(first[:40], native_big, (0, 0)) != (sum1, sum2):
        return None
    (backfilled,) = struct.unpack_from("=I", data, SHM_BACKFILL_OFFSET)
    # The salts are copied byte for byte from the log's header, not stored as numbers.
    return first[32:40], int(max_frame), int(backfilled)
