"""Where an endpoint really is (issue 27): the host httpx2 connects to, judged loopback, private or public.

The table is proved, not assumed: a child process asks httpx2 2.16 (the OpenAI SDK's HTTP library) to
send a request to each URL, and an audit hook (PEP 578) records the name it looks up and the address
it connects to, then stops it before any packet leaves (so no server is needed and nothing reaches
the network). :func:`helpers.model.address.client_host` must name the same host and address.
"""

from __future__ import annotations

import ipaddress
import json
import os
import subprocess
import sys
import textwrap

import pytest

from helpers import ModelConfigError
from helpers.model.address import client_host, is_private_endpoint
from helpers.model.factory import read_model_config

KEY = "sk-test-0123456789abcdefghij"

#: url -> (what httpx2 does: "connect <address>" or "lookup <name>"; the kind the course judges).
TABLE = {
    # public addresses written as numbers: before issue 27 each one-word or IDNA-dotted form was "private"
    "http://134744072/v1": ("connect 8.8.8.8", "public"),
    "http://0x08080808/v1": ("connect 8.8.8.8", "public"),
    "http://0x8.0x8.0x8.0x8/v1": ("connect 8.8.8.8", "public"),
    "http://8.8.2056/v1": ("connect 8.8.8.8", "public"),
    "http://8.526344/v1": ("connect 8.8.8.8", "public"),
    "http://8\u30028\u30028\u30028/v1": ("connect 8.8.8.8", "public"),      # ideographic full stop
    "http://8\uff0e8\uff0e8\uff0e8/v1": ("connect 8.8.8.8", "public"),      # full-width full stop
    "http://8\uff618\uff618\uff618/v1": ("connect 8.8.8.8", "public"),      # half-width ideographic full stop
    "http://[::ffff:8.8.8.8]/v1": ("connect ::ffff:8.8.8.8", "public"),
    "http://[::ffff:808:808]/v1": ("connect ::ffff:8.8.8.8", "public"),
    "http://8.8.8.8./v1": ("lookup 8.8.8.8.", "public"),                     # a trailing dot makes it a DNS name
    "http://127.0.0.1./v1": ("lookup 127.0.0.1.", "public"),
    "http://API.OpenAI.com/v1": ("lookup api.openai.com", "public"),
    "http://b\u00fccher.example/v1": ("lookup xn--bcher-kva.example", "public"),
    "http://08/v1": ("lookup 08", "public"),                                 # not a number to inet_aton: a name
    # loopback, in the same disguises
    "http://2130706433/v1": ("connect 127.0.0.1", "loopback"),
    "http://0x7f.1/v1": ("connect 127.0.0.1", "loopback"),
    "http://017700000001/v1": ("connect 127.0.0.1", "loopback"),
    "http://127.1/v1": ("connect 127.0.0.1", "loopback"),
    "http://127\u30020\u30020\u30021/v1": ("connect 127.0.0.1", "loopback"),
    "http://[::ffff:127.0.0.1]/v1": ("connect ::ffff:127.0.0.1", "loopback"),
    "http://[::1]/v1": ("connect ::1", "loopback"),
    "http://0/v1": ("connect 0.0.0.0", "loopback"),
    "http://LOCALHOST/v1": ("lookup localhost", "loopback"),
    "http://localhost./v1": ("lookup localhost.", "loopback"),
    # private
    "http://3232235796/v1": ("connect 192.168.1.20", "private"),
    "http://0xc0.0xa8.1.20/v1": ("connect 192.168.1.20", "private"),
    "http://[::ffff:10.0.0.5]/v1": ("connect ::ffff:10.0.0.5", "private"),
    "http://Ollama:11434/v1": ("lookup ollama", "private"),
    "http://vllm.default.svc.cluster.local/v1": ("lookup vllm.default.svc.cluster.local", "private"),
}
#: Hosts httpx2 refuses before any socket: the course refuses them too (ModelConfigError, no traceback).
REFUSED = ["http://010.010.010.010/v1", "http://\uff18.\uff18.\uff18.\uff18/v1", "http://\uff4c\uff4f\uff43\uff41\uff4c"
           "\uff48\uff4f\uff53\uff54/v1", "http://exa\u00admple.com/v1"]

