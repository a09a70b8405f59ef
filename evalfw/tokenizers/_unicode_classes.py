"""The Unicode categories P (punctuation), S (symbols) and N (numbers) exactly as the installed
``regex`` package matches ``\\p{P}``, ``\\p{S}`` and ``\\p{N}``, as code-point ranges kept in a
per-user cache file, so that the ``intl`` tokenizer can build ``re`` patterns without importing
``regex`` (64 M instructions, most of a short command line).

Python's ``unicodedata`` is not a substitute: it carries its own, usually older, Unicode version,
and sacreBLEU's tokenizer uses ``regex``'s tables. So the ranges are read out of ``regex`` itself,
once per installation of it, and the file is keyed by what they depend on: ``regex``'s version
and the size and modification time of its compiled module (which holds the tables).

The file is an optimisation, never a source of truth: it is written atomically (temporary file,
then rename), and one that cannot be read, belongs to another ``regex``, fails its checksum or
does not describe sorted, disjoint ranges is ignored and written again. ``EVALFW_NO_CACHE``
(any value but ``0``) makes every process read the ranges from ``regex``. The file lives in
``$EVALFW_CACHE_DIR``, else ``$XDG_CACHE_HOME/evalfw``, else ``~/.cache/evalfw``.
"""

from __future__ import annotations

import os
from bisect import bisect_right
from operator import le, lt

from evalfw.tokenizers.base import memo

TYPE_CHECKING = False  # not from typing: the drop-in command line starts without it
if TYPE_CHECKING:
    from collections.abc import Iterable

CATEGORIES = ("P", "S", "N")
#: first line of a cache file; bump the number when the layout changes
MAGIC = "evalfw-unicode-classes 1"
ENV_DIR = "EVALFW_CACHE_DIR"
ENV_OFF = "EVALFW_NO_CACHE"
_LAST = 0x10FFFF
_PRIME = (1 << 61) - 1


class Ranges:
    """Maximal runs of code points, as two strings of equal length: the first and the last
    character of each run, ascending (``bisect`` works on a ``str`` like on a list)."""

    __slots__ = ("starts", "ends")

    def __init__(self, starts: str, ends: str) -> None:
        self.starts, self.ends = starts, ends

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Ranges) and (self.starts, self.ends) == (other.starts,
                                                                          other.ends)

    __hash__ = None  # type: ignore[assignment]

    def run_of(self, char: str) -> int:
        """The index of the run that holds ``char``, or -1."""
        i = bisect_right(self.starts, char) - 1
        return i if i >= 0 and char <= self.ends[i] else -1

    def members(self, chars: Iterable[str]) -> list[str]:
        """The characters of ``chars`` that fall in a run, in the order given."""
        return [char for char in chars if self.run_of(char) >= 0]

    def cover(self, chars: Iterable[str], longest: int = 64) -> list[tuple[str, str]]:
        """Sorted spans (first, last) inside the runs that cover exactly the characters of
        ``chars`` in a run, and more members when that is cheaper to write: a whole run when
        it has at most ``longest`` code points, else the character alone. On a text made of
        ``chars``, a class of these spans matches what the full class matches."""
        starts, ends = self.starts, self.ends
        spans = set()
        for char in chars:
            i = self.run_of(char)
            if i >= 0:
                short = ord(ends[i]) - ord(starts[i]) < longest
                spans.add((starts[i], ends[i]) if short else (char, char))
        return sorted(spans)

    def below(self, last: str) -> list[tuple[str, str]]:
        """The runs as spans (first, last), cut at ``last``."""
        i = bisect_right(self.starts, last)
        return [(a, min(b, last)) for a, b in zip(self.starts[:i], self.ends[:i])]

    def valid(self) -> bool:
        """Whether the runs are well formed for ``run_of``: as many ends as starts, and each
        run's last character at or after its first and before the next run's first (C-level
        loops: this check is part of every process's start)."""
        starts, ends = self.starts, self.ends
        if not starts or len(starts) != len(ends):
            return False
        return all(map(le, starts, ends)) and all(map(lt, ends, starts[1:]))


def from_regex() -> dict[str, Ranges]:
    """The runs of each category, read out of ``regex`` over every code point (about 0.1 s
    with the import)."""
    import regex

    everything = "".join(map(chr, range(_LAST + 1)))
    out = {}
    for category in CATEGORIES:
        spans = [m.span() for m in regex.finditer(rf"\p{{{category}}}+", everything)]
        out[category] = Ranges("".join(chr(a) for a, _ in spans),
                               "".join(chr(b - 1) for _, b in spans))
    return out


