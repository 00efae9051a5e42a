"""The director running a session: the live console, the board grid, corrections and adjusted
scores, and the audit trail in words."""
