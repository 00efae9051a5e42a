"""The table: signing a device in, its round, writing and checking a result, the play order,
corrections at the table and the call to the director."""
