//! Tab completion and hints for `warroom play` at a terminal: command verbs, the names of the
//! game's units, spaces and powers, and the few keywords of the command language.
//!
//! The completion logic is one pure function, [`candidates`]; the rustyline [`TermHelper`] wraps
//! it. Names are resolved once per rule set ([`Names::new`]), so a keystroke costs a scan of a
//! few hundred short lowercase strings.

use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::validate::Validator;
use rustyline::Context;
use std::borrow::Cow;
use warroom_core::rules::RuleSet;

/// Keywords that end a name in the command language: a name typed after one starts afresh.
const SEPARATORS: &[&str] = &["from", "to", "via", "in", "bombing", "ignoring"];
const EDIT_WHAT: &[&str] = &[
    "treasury", "control", "add", "remove", "relation", "mark", "damage",
];

/// A name the completer can offer: the text inserted and the lowercase forms it is found by.
struct Entry {
    insert: String,
    /// (lowercase, lowercase without spaces, underscores and quotes)
    keys: Vec<(String, String)>,
}

impl Entry {
    fn new<'a>(insert: &str, keys: impl IntoIterator<Item = &'a str>) -> Entry {
        let mut k: Vec<(String, String)> = Vec::new();
        for key in keys {
            let lower = key.to_lowercase();
            if !k.iter().any(|(l, _)| *l == lower) {
                let sq = squash(&lower);
                k.push((lower, sq));
            }
        }
        Entry {
            insert: insert.to_string(),
            keys: k,
        }
    }

    fn matches(&self, typed: &Typed) -> bool {
        self.keys.iter().any(|(lower, sq)| {
            lower.starts_with(&typed.lower) || (!typed.squashed.is_empty() && sq.starts_with(&typed.squashed))
        })
    }
}

/// The text being completed, prepared once for every entry.
struct Typed {
    lower: String,
    squashed: String,
}

impl Typed {
    fn new(s: &str) -> Typed {
        let lower = s.to_lowercase();
        // `sz5` finds `SZ 5`, but a word finished with a space is not the start of a longer one.
        let squashed = if lower.ends_with(char::is_whitespace) {
            String::new()
        } else {
            squash(&lower)
        };
        Typed { squashed, lower }
    }
}

fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace() && *c != '_' && *c != '"')
        .collect()
}

/// Sorting names for the list: ignoring case and quotes, numbers by value (`SZ 2` before
/// `SZ 10`).
fn sort_key(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    let mut digits = String::new();
    for c in s.trim_start_matches('"').chars().chain(std::iter::once('\0')) {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        if !digits.is_empty() {
            out.push_str(&format!("{digits:0>8}"));
            digits.clear();
        }
        out.extend(c.to_lowercase());
    }
    out
}

/// Quote a name that has spaces, as the command language wants it.
fn quoted(s: &str) -> String {
    if s.contains(char::is_whitespace) {
        format!("\"{s}\"")
    } else {
        s.to_string()
    }
}

/// Everything the completer offers, taken from a rule set and the shell's command table.
pub struct Names {
    /// (verb, its example) from the `help` table.
    verbs: Vec<(String, String)>,
    powers: Vec<Entry>,
    /// Unit and facility types: inserted as their id.
    pieces: Vec<Entry>,
    spaces: Vec<Entry>,
    /// The layers' commands (`[commands]`) and what each argument is.
    layer: Vec<(String, Vec<warroom_core::rules::ArgKind>)>,
    /// The answers of the question a rule script asked (`choose`), while it waits: the shell
    /// sets them after each command.
    pub answers: Vec<String>,
}

