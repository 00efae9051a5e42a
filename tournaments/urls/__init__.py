"""Tournaments' URLs, one module per audience: directors, table devices, public results."""
