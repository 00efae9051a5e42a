"""The results office and table money: PDFs, federation uploads and imports, master points,
the door list and the season's money."""
