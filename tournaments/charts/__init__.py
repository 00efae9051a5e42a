"""Server-side SVG charts: the geometry (``svg``, pure: no Django, no project import) and the
site's four figures built from plain numbers with translated words (``figures``). The SVG
itself is drawn by templates (``templates/charts/``), so every word in it is escaped by the
template engine: no chart is ever marked safe."""
