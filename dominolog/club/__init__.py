"""What a club asks of its records: score sheets, standings and ratings, all recomputed from the rules."""
