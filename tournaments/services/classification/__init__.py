"""From stored results to stored rankings: the dispatcher, incremental re-classification, its
windows, handicaps, and an imported event's figures of record."""