_PROBE = textwrap.dedent('''
    import json, socket, sys
    import httpx2

    seen = []

    class Stop(OSError):
        pass

    def numeric(host):
        try:
            socket.inet_pton(socket.AF_INET6, host.split("%")[0])
            return True
        except OSError:
            pass
        try:
            socket.inet_aton(host)
            return all(c in "0123456789abcdefxABCDEFX." for c in host)
        except OSError:
            return False

    def hook(event, args):
        if event == "socket.getaddrinfo":
            host = args[0].decode() if isinstance(args[0], bytes) else str(args[0])
            if not numeric(host):
                seen.append("lookup " + host)
                raise Stop("stopped before a name lookup")
        elif event == "socket.connect":
            seen.append("connect " + str(args[1][0]))
            raise Stop("stopped before connecting")

    sys.addaudithook(hook)
    results = {}
    with httpx2.Client(trust_env=False) as client:
        for url in json.loads(sys.stdin.read()):
            seen.clear()
            try:
                client.get(url, timeout=2)
                outcome = "answered"
            except httpx2.InvalidURL:
                outcome = "refused"
            except httpx2.HTTPError:
                outcome = seen[0] if seen else "no socket"
            results[url] = outcome
    print(json.dumps(results))
''')


@pytest.fixture(scope="module")
def what_httpx2_does() -> dict[str, str]:
    """url -> ``connect <address>``, ``lookup <name>`` or ``refused``, measured in a child process.

    The child runs without the offline guard (``COURSE_NET_GUARD_LOG`` removed): the guard would
    refuse, and log as a failure, the lookup of ``134744072``, which is what this test wants to see;
    the child's own hook stops every lookup of a name and every connect before it happens.
    """
    env = {k: v for k, v in os.environ.items() if k != "COURSE_NET_GUARD_LOG"}
    done = subprocess.run([sys.executable, "-c", _PROBE], input=json.dumps([*TABLE, *REFUSED]), env=env,
                          capture_output=True, text=True, timeout=60, check=True)
    return json.loads(done.stdout)


@pytest.mark.parametrize("url", list(TABLE))
def test_the_course_judges_the_host_httpx2_really_uses(url, what_httpx2_does):
    measured = what_httpx2_does[url]
    expected, kind = TABLE[url]
    assert measured == expected, f"httpx2 did {measured!r} for {url!r}"
    host = client_host(url)
    action, target = measured.split(" ", 1)
    if action == "connect":
        connected = ipaddress.ip_address(target)
        assert host.address == (getattr(connected, "ipv4_mapped", None) or connected), (host, target)
    else:
        assert (host.name, host.address) == (target, None)
    assert host.kind == kind
    assert is_private_endpoint(url) == (kind != "public")


@pytest.mark.parametrize("url", REFUSED)
def test_a_host_httpx2_refuses_is_refused_by_name_without_a_traceback(url, what_httpx2_does):
    assert what_httpx2_does[url] == "refused"
    with pytest.raises(ModelConfigError) as caught:
        read_model_config({"COURSE_MODEL": "qwen2.5:7b", "OPENAI_BASE_URL": url})
    assert str(caught.value).startswith("OPENAI_BASE_URL has a host name the HTTP client refuses")
    assert not is_private_endpoint(url)


@pytest.mark.parametrize("url", [u for u, (_, kind) in TABLE.items() if kind == "public" and "openai" not in u.lower()])
def test_a_public_address_in_disguise_needs_https_and_its_key(url):
    """Before: ``http://134744072/v1`` (8.8.8.8) was a one-word host, so "private": no key needed, and
    a COURSE_MODEL_API_KEY went there over plain http."""
    for env in ({}, {"COURSE_MODEL_API_KEY": KEY}):
        with pytest.raises(ModelConfigError) as caught:
            read_model_config({"COURSE_MODEL": "qwen2.5:7b", "OPENAI_BASE_URL": url, **env})
        assert str(caught.value).startswith("OPENAI_BASE_URL is an http:// address on a public host")
        assert KEY not in str(caught.value)
    https = "https" + url[len("http"):]
    with pytest.raises(ModelConfigError, match="COURSE_MODEL_API_KEY is missing"):
        read_model_config({"COURSE_MODEL": "qwen2.5:7b", "OPENAI_BASE_URL": https, "OPENAI_API_KEY": KEY})
    config = read_model_config({"COURSE_MODEL": "qwen2.5:7b", "OPENAI_BASE_URL": https, "COURSE_MODEL_API_KEY": KEY})
    assert config.key_variable == "COURSE_MODEL_API_KEY"


@pytest.mark.parametrize("url", [u for u, (_, kind) in TABLE.items() if kind != "public"])
def test_a_loopback_or_private_address_in_any_form_needs_no_key(url):
    config = read_model_config({"COURSE_MODEL": "qwen2.5:7b", "OPENAI_BASE_URL": url, "OPENAI_API_KEY": KEY})
    assert (config.key_variable, config.api_key) == (None, "EMPTY")
