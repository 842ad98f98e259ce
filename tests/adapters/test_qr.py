"""companion/adapters/qr.py: the address the box shows for each way the server binds, and a
clear refusal of an address no panel-sized QR code holds."""

import pytest

from companion.adapters.qr import primary_address, qr_matrix, table_page


@pytest.mark.parametrize(("host", "url", "also"), [
    ("0.0.0.0", "http://box.local:8080/", ("http://10.0.0.7:8080/",)),  # noqa: S104
    ("::", "http://box.local:8080/", ("http://10.0.0.7:8080/",)),
    ("127.0.0.1", "http://127.0.0.1:8080/", ()),
    ("::1", "http://[::1]:8080/", ()),
])
def test_qr_table_page_url_for_each_bind(host, url, also):
    page = table_page(host, 8080, hostname="box.example.org", address="10.0.0.7")
    assert (page.url, page.also) == (url, also)


def test_qr_table_page_without_a_route_shows_the_local_name_alone():
    page = table_page("", 8080, hostname="box", address="")
    assert (page.url, page.also) == ("http://box.local:8080/", ())


def test_qr_code_too_long_for_the_panel_is_refused_with_the_reason():
    with pytest.raises(ValueError, match="29 fit the panel"):
        qr_matrix("http://" + "x" * 60 + ".local:8080/")


def test_qr_primary_address_is_never_loopback():
    address = primary_address()
    assert address is None or not address.startswith("127.")
