"""Mails the club keeps a record of: each recorded mail sent once, arrears reminders, and
the language a member is written to in."""
