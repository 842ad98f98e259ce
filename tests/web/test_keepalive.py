"""A refusal before the body is read must not leave the body on a kept-alive connection.

Found by the browser tests: a phone's unpaired tap was refused (403) without reading its body,
the connection stayed open, and the browser's next request on it (the pairing code) was read
as ``press nextPOST /api/pair ...``: a 400, and a way to smuggle a request past the check."""

import http.client

import pytest


@pytest.mark.parametrize(("headers", "error"), [
    ({}, "no-origin"),                                          # no Origin, no token
    ({"Origin": "http://evil.example:8080"}, "foreign-origin"),  # the CSRF check
])
def test_a_refused_post_closes_or_drains_so_the_next_request_is_read_right(
        make_web_box, headers, error):
    box = make_web_box(pair_loopback=True)
    connection = http.client.HTTPConnection("127.0.0.1", box.port, timeout=10)
    try:
        connection.request("POST", "/api/line", body=b"press next", headers=headers)
        refused = connection.getresponse()
        assert (refused.status, error) == (403, error)
        assert error in refused.read().decode()
        # http.client reconnects by itself when the server closed; either way the next
        # request must be answered as itself.
        connection.request("GET", "/api/whoami")
        answer = connection.getresponse()
        assert answer.status == 200, answer.read()
        assert b'"trusted": false' in answer.read()
    finally:
        connection.close()
