//! Saves: initial state (edition, layers, scenario, seed) plus the command log, with the state
//! hash after each command, as human-readable, versioned TOML.
//!
//! A save is the game's commands, not its state, so it survives every change to `State`: loading
//! replays the log under the current rules. The hashes are a check that reports, never a gate:
//! a save written by an older warroom, whose state hashed differently, loads with a warning
//! naming the first command whose state differs. What cannot load is a save the current rules
//! cannot replay (a command they refuse: the game past it does not exist under them) and a file
//! that is not a save; both are errors located in the file.
//!
//! The format is versioned. A change to what a save means (a field renamed or reinterpreted,
//! command text the parser no longer reads) bumps [`VERSION`] and adds the migration from the
//! previous version to [`MIGRATIONS`]; every version from [`OLDEST`] on stays readable.

use super::{Game, Origin};
use crate::diag::{Label, Problem, Sources};
use crate::layers::LoadRequest;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

pub const FORMAT: &str = "warroom-save";
/// The format version this build writes. Version 4: the hashes are of hash scheme 4
/// ([`crate::game::state::State::hash`]); version 1 to 3 saves hold scheme 1 to 3 hashes,
/// checked as such. Version 5: the owner of an air unit whose base was lost chooses where it
/// lands (an engine question, answered by a command of the log). Version 6: rule scripts' questions
/// before the battles (Japan's kamikazes) are asked as the first `fight` is ordered
/// (`battles_begin`), no longer as combat move ends.
pub const VERSION: i64 = 6;
/// The first format version ever written; a save of any version from it to [`VERSION`] loads.
pub const OLDEST: i64 = 1;

/// A command longer than this is damage, not play: the longest real commands (a move of many
/// unit types along a long `via`) are a few hundred bytes, and a megabyte line would otherwise
/// go through name matching that is quadratic in its length.
pub const MAX_COMMAND_LEN: usize = 4096;

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

/// A save as read from its file, before replay: what a version's reader produces, what each
/// migration rewrites, and what the replay reads. Spans point into the file as written.
#[derive(Clone, Debug)]
pub struct Save {
    pub version: i64,
    pub version_span: Range<usize>,
    pub edition: (String, Range<usize>),
    pub with: Vec<String>,
    pub scenario: (String, Range<usize>),
    pub seed: u64,
    /// The seating, one list of power names per player.
    pub players: Option<(Vec<Vec<String>>, Range<usize>)>,
    pub final_hash: Option<(u64, Range<usize>)>,
    pub commands: Vec<SavedCommand>,
}

/// One command of the log: its text, where that text is in the file, and the state hash saved
/// after it (absent in a log written by hand: then nothing is checked).
#[derive(Clone, Debug)]
pub struct SavedCommand {
    pub text: String,
    pub span: Range<usize>,
    pub hash: Option<u64>,
}

/// Rewrites a save of one format version into the next (`Err`: why this save cannot be).
pub type Migration = fn(&mut Save) -> Result<(), String>;

/// `MIGRATIONS[i]` turns a save of version `OLDEST + i` into one of version `OLDEST + i + 1`.
/// The array's length is tied to [`VERSION`], so bumping it without a migration does not
/// compile.
pub const MIGRATIONS: [Migration; (VERSION - OLDEST) as usize] =
    [v1_to_v2, v2_to_v3, v3_to_v4, v4_to_v5, v5_to_v6];

/// Version 2 changed how the state is hashed, nothing a save says: the commands read the same.
/// The hashes a version 1 save holds stay scheme 1 hashes, and the replay checks them as such
/// ([`hash_scheme`] of the version the file was written in).
fn v1_to_v2(_: &mut Save) -> Result<(), String> {
    Ok(())
}

/// Version 3 changed how the state is hashed again (scheme 3 packs who held each space at the
/// start of the turn), nothing a save says; version 2 hashes are checked as scheme 2.
fn v2_to_v3(_: &mut Save) -> Result<(), String> {
    Ok(())
}

/// Version 4 hashes what units carry since (a land unit's blitz this turn, the tags rule
/// scripts write on units), nothing a save says; version 3 hashes are checked as scheme 3.
fn v3_to_v4(_: &mut Save) -> Result<(), String> {
    Ok(())
}

