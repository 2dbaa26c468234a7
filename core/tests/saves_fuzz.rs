//! The save loader on hostile input: random bytes, and real saves mutated (cut short, lines
//! duplicated, removed or swapped, numbers made huge or negative, control characters, bytes
//! that are not UTF-8, commands replaced by odd ones). Nothing may panic; every refusal is a
//! `Corrupt`, `Rules` or `Diverged` error located in the file; and a damaged save never loads
//! as if it were whole without saying so.

use proptest::prelude::*;
use proptest::sample::Index;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use warroom_core::game::save::{self, LoadSaveError};
use warroom_core::game::Game;
use warroom_core::layers::LoadRequest;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn mini_editions() -> PathBuf {
    root().join("tests/fixtures/editions")
}

/// A save of a turn and a half of the engine's two-power test edition: fast to replay, so
/// mutations of it can be many.
fn mini_save() -> String {
    let rules = warroom_core::rules::load(&LoadRequest::new(mini_editions(), "mini")).unwrap();
    let mut g = Game::new(Arc::new(rules), "mini", &[], None, 3).unwrap();
    for c in [
        "buy 2 infantry",
        "edit add Middle Red 1 tank",
        "end phase",
        "move 1 tank from Middle to Blueland",
        "undo",
        "end phase",
        "end phase",
        "end phase",
        "buy 1 heavy_tank",
        "edit control Middle Blue",
        "end phase",
        "edit treasury Blue 30",
    ] {
        g.execute(c).unwrap_or_else(|r| panic!("{c}: {r}"));
    }
    g.save_text()
}

/// Load `bytes` as the file `name`; a refusal must be located in that file and say something.
fn must_not_panic(name: &str, bytes: &[u8], editions: &Path) -> Result<save::Loaded, LoadSaveError> {
    let r = save::open(Path::new(name), bytes, editions);
    if let Err(e) = &r {
        let at = e
            .problem()
            .location()
            .unwrap_or_else(|| panic!("an unlocated refusal: {e}"));
        assert!(at.starts_with(&format!("{name}:")), "{at}: {e}");
        assert!(!e.to_string().is_empty());
        if let LoadSaveError::Diverged(_) = e {
            assert!(e.to_string().contains("past command "), "{e}");
        }
    }
    r
}

const NUMBERS: &[&str] = &[
    "0",
    "-1",
    "-0",
    "+1",
    "4294967295",
    "4294967296",
    "-2147483649",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "340282366920938463463374607431768211457",
    "99999999999999999999999999999999999999999999999999",
    "0x7fffffffffffffff",
    "0xffffffffffffffff",
    "0b1",
    "1e309",
    "nan",
    "-inf",
    "1.5",
];

/// Commands of the real editions, placed wherever a mutation puts them.
const PLAIN: &[&str] = &[
    "undo",
    "end phase",
    "fight",
    "press",
    "retreat",
    "submerge",
    "submerge none",
    "casualties",
    "disagree",
    "dice manual",
    "dice auto",
    "research",
    "play \"United States\" first",
    "declare war on \"Soviet Union\"",
    "declare war on Germany",
    "order Germany infantry, tank",
    "rocket from Germany at \"United Kingdom\"",
    "move bomber from Germany to \"United Kingdom\" bombing",
    "move 2 infantry from Germany to \"SZ 5\"",
    "move fighter from \"West Russia\" to \"SZ 5\"",
    "edit control Germany \"Soviet Union\"",
    "edit control \"SZ 5\" Germany",
    "edit relation Germany \"Soviet Union\" peace",
    "edit remove Germany Germany 99 infantry",
];

