"""Reading and writing logs: JSON Lines with line numbers, and the hash chain."""
