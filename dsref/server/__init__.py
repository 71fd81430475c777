"""``dsref server``: every check, explanation and fix inside the editor, over the Language Server Protocol.

Built on pygls and lsprotocol (:mod:`.app`); diagnostics are ``dsref check``'s findings (:mod:`.analysis`), hover is
``dsref explain`` as Markdown, completion comes from the option index (:mod:`.completion`, over
:mod:`dsref.editor.completion`, which reads a half-typed file), code actions are ``check --fix``'s fixes. What the
client sends is read by :mod:`.transport` and answered as JSON-RPC and LSP prescribe by :mod:`.rpc`;
:mod:`.schedule` says when a document is checked (at once after a lone edit, once after a burst). It sits on top
with the CLI and the site: it may import every face and everything below them; only the CLI imports it.
"""
