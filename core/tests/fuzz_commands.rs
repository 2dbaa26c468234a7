//! Fuzzed command lines: random text, and random sentences of the command language built from
//! its verbs, keywords and the real names of a board (spaces, powers, units), mutated with
//! huge and negative numbers, control characters, NUL, unbalanced quotes, unicode and 1 MB
//! words. Each line is parsed with `Command::parse` and executed with `Game::execute` on real
//! games (1941 and Anniversary) in every phase kind a few commands reach, a battle waiting for
//! dice among them. Nothing panics; a refused command leaves the game's hash, history and log
//! as they were; an accepted one adds one record to the history; a parsed command's canonical
//! text parses back to the same command.

mod fuzzing;
mod support;
use fuzzing::config;
use proptest::prelude::*;
use std::sync::{Arc, OnceLock};
use support::editions;
use warroom_core::game::command::{self, Command};
use warroom_core::game::Game;
use warroom_core::layers::LoadRequest;
use warroom_core::rules::{self, PhaseKind, RuleSet};

/// The games fuzzed: 1941, Anniversary, and Anniversary with research (a research phase,
/// `research` and `breakthrough` commands).
const EDITIONS: [(&str, &[&str]); 3] = [
    ("1941", &[]),
    ("anniversary", &[]),
    ("anniversary", &["research"]),
];

fn rules_of(edition: usize) -> Arc<RuleSet> {
    static RULES: [OnceLock<Arc<RuleSet>>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    RULES[edition]
        .get_or_init(|| {
            let (name, with) = EDITIONS[edition];
            let mut req = LoadRequest::new(editions(), name);
            req.with = with.iter().map(|w| w.to_string()).collect();
            Arc::new(rules::load(&req).unwrap_or_else(|e| panic!("{:#?}", e.problems)))
        })
        .clone()
}

/// Ways into the game before the fuzzed lines: `end phase` a number of times (the first
/// power's whole turn and into the next power's), or a battle announced and waiting for dice
/// typed at the table.
const PREFIXES: usize = 8;

/// A game of `edition` after prefix `k` (every prefix command must be accepted).
fn game(edition: usize, k: usize) -> Game {
    let (name, with) = EDITIONS[edition];
    let with: Vec<String> = with.iter().map(|w| w.to_string()).collect();
    let mut g = Game::new(rules_of(edition), name, &with, None, 7).expect("the game starts");
    let run = |g: &mut Game, line: &str| {
        if let Err(r) = g.execute(line) {
            panic!("{name}: prefix `{line}` refused: {r}");
        }
    };
    if k < PREFIXES - 1 {
        for _ in 0..k {
            run(&mut g, "end phase");
        }
        return g;
    }
    // The first power of each edition attacks its neighbour.
    while g.current_phase().kind != PhaseKind::CombatMove {
        run(&mut g, "end phase");
    }
    let battle: &[&str] = match name {
        "1941" => &[
            "edit add Karelia \"Soviet Union\" 3 infantry",
            "move 3 infantry from Karelia to \"Eastern Europe\"",
        ],
        _ => &[
            "edit add Poland Germany 3 infantry",
            "move 3 infantry from Poland to \"Baltic States\"",
        ],
    };
    for line in battle.iter().chain(&["end phase", "dice manual", "fight"]) {
        run(&mut g, line);
    }
    g
}

/// Words the parser treats specially, beside the verbs.
const KEYWORDS: &[&str] = &[
    "phase", "from", "to", "via", "in", "at", "on", "war", "first", "all", "none", "default", "seeded",
    "seed", "manual", "table", "auto", "chart", "ignoring", "bombing", "treasury", "control", "add",
    "remove", "relation", "peace", "allied", "nobody", ",", ", ", "sz", "sea zone",
];

/// Numbers at and beyond every limit a count, an id, a seed or a die face has.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "6",
    "7",
    "-1",
    "-5",
    "+3",
    "255",
    "256",
    "65536",
    "2147483648",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "-9223372036854775808",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999999999",
    "1e9",
    "0x10",
    "3.5",
    "NaN",
    "#0",
    "#1",
    "#-1",
    "#999999999999",
    "#4294967295",
    "#",
    "1,2,3",
    "6,6,6,6,6,6,6,6,6,6,6,6,6,6,6,6",
];

