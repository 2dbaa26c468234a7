//! The schema catalogue: every table and field of the TOML files warroom reads (a layer's
//! manifest, its rule data, scenario files), with type, default and meaning.
//!
//! Each [`Table`] is defined next to the code that reads it (`UNIT` beside `read_unit`) and
//! handed to [`Fields`](super::read::Fields), which reads nothing else: asking for a key the
//! table does not list, reading a required field as optional, a default or a set of choices
//! other than the catalogue's, all fail a debug assertion; unknown keys in a file are reported
//! with suggestions from the catalogue. [`DOCUMENTS`] lists every table (a table left out of it
//! fails the same assertion when it is read), and `warroom api` prints them (docs/api.md).
//! `core/tests/schema_catalogue.rs` loads every edition, option, fixture and scenario with
//! [`record`] on and checks the other direction: every catalogued field is read somewhere.
//!
//! Architecture invariant: reading costs nothing extra in a release build beyond one
//! thread-local check per field read, at load time only.

use std::cell::RefCell;
use std::collections::BTreeSet;

/// One TOML table of the schema.
#[derive(Debug)]
pub struct Table {
    /// Where the table sits, with `<placeholders>` for names chosen by the author
    /// (`units.<unit>.anti_air`); `""` for a file's top level.
    pub path: &'static str,
    /// What the table is, in a sentence or two.
    pub doc: &'static str,
    pub fields: &'static [Field],
}

/// One field of a [`Table`].
#[derive(Debug, Clone, Copy)]
pub struct Field {
    pub key: &'static str,
    /// The TOML type as authors write it: `int`, `string`, `[string]`, `table`, ...
    pub ty: &'static str,
    /// For a field that is one of a fixed set of words: the words, in the reader's order.
    pub choices: &'static [&'static str],
    pub need: Need,
    /// What it means, in one line.
    pub doc: &'static str,
}

/// Whether a field must be given, and what its absence means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    Required,
    /// Absent means "none" (or what the field's meaning says).
    Optional,
    /// Absent means this value.
    Default(&'static str),
}

impl Field {
    /// A field that must be given.
    pub const fn req(key: &'static str, ty: &'static str, doc: &'static str) -> Field {
        Field {
            key,
            ty,
            choices: &[],
            need: Need::Required,
            doc,
        }
    }

    /// A field that may be left out; its absence means what `doc` says.
    pub const fn opt(key: &'static str, ty: &'static str, doc: &'static str) -> Field {
        Field {
            key,
            ty,
            choices: &[],
            need: Need::Optional,
            doc,
        }
    }

    /// A field with a default value.
    pub const fn def(key: &'static str, ty: &'static str, default: &'static str, doc: &'static str) -> Field {
        Field {
            key,
            ty,
            choices: &[],
            need: Need::Default(default),
            doc,
        }
    }

    /// The field is one of these words (in the order the reader lists them).
    pub const fn one_of(mut self, choices: &'static [&'static str]) -> Field {
        self.choices = choices;
        self
    }

    /// The type as the reference shows it: the words of a choice, or the type.
    pub fn type_text(&self) -> String {
        if self.choices.is_empty() {
            self.ty.to_string()
        } else {
            self.choices
                .iter()
                .map(|c| format!("\"{c}\""))
                .collect::<Vec<_>>()
                .join(" | ")
        }
    }
}

impl Table {
    pub fn field(&self, key: &str) -> Option<&'static Field> {
        self.fields.iter().find(|f| f.key == key)
    }

    pub fn keys(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.fields.iter().map(|f| f.key)
    }

    /// `path.key`, as the reference names a field.
    pub fn path_of(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }
}

/// A table whose keys are names (`[units]`: one key per unit type), not fields: every key is
/// read, none is catalogued. The names' tables are catalogued on their own.
pub static NAMES: Table = Table {
    path: "<names>",
    doc: "a table of names",
    fields: &[],
};

/// One kind of file and its tables, in the order the reference shows them.
#[derive(Debug)]
pub struct Document {
    pub title: &'static str,
    pub doc: &'static str,
    pub tables: &'static [&'static Table],
}

