"""Issue #38, 5: on an IPv6 listener every link-local address was one client (fe80::/64), so
one guest's three wrong codes locked the table's phone out of pairing. From a network
namespace of its own (a veth pair, link-local addresses only), a guest and the table's phone
on two link-local addresses: the guest is locked, the phone pairs. Skipped only where
creating a namespace is not permitted (not root, no netns support)."""

import json
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.claimed

CLIENT = r"""
import http.client, json, socket, sys
host, port, source, method, path, body, headers = sys.argv[1:8]
address, _, interface = source.partition("%")
connection = http.client.HTTPConnection(
    host, int(port), timeout=10,
    source_address=(address, 0, 0, socket.if_nametoindex(interface)))
connection.request(method, path, body=body.encode() or None, headers=json.loads(headers))
answer = connection.getresponse()
print(json.dumps({"status": answer.status, "body": answer.read().decode(),
                  "cookie": answer.getheader("Set-Cookie")}))
"""
BOX, GUEST, PHONE = "fe80::1", "fe80::66", "fe80::77"


def ip(*arguments):
    return subprocess.run(["ip", *arguments], capture_output=True, text=True, check=False)


@pytest.fixture
def link_local():
    """(namespace name, its interface): the box's side has fe80::1, the namespace's side
    the guest's and the phone's link-local addresses (no duplicate detection to wait for)."""
    suffix = f"{os.getpid() % 100000}"
    name, outside, inside = f"c6web{suffix}", f"c6a{suffix}", f"c6b{suffix}"
    try:
        made = ip("netns", "add", name)
    except FileNotFoundError:
        pytest.skip("no ip command here")
    if made.returncode != 0:
        pytest.skip(f"cannot create a network namespace here: {made.stderr.strip()}")
    try:
        for step in (("link", "add", outside, "type", "veth", "peer", "name", inside),
                     ("link", "set", inside, "netns", name),
                     ("-6", "addr", "add", f"{BOX}/64", "dev", outside, "nodad"),
                     ("link", "set", outside, "up"),
                     *(("netns", "exec", name, "ip", "-6", "addr", "add", f"{address}/64",
                        "dev", inside, "nodad") for address in (GUEST, PHONE)),
                     ("netns", "exec", name, "ip", "link", "set", inside, "up")):
            done = ip(*step)
            if done.returncode != 0:
                pytest.skip(f"cannot set up a veth pair here: {' '.join(step)}: "
                            f"{done.stderr.strip()}")
        yield name, inside
    finally:
        ip("link", "del", outside)
        ip("netns", "del", name)


def post(namespace, port, source, path, body):
    name, interface = namespace
    headers = {"Host": f"[{BOX}]:{port}", "Origin": f"http://[{BOX}]:{port}"}
    done = subprocess.run(["ip", "netns", "exec", name, sys.executable, "-c", CLIENT,
                           f"{BOX}%{interface}", str(port), f"{source}%{interface}", "POST",
                           path, body, json.dumps(headers)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_link_local_guests_wrong_codes_do_not_lock_the_tables_phone(link_local,
                                                                      make_web_box):
    box = make_web_box(host="::")
    box.open_pairing()
    assert post(link_local, box.port, PHONE, "/api/pair/start", "")["status"] == 200
    wrong = [post(link_local, box.port, GUEST, "/api/pair", json.dumps({"code": "000000"}))
             for _ in range(3)]
    assert [answer["status"] for answer in wrong] == [403, 403, 429]  # the guest is locked
    paired = post(link_local, box.port, PHONE, "/api/pair",
                  json.dumps({"code": box.pair_code()}))
    assert paired["status"] == 200 and paired["cookie"]