/// Odd text: control characters, NUL, quotes, unicode that changes length when lower-cased.
const ODD: &[&str] = &[
    "\0",
    "\u{7}",
    "\t",
    "\r\n",
    "\u{1b}[31m",
    "\"",
    "\"\"",
    "\"unclosed",
    "İstanbul",
    "ǅ",
    "ß",
    "ﬃ",
    "\u{202e}",
    "\u{feff}",
    "\u{0301}",
    "日本",
    "😀",
    "\u{10ffff}",
    "-",
    "_",
    "'",
    "\\",
];

/// Every name of the rule set as a player might type it: quoted when it has spaces, and also
/// bare (then it is several words).
fn names(rules: &RuleSet) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |s: &str| {
        out.push(command::quote(s));
        if s.contains(' ') {
            out.push(s.to_string());
        }
    };
    for s in &rules.board.spaces {
        add(&s.name);
    }
    for p in &rules.powers {
        add(&p.name);
        if let Some(a) = &p.abbrev {
            add(a);
        }
    }
    for u in &rules.units {
        add(&u.id);
        add(&u.name);
        for a in &u.abbrevs {
            add(a);
        }
    }
    for f in &rules.facilities {
        add(&f.id);
        add(&f.name);
    }
    out
}

fn vocabulary(edition: usize) -> &'static [String] {
    static V: [OnceLock<Vec<String>>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    V[edition].get_or_init(|| {
        command::VERBS
            .iter()
            .chain(command::ALIASES)
            .chain(KEYWORDS)
            .map(|s| s.to_string())
            .chain(names(&rules_of(edition)))
            .collect()
    })
}

/// A megabyte of text in a few shapes: one word, many short words (every run of words is a
/// candidate name), a name over and over, commas, quotes.
fn huge(kind: usize) -> String {
    const MB: usize = 1 << 20;
    let unit = match kind % 6 {
        0 => "x",
        1 => "a ",
        2 => "Karelia ",
        3 => "1 inf, ",
        4 => "\"w \"",
        _ => "#1 ",
    };
    unit.repeat(MB / unit.len())
}

#[derive(Clone, Debug)]
enum Word {
    Vocab(usize),
    Number(usize),
    Small(u8),
    Odd(usize),
    Random(String),
    /// A megabyte of text (`huge`).
    Huge(usize),
    Lit(&'static str),
    Space(prop::sample::Index),
    Power(prop::sample::Index),
    Piece(prop::sample::Index),
}

fn word() -> impl Strategy<Value = Word> {
    prop_oneof![
        8 => any::<prop::sample::Index>().prop_map(|i| Word::Vocab(i.index(usize::MAX))),
        3 => (0..NUMBERS.len()).prop_map(Word::Number),
        2 => (0..ODD.len()).prop_map(Word::Odd),
        2 => "\\PC{0,12}".prop_map(Word::Random),
        1 => ".{0,6}".prop_map(Word::Random),
        1 => (0usize..60).prop_map(Word::Huge),
    ]
}

/// How words are joined: mostly by a space, sometimes by nothing, a tab, a comma or a quote.
fn joiner() -> impl Strategy<Value = &'static str> {
    prop_oneof![8 => Just(" "), 1 => Just(""), 1 => Just("\t"), 1 => Just(","), 1 => Just("\"")]
}

