"""Pages anyone may read: results, rankings, the calendar and online entry."""
