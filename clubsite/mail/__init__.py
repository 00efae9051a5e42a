"""Mails the club keeps a record of: each recorded mail sent once, and arrears reminders."""