impl Names {
    /// `help`: the shell's command table (verb, example, description).
    pub fn new(rules: &RuleSet, help: &[(&str, &str, &str)]) -> Names {
        let mut verbs: Vec<(String, String)> = help
            .iter()
            .map(|(v, ex, _)| (v.to_string(), ex.to_string()))
            .collect();
        verbs.extend(rules.commands.iter().map(|c| (c.name.clone(), c.example.clone())));
        let layer = rules
            .commands
            .iter()
            .map(|c| (c.name.clone(), c.args.iter().map(|a| a.kind).collect()))
            .collect();
        let powers = rules
            .powers
            .iter()
            .map(|p| {
                Entry::new(
                    &quoted(&p.name),
                    std::iter::once(p.name.as_str()).chain(p.abbrev.as_deref()),
                )
            })
            .collect();
        let mut pieces: Vec<Entry> = rules
            .units
            .iter()
            .map(|u| {
                let spaced = u.id.replace('_', " ");
                Entry::new(
                    &quoted(&u.id),
                    [u.id.as_str(), u.name.as_str(), spaced.as_str()]
                        .into_iter()
                        .chain(u.abbrevs.iter().map(String::as_str)),
                )
            })
            .collect();
        pieces.extend(rules.facilities.iter().map(|f| {
            let spaced = f.id.replace('_', " ");
            Entry::new(
                &quoted(&f.id),
                [f.id.as_str(), f.name.as_str(), spaced.as_str()]
                    .into_iter()
                    .chain(f.abbrevs.iter().map(String::as_str)),
            )
        }));
        let spaces = rules
            .board
            .spaces
            .iter()
            .map(|s| Entry::new(&quoted(&s.name), [s.name.as_str()]))
            .collect();
        Names {
            verbs,
            powers,
            pieces,
            spaces,
            layer,
            answers: Vec::new(),
        }
    }

    /// The example of a verb in the `help` table.
    fn example(&self, verb: &str) -> Option<&str> {
        self.verbs
            .iter()
            .find(|(v, _)| v.eq_ignore_ascii_case(verb))
            .map(|(_, ex)| ex.as_str())
    }
}

/// What may follow a verb.
#[derive(Default)]
struct Offer {
    verbs: bool,
    powers: bool,
    pieces: bool,
    spaces: bool,
    keywords: &'static [&'static str],
}

fn offer(verb: &str, words_after_verb: usize) -> Offer {
    let c = Offer::default();
    match verb {
        "help" | "?" => Offer { verbs: true, ..c },
        "end" | "done" => Offer {
            keywords: &["phase"],
            ..c
        },
        "dice" => Offer {
            keywords: &["manual", "seeded", "auto"],
            ..c
        },
        "edit" if words_after_verb == 0 => Offer {
            keywords: EDIT_WHAT,
            ..c
        },
        "edit" => Offer {
            powers: true,
            pieces: true,
            spaces: true,
            keywords: &["none", "war", "peace", "allied"],
            ..c
        },
        "units" | "map" => Offer { powers: true, ..c },
        "seat" => Offer { powers: true, ..c },
        "play" => Offer {
            powers: true,
            keywords: &["first"],
            ..c
        },
        "declare" if words_after_verb == 0 => Offer {
            keywords: &["war"],
            ..c
        },
        "declare" if words_after_verb == 1 => Offer {
            powers: true,
            keywords: &["on"],
            ..c
        },
        "declare" => Offer { powers: true, ..c },
        "order" => Offer {
            powers: true,
            pieces: true,
            keywords: &["default"],
            ..c
        },
        "buy" | "why" => Offer { pieces: true, ..c },
        "casualties" => Offer {
            pieces: true,
            keywords: &["all"],
            ..c
        },
        "submerge" => Offer {
            pieces: true,
            keywords: &["none", "all"],
            ..c
        },
        "place" => Offer {
            pieces: true,
            spaces: true,
            keywords: &["in"],
            ..c
        },
        "show" | "fight" => Offer { spaces: true, ..c },
        "retreat" => Offer {
            spaces: true,
            keywords: &["to"],
            ..c
        },
        "move" => Offer {
            pieces: true,
            spaces: true,
            keywords: &[
                "from",
                "to",
                "via",
                "bombing",
                "ignoring",
                "as",
                "paratroopers",
                "all",
            ],
            ..c
        },
        "ask" => Offer {
            keywords: &["passage", "through"],
            ..c
        },
        "intercept" => Offer {
            pieces: true,
            spaces: true,
            keywords: &["in"],
            ..c
        },
        "scramble" => Offer {
            pieces: true,
            spaces: true,
            keywords: &["from", "to"],
            ..c
        },
        "status" | "relations" | "press" | "disagree" | "roll" | "undo" | "log" | "layers" | "quit"
        | "exit" | "save" | "record" | "load" | "research" | "breakthrough" | "players" | "hint" => c,
        "repair" => Offer {
            spaces: true,
            keywords: &["in"],
            ..c
        },
        "rocket" => Offer {
            spaces: true,
            keywords: &["from", "at"],
            ..c
        },
        _ => Offer {
            powers: true,
            pieces: true,
            spaces: true,
            keywords: &[
                "from", "to", "via", "in", "bombing", "ignoring", "phase", "manual", "seeded", "auto",
            ],
            ..c
        },
    }
}

