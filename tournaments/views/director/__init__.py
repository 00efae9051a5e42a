"""The director's pages: the event, entries, set-up of sessions, the live console, disputes,
handicaps, printing and the results mail."""
