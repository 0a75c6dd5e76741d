"""How the expression around a string literal uses it (``literals``' walk records one per literal): a URL
API's argument, a URL-named target's value, a template filled by ``%`` or ``.format``, a message, prose."""

from __future__ import annotations

from iri_lint.core.context import UseContext
from iri_lint.source.model import Reason
from iri_lint.source.url_apis import UrlApi

__all__ = ["DATED", "EXCLUDED", "FMT", "IDENTIFIER", "MESSAGE", "PCT", "SCOPE", "TEXT", "Ctx"]


class Ctx:
    """How the parent expression uses a string child."""

    __slots__ = ("api", "dated", "excluded", "fmt", "listed", "message", "pct", "reason", "replaced", "use")

    def __init__(
        self,
        reason: Reason | None = None,
        use: UseContext = UseContext.UNKNOWN,
        api: UrlApi | None = None,
        *,
        excluded: bool = False,
        pct: bool = False,
        fmt: bool = False,
        replaced: tuple[str, ...] = (),
        dated: bool = False,
        message: bool = False,
        listed: bool = False,
    ) -> None:
        self.reason = reason
        self.use = use
        self.api = api
        self.excluded = excluded
        self.pct = pct
        self.fmt = fmt
        self.replaced = replaced  # substrings a later .replace() fills in: placeholders
        self.dated = dated  # a strftime format: its directives are placeholders
        self.message = message  # a message (logged, printed, raised, asserted): text, where whitespace delimits
        self.listed = listed  # a list of tokens separated by spaces (an OAuth scope): its absolute IRIs, each alone

    def with_template(self, *, pct: bool = False, fmt: bool = False, replaced: tuple[str, ...] = (),
                      dated: bool = False) -> Ctx:
        return Ctx(self.reason, self.use, self.api, excluded=self.excluded, pct=pct, fmt=fmt,
                   replaced=replaced, dated=dated, message=self.message, listed=self.listed)


EXCLUDED = Ctx(excluded=True)
TEXT = Ctx(excluded=True)  # prose: never one IRI, but text mode extracts the IRIs inside it
IDENTIFIER = Ctx(use=UseContext.IDENTIFIER)
PCT = Ctx(pct=True)
MESSAGE = Ctx(message=True)
FMT = Ctx(fmt=True)
DATED = Ctx(dated=True)
SCOPE = Ctx(listed=True)  # RFC 6749 sec. 3.3: ``scope = scope-token *( SP scope-token )``
