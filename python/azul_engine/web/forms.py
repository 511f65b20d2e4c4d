"""What a request sends the web app, read and checked: its JSON body (bounded), whole numbers, the variant, an
uploaded file of records; and ``BadRequest``, the app's refusal of a request (a 4xx with a message)."""

import io
import json
import re

from .. import records
from . import i18n

MAX_BODY = 1 << 20  # bytes of a request body (an uploaded record file travels as JSON text)
MAX_LINES = 2000  # records in one uploaded file
# Whole numbers in text: ASCII digits only (str.isdigit() also accepts "²" and other digits int() refuses).
DIGITS = re.compile(r"[0-9]+\Z")
_INTEGER = re.compile(r"-?[0-9]+\Z")


class BadRequest(Exception):
    """A request the app refuses: ``status`` (4xx) with ``message``, or the text of the catalogue's ``key`` with
    ``fields`` in the page's language; ``redraw``: the page part as it stands after the refusal, if it is shown."""

    def __init__(self, message, status=400, key=None, **fields):
        super().__init__(message)
        self.message, self.status, self.key, self.fields = message, status, key, fields
        self.redraw = None


async def read_json(request):
    """The request's body, a JSON object, as a dict (an empty body: ``{}``); at most MAX_BODY bytes."""
    size = request.headers.get("content-length")
    if size is not None and (not DIGITS.match(size) or int(size) > MAX_BODY):
        raise _too_large()
    chunks, total = [], 0
    async for chunk in request.stream():
        total += len(chunk)
        if total > MAX_BODY:
            raise _too_large()
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw:
        return {}
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise BadRequest("the request body is not JSON") from None
    if not isinstance(data, dict):
        raise BadRequest("the request body is not a JSON object")
    return data


def _too_large():
    return BadRequest("the request body is too large: at most %d bytes" % MAX_BODY, 413, "too_large", n=MAX_BODY)


def integer(data, key, lo, hi):
    """``data[key]``, a whole number from ``lo`` to ``hi`` (a number, or ASCII digits in text)."""
    v = data.get(key)
    if isinstance(v, str) and _INTEGER.match(v.strip()) and len(v) < 10:
        v = int(v)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise BadRequest("%s: %s is not a whole number from %d to %d" % (key, json.dumps(v)[:40], lo, hi))
    return v


def variant_of(data):
    """``data["variant"]``: classic or grey."""
    v = data.get("variant")
    if v not in ("classic", "grey"):
        raise BadRequest("variant: %s is not classic or grey" % json.dumps(v)[:40])
    return v


def parse_records(text, lang="en"):
    """Records of an uploaded file: (line, record or RecordError) for each non-blank line; bounded."""
    if not isinstance(text, str):
        raise BadRequest("the upload is not text")
    items = []
    # Lines as a file read in text mode has them (records.iter_file: \n, \r\n, \r), not str.splitlines(),
    # which also cuts at U+2028, U+2029 and U+0085, characters a JSON string may hold as they are.
    for number, line in enumerate(io.StringIO(text, newline=None), 1):
        if not line.strip():
            continue
        if len(items) >= MAX_LINES:
            raise BadRequest(i18n.text(lang, "too_many_records", n=MAX_LINES), 413)
        items.append((number, records.parse_line(number, line)))
    return items
