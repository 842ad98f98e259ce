"""The table page's pictures: ``GET /api/picture/<name>.svg`` (DESIGN.md rule 17).

The name is one the game made (companion/games/now_boarding/pictures.py: the state's
``picture.src`` names it), read back by :func:`~companion.games.now_boarding.pictures.parse`;
the answer is the scene drawn as SVG (companion/ui/pictures/svg.py). A name it did not make,
or another extension, is 404 ``not-found`` with a message that says which names exist. The
picture depends on its name alone, so the answer may be cached.
"""

from __future__ import annotations

from typing import Final

from companion.games.now_boarding.pictures import parse
from companion.ui.pictures.now_boarding import scene_for
from companion.ui.pictures.svg import scene_svg
from companion.web.answers import Answer, HttpError

PREFIX: Final = "/api/picture/"
SVG_TYPE: Final = "image/svg+xml; charset=utf-8"
HEADERS: Final = (("Cache-Control", "max-age=3600"),)


def picture(request_path: str) -> Answer:
    """The SVG answer for a picture's path (see the module docstring)."""
    name = request_path.removeprefix(PREFIX)
    if not name.endswith(".svg"):
        raise HttpError("not-found", f"no such picture: {name} (pictures are .svg)")
    try:
        wanted = parse(name.removesuffix(".svg"))
    except ValueError as error:
        raise HttpError("not-found", str(error)) from None
    return Answer(200, SVG_TYPE, scene_svg(scene_for(wanted)).encode("utf-8"), HEADERS)
