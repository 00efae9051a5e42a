"""The table device's JavaScript scores (``static/tournaments/table_score.js``) against the core.

``tests/js/contract_scores.json`` holds the NS score of every level × strain × doubling ×
declarer × board vulnerability × tricks 0-13, generated here from ``scoring.ns_score``; the
node test (``tests/js/table_score.test.js``) asserts the JavaScript gives every one of them.
This test keeps the file equal to the core, so neither can change alone. Regenerate with
``python -m tests.scoring.test_scoring_js_table``.
"""

import json
from pathlib import Path

from tournaments.scoring import Contract, ns_score

TABLE = Path(__file__).resolve().parent.parent / "js" / "contract_scores.json"
STRAINS = ("C", "D", "H", "S", "NT")
VULNERABILITY = ("", "NS", "EW", "All")


def generate() -> dict:
    """Every line in one fixed order (the node test walks the same loops)."""
    scores = [
        ns_score(Contract(level, strain, doubled), declarer, tricks, vul or None)
        for level in range(1, 8)
        for strain in STRAINS
        for doubled in (0, 1, 2)
        for declarer in "NESW"
        for vul in VULNERABILITY
        for tricks in range(14)
    ]
    return {
        "order": "level 1-7, strain C D H S NT, doubled 0 1 2, declarer N E S W, "
        "vulnerability none NS EW All, tricks 0-13",
        "strains": list(STRAINS),
        "vulnerability": list(VULNERABILITY),
        "scores": scores,
    }


def text() -> str:
    return json.dumps(generate(), separators=(",", ":")) + "\n"


def test_the_javascript_table_is_the_cores():
    assert TABLE.read_text(encoding="utf-8") == text(), "regenerate: python -m " + __name__


def test_the_table_covers_every_line_and_knows_the_laws_corners():
    data = generate()
    assert len(data["scores"]) == 7 * 5 * 3 * 4 * 4 * 14
    assert ns_score(Contract(3, "NT"), "S", 9, None) == 400  # the NS +400
    assert ns_score(Contract(7, "NT", 2), "W", 13, "All") == -2980
    assert ns_score(Contract(7, "C", 2), "N", 0, "NS") == -7600


if __name__ == "__main__":
    TABLE.write_text(text(), encoding="utf-8")