/// Version 5 asks the owner where a scrambled or intercepting air unit whose base was lost
/// lands, where version 4 took the first place; the commands read the same. A version 4 log
/// has no answers: the replay gives the first place, as the engine did ([`replay`]).
fn v4_to_v5(_: &mut Save) -> Result<(), String> {
    Ok(())
}

/// Version 6 asks Japan's kamikazes (and any script's question on `battles_begin`) as the
/// attacker orders its first battle, where version 5 asked them as its combat move ended; the
/// commands read the same. A version 5 log answers before any question waits: the replay keeps
/// those answers for the `fight` that asks ([`replay`]).
fn v5_to_v6(_: &mut Save) -> Result<(), String> {
    Ok(())
}

/// The hash scheme of the hashes a save of this format version holds: scheme N since version N
/// (versions 5 and 6 hash as scheme 4).
pub fn hash_scheme(version: i64) -> i64 {
    version.clamp(1, 4)
}

/// A save that was read: the game, replayed, and what the load noticed on the way.
pub struct Loaded {
    pub game: Game,
    /// The format version the file was written in (older ones were migrated).
    pub version: i64,
    /// Reported, never refused: chiefly the first command whose state differs from the hash
    /// the save recorded.
    pub warnings: Vec<SaveWarning>,
    /// Commands of an older save given a second time on replay (a version 5 `fight` that asks
    /// Japan's kamikazes, answered in the log before it).
    pub given_again: usize,
    /// Answers given on replay that an older save's log does not have: before version 5 the
    /// engine landed air units whose base was lost at the first place it found, asking nobody,
    /// and the load answers `1` for it. The game's history is the log's commands,
    /// `given_again` and these.
    pub landed: usize,
}

/// Something a load noticed that does not stop the game, located in the save file.
#[derive(Debug, Clone)]
pub struct SaveWarning(pub Problem);

impl std::fmt::Display for SaveWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0.message)
    }
}
impl std::error::Error for SaveWarning {}
impl miette::Diagnostic for SaveWarning {
    fn severity(&self) -> Option<miette::Severity> {
        Some(miette::Severity::Warning)
    }
    fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.0.code()
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.0.source_code()
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        self.0.labels()
    }
    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        miette::Diagnostic::help(&self.0)
    }
}

/// A save that could not be loaded, located in the save file.
#[derive(Debug)]
pub enum LoadSaveError {
    /// The file is not a save this warroom reads: not UTF-8, not TOML, a field missing or of
    /// the wrong kind, a version newer than this build, a scenario that cannot start.
    Corrupt(Box<Problem>),
    /// The rules the save names could not be built.
    Rules(Box<RulesError>),
    /// The current rules refuse a command of the log, so the game cannot be replayed past it.
    Diverged(Box<Problem>),
}

/// The rules a save names could not be built: located at the save's `edition`, with the rule
/// set's own problems (located in the editions) as related diagnostics.
#[derive(Debug)]
pub struct RulesError {
    pub problem: Problem,
    pub error: crate::rules::LoadError,
}

impl std::fmt::Display for RulesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.problem.message)
    }
}

impl std::fmt::Display for LoadSaveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.problem().message)
    }
}
impl std::error::Error for LoadSaveError {}
impl LoadSaveError {
    /// The problem, located in the save file, whatever the kind.
    pub fn problem(&self) -> &Problem {
        match self {
            LoadSaveError::Corrupt(p) | LoadSaveError::Diverged(p) => p,
            LoadSaveError::Rules(r) => &r.problem,
        }
    }
}

impl miette::Diagnostic for LoadSaveError {
    fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.problem().code()
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.problem().source_code()
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        self.problem().labels()
    }
    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        miette::Diagnostic::help(self.problem())
    }
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        match self {
            LoadSaveError::Rules(r) => r.error.related(),
            _ => None,
        }
    }
}

/// Load a save and return the game alone; what [`open`] would warn about is dropped.
pub fn load(path: &Path, text: &str, editions_dir: &Path) -> Result<Game, LoadSaveError> {
    open(path, text.as_bytes(), editions_dir).map(|l| l.game)
}

