"""HTTP calls: these IRIs are dereferenced, so meaning-preserving fixes are safe here."""

import urllib.request

import requests

API_BASE_URL = "https://api.example.com:443/v1/"


def product_page(slug: str) -> bytes:
    # urlopen takes only URIs: the Japanese path must be percent-encoded first (IRI404)
    with urllib.request.urlopen(f"https://shop.example/商品/{slug}") as resp:
        return resp.read()


def catalogue() -> bytes:
    with urllib.request.urlopen("https://shop.example/カタログ?lang=ja") as resp:
        return resp.read()


def search(term: str) -> object:
    # a space and a `|` in a URL (IRI101, IRI103)
    return requests.get(f"https://api.example.com/search?q={term}&sort=price|asc&view=list view")


def legacy_feed() -> object:
    # %E9 is Latin-1, not UTF-8: no IRI can show it (IRI401)
    return requests.get("https://feeds.example.com/caf%E9.xml")


def typo() -> object:
    return requests.get("htps://example.com/status")  # IRI603
