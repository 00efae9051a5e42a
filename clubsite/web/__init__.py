"""What every request shares: the language cookie, the page context, JSON bodies, query
parameters and safe redirects."""
