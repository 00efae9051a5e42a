"""Results files other programs read: USEBIO 1.2 XML and PBN 2.1 (see docs/formats)."""