/// Read a save file's bytes: check and migrate it, rebuild the rules it names (from
/// `editions_dir`), replay its commands and compare each state with the hash saved after it.
pub fn open(path: &Path, bytes: &[u8], editions_dir: &Path) -> Result<Loaded, LoadSaveError> {
    let src = SaveSource::new(path, bytes);
    if let Some(at) = src.invalid_utf8 {
        let byte = bytes[at];
        return Err(LoadSaveError::Corrupt(Box::new(
            Problem::new(
                "save::corrupt",
                format!("the save is not UTF-8 text: byte 0x{byte:02x} cannot be read"),
            )
            .at(src.label(at..at + '\u{fffd}'.len_utf8(), "not UTF-8"))
            .help("a save is a TOML text file; this one was damaged or is not a save"),
        )));
    }
    let mut save = read(&src)?;
    let from = save.version;
    migrate(&mut save, &MIGRATIONS).map_err(|(to, e)| {
        src.corrupt(
            save.version_span.clone(),
            format!("this version {from} save cannot be read as version {to}: {e}"),
            "migrating",
        )
    })?;
    let loaded = replay(&src, save, editions_dir, from)?;
    Ok(Loaded {
        version: from,
        ..loaded
    })
}

/// Run the migrations from the save's version on, one version at a time (`migrations[i]` takes
/// version `OLDEST + i`); `Err` names the version that could not be reached, and why.
fn migrate(save: &mut Save, migrations: &[Migration]) -> Result<(), (i64, String)> {
    let first = usize::try_from(save.version - OLDEST).unwrap_or(usize::MAX);
    for m in migrations.iter().skip(first) {
        let to = save.version + 1;
        m(save).map_err(|e| (to, e))?;
        save.version = to;
    }
    Ok(())
}

/// The save file as diagnostics show it, and where its text stops being UTF-8.
struct SaveSource {
    sources: Sources,
    file: crate::diag::FileId,
    invalid_utf8: Option<usize>,
}

impl SaveSource {
    fn new(path: &Path, bytes: &[u8]) -> SaveSource {
        let (text, invalid_utf8) = match std::str::from_utf8(bytes) {
            Ok(t) => (t.to_string(), None),
            // The lossy text is the same as the file up to the first bad byte, so that offset
            // is a place in both.
            Err(e) => (String::from_utf8_lossy(bytes).into_owned(), Some(e.valid_up_to())),
        };
        let mut sources = Sources::default();
        let file = sources.add(path, path.display().to_string(), text);
        SaveSource {
            sources,
            file,
            invalid_utf8,
        }
    }

    fn text(&self) -> &str {
        &self.sources.get(self.file).text
    }

    /// A label on `span`, widened to whole characters so no offset falls inside one.
    fn label(&self, span: Range<usize>, text: &str) -> Label {
        let t = self.text();
        let mut start = span.start.min(t.len());
        while !t.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = span.end.clamp(start, t.len());
        while !t.is_char_boundary(end) {
            end += 1;
        }
        Label::new(&self.sources, self.file, start..end, text)
    }

    fn corrupt(&self, span: Range<usize>, msg: String, label: &str) -> LoadSaveError {
        LoadSaveError::Corrupt(Box::new(
            Problem::new("save::corrupt", msg).at(self.label(span, label)),
        ))
    }

    /// 1-based line of a byte offset, for messages that name a place in words.
    fn line(&self, offset: usize) -> usize {
        let t = self.text();
        t.as_bytes()[..offset.min(t.len())]
            .iter()
            .filter(|b| **b == b'\n')
            .count()
            + 1
    }
}

/// A TOML integer as written, in its radix: `None` when the value is not an integer, `Some(None)`
/// when its digits overflow even 128 bits.
fn integer(v: &toml::de::DeValue<'_>) -> Option<Option<i128>> {
    let i = v.as_integer()?;
    Some(i128::from_str_radix(i.as_str(), i.radix()).ok())
}

/// A command's text as a message quotes it: control characters escaped (they would act on
/// the terminal), and a long text cut short.
fn shown(text: &str) -> String {
    let mut s = String::new();
    for (n, c) in text.chars().enumerate() {
        if n == 80 {
            s.push('…');
            break;
        }
        if c.is_control() {
            s.extend(c.escape_default());
        } else {
            s.push(c);
        }
    }
    s
}