/// Lines a player could type, with numbers chosen to overflow what they count.
fn odd_command() -> impl Strategy<Value = String> {
    let n = || prop::sample::select(NUMBERS);
    prop_oneof![
        (
            n(),
            prop::sample::select(&["infantry", "tank", "heavy_tank", "bomber", "factory"][..])
        )
            .prop_map(|(n, u)| format!("buy {n} {u}")),
        n().prop_map(|n| format!("place {n} infantry in Redland")),
        n().prop_map(|n| format!("place {n} infantry in Germany")),
        n().prop_map(|n| format!("edit treasury Red {n}")),
        n().prop_map(|n| format!("edit treasury Germany {n}")),
        n().prop_map(|n| format!("edit add Middle Red {n} tank")),
        n().prop_map(|n| format!("edit add Karelia Germany {n} infantry")),
        n().prop_map(|n| format!("edit remove Redland Red {n} infantry")),
        n().prop_map(|n| format!("move {n} infantry from Redland to Middle")),
        n().prop_map(|n| format!("move {n} infantry from Germany to Poland")),
        (n(), n()).prop_map(|(a, b)| format!("roll {a} {b}")),
        n().prop_map(|n| format!("dice seeded {n}")),
        n().prop_map(|n| format!("casualties {n} infantry")),
        n().prop_map(|n| format!("research {n}")),
        n().prop_map(|n| format!("repair {n}")),
        n().prop_map(|n| format!("players {n}")),
        n().prop_map(|n| format!("seat {n} Red")),
        n().prop_map(|n| format!("casualties #{n}")),
        prop::sample::select(PLAIN).prop_map(str::to_string),
        (n(), n()).prop_map(|(a, b)| format!("roll {a} {b} 6 6 6 6 6")),
        n().prop_map(|n| format!("breakthrough {n}")),
        n().prop_map(|n| format!("move {n} tank from Poland to \"East Poland\"")),
        n().prop_map(|n| format!("place {n} tank in Germany")),
        n().prop_map(|n| format!("casualties {n} infantry, {n} tank")),
        "[ -~]{0,40}",
        "\\PC{0,20}",
        "[\\x00-\\x1f\\x7f]{1,5}",
    ]
}

