//! Saves: initial state (edition, layers, scenario, seed) plus the command log, with the state
//! hash after each command, as human-readable, versioned TOML.
//!
//! Loading replays the log against the current rules and checks each hash, so a save made under
//! other rules reports the first command where the game diverges instead of loading silently.

use super::{Game, Origin};
use crate::diag::{Label, Problem, Sources};
use crate::layers::LoadRequest;
use std::path::Path;
use std::sync::Arc;

pub const FORMAT: &str = "warroom-save";
pub const VERSION: i64 = 1;

impl Game {
    /// The save text for this game.
    pub fn save_text(&self) -> String {
        let o = self.origin();
        let mut s = String::new();
        s.push_str("# warroom saved game: replayed command by command when loaded\n");
        s.push_str(&format!("format = {}\n", toml_str(FORMAT)));
        s.push_str(&format!("version = {VERSION}\n"));
        s.push_str(&format!("edition = {}\n", toml_str(&o.edition)));
        let with: Vec<String> = o.with.iter().map(|w| toml_str(w)).collect();
        s.push_str(&format!("with = [{}]\n", with.join(", ")));
        s.push_str(&format!("scenario = {}\n", toml_str(&o.scenario)));
        s.push_str(&format!("seed = {}\n", o.seed));
        if let Some(seats) = self.seats() {
            // The table's seating as it stands now, one list of powers per player.
            let players: Vec<String> = seats
                .players
                .iter()
                .map(|pl| {
                    let names: Vec<String> = pl
                        .iter()
                        .map(|p| toml_str(&self.rules().power_info(*p).name))
                        .collect();
                    format!("[{}]", names.join(", "))
                })
                .collect();
            s.push_str(&format!("players = [{}]\n", players.join(", ")));
        }
        s.push_str(&format!("final_hash = \"{:016x}\"\n", self.hash()));
        for r in self.history() {
            s.push_str("\n[[command]]\n");
            s.push_str(&format!("text = {}\n", toml_str(&r.text)));
            s.push_str(&format!("hash = \"{:016x}\"\n", r.hash));
        }
        s
    }
}

/// A TOML string literal (saves and recordings).
pub(crate) fn toml_str(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// A save that could not be loaded, located in the save file.
#[derive(Debug)]
pub enum LoadSaveError {
    /// The save file itself is malformed or from an unknown version.
    Corrupt(Box<Problem>),
    /// The rules the save names could not be built.
    Rules(crate::rules::LoadError),
    /// Replaying the log did not reproduce the saved game.
    Diverged(Box<Problem>),
}

impl std::fmt::Display for LoadSaveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadSaveError::Corrupt(p) | LoadSaveError::Diverged(p) => write!(f, "{}", p.message),
            LoadSaveError::Rules(e) => write!(f, "{e}"),
        }
    }
}
impl std::error::Error for LoadSaveError {}
impl LoadSaveError {
    /// The located problem, for the two kinds that point into the save file.
    fn problem(&self) -> Option<&Problem> {
        match self {
            LoadSaveError::Corrupt(p) | LoadSaveError::Diverged(p) => Some(p),
            LoadSaveError::Rules(_) => None,
        }
    }
}

impl miette::Diagnostic for LoadSaveError {
    fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        match self.problem() {
            Some(p) => p.code(),
            None => Some(Box::new("save::rules")),
        }
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.problem()?.source_code()
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        self.problem()?.labels()
    }
    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        miette::Diagnostic::help(self.problem()?)
    }
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        match self {
            LoadSaveError::Rules(e) => e.related(),
            _ => None,
        }
    }
}

