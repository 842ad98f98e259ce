"""The table page's address, and its QR code for the panel (wraps segno, imported lazily).

:func:`table_page` turns the address the web server bound into what the box shows
(:class:`~companion.core.table_page.TablePage`):

- bound to every interface (``0.0.0.0``, ``::`` or empty): ``http://<hostname>.local:<port>/``,
  which Avahi (on Raspberry Pi OS from the start; the installer adds the service file)
  answers on the LAN, and the machine's own IP address as ``also`` for phones that do not
  resolve ``.local`` names;
- bound to one address: that address (an IPv6 one in brackets).

Promises:
- The QR code is the smallest that holds the URL at error correction M or better, never
  larger than version 3 (29 modules, what 64 px hold at 2 px a module). A URL made only of
  QR's alphanumeric characters once upper-cased (scheme and host are case-insensitive) is
  encoded upper-case, which fits ``http://raspberrypi.local:8080/`` in version 2 (25).
  A URL that fits no version 3 code raises :class:`ValueError`.
- A pairing link (the address, ``P/`` and a window's secret of 16 characters:
  companion/core/table_page.py) is upper-case alphanumeric too: :func:`pair_qr` encodes it at
  error correction M or better where version 3 holds it (``raspberrypi.local:8080`` and host
  names of up to 24 characters), else at L (up to 40), else not at all: an empty matrix, and
  the panel keeps the address's code (the typed code is then the only way in).
- Finding the IP address sends nothing: a UDP socket's ``connect`` only asks the kernel for
  the route. No route: no ``also``.
"""

from __future__ import annotations

import re
import socket

from companion.core.table_page import MAX_MODULES, Matrix, TablePage

EVERY_INTERFACE = ("", "0.0.0.0", "::")  # noqa: S104 (names, not a bind)
_ALPHANUMERIC = re.compile(r"[0-9A-Z $%*+\-./:]*")
# Any address outside the LAN will do: connect() on UDP only picks the route and source.
_ROUTE_PROBE = ("192.0.2.1", 9)  # TEST-NET-1 (RFC 5737): never a real host


def table_page(host: str, port: int, *, hostname: str | None = None,
               address: str | None = None) -> TablePage:
    """The table page of a server bound to ``host``:``port`` (see the module docstring).
    ``hostname`` and ``address`` replace the machine's own (tests)."""
    if host in EVERY_INTERFACE:
        name = (hostname if hostname is not None else socket.gethostname()).split(".")[0]
        url = f"http://{name}.local:{port}/"
        own = address if address is not None else primary_address()
        also = (f"http://{own}:{port}/",) if own else ()
    else:
        shown = f"[{host}]" if ":" in host else host
        url, also = f"http://{shown}:{port}/", ()
    return TablePage(url=url, qr=qr_matrix(url), also=also)


def qr_matrix(text: str, max_modules: int = MAX_MODULES, error: str = "m") -> Matrix:
    """The modules of the smallest QR code of ``text`` (True: dark), without quiet zone, at
    error correction ``error`` or better."""
    import segno

    upper = text.upper()
    content = upper if _ALPHANUMERIC.fullmatch(upper) else text
    try:
        code = segno.make_qr(content, error=error, boost_error=True)
    except segno.DataOverflowError:
        raise ValueError(f"{text!r} is too long for any QR code") from None
    size = code.symbol_size(border=0)[0]
    if size > max_modules:
        raise ValueError(f"{text!r} needs a {size}-module QR code; at most {max_modules} "
                         "fit the panel")
    return tuple(tuple(bool(module) for module in row) for row in code.matrix)


def pair_qr(link: str) -> Matrix:
    """The QR code of a pairing link (see the module docstring): at error correction M where
    it fits the panel, else L, else empty."""
    for error in ("m", "l"):
        try:
            return qr_matrix(link, error=error)
        except ValueError:
            continue
    return ()


def primary_address() -> str | None:
    """The IPv4 address of the interface the default route leaves by, or None."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(_ROUTE_PROBE)
        address: str = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith(("0.", "127.")) else address
