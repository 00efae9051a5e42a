"""Table money: the fees of a session, its cash sheet, and the season's reports."""