def regex_identity() -> str | None:
    """``regex``'s version and the size and modification time of its compiled module, found
    without importing it; None when ``regex`` is not installed as a package directory."""
    import importlib.machinery

    # the path finder first: importlib.util imports contextlib, a few percent of a short
    # drop-in command (-tok intl); util's search (sys.modules, every finder) as a fallback
    spec = importlib.machinery.PathFinder.find_spec("regex")
    if spec is None:
        import importlib.util

        spec = importlib.util.find_spec("regex")
    if spec is None or not spec.submodule_search_locations:
        return None
    package = list(spec.submodule_search_locations)[0]
    try:
        compiled = sorted(name for name in os.listdir(package) if name.startswith("_regex.")
                          and not name.endswith(".py"))
        site = os.path.dirname(package)
        versions = sorted(name[len("regex-"):-len(".dist-info")] for name in os.listdir(site)
                          if name.startswith("regex-") and name.endswith(".dist-info"))
        if not compiled:
            return None
        stat = os.stat(os.path.join(package, compiled[0]))
    except OSError:
        return None
    version = versions[0] if len(versions) == 1 else "unknown"
    return f"regex={version} tables={os.path.join(package, compiled[0])}:{stat.st_size}:" \
           f"{stat.st_mtime_ns}"


def cache_path(identity: str) -> str:
    if os.environ.get(ENV_DIR):
        base = os.environ[ENV_DIR]
    else:
        home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        base = os.path.join(home, "evalfw")
    version = identity.split()[0].partition("=")[2]
    key = checksum(identity)[-8:]
    return os.path.join(base, "unicode-classes", f"regex-{version}-{key}.txt")


def checksum(text: str) -> str:
    """The UTF-8 bytes as one number modulo the prime 2**61 - 1: a change of one byte always
    changes it, others almost surely (and it needs no import: ``zlib`` is a library to load)."""
    data = text.encode("utf-8", "surrogatepass")
    return f"{int.from_bytes(data, 'big') % _PRIME:016x}"


def render(classes: dict[str, Ranges], identity: str) -> str:
    body = "\n".join([MAGIC, identity, *(f"{c}\t{classes[c].starts}\t{classes[c].ends}"
                                         for c in CATEGORIES)])
    return f"{body}\n{checksum(body)}\n"


def parse(text: str, identity: str) -> dict[str, Ranges] | None:
    """The classes a cache file holds, or None when it is not a sound file for ``identity``."""
    body, _, rest = text.rstrip("\n").rpartition("\n")
    lines = body.split("\n")
    if len(lines) != 2 + len(CATEGORIES) or lines[:2] != [MAGIC, identity]:
        return None
    if rest != checksum(body):
        return None
    classes = {}
    for category, line in zip(CATEGORIES, lines[2:]):
        fields = line.split("\t")
        if len(fields) != 3 or fields[0] != category:
            return None
        ranges = Ranges(fields[1], fields[2])
        if not ranges.valid():
            return None
        classes[category] = ranges
    return classes


def _write(path: str, text: str) -> None:
    """Atomically: a reader sees the old file or the whole new one. Failures are ignored (a
    read-only or full disk leaves every process reading ``regex``, which is only slower)."""
    import tempfile

    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-", suffix=".txt")
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
                fh.write(text)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except (OSError, UnicodeError):  # UnicodeError: a path that is not UTF-8 in the identity
        pass


@memo()
def classes() -> dict[str, Ranges]:
    """The runs of P, S and N as the installed ``regex`` matches them: from the cache file when
    it is sound for this ``regex``, else from ``regex`` (and the file is written)."""
    identity = regex_identity()
    if identity is None or os.environ.get(ENV_OFF, "") not in ("", "0"):
        return from_regex()
    path = cache_path(identity)
    try:  # opened without waiting (a FIFO there never answers), used only when regular
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as fh:
            import stat

            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise OSError(f"{path} is not a regular file")
            found = parse(fh.read(1 << 20).decode("utf-8"), identity)
    except (OSError, UnicodeDecodeError):
        found = None
    if found is None:
        found = from_regex()
        _write(path, render(found, identity))
    return found


__all__ = ["cache_path", "CATEGORIES", "classes", "from_regex", "parse", "Ranges",
           "regex_identity", "render"]
