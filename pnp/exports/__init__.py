"""Where a prototype goes after the home printer: pure planners for print services and Tabletop Simulator.

Each module takes plain data (component ids, kinds, sizes in mm, counts, face names, image
paths) and returns what to make and how to name it; none of them renders, reads or writes
files, so the build can call them whatever shape its raster path takes.

- `print_service`: which service product each component is, the image files to make for it
  (pixel size, trim box, dpi, name), and what the service cannot make.
- `tts`: the Tabletop Simulator saved object (JSON) and the deck sheets and images it points at.
"""