/// Load a save: rebuild the rules it names (from `editions_dir`), replay, verify hashes.
pub fn load(path: &Path, text: &str, editions_dir: &Path) -> Result<Game, LoadSaveError> {
    let mut sources = Sources::default();
    let file = sources.add(path, path.display().to_string(), text.to_string());
    let corrupt = |sources: &Sources, span: std::ops::Range<usize>, msg: String, label: &str| {
        LoadSaveError::Corrupt(Box::new(
            Problem::new("save::corrupt", msg).at(Label::new(sources, file, span, label)),
        ))
    };
    let doc = toml::de::DeTable::parse(text).map_err(|e| {
        corrupt(
            &sources,
            e.span().unwrap_or(0..0),
            format!("the save is not valid TOML: {}", e.message().trim()),
            "here",
        )
    })?;
    let doc_span = doc.span();
    let t = doc.get_ref();
    let get = |k: &str| t.get(k);
    let str_field = |k: &str| -> Result<(String, std::ops::Range<usize>), LoadSaveError> {
        match get(k) {
            Some(v) => match v.get_ref().as_str() {
                Some(s) => Ok((s.to_string(), v.span())),
                None => Err(corrupt(
                    &sources,
                    v.span(),
                    format!("`{k}` must be a string"),
                    "expected a string",
                )),
            },
            None => Err(corrupt(
                &sources,
                doc_span.start..doc_span.start,
                format!("the save has no `{k}`"),
                "missing field",
            )),
        }
    };
    let (format, fspan) = str_field("format")?;
    if format != FORMAT {
        return Err(corrupt(
            &sources,
            fspan,
            format!("not a warroom save (format {format:?})"),
            "unknown format",
        ));
    }
    let version = get("version").and_then(|v| {
        v.get_ref()
            .as_integer()
            .map(|i| (i.as_str().parse::<i64>().ok(), v.span()))
    });
    match version {
        Some((Some(VERSION), _)) => {}
        Some((v, span)) => {
            return Err(corrupt(
                &sources,
                span,
                format!(
                    "save version {} is not supported (this warroom reads version {VERSION})",
                    v.map_or("?".into(), |v| v.to_string())
                ),
                "unsupported version",
            ))
        }
        None => {
            return Err(corrupt(
                &sources,
                doc_span.start..doc_span.start,
                "the save has no `version`".into(),
                "missing",
            ))
        }
    }
    let (edition, _) = str_field("edition")?;
    let (scenario, _) = str_field("scenario")?;
    let seed = match get("seed") {
        Some(v) => match v
            .get_ref()
            .as_integer()
            .and_then(|i| i.as_str().parse::<u64>().ok())
        {
            Some(s) => s,
            None => {
                return Err(corrupt(
                    &sources,
                    v.span(),
                    "`seed` must be a non-negative integer".into(),
                    "bad seed",
                ))
            }
        },
        None => {
            return Err(corrupt(
                &sources,
                doc_span.start..doc_span.start,
                "the save has no `seed`".into(),
                "missing",
            ))
        }
    };
    let mut with = Vec::new();
    if let Some(v) = get("with") {
        let Some(arr) = v.get_ref().as_array() else {
            return Err(corrupt(
                &sources,
                v.span(),
                "`with` must be an array of strings".into(),
                "expected an array",
            ));
        };
        for item in arr.iter() {
            match item.get_ref().as_str() {
                Some(s) => with.push(s.to_string()),
                None => {
                    return Err(corrupt(
                        &sources,
                        item.span(),
                        "`with` must contain strings".into(),
                        "expected a string",
                    ))
                }
            }
        }
    }
    // `players`: the seating, read now and checked once the rules are known.
    let mut players: Option<(Vec<Vec<String>>, std::ops::Range<usize>)> = None;
    if let Some(v) = get("players") {
        let bad = |sources: &Sources| {
            corrupt(
                sources,
                v.span(),
                "`players` must be an array of arrays of power names, one per player".into(),
                "expected [[\"POWER\", ...], ...]",
            )
        };
        let Some(arr) = v.get_ref().as_array() else {
            return Err(bad(&sources));
        };
        let mut seating = Vec::new();
        for item in arr.iter() {
            let Some(powers) = item.get_ref().as_array() else {
                return Err(bad(&sources));
            };
            let mut names = Vec::new();
            for p in powers.iter() {
                match p.get_ref().as_str() {
                    Some(name) => names.push(name.to_string()),
                    None => return Err(bad(&sources)),
                }
            }
            seating.push(names);
        }
        players = Some((seating, v.span()));
    }
    let mut commands = Vec::new();
    if let Some(v) = get("command") {
        let Some(arr) = v.get_ref().as_array() else {
            return Err(corrupt(
                &sources,
                v.span(),
                "`command` must be an array of tables".into(),
                "expected [[command]]",
            ));
        };
        for item in arr.iter() {
            let Some(ct) = item.get_ref().as_table() else {
                return Err(corrupt(
                    &sources,
                    item.span(),
                    "each [[command]] must be a table".into(),
                    "expected a table",
                ));
            };
            let text = ct
                .get("text")
                .and_then(|v| v.get_ref().as_str().map(|s| (s.to_string(), v.span())));
            let hash = ct
                .get("hash")
                .and_then(|v| v.get_ref().as_str().and_then(|s| u64::from_str_radix(s, 16).ok()));
            match (text, hash) {
                (Some((text, span)), Some(hash)) => commands.push((text, span, hash)),
                _ => {
                    return Err(corrupt(
                        &sources,
                        item.span(),
                        "each [[command]] needs `text` and a hexadecimal `hash`".into(),
                        "incomplete command",
                    ))
                }
            }
        }
    }
    let mut req = LoadRequest::new(editions_dir, edition.clone());
    req.with = with.clone();
    let rules = crate::rules::load(&req).map_err(LoadSaveError::Rules)?;
    let mut game = Game::new(Arc::new(rules), &edition, &with, Some(&scenario), seed).map_err(|e| {
        corrupt(
            &sources,
            doc_span.start..doc_span.start,
            e,
            "cannot start this game",
        )
    })?;
    for (i, (text, span, hash)) in commands.iter().enumerate() {
        if let Err(r) = game.execute(text) {
            return Err(LoadSaveError::Diverged(Box::new(
                Problem::new(
                    "save::diverged",
                    format!(
                        "command {} `{text}` is rejected under the current rules: {r}",
                        i + 1
                    ),
                )
                .at(Label::new(&sources, file, span.clone(), "rejected on replay"))
                .help(
                    "the rules changed since this game was saved; load it with the rules it was played under",
                ),
            )));
        }
        if game.hash() != *hash {
            return Err(LoadSaveError::Diverged(Box::new(
                Problem::new(
                    "save::diverged",
                    format!(
                        "after command {} `{text}` the state differs from the saved game (hash {:016x}, saved {hash:016x})",
                        i + 1,
                        game.hash()
                    ),
                )
                .at(Label::new(&sources, file, span.clone(), "diverges here"))
                .help("the rules changed since this game was saved"),
            )));
        }
    }
    if let Some((seating, span)) = players {
        let mut ids = Vec::new();
        for names in seating {
            let mut powers = Vec::new();
            for name in names {
                match game.rules().power(&name) {
                    Some(p) => powers.push(p),
                    None => {
                        return Err(corrupt(
                            &sources,
                            span,
                            format!("`players` names `{name}`, not a power of this edition"),
                            "unknown power",
                        ))
                    }
                }
            }
            ids.push(powers);
        }
        game.seat_players(ids).map_err(|e| {
            corrupt(
                &sources,
                span.clone(),
                format!("the saved seating breaks the rules: {e}"),
                "seating",
            )
        })?;
    }
    Ok(game)
}

impl Origin {
    pub fn describe(&self) -> String {
        let mut s = format!("{} scenario {} seed {}", self.edition, self.scenario, self.seed);
        if !self.with.is_empty() {
            s.push_str(&format!(" with {}", self.with.join(", ")));
        }
        s
    }
}