/// A word of the line: byte range, and whether it holds a quote.
struct Tok {
    start: usize,
    end: usize,
    quoted: bool,
}

/// Split the text before the cursor into words (a comma is a word of its own); also where a
/// quote is still open.
fn tokens(head: &str) -> (Vec<Tok>, Option<usize>) {
    let mut out: Vec<Tok> = Vec::new();
    let mut cur: Option<Tok> = None;
    let mut open: Option<usize> = None;
    for (i, c) in head.char_indices() {
        let end = i + c.len_utf8();
        if c == '"' {
            open = if open.is_some() { None } else { Some(i) };
        }
        let separate = open.is_none() && (c.is_whitespace() || c == ',');
        if separate {
            if let Some(t) = cur.take() {
                out.push(t);
            }
            if c == ',' {
                out.push(Tok {
                    start: i,
                    end,
                    quoted: false,
                });
            }
            continue;
        }
        match &mut cur {
            Some(t) => {
                t.end = end;
                t.quoted |= c == '"';
            }
            None => {
                cur = Some(Tok {
                    start: i,
                    end,
                    quoted: c == '"',
                })
            }
        }
    }
    if let Some(t) = cur {
        out.push(t);
    }
    (out, open)
}

/// The completions for the line at the cursor: where the replaced text starts and what may
/// replace it (sorted, names with spaces quoted unless a quote is open).
pub fn candidates(line: &str, pos: usize, names: &Names) -> (usize, Vec<String>) {
    let pos = pos.min(line.len());
    let head = &line[..pos];
    let (toks, open) = tokens(head);
    // The word under the cursor (possibly empty) and the complete words before it.
    let partial_start = match (open, toks.last()) {
        (Some(q), _) => q,
        (None, Some(t)) if t.end == pos && &head[t.start..t.end] != "," => t.start,
        _ => pos,
    };
    let done: Vec<&Tok> = toks.iter().filter(|t| t.end <= partial_start).collect();
    let Some(first) = done.first() else {
        // The first word: a verb.
        let typed = Typed::new(&head[partial_start..]);
        let mut out: Vec<String> = names
            .verbs
            .iter()
            .map(|(v, _)| {
                if v == "end" {
                    "end phase".to_string()
                } else {
                    v.clone()
                }
            })
            .filter(|v| v.starts_with(&typed.lower))
            .collect();
        out.dedup();
        return (partial_start, out);
    };
    let verb = head[first.start..first.end].to_lowercase();
    if verb == "answer" {
        let typed = head[partial_start..].trim_start_matches('"').to_lowercase();
        let out = names
            .answers
            .iter()
            .filter(|a| a.to_lowercase().starts_with(&typed))
            .map(|a| {
                if a.contains(' ') {
                    format!("\"{a}\"")
                } else {
                    a.clone()
                }
            })
            .collect();
        return (partial_start, out);
    }
    // A layer's command offers what its next argument names.
    let ctx = match names.layer.iter().find(|(n, _)| *n == verb) {
        Some((_, kinds)) => {
            use warroom_core::rules::ArgKind;
            let kind = kinds.get(done.len() - 1).or(kinds.last());
            Offer {
                powers: kind == Some(&ArgKind::Power),
                spaces: kind == Some(&ArgKind::Space),
                pieces: kind == Some(&ArgKind::Unit),
                ..Offer::default()
            }
        }
        None => offer(&verb, done.len() - 1),
    };
    let gather = |typed: &Typed, quote_open: bool| -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        if ctx.verbs {
            out.extend(
                names
                    .verbs
                    .iter()
                    .filter(|(v, _)| v.starts_with(&typed.lower))
                    .map(|(v, _)| v.clone()),
            );
        }
        out.extend(
            ctx.keywords
                .iter()
                .filter(|k| k.starts_with(&typed.lower))
                .map(|k| k.to_string()),
        );
        let lists = [
            (ctx.powers, &names.powers),
            (ctx.pieces, &names.pieces),
            (ctx.spaces, &names.spaces),
        ];
        for (on, list) in lists {
            if on {
                out.extend(list.iter().filter(|e| e.matches(typed)).map(|e| {
                    if quote_open {
                        format!("{}\"", e.insert.trim_matches('"'))
                    } else {
                        e.insert.clone()
                    }
                }));
            }
        }
        out.sort_by_cached_key(|s| sort_key(s));
        out.dedup();
        out
    };
    if let Some(q) = open {
        let start = q + 1;
        return (start, gather(&Typed::new(&head[start..]), true));
    }
    // A name may be several words: try the longest run of words since the last separator
    // first, then shorter ones, and the word under the cursor last.
    let edit_what = usize::from(verb == "edit");
    let boundary = done
        .iter()
        .rposition(|t| {
            let w = &head[t.start..t.end];
            t.quoted || w == "," || SEPARATORS.iter().any(|s| s.eq_ignore_ascii_case(w))
        })
        .unwrap_or(0)
        .max(edit_what.min(done.len() - 1));
    let starts = done[boundary + 1..]
        .iter()
        .map(|t| t.start)
        .chain(std::iter::once(partial_start));
    for start in starts {
        let text = &head[start..];
        let found = gather(&Typed::new(text), false);
        if !found.is_empty() {
            return (start, found);
        }
    }
    (pos, Vec::new())
}

