"""What the server says, in the user's language: settings it cannot use, code action titles, and the errors of the
protocol (a message it cannot read, a request it cannot answer, a command given the wrong arguments)."""

from __future__ import annotations

from ..text.i18n import messages

__all__ = ["TEXTS"]

TEXTS = messages(
    "server",
    bad_setting="dsref: the setting dsref.{key} = {value} is not valid ({expected}); using the default",
    expected_language="en, zh or null",
    expected_profile="deepspeed, hf or null",
    expected_world_size="a whole number of GPUs, 1 or more, or null",
    expected_version="a DeepSpeed release from {oldest} to {newest}, or null",
    expected_python="the path of a Python interpreter, or null",
    explain_rule="Explain {code}",
    unsafe_fix="{title} (unsafe)",
    open_reference="Open the reference page of {code}",
    header_line='a header line must be "Name: value" ended by CRLF; skipped to the next Content-Length header',
    header_length=(
        "Content-Length must be a whole number of bytes from 0 to {limit}; skipped to the next Content-Length header"
    ),
    header_missing="the header has no Content-Length; skipped to the next Content-Length header",
    header_twice="the header gives two different Content-Length values; skipped to the next Content-Length header",
    not_utf8="the message is not UTF-8",
    not_json="the message is not valid JSON",
    not_request=(
        'a message must be a JSON object with "jsonrpc": "2.0": a request or notification with a method, or a '
        "response with an id"
    ),
    no_method="a request must name its method in a string",
    bad_id="the id of a request must be a number or a string",
    not_initialized="the server is not initialized: send initialize first",
    initialized_twice="initialize was already received",
    after_shutdown="the server is shutting down: after shutdown it accepts only exit",
    no_such_method="dsref server does not handle {method}",
    bad_params="the params of {method} are not what the protocol defines",
    no_such_command="dsref server has no command {command}",
    bad_arguments="{command} takes {expected}",
    rule_argument='one argument, a rule code such as "DS301"',
    reference_argument="one argument, the URL of a page of dsref's site ({site}…)",
    not_site_url="{command} opens only pages of dsref's site ({site}…), not {url}",
    cancelled="the request was cancelled",
    with_launch="{config} is checked with the launch {launch}, which names it.",
    without_launch="{config} is checked without a launch: no launch file in the workspace names it (open one, or "
    "check it with dsref check LAUNCH).",
    walk_capped="Only the first {limit} files of the workspace were looked at for launch files.",
    internal_error="dsref server failed ({error}) and carries on",
)