#[derive(Clone, Debug)]
enum Mutation {
    Truncate(Index),
    DuplicateLine(Index),
    RemoveLine(Index),
    SwapLines(Index, Index),
    /// The k-th run of digits replaced by an odd number.
    Number(Index, &'static str),
    /// A control character inserted at a line's start or end, raw or escaped in a string.
    Control(Index, u8, bool),
    /// A byte overwritten, often making the file invalid UTF-8.
    Byte(Index, u8),
    /// The k-th command's text replaced by another line.
    Command(Index, String),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<Index>().prop_map(Mutation::Truncate),
        any::<Index>().prop_map(Mutation::DuplicateLine),
        any::<Index>().prop_map(Mutation::RemoveLine),
        (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        (any::<Index>(), prop::sample::select(NUMBERS)).prop_map(|(i, n)| Mutation::Number(i, n)),
        (any::<Index>(), prop_oneof![0u8..0x20, Just(0x7f)], any::<bool>())
            .prop_map(|(i, c, e)| Mutation::Control(i, c, e)),
        (any::<Index>(), any::<u8>()).prop_map(|(i, b)| Mutation::Byte(i, b)),
        (any::<Index>(), odd_command()).prop_map(|(i, c)| Mutation::Command(i, c)),
    ]
}

fn lines(bytes: &[u8]) -> Vec<Vec<u8>> {
    bytes.split(|b| *b == b'\n').map(<[u8]>::to_vec).collect()
}

fn apply(bytes: &mut Vec<u8>, m: &Mutation) {
    let mut ls = lines(bytes);
    match m {
        Mutation::Truncate(i) => {
            let at = i.index(bytes.len() + 1);
            bytes.truncate(at);
            return;
        }
        Mutation::DuplicateLine(i) => {
            let k = i.index(ls.len());
            let l = ls[k].clone();
            ls.insert(k, l);
        }
        Mutation::RemoveLine(i) => {
            let k = i.index(ls.len());
            ls.remove(k);
        }
        Mutation::SwapLines(a, b) => {
            let (a, b) = (a.index(ls.len()), b.index(ls.len()));
            ls.swap(a, b);
        }
        Mutation::Number(i, n) => {
            let text = String::from_utf8_lossy(bytes).into_owned();
            let runs: Vec<(usize, usize)> = text
                .char_indices()
                .filter(|(k, c)| c.is_ascii_digit() && !text[..*k].ends_with(|p: char| p.is_ascii_digit()))
                .map(|(k, _)| {
                    let len = text[k..]
                        .find(|c: char| !c.is_ascii_digit())
                        .unwrap_or(text.len() - k);
                    (k, k + len)
                })
                .collect();
            if runs.is_empty() {
                return;
            }
            let (s, e) = runs[i.index(runs.len())];
            *bytes = format!("{}{n}{}", &text[..s], &text[e..]).into_bytes();
            return;
        }
        Mutation::Control(i, c, escaped) => {
            let k = i.index(ls.len());
            let mut ins = if *escaped {
                format!("\\u{:04x}", c).into_bytes()
            } else {
                vec![*c]
            };
            // Inside the closing quote of a string value when there is one, else at the start.
            match ls[k].iter().rposition(|b| *b == b'"') {
                Some(q) => {
                    let tail = ls[k].split_off(q);
                    ls[k].append(&mut ins);
                    ls[k].extend(tail);
                }
                None => {
                    ins.extend(ls[k].iter());
                    ls[k] = ins;
                }
            }
        }
        Mutation::Byte(i, b) => {
            if !bytes.is_empty() {
                let k = i.index(bytes.len());
                bytes[k] = *b;
            }
            return;
        }
        Mutation::Command(i, c) => {
            let texts: Vec<usize> = (0..ls.len()).filter(|k| ls[*k].starts_with(b"text = ")).collect();
            if texts.is_empty() {
                return;
            }
            let k = texts[i.index(texts.len())];
            let quoted = toml::Value::String(c.clone()).to_string();
            ls[k] = format!("text = {quoted}").into_bytes();
        }
    }
    *bytes = ls.join(&b'\n');
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic_and_are_refused_with_a_location(
        bytes in prop_oneof![
            prop::collection::vec(any::<u8>(), 0..512),
            "\\PC{0,300}".prop_map(String::into_bytes),
            // Something that parses as TOML and starts like a save.
            ("[a-z_]{1,8}", "[ -~]{0,30}").prop_map(|(k, v)| {
                format!("format = \"warroom-save\"\nversion = 1\n{k} = \"{v}\"\n").into_bytes()
            }),
        ]
    ) {
        let _ = must_not_panic("random.toml", &bytes, &mini_editions());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_saves_never_panic_and_every_refusal_is_located(
        muts in prop::collection::vec(mutation(), 1..4)
    ) {
        let good = mini_save();
        let mut bytes = good.clone().into_bytes();
        for m in &muts {
            apply(&mut bytes, m);
        }
        if let Ok(loaded) = must_not_panic("mutated.toml", &bytes, &mini_editions()) {
            // Loaded as the saved game, or said why not: a damaged log that replays to another
            // game is never passed off silently as the one that was saved.
            let whole = save::open(Path::new("good.toml"), good.as_bytes(), &mini_editions()).unwrap();
            if loaded.game.hash() != whole.game.hash() && loaded.game.history().len() == whole.game.history().len() {
                prop_assert!(!loaded.warnings.is_empty(), "{}", String::from_utf8_lossy(&bytes));
            }
        }
    }
}

proptest! {
    // Real saves cost a rule set each: fewer cases.
    #![proptest_config(ProptestConfig { cases: 32, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_real_saves_never_panic(
        which in any::<Index>(),
        muts in prop::collection::vec(mutation(), 1..3)
    ) {
        let files = real_saves();
        let mut bytes = std::fs::read(&files[which.index(files.len())]).unwrap();
        for m in &muts {
            apply(&mut bytes, m);
        }
        let _ = must_not_panic("real.toml", &bytes, &root().join("editions"));
    }
}

/// Edits of a log at the grain of whole commands, so the file stays a well-formed save and the
/// damage reaches the replay: the engine then meets commands out of place and odd numbers.
#[derive(Clone, Debug)]
enum LogEdit {
    Duplicate(Index),
    Remove(Index),
    Swap(Index, Index),
    Insert(Index, String),
}

fn log_edit() -> impl Strategy<Value = LogEdit> {
    prop_oneof![
        1 => any::<Index>().prop_map(LogEdit::Duplicate),
        1 => any::<Index>().prop_map(LogEdit::Remove),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| LogEdit::Swap(a, b)),
        3 => (any::<Index>(), odd_command()).prop_map(|(i, c)| LogEdit::Insert(i, c)),
    ]
}

