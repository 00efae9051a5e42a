"""A fixed corpus of hostile values for the forms and JSON endpoints (seeded: the same
values every run, so a failure can be replayed)."""

import random

SEED = 20261125

BASE = [
    "", " ", "\t", "\r\n", "0", "-0", "1", "-1", "-999999", "2147483648", "-2147483649",
    "9" * 20, "9" * 400, "1e308", "-1e308", "1e-400", "NaN", "nan", "-NaN", "sNaN", "Infinity",
    "-Infinity", "inf", "0x1F", "1_000", "١٢٣", "½", "4.5", "4,5", "1/0", "00000001",
    "\x00", "a\x00b", "\x01\x02\x1b[31m", "\x7f", "\u0085", "\u2028", "\ufeff", "\ud800",
    "\udfff", "a\ud800b", "\U0001f4a9", "\u202eevil\u202c", "\u200b", "\u0301\u0301\u0301",
    "<script>alert(1)</script>", "\"><img src=x onerror=alert(1)>", "</style><script>x</script>",
    "</textarea><b>", "{{ 7*7 }}", "{% debug %}", "${7*7}", "javascript:alert(1)",
    "=cmd|' /C calc'!A0", "+SUM(A1:A9)", "-2+3", "@SUM(1)", "=HYPERLINK(\"http://x\")",
    "' OR '1'='1", "1; DROP TABLE clubsite_member; --", "\" OR 1=1 --", "%", "_", "\\", "%00",
    "../../etc/passwd", "C:\\boot.ini", "http://evil.example/", "//evil.example",
    "a" * 256, "a" * 5000, "ñ" * 300, "\u202e" * 50, "x\ny\nz", " padded ", "PASS", "4S",
    "7NTXX", "A+", "A-", "100", "101", "-100", "=", "+13", "-14", "X", "N", "2025-02-30",
    "31/02/2025", "9999-12-31", "0000-00-00", "true", "false", "null", "[]", "{}", "[[[[[[[[]]]]]]]]",
    '{"a":' * 60 + "1" + "}" * 60, "[" * 3000 + "]" * 3000, "AAAA" * 30000,
]

ATOMS = ["\x00", "\ud800", "\u202e", "<script>", "</style>", "=", "+", "-", "@", "'", "\"",
         ";--", "\x1b", "\n", "9" * 30, "NaN", "-1", "\U0001f0cf", "\\", "%s", "%(x)s"]


def corpus(size: int = 1200) -> list[str]:
    """``size`` distinct hostile values: the base list, then seeded combinations of atoms."""
    rng = random.Random(SEED)
    values = list(dict.fromkeys(BASE))
    seen = set(values)
    while len(values) < size:
        parts = [rng.choice(ATOMS + BASE[:60]) for _ in range(rng.randint(1, 4))]
        value = "".join(parts)
        if rng.random() < 0.1:
            value = value * rng.randint(50, 400)
        if value not in seen:
            seen.add(value)
            values.append(value)
    return values
