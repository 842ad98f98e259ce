"""The table page: the box served over HTTP to the phones and laptops at the table (issue #15).

Imported only when the web is on (``companion run --web`` or ``[web] listen``), so a box
without it starts exactly as before. The modules, each named after what it holds:

- :mod:`~companion.web.policy`: who may do what, a pure function of plain request facts;
- :mod:`~companion.web.routes`: the route table (method, path, trust, handler) and handlers;
- :mod:`~companion.web.answers`: answers as data, the web's errors and their HTTP statuses;
- :mod:`~companion.web.http_handler`: the HTTP plumbing (gathers facts, writes answers);
- :mod:`~companion.web.bounded_reading`: a connection's bytes read within budget and deadline;
- :mod:`~companion.web.server`: the bounded threading HTTP server;
- :mod:`~companion.web.service`: the server, channel and pairing wired for the composition root;
- :mod:`~companion.web.channel`: the bridge to the event loop;
- :mod:`~companion.web.pairing`: tokens and the lockout (the code itself is the core's);
- :mod:`~companion.web.history_api`: past games, their files and BG Stats links.

docs/web.md is the interface.
"""
