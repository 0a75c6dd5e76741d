"""Identifiers: compared character by character (RFC 3987 sec. 5.1), so every fix here is unsafe."""

# a RIGHT-TO-LEFT OVERRIDE hides in this namespace (IRI201)
SHOP_NS = "http://example.org/shop\u202e/ns#"

# full-width solidus and letters look like ASCII but are not (IRI503)
ALT_NS = "http://example.org/ｓｈｏｐ/ns#"

# credentials in an identifier (IRI506)
MIRROR = "ftp://admin:hunter2@mirror.example.org/pub/"

# decomposed é (e + U+0301): not in NFC (IRI301)
LABELS = {"http://example.org/cafe\u0301": "café"}