/// The version-1 reader: the fields of the file, checked for kind, into a [`Save`]. A later
/// version whose fields differ reads them here by `version` before migrations run.
fn read(src: &SaveSource) -> Result<Save, LoadSaveError> {
    let text = src.text();
    let doc = toml::de::DeTable::parse(text).map_err(|e| {
        src.corrupt(
            e.span().unwrap_or(0..0),
            format!("the save is not valid TOML: {}", shown(e.message().trim())),
            "here",
        )
    })?;
    let doc_start = doc.span().start;
    let t = doc.get_ref();
    let field = |k: &str| {
        t.get(k).ok_or_else(|| {
            src.corrupt(
                doc_start..doc_start,
                format!("the save has no `{k}`"),
                "missing field",
            )
        })
    };
    let str_field = |k: &str| -> Result<(String, Range<usize>), LoadSaveError> {
        let v = field(k)?;
        match v.get_ref().as_str() {
            Some(s) => Ok((s.to_string(), v.span())),
            None => Err(src.corrupt(v.span(), format!("`{k}` must be a string"), "expected a string")),
        }
    };
    let (format, fspan) = str_field("format")?;
    if format != FORMAT {
        return Err(src.corrupt(
            fspan,
            format!("not a warroom save (format {:?})", shown(&format)),
            "unknown format",
        ));
    }
    let v = field("version")?;
    let (version, version_span) = (read_version(src, v)?, v.span());
    let edition = str_field("edition")?;
    let scenario = str_field("scenario")?;
    let seed = read_seed(src, field("seed")?)?;
    let with = t
        .get("with")
        .map(|v| read_with(src, v))
        .transpose()?
        .unwrap_or_default();
    // `players`: the seating, read now and checked once the rules are known.
    let players = t.get("players").map(|v| read_players(src, v)).transpose()?;
    let final_hash = match t.get("final_hash") {
        Some(v) => Some((read_hash(src, v, "`final_hash`")?, v.span())),
        None => None,
    };
    let commands = match t.get("command") {
        Some(v) => read_commands(src, v, final_hash.is_some())?,
        None => Vec::new(),
    };
    check_log_whole(src, final_hash.as_ref(), &commands)?;
    Ok(Save {
        version,
        version_span,
        edition,
        with,
        scenario,
        seed,
        players,
        final_hash,
        commands,
    })
}

/// A value of the save's TOML, with where it is in the file.
type SaveValue<'a> = toml::Spanned<toml::de::DeValue<'a>>;

/// `version`: a format this build reads (from [`OLDEST`] to [`VERSION`]).
fn read_version(src: &SaveSource, v: &SaveValue<'_>) -> Result<i64, LoadSaveError> {
    match integer(v.get_ref()) {
        Some(Some(n)) if (i128::from(OLDEST)..=i128::from(VERSION)).contains(&n) => Ok(n as i64),
        Some(Some(n)) if n > i128::from(VERSION) => Err(LoadSaveError::Corrupt(Box::new(
            Problem::new(
                "save::corrupt",
                format!(
                    "save version {n} is newer than this warroom, which reads versions {OLDEST} to {VERSION}"
                ),
            )
            .at(src.label(v.span(), "written by a newer warroom"))
            .help("load it with the warroom that saved it, or a newer one"),
        ))),
        Some(_) => Err(src.corrupt(
            v.span(),
            format!(
                "save version {} is not supported (this warroom reads versions {OLDEST} to {VERSION})",
                shown(src.text().get(v.span()).unwrap_or("?"))
            ),
            "unsupported version",
        )),
        None => Err(src.corrupt(
            v.span(),
            "`version` must be an integer".into(),
            "expected an integer",
        )),
    }
}

fn read_seed(src: &SaveSource, v: &SaveValue<'_>) -> Result<u64, LoadSaveError> {
    integer(v.get_ref())
        .flatten()
        .and_then(|n| u64::try_from(n).ok())
        .ok_or_else(|| {
            src.corrupt(
                v.span(),
                "`seed` must be an integer from 0 to 18446744073709551615".into(),
                "bad seed",
            )
        })
}

