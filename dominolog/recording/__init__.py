"""Recording matches as people write them. :mod:`dominolog.recording.notation`: the dominolog
notation (``.dn``) read into events and written back, folding each match with the reducer to know
who is on move and who leads."""
