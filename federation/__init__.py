"""A federation's pages, above its clubs: its clubs, their published results, licence
batches and uploads, the master-points ranking across its clubs; a club added or leaving."""
