"""Config loading: defaults < file < flags, and clear refusals (companion/config.py)."""

import pytest

from companion.config import ConfigError, defaults, load


def test_config_defaults_load_without_a_system_file(tmp_path):
    config = load(system_path=tmp_path / "absent.toml", boot_path=tmp_path / "none.toml")
    assert config == defaults()
    assert config["buttons"]["next"] == 17


def test_config_file_overrides_keys(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("[buzzer]\nkind = 'active'\n[display]\ni2c_address = 0x3D\n")
    config = load(path)
    assert config["buzzer"]["kind"] == "active"
    assert config["display"]["i2c_address"] == 0x3D
    assert config["buttons"]["next"] == 17


@pytest.mark.parametrize(("text", "fragments"), [
    ("[buzer]\nkind = 'active'\n", ["unknown section [buzer]"]),
    ("[buzzer]\nkynd = 'active'\n", ["unknown key buzzer.kynd", "kind"]),
    ("[buzzer]\nkind = 'loud'\n", ["buzzer.kind = 'loud' is not allowed", "'passive'"]),
    ("[buttons]\nnext = 'seventeen'\n", ["buttons.next", "a whole number"]),
    ("[buttons]\npull_up = 1\n", ["buttons.pull_up", "true or false"]),
    ("[buttons]\nnext = -4\n", ["must not be negative"]),
    ("[buttons\nnext = 4\n", ["not valid TOML"]),
    ("buttons = 3\n", ["must be a [buttons] table"]),
])
def test_config_bad_files_name_the_file_key_and_what_is_allowed(tmp_path, text, fragments):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as refusal:
        load(path)
    message = str(refusal.value)
    assert str(path) in message
    for fragment in fragments:
        assert fragment in message


def test_config_named_file_must_exist(tmp_path):
    with pytest.raises(ConfigError, match="cannot read"):
        load(tmp_path / "missing.toml")


@pytest.mark.parametrize(("text", "fragment"), [
    ("[buttons]\nnext = " + "[" * 1000 + "\n", "nested deeper than 32"),
    ("[buttons]\nnext = " + "1" * 5000 + "\n", "more than 30 digits"),
    ("[buttons]\nnext = 0x" + "f" * 5000 + "\n", "more than 30 digits"),
    ("[timing]\nlong_press = inf\n", "finite"),
    ("a" + ".a" * 200 + " = 1\n", "nested deeper than 32"),
])
def test_config_bounds_depth_and_number_size(tmp_path, text, fragment):
    # Issue #13: RecursionError or a bare ValueError ended start-up with a traceback.
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as refusal:
        load(path)
    assert str(path) in str(refusal.value)
    assert fragment in str(refusal.value)


def test_config_refuses_a_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes(b"# caf\xe9\n")
    with pytest.raises(ConfigError, match="not UTF-8"):
        load(path)


@pytest.mark.parametrize("text", [
    '["a\\nb"]\nx = 1\n',             # a section name with a newline in it
    '[buttons]\n"x\\ny" = 1\n',        # a key with a newline in it
    '[buttons]\n"\\u0007" = 1\n',      # a control character
])
def test_config_refusal_of_an_odd_name_stays_on_one_line(tmp_path, text):
    """Found by the config fuzz: a name with a newline made a two-line refusal."""
    path = tmp_path / "companion.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as refusal:
        load(path)
    assert "\n" not in str(refusal.value) and str(path) in str(refusal.value)


# -- the boot partition's companion.toml (the SD card's FAT partition) -------------------------


def test_config_boot_partition_file_overrides_the_system_file_key_by_key(tmp_path):
    system = tmp_path / "etc.toml"
    system.write_text("[shutdown]\nhandler = 'companion'\n[display]\ndriver = 'ssd1309'\n")
    boot = tmp_path / "boot.toml"
    boot.write_text("[display]\ndriver = 'sh1106'\n[buttons]\nnext = 5\n")
    config = load(system_path=system, boot_path=boot)
    assert config["display"]["driver"] == "sh1106"    # the boot file wins
    assert config["shutdown"]["handler"] == "companion"  # the system file's key stays
    assert config["buttons"]["next"] == 5
    assert config["buttons"]["up"] == 27               # the packaged default


@pytest.mark.parametrize(("system_text", "boot_text", "driver"), [
    (None, "[display]\ndriver = 'sh1106'\n", "sh1106"),
    ("[display]\ndriver = 'ssd1309'\n", None, "ssd1309"),
    (None, None, "ssd1306"),
])
def test_config_each_file_is_read_only_when_it_exists(tmp_path, system_text, boot_text, driver):
    system, boot = tmp_path / "etc.toml", tmp_path / "boot.toml"
    for path, text in ((system, system_text), (boot, boot_text)):
        if text is not None:
            path.write_text(text)
    assert load(system_path=system, boot_path=boot)["display"]["driver"] == driver


def test_config_a_bad_boot_partition_file_is_refused_by_its_own_name(tmp_path):
    boot = tmp_path / "boot.toml"
    boot.write_text("[display]\ndriver = 'ssd1309'\ninterface = 'parallel'\n")
    with pytest.raises(ConfigError) as refusal:
        load(system_path=tmp_path / "absent.toml", boot_path=boot)
    assert str(boot) in str(refusal.value)
    assert "display.interface = 'parallel' is not allowed" in str(refusal.value)


def test_config_named_file_is_the_only_file_read(tmp_path):
    named = tmp_path / "named.toml"
    named.write_text("[buttons]\nnext = 6\n")
    boot = tmp_path / "boot.toml"
    boot.write_text("[display]\ndriver = 'sh1106'\n")
    config = load(named, system_path=tmp_path / "absent.toml", boot_path=boot)
    assert config["buttons"]["next"] == 6
    assert config["display"]["driver"] == "ssd1306"
