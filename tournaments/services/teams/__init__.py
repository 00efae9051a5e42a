"""Teams events: schedule, matches, standings, Swiss and knockout draws, line-ups, and the
course's Patton and triplicate movements."""
