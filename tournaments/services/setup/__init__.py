"""Setting up an event: the tournament, its sessions and sections, the movement, the seating,
and the cards printed for the tables."""