fn sentence(edition: usize, words: &[(Word, &str)]) -> String {
    let vocab = vocabulary(edition);
    let rules = rules_of(edition);
    let pieces: Vec<&str> = rules
        .units
        .iter()
        .map(|u| u.id.as_str())
        .chain(rules.facilities.iter().map(|f| f.id.as_str()))
        .collect();
    let mut line = String::new();
    for (i, (w, join)) in words.iter().enumerate() {
        if i > 0 {
            line.push_str(join);
        }
        match w {
            Word::Vocab(k) => line.push_str(&vocab[k % vocab.len()]),
            Word::Number(k) => line.push_str(NUMBERS[*k]),
            Word::Small(n) => line.push_str(&n.to_string()),
            Word::Odd(k) => line.push_str(ODD[*k]),
            Word::Random(s) => line.push_str(s),
            // Rare: most of these draws become ordinary words.
            Word::Huge(k) if *k < 6 => line.push_str(&huge(*k)),
            Word::Huge(k) => line.push_str(NUMBERS[k % NUMBERS.len()]),
            Word::Lit(s) => line.push_str(s),
            Word::Space(i) => line.push_str(&command::quote(
                &rules.board.spaces[i.index(rules.board.spaces.len())].name,
            )),
            Word::Power(i) => line.push_str(&command::quote(&rules.powers[i.index(rules.powers.len())].name)),
            Word::Piece(i) => line.push_str(pieces[i.index(pieces.len())]),
        }
    }
    line
}

/// Commands as players write them: `$S` a space, `$P` a power, `$U` a unit or facility, `$N`
/// a number (mostly small).
const TEMPLATES: &[&str] = &[
    "buy $N $U",
    "buy $U",
    "place $N $U in $S",
    "move $N $U from $S to $S",
    "move all $U from $S to $S via $S",
    "move #$N from $S to $S bombing",
    "edit treasury $P $N",
    "edit add $S $P $N $U",
    "edit remove $S $P $N $U",
    "edit control $S $P",
    "edit control $S none",
    "edit relation $P $P war",
    "edit relation $P $P peace",
    "research $N",
    "breakthrough $N",
    "repair $N in $S",
    "roll $N $N $N",
    "dice seeded $N",
    "dice auto",
    "dice manual",
    "casualties $N $U, $U",
    "submerge $N $U",
    "retreat to $S",
    "fight $S",
    "fight",
    "order $P $U, $U",
    "declare war on $P",
    "play $P first",
    "rocket from $S at $S",
    "end phase",
    "end phase",
    "end phase",
    "undo",
    "press",
    "disagree",
];

fn template(
    k: usize,
    slots: &[prop::sample::Index],
    numbers: &[(bool, u8, usize)],
) -> Vec<(Word, &'static str)> {
    let mut out = Vec::new();
    for (i, t) in TEMPLATES[k].split(' ').enumerate() {
        let slot = slots[i % slots.len()];
        let (edge, small, n) = numbers[i % numbers.len()];
        let w = match t.trim_end_matches(',') {
            "$S" => Word::Space(slot),
            "$P" => Word::Power(slot),
            "$U" => Word::Piece(slot),
            "$N" if edge => Word::Number(n % NUMBERS.len()),
            "$N" => Word::Small(small),
            "#$N" => Word::Lit("#1"),
            _ => Word::Lit(t),
        };
        out.push((w, " "));
        if t.len() > 1 && t.ends_with(',') {
            out.push((Word::Lit(","), ""));
        }
    }
    out
}

