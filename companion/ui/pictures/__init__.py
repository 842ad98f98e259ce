"""Pictures the table looks at, drawn by our own code from the games' data (DESIGN.md rule 17).

A picture is first a :class:`~companion.ui.pictures.scene.Scene` (shapes and labels in a
small unit space, scene.py), built from a game's data by a pure function
(now_boarding.py: :func:`~companion.ui.pictures.now_boarding.table_scene`,
:func:`~companion.ui.pictures.now_boarding.plane_scene`), and only then drawn: as SVG text for
the page (svg.py, :func:`~companion.ui.pictures.svg.scene_svg`) or as pixels with Pillow and
the shipped Spleen fonts (raster.py: :func:`~companion.ui.pictures.raster.scene_image` for
the golden PNGs and the README, :func:`~companion.ui.pictures.raster.scene_panel` for the
128x64 panel). No scanned or copied art: the rulebooks' pictures are facts to redraw.
"""
