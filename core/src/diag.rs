//! Source files and located diagnostics.
//!
//! Every problem found while building a rule set is a [`Problem`] that points into a source
//! file by byte span, optionally with a second label in another file (a patch and the thing it
//! patches). Problems are collected, never thrown one by one, so `warroom check` can report all
//! of them at once.

use miette::{Diagnostic, LabeledSpan, NamedSource, SourceCode, SourceSpan};
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Index of a file in [`Sources`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u32);

/// A source file as read from disk, kept so diagnostics can show it long after loading.
#[derive(Debug)]
pub struct SourceFile {
    /// The path as shown to users (relative to the project root where possible).
    pub display: String,
    pub path: PathBuf,
    pub text: Arc<String>,
}

/// All files read while building one rule set.
#[derive(Debug, Default)]
pub struct Sources {
    files: Vec<SourceFile>,
}

impl Sources {
    pub fn add(&mut self, path: &Path, display: String, text: String) -> FileId {
        self.files.push(SourceFile {
            display,
            path: path.to_path_buf(),
            text: Arc::new(text),
        });
        FileId(self.files.len() as u32 - 1)
    }

    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    pub fn named(&self, id: FileId) -> NamedSource<Arc<String>> {
        let f = self.get(id);
        NamedSource::new(f.display.clone(), f.text.clone()).with_language("toml")
    }

    /// `file:line:column` of a byte offset, 1-based.
    pub fn location(&self, id: FileId, offset: usize) -> String {
        let f = self.get(id);
        let (line, col) = line_col(&f.text, offset);
        format!("{}:{}:{}", f.display, line, col)
    }
}

/// A file's text as `Sources` keeps it. Text that is not UTF-8 is kept with each bad sequence
/// replaced by U+FFFD, so it can still be shown, together with the byte offset of the first
/// one (the same offset in both texts, as everything before it is unchanged).
pub fn read_text(path: &Path) -> std::io::Result<(String, Option<usize>)> {
    let bytes = std::fs::read(path)?;
    Ok(match String::from_utf8(bytes) {
        Ok(text) => (text, None),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            (String::from_utf8_lossy(e.as_bytes()).into_owned(), Some(at))
        }
    })
}

/// The problem of a file that is not UTF-8, at its first bad byte (`offset`, from
/// [`read_text`]).
pub fn not_utf8(sources: &Sources, file: FileId, offset: usize) -> Problem {
    let end = offset + char::REPLACEMENT_CHARACTER.len_utf8();
    Problem::new("file::not-utf8", "the file is not UTF-8 text")
        .at(Label::new(sources, file, offset..end, "not UTF-8 from here"))
        .help("save the file as UTF-8")
}

/// 1-based line and column of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// A labelled span in a named source.
#[derive(Debug, Clone)]
pub struct Label {
    pub source: NamedSource<Arc<String>>,
    pub span: SourceSpan,
    pub text: String,
    /// `file:line:col`, precomputed so plain-text rendering and tests need no source lookup.
    pub location: String,
}

/// The furthest column (tabs counting eight) a label is drawn under: miette pads a label to
/// its column with a formatting width, which panics past 65 535, and a label under a
/// megabyte-long line helps nobody. A label further along is drawn at the line's start, and
/// says its column.
const MAX_LABEL_COLUMN: usize = 2_000;

/// Column of a byte offset within its line, as miette draws it (tabs counting eight), and the
/// offset where that line starts.
fn drawn_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let column = text[start..offset]
        .chars()
        .map(|c| if c == '\t' { 8 } else { 1 })
        .sum();
    (column, start)
}

impl Label {
    pub fn new(sources: &Sources, file: FileId, span: Range<usize>, text: impl Into<String>) -> Self {
        let mut text = text.into();
        let location = sources.location(file, span.start);
        let content = &sources.get(file).text;
        let (start_col, line_start) = drawn_column(content, span.start);
        let (end_col, _) = drawn_column(content, span.end);
        let span = if start_col.max(end_col) > MAX_LABEL_COLUMN {
            text = format!("{text} (column {})", start_col + 1);
            line_start..line_start
        } else {
            span
        };
        Label {
            source: sources.named(file),
            span: (span.start, span.end.saturating_sub(span.start)).into(),
            text,
            location,
        }
    }
}

/// One located problem: what is wrong, where, and what to do about it.
#[derive(Debug, Clone)]
pub struct Problem {
    pub code: &'static str,
    pub message: String,
    pub help: Option<String>,
    pub primary: Option<Box<Label>>,
    /// Further places involved (the other file of a patch, the first definition, ...).
    pub related: Vec<Related>,
}

impl Problem {
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        Problem {
            code,
            message: message.into(),
            help: None,
            primary: None,
            related: Vec::new(),
        }
    }

    pub fn at(mut self, label: Label) -> Self {
        self.primary = Some(Box::new(label));
        self
    }

    pub fn also(mut self, label: Label) -> Self {
        self.related.push(Related(label));
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// `file:line:col` of the primary label, if any.
    pub fn location(&self) -> Option<&str> {
        self.primary.as_ref().map(|l| l.location.as_str())
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Problem {}

/// A secondary label rendered as its own related diagnostic, so it can live in another file.
#[derive(Debug, Clone)]
pub struct Related(pub Label);

impl fmt::Display for Related {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.0.text, self.0.location)
    }
}
impl std::error::Error for Related {}
impl Diagnostic for Related {
    fn severity(&self) -> Option<miette::Severity> {
        Some(miette::Severity::Advice)
    }
    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.0.source)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(std::iter::once(LabeledSpan::new_with_span(
            Some(self.0.text.clone()),
            self.0.span,
        ))))
    }
}

impl Diagnostic for Problem {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code))
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h.clone()) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.primary.as_ref().map(|l| &l.source as &dyn SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let l = self.primary.as_ref()?;
        Some(Box::new(std::iter::once(LabeledSpan::new_primary_with_span(
            Some(l.text.clone()),
            l.span,
        ))))
    }
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        if self.related.is_empty() {
            return None;
        }
        Some(Box::new(self.related.iter().map(|r| r as &dyn Diagnostic)))
    }
}

/// Every problem found in one load, in the order found.
#[derive(Debug, Default, Clone)]
pub struct Problems(pub Vec<Problem>);

impl Problems {
    pub fn push(&mut self, p: Problem) {
        self.0.push(p);
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn iter(&self) -> impl Iterator<Item = &Problem> {
        self.0.iter()
    }
}

impl fmt::Display for Problems {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} problem(s) in the rule set", self.0.len())
    }
}
impl std::error::Error for Problems {}
impl Diagnostic for Problems {
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        Some(Box::new(self.0.iter().map(|p| p as &dyn Diagnostic)))
    }
}
