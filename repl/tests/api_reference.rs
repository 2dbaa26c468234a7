//! docs/api.md and docs/warroom.d.luau are what `warroom api` prints now: the reference is
//! generated from the code's catalogues, and a change to them must regenerate the files.

mod support;
use support::{root, warroom};

fn check(args: &[&str], file: &str, command: &str) {
    let o = warroom(args, "");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let generated = String::from_utf8(o.stdout).expect("UTF-8");
    let committed = std::fs::read_to_string(root().join(file)).unwrap_or_default();
    if generated != committed {
        let line = generated
            .lines()
            .zip(committed.lines())
            .position(|(a, b)| a != b)
            .map_or_else(
                || generated.lines().count().min(committed.lines().count()) + 1,
                |i| i + 1,
            );
        panic!(
            "{file} is not what the code says (first difference at line {line}); regenerate it: \
             `{command}`"
        );
    }
}

#[test]
fn the_markdown_reference_is_up_to_date() {
    check(&["api"], "docs/api.md", warroom_core::reference::MARKDOWN_COMMAND);
}

#[test]
fn the_luau_type_definitions_are_up_to_date() {
    check(
        &["api", "--luau"],
        "docs/warroom.d.luau",
        warroom_core::reference::LUAU_COMMAND,
    );
}
