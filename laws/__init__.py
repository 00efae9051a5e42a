"""The law reference."""
