"""What every request shares: the club of its host, the language cookie, the page context,
JSON bodies, query parameters and safe redirects; and the admin site, superusers only."""
