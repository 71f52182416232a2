"""What is never shown: keys in model names, in base URLs and in errors.

Shared by the factory (:mod:`helpers.model.factory`, which reads the environment) and the real model
(:mod:`helpers.model.real`, which raises the errors), so neither imports the other for it:

* :func:`looks_like_model_name`: whether a configured model name may be shown (it is not a key);
* :func:`redact_url`: a base URL without user name, password, query, fragment or random path parts;
* :func:`hide_secrets`: an exception raised by a real-model call with every configured key replaced
  by ``(the key in OPENAI_API_KEY, not shown)``: in its message and args, in its attributes (the
  ``body`` and ``message`` the OpenAI SDK attaches, the HTTP request and response with their
  headers and content, a ``JSONDecodeError``'s ``doc``), in its notes, and in every chained
  cause and context. Endpoints and gateways echo a key back (``Incorrect API key provided:
  Bearer sk-...``), and a traceback is saved with the notebook;
* :func:`hide_secrets_in_message` and :class:`StreamSecretFilter`: the same for a *successful*
  reply (an endpoint that echoes the request, a model that repeats a key it was shown): every field
  of the message, and a streamed text in which a key arrives split across chunks.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import quote, urlsplit

__all__ = ["HIDDEN_NAME", "KEY_PREFIX", "MIN_SECRET_LENGTH", "MODEL_NAME", "UUID_PATTERN", "StreamSecretFilter",
           "hide_secrets", "hide_secrets_in_logs", "hide_secrets_in_message", "hide_secrets_in_value",
           "looks_like_model_name", "random_run", "redact_url", "secret_pattern"]

#: A model name: letters, digits and ``. _ : / @ -``, starting with a letter or digit, at most 81 characters.
MODEL_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:/@-]{0,80}$")
#: Prefixes of API keys and tokens (OpenAI/DeepSeek/Moonshot ``sk-``, Groq ``gsk_``, Hugging Face
#: ``hf_``, xAI ``xai-``, GitHub ``ghp_``/``github_pat_``, GitLab ``glpat-``, Baidu ``bce-v3/``,
#: Google ``AIza``) and an ``Authorization`` header pasted whole.
KEY_PREFIX = re.compile(r"^(?:sk|gsk|pk|rk|hf|xai|ghp|gho|ghs|github_pat|glpat|bce-v3)[-_/]|^AIza|^Bearer\b",
                         re.IGNORECASE)
#: A UUID (Volcengine Ark API keys look like this), with or without dashes.
UUID_PATTERN = re.compile(r"[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}", re.IGNORECASE)
#: Shown instead of a model name that does not look like one.
HIDDEN_NAME = "(a name that looks like a key, not shown)"


def random_run(part: str) -> bool:
    """True when one part of a name (between ``. _ : / @ -``) looks random, as keys do.

    Real model names are made of words, versions and dates (``gpt``, ``4o``, ``qwen2``, ``72b``,
    ``20241022``, ``Instruct``); keys are long runs of mixed letters and digits.
    """
    letters = sum(c.isalpha() for c in part)
    digits = sum(c.isdigit() for c in part)
    switches = sum(a.isdigit() != b.isdigit() for a, b in zip(part, part[1:]))
    hexadecimal = all(c in "0123456789abcdefABCDEF" for c in part)
    return (len(part) >= 32                                                 # any long run
            or (len(part) >= 16 and letters and digits)                     # a long run of letters and digits
            or (len(part) >= 12 and hexadecimal and letters and digits)     # a hex run (a UUID's last part)
            or (len(part) >= 8 and switches >= 4))                          # digits and letters shuffled: 3f2a1b4c


def looks_like_model_name(name: Any, secrets: Sequence[str] = ()) -> bool:
    """True when ``name`` can be shown: it looks like a model name, not like a key.

    A model name matches ``^[A-Za-z0-9][A-Za-z0-9._:/@-]{0,80}$`` (``gpt-4o-mini``, ``qwen-plus``,
    ``Qwen/Qwen2.5-7B-Instruct``, ``llama3.1:8b``, ``phi3:3.8b-mini-instruct-q4_K_M``,
    ``ep-20250101123456-abcde``), does not start like a key (``sk-``, ``AIza``, ...), holds no UUID
    (a Volcengine Ark key is one) and no long random run of letters and digits, and contains none
    of ``secrets``. Anything else is never echoed.

    Args:
        name: the value to judge (a non-str is not a model name).
        secrets: the configured keys; a name containing one (8 characters or more) is refused.

    Returns:
        True if the name may be shown.
    """
    if not isinstance(name, str) or not MODEL_NAME.match(name):
        return False
    if KEY_PREFIX.search(name) or UUID_PATTERN.search(name):
        return False
    if any(len(secret) >= 8 and secret in name for secret in secrets):
        return False
    return not any(random_run(part) for part in re.split(r"[._:/@-]", name))


def redact_url(url: str) -> str:
    """``url`` without user name, password, query or fragment, and with random-looking path parts as ``…``.

    Used wherever a base URL could be shown (``repr`` of a real model), e.g.
    ``https://user:pw@proxy.example/v1/3f2a...?api-key=x`` -> ``https://proxy.example/v1/…``.
    Never raises: a URL that cannot be split is returned as ``(a URL, not shown)``.
    """
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port else ""
    except (TypeError, ValueError):
        return "(a URL, not shown)"
    path = "/".join("…" if part and (random_run(part) or UUID_PATTERN.search(part)) else part
                    for part in parts.path.split("/"))
    return f"{parts.scheme}://{host}{port}{path}"


#: A configured value shorter than this is not treated as a secret by :func:`hide_secrets` (a
#: placeholder such as ``none`` would otherwise be cut out of every word that contains it).
MIN_SECRET_LENGTH = 8


def secret_pattern(secrets: Mapping[str, str]) -> tuple[re.Pattern[str], dict[str, str]] | None:
    """A regex matching every configured secret, as written raw, JSON-escaped and URL-encoded.

    Args:
        secrets: ``{value: variable name}``, e.g. ``{"sk-...": "OPENAI_API_KEY"}``; values shorter
            than :data:`MIN_SECRET_LENGTH` or not ``str`` are left out.

    Returns:
        ``(pattern, {written form: replacement})``, or ``None`` when there is nothing to hide.
    """
    forms: dict[str, str] = {}
    for value, variable in secrets.items():
        if not isinstance(value, str) or len(value) < MIN_SECRET_LENGTH:
            continue
        shown = f"(the key in {variable}, not shown)"
        for form in (value, json.dumps(value)[1:-1], json.dumps(value, ensure_ascii=False)[1:-1],
                     quote(value, safe=""), quote(value)):
            forms.setdefault(form, shown)
    if not forms:
        return None
    alternatives = sorted(forms, key=len, reverse=True)  # longest first: a form inside another
    return re.compile("|".join(map(re.escape, alternatives))), forms


class _Hider:
    """Replaces the secrets in one exception graph (see :func:`hide_secrets`)."""

    def __init__(self, pattern: re.Pattern[str], forms: dict[str, str]) -> None:
        self.pattern, self.forms = pattern, forms
        self.seen: set[int] = set()

    def text(self, value: str) -> str:
        return self.pattern.sub(lambda match: self.forms[match.group(0)], value)

    def value(self, value: Any, depth: int = 0) -> Any:
        """``value`` with the secrets replaced: a new object when something changed, else itself."""
        if depth > 20:  # too deep to rebuild: a part that holds a secret becomes its cleaned repr
            try:
                text = value if isinstance(value, str) else repr(value)
            except Exception:  # noqa: BLE001 - a repr that raises cannot be checked: it is not kept
                return "(not shown)"
            return value if self.pattern.search(text) is None else self.text(text)
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, (bytes, bytearray)):
            text = bytes(value).decode("utf-8", "surrogateescape")
            cleaned = self.text(text)
            return value if cleaned == text else type(value)(cleaned.encode("utf-8", "surrogateescape"))
        if isinstance(value, BaseException):
            self.exception(value)
            return value
        if isinstance(value, Mapping) and type(value) in (dict,):
            cleaned = {self.value(k, depth + 1): self.value(v, depth + 1) for k, v in value.items()}
            return value if cleaned == value else cleaned
        if isinstance(value, (list, tuple, set, frozenset)) and type(value) in (list, tuple, set, frozenset):
            cleaned = [self.value(item, depth + 1) for item in value]
            return value if cleaned == list(value) else type(value)(cleaned)
        if _is_http(value, "Response"):
            return self.response(value)
        if _is_http(value, "Request"):
            return self.request(value)
        return value

    def headers(self, headers: Any) -> list[tuple[str, str]]:
        return [(name, self.text(content)) for name, content in headers.multi_items()]

    def request(self, request: Any) -> Any:
        try:
            content = self.value(request.content)
        except Exception:  # noqa: BLE001 - a streamed body that was not read: nothing of it is kept
            content = b""
        return type(request)(request.method, request.url, headers=self.headers(request.headers), content=content)

    def response(self, response: Any) -> Any:
        try:
            content = self.value(response.content)
        except Exception:  # noqa: BLE001 - a body that was not read: nothing of it is kept
            content = b""
        request = getattr(response, "_request", None)
        headers = [(k, v) for k, v in self.headers(response.headers)
                   if k.lower() not in ("content-encoding", "transfer-encoding", "content-length")]
        return type(response)(response.status_code, headers=headers, content=content,
                              request=None if request is None else self.request(request))

    def exception(self, exc: BaseException) -> None:
        if id(exc) in self.seen:
            return
        self.seen.add(id(exc))
        try:
            exc.args = tuple(self.value(arg, 1) for arg in exc.args)
        except Exception:  # noqa: BLE001 - an exception type whose args cannot be set
            pass
        # the C-level fields that OSError and SyntaxError format from, which are not in __dict__
        builtin = {name: getattr(exc, name) for name in ("strerror", "filename", "filename2", "msg", "text")
                   if isinstance(exc, (OSError, SyntaxError)) and isinstance(getattr(exc, name, None), str)}
        for name, attribute in [*builtin.items(), *getattr(exc, "__dict__", {}).items()]:
            cleaned = self.value(attribute, 1)
            if cleaned is not attribute:
                try:
                    setattr(exc, name, cleaned)
                except Exception:  # noqa: BLE001 - a read-only attribute: drop it rather than show it
                    exc.__dict__.pop(name, None)
        for linked in (exc.__cause__, exc.__context__, *getattr(exc, "exceptions", ())):
            if isinstance(linked, BaseException):
                self.exception(linked)


def _is_http(value: Any, kind: str) -> bool:
    """True for an ``httpx`` / ``httpx2`` ``Request`` or ``Response`` (the OpenAI SDK's HTTP objects)."""
    cls = type(value)
    return cls.__name__ == kind and cls.__module__.split(".")[0] in ("httpx", "httpx2") and hasattr(value, "headers")


def hide_secrets(exc: BaseException, secrets: Mapping[str, str]) -> BaseException:
    """Replace every configured secret in ``exc`` and in the exceptions chained to it, in place.

    What is cleaned (each as a string, bytes, dict, list or tuple, recursively): ``args`` (so the
    message), every instance attribute (openai 3.57's ``APIStatusError.message`` / ``.body`` /
    ``.response`` / ``.request``; an ``httpx`` request or response is rebuilt with cleaned headers
    and content, so ``Authorization: Bearer ...`` is gone too), ``__notes__``, ``__cause__``,
    ``__context__`` and an exception group's members. The exception keeps its type (so
    ``except openai.AuthenticationError`` still works) and its traceback.

    Args:
        exc: the exception.
        secrets: ``{value: variable name}``; each value, raw, JSON-escaped or URL-encoded, becomes
            ``(the key in VARIABLE, not shown)``. Values shorter than :data:`MIN_SECRET_LENGTH` are
            not secrets.

    Returns:
        ``exc`` itself.
    """
    compiled = secret_pattern(secrets)
    if compiled is not None:
        _Hider(*compiled).exception(exc)
    return exc


def hide_secrets_in_value(value: Any, secrets: Mapping[str, str]) -> Any:
    """``value`` (text, bytes, a dict, list or tuple of them, nested) with every secret replaced as
    :func:`hide_secrets` does; the same object when nothing needed replacing."""
    compiled = secret_pattern(secrets)
    return value if compiled is None else _Hider(*compiled).value(value)


def hide_secrets_in_message(message: Any, secrets: Mapping[str, str]) -> Any:
    """A copy of a LangChain message (any pydantic model) whose fields hold no secret.

    Every field is cleaned like :func:`hide_secrets_in_value`: ``content`` (text or blocks),
    ``tool_calls`` and their ``args``, ``additional_kwargs``, ``response_metadata``, ... Returns
    ``message`` itself when no field held one. A reply that echoes the request's headers, or a model
    that repeats a key it read, would otherwise put the key into the cell's output.
    """
    compiled = secret_pattern(secrets)
    if compiled is None:
        return message
    hider = _Hider(*compiled)
    update = {}
    for name in type(message).model_fields:
        value = getattr(message, name, None)
        cleaned = hider.value(value)
        if cleaned is not value and cleaned != value:
            update[name] = cleaned
    return message.model_copy(update=update) if update else message


class StreamSecretFilter:
    """The text of a stream with every secret replaced, also one that arrives split across chunks.

    :meth:`feed` takes the next piece and returns what can be shown now: the text so far with the
    secrets replaced, minus a tail that could be the start of a secret (held back until the next
    piece shows it is not, or :meth:`flush`). With no secrets every piece passes unchanged.

    Args:
        secrets: ``{value: variable name}``, as for :func:`hide_secrets`.
    """

    def __init__(self, secrets: Mapping[str, str]) -> None:
        compiled = secret_pattern(secrets)
        self._hider = None if compiled is None else _Hider(*compiled)
        self._forms = () if compiled is None else tuple(compiled[1])
        self._pending = ""

    def _held(self, text: str) -> int:
        """How many characters at the end of ``text`` could begin a secret."""
        longest = min(len(text), max((len(form) for form in self._forms), default=1) - 1)
        for size in range(longest, 0, -1):
            tail = text[-size:]
            if any(form.startswith(tail) for form in self._forms):
                return size
        return 0

    def feed(self, piece: str) -> str:
        """The next piece in, the text that can be shown now out (possibly ``""``)."""
        if self._hider is None:
            return piece
        text = self._hider.text(self._pending + piece)
        held = self._held(text)
        self._pending = text[len(text) - held:] if held else ""
        return text[:len(text) - held]

    def flush(self) -> str:
        """The text still held back (at the end of the stream: it was no secret)."""
        rest, self._pending = self._pending, ""
        return rest


#: The loggers that may write a key echoed by an endpoint: the HTTP core library logs every
#: response's headers at DEBUG (``receive_response_headers.complete return_value=...``); the
#: OpenAI SDK and the HTTP client log requests and responses. Filters on a logger do not reach its
#: children, so each logger is named.
SECRET_LOGGERS = ("httpcore2.connection", "httpcore2.http11", "httpcore2.http2", "httpcore2.proxy",
                  "httpcore2.socks", "httpx2", "openai", "openai._base_client", "langchain_openai")


class _SecretsLogFilter(logging.Filter):
    """Replaces the secrets in each record's message (and its exception) before any handler sees it."""

    def __init__(self) -> None:
        super().__init__()
        self.secrets: dict[str, str] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        compiled = secret_pattern(self.secrets)
        if compiled is None:
            return True
        hider = _Hider(*compiled)
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 - a record that cannot be formatted is left to logging's own report
            return True
        record.msg, record.args = hider.text(message), None
        if record.exc_info and isinstance(record.exc_info[1], BaseException):
            hider.exception(record.exc_info[1])
        if record.exc_text:
            record.exc_text = hider.text(record.exc_text)
        return True


_LOG_FILTER = _SecretsLogFilter()


def hide_secrets_in_logs(secrets: Mapping[str, str]) -> None:
    """Hide these secrets (``{value: variable name}``, as for :func:`hide_secrets`) in the log records
    of :data:`SECRET_LOGGERS`, from now on, whatever level and handlers the learner configures
    (``logging.basicConfig(level=logging.DEBUG)`` prints httpcore2's response headers, which may
    echo the key). One filter per logger, installed once; each call adds secrets to it."""
    _LOG_FILTER.secrets.update({value: variable for value, variable in secrets.items() if isinstance(value, str)})
    for name in SECRET_LOGGERS:
        logger = logging.getLogger(name)
        if _LOG_FILTER not in logger.filters:
            logger.addFilter(_LOG_FILTER)