/// `with`: the layers, by name.
fn read_with(src: &SaveSource, v: &SaveValue<'_>) -> Result<Vec<String>, LoadSaveError> {
    let Some(arr) = v.get_ref().as_array() else {
        return Err(src.corrupt(
            v.span(),
            "`with` must be an array of strings".into(),
            "expected an array",
        ));
    };
    arr.iter()
        .map(|item| match item.get_ref().as_str() {
            Some(s) => Ok(s.to_string()),
            None => Err(src.corrupt(
                item.span(),
                "`with` must contain strings".into(),
                "expected a string",
            )),
        })
        .collect()
}

/// `players`: one list of power names per player.
fn read_players(
    src: &SaveSource,
    v: &SaveValue<'_>,
) -> Result<(Vec<Vec<String>>, Range<usize>), LoadSaveError> {
    let bad = || {
        src.corrupt(
            v.span(),
            "`players` must be an array of arrays of power names, one per player".into(),
            "expected [[\"POWER\", ...], ...]",
        )
    };
    let arr = v.get_ref().as_array().ok_or_else(bad)?;
    let mut seating = Vec::new();
    for item in arr.iter() {
        let powers = item.get_ref().as_array().ok_or_else(bad)?;
        let mut names = Vec::new();
        for p in powers.iter() {
            names.push(p.get_ref().as_str().ok_or_else(bad)?.to_string());
        }
        seating.push(names);
    }
    Ok((seating, v.span()))
}

fn read_hash(src: &SaveSource, v: &SaveValue<'_>, what: &str) -> Result<u64, LoadSaveError> {
    v.get_ref()
        .as_str()
        .and_then(|s| u64::from_str_radix(s, 16).ok())
        .ok_or_else(|| {
            src.corrupt(
                v.span(),
                format!("{what} must be a hexadecimal state hash, like \"0123456789abcdef\""),
                "not a hash",
            )
        })
}

/// The `[[command]]` log. In a whole save (`whole`: it has a `final_hash`) every command has
/// its hash.
fn read_commands(
    src: &SaveSource,
    v: &SaveValue<'_>,
    whole: bool,
) -> Result<Vec<SavedCommand>, LoadSaveError> {
    let Some(arr) = v.get_ref().as_array() else {
        return Err(src.corrupt(
            v.span(),
            "`command` must be an array of tables".into(),
            "expected [[command]]",
        ));
    };
    arr.iter()
        .enumerate()
        .map(|(i, item)| read_command(src, i + 1, item, whole))
        .collect()
}

/// Command `n` of the log: its text and the hash saved after it.
fn read_command(
    src: &SaveSource,
    n: usize,
    item: &SaveValue<'_>,
    whole: bool,
) -> Result<SavedCommand, LoadSaveError> {
    let Some(ct) = item.get_ref().as_table() else {
        return Err(src.corrupt(
            item.span(),
            format!("command {n} must be a table"),
            "expected a table",
        ));
    };
    let (text, span) = match ct.get("text") {
        Some(v) => match v.get_ref().as_str() {
            Some(s) => (s.to_string(), v.span()),
            None => {
                return Err(src.corrupt(
                    v.span(),
                    format!("the text of command {n} must be a string"),
                    "expected a string",
                ))
            }
        },
        None => {
            return Err(src.corrupt(
                item.span(),
                format!("command {n} has no `text`"),
                "incomplete command",
            ))
        }
    };
    if text.len() > MAX_COMMAND_LEN {
        return Err(src.corrupt(
            span,
            format!(
                "command {n} is {} bytes long; no command is longer than {MAX_COMMAND_LEN}",
                text.len()
            ),
            "too long",
        ));
    }
    let hash = match ct.get("hash") {
        Some(v) => Some(read_hash(src, v, &format!("the hash of command {n}"))?),
        // warroom writes a hash after every command; a log written by hand has none.
        None if whole => {
            return Err(src.corrupt(
                item.span(),
                format!("command {n} has no `hash`: the save is cut short or damaged"),
                "incomplete command",
            ))
        }
        None => None,
    };
    Ok(SavedCommand { text, span, hash })
}

