"""Where a prototype goes after the home printer: print services, Tabletop Simulator, the kit.

`files` makes the export files of a built design ({path in the output folder: bytes}) from its
faces' SVG, sheets and rulebooks, through the cache (pnp.products keys them) and the rasteriser
(pnp.render.raster). It is the only module here that does; the others are its planners:

- `print_service`: which service product each component is, the image files to make for it
  (pixel size, trim box, dpi, name), and what the service cannot make (from the specs in pnp.data).
- `tts`: the Tabletop Simulator saved object (JSON) and the deck sheets and images it points at.
- `kit`: the print-and-play kit PDF from the PDFs and compiled faces it is given (its cover and
  how-to page drawn with ReportLab, the rulebook and sheets appended by pypdf).

A planner takes plain data (component ids, kinds, sizes in mm, counts, face names, image paths,
PDF bytes) and returns what to make and how to name it, or the bytes made; none touches the
cache, rasterises, or reads or writes a design's files, so `files` can call them whatever shape
its raster path takes (tests/test_layers.py holds them to it).
"""
