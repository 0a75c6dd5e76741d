"""Settings: the constants the shop builds its URLs from (read by iri-lint, never imported or run)."""

CDN = "https://cdn.example.net"
API_ROOT = "https://api.example.com/v2"
LISTING_URL = "https://shop.example/list?page=1"
AVATAR_URL = "https://cdn.example.net/avatars/{user}/{size}.png"  # a template, filled where it is used
