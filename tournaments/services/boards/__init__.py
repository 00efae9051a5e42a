"""Deals on boards and how pages write them: PBN tags, contracts, leads, seats and lines."""
