"""supports_table reads both layouts of a Supports table."""

from topk_core.testing.readme import supports_table


def test_both_layouts(tmp_path):
    wide = tmp_path / "wide.md"
    wide.write_text("# x\n\n## Supports\n\n| GPUs | dtypes | k |\n|---|---|---|\n"
                    "| sm_90 | float32 | any |\n\n## Next\n")
    assert supports_table(wide) == {"GPUs": "sm_90", "dtypes": "float32", "k": "any"}
    tall = tmp_path / "tall.md"
    tall.write_text("## Supports\n\n| what | value |\n|:--|--:|\n| GPUs | sm_80+ |\n| k | 1..16 |\n")
    assert supports_table(tall) == {"GPUs": "sm_80+", "k": "1..16"}
