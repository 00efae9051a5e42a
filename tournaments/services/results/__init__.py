"""What players read: the results pages, scorecards and travellers, the season ranking, master
points, publication, and the snapshot that files and PDFs are made from."""
