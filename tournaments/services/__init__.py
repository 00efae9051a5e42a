"""The tournament operations views call; each public function owns its transaction.

``setup`` builds events and seats entries from a movement, ``entry`` is the one way to
write a result, ``classification`` turns results into stored rankings, ``publish`` moves
results through provisional and final, ``progress`` tells the live console what is missing.
"""