/// What a hint shows greyed after the cursor, and what the right arrow inserts.
pub struct Hint {
    display: String,
    completion: Option<String>,
}

impl rustyline::hint::Hint for Hint {
    fn display(&self) -> &str {
        &self.display
    }
    fn completion(&self) -> Option<&str> {
        self.completion.as_deref()
    }
}

/// The hint for a line: a verb's example, or the rest of the only candidate.
pub fn hint(line: &str, pos: usize, names: &Names) -> Option<Hint> {
    if pos < line.len() || line.trim().is_empty() {
        return None;
    }
    let trimmed = line.trim_start();
    let verb = trimmed.strip_suffix(' ').unwrap_or(trimmed);
    if !verb.contains(char::is_whitespace) {
        if let Some(ex) = names.example(verb) {
            // `buy` → ` 3 infantry`, `buy ` → `3 infantry`; shown only, not inserted.
            let rest = &ex[verb.len().min(ex.len())..];
            let rest = if trimmed.ends_with(' ') {
                rest.trim_start()
            } else {
                rest
            };
            return (!rest.is_empty()).then(|| Hint {
                display: rest.to_string(),
                completion: None,
            });
        }
    }
    let (start, cands) = candidates(line, pos, names);
    let [only] = cands.as_slice() else {
        return None;
    };
    let typed = &line[start..pos];
    if typed.is_empty() {
        return None;
    }
    // The candidate continues what was typed (ignoring case and an opening quote): hint the
    // rest; otherwise (an abbreviation, `sz5`) name what Tab would put there.
    let body = if typed.starts_with('"') {
        only.as_str()
    } else {
        only.strip_prefix('"').unwrap_or(only)
    };
    match body.get(..typed.len()) {
        Some(p) if p.to_lowercase() == typed.to_lowercase() => {
            let rest = body[typed.len()..].trim_end_matches('"');
            (!rest.is_empty()).then(|| Hint {
                display: rest.to_string(),
                completion: Some(rest.to_string()),
            })
        }
        _ => Some(Hint {
            display: format!("  → {only}"),
            completion: None,
        }),
    }
}

/// The rustyline helper of the interactive shell.
pub struct TermHelper {
    pub names: Names,
    files: FilenameCompleter,
    colour: bool,
}

impl TermHelper {
    pub fn new(names: Names) -> TermHelper {
        TermHelper {
            names,
            files: FilenameCompleter::new(),
            colour: std::env::var_os("NO_COLOR").is_none(),
        }
    }
}

impl Completer for TermHelper {
    type Candidate = Pair;

    fn complete(&self, line: &str, pos: usize, ctx: &Context<'_>) -> rustyline::Result<(usize, Vec<Pair>)> {
        let verb = line.split_whitespace().next().unwrap_or("").to_lowercase();
        if matches!(verb.as_str(), "save" | "load" | "record") && line[..pos].trim_end() != verb {
            return self.files.complete(line, pos, ctx);
        }
        let (start, cands) = candidates(line, pos, &self.names);
        Ok((
            start,
            cands
                .into_iter()
                .map(|c| Pair {
                    display: c.trim_matches('"').to_string(),
                    replacement: c,
                })
                .collect(),
        ))
    }
}

impl Hinter for TermHelper {
    type Hint = Hint;

