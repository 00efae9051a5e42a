"""The results PDF's charts as images: ``{{ chart|svg_image:"charts/_bars_svg.html" }}``.

Inline in the HTML, every element of a chart's SVG went through WeasyPrint's HTML parser
and its CSS cascade as well as its SVG drawing; as an ``<img>`` of a ``data:`` URL
(which ``pdf_fetcher`` serves) the same SVG is parsed by the SVG reader alone — some 0.5 s
less of the 60-table document's ~2 s of charts (docs/benchmarks.md, issue 20). The SVG is
the one the pages draw, escaped by its template, so the PDF shows the same chart — less the
axis's tick labels where no reference line needs them (``in_pdf``): every bar prints its own
value, and each label was one more text for Pango to lay out. The grid lines stay.
"""

import base64

from django import template
from django.template.loader import render_to_string

register = template.Library()


@register.filter
def svg_image(chart, template_name: str) -> str:
    """A ``data:`` URL of ``chart`` drawn by ``template_name`` (an SVG template)."""
    svg = render_to_string(template_name, {"chart": chart, "in_pdf": True})
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode("ascii")
