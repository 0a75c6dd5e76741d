"""URLs built in code from settings.py's constants: each is checked as the value it assembles, and a
finding points at the piece that holds the problem."""

from urllib.parse import urljoin

import requests

from shop.settings import API_ROOT, AVATAR_URL, CDN, LISTING_URL


def team_photo() -> requests.Response:
    return requests.get(CDN + "/img/team photo.jpg")  # a space in a piece (IRI101; unsafe fix: %20)


def logo() -> requests.Response:
    return requests.get(CDN + "img/logo.png")  # no '/': the host becomes cdn.example.netimg (IRI801)


def sorted_listing() -> requests.Response:
    return requests.get(LISTING_URL + "?sort=desc")  # a second '?' (IRI803)


def items() -> requests.Response:
    return requests.get(urljoin(API_ROOT, "items"))  # urljoin replaces 'v2' (IRI804)


def avatar() -> requests.Response:
    return requests.get(AVATAR_URL)  # the template reaches the request unfilled (IRI805)


def avatar_of(user: str) -> requests.Response:
    return requests.get(AVATAR_URL.format(user=user, size=64))  # filled: nothing to say
