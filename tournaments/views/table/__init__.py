"""The table device's pages: signing in, score entry, corrections, the teams match screen,
and the offline app's worker and manifest."""
