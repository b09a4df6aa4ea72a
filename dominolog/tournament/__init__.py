"""A club event's pure rules: who meets whom each round (``pairing``) and the standings (``ranking``).

Pure functions over frozen dataclasses: no store, no web, no CLI. The event log calls them.
"""
