"""Mails to players: the words in each member's language, results mails and waiting-list notices."""
