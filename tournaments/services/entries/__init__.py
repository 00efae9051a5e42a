"""Who plays: the calendar, online entry and its waiting list, the director's registrations,
late pairs and withdrawals undone."""