    fn hint(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> Option<Hint> {
        hint(line, pos, &self.names)
    }
}

impl Highlighter for TermHelper {
    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        if self.colour {
            Cow::Owned(format!("\x1b[2m{hint}\x1b[0m"))
        } else {
            Cow::Borrowed(hint)
        }
    }
}

impl Validator for TermHelper {}

impl rustyline::Helper for TermHelper {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::OnceLock;

    const HELP: &[(&str, &str, &str)] = &[
        ("status", "status", ""),
        ("show", "show Western Europe", ""),
        ("units", "units Germany", ""),
        ("buy", "buy 3 infantry", ""),
        ("move", "move 2 infantry, tank from Germany to Poland", ""),
        ("end", "end phase", ""),
        ("edit", "edit treasury Germany 40", ""),
        ("help", "help buy", ""),
    ];

    fn names() -> &'static Names {
        static NAMES: OnceLock<Names> = OnceLock::new();
        NAMES.get_or_init(|| {
            let editions = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../editions");
            let rules = warroom_core::rules::load(&warroom_core::layers::LoadRequest::new(editions, "1941"))
                .unwrap_or_else(|e| panic!("{:?}", e.problems));
            Names::new(&rules, HELP)
        })
    }

    /// The candidates at the end of `input`.
    fn check(input: &str, expected: &[&str]) {
        let (_, got) = candidates(input, input.len(), names());
        assert_eq!(got, expected, "completing `{input}`");
    }

    /// The line after Tab, as rustyline's list completion does it (the longest common prefix).
    fn tab(input: &str) -> String {
        let (start, got) = candidates(input, input.len(), names());
        let lcp = got
            .iter()
            .skip(1)
            .fold(got.first().cloned().unwrap_or_default(), |a, c| {
                a.chars()
                    .zip(c.chars())
                    .take_while(|(x, y)| x == y)
                    .map(|(x, _)| x)
                    .collect()
            });
        if lcp.len() > input.len() - start || got.len() == 1 {
            format!("{}{lcp}", &input[..start])
        } else {
            input.to_string()
        }
    }

    fn hinted(input: &str) -> Option<String> {
        hint(input, input.len(), names()).map(|h| h.display)
    }

    /// A layer's command completes as a verb, and its arguments as what they name.
    #[test]
    fn a_layers_command_completes_with_its_arguments() {
        let editions = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../editions");
        let mut req = warroom_core::layers::LoadRequest::new(editions, "anniversary");
        req.with = vec!["house/aid".into()];
        let rules = warroom_core::rules::load(&req).unwrap_or_else(|e| panic!("{:?}", e.problems));
        let names = Names::new(&rules, HELP);
        let at = |input: &str| candidates(input, input.len(), &names).1;
        assert_eq!(at("len"), ["lend"]);
        assert_eq!(at("lend 5 Sov"), ["\"Soviet Union\""]);
        assert!(at("lend ").is_empty(), "a number is typed, not chosen");
    }

    /// While a rule's question waits, `answer` completes with its answers.
    #[test]
    fn answer_completes_with_the_answers_of_the_question() {
        let editions = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../editions");
        let rules = warroom_core::rules::load(&warroom_core::layers::LoadRequest::new(editions, "1941"))
            .unwrap_or_else(|e| panic!("{:?}", e.problems));
        let mut names = Names::new(&rules, HELP);
        names.answers = vec!["strike".into(), "hold back".into()];
        let at = |input: &str, names: &Names| candidates(input, input.len(), names).1;
        assert_eq!(at("answer s", &names), ["strike"]);
        assert_eq!(at("answer ", &names), ["strike", "\"hold back\""]);
        names.answers.clear();
        assert!(at("answer ", &names).is_empty());
    }

    #[test]
    fn the_first_word_is_a_verb() {
        check("st", &["status"]);
        check("s", &["status", "show"]);
        check("EN", &["end phase"]);
        check(
            "",
            &[
                "status",
                "show",
                "units",
                "buy",
                "move",
                "end phase",
                "edit",
                "help",
            ],
        );
        check("help b", &["buy"]);
        check("end ", &["phase"]);
    }

    #[test]
    fn units_by_id_name_and_abbreviation() {
        check("buy 2 inf", &["infantry"]);
        assert_eq!(tab("buy 2 inf"), "buy 2 infantry");
        check("buy arm", &["tank"]);
        check("buy 1 Aircraft C", &["aircraft_carrier"]);
        check("move 2 infantry, t", &["tank", "to", "transport", "Turkey"]);
        check("buy 3 INF", &["infantry"]);
    }

    #[test]
    fn spaces_with_quotes_and_sea_zones() {
        check("show Kar", &["Karelia"]);
        check("show kar", &["Karelia"]);
        check(
            "show east",
            &[
                "\"East Indies\"",
                "\"East Mexico\"",
                "\"Eastern Canada\"",
                "\"Eastern Europe\"",
                "\"Eastern United States\"",
            ],
        );
        assert_eq!(tab("show east"), "show \"East");
        check("show eastern e", &["\"Eastern Europe\""]);
        assert_eq!(tab("show eastern e"), "show \"Eastern Europe\"");
        check("show \"Eastern E", &["Eastern Europe\""]);
        assert_eq!(tab("show \"eastern e"), "show \"Eastern Europe\"");
        check("show sz5", &["\"SZ 5\""]);
        check("show sz 5", &["\"SZ 5\""]);
        assert_eq!(hinted("move 1 infantry, tank "), None);
        check(
            "show SZ 4",
            &[
                "\"SZ 4\"",
                "\"SZ 40\"",
                "\"SZ 41\"",
                "\"SZ 42\"",
                "\"SZ 43\"",
                "\"SZ 44\"",
                "\"SZ 45\"",
                "\"SZ 46\"",
                "\"SZ 47\"",
                "\"SZ 48\"",
                "\"SZ 49\"",
            ],
        );
        let (_, zones) = candidates("fight sz", 8, names());
        assert_eq!(
            zones[..3],
            ["\"SZ 1\"", "\"SZ 2\"", "\"SZ 3\""],
            "numbers sort by value"
        );
    }

    #[test]
    fn names_start_after_keywords_commas_and_quoted_names() {
        check("move 3 inf from Kar", &["Karelia"]);
        check(
            "move 3 infantry from Karelia to \"Eastern Europe\", ta",
            &["tank"],
        );
        check("move tank from Karelia to", &["to"]);
        check("move tank from Karelia to West R", &["\"West Russia\""]);
        check(
            "edit add Karelia Sov",
            &["\"Soviet Far East\"", "\"Soviet Union\""],
        );
        check("edit add Karelia soviet u", &["\"Soviet Union\""]);
        assert_eq!(
            tab("edit add Karelia soviet u"),
            "edit add Karelia \"Soviet Union\""
        );
        check("edit add Karelia \"Soviet Union\" 1 inf", &["infantry"]);
        check("edit tre", &["treasury"]);
        check("units ger", &["Germany"]);
        check(
            "units ",
            &[
                "Germany",
                "Japan",
                "\"Soviet Union\"",
                "\"United Kingdom\"",
                "\"United States\"",
            ],
        );
    }

    #[test]
    fn declare_war_on_a_power() {
        check("declare ", &["war"]);
        check("declare w", &["war"]);
        check(
            "declare war ",
            &[
                "Germany",
                "Japan",
                "on",
                "\"Soviet Union\"",
                "\"United Kingdom\"",
                "\"United States\"",
            ],
        );
        check("declare war on sov", &["\"Soviet Union\""]);
        assert_eq!(tab("declare war on sov"), "declare war on \"Soviet Union\"");
        check(
            "declare war on united",
            &["\"United Kingdom\"", "\"United States\""],
        );
        check("declare war ger", &["Germany"]);
        check(
            "declare war on ",
            &[
                "Germany",
                "Japan",
                "\"Soviet Union\"",
                "\"United Kingdom\"",
                "\"United States\"",
            ],
        );
    }

    #[test]
    fn nothing_to_offer() {
        check("show Xyz", &[]);
        check("status ", &[]);
        check("buy Kar", &[]);
    }

    #[test]
    fn hints_show_the_example_or_the_one_candidate() {
        assert_eq!(hinted("buy").as_deref(), Some(" 3 infantry"));
        assert_eq!(hinted("buy ").as_deref(), Some("3 infantry"));
        assert_eq!(hinted("status"), None);
        assert_eq!(hinted("show Kar").as_deref(), Some("elia"));
        assert_eq!(hinted("show eastern e").as_deref(), Some("urope"));
        assert_eq!(hinted("buy 2 inf").as_deref(), Some("antry"));
        assert_eq!(hinted("buy arm").as_deref(), Some("  → tank"));
        assert_eq!(hinted("show east"), None);
    }
}