/// `final_hash` is the hash after the last command, written before the log: in a whole save
/// the two agree whatever build wrote it, so a disagreement is a log cut short at a command's
/// end (or damage) that a replay would otherwise take for a shorter game.
fn check_log_whole(
    src: &SaveSource,
    final_hash: Option<&(u64, Range<usize>)>,
    commands: &[SavedCommand],
) -> Result<(), LoadSaveError> {
    if let (Some((fh, fspan)), Some(SavedCommand { hash: Some(last), .. })) = (final_hash, commands.last()) {
        if fh != last {
            let n = commands.len();
            return Err(LoadSaveError::Corrupt(Box::new(
                Problem::new(
                    "save::corrupt",
                    format!(
                        "the save is cut short or damaged: its log ends at command {n} (line {}), \
                         but `final_hash` is not the hash saved after it",
                        src.line(commands[n - 1].span.start)
                    ),
                )
                .at(src.label(fspan.clone(), "the game was saved after another command"))
                .help("the end of the file is missing; a copy of the save made elsewhere may be whole"),
            )));
        }
    }
    Ok(())
}

/// The game a (current-version) save describes: the rules it names, its commands replayed.
fn replay(src: &SaveSource, save: Save, editions_dir: &Path, from: i64) -> Result<Loaded, LoadSaveError> {
    let scheme = hash_scheme(from);
    let mut game = start_game(src, &save, editions_dir)?;
    let replayed = replay_commands(src, &save, &mut game, from, scheme)?;
    let mut warnings = replayed.warnings;
    if !replayed.drifted {
        warnings.extend(final_hash_warning(src, &save, &game, scheme));
    }
    seat_players(src, &save, &mut game)?;
    Ok(Loaded {
        game,
        version: save.version,
        warnings,
        given_again: replayed.given_again,
        landed: replayed.landed,
    })
}

/// The game at its start, under the rules the save names.
fn start_game(src: &SaveSource, save: &Save, editions_dir: &Path) -> Result<Game, LoadSaveError> {
    let (edition, espan) = &save.edition;
    let mut req = LoadRequest::new(editions_dir, edition.clone());
    req.with = save.with.clone();
    let rules = crate::rules::load(&req).map_err(|error| {
        let with = if save.with.is_empty() {
            String::new()
        } else {
            format!(" with {}", save.with.join(", "))
        };
        LoadSaveError::Rules(Box::new(RulesError {
            problem: Problem::new(
                "save::rules",
                format!(
                    "the rules this save names (edition {}{}) cannot be built: {} problem(s)",
                    shown(edition),
                    shown(&with),
                    error.problems.len()
                ),
            )
            .at(src.label(espan.clone(), "these rules"))
            .help("the problems in the rules follow; a save names an edition folder under the editions directory"),
            error,
        }))
    })?;
    let (scenario, sspan) = &save.scenario;
    Game::new(Arc::new(rules), edition, &save.with, Some(scenario), save.seed).map_err(|e| {
        src.corrupt(
            sspan.clone(),
            format!("the saved game cannot start: {}", shown(&e)),
            "cannot start",
        )
    })
}

/// What replaying a save's commands found besides the game itself.
struct Replayed {
    warnings: Vec<SaveWarning>,
    /// A command's state differed from the hash saved after it (warned once).
    drifted: bool,
    given_again: usize,
    landed: usize,
}