/// A line: a command template filled with real names, sometimes with one word replaced by
/// anything; or a verb followed by random words (so the fuzzing reaches every command's
/// argument parsing rather than stopping at "unknown command"); or random words.
fn line() -> impl Strategy<Value = Vec<(Word, &'static str)>> {
    let verb = (0..command::VERBS.len()).prop_map(Word::Vocab);
    let random = (
        prop_oneof![4 => verb.prop_map(Some), 1 => Just(None)],
        prop::collection::vec((word(), joiner()), 0..10),
    )
        .prop_map(|(verb, mut rest)| {
            if let Some(v) = verb {
                rest.insert(0, (v, " "));
            }
            rest
        });
    let filled = (
        0..TEMPLATES.len(),
        prop::collection::vec(any::<prop::sample::Index>(), 4),
        prop::collection::vec((prop::bool::weighted(0.15), 1u8..4, any::<usize>()), 4),
        prop::option::weighted(0.3, (any::<prop::sample::Index>(), word(), joiner())),
    )
        .prop_map(|(k, slots, numbers, change)| {
            let mut words = template(k, &slots, &numbers);
            if let Some((at, w, j)) = change {
                let i = at.index(words.len());
                words[i] = (w, j);
            }
            words
        });
    prop_oneof![3 => filled, 2 => random]
}

/// Parsing never panics; what parses prints a canonical text that parses to the same command
/// and prints the same text again.
fn parses_back(rules: &RuleSet, text: &str) -> Result<(), TestCaseError> {
    if let Ok(cmd) = Command::parse(rules, text) {
        let canonical = cmd.to_text(rules);
        let again = Command::parse(rules, &canonical);
        prop_assert_eq!(
            again.as_ref(),
            Ok(&cmd),
            "`{}` parsed, but its canonical text `{}` does not parse back",
            text.escape_debug(),
            canonical.escape_debug()
        );
        prop_assert_eq!(again.unwrap().to_text(rules), canonical);
    }
    Ok(())
}

/// Execute `text` on `g`: a refusal changes nothing; an acceptance adds one record, whose text
/// is canonical.
fn executes_cleanly(g: &mut Game, text: &str) -> Result<(), TestCaseError> {
    let (hash, history, log) = (g.hash(), g.history().len(), g.log().len());
    match g.execute(text) {
        Err(r) => {
            prop_assert!(
                !r.message.is_empty(),
                "`{}` refused with no message",
                text.escape_debug()
            );
            prop_assert_eq!(
                g.hash(),
                hash,
                "`{}` was refused but changed the game",
                text.escape_debug()
            );
            prop_assert_eq!(g.history().len(), history);
            prop_assert_eq!(g.log().len(), log);
        }
        Ok(_) => {
            prop_assert_eq!(g.history().len(), history + 1, "`{}`", text.escape_debug());
            let recorded = g.history().last().unwrap().text.clone();
            parses_back(g.rules(), &recorded)?;
            let cmd = Command::parse(g.rules(), &recorded).expect("recorded text parses");
            prop_assert_eq!(cmd.to_text(g.rules()), recorded);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config("fuzz_commands", 512))]

    #[test]
    fn any_text_parses_or_is_refused_without_a_panic(text in "\\PC{0,40}|.{0,40}|[ -~]{0,40}") {
        for edition in 0..EDITIONS.len() {
            parses_back(&rules_of(edition), &text)?;
        }
    }

    #[test]
    fn sentences_of_the_language_parse_back_to_themselves(
        edition in 0..EDITIONS.len(),
        words in line(),
    ) {
        let text = sentence(edition, &words);
        parses_back(&rules_of(edition), &text)?;
    }
}

proptest! {
    #![proptest_config(config("fuzz_commands", 96))]

    #[test]
    fn fuzzed_commands_on_a_real_game_are_transactions(
        edition in 0..EDITIONS.len(),
        prefix in 0..PREFIXES,
        lines in prop::collection::vec(line(), 1..6),
    ) {
        let mut g = game(edition, prefix);
        for words in &lines {
            let text = sentence(edition, words);
            executes_cleanly(&mut g, &text)?;
        }
    }
}

/// A megabyte line after each of these heads reaches a different part of the parser: names
/// looked up (spaces, powers, units), runs of words tried as names, lists of units and of
/// spaces, dice faces, an unknown verb.
const MEGABYTE_HEADS: &[&str] = &[
    "fight",
    "buy",
    "casualties",
    "edit control",
    "edit add Karelia Germany 2",
    "order Germany",
    "move 1 inf from Karelia to Archangel via",
    "place 1 inf in",
    "declare war on",
    "dice seeded",
    "roll",
    "frobnicate",
];