/// The save with its log edited; the final hash is made to match the last command's, as a
/// whole save's does, so the replay runs.
fn edit_log(text: &str, edits: &[LogEdit]) -> String {
    let mut blocks: Vec<String> = text.split("\n[[command]]\n").map(str::to_string).collect();
    let head = blocks.remove(0);
    for e in edits {
        let n = blocks.len();
        match e {
            LogEdit::Duplicate(i) if n > 0 => {
                let k = i.index(n);
                blocks.insert(k, blocks[k].clone());
            }
            LogEdit::Remove(i) if n > 0 => {
                blocks.remove(i.index(n));
            }
            LogEdit::Swap(a, b) if n > 0 => blocks.swap(a.index(n), b.index(n)),
            LogEdit::Insert(i, c) => {
                let quoted = toml::Value::String(c.clone()).to_string();
                blocks.insert(
                    i.index(n + 1),
                    format!("text = {quoted}\nhash = \"0000000000000000\"\n"),
                );
            }
            _ => {}
        }
    }
    let last = blocks
        .last()
        .and_then(|b| b.lines().find_map(|l| l.strip_prefix("hash = ")))
        .map(str::to_string);
    let head = match last {
        Some(h) => {
            head.lines()
                .map(|l| {
                    if l.starts_with("final_hash = ") {
                        format!("final_hash = {h}")
                    } else {
                        l.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join("\n")
                + "\n"
        }
        None => head,
    };
    std::iter::once(head)
        .chain(blocks)
        .collect::<Vec<_>>()
        .join("\n[[command]]\n")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn edited_logs_of_real_saves_replay_or_stop_at_a_located_command(
        which in any::<Index>(),
        edits in prop::collection::vec(log_edit(), 1..4)
    ) {
        let files = real_saves();
        let path = &files[which.index(files.len())];
        let text = edit_log(&std::fs::read_to_string(path).unwrap(), &edits);
        if let Ok(loaded) = must_not_panic("edited.toml", text.as_bytes(), &root().join("editions")) {
            // Every command replayed: the game is the whole log, with what the load gives an
            // older save on top (`given_again`, `landed`).
            let commands = text.matches("\n[[command]]\n").count();
            prop_assert_eq!(
                loaded.game.history().len(),
                commands + loaded.given_again + loaded.landed
            );
        }
    }
}

fn real_saves() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("tests/saves"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml") && !p.ends_with("expected.toml"))
        .collect();
    files.sort();
    files
}

fn refused(name: &str, bytes: &[u8]) -> LoadSaveError {
    match must_not_panic(name, bytes, &mini_editions()) {
        Ok(_) => panic!("{name} loaded"),
        Err(e) => e,
    }
}

#[test]
fn a_save_that_is_not_utf8_is_refused_at_its_first_bad_byte() {
    let mut bytes = mini_save().into_bytes();
    let line4 = bytes
        .split(|b| *b == b'\n')
        .take(3)
        .map(|l| l.len() + 1)
        .sum::<usize>();
    bytes[line4 + 2] = 0xff;
    let e = refused("latin.toml", &bytes);
    assert!(matches!(e, LoadSaveError::Corrupt(_)), "{e}");
    assert!(e.to_string().contains("not UTF-8"), "{e}");
    assert!(e.to_string().contains("0xff"), "{e}");
    assert_eq!(e.problem().location(), Some("latin.toml:4:3"));
}

#[test]
fn one_megabyte_lines_are_refused_quickly_with_a_location() {
    let good = mini_save();
    let mb = "x".repeat(1 << 20);
    let started = std::time::Instant::now();

    // A megabyte command is damage: refused before the rules ever see it.
    let long = good.replacen("text = \"buy 2 infantry\"", &format!("text = \"buy 2 {mb}\""), 1);
    let e = refused("long.toml", long.as_bytes());
    assert!(e.to_string().contains("command 1 is 1048582 bytes long"), "{e}");
    assert!(
        e.problem().location().unwrap().starts_with("long.toml:11:"),
        "{e}"
    );
    assert!(e.to_string().len() < 200, "the message quotes no megabyte");

    // A megabyte of garbage between fields: not TOML, located at its line.
    let garbage = good.replacen("edition =", &format!("{mb}\nedition ="), 1);
    let e = refused("garbage.toml", garbage.as_bytes());
    assert!(e.to_string().starts_with("the save is not valid TOML"), "{e}");
    assert!(
        e.problem().location().unwrap().starts_with("garbage.toml:4:"),
        "{e}"
    );

    // A megabyte scenario name: named, cut short, in the refusal.
    let scenario = good.replacen("scenario = \"start\"", &format!("scenario = \"{mb}\""), 1);
    let e = refused("scenario.toml", scenario.as_bytes());
    assert!(e.to_string().len() < 400, "{}", &e.to_string()[..400]);

    // A megabyte comment is still a save.
    let comment = good.replacen("edition =", &format!("# {mb}\nedition ="), 1);
    assert!(must_not_panic("comment.toml", comment.as_bytes(), &mini_editions()).is_ok());
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
}

#[test]
fn huge_and_negative_numbers_in_a_saves_fields_are_located_errors() {
    let good = mini_save();
    let current = &format!("version = {}", save::VERSION);
    let newer = &format!("version = {}", save::VERSION + 1);
    let newer_says = &format!("save version {} is newer than this warroom", save::VERSION + 1);
    for (field, bad, says) in [
        ("seed = 3", "seed = -1", "`seed` must be an integer"),
        (
            "seed = 3",
            "seed = 18446744073709551616",
            "`seed` must be an integer",
        ),
        ("seed = 3", "seed = 3.5", "`seed` must be an integer"),
        (current, "version = -1", "save version -1 is not supported"),
        (
            current,
            "version = 99999999999999999999999999999999999999999",
            "save version 99999999999999999999999999999999999999999 is not supported",
        ),
        (current, newer, newer_says),
        (current, "version = \"1\"", "`version` must be an integer"),
    ] {
        let text = good.replacen(field, bad, 1);
        let e = refused("numbers.toml", text.as_bytes());
        assert!(e.to_string().contains(says), "{bad}: {e}");
        let line = text.lines().position(|l| l == bad).unwrap() + 1;
        assert!(
            e.problem()
                .location()
                .unwrap()
                .starts_with(&format!("numbers.toml:{line}:")),
            "{bad}: {e}"
        );
    }
    // A seed beyond i64 is still a seed: the save format reads all of u64.
    let rules = warroom_core::rules::load(&LoadRequest::new(mini_editions(), "mini")).unwrap();
    let mut g = Game::new(Arc::new(rules), "mini", &[], None, u64::MAX).unwrap();
    g.execute("buy 1 infantry").unwrap();
    let loaded = save::open(Path::new("max.toml"), g.save_text().as_bytes(), &mini_editions()).unwrap();
    assert_eq!(loaded.game.origin().seed, u64::MAX);
    assert!(loaded.warnings.is_empty());
}

#[test]
fn a_save_cut_short_between_commands_is_refused_at_its_end() {
    let good = mini_save();
    // Cut after a whole command: every remaining hash matches, but the final one does not.
    let cut = &good[..good.rfind("\n[[command]]").unwrap() + 1];
    let e = refused("cut.toml", cut.as_bytes());
    assert!(matches!(e, LoadSaveError::Corrupt(_)), "{e}");
    assert!(e.to_string().contains("cut short"), "{e}");
    let line = cut.lines().position(|l| l.starts_with("final_hash")).unwrap() + 1;
    assert!(
        e.problem()
            .location()
            .unwrap()
            .starts_with(&format!("cut.toml:{line}:")),
        "{e}"
    );
    // Cut inside a command's table: its hash is missing.
    let cut = &good[..good.rfind("hash = ").unwrap()];
    let e = refused("cut.toml", cut.as_bytes());
    assert!(e.to_string().contains("has no `hash`"), "{e}");
}

#[test]
fn a_log_that_edits_absurd_numbers_is_refused_at_that_edit_instead_of_crashing() {
    // A hand-written log (no hashes): the edit, then Red's turn ended through Collect Income,
    // where a treasury near i64::MAX once overflowed; and four billion units once filled memory.
    for (edit, says) in [
        ("edit treasury Red 9223372036854775807", "a treasury holds from"),
        ("edit treasury Red -9223372036854775808", "a treasury holds from"),
        ("edit add Middle Red 4294967295 tank", "is too many"),
    ] {
        let mut text = format!(
            "format = \"warroom-save\"\nversion = 1\nedition = \"mini\"\nscenario = \"start\"\nseed = 1\n\n\
             [[command]]\ntext = \"{edit}\"\n"
        );
        for _ in 0..4 {
            text.push_str("\n[[command]]\ntext = \"end phase\"\n");
        }
        let e = refused("edit.toml", text.as_bytes());
        assert!(matches!(e, LoadSaveError::Diverged(_)), "{e}");
        assert!(e.to_string().contains("past command 1 "), "{e}");
        assert!(e.to_string().contains(says), "{e}");
        assert_eq!(e.problem().location(), Some("edit.toml:8:8"), "{e}");
    }
    // Within the limits, the same log plays: Red collects its income on the edited treasury.
    let text =
        "format = \"warroom-save\"\nversion = 1\nedition = \"mini\"\nscenario = \"start\"\nseed = 1\n\n\
                [[command]]\ntext = \"edit treasury Red 1000000\"\n"
            .to_string()
            + &"\n[[command]]\ntext = \"end phase\"\n".repeat(4);
    let loaded = must_not_panic("edit.toml", text.as_bytes(), &mini_editions()).unwrap();
    assert_eq!(loaded.game.state().treasuries[0], 1_000_007);
}

/// Found by the fuzz above: a version 4 save with two commands swapped loses an air unit's base,
/// and the load answers its landing as that version's engine did (`Loaded::landed`), giving the
/// game two records its log does not have.
#[test]
fn landings_answered_for_an_old_save_are_counted() {
    let path = root().join("tests/saves/anniversary-house-question-hash-scheme-4.toml");
    let text = std::fs::read_to_string(path).unwrap();
    let mut blocks: Vec<&str> = text.split("\n[[command]]\n").collect();
    blocks.swap(6, 39);
    let text = blocks.join("\n[[command]]\n");
    let loaded = must_not_panic("swapped.toml", text.as_bytes(), &root().join("editions")).expect("replays");
    assert_eq!(loaded.version, 4);
    assert_eq!(loaded.landed, 2);
    assert_eq!(
        loaded.game.history().len(),
        41 + loaded.given_again + loaded.landed
    );
}