/// The save's commands, one by one, with what older versions did differently given as they
/// did it: Japan's kamikaze answers (before version 6) and air units landed unasked (before
/// version 5).
fn replay_commands(
    src: &SaveSource,
    save: &Save,
    game: &mut Game,
    from: i64,
    scheme: i64,
) -> Result<Replayed, LoadSaveError> {
    let mut out = Replayed {
        warnings: Vec::new(),
        drifted: false,
        given_again: 0,
        landed: 0,
    };
    // Before version 6 Japan's kamikazes were asked as the enemy's combat move ended: the
    // answers, given before any question waits now, are kept for the `fight` that asks them.
    let mut early: Vec<(usize, &SavedCommand)> = Vec::new();
    for (i, c) in save.commands.iter().enumerate() {
        let n = i + 1;
        if let Err(r) = game.execute(&c.text) {
            let answer_too_early = from < 6
                && c.text.trim_start().to_lowercase().starts_with("answer")
                && game.state().questions.0.is_empty();
            if !answer_too_early {
                return Err(diverged(src, n, c, &r));
            }
            early.push((n, c));
        } else if from < 6
            && !early.is_empty()
            && c.text.trim_start().to_lowercase().starts_with("fight")
            && !game.state().questions.0.is_empty()
        {
            let warning = answer_again(src, game, &mut early, (n, c), from)?;
            out.warnings.push(warning);
            out.given_again += 1;
        }
        // Before version 5 the engine landed air units whose base was lost at the first place
        // it found, asking nobody: that answer is given here.
        while from < 5
            && game
                .state()
                .questions
                .0
                .first()
                .is_some_and(|q| q.key.starts_with(super::scramble::LANDING))
        {
            if game.execute("answer 1").is_err() {
                break;
            }
            out.landed += 1;
        }
        if let Some(saved) = c.hash {
            let now = game.hash_in_scheme(scheme);
            if !out.drifted && now != saved {
                out.drifted = true;
                out.warnings.push(drift(src, c, n, now, saved));
            }
        }
    }
    // Answers no `fight` asked for are refused, as they were where the log gave them.
    if let Some((n, c)) = early.first() {
        let r = super::Rejection::new("no question waits for an answer here, and no later `fight` asked one")
            .by(super::questions::RULE_QUESTION);
        return Err(diverged(src, *n, c, &r));
    }
    Ok(out)
}

/// A version 5 `fight` (`fight`, command `n`) asked the questions the `early` answers were
/// given for before it: they are given again now, then the `fight` again.
fn answer_again(
    src: &SaveSource,
    game: &mut Game,
    early: &mut Vec<(usize, &SavedCommand)>,
    (n, fight): (usize, &SavedCommand),
    from: i64,
) -> Result<SaveWarning, LoadSaveError> {
    let (first, last) = (early[0].0, early[early.len() - 1].0);
    let which = if first == last {
        format!("command {first}")
    } else {
        format!("commands {first} to {last}")
    };
    for (m, e) in early.drain(..) {
        game.execute(&e.text).map_err(|r| diverged(src, m, e, &r))?;
    }
    game.execute(&fight.text)
        .map_err(|r| diverged(src, n, fight, &r))?;
    Ok(SaveWarning(
        Problem::new(
            "save::migrated",
            format!(
                "a version {from} save: the answers of {which} were given when this `{}` asked the questions, and it was given again",
                shown(&fight.text)
            ),
        )
        .at(src.label(fight.span.clone(), "asked here"))
        .help("this version asks Japan's kamikazes as the first battle is ordered, after the scrambles; version 5 asked them as combat move ended"),
    ))
}

/// The error for command `n`, which the current rules reject on replay.
fn diverged(src: &SaveSource, n: usize, c: &SavedCommand, r: &super::Rejection) -> LoadSaveError {
    let line = src.line(c.span.start);
    LoadSaveError::Diverged(Box::new(
        Problem::new(
            "save::diverged",
            format!(
                "the game cannot be replayed past command {n} `{}` (line {line}): the current rules reject it: {}",
                shown(&c.text),
                shown(&r.to_string())
            ),
        )
        .at(src.label(c.span.clone(), "rejected on replay"))
        .help(format!(
            "the rules changed since this game was saved, and no part of a game is loaded as if it were the whole. \
             Load it with the rules it was played under, or, to play on from before this command, \
             delete the [[command]] tables from line {} on: the first {} command(s) replay",
            line.saturating_sub(1).max(1),
            n - 1
        )),
    ))
}

/// The warning when the state after the last command is not the one the save recorded.
fn final_hash_warning(src: &SaveSource, save: &Save, game: &Game, scheme: i64) -> Option<SaveWarning> {
    let (saved, span) = save.final_hash.as_ref()?;
    let now = game.hash_in_scheme(scheme);
    (now != *saved).then(|| {
        SaveWarning(
            Problem::new(
                "save::hash",
                format!(
                    "saved by another warroom: the state after the last command differs from the saved hash \
                     ({now:016x}, saved {saved:016x}); the game was replayed under the current rules"
                ),
            )
            .at(src.label(span.clone(), "differs"))
            .help("the rules or the engine changed since this save was written; saving again records the current hashes"),
        )
    })
}

