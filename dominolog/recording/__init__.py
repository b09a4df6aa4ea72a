"""Recording matches as people write them, for every face of the recorder (the terminal screen, the
phone page, ``dominolog append``); nothing here imports a face.

- :mod:`dominolog.recording.notation`: the dominolog notation (``.dn``) read into events and written
  back, folding each match with the reducer to know who is on move and who leads;
- :mod:`dominolog.recording.session`: a match being recorded (a journal): entries written durably;
- :mod:`dominolog.recording.prompt`: what the table is expected to do next, and its offer; the places
  of a tile typed alone; Tab's completions;
- :mod:`dominolog.recording.entry`: what becomes of one entry, as an answer a face only shows (JSON);
- :mod:`dominolog.recording.pad`: the tile pad: each tile's state now, the places a tapped tile goes.
"""
