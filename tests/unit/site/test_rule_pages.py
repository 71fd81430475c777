"""Rule pages say what dsref does: a schema kind's stated severity is the one its findings carry."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from dsref.check.findings import Kind
from dsref.check.pipeline import check_text
from dsref.check.report.messages import EXAMPLES
from dsref.check.settings import CheckSettings
from dsref.site.rules import M, pages
from dsref.text.punctuation import colon

FIXED = [kind for kind in Kind if kind.severity is not None]


@pytest.mark.parametrize("kind", [k for k in FIXED if k.name in EXAMPLES], ids=lambda k: k.code)
def test_a_kinds_fixed_severity_is_the_one_its_example_gets(kind: Kind) -> None:
    example = EXAMPLES[kind.name]
    report = check_text(
        textwrap.dedent(example.config),
        "ds_config.json",
        settings=CheckSettings(profile="hf" if example.hf else "deepspeed", world_size=example.world_size),
    )
    found = [f.severity for f in report.findings if f.kind is kind]
    assert found and set(found) == {kind.severity}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_rule_page_states_the_fixed_severity(lang: str) -> None:
    written = pages(lang)  # type: ignore[arg-type]
    for kind in FIXED:
        said = M.text(kind.severity.value, lang)  # type: ignore[union-attr, arg-type]
        assert f"**{colon(lang)}{said}\n" in written[f"{kind.code}.md"], kind  # type: ignore[arg-type]
    assert M.text("severity_varies", lang) in written["DS101.md"]  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_ds003s_page_gives_its_severity_for_each_reader_as_check_reports_it(lang: str) -> None:
    """A key written twice: an error for the launcher, a warning for Hugging Face, and the page says which is which."""
    config = '{\n  "train_micro_batch_size_per_gpu": 1,\n  "gradient_clipping": 1.0,\n  "gradient_clipping": 2.0\n}\n'
    got = {}
    for profile in ("deepspeed", "hf"):
        report = check_text(config, "ds_config.json", settings=CheckSettings(profile=profile))  # type: ignore[arg-type]
        got[profile] = {f.severity for f in report.findings if f.kind is Kind.duplicate_key}
    assert got == {profile: {severity} for profile, severity in Kind.duplicate_key.severity_by_profile.items()}  # type: ignore[union-attr]
    assert got["deepspeed"] != got["hf"]
    line = next(line for line in pages(lang)["DS003.md"].splitlines() if line.startswith("- **"))  # type: ignore[arg-type]
    for profile, (severity,) in got.items():
        said = M.text(severity.value, lang)  # type: ignore[arg-type]
        # each severity stands beside its own reader's --profile
        assert re.search(rf"{said}[^`；;,，、]*`--profile {profile}`|`--profile {profile}`[^`；;,，、]*{said}", line), (
            profile,
            line,
        )
    assert M.text("severity_varies", lang) not in line  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_rule_pages_output_is_what_its_command_prints_in_a_terminal_first_line_included(
    lang: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Run the command each rule page writes out, on its example, and find the page's output: the line saying what
    was checked for first (the release "as asked", whatever DeepSpeed is installed here), then the findings."""
    from dsref.check.report import target
    from dsref.cli.main import main
    from dsref.site.doccheck import RUN_MARKER, blocks, output
    from dsref.tree.profiles import NEWEST

    monkeypatch.chdir(tmp_path)
    # The page names no installed transformers or accelerate (they differ from reader to reader, as DeepSpeed's
    # release does, which the command names): run it where neither is installed.
    monkeypatch.setattr(target, "installed_hugging_face", lambda *args, **kwargs: NEWEST)
    compared = 0
    for name, page in sorted(pages(lang).items()):  # type: ignore[arg-type]
        runs = [b for b in blocks(page) if b.run]
        if not runs:
            continue
        command = re.search(r"`dsref check ds_config\.json([^`]*)`", page)
        assert command, name
        (tmp_path / "ds_config.json").write_text(runs[0].text, encoding="utf-8")
        main(["check", "ds_config.json", *command[1].split(), "--lang", lang])
        printed = capsys.readouterr().out
        shown = output(runs[0], lang)  # type: ignore[arg-type]
        assert printed == shown, (name, printed, shown)
        assert printed.splitlines()[0].startswith(("Checked for DeepSpeed", "检查")), printed
        compared += 1
    assert compared == sum(RUN_MARKER in page for page in pages(lang).values()) > 80  # type: ignore[arg-type]
