"""The Rules view's text (companion/web/static/rules-now-boarding.html, issue #26 item 5).

Its sections are addresses other parts link to (#rules/KEY: the lessons' "More"), so every
fixed key is there, in game order, once; the file is packaged and served by the box as it is;
and it holds no script or style of its own.
"""

from html.parser import HTMLParser
from importlib import resources

TEXT = resources.files("companion.web") / "static" / "rules-now-boarding.html"
KEYS = ("goal", "setup", "round", "flight", "planes", "moving", "boarding", "delivering",
        "weather", "anger", "complaints", "passengers", "stages", "upgrades", "final-round",
        "end", "vip")


class Sections(HTMLParser):
    """The section ids in order, the links to #rules/..., the tags used, and the words."""

    def __init__(self):
        super().__init__()
        self.ids, self.links, self.tags, self.text = [], [], set(), []
        self.headings = {}
        self._in_heading = None

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        self.tags.add(tag)
        if tag == "section":
            self.ids.append(found.get("id"))
        if tag == "a":
            self.links.append(found.get("href"))
        if tag == "h3":
            self._in_heading = self.ids[-1]
            self.headings[self._in_heading] = ""

    def handle_endtag(self, tag):
        if tag == "h3":
            self._in_heading = None

    def handle_data(self, data):
        self.text.append(data)
        if self._in_heading is not None:
            self.headings[self._in_heading] += data


def parsed():
    sections = Sections()
    sections.feed(TEXT.read_text(encoding="utf-8"))
    return sections


def test_every_fixed_section_is_there_once_in_game_order():
    assert parsed().ids == [f"rules-{key}" for key in KEYS]


def test_every_section_has_a_heading():
    headings = parsed().headings
    assert sorted(headings) == sorted(f"rules-{key}" for key in KEYS)
    assert all(title.strip() for title in headings.values()), headings


def test_every_link_in_the_text_names_a_section():
    links = parsed().links
    assert links, "the sections point to each other"
    assert {link for link in links} <= {f"#rules/{key}" for key in KEYS}


def test_the_text_holds_no_script_style_or_outside_resource():
    sections = parsed()
    assert not sections.tags & {"script", "style", "link", "img", "iframe", "form"}
    assert "http" not in TEXT.read_text(encoding="utf-8")


def test_the_box_serves_the_text_as_packaged(web_box):
    answer = web_box.get("/static/rules-now-boarding.html")
    assert answer.status == 200
    assert answer.headers["content-type"] == "text/html; charset=utf-8"
    assert answer.body == TEXT.read_bytes()
