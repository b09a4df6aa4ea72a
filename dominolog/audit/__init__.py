"""The audit document of a match: what an arbiter needs to settle a disputed hand."""
