"""The table page: the box served over HTTP to the phones and laptops at the table (issue #15).

Imported only when the web is on (``companion run --web`` or ``[web] listen``), so a box
without it starts exactly as before. :mod:`~companion.web.server` answers HTTP and enforces
the security rules; :mod:`~companion.web.channel` is its bridge to the event loop;
:mod:`~companion.web.pairing` holds pairing codes, tokens and the lockout. docs/web.md is the
interface.
"""
