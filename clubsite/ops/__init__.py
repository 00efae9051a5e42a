"""Running the site: backups, a web process's warm-up, the worker's consumer and the log filters."""