#[test]
fn megabyte_lines_are_answered_in_moments() {
    let mut g = game(0, 1);
    for (i, head) in MEGABYTE_HEADS.iter().enumerate() {
        // One word, or words that are each a name, or words that are none.
        for kind in [0, 1 + i % 5] {
            let text = format!("{head} {}", huge(kind));
            let started = std::time::Instant::now();
            executes_cleanly(&mut g, &text).unwrap();
            // Linear work on a megabyte takes well under a second even unoptimized; a name
            // matched against every run of words, or edit distances against the megabyte,
            // took minutes.
            let took = started.elapsed();
            assert!(took.as_secs() < 10, "`{head}` + {kind}: {took:?}");
        }
    }
}

/// `input` parses to the canonical text `expect` on the 1941 board, or is refused with a
/// message starting with `expect` after `error: `.
fn check(input: &str, expect: &str) {
    let rules = rules_of(0);
    let got = match Command::parse(&rules, input) {
        Ok(cmd) => cmd.to_text(&rules),
        Err(e) => format!("error: {e}"),
    };
    match expect.strip_prefix("error: ") {
        Some(message) => assert!(
            got.strip_prefix("error: ")
                .is_some_and(|g| g.starts_with(message)),
            "`{input}`\n  expected error: {message}\n  got: {got}"
        ),
        None => assert_eq!(got, expect, "`{input}`"),
    }
}

/// A count past what any game uses is a slip of the keyboard: refused when typed, rather
/// than making billions of units (which took all memory) or a treasury that overflows when
/// income is added.
#[test]
fn counts_and_treasuries_past_the_limits_are_refused() {
    check("buy 10000 infantry", "buy 10000 infantry");
    check("buy 10001 infantry", "error: `10001` is too many: at most 10000");
    check(
        "buy 18446744073709551616 infantry",
        "error: `18446744073709551616` is too many",
    );
    check(
        "edit add Karelia Germany 4294967295 infantry",
        "error: `4294967295` is too many",
    );
    check(
        "edit remove Karelia Germany 10001 inf",
        "error: `10001` is too many",
    );
    check("place 99999 infantry in Germany", "error: `99999` is too many");
    check(
        "move 10001 infantry from Karelia to Archangel",
        "error: `10001` is too many",
    );
    check(
        "casualties 1 infantry, 4294967296 tank",
        "error: `4294967296` is too many",
    );
    check("research 4294967295", "error: `4294967295` is too many");
    check("repair 10001", "error: `10001` is too many");
    check(
        "edit treasury Germany 1000000000",
        "edit treasury Germany 1000000000",
    );
    check(
        "edit treasury Germany -1000000000",
        "edit treasury Germany -1000000000",
    );
    check(
        "edit treasury Germany 9223372036854775807",
        "error: `9223372036854775807` IPCs: a treasury holds from -1000000000 to 1000000000",
    );
    check(
        "edit treasury Germany -99999999999999999999",
        "error: `-99999999999999999999` IPCs",
    );
    check(
        "edit treasury Germany lots",
        "error: usage: edit treasury POWER IPCS",
    );
}

/// The most a treasury can be set to, with income added round after round, stays a number.
#[test]
fn the_largest_treasury_collects_income() {
    let mut g = game(0, 0);
    let most = warroom_core::game::EDIT_MAX_IPCS;
    executes_cleanly(&mut g, &format!("edit treasury \"Soviet Union\" {most}")).unwrap();
    for _ in 0..6 {
        executes_cleanly(&mut g, "end phase").unwrap();
    }
    let soviet = g.rules().power("Soviet Union").unwrap();
    assert!(g.state().treasuries[soviet.index()] > most);
}
