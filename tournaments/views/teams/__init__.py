"""Teams events: the director's pages, knockout actions, line-ups and the public standings."""