/// The players' seating the save recorded, if it did.
fn seat_players(src: &SaveSource, save: &Save, game: &mut Game) -> Result<(), LoadSaveError> {
    let Some((seating, span)) = &save.players else {
        return Ok(());
    };
    let mut ids = Vec::new();
    for names in seating {
        let mut powers = Vec::new();
        for name in names {
            let p = game.rules().power(name).ok_or_else(|| {
                src.corrupt(
                    span.clone(),
                    format!("`players` names `{}`, not a power of this edition", shown(name)),
                    "unknown power",
                )
            })?;
            powers.push(p);
        }
        ids.push(powers);
    }
    game.seat_players(ids).map_err(|e| {
        src.corrupt(
            span.clone(),
            format!("the saved seating breaks the rules: {}", shown(&e)),
            "seating",
        )
    })
}

/// The warning for the first command whose state differs from the hash saved after it.
fn drift(src: &SaveSource, c: &SavedCommand, n: usize, now: u64, saved: u64) -> SaveWarning {
    SaveWarning(
        Problem::new(
            "save::hash",
            format!(
                "saved by another warroom: the state after command {n} `{}` (line {}) differs from the saved hash \
                 ({now:016x}, saved {saved:016x}); the game was replayed under the current rules",
                shown(&c.text),
                src.line(c.span.start)
            ),
        )
        .at(src.label(c.span.clone(), "the state differs from here on"))
        .help(
            "every command replayed, so the game is whole; the rules or the engine changed since this save was \
             written (a new field in the state, a rule fixed), which may have changed what this command did. \
             Saving again records the current hashes",
        ),
    )
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

#[cfg(test)]
mod tests {
    use super::*;

    fn save(version: i64, commands: &[&str]) -> Save {
        Save {
            version,
            version_span: 0..0,
            edition: ("mini".into(), 0..0),
            with: Vec::new(),
            scenario: ("start".into(), 0..0),
            seed: 1,
            players: None,
            final_hash: None,
            commands: commands
                .iter()
                .map(|c| SavedCommand {
                    text: c.to_string(),
                    span: 0..0,
                    hash: Some(1),
                })
                .collect(),
        }
    }

    // Two made-up format changes: version 2 renamed `buy` to `purchase`, version 3 dropped the
    // hashes (their meaning changed).
    fn to_v2(s: &mut Save) -> Result<(), String> {
        for c in &mut s.commands {
            if let Some(rest) = c.text.strip_prefix("buy ") {
                c.text = format!("purchase {rest}");
            }
        }
        Ok(())
    }
    fn to_v3(s: &mut Save) -> Result<(), String> {
        if s.commands.iter().any(|c| c.text.is_empty()) {
            return Err("an empty command".into());
        }
        for c in &mut s.commands {
            c.hash = None;
        }
        Ok(())
    }
    const CHAIN: [Migration; 2] = [to_v2, to_v3];

    #[test]
    fn a_save_is_migrated_from_its_own_version_through_every_later_one() {
        let mut v1 = save(1, &["buy 2 infantry", "end phase"]);
        migrate(&mut v1, &CHAIN).unwrap();
        assert_eq!(v1.version, 3);
        assert_eq!(v1.commands[0].text, "purchase 2 infantry");
        assert_eq!(v1.commands[0].hash, None);

        // A version-2 save already says `purchase`: only the step to 3 runs on it.
        let mut v2 = save(2, &["buy 2 infantry"]);
        migrate(&mut v2, &CHAIN).unwrap();
        assert_eq!((v2.version, v2.commands[0].text.as_str()), (3, "buy 2 infantry"));

        let mut v3 = save(3, &["buy 2 infantry"]);
        migrate(&mut v3, &CHAIN).unwrap();
        assert_eq!(v3.commands[0].hash, Some(1), "a current save is untouched");

        let mut bad = save(1, &["buy 1 tank", ""]);
        assert_eq!(
            migrate(&mut bad, &CHAIN),
            Err((3, "an empty command".to_string()))
        );
    }
}