/// Every table warroom reads, by kind of file.
pub static DOCUMENTS: &[Document] = &[
    Document {
        title: "Layer manifest: `layer.toml`",
        doc: "Every layer folder has one. It names the layer, its parents, its files and scripts \
              in order, the optional layers it offers and (for option and house layers) its \
              typed parameters.",
        tables: &[
            &crate::layers::MANIFEST_ROOT,
            &crate::layers::LAYER,
            &crate::layers::OPTION,
            &crate::layers::PARAM,
        ],
    },
    Document {
        title: "Rule data: the files a manifest lists",
        doc: "Every data file of every layer is merged into one tree (docs/editions.md §2: tables \
              deep-merge, scalars and arrays replace, `[append.PATH]` and `[remove.PATH]` patch, \
              `{ param = \"NAME\" }` is a parameter's value); the merged tree is read as below.",
        tables: &[
            &super::build::ROOT,
            &super::build::POWER,
            &super::build::TURN,
            &super::turn::WITHIN,
            &super::turn::SEGMENT,
            &super::build::PHASE,
            &super::build::UNIT,
            &super::build::MOVE_WITH,
            &super::build::ROCKET,
            &super::build::AIR_TRANSPORT,
            &super::build::SUPPORT,
            &super::build::ANTI_AIR,
            &super::build::FACILITY,
            &super::build::TERRITORY,
            &super::build::SEA_ZONE,
            &super::build::CANAL,
            &super::build::SCENARIO,
            &super::build::RULES,
            &super::combat::COMBAT,
            &super::victory::VICTORY,
            &super::commands::COMMAND,
            &super::commands::ARG,
            &super::players::PLAYERS,
            &super::players::TOGETHER,
            &super::politics::POLITICS,
            &super::ai::AI,
            &super::tech::RESEARCH,
            &super::tech::CHART,
            &super::tech::TECH,
            &super::tech::TECH_FACILITY,
            &super::tech::PARATROOPERS,
        ],
    },
    Document {
        title: "Scenario files: `tests/scenarios/**/*.toml`",
        doc: "A regression scenario or a recorded game (docs/scenarios.md): an edition, a \
              position, commands, and what must hold afterwards.",
        tables: &[
            &crate::scenario::read::CASE,
            &crate::scenario::read::START,
            &crate::scenario::read::STEP,
            &crate::scenario::read::EXPECT,
        ],
    },
];

/// Whether `table` is in [`DOCUMENTS`] (or is [`NAMES`]).
pub fn is_catalogued(table: &'static Table) -> bool {
    std::ptr::eq(table, &NAMES)
        || DOCUMENTS
            .iter()
            .flat_map(|d| d.tables.iter())
            .any(|t| std::ptr::eq(*t, table))
}

/// What was read while [`record`] was on.
#[derive(Debug, Default, Clone)]
pub struct Reads {
    /// (table, field) pairs asked for, the table by its address.
    read: BTreeSet<(usize, &'static str)>,
    /// Keys asked of a table that does not list them, as `path.key`.
    pub uncatalogued: BTreeSet<String>,
}

impl Reads {
    /// Whether any code asked `table` for `key`.
    pub fn has(&self, table: &'static Table, key: &str) -> bool {
        let at = table as *const Table as usize;
        self.read.iter().any(|(t, k)| *t == at && *k == key)
    }
}

thread_local! {
    static RECORDING: RefCell<Option<Reads>> = const { RefCell::new(None) };
}

/// Runs `f` noting every field read on this thread: the proof that every catalogued field is
/// read by some code (and that nothing uncatalogued is, in a release build too).
pub fn record<R>(f: impl FnOnce() -> R) -> (R, Reads) {
    RECORDING.with(|r| *r.borrow_mut() = Some(Reads::default()));
    let out = f();
    let reads = RECORDING.with(|r| r.borrow_mut().take()).unwrap_or_default();
    (out, reads)
}

/// A reader asked `table` for `key`.
pub(crate) fn note_read(table: &'static Table, key: &str) {
    debug_assert!(
        table.field(key).is_some() || std::ptr::eq(table, &NAMES),
        "`{}` is read but not in the schema catalogue: add it to the table `{}` beside its reader",
        table.path_of(key),
        table.path
    );
    RECORDING.with(|r| {
        if let Some(reads) = r.borrow_mut().as_mut() {
            match table.field(key) {
                Some(f) => {
                    reads.read.insert((table as *const Table as usize, f.key));
                }
                None => {
                    reads.uncatalogued.insert(table.path_of(key));
                }
            }
        }
    });
}

/// Debug checks that the catalogue says what the reader does.
pub(crate) mod check {
    use super::{Need, Table};

    pub fn registered(table: &'static Table) {
        debug_assert!(
            super::is_catalogued(table),
            "the table `{}` is read but not listed in schema::DOCUMENTS",
            table.path
        );
    }

    pub fn required(table: &Table, key: &str) {
        if !cfg!(debug_assertions) {
            return;
        }
        if let Some(f) = table.field(key) {
            debug_assert!(
                f.need == Need::Required,
                "`{}` is read as required; the catalogue says {:?}",
                table.path_of(key),
                f.need
            );
        }
    }

    /// A default the reader applies (`1`, `true`) is the catalogue's.
    pub fn default(table: &Table, key: &str, value: &str) {
        if !cfg!(debug_assertions) {
            return;
        }
        if let Some(f) = table.field(key) {
            debug_assert!(
                matches!(f.need, Need::Default(d) if d == value || !is_literal(d)),
                "`{}` defaults to {value} in the reader; the catalogue says {:?}",
                table.path_of(key),
                f.need
            );
        }
    }

    /// A default written as a value rather than in words ("one per power").
    fn is_literal(d: &str) -> bool {
        d == "true" || d == "false" || d.parse::<i64>().is_ok()
    }

    pub fn choices(table: &Table, key: &str, words: &[&str]) {
        if !cfg!(debug_assertions) {
            return;
        }
        if let Some(f) = table.field(key) {
            debug_assert!(
                f.choices == words,
                "`{}` is one of {words:?} in the reader; the catalogue says {:?}",
                table.path_of(key),
                f.choices
            );
        }
    }
}
